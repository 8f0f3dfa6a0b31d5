//! Determinism across targets: the same seeded solo games played natively and by the
//! WebAssembly build (under node, through the exports the page's worker calls) give records
//! equal byte for byte: every preset, every bot level of each game.
//!
//! Needs node and the module (`target/wasm/wasm32-unknown-unknown/wasm/oh7_wasm.wasm`, which
//! building `oh7-server` makes, or `OH7_WASM_FILE`): without them the test says so and passes,
//! unless `OH7_WASM_TESTS=require` (CI), where it fails.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn module() -> Option<PathBuf> {
    let path = std::env::var_os("OH7_WASM_FILE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/wasm/wasm32-unknown-unknown/wasm/oh7_wasm.wasm"));
    path.metadata().is_ok_and(|m| m.len() > 0).then_some(path)
}

fn skip(why: &str) {
    if std::env::var("OH7_WASM_TESTS").as_deref() == Ok("require") {
        panic!("OH7_WASM_TESTS=require: {why}");
    }
    eprintln!("skipped: {why}");
}

/// The games: every preset at its usual size with random bots (whole games), and every level of
/// each game on a short game (one round of Kod-7 at 3, a single round of Seven at 3).
fn requests() -> Vec<Value> {
    let setup = |game: &str, preset: Option<&str>, ruleset: Option<&str>, players: usize, level: &str| json!({"game": game, "preset": preset, "ruleset": ruleset, "players": players, "level": level, "lang": "en"});
    let mut out = Vec::new();
    for (preset, players) in [("en", 4), ("fr", 4), ("fr-advanced", 5), ("kod7", 4), ("bga", 9)] {
        out.push(json!({"op": "selfplay", "seed": 11, "setup": setup("oh7", Some(preset), None, players, "random")}));
    }
    out.push(json!({"op": "selfplay", "seed": 11, "setup": setup("seven", None, None, 4, "random")}));
    let one_round = "preset = \"kod7\"\nend = \"fixed_rounds\"\nrounds = 1\n";
    // Every level of each game, from the registry.
    for level in oh7_bots::OH7_LEVELS {
        out.push(json!({"op": "selfplay", "seed": 5, "setup": setup("oh7", None, Some(one_round), 3, level)}));
    }
    for level in oh7_bots::SEVEN_LEVELS {
        out.push(json!({"op": "selfplay", "seed": 5, "setup": setup("seven", None, Some(""), 3, level)}));
    }
    out
}

#[test]
fn the_same_seeded_games_give_the_same_records_natively_and_in_webassembly() {
    let Some(wasm) = module() else { return skip("no WebAssembly module: build oh7-server (or set OH7_WASM_FILE)") };
    let runner = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wasm-run.mjs");
    let child = Command::new("node").arg(&runner).arg(&wasm).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn();
    let Ok(mut child) = child else { return skip("node is not installed") };
    let reqs = requests();
    let mut stdin = child.stdin.take().expect("piped");
    for r in &reqs {
        writeln!(stdin, "{r}").expect("node reads");
    }
    drop(stdin);
    let lines: Vec<String> =
        BufReader::new(child.stdout.take().expect("piped")).lines().map(|l| l.expect("a line")).collect();
    assert!(child.wait().expect("node ends").success());
    assert_eq!(lines.len(), reqs.len());
    for (req, line) in reqs.iter().zip(&lines) {
        let got: Value = serde_json::from_str(line).expect("node's answer");
        let page = got["answer"].as_str().expect("an answer");
        let native = oh7_wasm::call(&req.to_string());
        let record: Value = serde_json::from_str(&native).expect("JSON");
        let record = record.as_str().unwrap_or_else(|| panic!("{req}: {native}"));
        assert!(record.len() > 100, "{req}: {record}");
        // The answer is the record's text as a JSON string: the page's text and the native one.
        assert_eq!(page, native, "{req}: the page's record differs from the native one");
    }
}
