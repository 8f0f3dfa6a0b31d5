// The review page (/review/{code}): one seat's decisions in a finished Oh 7 game, as the engine
// reviewed them (docs/review.md), next to the game as its record has it. A strip along the game
// shows where expected points were lost; a step-through goes trick by trick (← and →) with the
// seat's hand then, the trick's cards, and at the seat's decisions the options with their
// expected points; then the rounds, the three costliest decisions, and the oracle's hindsight,
// kept apart from the review.
//
// A Seven review (docs/review.md, Seven) steps turn by turn instead: the seat's turns, the others'
// turns between, the top of the pile, options valued as the chance to go out first.
// The same page without a review is the replay (/replay/{code}, `GET /api/tables/{code}/record`):
// the table's last finished game, every hand shown at every step, each round's results.
//
// The first part is the page's model: pure functions from {review, record, table} (the answer of
// `GET /api/reviews/{code}`; review null for the replay) to steps, marks and lines, with no DOM,
// so node's test runner checks them on recorded fixtures (web/test/review.test.mjs,
// review-seven.test.mjs, replay.test.mjs). The second part draws it.

import { h, region, sr } from "./dom.js";
import { texts } from "./i18n.js";
import { speak, suitName, face } from "./cards.js";
import { terms, symbols, passOf } from "./rules.js";
import { cardEl } from "./table.js";

// ---------- the model ----------

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

const without = (cards, gone) => {
  const out = [...cards];
  for (const c of gone) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
};

/** The seat's hand once the round's passes are done (bga's passing option), from the record. */
function handAfterPasses(round, seat, players) {
  const dealt = round.hands?.[seat] || [];
  const gave = round.passes?.[seat] || [];
  if (!gave.length) return dealt;
  const p = passOf(round.number);
  // Cards go to the left (seat + 1) or to the right: they come from the other side.
  const from = p.toLeft === false ? (seat + 1) % players : (seat - 1 + players) % players;
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
  const players = record.players;
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
    let hand = seat === null ? [] : handAfterPasses(r, seat, players);
    // Every seat's hand (after the passes), for the replay.
    const all = (r.hands || []).map((_, s) => handAfterPasses(r, s, players));
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
  if (review && (review.family === "seven" || record.game === "seven")) {
    const { steps, at } = buildSevenSteps(review, record);
    const where = (d) => ({ kind: "turn", round: d.round, n: d.step });
    const strip = stripOf(review, at).map((x) => ({ ...x, where: where(review.decisions[x.index]) }));
    const costliest = costliestOf(review, at).map((x) => ({ ...x, where: where(review.decisions[x.index]) }));
    return { review, record, seven: true, steps, at, strip, costliest, rounds: roundsOf(review, steps) };
  }
  if (!review && record.game === "seven") {
    const { steps, at } = buildSevenSteps(null, record);
    const rounds = (record.rounds || []).filter((r) => r.points).map((r) => ({ round: r.number, points: r.points, totals: r.totals || [], step: steps.findIndex((s) => s.round === r.number) }));
    return { review: null, record, seven: true, steps, at, strip: [], costliest: [], rounds };
  }
  const { steps, at } = buildSteps(review || null, record);
  if (!review) return { review: null, record, steps, at, strip: [], costliest: [], rounds: replayRoundsOf(record, steps) };
  return { review, record, steps, at, strip: stripOf(review, at), costliest: costliestOf(review, at), rounds: roundsOf(review, steps) };
}

/** The step to show first: the one a `#step-N` fragment names (from 1), else the first. */
export function stepFromHash(hash, count) {
  const m = /^#step-(\d+)$/.exec(hash || "");
  if (!m) return 0;
  return Math.max(0, Math.min(count - 1, Number(m[1]) - 1));
}

// ---------- the page ----------

// What the page has loaded (kept across a change of language, which redraws the page).
let loaded = { code: null, state: "idle", data: null, m: null };
let current = 0;
let page = null;

/** Where a step or decision is, in words. */
function whereText(t, w, x) {
  const f = t.rv.where[x.kind];
  if (!f) return t.round(x.round);
  return f(x.round, x.kind === "trick" || x.kind === "bet" || x.kind === "turn" ? x.n : w, w);
}

/** An option as words (for sentences): a card's name, a suit, a seat, yes/no. */
function optionText(env, kind, option) {
  const { lang, t } = env;
  const rules = env.rules;
  if (env.seven) return sevenOptionText(env, option);
  if (kind === "bet" || kind === "play") return face("oh7", option, rules).face;
  if (kind === "pass") return option.split(/\s+/).map((c) => face("oh7", c, rules).face).join(" ");
  if (kind === "choose_trump" || kind === "announce_trump") {
    const s = suitName(option, lang, rules);
    return `${s.symbol} ${s.name}`;
  }
  if (kind === "choose_leader" && /^\d+$/.test(option)) return env.names[Number(option)] ?? option;
  if (kind === "reveal") return option === "yes" ? t.rv.yes : t.rv.no;
  return option;
}

/** An option drawn: cards as cards, the rest as words. */
/** A Seven option in words: "Q♠", "8♣ → ♥", "5♦ and announce", "Draw", "Call out Bob". */
function sevenOptionText(env, option) {
  const { t, lang, rules } = env;
  let m;
  if (option === "draw") return t.draw;
  if (option === "pass") return t.pass;
  if (option === "nocall") return t.noCall;
  if ((m = /^callout (\d+)$/.exec(option))) return t.callOut(env.names[Number(m[1])] ?? option);
  if ((m = /^([^:!]+)(?::(\w))?(!)?$/.exec(option))) {
    let out = face("seven", m[1], rules).face;
    if (m[2]) out += ` → ${suitName(m[2], lang, rules).symbol}`;
    if (m[3]) out += ` (${t.announceLast})`;
    return out;
  }
  return option;
}

/** A Seven option drawn: its card (with the suit named and the announcement), or words. */
function sevenOptionEl(env, option) {
  const m = /^([^:!\s]+)(?::(\w))?(!)?$/.exec(option);
  if (!m || option === "draw" || option === "pass" || option === "nocall") return h("span", {}, sevenOptionText(env, option));
  return h(
    "span",
    { class: "seven-opt" },
    cardEl(env.cardCtx, m[1], { game: "seven", mini: true }),
    m[2] ? h("span", {}, ` → ${suitName(m[2], env.lang, env.rules).symbol} ${suitName(m[2], env.lang, env.rules).name}`) : null,
    m[3] ? h("small", {}, ` ${env.t.rv7.announced}`) : null,
  );
}

function optionEl(env, kind, option) {
  if (env.seven) return sevenOptionEl(env, option);
  if (kind === "bet" || kind === "play") return cardEl(env.cardCtx, option, { game: "oh7", mini: true });
  if (kind === "pass") return h("span", { class: "cards" }, ...option.split(/\s+/).map((c) => cardEl(env.cardCtx, c, { game: "oh7", mini: true })));
  return h("span", {}, optionText(env, kind, option));
}

function fmtLoss(t, x) {
  return t.num(x, 2);
}

function fmtAcc(t, x) {
  return t.lang === "fr" ? `${t.num(x, 1)} %` : `${t.num(x, 1)}%`;
}

/**
 * The review page for share code `code`, built in the language `lang`. `bar` is the header's
 * extra content (the language switch). Fetches `/api/reviews/{code}` once; a redraw in another
 * language reuses what was loaded. `onLoad(data)` is called once the review has arrived (the
 * app takes the table's language from it when the person chose none).
 */
export function reviewPage(code, lang, bar, onLoad = () => {}, replay = false) {
  const t = { ...texts(lang), lang };
  page = { code, lang, t, root: null, replay };
  const key = `${replay ? "replay" : "review"}:${code}`;
  const root = h("div", { class: "review-page" });
  page.root = root;
  root.append(
    h("header", { class: "bar" }, h("h1", {}, h("a", { href: "/", title: t.rv.back }, "oh7"), h("span", { class: "title-preset" }, ` ${replay ? t.rp.title : t.rv.title}`)), bar),
    h("main", { id: "content", class: "review" }),
  );
  if (loaded.code !== key) {
    loaded = { code: key, state: "loading", data: null, m: null };
    // The replay reads the table's public record (404 until a game is over).
    fetch(replay ? `/api/tables/${encodeURIComponent(code)}/record` : `/api/reviews/${encodeURIComponent(code)}`)
      .then(async (r) => {
        if (r.status === 404) return { state: "unknown" };
        if (!r.ok) return { state: "offline" };
        const json = await r.json();
        const data = replay ? { review: null, record: json, table: null } : json;
        return { state: "ready", data };
      })
      .catch(() => ({ state: "offline" }))
      .then((res) => {
        if (loaded.code !== key) return;
        loaded = { code: key, state: res.state, data: res.data || null, m: null };
        if (res.state === "ready") {
          try {
            loaded.m = model(res.data);
            current = stepFromHash(location.hash, loaded.m.steps.length);
          } catch {
            loaded.state = "offline";
          }
        }
        if (page?.root) draw();
        if (res.state === "ready") onLoad(res.data);
      });
  }
  draw();
  return root;
}

function envOf() {
  const { t, lang } = page;
  const data = loaded.data;
  const preset = data?.record?.preset || data?.review?.preset || data?.table?.preset || (data?.record?.game === "seven" ? "seven" : undefined);
  const rules = symbols(data?.record?.ruleset || { preset });
  const names = data ? namesOf(data, t) : [];
  const seven = !!loaded.m?.seven;
  return { t, lang, rules, names, w: terms(preset, lang), preset, seven, game: seven ? "seven" : "oh7", cardCtx: { S: { lang }, lang, rules: () => rules } };
}

function draw() {
  const main = page.root.querySelector("main");
  const { t } = page;
  if (loaded.state !== "ready") {
    const x = page.replay ? t.rp : t.rv;
    const msg = loaded.state === "unknown" ? [h("h2", { id: "review-unknown" }, x.unknown), h("p", {}, x.unknownHelp), h("p", {}, h("a", { href: "/" }, t.rv.back))] : loaded.state === "offline" ? [h("p", { class: "form-error", role: "alert" }, x.offline)] : [h("p", { role: "status" }, x.loading)];
    region(main, `${page.lang}:${loaded.state}`, () => h("section", { class: "panel review-message" }, ...msg));
    return;
  }
  if (main.__built !== `${page.lang}:${loaded.code}`) {
    main.__built = `${page.lang}:${loaded.code}`;
    main.__key = null;
    main.replaceChildren(...(loaded.m.review ? buildReview(envOf()) : buildReplay(envOf())));
  }
  showStep();
}

/** The replay: the game's head, the step-through, the rounds (bets, tricks won, points). */
function buildReplay(env) {
  const { t } = env;
  const m = loaded.m;
  const rec = m.record;
  const presetName = t.presets[env.preset] || env.preset;
  const n = rec.players;
  const names = env.names.slice(0, n);
  const winners = (rec.winners || []).map((s) => names[s] ?? `#${s + 1}`).join(", ");
  document.title = `${t.rp.title} — oh7`;
  const head = h(
    "section",
    { class: "panel review-head", "aria-labelledby": "review-h" },
    h("h2", { id: "review-h" }, m.seven ? t.rp.headingSeven : t.rp.heading),
    h("p", { class: "meta" }, t.rp.meta(presetName, n)),
    winners ? h("p", { class: "winner" }, t.winner(winners)) : null,
  );
  const nav = h(
    "div",
    { class: "step-nav" },
    h("button", { type: "button", id: "step-prev", onclick: () => go(current - 1), "aria-keyshortcuts": "ArrowLeft" }, h("span", { "aria-hidden": "true" }, "← "), t.rv.prev),
    h("p", { class: "step-status", role: "status", "aria-live": "polite" }),
    h("button", { type: "button", id: "step-next", onclick: () => go(current + 1), "aria-keyshortcuts": "ArrowRight" }, t.rv.next, h("span", { "aria-hidden": "true" }, " →")),
  );
  const stepSec = h("section", { class: "panel review-steps replay-steps", id: "steps", "aria-labelledby": "steps-h" }, h("h2", { id: "steps-h" }, m.seven ? t.rv7.steps : t.rv.steps, " ", h("small", { class: "help keys-help" }, t.rv.keysHelp)), nav, h("div", { class: "step-body" }));
  const head2 = h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t.rv.roundCol), ...names.map((nm) => h("th", { scope: "col", title: nm }, h("span", { class: "nm" }, nm)))));
  const rows = m.rounds.map((r) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, r.step >= 0 ? h("a", { href: `#step-${r.step + 1}`, onclick: (e) => jump(e, r.step) }, t.round(r.round)) : t.round(r.round)),
      ...names.map((_, s) => h("td", {}, m.seven ? String(r.points[s] ?? "") : `${r.points[s] ?? ""} (${r.bets[s] ?? "–"}/${r.won[s] ?? "–"})`)),
    ),
  );
  const last = m.rounds.at(-1);
  if (last) rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t.total), ...names.map((_, s) => h("td", {}, String(last.totals[s] ?? "")))));
  const roundsSec = h(
    "section",
    { class: "panel review-rounds", "aria-labelledby": "rounds-h" },
    h("h2", { id: "rounds-h" }, t.rv.rounds),
    h("p", { class: "help" }, m.seven ? t.rv7.pointsCol : t.rp.roundsHelp(env.w)),
    h("div", { class: "scroll" }, h("table", { class: "scores" }, head2, h("tbody", {}, ...rows))),
  );
  return [head, stepSec, roundsSec];
}

/** One step of the replay: the trick (or the bet cards), then every seat's hand then; a round's
 *  last step, its results. */
function replayStepEl(env, step, where) {
  const { t, w, names } = env;
  const info = [];
  if (step.kind === "trick") {
    const s = step.trump ? suitName(step.trump, env.lang, env.rules) : null;
    info.push(h("span", { class: "chip" }, t.rv.trumpLine(w, s ? `${s.symbol} ${s.name}` : t.rv.noTrumpYet(w.trump))));
  }
  const rec = loaded.m.record;
  const n = rec.players;
  if (step.kind === "result") {
    return [
      h("h3", { class: "step-title" }, where),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "scores replay-result" },
          h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, cap(w.bet)), h("th", { scope: "col" }, t.rp.won), h("th", { scope: "col" }, t.rp.points), h("th", { scope: "col" }, t.total))),
          h("tbody", {}, ...Array.from({ length: n }, (_, s) => h("tr", {}, h("th", { scope: "row" }, h("span", { class: "nm" }, names[s])), h("td", {}, String(step.bets[s] ?? "–")), h("td", {}, String(step.won[s] ?? "–")), h("td", {}, String(step.points[s] ?? "")), h("td", {}, String(step.totals[s] ?? ""))))),
        ),
      ),
    ];
  }
  let tableEl = null;
  if (step.plays.length) {
    const title = step.kind === "trick" ? t.rv.trickCards : step.kind === "pass" ? t.rv.passCards : t.rv.betCards(w);
    tableEl = h(
      "div",
      { class: "review-trick" },
      h("h4", {}, title),
      h(
        "ol",
        { class: "cards plays" },
        ...step.plays.map(([s, c]) => {
          const win = step.kind === "trick" && s === step.winner;
          const who = s === null ? "" : names[s] ?? `#${s + 1}`;
          return h("li", { class: ["play", win && "winner"].filter(Boolean).join(" ") }, cardEl(env.cardCtx, c, { game: "oh7", winner: win }), h("small", { class: "nm", title: who }, who), win ? h("small", { class: "tag win" }, t.rv.wins) : null);
        }),
      ),
    );
  }
  const played = new Map(step.kind === "trick" ? step.plays.map(([s, c]) => [s, c]) : []);
  const hands = h(
    "div",
    { class: "replay-hands" },
    h("h4", {}, step.kind === "trick" ? t.rp.handsBefore : t.rp.hands),
    h(
      "ul",
      { class: "replay-hand-list" },
      ...step.hands.map((cards, s) =>
        cards.length
          ? h(
              "li",
              {},
              h("span", { class: "nm" }, names[s] ?? `#${s + 1}`, step.kind === "trick" && s < n ? h("small", { class: "bet-won" }, t.rp.betWon(w, step.bets?.[s] ?? "–", step.wonSoFar?.[s] ?? 0)) : null),
              h("span", { class: "cards", role: "list" }, ...cards.map((c) => h("span", { role: "listitem", class: played.get(s) === c ? "picked" : null }, cardEl(env.cardCtx, c, { game: "oh7", mini: true, selected: played.get(s) === c })))),
            )
          : null,
      ),
    ),
  );
  return [h("h3", { class: "step-title" }, where), info.length ? h("p", { class: "step-info" }, ...info) : null, h("div", { class: "step-cards replay-cards" }, tableEl, hands)];
}

const cap = (x) => String(x).charAt(0).toUpperCase() + String(x).slice(1);

/** "Back to the table", when this browser opened this review from its table. */
function tableLink(t) {
  let from = null;
  try {
    from = JSON.parse(localStorage.getItem("oh7.reviewFrom") || "null");
  } catch {
    from = null;
  }
  const path = from && !page.replay && from.share === page.code && /^\/t\/[0-9a-f]{32}$/.test(from.path) ? from.path : null;
  if (!path) return null;
  setTimeout(() => watchTable(path.slice(3), t), 0);
  return [h("p", {}, h("a", { id: "review-table", href: path }, t.rv.toTable)), h("p", { id: "review-rematch", class: "rematch-news", role: "status" })];
}

let tableWatch = null;

/** While this review is open, the table it came from is looked at every few seconds: when the
 *  host asks for another game, the page says so (the answer is given at the table). */
function watchTable(invite, t) {
  if (tableWatch) return;
  const tick = async () => {
    const el = document.getElementById("review-rematch");
    if (!el) {
      clearInterval(tableWatch);
      tableWatch = null;
      return;
    }
    try {
      const r = await fetch(`/api/tables/${invite}`);
      if (!r.ok) return;
      const info = await r.json();
      const m = info.rematch;
      const left = m ? Math.max(0, Math.min(m.wait_s, Math.ceil((m.deadline_ms - Date.now()) / 1000))) : 0;
      const text = m ? t.rv.rematchAsked(info.seats?.[info.host ?? 0]?.name || "", left) : "";
      if (el.textContent !== text) el.textContent = text;
    } catch {
      // Offline for a moment: the next look says it.
    }
  };
  tick();
  tableWatch = setInterval(tick, 3000);
}

function buildReview(env) {
  const { t, w } = env;
  const m = loaded.m;
  const rv = m.review;
  const g = rv.game || {};
  const name = env.names[rv.seat] ?? `#${rv.seat + 1}`;
  const presetName = t.presets[env.preset] || env.preset;
  document.title = `${t.rv.title}: ${name} — oh7`;
  const head = h(
    "section",
    { class: "panel review-head", "aria-labelledby": "review-h" },
    h("h2", { id: "review-h" }, t.rv.of(name)),
    tableLink(t),
    h("p", { class: "meta" }, t.rv.meta(presetName, m.record.players, t.levels[rv.level] || rv.level), loaded.data.table?.game ? ` · ${t.rv.gameN(loaded.data.table.game)}` : ""),
    h(
      "dl",
      { class: "figures" },
      h("div", {}, h("dt", {}, t.rv.accuracy), h("dd", { id: "review-accuracy" }, h("span", { class: "big" }, fmtAcc(t, g.accuracy)))),
      h("div", {}, h("dt", {}, env.seven ? t.rv7.lost : t.rv.lost), h("dd", { id: "review-lost" }, h("span", { class: "big" }, fmtLoss(t, g.loss)), h("small", {}, t.rv.perDecision(fmtLoss(t, g.loss_per_decision))))),
      h("div", {}, h("dt", {}, t.rv.decisions), h("dd", {}, h("span", { class: "big" }, String(g.evaluated ?? g.decisions ?? 0)), h("small", {}, t.rv.marksCount(g.inaccuracies ?? 0, g.mistakes ?? 0, g.blunders ?? 0)))),
    ),
  );
  const strip = h("div", { class: "strip", role: "toolbar", "aria-label": env.seven ? t.rv7.strip : t.rv.strip, "aria-describedby": "strip-help" });
  // One group per round, kept on one line (a phone wraps between rounds, not inside one).
  let group = null;
  for (const it of m.strip) {
    if (!group || group.__round !== it.round) {
      group = h("span", { class: "strip-group" }, h("span", { class: "strip-round", "aria-hidden": "true" }, String(it.round)));
      group.__round = it.round;
      strip.append(group);
    }
    const label = (env.seven ? t.rv7.stripItem : t.rv.stripItem)(whereText(t, w, it.where), t.rv.marks[it.mark], it.loss !== null && it.loss >= 0.005 ? fmtLoss(t, it.loss) : null);
    const b = h("button", { type: "button", class: `mark-item ${it.mark}`, "data-step": it.step, "data-decision": it.index, "aria-label": label, title: label, tabindex: "-1", onclick: () => go(it.step) });
    b.style.setProperty("--h", it.height);
    b.append(h("span", { class: "bar-fill", "aria-hidden": "true" }, MARK_GLYPH[it.mark]));
    group.append(b);
  }
  strip.addEventListener("keydown", stripKeys);
  const legend = h("ul", { class: "strip-legend", "aria-label": t.rv.legend }, ...["fine", "inaccuracy", "mistake", "blunder"].map((k) => h("li", {}, h("span", { class: `mark-item ${k} swatch`, "aria-hidden": "true" }, h("span", { class: "bar-fill" }, MARK_GLYPH[k])), t.rv.marks[k])));
  const stripSec = h("section", { class: "panel review-strip", "aria-labelledby": "strip-h" }, h("h2", { id: "strip-h" }, env.seven ? t.rv7.strip : t.rv.strip), h("p", { class: "help", id: "strip-help" }, env.seven ? t.rv7.stripHelp : t.rv.stripHelp), strip, legend);

  const nav = h(
    "div",
    { class: "step-nav" },
    h("button", { type: "button", id: "step-prev", onclick: () => go(current - 1), "aria-keyshortcuts": "ArrowLeft" }, h("span", { "aria-hidden": "true" }, "← "), t.rv.prev),
    h("p", { class: "step-status", role: "status", "aria-live": "polite" }),
    h("button", { type: "button", id: "step-next", onclick: () => go(current + 1), "aria-keyshortcuts": "ArrowRight" }, t.rv.next, h("span", { "aria-hidden": "true" }, " →")),
  );
  const stepSec = h("section", { class: "panel review-steps", id: "steps", "aria-labelledby": "steps-h" }, h("h2", { id: "steps-h" }, env.seven ? t.rv7.steps : t.rv.steps, " ", h("small", { class: "help keys-help" }, t.rv.keysHelp)), nav, h("div", { class: "step-body" }));

  const roundRows = m.rounds.map((r) => {
    const s = r.summary || {};
    return h(
      "tr",
      {},
      h("th", { scope: "row" }, r.step >= 0 ? h("a", { href: `#step-${r.step + 1}`, onclick: (e) => jump(e, r.step) }, t.round(r.round)) : t.round(r.round)),
      h("td", {}, String(r.points ?? "")),
      h("td", {}, fmtLoss(t, s.loss)),
      h("td", {}, fmtAcc(t, s.accuracy)),
      h("td", { class: s.inaccuracies ? "n-inaccuracy" : null }, String(s.inaccuracies ?? 0)),
      h("td", { class: s.mistakes ? "n-mistake" : null }, String(s.mistakes ?? 0)),
      h("td", { class: s.blunders ? "n-blunder" : null }, String(s.blunders ?? 0)),
    );
  });
  const roundsSec = h(
    "section",
    { class: "panel review-rounds", "aria-labelledby": "rounds-h" },
    h("h2", { id: "rounds-h" }, t.rv.rounds),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t.rv.roundCol), h("th", { scope: "col" }, env.seven ? t.rv7.pointsCol : t.rv.pointsCol), h("th", { scope: "col" }, env.seven ? t.rv7.lostCol : t.rv.lostCol), h("th", { scope: "col" }, t.rv.accCol), ...["inaccuracy", "mistake", "blunder"].map((k) => h("th", { scope: "col", title: t.rv.marksOf[k] }, h("span", { "aria-hidden": "true" }, MARK_GLYPH[k]), sr(t.rv.marksOf[k]))))),
        h("tbody", {}, ...roundRows),
      ),
    ),
  );
  const costly = m.costliest.length
    ? h(
        "ol",
        { class: "costliest" },
        ...m.costliest.map((c) =>
          h(
            "li",
            {},
            h("span", { class: `badge mark-${c.mark}` }, t.rv.marks[c.mark]),
            " ",
            h("a", { href: `#step-${c.step + 1}`, "data-decision": c.index, onclick: (e) => jump(e, c.step) }, (env.seven ? t.rv7.costly : t.rv.costly)(whereText(t, w, c.where), optionText(env, review_kind(c.index), c.chosen), optionText(env, review_kind(c.index), c.best), fmtLoss(t, c.loss))),
          ),
        ),
      )
    : h("p", {}, t.rv.noCostly);
  const costlySec = h("section", { class: "panel review-costliest", "aria-labelledby": "costly-h" }, h("h2", { id: "costly-h" }, t.rv.costliest), costly);
  const hs = g.oracle_agrees;
  const hindSec =
    hs === null || hs === undefined
      ? null
      : h("section", { class: "panel hindsight", "aria-labelledby": "hind-h" }, h("h2", { id: "hind-h" }, t.rv.hindsight), h("p", {}, t.rv.hindsightGame(hs, g.evaluated ?? g.decisions ?? 0)), h("p", { class: "help" }, t.rv.hindsightNote));
  return [head, stripSec, stepSec, roundsSec, costlySec, hindSec].filter(Boolean);
}

function review_kind(i) {
  return loaded.m.review.decisions[i].kind;
}

const MARK_GLYPH = { fine: "", inaccuracy: "?!", mistake: "?", blunder: "??", none: "–" };

function jump(e, step) {
  e.preventDefault();
  go(step);
  document.querySelector(".review-steps")?.scrollIntoView({ block: "start" });
  document.getElementById("steps-h")?.setAttribute("tabindex", "-1");
  document.getElementById("steps-h")?.focus({ preventScroll: true });
}

/** Show step `i` (clamped), keeping its number in the address (#step-N). */
function go(i) {
  const m = loaded.m;
  if (!m) return;
  current = Math.max(0, Math.min(m.steps.length - 1, i));
  history.replaceState(history.state, "", `${location.pathname}#step-${current + 1}`);
  showStep();
}

function stripKeys(e) {
  const items = [...e.currentTarget.querySelectorAll(".mark-item")];
  const i = items.indexOf(e.target);
  if (i < 0) return;
  let j = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(items.length - 1, i + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = items.length - 1;
  if (j === null) return;
  e.preventDefault();
  e.stopPropagation();
  go(Number(items[j].dataset.step));
  items[j].focus();
}

/** The page's keys: ← and → step through the game (outside fields and the strip). */
export function reviewKeys(e) {
  if (!page || !loaded.m || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return false;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return false;
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return false;
  e.preventDefault();
  go(current + (e.key === "ArrowRight" ? 1 : -1));
  return true;
}

function showStep() {
  const env = envOf();
  const { t } = env;
  const m = loaded.m;
  const root = page.root;
  const step = m.steps[current];
  if (!step) return;
  const where = whereText(t, env.w, step);
  const d = step.decision !== null && m.review ? m.review.decisions[step.decision] : null;
  const status = `${t.rv.stepOf(current + 1, m.steps.length)} · ${where}${d ? ` · ${t.rv.marks[markOf(d)]}` : ""}`;
  const st = root.querySelector(".step-status");
  if (st && st.textContent !== status) st.textContent = status;
  const prev = root.querySelector("#step-prev");
  const next = root.querySelector("#step-next");
  if (prev) prev.disabled = current === 0;
  if (next) next.disabled = current === m.steps.length - 1;
  // The strip: the step's decision is current, and the one Tab reaches.
  const items = [...root.querySelectorAll(".strip .mark-item")];
  let focusIdx = items.findIndex((b) => Number(b.dataset.step) === current);
  if (focusIdx < 0) focusIdx = items.findIndex((b) => Number(b.dataset.step) > current);
  if (focusIdx < 0) focusIdx = items.length - 1;
  items.forEach((b, k) => {
    const here = Number(b.dataset.step) === current;
    if (here) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
    b.setAttribute("tabindex", k === focusIdx ? "0" : "-1");
  });
  const body = root.querySelector(".step-body");
  region(body, `${page.lang}:${current}`, () => (m.seven && !m.review ? sevenReplayStepEl(env, step, where) : m.seven ? sevenStepEl(env, step, d, where) : m.review ? stepEl(env, step, d, where) : replayStepEl(env, step, where)));
}

function stepEl(env, step, d, where) {
  const { t, w, names } = env;
  const seat = loaded.m.review.seat;
  const me = names[seat];
  const info = [];
  if (step.trump !== undefined && step.kind === "trick") {
    const s = step.trump ? suitName(step.trump, env.lang, env.rules) : null;
    info.push(h("span", { class: "chip" }, t.rv.trumpLine(w, s ? `${s.symbol} ${s.name}` : t.rv.noTrumpYet(w.trump))));
  }
  if (step.kind === "trick" && step.bet !== null && step.bet !== undefined) info.push(h("span", { class: "chip" }, t.rv.betLine(w, me, step.bet)));
  if (step.kind === "trick" && step.n > 1) info.push(h("span", { class: "chip" }, t.rv.wonLine(step.wonBefore)));

  const chosenCard = d && (d.kind === "play" || d.kind === "bet") ? d.chosen : null;
  const mineCard = step.kind === "trick" && step.before !== null ? step.plays[step.before]?.[1] : chosenCard;
  const picked = (c) => c === mineCard || (step.kind === "pass" && step.plays.some(([, x]) => x === c));
  const handEl = h(
    "div",
    { class: "review-hand" },
    h("h4", {}, t.rv.handOf(me)),
    h("div", { class: "cards", role: "list" }, ...step.hand.map((c) => h("span", { role: "listitem", class: picked(c) ? "picked" : null }, cardEl(env.cardCtx, c, { game: "oh7", selected: picked(c) })))),
  );
  let tableEl = null;
  if (step.plays.length) {
    const title = step.kind === "trick" ? t.rv.trickCards : step.kind === "pass" ? t.rv.passCards : t.rv.betCards(w);
    tableEl = h(
      "div",
      { class: "review-trick" },
      h("h4", {}, title),
      h(
        "ol",
        { class: "cards plays" },
        ...step.plays.map(([s, c], i) => {
          const after = step.kind === "trick" && step.before !== null && i > step.before;
          const win = step.kind === "trick" && s === step.winner;
          const who = s === null ? "" : names[s] ?? `#${s + 1}`;
          return h(
            "li",
            { class: ["play", after && "after", win && "winner", s === seat && "mine"].filter(Boolean).join(" ") },
            cardEl(env.cardCtx, c, { game: "oh7", winner: win }),
            h("small", { class: "nm", title: who }, who),
            after ? h("small", { class: "tag" }, t.rv.after) : null,
            win ? h("small", { class: "tag win" }, t.rv.wins) : null,
          );
        }),
      ),
    );
  }
  return [
    h("h3", { class: "step-title" }, where),
    info.length ? h("p", { class: "step-info" }, ...info) : null,
    h("div", { class: "step-grid" }, h("div", { class: "step-cards" }, tableEl, handEl), decisionEl(env, step, d)),
  ];
}

/** One step of a Seven replay: who moved and what, the top of the pile, every hand before. */
function sevenReplayStepEl(env, step, where) {
  const { t, names } = env;
  const who = (s) => names[s] ?? `#${s + 1}`;
  const s = step.active ? suitName(step.active, env.lang, env.rules) : null;
  const info = step.top ? [h("span", { class: "chip" }, t.rv7.topLine(s ? `${s.symbol} ${s.name}` : "–"))] : [];
  const mine = step.kind === "turn" && step.action ? /^[^:!\s]+/.exec(step.action)?.[0] : null;
  const did = step.kind === "turn" ? h("p", { class: "seven-did" }, t.rv7.did(who(step.actor), step.action === "draw" ? t.rv7.draws(step.drawn.length) : sevenOptionText(env, step.action))) : null;
  const topEl = step.top ? h("div", { class: "seven-top" }, h("h4", {}, t.top), cardEl(env.cardCtx, step.top, { game: "seven" })) : null;
  const hands = h(
    "div",
    { class: "replay-hands" },
    h("h4", {}, step.kind === "turn" ? t.rp.handsBeforeTurn : t.rp.hands),
    h(
      "ul",
      { class: "replay-hand-list" },
      ...(step.hands || []).map((cards, k) =>
        h(
          "li",
          {},
          h("span", { class: "nm" }, who(k)),
          cards.length ? h("span", { class: "cards", role: "list" }, ...cards.map((c) => h("span", { role: "listitem", class: k === step.actor && c === mine ? "picked" : null }, cardEl(env.cardCtx, c, { game: "seven", mini: true, selected: k === step.actor && c === mine })))) : h("span", {}, t.rv7.emptyHand),
        ),
      ),
    ),
  );
  if (step.kind === "result") {
    const rows = (step.points || []).map((p, k) => h("tr", {}, h("th", { scope: "row" }, h("span", { class: "nm" }, who(k))), h("td", {}, String(p)), h("td", {}, String(step.totals?.[k] ?? ""))));
    return [
      h("h3", { class: "step-title" }, where),
      step.out !== null && step.out !== undefined ? h("p", {}, t.rv7.out(who(step.out))) : null,
      h("div", { class: "scroll" }, h("table", { class: "scores replay-result" }, h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, t.rv7.pointsCol), h("th", { scope: "col" }, t.total))), h("tbody", {}, ...rows))),
      h("div", { class: "step-cards replay-cards" }, hands),
    ];
  }
  return [h("h3", { class: "step-title" }, where), info.length ? h("p", { class: "step-info" }, ...info) : null, h("div", { class: "step-cards replay-cards" }, did, topEl, hands)];
}

/** One step of a Seven review: the others' turns since the seat's last, the top of the pile,
 *  the seat's hand, and at a decision its options. */
function sevenStepEl(env, step, d, where) {
  const { t, names } = env;
  const m = loaded.m;
  const seat = m.review.seat;
  const me = names[seat];
  const info = [];
  if (step.top) {
    const s = step.active ? suitName(step.active, env.lang, env.rules) : null;
    info.push(h("span", { class: "chip" }, t.rv7.topLine(s ? `${s.symbol} ${s.name}` : "–")));
  }
  if (step.counts?.length) info.push(h("span", { class: "chip" }, t.rv7.counts(step.counts.map((n, s) => `${names[s] ?? `#${s + 1}`} ${n}`).join(" · "))));
  const sv = d?.seven;
  if (sv && sv.mode && sv.mode !== "normal") info.push(h("span", { class: "chip warn" }, t.rv7.mode[sv.mode] ? t.rv7.mode[sv.mode](sv.penalty) : sv.mode));
  const turnLine = ([s, act, drawn]) => h("li", {}, h("span", { class: "nm" }, names[s] ?? `#${s + 1}`), " ", act === "draw" ? t.rv7.draws(drawn.length) : act === "pass" ? t.pass : sevenOptionEl(env, act));
  const othersEl = step.others.length ? h("div", { class: "seven-others" }, h("h4", {}, step.kind === "result" ? t.rv7.lastTurns : t.rv7.since), h("ul", { class: "seven-turns" }, ...step.others.map(turnLine))) : null;
  const topEl = step.top ? h("div", { class: "seven-top" }, h("h4", {}, t.top), cardEl(env.cardCtx, step.top, { game: "seven" })) : null;
  const mine = step.action && /^[^:!\s]+/.exec(step.action)?.[0];
  const handEl = h(
    "div",
    { class: "review-hand" },
    h("h4", {}, t.rv.handOf(me)),
    step.hand.length ? h("div", { class: "cards", role: "list" }, ...step.hand.map((c) => h("span", { role: "listitem", class: c === mine ? "picked" : null }, cardEl(env.cardCtx, c, { game: "seven", selected: c === mine })))) : h("p", {}, t.rv7.emptyHand),
    step.kind === "turn" && step.action ? h("p", { class: "seven-did" }, t.rv7.did(me, step.action === "draw" ? t.rv7.draws(step.drawn.length) : sevenOptionText(env, step.action))) : null,
    // The cards the seat drew, which it saw (after the decision).
    step.kind === "turn" && step.drawn?.length ? h("div", { class: "cards seven-drawn" }, ...step.drawn.map((c) => cardEl(env.cardCtx, c, { game: "seven", mini: true }))) : null,
  );
  if (step.kind === "result") {
    const rows = (step.points || []).map((p, s) => h("tr", {}, h("th", { scope: "row" }, h("span", { class: "nm" }, names[s] ?? `#${s + 1}`)), h("td", {}, String(p)), h("td", {}, String(step.totals?.[s] ?? ""))));
    return [
      h("h3", { class: "step-title" }, where),
      step.out !== null && step.out !== undefined ? h("p", {}, t.rv7.out(names[step.out] ?? `#${step.out + 1}`)) : null,
      h("div", { class: "step-grid" }, h("div", { class: "step-cards" }, othersEl), h("div", { class: "scroll" }, h("table", { class: "scores replay-result" }, h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, t.rv7.pointsCol), h("th", { scope: "col" }, t.total))), h("tbody", {}, ...rows)))),
    ];
  }
  return [
    h("h3", { class: "step-title" }, where),
    info.length ? h("p", { class: "step-info" }, ...info) : null,
    h("div", { class: "step-grid" }, h("div", { class: "step-cards" }, othersEl, topEl, handEl), decisionEl(env, step, d)),
  ];
}

function decisionEl(env, step, d) {
  const { t, w } = env;
  if (!d && env.seven) return h("div", { class: "decision none" }, h("p", {}, step.kind === "turn" ? t.rv7.noDecision : t.rv.notHere));
  if (!d) return h("div", { class: "decision none" }, h("p", {}, step.kind === "trick" && step.before !== null ? t.rv.noDecision : t.rv.notHere));
  const mark = markOf(d);
  const out = [h("h4", {}, t.rv.decision, " ", h("span", { class: `badge mark-${mark}` }, t.rv.marks[mark]))];
  if (!d.evaluation) {
    out.push(h("p", {}, t.rv.notEvaluated), d.note ? h("p", { class: "help" }, d.note) : null);
  } else if (env.seven) {
    const rows = optionRows(d);
    out.push(
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "scores options" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t.rv.option), h("th", { scope: "col" }, t.rv7.value), h("th", { scope: "col" }, t.rv7.left))),
          h(
            "tbody",
            {},
            ...rows.map((r) =>
              h(
                "tr",
                { class: [r.best && "best", r.chosen && "chosen"].filter(Boolean).join(" ") || null, "data-option": r.option },
                h("th", { scope: "row" }, h("span", { class: "opt" }, sevenOptionEl(env, r.option)), r.best ? h("span", { class: "badge best-tag" }, t.rv.best) : null, r.chosen ? h("span", { class: "badge chosen-tag" }, t.rv.chosen) : null),
                h("td", {}, t.pct(r.made)),
                h("td", {}, r.points !== undefined && r.points !== null ? t.num(r.points, 1) : "–"),
              ),
            ),
          ),
        ),
      ),
      h("p", { class: "loss" }, d.loss > 0 ? t.rv7.lossLine(fmtLoss(t, d.loss)) : t.rv.bestChosen),
    );
    const why = reasonOf(d);
    if (why && mark !== "fine") out.splice(1, 0, h("p", { class: "plain" }, t.rv7.plain(t.rv.marks[mark], sevenOptionText(env, why.chosen.option), t.pct(why.chosen.made), sevenOptionText(env, why.best.option), t.pct(why.best.made), fmtLoss(t, d.loss))));
    if (why) out.push(h("p", { class: "reason" }, t.rv7.reason(sevenOptionText(env, why.chosen.option), t.pct(why.chosen.made), t.num(why.chosen.points ?? 0, 1), sevenOptionText(env, why.best.option), t.pct(why.best.made), t.num(why.best.points ?? 0, 1))));
  } else {
    const rows = optionRows(d);
    out.push(
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "scores options" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t.rv.option), h("th", { scope: "col" }, t.rv.expected), h("th", { scope: "col" }, t.rv.tricks), h("th", { scope: "col" }, t.rv.made))),
          h(
            "tbody",
            {},
            ...rows.map((r) =>
              h(
                "tr",
                { class: [r.best && "best", r.chosen && "chosen"].filter(Boolean).join(" ") || null, "data-option": r.option },
                h(
                  "th",
                  { scope: "row" },
                  h("span", { class: "opt" }, optionEl(env, d.kind, r.option), kindSr(env, d.kind, r.option)),
                  r.best ? h("span", { class: "badge best-tag" }, t.rv.best) : null,
                  r.chosen ? h("span", { class: "badge chosen-tag" }, t.rv.chosen) : null,
                ),
                h("td", {}, t.num(r.value, 2)),
                h("td", {}, t.num(r.tricks, 1)),
                h("td", {}, t.pct(r.made)),
              ),
            ),
          ),
        ),
      ),
      h("p", { class: "loss" }, d.loss > 0 ? t.rv.lossLine(fmtLoss(t, d.loss)) : t.rv.bestChosen),
    );
    const why = reasonOf(d);
    const plain = plainWords(t, d, loaded.m?.review?.rounds, (o) => optionText(env, d.kind, o));
    if (plain) out.splice(1, 0, h("p", { class: "plain" }, plain[0]), h("p", { class: "help" }, plain[1]));
    if (why) out.push(h("p", { class: "reason" }, t.rv.reason(w, optionText(env, d.kind, why.chosen.option), t.pct(why.chosen.made), t.num(why.chosen.tricks, 1), optionText(env, d.kind, why.best.option), t.pct(why.best.made), t.num(why.best.tricks, 1))));
  }
  if (d.hindsight) {
    out.push(
      h(
        "aside",
        { class: "hindsight-line", "aria-label": t.rv.hindsight },
        h("strong", {}, `${t.rv.hindsight}${t.colon}`),
        t.rv.hindsightSays(optionText(env, d.kind, d.hindsight.oracle), d.hindsight.agrees),
        h("small", { class: "help" }, ` ${t.rv.hindsightNote}`),
      ),
    );
  }
  return h("div", { class: `decision ${mark}` }, ...out);
}

/** A card option's spoken name for screen readers is in its card; other options are words. */
function kindSr(env, kind, option) {
  if (kind === "bet" || kind === "play") return null;
  if (kind === "pass") return sr(option.split(/\s+/).map((c) => speak("oh7", c, env.lang, env.rules)).join(", "));
  return null;
}

/** Forget the page (another route). */
export function leaveReview() {
  page = null;
}
