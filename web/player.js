// A player's page (`/p/NAME`, and the account panel's own figures): their figures over their
// finished games per rules, their ratings with their history as a line, and the leaderboards
// of their most played families. Built from `GET /api/players/NAME`; nothing of a running game.

import { h } from "./dom.js";
import { call } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";

/** A family of rules (`oh7:en`, `seven`) or a rules' label (`kod7`) as people name it. */
export function rulesName(t, family) {
  const label = family.includes(":") ? family.slice(family.indexOf(":") + 1) : family;
  return t.presets?.[label] ?? label;
}

/** The rating history as a small line chart (an SVG with a text alternative). */
export function historyPlot(t, family, history) {
  const a = t.acct;
  const w = 240;
  const hgt = 60;
  const pts = [[0, 0], ...history.map(([, r], i) => [i + 1, r])];
  const ys = pts.map((p) => p[1]);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const x = (i) => 4 + (i * (w - 8)) / Math.max(1, pts.length - 1);
  const y = (r) => hgt - 4 - ((r - lo) * (hgt - 8)) / Math.max(1e-9, hi - lo);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  svg.setAttribute("class", "rating-plot");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", a.plotLabel(rulesName(t, family), history.map(([, r]) => t.num(r, 1))));
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", pts.map(([i, r]) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

/**
 * A leaderboard's lines: its ten best people, with the bots' measured ratings placed among them
 * by rating as reference points (`{ name, rating, games, bot }`).
 */
export function boardLines(body, n = 10) {
  const people = (body.standings || []).slice(0, n).map((s) => ({ ...s, bot: false }));
  const bots = (body.bots || []).map((b) => ({ name: b.bot, rating: b.rating, games: b.games, bot: true }));
  return [...people, ...bots].sort((a, b) => b.rating - a.rating);
}

/** A family's leaderboard (its ten best, and the bots), filled in when it comes. */
export function board(t, family) {
  const el = h("div", { class: "leaderboard" });
  call("GET", `/api/leaderboard/${encodeURIComponent(family)}`).then((r) => {
    if (!r.ok) return;
    const lines = boardLines(r.body);
    el.replaceChildren(
      h("h3", {}, t.acct.leaderboard(rulesName(t, family))),
      h(
        "ol",
        {},
        ...lines.map((s) =>
          s.bot
            ? h("li", { class: "bot-ref" }, h("em", {}, t.acct.botRef(t.levels?.[s.name] ?? s.name)), ` · ${t.num(s.rating, 1)}`)
            : h("li", {}, h("a", { href: `/p/${encodeURIComponent(s.name)}` }, s.name), ` · ${t.num(s.rating, 1)} · ${s.games}`),
        ),
      ),
      lines.some((s) => s.bot) ? h("p", { class: "help" }, t.acct.botRefHelp) : null,
    );
  });
  return el;
}

/** The tables of a player's page: each with its links (watch or replay, and own reviews). */
export function tableList(t, tables) {
  const a = t.acct;
  const code = (c) => encodeURIComponent(c);
  return h(
    "ul",
    { class: "player-tables" },
    ...tables.map((r) =>
      h(
        "li",
        {},
        a.playedLine({ ...r, rules: rulesName(t, r.rules) }),
        " · ",
        h("a", { href: `/w/${code(r.watch)}` }, a.watch),
        r.games > 0 ? [" · ", h("a", { href: `/replay/${code(r.watch)}` }, a.replay)] : null,
        ...(r.reviews || []).map((v) => [" · ", h("a", { href: `/review/${code(v.share)}` }, a.reviewOf(v.game, v.level))]),
      ),
    ),
  );
}

/**
 * The figures per rules, one column per rules and one row per figure (seed 001's per-player
 * set), so that a phone shows them without a sideways scroll.
 */
export function figuresTable(t, rows) {
  const a = t.acct;
  const pct = (v) => (v === undefined || v === null ? "–" : t.pct(v));
  const num = (v) => (v === undefined || v === null ? "–" : t.num(v));
  const lines = [
    [a.fig.games, (f) => f.games],
    [a.fig.wins, (f) => f.wins],
    [a.fig.rounds, (f) => f.oh7?.rounds ?? "–"],
    [a.fig.points, (f) => num(f.oh7?.points_per_round)],
    [a.fig.bid, (f) => num(f.oh7?.average_bid)],
    [a.fig.nil, (f) => pct(f.oh7?.nil_bid_rate)],
    [a.fig.top, (f) => pct(f.oh7?.top_bid_rate)],
    [a.fig.made, (f) => pct(f.oh7?.success_rate)],
    [a.fig.over, (f) => pct(f.oh7?.overshoot_rate)],
    [a.fig.under, (f) => pct(f.oh7?.shortfall_rate)],
  ];
  // Seven has no bids: its column shows games and wins only.
  const shown = rows.some((f) => f.oh7) ? lines : lines.slice(0, 2);
  return h(
    "table",
    { class: "player-figures" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, a.fig.rules), ...rows.map((f) => h("th", { scope: "col" }, rulesName(t, f.rules))))),
    h("tbody", {}, ...shown.map(([label, get]) => h("tr", {}, h("th", { scope: "row" }, label), ...rows.map((f) => h("td", {}, get(f)))))),
  );
}

/** The parts of a player's page from its body (`own`: the account panel's words). */
export function playerParts(t, body, { own = false } = {}) {
  const a = t.acct;
  const rows = body.by_rules || [];
  const rated = body.ratings || [];
  return [
    h("h3", {}, own ? a.figures : a.theirFigures),
    rows.length
      ? figuresTable(t, rows)
      : h("p", { class: "help" }, a.noFigures),
    rated.length ? h("h3", {}, own ? a.ratings : a.theirRatings) : null,
    rated.length ? h("p", { class: "help rating-help" }, a.ratingHelp) : null,
    rated.length
      ? h(
          "table",
          { class: "player-figures" },
          h("thead", {}, h("tr", {}, ...[...a.ratingHead, a.history].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, ...rated.map((f) => h("tr", {}, h("th", { scope: "row" }, rulesName(t, f.family)), h("td", {}, t.num(f.rating, 1)), h("td", {}, f.games), h("td", {}, historyPlot(t, f.family, f.history || []))))),
        )
      : null,
    ...rated.slice(0, 2).map((f) => board(t, f.family)),
    ...(own || !(body.tables || []).length ? [] : [h("h3", {}, a.theirTables), tableList(t, body.tables)]),
  ].filter(Boolean);
}

/** The page `/p/NAME`. */
export function playerPage(t, name, header) {
  const main = h("main", { id: "content" }, h("h2", {}, name), h("p", { role: "status" }, t.acct.busy));
  call("GET", `/api/players/${encodeURIComponent(name)}`).then((r) => {
    if (!r.ok) {
      main.replaceChildren(h("h2", {}, name), h("p", { class: "form-error", role: "alert" }, t.errors[r.body.code] || t.errors.unknown_player));
      return;
    }
    main.replaceChildren(h("h2", {}, r.body.name), h("p", {}, t.acct.gamesPlayed(r.body.games)), ...playerParts(t, r.body));
  });
  return h("div", { class: "player" }, header, main);
}
