//! Criterion benchmarks of the engine's hot paths: a whole random game, the legal plays of a
//! seat, and a trick's winner. (`oh7 bench engine` measures the same throughput end to end.)
// criterion_group! makes a public function it does not document.
#![allow(missing_docs)]

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use oh7_core::card::{Card, Suit};
use oh7_core::game::Game;
use oh7_core::oh7::{Action, Oh7Game, trick};
use oh7_core::ruleset::{Preset, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_game(g: &mut Oh7Game, rng: &mut ChaCha8Rng, legal: &mut Vec<Action>) {
    while let Some(seat) = g.to_move().lowest() {
        g.legal_actions(seat, legal);
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(seat, a).unwrap();
    }
}

fn benches(c: &mut Criterion) {
    for (preset, players) in [(Preset::En, 4), (Preset::Kod7, 6), (Preset::Bga, 9)] {
        let mut g = Oh7Game::new(Ruleset::preset(preset), players, 1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut legal = Vec::new();
        let mut seed = 0;
        c.bench_function(&format!("random game, checked actions, {preset} {players}p"), |b| {
            b.iter(|| {
                seed += 1;
                g.restart(seed);
                random_game(&mut g, &mut rng, &mut legal);
                black_box(g.totals());
            })
        });
    }
    let mut g = Oh7Game::new(Ruleset::preset(Preset::En), 4, 3).unwrap();
    while g.legal_plays(g.to_move().lowest().unwrap()).is_empty() {
        let seat = g.to_move().lowest().unwrap();
        let c = g.legal_bets(seat).first().unwrap();
        g.apply(seat, Action::Bet(c)).unwrap();
    }
    let seat = g.to_move().lowest().unwrap();
    c.bench_function("legal plays of the seat to move", |b| b.iter(|| black_box(&g).legal_plays(black_box(seat))));
    let cards: Vec<Card> = ["*3", "2C", "7H", "5C"].iter().map(|t| t.parse().unwrap()).collect();
    c.bench_function("winner of a 4-card trick", |b| b.iter(|| trick::winning_index(black_box(&cards), Suit::S)));
}

criterion_group!(engine, benches);
criterion_main!(engine);
