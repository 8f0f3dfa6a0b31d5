//! Training data and training for the learned bid evaluator (`oh7_bots::bet_model`, issue 56):
//! at every bet that stood (the last of its round, not dealt again), the features of the bet
//! from the bettor's view and the points the bettor then scored in the round, having played
//! for that bet (`oh7 learn data --bets`, `oh7 learn train --kind bet`).
//!
//! With `--explore-bets P` a bet is, with probability `P`, a legal bet drawn uniformly instead
//! of the bot's, and the bot then plays the round for it: the evaluator learns what each bet
//! scores, not only what the bot's own choices score.

use std::path::Path;

use oh7_bots::Bot;
use oh7_bots::bet_model::{BET_FEATURES, POINT_BINS, POINTS_MAX, POINTS_MIN, bet_features, bin_of};
use oh7_core::game::Game;
use oh7_core::oh7::{Action, Oh7Game, PhaseView};
use oh7_sim::game_seed;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::LearnError;
use crate::data::{Column, Columns, DataMeta, DataPlan, each_game, join_files, write_tensors};
use crate::train::{Batch, Epoch, TrainPlan, fit};

/// The format's name, in every bet file's metadata.
pub const BET_FORMAT: &str = "oh7-learn-bets/1";

/// One row per bet that stood: its features, the round's points of the bettor, whether the bet
/// was drawn at random (explored), and the game.
#[derive(Clone, Debug, Default)]
pub struct BetRows {
    /// [`BET_FEATURES`] per row.
    pub feats: Vec<f32>,
    /// The bettor's points in the round (the rebid bonus included), unclipped.
    pub points: Vec<i32>,
    /// 1 where the bet was drawn at random.
    pub explored: Vec<u8>,
    /// Game index in the run.
    pub game: Vec<u32>,
}

impl BetRows {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    fn append(&mut self, mut o: BetRows) {
        self.feats.append(&mut o.feats);
        self.points.append(&mut o.points);
        self.explored.append(&mut o.explored);
        self.game.append(&mut o.game);
    }
}

/// The bet rows of `plan`'s games (its shard, or all), in game order; each bet explored with
/// probability `plan.explore_bets`.
pub fn generate_bets(plan: &DataPlan, progress: &(dyn Fn(u64) + Sync)) -> Result<BetRows, LearnError> {
    Oh7Game::new(plan.rules, plan.players, 0).map_err(|e| LearnError::Plan(e.to_string()))?;
    if plan.bots.is_empty() {
        return Err(LearnError::Plan("no bots: give at least one level".into()));
    }
    if !(0.0..=1.0).contains(&plan.explore_bets) {
        return Err(LearnError::Plan("--explore-bets is a probability, from 0 to 1".into()));
    }
    for b in &plan.bots {
        oh7_bots::oh7_bot(b, 0).map_err(|e| LearnError::Plan(e.to_string()))?;
    }
    let mut rows = BetRows::default();
    for p in each_game(plan, progress, bet_game).map_err(LearnError::Game)? {
        rows.append(p);
    }
    Ok(rows)
}

fn bet_game(plan: &DataPlan, i: u64) -> Result<BetRows, String> {
    let s = game_seed(plan.seed, i);
    let mut g = Oh7Game::new(plan.rules, plan.players, s).map_err(|e| e.to_string())?;
    let n = plan.players;
    let mut bots: Vec<Box<dyn Bot<Oh7Game>>> = (0..n)
        .map(|p| oh7_bots::oh7_bot(&plan.bots[(p + i as usize) % plan.bots.len()], game_seed(s, p as u64 + 1)))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let mut explore = ChaCha8Rng::seed_from_u64(game_seed(s, 0xbe7));
    let mut rows = BetRows::default();
    // Per row: its round, seat and bet card; a later bet of the same seat and round (a deal
    // dealt again) replaces it.
    let mut at: Vec<(u32, usize, oh7_core::card::Card)> = Vec::new();
    let mut legal = Vec::with_capacity(64);
    let mut x = vec![0.0f32; BET_FEATURES];
    let mut steps = 0u64;
    while let Some(seat) = g.to_move().lowest() {
        steps += 1;
        if steps > 1_000_000 {
            return Err(format!("game {i} did not end"));
        }
        let view = g.view(seat);
        let round = view.round_number();
        if plan.rounds > 0 && round > plan.rounds {
            break;
        }
        g.legal_actions(seat, &mut legal);
        let betting = matches!(view.phase(), PhaseView::Betting { .. }) && matches!(legal[0], Action::Bet(_));
        let explored = betting && legal.len() > 1 && explore.random::<f64>() < plan.explore_bets;
        let action =
            if explored { legal[explore.random_range(0..legal.len())] } else { bots[seat].choose(&view, &legal) };
        if betting && let Action::Bet(card) = action {
            if let Some(k) = at.iter().position(|&(r, p, _)| r == round && p == seat) {
                // The deal was dealt again: only the last bet of the round stands.
                at.remove(k);
                rows.feats.drain(k * BET_FEATURES..(k + 1) * BET_FEATURES);
                rows.points.remove(k);
                rows.explored.remove(k);
                rows.game.remove(k);
            }
            bet_features(&view, card, &mut x);
            rows.feats.extend_from_slice(&x);
            rows.points.push(0);
            rows.explored.push(u8::from(explored));
            rows.game.push(i as u32);
            at.push((round, seat, card));
        }
        g.apply(seat, action).map_err(|e| format!("game {i}: an action was refused: {e}"))?;
    }
    let past = g.view(0).past_rounds();
    let mut out = BetRows::default();
    for (k, &(round, p, card)) in at.iter().enumerate() {
        // A round cut short has no points; a bet that is not the round's final one did not stand.
        let Some(r) = past.iter().find(|r| r.number == round) else { continue };
        if r.bet_cards.get(p) != Some(&card) {
            continue;
        }
        out.feats.extend_from_slice(&rows.feats[k * BET_FEATURES..(k + 1) * BET_FEATURES]);
        out.points.push(r.points[p]);
        out.explored.push(rows.explored[k]);
        out.game.push(rows.game[k]);
    }
    Ok(out)
}

/// Write bet rows to `path` as safetensors with `meta` (its `format` set to [`BET_FORMAT`]).
pub fn write_bets(path: &Path, rows: &BetRows, meta: &DataMeta) -> Result<(), LearnError> {
    use safetensors::Dtype;
    let n = rows.len();
    let cols: Vec<Column> = vec![
        ("feats", Dtype::F32, vec![n, BET_FEATURES], rows.feats.iter().flat_map(|x| x.to_le_bytes()).collect()),
        ("points", Dtype::I32, vec![n], rows.points.iter().flat_map(|x| x.to_le_bytes()).collect()),
        ("explored", Dtype::U8, vec![n], rows.explored.clone()),
        ("game", Dtype::U32, vec![n], rows.game.iter().flat_map(|x| x.to_le_bytes()).collect()),
    ];
    let mut meta = meta.clone();
    meta.format = BET_FORMAT.into();
    write_tensors(path, &cols, &meta)
}

/// Bet rows read back from a file.
pub fn read_bets(path: &Path) -> Result<BetRows, LearnError> {
    let c = Columns::open(path, BET_FORMAT, "the bid evaluator")?;
    let rows = BetRows {
        feats: c.fours("feats", f32::from_le_bytes)?,
        points: c.fours("points", i32::from_le_bytes)?,
        explored: c.raw("explored")?,
        game: c.fours("game", u32::from_le_bytes)?,
    };
    let n = rows.points.len();
    if rows.feats.len() != n * BET_FEATURES || rows.explored.len() != n || rows.game.len() != n {
        return Err(c.uneven());
    }
    Ok(rows)
}

/// Read and join bet files (their games kept apart, as `oh7 learn train` does).
pub fn read_all_bets(files: &[std::path::PathBuf]) -> Result<BetRows, LearnError> {
    join_files(files, read_bets, |r| &mut r.game, BetRows::append)
}

fn bet_batch(rows: &BetRows, idx: &[usize]) -> Batch {
    let mut b = Batch { k: POINT_BINS, feats: Vec::new(), bias: Vec::new(), target: Vec::new() };
    for &k in idx {
        b.feats.extend_from_slice(&rows.feats[k * BET_FEATURES..(k + 1) * BET_FEATURES]);
        let hit = bin_of(rows.points[k]);
        for o in 0..POINT_BINS {
            b.bias.push(0.0);
            b.target.push(if o == hit { 1.0 } else { 0.0 });
        }
    }
    b
}

/// Train the bid evaluator on `rows` (rows of every tenth game held out); returns the best
/// epoch's weights (safetensors bytes) and the epochs' figures (nats per bet).
pub fn train_bets(
    rows: &BetRows,
    plan: &TrainPlan,
    report: &mut dyn FnMut(&Epoch),
) -> Result<(Vec<u8>, Vec<Epoch>), LearnError> {
    let all: Vec<usize> = (0..rows.len()).collect();
    let sizes = plan.sizes(BET_FEATURES, POINT_BINS);
    fit(&all, &|k| rows.game[k] % 10 == 9, &sizes, plan, &|idx| bet_batch(rows, idx), report)
}

/// The held-out figures of a bid evaluator: cross-entropy (nats per bet) against the true
/// points beside that of the points' empirical distribution over the training rows (a model
/// that reads nothing), the mean absolute error of the expected points beside the training
/// mean's, and the held-out rows.
pub fn evaluate_bets(net: &oh7_bots::bet_model::BetNet, rows: &BetRows) -> (f64, f64, f64, f64, usize) {
    let held: Vec<usize> = (0..rows.len()).filter(|&k| rows.game[k] % 10 == 9).collect();
    let train: Vec<usize> = (0..rows.len()).filter(|&k| rows.game[k] % 10 != 9).collect();
    let mut counts = [1.0f64; POINT_BINS];
    for &k in &train {
        counts[bin_of(rows.points[k])] += 1.0;
    }
    let total: f64 = counts.iter().sum();
    let mean: f64 = train.iter().map(|&k| f64::from(rows.points[k].clamp(POINTS_MIN, POINTS_MAX))).sum::<f64>()
        / train.len().max(1) as f64;
    let (mut ce, mut base, mut mae, mut base_mae) = (0.0, 0.0, 0.0, 0.0);
    let mut scratch = [Vec::new(), Vec::new()];
    let mut d = [0.0f64; POINT_BINS];
    for &k in &held {
        let hit = bin_of(rows.points[k]);
        net.points(&rows.feats[k * BET_FEATURES..(k + 1) * BET_FEATURES], &mut scratch, &mut d);
        ce -= d[hit].max(1e-12).ln();
        base -= (counts[hit] / total).ln();
        let e: f64 = d.iter().enumerate().map(|(o, p)| p * f64::from(POINTS_MIN + o as i32)).sum();
        let truth = f64::from(POINTS_MIN + hit as i32);
        mae += (e - truth).abs();
        base_mae += (mean - truth).abs();
    }
    let m = held.len().max(1) as f64;
    (ce / m, base / m, mae / m, base_mae / m, held.len())
}
