//! `oh7 bench engine`: single-thread random-play throughput of the engine (rounds, games and
//! actions a second), the median of several runs with their range.

use std::time::{Duration, Instant};

use anyhow::Result;
use oh7_bots::{Bot, GameSpec, RandomBot, play_game, random_oh7_game};
use oh7_core::GameId;
use oh7_core::oh7::Oh7Game;
use oh7_core::seven::{SevenGame, SevenRules};
use oh7_sim::game_seed;

/// The random player's generator here: wyrand (a 64-bit state, one multiply per draw), as fast
/// as the generators other engines' random loops use (OpenSpiel's `std::mt19937`). The deals
/// stay the engine's own (ChaCha8 from the game's seed, R-OWN-6); only the players' random
/// choices come from this.
struct WyRand(u64);

impl rand::RngCore for WyRand {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        ((t >> 64) as u64) ^ (t as u64)
    }
    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let b = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
    }
}

struct Run {
    games: f64,
    rounds: f64,
    actions: f64,
}

fn engine_run(rules: oh7_core::ruleset::Ruleset, players: usize, seconds: f64, seed: u64) -> Result<Run> {
    let limit = Duration::from_secs_f64(seconds);
    let mut legal = Vec::new();
    let mut rng = WyRand(seed);
    let (mut games, mut rounds, mut actions) = (0u64, 0u64, 0u64);
    let mut g = Oh7Game::new(rules, players, seed)?;
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            g.restart(game_seed(seed, games));
            actions += random_oh7_game(&mut g, &mut rng, &mut legal);
            rounds += g.round_number() as u64;
            games += 1;
        }
        if start.elapsed() >= limit {
            break;
        }
    }
    let t = start.elapsed().as_secs_f64();
    Ok(Run { games: games as f64 / t, rounds: rounds as f64 / t, actions: actions as f64 / t })
}

fn seven_run(players: usize, seconds: f64, seed: u64) -> Result<Run> {
    let limit = Duration::from_secs_f64(seconds);
    let (mut games, mut rounds, mut actions) = (0u64, 0u64, 0u64);
    let mut bots: Vec<Box<dyn Bot<SevenGame>>> =
        (0..players).map(|p| Box::new(RandomBot::new(seed + p as u64)) as Box<dyn Bot<SevenGame>>).collect();
    let start = Instant::now();
    while start.elapsed() < limit {
        let mut g = SevenGame::new(SevenRules::default(), players, game_seed(seed, games))?;
        actions += play_game(&mut g, &mut bots, 10_000_000)?;
        rounds += g.round() as u64;
        games += 1;
    }
    let t = start.elapsed().as_secs_f64();
    Ok(Run { games: games as f64 / t, rounds: rounds as f64 / t, actions: actions as f64 / t })
}

fn median_range(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn fmt(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// Random play of `spec` at `players` for `runs` runs of `seconds` seconds each, one thread:
/// each run's rates, then their medians and ranges, printed.
pub fn engine(spec: &GameSpec, players: usize, seconds: f64, runs: usize) -> Result<()> {
    let runs = runs.max(1);
    spec.check_players(players)?;
    let name = spec.label();
    println!("engine, random play, one thread: {name} with {players} players, {runs} runs of {seconds} s");
    let mut all = Vec::new();
    for i in 0..runs {
        let run = match (spec.id(), spec.ruleset()) {
            (GameId::Oh7, Some(ruleset)) => engine_run(*ruleset, players, seconds, 1 + i as u64)?,
            _ => seven_run(players, seconds, 1 + i as u64)?,
        };
        println!(
            "  run {}: {} rounds/s, {} games/s, {} actions/s",
            i + 1,
            fmt(run.rounds),
            fmt(run.games),
            fmt(run.actions)
        );
        all.push(run);
    }
    for (name, v) in [
        ("rounds/s", all.iter().map(|r| r.rounds).collect::<Vec<_>>()),
        ("games/s", all.iter().map(|r| r.games).collect()),
        ("actions/s", all.iter().map(|r| r.actions).collect()),
    ] {
        let (m, lo, hi) = median_range(v);
        println!("{name:>10}: {} (median; {} - {})", fmt(m), fmt(lo), fmt(hi));
    }
    match spec.id() {
        GameId::Oh7 => println!("(a round = one deal, its bets and 7 tricks: the unit of an OpenSpiel oh_hell game)"),
        GameId::Seven => println!("(actions = turns and call-outs; a Seven game has several rounds)"),
    }
    Ok(())
}
