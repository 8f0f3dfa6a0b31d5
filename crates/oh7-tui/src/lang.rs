//! The two languages of the terminal game, and the French text of the engine's errors (the
//! engine's own `Display` is English).

use oh7_core::card::{Card, CardSet, Suit};
use oh7_core::game::Seat;
use oh7_core::oh7::{BetBan, RuleError};
use oh7_core::seven::{SevenError, WindowError};

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
/// no ruling ids.
pub fn oh7_error(e: &RuleError, lang: Lang, sy: Symbols) -> String {
    let seat_name = |s: Seat| lang.t(format!("seat {s}"), format!("la place {s}"));
    match e {
        RuleError::GameOver => lang.t("the game is over", "la partie est finie"),
        RuleError::NoSuchSeat { seat, last } => lang.t(
            format!("there is no seat {seat}: seats are 0 to {last}"),
            format!("il n'y a pas de place {seat} : les places vont de 0 à {last}"),
        ),
        RuleError::NotYourTurn { seat, .. } => lang.t(
            format!("{} has nothing to decide now", seat_name(*seat)),
            format!("{} n'a rien à décider maintenant", seat_name(*seat)),
        ),
        RuleError::WrongPhase { action, .. } => {
            let (en, fr) = match *action {
                "pass cards" => ("pass cards", "passer des cartes"),
                "bet" => ("bet", "parier"),
                "play a card" => ("play a card", "jouer une carte"),
                "reveal" => ("reveal", "révéler"),
                "choose the first leader" => ("choose the first leader", "choisir le premier meneur"),
                "choose the trump" => ("choose the trump", "choisir l'atout"),
                "announce a trump" => ("announce a trump", "annoncer un atout"),
                other => (other, other),
            };
            lang.t(format!("you cannot {en} now"), format!("impossible de {fr} maintenant"))
        }
        RuleError::NotInHand(c) => {
            lang.t(format!("{} is not in your hand", sy.card(*c)), format!("{} n'est pas dans votre main", sy.card(*c)))
        }
        RuleError::CannotBet { card, why } => {
            let card = sy.card(*card);
            match why {
                BetBan::Never => lang
                    .t(format!("{card} can never be your bet card"), format!("{card} ne peut jamais servir à parier")),
                BetBan::UsedBefore => lang.t(
                    format!("{card} was your bet card in an earlier attempt of this round: choose another card"),
                    format!("{card} a servi à une tentative précédente de cette manche : choisissez une autre carte"),
                ),
            }
        }
        RuleError::MustFollow { card, lead, hold } => lang.t(
            format!(
                "you cannot play {}: you hold {} and must follow {}",
                sy.card(*card),
                sy.cards(*hold),
                sy.suit(*lead)
            ),
            format!(
                "impossible de jouer {} : vous avez {} et devez fournir {}",
                sy.card(*card),
                sy.cards(*hold),
                sy.suit(*lead)
            ),
        ),
        RuleError::PassCount { expected, got } => match (lang, *expected) {
            (Lang::En, 1) => format!("pass exactly 1 card this round; you chose {got}"),
            (Lang::En, n) => format!("pass exactly {n} cards this round; you chose {got}"),
            (Lang::Fr, 1) => format!("passez exactement 1 carte cette manche ; vous en avez choisi {got}"),
            (Lang::Fr, n) => format!("passez exactement {n} cartes cette manche ; vous en avez choisi {got}"),
        },
        RuleError::NotAChoice(m) => {
            if m.contains("do not hold") {
                lang.t(
                    format!("you do not hold {}, so you cannot reveal it", sy.mark),
                    format!("vous n'avez pas {}, vous ne pouvez pas le révéler", sy.mark),
                )
            } else if m.contains("not among the tied players") {
                lang.t("that seat is not among the tied players", "cette place n'est pas parmi les joueurs à égalité")
            } else if m.contains("not a suit of this deck") {
                lang.t("that suit is not in this deck", "cette couleur n'est pas dans ce jeu")
            } else {
                m.clone()
            }
        }
        RuleError::Parse(m) => {
            if m.starts_with("unknown card") {
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
            } else if m.starts_with("answer yes or no") {
                lang.t("answer yes or no", "répondez oui ou non")
            } else if m.contains("is not a seat number") {
                lang.t("type a seat number", "tapez un numéro de place")
            } else if m.contains("is not a suit") {
                lang.t("type a suit: S H C D or F", "tapez une couleur : P C T K ou E")
            } else {
                m.clone()
            }
        }
    }
}

/// The text of a Seven error in `lang`, cards in symbols (`8♥`), sentences whole per language.
pub fn seven_error(e: &SevenError, lang: Lang) -> String {
    let seat = |s: Seat| lang.t(format!("seat {s}"), format!("la place {s}"));
    match e {
        SevenError::GameOver => lang.t("the game is over", "la partie est finie"),
        SevenError::NoSuchSeat(s) => lang.t(format!("there is no seat {s}"), format!("il n'y a pas de place {s}")),
        SevenError::Eliminated(s) => {
            lang.t(format!("{} is out of the game", seat(*s)), format!("{} est éliminée", seat(*s)))
        }
        SevenError::NotYourTurn { current, .. } => lang.t(
            format!("it is {}'s turn, not yours (the others may only call out)", seat(*current)),
            format!("c'est au tour de {}, pas au vôtre (les autres peuvent seulement dénoncer)", seat(*current)),
        ),
        SevenError::NotInHand { card, .. } => {
            lang.t(format!("you do not hold {}", card.pretty()), format!("vous n'avez pas {}", card.pretty()))
        }
        SevenError::NoMatch { card, top, suit } => lang.t(
            format!("{} matches neither the suit asked for, {}, nor the rank of {}", card.pretty(), suit.symbol(), top.pretty()),
            format!(
                "{} ne correspond ni à la couleur demandée {} ni à la valeur de {}",
                card.pretty(),
                suit.symbol(),
                top.pretty()
            ),
        ),
        SevenError::PenaltyPending { cards, answer } => {
            let fr = match *answer {
                "a 2" => "un 2",
                "an ace" => "un as",
                other => other,
            };
            lang.t(
                format!("a penalty of {cards} cards is pending: play {answer} or draw"),
                format!("une pénalité de {cards} cartes est en cours : jouez {fr} ou piochez"),
            )
        }
        SevenError::SevenPending => lang.t("a 7 is pending: play a 7 or pass", "un 7 est en cours : jouez un 7 ou passez"),
        SevenError::SuitMissing(c) => lang.t(
            format!("an 8 names the new suit: choose it after {}", c.pretty()),
            format!("un 8 annonce la nouvelle couleur : choisissez-la après {}", c.pretty()),
        ),
        SevenError::SuitNotAllowed(c) => lang.t(
            format!("only an 8 names a suit ({} does not)", c.pretty()),
            format!("seul un 8 annonce une couleur ({} non)", c.pretty()),
        ),
        SevenError::BadAnnouncement => lang.t(
            "announce the last card only with the play that leaves you one card",
            "annoncez la dernière carte seulement avec le coup qui vous laisse une carte",
        ),
        SevenError::MustPlay => {
            lang.t("you can play, so you may not draw", "vous pouvez jouer, vous ne pouvez donc pas piocher")
        }
        SevenError::NoDraw(_) => lang.t("you cannot draw now", "pas de pioche maintenant"),
        SevenError::NoPass => lang.t("you may pass only while a 7 is pending", "vous ne pouvez passer que pendant un 7"),
        SevenError::NoCallOut(s) => lang.t(
            format!("{} cannot be called out now", seat(*s)),
            format!("{} ne peut pas être dénoncée maintenant", seat(*s)),
        ),
        SevenError::Window(w) => match w {
            WindowError::NoWindow => lang.t("nobody can be called out now", "personne n'est à dénoncer maintenant"),
            WindowError::AnswerFirst { offender } => lang.t(
                format!("seat {offender} did not announce the last card: answer first (call out {offender} or not)"),
                format!(
                    "la place {offender} n'a pas annoncé sa dernière carte : répondez d'abord (dénoncer {offender} ou non)"
                ),
            ),
            WindowError::Wait { offender, .. } => lang.t(
                format!("wait: the others are answering about seat {offender}"),
                format!("attendez : les autres répondent à propos de la place {offender}"),
            ),
            WindowError::AlreadyAnswered(_) => lang.t("you have already answered", "vous avez déjà répondu"),
        },
        SevenError::Parse { text, .. } => lang.t(
            format!("cannot read {text:?}: type for example 3C, 8H:S, 3C! (last card), draw, pass, callout 2"),
            format!(
                "impossible de lire {text:?} : tapez par exemple 3T, 8C:P, 3T! (dernière carte), pioche, passe, denonce 2"
            ),
        ),
    }
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
    use oh7_core::seven::{Card as SevenCard, Suit as SevenSuit};

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
