// The review page (/review/{code}): one seat's decisions in a finished Oh 7 game, as the engine
// reviewed them (docs/review.md), next to the game as its record has it. A strip along the game
// shows where expected points were lost; a step-through goes trick by trick (← and →) with the
// seat's hand then, the trick's cards, and at the seat's decisions the options with their
// expected points; then the rounds, the three costliest decisions, and the oracle's hindsight,
// kept apart from the review.
//
// A Seven review (docs/review.md, Seven) steps turn by turn instead (review-seven.js draws its
// steps). The same page without a review is the replay (/replay/{code}; replay.js draws it).
// This file loads the page, keeps the step shown, and draws an Oh 7 review; the model (pure,
// tested with node) is review-model.js.

import { h, region, sr } from "./dom.js";
import { texts } from "./i18n.js";
import { speak, suitName, face } from "./cards.js";
import { terms, symbols } from "./rules.js";
import { cardEl } from "./table.js";
import { request as askWorker } from "./local.js";
import { markOf, optionRows, plainWords, reasonOf, namesOf, model, stepFromHash, fmtLoss } from "./review-model.js";
import { sevenOptionText, sevenOptionEl, sevenOptionsEl, sevenReplayStepEl, sevenStepEl } from "./review-seven.js";
import { buildReplay, replayStepEl, stepNav, playsEl } from "./replay.js";


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
function optionEl(env, kind, option) {
  if (env.seven) return sevenOptionEl(env, option);
  if (kind === "bet" || kind === "play") return cardEl(env.cardCtx, option, { game: "oh7", mini: true });
  if (kind === "pass") return h("span", { class: "cards" }, ...option.split(/\s+/).map((c) => cardEl(env.cardCtx, c, { game: "oh7", mini: true })));
  return h("span", {}, optionText(env, kind, option));
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
    // A review made on this device (a solo game's) is kept in this browser, not on a server.
    (code.startsWith("local-") && !replay
      ? askWorker("reviewBody", { share: code }).then((data) => (data && !data.error ? { state: "ready", data } : { state: "unknown" }))
      : fetch(replay ? `/api/tables/${encodeURIComponent(code)}/record` : `/api/reviews/${encodeURIComponent(code)}`).then(async (r) => {
          if (r.status === 404) return { state: "unknown" };
          if (!r.ok) return { state: "offline" };
          const json = await r.json();
          const data = replay ? { review: null, record: json, table: null } : json;
          return { state: "ready", data };
        }))
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
  const preset = data?.record?.preset || data?.review?.preset || data?.table?.preset || data?.record?.game; // Seven's one preset is named after the game
  const rules = symbols(data?.record?.ruleset || { preset });
  const names = data ? namesOf(data, t) : [];
  const seven = !!loaded.m?.seven;
  const nav = { go, jump, current: () => current };
  return { t, lang, rules, names, w: terms(preset, lang), preset, seven, game: seven ? "seven" : "oh7", cardCtx: { S: { lang }, lang, rules: () => rules }, m: loaded.m, nav };
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

  const nav = stepNav(env);
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
  region(body, `${page.lang}:${current}`, () => (m.seven && !m.review ? sevenReplayStepEl(env, step, where) : m.seven ? sevenStepEl(env, step, d, where, decisionEl(env, step, d)) : m.review ? stepEl(env, step, d, where) : replayStepEl(env, step, where)));
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
  const tableEl = playsEl(env, step, (s, c, i, win, who) => {
    const after = step.kind === "trick" && step.before !== null && i > step.before;
    return h(
      "li",
      { class: ["play", after && "after", win && "winner", s === seat && "mine"].filter(Boolean).join(" ") },
      cardEl(env.cardCtx, c, { game: "oh7", winner: win }),
      h("small", { class: "nm", title: who }, who),
      after ? h("small", { class: "tag" }, t.rv.after) : null,
      win ? h("small", { class: "tag win" }, t.rv.wins) : null,
    );
  });
  return [
    h("h3", { class: "step-title" }, where),
    info.length ? h("p", { class: "step-info" }, ...info) : null,
    h("div", { class: "step-grid" }, h("div", { class: "step-cards" }, tableEl, handEl), decisionEl(env, step, d)),
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
    out.push(...sevenOptionsEl(env, d, mark));
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
