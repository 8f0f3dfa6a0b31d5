//! `oh7._core.VecCore`: N games stepped by one call, for batched learning (`oh7.vector`,
//! `oh7.gym`). Each game has its seat to act; `step` takes one action id per game, applies them
//! all (in parallel over the cores), lets the built-in bots play their seats when a learner seat
//! is set, starts a new game where one ended (seeds per game), and fills flat buffers that
//! Python reads as numpy arrays: observations (`N × obs_len` float32), masks (`N × actions`
//! uint8), the seat to act (`N` int64), rewards (`N × players` float32) and game ends (`N`
//! uint8). The ids, masks and observations are exactly `Core`'s (`oh7_core::rl`).

use oh7_bots::{DynBot, GameBots, GameSpec};
use oh7_core::Seat;
use oh7_core::rl::RlEnv;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;

use crate::{bot_id, game_spec, rewards_since, value_error};

/// A bot playing one seat of one game, with the ids left of a multi-id decision (a pass).
struct SeatBot {
    bot: Box<dyn DynBot>,
    queue: Vec<usize>,
}

/// One game of the batch and what it needs between steps.
struct Slot {
    env: Box<dyn RlEnv>,
    /// The seed of the game being played.
    seed: u64,
    /// Games this slot has started (the next seed is derived from it).
    games: u64,
    totals: Vec<i64>,
    /// One bot per seat other than the learner's (empty without a learner).
    bots: Vec<Option<SeatBot>>,
    mask: Vec<bool>,
    /// The game this slot finished last (its record stays readable after the autoreset).
    last: Option<Box<dyn RlEnv>>,
}

/// N games of the same rules, stepped together. Used from the Python thread that made it (its
/// bots are not `Sync`); its own work spreads over every core.
#[pyclass(module = "oh7._core", unsendable)]
pub struct VecCore {
    spec: GameSpec,
    players: usize,
    seed: u64,
    win_reward: f64,
    /// The seat the caller plays in every game (the bots play the others), or `None`: the caller
    /// plays every seat (self-play).
    learner: Option<Seat>,
    /// Per seat, the built-in level that plays it inside Rust, or `None`: the caller plays it
    /// (the learner's seat, and any seat whose opponent is Python code).
    levels: Vec<Option<String>>,
    slots: Vec<Slot>,
    actions: usize,
    obs_len: usize,
    obs: Vec<f32>,
    mask: Vec<u8>,
    to_act: Vec<i64>,
    rewards: Vec<f32>,
    dones: Vec<u8>,
    /// The caller's arrays, when bound (`bind`): written in place of the five buffers above, so
    /// nothing is copied between Rust and numpy.
    bound: Option<Bound5>,
}

/// Addresses of five caller-owned arrays of the batch's sizes (obs, masks, to_act, rewards,
/// dones), which the caller keeps alive, contiguous and unmoved while bound (`oh7.vector`
/// does: it owns both the arrays and this object).
#[derive(Clone, Copy)]
struct Bound5 {
    obs: *mut f32,
    mask: *mut u8,
    to_act: *mut i64,
    rewards: *mut f32,
    dones: *mut u8,
}

// SAFETY: the addresses are only dereferenced during a call of the object that holds them,
// while its Python caller waits (the GIL released only for that call's own work).
unsafe impl Send for Bound5 {}

/// The five output buffers of one call.
struct Outs<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    to_act: &'a mut [i64],
    rewards: &'a mut [f32],
    dones: &'a mut [u8],
}

/// The seed of game `k` of slot `i` in a batch seeded `seed`: every game of every slot its own
/// (a SplitMix64 step over the three).
fn slot_seed(seed: u64, i: usize, k: u64) -> u64 {
    mix(seed ^ mix((k << 24) ^ i as u64))
}

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Slot {
    fn new(spec: &GameSpec, players: usize, seed: u64, levels: &[Option<String>]) -> PyResult<Slot> {
        let env = spec.rl_env(players, seed).map_err(value_error)?;
        let mut bots = Vec::with_capacity(players);
        for (s, level) in levels.iter().enumerate() {
            bots.push(match level {
                None => None,
                Some(level) => {
                    let bot = spec.bot(level, mix(seed ^ (s as u64 + 1))).map_err(value_error)?;
                    Some(SeatBot { bot, queue: Vec::new() })
                }
            });
        }
        let totals = env.game().totals();
        let mask = vec![false; env.actions()];
        Ok(Slot { env, seed, games: 1, totals, bots, mask, last: None })
    }

    /// The rewards since the last call, into `out` (one per seat; `rewards_since`).
    fn rewards(&mut self, win_reward: f64, out: &mut [f32]) {
        for (x, r) in out.iter_mut().zip(rewards_since(self.env.game(), &mut self.totals, win_reward)) {
            *x = r as f32;
        }
    }

    /// The seat to act's observation and mask into `obs` and `mask` (zeros and -1 when none).
    fn observe(&mut self, obs: &mut [f32], mask: &mut [u8], to_act: &mut i64) {
        match self.env.to_act() {
            Some(seat) => {
                self.env.observe(seat, obs);
                self.env.mask(seat, &mut self.mask);
                for (m, &b) in mask.iter_mut().zip(&self.mask) {
                    *m = u8::from(b);
                }
                *to_act = seat as i64;
            }
            None => {
                obs.fill(0.0);
                mask.fill(0);
                *to_act = -1;
            }
        }
    }

    /// Let the bots play until the learner's turn or the end.
    fn play_bots(&mut self) -> Result<(), String> {
        while let Some(seat) = self.env.to_act() {
            let Some(Some(b)) = self.bots.get_mut(seat) else { return Ok(()) };
            let id = bot_id(b.bot.as_mut(), &mut b.queue, self.env.as_mut(), seat, &mut self.mask)?;
            self.env.step(seat, id).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

impl VecCore {
    /// The output buffers: the caller's arrays when bound, else this object's own.
    fn outs(&mut self) -> Outs<'_> {
        let n = self.to_act.len();
        match self.bound {
            // SAFETY: `bind` checked the sizes; the caller keeps the arrays alive and unmoved
            // while bound (the contract of `bind`), and nothing else writes them during a call.
            Some(b) => unsafe {
                Outs {
                    obs: std::slice::from_raw_parts_mut(b.obs, n * self.obs_len),
                    mask: std::slice::from_raw_parts_mut(b.mask, n * self.actions),
                    to_act: std::slice::from_raw_parts_mut(b.to_act, n),
                    rewards: std::slice::from_raw_parts_mut(b.rewards, n * self.players),
                    dones: std::slice::from_raw_parts_mut(b.dones, n),
                }
            },
            None => Outs {
                obs: &mut self.obs,
                mask: &mut self.mask,
                to_act: &mut self.to_act,
                rewards: &mut self.rewards,
                dones: &mut self.dones,
            },
        }
    }

    /// Refill the observations, masks and seats to act from every slot.
    fn fill(&mut self) {
        let (ol, na) = (self.obs_len, self.actions);
        let mut slots = std::mem::take(&mut self.slots);
        let o = self.outs();
        let chunks = o.obs.par_chunks_mut(ol).zip(o.mask.par_chunks_mut(na)).zip(o.to_act.par_iter_mut());
        slots.par_iter_mut().zip(chunks).for_each(|(slot, ((obs, mask), to_act))| slot.observe(obs, mask, to_act));
        self.slots = slots;
    }
}

fn bytes_of<'py, T: Copy>(py: Python<'py>, v: &[T]) -> Bound<'py, PyBytes> {
    // SAFETY: only plain numbers (f32, u8, i64) are passed; they have no padding.
    let b = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) };
    PyBytes::new(py, b)
}

#[pymethods]
impl VecCore {
    #[new]
    #[pyo3(signature = (num_envs, game=None, preset=None, players=4, seed=0, ruleset=None, limit=None, hand_size=None, win_reward=1.0, learner=None, bots="heuristic", options=None, seat_levels=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        game: Option<&str>,
        preset: Option<&str>,
        players: usize,
        seed: u64,
        ruleset: Option<&str>,
        limit: Option<i64>,
        hand_size: Option<u32>,
        win_reward: f64,
        learner: Option<Seat>,
        bots: &str,
        options: Option<&Bound<'_, PyDict>>,
        seat_levels: Option<Vec<Option<String>>>,
    ) -> PyResult<VecCore> {
        if num_envs == 0 {
            return Err(value_error("num_envs must be at least 1"));
        }
        if let Some(l) = learner
            && l >= players
        {
            return Err(value_error(format!("learner seat {l}: this game has seats 0 to {}", players - 1)));
        }
        // Per seat: `seat_levels` as given (None: the caller's seat), else with a learner the
        // level `bots` in every other seat, else (self-play) the caller in every seat.
        let levels = match seat_levels {
            Some(l) if l.len() != players => {
                return Err(value_error(format!("seat_levels has {} entries: give {players}, one per seat", l.len())));
            }
            Some(l) => l,
            None => (0..players).map(|s| learner.filter(|&l| l != s).map(|_| bots.to_string())).collect(),
        };
        if let Some(l) = learner
            && levels[l].is_some()
        {
            return Err(value_error(format!("seat {l} is the learner's: its level must be None")));
        }
        let spec = game_spec(game, preset, ruleset, limit, hand_size, options)?;
        let mut slots = Vec::with_capacity(num_envs);
        for i in 0..num_envs {
            slots.push(Slot::new(&spec, players, slot_seed(seed, i, 0), &levels)?);
        }
        let (actions, obs_len) = (slots[0].env.actions(), slots[0].env.obs_len());
        let mut v = VecCore {
            spec,
            players,
            seed,
            win_reward,
            learner,
            levels,
            slots,
            actions,
            obs_len,
            obs: vec![0.0; num_envs * obs_len],
            mask: vec![0; num_envs * actions],
            to_act: vec![0; num_envs],
            rewards: vec![0.0; num_envs * players],
            dones: vec![0; num_envs],
            bound: None,
        };
        v.reset(Some(seed))?;
        Ok(v)
    }

    /// Start every game anew: game `k` of slot `i` is seeded from `seed` (default: the batch's),
    /// `i` and `k`, so one seed gives the same games every run. Bots play up to the learner's
    /// first turn.
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, seed: Option<u64>) -> PyResult<()> {
        if let Some(s) = seed {
            self.seed = s;
        }
        for i in 0..self.slots.len() {
            let s = slot_seed(self.seed, i, 0);
            let mut slot = Slot::new(&self.spec, self.players, s, &self.levels)?;
            slot.play_bots().map_err(value_error)?;
            slot.totals = slot.env.game().totals();
            self.slots[i] = slot;
        }
        let o = self.outs();
        o.rewards.fill(0.0);
        o.dones.fill(0);
        self.fill();
        Ok(())
    }

    /// Write the outputs into the caller's arrays from now on, given by address (numpy's
    /// `arr.ctypes.data`) and length in elements: obs float32 `N*obs_len`, masks uint8
    /// `N*num_actions`, to_act int64 `N`, rewards float32 `N*players`, dones uint8 `N`, each
    /// C-contiguous. The caller must keep them alive and unmoved as long as this object lives
    /// (`oh7.vector.BatchEnv` owns both). The current state is written into them at once.
    #[allow(clippy::too_many_arguments)]
    fn bind(
        &mut self,
        obs: (usize, usize),
        masks: (usize, usize),
        to_act: (usize, usize),
        rewards: (usize, usize),
        dones: (usize, usize),
    ) -> PyResult<()> {
        let n = self.slots.len();
        for (name, (addr, len), want, align) in [
            ("obs", obs, n * self.obs_len, 4),
            ("masks", masks, n * self.actions, 1),
            ("to_act", to_act, n, 8),
            ("rewards", rewards, n * self.players, 4),
            ("dones", dones, n, 1),
        ] {
            if len != want || addr == 0 || addr % align != 0 {
                return Err(value_error(format!(
                    "{name}: {len} elements at {addr:#x}; {want} aligned to {align} needed"
                )));
            }
        }
        let b = Bound5 {
            obs: obs.0 as *mut f32,
            mask: masks.0 as *mut u8,
            to_act: to_act.0 as *mut i64,
            rewards: rewards.0 as *mut f32,
            dones: dones.0 as *mut u8,
        };
        let (o, m, t, r, d) =
            (self.obs.clone(), self.mask.clone(), self.to_act.clone(), self.rewards.clone(), self.dones.clone());
        self.bound = Some(b);
        let out = self.outs();
        out.obs.copy_from_slice(&o);
        out.mask.copy_from_slice(&m);
        out.to_act.copy_from_slice(&t);
        out.rewards.copy_from_slice(&r);
        out.dones.copy_from_slice(&d);
        Ok(())
    }

    /// Games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// Players per game.
    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    /// Number of action ids.
    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// Floats per observation.
    #[getter]
    fn obs_len(&self) -> usize {
        self.obs_len
    }

    /// The learner's seat, if bots play the others.
    #[getter]
    fn learner(&self) -> Option<Seat> {
        self.learner
    }

    /// The seed of the game each slot is playing.
    fn seeds(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.seed).collect()
    }

    /// Apply one action id per game (`actions`: N native-endian int64 as bytes) for the seat to
    /// act in each. With `partial`, an id of -1 leaves its game as it is (its rewards row and
    /// `dones` entry are zero, its observation and mask unchanged): the Python opponents of
    /// `oh7.vector.BatchEnv` step only the games at their seats. Every id is checked against its
    /// game's own mask first (not the output arrays, which the caller may write): one that is
    /// not legal is refused (`ValueError` naming the game) and no game changes. Then, per game
    /// stepped: the built-in bots play their seats, rewards are summed, and a game that ended
    /// starts anew (its `dones` entry is 1, its observation the new game's first).
    #[pyo3(signature = (actions, partial=false))]
    fn step(&mut self, py: Python<'_>, actions: &[u8], partial: bool) -> PyResult<()> {
        let n = self.slots.len();
        if actions.len() != n * 8 {
            return Err(value_error(format!("{} bytes of actions: give {n} int64, one per game", actions.len())));
        }
        let ids: Vec<i64> =
            actions.chunks_exact(8).map(|c| i64::from_ne_bytes(c.try_into().expect("8 bytes"))).collect();
        let na = self.actions;
        for (i, (&id, slot)) in ids.iter().zip(&self.slots).enumerate() {
            if partial && id == -1 {
                continue;
            }
            let Some(known) = usize::try_from(id).ok().filter(|&id| id < na) else {
                return Err(PyValueError::new_err(format!(
                    "game {i}: {id} is not an action id (ids are 0 to {}); no game was stepped",
                    na - 1
                )));
            };
            let Some(seat) = slot.env.to_act() else {
                return Err(value_error(format!("game {i}: nobody is to act; no game was stepped")));
            };
            if !slot.mask[known] {
                return Err(PyValueError::new_err(format!(
                    "game {i}: action {id} is not legal for seat {seat} (its mask has {} legal ids); no game was stepped",
                    slot.mask.iter().filter(|&&m| m).count()
                )));
            }
        }
        let (win, players) = (self.win_reward, self.players);
        let seed = self.seed;
        let (spec, levels) = (self.spec.clone(), self.levels.clone());
        let (spec, levels) = (&spec, levels.as_slice());
        let (ol, na) = (self.obs_len, self.actions);
        let mut slots = std::mem::take(&mut self.slots);
        let o = self.outs();
        // One parallel pass per call: step, bots, rewards, a new game where one ended, and the
        // next observation and mask, each game into its own rows of the outputs.
        let rows = o
            .obs
            .par_chunks_mut(ol)
            .zip(o.mask.par_chunks_mut(na))
            .zip(o.to_act.par_iter_mut())
            .zip(o.rewards.par_chunks_mut(players))
            .zip(o.dones.par_iter_mut());
        let failed: Option<(usize, String)> = py.detach(|| {
            slots
                .par_iter_mut()
                .zip(ids.par_iter())
                .zip(rows)
                .enumerate()
                .map(|(i, ((slot, &id), ((((obs, mask), to_act), rewards), done)))| {
                    if id == -1 {
                        rewards.fill(0.0);
                        *done = 0;
                        return None;
                    }
                    let r = (|| {
                        let seat = slot.env.to_act().ok_or("the game is over")?;
                        slot.env.step(seat, id as usize).map_err(|e| e.to_string())?;
                        slot.play_bots()?;
                        slot.rewards(win, rewards);
                        *done = u8::from(slot.env.game().is_over());
                        if *done == 1 {
                            let s = slot_seed(seed, i, slot.games);
                            let games = slot.games + 1;
                            let new = Slot::new(spec, players, s, levels).map_err(|e| e.to_string())?;
                            let old = std::mem::replace(slot, new);
                            slot.last = Some(old.env);
                            slot.games = games;
                            slot.play_bots()?;
                            slot.totals = slot.env.game().totals();
                        }
                        slot.observe(obs, mask, to_act);
                        Ok::<(), String>(())
                    })();
                    r.err().map(|e| (i, e))
                })
                .find_any(|e| e.is_some())
                .flatten()
        });
        self.slots = slots;
        match failed {
            Some((i, e)) => Err(value_error(format!("game {i}: {e}"))),
            None => Ok(()),
        }
    }

    /// The observations of the seat to act in each game: N × obs_len native-endian float32.
    fn obs<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_of(py, self.outs().obs)
    }

    /// The masks of the seat to act in each game: N × num_actions bytes of 0/1.
    fn masks<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_of(py, self.outs().mask)
    }

    /// The seat to act in each game: N native-endian int64.
    fn seats_to_act<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_of(py, self.outs().to_act)
    }

    /// Every seat's reward from the last step: N × players native-endian float32.
    fn rewards<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_of(py, self.outs().rewards)
    }

    /// Which games ended at the last step (and started anew): N bytes of 0/1.
    fn dones<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_of(py, self.outs().dones)
    }

    /// All five buffers in one call: (obs, masks, to_act, rewards, dones).
    #[allow(clippy::type_complexity)]
    fn buffers<'py>(
        &mut self,
        py: Python<'py>,
    ) -> (Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let o = self.outs();
        (
            bytes_of(py, o.obs),
            bytes_of(py, o.mask),
            bytes_of(py, o.to_act),
            bytes_of(py, o.rewards),
            bytes_of(py, o.dones),
        )
    }

    /// The record of the game slot `i` is playing (JSON), or with `finished` the last game it
    /// finished (`None` before the first ends).
    #[pyo3(signature = (i, finished=false))]
    fn record_json(&self, i: usize, finished: bool) -> PyResult<Option<String>> {
        let n = self.slots.len();
        let slot = self.slots.get(i).ok_or_else(|| value_error(format!("game {i}: the batch has {n}")))?;
        Ok(if finished {
            slot.last.as_ref().map(|e| e.game().record().to_string())
        } else {
            Some(slot.env.game().record().to_string())
        })
    }
}
