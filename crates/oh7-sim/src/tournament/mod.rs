//! Duplicate tournaments: every deal is replayed with the bots rotated through the seats, so
//! each bot plays the same cards from every seat; bots are compared on paired per-deal
//! differences. Deals run in parallel on all cores (rayon); results do not depend on the
//! number of threads.
//!
//! A deal is one round of a fresh game seeded by the deal's seed (the Oh 7 family: the first
//! round, its redeals included; Seven: one round, its rules with `limit: None`). The game is a
//! [`GameSpec`]; the rounds themselves run on the generic [`Game`] interface.

use oh7_bots::BotLevel;
use oh7_core::GameId;
use oh7_core::game::{Game, Seat};
use oh7_core::oh7::{Action, Oh7Game};
use oh7_core::ruleset::Ruleset;
use oh7_core::seven::{SevenGame, SevenRules};
use rayon::prelude::*;

use oh7_bots::expert::OracleBot;
use oh7_bots::{Bot, GameSpec, oh7_bot, seven_bot};

pub mod shard;

/// The seed of deal `d` of a tournament seeded `seed` (splitmix64).
pub fn deal_seed(seed: u64, d: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(d + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A clock for measuring decision times, given by the caller (this crate reads no clock):
/// seconds since any fixed instant.
pub type Clock = dyn Fn() -> f64 + Sync;

/// One seat's result in one round.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeatResult {
    /// Index of the bot in the tournament's list.
    pub bot: usize,
    /// Points (Oh 7) or 1 for a round won (Seven; shared wins split).
    pub value: f64,
    /// Bet and tricks won (Oh 7).
    pub bet: u8,
    /// Tricks won (Oh 7).
    pub won: u8,
    /// The seat's decision times in this round, in milliseconds (empty without a clock).
    pub times: Vec<f32>,
}

/// The seating of rotation `r`: seat `s` gets bot `base[(s + r) % n]`, `base[s] = s % k`.
pub fn seating(bots: usize, players: usize, r: usize) -> Vec<usize> {
    (0..players).map(|s| ((s + r) % players) % bots).collect()
}

/// The distinct rotations (identical seatings are played once).
pub fn rotations(bots: usize, players: usize) -> Vec<usize> {
    let mut seen: Vec<Vec<usize>> = Vec::new();
    let mut out = Vec::new();
    for r in 0..players {
        let s = seating(bots, players, r);
        if !seen.contains(&s) {
            seen.push(s);
            out.push(r);
        }
    }
    out
}

enum Seat7 {
    Bot(Box<dyn Bot<Oh7Game>>),
    Oracle(Box<OracleBot>),
    /// `mix:oracle:PLAY`: the oracle's bets (it sees every hand), then `PLAY`'s card play: what
    /// a perfect knowledge of the deal at the bet is worth (for measurement).
    OracleBets(Box<OracleBot>, Box<dyn Bot<Oh7Game>>),
    /// `mix:oracle-expert:PLAY`: the expert's bet search on the true deal, then `PLAY`.
    ExpertKnowingBets(Box<oh7_bots::ismcts::IsmctsBot>, Box<dyn Bot<Oh7Game>>),
}

/// Play the first round of an Oh 7 deal with `names[seating[s]]` in seat `s`.
pub fn play_oh7_round(
    rules: Ruleset,
    players: usize,
    seed: u64,
    names: &[String],
    seating: &[usize],
    clock: Option<&Clock>,
) -> Result<Vec<SeatResult>, String> {
    let mut game = Oh7Game::new(rules, players, seed).map_err(|e| e.to_string())?;
    let mut times: Vec<Vec<f32>> = vec![Vec::new(); players];
    let mut seats: Vec<Seat7> = Vec::with_capacity(players);
    for (s, &b) in seating.iter().enumerate() {
        let bot_seed = deal_seed(seed ^ 0xb07, (s * 64 + b) as u64);
        seats.push(match BotLevel::parse(GameId::Oh7, &names[b]) {
            Ok(BotLevel::Oracle) => Seat7::Oracle(Box::new(OracleBot::new(bot_seed))),
            Ok(BotLevel::Mix(bets, play)) if *bets == BotLevel::Oracle => {
                let play = oh7_bots::oh7_bot_of(&play, bot_seed).map_err(|e| e.to_string())?;
                Seat7::OracleBets(Box::new(OracleBot::new(bot_seed)), play)
            }
            Ok(BotLevel::Mix(bets, play)) if matches!(*bets, BotLevel::OracleExpert { .. }) => {
                let play = oh7_bots::oh7_bot_of(&play, bot_seed).map_err(|e| e.to_string())?;
                let mut expert = oh7_bots::ismcts::IsmctsBot::expert(bot_seed);
                if *bets == (BotLevel::OracleExpert { playout: true }) {
                    expert.config_mut().bet_tree = false;
                }
                Seat7::ExpertKnowingBets(Box::new(expert), play)
            }
            _ => Seat7::Bot(oh7_bot(&names[b], bot_seed).map_err(|e| e.to_string())?),
        });
    }
    let mut legal: Vec<Action> = Vec::with_capacity(64);
    let mut steps = 0;
    while game.round_number() == 1 && !game.is_over() {
        let seat: Seat = game.to_move().lowest().expect("someone to move");
        game.legal_actions(seat, &mut legal);
        let t0 = clock.map(|c| c());
        let a = match &mut seats[seat] {
            Seat7::Bot(b) => b.choose(&game.view(seat), &legal),
            Seat7::Oracle(o) => o.choose_in(&game, seat, &legal),
            Seat7::ExpertKnowingBets(e, b) => match legal[0] {
                Action::Bet(_) if legal.len() > 1 => {
                    let hands = oh7_bots::expert::true_hands(&game);
                    let pile = game.dummy_pile().to_vec();
                    Action::Bet(e.bet_knowing(&game.view(seat), oh7_bots::heuristic::cards_of(&legal), hands, pile))
                }
                _ => b.choose(&game.view(seat), &legal),
            },
            Seat7::OracleBets(o, b) => match legal[0] {
                Action::Bet(_) => o.choose_in(&game, seat, &legal),
                _ => b.choose(&game.view(seat), &legal),
            },
        };
        if let (Some(c), Some(t0)) = (clock, t0) {
            times[seat].push(((c() - t0) * 1000.0) as f32);
        }
        game.apply(seat, a).map_err(|e| format!("seat {seat} ({}) chose {a}: {e}", names[seating[seat]]))?;
        steps += 1;
        if steps > 10_000 {
            return Err("the round did not end".into());
        }
    }
    let view = game.view(0);
    let r = view.past_rounds().into_iter().next().ok_or("no finished round")?;
    Ok((0..players)
        .map(|s| SeatResult {
            bot: seating[s],
            value: r.points[s] as f64,
            bet: r.bets[s],
            won: r.won[s],
            times: std::mem::take(&mut times[s]),
        })
        .collect())
}

/// Play one round of Seven (`rules` with `limit: None`) with `names[seating[s]]` in seat `s`.
pub fn play_seven_round(
    rules: &SevenRules,
    players: usize,
    seed: u64,
    names: &[String],
    seating: &[usize],
) -> Result<Vec<SeatResult>, String> {
    let rules = SevenRules { limit: None, ..rules.clone() };
    let mut game = SevenGame::new(rules, players, seed).map_err(|e| e.to_string())?;
    let mut bots: Vec<Box<dyn Bot<SevenGame>>> = Vec::with_capacity(players);
    for (s, &b) in seating.iter().enumerate() {
        bots.push(seven_bot(&names[b], deal_seed(seed ^ 0x5e7, (s * 64 + b) as u64)).map_err(|e| e.to_string())?);
    }
    oh7_bots::play_game(&mut game, &mut bots, 100_000).map_err(|e| e.to_string())?;
    let w = game.winners();
    Ok((0..players)
        .map(|s| SeatResult {
            bot: seating[s],
            value: if w.contains(&s) { 1.0 / w.len() as f64 } else { 0.0 },
            bet: 0,
            won: 0,
            times: Vec::new(),
        })
        .collect())
}

/// Per-bot results.
#[derive(Clone, Debug)]
pub struct BotSummary {
    /// The bot's name.
    pub name: String,
    /// Seat-rounds played.
    pub rounds: u64,
    /// Mean value per round (points per round, or rounds won).
    pub mean: f64,
    /// Half-width of its 95% confidence interval (over per-deal means).
    pub ci95: f64,
    /// Made bets / overshoots / shortfalls, as rates (Oh 7).
    pub success: f64,
    /// Won more than bet.
    pub overshoot: f64,
    /// Won fewer than bet.
    pub shortfall: f64,
    /// Median decision time in milliseconds (`NaN` without a clock).
    pub p50_ms: f64,
    /// 95th percentile of decision times in milliseconds.
    pub p95_ms: f64,
    /// Decisions timed.
    pub decisions: u64,
}

/// A paired comparison of two bots.
#[derive(Clone, Debug)]
pub struct PairSummary {
    /// Bot A.
    pub a: String,
    /// Bot B.
    pub b: String,
    /// Mean over deals of (A's mean − B's mean) on that deal.
    pub diff: f64,
    /// Half-width of its 95% confidence interval.
    pub ci95: f64,
}

/// A whole tournament's results.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Deals played.
    pub deals: u64,
    /// Per bot.
    pub bots: Vec<BotSummary>,
    /// Every pair (A listed before B).
    pub pairs: Vec<PairSummary>,
    /// Per deal, each bot's mean value over its seats in that deal (`None`: not seated).
    pub per_deal: Vec<Vec<Option<f64>>>,
}

/// How much of the gap from bot `low` to bot `high` bot `mid` closes: the ratio of the mean
/// paired differences `(mid − low) / (high − low)` over the deals where all three sat, with the
/// half-width of its 95% interval (delta method, with the two differences' covariance).
/// `None` when fewer than two deals have all three or the gap's mean is zero.
pub fn gap_closed(s: &Summary, low: usize, mid: usize, high: usize) -> Option<(f64, f64)> {
    let pairs: Vec<(f64, f64)> =
        s.per_deal.iter().filter_map(|m| Some((m[mid]? - m[low]?, m[high]? - m[low]?))).collect();
    let n = pairs.len() as f64;
    if pairs.len() < 2 {
        return None;
    }
    let (mx, my) = (pairs.iter().map(|p| p.0).sum::<f64>() / n, pairs.iter().map(|p| p.1).sum::<f64>() / n);
    if my == 0.0 {
        return None;
    }
    let cov = |f: &dyn Fn(&(f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / (n - 1.0);
    let vx = cov(&|p| (p.0 - mx) * (p.0 - mx));
    let vy = cov(&|p| (p.1 - my) * (p.1 - my));
    let cxy = cov(&|p| (p.0 - mx) * (p.1 - my));
    let r = mx / my;
    let var = (vx - 2.0 * r * cxy + r * r * vy) / (n * my * my);
    Some((r, 1.96 * var.max(0.0).sqrt()))
}

fn mean_ci(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let m = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (m, f64::NAN);
    }
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, 1.96 * (var / n).sqrt())
}

/// Summarise per-deal results (`deals[d]` = every seat-round of deal `d`).
pub fn summarise(names: &[String], deals: &[Vec<SeatResult>]) -> Summary {
    let k = names.len();
    let mut per_deal: Vec<Vec<Option<f64>>> = Vec::with_capacity(deals.len());
    let mut bots = Vec::new();
    for (b, name) in names.iter().enumerate() {
        let (mut rounds, mut made, mut over, mut short) = (0u64, 0u64, 0u64, 0u64);
        for d in deals {
            for r in d.iter().filter(|r| r.bot == b) {
                rounds += 1;
                match r.won.cmp(&r.bet) {
                    std::cmp::Ordering::Equal => made += 1,
                    std::cmp::Ordering::Greater => over += 1,
                    std::cmp::Ordering::Less => short += 1,
                }
            }
        }
        let means: Vec<f64> = deals
            .iter()
            .filter_map(|d| {
                let v: Vec<f64> = d.iter().filter(|r| r.bot == b).map(|r| r.value).collect();
                (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
            })
            .collect();
        let (mean, ci95) = mean_ci(&means);
        let rate = |x: u64| x as f64 / rounds.max(1) as f64;
        let mut times: Vec<f32> =
            deals.iter().flat_map(|d| d.iter().filter(|r| r.bot == b).flat_map(|r| r.times.iter().copied())).collect();
        times.sort_by(f32::total_cmp);
        let q = |p: f64| {
            if times.is_empty() { f64::NAN } else { times[((times.len() - 1) as f64 * p).round() as usize] as f64 }
        };
        bots.push(BotSummary {
            name: name.clone(),
            rounds,
            mean,
            ci95,
            success: rate(made),
            overshoot: rate(over),
            shortfall: rate(short),
            p50_ms: q(0.5),
            p95_ms: q(0.95),
            decisions: times.len() as u64,
        });
    }
    for d in deals {
        per_deal.push(
            (0..k)
                .map(|b| {
                    let v: Vec<f64> = d.iter().filter(|r| r.bot == b).map(|r| r.value).collect();
                    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
                })
                .collect(),
        );
    }
    let mut pairs = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let diffs: Vec<f64> = per_deal.iter().filter_map(|m| Some(m[a]? - m[b]?)).collect();
            let (diff, ci95) = mean_ci(&diffs);
            pairs.push(PairSummary { a: names[a].clone(), b: names[b].clone(), diff, ci95 });
        }
    }
    Summary { deals: deals.len() as u64, bots, pairs, per_deal }
}

/// One bot's rating from a round-robin.
#[derive(Clone, Debug)]
pub struct Rating {
    /// The bot.
    pub name: String,
    /// Elo points relative to the first bot (400 points: 10 to 1 odds of winning a deal).
    pub elo: f64,
    /// Half-width of its 95% interval (from the fit's information matrix).
    pub ci95: f64,
}

/// Bradley-Terry ratings from pairwise results: `wins[i][j]` is how many deals bot `i` beat bot
/// `j` (a tie counts half to each). Fitted by minorization-maximization (Hunter 2004) with one
/// virtual tie per pair (so an unbeaten bot still has a finite rating), shown on the Elo scale
/// with the first bot at 0; intervals from the inverse of the observed information.
pub fn bradley_terry(names: &[String], wins: &[Vec<f64>]) -> Vec<Rating> {
    let k = names.len();
    let w = |i: usize, j: usize| wins[i][j] + if i != j { 0.5 } else { 0.0 };
    let n = |i: usize, j: usize| if i == j { 0.0 } else { w(i, j) + w(j, i) };
    let mut p = vec![1.0f64; k];
    for _ in 0..10_000 {
        let mut next = vec![0.0; k];
        for i in 0..k {
            let won: f64 = (0..k).map(|j| if i == j { 0.0 } else { w(i, j) }).sum();
            let den: f64 = (0..k).filter(|&j| j != i).map(|j| n(i, j) / (p[i] + p[j])).sum();
            next[i] = if den > 0.0 { won / den } else { p[i] };
        }
        let g = (next.iter().map(|x| x.ln()).sum::<f64>() / k as f64).exp();
        let delta = (0..k).map(|i| (next[i] / g - p[i]).abs()).fold(0.0, f64::max);
        p = next.iter().map(|x| x / g).collect();
        if delta < 1e-12 {
            break;
        }
    }
    // Information for theta = ln p, the first bot fixed at 0.
    let m = k - 1;
    let mut a = vec![vec![0.0f64; 2 * m]; m];
    for i in 1..k {
        for j in 0..k {
            if i == j {
                continue;
            }
            let x = n(i, j) * p[i] * p[j] / ((p[i] + p[j]) * (p[i] + p[j]));
            a[i - 1][i - 1] += x;
            if j > 0 {
                a[i - 1][j - 1] -= x;
            }
        }
        a[i - 1][m + i - 1] = 1.0;
    }
    // Gauss-Jordan inverse.
    for c in 0..m {
        let piv = (c..m).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs())).unwrap_or(c);
        a.swap(c, piv);
        let d = a[c][c];
        if d.abs() < 1e-300 {
            continue;
        }
        for v in a[c].iter_mut() {
            *v /= d;
        }
        for r in 0..m {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    let row = a[c].clone();
                    for (x, y) in a[r].iter_mut().zip(row) {
                        *x -= f * y;
                    }
                }
            }
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    (0..k)
        .map(|i| Rating {
            name: names[i].clone(),
            elo: scale * (p[i] / p[0]).ln(),
            ci95: if i == 0 { 0.0 } else { 1.96 * scale * a[i - 1][m + i - 1].max(0.0).sqrt() },
        })
        .collect()
}

/// Deals won by `a` against `b` (and half the ties) in a two-bot summary's per-deal means.
pub fn deal_wins(s: &Summary, a: usize, b: usize) -> (f64, f64) {
    let mut w = (0.0, 0.0);
    for m in &s.per_deal {
        if let (Some(x), Some(y)) = (m[a], m[b]) {
            match x.total_cmp(&y) {
                std::cmp::Ordering::Greater => w.0 += 1.0,
                std::cmp::Ordering::Less => w.1 += 1.0,
                std::cmp::Ordering::Equal => {
                    w.0 += 0.5;
                    w.1 += 0.5;
                }
            }
        }
    }
    w
}

/// Run a duplicate tournament of `deals` deals; `progress` is called once per finished deal
/// (from any thread).
pub fn run(
    game: &GameSpec,
    players: usize,
    deals: u64,
    names: &[String],
    seed: u64,
    progress: &(dyn Fn() + Sync),
    clock: Option<&Clock>,
) -> Result<Summary, String> {
    Ok(summarise(names, &play_deals(game, players, 0..deals, names, seed, progress, clock)?))
}

/// Play deals `range` of a tournament seeded `seed` (each with every rotation of the bots), on
/// every core; returns each deal's seat-rounds, in deal order. Deal `d` is the same whichever
/// range it is played in, so a tournament cut into ranges (shards) and put back together in
/// deal order summarises to the same figures.
pub fn play_deals(
    game: &GameSpec,
    players: usize,
    range: std::ops::Range<u64>,
    names: &[String],
    seed: u64,
    progress: &(dyn Fn() + Sync),
    clock: Option<&Clock>,
) -> Result<Vec<Vec<SeatResult>>, String> {
    let rots = rotations(names.len(), players);
    range
        .into_par_iter()
        .map(|d| {
            let s = deal_seed(seed, d);
            let mut all = Vec::new();
            for &r in &rots {
                let seating = seating(names.len(), players, r);
                let mut res = match game {
                    GameSpec::Oh7 { ruleset } => play_oh7_round(*ruleset, players, s, names, &seating, clock)?,
                    GameSpec::Seven { rules } => play_seven_round(rules, players, s, names, &seating)?,
                };
                all.append(&mut res);
            }
            progress();
            Ok(all)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bettors that see the deal are seated with a player (`mix:BETTOR:PLAY`) and play a
    /// whole round; named alone, they are refused.
    #[test]
    fn the_bettors_that_see_the_deal_play_a_round_with_their_player() {
        let names: Vec<String> = ["mix:oracle-playout:heuristic", "mix:oracle:heuristic", "heuristic"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let rules = Ruleset::preset(oh7_core::ruleset::Preset::Kod7);
        let results = play_oh7_round(rules, 4, 11, &names, &[0, 1, 2, 2], None).expect("a round");
        assert_eq!(results.len(), 4);
        assert!(results.iter().all(|r| r.bet <= 7 && r.won <= 7));
        let alone = vec!["oracle-expert".to_string(), "heuristic".to_string()];
        let err = play_oh7_round(rules, 4, 11, &alone, &[0, 1, 0, 1], None).expect_err("refused");
        assert!(err.contains("mix:oracle-expert:PLAY"), "{err}");
    }

    #[test]
    fn rotations_put_every_bot_in_every_seat() {
        assert_eq!(rotations(2, 4), vec![0, 1]);
        assert_eq!(rotations(4, 4).len(), 4);
        assert_eq!(rotations(2, 5).len(), 5);
        for r in rotations(3, 4) {
            assert_eq!(seating(3, 4, r).len(), 4);
        }
    }

    #[test]
    fn ci_of_constant_differences_is_zero() {
        let names = vec!["a".to_string(), "b".to_string()];
        let deals: Vec<Vec<SeatResult>> = (0..10)
            .map(|i| {
                vec![
                    SeatResult { bot: 0, value: 3.0 + i as f64, bet: 1, won: 1, times: vec![] },
                    SeatResult { bot: 1, value: 1.0 + i as f64, bet: 2, won: 1, times: vec![] },
                ]
            })
            .collect();
        let s = summarise(&names, &deals);
        assert_eq!(s.pairs[0].diff, 2.0);
        assert_eq!(s.pairs[0].ci95, 0.0);
        assert_eq!(s.bots[0].success, 1.0);
        assert_eq!(s.bots[1].shortfall, 1.0);
    }

    /// Issue 19: bet success is the share of seat-rounds whose tricks equal the bet, counted
    /// here by hand on a small case; decision times give p50 and p95.
    #[test]
    fn bet_success_and_decision_times_on_a_hand_computed_case() {
        let names = vec!["a".to_string(), "b".to_string()];
        let r = |bot, bet, won, times: &[f32]| SeatResult { bot, value: 0.0, bet, won, times: times.to_vec() };
        let deals = vec![
            vec![r(0, 2, 2, &[1.0, 2.0]), r(1, 1, 0, &[10.0]), r(0, 0, 0, &[3.0]), r(1, 3, 4, &[20.0])],
            vec![r(0, 1, 2, &[4.0]), r(1, 2, 2, &[30.0]), r(0, 3, 3, &[5.0]), r(1, 0, 1, &[40.0])],
            vec![r(0, 4, 1, &[6.0, 7.0, 8.0, 9.0, 10.0]), r(1, 2, 2, &[50.0])],
        ];
        let s = summarise(&names, &deals);
        // a: made 2=2, 0=0, 3=3; over 1<2; short 4>1: 3 of 5.
        assert_eq!(s.bots[0].rounds, 5);
        assert!((s.bots[0].success - 3.0 / 5.0).abs() < 1e-12);
        assert!((s.bots[0].overshoot - 1.0 / 5.0).abs() < 1e-12);
        assert!((s.bots[0].shortfall - 1.0 / 5.0).abs() < 1e-12);
        // b: made 2=2 twice; short 1>0; over 3<4 and 0<1: 2 of 5.
        assert!((s.bots[1].success - 2.0 / 5.0).abs() < 1e-12);
        assert!((s.bots[1].overshoot - 2.0 / 5.0).abs() < 1e-12);
        // a's ten times 1..10: the median's index 4.5 rounds to 5 (6 ms), p95's 8.55 to 9 (10 ms).
        assert_eq!(s.bots[0].decisions, 10);
        assert_eq!(s.bots[0].p50_ms, 6.0);
        assert_eq!(s.bots[0].p95_ms, 10.0);
        assert_eq!(s.bots[1].p50_ms, 30.0);
    }

    #[test]
    fn bradley_terry_orders_and_spaces_the_bots() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        // b beats a 3 to 1 and c beats b 3 to 1 (c beats a 9 to 1): about 191 Elo per step.
        let wins = vec![vec![0.0, 100.0, 100.0], vec![300.0, 0.0, 100.0], vec![900.0, 300.0, 0.0]];
        let r = bradley_terry(&names, &wins);
        assert_eq!(r[0].elo, 0.0);
        assert!((r[1].elo - 190.8).abs() < 10.0, "{r:?}");
        assert!((r[2].elo - 381.7).abs() < 15.0, "{r:?}");
        assert!(r[1].ci95 > 0.0 && r[1].ci95 < 60.0, "{r:?}");
        // Equal records: equal ratings.
        let even = vec![vec![0.0, 50.0, 50.0], vec![50.0, 0.0, 50.0], vec![50.0, 50.0, 0.0]];
        let r = bradley_terry(&names, &even);
        assert!(r.iter().all(|x| x.elo.abs() < 1e-6), "{r:?}");
    }

    #[test]
    fn gap_closed_is_the_ratio_of_paired_differences() {
        let names: Vec<String> = ["low", "mid", "high"].iter().map(|s| s.to_string()).collect();
        // mid - low = 1 + e, high - low = 2 + 2e on every deal: the ratio is exactly 1/2.
        let deals: Vec<Vec<SeatResult>> = (0..20)
            .map(|i| {
                let e = (i % 5) as f64 * 0.1;
                vec![
                    SeatResult { bot: 0, value: 0.0, bet: 0, won: 0, times: vec![] },
                    SeatResult { bot: 1, value: 1.0 + e, bet: 0, won: 0, times: vec![] },
                    SeatResult { bot: 2, value: 2.0 + 2.0 * e, bet: 0, won: 0, times: vec![] },
                ]
            })
            .collect();
        let s = summarise(&names, &deals);
        let (r, ci) = gap_closed(&s, 0, 1, 2).unwrap();
        assert!((r - 0.5).abs() < 1e-12, "{r}");
        assert!(ci < 1e-9, "{ci}");
        // Noisy differences give a positive interval; no gap gives no ratio.
        let noisy: Vec<Vec<SeatResult>> = (0..20)
            .map(|i| {
                vec![
                    SeatResult { bot: 0, value: 0.0, bet: 0, won: 0, times: vec![] },
                    SeatResult { bot: 1, value: (i % 3) as f64, bet: 0, won: 0, times: vec![] },
                    SeatResult { bot: 2, value: 2.0 + (i % 2) as f64, bet: 0, won: 0, times: vec![] },
                ]
            })
            .collect();
        let (r, ci) = gap_closed(&summarise(&names, &noisy), 0, 1, 2).unwrap();
        assert!(r > 0.3 && r < 0.5 && ci > 0.05, "{r} {ci}");
        let flat: Vec<Vec<SeatResult>> = (0..5)
            .map(|_| (0..3).map(|b| SeatResult { bot: b, value: 1.0, bet: 0, won: 0, times: vec![] }).collect())
            .collect();
        assert!(gap_closed(&summarise(&names, &flat), 0, 1, 2).is_none());
    }
}
