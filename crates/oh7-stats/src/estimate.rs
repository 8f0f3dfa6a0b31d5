//! Mergeable counters: rates, means and histograms, all kept in integers so that adding records
//! in any order, or merging partial results from threads in any order, gives the same figures
//! to the last digit.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion: `hits` out of `n`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rate {
    /// Successes.
    pub hits: u64,
    /// Trials.
    pub n: u64,
}

impl Rate {
    /// Count one trial.
    #[inline]
    pub fn add(&mut self, hit: bool) {
        self.n += 1;
        self.hits += hit as u64;
    }
    /// Add another rate's counts.
    pub fn merge(&mut self, o: &Rate) {
        self.n += o.n;
        self.hits += o.hits;
    }
    /// The sum of several rates.
    pub fn merged(rates: &[Rate]) -> Rate {
        let mut r = Rate::default();
        rates.iter().for_each(|x| r.merge(x));
        r
    }
    /// `hits / n` (0 when empty).
    pub fn value(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.hits as f64 / self.n as f64 }
    }
    /// The estimate as a report cell (Wilson 95% interval).
    pub fn cell(&self) -> Cell {
        if self.n == 0 {
            return Cell::empty(CellKind::Rate);
        }
        let n = self.n as f64;
        let p = self.value();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Cell {
            kind: CellKind::Rate,
            value: p,
            lo: (centre - half).max(0.0),
            hi: (centre + half).min(1.0),
            se: (p * (1.0 - p) / n).sqrt(),
            n: self.n,
        }
    }
}

/// A mean of integer observations (exact sums).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mean {
    /// Observations.
    pub n: u64,
    /// Their sum.
    pub sum: i64,
    /// The sum of their squares.
    pub sumsq: i128,
}

impl Mean {
    /// Count one observation.
    #[inline]
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x;
        self.sumsq += (x as i128) * (x as i128);
    }
    /// Add another mean's sums.
    pub fn merge(&mut self, o: &Mean) {
        self.n += o.n;
        self.sum += o.sum;
        self.sumsq += o.sumsq;
    }
    /// The mean (0 when empty).
    pub fn value(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.sum as f64 / self.n as f64 }
    }
    /// The sample standard deviation.
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as i128;
        // n·Σx² − (Σx)², exact in integers.
        let num = n * self.sumsq - (self.sum as i128) * (self.sum as i128);
        (num as f64 / (self.n as f64 * (self.n - 1) as f64)).max(0.0).sqrt()
    }
    /// The estimate as a report cell (normal 95% interval).
    pub fn cell(&self) -> Cell {
        if self.n == 0 {
            return Cell::empty(CellKind::Mean);
        }
        let se = self.sd() / (self.n as f64).sqrt();
        let v = self.value();
        Cell { kind: CellKind::Mean, value: v, lo: v - Z95 * se, hi: v + Z95 * se, se, n: self.n }
    }
}

/// A histogram of integer values (sparse; scores, sums and counts have small ranges).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hist(pub BTreeMap<i64, u64>);

impl Hist {
    /// Count one value.
    #[inline]
    pub fn add(&mut self, x: i64) {
        *self.0.entry(x).or_insert(0) += 1;
    }
    /// Add another histogram's counts.
    pub fn merge(&mut self, o: &Hist) {
        for (k, v) in &o.0 {
            *self.0.entry(*k).or_insert(0) += v;
        }
    }
    /// Number of values counted.
    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }
    /// The mean and its standard error, as a [`Mean`].
    pub fn mean(&self) -> Mean {
        let mut m = Mean::default();
        for (&k, &c) in &self.0 {
            m.n += c;
            m.sum += k * c as i64;
            m.sumsq += (k as i128) * (k as i128) * c as i128;
        }
        m
    }
    /// The smallest value `v` such that at least `q` of the values are `<= v` (None when empty).
    pub fn quantile(&self, q: f64) -> Option<i64> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let want = ((q * total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (&k, &c) in &self.0 {
            seen += c;
            if seen >= want {
                return Some(k);
            }
        }
        self.0.keys().next_back().copied()
    }
    /// The share of values equal to `x`, as a rate.
    pub fn share(&self, x: i64) -> Rate {
        Rate { hits: self.0.get(&x).copied().unwrap_or(0), n: self.total() }
    }
}

/// How a cell is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellKind {
    /// A proportion, shown as a percentage.
    Rate,
    /// A mean, shown with two decimals.
    Mean,
    /// A plain count or value without an interval.
    Count,
}

/// One figure of a report: an estimate with its 95% interval and standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// How to show it.
    pub kind: CellKind,
    /// The estimate (a rate as a fraction 0-1).
    pub value: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
    /// Standard error (0 for counts).
    pub se: f64,
    /// Observations behind it.
    pub n: u64,
}

impl Cell {
    /// A cell with no observations (shown as `-`).
    pub fn empty(kind: CellKind) -> Cell {
        Cell { kind, value: 0.0, lo: 0.0, hi: 0.0, se: 0.0, n: 0 }
    }
    /// A plain count.
    pub fn count(x: u64) -> Cell {
        Cell { kind: CellKind::Count, value: x as f64, lo: x as f64, hi: x as f64, se: 0.0, n: x }
    }
    /// A plain value (no interval).
    pub fn plain(x: f64, n: u64) -> Cell {
        Cell { kind: CellKind::Count, value: x, lo: x, hi: x, se: 0.0, n }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_and_wilson_interval() {
        let mut r = Rate::default();
        for i in 0..100 {
            r.add(i < 30);
        }
        let c = r.cell();
        assert_eq!(c.value, 0.3);
        // Wilson 95% interval for 30/100: 0.219 - 0.396.
        assert!((c.lo - 0.2189).abs() < 1e-3, "{}", c.lo);
        assert!((c.hi - 0.3958).abs() < 1e-3, "{}", c.hi);
        assert_eq!(Rate::default().cell().n, 0);
    }

    #[test]
    fn mean_is_exact_and_merges_in_any_order() {
        let xs = [3i64, -1, 4, 1, -5, 9, 2, 6];
        let mut all = Mean::default();
        xs.iter().for_each(|&x| all.add(x));
        let (mut a, mut b) = (Mean::default(), Mean::default());
        xs[..3].iter().for_each(|&x| a.add(x));
        xs[3..].iter().for_each(|&x| b.add(x));
        b.merge(&a);
        assert_eq!(all, b);
        assert_eq!(all.value(), 19.0 / 8.0);
        // sample sd of xs
        let m = 19.0 / 8.0;
        let var = xs.iter().map(|&x| (x as f64 - m).powi(2)).sum::<f64>() / 7.0;
        assert!((all.sd() - var.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn histogram_quantiles() {
        let mut h = Hist::default();
        for x in [5, 1, 3, 3, 2, 4, 3, 10] {
            h.add(x);
        }
        assert_eq!(h.total(), 8);
        assert_eq!(h.quantile(0.5), Some(3));
        assert_eq!(h.quantile(0.0), Some(1));
        assert_eq!(h.quantile(1.0), Some(10));
        assert_eq!(h.mean().value(), 31.0 / 8.0);
        assert_eq!(h.share(3), Rate { hits: 3, n: 8 });
    }
}
