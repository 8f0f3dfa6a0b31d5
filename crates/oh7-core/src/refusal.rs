//! The engines' refusals as codes with their figures, so that every client (the terminal, the
//! browser, a bot author's program) words them in its own language from one table of wordings
//! ([`crate::wording`]) instead of reading an English sentence.
//!
//! A refusal's `rule` is a stable snake_case code; its `params` are the figures the wording
//! needs (cards and suits in the engine's notation, seats as numbers). Each engine codes its own
//! errors (`oh7/refusal.rs`, `seven/refusal.rs`): this module knows no engine.

use serde::Serialize;
use serde_json::{Map, Value};

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
pub(crate) fn figures<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// A figure as text.
pub(crate) fn text(x: impl std::fmt::Display) -> Value {
    Value::String(x.to_string())
}

/// A figure as a number.
pub(crate) fn num(x: usize) -> Value {
    Value::from(x as u64)
}
