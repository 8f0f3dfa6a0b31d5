//! Game records (`rules/records.md`, format `oh7-record/1`) and replay.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Deal, DecisionKind, MAX_SEATS, Oh7Game, Phase, Round, RuleError};
use crate::card::{Card, CardSet, Suit};
use crate::game::{Game, Seat};
use crate::ruleset::{Preset, Ruleset, RulesetError};

mod scan;

/// The record format this engine writes.
pub(crate) const FORMAT: &str = "oh7-record/1";

/// One game as recorded (`records.md`). Field names are a public interface.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Always `oh7-record/1`.
    pub format: String,
    /// `oh7`.
    pub game: String,
    /// The preset the ruleset starts from.
    pub preset: Preset,
    /// Every knob, so the game replays without the preset table.
    pub ruleset: Ruleset,
    /// Players (the Dummy not counted).
    pub players: usize,
    /// Seat names, clockwise from 0.
    pub seats: Vec<String>,
    /// Whether the Dummy played (it is seat 2).
    pub dummy: bool,
    /// The seed, as hexadecimal.
    pub seed: String,
    /// The rounds, the one in progress last for an unfinished game.
    pub rounds: Vec<RoundRecord>,
    /// Winners (empty if unfinished).
    pub winners: Vec<Seat>,
    /// Whether the game ended.
    pub finished: bool,
}

/// The fields of one deal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealRecord {
    /// The hands as dealt, before passing, one per player.
    pub hands: Vec<Vec<Card>>,
    /// The unused cards (empty with the Dummy).
    pub discard: Vec<Card>,
    /// The Dummy's pile, top first (empty without the Dummy).
    pub dummy_pile: Vec<Card>,
    /// The cards each player passed (empty lists without passing).
    pub passes: Vec<Vec<Card>>,
    /// Where each player's passed cards went (seat `p` gave to `pass_to[p]`); left out when
    /// nothing was passed (and in records written before 2026-11-28).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pass_to: Vec<Seat>,
    /// Every completed bet attempt, one card per player.
    pub bet_attempts: Vec<Vec<Card>>,
}

/// A decision outside bets and plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// Who decided (`null` for a lot drawn by the engine).
    pub seat: Option<Seat>,
    /// `reveal_interrobang`, `choose_leader`, `choose_trump`, `announce_trump` or `lot`.
    pub kind: String,
    /// `true`/`false`, a seat, or a suit letter.
    pub value: Value,
}

/// One trick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrickRecord {
    /// Who led.
    pub leader: Seat,
    /// `[seat, card]` in order of play.
    pub plays: Vec<(Seat, Card)>,
    /// Who won (`null` while the trick is in progress).
    pub winner: Option<Seat>,
}

/// One round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "RoundWire")]
pub struct RoundRecord {
    /// Round number, from 1.
    pub number: u32,
    /// Abandoned deals, oldest first.
    pub redeals: Vec<DealRecord>,
    /// The deal that was played.
    #[serde(flatten)]
    pub deal: DealRecord,
    /// `bga` rebid points scored this round (included in `points`).
    pub bonus: Vec<i32>,
    /// Decisions outside bets and plays, in order.
    pub decisions: Vec<Decision>,
    /// Final bets (the Dummy's 2 third); empty until the bets are final.
    pub bets: Vec<u8>,
    /// The first leader (`null` until known).
    pub first_leader: Option<Seat>,
    /// The trump suit (`null` until known).
    pub trump: Option<Suit>,
    /// The two cards the Dummy turned face up after the bets.
    pub dummy_faceup: Vec<Card>,
    /// Tricks, in order.
    pub tricks: Vec<TrickRecord>,
    /// Tricks won per seat (the Dummy third).
    pub won: Vec<u8>,
    /// Points this round per player (empty until scored).
    pub points: Vec<i32>,
    /// Running totals after the round (empty until scored).
    pub totals: Vec<i32>,
}

/// A round as read: the deal's fields inline. Reading through `#[serde(flatten)]` would buffer
/// every round as a tree first (half the time of reading a records file); writing keeps it.
#[derive(Deserialize)]
struct RoundWire {
    number: u32,
    redeals: Vec<DealRecord>,
    hands: Vec<Vec<Card>>,
    discard: Vec<Card>,
    dummy_pile: Vec<Card>,
    passes: Vec<Vec<Card>>,
    #[serde(default)]
    pass_to: Vec<Seat>,
    bet_attempts: Vec<Vec<Card>>,
    bonus: Vec<i32>,
    decisions: Vec<Decision>,
    bets: Vec<u8>,
    first_leader: Option<Seat>,
    trump: Option<Suit>,
    dummy_faceup: Vec<Card>,
    tricks: Vec<TrickRecord>,
    won: Vec<u8>,
    points: Vec<i32>,
    totals: Vec<i32>,
}

impl From<RoundWire> for RoundRecord {
    fn from(w: RoundWire) -> RoundRecord {
        RoundRecord {
            number: w.number,
            redeals: w.redeals,
            deal: DealRecord {
                hands: w.hands,
                discard: w.discard,
                dummy_pile: w.dummy_pile,
                passes: w.passes,
                pass_to: w.pass_to,
                bet_attempts: w.bet_attempts,
            },
            bonus: w.bonus,
            decisions: w.decisions,
            bets: w.bets,
            first_leader: w.first_leader,
            trump: w.trump,
            dummy_faceup: w.dummy_faceup,
            tricks: w.tricks,
            won: w.won,
            points: w.points,
            totals: w.totals,
        }
    }
}

fn cards(s: CardSet) -> Vec<Card> {
    s.to_vec()
}

impl DealRecord {
    fn from_deal(d: &Deal, players: usize, pass_to: &[Seat]) -> DealRecord {
        let passed = (0..players).any(|p| !d.passes[p].is_empty());
        DealRecord {
            hands: (0..players).map(|p| cards(d.dealt[p])).collect(),
            discard: cards(d.discard),
            dummy_pile: d.pile.clone(),
            passes: (0..players).map(|p| cards(d.passes[p])).collect(),
            pass_to: if passed { pass_to.to_vec() } else { Vec::new() },
            bet_attempts: d.attempts.iter().map(|a| a[..players].to_vec()).collect(),
        }
    }
}

impl Decision {
    fn from_kind(seat: Option<Seat>, k: DecisionKind) -> Decision {
        let (kind, value) = match k {
            DecisionKind::Reveal(b) => ("reveal_interrobang", Value::Bool(b)),
            DecisionKind::ChooseLeader(s) => ("choose_leader", Value::from(s)),
            DecisionKind::ChooseTrump(s) => ("choose_trump", Value::from(s.to_string())),
            DecisionKind::AnnounceTrump(s) => ("announce_trump", Value::from(s.to_string())),
            DecisionKind::Lot(s) => ("lot", Value::from(s)),
        };
        Decision { seat, kind: kind.to_string(), value }
    }
}

impl RoundRecord {
    fn from_round(g: &Oh7Game, r: &Round, totals: Option<&[i32]>, phase: Phase) -> RoundRecord {
        let players = g.players;
        let pass_to = g.rules.pass_to(r.number, players);
        let seats = g.seats;
        let bets_final = r.scored || !matches!(phase, Phase::Passing { .. } | Phase::Betting);
        let playing = r.scored || phase == Phase::Playing;
        let mut tricks: Vec<TrickRecord> = r.tricks[..r.n_tricks as usize]
            .iter()
            .map(|t| TrickRecord { leader: t.leader(), plays: t.plays().collect(), winner: Some(t.winner()) })
            .collect();
        if !r.scored && phase == Phase::Playing && !r.trick.is_empty() {
            tricks.push(TrickRecord { leader: r.trick.leader(), plays: r.trick.plays().collect(), winner: None });
        }
        RoundRecord {
            number: r.number,
            redeals: r.redeals.iter().map(|d| DealRecord::from_deal(d, players, &pass_to)).collect(),
            deal: DealRecord::from_deal(&r.deal, players, &pass_to),
            bonus: r.bonus[..players].to_vec(),
            decisions: r.decisions.iter().map(|&(s, k)| Decision::from_kind(s, k)).collect(),
            bets: if bets_final { r.bets[..seats].to_vec() } else { Vec::new() },
            first_leader: playing.then_some(r.first_leader),
            trump: playing.then_some(r.trump),
            dummy_faceup: if playing && g.dummy.is_some() { r.deal.pile[..2].to_vec() } else { Vec::new() },
            tricks,
            won: if playing { r.won[..seats].to_vec() } else { Vec::new() },
            points: if r.scored { r.points[..players].to_vec() } else { Vec::new() },
            totals: match (r.scored, totals) {
                (true, Some(t)) => t.to_vec(),
                _ => Vec::new(),
            },
        }
    }
}

impl Record {
    /// The record of a game so far.
    pub fn from_game(g: &Oh7Game) -> Record {
        let players = g.players;
        let mut totals = [0i32; MAX_SEATS];
        let mut rounds = Vec::with_capacity(g.history.len() + 1);
        for r in &g.history {
            for p in 0..players {
                totals[p] += r.points[p];
            }
            rounds.push(RoundRecord::from_round(g, r, Some(&totals[..players]), Phase::Over));
        }
        let over = g.is_over();
        let cur = &g.round;
        if cur.scored {
            for p in 0..players {
                totals[p] += cur.points[p];
            }
        }
        rounds.push(RoundRecord::from_round(g, cur, Some(&totals[..players]), g.phase));
        Record {
            format: FORMAT.to_string(),
            game: "oh7".to_string(),
            preset: g.rules.preset,
            ruleset: g.rules,
            players,
            seats: g.names.clone(),
            dummy: g.dummy.is_some(),
            seed: format!("{:016x}", g.seed),
            rounds,
            winners: if over { g.winners() } else { Vec::new() },
            finished: over,
        }
    }
}

/// Why a record does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Not an `oh7-record/1` Oh 7 record.
    #[error("not an oh7-record/1 record of the Oh 7 family: {0}")]
    Format(String),
    /// The ruleset or player count cannot start a game.
    #[error("the record's ruleset cannot start a game: {0}")]
    Setup(#[from] RulesetError),
    /// The engine refuses an action of the record.
    #[error("{at}: the record's `{action}` by seat {seat} is illegal: {error}")]
    Illegal {
        /// Where, in words.
        at: String,
        /// The seat.
        seat: Seat,
        /// The action.
        action: String,
        /// Why.
        error: RuleError,
    },
    /// The engine, given the record's choices, produces something else.
    #[error("first divergence at {path}: the record says {record}, the engine gives {engine}")]
    Divergence {
        /// JSON path of the first differing field.
        path: String,
        /// The record's value.
        record: String,
        /// The engine's value.
        engine: String,
    },
}

/// Replay a record through the engine: the game it produces, or the first divergence.
pub fn replay(value: &Value) -> Result<Oh7Game, ReplayError> {
    replay_logged(value, None)
}

/// [`replay`], also giving the choices it applied, in the order applied (each seat's in the
/// order that seat made them): what a learner replays a record from (`oh7._core`).
pub fn replay_actions(value: &Value) -> Result<(Oh7Game, Vec<(Seat, super::Action)>), ReplayError> {
    let mut log = Vec::new();
    let g = replay_logged(value, Some(&mut log))?;
    Ok((g, log))
}

fn replay_logged(value: &Value, log: Option<&mut Vec<(Seat, super::Action)>>) -> Result<Oh7Game, ReplayError> {
    let rec: Record = serde_json::from_value(value.clone()).map_err(|e| ReplayError::Format(e.to_string()))?;
    let g = replay_steps(&rec, log)?;
    let engine = g.record();
    match first_difference(value, &engine, "record") {
        None => Ok(g),
        Some((path, record, engine)) => Err(ReplayError::Divergence { path, record, engine }),
    }
}

/// A record given as one line of JSON exactly as oh7 writes it, replayed: the game and the
/// record, or `None`, and then [`replay`] says why (or accepts a record written otherwise:
/// spaced, its fields reordered). The same check as [`replay`], several times faster for
/// records files: the line is walked once and its choices applied as they are read (no JSON
/// tree, no typed record read), and the engine's record written out must be the line byte for
/// byte; the record given is the engine's, which is then the line's.
pub fn replay_written(line: &[u8]) -> Option<(Oh7Game, Record)> {
    let line = line.trim_ascii();
    // As oh7 writes them, `format` and `game` come first: a record of another game is left at once.
    const TAG: &[u8] = b"\"game\":\"oh7\"";
    if !line[..line.len().min(64)].windows(TAG.len()).any(|w| w == TAG) {
        return None;
    }
    let g = scan::replay(line)?;
    let rec = Record::from_game(&g);
    // Written into a buffer each thread keeps (no allocation per record), then one comparison.
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let same = BUF.with_borrow_mut(|buf| {
        buf.clear();
        serde_json::to_writer(&mut *buf, &rec).is_ok() && buf.as_slice() == line
    });
    same.then_some((g, rec))
}

/// The record's choices applied to a new game of its rules and seed (no comparison).
fn replay_steps(rec: &Record, log: Option<&mut Vec<(Seat, super::Action)>>) -> Result<Oh7Game, ReplayError> {
    if rec.format != FORMAT || rec.game != "oh7" {
        return Err(ReplayError::Format(format!("format `{}`, game `{}`", rec.format, rec.game)));
    }
    let seed = u64::from_str_radix(&rec.seed, 16)
        .map_err(|_| ReplayError::Format(format!("seed `{}` is not hexadecimal", rec.seed)))?;
    let mut g = Oh7Game::new(rec.ruleset, rec.players, seed)?;
    if rec.seats.len() == rec.players {
        g.set_seat_names(rec.seats.clone());
    }
    let mut ctx = Replayer { g: &mut g, at: At::Round(0), log };
    for r in &rec.rounds {
        for (i, deal) in r.redeals.iter().chain(std::iter::once(&r.deal)).enumerate() {
            ctx.at = At::Deal(r.number, i + 1);
            ctx.deal(deal)?;
        }
        ctx.at = At::Round(r.number);
        for d in &r.decisions {
            ctx.decision(d)?;
        }
        for (t, trick) in r.tricks.iter().enumerate() {
            ctx.at = At::Trick(r.number, t + 1);
            for &(seat, card) in &trick.plays {
                if Some(seat) != ctx.g.dummy {
                    ctx.act(seat, super::Action::Play(card))?;
                }
            }
        }
    }
    Ok(g)
}

/// Where a replay is, worded only when an action is refused (a replay makes thousands of steps).
#[derive(Clone, Copy)]
enum At {
    Round(u32),
    Deal(u32, usize),
    Trick(u32, usize),
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Round(r) => write!(f, "round {r}"),
            At::Deal(r, d) => write!(f, "round {r}, deal {d}"),
            At::Trick(r, t) => write!(f, "round {r}, trick {t}"),
        }
    }
}

struct Replayer<'a> {
    g: &'a mut Oh7Game,
    at: At,
    /// The choices applied, when asked for ([`replay_actions`]).
    log: Option<&'a mut Vec<(Seat, super::Action)>>,
}

impl Replayer<'_> {
    fn act(&mut self, seat: Seat, action: super::Action) -> Result<(), ReplayError> {
        self.g.apply(seat, action).map_err(|error| ReplayError::Illegal {
            at: self.at.to_string(),
            seat,
            action: action.to_string(),
            error,
        })?;
        if let Some(log) = self.log.as_deref_mut() {
            log.push((seat, action));
        }
        Ok(())
    }

    fn deal(&mut self, deal: &DealRecord) -> Result<(), ReplayError> {
        if matches!(self.g.phase, Phase::Passing { .. }) {
            for (p, cards) in deal.passes.iter().enumerate() {
                self.act(p, super::Action::Pass(CardSet::from_cards(cards)))?;
            }
        }
        for attempt in &deal.bet_attempts {
            for (p, &c) in attempt.iter().enumerate() {
                self.act(p, super::Action::Bet(c))?;
            }
        }
        Ok(())
    }

    fn decision(&mut self, d: &Decision) -> Result<(), ReplayError> {
        let value = match &d.value {
            Value::Bool(b) => DecisionValue::Bool(*b),
            Value::Number(n) => n.as_u64().map_or(DecisionValue::Other, DecisionValue::Number),
            Value::String(s) => DecisionValue::Text(s),
            _ => DecisionValue::Other,
        };
        match self.decision_action(d.seat, &d.kind, value) {
            Ok(Some((seat, action))) => self.act(seat, action),
            Ok(None) => Ok(()),
            Err(DecisionFault::UnknownKind) => Err(ReplayError::Format(format!("unknown decision kind `{}`", d.kind))),
            Err(DecisionFault::BadValue) => {
                Err(ReplayError::Format(format!("decision {} has value {}", d.kind, d.value)))
            }
        }
    }

    /// What a recorded decision has the replay apply: `Ok(None)` nothing (a lot, a forced
    /// reveal: the engine's own, checked by the comparison at the end), or why not.
    fn decision_action(
        &self,
        seat: Option<Seat>,
        kind: &str,
        value: DecisionValue<'_>,
    ) -> Result<Option<(Seat, super::Action)>, DecisionFault> {
        let seat_value = || match value {
            DecisionValue::Number(v) => Ok(v as Seat),
            _ => Err(DecisionFault::BadValue),
        };
        let suit_value = || match value {
            DecisionValue::Text(s) => s.parse::<Suit>().map_err(|_| DecisionFault::BadValue),
            _ => Err(DecisionFault::BadValue),
        };
        let action = match kind {
            // Lots are the engine's own; the comparison at the end checks them.
            "lot" => return Ok(None),
            // kod7's forced reveal is the engine's own too; fr-advanced's is a choice.
            "reveal_interrobang" if !matches!(self.g.phase, Phase::Reveal { .. }) => return Ok(None),
            "reveal_interrobang" => match value {
                DecisionValue::Bool(b) => super::Action::Reveal(b),
                _ => return Err(DecisionFault::BadValue),
            },
            "choose_leader" => super::Action::ChooseLeader(seat_value()?),
            "choose_trump" => super::Action::ChooseTrump(suit_value()?),
            "announce_trump" => super::Action::AnnounceTrump(suit_value()?),
            _ => return Err(DecisionFault::UnknownKind),
        };
        Ok(Some((seat.ok_or(DecisionFault::BadValue)?, action)))
    }
}

/// Why a recorded decision cannot be applied.
enum DecisionFault {
    UnknownKind,
    BadValue,
}

/// A decision's value, as the replay reads it (from a JSON tree or from a line).
#[derive(Clone, Copy)]
enum DecisionValue<'a> {
    Bool(bool),
    Number(u64),
    Text(&'a str),
    Other,
}

/// The first place where two JSON values differ: (path, left, right).
pub(crate) fn first_difference(a: &Value, b: &Value, path: &str) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = format!("{path}.{k}");
                match y.get(k) {
                    Some(vb) => {
                        if let Some(d) = first_difference(va, vb, &p) {
                            return Some(d);
                        }
                    }
                    None => return Some((p, va.to_string(), "nothing".into())),
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| (format!("{path}.{k}"), "nothing".into(), y[k].to_string()))
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if let Some(d) = first_difference(va, vb, &format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            (x.len() != y.len())
                .then(|| (format!("{path} (length)"), format!("{} entries", x.len()), format!("{} entries", y.len())))
        }
        _ => (a != b).then(|| (path.to_string(), a.to_string(), b.to_string())),
    }
}
