//! The games oh7 knows, in one place, as OpenSpiel registers its games: for each, its name in
//! records and on the wire, its title, its player range, how it is made from a request (a
//! preset or a ruleset, with one set of defaults), how its records replay and its rules
//! summary in each language. Everything that needs "which game" asks here: the lobby, the
//! simulator, the statistics, Parquet, replay, the Python package and the binary's `--game`.
//!
//! [`GameId`] is the key: code whose behaviour really is per game (a game's own statistics, its
//! own drawing) matches on it exhaustively, so adding a game makes the compiler list every such
//! place. Nothing outside this module and the engines compares a game's *name* (the tidy test
//! `crates/oh7-core/tests/tidy.rs` fails if something does).
//!
//! [`GameSpec`] is "a game to start": which game and its rules. Its serde form
//! (`{"game": "oh7", "ruleset": …}`, `{"game": "seven", "rules": …}`) is stored in the server's
//! databases: it must not change.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dyn_game::DynGame;
use crate::game::{Game, Seat};
use crate::glossary::Lang;
use crate::oh7::Oh7Game;
use crate::rl::RlEnv;
use crate::rules_summary::Summary;
use crate::ruleset::{Preset, Ruleset};
use crate::seven::{SevenGame, SevenRules};

/// Which game: the registry's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameId {
    /// The Oh 7 family (`oh7`): every preset and custom ruleset.
    Oh7,
    /// Seven (`seven`), the shedding game.
    Seven,
}

/// What the registry knows of one game.
#[derive(Debug)]
pub struct GameEntry {
    /// The key.
    pub id: GameId,
    /// The name in records, on the wire and on the command line (`oh7`, `seven`).
    pub name: &'static str,
    /// The name a person reads (`Oh 7`, `Seven`).
    pub title: &'static str,
    /// One line on the game (the `--game` help).
    pub about: &'static str,
    /// The fewest and most players the engine takes (a ruleset may narrow it:
    /// [`GameSpec::player_range`]).
    pub players: (usize, usize),
    /// Whether the game has named presets (`--preset`, `/api/presets`); Seven has one rules set
    /// whose knobs a ruleset changes.
    pub has_presets: bool,
}

/// Every game, in the order lists show them.
pub static GAMES: [GameEntry; 2] = [
    GameEntry {
        id: GameId::Oh7,
        name: <Oh7Game as Game>::NAME,
        title: "Oh 7",
        about: "The Oh 7 family (choose the preset with --preset)",
        players: (2, crate::oh7::MAX_SEATS),
        has_presets: true,
    },
    GameEntry {
        id: GameId::Seven,
        name: <SevenGame as Game>::NAME,
        title: "Seven",
        about: "Seven, the shedding game",
        players: (crate::seven::MIN_PLAYERS, crate::seven::MAX_PLAYERS),
        has_presets: false,
    },
];

impl GameId {
    /// Every game, in the order lists show them.
    pub const ALL: [GameId; 2] = [GameId::Oh7, GameId::Seven];

    /// The game a request gets when it names none.
    pub const DEFAULT: GameId = GameId::Oh7;

    /// What the registry knows of this game.
    pub fn entry(self) -> &'static GameEntry {
        GAMES.iter().find(|e| e.id == self).expect("every game has an entry")
    }

    /// The name in records and on the wire (`oh7`, `seven`).
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The game a record is of, from its `game` field.
    pub fn of_record(v: &Value) -> Result<GameId, RecordError> {
        match v.get("game").and_then(Value::as_str) {
            // A record names its game exactly (no case folding, unlike a person's request).
            Some(name) => GAMES
                .iter()
                .find(|e| e.name == name)
                .map(|e| e.id)
                .ok_or_else(|| RecordError::UnknownGame(name.chars().take(40).collect())),
            None => Err(RecordError::NoGame),
        }
    }

    /// Every game's name, for messages and help (`oh7 or seven`).
    pub fn names() -> Vec<&'static str> {
        GAMES.iter().map(|e| e.name).collect()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no game's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game `{0}`: choose oh7 or seven")]
pub struct UnknownGame(pub String);

impl FromStr for GameId {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<GameId, UnknownGame> {
        GAMES
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(s.trim()))
            .map(|e| e.id)
            .ok_or_else(|| UnknownGame(s.chars().take(40).collect()))
    }
}

/// Why a record of either game was refused.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// No `game` field.
    #[error("not a game record: no `game` field")]
    NoGame,
    /// A `game` the registry does not know.
    #[error("unknown game `{0}`: records of `oh7` and `seven` replay")]
    UnknownGame(String),
    /// An Oh 7 record that does not replay.
    #[error(transparent)]
    Oh7(#[from] crate::oh7::ReplayError),
    /// A Seven record that does not replay.
    #[error(transparent)]
    Seven(#[from] crate::seven::ReplayError),
}

/// Replay a record of any game through the engine: the one check every reader of records
/// (`replay`, `stats`, `play --resume`, the server) makes before trusting a record. Sizes
/// (players, hand sizes) are validated by the rules before anything is allocated from them.
///
/// The game comes back behind [`DynGame`]; a reader that needs the concrete game downcasts it
/// ([`DynGame::as_any`], [`DynGame::into_any`]).
pub fn replay_record(v: &Value) -> Result<Box<dyn DynGame>, RecordError> {
    Ok(match GameId::of_record(v)? {
        GameId::Oh7 => Box::new(crate::oh7::replay(v)?),
        GameId::Seven => Box::new(crate::seven::replay(v)?),
    })
}

impl GameSpec {
    /// The game and rules a record names (`game` and `ruleset`), read, not replayed: call
    /// [`replay_record`] first to know the record holds.
    pub fn of_record(v: &Value) -> Result<GameSpec, RecordError> {
        let rules = v.get("ruleset").cloned().unwrap_or(Value::Null);
        Ok(match GameId::of_record(v)? {
            GameId::Oh7 => GameSpec::Oh7 {
                ruleset: serde_json::from_value(rules)
                    .map_err(|e| crate::oh7::ReplayError::Format(format!("\"ruleset\": {e}")))?,
            },
            GameId::Seven => GameSpec::Seven {
                rules: serde_json::from_value(rules)
                    .map_err(|e| crate::seven::ReplayError::Format(format!("\"ruleset\": {e}")))?,
            },
        })
    }
}

/// A record's choices: each seat with its action's text ([`DynGame::apply_text`]).
pub type RecordedActions = Vec<(Seat, String)>;

/// [`replay_record`], also giving the choices the record holds, in the order the replay
/// applied them (each seat's in the order that seat made them), as action texts
/// ([`DynGame::apply_text`]): what a learner replays a record from.
pub fn replay_record_actions(v: &Value) -> Result<(Box<dyn DynGame>, RecordedActions), RecordError> {
    fn texts<A: ToString>(log: Vec<(Seat, A)>) -> Vec<(Seat, String)> {
        log.into_iter().map(|(s, a)| (s, a.to_string())).collect()
    }
    Ok(match GameId::of_record(v)? {
        GameId::Oh7 => {
            let (g, log) = crate::oh7::replay_actions(v)?;
            (Box::new(g), texts(log))
        }
        GameId::Seven => {
            let (g, log) = crate::seven::replay_actions(v)?;
            (Box::new(g), texts(log))
        }
    })
}

/// Which game and which rules a table, a simulation or a tournament plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameSpec {
    /// The Oh 7 family, any preset or custom ruleset.
    Oh7 {
        /// The rules (a preset or a custom ruleset, with its options).
        ruleset: Ruleset,
    },
    /// Seven.
    Seven {
        /// Seven's knobs.
        #[serde(default)]
        rules: SevenRules,
    },
}

/// A request for a game as people and programs write it: the game's name, a preset, a ruleset
/// (TOML). Every field may be left out: [`GameSpec::from_request`] holds the one set of
/// defaults (the game `oh7`, the preset `en`; Seven's default knobs).
#[derive(Clone, Copy, Debug, Default)]
pub struct GameRequest<'a> {
    /// The game's name (`oh7`, `seven`).
    pub game: Option<&'a str>,
    /// A preset (`en`, `fr`, `fr-advanced`, `kod7`, `bga`; for Seven only its own name).
    pub preset: Option<&'a str>,
    /// A ruleset as TOML: an Oh 7 ruleset file, or Seven's knobs (`limit = 50`).
    pub ruleset: Option<&'a str>,
    /// `key=value` options laid over the preset or the ruleset, as OpenSpiel's game parameters
    /// are: any knob of the game's ruleset (`target`, `decks`, `passing`; Seven's `limit`,
    /// `hand_size`), each value read as a TOML value (`21`, `true`, `"basket"`), a bare word as
    /// text. The last of a repeated key counts.
    pub options: &'a [(String, String)],
}

/// Why a request names no game; the edge words it in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A game the registry does not know.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// Both a preset and a ruleset.
    #[error("give a preset or a ruleset, not both")]
    PresetAndRuleset,
    /// A preset the game does not have.
    #[error("unknown preset `{given}`: choose {}", presets.join(", "))]
    UnknownPreset {
        /// The game asked for.
        game: GameId,
        /// The preset given (at most 20 characters).
        given: String,
        /// The game's presets.
        presets: Vec<&'static str>,
    },
    /// A ruleset that does not read or does not validate.
    #[error("{0}")]
    BadRuleset(String),
    /// An option that is no knob of the game (`preset` among them: it is given as the preset).
    #[error("option `{key}`: {detail}")]
    BadOption {
        /// The option's key (at most 20 characters).
        key: String,
        /// Why.
        detail: String,
    },
}

/// Why a game could not be set up with these rules and players (each engine's own reason).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// An Oh 7 ruleset that does not seat the players, or does not validate.
    #[error(transparent)]
    Oh7(#[from] crate::ruleset::RulesetError),
    /// Seven's knobs that do not seat the players.
    #[error(transparent)]
    Seven(#[from] crate::seven::SetupError),
}

/// The preset a request for Oh 7 gets when it names none.
pub const DEFAULT_PRESET: Preset = Preset::En;

/// The ruleset text `base` (TOML) with the request's options laid over it, as TOML again.
fn with_options(base: &str, options: &[(String, String)]) -> Result<String, SpecError> {
    if options.is_empty() {
        return Ok(base.to_string());
    }
    let mut table: toml::Table =
        toml::from_str(base).map_err(|e| SpecError::BadRuleset(e.message().trim().to_string()))?;
    for (key, value) in options {
        let key = key.trim();
        let bad = |detail: &str| SpecError::BadOption { key: key.chars().take(20).collect(), detail: detail.into() };
        if key.is_empty() || key.len() > 40 || !key.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            return Err(bad("a knob's name is lowercase words joined by `_` (e.g. `target`)"));
        }
        if key == "preset" {
            return Err(bad("the preset is chosen apart (`--preset`, the request's `preset`), not as an option"));
        }
        // A TOML value when it reads as one alone (`21`, `true`, `"fr"`); else the text itself.
        let read = toml::from_str::<toml::Table>(&format!("v = {}", value.trim()))
            .ok()
            .filter(|t| t.len() == 1)
            .and_then(|mut t| t.remove("v"));
        table.insert(key.to_string(), read.unwrap_or_else(|| toml::Value::String(value.trim().to_string())));
    }
    Ok(table.to_string())
}

/// An option's value as JSON carries it (`21`, `true`, `"basket"`): the server's and the solo
/// table's `options` object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    /// `true`, `false`.
    Flag(bool),
    /// A whole number.
    Number(i64),
    /// Text: read as text, never as a number (`"21"` is no target).
    Text(String),
}

/// The `options` object of a request as [`GameRequest::options`] takes them.
pub fn request_options(options: &std::collections::BTreeMap<String, OptionValue>) -> Vec<(String, String)> {
    options
        .iter()
        .map(|(k, v)| {
            let v = match v {
                OptionValue::Flag(b) => b.to_string(),
                OptionValue::Number(n) => n.to_string(),
                OptionValue::Text(t) => toml::Value::String(t.clone()).to_string(),
            };
            (k.clone(), v)
        })
        .collect()
}

/// An Oh 7 ruleset (TOML `base`) with the options laid over it.
fn oh7_with_options(base: &str, options: &[(String, String)]) -> Result<Ruleset, SpecError> {
    let text = with_options(base, options)?;
    Ruleset::from_toml(&text).map_err(|e| match e {
        crate::ruleset::RulesetError::Toml { line, message } => {
            let at = text.lines().take(line - 1).map(|l| l.len() + 1).sum();
            option_error(&text, Some(at), message)
        }
        // A ruleset that reads but cannot work (a knob's value out of its range).
        e => SpecError::BadRuleset(e.to_string()),
    })
}

/// The error of a ruleset made with options, at byte `at` of its text: the option written on
/// that line, else the ruleset.
fn option_error(text: &str, at: Option<usize>, message: String) -> SpecError {
    let start = at.map(|at| text[..at.min(text.len())].rfind('\n').map_or(0, |n| n + 1));
    let line = start.and_then(|at| text.get(at..)).and_then(|rest| rest.lines().next()).unwrap_or("");
    match line.split_once(" = ") {
        Some((key, _)) if !key.is_empty() => {
            SpecError::BadOption { key: key.chars().take(20).collect(), detail: message }
        }
        _ => SpecError::BadRuleset(message),
    }
}

/// Options written `key=value` (the command line's `--set`, Python's keywords written out):
/// split at the first `=`.
pub fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("`{text}`: write an option as key=value (e.g. target=21)")),
    }
}

impl GameSpec {
    /// The game of the rules `ruleset`.
    pub fn oh7(ruleset: Ruleset) -> GameSpec {
        GameSpec::Oh7 { ruleset }
    }

    /// Seven with the knobs `rules`.
    pub fn seven(rules: SevenRules) -> GameSpec {
        GameSpec::Seven { rules }
    }

    /// The game `id` with its default rules (Oh 7: [`DEFAULT_PRESET`]).
    pub fn default_of(id: GameId) -> GameSpec {
        match id {
            GameId::Oh7 => GameSpec::oh7(Ruleset::preset(DEFAULT_PRESET)),
            GameId::Seven => GameSpec::seven(SevenRules::default()),
        }
    }

    /// The game a request names, with the registry's defaults for what it leaves out. Size
    /// limits on the ruleset's text are the caller's (the server has its own).
    pub fn from_request(req: &GameRequest<'_>) -> Result<GameSpec, SpecError> {
        let id = match req.game {
            Some(name) => name.parse::<GameId>()?,
            None => GameId::DEFAULT,
        };
        let short = |t: &str| t.chars().take(20).collect::<String>();
        match id {
            GameId::Oh7 => {
                let ruleset = match (req.preset, req.ruleset) {
                    (Some(_), Some(_)) => return Err(SpecError::PresetAndRuleset),
                    (_, Some(toml)) => {
                        // The file alone first, so that its errors give its own lines.
                        let r = Ruleset::from_toml(toml).map_err(|e| SpecError::BadRuleset(e.to_string()))?;
                        if req.options.is_empty() { r } else { oh7_with_options(toml, req.options)? }
                    }
                    (preset, None) => {
                        let preset = match preset {
                            None => DEFAULT_PRESET,
                            Some(p) => p.parse::<Preset>().map_err(|_| SpecError::UnknownPreset {
                                game: id,
                                given: short(p),
                                presets: Preset::ALL.iter().map(|p| p.name()).collect(),
                            })?,
                        };
                        if req.options.is_empty() {
                            Ruleset::preset(preset)
                        } else {
                            oh7_with_options(&format!("preset = \"{}\"", preset.name()), req.options)?
                        }
                    }
                };
                Ok(GameSpec::oh7(ruleset))
            }
            GameId::Seven => {
                match req.preset {
                    // Seven's one entry in the list of presets is called by the game's name.
                    Some(p) if !p.eq_ignore_ascii_case(id.name()) => {
                        return Err(SpecError::UnknownPreset { game: id, given: short(p), presets: vec![id.name()] });
                    }
                    _ => {}
                }
                let read = |text: &str| {
                    toml::from_str::<SevenRules>(text)
                        .map_err(|e| (e.span().map(|r| r.start), e.message().trim().to_string()))
                };
                let rules = match req.ruleset {
                    Some(text) => read(text).map_err(|(_, m)| SpecError::BadRuleset(m))?,
                    None => SevenRules::default(),
                };
                let rules = if req.options.is_empty() {
                    rules
                } else {
                    let text = with_options(req.ruleset.unwrap_or(""), req.options)?;
                    read(&text).map_err(|(at, m)| option_error(&text, at, m))?
                };
                Ok(GameSpec::seven(rules))
            }
        }
    }

    /// Which game.
    pub fn id(&self) -> GameId {
        match self {
            GameSpec::Oh7 { .. } => GameId::Oh7,
            GameSpec::Seven { .. } => GameId::Seven,
        }
    }

    /// The game's name on the wire and in records (`oh7`, `seven`).
    pub fn game_name(&self) -> &'static str {
        self.id().name()
    }

    /// The Oh 7 ruleset, if this is an Oh 7 game.
    pub fn ruleset(&self) -> Option<&Ruleset> {
        match self {
            GameSpec::Oh7 { ruleset } => Some(ruleset),
            GameSpec::Seven { .. } => None,
        }
    }

    /// A short name for the game and preset (`en`, `bga`, `seven`).
    pub fn label(&self) -> String {
        match self {
            GameSpec::Oh7 { ruleset } => ruleset.preset.name().to_string(),
            GameSpec::Seven { .. } => self.game_name().to_string(),
        }
    }

    /// The player counts this game and its rules allow, fewest and most (`None`: none at all,
    /// e.g. a Seven hand size too large for any table). Oh 7: the ruleset's own range, which its
    /// validation guarantees is playable throughout; Seven: the engine's range, narrowed to the
    /// counts its game accepts with these rules.
    pub fn player_range(&self) -> Option<(usize, usize)> {
        match self {
            GameSpec::Oh7 { ruleset } => Some((ruleset.min_players as usize, ruleset.max_players as usize)),
            GameSpec::Seven { .. } => {
                let (min, max) = self.id().entry().players;
                let ok: Vec<usize> = (min..=max).filter(|&n| self.check_players(n).is_ok()).collect();
                Some((*ok.first()?, *ok.last()?))
            }
        }
    }

    /// The rules as a table's settings store them (`Ruleset` or `SevenRules`, serialized).
    pub fn ruleset_json(&self) -> Value {
        match self {
            GameSpec::Oh7 { ruleset } => serde_json::to_value(ruleset),
            GameSpec::Seven { rules } => serde_json::to_value(rules),
        }
        .expect("rules always serialize")
    }

    /// Every game a table can be created with: each Oh 7 preset, then Seven with its default
    /// rules.
    pub fn all() -> Vec<GameSpec> {
        GameId::ALL
            .into_iter()
            .flat_map(|id| match id {
                GameId::Oh7 => Preset::ALL.into_iter().map(|p| GameSpec::oh7(Ruleset::preset(p))).collect(),
                GameId::Seven => vec![GameSpec::default_of(id)],
            })
            .collect()
    }

    /// Check that `players` can play this game.
    pub fn check_players(&self, players: usize) -> Result<(), SetupError> {
        self.new_game(players, 0).map(|_| ())
    }

    /// A new game (seats unnamed), behind [`DynGame`]; downcast it (`as_any`, `into_any`) where
    /// the concrete game is needed.
    pub fn new_game(&self, players: usize, seed: u64) -> Result<Box<dyn DynGame>, SetupError> {
        Ok(match self {
            GameSpec::Oh7 { ruleset } => Box::new(Oh7Game::new(*ruleset, players, seed)?),
            GameSpec::Seven { rules } => Box::new(SevenGame::new(rules.clone(), players, seed)?),
        })
    }

    /// A new game as a learning environment (fixed action ids, masks, observations: the
    /// game's encoder in [`crate::rl`] / [`crate::rl_seven`]).
    pub fn rl_env(&self, players: usize, seed: u64) -> Result<Box<dyn RlEnv>, SetupError> {
        Ok(match self {
            GameSpec::Oh7 { ruleset } => Box::new(crate::rl::Oh7Env::new(Oh7Game::new(*ruleset, players, seed)?)),
            GameSpec::Seven { rules } => {
                Box::new(crate::rl_seven::SevenEnv::new(SevenGame::new(rules.clone(), players, seed)?))
            }
        })
    }

    /// The rules summary in `lang`, generated from the rules (so true for custom rulesets), for a
    /// table of `players` or for every player count the rules allow (`None`).
    pub fn summary(&self, players: Option<usize>, lang: Lang) -> Summary {
        match self {
            GameSpec::Oh7 { ruleset } => crate::rules_summary::oh7(ruleset, players, lang),
            GameSpec::Seven { rules } => crate::rules_summary::seven(rules, lang),
        }
    }

    /// The rules summary in `lang` as text, for every player count the rules allow.
    pub fn rules_summary(&self, lang: Lang) -> String {
        self.summary(None, lang).to_text(lang, SUMMARY_WIDTH)
    }
}

/// The columns of a rules summary as text (the terminal's rules pop-up shows 94 at 100).
const SUMMARY_WIDTH: usize = 92;

/// The rules summary of `game` in `lang` as text: for Oh 7 of `ruleset` (every preset when
/// `None`), for Seven of its rules; for a table of `players` or every count the rules allow.
pub fn rules_summary(ruleset: Option<&Ruleset>, game: GameId, players: Option<usize>, lang: Lang) -> String {
    let text = |r: &Ruleset| crate::rules_summary::oh7(r, players, lang).to_text(lang, SUMMARY_WIDTH);
    match (game, ruleset) {
        (GameId::Oh7, Some(r)) => text(r),
        (GameId::Oh7, None) => Preset::ALL.iter().map(|p| text(&Ruleset::preset(*p))).collect::<Vec<_>>().join("\n"),
        (GameId::Seven, _) => crate::rules_summary::seven(&SevenRules::default(), lang).to_text(lang, SUMMARY_WIDTH),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The serde form is the one the server's databases hold.
    #[test]
    fn the_stored_form_does_not_change() {
        let spec = GameSpec::oh7(Ruleset::preset(Preset::En));
        let v = serde_json::to_value(&spec).unwrap();
        assert_eq!(v["game"], GameId::Oh7.name());
        assert_eq!(v["ruleset"], serde_json::to_value(Ruleset::preset(Preset::En)).unwrap());
        assert_eq!(v.as_object().unwrap().len(), 2);
        assert_eq!(serde_json::from_value::<GameSpec>(v).unwrap(), spec);
        let seven: GameSpec = serde_json::from_value(serde_json::json!({"game": "seven"})).unwrap();
        assert_eq!(seven, GameSpec::seven(SevenRules::default()));
        let v = serde_json::to_value(&seven).unwrap();
        assert_eq!(v, serde_json::json!({"game": "seven", "rules": SevenRules::default()}));
        assert_eq!(GameSpec::all().len(), Preset::ALL.len() + 1);
        assert_eq!(seven.player_range(), Some((crate::seven::MIN_PLAYERS, crate::seven::MAX_PLAYERS)));
        assert_eq!(seven.label(), "seven");
    }

    /// A record's choices, as `replay_record_actions` gives them, applied in that order to a
    /// new game of the record's rules and seed, make the same record, in every game and preset.
    #[test]
    fn a_records_actions_rebuild_it() {
        for spec in GameSpec::all() {
            let (players, _) = spec.player_range().unwrap();
            for seed in [3_u64, 4] {
                let mut g = spec.new_game(players, seed).unwrap();
                let mut x = seed;
                while !g.is_over() {
                    let seat = (0..players).find(|&s| g.to_move().contains(s)).unwrap();
                    let legal = g.legal_text(seat);
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    g.apply_text(seat, &legal[(x >> 33) as usize % legal.len()]).unwrap();
                }
                let record = g.record();
                let (_, actions) = replay_record_actions(&record).unwrap();
                let mut again = spec.new_game(players, seed).unwrap();
                for (seat, text) in &actions {
                    again.apply_text(*seat, text).unwrap();
                }
                assert_eq!(again.record(), record, "{} seed {seed}", spec.label());
            }
        }
    }

    /// Each entry's name is its engine's `Game::NAME`, reads back as its id, and ids and
    /// entries are in the same order.
    #[test]
    fn entries_and_ids_agree() {
        assert_eq!(GameId::ALL.len(), GAMES.len());
        for (id, e) in GameId::ALL.into_iter().zip(&GAMES) {
            assert_eq!(e.id, id);
            assert_eq!(e.name.parse::<GameId>().unwrap(), id);
            assert_eq!(e.name.to_uppercase().parse::<GameId>().unwrap(), id);
            assert_eq!(GameSpec::default_of(id).game_name(), e.name);
            assert_eq!(serde_json::to_value(id).unwrap(), e.name);
        }
        assert!("uno".parse::<GameId>().is_err());
        // Records name their game exactly.
        assert_eq!(GameId::of_record(&serde_json::json!({"game": "seven"})).unwrap(), GameId::Seven);
        assert!(matches!(GameId::of_record(&serde_json::json!({"game": "SEVEN"})), Err(RecordError::UnknownGame(_))));
        assert!(matches!(GameId::of_record(&serde_json::json!({})), Err(RecordError::NoGame)));
    }

    /// One set of defaults: a request that names nothing is `en`; each field is checked.
    #[test]
    fn requests_and_their_defaults() {
        let req = |game, preset, ruleset| GameSpec::from_request(&GameRequest { game, preset, ruleset, options: &[] });
        assert_eq!(req(None, None, None).unwrap(), GameSpec::oh7(Ruleset::preset(Preset::En)));
        assert_eq!(req(Some("oh7"), Some("kod7"), None).unwrap(), GameSpec::oh7(Ruleset::preset(Preset::Kod7)));
        assert_eq!(req(Some("seven"), None, None).unwrap(), GameSpec::seven(SevenRules::default()));
        assert_eq!(req(Some("seven"), Some("seven"), None).unwrap(), GameSpec::seven(SevenRules::default()));
        let limited = req(Some("seven"), None, Some("limit = 50")).unwrap();
        assert_eq!(limited, GameSpec::seven(SevenRules { limit: Some(50), ..SevenRules::default() }));
        assert_eq!(req(Some("uno"), None, None), Err(SpecError::UnknownGame(UnknownGame("uno".into()))));
        assert_eq!(req(None, Some("en"), Some("preset = \"en\"")), Err(SpecError::PresetAndRuleset));
        assert!(matches!(req(None, Some("xx"), None), Err(SpecError::UnknownPreset { game: GameId::Oh7, .. })));
        assert!(matches!(
            req(Some("seven"), Some("en"), None),
            Err(SpecError::UnknownPreset { game: GameId::Seven, .. })
        ));
        assert!(matches!(req(None, None, Some("nonsense =")), Err(SpecError::BadRuleset(_))));
        assert!(matches!(req(Some("seven"), None, Some("limit = \"x\"")), Err(SpecError::BadRuleset(_))));
    }

    /// Options are laid over a preset or a ruleset, for both games; a bad one is named.
    #[test]
    fn options_are_laid_over_the_rules() {
        let opts = |o: &[(&str, &str)]| o.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let req = |game, preset, ruleset, o: &[(String, String)]| {
            GameSpec::from_request(&GameRequest { game, preset, ruleset, options: o })
        };
        let fr21 = req(None, Some("fr"), None, &opts(&[("target", "21"), ("passing", "false")])).unwrap();
        let mut want = Ruleset::preset(Preset::Fr);
        want.target = Some(21);
        assert_eq!(fr21, GameSpec::oh7(want));
        // Over a ruleset file; the last of a repeated key counts.
        let file = "preset = \"fr\"\ntarget = 49\n";
        assert_eq!(
            req(None, None, Some(file), &opts(&[("target", "35"), ("target", "21")])).unwrap(),
            GameSpec::oh7(want)
        );
        // A bare word is text; a quoted number is text too (no target).
        let basket = req(None, Some("fr"), None, &opts(&[("scoring", "basket")])).unwrap();
        assert_eq!(basket.ruleset().unwrap().scoring, crate::ruleset::Scoring::Basket);
        let bad = |o: &[(&str, &str)], game| req(game, None, None, &opts(o)).unwrap_err();
        assert!(matches!(bad(&[("target", "\"21\"")], None), SpecError::BadOption { key, .. } if key == "target"));
        assert!(matches!(bad(&[("bogus", "1")], None), SpecError::BadOption { key, .. } if key == "bogus"));
        assert!(matches!(bad(&[("preset", "fr")], None), SpecError::BadOption { key, .. } if key == "preset"));
        assert!(matches!(bad(&[("Target", "21")], None), SpecError::BadOption { .. }));
        // A value that reads but cannot work is the ruleset's error.
        assert!(matches!(bad(&[("decks", "3")], None), SpecError::BadRuleset(_)));
        // Seven: its knobs, `limit = 0` a single round (S-OWN-9).
        let seven = req(Some("seven"), None, Some("hand_size = 5"), &opts(&[("limit", "0")])).unwrap();
        assert_eq!(seven, GameSpec::seven(SevenRules { limit: None, hand_size: 5, ..SevenRules::default() }));
        assert!(matches!(bad(&[("decks", "2")], Some("seven")), SpecError::BadOption { key, .. } if key == "decks"));
        assert_eq!(parse_option("target = 21"), Ok(("target".into(), "21".into())));
        // A knob's name is short: a long one is refused without being written back whole.
        let long = "k".repeat(5000);
        let e = bad(&[(long.as_str(), "1")], None).to_string();
        assert!(e.len() < 200, "{e}");
        // Seven's summary tells its knobs (as the table's /rules and the terminal show it).
        let summary = seven.rules_summary(Lang::En);
        assert!(summary.contains("gets 5") && summary.contains("One round only"), "{summary}");
        let fr = GameSpec::seven(SevenRules { limit: Some(50), ..SevenRules::default() }).rules_summary(Lang::Fr);
        assert!(fr.contains("Au-dessus de 50"), "{fr}");
        assert!(parse_option("target").is_err() && parse_option("=1").is_err());
    }

    /// The rules summary comes from one place in both languages, for every game.
    #[test]
    fn every_game_has_its_summary_in_both_languages() {
        for spec in GameSpec::all() {
            let en = spec.rules_summary(Lang::En);
            let fr = spec.rules_summary(Lang::Fr);
            assert!(!en.is_empty() && !fr.is_empty() && en != fr, "{}", spec.label());
        }
        let all = rules_summary(None, GameId::Oh7, None, Lang::En);
        assert!(Preset::ALL.iter().all(|p| all.contains(&en_title(*p))));
    }

    fn en_title(p: Preset) -> String {
        crate::rules_summary::oh7(&Ruleset::preset(p), None, Lang::En).title
    }
}
