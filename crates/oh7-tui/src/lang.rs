//! The two languages of the terminal game, and the French text of the engine's errors (the
//! engine's own `Display` is English).

use oh7_core::game::Seat;
use oh7_core::oh7::RuleError;
use oh7_core::seven::{SevenError, WindowError};

/// The language of every text shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French.
    Fr,
}

impl std::str::FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" | "english" | "anglais" => Ok(Lang::En),
            "fr" | "french" | "français" | "francais" => Ok(Lang::Fr),
            _ => Err(format!("unknown language `{s}`: choose en or fr")),
        }
    }
}

impl Lang {
    /// The English or the French text.
    #[inline]
    pub fn s<'a>(self, en: &'a str, fr: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Fr => fr,
        }
    }

    /// The English or the French text, owned.
    pub fn t(self, en: impl Into<String>, fr: impl Into<String>) -> String {
        match self {
            Lang::En => en.into(),
            Lang::Fr => fr.into(),
        }
    }

    /// `yes` / `oui`.
    pub fn yes(self) -> &'static str {
        self.s("yes", "oui")
    }
    /// `no` / `non`.
    pub fn no(self) -> &'static str {
        self.s("no", "non")
    }
}

fn seat_fr(s: Seat) -> String {
    format!("la place {s}")
}

/// The text of an Oh 7 rule error in `lang`.
pub fn oh7_error(e: &RuleError, lang: Lang) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        RuleError::GameOver => "la partie est finie".into(),
        RuleError::NoSuchSeat { seat, last } => format!("il n'y a pas de place {seat} : les places vont de 0 à {last}"),
        RuleError::NotYourTurn { seat, .. } => format!("{} n'a rien à décider maintenant", seat_fr(*seat)),
        RuleError::WrongPhase { action, .. } => {
            let what = match *action {
                "pass cards" => "passer des cartes",
                "bet" => "miser",
                "play a card" => "jouer une carte",
                "reveal" => "révéler",
                "choose the first leader" => "choisir le premier joueur",
                "choose the trump" => "choisir l'atout",
                "announce a trump" => "annoncer un atout",
                other => other,
            };
            format!("impossible de {what} maintenant")
        }
        RuleError::NotInHand(c) => format!("{c} n'est pas dans votre main"),
        RuleError::CannotBet { card, why } => {
            let why = if why.contains("R-BET-1") {
                "cette carte ne peut jamais servir à miser (R-BET-1)"
            } else if why.contains("R-BET-2") {
                "elle a servi à une tentative précédente de cette manche ; prenez une autre carte (R-BET-2)"
            } else {
                why
            };
            format!("impossible de miser {card} : {why}")
        }
        RuleError::MustFollow { card, lead, hold } => format!(
            "impossible de jouer {card} : vous devez fournir {lead} (vous avez {hold}) ou jouer une carte spéciale"
        ),
        RuleError::PassCount { expected, got } => {
            format!("passez exactement {expected} carte(s) cette manche ; vous en avez donné {got}")
        }
        RuleError::NotAChoice(m) => {
            if m.contains("do not hold ?") {
                "vous n'avez pas ?, vous ne pouvez pas le révéler".into()
            } else if m.contains("not among the tied players") {
                "cette place n'est pas parmi les joueurs à égalité".into()
            } else if m.contains("not a suit of this deck") {
                "cette couleur n'est pas dans ce jeu".into()
            } else {
                m.clone()
            }
        }
        RuleError::Parse(m) => {
            if m.starts_with("unknown card") {
                let bad = m.split('`').nth(1).unwrap_or("");
                format!(
                    "carte inconnue `{bad}` : écrivez une valeur 0-7 et une couleur S H C D F (3S, 0H, 5F), \
                     *n pour une étoile (*2), V pour le vide, ? pour le point d'interrobang, ' pour un second exemplaire"
                )
            } else if m.starts_with("answer yes or no") {
                "répondez oui ou non".into()
            } else if m.contains("is not a seat number") {
                "écrivez un numéro de place".into()
            } else if m.contains("is not a suit") {
                "écrivez une couleur : S H C D ou F".into()
            } else {
                m.clone()
            }
        }
    }
}

/// The text of a Seven error in `lang`.
pub fn seven_error(e: &SevenError, lang: Lang) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        SevenError::GameOver => "la partie est finie".into(),
        SevenError::NoSuchSeat(s) => format!("il n'y a pas de place {s}"),
        SevenError::Eliminated(s) => format!("{} est éliminée", seat_fr(*s)),
        SevenError::NotYourTurn { current, .. } => {
            format!("c'est au tour de {}, pas au vôtre (les autres peuvent seulement dénoncer)", seat_fr(*current))
        }
        SevenError::NotInHand { card, .. } => format!("vous n'avez pas {card}"),
        SevenError::NoMatch { card, top, suit } => {
            format!("{card} ne correspond ni à la couleur demandée {suit} ni à la valeur de {top}")
        }
        SevenError::PenaltyPending { cards, answer } => {
            let answer = if *answer == "a 2" { "un 2" } else { answer };
            format!("une pénalité de {cards} cartes est en cours : jouez {answer} ou piochez")
        }
        SevenError::SevenPending => "un 7 est en cours : jouez un 7 ou passez".into(),
        SevenError::SuitMissing(c) => format!("un 8 annonce la nouvelle couleur : écrivez par exemple {c}:S"),
        SevenError::SuitNotAllowed(c) => format!("seul un 8 annonce une couleur ({c} non)"),
        SevenError::BadAnnouncement => {
            "annoncez la dernière carte seulement avec le coup qui vous laisse une carte".into()
        }
        SevenError::MustPlay => "vous pouvez jouer, vous ne pouvez donc pas piocher (S-TURN-1)".into(),
        SevenError::NoDraw(_) => "pas de pioche maintenant".into(),
        SevenError::NoPass => "vous ne pouvez passer que pendant un 7".into(),
        SevenError::NoCallOut(s) => format!("{} ne peut pas être dénoncée maintenant", seat_fr(*s)),
        SevenError::Window(w) => match w {
            WindowError::NoWindow => "personne n'est à dénoncer maintenant".into(),
            WindowError::AnswerFirst { offender } => format!(
                "la place {offender} n'a pas annoncé sa dernière carte : répondez d'abord (dénoncer {offender} ou non)"
            ),
            WindowError::Wait { offender, .. } => {
                format!("attendez : les autres répondent à propos de la place {offender}")
            }
            WindowError::AlreadyAnswered(_) => "vous avez déjà répondu".into(),
        },
        SevenError::Parse { text, .. } => format!(
            "impossible de lire {text:?} : écrivez par exemple 3C, 8H:S, 3C! (dernière carte), pioche, passe, denonce 2"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::card::{Card, CardSet, Suit};

    #[test]
    fn every_rule_error_has_french_text() {
        let c: Card = "3S".parse().unwrap();
        let errors = [
            RuleError::GameOver,
            RuleError::NoSuchSeat { seat: 5, last: 3 },
            RuleError::NotYourTurn { seat: 1, waiting: "seat 0".into() },
            RuleError::WrongPhase { action: "bet", now: "x".into() },
            RuleError::NotInHand(c),
            RuleError::CannotBet { card: c, why: "it was bet in an earlier attempt (R-BET-2)" },
            RuleError::MustFollow { card: c, lead: Suit::H, hold: CardSet::EMPTY },
            RuleError::PassCount { expected: 2, got: 1 },
            RuleError::NotAChoice("you do not hold ?, so you cannot reveal it".into()),
            RuleError::Parse("unknown card `zz`: write".into()),
        ];
        for e in errors {
            let fr = oh7_error(&e, Lang::Fr);
            assert_ne!(fr, e.to_string(), "{e:?} has no French text");
        }
        assert!(oh7_error(&RuleError::NotInHand(c), Lang::Fr).contains("votre main"));
    }

    #[test]
    fn seven_errors_in_french() {
        let e = SevenError::SevenPending;
        assert_eq!(seven_error(&e, Lang::Fr), "un 7 est en cours : jouez un 7 ou passez");
        assert_eq!(seven_error(&e, Lang::En), e.to_string());
    }
}
