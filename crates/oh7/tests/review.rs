//! `oh7 review` end to end: a review of a record written by `oh7 simulate --record`, as text
//! and as JSON, and one clear line with exit code 2 for every kind of bad input.

use std::process::{Command, Output};

use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use serde_json::Value;

fn oh7(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oh7")).args(args).output().expect("the oh7 binary runs")
}

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("oh7-review-").tempdir().expect("a temporary directory")
}

/// Exit code 2, nothing on stdout, a first line `error: ...` that contains `what`.
fn fails_with(args: &[&str], what: &str) {
    let out = oh7(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains(what), "{args:?}: expected `{what}` in the first line of: {err}");
    assert!(first.starts_with("error:"), "{args:?}: {err}");
}

fn records(dir: &std::path::Path, name: &str, args: &[&str]) -> String {
    let file = dir.join(name);
    let f = file.to_str().unwrap().to_string();
    let mut all = vec!["simulate", "--games", "2", "--record", &f];
    all.extend_from_slice(args);
    let out = oh7(&all);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    f
}

#[test]
fn review_prints_text_and_json() {
    let dir = scratch();
    let f = records(dir.path(), "en.jsonl", &["--preset", "en", "--players", "4"]);
    let out = oh7(&["review", &f, "--level", "easy", "--game", "2", "--seat", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for want in ["Review of seat 3", "Round 1", "chose", "Per round", "Game:", "accuracy", "hindsight: oracle"] {
        assert!(text.contains(want), "no `{want}` in:\n{text}");
    }
    let out = oh7(&["review", &f, "--level", "easy", "--no-hindsight", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    assert_eq!(v["format"], "oh7-review/1");
    assert_eq!(v["seat"], 0);
    let decisions = v["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty());
    assert!(decisions.iter().all(|d| d["hindsight"].is_null()));
    assert!(v["game"]["accuracy"].as_f64().is_some());
    // The same review twice.
    let again = oh7(&["review", &f, "--level", "easy", "--no-hindsight", "--json"]);
    assert_eq!(out.stdout, again.stdout);
    // A record on its own (pretty JSON, as one document) reviews too.
    let one = dir.path().join("one.json");
    let line = std::fs::read_to_string(&f).unwrap().lines().next().unwrap().to_string();
    let pretty = serde_json::to_string_pretty(&serde_json::from_str::<Value>(&line).unwrap()).unwrap();
    std::fs::write(&one, pretty).unwrap();
    let out = oh7(&["review", one.to_str().unwrap(), "--level", "easy", "--no-hindsight", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn bad_input_gives_one_clear_line() {
    let dir = scratch();
    let f = records(dir.path(), "en.jsonl", &["--preset", "en", "--players", "3"]);
    let missing = dir.path().join("missing.jsonl");
    fails_with(&["review", missing.to_str().unwrap()], "cannot read");
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"hello\": 1}\n").unwrap();
    fails_with(&["review", junk.to_str().unwrap()], "not an oh7-record/1 record");
    let text = dir.path().join("text.txt");
    std::fs::write(&text, "hello\nworld\n").unwrap();
    fails_with(&["review", text.to_str().unwrap()], "not JSON");
    fails_with(&["review", &f, "--seat", "3"], "there is no seat 3");
    fails_with(&["review", &f, "--game", "5"], "there is no game 5");
    fails_with(&["review", &f, "--level", "grandmaster"], "grandmaster");
    // An unfinished game.
    let mut g = Oh7Game::new(Ruleset::preset(Preset::En), 4, 9).unwrap();
    let mut legal = Vec::new();
    for _ in 0..12 {
        let s = g.to_move().lowest().unwrap();
        g.legal_actions(s, &mut legal);
        g.apply(s, legal[0]).unwrap();
    }
    let unfinished = dir.path().join("unfinished.json");
    std::fs::write(&unfinished, g.record().to_string()).unwrap();
    fails_with(&["review", unfinished.to_str().unwrap()], "the game is not over");
    // An unfinished Seven game.
    let mut g = oh7_core::seven::SevenGame::new(oh7_core::seven::SevenRules::default(), 3, 9).unwrap();
    for _ in 0..12 {
        let s = g.to_move().lowest().unwrap();
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        g.apply(s, legal[0]).unwrap();
    }
    let unfinished = dir.path().join("unfinished-seven.json");
    std::fs::write(&unfinished, g.record().to_string()).unwrap();
    fails_with(&["review", unfinished.to_str().unwrap()], "the game is not over");
}

/// A Seven record from `oh7 simulate --game seven --record` reviews, as text and as JSON (in
/// the chance to go out first, percent), the same twice.
#[test]
fn review_of_a_seven_record() {
    let dir = scratch();
    let f = records(dir.path(), "seven.jsonl", &["--game", "seven", "--players", "3"]);
    let out = oh7(&["review", &f, "--level", "easy", "--seat", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for want in ["Review of seat 1", "seven, 3 players", "chance to go out first", "turn ", "top ", "chose", "Game:"] {
        assert!(text.contains(want), "no `{want}` in:\n{text}");
    }
    let out = oh7(&["review", &f, "--level", "easy", "--game", "2", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    assert_eq!(
        (v["format"].as_str(), v["family"].as_str(), v["unit"].as_str()),
        (Some("oh7-review/1"), Some("seven"), Some("percent"))
    );
    let decisions = v["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty());
    for d in decisions {
        assert!(d["seven"]["top"].is_string(), "{d}");
        assert!(d["evaluation"]["options"].as_array().unwrap().len() > 1, "{d}");
        assert!(d["loss"].as_f64().unwrap() >= 0.0);
    }
    assert!(v["game"]["accuracy"].as_f64().is_some());
    let again = oh7(&["review", &f, "--level", "easy", "--game", "2", "--json"]);
    assert_eq!(out.stdout, again.stdout);
}
