// node --test web/test/ : the review page's model (review.js) on a recorded fixture:
// web/test/fixtures/review-en-4.json is {review, record, table} as `GET /api/reviews/{code}`
// answers, made with `oh7 simulate --preset en --players 4 --games 1 --seed 7 --record g.jsonl`
// and `oh7 review g.jsonl --seat 0 --json` (the record is the file's first line).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { model, buildSteps, optionRows, reasonOf, markOf, heightOf, stripOf, namesOf, stepFromHash, whereOf, plainWords } from "../review-model.js";
import { texts } from "../i18n.js";
import { face } from "../cards.js";

const data = JSON.parse(readFileSync(new URL("./fixtures/review-en-4.json", import.meta.url), "utf8"));
const { review, record } = data;

test("the fixture is a review of seat 0 of a finished 4-player en game", () => {
  assert.equal(review.format, "oh7-review/1");
  assert.equal(record.format, "oh7-record/1");
  assert.equal(review.seat, 0);
  assert.equal(record.players, 4);
  assert.equal(record.finished, true);
  assert.ok(review.decisions.length > 20);
});

test("every decision has one step, in the game's order, of its round and kind", () => {
  const { steps, at } = buildSteps(review, record);
  assert.equal(at.length, review.decisions.length);
  const seen = new Set();
  for (const d of review.decisions) {
    const i = at[d.index];
    assert.ok(Number.isInteger(i), `decision ${d.index} has a step`);
    assert.ok(!seen.has(i), "one decision per step");
    seen.add(i);
    const s = steps[i];
    assert.equal(s.decision, d.index);
    assert.equal(s.round, d.round);
    assert.equal(s.kind, d.kind === "play" ? "trick" : d.kind);
    if (d.kind === "play" || d.kind === "bet") assert.equal(s.n, d.step);
    assert.deepEqual(s.hand, d.hand, "the hand is the one the seat saw");
  }
  // Decisions come in increasing step order.
  for (let k = 1; k < at.length; k++) assert.ok(at[k] > at[k - 1]);
});

test("one step per bet attempt and per trick of every round", () => {
  const { steps } = buildSteps(review, record);
  const want = record.rounds.reduce((n, r) => n + r.bet_attempts.length + r.tricks.length, 0);
  assert.equal(steps.length, want);
  for (const r of record.rounds) {
    const tricks = steps.filter((s) => s.round === r.number && s.kind === "trick");
    assert.deepEqual(tricks.map((s) => s.n), r.tricks.map((_, k) => k + 1));
    tricks.forEach((s, k) => {
      assert.deepEqual(s.plays, r.tricks[k].plays, "the trick as the record has it");
      assert.equal(s.winner, r.tricks[k].winner);
      assert.equal(s.trump, r.trump);
    });
    const bets = steps.filter((s) => s.round === r.number && s.kind === "bet");
    assert.equal(bets.length, r.bet_attempts.length);
    bets.forEach((s, k) => assert.deepEqual(s.plays.map(([, c]) => c), r.bet_attempts[k]));
  }
});

test("the hand shrinks by the card the seat played, trick by trick, and the seat's card is in it", () => {
  const { steps } = buildSteps(review, record);
  for (const r of record.rounds) {
    const tricks = steps.filter((s) => s.round === r.number && s.kind === "trick");
    assert.deepEqual([...tricks[0].hand].sort(), [...r.hands[0]].sort(), "no passing in en: the hand dealt");
    tricks.forEach((s, k) => {
      assert.equal(s.hand.length, 7 - k);
      const mine = s.plays[s.before];
      assert.equal(mine[0], 0, "`before` points at the seat's play");
      assert.ok(s.hand.includes(mine[1]));
      const won = r.tricks.slice(0, k).filter((t) => t.winner === 0).length;
      assert.equal(s.wonBefore, won);
    });
  }
});

test("at a card play, the cards before the seat's are the ones the review says were on the table", () => {
  const { steps, at } = buildSteps(review, record);
  for (const d of review.decisions.filter((x) => x.kind === "play")) {
    const s = steps[at[d.index]];
    assert.deepEqual(s.plays.slice(0, s.before).map(([, c]) => c), d.trick);
    assert.equal(s.plays[s.before][1], d.chosen);
  }
});

test("options come best first, with the best and the chosen marked", () => {
  for (const d of review.decisions.filter((x) => x.evaluation)) {
    const rows = optionRows(d);
    assert.equal(rows.length, d.evaluation.options.length);
    for (let k = 1; k < rows.length; k++) assert.ok(rows[k - 1].value >= rows[k].value);
    assert.equal(rows.filter((r) => r.best).length, 1);
    assert.equal(rows.find((r) => r.best).option, d.evaluation.options[d.evaluation.best].option);
    assert.equal(rows.filter((r) => r.chosen).length, 1);
    assert.equal(rows.find((r) => r.chosen).option, d.chosen);
    // The loss is best minus chosen.
    const best = rows.find((r) => r.best).value;
    const chosen = rows.find((r) => r.chosen).value;
    assert.ok(Math.abs(d.loss - Math.max(0, best - chosen)) < 1e-9);
  }
});

test("marks follow the thresholds; a reason names the chosen and the best option when points were lost", () => {
  const [i, m, b] = review.thresholds;
  for (const d of review.decisions) {
    const mark = markOf(d);
    if (!d.evaluation) assert.equal(mark, "none");
    else if (d.loss >= b) assert.equal(mark, "blunder");
    else if (d.loss >= m) assert.equal(mark, "mistake");
    else if (d.loss >= i) assert.equal(mark, "inaccuracy");
    else assert.equal(mark, "fine");
    const why = reasonOf(d);
    if (d.loss > 0) {
      assert.equal(why.chosen.option, d.chosen);
      assert.equal(why.best.option, d.evaluation.options[d.evaluation.best].option);
    } else assert.equal(why, null);
  }
  assert.equal(markOf({ loss: null, evaluation: null, mark: null }), "none");
  assert.equal(heightOf({ loss: 0 }), 0.25);
  assert.equal(heightOf({ loss: 100 }), 1);
  assert.ok(heightOf({ loss: 3 }) > heightOf({ loss: 1 }));
});

test("the strip has one item per decision pointing at its step, and counts the game's marks", () => {
  const m = model(data);
  assert.equal(m.strip.length, review.decisions.length);
  m.strip.forEach((it, k) => {
    assert.equal(it.index, k);
    assert.equal(m.steps[it.step].decision, k);
  });
  const count = (x) => m.strip.filter((it) => it.mark === x).length;
  assert.equal(count("inaccuracy"), review.game.inaccuracies);
  assert.equal(count("mistake"), review.game.mistakes);
  assert.equal(count("blunder"), review.game.blunders);
});

test("the three costliest decisions link to their steps, costliest first", () => {
  const m = model(data);
  assert.equal(m.costliest.length, 3);
  assert.deepEqual(m.costliest.map((c) => c.index), review.costliest);
  for (let k = 1; k < 3; k++) assert.ok(m.costliest[k - 1].loss >= m.costliest[k].loss);
  for (const c of m.costliest) {
    assert.equal(m.steps[c.step].decision, c.index);
    assert.equal(c.chosen, review.decisions[c.index].chosen);
  }
  assert.deepEqual(whereOf(review.decisions[review.costliest[0]]), { kind: "trick", round: 1, n: 1 });
});

test("rounds point at their first step", () => {
  const m = model(data);
  assert.equal(m.rounds.length, record.rounds.length);
  for (const r of m.rounds) {
    assert.equal(m.steps[r.step].round, r.round);
    assert.ok(r.step === 0 || m.steps[r.step - 1].round === r.round - 1);
  }
});

test("names: the table's, then bots by seat and level, then the Dummy; in both languages", () => {
  assert.deepEqual(namesOf(data, texts("en")).slice(0, 2), ["Alice", "Bot 2 (heuristic)"]);
  assert.deepEqual(namesOf(data, texts("fr")).slice(0, 2), ["Alice", "Robot 2 (heuristique)"]);
  assert.equal(namesOf(data, texts("fr"))[4], "Le Pantin");
});

test("a #step-N fragment picks a step (from 1), clamped; anything else the first", () => {
  assert.equal(stepFromHash("#step-5", 57), 4);
  assert.equal(stepFromHash("#step-999", 57), 56);
  assert.equal(stepFromHash("#step-0", 57), 0);
  assert.equal(stepFromHash("", 57), 0);
  assert.equal(stepFromHash("#x", 57), 0);
});

test("a bga round with passing: the hand after the passes, and a pass step for the seat", () => {
  // A small made-up round 4 (the bga scheme passes to the left then, as the record's `pass_to`
  // says): seat 0 gives to seat 1 and receives from seat 2.
  const rec = {
    players: 3,
    rounds: [
      {
        number: 4,
        hands: [["0S", "1S", "2S"], ["0H", "1H", "2H"], ["0C", "1C", "2C"]],
        passes: [["0S", "1S"], ["0H", "1H"], ["0C", "1C"]],
        pass_to: [1, 2, 0],
        bet_attempts: [["2S", "2H", "2C"]],
        bets: [2, 2, 2],
        trump: "S",
        first_leader: 0,
        tricks: [],
      },
    ],
  };
  const rv = { seat: 0, decisions: [{ index: 0, round: 4, kind: "pass", step: 0, hand: ["0S", "1S", "2S"], trick: [], chosen: "0S 1S", evaluation: null, loss: null, mark: null }] };
  const { steps } = buildSteps(rv, rec);
  assert.equal(steps[0].kind, "pass");
  assert.equal(steps[0].decision, 0);
  assert.deepEqual(steps[0].plays.map(([, c]) => c), ["0S", "1S"]);
  assert.deepEqual(steps[1].hand, ["2S", "0C", "1C"]);
});

test("the cards of every step are cards the page can draw", () => {
  const m = model(data);
  for (const s of m.steps) for (const c of [...s.hand, ...s.plays.map(([, x]) => x)]) assert.notEqual(face("oh7", c).colour, "plain", c);
});

test("stripOf gives 'none' items for decisions not evaluated", () => {
  const rv = { thresholds: [0.5, 1.5, 3], decisions: [{ index: 0, round: 1, kind: "announce_trump", step: 0, evaluation: null, loss: null, mark: null }] };
  assert.deepEqual(stripOf(rv, [0])[0], { index: 0, step: 0, round: 1, mark: "none", loss: null, height: 0.25, where: { kind: "announce_trump", round: 1, n: 0 } });
});

// More presets, reviewed at seat 1 (`oh7 simulate --preset P --players N [--passing] --games 1
// --seed 11 --record g.jsonl`, `oh7 review g.jsonl --seat 1 --json`): the reveal of ?
// (fr-advanced), the choice of the first leader (kod7), passes (bga's option).
const more = { "review-fr-advanced-5.json": "reveal", "review-kod7-4.json": "choose_leader", "review-bga-4-passing.json": "pass" };
for (const [file, kind] of Object.entries(more)) {
  test(`${file}: every decision on its step, with the hand and the table the seat saw; a ${kind} step`, () => {
    const d = JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), "utf8"));
    const m = model(d);
    for (const x of d.review.decisions) {
      const s = m.steps[m.at[x.index]];
      assert.equal(s.decision, x.index);
      assert.deepEqual(s.hand, x.hand);
      if (x.kind === "play") assert.deepEqual(s.plays.slice(0, s.before).map(([, c]) => c), x.trick);
    }
    // A card the seat played without a choice is in the hand shown.
    for (const s of m.steps) if (s.kind === "trick" && s.before !== null) assert.ok(s.hand.includes(s.plays[s.before][1]), `${s.round}.${s.n}`);
    assert.ok(m.steps.some((s) => s.kind === kind && s.decision !== null), `a ${kind} decision has its step`);
    for (let k = 1; k < m.at.length; k++) assert.ok(m.at[k] > m.at[k - 1], "in the game's order");
    assert.equal(namesOf(d, texts("fr"))[1], "Bruno");
  });
}

test("a marked decision in plain words: expected points of both options, what was given away, what the round gave", () => {
  const rv = data.review;
  const marked = rv.decisions.filter((d) => d.mark);
  assert.ok(marked.length > 0, "the recorded review has marked decisions");
  for (const lang of ["en", "fr"]) {
    const t = { ...texts(lang), lang };
    for (const d of marked) {
      const [said, means] = plainWords(t, d, rv.rounds, (o) => o);
      const why = reasonOf(d);
      const round = rv.rounds.find((r) => r.round === d.round);
      assert.ok(said.includes(why.chosen.option) && said.includes(why.best.option), said);
      assert.ok(said.includes(`${round.points > 0 ? "+" : ""}${round.points}`), `the round's actual points: ${said}`);
      assert.ok(means && means.length > 10, means);
    }
    const fine = rv.decisions.find((d) => !d.mark);
    assert.equal(plainWords(t, fine, rv.rounds, (o) => o), null, "a fine decision needs no sentence");
  }
  const d = marked[0];
  const en = plainWords({ ...texts("en"), lang: "en" }, d, rv.rounds, (o) => o)[0];
  assert.match(en, /^(Inaccuracy|Mistake|Blunder): \S+ could expect [+-]?\d+\.\d points this round, \S+ [+-]?\d+\.\d; your choice gave away about \d+\.\d+ points on average\. In the end the round gave you [+-]?\d+:/);
});
