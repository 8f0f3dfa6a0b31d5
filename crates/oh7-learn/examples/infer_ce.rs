//! Measures the cross-entropy of policy-based inference (`oh7_bots::infer`) against the uniform
//! sampler's on games of the expert: `cargo run --release -p oh7-learn --example infer_ce --
//! PRESET PLAYERS GAMES SEED K [EPS:BETA:GAMMA ...]`.

use oh7_bots::Bot;
use oh7_bots::hand_model::true_locations;
use oh7_bots::infer::{Evidence, Softness, bet_log_prob};
use oh7_bots::ismcts::IsmctsBot;
use oh7_bots::sample::Knowledge;
use oh7_core::card::CardSet;
use oh7_core::game::Game;
use oh7_core::oh7::{Action, Oh7Game, PhaseView};
use oh7_core::ruleset::Ruleset;
use oh7_learn::data::{inferred_nll, uniform_nll};
use oh7_sim::game_seed;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// One game's sums: NLL by kind for the uniform sampler then each softness, hidden cards by
/// kind, the bet model's log-likelihood over its grid, and the bets it was fitted on.
type Sums = (Vec<[f64; 2]>, [f64; 2], Vec<f64>, f64);

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let rules = Ruleset::preset(a[0].parse().expect("a preset"));
    let n: usize = a[1].parse().unwrap();
    let games: u64 = a[2].parse().unwrap();
    let seed: u64 = a[3].parse().unwrap();
    let k: u32 = a[4].parse().unwrap();
    let softs: Vec<Softness> = a[5..]
        .iter()
        .map(|s| {
            let x: Vec<f64> = s.split(':').map(|x| x.parse().unwrap()).collect();
            Softness { eps: x[0], beta: x[1], gamma: x[2] }
        })
        .collect();
    // Per game: [uniform, softs...] summed by kind (bets, plays), and hidden cards by kind.
    const BETAS: [f64; 7] = [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
    const GAMMAS: [f64; 5] = [-0.5, 0.0, 0.5, 1.0, 2.0];
    let per: Vec<Sums> = (0..games)
        .into_par_iter()
        .map(|i| {
            let s = game_seed(seed, i);
            let mut g = Oh7Game::new(rules, n, s).unwrap();
            let heur = std::env::var("BOTS").is_ok_and(|b| b == "heuristic");
            let mut bots: Vec<IsmctsBot> = (0..n).map(|p| IsmctsBot::expert(game_seed(s, p as u64 + 1))).collect();
            let mut hb = oh7_bots::heuristic::HeuristicBot;
            let mut rng = ChaCha8Rng::seed_from_u64(game_seed(s, 0xba5e));
            let mut sums = vec![[0.0; 2]; softs.len() + 1];
            let mut hidden = [0.0; 2];
            let mut fit = vec![0.0; BETAS.len() * GAMMAS.len()];
            let mut bets = 0.0;
            let mut legal = Vec::new();
            while let Some(seat) = g.to_move().lowest() {
                let view = g.view(seat);
                if view.round_number() > 2 {
                    break;
                }
                g.legal_actions(seat, &mut legal);
                let kind = match (view.phase(), legal[0]) {
                    (PhaseView::Betting { .. }, Action::Bet(_)) => Some(0usize),
                    (PhaseView::Playing, Action::Play(_)) => Some(1usize),
                    _ => None,
                };
                if let Some(kind) = kind {
                    let know = Knowledge::from_view(&view);
                    let hands: Vec<CardSet> =
                        (0..g.table_seats()).map(|q| if q < n { g.view(q).hand() } else { CardSet::EMPTY }).collect();
                    let truth = true_locations(&know, &hands);
                    hidden[kind] += truth.iter().filter(|t| t.is_some()).count() as f64;
                    sums[0][kind] += uniform_nll(&know, &truth, k, &mut rng);
                    let ev = Evidence::from_view(&view);
                    for (j, x) in inferred_nll(&know, &ev, &truth, k, &softs, &mut rng).into_iter().enumerate() {
                        sums[j + 1][kind] += x;
                    }
                }
                if let (Some(0), Action::Bet(_)) = (kind, legal[0]) {
                    let bettable = g.legal_bets(seat);
                    if bettable.len() > 1 {
                        bets += 1.0;
                        let a = if heur { hb.choose(&view, &legal) } else { bots[seat].choose(&view, &legal) };
                        let Action::Bet(card) = a else { unreachable!() };
                        for (bi, &beta) in BETAS.iter().enumerate() {
                            for (gi, &gamma) in GAMMAS.iter().enumerate() {
                                let soft = Softness { eps: 1.0, beta, gamma };
                                fit[bi * GAMMAS.len() + gi] +=
                                    bet_log_prob(&rules, view.hand(), bettable, g.table_seats(), card, soft);
                            }
                        }
                        g.apply(seat, a).unwrap();
                        continue;
                    }
                }
                let action = if heur { hb.choose(&view, &legal) } else { bots[seat].choose(&view, &legal) };
                g.apply(seat, action).unwrap();
            }
            (sums, hidden, fit, bets)
        })
        .collect();
    let mut sums = vec![[0.0; 2]; softs.len() + 1];
    let mut hidden = [0.0; 2];
    let mut fit = vec![0.0; BETAS.len() * GAMMAS.len()];
    let mut bets = 0.0;
    for (_, _, f, b) in &per {
        bets += b;
        for (a, x) in fit.iter_mut().zip(f) {
            *a += x;
        }
    }
    for (bi, beta) in BETAS.iter().enumerate() {
        let row: Vec<String> =
            (0..GAMMAS.len()).map(|gi| format!("{:.3}", -fit[bi * GAMMAS.len() + gi] / bets)).collect();
        println!("bet model beta {beta}: gamma {GAMMAS:?} -> nll per bet {}", row.join(" "));
    }
    for (s, h, _, _) in &per {
        for (a, b) in sums.iter_mut().zip(s) {
            a[0] += b[0];
            a[1] += b[1];
        }
        hidden[0] += h[0];
        hidden[1] += h[1];
    }
    let all = |x: &[f64; 2]| (x[0] + x[1]) / (hidden[0] + hidden[1]);
    let u = all(&sums[0]);
    println!("{} {n}: hidden cards {} (bets {}, plays {})", a[0], hidden[0] + hidden[1], hidden[0], hidden[1]);
    println!("uniform            all {:.4}  plays {:.4}", u, sums[0][1] / hidden[1]);
    for (j, soft) in softs.iter().enumerate() {
        let x = all(&sums[j + 1]);
        println!(
            "eps {:.2} beta {:.1} gamma {:.1}  all {:.4}  plays {:.4}  reduction {:.1}% (plays {:.1}%)",
            soft.eps,
            soft.beta,
            soft.gamma,
            x,
            sums[j + 1][1] / hidden[1],
            100.0 * (1.0 - x / u),
            100.0 * (1.0 - sums[j + 1][1] / sums[0][1])
        );
    }
}
