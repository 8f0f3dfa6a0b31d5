//! `oh7._core`: the engine for Python. A thin layer over `oh7_core::rl::RlEnv` (fixed action
//! ids, masks, observations) and the built-in bots; the PettingZoo environment and the
//! OpenSpiel game (`oh7/env.py`, `oh7/spiel.py`) are written over it in Python.
//!
//! Observations and masks cross the boundary as `bytes` (native-endian `float32`, `uint8`),
//! which numpy reads without a copy; one Rust call per step and per observation.

mod spiel;
mod vector;

use oh7_bots::{DynBot, GameBots, GameSpec};
use oh7_core::card::{Card, CardSet};
use oh7_core::oh7::Oh7Game;
use oh7_core::registry::{GameId, GameRequest, OptionValue, request_options};
use oh7_core::rl::{Oh7Env, RlEnv};
use oh7_core::ruleset::Preset;
use oh7_core::{Game, Seat};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The game and its rules from the constructor's arguments, read by the registry as the server
/// and the command line read them: the game, a preset or a ruleset (TOML), and `key=value`
/// options laid over it (`options={"target": 21}`); Seven's `limit` and `hand_size` are two of
/// its options given by name (`limit=0`: a single round).
fn game_spec(
    game: Option<&str>,
    preset: Option<&str>,
    ruleset: Option<&str>,
    limit: Option<i64>,
    hand_size: Option<u32>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameSpec> {
    let mut given = Vec::new();
    for (key, value) in options.into_iter().flat_map(|d| d.iter()) {
        let key: String = key.extract().map_err(|_| value_error("an option's key is text (e.g. \"target\")"))?;
        // bool before int: Python's True is also an int.
        let value = if let Ok(b) = value.cast::<PyBool>() {
            OptionValue::Flag(b.is_true())
        } else if let Ok(n) = value.extract::<i64>() {
            OptionValue::Number(n)
        } else if let Ok(t) = value.extract::<String>() {
            OptionValue::Text(t)
        } else {
            return Err(value_error(format!("option {key}: give a bool, an int or a str")));
        };
        given.push((key, value));
    }
    let named =
        [("limit", limit.map(OptionValue::Number)), ("hand_size", hand_size.map(|h| OptionValue::Number(h.into())))];
    for (key, value) in named {
        if let Some(v) = value {
            if let OptionValue::Number(l) = v
                && l < 0
            {
                return Err(value_error(format!("{key} {l}: give a positive number (limit 0: a single round)")));
            }
            if game.is_none_or(|g| g != GameId::Seven.name()) {
                return Err(value_error("limit and hand_size are Seven's rules (game=\"seven\")"));
            }
            given.push((key.to_string(), v));
        }
    }
    let options = request_options(&given.into_iter().collect());
    GameSpec::from_request(&GameRequest { game, preset, ruleset, options: &options }).map_err(value_error)
}

/// One game as a learning environment: steps by action id for the seat asked, masks and
/// observations of any seat, rewards as the change of every seat's total.
#[pyclass(module = "oh7._core")]
pub struct Core {
    spec: GameSpec,
    players: usize,
    seed: u64,
    env: Box<dyn RlEnv>,
    /// Every step since the seeded deal, so a copy can be rebuilt (pickle); `None` once the deal
    /// was set by hand (`set_deal`, `swap_hands`) and the seed no longer rebuilds the game.
    steps: Option<Vec<(Seat, usize)>>,
    win_reward: f64,
    totals: Vec<i64>,
    mask: Vec<bool>,
    obs: Vec<f32>,
}

impl Core {
    /// A core over an environment made elsewhere (an OpenSpiel state's game).
    pub(crate) fn from_env(spec: GameSpec, env: Box<dyn RlEnv>, players: usize, seed: u64) -> Core {
        Core::build(spec, env, players, seed, None, 1.0)
    }

    fn build(
        spec: GameSpec,
        env: Box<dyn RlEnv>,
        players: usize,
        seed: u64,
        steps: Option<Vec<(Seat, usize)>>,
        win_reward: f64,
    ) -> Core {
        let mut core =
            Core { spec, players, seed, env, steps, win_reward, totals: Vec::new(), mask: Vec::new(), obs: Vec::new() };
        core.sync();
        core
    }

    fn sync(&mut self) {
        self.totals = self.env.game().totals();
        self.mask = vec![false; self.env.actions()];
        self.obs = vec![0.0; self.env.obs_len()];
    }

    fn check_seat(&self, seat: Seat) -> PyResult<()> {
        if seat >= self.players {
            return Err(PyIndexError::new_err(format!("seat {seat}: this game has seats 0..{}", self.players)));
        }
        Ok(())
    }

    fn oh7(&self) -> PyResult<&Oh7Env> {
        self.env.as_any().downcast_ref::<Oh7Env>().ok_or_else(|| value_error("only for game=\"oh7\""))
    }
}

#[pymethods]
impl Core {
    #[new]
    #[pyo3(signature = (game=None, preset=None, players=4, seed=0, ruleset=None, limit=None, hand_size=None, win_reward=1.0, options=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: Option<&str>,
        preset: Option<&str>,
        players: usize,
        seed: u64,
        ruleset: Option<&str>,
        limit: Option<i64>,
        hand_size: Option<u32>,
        win_reward: f64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Core> {
        let spec = game_spec(game, preset, ruleset, limit, hand_size, options)?;
        let env = spec.rl_env(players, seed).map_err(value_error)?;
        Ok(Core::build(spec, env, players, seed, Some(Vec::new()), win_reward))
    }

    /// Start a new game with the same rules from `seed`.
    fn reset(&mut self, seed: u64) -> PyResult<()> {
        self.env = self.spec.rl_env(self.players, seed).map_err(value_error)?;
        self.seed = seed;
        self.steps = Some(Vec::new());
        self.sync();
        Ok(())
    }

    /// The game's name (`oh7`, `seven`).
    #[getter]
    fn game(&self) -> &'static str {
        self.env.game().game_name()
    }

    /// Players (the Dummy not counted).
    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    /// The seed of the current game.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of action ids.
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.actions()
    }

    /// Floats per observation.
    #[getter]
    fn obs_len(&self) -> usize {
        self.env.obs_len()
    }

    /// The observation's fields: `(name, offset, length)`.
    fn observation_layout(&self) -> Vec<(&'static str, usize, usize)> {
        let mut at = 0;
        self.env
            .obs_layout()
            .iter()
            .map(|&(name, len)| {
                at += len;
                (name, at - len, len)
            })
            .collect()
    }

    /// The seat asked next, `None` once the game is over.
    fn to_act(&self) -> Option<Seat> {
        self.env.to_act()
    }

    /// Every seat that owes a decision now (several at a simultaneous step; [`Core::to_act`]
    /// is the lowest of them).
    fn owing(&self) -> Vec<Seat> {
        self.env.game().to_move().iter().collect()
    }

    /// The number of the round being played (1 first; a new deal after failed bets is the same
    /// round).
    fn round_number(&self) -> u32 {
        if let Some(e) = self.env.as_any().downcast_ref::<Oh7Env>() {
            return e.game.round_number();
        }
        match self.env.as_any().downcast_ref::<oh7_core::rl_seven::SevenEnv>() {
            Some(e) => e.game.round(),
            None => 0,
        }
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.env.game().is_over()
    }

    /// Apply `id` for `seat` (the seat asked, or another that owes a simultaneous decision).
    /// Returns the rewards of every seat
    /// for this step when any is not zero (a round scored, the game won), else `None`.
    fn step(&mut self, seat: Seat, id: i64) -> PyResult<Option<Vec<f64>>> {
        self.check_seat(seat)?;
        let id = usize::try_from(id).map_err(|_| {
            value_error(format!(
                "{id} is not an action id of {}: ids are 0 to {}",
                self.env.game().game_name(),
                self.env.actions() - 1
            ))
        })?;
        // The seat asked, or any seat owing a simultaneous decision (the parallel environment
        // gives them in any order; the engine keeps each secret until the rules reveal it).
        if !self.env.game().to_move().contains(seat) {
            return Err(value_error(format!("seat {seat} owes no decision now")));
        }
        self.env.step(seat, id).map_err(value_error)?;
        if let Some(steps) = &mut self.steps {
            steps.push((seat, id));
        }
        let totals = self.env.game().totals();
        if totals == self.totals && !self.env.game().is_over() {
            return Ok(None);
        }
        Ok(Some(rewards_since(self.env.game(), &mut self.totals, self.win_reward)))
    }

    /// `seat`'s observation: `obs_len` native-endian float32 as bytes.
    fn observe<'py>(&mut self, py: Python<'py>, seat: Seat) -> PyResult<Bound<'py, PyBytes>> {
        self.check_seat(seat)?;
        self.env.observe(seat, &mut self.obs);
        // SAFETY: f32 has no padding and every bit pattern is a byte; the slice covers the Vec.
        let bytes = unsafe { std::slice::from_raw_parts(self.obs.as_ptr().cast::<u8>(), self.obs.len() * 4) };
        Ok(PyBytes::new(py, bytes))
    }

    /// `seat`'s observation and mask in one call: `obs_len` float32 then `num_actions` bytes of
    /// 0/1 (the environment's `observe`).
    fn observe_and_mask<'py>(&mut self, py: Python<'py>, seat: Seat) -> PyResult<Bound<'py, PyBytes>> {
        self.check_seat(seat)?;
        self.env.observe(seat, &mut self.obs);
        self.env.mask(seat, &mut self.mask);
        let (n, m) = (self.obs.len() * 4, self.mask.len());
        PyBytes::new_with(py, n + m, |buf| {
            for (chunk, x) in buf[..n].chunks_exact_mut(4).zip(&self.obs) {
                chunk.copy_from_slice(&x.to_ne_bytes());
            }
            for (b, &x) in buf[n..].iter_mut().zip(&self.mask) {
                *b = u8::from(x);
            }
            Ok(())
        })
    }

    /// `seat`'s legal ids as `num_actions` bytes of 0/1 (all 0 when it owes nothing).
    fn mask<'py>(&mut self, py: Python<'py>, seat: Seat) -> PyResult<Bound<'py, PyBytes>> {
        self.check_seat(seat)?;
        self.env.mask(seat, &mut self.mask);
        // SAFETY: bool is one byte, 0 or 1.
        let bytes = unsafe { std::slice::from_raw_parts(self.mask.as_ptr().cast::<u8>(), self.mask.len()) };
        Ok(PyBytes::new(py, bytes))
    }

    /// `seat`'s legal ids, ascending.
    fn legal_ids(&mut self, seat: Seat) -> PyResult<Vec<usize>> {
        self.check_seat(seat)?;
        self.env.mask(seat, &mut self.mask);
        Ok(self.mask.iter().enumerate().filter(|(_, m)| **m).map(|(i, _)| i).collect())
    }

    /// The engine's legal actions of `seat` as text (a pass is one action here).
    fn legal_text(&self, seat: Seat) -> PyResult<Vec<String>> {
        self.check_seat(seat)?;
        Ok(self.env.game().legal_text(seat))
    }

    /// What an id means.
    fn action_text(&self, id: i64) -> PyResult<String> {
        usize::try_from(id).ok().and_then(|i| self.env.action_text(i)).ok_or_else(|| {
            let game = self.env.game().game_name();
            value_error(format!("{id} is not an action id of {game}: ids are 0 to {}", self.env.actions() - 1))
        })
    }

    /// The ids of `seat`'s action written as engine text (a pass: the picks still to make).
    fn ids_for(&self, seat: Seat, text: &str) -> PyResult<Vec<usize>> {
        self.check_seat(seat)?;
        self.env.ids_for(seat, text).map_err(value_error)
    }

    /// Running totals, one per seat.
    fn totals(&self) -> Vec<i64> {
        self.env.game().totals()
    }

    /// The winners (empty until the game is over).
    fn winners(&self) -> Vec<Seat> {
        self.env.game().winners()
    }

    /// The game record so far (`oh7-record/1` JSON text, readable by `oh7 replay`).
    fn record_json(&self) -> String {
        self.env.game().record().to_string()
    }

    /// What `seat` may know, as JSON text (`None`: a spectator).
    #[pyo3(signature = (seat=None))]
    fn view_json(&self, seat: Option<Seat>) -> PyResult<String> {
        if let Some(s) = seat {
            self.check_seat(s)?;
        }
        Ok(self.env.game().view_json(seat).to_string())
    }

    /// `seat`'s pass picks so far (Oh 7), as card ids.
    fn picks(&self, seat: Seat) -> PyResult<Vec<u8>> {
        self.check_seat(seat)?;
        Ok(self.oh7()?.stepper.picks(seat).iter().map(|c| c.id()).collect())
    }

    /// Oh 7 only, before any pass or bet: deal these hands (card ids, one list per seat, the
    /// Dummy's face-up cards third at two players) and this undealt rest, in place of the
    /// seeded deal.
    fn set_deal(&mut self, hands: Vec<Vec<u8>>, rest: Vec<u8>) -> PyResult<()> {
        let card = |id: u8| Card::from_id(id).ok_or_else(|| value_error(format!("{id} is not a card id")));
        let hands: Vec<CardSet> = hands
            .iter()
            .map(|h| h.iter().map(|&i| card(i)).collect::<PyResult<Vec<Card>>>().map(|v| CardSet::from_cards(&v)))
            .collect::<PyResult<_>>()?;
        let rest: Vec<Card> = rest.iter().map(|&i| card(i)).collect::<PyResult<_>>()?;
        let env = self
            .env
            .as_any_mut()
            .downcast_mut::<Oh7Env>()
            .ok_or_else(|| value_error("set_deal is only for game=\"oh7\""))?;
        let mut g: Oh7Game = env.game.clone();
        g.set_deal(&hands, &rest).map_err(value_error)?;
        env.game = g;
        self.steps = None;
        self.sync();
        Ok(())
    }

    /// Swap two players' hands before anyone acts (for tests of what a seat may know; the game
    /// then no longer replays from its seed).
    fn swap_hands(&mut self, a: Seat, b: Seat) -> PyResult<()> {
        self.check_seat(a)?;
        self.check_seat(b)?;
        if let Some(env) = self.env.as_any_mut().downcast_mut::<oh7_core::rl_seven::SevenEnv>() {
            env.game.swap_hands(a, b).map_err(value_error)?;
            self.steps = None;
            return Ok(());
        }
        let g = &self.oh7()?.game;
        let mut hands: Vec<CardSet> = (0..self.players).map(|s| g.view(s).hand()).collect();
        let mut dealt = CardSet::EMPTY;
        for h in &hands {
            dealt = dealt.or(*h);
        }
        let rest: Vec<Card> = g.rules().deck(self.players).into_iter().filter(|c| !dealt.contains(*c)).collect();
        hands.swap(a, b);
        let env = self.env.as_any_mut().downcast_mut::<Oh7Env>().expect("an Oh 7 game");
        env.game.set_deal(&hands, &rest).map_err(value_error)?;
        self.steps = None;
        self.sync();
        Ok(())
    }

    /// Oh 7: every card id of this table's deck.
    fn deck(&self) -> PyResult<Vec<u8>> {
        let g = &self.oh7()?.game;
        Ok(g.rules().deck(self.players).iter().map(|c| c.id()).collect())
    }

    /// The current hands (every seat's: for tests and tools, never for an agent).
    fn hands(&self) -> PyResult<Vec<Vec<u8>>> {
        let g = &self.oh7()?.game;
        Ok((0..g.table_seats()).map(|s| g.view(s).hand().iter().map(|c| c.id()).collect()).collect())
    }

    /// A text picture of the table for `seat` (`None`: a spectator): the view's facts and, for a
    /// seat, its legal actions.
    #[pyo3(signature = (seat=None))]
    fn render(&self, seat: Option<Seat>) -> PyResult<String> {
        let g = self.env.game();
        let mut out = format!("{} · {} players · totals {:?}", g.game_name(), self.players, g.totals());
        match self.env.to_act() {
            Some(s) => out.push_str(&format!(" · seat {s} to act\n")),
            None => out.push_str(&format!(" · over, winners {:?}\n", g.winners())),
        }
        let view = g.view_json(seat);
        if let Some(s) = seat {
            self.check_seat(s)?;
            if let Some(hand) = view.get("hand") {
                out.push_str(&format!("seat {s} hand: {hand}\n"));
            }
            let legal = g.legal_text(s);
            if !legal.is_empty() {
                out.push_str(&format!("legal: {}\n", legal.join(", ")));
            }
        }
        Ok(out)
    }

    /// A copy of the game (same state, same seed).
    fn clone(&self) -> Core {
        Core {
            spec: self.spec.clone(),
            players: self.players,
            seed: self.seed,
            env: self.env.box_clone(),
            steps: self.steps.clone(),
            win_reward: self.win_reward,
            totals: self.totals.clone(),
            mask: self.mask.clone(),
            obs: self.obs.clone(),
        }
    }

    fn __copy__(&self) -> Core {
        self.clone()
    }

    /// Pickle support: the rules, the seed and the steps, replayed on load.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, usize, u64, f64, Vec<(Seat, usize)>))> {
        let steps = self.steps.clone().ok_or_else(|| {
            value_error("a game whose deal was set by hand (set_deal, swap_hands) cannot be pickled: its seed does not rebuild it")
        })?;
        let spec = serde_json::to_string(&self.spec).map_err(value_error)?;
        let restore = py.get_type::<Core>().getattr("_restore")?;
        Ok((restore, (spec, self.players, self.seed, self.win_reward, steps)))
    }

    /// Rebuild a pickled game.
    #[staticmethod]
    fn _restore(spec: &str, players: usize, seed: u64, win_reward: f64, steps: Vec<(Seat, usize)>) -> PyResult<Core> {
        let spec: GameSpec = serde_json::from_str(spec).map_err(value_error)?;
        let env = spec.rl_env(players, seed).map_err(value_error)?;
        let mut core = Core::build(spec, env, players, seed, Some(Vec::new()), win_reward);
        for (seat, id) in steps {
            core.env.step(seat, id).map_err(value_error)?;
            core.steps.as_mut().expect("a seeded game").push((seat, id));
        }
        core.totals = core.env.game().totals();
        Ok(core)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Core {
        self.clone()
    }
}

/// A built-in bot, choosing for a seat from that seat's view only.
#[pyclass(module = "oh7._core", unsendable)]
struct Bot {
    level: String,
    game: String,
    bot: Box<dyn DynBot>,
    /// Ids still to give for a multi-id decision (a pass), and for which seat and game.
    queue: Vec<usize>,
    queue_seat: Option<Seat>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (level="expert", game=None, seed=0))]
    fn new(level: &str, game: Option<&str>, seed: u64) -> PyResult<Bot> {
        let spec = game_spec(game, None, None, None, None, None)?;
        let bot = spec.bot(level, seed).map_err(value_error)?;
        let game = spec.game_name().to_string();
        Ok(Bot { level: level.to_string(), game, bot, queue: Vec::new(), queue_seat: None })
    }

    #[getter]
    fn level(&self) -> &str {
        &self.level
    }

    #[getter]
    fn name(&self) -> String {
        self.bot.name()
    }

    /// The id the bot plays for `seat` (default: the seat asked) in `core`'s game.
    #[pyo3(signature = (core, seat=None))]
    fn act(&mut self, core: &mut Core, seat: Option<Seat>) -> PyResult<usize> {
        if core.env.game().game_name() != self.game {
            return Err(value_error(format!("this bot plays {}, not {}", self.game, core.env.game().game_name())));
        }
        let seat = match seat.or(core.env.to_act()) {
            Some(s) => s,
            None => return Err(value_error("the game is over")),
        };
        core.check_seat(seat)?;
        if self.queue_seat != Some(seat) {
            self.queue.clear();
        }
        self.queue_seat = Some(seat);
        bot_id(self.bot.as_mut(), &mut self.queue, core.env.as_mut(), seat, &mut core.mask).map_err(value_error)
    }
}

/// The number of action ids of a game.
#[pyfunction]
#[pyo3(signature = (game=None))]
fn num_actions(game: Option<&str>) -> PyResult<usize> {
    Ok(game_spec(game, None, None, None, None, None)?.rl_env(4, 0).map_err(value_error)?.actions())
}

/// The bot levels of a game, weakest first.
#[pyfunction]
#[pyo3(signature = (game=None))]
fn bot_levels(game: Option<&str>) -> PyResult<Vec<&'static str>> {
    Ok(game_spec(game, None, None, None, None, None)?.levels().to_vec())
}

/// The presets of the Oh 7 family.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    Preset::ALL.iter().map(|p| p.name()).collect()
}

/// The player counts a game with these rules allows: `(fewest, most)`.
#[pyfunction]
#[pyo3(signature = (game=None, preset=None, ruleset=None))]
fn player_range(game: Option<&str>, preset: Option<&str>, ruleset: Option<&str>) -> PyResult<(usize, usize)> {
    game_spec(game, preset, ruleset, None, None, None)?
        .player_range()
        .ok_or_else(|| value_error("no player count fits these rules"))
}

/// A record (`oh7-record/1` JSON text, of a finished game or one in progress) checked by
/// replaying it, as `oh7 replay` does, and its choices as action ids: `(core, steps, seats)`: a `Core` of the record's rules and seed at
/// the game's start, the `(seat, ids)` of each choice in the order the engine asks them (a
/// choice of several ids, a pass, is one entry), and the record's seat names. Stepping `core`
/// through `steps` plays the recorded game again (`oh7.records.replay`).
#[pyfunction]
#[pyo3(signature = (record_json, win_reward=0.0))]
#[allow(clippy::type_complexity)]
fn record_steps(record_json: &str, win_reward: f64) -> PyResult<(Core, Vec<(Seat, Vec<usize>)>, Vec<String>)> {
    let record: serde_json::Value =
        serde_json::from_str(record_json).map_err(|e| value_error(format!("not JSON: {e}")))?;
    let (_, actions) = oh7_core::replay_record_actions(&record).map_err(value_error)?;
    // `replay_record_actions` read these fields.
    let players = record["players"].as_u64().unwrap_or(0) as usize;
    let seed = record["seed"].as_str().and_then(|s| u64::from_str_radix(s, 16).ok()).unwrap_or(0);
    let seats: Vec<String> = serde_json::from_value(record["seats"].clone()).unwrap_or_default();
    let spec = GameSpec::of_record(&record).map_err(value_error)?;
    let mut env = spec.rl_env(players, seed).map_err(value_error)?;
    let start = env.box_clone();
    let mut queues = vec![std::collections::VecDeque::new(); players];
    for (seat, text) in actions {
        queues[seat].push_back(text);
    }
    let mut steps = Vec::new();
    while let Some(seat) = env.to_act() {
        // A record of a game in progress ends where its choices end.
        if queues.iter().all(|q| q.is_empty()) {
            break;
        }
        let text = queues[seat].pop_front().ok_or_else(|| {
            value_error(format!("the engine asks seat {seat}; the record has no more of its choices"))
        })?;
        let ids = env.ids_for(seat, &text).map_err(|e| value_error(format!("seat {seat}, {text}: {e}")))?;
        for &id in &ids {
            env.step(seat, id).map_err(|e| value_error(format!("seat {seat}, {text}: {e}")))?;
        }
        steps.push((seat, ids));
    }
    if let Some(seat) = queues.iter().position(|q| !q.is_empty()) {
        return Err(value_error(format!("the game ended with choices of seat {seat} left in the record")));
    }
    let core = Core::build(spec, start, players, seed, Some(Vec::new()), win_reward);
    Ok((core, steps, seats))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()?;
    m.add_class::<Bot>()?;
    m.add_class::<spiel::SpielCore>()?;
    m.add_class::<vector::VecCore>()?;
    m.add_function(wrap_pyfunction!(num_actions, m)?)?;
    m.add_function(wrap_pyfunction!(bot_levels, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(player_range, m)?)?;
    m.add_function(wrap_pyfunction!(record_steps, m)?)?;
    m.add("OH7_ACTIONS", oh7_core::rl::OH7_ACTIONS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// Every seat's reward since `totals` (then set to the game's): the change of its total (Oh 7's
/// totals are points won, Seven's penalty points, negated) and, once the game is over,
/// `+win_reward` to each winner, `-win_reward` to the others.
pub(crate) fn rewards_since(game: &dyn oh7_core::DynGame, totals: &mut Vec<i64>, win_reward: f64) -> Vec<f64> {
    let now = game.totals();
    let sign = if spec_id(game) == GameId::Seven { -1.0 } else { 1.0 };
    let mut r: Vec<f64> = now.iter().zip(totals.iter()).map(|(a, b)| sign * (a - b) as f64).collect();
    if game.is_over() {
        let winners = game.winners();
        for (s, x) in r.iter_mut().enumerate() {
            *x += if winners.contains(&s) { win_reward } else { -win_reward };
        }
    }
    *totals = now;
    r
}

/// The id a bot plays for `seat`: the next of the ids it chose for a multi-id decision (a pass)
/// that is still legal, else a new decision's first id (the rest kept in `queue`).
pub(crate) fn bot_id(
    bot: &mut dyn DynBot,
    queue: &mut Vec<usize>,
    env: &mut dyn RlEnv,
    seat: Seat,
    mask: &mut [bool],
) -> Result<usize, String> {
    env.mask(seat, mask);
    while !queue.is_empty() {
        let id = queue.remove(0);
        if mask[id] {
            return Ok(id);
        }
    }
    let text = bot.decide(env.game(), seat).ok_or_else(|| format!("seat {seat} has no decision to make now"))?;
    let mut ids = env.ids_for(seat, &text).map_err(|e| e.to_string())?;
    if ids.is_empty() {
        return Err(format!("the bot chose `{text}`, which maps to no action id"));
    }
    let first = ids.remove(0);
    *queue = ids;
    Ok(first)
}

/// The registry's key of a running game.
fn spec_id(game: &dyn oh7_core::DynGame) -> GameId {
    game.game_name().parse().expect("every engine is in the registry")
}
