//! The engines' refusals as codes with their figures, so that every client (the terminal, the
//! browser, a bot author's program) words them in its own language from one table of wordings
//! ([`crate::wording`]) instead of reading an English sentence.
//!
//! A refusal's `rule` is a stable snake_case code; its `params` are the figures the wording
//! needs (cards and suits in the engine's notation, seats as numbers).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::oh7::{BetBan, RuleError};
use crate::seven::{SevenError, WindowError};

/// A refusal of the engine, ready to cross the wire: its code, its figures and the English
/// sentence (for logs and for programs that do not word codes themselves).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refused {
    /// The rule's code (`must_follow`, `not_in_hand`, ...).
    pub rule: &'static str,
    /// The figures the wording needs.
    pub params: Map<String, Value>,
    /// The English sentence.
    pub message: String,
}

impl Refused {
    /// `seat` owes no decision now (asked of a game that is not over): code `not_your_turn`,
    /// as the engines give it.
    pub fn not_your_turn(seat: usize) -> Refused {
        Refused {
            rule: "not_your_turn",
            params: figures([("seat", num(seat))]),
            message: format!("seat {seat} has nothing to decide now"),
        }
    }

    /// `text` reads as an action but not in the documented notation, which for this decision is
    /// `canonical`'s (a bet sent as `play 5S`, a bare card): code `unreadable`, nothing applied.
    pub fn not_the_notation(text_given: &str, canonical: &str) -> Refused {
        let verb = canonical.split_whitespace().next().unwrap_or(canonical);
        let detail = format!("this decision is written `{verb} …`, e.g. `{canonical}`");
        Refused {
            rule: "unreadable",
            params: figures([("text", text(text_given)), ("detail", text(&detail))]),
            message: format!("cannot read \"{text_given}\": {detail}"),
        }
    }

    /// The game has ended: code `game_over`, as the engines give it.
    pub fn game_over() -> Refused {
        Refused { rule: "game_over", params: Map::new(), message: "the game is over".to_string() }
    }
}

/// An engine error that has a code and figures.
pub trait Coded: std::error::Error {
    /// The stable code.
    fn rule(&self) -> &'static str;
    /// The figures, by name.
    fn params(&self) -> Map<String, Value>;
    /// Code, figures and the English sentence together.
    fn refused(&self) -> Refused {
        Refused { rule: self.rule(), params: self.params(), message: self.to_string() }
    }
}

/// Figures by name, from pairs (a value that serializes to JSON: numbers, text).
fn figures<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn text(x: impl std::fmt::Display) -> Value {
    Value::String(x.to_string())
}

fn num(x: usize) -> Value {
    Value::from(x as u64)
}

impl Coded for RuleError {
    fn rule(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NoSuchSeat { .. } => "no_such_seat",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::WrongPhase { .. } => "wrong_phase",
            RuleError::NotInHand(_) => "not_in_hand",
            RuleError::CannotBet { why: BetBan::Never, .. } => "never_bets",
            RuleError::CannotBet { why: BetBan::UsedBefore, .. } => "bet_before",
            RuleError::MustFollow { .. } => "must_follow",
            RuleError::PassCount { .. } => "pass_count",
            RuleError::NotAChoice(_) => "not_a_choice",
            RuleError::Parse(_) => "unreadable",
        }
    }

    fn params(&self) -> Map<String, Value> {
        match self {
            RuleError::GameOver => Map::new(),
            RuleError::NoSuchSeat { seat, last } => figures([("seat", num(*seat)), ("last", num(*last))]),
            RuleError::NotYourTurn { seat, .. } => figures([("seat", num(*seat))]),
            RuleError::WrongPhase { action, .. } => figures([("action", text(action))]),
            RuleError::NotInHand(card) => figures([("card", text(card))]),
            RuleError::CannotBet { card, .. } => figures([("card", text(card))]),
            RuleError::MustFollow { card, lead, hold } => {
                figures([("card", text(card)), ("lead", text(lead)), ("hold", text(hold))])
            }
            RuleError::PassCount { expected, got } => figures([("expected", num(*expected)), ("got", num(*got))]),
            RuleError::NotAChoice(why) | RuleError::Parse(why) => figures([("detail", text(why))]),
        }
    }
}

impl Coded for SevenError {
    fn rule(&self) -> &'static str {
        match self {
            SevenError::GameOver => "game_over",
            SevenError::NoSuchSeat(_) => "no_such_seat",
            SevenError::Eliminated(_) => "eliminated",
            SevenError::NotYourTurn { .. } => "not_your_turn",
            SevenError::NotInHand { .. } => "not_in_hand",
            SevenError::NoMatch { .. } => "no_match",
            SevenError::PenaltyPending { .. } => "penalty_pending",
            SevenError::SevenPending => "seven_pending",
            SevenError::SuitMissing(_) => "suit_missing",
            SevenError::SuitNotAllowed(_) => "suit_not_allowed",
            SevenError::BadAnnouncement => "bad_announcement",
            SevenError::MustPlay => "must_play",
            SevenError::NoDraw(_) => "no_draw",
            SevenError::NoPass => "no_pass",
            SevenError::NoCallOut(_) => "no_call_out",
            SevenError::Window(WindowError::NoWindow) => "no_window",
            SevenError::Window(WindowError::AnswerFirst { .. }) => "answer_first",
            SevenError::Window(WindowError::Wait { .. }) => "window_wait",
            SevenError::Window(WindowError::AlreadyAnswered(_)) => "already_answered",
            SevenError::Parse { .. } => "unreadable",
        }
    }

    fn params(&self) -> Map<String, Value> {
        match self {
            SevenError::GameOver
            | SevenError::SevenPending
            | SevenError::BadAnnouncement
            | SevenError::MustPlay
            | SevenError::NoPass
            | SevenError::Window(WindowError::NoWindow) => Map::new(),
            SevenError::NoSuchSeat(seat)
            | SevenError::Eliminated(seat)
            | SevenError::NoCallOut(seat)
            | SevenError::Window(WindowError::AlreadyAnswered(seat)) => figures([("seat", num(*seat))]),
            SevenError::NotYourTurn { seat, current } => figures([("seat", num(*seat)), ("current", num(*current))]),
            SevenError::NotInHand { card, .. } | SevenError::SuitMissing(card) | SevenError::SuitNotAllowed(card) => {
                figures([("card", text(card))])
            }
            SevenError::NoMatch { card, top, suit } => {
                figures([("card", text(card)), ("top", text(top)), ("suit", text(suit))])
            }
            SevenError::PenaltyPending { cards, answer } => {
                let answer = if answer.contains('2') { "2" } else { "AS" };
                figures([("cards", Value::from(*cards)), ("answer", text(answer))])
            }
            SevenError::NoDraw(why) => {
                let lock = if why.contains("pending") { "lock" } else { "free_play" };
                figures([("why", text(lock))])
            }
            SevenError::Window(WindowError::AnswerFirst { offender }) => figures([("offender", num(*offender))]),
            SevenError::Window(WindowError::Wait { seat, offender }) => {
                figures([("seat", num(*seat)), ("offender", num(*offender))])
            }
            SevenError::Parse { text: t, why } => figures([("text", text(t)), ("detail", text(why))]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;
    use crate::oh7::BetBan;

    #[test]
    fn a_refusal_keeps_its_figures() {
        let card: Card = "7H".parse().unwrap();
        let r = RuleError::CannotBet { card, why: BetBan::UsedBefore }.refused();
        assert_eq!(r.rule, "bet_before");
        assert_eq!(r.params["card"], "7H");
        assert!(r.message.contains("earlier attempt"));
        let r = SevenError::PenaltyPending { cards: 4, answer: "a 2" }.refused();
        assert_eq!(
            (r.rule, r.params["cards"].as_u64(), r.params["answer"].as_str()),
            ("penalty_pending", Some(4), Some("2"))
        );
    }
}
