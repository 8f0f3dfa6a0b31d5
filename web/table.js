// The game on the table: seats placed around it (you at the bottom, the others across and
// beside you), the trick in the middle (a completed trick stays there a moment with its winner
// marked), a round summary, your hand, and the game-over screen. Each part is a region redrawn
// only when what it shows changed (dom.js), so focus, an open panel and typed text survive.

import { h, region, part, sr, svgPath } from "./dom.js";
import { face, speak, sortHand, suitName, actionName } from "./cards.js";
import { PIPS } from "./pips.js";
import { snap, swish } from "./sound.js";
import { terms, cap, pointsWhy } from "./rules.js";
import { gameOf, canAct, reviewOf } from "./state.js";
import { errorText } from "./i18n.js";
import { call } from "./api.js";

const TRICK_HOLD_MS = 1600;

let holdTimer = null;
let holdFor = null;
// When the trick on hold was shown, and whether its hold was cut short (see scheduleHold).
let holdSince = 0;
let holdCut = false;
let sweepTimer = null;
// A held trick gives way this soon once the next trick has begun or this seat must play.
const HOLD_WHEN_NEEDED_MS = 700;
let sevenChoice = null;

/** A card face; a button when `onclick` is given. Screen readers read its name ("7 of hearts"). */
export function cardEl(ctx, text, opts = {}) {
  const game = opts.game || gameOf(ctx.S);
  const rules = ctx.rules();
  const f = face(game, text, rules);
  const name = speak(game, text, ctx.S.lang || ctx.lang, rules);
  let cls = ["card", f.colour, opts.legal && "legal", opts.selected && "selected", opts.hinted && "hinted", opts.arrive && "arrive", opts.winner && "winner", opts.mini && "mini"]
    .filter(Boolean)
    .join(" ");
  // The index (rank over a small pip) in the corner, a large pip in the middle (the ‽ / ? its
  // glyph), Seven's action in a band; all decorative: the name is read instead.
  const pip = f.pip ? PIPS[f.pip] : null;
  const inner = [
    h("span", { class: "idx", "aria-hidden": "true" }, h("span", { class: "rank" }, f.rank ?? f.face), pip ? svgPath(pip, "suit") : h("span", { class: "suit" }, f.suitSymbol || "")),
    pip ? svgPath(pip, "pip") : h("span", { class: "pip glyph", "aria-hidden": "true" }, f.rank ?? f.face),
    f.action ? h("span", { class: "act", "aria-hidden": "true" }, actionName(f.action, ctx.S.lang || ctx.lang)) : null,
    f.copy ? h("span", { class: "copy", "aria-hidden": "true" }, "′") : null,
    sr(name),
  ];
  if (f.action) cls += " action";
  if (opts.onclick) {
    return h(
      "button",
      {
        type: "button",
        class: cls,
        title: name,
        "data-card": text,
        "data-k": `card:${text}`,
        "aria-disabled": opts.disabled ? "true" : null,
        "aria-pressed": opts.pressable ? String(!!opts.selected) : null,
        tabindex: opts.tabindex,
        onclick: opts.onclick,
      },
      ...inner,
    );
  }
  return h("span", { class: cls, title: name, "data-card": text }, ...inner);
}

/** A seat's display name. */
export function seatName(ctx, s, short = false) {
  const { S } = ctx;
  const t = ctx.t();
  const v = S.view;
  if (v && v.dummy === s) return cap(t.dummy);
  const seat = S.table?.seats?.[s];
  if (seat?.name) return seat.name;
  // Where room is short (seats, cards on the table) a bot is "Bot 3"; its level is in the lobby.
  if (seat?.bot) return short ? t.botShort(s + 1) : t.botName(s + 1, t.levels[seat.bot] || seat.bot);
  return `#${s + 1}`;
}

/** A seat's round token: its initial (a bot's: a robot's face), coloured by place; decorative. */
// A bot's face on its token: a small robot head (not the ⚙ of the settings menu).
const ROBOT =
  "M46 6h8v10h-8z M24 18h52a12 12 0 0 1 12 12v38a12 12 0 0 1-12 12h-52a12 12 0 0 1-12-12v-38a12 12 0 0 1 12-12z M36 36a8 8 0 1 0 0.01 0z M64 36a8 8 0 1 0 0.01 0z M34 60h32v7h-32z M2 40h8v22h-8z M90 40h8v22h-8z";

function avatarEl(ctx, s) {
  const seat = ctx.S.table?.seats?.[s];
  const name = seatName(ctx, s, true);
  if (seat?.bot && !seat?.name) return h("span", { class: `avatar bot p${s % 9}`, "aria-hidden": "true" }, svgPath(ROBOT, "robot"));
  const letter = [...name.replace(/^#/, "")][0]?.toUpperCase() || "?";
  return h("span", { class: `avatar p${s % 9}`, "aria-hidden": "true" }, letter);
}

/** Tricks won drawn as a small stack of card backs (the number beside it is what is read). */
function stackEl(n) {
  if (!n) return null;
  return h("span", { class: "stack", "aria-hidden": "true" }, ...Array.from({ length: Math.min(n, 7) }, () => h("i")));
}

function nameEl(ctx, s, extra = "") {
  const n = seatName(ctx, s, true);
  return h("span", { class: "nm", title: seatName(ctx, s) }, n, extra);
}

/**
 * What each game draws differently, chosen once per view ([`drawingOf`]): the top bar, the
 * actions, a seat, the centre (and what it depends on), the side panel, the phone legend, the
 * places (Oh 7's Dummy is one), a seat out of the game, the score sheet, and whether a greyed
 * card in play means "follow suit". Everything else is drawn alike.
 */
const DRAWINGS = {
  oh7: {
    top: (ctx, v) => oh7Top(ctx, v),
    actions: (ctx, v) => oh7Actions(ctx, v),
    seat: (ctx, v, s) => oh7Seat(ctx, v, s),
    center: (ctx, v) => oh7Center(ctx, v),
    centerKey: (v) => v.trick,
    side: (ctx, v) => sideEl(ctx, v),
    legend: (lw, lt) => `${cap(lw.bet)} · ${lt.won} · ${lt.score}`,
    places: (v) => v.players + (v.dummy !== null && v.dummy !== undefined ? 1 : 0),
    out: () => false,
    sheet: (ctx, v) => scoreTable(ctx, v),
    followsSuit: true,
  },
  seven: {
    top: (ctx, v) => sevenTop(ctx, v),
    actions: (ctx, v) => sevenActions(ctx, v),
    seat: (ctx, v, s) => sevenSeat(ctx, v, s),
    center: (ctx, v) => sevenCenter(ctx, v),
    centerKey: (v) => [v.top, v.played?.length],
    side: () => null,
    legend: () => "",
    places: (v) => v.players,
    out: (v, s) => !(v.in_game || []).includes(s),
    sheet: (ctx, v) => ((v.past_rounds || []).length ? sevenRoundTable(ctx, v, v.past_rounds) : null),
    followsSuit: false,
  },
};

/** A view's game (Oh 7 unless it says another the page draws). */
function gameOfView(v) {
  return Object.hasOwn(DRAWINGS, v?.game ?? "") ? v.game : "oh7";
}

/** A view's drawing ([`DRAWINGS`]). */
function drawingOf(v) {
  return DRAWINGS[gameOfView(v)];
}

/** The number of places at the table (the Dummy included). */
function placeCount(v) {
  return drawingOf(v).places(v);
}

/** Where place `s` sits: an angle, with you at the bottom. */
function angleOf(ctx, s, n) {
  const base = ctx.S.you ?? 0;
  const rel = (s - base + n) % n;
  return { rel, a: Math.PI / 2 + (rel * 2 * Math.PI) / n };
}

// ---------- the whole game section ----------

/** Draw (or update) the game section in `root`. */
export function renderGame(root, ctx) {
  const { S } = ctx;
  const v = S.view;
  if (!v) {
    root.replaceChildren();
    return;
  }
  const game = gameOfView(v);
  const draw = drawingOf(v);
  const t = ctx.t();
  if (root.__game !== `${game}:${S.table?.game_number}`) {
    root.__game = `${game}:${S.table?.game_number}`;
    root.replaceChildren();
    root.classList.add("game");
    // The game's name is its class (the style sheet's `.seven` rules).
    for (const g of Object.keys(DRAWINGS)) root.classList.toggle(g, g === game);
  }
  const top = part(root, "topbar");
  const felt = part(root, "felt");
  const prompt = part(root, "prompt", "div", { role: "status" });
  // A tutorial's coach (web/coach.js), by what to do now.
  const coach = part(root, "coach-area", "div", { "aria-live": "polite" });
  const lessonNow = ctx.coach?.() ?? null;
  region(coach, JSON.stringify([S.lang, lessonNow?.id ?? null, lessonNow?.text ?? null]), () => (lessonNow ? ctx.coachEl(lessonNow) : null));
  const actions = part(root, "actions");
  const handArea = part(root, "hand-area");
  const side = part(root, "side");
  const sheet = part(root, "sheet-area");
  const end = part(root, "end-area");

  region(top, JSON.stringify([S.lang, v.round, v.phase, v.tricks?.length, v.leader_trump, v.bet_attempts, S.table?.seats?.map((x) => x.name), S.table?.state, v.active_suit, v.direction, v.draw_pile, v.penalty, v.seven_lock, v.top]), () =>
    draw.top(ctx, v),
  );
  renderFelt(felt, ctx, v);
  region(prompt, JSON.stringify([S.lang, v.to_move, S.legal.length, !!S.pending, v.phase, S.you, S.table?.state, S.table?.seats, ctx.clockLeft()]), () => promptEl(ctx, v));
  region(actions, JSON.stringify([S.lang, S.legal, S.choice, S.passSel, !!S.pending, v.phase, S.hint, v.my_pending, v.passed, v.received, S.you, sevenChoice, v.hand?.length, S.table?.state]), () =>
    draw.actions(ctx, v),
  );
  renderHand(handArea, ctx, v);
  region(side, JSON.stringify([S.lang, v.last_trick, v.bet_attempts, v.phase?.name, S.table?.seats, v.tricks?.length, v.leader_trump]), () => draw.side(ctx, v));
  region(sheet, JSON.stringify([S.lang, S.table?.state, v.past_rounds?.length, S.table?.totals, S.table?.seats?.map((x) => x.name)]), () => sheetEl(ctx, v, sheet.querySelector("details")?.open));
  region(end, JSON.stringify([S.lang, S.table?.state, S.table?.game_number, v.past_rounds?.length, S.table?.totals, S.table?.winners, ctx.stats(), S.you, S.links, reviewOf(S)]), () =>
    S.table?.state === "over" ? endPanel(ctx, v) : null,
  );
  const again = end.querySelector(".again");
  if (again) region(again, JSON.stringify([S.lang, S.table?.rematch, S.you, ctx.rematchLeft(), S.table?.seats?.map((x) => x.name)]), () => againEl(ctx));
  const news = part(root, "review-news", "p", { role: "status", class: "sr-only" });
  const said = S.table?.state === "over" ? reviewNews(ctx) : "";
  if (news.textContent !== said) news.textContent = said;
  scheduleHold(ctx, felt);
}

/**
 * The completed trick stays a moment (TRICK_HOLD_MS), then sweeps to its winner and goes. It
 * gives way sooner (HOLD_WHEN_NEEDED_MS after it showed) once the next trick has a card or this
 * seat is asked to play: the table never hides a card led, nor the one you play.
 */
function scheduleHold(ctx, felt) {
  const c = ctx.S.completed;
  if (!c) {
    clearTimeout(holdTimer);
    clearTimeout(sweepTimer);
    holdFor = null;
    return;
  }
  const now = performance.now();
  if (holdFor !== c.version) {
    holdFor = c.version;
    holdSince = now;
    holdCut = false;
    plan(ctx, felt, c, TRICK_HOLD_MS);
  }
  const needed = (ctx.S.view?.trick?.length ?? 0) > 0 || ctx.S.legal.some((a) => a.kind === "play");
  if (needed && !holdCut) {
    holdCut = true;
    plan(ctx, felt, c, Math.max(0, Math.min(TRICK_HOLD_MS, HOLD_WHEN_NEEDED_MS) - (now - holdSince)));
  }
}

/** The held trick sweeps in `ms` less the sweep, and goes in `ms`. */
function plan(ctx, felt, c, ms) {
  clearTimeout(holdTimer);
  clearTimeout(sweepTimer);
  sweepTimer = setTimeout(() => sweep(felt, ctx, c), Math.max(0, ms - SWEEP_MS - 60));
  holdTimer = setTimeout(() => ctx.dispatch({ type: "local/dismiss-trick" }), ms);
}

/** The held trick's cards fly to its winner's seat (not under reduced motion). */
function sweep(felt, ctx, c) {
  if (!felt || reducedMotion() || ctx.S.completed?.version !== c.version || felt.__swept === c.version) return;
  felt.__swept = c.version;
  const to = felt.querySelector(`.seat[data-seat="${c.winner}"]`);
  const cards = [...felt.querySelectorAll(".center .trick.done .card")];
  if (!to || !cards.length) return;
  swish();
  const t = to.getBoundingClientRect();
  for (const el of cards) ghostMove(el, t, true, SWEEP_MS, "ease-in");
}

// ---------- top bar ----------

function oh7Top(ctx, v) {
  const t = ctx.t();
  const w = terms(v.preset, ctx.S.lang);
  const over = ctx.S.table?.state === "over";
  const lt = v.leader_trump;
  const trump = lt ? suitName(lt[1], ctx.S.lang, ctx.rules()) : null;
  const items = [h("span", { class: "chip" }, t.round(v.round))];
  if (v.phase.name === "playing") items.push(h("span", { class: "chip" }, t.trick(Math.min((v.tricks || []).length + 1, 7))));
  if (!over) {
    items.push(
      h(
        "span",
        { class: "chip trump-chip" },
        `${cap(w.trump)}${t.colon}`,
        trump ? h("span", { class: `trump suit-${lt[1]}` }, `${trump.symbol} ${trump.name}`) : t.noTrump(w.trump),
      ),
    );
  }
  const why = leadWhyText(ctx, v);
  return h("div", { class: "counters" }, ...items, why ? h("p", { class: "lead-why" }, why) : null);
}

/** Why the first leader leads, during the first trick when a tie decided it (else null). On
 * phones it is shown under the hand (`sideEl`), so the hand stays on the first screen. */
function leadWhyText(ctx, v) {
  if (ctx.S.table?.state === "over" || v.phase.name !== "playing" || (v.tricks || []).length) return null;
  // The engine says why (its view's `leader_why`); the page only words it.
  const why = v.leader_why;
  return why ? ctx.t().leadWhy(why, terms(v.preset, ctx.S.lang), (s) => seatName(ctx, s)) : null;
}

function sevenTop(ctx, v) {
  const t = ctx.t();
  const active = suitName(v.active_suit, ctx.S.lang);
  return h(
    "div",
    { class: "counters" },
    h("span", { class: "chip" }, t.round(v.round)),
    h("span", { class: "chip" }, `${t.activeSuit}${t.colon}`, h("span", { class: "trump" }, `${active.symbol} ${active.name}`)),
    h("span", { class: "chip" }, t.drawPile(v.draw_pile)),
    h("span", { class: "chip" }, t.direction[v.direction] || v.direction),
    v.penalty ? h("span", { class: "chip warn" }, t.penalty(v.penalty.cards)) : null,
    v.seven_lock ? h("span", { class: "chip warn" }, t.sevenLock) : null,
  );
}

// ---------- the felt: seats and the trick ----------

function renderFelt(felt, ctx, v) {
  const { S } = ctx;
  const n = placeCount(v);
  const draw = drawingOf(v);
  felt.style.setProperty("--n", n);
  felt.classList.toggle("crowded", n >= 7);
  if (felt.__n !== n || felt.__you !== S.you) {
    felt.__n = n;
    felt.__you = S.you;
    felt.replaceChildren();
    for (let s = 0; s < n; s++) {
      const { rel, a } = angleOf(ctx, s, n);
      // A seat above the middle grows downward, one below grows upward (its bet cards, a badge):
      // a taller box never runs into the bar above the felt or what to do under it.
      const half = Math.sin(a) < -0.3 ? " upper" : Math.sin(a) > 0.3 ? " lower" : "";
      const el = h("div", { class: `seat${s === S.you ? " me" : ""}${half}`, "data-seat": s });
      el.style.setProperty("--x", `${50 + (n >= 7 ? 42 : 38) * Math.cos(a)}%`);
      el.style.setProperty("--y", `${50 + (n >= 7 ? 37 : 38) * Math.sin(a)}%`);
      el.style.order = s === S.you ? 99 : rel;
      felt.append(el);
    }
    felt.append(h("div", { class: "center" }));
    // On a phone the seats show numbers only, under one line that names them.
    felt.prepend(h("div", { class: "legend", "aria-hidden": "true" }));
  }
  const legend = felt.querySelector(".legend");
  const lt = ctx.t();
  const lw = terms(v.preset, S.lang);
  const legendText = draw.legend(lw, lt);
  if (legend.textContent !== legendText) legend.textContent = legendText;
  for (let s = 0; s < n; s++) {
    const el = felt.querySelector(`.seat[data-seat="${s}"]`);
    const turn = (v.to_move || []).includes(s);
    el.classList.toggle("turn", turn);
    el.classList.toggle("out", draw.out(v, s));
    const seatInfo = S.table?.seats?.[s];
    region(el, JSON.stringify([S.lang, seatInfo, v.bets?.[s], (v.decided || []).includes(s), v.won?.[s], v.totals?.[s], v.hand_sizes?.[s], v.hand_counts?.[s], v.public_bet_cards?.[s], v.dummy_faceup, v.dummy_pile_left, v.last_card, turn]), () =>
      draw.seat(ctx, v, s),
    );
  }
  const center = felt.querySelector(".center");
  const redrawn = region(center, JSON.stringify([S.lang, draw.centerKey(v), S.completed?.version, S.summary?.version, S.table?.seats, S.table?.state]), () =>
    draw.center(ctx, v),
  );
  if (redrawn) moveCenter(felt, ctx);
}

// ---------- motion (docs/style.md): short, never in the way of input, none when reduced ----------

const FLY_MS = 280;
const SWEEP_MS = 380;

/** Whether the person asked for less motion (then nothing moves). */
export function reducedMotion() {
  return typeof matchMedia !== "function" || matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Move a picture of `el` (a copy fixed over the page, so nothing in the layout moves or
 * overflows) from the middle of `from` to `el`'s place (`away` false) or from `el` to the middle
 * of `from` (`away` true); `el` itself is hidden meanwhile (shown again on arrival, left hidden
 * after leaving: a gathered trick is cleared next).
 */
function ghostMove(el, from, away, ms, easing) {
  if (!from || typeof el.animate !== "function") return;
  const r = el.getBoundingClientRect();
  const g = el.cloneNode(true);
  g.removeAttribute("data-k");
  g.setAttribute("aria-hidden", "true");
  g.classList.add("ghost");
  Object.assign(g.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`, margin: "0", zIndex: "50", pointerEvents: "none" });
  document.body.append(g);
  const dx = from.left + from.width / 2 - (r.left + r.width / 2);
  const dy = from.top + from.height / 2 - (r.top + r.height / 2);
  const far = { transform: `translate(${dx}px, ${dy}px) scale(${away ? 0.4 : 0.75})`, opacity: away ? 0 : 0.5 };
  const near = { transform: "none", opacity: 1 };
  el.style.visibility = "hidden";
  const a = g.animate(away ? [near, far] : [far, near], { duration: ms, easing });
  const end = () => {
    g.remove();
    if (!away) el.style.visibility = "";
  };
  a.onfinish = end;
  a.oncancel = end;
}

/** After the centre was redrawn: the card just played flies in from its seat; a completed
 * trick, once held a moment, sweeps to its winner's seat (the hold's timer then clears it). */
function moveCenter(felt, ctx) {
  if (felt.querySelector(".center .card.arrive")) snap();
  if (reducedMotion()) return;
  const seatOf = (s) => felt.querySelector(`.seat[data-seat="${s}"]`);
  for (const card of felt.querySelectorAll(".center .card.arrive")) {
    const s = card.closest(".play")?.getAttribute("data-seat");
    const from = s === null || s === undefined ? null : seatOf(s);
    // Seven's pile: the card grows in place.
    ghostMove(card, (from || card).getBoundingClientRect(), false, FLY_MS, "cubic-bezier(.2,.7,.3,1)");
  }
  // The held trick's sweep is timed by its hold (scheduleHold), once per trick.
}

function seatBadge(ctx, s) {
  const seat = ctx.S.table?.seats?.[s];
  const st = seat?.status;
  // At a turn-based table people come and go over days: being away is not news, when a move
  // is due is.
  if (ctx.S.table?.move_deadline_s) {
    if (!seat?.due_at) return st === "bot_for_away" ? h("span", { class: `badge ${st}` }, ctx.t().statuses[st]) : null;
    return h("span", { class: "badge due" }, ctx.t().dueAt(new Date(seat.due_at * 1000), ctx.S.lang));
  }
  if (!st || st === "here" || st === "bot") return null;
  return h("span", { class: `badge ${st}` }, ctx.t().statuses[st]);
}

function oh7Seat(ctx, v, s) {
  const t = ctx.t();
  const w = terms(v.preset, ctx.S.lang);
  const isDummy = v.dummy === s;
  const decided = (v.decided || []).includes(s);
  const bet = v.bets ? v.bets[s] : null;
  const leads = v.leader_trump?.[0] === s && v.phase.name === "playing";
  const parts = [
    h(
      "div",
      { class: "name" },
      avatarEl(ctx, s),
      nameEl(ctx, s),
      s === ctx.S.you ? h("span", { class: "you-tag" }, ` (${t.you})`) : null,
      leads ? h("span", { class: "lead-mark", title: t.firstLeader }, h("span", { "aria-hidden": "true" }, "1"), sr(t.firstLeader)) : null,
      isDummy ? null : seatBadge(ctx, s),
    ),
    h(
      "div",
      { class: "stats" },
      h("span", { class: `bet-chip${bet === null || bet === undefined ? " open" : ""}` }, h("span", { class: "lbl" }, `${cap(w.bet)} `), h("b", {}, bet ?? (decided ? "✓" : "–"))),
      " · ",
      h("span", { class: "won" }, h("span", { class: "lbl" }, `${t.won} `), h("b", {}, String(v.won?.[s] ?? 0)), stackEl(v.won?.[s] ?? 0)),
      isDummy ? null : " · ",
      isDummy ? null : h("span", {}, h("span", { class: "lbl" }, `${t.score} `), h("b", {}, String(v.totals?.[s] ?? 0))),
    ),
    h("div", { class: "count" }, t.cards(v.hand_sizes?.[s] ?? 0), decided && !v.bets ? h("span", { class: "decided" }, ` · ${t.decided}`) : null),
  ];
  if (isDummy && v.dummy_faceup?.length) parts.push(h("div", { class: "faceup" }, ...v.dummy_faceup.map((c) => cardEl(ctx, c, { mini: true }))));
  if (isDummy) parts.push(h("div", { class: "count" }, t.dummyPile(v.dummy_pile_left)));
  const pub = v.public_bet_cards?.[s];
  if (pub?.length) parts[2].append(h("span", { class: "faceup bet-cards" }, h("small", {}, t.betCards(w, pub.length)), ...pub.map((c) => cardEl(ctx, c, { mini: true }))));
  return parts;
}

function sevenSeat(ctx, v, s) {
  const t = ctx.t();
  const last = (v.last_card || []).find((x) => x.seat === s);
  return [
    h("div", { class: "name" }, avatarEl(ctx, s), nameEl(ctx, s), s === ctx.S.you ? h("span", { class: "you-tag" }, ` (${t.you})`) : null, seatBadge(ctx, s)),
    h("div", { class: "stats" }, `${t.score} `, h("b", {}, String(v.totals?.[s] ?? 0))),
    h("div", { class: "count" }, t.cards(v.hand_counts?.[s] ?? 0), last ? " !" : ""),
  ];
}

/**
 * A card on the trick, the `i`-th played. On a wide table the trick is a row across the middle
 * of the felt in the order of play (each card flies there from its seat), one slot per place so
 * the row stays still as cards come: the seats above and below keep their room, and the
 * caption goes under the row, not over a card.
 */
function playedAt(ctx, v, s, card, opts, i) {
  const n = placeCount(v);
  const el = h("div", { class: `play${opts.winner ? " winner" : ""}`, "data-seat": s }, cardEl(ctx, card, opts), h("small", { class: "nm" }, seatName(ctx, s, true)));
  const gap = n >= 7 ? 58 : 66;
  el.style.setProperty("--tx", `calc(50% + ${(i - (n - 1) / 2) * gap}px)`);
  return el;
}

/** The completed trick whose last card has flown in (it flies once, not at each redraw). */
let arrivedFor = null;

function oh7Center(ctx, v) {
  const t = ctx.t();
  const { S } = ctx;
  const c = S.completed;
  if (c) {
    const fresh = arrivedFor !== c.version;
    arrivedFor = c.version;
    return [
      h("div", { class: "trick done", "data-k": "trick" }, ...c.plays.map(([s, card], i) => playedAt(ctx, v, s, card, { winner: s === c.winner, arrive: fresh && i === c.plays.length - 1 }, i))),
      h(
        "div",
        { class: "trick-caption" },
        h("span", { role: "status" }, t.takes(seatName(ctx, c.winner))),
        " ",
        h("button", { type: "button", class: "small", "data-k": "continue", title: t.continueHelp, onclick: () => ctx.dispatch({ type: "local/dismiss-trick" }) }, t.continue),
      ),
    ];
  }
  if (S.summary && S.table?.state !== "over") return summaryEl(ctx, v, S.summary);
  const trick = v.trick || [];
  const newest = trick.length ? trick[trick.length - 1][1] : null;
  return h("div", { class: "trick" }, ...trick.map(([s, card], i) => playedAt(ctx, v, s, card, { arrive: card === newest }, i)));
}

function summaryEl(ctx, v, r) {
  const t = ctx.t();
  const w = terms(v.preset, ctx.S.lang);
  const n = v.players;
  const rows = [];
  for (let s = 0; s < r.points.length && s < n; s++) {
    const made = r.bets[s] === r.won[s];
    rows.push(
      h(
        "tr",
        { class: made ? "made" : "failed" },
        h("th", { scope: "row" }, nameEl(ctx, s)),
        h("td", {}, String(r.bets[s])),
        h("td", {}, String(r.won[s])),
        h("td", {}, `${r.points[s] > 0 ? "+" : ""}${r.points[s]}${r.bonus?.[s] ? ` (+${r.bonus[s]})` : ""}`),
        h("td", {}, String(v.totals?.[s] ?? "")),
      ),
    );
  }
  return h(
    "div",
    { class: "summary panel", role: "dialog", "aria-label": t.summaryTitle(r.number) },
    h("h2", {}, t.summaryTitle(r.number)),
    h(
      "table",
      { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t.summaryBet(w)), h("th", { scope: "col" }, t.summaryTricks), h("th", { scope: "col" }, t.summaryPoints), h("th", { scope: "col" }, t.summaryTotal))),
      h("tbody", {}, ...rows),
    ),
    whyEl(ctx, v, r, w),
    h("button", { type: "button", class: "primary", "data-k": "summary-ok", onclick: () => ctx.dispatch({ type: "local/dismiss-summary" }) }, t.dismiss),
  );
}

function sevenCenter(ctx, v) {
  const t = ctx.t();
  if (ctx.S.summary && ctx.S.table?.state !== "over") return sevenSummaryEl(ctx, v, ctx.S.summary);
  // Who played the top card, and the two plays before it (newest first): who played what.
  const played = v.played || [];
  const last = played.length && played[played.length - 1][1] === v.top ? played[played.length - 1] : null;
  const before = played.slice(last ? -3 : -2, last ? -1 : undefined).reverse();
  return h(
    "div",
    { class: "pile" },
    h(
      "div",
      { class: "pile-top" },
      h("small", {}, t.top),
      cardEl(ctx, v.top, { game: "seven", arrive: true }),
      last ? h("small", { class: "played-by" }, t.playedBy(seatName(ctx, last[0]))) : null,
    ),
    before.length
      ? h(
          "div",
          { class: "pile-before" },
          h("small", {}, t.before),
          ...before.map(([s, c]) => h("div", { class: "play" }, cardEl(ctx, c, { game: "seven", mini: true }), h("small", { class: "nm" }, seatName(ctx, s, true)))),
        )
      : null,
  );
}

// ---------- what to do ----------

function promptEl(ctx, v) {
  const t = ctx.t();
  const { S } = ctx;
  if (S.table?.state === "over") return null;
  if (S.you !== null && S.table?.seats?.[S.you]?.status === "bot_for_away") {
    return h("p", { class: "turn stand-in" }, t.standIn, " ", h("button", { type: "button", id: "take-back", "data-k": "take-back", onclick: () => ctx.send("back") }, t.takeBack));
  }
  const moving = v.to_move || [];
  if (S.you !== null && moving.includes(S.you) && S.legal.length) {
    const left = ctx.clockLeft();
    const time = left === null ? null : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    return h("p", { class: "turn you" }, t.yourTurn, time === null ? null : h("span", { class: "clock", role: "timer" }, ` · ${t.clockLeft(time)}`));
  }
  if (!moving.length) return null;
  return h("p", { class: "turn" }, t.toMove(moving.map((s) => seatName(ctx, s)).join(", ")));
}

/** The legal action (as the server describes it: `{a, kind, card, …}`) written `a`, if any. */
export function moveOf(S, a) {
  return a ? S.legal.find((m) => m.a === a) : undefined;
}

function phaseText(ctx, v) {
  const t = ctx.t();
  const w = terms(v.preset, ctx.S.lang);
  const p = v.phase;
  if (p.name === "passing") return t.phase.passing(p.count, seatName(ctx, v.pass_to));
  if (p.name === "betting") return t.phase.betting(p.attempt, w);
  const f = t.phase[p.name];
  return typeof f === "function" ? f(w) : f;
}

/** A decision's words ("Bob leads", "Trump: ♥ hearts", "seven of hearts"), from the move the
 *  server describes (`{a, kind, card, suit, seat, yes, announce}`: docs/protocol.md). */
export function actionLabel(ctx, m) {
  const t = ctx.t();
  const r = ctx.rules();
  const w = terms(ctx.S.table?.preset, ctx.S.lang);
  const suit = (x) => {
    const n = suitName(x, ctx.S.lang, r);
    return `${n.symbol} ${n.name}`;
  };
  switch (m.kind) {
    case "reveal":
      return m.yes ? t.reveal(r.mark) : t.dontReveal;
    case "leader":
      return t.leads(seatName(ctx, m.seat));
    case "trump":
      return t.trumpIs(w, suit(m.suit));
    case "announce":
      return t.announce(suit(m.suit));
    case "draw":
      return t.draw;
    case "pass":
      return t.pass;
    case "call_out":
      return t.callOut(seatName(ctx, m.seat));
    case "nocall":
      return t.noCall;
  }
  if (m.card) {
    let label = speak(gameOf(ctx.S), m.card, ctx.S.lang, r);
    if (m.suit) label += ` → ${suitName(m.suit, ctx.S.lang, r).symbol}`;
    if (m.announce) label += ` (${t.announceLast})`;
    return label;
  }
  return m.a;
}

function hintRow(ctx) {
  const { S } = ctx;
  // A rated game counts for the ratings: no bot plays for anyone there (the server refuses it).
  if (!S.legal.length || S.you === null || S.table?.rated) return null;
  const t = ctx.t();
  return h(
    "div",
    { class: "hint" },
    h("button", { type: "button", id: "hint-btn", "data-k": "hint", onclick: () => ctx.send("hint") }, t.hint),
    S.hint ? h("span", {}, t.hintIs(moveOf(S, S.hint) ? actionLabel(ctx, moveOf(S, S.hint)) : S.hint)) : null,
  );
}

function choiceButtons(ctx, list) {
  return h(
    "div",
    { class: "choices", "data-group": "choices" },
    ...list.map((m) => h("button", { type: "button", class: "choice", "data-action": m.a, "data-k": `act:${m.a}`, disabled: !canAct(ctx.S) || null, onclick: () => ctx.act(m.a) }, actionLabel(ctx, m))),
  );
}

function oh7Actions(ctx, v) {
  const { S } = ctx;
  if (S.you === null || S.table?.state === "over") return null;
  const t = ctx.t();
  const w = terms(v.preset, S.lang);
  const items = [];
  const mine = S.legal.length > 0;
  if (mine) items.push(h("p", { class: "question" }, phaseText(ctx, v)));
  if (v.my_pending && v.phase.name === "betting") items.push(h("p", {}, t.betChosen(w), " ", cardEl(ctx, v.my_pending, { mini: true })));
  if (S.choice && mine) {
    const card = moveOf(S, S.choice)?.card;
    items.push(
      h(
        "div",
        { class: "confirm" },
        h("button", { type: "button", id: "confirm-btn", class: "primary", "data-k": "confirm", disabled: !canAct(S) || null, onclick: () => ctx.act(S.choice) }, t.confirmBet(speak("oh7", card, S.lang, ctx.rules()))),
        h("button", { type: "button", id: "change-btn", "data-k": "change", onclick: () => ctx.dispatch({ type: "local/unchoose" }) }, t.cancel),
      ),
    );
  }
  if (v.phase.name === "passing" && mine) {
    const need = v.phase.count;
    const to = seatName(ctx, v.pass_to);
    items.push(h("button", { type: "button", id: "pass-btn", class: "primary", "data-k": "pass", disabled: S.passSel.length !== need || !canAct(S) || null, onclick: () => sendPass(ctx, need) }, t.passConfirm(need, to)));
  }
  if (v.passed?.length || v.received?.length) {
    const to = v.pass_to ?? null;
    const from = v.pass_from ?? null;
    if (v.passed?.length) items.push(h("p", { class: "passes" }, t.passed(to === null ? "?" : seatName(ctx, to)), " ", ...v.passed.map((c) => cardEl(ctx, c, { mini: true }))));
    if (v.received?.length) items.push(h("p", { class: "passes" }, t.received(from === null ? "?" : seatName(ctx, from)), " ", ...v.received.map((c) => cardEl(ctx, c, { mini: true }))));
  }
  const other = S.legal.filter((m) => !m.card && m.kind !== "pass_cards");
  if (other.length) items.push(choiceButtons(ctx, other));
  items.push(hintRow(ctx));
  return items;
}

function sendPass(ctx, need) {
  const { S } = ctx;
  const want = [...S.passSel].sort().join(" ");
  const m = S.legal.find((x) => x.kind === "pass_cards" && [...x.cards].sort().join(" ") === want);
  if (m && S.passSel.length === need) ctx.act(m.a);
}

function sevenActions(ctx, v) {
  const { S } = ctx;
  if (S.you === null || S.table?.state === "over") return null;
  const t = ctx.t();
  const hand = v.hand || [];
  const other = S.legal.filter((m) => !m.card);
  const items = [];
  if (hand.length === 2 && S.legal.some((m) => m.announce)) {
    items.push(h("label", { class: "check" }, h("input", { type: "checkbox", id: "announce", "data-k": "announce", checked: ctx.announce() || null, onchange: (e) => ctx.setAnnounce(e.target.checked) }), " ", t.announceLast));
  }
  if (other.length) items.push(choiceButtons(ctx, other));
  if (sevenChoice && S.legal.length) {
    // The 8 chosen stands out in the hand; another card, or Cancel, puts it back.
    items.push(
      h("p", { class: "question" }, t.chooseSuit),
      choiceButtons(ctx, sevenChoice),
      h("button", { type: "button", id: "suit-cancel", "data-k": "suit-cancel", onclick: () => { sevenChoice = null; ctx.redraw(); } }, t.cancel),
    );
  }
  items.push(hintRow(ctx));
  return items;
}

// ---------- the hand ----------

function renderHand(area, ctx, v) {
  const { S } = ctx;
  const t = ctx.t();
  if (S.you === null || (S.table?.state === "over" && !(v.hand || []).length)) {
    area.hidden = true;
    return;
  }
  area.hidden = false;
  const heading = part(area, "hand-head", "h2");
  if (heading.textContent !== t.hand) heading.textContent = t.hand;
  const hand = part(area, "hand", "div", { role: "group", "data-group": "hand" });
  hand.setAttribute("aria-label", t.hand);
  const game = gameOfView(v);
  const cards = sortHand(game, v.hand || []);
  const byCard = new Map();
  for (const m of S.legal) {
    if (m.card) byCard.set(m.card, [...(byCard.get(m.card) || []), m]);
  }
  const passing = S.legal.some((m) => m.kind === "pass_cards");
  const hinted = moveOf(S, S.hint)?.card ?? null;
  const chosen = moveOf(S, S.choice)?.card ?? (S.legal.length ? sevenChoice?.[0]?.card : null) ?? null;
  // The actions themselves, not only which cards have one: a bet made in another tab of this
  // seat turns "bet 3S" into "play 3S" with the same cards legal, and a button kept from before
  // would choose a bet nobody can make any more (issue 58, friction 2).
  const key = JSON.stringify([S.lang, cards, S.legal.map((m) => m.a), passing, S.passSel, hinted, chosen, !!S.pending, S.table?.preset]);
  const dealt = `${S.table?.game_number}:${v.round}`;
  const redrawn = region(hand, key, () => {
    const focusable = cards.findIndex((c) => passing || byCard.has(c));
    return cards.map((c, i) => {
      const actions = byCard.get(c) || [];
      const legal = (passing || actions.length > 0) && !S.pending;
      return cardEl(ctx, c, {
        game,
        legal,
        disabled: !legal,
        selected: S.passSel.includes(c) || c === chosen,
        pressable: passing,
        hinted: c === hinted,
        tabindex: i === Math.max(0, focusable) ? "0" : "-1",
        onclick: () => clickCard(ctx, c, actions, passing),
      });
    });
  });
  // A new round's hand is dealt: its cards come from the middle of the felt, one after another
  // (the buttons work at once; only their picture moves).
  if (redrawn && hand.__dealt !== dealt) {
    const first = hand.__dealt === undefined;
    hand.__dealt = dealt;
    const felt = area.parentElement?.querySelector(".felt .center");
    if (!first && felt && !reducedMotion() && cards.length) {
      const from = felt.getBoundingClientRect();
      [...hand.querySelectorAll(".card")].forEach((el, i) => {
        if (typeof el.animate !== "function") return;
        const r = el.getBoundingClientRect();
        const dx = from.left + from.width / 2 - (r.left + r.width / 2);
        const dy = from.top + from.height / 2 - (r.top + r.height / 2);
        el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 320, delay: i * 45, easing: "ease-out", fill: "backwards" });
      });
    }
  }
}

function clickCard(ctx, c, actions, passing) {
  const { S } = ctx;
  if (!canAct(S)) return;
  if (passing) {
    ctx.dispatch({ type: "local/toggle-pass", card: c });
    return;
  }
  if (!actions.length) {
    // A greyed card says why it does nothing.
    ctx.dispatch({ type: "local/notice", code: drawingOf(S.view).followsSuit && S.view?.phase?.name === "playing" ? "must_follow" : "card_not_now" });
    return;
  }
  if (actions.length === 1 && actions[0].kind === "bet") {
    // A bet is chosen, then confirmed.
    const fromHand = document.activeElement?.closest?.(".hand");
    ctx.dispatch({ type: "local/choose", action: actions[0].a });
    // A person on the hand goes on to the confirmation; focus elsewhere (the chat) stays there.
    if (fromHand) document.getElementById("confirm-btn")?.focus();
    return;
  }
  if (actions.length === 1) {
    ctx.act(actions[0].a);
    return;
  }
  // Seven: an 8's suit, and whether to announce the last card.
  const withBang = actions.filter((m) => m.announce);
  const plain = actions.filter((m) => !m.announce);
  const pool = ctx.announce() && withBang.length ? withBang : plain.length ? plain : actions;
  if (pool.length === 1) ctx.act(pool[0].a);
  else {
    sevenChoice = pool;
    ctx.redraw();
  }
}

/** Forget a pending Seven suit choice (after any decision). */
export function clearSevenChoice() {
  sevenChoice = null;
}

/** Arrow keys move along the hand (and along a row of choices); Home and End go to the ends. */
export function handKeys(e) {
  const group = e.target.closest?.("[data-group]");
  if (!group) return false;
  const items = [...group.querySelectorAll("[data-k]")];
  const i = items.indexOf(e.target);
  if (i < 0) return false;
  let j = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(items.length - 1, i + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = items.length - 1;
  if (j === null) return false;
  e.preventDefault();
  items.forEach((x, k) => x.setAttribute("tabindex", k === j ? "0" : "-1"));
  items[j].focus();
  return true;
}

// ---------- beside the table ----------

function sideEl(ctx, v) {
  const t = ctx.t();
  const w = terms(v.preset, ctx.S.lang);
  const out = [];
  const why = leadWhyText(ctx, v);
  if (why) out.push(h("p", { class: "lead-why-side" }, why));
  if (v.bet_attempts?.length && v.phase.name === "betting") {
    out.push(
      h(
        "section",
        { class: "attempts" },
        h("h2", {}, t.attempts(w)),
        ...v.bet_attempts.map((a, i) =>
          h("div", { class: "attempt" }, h("span", { class: "label" }, t.attemptN(i + 1)), ...a.map((c, s) => h("span", { class: "play" }, cardEl(ctx, c, { mini: true }), h("small", { class: "nm" }, seatName(ctx, s, true))))),
        ),
      ),
    );
  }
  const lt = v.last_trick;
  out.push(
    h(
      "section",
      { class: "last-trick", id: "last-trick" },
      h("h2", {}, t.lastTrick),
      lt
        ? h(
            "div",
            {},
            h("div", { class: "cards" }, ...lt.plays.map(([s, c]) => h("span", { class: `play${s === lt.winner ? " winner" : ""}` }, cardEl(ctx, c, { mini: true, winner: s === lt.winner }), h("small", { class: "nm" }, seatName(ctx, s, true))))),
            h("p", { class: "won-by" }, t.wonBy(seatName(ctx, lt.winner))),
          )
        : h("p", {}, t.noLastTrick),
    ),
  );
  return out;
}

/** Seven: the round just finished: who went out, what each seat added, the totals. */
function sevenSummaryEl(ctx, v, r) {
  const t = ctx.t();
  return h(
    "div",
    { class: "summary panel", role: "dialog", "aria-label": t.summaryTitle(r.number) },
    h("h2", {}, t.summaryTitle(r.number)),
    r.out !== null && r.out !== undefined ? h("p", {}, t.wentOut(seatName(ctx, r.out))) : null,
    sevenRoundTable(ctx, v, [r]),
    h("button", { type: "button", class: "primary", "data-k": "summary-ok", onclick: () => ctx.dispatch({ type: "local/dismiss-summary" }) }, t.dismiss),
  );
}

/** Seven: points added by round (with the seat that went out marked), then the totals. */
function sevenRoundTable(ctx, v, rounds) {
  const t = ctx.t();
  const n = v.players;
  const names = Array.from({ length: n }, (_, s) => seatName(ctx, s, true));
  const cell = (r, s) => {
    if (r.out === s) return h("td", { class: "best" }, t.outMark);
    const notes = [(r.eliminated || []).includes(s) ? t.eliminatedMark : null, (r.reset || []).includes(s) ? t.resetMark : null].filter(Boolean);
    return h("td", {}, `+${r.points[s]}${notes.length ? ` (${notes.join(", ")})` : ""}`);
  };
  const last = rounds.at(-1);
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "scores" },
      h("caption", {}, t.sevenScores),
      h("thead", {}, h("tr", {}, h("td", {}), ...names.map((nm) => h("th", { scope: "col" }, h("span", { class: "nm" }, nm))))),
      h(
        "tbody",
        {},
        ...rounds.map((r) => h("tr", {}, h("th", { scope: "row" }, t.round(r.number)), ...Array.from({ length: n }, (_, s) => cell(r, s)))),
        last ? h("tr", { class: "total" }, h("th", { scope: "row" }, t.total), ...last.totals.slice(0, n).map((p) => h("td", {}, String(p)))) : null,
      ),
    ),
  );
}

/** Each seat's points explained by the table's scoring rule, from the parts the engine gives
 *  (a past round's `why`: made, loss, basket, void, base). */
function whyEl(ctx, v, r, w) {
  const t = ctx.t();
  const scoring = ctx.S.table?.ruleset?.scoring;
  const items = [];
  for (let s = 0; s < r.points.length && s < v.players; s++) {
    const e = pointsWhy(scoring, r, s);
    if (e) items.push(h("li", {}, h("strong", {}, seatName(ctx, s)), `${t.colon}${t.why(e, w)}`));
  }
  if (!items.length) return null;
  // "basket" is a word of these rules: said once what it is, under the reasons.
  const note = scoring === "basket" || scoring === "double_basket" ? h("p", { class: "help basket-note" }, t.basketNote(scoring, w.bets)) : null;
  return [h("ul", { class: "why" }, ...items), note];
}

/** The review page links back to the table it was opened from (this browser remembers which). */
function rememberTable(share) {
  try {
    localStorage.setItem("oh7.reviewFrom", JSON.stringify({ share, path: location.pathname }));
  } catch {
    // No link back: the browser's back button still returns.
  }
}

// ---------- the score sheet ----------

/** Points by round (each with the seat's bet and tricks won), then the totals. */
function scoreTable(ctx, v) {
  const t = ctx.t();
  const { S } = ctx;
  const n = S.table.players;
  const rows = [];
  for (const r of v.past_rounds || []) {
    rows.push(h("tr", {}, h("th", { scope: "row" }, t.round(r.number)), ...r.points.slice(0, n).map((p, s) => h("td", {}, `${p} (${r.bets[s]}/${r.won[s]})`))));
  }
  rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t.total), ...(S.table.totals || []).slice(0, n).map((p) => h("td", {}, String(p)))));
  const names = Array.from({ length: n }, (_, s) => seatName(ctx, s, true));
  return h("div", { class: "scroll" }, h("table", { class: "scores" }, h("caption", {}, t.scores(terms(v.preset, S.lang))), h("thead", {}, h("tr", {}, h("td", {}), ...names.map((nm) => h("th", { scope: "col" }, h("span", { class: "nm" }, nm))))), h("tbody", {}, ...rows)));
}

/** The score sheet during play, folded (it stays open or closed as the person left it). */
function sheetEl(ctx, v, wasOpen) {
  const t = ctx.t();
  const rounds = (v.past_rounds || []).length;
  if (ctx.S.table?.state !== "playing" || !rounds) return null;
  const table = drawingOf(v).sheet(ctx, v);
  return h("details", { class: "sheet", id: "score-sheet", open: wasOpen || null }, h("summary", { "data-k": "sheet" }, t.sheet(rounds)), table);
}

// ---------- the end ----------

function endPanel(ctx, v) {
  const t = ctx.t();
  const { S } = ctx;
  const winners = (S.table.winners || []).map((s) => seatName(ctx, s)).join(", ");
  const n = S.table.players;
  const names = Array.from({ length: n }, (_, s) => seatName(ctx, s, true));
  const watch = S.links?.watch;
  return h(
    "section",
    { class: "panel end", id: "end" },
    h("h2", {}, t.over),
    h("p", { class: "winner" }, t.winner(winners)),
    S.table.rated ? ratedOverEl(ctx) : null,
    // What to do next first (review, play again, replay), on screen at 1280×800; the figures below.
    reviewEl(ctx),
    h(
      "div",
      { class: "end-actions" },
      // Play again: its own region (below), so its countdown redraws nothing else.
      h("div", { class: "again" }),
      ctx.code && !ctx.solo?.() ? h("a", { id: "replay-link", class: "button", href: `${ctx.base}/replay/${encodeURIComponent(ctx.code)}` }, t.replay) : null,
      watch ? h("a", { id: "download", href: `${ctx.base}/api/tables/${watch}/record`, download: "oh7-game.json" }, t.download) : null,
      // A solo game's record is on this device: the worker has it.
      ctx.solo?.() ? h("button", { type: "button", id: "download", class: "link", title: t.solo.exportHelp, onclick: () => ctx.exportRecord() }, t.download) : null,
    ),
    drawingOf(v).sheet(ctx, v),
    statsEl(ctx, names),
  );
}

/** A rated game's end: the ratings moved; a signed-in page links to its player's page. */
function ratedOverEl(ctx) {
  const t = ctx.t();
  const el = h("p", { id: "rated-over" }, t.acct.ratedOver);
  call("GET", "/api/account").then((r) => {
    if (r.ok && el.isConnected) el.append(" ", h("a", { href: `${ctx.base}/p/${encodeURIComponent(r.body.name)}` }, t.acct.yourPage));
  });
  return el;
}

/** Play again: the host's button (while the others answer, "Start now"); each person's answer;
 *  who has answered and the time left before the game starts without the others. */
function againEl(ctx) {
  const t = ctx.t();
  const { S } = ctx;
  const r = S.table?.rematch;
  const hostButton = (label) => h("button", { type: "button", id: "rematch-btn", class: "primary", "data-k": "rematch", onclick: () => ctx.send("rematch") }, label);
  if (!r) {
    if (S.you === 0) return hostButton(t.rematch);
    return S.you !== null ? h("p", {}, t.waitingRematch) : null;
  }
  const mine = S.you === null ? null : r.answers[S.you];
  const parts = [h("p", { class: "asked" }, t.rematchAsked(seatName(ctx, S.table.host ?? 0)))];
  if (S.you === 0) parts.push(hostButton(t.rematchStartNow));
  else if (mine === "waiting") {
    parts.push(
      h(
        "div",
        { class: "answer", role: "group", "aria-label": t.rematchAsked(seatName(ctx, S.table.host ?? 0)) },
        h("button", { type: "button", id: "rematch-yes", class: "primary", "data-k": "rematch-yes", onclick: () => ctx.send("answer", { yes: true }) }, t.rematchYes),
        h("button", { type: "button", id: "rematch-no", "data-k": "rematch-no", onclick: () => ctx.send("answer", { yes: false }) }, t.rematchNo),
      ),
    );
  } else if (mine === "yes") parts.push(h("p", {}, t.rematchIn));
  else if (mine === "no") parts.push(h("p", {}, t.rematchOut));
  const people = r.answers.map((a, s) => (a === "bot" || s === (S.table.host ?? 0) ? null : h("li", { "data-answer": a }, h("strong", {}, seatName(ctx, s)), `${t.colon}${t.rematchAnswers[a]}`)));
  parts.push(h("ul", { class: "answers", id: "rematch-answers" }, ...people));
  const left = ctx.rematchLeft();
  if (left !== null) parts.push(h("p", { class: "left", id: "rematch-left", role: "timer" }, t.rematchLeft(left)));
  return parts;
}

/** This seat's review of the game: the button, then queued, the progress, the link to share.
 *  The button, then the link, keep the key "review", so the focus stays on them as it changes. */
function reviewEl(ctx) {
  const t = ctx.t();
  const r = reviewOf(ctx.S);
  if (!r) return null;
  const busy = r.state === "asking" || r.state === "queued" || r.state === "running";
  const parts = [];
  if (r.state !== "done") {
    parts.push(
      h(
        "button",
        { type: "button", id: "review-btn", class: r.state === "none" ? "primary" : null, "data-k": "review", "aria-disabled": busy ? "true" : null, "aria-describedby": busy || r.state === "failed" ? "review-state" : null, onclick: () => ctx.requestReview() },
        r.state === "failed" ? t.reviewRetry : t.reviewMine,
      ),
    );
  }
  if (r.state === "asking") parts.push(h("p", { class: "review-state", id: "review-state" }, t.reviewAsking));
  else if (r.state === "queued") parts.push(h("p", { class: "review-state", id: "review-state" }, t.reviewQueued(Math.max(0, (r.position ?? 1) - 1))));
  else if (r.state === "running") {
    parts.push(
      h(
        "div",
        { class: "review-progress" },
        h("label", { for: "review-bar", id: "review-state" }, t.reviewRunning),
        h("progress", { id: "review-bar", max: 100, value: r.percent }),
        h("span", { class: "pct", "aria-hidden": "true" }, t.reviewPercent(r.percent)),
      ),
    );
  } else if (r.state === "done") {
    const url = `${ctx.base || location.origin}/review/${encodeURIComponent(r.share)}`;
    const copy = h(
      "button",
      {
        type: "button",
        id: "review-copy",
        "data-k": "review-copy",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            const tmp = h("input", { value: url, "aria-hidden": "true" });
            document.body.append(tmp);
            tmp.select();
            document.execCommand("copy");
            tmp.remove();
          }
          copy.textContent = t.copied;
          setTimeout(() => (copy.textContent = t.reviewCopy), 2000);
        },
      },
      t.reviewCopy,
    );
    parts.push(
      h("p", { class: "review-state", id: "review-state" }, t.reviewDone),
      h("div", { class: "review-links" }, h("a", { id: "review-open", class: "button primary", href: ctx.reviewHref ? ctx.reviewHref(r.share) : `${ctx.base}/review/${encodeURIComponent(r.share)}`, "data-k": "review", onclick: () => rememberTable(r.share) }, t.reviewOpen), ctx.solo?.() ? null : copy),
      ctx.solo?.() ? null : h("small", { class: "help" }, t.reviewShareHelp),
    );
  } else if (r.state === "failed") {
    parts.push(h("p", { class: "review-state failed", id: "review-state" }, errorText(ctx.S.lang, r.code)));
  }
  return h("div", { class: `review-ask ${r.state}` }, ...parts);
}

/** What a screen reader hears about the review as it moves on (a live region kept outside the
 *  end panel, which is redrawn): queued, each quarter of the progress, ready, failed. */
function reviewNews(ctx) {
  const t = ctx.t();
  const r = reviewOf(ctx.S);
  if (!r || r.state === "none" || r.state === "asking") return "";
  if (r.state === "queued") return t.reviewQueued(Math.max(0, (r.position ?? 1) - 1));
  if (r.state === "running") return `${t.reviewRunning}${t.colon}${t.reviewPercent(Math.floor(r.percent / 25) * 25)}`;
  if (r.state === "done") return t.reviewDone;
  return errorText(ctx.S.lang, r.code);
}

function statsEl(ctx, names) {
  const t = ctx.t();
  const st = ctx.stats();
  if (!st) return null;
  const out = [];
  const s = st.stats;
  if (s) {
    const tbl = s.table || {};
    const tr = tbl.trump_selection_rate;
    const trumpText =
      tr && typeof tr === "object"
        ? Object.entries(tr)
            .filter(([, x]) => x > 0)
            .map(([k, x]) => `${suitName(k, ctx.S.lang, ctx.rules()).symbol} ${t.pct(x)}`)
            .join(" · ")
        : t.pct(tr);
    const rows = t.statsRows(terms(ctx.S.view?.preset ?? ctx.S.table?.preset, ctx.S.lang));
    const keys = ["points_per_round", "average_bid", "nil_bid_rate", "top_bid_rate", "success_rate", "overshoot_rate", "shortfall_rate"];
    const fmt = (k, x) => (k === "points_per_round" || k === "average_bid" ? t.num(x) : t.pct(x));
    const players = s.players || [];
    out.push(
      h("h3", {}, st.games > 1 ? t.statsGames(st.games) : t.statsTitle),
      h(
        "ul",
        { class: "table-stats" },
        h("li", {}, `${rows.nil_bid_rate}${t.colon}${t.pct(tbl.nil_bid_rate)}`),
        h("li", {}, `${rows.average_top_bid}${t.colon}${t.num(tbl.average_top_bid)}`),
        h("li", {}, `${rows.trump_selection_rate}${t.colon}${trumpText}`),
      ),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "scores stats" },
          h("thead", {}, h("tr", {}, h("td", {}), ...players.map((p) => h("th", { scope: "col" }, h("span", { class: "nm" }, names[p.seat] ?? `#${p.seat + 1}`))))),
          h("tbody", {}, ...keys.map((k) => h("tr", {}, h("th", { scope: "row" }, rows[k]), ...players.map((p) => h("td", {}, fmt(k, p[k])))))),
        ),
      ),
    );
  }
  const sv = st.seven;
  if (sv) {
    const rows = t.sevenStatsRows;
    const keys = ["points_per_round", "out_rate", "action_cards", "turns"];
    const fmt = (k, x) => (k === "points_per_round" ? t.num(x) : k === "out_rate" ? t.pct(x) : String(x));
    const players = sv.players || [];
    out.push(
      h("h3", {}, st.games > 1 ? t.statsGames(st.games) : t.statsTitle),
      h("ul", { class: "table-stats" }, ...t.sevenStatsTable(sv).map((x) => h("li", {}, x))),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "scores stats", id: "seven-stats" },
          h("thead", {}, h("tr", {}, h("td", {}), ...players.map((p) => h("th", { scope: "col" }, h("span", { class: "nm" }, names[p.seat] ?? `#${p.seat + 1}`))))),
          h("tbody", {}, ...keys.map((k) => h("tr", {}, h("th", { scope: "row" }, rows[k]), ...players.map((p) => h("td", {}, fmt(k, p[k])))))),
        ),
      ),
    );
  }
  if ((st.history || []).length > 1) {
    out.push(
      h("h3", {}, t.history),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "scores" },
          h("thead", {}, h("tr", {}, h("td", {}), ...names.map((nm) => h("th", { scope: "col" }, h("span", { class: "nm" }, nm))))),
          h("tbody", {}, ...st.history.map((g) => h("tr", {}, h("th", { scope: "row" }, t.gameN(g.game)), ...g.totals.slice(0, names.length).map((p, s) => h("td", { class: (g.winners || []).includes(s) ? "best" : null }, String(p)))))),
        ),
      ),
    );
  }
  return out.length ? h("div", { class: "stats-area" }, ...out) : null;
}

