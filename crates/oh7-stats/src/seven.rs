//! Statistics of Seven games (`"game": "seven"` records, fields in `docs/seven-records.md`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::estimate::{Cell, Hist, Mean, Rate};
use crate::oh7::quantile_cells;
use crate::report::{Report, Section};

/// The action cards of Seven, in the order shown.
pub const ACTION_CARDS: [&str; 6] = ["2", "A♠", "7", "8", "10", "J"];

/// The parts of a Seven record read here (other fields are ignored).
#[derive(Deserialize)]
struct SevenRecord {
    players: usize,
    #[serde(default)]
    seats: Vec<String>,
    rounds: Vec<SevenRound>,
    #[serde(default)]
    winners: Vec<usize>,
    finished: bool,
}

#[derive(Deserialize)]
struct SevenRound {
    #[serde(default)]
    seats_in: Vec<usize>,
    #[serde(default)]
    turns: Vec<(usize, Value)>,
    #[serde(default)]
    reshuffles: Vec<Value>,
    #[serde(default)]
    out: Option<usize>,
    #[serde(default)]
    points: Option<Vec<i64>>,
    #[serde(default)]
    eliminated: Option<Vec<usize>>,
}

/// What one player (a seat, or every seat with the same name) did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SevenPlayer {
    /// Points added per round played.
    pub points: Mean,
    /// Went out (emptied their hand) in a round played.
    pub out: Rate,
    /// Finished games won.
    pub wins: Rate,
    /// Place in the elimination order of finished games: 1 = eliminated first, …; winners get
    /// the number of players (`players` = won), seats never eliminated but not winning get
    /// `players - 1` at most (they share the place after the last elimination).
    pub place: Hist,
    /// Plays of each action card ([`ACTION_CARDS`]), and of other cards last.
    pub plays: [u64; 7],
    /// Turn actions taken (plays, draws, passes).
    pub turns: u64,
}

impl SevenPlayer {
    fn merge(&mut self, o: &SevenPlayer) {
        self.points.merge(&o.points);
        self.out.merge(&o.out);
        self.wins.merge(&o.wins);
        self.place.merge(&o.place);
        for i in 0..7 {
            self.plays[i] += o.plays[i];
        }
        self.turns += o.turns;
    }
}

/// The accumulator of Seven statistics (same contract as [`crate::oh7::Oh7Stats`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SevenStats {
    /// Records added.
    pub games: u64,
    /// Unfinished games.
    pub unfinished: u64,
    /// Games by number of players.
    pub players: BTreeMap<u64, u64>,
    /// Rounds per finished game.
    pub rounds_per_game: Hist,
    /// Finished rounds.
    pub rounds: u64,
    /// Rounds cut by the turn limit (nobody went out).
    pub cut: Rate,
    /// Turn actions (plays, draws, passes) per round.
    pub turns: Mean,
    /// Points added per player per round (the player who went out adds 0).
    pub points_hist: Hist,
    /// Plays per card kind ([`ACTION_CARDS`], then other cards).
    pub plays: [u64; 7],
    /// Draw actions.
    pub draws: u64,
    /// Cards drawn.
    pub cards_drawn: u64,
    /// Passes (under a 7 lock).
    pub passes: u64,
    /// Plays announcing the last card.
    pub announces: u64,
    /// Call-outs that made the offender draw.
    pub callouts: u64,
    /// Reshuffles of the discard pile.
    pub reshuffles: u64,
    /// By seat name.
    pub by_name: BTreeMap<String, SevenPlayer>,
    /// By seat number.
    pub by_seat: Vec<SevenPlayer>,
}

/// Index in [`ACTION_CARDS`] of a card in Seven notation (`2S`, `AS'`, `10H`), 6 for others.
fn card_kind(card: &str) -> usize {
    let c = card.trim_end_matches('\'');
    let rank = &c[..c.len().saturating_sub(1)];
    match rank {
        "2" => 0,
        "A" if c.ends_with('S') => 1,
        "7" => 2,
        "8" => 3,
        "10" => 4,
        "J" => 5,
        _ => 6,
    }
}

impl SevenStats {
    /// Add one record (a JSON value of a Seven record).
    pub fn add(&mut self, v: &Value) -> Result<(), serde_json::Error> {
        let r = SevenRecord::deserialize(v)?;
        self.games += 1;
        let np = r.players;
        *self.players.entry(np as u64).or_insert(0) += 1;
        if self.by_seat.len() < np {
            self.by_seat.resize(np, SevenPlayer::default());
        }
        let names: Vec<String> = (0..np).map(|s| r.seats.get(s).cloned().unwrap_or_else(|| format!("p{s}"))).collect();
        for n in &names {
            self.by_name.entry(n.clone()).or_default();
        }
        let mut place = vec![0i64; np];
        let mut eliminated_so_far = 0i64;
        let mut finished_rounds = 0;
        for round in &r.rounds {
            let Some(points) = &round.points else { continue };
            finished_rounds += 1;
            self.rounds += 1;
            self.cut.add(round.out.is_none());
            self.reshuffles += round.reshuffles.len() as u64;
            let mut turns = 0;
            for (seat, a) in &round.turns {
                let seat = *seat;
                if seat >= np {
                    continue;
                }
                let mut turn = true;
                let mut kind = None;
                if let Some(card) = a.get("play").and_then(|c| c.as_str()) {
                    let k = card_kind(card);
                    self.plays[k] += 1;
                    kind = Some(k);
                    if a.get("announce").and_then(|x| x.as_bool()) == Some(true) {
                        self.announces += 1;
                    }
                } else if a.get("call_out").is_some() {
                    turn = false;
                    if a.get("draw").is_some() {
                        self.callouts += 1;
                    }
                } else if let Some(d) = a.get("draw") {
                    self.draws += 1;
                    self.cards_drawn += d.as_array().map_or(0, |x| x.len() as u64);
                } else if a.get("pass").is_some() {
                    self.passes += 1;
                } else {
                    turn = false; // no_call and anything newer
                }
                turns += turn as i64;
                for p in [&mut self.by_seat[seat], self.by_name.get_mut(&names[seat]).expect("inserted")] {
                    p.turns += turn as u64;
                    if let Some(k) = kind {
                        p.plays[k] += 1;
                    }
                }
            }
            self.turns.add(turns);
            for &s in &round.seats_in {
                if s >= np {
                    continue;
                }
                let pts = points.get(s).copied().unwrap_or(0);
                self.points_hist.add(pts);
                for p in [&mut self.by_seat[s], self.by_name.get_mut(&names[s]).expect("inserted")] {
                    p.points.add(pts);
                    p.out.add(round.out == Some(s));
                }
            }
            if let Some(el) = &round.eliminated
                && !el.is_empty()
            {
                for &s in el {
                    if s < np {
                        place[s] = eliminated_so_far + 1;
                    }
                }
                eliminated_so_far += el.len() as i64;
            }
        }
        if !r.finished {
            self.unfinished += 1;
            return Ok(());
        }
        self.rounds_per_game.add(finished_rounds);
        for s in 0..np {
            let win = r.winners.contains(&s);
            let pl = if win {
                np as i64
            } else if place[s] == 0 {
                (eliminated_so_far + 1).min(np as i64 - 1)
            } else {
                place[s]
            };
            for p in [&mut self.by_seat[s], self.by_name.get_mut(&names[s]).expect("inserted")] {
                p.wins.add(win);
                p.place.add(pl);
            }
        }
        Ok(())
    }

    /// Add another accumulator's counts.
    pub fn merge(&mut self, o: &SevenStats) {
        self.games += o.games;
        self.unfinished += o.unfinished;
        for (k, v) in &o.players {
            *self.players.entry(*k).or_insert(0) += v;
        }
        self.rounds_per_game.merge(&o.rounds_per_game);
        self.rounds += o.rounds;
        self.cut.merge(&o.cut);
        self.turns.merge(&o.turns);
        self.points_hist.merge(&o.points_hist);
        for i in 0..7 {
            self.plays[i] += o.plays[i];
        }
        self.draws += o.draws;
        self.cards_drawn += o.cards_drawn;
        self.passes += o.passes;
        self.announces += o.announces;
        self.callouts += o.callouts;
        self.reshuffles += o.reshuffles;
        for (k, v) in &o.by_name {
            self.by_name.entry(k.clone()).or_default().merge(v);
        }
        if self.by_seat.len() < o.by_seat.len() {
            self.by_seat.resize(o.by_seat.len(), SevenPlayer::default());
        }
        for (a, b) in self.by_seat.iter_mut().zip(&o.by_seat) {
            a.merge(b);
        }
    }

    /// The statistics as report sections.
    pub fn report(&self, out: &mut Report) {
        if self.games == 0 {
            return;
        }
        let per_round = |x: u64| Cell::plain(x as f64 / self.rounds.max(1) as f64, self.rounds);
        let mut t = Section::new("seven.table", "Seven: per table", &["value"]);
        t.row_all("games", vec![Cell::count(self.games)]);
        if self.unfinished > 0 {
            t.row_all("unfinished games", vec![Cell::count(self.unfinished)]);
        }
        for (p, n) in &self.players {
            t.row_all(format!("games with {p} players"), vec![Cell::count(*n)]);
        }
        t.row_all("rounds (finished)", vec![Cell::count(self.rounds)]);
        t.row_all("rounds per game", vec![self.rounds_per_game.mean().cell()]);
        t.row_all("rounds cut by the turn limit", vec![self.cut.cell()]);
        t.row_all("turns per round", vec![self.turns.cell()]);
        t.row_all("points per player per round", vec![self.points_hist.mean().cell()]);
        t.row_all("draw actions per round", vec![per_round(self.draws)]);
        t.row_all("cards drawn per round", vec![per_round(self.cards_drawn)]);
        t.row_all("passes per round", vec![per_round(self.passes)]);
        t.row_all("last-card announcements per round", vec![per_round(self.announces)]);
        t.row_all("successful call-outs per round", vec![per_round(self.callouts)]);
        t.row_all("reshuffles per round", vec![per_round(self.reshuffles)]);
        out.sections.push(t);

        let plays: u64 = self.plays.iter().sum();
        let mut a = Section::new("seven.actions", "Seven: action-card use", &["plays", "per round", "share of plays"]);
        for (i, name) in ACTION_CARDS.iter().chain(std::iter::once(&"other cards")).enumerate() {
            a.row_all(
                name.to_string(),
                vec![
                    Cell::count(self.plays[i]),
                    per_round(self.plays[i]),
                    Rate { hits: self.plays[i], n: plays }.cell(),
                ],
            );
        }
        out.sections.push(a);

        let cols = ["points/round", "went out", "wins", "mean place"];
        let mut by = Section::new("seven.players", "Seven: per player (by seat name)", &cols);
        for (name, p) in &self.by_name {
            by.row_all(name.clone(), player_cells(p));
        }
        out.sections.push(by);
        let mut bs = Section::new("seven.seats", "Seven: per seat", &cols);
        for (s, p) in self.by_seat.iter().enumerate() {
            bs.row_all(format!("seat {s}"), player_cells(p));
        }
        out.sections.push(bs);

        let maxp = self.players.keys().copied().max().unwrap_or(2) as i64;
        let mut cols: Vec<String> = (1..maxp).map(|k| format!("out {k}{}", ordinal(k))).collect();
        cols.push("won".into());
        let colrefs: Vec<&str> = cols.iter().map(|c| c.as_str()).collect();
        let mut el = Section::new("seven.elimination", "Seven: elimination order (share of games)", &colrefs);
        for (s, p) in self.by_seat.iter().enumerate() {
            el.row_all(format!("seat {s}"), (1..=maxp).map(|k| p.place.share(k).cell()).collect());
        }
        if self.by_name.len() > 1 {
            for (name, p) in &self.by_name {
                el.row_all(name.clone(), (1..=maxp).map(|k| p.place.share(k).cell()).collect());
            }
        }
        out.sections.push(el);

        let mut rg = Section::new("seven.rounds", "Seven: rounds per game", &["games", "share"]);
        for (&k, &c) in &self.rounds_per_game.0 {
            rg.row_all(format!("{k} rounds"), vec![Cell::count(c), self.rounds_per_game.share(k).cell()]);
        }
        out.sections.push(rg);

        let qcols = ["mean", "sd", "min", "p10", "median", "p90", "max"];
        let mut sd = Section::new("seven.scores", "Seven: points per round", &qcols);
        sd.row_all("points per player per round", quantile_cells(&self.points_hist));
        out.sections.push(sd);
    }
}

fn ordinal(k: i64) -> &'static str {
    match k {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    }
}

fn player_cells(p: &SevenPlayer) -> Vec<Cell> {
    vec![p.points.cell(), p.out.cell(), p.wins.cell(), p.place.mean().cell()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_kinds() {
        assert_eq!(card_kind("2H"), 0);
        assert_eq!(card_kind("AS'"), 1);
        assert_eq!(card_kind("AH"), 6);
        assert_eq!(card_kind("7C"), 2);
        assert_eq!(card_kind("8D'"), 3);
        assert_eq!(card_kind("10S"), 4);
        assert_eq!(card_kind("JH"), 5);
        assert_eq!(card_kind("QH"), 6);
    }
}
