//! The search's seams: what values the positions where an ISMCTS tree ends ([`Evaluator`]; the
//! built-in [`Playout`]), a prior over the root's actions ([`Prior`]) and a model of how players
//! bet ([`BetModel`]). The search (`ismcts.rs`) uses them; the learned versions (`value.rs`,
//! `policy.rs`, `bet_model.rs`) implement them; the
//! crate's root wires one into the other (`IsmctsBot::new`), so none of these files imports
//! another in a circle.

use oh7_core::card::{CARD_IDS, Card, CardSet};
use oh7_core::oh7::{MAX_SEATS, SeatView};
use oh7_core::ruleset::{Preset, Ruleset};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::heuristic::{heuristic_bet, heuristic_play, play_info};
use crate::pi::{Position, Scorer, Solver};

/// How a rollout finishes the round from the tree's last node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random legal moves (the paper's and OpenSpiel's default).
    Random,
    /// The heuristic bot's bets and plays.
    Heuristic,
    /// The heuristic's bets; plays that see every hand of the determinization
    /// ([`crate::heuristic::sighted_play`]; a research setting).
    Sighted,
}

/// How the search values the position where its tree ends: it finishes the round there and
/// gives every seat's points, and it chooses the other seats' bets inside a bet decision's
/// iterations (chance to the observer). The rollout ([`Playout`], the policy named by
/// `IsmctsConfig::rollout`) is the built-in one; a learned value is another
/// (`IsmctsBot::with_evaluator`).
///
/// An evaluator sees a determinization (every hand of one sampled deal), never the real deal.
pub trait Evaluator: Send {
    /// The points of each seat at the end of the round from `pos` (the tree's last node),
    /// scored by `scorer`; `pos` may be played on.
    fn evaluate(&mut self, pos: &mut Position, scorer: &Scorer, rng: &mut ChaCha8Rng) -> [f64; MAX_SEATS];

    /// A bet card from `bettable` for a seat holding `hand` (a card of `hand`).
    fn bet(&mut self, rules: &Ruleset, hand: CardSet, bettable: CardSet, table: usize, rng: &mut ChaCha8Rng) -> Card;

    /// A card from `legal` for the seat to move at `pos`, in a playout after a re-bet.
    fn play(&mut self, pos: &Position, bets: &[u8; MAX_SEATS], legal: CardSet, rng: &mut ChaCha8Rng) -> Card;

    /// A decision begins: a bet (`betting`) or a card to play.
    fn begin(&mut self, _betting: bool) {}
}

/// A prior over the root's actions, read from the deciding seat's view only: the search's
/// visits go to each action in proportion to its prior and its value (PUCT, as in AlphaZero)
/// instead of by UCB1 alone.
pub trait Prior: Send {
    /// The probability of each card of `legal` (bet or played, as the phase asks), indexed by
    /// card id; the search normalises over `legal`.
    fn root(&mut self, view: &SeatView<'_>, legal: CardSet) -> [f32; CARD_IDS];
}

/// The public facts of a bet besides the bettor's hand and its card: what a model of bets
/// reads of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BetFacts {
    /// Players (the Dummy not counted).
    pub players: usize,
    /// Whether the table has the Dummy.
    pub dummy: bool,
    /// The attempt the bet was made in (0 for the first).
    pub attempt: u8,
    /// The rules' preset.
    pub preset: Preset,
    /// The cards the other players showed in this round's earlier attempts (R-BET-3): public,
    /// and out of their bets from now on (R-BET-2).
    pub shown: CardSet,
}

/// A model of how players bet: the log-probability that a player holding `hand` bets `card`
/// of `bettable` (every card it could bet). Inference weighs a drawn deal by it
/// (`IsmctsConfig::evidence`); the learned one is `bet_model::BetPolicy`.
pub trait BetModel: Send {
    /// `log P(card | hand, bettable, facts)`; both copies of a card are one choice.
    fn log_prob(&mut self, facts: &BetFacts, hand: CardSet, bettable: CardSet, card: Card) -> f64;
}

/// The built-in evaluator: a playout by [`Rollout`]'s policy to the end of the round, replaced
/// by the exact solution of the determinization from `IsmctsConfig::exact` tricks left.
pub struct Playout {
    policy: Rollout,
    exact: u8,
    exact_nodes: u64,
    solver: Option<Solver>,
    /// The chance that a heuristic playout plays a random legal card instead (0: never).
    pub eps: f64,
}

impl Playout {
    /// A playout by `policy`, exact from `exact` tricks left (0: never) within `exact_nodes`
    /// nodes of the solver (`IsmctsConfig::playout` makes the one a search's settings name).
    pub fn new(policy: Rollout, exact: u8, exact_nodes: u64) -> Playout {
        Playout { policy, exact, exact_nodes, solver: (exact > 0).then(|| Solver::new(14)), eps: 0.0 }
    }
}

impl Evaluator for Playout {
    fn evaluate(&mut self, pos: &mut Position, scorer: &Scorer, rng: &mut ChaCha8Rng) -> [f64; MAX_SEATS] {
        while !pos.is_over() {
            if pos.tricks_left() <= self.exact
                && let Some(solver) = self.solver.as_mut()
            {
                solver.set_scorer(*scorer);
                solver.reset_nodes();
                solver.node_limit = self.exact_nodes;
                let w = solver.solve(pos);
                solver.node_limit = u64::MAX;
                if !solver.aborted {
                    pos.won = w;
                    break;
                }
            }
            let legal = pos.legal();
            let c = self.play(pos, &scorer.bets, legal, rng);
            pos.play(c);
        }
        let mut points = [0.0; MAX_SEATS];
        for (p, x) in points.iter_mut().enumerate().take(usize::from(scorer.players)) {
            *x = scorer.score(&pos.won, p) as f64;
        }
        points
    }

    fn bet(&mut self, rules: &Ruleset, hand: CardSet, bettable: CardSet, table: usize, rng: &mut ChaCha8Rng) -> Card {
        match self.policy {
            Rollout::Heuristic | Rollout::Sighted => heuristic_bet(rules, hand, bettable, table, CardSet::EMPTY),
            Rollout::Random => random_card(bettable, rng),
        }
    }

    fn play(&mut self, pos: &Position, bets: &[u8; MAX_SEATS], legal: CardSet, rng: &mut ChaCha8Rng) -> Card {
        match self.policy {
            Rollout::Heuristic if self.eps > 0.0 && rng.random::<f64>() < self.eps => random_card(legal, rng),
            Rollout::Heuristic => heuristic_play(&play_info(pos, bets)),
            Rollout::Sighted => crate::heuristic::sighted_play(pos, bets),
            Rollout::Random => random_card(legal, rng),
        }
    }
}

/// A card of `set`, uniformly.
pub(crate) fn random_card(set: CardSet, rng: &mut ChaCha8Rng) -> Card {
    let k = rng.random_range(0..set.len());
    set.iter().nth(k as usize).expect("k < len")
}
