//! The accounts' rules: names, passwords (argon2id), session tokens (only their SHA-256 is
//! kept), and the limits on failed attempts. No database here, no HTTP.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::secrets::{TokenHash, hex};
use oh7_table::protocol::{ErrorCode, Refusal};

/// The session cookie's name.
pub(crate) const COOKIE: &str = "oh7_session";
/// How long a session lasts from sign-in.
pub(crate) const SESSION_LIFE: Duration = Duration::from_secs(30 * 24 * 3600);
/// Longest account name, in characters.
pub(crate) const NAME_MAX: usize = 24;
/// Shortest and longest password, in characters.
pub(crate) const PASSWORD_MIN: usize = 8;
pub(crate) const PASSWORD_MAX: usize = 128;
/// Failed sign-ins (and sign-ups) counted over this window.
pub(crate) const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Failed sign-ins allowed per account name within [`WINDOW`].
pub(crate) const PER_NAME: usize = 5;
/// Failed sign-ins and sign-ups allowed per address within [`WINDOW`].
pub(crate) const PER_ADDRESS: usize = 20;

/// Names are unique whatever their case and surrounding spaces.
pub(crate) fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// What the database keeps of a session token.
pub(crate) fn token_hash(token: &str) -> String {
    hex(&TokenHash::of(token).0)
}

/// Seconds since 1970 (sessions' ages).
pub(crate) fn now_s() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// An account name: trimmed, 1 to [`NAME_MAX`] characters, letters, digits, spaces and `-_.'`.
pub(crate) fn check_name(name: &str) -> Result<String, Refusal> {
    let name = name.trim();
    let n = name.chars().count();
    let fits = (1..=NAME_MAX).contains(&n)
        && name.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_' || c == '.' || c == '\'');
    if fits {
        Ok(name.to_string())
    } else {
        Err(Refusal::new(
            ErrorCode::BadName,
            format!("A name has 1 to {NAME_MAX} letters, digits, spaces and - _ . ' only."),
        )
        .param("max", NAME_MAX)
        .param("marks", "- _ . '"))
    }
}

/// A password of [`PASSWORD_MIN`] to [`PASSWORD_MAX`] characters.
pub(crate) fn check_password(password: &str) -> Result<(), Refusal> {
    let n = password.chars().count();
    if (PASSWORD_MIN..=PASSWORD_MAX).contains(&n) {
        Ok(())
    } else {
        Err(Refusal::new(
            ErrorCode::BadPassword,
            format!("A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."),
        )
        .param("min", PASSWORD_MIN)
        .param("max", PASSWORD_MAX))
    }
}

/// argon2id with OWASP's first recommended setting (19 MiB, two passes, one lane).
pub(crate) fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(19 * 1024, 2, 1, None).expect("valid parameters"))
}

/// The PHC string of `password` with a fresh random salt.
pub(crate) fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the OS random source");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a salt");
    argon2().hash_password(password.as_bytes(), &salt).expect("argon2id hashes any password").to_string()
}

/// Whether `password` is the one hashed in `phc`.
pub(crate) fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash to check against when no account has the name, so that an unknown name takes as long
/// as a wrong password (the answer does not tell which names exist by its time).
pub(crate) fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not anybody's password"))
}

/// Failed attempts per account name and per address, over a sliding [`WINDOW`].
#[derive(Default)]
pub(crate) struct Attempts {
    failed: Mutex<Failures>,
}

#[derive(Default)]
struct Failures {
    by_name: HashMap<String, Vec<Instant>>,
    by_address: HashMap<IpAddr, Vec<Instant>>,
}

impl Attempts {
    /// How long until `name` (if any) and `ip` may try again (`None`: now).
    pub(crate) fn wait(&self, name: Option<&str>, ip: IpAddr, now: Instant) -> Option<Duration> {
        let mut f = self.failed.lock().expect("attempts lock");
        let wait = |times: &mut Vec<Instant>, limit: usize| {
            times.retain(|t| now.duration_since(*t) < WINDOW);
            (times.len() >= limit).then(|| WINDOW - now.duration_since(times[times.len() - limit]))
        };
        let by_address = f.by_address.get_mut(&ip).and_then(|t| wait(t, PER_ADDRESS));
        let by_name = name.and_then(|n| f.by_name.get_mut(&name_key(n))).and_then(|t| wait(t, PER_NAME));
        by_address.max(by_name)
    }

    /// One more failure (or sign-up) of `name` (if any) from `ip`.
    pub(crate) fn count(&self, name: Option<&str>, ip: IpAddr, now: Instant) {
        let mut f = self.failed.lock().expect("attempts lock");
        f.by_address.entry(ip).or_default().push(now);
        if let Some(n) = name {
            f.by_name.entry(name_key(n)).or_default().push(now);
        }
        if f.by_address.len() > 100_000 {
            // Forget the addresses whose failures have all aged out.
            f.by_address.retain(|_, t| t.last().is_some_and(|t| now.duration_since(*t) < WINDOW));
            f.by_name.retain(|_, t| t.last().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsf", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        // A fresh salt each time.
        assert_ne!(h, hash_password("correct horse"));
    }

    #[test]
    fn names_and_passwords_are_checked() {
        assert_eq!(check_name("  Ann-Marie O'Neil ").unwrap(), "Ann-Marie O'Neil");
        assert_eq!(check_name("Zoé").unwrap(), "Zoé");
        for bad in ["", "   ", "a<b", "x\ny", &"n".repeat(NAME_MAX + 1)] {
            assert_eq!(check_name(bad).unwrap_err().code, ErrorCode::BadName, "{bad:?}");
        }
        assert!(check_password("12345678").is_ok());
        assert_eq!(check_password("1234567").unwrap_err().code, ErrorCode::BadPassword);
        assert_eq!(check_password(&"p".repeat(PASSWORD_MAX + 1)).unwrap_err().code, ErrorCode::BadPassword);
    }

    #[test]
    fn failures_are_limited_per_name_and_per_address_and_age_out() {
        let a = Attempts::default();
        let t0 = Instant::now();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..PER_NAME {
            assert_eq!(a.wait(Some("Ann"), ip, t0), None);
            a.count(Some("ann "), ip, t0);
        }
        // The name is held, whatever the case; another name from the address is not (yet).
        assert!(a.wait(Some("ANN"), ip, t0).is_some());
        assert_eq!(a.wait(Some("Bob"), ip, t0), None);
        for _ in PER_NAME..PER_ADDRESS {
            a.count(None, ip, t0);
        }
        assert!(a.wait(Some("Bob"), ip, t0).is_some(), "the address is held");
        assert_eq!(a.wait(Some("Bob"), "10.0.0.2".parse().unwrap(), t0), None, "another address is not");
        assert!(a.wait(Some("Ann"), ip, t0 + WINDOW - Duration::from_secs(1)).is_some());
        assert_eq!(a.wait(Some("Ann"), ip, t0 + WINDOW), None, "failures age out");
    }
}
