//! Seven's cards: two standard 52-card decks (104 cards), their text notation and card sets as
//! `u128` bitsets.
//!
//! Every card has one id in `0..104`: `suit * 26 + rank * 2 + copy`, with suits in the order
//! `S H C D`, ranks `2 3 4 5 6 7 8 9 10 J Q K A` (index 0..13) and `copy` 1 for the second copy
//! (written with `'`). So a suit is 26 consecutive bits and a hand is one `u128`.
//!
//! Text: rank `2`-`10`, `J`, `Q`, `K`, `A`, then the suit letter `S H C D`, then `'` for the second
//! copy: `10H`, `AS`, `8C`, `AS'`. Parsing is case-insensitive and also accepts `T` for 10 and the
//! suit symbols `♠ ♥ ♣ ♦` (and `♤ ♡ ♧ ♢`).

use std::fmt;
use std::str::FromStr;

/// A suit.
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
}

impl Suit {
    /// The four suits.
    pub const ALL: [Suit; 4] = [Suit::S, Suit::H, Suit::C, Suit::D];

    /// The suit with this index (0 = ♠ … 3 = ♦); panics past 3.
    #[inline]
    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }
    /// Index 0..4.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The letter of the text notation.
    pub fn letter(self) -> char {
        ['S', 'H', 'C', 'D'][self.index()]
    }
    /// The symbol.
    pub fn symbol(self) -> char {
        ['♠', '♥', '♣', '♦'][self.index()]
    }
    /// Parse a suit letter or symbol (case-insensitive).
    pub fn from_char(c: char) -> Option<Suit> {
        Some(match c.to_ascii_uppercase() {
            'S' | '♠' | '♤' => Suit::S,
            'H' | '♥' | '♡' => Suit::H,
            'C' | '♣' | '♧' => Suit::C,
            'D' | '♦' | '♢' => Suit::D,
            _ => return None,
        })
    }
    /// Every card of this suit (both copies).
    #[inline]
    pub fn mask(self) -> CardSet {
        CardSet(SUIT_MASK << (26 * self.index()))
    }
}

const SUIT_MASK: u128 = (1 << 26) - 1;

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
            (Some(c), None) => Suit::from_char(c).ok_or_else(|| CardParseError(s.to_string())),
            _ => Err(CardParseError(s.to_string())),
        }
    }
}

/// A rank, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// 2: penalty of 2 × n (S-ACT-1).
    Two = 0,
    /// 3.
    Three,
    /// 4.
    Four,
    /// 5.
    Five,
    /// 6.
    Six,
    /// 7: the lock (S-ACT-2).
    Seven,
    /// 8: wild, names a suit.
    Eight,
    /// 9.
    Nine,
    /// 10: reverses.
    Ten,
    /// J: skips the next player.
    Jack,
    /// Q.
    Queen,
    /// K.
    King,
    /// A (A♠: penalty of 5 × n).
    Ace,
}

impl Rank {
    /// The thirteen ranks, lowest first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with this index (0 = 2 … 12 = A); panics past 12.
    #[inline]
    pub fn from_index(i: usize) -> Rank {
        Rank::ALL[i]
    }
    /// Index 0..13.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The text of the rank (`2`..`10`, `J`, `Q`, `K`, `A`).
    pub fn text(self) -> &'static str {
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][self.index()]
    }
    /// Every card of this rank (4 suits, both copies).
    #[inline]
    pub fn mask(self) -> CardSet {
        CardSet(RANK_MASKS[self.index()])
    }
    /// Points of a card of this rank left in hand (A♠ is 15, see [`Card::points`]).
    #[inline]
    pub fn points(self) -> u32 {
        RANK_POINTS[self.index()]
    }
}

/// Points by rank index: 2-7, 9, 10 face value; 8: 0; J, Q, K, A: 10.
const RANK_POINTS: [u32; 13] = [2, 3, 4, 5, 6, 7, 0, 9, 10, 10, 10, 10, 10];

const fn rank_mask(r: usize) -> u128 {
    let one = 3u128 << (2 * r);
    one | one << 26 | one << 52 | one << 78
}

const RANK_MASKS: [u128; 13] = {
    let mut m = [0u128; 13];
    let mut r = 0;
    while r < 13 {
        m[r] = rank_mask(r);
        r += 1;
    }
    m
};

/// Number of cards (and one past the largest id).
pub const DECK_SIZE: usize = 104;

/// One card, by id (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// A♠ (first copy).
    pub const ACE_OF_SPADES: Card = Card::new(Rank::Ace, Suit::S, 0);

    /// The card of this rank and suit; `copy` 0 or 1 (the second copy is written with `'`).
    pub const fn new(rank: Rank, suit: Suit, copy: u8) -> Card {
        Card(suit as u8 * 26 + rank as u8 * 2 + (copy & 1))
    }
    /// The card with this id, if the id is below 104.
    pub fn from_id(id: u8) -> Option<Card> {
        ((id as usize) < DECK_SIZE).then_some(Card(id))
    }
    /// The id (0..104).
    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }
    /// The suit.
    #[inline]
    pub fn suit(self) -> Suit {
        Suit::from_index((self.0 / 26) as usize)
    }
    /// The rank.
    #[inline]
    pub fn rank(self) -> Rank {
        Rank::from_index(((self.0 % 26) / 2) as usize)
    }
    /// 0 for the first copy, 1 for the second (`'`).
    #[inline]
    pub fn copy(self) -> u8 {
        self.0 & 1
    }
    /// The other copy of the same card.
    #[inline]
    pub fn other_copy(self) -> Card {
        Card(self.0 ^ 1)
    }
    /// Whether this is A♠ (either copy).
    #[inline]
    pub fn is_ace_of_spades(self) -> bool {
        self.0 >> 1 == Card::ACE_OF_SPADES.0 >> 1
    }
    /// Points when left in hand at the end of a round: 2-7, 9, 10 face value; J, Q, K: 10;
    /// 8: 0; A: 10; A♠: 15.
    #[inline]
    pub fn points(self) -> u32 {
        if self.is_ace_of_spades() { 15 } else { self.rank().points() }
    }
    /// This card as a one-card set.
    #[inline]
    pub fn bit(self) -> CardSet {
        CardSet(1u128 << self.0)
    }
    /// Text with suit symbols (`10♥`, `A♠'`).
    pub fn pretty(self) -> String {
        let tick = if self.copy() == 1 { "'" } else { "" };
        format!("{}{}{tick}", self.rank().text(), self.suit().symbol())
    }
    /// Parse a card, also telling whether the copy was written explicitly (`'`).
    pub fn parse_with_copy(text: &str) -> Result<(Card, bool), CardParseError> {
        let err = || CardParseError(text.to_string());
        let t = text.trim();
        let (t, copy) = match t.strip_suffix('\'').or_else(|| t.strip_suffix('’')) {
            Some(rest) => (rest, 1),
            None => (t, 0),
        };
        let mut chars = t.chars();
        let suit_char = chars.next_back().ok_or_else(err)?;
        let suit = Suit::from_char(suit_char).ok_or_else(err)?;
        let rank = match chars.as_str().to_ascii_uppercase().as_str() {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" | "T" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return Err(err()),
        };
        Ok((Card::new(rank, suit, copy), copy == 1))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tick = if self.copy() == 1 { "'" } else { "" };
        write!(f, "{}{}{tick}", self.rank().text(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card or suit that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a card: {0:?} (write e.g. 10H, AS, 8C, AS')")]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Card::parse_with_copy(s).map(|(c, _)| c)
    }
}

impl crate::card::Notation for Suit {}
impl crate::card::Notation for Card {}
crate::card::serde_as_text!(Suit, Card);

/// A set of cards as a bitset over the ids (in id order: suit by suit, ranks ascending).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u128);

crate::card::card_set!(CardSet, Card, CardSetIter);

impl CardSet {
    /// All 104 cards.
    pub const ALL: CardSet = CardSet((1u128 << DECK_SIZE) - 1);
    /// Both copies of A♠.
    pub const ACES_OF_SPADES: CardSet = CardSet(3u128 << (Rank::Ace as u8 * 2));

    /// Number of cards.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// The points of the cards (the score of a hand left at the end of a round).
    pub fn points(self) -> u32 {
        let mut total = 0;
        for r in Rank::ALL {
            total += (self.0 & RANK_MASKS[r.index()]).count_ones() * r.points();
        }
        total + 5 * (self.0 & CardSet::ACES_OF_SPADES.0).count_ones()
    }
}
