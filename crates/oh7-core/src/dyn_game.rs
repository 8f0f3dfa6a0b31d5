//! Either game behind one object-safe, text-shaped interface, for the consumers that hold "a
//! game of some kind" (a server table, a resumed record, a replayed file) and need no more than
//! text actions and JSON views.
//!
//! [`DynGame`] is implemented once, for every [`Game`], by a blanket impl: a new game gets it
//! for free. Code that needs the concrete game (a terminal table's drawing, per-game statistics)
//! downcasts with [`DynGame::as_any`]. Hot paths (simulations, bots' searches) stay on the
//! generic [`Game`] interface; this one costs a virtual call and text per action.

use std::any::Any;
use std::fmt;

use serde_json::Value;

use crate::game::{Game, Seat, SeatSet, SeatViewLike};
use crate::moves::Move;
use crate::refusal::{Coded, Refused};

/// A game of either kind, seen through text actions and JSON views (object safe).
///
/// Actions are the engine's own text (`play 7H`, `draw`): [`DynGame::legal_text`] gives them,
/// [`DynGame::apply_text`] reads them back, so a log of action texts replays a game exactly.
pub trait DynGame: Send + Sync {
    /// The game's name in records and on the wire (`oh7`, `seven`).
    fn game_name(&self) -> &'static str;
    /// Players (the Dummy not counted).
    fn players(&self) -> usize;
    /// Name the seats (the names go into the record); a list whose length is not the number of
    /// players is ignored.
    fn set_seat_names(&mut self, names: Vec<String>);
    /// The seats that owe a decision now.
    fn to_move(&self) -> SeatSet;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// The legal actions of `seat`, as text (empty if it owes nothing).
    fn legal_text(&self, seat: Seat) -> Vec<String>;
    /// The legal actions of `seat`, structured for a client ([`Game::describe`]), in the order of
    /// [`DynGame::legal_text`].
    fn legal_moves(&self, seat: Seat) -> Vec<Move>;
    /// Read and apply an action of `seat` written as text, read as [`Game::parse_action`] reads
    /// it (so that logs written before the notation was enforced replay); returns its canonical
    /// text. Refused with `game_over` or `not_your_turn` when the seat owes nothing, else with
    /// the engine's own refusal; on error the game is unchanged. A command from a client goes
    /// through [`DynGame::check_text`] first.
    fn apply_text(&mut self, seat: Seat, text: &str) -> Result<String, Refused>;
    /// Whether `text` is a legal action of `seat` now, in the documented notation
    /// ([`Game::names_exactly`]: in Oh 7 the verb must be the decision's), changing nothing: its
    /// canonical text, `unreadable` for text not in the notation (a bare card, another verb), or
    /// the refusal [`DynGame::apply_text`] would give (so a server can check, write its log,
    /// then apply, with no copy of the game to roll back).
    fn check_text(&self, seat: Seat, text: &str) -> Result<String, Refused>;
    /// [`DynGame::check_text`] as kind as [`DynGame::apply_text`]: for a log's own entries,
    /// some written before the notation was enforced (format 1 logged the text as sent).
    fn check_logged_text(&self, seat: Seat, text: &str) -> Result<String, Refused>;
    /// Read `text` as an action of `seat` once and check it is legal now (in the documented
    /// notation when `strict`, as [`DynGame::check_text`]; as kindly as a log when not), changing
    /// nothing: the action itself, ready for [`DynGame::apply_checked`], which does not read it
    /// again.
    fn check_action(&self, seat: Seat, text: &str, strict: bool) -> Result<Checked, Refused>;
    /// Apply an action [`DynGame::check_action`] read, in the state it was read in (a server
    /// checks, writes its log, then applies, with no change between). Refused, and nothing
    /// changed, if the action is not this game's or no longer legal.
    fn apply_checked(&mut self, checked: Checked) -> Result<(), Refused>;
    /// What `seat` may know as JSON (`None`: a spectator).
    fn view_json(&self, seat: Option<Seat>) -> Value;
    /// The same view as [`DynGame::view_json`], as the text of each field (`out` is cleared).
    fn view_text(&self, seat: Option<Seat>, out: &mut crate::view_text::ViewText);
    /// Running totals, one per seat.
    fn totals(&self) -> Vec<i64>;
    /// The winners (empty until the game is over).
    fn winners(&self) -> Vec<Seat>;
    /// The game record so far, as one JSON value (it holds the seed and every hand).
    fn record(&self) -> Value;
    /// A copy of the game, boxed.
    fn box_clone(&self) -> Box<dyn DynGame>;
    /// The concrete game, to downcast (`as_any().downcast_ref::<Oh7Game>()`).
    fn as_any(&self) -> &dyn Any;
    /// The concrete game by value, to downcast without a copy.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<G: Game + Sync + 'static> DynGame for G {
    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn players(&self) -> usize {
        Game::players(self)
    }

    fn set_seat_names(&mut self, names: Vec<String>) {
        Game::set_seat_names(self, names);
    }

    fn to_move(&self) -> SeatSet {
        Game::to_move(self)
    }

    fn is_over(&self) -> bool {
        Game::is_over(self)
    }

    fn legal_text(&self, seat: Seat) -> Vec<String> {
        let mut out = Vec::new();
        Game::legal_actions(self, seat, &mut out);
        out.iter().map(ToString::to_string).collect()
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let mut out = Vec::new();
        Game::legal_actions(self, seat, &mut out);
        out.iter().map(|a| Game::describe(self, seat, a)).collect()
    }

    fn apply_text(&mut self, seat: Seat, text: &str) -> Result<String, Refused> {
        if !Game::to_move(self).contains(seat) {
            return Err(if Game::is_over(self) { Refused::game_over() } else { Refused::not_your_turn(seat) });
        }
        let action = Game::parse_action(self, seat, text).map_err(|e| e.refused())?;
        Game::apply(self, seat, action).map_err(|e| e.refused())?;
        Ok(action.to_string())
    }

    fn check_text(&self, seat: Seat, text: &str) -> Result<String, Refused> {
        check(self, seat, text, true).map(|a| a.to_string())
    }

    fn check_logged_text(&self, seat: Seat, text: &str) -> Result<String, Refused> {
        check(self, seat, text, false).map(|a| a.to_string())
    }

    fn check_action(&self, seat: Seat, text: &str, strict: bool) -> Result<Checked, Refused> {
        let action = check(self, seat, text, strict)?;
        Ok(Checked { seat, text: action.to_string(), action: Box::new(action) })
    }

    fn apply_checked(&mut self, checked: Checked) -> Result<(), Refused> {
        let Checked { seat, text, action } = checked;
        let Ok(action) = action.downcast::<G::Action>() else {
            return Err(Refused {
                rule: "not_a_choice",
                params: Default::default(),
                message: format!("{text} is not an action of this game"),
            });
        };
        Game::apply(self, seat, *action).map_err(|e| e.refused())
    }

    fn view_json(&self, seat: Option<Seat>) -> Value {
        match seat {
            Some(s) => Game::view(self, s).to_json(),
            None => Game::spectator_view(self).to_json(),
        }
    }

    fn view_text(&self, seat: Option<Seat>, out: &mut crate::view_text::ViewText) {
        match seat {
            Some(s) => Game::view(self, s).write_fields(out),
            None => Game::spectator_view(self).write_fields(out),
        }
    }

    fn totals(&self) -> Vec<i64> {
        Game::totals(self)
    }

    fn winners(&self) -> Vec<Seat> {
        Game::winners(self)
    }

    fn record(&self) -> Value {
        Game::record(self)
    }

    fn box_clone(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// An action read from text and found legal ([`DynGame::check_action`]): its seat, its canonical
/// text (what a log keeps), and the action itself, which [`DynGame::apply_checked`] applies
/// without reading the text again.
pub struct Checked {
    seat: Seat,
    text: String,
    action: Box<dyn Any + Send + Sync>,
}

impl Checked {
    /// The seat that acts.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// The action's canonical text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Debug for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checked").field("seat", &self.seat).field("text", &self.text).finish()
    }
}

/// Whether `text` is a legal action of `seat` now (in the documented notation when `strict`):
/// the action, or the refusal.
fn check<G: Game + Sync + 'static>(g: &G, seat: Seat, text: &str, strict: bool) -> Result<G::Action, Refused> {
    if !Game::to_move(g).contains(seat) {
        return Err(if Game::is_over(g) { Refused::game_over() } else { Refused::not_your_turn(seat) });
    }
    let action = Game::parse_action(g, seat, text).map_err(|e| e.refused())?;
    if strict && !Game::names_exactly(g, text, &action) {
        return Err(Refused::not_the_notation(text, &action.to_string()));
    }
    let mut legal = Vec::new();
    Game::legal_actions(g, seat, &mut legal);
    if legal.contains(&action) {
        return Ok(action);
    }
    // The engine's own reason, found on a copy: only on the refusal path.
    match Game::apply(&mut g.clone(), seat, action) {
        Err(e) => Err(e.refused()),
        // Against the Game contract (apply takes only legal actions); refused all the same.
        Ok(()) => Err(Refused {
            rule: "not_a_choice",
            params: Default::default(),
            message: format!("{action} is not among the legal actions"),
        }),
    }
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        (**self).box_clone()
    }
}

impl fmt::Debug for dyn DynGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynGame")
            .field("game", &self.game_name())
            .field("players", &self.players())
            .field("to_move", &self.to_move())
            .field("over", &self.is_over())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Seat;
    use crate::oh7::Oh7Game;
    use crate::ruleset::{Preset, Ruleset};
    use crate::seven::{SevenGame, SevenRules};

    fn both() -> Vec<Box<dyn DynGame>> {
        vec![
            Box::new(Oh7Game::new(Ruleset::preset(Preset::En), 4, 3).unwrap()),
            Box::new(SevenGame::new(SevenRules::default(), 4, 3).unwrap()),
        ]
    }

    /// Both games can be shared between threads (a server hands views out from several).
    #[test]
    fn both_games_are_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<Oh7Game>();
        shared::<SevenGame>();
        shared::<Box<dyn DynGame>>();
    }

    /// The structured legal actions are the legal texts, in order, each about what its text
    /// names: a card of the seat's hand, the seat its passed cards reach (what the receiver's view
    /// then shows), a suit or a seat. Random games of every preset with passing and of Seven.
    #[test]
    fn legal_moves_describe_the_legal_texts() {
        use crate::moves::MoveKind;
        use crate::registry::GameSpec;
        let mut specs: Vec<(GameSpec, usize)> =
            Preset::ALL.iter().map(|p| (GameSpec::oh7(Ruleset::preset(*p)), 4)).collect();
        let mut passing = Ruleset::preset(Preset::Bga);
        passing.passing = true;
        specs.push((GameSpec::oh7(passing), 5));
        specs.push((GameSpec::seven(SevenRules::default()), 4));
        let mut kinds = std::collections::BTreeSet::new();
        for (spec, n) in specs {
            for seed in 0..3u64 {
                let mut g = spec.new_game(n, seed).unwrap();
                let mut pick = seed;
                let mut given: Vec<Option<(Seat, Vec<String>)>> = vec![None; n];
                // (round, giver, receiver) of every pass made.
                let mut sent = Vec::new();
                while let Some(seat) = g.to_move().lowest() {
                    let moves = g.legal_moves(seat);
                    let texts: Vec<String> = moves.iter().map(|m| m.a.clone()).collect();
                    assert_eq!(texts, g.legal_text(seat));
                    let view = g.view_json(Some(seat));
                    let hand: Vec<String> = serde_json::from_value(view["hand"].clone()).unwrap();
                    for m in &moves {
                        kinds.insert(m.kind);
                        if let Some(c) = &m.card {
                            assert!(hand.contains(c), "{} names {c}, not in {hand:?}", m.a);
                            assert!(m.a.contains(c.as_str()));
                        }
                        for c in &m.cards {
                            assert!(hand.contains(c), "{} passes {c}, not in {hand:?}", m.a);
                        }
                        if m.kind == MoveKind::PassCards {
                            assert_eq!(view["pass_to"], serde_json::json!(m.seat), "{}", m.a);
                            assert_eq!(m.cards.len(), view["phase"]["count"].as_u64().unwrap() as usize);
                        }
                        if let Some(s) = &m.suit {
                            assert!(m.a.contains(s.as_str()));
                        }
                    }
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let m = &moves[(pick >> 33) as usize % moves.len()];
                    if m.kind == MoveKind::PassCards {
                        given[seat] = Some((m.seat.unwrap(), m.cards.clone()));
                        sent.push((view["round"].as_u64().unwrap(), seat, m.seat.unwrap()));
                    }
                    g.apply_text(seat, &m.a).unwrap();
                    // Once every pass is made, each receiver's view shows what its giver gave.
                    if given.iter().all(Option::is_some) {
                        for (from, gift) in given.iter().enumerate() {
                            let (to, cards) = gift.clone().unwrap();
                            let v = g.view_json(Some(to));
                            assert_eq!(v["pass_from"], serde_json::json!(from));
                            assert_eq!(v["received"], serde_json::json!(cards));
                        }
                        given = vec![None; n];
                    }
                }
                // The record says where every pass went, as the game did.
                let record = g.record();
                for (round, from, to) in sent {
                    let r = record["rounds"].as_array().unwrap().iter().find(|r| r["number"] == round).unwrap();
                    assert_eq!(r["pass_to"][from], serde_json::json!(to), "round {round}: {r}");
                }
            }
        }
        assert!(kinds.len() >= 8, "{kinds:?}");
    }

    /// An action read once by `check_action` applies as its text would; one of another game, or
    /// one that is no longer legal, is refused and changes nothing.
    #[test]
    fn a_checked_action_applies_once_read() {
        let [mut oh7, mut seven] = <[Box<dyn DynGame>; 2]>::try_from(both()).unwrap();
        for g in [&mut oh7, &mut seven] {
            let mut twin = g.clone();
            let mut steps = 0;
            while let Some(seat) = g.to_move().lowest() {
                let text = g.legal_text(seat).pop().unwrap();
                let c = g.check_action(seat, &text, true).unwrap();
                assert_eq!((c.seat(), c.text()), (seat, text.as_str()));
                g.apply_checked(c).unwrap();
                twin.apply_text(seat, &text).unwrap();
                assert_eq!(g.view_json(None), twin.view_json(None));
                steps += 1;
                if steps == 40 {
                    break;
                }
            }
        }
        // Seven's action into Oh 7; then a checked action gone stale.
        let s = seven.to_move().lowest().unwrap();
        let c = seven.check_action(s, &seven.legal_text(s)[0], true).unwrap();
        let before = oh7.view_json(None);
        assert_eq!(oh7.apply_checked(c).unwrap_err().rule, "not_a_choice");
        assert_eq!(oh7.view_json(None), before);
        let s = seven.to_move().lowest().unwrap();
        let text = seven.legal_text(s)[0].clone();
        let stale = seven.check_action(s, &text, true).unwrap();
        seven.apply_text(s, &text).unwrap();
        let before = seven.view_json(None);
        assert!(seven.apply_checked(stale).is_err());
        assert_eq!(seven.view_json(None), before);
        assert_eq!(
            seven.check_action(s, "play 7H", true).unwrap_err().rule,
            seven.check_text(s, "play 7H").unwrap_err().rule
        );
    }

    /// Playing the first legal text of whoever moves first reaches the end of both games, and
    /// the text read back is the text given.
    #[test]
    fn first_legal_text_plays_a_whole_game() {
        for mut g in both() {
            let mut steps = 0;
            while let Some(seat) = g.to_move().lowest() {
                let legal = g.legal_text(seat);
                assert!(!legal.is_empty(), "{g:?}");
                assert_eq!(g.apply_text(seat, &legal[0]).unwrap(), legal[0]);
                steps += 1;
                assert!(steps < 20_000);
            }
            assert!(g.is_over() && !g.winners().is_empty());
            assert_eq!(g.totals().len(), g.players());
            assert_eq!(g.record()["game"], g.game_name());
            assert_eq!(g.apply_text(0, "draw").unwrap_err().rule, "game_over");
        }
    }

    /// A seat that owes nothing is refused with `not_your_turn`, and nothing changes; a clone is
    /// independent of its original.
    #[test]
    fn refusals_change_nothing_and_clones_are_separate() {
        for mut g in both() {
            // Oh 7 starts with simultaneous bets: play on until some seat owes nothing.
            let idle = loop {
                if let Some(s) = (0..g.players()).find(|&s| !g.to_move().contains(s)) {
                    break s;
                }
                let seat = g.to_move().lowest().unwrap();
                let first = g.legal_text(seat)[0].clone();
                g.apply_text(seat, &first).unwrap();
            };
            let before = g.record();
            assert_eq!(g.apply_text(idle, "play 7H").unwrap_err().rule, "not_your_turn");
            let mover = g.to_move().lowest().unwrap();
            assert!(g.apply_text(mover, "nonsense").is_err());
            assert_eq!(g.record(), before);
            let copy = g.clone();
            let first = g.legal_text(mover)[0].clone();
            g.apply_text(mover, &first).unwrap();
            assert_eq!(copy.record(), before);
            assert!(copy.to_move().contains(mover));
            assert_ne!(g.view_json(Some(mover)), copy.view_json(Some(mover)));
        }
    }

    /// Issue 37 (6): the server takes only the documented notation (it checks every command with
    /// `check_text`). While betting, a legal bet's card under every other verb and bare is
    /// refused `unreadable`, and nothing changes; the same in a trick; and an action of the bets sent once the trick play
    /// has begun (a stale one) is refused too.
    #[test]
    fn only_the_documented_notation_is_taken() {
        let mut g: Box<dyn DynGame> = Box::new(Oh7Game::new(Ruleset::preset(Preset::En), 4, 3).unwrap());
        let refused_every_way = |g: &mut Box<dyn DynGame>, seat: Seat, good: &str| {
            let card = good.split_whitespace().nth(1).unwrap().to_string();
            let before = g.record();
            for verb in ["play", "bet", "pass", "trump", "leader", "announce", "reveal", "Play", ""] {
                let text = format!("{verb} {card}");
                if text.trim().eq_ignore_ascii_case(good) {
                    continue;
                }
                let r = g.check_text(seat, &text).unwrap_err();
                assert_eq!(r.rule, "unreadable", "{text} checked");
                assert!(r.message.contains(good.split_whitespace().next().unwrap()), "{}", r.message);
                assert_eq!(g.record(), before, "{text} changed the game");
            }
            // The documented form, any case and spacing, is taken.
            assert_eq!(g.check_text(seat, &format!("  {}  ", good.to_uppercase())).unwrap(), good);
        };
        let seat = g.to_move().lowest().unwrap();
        let bet = g.legal_text(seat)[0].clone();
        assert!(bet.starts_with("bet "));
        refused_every_way(&mut g, seat, &bet);
        // Bet until the card play starts, keeping a bet text of the last bettor.
        let mut stale = None;
        while let Some(seat) = g.to_move().lowest() {
            let first = g.legal_text(seat)[0].clone();
            if !first.starts_with("bet ") && !first.starts_with("leader ") && !first.starts_with("trump ") {
                break;
            }
            if first.starts_with("bet ") {
                stale = Some(first.clone());
            }
            g.apply_text(seat, &first).unwrap();
        }
        let seat = g.to_move().lowest().unwrap();
        let play = g.legal_text(seat)[0].clone();
        assert!(play.starts_with("play "), "{play}");
        refused_every_way(&mut g, seat, &play);
        let stale = stale.unwrap();
        assert!(g.check_text(seat, &stale).is_err(), "{stale} taken in a trick");
        // Play the round out; the last card played, sent again once the next round's bets
        // have begun, is not taken as a bet.
        let mut last_play = play;
        let seat = loop {
            let seat = g.to_move().lowest().unwrap();
            let first = g.legal_text(seat)[0].clone();
            if first.starts_with("bet ") {
                break seat;
            }
            if first.starts_with("play ") {
                last_play = first.clone();
            }
            g.apply_text(seat, &first).unwrap();
        };
        assert_eq!(g.check_text(seat, &last_play).unwrap_err().rule, "unreadable", "{last_play} taken as a bet");
        // Replaying a log stays as kind as it was (logs written before the notation was
        // enforced): the same text applied is read as the bet.
        let bet = g.legal_text(seat)[0].clone();
        let as_play = bet.replacen("bet", "play", 1);
        assert_eq!(g.apply_text(seat, &as_play).unwrap(), bet);
    }

    /// Views: a seat's shows its own hand, the spectator's is a view of no seat; names reach
    /// the record; the concrete game downcasts.
    #[test]
    fn views_names_and_downcasts() {
        for mut g in both() {
            assert_ne!(g.view_json(Some(0)), g.view_json(None));
            let names: Vec<String> = (0..g.players()).map(|s| format!("n{s}")).collect();
            g.set_seat_names(names.clone());
            assert_eq!(g.record()["seats"], serde_json::json!(names));
            g.set_seat_names(vec!["too few".into()]);
            assert_eq!(g.record()["seats"], serde_json::json!(names));
            let is_oh7 = g.as_any().downcast_ref::<Oh7Game>().is_some();
            assert_eq!(is_oh7, g.game_name() == "oh7");
            assert_eq!(g.as_any().downcast_ref::<SevenGame>().is_some(), !is_oh7);
            assert!(g.into_any().downcast::<Oh7Game>().is_ok() == is_oh7);
        }
    }
}
