//! Oh 7 cards, their text notation (`oh7.md` §1) and card sets as bitsets.
//!
//! Every card of every Oh 7 deck has one small id (`0..99`), so a hand, a deck or the cards
//! played so far is one `u128` ([`CardSet`]). Ids are laid out so that, within a suit, a higher
//! id is a stronger card:
//!
//! | ids | cards |
//! |---|---|
//! | `suit * 16 + value * 2 + copy` (0..80) | regular cards, suits `S H C D F` |
//! | `80 + value * 2 + copy` (80..96) | ★ stars |
//! | `96 + copy` | Ø void |
//! | `98` | ‽ / ? |

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit, in suit-priority order (`S` highest, `F` lowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    /// ♠ spades.
    S = 0,
    /// ♥ hearts.
    H = 1,
    /// ♣ clubs.
    C = 2,
    /// ♦ diamonds.
    D = 3,
    /// The fifth suit: ☆ in `fr`, ✿ in `kod7`.
    F = 4,
}

impl Suit {
    /// All suits in priority order.
    pub const ALL: [Suit; 5] = [Suit::S, Suit::H, Suit::C, Suit::D, Suit::F];

    /// The suit with this index (0 = ♠ … 4 = F).
    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }

    /// Index in priority order (0 is the highest priority).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter of the text notation.
    pub fn letter(self) -> char {
        ['S', 'H', 'C', 'D', 'F'][self.index()]
    }

    /// The symbol; the fifth suit is shown as `fifth` (☆ or ✿ by preset).
    pub fn symbol(self, fifth: char) -> char {
        ['♠', '♥', '♣', '♦', fifth][self.index()]
    }

    /// Parse a suit letter or symbol.
    pub fn from_char(c: char) -> Option<Suit> {
        Some(match c.to_ascii_uppercase() {
            'S' | '♠' | '♤' => Suit::S,
            'H' | '♥' | '♡' => Suit::H,
            'C' | '♣' | '♧' => Suit::C,
            'D' | '♦' | '♢' => Suit::D,
            'F' | '☆' | '✿' => Suit::F,
            _ => return None,
        })
    }

    /// The cards of this suit (both copies) as a set.
    pub fn mask(self) -> CardSet {
        CardSet(0xFFFF_u128 << (self.index() * 16))
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = CardParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut it = s.trim().chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Suit::from_char(c).ok_or_else(|| CardParseError::new(s)),
            _ => Err(CardParseError::new(s)),
        }
    }
}

/// What kind of card this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A card of a suit, value 0-7.
    Regular(Suit),
    /// ★, takes the lead suit's identity in a trick (R-PLAY-2).
    Star,
    /// Ø, bets 0, never wins a trick.
    Void,
    /// ‽ (kod7) or ? (fr-advanced).
    Interrobang,
}

/// One card, by id (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// The id of ‽ / ?.
const INTERROBANG_ID: u8 = 98;
/// One past the largest id.
pub const CARD_IDS: usize = 99;

impl Card {
    /// ‽ / ?.
    pub const INTERROBANG: Card = Card(INTERROBANG_ID);

    /// A regular card; `copy` 0 or 1 (the second copy is written with `'`).
    pub const fn regular(suit: Suit, value: u8, copy: u8) -> Card {
        Card(suit as u8 * 16 + value * 2 + copy)
    }
    /// A ★ card.
    pub const fn star(value: u8, copy: u8) -> Card {
        Card(80 + value * 2 + copy)
    }
    /// A Ø card.
    pub const fn void(copy: u8) -> Card {
        Card(96 + copy)
    }

    /// The card with this id, if the id is valid.
    pub fn from_id(id: u8) -> Option<Card> {
        (id < CARD_IDS as u8).then_some(Card(id))
    }

    /// The id (0..99).
    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }

    /// What kind of card this is.
    #[inline]
    pub fn kind(self) -> Kind {
        match self.0 {
            0..80 => Kind::Regular(Suit::from_index((self.0 / 16) as usize)),
            80..96 => Kind::Star,
            96..98 => Kind::Void,
            _ => Kind::Interrobang,
        }
    }

    /// The suit of a regular card.
    #[inline]
    pub fn suit(self) -> Option<Suit> {
        match self.kind() {
            Kind::Regular(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is a regular card (has a suit).
    #[inline]
    pub fn is_regular(self) -> bool {
        self.0 < 80
    }

    /// The value 0-7 (Ø is 0; ‽ has none and reports 0).
    #[inline]
    pub fn value(self) -> u8 {
        match self.0 {
            0..96 => (self.0 % 16) / 2,
            _ => 0,
        }
    }

    /// The value as a bet, `None` for ‽/? which can never be bet (R-BET-1).
    pub fn bet_value(self) -> Option<u8> {
        (self.0 != INTERROBANG_ID).then(|| self.value())
    }

    /// 0 for the first copy, 1 for the second (`'`).
    pub fn copy(self) -> u8 {
        match self.0 {
            0..98 => self.0 % 2,
            _ => 0,
        }
    }

    /// This card as a one-card set.
    #[inline]
    pub fn bit(self) -> CardSet {
        CardSet(1u128 << self.0)
    }

    /// Text with the preset's symbols (`3♠`, `★2`, `Ø`, `‽`); `fifth` is the fifth suit's symbol
    /// and `mark` the symbol of the one special card (‽ or ?).
    pub fn pretty(self, fifth: char, mark: char) -> String {
        let tick = if self.copy() == 1 { "'" } else { "" };
        match self.kind() {
            Kind::Regular(s) => format!("{}{}{tick}", self.value(), s.symbol(fifth)),
            Kind::Star => format!("★{}{tick}", self.value()),
            Kind::Void => format!("Ø{tick}"),
            Kind::Interrobang => mark.to_string(),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tick = if self.copy() == 1 { "'" } else { "" };
        match self.kind() {
            Kind::Regular(s) => write!(f, "{}{}{tick}", self.value(), s.letter()),
            Kind::Star => write!(f, "*{}{tick}", self.value()),
            Kind::Void => write!(f, "V{tick}"),
            Kind::Interrobang => write!(f, "?"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown card `{text}`: write a value 0-7 (or Q for 0) and a suit S H C D F (3S, 0H, QC, 5F), \
     *n for a star (*2), V for the void, ? for the interrobang, and ' for a second copy (3S')"
)]
pub struct CardParseError {
    /// The text that was given.
    pub text: String,
}

impl CardParseError {
    fn new(text: &str) -> Self {
        CardParseError { text: text.to_string() }
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(text: &str) -> Result<Card, CardParseError> {
        // What oh7 writes (`3S`, `3S'`, `*2`, `V`, `?`), read without the general path below.
        if let Some(c) = Card::regular_as_written(text.as_bytes()) {
            return Ok(c);
        }
        let err = || CardParseError::new(text);
        let t = text.trim();
        let (body, copy) = match t.strip_suffix('\'').or_else(|| t.strip_suffix('’')) {
            Some(b) => (b, 1u8),
            None => (t, 0u8),
        };
        // At most two characters make a card (three let an error be worded): no Vec per card.
        let mut chars = ['\0'; 3];
        let mut n = 0;
        for c in body.chars() {
            if n == 3 {
                return Err(err());
            }
            chars[n] = c;
            n += 1;
        }
        let chars = &chars[..n];
        let value_of = |c: char| match c.to_ascii_uppercase() {
            '0'..='7' => Some(c as u8 - b'0'),
            'Q' => Some(0),
            _ => None,
        };
        match chars {
            ['?' | '‽'] if copy == 0 => Ok(Card::INTERROBANG),
            ['V' | 'v' | 'Ø' | 'ø' | '∅'] => Ok(Card::void(copy)),
            ['*' | '★', v] | [v, '*' | '★'] => {
                value_of(*v).filter(|_| *v != 'Q' && *v != 'q').map(|v| Card::star(v, copy)).ok_or_else(err)
            }
            [a, b] => {
                // `3S` or `S3` (symbols: `3♠`, `♠3`).
                if let (Some(v), Some(s)) = (value_of(*a), Suit::from_char(*b)) {
                    Ok(Card::regular(s, v, copy))
                } else if let (Some(s), Some(v)) = (Suit::from_char(*a), value_of(*b)) {
                    // `S3`; but `QS`-style is handled above since Q is not a suit letter.
                    Ok(Card::regular(s, v, copy))
                } else {
                    Err(err())
                }
            }
            _ => Err(err()),
        }
    }
}

/// The copy of a card from what follows its name in oh7's own notation: nothing or `'`.
impl Card {
    /// A regular card as oh7 writes it (`3S`, `3S'`), from its bytes: the fast path of card
    /// text, for records read in bulk (any other card: `None`, and [`FromStr`] reads it).
    pub(crate) fn regular_as_written(text: &[u8]) -> Option<Card> {
        if let [v @ b'0'..=b'7', s @ (b'S' | b'H' | b'C' | b'D' | b'F'), rest @ ..] = text
            && let (Some(suit), Some(copy)) = (Suit::from_char(*s as char), copy_mark(rest))
        {
            return Some(Card::regular(suit, v - b'0', copy));
        }
        None
    }
}

fn copy_mark(rest: &[u8]) -> Option<u8> {
    match rest {
        [] => Some(0),
        [b'\''] => Some(1),
        _ => None,
    }
}

/// Serde for types written as text: `Serialize` writes the notation (`Display`), `Deserialize`
/// parses it (`FromStr`). For the suits and cards of both games.
macro_rules! serde_as_text {
    ($($t:ty),*) => {$(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                // On the stack: a record writes thousands of cards (no `collect_str` String).
                s.serialize_str($crate::card::Notation::notation(self).as_str())
            }
        }
        $crate::card::serde_as_text!(@read $t);
    )*};
    (@read $t:ty) => {
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Text;
                impl serde::de::Visitor<'_> for Text {
                    type Value = $t;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a card or suit in oh7's notation")
                    }
                    // Borrowed or transient text: no String per card.
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$t, E> {
                        v.parse().map_err(E::custom)
                    }
                }
                d.deserialize_str(Text)
            }
        }
    };
}
pub(crate) use serde_as_text;

/// The notation of a card or suit as a few bytes on the stack, for [`serde_as_text`]: by
/// default through `Display`; Oh 7's cards write theirs directly (records hold thousands).
pub(crate) trait Notation: fmt::Display {
    fn notation(&self) -> ShortText {
        let mut t = ShortText::default();
        fmt::Write::write_fmt(&mut t, format_args!("{self}")).expect("a notation fits in 16 bytes");
        t
    }
}

impl Notation for Suit {}

impl Notation for Card {
    fn notation(&self) -> ShortText {
        let mut t = ShortText::default();
        let mut put = |b: u8| {
            t.buf[t.len] = b;
            t.len += 1;
        };
        match self.kind() {
            Kind::Regular(s) => {
                put(b'0' + self.value());
                put(s.letter() as u8);
            }
            Kind::Star => {
                put(b'*');
                put(b'0' + self.value());
            }
            Kind::Void => put(b'V'),
            Kind::Interrobang => return ShortText { buf: *b"?\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", len: 1 },
        }
        if self.copy() == 1 {
            put(b'\'');
        }
        t
    }
}

/// A card's or suit's notation written on the stack (a few bytes), for [`serde_as_text`].
#[derive(Default)]
pub(crate) struct ShortText {
    buf: [u8; 16],
    len: usize,
}

impl ShortText {
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).expect("only whole str are written")
    }
}

impl fmt::Write for ShortText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.buf.get_mut(self.len..end).ok_or(fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

serde_as_text!(Suit);
serde_as_text!(@read Card);

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(CARD_TEXT[self.0 as usize])
    }
}

/// Each card's notation, by id: what a record writes thousands of times (no formatting, no
/// UTF-8 check per card).
const CARD_TEXT: [&str; CARD_IDS] = [
    "0S", "0S'", "1S", "1S'", "2S", "2S'", "3S", "3S'", "4S", "4S'", "5S", "5S'", "6S", "6S'", "7S", "7S'", "0H",
    "0H'", "1H", "1H'", "2H", "2H'", "3H", "3H'", "4H", "4H'", "5H", "5H'", "6H", "6H'", "7H", "7H'", "0C", "0C'",
    "1C", "1C'", "2C", "2C'", "3C", "3C'", "4C", "4C'", "5C", "5C'", "6C", "6C'", "7C", "7C'", "0D", "0D'", "1D",
    "1D'", "2D", "2D'", "3D", "3D'", "4D", "4D'", "5D", "5D'", "6D", "6D'", "7D", "7D'", "0F", "0F'", "1F", "1F'",
    "2F", "2F'", "3F", "3F'", "4F", "4F'", "5F", "5F'", "6F", "6F'", "7F", "7F'", "*0", "*0'", "*1", "*1'", "*2",
    "*2'", "*3", "*3'", "*4", "*4'", "*5", "*5'", "*6", "*6'", "*7", "*7'", "V", "V'", "?",
];

/// The methods every card set has, for a card type that is a tuple struct over its `u8` id (below
/// 128) and a set type that is a tuple struct over a `u128` of those ids: Oh 7's [`CardSet`] and
/// Seven's. Expanded in the module of the card type, so it may read and build the card's id.
/// Adds to `$set` the set operations, iteration and `Debug`/`FromIterator`/`IntoIterator`, and
/// defines the iterator `$iter`; the count ([`CardSet::len`]) stays with each type, since Oh 7
/// counts in `u32` and Seven in `usize`.
macro_rules! card_set {
    ($set:ident, $card:ident, $iter:ident) => {
        impl $set {
            /// No card.
            pub const EMPTY: $set = $set(0);

            /// Whether the set is empty.
            #[inline]
            pub fn is_empty(self) -> bool {
                self.0 == 0
            }
            /// Whether `c` is in the set.
            #[inline]
            pub fn contains(self, c: $card) -> bool {
                self.0 & (1u128 << c.0) != 0
            }
            /// Add a card.
            #[inline]
            pub fn insert(&mut self, c: $card) {
                self.0 |= 1u128 << c.0;
            }
            /// Remove a card.
            #[inline]
            pub fn remove(&mut self, c: $card) {
                self.0 &= !(1u128 << c.0);
            }
            /// Intersection: the cards in both sets.
            #[inline]
            pub fn and(self, o: $set) -> $set {
                $set(self.0 & o.0)
            }
            /// Union: the cards in either set.
            #[inline]
            pub fn or(self, o: $set) -> $set {
                $set(self.0 | o.0)
            }
            /// Difference: the cards of `self` not in `o`.
            #[inline]
            pub fn minus(self, o: $set) -> $set {
                $set(self.0 & !o.0)
            }
            /// The lowest-id card.
            #[inline]
            pub fn first(self) -> Option<$card> {
                (self.0 != 0).then(|| $card(self.0.trailing_zeros() as u8))
            }
            /// The highest-id card.
            #[inline]
            pub fn last(self) -> Option<$card> {
                (self.0 != 0).then(|| $card(127 - self.0.leading_zeros() as u8))
            }
            /// Iterate in id order.
            #[inline]
            pub fn iter(self) -> $iter {
                $iter(self.0)
            }
            /// The cards of a slice as a set.
            pub fn from_cards(cards: &[$card]) -> $set {
                let mut s = $set::EMPTY;
                for &c in cards {
                    s.insert(c);
                }
                s
            }
            /// The cards as a vector, in id order.
            pub fn to_vec(self) -> Vec<$card> {
                self.iter().collect()
            }
        }

        impl std::fmt::Debug for $set {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl FromIterator<$card> for $set {
            fn from_iter<T: IntoIterator<Item = $card>>(iter: T) -> Self {
                let mut s = $set::EMPTY;
                for c in iter {
                    s.insert(c);
                }
                s
            }
        }

        impl IntoIterator for $set {
            type Item = $card;
            type IntoIter = $iter;
            fn into_iter(self) -> $iter {
                self.iter()
            }
        }

        /// Iterator over a card set, lowest id first.
        #[derive(Clone)]
        pub struct $iter(u128);

        impl Iterator for $iter {
            type Item = $card;
            #[inline]
            fn next(&mut self) -> Option<$card> {
                if self.0 == 0 {
                    return None;
                }
                let c = self.0.trailing_zeros() as u8;
                self.0 &= self.0 - 1;
                Some($card(c))
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}

        impl DoubleEndedIterator for $iter {
            fn next_back(&mut self) -> Option<$card> {
                if self.0 == 0 {
                    return None;
                }
                let c = 127 - self.0.leading_zeros() as u8;
                self.0 &= !(1u128 << c);
                Some($card(c))
            }
        }
    };
}
pub(crate) use card_set;

/// A set of cards as a bitset over card ids.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u128);

card_set!(CardSet, Card, CardIter);

impl CardSet {
    /// All ★ cards.
    pub const STARS: CardSet = CardSet(0xFFFF_u128 << 80);
    /// All regular cards.
    pub const REGULAR: CardSet = CardSet((1u128 << 80) - 1);
    /// All special cards (★, Ø, ‽/?).
    pub const SPECIAL: CardSet = CardSet(((1u128 << CARD_IDS) - 1) & !((1u128 << 80) - 1));

    /// Number of cards.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// The `n`-th card in id order (0-based), if there are that many. (Random play picks a
    /// card this way at every move; hands are small, so clearing the lowest bits is fastest.)
    #[inline]
    pub fn nth(self, n: u32) -> Option<Card> {
        let lo = self.0 as u64;
        let c = lo.count_ones();
        if n < c {
            Some(Card(select64(lo, n) as u8))
        } else if n - c < ((self.0 >> 64) as u64).count_ones() {
            Some(Card(64 + select64((self.0 >> 64) as u64, n - c) as u8))
        } else {
            None
        }
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Card>::deserialize(d)?;
        Ok(CardSet::from_cards(&v))
    }
}

/// The position of the `k`-th set bit of `x` (`k < x.count_ones()`): one PDEP where the CPU
/// has BMI2 (checked once at run time), else clearing the lowest bits.
#[inline]
fn select64(x: u64, k: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU supports BMI2, checked just above.
            return unsafe { pdep_select(x, k) };
        }
    }
    let mut x = x;
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn pdep_select(x: u64, k: u32) -> u32 {
    std::arch::x86_64::_pdep_u64(1u64 << k, x).trailing_zeros()
}

/// Parse a list of cards separated by spaces or commas.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardParseError> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for id in 0..CARD_IDS as u8 {
            let c = Card::from_id(id).unwrap();
            // What records write is the notation.
            assert_eq!(CARD_TEXT[id as usize], c.to_string());
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{c}\""));
            if c.kind() == Kind::Interrobang || matches!(c.kind(), Kind::Regular(_) | Kind::Star | Kind::Void) {
                let t = c.to_string();
                assert_eq!(t.parse::<Card>().unwrap(), c, "{t}");
            }
        }
    }

    #[test]
    fn parses_symbols_and_queen_as_zero() {
        assert_eq!("3♠".parse::<Card>().unwrap(), Card::regular(Suit::S, 3, 0));
        assert_eq!("★3".parse::<Card>().unwrap(), Card::star(3, 0));
        assert_eq!("*0'".parse::<Card>().unwrap(), Card::star(0, 1));
        assert_eq!("Ø".parse::<Card>().unwrap(), Card::void(0));
        assert_eq!("v'".parse::<Card>().unwrap(), Card::void(1));
        assert_eq!("‽".parse::<Card>().unwrap(), Card::INTERROBANG);
        assert_eq!("?".parse::<Card>().unwrap(), Card::INTERROBANG);
        assert_eq!("QS".parse::<Card>().unwrap(), Card::regular(Suit::S, 0, 0));
        assert_eq!("qh".parse::<Card>().unwrap(), Card::regular(Suit::H, 0, 0));
        assert_eq!("3s'".parse::<Card>().unwrap(), Card::regular(Suit::S, 3, 1));
        assert_eq!("7☆".parse::<Card>().unwrap(), Card::regular(Suit::F, 7, 0));
        assert_eq!("7✿".parse::<Card>().unwrap(), Card::regular(Suit::F, 7, 0));
        assert_eq!("0♦".parse::<Card>().unwrap(), Card::regular(Suit::D, 0, 0));
    }

    #[test]
    fn rejects_unknown_cards() {
        for bad in ["8S", "3X", "", "*8", "??", "3", "10H", "?'", "*Q"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn kinds_and_values() {
        let c = Card::regular(Suit::D, 5, 1);
        assert_eq!(c.kind(), Kind::Regular(Suit::D));
        assert_eq!((c.value(), c.copy()), (5, 1));
        assert_eq!(Card::star(6, 0).value(), 6);
        assert_eq!(Card::void(1).bet_value(), Some(0));
        assert_eq!(Card::INTERROBANG.bet_value(), None);
        assert_eq!(Card::regular(Suit::F, 2, 0).pretty('✿', '‽'), "2✿");
    }

    #[test]
    fn nth_agrees_with_iteration() {
        let mut x: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let s = CardSet(x & ((1u128 << CARD_IDS) - 1) & (x >> 3));
            let v: Vec<Card> = s.iter().collect();
            for (k, c) in v.iter().enumerate() {
                assert_eq!(s.nth(k as u32), Some(*c));
            }
            assert_eq!(s.nth(v.len() as u32), None);
        }
    }

    #[test]
    fn cardset_ops() {
        let s: CardSet = ["3S", "0H", "*2", "?"].iter().map(|t| t.parse::<Card>().unwrap()).collect();
        assert_eq!(s.len(), 4);
        assert_eq!(s.nth(0).unwrap().to_string(), "3S");
        assert_eq!(s.nth(3).unwrap().to_string(), "?");
        assert_eq!(s.nth(4), None);
        assert_eq!(s.and(Suit::H.mask()).len(), 1);
        assert_eq!(s.and(CardSet::SPECIAL).len(), 2);
        assert_eq!(s.last().unwrap(), Card::INTERROBANG);
        assert_eq!(s.iter().next_back().unwrap(), Card::INTERROBANG);
    }
}
