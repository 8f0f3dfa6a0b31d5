//! Tricks: following (§5), the winner of a trick (§5, R-PLAY-1, R-PLAY-2) and the Dummy's
//! choice of card (§8, R-DUMMY-1, R-DUMMY-2). Pure functions over bitsets, used by the engine
//! and by the search bots.

use crate::card::{Card, CardSet, Kind, Suit};

/// The cards of `hand` that may be played when the lead suit is `lead` (§5): a regular card of
/// the lead suit if the hand holds one, special cards always (R-PLAY-1: holding ★ never obliges).
#[inline]
pub fn legal_plays(hand: CardSet, lead: Option<Suit>) -> CardSet {
    if let Some(l) = lead {
        let follow = hand.and(l.mask());
        if !follow.is_empty() {
            return follow.or(hand.and(CardSet::SPECIAL));
        }
    }
    hand
}

/// Strength of `card` in a trick with trump `trump` and lead suit `lead`; the highest key wins,
/// the first played among equal keys (identical cards, §5 rule 6). 0 can never win.
///
/// Trumps (a regular trump above a ★ of the same value, and ★ only when the lead suit is the
/// trump, R-PLAY-2) > ‽/? > the lead suit and ★ (regular above ★ at equal value) > the rest.
#[inline]
pub fn trick_key(card: Card, trump: Suit, lead: Option<Suit>) -> u8 {
    let v = card.value();
    match card.kind() {
        Kind::Regular(s) if s == trump => 64 + v * 2 + 1,
        Kind::Star if lead == Some(trump) => 64 + v * 2,
        Kind::Interrobang => 48,
        Kind::Regular(s) if Some(s) == lead => 16 + v * 2 + 1,
        Kind::Star => 16 + v * 2,
        Kind::Regular(_) | Kind::Void => 0,
    }
}

/// The lead suit of a trick (cards in order of play): the suit of its first regular card.
#[inline]
pub fn lead_suit(cards: &[Card]) -> Option<Suit> {
    cards.iter().find_map(|c| c.suit())
}

/// Index in `cards` (in order of play) of the card that wins the trick.
#[inline]
pub fn winning_index(cards: &[Card], trump: Suit) -> usize {
    let lead = lead_suit(cards);
    let mut best = 0;
    let mut best_key = trick_key(cards[0], trump, lead);
    for (i, &c) in cards.iter().enumerate().skip(1) {
        let k = trick_key(c, trump, lead);
        if k > best_key {
            best = i;
            best_key = k;
        }
    }
    best
}

/// The Dummy's order of strength (R-DUMMY-2): any trump above any non-trump, then ‽/?, then by
/// value with a regular card above a ★ of the same value; equal values broken by suit order
/// (♠ highest). The largest key is the Dummy's "highest" card, the smallest its "lowest".
#[inline]
fn dummy_key(card: Card, trump: Suit, lead: Option<Suit>) -> u16 {
    let is_trump = match card.kind() {
        Kind::Regular(s) => s == trump,
        Kind::Star => lead == Some(trump),
        _ => false,
    };
    let tier: u16 = if is_trump {
        2
    } else if card.kind() == Kind::Interrobang {
        1
    } else {
        0
    };
    let (value, regular, suit_rank) = match card.kind() {
        Kind::Regular(s) => (card.value() as u16 + 1, 1, 4 - s.index() as u16),
        Kind::Star => (card.value() as u16 + 1, 0, 0),
        // Ø is below every card of value 0.
        Kind::Void => (0, 0, 0),
        Kind::Interrobang => (0, 0, 0),
    };
    ((tier * 16 + value) * 2 + regular) * 8 + suit_rank
}

/// The card the Dummy plays when it plays last (§8): `trick` is the trick so far (cards in
/// order of play), `faceup` its face-up cards (three of them), `won` the tricks it has won.
pub fn dummy_choice(trick: &[Card], faceup: CardSet, trump: Suit, won: u8) -> Card {
    let lead = lead_suit(trick);
    // R-DUMMY-1: the Dummy obeys the following rule among its face-up cards.
    let legal = legal_plays(faceup, lead);
    let mut plays = [Card::INTERROBANG; 10];
    plays[..trick.len()].copy_from_slice(trick);
    let n = trick.len() + 1;
    let (mut win, mut lose) = (CardSet::EMPTY, CardSet::EMPTY);
    for c in legal {
        plays[trick.len()] = c;
        if winning_index(&plays[..n], trump) == trick.len() {
            win.insert(c);
        } else {
            lose.insert(c);
        }
    }
    let key = |c: &Card| {
        let mut p = plays;
        p[trick.len()] = *c;
        dummy_key(*c, trump, lead_suit(&p[..n]))
    };
    let lowest = |s: CardSet| s.iter().min_by_key(key).expect("non-empty");
    let highest = |s: CardSet| s.iter().max_by_key(key).expect("non-empty");
    if won < 2 {
        if win.is_empty() {
            lowest(legal)
        } else if won == 0 {
            lowest(win)
        } else {
            highest(win)
        }
    } else if lose.is_empty() {
        highest(legal)
    } else {
        highest(lose)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(t: &str) -> Card {
        t.parse().unwrap()
    }
    fn set(t: &str) -> CardSet {
        t.split_whitespace().map(c).collect()
    }
    fn trick(t: &str) -> Vec<Card> {
        t.split_whitespace().map(c).collect()
    }

    #[test]
    fn highest_trump_then_highest_lead() {
        assert_eq!(winning_index(&trick("5H 1H 0S 7H"), Suit::S), 2);
        assert_eq!(winning_index(&trick("5H 1H 0C 7H"), Suit::S), 3);
        assert_eq!(winning_index(&trick("5C 7H 6C 1D"), Suit::S), 2);
    }

    /// R-PLAY-2: ★ takes the lead suit's identity; `2♥ > ★2 > 1♥`.
    #[test]
    fn r_play_2_star_is_lead_suit_below_same_value() {
        assert_eq!(winning_index(&trick("1H *2 2H"), Suit::S), 2);
        assert_eq!(winning_index(&trick("1H *2"), Suit::S), 1);
        // Lead suit = trump: ★ counts as a trump, below a regular trump of the same value.
        assert_eq!(winning_index(&trick("1S *3 3S"), Suit::S), 2);
        assert_eq!(winning_index(&trick("1S *3 2S"), Suit::S), 1);
        // Lead suit not trump: a ★ is never a trump, any regular trump beats it.
        assert_eq!(winning_index(&trick("1H *7 0S"), Suit::S), 2);
        // Led ★: the lead suit is set by the first regular card after it.
        assert_eq!(winning_index(&trick("*3 2C 7H"), Suit::S), 0);
        assert_eq!(winning_index(&trick("*3 4C 7H"), Suit::S), 1);
        // ... and if that card is a trump, the ★ counts as a trump too.
        assert_eq!(winning_index(&trick("*5 4S 7H"), Suit::S), 0);
    }

    #[test]
    fn interrobang_beats_all_but_trumps() {
        assert_eq!(winning_index(&trick("7H ? 6H"), Suit::S), 1);
        assert_eq!(winning_index(&trick("7H ? 0S"), Suit::S), 2);
        // No regular card: ? > ★ (higher first) > Ø.
        assert_eq!(winning_index(&trick("*2 V *4"), Suit::S), 2);
        assert_eq!(winning_index(&trick("*2 ? *4"), Suit::S), 1);
        assert_eq!(winning_index(&trick("V *1 V'"), Suit::S), 1);
    }

    #[test]
    fn void_never_wins_and_identical_first_wins() {
        assert_eq!(winning_index(&trick("0H V"), Suit::S), 0);
        assert_eq!(winning_index(&trick("3S 3S' 2S"), Suit::H), 0);
        assert_eq!(winning_index(&trick("1C 3S' 3S"), Suit::S), 1);
        assert_eq!(winning_index(&trick("1C *2 *2'"), Suit::S), 1);
    }

    /// R-PLAY-1: holding ★ never obliges a player to play it; specials may always be played.
    #[test]
    fn r_play_1_following() {
        let hand = set("3H 5C *2 ? V");
        assert_eq!(legal_plays(hand, Some(Suit::H)), set("3H *2 ? V"));
        assert_eq!(legal_plays(hand, Some(Suit::S)), hand);
        assert_eq!(legal_plays(hand, None), hand);
        assert_eq!(legal_plays(set("*2 4C"), Some(Suit::H)), set("*2 4C"));
    }

    /// R-DUMMY-1 and R-DUMMY-2 on the §8 procedure.
    #[test]
    fn r_dummy_1_follows_among_faceup() {
        // Lead ♥; the Dummy holds 2♥ among its face-up cards: must play it (or a special).
        assert_eq!(dummy_choice(&trick("5H 1H"), set("2H 7C 6S"), Suit::D, 0), c("2H"));
    }

    #[test]
    fn r_dummy_2_lowest_winning_then_highest_winning() {
        // Won 0: lowest winning card. Lead ♣, trump ♠: 6C and 0S win; 0S is a trump -> higher.
        assert_eq!(dummy_choice(&trick("5C 2C"), set("6C 7C 3H"), Suit::S, 0), c("6C"));
        assert_eq!(dummy_choice(&trick("5C 2C"), set("6C 7C 3H"), Suit::S, 1), c("7C"));
        // Cannot win: its lowest card. Equal values by suit order: lowest takes the last (♦).
        assert_eq!(dummy_choice(&trick("5C 7S"), set("1H 1D 4H"), Suit::S, 0), c("1D"));
        // Won 2: highest losing card; highest takes the first in suit order (♥ before ♦).
        assert_eq!(dummy_choice(&trick("5C 7S"), set("4H 4D 1H"), Suit::S, 2), c("4H"));
        // Won 2 but cannot lose: highest card.
        assert_eq!(dummy_choice(&trick("0C 1C"), set("6C 7C 5C"), Suit::S, 2), c("7C"));
        // A trump is above any non-trump.
        assert_eq!(dummy_choice(&trick("0C 1H"), set("0S 7H 6D"), Suit::S, 0), c("0S"));
        // R-OWN-5: a Ø is below every card of value 0.
        assert_eq!(dummy_choice(&trick("5C 7S"), set("0H V *0"), Suit::S, 0), c("V"));
        // Regular above ★ of the same value: lowest winning prefers the ★.
        assert_eq!(dummy_choice(&trick("1H 0H"), set("2H *2 5C"), Suit::S, 0), c("*2"));
    }
}
