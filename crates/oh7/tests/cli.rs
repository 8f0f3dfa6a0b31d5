//! End-to-end tests of the real `oh7` binary: simulate → records → replay, and one clear line
//! with a non-zero exit code for every kind of bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

fn oh7(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oh7")).args(args).output().expect("the oh7 binary runs")
}

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("oh7-cli-").tempdir().expect("a temporary directory")
}

/// The error contract: exit code 2, nothing on stdout, one line on stderr that contains `what`.
fn fails_with(args: &[&str], what: &str) {
    let out = oh7(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains(what), "{args:?}: expected `{what}` in the first line of: {err}");
    assert!(first.starts_with("error:"), "{args:?}: {err}");
}

#[test]
fn simulate_writes_records_that_replay() {
    let scratch = scratch();
    for (preset, players, extra) in [
        ("en", "2", &[][..]),
        ("fr", "5", &[][..]),
        ("fr-advanced", "6", &[][..]),
        ("kod7", "3", &[][..]),
        ("bga", "9", &["--passing"][..]),
        ("bga", "3", &["--decks", "2"][..]),
    ] {
        let file = scratch.path().join(format!("{preset}-{players}.jsonl"));
        let f = file.to_str().unwrap();
        let mut args = vec!["simulate", "--preset", preset, "--players", players, "--games", "20", "--record", f];
        args.extend_from_slice(extra);
        let out = oh7(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let out = oh7(&["replay", f]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{preset}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("20 record(s) read") && text.contains("20 replay exactly, 0 do not"), "{text}");
    }
    let file = scratch.path().join("seven.jsonl");
    let f = file.to_str().unwrap();
    assert!(oh7(&["simulate", "--game", "seven", "--players", "5", "--games", "5", "--record", f]).status.success());
    let out = oh7(&["replay", f, "--show", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("seven — 5 players"));
    // Seven's rules from a file, as the server and Python take them (issue 57: the command line
    // read no Seven ruleset); a knob Seven does not have is refused with the file named.
    let rules = scratch.path().join("seven.toml");
    std::fs::write(&rules, "hand_size = 5\n").unwrap();
    let r = rules.to_str().unwrap();
    let out = oh7(&["simulate", "--game", "seven", "--ruleset", r, "--players", "3", "--games", "2", "--record", f]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let first: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&file).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(first["ruleset"]["hand_size"], 5, "{first}");
    assert_eq!(first["rounds"][0]["hands"][0].as_array().map(Vec::len), Some(5), "five cards a hand: {first}");
    std::fs::write(&rules, "decks = 2\n").unwrap();
    fails_with(&["simulate", "--game", "seven", "--ruleset", r, "--players", "3", "--games", "1"], "seven.toml");
}

#[test]
fn replay_show_prints_a_readable_game() {
    let scratch = scratch();
    let file = scratch.path().join("show.jsonl");
    let f = file.to_str().unwrap();
    assert!(oh7(&["simulate", "--preset", "en", "--players", "2", "--games", "3", "--record", f]).status.success());
    let out = oh7(&["replay", f, "--show", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("en — 2 players + the Dummy") && text.contains("Dummy pile") && text.contains("Winner"));
    fails_with(&["replay", f, "--show", "4"], "there is no game 4");
}

#[test]
fn rules_summarises_every_preset() {
    for (p, words) in [
        ("en", "at least 7 rounds"),
        ("fr", "35 points"),
        ("fr-advanced", "? may reveal it"),
        ("kod7", "exception suit"),
        ("bga", "exactly 7 rounds"),
        ("seven", "shedding game"),
    ] {
        let out = oh7(&["rules", p]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(words), "{p}: {text}");
    }
    fails_with(&["rules", "xx"], "unknown preset `xx`: choose one of en, fr, fr-advanced, kod7, bga");
}

#[test]
fn bad_input_gets_one_clear_line() {
    let scratch = scratch();
    fails_with(&["simulate", "--preset", "xx"], "unknown preset `xx`");
    fails_with(&["simulate", "--preset", "fr-advanced", "--players", "2"], "fr-advanced is played by 3 to 6 players");
    fails_with(&["simulate", "--preset", "en", "--players", "5"], "en is played by 2 (with the Dummy) to 4 players");
    fails_with(&["simulate", "--game", "seven", "--players", "9"], "Seven is played by 2 to 8 players");
    fails_with(&["simulate", "--seed", "banana"], "`banana` is not a seed");
    let toml = scratch.path().join("bad.toml");
    std::fs::write(&toml, "preset = \"en\"\ncolour = \"red\"\n").unwrap();
    fails_with(&["simulate", "--ruleset", toml.to_str().unwrap()], "unknown field `colour`");
    std::fs::write(&toml, "preset = \"en\"\ndecks = 3\n").unwrap();
    fails_with(&["rules", "--ruleset", toml.to_str().unwrap()], "decks must be 1 or 2");
    fails_with(&["simulate", "--ruleset", "/nonexistent/r.toml"], "cannot read /nonexistent/r.toml");
    fails_with(&["replay", "/nonexistent/r.jsonl"], "cannot open /nonexistent/r.jsonl");
    // A tournament refuses bots that would never sit, and research settings it cannot read,
    // before it plays anything.
    fails_with(
        &["tournament", "--players", "2", "--bots", "expert,ismcts,heuristic"],
        "--bots names 3 bots but the table has 2 seats",
    );
    fails_with(&["tournament", "--bots", "ismcts:depth=3,heuristic"], "unknown ismcts setting `depth`");
    fails_with(&["tournament", "--bots", "hybrid:many,heuristic"], "hybrid:ITERATIONS");
    // ... and a --gap or an --out it could not use (the first line is the error, not progress:
    // a million deals are not played first).
    fails_with(
        &["tournament", "--deals", "1000000", "--bots", "heuristic,random", "--gap", "heuristic,random,foo"],
        "--gap names `foo`, which is not among the bots heuristic,random",
    );
    fails_with(
        &["tournament", "--deals", "1000000", "--shard", "0/2", "--out", "/nonexistent/t.jsonl"],
        "--out /nonexistent/t.jsonl: the folder /nonexistent does not exist",
    );
    fails_with(&["tournament", "--deals", "0"], "a tournament plays at least 1 deal");
    fails_with(&["tournament", "--deals", "many"], "`many` is not a whole number of deals");
}

#[test]
fn custom_ruleset_file_is_used() {
    let scratch = scratch();
    let toml = scratch.path().join("short.toml");
    std::fs::write(&toml, "preset = \"fr\"\ntarget = 21\n").unwrap();
    let out = oh7(&["rules", "--ruleset", toml.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("reach 21 points"));
    let rec = scratch.path().join("short.jsonl");
    let r = rec.to_str().unwrap();
    let out = oh7(&["simulate", "--ruleset", toml.to_str().unwrap(), "--players", "3", "--games", "5", "--record", r]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = std::fs::read_to_string(&rec).unwrap();
    assert!(line.contains("\"target\":21"));
    assert!(oh7(&["replay", r]).status.success());
}

/// `--set key=value` lays a knob over the preset or the file, for both games, as the server's
/// `options` and Python's `options=` do (issue 57: one request path).
#[test]
fn options_are_set_at_the_command_line() {
    let scratch = scratch();
    let rec = scratch.path().join("set.jsonl");
    let r = rec.to_str().unwrap();
    let out =
        oh7(&["simulate", "--preset", "fr", "--set", "target=21", "--players", "3", "--games", "2", "--record", r]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&rec).unwrap().contains("\"target\":21"));
    let toml = scratch.path().join("seven.toml");
    std::fs::write(&toml, "hand_size = 5\n").unwrap();
    let args = ["simulate", "--game", "seven", "--ruleset", toml.to_str().unwrap(), "--set", "limit=0"];
    let out = oh7(&[&args[..], &["--players", "3", "--games", "2", "--record", r]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = std::fs::read_to_string(&rec).unwrap();
    assert!(line.contains("\"hand_size\":5") && line.contains("\"limit\":null"), "{line}");
    fails_with(&["simulate", "--set", "target=abc"], "option `target`: invalid type");
    fails_with(&["simulate", "--set", "colour=red"], "option `colour`: unknown field");
    fails_with(&["simulate", "--set", "target"], "write an option as key=value");
    fails_with(&["simulate", "--game", "seven", "--decks", "2"], "option `decks`: unknown field");
    // A resumed game keeps its own rules: an option would be ignored, so it is refused.
    fails_with(&["play", "--resume", "saved.json", "--set", "target=21"], "--resume continues the saved game");
}

#[test]
fn records_with_bad_cards_or_illegal_actions_are_refused() {
    let scratch = scratch();
    let file = scratch.path().join("one.jsonl");
    let f = file.to_str().unwrap();
    assert!(oh7(&["simulate", "--preset", "en", "--players", "3", "--games", "1", "--record", f]).status.success());
    let text = std::fs::read_to_string(&file).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    // An unknown card.
    let mut bad = v.clone();
    bad["rounds"][0]["tricks"][0]["plays"][0][1] = serde_json::json!("9Z");
    std::fs::write(&file, format!("{bad}\n")).unwrap();
    let out = oh7(&["replay", f]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown card `9Z`"));
    // An illegal action: seat 0's first play replaced by a card it does not hold.
    let hands = v["rounds"][0]["hands"].clone();
    let leader = v["rounds"][0]["tricks"][0]["leader"].as_u64().unwrap() as usize;
    let other = hands[(leader + 1) % 3][0].clone();
    v["rounds"][0]["tricks"][0]["plays"][0][1] = other;
    std::fs::write(&file, format!("{v}\n")).unwrap();
    let out = oh7(&["replay", f]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("round 1, trick 1") && err.contains("is not in your hand"), "{err}");
    assert!(err.lines().last().unwrap().starts_with("error: 1 record(s) do not replay"), "{err}");
}

/// The statistics tables of a run or of `oh7 stats`: everything from the first `== ` title on.
fn tables(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let at = text.find("== ").unwrap_or_else(|| panic!("no tables in: {text}"));
    text[at..].to_string()
}

#[test]
fn stats_of_the_written_records_match_the_run() {
    let scratch = scratch();
    for (name, extra) in [
        ("kod7", &["--preset", "kod7", "--players", "5", "--bots", "random"][..]),
        ("en-mixed", &["--preset", "en", "--players", "2", "--bots", "heuristic,random"][..]),
        ("seven", &["--game", "seven", "--players", "3", "--bots", "random"][..]),
    ] {
        let file = scratch.path().join(format!("stats-{name}.jsonl"));
        let f = file.to_str().unwrap();
        let mut args = vec!["simulate", "--games", "40", "--seed", "7", "--threads", "2", "--record", f];
        args.extend_from_slice(extra);
        let run = oh7(&args);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let stats = oh7(&["stats", f]);
        assert!(stats.status.success(), "{}", String::from_utf8_lossy(&stats.stderr));
        assert_eq!(tables(&run), tables(&stats), "{name}");
        // The same figures as JSON, and whatever the number of threads.
        let mut args1 = vec!["simulate", "--games", "40", "--seed", "7", "--threads", "1", "--json"];
        args1.extend_from_slice(extra);
        let run1 = oh7(&args1);
        assert!(run1.status.success());
        let json = oh7(&["stats", f, "--json"]);
        assert_eq!(run1.stdout, json.stdout, "{name}");
        let csv = oh7(&["stats", f, "--csv"]);
        assert!(String::from_utf8_lossy(&csv.stdout).starts_with("section,row,column,value,lo,hi,n\n"));
    }
}

#[test]
fn simulate_names_its_bots_and_plots() {
    let scratch = scratch();
    let dir = scratch.path().join("plots");
    let out = oh7(&["simulate", "--preset", "fr", "--players", "3", "--games", "10", "--plot", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("bots: heuristic on every seat (the default)"), "{text}");
    assert!(text.contains("6 charts written"), "{text}");
    for chart in ["bet_success", "points_per_round", "rounds_per_game", "trump_selection", "score_distribution"] {
        for ext in ["png", "svg"] {
            assert!(dir.join(format!("{chart}.{ext}")).exists(), "{chart}.{ext}");
        }
    }
    fails_with(&["simulate", "--bots", "random,random"], "--bots names 2 levels for 4 players");
    fails_with(&["simulate", "--bots", "genius"], "unknown bot `genius`");
    fails_with(&["simulate", "--threads", "0"], "--threads must be at least 1");
    fails_with(&["stats", "/nonexistent/r.jsonl"], "cannot open /nonexistent/r.jsonl");
}

#[test]
fn compare_two_rulesets() {
    let scratch = scratch();
    let toml = scratch.path().join("fr21.toml");
    std::fs::write(&toml, "preset = \"fr\"\ntarget = 21\n").unwrap();
    let out = oh7(&["compare", "fr", toml.to_str().unwrap(), "--players", "4", "--games", "30", "--bots", "random"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("B - A [95% CI]") && text.contains("rounds per game"), "{text}");
    let csv = oh7(&["compare", "en", "kod7", "--players", "3", "--games", "10", "--bots", "random", "--csv"]);
    assert!(String::from_utf8_lossy(&csv.stdout).starts_with("section,row,column,a,b,diff,lo,hi,significant\n"));
    fails_with(&["compare", "en", "nosuch"], "`nosuch` is neither a preset");
}

/// `oh7 bench solver` solves real deals (bets by heuristic bots through the rules) of the table
/// asked for, reports how many it solved, and refuses a table the preset cannot seat.
#[test]
fn bench_solver_solves_the_table_asked_for() {
    let out = oh7(&[
        "bench",
        "solver",
        "--deals",
        "3",
        "--tricks",
        "3",
        "--preset",
        "kod7",
        "--players",
        "5",
        "--threads",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("kod7 5 players: 3 of 3 solved"), "{text}");
    assert!(!text.contains("en 4 players"), "{text}");
    // Without the pruning: the same deals, solved too.
    let out =
        oh7(&["bench", "solver", "--deals", "3", "--tricks", "3", "--preset", "kod7", "--players", "5", "--no-prune"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("kod7 5 players: 3 of 3 solved"), "{out:?}");
    fails_with(&["bench", "solver", "--preset", "kod7", "--players", "9"], "9 players");
    fails_with(&["bench", "solver", "--preset", "kod7"], "required arguments");
    fails_with(&["bench", "solver", "--deals", "0"], "at least 1");
    // With the Dummy (it may lead the trick where the solve starts).
    let out = oh7(&["bench", "solver", "--deals", "4", "--tricks", "4", "--preset", "en", "--players", "2"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("en 2 players: 4 of 4 solved"), "{out:?}");
}

fn read(p: &PathBuf) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

/// Issue 18, item 10: the files a careless user feeds back lose nothing.
#[test]
fn resume_refuses_a_file_of_many_games_and_a_finished_game_and_leaves_them_alone() {
    let scratch = scratch();
    // A simulate output: several records.
    let many = scratch.path().join("many.jsonl");
    let m = many.to_str().unwrap();
    let out = oh7(&["simulate", "--preset", "en", "--games", "3", "--record", m, "--bots", "heuristic"]);
    assert!(out.status.success());
    let before = read(&many);
    fails_with(&["play", "--plain", "--resume", m], "holds 3 records (lines 1, 2, 3)");
    assert_eq!(read(&many), before, "the file of several games was written over");

    // One finished game: reported as over; its seats keep saying who played.
    let one = scratch.path().join("one.json");
    std::fs::write(&one, before.split(|&b| b == b'\n').next().unwrap()).unwrap();
    let before = read(&one);
    fails_with(&["play", "--plain", "--resume", one.to_str().unwrap()], "this game is over");
    assert_eq!(read(&one), before);
    let rec: serde_json::Value = serde_json::from_slice(&before).unwrap();
    assert_eq!(rec["seats"][0], "bot:heuristic");

    // An existing file is never the --save target of a new game.
    fails_with(&["play", "--plain", "--save", m], "already exists");
    assert_eq!(read(&many), std::fs::read(&many).unwrap());
}

/// A resumed game keeps the bots its record names (no relabelling).
#[test]
fn a_resumed_game_keeps_its_bots() {
    let scratch = scratch();
    let save = scratch.path().join("keep.json");
    let s = save.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["play", "--plain", "--preset", "en", "--seed", "4", "--bots", "heuristic", "--save", s])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(child.wait().unwrap().success());
    let rec: serde_json::Value = serde_json::from_slice(&read(&save)).unwrap();
    assert_eq!(rec["seats"], serde_json::json!(["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]));
    // Resumed without --bots: the record's heuristic bots play on.
    let out = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["play", "--plain", "--resume", s])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rec: serde_json::Value = serde_json::from_slice(&read(&save)).unwrap();
    assert_eq!(rec["seats"], serde_json::json!(["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]));
}

/// `stats` panicked (capacity overflow) on a Seven record claiming 2⁶³ players, and summarised
/// records `replay` rejects: now both refuse it with the file and line.
#[test]
fn readers_refuse_impossible_sizes_with_file_and_line() {
    let scratch = scratch();
    let file = scratch.path().join("seven.jsonl");
    let f = file.to_str().unwrap();
    let out = oh7(&["simulate", "--game", "seven", "--players", "3", "--games", "2", "--record", f]);
    assert!(out.status.success());
    let text = String::from_utf8(read(&file)).unwrap();
    let mut second: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    second["players"] = serde_json::Value::from(1u64 << 63);
    let bad = format!("{}\n{second}\n", text.lines().next().unwrap());
    std::fs::write(&file, &bad).unwrap();
    fails_with(&["stats", f], &format!("{f}:2: the record does not replay"));
    let out = oh7(&["replay", f]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with(&format!("{f}:2: game 2: ")), "{out:?}");
    assert_eq!(read(&file), bad.as_bytes());
}

/// A figure with more decimals than any interval justifies (`+0.005168304374500554`).
fn overlong_figures(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.split_once('.').is_some_and(|(_, d)| d.len() > 4))
        .map(str::to_string)
        .collect()
}

/// Issue 18, item 9: every table of simulate, stats, compare and tournament is rounded.
#[test]
fn printed_figures_are_rounded() {
    let scratch = scratch();
    let rec = scratch.path().join("rounded.jsonl");
    let r = rec.to_str().unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["simulate", "--preset", "kod7", "--games", "60", "--record", r],
        vec!["stats", r],
        vec!["compare", "en", "fr", "--games", "60"],
        vec!["compare", "bga", "kod7", "--games", "40", "--players", "5"],
        vec!["simulate", "--game", "seven", "--players", "3", "--games", "10"],
        vec!["tournament", "--preset", "en", "--deals", "6", "--bots", "random,heuristic"],
    ];
    for args in runs {
        let out = oh7(&args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(overlong_figures(&text).is_empty(), "{args:?}: {:?}\n{text}", overlong_figures(&text));
    }
    assert_eq!(overlong_figures("sd 4.03 +0.005168304374500554"), vec!["0.005168304374500554"]);
}

/// `oh7 learn` as its user runs it: data with a baseline, a short training, the evaluation
/// table; and one clear line for each kind of bad input, with no file left behind.
#[test]
fn learn_data_train_eval_and_their_errors() {
    let scratch = scratch();
    let data = scratch.path().join("d.safetensors");
    let d = data.to_str().unwrap();
    let out = oh7(&[
        "learn",
        "data",
        "--preset",
        "kod7",
        "--players",
        "4",
        "--games",
        "12",
        "--rounds",
        "1",
        "--bots",
        "ismcts:iterations=20,heuristic",
        "--baseline",
        "8",
        "--out",
        d,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rows from 12 games"));
    let model = scratch.path().join("m.safetensors");
    let m = model.to_str().unwrap();
    let out = oh7(&["learn", "train", d, "--epochs", "1", "--hidden", "8", "--out", m]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("held-out cross-entropy"));
    for model_args in [&["--model", m][..], &[][..]] {
        let mut args = vec!["learn", "eval", d];
        args.extend_from_slice(model_args);
        let out = oh7(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(table.contains("| kod7 | 4 |"), "{table}");
    }
    // The policy prior: trained, then scored by its own table; a hand model is not a prior.
    let prior = scratch.path().join("prior.safetensors");
    let pr = prior.to_str().unwrap();
    let out = oh7(&["learn", "train", d, "--kind", "prior", "--epochs", "1", "--hidden", "8", "--out", pr]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nats per decision"));
    let out = oh7(&["learn", "eval", d, "--kind", "prior", "--model", pr]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("top choice agrees"));
    fails_with(&["learn", "eval", d, "--kind", "prior", "--model", m], "policy prior maps");
    let nothing = scratch.path().join("none.safetensors");
    let n = nothing.to_str().unwrap();
    fails_with(&["learn", "train", n, "--out", m], "cannot open");
    fails_with(&["learn", "eval", n], "cannot open");
    fails_with(&["learn", "eval", d, "--model", d], "l0.weight");
    fails_with(&["learn", "data", "--games", "0", "--out", n], "--games must be at least 1");
    fails_with(&["learn", "data", "--bots", "wizard", "--games", "2", "--out", n], "unknown bot");
    fails_with(&["learn", "train", d, "--epochs", "0", "--out", n], "at least 1");
    // An output folder that does not exist is refused before the games or the training.
    fails_with(&["learn", "data", "--games", "100000", "--out", "/nonexistent/x.safetensors"], "does not exist");
    fails_with(&["learn", "train", d, "--out", "/nonexistent/m.safetensors"], "does not exist");
    assert!(!nothing.exists(), "a failed command left a file");
    // Data without a baseline cannot be scored against the uniform sampler.
    let plain = scratch.path().join("p.safetensors");
    let p = plain.to_str().unwrap();
    assert!(
        oh7(&["learn", "data", "--preset", "en", "--games", "2", "--bots", "heuristic", "--out", p]).status.success()
    );
    fails_with(&["learn", "eval", p], "without --baseline");
}

/// `oh7 web` writes the static client: the page with relative links in local-only mode, the
/// service worker with its version and every file it caches, the WebAssembly; a file where the
/// folder should be is one clear line.
#[test]
fn web_writes_the_static_client() {
    if !oh7_server::web::has_wasm() {
        fails_with(&["web", "--out", "unused"], "no WebAssembly");
        return;
    }
    let scratch = scratch();
    let out = scratch.path().join("site");
    let run = oh7(&["web", "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("data-mode=\"local\""), "{index}");
    assert!(index.contains("src=\"./app.js\"") && !index.contains("=\"/"), "links relative: {index}");
    let sw = std::fs::read_to_string(out.join("sw.js")).unwrap();
    assert!(!sw.contains("__OH7_"), "the version and files written in");
    let files: Vec<String> =
        serde_json::from_str(sw.lines().find_map(|l| l.strip_prefix("const FILES = ")).unwrap().trim_end_matches(';'))
            .unwrap();
    for f in &files {
        let path = if f == "./" { out.join("index.html") } else { out.join(f.trim_start_matches("./")) };
        assert!(path.metadata().is_ok_and(|m| m.len() > 0), "{f} cached by the service worker but not written");
    }
    assert!(files.contains(&"./oh7.wasm".to_string()));
    let wasm = std::fs::read(out.join("oh7.wasm")).unwrap();
    assert_eq!(&wasm[..4], b"\0asm");
    // Written again over itself: the same files.
    assert!(oh7(&["web", "--out", out.to_str().unwrap()]).status.success());
    std::fs::write(scratch.path().join("file"), "x").unwrap();
    fails_with(&["web", "--out", scratch.path().join("file").to_str().unwrap()], "cannot make the folder");
}
