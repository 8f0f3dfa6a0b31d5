//! End-to-end tests of `oh7 play --plain`: the real binary plays whole games with the answers
//! typed on stdin (each prompt ends with a `Legal: a, b, c` line; the test answers one of them),
//! then the saved record replays with `oh7 replay`.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("oh7-play-").tempdir().expect("a temporary directory")
}

/// Play one game answering every prompt with the `pick`-th legal action (modulo their count);
/// returns the whole output and the number of answers.
fn play(args: &[&str], pick: usize) -> (String, usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .arg("play")
        .arg("--plain")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oh7 binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut all = String::new();
    let mut answers = 0;
    for line in stdout.lines() {
        let line = line.unwrap();
        all.push_str(&line);
        all.push('\n');
        if let Some(list) = line.strip_prefix("Legal: ").or_else(|| line.strip_prefix("Coups permis : ")) {
            let legal: Vec<&str> = list.split(", ").filter(|s| *s != "…").collect();
            assert!(!legal.is_empty(), "an empty legal list:\n{all}");
            writeln!(stdin, "{}", legal[(pick + answers) % legal.len()]).unwrap();
            answers += 1;
            assert!(answers < 5000, "the game does not end:\n{all}");
        }
        assert!(
            !line.starts_with("Not allowed") && !line.starts_with("Refusé"),
            "a legal answer was refused: {line}\n{all}"
        );
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit {:?}: {}\n{all}", out.status, String::from_utf8_lossy(&out.stderr));
    (all, answers)
}

fn replays(file: &PathBuf) {
    let out = Command::new(env!("CARGO_BIN_EXE_oh7")).arg("replay").arg(file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 replay exactly"));
}

#[test]
fn kod7_four_players_whole_game_from_stdin() {
    let scratch = scratch();
    let save = scratch.path().join("kod7.json");
    let s = save.to_str().unwrap();
    let (out, answers) =
        play(&["--preset", "kod7", "--players", "4", "--seed", "7", "--bots", "random", "--save", s], 0);
    assert!(answers >= 7 * 8, "{answers} answers only:\n{out}");
    assert!(out.contains("== End of round 7 =="), "{out}");
    assert!(out.contains("== End of the game =="), "{out}");
    assert!(out.contains(&format!("Game saved to {s}")), "{out}");
    let rec: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(rec["finished"], true);
    assert_eq!(rec["preset"], "kod7");
    replays(&save);
}

#[test]
fn seven_three_players_whole_game_from_stdin() {
    let scratch = scratch();
    let save = scratch.path().join("seven.json");
    let s = save.to_str().unwrap();
    let (out, _) = play(&["--game", "seven", "--players", "3", "--seed", "3", "--bots", "random", "--save", s], 1);
    assert!(out.contains("== End of the game =="), "{out}");
    let rec: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(rec["game"], "seven");
    replays(&save);
}

#[test]
fn end_of_input_saves_and_resume_continues() {
    let scratch = scratch();
    let save = scratch.path().join("resume.json");
    let s = save.to_str().unwrap();
    // Three answers, then end of input: the record is saved, unfinished.
    let mut child = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["play", "--plain", "--preset", "en", "--seed", "11", "--bots", "random", "--save", s])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut n = 0;
    let mut saved = false;
    for line in stdout.lines() {
        let line = line.unwrap();
        saved |= line.contains("continue it with: oh7 play --resume");
        if let Some(list) = line.strip_prefix("Legal: ")
            && let Some(input) = stdin.as_mut()
        {
            if n == 3 {
                stdin = None;
                continue;
            }
            writeln!(input, "{}", list.split(", ").next().unwrap()).unwrap();
            n += 1;
        }
    }
    assert!(child.wait().unwrap().success());
    assert!(saved, "the save message is printed on end of input");
    let rec: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(rec["finished"], false);
    replays(&save);
    // Resume it and play to the end.
    let (out, _) = play(&["--resume", s, "--bots", "random"], 0);
    assert!(out.starts_with("Game resumed."), "{out}");
    assert!(out.contains("== End of the game =="), "{out}");
    let rec: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(rec["finished"], true);
    replays(&save);
}

#[test]
fn french_prompts_and_errors() {
    let scratch = scratch();
    let mut child = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["play", "--plain", "--lang", "fr", "--seed", "5", "--bots", "random", "--save"])
        .arg(scratch.path().join("fr.json"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // A card not in the hand, then end of input.
    child.stdin.take().unwrap().write_all(b"zz\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("Votre pari"), "{text}");
    assert!(!oh7_tui::lang::names_a_ruling(&text), "{text}");
    assert!(text.contains("Coups permis : "), "{text}");
    assert!(text.contains("Refusé : carte inconnue `zz`"), "{text}");
    assert!(text.contains("Partie enregistrée dans"), "{text}");
    // The bots' level agrees with them, in French.
    assert!(text.contains("contre 3 robots aléatoires"), "{text}");
    // The moves offered are in the letters a French player types (P C T K E), never the
    // English S H C D.
    let offered = text.lines().find_map(|l| l.strip_prefix("Coups permis : ")).unwrap();
    for m in offered.split(", ") {
        assert!(!m.ends_with(['S', 'H', 'D']), "`{m}` in English letters: {offered}");
        assert!(
            m.len() <= 3 && m.ends_with(['P', 'C', 'T', 'K', 'E']) || m.starts_with(['*', 'V', '?']),
            "`{m}`: {offered}"
        );
    }
}

/// The moves offered in French are accepted as typed: every one of a whole game's prompts.
#[test]
fn french_moves_offered_are_accepted_as_offered() {
    let scratch = scratch();
    for (game, extra) in [("oh7", ["--preset", "kod7"]), ("seven", ["--players", "3"])] {
        let save = scratch.path().join(format!("{game}.json"));
        let mut args =
            vec!["--lang", "fr", "--game", game, "--seed", "9", "--bots", "random", "--save", save.to_str().unwrap()];
        args.extend(extra);
        let (text, answers) = play(&args, 1);
        assert!(answers > 10 && text.contains("Coups permis : "), "{text}");
        assert!(text.contains("Partie enregistrée dans"), "{text}");
    }
}
