//! What one seat may know (`oh7.md` §11). A [`SeatView`] borrows the game and exposes only
//! what that seat may see, so making one costs nothing and the rule holds in one place.

use serde_json::Value;

use super::{MAX_SEATS, Oh7Game, Phase, Trick};
use crate::card::Kind;
use crate::card::{Card, CardSet, Suit};
use crate::game::{Seat, SeatSet, SeatViewLike};
use crate::ruleset::{LeaderRule, Ruleset, Scoring};
use crate::view_text::ViewText;

/// The public phase of the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseView {
    /// Choosing cards to pass (`bga` option).
    Passing {
        /// Cards each player passes.
        count: u8,
        /// To the next seat clockwise (R-PASS-1) or the previous one.
        to_left: bool,
    },
    /// Choosing bet cards (attempt number from 1).
    Betting {
        /// Which attempt of this deal.
        attempt: usize,
    },
    /// `fr-advanced`: the tied players may reveal ?.
    Reveal {
        /// The tied players.
        tied: SeatSet,
    },
    /// `kod7`: the ‽ holder picks the first leader.
    ChooseLeader {
        /// Who chooses.
        chooser: Seat,
        /// Among whom.
        among: SeatSet,
    },
    /// The first leader chooses the trump.
    ChooseTrump {
        /// The first leader.
        leader: Seat,
    },
    /// `kod7`: tied all-★ players announce a suit.
    AnnounceTrump {
        /// The tied players.
        tied: SeatSet,
    },
    /// Tricks.
    Playing,
    /// The game has ended.
    Over,
}

/// A finished round as every seat knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundSummary {
    /// Round number.
    pub number: u32,
    /// Bets (the Dummy's third).
    pub bets: Vec<u8>,
    /// The final bet cards, one per player.
    pub bet_cards: Vec<Card>,
    /// Tricks won (the Dummy's third).
    pub won: Vec<u8>,
    /// Points this round.
    pub points: Vec<i32>,
    /// `bga` rebid bonus points included in `points`.
    pub bonus: Vec<i32>,
    /// First leader and trump.
    pub first_leader: Seat,
    /// Trump suit.
    pub trump: Suit,
    /// How many times the round was dealt again.
    pub redeals: usize,
}

/// How one seat scored a round (oh7.md §6), the parts a client words: whether it made its bet,
/// its loss, the basket, whether it bet with Ø, and the points before any rebid bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreParts {
    /// It won exactly its bet.
    pub made: bool,
    /// |bet − tricks won|.
    pub loss: u8,
    /// The sum of every player's loss (the losses of those who failed).
    pub basket: u32,
    /// It bet with Ø (no 2 when made, in `double_basket`).
    pub void: bool,
    /// The round's points by the scoring rule, before the rebid bonus.
    pub base: i32,
}

impl RoundSummary {
    /// How seat `s` of the `players` scored this round under `scoring`: `None` for the Dummy,
    /// or when the parts do not add up to the points (never a wrong explanation).
    pub fn score_parts(&self, scoring: Scoring, s: Seat, players: usize) -> Option<ScoreParts> {
        if s >= players || s >= self.points.len() {
            return None;
        }
        let loss = |p: usize| (self.bets[p] as i32 - self.won[p] as i32).unsigned_abs();
        let basket: u32 = (0..players).map(loss).sum();
        let void = self.bet_cards.get(s).is_some_and(|c| c.kind() == Kind::Void);
        let base = scoring.points(self.bets[s] as i32, self.won[s] as i32, (basket - loss(s)) as i32, void);
        let parts = ScoreParts { made: loss(s) == 0, loss: loss(s) as u8, basket, void, base };
        (base + self.bonus.get(s).copied().unwrap_or(0) == self.points[s]).then_some(parts)
    }
}

/// Why the first leader leads, when it is not plainly the single highest bet (oh7.md §4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderWhy {
    /// How the tie was settled.
    pub why: LeaderBy,
    /// The first leader.
    pub leader: Seat,
    /// The players tied for the lead.
    pub tied: Vec<Seat>,
    /// Who revealed ?/‽, if anyone.
    pub by: Option<Seat>,
}

/// How a tie for the first lead was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaderBy {
    /// By suit priority.
    SuitPriority,
    /// The holder of ? revealed it (`fr-advanced`).
    Revealed,
    /// The holder of ‽ chose (`kod7`).
    Chosen,
    /// By lot: nobody held ‽ (`kod7`).
    Lot,
    /// Every bet was a ★: the highest ★ leads.
    Stars,
}

impl LeaderBy {
    fn name(self) -> &'static str {
        match self {
            LeaderBy::SuitPriority => "suit_priority",
            LeaderBy::Revealed => "revealed",
            LeaderBy::Chosen => "chosen",
            LeaderBy::Lot => "lot",
            LeaderBy::Stars => "stars",
        }
    }
}

/// What one seat (or a spectator) may know.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    g: &'a Oh7Game,
    seat: Option<Seat>,
}

impl<'a> SeatView<'a> {
    pub(crate) fn new(g: &'a Oh7Game, seat: Option<Seat>) -> SeatView<'a> {
        SeatView { g, seat: seat.filter(|&s| s < g.players) }
    }

    /// A spectator's view of `g`: the public part only.
    pub fn spectator(g: &'a Oh7Game) -> SeatView<'a> {
        SeatView { g, seat: None }
    }

    /// The ruleset.
    pub fn rules(&self) -> &'a Ruleset {
        &self.g.rules
    }
    /// Players (the Dummy not counted).
    pub fn players(&self) -> usize {
        self.g.players
    }
    /// Seats at the table, the Dummy included.
    pub fn table_seats(&self) -> usize {
        self.g.seats
    }
    /// The Dummy's seat, if it plays.
    pub fn dummy(&self) -> Option<Seat> {
        self.g.dummy
    }
    /// Seat names.
    pub fn names(&self) -> &'a [String] {
        &self.g.names
    }
    /// Round number.
    pub fn round_number(&self) -> u32 {
        self.g.round.number
    }
    /// Who owes a decision now.
    pub fn to_move(&self) -> SeatSet {
        self.g.to_move
    }
    /// The phase.
    pub fn phase(&self) -> PhaseView {
        match self.g.phase {
            Phase::Passing { count, to_left } => PhaseView::Passing { count, to_left },
            Phase::Betting => PhaseView::Betting { attempt: self.g.round.deal.attempts.len() + 1 },
            Phase::Reveal { tied } => PhaseView::Reveal { tied },
            Phase::ChooseLeader { chooser, among } => PhaseView::ChooseLeader { chooser, among },
            Phase::ChooseTrump { leader } => PhaseView::ChooseTrump { leader },
            Phase::AnnounceTrump { tied } => PhaseView::AnnounceTrump { tied },
            Phase::Playing => PhaseView::Playing,
            Phase::Over => PhaseView::Over,
        }
    }
    /// This seat's hand (empty for a spectator).
    pub fn hand(&self) -> CardSet {
        self.seat.map_or(CardSet::EMPTY, |s| self.g.round.hands[s])
    }
    /// Cards in each seat's hand (the Dummy: its face-up cards).
    pub fn hand_sizes(&self) -> Vec<u32> {
        (0..self.g.seats)
            .map(|s| if Some(s) == self.g.dummy { self.g.round.faceup.len() } else { self.g.round.hands[s].len() })
            .collect()
    }
    /// This seat's own secret choice not yet revealed: its bet card of this attempt, its cards
    /// to pass, its announced suit.
    pub fn my_pending(&self) -> Option<String> {
        let s = self.seat?;
        let r = &self.g.round;
        match self.g.phase {
            Phase::Betting if r.submitted.contains(s) => Some(r.pending[s].to_string()),
            Phase::Passing { .. } if !self.g.to_move.contains(s) => Some(r.pass_choice[s].to_string()),
            Phase::AnnounceTrump { .. } => r.announced[s].map(|x| x.to_string()),
            _ => None,
        }
    }
    /// This seat's bet card of the current attempt, once chosen and until the bets are revealed
    /// (the structured form of [`SeatView::my_pending`] for a bet).
    pub fn my_pending_bet(&self) -> Option<Card> {
        let s = self.seat?;
        let r = &self.g.round;
        (matches!(self.g.phase, Phase::Betting) && r.submitted.contains(s)).then(|| r.pending[s])
    }
    /// Seats that have made their secret choice of the current step (not what they chose).
    pub fn decided(&self) -> SeatSet {
        match self.g.phase {
            Phase::Passing { .. } | Phase::Betting | Phase::AnnounceTrump { .. } | Phase::Reveal { .. } => {
                SeatSet(SeatSet::first(self.g.players).0 & !self.g.to_move.0)
            }
            _ => SeatSet::EMPTY,
        }
    }
    /// The seat this seat passes cards to this deal and the one it receives from (`None` when
    /// the deal has no passing, or for a spectator).
    pub fn pass_partners(&self) -> Option<(Seat, Seat)> {
        let s = self.seat?;
        let n = self.g.players;
        let (_, to_left) = self.g.pass_rule()?;
        Some(if to_left { ((s + 1) % n, (s + n - 1) % n) } else { ((s + n - 1) % n, (s + 1) % n) })
    }
    /// Cards this seat passed this deal and those it received (empty before the passes).
    pub fn my_passes(&self) -> (CardSet, CardSet) {
        let (Some(s), Some((_, from))) = (self.seat, self.pass_partners()) else {
            return (CardSet::EMPTY, CardSet::EMPTY);
        };
        let r = &self.g.round;
        (r.deal.passes[s], r.deal.passes[from])
    }
    /// The completed bet attempts of this deal, revealed (R-BET-3), one card per player.
    pub fn bet_attempts(&self) -> Vec<Vec<Card>> {
        let n = self.g.players;
        self.g.round.deal.attempts.iter().map(|a| a[..n].to_vec()).collect()
    }
    /// How many times this round was dealt again.
    pub fn redeals(&self) -> usize {
        self.g.round.redeals.len()
    }
    /// Revealed bet cards of `seat` still in its hand (R-BET-3).
    pub fn public_bet_cards(&self, seat: Seat) -> CardSet {
        if seat >= self.g.players {
            return CardSet::EMPTY;
        }
        self.g.round.used[seat].and(self.g.round.hands[seat])
    }
    /// The final bets (the Dummy's 2 third), once known.
    pub fn bets(&self) -> Option<&'a [u8]> {
        (!matches!(self.g.phase, Phase::Passing { .. } | Phase::Betting | Phase::Over))
            .then(|| &self.g.round.bets[..self.g.seats])
    }
    /// The final bet cards, once known.
    pub fn bet_cards(&self) -> Option<&'a [Card]> {
        self.bets()?;
        self.g.round.deal.attempts.last().map(|a| &a[..self.g.players])
    }
    /// The first leader and the trump, once play has started.
    pub fn leader_and_trump(&self) -> Option<(Seat, Suit)> {
        (self.g.phase == Phase::Playing).then_some((self.g.round.first_leader, self.g.round.trump))
    }
    /// Who revealed ‽/? this round, if anyone.
    pub fn revealed_interrobang(&self) -> Option<Seat> {
        self.g.round.revealed
    }
    /// Why the first leader leads, once the tricks have begun, when a tie decided it (`None`
    /// when one bet was simply the highest).
    pub fn leader_why(&self) -> Option<LeaderWhy> {
        let (leader, _) = self.leader_and_trump()?;
        let attempts = self.bet_attempts();
        let cards = attempts.last()?;
        let seats = (0..cards.len()).filter(|&p| Some(p) != self.dummy());
        let eligible: Vec<Seat> = match self.rules().leader {
            LeaderRule::Exclarrogatif => seats.filter(|&p| cards[p].is_regular()).collect(),
            LeaderRule::Interrobang => seats.filter(|&p| cards[p].kind() != Kind::Star).collect(),
            LeaderRule::HighestBet => seats.collect(),
        };
        let by = self.revealed_interrobang();
        let value = |p: Seat| cards[p].bet_value().unwrap_or(0);
        let Some(top) = eligible.iter().map(|&p| value(p)).max() else {
            return Some(LeaderWhy { why: LeaderBy::Stars, leader, tied: vec![leader], by: None });
        };
        let tied: Vec<Seat> = eligible.into_iter().filter(|&p| value(p) == top).collect();
        if tied.len() < 2 || !tied.contains(&leader) {
            return None;
        }
        let why = match self.rules().leader {
            LeaderRule::Exclarrogatif if by == Some(leader) => LeaderBy::Revealed,
            LeaderRule::Interrobang if by.is_none() => LeaderBy::Lot,
            LeaderRule::Interrobang => LeaderBy::Chosen,
            _ => LeaderBy::SuitPriority,
        };
        Some(LeaderWhy { why, leader, tied, by })
    }
    /// Suits announced in a `kod7` all-★ tie, once all are in.
    pub fn announced(&self) -> [Option<Suit>; MAX_SEATS] {
        if matches!(self.g.phase, Phase::AnnounceTrump { .. }) {
            let mut a = [None; MAX_SEATS];
            if let Some(s) = self.seat {
                a[s] = self.g.round.announced[s];
            }
            a
        } else {
            self.g.round.announced
        }
    }
    /// The Dummy's face-up cards.
    pub fn dummy_faceup(&self) -> CardSet {
        self.g.round.faceup
    }
    /// Cards left face down in the Dummy's pile.
    pub fn dummy_pile_left(&self) -> usize {
        if self.g.dummy.is_some() { self.g.round.deal.pile.len() - self.g.round.pile_next as usize } else { 0 }
    }
    /// The trick in progress (empty outside play).
    pub fn trick(&self) -> &'a Trick {
        if self.g.phase == Phase::Playing { &self.g.round.trick } else { &Trick::EMPTY }
    }
    /// The seat to lead or that led the trick in progress.
    pub fn trick_leader(&self) -> Option<Seat> {
        (self.g.phase == Phase::Playing).then_some(self.g.round.trick.leader())
    }
    /// The completed tricks of this round.
    pub fn tricks(&self) -> &'a [Trick] {
        &self.g.round.tricks[..self.g.round.n_tricks as usize]
    }
    /// The tricks of the last finished round (empty before the first round is scored). All of
    /// them were played face up, so every seat may know them; the end-of-round screen shows them
    /// because the engine deals the next round as soon as one is scored.
    pub fn last_round_tricks(&self) -> &'a [Trick] {
        let r = if self.g.round.scored { Some(&self.g.round) } else { self.g.history.last() };
        r.map_or(&[], |r| &r.tricks[..r.n_tricks as usize])
    }
    /// Every card played to tricks this round (the trick in progress included).
    pub fn played(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for t in self.tricks().iter().chain(std::iter::once(self.trick())) {
            for &c in t.cards() {
                s.insert(c);
            }
        }
        s
    }
    /// Tricks won this round (the Dummy third).
    pub fn won(&self) -> &'a [u8] {
        &self.g.round.won[..self.g.seats]
    }
    /// Running totals.
    pub fn totals(&self) -> &'a [i32] {
        &self.g.totals[..self.g.players]
    }
    /// Made bets in the game so far.
    pub fn made_bets(&self) -> &'a [u16] {
        &self.g.made[..self.g.players]
    }
    /// Points this round's bonus so far (`bga`).
    pub fn bonus(&self) -> &'a [i32] {
        &self.g.round.bonus[..self.g.players]
    }
    /// Finished rounds, public part.
    pub fn past_rounds(&self) -> Vec<RoundSummary> {
        let n = self.g.players;
        self.g
            .history
            .iter()
            .chain(self.g.round.scored.then_some(&self.g.round))
            .map(|r| RoundSummary {
                number: r.number,
                bets: r.bets[..self.g.seats].to_vec(),
                bet_cards: r.deal.attempts.last().map(|a| a[..n].to_vec()).unwrap_or_default(),
                won: r.won[..self.g.seats].to_vec(),
                points: r.points[..n].to_vec(),
                bonus: r.bonus[..n].to_vec(),
                first_leader: r.first_leader,
                trump: r.trump,
                redeals: r.redeals.len(),
            })
            .collect()
    }
    /// Winners, once the game is over.
    pub fn winners(&self) -> Vec<Seat> {
        self.g.winners.iter().collect()
    }
}

impl SeatViewLike for SeatView<'_> {
    fn seat(&self) -> Option<Seat> {
        self.seat
    }

    fn to_json(&self) -> Value {
        let mut t = ViewText::default();
        self.write_fields(&mut t);
        t.to_json()
    }

    fn write_fields(&self, out: &mut ViewText) {
        out.clear();
        let n = self.players();
        let (passed, received) = self.my_passes();
        let last = self.tricks().last().or_else(|| self.last_round_tricks().last());
        let scoring = self.rules().scoring;
        let past = self.past_rounds();
        out.field("game", "oh7");
        out.field("preset", &self.rules().preset);
        out.field("seat", &self.seat);
        out.field("players", &n);
        out.field("dummy", &self.dummy());
        out.field("names", self.names());
        out.field("round", &self.round_number());
        out.field("phase", &PhaseJ::of(self.phase()));
        out.field("to_move", &Seats(self.to_move()));
        out.field("decided", &Seats(self.decided()));
        out.field("hand", &self.hand());
        out.field("my_pending", &self.my_pending());
        out.field("passed", &passed);
        out.field("received", &received);
        out.field("pass_to", &self.pass_partners().map(|p| p.0));
        out.field("pass_from", &self.pass_partners().map(|p| p.1));
        out.field("hand_sizes", &self.hand_sizes());
        out.field("redeals", &self.redeals());
        out.field("bet_attempts", &self.bet_attempts());
        out.field("public_bet_cards", &(0..n).map(|p| self.public_bet_cards(p)).collect::<Vec<_>>());
        out.field("bets", &self.bets());
        out.field("bonus", self.bonus());
        out.field("leader_trump", &self.leader_and_trump());
        out.field("revealed_interrobang", &self.revealed_interrobang());
        out.field(
            "leader_why",
            &self.leader_why().map(|w| WhyJ { why: w.why.name(), leader: w.leader, tied: w.tied, by: w.by }),
        );
        out.field("announced", &self.announced()[..n]);
        out.field("dummy_faceup", &self.dummy_faceup());
        out.field("dummy_pile_left", &self.dummy_pile_left());
        out.field("trick_leader", &self.trick_leader());
        out.field("trick", &Plays(self.trick()));
        out.field("tricks", &self.tricks().iter().map(TrickJ).collect::<Vec<_>>());
        out.field("last_trick", &last.map(TrickJ));
        out.field("won", self.won());
        out.field("totals", self.totals());
        out.field("made_bets", self.made_bets());
        out.field("past_rounds", &past.iter().map(|r| RoundJ { r, scoring, n }).collect::<Vec<_>>());
        out.field("winners", &self.winners());
    }
}

/// The JSON shapes of a view's parts (written by [`SeatView::write_fields`]).
#[derive(serde::Serialize)]
#[serde(tag = "name", rename_all = "snake_case")]
enum PhaseJ {
    Passing { count: u8, to_left: bool },
    Betting { attempt: usize },
    Reveal { tied: Seats },
    ChooseLeader { chooser: Seat, among: Seats },
    ChooseTrump { leader: Seat },
    AnnounceTrump { tied: Seats },
    Playing,
    Over,
}

impl PhaseJ {
    fn of(p: PhaseView) -> PhaseJ {
        match p {
            PhaseView::Passing { count, to_left } => PhaseJ::Passing { count, to_left },
            PhaseView::Betting { attempt } => PhaseJ::Betting { attempt },
            PhaseView::Reveal { tied } => PhaseJ::Reveal { tied: Seats(tied) },
            PhaseView::ChooseLeader { chooser, among } => PhaseJ::ChooseLeader { chooser, among: Seats(among) },
            PhaseView::ChooseTrump { leader } => PhaseJ::ChooseTrump { leader },
            PhaseView::AnnounceTrump { tied } => PhaseJ::AnnounceTrump { tied: Seats(tied) },
            PhaseView::Playing => PhaseJ::Playing,
            PhaseView::Over => PhaseJ::Over,
        }
    }
}

/// Seats as a list.
struct Seats(SeatSet);

impl serde::Serialize for Seats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

/// A trick's plays: `[[seat, card], …]`.
struct Plays<'a>(&'a Trick);

impl serde::Serialize for Plays<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.plays())
    }
}

/// A trick: its leader, plays and winner.
struct TrickJ<'a>(&'a Trick);

impl serde::Serialize for TrickJ<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("leader", &self.0.leader())?;
        m.serialize_entry("plays", &Plays(self.0))?;
        m.serialize_entry("winner", &self.0.winner())?;
        m.end()
    }
}

#[derive(serde::Serialize)]
struct WhyJ {
    why: &'static str,
    leader: Seat,
    tied: Vec<Seat>,
    by: Option<Seat>,
}

/// A finished round as the view shows it, with each player's score parts.
struct RoundJ<'a> {
    r: &'a RoundSummary,
    scoring: Scoring,
    n: usize,
}

#[derive(serde::Serialize)]
struct PartsJ {
    made: bool,
    loss: u8,
    basket: u32,
    void: bool,
    base: i32,
}

impl serde::Serialize for RoundJ<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (r, n) = (self.r, self.n);
        let why: Vec<Option<PartsJ>> = (0..n)
            .map(|p| {
                r.score_parts(self.scoring, p, n).map(|w| PartsJ {
                    made: w.made,
                    loss: w.loss,
                    basket: w.basket,
                    void: w.void,
                    base: w.base,
                })
            })
            .collect();
        let mut m = s.serialize_map(Some(10))?;
        m.serialize_entry("number", &r.number)?;
        m.serialize_entry("bets", &r.bets)?;
        m.serialize_entry("bet_cards", &r.bet_cards)?;
        m.serialize_entry("won", &r.won)?;
        m.serialize_entry("points", &r.points)?;
        m.serialize_entry("bonus", &r.bonus)?;
        m.serialize_entry("first_leader", &r.first_leader)?;
        m.serialize_entry("trump", &r.trump)?;
        m.serialize_entry("redeals", &r.redeals)?;
        m.serialize_entry("why", &why)?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;
    use crate::game::Game;
    use crate::ruleset::Preset;

    /// oh7.md §6's worked example: bets 3, 3, 2, 0; tricks won 3, 4, 0, 0 (R-SCORE-1).
    fn round(points: [i32; 4], bonus: [i32; 4], last_card: &str) -> RoundSummary {
        RoundSummary {
            number: 1,
            bets: vec![3, 3, 2, 0],
            bet_cards: ["3C", "3H", "2H", last_card].iter().map(|c| c.parse().unwrap()).collect(),
            won: vec![3, 4, 0, 0],
            points: points.to_vec(),
            bonus: bonus.to_vec(),
            first_leader: 0,
            trump: Suit::C,
            redeals: 0,
        }
    }

    #[test]
    fn score_parts_explain_the_worked_examples() {
        let base = |r: &RoundSummary, scoring| {
            (0..4).map(|s| r.score_parts(scoring, s, 4).map(|p| p.base)).collect::<Vec<_>>()
        };
        let en = round([8, -1, -2, 5], [0; 4], "0S");
        assert_eq!(base(&en, Scoring::Basket), [Some(8), Some(-1), Some(-2), Some(5)]);
        let p = en.score_parts(Scoring::Basket, 1, 4).unwrap();
        assert_eq!((p.made, p.loss, p.basket, p.void), (false, 1, 3, false));
        let fr = round([11, 2, 1, 8], [0; 4], "0S");
        assert_eq!(base(&fr, Scoring::DoubleBasket), [Some(11), Some(2), Some(1), Some(8)]);
        // Made with Ø: no 2.
        let void = round([11, 2, 1, 6], [0; 4], "Ø");
        assert_eq!(void.score_parts(Scoring::DoubleBasket, 3, 4).map(|p| (p.base, p.void)), Some((6, true)));
        // bga: bid + 2, a rebid bonus on top of the base.
        let bga = round([6, -1, -2, 2], [1, 0, 0, 0], "0S");
        assert_eq!(bga.score_parts(Scoring::BidPlusTwo, 0, 4).map(|p| p.base), Some(5));
        // Points that are not the rule's, and a seat that is not a player: no explanation.
        assert_eq!(round([9, -1, -2, 5], [0; 4], "0S").score_parts(Scoring::Basket, 0, 4), None);
        assert_eq!(en.score_parts(Scoring::Basket, 3, 3), None);
    }

    /// Random games of every preset: every player's points of every round are explained by the
    /// engine's own rule, and a first leader's reason, when one is given, names a real tie it won.
    #[test]
    fn the_engine_explains_its_rounds_and_its_leaders() {
        let mut seen = std::collections::HashSet::new();
        let mut legal = Vec::new();
        for preset in Preset::ALL {
            for seed in 0..60u64 {
                let rules = Ruleset::preset(preset);
                let players = [3, 4, 5][seed as usize % 3].min(rules.max_players as usize);
                let mut g = Oh7Game::new(rules, players, seed).unwrap();
                let mut pick = seed;
                while let Some(seat) = g.to_move().lowest() {
                    let v = g.view(seat);
                    if let Some(w) = v.leader_why() {
                        seen.insert((preset, w.why));
                        assert!(w.tied.contains(&w.leader), "{preset} seed {seed}: {w:?}");
                        assert!(w.tied.len() >= 2 || w.why == LeaderBy::Stars, "{preset} seed {seed}: {w:?}");
                        assert_eq!(Some(w.leader), v.leader_and_trump().map(|l| l.0));
                    }
                    g.legal_actions(seat, &mut legal);
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    g.apply(seat, legal[(pick >> 33) as usize % legal.len()]).unwrap();
                }
                let v = g.view(0);
                for r in v.past_rounds() {
                    for s in 0..players {
                        assert!(r.score_parts(v.rules().scoring, s, players).is_some(), "{preset} seed {seed}: {r:?}");
                    }
                }
            }
        }
        for want in
            [(Preset::En, LeaderBy::SuitPriority), (Preset::Kod7, LeaderBy::Lot), (Preset::Kod7, LeaderBy::Chosen)]
        {
            assert!(seen.contains(&want), "never saw {want:?}: {seen:?}");
        }
    }
}
