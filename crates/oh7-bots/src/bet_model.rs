//! The learned bid evaluator (issue 56): for a hand and the public facts at the bet, and for
//! each candidate bet card, the distribution of the points the bettor scores in the round when
//! it then plays for that bet; a bot bets the card of the highest expected points.
//!
//! Its inputs ([`bet_features`]) are read from the bettor's seat view only: its hand, the
//! candidate card, the table (players, the Dummy), the attempt and the preset. Its outputs are
//! one logit per whole number of points from [`POINTS_MIN`] to [`POINTS_MAX`] (a round's points
//! are clipped there when it learns), so the table's own scoring (`Scoring`) is what it learned,
//! not a formula written again. It is trained by `oh7 learn data --bets --explore-bets P` then
//! `oh7 learn train --kind bet` (`docs/learning.md`).

use std::sync::Arc;

use oh7_core::card::{CARD_IDS, Card, CardSet};
use oh7_core::oh7::{Action, MAX_SEATS, Oh7Game, PhaseView, SeatView};
use oh7_core::ruleset::Preset;

use crate::Bot;
use crate::hand_model::{Mlp, ModelError};

/// The fewest points a row is given (a round's points below are counted here).
pub const POINTS_MIN: i32 = -10;
/// The most points a row is given.
pub const POINTS_MAX: i32 = 40;
/// Outputs: one per whole number of points from [`POINTS_MIN`] to [`POINTS_MAX`].
pub const POINT_BINS: usize = (POINTS_MAX - POINTS_MIN + 1) as usize;

const HAND_AT: usize = 0;
const BET_AT: usize = HAND_AT + CARD_IDS;
const PLAYERS_AT: usize = BET_AT + CARD_IDS;
const DUMMY_AT: usize = PLAYERS_AT + MAX_SEATS - 1;
const ATTEMPT_AT: usize = DUMMY_AT + 1;
const PRESET_AT: usize = ATTEMPT_AT + 1;
const SIZE_AT: usize = PRESET_AT + Preset::ALL.len();
/// Inputs of the bid evaluator.
pub const BET_FEATURES: usize = SIZE_AT + 1;

/// The bin of `points` (clipped to [`POINTS_MIN`]..=[`POINTS_MAX`]).
pub fn bin_of(points: i32) -> usize {
    (points.clamp(POINTS_MIN, POINTS_MAX) - POINTS_MIN) as usize
}

/// The features of betting `bet` from `view` (a seat's view in the betting phase), into `out`
/// ([`BET_FEATURES`] numbers): the seat's hand and the bet card one-hot by card id, the players
/// one-hot (2 to 9), whether the table has the Dummy, the attempt (0 for the first), the preset
/// one-hot and the hand's size over ten.
pub fn bet_features(view: &SeatView<'_>, bet: Card, out: &mut [f32]) {
    out[..BET_FEATURES].fill(0.0);
    let hand = view.hand();
    for c in hand.iter() {
        out[HAND_AT + c.id() as usize] = 1.0;
    }
    out[BET_AT + bet.id() as usize] = 1.0;
    let players = view.players().clamp(2, MAX_SEATS);
    out[PLAYERS_AT + players - 2] = 1.0;
    out[DUMMY_AT] = f32::from(u8::from(view.dummy().is_some()));
    if let PhaseView::Betting { attempt } = view.phase() {
        out[ATTEMPT_AT] = attempt.saturating_sub(1).min(4) as f32 / 2.0;
    }
    let preset = Preset::ALL.iter().position(|&p| p == view.rules().preset).unwrap_or(0);
    out[PRESET_AT + preset] = 1.0;
    out[SIZE_AT] = hand.len() as f32 / 10.0;
}

/// The bid evaluator's network: [`BET_FEATURES`] inputs to [`POINT_BINS`] logits.
#[derive(Clone, Debug)]
pub struct BetNet {
    mlp: Mlp,
}

impl BetNet {
    /// Read a network from safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<BetNet, ModelError> {
        let mlp = Mlp::from_safetensors(bytes)?;
        if (mlp.inputs(), mlp.outputs()) != (BET_FEATURES, POINT_BINS) {
            return Err(ModelError::Shape(format!(
                "a bid evaluator maps {BET_FEATURES} inputs to {POINT_BINS} outputs; this one {} to {}",
                mlp.inputs(),
                mlp.outputs()
            )));
        }
        Ok(BetNet { mlp })
    }

    /// The probability of each number of points (bin `k`: `POINTS_MIN + k`) for input `x`.
    pub fn points(&self, x: &[f32], scratch: &mut [Vec<f32>; 2], out: &mut [f64; POINT_BINS]) {
        let logits = self.mlp.forward(x, scratch);
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut z = 0.0;
        for (o, &l) in out.iter_mut().zip(logits) {
            *o = f64::from(l - top).exp();
            z += *o;
        }
        for o in out.iter_mut() {
            *o /= z;
        }
    }

    /// The expected points of betting each card of `legal` from `view`, in `legal`'s order.
    pub fn expected(&self, view: &SeatView<'_>, legal: CardSet) -> Vec<(Card, f64)> {
        let mut x = vec![0.0f32; BET_FEATURES];
        let mut scratch = [Vec::new(), Vec::new()];
        let mut d = [0.0f64; POINT_BINS];
        legal
            .iter()
            .map(|c| {
                bet_features(view, c, &mut x);
                self.points(&x, &mut scratch, &mut d);
                let e = d.iter().enumerate().map(|(k, p)| p * f64::from(POINTS_MIN + k as i32)).sum();
                (c, e)
            })
            .collect()
    }

    /// The card of `legal` with the highest expected points (the first in card order on a tie).
    pub fn best(&self, view: &SeatView<'_>, legal: CardSet) -> Card {
        let mut best: Option<(Card, f64)> = None;
        for (c, e) in self.expected(view, legal) {
            if best.is_none_or(|(_, b)| e > b) {
                best = Some((c, e));
            }
        }
        best.expect("at least one legal bet").0
    }
}

/// A bot that bets by a [`BetNet`] and plays as the expert (`betnet=FILE`; `mix:betnet=FILE:PLAY`
/// names another player): with `top` 1 it bets the model's best card; with more, the expert's
/// own bet search chooses among the model's `top` best (the model inside the search).
pub struct LearnedBets {
    net: Arc<BetNet>,
    expert: crate::ismcts::IsmctsBot,
    top: usize,
    name: String,
}

impl LearnedBets {
    /// Bets by `net` (among its `top` best, by `expert`'s search), everything else by `expert`;
    /// `name` is the bot's name in records.
    pub fn new(net: Arc<BetNet>, expert: crate::ismcts::IsmctsBot, top: u8, name: String) -> LearnedBets {
        LearnedBets { net, expert, top: usize::from(top.max(1)), name }
    }

    /// The model's `top` best cards of `legal`.
    fn candidates(&self, view: &SeatView<'_>, legal: CardSet) -> CardSet {
        let mut v = self.net.expected(view, legal);
        // Best first; a tie keeps card order (the sort is stable).
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut out = CardSet::EMPTY;
        for (c, _) in v.into_iter().take(self.top) {
            out.insert(c);
        }
        out
    }
}

impl Bot<Oh7Game> for LearnedBets {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView<'_>, legal: &[Action]) -> Action {
        match (view.phase(), legal[0]) {
            (PhaseView::Betting { .. }, Action::Bet(_)) if legal.len() > 1 => {
                let legal = crate::heuristic::cards_of(legal);
                if self.top == 1 {
                    return Action::Bet(self.net.best(view, legal));
                }
                let among = self.candidates(view, legal);
                Action::Bet(self.expert.bet(view, among))
            }
            _ => self.expert.choose(view, legal),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::game::Game;
    use oh7_core::ruleset::Ruleset;

    #[test]
    fn features_are_the_views_and_the_bet_only() {
        let g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 5).unwrap();
        let seat = g.to_move().lowest().unwrap();
        let view = g.view(seat);
        let bet = view.hand().first().unwrap();
        let mut x = vec![9.0f32; BET_FEATURES];
        bet_features(&view, bet, &mut x);
        assert_eq!(x[HAND_AT..BET_AT].iter().sum::<f32>() as u32, view.hand().len());
        assert_eq!(x[BET_AT + bet.id() as usize], 1.0);
        assert_eq!(x[BET_AT..PLAYERS_AT].iter().sum::<f32>(), 1.0);
        assert_eq!(x[PLAYERS_AT + 2], 1.0, "four players");
        assert_eq!(x[PRESET_AT + 3], 1.0, "kod7");
        assert!(x.iter().all(|v| (0.0..=1.0).contains(v)));
        assert_eq!((bin_of(-30), bin_of(0), bin_of(99)), (0, 10, POINT_BINS - 1));
    }
}
