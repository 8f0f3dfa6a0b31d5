//! The learned bid evaluator (issue 56): for a hand and the public facts at the bet, and for
//! each candidate bet card, the distribution of the points the bettor scores in the round when
//! it then plays for that bet; a bot bets the card of the highest expected points.
//!
//! Its inputs ([`bet_features`]) are read from the bettor's seat view only: its hand, the
//! candidate card, the table (players, the Dummy), the attempt, the preset and the cards the
//! others showed in earlier attempts. Its outputs are
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
use crate::infer::{distinct_bets, same};
use crate::seams::{BetFacts, BetModel};

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
const SHOWN_AT: usize = SIZE_AT + 1;
/// Inputs of the bid evaluator.
pub const BET_FEATURES: usize = SHOWN_AT + CARD_IDS;

/// The bin of `points` (clipped to [`POINTS_MIN`]..=[`POINTS_MAX`]).
pub fn bin_of(points: i32) -> usize {
    (points.clamp(POINTS_MIN, POINTS_MAX) - POINTS_MIN) as usize
}

/// The public facts of `view`'s bet (a seat's view in the betting phase).
pub fn bet_facts(view: &SeatView<'_>) -> BetFacts {
    let attempt = match view.phase() {
        PhaseView::Betting { attempt } => attempt.saturating_sub(1).min(255) as u8,
        _ => 0,
    };
    let me = crate::sample::seat_of(view);
    let mut shown = CardSet::EMPTY;
    for a in view.bet_attempts() {
        for (p, &c) in a.iter().enumerate() {
            if p != me {
                shown.insert(c);
            }
        }
    }
    BetFacts { players: view.players(), dummy: view.dummy().is_some(), attempt, preset: view.rules().preset, shown }
}

/// The features of betting `bet` from `view`, into `out` ([`BET_FEATURES`] numbers): those of
/// [`bet_features_of`] for the seat's hand and the view's facts.
pub fn bet_features(view: &SeatView<'_>, bet: Card, out: &mut [f32]) {
    out[..BET_FEATURES].fill(0.0);
    let mut sparse = Vec::with_capacity(16);
    context_features(&bet_facts(view), view.hand(), &mut sparse);
    sparse.push((BET_AT + bet.id() as usize, 1.0));
    for (i, v) in sparse {
        out[i] = v;
    }
}

/// The nonzero features of a bet from `hand` under `facts`, the bet card left out: the hand
/// one-hot by card id, the players one-hot (2 to 9), whether the table has the Dummy, the
/// attempt (0 for the first, over two, at most 2), the preset one-hot, the hand's size over
/// ten and the cards the others showed in earlier attempts one-hot by card id. The bet card is
/// one-hot at `BET_AT + id`.
fn context_features(facts: &BetFacts, hand: CardSet, out: &mut Vec<(usize, f32)>) {
    out.clear();
    for c in hand.iter() {
        out.push((HAND_AT + c.id() as usize, 1.0));
    }
    let players = facts.players.clamp(2, MAX_SEATS);
    out.push((PLAYERS_AT + players - 2, 1.0));
    if facts.dummy {
        out.push((DUMMY_AT, 1.0));
    }
    if facts.attempt > 0 {
        out.push((ATTEMPT_AT, f32::from(facts.attempt.min(4)) / 2.0));
    }
    let preset = Preset::ALL.iter().position(|&p| p == facts.preset).unwrap_or(0);
    out.push((PRESET_AT + preset, 1.0));
    out.push((SIZE_AT, hand.len() as f32 / 10.0));
    for c in facts.shown.iter() {
        out.push((SHOWN_AT + c.id() as usize, 1.0));
    }
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

/// The bid evaluator shipped with oh7 (`models/bet.safetensors`, trained by the commands in
/// `docs/learning.md`).
pub const SHIPPED: &[u8] = include_bytes!("../models/bet.safetensors");

impl BetNet {
    /// The shipped bid evaluator, read once.
    pub fn shipped() -> &'static Arc<BetNet> {
        static NET: std::sync::OnceLock<Arc<BetNet>> = std::sync::OnceLock::new();
        NET.get_or_init(|| Arc::new(BetNet::from_safetensors(SHIPPED).expect("the shipped bid evaluator reads")))
    }
}

/// The others' bets as evidence (issue 56): a player is taken to bet card `c` of its bettable
/// cards with probability ∝ `exp(temp · E[points | hand, c])`, the expectation by a
/// [`BetNet`] (a player who mostly bets what scores best for its hand, and sometimes not).
pub struct BetPolicy {
    net: Arc<BetNet>,
    temp: f64,
    sparse: Vec<(usize, f32)>,
    base: Vec<f32>,
    h: Vec<f32>,
    scratch: [Vec<f32>; 2],
    logits: Vec<f64>,
}

impl BetPolicy {
    /// The policy of `net` at temperature `temp` (per point).
    pub fn new(net: Arc<BetNet>, temp: f64) -> BetPolicy {
        BetPolicy {
            net,
            temp,
            sparse: Vec::with_capacity(24),
            base: Vec::new(),
            h: Vec::new(),
            scratch: [Vec::new(), Vec::new()],
            logits: Vec::with_capacity(32),
        }
    }
}

impl BetModel for BetPolicy {
    fn log_prob(&mut self, facts: &BetFacts, hand: CardSet, bettable: CardSet, card: Card) -> f64 {
        context_features(facts, hand, &mut self.sparse);
        let mlp = &self.net.mlp;
        mlp.first_sparse(&self.sparse, &mut self.base);
        self.logits.clear();
        let mut mine = None;
        for c in distinct_bets(bettable) {
            if same(c, card) {
                mine = Some(self.logits.len());
            }
            self.h.clear();
            self.h.extend_from_slice(&self.base);
            mlp.first_add(BET_AT + c.id() as usize, 1.0, &mut self.h);
            let out = mlp.forward_from_first(&self.h, &mut self.scratch);
            let top = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let (mut z, mut e) = (0.0f64, 0.0f64);
            for (k, &l) in out.iter().enumerate() {
                let p = f64::from(l - top).exp();
                z += p;
                e += p * f64::from(POINTS_MIN + k as i32);
            }
            self.logits.push(self.temp * e / z);
        }
        let Some(mine) = mine else { return 0.0 };
        let top = self.logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = self.logits.iter().map(|l| (l - top).exp()).sum();
        self.logits[mine] - top - z.ln()
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

    #[test]
    fn the_cards_others_showed_in_an_earlier_attempt_are_inputs() {
        // A kod7 deal whose first bets can sum to 7, bet so, then seat 0's second bet.
        let mut tried = 0;
        for seed in 0..200u64 {
            let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, seed).unwrap();
            let mut legal = Vec::new();
            let bets: Vec<Vec<Card>> = (0..4)
                .map(|p| {
                    g.legal_actions(p, &mut legal);
                    legal.iter().filter_map(|a| if let Action::Bet(c) = a { Some(*c) } else { None }).collect()
                })
                .collect();
            let mut pick = None;
            'search: for &a in &bets[0] {
                for &b in &bets[1] {
                    for &c in &bets[2] {
                        for &d in &bets[3] {
                            if [a, b, c, d].iter().map(|x| u32::from(x.value())).sum::<u32>() == 7 {
                                pick = Some([a, b, c, d]);
                                break 'search;
                            }
                        }
                    }
                }
            }
            let Some(pick) = pick else { continue };
            tried += 1;
            for (p, &c) in pick.iter().enumerate() {
                g.apply(p, Action::Bet(c)).unwrap();
            }
            let view = g.view(0);
            assert!(matches!(view.phase(), PhaseView::Betting { attempt: 2 }), "a second attempt");
            let facts = bet_facts(&view);
            let others: CardSet = pick[1..].iter().copied().collect();
            assert_eq!(facts.shown, others);
            let bet = view.hand().minus(CardSet::from_cards(&[pick[0]])).first().unwrap();
            let mut x = vec![0.0f32; BET_FEATURES];
            bet_features(&view, bet, &mut x);
            for c in others.iter() {
                assert_eq!(x[SHOWN_AT + c.id() as usize], 1.0, "{c} shown");
            }
            assert_eq!(x[SHOWN_AT..].iter().sum::<f32>() as u32, others.len());
            // Seat 0's own first bet is not among the shown cards.
            assert_eq!(x[SHOWN_AT + pick[0].id() as usize], if others.contains(pick[0]) { 1.0 } else { 0.0 });
            break;
        }
        assert!(tried > 0, "no deal among 200 could bet a sum of 7");
    }

    #[test]
    fn the_sparse_pass_is_the_dense_one() {
        let net = BetNet::shipped();
        let g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 9).unwrap();
        let view = g.view(g.to_move().lowest().unwrap());
        let mut x = vec![0.0f32; BET_FEATURES];
        let mut scratch = [Vec::new(), Vec::new()];
        for bet in view.hand().iter() {
            bet_features(&view, bet, &mut x);
            let dense = net.mlp.forward(&x, &mut scratch).to_vec();
            let nonzero: Vec<(usize, f32)> =
                x.iter().enumerate().filter(|(_, v)| **v != 0.0).map(|(i, v)| (i, *v)).collect();
            let mut h = Vec::new();
            net.mlp.first_sparse(&nonzero, &mut h);
            let sparse = net.mlp.forward_from_first(&h, &mut scratch);
            for (a, b) in dense.iter().zip(sparse) {
                assert!((a - b).abs() < 1e-4, "{a} against {b}");
            }
        }
    }

    #[test]
    fn the_bet_policy_is_a_distribution_sharpened_by_its_temperature() {
        let g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 11).unwrap();
        let view = g.view(g.to_move().lowest().unwrap());
        let hand = view.hand();
        let facts = bet_facts(&view);
        let best = BetNet::shipped().best(&view, hand);
        let mut top = Vec::new();
        for temp in [0.0, 0.5, 2.0] {
            let mut policy = BetPolicy::new(BetNet::shipped().clone(), temp);
            let total: f64 = distinct_bets(hand).map(|c| policy.log_prob(&facts, hand, hand, c).exp()).sum();
            assert!((total - 1.0).abs() < 1e-9, "probabilities sum to {total} at {temp}");
            top.push(policy.log_prob(&facts, hand, hand, best));
        }
        assert!(top[0] < top[1] && top[1] < top[2], "the best bet likelier as the temperature rises: {top:?}");
    }

    #[test]
    fn the_true_hands_explain_the_bets_better_than_most_draws() {
        // Heuristic players bet near their hands' expected tricks; the evaluator's policy
        // should find their real hands likelier than hands drawn blind.
        use crate::infer::Evidence;
        use crate::sample::Knowledge;
        use rand::SeedableRng;
        let mut policy = BetPolicy::new(BetNet::shipped().clone(), 1.0);
        let (mut better, mut total) = (0, 0);
        let mut legal = Vec::new();
        for seed in 0..16u64 {
            let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, seed).unwrap();
            let mut bot = crate::heuristic::HeuristicBot;
            while let Some(s) = g.to_move().lowest() {
                g.legal_actions(s, &mut legal);
                if matches!(legal[0], Action::Play(_)) {
                    break;
                }
                let a = Bot::choose(&mut bot, &g.view(s), &legal);
                g.apply(s, a).unwrap();
            }
            let s = g.to_move().lowest().unwrap();
            let view = g.view(s);
            let ev = Evidence::from_view(&view);
            let mut truth = [CardSet::EMPTY; MAX_SEATS];
            for (q, h) in truth.iter_mut().enumerate().take(4) {
                *h = g.view(q).hand();
            }
            let t = ev.bets_log_likelihood(&truth, &mut policy);
            let know = Knowledge::from_view(&view);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..20 {
                let (hands, _) = know.sample(&mut rng);
                total += 1;
                if t >= ev.bets_log_likelihood(&hands, &mut policy) {
                    better += 1;
                }
            }
        }
        assert!(better * 10 >= total * 6, "the truth at least as likely in {better} of {total}");
    }
}
