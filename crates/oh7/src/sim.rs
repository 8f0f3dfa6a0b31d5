//! `oh7 simulate` and `oh7 compare`: whole games between bots on every core, records streamed
//! to disk in game order, statistics (`oh7-stats`) at the end, charts with `--plot`.
//!
//! Parallel plan: games are cut into chunks (up to 64 games) played as tasks of a rayon pool; a
//! writer thread puts finished chunks back in game order, writes their records, merges their
//! statistics and moves the progress bar. A chunk starts only when fewer than 8 per thread are
//! in flight or waiting to be written, so memory does not grow with `--games`.
//! Game `i` always uses the seed `game_seed(seed, i)` and its bots are seeded from it, so the
//! results do not depend on the number of threads.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{channel, sync_channel};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use oh7_bots::{Bot, GameSpec, oh7_bot, play_game, random_oh7_game, seven_bot};
use oh7_core::game::Game;
use oh7_core::oh7::{Oh7Game, Record};
use oh7_core::ruleset::Ruleset;
use oh7_core::seven::{MAX_PLAYERS, MIN_PLAYERS, SevenGame};
use oh7_stats::Stats;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::{GameKind, RulesArgs, parse_seed};

/// Arguments of `oh7 simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The game: oh7 (the preset names the variant) or seven.
    #[arg(long, value_enum, default_value = "oh7")]
    game: GameKind,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    run: RunArgs,
    /// Write every game's record to this file (JSON Lines, one game per line, in game order).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Write charts of the statistics (PNG and SVG) into this directory.
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// Print the statistics as JSON (the run summary goes to stderr).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the statistics as CSV (the run summary goes to stderr).
    #[arg(long)]
    csv: bool,
}

/// What `simulate` and `compare` share: table size, games, seeds, bots, threads.
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// Players at the table (2 plays with the Dummy where the preset has one).
    #[arg(long, default_value_t = 4)]
    players: usize,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the first game (decimal or 0x-hex); game i uses a seed derived from it.
    #[arg(long, default_value = "1", value_parser = parse_seed)]
    seed: u64,
    /// Bot levels: one for every seat, or one per seat, comma-separated (`random`,
    /// `heuristic`, …). Default: `heuristic` where offered, else `random`.
    #[arg(long, value_name = "LEVEL[,LEVEL...]")]
    bots: Option<String>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// Arguments of `oh7 compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Rules A: a preset name (en, fr, fr-advanced, kod7, bga) or a ruleset file (TOML).
    a: String,
    /// Rules B: a preset name or a ruleset file.
    b: String,
    #[command(flatten)]
    run: RunArgs,
    /// Print the comparison as JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the comparison as CSV.
    #[arg(long)]
    csv: bool,
}

/// The seed of game `i` of a run: a SplitMix64 step, so neighbouring games are unrelated.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fully described run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game and its rules.
    pub spec: GameSpec,
    /// Players.
    pub players: usize,
    /// Games.
    pub games: u64,
    /// First seed.
    pub seed: u64,
    /// One bot level per seat.
    pub bots: Vec<String>,
    /// Whether the levels were left to the default.
    pub default_bots: bool,
    /// Worker threads.
    pub threads: usize,
}

/// What a run found besides the statistics.
pub struct Outcome {
    /// The statistics of every game.
    pub stats: Stats,
    /// Decisions made (bets, plays, choices, turns).
    pub decisions: u64,
    /// Wall time.
    pub elapsed: Duration,
}

fn default_level(levels: &[&str]) -> &'static str {
    if levels.contains(&"heuristic") { "heuristic" } else { "random" }
}

impl RunArgs {
    /// Check the arguments and build the plan of a run.
    pub fn plan(&self, spec: GameSpec) -> Result<Plan> {
        match &spec {
            GameSpec::Oh7 { ruleset } => ruleset.check_players(self.players)?,
            GameSpec::Seven { .. } => {
                if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
                    bail!("Seven is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {} players", self.players);
                }
                // Rules other than the default may refuse more counts (a hand too large).
                spec.check_players(self.players).map_err(|e| anyhow!(e))?;
            }
        }
        if self.games == 0 {
            bail!("--games must be at least 1");
        }
        let levels = spec.levels();
        let (bots, default_bots) = match &self.bots {
            None => (vec![default_level(levels).to_string(); self.players], true),
            Some(text) => {
                let v: Vec<String> = text.split(',').map(|s| s.trim().to_ascii_lowercase()).collect();
                let v = match v.len() {
                    1 => vec![v[0].clone(); self.players],
                    n if n == self.players => v,
                    n => bail!("--bots names {n} levels for {} players: give one level, or one per seat", self.players),
                };
                (v, false)
            }
        };
        for l in &bots {
            spec.bot(l, 0).map_err(|e| anyhow!(e))?;
        }
        let threads = match self.threads {
            Some(0) => bail!("--threads must be at least 1"),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(Plan { spec, players: self.players, games: self.games, seed: self.seed, bots, default_bots, threads })
    }
}

impl Plan {
    /// `bots: heuristic on every seat (the default)` or `bots: random, heuristic, …`.
    pub fn bots_text(&self) -> String {
        let all_same = self.bots.iter().all(|b| *b == self.bots[0]);
        let names = if all_same { format!("{} on every seat", self.bots[0]) } else { self.bots.join(", ") };
        if self.default_bots { format!("bots: {names} (the default)") } else { format!("bots: {names}") }
    }

    fn title(&self) -> String {
        match &self.spec {
            GameSpec::Oh7 { ruleset } => {
                let dummy = if ruleset.uses_dummy(self.players) { " (with the Dummy)" } else { "" };
                format!("{} with {} players{dummy}", ruleset.preset, self.players)
            }
            GameSpec::Seven { .. } => format!("seven with {} players", self.players),
        }
    }
}

/// The games of one chunk: their records (JSON Lines) and statistics.
struct ChunkOut {
    games: u64,
    lines: Vec<u8>,
    stats: Stats,
    decisions: u64,
}

/// A table reused for every game of a chunk.
struct Worker {
    oh7: Option<Oh7Game>,
    legal: Vec<<Oh7Game as Game>::Action>,
}

fn play_chunk(plan: &Plan, w: &mut Worker, from: u64, to: u64, write: bool) -> Result<ChunkOut> {
    let mut out = ChunkOut { games: to - from, lines: Vec::new(), stats: Stats::new(), decisions: 0 };
    let all_random = plan.bots.iter().all(|b| b == "random");
    for i in from..to {
        let s = game_seed(plan.seed, i);
        // The hot loop stays on each game's generic code: one arm per game, no dynamic calls.
        match &plan.spec {
            GameSpec::Oh7 { ruleset } => {
                let g = match &mut w.oh7 {
                    Some(g) => {
                        g.restart(s);
                        g
                    }
                    slot => {
                        let g = Oh7Game::new(*ruleset, plan.players, s)?;
                        slot.insert(g)
                    }
                };
                if all_random {
                    // The bitset fast path: the same distribution as `RandomBot` on every seat.
                    g.set_seat_names(vec!["bot:random".to_string(); plan.players]);
                    let mut rng = ChaCha8Rng::seed_from_u64(s ^ 0x5EED_B075);
                    out.decisions += random_oh7_game(g, &mut rng, &mut w.legal);
                } else {
                    let mut bots: Vec<Box<dyn Bot<Oh7Game>>> = plan
                        .bots
                        .iter()
                        .enumerate()
                        .map(|(p, l)| oh7_bot(l, game_seed(s, p as u64 + 1)))
                        .collect::<Result<_, String>>()
                        .map_err(|e| anyhow!(e))?;
                    g.set_seat_names(bots.iter().map(|b| b.name()).collect());
                    out.decisions += play_game(g, &mut bots, 10_000_000)?;
                }
                let rec = Record::from_game(g);
                if write {
                    serde_json::to_writer(&mut out.lines, &rec)?;
                    out.lines.push(b'\n');
                }
                out.stats.add_oh7(&rec);
            }
            GameSpec::Seven { rules } => {
                let mut g = SevenGame::new(rules.clone(), plan.players, s)?;
                let mut bots: Vec<Box<dyn Bot<SevenGame>>> = plan
                    .bots
                    .iter()
                    .enumerate()
                    .map(|(p, l)| seven_bot(l, game_seed(s, p as u64 + 1)))
                    .collect::<Result<_, String>>()
                    .map_err(|e| anyhow!(e))?;
                g.set_seat_names(bots.iter().map(|b| b.name()).collect())?;
                out.decisions += play_game(&mut g, &mut bots, 10_000_000)?;
                let rec = g.record();
                if write {
                    serde_json::to_writer(&mut out.lines, &rec)?;
                    out.lines.push(b'\n');
                }
                out.stats.add_value(&rec)?;
            }
        }
    }
    Ok(out)
}

fn progress_bar(games: u64, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(games);
    pb.set_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games, {rate}, {eta} left",
        )
        .expect("a valid template")
        .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0} games/s", s.per_sec());
        })
        .progress_chars("=> "),
    );
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

/// Play the games of `plan` on `plan.threads` threads, writing records to `record` (in game
/// order) if given; `label` names the run on the progress bar.
pub fn run(plan: &Plan, record: Option<&Path>, label: &str) -> Result<Outcome> {
    let out = match record {
        Some(p) => Some(BufWriter::with_capacity(
            1 << 20,
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => None,
    };
    let write = out.is_some();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(plan.threads).build().context("cannot start the threads")?;
    // Chunks of up to 64 games; at most `window` chunks are being played or waiting to be
    // written at any time (a token is taken to start a chunk and given back once it is written).
    let chunk = (plan.games / (plan.threads as u64 * 64)).clamp(1, 64);
    let chunks = plan.games.div_ceil(chunk);
    let window = plan.threads * 8;
    let pb = progress_bar(plan.games, true);
    if !label.is_empty() {
        pb.set_message(label.to_string());
    }
    let start = Instant::now();
    let (tx, rx) = channel::<(u64, Result<ChunkOut>)>();
    let (tok_tx, tok_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        tok_tx.send(()).expect("the receiver is alive");
    }
    let pbw = pb.clone();
    let writer = std::thread::spawn(move || -> Result<(Stats, u64)> {
        let mut out = out;
        let mut stats = Stats::new();
        let mut decisions = 0;
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        for (i, res) in rx {
            waiting.insert(i, res);
            while let Some(res) = waiting.remove(&next) {
                let c = res?;
                if let Some(f) = out.as_mut() {
                    f.write_all(&c.lines)?;
                }
                stats.merge(&c.stats);
                decisions += c.decisions;
                pbw.inc(c.games);
                next += 1;
                let _ = tok_tx.send(());
            }
        }
        if let Some(mut f) = out {
            f.flush()?;
        }
        Ok((stats, decisions))
    });
    let shared = Arc::new(plan.clone());
    for i in 0..chunks {
        if tok_rx.recv().is_err() {
            break; // the writer stopped on an error, reported below
        }
        let (tx, plan) = (tx.clone(), Arc::clone(&shared));
        pool.spawn(move || {
            let (a, b) = (i * chunk, ((i + 1) * chunk).min(plan.games));
            let mut w = Worker { oh7: None, legal: Vec::new() };
            let _ = tx.send((i, play_chunk(&plan, &mut w, a, b, write)));
        });
    }
    drop(tx);
    let written = writer.join().map_err(|_| anyhow!("the record writer panicked"))?;
    pb.finish_and_clear();
    let (stats, decisions) = written?;
    Ok(Outcome { stats, decisions, elapsed: start.elapsed() })
}

/// Run `oh7 simulate`.
pub fn simulate(a: &SimulateArgs) -> Result<()> {
    let plan = a.run.plan(a.rules.spec(a.game)?)?;
    let o = run(&plan, a.record.as_deref(), "")?;
    let secs = o.elapsed.as_secs_f64();
    let mut head = String::new();
    head.push_str(&format!(
        "{} games of {}, seed {}, {}, {} thread(s), in {:.2} s ({:.0} games/s, {} decisions)\n",
        plan.games,
        plan.title(),
        plan.seed,
        plan.bots_text(),
        plan.threads,
        secs,
        plan.games as f64 / secs,
        o.decisions
    ));
    if let Some(p) = &a.record {
        head.push_str(&format!("records written to {}\n", p.display()));
    }
    if let Some(dir) = &a.plot {
        let files = oh7_stats::plot::write_charts(&o.stats, dir).map_err(|e| anyhow!(e))?;
        head.push_str(&format!("{} charts written to {} (PNG and SVG)\n", files.len() / 2, dir.display()));
    }
    let report = o.stats.report();
    if a.json || a.csv {
        eprint!("{head}");
        if a.json {
            println!("{}", serde_json::to_string_pretty(&report.to_json())?);
        } else {
            print!("{}", report.to_csv());
        }
    } else {
        print!("{head}");
        println!();
        print!("{}", report.to_text());
    }
    Ok(())
}

/// Read a file of records and return their statistics (`oh7 stats`).
pub fn stats_of_file(path: &Path) -> Result<Stats> {
    use std::io::BufRead;
    let f = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let reader = std::io::BufReader::with_capacity(1 << 20, f);
    let mut stats = Stats::new();
    // Parse in parallel batches of lines (line number, text); merging is order-independent.
    let flush = |batch: &mut Vec<(usize, Vec<u8>)>, stats: &mut Stats| -> Result<()> {
        let part = batch
            .par_iter()
            .try_fold(Stats::new, |mut s, (no, l)| {
                let l = std::str::from_utf8(l).map_err(|_| anyhow!("{}:{no}: not UTF-8 text", path.display()))?;
                s.add_checked_line(l).map_err(|e| anyhow!("{}:{no}: {e}", path.display()))?;
                Ok::<_, anyhow::Error>(s)
            })
            .try_reduce(Stats::new, |mut a, b| {
                a.merge(&b);
                Ok(a)
            })?;
        stats.merge(&part);
        batch.clear();
        Ok(())
    };
    let mut batch = Vec::with_capacity(4096);
    for (i, line) in reader.split(b'\n').enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if !line.trim_ascii().is_empty() {
            batch.push((i + 1, line));
        }
        if batch.len() == 4096 {
            flush(&mut batch, &mut stats)?;
        }
    }
    flush(&mut batch, &mut stats)?;
    Ok(stats)
}

/// Run `oh7 stats FILE`.
pub fn stats_command(file: &Path, json: bool, csv: bool, plot: Option<&Path>) -> Result<()> {
    let stats = stats_of_file(file)?;
    if stats.games() == 0 {
        bail!("{} holds no records", file.display());
    }
    let report = stats.report();
    if json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else if csv {
        print!("{}", report.to_csv());
    } else {
        println!("{} records read from {}", stats.games(), file.display());
        println!();
        print!("{}", report.to_text());
    }
    if let Some(dir) = plot {
        let files = oh7_stats::plot::write_charts(&stats, dir).map_err(|e| anyhow!(e))?;
        eprintln!("{} charts written to {} (PNG and SVG)", files.len() / 2, dir.display());
    }
    Ok(())
}

/// A rules argument of `compare`: a preset name or a TOML file.
fn rules_of(spec: &str) -> Result<Ruleset> {
    if let Ok(p) = spec.parse::<oh7_core::ruleset::Preset>() {
        return Ok(Ruleset::preset(p));
    }
    let path = Path::new(spec);
    if !path.exists() {
        bail!("`{spec}` is neither a preset (en, fr, fr-advanced, kod7, bga) nor a ruleset file");
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let r = Ruleset::from_toml(&text).with_context(|| format!("in {}", path.display()))?;
    r.validate()?;
    Ok(r)
}

/// Run `oh7 compare A B`.
pub fn compare(a: &CompareArgs) -> Result<()> {
    let plan_a =
        a.run.plan(GameSpec::Oh7 { ruleset: rules_of(&a.a)? }).with_context(|| format!("rules A ({})", a.a))?;
    let plan_b =
        a.run.plan(GameSpec::Oh7 { ruleset: rules_of(&a.b)? }).with_context(|| format!("rules B ({})", a.b))?;
    let oa = run(&plan_a, None, &format!("A: {}", a.a))?;
    let ob = run(&plan_b, None, &format!("B: {}", a.b))?;
    let (ra, rb) = (oa.stats.report(), ob.stats.report());
    let diffs = oh7_stats::compare(&ra, &rb);
    let head = format!(
        "A: {} ({}), B: {} ({}); {} games each with {} players, same seeds from {}, {}; {:.1} s + {:.1} s\n\
         B - A with its 95% interval (normal approximation, games treated as independent); * = the interval excludes 0\n",
        a.a,
        plan_a.title(),
        a.b,
        plan_b.title(),
        plan_a.games,
        plan_a.players,
        plan_a.seed,
        plan_a.bots_text(),
        oa.elapsed.as_secs_f64(),
        ob.elapsed.as_secs_f64()
    );
    if a.json {
        eprint!("{head}");
        println!("{}", serde_json::to_string_pretty(&diffs)?);
    } else if a.csv {
        eprint!("{head}");
        print!("{}", oh7_stats::report::compare_csv(&diffs));
    } else {
        print!("{head}");
        println!();
        print!("{}", oh7_stats::report::compare_text(&diffs, &a.a, &a.b));
    }
    Ok(())
}
