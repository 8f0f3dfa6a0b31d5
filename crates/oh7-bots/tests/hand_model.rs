// Per-card and per-place data live in fixed arrays indexed by id; index loops say that best.
#![allow(clippy::needless_range_loop)]
//! The learned hand model inside the search: the weighted sampler never draws a deal the view
//! contradicts, the model reads only the seat's view, and the shipped weights give the
//! decisions recorded in `tests/data/hand_fixture.json`.

use std::cell::Cell;

mod common;

use oh7_bots::Bot;
use oh7_bots::hand_model::{CardProbs, HandModel, LOCS, allowed};
use oh7_bots::ismcts::{IsmctsBot, IsmctsConfig};
use oh7_bots::sample::Knowledge;
use oh7_core::card::{CARD_IDS, Card, CardSet};
use oh7_core::game::Game;
use oh7_core::oh7::{Action, MAX_SEATS, Oh7Game, PhaseView};
use oh7_core::ruleset::{Preset, Ruleset};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TABLES: &[(Preset, usize)] = &[
    (Preset::En, 2),
    (Preset::En, 4),
    (Preset::Fr, 3),
    (Preset::Fr, 5),
    (Preset::FrAdvanced, 4),
    (Preset::FrAdvanced, 6),
    (Preset::Kod7, 2),
    (Preset::Kod7, 4),
    (Preset::Kod7, 6),
    (Preset::Bga, 3),
    (Preset::Bga, 5),
    (Preset::Bga, 9),
];

/// A game of table `table` after `skip` random decisions (bga with passing when `passing`).
fn situation(table: usize, seed: u64, skip: u64, passing: bool) -> Oh7Game {
    let (preset, players) = TABLES[table];
    common::situation(preset, players, seed, skip, passing)
}

/// Random probabilities over each unknown card's allowed places (a model that could say
/// anything).
fn random_probs(know: &Knowledge, rng: &mut ChaCha8Rng) -> CardProbs {
    let mut p = [[0.0f32; LOCS]; CARD_IDS];
    for c in know.unknown.iter() {
        let ok = allowed(know, c, true);
        let mut sum = 0.0;
        for l in 0..LOCS {
            if ok[l] {
                // Some places all but excluded, to push the sampler to its corners.
                p[c.id() as usize][l] = if rng.random_bool(0.3) { 1e-7 } else { rng.random::<f32>() };
                sum += p[c.id() as usize][l];
            }
        }
        for l in 0..LOCS {
            p[c.id() as usize][l] /= sum.max(1e-12);
        }
    }
    p
}

/// Every way a sampled deal could contradict what the seat knows.
fn check_deal(
    g: &Oh7Game,
    seat: usize,
    know: &Knowledge,
    hands: &[CardSet; MAX_SEATS],
    rest: &[Card],
) -> Result<(), String> {
    let view = g.view(seat);
    if hands[seat] != view.hand() {
        return Err("my own hand changed".into());
    }
    let mut all = CardSet::from_cards(rest);
    let mut count = rest.len() as u32;
    for s in 0..know.seats {
        if !know.known[s].minus(hands[s]).is_empty() {
            return Err(format!("seat {s} lost a card it is known to hold"));
        }
        if hands[s].len() != know.sizes[s] {
            return Err(format!("seat {s} holds {} cards, not {}", hands[s].len(), know.sizes[s]));
        }
        if !hands[s].and(view.played()).is_empty() {
            return Err(format!("seat {s} holds a card already played"));
        }
        if Some(s) != know.dummy {
            for c in hands[s].minus(know.known[s]).iter() {
                if let Some(suit) = c.suit()
                    && know.voids[s] & (1 << suit.index()) != 0
                {
                    return Err(format!("seat {s} was dealt {c} in a suit it showed it lacks"));
                }
            }
        }
        all = all.or(hands[s]);
        count += hands[s].len();
    }
    if all.len() != count {
        return Err("a card is in two places".into());
    }
    let deck = CardSet::from_cards(&view.rules().deck(view.players()));
    if all.or(view.played()) != deck {
        return Err("the hands, the rest and the played cards are not the deck".into());
    }
    if rest.len() as u32 != know.rest {
        return Err(format!("{} cards out of the hands, not {}", rest.len(), know.rest));
    }
    Ok(())
}

/// R-BET-3, R-PASS-1, R-PLAY-1 (oh7.md §11): over random situations of every preset, every deal
/// the weighted sampler draws (from random probabilities and from the shipped model) keeps
/// every card the seat knows where it is, every hand at its size, every void shown, and the deck
/// whole.
#[test]
fn weighted_sampler_never_contradicts_the_view() {
    let checked = Cell::new(0u64);
    let config =
        Config { cases: 160, failure_persistence: None, rng_seed: RngSeed::Fixed(0x4a4d), ..Config::default() };
    let strategy = (0..TABLES.len(), any::<u64>(), 0u64..120, any::<bool>());
    let result = TestRunner::new(config).run(&strategy, |(table, seed, skip, passing)| {
        let g = situation(table, seed, skip, passing);
        let Some(seat) = g.to_move().lowest() else { return Ok(()) };
        let view = g.view(seat);
        if !matches!(view.phase(), PhaseView::Betting { .. } | PhaseView::Playing) {
            return Ok(());
        }
        let know = Knowledge::from_view(&view);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x11);
        let shipped = HandModel::shipped().probs(&view, &know);
        for k in 0..8 {
            let probs = if k % 2 == 0 { random_probs(&know, &mut rng) } else { shipped };
            let (hands, rest) = know.sample_weighted(&mut rng, &probs);
            if let Err(e) = check_deal(&g, seat, &know, &hands, &rest) {
                prop_assert!(false, "{e}: {:?} {} players, seed {seed}, skip {skip}", TABLES[table].0, TABLES[table].1);
            }
            checked.set(checked.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(checked.get() > 500, "only {} deals checked", checked.get());
}

/// The model's probabilities sum to one over each unknown card's places and are zero for known
/// cards and excluded places.
#[test]
fn probabilities_cover_exactly_the_unknown_cards() {
    for table in 0..TABLES.len() {
        let g = situation(table, 40 + table as u64, 30, false);
        let Some(seat) = g.to_move().lowest() else { continue };
        let view = g.view(seat);
        let know = Knowledge::from_view(&view);
        let p = HandModel::shipped().probs(&view, &know);
        for id in 0..CARD_IDS {
            let sum: f32 = p[id].iter().sum();
            let card = Card::from_id(id as u8).unwrap();
            if know.unknown.contains(card) {
                assert!((sum - 1.0).abs() < 1e-4, "{id}: {sum}");
                let ok = allowed(&know, card, true);
                if ok.iter().any(|&x| x) {
                    assert!((0..LOCS).all(|l| ok[l] || p[id][l] == 0.0));
                }
            } else {
                assert_eq!(sum, 0.0, "known card {id} has probabilities");
            }
        }
    }
}

fn expert_hand(seed: u64) -> IsmctsBot {
    // A small budget: the same code path as the expert, fast in tests.
    IsmctsBot::new(IsmctsConfig { iterations: 200, hand: true, ..IsmctsConfig::default() }, seed)
}

/// Two deals that differ by two same-suit cards swapped between two other seats, neither card
/// played, bet or passed before the decision: the view is the same, and so are the model's
/// probabilities and the decision of the search that uses them.
#[test]
fn decisions_ignore_hidden_cards_the_view_cannot_tell() {
    let mut compared = 0;
    for seed in 0..40u64 {
        let (preset, players) =
            [(Preset::Kod7, 4), (Preset::En, 4), (Preset::Bga, 5), (Preset::FrAdvanced, 5)][seed as usize % 4];
        let rules = Ruleset::preset(preset);
        let g0 = Oh7Game::new(rules, players, seed).unwrap();
        // Play some random decisions, remembering them.
        let mut g = g0.clone();
        let mut legal = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut actions = Vec::new();
        let steps = 6 + (seed as usize % 14);
        for _ in 0..steps {
            let Some(seat) = g.to_move().lowest() else { break };
            g.legal_actions(seat, &mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(seat, a).unwrap();
            actions.push((seat, a));
        }
        if g.round_number() != 1 {
            continue;
        }
        let Some(me) = g.to_move().lowest() else { continue };
        // Cards the first actions used (bet, played) stay where they are.
        let mut used = CardSet::EMPTY;
        for (_, a) in &actions {
            if let Action::Bet(c) | Action::Play(c) = a {
                used.insert(*c);
            }
        }
        let hands: Vec<CardSet> = (0..players).map(|s| g0.view(s).hand()).collect();
        let others: Vec<usize> = (0..players).filter(|&s| s != me).collect();
        let (b, c) = (others[0], others[1]);
        let swap = hands[b].minus(used).iter().find_map(|x| {
            hands[c].minus(used).iter().find(|y| y.suit() == x.suit() && x.suit().is_some() && *y != x).map(|y| (x, y))
        });
        let Some((x, y)) = swap else { continue };
        let mut h2 = hands.clone();
        h2[b].remove(x);
        h2[b].insert(y);
        h2[c].remove(y);
        h2[c].insert(x);
        let deck = CardSet::from_cards(&rules.deck(players));
        let mut dealt = CardSet::EMPTY;
        for h in &hands {
            dealt = dealt.or(*h);
        }
        let rest_cards = g0.view(0).dummy_faceup();
        // The rest keeps its order only when it is not the Dummy's pile (no Dummy at these tables).
        assert!(rest_cards.is_empty());
        let rest: Vec<Card> = deck.minus(dealt).iter().collect();
        let mut a0 = g0.clone();
        let mut a1 = g0.clone();
        if a0.set_deal(&hands, &rest).is_err() || a1.set_deal(&h2, &rest).is_err() {
            continue;
        }
        let mut replay_ok = true;
        for &(s, a) in &actions {
            if a0.apply(s, a).is_err() || a1.apply(s, a).is_err() {
                replay_ok = false;
                break;
            }
        }
        if !replay_ok || a0.to_move().lowest() != Some(me) {
            continue;
        }
        let (v0, v1) = (a0.view(me), a1.view(me));
        assert_eq!(v0.hand(), v1.hand());
        assert_ne!(a0.view(b).hand(), a1.view(b).hand(), "the deals differ");
        let (k0, k1) = (Knowledge::from_view(&v0), Knowledge::from_view(&v1));
        let (p0, p1) = (HandModel::shipped().probs(&v0, &k0), HandModel::shipped().probs(&v1, &k1));
        assert_eq!(p0, p1, "seed {seed}: the model saw a hidden card");
        a0.legal_actions(me, &mut legal);
        let d0 = expert_hand(seed).choose(&v0, &legal);
        let d1 = expert_hand(seed).choose(&v1, &legal);
        assert_eq!(d0, d1, "seed {seed}: the decision changed with hidden cards");
        // The same for the search with the learned prior.
        let with_prior =
            || IsmctsBot::new(IsmctsConfig { iterations: 200, prior: true, ..IsmctsConfig::default() }, seed);
        assert_eq!(
            with_prior().choose(&v0, &legal),
            with_prior().choose(&v1, &legal),
            "seed {seed}: the prior saw a hidden card"
        );
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} situations compared");
}

/// The same view, seed and weights give the same decision (the shipped model loaded afresh
/// from its bytes too).
#[test]
fn decisions_are_deterministic() {
    let fresh = std::sync::Arc::new(HandModel::from_safetensors(oh7_bots::hand_model::SHIPPED).unwrap());
    for seed in 0..6u64 {
        let g = situation(seed as usize * 2 % TABLES.len(), seed, 10 + seed * 7, false);
        let Some(seat) = g.to_move().lowest() else { continue };
        let mut legal = Vec::new();
        g.legal_actions(seat, &mut legal);
        let view = g.view(seat);
        let a = expert_hand(seed).choose(&view, &legal);
        assert_eq!(a, expert_hand(seed).choose(&view, &legal));
        let cfg = IsmctsConfig { iterations: 200, ..IsmctsConfig::default() };
        assert_eq!(a, IsmctsBot::new(cfg, seed).with_hand_model(fresh.clone()).choose(&view, &legal));
    }
}

#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
struct FixtureCase {
    preset: String,
    players: usize,
    seed: u64,
    skip: u64,
    seat: usize,
    /// The action of ISMCTS with the hand model (1,000 iterations), as text.
    action: String,
    /// The model's probability of the first unknown card's first allowed place, to 4 places.
    first_prob: String,
    /// The action of ISMCTS with the learned policy prior (`prior=true`, 1,000 iterations).
    prior_action: String,
}

fn fixture_cases() -> Vec<FixtureCase> {
    let mut out = Vec::new();
    for (i, &(preset, players)) in TABLES.iter().enumerate() {
        for k in 0..2u64 {
            let seed = 1000 + i as u64 * 10 + k;
            let skip = 3 + k * 17;
            let g = situation(i, seed, skip, false);
            let Some(seat) = g.to_move().lowest() else { continue };
            let mut legal = Vec::new();
            g.legal_actions(seat, &mut legal);
            let view = g.view(seat);
            let know = Knowledge::from_view(&view);
            let p = HandModel::shipped().probs(&view, &know);
            let first = know
                .unknown
                .iter()
                .next()
                .map(|c| p[c.id() as usize].iter().copied().find(|&x| x > 0.0).unwrap_or(0.0))
                .unwrap_or(0.0);
            let cfg = IsmctsConfig { iterations: 1000, hand: true, ..IsmctsConfig::default() };
            let action = IsmctsBot::new(cfg, seed).choose(&view, &legal);
            let cfg = IsmctsConfig { iterations: 1000, prior: true, ..IsmctsConfig::default() };
            let prior_action = IsmctsBot::new(cfg, seed).choose(&view, &legal);
            out.push(FixtureCase {
                preset: preset.to_string(),
                players,
                seed,
                skip,
                seat,
                action: action.to_string(),
                first_prob: format!("{first:.4}"),
                prior_action: prior_action.to_string(),
            });
        }
    }
    out
}

/// The shipped weights (hand model and prior) load and give the decisions recorded when they were trained (rewrite the
/// fixture with `OH7_UPDATE_FIXTURES=1` after training a new model, and say why in the commit).
#[test]
fn shipped_weights_reproduce_the_recorded_decisions() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hand_fixture.json");
    let cases = fixture_cases();
    if std::env::var_os("OH7_UPDATE_FIXTURES").is_some() {
        std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
        std::fs::write(path, serde_json::to_string_pretty(&cases).unwrap() + "\n").unwrap();
    }
    let recorded: Vec<FixtureCase> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(recorded.len(), cases.len());
    for (r, c) in recorded.iter().zip(&cases) {
        assert_eq!(r, c);
    }
}
