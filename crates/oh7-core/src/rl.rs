//! Fixed action ids for learning agents (the Python environments and learned bots): one
//! `Discrete` space per game, the same for every preset, custom ruleset and player count, so a
//! network trained on one table loads on any other. An id never changes meaning; ids a table
//! cannot use are never legal.
//!
//! Oh 7 ([`OH7_ACTIONS`] = 318 ids):
//!
//! | ids | meaning |
//! |---|---|
//! | `0..99` ([`PLAY`] + card id) | play the card |
//! | `99..198` ([`BET`] + card id) | bet the card |
//! | `198..297` ([`PASS_PICK`] + card id) | pick one card of a pass (`bga` passing) |
//! | `297`, `298` ([`REVEAL`] + 0/1) | reveal ? to win the tie: no, yes (`fr-advanced`) |
//! | `299..308` ([`LEADER`] + seat) | choose the first leader (`kod7`, the ‽ holder) |
//! | `308..313` ([`TRUMP`] + suit S H C D F) | choose the trump |
//! | `313..318` ([`ANNOUNCE`] + suit) | announce a trump suit (`kod7`, tied all-★ players) |
//!
//! A pass of k cards is k single-card decisions of the same seat ([`Stepper`]): a pass as one id
//! would need an id per set of up to three of 99 cards. The k-th pick gives the engine the whole
//! pass; until then nothing is applied, and no other seat sees the picks.

use crate::card::{CARD_IDS, Card, CardSet, Suit};
use crate::game::{Game, Seat};
use crate::oh7::PhaseView;
use crate::oh7::{Action, MAX_SEATS, Oh7Game, RuleError};

/// First id of "play a card".
pub const PLAY: usize = 0;
/// First id of "bet a card".
pub const BET: usize = PLAY + CARD_IDS;
/// First id of "pick a card to pass".
pub const PASS_PICK: usize = BET + CARD_IDS;
/// "Reveal ?": no, then yes.
pub const REVEAL: usize = PASS_PICK + CARD_IDS;
/// First id of "choose the first leader" (+ seat).
pub const LEADER: usize = REVEAL + 2;
/// First id of "choose the trump" (+ suit index).
pub const TRUMP: usize = LEADER + MAX_SEATS;
/// First id of "announce a trump suit" (+ suit index).
pub const ANNOUNCE: usize = TRUMP + Suit::ALL.len();
/// Ids in all.
pub const OH7_ACTIONS: usize = ANNOUNCE + Suit::ALL.len();

/// What an id means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// An engine action.
    Action(Action),
    /// One card of a pass.
    PassPick(Card),
}

fn card(i: usize) -> Option<Card> {
    Card::from_id(u8::try_from(i).ok()?)
}

/// The meaning of `id` (`None`: not an id).
pub fn decode(id: usize) -> Option<Decoded> {
    Some(match id {
        i if i < BET => Decoded::Action(Action::Play(card(i - PLAY)?)),
        i if i < PASS_PICK => Decoded::Action(Action::Bet(card(i - BET)?)),
        i if i < REVEAL => Decoded::PassPick(card(i - PASS_PICK)?),
        i if i < LEADER => Decoded::Action(Action::Reveal(i == REVEAL + 1)),
        i if i < TRUMP => Decoded::Action(Action::ChooseLeader(i - LEADER)),
        i if i < ANNOUNCE => Decoded::Action(Action::ChooseTrump(Suit::ALL[i - TRUMP])),
        i if i < OH7_ACTIONS => Decoded::Action(Action::AnnounceTrump(Suit::ALL[i - ANNOUNCE])),
        _ => return None,
    })
}

/// The id of an action other than a pass (a pass is several ids: [`pass_ids`]).
pub fn encode(a: Action) -> Option<usize> {
    Some(match a {
        Action::Play(c) => PLAY + c.id() as usize,
        Action::Bet(c) => BET + c.id() as usize,
        Action::Reveal(yes) => REVEAL + usize::from(yes),
        Action::ChooseLeader(s) if s < MAX_SEATS => LEADER + s,
        Action::ChooseLeader(_) => return None,
        Action::ChooseTrump(s) => TRUMP + s.index(),
        Action::AnnounceTrump(s) => ANNOUNCE + s.index(),
        Action::Pass(_) => return None,
    })
}

/// The picks that make a pass, in card order.
pub fn pass_ids(cards: CardSet) -> Vec<usize> {
    cards.iter().map(|c| PASS_PICK + c.id() as usize).collect()
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepped {
    /// The action was applied.
    Applied,
    /// A card of a pass was picked; the pass is applied with its last card.
    Picked,
}

/// Why an id was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// Not an id of this game.
    #[error("{0} is not an action id (0..{OH7_ACTIONS})")]
    Unknown(usize),
    /// Not legal now (not in the mask).
    #[error("action id {0} is not legal for seat {1} now")]
    Illegal(usize, Seat),
    /// The engine refused.
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// Steps an Oh 7 game one id at a time, keeping each seat's pass picks until its pass is whole.
#[derive(Clone, Debug, Default)]
pub struct Stepper {
    picks: [CardSet; MAX_SEATS],
}

impl Stepper {
    /// A stepper with no picks.
    pub fn new() -> Stepper {
        Stepper::default()
    }

    /// The cards `seat` picked so far for its pass (empty outside a pass).
    pub fn picks(&self, seat: Seat) -> CardSet {
        self.picks[seat]
    }

    /// The cards `seat` is to pass and how many, if it owes a pass now.
    fn owed_pass(g: &Oh7Game, seat: Seat) -> Option<(CardSet, usize)> {
        if !g.to_move().contains(seat) {
            return None;
        }
        let v = g.view(seat);
        match v.phase() {
            PhaseView::Passing { count, .. } => Some((v.hand(), count as usize)),
            _ => None,
        }
    }

    /// The legal ids of `seat` now, as a mask of [`OH7_ACTIONS`] entries (all false when the
    /// seat owes nothing); `legal` is scratch space.
    pub fn mask(&self, g: &Oh7Game, seat: Seat, legal: &mut Vec<Action>, mask: &mut [bool]) {
        assert_eq!(mask.len(), OH7_ACTIONS, "a mask has one entry per id");
        mask.fill(false);
        if let Some((hand, _)) = Stepper::owed_pass(g, seat) {
            for c in hand.iter() {
                if !self.picks[seat].contains(c) {
                    mask[PASS_PICK + c.id() as usize] = true;
                }
            }
            return;
        }
        legal.clear();
        g.legal_actions(seat, legal);
        for a in legal.iter() {
            if let Some(id) = encode(*a) {
                mask[id] = true;
            }
        }
    }

    /// Apply id `id` for `seat`: an action, or one card of its pass (the pass is applied with
    /// its last card). A refused id changes nothing.
    pub fn step(&mut self, g: &mut Oh7Game, seat: Seat, id: usize) -> Result<Stepped, StepError> {
        let decoded = decode(id).ok_or(StepError::Unknown(id))?;
        match (decoded, Stepper::owed_pass(g, seat)) {
            (Decoded::PassPick(c), Some((hand, count))) => {
                if !hand.contains(c) || self.picks[seat].contains(c) {
                    return Err(StepError::Illegal(id, seat));
                }
                let mut picks = self.picks[seat];
                picks.insert(c);
                if (picks.len() as usize) < count {
                    self.picks[seat] = picks;
                    return Ok(Stepped::Picked);
                }
                g.apply(seat, Action::Pass(picks))?;
                self.picks[seat] = CardSet::EMPTY;
                Ok(Stepped::Applied)
            }
            (Decoded::PassPick(_), None) | (Decoded::Action(_), Some(_)) => Err(StepError::Illegal(id, seat)),
            (Decoded::Action(a), None) => {
                g.apply(seat, a)?;
                Ok(Stepped::Applied)
            }
        }
    }

    /// Forget every pick (a new game on the same stepper).
    pub fn clear(&mut self) {
        self.picks = [CardSet::EMPTY; MAX_SEATS];
    }
}

// ---- one interface for learning code ----

/// Why an id was refused by an [`RlEnv`]; nothing changed. Worded for the person who sent it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnvError {
    /// Not an id of this game.
    #[error("{id} is not an action id of {game}: ids are 0 to {last}", last = actions - 1)]
    Unknown {
        /// The id.
        id: usize,
        /// The game's name.
        game: &'static str,
        /// The number of ids.
        actions: usize,
    },
    /// The seat owes no decision now.
    #[error("seat {0} has no decision to make now")]
    NotToAct(Seat),
    /// Not in the seat's mask now.
    #[error("action id {id} ({text}) is not legal for seat {seat} now")]
    Illegal {
        /// The id.
        id: usize,
        /// What the id means.
        text: String,
        /// The seat.
        seat: Seat,
    },
}

/// A game seen as a learning environment: fixed action ids with a mask, a fixed-size
/// observation per seat, steps by id. One interface for every game (the Python environments,
/// the OpenSpiel game and learned bots hold a `Box<dyn RlEnv>`); the game itself stays
/// reachable through [`RlEnv::game`] for records, totals and views.
pub trait RlEnv: Send + Sync {
    /// The game (records, totals, winners, JSON views).
    fn game(&self) -> &dyn crate::DynGame;
    /// Number of action ids (the `Discrete` size).
    fn actions(&self) -> usize;
    /// Number of floats in an observation.
    fn obs_len(&self) -> usize;
    /// The observation's fields, `(name, length)` in order.
    fn obs_layout(&self) -> &'static [(&'static str, usize)];
    /// The seat asked next: the lowest seat that owes a decision (`None` when the game is over).
    /// Simultaneous decisions are asked one seat at a time, each kept secret until all are in.
    fn to_act(&self) -> Option<Seat>;
    /// `seat`'s legal ids now (all false when it owes nothing); `mask` has [`RlEnv::actions`]
    /// entries.
    fn mask(&mut self, seat: Seat, mask: &mut [bool]);
    /// `seat`'s observation ([`RlEnv::obs_len`] floats), from its seat view only.
    fn observe(&self, seat: Seat, out: &mut [f32]);
    /// Apply id `id` for `seat`; a refused id changes nothing.
    fn step(&mut self, seat: Seat, id: usize) -> Result<(), EnvError>;
    /// What an id means, as the engine's action text (`None`: not an id).
    fn action_text(&self, id: usize) -> Option<String>;
    /// The ids that make `seat`'s action written as engine text (a bot's choice): one id, or
    /// the picks still to make for a pass. Refused if the text is not an action of the game.
    fn ids_for(&self, seat: Seat, text: &str) -> Result<Vec<usize>, EnvError>;
    /// A copy.
    fn box_clone(&self) -> Box<dyn RlEnv>;
    /// The concrete environment, to downcast.
    fn as_any(&self) -> &dyn std::any::Any;
    /// The concrete environment, to downcast mutably.
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// An Oh 7 game as an [`RlEnv`]: the game, its pass picks and scratch space.
#[derive(Clone, Debug)]
pub struct Oh7Env {
    /// The game.
    pub game: Oh7Game,
    /// The pass picks so far.
    pub stepper: Stepper,
    legal: Vec<Action>,
}

impl Oh7Env {
    /// An environment over `game` (no picks yet).
    pub fn new(game: Oh7Game) -> Oh7Env {
        Oh7Env { game, stepper: Stepper::new(), legal: Vec::new() }
    }
}

impl RlEnv for Oh7Env {
    fn game(&self) -> &dyn crate::DynGame {
        &self.game
    }
    fn actions(&self) -> usize {
        OH7_ACTIONS
    }
    fn obs_len(&self) -> usize {
        OH7_OBS
    }
    fn obs_layout(&self) -> &'static [(&'static str, usize)] {
        OH7_OBS_LAYOUT
    }
    fn to_act(&self) -> Option<Seat> {
        self.game.to_move().lowest()
    }
    fn mask(&mut self, seat: Seat, mask: &mut [bool]) {
        self.stepper.mask(&self.game, seat, &mut self.legal, mask);
    }
    fn observe(&self, seat: Seat, out: &mut [f32]) {
        encode_oh7(&self.game.view(seat), seat, self.stepper.picks(seat), out);
    }
    fn step(&mut self, seat: Seat, id: usize) -> Result<(), EnvError> {
        if !self.game.to_move().contains(seat) {
            return Err(EnvError::NotToAct(seat));
        }
        match self.stepper.step(&mut self.game, seat, id) {
            Ok(_) => Ok(()),
            Err(StepError::Unknown(id)) => {
                Err(EnvError::Unknown { id, game: <Oh7Game as Game>::NAME, actions: OH7_ACTIONS })
            }
            Err(_) => Err(EnvError::Illegal { id, text: self.action_text(id).unwrap_or_default(), seat }),
        }
    }
    fn action_text(&self, id: usize) -> Option<String> {
        Some(match decode(id)? {
            Decoded::Action(a) => a.to_string(),
            Decoded::PassPick(c) => format!("pick {c} to pass"),
        })
    }
    fn ids_for(&self, seat: Seat, text: &str) -> Result<Vec<usize>, EnvError> {
        let bad = || EnvError::Illegal { id: usize::MAX, text: text.to_string(), seat };
        match self.game.parse_action(seat, text).map_err(|_| bad())? {
            Action::Pass(set) => {
                let Some((hand, count)) = Stepper::owed_pass(&self.game, seat) else { return Err(bad()) };
                let picks = self.stepper.picks(seat);
                // The chosen cards not picked yet, then (if the picks so far were not the
                // chooser's) any other card in hand, up to the pass's size.
                let more = set.minus(picks).iter().chain(hand.minus(set).minus(picks).iter());
                let ids: Vec<usize> =
                    more.take(count - picks.len() as usize).map(|c| PASS_PICK + c.id() as usize).collect();
                Ok(ids)
            }
            a => encode(a).map(|id| vec![id]).ok_or_else(bad),
        }
    }
    fn box_clone(&self) -> Box<dyn RlEnv> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

// ---- observations ----

/// The Oh 7 observation of one seat, field by field: `(name, length)` in order. Seats are
/// relative: slot `k` of a per-seat field is the seat `k` places after the observer (slot 0:
/// the observer), up to the table's seats (the Dummy included); unused slots are zero. Card
/// fields have one entry per card id (`0..99`, `card.rs`). Everything comes from the seat's
/// [`crate::oh7::SeatView`] and its own pass picks: no other seat's hidden card or secret choice.
pub const OH7_OBS_LAYOUT: &[(&str, usize)] = &[
    ("preset: one-hot en fr fr-advanced kod7 bga", 5),
    ("players: one-hot 2..9", 8),
    ("my seat: one-hot 0..8", MAX_SEATS),
    ("phase: one-hot passing betting reveal choose-leader choose-trump announce-trump playing over", 8),
    ("pass: cards to pass / 3, to the left", 2),
    ("betting: attempt / 7, redeals / 3", 2),
    ("round number / rounds (at most 2)", 1),
    ("my hand", CARD_IDS),
    ("my pass picks so far", CARD_IDS),
    ("my bet card this attempt, while the bets are secret", CARD_IDS),
    ("bet attempts revealed this deal / 3", 1),
    ("cards I passed this round", CARD_IDS),
    ("cards passed to me this round", CARD_IDS),
    ("cards played this round", CARD_IDS),
    ("the Dummy's face-up cards", CARD_IDS),
    ("the Dummy's pile left / 10", 1),
    ("current trick: the card of each relative seat", MAX_SEATS * CARD_IDS),
    ("trick leader: relative one-hot", MAX_SEATS),
    ("tricks done this round / 13", 1),
    ("lead suit: one-hot S H C D F", 5),
    ("trump: one-hot S H C D F", 5),
    ("first leader: relative one-hot", MAX_SEATS),
    ("first leader and trump known", 1),
    ("final bets known", 1),
    ("tied seats (reveal, choose-leader, announce-trump): relative", MAX_SEATS),
    (
        "per relative seat: present, Dummy, owes a decision, has decided, hand size / 13, final bet / 13, tricks won / 13, total / 100, made bets / 10, bonus / 10, revealed bet cards still in hand (99), announced suit (5), revealed ‽/? (1), card of the last revealed bet attempt: value / 7, kind one-hot regular ★ Ø ‽ (4), suit one-hot (5)",
        MAX_SEATS * OH7_SEAT_FIELDS,
    ),
];

/// Entries per seat in the last field of [`OH7_OBS_LAYOUT`].
pub const OH7_SEAT_FIELDS: usize = 10 + CARD_IDS + 5 + 1 + 10;

/// Entries in an Oh 7 observation.
pub const OH7_OBS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < OH7_OBS_LAYOUT.len() {
        n += OH7_OBS_LAYOUT[i].1;
        i += 1;
    }
    n
};

fn set_cards(out: &mut [f32], cards: CardSet) {
    for c in cards.iter() {
        out[c.id() as usize] = 1.0;
    }
}

/// Write seat `me`'s observation into `out` ([`OH7_OBS`] entries) from its view `v` and its pass
/// picks so far (`Stepper::picks`).
pub fn encode_oh7(v: &crate::oh7::SeatView<'_>, me: Seat, picks: CardSet, out: &mut [f32]) {
    assert_eq!(out.len(), OH7_OBS, "an observation has OH7_OBS entries");
    out.fill(0.0);
    let seats = v.table_seats();
    let rel = |s: Seat| (s + seats - me) % seats;
    let mut at = 0;
    let mut next = |len: usize| {
        let r = at..at + len;
        at += len;
        r
    };
    let rules = v.rules();
    let f = next(5);
    if let Some(i) = crate::ruleset::Preset::ALL.iter().position(|p| *p == rules.preset) {
        out[f.start + i] = 1.0;
    }
    let f = next(8);
    if (2..=9).contains(&v.players()) {
        out[f.start + v.players() - 2] = 1.0;
    }
    let f = next(MAX_SEATS);
    out[f.start + me] = 1.0;
    let phase = v.phase();
    let f = next(8);
    let (pi, tied) = match phase {
        PhaseView::Passing { .. } => (0, crate::game::SeatSet::EMPTY),
        PhaseView::Betting { .. } => (1, crate::game::SeatSet::EMPTY),
        PhaseView::Reveal { tied } => (2, tied),
        PhaseView::ChooseLeader { among, .. } => (3, among),
        PhaseView::ChooseTrump { .. } => (4, crate::game::SeatSet::EMPTY),
        PhaseView::AnnounceTrump { tied } => (5, tied),
        PhaseView::Playing => (6, crate::game::SeatSet::EMPTY),
        PhaseView::Over => (7, crate::game::SeatSet::EMPTY),
    };
    out[f.start + pi] = 1.0;
    let f = next(2);
    if let PhaseView::Passing { count, to_left } = phase {
        out[f.start] = count as f32 / 3.0;
        out[f.start + 1] = f32::from(u8::from(to_left));
    }
    let f = next(2);
    if let PhaseView::Betting { attempt } = phase {
        out[f.start] = attempt as f32 / 7.0;
    }
    out[f.start + 1] = (v.redeals() as f32 / 3.0).min(1.0);
    let f = next(1);
    out[f.start] = (v.round_number() as f32 / rules.rounds.max(1) as f32).min(2.0);
    let f = next(CARD_IDS);
    set_cards(&mut out[f], v.hand());
    let f = next(CARD_IDS);
    set_cards(&mut out[f], picks);
    let f = next(CARD_IDS);
    if let Some(c) = v.my_pending_bet() {
        out[f.start + c.id() as usize] = 1.0;
    }
    let attempts = v.bet_attempts();
    let f = next(1);
    out[f.start] = attempts.len() as f32 / 3.0;
    let (given, received) = v.my_passes();
    let f = next(CARD_IDS);
    set_cards(&mut out[f], given);
    let f = next(CARD_IDS);
    set_cards(&mut out[f], received);
    let f = next(CARD_IDS);
    set_cards(&mut out[f], v.played());
    let f = next(CARD_IDS);
    set_cards(&mut out[f], v.dummy_faceup());
    let f = next(1);
    out[f.start] = v.dummy_pile_left() as f32 / 10.0;
    let f = next(MAX_SEATS * CARD_IDS);
    let trick = v.trick();
    for (s, c) in trick.plays() {
        out[f.start + rel(s) * CARD_IDS + c.id() as usize] = 1.0;
    }
    let f = next(MAX_SEATS);
    if let Some(l) = v.trick_leader() {
        out[f.start + rel(l)] = 1.0;
    }
    let f = next(1);
    out[f.start] = v.tricks().len() as f32 / 13.0;
    let f = next(5);
    if let Some(s) = trick.lead_suit() {
        out[f.start + s.index()] = 1.0;
    }
    let lt = v.leader_and_trump();
    let f = next(5);
    if let Some((_, t)) = lt {
        out[f.start + t.index()] = 1.0;
    }
    let f = next(MAX_SEATS);
    if let Some((l, _)) = lt {
        out[f.start + rel(l)] = 1.0;
    }
    let f = next(1);
    out[f.start] = f32::from(u8::from(lt.is_some()));
    let bets = v.bets();
    let f = next(1);
    out[f.start] = f32::from(u8::from(bets.is_some()));
    let f = next(MAX_SEATS);
    for s in tied.iter() {
        out[f.start + rel(s)] = 1.0;
    }
    let f = next(MAX_SEATS * OH7_SEAT_FIELDS);
    let sizes = v.hand_sizes();
    let (to_move, decided, announced) = (v.to_move(), v.decided(), v.announced());
    for s in 0..seats {
        let o = f.start + rel(s) * OH7_SEAT_FIELDS;
        let slot = &mut out[o..o + OH7_SEAT_FIELDS];
        slot[0] = 1.0;
        slot[1] = f32::from(u8::from(v.dummy() == Some(s)));
        slot[2] = f32::from(u8::from(to_move.contains(s)));
        slot[3] = f32::from(u8::from(decided.contains(s)));
        slot[4] = sizes.get(s).copied().unwrap_or(0) as f32 / 13.0;
        slot[5] = bets.and_then(|b| b.get(s)).map_or(0.0, |&b| f32::from(b) / 13.0);
        slot[6] = v.won().get(s).map_or(0.0, |&w| f32::from(w) / 13.0);
        slot[7] = v.totals().get(s).map_or(0.0, |&t| t as f32 / 100.0);
        slot[8] = v.made_bets().get(s).map_or(0.0, |&m| f32::from(m) / 10.0);
        slot[9] = v.bonus().get(s).map_or(0.0, |&b| b as f32 / 10.0);
        set_cards(&mut slot[10..10 + CARD_IDS], v.public_bet_cards(s));
        if let Some(suit) = announced.get(s).copied().flatten() {
            slot[10 + CARD_IDS + suit.index()] = 1.0;
        }
        slot[10 + CARD_IDS + 5] = f32::from(u8::from(v.revealed_interrobang() == Some(s)));
        if let Some(c) = attempts.last().and_then(|a| a.get(s)) {
            let last = &mut slot[10 + CARD_IDS + 6..];
            last[0] = f32::from(c.value()) / 7.0;
            let (kind, suit) = match c.kind() {
                crate::card::Kind::Regular(suit) => (0, Some(suit)),
                crate::card::Kind::Star => (1, None),
                crate::card::Kind::Void => (2, None),
                crate::card::Kind::Interrobang => (3, None),
            };
            last[1 + kind] = 1.0;
            if let Some(suit) = suit {
                last[5 + suit.index()] = 1.0;
            }
        }
    }
    debug_assert_eq!(at, OH7_OBS);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{Preset, Ruleset};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn every_id_decodes_and_encodes_back() {
        let mut seen = 0;
        for id in 0..OH7_ACTIONS + 3 {
            match decode(id) {
                Some(Decoded::Action(a)) => {
                    assert_eq!(encode(a), Some(id), "{a:?}");
                    seen += 1;
                }
                Some(Decoded::PassPick(c)) => {
                    assert_eq!(pass_ids(CardSet::from_cards(&[c])), vec![id]);
                    seen += 1;
                }
                None => assert!(id >= OH7_ACTIONS, "{id}"),
            }
        }
        assert_eq!(seen, OH7_ACTIONS);
        assert_eq!(
            (PLAY, BET, PASS_PICK, REVEAL, LEADER, TRUMP, ANNOUNCE, OH7_ACTIONS),
            (0, 99, 198, 297, 299, 308, 313, 318)
        );
    }

    /// Whole games of every preset at every player count, each seat choosing a random id from
    /// its mask: the mask is exactly the engine's legal actions (outside passes) and the cards
    /// in hand not yet picked (in a pass), and every game ends.
    #[test]
    fn masks_are_the_legal_actions_and_random_ids_finish_every_game() {
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let mut legal = Vec::new();
        let mut mask = vec![false; OH7_ACTIONS];
        let mut bga_passes = 0;
        // Every preset, and `bga` with its passing option.
        let passing = Ruleset { passing: true, ..Ruleset::preset(Preset::Bga) };
        let rulesets = Preset::ALL.iter().map(|&p| (p, Ruleset::preset(p))).chain([(Preset::Bga, passing)]);
        for (p, rules) in rulesets {
            for players in rules.min_players..=rules.max_players {
                for seed in 0..2 {
                    let mut g = Oh7Game::new(rules, players as usize, seed).unwrap();
                    let mut st = Stepper::new();
                    let mut steps = 0;
                    let mut passes = 0;
                    while !g.is_over() {
                        let seat = g.to_move().lowest().unwrap();
                        st.mask(&g, seat, &mut legal, &mut mask);
                        let ids: Vec<usize> = (0..OH7_ACTIONS).filter(|&i| mask[i]).collect();
                        assert!(!ids.is_empty(), "{p:?} {players}: seat {seat} owes a decision");
                        if let Some((hand, _)) = Stepper::owed_pass(&g, seat) {
                            assert_eq!(ids.len() as u32, hand.len() - st.picks(seat).len());
                            passes += 1;
                        } else {
                            let mut want: Vec<usize> = legal.iter().map(|a| encode(*a).unwrap()).collect();
                            want.sort_unstable();
                            want.dedup();
                            assert_eq!(ids, want, "{p:?} {players}");
                        }
                        // An id not in the mask is refused and changes nothing.
                        if let Some(bad) = (0..OH7_ACTIONS).find(|&i| !mask[i]) {
                            let before = g.record();
                            assert!(st.step(&mut g, seat, bad).is_err());
                            assert_eq!(g.record(), before);
                        }
                        let id = ids[rng.random_range(0..ids.len())];
                        st.step(&mut g, seat, id).unwrap();
                        steps += 1;
                        assert!(steps < 100_000);
                    }
                    if p == Preset::Bga {
                        bga_passes += passes;
                    }
                }
            }
        }
        assert!(bga_passes > 0, "bga passes cards");
    }

    /// The layout adds up; the observation shows the view's own facts where they belong; and
    /// what one seat sees does not change when the other seats' hidden hands are swapped.
    #[test]
    fn observations_follow_the_view_and_hide_the_others_hands() {
        assert_eq!(OH7_OBS, OH7_OBS_LAYOUT.iter().map(|f| f.1).sum::<usize>());
        assert_eq!(OH7_OBS, 2786, "docs/python.md gives this size");
        let offset = |name: &str| {
            let i = OH7_OBS_LAYOUT.iter().position(|f| f.0.starts_with(name)).unwrap();
            OH7_OBS_LAYOUT[..i].iter().map(|f| f.1).sum::<usize>()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let mut legal = Vec::new();
        let mut mask = vec![false; OH7_ACTIONS];
        let mut a = vec![0.0; OH7_OBS];
        let mut b = vec![0.0; OH7_OBS];
        let mut pending_seen = 0;
        for p in Preset::ALL {
            let rules = Ruleset::preset(p);
            let players = 4.clamp(rules.min_players as usize, rules.max_players as usize);
            for seed in 0..3u64 {
                // Two deals that differ only in seats 1 and 2's hands (hidden from seat 0).
                let mut g1 = Oh7Game::new(rules, players, seed).unwrap();
                let hands: Vec<CardSet> = (0..players).map(|s| g1.view(s).hand()).collect();
                let mut dealt = CardSet::EMPTY;
                for h in &hands {
                    dealt = dealt.or(*h);
                }
                let rest = CardSet::from_cards(&rules.deck(players)).minus(dealt).to_vec();
                let mut swapped = hands.clone();
                swapped.swap(1, 2);
                let mut g2 = Oh7Game::new(rules, players, seed).unwrap();
                g2.set_deal(&swapped, &rest).unwrap();
                encode_oh7(&g1.view(0), 0, CardSet::EMPTY, &mut a);
                encode_oh7(&g2.view(0), 0, CardSet::EMPTY, &mut b);
                assert_eq!(a, b, "{p:?}: seat 0 sees the same before anyone acts");
                // Play on in both with seat 0's choices the same and check the view's facts.
                let mut st = Stepper::new();
                for _ in 0..40 {
                    if g1.is_over() {
                        break;
                    }
                    let seat = g1.to_move().lowest().unwrap();
                    st.mask(&g1, seat, &mut legal, &mut mask);
                    let ids: Vec<usize> = (0..OH7_ACTIONS).filter(|&i| mask[i]).collect();
                    st.step(&mut g1, seat, ids[rng.random_range(0..ids.len())]).unwrap();
                    for me in 0..players {
                        let v = g1.view(me);
                        encode_oh7(&v, me, st.picks(me), &mut a);
                        let hand = &a[offset("my hand")..offset("my hand") + CARD_IDS];
                        let want: Vec<f32> = (0..CARD_IDS)
                            .map(|i| f32::from(u8::from(v.hand().contains(Card::from_id(i as u8).unwrap()))))
                            .collect();
                        assert_eq!(hand, &want[..]);
                        let seatf = offset("per relative seat");
                        // Slot 0 is me; my hand size matches my hand.
                        assert_eq!(a[seatf], 1.0);
                        assert_eq!(a[seatf + 4], v.hand_sizes()[me] as f32 / 13.0);
                        assert_eq!(a[offset("my seat") + me], 1.0);
                        // My secret bet is in my observation only while it is secret.
                        let bet = &a[offset("my bet card")..offset("my bet card") + CARD_IDS];
                        match v.my_pending_bet() {
                            Some(c) => {
                                assert_eq!(bet.iter().sum::<f32>(), 1.0);
                                assert_eq!(bet[c.id() as usize], 1.0);
                                pending_seen += 1;
                            }
                            None => assert_eq!(bet.iter().sum::<f32>(), 0.0),
                        }
                    }
                }
            }
        }
        assert!(pending_seen > 0, "some seat had a secret bet in these games");
    }
}
