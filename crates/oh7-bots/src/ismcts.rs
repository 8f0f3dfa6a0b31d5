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

use oh7_core::card::{Card, CardSet};
use oh7_core::game::Seat;
use oh7_core::oh7::{Action, MAX_SEATS, PhaseView, SeatView};
use oh7_core::ruleset::Ruleset;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Bot;
use crate::expert::resolve_leader;
use crate::heuristic::{cards_of, heuristic_bet, heuristic_play, other_decision, play_info};
use crate::pi::{Position, Scorer};
use crate::sample::{Knowledge, position_from_view, seat_of, used_bet_cards};

/// How a rollout finishes the round from the tree's last node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random legal moves (the paper's and OpenSpiel's default).
    Random,
    /// The heuristic bot's bets and plays.
    Heuristic,
}

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
}

impl Default for IsmctsConfig {
    /// The level `ismcts`: 1,000 iterations, heuristic rollouts, c = 0.7 on rewards of
    /// points / 10 (the choices are explained in `docs/bots.md`, with their tuning table).
    fn default() -> Self {
        IsmctsConfig { iterations: 1000, c: 0.7, scale: 10.0, rollout: Rollout::Heuristic }
    }
}

impl IsmctsConfig {
    /// Settings from `key=value` pairs over the defaults: `iterations`, `c`, `scale`,
    /// `rollout` (`random` or `heuristic`), separated by `:` or `,`, e.g. `iterations=4000:c=0.35:rollout=random`.
    pub fn parse(text: &str) -> Result<IsmctsConfig, String> {
        let mut cfg = IsmctsConfig::default();
        for part in text.split([',', ':']).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| format!("ismcts setting `{part}`: write key=value"))?;
            let bad = || format!("ismcts setting `{part}`: bad value");
            match k {
                "iterations" => cfg.iterations = v.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
                "c" => cfg.c = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?,
                "scale" => cfg.scale = v.parse().ok().filter(|x: &f64| x.is_finite() && *x > 0.0).ok_or_else(bad)?,
                "rollout" => {
                    cfg.rollout = match v {
                        "random" => Rollout::Random,
                        "heuristic" => Rollout::Heuristic,
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(format!("unknown ismcts setting `{k}`: iterations, c, scale, rollout")),
            }
        }
        Ok(cfg)
    }
}

const NO_PARENT: u32 = u32::MAX;

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
}

impl IsmctsBot {
    /// An ISMCTS bot with `cfg`, deterministic for `seed`.
    pub fn new(cfg: IsmctsConfig, seed: u64) -> IsmctsBot {
        IsmctsBot { cfg, rng: ChaCha8Rng::seed_from_u64(seed), nodes: Vec::new(), path: Vec::new() }
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

    /// Among the children of `node` legal in `legal`: `Ok(child)` by UCB1 with availability
    /// (each legal child's availability counted), or `Err(card)`, an untried legal card.
    fn select(&mut self, node: u32, legal: CardSet) -> Result<u32, Card> {
        let mut untried = legal;
        for &c in &self.nodes[node as usize].children {
            untried.remove(self.nodes[c as usize].card);
        }
        if !untried.is_empty() {
            let k = self.rng.random_range(0..untried.len());
            return Err(untried.iter().nth(k as usize).expect("k < len"));
        }
        let c = self.cfg.c;
        let mut best = (f64::NEG_INFINITY, NO_PARENT);
        for i in 0..self.nodes[node as usize].children.len() {
            let ch = self.nodes[node as usize].children[i];
            let n = &mut self.nodes[ch as usize];
            if !legal.contains(n.card) {
                continue;
            }
            n.avail += 1;
            let v = n.reward / n.visits as f64 + c * ((n.avail as f64).ln() / n.visits as f64).sqrt();
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

    /// Descend from `node` through the card play of `pos` (selection, one expansion), roll out,
    /// and return the final tricks.
    fn play_iteration(&mut self, mut node: u32, pos: &mut Position, bets: &[u8; MAX_SEATS]) {
        let mut expanded = false;
        while !pos.is_over() {
            let seat = pos.to_move();
            let legal = pos.legal();
            if expanded {
                let c = self.rollout_card(pos, bets, legal);
                pos.play(c);
                continue;
            }
            match self.select(node, legal) {
                Ok(ch) => {
                    pos.play(self.nodes[ch as usize].card);
                    node = ch;
                }
                Err(card) => {
                    node = self.add(node, card, seat);
                    pos.play(card);
                    expanded = true;
                }
            }
            self.path.push(node);
        }
    }

    fn rollout_card(&mut self, pos: &Position, bets: &[u8; MAX_SEATS], legal: CardSet) -> Card {
        match self.cfg.rollout {
            Rollout::Heuristic => heuristic_play(&play_info(pos, bets)),
            Rollout::Random => {
                let k = self.rng.random_range(0..legal.len());
                legal.iter().nth(k as usize).expect("k < len")
            }
        }
    }

    fn backprop(&mut self, points: &[f64; MAX_SEATS]) {
        self.nodes[0].visits += 1;
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += points[n.seat as usize] / self.cfg.scale;
        }
        self.path.clear();
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
            return legal.first().expect("one");
        }
        let bet_cards = view.bet_cards().expect("bets are known in play");
        let scorer = Scorer::new(view.rules(), bet_cards);
        let know = Knowledge::from_view(view);
        self.reset();
        for _ in 0..self.cfg.iterations {
            let (hands, pile) = know.sample(&mut self.rng);
            let mut pos = position_from_view(view, &hands, &pile);
            self.play_iteration(0, &mut pos, &scorer.bets);
            let mut points = [0.0; MAX_SEATS];
            for (p, x) in points.iter_mut().enumerate().take(view.players()) {
                *x = scorer.score(&pos.won, p) as f64;
            }
            self.backprop(&points);
        }
        self.best_root()
    }

    /// A bet by the rollout policy for seat `p` from `bettable`.
    fn policy_bet(&mut self, rules: &Ruleset, hand: CardSet, bettable: CardSet, table: usize) -> Card {
        match self.cfg.rollout {
            Rollout::Heuristic => heuristic_bet(rules, hand, bettable, table, CardSet::EMPTY),
            Rollout::Random => {
                let k = self.rng.random_range(0..bettable.len());
                bettable.iter().nth(k as usize).expect("k < len")
            }
        }
    }

    /// Choose a bet card.
    pub fn bet(&mut self, view: &SeatView, legal: CardSet) -> Card {
        if legal.len() == 1 {
            return legal.first().expect("one");
        }
        let me = seat_of(view);
        let rules = *view.rules();
        let n = view.players();
        let dummy = view.dummy();
        let table = view.table_seats();
        let first_attempt = view.bet_attempts().len() + 1;
        let used0 = used_bet_cards(view);
        let know = Knowledge::from_view(view);
        self.reset();
        for _ in 0..self.cfg.iterations {
            let (hands, mut pile) = know.sample(&mut self.rng);
            // My bet: the tree's root decision (all my bettable cards are legal in every
            // determinization).
            let mine = match self.select(0, legal) {
                Ok(ch) => ch,
                Err(card) => self.add(0, card, me),
            };
            self.path.push(mine);
            let mut bets = [Card::INTERROBANG; MAX_SEATS];
            bets[me] = self.nodes[mine as usize].card;
            let mut used = used0;
            let mut points = [0.0; MAX_SEATS];
            let mut attempt = first_attempt;
            let mut resolved = None;
            loop {
                for p in 0..n {
                    if p != me || attempt > first_attempt {
                        let mut bettable = hands[p].minus(used[p]);
                        bettable.remove(Card::INTERROBANG);
                        if bettable.is_empty() {
                            break;
                        }
                        bets[p] = self.policy_bet(&rules, hands[p], bettable, table);
                    }
                }
                if let Some(r) = resolve_leader(&rules, &bets[..n], &hands, dummy.is_some(), attempt, &mut self.rng) {
                    resolved = Some(r);
                    break;
                }
                // A sum of 7: the rebid bonus, then another attempt (or a redeal).
                if rules.rebid_bonus {
                    let rank = |c: Card| c.value() as u16 * 8 + c.suit().map_or(0, |s| 5 - s.index() as u16);
                    let top = (0..n).map(|p| rank(bets[p])).max().unwrap_or(0);
                    for p in 0..n {
                        if rank(bets[p]) == top {
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
                let mut h = hands;
                let mut rest: &[Card] = &[];
                if let Some(d) = dummy {
                    h[d] = CardSet::from_cards(&pile[..2.min(pile.len())]);
                    rest = &pile[2.min(pile.len())..];
                }
                let mut pos = Position::start(&rules, table, dummy, &h, rest, leader, trump);
                let scorer = Scorer::new(&rules, &bets[..n]);
                // The tree goes on into the play when the bets stand as this iteration's first
                // attempt made them; after a re-bet the rollout plays.
                if attempt == first_attempt {
                    self.play_iteration(mine, &mut pos, &scorer.bets);
                } else {
                    while !pos.is_over() {
                        let legal = pos.legal();
                        let c = self.rollout_card(&pos, &scorer.bets, legal);
                        pos.play(c);
                    }
                }
                for (p, x) in points.iter_mut().enumerate().take(n) {
                    *x += scorer.score(&pos.won, p) as f64;
                }
            }
            pile.clear();
            self.backprop(&points);
        }
        self.best_root()
    }
}

impl Bot<oh7_core::oh7::Oh7Game> for IsmctsBot {
    fn name(&self) -> String {
        "bot:ismcts".to_string()
    }

    fn choose(&mut self, view: &SeatView<'_>, legal: &[Action]) -> Action {
        match (view.phase(), legal[0]) {
            (PhaseView::Betting { .. }, Action::Bet(_)) => Action::Bet(self.bet(view, cards_of(legal))),
            (PhaseView::Playing, Action::Play(_)) => Action::Play(self.play(view, cards_of(legal))),
            _ => other_decision(view, legal),
        }
    }
}
