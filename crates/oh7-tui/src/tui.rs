//! The full-screen interface (ratatui + crossterm): the table, your hand with the legal cards
//! highlighted, a prompt, the keys; the rules, the end-of-round and end-of-game screens as
//! pop-ups. [`draw`] is pure (a session and the interface state in, a frame out), so screens
//! are tested with ratatui's `TestBackend`.

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::lang::Lang;
use crate::session::{Ask, Choice, Next, Notice, Refine, Session, Table};

/// How long a bot's move stays on screen before the next one.
const BOT_DELAY: Duration = Duration::from_millis(350);
/// How long a completed trick stays on screen before a bot plays on (Space or Enter skips).
pub const TRICK_PAUSE: Duration = Duration::from_millis(1500);

/// The colour of a card's text: red for ♥ and ♦, and a look of their own for ☆/★, ‽/?, Ø.
pub fn card_color(word: &str) -> Option<Color> {
    if word.contains(['♥', '♦']) {
        Some(Color::Red)
    } else if word.contains(['★', '☆']) {
        Some(Color::Yellow)
    } else if word.contains(['‽', '?']) && word.chars().count() <= 2 {
        Some(Color::Magenta)
    } else if word.contains('Ø') {
        Some(Color::Cyan)
    } else {
        None
    }
}

/// A line of text with every card in it coloured by [`card_color`].
pub fn colored(text: &str, base: Style) -> Line<'static> {
    let mut spans = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, spans: &mut Vec<Span<'static>>| {
        if !word.is_empty() {
            let style = match card_color(word) {
                Some(c) => base.fg(c),
                None => base,
            };
            spans.push(Span::styled(std::mem::take(word), style));
        }
    };
    for ch in text.chars() {
        if ch == ' ' || ch == ',' || ch == '(' || ch == ')' {
            flush(&mut word, &mut spans);
            spans.push(Span::styled(ch.to_string(), base));
        } else {
            word.push(ch);
        }
    }
    flush(&mut word, &mut spans);
    Line::from(spans)
}

/// Whether colours are off (`NO_COLOR` set and not empty, <https://no-color.org>).
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// A pop-up over the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// None.
    None,
    /// The rules summary, scrolled by this many lines.
    Rules(u16),
    /// An end-of-round or end-of-game screen.
    Notice(Notice),
}

/// The interface state (everything but the game).
pub struct Ui<A> {
    /// The choice under the cursor.
    pub cursor: usize,
    /// Marked choices (cards to pass).
    pub marks: Vec<usize>,
    /// Text typed so far.
    pub input: String,
    /// The last message (an error, a hint).
    pub message: String,
    /// Seven: announce the last card with the next play.
    pub announce: bool,
    /// A pop-up.
    pub overlay: Overlay,
    /// A further choice (an 8's suit): the question and the choices.
    pub sub: Option<(String, Vec<Choice<A>>)>,
    /// The choices now.
    pub choices: Vec<Choice<A>>,
    /// What the human is asked (`None`: waiting for the bots).
    pub ask: Option<Ask>,
    /// Monochrome (`NO_COLOR`): no colours, the legal cards told by bold and dim.
    pub mono: bool,
    /// How many entries of the log are scrolled back (PgUp/PgDn).
    pub log_back: usize,
    /// A completed trick is shown until then before the bots play on.
    pub pause_until: Option<Instant>,
    legal_key: Vec<String>,
}

impl<A: Copy + PartialEq> Default for Ui<A> {
    fn default() -> Self {
        Ui {
            cursor: 0,
            marks: Vec::new(),
            input: String::new(),
            message: String::new(),
            announce: false,
            overlay: Overlay::None,
            sub: None,
            choices: Vec::new(),
            ask: None,
            mono: false,
            log_back: 0,
            pause_until: None,
            legal_key: Vec::new(),
        }
    }
}

impl<A: Copy + PartialEq + std::fmt::Debug> Ui<A> {
    /// Refresh the choices from the session; the cursor goes to the first legal choice when
    /// the decision changed.
    pub fn sync<G: Table<Action = A>>(&mut self, s: &Session<G>) {
        self.ask = match s.next() {
            Next::Human(a) => Some(a),
            _ => None,
        };
        self.choices = s.choices(self.ask.unwrap_or(Ask::Turn));
        if self.ask.is_none() {
            for c in &mut self.choices {
                c.legal = false;
            }
        }
        let key: Vec<String> = self.choices.iter().filter(|c| c.legal).map(|c| format!("{:?}", c.action)).collect();
        if key != self.legal_key || self.cursor >= self.choices.len() {
            self.cursor = self.choices.iter().position(|c| c.legal).unwrap_or(0);
            self.marks.clear();
            self.legal_key = key;
        }
    }

    fn list(&self) -> &[Choice<A>] {
        match &self.sub {
            Some((_, c)) => c,
            None => &self.choices,
        }
    }
}

/// The keys, on one line that fits 80 columns in both languages.
fn keys_line(lang: Lang, example: &str, rules_key: &str) -> String {
    lang.t(
        format!("←→ Enter · type {example} · h hint · {rules_key} rules+signs · PgUp log · Esc quit"),
        format!("←→ Entrée · tapez {example} · h conseil · {rules_key} règles · PgUp journal · Échap fin"),
    )
}

fn choice_spans<A>(list: &[Choice<A>], cursor: usize, marks: &[usize], active: bool) -> Vec<Span<'static>> {
    let mut spans = vec![Span::raw(" ")];
    let mut sep = false;
    for (i, c) in list.iter().enumerate() {
        if !c.in_hand && !sep && i > 0 {
            spans.push(Span::styled("│ ", Style::default().fg(Color::DarkGray)));
            sep = true;
        }
        let marked = marks.contains(&i);
        let text = if active && i == cursor {
            format!("[{}]", c.label)
        } else if marked {
            format!("*{}*", c.label)
        } else {
            format!(" {} ", c.label)
        };
        let mut style = if c.legal {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(Color::DarkGray).add_modifier(Modifier::DIM)
        };
        if c.legal
            && let Some(col) = card_color(&c.label)
        {
            style = style.fg(col);
        }
        if active && i == cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        if marked {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
    }
    spans
}

/// The narration box: the latest entries that fit, long ones wrapped (scrolled back `back`
/// entries with PgUp/PgDn; the title says so).
pub fn draw_log(f: &mut Frame, area: Rect, log: &[String], lang: Lang, back: usize) {
    let width = area.width.saturating_sub(2).max(1) as usize;
    let room = area.height.saturating_sub(2) as usize;
    let back = back.min(log.len().saturating_sub(1));
    let shown = &log[..log.len() - back];
    let mut lines: Vec<Line> = Vec::new();
    for entry in shown.iter().rev() {
        let chars: Vec<char> = entry.chars().collect();
        let mut chunks: Vec<String> = chars.chunks(width).map(|c| c.iter().collect()).collect();
        if chunks.is_empty() {
            chunks.push(String::new());
        }
        // Whole entries only: a wrapped entry that does not fit is left out, not cut.
        if !lines.is_empty() && lines.len() + chunks.len() > room {
            break;
        }
        for c in chunks.into_iter().rev() {
            lines.push(colored(&c, Style::default()));
        }
        if lines.len() >= room {
            break;
        }
    }
    lines.truncate(room);
    lines.reverse();
    let title = if back > 0 {
        lang.t(
            format!(" What happened (↑ {back} back, PgDn) "),
            format!(" Ce qui s'est passé (↑ {back} plus tôt, PgDn) "),
        )
    } else {
        lang.t(" What happened ", " Ce qui s'est passé ")
    };
    f.render_widget(Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)), area);
}

fn popup(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

/// Draw the whole screen.
pub fn draw<G: Table>(f: &mut Frame, s: &Session<G>, ui: &Ui<G::Action>, rules: &str) {
    draw_colored(f, s, ui, rules);
    if ui.mono {
        // NO_COLOR: every colour goes; bold, dim, reverse and underline stay.
        let area = f.area();
        let buf = f.buffer_mut();
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                if let Some(cell) = buf.cell_mut((x, y)) {
                    cell.set_fg(Color::Reset).set_bg(Color::Reset);
                }
            }
        }
    }
}

/// The key that opens the rules: F1 where `?` is a card to type, else `?` (F1 works too).
fn rules_key<G: Table>(g: &G) -> &'static str {
    if g.question_mark_is_a_card() { "F1" } else { "?" }
}

fn draw_colored<G: Table>(f: &mut Frame, s: &Session<G>, ui: &Ui<G::Action>, rules: &str) {
    let lang = s.lang;
    let area = f.area();
    let (need_w, need_h) = s.game.min_size();
    if area.width < need_w || area.height < need_h {
        let text = lang.t(
            format!(
                "This terminal is {}×{}; the table needs at least {need_w}×{need_h}. Make the window larger \
                 (or play with --plain). Esc: save and quit.",
                area.width, area.height
            ),
            format!(
                "Ce terminal fait {}×{} ; la table demande au moins {need_w}×{need_h}. Agrandissez la fenêtre \
                 (ou jouez avec --plain). Échap : enregistrer et quitter.",
                area.width, area.height
            ),
        );
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let [title, body, hand, prompt, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(8),
        Constraint::Length(3),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(area);
    f.render_widget(
        Paragraph::new(format!(" {}", s.game.title(s.human, lang)))
            .style(Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED)),
        title,
    );
    s.game.draw_body(f, body, s.human, lang, &s.log, ui.log_back);

    let active = ui.ask.is_some();
    let hand_title = match &ui.sub {
        Some(_) => lang.t(" Choose ", " Choisissez "),
        None => lang.t(" Your hand ", " Votre main "),
    };
    f.render_widget(
        Paragraph::new(Line::from(choice_spans(ui.list(), ui.cursor, &ui.marks, active)))
            .block(Block::default().borders(Borders::ALL).title(hand_title)),
        hand,
    );

    let question = match (&ui.sub, ui.ask) {
        (Some((q, _)), _) => q.clone(),
        (None, Some(ask)) => s.game.question(s.human, ask, lang),
        (None, None) if s.game.is_over() => {
            lang.t("The game is over. q or Esc: quit.", "La partie est finie. q ou Échap : quitter.")
        }
        (None, None) if ui.pause_until.is_some() => {
            lang.t("Trick complete. Space: play on.", "Pli terminé. Espace : continuer.")
        }
        (None, None) => lang.t("The bots are playing…", "Les robots jouent…"),
    };
    let mut second = Vec::new();
    if !ui.input.is_empty() {
        second.push(Span::styled(format!("> {}_", ui.input), Style::default().fg(Color::Cyan)));
        second.push(Span::raw("  "));
    }
    if ui.announce {
        second.push(Span::styled(
            lang.t("[last card will be announced] ", "[dernière carte annoncée] "),
            Style::default().fg(Color::Magenta),
        ));
    }
    if !ui.message.is_empty() {
        second.push(Span::styled(ui.message.clone(), Style::default().fg(Color::Yellow)));
    }
    f.render_widget(Paragraph::new(vec![Line::from(question), Line::from(second)]).wrap(Wrap { trim: false }), prompt);
    f.render_widget(
        Paragraph::new(keys_line(lang, G::typed_example(lang), rules_key(&s.game)))
            .style(Style::default().fg(Color::DarkGray)),
        keys,
    );

    match &ui.overlay {
        Overlay::None => {}
        Overlay::Rules(scroll) => {
            let r = popup(area, area.width.saturating_sub(4), area.height.saturating_sub(2));
            f.render_widget(Clear, r);
            let mut text = lang.t("Signs on the screen:\n", "Les signes à l'écran :\n");
            for l in s.game.signs(lang) {
                text += &format!("  {l}\n");
            }
            text += "\n";
            text += rules;
            f.render_widget(
                Paragraph::new(text).wrap(Wrap { trim: false }).scroll((*scroll, 0)).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(lang.t(" Rules (↑/↓ scroll, Esc close) ", " Règles (↑/↓ défiler, Échap fermer) ")),
                ),
                r,
            );
        }
        Overlay::Notice(n) => {
            let w = n.lines.iter().map(|l| l.chars().count()).max().unwrap_or(20).max(40) as u16 + 4;
            let r = popup(area, w, n.lines.len() as u16 + 4);
            f.render_widget(Clear, r);
            let mut lines: Vec<Line> = n.lines.iter().map(|l| Line::from(l.clone())).collect();
            lines.push(Line::styled(
                lang.t("Enter: continue", "Entrée : continuer"),
                Style::default().fg(Color::DarkGray),
            ));
            f.render_widget(
                Paragraph::new(lines)
                    .wrap(Wrap { trim: false })
                    .block(Block::default().borders(Borders::ALL).title(format!(" {} ", n.title))),
                r,
            );
        }
    }
}

/// What a key did.
#[derive(Debug, PartialEq, Eq)]
pub enum KeyResult {
    /// Keep going.
    Continue,
    /// Save and quit.
    Quit,
}

/// Handle one key press.
pub fn on_key<G: Table>(s: &mut Session<G>, ui: &mut Ui<G::Action>, code: KeyCode, mods: KeyModifiers) -> KeyResult {
    let lang = s.lang;
    if code == KeyCode::Char('c') && mods.contains(KeyModifiers::CONTROL) {
        return KeyResult::Quit;
    }
    match &mut ui.overlay {
        Overlay::Rules(scroll) => {
            match code {
                KeyCode::Up => *scroll = scroll.saturating_sub(1),
                KeyCode::Down => *scroll += 1,
                KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
                KeyCode::PageDown | KeyCode::Char(' ') => *scroll += 10,
                _ => ui.overlay = Overlay::None,
            }
            return KeyResult::Continue;
        }
        Overlay::Notice(_) => {
            if code == KeyCode::Char('q') && s.game.is_over() {
                return KeyResult::Quit;
            }
            ui.overlay = Overlay::None;
            return KeyResult::Continue;
        }
        Overlay::None => {}
    }
    let typing = !ui.input.is_empty();
    match code {
        // `q` is also a card's text (Q for 0 in Oh 7, the queen in Seven): it quits only once the
        // game is over; Esc quits at any time (Ctrl-C too).
        KeyCode::Esc if !typing && ui.sub.is_none() => return KeyResult::Quit,
        KeyCode::Char('q') if !typing && s.game.is_over() => return KeyResult::Quit,
        KeyCode::Esc => {
            ui.input.clear();
            ui.sub = None;
            ui.message.clear();
        }
        KeyCode::F(1) => ui.overlay = Overlay::Rules(0),
        KeyCode::Char('?') if !typing && !s.game.question_mark_is_a_card() => ui.overlay = Overlay::Rules(0),
        KeyCode::PageUp => ui.log_back = (ui.log_back + 5).min(s.log.len().saturating_sub(1)),
        KeyCode::PageDown => ui.log_back = ui.log_back.saturating_sub(5),
        KeyCode::Char(' ') | KeyCode::Enter if ui.pause_until.is_some() && ui.ask.is_none() => ui.pause_until = None,
        KeyCode::Char('h') if !typing => match s.hint() {
            Some((a, text)) => {
                if let Some(i) = ui.choices.iter().position(|c| c.action == a) {
                    ui.cursor = i;
                } else {
                    // The hint may be a card with its announcement, or an 8 with a suit.
                    for (i, c) in ui.choices.iter().enumerate() {
                        let (plain, announced) = (
                            s.game.refine(s.human, c.action, false, lang),
                            s.game.refine(s.human, c.action, true, lang),
                        );
                        let hit = |r: &Refine<G::Action>| match r {
                            Refine::Ready(x) => *x == a,
                            Refine::More(_, list) => list.iter().any(|l| l.action == a),
                        };
                        if hit(&plain) || hit(&announced) {
                            ui.cursor = i;
                            ui.announce = !hit(&plain);
                            // An 8: its suit is chosen next; the hint preselects it too.
                            if let Refine::More(q, list) = if hit(&plain) { plain } else { announced }
                                && let Some(k) = list.iter().position(|l| l.action == a)
                            {
                                ui.sub = Some((q, list));
                                ui.cursor = k;
                            }
                            break;
                        }
                    }
                }
                ui.message = text;
            }
            None => ui.message = lang.t("No hint now: it is not your turn.", "Pas de conseil : ce n'est pas à vous."),
        },
        KeyCode::Char('!') if !typing && s.game.may_announce(s.human) => ui.announce = !ui.announce,
        KeyCode::Char('n') if !typing && matches!(ui.ask, Some(Ask::CallOut(_))) => {
            if let Err(e) = s.decline() {
                ui.message = s.words(&e);
            }
        }
        KeyCode::Left | KeyCode::Up => {
            let n = ui.list().len().max(1);
            ui.cursor = (ui.cursor + n - 1) % n;
        }
        KeyCode::Right | KeyCode::Down | KeyCode::Tab => {
            let n = ui.list().len().max(1);
            ui.cursor = (ui.cursor + 1) % n;
        }
        KeyCode::Home => ui.cursor = 0,
        KeyCode::End => ui.cursor = ui.list().len().saturating_sub(1),
        KeyCode::Char(' ')
            if !typing
                && ui.sub.is_none()
                && ui.cursor < ui.choices.len()
                && s.game.merge(&[ui.choices[ui.cursor].action]).is_some() =>
        {
            match ui.marks.iter().position(|&m| m == ui.cursor) {
                Some(k) => {
                    ui.marks.remove(k);
                }
                None => ui.marks.push(ui.cursor),
            }
        }
        KeyCode::Backspace => {
            ui.input.pop();
        }
        KeyCode::Enter => {
            if ui.ask.is_none() {
                ui.message = lang.t("Wait: it is not your turn.", "Attendez : ce n'est pas à vous.");
                return KeyResult::Continue;
            }
            let result = if typing {
                let text = std::mem::take(&mut ui.input);
                let text = if ui.announce && !text.ends_with('!') { text + "!" } else { text };
                s.human_text(&text)
            } else if !ui.marks.is_empty() {
                let acts: Vec<G::Action> = ui.marks.iter().map(|&i| ui.choices[i].action).collect();
                match s.game.merge(&acts) {
                    Some(a) => s.human_action(a),
                    None => Ok(()),
                }
            } else if let Some((_, list)) = &ui.sub {
                let a = list[ui.cursor.min(list.len() - 1)].action;
                s.human_action(a)
            } else {
                match ui.choices.get(ui.cursor) {
                    None => Ok(()),
                    Some(c) => match s.game.refine(s.human, c.action, ui.announce, lang) {
                        Refine::Ready(a) => s.human_action(a),
                        Refine::More(q, list) => {
                            ui.sub = Some((q, list));
                            ui.cursor = 0;
                            return KeyResult::Continue;
                        }
                    },
                }
            };
            match result {
                Ok(()) => {
                    ui.message.clear();
                    ui.sub = None;
                    ui.marks.clear();
                    ui.announce = false;
                }
                Err(e) => ui.message = s.words(&e),
            }
        }
        KeyCode::Char(c) => {
            ui.input.push(c);
        }
        _ => {}
    }
    KeyResult::Continue
}

/// Play in the terminal until the game ends and the human quits, or the human quits; the record
/// is saved to `save` on the way out.
pub fn run<G: Table>(s: &mut Session<G>, rules: &str, save: &Path, resumed: bool) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = event_loop(&mut terminal, s, rules, save, resumed);
    ratatui::restore();
    let saved = s.save(save);
    result.and(saved)
}

fn event_loop<G: Table>(
    terminal: &mut ratatui::DefaultTerminal,
    s: &mut Session<G>,
    rules: &str,
    save: &Path,
    resumed: bool,
) -> io::Result<()> {
    let mut ui: Ui<G::Action> = Ui { mono: no_color_env(), ..Ui::default() };
    let lang = s.lang;
    if resumed {
        s.log.push(lang.t("Game resumed.", "Partie reprise."));
    }
    ui.message =
        crate::welcome(lang, s.human, s.game.players(), s.bot_level(), G::typed_example(lang), rules_key(&s.game));
    let mut last_bot = Instant::now();
    let mut paused_at: Option<usize> = None;
    loop {
        if ui.overlay == Overlay::None && !s.notices.is_empty() {
            ui.overlay = Overlay::Notice(s.notices.remove(0));
            s.save(save)?;
        }
        ui.sync(s);
        let bot_next = matches!(s.next(), Next::Bot(..)) && ui.overlay == Overlay::None;
        // A trick just completed (by anyone) and a bot plays next: pause once so it is seen.
        if bot_next && s.game.trick_just_completed() && paused_at != Some(s.log.len()) {
            paused_at = Some(s.log.len());
            ui.pause_until = Some(Instant::now() + TRICK_PAUSE);
        }
        if ui.pause_until.is_some_and(|t| Instant::now() >= t) || !bot_next {
            ui.pause_until = None;
        }
        terminal.draw(|f| draw(f, s, &ui, rules))?;
        let wait = match ui.pause_until {
            Some(t) => t.saturating_duration_since(Instant::now()),
            None if bot_next => BOT_DELAY.saturating_sub(last_bot.elapsed()),
            None => Duration::from_millis(500),
        };
        if event::poll(wait)? {
            if let Event::Key(k) = event::read()?
                && k.kind == KeyEventKind::Press
                && on_key(s, &mut ui, k.code, k.modifiers) == KeyResult::Quit
            {
                return Ok(());
            }
            continue;
        }
        if bot_next && ui.pause_until.is_none() {
            s.bot_step().map_err(|e| io::Error::other(s.words(&e)))?;
            last_bot = Instant::now();
        }
    }
}
