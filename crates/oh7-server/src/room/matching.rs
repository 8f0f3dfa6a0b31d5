//! Quick match, the pure part: who waits, who blocks whom, and the time → the groups to seat.
//!
//! Each person is promised a rating range that widens with their wait ([`range`]): anyone
//! seated with them has a rating (mu) within it. A group is made, oldest wait first, of people
//! who wait for the same thing (family of rules, live or turn-based, rated or not), each within
//! every other's range, none blocking another:
//! - as soon as [`PREFERRED`] such people wait (fewer if the rules allow no more);
//! - after [`SMALL_AFTER_S`] of waiting, with as few people as the rules allow;
//! - once the oldest member's own wait for bots has passed, with the people there are and bots
//!   in the other seats.

use serde::Serialize;

/// Seats a quick-match table has when enough people wait (brought into the rules' range).
pub const PREFERRED: usize = 4;
/// Seconds after which a table is made with as few people as the rules allow.
pub const SMALL_AFTER_S: i64 = 10;
/// The range promised at once (mu either side).
pub const RANGE_START: f64 = 3.0;
/// How much the range widens each second of waiting.
pub const RANGE_PER_S: f64 = 0.5;
/// The widest range (about everyone: a new account's mu is 25).
pub const RANGE_MAX: f64 = 30.0;

/// A person waiting.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Waiting {
    /// Their account.
    #[serde(skip)]
    pub account: String,
    /// Their name.
    pub name: String,
    /// The family of rules (`oh7:en`, …, `seven`).
    pub family: String,
    /// A turn-based table, not a live one.
    pub turn_based: bool,
    /// A rated table.
    pub rated: bool,
    /// Seconds after which bots fill the seats (`None`: never).
    pub bots_after_s: Option<u64>,
    /// Their rating's mu in that family (25 if they have none).
    pub mu: f64,
    /// When they joined the queue (Unix ms).
    pub joined_ms: i64,
}

/// The range (mu either side) promised after `waited_ms` of waiting.
pub fn range(waited_ms: i64) -> f64 {
    (RANGE_START + RANGE_PER_S * waited_ms.max(0) as f64 / 1000.0).min(RANGE_MAX)
}

/// One person seated by a round.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Their account.
    pub account: String,
    /// Their name.
    pub name: String,
    /// Their mu.
    pub mu: f64,
    /// The range their wait had reached.
    pub promised: f64,
}

/// A table to make.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Its invite code (made when the round is claimed).
    pub invite: String,
    /// The family of rules.
    pub family: String,
    /// Turn-based.
    pub turn_based: bool,
    /// Rated.
    pub rated: bool,
    /// The people, oldest wait first.
    pub members: Vec<Member>,
    /// Seats in all (the others are bots').
    pub players: usize,
}

/// The groups to seat now, given the seat counts a family allows (`sizes`; `None`: a family
/// no table can be made of, whose people keep waiting) and who blocks whom (`(blocker,
/// blocked)` account pairs, either way forbids).
pub fn plan(
    waiting: &[Waiting],
    blocks: &[(String, String)],
    now_ms: i64,
    sizes: &dyn Fn(&str) -> Option<(usize, usize)>,
    mut code: impl FnMut() -> String,
) -> Vec<Group> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|&a, &b| waiting[a].joined_ms.cmp(&waiting[b].joined_ms).then(a.cmp(&b)));
    let blocked = |a: &Waiting, b: &Waiting| {
        blocks.iter().any(|(x, y)| (x == &a.account && y == &b.account) || (x == &b.account && y == &a.account))
    };
    let fits = |a: &Waiting, b: &Waiting| {
        a.family == b.family
            && a.turn_based == b.turn_based
            && a.rated == b.rated
            && (a.mu - b.mu).abs() <= range(now_ms - a.joined_ms)
            && (a.mu - b.mu).abs() <= range(now_ms - b.joined_ms)
            && !blocked(a, b)
    };
    let mut taken = vec![false; waiting.len()];
    let mut groups = Vec::new();
    for &i in &order {
        if taken[i] {
            continue;
        }
        let anchor = &waiting[i];
        let Some((min, max)) = sizes(&anchor.family) else { continue };
        let want = PREFERRED.clamp(min, max);
        // The others that fit the anchor, nearest rating first, then each kept if it fits
        // everyone kept before it.
        let mut near: Vec<usize> =
            order.iter().copied().filter(|&j| j != i && !taken[j] && fits(anchor, &waiting[j])).collect();
        near.sort_by(|&a, &b| {
            (waiting[a].mu - anchor.mu).abs().total_cmp(&(waiting[b].mu - anchor.mu).abs()).then(a.cmp(&b))
        });
        let mut chosen = vec![i];
        for j in near {
            if chosen.len() == want {
                break;
            }
            if chosen.iter().all(|&k| fits(&waiting[k], &waiting[j])) {
                chosen.push(j);
            }
        }
        let waited_ms = now_ms - anchor.joined_ms;
        let players = if chosen.len() == want {
            want
        } else if chosen.len() >= min && waited_ms >= SMALL_AFTER_S * 1000 {
            chosen.len()
        } else if anchor.bots_after_s.is_some_and(|s| waited_ms >= s as i64 * 1000) {
            want.max(chosen.len())
        } else {
            continue;
        };
        chosen.sort_by_key(|&k| (waiting[k].joined_ms, k));
        for &k in &chosen {
            taken[k] = true;
        }
        groups.push(Group {
            invite: code(),
            family: anchor.family.clone(),
            turn_based: anchor.turn_based,
            rated: anchor.rated,
            members: chosen
                .iter()
                .map(|&k| {
                    let w = &waiting[k];
                    Member {
                        account: w.account.clone(),
                        name: w.name.clone(),
                        mu: w.mu,
                        promised: range(now_ms - w.joined_ms),
                    }
                })
                .collect(),
            players,
        });
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn w(n: usize, mu: f64, joined_ms: i64) -> Waiting {
        Waiting {
            account: format!("a{n}"),
            name: format!("p{n}"),
            family: "oh7:en".into(),
            turn_based: false,
            rated: true,
            bots_after_s: None,
            mu,
            joined_ms,
        }
    }

    fn sizes(_: &str) -> Option<(usize, usize)> {
        Some((3, 8))
    }

    fn codes() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("c{n}")
        }
    }

    #[test]
    fn four_near_ratings_make_a_table_at_once_and_a_far_one_waits() {
        let q = [w(0, 25.0, 0), w(1, 26.0, 10), w(2, 24.0, 20), w(3, 25.5, 30), w(4, 40.0, 40)];
        let g = plan(&q, &[], 1000, &sizes, codes());
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].players, 4);
        let names: Vec<&str> = g[0].members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["p0", "p1", "p2", "p3"]);
    }

    #[test]
    fn three_make_a_small_table_after_a_while_and_bots_fill_when_asked() {
        let q = [w(0, 25.0, 0), w(1, 25.0, 0), w(2, 25.0, 0)];
        assert!(plan(&q, &[], 5_000, &sizes, codes()).is_empty());
        let g = plan(&q, &[], SMALL_AFTER_S * 1000, &sizes, codes());
        assert_eq!((g.len(), g[0].players, g[0].members.len()), (1, 3, 3));
        let mut alone = w(9, 25.0, 0);
        assert!(plan(std::slice::from_ref(&alone), &[], 60_000, &sizes, codes()).is_empty(), "never: waits");
        alone.bots_after_s = Some(30);
        assert!(plan(std::slice::from_ref(&alone), &[], 29_000, &sizes, codes()).is_empty());
        let g = plan(std::slice::from_ref(&alone), &[], 30_000, &sizes, codes());
        assert_eq!((g[0].players, g[0].members.len()), (4, 1));
    }

    #[test]
    fn a_block_either_way_keeps_two_apart() {
        let q = [w(0, 25.0, 0), w(1, 25.0, 0), w(2, 25.0, 0), w(3, 25.0, 0), w(4, 25.0, 0)];
        let g = plan(&q, &[("a4".into(), "a0".into())], 1000, &sizes, codes());
        assert_eq!(g.len(), 1);
        assert!(g[0].members.iter().all(|m| m.account != "a4"));
    }

    proptest! {
        /// Whoever is seated is seated once, at a size the rules allow, with people who wait
        /// for the same thing, within the range each was promised, and never with someone
        /// they block.
        #[test]
        fn every_group_keeps_its_promises(
            people in prop::collection::vec((0.0f64..50.0, 0i64..120_000, 0usize..3, any::<bool>(), prop::option::of(0u64..90)), 1..60),
            blocks in prop::collection::vec((0usize..60, 0usize..60), 0..20),
            now in 0i64..150_000,
        ) {
            let families = ["oh7:en", "seven", "oh7:kod7"];
            let q: Vec<Waiting> = people.iter().enumerate().map(|(n, &(mu, joined, f, rated, bots))| Waiting {
                family: families[f].into(), rated, bots_after_s: bots, ..w(n, mu, joined.min(now))
            }).collect();
            let blocks: Vec<(String, String)> =
                blocks.iter().filter(|(a, b)| a != b).map(|(a, b)| (format!("a{a}"), format!("a{b}"))).collect();
            let sizes = |f: &str| if f == "seven" { Some((2, 6)) } else { Some((3, 8)) };
            let groups = plan(&q, &blocks, now, &sizes, codes());
            let mut seen = std::collections::HashSet::new();
            for g in &groups {
                let (min, max) = sizes(&g.family).unwrap();
                prop_assert!((min..=max).contains(&g.players) && g.members.len() <= g.players && !g.members.is_empty());
                for m in &g.members {
                    prop_assert!(seen.insert(m.account.clone()), "seated twice");
                    let me = q.iter().find(|x| x.account == m.account).unwrap();
                    prop_assert!((me.family.as_str(), me.rated) == (g.family.as_str(), g.rated));
                    prop_assert_eq!(m.promised, range(now - me.joined_ms));
                    for o in &g.members {
                        prop_assert!((m.mu - o.mu).abs() <= m.promised + 1e-9);
                        prop_assert!(!blocks.contains(&(m.account.clone(), o.account.clone())));
                    }
                }
            }
        }
    }
}
