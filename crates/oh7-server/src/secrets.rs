//! The table's secrets, kept in one place: codes (table id, invite, spectator), seat tokens and
//! game seeds, all from the OS random source.
//!
//! A table has an internal id, an **invite code** (may take a seat) and a **spectator code**
//! (may only watch), each 128 bits. A person's seat token is 256 bits, given once to its owner,
//! stored only as its SHA-256 ([`TokenHash`]) and compared in constant time; it is looked up
//! among one table's seats only, so a token is worth nothing at another table. None of these
//! leaves the server except a code or a token to the one person it belongs to.

/// The hash of a seat token and hexadecimal, shared with the table library.
pub use oh7_table::token::{TokenHash, hex};

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
