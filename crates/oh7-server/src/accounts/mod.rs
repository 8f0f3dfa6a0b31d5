//! Accounts, optional: guests play as before. An account is a name and a password (hashed with
//! argon2id, never stored or logged in clear); signing in gives a session, a random token kept
//! by the browser in an `HttpOnly`, `SameSite=Lax` cookie (`Secure` when the server's public
//! address is HTTPS) and by the database only as its SHA-256. `docs/accounts.md` describes the
//! model and its limits.
//!
//! - Sign up, sign in, sign out (this browser) and sign out everywhere (every session of the
//!   account), and deleting the account (with its password): `POST /api/account/...`.
//! - Failed attempts are limited per account name and per address ([`Attempts`]).
//! - A request that changes something and comes from another site is refused (`cross_origin`):
//!   its `Origin` must be this server's, and `Sec-Fetch-Site` must not say `cross-site`.
//! - A deleted account's sessions end with it, at once (they are rows of the account).
//!
//! Both stores keep accounts in the same two tables (`accounts`, `sessions`), through
//! [`AccountStore`], one implementation for either database.
//!
//! Two files: [`store`] what the database keeps of accounts, [`rules`] the rules (names,
//! passwords, sessions, attempt limits); the handlers are `http/accounts.rs`.

mod rules;
mod store;

pub(crate) use rules::*;
pub use store::*;
