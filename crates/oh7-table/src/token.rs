//! Seat tokens as the log keeps them: only their SHA-256, compared in constant time.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
