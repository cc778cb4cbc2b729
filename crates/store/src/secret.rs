//! Seat secrets and player keys: 128 random bits, kept by their holder as text and by the
//! store only as a SHA-256 hash, so that a copy of the database moves no piece and a log
//! line that shows a hash gives nothing away.

use sha2::{Digest, Sha256};
use std::fmt;

/// Random bytes in a secret: 128 bits, as lichess's full game id has about 71.
const SECRET_BYTES: usize = 16;

/// A capability held by one person: a seat in a game, or a player's key.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// A new secret from the operating system's random source.
    pub fn generate() -> Secret {
        let mut bytes = [0u8; SECRET_BYTES];
        getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
        Secret(hex(&bytes))
    }

    /// A secret as its holder sent it: exactly 32 lowercase hex digits, or `None`.
    pub fn parse(text: &str) -> Option<Secret> {
        let ok = text.len() == SECRET_BYTES * 2
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        ok.then(|| Secret(text.to_string()))
    }

    /// The text its holder keeps (in the page's storage, a link or a bearer token).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the store keeps of it.
    pub fn hash(&self) -> SecretHash {
        SecretHash(Sha256::digest(self.0.as_bytes()).into())
    }
}

/// Never printed: a `{:?}` of a seat in a log shows no secret.
impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// The SHA-256 of a [`Secret`], as the store keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SecretHash(pub [u8; 32]);

/// Lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A public id: `len` characters of `[a-zA-Z0-9]`, for game and player addresses (not
/// secrets: anyone with a game's id may watch it).
pub fn public_id(len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    // 248 = 4 * 62: drawing again above it keeps every character equally likely.
    bytes
        .iter_mut()
        .map(|b| {
            while *b >= 248 {
                let mut one = [0u8];
                getrandom::fill(&mut one).expect("the operating system gives random bytes");
                *b = one[0];
            }
            ALPHABET[(*b % 62) as usize] as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_distinct_and_hidden() {
        let a = Secret::generate();
        let b = Secret::generate();
        assert_ne!(a, b);
        assert_eq!(a.expose().len(), 32);
        assert_eq!(Secret::parse(a.expose()), Some(a.clone()));
        assert_eq!(format!("{a:?}"), "Secret(..)");
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.hash(), Secret::parse(a.expose()).unwrap().hash());
    }

    #[test]
    fn only_well_formed_secrets_parse() {
        for bad in [
            "",
            "abc",
            &"A".repeat(32),
            &"g".repeat(32),
            &"0".repeat(33),
            "0 1",
        ] {
            assert_eq!(Secret::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn public_ids_use_the_alphabet() {
        let id = public_id(8);
        assert_eq!(id.len(), 8);
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(public_id(12), public_id(12));
    }
}
