//! `oh7 bench`: the arguments of each speed measurement (never timed tests); the measurements
//! themselves are the `oh7-bench` crate.

use anyhow::Result;
use clap::Subcommand;
use oh7_core::ruleset::Preset;
use oh7_review::ReviewLevel;

use crate::GameArgs;

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
        /// The bot level (random, beginner, heuristic, easy, medium, hard, ismcts, expert), or a research
        /// setting as `oh7 tournament --bots` takes them (`ismcts:iterations=4000`, ...).
        #[arg(long, default_value = oh7_bots::Level::Expert.name())]
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
        /// Every seat held by a signed-in account: four accounts (one per seat position), each
        /// connection upgraded with a session cookie, as the accounts' players are.
        #[arg(long)]
        signed_in: bool,
        /// Each seat drops its connection and comes back with its token about every this many
        /// seconds (uniform in half to one and a half times it): a soak's reconnections.
        #[arg(long, value_name = "SECONDS")]
        reconnect_s: Option<f64>,
        /// Seat 0 of each table asks for a review of each game that ends (start the server with
        /// a --review-level it can keep up with).
        #[arg(long)]
        reviews: bool,
    },
    /// Time to review seat 0 of a whole game (`oh7 review`): a 4-player `en` game and a
    /// 9-player `bga` game between heuristic bots, and Seven games at 4 and 8 players.
    Review {
        /// The reviewer level (easy, medium, hard, pimc, expert).
        #[arg(long, default_value_t = ReviewLevel::Expert)]
        level: ReviewLevel,
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
        #[arg(long, default_value_t = ReviewLevel::Easy)]
        level: ReviewLevel,
        /// The level of the strong seat.
        #[arg(long, default_value = oh7_bots::Level::Expert.name())]
        expert: String,
        /// Stop starting games after this many seconds.
        #[arg(long, default_value_t = 300.0)]
        seconds: f64,
    },
    /// Where a level loses its points: seeded games of `--level` against itself, every seat
    /// reviewed by `--reviewer`; the expected points lost per round on bets and on card play,
    /// and the bets' share of them, with 95% intervals over games (issue 56).
    ReviewShare {
        /// Preset.
        #[arg(long, default_value_t = oh7_core::registry::DEFAULT_PRESET, value_parser = crate::parse_preset)]
        preset: oh7_core::ruleset::Preset,
        /// Players at the table.
        #[arg(long, default_value_t = 4)]
        players: usize,
        /// Games (seeds 1, 2, ...; each on its own core).
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// The level that plays every seat.
        #[arg(long, default_value = oh7_bots::Level::Expert.name())]
        level: String,
        /// The reviewer level (easy, medium, hard, pimc, expert).
        #[arg(long, default_value_t = ReviewLevel::Expert)]
        reviewer: ReviewLevel,
    },
    /// Single-thread random-play throughput of the engine (rounds/s, games/s, actions/s).
    Engine {
        /// The game (`--game`) and its rules.
        #[command(flatten)]
        game: GameArgs,
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

/// Run a benchmark.
pub(crate) fn run(what: &BenchCommand) -> Result<()> {
    match what {
        BenchCommand::Solver { deals, tricks, max_nodes, table_bits, threads, preset, players, no_prune } => {
            let bench = oh7_bench::solver::SolverBench {
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
            oh7_bench::solver::bench_solver(bench, &tables)
        }
        BenchCommand::Server {
            connections,
            seconds,
            rate,
            json,
            target,
            server_pid,
            db,
            signed_in,
            reconnect_s,
            reviews,
        } => oh7_bench::server::run(&oh7_bench::server::Options {
            connections: *connections,
            seconds: *seconds,
            rate: *rate,
            json: *json,
            target: target.clone(),
            server_pid: server_pid.clone(),
            db: db.clone(),
            signed_in: *signed_in,
            reconnect_s: *reconnect_s,
            reviews: *reviews,
        }),
        BenchCommand::Review { level, games, no_hindsight } => oh7_bench::review::bench(*level, *games, !*no_hindsight),
        BenchCommand::ReviewSignal { games, level, expert, seconds } => {
            oh7_bench::review::signal(*games, *level, expert, *seconds)
        }
        BenchCommand::ReviewShare { preset, players, games, level, reviewer } => {
            oh7_bench::review::share(*preset, *players, *games, level, *reviewer)
        }
        BenchCommand::Bot { level, preset, players, rounds } => {
            oh7_bench::solver::bench_bot(level, *preset, *players, *rounds)
        }
        BenchCommand::Engine { game, players, seconds, runs } => {
            oh7_bench::engine::engine(&game.spec()?, *players, *seconds, *runs)
        }
    }
}
