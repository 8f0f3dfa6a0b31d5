//! A learned **leaf value** for the search: from a determinization (every hand of one sampled
//! deal, as the search's tree leaves it), for each player, a distribution over the tricks it
//! will still win this round; the round's expected points follow from the table's own scoring
//! ([`Scorer::expected`]). It stands in for the rollout through the [`Evaluator`] seam
//! (`ismcts:value=true`), trained on the rounds the expert played (`oh7 learn value-data`,
//! `oh7 learn train --kind value`; `docs/learning.md`).
//!
//! The network reads [`VALUE_FEATURES`] numbers about one player in the position (its bet and
//! tricks, its hand's strength against the cards still live, the others' needs, the trick in
//! progress), so one small network serves every seat. Inference is the hand model's plain-loop
//! [`Mlp`]: the same floats on every machine.

use std::sync::{Arc, OnceLock};

use oh7_core::card::{CardSet, Kind};
use oh7_core::oh7::{MAX_SEATS, TRICKS};
use oh7_core::ruleset::Ruleset;
use rand_chacha::ChaCha8Rng;

use crate::hand_model::{Mlp, ModelError};
use crate::pi::{Position, Scorer};
use crate::seams::{Evaluator, Playout};

/// Numbers the network reads about one player ([`value_features`]).
pub const VALUE_FEATURES: usize = 28;
/// Outcomes: 0 to [`TRICKS`] more tricks.
pub const OUTCOMES: usize = TRICKS + 1;

/// What every player's features share: how many live cards ([`Position::live`]) of each suit
/// have each value, and each seat's trumps.
pub struct Live {
    /// `[suit][value]`: live cards.
    by_value: [[u8; 8]; 5],
    /// Live cards per suit.
    per_suit: [u8; 5],
    /// Trumps per seat.
    trumps: [u8; MAX_SEATS],
}

impl Live {
    /// The counts of `pos`.
    pub fn of(pos: &Position) -> Live {
        let mut l = Live { by_value: [[0; 8]; 5], per_suit: [0; 5], trumps: [0; MAX_SEATS] };
        for (q, h) in pos.hands[..pos.seats as usize].iter().enumerate() {
            for c in h.iter() {
                if let Some(s) = c.suit() {
                    l.by_value[s.index()][usize::from(c.value())] += 1;
                    l.per_suit[s.index()] += 1;
                    if s == pos.trump {
                        l.trumps[q] += 1;
                    }
                }
            }
        }
        // The Dummy's pile and the trick in progress are live too ([`Position::live`]).
        let pile = &pos.pile[pos.pile_next as usize..pos.pile_len as usize];
        for c in pile.iter().chain(pos.trick_cards()) {
            if let Some(s) = c.suit() {
                l.by_value[s.index()][usize::from(c.value())] += 1;
                l.per_suit[s.index()] += 1;
            }
        }
        l
    }
}

/// The features of player `p` in `pos`, whose bets are `bets` (one per player), into `out`
/// ([`VALUE_FEATURES`] floats).
pub fn value_features(pos: &Position, bets: &[u8; MAX_SEATS], players: usize, p: usize, out: &mut [f32]) {
    value_features_with(pos, &Live::of(pos), bets, players, p, out);
}

/// [`value_features`] with the position's [`Live`] counts made once for every player.
pub fn value_features_with(
    pos: &Position,
    live: &Live,
    bets: &[u8; MAX_SEATS],
    players: usize,
    p: usize,
    out: &mut [f32],
) {
    out.fill(0.0);
    let t = TRICKS as f32;
    let trump = pos.trump;
    let hand = pos.hands[p];
    let won = |q: usize| i32::from(pos.won[q]);
    let bet = |q: usize| i32::from(bets[q]);
    out[0] = f32::from(pos.tricks_left()) / t;
    out[1] = f32::from(pos.tricks_done) / t;
    out[2] = bet(p) as f32 / t;
    out[3] = won(p) as f32 / t;
    out[4] = (bet(p) - won(p)).max(0) as f32 / t;
    out[5] = (won(p) - bet(p)).max(0) as f32 / t;
    out[6] = f32::from(u8::from(won(p) == bet(p)));
    let others = (0..players).filter(|&q| q != p);
    out[7] = others.clone().map(|q| (bet(q) - won(q)).max(0)).sum::<i32>() as f32 / t;
    out[8] = others.clone().map(|q| (won(q) - bet(q)).max(0)).sum::<i32>() as f32 / t;
    out[9] = ((0..players).map(bet).sum::<i32>() - TRICKS as i32) as f32 / t;
    out[10] = players as f32 / 9.0;
    out[11] = hand.len() as f32 / t;
    // The hand against the cards still live: trumps, high cards, cards no live card of their
    // suit beats, and how much of its suit each card beats.
    let (mut trumps, mut high, mut tops, mut trump_tops, mut share) = (0, 0, 0, 0, 0.0f32);
    let (mut stars, mut voids, mut marks) = (0, 0, 0);
    for c in hand.iter() {
        match c.kind() {
            Kind::Star => stars += 1,
            Kind::Void => voids += 1,
            Kind::Interrobang => marks += 1,
            Kind::Regular(s) => {
                let counts = &live.by_value[s.index()];
                let v = usize::from(c.value());
                let above: u32 = counts[v + 1..].iter().map(|&x| u32::from(x)).sum();
                let below: u32 = counts[..v].iter().map(|&x| u32::from(x)).sum();
                share += below as f32 / f32::from(live.per_suit[s.index()].max(1));
                if s == trump {
                    trumps += 1;
                    trump_tops += u32::from(above == 0);
                } else {
                    tops += u32::from(above == 0);
                }
                high += u32::from(c.value() >= 6);
            }
        }
    }
    out[12] = trumps as f32 / t;
    out[13] = high as f32 / t;
    out[14] = tops as f32 / t;
    out[15] = trump_tops as f32 / t;
    out[16] = share / t;
    out[17] = stars as f32 / t;
    out[18] = voids as f32;
    out[19] = marks as f32;
    // Suits it lacks that others still hold (where its trumps can win).
    let mut held = [0u8; 5];
    for c in hand.iter() {
        if let Some(s) = c.suit() {
            held[s.index()] += 1;
        }
    }
    let lacks = (0..5).filter(|&s| s != trump.index() && held[s] == 0 && live.per_suit[s] > 0).count();
    out[20] = lacks as f32 / 4.0;
    let (mut sum, mut most) = (0u32, 0u8);
    for q in (0..pos.seats as usize).filter(|&q| q != p) {
        sum += u32::from(live.trumps[q]);
        most = most.max(live.trumps[q]);
    }
    out[21] = sum as f32 / t / (players.max(2) - 1) as f32;
    out[22] = f32::from(most) / t;
    // The trick in progress: cards in it, whether p has played, p's place in the order.
    let seats = pos.seats as usize;
    let in_trick = pos.order[..pos.trick_len as usize].iter().any(|&q| q as usize == p);
    out[23] = f32::from(pos.trick_len) / seats as f32;
    out[24] = f32::from(u8::from(in_trick));
    let place = pos.order[..seats].iter().position(|&q| q as usize == p).unwrap_or(0);
    out[25] = place as f32 / seats as f32;
    out[26] = f32::from(u8::from(!pos.is_over() && pos.to_move() == p));
    out[27] = f32::from(u8::from(pos.dummy != crate::pi::NONE));
}

/// The leaf value shipped with oh7 (`models/value.safetensors`, trained by the commands in
/// `docs/learning.md`).
pub const SHIPPED: &[u8] = include_bytes!("../models/value.safetensors");

/// The value network: [`VALUE_FEATURES`] numbers to one logit per outcome ([`OUTCOMES`]).
#[derive(Clone, Debug)]
pub struct ValueNet {
    mlp: Mlp,
}

impl ValueNet {
    /// Read a network from safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<ValueNet, ModelError> {
        let mlp = Mlp::from_safetensors(bytes)?;
        if (mlp.inputs(), mlp.outputs()) != (VALUE_FEATURES, OUTCOMES) {
            return Err(ModelError::Shape(format!(
                "a value network maps {VALUE_FEATURES} inputs to {OUTCOMES} outputs; this one {} to {}",
                mlp.inputs(),
                mlp.outputs()
            )));
        }
        Ok(ValueNet { mlp })
    }

    /// The network shipped with oh7, read once.
    pub fn shipped() -> &'static Arc<ValueNet> {
        static NET: OnceLock<Arc<ValueNet>> = OnceLock::new();
        NET.get_or_init(|| Arc::new(ValueNet::from_safetensors(SHIPPED).expect("the shipped leaf value loads")))
    }

    /// The probability of each number of tricks still to win (at most `left`) for input `x`.
    pub fn tricks(&self, x: &[f32], left: u8, scratch: &mut [Vec<f32>; 2], out: &mut [f64; OUTCOMES]) {
        let logits = self.mlp.forward(x, scratch);
        let left = usize::from(left);
        let top = logits[..=left].iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut z = 0.0;
        for (k, o) in out.iter_mut().enumerate() {
            *o = if k <= left { f64::from(logits[k] - top).exp() } else { 0.0 };
            z += *o;
        }
        for o in out.iter_mut() {
            *o /= z;
        }
    }
}

/// The [`Evaluator`] a [`ValueNet`] gives the search: the expected points from the network's
/// trick distributions instead of a playout. Bets and plays inside an iteration (the others'
/// secret bets, a re-bet's playout) stay the playout policy's.
pub struct LearnedValue {
    net: Arc<ValueNet>,
    playout: Playout,
    /// Value bet decisions' leaves too (`IsmctsConfig::value_bets`).
    bets_too: bool,
    /// The decision at hand is a bet.
    betting: bool,
    x: [f32; VALUE_FEATURES],
    scratch: [Vec<f32>; 2],
}

impl LearnedValue {
    /// The evaluator of `net`, with `playout` for the decisions inside an iteration (and for
    /// bet decisions' leaves unless `bets_too`).
    pub fn new(net: Arc<ValueNet>, playout: Playout, bets_too: bool) -> LearnedValue {
        LearnedValue {
            net,
            playout,
            bets_too,
            betting: false,
            x: [0.0; VALUE_FEATURES],
            scratch: [Vec::new(), Vec::new()],
        }
    }
}

impl Evaluator for LearnedValue {
    fn evaluate(&mut self, pos: &mut Position, scorer: &Scorer, rng: &mut ChaCha8Rng) -> [f64; MAX_SEATS] {
        if self.betting && !self.bets_too {
            return self.playout.evaluate(pos, scorer, rng);
        }
        let players = usize::from(scorer.players);
        let mut dist = [[0.0f64; OUTCOMES]; MAX_SEATS];
        let left = pos.tricks_left();
        let live = Live::of(pos);
        for (p, d) in dist.iter_mut().enumerate().take(players) {
            if left == 0 {
                d[0] = 1.0;
                continue;
            }
            value_features_with(pos, &live, &scorer.bets, players, p, &mut self.x);
            self.net.tricks(&self.x, left, &mut self.scratch, d);
        }
        scorer.expected(&pos.won, &dist)
    }

    fn bet(
        &mut self,
        rules: &Ruleset,
        hand: CardSet,
        bettable: CardSet,
        table: usize,
        rng: &mut ChaCha8Rng,
    ) -> oh7_core::card::Card {
        self.playout.bet(rules, hand, bettable, table, rng)
    }

    fn play(
        &mut self,
        pos: &Position,
        bets: &[u8; MAX_SEATS],
        legal: CardSet,
        rng: &mut ChaCha8Rng,
    ) -> oh7_core::card::Card {
        self.playout.play(pos, bets, legal, rng)
    }

    fn begin(&mut self, betting: bool) {
        self.betting = betting;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pi::Won;
    use oh7_core::ruleset::{Preset, Ruleset};
    use proptest::prelude::*;

    proptest! {
        /// With each player's tricks still to win certain, the expected points are the table's
        /// own score of those tricks, in every preset's scoring.
        #[test]
        fn expected_points_are_the_score_when_the_tricks_are_certain(
            preset in 0usize..Preset::ALL.len(),
            players in 2usize..=6,
            bets in proptest::collection::vec(0u8..=7, 6),
            won in proptest::collection::vec(0u8..=3, 6),
            more in proptest::collection::vec(0usize..=4, 6),
        ) {
            let rules = Ruleset::preset(Preset::ALL[preset]);
            let mut scorer = Scorer { scoring: rules.scoring, players: players as u8, bets: [0; MAX_SEATS], void_bet: 0b10 };
            let mut w: Won = [0; MAX_SEATS];
            let mut end: Won = [0; MAX_SEATS];
            let mut dist = [[0.0; OUTCOMES]; MAX_SEATS];
            for p in 0..players {
                scorer.bets[p] = bets[p];
                w[p] = won[p];
                end[p] = won[p] + more[p] as u8;
                dist[p][more[p]] = 1.0;
            }
            let e = scorer.expected(&w, &dist);
            for p in 0..players {
                prop_assert!((e[p] - f64::from(scorer.score(&end, p))).abs() < 1e-9, "player {}: {} vs {}", p, e[p], scorer.score(&end, p));
            }
        }
    }

    /// The expectation is linear in one player's distribution when the others are certain.
    #[test]
    fn expected_points_mix_the_outcomes() {
        let rules = Ruleset::preset(Preset::En);
        let mut scorer = Scorer::new(&rules, &[]);
        scorer.players = 3;
        scorer.bets[..3].copy_from_slice(&[2, 1, 3]);
        let won: Won = [1, 0, 2, 0, 0, 0, 0, 0, 0];
        let mut dist = [[0.0; OUTCOMES]; MAX_SEATS];
        dist[1][1] = 1.0;
        dist[2][1] = 1.0;
        dist[0][0] = 0.25;
        dist[0][1] = 0.75;
        let e = scorer.expected(&won, &dist);
        let at = |k: u8| {
            let mut end = won;
            end[0] += k;
            end[1] += 1;
            end[2] += 1;
            f64::from(scorer.score(&end, 0))
        };
        assert!((e[0] - (0.25 * at(0) + 0.75 * at(1))).abs() < 1e-9, "{} vs {}", e[0], 0.25 * at(0) + 0.75 * at(1));
    }

    /// The counts made once per position give each player the features a direct reading of
    /// the live cards gives (the form the training rows were first made with), over random games
    /// of one and two decks.
    #[test]
    fn shared_counts_give_the_direct_features() {
        use crate::sample::position_from_view;
        use oh7_core::game::Game;
        use oh7_core::oh7::{Action, Oh7Game, PhaseView};
        use rand::{Rng, SeedableRng};
        fn direct(pos: &Position, p: usize) -> [f32; 5] {
            let live = pos.live();
            let (mut tops, mut trump_tops, mut share) = (0, 0, 0.0f32);
            for c in pos.hands[p].iter() {
                if let Some(s) = c.suit() {
                    let suit: Vec<_> = live.iter().filter(|x| x.suit() == Some(s)).collect();
                    let above = suit.iter().filter(|x| x.value() > c.value()).count();
                    share += suit.iter().filter(|x| x.value() < c.value()).count() as f32 / suit.len().max(1) as f32;
                    if s == pos.trump { trump_tops += u32::from(above == 0) } else { tops += u32::from(above == 0) }
                }
            }
            let lacks = oh7_core::card::Suit::ALL
                .into_iter()
                .filter(|&s| {
                    s != pos.trump
                        && !pos.hands[p].iter().any(|c| c.suit() == Some(s))
                        && live.iter().any(|c| c.suit() == Some(s))
                })
                .count();
            let t = TRICKS as f32;
            [tops as f32 / t, trump_tops as f32 / t, share / t, lacks as f32 / 4.0, 0.0]
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut x = [0.0f32; VALUE_FEATURES];
        let mut checked = 0;
        for (preset, players) in [(Preset::Kod7, 4), (Preset::Bga, 5), (Preset::FrAdvanced, 5)] {
            for game in 0..4 {
                let mut g = Oh7Game::new(Ruleset::preset(preset), players, game).unwrap();
                let mut legal = Vec::new();
                while let Some(seat) = g.to_move().lowest() {
                    g.legal_actions(seat, &mut legal);
                    let view = g.view(seat);
                    if view.phase() == PhaseView::Playing
                        && matches!(legal[0], Action::Play(_))
                        && view.round_number() <= 2
                    {
                        let mut hands = [CardSet::EMPTY; MAX_SEATS];
                        for (q, h) in hands.iter_mut().enumerate().take(players) {
                            *h = g.view(q).hand();
                        }
                        let pos = position_from_view(&view, &hands, &[]);
                        let mut bets = [0u8; MAX_SEATS];
                        bets[..players].copy_from_slice(&view.bets().unwrap()[..players]);
                        for p in 0..players {
                            value_features(&pos, &bets, players, p, &mut x);
                            let d = direct(&pos, p);
                            assert_eq!(
                                [x[14], x[15], x[16], x[20]],
                                [d[0], d[1], d[2], d[3]],
                                "{preset:?} game {game} player {p}"
                            );
                            checked += 1;
                        }
                    }
                    if view.round_number() > 2 {
                        break;
                    }
                    let a = legal[rng.random_range(0..legal.len())];
                    g.apply(seat, a).unwrap();
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    /// The shipped network loads, and gives a distribution over the tricks that can still be won.
    #[test]
    fn the_shipped_value_loads_and_gives_distributions() {
        let net = ValueNet::shipped();
        let x = [0.3f32; VALUE_FEATURES];
        let mut d = [0.0; OUTCOMES];
        net.tricks(&x, 3, &mut [Vec::new(), Vec::new()], &mut d);
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-9 && d[4..].iter().all(|&p| p == 0.0), "{d:?}");
    }
}
