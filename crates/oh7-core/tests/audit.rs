//! An independent, clean-room auditor of `oh7-record/1` game records (Oh 7 family).
//!
//! Written from the documents only: `shared/rules/oh7.md` (the rules), `shared/rules/records.md`
//! (the record format), `docs/records.md` and `docs/rulings.md` (oh7's own choices). It does not
//! use the engine's rule code: it reads a record as JSON and recomputes every derived field
//! (deck, passes, bets, first leader and trump, the legality and winner of every trick, the
//! Dummy's choices, points, totals, the end of the game and its winners), reporting the first
//! problem with its JSON path.
//!
//! The tests drive the engine through the public `Game` interface with random legal choices for
//! every preset and player count, audit each record, and check that tampered records are caught.

use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::fmt;

// ---------------------------------------------------------------------------------------------
// Problems
// ---------------------------------------------------------------------------------------------

/// The first problem found in a record: where (a JSON path such as `rounds[2].tricks[4].winner`)
/// and what.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Problem {
    path: String,
    msg: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.path, self.msg)
    }
}

type Res<T> = Result<T, Problem>;

// Which situations the audited records reached, so that a test can show its records exercise
// the rules it claims to check (see `audit_many`).
thread_local! {
    static SEEN: std::cell::RefCell<std::collections::BTreeMap<&'static str, u64>> = Default::default();
}

fn note(what: &'static str) {
    SEEN.with(|m| *m.borrow_mut().entry(what).or_default() += 1);
}

fn fail<T>(path: impl Into<String>, msg: impl Into<String>) -> Res<T> {
    Err(Problem { path: path.into(), msg: msg.into() })
}

fn ensure(cond: bool, path: impl Into<String>, msg: impl FnOnce() -> String) -> Res<()> {
    if cond { Ok(()) } else { fail(path, msg()) }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

fn idx(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

fn get<'a>(v: &'a Value, path: &str, key: &str) -> Res<(&'a Value, String)> {
    let p = child(path, key);
    match v.get(key) {
        Some(x) => Ok((x, p)),
        None => fail(p, "missing field"),
    }
}

fn as_arr<'a>(v: &'a Value, path: &str) -> Res<&'a Vec<Value>> {
    match v.as_array() {
        Some(a) => Ok(a),
        None => fail(path, format!("expected an array, found {v}")),
    }
}

fn as_int(v: &Value, path: &str) -> Res<i64> {
    match v.as_i64() {
        Some(a) => Ok(a),
        None => fail(path, format!("expected an integer, found {v}")),
    }
}

fn as_seat(v: &Value, path: &str, seats: usize) -> Res<usize> {
    let s = as_int(v, path)?;
    ensure(s >= 0 && (s as usize) < seats, path, || format!("seat {s} out of range 0..{seats}"))?;
    Ok(s as usize)
}

fn as_bool(v: &Value, path: &str) -> Res<bool> {
    match v.as_bool() {
        Some(a) => Ok(a),
        None => fail(path, format!("expected a boolean, found {v}")),
    }
}

fn as_str<'a>(v: &'a Value, path: &str) -> Res<&'a str> {
    match v.as_str() {
        Some(a) => Ok(a),
        None => fail(path, format!("expected a string, found {v}")),
    }
}

fn arr_field<'a>(v: &'a Value, path: &str, key: &str) -> Res<(&'a Vec<Value>, String)> {
    let (x, p) = get(v, path, key)?;
    Ok((as_arr(x, &p)?, p))
}

fn ints_field(v: &Value, path: &str, key: &str, len: usize) -> Res<(Vec<i64>, String)> {
    let (a, p) = arr_field(v, path, key)?;
    ensure(a.len() == len, &p, || format!("expected {len} entries, found {}", a.len()))?;
    let mut out = Vec::with_capacity(len);
    for (i, x) in a.iter().enumerate() {
        out.push(as_int(x, &idx(&p, i))?);
    }
    Ok((out, p))
}

// ---------------------------------------------------------------------------------------------
// Cards (oh7.md §1)
// ---------------------------------------------------------------------------------------------

const SUITS: [char; 5] = ['S', 'H', 'C', 'D', 'F'];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
    Regular,
    Star,
    Void,
    Query,
}

/// A card. `suit` is the index in `SUITS` (regular cards only; 0 otherwise; a lower index has a
/// higher suit priority); `copy` is 1 for the second copy (`'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Card {
    kind: Kind,
    suit: u8,
    value: u8,
    copy: u8,
}

impl Card {
    fn reg(suit: u8, value: u8, copy: u8) -> Card {
        Card { kind: Kind::Regular, suit, value, copy }
    }
    fn star(value: u8, copy: u8) -> Card {
        Card { kind: Kind::Star, suit: 0, value, copy }
    }
    fn void(copy: u8) -> Card {
        Card { kind: Kind::Void, suit: 0, value: 0, copy }
    }
    fn query() -> Card {
        Card { kind: Kind::Query, suit: 0, value: 0, copy: 0 }
    }
    fn is_regular(self) -> bool {
        self.kind == Kind::Regular
    }
    /// The value this card bets (§3): ★n bets n, Ø bets 0, ‽/? cannot bet (R-BET-1).
    fn bet_value(self) -> Option<i64> {
        match self.kind {
            Kind::Regular | Kind::Star => Some(self.value as i64),
            Kind::Void => Some(0),
            Kind::Query => None,
        }
    }
    /// Id order of docs/records.md: ♠ ♥ ♣ ♦ F, values 0-7, then ★, Ø, ‽/?; a second copy right
    /// after the first.
    fn id_key(self) -> (Kind, u8, u8, u8) {
        (self.kind, self.suit, self.value, self.copy)
    }
    fn parse(text: &str) -> Option<Card> {
        let (body, copy) = match text.strip_suffix('\'') {
            Some(b) => (b, 1),
            None => (text, 0),
        };
        let digit = |c: char| c.to_digit(10).filter(|d| *d <= 7).map(|d| d as u8);
        let chars: Vec<char> = body.chars().collect();
        match chars.as_slice() {
            ['V'] => Some(Card::void(copy)),
            ['?'] if copy == 0 => Some(Card::query()),
            ['*', d] => digit(*d).map(|v| Card::star(v, copy)),
            [d, s] => {
                let v = digit(*d)?;
                let si = SUITS.iter().position(|x| x == s)? as u8;
                Some(Card::reg(si, v, copy))
            }
            _ => None,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Regular => write!(f, "{}{}", self.value, SUITS[self.suit as usize])?,
            Kind::Star => write!(f, "*{}", self.value)?,
            Kind::Void => write!(f, "V")?,
            Kind::Query => write!(f, "?")?,
        }
        if self.copy == 1 {
            write!(f, "'")?;
        }
        Ok(())
    }
}

fn as_card(v: &Value, path: &str) -> Res<Card> {
    let s = as_str(v, path)?;
    match Card::parse(s) {
        Some(c) if c.to_string() == s => Ok(c),
        _ => fail(path, format!("not a card in the text notation: {s:?}")),
    }
}

fn cards(v: &Value, path: &str) -> Res<Vec<Card>> {
    let a = as_arr(v, path)?;
    let mut out = Vec::with_capacity(a.len());
    for (i, x) in a.iter().enumerate() {
        out.push(as_card(x, &idx(path, i))?);
    }
    Ok(out)
}

fn cards_field(v: &Value, path: &str, key: &str) -> Res<(Vec<Card>, String)> {
    let (x, p) = get(v, path, key)?;
    Ok((cards(x, &p)?, p))
}

fn in_id_order(cs: &[Card], path: &str) -> Res<()> {
    for w in 0..cs.len().saturating_sub(1) {
        ensure(cs[w].id_key() < cs[w + 1].id_key(), path, || {
            format!("cards not in id order: {} before {}", cs[w], cs[w + 1])
        })?;
    }
    Ok(())
}

fn suit_of(text: &str, path: &str) -> Res<u8> {
    match SUITS.iter().position(|c| text.len() == 1 && text.starts_with(*c)) {
        Some(i) => Ok(i as u8),
        None => fail(path, format!("not a suit letter: {text:?}")),
    }
}

// ---------------------------------------------------------------------------------------------
// The rules, from oh7.md
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum P {
    En,
    Fr,
    FrAdv,
    Kod7,
    Bga,
}

/// Everything the auditor needs to know about the game, from the record's header.
struct Cfg {
    preset: P,
    players: usize,
    /// Seats including the Dummy.
    seats: usize,
    dummy: bool,
    passing: bool,
    target: i64,
    every_tie_replays: bool,
    /// The deck for this player count (§2), each card once.
    deck: Vec<Card>,
    /// The regular suits in the deck.
    suits: Vec<u8>,
    /// Whether identical regular copies exist (two decks).
    two_decks: bool,
}

const DUMMY: usize = 2;

fn build_deck(p: P, players: usize, decks: u8) -> Vec<Card> {
    let n = if players == 2 && p != P::Bga { 3 } else { players };
    let mut d = Vec::new();
    let suits = |k: u8, copies: u8, d: &mut Vec<Card>| {
        for c in 0..copies {
            for s in 0..k {
                for v in 0..8 {
                    d.push(Card::reg(s, v, c));
                }
            }
        }
    };
    match p {
        P::En | P::Fr => suits(n as u8, 1, &mut d),
        P::FrAdv => {
            suits(n as u8 - 1, 1, &mut d);
            for v in 1..=4 {
                d.push(Card::star(v, 0));
            }
            d.push(Card::void(0));
            d.push(Card::void(1));
            d.push(Card::query());
        }
        P::Kod7 => {
            suits(n as u8 - 1, 1, &mut d);
            for v in 0..=3 {
                d.push(Card::star(v, 0));
            }
            d.push(Card::query());
            if n <= 5 {
                d.push(Card::star(4, 0));
            }
            if n <= 4 {
                d.push(Card::star(5, 0));
            }
            if n == 3 {
                d.push(Card::star(6, 0));
            }
            if n >= 4 {
                d.push(Card::star(2, 1));
            }
            if n >= 5 {
                d.push(Card::star(1, 1));
            }
            if n == 6 {
                d.push(Card::star(0, 1));
            }
        }
        P::Bga => suits(4, if players >= 5 { 2 } else { decks }, &mut d),
    }
    d
}

fn read_cfg(rec: &Value) -> Res<Cfg> {
    let (f, p) = get(rec, "", "format")?;
    ensure(f == "oh7-record/1", p, || format!("unknown format {f}"))?;
    let (g, p) = get(rec, "", "game")?;
    ensure(g == "oh7", p, || format!("not an Oh 7 record: {g}"))?;
    let (pv, pp) = get(rec, "", "preset")?;
    let preset = match as_str(pv, &pp)? {
        "en" => P::En,
        "fr" => P::Fr,
        "fr-advanced" => P::FrAdv,
        "kod7" => P::Kod7,
        "bga" => P::Bga,
        other => return fail(pp, format!("unknown preset {other:?}")),
    };
    let (nv, np) = get(rec, "", "players")?;
    let players = as_int(nv, &np)? as usize;
    let (lo, hi) = match preset {
        P::En => (2, 4),
        P::Fr => (2, 5),
        P::FrAdv => (3, 6),
        P::Kod7 => (2, 6),
        P::Bga => (2, 9),
    };
    ensure((lo..=hi).contains(&players), &np, || format!("{players} players is not allowed for this preset"))?;
    let dummy = players == 2 && matches!(preset, P::En | P::Fr | P::Kod7);
    let (dv, dp) = get(rec, "", "dummy")?;
    ensure(as_bool(dv, &dp)? == dummy, dp, || format!("the Dummy should be {dummy}"))?;
    let (sv, sp) = arr_field(rec, "", "seats")?;
    ensure(sv.len() == players, sp, || format!("expected {players} seats, found {}", sv.len()))?;
    let (sd, sdp) = get(rec, "", "seed")?;
    let sd = as_str(sd, &sdp)?;
    ensure(sd.len() == 16 && sd.chars().all(|c| c.is_ascii_hexdigit()), sdp, || {
        format!("seed {sd:?} is not 16 hexadecimal digits")
    })?;

    let (rs, rsp) = get(rec, "", "ruleset")?;
    let (v, p) = get(rs, &rsp, "decks")?;
    let decks = as_int(v, &p)?;
    let decks_ok = match preset {
        P::Bga => decks == 1 || (decks == 2 && players <= 4) || (decks == 2 && players >= 5),
        _ => decks == 1,
    };
    ensure(decks_ok, p, || format!("{decks} decks is not an option of this preset"))?;
    let (v, p) = get(rs, &rsp, "passing")?;
    let passing = as_bool(v, &p)?;
    let (v, p) = get(rs, &rsp, "target")?;
    let target = match preset {
        P::Fr | P::FrAdv => {
            let t = as_int(v, &p)?;
            ensure([21, 35, 49].contains(&t), p, || format!("target {t} is not 35, 21 or 49"))?;
            t
        }
        _ => {
            ensure(v.is_null(), p, || format!("target should be null, found {v}"))?;
            0
        }
    };
    let (v, p) = get(rs, &rsp, "every_tie_replays")?;
    let every_tie_replays = as_bool(v, &p)?;
    ensure(!every_tie_replays || preset == P::En, p, || "every_tie_replays is an en option only".into())?;
    // The other knobs (docs/records.md) must be the preset's, or this is a custom ruleset, which
    // this auditor (written from the preset rules) does not cover. Only the knobs whose values
    // follow from oh7.md are checked.
    let bga = preset == P::Bga;
    let knobs: [(&str, Value); 6] = [
        ("min_players", Value::from(lo)),
        ("max_players", Value::from(hi)),
        ("dummy", Value::from(matches!(preset, P::En | P::Fr | P::Kod7))),
        ("bet_attempts", if bga { Value::Null } else { Value::from(3) }),
        ("rebid_bonus", Value::from(bga)),
        ("rounds", Value::from(7)),
    ];
    for (k, want) in knobs {
        let (v, p) = get(rs, &rsp, k)?;
        ensure(*v == want, p, || format!("the preset has {want}, found {v} (a custom ruleset?)"))?;
    }
    let (v, p) = get(rs, &rsp, "after_last_attempt")?;
    if !bga {
        let want = if preset == P::Kod7 { "stands" } else { "redeal" };
        ensure(v == want, p, || format!("the preset has {want:?}, found {v} (a custom ruleset?)"))?;
    }
    let (v, p) = get(rs, &rsp, "dummy_follower")?;
    let want = if preset == P::Kod7 { "previous_leader" } else { "first_leader" };
    ensure(!dummy || v == want, p, || format!("the preset has {want:?}, found {v} (a custom ruleset?)"))?;

    let deck = build_deck(preset, players, decks as u8);
    let mut suits: Vec<u8> = deck.iter().filter(|c| c.is_regular()).map(|c| c.suit).collect();
    suits.sort();
    suits.dedup();
    let two_decks = deck.iter().any(|c| c.is_regular() && c.copy == 1);
    Ok(Cfg {
        preset,
        players,
        seats: players + dummy as usize,
        dummy,
        passing,
        target,
        every_tie_replays,
        deck,
        suits,
        two_decks,
    })
}

/// §9 and R-OWN-8: how many cards each player passes in round `number`, and to whom
/// (+1: to the left, the next seat clockwise, R-PASS-1; -1: to the right).
fn passing_of(number: usize) -> (usize, isize) {
    match (number - 1) % 7 + 1 {
        2 => (1, 1),
        3 => (2, -1),
        4 => (3, 1),
        5 => (2, -1),
        6 => (1, 1),
        _ => (0, 0),
    }
}

/// Higher bet first, then suit priority ♠ > ♥ > ♣ > ♦ > F (§4): the sort key of a regular bet.
fn lead_key(c: Card) -> (u8, u8) {
    (c.value, 4 - c.suit)
}

/// The seat with the best regular bet among `among` (highest value, ties by suit priority).
fn best_regular(bets: &[Card], among: &[usize]) -> usize {
    *among.iter().max_by_key(|&&s| lead_key(bets[s])).unwrap()
}

/// The suit of the first regular card of the trick so far: the lead suit (§5).
fn lead_suit(plays: &[(usize, Card)]) -> Option<u8> {
    plays.iter().find(|(_, c)| c.is_regular()).map(|(_, c)| c.suit)
}

/// Whether `card` may be played from `hand` (which holds it) after `plays` (§5, R-PLAY-1).
fn may_play(card: Card, hand: &[Card], plays: &[(usize, Card)]) -> bool {
    match lead_suit(plays) {
        None => true,
        Some(l) => !card.is_regular() || card.suit == l || !hand.iter().any(|h| h.is_regular() && h.suit == l),
    }
}

/// Whether `c` counts as a trump in a trick whose lead suit is `lead` (R-PLAY-2).
fn is_trump(c: Card, lead: Option<u8>, trump: u8) -> bool {
    match c.kind {
        Kind::Regular => c.suit == trump,
        Kind::Star => lead == Some(trump),
        _ => false,
    }
}

/// The winner of a complete trick (§5). `None` only if no card can win (a trick of Ø only).
fn trick_winner(plays: &[(usize, Card)], trump: u8) -> Option<usize> {
    let lead = lead_suit(plays);
    // Value first; at equal value a regular card beats a ★; identical cards: the first played.
    let best = |pred: &dyn Fn(Card) -> bool| {
        let mut best: Option<(usize, (u8, bool))> = None;
        for &(s, c) in plays {
            if pred(c) {
                let k = (c.value, c.is_regular());
                if best.is_none_or(|(_, bk)| k > bk) {
                    best = Some((s, k));
                }
            }
        }
        best.map(|(s, _)| s)
    };
    if let Some(s) = best(&|c| is_trump(c, lead, trump)) {
        return Some(s);
    }
    if let Some(&(s, _)) = plays.iter().find(|(_, c)| c.kind == Kind::Query) {
        note("trick: won by ?/‽");
        return Some(s);
    }
    // Lead suit and ★ (which take the lead suit's identity); with no regular card at all, the
    // highest ★ (§5.4). Ø never wins.
    best(&|c| c.kind == Kind::Star || (c.is_regular() && Some(c.suit) == lead))
}

/// The Dummy's strength order (R-DUMMY-2, R-OWN-5): trump above non-trump, then ‽/?, then by
/// value (Ø below 0), a regular card above a ★ of the same value, then suit order ♠ ♥ ♣ ♦ F
/// (the first in that order is the higher).
fn dummy_strength(c: Card, plays: &[(usize, Card)], trump: u8) -> (bool, bool, i8, bool, u8) {
    let mut with = plays.to_vec();
    with.push((DUMMY, c));
    let lead = lead_suit(&with);
    let value = if c.kind == Kind::Void { -1 } else { c.value as i8 };
    let suit = if c.is_regular() { 4 - c.suit } else { 0 };
    (is_trump(c, lead, trump), c.kind == Kind::Query, value, c.is_regular(), suit)
}

/// The cards the Dummy may play last (§8, R-DUMMY-1, R-DUMMY-2): all have the chosen strength
/// (several only for identical copies).
fn dummy_choice(faceup: &[Card], plays: &[(usize, Card)], trump: u8, won: i64) -> Vec<Card> {
    let legal: Vec<Card> = faceup.iter().copied().filter(|&c| may_play(c, faceup, plays)).collect();
    let wins = |c: Card| {
        let mut with = plays.to_vec();
        with.push((DUMMY, c));
        trick_winner(&with, trump) == Some(DUMMY)
    };
    let key = |c: &Card| dummy_strength(*c, plays, trump);
    let pick_from: Vec<Card>;
    let highest: bool;
    if won < 2 {
        let w: Vec<Card> = legal.iter().copied().filter(|&c| wins(c)).collect();
        if w.is_empty() {
            note("dummy: wants to win, cannot: lowest");
            pick_from = legal.clone();
            highest = false;
        } else {
            note(if won == 0 { "dummy: lowest winning card" } else { "dummy: highest winning card" });
            pick_from = w;
            highest = won == 1;
        }
    } else {
        let l: Vec<Card> = legal.iter().copied().filter(|&c| !wins(c)).collect();
        note(if l.is_empty() { "dummy: wants to lose, cannot: highest" } else { "dummy: highest losing card" });
        pick_from = if l.is_empty() { legal.clone() } else { l };
        highest = true;
    }
    let chosen =
        if highest { pick_from.iter().copied().max_by_key(key) } else { pick_from.iter().copied().min_by_key(key) };
    let Some(chosen) = chosen else { return Vec::new() };
    let k = key(&chosen);
    if legal.len() < faceup.len() {
        note("dummy: follows the lead suit among its face-up cards");
    }
    for x in &pick_from {
        let kx = key(x);
        if kx != k && (kx.0, kx.1, kx.2) == (k.0, k.1, k.2) {
            note(if kx.3 != k.3 {
                "dummy: a regular card and a ★ of the same value"
            } else {
                "dummy: suit order decides between equal values"
            });
        }
    }
    pick_from.into_iter().filter(|c| key(c) == k).collect()
}

/// Points of one round (§6, R-SCORE-1), players only (no Dummy), without the bga bonus.
fn round_points(p: P, bets: &[Card], won: &[i64]) -> Vec<i64> {
    let n = bets.len();
    let bet: Vec<i64> = bets.iter().map(|c| c.bet_value().unwrap()).collect();
    let loss: Vec<i64> = (0..n).map(|s| (bet[s] - won[s]).abs()).collect();
    match p {
        P::En | P::Kod7 => {
            let basket: i64 = loss.iter().filter(|&&l| l > 0).sum();
            (0..n).map(|s| if loss[s] > 0 { -loss[s] } else { 2 + basket + won[s] }).collect()
        }
        P::Fr | P::FrAdv => {
            let basket: i64 = loss.iter().sum();
            (0..n)
                .map(|s| {
                    if loss[s] > 0 {
                        basket - loss[s]
                    } else if bets[s].kind == Kind::Void {
                        note("score: made with Ø");
                        2 * basket + won[s]
                    } else {
                        2 * basket + 2 + won[s]
                    }
                })
                .collect()
        }
        P::Bga => (0..n).map(|s| if loss[s] > 0 { -loss[s] } else { bet[s] + 2 }).collect(),
    }
}

/// The seats with the highest `key` among `among`.
fn top_by(among: &[usize], key: impl Fn(usize) -> i64) -> Vec<usize> {
    let Some(m) = among.iter().map(|&s| key(s)).max() else { return Vec::new() };
    among.iter().copied().filter(|&s| key(s) == m).collect()
}

/// §7: the winners if the game ends after round `number`, `None` if it goes on.
fn end_of_game(cfg: &Cfg, number: usize, totals: &[i64], made_last: &[bool], made: &[i64]) -> Option<Vec<usize>> {
    let all: Vec<usize> = (0..cfg.players).collect();
    match cfg.preset {
        P::En => {
            if number < 7 {
                return None;
            }
            let top = top_by(&all, |s| totals[s]);
            if top.len() == 1 {
                return made_last[top[0]].then_some(top);
            }
            note("end: tie for the highest");
            if cfg.every_tie_replays || top.iter().any(|&s| !made_last[s]) {
                return None;
            }
            note("end: tie broken or shared");
            Some(top_by(&top, |s| made[s]))
        }
        P::Kod7 => {
            if number < 7 {
                return None;
            }
            let top = top_by(&all, |s| totals[s]);
            if top.len() > 1 {
                note("end: tie for the highest");
            }
            (top.len() == 1 && made_last[top[0]]).then_some(top)
        }
        P::Fr | P::FrAdv => {
            let reached: Vec<usize> = all.into_iter().filter(|&s| made_last[s] && totals[s] >= cfg.target).collect();
            if reached.is_empty() {
                return None;
            }
            if reached.len() > 1 {
                note("end: several reach the target");
            }
            let m = top_by(&reached, |s| made[s]);
            Some(top_by(&m, |s| totals[s]))
        }
        P::Bga => {
            if number < 7 {
                return None;
            }
            let top = top_by(&all, |s| totals[s]);
            if top.len() > 1 {
                note("end: tie for the highest");
            }
            Some(top_by(&top, |s| made[s]))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The auditor
// ---------------------------------------------------------------------------------------------

/// What one deal (the round's own, or an abandoned one in `redeals`) leaves for the rest.
struct Deal {
    /// Hands after passing, players only.
    hands: Vec<Vec<Card>>,
    /// The Dummy's pile, top first (empty without the Dummy).
    pile: Vec<Card>,
    /// Bet attempts, players' cards.
    attempts: Vec<Vec<Card>>,
    /// bga rebid points scored during this deal.
    bonus: Vec<i64>,
}

fn remove_card(hand: &mut Vec<Card>, c: Card) -> bool {
    match hand.iter().position(|&h| h == c) {
        Some(i) => {
            hand.remove(i);
            true
        }
        None => false,
    }
}

/// Checks a deal's cards, passes and bet attempts. `final_deal`: the deal the round is played
/// with (otherwise one abandoned by a redeal).
fn audit_deal(cfg: &Cfg, number: usize, deal: &Value, path: &str, final_deal: bool) -> Res<Deal> {
    let n = cfg.players;
    // Deck (§2, R-DECK-1): hands + discard + Dummy pile = the deck, each card once.
    let (hv, hp) = arr_field(deal, path, "hands")?;
    ensure(hv.len() == n, &hp, || format!("expected {n} hands, found {}", hv.len()))?;
    let mut dealt = Vec::new();
    for (s, h) in hv.iter().enumerate() {
        let p = idx(&hp, s);
        let h = cards(h, &p)?;
        ensure(h.len() == 7, &p, || format!("a hand has 7 cards, found {}", h.len()))?;
        in_id_order(&h, &p)?;
        dealt.push(h);
    }
    let (discard, dp) = cards_field(deal, path, "discard")?;
    in_id_order(&discard, &dp)?;
    let (pile, pp) = cards_field(deal, path, "dummy_pile")?;
    if cfg.dummy {
        ensure(discard.is_empty(), &dp, || "with the Dummy the discard is empty".into())?;
        ensure(pile.len() == 10, &pp, || format!("the Dummy's pile has 10 cards, found {}", pile.len()))?;
    } else {
        ensure(pile.is_empty(), &pp, || "no Dummy, so no Dummy pile".into())?;
    }
    let mut seen = std::collections::HashSet::new();
    let mut all: Vec<(Card, String)> = Vec::new();
    for (s, h) in dealt.iter().enumerate() {
        all.extend(h.iter().enumerate().map(|(i, c)| (*c, idx(&idx(&hp, s), i))));
    }
    all.extend(discard.iter().enumerate().map(|(i, c)| (*c, idx(&dp, i))));
    all.extend(pile.iter().enumerate().map(|(i, c)| (*c, idx(&pp, i))));
    for (c, p) in all {
        ensure(cfg.deck.contains(&c), &p, || format!("{c} is not in this deck"))?;
        ensure(seen.insert(c), &p, || format!("{c} dealt twice"))?;
    }
    ensure(seen.len() == cfg.deck.len(), path, || {
        let missing: Vec<String> = cfg.deck.iter().filter(|c| !seen.contains(c)).map(|c| c.to_string()).collect();
        format!("cards missing from the deal: {}", missing.join(" "))
    })?;

    // Passing (§9, R-PASS-1, R-OWN-8).
    let (pv, ppath) = arr_field(deal, path, "passes")?;
    ensure(pv.len() == n, &ppath, || format!("expected {n} pass lists, found {}", pv.len()))?;
    let (count, dir) = if cfg.passing { passing_of(number) } else { (0, 0) };
    let mut hands = dealt.clone();
    let mut given = Vec::new();
    for (s, x) in pv.iter().enumerate() {
        let p = idx(&ppath, s);
        let g = cards(x, &p)?;
        ensure(g.len() == count, &p, || format!("round {number} passes {count} cards, found {}", g.len()))?;
        if count > 0 && s == 0 {
            note("passes: cards passed");
        }
        in_id_order(&g, &p)?;
        for (i, c) in g.iter().enumerate() {
            ensure(remove_card(&mut hands[s], *c), idx(&p, i), || {
                format!("seat {s} passed {c}, which it was not dealt")
            })?;
        }
        given.push(g);
    }
    for (s, g) in given.iter().enumerate() {
        let to = (s as isize + dir).rem_euclid(n as isize) as usize;
        hands[to].extend(g.iter().copied());
    }
    // Where the passes went (`pass_to`, only on a deal with passes): the same seats.
    let want: Vec<Value> = if count > 0 {
        (0..n).map(|s| Value::from((s as isize + dir).rem_euclid(n as isize) as u64)).collect()
    } else {
        Vec::new()
    };
    let got = deal.get("pass_to").cloned().unwrap_or_else(|| Value::Array(Vec::new()));
    ensure(got == Value::Array(want.clone()), format!("{path}.pass_to"), || {
        format!("round {number}: passes go to {want:?}, the record says {got}")
    })?;

    // Bets (§3, R-BET-1, R-BET-2, R-OWN-1, R-OWN-7).
    let (av, ap) = arr_field(deal, path, "bet_attempts")?;
    ensure(!av.is_empty(), &ap, || "no bet attempt".into())?;
    let mut used: Vec<Vec<Card>> = vec![Vec::new(); n];
    let mut attempts = Vec::new();
    let mut bonus = vec![0; n];
    let limit = if cfg.preset == P::Bga { usize::MAX } else { 3 };
    ensure(av.len() <= limit, &ap, || format!("at most {limit} attempts, found {}", av.len()))?;
    for (a, x) in av.iter().enumerate() {
        let p = idx(&ap, a);
        let bets = cards(x, &p)?;
        ensure(bets.len() == n, &p, || format!("expected {n} bets, found {}", bets.len()))?;
        for (s, c) in bets.iter().enumerate() {
            let q = idx(&p, s);
            ensure(hands[s].contains(c), &q, || format!("seat {s} bets {c}, which it does not hold"))?;
            ensure(c.bet_value().is_some(), &q, || format!("{c} can never be used to bet (R-BET-1)"))?;
            ensure(!used[s].contains(c), &q, || format!("seat {s} bets {c} again (R-BET-2)"))?;
            used[s].push(*c);
        }
        let sum: i64 = bets.iter().map(|c| c.bet_value().unwrap()).sum::<i64>() + if cfg.dummy { 2 } else { 0 };
        // bga: the top bid (highest value, then suit priority); identical top cards (two decks).
        let top = lead_key(bets[best_regular(&bets, &(0..n).collect::<Vec<_>>())]);
        let top_seats: Vec<usize> = (0..n).filter(|&s| bets[s].is_regular() && lead_key(bets[s]) == top).collect();
        let identical_top = cfg.preset == P::Bga && cfg.two_decks && top_seats.len() > 1;
        if cfg.preset == P::Bga && sum == 7 {
            note(if top_seats.len() > 1 { "bets: bga bonus to identical top bids" } else { "bets: bga bonus" });
            for &s in &top_seats {
                bonus[s] += 1;
            }
        }
        if identical_top {
            note("bets: identical top bids");
        }
        if a > 0 {
            note("bets: another attempt");
        }
        let again = sum == 7 || identical_top;
        let out_of_cards = (0..n).any(|s| hands[s].iter().all(|c| c.bet_value().is_none() || used[s].contains(c)));
        let last = a + 1 == av.len();
        let why = || {
            let txt: Vec<String> = bets.iter().map(|c| c.to_string()).collect();
            format!(
                "attempt {} ({}) sums to {sum}{}",
                a + 1,
                txt.join(" "),
                if identical_top { ", identical top bids" } else { "" }
            )
        };
        if !last {
            ensure(again, &p, || format!("{}, yet another attempt follows", why()))?;
            ensure(!(cfg.preset == P::Bga && out_of_cards), &p, || {
                format!("{}; a player has no unused card left, so the round is dealt again", why())
            })?;
        } else if final_deal {
            let stands = cfg.preset == P::Kod7 && a + 1 == 3;
            ensure(!again || stands, &p, || format!("{}, yet no attempt or redeal follows", why()))?;
            if again {
                note("bets: kod7 third attempt stands");
            }
        } else {
            ensure(again, &p, || format!("{}, yet the round is dealt again", why()))?;
            let redeal = match cfg.preset {
                P::En | P::Fr | P::FrAdv => a + 1 == 3,
                P::Kod7 => false,
                P::Bga => out_of_cards,
            };
            ensure(redeal, &p, || format!("{}: another attempt is due, not a redeal", why()))?;
            note(if cfg.preset == P::Bga { "bets: bga redeal, a player has no unused card" } else { "bets: redeal" });
        }
        attempts.push(bets);
    }
    Ok(Deal { hands, pile, attempts, bonus })
}

/// Reads the decisions of a round in order.
struct Decisions<'a> {
    list: &'a [Value],
    path: String,
    next: usize,
}

impl Decisions<'_> {
    fn take(&mut self, kind: &str, seat: Option<usize>) -> Res<(&Value, String)> {
        let p = idx(&self.path, self.next);
        let Some(d) = self.list.get(self.next) else {
            return fail(p, format!("missing decision {kind} of seat {seat:?}"));
        };
        self.next += 1;
        let (k, kp) = get(d, &p, "kind")?;
        ensure(k == kind, kp, || format!("expected a {kind} decision, found {k}"))?;
        let (sv, sp) = get(d, &p, "seat")?;
        let want = match seat {
            Some(s) => Value::from(s),
            None => Value::Null,
        };
        ensure(*sv == want, sp, || format!("expected the decision of {want}, found {sv}"))?;
        let (v, vp) = get(d, &p, "value")?;
        Ok((v, vp))
    }
    fn take_seat(&mut self, kind: &str, seat: Option<usize>, among: &[usize], seats: usize) -> Res<usize> {
        let (v, p) = self.take(kind, seat)?;
        let s = as_seat(v, &p, seats)?;
        ensure(among.contains(&s), p, || format!("seat {s} is not among the tied players {among:?}"))?;
        Ok(s)
    }
    fn take_suit(&mut self, kind: &str, seat: usize, suits: &[u8]) -> Res<u8> {
        let (v, p) = self.take(kind, Some(seat))?;
        let s = suit_of(as_str(v, &p)?, &p)?;
        ensure(suits.contains(&s), p, || format!("{} is not a suit of this deck", SUITS[s as usize]))?;
        Ok(s)
    }
    fn done(&self) -> Res<()> {
        ensure(self.next == self.list.len(), idx(&self.path, self.next), || "unexpected decision".into())
    }
}

/// §4: the first leader and the trump suit, checking the decisions on the way.
fn leader_and_trump(cfg: &Cfg, deal: &Deal, bets: &[Card], dec: &mut Decisions) -> Res<(usize, u8)> {
    let hands = &deal.hands;
    let n = cfg.players;
    let all: Vec<usize> = (0..n).collect();
    let holder = (0..n).find(|&s| hands[s].iter().any(|c| c.kind == Kind::Query));
    let regular: Vec<usize> = all.iter().copied().filter(|&s| bets[s].is_regular()).collect();
    match cfg.preset {
        P::En | P::Fr | P::Bga => {
            let l = best_regular(bets, &all);
            Ok((l, bets[l].suit))
        }
        P::FrAdv if !regular.is_empty() => {
            let tied = top_by(&regular, |s| bets[s].value as i64);
            let mut leader = best_regular(bets, &tied);
            if tied.len() > 1 && holder.is_some_and(|h| tied.contains(&h)) {
                // R-OWN-2: every tied player answers, in seat order; only the holder may say yes.
                for &s in &tied {
                    let (v, p) = dec.take("reveal_interrobang", Some(s))?;
                    let yes = as_bool(v, &p)?;
                    ensure(!yes || Some(s) == holder, p, || format!("seat {s} reveals ? but does not hold it"))?;
                    if yes {
                        leader = s;
                    }
                    if Some(s) == holder {
                        note(if yes { "leader: ? revealed" } else { "leader: ? kept hidden" });
                    }
                }
            }
            Ok((leader, bets[leader].suit))
        }
        P::FrAdv => {
            // R-LEAD-1, R-OWN-4: the highest ★ (a lot if shared, or among all if every bet is Ø).
            let stars: Vec<usize> = all.iter().copied().filter(|&s| bets[s].kind == Kind::Star).collect();
            let tied = if stars.is_empty() { all.clone() } else { top_by(&stars, |s| bets[s].value as i64) };
            note("leader: fr-advanced, no regular bet");
            let leader = if tied.len() == 1 { tied[0] } else { dec.take_seat("lot", None, &tied, n)? };
            let trump = dec.take_suit("choose_trump", leader, &cfg.suits)?;
            Ok((leader, trump))
        }
        P::Kod7 => {
            // R-LEAD-4: a ‽ in the Dummy's pile is held by nobody (`hands` are the players').
            let pick = |dec: &mut Decisions, tied: &[usize]| -> Res<usize> {
                match holder {
                    Some(h) => {
                        note("leader: ‽ holder chooses");
                        let (v, p) = dec.take("reveal_interrobang", Some(h))?;
                        ensure(as_bool(v, &p)?, p, || "the ‽ holder must reveal it".into())?;
                        dec.take_seat("choose_leader", Some(h), tied, n)
                    }
                    None => {
                        note("leader: lot");
                        if deal.pile.contains(&Card::query()) {
                            note("leader: lot, ‽ in the Dummy's pile");
                        }
                        dec.take_seat("lot", None, tied, n)
                    }
                }
            };
            if !regular.is_empty() {
                let tied = top_by(&regular, |s| bets[s].value as i64);
                let leader = if tied.len() == 1 { tied[0] } else { pick(dec, &tied)? };
                Ok((leader, bets[leader].suit))
            } else {
                let tied = top_by(&all, |s| bets[s].value as i64);
                note(if tied.len() == 1 { "leader: kod7, all ★" } else { "leader: kod7, all ★, tied" });
                if tied.len() == 1 {
                    let trump = dec.take_suit("choose_trump", tied[0], &cfg.suits)?;
                    Ok((tied[0], trump))
                } else {
                    let mut announced = vec![0u8; n];
                    for &s in &tied {
                        announced[s] = dec.take_suit("announce_trump", s, &cfg.suits)?;
                    }
                    let leader = pick(dec, &tied)?;
                    Ok((leader, announced[leader]))
                }
            }
        }
    }
}

/// Audits one record; the first problem found, with its JSON path.
fn audit(rec: &Value) -> Res<()> {
    let cfg = read_cfg(rec)?;
    let n = cfg.players;
    let seats = cfg.seats;
    let (fv, fp) = get(rec, "", "finished")?;
    let finished = as_bool(fv, &fp)?;
    let (rounds, rp) = arr_field(rec, "", "rounds")?;
    let mut totals = vec![0i64; n];
    let mut made = vec![0i64; n];
    let mut ended: Option<Vec<usize>> = None;
    for (ri, round) in rounds.iter().enumerate() {
        let path = idx(&rp, ri);
        ensure(ended.is_none(), &path, || format!("the game had already ended after round {ri}"))?;
        let (nv, np) = get(round, &path, "number")?;
        let number = ri + 1;
        ensure(as_int(nv, &np)? == number as i64, np, || format!("expected round number {number}"))?;
        if !finished && ri + 1 == rounds.len() {
            // The round in progress of an unfinished game is not audited.
            break;
        }

        // Deals: the abandoned ones, then the one played.
        let mut bonus = vec![0i64; n];
        let (redeals, rdp) = arr_field(round, &path, "redeals")?;
        ensure(cfg.preset != P::Kod7 || redeals.is_empty(), &rdp, || "kod7 never deals again".into())?;
        for (di, d) in redeals.iter().enumerate() {
            let deal = audit_deal(&cfg, number, d, &idx(&rdp, di), false)?;
            (0..n).for_each(|s| bonus[s] += deal.bonus[s]);
        }
        let deal = audit_deal(&cfg, number, round, &path, true)?;
        (0..n).for_each(|s| bonus[s] += deal.bonus[s]);
        let (b, bp) = ints_field(round, &path, "bonus", n)?;
        ensure(b == bonus, bp, || format!("expected bonus {bonus:?}"))?;

        // Bets: the last attempt, plus the Dummy's 2.
        let last = deal.attempts.last().unwrap().clone();
        let mut bets: Vec<i64> = last.iter().map(|c| c.bet_value().unwrap()).collect();
        if cfg.dummy {
            bets.push(2);
        }
        let (bv, bp) = ints_field(round, &path, "bets", seats)?;
        ensure(bv == bets, bp, || format!("expected bets {bets:?} from the last attempt"))?;

        // First leader and trump (§4).
        let (dl, dp) = arr_field(round, &path, "decisions")?;
        let mut dec = Decisions { list: dl, path: dp, next: 0 };
        let (leader, trump) = leader_and_trump(&cfg, &deal, &last, &mut dec)?;
        dec.done()?;
        let (lv, lp) = get(round, &path, "first_leader")?;
        let fl = as_seat(lv, &lp, seats)?;
        ensure(fl == leader, lp, || format!("expected first leader {leader}"))?;
        let (tv, tp) = get(round, &path, "trump")?;
        let t = suit_of(as_str(tv, &tp)?, &tp)?;
        ensure(t == trump, tp, || format!("expected trump {}", SUITS[trump as usize]))?;

        // The Dummy's face-up cards (§8).
        let (fu, fup) = cards_field(round, &path, "dummy_faceup")?;
        let want: Vec<Card> = deal.pile.iter().take(2).copied().collect();
        ensure(fu == want, fup, || {
            let w: Vec<String> = want.iter().map(|c| c.to_string()).collect();
            format!("expected the first two cards of the pile, {}", w.join(" "))
        })?;
        let mut faceup = want;
        let mut next_pile = 2;

        // Tricks (§5, §8).
        let mut hands = deal.hands.clone();
        let mut won = vec![0i64; seats];
        let (tricks, tkp) = arr_field(round, &path, "tricks")?;
        ensure(tricks.len() == 7, &tkp, || format!("a round has 7 tricks, found {}", tricks.len()))?;
        let mut prev_winner = leader;
        let mut last_player_leader = leader;
        let mut prev_leader = leader;
        for (ti, trick) in tricks.iter().enumerate() {
            let tp = idx(&tkp, ti);
            let (lv, lp) = get(trick, &tp, "leader")?;
            let l = as_seat(lv, &lp, seats)?;
            ensure(l == prev_winner, lp, || {
                if ti == 0 {
                    format!("trick 1 is led by the first leader {prev_winner}")
                } else {
                    format!("the winner of the previous trick, {prev_winner}, leads")
                }
            })?;
            let order: Vec<usize> = if !cfg.dummy {
                (0..n).map(|k| (l + k) % n).collect()
            } else if l != DUMMY {
                vec![l, 1 - l, DUMMY]
            } else {
                let f = if cfg.preset == P::Kod7 { last_player_leader } else { leader };
                note(if prev_leader == DUMMY {
                    "dummy: leads twice in a row"
                } else if f != prev_leader {
                    "dummy: leads, followed by the first leader, not the previous leader"
                } else {
                    "dummy: leads"
                });
                vec![DUMMY, f, 1 - f]
            };
            let (pv, pp) = arr_field(trick, &tp, "plays")?;
            ensure(pv.len() == seats, &pp, || format!("a trick has {seats} plays, found {}", pv.len()))?;
            let mut plays: Vec<(usize, Card)> = Vec::new();
            for (k, x) in pv.iter().enumerate() {
                let p = idx(&pp, k);
                let pair = as_arr(x, &p)?;
                ensure(pair.len() == 2, &p, || "a play is [seat, card]".into())?;
                let s = as_seat(&pair[0], &idx(&p, 0), seats)?;
                ensure(s == order[k], idx(&p, 0), || format!("play order {order:?}: seat {} plays now", order[k]))?;
                let cp = idx(&p, 1);
                let c = as_card(&pair[1], &cp)?;
                if cfg.dummy && s == DUMMY {
                    let Some(&top) = deal.pile.get(next_pile) else {
                        return fail(cp, "the Dummy's pile is exhausted");
                    };
                    next_pile += 1;
                    if k == 0 {
                        ensure(c == top, &cp, || format!("the Dummy leads the top card of its pile, {top}"))?;
                    } else {
                        faceup.push(top);
                        let choice = dummy_choice(&faceup, &plays, trump, won[DUMMY]);
                        let fu: Vec<String> = faceup.iter().map(|c| c.to_string()).collect();
                        ensure(faceup.contains(&c), &cp, || {
                            format!("the Dummy plays {c}, which is not face up ({})", fu.join(" "))
                        })?;
                        ensure(choice.contains(&c), &cp, || {
                            let ch: Vec<String> = choice.iter().map(|c| c.to_string()).collect();
                            format!(
                                "the Dummy (face up {}, {} tricks won) must play {}, not {c}",
                                fu.join(" "),
                                won[DUMMY],
                                ch.join(" or ")
                            )
                        })?;
                        remove_card(&mut faceup, c);
                    }
                } else {
                    ensure(hands[s].contains(&c), &cp, || format!("seat {s} plays {c}, which it does not hold"))?;
                    ensure(may_play(c, &hands[s], &plays), &cp, || {
                        format!(
                            "seat {s} plays {c} but holds the lead suit {}",
                            SUITS[lead_suit(&plays).unwrap() as usize]
                        )
                    })?;
                    remove_card(&mut hands[s], c);
                }
                plays.push((s, c));
            }
            let w = trick_winner(&plays, trump);
            let (wv, wp) = get(trick, &tp, "winner")?;
            let Some(w) = w else { return fail(wp, "no card of this trick can win") };
            ensure(as_seat(wv, &wp, seats)? == w, wp, || format!("expected winner {w}"))?;
            won[w] += 1;
            let wc = plays.iter().find(|(s, _)| *s == w).unwrap().1;
            if !plays[0].1.is_regular() && lead_suit(&plays).is_some() {
                note("trick: special card led, lead suit set later");
            }
            if wc.kind == Kind::Star {
                note(if is_trump(wc, lead_suit(&plays), trump) {
                    "trick: won by ★ as trump"
                } else {
                    "trick: won by ★"
                });
            }
            if plays.iter().filter(|(_, c)| c.kind == wc.kind && c.suit == wc.suit && c.value == wc.value).count() > 1 {
                note("trick: identical cards, the first played wins");
            }
            if l != DUMMY {
                last_player_leader = l;
            }
            prev_winner = w;
            prev_leader = l;
        }

        // Scoring (§6).
        let (wv, wp) = ints_field(round, &path, "won", seats)?;
        ensure(wv == won, wp, || format!("expected tricks won {won:?}"))?;
        let mut points = round_points(cfg.preset, &last, &won[..n]);
        (0..n).for_each(|s| points[s] += bonus[s]);
        let (pv, pp) = ints_field(round, &path, "points", n)?;
        ensure(pv == points, pp, || format!("expected points {points:?}"))?;
        let made_last: Vec<bool> = (0..n).map(|s| last[s].bet_value().unwrap() == won[s]).collect();
        for s in 0..n {
            totals[s] += points[s];
            made[s] += made_last[s] as i64;
        }
        let (tv, tp) = ints_field(round, &path, "totals", n)?;
        ensure(tv == totals, tp, || format!("expected totals {totals:?}"))?;

        // End of the game (§7).
        ended = end_of_game(&cfg, number, &totals, &made_last, &made);
    }
    let (wv, wp) = arr_field(rec, "", "winners")?;
    let mut winners = Vec::new();
    for (i, x) in wv.iter().enumerate() {
        winners.push(as_seat(x, &idx(&wp, i), n)?);
    }
    match (&ended, finished) {
        (Some(w), true) => ensure(winners == *w, wp, || format!("expected winners {w:?}")),
        (None, true) => {
            fail(fp, "the game is marked finished but the end condition does not hold after the last round")
        }
        (Some(_), false) => fail(fp, "the end condition holds, yet the game is not marked finished"),
        (None, false) => ensure(winners.is_empty(), wp, || "an unfinished game has no winner".into()),
    }
}

// ---------------------------------------------------------------------------------------------
// Producing records
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
struct Config {
    preset: Preset,
    players: usize,
    passing: bool,
    decks: u8,
    /// The `fr` target option (`None`: the preset's).
    target: Option<u32>,
    /// The `en` option.
    every_tie_replays: bool,
}

impl Config {
    fn rules(self) -> Ruleset {
        let base = Ruleset::preset(self.preset);
        Ruleset {
            passing: self.passing,
            decks: self.decks,
            target: self.target.or(base.target),
            every_tie_replays: self.every_tie_replays,
            ..base
        }
    }
}

fn cfg(preset: Preset, players: usize) -> Config {
    Config { preset, players, passing: false, decks: 1, target: None, every_tie_replays: false }
}

/// How the random player chooses its bets (plays and other choices are always uniform).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Steer {
    /// Every choice uniform among the legal actions.
    Uniform,
    /// The last player to bet in an attempt makes the sum 7 when it can, 3 times out of 4
    /// (rebids, redeals, kod7's third attempt that stands, bga bonus points).
    SumSeven,
    /// The same, every time it can (bga: seven sums of 7 in a row, then a redeal).
    AlwaysSeven,
    /// Bet a ★ whenever possible, ★2 first, else the lowest ★ (kod7 all-★ ties).
    Stars,
}

/// A game played to the end with random legal choices.
fn random_record(c: Config, seed: u64, steer: Steer) -> Value {
    let mut g = Oh7Game::new(c.rules(), c.players, seed).expect("a valid configuration");
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xA0D1);
    let dummy_bet = if c.players == 2 && matches!(c.preset, Preset::En | Preset::Fr | Preset::Kod7) { 2 } else { 0 };
    let mut acts = Vec::new();
    let (mut sum, mut count) = (0i64, 0usize);
    let mut steps = 0;
    while !g.is_over() {
        let s = g.to_move().lowest().expect("someone to move");
        g.legal_actions(s, &mut acts);
        // The bet actions print as `bet <card>`.
        let bet_card = |a: &<Oh7Game as Game>::Action| a.to_string().strip_prefix("bet ").and_then(Card::parse);
        let mut pick = rng.random_range(0..acts.len());
        if bet_card(&acts[0]).is_some() {
            let cards: Vec<Card> = acts.iter().map(|a| bet_card(a).expect("only bets")).collect();
            let value = |c: &Card| c.bet_value().unwrap_or(-100);
            match steer {
                Steer::SumSeven | Steer::AlwaysSeven
                    if g.to_move().len() == 1 && (steer == Steer::AlwaysSeven || rng.random_bool(0.75)) =>
                {
                    if let Some(i) = cards.iter().position(|c| value(c) == 7 - dummy_bet - sum) {
                        pick = i;
                    }
                }
                Steer::Stars => {
                    let star = |c: &Card| c.kind == Kind::Star;
                    if let Some(i) = cards.iter().position(|c| star(c) && c.value == 2) {
                        pick = i;
                    } else if let Some((i, _)) =
                        cards.iter().enumerate().filter(|(_, c)| star(c)).min_by_key(|(_, c)| c.value)
                    {
                        pick = i;
                    }
                }
                _ => {}
            }
            sum += value(&cards[pick]);
            count += 1;
            if count == c.players {
                (sum, count) = (0, 0);
            }
        }
        g.apply(s, acts[pick]).expect("a legal action");
        steps += 1;
        assert!(steps < 100_000, "{c:?} seed {seed}: the game does not end");
    }
    g.record()
}

fn seed_of(c: Config, i: u64) -> u64 {
    1000 * c.players as u64 + i
}

/// Audits `games` random games of each configuration; also checks that the records reached
/// every situation of `expect` (see `note`), so that the audit cannot pass vacuously.
fn audit_many(configs: &[Config], games: u64, steer: Steer, expect: &[&str]) {
    SEEN.with(|m| m.borrow_mut().clear());
    let mut failures = Vec::new();
    for &c in configs {
        for i in 0..games {
            let seed = seed_of(c, i);
            let rec = random_record(c, seed, steer);
            if let Err(p) = audit(&rec) {
                failures.push(format!("{c:?} {steer:?} seed {seed}: {p}"));
            }
        }
    }
    let seen = SEEN.with(|m| m.borrow().clone());
    eprintln!("situations reached: {seen:#?}");
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    for e in expect {
        assert!(seen.contains_key(e), "no record reached {e:?}");
    }
}

const GAMES: u64 = 200;

const DUMMY_SITUATIONS: [&str; 9] = [
    "dummy: follows the lead suit among its face-up cards",
    "dummy: leads",
    "dummy: leads twice in a row",
    "dummy: lowest winning card",
    "dummy: highest winning card",
    "dummy: wants to win, cannot: lowest",
    "dummy: highest losing card",
    "dummy: wants to lose, cannot: highest",
    "bets: another attempt",
];

#[test]
fn audit_en_2_to_4() {
    let mut expect = DUMMY_SITUATIONS.to_vec();
    expect.extend([
        "dummy: suit order decides between equal values",
        "dummy: leads, followed by the first leader, not the previous leader",
        "end: tie for the highest",
    ]);
    audit_many(&[2, 3, 4].map(|n| cfg(Preset::En, n)), GAMES, Steer::Uniform, &expect);
}

#[test]
fn audit_fr_2_to_5() {
    let mut expect = DUMMY_SITUATIONS.to_vec();
    expect.extend([
        "dummy: suit order decides between equal values",
        "dummy: leads, followed by the first leader, not the previous leader",
        "end: several reach the target",
    ]);
    audit_many(&[2, 3, 4, 5].map(|n| cfg(Preset::Fr, n)), GAMES, Steer::Uniform, &expect);
}

#[test]
fn audit_fr_advanced_3_to_6() {
    let expect = [
        "bets: another attempt",
        "leader: ? kept hidden",
        "leader: ? revealed",
        "leader: fr-advanced, no regular bet",
        "score: made with Ø",
        "trick: special card led, lead suit set later",
        "trick: won by ?/‽",
        "trick: won by ★",
        "trick: won by ★ as trump",
        "end: several reach the target",
    ];
    audit_many(&[3, 4, 5, 6].map(|n| cfg(Preset::FrAdvanced, n)), GAMES, Steer::Uniform, &expect);
}

#[test]
fn audit_kod7_2_to_6() {
    let mut expect = DUMMY_SITUATIONS.to_vec();
    expect.extend([
        "dummy: a regular card and a ★ of the same value",
        "leader: lot, ‽ in the Dummy's pile",
        "leader: kod7, all ★",
        "leader: lot",
        "leader: ‽ holder chooses",
        "trick: identical cards, the first played wins",
        "trick: special card led, lead suit set later",
        "trick: won by ?/‽",
        "trick: won by ★",
        "trick: won by ★ as trump",
        "end: tie for the highest",
    ]);
    audit_many(&[2, 3, 4, 5, 6].map(|n| cfg(Preset::Kod7, n)), GAMES, Steer::Uniform, &expect);
}

const BGA_SITUATIONS: [&str; 5] = [
    "bets: another attempt",
    "bets: bga bonus",
    "bets: identical top bids",
    "trick: identical cards, the first played wins",
    "end: tie for the highest",
];

#[test]
fn audit_bga_2_to_9() {
    audit_many(&[2, 3, 4, 5, 6, 7, 8, 9].map(|n| cfg(Preset::Bga, n)), GAMES, Steer::Uniform, &BGA_SITUATIONS);
}

#[test]
fn audit_bga_2_to_9_passing() {
    let mut expect = BGA_SITUATIONS.to_vec();
    expect.push("passes: cards passed");
    let configs = [2, 3, 4, 5, 6, 7, 8, 9].map(|n| Config { passing: true, ..cfg(Preset::Bga, n) });
    audit_many(&configs, GAMES, Steer::Uniform, &expect);
}

#[test]
fn audit_bga_two_decks_2_to_4() {
    let mut configs = Vec::new();
    for n in 2..=4 {
        configs.push(Config { decks: 2, ..cfg(Preset::Bga, n) });
        configs.push(Config { decks: 2, passing: true, ..cfg(Preset::Bga, n) });
    }
    audit_many(&configs, GAMES / 2, Steer::Uniform, &BGA_SITUATIONS);
}

/// Bets steered to sum to 7: rebids, redeals (R-BET-2 across attempts), kod7's third attempt
/// that stands, bga bonus points and bga redeals when a player runs out of unused cards.
#[test]
fn audit_steered_rebids_and_redeals() {
    let mut configs = Vec::new();
    configs.extend([2, 3, 4].map(|n| cfg(Preset::En, n)));
    configs.extend([2, 3, 4, 5].map(|n| cfg(Preset::Fr, n)));
    configs.extend([3, 4, 5, 6].map(|n| cfg(Preset::FrAdvanced, n)));
    configs.extend([2, 3, 4, 5, 6].map(|n| cfg(Preset::Kod7, n)));
    configs.extend([2, 3, 5, 9].map(|n| Config { passing: true, ..cfg(Preset::Bga, n) }));
    configs.extend([2, 4].map(|n| Config { decks: 2, ..cfg(Preset::Bga, n) }));
    let expect = [
        "bets: another attempt",
        "bets: redeal",
        "bets: kod7 third attempt stands",
        "bets: bga bonus",
        "bets: bga bonus to identical top bids",
    ];
    audit_many(&configs, 30, Steer::SumSeven, &expect);
}

/// kod7 bets steered to ★: every bet a ★ (R-LEAD-2), ties announced and settled by the ‽
/// holder or a lot.
#[test]
fn audit_steered_kod7_stars() {
    let expect = ["leader: kod7, all ★", "leader: kod7, all ★, tied", "leader: lot", "leader: ‽ holder chooses"];
    audit_many(&[2, 3, 4, 5, 6].map(|n| cfg(Preset::Kod7, n)), 40, Steer::Stars, &expect);
}

/// The ruleset options: en's every_tie_replays, fr's targets 21 and 49.
#[test]
fn audit_options() {
    let mut configs = Vec::new();
    configs.extend([2, 3, 4].map(|n| Config { every_tie_replays: true, ..cfg(Preset::En, n) }));
    for t in [21, 49] {
        configs.extend([2, 4].map(|n| Config { target: Some(t), ..cfg(Preset::Fr, n) }));
        configs.extend([3, 6].map(|n| Config { target: Some(t), ..cfg(Preset::FrAdvanced, n) }));
    }
    audit_many(&configs, 100, Steer::Uniform, &["end: tie for the highest", "end: several reach the target"]);
}

/// en's end with a tie for the highest score where every tied player made the last bet (most
/// made bets, then a shared victory): rare, so look for such games (a bounded search).
#[test]
fn audit_en_ties_at_the_end() {
    for n in [2, 3, 4] {
        let c = cfg(Preset::En, n);
        let mut found = false;
        for i in 0..4000 {
            SEEN.with(|m| m.borrow_mut().clear());
            let seed = seed_of(c, i);
            let rec = random_record(c, seed, Steer::Uniform);
            if let Err(p) = audit(&rec) {
                panic!("{c:?} seed {seed}: {p}");
            }
            if SEEN.with(|m| m.borrow().contains_key("end: tie broken or shared")) {
                found = true;
                break;
            }
        }
        assert!(found, "{c:?}: no game ended on a tie among players who all made their last bet");
    }
}

// ---------------------------------------------------------------------------------------------
// The auditor's own rules, on the worked examples of oh7.md
// ---------------------------------------------------------------------------------------------

fn c(text: &str) -> Card {
    Card::parse(text).unwrap()
}

/// §6 worked examples (seed 000 example 2, seed 003 exemple 2, seed 002), R-SCORE-1.
#[test]
fn auditor_scores_the_worked_examples() {
    let bets = [c("3C"), c("3H"), c("2H"), c("0S")];
    let won = [3, 4, 0, 0];
    assert_eq!(round_points(P::En, &bets, &won), vec![8, -1, -2, 5]);
    assert_eq!(round_points(P::Fr, &bets, &won), vec![11, 2, 1, 8]);
    let kod7 = [c("*3"), c("3H"), c("2H"), c("0S")];
    assert_eq!(round_points(P::Kod7, &kod7, &won), vec![8, -1, -2, 5]);
    // Bob leads with ♥ as the exception suit (the highest non-★ bet, ♥ over ♣... here 3H alone).
    assert_eq!(best_regular(&kod7, &[1, 2, 3]), 1);
}

/// §5: `2♥ > ★2 > 1♥`; R-PLAY-2; ‽ wins without trumps; identical cards: the first played.
#[test]
fn auditor_trick_winners() {
    let t = |cards: &[&str], trump: char| {
        let plays: Vec<(usize, Card)> = cards.iter().enumerate().map(|(i, x)| (i, c(x))).collect();
        trick_winner(&plays, SUITS.iter().position(|s| *s == trump).unwrap() as u8)
    };
    assert_eq!(t(&["1H", "*2", "2H"], 'S'), Some(2));
    assert_eq!(t(&["1H", "*2", "0H"], 'S'), Some(1));
    assert_eq!(t(&["1H", "*2", "0S"], 'S'), Some(2)); // a regular trump
    assert_eq!(t(&["1H", "*2", "1S"], 'H'), Some(1)); // ★ is a trump when the lead suit is trump
    assert_eq!(t(&["2H", "*2", "1S"], 'H'), Some(0)); // below a regular trump of the same value
    assert_eq!(t(&["*3", "1H", "?"], 'S'), Some(2)); // ‽ without trumps
    assert_eq!(t(&["*3", "1S", "?"], 'S'), Some(0)); // the led ★ becomes a trump with the lead suit
    assert_eq!(t(&["*3", "1H", "?", "0S"], 'S'), Some(3)); // a trump beats ‽
    assert_eq!(t(&["*2", "*2'", "V"], 'S'), Some(0)); // identical: first played
    assert_eq!(t(&["V", "*1", "*4"], 'S'), Some(2)); // no regular card
    assert_eq!(t(&["V", "7C", "2H"], 'H'), Some(2));
    assert_eq!(t(&["3S", "3S'", "1H"], 'D'), Some(0));
}

// ---------------------------------------------------------------------------------------------
// Tampering: the auditor must catch it
// ---------------------------------------------------------------------------------------------

/// The first record (seeds in order) of `c` that satisfies `pred`.
fn find_record(c: Config, steer: Steer, pred: impl Fn(&Value) -> bool) -> Value {
    for i in 0..2000 {
        let rec = random_record(c, seed_of(c, i), steer);
        if pred(&rec) {
            audit(&rec).unwrap_or_else(|p| panic!("{c:?} seed {}: {p}", seed_of(c, i)));
            return rec;
        }
    }
    panic!("{c:?}: no record found");
}

/// Tampering with `rec` must make the audit fail at a path starting with `prefix`.
fn caught(rec: &Value, prefix: &str, tamper: impl FnOnce(&mut Value)) {
    audit(rec).expect("the untouched record passes");
    let mut bad = rec.clone();
    tamper(&mut bad);
    assert_ne!(&bad, rec, "the tampering changed nothing");
    match audit(&bad) {
        Ok(()) => panic!("tampering at {prefix} was not caught"),
        Err(p) => {
            eprintln!("caught: {p}");
            assert!(p.path.starts_with(prefix), "expected a problem at {prefix}, got {p}");
        }
    }
}

fn card_at(v: &Value) -> Card {
    c(v.as_str().unwrap())
}

#[test]
fn tampering_with_a_trick_winner_is_caught() {
    let rec = random_record(cfg(Preset::En, 4), 1, Steer::Uniform);
    caught(&rec, "rounds[0].tricks[3].winner", |r| {
        let w = &mut r["rounds"][0]["tricks"][3]["winner"];
        *w = Value::from((w.as_u64().unwrap() + 1) % 4);
    });
    let rec = random_record(cfg(Preset::Kod7, 5), 1, Steer::Uniform);
    caught(&rec, "rounds[2].tricks[6].winner", |r| {
        let w = &mut r["rounds"][2]["tricks"][6]["winner"];
        *w = Value::from((w.as_u64().unwrap() + 2) % 5);
    });
}

#[test]
fn tampering_with_points_totals_won_is_caught() {
    let rec = random_record(cfg(Preset::Fr, 3), 2, Steer::Uniform);
    caught(&rec, "rounds[1].points", |r| {
        r["rounds"][1]["points"][0] = Value::from(r["rounds"][1]["points"][0].as_i64().unwrap() + 1);
    });
    caught(&rec, "rounds[2].totals", |r| {
        r["rounds"][2]["totals"][2] = Value::from(r["rounds"][2]["totals"][2].as_i64().unwrap() - 1);
    });
    caught(&rec, "rounds[0].won", |r| {
        let w = r["rounds"][0]["won"].as_array_mut().unwrap();
        w.swap(0, 1);
        if w[0] == w[1] {
            w[0] = Value::from(w[0].as_i64().unwrap() + 1);
        }
    });
    let rec = find_record(cfg(Preset::Bga, 3), Steer::SumSeven, |r| {
        r["rounds"].as_array().unwrap().iter().any(|x| x["bonus"].as_array().unwrap().iter().any(|b| b != 0))
    });
    let ri =
        rec["rounds"].as_array().unwrap().iter().position(|x| x["bonus"].as_array().unwrap().iter().any(|b| b != 0));
    let ri = ri.unwrap();
    caught(&rec, &format!("rounds[{ri}].bonus"), |r| {
        r["rounds"][ri]["bonus"] = Value::from(vec![0, 0, 0]);
    });
    caught(&rec, "winners", |r| {
        let w = r["winners"][0].as_u64().unwrap();
        r["winners"] = Value::from(vec![(w + 1) % 3]);
    });
}

#[test]
fn tampering_with_a_played_card_is_caught() {
    // A card the player does not hold (from the discard).
    let rec = random_record(cfg(Preset::En, 3), 3, Steer::Uniform);
    caught(&rec, "rounds[0].tricks[2].plays[1][1]", |r| {
        let d = r["rounds"][0]["discard"][0].clone();
        r["rounds"][0]["tricks"][2]["plays"][1][1] = d;
    });
    // Two cards of one player swapped between tricks so that the first breaks the following rule.
    let rec = random_record(cfg(Preset::En, 4), 4, Steer::Uniform);
    let tricks = rec["rounds"][0]["tricks"].as_array().unwrap();
    let mut target = None;
    'search: for (t, trick) in tricks.iter().enumerate() {
        let lead = card_at(&trick["plays"][0][1]).suit;
        for k in 1..4 {
            let seat = &trick["plays"][k][0];
            if card_at(&trick["plays"][k][1]).suit != lead {
                continue;
            }
            for (t2, later) in tricks.iter().enumerate().skip(t + 1) {
                for k2 in 0..4 {
                    if &later["plays"][k2][0] == seat && card_at(&later["plays"][k2][1]).suit != lead {
                        target = Some((t, k, t2, k2));
                        break 'search;
                    }
                }
            }
        }
    }
    let (t, k, t2, k2) = target.expect("a swappable pair");
    caught(&rec, &format!("rounds[0].tricks[{t}].plays[{k}][1]"), |r| {
        let a = r["rounds"][0]["tricks"][t]["plays"][k][1].clone();
        let b = r["rounds"][0]["tricks"][t2]["plays"][k2][1].clone();
        r["rounds"][0]["tricks"][t]["plays"][k][1] = b;
        r["rounds"][0]["tricks"][t2]["plays"][k2][1] = a;
    });
    // The play order.
    caught(&rec, "rounds[1].tricks[0].plays[1][0]", |r| {
        r["rounds"][1]["tricks"][0]["plays"].as_array_mut().unwrap().swap(1, 2);
    });
    // A trick led by the wrong player.
    caught(&rec, "rounds[1].tricks[0].leader", |r| {
        let l = r["rounds"][1]["tricks"][0]["leader"].as_u64().unwrap();
        r["rounds"][1]["tricks"][0]["leader"] = Value::from((l + 1) % 4);
    });
}

/// The Dummy plays one of its other face-up cards, or leads another card than its top one.
#[test]
fn tampering_with_a_dummy_card_is_caught() {
    for preset in [Preset::En, Preset::Fr, Preset::Kod7] {
        let rec = find_record(cfg(preset, 2), Steer::Uniform, |r| {
            r["rounds"][0]["tricks"].as_array().unwrap().iter().any(|t| t["leader"] == 2)
        });
        let round = &rec["rounds"][0];
        let pile: Vec<Card> = round["dummy_pile"].as_array().unwrap().iter().map(card_at).collect();
        let mut faceup = pile[..2].to_vec();
        let mut next = 2;
        let mut done_last = false;
        let mut done_lead = false;
        for (t, trick) in round["tricks"].as_array().unwrap().iter().enumerate() {
            if trick["leader"] == 2 {
                next += 1;
                if !done_lead {
                    done_lead = true;
                    caught(&rec, &format!("rounds[0].tricks[{t}].plays[0][1]"), |r| {
                        r["rounds"][0]["tricks"][t]["plays"][0][1] = Value::from(pile[next].to_string());
                    });
                }
                continue;
            }
            faceup.push(pile[next]);
            next += 1;
            let played = card_at(&trick["plays"][2][1]);
            let other = *faceup.iter().find(|&&x| x != played).unwrap();
            if !done_last {
                done_last = true;
                caught(&rec, &format!("rounds[0].tricks[{t}].plays[2][1]"), |r| {
                    r["rounds"][0]["tricks"][t]["plays"][2][1] = Value::from(other.to_string());
                });
            }
            faceup.retain(|&x| x != played);
        }
        assert!(done_last && done_lead);
        caught(&rec, "rounds[0].dummy_faceup", |r| {
            r["rounds"][0]["dummy_faceup"].as_array_mut().unwrap().swap(0, 1);
        });
    }
}

#[test]
fn tampering_with_a_bet_is_caught() {
    let rec = random_record(cfg(Preset::En, 3), 5, Steer::Uniform);
    caught(&rec, "rounds[0].bets", |r| {
        let b = r["rounds"][0]["bets"][1].as_i64().unwrap();
        r["rounds"][0]["bets"][1] = Value::from((b + 1) % 8);
    });
    // A bet card the player does not hold.
    caught(&rec, "rounds[1].bet_attempts[0][2]", |r| {
        r["rounds"][1]["bet_attempts"][0][2] = r["rounds"][1]["discard"][0].clone();
    });
    // A bet card reused in a later attempt (R-BET-2).
    let rec = find_record(cfg(Preset::Fr, 4), Steer::SumSeven, |r| {
        r["rounds"][0]["bet_attempts"].as_array().unwrap().len() >= 2
    });
    caught(&rec, "rounds[0].bet_attempts[1][0]", |r| {
        r["rounds"][0]["bet_attempts"][1][0] = r["rounds"][0]["bet_attempts"][0][0].clone();
    });
    // An attempt summing to 7 left standing: drop the later attempts.
    caught(&rec, "rounds[0].bet_attempts[0]", |r| {
        r["rounds"][0]["bet_attempts"].as_array_mut().unwrap().truncate(1);
    });
    // The first leader and the trump.
    caught(&rec, "rounds[1].first_leader", |r| {
        let l = r["rounds"][1]["first_leader"].as_u64().unwrap();
        r["rounds"][1]["first_leader"] = Value::from((l + 1) % 4);
    });
    caught(&rec, "rounds[1].trump", |r| {
        let t = r["rounds"][1]["trump"].as_str().unwrap();
        r["rounds"][1]["trump"] = Value::from(if t == "S" { "H" } else { "S" });
    });
}

#[test]
fn tampering_with_deals_passes_decisions_and_the_end_is_caught() {
    // A card dealt twice.
    let rec = random_record(cfg(Preset::Fr, 5), 6, Steer::Uniform);
    caught(&rec, "rounds[0].hands[1]", |r| {
        r["rounds"][0]["hands"][1][6] = r["rounds"][0]["hands"][0][6].clone();
    });
    // The game goes on after its end, or stops before it.
    caught(&rec, "finished", |r| {
        r["rounds"].as_array_mut().unwrap().pop();
    });
    // Passes.
    let rec = random_record(Config { passing: true, ..cfg(Preset::Bga, 4) }, 7, Steer::Uniform);
    caught(&rec, "rounds[1].passes[0]", |r| {
        r["rounds"][1]["passes"][0] = Value::from(Vec::<String>::new());
    });
    caught(&rec, "rounds[0].passes[2]", |r| {
        r["rounds"][0]["passes"][2] = r["rounds"][0]["hands"][2].as_array().unwrap()[..1].to_vec().into();
    });
    // kod7: the ‽ holder's choice of leader must be one of the tied players.
    let rec = find_record(cfg(Preset::Kod7, 4), Steer::Uniform, |r| {
        r["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["decisions"].as_array().unwrap().iter().any(|d| d["kind"] == "choose_leader"))
    });
    let ri =
        rec["rounds"].as_array().unwrap().iter().position(|x| !x["decisions"].as_array().unwrap().is_empty()).unwrap();
    let di =
        rec["rounds"][ri]["decisions"].as_array().unwrap().iter().position(|d| d["kind"] == "choose_leader").unwrap();
    let bets = rec["rounds"][ri]["bets"].as_array().unwrap().clone();
    let leader = rec["rounds"][ri]["first_leader"].as_u64().unwrap() as usize;
    let untied = (0..4).find(|&s| bets[s] != bets[leader]).unwrap();
    caught(&rec, &format!("rounds[{ri}].decisions[{di}].value"), |r| {
        r["rounds"][ri]["decisions"][di]["value"] = Value::from(untied);
    });
    caught(&rec, &format!("rounds[{ri}].decisions"), |r| {
        r["rounds"][ri]["decisions"].as_array_mut().unwrap().clear();
    });
    // fr-advanced: a tied player who does not hold ? cannot reveal it.
    let rec = find_record(cfg(Preset::FrAdvanced, 4), Steer::Uniform, |r| {
        r["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["decisions"].as_array().unwrap().iter().any(|d| d["value"] == false))
    });
    let (ri, di) = rec["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find_map(|(ri, x)| {
            x["decisions"].as_array().unwrap().iter().position(|d| d["value"] == false).map(|di| (ri, di))
        })
        .unwrap();
    caught(&rec, &format!("rounds[{ri}]"), |r| {
        r["rounds"][ri]["decisions"][di]["value"] = Value::from(true);
    });
}

/// The passing knob outside `bga` (a custom ruleset): the cycle repeats after round 7
/// (R-OWN-8), and with the Dummy only the two players pass.
#[test]
fn audit_passing_in_other_presets() {
    let configs = [
        Config { passing: true, ..cfg(Preset::En, 2) },
        Config { passing: true, ..cfg(Preset::En, 3) },
        Config { passing: true, ..cfg(Preset::Kod7, 2) },
        Config { passing: true, ..cfg(Preset::Kod7, 5) },
        Config { passing: true, ..cfg(Preset::FrAdvanced, 4) },
    ];
    audit_many(&configs, 40, Steer::Uniform, &["passes: cards passed"]);
}

/// Every change of a derived integer (round numbers, bets, leaders, seats, winners, tricks won,
/// points, totals, bonus, decisions) or of a played card is caught somewhere.
#[test]
fn random_mutations_are_caught() {
    fn leaves(v: &Value, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        match v {
            Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
                let mut p = path.clone();
                p.push(i.to_string());
                leaves(x, p, out)
            }),
            Value::Object(o) => o.iter().for_each(|(k, x)| {
                let mut p = path.clone();
                p.push(k.clone());
                leaves(x, p, out)
            }),
            _ => out.push(path),
        }
    }
    fn at<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
        path.iter().fold(v, |v, k| match v {
            Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
            _ => &mut v[k.as_str()],
        })
    }
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let configs = [
        cfg(Preset::En, 2),
        cfg(Preset::Fr, 4),
        cfg(Preset::FrAdvanced, 5),
        cfg(Preset::Kod7, 2),
        cfg(Preset::Kod7, 6),
        Config { passing: true, ..cfg(Preset::Bga, 6) },
    ];
    let mut tried = 0;
    for c in configs {
        let rec = random_record(c, 9, Steer::SumSeven);
        audit(&rec).unwrap();
        let mut all = Vec::new();
        leaves(&rec, Vec::new(), &mut all);
        let ints: Vec<&Vec<String>> =
            all.iter().filter(|p| p[0] == "rounds" && !p.contains(&"redeals".to_string())).collect();
        for _ in 0..150 {
            let p = ints[rng.random_range(0..ints.len())];
            let mut bad = rec.clone();
            let leaf = at(&mut bad, p);
            let plays = p.len() >= 2 && p[p.len() - 2] != "plays" && p.contains(&"plays".to_string());
            match leaf {
                Value::Number(n) => *leaf = Value::from(n.as_i64().unwrap() + rng.random_range(1..3)),
                Value::String(t) if plays && p.last().unwrap() == "1" => {
                    // A played card: another card of the deal.
                    let hands = &rec["rounds"][p[1].parse::<usize>().unwrap()]["hands"];
                    let h = &hands[rng.random_range(0..hands.as_array().unwrap().len())];
                    let other = h[rng.random_range(0..7)].clone();
                    if other == t.as_str() {
                        continue;
                    }
                    *leaf = other;
                }
                _ => continue,
            }
            tried += 1;
            let path = p.join(".");
            assert!(audit(&bad).is_err(), "{c:?} seed 9: changing {path} was not caught");
        }
    }
    assert!(tried > 300, "only {tried} mutations tried");
}

/// bga: when some player has no unused card left after a sum of 7, the round is dealt again;
/// bonus points stay (§3).
#[test]
fn audit_steered_bga_redeals() {
    let configs = [
        cfg(Preset::Bga, 2),
        Config { passing: true, ..cfg(Preset::Bga, 3) },
        Config { decks: 2, ..cfg(Preset::Bga, 2) },
    ];
    audit_many(&configs, 200, Steer::AlwaysSeven, &["bets: bga redeal, a player has no unused card"]);
}
