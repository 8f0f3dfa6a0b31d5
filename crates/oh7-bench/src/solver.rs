//! `oh7 bench solver` and `oh7 bench bot`: the exact solver's time on real deals, and a bot's
//! time per decision.

use std::time::Instant;

use anyhow::{Result, bail};
use oh7_bots::pi::{Position, Scorer, Solver};
use oh7_bots::{Level, oh7_bot};
use oh7_core::game::Game;
use oh7_core::oh7::{Action, Oh7Game, PhaseView};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_sim::tournament::deal_seed;

fn pct(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return f64::NAN;
    }
    v[((v.len() as f64 - 1.0) * q).round() as usize]
}

/// What `oh7 bench solver` measures.
#[derive(Clone, Copy, Debug)]
pub struct SolverBench {
    /// Deals per table.
    pub deals: usize,
    /// Tricks left to solve (7: a full deal).
    pub tricks: u8,
    /// A deal that needs more nodes counts as unfinished.
    pub max_nodes: u64,
    /// Table size: 2^bits entries.
    pub table_bits: u32,
    /// Deals solved at once (each on one thread with its own table).
    pub threads: usize,
    /// Prune with the outcome sets ([`Solver::prune`]).
    pub prune: bool,
}

/// A deal as a real round reaches `tricks` tricks left: heuristic bots bet through the real
/// rules (every attempt, the leader and trump decisions) and play the tricks before; then
/// every hand is read off the game.
pub fn bench_deal(rules: Ruleset, players: usize, seed: u64, tricks: u8) -> Result<(Position, Scorer)> {
    let mut g = Oh7Game::new(rules, players, seed)?;
    let mut bots: Vec<_> = (0..players)
        .map(|s| oh7_bot(Level::Heuristic.name(), seed.wrapping_add(s as u64)))
        .collect::<Result<_, _>>()
        .map_err(anyhow::Error::msg)?;
    let mut legal = Vec::new();
    loop {
        let seat = g.to_move().lowest().expect("the round is not over");
        let view = g.view(seat);
        // The first decision once enough tricks are done: a leader's, or with the Dummy leading,
        // the first player's after its card (the position then holds the trick in progress).
        if view.phase() == PhaseView::Playing && 7 - view.tricks().len() <= tricks as usize {
            let hands = oh7_bots::expert::true_hands(&g);
            let pos = oh7_bots::sample::position_from_view(&view, &hands, g.dummy_pile());
            let scorer = Scorer::new(&rules, view.bet_cards().expect("bets are known in play"));
            return Ok((pos, scorer));
        }
        g.legal_actions(seat, &mut legal);
        let a = bots[seat].choose(&view, &legal);
        g.apply(seat, a)?;
    }
}

/// `oh7 bench solver`: time to solve deals exactly from `tricks` tricks left, per table; a
/// deal that needs more than `max_nodes` nodes counts as unfinished (slower than every
/// finished one).
pub fn bench_solver(b: SolverBench, tables: &[(Preset, usize)]) -> Result<()> {
    if b.deals == 0 {
        bail!("--deals must be at least 1");
    }
    for &(preset, players) in tables {
        Ruleset::preset(preset).check_players(players)?;
    }
    let what =
        if b.tricks == 7 { "a full deal (7 tricks)".to_string() } else { format!("the last {} tricks", b.tricks) };
    println!(
        "exact max^n solve of {what}, every hand known, {} deals a table (bets and earlier tricks by \
         heuristic bots), one thread a deal ({} at once), at most {} nodes a deal",
        b.deals, b.threads, b.max_nodes
    );
    let pool = rayon::ThreadPoolBuilder::new().num_threads(b.threads).build()?;
    let solvers: Vec<std::sync::Mutex<Solver>> =
        (0..b.threads).map(|_| std::sync::Mutex::new(Solver::new(b.table_bits))).collect();
    for &(preset, players) in tables {
        let rules = Ruleset::preset(preset);
        let started = Instant::now();
        let results: Vec<Result<(f64, u64, bool)>> = pool.install(|| {
            use rayon::prelude::*;
            (0..b.deals)
                .into_par_iter()
                .map(|d| {
                    // One table a pool thread, allocated once (rayon's map_init may make
                    // one per split, and a table can be gigabytes).
                    let mut solver = solvers[rayon::current_thread_index().unwrap_or(0)].lock().expect("a table");
                    let (pos, scorer) = bench_deal(rules, players, deal_seed(42, d as u64), b.tricks)?;
                    solver.set_scorer(scorer);
                    solver.reset_nodes();
                    solver.node_limit = b.max_nodes;
                    solver.prune = b.prune;
                    let t = Instant::now();
                    let _ = solver.solve(&pos);
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    let bets: Vec<String> = scorer.bets[..players].iter().map(|x| x.to_string()).collect();
                    if solver.aborted {
                        eprintln!(
                            "  {preset} {players}: deal {} (bets {}) unfinished after {ms:.0} ms",
                            d + 1,
                            bets.join(" ")
                        );
                    } else {
                        eprintln!(
                            "  {preset} {players}: deal {} (bets {}) solved in {ms:.1} ms, {} nodes",
                            d + 1,
                            bets.join(" "),
                            solver.nodes
                        );
                    }
                    Ok((ms, solver.nodes, solver.aborted))
                })
                .collect()
        });
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        let mut unfinished = 0;
        for r in results {
            let (ms, n, aborted) = r?;
            if aborted {
                unfinished += 1;
                times.push(f64::INFINITY);
                nodes.push(f64::INFINITY);
            } else {
                times.push(ms);
                nodes.push(n as f64);
            }
        }
        let max_nodes = b.max_nodes;
        let show = |x: f64| if x.is_finite() { format!("{x:.1} ms") } else { format!("> {max_nodes} nodes") };
        let (m, p95, max) = (pct(&mut times.clone(), 0.5), pct(&mut times.clone(), 0.95), pct(&mut times, 1.0));
        println!(
            "  {preset} {players} players: {} of {} solved; median {}, p95 {}, max {}; nodes median {} ({:.0} s)",
            b.deals - unfinished,
            b.deals,
            show(m),
            show(p95),
            show(max),
            match pct(&mut nodes, 0.5) {
                n if n.is_finite() => format!("{n:.0}"),
                _ => "unfinished".to_string(),
            },
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// `oh7 bench bot --level L`: time per decision of a bot (median and p95, one thread), over
/// the decisions it faces in whole rounds against heuristic bots.
pub fn bench_bot(level: &str, preset: Preset, players: usize, rounds: u64) -> Result<()> {
    let rules = Ruleset::preset(preset);
    rules.check_players(players)?;
    let mut bets = Vec::new();
    let mut plays = Vec::new();
    let mut legal: Vec<Action> = Vec::new();
    for r in 0..rounds {
        let seed = deal_seed(7, r);
        let mut g = Oh7Game::new(rules, players, seed)?;
        let mut bots: Vec<_> = (0..players)
            .map(|s| oh7_bot(if s == 0 { level } else { Level::Heuristic.name() }, seed + s as u64))
            .collect::<Result<_, _>>()
            .map_err(anyhow::Error::msg)?;
        while g.round_number() == 1 && !g.is_over() {
            let seat = g.to_move().lowest().expect("a seat");
            g.legal_actions(seat, &mut legal);
            let view = g.view(seat);
            let t = Instant::now();
            let a = bots[seat].choose(&view, &legal);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            if seat == 0 && legal.len() > 1 {
                match view.phase() {
                    PhaseView::Betting { .. } => bets.push(ms),
                    _ => plays.push(ms),
                }
            }
            g.apply(seat, a)?;
        }
    }
    let mut all: Vec<f64> = bets.iter().chain(plays.iter()).copied().collect();
    println!(
        "bot `{level}` in seat 0 of {preset} with {players} players (others heuristic), {rounds} rounds, one thread"
    );
    println!("  decisions with a choice: {} ({} bets, {} plays)", all.len(), bets.len(), plays.len());
    println!(
        "  all:   median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        pct(&mut all.clone(), 0.5),
        pct(&mut all.clone(), 0.95),
        pct(&mut all, 1.0)
    );
    println!("  bets:  median {:.2} ms, p95 {:.2} ms", pct(&mut bets.clone(), 0.5), pct(&mut bets, 0.95));
    println!("  plays: median {:.2} ms, p95 {:.2} ms", pct(&mut plays.clone(), 0.5), pct(&mut plays, 0.95));
    Ok(())
}
