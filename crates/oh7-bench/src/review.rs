//! `oh7 bench review` and `oh7 bench review-signal`: the time to review whole games, and how
//! well the review tells a strong player from a weak one.

use std::time::Instant;

use anyhow::Result;
use oh7_bots::Level;
use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_review::ReviewLevel;
use oh7_review::{Review, ReviewOptions, review_oh7, review_record};
use serde_json::Value;

/// A finished game between bots, as a record: `levels` seat by seat (cycled), seeded.
pub fn bot_game(rules: Ruleset, players: usize, levels: &[&str], seed: u64) -> Result<Value> {
    let mut g = Oh7Game::new(rules, players, seed)?;
    let mut bots = (0..players)
        .map(|p| oh7_bots::oh7_bot(levels[p % levels.len()], seed.wrapping_mul(31).wrapping_add(p as u64)))
        .collect::<Result<Vec<_>, oh7_bots::BotError>>()
        .map_err(anyhow::Error::msg)?;
    oh7_bots::play_game(&mut g, &mut bots, 100_000)?;
    Ok(g.record())
}

/// Reviews `games` games (at least one), game `k` made by `make(k)` (not timed) and reviewed by
/// `review`, and prints the time a review took, the slowest, and the time per decision, under
/// `label`.
fn time_reviews(
    label: &str,
    games: usize,
    make: impl Fn(u64) -> Result<Value>,
    review: impl Fn(&Value) -> Result<Review>,
) -> Result<()> {
    let mut times = Vec::new();
    let mut decisions = 0;
    for k in 0..games.max(1) as u64 {
        let v = make(k)?;
        let t = Instant::now();
        let r = review(&v)?;
        times.push(t.elapsed().as_secs_f64());
        decisions += r.decisions.len();
    }
    let total: f64 = times.iter().sum();
    let max = times.iter().copied().fold(0.0, f64::max);
    println!(
        "  {label}: {:.2} s per game (max {max:.2} s, {} game(s)), {decisions} decisions, {:.0} ms per decision",
        total / times.len() as f64,
        times.len(),
        1000.0 * total / decisions.max(1) as f64
    );
    Ok(())
}

/// `oh7 bench review`: the time to review seat 0 of whole games between heuristic bots, a
/// four-player `en` game and a nine-player `bga` game.
pub fn bench(level: ReviewLevel, games: usize, hindsight: bool) -> Result<()> {
    let threads = rayon::current_num_threads();
    println!(
        "review of seat 0, reviewer {level}, hindsight {}, {threads} thread(s); games between heuristic bots",
        if hindsight { "on" } else { "off" }
    );
    let opts = ReviewOptions { level, hindsight, ..ReviewOptions::default() };
    for (preset, players) in [(Preset::En, 4), (Preset::Bga, 9)] {
        time_reviews(
            &format!("{preset} {players} players"),
            games,
            |k| bot_game(Ruleset::preset(preset), players, &[Level::Heuristic.name()], 1 + k),
            |v| Ok(review_oh7(v, 0, &opts, &|_, _| {})?),
        )?;
    }
    for players in [4, 8] {
        time_reviews(
            &format!("seven {players} players"),
            games,
            |k| seven_bot_game(players, &[Level::Heuristic.name()], 1 + k),
            |v| Ok(review_record(v, 0, &opts, &|_, _| {})?),
        )?;
    }
    Ok(())
}

/// A finished Seven game between bots, as a record: `levels` seat by seat (cycled), seeded.
pub fn seven_bot_game(players: usize, levels: &[&str], seed: u64) -> Result<Value> {
    let mut g = oh7_core::seven::SevenGame::new(oh7_core::seven::SevenRules::default(), players, seed)?;
    let mut bots = (0..players)
        .map(|p| oh7_bots::seven_bot(levels[p % levels.len()], seed.wrapping_mul(31).wrapping_add(p as u64)))
        .collect::<Result<Vec<_>, oh7_bots::BotError>>()
        .map_err(anyhow::Error::msg)?;
    oh7_bots::play_game(&mut g, &mut bots, 10_000_000)?;
    Ok(g.record())
}

/// Each of three seats' mean loss per decision and accuracy, over `games` seeded games (at most
/// `seconds` seconds) of `players` seats where `names` sit in three seats, rotated from game to
/// game, and heuristic bots in the others: game `k` is made by `make(levels, seed)` and each of
/// the three seats reviewed by `review(record, seat)`. Returns the games counted and, per name,
/// the losses and accuracies.
#[allow(clippy::type_complexity)]
fn signal_of(
    games: usize,
    players: usize,
    names: [&str; 3],
    seconds: f64,
    make: impl Fn(&[&str], u64) -> Result<Value>,
    review: impl Fn(&Value, usize) -> Result<Review>,
) -> Result<([Vec<f64>; 3], [Vec<f64>; 3])> {
    let mut per_game: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut acc: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let start = Instant::now();
    for k in 0..games {
        if start.elapsed().as_secs_f64() > seconds {
            break;
        }
        let shift = k % players;
        let mut levels = vec![Level::Heuristic.name(); players];
        for (i, n) in names.iter().enumerate() {
            levels[(i + shift) % players] = *n;
        }
        let v = make(&levels, 1000 + k as u64)?;
        for i in 0..3 {
            let r = review(&v, (i + shift) % players)?;
            if r.game.evaluated > 0 {
                per_game[i].push(r.game.loss_per_decision);
                acc[i].push(r.game.accuracy);
            }
        }
    }
    Ok((per_game, acc))
}

/// Print each name's mean loss per decision and accuracy with their 95% intervals.
fn print_signal(names: [&str; 3], per_game: &[Vec<f64>; 3], acc: &[Vec<f64>; 3]) {
    for i in 0..3 {
        let (m, h) = mean_ci(&per_game[i]);
        let (a, ah) = mean_ci(&acc[i]);
        println!("  {:>10}: loss/decision {m:.3} ± {h:.3}   accuracy {a:.1} ± {ah:.1}", names[i]);
    }
}

/// `oh7 bench review-signal`: seeded four-player `en` games where one seat is a random bot,
/// one the heuristic, one `expert_level` (the fourth a heuristic), rotated through the seats;
/// each of the three reviewed; the mean expected points lost per decision of each with a 95%
/// interval over games. Stops after `games` games or `seconds` seconds. Then the same for
/// four-player Seven games (random, heuristic and `search`; percentage points lost), the same
/// limits again.
pub fn signal(games: usize, level: ReviewLevel, expert_level: &str, seconds: f64) -> Result<()> {
    let opts = ReviewOptions { level, hindsight: false, ..ReviewOptions::default() };
    let names = [Level::Random.name(), Level::Heuristic.name(), expert_level];
    let start = Instant::now();
    let (per_game, acc) = signal_of(
        games,
        4,
        names,
        seconds,
        |levels, seed| bot_game(Ruleset::preset(Preset::En), 4, levels, seed),
        |v, seat| Ok(review_oh7(v, seat, &opts, &|_, _| {})?),
    )?;
    println!(
        "signal check: {} en games (4 players), reviewer {level}, {:.0} s; mean over games of each seat's expected points lost per decision (95% interval), accuracy",
        per_game[0].len(),
        start.elapsed().as_secs_f64()
    );
    print_signal(names, &per_game, &acc);
    let names = [Level::Random.name(), Level::Heuristic.name(), Level::Search.name()];
    let start = Instant::now();
    let (per_game, acc) = signal_of(
        games,
        4,
        names,
        seconds,
        |levels, seed| seven_bot_game(4, levels, seed),
        |v, seat| Ok(review_record(v, seat, &opts, &|_, _| {})?),
    )?;
    println!(
        "seven signal check: {} games (4 players), reviewer {level}, {:.0} s; percentage points lost per decision (95% interval), accuracy",
        per_game[0].len(),
        start.elapsed().as_secs_f64()
    );
    print_signal(names, &per_game, &acc);
    Ok(())
}

/// `oh7 bench review-share`: `games` seeded games of `level` in every seat at `preset` with
/// `players`, each seat reviewed by `reviewer` (no hindsight); per game, the expected points
/// lost per round on bets and on card play (summed over the seats, divided by seats and
/// rounds), and the bets' share of what was lost. Games run on every core; the figures are
/// means over games with 95% intervals.
pub fn share(preset: Preset, players: usize, games: usize, level: &str, reviewer: ReviewLevel) -> Result<()> {
    use rayon::prelude::*;
    let opts = ReviewOptions { level: reviewer, hindsight: false, ..ReviewOptions::default() };
    let start = Instant::now();
    let per_game: Vec<Result<(f64, f64, f64, usize)>> = (1..=games as u64)
        .into_par_iter()
        .map(|seed| {
            let v = bot_game(Ruleset::preset(preset), players, &[level], seed)?;
            let rounds = v["rounds"].as_array().map_or(1, |r| r.len().max(1));
            let (mut bets, mut play, mut other) = (0.0, 0.0, 0.0);
            for seat in 0..players {
                let r = review_oh7(&v, seat, &opts, &|_, _| {})?;
                for d in &r.decisions {
                    let loss = d.loss.unwrap_or(0.0);
                    match d.kind.as_str() {
                        "bet" => bets += loss,
                        "play" => play += loss,
                        _ => other += loss,
                    }
                }
            }
            let per = (players * rounds) as f64;
            Ok((bets / per, play / per, other / per, rounds))
        })
        .collect();
    let per_game: Vec<(f64, f64, f64, usize)> = per_game.into_iter().collect::<Result<_>>()?;
    let col = |f: fn(&(f64, f64, f64, usize)) -> f64| per_game.iter().map(f).collect::<Vec<f64>>();
    let (b, bh) = mean_ci(&col(|g| g.0));
    let (p, ph) = mean_ci(&col(|g| g.1));
    let (o, oh) = mean_ci(&col(|g| g.2));
    let shares = col(|g| if g.0 + g.1 > 0.0 { g.0 / (g.0 + g.1) } else { 0.0 });
    let (sh, shh) = mean_ci(&shares);
    let rounds: usize = per_game.iter().map(|g| g.3).sum();
    println!(
        "review share: {} {preset:?} games of {players} players, {rounds} rounds, {level} in every seat, reviewer {reviewer}, {:.0} s",
        per_game.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "  expected points lost per player and round: bets {b:.3} ± {bh:.3}, card play {p:.3} ± {ph:.3}, other {o:.3} ± {oh:.3}"
    );
    println!("  bets' share of what bets and card play lose: {:.1}% ± {:.1}%", 100.0 * sh, 100.0 * shh);
    Ok(())
}

fn mean_ci(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (m, f64::NAN);
    }
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, 1.96 * (var / n).sqrt())
}
