//! The state of the OpenSpiel game `python_oh7` (`oh7/spiel.py`): one deal of an Oh 7 game,
//! every chance event an explicit chance node (the deal one card at a time, a new deal after
//! failed bets the same way, a lot to break a tie), the players' decisions by the same action ids
//! as the PettingZoo environment, until the deal is scored.
//!
//! `resample` gives ISMCTS its worlds: a state its player cannot tell from this one (the same
//! seat view), with the hidden cards dealt anew consistently with all it saw, and the other
//! seats' secret choices not yet revealed chosen anew.

use oh7_bots::sample::Knowledge;
use oh7_core::card::{Card, CardSet};
use oh7_core::oh7::PhaseView;
use oh7_core::oh7::{HAND, Oh7Game};
use oh7_core::rl::{OH7_ACTIONS, OH7_OBS, Oh7Env, PASS_PICK, PLAY, RlEnv};
use oh7_core::ruleset::Ruleset;
use oh7_core::{DynGame, Game, Seat};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// One deal of Oh 7 for OpenSpiel.
#[pyclass(module = "oh7._core", skip_from_py_object)]
#[derive(Clone)]
pub struct SpielCore {
    players: usize,
    /// The table's deck, in card order.
    deck: Vec<Card>,
    /// Chance outcomes so far: the cards dealt, seat 0's first, then seat 1's, ...; with the
    /// Dummy, then the Dummy's pile, top first.
    dealt: Vec<Card>,
    /// How many cards the chance nodes deal.
    deal_len: usize,
    env: Oh7Env,
    /// The game when the deal was set (resampling replays from here).
    start: Option<Oh7Env>,
    /// The decisions since the deal: `(seat, id, the lot it drew)`.
    history: Vec<(Seat, usize, Option<usize>)>,
    /// Every outcome and decision applied since the start (a copy is rebuilt from it: pickle),
    /// and where in it the current deal began.
    actions: Vec<usize>,
    deal_start: usize,
    /// A decision that draws a lot, waiting for the chance node that draws it: `(seat, id,
    /// the seats among whom)`.
    pending_lot: Option<(Seat, usize, oh7_core::SeatSet)>,
    round: u32,
    base_totals: Vec<i64>,
    done: bool,
    scale: f64,
    /// The whole game (every round, each dealt by chance nodes), not one deal.
    whole: bool,
    mask: Vec<bool>,
    obs: Vec<f32>,
}

impl SpielCore {
    fn dealing(&self) -> bool {
        self.dealt.len() < self.deal_len
    }

    /// What follows a decision applied to the game: the end of the deal, or a new deal by
    /// chance after failed bets.
    fn after_step(&mut self, seat: Seat, id: usize, lot: Option<usize>, redeals: usize) {
        self.history.push((seat, id, lot));
        let g = &self.env.game;
        if Game::is_over(g) || (!self.whole && g.round_number() != self.round) {
            self.done = true;
        } else if g.round_number() != self.round || g.redeals() != redeals {
            // The engine dealt again (failed bets, or the next round of a whole game): the new
            // deal is made by chance nodes too.
            self.dealt.clear();
            self.deal_start = self.actions.len();
            self.start = None;
            self.history.clear();
        }
    }

    fn finish_deal(&mut self) -> PyResult<()> {
        let hands: Vec<CardSet> =
            (0..self.players).map(|s| CardSet::from_cards(&self.dealt[s * HAND..(s + 1) * HAND])).collect();
        let dealt = CardSet::from_cards(&self.dealt);
        let mut rest: Vec<Card> = self.dealt[self.players * HAND..].to_vec();
        rest.extend(self.deck.iter().filter(|c| !dealt.contains(**c)));
        self.env.game.set_deal(&hands, &rest).map_err(value_error)?;
        self.start = Some(self.env.clone());
        self.round = self.env.game.round_number();
        if !self.whole {
            // One deal's returns are its own points; a whole game's, the game's.
            self.base_totals = Game::totals(&self.env.game);
        }
        Ok(())
    }
}

#[pymethods]
impl SpielCore {
    /// A new deal: `ruleset` is the TOML text of the rules (or a preset's name). Every chance
    /// event is a chance node (the deal card by card, a new deal after failed bets, a lot), so
    /// `seed` changes nothing in play; it is the seed the game's record shows.
    #[new]
    #[pyo3(signature = (ruleset, players, seed=0, scale=1.0, whole=false))]
    fn new(ruleset: &str, players: usize, seed: u64, scale: f64, whole: bool) -> PyResult<SpielCore> {
        // A preset's name, or the TOML text of a ruleset (which has at least one `key = value`).
        let rules = if ruleset.contains('=') {
            Ruleset::from_toml(ruleset).map_err(value_error)?
        } else {
            Ruleset::preset(ruleset.parse().map_err(value_error)?)
        };
        let game = Oh7Game::new(rules, players, seed).map_err(value_error)?;
        let deck = rules.deck(players);
        let deal_len = if game.table_seats() > players { deck.len() } else { players * HAND };
        let totals = Game::totals(&game);
        Ok(SpielCore {
            players,
            deck,
            dealt: Vec::new(),
            deal_len,
            env: Oh7Env::new(game),
            start: None,
            history: Vec::new(),
            pending_lot: None,
            actions: Vec::new(),
            deal_start: 0,
            round: 1,
            base_totals: totals,
            done: false,
            scale,
            whole,
            mask: vec![false; OH7_ACTIONS],
            obs: vec![0.0; OH7_OBS],
        })
    }

    /// The player to act: a seat, `-1` for chance, `-4` once the deal is scored (OpenSpiel's
    /// `CHANCE` and `TERMINAL`).
    fn current_player(&self) -> i64 {
        if self.done {
            -4
        } else if self.dealing() || self.pending_lot.is_some() {
            -1
        } else {
            self.env.to_act().map_or(-4, |s| s as i64)
        }
    }

    fn is_terminal(&self) -> bool {
        self.done
    }

    /// The outcomes of the chance node, each equally likely: the cards it may deal, or for a
    /// lot `0..k`, the place of the seat it falls on among the `k` tied (in seat order).
    fn chance_outcomes(&self) -> Vec<u8> {
        if let Some((_, _, among)) = self.pending_lot {
            return (0..among.len() as u8).collect();
        }
        if !self.dealing() {
            return Vec::new();
        }
        let dealt = CardSet::from_cards(&self.dealt);
        self.deck.iter().filter(|c| !dealt.contains(**c)).map(|c| c.id()).collect()
    }

    /// The legal ids of `seat` now, ascending.
    fn legal_actions(&mut self, seat: Seat) -> Vec<usize> {
        if self.done || self.dealing() || self.pending_lot.is_some() || seat >= self.players {
            return Vec::new();
        }
        self.env.mask(seat, &mut self.mask);
        self.mask.iter().enumerate().filter(|(_, m)| **m).map(|(i, _)| i).collect()
    }

    /// Apply a chance outcome (a card id) or the acting seat's action id.
    fn apply(&mut self, action: usize) -> PyResult<()> {
        if self.done {
            return Err(value_error(if self.whole { "the game is over" } else { "the deal is over" }));
        }
        if self.dealing() {
            let card = u8::try_from(action).ok().and_then(Card::from_id).ok_or_else(|| value_error("not a card"))?;
            if !self.deck.contains(&card) || self.dealt.contains(&card) {
                return Err(value_error(format!("{card} is not left to deal")));
            }
            self.dealt.push(card);
            if !self.dealing() {
                // Cannot fail: the cards are this deck's, each dealt once.
                self.finish_deal()?;
            }
            self.actions.push(action);
            return Ok(());
        }
        let redeals = self.env.game.redeals();
        if let Some((seat, id, among)) = self.pending_lot {
            let k = action;
            if k >= among.len() {
                return Err(value_error(format!("a lot among {} seats has outcomes 0..{}", among.len(), among.len())));
            }
            self.pending_lot = None;
            self.env.game.force_next_lot(k);
            self.env.step(seat, id).map_err(value_error)?;
            self.actions.push(action);
            self.after_step(seat, id, Some(k), redeals);
            return Ok(());
        }
        let seat = self.env.to_act().ok_or_else(|| value_error("nobody is to act"))?;
        // Try the decision on a copy: if it draws a lot, the lot is a chance node first.
        let mut probe = self.env.clone();
        probe.step(seat, action).map_err(value_error)?;
        let (lots, among) = probe.game.lots();
        self.actions.push(action);
        if lots != self.env.game.lots().0 {
            self.pending_lot = Some((seat, action, among));
            return Ok(());
        }
        self.env = probe;
        self.after_step(seat, action, None, redeals);
        Ok(())
    }

    /// Points of the deal (or of the whole game) per seat, times `scale` (zeros until it ends).
    fn returns(&self) -> Vec<f64> {
        if !self.done {
            return vec![0.0; self.players];
        }
        let t = Game::totals(&self.env.game);
        t.iter().zip(&self.base_totals).map(|(a, b)| (a - b) as f64 * self.scale).collect()
    }

    /// What `seat` knows, as text: its seat view (the whole public history of the deal and its
    /// own cards and choices), or during the deal the cards it has been dealt so far.
    fn information_state(&self, seat: Seat) -> String {
        if self.dealing() {
            let mine: Vec<String> = self
                .dealt
                .iter()
                .enumerate()
                .filter(|(i, _)| *i < self.players * HAND && i / HAND == seat)
                .map(|(_, c)| c.to_string())
                .collect();
            return format!("p{seat} dealing {}", mine.join(" "));
        }
        let picks: Vec<String> = self.env.stepper.picks(seat).iter().map(|c| c.to_string()).collect();
        format!("p{seat} picks[{}] {}", picks.join(" "), self.env.game.view_json(Some(seat)))
    }

    /// `seat`'s observation tensor (the PettingZoo observation) as float32 bytes.
    fn observe<'py>(&mut self, py: Python<'py>, seat: Seat) -> Bound<'py, PyBytes> {
        if self.dealing() {
            self.obs.fill(0.0);
        } else {
            self.env.observe(seat, &mut self.obs);
        }
        // SAFETY: f32 has no padding; the slice covers the Vec.
        let bytes = unsafe { std::slice::from_raw_parts(self.obs.as_ptr().cast::<u8>(), self.obs.len() * 4) };
        PyBytes::new(py, bytes)
    }

    /// What a chance outcome means.
    fn chance_text(&self, outcome: usize) -> String {
        match self.pending_lot {
            Some((_, _, among)) => match among.iter().nth(outcome) {
                Some(s) => format!("the lot falls on seat {s}"),
                None => format!("?{outcome}"),
            },
            None => match u8::try_from(outcome).ok().and_then(Card::from_id) {
                Some(c) => format!("deal {c}"),
                None => format!("?{outcome}"),
            },
        }
    }

    fn action_text(&self, id: usize) -> String {
        self.env.action_text(id).unwrap_or_else(|| format!("?{id}"))
    }

    fn render(&self) -> String {
        if self.dealing() {
            return format!("dealing: {} of {} cards", self.dealt.len(), self.deal_len);
        }
        self.env.game.view_json(None).to_string()
    }

    /// A copy of the game as an `oh7.Core` (what `oh7.Bot.act` plays on; its deal was set by
    /// chance nodes, so it does not pickle).
    fn core(&self) -> PyResult<crate::Core> {
        let spec = oh7_bots::GameSpec::oh7(*self.env.game.rules());
        Ok(crate::Core::from_env(spec, Box::new(self.env.clone()), self.players, self.env.game.seed()))
    }

    /// A state `seat` cannot tell from this one: the cards hidden from it dealt anew (from
    /// its view: the cards played, voids shown, revealed bet cards), the others' unrevealed
    /// choices of the current step chosen anew, the same decisions otherwise.
    #[pyo3(signature = (seat, seed))]
    fn resample(&self, seat: Seat, seed: u64) -> PyResult<SpielCore> {
        if self.dealing() || self.done || self.pending_lot.is_some() {
            return Err(value_error("resample a state where a player is to act"));
        }
        let g = &self.env.game;
        let start = self.start.as_ref().ok_or_else(|| value_error("no deal yet"))?;
        let view = g.view(seat);
        let know = Knowledge::from_view(&view);
        let want = g.view_json(Some(seat));
        let want_to_act = self.env.to_act();
        // Cards each seat played since the deal, and the decisions not yet revealed to `seat`.
        let mut played = vec![CardSet::EMPTY; self.players];
        for &(s, id, _) in &self.history {
            if id < PLAY + oh7_core::card::CARD_IDS {
                played[s].insert(Card::from_id(id as u8).expect("a play id is a card"));
            }
        }
        let decided = view.decided();
        let pending: Vec<usize> = (0..self.players)
            .filter(|&s| s != seat && decided.contains(s))
            .filter_map(|s| self.history.iter().rposition(|&(h, _, _)| h == s))
            .collect();
        // Passing: the other seats' picks are secret. While the passes are being chosen, they
        // are chosen anew; once made, each seat's passed cards are chosen anew among the cards
        // its receiver holds or played (those `seat` gave or got are known).
        let is_pick = |id: usize| (PASS_PICK..PASS_PICK + oh7_core::card::CARD_IDS).contains(&id);
        let passing_now = matches!(view.phase(), PhaseView::Passing { .. });
        let (my_passed, my_received) = view.my_passes();
        let pass_to = g.rules().pass_to(g.round_number(), self.players);
        let passed_done = !passing_now && !my_passed.is_empty();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut mask = vec![false; OH7_ACTIONS];
        // With the Dummy, the cards of its pile turned so far were all seen, in the pile's order:
        // they stay; the face-down rest is what is sampled.
        let turned: Vec<Card> = match g.dummy() {
            Some(_) => {
                // The whole pile as dealt (the game at the deal has turned none).
                let pile = start.game.dummy_pile();
                pile[..pile.len() - view.dummy_pile_left()].to_vec()
            }
            None => Vec::new(),
        };
        'attempt: for _ in 0..200 {
            let (hands, face_down) = know.sample(&mut rng);
            let mut deal: Vec<CardSet> = (0..self.players).map(|s| hands[s].or(played[s])).collect();
            // The cards each seat passed, when the passes are made: back to their givers.
            let mut passed = vec![CardSet::EMPTY; self.players];
            if passed_done {
                for s in 0..self.players {
                    let t = pass_to[s];
                    passed[s] = if s == seat {
                        my_passed
                    } else if t == seat {
                        my_received
                    } else {
                        let k = my_passed.len() as usize;
                        let held: Vec<Card> = deal[t].iter().collect();
                        if held.len() < k {
                            continue 'attempt;
                        }
                        let mut pick = CardSet::EMPTY;
                        while (pick.len() as usize) < k {
                            pick.insert(held[rng.random_range(0..held.len())]);
                        }
                        pick
                    };
                }
                let now = deal.clone();
                for s in 0..self.players {
                    let from = pass_to.iter().position(|&t| t == s).expect("every seat receives");
                    deal[s] = now[s].minus(passed[from]).or(passed[s]);
                    if deal[s].len() as usize != HAND {
                        continue 'attempt;
                    }
                }
            }
            let mut picks_left: Vec<Vec<Card>> = passed.iter().map(|p| p.iter().collect()).collect();
            let rest: Vec<Card> = if g.dummy().is_some() {
                turned.iter().copied().chain(face_down).collect()
            } else {
                let mut all = CardSet::EMPTY;
                for h in &deal {
                    all = all.or(*h);
                }
                self.deck.iter().copied().filter(|c| !all.contains(*c)).collect()
            };
            let mut env = start.clone();
            if env.game.set_deal(&deal, &rest).is_err() {
                continue;
            }
            let mut history = Vec::with_capacity(self.history.len());
            for (i, &(s, id, lot)) in self.history.iter().enumerate() {
                let id = if s != seat && is_pick(id) && passed_done {
                    match picks_left[s].pop() {
                        Some(c) => PASS_PICK + c.id() as usize,
                        None => continue 'attempt,
                    }
                } else if pending.contains(&i) || (s != seat && is_pick(id)) {
                    env.mask(s, &mut mask);
                    let legal: Vec<usize> = (0..OH7_ACTIONS).filter(|&j| mask[j]).collect();
                    if legal.is_empty() {
                        continue 'attempt;
                    }
                    legal[rng.random_range(0..legal.len())]
                } else {
                    id
                };
                if let Some(k) = lot {
                    env.game.force_next_lot(k);
                }
                if env.to_act() != Some(s) || env.step(s, id).is_err() {
                    continue 'attempt;
                }
                history.push((s, id, lot));
            }
            if env.to_act() != want_to_act || env.game.view_json(Some(seat)) != want {
                continue;
            }
            let mut out = self.clone();
            out.dealt = (0..self.players).flat_map(|s| deal[s].iter()).chain(rest.iter().copied()).collect();
            out.dealt.truncate(self.deal_len);
            out.actions.truncate(self.deal_start);
            out.actions.extend(out.dealt.iter().map(|c| c.id() as usize));
            for &(_, id, lot) in &history {
                out.actions.push(id);
                out.actions.extend(lot);
            }
            out.history = history;
            out.env = env;
            return Ok(out);
        }
        Err(value_error("no deal consistent with this seat's view was found in 200 tries"))
    }

    fn __copy__(&self) -> SpielCore {
        self.clone()
    }

    /// Pickle support (and OpenSpiel's `serialize`): the rules and every outcome and decision,
    /// replayed on load.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, usize, f64, Vec<usize>, bool))> {
        let rules = self.env.game.rules().to_toml();
        let restore = py.get_type::<SpielCore>().getattr("_restore")?;
        Ok((restore, (rules, self.players, self.scale, self.actions.clone(), self.whole)))
    }

    /// Rebuild a pickled state.
    #[staticmethod]
    #[pyo3(signature = (ruleset, players, scale, actions, whole=false))]
    fn _restore(ruleset: &str, players: usize, scale: f64, actions: Vec<usize>, whole: bool) -> PyResult<SpielCore> {
        let mut core = SpielCore::new(ruleset, players, 0, scale, whole)?;
        for a in actions {
            core.apply(a)?;
        }
        Ok(core)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> SpielCore {
        self.clone()
    }
}
