//! Fixed action ids and observations of Seven for learning agents (the Python environments and
//! learned bots), as [`crate::rl`] has them for Oh 7: one `Discrete` space for every ruleset and
//! player count, so a network trained on one table loads on any other. An id never changes
//! meaning; ids a table cannot use are never legal.
//!
//! Seven ([`SEVEN_ACTIONS`] = 276 ids):
//!
//! | ids | meaning |
//! |---|---|
//! | `0..208` ([`SEVEN_PLAY`] + `2 * card id + announce`) | play a card other than an 8 (the 16 slots of the 8s are never legal) |
//! | `208..272` ([`SEVEN_PLAY_EIGHT`] + `8 * e + 2 * s + announce`) | play the 8 number `e` (`(card id / 26) * 2 + copy`), naming suit `s` (S H C D) |
//! | `272` ([`SEVEN_DRAW`]) | draw (one card, or the pending penalty) |
//! | `273` ([`SEVEN_PASS`]) | pass while a 7 is pending |
//! | `274` ([`SEVEN_CALL_OUT`]) | call out the offender of the open call-out window |
//! | `275` ([`SEVEN_NO_CALL`]) | do not call out |
//!
//! `announce` is 1 for a play with the last-card announcement. A call-out window (S-OWN-3) is a
//! simultaneous step: every seat in [`Game::to_move`] has its own mask, and the answers are
//! applied one seat at a time in any order; no seat sees another's answer before all are in.
//! Eliminated seats never owe a decision (their mask is all false).

use crate::game::{Game, Seat};
use crate::seven::{
    Action, Card, CardSet, DECK_SIZE, MAX_PLAYERS, PenaltyKind, Rank, SevenError, SevenGame, SevenView,
};
use crate::seven::{Suit, TurnMode};

/// First id of "play a card other than an 8" (+ `2 * card id + announce`).
pub const SEVEN_PLAY: usize = 0;
/// First id of "play an 8 and name a suit" (+ `8 * e + 2 * suit + announce`).
pub const SEVEN_PLAY_EIGHT: usize = SEVEN_PLAY + 2 * DECK_SIZE;
/// "Draw".
pub const SEVEN_DRAW: usize = SEVEN_PLAY_EIGHT + 8 * Suit::ALL.len() * 2;
/// "Pass" (7 lock).
pub const SEVEN_PASS: usize = SEVEN_DRAW + 1;
/// "Call out" the offender of the open call-out window.
pub const SEVEN_CALL_OUT: usize = SEVEN_PASS + 1;
/// "Do not call out".
pub const SEVEN_NO_CALL: usize = SEVEN_CALL_OUT + 1;
/// Ids in all.
pub const SEVEN_ACTIONS: usize = SEVEN_NO_CALL + 1;

/// Which of the eight 8s `card` is (`(card id / 26) * 2 + copy`), if it is an 8.
fn eight_index(card: Card) -> Option<usize> {
    (card.rank() == Rank::Eight).then(|| card.suit().index() * 2 + card.copy() as usize)
}

/// The meaning of `id`; `offender` is the offender of the open call-out window
/// ([`SevenGame::call_out_window`]), which [`SEVEN_CALL_OUT`] names. `None`: not an id, a slot
/// of an 8 among the plays of other cards, or a call-out without a window.
pub fn decode_seven(id: usize, offender: Option<Seat>) -> Option<Action> {
    Some(match id {
        i if i < SEVEN_PLAY_EIGHT => {
            let card = Card::from_id(u8::try_from((i - SEVEN_PLAY) / 2).ok()?)?;
            if card.rank() == Rank::Eight {
                return None;
            }
            Action::Play { card, suit: None, announce: i % 2 == 1 }
        }
        i if i < SEVEN_DRAW => {
            let k = i - SEVEN_PLAY_EIGHT;
            let e = k / 8;
            let card = Card::new(Rank::Eight, Suit::from_index(e / 2), (e % 2) as u8);
            Action::Play { card, suit: Some(Suit::from_index(k % 8 / 2)), announce: k % 2 == 1 }
        }
        SEVEN_DRAW => Action::Draw,
        SEVEN_PASS => Action::Pass,
        SEVEN_CALL_OUT => Action::CallOut(offender?),
        SEVEN_NO_CALL => Action::NoCall,
        _ => return None,
    })
}

/// The id of an action (`None` for a play the engine never accepts: an 8 without a suit, or a
/// suit named with another card). Every `CallOut(_)` is [`SEVEN_CALL_OUT`]: only the open
/// window's offender can be called out.
pub fn encode_seven(a: Action) -> Option<usize> {
    Some(match a {
        Action::Play { card, suit, announce } => match (eight_index(card), suit) {
            (None, None) => SEVEN_PLAY + 2 * card.id() as usize + usize::from(announce),
            (Some(e), Some(s)) => SEVEN_PLAY_EIGHT + 8 * e + 2 * s.index() + usize::from(announce),
            _ => return None,
        },
        Action::Draw => SEVEN_DRAW,
        Action::Pass => SEVEN_PASS,
        Action::CallOut(_) => SEVEN_CALL_OUT,
        Action::NoCall => SEVEN_NO_CALL,
    })
}

/// Why an id was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SevenStepError {
    /// Not an id of this game.
    #[error("{0} is not an action id (0..{SEVEN_ACTIONS})")]
    Unknown(usize),
    /// An id that means nothing now (a slot of an 8 among the plays of other cards, or a
    /// call-out without an open window).
    #[error("action id {0} is not legal for seat {1} now")]
    Illegal(usize, Seat),
    /// The engine refused.
    #[error(transparent)]
    Rule(#[from] SevenError),
}

/// The legal ids of `seat` now, as a mask of [`SEVEN_ACTIONS`] entries: the engine's
/// [`Game::legal_actions`] through [`encode_seven`] (all false when the seat owes nothing, e.g.
/// when it waits for a call-out window or is eliminated); `legal` is scratch space.
pub fn seven_mask(g: &SevenGame, seat: Seat, legal: &mut Vec<Action>, mask: &mut [bool]) {
    assert_eq!(mask.len(), SEVEN_ACTIONS, "a mask has one entry per id");
    mask.fill(false);
    g.legal_actions(seat, legal);
    for a in legal.iter() {
        if let Some(id) = encode_seven(*a) {
            mask[id] = true;
        }
    }
}

/// Apply id `id` for `seat` ([`SEVEN_CALL_OUT`] calls out the open window's offender). A refused
/// id changes nothing.
pub fn seven_step(g: &mut SevenGame, seat: Seat, id: usize) -> Result<(), SevenStepError> {
    if id >= SEVEN_ACTIONS {
        return Err(SevenStepError::Unknown(id));
    }
    let offender = g.call_out_window().map(|w| w.offender);
    let action = decode_seven(id, offender).ok_or(SevenStepError::Illegal(id, seat))?;
    g.apply(seat, action)?;
    Ok(())
}

/// A game of Seven as an [`crate::rl::RlEnv`].
#[derive(Clone, Debug)]
pub struct SevenEnv {
    /// The game.
    pub game: SevenGame,
    legal: Vec<Action>,
}

impl SevenEnv {
    /// An environment over `game`.
    pub fn new(game: SevenGame) -> SevenEnv {
        SevenEnv { game, legal: Vec::new() }
    }
}

impl crate::rl::RlEnv for SevenEnv {
    fn game(&self) -> &dyn crate::DynGame {
        &self.game
    }
    fn actions(&self) -> usize {
        SEVEN_ACTIONS
    }
    fn obs_len(&self) -> usize {
        SEVEN_OBS
    }
    fn obs_layout(&self) -> &'static [(&'static str, usize)] {
        SEVEN_OBS_LAYOUT
    }
    fn to_act(&self) -> Option<Seat> {
        self.game.to_move().lowest()
    }
    fn mask(&mut self, seat: Seat, mask: &mut [bool]) {
        seven_mask(&self.game, seat, &mut self.legal, mask);
    }
    fn observe(&self, seat: Seat, out: &mut [f32]) {
        encode_seven_obs(&self.game.view(seat), seat, out);
    }
    fn step(&mut self, seat: Seat, id: usize) -> Result<(), crate::rl::EnvError> {
        use crate::rl::EnvError;
        if !self.game.to_move().contains(seat) {
            return Err(EnvError::NotToAct(seat));
        }
        match seven_step(&mut self.game, seat, id) {
            Ok(()) => Ok(()),
            Err(SevenStepError::Unknown(id)) => {
                Err(EnvError::Unknown { id, game: <SevenGame as Game>::NAME, actions: SEVEN_ACTIONS })
            }
            Err(_) => Err(EnvError::Illegal { id, text: self.action_text(id).unwrap_or_default(), seat }),
        }
    }
    fn action_text(&self, id: usize) -> Option<String> {
        if id == SEVEN_CALL_OUT {
            return Some(match self.game.call_out_window() {
                Some(w) => Action::CallOut(w.offender).to_string(),
                None => "call out (when a window is open)".to_string(),
            });
        }
        decode_seven(id, None).map(|a| a.to_string())
    }
    fn ids_for(&self, seat: Seat, text: &str) -> Result<Vec<usize>, crate::rl::EnvError> {
        let bad = || crate::rl::EnvError::Illegal { id: usize::MAX, text: text.to_string(), seat };
        let a = self.game.parse_action(seat, text).map_err(|_| bad())?;
        encode_seven(a).map(|id| vec![id]).ok_or_else(bad)
    }
    fn box_clone(&self) -> Box<dyn crate::rl::RlEnv> {
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

/// The Seven observation of one seat, field by field: `(name, length)` in order. Seats are
/// relative: slot `k` of a per-seat field is the seat `k` places after the observer, clockwise
/// by seat number (slot 0: the observer), up to the players; unused slots are zero. Card fields
/// have one entry per card id (`suit * 26 + rank * 2 + copy`, `0..104`). Everything comes from
/// the seat's [`SevenView`]: no other seat's hand, no draw pile order, no other seat's answer to
/// an open call-out window. (The view does not tell the score limit, so totals are scaled by a
/// fixed 100.)
pub const SEVEN_OBS_LAYOUT: &[(&str, usize)] = &[
    ("players: one-hot 2..8", MAX_PLAYERS - 1),
    ("my seat: one-hot 0..7", MAX_PLAYERS),
    ("my hand", DECK_SIZE),
    ("top card", DECK_SIZE),
    ("active suit: one-hot S H C D", 4),
    ("mode: one-hot normal penalty seven-lock free-play (none once over)", 4),
    ("penalty: kind one-hot 2 A♠", 2),
    ("penalty: cards to draw / 20", 1),
    ("7-lock owner: relative one-hot", MAX_PLAYERS),
    ("cards played this round", DECK_SIZE),
    ("draw pile / 104, clockwise, round / 20 (at most 2)", 3),
    ("seat with the turn: relative one-hot", MAX_PLAYERS),
    (
        "per relative seat: present, in game, hand count / 20, total / 100, one card, one card unannounced, asked in the call-out window, answered it, owes a decision",
        MAX_PLAYERS * SEVEN_SEAT_FIELDS,
    ),
    ("call-out window: open, offender relative one-hot, my answer call / no-call", 1 + MAX_PLAYERS + 2),
    ("last round points / 100: relative", MAX_PLAYERS),
];

/// Entries per seat in the per-seat field of [`SEVEN_OBS_LAYOUT`].
pub const SEVEN_SEAT_FIELDS: usize = 9;

/// Entries in a Seven observation.
pub const SEVEN_OBS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < SEVEN_OBS_LAYOUT.len() {
        n += SEVEN_OBS_LAYOUT[i].1;
        i += 1;
    }
    n
};

fn set_cards(out: &mut [f32], cards: CardSet) {
    for c in cards.iter() {
        out[c.id() as usize] = 1.0;
    }
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

/// Write seat `me`'s observation into `out` ([`SEVEN_OBS`] entries) from its view `v`
/// (`g.view(me)`), and from nothing else.
pub fn encode_seven_obs(v: &SevenView<'_>, me: Seat, out: &mut [f32]) {
    assert_eq!(out.len(), SEVEN_OBS, "an observation has SEVEN_OBS entries");
    out.fill(0.0);
    let players = v.players();
    let rel = |s: Seat| (s + players - me) % players;
    let mut at = 0;
    let mut next = |len: usize| {
        let r = at..at + len;
        at += len;
        r
    };
    let f = next(MAX_PLAYERS - 1);
    if (2..=MAX_PLAYERS).contains(&players) {
        out[f.start + players - 2] = 1.0;
    }
    let f = next(MAX_PLAYERS);
    out[f.start + me] = 1.0;
    let f = next(DECK_SIZE);
    set_cards(&mut out[f], v.hand().unwrap_or(CardSet::EMPTY));
    let f = next(DECK_SIZE);
    out[f.start + v.top().id() as usize] = 1.0;
    let f = next(4);
    out[f.start + v.active_suit().index()] = 1.0;
    let over = v.is_over();
    let f = next(4);
    if !over {
        let i = match v.mode() {
            TurnMode::Normal => 0,
            TurnMode::Penalty(_) => 1,
            TurnMode::Lock { .. } => 2,
            TurnMode::FreePlay => 3,
        };
        out[f.start + i] = 1.0;
    }
    let penalty = v.penalty();
    let f = next(2);
    if let Some(p) = penalty {
        out[f.start + usize::from(p.kind == PenaltyKind::AceOfSpades)] = 1.0;
    }
    let f = next(1);
    out[f.start] = penalty.map_or(0.0, |p| p.cards() as f32 / 20.0);
    let f = next(MAX_PLAYERS);
    if let Some(owner) = v.seven_lock() {
        out[f.start + rel(owner)] = 1.0;
    }
    let f = next(DECK_SIZE);
    for (_, c) in v.played() {
        out[f.start + c.id() as usize] = 1.0;
    }
    let f = next(3);
    out[f.start] = v.draw_pile_len() as f32 / DECK_SIZE as f32;
    out[f.start + 1] = flag(v.clockwise());
    out[f.start + 2] = (v.round() as f32 / 20.0).min(2.0);
    let f = next(MAX_PLAYERS);
    let current = v.current();
    if let Some(c) = current {
        out[f.start + rel(c)] = 1.0;
    }
    let f = next(MAX_PLAYERS * SEVEN_SEAT_FIELDS);
    let window = v.call_out();
    let in_game = v.in_game();
    let counts = v.hand_counts();
    let totals = v.totals();
    let (one, unannounced) = v.last_card();
    for s in 0..players {
        let o = f.start + rel(s) * SEVEN_SEAT_FIELDS;
        let slot = &mut out[o..o + SEVEN_SEAT_FIELDS];
        let owes = match window {
            Some(w) => w.asked.contains(s) && !w.answered.contains(s),
            None => current == Some(s),
        };
        slot[0] = 1.0;
        slot[1] = flag(in_game.contains(s));
        slot[2] = counts.get(s).map_or(0.0, |&n| n as f32 / 20.0);
        slot[3] = totals.get(s).map_or(0.0, |&t| t as f32 / 100.0);
        slot[4] = flag(one.contains(s));
        slot[5] = flag(unannounced.contains(s));
        slot[6] = flag(window.is_some_and(|w| w.asked.contains(s)));
        slot[7] = flag(window.is_some_and(|w| w.answered.contains(s)));
        slot[8] = flag(owes);
    }
    let f = next(1 + MAX_PLAYERS + 2);
    if let Some(w) = window {
        out[f.start] = 1.0;
        out[f.start + 1 + rel(w.offender)] = 1.0;
        match w.own_answer {
            Some(Action::CallOut(_)) => out[f.start + 1 + MAX_PLAYERS] = 1.0,
            Some(_) => out[f.start + 2 + MAX_PLAYERS] = 1.0,
            None => {}
        }
    }
    let f = next(MAX_PLAYERS);
    if let Some(end) = v.last_round_end() {
        for (s, &p) in end.points.iter().enumerate() {
            out[f.start + rel(s)] = p as f32 / 100.0;
        }
    }
    debug_assert_eq!(at, SEVEN_OBS);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SeatViewLike;
    use crate::seven::SevenRules;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn offset(name: &str) -> usize {
        let i = SEVEN_OBS_LAYOUT.iter().position(|f| f.0.starts_with(name)).unwrap();
        SEVEN_OBS_LAYOUT[..i].iter().map(|f| f.1).sum::<usize>()
    }

    fn ids(mask: &[bool]) -> Vec<usize> {
        (0..SEVEN_ACTIONS).filter(|&i| mask[i]).collect()
    }

    #[test]
    fn every_id_decodes_and_encodes_back() {
        let mut seen = 0;
        for id in 0..SEVEN_ACTIONS + 3 {
            match decode_seven(id, Some(3)) {
                Some(a) => {
                    assert_eq!(encode_seven(a), Some(id), "{a:?}");
                    seen += 1;
                }
                None => {
                    let eight = id < SEVEN_PLAY_EIGHT && Card::from_id((id / 2) as u8).unwrap().rank() == Rank::Eight;
                    assert!(id >= SEVEN_ACTIONS || eight, "{id}");
                }
            }
        }
        // 192 plays of the 96 other cards (with and without the announcement), 64 of the 8s,
        // draw, pass, call out, no call.
        assert_eq!(seen, 192 + 64 + 4);
        assert_eq!(decode_seven(SEVEN_CALL_OUT, None), None);
        assert_eq!(decode_seven(SEVEN_CALL_OUT, Some(5)), Some(Action::CallOut(5)));
        assert_eq!(
            (SEVEN_PLAY, SEVEN_PLAY_EIGHT, SEVEN_DRAW, SEVEN_PASS, SEVEN_CALL_OUT, SEVEN_NO_CALL, SEVEN_ACTIONS),
            (0, 208, 272, 273, 274, 275, 276)
        );
        // Plays the engine never accepts have no id.
        let eight = Card::new(Rank::Eight, Suit::H, 1);
        let three = Card::new(Rank::Three, Suit::C, 0);
        assert_eq!(encode_seven(Action::Play { card: eight, suit: None, announce: false }), None);
        assert_eq!(encode_seven(Action::Play { card: three, suit: Some(Suit::S), announce: false }), None);
        // The plan's formulas.
        assert_eq!(
            encode_seven(Action::Play { card: three, suit: None, announce: true }),
            Some(2 * three.id() as usize + 1)
        );
        let e = (eight.id() as usize / 26) * 2 + eight.id() as usize % 2;
        assert_eq!(e, 3);
        assert_eq!(
            encode_seven(Action::Play { card: eight, suit: Some(Suit::D), announce: false }),
            Some(208 + 8 * e + 2 * 3)
        );
    }

    /// Default rules; a low limit (seats get eliminated over several rounds); a single round;
    /// a short turn limit (cut rounds).
    fn variants() -> Vec<SevenRules> {
        vec![
            SevenRules::default(),
            SevenRules { limit: Some(40), ..SevenRules::default() },
            SevenRules { limit: None, ..SevenRules::default() },
            SevenRules { limit: Some(60), round_turn_limit: Some(40), hand_size: 5, ..SevenRules::default() },
        ]
    }

    /// Whole games at every player count, each step taken by a random seat of `to_move` with a
    /// random id of its mask: the mask is exactly the engine's legal actions (for every seat,
    /// all false for the seats that owe nothing); every id outside the mask is refused and
    /// changes nothing; every game ends.
    #[test]
    fn masks_are_the_legal_actions_and_random_ids_finish_every_game() {
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let mut legal = Vec::new();
        let mut mask = vec![false; SEVEN_ACTIONS];
        let mut obs = vec![0.0; SEVEN_OBS];
        let (mut windows, mut eliminated, mut eights, mut announced) = (0, 0, 0, 0);
        for rules in variants() {
            for players in 2..=MAX_PLAYERS {
                for seed in 0..2 {
                    let mut g = SevenGame::new(rules.clone(), players, seed).unwrap();
                    // The same ids, and no refused ones: a refused id must change nothing.
                    let mut shadow = g.clone();
                    let mut steps = 0;
                    while !g.is_over() {
                        let to_move = g.to_move();
                        assert!(!to_move.is_empty());
                        if to_move.len() > 1 || g.call_out_window().is_some() {
                            windows += 1;
                        }
                        let mut acting = Vec::new();
                        for seat in 0..players {
                            seven_mask(&g, seat, &mut legal, &mut mask);
                            let got = ids(&mask);
                            let mut want: Vec<usize> = legal.iter().map(|a| encode_seven(*a).unwrap()).collect();
                            want.sort_unstable();
                            want.dedup();
                            assert_eq!(want.len(), legal.len(), "one id per legal action");
                            assert_eq!(got, want, "{rules:?} {players}: seat {seat}");
                            assert_eq!(!got.is_empty(), to_move.contains(seat), "seat {seat}");
                            if !g.in_game().contains(seat) {
                                assert!(got.is_empty(), "an eliminated seat never acts");
                            }
                            // Every id outside the mask is refused.
                            for bad in (0..SEVEN_ACTIONS + 2).filter(|&i| i >= SEVEN_ACTIONS || !mask[i]) {
                                assert!(seven_step(&mut g, seat, bad).is_err(), "seat {seat} id {bad}");
                            }
                            if !got.is_empty() {
                                acting.push((seat, got));
                            }
                        }
                        let (seat, got) = &acting[rng.random_range(0..acting.len())];
                        let id = got[rng.random_range(0..got.len())];
                        if (SEVEN_PLAY_EIGHT..SEVEN_DRAW).contains(&id) {
                            eights += 1;
                        }
                        if id < SEVEN_DRAW && id % 2 == 1 {
                            announced += 1;
                        }
                        let v = g.view(*seat);
                        encode_seven_obs(&v, *seat, &mut obs);
                        let mut hand = vec![0.0; DECK_SIZE];
                        set_cards(&mut hand, v.hand().unwrap());
                        assert_eq!(&obs[offset("my hand")..offset("my hand") + DECK_SIZE], &hand[..]);
                        let before = g.in_game().len();
                        seven_step(&mut g, *seat, id).unwrap();
                        seven_step(&mut shadow, *seat, id).unwrap();
                        eliminated += before - g.in_game().len();
                        steps += 1;
                        if steps % 97 == 0 {
                            assert_eq!(g.record(), shadow.record());
                        }
                        assert!(steps < 200_000, "{rules:?} {players} {seed}: the game does not end");
                    }
                    assert_eq!(g.record(), shadow.record(), "refused ids changed nothing");
                    for seat in 0..players {
                        seven_mask(&g, seat, &mut legal, &mut mask);
                        assert!(ids(&mask).is_empty(), "nobody acts once the game is over");
                        assert!(seven_step(&mut g, seat, SEVEN_DRAW).is_err());
                    }
                }
            }
        }
        assert!(windows > 0, "call-out windows were opened");
        assert!(eliminated > 0, "seats were eliminated");
        assert!(eights > 0 && announced > 0, "8s were played, last cards announced");
    }

    /// The layout adds up, and the observation shows the view's own facts where they belong.
    #[test]
    fn observations_follow_the_view() {
        assert_eq!(SEVEN_OBS, SEVEN_OBS_LAYOUT.iter().map(|f| f.1).sum::<usize>());
        assert_eq!(SEVEN_OBS, 448);
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let mut legal = Vec::new();
        let mut mask = vec![false; SEVEN_ACTIONS];
        let mut a = vec![0.0; SEVEN_OBS];
        let rules = SevenRules { limit: Some(40), ..SevenRules::default() };
        for players in 2..=MAX_PLAYERS {
            let mut g = SevenGame::new(rules.clone(), players, players as u64).unwrap();
            while !g.is_over() {
                let seat = g.to_move().lowest().unwrap();
                seven_mask(&g, seat, &mut legal, &mut mask);
                let got = ids(&mask);
                seven_step(&mut g, seat, got[rng.random_range(0..got.len())]).unwrap();
                for me in 0..players {
                    let v = g.view(me);
                    encode_seven_obs(&v, me, &mut a);
                    assert!(a.iter().all(|x| x.is_finite() && (-1.0..=10.0).contains(x)));
                    let mut want = vec![0.0; DECK_SIZE];
                    set_cards(&mut want, v.hand().unwrap());
                    assert_eq!(&a[offset("my hand")..offset("my hand") + DECK_SIZE], &want[..]);
                    assert_eq!(a[offset("players") + players - 2], 1.0);
                    assert_eq!(a[offset("my seat") + me], 1.0);
                    assert_eq!(a[offset("top card") + v.top().id() as usize], 1.0);
                    assert_eq!(a[offset("active suit") + v.active_suit().index()], 1.0);
                    let played: CardSet = v.played().into_iter().map(|(_, c)| c).collect();
                    let mut want = vec![0.0; DECK_SIZE];
                    set_cards(&mut want, played);
                    assert_eq!(&a[offset("cards played")..offset("cards played") + DECK_SIZE], &want[..]);
                    let seats = offset("per relative seat");
                    let counts = v.hand_counts();
                    for k in 0..MAX_PLAYERS {
                        let slot = &a[seats + k * SEVEN_SEAT_FIELDS..seats + (k + 1) * SEVEN_SEAT_FIELDS];
                        if k >= players {
                            assert!(slot.iter().all(|&x| x == 0.0), "no seat in slot {k}");
                            continue;
                        }
                        let s = (me + k) % players;
                        assert_eq!(slot[0], 1.0);
                        assert_eq!(slot[1], flag(g.in_game().contains(s)));
                        assert_eq!(slot[2], counts[s] as f32 / 20.0);
                        assert_eq!(slot[8], flag(g.to_move().contains(s)), "owes a decision");
                    }
                    assert_eq!(a[seats + 2], v.hand().unwrap().len() as f32 / 20.0, "slot 0 is me");
                    let turn = offset("seat with the turn");
                    match v.current() {
                        Some(c) => assert_eq!(a[turn + (c + players - me) % players], 1.0),
                        None => assert!(a[turn..turn + MAX_PLAYERS].iter().all(|&x| x == 0.0)),
                    }
                    let w = offset("call-out window");
                    assert_eq!(a[w], flag(g.call_out_window().is_some()));
                }
            }
        }
    }

    /// What a seat sees of an open call-out window: two games that differ only in one seat's
    /// secret answer give every other seat the same view (the same JSON) and the same
    /// observation, until the window closes; the answering seat sees its own answer.
    #[test]
    fn observations_hide_the_other_seats_answers() {
        let mut rng = ChaCha8Rng::seed_from_u64(32);
        let mut legal = Vec::new();
        let mut mask = vec![false; SEVEN_ACTIONS];
        let (mut a, mut b) = (vec![0.0; SEVEN_OBS], vec![0.0; SEVEN_OBS]);
        let mut compared = 0;
        for players in 3..=MAX_PLAYERS {
            let mut found = 0;
            for seed in 0..40u64 {
                if found >= 4 {
                    break;
                }
                let mut g = SevenGame::new(SevenRules::default(), players, seed).unwrap();
                while !g.is_over() && found < 4 {
                    let to_move = g.to_move();
                    let fresh = g.call_out_window().is_some_and(|w| w.answered.is_empty() && w.asked.len() >= 2);
                    if fresh {
                        found += 1;
                        let x = to_move.lowest().unwrap();
                        let (mut ga, mut gb) = (g.clone(), g.clone());
                        seven_step(&mut ga, x, SEVEN_CALL_OUT).unwrap();
                        seven_step(&mut gb, x, SEVEN_NO_CALL).unwrap();
                        // The other seats answer the same, until one answer is left.
                        loop {
                            for s in 0..players {
                                let (va, vb) = (ga.view(s), gb.view(s));
                                encode_seven_obs(&va, s, &mut a);
                                encode_seven_obs(&vb, s, &mut b);
                                if s == x {
                                    assert_ne!(a, b, "seat {x} sees its own answer");
                                } else {
                                    assert_eq!(va.to_json(), vb.to_json(), "seat {s}: the same view");
                                    assert_eq!(a, b, "seat {s} sees the same");
                                    compared += 1;
                                }
                            }
                            let waiting = ga.to_move();
                            assert_eq!(waiting, gb.to_move());
                            if waiting.len() <= 1 {
                                break;
                            }
                            let s = waiting.lowest().unwrap();
                            let id = if rng.random_bool(0.5) { SEVEN_CALL_OUT } else { SEVEN_NO_CALL };
                            seven_step(&mut ga, s, id).unwrap();
                            seven_step(&mut gb, s, id).unwrap();
                        }
                    }
                    let seat = g.to_move().lowest().unwrap();
                    seven_mask(&g, seat, &mut legal, &mut mask);
                    let got = ids(&mask);
                    // Prefer plays without the announcement, so windows open.
                    let quiet: Vec<usize> = got.iter().copied().filter(|&i| i >= SEVEN_DRAW || i % 2 == 0).collect();
                    seven_step(&mut g, seat, quiet[rng.random_range(0..quiet.len())]).unwrap();
                }
            }
            assert!(found > 0, "{players} players: a window with several seats to answer");
        }
        assert!(compared > 0);
    }
}
