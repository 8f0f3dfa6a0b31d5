//! The two languages of the terminal game, and the engine's errors worded in them (through the
//! shared [`oh7_core::wording`]; the engine's own `Display` is English).

use oh7_core::card::{Card, CardSet, Suit, parse_cards};
use oh7_core::oh7::RuleError;
use oh7_core::refusal::Coded;
use oh7_core::seven::{Card as SevenCard, SevenError, Suit as SevenSuit};
use oh7_core::wording;

pub use oh7_core::glossary::Lang;

/// How cards and suits are written on screen: the ruleset's symbols (`4♥`, `★2`, `‽`), never
/// the engine's notation (`4H`).
#[derive(Clone, Copy, Debug)]
pub struct Symbols {
    /// The fifth suit's symbol.
    pub fifth: char,
    /// The ‽/? card's symbol.
    pub mark: char,
}

impl Symbols {
    /// A card.
    pub fn card(self, c: Card) -> String {
        c.pretty(self.fifth, self.mark)
    }
    /// Cards, space-separated.
    pub fn cards(self, s: CardSet) -> String {
        s.iter().map(|c| self.card(c)).collect::<Vec<_>>().join(" ")
    }
    /// A suit.
    pub fn suit(self, s: Suit) -> String {
        s.symbol(self.fifth).to_string()
    }
}

/// The text of an Oh 7 rule error in `lang`, cards in symbols, sentences whole per language,
/// no ruling ids: the shared wording of [`oh7_core::wording`], except for the free-text
/// details the terminal knows better (its typing hints, in the player's letters).
pub fn oh7_error(e: &RuleError, lang: Lang, sy: Symbols) -> String {
    if let Some(text) = oh7_detail(e, lang, sy) {
        return text;
    }
    wording::word(lang, &e.refused(), &|name, value| oh7_param(sy, name, value))
}

/// An Oh 7 refusal's param on screen: cards and suits in the ruleset's symbols.
fn oh7_param(sy: Symbols, name: &str, value: &str) -> String {
    let shown = match name {
        "card" => value.parse::<Card>().ok().map(|c| sy.card(c)),
        "hold" => parse_cards(value).ok().map(|v| sy.cards(CardSet::from_cards(&v))),
        "lead" | "suit" => value.parse::<Suit>().ok().map(|s| sy.suit(s)),
        _ => None,
    };
    shown.unwrap_or_else(|| value.to_string())
}

/// The terminal's own text for an engine or parser detail it recognizes (the shared wording
/// keeps such free text in English only).
fn oh7_detail(e: &RuleError, lang: Lang, sy: Symbols) -> Option<String> {
    Some(match e {
        RuleError::NotAChoice(m) if m.contains("do not hold") => lang.t(
            format!("you do not hold {}, so you cannot reveal it", sy.mark),
            format!("vous n'avez pas {}, vous ne pouvez pas le révéler", sy.mark),
        ),
        RuleError::NotAChoice(m) if m.contains("not among the tied players") => {
            lang.t("that seat is not among the tied players", "cette place n'est pas parmi les joueurs à égalité")
        }
        RuleError::NotAChoice(m) if m.contains("not a suit of this deck") => {
            lang.t("that suit is not in this deck", "cette couleur n'est pas dans ce jeu")
        }
        RuleError::Parse(m) if m.starts_with("unknown card") => {
            let bad = m.split('`').nth(1).unwrap_or("");
            lang.t(
                format!(
                    "unknown card `{bad}`: type a value 0-7 and a suit letter S H C D F (3S, 0H), \
                     *2 for a star, V for the void, {} for the {} card",
                    sy.mark, sy.mark
                ),
                format!(
                    "carte inconnue `{bad}` : tapez une valeur 0-7 et une couleur P C T K E (pique, cœur, trèfle, \
                     carreau, étoile : 3P, 0C), *2 pour une étoile, V pour le vide, {} pour la carte {}",
                    sy.mark, sy.mark
                ),
            )
        }
        RuleError::Parse(m) if m.starts_with("answer yes or no") => lang.t("answer yes or no", "répondez oui ou non"),
        RuleError::Parse(m) if m.contains("is not a seat number") => {
            lang.t("type a seat number", "tapez un numéro de place")
        }
        RuleError::Parse(m) if m.contains("is not a suit") => {
            lang.t("type a suit: S H C D or F", "tapez une couleur : P C T K ou E")
        }
        _ => return None,
    })
}

/// The text of a Seven error in `lang`, cards in symbols (`8♥`), sentences whole per language:
/// the shared wording of [`oh7_core::wording`], except for unreadable text, answered with the
/// terminal's typing hint.
pub fn seven_error(e: &SevenError, lang: Lang) -> String {
    if let SevenError::Parse { text, .. } = e {
        return lang.t(
            format!("cannot read {text:?}: type for example 3C, 8H:S, 3C! (last card), draw, pass, callout 2"),
            format!(
                "impossible de lire {text:?} : tapez par exemple 3T, 8C:P, 3T! (dernière carte), pioche, passe, denonce 2"
            ),
        );
    }
    wording::word(lang, &e.refused(), &seven_param)
}

/// A Seven refusal's param on screen: cards and suits in symbols.
fn seven_param(name: &str, value: &str) -> String {
    let shown = match name {
        "card" | "top" => SevenCard::parse_with_copy(value).ok().map(|(c, _)| c.pretty()),
        "suit" => value.parse::<SevenSuit>().ok().map(|s| s.symbol().to_string()),
        _ => None,
    };
    shown.unwrap_or_else(|| value.to_string())
}

/// Whether a text shown to a player names a ruling (`R-BET-2`, `S-TURN-1`): it must not.
pub fn names_a_ruling(text: &str) -> bool {
    let b = text.as_bytes();
    b.windows(3).any(|w| (w[0] == b'R' || w[0] == b'S') && w[1] == b'-' && w[2].is_ascii_uppercase())
}

/// Whether a text shows a card in the engine's notation (`4H`, `3S'`) instead of symbols.
pub fn shows_engine_notation(text: &str) -> bool {
    let words = text.split(|c: char| !c.is_ascii_alphanumeric());
    words.into_iter().any(|w| {
        let b = w.as_bytes();
        b.len() == 2 && b[0].is_ascii_digit() && b"SHCDF".contains(&b[1])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::oh7::BetBan;
    use oh7_core::seven::WindowError;

    fn hold(cards: &[&str]) -> CardSet {
        CardSet::from_cards(&cards.iter().map(|c| c.parse::<Card>().unwrap()).collect::<Vec<_>>())
    }

    fn rule_errors() -> Vec<RuleError> {
        let c: Card = "3S".parse().unwrap();
        vec![
            RuleError::GameOver,
            RuleError::NoSuchSeat { seat: 5, last: 3 },
            RuleError::NotYourTurn { seat: 1, waiting: "seat 0".into() },
            RuleError::WrongPhase { action: "bet", now: "x".into() },
            RuleError::NotInHand(c),
            RuleError::CannotBet { card: c, why: BetBan::Never },
            RuleError::CannotBet { card: c, why: BetBan::UsedBefore },
            RuleError::MustFollow { card: c, lead: Suit::H, hold: hold(&["4H", "5H"]) },
            RuleError::PassCount { expected: 2, got: 1 },
            RuleError::PassCount { expected: 1, got: 0 },
            RuleError::NotAChoice("you do not hold ?, so you cannot reveal it".into()),
            RuleError::NotAChoice("seat 3 is not among the tied players".into()),
            RuleError::NotAChoice("F is not a suit of this deck".into()),
            RuleError::Parse("unknown card `zz`: write".into()),
            RuleError::Parse("answer yes or no, not `x`".into()),
            RuleError::Parse("`x` is not a seat number".into()),
            RuleError::Parse("`x` is not a suit: write".into()),
        ]
    }

    const SY: Symbols = Symbols { fifth: '☆', mark: '?' };

    /// Every Oh 7 error path, in both languages: French text of its own, no ruling id, cards in
    /// symbols (R-BET-1 and R-BET-2 are behind two of them).
    #[test]
    fn rule_errors_speak_the_players_language() {
        for e in rule_errors() {
            let (en, fr) = (oh7_error(&e, Lang::En, SY), oh7_error(&e, Lang::Fr, SY));
            assert_ne!(fr, en, "{e:?} has no French text");
            for t in [&en, &fr] {
                assert!(!names_a_ruling(t), "{t}");
                assert!(!shows_engine_notation(t) || t.contains("3S, 0H") || t.contains("3P, 0C"), "{t}");
            }
        }
        assert_eq!(
            oh7_error(&RuleError::NotInHand("3S".parse().unwrap()), Lang::Fr, SY),
            "3♠ n'est pas dans votre main"
        );
        let follow = RuleError::MustFollow { card: "3S".parse().unwrap(), lead: Suit::H, hold: hold(&["4H"]) };
        assert_eq!(oh7_error(&follow, Lang::En, SY), "you cannot play 3♠: you hold 4♥ and must follow ♥");
        assert!(!oh7_error(&follow, Lang::En, SY).contains("special"), "no special cards in the English game");
    }

    #[test]
    fn seven_errors_speak_the_players_language() {
        let c = SevenCard::parse_with_copy("8H").unwrap().0;
        let errors = [
            SevenError::GameOver,
            SevenError::NoSuchSeat(9),
            SevenError::Eliminated(1),
            SevenError::NotYourTurn { seat: 0, current: 1 },
            SevenError::NotInHand { seat: 0, card: c },
            SevenError::NoMatch { card: c, top: c, suit: SevenSuit::S },
            SevenError::PenaltyPending { cards: 4, answer: "a 2" },
            SevenError::SevenPending,
            SevenError::SuitMissing(c),
            SevenError::SuitNotAllowed(c),
            SevenError::BadAnnouncement,
            SevenError::MustPlay,
            SevenError::NoDraw("x"),
            SevenError::NoPass,
            SevenError::NoCallOut(2),
            SevenError::Window(WindowError::NoWindow),
            SevenError::Window(WindowError::AnswerFirst { offender: 2 }),
            SevenError::Window(WindowError::Wait { seat: 0, offender: 2 }),
            SevenError::Window(WindowError::AlreadyAnswered(0)),
        ];
        for e in errors {
            let (en, fr) = (seven_error(&e, Lang::En), seven_error(&e, Lang::Fr));
            assert_ne!(fr, en, "{e:?}");
            for t in [&en, &fr] {
                assert!(!names_a_ruling(t), "{t}");
                assert!(!t.contains("8H"), "{t}");
            }
        }
        assert_eq!(seven_error(&SevenError::SevenPending, Lang::Fr), "un 7 est en cours : jouez un 7 ou passez");
        // The shared wording, with Seven's cards and suits in symbols.
        let top = SevenCard::parse_with_copy("10S'").unwrap().0;
        assert_eq!(
            seven_error(&SevenError::NoMatch { card: c, top, suit: SevenSuit::D }, Lang::Fr),
            "8♥ ne correspond ni à la couleur demandée ♦ ni à la valeur de 10♠'"
        );
        assert_eq!(
            seven_error(&SevenError::PenaltyPending { cards: 5, answer: "A♠" }, Lang::En),
            "a penalty of 5 cards is pending: play an A♠ or draw"
        );
    }

    #[test]
    fn the_checks_themselves_catch_what_they_look_for() {
        assert!(names_a_ruling("cannot bet (R-BET-2)"));
        assert!(names_a_ruling("S-TURN-1"));
        assert!(!names_a_ruling("R-2 nothing"));
        assert!(shows_engine_notation("play 4H now"));
        assert!(!shows_engine_notation("play 4♥ now"));
    }
}
