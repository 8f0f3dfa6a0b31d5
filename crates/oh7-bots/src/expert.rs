//! The search bots of the Oh 7 family: [`ExpertBot`] (determinization: sample deals
//! consistent with the seat's view, solve each with the exact solver, play the card with the
//! best mean score) and [`OracleBot`] (sees every hand; for measurement only).
//!
//! Bets: every candidate bet card is scored by Monte Carlo over hidden hands and the others'
//! likely bets (the heuristic's bet on their sampled hands), applying the real first-leader and
//! trump rules and the sum-7 rule, then playing the round out (heuristic playouts, or the exact
//! solver when the position is small enough).
//!
//! Budgets are counts of work (samples, solver nodes), never time, so a bot's choices depend
//! only on its seed and what it sees.

use oh7_core::card::{Card, CardSet, Kind, Suit};
use oh7_core::game::{Game, Seat};
use oh7_core::oh7::{Action, MAX_SEATS, Oh7Game, PhaseView, SeatView};
use oh7_core::ruleset::{AfterLastAttempt, LeaderRule, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Bot;
use crate::heuristic::{
    best_trump, cards_of, expected_tricks, heuristic_bet, heuristic_play, heuristic_playout, other_decision, play_info,
};
use crate::pi::{Position, Scorer, Solver, Won};
use crate::sample::{Knowledge, position_from_view, seat_of, used_bet_cards};

/// The work budget of a search bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Sampled deals per card decision.
    pub play_samples: u32,
    /// Solve a sample exactly when this many tricks or fewer are left (else heuristic
    /// playouts after each candidate card).
    pub exact_from: u8,
    /// Most solver nodes per sample before it falls back to playouts.
    pub sample_nodes: u64,
    /// Most solver nodes per decision (samples stop early once spent; at least one sample).
    pub decision_nodes: u64,
    /// Sampled deals per bet decision (each scores every candidate bet).
    pub bet_samples: u32,
}

impl Budget {
    /// The largest budget: the end of the `expert` level's rounds, the research level `pimc`,
    /// and the oracle.
    pub const EXPERT: Budget =
        Budget { play_samples: 64, exact_from: 5, sample_nodes: 100_000, decision_nodes: 1_000_000, bet_samples: 160 };

    /// The budget of a determinization level (`easy`, `medium`, `hard`; the research level `pimc`
    /// uses [`Budget::EXPERT`]).
    pub fn of(level: crate::Level) -> Option<Budget> {
        use crate::Level;
        Some(match level {
            Level::Easy => {
                Budget { play_samples: 8, exact_from: 3, sample_nodes: 10_000, decision_nodes: 40_000, bet_samples: 24 }
            }
            Level::Medium => Budget {
                play_samples: 16,
                exact_from: 4,
                sample_nodes: 25_000,
                decision_nodes: 160_000,
                bet_samples: 48,
            },
            Level::Hard => Budget {
                play_samples: 32,
                exact_from: 5,
                sample_nodes: 50_000,
                decision_nodes: 480_000,
                bet_samples: 96,
            },
            _ => return None,
        })
    }
}

/// The order of bet cards for the top bet: value, then suit priority (R-LEAD-3).
pub fn bet_rank(c: Card) -> u16 {
    c.value() as u16 * 8 + c.suit().map_or(0, |s| 5 - s.index() as u16)
}

/// The position at the first lead of a sampled deal, the Dummy's two face-up cards taken from
/// the top of its `pile`.
#[allow(clippy::too_many_arguments)]
pub fn first_lead(
    rules: &Ruleset,
    table: usize,
    dummy: Option<Seat>,
    hands: &[CardSet; MAX_SEATS],
    pile: &[Card],
    leader: Seat,
    trump: Suit,
) -> Position {
    let mut h = *hands;
    let mut rest: &[Card] = &[];
    if let Some(d) = dummy {
        h[d] = CardSet::from_cards(&pile[..2.min(pile.len())]);
        rest = &pile[2.min(pile.len())..];
    }
    Position::start(rules, table, dummy, &h, rest, leader, trump)
}

/// What every sample of a bet decision shares.
pub struct BetContext {
    /// The seat that bets.
    pub me: Seat,
    /// The rules.
    pub rules: Ruleset,
    /// Players (the Dummy not counted).
    pub n: usize,
    /// The Dummy's seat.
    pub dummy: Option<Seat>,
    /// Seats at the table.
    pub table: usize,
    /// This attempt's number (1 for the first).
    pub attempt: usize,
    /// The cards each player has bet in earlier attempts of this round.
    pub used: [CardSet; MAX_SEATS],
    /// Where the unseen cards may be.
    pub know: Knowledge,
}

impl BetContext {
    /// The bet decision of `view`'s seat.
    pub fn from_view(view: &SeatView) -> BetContext {
        BetContext {
            me: seat_of(view),
            rules: *view.rules(),
            n: view.players(),
            dummy: view.dummy(),
            table: view.table_seats(),
            attempt: view.bet_attempts().len() + 1,
            used: used_bet_cards(view),
            know: Knowledge::from_view(view),
        }
    }
}

/// The outcome of a set of bets: who leads first with which trump, or `None` when the bets sum
/// to 7 and must be made again (or the round is dealt again).
pub fn resolve_leader(
    rules: &Ruleset,
    bets: &[Card],
    hands: &[CardSet],
    dummy: bool,
    attempt: usize,
    rng: &mut ChaCha8Rng,
) -> Option<(Seat, Suit)> {
    let n = bets.len();
    let sum: u32 = bets.iter().map(|c| c.value() as u32).sum::<u32>() + if dummy { 2 } else { 0 };
    let last = rules.bet_attempts.is_some_and(|l| attempt >= l as usize);
    if sum == 7 && !(last && rules.after_last_attempt == AfterLastAttempt::Stands) {
        return None;
    }
    let table = n + dummy as usize;
    let suits = rules.suits(n);
    let rank = bet_rank;
    let choose_trump = |p: Seat| best_trump(hands[p], &suits, table, bets[p].value(), CardSet::EMPTY);
    let top_of = |pool: &[Seat]| {
        let top = pool.iter().map(|&p| bets[p].value()).max().unwrap_or(0);
        pool.iter().copied().filter(|&p| bets[p].value() == top).collect::<Vec<_>>()
    };
    match rules.leader {
        LeaderRule::HighestBet => {
            let best = (0..n).map(|p| rank(bets[p])).max()?;
            let top: Vec<Seat> = (0..n).filter(|&p| rank(bets[p]) == best).collect();
            if top.len() > 1 {
                return None;
            }
            Some((top[0], bets[top[0]].suit()?))
        }
        LeaderRule::Exclarrogatif => {
            let regular: Vec<Seat> = (0..n).filter(|&p| bets[p].is_regular()).collect();
            if regular.is_empty() {
                let stars: Vec<Seat> = (0..n).filter(|&p| bets[p].kind() == Kind::Star).collect();
                let pool = if stars.is_empty() { (0..n).collect() } else { stars };
                let tied = top_of(&pool);
                let p = tied[rng.random_range(0..tied.len())];
                return Some((p, choose_trump(p)));
            }
            let tied = top_of(&regular);
            if tied.len() > 1
                && let Some(h) = tied.iter().copied().find(|&p| hands[p].contains(Card::INTERROBANG))
            {
                return Some((h, bets[h].suit()?));
            }
            let p = *tied.iter().max_by_key(|&&p| rank(bets[p]))?;
            Some((p, bets[p].suit()?))
        }
        LeaderRule::Interrobang => {
            let non_star: Vec<Seat> = (0..n).filter(|&p| bets[p].kind() != Kind::Star).collect();
            let all_star = non_star.is_empty();
            let pool: Vec<Seat> = if all_star { (0..n).collect() } else { non_star };
            let tied = top_of(&pool);
            let p = if tied.len() == 1 {
                tied[0]
            } else {
                match (0..n).find(|&p| hands[p].contains(Card::INTERROBANG)) {
                    Some(h) if tied.contains(&h) => h,
                    _ => tied[rng.random_range(0..tied.len())],
                }
            };
            let trump = if all_star { choose_trump(p) } else { bets[p].suit().unwrap_or(Suit::S) };
            Some((p, trump))
        }
    }
}

/// The oracle solves the whole rest of a round exactly (within its node budget) only when at
/// most this many cards are left to play: a whole deal at four seats, five tricks at five.
pub const ORACLE_WHOLE_CARDS: usize = 28;

/// What the search learnt about one candidate card of a decision, averaged over its samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardValue {
    /// The candidate (a card to play, or a bet card).
    pub card: Card,
    /// Mean round points for the seat (the value the search maximises).
    pub value: f64,
    /// Mean tricks the seat ends the round with (bets: over the samples whose bets did not sum
    /// to 7; plays: after the candidate, as the solver or the playouts finish the round).
    pub tricks: f64,
    /// Share of those samples in which the seat makes its bet (0 to 1).
    pub made: f64,
}

/// Sums over samples for one candidate card.
#[derive(Clone, Copy, Debug, Default)]
struct Acc {
    points: f64,
    tricks: f64,
    made: u32,
}

impl Acc {
    fn add(&mut self, scorer: &Scorer, won: &Won, me: Seat) {
        self.points += scorer.score(won, me) as f64;
        self.tricks += won[me] as f64;
        self.made += (won[me] == scorer.bets[me]) as u32;
    }
}

/// The search engine shared by the expert and the oracle.
pub struct Search {
    budget: Budget,
    rng: ChaCha8Rng,
    solver: Solver,
    moves: Vec<(Card, Won)>,
}

impl Search {
    /// A search with this budget and seed.
    pub fn new(budget: Budget, seed: u64) -> Search {
        Search { budget, rng: ChaCha8Rng::seed_from_u64(seed), solver: Solver::new(17), moves: Vec::new() }
    }

    /// Add to `acc` the exact score for `me` of each card of `cards` in `pos` when the whole
    /// position fits the per-sample node budget; `false` (nothing added, the table cleared, its
    /// contents being unusable) when it does not.
    fn exact_scores(&mut self, pos: &Position, scorer: &Scorer, me: Seat, cards: &[Card], acc: &mut [Acc]) -> bool {
        self.solver.reset_nodes();
        self.solver.node_limit = self.budget.sample_nodes;
        self.solver.evaluate_moves(pos, &mut self.moves);
        self.solver.node_limit = u64::MAX;
        if self.solver.aborted {
            self.solver.set_scorer(*scorer);
            return false;
        }
        for (i, c) in cards.iter().enumerate() {
            if let Some((_, w)) = self.moves.iter().find(|(x, _)| x == c) {
                acc[i].add(scorer, w, me);
            }
        }
        true
    }

    /// Add to `acc` the score for `me` of each legal card in `pos` (in `cards` order): exact
    /// from `exact_from` tricks left, else (or when the budget does not suffice) heuristic
    /// playouts.
    fn score_moves(&mut self, pos: &Position, scorer: &Scorer, me: Seat, cards: &[Card], acc: &mut [Acc]) {
        if pos.tricks_left() <= self.budget.exact_from && self.exact_scores(pos, scorer, me, cards, acc) {
            return;
        }
        for (i, &c) in cards.iter().enumerate() {
            let mut child = *pos;
            child.play(c);
            heuristic_playout(&mut child, &scorer.bets);
            acc[i].add(scorer, &child.won, me);
        }
    }

    /// Solve `pos` exactly within the per-sample node budget; `None` if it does not fit (the
    /// table is then cleared, its contents being unusable).
    fn solve_within(&mut self, pos: &Position, scorer: &Scorer) -> Option<Won> {
        self.solver.reset_nodes();
        self.solver.node_limit = self.budget.sample_nodes;
        let w = self.solver.solve(pos);
        self.solver.node_limit = u64::MAX;
        if self.solver.aborted {
            self.solver.set_scorer(*scorer);
            None
        } else {
            Some(w)
        }
    }

    /// The oracle's move scores on the true deal: every move solved exactly when the whole
    /// position fits the node budget; else, after each move, the heuristic plays for every
    /// seat until `exact_from` tricks are left, and the ending is solved exactly. A whole
    /// position is tried only with at most [`ORACLE_WHOLE_CARDS`] cards left to play (larger
    /// ones, at five seats or more, practically never fit and cost the whole budget).
    fn score_moves_truth(&mut self, pos: &Position, scorer: &Scorer, me: Seat, cards: &[Card], acc: &mut [Acc]) {
        let cards_left = pos.tricks_left() as usize * pos.seats as usize;
        if cards_left <= ORACLE_WHOLE_CARDS && self.exact_scores(pos, scorer, me, cards, acc) {
            return;
        }
        for (i, &c) in cards.iter().enumerate() {
            let mut child = *pos;
            child.play(c);
            while !child.is_over() && child.tricks_left() > self.budget.exact_from {
                let h = heuristic_play(&play_info(&child, &scorer.bets));
                child.play(h);
            }
            let w = match self.solve_within(&child, scorer) {
                Some(w) => w,
                None => {
                    heuristic_playout(&mut child, &scorer.bets);
                    child.won
                }
            };
            acc[i].add(scorer, &w, me);
        }
    }

    /// Choose a card to play from determinized samples of `view`: the best of
    /// [`Search::play_values`] (the first in card order among equals).
    pub fn play(&mut self, view: &SeatView, legal: CardSet, truth: Option<(&[CardSet; MAX_SEATS], &[Card])>) -> Card {
        if legal.len() == 1 {
            return legal.first().expect("one");
        }
        argmax(&self.play_values(view, legal, truth))
    }

    /// Every legal card of `view`'s seat (in card order) with its mean expected round points
    /// for that seat, over the samples of the budget (with `truth`, the oracle's: over the true
    /// deal). A card the solver could not score in a sample counts 0 there, as it always has
    /// in the expert's choice. Uses the search's random numbers: call it where
    /// [`Search::play`] would be called for the same choices to follow.
    pub fn play_values(
        &mut self,
        view: &SeatView,
        legal: CardSet,
        truth: Option<(&[CardSet; MAX_SEATS], &[Card])>,
    ) -> Vec<CardValue> {
        let me = seat_of(view);
        let bet_cards = view.bet_cards().expect("bets are known in play");
        let scorer = Scorer::new(view.rules(), bet_cards);
        self.solver.set_scorer(scorer);
        let cards: Vec<Card> = legal.iter().collect();
        let mut acc = vec![Acc::default(); cards.len()];
        let mut spent = 0u64;
        let mut samples = 0u32;
        match truth {
            Some((hands, pile)) => {
                let pos = position_from_view(view, hands, pile);
                self.score_moves_truth(&pos, &scorer, me, &cards, &mut acc);
                samples = 1;
            }
            None => {
                let know = Knowledge::from_view(view);
                for _ in 0..self.budget.play_samples {
                    let (hands, pile) = know.sample(&mut self.rng);
                    let pos = position_from_view(view, &hands, &pile);
                    self.score_moves(&pos, &scorer, me, &cards, &mut acc);
                    samples += 1;
                    spent += self.solver.nodes;
                    if spent >= self.budget.decision_nodes {
                        break;
                    }
                }
            }
        }
        // Dividing every sum by the same count keeps their order: the choice is the sums'.
        let k = samples.max(1) as f64;
        cards
            .iter()
            .zip(&acc)
            .map(|(&card, a)| CardValue { card, value: a.points / k, tricks: a.tricks / k, made: a.made as f64 / k })
            .collect()
    }

    /// Choose a bet card by Monte Carlo over hidden hands and the others' likely bets: the best
    /// of [`Search::bet_values`] (the first in card order among equals).
    pub fn bet(&mut self, view: &SeatView, legal: CardSet, truth: Option<&[CardSet; MAX_SEATS]>) -> Card {
        if legal.len() == 1 {
            return legal.first().expect("one");
        }
        argmax(&self.bet_values(view, legal, truth))
    }

    /// Every legal bet card of `view`'s seat (in card order) with its mean expected round
    /// points for that seat: over the samples of the budget, the others bet as the heuristic
    /// would on their sampled hands, the leader and trump follow the rules, and heuristic
    /// playouts finish the round; a sum of 7 counts as the average outcome (plus the `bga`
    /// rebid point for the top bid). Uses the search's random numbers, like
    /// [`Search::play_values`].
    pub fn bet_values(
        &mut self,
        view: &SeatView,
        legal: CardSet,
        truth: Option<&[CardSet; MAX_SEATS]>,
    ) -> Vec<CardValue> {
        let BetContext { me, rules, n, dummy, table, attempt, used, know } = BetContext::from_view(view);
        let cands: Vec<Card> = legal.iter().collect();
        let mut sum = vec![0.0f64; cands.len()];
        let mut count = vec![0u32; cands.len()];
        let mut sevens = vec![0u32; cands.len()];
        let mut bonus = vec![0.0f64; cands.len()];
        let mut tricks = vec![0.0f64; cands.len()];
        let mut made = vec![0u32; cands.len()];
        // The oracle knows every hand, but not the others' secret bets nor the Dummy's pile
        // order: its samples vary those (one guess of the others' bets would let the best
        // candidate be the one that guess flatters most).
        let samples = self.budget.bet_samples;
        let mut bet_cards = [Card::INTERROBANG; MAX_SEATS];
        for _ in 0..samples.max(1) {
            let (hands, pile) = match truth {
                Some(h) => (*h, Vec::new()),
                None => know.sample(&mut self.rng),
            };
            let mut pile = pile;
            if truth.is_some() && dummy.is_some() {
                // The oracle does not know the pile's order before play: sample it.
                let (_, p) = know.sample(&mut self.rng);
                pile = p;
            }
            for p in 0..n {
                if p != me {
                    let mut bettable = hands[p].minus(used[p]);
                    bettable.remove(Card::INTERROBANG);
                    bet_cards[p] = if bettable.is_empty() {
                        Card::INTERROBANG
                    } else {
                        heuristic_bet(&rules, hands[p], bettable, table, CardSet::EMPTY)
                    };
                    if truth.is_some() && !bettable.is_empty() && self.rng.random_bool(0.5) {
                        // Half the time, another card within one of the heuristic's value.
                        let v = bet_cards[p].value() as i32;
                        let near: Vec<Card> = bettable.iter().filter(|c| (c.value() as i32 - v).abs() <= 1).collect();
                        bet_cards[p] = near[self.rng.random_range(0..near.len())];
                    }
                }
            }
            for (i, &b) in cands.iter().enumerate() {
                bet_cards[me] = b;
                let bets = &bet_cards[..n];
                match resolve_leader(&rules, bets, &hands, dummy.is_some(), attempt, &mut self.rng) {
                    None => {
                        sevens[i] += 1;
                        if rules.rebid_bonus {
                            let top = bets.iter().map(|&c| bet_rank(c)).max().unwrap_or(0);
                            if bet_rank(b) == top {
                                bonus[i] += 1.0;
                            }
                        }
                    }
                    Some((leader, trump)) => {
                        let mut pos = first_lead(&rules, table, dummy, &hands, &pile, leader, trump);
                        let scorer = Scorer::new(&rules, bets);
                        heuristic_playout(&mut pos, &scorer.bets);
                        let s = scorer.score(&pos.won, me);
                        sum[i] += s as f64;
                        count[i] += 1;
                        tricks[i] += pos.won[me] as f64;
                        made[i] += (pos.won[me] == scorer.bets[me]) as u32;
                    }
                }
            }
        }
        // A sum of 7 means betting again: worth about the average outcome.
        let total: f64 = sum.iter().sum();
        let played: u32 = count.iter().sum();
        let neutral = if played > 0 { total / played as f64 } else { 0.0 };
        let value = |i: usize| {
            let k = count[i] + sevens[i];
            (sum[i] + sevens[i] as f64 * neutral + bonus[i]) / k.max(1) as f64
        };
        (0..cands.len())
            .map(|i| {
                let k = count[i].max(1) as f64;
                CardValue { card: cands[i], value: value(i), tricks: tricks[i] / k, made: made[i] as f64 / k }
            })
            .collect()
    }
}

/// The card of the highest value, the first in card order among equals (the search's choice).
pub fn argmax(values: &[CardValue]) -> Card {
    let best = (0..values.len())
        .max_by(|&a, &b| values[a].value.total_cmp(&values[b].value).then(b.cmp(&a)))
        .expect("a candidate");
    values[best].card
}

/// The `expert` bot family (levels `easy`, `medium`, `hard`, `expert` by budget).
pub struct ExpertBot {
    level: String,
    search: Search,
}

impl ExpertBot {
    /// A search bot with `budget`, named `level`, deterministic for `seed`.
    pub fn new(level: &str, budget: Budget, seed: u64) -> ExpertBot {
        ExpertBot { level: level.to_string(), search: Search::new(budget, seed) }
    }
}

impl Bot<Oh7Game> for ExpertBot {
    fn name(&self) -> String {
        format!("bot:{}", self.level)
    }

    fn choose(&mut self, view: &SeatView<'_>, legal: &[Action]) -> Action {
        match (view.phase(), legal[0]) {
            (PhaseView::Betting { .. }, Action::Bet(_)) => Action::Bet(self.search.bet(view, cards_of(legal), None)),
            (PhaseView::Playing, Action::Play(_)) => Action::Play(self.search.play(view, cards_of(legal), None)),
            _ => other_decision(view, legal),
        }
    }
}

/// The oracle: sees every hand (and the Dummy's pile) of the game it is given. Only for
/// measuring how much room is left above the expert; never offered to players.
pub struct OracleBot {
    search: Search,
}

impl OracleBot {
    /// An oracle with the `expert` budget (its samples are the true deal).
    pub fn new(seed: u64) -> OracleBot {
        let mut b = Budget::EXPERT;
        b.sample_nodes = 1_000_000;
        OracleBot { search: Search::new(b, seed) }
    }

    /// Choose `seat`'s action in `game`, seeing everything.
    pub fn choose_in(&mut self, game: &Oh7Game, seat: Seat, legal: &[Action]) -> Action {
        let view = game.view(seat);
        let hands = true_hands(game);
        let pile = game.dummy_pile();
        match (view.phase(), legal[0]) {
            // Bets: every candidate scored on the true hands over scenarios of the others'
            // secret bets (the heuristic's bet on their true hands, or a card next to it).
            (PhaseView::Betting { .. }, Action::Bet(_)) => {
                Action::Bet(self.search.bet(&view, cards_of(legal), Some(&hands)))
            }
            (PhaseView::Playing, Action::Play(_)) => {
                Action::Play(self.search.play(&view, cards_of(legal), Some((&hands, pile))))
            }
            _ => other_decision(&view, legal),
        }
    }
}

/// Every seat's cards in `game` (the Dummy's: its face-up cards). Only for what may see
/// everything: the oracle and the solver benchmark, never a player's bot.
pub fn true_hands(game: &Oh7Game) -> [CardSet; MAX_SEATS] {
    let mut hands = [CardSet::EMPTY; MAX_SEATS];
    for (p, h) in hands.iter_mut().enumerate().take(game.players()) {
        *h = game.view(p).hand();
    }
    if let Some(d) = game.dummy() {
        hands[d] = game.view(0).dummy_faceup();
    }
    hands
}

/// Expected tricks of a hand (re-exported for tests and the heuristic's users).
pub fn hand_value(hand: CardSet, trump: Option<Suit>, table: usize) -> f32 {
    expected_tricks(hand, trump, table, CardSet::EMPTY)
}
