//! Simulated oh7 games on every core (`oh7 simulate`, `oh7 compare`): the plan of a run, its
//! shards, and the sinks its games go to.
//!
//! What it is for: [`run`] plays the games of a [`Plan`] (or of one [`Shard`] of it) on a rayon
//! pool and hands them, **in game order**, to [`Sink`]s: [`JsonLines`] writes the records, and
//! the statistics ([`oh7_stats::Stats`]) are always kept. Game `i` of a run always has the seed
//! [`game_seed`]`(seed, i)` and its bots are seeded from it, so a run's results depend neither on
//! the number of threads nor on how it is cut into shards: shard `I/N` plays games
//! `[games·I/N, games·(I+1)/N)` with the seeds the one-process run gives them. A shard's records
//! file starts with a [`RunHeader`] line; [`stats_of_files`] reads any number of record files,
//! checks that shards of one run are all there once and from the same run, and merges their
//! statistics exactly (every sum is an integer, so the merge equals the one-process run).
//!
//! What it is not: no command line, no progress display, no clock beyond the run's elapsed
//! time; the `oh7` binary wires those.
//!
//! Parallel plan: games are cut into chunks (up to 64 games) played as tasks of a rayon pool; a
//! writer thread puts finished chunks back in game order and gives them to the sinks. A chunk
//! starts only when fewer than 8 per thread are in flight or waiting, so memory does not grow
//! with the number of games.

pub mod files;
pub mod parquet;
pub mod tournament;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::mpsc::{channel, sync_channel};
use std::time::{Duration, Instant};

use oh7_bots::{Bot, BotLevel, GameBots, GameSpec, Level, oh7_bot_of, play_game, random_oh7_game, seven_bot_of};
use oh7_core::game::Game;
use oh7_core::oh7::{Oh7Game, Record};
use oh7_core::seven::SevenGame;
use oh7_stats::Stats;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a run or a read failed.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The plan does not make sense (players, bots, games, threads, shard).
    #[error("{0}")]
    Plan(String),
    /// A file could not be opened.
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of a records file is not a record that replays.
    #[error("{path}:{line}: {why}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// Shard files that do not make one whole run.
    #[error("{0}")]
    Shards(String),
    /// A game could not be played (a bug: the plan was checked).
    #[error("game {game}: {why}")]
    Game {
        /// The game's index in the run.
        game: u64,
        /// What went wrong.
        why: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SimError + '_ {
    move |source| SimError::Io { path: path.to_path_buf(), source }
}

/// The seed of game `i` of a run: a SplitMix64 step, so neighbouring games are unrelated.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Shard `index` of `count` (`I/N` on the command line, `0 <= I < N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which one, from 0.
    pub index: u64,
    /// How many in all.
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("a shard is I/N with 0 <= I < N, e.g. 0/4 (got `{s}`)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The items `[from, to)` of `total` that this shard takes (the shards of one run cover
    /// `0..total` once, in order, each within one item of the others' size).
    pub fn range(&self, total: u64) -> (u64, u64) {
        let at = |k: u64| ((total as u128 * k as u128) / self.count as u128) as u64;
        (at(self.index), at(self.index + 1))
    }
}

/// A fully described run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game and its rules.
    pub spec: GameSpec,
    /// Players.
    pub players: usize,
    /// Games of the whole run (all shards).
    pub games: u64,
    /// First seed.
    pub seed: u64,
    /// One bot per seat, read once from the command line.
    pub bots: Vec<BotLevel>,
    /// Whether the levels were left to the default.
    pub default_bots: bool,
    /// Worker threads.
    pub threads: usize,
    /// The part of the run this process plays (`None`: all of it).
    pub shard: Option<Shard>,
}

fn default_level(spec: &GameSpec) -> Level {
    if spec.offers(Level::Heuristic) { Level::Heuristic } else { Level::Random }
}

impl Plan {
    /// Check a run's settings and build its plan: `bots` is one level for every seat or one
    /// per seat, comma-separated (`None`: `heuristic` where offered, else `random`); `threads`
    /// `None` uses every core.
    pub fn new(
        spec: GameSpec,
        players: usize,
        games: u64,
        seed: u64,
        bots: Option<&str>,
        threads: Option<usize>,
    ) -> Result<Plan, SimError> {
        let plan = |m: String| SimError::Plan(m);
        spec.check_players(players).map_err(|e| plan(e.to_string()))?;
        if games == 0 {
            return Err(plan("--games must be at least 1".into()));
        }
        let (bots, default_bots) = match bots {
            None => (vec![BotLevel::Level(default_level(&spec)); players], true),
            Some(text) => {
                let v: Vec<BotLevel> = text
                    .split(',')
                    .map(|s| spec.parse_level(&s.trim().to_ascii_lowercase()))
                    .collect::<Result<_, _>>()
                    .map_err(|e| plan(e.to_string()))?;
                let v = match v.len() {
                    1 => vec![v[0].clone(); players],
                    n if n == players => v,
                    n => {
                        return Err(plan(format!(
                            "--bots names {n} levels for {players} players: give one level, or one per seat"
                        )));
                    }
                };
                (v, false)
            }
        };
        for l in &bots {
            spec.bot_level(l, 0).map_err(|e| plan(e.to_string()))?;
        }
        let threads = match threads {
            Some(0) => return Err(plan("--threads must be at least 1".into())),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(Plan { spec, players, games, seed, bots, default_bots, threads, shard: None })
    }

    /// The same plan, playing only `shard`'s part.
    pub fn with_shard(mut self, shard: Option<Shard>) -> Result<Plan, SimError> {
        if let Some(s) = shard
            && s.count > self.games
        {
            return Err(SimError::Plan(format!(
                "{} shards for {} games: some shards would have no game",
                s.count, self.games
            )));
        }
        self.shard = shard;
        Ok(self)
    }

    /// The games `[from, to)` this process plays.
    pub fn range(&self) -> (u64, u64) {
        self.shard.map_or((0, self.games), |s| s.range(self.games))
    }

    /// `bots: heuristic on every seat (the default)` or `bots: random, heuristic, …`.
    pub fn bots_text(&self) -> String {
        let all_same = self.bots.iter().all(|b| *b == self.bots[0]);
        let names = if all_same {
            format!("{} on every seat", self.bots[0])
        } else {
            self.bots.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        };
        if self.default_bots { format!("bots: {names} (the default)") } else { format!("bots: {names}") }
    }

    /// `en with 4 players`, `seven with 3 players`.
    pub fn title(&self) -> String {
        let dummy = self.spec.ruleset().is_some_and(|r| r.uses_dummy(self.players));
        let dummy = if dummy { " (with the Dummy)" } else { "" };
        format!("{} with {} players{dummy}", self.spec.label(), self.players)
    }

    /// The header line of a shard's records file (`None` for a whole run).
    pub fn header(&self) -> Option<RunHeader> {
        let s = self.shard?;
        let (from, to) = self.range();
        Some(RunHeader {
            oh7_shard: 1,
            spec: self.spec.clone(),
            players: self.players,
            seed: self.seed,
            bots: self.bots.iter().map(ToString::to_string).collect(),
            games: self.games,
            shard: s.index,
            of: s.count,
            from,
            to,
        })
    }
}

/// The first line of a shard's records file: which run it belongs to and which part of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunHeader {
    /// The header's format (1).
    pub oh7_shard: u32,
    /// The game and its rules.
    pub spec: GameSpec,
    /// Players.
    pub players: usize,
    /// The run's seed.
    pub seed: u64,
    /// The bots, one per seat.
    pub bots: Vec<String>,
    /// Games of the whole run.
    pub games: u64,
    /// This shard, from 0.
    pub shard: u64,
    /// Shards in all.
    pub of: u64,
    /// Its first game.
    pub from: u64,
    /// One past its last game.
    pub to: u64,
}

/// One game's record, as the engine made it.
pub enum Rec {
    /// An Oh 7 family game.
    Oh7(Box<Record>),
    /// A Seven game (its record as JSON).
    Seven(Value),
}

/// Games handed to the sinks together, in game order.
pub struct Chunk {
    /// The index of its first game in the run.
    pub first: u64,
    /// Its games' records (empty unless a sink asked for them: [`Sink::wants_records`]).
    pub records: Vec<Rec>,
    /// Its games' records as JSON Lines (empty unless a sink asked: [`Sink::wants_json`]).
    pub json: Vec<u8>,
    /// Games in it.
    pub games: u64,
}

/// Where a run's games go, in game order, from the run's writer thread.
pub trait Sink: Send {
    /// Whether it needs each chunk's records as JSON Lines (made on the worker threads).
    fn wants_json(&self) -> bool {
        false
    }
    /// Whether it needs each chunk's typed records.
    fn wants_records(&self) -> bool {
        false
    }
    /// Take the next chunk.
    fn chunk(&mut self, c: &Chunk) -> Result<(), SimError>;
    /// The run is over: flush.
    fn finish(&mut self) -> Result<(), SimError>;
}

/// Records as JSON Lines, one game per line in game order, after a [`RunHeader`] line for a
/// shard.
pub struct JsonLines {
    out: files::Writer,
}

impl JsonLines {
    /// Create (or truncate) `path`, compressed if its name ends in `.gz` or `.zst` (before a
    /// `.part`, if any); a shard's header goes first.
    pub fn create(path: &Path, header: Option<&RunHeader>) -> Result<JsonLines, SimError> {
        let mut out = files::Writer::create(path)?;
        if let Some(h) = header {
            let mut line = serde_json::to_vec(h).map_err(|e| SimError::Io { path: path.into(), source: e.into() })?;
            line.push(b'\n');
            out.write_all(&line)?;
        }
        Ok(JsonLines { out })
    }
}

impl Sink for JsonLines {
    fn wants_json(&self) -> bool {
        true
    }
    fn chunk(&mut self, c: &Chunk) -> Result<(), SimError> {
        self.out.write_all(&c.json)
    }
    fn finish(&mut self) -> Result<(), SimError> {
        self.out.finish()
    }
}

/// What a run found.
pub struct Outcome {
    /// The statistics of every game played.
    pub stats: Stats,
    /// Decisions made (bets, plays, choices, turns).
    pub decisions: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// A chunk as played, before the sinks.
struct Played {
    chunk: Chunk,
    stats: Stats,
    decisions: u64,
}

/// A table reused for every game of a chunk.
struct Worker {
    oh7: Option<Oh7Game>,
    legal: Vec<<Oh7Game as Game>::Action>,
}

fn play_chunk(plan: &Plan, w: &mut Worker, from: u64, to: u64, json: bool, keep: bool) -> Result<Played, SimError> {
    let mut out = Played {
        chunk: Chunk { first: from, records: Vec::new(), json: Vec::new(), games: to - from },
        stats: Stats::new(),
        decisions: 0,
    };
    let all_random = plan.bots.iter().all(|b| *b == BotLevel::Level(Level::Random));
    for i in from..to {
        let s = game_seed(plan.seed, i);
        let fail = |why: String| SimError::Game { game: i, why };
        // The hot loop stays on each game's generic code: one arm per game, no dynamic calls.
        match &plan.spec {
            GameSpec::Oh7 { ruleset } => {
                let g = match &mut w.oh7 {
                    Some(g) => {
                        g.restart(s);
                        g
                    }
                    slot => {
                        let g = Oh7Game::new(*ruleset, plan.players, s).map_err(|e| fail(e.to_string()))?;
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
                        .map(|(p, l)| oh7_bot_of(l, game_seed(s, p as u64 + 1)))
                        .collect::<Result<_, oh7_bots::BotError>>()
                        .map_err(|e| fail(e.to_string()))?;
                    g.set_seat_names(bots.iter().map(|b| b.name()).collect());
                    out.decisions += play_game(g, &mut bots, 10_000_000).map_err(|e| fail(e.to_string()))?;
                }
                let rec = Record::from_game(g);
                if json {
                    serde_json::to_writer(&mut out.chunk.json, &rec).map_err(|e| fail(e.to_string()))?;
                    out.chunk.json.push(b'\n');
                }
                out.stats.add_oh7(&rec);
                if keep {
                    out.chunk.records.push(Rec::Oh7(Box::new(rec)));
                }
            }
            GameSpec::Seven { rules } => {
                let mut g = SevenGame::new(rules.clone(), plan.players, s).map_err(|e| fail(e.to_string()))?;
                let mut bots: Vec<Box<dyn Bot<SevenGame>>> = plan
                    .bots
                    .iter()
                    .enumerate()
                    .map(|(p, l)| seven_bot_of(l, game_seed(s, p as u64 + 1)))
                    .collect::<Result<_, oh7_bots::BotError>>()
                    .map_err(|e| fail(e.to_string()))?;
                g.set_seat_names(bots.iter().map(|b| b.name()).collect()).map_err(|e| fail(e.to_string()))?;
                out.decisions += play_game(&mut g, &mut bots, 10_000_000).map_err(|e| fail(e.to_string()))?;
                let rec = g.record();
                if json {
                    serde_json::to_writer(&mut out.chunk.json, &rec).map_err(|e| fail(e.to_string()))?;
                    out.chunk.json.push(b'\n');
                }
                out.stats.add_value(&rec).map_err(|e| fail(e.to_string()))?;
                if keep {
                    out.chunk.records.push(Rec::Seven(rec));
                }
            }
        }
    }
    Ok(out)
}

/// Play the games of `plan` (its shard's, if it has one) on `plan.threads` threads, giving
/// them to `sinks` in game order; `progress` is told the games done so far, after each chunk.
pub fn run(plan: &Plan, sinks: &mut [Box<dyn Sink>], progress: &(dyn Fn(u64) + Sync)) -> Result<Outcome, SimError> {
    let json = sinks.iter().any(|s| s.wants_json());
    let keep = sinks.iter().any(|s| s.wants_records());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .map_err(|e| SimError::Plan(format!("cannot start the threads: {e}")))?;
    let (from, to) = plan.range();
    let games = to - from;
    // Chunks of up to 64 games; at most `window` chunks are being played or waiting to be
    // given to the sinks at any time (a token is taken to start one, given back once written).
    let chunk = (games / (plan.threads as u64 * 64)).clamp(1, 64);
    let chunks = games.div_ceil(chunk);
    let window = plan.threads * 8;
    let start = Instant::now();
    let (tx, rx) = channel::<(u64, Result<Played, SimError>)>();
    let (tok_tx, tok_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        tok_tx.send(()).expect("the receiver is alive");
    }
    let shared = Arc::new(plan.clone());
    let written = std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<(Stats, u64), SimError> {
            let mut stats = Stats::new();
            let mut decisions = 0;
            let mut done = 0;
            let mut waiting = BTreeMap::new();
            let mut next = 0u64;
            for (i, res) in rx {
                waiting.insert(i, res);
                while let Some(res) = waiting.remove(&next) {
                    let p = res?;
                    for s in sinks.iter_mut() {
                        s.chunk(&p.chunk)?;
                    }
                    stats.merge(&p.stats);
                    decisions += p.decisions;
                    done += p.chunk.games;
                    progress(done);
                    next += 1;
                    let _ = tok_tx.send(());
                }
            }
            for s in sinks.iter_mut() {
                s.finish()?;
            }
            Ok((stats, decisions))
        });
        for i in 0..chunks {
            if tok_rx.recv().is_err() {
                break; // the writer stopped on an error, reported below
            }
            let (tx, plan) = (tx.clone(), Arc::clone(&shared));
            pool.spawn(move || {
                let (a, b) = (from + i * chunk, (from + (i + 1) * chunk).min(to));
                let mut w = Worker { oh7: None, legal: Vec::new() };
                let _ = tx.send((i, play_chunk(&plan, &mut w, a, b, json, keep)));
            });
        }
        drop(tx);
        writer.join().map_err(|_| SimError::Plan("the writer thread panicked".into()))
    })?;
    let (stats, decisions) = written?;
    Ok(Outcome { stats, decisions, elapsed: start.elapsed() })
}

/// What [`stats_of_files`] read.
pub struct Read {
    /// The statistics of every record.
    pub stats: Stats,
    /// The run, when the files were its shards (all of them, checked).
    pub run: Option<RunHeader>,
    /// Records read.
    pub records: u64,
}

/// The header of a records file, if its first line is one.
pub(crate) fn header_of(path: &Path) -> Result<Option<RunHeader>, SimError> {
    // Bytes, not text: a first line that is not UTF-8 is the record reader's to report (with its
    // line number), not a header.
    let first = files::first_line(path)?;
    if !first.windows(11).any(|w| w == b"\"oh7_shard\"") {
        return Ok(None);
    }
    serde_json::from_slice(first.trim_ascii()).map(Some).map_err(|e| SimError::Line {
        path: path.into(),
        line: 1,
        why: format!("not a shard header: {e}"),
    })
}

/// Read records files (JSON Lines; each record must replay through the engine) and merge their
/// statistics. Shard files (a [`RunHeader`] first) must be every shard of one run, each once,
/// each with all its games: a missing, repeated, truncated or foreign shard is an error that
/// names it. Files without a header are simply added together. `progress` gets records read.
pub fn stats_of_files(paths: &[PathBuf], progress: &(dyn Fn(u64) + Sync)) -> Result<Read, SimError> {
    let mut headers = Vec::new();
    for p in paths {
        headers.push(header_of(p)?);
    }
    let run = check_shards(paths, &headers, true)?;
    let mut stats = Stats::new();
    let mut records = 0;
    let mut spare = Vec::new();
    for (p, h) in paths.iter().zip(&headers) {
        let (s, n) = stats_of_file(p, h.is_some(), &|n| progress(records + n), &mut spare)?;
        if let Some(h) = h
            && n != h.to - h.from
        {
            return Err(SimError::Shards(format!(
                "{}: shard {} of {} should hold {} games (games {} to {}) but holds {n}: an unfinished or cut file",
                p.display(),
                h.shard,
                h.of,
                h.to - h.from,
                h.from,
                h.to - 1
            )));
        }
        stats.merge(&s);
        records += n;
    }
    Ok(Read { stats, run, records })
}

/// One part of a run cut into shards, as a file says: which run (its identity: everything that
/// must be equal between the parts), and which part.
pub struct Part<'a> {
    /// The file.
    pub path: &'a Path,
    /// The run's identity (game, rules, players, bots, seed, total, shard count…).
    pub run: Value,
    /// Which shard.
    pub index: u64,
    /// Shards in all.
    pub count: u64,
}

/// Parts make one whole run: the same run, every shard once. Errors name the files.
pub fn check_parts(parts: &[Part<'_>]) -> Result<(), SimError> {
    check_some_parts(parts)?;
    let p0 = &parts[0];
    let missing: Vec<String> =
        (0..p0.count).filter(|i| !parts.iter().any(|p| p.index == *i)).map(|i| i.to_string()).collect();
    if !missing.is_empty() {
        return Err(SimError::Shards(format!(
            "shard(s) {} of {} missing (given: {})",
            missing.join(", "),
            p0.count,
            parts.iter().map(|p| p.path.display().to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(())
}

/// Parts of one run, each shard at most once (some may be missing). Errors name the files.
fn check_some_parts(parts: &[Part<'_>]) -> Result<(), SimError> {
    let Some(p0) = parts.first() else { return Err(SimError::Shards("no shard given".into())) };
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    for p in parts {
        if p.run != p0.run {
            return Err(SimError::Shards(format!(
                "{} is a shard of another run than {} (they differ in: {})",
                p.path.display(),
                p0.path.display(),
                differences(&p0.run, &p.run)
            )));
        }
        if p.index >= p.count {
            return Err(SimError::Shards(format!(
                "{}: shard {} of {} does not exist",
                p.path.display(),
                p.index,
                p.count
            )));
        }
        if let Some(other) = seen.insert(p.index, p.path) {
            return Err(SimError::Shards(format!(
                "shard {} of {} is given twice: {} and {}",
                p.index,
                p.count,
                other.display(),
                p.path.display()
            )));
        }
    }
    Ok(())
}

/// The top-level fields where two run identities differ, with both values when short.
fn differences(a: &Value, b: &Value) -> String {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else { return "everything".into() };
    let mut d = Vec::new();
    for (k, va) in a {
        let vb = b.get(k).unwrap_or(&Value::Null);
        if va != vb {
            let (ta, tb) = (va.to_string(), vb.to_string());
            if ta.len() + tb.len() <= 60 { d.push(format!("{k} {ta} and {tb}")) } else { d.push(k.clone()) }
        }
    }
    d.join("; ")
}

/// Shard files make one whole run (or none has a header); with `whole` false, some of the run's
/// shards, each once (an export of part of a run).
pub(crate) fn check_shards(
    paths: &[PathBuf],
    headers: &[Option<RunHeader>],
    whole: bool,
) -> Result<Option<RunHeader>, SimError> {
    let Some(first) = headers.iter().position(Option::is_some) else { return Ok(None) };
    let h0 = headers[first].clone().expect("a header");
    let mut parts = Vec::new();
    for (p, h) in paths.iter().zip(headers) {
        let Some(h) = h else {
            return Err(SimError::Shards(format!(
                "{} has no shard header, but {} is shard {} of a run: give the shards of one run only",
                p.display(),
                paths[first].display(),
                h0.shard
            )));
        };
        let expect = Shard { index: h.shard, count: h.of.max(1) }.range(h.games);
        if h.shard < h.of && (h.from, h.to) != expect {
            return Err(SimError::Shards(format!(
                "{}: its header's games do not match shard {}/{}",
                p.display(),
                h.shard,
                h.of
            )));
        }
        let mut run = serde_json::to_value(h).map_err(|e| SimError::Shards(e.to_string()))?;
        if let Some(o) = run.as_object_mut() {
            for k in ["shard", "from", "to"] {
                o.remove(k);
            }
        }
        parts.push(Part { path: p, run, index: h.shard, count: h.of });
    }
    if whole {
        check_parts(&parts)?
    } else {
        check_some_parts(&parts)?
    };
    Ok(Some(RunHeader { shard: 0, from: 0, to: h0.games, ..h0 }))
}

/// Lines read together: a batch is parsed and replayed in parallel while the next is read.
const BATCH: usize = 256;

/// A batch of lines: their text end to end, where each ends, and each one's line number.
#[derive(Default)]
struct Lines {
    text: Vec<u8>,
    ends: Vec<usize>,
    numbers: Vec<usize>,
}

/// Batches in use at once: one being filled, two waiting, one being replayed.
const BATCHES: usize = 4;

/// Read `reader`'s non-blank lines (after its header line, if `header`) in batches into `tx`,
/// on its own thread, so that reading and decompressing overlap the replay. Lines are read
/// straight into the batch, and each next batch is a spare one (left from the files before) or,
/// once [`BATCHES`] exist, one the replay is done with: its memory already mapped and as large
/// as needed (growing fresh ones was a tenth of a merge's time, the kernel zeroing new pages).
/// Gives back the spare batches and the channel the replay gives batches back on.
fn read_batches(
    path: &Path,
    mut reader: Box<dyn BufRead + Send>,
    header: bool,
    tx: std::sync::mpsc::SyncSender<Result<Lines, SimError>>,
    recycled: std::sync::mpsc::Receiver<Lines>,
    mut spare: Vec<Lines>,
) -> (Vec<Lines>, std::sync::mpsc::Receiver<Lines>) {
    let mut made = spare.len().max(1);
    let mut batch = spare.pop().unwrap_or_default();
    let mut no = 0usize;
    loop {
        let start = batch.text.len();
        match reader.read_until(b'\n', &mut batch.text) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                // Mid-file: a cut or corrupt file (a compressed one ends without its trailer).
                let why = format!("cannot read on after {} lines: {e} (a cut or corrupt file?)", no);
                let _ = tx.send(Err(SimError::Line { path: path.into(), line: no + 1, why }));
                return (spare, recycled);
            }
        }
        no += 1;
        if (header && no == 1) || batch.text[start..].trim_ascii().is_empty() {
            batch.text.truncate(start);
            continue;
        }
        batch.ends.push(batch.text.len());
        batch.numbers.push(no);
        if batch.ends.len() == BATCH {
            let next = match spare.pop() {
                Some(b) => b,
                None if made < BATCHES => {
                    made += 1;
                    let mut fresh = Lines::default();
                    fresh.text.reserve(batch.text.len() + batch.text.len() / 4);
                    fresh
                }
                None => match recycled.recv() {
                    Ok(b) => b,
                    // The replay stopped (a bad line): it says why.
                    Err(_) => return (spare, recycled),
                },
            };
            if tx.send(Ok(std::mem::replace(&mut batch, next))).is_err() {
                return (spare, recycled);
            }
        }
    }
    if batch.ends.is_empty() {
        spare.push(batch);
    } else {
        let _ = tx.send(Ok(batch));
    }
    (spare, recycled)
}

/// One records file's statistics and record count (after its header line, if `header`);
/// `spare` holds the batches of the files before, and then this file's.
fn stats_of_file(
    path: &Path,
    header: bool,
    progress: &(dyn Fn(u64) + Sync),
    spare: &mut Vec<Lines>,
) -> Result<(Stats, u64), SimError> {
    let reader = files::open(path)?;
    let mut stats = Stats::new();
    let mut count = 0u64;
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel(2);
        let (back, recycled) = channel::<Lines>();
        let batches = std::mem::take(spare);
        let reading = scope.spawn(move || read_batches(path, reader, header, tx, recycled, batches));
        for batch in rx {
            let mut batch = batch?;
            // Parse and replay the batch's lines in parallel; merging is order-independent.
            let part = (0..batch.ends.len())
                .into_par_iter()
                .try_fold(Stats::new, |mut s, i| {
                    let start = if i == 0 { 0 } else { batch.ends[i - 1] };
                    let l = &batch.text[start..batch.ends[i]];
                    if s.add_written_line(l) {
                        return Ok(s);
                    }
                    let line_err = |why: String| SimError::Line { path: path.into(), line: batch.numbers[i], why };
                    let l = std::str::from_utf8(l).map_err(|_| line_err("not UTF-8 text".into()))?;
                    s.add_checked_line(l).map_err(|e| line_err(e.to_string()))?;
                    Ok::<_, SimError>(s)
                })
                .try_reduce(Stats::new, |mut a, b| {
                    a.merge(&b);
                    Ok(a)
                })?;
            stats.merge(&part);
            count += batch.ends.len() as u64;
            progress(count);
            batch.text.clear();
            batch.ends.clear();
            batch.numbers.clear();
            let _ = back.send(batch);
        }
        // The reader has ended (its channel closed): its batches and the ones given back are
        // the next file's.
        if let Ok((batches, recycled)) = reading.join() {
            *spare = batches;
            spare.extend(recycled.try_iter());
        }
        Ok::<_, SimError>(())
    })?;
    progress(count);
    Ok((stats, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_in_order() {
        for total in [1u64, 7, 100, 1001] {
            for n in 1..=total.min(9) {
                let mut next = 0;
                for i in 0..n {
                    let (a, b) = Shard { index: i, count: n }.range(total);
                    assert_eq!(a, next);
                    assert!(b - a >= total / n && b - a <= total / n + 1);
                    next = b;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn shard_text() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard { index: 2, count: 4 });
        for bad in ["4/4", "1/0", "x/2", "3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
