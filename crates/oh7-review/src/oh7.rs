//! The review of an Oh 7 family game: the evaluators of each kind of decision (bets and plays
//! by the reviewer's search, the rest by sampled deals) and the walk of a record that finds the
//! seat's decisions.

use oh7_core::GameId;
use oh7_core::card::{Card, CardSet, Suit};
use oh7_core::game::{Game, Seat, SeatViewLike};
use oh7_core::oh7::{Action, DealRecord, MAX_SEATS, Oh7Game, PhaseView, Record, ReplayError, SeatView, replay};
use oh7_core::ruleset::Ruleset;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use oh7_bots::expert::{Budget, CardValue, OracleBot, Search, bet_rank, first_lead, resolve_leader};
use oh7_bots::heuristic::{best_trump, cards_of, heuristic_bet, heuristic_playout};
use oh7_bots::ismcts::IsmctsBot;
use oh7_bots::pi::Scorer;
use oh7_bots::sample::Knowledge;

use crate::document::{
    ACCURACY_SCALE, BLUNDER, DecisionReview, Evaluation, FORMAT, Hindsight, INACCURACY, MISTAKE, Mark, OptionValue,
    Review, ReviewError, ReviewLevel, ReviewOptions, RoundReview, decision_seed, points_unit, review_each,
};
use crate::marks::{costliest, summarize};

/// What values the options of a bet or a card play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reviewer {
    /// The `expert` player level: ISMCTS at [`oh7_bots::ismcts::EXPERT_ITERATIONS`] iterations, every option
    /// given an equal share ([`IsmctsBot::play_values`], [`IsmctsBot::bet_values`]).
    Expert,
    /// The determinization search with this budget ([`Search::play_values`],
    /// [`Search::bet_values`]).
    Search(Budget),
}

impl Reviewer {
    /// The reviewer of a level.
    pub fn of(level: ReviewLevel) -> Reviewer {
        match level {
            ReviewLevel::Expert => Reviewer::Expert,
            ReviewLevel::Pimc => Reviewer::Search(Budget::EXPERT),
            l => Reviewer::Search(l.level().and_then(Budget::of).expect("a search level has a budget")),
        }
    }

    /// Sampled deals for the decisions neither search covers (trump, leader, reveal, pass,
    /// announcement).
    fn samples(self) -> u32 {
        match self {
            Reviewer::Expert => Budget::EXPERT.bet_samples,
            Reviewer::Search(b) => b.bet_samples,
        }
    }
}

/// The option part of an action, as the engine writes it.
pub fn option_text(a: &Action) -> String {
    match a {
        Action::Pass(s) => s.to_string(),
        Action::Bet(c) | Action::Play(c) => c.to_string(),
        Action::Reveal(b) => if *b { "yes" } else { "no" }.to_string(),
        Action::ChooseLeader(s) => s.to_string(),
        Action::ChooseTrump(s) | Action::AnnounceTrump(s) => s.to_string(),
    }
}

/// The kind of a decision, as [`DecisionReview::kind`] names it.
pub fn kind_of(a: &Action) -> &'static str {
    match a {
        Action::Pass(_) => "pass",
        Action::Bet(_) => "bet",
        Action::Reveal(_) => "reveal",
        Action::ChooseLeader(_) => "choose_leader",
        Action::ChooseTrump(_) => "choose_trump",
        Action::AnnounceTrump(_) => "announce_trump",
        Action::Play(_) => "play",
    }
}

fn from_cards(values: Vec<CardValue>) -> Vec<OptionValue> {
    values
        .into_iter()
        .map(|v| OptionValue {
            option: v.card.to_string(),
            value: v.value,
            tricks: v.tricks,
            made: v.made,
            points: None,
        })
        .collect()
}

/// Score the start of play for each `(leader, trump)` option over sampled deals: the first
/// lead from the sampled hands, heuristic playouts, the seat's round points.
/// The options of a decision valued by sampled playouts (`(value, tricks, made)` in `legal`'s
/// order).
fn sampled_options(legal: &[Action], values: Vec<(f64, f64, f64)>) -> Vec<OptionValue> {
    legal
        .iter()
        .zip(values)
        .map(|(a, (value, tricks, made))| OptionValue { option: option_text(a), value, tricks, made, points: None })
        .collect()
}

/// The sampled deals an evaluation plays out: the seat, the rules, and `n` (at least one) deals
/// drawn from what the seat's view knows, from a seeded generator the evaluation may also use.
struct Deals {
    me: Seat,
    rules: Ruleset,
    know: Knowledge,
    rng: ChaCha8Rng,
    n: u32,
}

impl Deals {
    fn of(view: &SeatView, samples: u32, seed: u64) -> Option<Deals> {
        Some(Deals {
            me: view.seat()?,
            rules: *view.rules(),
            know: Knowledge::from_view(view),
            rng: ChaCha8Rng::seed_from_u64(seed),
            n: samples.max(1),
        })
    }

    /// The next deal: every hidden hand, and the cards left undealt.
    fn draw(&mut self) -> ([CardSet; MAX_SEATS], Vec<Card>) {
        self.know.sample(&mut self.rng)
    }
}

/// Sums of (points, tricks, made) per option over `n` deals, as means.
fn means(acc: Vec<(f64, f64, f64)>, n: u32) -> Vec<(f64, f64, f64)> {
    let k = n as f64;
    acc.into_iter().map(|(v, t, m)| (v / k, t / k, m / k)).collect()
}

fn start_values(
    view: &SeatView,
    starts: &[(Seat, Option<Suit>)],
    samples: u32,
    seed: u64,
) -> Option<Vec<(f64, f64, f64)>> {
    let bet_cards = view.bet_cards()?;
    let mut d = Deals::of(view, samples, seed)?;
    let (me, rules) = (d.me, d.rules);
    let scorer = Scorer::new(&rules, bet_cards);
    let suits = rules.suits(view.players());
    let mut acc = vec![(0.0, 0.0, 0.0); starts.len()];
    for _ in 0..d.n {
        let (hands, pile) = d.draw();
        for (i, &(leader, trump)) in starts.iter().enumerate() {
            let trump = trump.unwrap_or_else(|| {
                best_trump(hands[leader], &suits, view.table_seats(), scorer.bets[leader], CardSet::EMPTY)
            });
            let mut pos = first_lead(&rules, view.table_seats(), view.dummy(), &hands, &pile, leader, trump);
            heuristic_playout(&mut pos, &scorer.bets);
            acc[i].0 += scorer.score(&pos.won, me) as f64;
            acc[i].1 += pos.won[me] as f64;
            acc[i].2 += (pos.won[me] == scorer.bets[me]) as u32 as f64;
        }
    }
    Some(means(acc, d.n))
}

/// Score each trump announcement `suits` of the seat (`kod7`, bets all ★ and tied) over sampled
/// deals: the other tied players announce as the heuristic (the suit that suits their sampled
/// hand, [`best_trump`]); the holder of ‽ picks the leader as the heuristic does (itself when
/// tied, else the first tied player: the heuristic's key does not tell ★ bets apart), or, when
/// nobody holds ‽, each tied player leads with equal weight (the lot, exactly); the trump is the
/// leader's announcement; heuristic playouts finish the round. The seat's announcement counts
/// only in the deals where it leads.
fn announce_values(
    view: &SeatView,
    tied: oh7_core::game::SeatSet,
    suits: &[Suit],
    samples: u32,
    seed: u64,
) -> Option<Vec<(f64, f64, f64)>> {
    let bet_cards = view.bet_cards()?;
    let mut d = Deals::of(view, samples, seed)?;
    let (me, rules) = (d.me, d.rules);
    let scorer = Scorer::new(&rules, bet_cards);
    let deck_suits = rules.suits(view.players());
    let table = view.table_seats();
    let dummy = view.dummy();
    let tied: Vec<Seat> = tied.iter().collect();
    let first = *tied.first()?;
    let mut acc = vec![(0.0, 0.0, 0.0); suits.len()];
    for _ in 0..d.n {
        let (hands, pile) = d.draw();
        let holder = (0..table).find(|&p| Some(p) != dummy && hands[p].contains(Card::INTERROBANG));
        let leaders: Vec<Seat> = match holder {
            Some(h) if tied.contains(&h) => vec![h],
            Some(_) => vec![first],
            None => tied.clone(),
        };
        let w = 1.0 / leaders.len() as f64;
        let play = |leader: Seat, trump: Suit| {
            let mut pos = first_lead(&rules, table, dummy, &hands, &pile, leader, trump);
            heuristic_playout(&mut pos, &scorer.bets);
            (
                scorer.score(&pos.won, me) as f64 * w,
                pos.won[me] as f64 * w,
                (pos.won[me] == scorer.bets[me]) as u32 as f64 * w,
            )
        };
        for &leader in &leaders {
            if leader == me {
                for (i, &s) in suits.iter().enumerate() {
                    let (v, t, m) = play(leader, s);
                    acc[i] = (acc[i].0 + v, acc[i].1 + t, acc[i].2 + m);
                }
            } else {
                let trump = best_trump(hands[leader], &deck_suits, table, scorer.bets[leader], CardSet::EMPTY);
                let (v, t, m) = play(leader, trump);
                for a in acc.iter_mut() {
                    *a = (a.0 + v, a.1 + t, a.2 + m);
                }
            }
        }
    }
    Some(means(acc, d.n))
}

/// The cards a player passes in the review's model of the others: the `count` that win the
/// least predictably (the highest side cards, as the heuristic's rule), ties in card order.
fn model_pass(hand: CardSet, count: usize) -> CardSet {
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.sort_by_key(|c| std::cmp::Reverse(c.value() as i32 + if c.is_regular() { 0 } else { -8 }));
    CardSet::from_cards(&cards[..count.min(cards.len())])
}

/// Score each pass of `options` (`bga`) over sampled deals: the others pass as
/// [`model_pass`], everyone (the seat too) then bets as the heuristic on the hand after the
/// passes, the leader and trump follow the rules, heuristic playouts finish the round. A sum
/// of 7 counts as the average outcome, plus the rebid point for the top bid.
fn pass_values(view: &SeatView, options: &[CardSet], to_left: bool, samples: u32, seed: u64) -> Vec<(f64, f64, f64)> {
    let mut d = Deals::of(view, samples, seed).expect("a player's view");
    let (me, rules) = (d.me, d.rules);
    let n = view.players();
    let table = view.table_seats();
    let dummy = view.dummy();
    let k = options.len();
    let (mut sum, mut count, mut sevens, mut bonus) = (vec![0.0; k], vec![0u32; k], vec![0u32; k], vec![0.0; k]);
    let (mut tricks, mut made) = (vec![0.0; k], vec![0u32; k]);
    for _ in 0..d.n {
        let (hands, pile) = d.draw();
        let mut passes = [CardSet::EMPTY; MAX_SEATS];
        for p in 0..n {
            if p != me {
                passes[p] = model_pass(hands[p], options[0].len() as usize);
            }
        }
        for (i, &mine) in options.iter().enumerate() {
            passes[me] = mine;
            let mut after = hands;
            for p in 0..n {
                let giver = if to_left { (p + n - 1) % n } else { (p + 1) % n };
                after[p] = hands[p].minus(passes[p]).or(passes[giver]);
            }
            let mut bets = [Card::INTERROBANG; MAX_SEATS];
            for p in 0..n {
                let mut bettable = after[p];
                bettable.remove(Card::INTERROBANG);
                if !bettable.is_empty() {
                    bets[p] = heuristic_bet(&rules, after[p], bettable, table, CardSet::EMPTY);
                }
            }
            let bets = &bets[..n];
            match resolve_leader(&rules, bets, &after, dummy.is_some(), 1, &mut d.rng) {
                None => {
                    sevens[i] += 1;
                    let top = bets.iter().map(|&c| bet_rank(c)).max().unwrap_or(0);
                    if rules.rebid_bonus && bet_rank(bets[me]) == top {
                        bonus[i] += 1.0;
                    }
                }
                Some((leader, trump)) => {
                    let mut pos = first_lead(&rules, table, dummy, &after, &pile, leader, trump);
                    let scorer = Scorer::new(&rules, bets);
                    heuristic_playout(&mut pos, &scorer.bets);
                    sum[i] += scorer.score(&pos.won, me) as f64;
                    count[i] += 1;
                    tricks[i] += pos.won[me] as f64;
                    made[i] += (pos.won[me] == scorer.bets[me]) as u32;
                }
            }
        }
    }
    let played: u32 = count.iter().sum();
    let neutral = if played > 0 { sum.iter().sum::<f64>() / played as f64 } else { 0.0 };
    (0..k)
        .map(|i| {
            let all = (count[i] + sevens[i]).max(1) as f64;
            let c = count[i].max(1) as f64;
            ((sum[i] + sevens[i] as f64 * neutral + bonus[i]) / all, tricks[i] / c, made[i] as f64 / c)
        })
        .collect()
}

/// Why a decision has no evaluation (its `note` in a review, in English).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotEvaluated {
    /// The decision needs the bets, and the view does not show them yet.
    #[error("the bets are not known")]
    BetsNotKnown,
    /// A spectator's view has no decision.
    #[error("a player's view")]
    NotAPlayer,
    /// A reveal with no tie to break.
    #[error("no tie")]
    NoTie,
    /// A kind of decision the review does not evaluate.
    #[error("this decision is not evaluated")]
    Kind,
    /// No option could be valued.
    #[error("no option")]
    NoOption,
}

/// Evaluate one decision of `view`'s seat among `legal` (at least two options) with the
/// search `budget`, seeded `seed`: a function of these only (never of hidden cards). `Err`
/// says why a decision of this kind is not evaluated.
///
/// - bets: [`Search::bet_values`]; card plays: [`Search::play_values`];
/// - the trump choice, and the leader choice (`kod7`): over `bet_samples` sampled deals, the
///   first lead with each option and heuristic playouts (a chosen leader whose bet card has no
///   suit takes the trump that suits its sampled hand);
/// - the reveal of ? (`fr-advanced`): leading with one's bet suit as trump, or the tie broken
///   by suit priority, then the same;
/// - passes (`bga`): see `pass_values` (the others pass their highest side cards, everyone
///   bets as the heuristic after the passes);
/// - trump announcements (`kod7`, all bets ★ and tied): see `announce_values` (the other tied
///   players announce as the heuristic, the holder of ‽ picks as the heuristic, or the lot).
pub fn evaluate(view: &SeatView, legal: &[Action], reviewer: Reviewer, seed: u64) -> Result<Evaluation, NotEvaluated> {
    let samples = reviewer.samples();
    let options: Vec<OptionValue> = match (view.phase(), legal[0], reviewer) {
        (PhaseView::Betting { .. }, Action::Bet(_), Reviewer::Expert) => {
            from_cards(IsmctsBot::expert(seed).bet_values(view, cards_of(legal)))
        }
        (PhaseView::Betting { .. }, Action::Bet(_), Reviewer::Search(budget)) => {
            from_cards(Search::new(budget, seed).bet_values(view, cards_of(legal), None))
        }
        (PhaseView::Playing, Action::Play(_), Reviewer::Expert) => {
            from_cards(IsmctsBot::expert(seed).play_values(view, cards_of(legal)))
        }
        (PhaseView::Playing, Action::Play(_), Reviewer::Search(budget)) => {
            from_cards(Search::new(budget, seed).play_values(view, cards_of(legal), None))
        }
        (PhaseView::ChooseTrump { leader }, Action::ChooseTrump(_), _) => {
            let starts: Vec<(Seat, Option<Suit>)> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::ChooseTrump(s) => Some((leader, Some(*s))),
                    _ => None,
                })
                .collect();
            let v = start_values(view, &starts, samples, seed).ok_or(NotEvaluated::BetsNotKnown)?;
            sampled_options(legal, v)
        }
        (PhaseView::ChooseLeader { .. }, Action::ChooseLeader(_), _) => {
            let bet_cards = view.bet_cards().ok_or(NotEvaluated::BetsNotKnown)?;
            let starts: Vec<(Seat, Option<Suit>)> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::ChooseLeader(p) => Some((*p, bet_cards.get(*p).and_then(|c| c.suit()))),
                    _ => None,
                })
                .collect();
            let v = start_values(view, &starts, samples, seed).ok_or(NotEvaluated::BetsNotKnown)?;
            sampled_options(legal, v)
        }
        (PhaseView::Passing { to_left, .. }, Action::Pass(_), _) => {
            let options: Vec<CardSet> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Pass(s) => Some(*s),
                    _ => None,
                })
                .collect();
            let v = pass_values(view, &options, to_left, samples, seed);
            sampled_options(legal, v)
        }
        (PhaseView::Reveal { tied }, Action::Reveal(_), _) => {
            let bet_cards = view.bet_cards().ok_or(NotEvaluated::BetsNotKnown)?;
            let me = view.seat().ok_or(NotEvaluated::NotAPlayer)?;
            // Without the reveal, suit priority breaks the tie (the others cannot reveal: only
            // the holder of ? may).
            let top = tied.iter().max_by_key(|&p| bet_rank(bet_cards[p])).ok_or(NotEvaluated::NoTie)?;
            let starts: Vec<(Seat, Option<Suit>)> = legal
                .iter()
                .map(|a| match a {
                    Action::Reveal(true) => (me, bet_cards[me].suit()),
                    _ => (top, bet_cards[top].suit()),
                })
                .collect();
            let v = start_values(view, &starts, samples, seed).ok_or(NotEvaluated::BetsNotKnown)?;
            sampled_options(legal, v)
        }
        (PhaseView::AnnounceTrump { tied }, Action::AnnounceTrump(_), _) => {
            let suits: Vec<Suit> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::AnnounceTrump(s) => Some(*s),
                    _ => None,
                })
                .collect();
            let v = announce_values(view, tied, &suits, samples, seed).ok_or(NotEvaluated::BetsNotKnown)?;
            sampled_options(legal, v)
        }
        _ => return Err(NotEvaluated::Kind),
    };
    let best = (0..options.len())
        .max_by(|&a, &b| options[a].value.total_cmp(&options[b].value).then(b.cmp(&a)))
        .ok_or(NotEvaluated::NoOption)?;
    Ok(Evaluation { options, best })
}

/// One decision of the seat, as the replay met it.
#[derive(Clone)]
pub struct Moment {
    /// The game just before the decision (its hidden parts are read only by the oracle).
    pub game: Oh7Game,
    /// The legal actions then (at least two).
    pub legal: Vec<Action>,
    /// What the seat chose.
    pub chosen: Action,
}

/// Replay `record` (an `oh7-record/1` value of a finished game) and collect every decision of
/// `seat` that had at least two legal options, in order.
pub fn decisions_of(record: &Value, seat: Seat) -> Result<(Record, Vec<Moment>), ReviewError> {
    if GameId::of_record(record).ok() == Some(GameId::Seven) {
        return Err(ReviewError::Seven);
    }
    let final_game = replay(record)?;
    let rec: Record =
        serde_json::from_value(record.clone()).map_err(|e| ReviewError::Replay(ReplayError::Format(e.to_string())))?;
    if !rec.finished || !final_game.is_over() {
        return Err(ReviewError::NotFinished);
    }
    if seat >= rec.players {
        return Err(ReviewError::NoSuchSeat { seat, last: rec.players - 1 });
    }
    let seed = u64::from_str_radix(&rec.seed, 16).map_err(|_| ReplayError::Format("seed".into()))?;
    let mut g = Oh7Game::new(rec.ruleset, rec.players, seed).map_err(ReplayError::from)?;
    if rec.seats.len() == rec.players {
        g.set_seat_names(rec.seats.clone());
    }
    let mut moments = Vec::new();
    let mut legal = Vec::new();
    let mut act = |g: &mut Oh7Game, s: Seat, a: Action| -> Result<(), ReviewError> {
        if s == seat {
            g.legal_actions(s, &mut legal);
            if legal.len() > 1 {
                moments.push(Moment { game: g.clone(), legal: legal.clone(), chosen: a });
            }
        }
        g.apply(s, a).map_err(|error| {
            ReviewError::Replay(ReplayError::Illegal { at: "review".into(), seat: s, action: a.to_string(), error })
        })
    };
    for r in &rec.rounds {
        for deal in r.redeals.iter().chain(std::iter::once(&r.deal)) {
            walk_deal(&mut g, deal, &mut act)?;
        }
        for d in &r.decisions {
            let bad = || ReviewError::Replay(ReplayError::Format(format!("decision {} has value {}", d.kind, d.value)));
            let action = match d.kind.as_str() {
                "lot" => continue,
                "reveal_interrobang" if !matches!(g.view(0).phase(), PhaseView::Reveal { .. }) => continue,
                "reveal_interrobang" => Action::Reveal(d.value.as_bool().ok_or_else(bad)?),
                "choose_leader" => Action::ChooseLeader(d.value.as_u64().ok_or_else(bad)? as Seat),
                "choose_trump" => Action::ChooseTrump(d.value.as_str().and_then(|s| s.parse().ok()).ok_or_else(bad)?),
                "announce_trump" => {
                    Action::AnnounceTrump(d.value.as_str().and_then(|s| s.parse().ok()).ok_or_else(bad)?)
                }
                _ => return Err(bad()),
            };
            act(&mut g, d.seat.ok_or_else(bad)?, action)?;
        }
        for trick in &r.tricks {
            for &(s, card) in &trick.plays {
                if Some(s) != g.dummy() {
                    act(&mut g, s, Action::Play(card))?;
                }
            }
        }
    }
    Ok((rec, moments))
}

fn walk_deal(
    g: &mut Oh7Game,
    deal: &DealRecord,
    act: &mut impl FnMut(&mut Oh7Game, Seat, Action) -> Result<(), ReviewError>,
) -> Result<(), ReviewError> {
    if matches!(g.view(0).phase(), PhaseView::Passing { .. }) {
        for (p, cards) in deal.passes.iter().enumerate() {
            act(g, p, Action::Pass(CardSet::from_cards(cards)))?;
        }
    }
    for attempt in &deal.bet_attempts {
        for (p, &c) in attempt.iter().enumerate() {
            act(g, p, Action::Bet(c))?;
        }
    }
    Ok(())
}

fn reason(kind: &str, chosen: &Action, e: &Evaluation, ci: usize) -> Option<String> {
    let c = &e.options[ci];
    let b = &e.options[e.best];
    if ci == e.best {
        return None;
    }
    let pct = |x: f64| (x * 100.0).round() as i64;
    Some(match chosen {
        Action::Bet(card) => {
            let need = card.value();
            let best_need = b.option.parse::<Card>().map(|x| x.value()).unwrap_or(0);
            format!(
                "bet {} needs {need} trick{}; your hand makes {:.1} on average with it (made {}%); {} needs {best_need}: {:.1} (made {}%)",
                c.option,
                if need == 1 { "" } else { "s" },
                c.tricks,
                pct(c.made),
                b.option,
                b.tricks,
                pct(b.made)
            )
        }
        _ => format!(
            "{kind} {}: your bet made {}% of the time ({:.1} tricks); {}: {}% ({:.1} tricks)",
            c.option,
            pct(c.made),
            c.tricks,
            b.option,
            pct(b.made),
            b.tricks
        ),
    })
}

/// Review one decision (`index` seeds it).
pub fn review_moment(m: &Moment, seat: Seat, index: usize, reviewer: Reviewer, opts: &ReviewOptions) -> DecisionReview {
    let view = m.game.view(seat);
    let seed = decision_seed(opts.seed, index);
    let chosen = m.chosen;
    let kind = kind_of(&chosen);
    let step = match chosen {
        Action::Bet(_) => view.bet_attempts().len() + 1,
        Action::Play(_) => view.tricks().len() + 1,
        _ => 0,
    };
    let trick = if matches!(chosen, Action::Play(_)) { view.trick().cards().to_vec() } else { Vec::new() };
    let (evaluation, note) = match evaluate(&view, &m.legal, reviewer, seed) {
        Ok(e) => (Some(e), None),
        Err(n) => (None, Some(n.to_string())),
    };
    let chosen_text = option_text(&chosen);
    let (loss, mark, why) = match &evaluation {
        Some(e) => {
            let ci = m.legal.iter().position(|a| *a == chosen).unwrap_or(e.best);
            let loss = (e.options[e.best].value - e.options[ci].value).max(0.0);
            (Some(loss), Mark::of(loss), if loss > 0.0 { reason(kind, &chosen, e, ci) } else { None })
        }
        None => (None, None, None),
    };
    let hindsight = opts.hindsight.then(|| {
        let a = OracleBot::new(seed).choose_in(&m.game, seat, &m.legal);
        Hindsight { oracle: option_text(&a), agrees: a == chosen }
    });
    DecisionReview {
        index,
        round: view.round_number(),
        kind: kind.to_string(),
        step,
        hand: view.hand().iter().map(|c| c.to_string()).collect(),
        trick: trick.iter().map(|c| c.to_string()).collect(),
        chosen: chosen_text,
        evaluation,
        loss,
        mark,
        reason: why,
        note,
        hindsight,
        seven: None,
    }
}

/// Review `seat`'s decisions in the finished game `record` (`oh7-record/1`). `progress` is
/// called with (decisions done, decisions in all) as the work goes (from several threads:
/// the decisions are reviewed in parallel on rayon's pool; the result does not depend on it).
/// CPU-heavy (seconds): run it on a blocking thread.
pub fn review_oh7(
    record: &Value,
    seat: Seat,
    opts: &ReviewOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, ReviewError> {
    let reviewer = Reviewer::of(opts.level);
    let (rec, moments) = decisions_of(record, seat)?;
    let decisions = review_each(&moments, progress, |i, m| review_moment(m, seat, i, reviewer, opts));
    let rounds = rec
        .rounds
        .iter()
        .map(|r| RoundReview {
            round: r.number,
            points: r.points.get(seat).copied().unwrap_or(0),
            summary: summarize(decisions.iter().filter(|d| d.round == r.number), ACCURACY_SCALE),
        })
        .collect();
    let order = costliest(&decisions);
    Ok(Review {
        format: FORMAT.into(),
        family: GameId::Oh7,
        unit: points_unit(),
        seat,
        name: rec.seats.get(seat).cloned().unwrap_or_default(),
        preset: rec.preset.to_string(),
        players: rec.players,
        level: opts.level,
        seed: format!("{:016x}", opts.seed),
        thresholds: [INACCURACY, MISTAKE, BLUNDER],
        accuracy_scale: ACCURACY_SCALE,
        game: summarize(decisions.iter(), ACCURACY_SCALE),
        decisions,
        rounds,
        costliest: order,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use oh7_core::ruleset::{Preset, Ruleset};

    /// Every action of seeded games between search bots, as one FNV-1a digest.
    fn fingerprint() -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (preset, players, level, seed) in [
            (Preset::En, 4, "easy", 1u64),
            (Preset::En, 2, "easy", 2),
            (Preset::Fr, 5, "easy", 3),
            (Preset::Bga, 6, "easy", 4),
            (Preset::Kod7, 4, "easy", 5),
            (Preset::En, 4, "pimc", 6),
            (Preset::En, 4, "oracle", 7),
            (Preset::Kod7, 2, "oracle", 8),
        ] {
            let mut rules = Ruleset::preset(preset);
            if preset == Preset::Bga {
                rules.passing = true;
            }
            let mut g = Oh7Game::new(rules, players, seed).unwrap();
            let bot_level = if level == "oracle" { "easy" } else { level };
            let mut bots: Vec<_> =
                (0..players).map(|p| oh7_bots::oh7_bot(bot_level, seed * 10 + p as u64).unwrap()).collect();
            let mut oracle = oh7_bots::expert::OracleBot::new(seed);
            let mut legal = Vec::new();
            let mut n = 0;
            while let Some(seat) = g.to_move().lowest() {
                g.legal_actions(seat, &mut legal);
                let a = if level == "oracle" && seat == 0 {
                    oracle.choose_in(&g, seat, &legal)
                } else {
                    bots[seat].choose(&g.view(seat), &legal)
                };
                for b in format!("{seat}{a};").bytes() {
                    h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
                }
                g.apply(seat, a).unwrap();
                n += 1;
                if n > 600 {
                    break;
                }
            }
        }
        h
    }

    /// The search bots choose exactly as before the values were exposed for reviews (the digest
    /// was taken with the code before the refactor).
    #[test]
    fn expert_choices_unchanged() {
        let h = fingerprint();
        eprintln!("fingerprint {h:#x}");
        assert_eq!(h, 0x0a0c_b805_fcca_9ffe);
    }

    use super::*;
    use oh7_bots::heuristic::HeuristicBot;
    use oh7_bots::{Bot, RandomBot};

    fn finished(levels: &[&str], players: usize, seed: u64) -> Value {
        played(Oh7Game::new(Ruleset::preset(Preset::En), players, seed).unwrap(), levels, seed)
    }

    /// Game `g` played to its end by bots of `levels` (seat by seat, cycled), seeded from `seed`:
    /// its record.
    pub(crate) fn played<G: oh7_bots::BotsOf>(mut g: G, levels: &[&str], seed: u64) -> Value {
        let mut bots: Vec<_> =
            (0..g.players()).map(|p| G::bot_of(levels[p % levels.len()], seed + p as u64).unwrap()).collect();
        oh7_bots::play_game(&mut g, &mut bots, 1_000_000).unwrap();
        g.record()
    }

    /// A fast reviewer.
    pub(crate) fn quick() -> ReviewOptions {
        ReviewOptions { level: ReviewLevel::Easy, seed: 7, hindsight: false }
    }

    /// Losses are never negative, the reviewer's best is never marked, marks follow the
    /// thresholds, a random player makes mistakes, and the same inputs give the same review.
    #[test]
    fn reviews_are_consistent_and_reproducible() {
        let v = finished(&["random", "heuristic"], 4, 11);
        let r = review_oh7(&v, 0, &quick(), &|_, _| {}).unwrap();
        assert!(r.game.evaluated > 10, "{:?}", r.game);
        for d in &r.decisions {
            let (Some(e), Some(loss)) = (&d.evaluation, d.loss) else { continue };
            assert!(loss >= 0.0);
            assert_eq!(d.mark, Mark::of(loss));
            if e.options[e.best].option == d.chosen {
                assert_eq!(loss, 0.0);
                assert_eq!(d.mark, None);
            }
        }
        assert!(r.game.mistakes + r.game.blunders > 0, "{:?}", r.game);
        let seen = std::sync::Mutex::new(Vec::new());
        let again = review_oh7(&v, 0, &quick(), &|done, total| seen.lock().unwrap().push((done, total))).unwrap();
        assert_eq!(r, again);
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        let n = r.decisions.len();
        assert_eq!(seen, (0..=n).map(|d| (d, n)).collect::<Vec<_>>(), "progress: every count once, of the total");
        let h = review_oh7(&v, 1, &ReviewOptions { hindsight: true, ..quick() }, &|_, _| {}).unwrap();
        assert!(h.decisions.iter().all(|d| d.hindsight.is_some()));
        assert!(h.game.oracle_agrees.is_some());
    }

    /// A play that certainly fails the bet where another certainly makes it (the last tricks,
    /// solved exactly in every sample) is a mistake or a blunder; the other is not marked. By
    /// the determinization search and by the expert player's search as the reviewer.
    #[test]
    fn a_certainly_worse_play_is_marked() {
        for reviewer in [Reviewer::of(ReviewLevel::Easy), Reviewer::Expert] {
            check_a_certainly_worse_play_is_marked(reviewer);
        }
    }

    fn check_a_certainly_worse_play_is_marked(budget: Reviewer) {
        for seed in 1..200u64 {
            let v = finished(&["random"], 4, seed);
            let (_, moments) = decisions_of(&v, 0).unwrap();
            for (i, m) in moments.iter().enumerate() {
                let view = m.game.view(0);
                if !matches!(m.chosen, Action::Play(_)) || view.tricks().len() < 5 {
                    continue;
                }
                let e = evaluate(&view, &m.legal, budget, decision_seed(1, i)).unwrap();
                let (Some(good), Some(bad)) =
                    (e.options.iter().position(|o| o.made == 1.0), e.options.iter().position(|o| o.made == 0.0))
                else {
                    continue;
                };
                let opts = ReviewOptions { seed: 1, ..quick() };
                let worse = Moment { chosen: m.legal[bad], ..m.clone() };
                let d = review_moment(&worse, 0, i, budget, &opts);
                assert!(matches!(d.mark, Some(Mark::Mistake | Mark::Blunder)), "{d:?}");
                assert!(d.reason.is_some());
                let better = Moment { chosen: m.legal[good], ..m.clone() };
                let d = review_moment(&better, 0, i, budget, &opts);
                if e.best == good {
                    assert_eq!((d.loss, d.mark), (Some(0.0), None));
                }
                return;
            }
        }
        panic!("no position where one play certainly makes the bet and another certainly fails");
    }

    /// Two deals that differ only in the other players' hands (two cards of one suit swapped
    /// between two of them) give the same evaluation of seat 0's bet and first play, by either
    /// reviewer.
    #[test]
    fn evaluations_depend_only_on_the_view() {
        for reviewer in [Reviewer::of(ReviewLevel::Easy), Reviewer::Expert] {
            check_evaluations_depend_only_on_the_view(reviewer);
        }
    }

    fn check_evaluations_depend_only_on_the_view(budget: Reviewer) {
        let rules = Ruleset::preset(Preset::En);
        for seed in 1..20u64 {
            let mut g = Oh7Game::new(rules, 4, seed).unwrap();
            let mut bots: Vec<Box<dyn Bot<Oh7Game>>> = (0..4).map(|_| Box::new(HeuristicBot::new()) as _).collect();
            let mut actions = Vec::new();
            let mut legal = Vec::new();
            let first_bet = {
                let mut l = Vec::new();
                g.legal_actions(0, &mut l);
                evaluate(&g.view(0), &l, budget, 5).unwrap()
            };
            loop {
                let seat = g.to_move().lowest().unwrap();
                g.legal_actions(seat, &mut legal);
                if seat == 0 && matches!(legal[0], Action::Play(_)) && legal.len() > 1 {
                    break;
                }
                let a = bots[seat].choose(&g.view(seat), &legal);
                g.apply(seat, a).unwrap();
                actions.push((seat, a));
            }
            let rec: Record = serde_json::from_value(g.record()).unwrap();
            let deal = &rec.rounds[0].deal;
            let mut hands: Vec<CardSet> = deal.hands.iter().map(|h| CardSet::from_cards(h)).collect();
            let mut seen = g.view(0).played();
            for a in &deal.bet_attempts {
                seen = seen.or(CardSet::from_cards(a));
            }
            let mut swap = None;
            'find: for q in 1..4 {
                for r in q + 1..4 {
                    for cq in hands[q].minus(seen).iter().filter(|c| c.is_regular()) {
                        if let Some(cr) = hands[r].minus(seen).iter().find(|c| c.is_regular() && c.suit() == cq.suit())
                        {
                            swap = Some((q, r, cq, cr));
                            break 'find;
                        }
                    }
                }
            }
            let Some((q, r, cq, cr)) = swap else { continue };
            hands[q].remove(cq);
            hands[q].insert(cr);
            hands[r].remove(cr);
            hands[r].insert(cq);
            let mut g2 = Oh7Game::new(rules, 4, seed).unwrap();
            g2.set_deal(&hands, &deal.discard).unwrap();
            let mut l = Vec::new();
            g2.legal_actions(0, &mut l);
            assert_eq!(evaluate(&g2.view(0), &l, budget, 5).unwrap(), first_bet);
            for &(s, a) in &actions {
                g2.apply(s, a).unwrap();
            }
            assert_ne!(g.view(q).hand(), g2.view(q).hand());
            let mut l2 = Vec::new();
            g2.legal_actions(0, &mut l2);
            g.legal_actions(0, &mut legal);
            assert_eq!(legal, l2);
            let a = evaluate(&g.view(0), &legal, budget, 9).unwrap();
            let b = evaluate(&g2.view(0), &l2, budget, 9).unwrap();
            assert_eq!(a, b);
            return;
        }
        panic!("no deal to swap cards in");
    }

    /// Passes (`bga`) and the reveal of ? (`fr-advanced`) are evaluated.
    #[test]
    fn passes_and_reveals_are_evaluated() {
        let mut rules = Ruleset::preset(Preset::Bga);
        rules.passing = true;
        let mut g = Oh7Game::new(rules, 4, 5).unwrap();
        let mut bots: Vec<_> = (0..4).map(|p| oh7_bots::oh7_bot("random", p).unwrap()).collect();
        oh7_bots::play_game(&mut g, &mut bots, 100_000).unwrap();
        let r = review_oh7(&g.record(), 2, &quick(), &|_, _| {}).unwrap();
        let passes: Vec<_> = r.decisions.iter().filter(|d| d.kind == "pass").collect();
        assert!(!passes.is_empty());
        assert!(passes.iter().all(|d| d.evaluation.as_ref().is_some_and(|e| e.options.len() > 1) && d.loss.is_some()));
        let budget = Reviewer::of(ReviewLevel::Easy);
        for seed in 1..400u64 {
            let mut g = Oh7Game::new(Ruleset::preset(Preset::FrAdvanced), 4, seed).unwrap();
            let mut bots: Vec<_> = (0..4).map(|p| oh7_bots::oh7_bot("random", seed + p).unwrap()).collect();
            oh7_bots::play_game(&mut g, &mut bots, 100_000).unwrap();
            for seat in 0..4 {
                let (_, moments) = decisions_of(&g.record(), seat).unwrap();
                if let Some(m) = moments.iter().find(|m| matches!(m.chosen, Action::Reveal(_))) {
                    let e = evaluate(&m.game.view(seat), &m.legal, budget, 3).unwrap();
                    assert_eq!(e.options.len(), 2);
                    return;
                }
            }
        }
        panic!("no reveal of ? in 400 games");
    }

    /// `kod7` trump announcements (all bets ★ and tied) are evaluated (the rules test's deal:
    /// seats 0 and 1 tie with ★2, seat 3 holds ‽): one value per suit, not all equal (the seat
    /// leads in some deals), the same when two cards the seat cannot see change hands, and a
    /// review of the decision has a loss and no note.
    #[test]
    fn kod7_announcements_are_evaluated() {
        use oh7_core::card::parse_cards;
        let budget = Reviewer::of(ReviewLevel::Easy);
        let set = |t: &str| CardSet::from_cards(&parse_cards(t).unwrap());
        let deal = |h2: &str, h3: &str| {
            let mut g = Oh7Game::new(Ruleset::preset(Preset::Kod7), 4, 1).unwrap();
            let hs = [set("*2 0S 1S 2S 4S 5S 6S"), set("*2' 7S 0H 1H 2H 4H 5H"), set(h2), set(h3)];
            g.set_deal(&hs, &parse_cards("3H *3 *4 *5").unwrap()).unwrap();
            for (p, card) in parse_cards("*2 *2' *1 *0").unwrap().into_iter().enumerate() {
                g.apply(p, Action::Bet(card)).unwrap();
            }
            assert!(matches!(g.view(0).phase(), PhaseView::AnnounceTrump { .. }));
            g
        };
        let g = deal("*1 6H 7H 0C 1C 2C 3C", "*0 4C 5C 6C 7C 3S ?");
        let mut legal = Vec::new();
        g.legal_actions(0, &mut legal);
        let e = evaluate(&g.view(0), &legal, budget, 3).unwrap();
        assert_eq!(e.options.len(), legal.len());
        assert!(e.options.iter().any(|o| o.value != e.options[0].value), "{e:?}");
        let swapped = deal("*1 6H 7H 4C 1C 2C 3C", "*0 0C 5C 6C 7C 3S ?");
        assert_eq!(evaluate(&swapped.view(0), &legal, budget, 3).unwrap(), e);
        let worst = (0..legal.len()).min_by(|&a, &b| e.options[a].value.total_cmp(&e.options[b].value)).unwrap();
        let m = Moment { game: g, legal: legal.clone(), chosen: legal[worst] };
        let d = review_moment(&m, 0, 0, budget, &quick());
        assert!(d.loss.is_some_and(|l| l > 0.0) && d.note.is_none(), "{d:?}");
        assert_eq!(d.kind, "announce_trump");
    }

    /// Seven records are refused with a clear error; so are unfinished games and bad seats.
    #[test]
    fn refusals() {
        let mut g = Oh7Game::new(Ruleset::preset(Preset::En), 4, 3).unwrap();
        let mut rng = RandomBot::new(1);
        let mut legal = Vec::new();
        for _ in 0..10 {
            let s = g.to_move().lowest().unwrap();
            g.legal_actions(s, &mut legal);
            let a = Bot::<Oh7Game>::choose(&mut rng, &g.view(s), &legal);
            g.apply(s, a).unwrap();
        }
        let e = review_oh7(&g.record(), 0, &quick(), &|_, _| {}).unwrap_err();
        assert!(matches!(e, ReviewError::NotFinished), "{e}");
        let v = finished(&["random"], 4, 3);
        let e = review_oh7(&v, 4, &quick(), &|_, _| {}).unwrap_err();
        assert!(e.to_string().contains("no seat 4"), "{e}");
        let e = review_oh7(&serde_json::json!({"game": "seven"}), 0, &quick(), &|_, _| {}).unwrap_err();
        assert!(e.to_string().contains("Seven"), "{e}");
        // An unknown level is refused where it is read (`ReviewLevel`'s parse, at each edge).
        assert!("nope".parse::<ReviewLevel>().unwrap_err().to_string().contains("unknown review level"));
    }
}
