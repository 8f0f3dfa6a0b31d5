//! The table's rules, driven natively with no runtime: a test driver stands for the server (a
//! log in a vector, timers fired by hand, bots run in place).

use std::collections::HashMap;

use oh7_bots::{GameBots, GameSpec};
use oh7_core::registry::GameRequest;
use serde_json::{Value, json};

use super::*;
use crate::event::LOG_FORMAT;
use crate::protocol::{ClientMsg, TableState};

/// The weakest level, by its name (as a client sends it).
const RANDOM: &str = oh7_bots::Level::Random.name();

/// Seeds and tokens counted from 1.
struct Counter(u64);

impl Entropy for Counter {
    fn seed(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
    fn secret(&mut self) -> String {
        self.0 += 1;
        format!("token-{}", self.0)
    }
}

/// A driver with no I/O: what the server's table task does, in memory.
struct Driver {
    m: Machine,
    log: Vec<Event>,
    /// Every message each connection got, as JSON, first to last.
    inbox: HashMap<ConnId, Vec<Value>>,
    timers: Vec<(u64, Timer)>,
    cancelled: Vec<Seat>,
    bots: Vec<BotJob>,
    over: usize,
    /// The next write fails so.
    fail: Option<WriteFailure>,
    rng: Counter,
}

fn config(players: usize, seats: Vec<Option<&str>>) -> TableConfig {
    let game = oh7_core::registry::GameId::Oh7.name();
    let spec =
        GameSpec::from_request(&GameRequest { game: Some(game), preset: Some("en"), ruleset: None, options: &[] })
            .unwrap();
    let seats = seats.into_iter().map(|s| s.map(|n| spec.level(n).expect("a level of Oh 7"))).collect();
    TableConfig {
        spec,
        players,
        seats,
        lang: "en".into(),
        turn_clock_s: None,
        log: LOG_FORMAT,
        rated: false,
        move_deadline_s: None,
        open: false,
    }
}

impl Driver {
    fn new(config: TableConfig) -> Driver {
        let core = Core::new(&config);
        let settings = Settings { bot_pause_ms: 0, ..Settings::default() };
        let codes = ("join".to_string(), "watch".to_string());
        let (m, out) = Machine::new(config, core, settings, codes, vec![], vec![], 0);
        let mut d = Driver {
            m,
            log: vec![],
            inbox: HashMap::new(),
            timers: vec![],
            cancelled: vec![],
            bots: vec![],
            over: 0,
            fail: None,
            rng: Counter(100),
        };
        d.drive(out);
        d
    }

    fn drive(&mut self, mut out: Output) {
        loop {
            for e in out.effects {
                match e {
                    Effect::Send { to, msg } => {
                        let v = serde_json::to_value(&msg).unwrap();
                        for c in to {
                            self.inbox.entry(c).or_default().push(v.clone());
                        }
                    }
                    Effect::Timer { after_ms, timer } => self.timers.push((after_ms, timer)),
                    Effect::CancelGrace { seat } => self.cancelled.push(seat),
                    Effect::Bot(job) => self.bots.push(job),
                    Effect::Hint(job) => {
                        let conn = job.conn;
                        let v = serde_json::to_value(job.run()).unwrap();
                        self.inbox.entry(conn).or_default().push(v);
                    }
                    Effect::Review(_) => {}
                    Effect::GameOver(_) => self.over += 1,
                }
            }
            let Some(p) = out.write else { break };
            out = match self.fail.take() {
                Some(why) => self.m.not_written(p, why),
                None => {
                    if let Some(ev) = p.event() {
                        assert_eq!(p.version(), self.m.version() + 1);
                        self.log.push(ev.clone());
                    }
                    self.m.written(p, &mut self.rng)
                }
            };
        }
    }

    fn attach(&mut self, conn: ConnId, access: Access, token: Option<&str>) -> Result<Option<Seat>, Refusal> {
        let out = self.m.attach(conn, access, token, None)?;
        self.drive(out);
        Ok(self.m.seat_of(conn))
    }

    fn send(&mut self, conn: ConnId, msg: Value) {
        let msg: ClientMsg = serde_json::from_value(msg).unwrap();
        let out = self.m.command(conn, msg, &mut self.rng);
        self.drive(out);
    }

    /// The messages a connection got since last asked.
    fn got(&mut self, conn: ConnId) -> Vec<Value> {
        std::mem::take(self.inbox.entry(conn).or_default())
    }

    /// Run every bot asked for until none is (the bots' own seats and stand-ins).
    fn run_bots(&mut self) {
        while let Some(job) = self.bots.pop() {
            let out = self.m.bot_done(job.run());
            self.drive(out);
        }
    }

    fn fire(&mut self, timer: Timer) {
        let out = self.m.timer(timer, &mut self.rng);
        self.drive(out);
    }
}

fn types(msgs: &[Value]) -> Vec<&str> {
    msgs.iter().map(|m| m["type"].as_str().unwrap()).collect()
}

fn sit(d: &mut Driver, conn: ConnId, name: &str) -> String {
    d.attach(conn, Access::Invite, None).unwrap();
    d.got(conn);
    d.send(conn, json!({"type": "sit", "id": format!("s{conn}"), "name": name}));
    let msgs = d.got(conn);
    assert_eq!(msgs[0]["type"], "ack", "{msgs:?}");
    msgs[0]["token"].as_str().unwrap().to_string()
}

/// Two people (seats 0 and 1, connections 1 and 2), two `random` bots, the game started.
fn started() -> Driver {
    started_with_tokens().0
}

fn started_with_tokens() -> (Driver, [String; 2]) {
    let mut d = Driver::new(config(4, vec![None, None, Some(RANDOM), Some(RANDOM)]));
    let a = sit(&mut d, 1, "Ada");
    let b = sit(&mut d, 2, "Bob");
    d.send(1, json!({"type": "start", "id": "go"}));
    assert_eq!(d.m.core().state(), TableState::Playing);
    (d, [a, b])
}

#[test]
fn a_guests_seat_is_claimed_for_the_account_made_afterwards_once() {
    let (mut d, [ada, _bob]) = started_with_tokens();
    let before = (d.m.version(), d.log.len(), d.m.core().seats[0].away);
    // A token of no seat here: refused, nothing to write, nothing changed.
    let Err(refused) = d.m.claim("nope", "acct-ada".into()) else { panic!("a token of no seat was taken") };
    assert_eq!(refused.code, ErrorCode::BadToken);
    assert!(d.m.links().next().is_none());
    // Ada's token: the seat is linked to her new account, without a connection or an event.
    let (linked, out) = d.m.claim(&ada, "acct-ada".into()).unwrap();
    assert!(linked && out.write.as_ref().is_some_and(|p| p.event().is_none()));
    d.drive(out);
    assert_eq!(d.m.links().collect::<Vec<_>>(), vec![(0, "acct-ada")]);
    assert_eq!((d.m.version(), d.log.len(), d.m.core().seats[0].away), before, "no event, no seat change");
    // Claimed again (or by another account with the same token): it stays as it is.
    let (again, out) = d.m.claim(&ada, "acct-other".into()).unwrap();
    assert!(!again && out.write.is_none());
    assert_eq!(d.m.links().collect::<Vec<_>>(), vec![(0, "acct-ada")]);
}

#[test]
fn a_seat_token_goes_to_the_one_who_sat_and_takes_the_seat_back() {
    let mut d = Driver::new(config(4, vec![None, None, None, None]));
    d.attach(9, Access::Watch, None).unwrap();
    let token = sit(&mut d, 1, "Ada");
    // The spectator hears of the seat taken, never its token.
    let seen = d.got(9);
    assert!(types(&seen).contains(&"event"), "{seen:?}");
    assert!(!serde_json::to_string(&seen).unwrap().contains(&token));
    assert_eq!(d.log.len(), 1);
    // A spectator cannot sit, nor take a seat with a token.
    d.send(9, json!({"type": "sit", "id": "x", "name": "Eve"}));
    assert_eq!(d.got(9)[0]["code"], "spectator");
    assert_eq!(d.attach(8, Access::Watch, Some(&token)).unwrap_err().code, ErrorCode::BadToken);
    assert_eq!(d.attach(8, Access::Invite, Some("nope")).unwrap_err().code, ErrorCode::BadToken);
    assert!(d.m.seat_of(8).is_none());
    // The token takes the seat back on another connection; the same `sit` id again is answered
    // as before, not applied twice.
    assert_eq!(d.attach(3, Access::Invite, Some(&token)).unwrap(), Some(0));
    d.send(1, json!({"type": "sit", "id": "s1", "name": "Ada"}));
    assert_eq!(d.got(1)[0]["seat"], 0);
    assert_eq!(d.log.len(), 1);
    // A name too long is refused and nothing is written.
    d.attach(4, Access::Invite, None).unwrap();
    d.send(4, json!({"type": "sit", "id": "s", "name": "x".repeat(40)}));
    assert_eq!(d.got(4).last().unwrap()["code"], "bad_name");
    assert_eq!(d.log.len(), 1);
}

#[test]
fn an_away_person_gets_a_bot_after_the_grace_period_and_takes_the_seat_back() {
    let (mut d, [_, bob]) = started_with_tokens();
    d.run_bots();
    // Seat 1 leaves: the others hear it, a grace timer starts.
    let out = d.m.detach(2);
    d.drive(out);
    let grace = d.timers.iter().find_map(|(ms, t)| matches!(t, Timer::Grace { seat: 1, .. }).then_some((*ms, *t)));
    let (ms, timer) = grace.expect("a grace timer");
    assert_eq!(ms, Settings::default().grace_ms);
    assert!(types(&d.got(1)).contains(&"presence"));
    d.fire(timer);
    assert!(d.m.core().seats[1].bot_for_away);
    // A bot now plays seat 1 whenever it owes.
    let before = d.log.len();
    for _ in 0..8 {
        d.run_bots();
        let g = d.m.core().game.as_ref().unwrap();
        if g.is_over() || !g.to_move().contains(0) {
            break;
        }
        let a = g.legal_text(0)[0].clone();
        d.send(1, json!({"type": "act", "id": format!("a{}", d.log.len()), "action": a}));
    }
    assert!(
        d.log[before..].iter().any(|e| matches!(e, Event::Act { seat: 1, by_bot: true, .. })),
        "a stand-in played: {:?}",
        &d.log[before..]
    );
    // Back with the token: the seat is the person's again, the others hear so, and the old
    // timer does nothing.
    d.got(1);
    assert_eq!(d.attach(5, Access::Invite, Some(&bob)).unwrap(), Some(1));
    assert!(!d.m.core().seats[1].bot_for_away && !d.m.core().seats[1].away);
    assert!(types(&d.got(1)).contains(&"presence"));
    d.fire(timer);
    assert!(!d.m.core().seats[1].bot_for_away);
    // Leaving again starts a new grace period; coming back in it cancels its timer.
    let out = d.m.detach(5);
    d.drive(out);
    assert!(d.attach(6, Access::Invite, Some(&bob)).is_ok());
    assert_eq!(d.cancelled, [1]);
}

#[test]
fn refusals_change_nothing_and_a_repeated_command_is_answered_not_applied() {
    let mut d = started();
    d.run_bots();
    let g = d.m.core().game.as_ref().unwrap();
    let (mover, other) = if g.to_move().contains(0) { (1, 2) } else { (2, 1) };
    let seat = d.m.seat_of(mover).unwrap();
    let a = d.m.core().game.as_ref().unwrap().legal_text(seat)[0].clone();
    let (version, log) = (d.m.version(), d.log.len());
    d.got(mover);
    d.got(other);
    for (conn, msg, code) in [
        (mover, json!({"type": "act", "id": "x1", "action": "dance"}), "illegal"),
        (1, json!({"type": "start", "id": "x2"}), "already_started"),
        (2, json!({"type": "start", "id": "x2"}), "not_host"),
        (mover, json!({"type": "review", "id": "x3"}), "not_over"),
        (mover, json!({"type": "answer", "id": "x4", "yes": true}), "not_asked"),
        (mover, json!({"type": "chat", "id": "x5", "text": ""}), "chat_too_long"),
        (2, json!({"type": "seat", "id": "x6", "seat": 2, "bot": RANDOM}), "not_host"),
        (1, json!({"type": "seat", "id": "x6", "seat": 2, "bot": RANDOM}), "already_started"),
        (1, json!({"type": "rematch", "id": "x7"}), "not_over"),
    ] {
        d.send(conn, msg);
        let got = d.got(conn);
        assert_eq!(got.len(), 1, "{code}: {got:?}");
        assert_eq!((got[0]["type"].as_str(), got[0]["code"].as_str()), (Some("error"), Some(code)));
        assert_eq!((d.m.version(), d.log.len()), (version, log), "{code}");
    }
    // A failed write is refused with `storage`; nothing changed, and the same command then works.
    d.fail = Some(WriteFailure::Storage);
    d.send(mover, json!({"type": "act", "id": "ok", "action": a}));
    assert_eq!(d.got(mover)[0]["code"], "storage");
    assert_eq!((d.m.version(), d.log.len()), (version, log));
    d.send(mover, json!({"type": "act", "id": "ok", "action": a}));
    assert_eq!(d.got(mover)[0]["type"], "ack");
    assert_eq!(d.log.len(), log + 1);
    d.send(mover, json!({"type": "act", "id": "ok", "action": a}));
    let again = d.got(mover);
    assert_eq!((again[0]["type"].as_str(), again[0]["repeated"].as_bool()), (Some("ack"), Some(true)));
    assert_eq!(d.log.len(), log + 1);
    // The other person heard an event, not the ack.
    assert_eq!(types(&d.got(other)), ["event"]);
}

/// Plays a started game to its end: the people's first legal action, the bots as they decide.
fn play_out(d: &mut Driver) {
    let conn_of = |s: Seat| s as ConnId + 1;
    for n in 0..2000 {
        d.run_bots();
        let g = d.m.core().game.as_ref().unwrap();
        if g.is_over() {
            return;
        }
        let s = g.to_move().iter().find(|&s| s < 2).expect("a person owes");
        let a = g.legal_text(s)[0].clone();
        d.send(conn_of(s), json!({"type": "act", "id": format!("p{n}"), "action": a}));
    }
    panic!("the game did not end");
}

/// Each connection's document rebuilt from the messages it got since last asked: a snapshot
/// replaces it, an event or a presence patches it (and follows the version with no gap).
fn rebuild(d: &mut Driver, docs: &mut HashMap<ConnId, (Value, u64)>, conns: &[ConnId]) {
    for &c in conns {
        for m in d.got(c) {
            let (doc, version) = docs.entry(c).or_insert((Value::Null, 0));
            match m["type"].as_str().unwrap() {
                "snapshot" => {
                    *doc = json!({"t": m["table"], "v": m["view"], "l": m["legal"]});
                    *version = m["version"].as_u64().unwrap();
                }
                "event" | "presence" => {
                    let v = m["version"].as_u64().unwrap();
                    assert!(v == *version + 1 || (m["type"] == "presence" && v == *version), "no gap");
                    *version = v;
                    crate::patch::apply(doc, m["patch"].as_object().unwrap())
                        .unwrap_or_else(|e| panic!("conn {c}: {e}: {m}"));
                }
                _ => {}
            }
        }
    }
}

/// Every rebuilt document is the snapshot a sync gives now.
fn rebuilt_as_snapshots(d: &mut Driver, docs: &HashMap<ConnId, (Value, u64)>, conns: &[ConnId]) {
    for &c in conns {
        d.send(c, json!({"type": "sync"}));
        let snap = d.got(c).pop().unwrap();
        let (doc, version) = &docs[&c];
        assert_eq!(snap["version"].as_u64(), Some(*version));
        assert_eq!(doc["v"], snap["view"], "conn {c}");
        assert_eq!(doc["t"], snap["table"], "conn {c}");
    }
}

#[test]
fn every_viewer_rebuilds_the_snapshot_from_its_events_and_patches() {
    let mut d = started();
    d.attach(9, Access::Watch, None).unwrap();
    for c in [1, 2] {
        d.got(c);
        d.send(c, json!({"type": "sync"}));
    }
    let mut docs: HashMap<ConnId, (Value, u64)> = HashMap::new();
    rebuild(&mut d, &mut docs, &[1, 2, 9]);
    play_out(&mut d);
    rebuild(&mut d, &mut docs, &[1, 2, 9]);
    assert_eq!(d.over, 1);
    rebuilt_as_snapshots(&mut d, &docs, &[1, 2, 9]);
    // A spectator's snapshot has no invite code; a seat's has.
    d.send(9, json!({"type": "sync"}));
    assert!(d.got(9)[0]["links"].get("invite").is_none());
    d.send(1, json!({"type": "sync"}));
    assert_eq!(d.got(1)[0]["links"]["invite"], "join");
}

/// At a turn-based table each decision owed shows its deadline in the table information, which
/// every viewer shares: one viewer's snapshot (a reconnect) between two events must not leave
/// the others' documents a patch behind (CI once saw `t/seats/2/due_at` not fit).
#[test]
fn a_snapshot_between_events_leaves_the_other_viewers_in_step() {
    let mut c = config(4, vec![None, None, Some(RANDOM), Some(RANDOM)]);
    c.move_deadline_s = Some(3600);
    let mut d = Driver::new(c);
    sit(&mut d, 1, "Ada");
    sit(&mut d, 2, "Bob");
    d.attach(9, Access::Watch, None).unwrap();
    d.send(1, json!({"type": "start", "id": "go"}));
    let mut docs: HashMap<ConnId, (Value, u64)> = HashMap::new();
    for c in [1, 2] {
        d.got(c);
        d.send(c, json!({"type": "sync"}));
    }
    rebuild(&mut d, &mut docs, &[1, 2, 9]);
    let mut saw_due = false;
    for n in 0..2000 {
        d.run_bots();
        // Bob's page reconnects before each decision (a sync), with the clock moved on.
        d.m.set_now(n * 1000);
        d.send(2, json!({"type": "sync"}));
        rebuild(&mut d, &mut docs, &[1, 2, 9]);
        saw_due |= docs[&1].0["t"]["seats"].as_array().unwrap().iter().any(|s| s.get("due_at").is_some());
        let g = d.m.core().game.as_ref().unwrap();
        if g.is_over() {
            break;
        }
        let s = g.to_move().iter().find(|&s| s < 2).expect("a person owes");
        let a = g.legal_text(s)[0].clone();
        d.send(s as ConnId + 1, json!({"type": "act", "id": format!("p{n}"), "action": a}));
    }
    rebuild(&mut d, &mut docs, &[1, 2, 9]);
    assert!(saw_due, "a deadline was shown");
    assert_eq!(d.over, 1);
    rebuilt_as_snapshots(&mut d, &docs, &[1, 2, 9]);
}

#[test]
fn a_rematch_waits_for_the_answers_and_a_bot_plays_for_who_declined() {
    let mut d = started();
    play_out(&mut d);
    d.send(2, json!({"type": "rematch", "id": "r"}));
    assert_eq!(d.got(2).last().unwrap()["code"], "not_host");
    d.send(1, json!({"type": "rematch", "id": "r"}));
    let asked = d.m.core().rematch.as_ref().expect("asked").asked;
    assert!(d.timers.contains(&(Settings::default().rematch_wait_ms, Timer::Rematch { asked })));
    assert!(d.m.info().rematch.is_some());
    // Seat 1 declines: everyone has answered, the game starts with a bot for seat 1.
    d.send(2, json!({"type": "answer", "id": "n", "yes": false}));
    assert_eq!(d.m.core().game_number, 2);
    assert!(d.m.core().seats[1].bot_for_away);
    assert_eq!(d.m.core().state(), TableState::Playing);
    // The old deadline does nothing now.
    let log = d.log.len();
    d.fire(Timer::Rematch { asked });
    assert_eq!(d.log.len(), log);
    // Seat 1 takes its seat back.
    d.send(2, json!({"type": "back", "id": "b"}));
    assert!(!d.m.core().seats[1].bot_for_away);
}

fn seat0_acts(d: &Driver) -> usize {
    d.log.iter().filter(|e| matches!(e, Event::Act { seat: 0, .. })).count()
}

#[test]
fn a_turn_clock_has_a_bot_make_one_decision_and_the_next_has_its_own_clock() {
    let mut c = config(3, vec![None, Some(RANDOM), Some(RANDOM)]);
    c.turn_clock_s = Some(30);
    let mut d = Driver::new(c);
    sit(&mut d, 1, "Ada");
    d.send(1, json!({"type": "start", "id": "go"}));
    // Every decision of seat 0 is left to its clock, to the end of the game.
    let mut at_once = 0;
    loop {
        d.run_bots();
        if d.m.core().game.as_ref().unwrap().is_over() {
            break;
        }
        let since = d.m.core().seats[0].owed_since.expect("only seat 0 can owe now");
        let clock = Timer::Clock { seat: 0, since };
        assert!(d.timers.contains(&(30_000, clock)), "a clock for the decision owed since {since}");
        let before = seat0_acts(&d);
        d.fire(clock);
        assert!(d.m.core().seats[0].forced);
        d.run_bots();
        // An old clock firing again changes nothing.
        d.fire(clock);
        d.run_bots();
        assert_eq!(seat0_acts(&d), before + 1, "one decision made by the bot");
        assert!(matches!(
            d.log.iter().rfind(|e| matches!(e, Event::Act { seat: 0, .. })),
            Some(Event::Act { by_bot: true, .. })
        ));
        // Owing again at once is a new decision, with its own clock.
        if let Some(next) = d.m.core().seats[0].owed_since {
            assert!(next > since);
            at_once += 1;
        }
    }
    assert!(at_once > 0, "seat 0 never owed two decisions in a row");
}

#[test]
fn a_passed_move_deadline_has_a_bot_make_exactly_one_decision() {
    let mut c = config(3, vec![None, Some(RANDOM), Some(RANDOM)]);
    c.move_deadline_s = Some(3600);
    let mut d = Driver::new(c);
    sit(&mut d, 1, "Ada");
    d.send(1, json!({"type": "start", "id": "go"}));
    d.run_bots();
    let due = d.m.deadlines_to_write().expect("deadlines to write");
    assert_eq!((due[0].0, due[0].2), (0, 3600));
    d.m.deadlines_written(&due);
    assert!(d.m.deadlines_to_write().is_none());
    // Not due yet: nothing happens.
    d.m.set_now(3_599_000);
    let out = d.m.deadlines_due();
    d.drive(out);
    assert!(d.bots.is_empty());
    // Each deadline passed: one decision by a bot, however many sweeps follow; a decision owed
    // at once after it has a whole new deadline.
    let mut at_once = 0;
    loop {
        d.run_bots();
        if d.m.core().game.as_ref().unwrap().is_over() {
            break;
        }
        let due = d.m.deadlines_to_write().unwrap_or_else(|| due.clone());
        let &(_, since, at) = due.iter().find(|d| d.0 == 0).expect("seat 0 has a deadline");
        d.m.deadlines_written(&due);
        d.m.set_now((at + 1) * 1000);
        let before = seat0_acts(&d);
        for _ in 0..3 {
            let out = d.m.deadlines_due();
            d.drive(out);
            d.run_bots();
        }
        assert_eq!(seat0_acts(&d), before + 1, "one decision for the deadline owed since {since}");
        if let Some(owed) = d.m.core().seats[0].owed_since {
            assert!(owed > since);
            let due = d.m.deadlines_to_write().expect("a new deadline");
            assert_eq!(due.iter().find(|d| d.0 == 0).map(|d| d.2), Some(at + 1 + 3600));
            at_once += 1;
        }
    }
    assert!(at_once > 0, "seat 0 never owed two decisions in a row");
}
