//! What the processes say to each other on the bus (PostgreSQL's LISTEN/NOTIFY): each
//! process listens on its own channel; a message is JSON, split into numbered parts when it
//! is longer than a notification takes, and one sender's messages arrive in the order sent.

use crate::online::protocol::{RoomRequest, RoomUpdate};
use gogo_store::cluster::{Listener, Notifier, MAX_NOTIFICATION};
use gogo_store::SecretHash;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::mpsc;

/// Who attaches, as the bus says it (a seat by its secret's hash, in hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum WireWho {
    Spectator,
    Seat(String),
    Player(String),
}

/// One message between processes. To a game's holder: what pages elsewhere ask of it.
/// To a page's process: what its room says back.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Wire {
    /// A page on `from` attaches to `game`; the answer comes as [`Wire::Answer`].
    Attach {
        game: String,
        from: String,
        conn: u64,
        who: WireWho,
        after: Option<(u64, u64)>,
        max_spectators: usize,
        answer: u64,
    },
    /// That page went away.
    Detach {
        game: String,
        from: String,
        conn: u64,
    },
    /// That page's request.
    Request {
        game: String,
        from: String,
        conn: u64,
        request: RoomRequest,
        lag_ms: u64,
    },
    /// A player's request through the API.
    Act {
        game: String,
        from: String,
        answer: u64,
        player: String,
        request: RoomRequest,
    },
    /// A challenge declined.
    Decline {
        game: String,
        from: String,
        answer: u64,
        player: String,
    },
    /// A player takes the open seat (the seat's hash, hex).
    Join {
        game: String,
        from: String,
        answer: u64,
        player: String,
        seat: String,
    },
    /// `from` still has pages attached to rooms here.
    Alive { from: String },
    /// To every process: the lobby changed (rooms opened, taken, closed).
    Lobby,
    /// To every process: tell `player`'s event streams `event`.
    Tell {
        player: String,
        event: serde_json::Value,
    },
    /// An update of room `game` (held by `from`) for page `conn` there.
    Update {
        game: String,
        from: String,
        conn: u64,
        update: RoomUpdate,
    },
    /// The room let page `conn` go.
    Closed { conn: u64 },
    /// The answer to a request that awaits one.
    Answer {
        answer: u64,
        result: Result<serde_json::Value, String>,
    },
}

/// A seat's hash as the bus carries it.
pub(crate) fn hex(hash: &SecretHash) -> String {
    hash.0.iter().map(|b| format!("{b:02x}")).collect()
}

/// A seat's hash from the bus.
pub(crate) fn unhex(text: &str) -> Option<SecretHash> {
    // Only the 64 digits `hex` writes: `from_str_radix` alone would take a sign too.
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut hash = [0u8; 32];
    for (i, byte) in hash.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(SecretHash(hash))
}

/// The parts of `message` (the `serial`th from `from`), each one notification:
/// `from:serial:index:count:text`.
pub(crate) fn parts(from: &str, serial: u64, message: &str) -> Vec<String> {
    let room = MAX_NOTIFICATION - from.len() - 64;
    let mut pieces = Vec::new();
    let mut rest = message;
    while !rest.is_empty() || pieces.is_empty() {
        let mut end = rest.len().min(room);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        pieces.push(&rest[..end]);
        rest = &rest[end..];
    }
    let count = pieces.len();
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, text)| format!("{from}:{serial}:{i}:{count}:{text}"))
        .collect()
}

/// The most parts a message may come in (2 MB): a room's whole view is far less, and what
/// is being put together stays bounded whatever arrives.
pub(crate) const MAX_PARTS: usize = 256;

/// A number as `parts` writes it: digits only (no sign, no space).
fn digits<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Puts messages together from their parts, as they come.
#[derive(Default)]
pub(crate) struct Assembler {
    partial: HashMap<String, (u64, usize, String)>,
}

impl Assembler {
    /// Takes one notification; a whole message once its last part came. A part out of
    /// order (a sender's message cut by a lost connection) drops what was begun.
    pub(crate) fn take(&mut self, payload: &str) -> Option<Wire> {
        let mut fields = payload.splitn(5, ':');
        let from = fields.next()?;
        let serial: u64 = digits(fields.next()?)?;
        let index: usize = digits(fields.next()?)?;
        let count: usize = digits(fields.next()?)?;
        let text = fields.next()?;
        if count == 0 || count > MAX_PARTS || index >= count {
            return None;
        }
        if count == 1 && index == 0 {
            self.partial.remove(from);
            return serde_json::from_str(text).ok();
        }
        let entry = self
            .partial
            .entry(from.to_string())
            .or_insert_with(|| (serial, 0, String::new()));
        if index == 0 {
            *entry = (serial, 0, String::new());
        }
        if entry.0 != serial || entry.1 != index {
            self.partial.remove(from);
            return None;
        }
        entry.1 += 1;
        entry.2.push_str(text);
        if entry.1 < count {
            return None;
        }
        let (_, _, whole) = self.partial.remove(from)?;
        serde_json::from_str(&whole).ok()
    }
}

/// Starts the thread that sends on the bus: messages to `(process, message)`, sent in
/// order, those waiting together in one transaction. A failed send is retried on a new
/// connection (a process whose bus is down cannot tell its pages elsewhere; they come
/// back after a gap and get the room whole).
pub(crate) fn start_sender(url: String, me: String) -> std::sync::mpsc::Sender<(String, Wire)> {
    let (outbox, queue) = std::sync::mpsc::channel::<(String, Wire)>();
    std::thread::Builder::new()
        .name("gogo-bus-out".into())
        .spawn(move || {
            let mut notifier = None;
            let mut serial = 0u64;
            while let Ok(first) = queue.recv() {
                let mut batch = Vec::new();
                for (to, wire) in std::iter::once(first).chain(queue.try_iter().take(511)) {
                    let Ok(text) = serde_json::to_string(&wire) else {
                        continue;
                    };
                    serial += 1;
                    let pieces = parts(&me, serial, &text);
                    if pieces.len() > MAX_PARTS {
                        // Never built: no room says this much at once.
                        log::error!("a message of {} bytes is too long for the bus", text.len());
                        continue;
                    }
                    batch.extend(pieces.into_iter().map(|p| (to.clone(), p)));
                }
                for attempt in 0..3 {
                    if notifier.is_none() {
                        notifier = Notifier::connect(&url)
                            .map_err(|e| log::error!("bus: cannot connect: {e}"))
                            .ok();
                    }
                    let Some(n) = notifier.as_mut() else {
                        std::thread::sleep(Duration::from_millis(200 << attempt));
                        continue;
                    };
                    match n.send(&batch) {
                        Ok(()) => break,
                        Err(e) => {
                            log::error!("bus: cannot send: {e}");
                            notifier = None;
                        }
                    }
                }
            }
        })
        .expect("a thread for the bus");
    outbox
}

/// What the listening thread hands the process: a message, or word that its connection
/// was lost (and messages may have been missed).
pub(crate) enum Heard {
    Message(Wire),
    Gap,
}

/// Starts the thread that listens on this process's channel `me` and on `all`, every
/// process's.
pub(crate) fn start_listener(url: String, me: String, all: String, heard: mpsc::Sender<Heard>) {
    std::thread::Builder::new()
        .name("gogo-bus-in".into())
        .spawn(move || {
            let mut assembler = Assembler::default();
            loop {
                let mut listener = match Listener::connect(&url, &[&me, &all]) {
                    Ok(l) => l,
                    Err(e) => {
                        log::error!("bus: cannot listen: {e}");
                        std::thread::sleep(Duration::from_secs(1));
                        continue;
                    }
                };
                loop {
                    match listener.wait(Duration::from_secs(1)) {
                        Ok(payloads) => {
                            for payload in payloads {
                                if let Some(wire) = assembler.take(&payload) {
                                    if heard.blocking_send(Heard::Message(wire)).is_err() {
                                        return;
                                    }
                                }
                            }
                        }
                        Err(e) => {
                            log::error!("bus: listening stopped: {e}");
                            if heard.blocking_send(Heard::Gap).is_err() {
                                return;
                            }
                            break;
                        }
                    }
                }
            }
        })
        .expect("a thread for the bus");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_hashes_are_read_only_as_written() {
        let hash = hex(&SecretHash([0xab; 32]));
        assert_eq!(unhex(&hash).map(|h| hex(&h)), Some(hash.clone()));
        // `from_str_radix` takes "+b" for 0x0b (the fuzzer found it).
        let signed = format!("{}+b{}", &hash[..42], &hash[44..]);
        assert_eq!(signed.len(), 64);
        assert_eq!(unhex(&signed), None);
        let answer = serde_json::to_string(&Wire::Lobby).unwrap();
        let mut assembler = Assembler::default();
        assert!(assembler.take(&format!("p:1:0:1:{answer}")).is_some());
        for bad in [
            "p:+1:0:1:",
            "p:1:+0:1:",
            "p:1:0: 1:",
            "p:1:0:0:",
            "p:1:1:1:",
            "p:1:0:257:",
        ] {
            assert!(assembler.take(&format!("{bad}{answer}")).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_long_message_comes_back_whole_from_its_parts_and_a_broken_one_is_dropped() {
        let long = Wire::Answer {
            answer: 7,
            result: Err("é".repeat(20_000)),
        };
        let text = serde_json::to_string(&long).unwrap();
        let pieces = parts("p1", 3, &text);
        assert!(pieces.len() > 4);
        assert!(pieces.iter().all(|p| p.len() <= MAX_NOTIFICATION));
        let mut assembler = Assembler::default();
        let got: Vec<Wire> = pieces.iter().filter_map(|p| assembler.take(p)).collect();
        assert_eq!(got.len(), 1);
        assert_eq!(serde_json::to_string(&got[0]).unwrap(), text);
        // A part missing: nothing, and the next whole message still comes.
        let mut broken = pieces.clone();
        broken.remove(1);
        assert!(broken.iter().all(|p| assembler.take(p).is_none()));
        let short = parts("p1", 4, r#"{"t":"closed","conn":5}"#);
        assert!(matches!(
            assembler.take(&short[0]),
            Some(Wire::Closed { conn: 5 })
        ));
        for junk in ["", "p1", "p1:x:0:1:{}", "p1:1:0:1:not json", "p1:1:5:2:{}"] {
            assert!(assembler.take(junk).is_none(), "{junk:?}");
        }
    }

    #[test]
    fn messages_written_by_hand_read_as_the_fuzz_corpus_writes_them() {
        let mut assembler = Assembler::default();
        let seat = "ab".repeat(32);
        let attach = format!(
            r#"p:1:0:1:{{"t":"attach","game":"g","from":"p","conn":3,"who":{{"seat":"{seat}"}},"after":[17,4],"max_spectators":200,"answer":9}}"#
        );
        match assembler.take(&attach) {
            Some(Wire::Attach {
                who: WireWho::Seat(s),
                after: Some((17, 4)),
                ..
            }) => {
                assert_eq!(s, seat)
            }
            other => panic!("{other:?}"),
        }
        let answer = r#"p:2:0:1:{"t":"answer","answer":2,"result":{"Ok":"gote"}}"#;
        assert!(matches!(
            assembler.take(answer),
            Some(Wire::Answer {
                answer: 2,
                result: Ok(_)
            })
        ));
        let request = r#"p:3:0:1:{"t":"request","game":"g","from":"p","conn":3,"request":{"type":"move","ply":0,"usi":"2e3d"},"lag_ms":12}"#;
        assert!(matches!(
            assembler.take(request),
            Some(Wire::Request { lag_ms: 12, .. })
        ));
    }

    #[test]
    fn a_seats_hash_goes_through_hex_and_nothing_else_does() {
        let hash = gogo_store::Secret::generate().hash();
        assert_eq!(unhex(&hex(&hash)), Some(hash));
        for bad in ["", "zz", &"g".repeat(64), &"é".repeat(32), &"0".repeat(66)] {
            assert_eq!(unhex(bad), None, "{bad:?}");
        }
    }
}
