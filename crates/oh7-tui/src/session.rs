//! The game driver shared by the full-screen and the plain interfaces: one game, one human seat,
//! bots on the other seats, a narration of what happened as the human's seat saw it.

use oh7_bots::Bot;
use oh7_core::game::{Game, Seat, SeatSet};
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::lang::Lang;

/// One entry of a choice list (a hand card, `draw`, a suit, a seat, yes/no…).
#[derive(Clone, Debug)]
pub struct Choice<A> {
    /// What is shown (with the preset's symbols).
    pub label: String,
    /// The action it stands for.
    pub action: A,
    /// Whether the engine allows it now (illegal entries are shown dimmed; choosing one says why).
    pub legal: bool,
    /// Whether this is one of the hand's cards (drawn in the hand row).
    pub in_hand: bool,
}

/// What the human is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The human's normal decision (bet, play, tie-break, …).
    Turn,
    /// Seven: the seat left with one card without announcing it; call it out or not.
    CallOut(Seat),
}

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The human.
    Human(Ask),
    /// A bot, for this seat.
    Bot(Seat),
    /// The game is over.
    Over,
}

/// A screen to show and acknowledge: the end of a round or of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The title.
    pub title: String,
    /// The lines.
    pub lines: Vec<String>,
}

/// What each game offers the interfaces (implemented for the Oh 7 family and Seven).
pub trait Table: Game + oh7_bots::BotsOf + Sized + 'static {
    /// The seed of the game (used only to seed bots and name the save file).
    fn game_seed(&self) -> u64;
    /// Who acts next.
    fn next(&self, human: Seat) -> Next;
    /// The action that calls out `offender` (Seven only).
    fn callout_action(offender: Seat) -> Option<Self::Action>;
    /// The action that declines to call out (Seven only).
    fn decline_action() -> Option<Self::Action> {
        None
    }
    /// A seat's display name (`You`, `P1`, `Dummy`).
    fn seat_name(&self, seat: Seat, human: Seat, lang: Lang) -> String {
        if seat == human { lang.t("You", "Vous") } else { format!("P{seat}") }
    }
    /// An error in `lang`, in the words and card symbols a player reads.
    fn error_text(&self, e: &Self::Error, lang: Lang) -> String;
    /// Read typed text: English notation, and in a French game French letters and words too.
    fn parse(&self, seat: Seat, text: &str, lang: Lang) -> Result<Self::Action, Self::Error>;
    /// An action as shown to people, with symbols.
    fn action_label(&self, action: Self::Action, lang: Lang) -> String;
    /// What a person may type, as an example for the help lines (`3h, *2`).
    fn typed_example(lang: Lang) -> &'static str;
    /// An action as typed in plain mode (what [`Table::parse`] reads).
    fn action_typed(&self, action: Self::Action, lang: Lang) -> String {
        crate::typing::seven_shown(&action.to_string(), lang)
    }
    /// The human's choices now (the hand's cards, legal or not, then other actions).
    fn choices(&self, human: Seat, ask: Ask, lang: Lang) -> Vec<Choice<Self::Action>>;
    /// The question put to the human.
    fn question(&self, human: Seat, ask: Ask, lang: Lang) -> String;
    /// What happened when `seat` did `action`, seen from `human`'s seat (`before` is the game
    /// before the action), and the end-of-round / end-of-game screens it brought.
    fn narrate(
        before: &Self,
        after: &Self,
        seat: Seat,
        action: Self::Action,
        human: Seat,
        lang: Lang,
    ) -> (Vec<String>, Vec<Notice>);
    /// The table as text, for plain mode (what the human's seat may know).
    fn plain_state(&self, human: Seat, lang: Lang) -> Vec<String>;
    /// The title line of the full screen.
    fn title(&self, human: Seat, lang: Lang) -> String;
    /// Draw the table (all but the hand, the prompt and the keys) in `area`.
    fn draw_body(&self, f: &mut Frame, area: Rect, human: Seat, lang: Lang, log: &[String], log_back: usize);
    /// A chosen action made complete: with the last-card announcement when `announce` is on
    /// (Seven), or more to choose first (an 8's suit).
    fn refine(&self, _human: Seat, action: Self::Action, _announce: bool, _lang: Lang) -> Refine<Self::Action> {
        Refine::Ready(action)
    }
    /// Whether the human's next play may announce the last card (Seven).
    fn may_announce(&self, _human: Seat) -> bool {
        false
    }
    /// Whether a trick was just completed (the table pauses so a person can see it).
    fn trick_just_completed(&self) -> bool {
        false
    }
    /// Whether `?` is a card of this game (then F1 opens the rules).
    fn question_mark_is_a_card(&self) -> bool {
        false
    }
    /// The smallest terminal (columns, rows) that shows the whole table.
    fn min_size(&self) -> (u16, u16) {
        (64, 22)
    }
    /// What each sign on the screen means, one line each.
    fn signs(&self, lang: Lang) -> Vec<String>;
    /// Several marked choices as one action (cards to pass), if this step takes several.
    fn merge(&self, _actions: &[Self::Action]) -> Option<Self::Action> {
        None
    }
}

/// Who acts next when the seats `to_move` owe a decision. Simultaneous decisions (bets, passes,
/// answers to a call-out): the bots decide first, each from its own view, then the human is
/// asked `ask()`, so what is revealed once all have decided follows the human's choice at once.
pub fn bots_first(to_move: SeatSet, human: Seat, ask: impl FnOnce() -> Ask) -> Next {
    match to_move.iter().find(|&s| s != human) {
        Some(s) => Next::Bot(s),
        None if to_move.contains(human) => Next::Human(ask()),
        None => Next::Over,
    }
}

/// A chosen action, complete or needing one more choice.
pub enum Refine<A> {
    /// Ready to apply.
    Ready(A),
    /// Choose among these first (the question, the choices).
    More(String, Vec<Choice<A>>),
}

/// Why a session step was refused or failed: typed here, worded where it is shown
/// ([`SessionError::text`], in the person's language).
#[derive(Debug)]
pub enum SessionError<E> {
    /// The engine refused the person's action.
    Refused(E),
    /// An answer that is not one of the choices (a call-out asks yes or no).
    NotAChoice,
    /// No such seat at the table.
    NoSuchSeat {
        /// The seat asked for.
        seat: Seat,
        /// The last seat.
        last: Seat,
    },
    /// A bot could not be made.
    Bot(oh7_bots::BotError),
    /// A bot had no legal action, or the engine refused its choice (a bug).
    BotFailed {
        /// Its seat.
        seat: Seat,
        /// What went wrong.
        why: String,
    },
}

impl<E> SessionError<E> {
    /// The error in `lang`; an engine's refusal is worded by `refused` (the table's own words).
    pub fn text(&self, lang: Lang, refused: impl Fn(&E) -> String) -> String {
        match self {
            SessionError::Refused(e) => refused(e),
            SessionError::NotAChoice => lang.t("answer yes or no", "répondez oui ou non"),
            SessionError::NoSuchSeat { seat, last } => lang.t(
                format!("there is no seat {seat}: seats are 0 to {last}"),
                format!("il n'y a pas de place {seat} : les places vont de 0 à {last}"),
            ),
            SessionError::Bot(e) => e.to_string(),
            SessionError::BotFailed { seat, why } => {
                lang.t(format!("the bot at seat {seat}: {why}"), format!("le robot de la place {seat} : {why}"))
            }
        }
    }
}

/// One game against bots.
pub struct Session<G: Table> {
    /// The game.
    pub game: G,
    /// The human's seat.
    pub human: Seat,
    /// The language.
    pub lang: Lang,
    bots: Vec<Option<Box<dyn Bot<G>>>>,
    hinter: Box<dyn Bot<G>>,
    hint_level: String,
    level: String,
    /// What happened, oldest first.
    pub log: Vec<String>,
    /// Screens waiting to be shown, oldest first.
    pub notices: Vec<Notice>,
    legal: Vec<G::Action>,
}

impl<G: Table> Session<G> {
    /// A session: `game` with the human at `human` and bots of `level` on the other seats.
    pub fn new(game: G, human: Seat, level: &str, lang: Lang) -> Result<Session<G>, SessionError<G::Error>> {
        let levels = vec![level.to_string(); game.players()];
        Session::with_levels(game, human, &levels, lang)
    }

    /// A session with a level per seat (the human's entry is not used): a resumed game keeps
    /// the bots its record names.
    pub fn with_levels(
        mut game: G,
        human: Seat,
        levels: &[String],
        lang: Lang,
    ) -> Result<Session<G>, SessionError<G::Error>> {
        let seed = game.game_seed();
        let n = game.players();
        let level = levels
            .iter()
            .enumerate()
            .find(|(s, _)| *s != human)
            .map_or(oh7_bots::level::Level::Random.name(), |(_, l)| l.as_str());
        if human >= n {
            return Err(SessionError::NoSuchSeat { seat: human, last: n - 1 });
        }
        let mut bots = Vec::with_capacity(n);
        let mut names = Vec::with_capacity(n);
        for s in 0..n {
            if s == human {
                bots.push(None);
                names.push("human".to_string());
            } else {
                let level = levels.get(s).map_or(level, String::as_str);
                let b = G::bot_of(level, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(s as u64 + 1))
                    .map_err(SessionError::Bot)?;
                names.push(b.name());
                bots.push(Some(b));
            }
        }
        Game::set_seat_names(&mut game, names);
        let hint_level = G::bot_levels().last().copied().unwrap_or(oh7_bots::level::Level::Random.name()).to_string();
        let hinter = G::bot_of(&hint_level, seed ^ 0x005E_ED0F_4141).map_err(SessionError::Bot)?;
        Ok(Session {
            game,
            human,
            lang,
            bots,
            hinter,
            hint_level,
            level: level.to_string(),
            log: Vec::new(),
            notices: Vec::new(),
            legal: Vec::new(),
        })
    }

    /// `e` in the session's language (an engine's refusal in the table's own words).
    pub fn words(&self, e: &SessionError<G::Error>) -> String {
        e.text(self.lang, |r| self.game.error_text(r, self.lang))
    }

    /// The bots' level.
    pub fn bot_level(&self) -> &str {
        &self.level
    }

    /// Who acts next.
    pub fn next(&self) -> Next {
        self.game.next(self.human)
    }

    fn after_action(&mut self, before: G, seat: Seat, action: G::Action) {
        let (lines, notices) = G::narrate(&before, &self.game, seat, action, self.human, self.lang);
        self.log.extend(lines);
        self.notices.extend(notices);
    }

    /// Let the next bot act (does nothing unless a bot is next).
    pub fn bot_step(&mut self) -> Result<(), SessionError<G::Error>> {
        let Next::Bot(seat) = self.next() else { return Ok(()) };
        let mut legal = std::mem::take(&mut self.legal);
        self.game.legal_actions(seat, &mut legal);
        if legal.is_empty() {
            self.legal = legal;
            return Err(SessionError::BotFailed { seat, why: "no legal action".into() });
        }
        let action = {
            let view = self.game.view(seat);
            self.bots[seat].as_mut().expect("a bot seat").choose(&view, &legal)
        };
        self.legal = legal;
        let before = self.game.clone();
        self.game
            .apply(seat, action)
            .map_err(|e| SessionError::BotFailed { seat, why: format!("it chose `{action}`: {e}") })?;
        self.after_action(before, seat, action);
        Ok(())
    }

    /// Apply the human's action (refused: nothing changed).
    pub fn human_action(&mut self, action: G::Action) -> Result<(), SessionError<G::Error>> {
        let before = self.game.clone();
        self.game.apply(self.human, action).map_err(SessionError::Refused)?;
        self.after_action(before, self.human, action);
        Ok(())
    }

    /// Read and apply the human's typed action.
    pub fn human_text(&mut self, text: &str) -> Result<(), SessionError<G::Error>> {
        let action = self.game.parse(self.human, text, self.lang).map_err(SessionError::Refused)?;
        self.human_action(action)
    }

    /// The human declines to call out (Seven).
    pub fn decline(&mut self) -> Result<(), SessionError<G::Error>> {
        match G::decline_action() {
            Some(a) => self.human_action(a),
            None => Ok(()),
        }
    }

    /// Ask the strongest available bot what the human should do now.
    pub fn hint(&mut self) -> Option<(G::Action, String)> {
        let Next::Human(Ask::Turn) = self.next() else { return None };
        let mut legal = Vec::new();
        self.game.legal_actions(self.human, &mut legal);
        if legal.is_empty() {
            return None;
        }
        let view = self.game.view(self.human);
        let a = self.hinter.choose(&view, &legal);
        let label = self.game.action_label(a, self.lang);
        let text = self.lang.t(
            format!("Hint ({} bot): {label}", self.hint_level),
            format!("Conseil (robot {}) : {label}", self.hint_level),
        );
        Some((a, text))
    }

    /// The human's choices now.
    pub fn choices(&self, ask: Ask) -> Vec<Choice<G::Action>> {
        self.game.choices(self.human, ask, self.lang)
    }

    /// The record so far, one line of JSON.
    pub fn record_line(&self) -> String {
        self.game.record().to_string()
    }

    /// Write the record to `path` (one line of JSON, what `oh7 replay` reads).
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        std::fs::write(path, self.record_line() + "\n")
    }
}
