//! A record line exactly as oh7 writes it, replayed as it is read: the fast path of records
//! files ([`super::replay_written`]).
//!
//! The line is walked once, borrowing from it: no JSON tree, no typed record, no list or string
//! made per field. The choices (passes, bets, decisions, plays) are applied to the game as they
//! are met, and everything else is stepped over, for the engine writes it again: the caller
//! compares the engine's record, written out, with the line byte for byte, so this reader may
//! assume oh7's layout and give up (`None`) at anything else; the general path then reads the
//! line and words what is wrong with it.

use super::{At, DecisionValue, Replayer};
use crate::card::{Card, CardSet};
use crate::game::Seat;
use crate::oh7::{Action, Oh7Game, Phase};
use crate::ruleset::Ruleset;

/// The game a line's choices make, if the line reads as oh7 writes records.
pub(super) fn replay(line: &[u8]) -> Option<Oh7Game> {
    let mut s = Scan { b: line, i: 0 };
    let (mut rules, mut players, mut seed, mut seats) = (None, None, None, None);
    let mut game = None;
    s.object(|s, key| {
        match key {
            b"ruleset" => {
                let start = s.i;
                s.skip()?;
                rules = Some(ruleset(&s.b[start..s.i])?);
            }
            b"players" => players = Some(s.uint()? as usize),
            b"seats" => {
                let mut names = Vec::new();
                s.list(|s| {
                    names.push(std::str::from_utf8(s.plain_str()?).ok()?.to_string());
                    Some(())
                })?;
                seats = Some(names);
            }
            b"seed" => seed = Some(u64::from_str_radix(std::str::from_utf8(s.plain_str()?).ok()?, 16).ok()?),
            b"rounds" => {
                let mut g = Oh7Game::new(rules?, players?, seed?).ok()?;
                if let Some(names) = seats.take() {
                    g.set_seat_names(names);
                }
                let mut r = Replayer { g: &mut g, at: At::Round(0), log: None };
                s.list(|s| s.object(|s, key| round_field(s, &mut r, key)))?;
                game = Some(g);
            }
            _ => s.skip()?,
        }
        Some(())
    })?;
    (s.i == line.len()).then_some(())?;
    game
}

/// The ruleset of a line: read once per thread while the lines' rulesets are the same text.
fn ruleset(text: &[u8]) -> Option<Ruleset> {
    thread_local! {
        static LAST: std::cell::RefCell<(Vec<u8>, Option<Ruleset>)> = const { std::cell::RefCell::new((Vec::new(), None)) };
    }
    LAST.with_borrow_mut(|(seen, rules)| {
        if rules.is_none() || seen.as_slice() != text {
            *rules = Some(serde_json::from_slice(text).ok()?);
            seen.clear();
            seen.extend_from_slice(text);
        }
        *rules
    })
}

/// One field of a round (the deal's fields are the round's, as written).
fn round_field(s: &mut Scan<'_>, r: &mut Replayer<'_>, key: &[u8]) -> Option<()> {
    match key {
        b"redeals" => s.list(|s| s.object(|s, key| deal_field(s, r, key))),
        b"passes" | b"bet_attempts" => deal_field(s, r, key),
        b"decisions" => s.list(|s| decision(s, r)),
        b"tricks" => s.list(|s| {
            s.object(|s, key| match key {
                b"plays" => s.list(|s| {
                    s.lit(b"[")?;
                    let seat = s.uint()? as Seat;
                    s.lit(b",")?;
                    let card = s.card()?;
                    s.lit(b"]")?;
                    if Some(seat) != r.g.dummy {
                        r.act(seat, Action::Play(card)).ok()?;
                    }
                    Some(())
                }),
                _ => s.skip(),
            })
        }),
        _ => s.skip(),
    }
}

/// One field of a deal: its passes and bet attempts are applied, the rest stepped over.
fn deal_field(s: &mut Scan<'_>, r: &mut Replayer<'_>, key: &[u8]) -> Option<()> {
    match key {
        b"passes" => {
            let passing = matches!(r.g.phase, Phase::Passing { .. });
            let mut seat = 0;
            s.list(|s| {
                let mut cards = CardSet::EMPTY;
                s.list(|s| {
                    cards.insert(s.card()?);
                    Some(())
                })?;
                if passing {
                    r.act(seat, Action::Pass(cards)).ok()?;
                }
                seat += 1;
                Some(())
            })
        }
        b"bet_attempts" => s.list(|s| {
            let mut seat = 0;
            s.list(|s| {
                r.act(seat, Action::Bet(s.card()?)).ok()?;
                seat += 1;
                Some(())
            })
        }),
        _ => s.skip(),
    }
}

/// `{"seat":…,"kind":"…","value":…}`, applied if it is a choice.
fn decision(s: &mut Scan<'_>, r: &mut Replayer<'_>) -> Option<()> {
    let (mut seat, mut kind, mut value) = (None, None, DecisionValue::Other);
    s.object(|s, key| {
        match key {
            b"seat" => seat = if s.null() { None } else { Some(s.uint()? as Seat) },
            b"kind" => kind = Some(std::str::from_utf8(s.plain_str()?).ok()?),
            b"value" => {
                value = match s.peek()? {
                    b't' => s.lit(b"true").map(|_| DecisionValue::Bool(true))?,
                    b'f' => s.lit(b"false").map(|_| DecisionValue::Bool(false))?,
                    b'"' => DecisionValue::Text(std::str::from_utf8(s.plain_str()?).ok()?),
                    _ => DecisionValue::Number(s.uint()?),
                }
            }
            _ => s.skip()?,
        }
        Some(())
    })?;
    if let Some((seat, action)) = r.decision_action(seat, kind?, value).ok()? {
        r.act(seat, action).ok()?;
    }
    Some(())
}

/// A position in a line.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let yes = self.peek() == Some(c);
        self.i += yes as usize;
        yes
    }

    fn lit(&mut self, text: &[u8]) -> Option<()> {
        self.b[self.i..].starts_with(text).then(|| self.i += text.len())
    }

    fn null(&mut self) -> bool {
        self.lit(b"null").is_some()
    }

    /// A string with no escape in it, borrowed (`None` at an escape: oh7 writes none in the
    /// fields read here, and the general path reads any).
    fn plain_str(&mut self) -> Option<&'a [u8]> {
        self.lit(b"\"")?;
        let start = self.i;
        let len = self.b[start..].iter().position(|&c| c == b'"' || c == b'\\')?;
        self.i = start + len;
        self.lit(b"\"")?;
        Some(&self.b[start..start + len])
    }

    /// An unsigned integer, as JSON writes one.
    fn uint(&mut self) -> Option<u64> {
        let start = self.i;
        let mut v = 0u64;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }

    fn card(&mut self) -> Option<Card> {
        let text = self.plain_str()?;
        Card::regular_as_written(text).or_else(|| std::str::from_utf8(text).ok()?.parse().ok())
    }

    /// Step over one value of any kind.
    fn skip(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match *self.b.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    loop {
                        match *self.b.get(self.i)? {
                            b'\\' => self.i += 2,
                            b'"' => break,
                            _ => self.i += 1,
                        }
                    }
                }
                b'[' | b'{' => depth += 1,
                b']' | b'}' => depth = depth.checked_sub(1)?,
                b',' | b':' if depth == 0 => return None,
                _ => {}
            }
            self.i += 1;
            if depth == 0 && matches!(self.peek(), None | Some(b',' | b']' | b'}')) {
                return Some(());
            }
        }
    }

    /// `[…]`, each element read by `each`.
    fn list(&mut self, mut each: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.lit(b"[")?;
        if self.eat(b']') {
            return Some(());
        }
        loop {
            each(self)?;
            if !self.eat(b',') {
                return self.lit(b"]");
            }
        }
    }

    /// `{…}`, each field read by `field` given its key.
    fn object(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.lit(b"{")?;
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let key = self.plain_str()?;
            self.lit(b":")?;
            field(self, key)?;
            if !self.eat(b',') {
                return self.lit(b"}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Scan;

    #[test]
    fn skip_steps_over_one_value_of_any_kind() {
        for (text, rest) in [
            (r#"12,x"#, ",x"),
            (r#""a\"b]",x"#, ",x"),
            (r#"[[1,"]"],{"k":[2]}]}"#, "}"),
            (r#"null]"#, "]"),
            (r#"{"a":{"b":"}"}},"#, ","),
        ] {
            let mut s = Scan { b: text.as_bytes(), i: 0 };
            assert_eq!(s.skip(), Some(()), "{text}");
            assert_eq!(&text[s.i..], rest, "{text}");
        }
        for bad in [r#""open"#, r#"[1,2"#, r#"]"#] {
            assert_eq!(Scan { b: bad.as_bytes(), i: 0 }.skip(), None, "{bad}");
        }
    }

    #[test]
    fn strings_with_escapes_are_left_to_the_general_path() {
        let mut s = Scan { b: br#""bot:heuristic","a\"b""#, i: 0 };
        assert_eq!(s.plain_str(), Some(&b"bot:heuristic"[..]));
        assert!(s.eat(b','));
        assert_eq!(s.plain_str(), None);
    }
}
