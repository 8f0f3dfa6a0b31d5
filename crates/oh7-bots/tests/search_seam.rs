//! The search's seams (`ismcts::Evaluator`, `ismcts::Prior`): what plugs in is what the search
//! uses, and the learned prior reads only the view and is deterministic.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use oh7_bots::Bot;
use oh7_bots::ismcts::{Evaluator, IsmctsBot, IsmctsConfig, Playout, Prior};
use oh7_bots::pi::{Position, Scorer};
use oh7_bots::policy::{PolicyNet, PolicyPrior};
use oh7_core::card::{CARD_IDS, Card, CardSet};
use oh7_core::game::Game;
use oh7_core::oh7::{Action, MAX_SEATS, Oh7Game, PhaseView, SeatView};
use oh7_core::ruleset::{Preset, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Situations with a decision of several bets or cards, from random play over several presets.
fn situations() -> Vec<(Oh7Game, usize, Vec<Action>)> {
    let tables = [(Preset::Kod7, 4), (Preset::En, 4), (Preset::Bga, 5), (Preset::FrAdvanced, 5), (Preset::Bga, 9)];
    let mut out = Vec::new();
    for seed in 0..30u64 {
        let (preset, players) = tables[seed as usize % tables.len()];
        let mut g = Oh7Game::new(Ruleset::preset(preset), players, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut legal = Vec::new();
        for _ in 0..(seed % 23) {
            let Some(seat) = g.to_move().lowest() else { break };
            g.legal_actions(seat, &mut legal);
            g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
        }
        let Some(seat) = g.to_move().lowest() else { continue };
        g.legal_actions(seat, &mut legal);
        let cards = legal.iter().filter(|a| matches!(a, Action::Bet(_) | Action::Play(_))).count();
        if cards >= 3 && matches!(g.view(seat).phase(), PhaseView::Betting { .. } | PhaseView::Playing) {
            out.push((g, seat, legal.clone()));
        }
    }
    assert!(out.len() >= 10, "only {} situations", out.len());
    out
}

/// The rollout, counting the positions it is asked to value.
struct Counting {
    inner: Playout,
    calls: Arc<AtomicUsize>,
}

impl Evaluator for Counting {
    fn evaluate(&mut self, pos: &mut Position, scorer: &Scorer, rng: &mut ChaCha8Rng) -> [f64; MAX_SEATS] {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.evaluate(pos, scorer, rng)
    }
    fn bet(&mut self, rules: &Ruleset, hand: CardSet, bettable: CardSet, table: usize, rng: &mut ChaCha8Rng) -> Card {
        self.inner.bet(rules, hand, bettable, table, rng)
    }
    fn play(&mut self, pos: &Position, bets: &[u8; MAX_SEATS], legal: CardSet, rng: &mut ChaCha8Rng) -> Card {
        self.inner.play(pos, bets, legal, rng)
    }
}

/// A card play decision asks the evaluator once per iteration, and the rollout behind the seam
/// decides exactly as the bot without one plugged in.
#[test]
fn the_evaluator_values_every_iteration_and_the_rollout_is_unchanged() {
    let cfg = IsmctsConfig { iterations: 150, ..IsmctsConfig::default() };
    let mut plays = 0;
    for (g, seat, legal) in situations() {
        let view = g.view(seat);
        let calls = Arc::new(AtomicUsize::new(0));
        let eval = Counting { inner: cfg.playout(), calls: calls.clone() };
        let mut counted = IsmctsBot::new(cfg, 5).with_evaluator(Box::new(eval));
        let a = counted.choose(&view, &legal);
        assert_eq!(a, IsmctsBot::new(cfg, 5).choose(&view, &legal), "the seam changed a decision");
        if matches!(view.phase(), PhaseView::Playing) {
            assert_eq!(calls.load(Ordering::Relaxed), 150);
            plays += 1;
        } else {
            // A bet's iteration is valued when its bets lead to a card play (not on a redeal).
            assert!((1..=150).contains(&calls.load(Ordering::Relaxed)));
        }
    }
    assert!(plays >= 3, "{plays} card play decisions");
}

/// A prior sure of one card (the one the plain search likes least), with a large PUCT
/// constant: the search plays it, so the prior is what steers the root.
struct Sure(Card);

impl Prior for Sure {
    fn root(&mut self, _view: &SeatView<'_>, _legal: CardSet) -> [f32; CARD_IDS] {
        let mut p = [1e-6f32; CARD_IDS];
        p[self.0.id() as usize] = 1.0;
        p
    }
}

fn card_of(a: Action) -> Card {
    match a {
        Action::Bet(c) | Action::Play(c) => c,
        other => panic!("not a card: {other:?}"),
    }
}

#[test]
fn the_prior_steers_the_root() {
    let cfg = IsmctsConfig { iterations: 300, puct: 1e4, ..IsmctsConfig::default() };
    for (g, seat, legal) in situations() {
        let view = g.view(seat);
        let mut plain = IsmctsBot::new(IsmctsConfig { iterations: 300, ..IsmctsConfig::default() }, 9);
        plain.choose(&view, &legal);
        let least = plain.root_stats().into_iter().min_by_key(|&(c, n, _)| (n, c)).expect("a searched root").0;
        let mut steered = IsmctsBot::new(cfg, 9).with_prior(Box::new(Sure(least)));
        assert_eq!(card_of(steered.choose(&view, &legal)), least);
    }
}

/// The shipped prior: its probabilities are over the legal cards only, the same for the same view
/// (loaded afresh too), and the search that uses it decides the same for the same seed.
#[test]
fn the_learned_prior_is_deterministic_and_legal() {
    let fresh = Arc::new(PolicyNet::from_safetensors(oh7_bots::policy::SHIPPED).unwrap());
    let cfg = IsmctsConfig { iterations: 200, prior: true, ..IsmctsConfig::default() };
    for (g, seat, legal) in situations() {
        let view = g.view(seat);
        let cards: CardSet = legal.iter().map(|&a| card_of(a)).collect();
        let p = PolicyPrior::shipped().root(&view, cards);
        assert_eq!(p, PolicyPrior::new(fresh.clone()).root(&view, cards));
        for (id, &x) in p.iter().enumerate() {
            let c = Card::from_id(id as u8);
            if c.is_some_and(|c| cards.contains(c)) {
                assert!(x > 0.0 && x <= 1.0, "{id}: {x}");
            } else {
                assert_eq!(x, 0.0, "{id} is not legal");
            }
        }
        let a = IsmctsBot::new(cfg, 3).choose(&view, &legal);
        assert_eq!(a, IsmctsBot::new(cfg, 3).choose(&view, &legal));
        assert!(legal.contains(&a));
    }
}

/// The review mode (`play_values`, `bet_values`): every legal card valued, in order, each with
/// an equal share of the iterations (so the evaluator is asked exactly that many times for a
/// card play); the same seed gives the same values; tricks and bet success are proportions of
/// what a seat can reach.
#[test]
fn review_values_cover_every_option_evenly_and_repeat() {
    let cfg = IsmctsConfig { iterations: 120, ..IsmctsConfig::default() };
    for (g, seat, legal) in situations() {
        let view = g.view(seat);
        let mut cards = CardSet::EMPTY;
        for a in &legal {
            match a {
                Action::Bet(c) | Action::Play(c) => cards.insert(*c),
                _ => unreachable!("situations have bets or plays"),
            }
        }
        let calls = Arc::new(AtomicUsize::new(0));
        let counting = Counting { inner: cfg.playout(), calls: Arc::clone(&calls) };
        let mut bot = IsmctsBot::new(cfg, 11).with_evaluator(Box::new(counting));
        let playing = matches!(view.phase(), PhaseView::Playing);
        let values = if playing { bot.play_values(&view, cards) } else { bot.bet_values(&view, cards) };
        let order: Vec<Card> = values.iter().map(|v| v.card).collect();
        assert_eq!(order, cards.iter().collect::<Vec<_>>());
        let per = 120 / cards.len() as usize;
        if playing {
            assert_eq!(calls.load(Ordering::Relaxed), per * cards.len() as usize, "one evaluation per iteration");
        }
        let hand = (view.hand().len() as usize + view.tricks().len()) as f64;
        for v in &values {
            assert!(v.value.is_finite());
            assert!((0.0..=1.0).contains(&v.made), "{v:?}");
            assert!((0.0..=hand).contains(&v.tricks), "{v:?}");
        }
        let mut again = IsmctsBot::new(cfg, 11);
        let repeat = if playing { again.play_values(&view, cards) } else { again.bet_values(&view, cards) };
        assert_eq!(repeat, values);
    }
}
