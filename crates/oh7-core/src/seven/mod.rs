//! Seven, the shedding game (`rules/seven.md`, seed 004): a Crazy-Eights-family game for 2 to 8
//! players with two standard decks. Shed your hand first; everyone else scores what is left in
//! their hand; a total over the limit eliminates; the last player left wins.
//!
//! The state machine is [`SevenGame`], on the one [`Game`] interface; the knobs are
//! [`SevenRules`]; what a seat may know is [`SevenView`]; the record and [`replay`] are described
//! in `docs/seven-records.md`.
//!
//! # Who is to move (call-outs)
//!
//! Exactly one seat has the turn ([`SevenGame::current`]), and outside a call-out window it is
//! the only seat in [`Game::to_move`]. A play that leaves a player with one card **without** the
//! announcement opens a call-out window (S-LAST-1, S-OWN-3), resolved at once, before anything
//! else happens: every *other* surviving seat owes one answer, all at the same time (like
//! simultaneous bets), `CallOut(offender)` or `NoCall`. While the window is open,
//! [`Game::to_move`] is exactly the seats that have not answered yet; the seat with the next turn
//! waits (unless it is one of them, as a caller), and so does the offender. Nobody sees another
//! seat's answer before all are in ([`SevenView`] shows which seats have answered, not what;
//! each seat sees its own). When the last answer is in: if at least one seat called out, the
//! offender draws 4 cards once (S-DRAW-1 applies); the answers are logged in seat order; the
//! turn goes on. So the order in which a driver asks the seats never changes the game. A play
//! with the announcement opens nothing, and nobody is asked.
//!
//! # Action text ([`Action`]'s `Display`, [`parse_action_text`], [`Game::parse_action`])
//!
//! | typed | meaning |
//! |---|---|
//! | `3C`, `10H`, `AS'`, `play 3C` | play a card (`'` the second copy; `T` for 10, `♠♥♣♦`, any case) |
//! | `8H S`, `8H:S`, `8h:♠` | play an 8, naming the new active suit (needed for an 8, refused otherwise) |
//! | `3C!`, `3C last`, `8H:S!`, `8H S last` | play and announce the last card (only when the play leaves one card) |
//! | `draw`, `d` | draw (one card, or the pending penalty) |
//! | `pass`, `p` | pass while a 7 is pending |
//! | `callout 2`, `call out 2`, `call 2` | answer a call-out window: call out seat 2 |
//! | `nocall`, `no`, `no-call` | answer a call-out window: do not call out |
//!
//! `Display` writes the first form of each row (`3C`, `8H:S`, `3C!`, `8H:S!`, `draw`, `pass`,
//! `callout 2`, `nocall`). [`Game::parse_action`] also picks the copy a seat holds when the
//! text names a card without `'` and the seat holds only the second copy.
//!
//! # Rulings of our own (S-OWN-n, also in `docs/seven-records.md`)
//!
//! - S-OWN-1: taking a pending penalty (`draw`) is always allowed, even when holding a 2 / A♠.
//! - S-OWN-2: with two players left, a 10 acts as a skip (knob `ten_skips_with_two`, default
//!   on; off: it only reverses, which changes nothing); a J skips the opponent: the player of
//!   the J or 10 plays again.
//! - S-OWN-3: (replaces the former "window until the offender's next action, first call-out
//!   wins" race) S-LAST-1's "until that player's next turn starts, any other player may call
//!   out" is played as one simultaneous decision. The announcement is public. A play that leaves
//!   a player with one card without it opens a call-out window at once: every other surviving
//!   seat (eliminated seats never act) answers exactly once, `callout N` or `nocall`, without
//!   seeing the others' answers; nothing else happens until all have answered. If at least one
//!   called out, the offender draws 4 cards (what there is, S-DRAW-1), once, however many called.
//!   Then the turn goes on (it had already passed on with the play: skips, reversal, penalties
//!   and locks of the card apply as usual). A play with the announcement opens no window. The
//!   answers are not turn actions (S-OWN-7); a round cut by the turn limit on the play that
//!   opened a window is cut once the window is resolved.
//! - S-OWN-4: an announcement is only accepted on a play that leaves exactly one card; a play
//!   that leaves one card may be made with or without it.
//! - S-OWN-5: the free play after a 7 lock is a play of any card of the hand (no draw, no pass);
//!   an 8 still names a suit, and the card's own effect applies (a 2 starts a penalty, a 7 a new
//!   lock, a 10 reverses, a J skips).
//! - S-OWN-6: every round starts clockwise, with the leading card's suit as the active suit.
//!   The deal: the 104 cards are shuffled, `hand_size` cards are dealt one at a time clockwise
//!   from the first player, then the leading card is turned. The first player's lot is drawn
//!   before the first shuffle.
//! - S-OWN-7: a player who cannot play and finds nothing to draw (draw pile empty, discard pile
//!   only its top card) draws nothing (`draw`, recorded as `{"draw": []}`), which ends the turn.
//!   A full stall cannot happen (when no card can be drawn, all other cards are in hands, so some
//!   player holds the active suit or an 8), but a round could go on without end: a round is
//!   cut after `round_turn_limit` turn actions (default 1000, call-out answers not counted); then
//!   nobody went out and every player scores their hand.
//! - S-OWN-8: if every surviving player would go over the limit in the same round (only possible
//!   in a cut round), those with the lowest total stay in.
//! - S-OWN-9: `limit: None` plays a single round; the winners are the lowest totals (the player
//!   who went out, or the lowest hands of a cut round).

mod cards;
mod record;
mod refusal;
#[cfg(test)]
mod tests;
mod view;

use std::fmt;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::game::{Game, Seat, SeatSet};
use crate::moves::{Move, MoveKind};

pub use cards::{Card, CardParseError, CardSet, CardSetIter, DECK_SIZE, Rank, Suit};
pub use record::{ReplayError, replay, replay_actions};
pub use view::{CallOutView, RoundEnd, SevenView};

/// Fewest players (S-SETUP-1).
pub const MIN_PLAYERS: usize = 2;
/// Most players (S-SETUP-1).
pub const MAX_PLAYERS: usize = 8;

/// The knobs of a Seven game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SevenRules {
    /// A total over this eliminates, exactly this drops back to 0 (150). `None`: no
    /// elimination, the game is a single round (S-OWN-9); a ruleset writes it `limit = 0`
    /// (TOML has no null; a limit of 0 would end every game at its first point).
    #[serde(deserialize_with = "zero_is_none")]
    pub limit: Option<u32>,
    /// Cards dealt to each player (8, S-SETUP-1).
    pub hand_size: u32,
    /// With two players left, a 10 acts as a skip (S-OWN-2; default true).
    pub ten_skips_with_two: bool,
    /// A round is cut after this many turn actions (S-OWN-7; default 1000; `None`: never).
    pub round_turn_limit: Option<u32>,
}

/// `limit`: a number, 0 or null for none.
fn zero_is_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Ok(Option::<u32>::deserialize(d)?.filter(|&n| n > 0))
}

impl Default for SevenRules {
    fn default() -> Self {
        SevenRules { limit: Some(150), hand_size: 8, ten_skips_with_two: true, round_turn_limit: Some(1000) }
    }
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2 to 8 players.
    #[error("Seven is played by 2 to 8 players; got {0}")]
    Players(usize),
    /// The hands do not fit in the deck.
    #[error(
        "hand_size {hand_size} does not fit: it must be at least 1, and {players} players × hand_size must leave at least one of the 104 cards to lead"
    )]
    HandSize {
        /// Players.
        players: usize,
        /// Cards per hand.
        hand_size: u32,
    },
    /// A zero turn limit.
    #[error("round_turn_limit must be at least 1")]
    TurnLimit,
    /// A deal changed after the round began, or a seat that does not play.
    #[error("hands can only be swapped between playing seats before anyone acts in the round")]
    NotFresh,
    /// Seat names of the wrong count.
    #[error("{players} players need {players} seat names; got {got}")]
    SeatNames {
        /// Players.
        players: usize,
        /// Names given.
        got: usize,
    },
}

/// Which penalty is pending (S-ACT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PenaltyKind {
    /// 2 × n, answered only by a 2.
    Two,
    /// 5 × n, answered only by A♠.
    AceOfSpades,
}

impl PenaltyKind {
    /// Cards drawn per card of the chain.
    pub fn per_card(self) -> u32 {
        match self {
            PenaltyKind::Two => 2,
            PenaltyKind::AceOfSpades => 5,
        }
    }
    /// The cards that answer it.
    pub fn answers(self) -> CardSet {
        match self {
            PenaltyKind::Two => Rank::Two.mask(),
            PenaltyKind::AceOfSpades => CardSet::ACES_OF_SPADES,
        }
    }
}

/// A pending penalty: `count` cards of `kind` played in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Penalty {
    /// 2 or A♠.
    pub kind: PenaltyKind,
    /// n, the number played in a row.
    pub count: u32,
}

impl Penalty {
    /// The cards to draw: 2 × n or 5 × n.
    pub fn cards(self) -> u32 {
        self.kind.per_card() * self.count
    }
}

/// What the seat with the turn may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnMode {
    /// Match the active suit or the top rank, or play an 8; draw only without a play.
    Normal,
    /// Answer the penalty or take it (draw).
    Penalty(Penalty),
    /// A 7 is pending: play a 7 or pass; `owner` played the last 7.
    Lock {
        /// Who played the last 7.
        owner: Seat,
    },
    /// The lock came back to its owner: play any card.
    FreePlay,
}

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play a card; `suit` is the suit named with an 8 (`None` for any other card); `announce`
    /// declares the last card.
    Play {
        /// The card.
        card: Card,
        /// The suit named (8s only).
        suit: Option<Suit>,
        /// Last-card announcement.
        announce: bool,
    },
    /// Draw one card, or take the pending penalty.
    Draw,
    /// Pass while a 7 is pending.
    Pass,
    /// Answer an open call-out window (S-OWN-3): call out this seat, the offender, for a missing
    /// last-card announcement.
    CallOut(Seat),
    /// Answer an open call-out window (S-OWN-3): do not call out.
    NoCall,
}

impl Action {
    /// Play a card other than an 8, without announcement.
    pub fn play(card: Card) -> Action {
        Action::Play { card, suit: None, announce: false }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Play { card, suit, announce } => {
                write!(f, "{card}")?;
                if let Some(s) = suit {
                    write!(f, ":{s}")?;
                }
                if announce {
                    write!(f, "!")?;
                }
                Ok(())
            }
            Action::Draw => write!(f, "draw"),
            Action::Pass => write!(f, "pass"),
            Action::CallOut(s) => write!(f, "callout {s}"),
            Action::NoCall => write!(f, "nocall"),
        }
    }
}

/// Why an action was refused (the game is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SevenError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// No such seat.
    #[error("there is no seat {0}")]
    NoSuchSeat(Seat),
    /// The seat was eliminated.
    #[error("seat {0} is out of the game")]
    Eliminated(Seat),
    /// Not this seat's turn.
    #[error("it is seat {current}'s turn, not seat {seat}'s")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Who has the turn.
        current: Seat,
    },
    /// The card is not in the hand.
    #[error("seat {seat} does not hold {card}")]
    NotInHand {
        /// Who tried.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The card matches neither the active suit nor the top card's rank.
    #[error("{card} matches neither the active suit {suit} nor the rank of {top}")]
    NoMatch {
        /// The card.
        card: Card,
        /// The top of the discard pile.
        top: Card,
        /// The active suit.
        suit: Suit,
    },
    /// A penalty is pending and the card does not answer it (S-ACT-1).
    #[error("a penalty of {cards} cards is pending: play {answer} or draw")]
    PenaltyPending {
        /// Cards to draw.
        cards: u32,
        /// What answers it (`a 2` or `A♠`).
        answer: &'static str,
    },
    /// A 7 is pending (S-ACT-2).
    #[error("a 7 is pending: play a 7 or pass")]
    SevenPending,
    /// An 8 was played without naming a suit.
    #[error("an 8 names the new suit: write e.g. {0}:S")]
    SuitMissing(Card),
    /// A suit was named with a card other than an 8.
    #[error("only an 8 names a suit ({0} does not)")]
    SuitNotAllowed(Card),
    /// An announcement on a play that does not leave one card (S-OWN-4).
    #[error("announce the last card only with the play that leaves you one card")]
    BadAnnouncement,
    /// Drawing with a legal play in hand (S-TURN-1).
    #[error("you can play, so you may not draw")]
    MustPlay,
    /// Drawing during a lock or the free play.
    #[error("no draw now: {0}")]
    NoDraw(&'static str),
    /// Passing outside a 7 lock.
    #[error("you may pass only while a 7 is pending")]
    NoPass,
    /// Nobody to call out at that seat.
    #[error("seat {0} cannot be called out now")]
    NoCallOut(Seat),
    /// An answer without an open window, or a decision out of place while one is open (S-OWN-3).
    #[error("{0}")]
    Window(WindowError),
    /// Text that is not an action.
    #[error("cannot read {text:?}: {why}")]
    Parse {
        /// The text.
        text: String,
        /// Why.
        why: String,
    },
}

/// Why the call-out window (S-OWN-3) refused an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WindowError {
    /// `nocall` without an open call-out window.
    #[error("no call-out window is open")]
    NoWindow,
    /// A window is open and this seat owes an answer: `callout N` or `nocall` first.
    #[error("seat {offender} did not announce the last card: answer with callout {offender} or nocall first")]
    AnswerFirst {
        /// The seat that may be called out.
        offender: Seat,
    },
    /// A window is open and this seat owes nothing: it waits for the other seats' answers.
    #[error("seat {seat} waits: the other seats are answering the call-out window on seat {offender}")]
    Wait {
        /// Who tried.
        seat: Seat,
        /// The seat that may be called out.
        offender: Seat,
    },
    /// The seat already answered the open window.
    #[error("seat {0} has already answered the call-out window")]
    AlreadyAnswered(Seat),
}

/// A pile of cards, top last (no allocation).
#[derive(Clone, Copy)]
struct Pile {
    cards: [Card; DECK_SIZE],
    len: u8,
}

impl Pile {
    fn new() -> Pile {
        Pile { cards: [Card::new(Rank::Two, Suit::S, 0); DECK_SIZE], len: 0 }
    }
    #[inline]
    fn len(&self) -> usize {
        self.len as usize
    }
    #[inline]
    fn push(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }
    #[inline]
    fn pop(&mut self) -> Option<Card> {
        (self.len > 0).then(|| {
            self.len -= 1;
            self.cards[self.len as usize]
        })
    }
    #[inline]
    fn top(&self) -> Option<Card> {
        (self.len > 0).then(|| self.cards[self.len as usize - 1])
    }
    fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
    fn set(&self) -> CardSet {
        self.as_slice().iter().copied().collect()
    }
}

impl fmt::Debug for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// One turn (or answer to a call-out window) as logged.
#[derive(Clone, Copy, Debug)]
struct TurnLog {
    seat: u8,
    action: Action,
    /// For an answer (`CallOut` or `NoCall`): the offender of the window.
    offender: u8,
    /// The cards drawn are `RoundLog::drawn[drawn_from..drawn_from + drawn_len]`.
    drawn_from: u32,
    drawn_len: u32,
    /// For a call-out: this entry (the window's first caller in seat order) carries the
    /// offender's draw.
    draws: bool,
}

/// An open call-out window (S-LAST-1, S-OWN-3): the offender played down to one card without
/// the announcement; every other surviving seat owes one answer, all at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CallOutWindow {
    /// The seat that may be called out.
    pub offender: Seat,
    /// The seats that owe an answer: every other surviving seat.
    pub asked: SeatSet,
    /// The seats that have answered so far.
    pub answered: SeatSet,
    /// Of those, the seats that called out (secret from the seats until all are in: the game
    /// knows everything; a seat sees only its [`SevenView`]).
    pub called: SeatSet,
}

impl CallOutWindow {
    /// The seats that have not answered yet.
    pub fn waiting(&self) -> SeatSet {
        SeatSet(self.asked.0 & !self.answered.0)
    }
}

/// A reshuffle of the discard pile, during turn `turn` (index into `turns`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reshuffle {
    turn: u32,
    cards: u32,
}

/// A finished round of Seven, as every seat may know it ([`SevenGame::past_rounds`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SevenRoundSummary {
    /// The round, from 1.
    pub number: u32,
    /// Who went out (ended the round with no card).
    pub out: Option<Seat>,
    /// The points each seat added (the cards left in its hand).
    pub points: Vec<i64>,
    /// The totals after the round.
    pub totals: Vec<i64>,
    /// Seats over the limit, out of the game.
    pub eliminated: SeatSet,
    /// Seats whose total was exactly the limit and went back to 0.
    pub reset: SeatSet,
}

/// How a round ended.
#[derive(Clone, Copy, Debug)]
struct RoundResult {
    out: Option<Seat>,
    points: [i64; MAX_PLAYERS],
    totals: [i64; MAX_PLAYERS],
    eliminated: SeatSet,
    reset: SeatSet,
}

/// One round as logged (for the record and replay).
#[derive(Clone, Debug)]
struct RoundLog {
    number: u32,
    seats_in: SeatSet,
    hands: [CardSet; MAX_PLAYERS],
    starting: Card,
    first: Seat,
    turns: Vec<TurnLog>,
    drawn: Vec<Card>,
    reshuffles: Vec<Reshuffle>,
    result: Option<RoundResult>,
}

/// A uniform number in `0..n` (rejection sampling on the raw ChaCha stream, so the sequence
/// never depends on the `rand` version's sampling algorithms).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let zone = (u64::MAX / n) * n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// A game of Seven.
#[derive(Clone, Debug)]
pub struct SevenGame {
    rules: SevenRules,
    players: usize,
    seed: u64,
    rng: ChaCha8Rng,
    names: Option<Vec<String>>,
    in_game: SeatSet,
    totals: [i64; MAX_PLAYERS],
    hands: [CardSet; MAX_PLAYERS],
    draw: Pile,
    discard: Pile,
    current: Seat,
    clockwise: bool,
    active_suit: Suit,
    penalty: Option<Penalty>,
    lock: Option<Seat>,
    /// The open call-out window (S-OWN-3).
    window: Option<CallOutWindow>,
    /// Seats that announced their last card and hold it still (public).
    announced: SeatSet,
    /// Turn actions in this round (call-outs not counted).
    turns: u32,
    starter: Seat,
    over: bool,
    winners: SeatSet,
    log: Vec<RoundLog>,
}

impl SevenGame {
    /// A new game of `players` seats (2-8), dealt from `seed`: the first player is drawn by lot,
    /// then the first round is dealt.
    pub fn new(rules: SevenRules, players: usize, seed: u64) -> Result<SevenGame, SetupError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::Players(players));
        }
        if rules.hand_size == 0 || players as u64 * rules.hand_size as u64 + 1 > DECK_SIZE as u64 {
            return Err(SetupError::HandSize { players, hand_size: rules.hand_size });
        }
        if rules.round_turn_limit == Some(0) {
            return Err(SetupError::TurnLimit);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let lot = below(&mut rng, players);
        let mut game = SevenGame {
            rules,
            players,
            seed,
            rng,
            names: None,
            in_game: SeatSet::first(players),
            totals: [0; MAX_PLAYERS],
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            draw: Pile::new(),
            discard: Pile::new(),
            current: lot,
            clockwise: true,
            active_suit: Suit::S,
            penalty: None,
            lock: None,
            window: None,
            announced: SeatSet::EMPTY,
            turns: 0,
            starter: lot,
            over: false,
            winners: SeatSet::EMPTY,
            log: Vec::new(),
        };
        game.start_round(lot);
        Ok(game)
    }

    /// Swap two players' hands before anyone acts in the round. For tests of what a seat may
    /// know and for teaching: the record shows the swapped hands, so the game no longer replays
    /// from its seed alone.
    pub fn swap_hands(&mut self, a: Seat, b: Seat) -> Result<(), SetupError> {
        let fresh = self.turns == 0 && self.window.is_none() && self.log.last().is_some_and(|r| r.turns.is_empty());
        if !fresh || !self.in_game.contains(a) || !self.in_game.contains(b) {
            return Err(SetupError::NotFresh);
        }
        self.hands.swap(a, b);
        if let Some(r) = self.log.last_mut() {
            r.hands.swap(a, b);
        }
        Ok(())
    }

    /// Name the seats for the record (default `p0`, `p1`, …).
    pub fn set_seat_names(&mut self, names: Vec<String>) -> Result<(), SetupError> {
        if names.len() != self.players {
            return Err(SetupError::SeatNames { players: self.players, got: names.len() });
        }
        self.names = Some(names);
        Ok(())
    }

    /// The seat names of the record.
    pub fn seat_names(&self) -> Vec<String> {
        match &self.names {
            Some(n) => n.clone(),
            None => (0..self.players).map(|s| format!("p{s}")).collect(),
        }
    }

    /// The knobs.
    pub fn rules(&self) -> &SevenRules {
        &self.rules
    }
    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players
    }
    /// The current round, from 1.
    pub fn round(&self) -> u32 {
        self.log.len() as u32
    }
    /// The seats still in the game.
    pub fn in_game(&self) -> SeatSet {
        self.in_game
    }
    /// The finished rounds, in order: who went out, each seat's points and totals after it,
    /// who was eliminated and whose total went back to 0 (all public).
    pub fn past_rounds(&self) -> Vec<SevenRoundSummary> {
        self.log
            .iter()
            .filter_map(|r| {
                r.result.map(|x| SevenRoundSummary {
                    number: r.number,
                    out: x.out,
                    points: x.points[..self.players].to_vec(),
                    totals: x.totals[..self.players].to_vec(),
                    eliminated: x.eliminated,
                    reset: x.reset,
                })
            })
            .collect()
    }
    /// The seat whose turn it is (meaningless once the game is over).
    pub fn current(&self) -> Seat {
        self.current
    }
    /// The seat that started the current round.
    pub fn starter(&self) -> Seat {
        self.starter
    }
    /// Whether play goes clockwise.
    pub fn clockwise(&self) -> bool {
        self.clockwise
    }
    /// A seat's hand (the game knows everything; a seat sees only its [`SevenView`]).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat).copied().unwrap_or_default()
    }
    /// The top of the discard pile.
    pub fn top(&self) -> Card {
        self.discard.top().expect("the discard pile always has its top card")
    }
    /// The active suit.
    pub fn active_suit(&self) -> Suit {
        self.active_suit
    }
    /// The pending penalty.
    pub fn penalty(&self) -> Option<Penalty> {
        self.penalty
    }
    /// The seat that played the pending 7, if a 7 lock is on.
    pub fn seven_lock(&self) -> Option<Seat> {
        self.lock
    }
    /// Cards in the draw pile.
    pub fn draw_pile_len(&self) -> usize {
        self.draw.len()
    }
    /// The discard pile, bottom first (every card played since the last reshuffle).
    pub fn discard_pile(&self) -> &[Card] {
        self.discard.as_slice()
    }
    /// The draw pile as a set (its order is secret).
    pub fn draw_pile_set(&self) -> CardSet {
        self.draw.set()
    }
    /// The open call-out window, answers included (omniscient; a seat sees its [`SevenView`]).
    pub fn call_out_window(&self) -> Option<CallOutWindow> {
        self.window
    }
    /// The seats that announced their last card and still hold it (public).
    pub fn announced(&self) -> SeatSet {
        self.announced
    }
    /// Turn actions made in the current round.
    pub fn turns_in_round(&self) -> u32 {
        self.turns
    }

    /// What the seat with the turn may do.
    pub fn mode(&self) -> TurnMode {
        if let Some(p) = self.penalty {
            TurnMode::Penalty(p)
        } else if let Some(owner) = self.lock {
            if owner == self.current { TurnMode::FreePlay } else { TurnMode::Lock { owner } }
        } else {
            TurnMode::Normal
        }
    }

    /// The cards of the seat with the turn that it may play now.
    pub fn playable(&self) -> CardSet {
        let hand = self.hands[self.current];
        match self.mode() {
            TurnMode::Penalty(p) => hand.and(p.kind.answers()),
            TurnMode::Lock { .. } => hand.and(Rank::Seven.mask()),
            TurnMode::FreePlay => hand,
            TurnMode::Normal => hand.and(self.active_suit.mask().or(self.top().rank().mask()).or(Rank::Eight.mask())),
        }
    }

    /// What anyone watching may know.
    pub fn spectator_view(&self) -> SevenView<'_> {
        SevenView::new(self, None)
    }

    /// Check an action without applying it.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), SevenError> {
        if self.over {
            return Err(SevenError::GameOver);
        }
        if seat >= self.players {
            return Err(SevenError::NoSuchSeat(seat));
        }
        if !self.in_game.contains(seat) {
            return Err(SevenError::Eliminated(seat));
        }
        if let Some(w) = self.window {
            if !w.asked.contains(seat) {
                return Err(SevenError::Window(WindowError::Wait { seat, offender: w.offender }));
            }
            if w.answered.contains(seat) {
                return Err(SevenError::Window(WindowError::AlreadyAnswered(seat)));
            }
            return match action {
                Action::CallOut(target) if target == w.offender => Ok(()),
                Action::CallOut(target) => Err(SevenError::NoCallOut(target)),
                Action::NoCall => Ok(()),
                _ => Err(SevenError::Window(WindowError::AnswerFirst { offender: w.offender })),
            };
        }
        match action {
            Action::CallOut(target) => return Err(SevenError::NoCallOut(target)),
            Action::NoCall => return Err(SevenError::Window(WindowError::NoWindow)),
            _ => {}
        }
        if seat != self.current {
            return Err(SevenError::NotYourTurn { seat, current: self.current });
        }
        let hand = self.hands[seat];
        let mode = self.mode();
        match action {
            Action::Play { card, suit, announce } => {
                if !hand.contains(card) {
                    return Err(SevenError::NotInHand { seat, card });
                }
                match mode {
                    TurnMode::Penalty(p) => {
                        if !p.kind.answers().contains(card) {
                            let answer = match p.kind {
                                PenaltyKind::Two => "a 2",
                                PenaltyKind::AceOfSpades => "A♠",
                            };
                            return Err(SevenError::PenaltyPending { cards: p.cards(), answer });
                        }
                    }
                    TurnMode::Lock { .. } => {
                        if card.rank() != Rank::Seven {
                            return Err(SevenError::SevenPending);
                        }
                    }
                    TurnMode::FreePlay => {}
                    TurnMode::Normal => {
                        let top = self.top();
                        if card.rank() != Rank::Eight && card.suit() != self.active_suit && card.rank() != top.rank() {
                            return Err(SevenError::NoMatch { card, top, suit: self.active_suit });
                        }
                    }
                }
                match (card.rank() == Rank::Eight, suit) {
                    (true, None) => return Err(SevenError::SuitMissing(card)),
                    (false, Some(_)) => return Err(SevenError::SuitNotAllowed(card)),
                    _ => {}
                }
                if announce && hand.len() != 2 {
                    return Err(SevenError::BadAnnouncement);
                }
                Ok(())
            }
            Action::Draw => match mode {
                TurnMode::Penalty(_) => Ok(()),
                TurnMode::Lock { .. } => Err(SevenError::NoDraw("a 7 is pending: play a 7 or pass")),
                TurnMode::FreePlay => Err(SevenError::NoDraw("the 7 came back to you: play any card")),
                TurnMode::Normal => {
                    if self.playable().is_empty() {
                        Ok(())
                    } else {
                        Err(SevenError::MustPlay)
                    }
                }
            },
            Action::Pass => match mode {
                TurnMode::Lock { .. } => Ok(()),
                _ => Err(SevenError::NoPass),
            },
            Action::CallOut(_) | Action::NoCall => unreachable!("handled above"),
        }
    }

    fn push_plays(out: &mut Vec<Action>, mask: CardSet, can_announce: bool) {
        for card in mask.iter() {
            if card.rank() == Rank::Eight {
                for s in Suit::ALL {
                    out.push(Action::Play { card, suit: Some(s), announce: false });
                    if can_announce {
                        out.push(Action::Play { card, suit: Some(s), announce: true });
                    }
                }
            } else {
                out.push(Action::Play { card, suit: None, announce: false });
                if can_announce {
                    out.push(Action::Play { card, suit: None, announce: true });
                }
            }
        }
    }

    /// The next surviving seat `steps` times in the direction of play.
    fn next_seat(&self, from: Seat, steps: usize) -> Seat {
        let n = self.players;
        let mut s = from;
        for _ in 0..steps {
            loop {
                s = if self.clockwise { (s + 1) % n } else { (s + n - 1) % n };
                if self.in_game.contains(s) {
                    break;
                }
            }
        }
        s
    }

    /// The next surviving seat clockwise after `from` (which may be out).
    fn next_clockwise(&self, from: Seat) -> Seat {
        let n = self.players;
        (1..=n).map(|k| (from + k) % n).find(|&s| self.in_game.contains(s)).expect("a seat is in the game")
    }

    fn log_mut(&mut self) -> &mut RoundLog {
        self.log.last_mut().expect("a round is always logged")
    }

    /// Shuffle, deal and turn the leading card; `first` starts.
    fn start_round(&mut self, first: Seat) {
        self.starter = first;
        self.hands = [CardSet::EMPTY; MAX_PLAYERS];
        self.draw = Pile::new();
        self.discard = Pile::new();
        for id in 0..DECK_SIZE as u8 {
            self.draw.push(Card::from_id(id).expect("id below 104"));
        }
        for i in (1..DECK_SIZE).rev() {
            let j = below(&mut self.rng, i + 1);
            self.draw.cards.swap(i, j);
        }
        let mut order = [0usize; MAX_PLAYERS];
        let mut k = 0;
        let mut s = first;
        loop {
            order[k] = s;
            k += 1;
            s = self.next_clockwise(s);
            if s == first {
                break;
            }
        }
        for _ in 0..self.rules.hand_size {
            for &seat in &order[..k] {
                let c = self.draw.pop().expect("the deck holds the deal");
                self.hands[seat].insert(c);
            }
        }
        let starting = self.draw.pop().expect("the deck holds the leading card");
        self.discard.push(starting);
        // S-SETUP-2: the leading card's effect does not apply; an 8 sets its own suit.
        self.active_suit = starting.suit();
        self.clockwise = true;
        self.penalty = None;
        self.lock = None;
        self.window = None;
        self.announced = SeatSet::EMPTY;
        self.turns = 0;
        self.current = first;
        let number = self.log.len() as u32 + 1;
        self.log.push(RoundLog {
            number,
            seats_in: self.in_game,
            hands: self.hands,
            starting,
            first,
            turns: Vec::new(),
            drawn: Vec::new(),
            reshuffles: Vec::new(),
            result: None,
        });
    }

    /// Turn the discard pile but its top card into a new draw pile; false if there is nothing.
    fn reshuffle(&mut self) -> bool {
        if self.discard.len() <= 1 {
            return false;
        }
        let top = self.discard.pop().expect("checked");
        let n = self.discard.len();
        self.draw.cards[..n].copy_from_slice(&self.discard.cards[..n]);
        self.draw.len = n as u8;
        self.discard = Pile::new();
        self.discard.push(top);
        for i in (1..n).rev() {
            let j = below(&mut self.rng, i + 1);
            self.draw.cards.swap(i, j);
        }
        let turn = self.log_mut().turns.len() as u32;
        self.log_mut().reshuffles.push(Reshuffle { turn, cards: n as u32 });
        true
    }

    /// `seat` draws up to `n` cards (S-DRAW-1); returns where they are logged.
    fn draw_cards(&mut self, seat: Seat, n: u32) -> (u32, u32) {
        let from = self.log_mut().drawn.len() as u32;
        let mut got = 0;
        for _ in 0..n {
            if self.draw.len() == 0 && !self.reshuffle() {
                break;
            }
            let c = self.draw.pop().expect("refilled");
            self.hands[seat].insert(c);
            self.log_mut().drawn.push(c);
            got += 1;
        }
        (from, got)
    }

    /// `seat` answers the open window; the last answer closes it.
    fn answer(&mut self, seat: Seat, call: bool) {
        let w = self.window.as_mut().expect("checked: a window is open");
        w.answered.insert(seat);
        if call {
            w.called.insert(seat);
        }
        if w.answered == w.asked {
            self.close_window();
        }
    }

    /// All answers are in: log them in seat order; if anyone called out, the offender draws 4
    /// (logged on the first caller's entry); then a cut due on the opening play happens.
    fn close_window(&mut self) {
        let w = self.window.take().expect("a window is open");
        let first_caller = w.called.lowest();
        for s in w.asked.iter() {
            let call = w.called.contains(s);
            let (drawn_from, drawn_len) = if first_caller == Some(s) {
                self.draw_cards(w.offender, 4)
            } else {
                (self.log_mut().drawn.len() as u32, 0)
            };
            self.log_mut().turns.push(TurnLog {
                seat: s as u8,
                action: if call { Action::CallOut(w.offender) } else { Action::NoCall },
                offender: w.offender as u8,
                drawn_from,
                drawn_len,
                draws: first_caller == Some(s),
            });
        }
        if self.rules.round_turn_limit.is_some_and(|l| self.turns >= l) {
            self.end_round(None);
        }
    }

    fn do_turn(&mut self, seat: Seat, action: Action) {
        let mode = self.mode();
        self.announced.remove(seat);
        let mut steps = 1;
        let mut opens_window = false;
        let mut log = TurnLog {
            seat: seat as u8,
            action,
            offender: 0,
            drawn_from: self.log_mut().drawn.len() as u32,
            drawn_len: 0,
            draws: false,
        };
        match action {
            Action::Play { card, suit, announce } => {
                self.hands[seat].remove(card);
                self.discard.push(card);
                self.log_mut().turns.push(log);
                if self.hands[seat].is_empty() {
                    // S-END-1: the round ends at once; a pending penalty is void.
                    self.end_round(Some(seat));
                    return;
                }
                if self.hands[seat].len() == 1 {
                    if announce {
                        self.announced.insert(seat);
                    } else {
                        opens_window = true;
                    }
                }
                self.active_suit = suit.unwrap_or(card.suit());
                if mode == TurnMode::FreePlay {
                    self.lock = None;
                }
                let penalty_kind = match card.rank() {
                    Rank::Two => Some(PenaltyKind::Two),
                    _ if card.is_ace_of_spades() => Some(PenaltyKind::AceOfSpades),
                    _ => None,
                };
                if let Some(kind) = penalty_kind {
                    let count = match self.penalty {
                        Some(p) if p.kind == kind => p.count + 1,
                        _ => 1,
                    };
                    self.penalty = Some(Penalty { kind, count });
                }
                match card.rank() {
                    Rank::Seven => self.lock = Some(seat),
                    Rank::Ten => {
                        if self.in_game.len() == 2 && self.rules.ten_skips_with_two {
                            steps = 2;
                        } else {
                            self.clockwise = !self.clockwise;
                        }
                    }
                    Rank::Jack => steps = 2,
                    _ => {}
                }
            }
            Action::Draw => {
                let n = self.penalty.take().map_or(1, Penalty::cards);
                let (from, len) = self.draw_cards(seat, n);
                log.drawn_from = from;
                log.drawn_len = len;
                self.log_mut().turns.push(log);
            }
            Action::Pass => self.log_mut().turns.push(log),
            Action::CallOut(_) | Action::NoCall => unreachable!("answers are not turn actions"),
        }
        self.current = self.next_seat(seat, steps);
        self.turns += 1;
        if opens_window {
            // S-OWN-3: resolved at once, before anything else (a cut waits for it).
            let asked = SeatSet(self.in_game.0 & !(1 << seat));
            self.window =
                Some(CallOutWindow { offender: seat, asked, answered: SeatSet::EMPTY, called: SeatSet::EMPTY });
            return;
        }
        if self.rules.round_turn_limit.is_some_and(|l| self.turns >= l) {
            self.end_round(None);
        }
    }

    /// Score the round, eliminate, and start the next round or end the game.
    fn end_round(&mut self, out: Option<Seat>) {
        let mut points = [0i64; MAX_PLAYERS];
        for s in self.in_game.iter() {
            points[s] = self.hands[s].points() as i64;
            self.totals[s] += points[s];
        }
        let mut eliminated = SeatSet::EMPTY;
        let mut reset = SeatSet::EMPTY;
        if let Some(limit) = self.rules.limit {
            let limit = limit as i64;
            for s in self.in_game.iter() {
                if self.totals[s] > limit {
                    eliminated.insert(s);
                } else if self.totals[s] == limit {
                    self.totals[s] = 0;
                    reset.insert(s);
                }
            }
            if eliminated == self.in_game {
                // S-OWN-8: nobody would be left; the lowest totals stay in.
                let min = self.in_game.iter().map(|s| self.totals[s]).min().expect("seats in game");
                for s in self.in_game.iter() {
                    if self.totals[s] == min {
                        eliminated.remove(s);
                    }
                }
            }
            self.in_game = SeatSet(self.in_game.0 & !eliminated.0);
        }
        let totals = self.totals;
        self.log_mut().result = Some(RoundResult { out, points, totals, eliminated, reset });
        self.penalty = None;
        self.lock = None;
        self.window = None;
        self.announced = SeatSet::EMPTY;
        if self.rules.limit.is_none() {
            let min = self.in_game.iter().map(|s| self.totals[s]).min().expect("seats in game");
            self.winners = SeatSet(0);
            for s in self.in_game.iter() {
                if self.totals[s] == min {
                    self.winners.insert(s);
                }
            }
            self.over = true;
        } else if self.in_game.len() <= 1 {
            self.winners = self.in_game;
            self.over = true;
        } else {
            let first = self.next_clockwise(self.starter);
            self.start_round(first);
        }
    }
}

/// Read an action from text without a game (see the module doc for the forms). A card without
/// `'` is the first copy.
pub fn parse_action_text(text: &str) -> Result<Action, SevenError> {
    parse_text(text).map(|(a, _)| a)
}

/// Parse; also tells whether a played card's copy was written explicitly.
fn parse_text(text: &str) -> Result<(Action, bool), SevenError> {
    let fail = |why: &str| SevenError::Parse { text: text.to_string(), why: why.to_string() };
    let mut s = text.trim();
    let mut announce = false;
    if let Some(rest) = s.strip_suffix('!') {
        announce = true;
        s = rest;
    }
    let mut tokens: Vec<&str> = s.split(|c: char| c == ':' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
    if tokens.last().is_some_and(|t| t.eq_ignore_ascii_case("last")) {
        announce = true;
        tokens.pop();
    }
    let Some(&first) = tokens.first() else {
        return Err(fail("empty; write e.g. 3C, 8H:S, 3C!, draw, pass, callout 2, nocall"));
    };
    let lower = first.to_ascii_lowercase();
    let word_only = |a: Action| {
        if tokens.len() == 1 && !announce { Ok((a, false)) } else { Err(fail("expected a single word")) }
    };
    match lower.as_str() {
        "draw" | "d" => return word_only(Action::Draw),
        "pass" | "p" => return word_only(Action::Pass),
        "nocall" | "no" | "no-call" => return word_only(Action::NoCall),
        "callout" | "call" | "call-out" => {
            let rest: Vec<&str> = tokens[1..].iter().copied().filter(|t| !t.eq_ignore_ascii_case("out")).collect();
            return match (rest.as_slice(), announce) {
                ([n], false) => n
                    .trim_start_matches(['p', 'P'])
                    .parse::<usize>()
                    .map(|seat| (Action::CallOut(seat), false))
                    .map_err(|_| fail("write callout and a seat number, e.g. callout 2")),
                _ => Err(fail("write callout and a seat number, e.g. callout 2")),
            };
        }
        "play" => {
            tokens.remove(0);
        }
        _ => {}
    }
    let (card, explicit) = match tokens.first() {
        Some(t) => Card::parse_with_copy(t).map_err(|e| fail(&e.to_string()))?,
        None => return Err(fail("which card?")),
    };
    let suit = match tokens.get(1) {
        Some(t) => Some(t.parse::<Suit>().map_err(|_| fail("the suit named with an 8 is one of S H C D"))?),
        None => None,
    };
    if tokens.len() > 2 {
        return Err(fail("too many words; write e.g. 8H:S!"));
    }
    Ok((Action::Play { card, suit, announce }, explicit))
}

impl Game for SevenGame {
    const NAME: &'static str = "seven";
    type Action = Action;
    type Error = SevenError;
    type View<'a> = SevenView<'a>;

    fn describe(&self, _seat: Seat, action: &Action) -> Move {
        let a = action.to_string();
        match *action {
            Action::Play { card, suit, announce } => {
                let m = Move::new(a, MoveKind::Play).card(card).announce(announce);
                match suit {
                    Some(s) => m.suit(s),
                    None => m,
                }
            }
            Action::Draw => Move::new(a, MoveKind::Draw),
            Action::Pass => Move::new(a, MoveKind::Pass),
            Action::CallOut(s) => Move::new(a, MoveKind::CallOut).seat(s),
            Action::NoCall => Move::new(a, MoveKind::NoCall),
        }
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> SeatSet {
        if self.over {
            return SeatSet::EMPTY;
        }
        match self.window {
            Some(w) => w.waiting(),
            None => SeatSet::only(self.current),
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.over || seat >= self.players || !self.in_game.contains(seat) {
            return;
        }
        if let Some(w) = self.window {
            if w.waiting().contains(seat) {
                out.push(Action::CallOut(w.offender));
                out.push(Action::NoCall);
            }
            return;
        }
        if seat == self.current {
            let can_announce = self.hands[seat].len() == 2;
            let mode = self.mode();
            let playable = self.playable();
            Self::push_plays(out, playable, can_announce);
            match mode {
                TurnMode::Penalty(_) => out.push(Action::Draw),
                TurnMode::Lock { .. } => out.push(Action::Pass),
                TurnMode::FreePlay => {}
                TurnMode::Normal => {
                    if playable.is_empty() {
                        out.push(Action::Draw);
                    }
                }
            }
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), SevenError> {
        self.check(seat, action)?;
        match action {
            Action::CallOut(_) => self.answer(seat, true),
            Action::NoCall => self.answer(seat, false),
            _ => self.do_turn(seat, action),
        }
        Ok(())
    }

    fn view(&self, seat: Seat) -> SevenView<'_> {
        SevenView::new(self, Some(seat))
    }

    fn spectator_view(&self) -> SevenView<'_> {
        SevenGame::spectator_view(self)
    }

    fn set_seat_names(&mut self, names: Vec<String>) {
        // A count that is not the players' keeps the default names, as the trait says.
        let _ = SevenGame::set_seat_names(self, names);
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn totals(&self) -> Vec<i64> {
        self.totals[..self.players].to_vec()
    }

    fn winners(&self) -> Vec<Seat> {
        self.winners.iter().collect()
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, SevenError> {
        let (mut action, explicit) = parse_text(text)?;
        if let Action::Play { card, .. } = &mut action {
            let hand = self.hand(seat);
            if !explicit && !hand.contains(*card) && hand.contains(card.other_copy()) {
                *card = card.other_copy();
            }
        }
        Ok(action)
    }

    fn record(&self) -> serde_json::Value {
        record::to_json(self)
    }
}
