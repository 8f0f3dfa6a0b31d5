//! Issue 18, item 4: every text a player reads, on every message path (narration, end-of-round
//! and end-of-game screens, questions, choices, hints, the table in plain mode, the title, the
//! signs, refusals), in both languages and every game: no ruling id (`R-BET-2`) and no card in
//! the engine's notation (`4H`). Whole games are played, the human's seat choosing at random.

use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{SevenGame, SevenRules};
use oh7_tui::Lang;
use oh7_tui::lang::{names_a_ruling, shows_engine_notation};
use oh7_tui::session::{Next, Session, Table};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check(texts: &[String], what: &str) {
    for t in texts {
        assert!(!names_a_ruling(t), "{what}: a ruling id in `{t}`");
        assert!(!shows_engine_notation(t), "{what}: engine notation in `{t}`");
    }
}

/// Play `s` to its end; every text shown on the way is checked. Returns how many were.
fn play_and_check<G: Table>(mut s: Session<G>, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let lang = s.lang;
    let mut seen = 0;
    let mut step = 0;
    loop {
        step += 1;
        assert!(step < 20_000, "the game does not end");
        let mut texts = vec![s.game.title(s.human, lang)];
        texts.extend(s.game.plain_state(s.human, lang));
        texts.extend(s.game.signs(lang));
        let next = s.next();
        match next {
            Next::Over => {}
            Next::Bot(..) => s.bot_step().unwrap(),
            Next::Human(ask) => {
                texts.push(s.game.question(s.human, ask, lang));
                let choices = s.choices(ask);
                texts.extend(choices.iter().map(|c| c.label.clone()));
                // The hint (the strongest bot, slow) on some decisions only.
                if step % 5 == 0
                    && let Some((_, hint)) = s.hint()
                {
                    texts.push(hint);
                }
                let mut legal = Vec::new();
                s.game.legal_actions(s.human, &mut legal);
                texts.extend(legal.iter().map(|&a| s.game.action_label(a, lang)));
                // A refused choice says why, in words.
                if let Some(bad) = choices.iter().find(|c| !c.legal)
                    && let Err(e) = s.human_action(bad.action)
                {
                    texts.push(s.words(&e));
                }
                if matches!(s.next(), Next::Human(_)) {
                    let a = legal[rng.random_range(0..legal.len())];
                    s.human_action(a).unwrap();
                }
            }
        }
        texts.append(&mut s.log);
        for n in s.notices.drain(..) {
            texts.push(n.title);
            texts.extend(n.lines);
        }
        seen += texts.len();
        check(&texts, "game");
        if matches!(next, Next::Over) {
            return seen;
        }
    }
}

#[test]
fn no_ruling_ids_and_no_engine_notation_in_any_oh7_text() {
    let mut total = 0;
    for preset in [Preset::En, Preset::Fr, Preset::FrAdvanced, Preset::Kod7, Preset::Bga] {
        for (k, players) in [2usize, 4, 5].into_iter().enumerate() {
            let rules = Ruleset { passing: preset == Preset::Bga && k == 1, ..Ruleset::preset(preset) };
            if rules.check_players(players).is_err() {
                continue;
            }
            for lang in [Lang::En, Lang::Fr] {
                let g = Oh7Game::new(rules, players, 100 + k as u64).unwrap();
                let s = Session::new(g, 0, "heuristic", lang).unwrap();
                total += play_and_check(s, k as u64);
            }
        }
    }
    assert!(total > 10_000, "only {total} texts seen");
}

#[test]
fn no_ruling_ids_and_no_engine_notation_in_any_seven_text() {
    for lang in [Lang::En, Lang::Fr] {
        let rules = SevenRules { limit: Some(60), ..SevenRules::default() };
        let g = SevenGame::new(rules, 3, 9).unwrap();
        let s = Session::new(g, 0, "heuristic", lang).unwrap();
        assert!(play_and_check(s, 3) > 1000);
    }
}
