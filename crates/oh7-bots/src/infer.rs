//! Policy-based inference (Rebstock, Solinas, Buro and Sturtevant, *Policy-based inference in
//! trick-taking card games*, IEEE CoG 2019): a deal drawn for the hidden hands is weighted by how
//! likely a model of the other players makes what they did in it. The model here is the
//! heuristic's: its bet from the hand's expected tricks, and its card ([`heuristic_play`]),
//! softened by a chance `eps` of any other legal card.
//!
//! [`Evidence`] is read once per decision from the seat's view; [`Evidence::log_likelihood`]
//! then replays the round's tricks so far on the hands of a drawn deal (each seat's cards now
//! plus what it played) and adds, for every card another seat played from more than one legal
//! card, the log-probability the model gives it. It reads only the view and the drawn hands.

use oh7_core::card::{Card, CardSet, Suit};
use oh7_core::oh7::trick::{self, winning_index};
use oh7_core::oh7::{MAX_SEATS, PhaseView, SeatView, TRICKS};

use oh7_core::ruleset::Ruleset;

use crate::heuristic::{PlayInfo, bet_miss, heuristic_play};
use crate::seams::{BetFacts, BetModel};

/// Where a card played sits in its round (the card and its seat are [`Evidence::cards`] and
/// [`Evidence::seats`] at the same index).
#[derive(Clone, Copy, Debug)]
struct Played {
    /// Index of the trick's first card in [`Evidence::cards`].
    trick_start: u16,
    /// Cards of the trick before this one.
    before: u8,
    /// Cards of the trick after this one.
    after: u8,
    /// Tricks done before this card's trick.
    tricks_done: u8,
}

/// What a seat's view shows of the others' decisions this round.
#[derive(Clone, Debug)]
pub struct Evidence {
    me: usize,
    players: usize,
    table: usize,
    dummy: Option<usize>,
    trump: Option<Suit>,
    /// Each seat's bet (its bet card's value), when known.
    bets: Option<[u8; MAX_SEATS]>,
    /// Each seat's last bet card, when known.
    bet_cards: [Card; MAX_SEATS],
    /// The cards each seat bet in earlier attempts of the round (it could not bet them again).
    used: [CardSet; MAX_SEATS],
    /// The attempt the bets that stood were made in (0 for the first).
    attempt: u8,
    rules: Ruleset,
    /// Every card played this round, in order: its place (its card and seat are `cards` and
    /// `seats` at the same index).
    plays: Vec<Played>,
    /// Every card played this round, in order (a trick's cards are a slice of it).
    cards: Vec<Card>,
    /// The seat of each card of `cards`.
    seats: Vec<u8>,
    /// Each seat's tricks won before each trick (`tricks_done` rows).
    won_before: Vec<[u8; MAX_SEATS]>,
    /// Cards each seat played this round.
    played: [CardSet; MAX_SEATS],
}

/// The model's softness. A share `eps` of a play's probability is spread over the legal cards
/// alike, the rest goes to the heuristic's card. A bet card `c` of the bettable cards is chosen
/// with probability ∝ `exp(−beta · miss(c) + gamma · trump(c))`, `miss` how far its value is from
/// the hand's expected tricks under the trump it would bring and `trump` whether it would likely
/// bring one ([`bet_miss`]; the heuristic bets the most likely card when `gamma = 0.15 beta`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softness {
    /// Chance that a play is not the heuristic's (0 < eps ≤ 1; 1: plays not weighed).
    pub eps: f64,
    /// How sharply bets follow the hand's expected tricks (0: bets not weighed).
    pub beta: f64,
    /// The pull of a bet that brings its suit as trump.
    pub gamma: f64,
}

/// The log-probability of betting `card` from `bettable` with `hand` under `soft`'s bet model.
pub fn bet_log_prob(
    rules: &Ruleset,
    hand: CardSet,
    bettable: CardSet,
    table: usize,
    card: Card,
    soft: Softness,
) -> f64 {
    let logit = |c: Card| {
        let (miss, trump) = bet_miss(rules, hand, c, table, CardSet::EMPTY);
        -soft.beta * f64::from(miss) + if trump { soft.gamma } else { 0.0 }
    };
    let mut top = f64::NEG_INFINITY;
    let mut mine = f64::NEG_INFINITY;
    let mut logits = [0f64; 64];
    let mut k = 0;
    for c in distinct_bets(bettable) {
        let l = logit(c);
        top = top.max(l);
        if same(c, card) {
            mine = l;
        }
        logits[k] = l;
        k += 1;
    }
    let z: f64 = logits[..k].iter().map(|l| (l - top).exp()).sum();
    mine - top - z.ln()
}

impl Evidence {
    /// What `view`'s seat has seen (a player's view).
    pub fn from_view(view: &SeatView) -> Evidence {
        let me = crate::sample::seat_of(view);
        let players = view.players();
        let table = view.table_seats();
        let playing = view.phase() == PhaseView::Playing;
        let trump = view.leader_and_trump().map(|x| x.1);
        let mut bets = None;
        let mut bet_cards = [Card::INTERROBANG; MAX_SEATS];
        let mut used = [CardSet::EMPTY; MAX_SEATS];
        let mut attempt = 0u8;
        if playing && let Some(b) = view.bet_cards() {
            let mut x = [0u8; MAX_SEATS];
            for (p, c) in b.iter().enumerate().take(MAX_SEATS) {
                x[p] = c.value();
                bet_cards[p] = *c;
            }
            bets = Some(x);
            let attempts = view.bet_attempts();
            attempt = attempts.len().saturating_sub(1).min(255) as u8;
            for a in attempts.iter().take(attempts.len().saturating_sub(1)) {
                for (p, &c) in a.iter().enumerate() {
                    used[p].insert(c);
                }
            }
        }
        let mut ev = Evidence {
            me,
            players,
            table,
            dummy: view.dummy(),
            trump,
            bets,
            bet_cards,
            used,
            attempt,
            rules: *view.rules(),
            plays: Vec::new(),
            cards: Vec::new(),
            seats: Vec::new(),
            won_before: Vec::new(),
            played: [CardSet::EMPTY; MAX_SEATS],
        };
        if !playing {
            return ev;
        }
        if trump.is_none() {
            return ev;
        }
        let mut won = [0u8; MAX_SEATS];
        let done = view.tricks();
        for (k, t) in done.iter().chain(std::iter::once(view.trick())).enumerate() {
            let start = ev.cards.len() as u16;
            let len = t.len();
            ev.won_before.push(won);
            for (i, (s, c)) in t.plays().enumerate() {
                ev.plays.push(Played {
                    trick_start: start,
                    before: i as u8,
                    after: (table - i - 1) as u8,
                    tricks_done: k as u8,
                });
                ev.cards.push(c);
                ev.seats.push(s as u8);
                ev.played[s].insert(c);
            }
            if k < done.len() && len > 0 {
                won[t.winner()] += 1;
            }
        }
        ev
    }

    /// Whether the view shows anything the model can weigh.
    pub fn is_informative(&self) -> bool {
        self.bets.is_some()
    }

    /// The log-likelihood of the others' bets under `model` if `hands` are the seats' cards now
    /// (each other player bet from its cards now plus those it played this round).
    pub fn bets_log_likelihood(&self, hands: &[CardSet; MAX_SEATS], model: &mut dyn BetModel) -> f64 {
        if self.bets.is_none() {
            return 0.0;
        }
        let mut ll = 0.0;
        for q in (0..self.table).filter(|&q| q != self.me && q < self.players && Some(q) != self.dummy) {
            // What the others showed before q's bet (identical cards of two decks counted once).
            let mut shown = CardSet::EMPTY;
            for (r, u) in self.used[..self.players.min(MAX_SEATS)].iter().enumerate() {
                if r != q {
                    shown = shown.or(*u);
                }
            }
            let facts = BetFacts {
                players: self.players,
                dummy: self.dummy.is_some(),
                attempt: self.attempt,
                preset: self.rules.preset,
                shown,
            };
            let hand = hands[q].or(self.played[q]);
            let mut bettable = hand.minus(self.used[q]);
            bettable.remove(Card::INTERROBANG);
            if bettable.len() > 1 && bettable.contains(self.bet_cards[q]) {
                ll += model.log_prob(&facts, hand, bettable, self.bet_cards[q]);
            }
        }
        ll
    }

    /// The log-likelihood of the others' bets and plays this round if `hands` are the seats'
    /// cards now (the seat's own included; the Dummy's ignored).
    pub fn log_likelihood(&self, hands: &[CardSet; MAX_SEATS], soft: Softness) -> f64 {
        let Some(bets) = self.bets else { return 0.0 };
        let Some(trump) = self.trump else { return 0.0 };
        let other = |s: usize| s != self.me && s < self.players && Some(s) != self.dummy;
        let mut ll = 0.0f64;
        if soft.beta > 0.0 {
            for q in (0..self.table).filter(|&q| other(q)) {
                let hand = hands[q].or(self.played[q]);
                let mut bettable = hand.minus(self.used[q]);
                bettable.remove(Card::INTERROBANG);
                if bettable.len() > 1 && bettable.contains(self.bet_cards[q]) {
                    ll += bet_log_prob(&self.rules, hand, bettable, self.table, self.bet_cards[q], soft);
                }
            }
        }
        if soft.eps >= 1.0 {
            return ll;
        }
        // Each seat's hand before the card being replayed: its hand now plus what it played
        // from this card on.
        let mut hand = [CardSet::EMPTY; MAX_SEATS];
        for q in 0..self.table {
            hand[q] = hands[q].or(self.played[q]);
        }
        for (p, (&card, &seat)) in self.plays.iter().zip(self.cards.iter().zip(&self.seats)) {
            let s = usize::from(seat);
            if other(s) {
                let start = usize::from(p.trick_start);
                let so_far = &self.cards[start..start + usize::from(p.before)];
                let lead = trick::lead_suit(so_far);
                let legal = trick::legal_plays(hand[s], lead);
                let n = legal.len();
                if n > 1 && legal.contains(card) {
                    let winner =
                        (!so_far.is_empty()).then(|| usize::from(self.seats[start + winning_index(so_far, trump)]));
                    let info = PlayInfo {
                        me: s,
                        hand: hand[s],
                        legal,
                        trick: so_far,
                        winner,
                        trump,
                        bets,
                        won: self.won_before[usize::from(p.tricks_done)],
                        tricks_left: TRICKS as u8 - p.tricks_done,
                        after_me: p.after,
                    };
                    let h = heuristic_play(&info);
                    let share = soft.eps / n as f64;
                    ll += if same(h, card) { (1.0 - soft.eps + share).ln() } else { share.ln() };
                }
            }
            hand[s].remove(card);
        }
        ll
    }
}

/// The choices among `bettable`: both copies of a card are one choice (the first in card order
/// stands for it).
pub(crate) fn distinct_bets(bettable: CardSet) -> impl Iterator<Item = Card> {
    let mut seen = CardSet::EMPTY;
    bettable.iter().filter(move |&c| {
        let base = Card::from_id(c.id() - c.copy()).unwrap_or(c);
        let new = !seen.contains(base);
        seen.insert(base);
        new
    })
}

/// The same card, either copy.
pub(crate) fn same(a: Card, b: Card) -> bool {
    a.id() - a.copy() == b.id() - b.copy()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::Game;
    use oh7_core::oh7::{Action, Oh7Game};

    use crate::sample::Knowledge;

    /// Plays a seeded game with the heuristic to the middle of the first round's play.
    fn mid_play(preset: &str, players: usize, seed: u64, plays: usize) -> Oh7Game {
        let rules = Ruleset::preset(preset.parse().unwrap());
        let mut g = Oh7Game::new(rules, players, seed).unwrap();
        let mut bots: Vec<crate::heuristic::HeuristicBot> =
            (0..players).map(|_| crate::heuristic::HeuristicBot).collect();
        let mut legal = Vec::new();
        let mut n = 0;
        while let Some(s) = g.to_move().lowest() {
            g.legal_actions(s, &mut legal);
            let view = g.view(s);
            if view.phase() == PhaseView::Playing && matches!(legal[0], Action::Play(_)) {
                if n == plays {
                    return g;
                }
                n += 1;
            }
            let a = crate::Bot::choose(&mut bots[s], &view, &legal);
            g.apply(s, a).unwrap();
        }
        g
    }

    #[test]
    fn the_true_deal_of_heuristic_players_is_likelier_than_most_draws() {
        // Seats that play the heuristic's cards are explained best by their own hands.
        use rand::SeedableRng;
        let mut better = 0;
        let mut total = 0;
        for seed in 0..20u64 {
            let g = mid_play("en", 4, seed, 9);
            let s = g.to_move().lowest().unwrap();
            let view = g.view(s);
            if view.phase() != PhaseView::Playing {
                continue;
            }
            let ev = Evidence::from_view(&view);
            let soft = Softness { eps: 0.2, beta: 4.0, gamma: 0.6 };
            let mut truth = [CardSet::EMPTY; MAX_SEATS];
            for (q, h) in truth.iter_mut().enumerate().take(4) {
                *h = g.view(q).hand();
            }
            let t = ev.log_likelihood(&truth, soft);
            let know = Knowledge::from_view(&view);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..20 {
                let (hands, _) = know.sample(&mut rng);
                total += 1;
                if t >= ev.log_likelihood(&hands, soft) {
                    better += 1;
                }
            }
        }
        assert!(total > 100, "{total}");
        assert!(better * 10 >= total * 8, "the truth at least as likely in {better} of {total}");
    }
}
