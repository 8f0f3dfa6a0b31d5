//! Bot levels as a type: [`Level`], the levels offered to players (the lobby, the terminal,
//! hints and away seats), one list per game; and [`BotLevel`], a bot to build, which adds the
//! research settings that tournaments and benchmarks take and players are never offered
//! (`pimc`, `hybrid:N`, `mix:BETS:PLAY`, `ismcts:KEY=VALUE:…`, `oracle`).
//!
//! The text form (`expert`, `ismcts:iterations=4000:hand=true`) is what records, logs and the
//! command line hold: [`BotLevel::parse`] reads it once, `Display` writes it back unchanged.

use std::fmt;

use oh7_core::registry::GameId;

/// A level offered to players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Uniformly random legal actions.
    Random,
    /// Plays as a newcomer does: counts its hand roughly, overbids, forgets to duck (Oh 7).
    Beginner,
    /// Hand evaluation and bet-aiming play, no search.
    Heuristic,
    /// The determinization search at a small budget (Oh 7).
    Easy,
    /// The determinization search at a medium budget (Oh 7).
    Medium,
    /// The determinization search at a large budget (Oh 7).
    Hard,
    /// ISMCTS at its default budget (Oh 7).
    Ismcts,
    /// The strongest: ISMCTS with four times the budget (Oh 7).
    Expert,
    /// Playouts per candidate action (Seven's strongest).
    Search,
}

/// The levels of the Oh 7 family, weakest first.
pub const OH7: [Level; 8] = [
    Level::Random,
    Level::Beginner,
    Level::Heuristic,
    Level::Easy,
    Level::Medium,
    Level::Hard,
    Level::Ismcts,
    Level::Expert,
];
/// The levels of Seven, weakest first.
pub const SEVEN: [Level; 3] = [Level::Random, Level::Heuristic, Level::Search];

const fn names<const N: usize>(levels: [Level; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = levels[i].name();
        i += 1;
    }
    out
}

/// [`OH7`] by name (what the wire and the records say).
pub const OH7_NAMES: [&str; 8] = names(OH7);
/// [`SEVEN`] by name.
pub const SEVEN_NAMES: [&str; 3] = names(SEVEN);

impl Level {
    /// The level's name (`expert`).
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Beginner => "beginner",
            Level::Heuristic => "heuristic",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Ismcts => "ismcts",
            Level::Expert => "expert",
            Level::Search => "search",
        }
    }

    /// The levels `game` offers, weakest first.
    pub fn of(game: GameId) -> &'static [Level] {
        match game {
            GameId::Oh7 => &OH7,
            GameId::Seven => &SEVEN,
        }
    }

    /// `game`'s strongest level.
    pub fn strongest(game: GameId) -> Level {
        *Level::of(game).last().expect("every game has levels")
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level is written as its name, in logs, configs and messages.
impl serde::Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A level is read from its name (of either game: whether a game offers it is the table's
/// check, with its own refusal).
impl<'de> serde::Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        OH7.iter().chain(SEVEN.iter()).copied().find(|l| l.name() == name).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown bot level `{}`", name.chars().take(24).collect::<String>()))
        })
    }
}

/// A bot to build: a level offered to players, or a research setting (Oh 7 only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotLevel {
    /// A level offered to players.
    Level(Level),
    /// The determinization search alone at the expert's budget, for the whole round (the
    /// `expert` level until 2026-11-25).
    Pimc,
    /// ISMCTS at `ITERATIONS` for the bets and the early play, the determinization search with
    /// the exact solver for the last five tricks (`hybrid:ITERATIONS`).
    Hybrid(u32),
    /// Bets by one level, everything else by another (`mix:BETS:PLAY`).
    Mix(Box<BotLevel>, Box<BotLevel>),
    /// ISMCTS with settings (`ismcts:iterations=4000:c=0.35`): the text after `ismcts:`, read
    /// by `IsmctsConfig::parse` when the bot is built.
    IsmctsWith(String),
    /// Sees every hand: for measurement, never a player (built by the tournament).
    Oracle,
    /// The expert's own bet search with every hand known (`oracle-expert`; for measurement,
    /// as `mix:oracle-expert:PLAY` in a tournament): what knowing the deal is worth to its bet.
    /// With `playout` (`oracle-playout`), each bet of that search is played out by the rollout
    /// policy alone, which does not use the others' cards, instead of by its tree, which does.
    OracleExpert {
        /// The rollout plays the round after the bet (no tree below the bet).
        playout: bool,
    },
    /// Bets by the learned bid evaluator in the file, plays as the expert (issue 56):
    /// `betnet=FILE` bets its best card; `betnet:K=FILE` lets the expert's bet search choose
    /// among its `K` best.
    BetNet {
        /// The model's file.
        path: String,
        /// Candidates the search chooses among (1: the model's best, no search).
        top: u8,
    },
}

/// Why a text names no bot of a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// Not a level of this game, nor a research setting of it.
    #[error("unknown bot `{given}`: choose one of {}", levels.join(", "))]
    Unknown {
        /// The text (at most 60 characters).
        given: String,
        /// The game's levels.
        levels: Vec<&'static str>,
    },
    /// A research setting written wrong (`hybrid:ITERATIONS`, `mix:BETS:PLAY`).
    #[error("{0}")]
    Form(&'static str),
}

/// Why no bot could be made of a level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The text names no level of the game.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// ISMCTS settings (`ismcts:…`) written wrong.
    #[error(transparent)]
    Settings(#[from] crate::ismcts::IsmctsConfigError),
    /// A level of the other game.
    #[error("`{level}` is not a level of {game}")]
    OtherGame {
        /// The level.
        level: String,
        /// The game asked for (its name).
        game: &'static str,
    },
    /// The oracle sees every hand: only a tournament seats it.
    #[error("`oracle` sees every hand: only a tournament seats it")]
    Oracle,
    /// A bettor that sees the deal (`oracle-expert`, `oracle-playout`) only bets: a tournament
    /// seats it with a player, as `mix:BETTOR:PLAY`.
    #[error("`{0}` only bets, seeing every hand: in a tournament, seat it as mix:{0}:PLAY, e.g. mix:{0}:expert")]
    BetsOnly(String),
    /// A learned model's file that does not load.
    #[error("{0}")]
    Model(String),
}

impl BotLevel {
    /// Read a bot of `game` written as text: one of its levels, or for Oh 7 a research setting.
    pub fn parse(game: GameId, text: &str) -> Result<BotLevel, LevelError> {
        if let Some(l) = Level::of(game).iter().find(|l| l.name() == text) {
            return Ok(BotLevel::Level(*l));
        }
        let unknown = || LevelError::Unknown {
            given: text.chars().take(60).collect(),
            levels: Level::of(game).iter().map(|l| l.name()).collect(),
        };
        if game != GameId::Oh7 {
            return Err(unknown());
        }
        if text == "pimc" {
            Ok(BotLevel::Pimc)
        } else if let Some(rest) = text.strip_prefix("betnet") {
            let form =
                LevelError::Form("betnet=FILE or betnet:K=FILE (a bid evaluator from oh7 learn train --kind bet)");
            let (top, path) = match rest.split_once('=') {
                Some(("", path)) => (1, path),
                Some((k, path)) => (
                    k.strip_prefix(':').and_then(|k| k.parse::<u8>().ok()).filter(|&k| k >= 1).ok_or(form.clone())?,
                    path,
                ),
                None => return Err(form),
            };
            if path.is_empty() {
                return Err(form);
            }
            Ok(BotLevel::BetNet { path: path.to_string(), top })
        } else if text == "oracle" {
            Ok(BotLevel::Oracle)
        } else if text == "oracle-expert" {
            Ok(BotLevel::OracleExpert { playout: false })
        } else if text == "oracle-playout" {
            Ok(BotLevel::OracleExpert { playout: true })
        } else if let Some(n) = text.strip_prefix("hybrid:") {
            n.parse().map(BotLevel::Hybrid).map_err(|_| LevelError::Form("hybrid:ITERATIONS"))
        } else if let Some(rest) = text.strip_prefix("mix:") {
            // The first part is one name (no `:`); the rest may be a setting with its own `:`.
            let (bets, play) = rest.split_once(':').ok_or(LevelError::Form("mix:BETS:PLAY"))?;
            Ok(BotLevel::Mix(Box::new(BotLevel::parse(game, bets)?), Box::new(BotLevel::parse(game, play)?)))
        } else if let Some(settings) = text.strip_prefix("ismcts:") {
            Ok(BotLevel::IsmctsWith(settings.to_string()))
        } else {
            Err(unknown())
        }
    }

    /// Whether players are offered it (research settings and the oracle are not).
    pub fn is_offered(&self) -> bool {
        matches!(self, BotLevel::Level(_))
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotLevel::Level(l) => f.write_str(l.name()),
            BotLevel::Pimc => f.write_str("pimc"),
            BotLevel::Oracle => f.write_str("oracle"),
            BotLevel::OracleExpert { playout: false } => f.write_str("oracle-expert"),
            BotLevel::OracleExpert { playout: true } => f.write_str("oracle-playout"),
            BotLevel::Hybrid(n) => write!(f, "hybrid:{n}"),
            BotLevel::Mix(b, p) => write!(f, "mix:{b}:{p}"),
            BotLevel::IsmctsWith(s) => write!(f, "ismcts:{s}"),
            BotLevel::BetNet { path, top: 1 } => write!(f, "betnet={path}"),
            BotLevel::BetNet { path, top } => write!(f, "betnet:{top}={path}"),
        }
    }
}

/// The levels a review is made at (`oh7 review --level`, `oh7 serve --review-level`): the
/// determinization search at the `easy`, `medium` and `hard` budgets and at the largest
/// (`pimc`), and the `expert` player's ISMCTS. Seven's review draws more worlds per option the
/// higher the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReviewLevel {
    /// The `easy` level's search budget.
    Easy,
    /// The `medium` level's search budget.
    Medium,
    /// The `hard` level's search budget.
    Hard,
    /// The determinization search at the largest budget.
    Pimc,
    /// The `expert` player (the default).
    Expert,
}

/// Every review level, the cheapest first.
pub const REVIEW: [ReviewLevel; 5] =
    [ReviewLevel::Easy, ReviewLevel::Medium, ReviewLevel::Hard, ReviewLevel::Pimc, ReviewLevel::Expert];

/// [`REVIEW`] by name.
pub const REVIEW_NAMES: [&str; 5] = {
    let mut out = [""; 5];
    let mut i = 0;
    while i < 5 {
        out[i] = REVIEW[i].name();
        i += 1;
    }
    out
};

/// A review level's name that is none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown review level `{0}`: choose one of {names}", names = REVIEW_NAMES.join(", "))]
pub struct UnknownReviewLevel(pub String);

impl ReviewLevel {
    /// Its name (`expert`): the player level's of the same budget.
    pub const fn name(self) -> &'static str {
        match self {
            ReviewLevel::Easy => Level::Easy.name(),
            ReviewLevel::Medium => Level::Medium.name(),
            ReviewLevel::Hard => Level::Hard.name(),
            ReviewLevel::Pimc => "pimc",
            ReviewLevel::Expert => Level::Expert.name(),
        }
    }

    /// The player level of the same name, if one (`pimc` is a research setting).
    pub fn level(self) -> Option<Level> {
        OH7.iter().copied().find(|l| l.name() == self.name())
    }
}

impl std::str::FromStr for ReviewLevel {
    type Err = UnknownReviewLevel;
    fn from_str(s: &str) -> Result<ReviewLevel, UnknownReviewLevel> {
        REVIEW.iter().copied().find(|l| l.name() == s).ok_or_else(|| UnknownReviewLevel(s.chars().take(24).collect()))
    }
}

impl fmt::Display for ReviewLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Written as its name (the review document's `level`, the reviews table's column).
impl serde::Serialize for ReviewLevel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for ReviewLevel {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ReviewLevel, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text reads back as itself; the offered levels are the game's lists.
    #[test]
    fn the_bettors_that_see_the_deal_are_never_built_alone() {
        for t in ["oracle-expert", "oracle-playout"] {
            let level = BotLevel::parse(GameId::Oh7, t).unwrap();
            let err = crate::oh7_bot_of(&level, 0).err().expect("refused").to_string();
            assert!(err.contains(&format!("mix:{t}:PLAY")), "{err}");
        }
        let oracle = BotLevel::parse(GameId::Oh7, "oracle").unwrap();
        assert!(matches!(crate::oh7_bot_of(&oracle, 0), Err(BotError::Oracle)));
    }

    #[test]
    fn levels_read_and_write_back() {
        for game in GameId::ALL {
            for l in Level::of(game) {
                let b = BotLevel::parse(game, l.name()).unwrap();
                assert!(b.is_offered());
                assert_eq!(b.to_string(), l.name());
            }
        }
        for t in [
            "pimc",
            "oracle",
            "oracle-expert",
            "mix:oracle-playout:expert",
            "hybrid:1000",
            "mix:ismcts:expert",
            "mix:heuristic:ismcts:iterations=500",
            "ismcts:c=0.5",
            "betnet=/tmp/bet.safetensors",
            "betnet:3=m.safetensors",
            "mix:betnet=m.safetensors:heuristic",
        ] {
            let b = BotLevel::parse(GameId::Oh7, t).unwrap();
            assert!(!b.is_offered(), "{t}");
            assert_eq!(b.to_string(), t);
        }
        assert_eq!(Level::strongest(GameId::Oh7), Level::Expert);
        assert_eq!(Level::strongest(GameId::Seven), Level::Search);
        assert_eq!(OH7_NAMES.to_vec(), OH7.iter().map(|l| l.name()).collect::<Vec<_>>());
    }

    #[test]
    fn review_levels_read_and_write_back() {
        for l in REVIEW {
            assert_eq!(l.name().parse::<ReviewLevel>(), Ok(l));
            assert_eq!(serde_json::to_string(&l).unwrap(), format!("\"{l}\""));
        }
        assert_eq!(ReviewLevel::Pimc.level(), None);
        assert_eq!(ReviewLevel::Hard.level(), Some(Level::Hard));
        let e = "grandmaster".parse::<ReviewLevel>().unwrap_err();
        assert_eq!(e.to_string(), "unknown review level `grandmaster`: choose one of easy, medium, hard, pimc, expert");
    }

    #[test]
    fn what_is_not_a_bot_of_the_game() {
        assert!(matches!(BotLevel::parse(GameId::Seven, "expert"), Err(LevelError::Unknown { .. })));
        assert!(matches!(BotLevel::parse(GameId::Seven, "pimc"), Err(LevelError::Unknown { .. })));
        assert!(matches!(BotLevel::parse(GameId::Oh7, "search"), Err(LevelError::Unknown { .. })));
        assert_eq!(BotLevel::parse(GameId::Oh7, "hybrid:x"), Err(LevelError::Form("hybrid:ITERATIONS")));
        assert_eq!(BotLevel::parse(GameId::Oh7, "mix:expert"), Err(LevelError::Form("mix:BETS:PLAY")));
        let e = BotLevel::parse(GameId::Oh7, "nonsense").unwrap_err().to_string();
        assert!(e.contains("unknown bot `nonsense`") && e.contains("expert"), "{e}");
    }
}
