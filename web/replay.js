// The replay's drawing (/replay/{code}): the table's last finished game, every hand shown at
// every step, each round's results. The model is review-model.js; the page (loading, keys, the
// step shown) is review.js, which hands its navigation in `env.nav`.

import { h } from "./dom.js";
import { suitName } from "./cards.js";
import { cap } from "./rules.js";
import { cardEl } from "./table.js";


/** The replay: the game's head, the step-through, the rounds (bets, tricks won, points). */
export function buildReplay(env) {
  const { t } = env;
  const m = env.m;
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
  const nav = stepNav(env);
  const stepSec = h("section", { class: "panel review-steps replay-steps", id: "steps", "aria-labelledby": "steps-h" }, h("h2", { id: "steps-h" }, m.seven ? t.rv7.steps : t.rv.steps, " ", h("small", { class: "help keys-help" }, t.rv.keysHelp)), nav, h("div", { class: "step-body" }));
  const head2 = h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t.rv.roundCol), ...names.map((nm) => h("th", { scope: "col", title: nm }, h("span", { class: "nm" }, nm)))));
  const rows = m.rounds.map((r) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, r.step >= 0 ? h("a", { href: `#step-${r.step + 1}`, onclick: (e) => env.nav.jump(e, r.step) }, t.round(r.round)) : t.round(r.round)),
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
export function replayStepEl(env, step, where) {
  const { t, w, names } = env;
  const info = [];
  if (step.kind === "trick") {
    const s = step.trump ? suitName(step.trump, env.lang, env.rules) : null;
    info.push(h("span", { class: "chip" }, t.rv.trumpLine(w, s ? `${s.symbol} ${s.name}` : t.rv.noTrumpYet(w.trump))));
  }
  const rec = env.m.record;
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
  const tableEl = playsEl(env, step, (s, c, i, win, who) =>
    h("li", { class: ["play", win && "winner"].filter(Boolean).join(" ") }, cardEl(env.cardCtx, c, { game: "oh7", winner: win }), h("small", { class: "nm", title: who }, who), win ? h("small", { class: "tag win" }, t.rv.wins) : null),
  );
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

/** The step-through's buttons (← and →) and its status line. */
export function stepNav(env) {
  const { t, nav } = env;
  return h(
    "div",
    { class: "step-nav" },
    h("button", { type: "button", id: "step-prev", onclick: () => nav.go(nav.current() - 1), "aria-keyshortcuts": "ArrowLeft" }, h("span", { "aria-hidden": "true" }, "← "), t.rv.prev),
    h("p", { class: "step-status", role: "status", "aria-live": "polite" }),
    h("button", { type: "button", id: "step-next", onclick: () => nav.go(nav.current() + 1), "aria-keyshortcuts": "ArrowRight" }, t.rv.next, h("span", { "aria-hidden": "true" }, " →")),
  );
}

/** The cards on the table at an Oh 7 step (the trick, the bet cards revealed, or the cards
 *  passed), each drawn by `li(seat, card, index, wins, name)`; null when there are none. Shared
 *  by the replay and the review. */
export function playsEl(env, step, li) {
  if (!step.plays.length) return null;
  const { t, w, names } = env;
  const title = step.kind === "trick" ? t.rv.trickCards : step.kind === "pass" ? t.rv.passCards : t.rv.betCards(w);
  return h(
    "div",
    { class: "review-trick" },
    h("h4", {}, title),
    h(
      "ol",
      { class: "cards plays" },
      ...step.plays.map(([s, c], i) => li(s, c, i, step.kind === "trick" && s === step.winner, s === null ? "" : names[s] ?? `#${s + 1}`)),
    ),
  );
}
