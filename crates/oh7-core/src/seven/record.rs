//! The Seven record (`oh7-record/1`, `"game": "seven"`; fields in `docs/seven-records.md`) and
//! its replay.

use serde_json::{Map, Value, json};

use super::{Action, Card, CardSet, RoundLog, SetupError, SevenError, SevenGame, SevenRules, TurnLog};
use crate::game::{Game, Seat, SeatSet};

fn seats_json(set: SeatSet) -> Value {
    Value::from(set.iter().collect::<Vec<_>>())
}

fn cards_text(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

fn set_json(set: CardSet) -> Value {
    Value::from(set.iter().map(|c| c.to_string()).collect::<Vec<_>>())
}

fn turn_json(round: &RoundLog, t: &TurnLog) -> Value {
    let drawn = &round.drawn[t.drawn_from as usize..(t.drawn_from + t.drawn_len) as usize];
    let action = match t.action {
        Action::Play { card, suit, announce } => {
            let mut m = Map::new();
            m.insert("play".into(), Value::from(card.to_string()));
            if let Some(s) = suit {
                m.insert("suit".into(), Value::from(s.to_string()));
            }
            m.insert("announce".into(), Value::from(announce));
            Value::Object(m)
        }
        Action::Draw => json!({ "draw": cards_text(drawn) }),
        Action::Pass => json!({ "pass": true }),
        Action::CallOut(s) if t.draws => json!({ "call_out": s, "draw": cards_text(drawn) }),
        Action::CallOut(s) => json!({ "call_out": s }),
        Action::NoCall => json!({ "no_call": t.offender }),
    };
    json!([t.seat, action])
}

fn round_json(game: &SevenGame, r: &RoundLog) -> Value {
    let n = game.players;
    let hands: Vec<Value> = (0..n).map(|s| set_json(r.hands[s])).collect();
    let turns: Vec<Value> = r.turns.iter().map(|t| turn_json(r, t)).collect();
    let reshuffles: Vec<Value> = r.reshuffles.iter().map(|x| json!({ "turn": x.turn, "cards": x.cards })).collect();
    let mut v = json!({
        "number": r.number,
        "seats_in": seats_json(r.seats_in),
        "hands": hands,
        "starting_card": r.starting.to_string(),
        "first_player": r.first,
        "turns": turns,
        "reshuffles": reshuffles,
        "out": null,
        "points": null,
        "totals": null,
        "eliminated": null,
        "reset": null,
    });
    if let Some(res) = &r.result {
        v["out"] = json!(res.out);
        v["points"] = json!(res.points[..n]);
        v["totals"] = json!(res.totals[..n]);
        v["eliminated"] = seats_json(res.eliminated);
        v["reset"] = seats_json(res.reset);
    }
    v
}

/// The record of `game` so far.
pub(super) fn to_json(game: &SevenGame) -> Value {
    json!({
        "format": "oh7-record/1",
        "game": "seven",
        "ruleset": serde_json::to_value(&game.rules).expect("rules serialize"),
        "players": game.players,
        "seats": game.seat_names(),
        "seed": format!("{:016x}", game.seed),
        "rounds": game.log.iter().map(|r| round_json(game, r)).collect::<Vec<_>>(),
        "winners": game.winners(),
        "finished": game.over,
    })
}

/// Why a record does not replay. Rounds and turns are counted from 1 (turn `t` is the `t`-th
/// entry of the round's `turns`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// Not a Seven record, or a field that cannot be read.
    #[error("not a readable Seven record: {0}")]
    Format(String),
    /// The ruleset, player count or seat names are refused.
    #[error("the record's set-up is refused: {0}")]
    Setup(#[from] SetupError),
    /// A round-level field differs (deal, starting card, first player, scores).
    #[error("round {round}: {message}")]
    Round {
        /// Round, from 1.
        round: usize,
        /// What differs.
        message: String,
    },
    /// A turn's outcome differs, or the turn cannot be read.
    #[error("round {round}, turn {turn}: {message}")]
    Turn {
        /// Round, from 1.
        round: usize,
        /// Turn, from 1.
        turn: usize,
        /// What differs.
        message: String,
    },
    /// A recorded action the engine refuses.
    #[error("round {round}, turn {turn}: seat {seat} may not {action}: {error}")]
    Illegal {
        /// Round, from 1.
        round: usize,
        /// Turn, from 1.
        turn: usize,
        /// The seat.
        seat: Seat,
        /// The action as text.
        action: String,
        /// Why the engine refused it.
        error: SevenError,
    },
    /// The game-level result differs.
    #[error("{0}")]
    Result(String),
}

fn get<'a>(v: &'a Value, key: &str, what: &str) -> Result<&'a Value, ReplayError> {
    v.get(key).ok_or_else(|| ReplayError::Format(format!("{what} has no \"{key}\"")))
}

fn parse_cards(v: &Value, what: &str) -> Result<Vec<Card>, String> {
    let arr = v.as_array().ok_or_else(|| format!("{what} is not a list of cards"))?;
    arr.iter()
        .map(|c| {
            c.as_str()
                .ok_or_else(|| format!("{what} holds {c}, not a card"))?
                .parse::<Card>()
                .map_err(|e| format!("{what}: {e}"))
        })
        .collect()
}

fn parse_seats(v: &Value, what: &str) -> Result<Vec<Seat>, String> {
    let arr = v.as_array().ok_or_else(|| format!("{what} is not a list of seats"))?;
    arr.iter().map(|s| s.as_u64().map(|s| s as Seat).ok_or_else(|| format!("{what} holds {s}, not a seat"))).collect()
}

fn parse_ints(v: &Value, what: &str) -> Result<Vec<i64>, String> {
    let arr = v.as_array().ok_or_else(|| format!("{what} is not a list of numbers"))?;
    arr.iter().map(|s| s.as_i64().ok_or_else(|| format!("{what} holds {s}, not a number"))).collect()
}

fn show(cards: &[Card]) -> String {
    if cards.is_empty() { "nothing".to_string() } else { cards_text(cards).join(" ") }
}

fn show_set(set: CardSet) -> String {
    let v: Vec<Card> = set.iter().collect();
    show(&v)
}

fn show_seats(seats: &[Seat]) -> String {
    format!("{seats:?}")
}

/// A recorded action: the action, what the record says was drawn (for a call-out: by the
/// offender), and for an answer the offender it answers about.
struct Recorded {
    action: Action,
    drawn: Option<Vec<Card>>,
    offender: Option<Seat>,
}

fn parse_action(v: &Value) -> Result<Recorded, String> {
    let obj = v.as_object().ok_or_else(|| format!("the action {v} is not an object"))?;
    let seat_of =
        |key: &str, d: &Value| d.as_u64().map(|s| s as Seat).ok_or_else(|| format!("\"{key}\" holds {d}, not a seat"));
    if let Some(card) = obj.get("play") {
        let card: Card = card
            .as_str()
            .ok_or_else(|| format!("\"play\" holds {card}, not a card"))?
            .parse()
            .map_err(|e: super::CardParseError| e.to_string())?;
        let suit = match obj.get("suit") {
            None | Some(Value::Null) => None,
            Some(s) => Some(
                s.as_str().and_then(|t| t.parse::<super::Suit>().ok()).ok_or_else(|| format!("{s} is not a suit"))?,
            ),
        };
        let announce = match obj.get("announce") {
            None | Some(Value::Null) => false,
            Some(a) => a.as_bool().ok_or_else(|| format!("\"announce\" holds {a}, not true or false"))?,
        };
        Ok(Recorded { action: Action::Play { card, suit, announce }, drawn: None, offender: None })
    } else if let Some(d) = obj.get("call_out") {
        let target = seat_of("call_out", d)?;
        let drawn = obj.get("draw").map(|d| parse_cards(d, "the call-out's \"draw\"")).transpose()?;
        Ok(Recorded { action: Action::CallOut(target), drawn, offender: Some(target) })
    } else if let Some(d) = obj.get("no_call") {
        let target = seat_of("no_call", d)?;
        Ok(Recorded { action: Action::NoCall, drawn: None, offender: Some(target) })
    } else if let Some(d) = obj.get("draw") {
        Ok(Recorded { action: Action::Draw, drawn: Some(parse_cards(d, "\"draw\"")?), offender: None })
    } else if obj.get("pass").is_some() {
        Ok(Recorded { action: Action::Pass, drawn: None, offender: None })
    } else {
        Err(format!("the action {v} is none of play, draw, pass, call_out, no_call"))
    }
}

/// How a logged entry reads in an error message.
fn describe(seat: Seat, action: Action, offender: Seat) -> String {
    match action {
        Action::CallOut(o) => format!("seat {seat} calls out seat {o}"),
        Action::NoCall => format!("seat {seat} does not call out seat {offender}"),
        a => format!("seat {seat} {a}"),
    }
}

/// Rebuild a game from a record: the seed, the ruleset and the turns. Every dealt hand, drawn
/// card and derived field (starting card, first player, reshuffles, points, totals, eliminated,
/// resets, winners, finished) is compared with the engine; the first divergence or illegal
/// action is the error.
pub fn replay(record: &Value) -> Result<SevenGame, ReplayError> {
    let fmt_err = |m: &str| ReplayError::Format(m.to_string());
    if record.get("format").and_then(Value::as_str) != Some("oh7-record/1") {
        return Err(fmt_err("\"format\" is not \"oh7-record/1\""));
    }
    if record.get("game").and_then(Value::as_str) != Some("seven") {
        return Err(fmt_err("\"game\" is not \"seven\""));
    }
    let rules: SevenRules = serde_json::from_value(get(record, "ruleset", "the record")?.clone())
        .map_err(|e| ReplayError::Format(format!("\"ruleset\": {e}")))?;
    let players =
        get(record, "players", "the record")?.as_u64().ok_or_else(|| fmt_err("\"players\" is not a number"))? as usize;
    let seed_text = get(record, "seed", "the record")?.as_str().ok_or_else(|| fmt_err("\"seed\" is not a string"))?;
    let seed = u64::from_str_radix(seed_text, 16)
        .map_err(|_| ReplayError::Format(format!("\"seed\" {seed_text:?} is not a hexadecimal u64")))?;
    let mut game = SevenGame::new(rules, players, seed)?;
    if let Some(seats) = record.get("seats") {
        let names: Option<Vec<String>> =
            seats.as_array().and_then(|a| a.iter().map(|s| s.as_str().map(str::to_string)).collect());
        game.set_seat_names(names.ok_or_else(|| fmt_err("\"seats\" is not a list of names"))?)?;
    }
    let rounds = get(record, "rounds", "the record")?.as_array().ok_or_else(|| fmt_err("\"rounds\" is not a list"))?;
    for (ri, rv) in rounds.iter().enumerate() {
        replay_round(&mut game, ri, rv)?;
    }
    if game.log.len() > rounds.len() {
        return Err(ReplayError::Round {
            round: game.log.len(),
            message: "the engine dealt this round; the record does not have it".into(),
        });
    }
    let winners = parse_seats(get(record, "winners", "the record")?, "\"winners\"").map_err(ReplayError::Format)?;
    if winners != game.winners() {
        return Err(ReplayError::Result(format!(
            "the record says the winners are {}, the engine says {}",
            show_seats(&winners),
            show_seats(&game.winners())
        )));
    }
    let finished =
        get(record, "finished", "the record")?.as_bool().ok_or_else(|| fmt_err("\"finished\" is not a bool"))?;
    if finished != game.over {
        return Err(ReplayError::Result(format!(
            "the record says finished is {finished}, the engine says {}",
            game.over
        )));
    }
    Ok(game)
}

/// [`replay`], also giving the turns it applied, in order: what a learner replays a record
/// from (`oh7._core`).
pub fn replay_actions(record: &Value) -> Result<(SevenGame, Vec<(Seat, Action)>), ReplayError> {
    let game = replay(record)?;
    let mut log = Vec::new();
    // `replay` has read every round and turn: they are well formed.
    for rv in record.get("rounds").and_then(Value::as_array).into_iter().flatten() {
        for tv in rv.get("turns").and_then(Value::as_array).into_iter().flatten() {
            if let Some([seat, action]) = tv.as_array().map(Vec::as_slice)
                && let (Some(seat), Ok(rec)) = (seat.as_u64(), parse_action(action))
            {
                log.push((seat as Seat, rec.action));
            }
        }
    }
    Ok((game, log))
}

fn replay_round(game: &mut SevenGame, ri: usize, rv: &Value) -> Result<(), ReplayError> {
    let round = ri + 1;
    let rerr = |message: String| ReplayError::Round { round, message };
    let what = format!("round {round}");
    if game.log.len() != round || game.over {
        return Err(rerr(format!("the record has this round, the engine's game ended after round {}", game.log.len())));
    }
    if let Some(n) = rv.get("number")
        && n.as_u64() != Some(round as u64)
    {
        return Err(rerr(format!("the record numbers it {n}")));
    }
    let players = game.players;
    let log = &game.log[ri];
    if let Some(seats_in) = rv.get("seats_in") {
        let rec = parse_seats(seats_in, "\"seats_in\"").map_err(rerr)?;
        let eng: Vec<Seat> = log.seats_in.iter().collect();
        if rec != eng {
            return Err(rerr(format!(
                "the record says seats {} play, the engine says {}",
                show_seats(&rec),
                show_seats(&eng)
            )));
        }
    }
    let hands = get(rv, "hands", &what)?.as_array().ok_or_else(|| rerr("\"hands\" is not a list".into()))?;
    if hands.len() != players {
        return Err(rerr(format!("\"hands\" has {} entries for {players} seats", hands.len())));
    }
    for (s, h) in hands.iter().enumerate() {
        let rec: CardSet = parse_cards(h, "a hand").map_err(rerr)?.into_iter().collect();
        if rec != log.hands[s] {
            return Err(rerr(format!(
                "the record deals seat {s} {}, the engine deals {}",
                show_set(rec),
                show_set(log.hands[s])
            )));
        }
    }
    let starting: Card = get(rv, "starting_card", &what)?
        .as_str()
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| rerr("\"starting_card\" is not a card".into()))?;
    if starting != log.starting {
        return Err(rerr(format!(
            "the record turns {starting} as the starting card, the engine turns {}",
            log.starting
        )));
    }
    let first =
        get(rv, "first_player", &what)?.as_u64().ok_or_else(|| rerr("\"first_player\" is not a seat".into()))? as Seat;
    if first != log.first {
        return Err(rerr(format!("the record says seat {first} goes first, the engine says seat {}", log.first)));
    }
    let turns = get(rv, "turns", &what)?.as_array().ok_or_else(|| rerr("\"turns\" is not a list".into()))?;
    // Answers to a call-out window are logged by the engine only once all are in (in seat
    // order), so each recorded entry is compared when the engine has logged its counterpart.
    let mut recorded: Vec<(Seat, Recorded)> = Vec::with_capacity(turns.len());
    let mut compared = 0;
    for (ti, tv) in turns.iter().enumerate() {
        let turn = ti + 1;
        let terr = |message: String| ReplayError::Turn { round, turn, message };
        if game.log.len() != round || game.log[ri].result.is_some() {
            return Err(terr(format!("the record goes on, the engine ended the round after turn {ti}")));
        }
        let pair = tv.as_array().filter(|a| a.len() == 2).ok_or_else(|| terr(format!("{tv} is not [seat, action]")))?;
        let seat = pair[0].as_u64().ok_or_else(|| terr(format!("{} is not a seat", pair[0])))? as Seat;
        let rec = parse_action(&pair[1]).map_err(terr)?;
        if let (Action::NoCall, Some(o), Some(w)) = (rec.action, rec.offender, game.call_out_window())
            && o != w.offender
        {
            return Err(terr(format!(
                "the record answers a call-out window on seat {o}, the engine's is on seat {}",
                w.offender
            )));
        }
        let action = rec.action;
        game.apply(seat, action).map_err(|error| ReplayError::Illegal {
            round,
            turn,
            seat,
            action: action.to_string(),
            error,
        })?;
        recorded.push((seat, rec));
        let log = &game.log[ri];
        while compared < log.turns.len() {
            let turn = compared + 1;
            let terr = |message: String| ReplayError::Turn { round, turn, message };
            let t = log.turns[compared];
            let Some((seat, rec)) = recorded.get(compared) else {
                return Err(terr("the engine logs an entry the record does not have".into()));
            };
            let offender = t.offender as Seat;
            if (t.seat as Seat, t.action) != (*seat, rec.action) {
                return Err(terr(format!(
                    "the record has {}, the engine logs {} (answers to a call-out window are written in seat order)",
                    describe(*seat, rec.action, rec.offender.unwrap_or(offender)),
                    describe(t.seat as Seat, t.action, offender)
                )));
            }
            let eng = &log.drawn[t.drawn_from as usize..(t.drawn_from + t.drawn_len) as usize];
            let drawer = if matches!(t.action, Action::CallOut(_)) { offender } else { *seat };
            match &rec.drawn {
                Some(d) if matches!(t.action, Action::CallOut(_)) && !t.draws => {
                    return Err(terr(format!(
                        "the record has seat {drawer} draw {} on this call-out, the engine on the window's first \
                         call-out in seat order",
                        show(d)
                    )));
                }
                Some(d) if d.as_slice() != eng => {
                    return Err(terr(format!(
                        "the record says seat {drawer} draws {}, the engine deals {}",
                        show(d),
                        show(eng)
                    )));
                }
                None if t.draws || !eng.is_empty() => {
                    return Err(terr(format!("the record has no draw, the engine deals seat {drawer} {}", show(eng))));
                }
                _ => {}
            }
            compared += 1;
        }
    }
    if compared < recorded.len() {
        let turn = compared + 1;
        let w = game.call_out_window().expect("entries wait only for a window");
        return Err(ReplayError::Turn {
            round,
            turn,
            message: format!(
                "the call-out window on seat {} is not closed: seats {} have not answered (answers are written once all \
                 are in)",
                w.offender,
                show_seats(&w.waiting().iter().collect::<Vec<_>>())
            ),
        });
    }
    let log = &game.log[ri];
    if let Some(rs) = rv.get("reshuffles") {
        let arr = rs.as_array().ok_or_else(|| rerr("\"reshuffles\" is not a list".into()))?;
        let rec: Vec<(Option<u64>, Option<u64>)> = arr
            .iter()
            .map(|x| (x.get("turn").and_then(Value::as_u64), x.get("cards").and_then(Value::as_u64)))
            .collect();
        let eng: Vec<(Option<u64>, Option<u64>)> =
            log.reshuffles.iter().map(|x| (Some(x.turn as u64), Some(x.cards as u64))).collect();
        if rec != eng {
            return Err(rerr(format!("the record's reshuffles {rs} differ from the engine's")));
        }
    }
    let points = rv.get("points").filter(|p| !p.is_null());
    let Some(points) = points else {
        if log.result.is_some() {
            return Err(rerr(format!("the engine ended the round after {} turns, the record does not", turns.len())));
        }
        return Ok(());
    };
    let Some(res) = log.result else {
        return Err(rerr(format!("the record ends the round after {} turns, the engine does not", turns.len())));
    };
    let rec_points = parse_ints(points, "\"points\"").map_err(rerr)?;
    if rec_points != res.points[..players] {
        return Err(rerr(format!(
            "the record says points {rec_points:?}, the engine says {:?}",
            &res.points[..players]
        )));
    }
    let rec_totals = parse_ints(get(rv, "totals", &what)?, "\"totals\"").map_err(rerr)?;
    if rec_totals != res.totals[..players] {
        return Err(rerr(format!(
            "the record says totals {rec_totals:?}, the engine says {:?}",
            &res.totals[..players]
        )));
    }
    for (key, set) in [("eliminated", res.eliminated), ("reset", res.reset)] {
        let rec = parse_seats(get(rv, key, &what)?, key).map_err(rerr)?;
        let eng: Vec<Seat> = set.iter().collect();
        if rec != eng {
            return Err(rerr(format!(
                "the record says {key} {}, the engine says {}",
                show_seats(&rec),
                show_seats(&eng)
            )));
        }
    }
    let rec_out = get(rv, "out", &what)?;
    let rec_out = if rec_out.is_null() {
        None
    } else {
        Some(rec_out.as_u64().ok_or_else(|| rerr(format!("\"out\" holds {rec_out}, not a seat")))? as Seat)
    };
    if rec_out != res.out {
        return Err(rerr(format!("the record says out {rec_out:?}, the engine says {:?}", res.out)));
    }
    Ok(())
}
