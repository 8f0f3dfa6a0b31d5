//! Every bot returns a legal action in every situation (all presets, the Dummy, Seven), and
//! every bot is deterministic for a given seed.

use std::cell::Cell;

mod common;

use oh7_bots::expert::OracleBot;
use oh7_bots::ismcts::{IsmctsBot, IsmctsConfig, Rollout};
use oh7_bots::{OH7_LEVELS, SEVEN_LEVELS, oh7_bot, random_oh7_game, seven_bot};
use oh7_core::game::Game;
use oh7_core::oh7::{Action, Oh7Game};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{SevenGame, SevenRules};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const TABLES: &[(Preset, usize)] = &[
    (Preset::En, 2),
    (Preset::En, 3),
    (Preset::En, 4),
    (Preset::Fr, 2),
    (Preset::Fr, 5),
    (Preset::FrAdvanced, 3),
    (Preset::FrAdvanced, 5),
    (Preset::FrAdvanced, 6),
    (Preset::Kod7, 2),
    (Preset::Kod7, 4),
    (Preset::Kod7, 6),
    (Preset::Bga, 2),
    (Preset::Bga, 5),
    (Preset::Bga, 9),
];

/// A random situation: a table, a game seed, how many uniformly random decisions come first (so
/// the bots meet every phase: bets of later attempts, passing, tie-breaks, the middle of a
/// round, later rounds) and, for `bga`, whether cards are passed.
fn situations() -> impl Strategy<Value = (usize, u64, u64, bool)> {
    (0..TABLES.len(), any::<u64>(), 0u64..48, any::<bool>())
}

/// The property over `cases` random situations: from each, `level` (a level name or `oracle`)
/// plays every seat to the end of the round, and every action it returns is one of the engine's
/// legal actions. Returns the number of decisions checked.
fn check_level(level: &str, cases: u32) -> u64 {
    let decisions = Cell::new(0u64);
    let config = Config { cases, failure_persistence: None, rng_seed: RngSeed::Fixed(0xb075), ..Config::default() };
    let result = TestRunner::new(config).run(&situations(), |(table, seed, skip, passing)| {
        let (preset, players) = TABLES[table];
        let mut g = common::situation(preset, players, seed, skip, passing);
        let mut legal = Vec::new();
        let mut oracle = OracleBot::new(seed);
        let mut bots: Vec<_> = if level == "oracle" {
            Vec::new()
        } else {
            (0..players)
                .map(|s| match level {
                    // ISMCTS with a small budget: every code path, many situations, fast.
                    "ismcts-40" => {
                        let cfg = IsmctsConfig { iterations: 40, ..IsmctsConfig::default() };
                        Box::new(IsmctsBot::new(cfg, seed ^ s as u64)) as Box<dyn oh7_bots::Bot<Oh7Game>>
                    }
                    "ismcts-random" => {
                        let cfg = IsmctsConfig { iterations: 40, rollout: Rollout::Random, ..IsmctsConfig::default() };
                        Box::new(IsmctsBot::new(cfg, seed ^ s as u64))
                    }
                    _ => oh7_bot(level, seed ^ s as u64).unwrap(),
                })
                .collect()
        };
        let round = g.round_number();
        while !g.is_over() && g.round_number() == round {
            let seat = g.to_move().lowest().unwrap();
            g.legal_actions(seat, &mut legal);
            let a = if bots.is_empty() {
                oracle.choose_in(&g, seat, &legal)
            } else {
                bots[seat].choose(&g.view(seat), &legal)
            };
            prop_assert!(legal.contains(&a), "{level} chose illegal {a} in {preset} {players}: {legal:?}");
            g.apply(seat, a).unwrap();
            decisions.set(decisions.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    decisions.get()
}

#[test]
fn heuristic_and_random_are_always_legal() {
    assert!(check_level("heuristic", 800) > 10_000);
    assert!(check_level("random", 200) > 2_000);
}

/// Issue 19: `ismcts` plays legal actions in every preset (the Dummy, bga passing, every phase),
/// with both rollout policies, and at its full default budget.
#[test]
fn ismcts_is_always_legal() {
    assert!(check_level("ismcts-40", 200) > 2_000);
    assert!(check_level("ismcts-random", 60) > 500);
    assert!(check_level("ismcts", 3) > 10);
    // The research combinations the tournament accepts.
    assert!(check_level("hybrid:40", 20) > 100);
    assert!(check_level("mix:heuristic:random", 30) > 200);
    // Every research knob at once: exact endings, inference, halving, spite, flat bets.
    let all = "ismcts:iterations=40:exact=3:exact_nodes=5000:infer=0.5:halving=true:bet_factor=2:spite=0.5";
    assert!(check_level(all, 20) > 150);
    assert!(check_level("ismcts:iterations=40:bet_tree=false:exact=7:exact_nodes=2000", 10) > 50);
}

#[test]
fn search_levels_are_always_legal() {
    // The levels differ only by budget: `easy` runs every code path of the search.
    assert!(check_level("easy", 200) > 2_000);
    assert!(check_level("medium", 20) > 100);
    assert!(OH7_LEVELS.contains(&"expert"));
}

#[test]
fn oracle_is_always_legal() {
    assert!(check_level("oracle", 40) > 300);
}

#[test]
fn seven_bots_are_always_legal() {
    let mut legal = Vec::new();
    for level in SEVEN_LEVELS {
        let mut decisions = 0;
        for i in 0..if *level == "search" { 6 } else { 60 } {
            let players = 2 + (i as usize % 7);
            let rules = SevenRules { limit: None, ..SevenRules::default() };
            let mut g = SevenGame::new(rules, players, 500 + i).unwrap();
            let mut bots: Vec<_> = (0..players).map(|s| seven_bot(level, i * 8 + s as u64).unwrap()).collect();
            let mut n = 0;
            while !g.is_over() && n < 3000 {
                let seat = g.to_move().lowest().unwrap();
                g.legal_actions(seat, &mut legal);
                let a = bots[seat].choose(&g.view(seat), &legal);
                assert!(legal.contains(&a), "{level} chose illegal {a}");
                g.apply(seat, a).unwrap();
                n += 1;
            }
            decisions += n;
        }
        assert!(decisions > 100, "{level}: {decisions}");
    }
}

fn oh7_actions(level: &str, seed: u64) -> Vec<Action> {
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 3).unwrap();
    let mut bots: Vec<_> = (0..4).map(|s| oh7_bot(level, seed + s).unwrap()).collect();
    let mut legal = Vec::new();
    let mut out = Vec::new();
    while g.round_number() == 1 {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        let a = bots[seat].choose(&g.view(seat), &legal);
        g.apply(seat, a).unwrap();
        out.push(a);
    }
    out
}

#[test]
fn bots_are_deterministic_for_a_seed() {
    for level in ["random", "heuristic", "easy"] {
        assert_eq!(oh7_actions(level, 9), oh7_actions(level, 9), "{level}");
    }
    let seven = |seed: u64| {
        let rules = SevenRules { limit: None, ..SevenRules::default() };
        let mut g = SevenGame::new(rules, 3, 11).unwrap();
        let mut bots: Vec<_> = (0..3).map(|s| seven_bot("search", seed + s).unwrap()).collect();
        let mut legal = Vec::new();
        let mut out = Vec::new();
        while !g.is_over() && out.len() < 400 {
            let seat = g.to_move().lowest().unwrap();
            g.legal_actions(seat, &mut legal);
            let a = bots[seat].choose(&g.view(seat), &legal);
            g.apply(seat, a).unwrap();
            out.push(a.to_string());
        }
        out
    };
    assert_eq!(seven(4), seven(4));
}

#[test]
fn random_playout_still_works() {
    let mut g = Oh7Game::new(Ruleset::preset(Preset::En), 4, 1).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut legal = Vec::new();
    assert!(random_oh7_game(&mut g, &mut rng, &mut legal) > 0);
}

/// The `hybrid:N` research level bets and plays the early tricks as ISMCTS with N iterations
/// would (same seed), and the last five tricks as the determinization search at the expert
/// budget (`pimc`).
#[test]
fn hybrid_is_ismcts_then_the_exact_search() {
    use oh7_bots::expert::{Budget, ExpertBot};
    use oh7_bots::heuristic::HeuristicBot;
    let mut legal = Vec::new();
    let (mut from_ismcts, mut from_search) = (0, 0);
    for (preset, players, seed) in [(Preset::En, 4, 3u64), (Preset::Bga, 5, 4), (Preset::Kod7, 3, 5)] {
        let mut g = Oh7Game::new(Ruleset::preset(preset), players, seed).unwrap();
        let mut h = HeuristicBot::new();
        let round = g.round_number();
        while !g.is_over() && g.round_number() == round {
            let seat = g.to_move().lowest().unwrap();
            g.legal_actions(seat, &mut legal);
            let view = g.view(seat);
            if legal.len() > 1 && matches!(legal[0], Action::Bet(_) | Action::Play(_)) {
                let s = 11 + seat as u64;
                let hybrid = oh7_bot("hybrid:300", s).unwrap().choose(&view, &legal);
                let late = matches!(legal[0], Action::Play(_))
                    && 7 - view.tricks().len() <= Budget::EXPERT.exact_from as usize;
                let want = if late {
                    from_search += 1;
                    oh7_bots::Bot::choose(&mut ExpertBot::new("x", Budget::EXPERT, s ^ 0x77), &view, &legal)
                } else {
                    from_ismcts += 1;
                    oh7_bot("ismcts:iterations=300", s).unwrap().choose(&view, &legal)
                };
                assert_eq!(hybrid, want, "{preset:?} {players}: late {late}");
            }
            let a = oh7_bots::Bot::choose(&mut h, &view, &legal);
            g.apply(seat, a).unwrap();
        }
    }
    assert!(from_ismcts > 10 && from_search > 10, "{from_ismcts} {from_search}");
}

/// The `expert` level is ISMCTS at four times the default budget with the learned hand model,
/// under its own name.
#[test]
fn expert_is_ismcts_with_four_times_the_budget_and_the_hand_model() {
    use oh7_bots::ismcts::EXPERT_ITERATIONS;
    let mut legal = Vec::new();
    let mut g = Oh7Game::new(Ruleset::preset(Preset::En), 4, 9).unwrap();
    let mut compared = 0;
    while compared < 6 {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        let view = g.view(seat);
        let mut expert = oh7_bot("expert", 21).unwrap();
        let a = expert.choose(&view, &legal);
        if legal.len() > 1 {
            let same = format!("ismcts:iterations={EXPERT_ITERATIONS}:hand=true");
            assert_eq!(a, oh7_bot(&same, 21).unwrap().choose(&view, &legal));
            compared += 1;
        }
        assert_eq!(expert.name(), "bot:expert");
        g.apply(seat, a).unwrap();
    }
    assert_eq!(EXPERT_ITERATIONS, 4 * IsmctsConfig::default().iterations);
}
