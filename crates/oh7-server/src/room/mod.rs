//! The public room (issue 59): what lets strangers play together and keeps it pleasant. Open
//! tables (the host chose "anyone may join"; the table's task keeps its row in `open_tables`
//! while it waits for players), quick match ([`matching`]: the pure part; the lobby runs its
//! rounds), blocks, reports and suspensions, kept through [`RoomStore`] in either database.

pub mod matching;
mod store;

pub use matching::{Group, Member, Waiting};
pub use store::*;
