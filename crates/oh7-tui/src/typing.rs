//! What a player types, made into the engine's notation: French letters in a French game
//! (English ones accepted too), and a second copy found without its `'` when the hand holds only
//! that copy. The engine reads one notation; the languages live here.

use oh7_core::card::{Card, CardSet};

use crate::lang::Lang;

/// A French suit letter (pique, cœur, trèfle, carreau, étoile) as the engine's letter; the
/// English letters S, H, D and F mean the same in a French game (C is cœur there).
fn oh7_suit(c: char, lang: Lang) -> char {
    let up = c.to_ascii_uppercase();
    match (lang, up) {
        (Lang::Fr, 'P') => 'S',
        (Lang::Fr, 'C') => 'H',
        (Lang::Fr, 'T') => 'C',
        (Lang::Fr, 'K') => 'D',
        (Lang::Fr, 'E') => 'F',
        _ => c,
    }
}

fn is_value(c: char) -> bool {
    matches!(c.to_ascii_uppercase(), '0'..='7' | 'Q')
}

/// One Oh 7 token: a card in French or English letters, resolved against `hand`; anything
/// else (a word, a seat number) unchanged, a lone French suit letter made English.
fn oh7_token(t: &str, lang: Lang, hand: CardSet) -> String {
    let (body, tick) = match t.strip_suffix('\'').or_else(|| t.strip_suffix('’')) {
        Some(b) => (b, true),
        None => (t, false),
    };
    let chars: Vec<char> = body.chars().collect();
    let body: String = match chars.as_slice() {
        [v, s] if is_value(*v) && s.is_ascii_alphabetic() => [*v, oh7_suit(*s, lang)].iter().collect(),
        [s, v] if is_value(*v) && s.is_ascii_alphabetic() && *s != 'Q' && *s != 'q' => {
            [oh7_suit(*s, lang), *v].iter().collect()
        }
        [s] if lang == Lang::Fr && "PpCcTtKkEe".contains(*s) => return oh7_suit(*s, lang).to_string(),
        _ => body.to_string(),
    };
    let text = if tick { format!("{body}'") } else { body };
    let Ok(card) = text.parse::<Card>() else { return t.to_string() };
    if !tick && !hand.contains(card) {
        // `3H` for the only 3♥ held when that is the second copy.
        if let Ok(twin) = format!("{text}'").parse::<Card>()
            && hand.contains(twin)
        {
            return twin.to_string();
        }
    }
    card.to_string()
}

/// Typed Oh 7 text in the engine's notation (each word of a list of cards to pass too).
pub fn oh7(text: &str, lang: Lang, hand: CardSet) -> String {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| oh7_token(w, lang, hand))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An engine suit letter in the letters a French player types (the inverse of `oh7_suit`).
fn french_suit(c: char) -> char {
    match c {
        'S' => 'P',
        'H' => 'C',
        'C' => 'T',
        'D' => 'K',
        'F' => 'E',
        _ => c,
    }
}

/// Engine text (`3H`, `*2`, `3S 5H`, `S`) as a player of `lang` types it: in French, `3C`
/// (cœur), `3P 5C`, `P`; what [`oh7`] reads back to the same engine text.
pub fn oh7_shown(engine: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return engine.to_string();
    }
    engine
        .split(' ')
        .map(|w| {
            let chars: Vec<char> = w.chars().collect();
            match chars.as_slice() {
                [v, s, rest @ ..] if v.is_ascii_digit() && s.is_ascii_uppercase() => {
                    std::iter::once(*v).chain(std::iter::once(french_suit(*s))).chain(rest.iter().copied()).collect()
                }
                [s] if "SHCDF".contains(*s) => french_suit(*s).to_string(),
                _ => w.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Seven's engine text (`QS`, `8C:H!`, `10D'`) as a French player types it (`DP`, `8T:C!`,
/// `10K'`): ranks R D V, suits P C T K; words (`draw`, `pass`) unchanged.
pub fn seven_shown(engine: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return engine.to_string();
    }
    for (en, fr) in [("draw", "piocher"), ("pass", "passer"), ("callout", "dénoncer"), ("nocall", "non")] {
        if let Some(rest) = engine.strip_prefix(en) {
            return format!("{fr}{rest}");
        }
    }
    let (rank, rest) = match engine.strip_prefix("10") {
        Some(r) => ("10".to_string(), r),
        None => {
            let mut it = engine.chars();
            match it.next() {
                Some(c @ ('2'..='9' | 'J' | 'Q' | 'K' | 'A')) => {
                    let fr = match c {
                        'K' => 'R',
                        'Q' => 'D',
                        'J' => 'V',
                        _ => c,
                    };
                    (fr.to_string(), it.as_str())
                }
                _ => return engine.to_string(),
            }
        }
    };
    let mut out = rank;
    let mut after_colon = false;
    for (i, c) in rest.chars().enumerate() {
        if c == ':' {
            after_colon = true;
            out.push(c);
        } else if (i == 0 || after_colon) && "SHCD".contains(c) {
            out.push(french_suit(c));
            after_colon = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn seven_suit(c: char) -> char {
    match c.to_ascii_uppercase() {
        'P' => 'S',
        'C' => 'H',
        'T' => 'C',
        'K' => 'D',
        _ => c,
    }
}

fn seven_rank(c: char) -> char {
    match c.to_ascii_uppercase() {
        'R' => 'K',
        'D' => 'Q',
        'V' => 'J',
        _ => c,
    }
}

/// Typed Seven text in the engine's notation: in a French game the ranks R D V (roi, dame,
/// valet) and the suits P C T K, also after `:` (an 8's suit); English letters are kept
/// where they mean nothing else.
pub fn seven(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    text.split_whitespace().map(seven_token).collect::<Vec<_>>().join(" ")
}

fn seven_token(t: &str) -> String {
    let (rank, rest) = if let Some(r) = t.strip_prefix("10") {
        ("10".to_string(), r)
    } else {
        let mut it = t.chars();
        match it.next() {
            Some(c) if c.is_ascii_alphanumeric() => (seven_rank(c).to_string(), it.as_str()),
            _ => return t.to_string(),
        }
    };
    let mut it = rest.chars();
    let Some(suit) = it.next().filter(|c| c.is_ascii_alphabetic()) else { return t.to_string() };
    let tail = it.as_str();
    // Only a rank and a suit, then `'`, `:X` and `!` (a word such as `denonce` is left alone).
    let marks_only = |s: &str| s.chars().all(|c| "'’!".contains(c));
    let well_formed = match tail.split_once(':') {
        Some((before, after)) => {
            let mut a = after.chars();
            marks_only(before) && a.next().is_some_and(|c| c.is_ascii_alphabetic()) && marks_only(a.as_str())
        }
        None => marks_only(tail),
    };
    if !well_formed {
        return t.to_string();
    }
    let ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    if !ranks.contains(&rank.to_ascii_uppercase().as_str()) {
        return t.to_string();
    }
    let tail: String = match tail.split_once(':') {
        Some((before, after)) => {
            let mut a = after.chars();
            match a.next() {
                Some(s) => format!("{before}:{}{}", seven_suit(s), a.as_str()),
                None => format!("{before}:"),
            }
        }
        None => tail.to_string(),
    };
    format!("{rank}{}{tail}", seven_suit(suit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &[&str]) -> CardSet {
        CardSet::from_cards(&cards.iter().map(|c| c.parse::<Card>().unwrap()).collect::<Vec<_>>())
    }

    #[test]
    fn french_suit_letters_in_a_french_game() {
        let hand = set(&["3S", "4H", "5C", "6D", "2F"]);
        assert_eq!(oh7("3p", Lang::Fr, hand), "3S");
        assert_eq!(oh7("4C", Lang::Fr, hand), "4H", "C is cœur in French");
        assert_eq!(oh7("5t", Lang::Fr, hand), "5C");
        assert_eq!(oh7("6K", Lang::Fr, hand), "6D");
        assert_eq!(oh7("2E", Lang::Fr, hand), "2F");
        // English letters that mean nothing else in French are accepted too.
        assert_eq!(oh7("3S", Lang::Fr, hand), "3S");
        assert_eq!(oh7("4h", Lang::Fr, hand), "4H");
        assert_eq!(oh7("6D", Lang::Fr, hand), "6D");
        // In an English game C is clubs.
        assert_eq!(oh7("5C", Lang::En, hand), "5C");
        // A trump named by its French letter.
        assert_eq!(oh7("C", Lang::Fr, hand), "H");
        assert_eq!(oh7("3p 4c", Lang::Fr, hand), "3S 4H");
    }

    #[test]
    fn specials_and_words_pass_through() {
        let hand = set(&["?", "*2", "V"]);
        assert_eq!(oh7("?", Lang::Fr, hand), "?");
        assert_eq!(oh7("*2", Lang::En, hand), "*2");
        assert_eq!(oh7("v", Lang::Fr, hand), "V");
        assert_eq!(oh7("oui", Lang::Fr, hand), "oui");
        assert_eq!(oh7("2", Lang::Fr, hand), "2");
    }

    #[test]
    fn a_second_copy_without_its_mark_when_only_it_is_held() {
        let hand = set(&["3H'", "4S", "4S'"]);
        assert_eq!(oh7("3H", Lang::En, hand), "3H'");
        assert_eq!(oh7("3c", Lang::Fr, hand), "3H'");
        assert_eq!(oh7("4S", Lang::En, hand), "4S", "both held: the first copy");
        assert_eq!(oh7("4S'", Lang::En, hand), "4S'");
        assert_eq!(oh7("5S", Lang::En, hand), "5S", "not held: the engine says so");
    }

    #[test]
    fn offered_moves_in_french_letters_read_back_to_the_same_moves() {
        let hand = set(&["3H", "5S", "0D", "2F", "*2", "V", "3S'"]);
        for engine in ["3H", "5S", "0D", "2F", "*2", "V", "?", "3S'", "3H 5S", "S", "H", "C", "D", "F"] {
            let shown = oh7_shown(engine, Lang::Fr);
            assert_eq!(oh7(&shown, Lang::Fr, hand), engine, "{engine} shown as {shown}");
        }
        assert_eq!(oh7_shown("3H", Lang::Fr), "3C");
        assert_eq!(oh7_shown("3C 5S", Lang::Fr), "3T 5P");
        assert_eq!(oh7_shown("3H", Lang::En), "3H");
        for engine in ["QS", "KH", "JD", "AC", "10D", "10D'", "8C:H", "8C:H!", "3S!", "7H'"] {
            let shown = seven_shown(engine, Lang::Fr);
            assert_eq!(seven(&shown, Lang::Fr), engine, "{engine} shown as {shown}");
        }
        assert_eq!(seven_shown("8C:H!", Lang::Fr), "8T:C!");
        assert_eq!(seven_shown("QS", Lang::Fr), "DP");
        assert_eq!(seven_shown("draw", Lang::Fr), "piocher");
        assert_eq!(seven_shown("callout 2", Lang::Fr), "dénoncer 2");
    }

    #[test]
    fn seven_in_french_letters() {
        assert_eq!(seven("RC", Lang::Fr), "KH");
        assert_eq!(seven("dp", Lang::Fr), "QS");
        assert_eq!(seven("VT", Lang::Fr), "JC");
        assert_eq!(seven("10K", Lang::Fr), "10D");
        assert_eq!(seven("8C:P", Lang::Fr), "8H:S");
        assert_eq!(seven("3T!", Lang::Fr), "3C!");
        assert_eq!(seven("AS", Lang::Fr), "AS");
        assert_eq!(seven("pioche", Lang::Fr), "pioche");
        assert_eq!(seven("denonce 2", Lang::Fr), "denonce 2");
        assert_eq!(seven("KC", Lang::En), "KC");
    }
}
