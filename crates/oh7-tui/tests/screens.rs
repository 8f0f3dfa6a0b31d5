//! Snapshot tests of the main screens, drawn with ratatui's `TestBackend` (text only, colours
//! left out). The expected screens are the files in `tests/snapshots/`; run with
//! `OH7_UPDATE_SNAPSHOTS=1` to write them again after a deliberate change, and read the diff.

use oh7_core::game::Game;
use oh7_core::oh7::{Action, Oh7Game, PhaseView};
use oh7_core::registry::{GameId, rules_summary};
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_core::seven::{RoundEnd, SevenGame, SevenRules};
use oh7_tui::Lang;
use oh7_tui::session::{Ask, Next, Session, Table};
use oh7_tui::tui::{Overlay, Ui, draw};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const W: u16 = 100;
const H: u16 = 30;

fn screen<G: Table>(s: &Session<G>, ui: &mut Ui<G::Action>) -> String {
    text(&grid(s, ui, W, H, "RULES"))
}

/// The screen as rows of cells (one symbol each), `w` by `h`, with `rules` as the rules text.
fn grid<G: Table>(s: &Session<G>, ui: &mut Ui<G::Action>, w: u16, h: u16, rules: &str) -> Vec<Vec<String>> {
    ui.sync(s);
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| draw(f, s, ui, rules)).unwrap();
    let buf = term.backend().buffer().clone();
    (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect()).collect()
}

fn text(grid: &[Vec<String>]) -> String {
    let mut out = String::new();
    for row in grid {
        out.push_str(row.concat().trim_end());
        out.push('\n');
    }
    out
}

/// The inside of the box titled `title` (`┌ title ─…┐` down to `└…┘`), one string a row.
fn boxed(grid: &[Vec<String>], title: &str) -> Vec<String> {
    let head: Vec<String> = format!("┌ {title} ").chars().map(String::from).collect();
    let (y0, x0) = grid
        .iter()
        .enumerate()
        .find_map(|(y, row)| row.windows(head.len()).position(|w| w == head.as_slice()).map(|x| (y, x)))
        .unwrap_or_else(|| panic!("no box `{title}` on the screen:\n{}", text(grid)));
    let x1 = x0 + grid[y0][x0..].iter().position(|c| c == "┐").unwrap();
    grid[y0 + 1..].iter().take_while(|row| row[x0] != "└").map(|row| row[x0 + 1..x1].concat()).collect()
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
    assert!(matches!(err, oh7_tui::session::SessionError::Refused(_)), "{err:?}");
    let err = s.words(&err);
    assert!(err.contains("must follow"), "{err}");
    let mut fr = oh7(Preset::En, 4, 7, Lang::Fr);
    fr.game = s.game.clone();
    let e = fr.human_action(illegal).unwrap_err();
    assert!(fr.words(&e).contains("devez fournir"));
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
    assert!(text.contains("Votre pari"), "{text}");
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

/// Play (the human takes its first legal choice) until `done` or the end of the game.
fn play_until<G: Table>(s: &mut Session<G>, mut done: impl FnMut(&Session<G>) -> bool) {
    while !done(s) {
        match s.next() {
            Next::Bot(..) => s.bot_step().unwrap(),
            Next::Human(..) => human_first(s),
            Next::Over => break,
        }
    }
}

fn tokens(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

/// Every column of the Oh 7 score box is whole: the names, each round shown with its points and
/// `✓` for a made bet (the latest rounds), and the totals.
fn check_oh7_scores(s: &Session<Oh7Game>, grid: &[Vec<String>]) {
    let screen = text(grid);
    let v = s.game.view(0);
    let n = v.players();
    let rows = boxed(grid, "Scores");
    let mut head = vec!["#".to_string()];
    head.extend((0..n).map(|p| s.game.seat_name(p, 0, s.lang)));
    assert_eq!(tokens(&rows[0]), head, "{screen}");
    let past = v.past_rounds();
    let shown: Vec<Vec<String>> =
        rows[1..].iter().map(|l| tokens(l)).filter(|t| t.first().is_some_and(|x| x.parse::<u32>().is_ok())).collect();
    assert_eq!(shown.last().map(|t| t[0].clone()), past.last().map(|r| r.number.to_string()), "{screen}");
    for t in &shown {
        let r = past.iter().find(|r| r.number.to_string() == t[0]).unwrap();
        let want: Vec<String> =
            (0..n).map(|p| format!("{}{}", r.points[p], if r.bets[p] == r.won[p] { "✓" } else { "" })).collect();
        assert_eq!(t[1..], want[..], "round {}:\n{screen}", r.number);
    }
    let total = rows.iter().find(|l| l.starts_with('Σ')).unwrap();
    let mut want = vec!["Σ".to_string()];
    want.extend(v.totals().iter().map(|t| t.to_string()));
    assert_eq!(tokens(total), want, "{screen}");
}

#[test]
fn oh7_scores_fit_80_columns_with_6_players() {
    for (preset, players) in [(Preset::Kod7, 6), (Preset::FrAdvanced, 6), (Preset::Bga, 6), (Preset::Bga, 9)] {
        let mut s = oh7(preset, players, 11, Lang::En);
        play_until(&mut s, |s| s.game.view(0).past_rounds().len() >= 3 && s.next() == Next::Human(Ask::Turn));
        assert_eq!(s.game.view(0).past_rounds().len(), 3);
        for width in [80, 100] {
            let grid = grid(&s, &mut Ui::default(), width, H, "RULES");
            check_oh7_scores(&s, &grid);
            // The heading of the players' box is whole too (shortened where the long one is cut).
            let head = tokens(&boxed(&grid, "Players")[0]);
            let public = if width == 80 { "public" } else { "public cards in hand" };
            assert_eq!(head.join(" "), format!("bet won total {public}"), "{preset:?} at {width}:\n{}", text(&grid));
            if preset == Preset::Kod7 && width == 80 {
                check("scores-80-6p", &text(&grid));
            }
        }
    }
}

#[test]
fn seven_score_table_by_round() {
    let g = SevenGame::new(SevenRules::default(), 4, 9).unwrap();
    let mut s = Session::new(g, 0, "random", Lang::En).unwrap();
    // The rounds as the view told them, one at a time.
    let mut seen: Vec<RoundEnd> = Vec::new();
    play_until(&mut s, |s| {
        if let Some(r) = s.game.view(0).last_round_end()
            && seen.last().is_none_or(|l| l.number != r.number)
        {
            seen.push(r);
        }
        seen.len() >= 3 && s.next() == Next::Human(Ask::Turn)
    });
    assert_eq!(seen.len(), 3);
    assert_eq!(oh7_tui::seven_table::round_ends(&s.game), seen);

    let grid = grid(&s, &mut Ui::default(), W, H, "RULES");
    let screen = text(&grid);
    let rows = boxed(&grid, "Scores");
    assert_eq!(tokens(&rows[0]), ["#", "You", "P1", "P2", "P3"], "{screen}");
    for (k, r) in seen.iter().enumerate() {
        let mut want = vec![r.number.to_string()];
        for p in 0..4 {
            want.push(match () {
                _ if !r.seats_in.contains(p) => "-".to_string(),
                _ if r.out == Some(p) => format!("{}✓", r.points[p]),
                _ if r.eliminated.contains(p) => format!("{}✗", r.points[p]),
                _ if r.reset.contains(p) => format!("{}↺", r.points[p]),
                _ => r.points[p].to_string(),
            });
        }
        assert_eq!(tokens(&rows[k + 1]), want, "{screen}");
        // Each round's totals follow from the points.
        let before = if k == 0 { vec![0; 4] } else { seen[k - 1].totals.clone() };
        for p in r.seats_in.iter() {
            let t = if r.reset.contains(p) { 0 } else { before[p] + r.points[p] };
            assert_eq!(r.totals[p], t, "round {} seat {p}", r.number);
        }
    }
    let mut total = vec!["Σ".to_string()];
    total.extend(s.game.view(0).totals().iter().map(|t| t.to_string()));
    assert_eq!(tokens(&rows[4]), total, "{screen}");
    assert!(rows[5].starts_with("✓ out"), "{screen}");
    check("seven-scores", &screen);
}

/// English words the French texts never use.
const ENGLISH: &[&str] = &[
    "the",
    "and",
    "of",
    "to",
    "if",
    "is",
    "are",
    "with",
    "you",
    "your",
    "their",
    "they",
    "it",
    "its",
    "card",
    "cards",
    "trick",
    "tricks",
    "bet",
    "bets",
    "round",
    "rounds",
    "player",
    "players",
    "wins",
    "win",
    "deck",
    "scoring",
    "passing",
    "first",
    "leader",
    "trump",
    "highest",
    "failed",
    "made",
    "each",
    "every",
    "play",
    "played",
    "draw",
    "game",
    "rules",
    "scroll",
    "close",
    "dummy",
    "tie",
    "at",
    "least",
    "after",
    "before",
    "then",
    "else",
    "when",
    "edition",
    "shedding",
    "turn",
    "eliminated",
    "announce",
    "called",
    "out",
];

fn english_in(text: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .split(|c: char| !c.is_alphabetic())
        .map(str::to_lowercase)
        .filter(|w| ENGLISH.contains(&w.as_str()))
        .collect();
    found.dedup();
    found
}

#[test]
fn french_rules_screen_is_in_french() {
    // The check finds English: the English screen fails it.
    let text_en = rules_summary(Some(&Ruleset::preset(Preset::Fr)), GameId::Oh7, Some(3), Lang::En);
    let mut ui = Ui::default();
    ui.overlay = Overlay::Rules(0);
    let en = text(&grid(&oh7(Preset::Fr, 3, 1, Lang::En), &mut ui, W, 52, &text_en));
    assert!(english_in(&en).len() > 10, "{en}");

    let variants = [
        Ruleset::preset(Preset::En),
        Ruleset { every_tie_replays: true, ..Ruleset::preset(Preset::En) },
        Ruleset::preset(Preset::Fr),
        Ruleset::preset(Preset::FrAdvanced),
        Ruleset::preset(Preset::Kod7),
        Ruleset::preset(Preset::Bga),
        Ruleset { passing: true, decks: 2, ..Ruleset::preset(Preset::Bga) },
    ];
    for rules in variants {
        let text_fr = rules_summary(Some(&rules), GameId::Oh7, Some(3), Lang::Fr);
        assert!(
            english_in(&text_fr).is_empty(),
            "English in {:?}: {:?}\n{text_fr}",
            rules.preset,
            english_in(&text_fr)
        );
        let g = Oh7Game::new(rules, 3, 1).unwrap();
        let s = Session::new(g, 0, "random", Lang::Fr).unwrap();
        let fr = text(&grid(&s, &mut ui, W, 62, &text_fr));
        assert!(fr.contains("Règles (↑/↓ défiler, Échap fermer)"), "{fr}");
        // The whole summary is on the screen, from its title to its last line.
        assert!(fr.contains(&format!("— règles `{}`", rules.preset)), "{fr}");
        assert!(fr.contains("Les signes à l'écran"), "{fr}");
        let last = text_fr.lines().rfind(|l| !l.trim().is_empty()).unwrap().trim();
        assert!(fr.contains(last), "the summary's last line `{last}` is cut:\n{fr}");
        assert!(english_in(&fr).is_empty(), "English on the French screen: {:?}\n{fr}", english_in(&fr));
        if rules == Ruleset::preset(Preset::Fr) {
            check("rules-fr", &fr);
        }
    }
    let text_fr = rules_summary(None, GameId::Seven, Some(3), Lang::Fr);
    let g = SevenGame::new(SevenRules::default(), 3, 1).unwrap();
    let s = Session::new(g, 0, "random", Lang::Fr).unwrap();
    let mut ui = Ui::default();
    ui.overlay = Overlay::Rules(0);
    let fr = text(&grid(&s, &mut ui, W, 52, &text_fr));
    assert!(fr.contains("Seven — le jeu"), "{fr}");
    assert!(fr.contains("le dernier"), "{fr}");
    assert!(english_in(&fr).is_empty(), "English on the French Seven screen: {:?}\n{fr}", english_in(&fr));
}

/// Play (bots, and the human's first legal choice) until `stop` holds.
fn until(s: &mut Session<Oh7Game>, stop: impl Fn(&Session<Oh7Game>) -> bool) {
    for _ in 0..2000 {
        if stop(s) {
            return;
        }
        match s.next() {
            Next::Bot(..) => s.bot_step().unwrap(),
            Next::Human(_) => human_first(s),
            Next::Over => break,
        }
    }
    panic!("never reached the wanted state");
}

fn between_tricks(s: &Session<Oh7Game>) -> bool {
    let v = s.game.view(0);
    v.phase() == PhaseView::Playing && v.trick().is_empty() && v.tricks().len() >= 2
}

/// Issue 18, item 1: between two tricks the completed one and its winner's full name stay on
/// the table, at 80×24, 100×30 and 160×45, in English and French, 3 to 6 players (the Dummy
/// at 2), until the next card is played.
#[test]
fn the_completed_trick_and_its_winner_stay_on_screen() {
    let games = [(Preset::En, 2), (Preset::En, 3), (Preset::Kod7, 4), (Preset::Fr, 5), (Preset::Kod7, 6)];
    for (preset, players) in games {
        for lang in [Lang::En, Lang::Fr] {
            let mut s = oh7(preset, players, 11, lang);
            until(&mut s, between_tricks);
            let v = s.game.view(0);
            let k = v.tricks().len();
            let t = v.tricks()[k - 1];
            let winner = s.game.seat_name(t.winner(), 0, lang);
            let want = match (t.winner() == 0, lang) {
                (true, Lang::En) => format!("You win trick {k}"),
                (true, Lang::Fr) => format!("Vous remportez le pli {k}"),
                (false, Lang::En) => format!("{winner} wins trick {k}"),
                (false, Lang::Fr) => format!("{winner} remporte le pli {k}"),
            };
            for (w, h) in [(80, 24), (100, 30), (160, 45)] {
                let g = grid(&s, &mut Ui::default(), w, h, "RULES");
                let title = if lang == Lang::En { format!("Trick {k}") } else { format!("Pli {k}") };
                let inside = boxed(&g, &title).join("\n");
                assert!(
                    inside.contains(&want),
                    "{preset:?} {players}p {lang:?} {w}×{h}: `{want}` not in\n{}",
                    text(&g)
                );
                // Every card of the trick is there too.
                assert_eq!(inside.lines().count() - 1, t.plays().count(), "{}", text(&g));
            }
            // The next card replaces it with the trick in progress.
            until(&mut s, |s| !s.game.view(0).trick().is_empty() || s.game.view(0).phase() != PhaseView::Playing);
            if s.game.view(0).phase() == PhaseView::Playing {
                let g = grid(&s, &mut Ui::default(), 100, 30, "RULES");
                let title = if lang == Lang::En { format!("Trick {}", k + 1) } else { format!("Pli {}", k + 1) };
                assert!(!boxed(&g, &title).join("\n").contains(&want), "{}", text(&g));
            }
        }
    }
}

/// A new round does not show the last trick of the previous one on the table; the end-of-round
/// screen tells it.
#[test]
fn the_last_trick_of_a_round_is_on_the_end_of_round_screen_only() {
    let mut s = oh7(Preset::En, 4, 3, Lang::En);
    until(&mut s, |s| !s.notices.is_empty());
    let notice = s.notices[0].clone();
    assert!(notice.lines.iter().any(|l| l.contains("trick 7:") || l.contains("win trick 7:")), "{notice:?}");
    let g = grid(&s, &mut Ui::default(), 100, 30, "RULES");
    let bets = boxed(&g, "Bets").join("\n");
    assert!(!bets.contains("trick"), "{}", text(&g));
}

/// Issue 18, item 5: below the size the table needs, the screen says so and how big to make it.
#[test]
fn a_small_terminal_says_how_big_to_make_it() {
    for (lang, want) in [(Lang::En, "the table needs at least 64×21"), (Lang::Fr, "la table demande au moins 64×21")]
    {
        let mut s = oh7(Preset::Kod7, 6, 1, lang);
        bots(&mut s);
        let small = text(&grid(&s, &mut Ui::default(), 60, 20, "RULES"));
        assert!(small.contains(want), "{small}");
        let fits = text(&grid(&s, &mut Ui::default(), 80, 24, "RULES"));
        assert!(!fits.contains(want), "{fits}");
    }
}

/// Issue 18, item 3: hearts and diamonds in red, and nothing coloured under `NO_COLOR`.
#[test]
fn red_suits_and_the_monochrome_fallback() {
    use ratatui::style::Color;
    let mut s = oh7(Preset::En, 4, 42, Lang::En);
    bots(&mut s);
    let colors = |mono: bool| {
        let mut ui = Ui::default();
        ui.mono = mono;
        ui.sync(&s);
        let mut term = Terminal::new(TestBackend::new(W, H)).unwrap();
        term.draw(|f| draw(f, &s, &ui, "RULES")).unwrap();
        let buf = term.backend().buffer().clone();
        let mut reds = Vec::new();
        let mut any = false;
        for y in 0..H {
            for x in 0..W {
                let c = &buf[(x, y)];
                any |= c.fg != Color::Reset || c.bg != Color::Reset;
                if c.fg == Color::Red {
                    reds.push(c.symbol().to_string());
                }
            }
        }
        (reds.concat(), any)
    };
    let (reds, _) = colors(false);
    assert!(reds.contains('♥') || reds.contains('♦'), "red cells: {reds}");
    assert!(!reds.contains('♠') && !reds.contains('♣'), "red cells: {reds}");
    let (reds, any) = colors(true);
    assert!(reds.is_empty() && !any, "NO_COLOR leaves colours: {reds}");
}

/// Issue 18, item 2: in a French game a card is typed with French letters; `?` is typed as the
/// ? card (F1 opens the rules); the hint key is a letter of the half-typed card, not a hint.
#[test]
fn typing_cards_in_french_and_the_question_mark_card() {
    use crossterm::event::{KeyCode, KeyModifiers};
    use oh7_core::card::Card;
    use oh7_tui::tui::on_key;
    let press = |s: &mut Session<Oh7Game>, ui: &mut Ui<Action>, text: &str| {
        for c in text.chars() {
            on_key(s, ui, KeyCode::Char(c), KeyModifiers::NONE);
        }
        on_key(s, ui, KeyCode::Enter, KeyModifiers::NONE);
    };
    // French letters: C is cœur, P pique, T trèfle, K carreau.
    let mut s = oh7(Preset::Fr, 4, 42, Lang::Fr);
    bots(&mut s);
    let card = s.game.view(0).hand().iter().find(|c| c.to_string().ends_with('H')).expect("a heart");
    let typed = format!("{}c", card.value());
    let mut ui = Ui::default();
    ui.sync(&s);
    press(&mut s, &mut ui, &typed);
    assert!(ui.message.is_empty(), "`{typed}`: {}", ui.message);
    assert!(s.log.iter().any(|l| l == &format!("Vous pariez {}♥ (face cachée).", card.value())), "{:?}", s.log);

    // `h` inside a half-typed card is a letter (3h: the 3 of hearts), never the hint.
    let mut s = oh7(Preset::En, 4, 42, Lang::En);
    bots(&mut s);
    let mut ui = Ui::default();
    ui.sync(&s);
    on_key(&mut s, &mut ui, KeyCode::Char('3'), KeyModifiers::NONE);
    on_key(&mut s, &mut ui, KeyCode::Char('h'), KeyModifiers::NONE);
    assert_eq!(ui.input, "3h");
    assert!(!ui.message.starts_with("Hint"), "{}", ui.message);

    // `?` plays the ? card in fr-advanced, where it is a card.
    for seed in 0..200 {
        let mut s = oh7(Preset::FrAdvanced, 4, seed, Lang::En);
        // Bots act; the human plays the first legal card that is not ?, until ? is playable.
        let mut ready = false;
        while !s.game.is_over() && s.game.view(0).round_number() == 1 {
            let mut legal = Vec::new();
            s.game.legal_actions(0, &mut legal);
            match s.next() {
                Next::Bot(..) => s.bot_step().unwrap(),
                Next::Human(_) if legal.contains(&Action::Play(Card::INTERROBANG)) => {
                    ready = true;
                    break;
                }
                Next::Human(_) => {
                    let a = legal.iter().copied().find(|a| *a != Action::Bet(Card::INTERROBANG)).unwrap();
                    s.human_action(a).unwrap();
                }
                Next::Over => break,
            }
        }
        if !ready {
            continue;
        }
        let mut ui = Ui::default();
        ui.sync(&s);
        press(&mut s, &mut ui, "?");
        assert_eq!(ui.overlay, Overlay::None, "`?` opened the rules");
        assert!(ui.message.is_empty(), "{}", ui.message);
        assert!(s.log.iter().any(|l| l == "You play ?."), "{:?}", s.log);
        on_key(&mut s, &mut ui, KeyCode::F(1), KeyModifiers::NONE);
        assert_eq!(ui.overlay, Overlay::Rules(0));
        return;
    }
    panic!("no deal with ? playable at seat 0");
}
