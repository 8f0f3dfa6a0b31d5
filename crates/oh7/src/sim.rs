//! `oh7 simulate`, `oh7 stats` and `oh7 compare`: the command lines of `oh7-sim` (the run on
//! every core, its shards and sinks) and `oh7-stats` (statistics, charts), and their progress
//! display.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use oh7_bots::GameSpec;
use oh7_core::ruleset::Ruleset;
use oh7_sim::parquet::{ParquetSink, Table};
use oh7_sim::{JsonLines, Plan, Shard, Sink};

use crate::{GameArgs, parse_seed};

/// Arguments of `oh7 simulate`.
#[derive(Args, Debug)]
pub(crate) struct SimulateArgs {
    /// The game (`--game`) and its rules.
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    run: RunArgs,
    /// Write every game's record to this file (JSON Lines, one game per line, in game order;
    /// a shard's file starts with a line naming its run and part); compressed when the name ends
    /// in .zst (about 7 times smaller, as fast) or .gz (8 times, slower to write).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Also write one row per seat per round to this Parquet file (schema: docs/records.md,
    /// "Parquet rows"); game ids are the games' indices in the run.
    #[arg(long, value_name = "FILE")]
    parquet: Option<PathBuf>,
    /// Also write one row per scored round, with its context (hand size, trump, bet cards,
    /// trumps dealt...), to this Parquet file (schema: docs/records.md, "Parquet rounds"; the
    /// Oh 7 family only).
    #[arg(long, value_name = "FILE")]
    rounds_parquet: Option<PathBuf>,
    /// Play only shard I of N of the run (0 <= I < N): exactly the games, with the same seeds,
    /// that the one-process run gives that part. Needs --record; merge the shards' files with
    /// `oh7 stats FILES...` (docs/scale-out.md).
    #[arg(long, value_name = "I/N", requires = "record")]
    shard: Option<Shard>,
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
pub(crate) struct RunArgs {
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
pub(crate) struct CompareArgs {
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

impl RunArgs {
    /// Check the arguments and build the plan of a run.
    pub(crate) fn plan(&self, spec: GameSpec) -> Result<Plan> {
        Ok(Plan::new(spec, self.players, self.games, self.seed, self.bots.as_deref(), self.threads)?)
    }
}

/// Progress of long work on stderr: a bar on a terminal; elsewhere (a scheduler's log, a pipe)
/// a plain line every 10 seconds and one at the end, so logs stay readable.
pub(crate) struct Progress {
    bar: ProgressBar,
    /// Plain lines: (start, last line, the end was printed).
    plain: Option<Mutex<(Instant, Instant, bool)>>,
    total: u64,
    what: &'static str,
    label: String,
}

impl Progress {
    /// Progress over `total` items called `what` (`games`, `records`, `deals`).
    pub(crate) fn new(total: u64, what: &'static str, label: &str) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            let pb = ProgressBar::new(total);
            let template = format!(
                "{{spinner}} {{elapsed_precise}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {what}, {{rate}}, {{eta}} left {{msg}}"
            );
            pb.set_style(
                ProgressStyle::with_template(&template)
                    .expect("a valid template")
                    .with_key("rate", move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} {what}/s", s.per_sec());
                    })
                    .progress_chars("=> "),
            );
            pb.enable_steady_tick(Duration::from_millis(200));
            if !label.is_empty() {
                pb.set_message(label.to_string());
            }
            pb
        } else {
            ProgressBar::hidden()
        };
        let now = Instant::now();
        Progress {
            bar,
            plain: (!terminal).then(|| Mutex::new((now, now, false))),
            total,
            what,
            label: label.to_string(),
        }
    }

    /// `done` items so far.
    pub(crate) fn set(&self, done: u64) {
        self.bar.set_position(done);
        if let Some(m) = &self.plain {
            let mut t = m.lock().unwrap_or_else(|e| e.into_inner());
            let end = done == self.total && self.total > 0;
            // The last line once, however often the end is reported.
            let print = if end { !t.2 } else { t.1.elapsed() >= Duration::from_secs(10) };
            if print {
                t.2 |= end;
                t.1 = Instant::now();
                let secs = t.0.elapsed().as_secs_f64();
                let rate = done as f64 / secs.max(1e-9);
                let label = if self.label.is_empty() { String::new() } else { format!("{}: ", self.label) };
                eprintln!(
                    "{label}{done}/{} {} ({:.0}%), {secs:.0} s, {rate:.0} {}/s",
                    self.total,
                    self.what,
                    100.0 * done as f64 / self.total.max(1) as f64,
                    self.what
                );
            }
        }
    }

    /// Done: the bar goes.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Refuse outputs that are one another or one of the inputs (an export over its own records, a
/// record and a Parquet table to the same name), before anything is written.
fn check_outputs(inputs: &[PathBuf], outputs: &[(&str, &Path)]) -> Result<()> {
    let same =
        |p: &Path| std::fs::canonicalize(p).or_else(|_| std::path::absolute(p)).unwrap_or_else(|_| p.to_path_buf());
    let ins: Vec<PathBuf> = inputs.iter().map(|p| same(p)).collect();
    for (i, (flag, out)) in outputs.iter().enumerate() {
        let o = same(out);
        if let Some(k) = ins.iter().position(|x| *x == o) {
            bail!("{flag} {} is the input file {}: give another output name", out.display(), inputs[k].display());
        }
        if let Some((other, _)) = outputs[..i].iter().find(|(_, p)| same(p) == o) {
            bail!("{flag} and {other} are the same file ({}): give each its own name", out.display());
        }
    }
    Ok(())
}

/// Refuse an output file whose folder does not exist, before any work that would be lost
/// (the file itself is written at the end).
pub(crate) fn check_out_folder(flag: &str, out: &Path) -> Result<()> {
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        bail!("{flag} {}: the folder {} does not exist", out.display(), dir.display());
    }
    Ok(())
}

/// Where a run's games go: records, and Parquet tables.
#[derive(Default)]
struct Outputs<'a> {
    record: Option<&'a Path>,
    parquet: Option<&'a Path>,
    rounds_parquet: Option<&'a Path>,
}

/// Play `plan` with its records and Parquet rows to `out`.
fn play(plan: &Plan, out: &Outputs<'_>, label: &str) -> Result<oh7_sim::Outcome> {
    let mut sinks: Vec<Box<dyn Sink>> = Vec::new();
    if let Some(p) = out.record {
        sinks.push(Box::new(JsonLines::create(p, plan.header().as_ref())?));
    }
    if let Some(p) = out.parquet {
        sinks.push(Box::new(ParquetSink::create(p, Table::SeatRounds)?));
    }
    if let Some(p) = out.rounds_parquet {
        sinks.push(Box::new(ParquetSink::create(p, Table::Rounds)?));
    }
    let (from, to) = plan.range();
    let progress = Progress::new(to - from, "games", label);
    let o = oh7_sim::run(plan, &mut sinks, &|n| progress.set(n));
    progress.finish();
    Ok(o?)
}

/// Run `oh7 simulate`.
pub(crate) fn simulate(a: &SimulateArgs) -> Result<()> {
    let plan = a.run.plan(a.game.spec()?)?.with_shard(a.shard)?;
    let out = Outputs {
        record: a.record.as_deref(),
        parquet: a.parquet.as_deref(),
        rounds_parquet: a.rounds_parquet.as_deref(),
    };
    let named: Vec<(&str, &Path)> =
        [("--record", out.record), ("--parquet", out.parquet), ("--rounds-parquet", out.rounds_parquet)]
            .into_iter()
            .filter_map(|(f, p)| p.map(|p| (f, p)))
            .collect();
    check_outputs(&[], &named)?;
    if out.rounds_parquet.is_some() && plan.spec.ruleset().is_none() {
        bail!(
            "--rounds-parquet: the rounds table is the Oh 7 family's (bets, tricks, trumps); Seven's rounds are in --parquet"
        );
    }
    let o = play(&plan, &out, "")?;
    let secs = o.elapsed.as_secs_f64();
    let (from, to) = plan.range();
    let mut head = String::new();
    if let Some(s) = plan.shard {
        head.push_str(&format!("shard {} of {}: games {from} to {} of {}\n", s.index, s.count, to - 1, plan.games));
    }
    head.push_str(&format!(
        "{} games of {}, seed {}, {}, {} thread(s), in {:.2} s ({:.0} games/s, {} decisions)\n",
        to - from,
        plan.title(),
        plan.seed,
        plan.bots_text(),
        plan.threads,
        secs,
        (to - from) as f64 / secs,
        o.decisions
    ));
    if let Some(p) = &a.record {
        head.push_str(&format!("records written to {}\n", p.display()));
    }
    if let Some(p) = &a.parquet {
        head.push_str(&format!("Parquet rows written to {}\n", p.display()));
    }
    if let Some(p) = &a.rounds_parquet {
        head.push_str(&format!("Parquet rounds written to {}\n", p.display()));
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

/// Run `oh7 stats FILE...`: the statistics of every record in the files (the shards of one
/// run are checked to be all there, once, from the same run).
pub(crate) fn stats_command(files: &[PathBuf], json: bool, csv: bool, plot: Option<&Path>) -> Result<()> {
    // The bar's end: the shard headers' game counts, or the files' lines counted.
    let progress = Progress::new(oh7_sim::files::count_records(files)?.max(1), "records", "");
    let read = oh7_sim::stats_of_files(files, &|n| progress.set(n));
    progress.finish();
    let read = read?;
    let stats = read.stats;
    let names = files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ");
    if stats.games() == 0 {
        bail!("{names} hold(s) no records");
    }
    let report = stats.report();
    if json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else if csv {
        print!("{}", report.to_csv());
    } else {
        match &read.run {
            Some(run) => println!(
                "{} records read from the {} shards of one run (seed {}, {} games)",
                stats.games(),
                run.of,
                run.seed,
                run.games
            ),
            None => println!("{} records read from {names}", stats.games()),
        }
        println!();
        print!("{}", report.to_text());
    }
    if let Some(dir) = plot {
        let files = oh7_stats::plot::write_charts(&stats, dir).map_err(|e| anyhow!(e))?;
        eprintln!("{} charts written to {} (PNG and SVG)", files.len() / 2, dir.display());
    }
    Ok(())
}

/// Run `oh7 export FILE... [--parquet OUT] [--rounds-parquet OUT]`: the Parquet tables of
/// records files, read once (each record must replay; a shard's header line is skipped).
pub(crate) fn export_command(files: &[PathBuf], parquet: Option<&Path>, rounds: Option<&Path>) -> Result<()> {
    let mut outs = Vec::new();
    if let Some(p) = parquet {
        outs.push((p, Table::SeatRounds));
    }
    if let Some(p) = rounds {
        outs.push((p, Table::Rounds));
    }
    if outs.is_empty() {
        bail!("nothing to write: give --parquet OUT (seat rows), --rounds-parquet OUT (rounds), or both");
    }
    let named: Vec<(&str, &Path)> =
        outs.iter().map(|&(p, t)| (if t == Table::Rounds { "--rounds-parquet" } else { "--parquet" }, p)).collect();
    check_outputs(files, &named)?;
    let progress = Progress::new(oh7_sim::files::count_records(files)?.max(1), "records", "");
    let done = oh7_sim::parquet::export_files(files, &outs, &|n| progress.set(n));
    progress.finish();
    let done = done?;
    for ((path, table), rows) in outs.iter().zip(&done.rows) {
        let what = if *table == Table::Rounds { "round rows" } else { "rows" };
        println!("{rows} {what} from {} records written to {}", done.records, path.display());
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
pub(crate) fn compare(a: &CompareArgs) -> Result<()> {
    let plan_a = a.run.plan(GameSpec::oh7(rules_of(&a.a)?)).with_context(|| format!("rules A ({})", a.a))?;
    let plan_b = a.run.plan(GameSpec::oh7(rules_of(&a.b)?)).with_context(|| format!("rules B ({})", a.b))?;
    let oa = play(&plan_a, &Outputs::default(), &format!("A: {}", a.a))?;
    let ob = play(&plan_b, &Outputs::default(), &format!("B: {}", a.b))?;
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
