//! The `heuristic` Oh 7 bot: bets from a hand evaluation that knows the trump consequence of
//! each bet card, and plays to land exactly on its bet. Its play rule ([`heuristic_play`]) and
//! hand evaluation ([`expected_tricks`]) are plain functions, also used by the expert's
//! playouts.

use oh7_core::card::{Card, CardSet, Kind, Suit};
use oh7_core::game::Seat;
use oh7_core::oh7::trick::{self, winning_index};
use oh7_core::oh7::{Action, MAX_SEATS, Oh7Game, PhaseView, SeatView};
use oh7_core::ruleset::{LeaderRule, Ruleset};

use crate::Bot;
use crate::pi::Position;

/// Chance that a card wins a trick, by value, when its suit is trump.
const TRUMP: [f32; 8] = [0.12, 0.18, 0.26, 0.36, 0.5, 0.66, 0.82, 0.96];
/// ... when it is not trump (a side suit), for three players; more players lower it.
const SIDE: [f32; 8] = [0.0, 0.0, 0.01, 0.03, 0.07, 0.15, 0.32, 0.62];

/// Expected tricks of `hand` with trump `trump` (`None`: not known, another player's suit),
/// at a table of `players` (the Dummy counts as one), knowing that the cards of `others` are
/// held by other players (public bet cards) and `gone` are out of play.
pub fn expected_tricks(hand: CardSet, trump: Option<Suit>, players: usize, others: CardSet) -> f32 {
    let crowd = 0.85f32.powi(players.saturating_sub(3) as i32);
    let mut e = 0.0;
    let mut trumps = 0;
    for c in hand.iter() {
        match c.kind() {
            Kind::Regular(s) => {
                // Higher cards of the suit known to be held by someone else lower the chance.
                let higher = CardSet(s.mask().0 & !((2u128 << c.id()) - 1)).and(others).len() as i32;
                let v = (c.value() as i32 - 2 * higher).max(0) as usize;
                if Some(s) == trump {
                    trumps += 1;
                    e += TRUMP[v];
                } else {
                    let t = if trump.is_none() { 0.7 } else { 1.0 };
                    e += SIDE[v] * crowd * t + if trump.is_none() { 0.25 * TRUMP[v] * 0.3 } else { 0.0 };
                }
            }
            Kind::Star => e += SIDE[c.value() as usize] * crowd * 0.8,
            Kind::Interrobang => e += 0.7,
            Kind::Void => {}
        }
    }
    // Long trumps win extra tricks by ruffing.
    if trumps >= 3 {
        e += 0.35 * (trumps - 2) as f32;
    }
    e
}

/// Whether betting `card` likely makes its holder the first leader (and its suit trump).
fn likely_leader(rules: &Ruleset, card: Card, players: usize) -> bool {
    let Some(_) = card.suit() else { return false };
    let _ = rules;
    card.value() as usize >= if players <= 3 { 3 } else { 4 }
}

/// How far betting `c` is from `hand`'s expected tricks under the trump that bet would bring,
/// and whether it would likely bring its suit as trump.
pub fn bet_miss(rules: &Ruleset, hand: CardSet, c: Card, table: usize, others: CardSet) -> (f32, bool) {
    let trump = likely_leader(rules, c, table).then(|| c.suit()).flatten();
    let e = expected_tricks(hand, trump, table, others);
    ((e - c.value() as f32).abs(), trump.is_some())
}

/// What the heuristic's bet minimises: [`bet_miss`], less 0.15 when the bet would likely bring
/// its suit as trump.
fn bet_distance(rules: &Ruleset, hand: CardSet, c: Card, table: usize, others: CardSet) -> f32 {
    let (miss, trump) = bet_miss(rules, hand, c, table, others);
    if trump { miss - 0.15 } else { miss }
}

/// The heuristic's bet: the card whose value is closest to the hand's expected tricks under the
/// trump that bet would bring.
pub fn heuristic_bet(rules: &Ruleset, hand: CardSet, bettable: CardSet, table: usize, others: CardSet) -> Card {
    let mut best = (f32::MAX, bettable.first().expect("a bettable card"));
    for c in bettable.iter() {
        let d = bet_distance(rules, hand, c, table, others);
        if d < best.0 {
            best = (d, c);
        }
    }
    best.1
}

/// The heuristic's bet made uncertain: each card of `bettable` with probability ∝
/// `exp(−beta · d)`, `d` being what [`heuristic_bet`] minimises (a large `beta` is the
/// heuristic's bet; a small one spreads the bets as real players' do).
pub fn soft_heuristic_bet(
    rules: &Ruleset,
    hand: CardSet,
    bettable: CardSet,
    table: usize,
    beta: f64,
    rng: &mut impl rand::Rng,
) -> Card {
    let mut cards = [(Card::INTERROBANG, 0.0f64); 24];
    let mut k = 0;
    let mut low = f64::MAX;
    for c in bettable.iter().take(cards.len()) {
        let d = f64::from(bet_distance(rules, hand, c, table, CardSet::EMPTY));
        low = low.min(d);
        cards[k] = (c, d);
        k += 1;
    }
    let mut total = 0.0;
    for x in &mut cards[..k] {
        x.1 = (-beta * (x.1 - low)).exp();
        total += x.1;
    }
    let mut u = rng.random::<f64>() * total;
    for &(c, w) in &cards[..k] {
        if u < w {
            return c;
        }
        u -= w;
    }
    cards[k - 1].0
}

/// What a seat knows when it plays a card (its own hand and the public state).
#[derive(Clone, Copy, Debug)]
pub struct PlayInfo<'a> {
    /// The seat to play.
    pub me: usize,
    /// Its hand.
    pub hand: CardSet,
    /// Its legal cards.
    pub legal: CardSet,
    /// The trick so far.
    pub trick: &'a [Card],
    /// The seat winning the trick so far.
    pub winner: Option<usize>,
    /// Trump.
    pub trump: Suit,
    /// Bets per seat.
    pub bets: [u8; MAX_SEATS],
    /// Tricks won per seat.
    pub won: [u8; MAX_SEATS],
    /// Tricks left, the one in progress included.
    pub tricks_left: u8,
    /// Cards still to come in this trick after this one.
    pub after_me: u8,
}

fn wins_now(trick_so_far: &[Card], c: Card, trump: Suit) -> bool {
    let mut t = [Card::INTERROBANG; MAX_SEATS + 1];
    t[..trick_so_far.len()].copy_from_slice(trick_so_far);
    t[trick_so_far.len()] = c;
    winning_index(&t[..=trick_so_far.len()], trump) == trick_so_far.len()
}

fn strength(c: Card, trump: Suit, lead: Option<Suit>) -> i32 {
    trick::trick_key(c, trump, lead.or(c.suit())) as i32 * 16 + c.value() as i32 * 2 + c.is_regular() as i32
}

/// The heuristic play: win when short of the bet, duck when at or over it, and spoil a seat
/// that is at its bet by letting it win.
pub fn heuristic_play(i: &PlayInfo) -> Card {
    let need = i.bets[i.me] as i32 - i.won[i.me] as i32;
    let lead = trick::lead_suit(i.trick);
    let key = |c: &Card| strength(*c, i.trump, lead);
    let legal = i.legal;
    let highest = |s: CardSet| s.iter().max_by_key(key);
    let lowest = |s: CardSet| s.iter().min_by_key(key);
    let mut want_win = need > 0;
    if i.trick.is_empty() {
        return if want_win {
            // Lead the strongest card: a high trump, else the highest card.
            highest(legal).expect("a legal card")
        } else {
            // Lead the weakest card: Ø first, never ‽ or a trump if avoidable.
            let safe = legal.minus(CardSet::from_cards(&[Card::INTERROBANG])).minus(i.trump.mask());
            lowest(if safe.is_empty() { legal } else { safe }).expect("a legal card")
        };
    }
    let mut winners = CardSet::EMPTY;
    for c in legal.iter() {
        if wins_now(i.trick, c, i.trump) {
            winners.insert(c);
        }
    }
    let losers = legal.minus(winners);
    // Spoil: when not pressed, let a seat that is already at its bet keep the trick.
    if want_win
        && (need as u8) < i.tricks_left
        && i.after_me == 0
        && let Some(w) = i.winner
        && w != i.me
        && i.bets[w] <= i.won[w]
        && !losers.is_empty()
    {
        want_win = false;
    }
    if want_win {
        if winners.is_empty() {
            lowest(legal).expect("a legal card")
        } else if i.after_me == 0 {
            lowest(winners).expect("non-empty")
        } else {
            highest(winners).expect("non-empty")
        }
    } else if !losers.is_empty() {
        highest(losers).expect("non-empty")
    } else if i.after_me > 0 {
        lowest(winners).expect("non-empty")
    } else {
        highest(winners).expect("non-empty")
    }
}

/// A rollout play that sees every hand of the determinization (`rollout=sighted`, a research
/// setting): short of its bet, a seat plays its cheapest card that no later player of the trick
/// can beat with the cards it holds (else its cheapest card); at or over its bet, its highest
/// card that cannot win the trick or that a later player must beat (else its cheapest).
pub fn sighted_play(pos: &Position, bets: &[u8; MAX_SEATS]) -> Card {
    let me = pos.to_move();
    let legal = pos.legal();
    let trump = pos.trump;
    let trick = pos.trick_cards();
    let want = bets[me] > pos.won[me];
    let later = &pos.order[pos.trick_len as usize + 1..pos.seats as usize];
    // The strongest and weakest answer of each later player, for a lead suit.
    let answers = |lead: Option<Suit>| {
        let mut top = 0u8;
        let mut forced = 0u8;
        for &q in later {
            let mut hi = 0u8;
            let mut lo = u8::MAX;
            for d in trick::legal_plays(pos.hands[q as usize], lead).iter() {
                let k = trick::trick_key(d, trump, lead);
                hi = hi.max(k);
                lo = lo.min(k);
            }
            top = top.max(hi);
            if lo != u8::MAX {
                forced = forced.max(lo);
            }
        }
        (top, forced)
    };
    let fixed = trick::lead_suit(trick);
    let best_so_far = |lead: Option<Suit>| trick.iter().map(|&c| trick::trick_key(c, trump, lead)).max().unwrap_or(0);
    let mut cache: [(Option<Suit>, u8, u8, u8); 6] = [(None, 0, 0, 0); 6];
    let mut cached = 0usize;
    let mut sure = CardSet::EMPTY;
    let mut loses = CardSet::EMPTY;
    for c in legal.iter() {
        let lead = fixed.or(c.suit());
        let (top, forced, before) = match cache[..cached].iter().find(|x| x.0 == lead) {
            Some(&(_, t, f, b)) => (t, f, b),
            None => {
                let (t, f) = answers(lead);
                let b = best_so_far(lead);
                if cached < cache.len() {
                    cache[cached] = (lead, t, f, b);
                    cached += 1;
                }
                (t, f, b)
            }
        };
        let k = trick::trick_key(c, trump, lead);
        let wins_now = k > before;
        if wins_now && k >= top {
            sure.insert(c);
        }
        if !wins_now || forced > k {
            loses.insert(c);
        }
    }
    let key = |c: &Card| strength(*c, trump, fixed);
    let lowest = |s: CardSet| s.iter().min_by_key(key);
    let highest = |s: CardSet| s.iter().max_by_key(key);
    if want {
        lowest(sure)
            .or_else(|| lowest(legal.minus(CardSet::from_cards(&[Card::INTERROBANG]))))
            .or_else(|| lowest(legal))
    } else {
        highest(loses).or_else(|| lowest(legal))
    }
    .expect("a legal card")
}

/// [`PlayInfo`] of the seat to play in a perfect-information position.
pub fn play_info<'a>(pos: &'a Position, bets: &[u8; MAX_SEATS]) -> PlayInfo<'a> {
    let me = pos.to_move();
    PlayInfo {
        me,
        hand: pos.hands[me],
        legal: pos.legal(),
        trick: pos.trick_cards(),
        winner: pos.current_winner(),
        trump: pos.trump,
        bets: *bets,
        won: pos.won,
        tricks_left: pos.tricks_left(),
        after_me: pos.seats - pos.trick_len - 1,
    }
}

/// Play the rest of `pos` with [`heuristic_play`] for every seat.
pub fn heuristic_playout(pos: &mut Position, bets: &[u8; MAX_SEATS]) {
    while !pos.is_over() {
        let c = heuristic_play(&play_info(pos, bets));
        pos.play(c);
    }
}

/// Cards other players are known to hold (their public bet cards).
pub fn public_others(view: &SeatView, me: Seat) -> CardSet {
    let mut s = CardSet::EMPTY;
    for p in 0..view.players() {
        if p != me {
            s = s.or(view.public_bet_cards(p));
        }
    }
    s.or(view.dummy_faceup())
}

/// The suit that gives `hand` the best chance to make `bet` as trump.
pub fn best_trump(hand: CardSet, suits: &[Suit], table: usize, bet: u8, others: CardSet) -> Suit {
    let mut best = (f32::MAX, suits[0]);
    for &s in suits {
        let d = (expected_tricks(hand, Some(s), table, others) - bet as f32).abs();
        if d < best.0 {
            best = (d, s);
        }
    }
    best.1
}

/// A decision other than a bet or a play, decided by simple rules shared by the heuristic and
/// the expert: passes, reveals, leader and trump choices.
pub fn other_decision(view: &SeatView, legal: &[Action]) -> Action {
    let me = view.seat_of();
    let hand = view.hand();
    let table = view.table_seats();
    let others = public_others(view, me);
    let attempts = view.bet_attempts();
    let my_bet = attempts.last().map(|a| a[me]);
    match legal[0] {
        Action::Pass(_) => {
            // Pass the cards that win the least predictably: the highest side cards.
            let key = |a: &Action| match a {
                Action::Pass(s) => {
                    s.iter().map(|c| c.value() as i32 + if c.is_regular() { 0 } else { -8 }).sum::<i32>()
                }
                _ => 0,
            };
            *legal.iter().max_by_key(|a| key(a)).expect("non-empty")
        }
        Action::Reveal(_) => {
            // Reveal when leading with my bet's suit as trump suits the bet.
            let yes = legal.contains(&Action::Reveal(true));
            Action::Reveal(yes)
        }
        Action::ChooseLeader(_) => {
            if legal.contains(&Action::ChooseLeader(me)) {
                return Action::ChooseLeader(me);
            }
            // Otherwise the leader whose trump suits my bet best.
            let bet = my_bet.map_or(0, |c| c.value());
            let last = attempts.last().cloned().unwrap_or_default();
            *legal
                .iter()
                .min_by_key(|a| match a {
                    Action::ChooseLeader(p) => {
                        let trump = last.get(*p).and_then(|c| c.suit());
                        ((expected_tricks(hand, trump, table, others) - bet as f32).abs() * 100.0) as i32
                    }
                    _ => 0,
                })
                .expect("non-empty")
        }
        Action::ChooseTrump(_) | Action::AnnounceTrump(_) => {
            let suits: Vec<Suit> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::ChooseTrump(s) | Action::AnnounceTrump(s) => Some(*s),
                    _ => None,
                })
                .collect();
            let s = best_trump(hand, &suits, table, my_bet.map_or(0, |c| c.value()), others);
            if matches!(legal[0], Action::ChooseTrump(_)) { Action::ChooseTrump(s) } else { Action::AnnounceTrump(s) }
        }
        a => a,
    }
}

/// Helper: the seat of a player's view.
trait SeatOf {
    fn seat_of(&self) -> Seat;
}
impl SeatOf for SeatView<'_> {
    fn seat_of(&self) -> Seat {
        oh7_core::game::SeatViewLike::seat(self).expect("a player's view")
    }
}

/// The seat's [`PlayInfo`] from its view.
pub fn view_play_info<'a>(view: &SeatView<'a>, legal: CardSet) -> PlayInfo<'a> {
    let me = view.seat_of();
    let (_, trump) = view.leader_and_trump().expect("playing");
    let t = view.trick();
    let mut bets = [0; MAX_SEATS];
    let b = view.bets().unwrap_or(&[]);
    bets[..b.len()].copy_from_slice(b);
    let mut won = [0; MAX_SEATS];
    won[..view.won().len()].copy_from_slice(view.won());
    let winner = (!t.is_empty()).then(|| t.plays().nth(winning_index(t.cards(), trump)).expect("a play").0);
    PlayInfo {
        me,
        hand: view.hand(),
        legal,
        trick: t.cards(),
        winner,
        trump,
        bets,
        won,
        tricks_left: (7 - view.tricks().len()) as u8,
        after_me: (view.table_seats() - t.len() - 1) as u8,
    }
}

/// Legal cards of a list of actions (bets or plays).
pub fn cards_of(legal: &[Action]) -> CardSet {
    let mut s = CardSet::EMPTY;
    for a in legal {
        if let Action::Bet(c) | Action::Play(c) = a {
            s.insert(*c);
        }
    }
    s
}

/// The heuristic bot. Deterministic (it uses no randomness at all).
#[derive(Default)]
pub struct HeuristicBot;

impl HeuristicBot {
    /// A heuristic bot.
    pub fn new() -> HeuristicBot {
        HeuristicBot
    }
}

impl Bot<Oh7Game> for HeuristicBot {
    fn name(&self) -> String {
        "bot:heuristic".into()
    }

    fn choose(&mut self, view: &SeatView<'_>, legal: &[Action]) -> Action {
        let me = view.seat_of();
        match (view.phase(), legal[0]) {
            (PhaseView::Betting { .. }, Action::Bet(_)) => {
                let c = heuristic_bet(
                    view.rules(),
                    view.hand(),
                    cards_of(legal),
                    view.table_seats(),
                    public_others(view, me),
                );
                Action::Bet(c)
            }
            (PhaseView::Playing, Action::Play(_)) => {
                Action::Play(heuristic_play(&view_play_info(view, cards_of(legal))))
            }
            _ => other_decision(view, legal),
        }
    }
}

/// Whether the rules make ★ bets ignore the trump (`kod7`, `fr-advanced`).
pub fn stars_never_lead(rules: &Ruleset) -> bool {
    rules.leader != LeaderRule::HighestBet
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::game::Game;
    use oh7_core::ruleset::Preset;
    use rand::SeedableRng;

    #[test]
    fn the_soft_bet_is_a_bettable_card_and_sharpens_into_the_heuristics() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for seed in 0..40 {
            let preset = [Preset::En, Preset::Kod7, Preset::Bga][seed as usize % 3];
            let rules = Ruleset::preset(preset);
            let g = Oh7Game::new(rules, 4, seed).unwrap();
            let view = g.view(g.to_move().lowest().unwrap());
            let hand = view.hand();
            let mut bettable = hand;
            bettable.remove(Card::INTERROBANG);
            let sharp = heuristic_bet(&rules, hand, bettable, 4, CardSet::EMPTY);
            // At a large beta the soft bet is one of the heuristic's best (ties split by lot).
            let d = |c: Card| bet_distance(&rules, hand, c, 4, CardSet::EMPTY);
            assert_eq!(d(soft_heuristic_bet(&rules, hand, bettable, 4, 1e4, &mut rng)), d(sharp));
            let mut seen = CardSet::EMPTY;
            for _ in 0..200 {
                let c = soft_heuristic_bet(&rules, hand, bettable, 4, 0.5, &mut rng);
                assert!(bettable.contains(c), "{c} is not bettable");
                seen.insert(c);
            }
            assert!(seen.len() > 1, "a soft bet at beta 0.5 should vary (seed {seed})");
        }
    }

    /// Three seats, ♥ trump, seat 0 to lead with `mine` while seats 1 and 2 hold `one`, `two`.
    fn lead_position(mine: &str, one: &str, two: &str) -> Position {
        let rules = Ruleset::preset(Preset::Kod7);
        let set = |t: &str| t.split_whitespace().map(|c| c.parse::<Card>().unwrap()).collect::<CardSet>();
        let mut pos = Position::empty(&rules, 3, None, Suit::H);
        pos.hands[..3].copy_from_slice(&[set(mine), set(one), set(two)]);
        pos.tricks_done = (oh7_core::oh7::TRICKS - 2) as u8;
        pos.resume(0, &[]);
        pos
    }

    #[test]
    fn the_sighted_play_wins_cheaply_when_short_and_ducks_what_must_lose_when_not() {
        let card = |t: &str| t.parse::<Card>().unwrap();
        let pos = lead_position("6H 2H", "5H 3S", "4H 1C");
        let mut bets = [0u8; MAX_SEATS];
        bets[0] = 1;
        // Short of its bet: 6♥ is the one lead nobody can beat.
        assert_eq!(sighted_play(&pos, &bets), card("6H"));
        // At its bet: 2♥ must lose (seat 1 has to follow with 5♥), 6♥ would win.
        bets[0] = 0;
        assert_eq!(sighted_play(&pos, &bets), card("2H"));
        // Short, with no sure winner: the cheapest card, not a high one thrown away.
        let pos = lead_position("3H 2H", "6H 3S", "4H 1C");
        bets[0] = 1;
        assert_eq!(sighted_play(&pos, &bets), card("2H"));
    }
}
