//! Seven's refusals as codes and figures ([`Coded`]).

use serde_json::{Map, Value};

use super::{SevenError, WindowError};
use crate::refusal::{Coded, figures, num, text};

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

    #[test]
    fn a_refusal_keeps_its_figures() {
        let r = SevenError::PenaltyPending { cards: 4, answer: "a 2" }.refused();
        assert_eq!(
            (r.rule, r.params["cards"].as_u64(), r.params["answer"].as_str()),
            ("penalty_pending", Some(4), Some("2"))
        );
    }
}
