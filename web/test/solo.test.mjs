// node --test web/test/ : the reducer over a solo table's messages (web/test/fixtures/*-solo,
// recorded from the table library by `cargo test -p oh7-wasm --test fixtures -- --ignored`), and
// what an undo sends: a snapshot at an earlier version, which the page takes as it takes a
// reconnection's.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { initial, reduce } from "../state.js";

function load(name) {
  return readFileSync(new URL(`./fixtures/${name}.seat0.jsonl`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

for (const name of ["en-4-solo", "seven-3-solo"]) {
  test(`${name}: a solo table's messages are the protocol's, and the person is seat 0 without links`, () => {
    const lines = load(name);
    const first = lines[0];
    assert.equal(first.type, "snapshot");
    assert.equal(first.you, 0);
    assert.equal(first.links.invite, undefined, "nothing to share at a solo table");
    for (const m of lines) assert.ok(["snapshot", "event", "ack", "__reconnect"].includes(m.type), m.type);
  });

  test(`${name}: an undo's snapshot takes the page back to an earlier version`, () => {
    const lines = load(name).filter((m) => m.type !== "__reconnect");
    let s = initial();
    const half = Math.floor(lines.length / 2);
    for (const m of lines.slice(0, half)) s = reduce(s, m);
    assert.ok(s.version > lines[0].version);
    s = reduce({ ...s, pending: { id: "x", action: "play 2H" } }, { type: "ack", id: "x", version: lines[0].version });
    s = reduce(s, lines[0]);
    assert.equal(s.version, lines[0].version);
    assert.equal(s.needSync, false);
    assert.deepEqual(s.view, lines[0].view);
    assert.deepEqual(s.legal, lines[0].legal);
    // And the events from there apply again.
    for (const m of lines.slice(1)) s = reduce(s, m);
    assert.equal(s.needSync, false);
    assert.equal(s.table.state, "over");
  });
}
