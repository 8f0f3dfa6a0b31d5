//! The plain interface: prompts on stdout, answers on stdin, one line each; for screen readers
//! and scripts. Every prompt ends with a line `Legal: a, b, c` (French: `Coups permis : …`)
//! listing what may be typed. On end of input the game is saved and the program exits.

use std::io::{self, BufRead, Write};
use std::path::Path;

use crate::session::{Ask, Next, Session, Table};

/// The words that ask for a hint, the rules, or to quit.
const HINT: &[&str] = &["h", "hint", "conseil"];
const RULES: &[&str] = &["rules", "règles", "regles", "help", "aide"];
const QUIT: &[&str] = &["q", "quit", "quitter", "exit"];
const YES: &[&str] = &["y", "yes", "o", "oui", "c", "callout"];
const NO: &[&str] = &["n", "no", "non", ""];

/// Play `s` reading answers from `input`, writing to `out`; save the record to `save` on the
/// way out (end of game, `q`, or end of input).
pub fn run<G: Table>(
    s: &mut Session<G>,
    mut input: impl BufRead,
    mut out: impl Write,
    rules: &str,
    save: &Path,
    resumed: bool,
) -> io::Result<()> {
    let lang = s.lang;
    let players = s.game.players();
    if resumed {
        writeln!(out, "{}", lang.s("Game resumed.", "Partie reprise."))?;
    }
    let level = crate::level_words(s.bot_level(), lang, players - 1);
    writeln!(
        out,
        "{}",
        lang.t(
            format!(
                "You are seat {} against {} {level} bot{}. Type one of the legal choices and Enter; h: hint; rules: the rules; q: save and quit.",
                s.human,
                players - 1,
                if players == 2 { "" } else { "s" }
            ),
            format!(
                "Vous êtes la place {} contre {} robot{} {level}. Tapez un des coups permis puis Entrée ; h : conseil ; regles : les règles ; q : enregistrer et quitter.",
                s.human,
                players - 1,
                if players == 2 { "" } else { "s" }
            ),
        )
    )?;
    let mut shown = 0;
    let mut line = String::new();
    loop {
        for l in &s.log[shown..] {
            writeln!(out, "{l}")?;
        }
        shown = s.log.len();
        for n in std::mem::take(&mut s.notices) {
            writeln!(out, "== {} ==", n.title)?;
            for l in n.lines {
                writeln!(out, "{l}")?;
            }
        }
        match s.next() {
            Next::Over => {
                s.save(save)?;
                writeln!(out, "{}", crate::saved_message(save, true, lang))?;
                out.flush()?;
                return Ok(());
            }
            Next::Bot(..) => {
                if let Err(e) = s.bot_step() {
                    s.save(save)?;
                    return Err(io::Error::other(s.words(&e)));
                }
            }
            Next::Human(ask) => {
                for l in s.game.plain_state(s.human, lang) {
                    writeln!(out, "{l}")?;
                }
                writeln!(out, "{}", s.game.question(s.human, ask, lang))?;
                writeln!(out, "{}{}", lang.s("Legal: ", "Coups permis : "), legal_line(s, ask))?;
                writeln!(
                    out,
                    "{}",
                    lang.s("(h: hint, rules, q: save and quit)", "(h : conseil, regles, q : enregistrer et quitter)")
                )?;
                out.flush()?;
                line.clear();
                if input.read_line(&mut line)? == 0 {
                    s.save(save)?;
                    writeln!(out, "{}", crate::saved_message(save, s.game.is_over(), lang))?;
                    out.flush()?;
                    return Ok(());
                }
                let answer = line.trim();
                let low = answer.to_lowercase();
                if HINT.contains(&low.as_str()) {
                    if let Some((_, text)) = s.hint() {
                        writeln!(out, "{text}")?;
                    }
                    continue;
                }
                if RULES.contains(&low.as_str()) {
                    writeln!(out, "{rules}")?;
                    continue;
                }
                if QUIT.contains(&low.as_str()) {
                    s.save(save)?;
                    writeln!(out, "{}", crate::saved_message(save, s.game.is_over(), lang))?;
                    out.flush()?;
                    return Ok(());
                }
                let result = match ask {
                    Ask::CallOut(o) if YES.contains(&low.as_str()) => match G::callout_action(o) {
                        Some(a) => s.human_action(a),
                        None => Ok(()),
                    },
                    Ask::CallOut(_) if NO.contains(&low.as_str()) => s.decline(),
                    Ask::CallOut(_) => Err(crate::session::SessionError::NotAChoice),
                    Ask::Turn => s.human_text(answer),
                };
                if let Err(e) = result {
                    writeln!(out, "{}{}", lang.s("Not allowed: ", "Refusé : "), s.words(&e))?;
                }
            }
        }
    }
}

/// What may be typed now, comma-separated, in the letters of the game's language (a French
/// game offers `3C` for 3♥, as its players type it).
pub fn legal_line<G: Table>(s: &Session<G>, ask: Ask) -> String {
    let lang = s.lang;
    if let Ask::CallOut(_) = ask {
        return format!("{}, {}", lang.yes(), lang.no());
    }
    let mut legal = Vec::new();
    s.game.legal_actions(s.human, &mut legal);
    let mut items: Vec<String> = legal.iter().map(|&a| s.game.action_typed(a, lang)).collect();
    if items.len() > 24 {
        items.truncate(24);
        items.push("…".into());
    }
    items.join(", ")
}
