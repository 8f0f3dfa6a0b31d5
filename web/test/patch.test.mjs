// node --test web/test/ : the browser's patch of a viewer's document (web/patch.js), the copy
// of crates/oh7-server/src/patch.rs's `apply`, and its run over the patches the real server
// sent in the recordings (web/test/fixtures).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { applyPatch, Misfit } from "../patch.js";

/** `v` frozen all the way down: any change of it throws (the modules are strict). */
function deepFreeze(v) {
  if (v && typeof v === "object") {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const doc = () =>
  deepFreeze({
    table: { state: "playing", seats: [{ seat: 0, status: "here" }, { seat: 1, status: "here" }], totals: [0, 0] },
    view: { trick: [[0, "4H"]], to_move: [1], hand_sizes: [6, 7], names: ["A", "B"] },
    legal: ["play 1H", "play 2H"],
  });

test("a path replaces what is there", () => {
  const d = doc();
  const out = applyPatch(d, { legal: [] });
  assert.deepEqual(out.legal, []);
  assert.deepEqual(out.view, d.view);
  assert.deepEqual(d.legal, ["play 1H", "play 2H"], "the old document is unchanged");
});

test("a nested path reaches into objects and arrays", () => {
  const d = doc();
  const out = applyPatch(d, { "view/hand_sizes/1": 6, "table/seats/1/status": "away", "view/to_move": [0] });
  assert.deepEqual(out.view.hand_sizes, [6, 6]);
  assert.deepEqual(out.view.to_move, [0]);
  assert.equal(out.table.seats[1].status, "away");
  assert.equal(d.table.seats[1].status, "here");
  assert.deepEqual(d.view.hand_sizes, [6, 7]);
});

test("a path ending in + appends the items", () => {
  const d = doc();
  const out = applyPatch(d, { "view/trick+": [[1, "6S"], [0, "7S"]] });
  assert.deepEqual(out.view.trick, [[0, "4H"], [1, "6S"], [0, "7S"]]);
  assert.deepEqual(d.view.trick, [[0, "4H"]]);
  assert.deepEqual(applyPatch(d, { "view/trick+": [] }).view.trick, [[0, "4H"]], "nothing to append");
});

test("the path \"\" replaces the whole document", () => {
  const d = doc();
  const whole = { table: { state: "lobby" }, view: null, legal: [] };
  assert.equal(applyPatch(d, { "": whole }), whole);
  assert.deepEqual(applyPatch([1], { "+": [2, 3] }), [1, 2, 3], "`+` alone appends to a document that is an array");
});

test("the server's own round trips (patch.rs's tests) give the same documents here", () => {
  // a_played_card_is_an_append_and_two_numbers
  const a = { view: { trick: [[0, "4H"]], to_move: [1], hand_sizes: [6, 7, 7] }, legal: [] };
  const p = { "view/trick+": [[1, "6S"]], "view/to_move": [2], "view/hand_sizes/1": 6 };
  assert.deepEqual(applyPatch(a, p), { view: { trick: [[0, "4H"], [1, "6S"]], to_move: [2], hand_sizes: [6, 6, 7] }, legal: [] });
  // odd_changes_replace_whole: what `diff` sends for each
  assert.deepEqual(applyPatch({ a: { x: 1 } }, { a: { y: 1 } }), { a: { y: 1 } });
  assert.deepEqual(applyPatch({ a: [1, 2, 3] }, { a: [1] }), { a: [1] });
  assert.deepEqual(applyPatch({ a: null }, { a: { b: [1] } }), { a: { b: [1] } });
  // Keys a path cannot carry: the whole document is replaced.
  assert.deepEqual(applyPatch({ "a/b": 1 }, { "": { "a/b": 2 } }), { "a/b": 2 });
  assert.deepEqual(applyPatch({ "a+": [1] }, { "": { "a+": [1, 2] } }), { "a+": [1, 2] });
  assert.deepEqual(applyPatch([1], { "": { x: 1 } }), { x: 1 });
  assert.deepEqual(applyPatch({ a: 1 }, {}), { a: 1 });
});

test("the order of the paths does not matter", () => {
  const d = doc();
  const p = { "view/trick+": [[1, "6S"]], "view/hand_sizes/1": 6, "table/totals": [1, 2], legal: [] };
  const back = Object.fromEntries(Object.entries(p).reverse());
  assert.deepEqual(applyPatch(d, p), applyPatch(d, back));
});

test("a patch that does not fit throws a Misfit naming the path, and changes nothing", () => {
  const d = doc();
  const misfits = [
    [{ "view/nothing": 1 }, "view/nothing"], // no such key
    [{ "view/hand_sizes/2": 1 }, "view/hand_sizes/2"], // index past the end
    [{ "view/hand_sizes/-1": 1 }, "view/hand_sizes/-1"], // not an index
    [{ "view/hand_sizes/x": 1 }, "view/hand_sizes/x"],
    [{ "view/hand_sizes/": 1 }, "view/hand_sizes/"], // an empty index
    [{ "table/state/x": 1 }, "table/state/x"], // through a string
    [{ "view/names/0/x": 1 }, "view/names/0/x"],
    [{ "view/to_move/0/0": 1 }, "view/to_move/0/0"], // through a number
    [{ "view/to_move/0/0+": [1] }, "view/to_move/0/0"],
    [{ "table/state+": ["x"] }, "table/state"], // an append to a string
    [{ "table+": [1] }, "table"], // an append to an object
    [{ "view/trick+": { 0: [1, "6S"] } }, "view/trick"], // items that are not an array
    [{ "view/trick+": 3 }, "view/trick"],
    [{ "view/trick/0/x": 1 }, "view/trick/0/x"], // a key into an array
    [{ "+": [1] }, ""], // the document is not an array
    [{ "table/seats/1/status": "away", "view/zzz": 1 }, "view/zzz"], // one fits, one does not
    [{ "table/toString": 1 }, "table/toString"], // inherited keys are not keys of the document
    [{ "table/__proto__": 1 }, "table/__proto__"],
  ];
  const before = JSON.stringify(d);
  for (const [p, path] of misfits) {
    assert.throws(() => applyPatch(d, p), (e) => e instanceof Misfit && e.path === path, JSON.stringify(p));
  }
  assert.equal(JSON.stringify(d), before);
  assert.throws(() => applyPatch(null, { a: 1 }), Misfit, "no document");
  assert.throws(() => applyPatch(d, [1]), Misfit, "a patch is an object");
});

test("indices read as Rust's usize does: leading zeros and a leading + are an index", () => {
  const d = doc();
  assert.equal(applyPatch(d, { "view/hand_sizes/01": 3 }).view.hand_sizes[1], 3);
  assert.equal(applyPatch(d, { "view/hand_sizes/+1": 3 }).view.hand_sizes[1], 3);
  assert.throws(() => applyPatch(d, { "view/hand_sizes/1.0": 3 }), Misfit);
  assert.throws(() => applyPatch(d, { "view/hand_sizes/ 1": 3 }), Misfit);
});

test("keys with odd characters are keys like any other", () => {
  assert.deepEqual(applyPatch({ "": { x: 1 } }, { "/x": 2 }), { "": { x: 2 } });
  const d = JSON.parse('{"a":{"__proto__":1}}');
  const out = applyPatch(d, { "a/__proto__": 2 });
  assert.ok(Object.hasOwn(out.a, "__proto__"));
  assert.equal(Object.getOwnPropertyDescriptor(out.a, "__proto__").value, 2);
  assert.equal(Object.getPrototypeOf(out.a), Object.prototype, "no prototype changed");
});

test("nothing given is changed, and what the patch does not touch is shared", () => {
  const d = doc();
  const p = deepFreeze({ "view/trick+": [[1, "6S"]], "view/hand_sizes/1": 6, "table/seats/1/status": "away" });
  const out = applyPatch(d, p); // frozen input: any write to it would throw
  assert.notEqual(out, d);
  assert.notEqual(out.view, d.view);
  assert.notEqual(out.view.trick, d.view.trick);
  assert.notEqual(out.table.seats, d.table.seats);
  assert.equal(out.legal, d.legal, "an untouched part is the same object");
  assert.equal(out.view.names, d.view.names);
  assert.equal(out.view.to_move, d.view.to_move);
  assert.equal(out.table.seats[0], d.table.seats[0]);
  assert.equal(out.table.totals, d.table.totals);
  assert.equal(applyPatch(d, {}), d, "an empty patch: the same document");
  assert.equal(applyPatch(d, undefined), d, "no patch: the same document");
  // The result is the caller's: changing it changes neither the old document nor the patch.
  out.view.trick.push("x");
  out.view.hand_sizes[0] = 99;
  assert.deepEqual(p["view/trick+"], [[1, "6S"]]);
  assert.deepEqual(d.view.hand_sizes, [6, 7]);
});

test("several paths into one container all land in it", () => {
  const d = doc();
  const out = applyPatch(d, { "view/hand_sizes/0": 5, "view/hand_sizes/1": 6, "view/trick+": [[1, "6S"]], "view/to_move": [0] });
  assert.deepEqual(out.view, { trick: [[0, "4H"], [1, "6S"]], to_move: [0], hand_sizes: [5, 6], names: ["A", "B"] });
  assert.ok(Object.isFrozen(d.view) && !Object.isFrozen(out.view));
});

// ---- the real server's patches ----

const dir = new URL("./fixtures/", import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();

for (const f of files) {
  test(`${f}: every patch the server sent fits, and the document it builds is the reconnection's`, () => {
    const lines = readFileSync(new URL(f, dir), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const cut = lines.findIndex((m) => m.type === "__reconnect");
    let d = null;
    let patches = 0;
    for (const m of lines.slice(0, cut)) {
      // The server's document names its parts t, v, l (short patch paths).
      if (m.type === "snapshot") d = deepFreeze({ t: m.table, v: m.view, l: m.legal });
      if ((m.type === "event" || m.type === "presence") && m.patch) {
        // JSON from the wire is the caller's; freezing it proves applyPatch writes nothing of it.
        d = deepFreeze(applyPatch(d, deepFreeze(m.patch)));
        patches += 1;
      }
    }
    assert.ok(patches > 10, "a whole game of patches");
    const snap = lines[cut + 1];
    // Other seats left after the game: only their presence differs.
    const seats = (t) => ({ ...t, seats: t.seats.map(({ status, ...x }) => x) });
    assert.deepEqual({ ...d, t: seats(d.t) }, { t: seats(snap.table), v: snap.view, l: snap.legal });
  });
}
