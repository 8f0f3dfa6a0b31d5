// node --test web/test/ : the review page's model on a Seven review.
// web/test/fixtures/review-seven-3.json is {review, record, table} as `GET /api/reviews/{code}`
// answers, made with `oh7 simulate --game seven --players 3 --games 1 --seed 5 --record s.jsonl`
// and `oh7 review s.jsonl --seat 0 --json` (the record is the file's first line).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { model, buildSevenSteps, sevenAction, optionRows } from "../review-model.js";
import { texts } from "../i18n.js";

const data = JSON.parse(readFileSync(new URL("./fixtures/review-seven-3.json", import.meta.url), "utf8"));
const { review, record } = data;
const sorted = (x) => [...x].sort().join(" ");

test("the fixture is a Seven review of seat 0", () => {
  assert.equal(review.family, "seven");
  assert.equal(review.unit, "percent");
  assert.equal(record.game, "seven");
  assert.equal(review.seat, 0);
  assert.ok(review.decisions.length > 20);
});

test("every decision lands on the seat's turn, with the hand and the top of the pile it saw", () => {
  const { steps, at } = buildSevenSteps(review, record);
  for (const d of review.decisions) {
    const i = at[d.index];
    assert.ok(Number.isInteger(i), `decision ${d.index} has a step`);
    const s = steps[i];
    assert.equal(s.decision, d.index);
    assert.equal(s.kind, "turn");
    assert.equal(s.round, d.round);
    assert.equal(s.n, d.step);
    assert.equal(sorted(s.hand), sorted(d.hand), `round ${d.round} turn ${d.step}: the hand replayed from the record`);
    assert.equal(s.top, d.seven.top);
    assert.equal(s.active, d.seven.active_suit);
    assert.deepEqual(s.counts, d.seven.hand_counts);
    // The action taken is the chosen option (an announcement aside, written the same way).
    assert.equal(s.action, d.chosen);
  }
  for (let k = 1; k < review.decisions.length; k++) assert.ok(at[k] > at[k - 1], "decisions in order");
});

test("one step per turn of the seat, the others' turns between, each round ending on its points", () => {
  const { steps } = buildSevenSteps(review, record);
  for (const r of record.rounds) {
    const mine = steps.filter((s) => s.round === r.number);
    const turns = r.turns.filter(([s]) => s === review.seat).length;
    assert.equal(mine.filter((s) => s.kind === "turn").length, turns);
    const shown = mine.reduce((n, s) => n + s.others.length + (s.kind === "turn" ? 1 : 0), 0);
    assert.equal(shown, r.turns.length, `round ${r.number}: every turn shown once`);
    const last = mine.at(-1);
    assert.equal(last.kind, "result");
    assert.deepEqual(last.points, r.points);
    assert.deepEqual(last.totals, r.totals);
  }
});

test("actions are written as the engine writes options", () => {
  assert.equal(sevenAction({ play: "8C'", suit: "H", announce: false }), "8C':H");
  assert.equal(sevenAction({ play: "5D", announce: true }), "5D!");
  assert.equal(sevenAction({ draw: ["9C"] }), "draw");
  assert.equal(sevenAction({ pass: true }), "pass");
});

test("the model: strip and costliest name turns; options best first; words in both languages", () => {
  const m = model(data);
  assert.equal(m.seven, true);
  assert.equal(m.strip.length, review.decisions.length);
  assert.ok(m.strip.every((x) => x.where.kind === "turn" && Number.isInteger(x.step)));
  assert.ok(m.costliest.length > 0 && m.costliest.every((c) => m.steps[c.step].decision === c.index));
  const rows = optionRows(review.decisions[0]);
  assert.ok(rows[0].value >= rows.at(-1).value);
  for (const lang of ["en", "fr"]) {
    const t = texts(lang);
    assert.equal(typeof t.rv.where.turn(1, 2), "string");
    for (const k of ["steps", "lost", "pointsCol", "lostCol", "since", "value", "left", "noDecision"]) assert.equal(typeof t.rv7[k], "string", `${lang} rv7.${k}`);
  }
});

test("the Seven replay (no review): one step per turn with every hand, the record's hands replayed", () => {
  const m = model({ record, table: null });
  assert.equal(m.review, null);
  assert.equal(m.seven, true);
  assert.deepEqual(m.strip, []);
  const turns = m.steps.filter((s) => s.kind === "turn");
  assert.equal(turns.length, record.rounds.reduce((n, r) => n + r.turns.length, 0));
  assert.ok(m.steps.every((s) => s.decision === null));
  for (const r of record.rounds) {
    const mine = m.steps.filter((s) => s.round === r.number);
    assert.deepEqual(mine[0].hands, r.hands, "the first turn sees the dealt hands");
    r.turns.forEach(([seat, a], i) => {
      const s = mine[i];
      assert.equal(s.actor, seat);
      assert.equal(s.n, i + 1);
      if (a.play) assert.ok(s.hands[seat].includes(a.play), `round ${r.number} turn ${i + 1}: ${seat} holds ${a.play}`);
    });
    const last = mine.at(-1);
    if (r.points) {
      assert.equal(last.kind, "result");
      assert.deepEqual(last.points, r.points);
      // The one who went out first has no card left.
      if (r.out !== null && r.out !== undefined) assert.equal(last.hands[r.out].length, 0);
    }
  }
  assert.equal(m.rounds.length, record.rounds.filter((r) => r.points).length);
  for (const lang of ["en", "fr"]) assert.equal(typeof texts(lang).rp.headingSeven, "string");
});
