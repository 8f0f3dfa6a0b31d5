//! A round's tricks with every hand known: [`Position`], plain data on the stack.

use oh7_core::card::{Card, CardSet, Suit};
use oh7_core::oh7::trick;
use oh7_core::oh7::{MAX_SEATS, TRICKS};
use oh7_core::ruleset::{DummyFollower, Ruleset};

/// Largest Dummy pile (3-player deck of 24 cards minus two hands of 7).
pub const PILE: usize = 10;
/// No seat.
pub const NONE: u8 = u8::MAX;

/// Tricks won by each seat (the Dummy's included).
pub type Won = [u8; MAX_SEATS];

/// The tricks of a round with every hand known. Plain data, `Copy`: the search copies it on
/// the stack instead of undoing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Seats at the table (the Dummy included).
    pub seats: u8,
    /// The Dummy's seat or [`NONE`].
    pub dummy: u8,
    /// Each seat's cards (the Dummy: its face-up cards).
    pub hands: [CardSet; MAX_SEATS],
    /// Tricks won so far.
    pub won: Won,
    /// The trump suit.
    pub trump: Suit,
    /// Cards of the trick in progress, in order of play.
    pub trick: [Card; MAX_SEATS],
    /// How many cards the trick in progress holds.
    pub trick_len: u8,
    /// The lead suit of the trick in progress.
    pub lead: Option<Suit>,
    /// Seats of the trick in progress, in order of play.
    pub order: [u8; MAX_SEATS],
    /// Completed tricks.
    pub tricks_done: u8,
    /// The round's first leader.
    pub first_leader: u8,
    /// The last player (not the Dummy) who led a trick (R-DUMMY-3).
    pub last_player_leader: u8,
    /// `kod7`: the previous leader follows the Dummy (else the first leader).
    pub follower_prev: bool,
    /// The Dummy's face-down pile, top first, from `pile_next` on.
    pub pile: [Card; PILE],
    /// Cards in `pile`.
    pub pile_len: u8,
    /// The next pile card to turn.
    pub pile_next: u8,
}

impl Position {
    /// Start of play: `hands` per seat (the Dummy's face-up cards included), `pile` the Dummy's
    /// face-down pile (top first; empty without a Dummy).
    pub fn start(
        rules: &Ruleset,
        seats: usize,
        dummy: Option<usize>,
        hands: &[CardSet],
        pile: &[Card],
        first_leader: usize,
        trump: Suit,
    ) -> Position {
        let mut p = Position::empty(rules, seats, dummy, trump);
        p.hands[..seats].copy_from_slice(&hands[..seats]);
        p.set_pile(pile);
        p.first_leader = first_leader as u8;
        p.last_player_leader = first_leader as u8;
        p.start_trick(first_leader as u8);
        p
    }

    /// A position with no card anywhere yet (fill the fields, then call [`Position::resume`]).
    pub fn empty(rules: &Ruleset, seats: usize, dummy: Option<usize>, trump: Suit) -> Position {
        Position {
            seats: seats as u8,
            dummy: dummy.map_or(NONE, |d| d as u8),
            hands: [CardSet::EMPTY; MAX_SEATS],
            won: [0; MAX_SEATS],
            trump,
            trick: [Card::INTERROBANG; MAX_SEATS],
            trick_len: 0,
            lead: None,
            order: [0; MAX_SEATS],
            tricks_done: 0,
            first_leader: 0,
            last_player_leader: 0,
            follower_prev: rules.dummy_follower == DummyFollower::PreviousLeader,
            pile: [Card::INTERROBANG; PILE],
            pile_len: 0,
            pile_next: 0,
        }
    }

    /// Set the Dummy's face-down pile (top first).
    pub fn set_pile(&mut self, pile: &[Card]) {
        let n = pile.len().min(PILE);
        self.pile[..n].copy_from_slice(&pile[..n]);
        self.pile_len = n as u8;
        self.pile_next = 0;
    }

    /// Set the order of the trick led by `leader` and the cards already played in it, then let
    /// the Dummy play if it is its turn.
    pub fn resume(&mut self, leader: u8, cards: &[Card]) {
        self.set_order(leader);
        for &c in cards {
            self.trick[self.trick_len as usize] = c;
            self.trick_len += 1;
            if self.lead.is_none() {
                self.lead = c.suit();
            }
        }
        self.advance();
    }

    /// Whether the round's tricks are all played.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.tricks_done as usize >= TRICKS
    }

    /// The seat to play (meaningless once over).
    #[inline]
    pub fn to_move(&self) -> usize {
        self.order[self.trick_len as usize] as usize
    }

    /// Tricks left, the one in progress included.
    #[inline]
    pub fn tricks_left(&self) -> u8 {
        TRICKS as u8 - self.tricks_done
    }

    /// The legal cards of the seat to play.
    #[inline]
    pub fn legal(&self) -> CardSet {
        trick::legal_plays(self.hands[self.to_move()], self.lead)
    }

    /// The cards of the trick in progress.
    #[inline]
    pub fn trick_cards(&self) -> &[Card] {
        &self.trick[..self.trick_len as usize]
    }

    /// Every card still to be played or in the trick in progress.
    pub fn live(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for h in &self.hands[..self.seats as usize] {
            s = s.or(*h);
        }
        for &c in &self.pile[self.pile_next as usize..self.pile_len as usize] {
            s.insert(c);
        }
        for &c in self.trick_cards() {
            s.insert(c);
        }
        s
    }

    /// Play `card` for the seat to play (must be legal), then let the Dummy play and finish
    /// tricks as needed.
    #[inline]
    pub fn play(&mut self, card: Card) {
        let s = self.to_move();
        self.hands[s].remove(card);
        self.push(card);
        self.advance();
    }

    #[inline]
    pub(crate) fn push(&mut self, card: Card) {
        self.trick[self.trick_len as usize] = card;
        self.trick_len += 1;
        if self.lead.is_none() {
            self.lead = card.suit();
        }
    }

    pub(crate) fn set_order(&mut self, leader: u8) {
        let n = self.seats;
        if self.dummy == NONE {
            for i in 0..n {
                self.order[i as usize] = (leader + i) % n;
            }
        } else if leader == self.dummy {
            let f = if self.follower_prev { self.last_player_leader } else { self.first_leader };
            self.order[..3].copy_from_slice(&[self.dummy, f, 1 - f]);
        } else {
            self.last_player_leader = leader;
            self.order[..3].copy_from_slice(&[leader, 1 - leader, self.dummy]);
        }
    }

    pub(crate) fn start_trick(&mut self, leader: u8) {
        self.trick_len = 0;
        self.lead = None;
        self.set_order(leader);
        self.advance();
    }

    #[inline]
    pub(crate) fn advance(&mut self) {
        loop {
            let i = self.trick_len as usize;
            if i == self.seats as usize {
                self.end_trick();
                return;
            }
            let next = self.order[i];
            if next != self.dummy {
                return;
            }
            let d = next as usize;
            let card = if i == 0 {
                let c = self.pile[self.pile_next as usize];
                self.pile_next += 1;
                c
            } else {
                let c = self.pile[self.pile_next as usize];
                self.pile_next += 1;
                self.hands[d].insert(c);
                let c = trick::dummy_choice(self.trick_cards(), self.hands[d], self.trump, self.won[d]);
                self.hands[d].remove(c);
                c
            };
            self.push(card);
        }
    }

    #[inline]
    pub(crate) fn end_trick(&mut self) {
        let w = trick::winning_index(self.trick_cards(), self.trump);
        let winner = self.order[w];
        self.won[winner as usize] += 1;
        self.tricks_done += 1;
        if !self.is_over() {
            self.start_trick(winner);
        } else {
            self.trick_len = 0;
        }
    }

    /// The final tricks won when one trick is left (every card in it forced) and no Dummy
    /// plays: the cards still held complete the trick in order of play.
    #[inline]
    pub fn last_trick(&self) -> Won {
        let mut cards = self.trick;
        for i in self.trick_len as usize..self.seats as usize {
            cards[i] = self.hands[self.order[i] as usize].first().expect("one card left");
        }
        let mut won = self.won;
        won[self.order[trick::winning_index(&cards[..self.seats as usize], self.trump)] as usize] += 1;
        won
    }

    /// How many of the tricks left `p` is sure to win, and at most can win (`live` is
    /// [`Position::live`]). A **sure winner** wins whatever trick it is played in: a regular
    /// trump that no other live card can beat (no other live trump as high, either copy, and no
    /// live ★ above it, counting the cards already in the trick), or the ‽/? when no other live
    /// card is a trump. `p` wins at least its sure winners, and none of the tricks the others'
    /// sure winners take. The Dummy's cards are not counted.
    pub fn trick_range(&self, p: usize, live: CardSet) -> (u8, u8) {
        let sure = self.sure_winners(live);
        let others: u8 = sure.iter().sum::<u8>() - sure[p];
        let left = self.tricks_left();
        (sure[p], left - others.min(left))
    }

    /// Each seat's sure winners (see [`Position::trick_range`]); the Dummy's are not counted.
    pub fn sure_winners(&self, live: CardSet) -> [u8; MAX_SEATS] {
        let mut sure = [0u8; MAX_SEATS];
        let holder = |c: Card| (0..self.seats as usize).find(|&q| self.hands[q].contains(c) && q as u8 != self.dummy);
        let trumps = live.and(self.trump.mask());
        if live.contains(Card::INTERROBANG)
            && let Some(q) = holder(Card::INTERROBANG)
            && trumps.minus(self.hands[q]).is_empty()
        {
            sure[q] += 1;
        }
        // Only the holder of the highest live trump can hold sure winners: its trumps from the
        // top down, while nobody else's trump or ★ is as high.
        if let Some(q) = trumps.last().and_then(holder) {
            let theirs = trumps.minus(self.hands[q]);
            let star = live.and(CardSet::STARS).minus(self.hands[q]).last().map_or(-1, |c| c.value() as i32);
            for c in self.hands[q].and(trumps).iter().rev() {
                let beaten = theirs.last().is_some_and(|t| t.id() >= c.id() - c.copy());
                if beaten || star > c.value() as i32 {
                    break;
                }
                sure[q] += 1;
            }
        }
        sure
    }

    /// The seat currently winning the trick in progress.
    pub fn current_winner(&self) -> Option<usize> {
        (self.trick_len > 0).then(|| self.order[trick::winning_index(self.trick_cards(), self.trump)] as usize)
    }
}
