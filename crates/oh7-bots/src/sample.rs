//! Determinization: deals consistent with everything a seat knows (`oh7.md` §11): its hand,
//! the cards played, the revealed bet cards still in hands (R-BET-3), voids shown by not
//! following suit, the Dummy's face-up cards, a revealed ‽/?, the cards it passed (`bga`).

use oh7_core::card::{Card, CardSet, Suit};
use oh7_core::game::{Seat, SeatViewLike};
use oh7_core::oh7::{MAX_SEATS, PhaseView, SeatView};
use oh7_core::ruleset::Ruleset;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::pi::{PILE, Position};

/// What a seat knows about where the unseen cards are.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// The rules.
    pub rules: Ruleset,
    /// Players (the Dummy not counted).
    pub players: usize,
    /// Seats at the table.
    pub seats: usize,
    /// The Dummy's seat.
    pub dummy: Option<usize>,
    /// The seat that knows.
    pub me: usize,
    /// Cards known to be in each seat's hand (its own hand, public bet cards, the Dummy's
    /// face-up cards, a revealed ‽/?, cards passed to it by `me`).
    pub known: [CardSet; MAX_SEATS],
    /// Cards in each seat's hand (the Dummy: face-up cards).
    pub sizes: [u32; MAX_SEATS],
    /// Suits each seat has shown it lacks (bit per suit index).
    pub voids: [u8; MAX_SEATS],
    /// Cards whose place is unknown.
    pub unknown: CardSet,
    /// Unknown cards out of the hands: the discard, or the Dummy's face-down pile.
    pub rest: u32,
}

impl Knowledge {
    /// What `view`'s seat knows.
    pub fn from_view(view: &SeatView) -> Knowledge {
        let me = view.seat().expect("a player's view");
        let rules = *view.rules();
        let players = view.players();
        let seats = view.table_seats();
        let dummy = view.dummy();
        let played = view.played();
        let mut known = [CardSet::EMPTY; MAX_SEATS];
        let mut sizes = [0u32; MAX_SEATS];
        for (s, n) in view.hand_sizes().into_iter().enumerate() {
            sizes[s] = n;
        }
        known[me] = view.hand();
        for p in 0..players {
            if p != me {
                known[p] = view.public_bet_cards(p);
            }
        }
        if let Some(d) = dummy {
            known[d] = view.dummy_faceup();
        }
        if let Some(h) = view.revealed_interrobang()
            && h != me
            && !played.contains(Card::INTERROBANG)
        {
            known[h].insert(Card::INTERROBANG);
        }
        // Cards I passed are in the receiver's hand unless played since (`bga`, R-PASS-1).
        let (passed, _) = view.my_passes();
        if !passed.is_empty() {
            let round = view.round_number();
            const LEFT: [bool; 7] = [true, true, false, true, false, true, true];
            let to_left = LEFT[((round - 1) % 7) as usize];
            let to = if to_left { (me + 1) % players } else { (me + players - 1) % players };
            known[to] = known[to].or(passed.minus(played));
        }
        let mut voids = [0u8; MAX_SEATS];
        for t in view.tricks().iter().chain(std::iter::once(view.trick())) {
            let mut lead: Option<Suit> = None;
            for (s, c) in t.plays() {
                if let (Some(l), Some(cs)) = (lead, c.suit())
                    && cs != l
                    && Some(s) != dummy
                {
                    voids[s] |= 1 << l.index();
                }
                if lead.is_none() {
                    lead = c.suit();
                }
            }
        }
        let deck = CardSet::from_cards(&rules.deck(players));
        let mut all_known = played;
        for k in &known[..seats] {
            all_known = all_known.or(*k);
        }
        let unknown = deck.minus(all_known);
        let slots: u32 = (0..seats).map(|s| sizes[s].saturating_sub(known[s].len())).sum();
        let rest = unknown.len().saturating_sub(slots);
        Knowledge { rules, players, seats, dummy, me, known, sizes, voids, unknown, rest }
    }

    /// One deal consistent with the knowledge: every seat's hand and the rest (the Dummy's
    /// face-down pile in a random order, or the discard). Voids are respected when possible.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> ([CardSet; MAX_SEATS], Vec<Card>) {
        for attempt in 0..24 {
            if let Some(r) = self.try_sample(rng, attempt < 20) {
                return r;
            }
        }
        self.try_sample(rng, false).expect("a deal without void constraints always exists")
    }

    fn try_sample(&self, rng: &mut ChaCha8Rng, voids: bool) -> Option<([CardSet; MAX_SEATS], Vec<Card>)> {
        let mut hands = self.known;
        let mut slots = [0u32; MAX_SEATS + 1];
        for s in 0..self.seats {
            slots[s] = self.sizes[s].saturating_sub(self.known[s].len());
        }
        slots[MAX_SEATS] = self.rest;
        let rest_slot = MAX_SEATS;
        // Cards with fewer possible places first.
        let mut cards: Vec<(u32, Card)> = Vec::with_capacity(self.unknown.len() as usize);
        for c in self.unknown.iter() {
            let mut places = 1; // the rest
            for s in 0..self.seats {
                if slots[s] > 0 && !(voids && blocked(self.voids[s], c)) {
                    places += 1;
                }
            }
            cards.push((places * 1024 + rng.random_range(0..1024), c));
        }
        cards.sort_unstable();
        let mut rest = Vec::with_capacity(self.rest as usize);
        for &(_, c) in &cards {
            let mut total = 0;
            let mut weights = [0u32; MAX_SEATS + 1];
            for s in 0..self.seats {
                if slots[s] > 0 && !(voids && blocked(self.voids[s], c)) {
                    weights[s] = slots[s];
                    total += slots[s];
                }
            }
            weights[rest_slot] = slots[rest_slot];
            total += slots[rest_slot];
            if total == 0 {
                return None;
            }
            let mut k = rng.random_range(0..total);
            let mut to = rest_slot;
            for (s, &w) in weights.iter().enumerate() {
                if k < w {
                    to = s;
                    break;
                }
                k -= w;
            }
            slots[to] -= 1;
            if to == rest_slot {
                rest.push(c);
            } else {
                hands[to].insert(c);
            }
        }
        // A random pile order.
        for i in (1..rest.len()).rev() {
            let j = rng.random_range(0..=i);
            rest.swap(i, j);
        }
        Some((hands, rest))
    }
}

#[inline]
fn blocked(voids: u8, c: Card) -> bool {
    c.suit().is_some_and(|s| voids & (1 << s.index()) != 0)
}

/// The perfect-information position of `view` (in play) with the hidden cards as sampled.
pub fn position_from_view(view: &SeatView, hands: &[CardSet; MAX_SEATS], pile: &[Card]) -> Position {
    debug_assert_eq!(view.phase(), PhaseView::Playing);
    let (first, trump) = view.leader_and_trump().expect("playing");
    let dummy = view.dummy();
    let mut p = Position::empty(view.rules(), view.table_seats(), dummy, trump);
    p.hands = *hands;
    p.won[..view.won().len()].copy_from_slice(view.won());
    let tricks = view.tricks();
    p.tricks_done = tricks.len() as u8;
    p.first_leader = first as u8;
    p.last_player_leader = tricks.iter().rev().map(|t| t.leader()).find(|&l| Some(l) != dummy).unwrap_or(first) as u8;
    let n = pile.len().min(PILE);
    p.set_pile(&pile[..n]);
    let t = view.trick();
    p.resume(view.trick_leader().expect("playing") as u8, t.cards());
    p
}

/// The cards each player bet in the earlier attempts of this round (they may not bet again).
pub fn used_bet_cards(view: &SeatView) -> [CardSet; MAX_SEATS] {
    let mut used = [CardSet::EMPTY; MAX_SEATS];
    for a in &view.bet_attempts() {
        for (p, &c) in a.iter().enumerate() {
            used[p].insert(c);
        }
    }
    used
}

/// The seat of a player's view.
pub fn seat_of(view: &SeatView) -> Seat {
    view.seat().expect("a player's view")
}
