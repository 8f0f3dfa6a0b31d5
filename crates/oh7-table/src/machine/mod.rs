//! What a table does, with no I/O: a [`Machine`] takes what happens to a table (a connection
//! attaching or leaving, a command, a bot's decision, a timer) and returns an [`Output`]: the
//! [`Effect`]s for its driver (messages to send, timers to start, bots and hints to run, a
//! finished game to record) and at most one [`Pending`] change to write. The driver writes the
//! change to its log and then calls [`Machine::written`] (or [`Machine::not_written`]): only
//! then is the change applied and anyone told, so an action is committed before anyone hears
//! of it. Each step's output may hold the next change (a rematch that starts once the last
//! answer is in).
//!
//! Two drivers: the server's table task (`oh7-server`: the store, sockets, tokio timers, bots
//! on blocking threads) and the solo table ([`crate::solo`], in the browser's Web Worker: an
//! array of events in IndexedDB, bots at the page's pace). The machine reads no clock (the
//! driver says what time it is with [`Machine::set_now`]) and no random source (seeds and seat
//! tokens come from the driver's [`Entropy`]).
//!
//! The parts, by job: [`commands`] (check, write, apply), [`seats`] (who is connected, away
//! and back), [`clock`] (turn clocks and turn-based deadlines), [`bots`] (asking bots),
//! [`outbox`] (the messages: each viewer's document and its patches).

mod bots;
mod clock;
mod commands;
mod outbox;
mod seats;

use std::collections::HashMap;
use std::sync::Arc;

use oh7_bots::DynBot;
use oh7_core::DynGame;
use oh7_core::dyn_game::Checked;
use oh7_core::game::{Seat, SeatSet};
use serde_json::Value;

use crate::core::{Core, FinishedGame, TableConfig};
use crate::event::Event;
use crate::project::{Sight, TableInfo};
use crate::protocol::{Ack, ErrorCode, Refusal, ServerMsg};

pub use bots::bot_seed;
pub use clock::Deadline;

/// A connection's id (unique for the driver).
pub type ConnId = u64;

/// Longest display name.
pub const MAX_NAME: usize = 24;

/// How a connection came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// The invite code: may take a seat.
    Invite,
    /// The spectator code: may only watch.
    Watch,
}

/// The driver's settings for its tables (the server's are its command line's).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Milliseconds an away person's seat waits before a bot plays for it.
    pub grace_ms: u64,
    /// Milliseconds the people have to answer a rematch.
    pub rematch_wait_ms: u64,
    /// Longest chat line, in characters.
    pub chat_len: usize,
    /// Milliseconds between two chat lines of a seat.
    pub chat_interval_ms: u64,
    /// Milliseconds a bot waits before it decides at a table with people.
    pub bot_pause_ms: u64,
    /// A bot seat keeps its bot from one decision to the next (`false`: each decision is made
    /// by a bot made anew from the version and the seat, so a log cut and replayed decides
    /// alike).
    pub keep_bots: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            grace_ms: 60_000,
            rematch_wait_ms: 60_000,
            chat_len: 300,
            chat_interval_ms: 1_000,
            bot_pause_ms: 700,
            keep_bots: true,
        }
    }
}

/// Where a table's seeds and seat tokens come from (the driver's random source).
pub trait Entropy {
    /// A new game's seed.
    fn seed(&mut self) -> u64;
    /// A new seat token.
    fn secret(&mut self) -> String;
}

/// A timer the driver starts; when it fires, the driver calls [`Machine::timer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// An away person's grace period (`epoch`: which absence).
    Grace {
        /// The seat.
        seat: Seat,
        /// Which absence.
        epoch: u64,
    },
    /// A person's turn clock (owed since version `since`).
    Clock {
        /// The seat.
        seat: Seat,
        /// Since which version the seat owed the decision.
        since: u64,
    },
    /// The deadline of the rematch asked at version `asked`.
    Rematch {
        /// The version of the host's request.
        asked: u64,
    },
}

/// A bot's decision to make, from its seat's view only (the game is a copy; [`BotJob::run`]
/// decides). The driver runs it where it likes (a blocking thread, the page's worker) after
/// `pause_ms`, and gives the answer back with [`Machine::bot_done`].
pub struct BotJob {
    /// The seat.
    pub seat: Seat,
    /// Game number and version when it was asked.
    pub asked: (u32, u64),
    /// Milliseconds to wait first (a table of people is not played at machine speed).
    pub pause_ms: u64,
    bot: Box<dyn DynBot>,
    game: Box<dyn DynGame>,
}

/// A bot's answer.
pub struct BotDone {
    /// The seat.
    pub seat: Seat,
    /// Game number and version when it was asked.
    pub asked: (u32, u64),
    /// Its action.
    pub action: Option<String>,
    bot: Box<dyn DynBot>,
}

impl BotJob {
    /// Decide.
    pub fn run(mut self) -> BotDone {
        let action = self.bot.decide(&*self.game, self.seat);
        BotDone { seat: self.seat, asked: self.asked, action, bot: self.bot }
    }
}

/// A hint to work out: [`HintJob::run`] gives the `ack` for the connection that asked.
pub struct HintJob {
    /// The connection that asked.
    pub conn: ConnId,
    id: String,
    version: u64,
    level: &'static str,
    seat: Seat,
    bot: Box<dyn DynBot>,
    game: Box<dyn DynGame>,
}

impl HintJob {
    /// The strongest bot's decision, as the answer to the command.
    pub fn run(mut self) -> ServerMsg {
        let action = self.bot.decide(&*self.game, self.seat);
        let ack =
            Ack { id: self.id, version: self.version, hint: Some(action), level: Some(self.level), ..Ack::default() };
        ServerMsg::Ack(ack)
    }
}

/// A review asked for (the driver runs the review and sends its messages to `conn` only).
pub struct ReviewJob {
    /// The connection that asked.
    pub conn: ConnId,
    /// The game's number at the table.
    pub game: u32,
    /// The seat whose decisions are reviewed.
    pub seat: Seat,
    /// The finished game.
    pub done: Arc<FinishedGame>,
    /// The table's version when it was asked.
    pub version: u64,
}

/// What the driver does for the machine.
pub enum Effect {
    /// Send `msg` to each of these connections (a connection whose queue is full is then
    /// [`Machine::detach`]ed: it reconnects and gets a snapshot).
    Send {
        /// The connections.
        to: Vec<ConnId>,
        /// The message.
        msg: ServerMsg,
    },
    /// Start a timer.
    Timer {
        /// Milliseconds from now.
        after_ms: u64,
        /// What it is.
        timer: Timer,
    },
    /// Stop a seat's grace timer (the person came back).
    CancelGrace {
        /// The seat.
        seat: Seat,
    },
    /// Ask a bot.
    Bot(BotJob),
    /// Work out a hint.
    Hint(HintJob),
    /// Review a seat's decisions.
    Review(ReviewJob),
    /// A game ended with the change just written: the driver records it as finished (and rates
    /// it).
    GameOver(Arc<FinishedGame>),
}

/// What the machine asks of its driver after one input.
#[derive(Default)]
pub struct Output {
    /// To do now, in order.
    pub effects: Vec<Effect>,
    /// Then a change to write; once written (or not), call [`Machine::written`] (or
    /// [`Machine::not_written`]).
    pub write: Option<Pending>,
}

/// A change waiting to be written: an event of the log and the rows that go with it.
pub struct Pending {
    event: Option<Event>,
    checked: Option<Checked>,
    version: u64,
    link: Option<(Seat, String)>,
    after: commands::After,
}

impl Pending {
    /// The event to append (`None`: only a seat's link to an account).
    pub fn event(&self) -> Option<&Event> {
        self.event.as_ref()
    }

    /// The version the event will have.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// A seat to link to an account in the same transaction.
    pub fn link(&self) -> Option<(Seat, &str)> {
        self.link.as_ref().map(|(s, a)| (*s, a.as_str()))
    }

    /// The event starts a game (the table is not finished any more).
    pub fn starts_game(&self) -> bool {
        matches!(self.event, Some(Event::Start { .. }))
    }
}

/// Why a change was not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteFailure {
    /// Another instance holds the table now.
    Moved,
    /// The store failed.
    Storage,
}

struct Conn {
    seat: Option<Seat>,
    access: Access,
    account: Option<String>,
}

/// A table: its settings, what its log rebuilt, who is connected, and each viewer's document.
pub struct Machine {
    config: TableConfig,
    settings: Settings,
    core: Core,
    /// The invite and spectator codes (told in snapshots to those who came in with them).
    join_code: String,
    watch_code: String,
    bots: Vec<Option<Box<dyn DynBot>>>,
    inflight: SeatSet,
    conns: HashMap<ConnId, Conn>,
    /// Seats whose account the operator suspended: a bot plays them for good.
    barred: SeatSet,
    /// Answers to guests' `sit` commands by connection and id.
    sat: HashMap<(ConnId, String), Ack>,
    /// Each kind of viewer's view and legal actions as last sent (`None`: spectators and
    /// guests); with `table_part`, its document.
    docs: HashMap<Option<Seat>, Sight>,
    table_part: Value,
    last_info: Option<TableInfo>,
    ruleset: Value,
    /// When the rematch being asked starts without those who have not answered (ms since 1970).
    rematch_deadline_ms: Option<i64>,
    /// The account that holds each linked seat.
    links: HashMap<Seat, String>,
    /// A turn-based table's deadlines: per seat that owes, `(owed since version, due at, s)`.
    deadlines: HashMap<Seat, (u64, i64)>,
    deadlines_dirty: bool,
    /// Seats with a grace timer running.
    grace: SeatSet,
    /// Now, as the driver last said (ms since 1970).
    now_ms: i64,
    out: Output,
}

impl Machine {
    /// A table at the state its log rebuilt (`core`), with its codes, its seats' links to
    /// accounts and its stored deadlines. Everyone is away until they reconnect; the grace
    /// periods start now. The output starts the timers and bots this table needs.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        config: TableConfig,
        mut core: Core,
        settings: Settings,
        codes: (String, String),
        links: Vec<(Seat, String)>,
        deadlines: Vec<Deadline>,
        now_ms: i64,
    ) -> (Machine, Output) {
        for st in &mut core.seats {
            if st.name.is_some() {
                st.away = true;
            }
        }
        let n = config.players;
        let ruleset = config.spec.ruleset_json();
        let mut m = Machine {
            settings,
            core,
            join_code: codes.0,
            watch_code: codes.1,
            bots: (0..n).map(|_| None).collect(),
            inflight: SeatSet::EMPTY,
            conns: HashMap::new(),
            barred: SeatSet::EMPTY,
            sat: HashMap::new(),
            docs: HashMap::new(),
            table_part: Value::Null,
            last_info: None,
            ruleset,
            rematch_deadline_ms: None,
            links: links.into_iter().filter(|(s, _)| *s < n).collect(),
            deadlines: deadlines.into_iter().filter(|(s, ..)| *s < n).map(|(s, v, d)| (s, (v, d))).collect(),
            deadlines_dirty: false,
            grace: SeatSet::EMPTY,
            now_ms,
            out: Output::default(),
            config,
        };
        // Deadlines lost in a crash start again from now (a crash may lengthen one, never
        // shorten it).
        m.note_deadlines();
        for s in 0..n {
            if m.core.seats[s].away {
                m.start_grace(s);
            }
        }
        // A rematch being asked when the table stopped: the people get the whole wait again.
        m.arm_rematch();
        m.schedule();
        let out = m.take();
        (m, out)
    }

    /// What the driver is to do now.
    fn take(&mut self) -> Output {
        std::mem::take(&mut self.out)
    }

    /// Say what time it is (ms since 1970) before an input.
    pub fn set_now(&mut self, now_ms: i64) {
        self.now_ms = now_ms;
    }

    fn now_s(&self) -> i64 {
        self.now_ms.div_euclid(1000)
    }

    /// The table's spectator code (its public code).
    pub fn watch_code(&self) -> &str {
        &self.watch_code
    }

    /// The table's settings.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// What the log rebuilt, as it is now.
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The table's version.
    pub fn version(&self) -> u64 {
        self.core.version
    }

    /// The account that holds each linked seat.
    pub fn links(&self) -> impl Iterator<Item = (Seat, &str)> {
        self.links.iter().map(|(s, a)| (*s, a.as_str()))
    }

    /// A bot plays this seat (a bot seat, or a stand-in for a person).
    pub fn bot_plays(&self, s: Seat) -> bool {
        let st = &self.core.seats[s];
        st.bot.is_some() || st.bot_for_away || st.forced
    }

    /// Nobody connected and no bot deciding (the driver may unload the table after a while).
    pub fn is_quiet(&self) -> bool {
        self.conns.is_empty() && self.inflight.is_empty()
    }

    /// Every connection.
    pub fn conns(&self) -> impl Iterator<Item = ConnId> + '_ {
        self.conns.keys().copied()
    }

    /// A timer fired (a rematch that starts at its deadline takes its seed from `entropy`).
    pub fn timer(&mut self, timer: Timer, entropy: &mut dyn Entropy) -> Output {
        match timer {
            Timer::Grace { seat, epoch } => self.grace_over(seat, epoch),
            Timer::Clock { seat, since } => self.clock_ran_out(seat, since),
            Timer::Rematch { asked } => self.rematch_deadline(asked, entropy),
        }
        self.take()
    }

    /// Public facts about the table (no codes, no tokens, no cards).
    pub fn info(&self) -> TableInfo {
        let deadline_ms = self.rematch_deadline_ms.map_or(0, |d| d.max(0) as u64);
        let mut info = self.core.info(&self.config, &self.ruleset, deadline_ms, self.settings.rematch_wait_ms / 1000);
        for seat in &mut info.seats {
            seat.due_at = self.deadlines.get(&seat.seat).map(|&(_, due)| due);
        }
        info
    }
}

/// A display name: trimmed, 1 to 24 characters, no control characters.
pub fn check_name(name: &str) -> Result<String, Refusal> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > MAX_NAME || n.chars().any(char::is_control) {
        return Err(Refusal::new(
            ErrorCode::BadName,
            format!("A name has 1 to {MAX_NAME} characters, without control characters."),
        )
        .param("max", MAX_NAME));
    }
    Ok(n.to_string())
}

#[cfg(test)]
mod tests;
