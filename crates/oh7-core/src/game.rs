//! The one game interface every surface drives (terminal, simulator, bots, replayer, server).
//!
//! In the spirit of OpenSpiel's `State`, made Rust-shaped: several seats may owe a decision at
//! once (simultaneous bets and passes), chance is drawn from a seeded ChaCha RNG owned by the
//! game, and every consumer sees a game only through a seat view.

use std::fmt;

/// A seat number, clockwise from 0.
pub type Seat = usize;

/// A set of seats (at most 16), e.g. the seats that owe a decision.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u16);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Only `seat`.
    #[inline]
    pub fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat)
    }
    /// Seats `0..n`.
    #[inline]
    pub fn first(n: usize) -> SeatSet {
        SeatSet(((1u32 << n) - 1) as u16)
    }
    /// Whether `seat` is in the set.
    #[inline]
    pub fn contains(self, seat: Seat) -> bool {
        seat < 16 && self.0 & (1 << seat) != 0
    }
    /// Add a seat.
    #[inline]
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat;
    }
    /// Remove a seat.
    #[inline]
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat);
    }
    /// Number of seats.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether no seat is in the set.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The lowest seat.
    #[inline]
    pub fn lowest(self) -> Option<Seat> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as Seat)
    }
    /// Iterate, lowest seat first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..16).filter(move |&s| self.contains(s))
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A game on the one interface.
///
/// Contract: `to_move()` is empty exactly when `is_over()`; for every seat in `to_move()`,
/// `legal_actions` is non-empty; `apply` with an action that is not legal returns an error and
/// leaves the game unchanged.
pub trait Game: Clone + Send {
    /// The game's name in records and on the wire (`oh7`, `seven`).
    const NAME: &'static str;
    /// One decision of one seat.
    type Action: Copy + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static;
    /// Why an action was refused (a code and figures any client can word: [`crate::refusal`]).
    type Error: crate::refusal::Coded + Send + Sync + 'static;
    /// What one seat may know (borrowed from the game, so making one costs nothing).
    type View<'a>: SeatViewLike
    where
        Self: 'a;

    /// Number of seats that take decisions (the Dummy is not one).
    fn players(&self) -> usize;
    /// The seats that owe a decision now.
    fn to_move(&self) -> SeatSet;
    /// The legal actions of `seat` (empty if it owes nothing); `out` is cleared first.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);
    /// Apply a decision of `seat`; on error nothing changed.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<(), Self::Error>;
    /// What `seat` may know.
    fn view(&self, seat: Seat) -> Self::View<'_>;
    /// What anyone watching may know (no seat's hidden cards).
    fn spectator_view(&self) -> Self::View<'_>;
    /// Name the seats for the record; a list whose length is not the number of players is
    /// ignored (the seats keep their names).
    fn set_seat_names(&mut self, names: Vec<String>);
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// Running totals, one per seat.
    fn totals(&self) -> Vec<i64>;
    /// The winners (empty until the game is over; several for a shared victory).
    fn winners(&self) -> Vec<Seat>;
    /// `action`, a legal action of `seat` now, as a client shows it: its notation and what it is
    /// about (its card, the seat that receives passed cards, …).
    fn describe(&self, seat: Seat, action: &Self::Action) -> crate::moves::Move;
    /// Read an action typed by a person or written in a file for `seat`, in the current state.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, Self::Error>;
    /// Whether `text`, which [`Game::parse_action`] read as `action`, names it in the documented
    /// notation (what a program must send: the server takes nothing else). `parse_action` may be
    /// kinder to a person typing (a bare card for the decision at hand); the default takes any
    /// text that parses.
    fn names_exactly(&self, text: &str, action: &Self::Action) -> bool {
        let _ = (text, action);
        true
    }
    /// The game record so far (`oh7-record/1`), as one JSON value.
    fn record(&self) -> serde_json::Value;
}

/// What every seat view offers generically (the rest is game-specific).
pub trait SeatViewLike {
    /// The seat this view belongs to (`None` for a spectator).
    fn seat(&self) -> Option<Seat>;
    /// The view as JSON: exactly what this seat may know.
    fn to_json(&self) -> serde_json::Value;
    /// The same fields as [`SeatViewLike::to_json`], written as text into `out` (cleared first)
    /// without a tree; by default from the tree.
    fn write_fields(&self, out: &mut crate::view_text::ViewText) {
        *out = crate::view_text::ViewText::from_json(&self.to_json());
    }
}
