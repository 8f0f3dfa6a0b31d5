// node --test web/test/ : a seat's review of a finished game in the page's state (state.js):
// asked, queued, running, done or failed; `review` messages never move the table's version.
import test from "node:test";
import assert from "node:assert/strict";
import { initial, reduce, reviewOf } from "../state.js";

// A seated person (seat 1) at a finished Oh 7 game, version 40.
function over(you = 1) {
  let s = initial();
  s = reduce(s, {
    type: "snapshot",
    version: 40,
    you,
    table: { game: "oh7", state: "over", game_number: 1, players: 4 },
    view: { game: "oh7", round: 7, past_rounds: [] },
    legal: [],
  });
  return s;
}

const run = (s, msgs) => msgs.reduce(reduce, s);

test("a seated person at a finished game may ask, Seven included; a spectator or a game on may not", () => {
  assert.deepEqual(reviewOf(over()), { state: "none" });
  assert.equal(reviewOf(over(null)), null);
  const playing = over();
  assert.equal(reviewOf({ ...playing, table: { ...playing.table, state: "playing" } }), null);
  // The server reviews Seven games too.
  assert.deepEqual(reviewOf({ ...playing, table: { ...playing.table, game: "seven" }, view: { game: "seven" } }), { state: "none" });
  assert.equal(reviewOf({ ...over(null), table: { ...playing.table, game: "seven" }, view: { game: "seven" } }), null);
});

test("asked, queued, running, done: each state as the panel shows it", () => {
  let s = over();
  s = reduce(s, { type: "local/review-sent", id: "p-1", game: 1 });
  assert.deepEqual(reviewOf(s), { state: "asking" });
  s = reduce(s, { type: "ack", id: "p-1", version: 40 });
  assert.deepEqual(reviewOf(s), { state: "asking" });
  s = reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "queued", position: 3 });
  assert.deepEqual(reviewOf(s), { state: "queued", position: 3 });
  s = reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "queued", position: 1 });
  assert.deepEqual(reviewOf(s), { state: "queued", position: 1 });
  s = reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "running", done: 0, total: 38 });
  assert.deepEqual(reviewOf(s), { state: "running", percent: 0 });
  s = reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "running", done: 19, total: 38 });
  assert.deepEqual(reviewOf(s), { state: "running", percent: 50 });
  s = reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "running", done: 38, total: 38 });
  assert.deepEqual(reviewOf(s), { state: "running", percent: 100 });
  s = reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "done", share: "abc123" });
  assert.deepEqual(reviewOf(s), { state: "done", share: "abc123" });
  assert.equal(s.review.id, "p-1");
  // A late progress message after done changes nothing.
  assert.equal(reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "running", done: 5, total: 38 }), s);
});

test("review messages never move the version, the document or the sync owed", () => {
  const s0 = over();
  // Even with another version number (the server's current one), it is not a gap.
  const s = run(s0, [
    { type: "review", version: 45, game: 1, seat: 1, state: "queued", position: 2 },
    { type: "review", version: 45, game: 1, seat: 1, state: "running", done: 1, total: 4 },
  ]);
  assert.equal(s.version, 40);
  assert.equal(s.needSync, false);
  assert.equal(s.table, s0.table);
  assert.equal(s.view, s0.view);
  assert.equal(s.legal, s0.legal);
  // And the next event still applies at version 41.
  const e = reduce(s, { type: "event", version: 41, event: { kind: "chat", entry: { name: "a", text: "gg" } }, patch: {} });
  assert.equal(e.version, 41);
  assert.equal(e.needSync, false);
  assert.equal(e.review.state, "running");
});

test("a done review answered at once (asked again) goes straight to its link", () => {
  let s = over();
  s = run(s, [
    { type: "local/review-sent", id: "p-2", game: 1 },
    { type: "ack", id: "p-2", version: 40 },
    { type: "review", version: 40, game: 1, seat: 1, state: "done", share: "zz" },
  ]);
  assert.deepEqual(reviewOf(s), { state: "done", share: "zz" });
});

test("a refusal or a failure brings the button back with the reason", () => {
  let s = run(over(), [{ type: "local/review-sent", id: "p-3", game: 1 }, { type: "error", id: "p-3", code: "not_over", message: "x" }]);
  assert.deepEqual(reviewOf(s), { state: "failed", code: "not_over" });
  // Another command's error leaves the review alone.
  s = run(over(), [{ type: "local/review-sent", id: "p-4", game: 1 }, { type: "error", id: "p-9", code: "rate_limited" }]);
  assert.deepEqual(reviewOf(s), { state: "asking" });
  s = run(over(), [
    { type: "local/review-sent", id: "p-5", game: 1 },
    { type: "review", version: 40, game: 1, seat: 1, state: "running", done: 2, total: 9 },
    { type: "review", version: 40, game: 1, seat: 1, state: "failed", message: "boom" },
  ]);
  assert.deepEqual(reviewOf(s), { state: "failed", code: "review_failed" });
  // Asking again starts over.
  s = reduce(s, { type: "local/review-sent", id: "p-6", game: 1 });
  assert.deepEqual(reviewOf(s), { state: "asking" });
});

test("a lost connection forgets a review on its way but keeps a done one's link", () => {
  let s = run(over(), [{ type: "local/review-sent", id: "p-7", game: 1 }, { type: "review", version: 40, game: 1, seat: 1, state: "queued", position: 2 }]);
  s = reduce(s, { type: "local/disconnected" });
  assert.deepEqual(reviewOf(s), { state: "none" });
  s = run(over(), [{ type: "review", version: 40, game: 1, seat: 1, state: "done", share: "k" }, { type: "local/disconnected" }]);
  // The snapshot of the reconnection keeps it.
  s = reduce(s, { type: "snapshot", version: 40, you: 1, table: { game: "oh7", state: "over", game_number: 1, players: 4 }, view: { game: "oh7" }, legal: [] });
  assert.deepEqual(reviewOf(s), { state: "done", share: "k" });
});

test("a rematch's start forgets the last game's review; a review of another game does not show", () => {
  let s = run(over(), [{ type: "review", version: 40, game: 1, seat: 1, state: "done", share: "k" }]);
  const started = reduce(s, { type: "event", version: 41, event: { kind: "start", game: 2 }, patch: {} });
  assert.equal(started.review, null);
  // The table is on game 2 (over), the review still names game 1.
  const later = { ...s, table: { ...s.table, game_number: 2 } };
  assert.deepEqual(reviewOf(later), { state: "none" });
});

test("unknown review states are ignored", () => {
  const s = over();
  assert.equal(reduce(s, { type: "review", version: 40, game: 1, seat: 1, state: "weird" }), s);
});
