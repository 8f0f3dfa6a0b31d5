//! The round's points from the bets and the tricks won: [`Scorer`].

use oh7_core::card::{Card, Kind};
use oh7_core::oh7::{MAX_SEATS, TRICKS};
use oh7_core::ruleset::{Ruleset, Scoring};

use super::position::Won;

/// The round's points (§6) from the bets and the final tricks won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scorer {
    /// The formula.
    pub scoring: Scoring,
    /// Players (the Dummy is seat `players` when it plays, and has no score).
    pub players: u8,
    /// Bets per seat.
    pub bets: [u8; MAX_SEATS],
    /// Seats that bet with Ø (no 2 when made, `fr`).
    pub void_bet: u16,
}

impl Scorer {
    /// The scorer for these bet cards (one per player).
    pub fn new(rules: &Ruleset, bet_cards: &[Card]) -> Scorer {
        let mut s =
            Scorer { scoring: rules.scoring, players: bet_cards.len() as u8, bets: [0; MAX_SEATS], void_bet: 0 };
        for (p, c) in bet_cards.iter().enumerate() {
            s.bets[p] = c.value();
            if c.kind() == Kind::Void {
                s.void_bet |= 1 << p;
            }
        }
        s
    }

    /// The points of player `p` for final tricks `won`.
    #[inline]
    pub fn score(&self, won: &Won, p: usize) -> i32 {
        let basket = match self.scoring {
            Scoring::BidPlusTwo => 0,
            Scoring::Basket | Scoring::DoubleBasket => self.basket(won),
        };
        self.score_in(won, p, basket)
    }

    /// The losses of all the players together.
    #[inline]
    pub(crate) fn basket(&self, won: &Won) -> i32 {
        (0..self.players as usize).map(|q| (self.bets[q] as i32 - won[q] as i32).abs()).sum()
    }

    /// [`Scorer::score`] with the basket already added up.
    #[inline]
    pub(crate) fn score_in(&self, won: &Won, p: usize, basket: i32) -> i32 {
        let l = (self.bets[p] as i32 - won[p] as i32).abs();
        self.scoring.points(self.bets[p] as i32, won[p] as i32, basket - l, self.void_bet & (1 << p) != 0)
    }

    /// Each player's expected points when player `q` still wins `k` more tricks with
    /// probability `more[q][k]`, the players independently of one another (the learned leaf
    /// value, [`crate::value`]): the formula of [`Scorer::score`] with the others' losses in the
    /// basket replaced by their expectation.
    pub fn expected(&self, won: &Won, more: &[[f64; TRICKS + 1]; MAX_SEATS]) -> [f64; MAX_SEATS] {
        let n = self.players as usize;
        let loss = |q: usize, k: usize| (self.bets[q] as i32 - won[q] as i32 - k as i32).abs();
        let mut lost = [0.0f64; MAX_SEATS];
        for q in 0..n {
            lost[q] = more[q].iter().enumerate().map(|(k, &pr)| pr * f64::from(loss(q, k))).sum();
        }
        let all: f64 = lost[..n].iter().sum();
        let mut out = [0.0; MAX_SEATS];
        for p in 0..n {
            let others = all - lost[p];
            out[p] = more[p]
                .iter()
                .enumerate()
                .filter(|(_, pr)| **pr > 0.0)
                .map(|(k, &pr)| {
                    let tricks = i32::from(won[p]) + k as i32;
                    let v = self.scoring.points(i32::from(self.bets[p]), tricks, others, self.void_bet & (1 << p) != 0);
                    pr * v
                })
                .sum();
        }
        out
    }

    /// Whether result `r` (worth `v` to `s`) beats the best so far `br` (worth `bv`): a higher
    /// score; at equal score, lower points for the others together (spoil them); then the
    /// smaller tricks vector, so the choice never depends on the search order.
    #[inline]
    pub fn better(&self, s: usize, v: i32, r: &Won, bv: i32, br: &Won) -> bool {
        if v != bv {
            return v > bv;
        }
        let others = |w: &Won| {
            let basket = self.basket(w);
            (0..self.players as usize).filter(|&q| q != s).map(|q| self.score_in(w, q, basket)).sum::<i32>()
        };
        let (a, b) = (others(r), others(br));
        if a != b {
            return a < b;
        }
        r < br
    }

    /// An upper bound of the points of `p` over every way the `left` tricks still to play can
    /// fall, from the tricks won so far (`dummy`: a Dummy can win tricks too). Used to stop a
    /// seat's search as soon as one of its moves reaches it.
    ///
    /// For each count `x` of tricks `p` may still win, the others' losses are largest when the
    /// other `left - x` tricks all go to one seat (a loss is convex in the tricks won, so its
    /// sum is largest at a vertex of the simplex of distributions), or to the Dummy; every
    /// formula is non-decreasing in the others' losses.
    ///
    /// `p` wins between `lo` and `hi` of the `left` tricks ([`Position::trick_range`]).
    pub(crate) fn best_possible(&self, p: usize, won: &Won, left: u8, (lo, hi): (u8, u8), dummy: bool) -> i32 {
        let n = self.players as usize;
        let mut d = [0i32; MAX_SEATS];
        let mut base = 0;
        for q in 0..n {
            d[q] = self.bets[q] as i32 - won[q] as i32;
            if q != p {
                base += d[q].abs();
            }
        }
        let others_max = |r: i32| {
            let mut m = if dummy || r == 0 { base } else { i32::MIN };
            for q in (0..n).filter(|&q| q != p) {
                m = m.max(base - d[q].abs() + (d[q] - r).abs());
            }
            m
        };
        let b = self.bets[p] as i32;
        let mut best = i32::MIN;
        for x in lo as i32..=hi as i32 {
            let o = others_max(left as i32 - x);
            let v = self.scoring.points(b, won[p] as i32 + x, o, self.void_bet & (1 << p) != 0);
            best = best.max(v);
        }
        best
    }
}
