//! Property tests over every preset and player count: cards conserved, tricks sum to 7, one
//! winner per trick, legal actions never empty while a decision is owed, views never show what
//! a seat may not know, bad actions change nothing, and record → replay reproduces the game.

use std::collections::BTreeSet;

use oh7_core::card::{Card, CardSet};
use oh7_core::game::{Game, SeatViewLike};
use oh7_core::oh7::{Action, Oh7Game, Record, SeatView, replay, replay_written};
use oh7_core::ruleset::{Preset, Ruleset};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Every preset and player count the acceptance list names, bga with and without passing.
fn configs() -> Vec<(Ruleset, usize)> {
    let mut v = Vec::new();
    for p in Preset::ALL {
        let r = Ruleset::preset(p);
        for n in r.min_players as usize..=r.max_players as usize {
            v.push((r, n));
        }
    }
    let passing = Ruleset { passing: true, ..Ruleset::preset(Preset::Bga) };
    for n in 2..=9 {
        v.push((passing, n));
    }
    let two_decks = Ruleset { decks: 2, ..Ruleset::preset(Preset::Bga) };
    for n in 2..=4 {
        v.push((two_decks, n));
    }
    v
}

/// Every card text in a JSON value.
fn cards_in(v: &Value, out: &mut BTreeSet<Card>) {
    match v {
        Value::String(s) => {
            if let Ok(c) = s.parse::<Card>() {
                out.insert(c);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| cards_in(x, out)),
        Value::Object(o) => o.values().for_each(|x| cards_in(x, out)),
        _ => {}
    }
}

fn set_of(v: &Value) -> CardSet {
    v.as_array().unwrap().iter().map(|c| c.as_str().unwrap().parse::<Card>().unwrap()).collect()
}

/// What every seat may know of the cards (§11), from the record (the ground truth) and the
/// Dummy's face-up cards: revealed bet cards of every attempt, played cards, past rounds' bet
/// cards, a revealed ‽/?.
fn public_cards(rec: &Value, v: &SeatView<'_>) -> CardSet {
    let mut s = v.dummy_faceup();
    let rounds = rec["rounds"].as_array().unwrap();
    for r in rounds {
        for a in r["bet_attempts"].as_array().unwrap() {
            s = s.or(set_of(a));
        }
        for t in r["tricks"].as_array().unwrap() {
            for p in t["plays"].as_array().unwrap() {
                s.insert(p[1].as_str().unwrap().parse().unwrap());
            }
        }
    }
    let last = rounds.last().unwrap();
    if last["decisions"].as_array().unwrap().iter().any(|d| d["kind"] == "reveal_interrobang" && d["value"] == true) {
        s.insert(Card::INTERROBANG);
    }
    s
}

/// A seat's hand from the record alone: dealt, minus passed, plus received, minus played.
fn true_hand(rec: &Value, seat: usize) -> (CardSet, CardSet) {
    let r = rec["rounds"].as_array().unwrap().last().unwrap();
    let n = rec["players"].as_u64().unwrap() as usize;
    let mut hand = set_of(&r["hands"][seat]);
    let passes: Vec<CardSet> = (0..n).map(|p| set_of(&r["passes"][p])).collect();
    let mut mine = passes[seat];
    if passes.iter().any(|p| !p.is_empty()) {
        // R-PASS-1: rounds 2, 4, 6 pass to the left (seat + 1), rounds 3 and 5 to the right.
        let number = r["number"].as_u64().unwrap();
        let to_left = matches!((number - 1) % 7, 1 | 3 | 5);
        let from = if to_left { (seat + n - 1) % n } else { (seat + 1) % n };
        hand = hand.minus(passes[seat]).or(passes[from]);
        mine = mine.or(passes[from]);
    }
    for t in r["tricks"].as_array().unwrap() {
        for p in t["plays"].as_array().unwrap() {
            if p[0].as_u64().unwrap() as usize == seat {
                hand.remove(p[1].as_str().unwrap().parse().unwrap());
            }
        }
    }
    (hand, mine)
}

fn check_views(g: &Oh7Game, seat: usize) -> Result<(), TestCaseError> {
    let rec = g.record();
    let seed = format!("{:016x}", g.seed());
    let spectator = SeatView::spectator(g);
    let public = public_cards(&rec, &spectator);
    let json = spectator.to_json();
    let mut seen = BTreeSet::new();
    cards_in(&json, &mut seen);
    prop_assert!(!json.to_string().contains(&seed), "the seed is in a view");
    for c in &seen {
        prop_assert!(public.contains(*c), "spectator sees {c}, which is not public");
    }
    let v = g.view(seat);
    let (hand, passes) = true_hand(&rec, seat);
    prop_assert_eq!(v.hand(), hand, "seat {}'s view of its hand", seat);
    let allowed = public.or(hand).or(passes);
    let json = v.to_json();
    let mut seen = BTreeSet::new();
    cards_in(&json, &mut seen);
    for c in &seen {
        prop_assert!(allowed.contains(*c), "seat {seat} sees {c}, which is neither its own nor public");
    }
    prop_assert!(!json.to_string().contains(&seed));
    Ok(())
}

fn check_record(rec: &Value) -> Result<(), TestCaseError> {
    for r in rec["rounds"].as_array().unwrap() {
        if r["points"].as_array().unwrap().is_empty() {
            continue;
        }
        let won: u64 = r["won"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
        prop_assert_eq!(won, 7, "tricks won sum to 7");
        let tricks = r["tricks"].as_array().unwrap();
        prop_assert_eq!(tricks.len(), 7);
        for t in tricks {
            let seats: Vec<u64> = t["plays"].as_array().unwrap().iter().map(|p| p[0].as_u64().unwrap()).collect();
            let distinct: BTreeSet<u64> = seats.iter().copied().collect();
            prop_assert_eq!(distinct.len(), seats.len(), "each seat plays once per trick");
            let winner = t["winner"].as_u64().unwrap();
            prop_assert!(seats.contains(&winner), "exactly one winner, who played in the trick");
        }
    }
    Ok(())
}

/// Play one game with random choices, checking the invariants at every step.
fn play_checked(rules: Ruleset, players: usize, seed: u64) -> Result<(), TestCaseError> {
    let mut g = Oh7Game::new(rules, players, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 77);
    let mut legal = Vec::new();
    let mut steps = 0;
    while !g.is_over() {
        if let Err(e) = g.check_invariants() {
            return Err(TestCaseError::fail(e));
        }
        let to_move = g.to_move();
        let seat = to_move.iter().nth(rng.random_range(0..to_move.len())).unwrap();
        if steps % 7 == 0 {
            check_views(&g, seat)?;
        }
        g.legal_actions(seat, &mut legal);
        prop_assert!(!legal.is_empty());
        // A bad action (another seat's turn, or a card the seat does not hold) changes nothing.
        if steps % 13 == 0 {
            let before = g.record();
            let other = (0..players).find(|&s| !to_move.contains(s));
            if let Some(o) = other {
                prop_assert!(g.apply(o, legal[0]).is_err());
            }
            let foreign = (0..players).find(|&s| s != seat).map(|s| g.view(s).hand()).unwrap_or_default();
            if let Some(c) = foreign.minus(g.view(seat).hand()).first() {
                prop_assert!(g.apply(seat, Action::Play(c)).is_err());
                prop_assert!(g.apply(seat, Action::Bet(c)).is_err());
            }
            prop_assert_eq!(g.record(), before);
        }
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(seat, a).map_err(|e| TestCaseError::fail(format!("legal action {a} refused: {e}")))?;
        steps += 1;
        prop_assert!(steps < 20_000, "the game does not end");
    }
    prop_assert!(g.check_invariants().is_ok());
    prop_assert!(!g.winners().is_empty());
    let rec = g.record();
    check_record(&rec)?;
    let again = replay(&rec).map_err(|e| TestCaseError::fail(format!("replay: {e}")))?;
    prop_assert_eq!(again.record(), rec.clone());
    // The fast path of records files takes the line as oh7 writes it, and gives the same game.
    let line = serde_json::to_string(&Record::from_game(&g)).unwrap();
    let (fast, typed) = replay_written(line.as_bytes())
        .ok_or_else(|| TestCaseError::fail("replay_written refused a written record"))?;
    prop_assert_eq!(fast.record(), rec.clone());
    prop_assert_eq!(serde_json::to_value(&typed).unwrap(), rec);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, .. ProptestConfig::default() })]

    #[test]
    fn every_preset_and_player_count(seed in any::<u64>()) {
        for (rules, n) in configs() {
            play_checked(rules, n, seed)?;
        }
    }
}

/// An unfinished game's record replays too (a saved game can be resumed).
#[test]
fn unfinished_record_replays() {
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 42).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut legal = Vec::new();
    for _ in 0..150 {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
    }
    let rec = g.record();
    assert_eq!(rec["finished"], false);
    let again = replay(&rec).unwrap();
    assert_eq!(again.record(), rec);
    assert_eq!(again.to_move(), g.to_move());
}

/// A tampered record is refused, and the replayer names the first divergence.
#[test]
fn tampered_record_names_the_first_divergence() {
    let mut g = Oh7Game::new(Ruleset::preset(Preset::En), 3, 7).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut legal = Vec::new();
    while !g.is_over() {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
    }
    let line = serde_json::to_string(&Record::from_game(&g)).unwrap();
    assert!(replay_written(line.as_bytes()).is_some());
    // The same record written otherwise (the tree's key order, spaced) is not the fast path's,
    // and `replay` still takes it.
    let spaced = serde_json::to_string_pretty(&g.record()).unwrap();
    assert!(replay_written(spaced.as_bytes()).is_none());
    assert!(replay(&serde_json::from_str(&spaced).unwrap()).is_ok());
    let mut rec = g.record();
    let w = rec["rounds"][1]["tricks"][3]["winner"].as_u64().unwrap();
    rec["rounds"][1]["tricks"][3]["winner"] = Value::from((w + 1) % 3);
    let typed: Record = serde_json::from_value(rec.clone()).unwrap();
    assert!(
        replay_written(serde_json::to_string(&typed).unwrap().as_bytes()).is_none(),
        "a tampered line is not taken"
    );
    let e = replay(&rec).unwrap_err().to_string();
    assert!(e.starts_with("first divergence at record.rounds[1].tricks[3].winner"), "{e}");
    let mut rec = g.record();
    rec["rounds"][0]["points"][0] = Value::from(99);
    let e = replay(&rec).unwrap_err().to_string();
    assert!(e.contains("record.rounds[0].points[0]: the record says 99"), "{e}");
    let mut rec = g.record();
    let c = rec["rounds"][0]["tricks"][0]["plays"][1][1].clone();
    rec["rounds"][0]["tricks"][0]["plays"][1][1] = rec["rounds"][0]["tricks"][0]["plays"][0][1].clone();
    let e = replay(&rec).unwrap_err().to_string();
    assert!(e.contains("round 1, trick 1") && e.contains("is illegal"), "{e} ({c})");
}

/// A game restarted at a table that played before (its rounds' memory reused in place) is the
/// game `Oh7Game::new` deals for that seed: the same record, views and legal actions at every
/// step, in every preset and player count.
#[test]
fn a_restarted_game_is_a_new_game() {
    fn play(g: &mut Oh7Game, rng: &mut ChaCha8Rng, mut each: impl FnMut(&Oh7Game)) {
        let mut legal = Vec::new();
        while !g.is_over() {
            each(g);
            let seat = g.to_move().lowest().unwrap();
            g.legal_actions(seat, &mut legal);
            g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
        }
        each(g);
    }
    for (rules, n) in configs() {
        let mut reused = Oh7Game::new(rules, n, 1).unwrap();
        play(&mut reused, &mut ChaCha8Rng::seed_from_u64(1), |_| {});
        for seed in [2_u64, 3] {
            reused.restart(seed);
            let mut fresh = Oh7Game::new(rules, n, seed).unwrap();
            let mut views = Vec::new();
            play(&mut fresh, &mut ChaCha8Rng::seed_from_u64(seed), |g| {
                views.push(oh7_core::DynGame::view_json(g, Some(0)))
            });
            let mut at = 0;
            play(&mut reused, &mut ChaCha8Rng::seed_from_u64(seed), |g| {
                assert_eq!(oh7_core::DynGame::view_json(g, Some(0)), views[at], "{rules:?} {n} seed {seed}, step {at}");
                at += 1;
            });
            assert_eq!(reused.record(), fresh.record(), "{rules:?} {n} seed {seed}");
            assert_eq!(reused.clone().record(), fresh.record());
        }
    }
}

/// A finished (or, for odd seeds, unfinished) random game of one configuration, as the line
/// oh7 writes.
fn written_line(rules: Ruleset, players: usize, seed: u64) -> String {
    let mut g = Oh7Game::new(rules, players, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let stop_after = if seed % 2 == 1 { 200 } else { usize::MAX };
    let mut steps = 0;
    while !g.is_over() && steps < stop_after {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        g.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
        steps += 1;
    }
    serde_json::to_string(&Record::from_game(&g)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    /// The fast path of records files takes a line exactly when the general path does and the
    /// line is the record as oh7 writes it: a line changed in one byte (a card, a seat, a bet,
    /// a bracket, a name) is refused by both or taken by both, and what the fast path gives is
    /// the line.
    #[test]
    fn the_fast_path_takes_a_changed_line_only_as_the_general_path_does(
        config in 0usize..1000,
        seed in 0u64..4,
        at in 0.0f64..1.0,
        byte in prop::sample::select(b"0123457SHCDF*V?':,[]{}\"nulxtrbk ".to_vec()),
    ) {
        let configs = configs();
        let (rules, players) = configs[config % configs.len()];
        let mut line = written_line(rules, players, seed).into_bytes();
        let i = ((line.len() as f64 * at) as usize).min(line.len() - 1);
        line[i] = byte;
        let fast = replay_written(&line);
        let general = std::str::from_utf8(&line).ok().and_then(|t| serde_json::from_str::<Value>(t).ok()).and_then(|v| {
            let taken = replay(&v).is_ok();
            let typed: Record = serde_json::from_value(v).ok()?;
            (taken && serde_json::to_string(&typed).unwrap().as_bytes() == line.as_slice()).then_some(typed)
        });
        prop_assert_eq!(fast.is_some(), general.is_some(), "byte {} at {} of {}", byte as char, i, String::from_utf8_lossy(&line[i.saturating_sub(40)..(i + 40).min(line.len())]));
        if let Some((g, rec)) = fast {
            let again = serde_json::to_string(&rec).unwrap();
            prop_assert_eq!(again.as_bytes(), line.as_slice());
            prop_assert_eq!(g.record(), serde_json::to_value(&rec).unwrap());
        }
    }
}
