//! The one door out: every message that holds any part of a game is built here, for one viewer,
//! from that viewer's seat view (the spectator view for spectators and guests). Nothing else in
//! the server writes a card, a bet or a hand into a message.
//!
//! What a viewer learns of an action is what its new view shows, plus, for the seat that acted,
//! its own action. So a bet stays hidden until the reveal (the views hide it), passed cards reach
//! only their receiver, and the deck, the seed and the tokens are never at hand here at all.

use oh7_core::game::Seat;
use serde_json::{Value, json};

use crate::game::AnyGame;
use crate::protocol::PROTOCOL;

/// What happened, as the table tells it (public facts only; the action text is given to the
/// actor's own seat alone).
#[derive(Clone, Debug)]
pub enum Happened {
    /// A snapshot: the whole state a viewer may know.
    Snapshot,
    /// A seat acted (`action` is shown to that seat only; `by_bot` if a bot decided for a person).
    Act {
        /// The seat.
        seat: Seat,
        /// The action's text.
        action: String,
        /// Decided by a bot.
        by_bot: bool,
    },
    /// A person took a seat.
    Join {
        /// The seat.
        seat: Seat,
    },
    /// The host made a seat a bot seat (`bot`: its level) or a free seat (`None`).
    Seat {
        /// The seat.
        seat: Seat,
        /// The bot level, if a bot.
        bot: Option<String>,
    },
    /// A game started (the first or a rematch).
    Start {
        /// Game number at this table, from 1.
        game: u32,
    },
    /// A chat line.
    Chat {
        /// The chat entry (seat, name, text).
        entry: Value,
    },
    /// Someone left, came back, or a bot took over an away seat.
    Presence,
}

/// The table around a game: what every viewer may know of it.
pub struct TableFacts<'a> {
    /// The version.
    pub version: u64,
    /// Public table information (seats, names, state).
    pub info: &'a Value,
    /// The game, once started.
    pub game: Option<&'a AnyGame>,
    /// Recent chat lines (public).
    pub chat: &'a [Value],
}

/// The message `happened` makes for one viewer: `seat` (`None`: a spectator or a guest who
/// has not sat).
pub fn project(t: &TableFacts<'_>, happened: &Happened, seat: Option<Seat>) -> Value {
    let view = t.game.map(|g| g.view_json(seat));
    let legal: Vec<String> = match (t.game, seat) {
        (Some(g), Some(s)) => g.legal(s),
        _ => Vec::new(),
    };
    match happened {
        Happened::Snapshot => json!({
            "type": "snapshot",
            "protocol": PROTOCOL,
            "version": t.version,
            "you": seat,
            "table": t.info,
            "view": view,
            "legal": legal,
            "chat": t.chat,
        }),
        Happened::Presence => json!({"type": "presence", "version": t.version, "table": t.info}),
        other => {
            let event = match other {
                Happened::Act { seat: s, action, by_bot } => {
                    if Some(*s) == seat {
                        json!({"kind": "act", "seat": s, "by_bot": by_bot, "action": action})
                    } else {
                        json!({"kind": "act", "seat": s, "by_bot": by_bot})
                    }
                }
                Happened::Join { seat: s } => json!({"kind": "join", "seat": s}),
                Happened::Seat { seat: s, bot } => json!({"kind": "seat", "seat": s, "bot": bot}),
                Happened::Start { game } => json!({"kind": "start", "game": game}),
                Happened::Chat { entry } => json!({"kind": "chat", "entry": entry}),
                Happened::Snapshot | Happened::Presence => unreachable!(),
            };
            // Chat does not change the game: no view, to keep it light.
            let (view, legal) = if matches!(other, Happened::Chat { .. }) { (None, None) } else { (view, Some(legal)) };
            json!({
                "type": "event",
                "version": t.version,
                "event": event,
                "table": t.info,
                "view": view,
                "legal": legal,
            })
        }
    }
}
