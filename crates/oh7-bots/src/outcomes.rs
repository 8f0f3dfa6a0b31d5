//! Every way the tricks left at the root of a solve can fall, as bitsets, so that the solver can
//! ask in a few word operations whether any outcome still feasible below a node is better for
//! one seat and, at the same time, for another (the max^n pruning of [`crate::pi::Solver`]).
//!
//! An outcome is a final tricks-won vector `o` with `o >= base` seat by seat and the seven
//! tricks of the round in all; outcome `k` is bit `k` of a set. For each seat and count `v` the
//! set of outcomes where the seat ends with at least (at most) `v` tricks is kept, and for each
//! player and score `t` the set where the player scores more than `t`.

use oh7_core::oh7::{MAX_SEATS, TRICKS};

use crate::pi::position::Won;
use crate::pi::scorer::Scorer;

/// The largest number of outcomes indexed (32 words a set). Six seats with a whole deal to play
/// have 792; seven, 1,716. Larger spaces (eight or nine seats early in a round) are not indexed
/// and the solver prunes less.
pub const MAX_OUTCOMES: usize = 2048;
/// Words of a set at most.
pub const WORDS: usize = MAX_OUTCOMES / 64;

/// A set of outcomes (only the first [`Outcomes::words`] words are meaningful).
pub type Set = [u64; WORDS];

/// The outcome space of one root (see the module documentation).
#[derive(Clone, Debug)]
pub struct Outcomes {
    scorer: Scorer,
    seats: usize,
    base: Won,
    words: usize,
    /// `ge[(s * (TRICKS + 2) + v) * words..][..words]`: seat `s` ends with at least `v` tricks.
    ge: Vec<u64>,
    /// The same with at most `v`.
    le: Vec<u64>,
    /// Each player's lowest score over the space, minus one.
    floor: [i32; MAX_SEATS],
    /// Each player's highest score over the space.
    top: [i32; MAX_SEATS],
    /// Where each player's sets begin in `better`.
    offset: [usize; MAX_SEATS],
    /// `better[offset[p] + (t - floor[p]) * words..][..words]`: `p` scores more than `t`.
    better: Vec<u64>,
    /// Outcomes in all.
    count: usize,
    /// Tricks left at the root.
    left: usize,
    /// `index[s][rem][f]`: what seat `s` ending with `f` tricks of the `rem` not yet given to
    /// the seats before it adds to an outcome's index.
    index: [[[u16; TRICKS + 1]; TRICKS + 1]; MAX_SEATS],
    /// `rank[p * count + k]`: the place of outcome `k` in player `p`'s preference
    /// ([`Scorer::better`]: its score, then the lowest total for the others, then the smaller
    /// tricks vector), 0 the worst.
    rank: Vec<u16>,
    /// `above[(p * count + r) * words..][..words]`: the outcomes `p` prefers to its `r`-th.
    above: Vec<u64>,
}

/// Number of ways to share `m` tricks among `k` seats.
fn ways(m: usize, k: usize) -> usize {
    // C(m + k - 1, k - 1), small arguments.
    let mut r = 1usize;
    for i in 1..k {
        r = r * (m + i) / i;
    }
    r
}

impl Outcomes {
    /// The space below a root with `base` tricks won by `seats` seats, scored by `scorer`;
    /// `None` when it has more than [`MAX_OUTCOMES`] outcomes.
    pub fn new(scorer: &Scorer, seats: usize, base: &Won) -> Option<Outcomes> {
        let done: usize = base[..seats].iter().map(|&w| w as usize).sum();
        let left = TRICKS.checked_sub(done)?;
        let n = ways(left, seats);
        if n > MAX_OUTCOMES {
            return None;
        }
        let words = n.div_ceil(64);
        let mut all: Vec<Won> = Vec::with_capacity(n);
        let mut o = *base;
        share(&mut o, 0, seats, left, &mut all);
        debug_assert_eq!(all.len(), n);
        let stride = TRICKS + 2;
        let mut ge = vec![0u64; seats * stride * words];
        let mut le = vec![0u64; seats * stride * words];
        for (k, o) in all.iter().enumerate() {
            let bit = 1u64 << (k % 64);
            for s in 0..seats {
                for v in 0..stride {
                    let at = (s * stride + v) * words + k / 64;
                    if o[s] as usize >= v {
                        ge[at] |= bit;
                    }
                    if o[s] as usize <= v {
                        le[at] |= bit;
                    }
                }
            }
        }
        let players = (scorer.players as usize).min(seats);
        let mut floor = [0i32; MAX_SEATS];
        let mut top = [0i32; MAX_SEATS];
        let mut offset = [0usize; MAX_SEATS];
        let mut better = Vec::new();
        let mut scores = vec![0i32; n];
        for p in 0..players {
            for (x, o) in scores.iter_mut().zip(&all) {
                *x = scorer.score(o, p);
            }
            floor[p] = scores.iter().min().copied().unwrap_or(0) - 1;
            top[p] = scores.iter().max().copied().unwrap_or(0);
            offset[p] = better.len();
            // One set per threshold from floor to top - 1 (above that, nothing is better).
            for t in floor[p]..top[p] {
                let mut set = vec![0u64; words];
                for (k, &x) in scores.iter().enumerate() {
                    if x > t {
                        set[k / 64] |= 1 << (k % 64);
                    }
                }
                better.extend_from_slice(&set);
            }
        }
        let mut index = [[[0u16; TRICKS + 1]; TRICKS + 1]; MAX_SEATS];
        for (s, table) in index.iter_mut().enumerate().take(seats) {
            for (rem, row) in table.iter_mut().enumerate().take(left + 1) {
                for f in 1..=rem {
                    row[f] = row[f - 1] + ways(rem - (f - 1), seats - s - 1) as u16;
                }
            }
        }
        let mut rank = vec![0u16; players * n];
        let mut above = vec![0u64; players * n * words];
        let mut order: Vec<usize> = (0..n).collect();
        for p in 0..players {
            let own = |o: &Won| scorer.score(o, p);
            let others = |o: &Won| (0..players).filter(|&q| q != p).map(|q| scorer.score(o, q)).sum::<i32>();
            order.sort_by_cached_key(|&k| (own(&all[k]), -others(&all[k]), std::cmp::Reverse(all[k])));
            for (r, &k) in order.iter().enumerate() {
                rank[p * n + k] = r as u16;
            }
            // From the best down: each set is the one above it plus the outcome it passes.
            for r in (0..n.saturating_sub(1)).rev() {
                let (lower, upper) = above.split_at_mut((p * n + r + 1) * words);
                let (to, from) = (&mut lower[(p * n + r) * words..], &upper[..words]);
                to.copy_from_slice(from);
                let k = order[r + 1];
                to[k / 64] |= 1 << (k % 64);
            }
        }
        Some(Outcomes {
            scorer: *scorer,
            seats,
            base: *base,
            words,
            ge,
            le,
            floor,
            top,
            offset,
            better,
            count: n,
            left,
            index,
            rank,
            above,
        })
    }

    /// The index of outcome `o` (final tricks won, at least `base` seat by seat).
    #[inline]
    pub fn index_of(&self, o: &Won) -> usize {
        let mut rem = self.left;
        let mut k = 0;
        for s in 0..self.seats - 1 {
            let f = (o[s] - self.base[s]) as usize;
            k += self.index[s][rem][f] as usize;
            rem -= f;
        }
        k
    }

    /// The place of outcome `o` in player `p`'s preference, 0 the worst.
    #[inline]
    pub fn rank(&self, p: usize, o: &Won) -> u16 {
        self.rank_at(p, self.index_of(o))
    }

    /// The place of the outcome of index `k` in player `p`'s preference.
    #[inline]
    pub fn rank_at(&self, p: usize, k: usize) -> u16 {
        self.rank[p * self.count + k]
    }

    /// Whether some outcome of `f` is preferred by `p` to its `r`-th.
    #[inline]
    pub fn any_above(&self, f: &Set, p: usize, r: u16) -> bool {
        self.above(p, r).iter().zip(f).any(|(x, y)| x & y != 0)
    }

    /// The outcomes `p` prefers to its `r`-th.
    #[inline]
    fn above(&self, p: usize, r: u16) -> &[u64] {
        let at = (p * self.count + r as usize) * self.words;
        &self.above[at..at + self.words]
    }

    /// Whether some outcome of `f` is preferred by `p` to its `r`-th and by `q` to its `u`-th.
    #[inline]
    pub fn any_above_both(&self, f: &Set, p: usize, r: u16, q: usize, u: u16) -> bool {
        let (a, b) = (self.above(p, r), self.above(q, u));
        a.iter().zip(b).zip(f).any(|((x, y), z)| x & y & z != 0)
    }

    /// Whether some outcome of `f` is preferred by each of three players to the place given.
    #[inline]
    pub fn any_above_all(&self, f: &Set, [(p, r), (q, u), (t, v)]: [(usize, u16); 3]) -> bool {
        let (a, b, c) = (self.above(p, r), self.above(q, u), self.above(t, v));
        a.iter().zip(b).zip(c).zip(f).any(|(((x, y), z), w)| x & y & z & w != 0)
    }

    /// Whether this space serves a solve from a position with `won` under `scorer`.
    pub fn covers(&self, scorer: &Scorer, seats: usize, won: &Won) -> bool {
        self.seats == seats && self.scorer == *scorer && (0..seats).all(|s| won[s] >= self.base[s])
    }

    /// Words of a set.
    #[inline]
    pub fn words(&self) -> usize {
        self.words
    }

    /// The outcomes where each seat `s` ends with between `lo[s]` and `hi[s]` tricks.
    #[inline]
    pub fn feasible(&self, lo: &Won, hi: &Won) -> Set {
        let w = self.words;
        let stride = TRICKS + 2;
        let mut f = [0u64; WORDS];
        f[..w].fill(u64::MAX);
        for s in 0..self.seats {
            if lo[s] > self.base[s] {
                let at = (s * stride + (lo[s] as usize).min(stride - 1)) * w;
                and_in(&mut f[..w], &self.ge[at..at + w]);
            }
            if (hi[s] as usize) < TRICKS {
                let at = (s * stride + hi[s] as usize) * w;
                and_in(&mut f[..w], &self.le[at..at + w]);
            }
        }
        f
    }

    /// The outcomes where player `p` scores more than `t` (`None`: none at all).
    #[inline]
    pub fn better(&self, p: usize, t: i32) -> Option<&[u64]> {
        if t >= self.top[p] {
            return None;
        }
        let i = (t.max(self.floor[p]) - self.floor[p]) as usize;
        let at = self.offset[p] + i * self.words;
        Some(&self.better[at..at + self.words])
    }

    /// Whether some outcome of `f` gives `p` more than `t`.
    #[inline]
    pub fn any_better(&self, f: &Set, p: usize, t: i32) -> bool {
        self.better(p, t).is_some_and(|b| b.iter().zip(f).any(|(x, y)| x & y != 0))
    }
}

#[inline]
fn and_in(f: &mut [u64], g: &[u64]) {
    for (x, y) in f.iter_mut().zip(g) {
        *x &= y;
    }
}

/// Every way to add `left` tricks to seats `s..seats` of `o`, in order.
fn share(o: &mut Won, s: usize, seats: usize, left: usize, out: &mut Vec<Won>) {
    if s + 1 == seats {
        o[s] += left as u8;
        out.push(*o);
        o[s] -= left as u8;
        return;
    }
    for x in 0..=left {
        o[s] += x as u8;
        share(o, s + 1, seats, left - x, out);
        o[s] -= x as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::card::Card;
    use oh7_core::ruleset::{Preset, Ruleset};

    fn scorer(preset: Preset, bets: &[&str]) -> Scorer {
        let cards: Vec<Card> = bets.iter().map(|c| c.parse().unwrap()).collect();
        Scorer::new(&Ruleset::preset(preset), &cards)
    }

    /// The sets say exactly what they claim, checked outcome by outcome against the scorer.
    #[test]
    fn sets_match_the_scorer_outcome_by_outcome() {
        let sc = scorer(Preset::Kod7, &["1S", "0H", "2C", "1D", "0F", "1S'"]);
        let mut base = [0u8; MAX_SEATS];
        base[..6].copy_from_slice(&[1, 0, 1, 0, 0, 0]);
        let out = Outcomes::new(&sc, 6, &base).unwrap();
        let mut all = Vec::new();
        share(&mut base.clone(), 0, 6, 5, &mut all);
        assert_eq!(all.len(), ways(5, 6));
        assert_eq!(all.len(), 252);
        let mut lo = base;
        lo[2] = 2;
        let mut hi = [7u8; MAX_SEATS];
        hi[0] = 2;
        let f = out.feasible(&lo, &hi);
        for (k, o) in all.iter().enumerate() {
            let inside = f[k / 64] >> (k % 64) & 1 == 1;
            assert_eq!(inside, o[2] >= 2 && o[0] <= 2, "{o:?}");
            for p in 0..6 {
                for t in -8..30 {
                    let b = out.better(p, t).is_some_and(|b| b[k / 64] >> (k % 64) & 1 == 1);
                    assert_eq!(b, sc.score(o, p) > t, "seat {p} t {t} {o:?}");
                }
            }
        }
        // The best seat 0 can get among the feasible outcomes is better than one less, and
        // nothing feasible beats it.
        let top = all.iter().filter(|o| o[2] >= 2 && o[0] <= 2).map(|o| sc.score(o, 0)).max().unwrap();
        assert!(out.any_better(&f, 0, top - 1));
        assert!(!out.any_better(&f, 0, top));
    }

    /// Indices and preference places: every outcome finds its own index, and `p` places `a`
    /// above `b` exactly when the scorer's tie-break says `a` is better for `p`.
    #[test]
    fn places_follow_the_scorers_preference() {
        for (preset, bets) in [
            (Preset::En, &["1S", "2H", "0C", "1D"][..]),
            (Preset::Fr, &["1S", "2H", "0C", "1D", "3F"][..]),
            (Preset::Bga, &["1S", "0H", "2C"][..]),
        ] {
            let sc = scorer(preset, bets);
            let seats = bets.len();
            let mut base = [0u8; MAX_SEATS];
            base[1] = 1;
            let out = Outcomes::new(&sc, seats, &base).unwrap();
            let mut all = Vec::new();
            share(&mut base.clone(), 0, seats, TRICKS - 1, &mut all);
            for (k, o) in all.iter().enumerate() {
                assert_eq!(out.index_of(o), k);
            }
            let mut only = [0u64; WORDS];
            for p in 0..seats {
                for a in &all {
                    for b in &all {
                        let better = sc.better(p, sc.score(a, p), a, sc.score(b, p), b);
                        assert_eq!(out.rank(p, a) > out.rank(p, b), better, "{preset} seat {p}: {a:?} {b:?}");
                    }
                    // The set above `a` holds exactly the outcomes ranked above it.
                    for (k, b) in all.iter().enumerate() {
                        only.fill(0);
                        only[k / 64] |= 1 << (k % 64);
                        assert_eq!(out.any_above(&only, p, out.rank(p, a)), out.rank(p, b) > out.rank(p, a));
                    }
                }
            }
        }
    }

    #[test]
    fn spaces_too_large_are_not_indexed() {
        let sc = scorer(Preset::Bga, &["1S", "0H", "2C", "1D", "0S", "1S'", "1H", "1C", "0D"]);
        assert!(Outcomes::new(&sc, 9, &[0; MAX_SEATS]).is_none());
        let mut base = [0u8; MAX_SEATS];
        base[0] = 3;
        assert!(Outcomes::new(&sc, 9, &base).is_some());
    }
}
