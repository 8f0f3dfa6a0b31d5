//! The wire messages, JSON over one WebSocket per client. `docs/protocol.md` mirrors this file.
//!
//! Every message a client receives is a [`ServerMsg`] and carries the table's `version`.
//! Messages that hold any part of a game are built only by [`crate::project`].

use oh7_bots::GameBots;
use oh7_core::game::Seat;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

/// A serialized message on its way to a client.
pub type Frame = std::sync::Arc<str>;

/// The protocol's version, sent in every snapshot.
pub const PROTOCOL: u32 = 2;

/// A command from a client. `id` is the client's command id (at most 64 characters): the reply
/// (`ack` or `error`) carries it, and a repeated id is answered again, never applied twice.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message: which table (an invite or a spectator code) and, to take back a seat,
    /// the seat's token.
    Hello {
        /// The invite code (may sit) or the spectator code (may only watch).
        table: String,
        /// The seat token given when the seat was taken.
        #[serde(default)]
        token: Option<String>,
    },
    /// Take a free seat by name (invite code only).
    Sit {
        /// Command id.
        id: String,
        /// Display name, 1 to 24 characters.
        name: String,
    },
    /// Start the game (the host, seat 0); free seats are filled with bots of `fill` if given.
    Start {
        /// Command id.
        id: String,
        /// Bot level for free seats.
        #[serde(default)]
        fill: Option<String>,
    },
    /// One decision of the seat, in the engine's notation (`bet 7H`, `play *2`, `draw`).
    Act {
        /// Command id.
        id: String,
        /// The action.
        action: String,
    },
    /// Another game at the same seats, once the game is over (the host): the other people are
    /// asked (`answer`); the game starts when all have answered or at the deadline. Sent again
    /// while they answer, it starts the game at once.
    Rematch {
        /// Command id.
        id: String,
    },
    /// A person's answer to the host's rematch: `yes` to play, `no` for a bot to play the seat
    /// in the next game.
    Answer {
        /// Command id.
        id: String,
        /// In the next game.
        yes: bool,
    },
    /// Take back a seat a bot plays for you (after a rematch you did not answer, or declined).
    Back {
        /// Command id.
        id: String,
    },
    /// A chat line (text only, at most 300 characters).
    Chat {
        /// Command id.
        id: String,
        /// The text.
        text: String,
    },
    /// Make a seat a bot seat or a free seat again (the host, in the lobby).
    Seat {
        /// Command id.
        id: String,
        /// The seat (1 to players - 1, not a person's).
        seat: usize,
        /// A bot level, or `null` for a free seat for a person: required (a `seat` without it
        /// is `malformed`, not a free seat by default).
        #[serde(deserialize_with = "Option::deserialize")]
        bot: Option<String>,
    },
    /// What the strongest bot would do for this seat now (answered to this client only).
    Hint {
        /// Command id.
        id: String,
    },
    /// Review this seat's decisions in a finished game (`game`: its number at the table; the
    /// last finished game if absent). Answered with `review` messages to this connection.
    Review {
        /// Command id.
        id: String,
        /// The game, from 1.
        #[serde(default)]
        game: Option<u32>,
    },
    /// Ask for a snapshot (after a gap). A struct variant, so that unknown fields are refused
    /// as for every other command (a unit variant of a tagged enum ignores them).
    Sync {},
    /// The client's heartbeat: answered `pong` by the table (so a stalled table or instance
    /// goes unanswered); after one, a connection silent for the heartbeat deadline is closed.
    Ping {},
}

impl ClientMsg {
    /// The command id, if the message has one.
    pub fn id(&self) -> Option<&str> {
        match self {
            ClientMsg::Sit { id, .. }
            | ClientMsg::Start { id, .. }
            | ClientMsg::Act { id, .. }
            | ClientMsg::Rematch { id }
            | ClientMsg::Answer { id, .. }
            | ClientMsg::Back { id }
            | ClientMsg::Chat { id, .. }
            | ClientMsg::Seat { id, .. }
            | ClientMsg::Hint { id }
            | ClientMsg::Review { id, .. } => Some(id),
            ClientMsg::Hello { .. } | ClientMsg::Sync {} | ClientMsg::Ping {} => None,
        }
    }
}

/// Why a command was refused. Every refusal leaves the table, its log and the connection as
/// they were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Not JSON, or not a message of the protocol.
    Malformed,
    /// Over 16 KiB.
    TooLarge,
    /// Too many commands per second (or chat lines) from this connection.
    RateLimited,
    /// A command before `hello`.
    NoHello,
    /// `hello` twice on one connection.
    AlreadyJoined,
    /// No table has this code.
    UnknownTable,
    /// The token is not this table's (or the seat's).
    BadToken,
    /// Spectators watch; they cannot act.
    Spectator,
    /// The command needs a seat.
    NotSeated,
    /// The connection holds a seat already.
    AlreadySeated,
    /// No free seat for a person.
    TableFull,
    /// A name that is empty, too long or has control characters.
    BadName,
    /// Only the host (seat 0) may do this.
    NotHost,
    /// The game has not started.
    NotStarted,
    /// The game has started already.
    AlreadyStarted,
    /// Seats are still free and no bot level was given to fill them.
    SeatsFree,
    /// The seat owes no decision now.
    NotYourTurn,
    /// The engine refused the action (the message says why).
    Illegal,
    /// The game is over.
    GameOver,
    /// The game is not over yet.
    NotOver,
    /// `answer` when no rematch asks this seat (none asked, or the host's own seat).
    NotAsked,
    /// A chat line that is empty or over 300 characters.
    ChatTooLong,
    /// A request no form of the client can send (create).
    BadRequest,
    /// `seat` on a person's seat.
    SeatTaken,
    /// `seat` on seat 0 or a seat the table does not have.
    BadSeat,
    /// A player count the game (or its ruleset) does not allow.
    BadPlayers,
    /// A custom ruleset that cannot be read or does not work.
    BadRuleset,
    /// A custom ruleset over 8 KiB.
    RulesetTooLarge,
    /// A preset the game does not have.
    UnknownPreset,
    /// A bot level the game does not have.
    UnknownLevel,
    /// The host's seat (0) given to a bot while the creator sits.
    HostSeatBot,
    /// A language other than `en` and `fr`.
    BadLang,
    /// A turn clock outside 10 to 600 seconds.
    BadClock,
    /// Both a preset and a custom ruleset.
    PresetAndRuleset,
    /// Too many connections or tables from this address.
    TooMany,
    /// The database refused the write; nothing was applied.
    Storage,
    /// The server is shutting down.
    ShuttingDown,
    /// No review has this code.
    UnknownReview,
    /// An account password shorter than 8 or longer than 128 characters.
    BadPassword,
    /// An account has this name already.
    NameTaken,
    /// Wrong account name or password.
    BadCredentials,
    /// The request needs a signed-in account.
    SignedOut,
    /// A request that changes something came from another site's page.
    CrossOrigin,
    /// No account has this name.
    UnknownPlayer,
    /// A move deadline outside 1 to 336 hours, or with a turn clock.
    BadDeadline,
    /// An account's email address that is not one.
    BadEmail,
    /// The table is played by another server instance now (this one lost it); nothing was
    /// applied: reconnect (a `redirect` says where).
    Moved,
    /// `undo` at a solo table with no decision of the person's in the game being played.
    NothingToUndo,
    /// The open table is no longer waiting for players (it started, filled, or its people left).
    NotOpen,
    /// The account is suspended by the server's operator.
    Suspended,
    /// `hint` at a rated table: the game counts for the ratings, so no bot plays for anyone.
    NoHints,
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl ErrorCode {
    /// Every code (for the metrics' series at zero, and the docs' test).
    pub const ALL: [ErrorCode; 51] = [
        ErrorCode::Malformed,
        ErrorCode::TooLarge,
        ErrorCode::RateLimited,
        ErrorCode::NoHello,
        ErrorCode::AlreadyJoined,
        ErrorCode::UnknownTable,
        ErrorCode::BadToken,
        ErrorCode::Spectator,
        ErrorCode::NotSeated,
        ErrorCode::AlreadySeated,
        ErrorCode::TableFull,
        ErrorCode::BadName,
        ErrorCode::NotHost,
        ErrorCode::NotStarted,
        ErrorCode::AlreadyStarted,
        ErrorCode::SeatsFree,
        ErrorCode::NotYourTurn,
        ErrorCode::Illegal,
        ErrorCode::GameOver,
        ErrorCode::NotOver,
        ErrorCode::NotAsked,
        ErrorCode::ChatTooLong,
        ErrorCode::BadRequest,
        ErrorCode::SeatTaken,
        ErrorCode::BadSeat,
        ErrorCode::BadPlayers,
        ErrorCode::BadRuleset,
        ErrorCode::RulesetTooLarge,
        ErrorCode::UnknownPreset,
        ErrorCode::UnknownLevel,
        ErrorCode::HostSeatBot,
        ErrorCode::BadLang,
        ErrorCode::BadClock,
        ErrorCode::PresetAndRuleset,
        ErrorCode::TooMany,
        ErrorCode::Storage,
        ErrorCode::ShuttingDown,
        ErrorCode::UnknownReview,
        ErrorCode::BadPassword,
        ErrorCode::NameTaken,
        ErrorCode::BadCredentials,
        ErrorCode::SignedOut,
        ErrorCode::CrossOrigin,
        ErrorCode::UnknownPlayer,
        ErrorCode::BadDeadline,
        ErrorCode::BadEmail,
        ErrorCode::Moved,
        ErrorCode::NothingToUndo,
        ErrorCode::NotOpen,
        ErrorCode::Suspended,
        ErrorCode::NoHints,
    ];

    /// The code's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Malformed => "malformed",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NoHello => "no_hello",
            ErrorCode::AlreadyJoined => "already_joined",
            ErrorCode::UnknownTable => "unknown_table",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::Spectator => "spectator",
            ErrorCode::NotSeated => "not_seated",
            ErrorCode::AlreadySeated => "already_seated",
            ErrorCode::TableFull => "table_full",
            ErrorCode::BadName => "bad_name",
            ErrorCode::NotHost => "not_host",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::AlreadyStarted => "already_started",
            ErrorCode::SeatsFree => "seats_free",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::Illegal => "illegal",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NotOver => "not_over",
            ErrorCode::NotAsked => "not_asked",
            ErrorCode::ChatTooLong => "chat_too_long",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::BadSeat => "bad_seat",
            ErrorCode::BadPlayers => "bad_players",
            ErrorCode::BadRuleset => "bad_ruleset",
            ErrorCode::RulesetTooLarge => "ruleset_too_large",
            ErrorCode::UnknownPreset => "unknown_preset",
            ErrorCode::UnknownLevel => "unknown_level",
            ErrorCode::HostSeatBot => "host_seat_bot",
            ErrorCode::BadLang => "bad_lang",
            ErrorCode::BadClock => "bad_clock",
            ErrorCode::PresetAndRuleset => "preset_and_ruleset",
            ErrorCode::TooMany => "too_many",
            ErrorCode::Storage => "storage",
            ErrorCode::ShuttingDown => "shutting_down",
            ErrorCode::UnknownReview => "unknown_review",
            ErrorCode::Moved => "moved",
            ErrorCode::NothingToUndo => "nothing_to_undo",
            ErrorCode::NotOpen => "not_open",
            ErrorCode::Suspended => "suspended",
            ErrorCode::NoHints => "no_hints",
            ErrorCode::BadPassword => "bad_password",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::BadCredentials => "bad_credentials",
            ErrorCode::SignedOut => "signed_out",
            ErrorCode::CrossOrigin => "cross_origin",
            ErrorCode::UnknownPlayer => "unknown_player",
            ErrorCode::BadDeadline => "bad_deadline",
            ErrorCode::BadEmail => "bad_email",
        }
    }
}

/// A refusal: a code, a sentence for people (English), and the figures a client needs to word
/// it in its own language (`params`: limits, the value refused, the allowed values; for an
/// engine's refusal, its `rule` code and that rule's figures).
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The code.
    pub code: ErrorCode,
    /// What was wrong and what to do.
    pub message: String,
    /// The refusal's figures, if it has any.
    pub params: Option<Map<String, Value>>,
}

impl Refusal {
    /// A refusal.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into(), params: None }
    }

    /// `moved`: another instance holds the table now; nothing changed.
    pub fn moved() -> Refusal {
        Refusal::new(ErrorCode::Moved, "This table is played on another server now; nothing changed. Reconnecting.")
    }

    /// The same refusal with one more figure.
    pub fn param(mut self, key: &str, value: impl Into<Value>) -> Refusal {
        self.params.get_or_insert_with(Map::new).insert(key.to_string(), value.into());
        self
    }

    /// `unknown_level`: `level` is not a bot level of the game (`seat`: where the create form
    /// put it).
    pub fn unknown_level(spec: &oh7_bots::GameSpec, level: &str, seat: Option<usize>) -> Refusal {
        let level: String = level.chars().take(20).collect();
        let levels = spec.levels();
        let message = match seat {
            Some(s) => format!("Seat {s}: `{level}` is not a bot level; choose human or one of {}.", levels.join(", ")),
            None => format!("Unknown bot level: choose one of {}.", levels.join(", ")),
        };
        let r = Refusal::new(ErrorCode::UnknownLevel, message).param("level", level).param("levels", levels);
        match seat {
            Some(s) => r.param("seat", s),
            None => r,
        }
    }

    /// The engine refused an action: `illegal`, with the rule's code and figures as `params`.
    pub fn illegal(r: oh7_core::refusal::Refused) -> Refusal {
        let mut params = r.params;
        params.insert("rule".to_string(), Value::from(r.rule));
        Refusal { code: ErrorCode::Illegal, message: r.message, params: Some(params) }
    }

    /// The `error` message for a command `id` at table `version` (`None` when the connection
    /// refused the message before it reached a table).
    pub fn to_msg(&self, id: Option<&str>, version: Option<u64>) -> ServerMsg {
        ServerMsg::Error {
            id: id.map(str::to_string),
            code: self.code,
            message: self.message.clone(),
            version,
            params: self.params.clone(),
        }
    }

    /// The body of an HTTP error: `{code, message}` and `params` when the refusal has them.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody { code: self.code, message: self.message.clone(), params: self.params.clone() }
    }
}

/// The JSON body of an HTTP error.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    /// The code.
    pub code: ErrorCode,
    /// The sentence.
    pub message: String,
    /// The figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<Map<String, Value>>,
}

/// A chat line as the table keeps and shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Who wrote it.
    pub seat: Seat,
    /// Their name.
    pub name: String,
    /// The text.
    pub text: String,
}

/// The links a connection may share: the invite link only to those who came in with it.
#[derive(Clone, Debug, Serialize)]
pub struct Links {
    /// The invite code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The spectator code.
    pub watch: String,
}

/// What a viewer is told of one change (public facts; the action text only to the seat that
/// acted).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Told {
    /// A seat acted.
    Act {
        /// The seat.
        seat: Seat,
        /// A bot decided for a person (left out when not).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        by_bot: bool,
        /// The action, to the seat that acted only.
        #[serde(skip_serializing_if = "Option::is_none")]
        action: Option<String>,
    },
    /// A person took a seat.
    Join {
        /// The seat.
        seat: Seat,
    },
    /// The host made a seat a bot seat or a free seat.
    Seat {
        /// The seat.
        seat: Seat,
        /// The bot level, or null for a free seat.
        bot: Option<oh7_bots::Level>,
    },
    /// A game started.
    Start {
        /// Its number at the table, from 1.
        game: u32,
    },
    /// The host asked for another game (the table's `rematch` says who has answered).
    Rematch {},
    /// A person answered the rematch.
    Answer {
        /// The seat.
        seat: Seat,
        /// In the next game, or not this time.
        yes: bool,
    },
    /// A chat line.
    Chat {
        /// The line.
        entry: ChatLine,
    },
}

/// An answer to a command of this connection.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Ack {
    /// The command id.
    pub id: String,
    /// The version after the command (for a repeated id: the version its first answer gave).
    pub version: u64,
    /// The id was seen before: answered again, not applied again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeated: Option<bool>,
    /// `sit`: the seat taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// `sit`: the seat's token (to this connection only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// `hint`: the strongest bot's action (`null` if it had nothing to decide).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<Option<String>>,
    /// `hint`: that bot's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
}

/// Where a table is: no game yet, a game running, or its game over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TableState {
    /// Seats being filled; no game yet.
    Lobby,
    /// A game is running.
    Playing,
    /// The game is over (a rematch may start the next).
    Over,
}

/// Where a review job stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewState {
    /// Waiting for a worker.
    #[default]
    Queued,
    /// Being reviewed.
    Running,
    /// Written: its share code is in the message.
    Done,
    /// It could not be made.
    Failed,
}

/// Where a review asked by this connection stands: `queued` (with its `position` in line),
/// `running` (`done` of `total` decisions), `done` (its `share` code: the page is
/// `/review/CODE`) or `failed` (`message`). Reviews do not change the table's version.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ReviewStatus {
    /// The table's version.
    pub version: u64,
    /// The game, from 1.
    pub game: u32,
    /// The seat reviewed.
    pub seat: Seat,
    /// `queued`, `running`, `done` or `failed`.
    pub state: ReviewState,
    /// `queued`: jobs ahead, plus one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
    /// `running`: decisions reviewed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<usize>,
    /// `running`: decisions to review.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<usize>,
    /// `done`: the code of the review's link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
    /// `failed`: why, in English.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Every message the server sends on a WebSocket. `docs/protocol.md` mirrors it.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The whole of what a viewer may know: its document (`table`, `view`, `legal`), the
    /// recent chat and its links.
    Snapshot {
        /// [`PROTOCOL`].
        protocol: u32,
        /// The version.
        version: u64,
        /// The viewer's seat (`null`: a spectator, or a guest who has not sat).
        you: Option<Seat>,
        /// Public table information.
        table: Value,
        /// The viewer's seat view (`null` before the first game).
        view: Value,
        /// The viewer's legal actions.
        legal: Value,
        /// Recent chat lines.
        chat: Vec<ChatLine>,
        /// The links this connection may share.
        links: Links,
    },
    /// A committed change: what happened, and the change of the viewer's document.
    Event {
        /// The version it made.
        version: u64,
        /// What happened.
        event: Told,
        /// The change of the viewer's document (absent: none).
        #[serde(skip_serializing_if = "Map::is_empty")]
        patch: Map<String, Value>,
    },
    /// Someone left or came back, or a bot plays an away seat: the table information changed
    /// (not the version).
    Presence {
        /// The version (unchanged).
        version: u64,
        /// The change of the viewer's document.
        patch: Map<String, Value>,
    },
    /// A command was done.
    Ack(Ack),
    /// A message or command was refused; nothing changed.
    Error {
        /// The command's id (`null` if it had none or could not be read).
        id: Option<String>,
        /// The code.
        code: ErrorCode,
        /// A sentence in English.
        message: String,
        /// The table's version (`null` before `hello`).
        version: Option<u64>,
        /// The figures to word it with.
        #[serde(skip_serializing_if = "Option::is_none")]
        params: Option<Map<String, Value>>,
    },
    /// A review asked by this connection (see [`ReviewStatus`]).
    Review(ReviewStatus),
    /// The table is played by another server instance: connect there (its base address,
    /// e.g. `http://10.0.0.2:7777`; the WebSocket is its `/ws`) and say hello again. The
    /// connection is closed after it.
    Redirect {
        /// The instance's address.
        url: String,
        /// Why, in English.
        message: String,
    },
    /// The answer to `ping`, from the table.
    Pong {
        /// The version.
        version: u64,
    },
    /// The table's connections are closing: reconnect (the game is saved).
    Closing {
        /// The version.
        version: u64,
        /// Why, for a client to word.
        reason: ClosingReason,
        /// Why, in English.
        message: String,
    },
}

/// Why a table closes its connections ([`ServerMsg::Closing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClosingReason {
    /// The server is stopping; the game continues when it is back.
    Stopping,
    /// Another instance plays the table now, and which one is not known yet.
    Moved,
    /// The server's operator closed the table (`oh7 admin close-table`).
    Closed,
}

impl ClosingReason {
    /// The English sentence of the `message` field.
    pub fn message(self) -> &'static str {
        match self {
            ClosingReason::Stopping => "The server is stopping; the game is saved and continues when it is back.",
            ClosingReason::Moved => "This table moved to another server; reconnecting.",
            ClosingReason::Closed => "The server's operator closed this table.",
        }
    }

    /// The message to send.
    pub fn msg(self, version: u64) -> ServerMsg {
        ServerMsg::Closing { version, reason: self, message: self.message().to_string() }
    }
}

impl ServerMsg {
    /// The message as it goes on the wire.
    pub fn frame(&self) -> Frame {
        Frame::from(serde_json::to_string(self).expect("server messages always serialize"))
    }
}

/// Command ids longer than this are refused as malformed.
pub const MAX_ID_LEN: usize = 64;

/// `GET /api/tables/{code}/rules`: the table's rules summary, generated from its ruleset for its
/// player count by `oh7_core::rules_summary`, in both languages (a page switches language
/// without asking again).
#[derive(Clone, Debug, Serialize)]
pub struct RulesBody {
    /// In English.
    pub en: oh7_core::rules_summary::Summary,
    /// In French.
    pub fr: oh7_core::rules_summary::Summary,
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn every_error_code_is_in_all_once() {
        // The enum's variants as written in this file.
        let src = include_str!("protocol.rs");
        let body = src.split("pub enum ErrorCode {").nth(1).unwrap().split("\n}").next().unwrap();
        let variants: Vec<&str> = body
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'))
            .map(|l| l.trim_end_matches(','))
            .collect();
        assert_eq!(variants.len(), ErrorCode::ALL.len(), "{variants:?}");
        let mut names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }
}
