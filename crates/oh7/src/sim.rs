//! `oh7 simulate`: whole games between random players, optionally written as records.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use oh7_bots::{Bot, RandomBot, play_game, random_oh7_game};
use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::seven::{MAX_PLAYERS, MIN_PLAYERS, SevenGame, SevenRules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{RulesArgs, parse_seed};

/// Which game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameKind {
    /// The Oh 7 family (choose the preset with --preset).
    Oh7,
    /// Seven, the shedding game.
    Seven,
}

/// Arguments of `oh7 simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The game: oh7 (the preset names the variant) or seven.
    #[arg(long, value_enum, default_value = "oh7")]
    game: GameKind,
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
    if a.game == GameKind::Seven {
        return simulate_seven(a);
    }
    let rules = a.rules.ruleset()?;
    rules.check_players(a.players)?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let mut out = open_records(&a.record)?;
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

fn open_records(path: &Option<PathBuf>) -> Result<Option<BufWriter<File>>> {
    Ok(match path {
        Some(p) => Some(BufWriter::new(File::create(p).with_context(|| format!("cannot create {}", p.display()))?)),
        None => None,
    })
}

/// `oh7 simulate --game seven`: random players through the generic game loop.
fn simulate_seven(a: &SimulateArgs) -> Result<()> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&a.players) {
        bail!("Seven is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {} players", a.players);
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let mut out = open_records(&a.record)?;
    let start = Instant::now();
    let (mut rounds, mut decisions) = (0u64, 0u64);
    let mut wins = vec![0u64; a.players];
    for i in 0..a.games {
        let s = game_seed(a.seed, i);
        let mut g = SevenGame::new(SevenRules::default(), a.players, s)?;
        g.set_seat_names(vec!["bot:random".to_string(); a.players])?;
        let mut bots: Vec<Box<dyn Bot<SevenGame>>> = (0..a.players)
            .map(|p| Box::new(RandomBot::new(game_seed(s, p as u64 + 1))) as Box<dyn Bot<SevenGame>>)
            .collect();
        decisions += play_game(&mut g, &mut bots, 10_000_000)?;
        rounds += g.round() as u64;
        for w in g.winners() {
            wins[w] += 1;
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
    println!(
        "{} games of seven with {} players, seed {}, in {:.2} s ({:.0} games/s)",
        a.games,
        a.players,
        a.seed,
        secs,
        a.games as f64 / secs
    );
    println!("rounds: {rounds} ({:.2} per game); decisions: {decisions}", rounds as f64 / a.games as f64);
    let pct: Vec<String> =
        wins.iter().enumerate().map(|(s, w)| format!("seat {s} {:.1}%", 100.0 * *w as f64 / a.games as f64)).collect();
    println!("wins: {}", pct.join(", "));
    if let Some(p) = &a.record {
        println!("records written to {}", p.display());
    }
    Ok(())
}
