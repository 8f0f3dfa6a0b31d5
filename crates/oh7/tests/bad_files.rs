//! Issue 18, item 10: bad files lose nothing and crash nothing. A seeded corpus of 10,000
//! mutated records (truncated, bytes flipped, fields removed, numbers out of range, lists
//! reordered, lines duplicated) and of mutated ruleset files goes through the readers of
//! records: `oh7 replay` and `oh7 stats` (the real binary, on files of 20 records), the same
//! checks in-process on every record (`Stats::add_checked_line`, the resume reader), and
//! `oh7 play --resume` / `oh7 play --ruleset` (the real binary) on a sample. No panic, no hang,
//! every rejection one line naming the file and line, no input file changed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{SevenGame, SevenRules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

const CORPUS: usize = 10_000;
const PER_FILE: usize = 20;

/// Run the binary with a deadline (a hang fails the test).
fn run(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("oh7 {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A game of random moves, stopped after `steps` actions (or at its end).
fn record_of<G: Game>(mut g: G, steps: usize, rng: &mut ChaCha8Rng, record: impl Fn(&G) -> Value) -> Value {
    let mut legal = Vec::new();
    for _ in 0..steps {
        if g.is_over() {
            break;
        }
        let seat = g.to_move().lowest().unwrap();
        g.legal_actions(seat, &mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(seat, a).unwrap();
    }
    record(&g)
}

/// Whole and unfinished games of every preset and of Seven.
fn base_records(rng: &mut ChaCha8Rng) -> Vec<Value> {
    let mut out = Vec::new();
    let games = [
        (Preset::En, 2),
        (Preset::En, 4),
        (Preset::Fr, 5),
        (Preset::FrAdvanced, 3),
        (Preset::Kod7, 6),
        (Preset::Bga, 7),
    ];
    for (k, (preset, players)) in games.into_iter().enumerate() {
        for steps in [40, 100_000] {
            let rules = Ruleset { passing: preset == Preset::Bga, ..Ruleset::preset(preset) };
            let mut g = Oh7Game::new(rules, players, k as u64).unwrap();
            let names = (0..players).map(|p| if p == 0 { "human".into() } else { "bot:random".into() }).collect();
            g.set_seat_names(names);
            out.push(record_of(g, steps, rng, |g| g.record()));
        }
    }
    for steps in [60, 100_000] {
        let rules = SevenRules { limit: Some(40), ..SevenRules::default() };
        let g = SevenGame::new(rules, 4, 3).unwrap();
        out.push(record_of(g, steps, rng, |g| g.record()));
    }
    out
}

/// What a node is, for choosing a mutation.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Object,
    Array,
    Number,
    Other,
}

/// Every node of a JSON value, by path, with its kind (objects with keys, lists of two or more).
fn paths(v: &Value, here: &mut Vec<Value>, out: &mut Vec<(Vec<Value>, Kind)>) {
    let kind = match v {
        Value::Object(m) if !m.is_empty() => Kind::Object,
        Value::Array(a) if a.len() > 1 => Kind::Array,
        Value::Number(_) => Kind::Number,
        _ => Kind::Other,
    };
    out.push((here.clone(), kind));
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Value::from(k.as_str()));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Value::from(i));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn node<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    let mut cur = v;
    for p in path {
        cur = match p {
            Value::String(k) => cur.get_mut(k.as_str()).unwrap(),
            Value::Number(i) => cur.get_mut(i.as_u64().unwrap() as usize).unwrap(),
            _ => unreachable!(),
        };
    }
    cur
}

/// One mutation of `rec`, as the bytes of one line (no newline inside).
fn mutate(rec: &Value, all: &[(Vec<Value>, Kind)], rng: &mut ChaCha8Rng) -> (Vec<u8>, &'static str) {
    let mut v = rec.clone();
    let of = |k: Kind| -> Vec<&Vec<Value>> { all.iter().filter(|(_, x)| *x == k).map(|(p, _)| p).collect() };
    let kind = rng.random_range(0..6);
    match kind {
        0 => {
            let text = rec.to_string().into_bytes();
            let cut = rng.random_range(0..text.len());
            (text[..cut].to_vec(), "truncated")
        }
        1 => {
            let mut text = rec.to_string().into_bytes();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..text.len());
                text[i] ^= 1 << rng.random_range(0..8);
                if text[i] == b'\n' || text[i] == b'\r' {
                    text[i] = b' ';
                }
            }
            (text, "bytes flipped")
        }
        2 => {
            let objects = of(Kind::Object);
            let p = objects[rng.random_range(0..objects.len())].clone();
            if let Value::Object(m) = node(&mut v, &p) {
                let keys: Vec<String> = m.keys().cloned().collect();
                m.remove(&keys[rng.random_range(0..keys.len())]);
            }
            (v.to_string().into_bytes(), "field removed")
        }
        3 => {
            let numbers = of(Kind::Number);
            let p = numbers[rng.random_range(0..numbers.len())].clone();
            let wild: [Value; 8] = [
                Value::from(1u64 << 63),
                Value::from(u64::MAX),
                Value::from(-1),
                Value::from(0),
                Value::from(4_294_967_296u64),
                Value::from(1e300),
                Value::from(255),
                Value::from(-9_223_372_036_854_775_807i64),
            ];
            *node(&mut v, &p) = wild[rng.random_range(0..wild.len())].clone();
            (v.to_string().into_bytes(), "number out of range")
        }
        4 => {
            let arrays = of(Kind::Array);
            let p = arrays[rng.random_range(0..arrays.len())].clone();
            if let Value::Array(a) = node(&mut v, &p) {
                if rng.random_bool(0.5) {
                    a.reverse();
                } else {
                    let k = rng.random_range(1..a.len());
                    a.rotate_left(k);
                }
            }
            (v.to_string().into_bytes(), "list reordered")
        }
        _ => {
            // A string where a number was, or a list where a string was.
            let p = all[rng.random_range(0..all.len())].0.clone();
            let n = node(&mut v, &p);
            *n = match n {
                Value::Number(_) => Value::from("7"),
                Value::String(_) => Value::Array(vec![]),
                _ => Value::Null,
            };
            (v.to_string().into_bytes(), "type changed")
        }
    }
}

fn checksums(files: &[PathBuf]) -> BTreeMap<PathBuf, Vec<u8>> {
    files.iter().map(|f| (f.clone(), std::fs::read(f).unwrap())).collect()
}

/// A one-line error naming `file` and one of `lines` (`FILE:LINE: …`).
fn names_file_and_line(msg: &str, file: &Path, lines: &[usize]) -> bool {
    let p = file.display().to_string();
    msg.lines().count() == 1
        && lines.iter().any(|l| msg.contains(&format!("{p}:{l}: ")) || msg.contains(&format!("{p}:{l} : ")))
}

#[test]
fn ten_thousand_mutated_records_crash_nothing_and_change_nothing() {
    let t0 = Instant::now();
    let lap = |what: &str| eprintln!("{what}: {:.1} s", t0.elapsed().as_secs_f64());
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let bases = base_records(&mut rng);
    let shapes: Vec<Vec<(Vec<Value>, Kind)>> = bases
        .iter()
        .map(|b| {
            let mut all = Vec::new();
            paths(b, &mut Vec::new(), &mut all);
            all
        })
        .collect();
    let scratch = tempfile::Builder::new().prefix("oh7-bad-files-").tempdir().expect("a temporary directory");
    let d = scratch.path().to_path_buf();
    let mut corpus: Vec<(Vec<u8>, &str)> = Vec::with_capacity(CORPUS);
    while corpus.len() < CORPUS {
        let k = rng.random_range(0..bases.len());
        corpus.push(mutate(&bases[k], &shapes[k], &mut rng));
    }

    // Files of PER_FILE records, one per line; which lines the engine accepts, in-process.
    let mut files = Vec::new();
    let mut bad_lines: Vec<Vec<usize>> = Vec::new();
    let mut kinds: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (k, chunk) in corpus.chunks(PER_FILE).enumerate() {
        let path = d.join(format!("records-{k:04}.jsonl"));
        let mut bytes = Vec::new();
        let mut bad = Vec::new();
        for (i, (line, kind)) in chunk.iter().enumerate() {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
            let ok = std::str::from_utf8(line)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(t).ok())
                .is_some_and(|v| oh7_core::replay_record(&v).is_ok());
            // The stats reader agrees with the engine on every record.
            let mut stats = oh7_stats::Stats::new();
            let stats_ok = std::str::from_utf8(line).is_ok_and(|t| stats.add_checked_line(t).is_ok());
            assert_eq!(ok, stats_ok, "{kind}: {}", String::from_utf8_lossy(line));
            let e = kinds.entry(kind).or_default();
            e.0 += 1;
            if !ok {
                e.1 += 1;
                bad.push(i + 1);
            }
        }
        std::fs::write(&path, bytes).unwrap();
        files.push(path);
        bad_lines.push(bad);
    }
    let rejected: usize = bad_lines.iter().map(Vec::len).sum();
    eprintln!(
        "corpus: {CORPUS} mutated records, {rejected} rejected by the engine; by kind (made, rejected): {kinds:?}"
    );
    assert!(rejected > CORPUS / 2, "most mutations must break the record");
    assert!(rejected < CORPUS, "some mutations keep a valid record");

    lap("corpus and in-process checks");
    // Mutated ruleset files.
    let base_toml = "preset = \"bga\"\ndecks = 2\npassing = true\nmax_players = 9\nrounds = 7\n";
    let mut rulesets = Vec::new();
    for k in 0..40 {
        let mut t = base_toml.as_bytes().to_vec();
        match k % 4 {
            0 => t.truncate(rng.random_range(0..t.len())),
            1 => {
                let i = rng.random_range(0..t.len());
                t[i] ^= 1 << rng.random_range(0..8);
            }
            2 => {
                t = format!("preset = \"bga\"\nmax_players = {}\n", [0u64, 1 << 63, 255, 10][k % 4 / 2 + k % 3])
                    .into_bytes()
            }
            _ => t = format!("preset = \"kod7\"\nrounds = {}\n", [-1i64, 0, 1 << 40][k % 3]).into_bytes(),
        }
        let path = d.join(format!("ruleset-{k:02}.toml"));
        std::fs::write(&path, t).unwrap();
        rulesets.push(path);
    }

    let mut inputs = files.clone();
    inputs.extend(rulesets.iter().cloned());
    let before = checksums(&inputs);

    // `oh7 replay` and `oh7 stats` on every file.
    for (path, bad) in files.iter().zip(&bad_lines) {
        let p = path.to_str().unwrap();
        let out = run(&["replay", p]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(0) || out.status.code() == Some(2), "replay {p}: {out:?}");
        assert_eq!(out.status.success(), bad.is_empty(), "replay {p}: {stderr}");
        let reported: Vec<&str> =
            stderr.lines().filter(|l| !l.starts_with("error: ") && !l.contains("more record(s)")).collect();
        assert_eq!(reported.len(), bad.len().min(20), "replay {p}: {stderr}");
        for l in reported {
            assert!(names_file_and_line(l, path, bad), "replay {p}: `{l}`");
        }
        let out = run(&["stats", p]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if bad.is_empty() {
            assert!(out.status.success(), "stats {p}: {stderr}");
        } else {
            assert_eq!(out.status.code(), Some(2), "stats {p}: {out:?}");
            assert!(names_file_and_line(stderr.trim_end(), path, bad), "stats {p}: {stderr}");
        }
    }

    lap("replay and stats");
    // The resume reader on every record, each alone in a file (in-process: the binary's code).
    let single = d.join("single.json");
    for (line, kind) in &corpus {
        std::fs::write(&single, line).unwrap();
        match oh7_tui::read_resume(&single, oh7_tui::Lang::En) {
            Ok((_, g)) => assert!(!g.is_over()),
            Err(e) => assert!(e.lines().count() == 1 && e.starts_with(single.to_str().unwrap()), "{kind}: `{e}`"),
        }
        assert_eq!(std::fs::read(&single).unwrap(), *line, "the resume reader changed the file");
    }

    lap("resume reader");
    // `oh7 play --resume` (the binary) on a sample of single records and on whole files.
    for (k, (line, kind)) in corpus.iter().enumerate().step_by(50) {
        let path = d.join(format!("resume-{k}.json"));
        std::fs::write(&path, line).unwrap();
        let save = d.join(format!("resume-{k}-saved.json"));
        let out = run(&["play", "--plain", "--resume", path.to_str().unwrap(), "--save", save.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(0) || out.status.code() == Some(2), "{kind}: {out:?}");
        if !out.status.success() {
            assert_eq!(stderr.lines().count(), 1, "{kind}: {stderr}");
            assert!(stderr.contains(path.to_str().unwrap()), "{kind}: {stderr}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), *line, "{kind}: play --resume changed its input");
    }
    for path in files.iter().take(10) {
        let out = run(&["play", "--plain", "--resume", path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("records (lines 1, 2, 3, 4, 5, …)"), "{stderr}");
    }
    for (k, path) in rulesets.iter().enumerate() {
        let save = d.join(format!("ruleset-{k}-game.json"));
        let out = run(&["play", "--plain", "--ruleset", path.to_str().unwrap(), "--save", save.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(0) || out.status.code() == Some(2), "{out:?}");
        if !out.status.success() {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }

    lap("play --resume and --ruleset");
    assert_eq!(checksums(&inputs), before, "an input file changed");
}
