//! The wording of the engines' refusals ([`Refused`]) in English and French: one table shared
//! by the terminal (which calls [`word`]) and the browser (which reads the same table from
//! `web/wording.js`, written by [`to_js`]), so a refusal reads the same in both.
//!
//! A wording is a template per language with `{param}` placeholders naming the refusal's
//! params. A rule may have several wordings: the first one whose `when` condition holds and whose
//! placeholders (of both languages) are all among the refusal's params is used. So a richer
//! wording comes first and a plainer one after it (Seven's `not_your_turn` names whose turn it
//! is; Oh 7's and [`Refused::not_your_turn`] do not).
//!
//! Placeholders are filled in two ways:
//! - word-valued params (`action`, `answer`, `why`) through [`TERMS`], translated here;
//! - every other param through the client's `show`, given the param's name and its text: cards
//!   (`card`, `top`; `hold` is several cards, space-separated) and suits (`lead`, `suit`) are in
//!   the engine's notation for the client to draw its own way; seats (`seat`, `last`, `current`,
//!   `offender`) are the engine's numbers from 0, for the client to number or name as it shows
//!   seats (templates never write a seat number of their own); counts (`expected`, `got`,
//!   `cards`) and `text` (what the player typed) are shown as they are.
//!
//! `detail` is the parser's or engine's free English text: the English wordings include it,
//! the French ones drop it (an English clause inside a French sentence reads worse than a plain
//! French one).

use serde_json::Value;

use crate::glossary::Lang;
use crate::refusal::Refused;

/// One wording of a rule code, in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wording {
    /// The rule's code, as [`crate::refusal::Coded::rule`] gives it.
    pub rule: &'static str,
    /// Only when this param has this text (a number as its decimal digits), e.g. the singular.
    pub when: Option<(&'static str, &'static str)>,
    /// The English template.
    pub en: &'static str,
    /// The French template.
    pub fr: &'static str,
}

/// The translation of one value of a word-valued param.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// The param's name (`action`, `answer`, `why`).
    pub param: &'static str,
    /// The value as the engine sends it.
    pub value: &'static str,
    /// In English.
    pub en: &'static str,
    /// In French.
    pub fr: &'static str,
}

/// The sentence for a refusal that has no wording here (a rule code newer than this table).
pub const GENERIC: (&str, &str) = ("that move is not allowed now", "ce coup n'est pas permis maintenant");

const fn w(rule: &'static str, en: &'static str, fr: &'static str) -> Wording {
    Wording { rule, when: None, en, fr }
}

/// Every wording, richest first within a rule.
pub const WORDINGS: &[Wording] = &[
    // Both games.
    w("game_over", "the game is over", "la partie est finie"),
    w(
        "no_such_seat",
        "there is no seat {seat}: the last seat is {last}",
        "il n'y a pas de place {seat} : la dernière est la place {last}",
    ),
    w("no_such_seat", "there is no seat {seat}", "il n'y a pas de place {seat}"),
    w(
        "not_your_turn",
        "it is seat {current}'s turn, not yours (the others may only call out)",
        "c'est au tour de la place {current}, pas au vôtre (les autres peuvent seulement dénoncer)",
    ),
    w("not_your_turn", "seat {seat} has nothing to decide now", "la place {seat} n'a rien à décider maintenant"),
    w("not_in_hand", "{card} is not in your hand", "{card} n'est pas dans votre main"),
    w("unreadable", "cannot read \"{text}\": {detail}", "impossible de lire « {text} »"),
    w("unreadable", "cannot read that: {detail}", "impossible de lire cette saisie"),
    // Oh 7.
    w("wrong_phase", "you cannot {action} now", "impossible de {action} maintenant"),
    w("never_bets", "{card} can never be your bet card", "{card} ne peut jamais servir à parier"),
    w(
        "bet_before",
        "{card} was your bet card in an earlier attempt of this round: choose another card",
        "{card} a servi à une tentative précédente de cette manche : choisissez une autre carte",
    ),
    w(
        "must_follow",
        "you cannot play {card}: you hold {hold} and must follow {lead}",
        "impossible de jouer {card} : vous avez {hold} et devez fournir {lead}",
    ),
    Wording {
        rule: "pass_count",
        when: Some(("expected", "1")),
        en: "pass exactly 1 card this round; you chose {got}",
        fr: "passez exactement 1 carte cette manche ; vous en avez choisi {got}",
    },
    w(
        "pass_count",
        "pass exactly {expected} cards this round; you chose {got}",
        "passez exactement {expected} cartes cette manche ; vous en avez choisi {got}",
    ),
    w("not_a_choice", "{detail}", "ce choix n'est pas possible maintenant"),
    // Seven.
    w("eliminated", "seat {seat} is out of the game", "la place {seat} est éliminée"),
    w(
        "no_match",
        "{card} matches neither the suit asked for, {suit}, nor the rank of {top}",
        "{card} ne correspond ni à la couleur demandée {suit} ni à la valeur de {top}",
    ),
    w(
        "penalty_pending",
        "a penalty of {cards} cards is pending: play {answer} or draw",
        "une pénalité de {cards} cartes est en cours : jouez {answer} ou piochez",
    ),
    w("seven_pending", "a 7 is pending: play a 7 or pass", "un 7 est en cours : jouez un 7 ou passez"),
    w(
        "suit_missing",
        "an 8 names the new suit: choose it after {card}",
        "un 8 annonce la nouvelle couleur : choisissez-la après {card}",
    ),
    w("suit_not_allowed", "only an 8 names a suit ({card} does not)", "seul un 8 annonce une couleur ({card} non)"),
    w(
        "bad_announcement",
        "announce the last card only with the play that leaves you one card",
        "annoncez la dernière carte seulement avec le coup qui vous laisse une carte",
    ),
    w("must_play", "you can play, so you may not draw", "vous pouvez jouer, vous ne pouvez donc pas piocher"),
    w("no_draw", "you cannot draw now: {why}", "pas de pioche maintenant : {why}"),
    w("no_pass", "you may pass only while a 7 is pending", "vous ne pouvez passer que pendant un 7"),
    w("no_call_out", "seat {seat} cannot be called out now", "la place {seat} ne peut pas être dénoncée maintenant"),
    w("no_window", "nobody can be called out now", "personne n'est à dénoncer maintenant"),
    w(
        "answer_first",
        "seat {offender} did not announce the last card: answer first (call out {offender} or not)",
        "la place {offender} n'a pas annoncé sa dernière carte : répondez d'abord (dénoncer {offender} ou non)",
    ),
    w(
        "window_wait",
        "wait: the others are answering about seat {offender}",
        "attendez : les autres répondent à propos de la place {offender}",
    ),
    w("already_answered", "you have already answered", "vous avez déjà répondu"),
];

const fn t(param: &'static str, value: &'static str, en: &'static str, fr: &'static str) -> Term {
    Term { param, value, en, fr }
}

/// The translated values of the word-valued params.
pub const TERMS: &[Term] = &[
    t("action", "pass cards", "pass cards", "passer des cartes"),
    t("action", "bet", "bet", "parier"),
    t("action", "play a card", "play a card", "jouer une carte"),
    t("action", "reveal", "reveal", "révéler"),
    t("action", "choose the first leader", "choose the first leader", "choisir le premier meneur"),
    t("action", "choose the trump", "choose the trump", "choisir l'atout"),
    t("action", "announce a trump", "announce a trump", "annoncer un atout"),
    t("answer", "2", "a 2", "un 2"),
    t("answer", "AS", "an A♠", "un A♠"),
    t("why", "lock", "a 7 is pending, play a 7 or pass", "un 7 est en cours, jouez un 7 ou passez"),
    t(
        "why",
        "free_play",
        "the 7 came back to you, play any card",
        "le 7 vous est revenu, jouez n'importe quelle carte",
    ),
];

/// A param's value as text (a number as its digits).
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The names between braces in a template, in order.
fn placeholders(template: &str) -> impl Iterator<Item = &str> {
    template.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name))
}

/// The wording of a refusal: the first of its rule whose condition holds and whose
/// placeholders the refusal provides; `None` for a rule code this table does not know.
pub fn wording(r: &Refused) -> Option<&'static Wording> {
    WORDINGS.iter().find(|w| {
        w.rule == r.rule
            && w.when.is_none_or(|(k, v)| r.params.get(k).is_some_and(|x| text_of(x) == v))
            && placeholders(w.en).chain(placeholders(w.fr)).all(|p| r.params.contains_key(p))
    })
}

/// The translation of a word-valued param's value, `None` if `param` is not word-valued or
/// the value is unknown.
pub fn term(lang: Lang, param: &str, value: &str) -> Option<&'static str> {
    TERMS.iter().find(|t| t.param == param && t.value == value).map(|t| lang.s(t.en, t.fr))
}

/// A refusal worded in `lang`: its template with word-valued params translated and every other
/// param rendered by `show(name, text)` (cards and suits in the client's symbols). A rule code
/// without a wording gives the generic sentence. Lower case, no final stop: the caller frames it.
pub fn word(lang: Lang, r: &Refused, show: &dyn Fn(&str, &str) -> String) -> String {
    let Some(w) = wording(r) else {
        return lang.s(GENERIC.0, GENERIC.1).to_string();
    };
    let template = lang.s(w.en, w.fr);
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else { break };
        out.push_str(&rest[..open]);
        let name = &rest[open + 1..open + len];
        let value = r.params.get(name).map(text_of).unwrap_or_default();
        let is_word = TERMS.iter().any(|t| t.param == name);
        match term(lang, name, &value) {
            Some(t) => out.push_str(t),
            None if is_word => out.push_str(&value),
            None => out.push_str(&show(name, &value)),
        }
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    out
}

/// A Rust string as a JavaScript string literal (JSON's escaping is valid JavaScript).
fn js(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// The tables as an ES module for the browser (`web/wording.js`): `WORDINGS` (a list of
/// `{rule, when, en, fr}`, `when` null or `[param, value]`), `TERMS` (param → value →
/// `{en, fr}`) and `GENERIC` (`{en, fr}`). The browser fills templates the way [`word`] does.
pub fn to_js() -> String {
    let mut out = String::from(
        "// Generated from oh7_core::wording (do not edit: regenerate with\n\
         // `OH7_WRITE_WORDING=1 cargo test -p oh7-core wording`): the wordings of the engines'\n\
         // refusals, the terminal's and the browser's.\n\nexport const WORDINGS = [\n",
    );
    for w in WORDINGS {
        let when = match w.when {
            Some((k, v)) => format!("[{}, {}]", js(k), js(v)),
            None => "null".to_string(),
        };
        out.push_str(&format!("  {{ rule: {}, when: {when}, en: {}, fr: {} }},\n", js(w.rule), js(w.en), js(w.fr)));
    }
    out.push_str("];\n\nexport const TERMS = {\n");
    let mut params: Vec<&str> = TERMS.iter().map(|t| t.param).collect();
    params.dedup();
    for p in params {
        out.push_str(&format!("  {}: {{\n", js(p)));
        for t in TERMS.iter().filter(|t| t.param == p) {
            out.push_str(&format!("    {}: {{ en: {}, fr: {} }},\n", js(t.value), js(t.en), js(t.fr)));
        }
        out.push_str("  },\n");
    }
    out.push_str(&format!("}};\n\nexport const GENERIC = {{ en: {}, fr: {} }};\n", js(GENERIC.0), js(GENERIC.1)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Card, CardSet, Suit};
    use crate::oh7::{BetBan, RuleError};
    use crate::refusal::Coded;
    use crate::seven::{self, SevenError, WindowError};

    fn oh7_errors() -> Vec<RuleError> {
        let c: Card = "3S".parse().unwrap();
        let hold = CardSet::from_cards(&["4H".parse().unwrap(), "5H".parse().unwrap()]);
        vec![
            RuleError::GameOver,
            RuleError::NoSuchSeat { seat: 5, last: 3 },
            RuleError::NotYourTurn { seat: 1, waiting: "seat 0".into() },
            RuleError::WrongPhase { action: "bet", now: "x".into() },
            RuleError::NotInHand(c),
            RuleError::CannotBet { card: c, why: BetBan::Never },
            RuleError::CannotBet { card: c, why: BetBan::UsedBefore },
            RuleError::MustFollow { card: c, lead: Suit::H, hold },
            RuleError::PassCount { expected: 2, got: 1 },
            RuleError::PassCount { expected: 1, got: 0 },
            RuleError::NotAChoice("seat 3 is not among the tied players".into()),
            RuleError::Parse("answer yes or no, not `x`".into()),
        ]
    }

    fn seven_errors() -> Vec<SevenError> {
        let c = seven::Card::parse_with_copy("8H").unwrap().0;
        vec![
            SevenError::GameOver,
            SevenError::NoSuchSeat(9),
            SevenError::Eliminated(1),
            SevenError::NotYourTurn { seat: 0, current: 1 },
            SevenError::NotInHand { seat: 0, card: c },
            SevenError::NoMatch { card: c, top: c, suit: seven::Suit::S },
            SevenError::PenaltyPending { cards: 4, answer: "a 2" },
            SevenError::PenaltyPending { cards: 5, answer: "A♠" },
            SevenError::SevenPending,
            SevenError::SuitMissing(c),
            SevenError::SuitNotAllowed(c),
            SevenError::BadAnnouncement,
            SevenError::MustPlay,
            SevenError::NoDraw("a 7 is pending: play a 7 or pass"),
            SevenError::NoDraw("the 7 came back to you: play any card"),
            SevenError::NoPass,
            SevenError::NoCallOut(2),
            SevenError::Window(WindowError::NoWindow),
            SevenError::Window(WindowError::AnswerFirst { offender: 2 }),
            SevenError::Window(WindowError::Wait { seat: 0, offender: 2 }),
            SevenError::Window(WindowError::AlreadyAnswered(0)),
            SevenError::Parse { text: "zz".into(), why: "which card?".into() },
        ]
    }

    fn every_refusal() -> Vec<Refused> {
        let mut all: Vec<Refused> = oh7_errors().iter().map(Coded::refused).collect();
        all.extend(seven_errors().iter().map(Coded::refused));
        all.push(Refused::not_your_turn(2));
        all.push(Refused::game_over());
        all
    }

    /// A `show` that marks what it rendered, so a test sees every param went through it.
    fn mark(name: &str, value: &str) -> String {
        format!("<{name}={value}>")
    }

    #[test]
    fn every_refusal_has_a_wording_in_both_languages() {
        for r in every_refusal() {
            let w = wording(&r).unwrap_or_else(|| panic!("no wording for `{}` {:?}", r.rule, r.params));
            assert_ne!(w.en, w.fr, "`{}` has no French of its own", r.rule);
            for p in placeholders(w.en).chain(placeholders(w.fr)) {
                assert!(r.params.contains_key(p), "`{}`: {{{p}}} is not a param of {:?}", r.rule, r.params);
            }
            let (en, fr) = (word(Lang::En, &r, &mark), word(Lang::Fr, &r, &mark));
            assert_ne!(en, fr, "{}", r.rule);
            for t in [&en, &fr] {
                assert!(!t.contains('{') && !t.contains('}'), "unfilled: {t}");
                assert!(!t.contains("R-") && !t.contains("S-"), "names a ruling: {t}");
            }
        }
    }

    #[test]
    fn every_wording_is_reachable() {
        let all = every_refusal();
        for w in WORDINGS {
            assert!(all.iter().any(|r| wording(r) == Some(w)), "no refusal uses {w:?}");
        }
    }

    #[test]
    fn params_are_filled_by_kind() {
        let c: Card = "7H".parse().unwrap();
        let hold = CardSet::from_cards(&[c, "2H".parse().unwrap()]);
        let r = RuleError::MustFollow { card: "3S".parse().unwrap(), lead: Suit::H, hold }.refused();
        assert_eq!(
            word(Lang::En, &r, &mark),
            "you cannot play <card=3S>: you hold <hold=2H 7H> and must follow <lead=H>"
        );
        let r = RuleError::WrongPhase { action: "choose the trump", now: "x".into() }.refused();
        assert_eq!(word(Lang::Fr, &r, &mark), "impossible de choisir l'atout maintenant");
        let r = SevenError::PenaltyPending { cards: 4, answer: "a 2" }.refused();
        assert_eq!(word(Lang::Fr, &r, &mark), "une pénalité de <cards=4> cartes est en cours : jouez un 2 ou piochez");
        let r = RuleError::PassCount { expected: 1, got: 3 }.refused();
        assert_eq!(word(Lang::En, &r, &|_, v| v.to_string()), "pass exactly 1 card this round; you chose 3");
        // The parser's English detail: kept in English, dropped in French.
        let r = RuleError::Parse("answer yes or no, not `x`".into()).refused();
        assert!(word(Lang::En, &r, &|_, v| v.to_string()).ends_with("answer yes or no, not `x`"));
        assert!(!word(Lang::Fr, &r, &|_, v| v.to_string()).contains("answer"));
    }

    #[test]
    fn unknown_rules_and_values_fall_back() {
        let r = Refused { rule: "brand_new", params: Default::default(), message: "x".into() };
        assert_eq!(word(Lang::Fr, &r, &mark), GENERIC.1);
        let mut r = RuleError::WrongPhase { action: "bet", now: "x".into() }.refused();
        r.params.insert("action".into(), "juggle".into());
        assert_eq!(word(Lang::En, &r, &mark), "you cannot juggle now");
        // A refusal missing a param its wording needs is not half-filled.
        r.params.clear();
        assert_eq!(word(Lang::En, &r, &mark), GENERIC.0);
    }

    /// The browser's copy is this table: `web/wording.js` is what [`to_js`] writes.
    /// `OH7_WRITE_WORDING=1 cargo test -p oh7-core wording` rewrites it.
    #[test]
    fn wording_js_is_generated_from_this_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/wording.js");
        if std::env::var_os("OH7_WRITE_WORDING").is_some() {
            std::fs::write(path, to_js()).unwrap();
        }
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            on_disk == to_js(),
            "web/wording.js is stale: regenerate it with `OH7_WRITE_WORDING=1 cargo test -p oh7-core wording`"
        );
    }
}
