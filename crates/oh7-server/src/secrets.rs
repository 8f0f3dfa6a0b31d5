//! The table's secrets, kept in one place: codes (table id, invite, spectator), seat tokens and
//! game seeds, all from the OS random source.
//!
//! A table has an internal id, an **invite code** (may take a seat) and a **spectator code**
//! (may only watch), each 128 bits. A person's seat token is 256 bits, given once to its owner,
//! stored only as its SHA-256 ([`TokenHash`]) and compared in constant time; it is looked up
//! among one table's seats only, so a token is worth nothing at another table. None of these
//! leaves the server except a code or a token to the one person it belongs to.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the OS random source is unavailable");
    b
}

/// A new secret (seat token): 256 bits, hexadecimal.
pub fn new_secret() -> String {
    hex(&random_bytes::<32>())
}

/// A new code (table id, invite or spectator code): 128 bits, hexadecimal.
pub fn new_code() -> String {
    hex(&random_bytes::<16>())
}

/// A new game seed from the OS random source.
pub fn new_seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

/// The SHA-256 of a seat token: what the log stores (as hexadecimal) instead of the token.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// The hash of `token`.
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Whether `token` hashes to this, in constant time.
    pub fn matches(&self, token: &str) -> bool {
        self.0.ct_eq(&TokenHash::of(token).0).into()
    }

    fn from_hex(s: &str) -> Option<TokenHash> {
        if s.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, b) in out.iter_mut().enumerate() {
            *b = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(TokenHash(out))
    }
}

/// Never print a hash, even in a debug line.
impl std::fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenHash(..)")
    }
}

impl Serialize for TokenHash {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex(&self.0))
    }
}

impl<'de> Deserialize<'de> for TokenHash {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TokenHash, D::Error> {
        let s = String::deserialize(d)?;
        TokenHash::from_hex(&s).ok_or_else(|| serde::de::Error::custom("a token hash is 64 hexadecimal digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_matches_its_hash_only() {
        let t = new_secret();
        let h = TokenHash::of(&t);
        assert!(h.matches(&t));
        assert!(!h.matches(&new_secret()));
        let back: TokenHash = serde_json::from_value(serde_json::to_value(h).unwrap()).unwrap();
        assert!(back == h);
        assert!(serde_json::from_str::<TokenHash>("\"abc\"").is_err());
        assert_eq!(format!("{h:?}"), "TokenHash(..)");
    }
}
