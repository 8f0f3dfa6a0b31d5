//! The words of the games in English and French, taken from the rule documents
//! (`shared/seeds/`): one word per idea and language, shared by the terminal game and the
//! browser (the server serves [`to_js`] as `/glossary.js`), so a player meets the same term
//! everywhere.
//!
//! Only the nouns and verbs of the rules live here; whole sentences are written per language
//! where they are used (never stitched from pieces across languages).

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
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

    /// The glossary's word for `key` (panics on an unknown key: keys are constants).
    pub fn term(self, key: &str) -> &'static str {
        let t = TERMS.iter().find(|t| t.key == key).unwrap_or_else(|| panic!("no glossary term `{key}`"));
        self.s(t.en, t.fr)
    }
}

/// One term in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// The key used by the code.
    pub key: &'static str,
    /// The English word (seed 000, the English "Oh 7 ?").
    pub en: &'static str,
    /// The French word (seed 003, the French "Oh 7 ?").
    pub fr: &'static str,
}

/// Every term, English from seed 000 and French from seed 003 (Seven's French words are
/// ours: seed 004 is English only).
pub const TERMS: &[Term] = &[
    Term { key: "bet", en: "bet", fr: "pari" },
    Term { key: "bets", en: "bets", fr: "paris" },
    Term { key: "to_bet", en: "bet", fr: "parier" },
    Term { key: "bet_card", en: "bet card", fr: "carte pariée" },
    Term { key: "attempt", en: "attempt", fr: "tentative" },
    // Kod-7 (seed 002) says estimation and exception suit; the online rules (seed 001) say bid.
    Term { key: "estimation", en: "estimation", fr: "estimation" },
    Term { key: "estimations", en: "estimations", fr: "estimations" },
    Term { key: "exception_suit", en: "exception suit", fr: "couleur d'exception" },
    Term { key: "bid", en: "bid", fr: "enchère" },
    Term { key: "bids", en: "bids", fr: "enchères" },
    Term { key: "trick", en: "trick", fr: "pli" },
    Term { key: "tricks", en: "tricks", fr: "plis" },
    Term { key: "round", en: "round", fr: "manche" },
    Term { key: "trump", en: "trump", fr: "atout" },
    Term { key: "lead_suit", en: "lead suit", fr: "couleur appelée" },
    Term { key: "first_leader", en: "first leader", fr: "premier meneur" },
    Term { key: "basket", en: "basket", fr: "panier" },
    Term { key: "dummy", en: "the Dummy", fr: "le Pantin" },
    Term { key: "Dummy", en: "Dummy", fr: "Pantin" },
    Term { key: "made", en: "made", fr: "réussi" },
    Term { key: "failed", en: "failed", fr: "échoué" },
    Term { key: "rebid_bonus", en: "rebid bonus", fr: "bonus de relance" },
    Term { key: "pass_cards", en: "pass cards", fr: "passer des cartes" },
    Term { key: "hand", en: "hand", fr: "main" },
    Term { key: "points", en: "points", fr: "points" },
    Term { key: "draw", en: "draw", fr: "piocher" },
    Term { key: "call_out", en: "call out", fr: "dénoncer" },
];

/// The glossary as an ES module for the browser: `export const GLOSSARY = {en: {...}, fr: {...}};`.
pub fn to_js() -> String {
    let side = |fr: bool| {
        TERMS.iter().map(|t| format!("{:?}: {:?}", t.key, if fr { t.fr } else { t.en })).collect::<Vec<_>>().join(", ")
    };
    format!(
        "// Generated from oh7_core::glossary: the terms of the rule documents.\nexport const GLOSSARY = {{ en: {{ {} }}, fr: {{ {} }} }};\n",
        side(false),
        side(true)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_words_come_from_the_documents() {
        let mut keys: Vec<&str> = TERMS.iter().map(|t| t.key).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), TERMS.len());
        // Seed 003 says pari, pli, manche, atout, panier, Pantin, couleur appelée.
        assert_eq!(Lang::Fr.term("bet"), "pari");
        assert_eq!(Lang::Fr.term("basket"), "panier");
        assert_eq!(Lang::Fr.term("dummy"), "le Pantin");
        assert_eq!(Lang::En.term("lead_suit"), "lead suit");
    }

    #[test]
    fn the_browser_module_holds_every_term() {
        let js = to_js();
        assert!(js.starts_with("// Generated"));
        for t in TERMS {
            assert!(js.contains(&format!("{:?}: {:?}", t.key, t.fr)), "{}", t.key);
        }
    }
}
