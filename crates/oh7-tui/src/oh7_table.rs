//! The Oh 7 family at the terminal: choices, questions, narration and the table screen, all
//! made from the human's [`SeatView`] (never from the state).

use oh7_core::card::{Card, CardSet, Suit};
use oh7_core::game::{Game, Seat, SeatSet};
use oh7_core::oh7::{Action, Oh7Game, PhaseView, RuleError, SeatView, Trick};
use oh7_core::ruleset::{DeckStyle, EndRule, Scoring};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::lang::{Lang, Symbols, oh7_error};
use crate::scores::{self, Cell, ScoreTable};
use crate::session::{Ask, Choice, Next, Notice, Table, bots_first};

/// The ruleset's card symbols.
pub fn symbols(v: &SeatView<'_>) -> Symbols {
    Symbols { fifth: v.rules().fifth_symbol(), mark: v.rules().mark_symbol() }
}

fn pretty(v: &SeatView<'_>, c: Card) -> String {
    c.pretty(v.rules().fifth_symbol(), v.rules().mark_symbol())
}

fn pretty_set(v: &SeatView<'_>, s: CardSet) -> String {
    s.iter().map(|c| pretty(v, c)).collect::<Vec<_>>().join(" ")
}

fn suit_sym(v: &SeatView<'_>, s: Suit) -> String {
    s.symbol(v.rules().fifth_symbol()).to_string()
}

/// A seat's name: `You`, `P1`, `Dummy`.
pub fn name(v: &SeatView<'_>, seat: Seat, human: Seat, lang: Lang) -> String {
    if Some(seat) == v.dummy() {
        lang.t("Dummy", "Pantin")
    } else if seat == human {
        lang.t("You", "Vous")
    } else {
        format!("P{seat}")
    }
}

fn names(v: &SeatView<'_>, seats: SeatSet, human: Seat, lang: Lang) -> String {
    seats.iter().map(|s| name(v, s, human, lang)).collect::<Vec<_>>().join(", ")
}

/// The leader and trump, the plays and the completed tricks of a round.
type RoundSoFar = (Option<(Seat, Suit)>, Vec<(Seat, Card)>, Vec<Trick>);

fn play_line(v: &SeatView<'_>, s: Seat, c: Card, human: Seat, lang: Lang) -> String {
    let card = pretty(v, c);
    match (s == human, lang) {
        (true, Lang::En) => format!("You play {card}."),
        (true, Lang::Fr) => format!("Vous jouez {card}."),
        (false, Lang::En) => format!("{} plays {card}.", name(v, s, human, lang)),
        (false, Lang::Fr) => format!("{} joue {card}.", name(v, s, human, lang)),
    }
}

/// `P2 wins trick 3` / `Vous remportez le pli 3`: the sentence per language and person.
fn won_trick_line(v: &SeatView<'_>, winner: Seat, k: usize, human: Seat, lang: Lang) -> String {
    let w = name(v, winner, human, lang);
    match (winner == human, lang) {
        (true, Lang::En) => format!("You win trick {k}"),
        (true, Lang::Fr) => format!("Vous remportez le pli {k}"),
        (false, Lang::En) => format!("{w} wins trick {k}"),
        (false, Lang::Fr) => format!("{w} remporte le pli {k}"),
    }
}

fn round_plays(tricks: &[Trick], current: &Trick) -> Vec<(Seat, Card)> {
    tricks.iter().chain(std::iter::once(current)).flat_map(|t| t.plays().collect::<Vec<_>>()).collect()
}

/// Why the game goes on after a round at or past the minimum (en, kod7) or without a winner
/// (fr): the end rule, in words. `None` before the minimum number of rounds.
pub fn why_one_more_round(v: &SeatView<'_>, human: Seat, lang: Lang) -> Option<String> {
    let rules = v.rules();
    let last = v.past_rounds().pop()?;
    let n = v.players();
    let totals = v.totals();
    let top = totals.iter().copied().max().unwrap_or(0);
    let tops: Vec<Seat> = (0..n).filter(|&p| totals[p] == top).collect();
    let made = |p: Seat| last.bets[p] == last.won[p];
    let who = |p: Seat| name(v, p, human, lang);
    match rules.end {
        EndRule::MinRounds | EndRule::MinRoundsStrict => {
            if last.number < rules.rounds {
                return None;
            }
            Some(if tops.len() == 1 {
                let p = tops[0];
                lang.t(
                    format!("{} leads with {top} but failed the last bet: one more round.", who(p)),
                    format!("{} mène avec {top} mais a échoué son dernier pari : une manche de plus.", who(p)),
                )
            } else {
                let list = tops.iter().map(|&p| who(p)).collect::<Vec<_>>().join(", ");
                let failed = tops.iter().any(|&p| !made(p));
                match (failed, lang) {
                    (true, Lang::En) => {
                        format!("Tie for the lead ({list}, {top}) and one of them failed the last bet: one more round.")
                    }
                    (true, Lang::Fr) => format!(
                        "Égalité en tête ({list}, {top}) et l'un d'eux a échoué son dernier pari : une manche de plus."
                    ),
                    (false, Lang::En) => format!("Tie for the lead ({list}, {top}): one more round."),
                    (false, Lang::Fr) => format!("Égalité en tête ({list}, {top}) : une manche de plus."),
                }
            })
        }
        EndRule::Target => {
            let target = rules.target.unwrap_or(35);
            Some(lang.t(
                format!("Nobody reached {target} points with a made bet: one more round."),
                format!("Personne n'a atteint {target} points à la suite d'un pari réussi : une manche de plus."),
            ))
        }
        EndRule::FixedRounds => None,
    }
}

/// Why the game ended, in words.
pub fn why_over(v: &SeatView<'_>, human: Seat, lang: Lang) -> String {
    let rules = v.rules();
    let w = v.winners();
    let list = w.iter().map(|&p| name(v, p, human, lang)).collect::<Vec<_>>().join(", ");
    let totals = v.totals();
    let score = w.first().map_or(0, |&p| totals[p]);
    let shared = w.len() > 1;
    let tie_break = {
        let top = totals.iter().copied().max().unwrap_or(0);
        totals.iter().filter(|&&t| t == top).count() > w.len()
    };
    match (rules.end, shared, lang) {
        (_, true, Lang::En) => format!("{list} share the victory with {score} points."),
        (_, true, Lang::Fr) => format!("{list} se partagent la victoire avec {score} points."),
        (EndRule::Target, false, Lang::En) => {
            format!("{list} reached {} with a made bet ({score} points).", rules.target.unwrap_or(35))
        }
        (EndRule::Target, false, Lang::Fr) => {
            format!("{list} a atteint {} à la suite d'un pari réussi ({score} points).", rules.target.unwrap_or(35))
        }
        (_, false, Lang::En) if tie_break => format!("{list} wins the tie with the most made bets ({score} points)."),
        (_, false, Lang::Fr) if tie_break => {
            format!("{list} gagne l'égalité avec le plus de paris réussis ({score} points).")
        }
        (EndRule::FixedRounds, false, Lang::En) => {
            format!("{list} has the highest score after {} rounds ({score}).", rules.rounds)
        }
        (EndRule::FixedRounds, false, Lang::Fr) => {
            format!("{list} a le meilleur score après {} manches ({score}).", rules.rounds)
        }
        (_, false, Lang::En) => format!("{list} has the highest score ({score}) and made the last bet."),
        (_, false, Lang::Fr) => format!("{list} a le meilleur score ({score}) et a réussi son dernier pari."),
    }
}

fn end_of_round_notice(v: &SeatView<'_>, human: Seat, lang: Lang) -> Option<Notice> {
    let last = v.past_rounds().pop()?;
    let n = v.players();
    let mut lines = Vec::new();
    let fmt_trump = suit_sym(v, last.trump);
    if let Some(t) = v.last_round_tricks().last() {
        let plays: Vec<String> =
            t.plays().map(|(s, c)| format!("{} {}", name(v, s, human, lang), pretty(v, c))).collect();
        let k = v.last_round_tricks().len();
        let won = won_trick_line(v, t.winner(), k, human, lang);
        lines.push(lang.t(format!("{won}: {}.", plays.join(", ")), format!("{won} : {}.", plays.join(", "))));
    }
    lines.push(lang.t(
        format!("First leader {}, trump {fmt_trump}.", name(v, last.first_leader, human, lang)),
        format!("Premier meneur : {}, atout {fmt_trump}.", name(v, last.first_leader, human, lang)),
    ));
    let basket: i32 = (0..n).map(|p| (last.bets[p] as i32 - last.won[p] as i32).abs()).sum();
    for p in 0..v.table_seats() {
        let nm = name(v, p, human, lang);
        let (bet, won) = (last.bets[p], last.won[p]);
        if Some(p) == v.dummy() {
            lines.push(lang.t(
                format!("  {nm:<8} bet {bet}, won {won} (the Dummy scores nothing)"),
                format!("  {nm:<8} pari {bet}, plis {won} (le Pantin ne marque rien)"),
            ));
            continue;
        }
        let made = bet == won;
        let pts = last.points[p];
        let card = last.bet_cards.get(p).map(|&c| pretty(v, c)).unwrap_or_default();
        let result = match (made, lang) {
            (true, Lang::En) => "made".to_string(),
            (true, Lang::Fr) => "réussi".to_string(),
            (false, Lang::En) => format!("failed by {}", (bet as i32 - won as i32).abs()),
            (false, Lang::Fr) => format!("raté de {}", (bet as i32 - won as i32).abs()),
        };
        lines.push(lang.t(
            format!("  {nm:<8} bet {bet} ({card}), won {won}: {result}, {pts:+} → {}", v.totals()[p]),
            format!("  {nm:<8} pari {bet} ({card}), plis {won} : {result}, {pts:+} → {}", v.totals()[p]),
        ));
    }
    if v.rules().scoring != Scoring::BidPlusTwo {
        lines.push(lang.t(format!("Basket: {basket}."), format!("Panier : {basket}.")));
    }
    if last.bonus.iter().any(|&b| b != 0) {
        let b: Vec<String> = (0..n)
            .filter(|&p| last.bonus[p] != 0)
            .map(|p| format!("{} +{}", name(v, p, human, lang), last.bonus[p]))
            .collect();
        lines.push(lang.t(format!("Rebid bonus: {}.", b.join(", ")), format!("Bonus de relance : {}.", b.join(", "))));
    }
    if let Some(why) = why_one_more_round(v, human, lang).filter(|_| v.phase() != PhaseView::Over) {
        lines.push(why);
    }
    let title = lang.t(format!("End of round {}", last.number), format!("Fin de la manche {}", last.number));
    Some(Notice { title, lines })
}

fn end_of_game_notice(v: &SeatView<'_>, human: Seat, lang: Lang) -> Notice {
    let mut lines = vec![why_over(v, human, lang)];
    let w = v.winners();
    lines.push(if w.contains(&human) {
        lang.t("You win!", "Vous avez gagné !")
    } else {
        lang.t("You lose.", "Vous avez perdu.")
    });
    let mut order: Vec<Seat> = (0..v.players()).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(v.totals()[p]));
    for p in order {
        lines.push(lang.t(
            format!("  {:<8} {:>4} points, {} made bet(s)", name(v, p, human, lang), v.totals()[p], v.made_bets()[p]),
            format!(
                "  {:<8} {:>4} points, {} pari(s) réussi(s)",
                name(v, p, human, lang),
                v.totals()[p],
                v.made_bets()[p]
            ),
        ));
    }
    Notice { title: lang.t("End of the game", "Fin de la partie"), lines }
}

/// The bet attempts of an abandoned deal, from the record (bet cards are revealed to everyone).
fn redeal_attempt(after: &Oh7Game) -> Option<Vec<Card>> {
    let rec = after.record();
    let round = rec["rounds"].as_array()?.last()?;
    let attempt = round["redeals"].as_array()?.last()?["bet_attempts"].as_array()?.last()?.clone();
    serde_json::from_value(attempt).ok()
}

fn attempt_line(v: &SeatView<'_>, k: usize, cards: &[Card], human: Seat, lang: Lang) -> String {
    let mut sum: u32 = cards.iter().map(|c| c.value() as u32).sum();
    let mut parts: Vec<String> =
        cards.iter().enumerate().map(|(p, &c)| format!("{} {}", name(v, p, human, lang), pretty(v, c))).collect();
    if let Some(d) = v.dummy() {
        parts.push(format!("{} 2", name(v, d, human, lang)));
        sum += 2;
    }
    lang.t(
        format!("Attempt {k}: {} (sum {sum})", parts.join(", ")),
        format!("Tentative {k} : {} (total {sum})", parts.join(", ")),
    )
}

impl Table for Oh7Game {
    fn typed_example(lang: Lang) -> &'static str {
        lang.s("3h, *2", "3c, *2")
    }

    fn game_seed(&self) -> u64 {
        self.seed()
    }
    fn next(&self, human: Seat) -> Next {
        bots_first(self.to_move(), human, || Ask::Turn)
    }
    fn callout_action(_offender: Seat) -> Option<Action> {
        None
    }
    fn seat_name(&self, seat: Seat, human: Seat, lang: Lang) -> String {
        name(&self.view(human), seat, human, lang)
    }
    fn error_text(&self, e: &RuleError, lang: Lang) -> String {
        oh7_error(e, lang, symbols(&self.view(0)))
    }
    fn parse(&self, seat: Seat, text: &str, lang: Lang) -> Result<Action, RuleError> {
        self.parse_action(seat, &crate::typing::oh7(text, lang, self.view(seat).hand()))
    }
    fn action_label(&self, action: Action, lang: Lang) -> String {
        let v = self.view(0);
        match action {
            Action::Pass(s) => lang.t(format!("pass {}", pretty_set(&v, s)), format!("passer {}", pretty_set(&v, s))),
            Action::Bet(c) => lang.t(format!("bet {}", pretty(&v, c)), format!("parier {}", pretty(&v, c))),
            Action::Play(c) => lang.t(format!("play {}", pretty(&v, c)), format!("jouer {}", pretty(&v, c))),
            Action::Reveal(b) => {
                let mark = v.rules().mark_symbol();
                match (b, lang) {
                    (true, Lang::En) => format!("reveal {mark}"),
                    (true, Lang::Fr) => format!("révéler {mark}"),
                    (false, Lang::En) => format!("keep {mark} hidden"),
                    (false, Lang::Fr) => format!("garder {mark} caché"),
                }
            }
            Action::ChooseLeader(s) => lang.t(format!("P{s} leads first"), format!("P{s} joue en premier")),
            Action::ChooseTrump(s) | Action::AnnounceTrump(s) => {
                lang.t(format!("trump {}", suit_sym(&v, s)), format!("atout {}", suit_sym(&v, s)))
            }
        }
    }
    fn action_typed(&self, action: Action, lang: Lang) -> String {
        let text = match action {
            Action::Pass(s) => s.to_string(),
            Action::Bet(c) | Action::Play(c) => c.to_string(),
            Action::Reveal(b) => lang.s(if b { "yes" } else { "no" }, if b { "oui" } else { "non" }).to_string(),
            Action::ChooseLeader(s) => s.to_string(),
            Action::ChooseTrump(s) | Action::AnnounceTrump(s) => s.to_string(),
        };
        crate::typing::oh7_shown(&text, lang)
    }
    fn choices(&self, human: Seat, _ask: Ask, lang: Lang) -> Vec<Choice<Action>> {
        let v = self.view(human);
        let mut legal = Vec::new();
        self.legal_actions(human, &mut legal);
        let hand = v.hand();
        let card_choices = |f: fn(Card) -> Action| -> Vec<Choice<Action>> {
            hand.iter()
                .map(|c| Choice { label: pretty(&v, c), action: f(c), legal: legal.contains(&f(c)), in_hand: true })
                .collect()
        };
        match v.phase() {
            PhaseView::Passing { .. } => hand
                .iter()
                .map(|c| Choice { label: pretty(&v, c), action: Action::Pass(c.bit()), legal: true, in_hand: true })
                .collect(),
            PhaseView::Betting { .. } => card_choices(Action::Bet),
            PhaseView::Playing => card_choices(Action::Play),
            PhaseView::Over => Vec::new(),
            _ => {
                // Tie-breaks: the hand stays in view (shown, not playable), then the options.
                let mut out: Vec<Choice<Action>> = hand
                    .iter()
                    .map(|c| Choice { label: pretty(&v, c), action: Action::Play(c), legal: false, in_hand: true })
                    .collect();
                out.extend(legal.iter().map(|&a| Choice {
                    label: match a {
                        Action::Reveal(true) => lang.t("yes", "oui"),
                        Action::Reveal(false) => lang.t("no", "non"),
                        Action::ChooseLeader(s) => name(&v, s, human, lang),
                        Action::ChooseTrump(s) | Action::AnnounceTrump(s) => suit_sym(&v, s),
                        other => other.to_string(),
                    },
                    action: a,
                    legal: true,
                    in_hand: false,
                }));
                out
            }
        }
    }
    fn question(&self, human: Seat, _ask: Ask, lang: Lang) -> String {
        let v = self.view(human);
        let mark = v.rules().mark_symbol();
        match v.phase() {
            PhaseView::Passing { count, to_left } => {
                let to = if to_left { (human + 1) % v.players() } else { (human + v.players() - 1) % v.players() };
                lang.t(
                    format!("Choose {count} card(s) to pass to {} (Space marks a card).", name(&v, to, human, lang)),
                    format!(
                        "Choisissez {count} carte(s) à passer à {} (Espace marque une carte).",
                        name(&v, to, human, lang)
                    ),
                )
            }
            PhaseView::Betting { attempt } if attempt > 1 => lang.t(
                format!("Attempt {attempt}: the bets summed to 7, bet again with a card not used before."),
                format!("Tentative {attempt} : les paris faisaient 7, pariez de nouveau avec une autre carte."),
            ),
            PhaseView::Betting { .. } => lang.t(
                "Your bet: choose a card; its value is the number of tricks you will win exactly.",
                "Votre pari : choisissez une carte ; sa valeur est le nombre exact de plis à remporter.",
            ),
            PhaseView::Reveal { tied } => lang.t(
                format!("Tie for first leader ({}): reveal {mark} to lead?", names(&v, tied, human, lang)),
                format!(
                    "Égalité pour jouer en premier ({}) : révéler {mark} pour commencer ?",
                    names(&v, tied, human, lang)
                ),
            ),
            PhaseView::ChooseLeader { among, .. } => lang.t(
                format!("You hold {mark}: choose the first leader among {}.", names(&v, among, human, lang)),
                format!("Vous avez {mark} : choisissez le premier meneur parmi {}.", names(&v, among, human, lang)),
            ),
            PhaseView::ChooseTrump { .. } => lang.t(
                "You lead first with a ★ bet: choose the trump suit.",
                "Vous commencez avec un pari ★ : choisissez l'atout.",
            ),
            PhaseView::AnnounceTrump { tied } => lang.t(
                format!("All bets are ★ and tied ({}): announce a trump suit.", names(&v, tied, human, lang)),
                format!("Tous les paris sont ★ et à égalité ({}) : annoncez un atout.", names(&v, tied, human, lang)),
            ),
            PhaseView::Playing => {
                let t = v.trick();
                match t.lead_suit() {
                    None if t.is_empty() => lang.t("Your lead: play any card.", "À vous d'entamer : jouez une carte."),
                    None => lang.t(
                        "Your turn: no lead suit yet, play any card.",
                        "À vous : pas encore de couleur appelée, jouez une carte.",
                    ),
                    Some(s) if !matches!(v.rules().deck, DeckStyle::Advanced | DeckStyle::Kod7) => lang.t(
                        format!("Your turn: follow {} if you can.", suit_sym(&v, s)),
                        format!("À vous : fournissez {} si vous pouvez.", suit_sym(&v, s)),
                    ),
                    Some(s) => lang.t(
                        format!("Your turn: follow {} if you can (★ {mark} Ø may always be played).", suit_sym(&v, s)),
                        format!(
                            "À vous : fournissez {} si vous pouvez (★ {mark} Ø se jouent toujours).",
                            suit_sym(&v, s)
                        ),
                    ),
                }
            }
            PhaseView::Over => lang.t("The game is over.", "La partie est finie."),
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
        let who = name(&va, seat, human, lang);
        match action {
            Action::Bet(c) if seat == human => out.push(lang.t(
                format!("You bet {} (face down).", pretty(&va, c)),
                format!("Vous pariez {} (face cachée).", pretty(&va, c)),
            )),
            Action::Bet(_) => {
                out.push(lang.t(format!("{who} has chosen a bet card."), format!("{who} a choisi sa carte de pari.")))
            }
            Action::Pass(_) if seat != human => out.push(
                lang.t(format!("{who} has chosen cards to pass."), format!("{who} a choisi ses cartes à passer.")),
            ),
            Action::ChooseLeader(s) => out.push(lang.t(
                format!("{who} chooses {} to lead first.", name(&va, s, human, lang)),
                format!("{who} choisit {} pour commencer.", name(&va, s, human, lang)),
            )),
            Action::ChooseTrump(s) => out.push(lang.t(
                format!("{who} chooses {} as trump.", suit_sym(&va, s)),
                format!("{who} choisit {} comme atout.", suit_sym(&va, s)),
            )),
            _ => {}
        }
        let same_round = va.round_number() == vb.round_number() && va.phase() != PhaseView::Over;
        // Passing done.
        if matches!(vb.phase(), PhaseView::Passing { .. }) && !matches!(va.phase(), PhaseView::Passing { .. }) {
            let (p, r) = va.my_passes();
            out.push(lang.t(
                format!("Cards passed: you gave {}, you received {}.", pretty_set(&va, p), pretty_set(&va, r)),
                format!("Cartes passées : vous avez donné {}, reçu {}.", pretty_set(&va, p), pretty_set(&va, r)),
            ));
        }
        // Bets revealed.
        if same_round && va.redeals() > vb.redeals() {
            if let Some(cards) = redeal_attempt(after) {
                let k = vb.bet_attempts().len() + 1;
                out.push(attempt_line(&va, k, &cards, human, lang));
            }
            out.push(lang.t(
                "The bets summed to 7 once too often: the round is dealt again (scores unchanged).",
                "Les paris ont fait 7 une fois de trop : la manche est redistribuée (scores inchangés).",
            ));
        } else if same_round || !va.past_rounds().is_empty() {
            let (ab, aa) = (vb.bet_attempts(), if same_round { va.bet_attempts() } else { Vec::new() });
            for (k, a) in aa.iter().enumerate().skip(ab.len()) {
                out.push(attempt_line(&va, k + 1, a, human, lang));
                if matches!(va.phase(), PhaseView::Betting { .. }) {
                    out.push(lang.t(
                        "The bets sum to 7: everyone bets again with another card.",
                        "Les paris font 7 : tout le monde parie de nouveau avec une autre carte.",
                    ));
                }
            }
        }
        if va.bonus() != vb.bonus() && same_round {
            for p in 0..va.players() {
                if va.bonus()[p] > vb.bonus()[p] {
                    out.push(lang.t(
                        format!("{} has the top bid of a sum of 7: +1 point.", name(&va, p, human, lang)),
                        format!("{} a le plus fort pari d'un total de 7 : +1 point.", name(&va, p, human, lang)),
                    ));
                }
            }
        }
        // Tie-breaks.
        if same_round && std::mem::discriminant(&va.phase()) != std::mem::discriminant(&vb.phase()) {
            let mark = va.rules().mark_symbol();
            match va.phase() {
                PhaseView::Reveal { tied } => out.push(lang.t(
                    format!(
                        "Tie for first leader: {}; whoever holds {mark} among them may reveal it.",
                        names(&va, tied, human, lang)
                    ),
                    format!(
                        "Égalité pour commencer : {} ; celui qui a {mark} peut le révéler.",
                        names(&va, tied, human, lang)
                    ),
                )),
                PhaseView::ChooseLeader { chooser, among } => out.push(lang.t(
                    format!(
                        "Tie for first leader: {}. {} reveals {mark} and chooses.",
                        names(&va, among, human, lang),
                        name(&va, chooser, human, lang)
                    ),
                    format!(
                        "Égalité pour commencer : {}. {} révèle {mark} et choisit.",
                        names(&va, among, human, lang),
                        name(&va, chooser, human, lang)
                    ),
                )),
                PhaseView::ChooseTrump { leader } => out.push(lang.t(
                    format!("All bets are ★: {} leads first and chooses the trump.", name(&va, leader, human, lang)),
                    format!("Tous les paris sont ★ : {} commence et choisit l'atout.", name(&va, leader, human, lang)),
                )),
                PhaseView::AnnounceTrump { tied } => out.push(lang.t(
                    format!("All bets are ★ and tied: {} announce a suit.", names(&va, tied, human, lang)),
                    format!(
                        "Tous les paris sont ★ et à égalité : {} annoncent une couleur.",
                        names(&va, tied, human, lang)
                    ),
                )),
                _ => {}
            }
        }
        if same_round
            && vb.revealed_interrobang().is_none()
            && let Some(r) = va.revealed_interrobang()
        {
            let mark = va.rules().mark_symbol();
            out.push(lang.t(
                format!("{} reveals {mark}.", name(&va, r, human, lang)),
                format!("{} révèle {mark}.", name(&va, r, human, lang)),
            ));
        }
        let started = vb.leader_and_trump().is_none();
        let leader_now = if same_round { va.leader_and_trump() } else { None };
        let (leader_trump, plays_after, tricks_after): RoundSoFar = if same_round {
            (leader_now, round_plays(va.tricks(), va.trick()), va.tricks().to_vec())
        } else {
            let last = va.past_rounds().pop();
            (
                last.map(|r| (r.first_leader, r.trump)),
                round_plays(va.last_round_tricks(), &Trick::EMPTY),
                va.last_round_tricks().to_vec(),
            )
        };
        if started && let Some((l, t)) = leader_trump {
            let ts = suit_sym(&va, t);
            out.push(match (l == human, lang) {
                (true, Lang::En) => format!("You lead first; trump is {ts}."),
                (true, Lang::Fr) => format!("Vous commencez ; l'atout est {ts}."),
                (false, Lang::En) => format!("{} leads first; trump is {ts}.", name(&va, l, human, lang)),
                (false, Lang::Fr) => format!("{} commence ; l'atout est {ts}.", name(&va, l, human, lang)),
            });
            if va.dummy().is_some() {
                let up = if same_round { va.dummy_faceup() } else { CardSet::EMPTY };
                if !up.is_empty() {
                    out.push(lang.t(
                        format!("The Dummy turns up {}.", pretty_set(&va, up)),
                        format!("Le Pantin retourne {}.", pretty_set(&va, up)),
                    ));
                }
            }
        }
        let plays_before =
            if vb.leader_and_trump().is_some() { round_plays(vb.tricks(), vb.trick()) } else { Vec::new() };
        let tricks_before = vb.tricks().len();
        let mut count = 0;
        for (i, t) in tricks_after.iter().enumerate() {
            for (s, c) in t.plays() {
                if count >= plays_before.len() {
                    out.push(play_line(&va, s, c, human, lang));
                }
                count += 1;
            }
            if i >= tricks_before {
                out.push(won_trick_line(&va, t.winner(), i + 1, human, lang) + ".");
            }
        }
        for &(s, c) in plays_after.iter().skip(count.max(plays_before.len())) {
            out.push(play_line(&va, s, c, human, lang));
        }
        if !same_round && let Some(n) = end_of_round_notice(&va, human, lang) {
            out.push(n.title.clone());
            notices.push(n);
        }
        if va.phase() == PhaseView::Over && vb.phase() != PhaseView::Over {
            let n = end_of_game_notice(&va, human, lang);
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
    fn trick_just_completed(&self) -> bool {
        let v = self.view(0);
        v.phase() == PhaseView::Playing && v.trick().is_empty() && !v.tricks().is_empty()
    }
    fn question_mark_is_a_card(&self) -> bool {
        self.view(0).rules().deck(self.players()).contains(&Card::INTERROBANG)
    }
    fn min_size(&self) -> (u16, u16) {
        // Title 1, players box seats + 3, scores and log at least 4, hand 3, prompt 3, keys 1.
        (64, self.view(0).table_seats() as u16 + 15)
    }
    fn signs(&self, lang: Lang) -> Vec<String> {
        let v = self.view(0);
        let mut out = vec![
            lang.t("▸  whose turn it is", "▸  à qui c'est le tour"),
            lang.t(
                "✓  in the bet column: has chosen a bet card (face down); in the scores: bet made",
                "✓  colonne pari : a choisi sa carte (face cachée) ; dans les scores : pari réussi",
            ),
            lang.t("…  has not chosen yet", "…  n'a pas encore choisi"),
            lang.t(
                "[3♠]  the card under the cursor; *3♠*  a card marked to pass (Space)",
                "[3♠]  la carte sous le curseur ; *3♠*  une carte marquée à passer (Espace)",
            ),
            lang.t(
                "bright cards can be played now, dim ones cannot; ♥ ♦ in red",
                "les cartes vives sont jouables, les cartes pâles non ; ♥ ♦ en rouge",
            ),
        ];
        if v.rules().copies(self.players()) == 2 || matches!(v.rules().deck, DeckStyle::Advanced | DeckStyle::Kod7) {
            out.push(lang.t(
                "'  the second of two identical cards (3♠'); type it without ' when you hold only that one",
                "'  le second de deux exemplaires (3♠') ; tapez-le sans ' si vous n'avez que lui",
            ));
        }
        if self.question_mark_is_a_card() {
            let mark = v.rules().mark_symbol();
            out.push(lang.t(
                format!("{mark}  the {mark} card: type ? to play it (F1 opens the rules)"),
                format!("{mark}  la carte {mark} : tapez ? pour la jouer (F1 ouvre les règles)"),
            ));
        }
        out
    }
    fn merge(&self, actions: &[Action]) -> Option<Action> {
        let mut set = CardSet::EMPTY;
        for a in actions {
            let Action::Pass(s) = a else { return None };
            set = set.or(*s);
        }
        Some(Action::Pass(set))
    }

    fn plain_state(&self, human: Seat, lang: Lang) -> Vec<String> {
        let v = self.view(human);
        let mut out = Vec::new();
        let mut head = lang.t(
            format!("Round {} ({} preset)", v.round_number(), v.rules().preset),
            format!("Manche {} (règles {})", v.round_number(), v.rules().preset),
        );
        if let Some((l, t)) = v.leader_and_trump() {
            head += &lang.t(
                format!(", first leader {}, trump {}", name(&v, l, human, lang), suit_sym(&v, t)),
                format!(", premier meneur {}, atout {}", name(&v, l, human, lang), suit_sym(&v, t)),
            );
        }
        if let Some(s) = v.trick().lead_suit() {
            head +=
                &lang.t(format!(", lead suit {}", suit_sym(&v, s)), format!(", couleur appelée {}", suit_sym(&v, s)));
        }
        out.push(head + ".");
        for (k, a) in v.bet_attempts().iter().enumerate() {
            out.push(attempt_line(&v, k + 1, a, human, lang));
        }
        let bets = v.bets();
        for p in 0..v.table_seats() {
            let mut l = format!("  {:<8}", name(&v, p, human, lang));
            match bets {
                Some(b) => {
                    l += &lang
                        .t(format!(" bet {}, won {}", b[p], v.won()[p]), format!(" pari {}, plis {}", b[p], v.won()[p]))
                }
                None if Some(p) == v.dummy() => l += &lang.t(" bets 2", " parie 2"),
                None => {
                    if v.decided().contains(p) {
                        l += &lang.t(" has chosen", " a choisi");
                    }
                }
            }
            if Some(p) == v.dummy() {
                l += &lang.t(
                    format!(", face up: {} ({} face down)", pretty_set(&v, v.dummy_faceup()), v.dummy_pile_left()),
                    format!(", visibles : {} ({} cachées)", pretty_set(&v, v.dummy_faceup()), v.dummy_pile_left()),
                );
            } else {
                l += &lang.t(format!(", total {}", v.totals()[p]), format!(", total {}", v.totals()[p]));
                let public = v.public_bet_cards(p);
                if !public.is_empty() && p != human {
                    l += &lang.t(
                        format!(", bet cards in hand: {}", pretty_set(&v, public)),
                        format!(", cartes pariées en main : {}", pretty_set(&v, public)),
                    );
                }
            }
            out.push(l);
        }
        if !v.trick().is_empty() {
            let plays: Vec<String> =
                v.trick().plays().map(|(s, c)| format!("{} {}", name(&v, s, human, lang), pretty(&v, c))).collect();
            out.push(lang.t(format!("Trick: {}", plays.join(", ")), format!("Pli : {}", plays.join(", "))));
        }
        out.push(lang.t(
            format!("Your hand: {}", pretty_set(&v, v.hand())),
            format!("Votre main : {}", pretty_set(&v, v.hand())),
        ));
        out
    }
}

// ----- the full-screen table -----

/// The title line.
pub fn title(g: &Oh7Game, human: Seat, lang: Lang) -> String {
    let v = g.view(human);
    let mut t = format!("Oh 7 · {} · ", v.rules().preset);
    t += &lang.t(format!("round {}", v.round_number()), format!("manche {}", v.round_number()));
    match v.phase() {
        PhaseView::Betting { attempt } => {
            t += &lang.t(format!(" · bets, attempt {attempt}"), format!(" · paris, tentative {attempt}"))
        }
        PhaseView::Passing { .. } => t += &lang.t(" · passing", " · passe"),
        PhaseView::Playing => {
            t += &lang.t(format!(" · trick {}", v.tricks().len() + 1), format!(" · pli {}", v.tricks().len() + 1))
        }
        PhaseView::Over => t += &lang.t(" · game over", " · partie finie"),
        _ => t += &lang.t(" · tie-break", " · départage"),
    }
    if let Some((_, trump)) = v.leader_and_trump() {
        t += &lang.t(format!(" · trump {}", suit_sym(&v, trump)), format!(" · atout {}", suit_sym(&v, trump)));
    }
    if let Some(s) = v.trick().lead_suit() {
        t += &lang.t(format!(" · lead {}", suit_sym(&v, s)), format!(" · appelée {}", suit_sym(&v, s)));
    }
    t
}

fn block(title: String) -> Block<'static> {
    Block::default().borders(Borders::ALL).title(title)
}

/// Draw the table (everything but the hand, the prompt and the keys) in `area`.
pub fn draw_body(g: &Oh7Game, f: &mut Frame, area: Rect, human: Seat, lang: Lang, log: &[String], log_back: usize) {
    let v = g.view(human);
    let seats = v.table_seats() as u16;
    let [top, bottom] = Layout::vertical([Constraint::Length(seats + 3), Constraint::Min(4)]).areas(area);
    let [players, trick] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(top);
    let width = scores::box_width(v.players(), bottom.width);
    let [left, logr] = Layout::horizontal([Constraint::Length(width), Constraint::Min(20)]).areas(bottom);

    // Players.
    let bold = Style::default().add_modifier(Modifier::BOLD);
    // The last heading in full where it fits (not at 80 columns).
    let public = match lang.s("public cards in hand", "cartes visibles en main") {
        long if 26 + long.chars().count() <= players.width.saturating_sub(2) as usize => long,
        _ => lang.s("public", "visibles"),
    };
    let mut lines = vec![Line::styled(
        lang.t(
            format!("{:<8}{:>4}{:>5}{:>7}  {public}", "", "bet", "won", "total"),
            format!("{:<8}{:>4}{:>5}{:>7}  {public}", "", "pari", "plis", "total"),
        ),
        Style::default().fg(Color::DarkGray),
    )];
    let bets = v.bets();
    let to_move = v.to_move();
    for p in 0..v.table_seats() {
        let nm = name(&v, p, human, lang);
        let turn = if to_move.contains(p) { "▸" } else { " " };
        let bet = match bets {
            Some(b) => b[p].to_string(),
            None if Some(p) == v.dummy() => "2".into(),
            None if v.decided().contains(p) => "✓".into(),
            None if v.phase() == PhaseView::Over => "-".into(),
            None => "…".into(),
        };
        let won = if bets.is_some() { v.won()[p].to_string() } else { "-".into() };
        let l = if Some(p) == v.dummy() {
            let up = pretty_set(&v, v.dummy_faceup());
            let up = if up.is_empty() { String::new() } else { format!("{up} ") };
            lang.t(
                format!(" {nm:<7}{bet:>4}{won:>5}  up: {up}({} face down)", v.dummy_pile_left()),
                format!(" {nm:<7}{bet:>4}{won:>5}  visibles : {up}({} cachées)", v.dummy_pile_left()),
            )
        } else {
            let mut public = if p == human { CardSet::EMPTY } else { v.public_bet_cards(p) };
            // A revealed ‽/? not played yet is public too.
            if v.revealed_interrobang() == Some(p) && p != human && !v.played().contains(Card::INTERROBANG) {
                public.insert(Card::INTERROBANG);
            }
            let public = pretty_set(&v, public);
            format!("{turn}{nm:<7}{bet:>4}{won:>5}{:>7}  {public}", v.totals()[p])
        };
        lines.push(if p == human { Line::styled(l, bold) } else { Line::from(l) });
    }
    f.render_widget(Paragraph::new(lines).block(block(lang.t(" Players ", " Joueurs "))), players);

    // The trick in progress; between tricks, the completed one and its winner, until the next
    // card is played (the last trick of a round is on the end-of-round screen).
    let mut tl = Vec::new();
    let trick_title;
    if v.phase() == PhaseView::Playing && v.trick().is_empty() && !v.tricks().is_empty() {
        let k = v.tricks().len();
        let t = v.tricks()[k - 1];
        tl.push(Line::styled(
            format!(" {}", won_trick_line(&v, t.winner(), k, human, lang)),
            Style::default().fg(Color::Yellow),
        ));
        for (s, c) in t.plays() {
            let style = if s == t.winner() { Style::default().add_modifier(Modifier::BOLD) } else { Style::default() };
            tl.push(crate::tui::colored(&format!(" {:<8} {}", name(&v, s, human, lang), pretty(&v, c)), style));
        }
        trick_title = lang.t(format!(" Trick {k} "), format!(" Pli {k} "));
    } else if v.phase() == PhaseView::Playing {
        let t = v.trick();
        for (s, c) in t.plays() {
            tl.push(crate::tui::colored(
                &format!(" {:<8} {}", name(&v, s, human, lang), pretty(&v, c)),
                Style::default(),
            ));
        }
        if let Some(next) = to_move.lowest() {
            tl.push(Line::styled(format!(" {:<8} …", name(&v, next, human, lang)), Style::default().fg(Color::Yellow)));
        }
        trick_title = lang.t(format!(" Trick {} ", v.tricks().len() + 1), format!(" Pli {} ", v.tricks().len() + 1));
    } else {
        if let Some(attempts) = Some(v.bet_attempts()).filter(|a| !a.is_empty() && v.phase() != PhaseView::Over) {
            for (k, a) in attempts.iter().enumerate() {
                let mut sum: u32 = a.iter().map(|c| c.value() as u32).sum();
                let mut parts: Vec<String> = a
                    .iter()
                    .enumerate()
                    .map(|(p, &c)| format!("{} {}", name(&v, p, human, lang), pretty(&v, c)))
                    .collect();
                if let Some(d) = v.dummy() {
                    parts.push(format!("{} 2", name(&v, d, human, lang)));
                    sum += 2;
                }
                tl.push(crate::tui::colored(&format!(" {}: {} = {sum}", k + 1, parts.join(" · ")), Style::default()));
            }
            if matches!(v.phase(), PhaseView::Betting { .. }) {
                tl.push(Line::styled(
                    lang.t("Sum 7: bet again.", "Total 7 : on parie de nouveau."),
                    Style::default().fg(Color::Yellow),
                ));
            }
        }
        trick_title = lang.t(" Bets ", " Paris ");
    }
    f.render_widget(Paragraph::new(tl).wrap(Wrap { trim: false }).block(block(trick_title)), trick);

    // Score table by round.
    let n = v.players();
    let table = ScoreTable {
        names: (0..n).map(|p| name(&v, p, human, lang)).collect(),
        rounds: v
            .past_rounds()
            .iter()
            .map(|r| {
                let cells = (0..n)
                    .map(|p| Cell {
                        text: r.points[p].to_string(),
                        mark: if r.bets[p] == r.won[p] { '✓' } else { ' ' },
                    })
                    .collect();
                (r.number, cells)
            })
            .collect(),
        totals: v.totals().iter().map(|&t| t.into()).collect(),
        legend: Some(lang.t("✓ bet made", "✓ pari réussi")),
    };
    scores::draw(f, left, lang.t(" Scores ", " Scores "), &table);

    crate::tui::draw_log(f, logr, log, lang, log_back);
}
