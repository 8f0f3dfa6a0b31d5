//! What a table's log rebuilds: seats, the game, finished games, chat and the answers to
//! command ids. [`Core::check`] says whether an event applies without changing anything, so a
//! command is checked, written, then applied: no copy of the table is kept to roll back.

use oh7_bots::{GameBots, GameSpec, Level};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use oh7_core::game::{Seat, SeatSet};
use oh7_core::refusal::Refused;
use serde_json::Value;

use crate::event::Event;
use crate::project::{Happened, RematchInfo, SeatInfo, TableInfo};
use crate::protocol::{ChatLine, ErrorCode, Refusal, TableState, Told};
use crate::token::TokenHash;
use oh7_core::DynGame;
use oh7_core::dyn_game::Checked;
use serde::{Deserialize, Serialize};

/// Chat lines kept for snapshots.
pub const CHAT_KEPT: usize = 50;

/// A table's settings, fixed at creation (stored as JSON in the `tables` row).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableConfig {
    /// Game and rules.
    pub spec: GameSpec,
    /// Players.
    pub players: usize,
    /// Per seat: `None` for a person, or a bot level.
    pub seats: Vec<Option<Level>>,
    /// `en` or `fr`.
    pub lang: String,
    /// Seconds a person has for a decision before a bot makes it (`None`: no clock).
    #[serde(default)]
    pub turn_clock_s: Option<u32>,
    /// The format of the table's log ([`crate::event`]); tables created before it was written
    /// down have format 1.
    #[serde(default = "format_1")]
    pub log: u32,
    /// A rated table: every person at it is signed in, and each finished game moves their
    /// ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A turn-based table: seconds each person has for a decision; then a bot makes it. No bot
    /// takes an away seat meanwhile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_deadline_s: Option<u64>,
    /// Anyone may join: the table is listed among the open tables while it waits for players
    /// (`false`: by its link only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

fn format_1() -> u32 {
    1
}

/// One seat.
#[derive(Clone, Debug, Default)]
pub struct SeatState {
    /// A person's display name.
    pub name: Option<String>,
    /// SHA-256 of the person's token.
    pub token_hash: Option<TokenHash>,
    /// A bot seat's level.
    pub bot: Option<Level>,
    /// Connections holding the seat.
    pub conns: u32,
    /// The person left (and has not come back).
    pub away: bool,
    /// Counts absences, so an old grace timer does nothing.
    pub away_epoch: u64,
    /// A bot plays for the away person.
    pub bot_for_away: bool,
    /// The turn clock ran out: a bot makes this one decision.
    pub forced: bool,
    /// Since which version the seat has owed a decision without a break.
    pub owed_since: Option<u64>,
    /// When the seat's last chat line was written (ms since 1970, as the driver said; for the
    /// chat rate limit).
    pub last_chat_ms: Option<i64>,
}

/// How many command ids of each seat are remembered: a repeated id among them is answered
/// with its first ack. A client repeats only the commands it has not seen answered, one or two
/// at most; a table that plays for days keeps no more than this per seat.
pub const ACTED_KEPT: usize = 64;

/// The versions that acked each seat's last [`ACTED_KEPT`] commands, by command id.
#[derive(Debug, Default)]
pub struct Acted {
    seats: HashMap<Seat, SeatActed>,
}

#[derive(Debug, Default)]
struct SeatActed {
    versions: HashMap<Box<str>, u64>,
    /// The ids in the order they were acted, oldest first.
    order: VecDeque<Box<str>>,
}

impl Acted {
    /// The version that acked the seat's command `id`, if it is among the remembered.
    pub fn get(&self, seat: Seat, id: &str) -> Option<u64> {
        self.seats.get(&seat)?.versions.get(id).copied()
    }

    /// Remembers the seat's command `id` as acked by `version`, forgetting the seat's oldest
    /// beyond [`ACTED_KEPT`].
    pub fn insert(&mut self, seat: Seat, id: &str, version: u64) {
        let s = self.seats.entry(seat).or_default();
        if s.versions.insert(id.into(), version).is_none() {
            s.order.push_back(id.into());
        }
        while s.order.len() > ACTED_KEPT {
            if let Some(old) = s.order.pop_front() {
                s.versions.remove(&old);
            }
        }
    }
}

/// A game of the table that has ended.
#[derive(Debug)]
pub struct FinishedGame {
    /// Its number at the table, from 1.
    pub game: u32,
    /// Its record (`oh7-record/1`, or Seven's) as compact JSON text, compressed (Zstandard):
    /// a table keeps every game it has finished, and a tree of the record takes tens of times
    /// the memory (a `kod7` game: ~8 KB of text, ~1 KB compressed).
    record: Box<[u8]>,
    /// Final totals by seat.
    pub totals: Vec<i64>,
    /// The winners.
    pub winners: Vec<Seat>,
}

impl FinishedGame {
    /// The game `g` that has just ended, number `game` at its table.
    pub fn of(game: u32, g: &dyn DynGame) -> FinishedGame {
        FinishedGame::with_record(game, &g.record(), g.totals(), g.winners())
    }

    /// A finished game from its parts.
    pub fn with_record(game: u32, record: &Value, totals: Vec<i64>, winners: Vec<Seat>) -> FinishedGame {
        let text = record.to_string();
        // Compressing bytes in memory fails only if memory does; then the text is kept as it is.
        #[cfg(feature = "compress")]
        let record = zstd::bulk::compress(text.as_bytes(), 3).unwrap_or_else(|_| text.into_bytes()).into();
        #[cfg(not(feature = "compress"))]
        let record = text.into_bytes().into();
        FinishedGame { game, record, totals, winners }
    }

    /// Its record as a tree (read back from what [`FinishedGame::with_record`] kept; `Null`
    /// only if that could not be read, which it wrote itself).
    pub fn record_value(&self) -> Value {
        #[cfg(feature = "compress")]
        let text = zstd::decode_all(&self.record[..]).unwrap_or_else(|_| self.record.to_vec());
        #[cfg(not(feature = "compress"))]
        let text = self.record.to_vec();
        serde_json::from_slice(&text).unwrap_or_default()
    }
}

/// A rematch the host asked for, waiting on the people's answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The version of the host's request.
    pub asked: u64,
    /// Per seat: `Some(true)` in, `Some(false)` not this time, `None` not answered (bots and
    /// the host count as in).
    pub answers: Vec<Option<bool>>,
}

impl Pending {
    /// Every person has answered.
    pub fn complete(&self) -> bool {
        self.answers.iter().all(Option::is_some)
    }
}

/// Why an event does not apply.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// The engine refused the action.
    #[error("{}", .0.message)]
    Refused(Refused),
    /// The event does not fit the table (only a damaged log has these: live commands are
    /// checked before they become events).
    #[error("{0}")]
    Misfit(&'static str),
}

/// A log's misfit is a bad request; the engine's refusal is `illegal`, with its rule.
impl From<ApplyError> for Refusal {
    fn from(e: ApplyError) -> Refusal {
        match e {
            ApplyError::Refused(r) => Refusal::illegal(r),
            ApplyError::Misfit(why) => Refusal::new(ErrorCode::BadRequest, why),
        }
    }
}

fn not_started() -> Refusal {
    Refusal::new(ErrorCode::NotStarted, "The game has not started yet.")
}

/// The state a log rebuilds: everything but connections and bots.
pub struct Core {
    /// The version of the last event applied (0: none).
    pub version: u64,
    /// Every seat.
    pub seats: Vec<SeatState>,
    /// The game being played or last played (`None` before the first start).
    pub game: Option<Box<dyn DynGame>>,
    /// Games started at the table.
    pub game_number: u32,
    /// Every finished game, first to last.
    pub finished: Vec<Arc<FinishedGame>>,
    /// The last chat lines ([`CHAT_KEPT`]).
    pub chat: VecDeque<ChatLine>,
    /// Acks of the last commands each seat acted, by command id.
    pub acted: Acted,
    /// The rematch being asked, if any.
    pub rematch: Option<Pending>,
}

impl Core {
    /// A table as created: its seats, no game yet, version 0.
    pub fn new(config: &TableConfig) -> Core {
        let seats = config.seats.iter().map(|b| SeatState { bot: *b, ..SeatState::default() }).collect::<Vec<_>>();
        Core {
            version: 0,
            seats,
            game: None,
            game_number: 0,
            finished: Vec::new(),
            chat: VecDeque::new(),
            acted: Acted::default(),
            rematch: None,
        }
    }

    /// The people other than the host (the seats a rematch asks).
    pub fn asked_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats.iter().enumerate().filter(|(s, st)| *s != 0 && st.name.is_some() && st.bot.is_none()).map(|(s, _)| s)
    }

    /// The seats' names for a game's record: a person's name, `bot:LEVEL`, or `empty`.
    pub fn names(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| match (&s.name, &s.bot) {
                (Some(n), _) => n.clone(),
                (None, Some(level)) => format!("bot:{level}"),
                (None, None) => "empty".to_string(),
            })
            .collect()
    }

    fn seat(config: &TableConfig, seat: Seat) -> Result<Seat, ApplyError> {
        if seat < config.players { Ok(seat) } else { Err(ApplyError::Misfit("no such seat")) }
    }

    /// Whether `ev` applies now; changes nothing. For an action, returns it read (once), with
    /// its canonical text, for [`Core::apply_checked`].
    pub fn check(&self, config: &TableConfig, ev: &Event) -> Result<Option<Checked>, ApplyError> {
        self.check_as(config, ev, true)
    }

    /// [`Core::check`]; an action's text must be in the documented notation when `strict`
    /// (a command), and is read as kindly as the log was written otherwise (a log's own event).
    fn check_as(&self, config: &TableConfig, ev: &Event, strict: bool) -> Result<Option<Checked>, ApplyError> {
        match ev {
            Event::Join { seat, name, .. } => {
                let st = &self.seats[Self::seat(config, *seat)?];
                if st.name.is_some() || st.bot.is_some() {
                    return Err(ApplyError::Misfit("the seat is taken"));
                }
                if name.is_empty() {
                    return Err(ApplyError::Misfit("a join without a name"));
                }
            }
            Event::Start { fill, .. } => {
                if self.game.as_ref().is_some_and(|g| !g.is_over()) {
                    return Err(ApplyError::Misfit("a game is running"));
                }
                let filled = |s: usize| fill.as_ref().and_then(|f| f.get(s)).is_some_and(|l| l.is_some());
                if self.seats.iter().enumerate().any(|(s, st)| st.name.is_none() && st.bot.is_none() && !filled(s)) {
                    return Err(ApplyError::Misfit("a seat is free"));
                }
                if fill.iter().flatten().flatten().any(|l| !config.spec.offers(*l)) {
                    return Err(ApplyError::Misfit("an unknown bot level"));
                }
            }
            Event::Act { seat, action, .. } => {
                let g = self.game.as_ref().ok_or(ApplyError::Misfit("no game"))?;
                let seat = Self::seat(config, *seat)?;
                return g.check_action(seat, action, strict).map(Some).map_err(ApplyError::Refused);
            }
            Event::Seat { target, bot, .. } => {
                if self.game.is_some() {
                    return Err(ApplyError::Misfit("the game has started"));
                }
                if *target == 0 || *target >= config.players {
                    return Err(ApplyError::Misfit("a bad target seat"));
                }
                if bot.is_some_and(|l| !config.spec.offers(l)) {
                    return Err(ApplyError::Misfit("an unknown bot level"));
                }
                if self.seats[*target].name.is_some() {
                    return Err(ApplyError::Misfit("a person sits there"));
                }
            }
            Event::Rematch { .. } => {
                if !self.game.as_ref().is_some_and(|g| g.is_over()) {
                    return Err(ApplyError::Misfit("no finished game"));
                }
                if self.rematch.is_some() {
                    return Err(ApplyError::Misfit("a rematch is asked already"));
                }
            }
            Event::Answer { seat, .. } => {
                let seat = Self::seat(config, *seat)?;
                if self.rematch.is_none() {
                    return Err(ApplyError::Misfit("no rematch asked"));
                }
                if !self.asked_seats().any(|s| s == seat) {
                    return Err(ApplyError::Misfit("a seat the rematch does not ask"));
                }
            }
            Event::Chat { seat, .. } => {
                Self::seat(config, *seat)?;
            }
        }
        Ok(None)
    }

    /// Apply one event of the log while restoring: checked first (as kindly as the log was
    /// written: it may be an old log's), so on error nothing changed.
    pub fn apply(&mut self, config: &TableConfig, ev: &Event) -> Result<Happened, ApplyError> {
        let checked = self.check_as(config, ev, false)?;
        self.apply_checked(config, ev, checked)
    }

    /// Apply event `ev` as [`Core::check`] found it (`checked`: its action, read once), in
    /// the state it was checked in: live, after its commit, with no change between.
    pub fn apply_checked(
        &mut self,
        config: &TableConfig,
        ev: &Event,
        checked: Option<Checked>,
    ) -> Result<Happened, ApplyError> {
        let happened = match ev {
            Event::Join { seat, name, token_hash } => {
                let st = &mut self.seats[*seat];
                st.name = Some(name.clone());
                st.token_hash = Some(*token_hash);
                Happened::Public(Told::Join { seat: *seat })
            }
            Event::Start { seed, fill, .. } => {
                if let Some(fill) = fill {
                    for (st, level) in self.seats.iter_mut().zip(fill) {
                        if let Some(l) = level
                            && st.name.is_none()
                        {
                            st.bot = Some(*l);
                        }
                    }
                }
                let mut g = config.spec.new_game(config.players, *seed).map_err(|_| ApplyError::Misfit("no game"))?;
                g.set_seat_names(self.names());
                self.game = Some(g);
                self.game_number += 1;
                self.rematch = None;
                for s in &mut self.seats {
                    s.owed_since = None;
                    s.forced = false;
                }
                self.update_owed();
                Happened::Public(Told::Start { game: self.game_number })
            }
            Event::Act { seat, by_bot, .. } => {
                let checked = checked.ok_or(ApplyError::Misfit("an action not checked"))?;
                if checked.seat() != *seat {
                    return Err(ApplyError::Misfit("an action checked for another seat"));
                }
                let action = checked.text().to_string();
                let g = self.game.as_mut().ok_or(ApplyError::Misfit("no game"))?;
                // Checked in this state: the engine takes it.
                g.apply_checked(checked).map_err(ApplyError::Refused)?;
                if g.is_over() {
                    self.finished.push(Arc::new(FinishedGame::of(self.game_number, g.as_ref())));
                }
                // The actor's next decision, if it owes one at once, is a new one: its own
                // clock, its own deadline, and a bot forced to decide made only this one.
                self.seats[*seat].forced = false;
                self.seats[*seat].owed_since = None;
                self.update_owed();
                Happened::Act { seat: *seat, action, by_bot: *by_bot }
            }
            Event::Seat { target, bot, .. } => {
                self.seats[*target].bot = *bot;
                Happened::Public(Told::Seat { seat: *target, bot: *bot })
            }
            Event::Rematch { .. } => {
                let asked: Vec<Seat> = self.asked_seats().collect();
                let answers = (0..self.seats.len()).map(|s| (!asked.contains(&s)).then_some(true)).collect();
                self.rematch = Some(Pending { asked: self.version + 1, answers });
                Happened::Public(Told::Rematch {})
            }
            Event::Answer { seat, yes, .. } => {
                if let Some(p) = &mut self.rematch {
                    p.answers[*seat] = Some(*yes);
                }
                Happened::Public(Told::Answer { seat: *seat, yes: *yes })
            }
            Event::Chat { seat, text, .. } => {
                let entry = ChatLine { seat: *seat, name: self.names()[*seat].clone(), text: text.clone() };
                self.chat.push_back(entry.clone());
                while self.chat.len() > CHAT_KEPT {
                    self.chat.pop_front();
                }
                Happened::Public(Told::Chat { entry })
            }
        };
        // A seat's command id is answered with the same ack if it comes again.
        if let Some((seat, id)) = ev.command() {
            self.acted.insert(seat, id, self.version + 1);
        }
        Ok(happened)
    }

    /// Seats that owe a decision keep the version since which they have owed it.
    fn update_owed(&mut self) {
        let to_move = self.game.as_ref().map_or(SeatSet::EMPTY, |g| g.to_move());
        let next = self.version + 1;
        for (s, st) in self.seats.iter_mut().enumerate() {
            if !to_move.contains(s) {
                st.owed_since = None;
                st.forced = false;
            } else if st.owed_since.is_none() {
                st.owed_since = Some(next);
            }
        }
    }

    /// Public facts about the table (no codes, no tokens, no cards): the table part of every
    /// viewer's document. `rematch_deadline_ms` (milliseconds since the Unix epoch) and
    /// `rematch_wait_s` are the driver's clock's, for a rematch being asked.
    pub fn info(
        &self,
        config: &TableConfig,
        ruleset: &Value,
        rematch_deadline_ms: u64,
        rematch_wait_s: u64,
    ) -> TableInfo {
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(s, st)| {
                let status = if st.bot.is_some() {
                    "bot"
                } else if st.name.is_none() {
                    "empty"
                } else if st.bot_for_away {
                    "bot_for_away"
                } else if st.away {
                    "away"
                } else {
                    "here"
                };
                SeatInfo { seat: s, name: st.name.clone(), bot: st.bot, status, due_at: None }
            })
            .collect();
        let (game, preset) = (config.spec.id(), config.spec.label());
        TableInfo {
            game,
            preset,
            ruleset: ruleset.clone(),
            players: config.players,
            lang: config.lang.clone(),
            state: self.state(),
            game_number: self.game_number,
            host: 0,
            turn_clock_s: config.turn_clock_s,
            move_deadline_s: config.move_deadline_s,
            open: config.open,
            rated: config.rated,
            seats,
            totals: self.game.as_ref().map(|g| g.totals()),
            winners: self.game.as_ref().filter(|g| g.is_over()).map(|g| g.winners()),
            record: !self.finished.is_empty(),
            rematch: self.rematch.as_ref().map(|p| RematchInfo {
                deadline_ms: rematch_deadline_ms,
                wait_s: rematch_wait_s,
                answers: p
                    .answers
                    .iter()
                    .zip(&self.seats)
                    .map(|(a, st)| match a {
                        _ if st.bot.is_some() => "bot",
                        Some(true) => "yes",
                        Some(false) => "no",
                        None => "waiting",
                    })
                    .collect(),
            }),
        }
    }

    /// Whether `seat` may act now: a game running that waits on it (`not_started`,
    /// `game_over`, `not_your_turn` otherwise). The game, to check the action against.
    pub fn may_act(&self, seat: Seat) -> Result<&dyn DynGame, Refusal> {
        let g = self.game.as_deref().ok_or_else(not_started)?;
        if g.is_over() {
            return Err(Refusal::new(ErrorCode::GameOver, "The game is over."));
        }
        if !g.to_move().contains(seat) {
            return Err(Refusal::new(ErrorCode::NotYourTurn, "It is not your turn."));
        }
        Ok(g)
    }

    /// Whether `seat` has a decision to be hinted (`not_started`, `not_your_turn` otherwise).
    pub fn may_hint(&self, seat: Seat) -> Result<&dyn DynGame, Refusal> {
        let g = self.game.as_deref().ok_or_else(not_started)?;
        if !g.to_move().contains(seat) {
            return Err(Refusal::new(ErrorCode::NotYourTurn, "Nothing to decide now."));
        }
        Ok(g)
    }

    /// Whether another game may start: the last one is over (`not_started`, `not_over`
    /// otherwise).
    pub fn may_rematch(&self) -> Result<(), Refusal> {
        match &self.game {
            None => Err(not_started()),
            Some(g) if !g.is_over() => Err(Refusal::new(ErrorCode::NotOver, "The game is not over yet.")),
            Some(_) => Ok(()),
        }
    }

    /// In the lobby, playing, or over.
    pub fn state(&self) -> TableState {
        match &self.game {
            None => TableState::Lobby,
            Some(g) if g.is_over() => TableState::Over,
            Some(_) => TableState::Playing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seats_last_command_ids_are_remembered_and_older_ones_forgotten() {
        let mut a = Acted::default();
        for i in 0..ACTED_KEPT + 10 {
            a.insert(1, &format!("c-{i}"), i as u64 + 1);
        }
        a.insert(2, "c-0", 7);
        // The seat's oldest ten are gone; the rest answer with their own version.
        assert_eq!(a.get(1, "c-9"), None);
        assert_eq!(a.get(1, "c-10"), Some(11));
        assert_eq!(a.get(1, &format!("c-{}", ACTED_KEPT + 9)), Some(ACTED_KEPT as u64 + 10));
        // Another seat's ids are its own, and do not push the first seat's out.
        assert_eq!(a.get(2, "c-0"), Some(7));
        assert_eq!(a.get(0, "c-10"), None);
        let s = &a.seats[&1];
        assert_eq!((s.order.len(), s.versions.len()), (ACTED_KEPT, ACTED_KEPT));
        // An id acted again (only a replayed log has these) keeps one place.
        a.insert(2, "c-0", 9);
        assert_eq!((a.get(2, "c-0"), a.seats[&2].order.len()), (Some(9), 1));
    }

    /// The refusals every driver words alike: nothing before a start, a turn that is not the
    /// seat's, a game over, another game before this one ends.
    #[test]
    fn who_may_act_hint_or_ask_for_another_game() {
        let spec = oh7_core::registry::GameSpec::from_request(&oh7_core::registry::GameRequest::default())
            .expect("the default game");
        let config = TableConfig {
            spec,
            players: 4,
            seats: vec![None; 4],
            lang: "en".into(),
            turn_clock_s: None,
            log: crate::event::LOG_FORMAT,
            rated: false,
            move_deadline_s: None,
            open: false,
        };
        let mut core = Core::new(&config);
        let code = |r: Result<(), Refusal>| r.err().map(|r| r.code);
        assert_eq!(code(core.may_act(0).map(drop)), Some(ErrorCode::NotStarted));
        assert_eq!(code(core.may_hint(0).map(drop)), Some(ErrorCode::NotStarted));
        assert_eq!(code(core.may_rematch()), Some(ErrorCode::NotStarted));
        let mut g = config.spec.new_game(4, 3).expect("a game");
        let owes = g.to_move();
        let idle = (0..4).find(|s| !owes.contains(*s));
        core.game = Some(g.box_clone());
        assert_eq!(code(core.may_rematch()), Some(ErrorCode::NotOver));
        assert!(core.may_act(owes.lowest().expect("a seat owes")).is_ok());
        if let Some(s) = idle {
            assert_eq!(code(core.may_act(s).map(drop)), Some(ErrorCode::NotYourTurn));
            assert_eq!(code(core.may_hint(s).map(drop)), Some(ErrorCode::NotYourTurn));
        }
        while let Some(seat) = g.to_move().lowest() {
            let first = g.legal_text(seat)[0].clone();
            g.apply_text(seat, &first).expect("a legal action");
        }
        core.game = Some(g);
        assert_eq!(code(core.may_act(0).map(drop)), Some(ErrorCode::GameOver));
        assert_eq!(code(core.may_rematch()), None);
    }

    #[test]
    fn a_finished_game_keeps_its_record_as_text_that_reads_back_whole() {
        let spec = oh7_core::registry::GameSpec::from_request(&oh7_core::registry::GameRequest::default())
            .expect("the default game");
        let mut g = spec.new_game(4, 3).expect("a game");
        while let Some(seat) = g.to_move().lowest() {
            let first = g.legal_text(seat)[0].clone();
            g.apply_text(seat, &first).expect("a legal action");
        }
        let done = FinishedGame::of(2, g.as_ref());
        assert_eq!(done.record_value(), g.record());
        #[cfg(feature = "compress")]
        let text = g.record().to_string().len();
        #[cfg(feature = "compress")]
        assert!(done.record.len() * 3 < text, "{} bytes kept for {text} of text", done.record.len());
        assert_eq!((done.game, done.totals.clone(), done.winners.clone()), (2, g.totals(), g.winners()));
    }
}
