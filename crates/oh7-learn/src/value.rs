//! Training data and training for the learned leaf value (`oh7_bots::value`): at every card
//! played in seeded games, for each player, the features of the true position
//! ([`value_features`]) and the tricks it went on to win in that round (`oh7 learn data
//! --value`, `oh7 learn train --kind value`). Tables with the Dummy are not taken (its face-down
//! pile is not in the players' views).

use std::path::Path;

use oh7_bots::Bot;
use oh7_bots::pi::Position;
use oh7_bots::sample::position_from_view;
use oh7_bots::value::{OUTCOMES, VALUE_FEATURES, value_features};
use oh7_core::card::CardSet;
use oh7_core::game::Game;
use oh7_core::oh7::{Action, MAX_SEATS, Oh7Game, PhaseView, TRICKS};
use oh7_sim::game_seed;

use crate::LearnError;
use crate::data::{Column, Columns, DataMeta, DataPlan, each_game, join_files, write_tensors};
use crate::train::{Batch, Epoch, TrainPlan, fit};

/// The format's name, in every value file's metadata.
pub const VALUE_FORMAT: &str = "oh7-learn-value/1";

/// One row per player per card played: its features, the tricks it still won, the tricks that
/// were left, and the game.
#[derive(Clone, Debug, Default)]
pub struct ValueRows {
    /// [`VALUE_FEATURES`] per row.
    pub feats: Vec<f32>,
    /// Tricks the player won from the position to the end of the round.
    pub more: Vec<u8>,
    /// Tricks left in the position (the one in progress included).
    pub left: Vec<u8>,
    /// Game index in the run.
    pub game: Vec<u32>,
}

impl ValueRows {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.more.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.more.is_empty()
    }

    fn append(&mut self, mut o: ValueRows) {
        self.feats.append(&mut o.feats);
        self.more.append(&mut o.more);
        self.left.append(&mut o.left);
        self.game.append(&mut o.game);
    }
}

/// The value rows of `plan`'s games (its shard, or all), in game order.
pub fn generate_value(plan: &DataPlan, progress: &(dyn Fn(u64) + Sync)) -> Result<ValueRows, LearnError> {
    let g = Oh7Game::new(plan.rules, plan.players, 0).map_err(|e| LearnError::Plan(e.to_string()))?;
    if g.table_seats() != plan.players {
        return Err(LearnError::Plan("the leaf value learns from tables without the Dummy".into()));
    }
    if plan.bots.is_empty() {
        return Err(LearnError::Plan("no bots: give at least one level".into()));
    }
    let mut rows = ValueRows::default();
    for p in each_game(plan, progress, value_game).map_err(LearnError::Game)? {
        rows.append(p);
    }
    Ok(rows)
}

fn value_game(plan: &DataPlan, i: u64) -> Result<ValueRows, String> {
    let s = game_seed(plan.seed, i);
    let mut g = Oh7Game::new(plan.rules, plan.players, s).map_err(|e| e.to_string())?;
    let n = plan.players;
    let mut bots: Vec<Box<dyn Bot<Oh7Game>>> = (0..n)
        .map(|p| oh7_bots::oh7_bot(&plan.bots[(p + i as usize) % plan.bots.len()], game_seed(s, p as u64 + 1)))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let mut rows = ValueRows::default();
    // Per row: its round and its player (the target comes once the round is scored).
    let mut at: Vec<(u32, usize, u8)> = Vec::new();
    let mut legal = Vec::with_capacity(64);
    let mut x = [0.0f32; VALUE_FEATURES];
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
        if view.phase() == PhaseView::Playing
            && matches!(legal[0], Action::Play(_))
            && let Some(bets) = view.bets()
        {
            let mut hands = [CardSet::EMPTY; MAX_SEATS];
            for (q, h) in hands.iter_mut().enumerate().take(n) {
                *h = g.view(q).hand();
            }
            let pos: Position = position_from_view(&view, &hands, &[]);
            let mut b = [0u8; MAX_SEATS];
            b[..n].copy_from_slice(&bets[..n]);
            for p in 0..n {
                value_features(&pos, &b, n, p, &mut x);
                rows.feats.extend_from_slice(&x);
                rows.left.push(pos.tricks_left());
                rows.more.push(0);
                rows.game.push(i as u32);
                at.push((round, p, pos.won[p]));
            }
        }
        let action = bots[seat].choose(&view, &legal);
        g.apply(seat, action).map_err(|e| format!("game {i}: a bot's action was refused: {e}"))?;
    }
    let past = g.view(0).past_rounds();
    let mut keep = Vec::with_capacity(at.len());
    for (k, &(round, p, won)) in at.iter().enumerate() {
        match past.iter().find(|r| r.number == round) {
            Some(r) => {
                rows.more[k] = r.won[p].saturating_sub(won).min(TRICKS as u8);
                keep.push(true);
            }
            None => keep.push(false),
        }
    }
    if keep.iter().all(|&k| k) {
        return Ok(rows);
    }
    let mut out = ValueRows::default();
    for (k, _) in keep.iter().enumerate().filter(|(_, k)| **k) {
        out.feats.extend_from_slice(&rows.feats[k * VALUE_FEATURES..(k + 1) * VALUE_FEATURES]);
        out.more.push(rows.more[k]);
        out.left.push(rows.left[k]);
        out.game.push(rows.game[k]);
    }
    Ok(out)
}

/// Write value rows to `path` as safetensors with `meta` (its `format` set to [`VALUE_FORMAT`]).
pub fn write_value(path: &Path, rows: &ValueRows, meta: &DataMeta) -> Result<(), LearnError> {
    use safetensors::Dtype;
    let n = rows.len();
    let cols: Vec<Column> = vec![
        ("feats", Dtype::F32, vec![n, VALUE_FEATURES], rows.feats.iter().flat_map(|x| x.to_le_bytes()).collect()),
        ("more", Dtype::U8, vec![n], rows.more.clone()),
        ("left", Dtype::U8, vec![n], rows.left.clone()),
        ("game", Dtype::U32, vec![n], rows.game.iter().flat_map(|x| x.to_le_bytes()).collect()),
    ];
    let mut meta = meta.clone();
    meta.format = VALUE_FORMAT.into();
    write_tensors(path, &cols, &meta)
}

/// Value rows read back from a file.
pub fn read_value(path: &Path) -> Result<ValueRows, LearnError> {
    let c = Columns::open(path, VALUE_FORMAT, "the leaf value")?;
    let rows = ValueRows {
        feats: c.fours("feats", f32::from_le_bytes)?,
        more: c.raw("more")?,
        left: c.raw("left")?,
        game: c.fours("game", u32::from_le_bytes)?,
    };
    let n = rows.more.len();
    if rows.feats.len() != n * VALUE_FEATURES || rows.left.len() != n || rows.game.len() != n {
        return Err(c.uneven());
    }
    Ok(rows)
}

/// Read and join value files (their games kept apart, as `oh7 learn train` does).
pub fn read_values(files: &[std::path::PathBuf]) -> Result<ValueRows, LearnError> {
    join_files(files, read_value, |r| &mut r.game, ValueRows::append)
}

/// A batch of value rows: one softmax over the outcomes per row, those beyond the tricks left
/// masked out.
fn value_batch(rows: &ValueRows, idx: &[usize]) -> Batch {
    let mut b = Batch { k: OUTCOMES, feats: Vec::new(), bias: Vec::new(), target: Vec::new() };
    for &k in idx {
        b.feats.extend_from_slice(&rows.feats[k * VALUE_FEATURES..(k + 1) * VALUE_FEATURES]);
        for o in 0..OUTCOMES {
            b.bias.push(if o <= rows.left[k] as usize { 0.0 } else { -1e9 });
            b.target.push(if o == rows.more[k] as usize { 1.0 } else { 0.0 });
        }
    }
    b
}

/// Train the leaf value on `rows` (rows of every tenth game held out); returns the best epoch's
/// weights (safetensors bytes) and the epochs' figures (nats per row).
pub fn train_value(
    rows: &ValueRows,
    plan: &TrainPlan,
    report: &mut dyn FnMut(&Epoch),
) -> Result<(Vec<u8>, Vec<Epoch>), LearnError> {
    let all: Vec<usize> = (0..rows.len()).collect();
    let sizes = plan.sizes(VALUE_FEATURES, OUTCOMES);
    fit(&all, &|k| rows.game[k] % 10 == 9, &sizes, plan, &|idx| value_batch(rows, idx), report)
}

/// The held-out figures of a value network: cross-entropy (nats per row) against the true
/// tricks beside the cross-entropy of the empirical distribution of tricks by tricks left
/// (what a model that reads nothing of the position would do), and the mean absolute error of
/// the expected tricks.
pub fn evaluate_value(net: &oh7_bots::value::ValueNet, rows: &ValueRows) -> (f64, f64, f64, usize) {
    let held: Vec<usize> = (0..rows.len()).filter(|&k| rows.game[k] % 10 == 9).collect();
    let train: Vec<usize> = (0..rows.len()).filter(|&k| rows.game[k] % 10 != 9).collect();
    let mut counts = [[1.0f64; OUTCOMES]; OUTCOMES];
    for &k in &train {
        counts[rows.left[k] as usize][rows.more[k] as usize] += 1.0;
    }
    let (mut ce, mut base, mut mae) = (0.0, 0.0, 0.0);
    let mut scratch = [Vec::new(), Vec::new()];
    let mut d = [0.0f64; OUTCOMES];
    for &k in &held {
        let (left, more) = (rows.left[k] as usize, rows.more[k] as usize);
        net.tricks(&rows.feats[k * VALUE_FEATURES..(k + 1) * VALUE_FEATURES], left as u8, &mut scratch, &mut d);
        ce -= d[more].max(1e-12).ln();
        let row = &counts[left][..=left];
        base -= (row[more] / row.iter().sum::<f64>()).ln();
        let e: f64 = d.iter().enumerate().map(|(o, p)| o as f64 * p).sum();
        mae += (e - more as f64).abs();
    }
    let m = held.len().max(1) as f64;
    (ce / m, base / m, mae / m, held.len())
}
