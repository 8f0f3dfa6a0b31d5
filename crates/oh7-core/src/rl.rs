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
}
