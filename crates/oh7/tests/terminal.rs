//! Issue 18: `oh7 play` in a real terminal. tmux runs the real binary at 80×24, 100×30 and
//! 160×45, in English and French, 3 to 6 players; the test reads the screen (`capture-pane`)
//! and types (`send-keys`) as a person would. Skipped when tmux is not installed, unless
//! `OH7_TMUX_TESTS=require` (as in `.ci/run`).

use std::process::Command;
use std::time::{Duration, Instant};

use oh7_core::Game;
use oh7_core::card::Card;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};

fn have_tmux() -> bool {
    let ok = Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success());
    if !ok && std::env::var("OH7_TMUX_TESTS").as_deref() == Ok("require") {
        panic!("OH7_TMUX_TESTS=require but tmux is not installed");
    }
    if !ok {
        eprintln!("tmux is not installed: terminal tests skipped");
    }
    ok
}

/// One `oh7 play` in its own tmux server; killed on drop (its save file goes with `_dir`).
struct Term {
    socket: String,
    /// Holds the game's save file; removed on drop.
    _dir: tempfile::TempDir,
}

impl Term {
    fn start(name: &str, w: u16, h: u16, args: &[&str]) -> Term {
        let socket = format!("oh7-test-{}-{name}", std::process::id());
        let dir = tempfile::Builder::new().prefix("oh7-tmux-").tempdir().expect("a temporary directory");
        let save = dir.path().join(format!("{name}.json"));
        let mut cmd = vec![env!("CARGO_BIN_EXE_oh7").to_string(), "play".into()];
        cmd.extend(args.iter().map(|a| a.to_string()));
        cmd.extend(["--save".to_string(), save.to_str().unwrap().to_string()]);
        let status = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", &w.to_string(), "-y"])
            .arg(h.to_string())
            .args(["env", "TERM=xterm-256color", "LANG=C.UTF-8"])
            .args(&cmd)
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session");
        Term { socket, _dir: dir }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux").args(["-L", &self.socket, "capture-pane", "-p", "-t", "t"]).output().unwrap();
        assert!(out.status.success(), "the game is gone: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        Command::new("tmux").args(["-L", &self.socket, "send-keys", "-t", "t"]).args(keys).status().unwrap();
    }

    fn text(&self, text: &str) {
        Command::new("tmux").args(["-L", &self.socket, "send-keys", "-t", "t", "-l", text]).status().unwrap();
    }

    /// Wait until `f` holds for the screen, pressing Enter when the human is asked something
    /// (or a screen waits for Enter) if `enter` is set.
    fn until(&self, what: &str, enter: bool, f: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut last_enter = Instant::now() - Duration::from_secs(1);
        loop {
            let s = self.screen();
            if f(&s) {
                return s;
            }
            assert!(Instant::now() < deadline, "never saw {what}; the screen:\n{s}");
            if enter && asked(&s) && last_enter.elapsed() > Duration::from_millis(400) {
                self.keys(&["Enter"]);
                last_enter = Instant::now();
            }
            std::thread::sleep(Duration::from_millis(60));
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        // The server may already be gone (the game quit): tmux would say so on stderr.
        let _ =
            Command::new("tmux").args(["-L", &self.socket, "kill-server"]).stderr(std::process::Stdio::null()).status();
    }
}

/// Whether the screen waits for the human (a decision or a screen to acknowledge).
fn asked(s: &str) -> bool {
    !s.contains("The bots are playing")
        && !s.contains("Les robots jouent")
        && !s.contains("Trick complete")
        && !s.contains("Pli terminé")
}

/// The completed-trick line in the Trick box (`P2 wins trick 3`, the winner's whole name),
/// not the log's sentence (which ends with a full stop).
fn completed_trick(s: &str) -> Option<String> {
    for line in s.lines() {
        for seg in line.split('│') {
            let seg = seg.trim();
            let words: Vec<&str> = seg.split_whitespace().collect();
            let ok = match words.as_slice() {
                ["You", "win", "trick", k] | [_, "wins", "trick", k] => k.parse::<u32>().is_ok(),
                ["Vous", "remportez", "le", "pli", k] | [_, "remporte", "le", "pli", k] => k.parse::<u32>().is_ok(),
                _ => false,
            };
            if ok {
                return Some(seg.to_string());
            }
        }
    }
    None
}

fn check_completed_trick(name: &str, w: u16, h: u16, preset: &str, players: usize, lang: &str) {
    let p = players.to_string();
    let t = Term::start(
        name,
        w,
        h,
        &["--preset", preset, "--players", &p, "--seed", "5", "--bots", "random", "--lang", lang],
    );
    let s = t.until("a completed trick and its winner", true, |s| completed_trick(s).is_some());
    let line = completed_trick(&s).unwrap();
    let winner = line.split_whitespace().next().unwrap();
    let names = ["You", "Vous", "P1", "P2", "P3", "P4", "P5", "Dummy", "Pantin"];
    assert!(names.contains(&winner), "{name}: the winner's name `{winner}` is cut:\n{s}");
    // Every row of the table is there (nothing silently dropped).
    for who in 1..players {
        assert!(s.contains(&format!("P{who} ")), "{name}: P{who} missing:\n{s}");
    }
}

#[test]
fn the_completed_trick_and_its_winner_are_on_screen() {
    if !have_tmux() {
        return;
    }
    let runs = [
        ("en3-80", 80, 24, "en", 3, "en"),
        ("fr4-80", 80, 24, "fr", 4, "fr"),
        ("kod7-5-100", 100, 30, "kod7", 5, "en"),
        ("fr5-100", 100, 30, "fr", 5, "fr"),
        ("kod7-6-160", 160, 45, "kod7", 6, "fr"),
        ("en4-160", 160, 45, "en", 4, "en"),
    ];
    std::thread::scope(|sc| {
        for (name, w, h, preset, players, lang) in runs {
            sc.spawn(move || check_completed_trick(name, w, h, preset, players, lang));
        }
    });
}

/// A French game takes a card typed with French letters (C for cœur).
#[test]
fn a_french_game_accepts_french_letters() {
    if !have_tmux() {
        return;
    }
    // The human's hand at seed 8, to type one of its cards.
    let g = Oh7Game::new(Ruleset::preset(Preset::Fr), 4, 8).unwrap();
    let hand = g.view(0).hand();
    let (card, typed) = hand
        .iter()
        .find_map(|c| {
            let t = c.to_string();
            let fr = match t.chars().nth(1)? {
                'S' => 'p',
                'H' => 'c',
                'C' => 't',
                'D' => 'k',
                'F' => 'e',
                _ => return None,
            };
            Some((c.pretty('☆', '?'), format!("{}{fr}", c.value())))
        })
        .unwrap();
    let t = Term::start(
        "fr-letters",
        100,
        30,
        &["--preset", "fr", "--players", "4", "--seed", "8", "--bots", "random", "--lang", "fr"],
    );
    t.until("the bet question", false, |s| s.contains("Votre pari"));
    t.text(&typed);
    t.keys(&["Enter"]);
    let want = format!("Vous pariez {card} (face cachée)");
    t.until(&want, false, |s| s.contains(&want));
}

/// `?` typed as a card plays the ? card (F1 opens the rules).
#[test]
fn the_question_mark_card_is_typed_as_a_card() {
    if !have_tmux() {
        return;
    }
    let seed = (0..500u64)
        .find(|&s| {
            Oh7Game::new(Ruleset::preset(Preset::FrAdvanced), 4, s).unwrap().view(0).hand().contains(Card::INTERROBANG)
        })
        .unwrap();
    let seed = seed.to_string();
    let t = Term::start(
        "question",
        100,
        30,
        &["--preset", "fr-advanced", "--players", "4", "--seed", &seed, "--bots", "random"],
    );
    // Bet with the first legal card (never ?), then type ? at every turn to play until it is
    // played (it may not be playable at once).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = t.screen();
        assert!(!s.contains("Rules ("), "`?` opened the rules:\n{s}");
        if s.contains("You play ?.") {
            break;
        }
        assert!(Instant::now() < deadline, "? never played:\n{s}");
        if s.contains("Your turn") {
            t.text("?");
            t.keys(&["Enter"]);
            std::thread::sleep(Duration::from_millis(300));
            if t.screen().contains("You play ?.") {
                break;
            }
            // Not playable now: play the highlighted card instead.
            t.keys(&["Enter"]);
        } else if asked(&s) {
            t.keys(&["Enter"]);
        }
        std::thread::sleep(Duration::from_millis(150));
    }
    t.keys(&["F1"]);
    t.until("the rules", false, |s| s.contains("Rules ("));
}

/// Below the size the table needs, the screen says so and how big to make it.
#[test]
fn a_small_terminal_says_how_big_to_make_it() {
    if !have_tmux() {
        return;
    }
    let t = Term::start("small", 60, 18, &["--preset", "kod7", "--players", "6", "--seed", "1", "--bots", "random"]);
    let s = t.until("the size message", false, |s| s.contains("the table needs at least"));
    assert!(s.contains("64×21"), "{s}");
    t.keys(&["Escape"]);
}
