//! Seven at the terminal: choices, questions, narration and the table screen, made from the
//! human's [`SevenView`].

use oh7_core::game::{Game, Seat, SeatSet};
use oh7_core::seven::{
    Action, Card, CardSet, PenaltyKind, Rank, RoundEnd, SevenError, SevenGame, SevenView, Suit, TurnMode,
};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use serde_json::Value;

use crate::lang::{Lang, seven_error};
use crate::scores::{self, Cell, ScoreTable};
use crate::session::{Ask, Choice, Next, Notice, Refine, Table, bots_first};

fn set_text(s: CardSet) -> String {
    s.iter().map(|c| c.pretty()).collect::<Vec<_>>().join(" ")
}

fn name(seat: Seat, human: Seat, lang: Lang) -> String {
    if seat == human { lang.t("You", "Vous") } else { format!("P{seat}") }
}

/// Translate French words of an action to the engine's text (`pioche` → `draw`, …).
fn english_words(text: &str) -> String {
    let t = text.trim();
    let lower = t.to_lowercase();
    for (fr, en) in [
        ("piocher", "draw"),
        ("pioche", "draw"),
        ("passer", "pass"),
        ("passe", "pass"),
        ("dénoncer", "callout"),
        ("denoncer", "callout"),
        ("dénonce", "callout"),
        ("denonce", "callout"),
        ("non", "nocall"),
    ] {
        if let Some(rest) = lower.strip_prefix(fr) {
            return format!("{en}{rest}");
        }
    }
    if let Some(rest) = lower.strip_suffix(" dernière").or_else(|| lower.strip_suffix(" derniere")) {
        return format!("{rest} last");
    }
    t.to_string()
}

/// A card of a rank with its article, per language: `an ace`, `a 5`, `une dame`.
pub fn rank_phrase(rank: &str, lang: Lang) -> String {
    match (rank, lang) {
        ("A", Lang::En) => "an ace".into(),
        ("J", Lang::En) => "a jack".into(),
        ("Q", Lang::En) => "a queen".into(),
        ("K", Lang::En) => "a king".into(),
        ("8", Lang::En) => "an 8".into(),
        (r, Lang::En) => format!("a {r}"),
        ("A", Lang::Fr) => "un as".into(),
        ("J", Lang::Fr) => "un valet".into(),
        ("Q", Lang::Fr) => "une dame".into(),
        ("K", Lang::Fr) => "un roi".into(),
        (r, Lang::Fr) => format!("un {r}"),
    }
}

fn action_label(a: Action, human: Seat, lang: Lang) -> String {
    match a {
        Action::Play { card, suit, announce } => {
            let mut s = lang.t(format!("play {}", card.pretty()), format!("jouer {}", card.pretty()));
            if let Some(x) = suit {
                s += &lang.t(format!(", name {}", x.symbol()), format!(", annoncer {}", x.symbol()));
            }
            if announce {
                s += &lang.t(", last card!", ", dernière carte !");
            }
            s
        }
        Action::Draw => lang.t("draw", "piocher"),
        Action::Pass => lang.t("pass", "passer"),
        Action::CallOut(s) => {
            lang.t(format!("call out {}", name(s, human, lang)), format!("dénoncer {}", name(s, human, lang)))
        }
        Action::NoCall => lang.t("do not call out", "ne pas dénoncer"),
    }
}

fn mode_text(v: &SevenView<'_>, human: Seat, lang: Lang) -> String {
    match v.mode() {
        TurnMode::Normal => lang.t(
            format!("Active suit {}, top card {}.", v.active_suit().symbol(), v.top().pretty()),
            format!("Couleur demandée {}, carte du dessus {}.", v.active_suit().symbol(), v.top().pretty()),
        ),
        TurnMode::Penalty(p) => {
            let card = if p.kind == PenaltyKind::Two { "2" } else { "A♠" };
            lang.t(
                format!("Penalty pending: {} cards (answer with {card}).", p.cards()),
                format!("Pénalité en cours : {} cartes (répondre avec {card}).", p.cards()),
            )
        }
        TurnMode::Lock { owner } => lang.t(
            format!("A 7 is pending (played by {}): play a 7 or pass.", name(owner, human, lang)),
            format!("Un 7 est en cours (joué par {}) : jouez un 7 ou passez.", name(owner, human, lang)),
        ),
        TurnMode::FreePlay => lang.t("The 7 came back: free play.", "Le 7 est revenu : coup libre."),
    }
}

fn round_notice(v: &SevenView<'_>, human: Seat, lang: Lang) -> Option<Notice> {
    let r = v.last_round_end()?;
    let mut lines = Vec::new();
    lines.push(match r.out {
        Some(s) => lang.t(
            if s == human {
                "You played your last card.".to_string()
            } else {
                format!("{} played their last card.", name(s, human, lang))
            },
            format!("{} a posé sa dernière carte.", name(s, human, lang)),
        ),
        None => lang.t(
            "The round was cut (turn limit): everyone counts their hand.",
            "La manche est arrêtée (limite de tours) : chacun compte sa main.",
        ),
    });
    for s in r.seats_in.iter() {
        let mut l = lang.t(
            format!("  {:<6} +{:<4} total {}", name(s, human, lang), r.points[s], r.totals[s]),
            format!("  {:<6} +{:<4} total {}", name(s, human, lang), r.points[s], r.totals[s]),
        );
        if r.eliminated.contains(s) {
            l += &lang.t("  eliminated (over the limit)", "  éliminé (au-dessus de la limite)");
        }
        if r.reset.contains(s) {
            l += &lang.t("  exactly the limit: back to 0", "  pile la limite : retour à 0");
        }
        lines.push(l);
    }
    Some(Notice {
        title: lang.t(format!("End of round {}", r.number), format!("Fin de la manche {}", r.number)),
        lines,
    })
}

fn game_notice(v: &SevenView<'_>, human: Seat, lang: Lang) -> Notice {
    let w = v.winners();
    let list = w.iter().map(|&s| name(s, human, lang)).collect::<Vec<_>>().join(", ");
    let mut lines = vec![if w.len() == 1 {
        lang.t(format!("{list}: the last player left, the winner."), format!("{list} : seul en jeu, vainqueur."))
    } else {
        lang.t(
            format!("{list} share the victory with the lowest totals."),
            format!("{list} se partagent la victoire avec les plus petits totaux."),
        )
    }];
    lines.push(if w.contains(&human) {
        lang.t("You win!", "Vous avez gagné !")
    } else {
        lang.t("You lose.", "Vous avez perdu.")
    });
    let totals = v.totals();
    let mut order: Vec<Seat> = (0..v.players()).collect();
    order.sort_by_key(|&s| (!v.in_game().contains(s), totals[s]));
    for s in order {
        let out = if v.in_game().contains(s) { "" } else { lang.s(" (eliminated)", " (éliminé)") };
        lines.push(format!("  {:<6} {:>4}{out}", name(s, human, lang), totals[s]));
    }
    Notice { title: lang.t("End of the game", "Fin de la partie"), lines }
}

impl Table for SevenGame {
    fn typed_example(lang: Lang) -> &'static str {
        lang.s("8h:s, 3c!", "8c:p, 3t!")
    }

    fn game_seed(&self) -> u64 {
        self.seed()
    }
    fn next(&self, human: Seat) -> Next {
        // Answers to a call-out window stay hidden until all are in.
        bots_first(self.to_move(), human, || match self.view(human).call_out() {
            Some(w) => Ask::CallOut(w.offender),
            None => Ask::Turn,
        })
    }
    fn callout_action(offender: Seat) -> Option<Action> {
        Some(Action::CallOut(offender))
    }
    fn decline_action() -> Option<Action> {
        Some(Action::NoCall)
    }
    fn error_text(&self, e: &SevenError, lang: Lang) -> String {
        seven_error(e, lang)
    }
    fn parse(&self, seat: Seat, text: &str, lang: Lang) -> Result<Action, SevenError> {
        self.parse_action(seat, &crate::typing::seven(&english_words(text), lang))
    }
    fn action_label(&self, action: Action, lang: Lang) -> String {
        action_label(action, usize::MAX, lang)
    }
    fn choices(&self, human: Seat, ask: Ask, lang: Lang) -> Vec<Choice<Action>> {
        if let Ask::CallOut(o) = ask {
            return vec![
                Choice {
                    label: lang
                        .t(format!("call out {}", name(o, human, lang)), format!("dénoncer {}", name(o, human, lang))),
                    action: Action::CallOut(o),
                    legal: true,
                    in_hand: false,
                },
                Choice {
                    label: lang.t("let it go", "laisser passer"),
                    action: Action::NoCall,
                    legal: true,
                    in_hand: false,
                },
            ];
        }
        let mut legal = Vec::new();
        self.legal_actions(human, &mut legal);
        let hand = self.view(human).hand().unwrap_or_default();
        let mut out: Vec<Choice<Action>> = hand
            .iter()
            .map(|c| Choice {
                label: c.pretty(),
                action: Action::play(c),
                legal: legal.iter().any(|a| matches!(a, Action::Play { card, .. } if *card == c)),
                in_hand: true,
            })
            .collect();
        for a in legal {
            if !matches!(a, Action::Play { .. }) {
                out.push(Choice { label: action_label(a, human, lang), action: a, legal: true, in_hand: false });
            }
        }
        out
    }
    fn question(&self, human: Seat, ask: Ask, lang: Lang) -> String {
        let v = self.view(human);
        if let Ask::CallOut(o) = ask {
            return lang.t(
                format!(
                    "{} has one card left and did not announce it: call them out (they draw 4)?",
                    name(o, human, lang)
                ),
                format!(
                    "{} n'a plus qu'une carte et ne l'a pas annoncé : le dénoncer (il pioche 4) ?",
                    name(o, human, lang)
                ),
            );
        }
        let base = match v.mode() {
            TurnMode::Normal if self.playable().is_empty() => {
                lang.t("Your turn: you cannot play, draw a card.", "À vous : vous ne pouvez pas jouer, piochez.")
            }
            TurnMode::Normal => {
                let suit = v.active_suit().symbol();
                match (v.top().rank().text(), lang) {
                    ("8", Lang::En) => format!("Your turn: play a {suit} card or an 8."),
                    ("8", Lang::Fr) => format!("À vous : jouez une carte {suit} ou un 8."),
                    (rank, Lang::En) => format!("Your turn: play a {suit} card, {}, or an 8.", rank_phrase(rank, lang)),
                    (rank, Lang::Fr) => {
                        format!("À vous : jouez une carte {suit}, {} ou un 8.", rank_phrase(rank, lang))
                    }
                }
            }
            TurnMode::Penalty(p) => {
                let card = if p.kind == PenaltyKind::Two { lang.s("a 2", "un 2") } else { "A♠" };
                lang.t(
                    format!("Play {card} or draw {} cards.", p.cards()),
                    format!("Jouez {card} ou piochez {} cartes.", p.cards()),
                )
            }
            TurnMode::Lock { .. } => {
                lang.t("A 7 is pending: play a 7 or pass.", "Un 7 est en cours : jouez un 7 ou passez.")
            }
            TurnMode::FreePlay => {
                lang.t("Your 7 came back to you: play any card.", "Votre 7 est revenu : jouez n'importe quelle carte.")
            }
        };
        if v.hand().is_some_and(|h| h.len() == 2) {
            base + &lang.t(
                " Announce your last card (! or add ! to the card)!",
                " Annoncez votre dernière carte (! ou ajoutez ! à la carte) !",
            )
        } else {
            base
        }
    }

    fn narrate(
        before: &Self,
        after: &Self,
        seat: Seat,
        action: Action,
        human: Seat,
        lang: Lang,
    ) -> (Vec<String>, Vec<Notice>) {
        let vb = before.view(human);
        let va = after.view(human);
        let mut out = Vec::new();
        let mut notices = Vec::new();
        let who = name(seat, human, lang);
        let new_round = va.round() != vb.round() || va.is_over();
        match action {
            Action::Play { card, suit, announce } => {
                let mut l = match (seat == human, lang) {
                    (true, Lang::En) => format!("You play {}", card.pretty()),
                    (true, Lang::Fr) => format!("Vous jouez {}", card.pretty()),
                    (false, Lang::En) => format!("{who} plays {}", card.pretty()),
                    (false, Lang::Fr) => format!("{who} joue {}", card.pretty()),
                };
                if let Some(s) = suit {
                    l += &lang.t(format!(" and names {}", s.symbol()), format!(" et annonce {}", s.symbol()));
                }
                if announce {
                    l += &lang.t(" — last card!", " — dernière carte !");
                } else {
                    l += ".";
                }
                out.push(l);
                if !new_round {
                    match card.rank() {
                        Rank::Ten if va.clockwise() != vb.clockwise() => {
                            out.push(lang.t("The direction is reversed.", "Le sens du jeu est inversé."))
                        }
                        Rank::Jack | Rank::Ten => {
                            out.push(lang.t("The next player loses their turn.", "Le joueur suivant passe son tour."))
                        }
                        _ => {}
                    }
                    if va.hand_counts()[seat] == 1 && va.call_out().is_none() {
                        out.push(match (seat == human, lang) {
                            (true, Lang::En) => "You have one card left.".to_string(),
                            (true, Lang::Fr) => "Il ne vous reste qu'une carte.".to_string(),
                            (false, Lang::En) => format!("{who} has one card left."),
                            (false, Lang::Fr) => format!("{who} n'a plus qu'une carte."),
                        });
                    }
                }
            }
            Action::Draw => {
                let counts = |v: &SevenView<'_>| v.hand_counts()[seat];
                let n = if new_round { 0 } else { counts(&va).saturating_sub(counts(&vb)) };
                if seat == human && !new_round {
                    let got = CardSet(va.hand().unwrap_or_default().0 & !vb.hand().unwrap_or_default().0);
                    out.push(lang.t(
                        format!("You draw {n}: {}.", set_text(got)),
                        format!("Vous piochez {n} : {}.", set_text(got)),
                    ));
                } else {
                    out.push(lang.t(format!("{who} draws {n}."), format!("{who} pioche {n}.")));
                }
            }
            Action::Pass if seat == human => out.push(lang.t("You pass.", "Vous passez.")),
            Action::Pass => out.push(lang.t(format!("{who} passes."), format!("{who} passe."))),
            Action::CallOut(_) | Action::NoCall if seat == human => {
                out.push(lang.t("You have answered.", "Vous avez répondu."))
            }
            Action::CallOut(_) | Action::NoCall => {
                out.push(lang.t(format!("{who} has answered."), format!("{who} a répondu.")))
            }
        }
        // A call-out window closed: did anyone call?
        if let (Some(w), None) = (vb.call_out(), va.call_out())
            && !new_round
        {
            let o = w.offender;
            let on = name(o, human, lang);
            let called = va.hand_counts()[o] > vb.hand_counts()[o];
            out.push(match (called, o == human, lang) {
                (true, true, Lang::En) => "You were called out: you draw 4.".to_string(),
                (true, true, Lang::Fr) => "Vous avez été dénoncé : vous piochez 4.".to_string(),
                (true, false, Lang::En) => format!("{on} was called out and draws 4."),
                (true, false, Lang::Fr) => format!("{on} a été dénoncé et pioche 4."),
                (false, true, Lang::En) => "Nobody called you out.".to_string(),
                (false, true, Lang::Fr) => "Personne ne vous a dénoncé.".to_string(),
                (false, false, Lang::En) => format!("Nobody called out {on}."),
                (false, false, Lang::Fr) => format!("Personne n'a dénoncé {on}."),
            });
        }
        if let (None, Some(w)) = (vb.call_out(), va.call_out()) {
            let on = name(w.offender, human, lang);
            out.push(if w.offender == human {
                lang.t(
                    "You did not announce your last card: the others may call you out.",
                    "Vous n'avez pas annoncé votre dernière carte : les autres peuvent vous dénoncer.",
                )
            } else {
                lang.t(
                    format!("{on} did not announce the last card: everyone else may call them out."),
                    format!("{on} n'a pas annoncé sa dernière carte : les autres peuvent le dénoncer."),
                )
            });
        }
        if va.last_round_end().map(|r| r.number) != vb.last_round_end().map(|r| r.number)
            && let Some(n) = round_notice(&va, human, lang)
        {
            out.push(n.title.clone());
            notices.push(n);
        }
        if va.is_over() && !vb.is_over() {
            let n = game_notice(&va, human, lang);
            out.push(n.lines[0].clone());
            notices.push(n);
        }
        (out, notices)
    }

    fn title(&self, human: Seat, lang: Lang) -> String {
        title(self, human, lang)
    }
    fn draw_body(&self, f: &mut Frame, area: Rect, human: Seat, lang: Lang, log: &[String], log_back: usize) {
        draw_body(self, f, area, human, lang, log, log_back)
    }
    fn signs(&self, lang: Lang) -> Vec<String> {
        vec![
            lang.t("▸  whose turn it is", "▸  à qui c'est le tour"),
            lang.t("↻ ↺  the direction of play", "↻ ↺  le sens du jeu"),
            lang.t(
                "!  announces your last card with the play (the ! key, or type it after the card: 3c!)",
                "!  annonce votre dernière carte avec le coup (la touche !, ou tapez-le après la carte : 3t!)",
            ),
            lang.t(
                "✓ ✗ ↺  in the scores: went out, eliminated, back to 0",
                "✓ ✗ ↺  dans les scores : a fini, éliminé, retour à 0",
            ),
            lang.t(
                "[8♥]  the card under the cursor; bright cards can be played now, dim ones cannot; ♥ ♦ in red",
                "[8♥]  la carte sous le curseur ; les cartes vives sont jouables, les pâles non ; ♥ ♦ en rouge",
            ),
            lang.t(
                "'  the second of two identical cards (two decks); type it without '",
                "'  le second de deux exemplaires (deux jeux) ; tapez-le sans '",
            ),
        ]
    }
    fn refine(&self, human: Seat, action: Action, announce: bool, lang: Lang) -> Refine<Action> {
        let action = if announce { announced(self, human, action) } else { action };
        match needs_suit(action) {
            Some(card) => {
                let announce = matches!(action, Action::Play { announce: true, .. });
                Refine::More(
                    lang.t(
                        format!("{}: name the new suit.", card.pretty()),
                        format!("{} : annoncez la nouvelle couleur.", card.pretty()),
                    ),
                    eight_choices(card, announce),
                )
            }
            None => Refine::Ready(action),
        }
    }
    fn may_announce(&self, human: Seat) -> bool {
        leaves_one(self, human)
    }

    fn plain_state(&self, human: Seat, lang: Lang) -> Vec<String> {
        let v = self.view(human);
        let mut out = vec![lang.t(
            format!(
                "Round {}, top card {}, {} card(s) in the draw pile, {}.",
                v.round(),
                v.top().pretty(),
                v.draw_pile_len(),
                if v.clockwise() { "clockwise" } else { "counterclockwise" }
            ),
            format!(
                "Manche {}, carte du dessus {}, {} carte(s) dans la pioche, sens {}.",
                v.round(),
                v.top().pretty(),
                v.draw_pile_len(),
                if v.clockwise() { "horaire" } else { "anti-horaire" }
            ),
        )];
        out.push(mode_text(&v, human, lang));
        let totals = v.totals();
        for s in 0..v.players() {
            if !v.in_game().contains(s) {
                out.push(lang.t(
                    format!("  {:<6} eliminated, total {}", name(s, human, lang), totals[s]),
                    format!("  {:<6} éliminé, total {}", name(s, human, lang), totals[s]),
                ));
                continue;
            }
            out.push(lang.t(
                format!("  {:<6} {} card(s), total {}", name(s, human, lang), v.hand_counts()[s], totals[s]),
                format!("  {:<6} {} carte(s), total {}", name(s, human, lang), v.hand_counts()[s], totals[s]),
            ));
        }
        out.push(lang.t(
            format!("Your hand: {}", set_text(v.hand().unwrap_or_default())),
            format!("Votre main : {}", set_text(v.hand().unwrap_or_default())),
        ));
        out
    }
}

/// Whether playing `card` now leaves the human with one card (time to announce).
pub fn leaves_one(g: &SevenGame, human: Seat) -> bool {
    g.current() == human && g.hand(human).len() == 2
}

/// The action with its last-card announcement, if the engine allows one now.
pub fn announced(g: &SevenGame, human: Seat, a: Action) -> Action {
    match a {
        Action::Play { card, suit, .. } if leaves_one(g, human) => Action::Play { card, suit, announce: true },
        other => other,
    }
}

/// The four suit choices for an 8.
pub fn eight_choices(card: Card, announce: bool) -> Vec<Choice<Action>> {
    Suit::ALL
        .iter()
        .map(|&s| Choice {
            label: s.symbol().to_string(),
            action: Action::Play { card, suit: Some(s), announce },
            legal: true,
            in_hand: false,
        })
        .collect()
}

/// Whether an action is an 8 still to be given a suit.
pub fn needs_suit(a: Action) -> Option<Card> {
    match a {
        Action::Play { card, suit: None, .. } if card.rank() == Rank::Eight => Some(card),
        _ => None,
    }
}

/// The title line.
pub fn title(g: &SevenGame, human: Seat, lang: Lang) -> String {
    let v = g.view(human);
    let mut t = lang.t(format!("Seven · round {}", v.round()), format!("Seven · manche {}", v.round()));
    t += &format!(" · {} {}", lang.s("top", "dessus"), v.top().pretty());
    t += &format!(" · {} {}", lang.s("suit", "couleur"), v.active_suit().symbol());
    t += if v.clockwise() { " · ↻" } else { " · ↺" };
    t
}

/// Draw the table (everything but the hand, the prompt and the keys).
pub fn draw_body(g: &SevenGame, f: &mut Frame, area: Rect, human: Seat, lang: Lang, log: &[String], log_back: usize) {
    let v = g.view(human);
    let n = v.players() as u16;
    let [top, bottom] = Layout::vertical([Constraint::Length(n.max(5) + 3), Constraint::Min(3)]).areas(area);
    let width = scores::box_width(v.players(), bottom.width);
    let [left, logr] = Layout::horizontal([Constraint::Length(width), Constraint::Min(20)]).areas(bottom);
    let [players, pile] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
    let totals = v.totals();
    let (open, unann) = v.last_card();
    let current = v.current();
    let mut lines = vec![Line::styled(
        lang.t(format!("{:<8}{:>6}{:>7}", "", "cards", "total"), format!("{:<8}{:>6}{:>7}", "", "cartes", "total")),
        Style::default().fg(Color::DarkGray),
    )];
    for s in 0..v.players() {
        let turn = if current == Some(s) { "▸" } else { " " };
        let mut l = format!("{turn}{:<7}{:>6}{:>7}", name(s, human, lang), v.hand_counts()[s], totals[s]);
        if !v.in_game().contains(s) {
            l = format!(" {:<7}{:>6}{:>7}  {}", name(s, human, lang), "-", totals[s], lang.s("eliminated", "éliminé"));
        } else if open.contains(s) {
            l += if unann.contains(s) {
                lang.s("  1 card, not announced", "  1 carte, non annoncée")
            } else {
                lang.s("  last card!", "  dernière carte !")
            };
        }
        let style = if s == human { Style::default().add_modifier(Modifier::BOLD) } else { Style::default() };
        lines.push(Line::styled(l, style));
    }
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(lang.t(" Players ", " Joueurs "))),
        players,
    );

    let mut pl = vec![
        crate::tui::colored(
            &lang.t(format!(" top card: {}", v.top().pretty()), format!(" dessus : {}", v.top().pretty())),
            Style::default().add_modifier(Modifier::BOLD),
        ),
        Line::from(lang.t(
            format!(" active suit: {}", v.active_suit().symbol()),
            format!(" couleur demandée : {}", v.active_suit().symbol()),
        )),
        Line::from(lang.t(format!(" draw pile: {}", v.draw_pile_len()), format!(" pioche : {}", v.draw_pile_len()))),
        Line::from(lang.t(
            format!(" direction: {}", if v.clockwise() { "clockwise ↻" } else { "counterclockwise ↺" }),
            format!(" sens : {}", if v.clockwise() { "horaire ↻" } else { "anti-horaire ↺" }),
        )),
    ];
    if v.penalty().is_some() || v.seven_lock().is_some() {
        pl.push(Line::styled(format!(" {}", mode_text(&v, human, lang)), Style::default().fg(Color::Yellow)));
    }
    let played = v.played();
    let recent: Vec<String> =
        played.iter().rev().take(6).rev().map(|(s, c)| format!("{} {}", name(*s, human, lang), c.pretty())).collect();
    if !recent.is_empty() {
        pl.push(crate::tui::colored(&format!(" {}", recent.join(", ")), Style::default()));
    }
    f.render_widget(
        Paragraph::new(pl)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(lang.t(" Pile ", " Talon "))),
        pile,
    );
    scores::draw(f, left, lang.t(" Scores ", " Scores "), &score_table(g, human, lang));
    crate::tui::draw_log(f, logr, log, lang, log_back);
}

/// Every finished round, oldest first. The view tells only the last one
/// ([`SevenView::last_round_end`]), so the others are read from the record's round results:
/// who went out, the points, totals, eliminations and drops to 0, which every seat saw (hands
/// are counted face up at the end of a round). Nothing else of the record is read.
pub fn round_ends(g: &SevenGame) -> Vec<RoundEnd> {
    let record = g.record();
    let Some(rounds) = record["rounds"].as_array() else { return Vec::new() };
    let ints =
        |v: &Value| -> Vec<i64> { v.as_array().map_or(Vec::new(), |a| a.iter().filter_map(Value::as_i64).collect()) };
    let seats = |v: &Value| {
        let mut set = SeatSet::EMPTY;
        for s in ints(v) {
            set.insert(s as Seat);
        }
        set
    };
    rounds
        .iter()
        .filter(|r| !r["points"].is_null())
        .map(|r| RoundEnd {
            number: r["number"].as_u64().unwrap_or(0) as u32,
            seats_in: seats(&r["seats_in"]),
            out: r["out"].as_u64().map(|s| s as Seat),
            points: ints(&r["points"]),
            totals: ints(&r["totals"]),
            eliminated: seats(&r["eliminated"]),
            reset: seats(&r["reset"]),
        })
        .collect()
}

/// The score table by round: each round's points (`-` for a seat already out of the game),
/// marked `✓` for the player who went out, `✗` for one eliminated by the round, `↺` for one
/// whose total hit the limit and dropped to 0.
pub fn score_table(g: &SevenGame, human: Seat, lang: Lang) -> ScoreTable {
    let v = g.view(human);
    let n = v.players();
    let cell = |r: &RoundEnd, s: Seat| {
        if !r.seats_in.contains(s) {
            return Cell { text: "-".into(), mark: ' ' };
        }
        let mark = if r.out == Some(s) {
            '✓'
        } else if r.eliminated.contains(s) {
            '✗'
        } else if r.reset.contains(s) {
            '↺'
        } else {
            ' '
        };
        Cell { text: r.points[s].to_string(), mark }
    };
    ScoreTable {
        names: (0..n).map(|s| name(s, human, lang)).collect(),
        rounds: round_ends(g).iter().map(|r| (r.number, (0..n).map(|s| cell(r, s)).collect())).collect(),
        totals: v.totals(),
        legend: Some(lang.t("✓ out  ✗ elim.  ↺ to 0", "✓ fini  ✗ élim.  ↺ à 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::rank_phrase;
    use crate::Lang;

    /// No "a A": every rank takes its own article in each language.
    #[test]
    fn ranks_take_their_article() {
        assert_eq!(rank_phrase("A", Lang::En), "an ace");
        assert_eq!(rank_phrase("8", Lang::En), "an 8");
        assert_eq!(rank_phrase("5", Lang::En), "a 5");
        assert_eq!(rank_phrase("Q", Lang::Fr), "une dame");
        assert_eq!(rank_phrase("10", Lang::Fr), "un 10");
    }
}
