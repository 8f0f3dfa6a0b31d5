// node --test web/test/ : the page's state as a pure reducer over recorded server messages
// (web/test/fixtures: every preset and Seven, one seat and a spectator, recorded from the real
// server by `cargo test -p oh7-server --test client_fixtures -- --ignored`).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { initial, reduce, canAct, myTurn, newTurn, askedAgain } from "../state.js";

const dir = new URL("./fixtures/", import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();

function load(f) {
  const lines = readFileSync(new URL(f, dir), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const cut = lines.findIndex((m) => m.type === "__reconnect");
  return { frames: lines.slice(0, cut), after: lines.slice(cut + 1) };
}

function run(frames, s = initial()) {
  for (const m of frames) s = reduce(s, m);
  return s;
}

test("recordings exist for every preset and Seven, for a seat and a spectator", () => {
  for (const name of ["en-4", "en-2-dummy", "fr-3", "fr-advanced-5", "kod7-4", "bga-4-passing", "seven-3"]) {
    for (const who of ["seat0", "spectator"]) assert.ok(files.includes(`${name}.${who}.jsonl`), `${name}.${who}`);
  }
});

for (const f of files) {
  test(`${f}: the events build exactly the state a reconnection's snapshot gives`, () => {
    const { frames, after } = load(f);
    let s = initial();
    let versions = 0;
    for (const m of frames) {
      const before = s;
      s = reduce(s, m);
      assert.equal(s.needSync, false, `no version skipped at ${JSON.stringify(m).slice(0, 120)}`);
      assert.ok(s.version >= before.version, "the version never goes back");
      if (m.type === "event") versions += 1;
      // The reducer never changes the state it was given.
      if (before !== s) assert.notEqual(before, s);
    }
    assert.ok(versions > 10, "a whole game of events");
    assert.equal(s.table.state, "over");
    const snap = after[0];
    assert.equal(snap.type, "snapshot");
    assert.equal(s.version, snap.version);
    assert.deepEqual(s.view, snap.view, "the view built from events is the snapshot's");
    assert.deepEqual(s.table.seats.map((x) => [x.name, x.bot]), snap.table.seats.map((x) => [x.name, x.bot]));
    assert.deepEqual(s.table.totals, snap.table.totals);
    assert.deepEqual(s.legal, snap.legal);
    // Reconnecting: the connection drops, the snapshot restores everything.
    let r = reduce(s, { type: "local/disconnected" });
    assert.equal(r.connected, false);
    r = reduce(r, snap);
    assert.equal(r.connected, true);
    assert.deepEqual(r.view, s.view);
  });

  test(`${f}: a lost event asks for a snapshot instead of guessing`, () => {
    const { frames } = load(f);
    const events = frames.map((m, i) => [m, i]).filter(([m]) => m.type === "event");
    const [, drop] = events[Math.floor(events.length / 2)];
    let s = run(frames.slice(0, drop));
    const before = s;
    s = reduce(s, frames[drop + 1]);
    if (frames[drop + 1].type === "event") {
      assert.equal(s.needSync, true);
      assert.equal(s.version, before.version, "nothing applied past the gap");
      assert.deepEqual(s.view, before.view);
    }
    // The snapshot that answers the sync puts everything right.
    const { after } = load(f);
    s = reduce(s, after[0]);
    assert.equal(s.needSync, false);
    assert.equal(s.version, after[0].version);
  });
}

for (const f of files) {
  test(`${f}: the patches always fit, and the game the recording plays to its end is over`, () => {
    const { frames, after } = load(f);
    let s = initial();
    let patches = 0;
    for (const m of frames) {
      const before = s;
      s = reduce(s, m);
      if (m.type === "event" || m.type === "presence") {
        assert.equal(s.needSync, false, `the patch fits at ${JSON.stringify(m).slice(0, 160)}`);
        if (m.patch) patches += 1;
        else if (m.type === "event") {
          // No patch: the document is the one before, the very same objects.
          assert.equal(s.table, before.table);
          assert.equal(s.view, before.view);
        }
      }
      // A part no path touched is the same object as before (views compare references).
      if (m.patch && !Object.keys(m.patch).some((p) => p === "" || p === "v" || p.startsWith("v/") || p.startsWith("v+") || p.startsWith("v-"))) assert.equal(s.view, before.view);
      if (m.patch && !Object.keys(m.patch).some((p) => p === "" || p === "t" || p.startsWith("t/"))) assert.equal(s.table, before.table);
    }
    assert.ok(patches > 10, "a whole game of patches");
    const snap = after[0];
    // Every recording plays its game to the end; the document built from patches says so.
    assert.equal(snap.table.state, "over", "the recording plays to the end");
    assert.equal(s.table.state, "over");
    assert.deepEqual(s.table.winners, snap.table.winners);
    // The whole document is the snapshot's, but for the others' presence (they left after the game).
    const seats = (t) => ({ ...t, seats: t.seats.map(({ status, ...x }) => x) });
    assert.deepEqual({ table: seats(s.table), view: s.view, legal: s.legal }, { table: seats(snap.table), view: snap.view, legal: snap.legal });
  });

  test(`${f}: a patch that does not fit asks for a snapshot, and nothing is applied until it comes`, () => {
    const { frames } = load(f);
    const events = frames.map((m, i) => [m, i]).filter(([m]) => m.type === "event" && m.patch);
    const [bad, at] = events[Math.floor(events.length / 2)];
    const s0 = run(frames.slice(0, at));
    // The same event, with a path this document does not have.
    let s = reduce(s0, { ...bad, patch: { ...bad.patch, "v/no_such_part/3": 1 } });
    assert.equal(s.needSync, true);
    assert.equal(s.version, s0.version, "the version stays where the document is");
    assert.equal(s.table, s0.table);
    assert.equal(s.view, s0.view);
    assert.equal(s.legal, s0.legal);
    // Asked once (app.js sends one `sync` when needSync turns true): what follows is ignored.
    const waiting = s;
    for (const m of frames.slice(at, at + 8).filter((x) => x.type === "event")) s = reduce(s, m);
    s = reduce(s, { type: "presence", version: s.version, patch: { "t/seats/0/status": "away" } });
    assert.equal(s, waiting, "events and presence wait for the snapshot");
    // The snapshot that answers the sync (the document at the version before), then the events go on.
    s = reduce(s, { type: "snapshot", version: s0.version, you: s0.you, table: s0.table, view: s0.view, legal: s0.legal, chat: s0.chat, links: s0.links });
    assert.equal(s.needSync, false);
    s = run(frames.slice(at), s);
    assert.equal(s.needSync, false);
    assert.equal(s.table.state, "over");
    assert.deepEqual(s.view, run(frames).view);
  });
}

test("presence patches the table information at the same version; another version asks for a snapshot", () => {
  const { frames } = load("en-4.spectator.jsonl");
  const at = frames.findIndex((m) => m.type === "event" && m.event.kind === "start");
  let s = run(frames.slice(0, at + 1));
  const v = s.version;
  const before = s;
  s = reduce(s, { type: "presence", version: v, patch: { "t/seats/2/status": "away" } });
  assert.equal(s.version, v, "presence makes no version");
  assert.equal(s.table.seats[2].status, "away");
  assert.equal(before.table.seats[2].status, "here", "the state given is unchanged");
  assert.equal(s.view, before.view, "what did not change is shared");
  assert.equal(s.table.seats[0], before.table.seats[0]);
  assert.equal(s.needSync, false);
  assert.equal(reduce(s, { type: "presence", version: v, patch: {} }), s, "an empty patch changes nothing");
  // Presence of a later version: an event was missed, the patch is not of our document.
  assert.equal(reduce(s, { type: "presence", version: v + 1, patch: { "t/seats/2/status": "here" } }).needSync, true);
  assert.equal(reduce(s, { type: "presence", version: v, patch: { "t/seats/9/status": "here" } }).needSync, true);
  // The whole document replaced (path ""): what the page derives still follows.
  const whole = { t: { ...s.table, state: "over" }, v: s.view, l: [] };
  const r = reduce(s, { type: "event", version: v + 1, event: { kind: "seat", seat: 1, bot: null }, patch: { "": whole } });
  assert.equal(r.table.state, "over");
  assert.deepEqual(r.legal, []);
  assert.equal(r.version, v + 1);
});

for (const f of files.filter((x) => !x.startsWith("seven"))) {
  test(`${f}: each completed trick is shown once, each finished round summed up once`, () => {
    const { frames } = load(f);
    let s = initial();
    let tricks = 0;
    let rounds = 0;
    let lastCompleted = null;
    let lastSummary = null;
    for (const m of frames) {
      s = reduce(s, m);
      if (s.completed && s.completed !== lastCompleted) {
        tricks += 1;
        assert.ok(s.completed.plays.some(([seat]) => seat === s.completed.winner), "the winner played in the trick");
        lastCompleted = s.completed;
        s = reduce(s, { type: "local/dismiss-trick" });
        assert.equal(s.completed, null);
        lastCompleted = null;
      }
      if (s.summary && s.summary !== lastSummary) {
        rounds += 1;
        lastSummary = s.summary;
        assert.equal(s.summary.bets.length, s.summary.won.length);
      }
    }
    const past = s.view.past_rounds.length;
    assert.equal(rounds, past, "one summary per finished round");
    assert.equal(tricks, past * 7, "7 tricks a round, each shown");
  });
}

test("a decision is sent once: the hand waits for the table to move past it", () => {
  const { frames } = load("en-4.seat0.jsonl");
  let s = initial();
  let i = 0;
  for (; i < frames.length; i++) {
    s = reduce(s, frames[i]);
    if (s.table?.state === "playing" && s.legal.length) break;
  }
  assert.ok(canAct(s));
  s = reduce(s, { type: "local/sent", id: "x-1", action: s.legal[0].a });
  assert.equal(canAct(s), false, "a second click sends nothing");
  s = reduce(s, { type: "ack", id: "x-1", version: s.version + 1 });
  assert.equal(canAct(s), false, "acked, but the change itself has not arrived");
  s = reduce(s, { type: "error", id: "other", code: "rate_limited", message: "" });
  assert.equal(canAct(s), false, "another command's error frees nothing");
  s = reduce(s, { type: "error", id: "x-1", code: "not_your_turn", message: "" });
  assert.equal(s.pending, null, "its own error frees the hand");
  s = reduce(s, { type: "local/sent", id: "x-2", action: "play 1S" });
  s = reduce(s, { type: "local/pending-timeout", id: "x-1" });
  assert.ok(s.pending, "an old command's timer frees nothing");
  s = reduce(s, { type: "error", id: null, code: "rate_limited", message: "" });
  assert.equal(s.pending, null, "a rate limit without an id frees the hand");
  s = reduce(s, { type: "local/sent", id: "x-3", action: "play 1S" });
  s = reduce(s, { type: "local/pending-timeout", id: "x-3" });
  assert.equal(s.pending, null, "an unanswered command frees the hand after a while");
  assert.equal(s.notices.length, 3);
});

test("R-OWN-10: a bet is chosen, then confirmed; a new decision clears the choice", () => {
  const { frames } = load("en-4.seat0.jsonl");
  let s = initial();
  let i = 0;
  for (; i < frames.length; i++) {
    s = reduce(s, frames[i]);
    if (s.legal.some((m) => m.kind === "bet")) break;
  }
  const bet = s.legal.find((m) => m.kind === "bet").a;
  s = reduce(s, { type: "local/choose", action: bet });
  assert.equal(s.choice, bet);
  assert.equal(s.pending, null, "choosing sends nothing");
  s = reduce(s, { type: "local/unchoose" });
  assert.equal(s.choice, null);
  s = reduce(s, { type: "local/choose", action: bet });
  s = reduce(s, { type: "local/sent", id: "b-1", action: bet });
  assert.equal(s.choice, null);
  assert.deepEqual(s.pending, { id: "b-1", action: bet });
});

test("notices keep their code and parameters, at most three, each dismissed by number", () => {
  let s = initial();
  for (let k = 0; k < 5; k++) s = reduce(s, { type: "error", id: null, code: "chat_too_long", params: { max: 300 }, message: "x" });
  assert.equal(s.notices.length, 3);
  assert.deepEqual(s.notices[0].params, { max: 300 });
  const n = s.notices[0].n;
  s = reduce(s, { type: "local/dismiss-notice", n });
  assert.equal(s.notices.length, 2);
  assert.ok(!s.notices.some((x) => x.n === n));
});

test("chat lines are appended from events, the last 50 kept", () => {
  let s = reduce(initial(), { type: "snapshot", version: 1, you: 0, table: { state: "lobby" }, view: null, legal: [], chat: [] });
  const table = s.table;
  // A chat line changes no document: its event carries no patch.
  for (let k = 0; k < 60; k++) s = reduce(s, { type: "event", version: 2 + k, event: { kind: "chat", entry: { seat: 0, name: "A", text: `l${k}` } } });
  assert.equal(s.chat.length, 50);
  assert.equal(s.chat[49].text, "l59");
  assert.equal(s.version, 61);
  assert.equal(s.table, table, "the document is untouched");
});

test("an event already seen is ignored; the closing message does not pretend the connection is lost", () => {
  let s = reduce(initial(), { type: "snapshot", version: 5, you: null, table: { state: "lobby" }, view: null, legal: [], chat: [] });
  assert.equal(reduce(s, { type: "event", version: 5, event: { kind: "join", seat: 1 } }), s);
  s = reduce(s, { type: "closing", version: 5 });
  assert.equal(s.closing, true);
  assert.equal(s.connected, true);
});

for (const f of files) {
  test(`${f}: a new turn begins once before each of the seat's own decisions, never for a spectator`, () => {
    const { frames } = load(f);
    let s = initial();
    let turns = 0;
    let acts = 0;
    for (const m of frames) {
      // The page sends the seat's action before the server's event says it was played.
      if (m.type === "event" && m.event?.kind === "act" && s.you !== null && m.event.seat === s.you) {
        assert.ok(myTurn(s), `the seat acted on its turn, at version ${m.version}`);
        s = reduce(s, { type: "local/sent", id: `t${acts}`, action: m.event.action });
        acts += 1;
      }
      const before = s;
      s = reduce(s, m);
      if (newTurn(before, s)) {
        turns += 1;
        assert.ok(s.view.to_move.includes(s.you), "a turn of the seat's own");
      }
      if (s.you === null) assert.equal(myTurn(s), false);
    }
    if (f.includes("spectator")) assert.equal(turns, 0);
    else {
      assert.ok(acts > 0, "the seat played");
      assert.ok(turns === acts || turns === acts + 1, `${turns} turns for ${acts} decisions`);
    }
  });
}

test("a rematch asks each person once: askedAgain until the answer, not for the host", () => {
  const { frames } = load("en-4.seat0.jsonl");
  // Seen from seat 1 (the recording's table is the same for every seat); a recording older than
  // the table's `rematch` field has it as the server sends it now, `null`.
  const last = run(frames);
  let s = { ...last, you: 1, table: { rematch: null, ...last.table } };
  assert.equal(s.table.state, "over");
  assert.equal(askedAgain(s), false, "nothing asked yet");
  const v = s.version;
  const asked = { deadline_ms: 1, wait_s: 30, answers: ["yes", "waiting", "bot", "bot"] };
  s = reduce(s, { type: "event", version: v + 1, event: { kind: "rematch" }, patch: { "t/rematch": asked } });
  assert.equal(s.needSync, false);
  assert.equal(askedAgain(s), true);
  assert.equal(askedAgain({ ...s, you: 0 }), false, "the host asked; it is not asked");
  s = reduce(s, { type: "event", version: v + 2, event: { kind: "answer", seat: 1, yes: true }, patch: { "t/rematch/answers/1": "yes" } });
  assert.equal(askedAgain(s), false, "answered");
});

test("a bet chosen during the last trick's hold keeps the round's summary for after the hold", () => {
  const summary = { number: 1, version: 9 };
  const completed = { plays: [[0, "7S"]], winner: 0, version: 9 };
  const held = { ...initial(), summary, completed };
  assert.equal(reduce(held, { type: "local/choose", action: "bet 3S" }).summary, summary, "kept while the hold lasts");
  assert.equal(reduce(held, { type: "local/sent", id: "x", action: "bet 3S" }).summary, summary);
  assert.equal(reduce(held, { type: "local/toggle-pass", card: "3S" }).summary, summary);
  const shown = reduce(held, { type: "local/dismiss-trick" });
  assert.equal(shown.summary, summary, "shown once the hold ends");
  assert.equal(reduce(shown, { type: "local/choose", action: "bet 3S" }).summary, null, "then acting puts it away");
});
