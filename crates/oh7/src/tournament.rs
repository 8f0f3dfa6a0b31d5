//! `oh7 tournament`: a duplicate tournament between bots (each deal replayed with the bots
//! rotated through the seats), on every core, with paired 95% confidence intervals; and the
//! bot benchmarks `oh7 bench solver` and `oh7 bench bot`.

use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use oh7_bots::level::LevelError;
use oh7_bots::{BotLevel, GameBots, GameSpec};
use oh7_sim::tournament::shard::{self, DealRow, Merged, ShardHeader, write_shard};
use oh7_sim::tournament::{self, Summary};
use serde_json::json;

use crate::GameArgs;
use crate::sim::Progress;
use oh7_core::GameId;

/// Arguments of `oh7 tournament`.
#[derive(Args, Debug)]
pub(crate) struct TournamentArgs {
    /// The game (`--game`) and its rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// Players at the table.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Deals to play (each is played once per rotation of the bots).
    #[arg(long, default_value_t = 200, value_parser = parse_deals)]
    pub deals: u64,
    /// Bots, comma-separated (seat s gets bot s mod k, then the seating rotates). Oh 7: random,
    /// beginner, heuristic, easy, medium, hard, ismcts, expert; for research
    /// `ismcts:KEY=VALUE:...` (keys: iterations, c, scale, rollout, exact, exact_nodes, spite,
    /// bet_tree, bet_factor, infer, evidence, evidence_pool, halving, hand, prior, value,
    /// value_bets, puct, keyed, guide, bet_noise, rollout_eps; see docs/bots.md and
    /// docs/learning.md), `mix:BETS:PLAY`, `hybrid:ITERATIONS`, `betnet=FILE`, `pimc` (the expert
    /// before 2026-11-25), and `oracle` (sees every hand; for measurement; `mix:oracle:PLAY` bets
    /// as the oracle and plays as PLAY; `mix:oracle-expert:PLAY` bets by the expert's search
    /// knowing every hand, `mix:oracle-playout:PLAY` the same with each bet played out by the
    /// heuristic).
    /// Seven: random, heuristic, search.
    #[arg(long, value_delimiter = ',', default_value = "heuristic,random")]
    pub bots: Vec<String>,
    /// Also report how much of the gap from bot LOW to bot HIGH bot MID closes, as a share of
    /// the paired difference HIGH − LOW with a 95% interval, e.g. `--gap heuristic,expert,oracle`.
    #[arg(long, value_delimiter = ',', num_args = 1, value_names = ["LOW,MID,HIGH"])]
    pub gap: Vec<String>,
    /// Rate every level instead: a round-robin of duplicate two-bot matches between all the
    /// game's levels (--deals deals each; --bots is not used), fitted to Bradley-Terry ratings
    /// on the Elo scale (random = 0) with 95% intervals.
    #[arg(long)]
    pub ratings: bool,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    /// Seed of the deals.
    #[arg(long, default_value = "1", value_parser = crate::parse_seed)]
    pub seed: u64,
    /// Play only shard I of N of the deals (0 <= I < N), the same deals as the one-process run,
    /// and write their results to --out; put the shards together with --merge.
    #[arg(long, value_name = "I/N", requires = "out")]
    pub shard: Option<oh7_sim::Shard>,
    /// The file a shard's results go to (JSON Lines: a header, then one line per deal).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<std::path::PathBuf>,
    /// Put shard files together (every shard of one tournament, or of one --ratings run, once)
    /// and report as the one-process run does: the same figures (decision times aside, and
    /// `seconds`: 0).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["shard", "ratings"])]
    pub merge: Vec<std::path::PathBuf>,
}

/// `--deals`: a whole number, at least 1.
fn parse_deals(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("a tournament plays at least 1 deal".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a whole number of deals")),
    }
}

/// The game of a tournament; for Oh 7 the ruleset must seat `--players`.
fn game_spec(args: &TournamentArgs) -> Result<GameSpec> {
    let game = args.game.spec()?;
    game.check_players(args.players).map_err(anyhow::Error::msg)?;
    Ok(game)
}

/// Run `oh7 tournament`.
pub(crate) fn run(args: &TournamentArgs) -> Result<()> {
    if !args.merge.is_empty() {
        return merge(args);
    }
    if args.ratings {
        return ratings(args);
    }
    if args.bots.len() < 2 {
        bail!("name at least two bots with --bots, e.g. --bots expert,heuristic");
    }
    let game = game_spec(args)?;
    let levels = game.levels();
    if args.bots.len() > args.players {
        bail!(
            "--bots names {} bots but the table has {} seats: name at most {} (each bot sits in every seat by rotation)",
            args.bots.len(),
            args.players,
            args.players
        );
    }
    for b in &args.bots {
        let level = BotLevel::parse(game.id(), b).map_err(|e| match e {
            LevelError::Unknown { .. } => {
                anyhow::anyhow!("unknown bot `{b}`: choose among {} (or oracle for Oh 7)", levels.join(", "))
            }
            LevelError::Form(form) => anyhow::anyhow!("bot `{b}`: {form}"),
        })?;
        // `mix:oracle:PLAY`: the oracle's bets, which only a tournament can seat; check PLAY.
        let level = match level {
            BotLevel::Mix(bets, play) if matches!(*bets, BotLevel::Oracle | BotLevel::OracleExpert { .. }) => *play,
            other => other,
        };
        if !level.is_offered()
            && level != BotLevel::Oracle
            && let Err(e) = oh7_bots::oh7_bot_of(&level, 0)
        {
            bail!("bot `{b}`: {e}");
        }
    }
    gap_seats(&args.gap, &args.bots)?;
    if let Some(out) = &args.out {
        crate::sim::check_out_folder("--out", out)?;
    }
    let rots = tournament::rotations(args.bots.len(), args.players).len();
    let start = Instant::now();
    let clock = move || start.elapsed().as_secs_f64();
    if let Some(shard) = args.shard {
        // One part of the tournament: its deals' results to a file, merged later.
        let out = args.out.as_ref().expect("clap requires --out with --shard");
        let (from, to) = shard.range(args.deals);
        let progress = Progress::new(to - from, "deals", "");
        let done = std::sync::atomic::AtomicU64::new(0);
        let tick = || progress.set(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
        let deals = tournament::play_deals(&game, args.players, from..to, &args.bots, args.seed, &tick, Some(&clock))
            .map_err(anyhow::Error::msg)?;
        progress.finish();
        let header = ShardHeader::new(
            &game,
            args.players,
            args.bots.clone(),
            args.seed,
            args.deals,
            (shard.index, shard.count),
            (from, to),
            false,
        );
        let rows = deals.into_iter().zip(from..).map(|(results, deal)| DealRow { deal, pair: None, results });
        write_shard(out, &header, rows)?;
        println!(
            "shard {} of {}: deals {from} to {} of {} ({rots} rotations each) in {:.1} s, written to {}",
            shard.index,
            shard.count,
            to - 1,
            args.deals,
            start.elapsed().as_secs_f64(),
            out.display()
        );
        return Ok(());
    }
    let progress = Progress::new(args.deals, "deals", "");
    let done = std::sync::atomic::AtomicU64::new(0);
    let tick = || progress.set(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    let summary = tournament::run(&game, args.players, args.deals, &args.bots, args.seed, &tick, Some(&clock))
        .map_err(anyhow::Error::msg)?;
    progress.finish();
    report(&summary, &game, args.players, &args.bots, args.seed, args, rots, start.elapsed().as_secs_f64())
}

/// The places in `bots` of `--gap`'s LOW, MID and HIGH (checked before any deal is played).
fn gap_seats(gap: &[String], bots: &[String]) -> Result<Option<(usize, usize, usize)>> {
    match gap {
        [] => Ok(None),
        [l, m, h] => {
            let find = |b: &String| {
                bots.iter()
                    .position(|x| x == b)
                    .ok_or_else(|| anyhow::anyhow!("--gap names `{b}`, which is not among the bots {}", bots.join(",")))
            };
            Ok(Some((find(l)?, find(m)?, find(h)?)))
        }
        _ => bail!("--gap takes three bots from --bots, LOW,MID,HIGH, e.g. --gap heuristic,expert,oracle"),
    }
}

/// Print a tournament's summary (text or JSON), with the gap share if `--gap` asks for it.
#[allow(clippy::too_many_arguments)]
fn report(
    summary: &Summary,
    game: &GameSpec,
    players: usize,
    bots: &[String],
    seed: u64,
    args: &TournamentArgs,
    rots: usize,
    secs: f64,
) -> Result<()> {
    let gap = gap_seats(&args.gap, bots)?;
    let what = format!("{} with {} players", game.label(), players);
    let closed = gap.map(|(l, m, h)| (l, m, h, tournament::gap_closed(summary, l, m, h)));
    if args.json {
        let mut v = to_json(summary, &what, seed, rots, secs);
        if let Some((l, m, h, r)) = closed {
            v["gap"] = json!({"low": bots[l], "mid": bots[m], "high": bots[h],
                "closed": r.map(|x| x.0), "ci95": r.map(|x| x.1)});
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_text(summary, &what, seed, rots, secs, game.id() == GameId::Seven);
        if let Some((l, m, h, r)) = closed {
            let (low, mid, high) = (&bots[l], &bots[m], &bots[h]);
            match r {
                Some((x, ci)) => {
                    let d = decimals(ci * 100.0);
                    println!(
                        "{mid} closes {:.d$}% ± {:.d$}% of the {low}-to-{high} gap (paired, 95% interval)",
                        x * 100.0,
                        ci * 100.0
                    )
                }
                None => println!("{mid} closes an undefined share of the {low}-to-{high} gap ({high} = {low})"),
            }
        }
    }
    Ok(())
}

/// `oh7 tournament --merge FILES...`: the shards of one tournament put back together in deal
/// order and summarised, exactly as the one-process run summarises them.
fn merge(args: &TournamentArgs) -> Result<()> {
    match shard::merge(&args.merge)? {
        Merged::Ratings { header: h, played } => {
            ratings_report(&h.spec, h.players, &h.bots, h.seed, h.deals, &played, args.json, 0.0)
        }
        Merged::Tournament { header: h, deals } => {
            let summary = tournament::summarise(&h.bots, &deals);
            let rots = tournament::rotations(h.bots.len(), h.players).len();
            report(&summary, &h.spec, h.players, &h.bots, h.seed, args, rots, 0.0)
        }
    }
}

fn to_json(s: &Summary, what: &str, seed: u64, rots: usize, secs: f64) -> serde_json::Value {
    json!({
        "table": what,
        "deals": s.deals,
        "rotations": rots,
        "seed": seed,
        "seconds": secs,
        "bots": s.bots.iter().map(|b| json!({
            "bot": b.name, "rounds": b.rounds, "mean": b.mean, "ci95": b.ci95,
            "success": b.success, "overshoot": b.overshoot, "shortfall": b.shortfall,
            "decision_ms_p50": b.p50_ms, "decision_ms_p95": b.p95_ms, "decisions": b.decisions,
        })).collect::<Vec<_>>(),
        "pairs": s.pairs.iter().map(|p| json!({"a": p.a, "b": p.b, "diff": p.diff, "ci95": p.ci95,
            "significant": (p.diff.abs() > p.ci95)})).collect::<Vec<_>>(),
    })
}

use oh7_stats::report::decimals;

/// `oh7 tournament --ratings`: every pair of levels plays `--deals` duplicate deals; the deal
/// wins are fitted to Bradley-Terry ratings.
fn ratings(args: &TournamentArgs) -> Result<()> {
    let game = game_spec(args)?;
    let names: Vec<String> = game.levels().iter().map(|s| s.to_string()).collect();
    let k = names.len();
    let pairs: Vec<[usize; 2]> = (0..k).flat_map(|a| (a + 1..k).map(move |b| [a, b])).collect();
    let (from, to) = args.shard.map_or((0, args.deals), |s| s.range(args.deals));
    let progress = Progress::new((to - from) * pairs.len() as u64, "deals", "");
    let done = std::sync::atomic::AtomicU64::new(0);
    let tick = || progress.set(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    let start = Instant::now();
    let mut played = Vec::new();
    for &[a, b] in &pairs {
        let two = vec![names[a].clone(), names[b].clone()];
        let deals = tournament::play_deals(&game, args.players, from..to, &two, args.seed, &tick, None)
            .map_err(anyhow::Error::msg)?;
        played.push(([a, b], deals));
    }
    progress.finish();
    if let Some(shard) = args.shard {
        // One part of every pair's match: a row per pair and deal, merged by --merge.
        let out = args.out.as_ref().expect("clap requires --out with --shard");
        let header = ShardHeader::new(
            &game,
            args.players,
            names.clone(),
            args.seed,
            args.deals,
            (shard.index, shard.count),
            (from, to),
            true,
        );
        let rows = played.iter().flat_map(|(pair, deals)| {
            deals.iter().zip(from..).map(|(results, deal)| DealRow {
                deal,
                pair: Some(*pair),
                results: results.clone(),
            })
        });
        write_shard(out, &header, rows)?;
        println!(
            "shard {} of {}: deals {from} to {} of {} for each of {} pairs of levels in {:.1} s, written to {}",
            shard.index,
            shard.count,
            to - 1,
            args.deals,
            pairs.len(),
            start.elapsed().as_secs_f64(),
            out.display()
        );
        return Ok(());
    }
    ratings_report(
        &game,
        args.players,
        &names,
        args.seed,
        args.deals,
        &played,
        args.json,
        start.elapsed().as_secs_f64(),
    )
}

/// Print the ratings of a round-robin: each pair's deals (`played`, pairs in order) fitted to
/// Bradley-Terry ratings.
#[allow(clippy::too_many_arguments)]
fn ratings_report(
    game: &GameSpec,
    players: usize,
    names: &[String],
    seed: u64,
    deals: u64,
    played: &[([usize; 2], Vec<Vec<tournament::SeatResult>>)],
    json_out: bool,
    secs: f64,
) -> Result<()> {
    let k = names.len();
    let mut wins = vec![vec![0.0; k]; k];
    let mut matches = Vec::new();
    for ([a, b], results) in played {
        let (a, b) = (*a, *b);
        let two = vec![names[a].clone(), names[b].clone()];
        let s = tournament::summarise(&two, results);
        let (wa, wb) = tournament::deal_wins(&s, 0, 1);
        wins[a][b] += wa;
        wins[b][a] += wb;
        matches.push(json!({"a": names[a], "b": names[b], "a_wins": wa, "b_wins": wb,
            "diff": s.pairs[0].diff, "ci95": s.pairs[0].ci95}));
    }
    let mut r = tournament::bradley_terry(names, &wins);
    r.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    let what = format!("{} with {} players", game.label(), players);
    if json_out {
        let v = json!({
            "table": what, "deals_per_pair": deals, "seed": seed, "seconds": secs,
            "ratings": r.iter().map(|x| json!({"bot": x.name, "elo": x.elo, "ci95": x.ci95})).collect::<Vec<_>>(),
            "matches": matches,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("ratings: {what}, round-robin of {k} levels, {deals} duplicate deals per pair, seed {seed}, {secs:.0} s");
    println!("Bradley-Terry on deals won (a tie counts half), Elo scale, random = 0, 95% interval");
    println!("{:<10} {:>14}", "level", "Elo");
    for x in &r {
        let d = decimals(x.ci95).min(1);
        let e = if x.ci95 > 0.0 { format!("{:+.d$} ± {:.d$}", x.elo, x.ci95) } else { format!("{:+.0}", x.elo) };
        println!("{:<10} {:>14}", x.name, e);
    }
    Ok(())
}

fn print_text(s: &Summary, what: &str, seed: u64, rots: usize, secs: f64, seven: bool) {
    println!("duplicate tournament: {what}, {} deals x {rots} rotations, seed {seed}, {secs:.1} s", s.deals);
    let unit = if seven { "rounds won" } else { "points/round" };
    let ms = |x: f64| if x.is_finite() { format!("{x:.1}") } else { "-".into() };
    if seven {
        println!("{:<10} {:>8} {:>20} {:>8} {:>8}", "bot", "rounds", unit, "p50 ms", "p95 ms");
    } else {
        println!(
            "{:<10} {:>8} {:>20} {:>12} {:>10} {:>10} {:>8} {:>8}",
            "bot", "rounds", unit, "bet success", "overshoot", "shortfall", "p50 ms", "p95 ms"
        );
    }
    for b in &s.bots {
        let m = plus_minus(b.mean, b.ci95, false);
        if seven {
            println!("{:<10} {:>8} {:>20} {:>8} {:>8}", b.name, b.rounds, m, ms(b.p50_ms), ms(b.p95_ms));
        } else {
            println!(
                "{:<10} {:>8} {:>20} {:>11.1}% {:>9.1}% {:>9.1}% {:>8} {:>8}",
                b.name,
                b.rounds,
                m,
                b.success * 100.0,
                b.overshoot * 100.0,
                b.shortfall * 100.0,
                ms(b.p50_ms),
                ms(b.p95_ms)
            );
        }
    }
    println!("paired differences per deal (A - B, 95% interval):");
    for p in &s.pairs {
        let sig = if p.diff.abs() > p.ci95 { "" } else { "  (not significant)" };
        println!("  {:<10} - {:<10} {}{sig}", p.a, p.b, plus_minus(p.diff, p.ci95, true));
    }
}

/// `mean ± half-width`, rounded to what the interval justifies; one deal has no interval
/// (`± -`, two decimals).
fn plus_minus(x: f64, ci95: f64, signed: bool) -> String {
    let (d, ci) =
        if ci95.is_finite() { (decimals(ci95), format!("{:.*}", decimals(ci95), ci95)) } else { (2, "-".into()) };
    if signed { format!("{x:+.d$} ± {ci}") } else { format!("{x:.d$} ± {ci}") }
}
