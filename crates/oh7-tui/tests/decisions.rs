//! The human's decisions other than bets and plays, through the full-screen key handling: the
//! tie-break prompts (kod7 ‽ picks the leader, fr-advanced ? reveal), card passing (bga), an 8's
//! suit and the call-out window (Seven).

use crossterm::event::{KeyCode, KeyModifiers};
use oh7_core::game::Game;
use oh7_core::oh7::{Oh7Game, PhaseView};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{Action as SevenAction, SevenGame, SevenRules};
use oh7_tui::Lang;
use oh7_tui::session::{Ask, Next, Session, Table};
use oh7_tui::tui::{Ui, on_key};

fn key<G: Table>(s: &mut Session<G>, ui: &mut Ui<G::Action>, code: KeyCode) {
    ui.sync(s);
    on_key(s, ui, code, KeyModifiers::NONE);
    ui.sync(s);
}

fn bots(s: &mut Session<impl Table>) {
    while let Next::Bot(..) = s.next() {
        s.bot_step().unwrap();
    }
}

fn human_first<G: Table>(s: &mut Session<G>) {
    let mut legal = Vec::new();
    s.game.legal_actions(s.human, &mut legal);
    s.human_action(legal[0]).unwrap();
}

/// Play seeds of `preset` until the human owes a decision matching `want`.
fn find(preset: Preset, players: usize, want: impl Fn(PhaseView) -> bool) -> Session<Oh7Game> {
    let mut r = Ruleset::preset(preset);
    if preset == Preset::Bga {
        r.passing = true;
    }
    for seed in 0..3000 {
        let g = Oh7Game::new(r, players, seed).unwrap();
        let mut s = Session::new(g, 0, "random", Lang::En).unwrap();
        for _ in 0..40 {
            bots(&mut s);
            if s.next() == Next::Over {
                break;
            }
            if want(s.game.view(0).phase()) {
                return s;
            }
            human_first(&mut s);
        }
    }
    panic!("no such decision found");
}

#[test]
fn kod7_interrobang_holder_chooses_the_leader() {
    let mut s = find(Preset::Kod7, 4, |p| matches!(p, PhaseView::ChooseLeader { chooser: 0, .. }));
    let mut ui = Ui::default();
    ui.sync(&s);
    let q = s.game.question(0, Ask::Turn, Lang::En);
    assert!(q.starts_with("You hold ‽: choose the first leader among"), "{q}");
    assert!(ui.choices.iter().all(|c| !c.in_hand || !c.legal));
    let options: Vec<&str> = ui.choices.iter().filter(|c| c.legal).map(|c| c.label.as_str()).collect();
    assert!(options.len() >= 2, "{options:?}");
    // The hand stays in view, then the options after a bar, the cursor on the first option.
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    term.draw(|f| oh7_tui::tui::draw(f, &s, &ui, "")).unwrap();
    let buf = term.backend().buffer().clone();
    let row: String = (0..100).map(|x| buf[(x, 24)].symbol().to_string()).collect();
    assert!(row.contains("│ [") && row.matches('♠').count() + row.matches('♥').count() > 0, "{row}");
    let pick = ui.choices.iter().position(|c| c.legal).unwrap();
    assert_eq!(ui.cursor, pick);
    ui.cursor = pick;
    let label = ui.choices[pick].label.clone();
    on_key(&mut s, &mut ui, KeyCode::Enter, KeyModifiers::NONE);
    assert!(ui.message.is_empty(), "{}", ui.message);
    assert!(s.log.iter().any(|l| l.contains(&format!("chooses {label} to lead first"))), "{:?}", s.log);
}

#[test]
fn fr_advanced_reveal_prompt() {
    let mut s = find(Preset::FrAdvanced, 4, |p| matches!(p, PhaseView::Reveal { tied } if tied.contains(0)));
    let q = s.game.question(0, Ask::Turn, Lang::Fr);
    assert!(q.starts_with("Égalité pour jouer en premier"), "{q}");
    let mut ui = Ui::default();
    ui.sync(&s);
    assert!(ui.choices.iter().any(|c| c.legal && c.label == "no"));
    s.human_text("non").unwrap();
}

#[test]
fn bga_passing_marks_cards_with_space() {
    let mut s = find(Preset::Bga, 4, |p| matches!(p, PhaseView::Passing { .. }));
    let PhaseView::Passing { count, .. } = s.game.view(0).phase() else { unreachable!() };
    let mut ui = Ui::default();
    ui.sync(&s);
    let hand_before = s.game.view(0).hand();
    for _ in 0..count {
        key(&mut s, &mut ui, KeyCode::Char(' '));
        key(&mut s, &mut ui, KeyCode::Right);
    }
    assert_eq!(ui.marks.len(), count as usize);
    // Enter with a wrong number of marks would say why; with the right number it passes.
    key(&mut s, &mut ui, KeyCode::Enter);
    assert!(ui.message.is_empty(), "{}", ui.message);
    assert!(s.game.view(0).decided().contains(0) || s.game.view(0).hand() != hand_before);
}

fn seven(seed: u64) -> Session<SevenGame> {
    let g = SevenGame::new(SevenRules::default(), 3, seed).unwrap();
    Session::new(g, 0, "random", Lang::En).unwrap()
}

#[test]
fn seven_call_out_window_asks_the_human() {
    for seed in 0..500 {
        let mut s = seven(seed);
        for _ in 0..300 {
            bots(&mut s);
            match s.next() {
                Next::Over => break,
                Next::Human(Ask::CallOut(o)) => {
                    let q = s.game.question(0, Ask::CallOut(o), Lang::En);
                    assert!(q.contains("did not announce it"), "{q}");
                    let mut ui = Ui::default();
                    ui.sync(&s);
                    assert_eq!(ui.choices.len(), 2);
                    // Enter on the first choice calls out.
                    on_key(&mut s, &mut ui, KeyCode::Enter, KeyModifiers::NONE);
                    assert!(ui.message.is_empty(), "{}", ui.message);
                    bots(&mut s);
                    assert!(s.log.iter().any(|l| l.contains("was called out and draws 4")), "{:?}", s.log);
                    return;
                }
                Next::Human(Ask::Turn) => human_first(&mut s),
                Next::Bot(..) => unreachable!(),
            }
        }
    }
    panic!("no call-out window in 500 games");
}

#[test]
fn seven_eight_asks_for_a_suit_and_announce_toggles() {
    for seed in 0..500 {
        let mut s = seven(seed);
        for _ in 0..300 {
            bots(&mut s);
            match s.next() {
                Next::Over => break,
                Next::Human(Ask::Turn) => {
                    let mut ui = Ui::default();
                    ui.sync(&s);
                    let eight = ui.choices.iter().position(|c| c.legal && c.label.starts_with('8'));
                    if let Some(i) = eight
                        && s.game.hand(0).len() == 2
                    {
                        ui.cursor = i;
                        on_key(&mut s, &mut ui, KeyCode::Char('!'), KeyModifiers::NONE);
                        assert!(ui.announce);
                        on_key(&mut s, &mut ui, KeyCode::Enter, KeyModifiers::NONE);
                        let (q, list) = ui.sub.clone().expect("a suit to choose");
                        assert!(q.contains("name the new suit"), "{q}");
                        assert_eq!(list.len(), 4);
                        on_key(&mut s, &mut ui, KeyCode::Enter, KeyModifiers::NONE);
                        assert!(ui.message.is_empty(), "{}", ui.message);
                        assert!(s.log.iter().any(|l| l.starts_with("You play 8") && l.contains("last card!")));
                        return;
                    }
                    human_first(&mut s);
                }
                Next::Human(_) => human_first(&mut s),
                Next::Bot(..) => unreachable!(),
            }
        }
    }
    panic!("no 8 with two cards in hand in 500 games");
}

#[test]
fn seven_french_words() {
    let mut s = seven(1);
    bots(&mut s);
    let mut legal = Vec::new();
    s.game.legal_actions(0, &mut legal);
    if legal.contains(&SevenAction::Draw) {
        assert_eq!(s.game.parse(0, "pioche", Lang::Fr).unwrap(), SevenAction::Draw);
    }
    assert_eq!(s.game.parse(0, "passe", Lang::Fr).unwrap(), SevenAction::Pass);
    assert_eq!(s.game.parse(0, "non", Lang::Fr).unwrap(), SevenAction::NoCall);
}

/// Issue 18, item 6: when the hint is an 8, the hint key selects the 8 and its suit too (the
/// suit question opens with the hinted suit under the cursor).
#[test]
fn seven_hint_preselects_the_suit_of_an_eight() {
    for seed in 0..60 {
        let mut s = seven(seed);
        for _ in 0..400 {
            bots(&mut s);
            if !matches!(s.next(), Next::Human(Ask::Turn)) {
                break;
            }
            let mut ui = Ui::default();
            ui.sync(&s);
            key(&mut s, &mut ui, KeyCode::Char('h'));
            if let Some((_, list)) = &ui.sub {
                let hinted = list[ui.cursor].action;
                let SevenAction::Play { suit: Some(suit), .. } = hinted else { panic!("{hinted:?}") };
                assert!(ui.message.contains(suit.symbol()), "{} / {hinted:?}", ui.message);
                // Enter plays exactly the hinted 8 and suit.
                key(&mut s, &mut ui, KeyCode::Enter);
                assert!(ui.message.is_empty(), "{}", ui.message);
                return;
            }
            human_first(&mut s);
        }
    }
    panic!("no hint of an 8 met");
}
