//! The `oh7` command: a thin layer that wires the engine (`oh7-core`) and the bots (`oh7-bots`)
//! to the terminal and files.

mod alloc;
mod bench;
mod league;
mod learn;
mod play;
mod replay;
mod review;
mod serve;
mod sim;
mod tournament;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use oh7_bots::GameSpec;
use oh7_core::glossary::Lang;
use oh7_core::registry::{GAMES, GameId, GameRequest, SpecError};
use oh7_core::ruleset::{Preset, Ruleset};

/// oh7: the Oh 7 family of trick-taking games (en, fr, fr-advanced, kod7, bga) and Seven.
#[derive(Parser)]
#[command(name = env!("CARGO_BIN_NAME"), version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play in the terminal against bots (full screen, or line by line with --plain).
    Play(play::PlayArgs),
    /// Serve online tables (browser and WebSocket) on an embedded SQLite database, or on PostgreSQL (several instances).
    Serve(serve::ServeArgs),
    /// Write the browser client as a folder of static files (play against bots on the device,
    /// offline too; no server code): serve it with any static host, e.g. `python3 -m http.server`.
    Web {
        /// The folder to write (made if absent; the client's files in it are replaced).
        #[arg(long, default_value = "oh7-web")]
        out: PathBuf,
    },
    /// Check that a server answers its health check (for a container's HEALTHCHECK).
    Health {
        /// The health check's address.
        #[arg(default_value = "http://127.0.0.1:7777/healthz")]
        url: String,
    },
    /// Back up a server's SQLite database while it runs (a consistent copy of one instant; for
    /// PostgreSQL use pg_dump, docs/server.md).
    Backup {
        /// The database a server runs on (or not); also read from OH7_DB.
        #[arg(long, env = "OH7_DB", hide_env_values = true, default_value = "oh7.db")]
        db: oh7_server::Database,
        /// The backup: a new file (restore by starting `oh7 serve --db` on it).
        #[arg(value_name = "OUT")]
        out: PathBuf,
    },
    /// The operator's commands on a server's database (it may be running): the reports players
    /// made, suspending an account, closing a table.
    Admin {
        /// The database the servers run on; also read from OH7_DB.
        #[arg(long, env = "OH7_DB", hide_env_values = true, default_value = "oh7.db", global = true)]
        db: oh7_server::Database,
        #[command(subcommand)]
        what: serve::AdminCommand,
    },
    /// Print a readable summary of a preset's rules (deck, bets, leader, scoring, end).
    Rules {
        /// en, fr, fr-advanced, kod7, bga or seven (all the Oh 7 presets if left out).
        preset: Option<String>,
        /// A custom ruleset file (TOML) to summarise instead.
        #[arg(long)]
        ruleset: Option<PathBuf>,
    },
    /// Play whole games between bots on every core (Oh 7 family or Seven), with statistics.
    Simulate(sim::SimulateArgs),
    /// Statistics of files of records (either game; the shards of one run merge exactly): tables, --json or --csv, --plot DIR.
    Stats {
        /// Files of records, one game per line, plain or compressed (.jsonl.gz, .jsonl.zst); the
        /// shards of one run are checked to be all there, once.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print the statistics as JSON.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print the statistics as CSV.
        #[arg(long)]
        csv: bool,
        /// Write charts (PNG and SVG) into this directory.
        #[arg(long, value_name = "DIR")]
        plot: Option<PathBuf>,
    },
    /// Write records (JSON Lines) as Parquet tables for analysts: one row per seat per round
    /// (--parquet), one row per round with its context (--rounds-parquet), or both in one
    /// reading (schemas: docs/records.md, "Parquet rows" and "Parquet rounds").
    #[command(group(clap::ArgGroup::new("out").required(true).multiple(true).args(["parquet", "rounds_parquet"])))]
    Export {
        /// Files of records, one game per line, plain or compressed (a shard's header line is
        /// skipped).
        #[arg(required = true, value_name = "RECORDS.jsonl")]
        files: Vec<PathBuf>,
        /// The seat-rounds Parquet file to write (replaced only once complete).
        #[arg(long, value_name = "OUT")]
        parquet: Option<PathBuf>,
        /// The rounds Parquet file to write (the Oh 7 family's rounds; replaced only once complete).
        #[arg(long, value_name = "OUT")]
        rounds_parquet: Option<PathBuf>,
    },
    /// Compare two rulesets (presets or files): same bots, same seeds, differences with 95% intervals.
    Compare(sim::CompareArgs),
    /// Check that every record of a JSON Lines file replays through the engine.
    Replay {
        /// A file of records, one game per line, plain or compressed (.jsonl.gz, .jsonl.zst).
        file: PathBuf,
        /// Print game K (from 1) readably.
        #[arg(long, value_name = "K")]
        show: Option<usize>,
    },
    /// Review one seat's decisions in a finished game: each option's expected points from the
    /// seat's view, the points lost, marks, summaries, and the oracle's hindsight.
    Review(review::ReviewArgs),
    /// A duplicate tournament between bots (deals replayed with the bots rotated through the
    /// seats), on every core, with paired 95% confidence intervals.
    Tournament(tournament::TournamentArgs),
    /// The bots' strength on the rating scale of rated tables: whole games of levels drawn at
    /// random, each level rated as one player (the leaderboards' reference points).
    League(league::LeagueArgs),
    /// Learned models: training data from seeded games, training, evaluation (docs/learning.md).
    Learn {
        #[command(subcommand)]
        what: learn::LearnCommand,
    },
    /// Measure speed.
    Bench {
        #[command(subcommand)]
        what: bench::BenchCommand,
    },
}

/// `--game` ([`GameArgs`], which every command that takes one flattens: `play`, `simulate`,
/// `tournament`, `league`, `bench engine`): a game of the registry, its names the possible
/// values; with the rules arguments it makes a [`GameSpec`] ([`GameArgs::spec`]).
pub fn game_values() -> impl clap::builder::TypedValueParser<Value = GameId> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(GAMES.iter().map(|e| PossibleValue::new(e.name).help(e.about)))
        .map(|s| s.parse::<GameId>().expect("a listed game"))
}

/// The game and its rules, as every command that plays one takes them: `--game` once, here,
/// and the rules arguments, made into one [`GameSpec`] ([`GameArgs::spec`]).
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// The game: oh7 (the preset names the variant) or seven.
    #[arg(long, default_value_t = GameId::DEFAULT, value_parser = game_values())]
    pub game: GameId,
    /// The rules: `--preset` or `--ruleset`, and the presets' options.
    #[command(flatten)]
    pub rules: RulesArgs,
}

impl GameArgs {
    /// The game these arguments describe (see [`RulesArgs::spec`]).
    pub fn spec(&self) -> Result<GameSpec> {
        self.rules.spec(self.game)
    }
}

/// How to choose the rules: a preset or a TOML file, and options laid over it (`--set`, or the
/// presets' options by their own flags), all read by the registry as the server and Python
/// read them ([`GameRequest`]).
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Preset: en, fr, fr-advanced, kod7 or bga.
    #[arg(long, default_value_t = oh7_core::registry::DEFAULT_PRESET, value_parser = parse_preset)]
    pub preset: Preset,
    /// A custom ruleset (TOML): for Oh 7 naming a preset and overriding knobs (replaces
    /// --preset); for Seven its knobs (limit, hand_size, ten_skips_with_two, round_turn_limit).
    #[arg(long, value_name = "FILE")]
    pub ruleset: Option<PathBuf>,
    /// A knob of the game's ruleset laid over the preset or the file, as KEY=VALUE (repeat it;
    /// the last of a key counts, and --set wins over the flags below): e.g. `--set target=21
    /// --set scoring=basket`, or Seven's `--set limit=50` (0: one round).
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = oh7_core::registry::parse_option)]
    pub set: Vec<(String, String)>,
    /// Copies of each regular card: 1 or 2 (bga option for 2-4 players; `--set decks=N`).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub decks: Option<u8>,
    /// The bga card-passing option (`--set passing=true`).
    #[arg(long)]
    pub passing: bool,
    /// The fr target score (35 by default; 21 or 49 for shorter or longer games; `--set target=N`).
    #[arg(long)]
    pub target: Option<u32>,
    /// The en option: every tie for the highest score plays another round
    /// (`--set every_tie_replays=true`).
    #[arg(long)]
    pub every_tie_replays: bool,
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    s.parse::<Preset>().map_err(|e| e.to_string())
}

impl RulesArgs {
    /// Whether any rules option besides the preset is given (a file, `--set`, a preset's flag).
    pub fn names_rules(&self) -> bool {
        self.ruleset.is_some() || !self.options().is_empty()
    }

    /// The options these arguments lay over the rules: the presets' own flags, then `--set`
    /// (which wins, being later).
    fn options(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(d) = self.decks {
            out.push(("decks".to_string(), d.to_string()));
        }
        if self.passing {
            out.push(("passing".to_string(), "true".to_string()));
        }
        if let Some(t) = self.target {
            out.push(("target".to_string(), t.to_string()));
        }
        if self.every_tie_replays {
            out.push(("every_tie_replays".to_string(), "true".to_string()));
        }
        out.extend(self.set.iter().cloned());
        out
    }

    /// The game `game` with these rules, read by the registry ([`GameSpec::from_request`]):
    /// the ruleset file if one is given, else the preset (a game without presets takes none),
    /// then the options.
    pub fn spec(&self, game: GameId) -> Result<GameSpec> {
        let text = match &self.ruleset {
            Some(path) => {
                Some(std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?)
            }
            None => None,
        };
        let preset = self.preset.name();
        let has_presets = game.entry().has_presets;
        let options = self.options();
        let request = GameRequest {
            game: Some(game.name()),
            preset: (text.is_none() && has_presets).then_some(preset),
            ruleset: text.as_deref(),
            options: &options,
        };
        match (&self.ruleset, GameSpec::from_request(&request)) {
            (_, Ok(spec)) => Ok(spec),
            (Some(path), Err(e @ SpecError::BadRuleset(_))) => Err(anyhow::anyhow!("in {}: {e}", path.display())),
            (_, Err(e)) => Err(e.into()),
        }
    }

    /// The Oh 7 ruleset these arguments name, validated.
    pub fn ruleset(&self) -> Result<Ruleset> {
        let spec = self.spec(GameId::Oh7)?;
        Ok(*spec.ruleset().expect("an Oh 7 game has a ruleset"))
    }
}

/// Read a seed: decimal, or hexadecimal with `0x`.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| format!("`{s}` is not a seed: write a whole number (42) or hexadecimal (0x2a)"))
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Rules { preset, ruleset } => {
            let out = match (preset, ruleset) {
                (_, Some(path)) => {
                    let text =
                        std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
                    let r = Ruleset::from_toml(&text).with_context(|| format!("in {}", path.display()))?;
                    GameSpec::oh7(r).rules_summary(Lang::En)
                }
                // A game without presets (`seven`) is named in the place of a preset.
                (Some(p), None) => match p.parse::<GameId>() {
                    Ok(id) if !id.entry().has_presets => GameSpec::default_of(id).rules_summary(Lang::En),
                    _ => GameSpec::oh7(Ruleset::preset(p.parse()?)).rules_summary(Lang::En),
                },
                (None, None) => oh7_core::registry::rules_summary(None, GameId::Oh7, None, Lang::En),
            };
            print!("{out}");
            Ok(())
        }
        Command::Play(args) => play::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Backup { db, out } => serve::backup(&db, &out),
        Command::Health { url } => serve::health(&url),
        Command::Admin { db, what } => serve::admin(&db, &what),
        Command::Web { out } => serve::write_static(&out),
        Command::Simulate(args) => sim::simulate(&args),
        Command::Stats { files, json, csv, plot } => sim::stats_command(&files, json, csv, plot.as_deref()),
        Command::Export { files, parquet, rounds_parquet } => {
            sim::export_command(&files, parquet.as_deref(), rounds_parquet.as_deref())
        }
        Command::Compare(args) => sim::compare(&args),
        Command::Replay { file, show } => replay::replay_file(&file, show),
        Command::Bench { what } => bench::run(&what),
        Command::Learn { what } => learn::run(&what),
        Command::Tournament(args) => tournament::run(&args),
        Command::League(args) => league::run(&args),
        Command::Review(args) => review::run(&args),
    }
}

/// mimalloc, counting what it holds (`alloc.rs`).
#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

fn main() -> ExitCode {
    // Behave like other command-line tools when output goes to a pipe that closes early
    // (`oh7 replay F --show 1 | head`): end quietly instead of panicking on the write.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    oh7_server::metrics::set_heap_probe(alloc::held);
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut msg = e.to_string();
            for cause in e.chain().skip(1) {
                // A cause its error already words (`FILE: No such file...`) is not said twice.
                let cause = cause.to_string();
                if !msg.contains(&cause) {
                    msg = format!("{msg}: {cause}");
                }
            }
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// `oh7 tournament --help` names every research setting of ISMCTS and every level offered.
    #[test]
    fn the_tournament_help_names_every_ismcts_setting_and_level() {
        let cmd = Cli::command();
        let t = cmd.find_subcommand("tournament").expect("a tournament command");
        let bots = t.get_arguments().find(|a| a.get_id() == "bots").expect("a --bots option");
        let help = bots.get_long_help().or(bots.get_help()).expect("help for --bots").to_string();
        for key in oh7_bots::ismcts::ISMCTS_KEYS {
            assert!(help.contains(key), "--bots help does not name the setting {key}");
        }
        for name in oh7_bots::level::OH7_NAMES.iter().chain(&oh7_bots::level::SEVEN_NAMES) {
            assert!(help.contains(name), "--bots help does not name the level {name}");
        }
    }
}
