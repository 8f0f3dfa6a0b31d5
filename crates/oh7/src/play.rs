//! `oh7 play`: the terminal game against bots (the interface lives in `oh7-tui`).

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use oh7_tui::{Lang, PlayOptions};

use crate::GameArgs;

/// The language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum LangArg {
    /// English.
    En,
    /// Français.
    Fr,
}

/// `oh7 play` arguments.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The game (`--game`) and its rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// Players, you included (2 plays with the Dummy in en, fr and kod7; Seven: 2-8).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// The bots' level (default: the strongest available).
    #[arg(long, value_name = "LEVEL")]
    pub bots: Option<String>,
    /// The seed of the deal: a whole number or hexadecimal (0x2a); random if left out.
    #[arg(long, value_parser = crate::parse_seed)]
    pub seed: Option<u64>,
    /// The language: en or fr.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
    /// Continue an unfinished game from its saved record.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Line-by-line mode for screen readers and scripts (prompts on stdout, answers on stdin).
    #[arg(long)]
    pub plain: bool,
    /// Where to save the record (default: the resumed file, or oh7-<preset>-<time>.json here).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Your seat (0 by default; the other seats are bots).
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
}

/// Run `oh7 play`.
pub(crate) fn run(args: &PlayArgs) -> Result<()> {
    let lang = match args.lang {
        LangArg::En => Lang::En,
        LangArg::Fr => Lang::Fr,
    };
    let game = match &args.resume {
        // A saved game keeps its own rules: a rules option would be ignored, so it is refused.
        Some(_) if args.game.rules.names_rules() => {
            anyhow::bail!(
                "--resume continues the saved game with its own rules: give no --ruleset, --set or preset option"
            )
        }
        Some(_) => oh7_core::registry::GameSpec::default_of(args.game.game),
        None => args.game.spec()?,
    };
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        (t.as_nanos() as u64) ^ ((std::process::id() as u64) << 32)
    });
    let opts = PlayOptions {
        game,
        players: args.players,
        bots: args.bots.clone(),
        seed,
        lang,
        resume: args.resume.clone(),
        plain: args.plain,
        save: args.save.clone(),
        seat: args.seat,
    };
    oh7_tui::play(opts)?;
    Ok(())
}
