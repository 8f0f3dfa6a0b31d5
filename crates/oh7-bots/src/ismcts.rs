//! `ismcts`: single-observer Information Set Monte Carlo Tree Search (Cowling, Powley and
//! Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), the algorithm
//! behind OpenSpiel's `ismcts` bot, as the honest stand-in for the strongest general method.
//!
//! One tree over the observer's information sets, its nodes keyed by the action that leads to
//! them. Each iteration samples a determinization from the seat's view (the expert's deal
//! sampler: played cards, voids, public bet cards, the Dummy), then descends the tree choosing,
//! among the children whose action is legal in that determinization, the one with the best
//! UCB1 value computed with **availability counts** (how often a child was selectable, not how
//! often its parent was visited); the first action not yet in the tree is added; a rollout (random
//! or heuristic, [`Rollout`]) finishes the round; every node on the path adds the round's points
//! of the seat that moved into it. The action of the most visited root child is played.
//!
//! Bets and cards alike: for a bet, the root's children are the seat's bettable cards; the other
//! seats' bets, secret and simultaneous, are chance in the determinization (their rollout policy
//! on their sampled hands), a sum of 7 is played out by the rollout policy (new attempts, the
//! rebid bonus, a redeal), and the tree goes on into the card play of that determinization.
//! Other decisions (passing, tie-breaks) are the heuristic's.
//!
//! The budget is a number of iterations (default 1,000, OpenSpiel's default), so a seed fixes
//! every decision.
//!
//! Research settings, all off in the `ismcts` level ([`IsmctsConfig`], `ismcts:KEY=VALUE` in
//! `oh7 tournament`): exact solutions of the determinization near the end of a rollout
//! (`exact`), inference of the hidden hands from the revealed bets (`infer`), sequential halving
//! over the bet cards (`halving`), a larger budget for bets (`bet_factor`), flat bets
//! (`bet_tree=false`) and a reward that counts the others' points against the seat (`spite`).
//! None of them measurably beat the published algorithm (`docs/bots.md`).

use std::sync::Arc;

use oh7_core::card::{CARD_IDS, Card, CardSet};
use oh7_core::game::Seat;
use oh7_core::oh7::{Action, MAX_SEATS, PhaseView, SeatView};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Bot;
use crate::expert::{BetContext, CardValue, bet_rank, first_lead, resolve_leader};
use crate::hand_model::{CardProbs, HandModel};
use crate::heuristic::{cards_of, expected_tricks, other_decision};
use crate::infer::Evidence;
use crate::pi::{Position, Scorer};
use crate::sample::{Knowledge, position_from_view, seat_of};
use crate::seams::{BetModel, random_card};
pub use crate::seams::{Evaluator, Playout, Prior, Rollout};

/// What one iteration gave the deciding seat.
#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    points: f64,
    /// Its tricks and whether it made its bet, when a round was played.
    round: Option<(u8, bool)>,
}

/// Sums of [`Outcome`]s for one root card (the review).
#[derive(Clone, Copy, Debug, Default)]
struct Outcomes {
    n: u32,
    points: f64,
    rounds: u32,
    tricks: f64,
    made: u32,
}

impl Outcomes {
    fn add(&mut self, o: Outcome) {
        self.n += 1;
        self.points += o.points;
        if let Some((tricks, made)) = o.round {
            self.rounds += 1;
            self.tricks += f64::from(tricks);
            self.made += u32::from(made);
        }
    }

    fn value(&self, card: Card) -> CardValue {
        let r = f64::from(self.rounds.max(1));
        CardValue {
            card,
            value: self.points / f64::from(self.n.max(1)),
            tricks: self.tricks / r,
            made: f64::from(self.made) / r,
        }
    }
}

/// A uniformly random card of a non-empty `set`.
/// The settings of an ISMCTS bot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations per decision.
    pub iterations: u32,
    /// The UCB1 exploration constant, on rewards of points divided by [`IsmctsConfig::scale`].
    pub c: f64,
    /// Points that make one unit of reward.
    pub scale: f64,
    /// The rollout policy.
    pub rollout: Rollout,
    /// From this many tricks left, a rollout is replaced by the exact solution of the
    /// determinization (0: never).
    pub exact: u8,
    /// Most solver nodes for one such solution (beyond it, the rollout goes on).
    pub exact_nodes: u64,
    /// The reward of a seat is its points minus `spite` times the others' mean points.
    pub spite: f64,
    /// Whether the tree of a bet goes on into the card play (else the rollout plays it).
    pub bet_tree: bool,
    /// Iterations of a bet decision, as a multiple of `iterations`.
    pub bet_factor: u32,
    /// Inference from the revealed bets in the card play (0: none): the determinizations are
    /// drawn from twice as many samples, weighted by `exp(-infer · Σ (bet − e)²)` over the other
    /// players, `e` being the heuristic's expected tricks of the hand they bet with.
    pub infer: f64,
    /// The others' bets as evidence in the card play (0: none; issue 56): the determinizations
    /// are resampled from [`IsmctsConfig::evidence_pool`] drawn deals, each weighted by how
    /// likely the shipped bid evaluator makes the others' bets with its hands (a player bets
    /// `c` with probability ∝ `exp(evidence · E[points | hand, c])`; `bet_model::BetPolicy`).
    pub evidence: f64,
    /// Deals drawn for [`IsmctsConfig::evidence`] per decision.
    pub evidence_pool: u32,
    /// Choose the bet by sequential halving over the bet cards instead of UCB1 at the root.
    pub halving: bool,
    /// The PUCT constant at the root when the bot has a [`Prior`] (on rewards of points /
    /// [`IsmctsConfig::scale`]).
    pub puct: f64,
    /// Give the root the shipped learned policy prior ([`crate::policy`]), with PUCT.
    pub prior: bool,
    /// Draw the determinizations from the learned hand model ([`crate::hand_model`]) instead of
    /// uniformly among the deals consistent with the view.
    pub hand: bool,
    /// Value the positions where the tree ends with the shipped learned value
    /// ([`crate::value`]) instead of a playout.
    pub value: bool,
    /// With [`IsmctsConfig::value`], value the leaves of bet decisions with it too (else the
    /// playout values them).
    pub value_bets: bool,
    /// A node's children are told apart by the seat that moves as well as by the card: below a
    /// bet, the first leader (and so who moves) differs between determinizations, and without
    /// it one seat's card is chosen by, and credited to, another seat's points.
    pub keyed: bool,
    /// Guide the other seats' moves in the tree by the rollout policy, which sees their
    /// determinized hands (0: off): the policy's card is expanded first and gets a progressive
    /// bias of `guide / (1 + visits)` in the selection.
    pub guide: f64,
    /// In a bet decision, the other seats bet by the heuristic made uncertain
    /// ([`crate::heuristic::soft_heuristic_bet`] at this `beta`; 0: the rollout policy's bet).
    pub bet_noise: f64,
    /// The chance that a heuristic rollout plays a random legal card (0: never).
    pub rollout_eps: f64,
}

impl Default for IsmctsConfig {
    /// The level `ismcts`: 1,000 iterations, heuristic rollouts, c = 0.7 on rewards of
    /// points / 10 (the choices are explained in `docs/bots.md`, with their tuning table).
    fn default() -> Self {
        IsmctsConfig {
            iterations: 1000,
            c: 0.7,
            scale: 10.0,
            rollout: Rollout::Heuristic,
            exact: 0,
            exact_nodes: 20_000,
            spite: 0.0,
            bet_tree: true,
            bet_factor: 1,
            infer: 0.0,
            evidence: 0.0,
            evidence_pool: 256,
            halving: false,
            puct: 1.5,
            prior: false,
            hand: false,
            value: false,
            value_bets: false,
            keyed: false,
            guide: 0.0,
            bet_noise: 0.0,
            rollout_eps: 0.0,
        }
    }
}

/// The settings `IsmctsConfig::parse` knows.
pub const ISMCTS_KEYS: &[&str] = &[
    "iterations",
    "c",
    "scale",
    "rollout",
    "exact",
    "exact_nodes",
    "spite",
    "bet_tree",
    "bet_factor",
    "infer",
    "evidence",
    "evidence_pool",
    "halving",
    "hand",
    "prior",
    "value",
    "value_bets",
    "puct",
    "keyed",
    "guide",
    "bet_noise",
    "rollout_eps",
];

/// Why a text of ISMCTS settings was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IsmctsConfigError {
    /// A part that is not `key=value`.
    #[error("ismcts setting `{0}`: write key=value")]
    NotKeyValue(String),
    /// A key that is not a setting.
    #[error("unknown ismcts setting `{key}`: {}", ISMCTS_KEYS.join(", "))]
    UnknownKey {
        /// The key given.
        key: String,
    },
    /// A value out of its setting's range or of the wrong kind.
    #[error("ismcts setting `{key}={value}`: bad value")]
    BadValue {
        /// The setting.
        key: String,
        /// The value given.
        value: String,
    },
}

impl IsmctsConfig {
    /// The built-in evaluator these settings name (rollout policy, exact solution).
    pub fn playout(&self) -> Playout {
        let mut p = Playout::new(self.rollout, self.exact, self.exact_nodes);
        p.eps = self.rollout_eps;
        p
    }
    /// Settings from `key=value` pairs over the defaults ([`ISMCTS_KEYS`]: `iterations`, `c`,
    /// `scale`, `rollout` (`random`, `heuristic` or `sighted`), …), separated by `:` or `,`, e.g.
    /// `iterations=4000:c=0.35:rollout=random`.
    pub fn parse(text: &str) -> Result<IsmctsConfig, IsmctsConfigError> {
        let mut cfg = IsmctsConfig::default();
        for part in text.split([',', ':']).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| IsmctsConfigError::NotKeyValue(part.to_string()))?;
            let bad = || IsmctsConfigError::BadValue { key: k.to_string(), value: v.to_string() };
            match k {
                "iterations" => cfg.iterations = v.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
                "c" => cfg.c = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?,
                "scale" => cfg.scale = v.parse().ok().filter(|x: &f64| x.is_finite() && *x > 0.0).ok_or_else(bad)?,
                "exact" => cfg.exact = v.parse().ok().filter(|&n| n <= 9).ok_or_else(bad)?,
                "exact_nodes" => cfg.exact_nodes = v.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
                "bet_tree" => cfg.bet_tree = v.parse().map_err(|_| bad())?,
                "bet_factor" => cfg.bet_factor = v.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
                "infer" => cfg.infer = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?,
                "evidence" => {
                    cfg.evidence = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?
                }
                "evidence_pool" => cfg.evidence_pool = v.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
                "halving" => cfg.halving = v.parse().map_err(|_| bad())?,
                "hand" => cfg.hand = v.parse().map_err(|_| bad())?,
                "prior" => cfg.prior = v.parse().map_err(|_| bad())?,
                "value" => cfg.value = v.parse().map_err(|_| bad())?,
                "value_bets" => cfg.value_bets = v.parse().map_err(|_| bad())?,
                "bet_noise" => {
                    cfg.bet_noise = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?
                }
                "rollout_eps" => {
                    cfg.rollout_eps = v.parse().ok().filter(|x: &f64| (0.0..=1.0).contains(x)).ok_or_else(bad)?
                }
                "keyed" => cfg.keyed = v.parse().map_err(|_| bad())?,
                "guide" => cfg.guide = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?,
                "puct" => cfg.puct = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?,
                "spite" => cfg.spite = v.parse().ok().filter(|x: &f64| x.is_finite()).ok_or_else(bad)?,
                "rollout" => {
                    cfg.rollout = match v {
                        r if r == crate::Level::Random.name() => Rollout::Random,
                        r if r == crate::Level::Heuristic.name() => Rollout::Heuristic,
                        "sighted" => Rollout::Sighted,
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(IsmctsConfigError::UnknownKey { key: k.to_string() }),
            }
        }
        Ok(cfg)
    }
}

/// Iterations per decision of the `expert` level, four times the published default: more
/// iterations are the one change that never measured worse (`docs/bots.md`).
pub const EXPERT_ITERATIONS: u32 = 4000;

const NO_PARENT: u32 = u32::MAX;

/// Systematic resampling: `count` indices of `logw` (log-weights, not all −∞), each drawn in
/// proportion to its weight, from one uniform number `u` in [0, 1).
fn systematic(logw: &[f64], count: usize, u: f64) -> Vec<usize> {
    let top = logw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = logw.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = w.iter().sum();
    let step = total / count as f64;
    let mut at = u * step;
    let (mut acc, mut j) = (w[0], 0usize);
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        while acc < at && j + 1 < w.len() {
            j += 1;
            acc += w[j];
        }
        out.push(j);
        at += step;
    }
    out
}

struct Node {
    /// The action that leads here (a card bet or played).
    card: Card,
    /// The seat that took it.
    seat: u8,
    children: Vec<u32>,
    visits: u32,
    avail: u32,
    /// The points (scaled) of `seat` summed over the iterations through here.
    reward: f64,
}

/// The ISMCTS bot.
pub struct IsmctsBot {
    cfg: IsmctsConfig,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
    path: Vec<u32>,
    /// What values the positions where the tree ends.
    eval: Box<dyn Evaluator>,
    /// The root's prior, when there is one (PUCT at the root).
    prior: Option<Box<dyn Prior>>,
    /// The prior's probabilities for the decision at hand, by card id, normalised over the legal cards.
    root_prior: Option<Box<[f32; CARD_IDS]>>,
    /// The hand model's probabilities for the decision at hand (with [`IsmctsConfig::hand`]).
    probs: Option<Box<CardProbs>>,
    /// The hand model when it is not the shipped one ([`IsmctsBot::with_hand_model`]).
    model: Option<Arc<HandModel>>,
    /// The model of the others' bets, with [`IsmctsConfig::evidence`] ([`IsmctsBot::with_bet_model`]).
    bet_model: Option<Box<dyn BetModel>>,
    /// The seat deciding (for [`IsmctsConfig::guide`]).
    me: u8,
    /// Every determinization is this deal ([`IsmctsBot::bet_knowing`], for measurement).
    fixed: Option<([CardSet; MAX_SEATS], Vec<Card>)>,
    name: &'static str,
}

impl IsmctsBot {
    /// An ISMCTS bot with `cfg`, deterministic for `seed`, valuing its leaves with `eval` and
    /// with the root prior `prior` (the crate's root wires the ones `cfg` names:
    /// `IsmctsBot::new`).
    pub fn assemble(
        cfg: IsmctsConfig,
        seed: u64,
        eval: Box<dyn Evaluator>,
        prior: Option<Box<dyn Prior>>,
    ) -> IsmctsBot {
        IsmctsBot {
            cfg,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            path: Vec::new(),
            eval,
            prior,
            root_prior: None,
            probs: None,
            model: None,
            bet_model: None,
            me: 0,
            fixed: None,
            name: "bot:ismcts",
        }
    }

    /// The name the bot gives itself (`bot:expert` for the expert level).
    pub(crate) fn named(self, name: &'static str) -> IsmctsBot {
        IsmctsBot { name, ..self }
    }

    /// Its settings, to change before it decides (the evaluator and prior it was built with
    /// stay).
    pub fn config_mut(&mut self) -> &mut IsmctsConfig {
        &mut self.cfg
    }

    /// This bot with `model` weighting its determinizations instead of the shipped one (turns
    /// [`IsmctsConfig::hand`] on).
    pub fn with_hand_model(mut self, model: Arc<HandModel>) -> IsmctsBot {
        self.cfg.hand = true;
        self.model = Some(model);
        self
    }

    /// This bot with `model` of the others' bets weighing its determinizations in the card
    /// play ([`IsmctsConfig::evidence`]; the crate's root gives it the shipped one when that
    /// setting is on).
    pub fn with_bet_model(mut self, model: Box<dyn BetModel>) -> IsmctsBot {
        self.bet_model = Some(model);
        self
    }

    /// This bot with `eval` valuing the positions where its tree ends instead of the rollout.
    pub fn with_evaluator(mut self, eval: Box<dyn Evaluator>) -> IsmctsBot {
        self.eval = eval;
        self
    }

    /// This bot with `prior` over the root's actions (PUCT at the root, constant
    /// [`IsmctsConfig::puct`]).
    pub fn with_prior(mut self, prior: Box<dyn Prior>) -> IsmctsBot {
        self.prior = Some(prior);
        self
    }

    /// The prior's probabilities for this decision, normalised over `legal`, if there is a prior.
    fn set_prior(&mut self, view: &SeatView, legal: CardSet) {
        self.root_prior = self.prior.as_mut().map(|p| {
            let mut q = p.root(view, legal);
            let mut total = 0.0f32;
            for (id, x) in q.iter_mut().enumerate() {
                let card = Card::from_id(id as u8);
                if card.is_some_and(|c| legal.contains(c)) && x.is_finite() && *x > 0.0 {
                    total += *x;
                } else {
                    *x = 0.0;
                }
            }
            for c in legal.iter() {
                let x = &mut q[c.id() as usize];
                *x = if total > 0.0 { *x / total } else { 1.0 / legal.len() as f32 };
            }
            Box::new(q)
        });
    }

    fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node {
            card: Card::INTERROBANG,
            seat: 0,
            children: Vec::new(),
            visits: 0,
            avail: 0,
            reward: 0.0,
        });
    }

    /// Among the children of `node` legal in `legal` (and, with [`IsmctsConfig::keyed`], taken
    /// by `seat`): `Ok(child)` by UCB1 with availability (each legal child's availability
    /// counted), or `Err(card)`, an untried legal card (`hint` first when it is one). `hint`
    /// gets the progressive bias of [`IsmctsConfig::guide`].
    fn select(&mut self, node: u32, legal: CardSet, seat: Seat, hint: Option<Card>) -> Result<u32, Card> {
        let keyed = self.cfg.keyed;
        let mine = |n: &Node| !keyed || n.seat as usize == seat;
        let mut untried = legal;
        for &c in &self.nodes[node as usize].children {
            let n = &self.nodes[c as usize];
            if mine(n) {
                untried.remove(n.card);
            }
        }
        if !untried.is_empty() {
            return Err(match hint {
                Some(h) if untried.contains(h) => h,
                _ => random_card(untried, &mut self.rng),
            });
        }
        let c = self.cfg.c;
        let guide = self.cfg.guide;
        let mut best = (f64::NEG_INFINITY, NO_PARENT);
        // PUCT at the root when a prior is given: every legal card is available there.
        let puct = if node == 0 { self.root_prior.as_deref() } else { None };
        let sqrt_total = (f64::from(self.nodes[0].visits).max(1.0)).sqrt();
        for i in 0..self.nodes[node as usize].children.len() {
            let ch = self.nodes[node as usize].children[i];
            let n = &mut self.nodes[ch as usize];
            if !legal.contains(n.card) || !mine(n) {
                continue;
            }
            n.avail += 1;
            let mean = n.reward / n.visits as f64;
            let mut v = match puct {
                Some(p) => {
                    mean + self.cfg.puct * f64::from(p[n.card.id() as usize]) * sqrt_total / (1.0 + n.visits as f64)
                }
                None => mean + c * ((n.avail as f64).ln() / n.visits as f64).sqrt(),
            };
            if hint == Some(n.card) {
                v += guide / (1.0 + n.visits as f64);
            }
            if v > best.0 {
                best = (v, ch);
            }
        }
        Ok(best.1)
    }

    fn add(&mut self, parent: u32, card: Card, seat: Seat) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node { card, seat: seat as u8, children: Vec::new(), visits: 0, avail: 1, reward: 0.0 });
        self.nodes[parent as usize].children.push(id);
        id
    }

    /// Descend from `node` through the card play of `pos` (selection, one expansion), and
    /// return the points the evaluator gives the position where the tree ends.
    fn play_iteration(&mut self, mut node: u32, pos: &mut Position, scorer: &Scorer) -> [f64; MAX_SEATS] {
        while !pos.is_over() {
            let seat = pos.to_move();
            let legal = pos.legal();
            let hint = (self.cfg.guide > 0.0 && seat != self.me as usize && legal.len() > 1)
                .then(|| self.eval.play(pos, &scorer.bets, legal, &mut self.rng));
            match self.select(node, legal, seat, hint) {
                Ok(ch) => {
                    pos.play(self.nodes[ch as usize].card);
                    node = ch;
                    self.path.push(node);
                }
                Err(card) => {
                    node = self.add(node, card, seat);
                    pos.play(card);
                    self.path.push(node);
                    break;
                }
            }
        }
        self.eval.evaluate(pos, scorer, &mut self.rng)
    }

    fn backprop(&mut self, points: &[f64; MAX_SEATS], players: usize) {
        let mut adjusted = *points;
        if self.cfg.spite != 0.0 && players > 1 {
            let total: f64 = points[..players].iter().sum();
            for p in 0..players {
                adjusted[p] = points[p] - self.cfg.spite * (total - points[p]) / (players - 1) as f64;
            }
        }
        let points = &adjusted;
        self.nodes[0].visits += 1;
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += points[n.seat as usize] / self.cfg.scale;
        }
        self.path.clear();
    }

    /// A determinization of `know`: weighted by the hand model when it is on, else uniform.
    fn draw(&mut self, know: &Knowledge) -> ([CardSet; MAX_SEATS], Vec<Card>) {
        if let Some(deal) = &self.fixed {
            return deal.clone();
        }
        match &self.probs {
            Some(p) => know.sample_weighted(&mut self.rng, p),
            None => know.sample(&mut self.rng),
        }
    }

    /// The hand model's probabilities for this decision, if the model is on.
    fn set_probs(&mut self, view: &SeatView, know: &Knowledge) {
        if self.cfg.hand {
            let model = self.model.as_deref().unwrap_or_else(|| HandModel::shipped());
            self.probs = Some(Box::new(model.probs(view, know)));
        } else {
            self.probs = None;
        }
    }

    /// The root of the last decision searched: each child's card, visits and mean points (of
    /// the seat deciding), in the tree's order (empty when the last decision had one legal card
    /// or was not searched). Training data for a policy prior.
    pub fn root_stats(&self) -> Vec<(Card, u32, f64)> {
        let Some(root) = self.nodes.first() else { return Vec::new() };
        root.children
            .iter()
            .map(|&c| {
                let n = &self.nodes[c as usize];
                (n.card, n.visits, n.reward * self.cfg.scale / f64::from(n.visits.max(1)))
            })
            .collect()
    }

    /// The most visited root child's card.
    fn best_root(&self) -> Card {
        let root = &self.nodes[0];
        let best = root
            .children
            .iter()
            .max_by_key(|&&c| (self.nodes[c as usize].visits, std::cmp::Reverse(self.nodes[c as usize].card)))
            .expect("an expanded root");
        self.nodes[*best as usize].card
    }

    /// Choose a card to play.
    pub fn play(&mut self, view: &SeatView, legal: CardSet) -> Card {
        if legal.len() == 1 {
            self.nodes.clear();
            return legal.first().expect("one");
        }
        let bet_cards = view.bet_cards().expect("bets are known in play");
        let scorer = Scorer::new(view.rules(), bet_cards);
        self.me = seat_of(view) as u8;
        let know = Knowledge::from_view(view);
        self.set_probs(view, &know);
        self.set_prior(view, legal);
        let draws = self.weighted_draws(view, &know);
        self.reset();
        self.eval.begin(false);
        for i in 0..self.cfg.iterations as usize {
            let (hands, pile) = match draws.get(i) {
                Some(d) => d.clone(),
                None => self.draw(&know),
            };
            let mut pos = position_from_view(view, &hands, &pile);
            let points = self.play_iteration(0, &mut pos, &scorer);
            self.backprop(&points, view.players());
        }
        self.best_root()
    }

    /// The determinizations of a card-play decision drawn ahead by inference (`infer`, or the
    /// others' bets as evidence); empty when neither is on (each iteration then draws its own).
    fn weighted_draws(&mut self, view: &SeatView, know: &Knowledge) -> Vec<([CardSet; MAX_SEATS], Vec<Card>)> {
        if self.cfg.infer > 0.0 {
            return self.inferred(view, know);
        }
        if self.bet_model.is_none() {
            return Vec::new();
        }
        let ev = Evidence::from_view(view);
        if !ev.is_informative() {
            return Vec::new();
        }
        let n = self.cfg.evidence_pool as usize;
        let mut pool = Vec::with_capacity(n);
        let mut logw = Vec::with_capacity(n);
        for _ in 0..n {
            let (hands, pile) = self.draw(know);
            let model = self.bet_model.as_deref_mut().expect("checked above");
            logw.push(ev.bets_log_likelihood(&hands, model));
            pool.push((hands, pile));
        }
        let picks = systematic(&logw, self.cfg.iterations as usize, self.rng.random::<f64>());
        picks.into_iter().map(|j| pool[j].clone()).collect()
    }

    /// `iterations` determinizations drawn (systematic resampling) from twice as many samples
    /// weighted by how well the hands explain the revealed bets ([`IsmctsConfig::infer`]).
    fn inferred(&mut self, view: &SeatView, know: &Knowledge) -> Vec<([CardSet; MAX_SEATS], Vec<Card>)> {
        let me = seat_of(view);
        let n = view.players();
        let table = view.table_seats();
        let bets = view.bet_cards().expect("bets are known in play");
        let trump = view.leader_and_trump().map(|x| x.1);
        let mut played = [CardSet::EMPTY; MAX_SEATS];
        for t in view.tricks().iter().chain(std::iter::once(view.trick())) {
            for (s, c) in t.plays() {
                played[s].insert(c);
            }
        }
        let count = self.cfg.iterations as usize;
        let mut pool = Vec::with_capacity(2 * count);
        let mut logw = Vec::with_capacity(2 * count);
        for _ in 0..2 * count {
            let (hands, pile) = know.sample(&mut self.rng);
            let mut ll = 0.0f64;
            for q in (0..n).filter(|&q| q != me) {
                let e = expected_tricks(hands[q].or(played[q]), trump, table, CardSet::EMPTY);
                let d = (bets[q].value() as f32 - e) as f64;
                ll -= d * d;
            }
            pool.push((hands, pile));
            logw.push(ll * self.cfg.infer);
        }
        let picks = systematic(&logw, count, self.rng.random::<f64>());
        picks.into_iter().map(|j| pool[j].clone()).collect()
    }

    /// Choose a bet card as [`IsmctsBot::bet`] does, but with every determinization the true
    /// deal (`hands` by seat, the Dummy's face-down `pile`): a bet that knows every hand, the
    /// others' secret bets still drawn by the rollout policy. For measurement only (a
    /// tournament's `oracle-expert`); no player is given it.
    pub fn bet_knowing(
        &mut self,
        view: &SeatView,
        legal: CardSet,
        hands: [CardSet; MAX_SEATS],
        pile: Vec<Card>,
    ) -> Card {
        self.fixed = Some((hands, pile));
        let card = self.bet(view, legal);
        self.fixed = None;
        card
    }

    /// Choose a bet card.
    pub fn bet(&mut self, view: &SeatView, legal: CardSet) -> Card {
        if legal.len() == 1 {
            self.nodes.clear();
            return legal.first().expect("one");
        }
        self.reset();
        self.eval.begin(true);
        self.me = seat_of(view) as u8;
        let ctx = BetContext::from_view(view);
        self.set_probs(view, &ctx.know);
        self.set_prior(view, legal);
        let budget = self.cfg.iterations * self.cfg.bet_factor;
        if !self.cfg.halving {
            for _ in 0..budget {
                self.bet_iteration(&ctx, legal, None);
            }
            return self.best_root();
        }
        // Sequential halving (Karnin, Koren and Somekh 2013): the budget split evenly over
        // log2(K) rounds; each round samples every surviving bet alike and keeps the better half.
        let mut arms: Vec<Card> = legal.iter().collect();
        let rounds = (usize::BITS - (arms.len() - 1).leading_zeros()).max(1);
        while arms.len() > 1 {
            let per = (budget / (arms.len() as u32 * rounds)).max(1);
            for &a in &arms {
                for _ in 0..per {
                    self.bet_iteration(&ctx, legal, Some(a));
                }
            }
            let mean = |this: &Self, a: Card| {
                let ch = this.nodes[0].children.iter().copied().find(|&c| this.nodes[c as usize].card == a);
                ch.map_or(f64::NEG_INFINITY, |c| {
                    let n = &this.nodes[c as usize];
                    n.reward / n.visits.max(1) as f64
                })
            };
            arms.sort_by(|&a, &b| mean(self, b).total_cmp(&mean(self, a)).then(a.cmp(&b)));
            arms.truncate(arms.len().div_ceil(2));
        }
        arms[0]
    }

    /// Every card of `legal` (at least two) valued by this search, for the review
    /// (`docs/review.md`): the root gives each card an equal share of
    /// [`IsmctsConfig::iterations`], in turn, and below it the tree is searched as in play.
    /// A card's value is the deciding seat's mean round points over its iterations; its tricks
    /// and bet success are read off the positions the evaluator leaves (the built-in one
    /// finishes the round). In `legal`'s order.
    pub fn play_values(&mut self, view: &SeatView, legal: CardSet) -> Vec<CardValue> {
        let me = seat_of(view);
        let bet_cards = view.bet_cards().expect("bets are known in play");
        let scorer = Scorer::new(view.rules(), bet_cards);
        self.me = seat_of(view) as u8;
        let know = Knowledge::from_view(view);
        self.set_probs(view, &know);
        self.root_prior = None;
        let draws = self.weighted_draws(view, &know);
        self.reset();
        self.eval.begin(false);
        let cards: Vec<Card> = legal.iter().collect();
        let children: Vec<u32> = cards.iter().map(|&c| self.add(0, c, me)).collect();
        let mut acc = vec![Outcomes::default(); cards.len()];
        let rounds = (self.cfg.iterations as usize / cards.len()).max(1);
        for i in 0..rounds * cards.len() {
            let k = i % cards.len();
            let (hands, pile) = match draws.get(i) {
                Some(d) => d.clone(),
                None => self.draw(&know),
            };
            let mut pos = position_from_view(view, &hands, &pile);
            pos.play(cards[k]);
            self.path.push(children[k]);
            let points = self.play_iteration(children[k], &mut pos, &scorer);
            self.backprop(&points, view.players());
            acc[k].add(Outcome { points: points[me], round: Some((pos.won[me], pos.won[me] == scorer.bets[me])) });
        }
        cards.iter().zip(acc).map(|(&card, a)| a.value(card)).collect()
    }

    /// Every bet card of `legal` (at least two) valued by this search, for the review: each
    /// gets an equal share of `iterations × bet_factor`, in turn (as the first round of
    /// sequential halving does). A card's value is the seat's mean points (the rebid bonus
    /// included); its tricks and bet success are over the iterations in which a round was
    /// played. In `legal`'s order.
    pub fn bet_values(&mut self, view: &SeatView, legal: CardSet) -> Vec<CardValue> {
        self.reset();
        self.eval.begin(true);
        self.me = seat_of(view) as u8;
        let ctx = BetContext::from_view(view);
        self.set_probs(view, &ctx.know);
        self.root_prior = None;
        let cards: Vec<Card> = legal.iter().collect();
        let mut acc = vec![Outcomes::default(); cards.len()];
        let budget = (self.cfg.iterations * self.cfg.bet_factor) as usize;
        for _ in 0..(budget / cards.len()).max(1) {
            for (k, &c) in cards.iter().enumerate() {
                acc[k].add(self.bet_iteration(&ctx, legal, Some(c)));
            }
        }
        cards.iter().zip(acc).map(|(&card, a)| a.value(card)).collect()
    }

    /// One iteration of a bet decision: my bet chosen by the root (or `forced`), the others'
    /// by the rollout policy, then the round. Returns what the deciding seat got: its points
    /// (the rebid bonus included) and, when a round was played, its tricks and whether it made
    /// its bet (read off the position the evaluator leaves).
    fn bet_iteration(&mut self, ctx: &BetContext, legal: CardSet, forced: Option<Card>) -> Outcome {
        let BetContext { me, rules, n, dummy, table, attempt: first_attempt, used: used0, ref know } = *ctx;
        let (hands, mut pile) = self.draw(know);
        // My bet: the tree's root decision (all my bettable cards are legal in every
        // determinization), or the arm that sequential halving asks for.
        let mine = match forced {
            Some(card) => match self.nodes[0].children.iter().copied().find(|&c| self.nodes[c as usize].card == card) {
                Some(ch) => ch,
                None => self.add(0, card, me),
            },
            None => match self.select(0, legal, me, None) {
                Ok(ch) => ch,
                Err(card) => self.add(0, card, me),
            },
        };
        self.path.push(mine);
        let mut bets = [Card::INTERROBANG; MAX_SEATS];
        bets[me] = self.nodes[mine as usize].card;
        let mut used = used0;
        let mut points = [0.0; MAX_SEATS];
        let mut attempt = first_attempt;
        let mut resolved = None;
        let mut outcome = Outcome::default();
        loop {
            for p in 0..n {
                if p != me || attempt > first_attempt {
                    let mut bettable = hands[p].minus(used[p]);
                    bettable.remove(Card::INTERROBANG);
                    if bettable.is_empty() {
                        break;
                    }
                    bets[p] = if self.cfg.bet_noise > 0.0 && p != me {
                        crate::heuristic::soft_heuristic_bet(
                            &rules,
                            hands[p],
                            bettable,
                            table,
                            self.cfg.bet_noise,
                            &mut self.rng,
                        )
                    } else {
                        self.eval.bet(&rules, hands[p], bettable, table, &mut self.rng)
                    };
                }
            }
            if let Some(r) = resolve_leader(&rules, &bets[..n], &hands, dummy.is_some(), attempt, &mut self.rng) {
                resolved = Some(r);
                break;
            }
            // A sum of 7: the rebid bonus, then another attempt (or a redeal).
            if rules.rebid_bonus {
                let top = (0..n).map(|p| bet_rank(bets[p])).max().unwrap_or(0);
                for p in 0..n {
                    if bet_rank(bets[p]) == top {
                        points[p] += 1.0;
                    }
                }
            }
            for p in 0..n {
                used[p].insert(bets[p]);
            }
            let limit = rules.bet_attempts.map_or(usize::MAX, |l| l as usize);
            let exhausted = (0..n).any(|p| {
                let mut b = hands[p].minus(used[p]);
                b.remove(Card::INTERROBANG);
                b.is_empty()
            });
            if attempt >= limit || exhausted || attempt > 20 {
                break;
            }
            attempt += 1;
        }
        if let Some((leader, trump)) = resolved {
            let mut pos = first_lead(&rules, table, dummy, &hands, &pile, leader, trump);
            let scorer = Scorer::new(&rules, &bets[..n]);
            // The tree goes on into the play when the bets stand as this iteration's first
            // attempt made them; after a re-bet the rollout plays.
            let round = if attempt == first_attempt && self.cfg.bet_tree {
                self.play_iteration(mine, &mut pos, &scorer)
            } else {
                while !pos.is_over() {
                    let legal = pos.legal();
                    let c = self.eval.play(&pos, &scorer.bets, legal, &mut self.rng);
                    pos.play(c);
                }
                self.eval.evaluate(&mut pos, &scorer, &mut self.rng)
            };
            for (p, x) in points.iter_mut().enumerate().take(n) {
                *x += round[p];
            }
            outcome.round = Some((pos.won[me], pos.won[me] == scorer.bets[me]));
        }
        pile.clear();
        self.backprop(&points, n);
        outcome.points = points[me];
        outcome
    }
}

impl Bot<oh7_core::oh7::Oh7Game> for IsmctsBot {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn choose(&mut self, view: &SeatView<'_>, legal: &[Action]) -> Action {
        match (view.phase(), legal[0]) {
            (PhaseView::Betting { .. }, Action::Bet(_)) => Action::Bet(self.bet(view, cards_of(legal))),
            (PhaseView::Playing, Action::Play(_)) => Action::Play(self.play(view, cards_of(legal))),
            _ => other_decision(view, legal),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_over_the_defaults_and_bad_ones_are_refused() {
        let c = IsmctsConfig::parse("iterations=400:c=0.35,rollout=random:exact=3:infer=0.5:halving=true").unwrap();
        let p = IsmctsConfig::parse("prior=true:puct=0.5:hand=true").unwrap();
        assert_eq!((p.prior, p.puct, p.hand), (true, 0.5, true));
        assert_eq!(
            (c.iterations, c.c, c.rollout, c.exact, c.infer, c.halving),
            (400, 0.35, Rollout::Random, 3, 0.5, true)
        );
        assert_eq!((c.scale, c.bet_factor, c.bet_tree, c.spite), (10.0, 1, true, 0.0));
        let r = IsmctsConfig::parse("keyed=true:guide=0.5:bet_noise=2:rollout_eps=0.1").unwrap();
        assert_eq!((r.keyed, r.guide, r.bet_noise, r.rollout_eps), (true, 0.5, 2.0, 0.1));
        assert_eq!(IsmctsConfig::parse("rollout=sighted").unwrap().rollout, Rollout::Sighted);
        assert_eq!(IsmctsConfig::parse("").unwrap(), IsmctsConfig::default());
        for bad in [
            "keyed=1",
            "guide=-1",
            "bet_noise=nan",
            "rollout_eps=1.5",
            "iterations=0",
            "c=-1",
            "rollout=smart",
            "exact=10",
            "infer=-0.1",
            "halving=yes",
            "depth=3",
            "c",
            "puct=-1",
            "prior=1",
        ] {
            assert!(IsmctsConfig::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn a_bet_knowing_the_deal_draws_only_that_deal_and_forgets_it_after() {
        use oh7_core::game::Game;
        use oh7_core::ruleset::{Preset, Ruleset};
        let g = oh7_core::oh7::Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 7).unwrap();
        let seat = g.to_move().lowest().unwrap();
        let view = g.view(seat);
        let mut actions = Vec::new();
        g.legal_actions(seat, &mut actions);
        let legal = cards_of(&actions);
        let hands = crate::expert::true_hands(&g);
        let mut bot = IsmctsBot::new(IsmctsConfig { iterations: 200, ..IsmctsConfig::default() }, 1);
        let card = bot.bet_knowing(&view, legal, hands, g.dummy_pile().to_vec());
        assert!(legal.contains(card));
        assert!(bot.fixed.is_none(), "the deal is forgotten after the bet");
        bot.fixed = Some((hands, Vec::new()));
        let know = Knowledge::from_view(&view);
        assert_eq!(bot.draw(&know).0, hands);
    }
}
