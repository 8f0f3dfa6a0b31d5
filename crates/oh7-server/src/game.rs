//! The games a table can hold, behind one text-shaped surface: the Oh 7 family and Seven, their
//! bots, and what a seat (or a spectator) may see of them.
//!
//! Actions cross the wire and the event log as the engine's own text (`play 7H`, `draw`), read
//! back with [`Game::parse_action`], so a table's log replays through the engine exactly as a
//! record does.

use oh7_bots::Bot;
use oh7_core::game::{Game, Seat, SeatSet, SeatViewLike};
use oh7_core::oh7::{Oh7Game, SeatView};
use oh7_core::refusal::{Coded, Refused};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{SevenGame, SevenRules};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
            GameSpec::Oh7 { .. } => oh7_bots::OH7_LEVELS,
            GameSpec::Seven { .. } => oh7_bots::SEVEN_LEVELS,
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

    /// The rules as the table's settings store them (`Ruleset` or `SevenRules`, serialized).
    pub fn ruleset_json(&self) -> Value {
        match self {
            GameSpec::Oh7 { ruleset } => serde_json::to_value(ruleset),
            GameSpec::Seven { rules } => serde_json::to_value(rules),
        }
        .expect("rules always serialize")
    }

    /// The game's name on the wire (`oh7`, `seven`).
    pub fn game_name(&self) -> &'static str {
        match self {
            GameSpec::Oh7 { .. } => "oh7",
            GameSpec::Seven { .. } => "seven",
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

    /// A new game (seats unnamed).
    pub fn new_game(&self, players: usize, seed: u64) -> Result<AnyGame, String> {
        match self {
            GameSpec::Oh7 { ruleset } => {
                Oh7Game::new(*ruleset, players, seed).map(AnyGame::Oh7).map_err(|e| e.to_string())
            }
            GameSpec::Seven { rules } => {
                SevenGame::new(rules.clone(), players, seed).map(AnyGame::Seven).map_err(|e| e.to_string())
            }
        }
    }

    /// A bot of `level` for this game.
    pub fn bot(&self, level: &str, seed: u64) -> Result<AnyBot, String> {
        match self {
            GameSpec::Oh7 { .. } => oh7_bots::oh7_bot(level, seed).map(AnyBot::Oh7),
            GameSpec::Seven { .. } => oh7_bots::seven_bot(level, seed).map(AnyBot::Seven),
        }
    }
}

/// A game of either kind.
// One per table, owned by its task and moved only when a bot is asked: the size difference
// costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum AnyGame {
    /// The Oh 7 family.
    Oh7(Oh7Game),
    /// Seven.
    Seven(SevenGame),
}

/// A bot for either kind of game.
pub enum AnyBot {
    /// The Oh 7 family.
    Oh7(Box<dyn Bot<Oh7Game>>),
    /// Seven.
    Seven(Box<dyn Bot<SevenGame>>),
}

fn legal_text<G: Game>(g: &G, seat: Seat) -> Vec<String> {
    let mut out = Vec::new();
    g.legal_actions(seat, &mut out);
    out.iter().map(|a| a.to_string()).collect()
}

fn turn<G: Game>(g: &G, seat: Seat) -> Result<(), Refused> {
    if g.to_move().contains(seat) {
        return Ok(());
    }
    let (rule, message) =
        if g.is_over() { ("game_over", "the game is over") } else { ("not_your_turn", "it is not your turn") };
    Err(Refused { rule, params: Default::default(), message: message.to_string() })
}

fn apply_text<G: Game>(g: &mut G, seat: Seat, text: &str) -> Result<String, Refused> {
    turn(g, seat)?;
    let action = g.parse_action(seat, text).map_err(|e| e.refused())?;
    g.apply(seat, action).map_err(|e| e.refused())?;
    Ok(action.to_string())
}

/// Whether `text` is a legal action of `seat` now, without changing the game: its canonical
/// text, or the engine's own refusal (found on a copy of the game, on the refusal path only).
fn check_text<G: Game>(g: &G, seat: Seat, text: &str) -> Result<String, Refused> {
    turn(g, seat)?;
    let action = g.parse_action(seat, text).map_err(|e| e.refused())?;
    let mut legal = Vec::new();
    g.legal_actions(seat, &mut legal);
    if legal.contains(&action) {
        return Ok(action.to_string());
    }
    match g.clone().apply(seat, action) {
        Err(e) => Err(e.refused()),
        Ok(()) => {
            Err(Refused { rule: "not_a_choice", params: Default::default(), message: "not a legal action".into() })
        }
    }
}

fn decide<G: Game>(g: &G, bot: &mut dyn Bot<G>, seat: Seat) -> Option<String> {
    let mut legal = Vec::new();
    g.legal_actions(seat, &mut legal);
    if legal.is_empty() {
        return None;
    }
    let view = g.view(seat);
    Some(bot.choose(&view, &legal).to_string())
}

impl AnyGame {
    /// Players (the Dummy not counted).
    pub fn players(&self) -> usize {
        match self {
            AnyGame::Oh7(g) => g.players(),
            AnyGame::Seven(g) => g.players(),
        }
    }

    /// Name the seats (the names go into the record).
    pub fn set_names(&mut self, names: Vec<String>) {
        match self {
            AnyGame::Oh7(g) => g.set_seat_names(names),
            AnyGame::Seven(g) => {
                // The count matches the players by construction; a mismatch keeps the default names.
                let _ = g.set_seat_names(names);
            }
        }
    }

    /// The seats that owe a decision.
    pub fn to_move(&self) -> SeatSet {
        match self {
            AnyGame::Oh7(g) => g.to_move(),
            AnyGame::Seven(g) => g.to_move(),
        }
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        match self {
            AnyGame::Oh7(g) => g.is_over(),
            AnyGame::Seven(g) => g.is_over(),
        }
    }

    /// The legal actions of `seat`, as text (empty if it owes nothing).
    pub fn legal(&self, seat: Seat) -> Vec<String> {
        match self {
            AnyGame::Oh7(g) => legal_text(g, seat),
            AnyGame::Seven(g) => legal_text(g, seat),
        }
    }

    /// Read and apply an action of `seat` written as text; returns its canonical text. On error
    /// the game is unchanged.
    pub fn apply_text(&mut self, seat: Seat, text: &str) -> Result<String, Refused> {
        match self {
            AnyGame::Oh7(g) => apply_text(g, seat, text),
            AnyGame::Seven(g) => apply_text(g, seat, text),
        }
    }

    /// Whether `text` is a legal action of `seat` now (its canonical text); changes nothing.
    pub fn check_text(&self, seat: Seat, text: &str) -> Result<String, Refused> {
        match self {
            AnyGame::Oh7(g) => check_text(g, seat, text),
            AnyGame::Seven(g) => check_text(g, seat, text),
        }
    }

    /// What `seat` may know (`None`: a spectator), as JSON. The only way the server reads a
    /// game for a viewer.
    pub fn view_json(&self, seat: Option<Seat>) -> Value {
        match (self, seat) {
            (AnyGame::Oh7(g), Some(s)) => g.view(s).to_json(),
            (AnyGame::Oh7(g), None) => SeatView::spectator(g).to_json(),
            (AnyGame::Seven(g), Some(s)) => g.seat_view(s).to_json(),
            (AnyGame::Seven(g), None) => g.spectator_view().to_json(),
        }
    }

    /// Running totals.
    pub fn totals(&self) -> Vec<i64> {
        match self {
            AnyGame::Oh7(g) => g.totals(),
            AnyGame::Seven(g) => g.totals(),
        }
    }

    /// The winners (empty until the end).
    pub fn winners(&self) -> Vec<Seat> {
        match self {
            AnyGame::Oh7(g) => g.winners(),
            AnyGame::Seven(g) => g.winners(),
        }
    }

    /// The record (`oh7-record/1`, or Seven's); holds the seed and every hand, so it leaves the
    /// server only once the game is over.
    pub fn record(&self) -> Value {
        match self {
            AnyGame::Oh7(g) => g.record(),
            AnyGame::Seven(g) => g.record(),
        }
    }

    /// The decision of `bot` for `seat`, from that seat's view only (`None` if it owes nothing or
    /// the bot is for the other game).
    pub fn decide(&self, bot: &mut AnyBot, seat: Seat) -> Option<String> {
        match (self, bot) {
            (AnyGame::Oh7(g), AnyBot::Oh7(b)) => decide(g, b.as_mut(), seat),
            (AnyGame::Seven(g), AnyBot::Seven(b)) => decide(g, b.as_mut(), seat),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of every legal action reads back as the same action, so the log replays.
    #[test]
    fn action_text_round_trips_through_the_log() {
        let specs = [
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) }, 4),
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::Bga) }, 5),
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::Kod7) }, 2),
            (GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::FrAdvanced) }, 4),
            (GameSpec::Seven { rules: SevenRules::default() }, 4),
        ];
        for (spec, players) in specs {
            for seed in 0..3 {
                let mut g = spec.new_game(players, seed).unwrap();
                let mut replayed = spec.new_game(players, seed).unwrap();
                let mut bots: Vec<AnyBot> =
                    (0..players).map(|s| spec.bot("random", seed + s as u64).unwrap()).collect();
                let mut steps = 0;
                while let Some(seat) = g.to_move().lowest() {
                    let text = g.decide(&mut bots[seat], seat).unwrap();
                    let canonical = g.apply_text(seat, &text).unwrap();
                    assert_eq!(replayed.apply_text(seat, &canonical).unwrap(), canonical);
                    steps += 1;
                    assert!(steps < 20_000);
                }
                assert_eq!(g.record(), replayed.record());
            }
        }
    }

    #[test]
    fn refused_actions_change_nothing() {
        let spec = GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) };
        let mut g = spec.new_game(4, 7).unwrap();
        let before = g.record();
        let idle = (0..4).find(|&s| !g.to_move().contains(s));
        assert!(g.apply_text(0, "play nonsense").is_err());
        if let Some(s) = idle {
            assert!(g.apply_text(s, "bet 3H").is_err());
        }
        assert_eq!(g.record(), before);
    }
}
