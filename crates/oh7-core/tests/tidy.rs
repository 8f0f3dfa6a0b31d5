//! Guards that keep the structure as `ARCHITECTURE.md` says it is, as rust-analyzer's tidy tests
//! do: they read the workspace's sources as text.
//!
//! - A game's name (`"oh7"`, `"seven"`) is written, as a string of its own, only in the registry
//!   (`oh7-core/src/registry.rs`) and in each game's own engine module; everywhere else a game is
//!   named by `GameId` and its name comes from the registry, so no code compares names.
//! - A preset's name (`"kod7"`, `"bga"`, `"fr-advanced"`) is written only in the ruleset and
//!   the registry; bot level names written as strings outside `level.rs` are a ratchet.
//! - No file imports a file that imports it back, directly or around a loop: in each crate (its
//!   `crate::` and `super::` paths) and among the browser's modules (`import` lines).
//! - Places that still branch on a game outside the registry (a `GameSpec` variant matched in
//!   Rust; a downcast to a concrete game; a game name in the browser's modules) may only become
//!   fewer: their counts are
//!   ratchets, lowered as the places go.
//!
//! Test modules (`#[cfg(test)]` items) and comments are not read: a test may build a record
//! of a named game.

use std::path::{Path, PathBuf};

use oh7_core::registry::GAMES;
use oh7_core::ruleset::Preset;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace")
}

/// Every file under `dir` whose name ends with `ext`, sorted, paths relative to the root.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // Integration tests, benchmarks and fixtures may name games freely.
            if !matches!(name, "tests" | "benches" | "fixtures" | "target" | "examples") {
                files(&p, ext, out);
            }
        } else if p.extension().and_then(|e| e.to_str()) == Some(ext) {
            out.push(p);
        }
    }
}

/// The Rust sources the guards read: every crate's `src/` and the Python package's.
fn rust_sources() -> Vec<PathBuf> {
    let root = root();
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root.join("crates")).expect("crates/").flatten() {
        files(&dir.path().join("src"), "rs", &mut out);
    }
    files(&root.join("python/src"), "rs", &mut out);
    out
}

/// A string literal found in code, with its line.
struct Literal {
    line: usize,
    text: String,
}

/// The string literals of a Rust source and its code with comments, literals and test items
/// removed (the code is kept to find patterns in). A small lexer: line and block comments,
/// strings with escapes, raw strings, char literals versus lifetimes, and `#[cfg(test)]` items
/// skipped to their closing brace.
fn lex(src: &str) -> (Vec<Literal>, String) {
    let c: Vec<char> = src.chars().collect();
    let (mut i, mut line) = (0, 1);
    let mut lits = Vec::new();
    let mut code = String::new();
    let mut skip_item: Option<usize> = None; // brace depth at which a test item ends
    let mut depth = 0usize;
    let mut pending_test = false;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '\n' {
            line += 1;
        }
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if ch == '/' && next == Some('*') {
            i += 2;
            while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                if c[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
            continue;
        }
        let raw = ch == 'r' && (next == Some('"') || (next == Some('#') && c.get(i + 2) == Some(&'"')));
        if raw && !c.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_') {
            let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
            i += 2 + hashes;
            let start = (i, line);
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '"' && c[i + 1..].iter().take(hashes).filter(|&&h| h == '#').count() == hashes {
                    break;
                }
                if c[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            if skip_item.is_none() {
                lits.push(Literal { line: start.1, text: c[start.0..i.min(c.len())].iter().collect() });
            }
            i += 1 + hashes;
            code.push_str("\"\"");
            continue;
        }
        if ch == '"' {
            let start_line = line;
            let mut text = String::new();
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    text.push(c[i]);
                    i += 1;
                }
                if i < c.len() {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    text.push(c[i]);
                }
                i += 1;
            }
            i += 1;
            if skip_item.is_none() {
                lits.push(Literal { line: start_line, text });
            }
            code.push_str("\"\"");
            continue;
        }
        if ch == '\'' {
            // A char literal ('x', '\n', '\u{..}'); otherwise a lifetime.
            if next == Some('\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                continue;
            }
            if c.get(i + 2) == Some(&'\'') {
                i += 3;
                continue;
            }
        }
        if src_at(&c, i, "#[cfg(test)]") {
            pending_test = true;
        }
        if ch == '{' {
            if pending_test && skip_item.is_none() {
                skip_item = Some(depth);
                pending_test = false;
            }
            depth += 1;
        } else if ch == '}' {
            depth = depth.saturating_sub(1);
            if skip_item == Some(depth) {
                skip_item = None;
                i += 1;
                continue;
            }
        } else if ch == ';' && pending_test && skip_item.is_none() {
            // `#[cfg(test)] use …;` or `mod tests;`: the item ends here.
            pending_test = false;
        }
        if skip_item.is_none() {
            code.push(ch);
        }
        i += 1;
    }
    (lits, code)
}

fn src_at(c: &[char], i: usize, pat: &str) -> bool {
    pat.chars().enumerate().all(|(k, p)| c.get(i + k) == Some(&p))
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// Where a name may be written: the registry, and each game's own engine module.
fn may_name_games(path: &str) -> bool {
    path == "crates/oh7-core/src/registry.rs"
        || path.starts_with("crates/oh7-core/src/oh7/")
        || path.starts_with("crates/oh7-core/src/seven/")
}

#[test]
fn the_lexer_finds_literals_and_skips_comments_and_tests() {
    let src = "fn a<'x>(c: char) -> bool { c == 'q' && s == \"seven\" } // \"oh7\"\n\
               /* \"oh7\" */ let r = r#\"oh7\"#; let e = '\\'';\n\
               #[cfg(test)]\nmod tests { fn t() { let _ = \"seven\"; { } } }\nfn b() { \"bga\" }";
    let (lits, code) = lex(src);
    let texts: Vec<(&str, usize)> = lits.iter().map(|l| (l.text.as_str(), l.line)).collect();
    assert_eq!(texts, vec![("seven", 1), ("oh7", 2), ("bga", 5)]);
    assert!(code.contains("fn b()") && !code.contains("fn t()"), "{code}");
}

#[test]
fn no_game_name_is_written_outside_the_registry_and_the_engines() {
    let names: Vec<&str> = GAMES.iter().map(|e| e.name).collect();
    let mut found = Vec::new();
    for path in rust_sources() {
        let r = rel(&path);
        if may_name_games(&r) {
            continue;
        }
        let (lits, _) = lex(&std::fs::read_to_string(&path).unwrap());
        for l in lits {
            if names.contains(&l.text.as_str()) {
                found.push(format!("{r}:{}: \"{}\"", l.line, l.text));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a game's name written outside the registry: name it by `GameId` (its `.name()` for text)\n{}",
        found.join("\n")
    );
}

#[test]
fn no_preset_name_is_written_outside_the_ruleset_and_the_registry() {
    // `en` and `fr` are also the languages' codes: the presets with names of their own.
    let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).filter(|n| !["en", "fr"].contains(n)).collect();
    let mut found = Vec::new();
    for path in rust_sources() {
        let r = rel(&path);
        if r == "crates/oh7-core/src/ruleset.rs" || r == "crates/oh7-core/src/registry.rs" {
            continue;
        }
        let (lits, _) = lex(&std::fs::read_to_string(&path).unwrap());
        for l in lits {
            if presets.contains(&l.text.as_str()) {
                found.push(format!("{r}:{}: \"{}\"", l.line, l.text));
            }
        }
    }
    assert!(found.is_empty(), "a preset's name written outside the ruleset: use `Preset`\n{}", found.join("\n"));
}

/// The places outside the registry that match a `GameSpec` variant; lower the figure when one
/// goes, never raise it (a new per-game branch belongs in the registry or on `GameId`).
const SPEC_MATCHES_AT_MOST: usize = 6;

#[test]
fn matches_on_game_variants_outside_the_registry_only_become_fewer() {
    let mut found = Vec::new();
    for path in rust_sources() {
        let r = rel(&path);
        if r == "crates/oh7-core/src/registry.rs" {
            continue;
        }
        let (_, code) = lex(&std::fs::read_to_string(&path).unwrap());
        for (n, line) in code.lines().enumerate() {
            for v in ["GameSpec::Oh7 {", "GameSpec::Seven {"] {
                if line.contains(v) {
                    found.push(format!("{r}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.len() <= SPEC_MATCHES_AT_MOST,
        "{} places match a GameSpec variant outside the registry (at most {SPEC_MATCHES_AT_MOST}):\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The lines of a browser module (number, text) that compare something with a game's name
/// (`=== "seven"`, `'oh7' ==`), comments after `//` left out.
fn web_game_branches(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let hit = GAMES.iter().any(|e| {
            ['"', '\''].iter().any(|q| {
                let lit = format!("{q}{}{q}", e.name);
                code.contains(&format!("== {lit}")) || code.contains(&format!("{lit} =="))
            })
        });
        if hit {
            found.push((n + 1, line.trim().to_string()));
        }
    }
    found
}

/// Downcasts of a code text to a concrete game or environment (`downcast_ref::<Oh7Game>`,
/// `downcast::<SevenGame>`, `downcast_mut::<Oh7Env>`): a branch on the game that belongs behind
/// the game interface.
fn game_downcasts(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in code.lines() {
        for call in ["downcast::<", "downcast_ref::<", "downcast_mut::<"] {
            for (at, _) in line.match_indices(call) {
                let ty = &line[at + call.len()..];
                if ty.starts_with("Oh7") || ty.starts_with("Seven") {
                    found.push(line.trim().to_string());
                }
            }
        }
    }
    found
}

/// The places outside the registry and the engines that downcast to a concrete game (the
/// terminal's two games, the Python bindings' Oh 7-only calls); lower it as they go.
const GAME_DOWNCASTS_AT_MOST: usize = 6;

#[test]
fn downcasts_to_a_concrete_game_only_become_fewer() {
    let mut found = Vec::new();
    for path in rust_sources() {
        let r = rel(&path);
        if may_name_games(&r) || r == "crates/oh7-core/src/dyn_game.rs" {
            continue;
        }
        let (_, code) = lex(&std::fs::read_to_string(&path).unwrap());
        found.extend(game_downcasts(&code).into_iter().map(|l| format!("{r}: {l}")));
    }
    assert!(
        found.len() <= GAME_DOWNCASTS_AT_MOST,
        "{} downcasts to a concrete game outside the registry (at most {GAME_DOWNCASTS_AT_MOST}):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn a_planted_downcast_and_a_planted_game_branch_are_found() {
    let code = "let g = game.as_any().downcast_ref::<Oh7Game>()?;\nlet x = any.downcast::<String>();\nlet e = env.downcast_mut::<SevenEnv>();";
    assert_eq!(game_downcasts(code).len(), 2);
    let (_, code) =
        lex("// g.downcast_ref::<Oh7Game>()\n#[cfg(test)]\nmod tests { fn t() { g.downcast::<SevenGame>(); } }");
    assert!(game_downcasts(&code).is_empty(), "comments and tests are not read");
    let js = "if (s.game === \"seven\") draw();\nconst a = 'oh7' == g;\n// game === \"seven\" in a comment\nconst b = game === other;";
    assert_eq!(web_game_branches(js).iter().map(|(n, _)| *n).collect::<Vec<_>>(), vec![1, 2]);
}

/// Bot level names (and the research settings' single words) written as strings outside
/// `oh7-bots/src/level.rs`, where `Level`, `BotLevel` and `ReviewLevel` read and write them
/// (issue 57: 58 before). The two left are the defaults of Python's `Bot` and `VecCore`
/// signatures, which `help()` shows as written (an expression would show as `...`).
const LEVEL_LITERALS_AT_MOST: usize = 2;

const LEVEL_WORDS: [&str; 11] =
    ["random", "beginner", "heuristic", "easy", "medium", "hard", "ismcts", "expert", "search", "pimc", "oracle"];

#[test]
fn level_names_written_as_strings_only_become_fewer() {
    let mut found = Vec::new();
    for path in rust_sources() {
        let r = rel(&path);
        if r == "crates/oh7-bots/src/level.rs" {
            continue;
        }
        let (lits, _) = lex(&std::fs::read_to_string(&path).unwrap());
        for l in lits {
            if LEVEL_WORDS.contains(&l.text.as_str()) {
                found.push(format!("{r}:{}: \"{}\"", l.line, l.text));
            }
        }
    }
    assert!(
        found.len() <= LEVEL_LITERALS_AT_MOST,
        "{} level names written as strings outside level.rs (at most {LEVEL_LITERALS_AT_MOST}):\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The browser branches on no game's name (`=== "seven"`, `game === 'oh7'`; issue 57, 29 before):
/// a game's own drawing, cards, moments and review model are looked up by its name.
#[test]
fn the_browser_never_branches_on_a_game_name() {
    let mut js = Vec::new();
    files(&root().join("web"), "js", &mut js);
    assert!(!js.is_empty(), "web/*.js");
    let mut found = Vec::new();
    for path in js {
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in web_game_branches(&text) {
            found.push(format!("{}:{n}: {line}", rel(&path)));
        }
    }
    assert!(
        found.is_empty(),
        "a branch on a game's name in web/: look the game's part up by its name (DRAWINGS, DECKS, MOMENTS, MODELS)\n{}",
        found.join("\n")
    );
}

/// The files a Rust file imports inside its own crate: every `crate::a::b::Name` and
/// `super::Name` path of its code (comments and test items left out), each taken to the file of
/// the longest module it names. `modules` maps a module path (`"a::b"`; `""` the crate's root)
/// to its file. The root file (`lib.rs`, `main.rs`) declares the modules and is no node: arrows
/// to and from it are not drawn.
fn rust_imports(module: &str, code: &str, modules: &std::collections::BTreeMap<String, String>) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    let c: Vec<char> = code.chars().collect();
    let word = |i: usize| -> (String, usize) {
        let mut j = i;
        while j < c.len() && (c[j].is_alphanumeric() || c[j] == '_' || c[j] == ':') {
            j += 1;
        }
        (c[i..j].iter().collect(), j)
    };
    let parent = |m: &str| m.rsplit_once("::").map_or(String::new(), |(p, _)| p.to_string());
    let mut resolve = |segs: Vec<String>| {
        for k in (1..=segs.len()).rev() {
            let m = segs[..k].join("::");
            if let Some(f) = modules.get(&m) {
                if m != module {
                    out.insert(f.clone());
                }
                return;
            }
        }
    };
    let mut i = 0;
    while i < c.len() {
        let boundary = i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_' || c[i - 1] == ':');
        if boundary && (src_at(&c, i, "crate::") || src_at(&c, i, "super::")) {
            let (path, j) = word(i);
            let mut segs: Vec<String> = path.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
            let base = if segs[0] == "crate" {
                String::new()
            } else {
                // `super` in `a/b.rs` (module `a::b`) is `a`; in `a/mod.rs` (module `a`) it is the root.
                parent(module)
            };
            segs.remove(0);
            let mut full: Vec<String> = base.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
            if j < c.len() && c[j] == '{' && path.ends_with("::") {
                // `use crate::a::{b, c::D}`: each branch at the top level of the group.
                let close = (j..c.len()).find(|&k| c[k] == '}').unwrap_or(c.len());
                let group: String = c[j + 1..close].iter().collect();
                for part in group.split(',') {
                    let mut f = full.clone();
                    f.extend(segs.iter().cloned());
                    f.extend(part.trim().split("::").filter(|s| !s.is_empty() && *s != "self").map(str::to_string));
                    resolve(f);
                }
            } else {
                full.extend(segs);
                resolve(full);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// The circles among `arrows` (file → the files it imports): each strongly connected group of
/// more than one file (Tarjan's algorithm), sorted.
fn circles(arrows: &std::collections::BTreeMap<String, Vec<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        arrows: &'a std::collections::BTreeMap<String, Vec<String>>,
        index: std::collections::BTreeMap<&'a str, (usize, usize)>,
        stack: Vec<&'a str>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        w.index.insert(v, (w.next, w.next));
        w.next += 1;
        w.stack.push(v);
        for t in w.arrows.get(v).into_iter().flatten() {
            let t = t.as_str();
            match w.index.get(t) {
                None => {
                    visit(w, t);
                    let low = w.index[t].1.min(w.index[v].1);
                    w.index.get_mut(v).unwrap().1 = low;
                }
                Some(&(ti, _)) if w.stack.contains(&t) => {
                    let low = ti.min(w.index[v].1);
                    w.index.get_mut(v).unwrap().1 = low;
                }
                _ => {}
            }
        }
        let (vi, vl) = w.index[v];
        if vi == vl {
            let at = w.stack.iter().rposition(|x| *x == v).unwrap();
            let mut group: Vec<String> = w.stack.drain(at..).map(str::to_string).collect();
            if group.len() > 1 {
                group.sort();
                w.found.push(group);
            }
        }
    }
    let mut w = Walk { arrows, index: Default::default(), stack: Vec::new(), next: 0, found: Vec::new() };
    for v in arrows.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found.sort();
    w.found
}

/// A crate's files by module path, and its arrows.
fn crate_arrows(files_and_code: &[(String, String)]) -> std::collections::BTreeMap<String, Vec<String>> {
    let module_of = |path: &str| {
        let m = path.trim_end_matches(".rs");
        let m = m.strip_suffix("/mod").unwrap_or(m);
        if m == "lib" || m == "main" { String::new() } else { m.replace('/', "::") }
    };
    let modules: std::collections::BTreeMap<String, String> =
        files_and_code.iter().map(|(p, _)| (module_of(p), p.clone())).filter(|(m, _)| !m.is_empty()).collect();
    files_and_code
        .iter()
        .filter(|(p, _)| !module_of(p).is_empty())
        .map(|(p, code)| (p.clone(), rust_imports(&module_of(p), code, &modules)))
        .collect()
}

#[test]
fn a_planted_circle_is_found_and_a_layered_crate_has_none() {
    let f = |p: &str, code: &str| (p.to_string(), code.to_string());
    let layered = [
        f("lib.rs", "pub mod a; pub mod b; use crate::a::A;"),
        f("a.rs", "use crate::b::{B, c::C};"),
        f("b/mod.rs", "pub mod c; pub struct B;"),
        f("b/c.rs", "use super::B;"),
    ];
    assert_eq!(circles(&crate_arrows(&layered)), Vec::<Vec<String>>::new());
    let arrows = crate_arrows(&layered);
    assert_eq!(arrows["a.rs"], vec!["b/c.rs".to_string(), "b/mod.rs".to_string()]);
    assert_eq!(arrows["b/c.rs"], vec!["b/mod.rs".to_string()]);
    // b/mod.rs now reaches a.rs, which reaches b/mod.rs and b/c.rs (which reaches b/mod.rs):
    // one circle of the three.
    let mut planted = layered.to_vec();
    planted[2] = f("b/mod.rs", "pub mod c; pub struct B; fn f() { crate::a::g(); }");
    let three: Vec<String> = ["a.rs", "b/c.rs", "b/mod.rs"].map(str::to_string).to_vec();
    assert_eq!(circles(&crate_arrows(&planted)), vec![three]);
    // A comment or a test item draws no arrow.
    planted[2] = f("b/mod.rs", "pub mod c; // crate::a::g()\n#[cfg(test)]\nmod tests { fn t() { crate::a::g(); } }");
    let code = lex(&planted[2].1).1;
    planted[2].1 = code;
    assert_eq!(circles(&crate_arrows(&planted)), Vec::<Vec<String>>::new());
}

#[test]
fn no_rust_file_imports_a_file_that_imports_it_back() {
    let root = root();
    let mut found = Vec::new();
    for dir in std::fs::read_dir(root.join("crates")).expect("crates/").flatten() {
        let src = dir.path().join("src");
        let mut paths = Vec::new();
        files(&src, "rs", &mut paths);
        let files_and_code: Vec<(String, String)> = paths
            .iter()
            .map(|p| {
                let text = std::fs::read_to_string(p).expect("a source");
                (p.strip_prefix(&src).unwrap().display().to_string(), lex(&text).1)
            })
            .collect();
        for c in circles(&crate_arrows(&files_and_code)) {
            found.push(format!("{}: {}", rel(&dir.path()), c.join(", ")));
        }
    }
    assert!(found.is_empty(), "files that import each other, around a loop:\n{}", found.join("\n"));
}

#[test]
fn no_browser_module_imports_one_that_imports_it_back() {
    let web = root().join("web");
    let mut paths = Vec::new();
    files(&web, "js", &mut paths);
    let mut arrows = std::collections::BTreeMap::new();
    for p in &paths {
        let name = p.strip_prefix(&web).unwrap().display().to_string();
        let text = std::fs::read_to_string(p).expect("a module");
        let mut to: Vec<String> = text
            .lines()
            .filter(|l| l.trim_start().starts_with("import ") || l.trim_start().starts_with("} from "))
            .filter_map(|l| l.split("from \"./").nth(1).or_else(|| l.split("import \"./").nth(1)))
            .filter_map(|rest| rest.split('"').next().map(str::to_string))
            .collect();
        to.sort();
        arrows.insert(name, to);
    }
    assert!(arrows.len() > 5, "the browser's modules were not found");
    assert_eq!(circles(&arrows), Vec::<Vec<String>>::new(), "browser modules that import each other around a loop");
}
