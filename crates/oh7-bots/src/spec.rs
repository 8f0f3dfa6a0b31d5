//! The bots of each game ([`GameBots`]): the levels a game offers and a bot of one of them,
//! behind [`DynBot`], for a [`GameSpec`] of the registry (`oh7_core::registry`), which holds
//! everything else about "a game to start".

use oh7_core::registry::GameId;
pub use oh7_core::registry::GameSpec;

use crate::dyn_bot::{DynBot, ForGame};
use crate::level::{BotLevel, Level};

/// The bots a game has: its levels, weakest first, and a bot of a level.
pub trait GameBots {
    /// The bot levels offered for this game, weakest first.
    fn levels(&self) -> &'static [&'static str];

    /// The strongest level (used when an away person's seat is played by a bot, and for hints).
    fn strongest(&self) -> &'static str {
        self.levels().last().copied().unwrap_or(crate::Level::Random.name())
    }

    /// A bot of `level` for this game (see [`GameBots::levels`]), read from its text.
    fn bot(&self, level: &str, seed: u64) -> Result<Box<dyn DynBot>, crate::BotError> {
        self.bot_level(&self.parse_level(level)?, seed)
    }

    /// A level of this game, or for Oh 7 a research setting, read from its text once.
    fn parse_level(&self, text: &str) -> Result<BotLevel, crate::level::LevelError> {
        BotLevel::parse(self.game(), text)
    }

    /// A bot of a level already read.
    fn bot_level(&self, level: &BotLevel, seed: u64) -> Result<Box<dyn DynBot>, crate::BotError> {
        match self.game() {
            GameId::Oh7 => crate::oh7_bot_of(level, seed).map(ForGame::boxed),
            GameId::Seven => crate::seven_bot_of(level, seed).map(ForGame::boxed),
        }
    }

    /// The game's identity (its levels are [`Level::of`] it).
    fn game(&self) -> GameId;

    /// The level of this game named `name` (what a command, a form or a log says), read once.
    fn level(&self, name: &str) -> Option<Level> {
        Level::of(self.game()).iter().copied().find(|l| l.name() == name)
    }

    /// Whether this game offers `level`.
    fn offers(&self, level: Level) -> bool {
        Level::of(self.game()).contains(&level)
    }

    /// The strongest level, typed.
    fn strongest_level(&self) -> Level {
        Level::strongest(self.game())
    }

    /// A bot of a level of this game.
    fn bot_of(&self, level: Level, seed: u64) -> Result<Box<dyn DynBot>, crate::BotError> {
        self.bot_level(&BotLevel::Level(level), seed)
    }
}

impl GameBots for GameId {
    fn levels(&self) -> &'static [&'static str] {
        match self {
            GameId::Oh7 => crate::OH7_LEVELS,
            GameId::Seven => crate::SEVEN_LEVELS,
        }
    }

    fn game(&self) -> GameId {
        *self
    }
}

impl GameBots for GameSpec {
    fn levels(&self) -> &'static [&'static str] {
        self.id().levels()
    }

    fn game(&self) -> GameId {
        self.id()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::ruleset::{Preset, Ruleset};
    use oh7_core::seven::SevenRules;

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

    #[test]
    fn the_strongest_levels() {
        assert_eq!(GameSpec::oh7(Ruleset::preset(Preset::En)).strongest(), "expert");
        assert_eq!(GameId::Seven.strongest(), *crate::SEVEN_LEVELS.last().unwrap());
    }
}
