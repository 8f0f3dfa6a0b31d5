// Per-seat data is indexed by seat; index loops say that best (as in oh7-core).
#![allow(clippy::needless_range_loop)]
//! Play oh7 in the terminal against bots.
//!
//! What it is for: `oh7 play`: one game of the Oh 7 family (any preset, the Dummy included) or
//! of Seven, the human on one seat and bots (from `oh7-bots`, by level name) on the others, in
//! English or French; a full-screen interface (ratatui) and a plain line-by-line mode for screen
//! readers and scripts; the record saved on exit and `--resume` to continue it. Everything shown
//! comes from the human's seat view, so the interface cannot show what the seat may not know.
//!
//! What it is not: no rules live here (the engine decides what is legal and why not), no bot
//! logic (the bots crate does), no argument parsing (the binary does).

pub mod lang;
pub mod oh7_table;
pub mod plain;
pub mod rules_fr;
pub mod scores;
pub mod session;
pub mod seven_table;
pub mod tui;
pub mod typing;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::Ruleset;
use oh7_core::seven::{SevenGame, SevenRules};

pub use lang::Lang;
pub use session::{Session, Table};

/// Which game to start.
#[derive(Clone, Debug)]
pub enum NewGame {
    /// The Oh 7 family: a ruleset and a number of players (2 plays with the Dummy where the
    /// ruleset has one).
    Oh7 {
        /// The rules.
        rules: Ruleset,
        /// Players (the Dummy not counted).
        players: usize,
    },
    /// Seven.
    Seven {
        /// Players (2-8).
        players: usize,
    },
}

/// The English rules summary shown by `?`: for an Oh 7 ruleset, or Seven (`None`).
pub type RulesText = Box<dyn Fn(Option<&Ruleset>) -> String>;

/// The rules summary shown by `?` in `lang`: `english` (the binary's generator) in English,
/// [`rules_fr`] in French.
pub fn rules_text(lang: Lang, rules: Option<&Ruleset>, english: &RulesText) -> String {
    match (lang, rules) {
        (Lang::En, _) => english(rules),
        (Lang::Fr, Some(r)) => rules_fr::summary(r),
        (Lang::Fr, None) => rules_fr::seven_summary(),
    }
}

/// Everything `oh7 play` needs.
pub struct PlayOptions {
    /// The game to start (ignored with `resume`).
    pub game: NewGame,
    /// The bots' level (one of the bots crate's levels).
    pub bots: String,
    /// The seed of the deal (ignored with `resume`).
    pub seed: u64,
    /// The language.
    pub lang: Lang,
    /// A record to continue.
    pub resume: Option<PathBuf>,
    /// Line-by-line mode.
    pub plain: bool,
    /// Where to save the record (default: the resumed file, or [`default_save`]).
    pub save: Option<PathBuf>,
    /// The human's seat.
    pub seat: usize,
    /// The English rules summary generator (the French one is [`rules_fr`]).
    pub rules_text: RulesText,
}

/// Why `oh7 play` stopped with an error (the text is in the session's language).
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The game could not start or resume: bad options, an unreadable or non-replaying record.
    #[error("{0}")]
    Setup(String),
    /// The terminal, a pipe or the record file failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<String> for PlayError {
    fn from(s: String) -> PlayError {
        PlayError::Setup(s)
    }
}

/// Play a game to its end or until the human quits; returns where the record was saved.
pub fn play(opts: PlayOptions) -> Result<PathBuf, PlayError> {
    let lang = opts.lang;
    match &opts.resume {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                lang.t(
                    format!("cannot read {}: {e}", path.display()),
                    format!("impossible de lire {} : {e}", path.display()),
                )
            })?;
            let record = session::read_record(&text).map_err(|e| {
                lang.t(
                    format!("{} is not a record: {e}", path.display()),
                    format!("{} n'est pas un enregistrement : {e}", path.display()),
                )
            })?;
            let save = opts.save.clone().unwrap_or_else(|| path.clone());
            // The human's seat is the one the record names `human` (unless --seat says otherwise).
            let seat = match record["seats"].as_array().and_then(|a| a.iter().position(|n| n == "human")) {
                Some(k) if opts.seat == 0 => k,
                _ => opts.seat,
            };
            match record["game"].as_str() {
                Some("seven") => {
                    let g = <SevenGame as Table>::replay(&record).map_err(|e| {
                        lang.t(
                            format!("the record does not replay: {e}"),
                            format!("l'enregistrement ne se rejoue pas : {e}"),
                        )
                    })?;
                    run(g, &opts, seat, &save, None)
                }
                _ => {
                    let g = <Oh7Game as Table>::replay(&record).map_err(|e| {
                        lang.t(
                            format!("the record does not replay: {e}"),
                            format!("l'enregistrement ne se rejoue pas : {e}"),
                        )
                    })?;
                    let rules = *g.rules();
                    run(g, &opts, seat, &save, Some(rules))
                }
            }
        }
        None => match &opts.game {
            NewGame::Oh7 { rules, players } => {
                let g = Oh7Game::new(*rules, *players, opts.seed).map_err(|e| e.to_string())?;
                let save = opts.save.clone().unwrap_or_else(|| default_save(rules.preset.name()));
                run(g, &opts, opts.seat, &save, Some(*rules))
            }
            NewGame::Seven { players } => {
                let g = SevenGame::new(SevenRules::default(), *players, opts.seed).map_err(|e| e.to_string())?;
                let save = opts.save.clone().unwrap_or_else(|| default_save(SevenGame::NAME));
                run(g, &opts, opts.seat, &save, None)
            }
        },
    }
}

/// The default file name of the record: `oh7-<preset or seven>-<unix time>.json` in the current
/// directory (not the seed: the seed would tell the deal while the game runs).
pub fn default_save(game: &str) -> PathBuf {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    PathBuf::from(format!("oh7-{game}-{t}.json"))
}

fn run<G: Table>(
    game: G,
    opts: &PlayOptions,
    seat: usize,
    save: &Path,
    rules: Option<Ruleset>,
) -> Result<PathBuf, PlayError> {
    let lang = opts.lang;
    let mut s = Session::new(game, seat, &opts.bots, lang)?;
    let rules_text = rules_text(lang, rules.as_ref(), &opts.rules_text);
    let resumed = opts.resume.is_some();
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if opts.plain || !terminal {
        if !opts.plain {
            eprintln!(
                "{}",
                lang.s(
                    "(not a terminal: playing line by line, as with --plain)",
                    "(pas un terminal : partie ligne par ligne, comme avec --plain)"
                )
            );
        }
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        plain::run(&mut s, stdin.lock(), stdout.lock(), &rules_text, save, resumed)?;
    } else {
        tui::run(&mut s, &rules_text, save, resumed)?;
        println!("{}", saved_message(save, s.game.is_over(), lang));
    }
    Ok(save.to_path_buf())
}

/// "Game saved to FILE …", with how to continue an unfinished game.
pub fn saved_message(save: &Path, over: bool, lang: Lang) -> String {
    let p = save.display();
    if over {
        lang.t(
            format!("Game saved to {p} (check it with: oh7 replay {p})."),
            format!("Partie enregistrée dans {p} (vérifiez-la avec : oh7 replay {p})."),
        )
    } else {
        lang.t(
            format!("Game saved to {p}; continue it with: oh7 play --resume {p}"),
            format!("Partie enregistrée dans {p} ; reprenez-la avec : oh7 play --resume {p}"),
        )
    }
}

/// The one-line hint about the keys, shown at the start.
pub fn welcome(lang: Lang, seat: usize, players: usize, level: &str, game: &str, rules_key: &str) -> String {
    let example = match (game, lang) {
        ("seven", Lang::En) => "8h:s, 3c!",
        ("seven", Lang::Fr) => "8c:p, 3t!",
        (_, Lang::En) => "3h, *2",
        (_, Lang::Fr) => "3c, *2",
    };
    let bots = players - 1;
    match lang {
        Lang::En => format!(
            "You are seat {seat} against {bots} {level} bot{}. ←/→ and Enter, or type a card ({example}); \
             h: hint; {rules_key}: rules and signs; Esc: save and quit.",
            if bots == 1 { "" } else { "s" }
        ),
        Lang::Fr => format!(
            "Vous êtes la place {seat} contre {bots} robot{} {level}. ←/→ et Entrée, ou tapez une carte \
             ({example}) ; h : conseil ; {rules_key} : règles et signes ; Échap : enregistrer et quitter.",
            if bots == 1 { "" } else { "s" }
        ),
    }
}
