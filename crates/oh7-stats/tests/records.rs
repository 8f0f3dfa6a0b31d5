//! Statistics from real records: typed and JSON paths agree, merging in any order gives the
//! same figures, hand-checked counts on a game.

use oh7_bots::{Bot, RandomBot, play_game, random_oh7_game};
use oh7_core::game::Game;
use oh7_core::oh7::{Oh7Game, Record};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{SevenGame, SevenRules};
use oh7_stats::Stats;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn oh7_records(preset: Preset, players: usize, n: u64) -> Vec<Record> {
    let mut legal = Vec::new();
    (0..n)
        .map(|i| {
            let mut g = Oh7Game::new(Ruleset::preset(preset), players, 1000 + i).unwrap();
            let mut names: Vec<String> = vec!["bot:random".into(); players];
            names[0] = "alice".into();
            g.set_seat_names(names);
            let mut rng = ChaCha8Rng::seed_from_u64(i);
            random_oh7_game(&mut g, &mut rng, &mut legal);
            Record::from_game(&g)
        })
        .collect()
}

fn seven_records(players: usize, n: u64) -> Vec<serde_json::Value> {
    (0..n)
        .map(|i| {
            let mut g = SevenGame::new(SevenRules::default(), players, 77 + i).unwrap();
            let mut bots: Vec<Box<dyn Bot<SevenGame>>> =
                (0..players).map(|p| Box::new(RandomBot::new(i * 10 + p as u64)) as Box<dyn Bot<SevenGame>>).collect();
            play_game(&mut g, &mut bots, 10_000_000).unwrap();
            g.record()
        })
        .collect()
}

#[test]
fn typed_and_json_records_give_the_same_statistics() {
    for (preset, players) in [(Preset::En, 2), (Preset::Kod7, 5), (Preset::Bga, 4), (Preset::FrAdvanced, 4)] {
        let recs = oh7_records(preset, players, 12);
        let (mut typed, mut json) = (Stats::new(), Stats::new());
        for r in &recs {
            typed.add_oh7(r);
            json.add_line(&serde_json::to_string(r).unwrap()).unwrap();
        }
        assert_eq!(typed, json, "{preset}");
        assert_eq!(typed.report().to_text(), json.report().to_text());
    }
}

#[test]
fn merging_in_any_order_gives_the_same_figures() {
    let recs = oh7_records(Preset::Kod7, 4, 30);
    let sev = seven_records(3, 6);
    let mut all = Stats::new();
    recs.iter().for_each(|r| all.add_oh7(r));
    sev.iter().for_each(|v| all.add_value(v).unwrap());
    // Three parts, merged backwards.
    let mut parts = [Stats::new(), Stats::new(), Stats::new()];
    for (i, r) in recs.iter().enumerate() {
        parts[i % 3].add_oh7(r);
    }
    for (i, v) in sev.iter().enumerate() {
        parts[(i + 1) % 3].add_value(v).unwrap();
    }
    let mut merged = Stats::new();
    for p in parts.iter().rev() {
        merged.merge(p);
    }
    assert_eq!(merged, all);
    let (a, b) = (merged.report(), all.report());
    assert_eq!(a.to_text(), b.to_text());
    assert_eq!(a.to_csv(), b.to_csv());
    assert_eq!(a.to_json(), b.to_json());
}

#[test]
fn counts_match_the_records() {
    let recs = oh7_records(Preset::En, 4, 20);
    let mut s = Stats::new();
    recs.iter().for_each(|r| s.add_oh7(r));
    let o = &s.oh7;
    let rounds: usize = recs.iter().map(|r| r.rounds.len()).sum();
    let redeals: usize = recs.iter().flat_map(|r| &r.rounds).map(|x| x.redeals.len()).sum();
    let made: usize =
        recs.iter().flat_map(|r| &r.rounds).map(|x| (0..4).filter(|&p| x.bets[p] == x.won[p]).count()).sum();
    assert_eq!(o.games, 20);
    assert_eq!(o.rounds as usize, rounds);
    assert_eq!(o.redeals.sum as usize, redeals);
    assert_eq!(o.by_bet.iter().map(|r| r.hits).sum::<u64>() as usize, made);
    assert_eq!(o.trump.iter().sum::<u64>() as usize, rounds);
    assert_eq!(o.rounds_per_game.total(), 20);
    // alice is seat 0 in every game; the other seats share one name.
    assert_eq!(o.by_name["alice"], o.by_seat[0]);
    assert_eq!(o.by_name["bot:random"].points.n as usize, 3 * rounds);
    let wins: u64 = o.by_seat.iter().map(|p| p.wins.hits).sum();
    let winners: usize = recs.iter().map(|r| r.winners.len()).sum();
    assert_eq!(wins as usize, winners);
    // Points per round per player average out to the final totals.
    let total_final: i64 =
        recs.iter().map(|r| r.rounds.last().unwrap().totals.iter().map(|&t| t as i64).sum::<i64>()).sum();
    assert_eq!(o.by_seat.iter().map(|p| p.points.sum).sum::<i64>(), total_final);
    assert_eq!(o.final_hist.mean().sum, total_final);
    let text = s.report().to_text();
    for needle in
        ["nil bid rate", "average top bid", "trump selection rate", "overshoot", "shortfall", "redeals per round"]
    {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

#[test]
fn seven_counts_match_the_records() {
    let recs = seven_records(4, 8);
    let mut s = Stats::new();
    recs.iter().for_each(|v| s.add_value(v).unwrap());
    let st = &s.seven;
    assert_eq!(st.games, 8);
    let rounds: usize =
        recs.iter().map(|r| r["rounds"].as_array().unwrap().iter().filter(|x| !x["points"].is_null()).count()).sum();
    assert_eq!(st.rounds as usize, rounds);
    let plays: usize = recs
        .iter()
        .flat_map(|r| r["rounds"].as_array().unwrap().iter())
        .flat_map(|x| x["turns"].as_array().unwrap().iter())
        .filter(|t| t[1].get("play").is_some())
        .count();
    assert_eq!(st.plays.iter().sum::<u64>() as usize, plays);
    // Every finished game has one place per seat, and exactly the winners in the last place.
    for p in &st.by_seat {
        assert_eq!(p.place.total(), 8);
    }
    let wins: u64 = st.by_seat.iter().map(|p| p.place.0.get(&4).copied().unwrap_or(0)).sum();
    let winners: usize = recs.iter().map(|r| r["winners"].as_array().unwrap().len()).sum();
    assert_eq!(wins as usize, winners);
    let text = s.report().to_text();
    assert!(text.contains("Seven: action-card use") && text.contains("elimination order"), "{text}");
}

#[test]
fn bad_lines_are_refused() {
    let mut s = Stats::new();
    assert!(s.add_line("not json").is_err());
    assert!(s.add_line(r#"{"game": "chess"}"#).unwrap_err().to_string().contains("unknown game `chess`"));
    assert!(s.add_line(r#"{"game": "oh7", "players": 3}"#).is_err());
    assert_eq!(s.games(), 0);
}

#[test]
fn charts_are_written() {
    let mut s = Stats::new();
    oh7_records(Preset::Kod7, 4, 10).iter().for_each(|r| s.add_oh7(r));
    seven_records(3, 3).iter().for_each(|v| s.add_value(v).unwrap());
    let dir = std::env::temp_dir().join(format!("oh7-stats-charts-{}", std::process::id()));
    let files = oh7_stats::plot::write_charts(&s, &dir).unwrap();
    assert_eq!(files.len(), 2 * (6 + 5));
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        assert!(bytes.len() > 1000, "{}", f.display());
        if f.extension().unwrap() == "png" {
            assert_eq!(&bytes[1..4], b"PNG");
        } else {
            assert!(String::from_utf8_lossy(&bytes).contains("<svg"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unfinished_games_count_their_scored_rounds_only() {
    let mut g = Oh7Game::new(Ruleset::preset(Preset::Fr), 3, 9).unwrap();
    let mut bots: Vec<Box<dyn Bot<Oh7Game>>> =
        (0..3).map(|p| Box::new(RandomBot::new(p)) as Box<dyn Bot<Oh7Game>>).collect();
    // Play 100 decisions: a few rounds and part of the next.
    let mut legal = Vec::new();
    for _ in 0..100 {
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        let a = bots[seat].choose(&g.view(seat), &legal);
        g.apply(seat, a).unwrap();
    }
    let rec = Record::from_game(&g);
    assert!(!rec.finished);
    let scored = rec.rounds.iter().filter(|r| !r.points.is_empty()).count();
    let mut s = Stats::new();
    s.add_oh7(&rec);
    assert_eq!(s.oh7.unfinished, 1);
    assert_eq!(s.oh7.rounds as usize, scored);
    assert_eq!(s.oh7.rounds_per_game.total(), 0);
    assert_eq!(s.oh7.by_seat[0].wins.n, 0);
    assert!(s.report().to_text().contains("unfinished games"));
}
