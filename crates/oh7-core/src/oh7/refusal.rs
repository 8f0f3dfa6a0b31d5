//! The Oh 7 engine's refusals as codes and figures ([`Coded`]).

use serde_json::{Map, Value};

use super::{BetBan, RuleError};
use crate::refusal::{Coded, figures, num, text};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;

    #[test]
    fn a_refusal_keeps_its_figures() {
        let card: Card = "7H".parse().unwrap();
        let r = RuleError::CannotBet { card, why: BetBan::UsedBefore }.refused();
        assert_eq!(r.rule, "bet_before");
        assert_eq!(r.params["card"], "7H");
        assert!(r.message.contains("earlier attempt"));
    }
}
