//! A legal action as a client shows it: its notation (what the client sends back) and what it is
//! about (its kind, card, cards, suit, seat), so that no client parses notation or re-derives a
//! rule to draw a hand, a button or a pass (`docs/protocol.md`, "Legal actions").

use serde::{Deserialize, Serialize};

/// A seat (the engine's `game::Seat`, written here as what it is so that this module, which
/// `game` uses, uses nothing of `game`'s).
type Seat = usize;

/// What kind of decision a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// Oh 7: give `cards` to `seat` (the `bga` passing option).
    PassCards,
    /// Oh 7: bet with `card`.
    Bet,
    /// Play `card` (Seven: naming `suit` with an 8, announcing the last card with `announce`).
    Play,
    /// Oh 7 (`fr-advanced`): reveal ? (`yes`) or not.
    Reveal,
    /// Oh 7 (`kod7`): make `seat` the first leader.
    Leader,
    /// Oh 7: choose `suit` as trump.
    Trump,
    /// Oh 7 (`kod7`): announce `suit`.
    Announce,
    /// Seven: draw (or take the pending penalty).
    Draw,
    /// Seven: pass while a 7 is pending.
    Pass,
    /// Seven: call `seat` out for a missing last-card announcement.
    CallOut,
    /// Seven: do not call anyone out.
    NoCall,
}

/// One legal action, structured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The action's notation: what a client sends to take it.
    pub a: String,
    /// What kind of decision it is.
    pub kind: MoveKind,
    /// The card bet or played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The cards passed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
    /// The suit named: a trump chosen or announced, the suit an 8 asks for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit: Option<String>,
    /// The seat named: the leader chosen, the player called out, the receiver of passed cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// A yes-or-no decision's answer (reveal ? or not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yes: Option<bool>,
    /// Seven: the play announces the last card.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub announce: bool,
}

impl Move {
    /// A move of `kind` written `a`, about nothing yet (add what it is about with the builders).
    pub fn new(a: impl Into<String>, kind: MoveKind) -> Move {
        Move { a: a.into(), kind, card: None, cards: Vec::new(), suit: None, seat: None, yes: None, announce: false }
    }
    /// The card it bets or plays.
    pub fn card(mut self, card: impl ToString) -> Move {
        self.card = Some(card.to_string());
        self
    }
    /// The cards it passes.
    pub fn cards(mut self, cards: impl IntoIterator<Item = impl ToString>) -> Move {
        self.cards = cards.into_iter().map(|c| c.to_string()).collect();
        self
    }
    /// The suit it names.
    pub fn suit(mut self, suit: impl ToString) -> Move {
        self.suit = Some(suit.to_string());
        self
    }
    /// The seat it names.
    pub fn seat(mut self, seat: Seat) -> Move {
        self.seat = Some(seat);
        self
    }
    /// Its yes-or-no answer.
    pub fn yes(mut self, yes: bool) -> Move {
        self.yes = Some(yes);
        self
    }
    /// Whether it announces the last card.
    pub fn announce(mut self, announce: bool) -> Move {
        self.announce = announce;
        self
    }
}
