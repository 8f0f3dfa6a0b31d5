//! `oh7 bench`: speed measurements (never timed tests).

use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Subcommand;
use oh7_bots::{Bot, RandomBot, play_game, random_oh7_game};
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::Preset;
use oh7_core::seven::{SevenGame, SevenRules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::RulesArgs;
use oh7_core::GameId;
use oh7_sim::game_seed;

/// What to measure.
#[derive(Subcommand, Debug)]
pub(crate) enum BenchCommand {
    /// Time to solve a deal exactly (en 4 players, kod7 6 players): median and p95.
    ///
    /// Each deal is a real round: heuristic bots bet through the rules (and play the tricks
    /// before, with --tricks below 7); then every hand is known to the solver.
    Solver {
        /// Deals per table.
        #[arg(long, default_value_t = 30)]
        deals: usize,
        /// Tricks left to solve: 7 is a full deal; fewer starts after heuristic play.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(1..=7))]
        tricks: u8,
        /// Give up a deal after this many solver nodes (it then counts as unfinished, slower
        /// than every finished one).
        #[arg(long, default_value_t = 2_000_000_000)]
        max_nodes: u64,
        /// Transposition table size: 2^bits entries of 16 bytes, one table per thread.
        #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(10..=30))]
        table_bits: u32,
        /// Deals solved at once, each on one thread (times are per deal).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Only this preset (with --players); default: en with 4 players and kod7 with 6.
        #[arg(long, value_parser = crate::parse_preset, requires = "players")]
        preset: Option<Preset>,
        /// Players at the table (with --preset).
        #[arg(long, requires = "preset")]
        players: Option<usize>,
        /// Search without the outcome-set pruning (the same results; to measure what it saves).
        #[arg(long)]
        no_prune: bool,
    },
    /// Time per decision of an Oh 7 bot (median and p95, one thread).
    Bot {
        /// The bot level (random, heuristic, easy, medium, hard, ismcts, expert), or a research
        /// setting as `oh7 tournament --bots` takes them (`ismcts:iterations=4000`, ...).
        #[arg(long, default_value = "expert")]
        level: String,
        /// Preset.
        #[arg(long, default_value_t = oh7_core::registry::DEFAULT_PRESET, value_parser = crate::parse_preset)]
        preset: oh7_core::ruleset::Preset,
        /// Players at the table.
        #[arg(long, default_value_t = 4)]
        players: usize,
        /// Rounds to play (the bot sits in seat 0, heuristic bots elsewhere).
        #[arg(long, default_value_t = 40)]
        rounds: u64,
    },
    /// Load on `oh7 serve`: many four-seat tables whose clients answer each turn at once;
    /// moves/s, send-to-event latency at every other seat, send-to-ack latency, bytes per move,
    /// server CPU per 1,000 moves, server memory.
    Server {
        /// Connections (four per table).
        #[arg(long, default_value_t = 1000)]
        connections: usize,
        /// Seconds to measure (after seating everyone and one second of warm-up).
        #[arg(long, default_value_t = 10.0)]
        seconds: f64,
        /// Offer this many moves per second in all (each client waits tables/rate seconds
        /// before each move); without it clients answer at once and the server is saturated.
        #[arg(long)]
        rate: Option<f64>,
        /// Print one JSON object (connections, moves_per_s, p50_ms, p99_ms, max_ms,
        /// bytes_per_move, server_rss_mb, ack_p99_ms, server_cpu_s_per_1000_moves, ...).
        #[arg(long)]
        json: bool,
        /// Drive a server already running at this address (started with limits large enough:
        /// `--max-conns-per-ip`, `--max-tables-per-ip`, `--commands-per-s`, `--bot-pause-ms 0`)
        /// instead of starting one; pin each to its core with `taskset`. Given several times
        /// (instances on one PostgreSQL database), the tables are created on each in turn.
        #[arg(long)]
        target: Vec<std::net::SocketAddr>,
        /// With --target: the servers' process ids (one --server-pid each), for their CPU time
        /// and memory (summed).
        #[arg(long, requires = "target")]
        server_pid: Vec<u32>,
        /// The database of the server started for the run (no --target): a PostgreSQL URL;
        /// default, an SQLite file in a temporary directory.
        #[arg(long, conflicts_with = "target")]
        db: Option<String>,
    },
    /// Time to review seat 0 of a whole game (`oh7 review`): a 4-player `en` game and a
    /// 9-player `bga` game between heuristic bots.
    Review {
        /// The reviewer level (easy, medium, hard, pimc, expert).
        #[arg(long, default_value = "expert")]
        level: String,
        /// Games per table (seeds 1, 2, ...).
        #[arg(long, default_value_t = 1)]
        games: usize,
        /// Leave out the oracle's hindsight.
        #[arg(long)]
        no_hindsight: bool,
    },
    /// The review's signal: seeded 4-player `en` games with a random, a heuristic and an expert
    /// seat (rotated), each reviewed; mean expected points lost per decision with 95% intervals.
    ReviewSignal {
        /// Most games.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// The reviewer level.
        #[arg(long, default_value = "easy")]
        level: String,
        /// The level of the strong seat.
        #[arg(long, default_value = "expert")]
        expert: String,
        /// Stop starting games after this many seconds.
        #[arg(long, default_value_t = 300.0)]
        seconds: f64,
    },
    /// Single-thread random-play throughput of the engine (rounds/s, games/s, actions/s).
    Engine {
        /// The game: oh7 (the preset names the variant) or seven.
        #[arg(long, default_value_t = GameId::DEFAULT, value_parser = crate::game_values())]
        game: GameId,
        #[command(flatten)]
        rules: RulesArgs,
        /// Players at the table.
        #[arg(long, default_value_t = 4)]
        players: usize,
        /// Length of each run, in seconds.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Number of runs (the median is reported, with the range).
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
}

struct Run {
    games: f64,
    rounds: f64,
    actions: f64,
}

fn engine_run(rules: oh7_core::ruleset::Ruleset, players: usize, seconds: f64, seed: u64) -> Result<Run> {
    let limit = Duration::from_secs_f64(seconds);
    let mut legal = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
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

/// Run a benchmark.
pub(crate) fn run(what: &BenchCommand) -> Result<()> {
    match what {
        BenchCommand::Solver { deals, tricks, max_nodes, table_bits, threads, preset, players, no_prune } => {
            let bench = crate::tournament::SolverBench {
                deals: *deals,
                tricks: *tricks,
                max_nodes: *max_nodes,
                table_bits: *table_bits,
                threads: *threads as usize,
                prune: !*no_prune,
            };
            let tables = match (preset, players) {
                (Some(p), Some(n)) => vec![(*p, *n)],
                _ => vec![(Preset::En, 4), (Preset::Kod7, 6)],
            };
            crate::tournament::bench_solver(bench, &tables)
        }
        BenchCommand::Server { connections, seconds, rate, json, target, server_pid, db } => {
            crate::bench_server::run(&crate::bench_server::Options {
                connections: *connections,
                seconds: *seconds,
                rate: *rate,
                json: *json,
                target: target.clone(),
                server_pid: server_pid.clone(),
                db: db.clone(),
            })
        }
        BenchCommand::Review { level, games, no_hindsight } => crate::review::bench(level, *games, !*no_hindsight),
        BenchCommand::ReviewSignal { games, level, expert, seconds } => {
            crate::review::signal(*games, level, expert, *seconds)
        }
        BenchCommand::Bot { level, preset, players, rounds } => {
            crate::tournament::bench_bot(level, *preset, *players, *rounds)
        }
        BenchCommand::Engine { game, rules, players, seconds, runs } => {
            let runs = (*runs).max(1);
            let r = rules.ruleset()?;
            let spec = rules.spec(*game)?;
            spec.check_players(*players).map_err(anyhow::Error::msg)?;
            let name = spec.label();
            println!("engine, random play, one thread: {name} with {players} players, {runs} runs of {seconds} s");
            let mut all = Vec::new();
            for i in 0..runs {
                let run = match game {
                    GameId::Oh7 => engine_run(r, *players, *seconds, 1 + i as u64)?,
                    GameId::Seven => seven_run(*players, *seconds, 1 + i as u64)?,
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
            if *game == GameId::Oh7 {
                println!("(a round = one deal, its bets and 7 tricks: the unit of an OpenSpiel oh_hell game)");
            } else {
                println!("(actions = turns and call-outs; a Seven game has several rounds)");
            }
            Ok(())
        }
    }
}
