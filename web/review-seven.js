// A Seven review's and replay's drawing (the Seven part of /review/{code} and /replay/{code}): a
// turn's options, one step of the review (the others' turns, the top of the pile, the seat's hand,
// its decision), one step of the replay (every hand). The model is review-model.js.

import { h } from "./dom.js";
import { face, suitName } from "./cards.js";
import { cardEl } from "./table.js";
import { optionRows, reasonOf, fmtLoss } from "./review-model.js";


/** A Seven option in words: "Q♠", "8♣ → ♥", "5♦ and announce", "Draw", "Call out Bob". */
export function sevenOptionText(env, option) {
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
export function sevenOptionEl(env, option) {
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

/** A Seven decision's options (its chance to go out first, the points left), the loss, and in
 *  plain words why it was marked; after the decision's heading. */
export function sevenOptionsEl(env, d, mark) {
  const { t } = env;
  const rows = optionRows(d);
  const out = [
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
  ];
  const why = reasonOf(d);
  if (why && mark !== "fine") out.unshift( h("p", { class: "plain" }, t.rv7.plain(t.rv.marks[mark], sevenOptionText(env, why.chosen.option), t.pct(why.chosen.made), sevenOptionText(env, why.best.option), t.pct(why.best.made), fmtLoss(t, d.loss))));
  if (why) out.push(h("p", { class: "reason" }, t.rv7.reason(sevenOptionText(env, why.chosen.option), t.pct(why.chosen.made), t.num(why.chosen.points ?? 0, 1), sevenOptionText(env, why.best.option), t.pct(why.best.made), t.num(why.best.points ?? 0, 1))));
  return out;
}

/** One step of a Seven replay: who moved and what, the top of the pile, every hand before. */
export function sevenReplayStepEl(env, step, where) {
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
 *  the seat's hand, and `decision` (its decision drawn). */
export function sevenStepEl(env, step, d, where, decision) {
  const { t, names } = env;
  const seat = env.m.review.seat;
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
    h("div", { class: "step-grid" }, h("div", { class: "step-cards" }, othersEl, topEl, handEl), decision),
  ];
}
