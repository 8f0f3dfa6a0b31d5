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
pub mod scores;
pub mod session;
pub mod seven_table;
pub mod tui;
pub mod typing;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use oh7_bots::GameSpec;
use oh7_core::DynGame;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::Ruleset;
use oh7_core::seven::SevenGame;

pub use lang::Lang;
pub use session::{Session, Table};

/// Everything `oh7 play` needs.
pub struct PlayOptions {
    /// The game and rules to start (ignored with `resume`).
    pub game: GameSpec,
    /// Players, the human included (the Dummy not counted; ignored with `resume`).
    pub players: usize,
    /// The bots' level (one of the bots crate's levels).
    pub bots: Option<String>,
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

/// The largest record file `--resume` reads (a game's record is a few kilobytes).
pub const MAX_RESUME_BYTES: u64 = 16 << 20;

/// Read the record to resume from `path`, refusing (with the file and line, and the file left
/// as it is) anything but one unfinished game that replays exactly: a file of several records
/// (a `simulate` output), a finished game, a record the engine rejects, a file too big.
pub fn read_resume(path: &Path, lang: Lang) -> Result<(serde_json::Value, Box<dyn DynGame>), String> {
    let p = path.display();
    let unchanged = lang.s("the file is unchanged", "le fichier n'a pas été modifié");
    let meta = std::fs::metadata(path)
        .map_err(|e| lang.t(format!("cannot read {p}: {e}"), format!("impossible de lire {p} : {e}")))?;
    if meta.len() > MAX_RESUME_BYTES {
        return Err(lang.t(
            format!("{p} is {} bytes: too big for the record of one game ({unchanged})", meta.len()),
            format!("{p} fait {} octets : trop pour l'enregistrement d'une partie ({unchanged})", meta.len()),
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| lang.t(format!("cannot read {p}: {e}"), format!("impossible de lire {p} : {e}")))?;
    // Non-empty lines, by number (at the byte level: a line may not be text).
    let lines: Vec<(usize, &[u8])> = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.trim_ascii().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    let first = lines.first().map_or(1, |l| l.0);
    // One record: the whole file as one JSON value (pretty-printed or not), or its one line.
    let whole = std::str::from_utf8(&bytes).ok().and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok());
    let (line, record) = match whole {
        Some(v) => (first, v),
        None if lines.len() > 1 => {
            let list: Vec<String> = lines.iter().take(5).map(|l| l.0.to_string()).collect();
            let more = if lines.len() > 5 { ", …" } else { "" };
            return Err(lang.t(
                format!(
                    "{p} holds {} records (lines {}{more}): --resume takes the file of one game ({unchanged})",
                    lines.len(),
                    list.join(", ")
                ),
                format!(
                    "{p} contient {} enregistrements (lignes {}{more}) : --resume prend le fichier d'une seule partie ({unchanged})",
                    lines.len(),
                    list.join(", ")
                ),
            ));
        }
        None => {
            let e = match std::str::from_utf8(&bytes) {
                Err(_) => lang.t("not UTF-8 text", "pas du texte UTF-8"),
                Ok(t) => serde_json::from_str::<serde_json::Value>(t).err().map_or_else(String::new, |e| e.to_string()),
            };
            return Err(lang.t(
                format!("{p}:{first}: not a record: {e} ({unchanged})"),
                format!("{p}:{first} : pas un enregistrement : {e} ({unchanged})"),
            ));
        }
    };
    match oh7_core::replay_record(&record) {
        Err(e) => {
            let e = e.to_string().replace('\n', " ");
            Err(lang.t(
                format!("{p}:{line}: the record does not replay: {e} ({unchanged})"),
                format!("{p}:{line} : l'enregistrement ne se rejoue pas : {e} ({unchanged})"),
            ))
        }
        Ok(g) if g.is_over() => Err(lang.t(
            format!("{p}:{line}: this game is over, there is nothing to resume ({unchanged}); see it with: oh7 replay {p} --show 1"),
            format!("{p}:{line} : cette partie est finie, il n'y a rien à reprendre ({unchanged}) ; voyez-la avec : oh7 replay {p} --show 1"),
        )),
        Ok(g) => Ok((record, g)),
    }
}

/// The bots of a resumed game: the levels its record names (`bot:heuristic`), so the record goes
/// on telling who played; other seats get --bots.
fn recorded_levels<G: Table>(g: &G, record: &serde_json::Value, opts: &PlayOptions) -> Vec<String> {
    (0..g.players())
        .map(|k| {
            record["seats"][k]
                .as_str()
                .and_then(|n| n.strip_prefix("bot:"))
                .filter(|l| G::bot_levels().contains(l))
                .map_or_else(|| level::<G>(opts), str::to_string)
        })
        .collect()
}

/// Play a game to its end or until the human quits; returns where the record was saved.
pub fn play(opts: PlayOptions) -> Result<PathBuf, PlayError> {
    let lang = opts.lang;
    match &opts.resume {
        Some(path) => {
            let (record, game) = read_resume(path, lang)?;
            let save = opts.save.clone().unwrap_or_else(|| path.clone());
            // The human's seat is the one the record names `human` (unless --seat says otherwise).
            let seat = match record["seats"].as_array().and_then(|a| a.iter().position(|n| n == "human")) {
                Some(k) if opts.seat == 0 => k,
                _ => opts.seat,
            };
            run_any(game, &opts, seat, &save, Some(&record))
        }
        None => {
            let game = opts.game.new_game(opts.players, opts.seed).map_err(|e| PlayError::Setup(e.to_string()))?;
            let save = opts.save.clone().unwrap_or_else(|| default_save(&opts.game.label()));
            run_any(game, &opts, opts.seat, &save, None)
        }
    }
}

/// [`run`] on the concrete game behind `game` (the table's drawing is per game); with the
/// resumed `record`, its bots are the levels it names.
fn run_any(
    game: Box<dyn DynGame>,
    opts: &PlayOptions,
    seat: usize,
    save: &Path,
    record: Option<&serde_json::Value>,
) -> Result<PathBuf, PlayError> {
    let game = game.into_any();
    let game = match game.downcast::<Oh7Game>() {
        Ok(g) => {
            let rules = *g.rules();
            let levels = record.map(|r| recorded_levels(&*g, r, opts));
            return run(*g, opts, seat, save, Some(rules), levels);
        }
        Err(other) => other,
    };
    match game.downcast::<SevenGame>() {
        Ok(g) => {
            let levels = record.map(|r| recorded_levels(&*g, r, opts));
            run(*g, opts, seat, save, None, levels)
        }
        Err(_) => Err(PlayError::Setup("a game the terminal cannot show".to_string())),
    }
}

/// The default file name of the record: `oh7-<preset or seven>-<unix time>.json` in the current
/// directory (not the seed: the seed would tell the deal while the game runs).
pub fn default_save(game: &str) -> PathBuf {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    PathBuf::from(format!("oh7-{game}-{t}.json"))
}

/// The bots' level: `--bots`, else the strongest level of the game.
fn level<G: Table>(opts: &PlayOptions) -> String {
    opts.bots
        .clone()
        .unwrap_or_else(|| G::bot_levels().last().copied().unwrap_or(oh7_bots::level::Level::Random.name()).to_string())
}

fn run<G: Table>(
    game: G,
    opts: &PlayOptions,
    seat: usize,
    save: &Path,
    rules: Option<Ruleset>,
    levels: Option<Vec<String>>,
) -> Result<PathBuf, PlayError> {
    let lang = opts.lang;
    // Never write over a file that holds something else than this game.
    let resumed_file = opts.resume.as_deref().is_some_and(|r| r == save);
    if !resumed_file && std::fs::metadata(save).is_ok_and(|m| m.len() > 0) {
        let p = save.display();
        return Err(PlayError::Setup(lang.t(
            format!("{p} already exists: choose another file with --save (nothing was changed)"),
            format!("{p} existe déjà : choisissez un autre fichier avec --save (rien n'a été modifié)"),
        )));
    }
    let levels = levels.unwrap_or_else(|| vec![level::<G>(opts); game.players()]);
    let players = game.players();
    // Setting up refuses nothing the engine words (no action is taken yet).
    let mut s = Session::with_levels(game, seat, &levels, lang)
        .map_err(|e| PlayError::Setup(e.text(lang, |r| format!("{r:?}"))))?;
    let game_id: oh7_core::GameId = G::NAME.parse().expect("every engine is in the registry");
    let rules_text = oh7_core::registry::rules_summary(rules.as_ref(), game_id, Some(players), lang);
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
/// A bot level as an adjective in `lang`, agreeing with the number of bots (`robots experts`).
pub fn level_words(level: &str, lang: Lang, bots: usize) -> String {
    if lang == Lang::En {
        return level.to_string();
    }
    use oh7_bots::level::Level;
    // A level's name read once (both games' levels); a research setting keeps its text.
    let named = [oh7_bots::level::OH7.as_slice(), oh7_bots::level::SEVEN.as_slice()]
        .concat()
        .into_iter()
        .find(|l| l.name() == level);
    let (one, many) = match named {
        Some(Level::Random) => ("aléatoire", "aléatoires"),
        Some(Level::Beginner) => ("débutant", "débutants"),
        Some(Level::Heuristic) => ("heuristique", "heuristiques"),
        Some(Level::Easy) => ("facile", "faciles"),
        Some(Level::Medium) => ("moyen", "moyens"),
        Some(Level::Hard) => ("difficile", "difficiles"),
        Some(Level::Expert) => (Level::Expert.name(), "experts"),
        Some(Level::Search) => ("chercheur", "chercheurs"),
        Some(Level::Ismcts) | None => (level, level),
    };
    if bots == 1 { one } else { many }.to_string()
}

/// The first message of a game: the seat, the bots, and the keys (`example`: what to type).
pub fn welcome(lang: Lang, seat: usize, players: usize, level: &str, example: &str, rules_key: &str) -> String {
    let bots = players - 1;
    let level = level_words(level, lang, bots);
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
