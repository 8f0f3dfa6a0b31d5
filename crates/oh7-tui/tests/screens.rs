//! Snapshot tests of the main screens, drawn with ratatui's `TestBackend` (text only, colours
//! left out). The expected screens are the files in `tests/snapshots/`; run with
//! `OH7_UPDATE_SNAPSHOTS=1` to write them again after a deliberate change, and read the diff.

use oh7_core::game::Game;
use oh7_core::oh7::{Action, Oh7Game, PhaseView};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{SevenGame, SevenRules};
use oh7_tui::Lang;
use oh7_tui::session::{Next, Session, Table};
use oh7_tui::tui::{Overlay, Ui, draw};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const W: u16 = 100;
const H: u16 = 30;

fn screen<G: Table>(s: &Session<G>, ui: &mut Ui<G::Action>) -> String {
    ui.sync(s);
    let mut term = Terminal::new(TestBackend::new(W, H)).unwrap();
    term.draw(|f| draw(f, s, ui, "RULES")).unwrap();
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..H {
        let mut line = String::new();
        for x in 0..W {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn check(name: &str, got: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(format!("{name}.txt"));
    if std::env::var_os("OH7_UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with OH7_UPDATE_SNAPSHOTS=1)", path.display()));
    assert!(want == got, "screen `{name}` differs from {}:\n--- expected\n{want}\n--- got\n{got}", path.display());
}

fn oh7(preset: Preset, players: usize, seed: u64, lang: Lang) -> Session<Oh7Game> {
    let g = Oh7Game::new(Ruleset::preset(preset), players, seed).unwrap();
    Session::new(g, 0, "random", lang).unwrap()
}

/// Let the bots act until the human is asked (or the game ends).
fn bots(s: &mut Session<impl Table>) {
    while let Next::Bot(..) = s.next() {
        s.bot_step().unwrap();
    }
}

/// The human takes the first legal choice.
fn human_first<G: Table>(s: &mut Session<G>) {
    let mut legal = Vec::new();
    s.game.legal_actions(s.human, &mut legal);
    s.human_action(legal[0]).unwrap();
}

fn phase(s: &Session<Oh7Game>) -> PhaseView {
    s.game.view(0).phase()
}

#[test]
fn bets_screen() {
    let mut s = oh7(Preset::En, 4, 42, Lang::En);
    bots(&mut s);
    let mut ui = Ui::default();
    let text = screen(&s, &mut ui);
    assert!(text.contains("bets, attempt 1"), "{text}");
    assert!(text.contains("Your bet: choose a card"), "{text}");
    check("bets", &text);
}

#[test]
fn bets_screen_after_a_sum_of_seven() {
    // Find a deal where the first attempt sums to 7, so the screen shows the earlier attempt
    // and why a new one is needed.
    for seed in 0..500 {
        let mut s = oh7(Preset::En, 4, seed, Lang::En);
        bots(&mut s);
        human_first(&mut s);
        bots(&mut s);
        if matches!(phase(&s), PhaseView::Betting { attempt: 2 }) {
            let text = screen(&s, &mut Ui::default());
            assert!(text.contains("Attempt 1:"), "{text}");
            assert!(text.contains("(sum 7)"), "{text}");
            assert!(text.contains("Attempt 2: the bets summed to 7"), "{text}");
            check("bets-attempt-2", &text);
            return;
        }
    }
    panic!("no first attempt summing to 7 in 500 deals");
}

#[test]
fn trick_in_progress_screen() {
    let mut s = oh7(Preset::Kod7, 4, 7, Lang::En);
    loop {
        bots(&mut s);
        if phase(&s) == PhaseView::Playing && !s.game.view(0).trick().is_empty() {
            break;
        }
        human_first(&mut s);
    }
    let text = screen(&s, &mut Ui::default());
    assert!(text.contains("trump"), "{text}");
    assert!(text.contains("lead "), "{text}");
    check("trick", &text);
}

#[test]
fn illegal_choice_says_why() {
    let mut s = oh7(Preset::En, 4, 7, Lang::En);
    loop {
        bots(&mut s);
        let v = s.game.view(0);
        if v.phase() == PhaseView::Playing && v.trick().lead_suit().is_some() && v.legal_plays_count_hint() {
            break;
        }
        human_first(&mut s);
    }
    let mut legal = Vec::new();
    s.game.legal_actions(0, &mut legal);
    let illegal = s.game.view(0).hand().iter().map(Action::Play).find(|a| !legal.contains(a)).unwrap();
    let err = s.human_action(illegal).unwrap_err();
    assert!(err.contains("you must follow"), "{err}");
    let mut fr = oh7(Preset::En, 4, 7, Lang::Fr);
    fr.game = s.game.clone();
    assert!(fr.human_action(illegal).unwrap_err().contains("vous devez fournir"));
}

/// Whether the human holds a card it may not play (so an illegal choice exists).
trait HintExt {
    fn legal_plays_count_hint(&self) -> bool;
}
impl HintExt for oh7_core::oh7::SeatView<'_> {
    fn legal_plays_count_hint(&self) -> bool {
        let lead = self.trick().lead_suit().unwrap();
        let hand = self.hand();
        !hand.and(lead.mask()).is_empty() && hand.and(lead.mask()) != hand
    }
}

#[test]
fn end_of_round_screen() {
    let mut s = oh7(Preset::En, 4, 3, Lang::En);
    while s.notices.is_empty() {
        bots(&mut s);
        human_first(&mut s);
    }
    let mut ui = Ui::default();
    ui.overlay = Overlay::Notice(s.notices.remove(0));
    let text = screen(&s, &mut ui);
    assert!(text.contains("End of round 1"), "{text}");
    assert!(text.contains("Basket:"), "{text}");
    check("end-of-round", &text);
}

#[test]
fn end_of_game_screen_with_the_reason() {
    let mut s = oh7(Preset::En, 4, 3, Lang::En);
    let mut reasons = Vec::new();
    loop {
        bots(&mut s);
        if s.next() == Next::Over {
            break;
        }
        human_first(&mut s);
        reasons.extend(s.log.iter().filter(|l| l.contains("one more round")).cloned());
    }
    let last = s.notices.pop().unwrap();
    let mut ui = Ui::default();
    ui.overlay = Overlay::Notice(last);
    let text = screen(&s, &mut ui);
    assert!(text.contains("End of the game"), "{text}");
    check("end-of-game", &text);
    let v = s.game.view(0);
    assert_eq!(
        v.past_rounds().len() > 7,
        !reasons.is_empty() || s.notices.iter().any(|n| n.lines.iter().any(|l| l.contains("one more round")))
    );
}

#[test]
fn one_more_round_reason_in_words() {
    // A game that went past round 7: its round-7 screen says why.
    for seed in 0..200 {
        let mut s = oh7(Preset::Kod7, 4, seed, Lang::En);
        loop {
            bots(&mut s);
            if s.next() == Next::Over {
                break;
            }
            human_first(&mut s);
        }
        if s.game.view(0).past_rounds().len() > 7 {
            let seven = s.notices.iter().find(|n| n.title == "End of round 7").unwrap();
            let why = seven.lines.last().unwrap();
            assert!(why.ends_with("one more round."), "{why}");
            assert!(why.contains("failed the last bet") || why.contains("Tie for the lead"), "{why}");
            return;
        }
    }
    panic!("no game past round 7 in 200 seeds");
}

#[test]
fn dummy_game_screen() {
    let mut s = oh7(Preset::En, 2, 5, Lang::En);
    loop {
        bots(&mut s);
        if phase(&s) == PhaseView::Playing && s.game.view(0).tricks().len() >= 2 {
            break;
        }
        human_first(&mut s);
    }
    let text = screen(&s, &mut Ui::default());
    assert!(text.contains("Dummy"), "{text}");
    assert!(text.contains("up: "), "{text}");
    check("dummy", &text);
}

#[test]
fn french_bets_screen() {
    let mut s = oh7(Preset::Fr, 3, 42, Lang::Fr);
    bots(&mut s);
    let text = screen(&s, &mut Ui::default());
    assert!(text.contains("Votre mise"), "{text}");
    check("bets-fr", &text);
}

#[test]
fn seven_screen() {
    let g = SevenGame::new(SevenRules::default(), 3, 5).unwrap();
    let mut s = Session::new(g, 0, "random", Lang::En).unwrap();
    for _ in 0..3 {
        bots(&mut s);
        human_first(&mut s);
    }
    bots(&mut s);
    let text = screen(&s, &mut Ui::default());
    assert!(text.contains("Seven · round 1"), "{text}");
    check("seven", &text);
}

#[test]
fn keys_move_the_cursor_and_enter_plays() {
    use crossterm::event::{KeyCode, KeyModifiers};
    use oh7_tui::tui::{KeyResult, on_key};
    let mut s = oh7(Preset::En, 4, 42, Lang::En);
    bots(&mut s);
    let mut ui = Ui::default();
    ui.sync(&s);
    assert_eq!(ui.cursor, 0);
    on_key(&mut s, &mut ui, KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(ui.cursor, 1);
    let chosen = ui.choices[1].action;
    on_key(&mut s, &mut ui, KeyCode::Enter, KeyModifiers::NONE);
    assert!(ui.message.is_empty(), "{}", ui.message);
    assert!(s.log.iter().any(|l| l.starts_with("You bet")), "{:?} {chosen:?}", s.log);
    // Typing a card that is not in the hand says why.
    bots(&mut s);
    ui.sync(&s);
    for c in "9z".chars() {
        on_key(&mut s, &mut ui, KeyCode::Char(c), KeyModifiers::NONE);
    }
    on_key(&mut s, &mut ui, KeyCode::Enter, KeyModifiers::NONE);
    assert!(ui.message.contains("unknown card"), "{}", ui.message);
    // `?` opens the rules, any key closes them; `q` quits.
    on_key(&mut s, &mut ui, KeyCode::Char('?'), KeyModifiers::NONE);
    assert_eq!(ui.overlay, Overlay::Rules(0));
    on_key(&mut s, &mut ui, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(ui.overlay, Overlay::None);
    on_key(&mut s, &mut ui, KeyCode::Char('h'), KeyModifiers::NONE);
    assert!(ui.message.starts_with("Hint ("), "{}", ui.message);
    // `q` types (Q is 0 in the card notation); Esc quits.
    assert_eq!(on_key(&mut s, &mut ui, KeyCode::Char('q'), KeyModifiers::NONE), KeyResult::Continue);
    assert_eq!(ui.input, "q");
    on_key(&mut s, &mut ui, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(on_key(&mut s, &mut ui, KeyCode::Esc, KeyModifiers::NONE), KeyResult::Quit);
}
