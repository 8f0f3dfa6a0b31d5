//! Statistics of Oh 7 family games (`"game": "oh7"` records).
//!
//! Everything is computed from the record alone (seat names, bets, tricks, points), so the
//! figures are the same for simulated and online games. The Dummy (seat 2 when `dummy` is true)
//! is never a player here: its bet counts in the bet sum only.

use std::collections::BTreeMap;

use oh7_core::card::{Card, Kind, Suit};
use oh7_core::oh7::{Record, RoundRecord};
use serde::{Deserialize, Serialize};

use crate::estimate::{Cell, Hist, Mean, Rate};
use crate::report::{Report, Section};

/// Highest bet value.
pub const MAX_BET: usize = 7;

/// What one player (a seat, or every seat with the same name) did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Points scored per round.
    pub points: Mean,
    /// The final bet per round.
    pub bet: Mean,
    /// Bets of 0.
    pub nil: Rate,
    /// Bets equal to the highest bet of the round (ties count for every tied player).
    pub top: Rate,
    /// Made bets (tricks won = bet).
    pub made: Rate,
    /// Won more tricks than bet.
    pub over: Rate,
    /// Won fewer tricks than bet.
    pub under: Rate,
    /// Made bets by bet value 0-7.
    pub by_bet: [Rate; MAX_BET + 1],
    /// Was the first leader.
    pub first_leader: Rate,
    /// Finished games won (shared victories count as wins).
    pub wins: Rate,
    /// Final scores of finished games.
    pub final_score: Hist,
}

impl PlayerStats {
    /// Add another player's (or the same player's at another seat or table) figures.
    pub fn merge(&mut self, o: &PlayerStats) {
        self.points.merge(&o.points);
        self.bet.merge(&o.bet);
        self.nil.merge(&o.nil);
        self.top.merge(&o.top);
        self.made.merge(&o.made);
        self.over.merge(&o.over);
        self.under.merge(&o.under);
        for (a, b) in self.by_bet.iter_mut().zip(&o.by_bet) {
            a.merge(b);
        }
        self.first_leader.merge(&o.first_leader);
        self.wins.merge(&o.wins);
        self.final_score.merge(&o.final_score);
    }
}

/// The accumulator of Oh 7 statistics: add records one at a time (constant memory), merge
/// partial accumulators from threads; the order never changes the figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Oh7Stats {
    /// Records added.
    pub games: u64,
    /// Records of unfinished games (their scored rounds still count).
    pub unfinished: u64,
    /// Games by preset name.
    pub presets: BTreeMap<String, u64>,
    /// Games by number of players (Dummy not counted).
    pub players: BTreeMap<u64, u64>,
    /// Games played with the Dummy.
    pub dummy_games: u64,
    /// Rounds (scored) per finished game.
    pub rounds_per_game: Hist,
    /// Scored rounds.
    pub rounds: u64,
    /// Abandoned deals per round.
    pub redeals: Mean,
    /// Rounds with at least one redeal.
    pub redealt_rounds: Rate,
    /// Bet attempts of the deal that was played, per round.
    pub attempts: Hist,
    /// Bet attempts per round, abandoned deals included.
    pub attempts_all: Mean,
    /// Sum of the final bets (the Dummy's 2 included).
    pub bet_sum: Hist,
    /// Final bets of 0 (every player's bet).
    pub nil: Rate,
    /// Final bets made with a ★.
    pub star_bets: Rate,
    /// The highest final bet of each round (players only).
    pub top_bid: Mean,
    /// Rounds by trump suit (index in `S H C D F`).
    pub trump: [u64; 5],
    /// The first leader made their bet.
    pub first_leader_made: Rate,
    /// Made bets of the non-leading players (to compare with the first leader).
    pub others_made: Rate,
    /// Made bets by the number of trumps in the hand played (0-7).
    pub made_by_trumps: [Rate; 8],
    /// The player with strictly the most trumps made their bet.
    pub most_trumps_made: Rate,
    /// Made bets by bet value, every player.
    pub by_bet: [Rate; MAX_BET + 1],
    /// Points per round, every player.
    pub points_hist: Hist,
    /// Final score, every player of every finished game.
    pub final_hist: Hist,
    /// The winners' final score.
    pub winner_score: Hist,
    /// Finished games with a shared victory.
    pub shared: Rate,
    /// `bga` rebid bonus points per round (all players together).
    pub bonus: Mean,
    /// By seat name (`bot:random`, `alice`, …).
    pub by_name: BTreeMap<String, PlayerStats>,
    /// By seat number.
    pub by_seat: Vec<PlayerStats>,
}

fn trumps_in(cards: impl Iterator<Item = Card>, trump: Suit) -> usize {
    cards.filter(|c| c.kind() == Kind::Regular(trump)).count()
}

impl Oh7Stats {
    /// Add one record.
    pub fn add(&mut self, r: &Record) {
        self.games += 1;
        // No String per record but the first of each preset.
        match self.presets.get_mut(r.preset.name()) {
            Some(n) => *n += 1,
            None => {
                self.presets.insert(r.preset.name().to_string(), 1);
            }
        }
        *self.players.entry(r.players as u64).or_insert(0) += 1;
        self.dummy_games += r.dummy as u64;
        let np = r.players;
        if self.by_seat.len() < np {
            self.by_seat.resize(np, PlayerStats::default());
        }
        let names: Vec<&str> = (0..np).map(|s| r.seats.get(s).map_or("?", |n| n.as_str())).collect();
        for name in &names {
            if !self.by_name.contains_key(*name) {
                self.by_name.insert(name.to_string(), PlayerStats::default());
            }
        }
        let mut scored = 0u64;
        for round in &r.rounds {
            if round.points.len() < np || round.bets.len() < np || round.won.len() < np {
                continue;
            }
            scored += 1;
            self.add_round(round, np, &names);
        }
        if !r.finished {
            self.unfinished += 1;
            return;
        }
        self.rounds_per_game.add(scored as i64);
        self.shared.add(r.winners.len() > 1);
        let totals = r.rounds.iter().rev().find(|x| x.totals.len() >= np).map(|x| &x.totals);
        for s in 0..np {
            let win = r.winners.contains(&s);
            let total = totals.map_or(0, |t| t[s]) as i64;
            self.final_hist.add(total);
            if win {
                self.winner_score.add(total);
            }
            for p in [&mut self.by_seat[s], self.by_name.get_mut(names[s]).expect("inserted")] {
                p.wins.add(win);
                p.final_score.add(total);
            }
        }
    }

    fn add_round(&mut self, round: &RoundRecord, np: usize, names: &[&str]) {
        self.rounds += 1;
        self.redeals.add(round.redeals.len() as i64);
        self.redealt_rounds.add(!round.redeals.is_empty());
        self.attempts.add(round.deal.bet_attempts.len() as i64);
        let all: usize =
            round.redeals.iter().map(|d| d.bet_attempts.len()).sum::<usize>() + round.deal.bet_attempts.len();
        self.attempts_all.add(all as i64);
        self.bet_sum.add(round.bets.iter().map(|&b| b as i64).sum());
        let top = round.bets[..np].iter().copied().max().unwrap_or(0);
        self.top_bid.add(top as i64);
        self.bonus.add(round.bonus.iter().map(|&b| b as i64).sum());
        if let Some(t) = round.trump {
            self.trump[t.index()] += 1;
        }
        let last_attempt = round.deal.bet_attempts.last();
        // The hand each player played: the cards they played to the tricks.
        let mut trumps = [0usize; 16];
        if let Some(t) = round.trump {
            for tr in &round.tricks {
                for &(s, c) in &tr.plays {
                    if s < np {
                        trumps[s] += trumps_in(std::iter::once(c), t);
                    }
                }
            }
            let most = trumps[..np].iter().copied().max().unwrap_or(0);
            let holders: Vec<usize> = (0..np).filter(|&s| trumps[s] == most).collect();
            if holders.len() == 1 {
                let s = holders[0];
                self.most_trumps_made.add(round.bets[s] == round.won[s]);
            }
        }
        for s in 0..np {
            let (bet, won) = (round.bets[s], round.won[s]);
            let made = bet == won;
            let leader = round.first_leader == Some(s);
            self.nil.add(bet == 0);
            if let Some(card) = last_attempt.and_then(|a| a.get(s)) {
                self.star_bets.add(card.kind() == Kind::Star);
            }
            if (bet as usize) <= MAX_BET {
                self.by_bet[bet as usize].add(made);
            }
            if leader {
                self.first_leader_made.add(made);
            } else {
                self.others_made.add(made);
            }
            if round.trump.is_some() {
                self.made_by_trumps[trumps[s].min(7)].add(made);
            }
            self.points_hist.add(round.points[s] as i64);
            for p in [&mut self.by_seat[s], self.by_name.get_mut(names[s]).expect("inserted")] {
                p.points.add(round.points[s] as i64);
                p.bet.add(bet as i64);
                p.nil.add(bet == 0);
                p.top.add(bet == top);
                p.made.add(made);
                p.over.add(won > bet);
                p.under.add(won < bet);
                if (bet as usize) <= MAX_BET {
                    p.by_bet[bet as usize].add(made);
                }
                p.first_leader.add(leader);
            }
        }
    }

    /// Add another accumulator's counts.
    pub fn merge(&mut self, o: &Oh7Stats) {
        self.games += o.games;
        self.unfinished += o.unfinished;
        for (k, v) in &o.presets {
            *self.presets.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &o.players {
            *self.players.entry(*k).or_insert(0) += v;
        }
        self.dummy_games += o.dummy_games;
        self.rounds_per_game.merge(&o.rounds_per_game);
        self.rounds += o.rounds;
        self.redeals.merge(&o.redeals);
        self.redealt_rounds.merge(&o.redealt_rounds);
        self.attempts.merge(&o.attempts);
        self.attempts_all.merge(&o.attempts_all);
        self.bet_sum.merge(&o.bet_sum);
        self.nil.merge(&o.nil);
        self.star_bets.merge(&o.star_bets);
        self.top_bid.merge(&o.top_bid);
        for i in 0..5 {
            self.trump[i] += o.trump[i];
        }
        self.first_leader_made.merge(&o.first_leader_made);
        self.others_made.merge(&o.others_made);
        for (a, b) in self.made_by_trumps.iter_mut().zip(&o.made_by_trumps) {
            a.merge(b);
        }
        self.most_trumps_made.merge(&o.most_trumps_made);
        for (a, b) in self.by_bet.iter_mut().zip(&o.by_bet) {
            a.merge(b);
        }
        self.points_hist.merge(&o.points_hist);
        self.final_hist.merge(&o.final_hist);
        self.winner_score.merge(&o.winner_score);
        self.shared.merge(&o.shared);
        self.bonus.merge(&o.bonus);
        for (k, v) in &o.by_name {
            self.by_name.entry(k.clone()).or_default().merge(v);
        }
        if self.by_seat.len() < o.by_seat.len() {
            self.by_seat.resize(o.by_seat.len(), PlayerStats::default());
        }
        for (a, b) in self.by_seat.iter_mut().zip(&o.by_seat) {
            a.merge(b);
        }
    }

    /// Rounds in which each suit was trump, as rates over the rounds with a trump.
    pub fn trump_rates(&self) -> Vec<(Suit, Rate)> {
        let n: u64 = self.trump.iter().sum();
        Suit::ALL
            .iter()
            .filter(|s| self.trump[s.index()] > 0)
            .map(|&s| (s, Rate { hits: self.trump[s.index()], n }))
            .collect()
    }

    /// The statistics as report sections.
    pub fn report(&self, out: &mut Report) {
        if self.games == 0 {
            return;
        }
        let mut t = Section::new("oh7.table", "Oh 7: per table (§10 and more)", &["value"]);
        t.row_all("games", vec![Cell::count(self.games)]);
        for (k, v) in &self.presets {
            t.row_all(format!("games of {k}"), vec![Cell::count(*v)]);
        }
        if self.unfinished > 0 {
            t.row_all("unfinished games", vec![Cell::count(self.unfinished)]);
        }
        for (p, n) in &self.players {
            t.row_all(format!("games with {p} players"), vec![Cell::count(*n)]);
        }
        if self.dummy_games > 0 {
            t.row_all("games with the Dummy", vec![Cell::count(self.dummy_games)]);
        }
        t.row_all("rounds (scored)", vec![Cell::count(self.rounds)]);
        t.row_all("rounds per game", vec![self.rounds_per_game.mean().cell()]);
        t.row_all("nil bid rate", vec![self.nil.cell()]);
        t.row_all("average top bid", vec![self.top_bid.cell()]);
        if self.star_bets.hits > 0 {
            t.row_all("bets made with a star", vec![self.star_bets.cell()]);
        }
        t.row_all("redeals per round", vec![self.redeals.cell()]);
        t.row_all("rounds redealt at least once", vec![self.redealt_rounds.cell()]);
        t.row_all("bet attempts per round (played deal)", vec![self.attempts.mean().cell()]);
        t.row_all("bet attempts per round (redeals included)", vec![self.attempts_all.cell()]);
        t.row_all("sum of bets (Dummy included)", vec![self.bet_sum.mean().cell()]);
        t.row_all("success rate, all bets", vec![Rate::merged(&self.by_bet).cell()]);
        t.row_all("success rate, first leader", vec![self.first_leader_made.cell()]);
        t.row_all("success rate, other players", vec![self.others_made.cell()]);
        t.row_all("success rate, holder of most trumps", vec![self.most_trumps_made.cell()]);
        if self.bonus.sum != 0 {
            t.row_all("rebid bonus points per round", vec![self.bonus.cell()]);
        }
        t.row_all("points per round", vec![self.points_hist.mean().cell()]);
        t.row_all("shared victories", vec![self.shared.cell()]);
        out.sections.push(t);

        let mut tr = Section::new("oh7.trump", "Oh 7: trump selection rate", &["rounds", "rate"]);
        for (s, r) in self.trump_rates() {
            tr.row_all(s.letter().to_string(), vec![Cell::count(r.hits), r.cell()]);
        }
        out.sections.push(tr);

        let cols = ["points/round", "avg bid", "nil bid", "top bid", "success", "overshoot", "shortfall", "wins"];
        let mut by = Section::new("oh7.players", "Oh 7: per player (by seat name)", &cols);
        for (name, p) in &self.by_name {
            by.row_all(name.clone(), player_cells(p));
        }
        out.sections.push(by);
        let mut bs = Section::new("oh7.seats", "Oh 7: per seat", &cols);
        for (s, p) in self.by_seat.iter().enumerate() {
            bs.row_all(format!("seat {s}"), player_cells(p));
        }
        out.sections.push(bs);

        let mut bb = Section::new("oh7.bet_value", "Oh 7: bets by value", &["share of bets", "success"]);
        let nb: u64 = self.by_bet.iter().map(|r| r.n).sum();
        for (v, r) in self.by_bet.iter().enumerate() {
            if r.n > 0 {
                bb.row_all(format!("bet {v}"), vec![Rate { hits: r.n, n: nb }.cell(), r.cell()]);
            }
        }
        out.sections.push(bb);

        let mut bt =
            Section::new("oh7.trumps_held", "Oh 7: success by trumps in the hand played", &["rounds", "success"]);
        for (k, r) in self.made_by_trumps.iter().enumerate() {
            if r.n > 0 {
                bt.row_all(format!("{k} trump{}", if k == 1 { "" } else { "s" }), vec![Cell::count(r.n), r.cell()]);
            }
        }
        out.sections.push(bt);

        let mut ba = Section::new("oh7.attempts", "Oh 7: bet attempts of the played deal", &["rounds", "share"]);
        for (&k, &c) in &self.attempts.0 {
            ba.row_all(format!("{k} attempts"), vec![Cell::count(c), self.attempts.share(k).cell()]);
        }
        out.sections.push(ba);

        let mut bsum = Section::new("oh7.bet_sum", "Oh 7: sum of the final bets", &["rounds", "share"]);
        for (&k, &c) in &self.bet_sum.0 {
            bsum.row_all(format!("sum {k}"), vec![Cell::count(c), self.bet_sum.share(k).cell()]);
        }
        out.sections.push(bsum);

        let mut rg = Section::new("oh7.rounds", "Oh 7: rounds per game", &["games", "share"]);
        for (&k, &c) in &self.rounds_per_game.0 {
            rg.row_all(format!("{k} rounds"), vec![Cell::count(c), self.rounds_per_game.share(k).cell()]);
        }
        out.sections.push(rg);

        let qcols = ["mean", "sd", "min", "p10", "median", "p90", "max"];
        let mut sd = Section::new("oh7.scores", "Oh 7: score distributions", &qcols);
        sd.row_all("points per round", quantile_cells(&self.points_hist));
        sd.row_all("final score, all players", quantile_cells(&self.final_hist));
        sd.row_all("final score, winners", quantile_cells(&self.winner_score));
        for (name, p) in &self.by_name {
            if self.by_name.len() > 1 {
                sd.row_all(format!("final score, {name}"), quantile_cells(&p.final_score));
            }
        }
        out.sections.push(sd);
    }
}

fn player_cells(p: &PlayerStats) -> Vec<Cell> {
    vec![
        p.points.cell(),
        p.bet.cell(),
        p.nil.cell(),
        p.top.cell(),
        p.made.cell(),
        p.over.cell(),
        p.under.cell(),
        p.wins.cell(),
    ]
}

/// Mean (with interval), sd and quantiles of a histogram.
pub fn quantile_cells(h: &Hist) -> Vec<Cell> {
    let m = h.mean();
    let n = h.total();
    let q = |x: f64| Cell::plain(h.quantile(x).unwrap_or(0) as f64, n);
    vec![m.cell(), Cell::plain(m.sd(), n), q(0.0), q(0.1), q(0.5), q(0.9), q(1.0)]
}
