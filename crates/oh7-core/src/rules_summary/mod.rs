//! The rules summary of a game in each language, generated from its rules (so that it is true
//! for custom rulesets too): one source for `oh7 rules`, the terminal's `?` and the browser's
//! rules panel (the server sends it, `GET /api/tables/{code}/rules`). Reach it through the
//! registry ([`crate::registry::GameSpec::rules_summary`]).
//!
//! A summary is sections of sentences ([`Summary`]); the terminal prints it as text
//! ([`Summary::to_text`]), the browser draws it as lists. What applies (the special cards, the
//! fifth suit, the Dummy, two decks) is read from the ruleset here, once; `en` and `fr` write
//! the sentences, whole, in their language.

use serde::Serialize;

use crate::card::{Card, Kind};
use crate::glossary::Lang;
use crate::ruleset::{EndRule, Preset, Ruleset};

pub mod en;
pub mod fr;

/// A game's rules in sentences.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// The game's or the edition's name.
    pub title: String,
    /// The preset the ruleset starts from (`None` for Seven).
    pub preset: Option<Preset>,
    /// The sections, in reading order.
    pub sections: Vec<Section>,
    /// The short facts a table always shows (the end, passing, two decks, …).
    pub facts: Vec<String>,
}

/// A titled list of sentences.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    /// Its heading.
    pub title: String,
    /// Its sentences.
    pub items: Vec<String>,
}

impl Section {
    fn new(title: &str, items: Vec<String>) -> Section {
        Section { title: title.to_string(), items }
    }
}

impl Summary {
    /// The summary as text for a terminal: the title, then each section with its sentences
    /// wrapped to `width` columns under a hanging indent.
    pub fn to_text(&self, lang: Lang, width: usize) -> String {
        let mut s = match self.preset {
            Some(p) => format!("{} — {} `{p}`\n", self.title, lang.s("preset", "règles")),
            None => format!("{}\n", self.title),
        };
        for sec in self.sections.iter().filter(|x| !x.items.is_empty()) {
            s.push('\n');
            s.push_str(&sec.title);
            s.push_str(lang.s(":\n", " :\n"));
            for item in &sec.items {
                wrap_into(&mut s, item, width);
            }
        }
        s
    }
}

/// `text` as lines of at most `width` characters, the first after "  - ", the others indented.
fn wrap_into(out: &mut String, text: &str, width: usize) {
    let mut line = String::from("  -");
    let mut len = 3;
    for word in text.split_whitespace() {
        let w = word.chars().count();
        if len + 1 + w > width && len > 4 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("   ");
            len = 3;
        }
        line.push(' ');
        line.push_str(word);
        len += 1 + w;
    }
    out.push_str(&line);
    out.push('\n');
}

/// The preset's own words: Kod-7 says estimation and exception suit, bga says bid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Terms {
    /// A bet.
    pub(crate) bet: &'static str,
    /// Bets.
    pub(crate) bets: &'static str,
    /// The trump.
    pub(crate) trump: &'static str,
}

/// The words of a table's short facts, in one language ([`Ctx::facts`] says which apply).
pub(crate) struct FactWords<'a> {
    /// A target score of `n` points.
    pub(crate) target: &'a dyn Fn(u32) -> String,
    /// The rounds: exactly (`true`) or at least (`false`) the ruleset's number.
    pub(crate) rounds: &'a dyn Fn(bool) -> String,
    /// Cards are passed.
    pub(crate) passing: &'a str,
    /// Two decks.
    pub(crate) two_decks: &'a str,
    /// The Dummy plays.
    pub(crate) dummy: &'a str,
    /// Special cards (followed by their symbols).
    pub(crate) special: &'a str,
    /// Bets summing to 7 are made again (given the preset's word for bets).
    pub(crate) again: &'a dyn Fn(&str) -> String,
}

/// What a summary of ruleset `r` describes, read once from the ruleset.
pub(crate) struct Ctx<'a> {
    /// The ruleset.
    pub(crate) r: &'a Ruleset,
    /// The player counts described (one for a table, every allowed count otherwise).
    pub(crate) counts: Vec<usize>,
    /// The preset's words.
    pub(crate) t: Terms,
    /// ★ cards are in a deck described.
    pub(crate) stars: bool,
    /// Ø is.
    pub(crate) void: bool,
    /// The mark card (? or ‽), when it is.
    pub(crate) mark: Option<char>,
    /// The fifth suit's symbol, when a deck described has it.
    pub(crate) fifth: Option<char>,
    /// A deck described has two copies of a card.
    pub(crate) copies: bool,
    /// The Dummy plays at a count described.
    pub(crate) dummy: bool,
    /// Suit priority, "♠ > ♥ > ♣ > ♦" and the fifth suit.
    pub(crate) priority: String,
}

impl<'a> Ctx<'a> {
    fn new(r: &'a Ruleset, players: Option<usize>, lang: Lang) -> Ctx<'a> {
        let counts: Vec<usize> = match players {
            Some(n) => vec![n],
            None => (r.min_players as usize..=r.max_players as usize).collect(),
        };
        let cards: Vec<Card> = counts.iter().flat_map(|&n| r.deck(n)).collect();
        let has = |k: Kind| cards.iter().any(|c| c.kind() == k);
        let fifth_here = counts.iter().any(|&n| r.suits(n).len() == 5);
        let fifth = fifth_here.then(|| r.fifth_symbol());
        let (bet, bets, trump) = match r.preset {
            Preset::Kod7 => ("estimation", "estimations", "exception_suit"),
            Preset::Bga => ("bid", "bids", "trump"),
            _ => ("bet", "bets", "trump"),
        };
        let mut priority = String::from("♠ > ♥ > ♣ > ♦");
        if let Some(f) = fifth {
            priority.push_str(&format!(" > {f}"));
        }
        Ctx {
            r,
            t: Terms { bet: lang.term(bet), bets: lang.term(bets), trump: lang.term(trump) },
            stars: has(Kind::Star),
            void: has(Kind::Void),
            mark: has(Kind::Interrobang).then(|| r.mark_symbol()),
            fifth,
            copies: cards.iter().any(|c| c.copy() == 1),
            dummy: counts.iter().any(|&n| r.uses_dummy(n)),
            priority,
            counts,
        }
    }

    /// The short facts a table shows, in the words of `w`: the end, passing, two decks, the
    /// Dummy, the special cards, and what a sum of 7 does.
    pub(crate) fn facts(&self, w: &FactWords) -> Vec<String> {
        let mut facts = vec![match self.r.end {
            EndRule::Target => (w.target)(self.r.target.unwrap_or(35)),
            EndRule::FixedRounds => (w.rounds)(true),
            EndRule::MinRounds | EndRule::MinRoundsStrict => (w.rounds)(false),
        }];
        if self.r.passing {
            facts.push(w.passing.to_string());
        }
        if self.two_decks() {
            facts.push(w.two_decks.to_string());
        }
        if self.dummy {
            facts.push(w.dummy.to_string());
        }
        if self.stars {
            let mut s = format!("{} ★", w.special);
            if self.void {
                s.push_str(" Ø");
            }
            if let Some(m) = self.mark {
                s.push_str(&format!(" {m}"));
            }
            facts.push(s);
        }
        facts.push((w.again)(self.t.bets));
        facts
    }

    /// Whether any count described deals two decks.
    pub(crate) fn two_decks(&self) -> bool {
        self.counts.iter().any(|&n| self.r.copies(n) == 2)
    }

    /// For player count `n`: its suits, written `♠ ♥ ♣`, and its special cards, written `★1 Ø ?`.
    pub(crate) fn deck_of(&self, n: usize) -> (String, String, usize) {
        let fifth = self.r.fifth_symbol();
        let mark = self.r.mark_symbol();
        let deck = self.r.deck(n);
        let suits: Vec<String> = self.r.suits(n).iter().map(|s| s.symbol(fifth).to_string()).collect();
        let specials: Vec<String> = deck.iter().filter(|c| !c.is_regular()).map(|c| c.pretty(fifth, mark)).collect();
        (suits.join(" "), specials.join(" "), deck.len())
    }
}

/// The summary of Oh 7 under ruleset `r` in `lang`: for a table of `players`, or for every
/// player count the ruleset allows (`None`).
pub fn oh7(r: &Ruleset, players: Option<usize>, lang: Lang) -> Summary {
    let c = Ctx::new(r, players, lang);
    match lang {
        Lang::En => en::oh7(&c),
        Lang::Fr => fr::oh7(&c),
    }
}

/// The summary of Seven with the knobs `rules` in `lang` (`rules/seven.md`).
pub fn seven(rules: &crate::seven::SevenRules, lang: Lang) -> Summary {
    match lang {
        Lang::En => en::seven(rules),
        Lang::Fr => fr::seven(rules),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sentence of the summary, one after the other (unwrapped).
    fn text(r: &Ruleset, lang: Lang) -> String {
        let s = oh7(r, None, lang);
        s.sections.iter().flat_map(|x| x.items.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
    }

    /// Each knob changes the sentence it governs, in both languages.
    #[test]
    fn follows_the_knobs() {
        let en = Ruleset::preset(Preset::En);
        let fr = Ruleset::preset(Preset::Fr);
        for (lang, passing, dummy, target, rounds, ties, stands, double) in [
            (
                Lang::En,
                "Passing:",
                "Two players: the Dummy",
                "reach 21 points",
                "at least 9 rounds",
                "Any tie",
                "attempt 3 stands",
                "2 × basket",
            ),
            (
                Lang::Fr,
                "Passe :",
                "Deux joueurs : le Pantin",
                "atteindre 21 points",
                "au moins 9 manches",
                "Toute égalité",
                "la tentative 3 compte",
                "2 × panier",
            ),
        ] {
            assert!(!text(&en, lang).contains(passing));
            assert!(text(&Ruleset { passing: true, ..en }, lang).contains(passing));
            assert!(text(&en, lang).contains(dummy));
            assert!(!text(&Ruleset::preset(Preset::FrAdvanced), lang).contains(dummy));
            assert!(text(&Ruleset { target: Some(21), ..fr }, lang).contains(target));
            assert!(text(&Ruleset { rounds: 9, ..en }, lang).contains(rounds));
            assert!(text(&Ruleset { every_tie_replays: true, ..en }, lang).contains(ties));
            assert!(text(&Ruleset::preset(Preset::Kod7), lang).contains(stands));
            assert!(text(&fr, lang).contains(double));
        }
    }

    /// A table's summary describes its own deck: the fifth suit and the Dummy only where they
    /// are, two decks from 5 players in `bga`.
    #[test]
    fn a_table_sees_its_own_deck() {
        let fr = Ruleset::preset(Preset::Fr);
        let at = |r: &Ruleset, n: usize| oh7(r, Some(n), Lang::En);
        assert!(at(&fr, 5).sections[0].items[1].starts_with("5 players: ♠ ♥ ♣ ♦ ☆"), "{:?}", at(&fr, 5));
        assert!(at(&fr, 4).sections[1].items.iter().all(|x| !x.contains('☆')));
        assert!(at(&fr, 2).facts.contains(&"With the Dummy".to_string()));
        assert!(!at(&fr, 3).facts.contains(&"With the Dummy".to_string()));
        let bga = Ruleset::preset(Preset::Bga);
        assert!(at(&bga, 5).facts.contains(&"Two decks".to_string()));
        assert!(!at(&bga, 4).facts.contains(&"Two decks".to_string()));
        assert!(at(&Ruleset::preset(Preset::Kod7), 4).sections[1].items.iter().any(|x| x.starts_with("‽")));
        assert!(at(&bga, 4).sections[2].items.iter().any(|x| x.starts_with("First leader and trump: the highest bid")));
        assert!(oh7(&Ruleset::preset(Preset::Kod7), Some(4), Lang::Fr).facts.iter().any(|f| f.contains("estimations")));
    }

    /// Every table's summary, every preset and player count: whole sentences, and in French no
    /// English word (checked as whole words, titles and facts included).
    #[test]
    fn every_table_reads_its_language() {
        const ENGLISH: [&str; 13] = [
            "the", "and", "bet", "bets", "trick", "tricks", "round", "trump", "players", "cards", "wins", "Dummy",
            "attempt",
        ];
        let mut all = vec![
            seven(&crate::seven::SevenRules::default(), Lang::En),
            seven(&crate::seven::SevenRules::default(), Lang::Fr),
        ];
        let mut variants: Vec<Ruleset> = Preset::ALL.iter().map(|p| Ruleset::preset(*p)).collect();
        variants.push(Ruleset { passing: true, decks: 2, ..Ruleset::preset(Preset::Bga) });
        for r in &variants {
            for n in r.min_players as usize..=r.max_players as usize {
                all.push(oh7(r, Some(n), Lang::En));
                all.push(oh7(r, Some(n), Lang::Fr));
            }
        }
        for (i, s) in all.iter().enumerate() {
            assert!(s.sections.len() >= 4, "{s:?}");
            let texts: Vec<&str> = std::iter::once(s.title.as_str())
                .chain(
                    s.sections
                        .iter()
                        .flat_map(|x| std::iter::once(x.title.as_str()).chain(x.items.iter().map(String::as_str))),
                )
                .chain(s.facts.iter().map(String::as_str))
                .collect();
            for t in &texts {
                assert!(t.chars().count() > 4, "{t:?} in {s:?}");
            }
            if i % 2 == 1 {
                for t in texts {
                    let english: Vec<&str> =
                        t.split(|c: char| !c.is_alphanumeric()).filter(|w| ENGLISH.contains(w)).collect();
                    assert!(english.is_empty(), "English {english:?} in: {t}");
                }
            }
        }
        let kod = oh7(&Ruleset::preset(Preset::Kod7), Some(4), Lang::En);
        let text: String = kod.sections.iter().flat_map(|x| x.items.clone()).collect();
        assert!(text.contains("exception suit") && text.contains('‽'));
        let adv = oh7(&Ruleset::preset(Preset::FrAdvanced), Some(5), Lang::Fr);
        let text: String = adv.sections.iter().flat_map(|x| x.items.clone()).collect();
        for sign in ["★", "Ø", "?"] {
            assert!(text.contains(sign), "fr-advanced explains {sign}");
        }
    }

    #[test]
    fn lines_fit_a_100_column_screen() {
        // The rules pop-up at 100 columns shows 94 characters a line.
        for lang in [Lang::En, Lang::Fr] {
            let texts = Preset::ALL
                .iter()
                .map(|&p| oh7(&Ruleset::preset(p), None, lang).to_text(lang, 92))
                .chain([seven(&crate::seven::SevenRules::default(), lang).to_text(lang, 92)]);
            for t in texts {
                for line in t.lines() {
                    assert!(line.chars().count() <= 92, "{} characters: {line}", line.chars().count());
                }
            }
        }
    }
}
