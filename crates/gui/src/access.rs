//! Who may use the board's server: only its own page. A web page on another site could
//! otherwise open WebSockets to `127.0.0.1` (cross-site WebSocket hijacking), or reach it
//! under a name of its own (DNS rebinding), and start engines on the user's machine.
//!
//! Every request must name the server by one of its own names in `Host`, and come from its
//! own page when it says where it comes from (`Origin`); the page and the WebSocket also
//! need the token made at each start and printed in the address (`/?token=...`), which no
//! other page can know.

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// What a request must show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The secret of this run, asked for by the page and the WebSocket.
    pub token: String,
    /// `Host` values the server answers to (`127.0.0.1:8080`, `localhost:8080`); empty:
    /// any (a server listening on every address cannot know the names people reach it by;
    /// the token still guards it).
    pub hosts: Vec<String>,
}

impl Access {
    /// A fresh token, and the names of `bound`: its address and, on loopback, `localhost`.
    pub fn for_address(bound: SocketAddr) -> Access {
        let port = bound.port();
        let ip = bound.ip();
        let mut hosts = Vec::new();
        if !ip.is_unspecified() {
            hosts.push(match ip {
                IpAddr::V4(v4) => format!("{v4}:{port}"),
                IpAddr::V6(v6) => format!("[{v6}]:{port}"),
            });
            if ip.is_loopback() {
                hosts.push(format!("localhost:{port}"));
            }
        }
        Access {
            token: new_token(),
            hosts,
        }
    }

    /// The address to open: the page with its token.
    pub fn url(&self, bound: SocketAddr) -> String {
        let host = self
            .hosts
            .first()
            .cloned()
            .unwrap_or_else(|| bound.to_string());
        format!("http://{host}/?token={}", self.token)
    }

    /// Why `request` is refused, if it is.
    fn refusal(&self, request: &Request) -> Option<&'static str> {
        let headers = request.headers();
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let Some(host) = host else {
            return Some("no Host header");
        };
        if !self.hosts.is_empty() && !self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return Some("this server does not answer to that Host");
        }
        // Browsers say where a WebSocket or a form comes from; it must be this page.
        if let Some(origin) = headers.get(header::ORIGIN) {
            let own = format!("http://{host}");
            if !origin.to_str().is_ok_and(|o| o.eq_ignore_ascii_case(&own)) {
                return Some("requests from other sites are refused");
            }
        }
        let guarded = matches!(request.uri().path(), "/" | "/ws");
        if guarded && !self.token_matches(request.uri().query().unwrap_or("")) {
            return Some(
                "a token is needed: open the address that gogo-gui printed when it started \
                 (http://.../?token=...)",
            );
        }
        None
    }

    fn token_matches(&self, query: &str) -> bool {
        query
            .split('&')
            .filter_map(|pair| pair.strip_prefix("token="))
            .any(|given| same_secret(given.as_bytes(), self.token.as_bytes()))
    }
}

/// Compares without stopping at the first difference, so that the time taken says nothing
/// of how much of a guess was right.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// 128 random bits as hex, from the operating system (the same secrets as seats and keys).
fn new_token() -> String {
    gogo_store::Secret::generate().expose().to_string()
}

/// The middleware: 403 with the reason for a request that does not pass.
pub async fn guard(State(access): State<Arc<Access>>, request: Request, next: Next) -> Response {
    match access.refusal(&request) {
        Some(reason) => {
            log::warn!(
                "refused {} {} (Host {:?}, Origin {:?}): {reason}",
                request.method(),
                request.uri().path(),
                request.headers().get(header::HOST),
                request.headers().get(header::ORIGIN),
            );
            (StatusCode::FORBIDDEN, format!("403 Forbidden: {reason}\n")).into_response()
        }
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_tokens_and_urls() {
        let a = Access::for_address("127.0.0.1:8080".parse().unwrap());
        assert_eq!(a.hosts, vec!["127.0.0.1:8080", "localhost:8080"]);
        assert_eq!(a.token.len(), 32);
        assert_ne!(
            a.token,
            Access::for_address("127.0.0.1:8080".parse().unwrap()).token
        );
        assert_eq!(
            a.url("127.0.0.1:8080".parse().unwrap()),
            format!("http://127.0.0.1:8080/?token={}", a.token)
        );
        let v6 = Access::for_address("[::1]:9000".parse().unwrap());
        assert_eq!(v6.hosts, vec!["[::1]:9000", "localhost:9000"]);
        let lan = Access::for_address("192.168.1.5:80".parse().unwrap());
        assert_eq!(lan.hosts, vec!["192.168.1.5:80"]);
        assert!(Access::for_address("0.0.0.0:80".parse().unwrap())
            .hosts
            .is_empty());
        assert!(a.token_matches(&format!("x=1&token={}", a.token)));
        assert!(!a.token_matches("token="));
        assert!(!a.token_matches(&format!("token={}0", a.token)));
        assert!(same_secret(b"abc", b"abc") && !same_secret(b"abc", b"abd"));
    }
}
