//! What the bots' test files share.

use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A game of `preset` for `players` after `skip` random decisions seeded by `seed` (bga with
/// passing when `passing`).
pub(crate) fn situation(preset: Preset, players: usize, seed: u64, skip: u64, passing: bool) -> Oh7Game {
    let mut rules = Ruleset::preset(preset);
    rules.passing = preset == Preset::Bga && passing;
    let mut g = Oh7Game::new(rules, players, seed).unwrap();
    let mut legal = Vec::new();
    let mut pick = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..skip {
        let Some(seat) = g.to_move().lowest() else { break };
        g.legal_actions(seat, &mut legal);
        g.apply(seat, legal[pick.random_range(0..legal.len())]).unwrap();
    }
    g
}
