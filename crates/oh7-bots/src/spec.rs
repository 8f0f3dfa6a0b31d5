//! Which game and which rules: [`GameSpec`], the one description of "a game to start" shared by
//! the server's tables, `oh7 play`, `oh7 simulate` and tournaments; it makes the game
//! ([`GameSpec::new_game`], behind [`DynGame`]) and its bots ([`GameSpec::bot`], behind
//! [`DynBot`]).
//!
//! Its serde form (`{"game": "oh7", "ruleset": …}`, `{"game": "seven", "rules": …}`) is stored
//! in the server's databases: it must not change.

use oh7_core::DynGame;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{SevenGame, SevenRules};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dyn_bot::{DynBot, ForGame};

/// Which game and which rules a table plays.
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

impl GameSpec {
    /// The bot levels offered for this game, weakest first.
    pub fn levels(&self) -> &'static [&'static str] {
        match self {
            GameSpec::Oh7 { .. } => crate::OH7_LEVELS,
            GameSpec::Seven { .. } => crate::SEVEN_LEVELS,
        }
    }

    /// The strongest level (used when an away person's seat is played by a bot, and for hints).
    pub fn strongest(&self) -> &'static str {
        self.levels().last().copied().unwrap_or("random")
    }

    /// A short name for the game and preset (`en`, `bga`, `seven`).
    pub fn label(&self) -> String {
        match self {
            GameSpec::Oh7 { ruleset } => ruleset.preset.name().to_string(),
            GameSpec::Seven { .. } => "seven".to_string(),
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
                let ok: Vec<usize> = (oh7_core::seven::MIN_PLAYERS..=oh7_core::seven::MAX_PLAYERS)
                    .filter(|&n| self.check_players(n).is_ok())
                    .collect();
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

    /// The game's name on the wire and in records (`oh7`, `seven`).
    pub fn game_name(&self) -> &'static str {
        match self {
            GameSpec::Oh7 { .. } => <Oh7Game as oh7_core::Game>::NAME,
            GameSpec::Seven { .. } => <SevenGame as oh7_core::Game>::NAME,
        }
    }

    /// Every game a table can be created with: each Oh 7 preset, then Seven with its default
    /// rules.
    pub fn all() -> Vec<GameSpec> {
        let mut out: Vec<GameSpec> =
            Preset::ALL.into_iter().map(|p| GameSpec::Oh7 { ruleset: Ruleset::preset(p) }).collect();
        out.push(GameSpec::Seven { rules: SevenRules::default() });
        out
    }

    /// Check that `players` can play this game.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        self.new_game(players, 0).map(|_| ())
    }

    /// A new game (seats unnamed), behind [`DynGame`]; downcast it (`as_any`, `into_any`) where
    /// the concrete game is needed.
    pub fn new_game(&self, players: usize, seed: u64) -> Result<Box<dyn DynGame>, String> {
        match self {
            GameSpec::Oh7 { ruleset } => match Oh7Game::new(*ruleset, players, seed) {
                Ok(g) => Ok(Box::new(g)),
                Err(e) => Err(e.to_string()),
            },
            GameSpec::Seven { rules } => match SevenGame::new(rules.clone(), players, seed) {
                Ok(g) => Ok(Box::new(g)),
                Err(e) => Err(e.to_string()),
            },
        }
    }

    /// A new game as a learning environment (fixed action ids, masks, observations).
    pub fn rl_env(&self, players: usize, seed: u64) -> Result<Box<dyn oh7_core::rl::RlEnv>, String> {
        match self {
            GameSpec::Oh7 { ruleset } => match Oh7Game::new(*ruleset, players, seed) {
                Ok(g) => Ok(Box::new(oh7_core::rl::Oh7Env::new(g))),
                Err(e) => Err(e.to_string()),
            },
            GameSpec::Seven { rules } => match SevenGame::new(rules.clone(), players, seed) {
                Ok(g) => Ok(Box::new(oh7_core::rl_seven::SevenEnv::new(g))),
                Err(e) => Err(e.to_string()),
            },
        }
    }

    /// A bot of `level` for this game (see [`GameSpec::levels`]).
    pub fn bot(&self, level: &str, seed: u64) -> Result<Box<dyn DynBot>, String> {
        match self {
            GameSpec::Oh7 { .. } => crate::oh7_bot(level, seed).map(ForGame::boxed),
            GameSpec::Seven { .. } => crate::seven_bot(level, seed).map(ForGame::boxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> [(GameSpec, usize); 5] {
        [
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) }, 4),
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::Bga) }, 5),
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::Kod7) }, 2),
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::FrAdvanced) }, 4),
            (GameSpec::Seven { rules: SevenRules::default() }, 4),
        ]
    }

    /// The text of every decision reads back as the same action in a second game of the same
    /// seed, so a log of action texts replays a game: for every preset and Seven.
    #[test]
    fn action_text_round_trips_through_the_log() {
        for (spec, players) in specs() {
            for seed in 0..3 {
                let mut g = spec.new_game(players, seed).unwrap();
                let mut replayed = spec.new_game(players, seed).unwrap();
                let mut bots: Vec<Box<dyn DynBot>> =
                    (0..players).map(|s| spec.bot("random", seed + s as u64).unwrap()).collect();
                let mut steps = 0;
                while let Some(seat) = g.to_move().lowest() {
                    let text = bots[seat].decide(&*g, seat).unwrap();
                    let canonical = g.apply_text(seat, &text).unwrap();
                    assert_eq!(replayed.apply_text(seat, &canonical).unwrap(), canonical);
                    steps += 1;
                    assert!(steps < 20_000);
                }
                assert_eq!(g.game_name(), spec.game_name());
                assert_eq!(g.record(), replayed.record());
            }
        }
    }

    /// A refused action (unreadable, or from a seat that owes nothing) changes nothing.
    #[test]
    fn refused_actions_change_nothing() {
        let spec = GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) };
        let mut g = spec.new_game(4, 7).unwrap();
        let before = g.record();
        let idle = (0..4).find(|&s| !g.to_move().contains(s));
        assert!(g.apply_text(0, "play nonsense").is_err());
        if let Some(s) = idle {
            assert_eq!(g.apply_text(s, "bet 3H").unwrap_err().rule, "not_your_turn");
        }
        assert_eq!(g.record(), before);
    }

    /// A bot asked about the other game, or about a seat that owes nothing, has no answer.
    #[test]
    fn a_bot_answers_only_for_its_game_and_a_seat_that_owes() {
        let oh7 = GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) };
        let seven = GameSpec::Seven { rules: SevenRules::default() };
        let g = seven.new_game(4, 1).unwrap();
        let mut bot = oh7.bot("heuristic", 1).unwrap();
        let seat = g.to_move().lowest().unwrap();
        assert_eq!(bot.decide(&*g, seat), None);
        let mut bot = seven.bot("heuristic", 1).unwrap();
        assert!(bot.decide(&*g, seat).is_some());
        let idle = (0..4).find(|&s| !g.to_move().contains(s)).unwrap();
        assert_eq!(bot.decide(&*g, idle), None);
        assert!(bot.name().contains("heuristic"));
        assert!(oh7.bot("nonsense", 1).is_err());
    }

    /// The serde form is the one the server's databases hold.
    #[test]
    fn the_stored_form_does_not_change() {
        let spec = GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) };
        let v = serde_json::to_value(&spec).unwrap();
        assert_eq!(v["game"], "oh7");
        assert_eq!(v["ruleset"], serde_json::to_value(Ruleset::preset(Preset::En)).unwrap());
        assert_eq!(v.as_object().unwrap().len(), 2);
        assert_eq!(serde_json::from_value::<GameSpec>(v).unwrap(), spec);
        let seven: GameSpec = serde_json::from_value(serde_json::json!({"game": "seven"})).unwrap();
        assert_eq!(seven, GameSpec::Seven { rules: SevenRules::default() });
        let v = serde_json::to_value(&seven).unwrap();
        assert_eq!(v, serde_json::json!({"game": "seven", "rules": SevenRules::default()}));
        assert_eq!(GameSpec::all().len(), Preset::ALL.len() + 1);
        assert_eq!(seven.player_range(), Some((oh7_core::seven::MIN_PLAYERS, oh7_core::seven::MAX_PLAYERS)));
        assert_eq!(seven.label(), "seven");
        assert_eq!(spec.strongest(), "expert");
    }
}
