// Per-seat data lives in parallel fixed arrays indexed by seat; index loops say that best.
#![allow(clippy::needless_range_loop)]
//! Computer players for oh7.
//!
//! What it is for: bots that choose an action from a seat view and the legal actions, never
//! from the game state, so a bot plays the same in the simulator, the terminal and online; and
//! the loop that plays a whole game with one bot per seat.
//!
//! What it is not: it does no I/O and reads no clock; a bot's randomness comes from its own
//! seeded ChaCha RNG, so a bot is deterministic for a given seed.

pub mod beginner;
pub mod bet_model;
pub mod dyn_bot;
pub mod expert;
pub mod hand_model;
pub mod heuristic;
pub mod infer;
pub mod ismcts;
pub mod level;
pub mod outcomes;
pub mod pi;
pub mod policy;
pub mod random;
pub mod sample;
pub mod seams;
pub mod seven;
pub mod spec;
pub mod value;

use oh7_core::game::{Game, Seat};

pub use dyn_bot::{DynBot, ForGame};
pub use level::{BotError, BotLevel, Level, ReviewLevel};
use oh7_core::registry::GameId;
pub use random::{RandomBot, random_oh7_game};
pub use spec::{GameBots, GameSpec};

/// A computer player: given what one seat may know and its legal actions, an action.
///
/// `legal` is never empty; the returned action must be one of `legal`.
pub trait Bot<G: Game>: Send {
    /// The bot's name as shown in records (`bot:random`, ...).
    fn name(&self) -> String;
    /// Choose an action for the seat of `view`.
    fn choose(&mut self, view: &G::View<'_>, legal: &[G::Action]) -> G::Action;
}

/// Why a game could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum PlayError<E: std::error::Error + 'static> {
    /// A bot returned an action the game refused.
    #[error("seat {seat} ({bot}) chose `{action}`, which the game refused: {error}")]
    Refused {
        /// The seat.
        seat: Seat,
        /// The bot's name.
        bot: String,
        /// The action, as text.
        action: String,
        /// The game's reason.
        error: E,
    },
    /// The game went on past the step limit (a bug in a ruleset or the engine).
    #[error("the game did not end within {0} decisions")]
    TooLong(u64),
}

/// Play `game` to its end, asking `bots[seat]` for every decision of `seat` (seats that owe a
/// decision at the same time are asked in seat order; each sees only its own view).
/// Returns the number of decisions made.
pub fn play_game<G: Game>(
    game: &mut G,
    bots: &mut [Box<dyn Bot<G>>],
    max_decisions: u64,
) -> Result<u64, PlayError<G::Error>> {
    let mut legal = Vec::with_capacity(64);
    let mut n = 0u64;
    while let Some(seat) = game.to_move().lowest() {
        game.legal_actions(seat, &mut legal);
        let action = {
            let view = game.view(seat);
            bots[seat].choose(&view, &legal)
        };
        if let Err(error) = game.apply(seat, action) {
            return Err(PlayError::Refused { seat, bot: bots[seat].name(), action: action.to_string(), error });
        }
        n += 1;
        if n > max_decisions {
            return Err(PlayError::TooLong(max_decisions));
        }
    }
    Ok(n)
}

/// The bot levels offered for the Oh 7 family, weakest first (the last, the strongest, gives
/// hints). `easy`, `medium` and `hard` are the determinization search ([`expert::ExpertBot`])
/// with growing work budgets ([`expert::Budget::of`]); `ismcts` is published ISMCTS
/// ([`ismcts::IsmctsBot`]), the general method to beat; `expert` is ISMCTS with four times its
/// budget ([`ismcts::EXPERT_ITERATIONS`]) drawing its deals from the learned hand model.
/// (The oracle, which sees every hand, is not a player: see [`expert::OracleBot`].)
pub const OH7_LEVELS: &[&str] = &level::OH7_NAMES;
/// The bot levels offered for Seven, weakest first.
pub const SEVEN_LEVELS: &[&str] = &level::SEVEN_NAMES;

/// Playouts per candidate action of the Seven `search` bot.
pub const SEVEN_SEARCH_SAMPLES: u32 = 256;

/// The bots of a game, typed for its engine: the generic counterpart of [`GameBots`] (which
/// gives them behind [`DynBot`]), for code that holds the concrete game (the terminal).
pub trait BotsOf: Game + Sized {
    /// The levels offered to players, weakest first (the last is the strongest, used for hints).
    fn bot_levels() -> &'static [&'static str];
    /// A bot of `level`.
    fn bot_of(level: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, BotError>;
}

impl BotsOf for oh7_core::oh7::Oh7Game {
    fn bot_levels() -> &'static [&'static str] {
        OH7_LEVELS
    }
    fn bot_of(level: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, BotError> {
        oh7_bot(level, seed)
    }
}

impl BotsOf for oh7_core::seven::SevenGame {
    fn bot_levels() -> &'static [&'static str] {
        SEVEN_LEVELS
    }
    fn bot_of(level: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, BotError> {
        seven_bot(level, seed)
    }
}

/// A bot for the Oh 7 family by level name (see [`OH7_LEVELS`]) or research setting
/// ([`BotLevel`]).
pub fn oh7_bot(level: &str, seed: u64) -> Result<Box<dyn Bot<oh7_core::oh7::Oh7Game>>, BotError> {
    oh7_bot_of(&BotLevel::parse(GameId::Oh7, level)?, seed)
}

/// A bot for the Oh 7 family of a [`BotLevel`] already read.
pub fn oh7_bot_of(level: &BotLevel, seed: u64) -> Result<Box<dyn Bot<oh7_core::oh7::Oh7Game>>, BotError> {
    match level {
        BotLevel::Level(l) => match l {
            Level::Random => Ok(Box::new(RandomBot::new(seed))),
            Level::Beginner => Ok(Box::new(beginner::BeginnerBot::new(seed))),
            Level::Heuristic => Ok(Box::new(heuristic::HeuristicBot::new())),
            Level::Ismcts => Ok(Box::new(ismcts::IsmctsBot::new(ismcts::IsmctsConfig::default(), seed))),
            // The strongest level: ISMCTS with four times the budget.
            Level::Expert => Ok(Box::new(ismcts::IsmctsBot::expert(seed))),
            Level::Easy | Level::Medium | Level::Hard => {
                let b = expert::Budget::of(*l).expect("a budget per search level");
                Ok(Box::new(expert::ExpertBot::new(l.name(), b, seed)))
            }
            Level::Search => Err(BotError::OtherGame { level: l.name().to_string(), game: GameId::Oh7.name() }),
        },
        BotLevel::BetNet { path, top } => {
            let net = bet_model_at(path)?;
            Ok(Box::new(bet_model::LearnedBets::new(net, ismcts::IsmctsBot::expert(seed), *top, level.to_string())))
        }
        BotLevel::Hybrid(it) => {
            let cfg = ismcts::IsmctsConfig { iterations: *it, ..ismcts::IsmctsConfig::default() };
            Ok(Box::new(HybridBot::new(&level.to_string(), cfg, seed)))
        }
        BotLevel::Pimc => Ok(Box::new(expert::ExpertBot::new(&level.to_string(), expert::Budget::EXPERT, seed))),
        BotLevel::Mix(bets, play) => {
            Ok(Box::new(MixBot { bets: oh7_bot_of(bets, seed)?, play: oh7_bot_of(play, seed ^ 0x51)? }))
        }
        BotLevel::IsmctsWith(settings) => {
            Ok(Box::new(ismcts::IsmctsBot::new(ismcts::IsmctsConfig::parse(settings)?, seed)))
        }
        BotLevel::Oracle => Err(BotError::Oracle),
        BotLevel::OracleExpert { .. } => Err(BotError::BetsOnly(level.to_string())),
    }
}

/// Research (`hybrid:N`): ISMCTS for the bets and the play until [`expert::Budget::exact_from`]
/// tricks are left, then the determinization search at the [`expert::Budget::EXPERT`] budget,
/// whose exact solver takes over from there.
struct HybridBot {
    ismcts: ismcts::IsmctsBot,
    search: expert::ExpertBot,
    name: String,
}

impl HybridBot {
    fn new(name: &str, cfg: ismcts::IsmctsConfig, seed: u64) -> HybridBot {
        HybridBot {
            ismcts: ismcts::IsmctsBot::new(cfg, seed),
            search: expert::ExpertBot::new(name, expert::Budget::EXPERT, seed ^ 0x77),
            name: name.to_string(),
        }
    }
}

impl Bot<oh7_core::oh7::Oh7Game> for HybridBot {
    fn name(&self) -> String {
        format!("bot:{}", self.name)
    }
    fn choose(&mut self, view: &oh7_core::oh7::SeatView<'_>, legal: &[oh7_core::oh7::Action]) -> oh7_core::oh7::Action {
        use oh7_core::oh7::Action;
        let tricks_left = oh7_core::oh7::TRICKS - view.tricks().len();
        match legal[0] {
            Action::Bet(_) => self.ismcts.choose(view, legal),
            Action::Play(_) if tricks_left > expert::Budget::EXPERT.exact_from as usize => {
                self.ismcts.choose(view, legal)
            }
            _ => self.search.choose(view, legal),
        }
    }
}

/// Research: one bot's bets, another's other decisions.
struct MixBot {
    bets: Box<dyn Bot<oh7_core::oh7::Oh7Game>>,
    play: Box<dyn Bot<oh7_core::oh7::Oh7Game>>,
}

impl Bot<oh7_core::oh7::Oh7Game> for MixBot {
    fn name(&self) -> String {
        format!("mix:{}:{}", self.bets.name(), self.play.name())
    }
    fn choose(&mut self, view: &oh7_core::oh7::SeatView<'_>, legal: &[oh7_core::oh7::Action]) -> oh7_core::oh7::Action {
        match legal[0] {
            oh7_core::oh7::Action::Bet(_) => self.bets.choose(view, legal),
            _ => self.play.choose(view, legal),
        }
    }
}

/// The bid evaluator in `path`, read once per process.
fn bet_model_at(path: &str) -> Result<std::sync::Arc<bet_model::BetNet>, BotError> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static LOADED: OnceLock<Mutex<HashMap<String, Arc<bet_model::BetNet>>>> = OnceLock::new();
    let mut loaded = LOADED.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(net) = loaded.get(path) {
        return Ok(net.clone());
    }
    let bytes = std::fs::read(path).map_err(|e| BotError::Model(format!("cannot read {path}: {e}")))?;
    let net =
        Arc::new(bet_model::BetNet::from_safetensors(&bytes).map_err(|e| BotError::Model(format!("{path}: {e}")))?);
    loaded.insert(path.to_string(), net.clone());
    Ok(net)
}

/// A bot for Seven by level name (see [`SEVEN_LEVELS`]).
pub fn seven_bot(level: &str, seed: u64) -> Result<Box<dyn Bot<oh7_core::seven::SevenGame>>, BotError> {
    seven_bot_of(&BotLevel::parse(GameId::Seven, level)?, seed)
}

/// A bot for Seven of a [`BotLevel`] already read.
pub fn seven_bot_of(level: &BotLevel, seed: u64) -> Result<Box<dyn Bot<oh7_core::seven::SevenGame>>, BotError> {
    match level {
        BotLevel::Level(Level::Random) => Ok(Box::new(RandomBot::new(seed))),
        BotLevel::Level(Level::Heuristic) => Ok(Box::new(seven::SevenHeuristic)),
        BotLevel::Level(Level::Search) => Ok(Box::new(seven::SevenSearch::new(seed, SEVEN_SEARCH_SAMPLES))),
        other => Err(BotError::OtherGame { level: other.to_string(), game: GameId::Seven.name() }),
    }
}

impl ismcts::IsmctsBot {
    /// An ISMCTS bot with `cfg`, deterministic for `seed`: its leaves valued by the playout or,
    /// with [`ismcts::IsmctsConfig::value`], the shipped learned value; the shipped policy prior
    /// with [`ismcts::IsmctsConfig::prior`]. (Wired here, above the search and the learned
    /// models, so that neither imports the other.)
    pub fn new(cfg: ismcts::IsmctsConfig, seed: u64) -> ismcts::IsmctsBot {
        let eval: Box<dyn seams::Evaluator> = if cfg.value {
            Box::new(value::LearnedValue::new(value::ValueNet::shipped().clone(), cfg.playout(), cfg.value_bets))
        } else {
            Box::new(cfg.playout())
        };
        let prior = cfg.prior.then(|| Box::new(policy::PolicyPrior::shipped()) as Box<dyn seams::Prior>);
        let evidence = cfg.evidence;
        let bot = ismcts::IsmctsBot::assemble(cfg, seed, eval, prior);
        if evidence > 0.0 {
            bot.with_bet_model(Box::new(bet_model::BetPolicy::new(bet_model::BetNet::shipped().clone(), evidence)))
        } else {
            bot
        }
    }

    /// The `expert` level: ISMCTS with [`ismcts::EXPERT_ITERATIONS`] iterations per decision,
    /// its determinizations drawn by the learned hand model ([`ismcts::IsmctsConfig::hand`]; the
    /// gates that put it there are in `docs/bots.md`).
    pub fn expert(seed: u64) -> ismcts::IsmctsBot {
        let cfg = ismcts::IsmctsConfig {
            iterations: ismcts::EXPERT_ITERATIONS,
            hand: true,
            ..ismcts::IsmctsConfig::default()
        };
        ismcts::IsmctsBot::new(cfg, seed).named("bot:expert")
    }
}
