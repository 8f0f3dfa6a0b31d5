//! What one seat (or a spectator) may know of a Seven game (`seven.md`, last section): its own
//! hand, the discard pile's top card and the active suit, every card played, the count of cards
//! in each hand and in the draw pile, pending penalties and locks, totals, whose turn it is, the
//! direction. Never another player's cards or the draw pile's order, and never another seat's
//! answer to an open call-out window before all answers are in (S-OWN-3): only who answered.

use serde_json::Value;
#[cfg(test)]
use serde_json::json;

use super::{Action, Card, CardSet, PenaltyKind, SevenGame, TurnMode};
use crate::game::{Game, Seat, SeatSet, SeatViewLike};
use crate::view_text::ViewText;

/// A seat's (or a spectator's) view, borrowed from the game.
#[derive(Clone, Copy)]
pub struct SevenView<'a> {
    game: &'a SevenGame,
    seat: Option<Seat>,
}

#[cfg(test)]
fn seats_json(set: SeatSet) -> Value {
    Value::from(set.iter().collect::<Vec<_>>())
}

#[cfg(test)]
fn cards_json(set: CardSet) -> Value {
    Value::from(set.iter().map(|c| c.to_string()).collect::<Vec<_>>())
}

impl<'a> SevenView<'a> {
    pub(super) fn new(game: &'a SevenGame, seat: Option<Seat>) -> SevenView<'a> {
        SevenView { game, seat }
    }

    /// The viewer's own hand (`None` for a spectator or a seat that does not exist).
    pub fn hand(&self) -> Option<CardSet> {
        self.seat.filter(|&s| s < self.game.players).map(|s| self.game.hands[s])
    }
    /// The number of cards in each hand.
    pub fn hand_counts(&self) -> Vec<usize> {
        (0..self.game.players).map(|s| self.game.hands[s].len()).collect()
    }
    /// The top of the discard pile.
    pub fn top(&self) -> Card {
        self.game.top()
    }
    /// The active suit.
    pub fn active_suit(&self) -> super::Suit {
        self.game.active_suit
    }
    /// Cards in the draw pile.
    pub fn draw_pile_len(&self) -> usize {
        self.game.draw.len()
    }
    /// Every card played this round, in order, with who played it.
    pub fn played(&self) -> Vec<(Seat, Card)> {
        let Some(round) = self.game.log.last() else { return Vec::new() };
        round
            .turns
            .iter()
            .filter_map(|t| match t.action {
                Action::Play { card, .. } => Some((t.seat as Seat, card)),
                _ => None,
            })
            .collect()
    }
    /// What the seat with the turn may do.
    pub fn mode(&self) -> TurnMode {
        self.game.mode()
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.game.players
    }
    /// The seat names.
    pub fn names(&self) -> Vec<String> {
        self.game.seat_names()
    }
    /// The current round, from 1.
    pub fn round(&self) -> u32 {
        self.game.round()
    }
    /// The seats still in the game.
    pub fn in_game(&self) -> SeatSet {
        self.game.in_game
    }
    /// Running totals, one per seat.
    pub fn totals(&self) -> Vec<i64> {
        self.game.totals()
    }
    /// The seat with the turn (`None` once the game is over).
    pub fn current(&self) -> Option<Seat> {
        (!self.game.over).then_some(self.game.current)
    }
    /// Whether play goes clockwise.
    pub fn clockwise(&self) -> bool {
        self.game.clockwise
    }
    /// The pending 2 / A♠ penalty.
    pub fn penalty(&self) -> Option<super::Penalty> {
        self.game.penalty
    }
    /// Who played the pending 7, if a 7 lock is on.
    pub fn seven_lock(&self) -> Option<Seat> {
        self.game.lock
    }
    /// Seats (in the game) holding one card, and which of them did not announce it when they
    /// played down to it (announcements are said aloud, so this is public).
    pub fn last_card(&self) -> (SeatSet, SeatSet) {
        let g = self.game;
        let one = SeatSet(g.in_game.iter().filter(|&s| g.hands[s].len() == 1).fold(0, |m, s| m | 1 << s));
        (one, SeatSet(one.0 & !g.announced.0))
    }
    /// The open call-out window (S-OWN-3) as this seat may know it: who answered, not what
    /// (but its own answer).
    pub fn call_out(&self) -> Option<CallOutView> {
        let w = self.game.window?;
        let own_answer = self
            .seat
            .filter(|&s| w.answered.contains(s))
            .map(|s| if w.called.contains(s) { Action::CallOut(w.offender) } else { Action::NoCall });
        Some(CallOutView { offender: w.offender, asked: w.asked, answered: w.answered, own_answer })
    }
    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.game.over
    }
    /// The winners (empty until the game is over).
    pub fn winners(&self) -> Vec<Seat> {
        self.game.winners()
    }
    /// How the last finished round ended (`None` before the first one ends): every hand is
    /// counted face up at the end of a round, so this is public.
    pub fn last_round_end(&self) -> Option<RoundEnd> {
        let round = self.game.log.iter().rev().find(|r| r.result.is_some())?;
        let r = round.result?;
        let n = self.game.players;
        Some(RoundEnd {
            number: round.number,
            seats_in: round.seats_in,
            out: r.out,
            points: r.points[..n].to_vec(),
            totals: r.totals[..n].to_vec(),
            eliminated: r.eliminated,
            reset: r.reset,
        })
    }
}

/// An open call-out window as one seat may know it (S-OWN-3): the answers of the others stay
/// hidden until all are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallOutView {
    /// The seat that played down to one card without the announcement.
    pub offender: Seat,
    /// The seats that owe an answer (every other surviving seat).
    pub asked: SeatSet,
    /// The seats that have answered so far (not what they answered).
    pub answered: SeatSet,
    /// The viewer's own answer, once given (`None` for a spectator).
    pub own_answer: Option<Action>,
}

/// How a round of Seven ended, as every seat knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    /// Round number, from 1.
    pub number: u32,
    /// The seats that played the round.
    pub seats_in: SeatSet,
    /// Who went out (`None` for a round cut by the turn limit, S-OWN-7).
    pub out: Option<Seat>,
    /// Points added this round, per seat.
    pub points: Vec<i64>,
    /// Totals after the round (after a drop back to 0), per seat.
    pub totals: Vec<i64>,
    /// Seats eliminated by this round.
    pub eliminated: SeatSet,
    /// Seats whose total hit the limit exactly and dropped back to 0.
    pub reset: SeatSet,
}

impl SeatViewLike for SevenView<'_> {
    fn seat(&self) -> Option<Seat> {
        self.seat
    }

    fn to_json(&self) -> Value {
        let mut t = ViewText::default();
        self.write_fields(&mut t);
        t.to_json()
    }

    /// The fields in the order of their keys (the order the view had when it was a tree).
    fn write_fields(&self, out: &mut ViewText) {
        out.clear();
        let g = self.game;
        let over = g.over;
        let (one, unannounced) = self.last_card();
        let mine = self.hand().map(|hand| {
            let seat = self.seat.expect("a hand has a seat");
            let mut legal = Vec::new();
            g.legal_actions(seat, &mut legal);
            (hand, legal)
        });
        out.field("active_suit", &g.active_suit.to_string());
        out.field(
            "call_out",
            &self.call_out().map(|w| CallOutJ {
                answered: Seats(w.answered),
                asked: Seats(w.asked),
                offender: w.offender,
                own_answer: self.seat.is_some_and(|s| w.asked.contains(s)).then_some(match w.own_answer {
                    Some(Action::CallOut(_)) => Some("call_out"),
                    Some(_) => Some("no_call"),
                    None => None,
                }),
            }),
        );
        out.field("direction", if g.clockwise { "clockwise" } else { "counterclockwise" });
        out.field("discard_pile", &g.discard.len());
        out.field("draw_pile", &g.draw.len());
        out.field("game", "seven");
        if let Some((hand, _)) = &mine {
            out.field("hand", &Cards(*hand));
        }
        out.field("hand_counts", &self.hand_counts());
        out.field("in_game", &Seats(g.in_game));
        out.field(
            "last_card",
            &one.iter().map(|s| LastCardJ { announced: !unannounced.contains(s), seat: s }).collect::<Vec<_>>(),
        );
        if let Some((_, legal)) = &mine {
            out.field("legal", &legal.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        }
        out.field("limit", &g.rules.limit);
        let mode = if over {
            "over"
        } else {
            match g.mode() {
                TurnMode::Normal => "normal",
                TurnMode::Penalty(_) => "penalty",
                TurnMode::Lock { .. } => "seven_lock",
                TurnMode::FreePlay => "free_play",
            }
        };
        out.field("mode", mode);
        out.field("over", &over);
        out.field(
            "past_rounds",
            &g.past_rounds()
                .iter()
                .map(|r| RoundJ {
                    eliminated: Seats(r.eliminated),
                    number: r.number,
                    out: r.out,
                    points: &r.points,
                    reset: Seats(r.reset),
                    totals: &r.totals,
                })
                .collect::<Vec<_>>(),
        );
        out.field(
            "penalty",
            &g.penalty.map(|p| PenaltyJ {
                card: match p.kind {
                    PenaltyKind::Two => "2",
                    PenaltyKind::AceOfSpades => "AS",
                },
                cards: p.cards(),
                count: p.count,
            }),
        );
        out.field("played", &self.played().into_iter().map(|(s, c)| (s, c.to_string())).collect::<Vec<_>>());
        out.field("players", &g.players);
        out.field("round", &g.round());
        out.field("seat", &self.seat);
        out.field("seats", &g.seat_names());
        out.field("seven_lock", &g.lock.map(|owner| LockJ { owner }));
        out.field("to_move", &Seats(g.to_move()));
        out.field("top", &g.top().to_string());
        out.field("totals", &g.totals());
        out.field("turn", &if over { None } else { Some(g.current) });
        out.field("winners", &g.winners());
    }
}

/// The JSON shapes of a view's parts (written by [`SevenView::write_fields`]), their keys in
/// order as a tree had them.
#[derive(serde::Serialize)]
struct CallOutJ {
    answered: Seats,
    asked: Seats,
    offender: Seat,
    /// Only for a seat asked: its answer, `null` before it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    own_answer: Option<Option<&'static str>>,
}

#[derive(serde::Serialize)]
struct LastCardJ {
    announced: bool,
    seat: Seat,
}

#[derive(serde::Serialize)]
struct RoundJ<'a> {
    eliminated: Seats,
    number: u32,
    out: Option<Seat>,
    points: &'a [i64],
    reset: Seats,
    totals: &'a [i64],
}

#[derive(serde::Serialize)]
struct PenaltyJ {
    card: &'static str,
    cards: u32,
    count: u32,
}

#[derive(serde::Serialize)]
struct LockJ {
    owner: Seat,
}

/// Seats as a list.
struct Seats(SeatSet);

impl serde::Serialize for Seats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

/// Cards as a list of their names.
struct Cards(CardSet);

impl serde::Serialize for Cards {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|c| c.to_string()))
    }
}

#[cfg(test)]
impl SevenView<'_> {
    /// The view as the tree it was built as before [`SeatViewLike::write_fields`] (the tests'
    /// reference: the writer must give the same object).
    pub(super) fn tree(&self) -> Value {
        let g = self.game;
        let over = g.over;
        let penalty = g.penalty.map(|p| {
            let card = match p.kind {
                PenaltyKind::Two => "2",
                PenaltyKind::AceOfSpades => "AS",
            };
            json!({ "card": card, "count": p.count, "cards": p.cards() })
        });
        let mode = if over {
            "over"
        } else {
            match g.mode() {
                TurnMode::Normal => "normal",
                TurnMode::Penalty(_) => "penalty",
                TurnMode::Lock { .. } => "seven_lock",
                TurnMode::FreePlay => "free_play",
            }
        };
        let (one, unannounced) = self.last_card();
        let last_card: Vec<Value> =
            one.iter().map(|s| json!({ "seat": s, "announced": !unannounced.contains(s) })).collect();
        let call_out = self.call_out().map(|w| {
            let mut c = json!({
                "offender": w.offender,
                "asked": seats_json(w.asked),
                "answered": seats_json(w.answered),
            });
            if self.seat.is_some_and(|s| w.asked.contains(s)) {
                c["own_answer"] = match w.own_answer {
                    Some(Action::CallOut(_)) => Value::from("call_out"),
                    Some(_) => Value::from("no_call"),
                    None => Value::Null,
                };
            }
            c
        });
        let played: Vec<Value> = self.played().into_iter().map(|(s, c)| json!([s, c.to_string()])).collect();
        let mut v = json!({
            "game": "seven",
            "seat": self.seat,
            "players": g.players,
            "seats": g.seat_names(),
            "limit": g.rules.limit,
            "round": g.round(),
            "in_game": seats_json(g.in_game),
            "totals": g.totals(),
            "hand_counts": self.hand_counts(),
            "draw_pile": g.draw.len(),
            "discard_pile": g.discard.len(),
            "top": g.top().to_string(),
            "active_suit": g.active_suit.to_string(),
            "played": played,
            "turn": if over { None } else { Some(g.current) },
            "to_move": seats_json(g.to_move()),
            "mode": mode,
            "penalty": penalty,
            "seven_lock": g.lock.map(|o| json!({ "owner": o })),
            "direction": if g.clockwise { "clockwise" } else { "counterclockwise" },
            "last_card": last_card,
            "call_out": call_out,
            "over": over,
            "winners": g.winners(),
            "past_rounds": g.past_rounds().iter().map(|r| json!({
                "number": r.number, "out": r.out, "points": r.points, "totals": r.totals,
                "eliminated": seats_json(r.eliminated), "reset": seats_json(r.reset),
            })).collect::<Vec<_>>(),
        });
        if let Some(hand) = self.hand() {
            let seat = self.seat.expect("a hand has a seat");
            let mut legal = Vec::new();
            g.legal_actions(seat, &mut legal);
            v["hand"] = cards_json(hand);
            v["legal"] = Value::from(legal.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        }
        v
    }
}
