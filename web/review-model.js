// The review and replay pages' model (/review/{code}, /replay/{code}): pure functions from
// {review, record, table} (the answer of `GET /api/reviews/{code}`; review null for the replay,
// which reads `GET /api/tables/{code}/record`) to steps, marks and lines, for both games, with no
// DOM, so node's test runner checks them on recorded fixtures (web/test/review.test.mjs,
// review-seven.test.mjs, replay.test.mjs). review.js draws an Oh 7 review, review-seven.js a
// Seven step, replay.js the replay.

// ---------- Oh 7 ----------


const PRE_PLAY = ["reveal", "choose_leader", "choose_trump", "announce_trump"];

/** A decision's mark: "fine" (evaluated, under the first threshold), "inaccuracy", "mistake",
 *  "blunder", or "none" (not evaluated). */
export function markOf(d) {
  if (d.loss === null || d.loss === undefined || !d.evaluation) return "none";
  return d.mark || "fine";
}

/** How tall a decision's mark stands on the strip, from 0.25 (no loss) to 1 (twice the blunder
 *  threshold or more). */
export function heightOf(d, thresholds = [0.5, 1.5, 3]) {
  if (d.loss === null || d.loss === undefined) return 0.25;
  const top = 2 * (thresholds[2] || 3);
  return Math.round((0.25 + 0.75 * Math.min(1, d.loss / top)) * 100) / 100;
}

export const without = (cards, gone) => {
  const out = [...cards];
  for (const c of gone) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
};

/** The seat's hand once the round's passes are done (bga's passing option), from the record:
 *  the engine writes where each seat's cards went (`pass_to`); a record without it (written
 *  before 2026-11-28) shows the hand as dealt. */
function handAfterPasses(round, seat) {
  const dealt = round.hands?.[seat] || [];
  const gave = round.passes?.[seat] || [];
  const from = (round.pass_to || []).indexOf(seat);
  if (!gave.length || from < 0) return dealt;
  return [...without(dealt, gave), ...(round.passes?.[from] || [])];
}

/**
 * The steps of the page, in the game's order: per round, the seat's pass, each bet attempt, its
 * other decisions before play (reveal, leader, trump), then every trick. Each step:
 * {round, kind: "pass"|"bet"|"trick"|decision kind, n (attempt or trick number), hand (the seat's
 * hand then), plays ([[seat, card]]: the trick, or the bet cards revealed, or the cards passed),
 * winner, before (plays on the table when the seat decided), trump, leader, bet, wonBefore,
 * decision (index into review.decisions, or null)}. `at[i]` is the step of decision i.
 */
export function buildSteps(review, record) {
  // Without a review (the replay, /replay/{code}), no seat is followed: every step carries every
  // hand (`hands`, by seat, the Dummy's after the players'), and each round ends on its results.
  const seat = review ? review.seat : null;
  const decisions = review?.decisions || [];
  const steps = [];
  const at = new Array(decisions.length).fill(null);
  const byRound = new Map();
  for (const d of decisions) {
    if (!byRound.has(d.round)) byRound.set(d.round, []);
    byRound.get(d.round).push(d);
  }
  const taken = new Set();
  const claim = (round, kind, n) => {
    const d = (byRound.get(round) || []).find((x) => !taken.has(x.index) && x.kind === kind && (n === null || x.step === n));
    if (!d) return null;
    taken.add(d.index);
    return d;
  };
  const push = (step, d) => {
    step.decision = d ? d.index : null;
    if (d) {
      at[d.index] = steps.length;
      // What the seat saw is the review's: its hand then.
      step.hand = d.hand;
      if (step.kind === "trick") step.before = d.trick.length;
    }
    steps.push(step);
  };
  for (const r of record.rounds || []) {
    const R = r.number;
    const ctx = { round: R, trump: r.trump ?? null, leader: r.first_leader ?? null, bet: r.bets?.length && seat !== null ? r.bets[seat] ?? null : null };
    let hand = seat === null ? [] : handAfterPasses(r, seat);
    // Every seat's hand (after the passes), for the replay.
    const all = (r.hands || []).map((_, s) => handAfterPasses(r, s));
    const snap = () => all.map((x) => [...x]);
    if (seat === null && (r.passes || []).some((x) => x?.length)) {
      const plays = [];
      (r.passes || []).forEach((x, s) => (x || []).forEach((c) => plays.push([s, c])));
      push({ ...ctx, kind: "pass", n: 0, hand: [], hands: (r.hands || []).map((x) => [...x]), plays, winner: null, before: null, wonBefore: 0 }, null);
    }
    if (seat !== null && ((r.passes?.[seat] || []).length || (byRound.get(R) || []).some((d) => d.kind === "pass"))) {
      const d = claim(R, "pass", null);
      push({ ...ctx, kind: "pass", n: 0, hand: r.hands?.[seat] || [], plays: (r.passes?.[seat] || []).map((c) => [seat, c]), winner: null, before: null, wonBefore: 0 }, d);
    }
    (r.bet_attempts || []).forEach((cards, i) => {
      const d = claim(R, "bet", i + 1);
      if (d) hand = d.hand;
      push({ ...ctx, kind: "bet", n: i + 1, hand, hands: snap(), plays: cards.map((c, s) => [s, c]).filter(([, c]) => c), winner: null, before: null, wonBefore: 0 }, d);
    });
    // Bets of a redeal, or any the attempts above did not take.
    for (const d of (byRound.get(R) || []).filter((x) => x.kind === "bet" && !taken.has(x.index))) {
      taken.add(d.index);
      push({ ...ctx, kind: "bet", n: d.step, hand: d.hand, plays: [], winner: null, before: null, wonBefore: 0 }, d);
    }
    for (const d of (byRound.get(R) || []).filter((x) => PRE_PLAY.includes(x.kind) && !taken.has(x.index))) {
      taken.add(d.index);
      // A choice after the bets (reveal, leader, trump) is made seeing them: the bet cards.
      const bets = (r.bet_attempts || []).at(-1) || [];
      const plays = d.trick.length ? d.trick.map((c) => [null, c]) : bets.map((c, s) => [s, c]).filter(([, c]) => c);
      push({ ...ctx, kind: d.kind, n: 0, hand: d.hand, plays, winner: null, before: null, wonBefore: 0 }, d);
    }
    let won = 0;
    // Tricks won so far by every seat (the replay's hands show them with the bets).
    const wonAll = (r.hands || []).map(() => 0);
    (r.tricks || []).forEach((t, k) => {
      const d = claim(R, "play", k + 1);
      const mine = seat === null ? -1 : t.plays.findIndex(([s]) => s === seat);
      push({ ...ctx, kind: "trick", n: k + 1, hand, hands: snap(), bets: r.bets || [], wonSoFar: [...wonAll], plays: t.plays, winner: t.winner ?? null, leader: t.leader, firstLeader: ctx.leader, before: mine >= 0 ? mine : null, wonBefore: won }, d);
      const last = steps[steps.length - 1];
      hand = mine >= 0 ? without(last.hand, [t.plays[mine][1]]) : last.hand;
      if (seat !== null && t.winner === seat) won += 1;
      if (t.winner !== null && t.winner !== undefined && t.winner < wonAll.length) wonAll[t.winner] += 1;
      for (const [s, c] of t.plays) if (all[s]) all[s] = without(all[s], [c]);
    });
    if (seat === null && r.points) {
      push({ ...ctx, kind: "result", n: 0, hand: [], hands: [], plays: [], winner: null, before: null, wonBefore: 0, bets: r.bets || [], won: r.won || [], points: r.points || [], totals: r.totals || [] }, null);
    }
    // Plays the record's tricks did not place (a record cut short): their own steps.
    for (const d of (byRound.get(R) || []).filter((x) => !taken.has(x.index))) {
      taken.add(d.index);
      push({ ...ctx, kind: d.kind === "play" ? "trick" : d.kind, n: d.step, hand: d.hand, plays: d.trick.map((c) => [null, c]), winner: null, before: d.trick.length, wonBefore: 0 }, d);
    }
  }
  // Decisions of rounds the record does not have.
  for (const d of decisions) {
    if (at[d.index] !== null) continue;
    push({ round: d.round, kind: d.kind === "play" ? "trick" : d.kind, n: d.step, hand: d.hand, plays: d.trick.map((c) => [null, c]), winner: null, before: d.trick.length, trump: null, leader: null, bet: null, wonBefore: 0 }, d);
  }
  return { steps, at };
}

// ---------- Seven ----------

const sevenSuit = (card) => String(card).replace(/'$/, "").slice(-1);

/** A Seven turn of the record as the engine writes an action: "QS", "8C:H", "5D!", "draw",
 *  "pass", or the action's JSON when it is none of these. */
export function sevenAction(a) {
  if (!a || typeof a !== "object") return String(a);
  if (a.play) return `${a.play}${a.suit ? `:${a.suit}` : ""}${a.announce ? "!" : ""}`;
  if (a.draw !== undefined) return "draw";
  if (a.pass) return "pass";
  if (a.call_out !== undefined) return a.call_out === null || a.call_out === false ? "nocall" : `callout ${a.call_out}`;
  return JSON.stringify(a);
}

/**
 * The steps of a Seven review, turn by turn from the record: one step per turn of the seat, with
 * the others' turns since its previous one (`others`: [[seat, action, drawn cards]]), then the
 * round's last turns and its result. Hands are replayed from the record (its dealt hands, the
 * cards played, the cards drawn). Each step: {round, kind: "turn"|"result", n (the turn of the
 * round, from 1), hand (the seat's hand before its turn), action (its own, or null), drawn,
 * others, top, active (suit), counts (every hand's size), decision}.
 */
export function buildSevenSteps(review, record) {
  // Without a review (the replay): one step per turn, with every hand (`hands`) before it and
  // the seat that moved (`actor`).
  const seat = review ? review.seat : null;
  const decisions = review?.decisions || [];
  const steps = [];
  const at = new Array(decisions.length).fill(null);
  const key = (round, step) => `${round}:${step}`;
  const byTurn = new Map();
  for (const d of decisions) if (!byTurn.has(key(d.round, d.step))) byTurn.set(key(d.round, d.step), d);
  const taken = new Set();
  const push = (step, d) => {
    step.decision = d ? d.index : null;
    if (d) {
      taken.add(d.index);
      at[d.index] = steps.length;
    }
    steps.push(step);
  };
  for (const r of record.rounds || []) {
    const R = r.number;
    const hands = (r.hands || []).map((x) => [...x]);
    let top = r.starting_card ?? null;
    let active = top ? sevenSuit(top) : null;
    let others = [];
    const turns = r.turns || [];
    turns.forEach(([s, a], i) => {
      const act = sevenAction(a);
      const drawn = Array.isArray(a?.draw) ? a.draw : [];
      if (seat === null) {
        push({ round: R, kind: "turn", n: i + 1, actor: s, hand: [], hands: hands.map((x) => [...x]), action: act, drawn, others: [], top, active, counts: hands.map((x) => x.length), plays: [] }, null);
      } else if (s === seat) {
        const d = byTurn.get(key(R, i + 1));
        const use = d && !taken.has(d.index) ? d : null;
        push({ round: R, kind: "turn", n: i + 1, hand: [...(hands[s] || [])], action: act, drawn, others, top, active, counts: hands.map((x) => x.length), plays: [] }, use);
        others = [];
      } else {
        others.push([s, act, drawn]);
      }
      if (a?.play && hands[s]) hands[s] = without(hands[s], [a.play]);
      if (drawn.length && hands[s]) hands[s] = [...hands[s], ...drawn];
      if (a?.play) {
        top = a.play;
        active = a.suit || sevenSuit(a.play);
      }
    });
    if (r.points) push({ round: R, kind: "result", n: 0, hand: seat === null ? [] : [...(hands[seat] || [])], hands: hands.map((x) => [...x]), action: null, drawn: [], others, top, active, counts: hands.map((x) => x.length), plays: [], points: r.points, totals: r.totals || [], out: r.out ?? null }, null);
  }
  // Decisions the record's turns did not place (call-outs, a record cut short): their own steps,
  // after the step of their round's turn.
  for (const d of decisions) {
    if (at[d.index] !== null) continue;
    let i = steps.findIndex((x) => x.round > d.round || (x.round === d.round && x.kind === "turn" && x.n > d.step) || (x.round === d.round && x.kind === "result"));
    if (i < 0) i = steps.length;
    const sv = d.seven || {};
    steps.splice(i, 0, { round: d.round, kind: "turn", n: d.step, hand: d.hand, action: d.chosen, drawn: [], others: [], top: sv.top ?? null, active: sv.active_suit ?? null, counts: sv.hand_counts || [], plays: [], decision: d.index });
    for (let k = 0; k < at.length; k++) if (at[k] !== null && at[k] >= i) at[k] += 1;
    at[d.index] = i;
  }
  return { steps, at };
}

// ---------- both games ----------

/** A decision's options, best first: [{option, value, tricks, made, best, chosen}]. */
export function optionRows(d) {
  const ev = d.evaluation;
  if (!ev) return [];
  const rows = ev.options.map((o, i) => ({ ...o, best: i === ev.best, chosen: o.option === d.chosen }));
  return rows.sort((a, b) => b.value - a.value || Number(b.best) - Number(a.best));
}

/**
 * An Oh 7 decision in plain words, for a marked one: [the sentence (the options' expected
 * points, the points given away, what the round actually gave), what the mark means]; null
 * for a decision that is fine. `rounds` is the review's rounds; `text(option)` names an option.
 */
export function plainWords(t, d, rounds, text) {
  const why = reasonOf(d);
  const mark = markOf(d);
  if (!why || mark === "fine" || mark === "none") return null;
  const signed = (x) => `${x > 0 ? "+" : ""}${t.num(x, 1)}`;
  const actual = (rounds || []).find((r) => r.round === d.round)?.points;
  const said = t.rv.plain(t.rv.marks[mark], text(why.chosen.option), signed(why.chosen.value), text(why.best.option), signed(why.best.value), fmtLoss(t, d.loss), actual === undefined ? null : `${actual > 0 ? "+" : ""}${actual}`);
  return [said, t.rv.markMeans[mark]];
}

/** The chosen and the best option of an evaluated decision that lost points, or null. */
export function reasonOf(d) {
  const ev = d.evaluation;
  if (!ev || !d.loss) return null;
  const chosen = ev.options.find((o) => o.option === d.chosen);
  const best = ev.options[ev.best];
  if (!chosen || !best || chosen === best) return null;
  return { chosen, best };
}

/** Where a step or decision is, as the page names it: {kind, round, n}. */
export function whereOf(x) {
  const kind = x.kind === "play" ? "trick" : x.kind;
  return { kind, round: x.round, n: kind === "trick" || kind === "bet" ? x.n ?? x.step : 0 };
}

/** The strip: one item per decision, in order: {index, step, mark, loss, height, where}. */
export function stripOf(review, at) {
  return (review.decisions || []).map((d) => ({
    index: d.index,
    step: at[d.index],
    round: d.round,
    mark: markOf(d),
    loss: d.loss ?? null,
    height: heightOf(d, review.thresholds),
    where: whereOf(d),
  }));
}

/** The three costliest decisions: [{index, step, where, chosen, best, loss, mark}]. */
export function costliestOf(review, at) {
  return (review.costliest || [])
    .map((i) => review.decisions[i])
    .filter((d) => d && d.evaluation && d.loss > 0)
    .map((d) => ({ index: d.index, step: at[d.index], where: whereOf(d), chosen: d.chosen, best: d.evaluation.options[d.evaluation.best].option, loss: d.loss, mark: markOf(d) }));
}

/** Per round: {round, points, step (its first step), summary}. */
export function roundsOf(review, steps) {
  return (review.rounds || []).map((r) => ({ round: r.round, points: r.points, summary: r.summary, step: steps.findIndex((s) => s.round === r.round) }));
}

/** The seat names of the review's game: the table's names, or the record's seats (bots named by
 *  seat and level), the Dummy after the players. */
export function namesOf(data, t) {
  const rec = data.record || {};
  const players = rec.players ?? data.table?.players ?? 0;
  const out = [];
  for (let s = 0; s < players; s++) {
    const given = data.table?.names?.[s];
    const seat = rec.seats?.[s];
    if (given && !String(given).startsWith("bot:")) out.push(String(given));
    else if (typeof seat === "string" && seat.startsWith("bot:")) out.push(t.botName(s + 1, t.levels[seat.slice(4)] || seat.slice(4)));
    else if (typeof seat === "string" && seat) out.push(seat);
    else out.push(`#${s + 1}`);
  }
  out.push(t.dummy.charAt(0).toUpperCase() + t.dummy.slice(1));
  return out;
}

/** The replay's rounds: {round, bets, won, points, totals, step (its first step)}. */
export function replayRoundsOf(record, steps) {
  return (record.rounds || []).filter((r) => r.points).map((r) => ({ round: r.number, bets: r.bets || [], won: r.won || [], points: r.points || [], totals: r.totals || [], step: steps.findIndex((s) => s.round === r.number) }));
}

/** Everything the page shows, from the API's answer; `review` may be missing (the replay). */
export function model(data) {
  const { review, record } = data;
  // The game's model, looked up once by the record's game (or the review's family).
  const game = [record.game, review?.family].find((g) => Object.hasOwn(MODELS, g));
  return (MODELS[game] || MODELS.oh7)(review || null, record);
}

const MODELS = {
  seven(review, record) {
    const { steps, at } = buildSevenSteps(review, record);
    if (!review) {
      const rounds = (record.rounds || []).filter((r) => r.points).map((r) => ({ round: r.number, points: r.points, totals: r.totals || [], step: steps.findIndex((s) => s.round === r.number) }));
      return { review: null, record, seven: true, steps, at, strip: [], costliest: [], rounds };
    }
    const where = (d) => ({ kind: "turn", round: d.round, n: d.step });
    const strip = stripOf(review, at).map((x) => ({ ...x, where: where(review.decisions[x.index]) }));
    const costliest = costliestOf(review, at).map((x) => ({ ...x, where: where(review.decisions[x.index]) }));
    return { review, record, seven: true, steps, at, strip, costliest, rounds: roundsOf(review, steps) };
  },
  oh7(review, record) {
    const { steps, at } = buildSteps(review, record);
    if (!review) return { review: null, record, steps, at, strip: [], costliest: [], rounds: replayRoundsOf(record, steps) };
    return { review, record, steps, at, strip: stripOf(review, at), costliest: costliestOf(review, at), rounds: roundsOf(review, steps) };
  },
};

/** The step to show first: the one a `#step-N` fragment names (from 1), else the first. */
export function stepFromHash(hash, count) {
  const m = /^#step-(\d+)$/.exec(hash || "");
  if (!m) return 0;
  return Math.max(0, Math.min(count - 1, Number(m[1]) - 1));
}

/** A loss in points, as the page writes it. */
export function fmtLoss(t, x) {
  return t.num(x, 2);
}
