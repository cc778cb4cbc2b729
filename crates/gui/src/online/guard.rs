//! Online play answers strangers: who a request comes from (the peer's address, or a named
//! proxy's `X-Forwarded-For`), where its page comes from (`Origin` must be the server's own
//! public address), and how much each address may ask a minute.

use axum::http::{header, HeaderMap};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The peer's address as the accept loop saw it, put on each request by [`crate::serve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerAddress(pub SocketAddr);

/// Where requests may come from, and whom to believe about the client's address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    /// The address people use (`https://shogi.example.org`); `None`: the `Host` the request
    /// names, over http or https.
    pub public_url: Option<String>,
    /// The reverse proxy in front, whose `X-Forwarded-For` names the client.
    pub trusted_proxy: Option<IpAddr>,
}

impl Origins {
    /// The client's address: the peer's, or the last address a trusted proxy added.
    pub fn client(&self, peer: Option<PeerAddress>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = peer?.0.ip();
        if Some(peer) != self.trusted_proxy {
            return Some(peer);
        }
        let forwarded = headers.get("x-forwarded-for")?.to_str().ok()?;
        forwarded
            .rsplit(',')
            .next()?
            .trim()
            .parse()
            .ok()
            .or(Some(peer))
    }

    /// Why a request's `Origin` is refused, if it is: a browser says where the page that
    /// sends it comes from, and only this server's own pages may play here.
    pub fn refusal(&self, headers: &HeaderMap) -> Option<&'static str> {
        let origin = headers.get(header::ORIGIN)?;
        let Ok(origin) = origin.to_str() else {
            return Some("an unreadable Origin");
        };
        let allowed = match &self.public_url {
            Some(url) => same_origin(origin, url),
            None => headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .is_some_and(|host| {
                    same_origin(origin, &format!("http://{host}"))
                        || same_origin(origin, &format!("https://{host}"))
                }),
        };
        (!allowed).then_some("requests from other sites are refused")
    }
}

/// Whether `origin` is the origin of `url` (scheme and authority, case-insensitive).
fn same_origin(origin: &str, url: &str) -> bool {
    let of_url = url
        .split_once("://")
        .map(|(scheme, rest)| format!("{scheme}://{}", rest.split('/').next().unwrap_or("")));
    of_url.is_some_and(|o| o.eq_ignore_ascii_case(origin.trim_end_matches('/')))
}

/// How many times each address did something within a window; a bounded map (the oldest
/// entries go first when it is full).
pub struct AddressLimiter {
    per_window: u32,
    window: Duration,
    counts: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

/// The most addresses a limiter remembers.
const MAX_ADDRESSES: usize = 100_000;

impl AddressLimiter {
    /// At most `per_window` times per `window` per address.
    pub fn new(per_window: u32, window: Duration) -> AddressLimiter {
        AddressLimiter {
            per_window,
            window,
            counts: Mutex::default(),
        }
    }

    /// Counts one more for `address`; false if it is over its limit.
    pub fn allow(&self, address: IpAddr) -> bool {
        let now = Instant::now();
        let mut counts = self.counts.lock().expect("limiter lock");
        if counts.len() >= MAX_ADDRESSES {
            let window = self.window;
            counts.retain(|_, (since, _)| now.duration_since(*since) < window);
            if counts.len() >= MAX_ADDRESSES {
                // Flooded from everywhere: refuse new addresses until windows pass.
                return counts.contains_key(&address) && self.bump(&mut counts, address, now);
            }
        }
        self.bump(&mut counts, address, now)
    }

    fn bump(
        &self,
        counts: &mut HashMap<IpAddr, (Instant, u32)>,
        address: IpAddr,
        now: Instant,
    ) -> bool {
        let entry = counts.entry(address).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= self.per_window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_the_servers_own_pages_and_a_named_proxys_word() {
        let public = Origins {
            public_url: Some("https://shogi.example.org".into()),
            trusted_proxy: Some("10.0.0.1".parse().unwrap()),
        };
        assert_eq!(public.refusal(&headers(&[])), None);
        assert_eq!(
            public.refusal(&headers(&[("origin", "https://shogi.example.org")])),
            None
        );
        assert!(public
            .refusal(&headers(&[("origin", "http://shogi.example.org")]))
            .is_some());
        assert!(public
            .refusal(&headers(&[("origin", "https://evil.example")]))
            .is_some());
        let lan = Origins::default();
        let h = headers(&[
            ("host", "192.168.1.5:8080"),
            ("origin", "http://192.168.1.5:8080"),
        ]);
        assert_eq!(lan.refusal(&h), None);
        let h = headers(&[("host", "192.168.1.5:8080"), ("origin", "http://evil:8080")]);
        assert!(lan.refusal(&h).is_some());
        // The proxy's word is taken; anyone else's header is not.
        let via = headers(&[("x-forwarded-for", "203.0.113.9, 198.51.100.7")]);
        let proxy = PeerAddress("10.0.0.1:5000".parse().unwrap());
        let stranger = PeerAddress("10.0.0.2:5000".parse().unwrap());
        assert_eq!(
            public.client(Some(proxy), &via),
            Some("198.51.100.7".parse().unwrap())
        );
        assert_eq!(
            public.client(Some(stranger), &via),
            Some("10.0.0.2".parse().unwrap())
        );
        assert_eq!(
            lan.client(Some(proxy), &via),
            Some("10.0.0.1".parse().unwrap())
        );
    }

    #[test]
    fn an_address_is_held_to_its_count_a_window() {
        let limiter = AddressLimiter::new(3, Duration::from_millis(100));
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        assert!((0..3).all(|_| limiter.allow(a)));
        assert!(!limiter.allow(a));
        assert!(limiter.allow(b));
        std::thread::sleep(Duration::from_millis(120));
        assert!(limiter.allow(a));
    }
}
