// node --test web/test/ : the replay's model (/replay/{code}: review.js without a review) on the
// records of the review fixtures (web/test/fixtures/review-*.json): every trick of the record in
// order, every hand at each step, each round's bets and results.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { model, buildSteps, whereOf, namesOf, stepFromHash } from "../review-model.js";
import { texts } from "../i18n.js";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/review-${name}.json`, import.meta.url), "utf8"));
const FIXTURES = ["en-4", "kod7-4", "bga-4-passing", "fr-advanced-5"];

for (const name of FIXTURES) {
  const { record } = load(name);

  test(`${name}: the replay has every trick of the record, in order, with every hand then`, () => {
    const m = model({ record, table: null });
    assert.equal(m.review, null);
    assert.deepEqual(m.strip, []);
    assert.deepEqual(m.costliest, []);
    assert.ok(m.steps.every((s) => s.decision === null), "no decision, no mark");
    const tricks = m.steps.filter((s) => s.kind === "trick");
    assert.equal(tricks.length, record.rounds.reduce((n, r) => n + r.tricks.length, 0));
    let k = 0;
    for (const r of record.rounds) {
      for (const t of r.tricks) {
        const s = tricks[k++];
        assert.equal(s.round, r.number);
        assert.deepEqual(s.plays, t.plays);
        assert.equal(s.winner, t.winner);
        assert.equal(s.trump, r.trump ?? null);
        // Each seat's hand holds the card it plays in this trick.
        for (const [seat, c] of t.plays) assert.ok(s.hands[seat].includes(c), `round ${r.number}: seat ${seat} holds ${c}`);
      }
    }
  });

  test(`${name}: hands shrink by the trick's cards, from the dealt hands (after passes) to empty`, () => {
    const { steps } = buildSteps(null, record);
    for (const r of record.rounds) {
      const mine = steps.filter((s) => s.round === r.number && s.kind === "trick");
      if (!mine.length) continue;
      const size = (s) => s.hands.reduce((n, h) => n + h.length, 0);
      const total = r.hands.reduce((n, h) => n + h.length, 0);
      assert.equal(size(mine[0]), total, "the first trick sees every dealt card");
      for (let i = 1; i < mine.length; i++) assert.equal(size(mine[i]), size(mine[i - 1]) - mine[i - 1].plays.length);
    }
  });

  test(`${name}: each round's bets come first and its results last`, () => {
    const m = model({ record, table: null });
    for (const r of record.rounds.filter((x) => x.points)) {
      const mine = m.steps.filter((s) => s.round === r.number);
      if ((r.bet_attempts || []).length) {
        assert.equal(mine.find((s) => s.kind !== "pass").kind, "bet");
        assert.deepEqual(mine.filter((s) => s.kind === "bet").at(-1).plays.map(([, c]) => c), r.bet_attempts.at(-1).filter(Boolean));
      }
      const last = mine.at(-1);
      assert.equal(last.kind, "result");
      assert.deepEqual(last.bets, r.bets);
      assert.deepEqual(last.won, r.won);
      assert.deepEqual(last.points, r.points);
      assert.deepEqual(last.totals, r.totals);
      assert.deepEqual(whereOf(last), { kind: "result", round: r.number, n: 0 });
    }
    assert.equal(m.rounds.length, record.rounds.filter((x) => x.points).length);
    for (const r of m.rounds) assert.equal(m.steps[r.step].round, r.round);
    assert.deepEqual(m.rounds.at(-1).totals, record.rounds.at(-1).totals);
  });
}

test("bga with passing: the replay shows the passes of every seat before the bets", () => {
  const { record } = load("bga-4-passing");
  const { steps } = buildSteps(null, record);
  const r = record.rounds.find((x) => (x.passes || []).some((p) => p.length));
  assert.ok(r, "the fixture has a round with passes");
  const pass = steps.find((s) => s.round === r.number && s.kind === "pass");
  assert.ok(pass);
  assert.equal(pass.plays.length, r.passes.reduce((n, p) => n + p.length, 0));
  assert.deepEqual(pass.hands, r.hands, "the dealt hands, before the passes");
  const firstTrick = steps.find((s) => s.round === r.number && s.kind === "trick");
  for (const [seat, c] of pass.plays) assert.ok(!firstTrick.hands[seat].includes(c) || r.passes.some((p, s) => s !== seat && p.includes(c)), "a passed card left its giver's hand");
});

test("the replay's names come from the record's seats; steps have words in both languages", () => {
  const { record } = load("en-4");
  const m = model({ record, table: null });
  for (const lang of ["en", "fr"]) {
    const t = texts(lang);
    const names = namesOf({ record, table: null }, t);
    assert.equal(names.length, record.players + 1);
    assert.ok(names.every((n) => typeof n === "string" && n.length));
    assert.equal(typeof t.rv.where.result(1), "string");
    for (const k of ["title", "heading", "loading", "unknown", "unknownHelp", "offline", "hands", "handsBefore", "won", "points"]) assert.equal(typeof t.rp[k], "string", `${lang} rp.${k}`);
    assert.equal(typeof t.rp.meta("en", 4), "string");
    assert.equal(typeof t.replay, "string");
  }
  assert.equal(stepFromHash("#step-5", m.steps.length), 4);
});
