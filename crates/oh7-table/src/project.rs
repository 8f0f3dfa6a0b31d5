//! The one door out: every message that holds any part of a game is built here, for one viewer,
//! from that viewer's seat view (the spectator view for spectators and guests). Nothing else in
//! the server writes a card, a bet or a hand into a message.
//!
//! A viewer's **document** is its table information, its seat view and its legal actions. A
//! snapshot sends it whole; after each change the viewer gets only what changed in it
//! ([`crate::patch`]). What a viewer learns of an action is what its new view shows, plus, for
//! the seat that acted, its own action. So a bet stays hidden until the reveal (the views hide
//! it), passed cards reach only their receiver, and the deck, the seed and the tokens are never
//! at hand here at all.

use oh7_core::game::Seat;
use oh7_core::moves::Move;
use oh7_core::view_text::ViewText;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::protocol::{TableState, Told};
use oh7_core::DynGame;
use oh7_core::GameId;

/// What happened, as the table tells it: an action, whose text only the seat that acted is
/// told, or a public fact, told to every viewer as it is ([`Told`], the message's own shape).
#[derive(Clone, Debug)]
pub enum Happened {
    /// A seat acted (`by_bot` if a bot decided for a person).
    Act {
        /// The seat.
        seat: Seat,
        /// The action's text.
        action: String,
        /// Decided by a bot.
        by_bot: bool,
    },
    /// A public fact (a seat taken or set, a start, a rematch asked or answered, a chat line).
    Public(Told),
}

/// The rematch being asked, in the table information.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RematchInfo {
    /// When the game starts without the people who have not answered: milliseconds since the
    /// Unix epoch, by the server's clock.
    pub deadline_ms: u64,
    /// The whole wait, in seconds (a client shows the time left, at most this).
    pub wait_s: u64,
    /// Per seat: `yes`, `no`, `waiting` (a person who has not answered) or `bot`; the host is
    /// `yes`.
    pub answers: Vec<&'static str>,
}

/// One seat in the table information.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// A person's name.
    pub name: Option<String>,
    /// A bot seat's level.
    pub bot: Option<oh7_bots::Level>,
    /// `here`, `away`, `bot_for_away`, `bot` or `empty`.
    pub status: &'static str,
    /// At a turn-based table, when this seat's owed decision is due (Unix seconds; absent when
    /// it owes none): a public fact, as the table's own clock shows it to everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_at: Option<i64>,
}

/// Public facts about a table (no codes, no tokens, no cards).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableInfo {
    /// `oh7` or `seven`.
    pub game: GameId,
    /// The preset's name (`seven` for Seven).
    pub preset: String,
    /// The rules (a `Ruleset` or `SevenRules`, serialized).
    pub ruleset: Value,
    /// Players.
    pub players: usize,
    /// `en` or `fr`.
    pub lang: String,
    /// `lobby`, `playing` or `over`.
    pub state: TableState,
    /// Games started at the table.
    pub game_number: u32,
    /// The host's seat (0).
    pub host: Seat,
    /// The turn clock in seconds, if any.
    pub turn_clock_s: Option<u32>,
    /// A turn-based table's move deadline in seconds (absent for a live table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_deadline_s: Option<u64>,
    /// A rated table (absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Anyone may join (listed among the open tables while it waits).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// Every seat.
    pub seats: Vec<SeatInfo>,
    /// Running totals of the current game.
    pub totals: Option<Vec<i64>>,
    /// The winners, once the game is over.
    pub winners: Option<Vec<Seat>>,
    /// Whether a finished game's record can be downloaded.
    pub record: bool,
    /// The rematch the host asked for, while the people answer (`null` otherwise).
    pub rematch: Option<RematchInfo>,
}

/// What one viewer's document holds besides the table information (which is the same for every
/// viewer): its seat view, as the text of each field (`None` before the first game), and its
/// legal actions. Kept as text and typed moves, not trees: after a change only the fields whose
/// text changed are read back and compared ([`Sight::diff_into`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sight {
    /// The seat view's fields.
    pub text: Option<ViewText>,
    /// The legal actions ([`oh7_core::moves::Move`]: notation, kind, card, …).
    pub moves: Vec<Move>,
}

impl Sight {
    /// The seat view (`null` before the first game).
    pub fn view(&self) -> Value {
        self.text.as_ref().map_or(Value::Null, ViewText::to_json)
    }

    /// The legal actions, structured.
    pub fn legal(&self) -> Value {
        serde_json::to_value(&self.moves).expect("moves always serialize")
    }

    /// Add to `out` the patch from this viewer's document to `new`'s (view under `v`, legal
    /// actions under `l`): the same patch as a diff of the whole trees, but only the fields
    /// whose text changed are read back and walked.
    pub fn diff_into(&self, new: &Sight, out: &mut Map<String, Value>) {
        match (&self.text, &new.text) {
            (Some(a), Some(b)) if a.same_keys(b) => {
                let mut path = String::with_capacity(64);
                for ((key, x), (_, y)) in a.fields().zip(b.fields()) {
                    if x != y {
                        path.clear();
                        path.push_str("v/");
                        path.push_str(key);
                        crate::patch::diff_into(&path, &ViewText::parse(x), &ViewText::parse(y), out);
                    }
                }
            }
            (a, b) if a == b => {}
            _ => crate::patch::diff_into("v", &self.view(), &new.view(), out),
        }
        if self.moves != new.moves {
            crate::patch::diff_into("l", &self.legal(), &new.legal(), out);
        }
    }
}

/// What `seat` sees of `game` (`None`: a spectator or a guest who has not sat). A viewer's
/// document is `{"t": table information, "v": view, "l": legal}`: one-letter names keep patch
/// paths short (`v/top`); a snapshot sends the parts as `table`, `view` and `legal`.
pub fn sight(game: Option<&dyn DynGame>, seat: Option<Seat>) -> Sight {
    let text = game.map(|g| {
        let mut t = ViewText::default();
        g.view_text(seat, &mut t);
        // What a seat view repeats is left out: its own legal actions (Seven's: the document's
        // `legal`) and whose turn it is (Seven's `turn`: its `to_move`).
        t.remove("legal");
        if t.get("to_move").is_some() {
            t.remove("turn");
        }
        t
    });
    let moves = match (game, seat) {
        (Some(g), Some(s)) => g.legal_moves(s),
        _ => Vec::new(),
    };
    Sight { text, moves }
}

/// The table information as a document part.
pub fn table_part(info: &TableInfo) -> Value {
    serde_json::to_value(info).expect("table information always serializes")
}

/// A whole document (`{t, v, l}`), e.g. to check patches against.
pub fn document(info: &TableInfo, game: Option<&dyn DynGame>, seat: Option<Seat>) -> Value {
    let seen = sight(game, seat);
    let mut doc = serde_json::Map::new();
    doc.insert("t".into(), table_part(info));
    doc.insert("v".into(), seen.view());
    doc.insert("l".into(), seen.legal());
    Value::Object(doc)
}

/// What one viewer is told of `happened`.
pub fn told(happened: &Happened, seat: Option<Seat>) -> Told {
    match happened {
        Happened::Act { seat: s, action, by_bot } => {
            Told::Act { seat: *s, by_bot: *by_bot, action: (Some(*s) == seat).then(|| action.clone()) }
        }
        Happened::Public(t) => t.clone(),
    }
}
