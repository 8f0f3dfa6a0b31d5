//! Reviews of a player's decisions after a Seven game (`docs/review.md`): every decision of the
//! seat with at least two legal options (a play, with the suit named for an 8 and the last-card
//! announcement; a draw; a pass; an answer to a call-out window) valued by the Seven search
//! ([`SevenSearch::values`]) **from the seat's view at that moment**, in the chance to go out
//! first (percentage points), with the same [`Review`] structure as Oh 7.
//!
//! Each decision's search is seeded from the review seed and the decision's index, never from
//! the record's seed, so hidden cards never enter an evaluation.

use oh7_core::GameId;
use oh7_core::game::{Game, Seat};
use oh7_core::seven::{Action, Card, SevenGame, SevenRules, SevenView, Suit, TurnMode};
use serde_json::Value;

use crate::document::{
    DecisionReview, Evaluation, FORMAT, Hindsight, Mark, OptionValue, Review, ReviewError, ReviewLevel, ReviewOptions,
    RoundReview, SevenTable, decision_seed,
};
use crate::marks::{costliest, summarize};
use oh7_bots::seven::SevenSearch;

/// A loss of at least this many percentage points of the chance to go out first is an
/// `inaccuracy`.
pub const INACCURACY: f64 = 3.0;
/// A loss of at least this many percentage points is a `mistake`.
pub const MISTAKE: f64 = 8.0;
/// A loss of at least this many percentage points is a `blunder`.
pub const BLUNDER: f64 = 15.0;
/// The accuracy of one Seven decision is `100 × exp(−loss / ACCURACY_SCALE)`, the loss in
/// percentage points.
pub const ACCURACY_SCALE: f64 = 10.0;

/// Sampled worlds per option for a reviewer level (`easy` 256, `medium` 512, `hard` 1024,
/// `expert` 4096; `pimc` is accepted for `expert`). The Seven `search` player uses 256.
pub fn level_samples(level: ReviewLevel) -> u32 {
    match level {
        ReviewLevel::Easy => 256,
        ReviewLevel::Medium => 512,
        ReviewLevel::Hard => 1024,
        ReviewLevel::Expert | ReviewLevel::Pimc => 4096,
    }
}

/// One decision of the seat in a Seven game, as the replay met it.
#[derive(Clone)]
pub struct SevenMoment {
    /// The game just before the decision (only the seat's view of it is evaluated).
    pub game: SevenGame,
    /// The legal actions then (at least two).
    pub legal: Vec<Action>,
    /// What the seat chose.
    pub chosen: Action,
}

/// A round of the record: its number, whether the seat played it, the seat's points.
struct RoundInfo {
    number: u32,
    played: bool,
    points: i32,
}

fn bad(m: String) -> ReviewError {
    ReviewError::SevenReplay(oh7_core::seven::ReplayError::Format(m))
}

/// An action as a Seven record writes it (`{"play": "8S", "suit": "H", "announce": true}`,
/// `{"draw": [...]}`, `{"pass": true}`, `{"call_out": 2}`, `{"no_call": 2}`).
fn recorded_action(v: &Value) -> Result<Action, String> {
    let obj = v.as_object().ok_or_else(|| format!("the action {v} is not an object"))?;
    if let Some(card) = obj.get("play") {
        let card: Card =
            card.as_str().and_then(|c| c.parse().ok()).ok_or_else(|| format!("\"play\" holds {card}, not a card"))?;
        let suit = match obj.get("suit") {
            None | Some(Value::Null) => None,
            Some(s) => {
                Some(s.as_str().and_then(|t| t.parse::<Suit>().ok()).ok_or_else(|| format!("{s} is not a suit"))?)
            }
        };
        let announce = obj.get("announce").and_then(Value::as_bool).unwrap_or(false);
        Ok(Action::Play { card, suit, announce })
    } else if let Some(d) = obj.get("call_out") {
        Ok(Action::CallOut(d.as_u64().ok_or_else(|| format!("\"call_out\" holds {d}, not a seat"))? as Seat))
    } else if obj.contains_key("no_call") {
        Ok(Action::NoCall)
    } else if obj.contains_key("draw") {
        Ok(Action::Draw)
    } else if obj.contains_key("pass") {
        Ok(Action::Pass)
    } else {
        Err(format!("the action {v} is none of play, draw, pass, call_out, no_call"))
    }
}

/// Replay the Seven `record` (a finished game) and collect every decision of `seat` that had
/// at least two legal options, in order.
pub fn seven_decisions_of(record: &Value, seat: Seat) -> Result<Vec<SevenMoment>, ReviewError> {
    Ok(walk(record, seat)?.1)
}

fn walk(record: &Value, seat: Seat) -> Result<(SevenGame, Vec<SevenMoment>, Vec<RoundInfo>), ReviewError> {
    let final_game = oh7_core::seven::replay(record)?;
    if !final_game.is_over() {
        return Err(ReviewError::NotFinished);
    }
    let players = final_game.players();
    if seat >= players {
        return Err(ReviewError::NoSuchSeat { seat, last: players - 1 });
    }
    // The replay checked every field read below.
    let rules: SevenRules = serde_json::from_value(record["ruleset"].clone()).map_err(|e| bad(e.to_string()))?;
    let mut g = SevenGame::new(rules, players, final_game.seed()).map_err(|e| bad(e.to_string()))?;
    let _ = g.set_seat_names(final_game.seat_names());
    let mut moments = Vec::new();
    let mut rounds = Vec::new();
    let mut legal = Vec::new();
    for (ri, r) in record["rounds"].as_array().into_iter().flatten().enumerate() {
        let played = r["seats_in"].as_array().is_some_and(|a| a.iter().any(|s| s.as_u64() == Some(seat as u64)));
        let points = r["points"].get(seat).and_then(Value::as_i64).unwrap_or(0) as i32;
        rounds.push(RoundInfo { number: ri as u32 + 1, played, points });
        for t in r["turns"].as_array().into_iter().flatten() {
            let s = t[0].as_u64().ok_or_else(|| bad(format!("{t} is not [seat, action]")))? as Seat;
            let a = recorded_action(&t[1]).map_err(bad)?;
            if s == seat {
                g.legal_actions(s, &mut legal);
                if legal.len() > 1 {
                    moments.push(SevenMoment { game: g.clone(), legal: legal.clone(), chosen: a });
                }
            }
            g.apply(s, a).map_err(|e| bad(format!("round {}: seat {s} {a}: {e}", ri + 1)))?;
        }
    }
    Ok((final_game, moments, rounds))
}

/// The kind of a Seven decision, by the option chosen: `play`, `draw`, `pass`, `call_out` or
/// `no_call`.
pub fn seven_kind(a: &Action) -> &'static str {
    match a {
        Action::Play { .. } => "play",
        Action::Draw => "draw",
        Action::Pass => "pass",
        Action::CallOut(_) => "call_out",
        Action::NoCall => "no_call",
    }
}

/// Evaluate one decision of `view`'s seat among `legal` with `samples` worlds per option,
/// seeded `seed` (a function of these only): [`SevenSearch::values`]; `value` is the search's
/// score in percent (the chance to go out first; a playout cut after 400 turns counts 10%, and
/// each point left in hand 0.01), `made` the share of samples in which the seat goes out
/// first, `points` the mean points left in its hand when the round ends, `tricks` 0.
pub fn evaluate_seven(view: &SevenView, legal: &[Action], samples: u32, seed: u64) -> Evaluation {
    let values = SevenSearch::new(seed, samples).values(view, legal);
    let options: Vec<OptionValue> = values
        .iter()
        .map(|v| OptionValue {
            option: v.action.to_string(),
            value: 100.0 * v.score,
            tricks: 0.0,
            made: v.out,
            points: Some(v.points),
        })
        .collect();
    let best =
        (0..options.len()).max_by(|&a, &b| options[a].value.total_cmp(&options[b].value).then(b.cmp(&a))).unwrap_or(0);
    Evaluation { options, best }
}

fn table_of(view: &SevenView) -> SevenTable {
    let (mode, penalty, offender) = match view.call_out() {
        Some(w) => ("call_out", 0, Some(w.offender)),
        None => match view.mode() {
            TurnMode::Normal => ("normal", 0, None),
            TurnMode::Penalty(p) => ("penalty", p.cards(), None),
            TurnMode::Lock { .. } => ("lock", 0, None),
            TurnMode::FreePlay => ("free", 0, None),
        },
    };
    SevenTable {
        top: view.top().to_string(),
        active_suit: view.active_suit().to_string(),
        mode: mode.into(),
        penalty,
        hand_counts: view.hand_counts(),
        draw_pile: view.draw_pile_len(),
        offender,
    }
}

fn reason(e: &Evaluation, ci: usize) -> Option<String> {
    if ci == e.best {
        return None;
    }
    let (c, b) = (&e.options[ci], &e.options[e.best]);
    let pct = |x: f64| (x * 100.0).round() as i64;
    Some(format!(
        "{}: you go out first {}% of the time ({:.0} points left in hand on average); {}: {}% ({:.0})",
        c.option,
        pct(c.made),
        c.points.unwrap_or(0.0),
        b.option,
        pct(b.made),
        b.points.unwrap_or(0.0)
    ))
}

/// Mixed into the review seed for the oracle's searches (hindsight), so that they do not reuse
/// the evaluation's draws.
const ORACLE_SALT: u64 = 0x0AC1_E000_0000_0007;

/// Review one Seven decision (`index` seeds it) with `samples` worlds per option.
pub fn review_seven_moment(
    m: &SevenMoment,
    seat: Seat,
    index: usize,
    samples: u32,
    opts: &ReviewOptions,
) -> DecisionReview {
    let view = m.game.view(seat);
    let e = evaluate_seven(&view, &m.legal, samples, decision_seed(opts.seed, index));
    let ci = m.legal.iter().position(|a| *a == m.chosen).unwrap_or(e.best);
    let loss = (e.options[e.best].value - e.options[ci].value).max(0.0);
    let mark = Mark::within(loss, [INACCURACY, MISTAKE, BLUNDER]);
    DecisionReview {
        index,
        round: view.round(),
        kind: seven_kind(&m.chosen).into(),
        step: m.game.turns_in_round() as usize + 1,
        hand: view.hand().unwrap_or_default().iter().map(|c| c.to_string()).collect(),
        trick: Vec::new(),
        chosen: m.chosen.to_string(),
        reason: if loss > 0.0 { reason(&e, ci) } else { None },
        evaluation: Some(e),
        loss: Some(loss),
        mark,
        note: None,
        hindsight: opts.hindsight.then(|| {
            let v = SevenSearch::new(decision_seed(opts.seed ^ ORACLE_SALT, index), samples)
                .oracle_values(&m.game, seat, &m.legal);
            let best = (0..v.len()).max_by(|&a, &b| v[a].score.total_cmp(&v[b].score).then(b.cmp(&a))).unwrap_or(0);
            Hindsight { oracle: v[best].action.to_string(), agrees: v[best].action == m.chosen }
        }),
        seven: Some(table_of(&view)),
    }
}

/// Review `seat`'s decisions in the finished Seven game `record` (`oh7-record/1`,
/// `"game": "seven"`). `progress` is called with (decisions done, decisions in all), from
/// several threads (rayon's pool; the result does not depend on it). With `opts.hindsight`,
/// each decision also shows the oracle's choice ([`SevenSearch::oracle_values`]: every hand
/// known). CPU-heavy: run it on a blocking thread.
pub fn review_seven(
    record: &Value,
    seat: Seat,
    opts: &ReviewOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, ReviewError> {
    let samples = level_samples(opts.level);
    let (game, moments, rounds) = walk(record, seat)?;
    let decisions =
        crate::document::review_each(&moments, progress, |i, m| review_seven_moment(m, seat, i, samples, opts));
    let rounds = rounds
        .iter()
        .filter(|r| r.played)
        .map(|r| RoundReview {
            round: r.number,
            points: r.points,
            summary: summarize(decisions.iter().filter(|d| d.round == r.number), ACCURACY_SCALE),
        })
        .collect();
    Ok(Review {
        format: FORMAT.into(),
        family: GameId::Seven,
        unit: "percent".into(),
        seat,
        name: game.seat_names().get(seat).cloned().unwrap_or_default(),
        preset: GameId::Seven.name().into(),
        players: game.players(),
        level: opts.level,
        seed: format!("{:016x}", opts.seed),
        thresholds: [INACCURACY, MISTAKE, BLUNDER],
        accuracy_scale: ACCURACY_SCALE,
        costliest: costliest(&decisions),
        game: summarize(decisions.iter(), ACCURACY_SCALE),
        decisions,
        rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::oh7::tests::{played, quick};

    fn finished(levels: &[&str], players: usize, seed: u64) -> Value {
        played(SevenGame::new(SevenRules::default(), players, seed).unwrap(), levels, seed)
    }

    /// Losses are never negative, marks follow the Seven thresholds, the best option is never
    /// marked, the same inputs give the same review, progress counts every decision once, and
    /// `review_record` sends a Seven record here.
    #[test]
    fn seven_reviews_are_consistent_and_reproducible() {
        let v = finished(&["random", "heuristic", "heuristic"], 3, 5);
        let seen = std::sync::Mutex::new(Vec::new());
        let r = review_seven(&v, 0, &quick(), &|done, total| seen.lock().unwrap().push((done, total))).unwrap();
        assert_eq!((r.family, r.unit.as_str(), r.preset.as_str()), (GameId::Seven, "percent", "seven"));
        assert!(r.game.evaluated > 5, "{:?}", r.game);
        assert_eq!(r.game.evaluated, r.decisions.len());
        for d in &r.decisions {
            let (e, loss) = (d.evaluation.as_ref().unwrap(), d.loss.unwrap());
            assert!(loss >= 0.0);
            assert!(e.options.len() > 1);
            assert_eq!(d.mark, Mark::within(loss, [INACCURACY, MISTAKE, BLUNDER]));
            if e.options[e.best].option == d.chosen {
                assert_eq!((loss, d.mark), (0.0, None));
            }
            assert!(d.seven.is_some());
        }
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        let n = r.decisions.len();
        assert_eq!(seen, (0..=n).map(|d| (d, n)).collect::<Vec<_>>());
        let again = crate::review_record(&v, 0, &quick(), &|_, _| {}).unwrap();
        assert_eq!(r, again);
        let h = review_seven(&v, 1, &ReviewOptions { hindsight: true, ..quick() }, &|_, _| {}).unwrap();
        assert!(h.decisions.iter().all(|d| d.hindsight.is_some()));
        assert!(h.game.oracle_agrees.is_some());
        let e = review_seven(&v, 3, &quick(), &|_, _| {}).unwrap_err();
        assert!(e.to_string().contains("no seat 3"), "{e}");
    }

    /// A random player loses more per decision than the search player (same reviewer).
    #[test]
    fn random_loses_more_than_search() {
        let (mut random, mut search) = (0.0, 0.0);
        for seed in 1..4 {
            let v = finished(&["random", "search"], 2, seed);
            random += review_seven(&v, 0, &quick(), &|_, _| {}).unwrap().game.loss_per_decision;
            search += review_seven(&v, 1, &quick(), &|_, _| {}).unwrap().game.loss_per_decision;
        }
        assert!(random > search, "random {random}, search {search}");
    }

    /// With two players, not calling out an opponent left with one unannounced card (who then
    /// draws nothing) is certainly worse than calling out (4 cards): marked, with a reason;
    /// the call-out is the best and loses nothing.
    #[test]
    fn a_certainly_worse_no_call_is_marked() {
        let opts = quick();
        for seed in 1..300u64 {
            let v = finished(&["random"], 2, seed);
            let moments = seven_decisions_of(&v, 0).unwrap();
            for (i, m) in moments.iter().enumerate() {
                let Some(call) = m.legal.iter().find(|a| matches!(a, Action::CallOut(_))) else { continue };
                let Action::CallOut(o) = *call else { continue };
                if !m.game.view(0).last_card().1.contains(o) {
                    continue;
                }
                let worse = SevenMoment { chosen: Action::NoCall, ..m.clone() };
                let d = review_seven_moment(&worse, 0, i, 64, &opts);
                assert!(matches!(d.mark, Some(Mark::Mistake | Mark::Blunder)), "{d:?}");
                assert!(d.reason.is_some());
                let better = SevenMoment { chosen: *call, ..m.clone() };
                let d = review_seven_moment(&better, 0, i, 64, &opts);
                assert_eq!((d.loss, d.mark), (Some(0.0), None), "{d:?}");
                return;
            }
        }
        panic!("no unannounced last card to call out in 300 games");
    }

    /// Two games that differ only in what seat 0 cannot see (another seat's secret answer to
    /// a call-out window: a call-out or not) give the same evaluation of seat 0's answer. (The
    /// engine offers no way to set a Seven deal from outside, so hands cannot be swapped; the
    /// evaluation reads only a `SevenView`.)
    #[test]
    fn seven_evaluations_depend_only_on_the_view() {
        for seed in 1..300u64 {
            let v = finished(&["random"], 4, seed);
            let final_game = oh7_core::seven::replay(&v).unwrap();
            let mut g = SevenGame::new(SevenRules::default(), 4, final_game.seed()).unwrap();
            let mut legal = Vec::new();
            for r in v["rounds"].as_array().unwrap() {
                for t in r["turns"].as_array().unwrap() {
                    let s = t[0].as_u64().unwrap() as Seat;
                    let a = recorded_action(&t[1]).unwrap();
                    // A window where seat 0 and another seat (not the offender) still owe an
                    // answer: that seat answers first, one way or the other.
                    if let Some(w) = g.call_out_window()
                        && w.waiting().contains(0)
                        && let Some(p) = w.waiting().iter().find(|&p| p != 0)
                    {
                        let mut g1 = g.clone();
                        let mut g2 = g.clone();
                        g1.apply(p, Action::CallOut(w.offender)).unwrap();
                        g2.apply(p, Action::NoCall).unwrap();
                        g1.legal_actions(0, &mut legal);
                        let mut l2 = Vec::new();
                        g2.legal_actions(0, &mut l2);
                        assert_eq!(legal, l2);
                        let a1 = evaluate_seven(&g1.view(0), &legal, 32, 9);
                        let a2 = evaluate_seven(&g2.view(0), &l2, 32, 9);
                        assert_eq!(a1, a2);
                        return;
                    }
                    g.apply(s, a).unwrap();
                }
            }
        }
        panic!("no call-out window with two seats to answer in 300 games");
    }

    /// An unfinished game is refused; so is an unknown level.
    #[test]
    fn seven_refusals() {
        let mut g = SevenGame::new(SevenRules::default(), 3, 3).unwrap();
        let mut legal = Vec::new();
        for _ in 0..10 {
            let s = g.to_move().lowest().unwrap();
            g.legal_actions(s, &mut legal);
            g.apply(s, legal[0]).unwrap();
        }
        let e = review_seven(&g.record(), 0, &quick(), &|_, _| {}).unwrap_err();
        assert!(matches!(e, ReviewError::NotFinished), "{e}");
    }
}
