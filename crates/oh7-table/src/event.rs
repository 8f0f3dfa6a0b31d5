//! The table's log: one typed [`Event`] per committed change, numbered by the table's version.
//! A table is rebuilt from its log by the same code that applies live changes.
//!
//! The log's format is versioned ([`LOG_FORMAT`], kept in the table's settings as `log`).
//! Format 1 (servers before this enum, no `log` field) wrote the same shape by hand with
//! `null` for absent ids and fills; [`read`] takes both, so old logs restore and play on.

use oh7_bots::Level;
use oh7_core::game::Seat;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::token::TokenHash;

/// The format new tables' logs are written in.
pub const LOG_FORMAT: u32 = 2;

/// One committed change of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A person took `seat`.
    Join {
        /// The seat.
        seat: Seat,
        /// Display name.
        name: String,
        /// The hash of the seat's token (the token itself is never stored).
        token_hash: TokenHash,
    },
    /// A game starts (the first, or a rematch). `fill`: bot levels for the seats still free.
    Start {
        /// The seat that asked (the host); absent when the server started it (a table created
        /// started, or a rematch every person answered or whose deadline passed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The command id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The game's seed (never leaves the server while the game runs).
        seed: u64,
        /// Per seat, the bot level that fills it if it is free.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fill: Option<Vec<Option<Level>>>,
    },
    /// A seat's decision, in the engine's notation.
    Act {
        /// The seat.
        seat: Seat,
        /// The action's canonical text.
        action: String,
        /// The command id (none for a bot's decision).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// A bot decided for a person (away, or the turn clock ran out).
        #[serde(default)]
        by_bot: bool,
    },
    /// The host (`seat` 0) made `target` a bot seat (`bot`) or a free seat (`None`).
    Seat {
        /// The host's seat.
        seat: Seat,
        /// The seat changed.
        target: Seat,
        /// The bot level, or none for a free seat.
        bot: Option<Level>,
        /// The command id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    /// The host asks the people at the table for another game (they answer with
    /// [`Event::Answer`]; the game starts when all have, or at the deadline).
    Rematch {
        /// The host's seat.
        seat: Seat,
        /// The command id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    /// A person answers the host's rematch: in (`yes`) or not this time (a bot plays the seat).
    Answer {
        /// The seat.
        seat: Seat,
        /// The command id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// In the next game.
        yes: bool,
    },
    /// A chat line.
    Chat {
        /// Who wrote it.
        seat: Seat,
        /// The command id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The text.
        text: String,
    },
}

impl Event {
    /// The seat and command id whose repeat this event answers.
    pub fn command(&self) -> Option<(Seat, &str)> {
        match self {
            Event::Start { seat: Some(s), id: Some(id), .. }
            | Event::Act { seat: s, id: Some(id), .. }
            | Event::Seat { seat: s, id: Some(id), .. }
            | Event::Rematch { seat: s, id: Some(id) }
            | Event::Answer { seat: s, id: Some(id), .. }
            | Event::Chat { seat: s, id: Some(id), .. } => Some((*s, id)),
            _ => None,
        }
    }
}

/// Why a stored event could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A format this server does not know (written by a newer one).
    #[error("log format {0} is newer than this server's ({LOG_FORMAT})")]
    Newer(u32),
    /// The event does not parse.
    #[error("unreadable event: {0}")]
    Bad(#[from] serde_json::Error),
}

/// Read one stored event of a log written in `format`.
pub fn read(format: u32, body: Value) -> Result<Event, ReadError> {
    match format {
        // Format 1 differs only in writing `"id": null` and `"fill": null`, which serde's
        // defaults read as absent.
        1 | LOG_FORMAT => Ok(serde_json::from_value(body)?),
        newer => Err(ReadError::Newer(newer)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_1_events_read() {
        let old = [
            r#"{"kind":"join","name":"Host","seat":0,"token_hash":"4625129daaf336bb7cdb0fc7a70ed02b39ef22ba6f905cff69f62d860e4e3707"}"#,
            r#"{"bot":null,"id":"dd375261-3","kind":"seat","seat":0,"target":3}"#,
            r#"{"fill":[null,null,null,"heuristic"],"id":"dd375261-5","kind":"start","seat":0,"seed":9525358394326429368}"#,
            r#"{"kind":"start","seed":12,"fill":null}"#,
            r#"{"action":"bet 7H","by_bot":false,"id":null,"kind":"act","seat":2}"#,
            r#"{"id":"x","kind":"chat","seat":1,"text":"hi"}"#,
        ];
        for o in old {
            let ev = read(1, serde_json::from_str(o).unwrap()).unwrap();
            // What this server writes reads back the same.
            assert_eq!(read(LOG_FORMAT, serde_json::to_value(&ev).unwrap()).unwrap(), ev);
        }
        assert!(read(1, serde_json::json!({"kind": "dance"})).is_err());
        assert!(matches!(read(LOG_FORMAT + 1, serde_json::json!({})), Err(ReadError::Newer(_))));
    }
}
