//! `oh7 simulate`: whole games between random players, optionally written as records.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use oh7_bots::random_oh7_game;
use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{RulesArgs, parse_seed};

/// Arguments of `oh7 simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Players at the table (2 plays with the Dummy where the preset has one).
    #[arg(long, default_value_t = 4)]
    players: usize,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the first game (decimal or 0x-hex); game i uses a seed derived from it.
    #[arg(long, default_value = "1", value_parser = parse_seed)]
    seed: u64,
    /// Write every game's record to this file (JSON Lines, one game per line).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// The seed of game `i` of a run: a SplitMix64 step, so neighbouring games are unrelated.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Run `oh7 simulate`.
pub fn simulate(a: &SimulateArgs) -> Result<()> {
    let rules = a.rules.ruleset()?;
    rules.check_players(a.players)?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let mut out = match &a.record {
        Some(p) => Some(BufWriter::new(File::create(p).with_context(|| format!("cannot create {}", p.display()))?)),
        None => None,
    };
    let start = Instant::now();
    let (mut rounds, mut redeals, mut decisions) = (0u64, 0u64, 0u64);
    let mut wins = vec![0u64; a.players];
    let mut shared = 0u64;
    let mut legal = Vec::new();
    for i in 0..a.games {
        let s = game_seed(a.seed, i);
        let mut g = Oh7Game::new(rules, a.players, s)?;
        g.set_seat_names(vec!["bot:random".to_string(); a.players]);
        let mut rng = ChaCha8Rng::seed_from_u64(s ^ 0x5EED_B075);
        decisions += random_oh7_game(&mut g, &mut rng, &mut legal);
        rounds += g.round_number() as u64;
        redeals += g.redeals() as u64;
        let w = g.winners();
        if w.len() > 1 {
            shared += 1;
        }
        for s in w {
            wins[s] += 1;
        }
        if let Some(f) = out.as_mut() {
            serde_json::to_writer(&mut *f, &g.record())?;
            f.write_all(b"\n")?;
        }
    }
    if let Some(mut f) = out {
        f.flush()?;
    }
    let secs = start.elapsed().as_secs_f64();
    let dummy = if rules.uses_dummy(a.players) { " (with the Dummy)" } else { "" };
    println!(
        "{} games of {} with {} players{dummy}, seed {}, in {:.2} s ({:.0} games/s)",
        a.games,
        rules.preset,
        a.players,
        a.seed,
        secs,
        a.games as f64 / secs
    );
    println!(
        "rounds: {rounds} ({:.2} per game); redeals: {redeals} ({:.2}% of rounds); decisions: {decisions}",
        rounds as f64 / a.games as f64,
        100.0 * redeals as f64 / rounds as f64
    );
    let pct: Vec<String> =
        wins.iter().enumerate().map(|(s, w)| format!("seat {s} {:.1}%", 100.0 * *w as f64 / a.games as f64)).collect();
    println!("wins: {} (shared victories: {shared})", pct.join(", "));
    if let Some(p) = &a.record {
        println!("records written to {}", p.display());
    }
    Ok(())
}
