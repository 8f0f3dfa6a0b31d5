//! The Oh 7 family (`rules/oh7.md`): one state machine for the five presets, the Dummy and
//! custom rulesets.
//!
//! A round is Distribution → (Passing) → Bets → First leader and trump → 7 tricks → Scoring →
//! end-of-game check. The Dummy (§8) and engine lots are played by the engine itself, so the
//! seats that owe a decision are always people or bots.
//!
//! Text forms of actions (what [`Oh7Game::parse_action`] reads, depending on the phase):
//! a card (`3S`, `*2`, `V`) to bet or play; cards separated by spaces to pass (`3S 4H`); `yes`
//! or `no` to reveal ?/‽; a seat number to choose the leader; a suit letter or symbol to choose
//! or announce the trump. Prefixed forms (`bet 3S`, `play 3S`, `pass 3S 4H`, `reveal yes`,
//! `leader 2`, `trump H`, `announce H`) are accepted in their phase too.

mod record;
mod refusal;
pub mod trick;
mod view;

use std::fmt;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::card::{Card, CardSet, Kind, Suit, parse_cards};
use crate::game::{Game, Seat, SeatSet};
use crate::moves::{Move, MoveKind};
use crate::ruleset::{AfterLastAttempt, DummyFollower, EndRule, LeaderRule, Ruleset, RulesetError};

pub use record::{
    DealRecord, Decision, Record, ReplayError, RoundRecord, TrickRecord, replay, replay_actions, replay_written,
};
pub use view::{LeaderBy, LeaderWhy, PhaseView, RoundSummary, ScoreParts, SeatView};

/// Most seats at a table (bga: 9).
pub const MAX_SEATS: usize = 9;
/// Tricks in a round.
pub const TRICKS: usize = 7;

pub use crate::ruleset::MAX_ROUNDS;
/// Cards in a hand.
pub const HAND: usize = 7;

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Cards given away in the `bga` passing variant (§9).
    Pass(CardSet),
    /// A secret bet card (§3).
    Bet(Card),
    /// A card played to the trick (§5).
    Play(Card),
    /// `fr-advanced`: reveal ? to win a tie for first leader (or not).
    Reveal(bool),
    /// The ‽ holder picks the first leader among the tied players (`kod7`).
    ChooseLeader(Seat),
    /// The first leader picks the trump (R-LEAD-1, R-LEAD-2).
    ChooseTrump(Suit),
    /// A tied all-★ player announces a trump suit (`kod7`).
    AnnounceTrump(Suit),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass(s) => write!(f, "pass {s}"),
            Action::Bet(c) => write!(f, "bet {c}"),
            Action::Play(c) => write!(f, "play {c}"),
            Action::Reveal(b) => write!(f, "reveal {}", if *b { "yes" } else { "no" }),
            Action::ChooseLeader(s) => write!(f, "leader {s}"),
            Action::ChooseTrump(s) => write!(f, "trump {s}"),
            Action::AnnounceTrump(s) => write!(f, "announce {s}"),
        }
    }
}

/// Why a card cannot be the bet card (the text names no ruling: players read it; the ruling
/// id is [`BetBan::ruling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BetBan {
    /// The ‽/? card never bets (R-BET-1).
    #[error("this card can never be used to bet")]
    Never,
    /// The card was bet in an earlier attempt of this round (R-BET-2).
    #[error("it was bet in an earlier attempt of this round; use another card")]
    UsedBefore,
}

impl BetBan {
    /// The ruling of `rules/oh7.md` behind it.
    pub fn ruling(self) -> &'static str {
        match self {
            BetBan::Never => "R-BET-1",
            BetBan::UsedBefore => "R-BET-2",
        }
    }
}

/// Why an action was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// No such seat at this table.
    #[error("there is no seat {seat}: seats are 0 to {last}")]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
        /// The last seat.
        last: Seat,
    },
    /// This seat owes no decision now.
    #[error("seat {seat} has nothing to decide now (waiting for {waiting})")]
    NotYourTurn {
        /// The seat that acted.
        seat: Seat,
        /// Who is awaited, in words.
        waiting: String,
    },
    /// The action is of another phase.
    #[error("cannot {action} now: {now}")]
    WrongPhase {
        /// What was tried.
        action: &'static str,
        /// What the table is doing, in words.
        now: String,
    },
    /// The card is not in the seat's hand.
    #[error("{0} is not in your hand")]
    NotInHand(Card),
    /// A bet that the rules forbid.
    #[error("cannot bet {card}: {why}")]
    CannotBet {
        /// The card.
        card: Card,
        /// Which rule forbids it.
        why: BetBan,
    },
    /// The following rule (§5).
    #[error("cannot play {card}: you must follow {lead} (you hold {hold})")]
    MustFollow {
        /// The card.
        card: Card,
        /// The lead suit.
        lead: Suit,
        /// The cards of the lead suit held.
        hold: CardSet,
    },
    /// Wrong number of cards passed.
    #[error("pass exactly {expected} card(s) this round; got {got}")]
    PassCount {
        /// Cards to pass.
        expected: usize,
        /// Cards given.
        got: usize,
    },
    /// A choice outside what is offered.
    #[error("{0}")]
    NotAChoice(String),
    /// Text that is not an action.
    #[error("{0}")]
    Parse(String),
}

/// The phase of the round in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Passing {
        count: u8,
        to_left: bool,
    },
    Betting,
    /// `fr-advanced`: the tied players are asked, all at once, whether they reveal ? (only its
    /// holder can say yes; asking all of them hides who holds it).
    Reveal {
        tied: SeatSet,
    },
    ChooseLeader {
        chooser: Seat,
        among: SeatSet,
    },
    ChooseTrump {
        leader: Seat,
    },
    AnnounceTrump {
        tied: SeatSet,
    },
    Playing,
    Over,
}

/// A trick: who led, the cards in order of play and, once complete, who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    leader: u8,
    len: u8,
    winner: u8,
    lead: Option<Suit>,
    seats: [u8; MAX_SEATS],
    cards: [Card; MAX_SEATS],
}

impl Trick {
    /// A trick with no card yet.
    pub const EMPTY: Trick = Trick {
        leader: 0,
        len: 0,
        winner: 0,
        lead: None,
        seats: [0; MAX_SEATS],
        cards: [Card::INTERROBANG; MAX_SEATS],
    };

    fn empty() -> Trick {
        Trick::EMPTY
    }
    /// Who led.
    pub fn leader(&self) -> Seat {
        self.leader as Seat
    }
    /// Who won (meaningful once complete).
    pub fn winner(&self) -> Seat {
        self.winner as Seat
    }
    /// The cards, in order of play.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
    /// Number of cards played.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether no card was played yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// `(seat, card)` in order of play.
    pub fn plays(&self) -> impl ExactSizeIterator<Item = (Seat, Card)> + '_ {
        self.seats[..self.len as usize].iter().zip(self.cards()).map(|(&s, &c)| (s as Seat, c))
    }
    /// The lead suit so far (the suit of the first regular card).
    #[inline]
    pub fn lead_suit(&self) -> Option<Suit> {
        self.lead
    }
    #[inline]
    fn push(&mut self, seat: Seat, card: Card) {
        let i = self.len as usize;
        self.seats[i] = seat as u8;
        self.cards[i] = card;
        self.len += 1;
        if self.lead.is_none() {
            self.lead = card.suit();
        }
    }
}

/// One deal of a round (a round has several when it is dealt again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Deal {
    pub dealt: [CardSet; MAX_SEATS],
    pub discard: CardSet,
    pub pile: Vec<Card>,
    pub passes: [CardSet; MAX_SEATS],
    pub attempts: Vec<[Card; MAX_SEATS]>,
}

/// A decision outside bets and plays, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DecisionKind {
    Reveal(bool),
    ChooseLeader(Seat),
    ChooseTrump(Suit),
    AnnounceTrump(Suit),
    Lot(Seat),
}

/// The round in progress, or a finished one kept for the record.
#[derive(Clone, Debug)]
pub(crate) struct Round {
    pub number: u32,
    pub redeals: Vec<Deal>,
    pub deal: Deal,
    pub hands: [CardSet; MAX_SEATS],
    /// Cards used as bets in earlier attempts of this deal (R-BET-2), and revealed (R-BET-3).
    pub used: [CardSet; MAX_SEATS],
    pub pending: [Card; MAX_SEATS],
    pub submitted: SeatSet,
    pub pass_choice: [CardSet; MAX_SEATS],
    pub bonus: [i32; MAX_SEATS],
    pub decisions: Vec<(Option<Seat>, DecisionKind)>,
    pub announced: [Option<Suit>; MAX_SEATS],
    pub reveal_yes: SeatSet,
    pub revealed: Option<Seat>,
    pub bets: [u8; MAX_SEATS],
    pub first_leader: Seat,
    pub trump: Suit,
    pub faceup: CardSet,
    pub pile_next: u8,
    pub tricks: [Trick; TRICKS],
    pub n_tricks: u8,
    pub trick: Trick,
    pub order: [u8; MAX_SEATS],
    pub won: [u8; MAX_SEATS],
    pub last_player_leader: Seat,
    pub points: [i32; MAX_SEATS],
    pub scored: bool,
}

/// A game of the Oh 7 family.
#[derive(Debug)]
pub struct Oh7Game {
    rules: Ruleset,
    players: usize,
    seats: usize,
    dummy: Option<Seat>,
    deck: Vec<Card>,
    seed: u64,
    rng: ChaCha8Rng,
    names: Vec<String>,
    totals: [i32; MAX_SEATS],
    made: [u16; MAX_SEATS],
    /// The finished rounds. Rounds are boxed so that a round, once dealt, stays where it is:
    /// finishing one moves a pointer into the history, not the round (about 1.5 KB).
    #[allow(clippy::vec_box)] // the point: a finished round moves as a pointer, not as 1.5 KB
    history: Vec<Box<Round>>,
    round: Box<Round>,
    /// Rounds of an earlier game kept for their memory by `restart`, reset in place when the
    /// next round starts (never cloned).
    #[allow(clippy::vec_box)] // kept boxed, to become `round` without a move
    spare: Vec<Box<Round>>,
    phase: Phase,
    to_move: SeatSet,
    winners: SeatSet,
    /// Lots: how many were drawn, among whom the last was, and the next one's outcome when a
    /// caller decides it ([`Oh7Game::force_next_lot`]).
    lots: u32,
    last_lot_among: SeatSet,
    forced_lot: Option<usize>,
}

/// A copy of the game (without the spare rounds a `restart` keeps).
impl Clone for Oh7Game {
    fn clone(&self) -> Oh7Game {
        Oh7Game {
            rules: self.rules,
            players: self.players,
            seats: self.seats,
            dummy: self.dummy,
            deck: self.deck.clone(),
            seed: self.seed,
            rng: self.rng.clone(),
            names: self.names.clone(),
            totals: self.totals,
            made: self.made,
            history: self.history.clone(),
            round: self.round.clone(),
            spare: Vec::new(),
            phase: self.phase,
            to_move: self.to_move,
            winners: self.winners,
            lots: self.lots,
            last_lot_among: self.last_lot_among,
            forced_lot: self.forced_lot,
        }
    }
}

/// The Dummy's seat when it plays.
pub const DUMMY_SEAT: Seat = 2;

impl Oh7Game {
    /// A new game; the first round is dealt at once. Errors if the ruleset is invalid or does
    /// not allow `players`.
    pub fn new(rules: Ruleset, players: usize, seed: u64) -> Result<Oh7Game, RulesetError> {
        rules.validate()?;
        rules.check_players(players)?;
        // The derived knobs are stored as dealt, so that the ruleset (in the view and in the
        // record) describes this game alone: `bga` at 5-9 players deals two decks.
        let rules = Ruleset { decks: rules.copies(players), ..rules };
        let dummy = rules.uses_dummy(players).then_some(DUMMY_SEAT);
        let seats = players + dummy.is_some() as usize;
        let mut g = Oh7Game {
            rules,
            players,
            seats,
            dummy,
            deck: rules.deck(players),
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            names: (0..players).map(|s| format!("p{s}")).collect(),
            totals: [0; MAX_SEATS],
            made: [0; MAX_SEATS],
            history: Vec::new(),
            spare: Vec::new(),
            lots: 0,
            last_lot_among: SeatSet::EMPTY,
            forced_lot: None,
            round: Box::new(Round::new(1)),
            phase: Phase::Betting,
            to_move: SeatSet::EMPTY,
            winners: SeatSet::EMPTY,
        };
        g.deal();
        Ok(g)
    }

    /// Start a new game at the same table with another seed, reusing this one's memory (for
    /// simulations; the result is the same as [`Oh7Game::new`] with that seed).
    pub fn restart(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.totals = [0; MAX_SEATS];
        self.made = [0; MAX_SEATS];
        self.spare.append(&mut self.history);
        self.round.reset(1);
        self.winners = SeatSet::EMPTY;
        self.deal();
    }

    /// Name the seats (shown in records as `seats`).
    pub fn set_seat_names(&mut self, names: Vec<String>) {
        if names.len() == self.players {
            self.names = names;
        }
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }
    /// Players (the Dummy not counted).
    pub fn players(&self) -> usize {
        self.players
    }
    /// Seats at the table, the Dummy included.
    pub fn table_seats(&self) -> usize {
        self.seats
    }
    /// The Dummy's seat, if it plays.
    pub fn dummy(&self) -> Option<Seat> {
        self.dummy
    }
    /// The seed of the game (secret while the game runs: never put it in a view).
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The Dummy's face-down pile still to be turned, top first (empty without a Dummy). Hidden
    /// from every seat (§11): never put it in a view; for the oracle bot and tests.
    pub fn dummy_pile(&self) -> &[Card] {
        if self.dummy.is_some() { &self.round.deal.pile[self.round.pile_next as usize..] } else { &[] }
    }
    /// The round number (1-based; a redeal does not advance it).
    pub fn round_number(&self) -> u32 {
        self.round.number
    }

    /// How many lots the game has drawn (ties for the first leader broken by lot), and among which
    /// seats the last one was.
    pub fn lots(&self) -> (u32, SeatSet) {
        (self.lots, self.last_lot_among)
    }

    /// Decide the next lot instead of the game's generator: it falls on the `k`-th seat (in seat
    /// order) of those tied. For search and for games whose chance is decided outside (the
    /// OpenSpiel game); a game set up this way no longer replays from its seed alone. Without
    /// it, lots come from the seed as always.
    pub fn force_next_lot(&mut self, k: usize) {
        self.forced_lot = Some(k);
    }

    /// Replace the current deal by a chosen one: `hands` one per player, `rest` the discard (or
    /// the Dummy's pile, top first). Only before any card is passed or bet. For tests, puzzles
    /// and teaching: a game set up this way no longer replays from its seed alone.
    pub fn set_deal(&mut self, hands: &[CardSet], rest: &[Card]) -> Result<(), RuleError> {
        let fresh = matches!(self.phase, Phase::Passing { .. } | Phase::Betting)
            && self.round.deal.attempts.is_empty()
            && self.to_move == self.human_seats();
        if !fresh {
            return Err(RuleError::NotAChoice("a deal can only be set before any card is passed or bet".into()));
        }
        let mut all = CardSet::from_cards(rest);
        let mut count = rest.len();
        for h in hands {
            all = all.or(*h);
            count += h.len() as usize;
        }
        if hands.len() != self.players
            || hands.iter().any(|h| h.len() as usize != HAND)
            || count != self.deck.len()
            || all != CardSet::from_cards(&self.deck)
        {
            return Err(RuleError::NotAChoice(format!(
                "a deal needs {} hands of {HAND} cards and the rest of the {}-card deck, each card once",
                self.players,
                self.deck.len()
            )));
        }
        let r = &mut self.round;
        r.deal.dealt[..self.players].copy_from_slice(hands);
        r.hands = r.deal.dealt;
        if self.dummy.is_some() {
            r.deal.pile = rest.to_vec();
            r.deal.discard = CardSet::EMPTY;
        } else {
            r.deal.discard = CardSet::from_cards(rest);
        }
        Ok(())
    }

    /// The legal cards to play for `seat` now (empty unless it is that seat's turn to play).
    /// The fast path for random play and search; [`Game::legal_actions`] wraps it.
    #[inline]
    pub fn legal_plays(&self, seat: Seat) -> CardSet {
        if !matches!(self.phase, Phase::Playing) || !self.to_move.contains(seat) {
            return CardSet::EMPTY;
        }
        trick::legal_plays(self.round.hands[seat], self.round.trick.lead_suit())
    }

    /// The cards `seat` may bet now (R-BET-1, R-BET-2).
    #[inline]
    pub fn legal_bets(&self, seat: Seat) -> CardSet {
        if !matches!(self.phase, Phase::Betting) || !self.to_move.contains(seat) {
            return CardSet::EMPTY;
        }
        self.bettable(seat)
    }

    fn bettable(&self, seat: Seat) -> CardSet {
        let mut s = self.round.hands[seat].minus(self.round.used[seat]);
        s.remove(Card::INTERROBANG);
        s
    }

    fn human_seats(&self) -> SeatSet {
        SeatSet::first(self.players)
    }

    // ----- dealing -----

    fn pass_rule(&self) -> Option<(u8, bool)> {
        self.rules.pass_of(self.round.number)
    }

    fn deal(&mut self) {
        let r = &mut self.round;
        let mut deck = [Card::INTERROBANG; 64];
        let n = self.deck.len();
        deck[..n].copy_from_slice(&self.deck);
        // Fisher-Yates with 16-bit uniform draws, two per 32-bit word of the RNG (R-OWN-6).
        let mut draws = Draws16::default();
        for i in (1..n).rev() {
            let j = draws.below(&mut self.rng, i as u32 + 1) as usize;
            deck.swap(i, j);
        }
        r.deal.dealt = [CardSet::EMPTY; MAX_SEATS];
        for p in 0..self.players {
            r.deal.dealt[p] = CardSet::from_cards(&deck[p * HAND..(p + 1) * HAND]);
        }
        let rest = &deck[self.players * HAND..n];
        r.deal.pile.clear();
        if self.dummy.is_some() {
            r.deal.discard = CardSet::EMPTY;
            r.deal.pile.extend_from_slice(rest);
        } else {
            r.deal.discard = CardSet::from_cards(rest);
        }
        r.deal.passes = [CardSet::EMPTY; MAX_SEATS];
        r.deal.attempts.clear();
        r.hands = r.deal.dealt;
        r.used = [CardSet::EMPTY; MAX_SEATS];
        r.submitted = SeatSet::EMPTY;
        r.pass_choice = [CardSet::EMPTY; MAX_SEATS];
        r.faceup = CardSet::EMPTY;
        r.pile_next = 0;
        match self.pass_rule() {
            Some((count, to_left)) => self.phase = Phase::Passing { count, to_left },
            None => self.phase = Phase::Betting,
        }
        self.to_move = self.human_seats();
    }

    fn redeal(&mut self) {
        let old = std::mem::replace(&mut self.round.deal, Deal::empty());
        self.round.redeals.push(old);
        self.deal();
    }

    fn start_round(&mut self) {
        let number = self.round.number + 1;
        let next = match self.spare.pop() {
            Some(mut r) => {
                r.reset(number);
                r
            }
            None => Box::new(Round::new(number)),
        };
        let finished = std::mem::replace(&mut self.round, next);
        self.history.push(finished);
        self.deal();
    }

    // ----- passing -----

    fn finish_passes(&mut self, to_left: bool) {
        let r = &mut self.round;
        let n = self.players;
        for p in 0..n {
            r.hands[p] = r.hands[p].minus(r.pass_choice[p]);
        }
        for p in 0..n {
            let to = if to_left { (p + 1) % n } else { (p + n - 1) % n };
            r.hands[to] = r.hands[to].or(r.pass_choice[p]);
        }
        r.deal.passes = r.pass_choice;
        self.phase = Phase::Betting;
        self.to_move = self.human_seats();
    }

    // ----- bets -----

    fn finish_attempt(&mut self) {
        let n = self.players;
        let r = &mut self.round;
        let mut cards = [Card::INTERROBANG; MAX_SEATS];
        let mut sum = 0u32;
        for p in 0..n {
            let c = r.pending[p];
            cards[p] = c;
            r.used[p].insert(c);
            r.bets[p] = c.value();
            sum += c.value() as u32;
        }
        if let Some(d) = self.dummy {
            r.bets[d] = 2;
            sum += 2;
        }
        r.deal.attempts.push(cards);
        r.submitted = SeatSet::EMPTY;
        let attempts = r.deal.attempts.len();
        if sum == 7 {
            if self.rules.rebid_bonus {
                let top = self.top_bidders(&cards);
                for p in top.iter() {
                    self.round.bonus[p] += 1;
                }
            }
            let limit_reached = self.rules.bet_attempts.is_some_and(|l| attempts >= l as usize);
            if limit_reached && self.rules.after_last_attempt == AfterLastAttempt::Stands {
                self.find_leader();
            } else {
                self.rebet_or_redeal(limit_reached);
            }
            return;
        }
        self.find_leader();
    }

    /// Bet again with unused cards, or deal again when the limit is reached or a player has no
    /// unused card left (`bga`).
    fn rebet_or_redeal(&mut self, limit_reached: bool) {
        let out_of_cards = (0..self.players).any(|p| self.bettable(p).is_empty());
        if limit_reached || out_of_cards {
            self.redeal();
        } else {
            self.phase = Phase::Betting;
            self.to_move = self.human_seats();
        }
    }

    /// The order of bets for "top bid" (value, then suit priority); ★ and Ø have no suit.
    fn bet_rank(c: Card) -> u16 {
        let suit_rank = c.suit().map_or(0, |s| 5 - s.index() as u16);
        (c.value() as u16) * 8 + suit_rank
    }

    /// The players whose bet is the top bid of an attempt (several when identical cards tie).
    fn top_bidders(&self, cards: &[Card; MAX_SEATS]) -> SeatSet {
        let best = (0..self.players).map(|p| Self::bet_rank(cards[p])).max().unwrap_or(0);
        let mut s = SeatSet::EMPTY;
        for p in 0..self.players {
            if Self::bet_rank(cards[p]) == best {
                s.insert(p);
            }
        }
        s
    }

    fn holder_of(&self, card: Card) -> Option<Seat> {
        (0..self.players).find(|&p| self.round.hands[p].contains(card))
    }

    fn lot(&mut self, among: SeatSet) -> Seat {
        let k = match self.forced_lot.take() {
            Some(k) => k % among.len(),
            None => below(&mut self.rng, among.len() as u32) as usize,
        };
        self.lots += 1;
        self.last_lot_among = among;
        let s = among.iter().nth(k).expect("non-empty");
        self.round.decisions.push((None, DecisionKind::Lot(s)));
        s
    }

    /// §4: who leads first and what is trump, possibly through decisions.
    fn find_leader(&mut self) {
        let n = self.players;
        let cards = *self.round.deal.attempts.last().expect("an attempt");
        match self.rules.leader {
            LeaderRule::HighestBet => {
                let top = self.top_bidders(&cards);
                if top.len() > 1 {
                    // Two decks: the top bid made by identical cards: bid again (R-BET-2 applies,
                    // no bonus); R-OWN-1: when nobody can bid again, the round is dealt again.
                    let limit_reached =
                        self.rules.bet_attempts.is_some_and(|l| self.round.deal.attempts.len() >= l as usize);
                    self.rebet_or_redeal(limit_reached);
                    return;
                }
                let leader = top.lowest().expect("a top bid");
                let trump = cards[leader].suit().expect("regular bet");
                self.start_play(leader, trump);
            }
            LeaderRule::Exclarrogatif => {
                let regular: Vec<Seat> = (0..n).filter(|&p| cards[p].is_regular()).collect();
                if regular.is_empty() {
                    // R-LEAD-1: the highest ★ leads and chooses the trump.
                    let leader = self.highest_star_or_lot(&cards);
                    self.phase = Phase::ChooseTrump { leader };
                    self.to_move = SeatSet::only(leader);
                    return;
                }
                let top = regular.iter().map(|&p| cards[p].value()).max().unwrap_or(0);
                let mut tied = SeatSet::EMPTY;
                for &p in &regular {
                    if cards[p].value() == top {
                        tied.insert(p);
                    }
                }
                if tied.len() > 1 && self.holder_of(Card::INTERROBANG).is_some_and(|h| tied.contains(h)) {
                    self.phase = Phase::Reveal { tied };
                    self.to_move = tied;
                    return;
                }
                self.lead_by_suit_priority(tied, &cards);
            }
            LeaderRule::Interrobang => {
                let non_star: Vec<Seat> = (0..n).filter(|&p| cards[p].kind() != Kind::Star).collect();
                if non_star.is_empty() {
                    let top = (0..n).map(|p| cards[p].value()).max().unwrap_or(0);
                    let mut tied = SeatSet::EMPTY;
                    for p in 0..n {
                        if cards[p].value() == top {
                            tied.insert(p);
                        }
                    }
                    if tied.len() == 1 {
                        // R-LEAD-2: the highest ★ leads and chooses any suit of this deck.
                        let leader = tied.lowest().expect("one");
                        self.phase = Phase::ChooseTrump { leader };
                        self.to_move = SeatSet::only(leader);
                    } else {
                        self.phase = Phase::AnnounceTrump { tied };
                        self.to_move = tied;
                    }
                    return;
                }
                let top = non_star.iter().map(|&p| cards[p].value()).max().unwrap_or(0);
                let mut tied = SeatSet::EMPTY;
                for &p in &non_star {
                    if cards[p].value() == top {
                        tied.insert(p);
                    }
                }
                if tied.len() == 1 {
                    let leader = tied.lowest().expect("one");
                    let trump = cards[leader].suit().unwrap_or(Suit::S);
                    self.start_play(leader, trump);
                } else {
                    self.interrobang_picks(tied);
                }
            }
        }
    }

    /// `kod7` tie: the ‽ holder (R-LEAD-4: a ‽ in the Dummy's pile or the discard is held by
    /// nobody) reveals it and chooses the leader among `tied`; with no holder, a seeded lot.
    fn interrobang_picks(&mut self, tied: SeatSet) {
        match self.holder_of(Card::INTERROBANG) {
            Some(h) => {
                self.round.revealed = Some(h);
                self.round.decisions.push((Some(h), DecisionKind::Reveal(true)));
                self.phase = Phase::ChooseLeader { chooser: h, among: tied };
                self.to_move = SeatSet::only(h);
            }
            None => {
                let leader = self.lot(tied);
                self.leader_chosen(leader);
            }
        }
    }

    /// A leader was chosen (by ‽ or lot) in `kod7`: trump is their bet's suit, or the suit they
    /// announced when all bets were ★.
    fn leader_chosen(&mut self, leader: Seat) {
        let card = self.round.deal.attempts.last().expect("an attempt")[leader];
        match card.suit() {
            Some(s) => self.start_play(leader, s),
            None => {
                let s = self.round.announced[leader].expect("an announced suit");
                self.start_play(leader, s)
            }
        }
    }

    fn highest_star_or_lot(&mut self, cards: &[Card; MAX_SEATS]) -> Seat {
        let n = self.players;
        let stars: Vec<Seat> = (0..n).filter(|&p| cards[p].kind() == Kind::Star).collect();
        let pool: Vec<Seat> = if stars.is_empty() { (0..n).collect() } else { stars };
        let top = pool.iter().map(|&p| cards[p].value()).max().unwrap_or(0);
        let mut tied = SeatSet::EMPTY;
        for &p in &pool {
            if cards[p].value() == top {
                tied.insert(p);
            }
        }
        if tied.len() == 1 { tied.lowest().expect("one") } else { self.lot(tied) }
    }

    fn lead_by_suit_priority(&mut self, tied: SeatSet, cards: &[Card; MAX_SEATS]) {
        let leader = tied.iter().max_by_key(|&p| Self::bet_rank(cards[p])).expect("non-empty");
        let trump = cards[leader].suit().expect("regular bet");
        self.start_play(leader, trump);
    }

    // ----- tricks -----

    fn start_play(&mut self, leader: Seat, trump: Suit) {
        let r = &mut self.round;
        r.first_leader = leader;
        r.last_player_leader = leader;
        r.trump = trump;
        if self.dummy.is_some() {
            // §8: turn 2 cards of the pile face up before trick 1.
            r.faceup = CardSet::from_cards(&r.deal.pile[..2]);
            r.pile_next = 2;
        }
        self.phase = Phase::Playing;
        self.start_trick(leader);
    }

    fn start_trick(&mut self, leader: Seat) {
        let r = &mut self.round;
        r.trick = Trick::empty();
        r.trick.leader = leader as u8;
        match self.dummy {
            None => {
                let mut s = leader;
                for i in 0..self.seats {
                    r.order[i] = s as u8;
                    s = if s + 1 == self.seats { 0 } else { s + 1 };
                }
            }
            Some(d) if leader == d => {
                // The Dummy leads, then the first leader (en, fr) or the last player who led
                // (kod7, R-DUMMY-3), then the other player.
                let f = match self.rules.dummy_follower {
                    DummyFollower::FirstLeader => r.first_leader,
                    DummyFollower::PreviousLeader => r.last_player_leader,
                };
                r.order[..3].copy_from_slice(&[d as u8, f as u8, 1 - f as u8]);
            }
            Some(d) => {
                r.last_player_leader = leader;
                r.order[..3].copy_from_slice(&[leader as u8, 1 - leader as u8, d as u8]);
            }
        }
        self.advance_trick();
    }

    /// Let the Dummy play while it is its turn, then set who owes the next card.
    #[inline]
    fn advance_trick(&mut self) {
        loop {
            let i = self.round.trick.len as usize;
            if i == self.seats {
                self.end_trick();
                return;
            }
            let next = self.round.order[i] as Seat;
            if Some(next) != self.dummy {
                self.to_move = SeatSet::only(next);
                return;
            }
            self.dummy_plays(i, next);
        }
    }

    /// The Dummy plays the `i`-th card of the trick (§8).
    #[inline(never)]
    fn dummy_plays(&mut self, i: usize, dummy: Seat) {
        let r = &mut self.round;
        let c = r.deal.pile[r.pile_next as usize];
        r.pile_next += 1;
        let card = if i == 0 {
            // Leading: the top card of the pile; face-up cards stay.
            c
        } else {
            // Playing last: turn one more card face up and choose among three.
            r.faceup.insert(c);
            let c = trick::dummy_choice(r.trick.cards(), r.faceup, r.trump, r.won[dummy]);
            r.faceup.remove(c);
            c
        };
        r.trick.push(dummy, card);
    }

    #[inline(never)]
    fn end_trick(&mut self) {
        let r = &mut self.round;
        let w = trick::winning_index(r.trick.cards(), r.trump);
        let winner = r.trick.seats[w] as Seat;
        r.trick.winner = winner as u8;
        r.won[winner] += 1;
        r.tricks[r.n_tricks as usize] = r.trick;
        r.n_tricks += 1;
        if (r.n_tricks as usize) < TRICKS {
            self.start_trick(winner);
        } else {
            self.score_round();
        }
    }

    // ----- scoring and the end -----

    fn score_round(&mut self) {
        let n = self.players;
        let r = &mut self.round;
        let cards = *r.deal.attempts.last().expect("an attempt");
        let loss = |p: usize| (r.bets[p] as i32 - r.won[p] as i32).abs();
        // The basket: the losses of the failed players (made players lose 0), §6.
        let basket: i32 = (0..n).map(loss).sum();
        for p in 0..n {
            let l = loss(p);
            let void_bet = cards[p].kind() == Kind::Void;
            let pts = self.rules.scoring.points(r.bets[p] as i32, r.won[p] as i32, basket - l, void_bet);
            r.points[p] = pts + r.bonus[p];
            self.totals[p] += r.points[p];
            if l == 0 {
                self.made[p] += 1;
            }
        }
        r.scored = true;
        match self.end_check() {
            Some(w) => {
                self.winners = w;
                self.phase = Phase::Over;
                self.to_move = SeatSet::EMPTY;
            }
            None => self.start_round(),
        }
    }

    /// §7: the winners if the game ends after the round just scored.
    fn end_check(&self) -> Option<SeatSet> {
        let n = self.players;
        let r = &self.round;
        let made_last = |p: usize| r.bets[p] == r.won[p];
        let best_of = |set: SeatSet, key: &dyn Fn(usize) -> i64| -> SeatSet {
            let top = set.iter().map(key).max().unwrap_or(0);
            let mut s = SeatSet::EMPTY;
            for p in set.iter() {
                if key(p) == top {
                    s.insert(p);
                }
            }
            s
        };
        let top = best_of(SeatSet::first(n), &|p| self.totals[p] as i64);
        let by_rule = || match self.rules.end {
            EndRule::MinRounds => {
                if r.number < self.rules.rounds {
                    return None;
                }
                if top.len() == 1 {
                    return made_last(top.lowest()?).then_some(top);
                }
                if self.rules.every_tie_replays || top.iter().any(|p| !made_last(p)) {
                    return None;
                }
                Some(best_of(top, &|p| self.made[p] as i64))
            }
            EndRule::MinRoundsStrict => {
                (r.number >= self.rules.rounds && top.len() == 1 && made_last(top.lowest()?)).then_some(top)
            }
            EndRule::Target => {
                let target = self.rules.target.unwrap_or(35) as i32;
                let mut reached = SeatSet::EMPTY;
                for p in 0..n {
                    if made_last(p) && self.totals[p] >= target {
                        reached.insert(p);
                    }
                }
                if reached.is_empty() {
                    return None;
                }
                let most_made = best_of(reached, &|p| self.made[p] as i64);
                Some(best_of(most_made, &|p| self.totals[p] as i64))
            }
            EndRule::FixedRounds => (r.number >= self.rules.rounds).then(|| best_of(top, &|p| self.made[p] as i64)),
        };
        // R-OWN-11: a game its rule has not ended by round MAX_ROUNDS ends there, as a game of
        // fixed rounds does (a target nobody reaches when every bet fails could be never).
        by_rule().or_else(|| (r.number >= MAX_ROUNDS).then(|| best_of(top, &|p| self.made[p] as i64)))
    }

    fn waiting_words(&self) -> String {
        let v: Vec<String> = self.to_move.iter().map(|s| format!("seat {s}")).collect();
        if v.is_empty() { "nobody: the game is over".into() } else { v.join(", ") }
    }

    fn phase_words(&self) -> String {
        match self.phase {
            Phase::Passing { count, .. } => format!("the table is passing {count} card(s)"),
            Phase::Betting => "the table is betting".into(),
            Phase::Reveal { .. } => "the tied players may reveal ?".into(),
            Phase::ChooseLeader { chooser, .. } => format!("seat {chooser} chooses the first leader"),
            Phase::ChooseTrump { leader } => format!("seat {leader} chooses the trump"),
            Phase::AnnounceTrump { .. } => "the tied players announce a trump suit".into(),
            Phase::Playing => "the table is playing tricks".into(),
            Phase::Over => "the game is over".into(),
        }
    }

    /// Check an action without changing anything.
    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::GameOver);
        }
        if seat >= self.players {
            return Err(RuleError::NoSuchSeat { seat, last: self.players - 1 });
        }
        let wrong = |action: &'static str| Err(RuleError::WrongPhase { action, now: self.phase_words() });
        let phase_ok = matches!(
            (action, self.phase),
            (Action::Pass(_), Phase::Passing { .. })
                | (Action::Bet(_), Phase::Betting)
                | (Action::Play(_), Phase::Playing)
                | (Action::Reveal(_), Phase::Reveal { .. })
                | (Action::ChooseLeader(_), Phase::ChooseLeader { .. })
                | (Action::ChooseTrump(_), Phase::ChooseTrump { .. })
                | (Action::AnnounceTrump(_), Phase::AnnounceTrump { .. })
        );
        if !phase_ok {
            return wrong(match action {
                Action::Pass(_) => "pass cards",
                Action::Bet(_) => "bet",
                Action::Play(_) => "play a card",
                Action::Reveal(_) => "reveal",
                Action::ChooseLeader(_) => "choose the first leader",
                Action::ChooseTrump(_) => "choose the trump",
                Action::AnnounceTrump(_) => "announce a trump",
            });
        }
        if !self.to_move.contains(seat) {
            return Err(RuleError::NotYourTurn { seat, waiting: self.waiting_words() });
        }
        let hand = self.round.hands[seat];
        match (action, self.phase) {
            (Action::Pass(cards), Phase::Passing { count, .. }) => {
                if let Some(c) = cards.minus(hand).first() {
                    return Err(RuleError::NotInHand(c));
                }
                if cards.len() != count as u32 {
                    return Err(RuleError::PassCount { expected: count as usize, got: cards.len() as usize });
                }
            }
            (Action::Bet(c), _) => {
                if !hand.contains(c) {
                    return Err(RuleError::NotInHand(c));
                }
                if c == Card::INTERROBANG {
                    return Err(RuleError::CannotBet { card: c, why: BetBan::Never });
                }
                if self.round.used[seat].contains(c) {
                    return Err(RuleError::CannotBet { card: c, why: BetBan::UsedBefore });
                }
            }
            (Action::Play(c), _) => {
                if !hand.contains(c) {
                    return Err(RuleError::NotInHand(c));
                }
                let legal = self.legal_plays(seat);
                if !legal.contains(c) {
                    let lead = self.round.trick.lead_suit().expect("a lead suit");
                    return Err(RuleError::MustFollow { card: c, lead, hold: hand.and(lead.mask()) });
                }
            }
            (Action::Reveal(yes), _) => {
                if yes && !hand.contains(Card::INTERROBANG) {
                    return Err(RuleError::NotAChoice("you do not hold ?, so you cannot reveal it".into()));
                }
            }
            (Action::ChooseLeader(s), Phase::ChooseLeader { among, .. }) => {
                if !among.contains(s) {
                    let v: Vec<String> = among.iter().map(|s| s.to_string()).collect();
                    return Err(RuleError::NotAChoice(format!(
                        "seat {s} is not among the tied players; choose one of seats {}",
                        v.join(", ")
                    )));
                }
            }
            (Action::ChooseTrump(s) | Action::AnnounceTrump(s), _) => {
                if !self.rules.suits(self.players).contains(&s) {
                    return Err(RuleError::NotAChoice(format!(
                        "{s} is not a suit of this deck; choose one of {}",
                        self.suits_words()
                    )));
                }
            }
            _ => unreachable!("phase checked above"),
        }
        Ok(())
    }

    fn suits_words(&self) -> String {
        self.rules.suits(self.players).iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
    }

    fn apply_checked(&mut self, seat: Seat, action: Action) {
        match action {
            Action::Pass(cards) => {
                self.round.pass_choice[seat] = cards;
                self.to_move.remove(seat);
                if self.to_move.is_empty()
                    && let Phase::Passing { to_left, .. } = self.phase
                {
                    self.finish_passes(to_left);
                }
            }
            Action::Bet(c) => {
                self.round.pending[seat] = c;
                self.round.submitted.insert(seat);
                self.to_move.remove(seat);
                if self.to_move.is_empty() {
                    self.finish_attempt();
                }
            }
            Action::Play(c) => {
                let r = &mut self.round;
                r.hands[seat].remove(c);
                r.trick.push(seat, c);
                self.advance_trick();
            }
            Action::Reveal(yes) => {
                if yes {
                    self.round.reveal_yes.insert(seat);
                }
                self.to_move.remove(seat);
                if self.to_move.is_empty()
                    && let Phase::Reveal { tied } = self.phase
                {
                    let mut revealer = None;
                    for p in tied.iter() {
                        let yes = self.round.reveal_yes.contains(p);
                        self.round.decisions.push((Some(p), DecisionKind::Reveal(yes)));
                        if yes {
                            revealer = Some(p);
                        }
                    }
                    let cards = *self.round.deal.attempts.last().expect("an attempt");
                    match revealer {
                        Some(h) => {
                            self.round.revealed = Some(h);
                            self.start_play(h, cards[h].suit().expect("regular bet"));
                        }
                        None => self.lead_by_suit_priority(tied, &cards),
                    }
                }
            }
            Action::ChooseLeader(s) => {
                self.round.decisions.push((Some(seat), DecisionKind::ChooseLeader(s)));
                self.leader_chosen(s);
            }
            Action::ChooseTrump(s) => {
                self.round.decisions.push((Some(seat), DecisionKind::ChooseTrump(s)));
                self.start_play(seat, s);
            }
            Action::AnnounceTrump(s) => {
                self.round.announced[seat] = Some(s);
                self.to_move.remove(seat);
                if self.to_move.is_empty()
                    && let Phase::AnnounceTrump { tied } = self.phase
                {
                    for p in tied.iter() {
                        let s = self.round.announced[p].expect("announced");
                        self.round.decisions.push((Some(p), DecisionKind::AnnounceTrump(s)));
                    }
                    self.interrobang_picks(tied);
                }
            }
        }
    }

    /// Every legal action of `seat` as a list (bets and plays as cards, passes as sets).
    fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if seat >= self.players || !self.to_move.contains(seat) {
            return;
        }
        match self.phase {
            Phase::Passing { count, .. } => {
                let hand = self.round.hands[seat].to_vec();
                combinations(&hand, count as usize, &mut |set| out.push(Action::Pass(set)));
            }
            Phase::Betting => out.extend(self.bettable(seat).iter().map(Action::Bet)),
            Phase::Playing => out.extend(self.legal_plays(seat).iter().map(Action::Play)),
            Phase::Reveal { .. } => {
                out.push(Action::Reveal(false));
                if self.round.hands[seat].contains(Card::INTERROBANG) {
                    out.push(Action::Reveal(true));
                }
            }
            Phase::ChooseLeader { among, .. } => out.extend(among.iter().map(Action::ChooseLeader)),
            Phase::ChooseTrump { .. } => {
                out.extend(self.rules.suits(self.players).into_iter().map(Action::ChooseTrump))
            }
            Phase::AnnounceTrump { .. } => {
                out.extend(self.rules.suits(self.players).into_iter().map(Action::AnnounceTrump))
            }
            Phase::Over => {}
        }
    }

    /// Apply a play without checks: the hot path of random play and search. The caller
    /// guarantees that `card` is in [`Oh7Game::legal_plays`] of `seat`.
    #[inline]
    pub fn play_unchecked(&mut self, seat: Seat, card: Card) {
        debug_assert!(self.legal_plays(seat).contains(card));
        self.round.hands[seat].remove(card);
        self.round.trick.push(seat, card);
        self.advance_trick();
    }

    /// Apply a bet without checks (see [`Oh7Game::play_unchecked`]).
    #[inline]
    pub fn bet_unchecked(&mut self, seat: Seat, card: Card) {
        debug_assert!(self.legal_bets(seat).contains(card));
        self.apply_checked(seat, Action::Bet(card));
    }

    /// Check the engine's invariants (for tests and audits): every card of the deck is in exactly
    /// one place (a hand, the trick in progress, a completed trick, the discard, the Dummy's
    /// face-up cards or the rest of its pile); tricks won add up to the tricks played; a seat that
    /// owes a decision has a legal action; the seats owing a decision are players.
    pub fn check_invariants(&self) -> Result<(), String> {
        let r = &self.round;
        let mut seen = CardSet::EMPTY;
        let mut count = 0usize;
        let mut add = |s: CardSet, what: &str| -> Result<(), String> {
            if !seen.and(s).is_empty() {
                return Err(format!("{} in two places (again in {what})", seen.and(s)));
            }
            seen = seen.or(s);
            count += s.len() as usize;
            Ok(())
        };
        for p in 0..self.players {
            add(r.hands[p], &format!("hand {p}"))?;
        }
        for t in r.tricks[..r.n_tricks as usize].iter().chain(std::iter::once(&r.trick)) {
            if r.scored && std::ptr::eq(t, &r.trick) {
                continue;
            }
            add(CardSet::from_cards(t.cards()), "a trick")?;
        }
        add(r.deal.discard, "the discard")?;
        if self.dummy.is_some() {
            add(r.faceup, "the Dummy's face-up cards")?;
            add(CardSet::from_cards(&r.deal.pile[r.pile_next as usize..]), "the Dummy's pile")?;
        }
        let deck = CardSet::from_cards(&self.deck);
        if seen != deck || count != self.deck.len() {
            return Err(format!("cards not conserved: missing {}, extra {}", deck.minus(seen), seen.minus(deck)));
        }
        let won: u32 = r.won[..self.seats].iter().map(|&w| w as u32).sum();
        if won != r.n_tricks as u32 {
            return Err(format!("{won} tricks won but {} played", r.n_tricks));
        }
        if self.to_move.iter().any(|s| s >= self.players) {
            return Err("a seat that is not a player owes a decision".into());
        }
        if self.to_move.is_empty() != (self.phase == Phase::Over) {
            return Err("nobody owes a decision but the game is not over (or the reverse)".into());
        }
        let mut legal = Vec::new();
        for s in self.to_move.iter() {
            self.legal_into(s, &mut legal);
            if legal.is_empty() {
                return Err(format!("seat {s} owes a decision but has no legal action"));
            }
        }
        Ok(())
    }

    /// Deals abandoned so far in the whole game (three sums of 7, or no unused card in `bga`).
    pub fn redeals(&self) -> usize {
        self.history.iter().chain(std::iter::once(&self.round)).map(|r| r.redeals.len()).sum()
    }

    /// Made bets so far, per player.
    pub fn made_bets(&self) -> &[u16] {
        &self.made[..self.players]
    }
}

impl Round {
    /// Make this round a fresh one numbered `number` in place, as `new` makes it, field by
    /// field (no new round built and copied in): the lists keep their memory, and the finished
    /// tricks are left as they were, since only the first `n_tricks` are ever read. The deal's
    /// fields are set by `deal`, which follows.
    fn reset(&mut self, number: u32) {
        self.number = number;
        self.redeals.clear();
        self.deal.pile.clear();
        self.deal.attempts.clear();
        self.deal.dealt = [CardSet::EMPTY; MAX_SEATS];
        self.deal.discard = CardSet::EMPTY;
        self.deal.passes = [CardSet::EMPTY; MAX_SEATS];
        self.hands = [CardSet::EMPTY; MAX_SEATS];
        self.used = [CardSet::EMPTY; MAX_SEATS];
        self.pending = [Card::INTERROBANG; MAX_SEATS];
        self.submitted = SeatSet::EMPTY;
        self.pass_choice = [CardSet::EMPTY; MAX_SEATS];
        self.bonus = [0; MAX_SEATS];
        self.decisions.clear();
        self.announced = [None; MAX_SEATS];
        self.reveal_yes = SeatSet::EMPTY;
        self.revealed = None;
        self.bets = [0; MAX_SEATS];
        self.first_leader = 0;
        self.trump = Suit::S;
        self.faceup = CardSet::EMPTY;
        self.pile_next = 0;
        self.n_tricks = 0;
        self.trick = Trick::empty();
        self.order = [0; MAX_SEATS];
        self.won = [0; MAX_SEATS];
        self.last_player_leader = 0;
        self.points = [0; MAX_SEATS];
        self.scored = false;
    }

    fn new(number: u32) -> Round {
        Round {
            number,
            redeals: Vec::new(),
            deal: Deal::empty(),
            hands: [CardSet::EMPTY; MAX_SEATS],
            used: [CardSet::EMPTY; MAX_SEATS],
            pending: [Card::INTERROBANG; MAX_SEATS],
            submitted: SeatSet::EMPTY,
            pass_choice: [CardSet::EMPTY; MAX_SEATS],
            bonus: [0; MAX_SEATS],
            decisions: Vec::new(),
            announced: [None; MAX_SEATS],
            reveal_yes: SeatSet::EMPTY,
            revealed: None,
            bets: [0; MAX_SEATS],
            first_leader: 0,
            trump: Suit::S,
            faceup: CardSet::EMPTY,
            pile_next: 0,
            tricks: [Trick::empty(); TRICKS],
            n_tricks: 0,
            trick: Trick::empty(),
            order: [0; MAX_SEATS],
            won: [0; MAX_SEATS],
            last_player_leader: 0,
            points: [0; MAX_SEATS],
            scored: false,
        }
    }
}

impl Deal {
    fn empty() -> Deal {
        Deal {
            dealt: [CardSet::EMPTY; MAX_SEATS],
            discard: CardSet::EMPTY,
            pile: Vec::new(),
            passes: [CardSet::EMPTY; MAX_SEATS],
            attempts: Vec::new(),
        }
    }
}

/// A uniform number in `0..n` (Lemire's multiply-and-reject: unbiased, rarely a second draw).
#[inline]
pub fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    use rand::RngCore;
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// Uniform 16-bit draws, two from each 32-bit word of the RNG (low half first).
#[derive(Default)]
pub struct Draws16 {
    word: u32,
    left: u8,
}

impl Draws16 {
    #[inline]
    fn next<R: rand::RngCore + ?Sized>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            self.word = rng.next_u32();
            self.left = 2;
        }
        let v = self.word & 0xFFFF;
        self.word >>= 16;
        self.left -= 1;
        v
    }

    /// A uniform number in `0..n`, `1 <= n <= 65536` (Lemire's multiply-and-reject on 16 bits:
    /// unbiased).
    #[inline]
    pub fn below<R: rand::RngCore + ?Sized>(&mut self, rng: &mut R, n: u32) -> u32 {
        let mut m = self.next(rng) * n;
        if (m & 0xFFFF) < n {
            let threshold = (0x1_0000 - n) % n;
            while (m & 0xFFFF) < threshold {
                m = self.next(rng) * n;
            }
        }
        m >> 16
    }
}

/// Call `f` with every `k`-card subset of `cards`.
fn combinations(cards: &[Card], k: usize, f: &mut dyn FnMut(CardSet)) {
    fn go(cards: &[Card], k: usize, start: usize, acc: CardSet, f: &mut dyn FnMut(CardSet)) {
        if k == 0 {
            f(acc);
            return;
        }
        for i in start..=cards.len().saturating_sub(k) {
            let mut a = acc;
            a.insert(cards[i]);
            go(cards, k - 1, i + 1, a, f);
        }
    }
    if k <= cards.len() {
        go(cards, k, 0, CardSet::EMPTY, f);
    }
}

impl Game for Oh7Game {
    const NAME: &'static str = "oh7";
    type Action = Action;
    type Error = RuleError;
    type View<'a> = SeatView<'a>;

    fn describe(&self, seat: Seat, action: &Action) -> Move {
        let m = Move::new(action.to_string(), MoveKind::PassCards);
        match *action {
            Action::Pass(cards) => {
                let n = self.players;
                let to_left = self.pass_rule().is_none_or(|(_, left)| left);
                m.cards(cards.iter()).seat(if to_left { (seat + 1) % n } else { (seat + n - 1) % n })
            }
            Action::Bet(c) => Move { kind: MoveKind::Bet, ..m }.card(c),
            Action::Play(c) => Move { kind: MoveKind::Play, ..m }.card(c),
            Action::Reveal(yes) => Move { kind: MoveKind::Reveal, ..m }.yes(yes),
            Action::ChooseLeader(s) => Move { kind: MoveKind::Leader, ..m }.seat(s),
            Action::ChooseTrump(s) => Move { kind: MoveKind::Trump, ..m }.suit(s),
            Action::AnnounceTrump(s) => Move { kind: MoveKind::Announce, ..m }.suit(s),
        }
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> SeatSet {
        self.to_move
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.check(seat, action)?;
        self.apply_checked(seat, action);
        Ok(())
    }

    fn view(&self, seat: Seat) -> SeatView<'_> {
        SeatView::new(self, Some(seat))
    }

    fn spectator_view(&self) -> SeatView<'_> {
        SeatView::spectator(self)
    }

    fn set_seat_names(&mut self, names: Vec<String>) {
        Oh7Game::set_seat_names(self, names);
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn totals(&self) -> Vec<i64> {
        self.totals[..self.players].iter().map(|&t| t as i64).collect()
    }

    fn winners(&self) -> Vec<Seat> {
        self.winners.iter().collect()
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, RuleError> {
        let t = text.trim();
        let (verb, rest) = match t.split_once(char::is_whitespace) {
            Some((v, r)) => (v.to_ascii_lowercase(), r.trim()),
            None => (t.to_ascii_lowercase(), ""),
        };
        let known = ["bet", "play", "pass", "reveal", "leader", "trump", "announce"];
        let body = if known.contains(&verb.as_str()) && !rest.is_empty() { rest } else { t };
        let card = |s: &str| s.parse::<Card>().map_err(|e| RuleError::Parse(e.to_string()));
        let suit = |s: &str| {
            s.parse::<Suit>()
                .map_err(|_| RuleError::Parse(format!("`{s}` is not a suit: write one of {}", self.suits_words())))
        };
        let _ = seat;
        match self.phase {
            Phase::Passing { .. } => {
                let cards = parse_cards(body).map_err(|e| RuleError::Parse(e.to_string()))?;
                Ok(Action::Pass(CardSet::from_cards(&cards)))
            }
            Phase::Betting => card(body).map(Action::Bet),
            Phase::Playing => card(body).map(Action::Play),
            Phase::Reveal { .. } => match body.to_ascii_lowercase().as_str() {
                "yes" | "y" | "oui" | "o" | "true" | "?" | "‽" => Ok(Action::Reveal(true)),
                "no" | "n" | "non" | "false" => Ok(Action::Reveal(false)),
                _ => Err(RuleError::Parse(format!("answer yes or no, not `{body}`"))),
            },
            Phase::ChooseLeader { .. } => body
                .trim_start_matches(['p', 'P'])
                .parse::<Seat>()
                .map(Action::ChooseLeader)
                .map_err(|_| RuleError::Parse(format!("`{body}` is not a seat number"))),
            Phase::ChooseTrump { .. } => suit(body).map(Action::ChooseTrump),
            Phase::AnnounceTrump { .. } => suit(body).map(Action::AnnounceTrump),
            Phase::Over => Err(RuleError::GameOver),
        }
    }

    /// The verb must be the decision's (`bet 5S` while betting, `play 5S` in a trick, …): a
    /// bare card, another verb, or an action left over from the previous phase is not this
    /// decision, even where [`Game::parse_action`] would read it for a person typing.
    fn names_exactly(&self, text: &str, action: &Action) -> bool {
        let canonical = action.to_string();
        let verb = |t: &str| t.split_whitespace().next().map(str::to_ascii_lowercase);
        verb(text.trim()) == verb(&canonical) && text.split_whitespace().count() > 1
    }

    fn record(&self) -> serde_json::Value {
        serde_json::to_value(Record::from_game(self)).expect("a record always serializes")
    }
}
