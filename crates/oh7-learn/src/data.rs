//! Training examples from seeded games (`oh7 learn data`): one row per bet or card-play
//! decision of every seat, written as safetensors (`docs/learning.md` gives the format).
//!
//! Game `i` of a run is dealt from `game_seed(seed, i)` and its bots are seeded from that, as in
//! `oh7 simulate`, so a shard `I/N` holds exactly the rows the whole run gives those games, and
//! the rows depend neither on the threads nor on the shards.

use std::path::Path;

use half::f16;
use oh7_bots::hand_model::{HAND_EXTRA, LOCS, allowed, hand_extra, true_locations};
use oh7_bots::infer::{Evidence, Softness};
use oh7_bots::ismcts::{IsmctsBot, IsmctsConfig};
use oh7_bots::sample::Knowledge;
use oh7_bots::{Bot, BotLevel, Level};
use oh7_core::GameId;
use oh7_core::card::{CARD_IDS, CardSet};
use oh7_core::game::Game;
use oh7_core::oh7::{Action, MAX_SEATS, Oh7Game, PhaseView};
use oh7_core::rl::{BET, OH7_ACTIONS, OH7_OBS, PLAY, encode, encode_oh7};
use oh7_core::ruleset::Ruleset;
use oh7_sim::{Shard, game_seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::LearnError;

/// The format's name, in every file's metadata.
pub const FORMAT: &str = "oh7-learn-data/1";

/// A run of games that makes training data.
#[derive(Clone, Debug)]
pub struct DataPlan {
    /// The rules.
    pub rules: Ruleset,
    /// Players.
    pub players: usize,
    /// Games in the whole run.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Bot levels, seat by seat, rotated one seat per game.
    pub bots: Vec<String>,
    /// Only these games of the run.
    pub shard: Option<Shard>,
    /// Deals per game at most (a game stops after this many rounds; 0: the whole game).
    pub rounds: u32,
    /// Samples of the uniform deal sampler per decision for its cross-entropy (0: none).
    pub baseline: u32,
    /// The bid evaluator's data (`--bets`): the probability that a bet is drawn at random
    /// instead of the bot's (0: never).
    pub explore_bets: f64,
}

/// What a data file says of itself (its safetensors metadata, `meta` as JSON).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DataMeta {
    /// [`FORMAT`].
    pub format: String,
    /// The preset's name (`custom` for a ruleset file).
    pub preset: String,
    /// The rules.
    pub rules: Ruleset,
    /// Players.
    pub players: usize,
    /// Games in the whole run, its seed, the bots and the shard.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Bot levels.
    pub bots: Vec<String>,
    /// `I/N`, if a shard.
    pub shard: Option<String>,
    /// Rounds per game at most (0: whole games).
    pub rounds: u32,
    /// Uniform sampler samples per decision.
    pub baseline: u32,
    /// The probability a bet was drawn at random (bet files; 0 elsewhere and in older files).
    #[serde(default)]
    pub explore_bets: f64,
}

/// Rows, column by column (the tensors of a data file).
#[derive(Clone, Debug, Default)]
pub struct Rows {
    /// Observations (`encode_oh7`, [`OH7_OBS`] per row), as F16 bits.
    pub obs: Vec<u16>,
    /// History (`hand_extra`, [`HAND_EXTRA`] per row), as F16 bits.
    pub extra: Vec<u16>,
    /// Legal action ids ([`OH7_ACTIONS`] per row, 0/1).
    pub mask: Vec<u8>,
    /// The location of each card the seat cannot place ([`CARD_IDS`] per row; 255: known).
    pub hidden: Vec<u8>,
    /// Where each card may be: bit `l` for location `l` ([`CARD_IDS`] per row).
    pub allowed: Vec<u16>,
    /// The search's root visits as a distribution over ids ([`OH7_ACTIONS`] per row; zero
    /// where no search decided), as F16 bits.
    pub visits: Vec<u16>,
    /// 1 where a search decided.
    pub searched: Vec<u8>,
    /// The search's value of its choice (points), 0 without one.
    pub value: Vec<f32>,
    /// The action id taken.
    pub action: Vec<u16>,
    /// The seat's points in the round of the decision.
    pub points: Vec<f32>,
    /// The uniform sampler's negative log-likelihood of the true deal's hidden cards (nats,
    /// summed over the hidden cards), `NaN` when not measured.
    pub uniform_nll: Vec<f32>,
    /// Game index in the run.
    pub game: Vec<u32>,
    /// Seat.
    pub seat: Vec<u8>,
    /// 0: a bet, 1: a card played.
    pub kind: Vec<u8>,
}

impl Rows {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.seat.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.seat.is_empty()
    }

    /// Add `o`'s rows after these.
    pub fn append(&mut self, mut o: Rows) {
        self.obs.append(&mut o.obs);
        self.extra.append(&mut o.extra);
        self.mask.append(&mut o.mask);
        self.hidden.append(&mut o.hidden);
        self.allowed.append(&mut o.allowed);
        self.visits.append(&mut o.visits);
        self.searched.append(&mut o.searched);
        self.value.append(&mut o.value);
        self.action.append(&mut o.action);
        self.points.append(&mut o.points);
        self.uniform_nll.append(&mut o.uniform_nll);
        self.game.append(&mut o.game);
        self.seat.append(&mut o.seat);
        self.kind.append(&mut o.kind);
    }
}

enum Player {
    Search(Box<IsmctsBot>),
    Other(Box<dyn Bot<Oh7Game>>),
}

fn player(level: &str, seed: u64) -> Result<Player, oh7_bots::BotError> {
    let parsed = BotLevel::parse(GameId::Oh7, level)?;
    Ok(match &parsed {
        BotLevel::Level(Level::Expert) => Player::Search(Box::new(IsmctsBot::expert(seed))),
        BotLevel::Level(Level::Ismcts) => Player::Search(Box::new(IsmctsBot::new(IsmctsConfig::default(), seed))),
        BotLevel::IsmctsWith(settings) => {
            Player::Search(Box::new(IsmctsBot::new(IsmctsConfig::parse(settings)?, seed)))
        }
        _ => Player::Other(oh7_bots::oh7_bot_of(&parsed, seed)?),
    })
}

fn f16s(out: &mut Vec<u16>, xs: &[f32]) {
    out.extend(xs.iter().map(|&x| f16::from_f32(x).to_bits()));
}

/// The games of `plan` (its shard, or all), played on the rayon pool; rows in game order.
/// `progress` is called with the number of games done.
pub fn generate(plan: &DataPlan, progress: &(dyn Fn(u64) + Sync)) -> Result<Rows, LearnError> {
    for b in &plan.bots {
        player(b, 0).map_err(|e| LearnError::Plan(e.to_string()))?;
    }
    if plan.bots.is_empty() {
        return Err(LearnError::Plan("no bots: give at least one level".into()));
    }
    Oh7Game::new(plan.rules, plan.players, 0).map_err(|e| LearnError::Plan(e.to_string()))?;
    let mut rows = Rows::default();
    for p in each_game(plan, progress, play_one).map_err(LearnError::Game)? {
        rows.append(p);
    }
    Ok(rows)
}

/// `one(plan, i)` for each game `i` of `plan` (its shard, or all) on the rayon pool, in game
/// order; `progress` is told the number of games done.
pub(crate) fn each_game<T: Send>(
    plan: &DataPlan,
    progress: &(dyn Fn(u64) + Sync),
    one: fn(&DataPlan, u64) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let (lo, hi) = match plan.shard {
        Some(s) => (plan.games * s.index / s.count, plan.games * (s.index + 1) / s.count),
        None => (0, plan.games),
    };
    let done = std::sync::atomic::AtomicU64::new(0);
    (lo..hi)
        .into_par_iter()
        .map(|i| {
            let r = one(plan, i);
            progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
            r
        })
        .collect()
}

/// The columns of a file of one format (a leaf value's or a bid evaluator's rows), read by
/// name.
pub(crate) struct Columns {
    bytes: Vec<u8>,
    path: std::path::PathBuf,
}

impl Columns {
    /// The file at `path`, refused unless its metadata says `format` (`reader` names what
    /// reads it, for the message).
    pub(crate) fn open(path: &Path, format: &str, reader: &str) -> Result<Columns, LearnError> {
        let bytes = std::fs::read(path).map_err(LearnError::open(path))?;
        let meta = read_meta(&bytes, path)?;
        if meta.format != format {
            return Err(LearnError::file(path, format!("format {} ({reader} reads {format})", meta.format)));
        }
        safetensors::SafeTensors::deserialize(&bytes).map_err(|e| LearnError::file(path, e))?;
        Ok(Columns { bytes, path: path.to_path_buf() })
    }

    /// The bytes of the tensor `name`.
    pub(crate) fn raw(&self, name: &str) -> Result<Vec<u8>, LearnError> {
        let st = safetensors::SafeTensors::deserialize(&self.bytes).map_err(|e| LearnError::file(&self.path, e))?;
        Ok(st.tensor(name).map_err(|_| LearnError::file(&self.path, format!("no tensor `{name}`")))?.data().to_vec())
    }

    /// The tensor `name` as 4-byte little-endian numbers.
    pub(crate) fn fours<T>(&self, name: &str, from: fn([u8; 4]) -> T) -> Result<Vec<T>, LearnError> {
        Ok(self.raw(name)?.chunks_exact(4).map(|x| from([x[0], x[1], x[2], x[3]])).collect())
    }

    /// The error of a file whose tensors do not agree in length.
    pub(crate) fn uneven(&self) -> LearnError {
        LearnError::file(&self.path, "tensors of different lengths")
    }
}

/// The rows of several files joined, the games of file `i` renumbered past those of the ones
/// before it (games of different files are different games; the held-out split, game % 10,
/// stays).
pub(crate) fn join_files<R: Default>(
    files: &[std::path::PathBuf],
    read: fn(&Path) -> Result<R, LearnError>,
    games: fn(&mut R) -> &mut Vec<u32>,
    append: fn(&mut R, R),
) -> Result<R, LearnError> {
    let mut all = R::default();
    for (i, f) in files.iter().enumerate() {
        let mut rows = read(f)?;
        for g in games(&mut rows).iter_mut() {
            *g = g.wrapping_add((i as u32) * 10_000_000);
        }
        append(&mut all, rows);
    }
    Ok(all)
}

/// The metadata of a data file's bytes (`path` for the messages).
pub(crate) fn read_meta(bytes: &[u8], path: &Path) -> Result<DataMeta, LearnError> {
    let (_, md) = safetensors::SafeTensors::read_metadata(bytes).map_err(|e| LearnError::file(path, e))?;
    md.metadata()
        .as_ref()
        .and_then(|m| m.get("meta"))
        .ok_or_else(|| LearnError::file(path, "not an oh7 data file (no meta)"))
        .and_then(|m| serde_json::from_str(m).map_err(|e| LearnError::file(path, format!("bad meta: {e}"))))
}

fn play_one(plan: &DataPlan, i: u64) -> Result<Rows, String> {
    let s = game_seed(plan.seed, i);
    let mut g = Oh7Game::new(plan.rules, plan.players, s).map_err(|e| e.to_string())?;
    let n = plan.players;
    let mut players: Vec<Player> = (0..n)
        .map(|p| player(&plan.bots[(p + i as usize) % plan.bots.len()], game_seed(s, p as u64 + 1)))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(s, 0xba5e));
    let mut rows = Rows::default();
    let mut rounds_of_rows: Vec<u32> = Vec::new();
    let mut legal = Vec::with_capacity(64);
    let mut obs = vec![0.0f32; OH7_OBS];
    let mut extra = vec![0.0f32; HAND_EXTRA];
    let mut steps = 0u64;
    while let Some(seat) = g.to_move().lowest() {
        steps += 1;
        if steps > 1_000_000 {
            return Err(format!("game {i} did not end"));
        }
        let round = g.view(seat).round_number();
        if plan.rounds > 0 && round > plan.rounds {
            break;
        }
        g.legal_actions(seat, &mut legal);
        let view = g.view(seat);
        let kind = match (view.phase(), legal[0]) {
            (PhaseView::Betting { .. }, Action::Bet(_)) => Some(0u8),
            (PhaseView::Playing, Action::Play(_)) => Some(1u8),
            _ => None,
        };
        let action = match &mut players[seat] {
            Player::Search(b) => b.choose(&view, &legal),
            Player::Other(b) => b.choose(&view, &legal),
        };
        if let Some(kind) = kind {
            let know = Knowledge::from_view(&view);
            encode_oh7(&view, seat, CardSet::EMPTY, &mut obs);
            hand_extra(&view, &know, &mut extra);
            f16s(&mut rows.obs, &obs);
            f16s(&mut rows.extra, &extra);
            let mut mask = [0u8; OH7_ACTIONS];
            for a in &legal {
                if let Some(id) = encode(*a) {
                    mask[id] = 1;
                }
            }
            rows.mask.extend_from_slice(&mask);
            let hands: Vec<CardSet> =
                (0..g.table_seats()).map(|q| if q < n { g.view(q).hand() } else { CardSet::EMPTY }).collect();
            let truth = true_locations(&know, &hands);
            for c in 0..CARD_IDS {
                rows.hidden.push(truth[c].unwrap_or(255));
                let bits = match oh7_core::card::Card::from_id(c as u8) {
                    Some(card) if truth[c].is_some() => {
                        let ok = allowed(&know, card, true);
                        let ok = if ok[truth[c].unwrap() as usize] { ok } else { allowed(&know, card, false) };
                        (0..LOCS).filter(|&l| ok[l]).fold(0u16, |b, l| b | (1 << l))
                    }
                    _ => 0,
                };
                rows.allowed.push(bits);
            }
            let mut visits = [0.0f32; OH7_ACTIONS];
            let mut value = 0.0;
            let mut searched = 0;
            if let Player::Search(b) = &players[seat] {
                let stats = b.root_stats();
                let total: u32 = stats.iter().map(|x| x.1).sum();
                if total > 0 {
                    searched = 1;
                    let base = if kind == 0 { BET } else { PLAY };
                    for &(card, v, _) in &stats {
                        visits[base + card.id() as usize] = v as f32 / total as f32;
                    }
                    let chosen = match action {
                        Action::Bet(c) | Action::Play(c) => c,
                        _ => unreachable!("a bet or a play"),
                    };
                    value = stats.iter().find(|x| x.0 == chosen).map_or(0.0, |x| x.2) as f32;
                }
            }
            f16s(&mut rows.visits, &visits);
            rows.searched.push(searched);
            rows.value.push(value);
            rows.action.push(encode(action).expect("a bet or a play has an id") as u16);
            rows.points.push(0.0);
            rows.uniform_nll.push(if plan.baseline > 0 {
                uniform_nll(&know, &truth, plan.baseline, &mut rng) as f32
            } else {
                f32::NAN
            });
            rows.game.push(i as u32);
            rows.seat.push(seat as u8);
            rows.kind.push(kind);
            rounds_of_rows.push(round);
        }
        g.apply(seat, action).map_err(|e| format!("game {i}: a bot's action was refused: {e}"))?;
    }
    // Each row's round points, once the rounds are scored.
    let past = g.view(0).past_rounds();
    for (k, &r) in rounds_of_rows.iter().enumerate() {
        let seat = rows.seat[k] as usize;
        rows.points[k] =
            past.iter().find(|p| p.number == r).map_or(0, |p| p.points.get(seat).copied().unwrap_or(0)) as f32;
    }
    // Rows of an unfinished round (a game cut short) have no points: drop them.
    let keep: Vec<bool> = rounds_of_rows.iter().map(|r| past.iter().any(|p| p.number == *r)).collect();
    if keep.iter().all(|&k| k) {
        return Ok(rows);
    }
    Ok(filter(&rows, &keep))
}

fn filter(rows: &Rows, keep: &[bool]) -> Rows {
    fn pick<T: Copy>(v: &[T], keep: &[bool], width: usize) -> Vec<T> {
        v.chunks(width).zip(keep).filter(|(_, k)| **k).flat_map(|(c, _)| c.iter().copied()).collect()
    }
    Rows {
        obs: pick(&rows.obs, keep, OH7_OBS),
        extra: pick(&rows.extra, keep, HAND_EXTRA),
        mask: pick(&rows.mask, keep, OH7_ACTIONS),
        hidden: pick(&rows.hidden, keep, CARD_IDS),
        allowed: pick(&rows.allowed, keep, CARD_IDS),
        visits: pick(&rows.visits, keep, OH7_ACTIONS),
        searched: pick(&rows.searched, keep, 1),
        value: pick(&rows.value, keep, 1),
        action: pick(&rows.action, keep, 1),
        points: pick(&rows.points, keep, 1),
        uniform_nll: pick(&rows.uniform_nll, keep, 1),
        game: pick(&rows.game, keep, 1),
        seat: pick(&rows.seat, keep, 1),
        kind: pick(&rows.kind, keep, 1),
    }
}

/// The uniform sampler's negative log-likelihood of the true places of the hidden cards:
/// each card's marginal estimated from `k` of its samples, smoothed by one sample's worth of
/// the room-proportional marginal (so a place it never drew in `k` has a finite cost).
pub fn uniform_nll(know: &Knowledge, truth: &[Option<u8>; CARD_IDS], k: u32, rng: &mut ChaCha8Rng) -> f64 {
    let mut counts = vec![[0f64; LOCS]; CARD_IDS];
    for _ in 0..k {
        let (hands, _) = know.sample(rng);
        add_draw(know, &hands, 1.0, &mut counts);
    }
    marginal_nll(know, truth, &counts, f64::from(k))
}

/// The policy-based inference's negative log-likelihood of the true places (`oh7_bots::infer`),
/// for each of `softs`: `k` draws of the uniform sampler, each weighted by how likely the
/// heuristic's model makes the other seats' bets and plays in it; each card's marginal is the
/// weighted share of the draws, smoothed as [`uniform_nll`]'s.
pub fn inferred_nll(
    know: &Knowledge,
    evidence: &Evidence,
    truth: &[Option<u8>; CARD_IDS],
    k: u32,
    softs: &[Softness],
    rng: &mut ChaCha8Rng,
) -> Vec<f64> {
    let draws: Vec<[CardSet; MAX_SEATS]> = (0..k).map(|_| know.sample(rng).0).collect();
    softs
        .iter()
        .map(|&soft| {
            let logw: Vec<f64> = draws.iter().map(|h| evidence.log_likelihood(h, soft)).collect();
            let top = logw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let w: Vec<f64> = logw.iter().map(|l| (l - top).exp()).collect();
            let total: f64 = w.iter().sum();
            let mut counts = vec![[0f64; LOCS]; CARD_IDS];
            for (h, wi) in draws.iter().zip(&w) {
                add_draw(know, h, wi * f64::from(k) / total, &mut counts);
            }
            marginal_nll(know, truth, &counts, f64::from(k))
        })
        .collect()
}

/// Adds `weight` to each unknown card's place in `hands`.
fn add_draw(know: &Knowledge, hands: &[CardSet; MAX_SEATS], weight: f64, counts: &mut [[f64; LOCS]]) {
    for c in know.unknown.iter() {
        let loc = (0..know.seats)
            .find(|&s| hands[s].contains(c))
            .map_or(oh7_bots::hand_model::REST, |s| (s + know.seats - know.me) % know.seats);
        counts[c.id() as usize][loc] += weight;
    }
}

/// The negative log-likelihood of the true places under marginals counted over `k` draws,
/// smoothed by one draw of the room-proportional marginal.
fn marginal_nll(know: &Knowledge, truth: &[Option<u8>; CARD_IDS], counts: &[[f64; LOCS]], k: f64) -> f64 {
    let mut room = [0f64; LOCS];
    for s in 0..know.seats {
        if s != know.me {
            room[(s + know.seats - know.me) % know.seats] = know.sizes[s].saturating_sub(know.known[s].len()) as f64;
        }
    }
    room[oh7_bots::hand_model::REST] = know.rest as f64;
    let mut nll = 0.0;
    for c in know.unknown.iter() {
        let id = c.id() as usize;
        let Some(t) = truth[id] else { continue };
        let ok = allowed(know, c, true);
        let ok = if ok[t as usize] { ok } else { allowed(know, c, false) };
        let total: f64 = (0..LOCS).filter(|&l| ok[l]).map(|l| room[l]).sum();
        let q = if total > 0.0 { room[t as usize] / total } else { 0.0 };
        let p = (counts[id][t as usize] + q) / (k + 1.0);
        nll -= p.max(1e-9).ln();
    }
    nll
}

/// Write rows to `path` as safetensors with `meta`.
pub fn write(path: &Path, rows: &Rows, meta: &DataMeta) -> Result<(), LearnError> {
    use safetensors::Dtype;
    let n = rows.len();
    fn bytes<T: Copy>(v: &[T], f: impl Fn(T) -> Vec<u8>) -> Vec<u8> {
        v.iter().flat_map(|&x| f(x)).collect()
    }
    let cols: Vec<Column> = vec![
        ("obs", Dtype::F16, vec![n, OH7_OBS], bytes(&rows.obs, |x| x.to_le_bytes().to_vec())),
        ("extra", Dtype::F16, vec![n, HAND_EXTRA], bytes(&rows.extra, |x| x.to_le_bytes().to_vec())),
        ("mask", Dtype::U8, vec![n, OH7_ACTIONS], rows.mask.clone()),
        ("hidden", Dtype::U8, vec![n, CARD_IDS], rows.hidden.clone()),
        ("allowed", Dtype::U16, vec![n, CARD_IDS], bytes(&rows.allowed, |x| x.to_le_bytes().to_vec())),
        ("visits", Dtype::F16, vec![n, OH7_ACTIONS], bytes(&rows.visits, |x| x.to_le_bytes().to_vec())),
        ("searched", Dtype::U8, vec![n], rows.searched.clone()),
        ("value", Dtype::F32, vec![n], bytes(&rows.value, |x| x.to_le_bytes().to_vec())),
        ("action", Dtype::U16, vec![n], bytes(&rows.action, |x| x.to_le_bytes().to_vec())),
        ("points", Dtype::F32, vec![n], bytes(&rows.points, |x| x.to_le_bytes().to_vec())),
        ("uniform_nll", Dtype::F32, vec![n], bytes(&rows.uniform_nll, |x| x.to_le_bytes().to_vec())),
        ("game", Dtype::U32, vec![n], bytes(&rows.game, |x| x.to_le_bytes().to_vec())),
        ("seat", Dtype::U8, vec![n], rows.seat.clone()),
        ("kind", Dtype::U8, vec![n], rows.kind.clone()),
    ];
    write_tensors(path, &cols, meta)
}

/// One tensor to write: its name, type, shape and bytes.
pub(crate) type Column<'a> = (&'a str, safetensors::Dtype, Vec<usize>, Vec<u8>);

/// Write `cols` to `path` as safetensors with `meta` (replaced only once complete).
pub(crate) fn write_tensors(path: &Path, cols: &[Column<'_>], meta: &DataMeta) -> Result<(), LearnError> {
    use safetensors::tensor::TensorView;
    let views: Vec<(String, TensorView)> = cols
        .iter()
        .map(|(name, dt, shape, data)| {
            TensorView::new(*dt, shape.clone(), data)
                .map(|v| (name.to_string(), v))
                .map_err(|e| LearnError::file(path, format!("tensor `{name}`: {e}")))
        })
        .collect::<Result<_, _>>()?;
    let mut info = std::collections::HashMap::new();
    info.insert("meta".to_string(), serde_json::to_string(meta).map_err(|e| LearnError::file(path, e))?);
    let tmp = path.with_extension("partial");
    safetensors::serialize_to_file(views, Some(info), &tmp).map_err(|e| LearnError::file(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| LearnError::file(path, e))
}

/// Rows read back from a data file, with its metadata.
pub fn read(path: &Path) -> Result<(Rows, DataMeta), LearnError> {
    let bytes = std::fs::read(path).map_err(LearnError::open(path))?;
    let meta = read_meta(&bytes, path)?;
    if meta.format != FORMAT {
        return Err(LearnError::file(path, format!("format {} (this oh7 reads {FORMAT})", meta.format)));
    }
    let st = safetensors::SafeTensors::deserialize(&bytes).map_err(|e| LearnError::file(path, e))?;
    let raw = |name: &str, width: usize, size: usize| -> Result<Vec<u8>, LearnError> {
        let t = st.tensor(name).map_err(|_| LearnError::file(path, format!("no tensor `{name}`")))?;
        let n = t.shape().first().copied().unwrap_or(0);
        if t.data().len() != n * width * size || (width > 1 && t.shape().get(1) != Some(&width)) {
            return Err(LearnError::file(path, format!("tensor `{name}` has shape {:?}", t.shape())));
        }
        Ok(t.data().to_vec())
    };
    let u16s = |b: Vec<u8>| b.chunks_exact(2).map(|x| u16::from_le_bytes([x[0], x[1]])).collect::<Vec<u16>>();
    let f32s =
        |b: Vec<u8>| b.chunks_exact(4).map(|x| f32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect::<Vec<f32>>();
    let rows = Rows {
        obs: u16s(raw("obs", OH7_OBS, 2)?),
        extra: u16s(raw("extra", HAND_EXTRA, 2)?),
        mask: raw("mask", OH7_ACTIONS, 1)?,
        hidden: raw("hidden", CARD_IDS, 1)?,
        allowed: u16s(raw("allowed", CARD_IDS, 2)?),
        visits: u16s(raw("visits", OH7_ACTIONS, 2)?),
        searched: raw("searched", 1, 1)?,
        value: f32s(raw("value", 1, 4)?),
        action: u16s(raw("action", 1, 2)?),
        points: f32s(raw("points", 1, 4)?),
        uniform_nll: f32s(raw("uniform_nll", 1, 4)?),
        game: raw("game", 1, 4)?.chunks_exact(4).map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect(),
        seat: raw("seat", 1, 1)?,
        kind: raw("kind", 1, 1)?,
    };
    let n = rows.seat.len();
    if rows.obs.len() != n * OH7_OBS || rows.hidden.len() != n * CARD_IDS || rows.kind.len() != n {
        return Err(LearnError::file(path, "tensors of different lengths"));
    }
    Ok((rows, meta))
}

/// The input of row `k` (observation then history) as floats, into `out`.
pub fn input_of(rows: &Rows, k: usize, out: &mut [f32]) {
    let obs = &rows.obs[k * OH7_OBS..(k + 1) * OH7_OBS];
    let extra = &rows.extra[k * HAND_EXTRA..(k + 1) * HAND_EXTRA];
    for (o, &b) in out.iter_mut().zip(obs.iter().chain(extra)) {
        *o = f16::from_bits(b).to_f32();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_bots::hand_model::true_locations;
    use oh7_core::ruleset::Preset;

    /// A mid-round position of a seeded heuristic game: (game, seat to play).
    fn mid_round(seed: u64) -> (Oh7Game, usize) {
        let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, seed).unwrap();
        let mut bot = oh7_bots::heuristic::HeuristicBot;
        let mut legal = Vec::new();
        let mut plays = 0;
        loop {
            let s = g.to_move().lowest().unwrap();
            g.legal_actions(s, &mut legal);
            if matches!(legal[0], Action::Play(_)) {
                if plays == 10 {
                    return (g, s);
                }
                plays += 1;
            }
            let a = bot.choose(&g.view(s), &legal);
            g.apply(s, a).unwrap();
        }
    }

    #[test]
    fn inference_that_weighs_nothing_is_the_uniform_sampler() {
        let flat = Softness { eps: 1.0, beta: 0.0, gamma: 0.0 };
        let sharp = Softness { eps: 0.1, beta: 1.0, gamma: 0.0 };
        let (mut uniform, mut inferred) = (0.0, 0.0);
        for seed in 0..8 {
            let (g, s) = mid_round(seed);
            let view = g.view(s);
            let know = Knowledge::from_view(&view);
            let hands: Vec<CardSet> = (0..4).map(|q| g.view(q).hand()).collect();
            let truth = true_locations(&know, &hands);
            let u = uniform_nll(&know, &truth, 512, &mut ChaCha8Rng::seed_from_u64(seed));
            let ev = Evidence::from_view(&view);
            let x = inferred_nll(&know, &ev, &truth, 512, &[flat, sharp], &mut ChaCha8Rng::seed_from_u64(seed));
            assert!((x[0] - u).abs() < 1e-9, "{} vs {u}", x[0]);
            uniform += u;
            inferred += x[1];
        }
        // Heuristic players are explained by the heuristic's model: their cards are found better.
        assert!(inferred < 0.95 * uniform, "{inferred} vs {uniform}");
    }
}
