//! A study cut into shards (issue 29): four `oh7` processes each play their shard, and the merge
//! gives byte for byte the statistics of one process playing the whole run (`simulate`, Oh 7
//! and Seven; `tournament` with `--gap`, its timings aside). Wrong sets of shards (one missing,
//! one given twice, one of another run) are refused with an error naming the files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn oh7(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oh7")).args(args).current_dir(dir).output().expect("oh7 runs")
}

fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn fails(out: Output) -> String {
    assert!(!out.status.success(), "should fail: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8(out.stderr).unwrap()
}

/// Four shard processes at once, each `args` plus `--shard i/4` and its output file (`flag`).
fn shards(dir: &Path, args: &[&str], flag: &str, name: &str) -> Vec<PathBuf> {
    shards_as(dir, args, flag, name, &["jsonl"; 4])
}

/// [`shards`], shard `i` written to a file ending in `ext[i]` (`jsonl`, `jsonl.gz`, `jsonl.zst`).
fn shards_as(dir: &Path, args: &[&str], flag: &str, name: &str, ext: &[&str; 4]) -> Vec<PathBuf> {
    let children: Vec<_> = (0..4)
        .map(|i| {
            let file = dir.join(format!("{name}-{i}.{}", ext[i]));
            let mut c = Command::new(env!("CARGO_BIN_EXE_oh7"));
            c.args(args).args(["--shard", &format!("{i}/4"), flag]).arg(&file).current_dir(dir);
            (c.output_spawned(), file)
        })
        .collect();
    children
        .into_iter()
        .map(|(child, file)| {
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            file
        })
        .collect()
}

trait SpawnOut {
    fn output_spawned(&mut self) -> std::process::Child;
}

impl SpawnOut for Command {
    fn output_spawned(&mut self) -> std::process::Child {
        self.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap()
    }
}

fn strs(files: &[PathBuf]) -> Vec<&str> {
    files.iter().map(|f| f.to_str().unwrap()).collect()
}

#[test]
fn four_simulate_shards_merge_to_the_one_process_statistics() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("oh7", vec!["simulate", "--preset", "kod7", "--players", "5", "--games", "150", "--seed", "11"]),
        ("seven", vec!["simulate", "--game", "seven", "--players", "3", "--games", "90", "--seed", "5"]),
    ] {
        let mut one = args.clone();
        one.push("--json");
        let whole = ok(oh7(&one, dir.path()));
        let files = shards(dir.path(), &args, "--record", name);
        let mut stats = vec!["stats", "--json"];
        stats.extend(strs(&files));
        let merged = ok(oh7(&stats, dir.path()));
        assert_eq!(merged, whole, "{name}: the merged statistics are the one-process run's, byte for byte");
        // In another order too.
        let mut rev = vec!["stats", "--json"];
        rev.extend(strs(&files).into_iter().rev());
        assert_eq!(ok(oh7(&rev, dir.path())), whole);
    }
}

/// Records compressed as their names say (gzip, Zstandard) read as plain ones everywhere: the
/// merge of mixed shards, `replay`, `export`, `review`; a cut compressed file is refused, naming
/// it; a compressed file is known by its content, whatever its name.
#[test]
fn compressed_records_read_as_plain_ones() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["simulate", "--preset", "kod7", "--players", "4", "--games", "120", "--seed", "3"];
    let mut one = args.to_vec();
    one.push("--json");
    let whole = ok(oh7(&one, dir.path()));
    let files = shards_as(dir.path(), &args, "--record", "z", &["jsonl", "jsonl.gz", "jsonl.zst", "jsonl.zst"]);
    let plain = std::fs::metadata(&files[0]).unwrap().len();
    for f in &files[1..] {
        let bytes = std::fs::read(f).unwrap();
        let magic: &[u8] = if f.extension().unwrap() == "gz" { &[0x1f, 0x8b] } else { &[0x28, 0xb5, 0x2f, 0xfd] };
        assert!(bytes.starts_with(magic), "{} is compressed", f.display());
        assert!((bytes.len() as u64) * 5 < plain, "{}: {} bytes against {plain} plain", f.display(), bytes.len());
    }
    let mut stats = vec!["stats", "--json"];
    stats.extend(strs(&files));
    assert_eq!(ok(oh7(&stats, dir.path())), whole, "mixed plain and compressed shards merge exactly");
    // Known by content: a Zstandard file named .jsonl reads too.
    let renamed = dir.path().join("renamed.jsonl");
    std::fs::copy(&files[2], &renamed).unwrap();
    let out = ok(oh7(&["replay", renamed.to_str().unwrap()], dir.path()));
    assert!(out.contains("30 record(s) read") && out.contains("30 replay exactly"), "{out}");
    let out = ok(oh7(&["export", files[1].to_str().unwrap(), "--parquet", "z.parquet"], dir.path()));
    assert!(out.contains("from 30 records"), "{out}");
    let out = ok(oh7(
        &[
            "review",
            files[3].to_str().unwrap(),
            "--game",
            "2",
            "--seat",
            "1",
            "--level",
            "easy",
            "--no-hindsight",
            "--json",
        ],
        dir.path(),
    ));
    assert!(out.contains("\"decisions\""), "{out}");
    // Export: shards in any order give the rows in game order (the same file); a shard given
    // twice or one of another run is refused; some shards alone are fine.
    let mut fwd = vec!["export"];
    fwd.extend(strs(&files));
    fwd.extend(["--parquet", "fwd.parquet"]);
    ok(oh7(&fwd, dir.path()));
    let mut rev = vec!["export"];
    rev.extend(strs(&files).into_iter().rev());
    rev.extend(["--parquet", "rev.parquet"]);
    ok(oh7(&rev, dir.path()));
    assert_eq!(
        std::fs::read(dir.path().join("fwd.parquet")).unwrap(),
        std::fs::read(dir.path().join("rev.parquet")).unwrap()
    );
    let (a, b) = (files[2].to_str().unwrap(), files[2].to_str().unwrap());
    let e = fails(oh7(&["export", a, b, "--parquet", "dup.parquet"], dir.path()));
    assert!(e.contains("given twice"), "{e}");
    let out = ok(oh7(&["export", files[1].to_str().unwrap(), "--parquet", "one.parquet"], dir.path()));
    assert!(out.contains("from 30 records"), "{out}");
    // Outputs over the input, or over each other, are refused before anything is written.
    let before = std::fs::read(&files[0]).unwrap();
    let e = fails(oh7(&["export", files[0].to_str().unwrap(), "--parquet", files[0].to_str().unwrap()], dir.path()));
    assert!(e.contains("is the input file"), "{e}");
    assert_eq!(std::fs::read(&files[0]).unwrap(), before);
    let e = fails(oh7(
        &["export", files[0].to_str().unwrap(), "--parquet", "s.parquet", "--rounds-parquet", "./s.parquet"],
        dir.path(),
    ));
    assert!(e.contains("are the same file"), "{e}");
    assert!(!dir.path().join("s.parquet").exists());
    let e = fails(oh7(&["simulate", "--games", "2", "--record", "same.jsonl", "--parquet", "same.jsonl"], dir.path()));
    assert!(e.contains("are the same file") && !dir.path().join("same.jsonl").exists(), "{e}");
    // A cut compressed file: an error that names it, no statistics.
    let bytes = std::fs::read(&files[2]).unwrap();
    let cut = dir.path().join("cut.jsonl.zst");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let e = fails(oh7(&["stats", cut.to_str().unwrap()], dir.path()));
    assert!(e.contains("cut.jsonl.zst:") && e.contains("a cut or corrupt file"), "{e}");
}

#[test]
fn wrong_sets_of_shards_are_refused_naming_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["simulate", "--games", "40", "--seed", "3", "--bots", "random"];
    let files = shards(dir.path(), &args, "--record", "a");
    let f = strs(&files);
    // One missing.
    let e = fails(oh7(&["stats", f[0], f[1], f[3]], dir.path()));
    assert!(e.contains("shard(s) 2 of 4 missing"), "{e}");
    // One twice.
    let e = fails(oh7(&["stats", f[0], f[1], f[2], f[3], f[1]], dir.path()));
    assert!(e.contains("shard 1 of 4 is given twice") && e.contains("a-1.jsonl"), "{e}");
    // One of another run (another seed).
    let other = dir.path().join("other.jsonl");
    ok(oh7(
        &[
            "simulate",
            "--games",
            "40",
            "--seed",
            "4",
            "--bots",
            "random",
            "--shard",
            "2/4",
            "--record",
            other.to_str().unwrap(),
        ],
        dir.path(),
    ));
    let e = fails(oh7(&["stats", f[0], f[1], other.to_str().unwrap(), f[3]], dir.path()));
    assert!(e.contains("other.jsonl is a shard of another run") && e.contains("seed 3 and 4"), "{e}");
    // A cut file: its last game gone.
    let text = std::fs::read_to_string(&files[3]).unwrap();
    let cut = dir.path().join("cut.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&cut, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    let e = fails(oh7(&["stats", f[0], f[1], f[2], cut.to_str().unwrap()], dir.path()));
    assert!(e.contains("cut.jsonl") && e.contains("unfinished or cut"), "{e}");
    // More shards than games.
    let e = fails(oh7(&["simulate", "--games", "3", "--shard", "0/4", "--record", "x.jsonl"], dir.path()));
    assert!(e.contains("4 shards for 3 games"), "{e}");
}

/// The tournament's JSON without what is measured rather than computed (decision times and
/// the run's seconds).
fn figures(json: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v.as_object_mut().unwrap().remove("seconds");
    for b in v["bots"].as_array_mut().unwrap() {
        let b = b.as_object_mut().unwrap();
        b.remove("decision_ms_p50");
        b.remove("decision_ms_p95");
    }
    v
}

#[test]
fn four_tournament_shards_merge_to_the_one_process_results() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["tournament", "--players", "4", "--deals", "30", "--bots", "random,heuristic,medium", "--seed", "9"];
    let gap = ["--gap", "random,heuristic,medium"];
    let mut one: Vec<&str> = args.to_vec();
    one.extend(gap);
    one.push("--json");
    let whole = figures(&ok(oh7(&one, dir.path())));
    let files = shards(dir.path(), &args, "--out", "t");
    let mut merge = vec!["tournament", "--json"];
    merge.extend(gap);
    merge.push("--merge");
    merge.extend(strs(&files));
    let merged = figures(&ok(oh7(&merge, dir.path())));
    assert!(whole["gap"]["closed"].is_number(), "{whole}");
    assert_eq!(merged, whole, "the merged tournament is the one-process run's");
    // Wrong merges.
    let f = strs(&files);
    let e = fails(oh7(&["tournament", "--merge", f[0], f[2], f[3]], dir.path()));
    assert!(e.contains("shard(s) 1 of 4 missing"), "{e}");
    let e = fails(oh7(&["tournament", "--merge", f[0], f[1], f[1], f[2], f[3]], dir.path()));
    assert!(e.contains("t-1.jsonl"), "{e}");
    let other = dir.path().join("other.jsonl");
    ok(oh7(
        &[
            "tournament",
            "--players",
            "4",
            "--deals",
            "30",
            "--bots",
            "random,heuristic",
            "--seed",
            "9",
            "--shard",
            "3/4",
            "--out",
            other.to_str().unwrap(),
        ],
        dir.path(),
    ));
    let e = fails(oh7(&["tournament", "--merge", f[0], f[1], f[2], other.to_str().unwrap()], dir.path()));
    assert!(e.contains("other.jsonl is a shard of another run") && e.contains("bots"), "{e}");
}

#[test]
fn ratings_in_shards_merge_to_the_one_process_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["tournament", "--game", "seven", "--players", "3", "--deals", "12", "--ratings", "--seed", "5"];
    let mut one: Vec<&str> = args.to_vec();
    one.push("--json");
    let mut whole: serde_json::Value = serde_json::from_str(&ok(oh7(&one, dir.path()))).unwrap();
    let files = shards(dir.path(), &args, "--out", "r");
    let mut merge = vec!["tournament", "--json", "--merge"];
    merge.extend(strs(&files));
    let mut merged: serde_json::Value = serde_json::from_str(&ok(oh7(&merge, dir.path()))).unwrap();
    for v in [&mut whole, &mut merged] {
        v.as_object_mut().unwrap().remove("seconds");
    }
    assert!(whole["ratings"].as_array().unwrap().len() >= 3, "{whole}");
    assert_eq!(merged, whole, "the merged ratings are the one-process run's");
    // A ratings shard does not merge with a plain tournament's.
    let plain = dir.path().join("plain.jsonl");
    ok(oh7(
        &[
            "tournament",
            "--game",
            "seven",
            "--players",
            "3",
            "--deals",
            "12",
            "--bots",
            "random,heuristic",
            "--seed",
            "5",
            "--shard",
            "3/4",
            "--out",
            plain.to_str().unwrap(),
        ],
        dir.path(),
    ));
    let f = strs(&files);
    let e = fails(oh7(&["tournament", "--merge", f[0], f[1], f[2], plain.to_str().unwrap()], dir.path()));
    assert!(e.contains("plain.jsonl is a shard of another run"), "{e}");
}
