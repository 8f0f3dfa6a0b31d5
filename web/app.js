// The browser table: one page, one WebSocket, every word from i18n.js, every card from cards.js.
// Game content is only ever what the server sent this seat; names and chat are shown as text.

import { texts } from "./i18n.js";
import { face, speak, sortHand, actionCard, suitName } from "./cards.js";

const LEVELS = { oh7: ["random", "heuristic", "easy", "medium", "hard", "ismcts", "expert"], seven: ["random", "heuristic", "search"] };
const PRESETS = ["en", "fr", "fr-advanced", "kod7", "bga"];

const S = {
  lang: localStorage.getItem("oh7.lang") || ((navigator.language || "en").startsWith("fr") ? "fr" : "en"),
  code: null,
  access: null,
  ws: null,
  connected: false,
  retry: 0,
  version: 0,
  you: null,
  table: null,
  view: null,
  legal: [],
  chat: [],
  links: null,
  passSel: new Set(),
  choice: null,
  announce: false,
  hint: null,
  notice: null,
  nextId: 0,
  prefix: Math.random().toString(36).slice(2, 10),
  lastTrickKey: null,
};
if (!["en", "fr"].includes(S.lang)) S.lang = "en";

const T = () => texts(S.lang);

// ---------- DOM helpers (text only: no HTML from data) ----------

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function rulesOf() {
  const preset = S.table?.preset;
  return { fifth: preset === "kod7" ? "✿" : "☆", mark: preset === "kod7" ? "‽" : "?" };
}

function gameOf() {
  return S.table?.game === "seven" ? "seven" : "oh7";
}

function cardEl(text, opts = {}) {
  const game = opts.game || gameOf();
  const f = face(game, text, rulesOf());
  const name = speak(game, text, S.lang, rulesOf());
  const cls = `card ${f.colour}${opts.legal ? " legal" : ""}${opts.selected ? " selected" : ""}${opts.hinted ? " hinted" : ""}${opts.arrive ? " arrive" : ""}`;
  const inner = [h("span", { class: "rank", "aria-hidden": "true" }, f.rank ?? f.face), h("span", { class: "suit", "aria-hidden": "true" }, f.suitSymbol || "")];
  if (f.copy) inner.push(h("span", { class: "copy", "aria-hidden": "true" }, "′"));
  if (opts.onclick) {
    return h("button", { class: cls, "aria-label": name, title: name, onclick: opts.onclick, disabled: opts.disabled, "data-card": text }, ...inner);
  }
  return h("span", { class: cls, role: "img", "aria-label": name, title: name, "data-card": text }, ...inner);
}

function backEl(label) {
  return h("span", { class: "card back", role: "img", "aria-label": label, title: label }, h("span", { "aria-hidden": "true" }, "🂠"));
}

// ---------- connection ----------

function send(msg) {
  if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg));
}

function command(type, fields = {}) {
  S.nextId += 1;
  const id = `${S.prefix}-${S.nextId}`;
  send({ type, id, ...fields });
  return id;
}

function tokenKey() {
  return `oh7.token.${S.code}`;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    const token = S.access === "invite" ? localStorage.getItem(tokenKey()) : null;
    ws.send(JSON.stringify({ type: "hello", table: S.code, token }));
  };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    S.connected = false;
    render();
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** S.retry);
  };
}

function receive(m) {
  switch (m.type) {
    case "snapshot":
      S.connected = true;
      // A guest who never chose a language gets the table's.
      if (!localStorage.getItem("oh7.lang") && m.table?.lang) S.lang = m.table.lang;
      S.version = m.version;
      S.you = m.you;
      S.table = m.table;
      S.view = m.view;
      S.legal = m.legal || [];
      S.chat = m.chat || [];
      if (m.links) S.links = m.links;
      S.passSel.clear();
      S.choice = null;
      break;
    case "event":
      if (m.version <= S.version) return;
      if (m.version !== S.version + 1) {
        // Messages were lost: ask for the whole state instead of guessing.
        send({ type: "sync" });
        return;
      }
      S.version = m.version;
      if (m.table) S.table = m.table;
      if (m.view) S.view = m.view;
      if (m.legal) {
        S.legal = m.legal;
        S.passSel.clear();
        S.choice = null;
        S.hint = null;
      }
      if (m.event.kind === "chat") S.chat = [...S.chat, m.event.entry].slice(-50);
      break;
    case "presence":
      S.table = m.table;
      break;
    case "ack":
      if (m.token) {
        localStorage.setItem(tokenKey(), m.token);
        S.you = m.seat;
      }
      if (m.hint !== undefined) S.hint = m.hint;
      break;
    case "error":
      S.notice = errorText(m);
      break;
    case "closing":
      S.notice = T().reconnecting;
      break;
  }
  render();
}

function errorText(m) {
  if (S.lang === "en") return m.message;
  const fr = {
    not_your_turn: "Ce n'est pas votre tour.",
    illegal: "Ce coup n'est pas permis.",
    rate_limited: "Trop de commandes : ralentissez.",
    table_full: "Toutes les places sont prises.",
    bad_name: "Un nom a de 1 à 24 caractères.",
    seats_free: "Des places sont libres : attendez vos amis ou complétez avec des robots.",
    chat_too_long: "Un message a de 1 à 300 caractères.",
    unknown_table: "Aucune table n'a ce lien.",
    bad_token: "Ce jeton de place n'est pas valable ici.",
  };
  return fr[m.code] || "La commande a été refusée.";
}

// ---------- pages ----------

function render() {
  const app = document.getElementById("app");
  document.documentElement.lang = S.lang;
  document.title = T().title;
  app.replaceChildren(S.code ? tablePage() : homePage());
}

function langSwitch() {
  return h(
    "label",
    { class: "lang" },
    T().language + " ",
    h(
      "select",
      {
        id: "lang",
        onchange: (e) => {
          S.lang = e.target.value;
          localStorage.setItem("oh7.lang", S.lang);
          render();
        },
      },
      h("option", { value: "en", selected: S.lang === "en" }, "English"),
      h("option", { value: "fr", selected: S.lang === "fr" }, "Français"),
    ),
  );
}

function homePage() {
  const t = T();
  const form = h("form", { id: "create", class: "panel" });
  const game = h("select", { id: "game", name: "game" }, h("option", { value: "oh7" }, t.gameOh7), h("option", { value: "seven" }, t.gameSeven));
  const preset = h("select", { id: "preset", name: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, t.presets[p])));
  const ruleset = h("textarea", { id: "ruleset", rows: 2, placeholder: 'preset = "fr"\ntarget = 21' });
  const players = h("input", { id: "players", type: "number", min: 2, max: 9, value: 4 });
  const name = h("input", { id: "name", maxlength: 24, required: true, autocomplete: "nickname" });
  const seats = h("div", { id: "seats", class: "seats-form" });
  const drawSeats = () => {
    const n = Math.max(2, Math.min(9, Number(players.value) || 4));
    const levels = LEVELS[game.value];
    // Keep what was chosen for the seats that stay.
    const before = new Map([...seats.querySelectorAll("select")].map((s) => [s.dataset.seat, s.value]));
    const keep = (i, l) => (before.has(String(i + 1)) ? before.get(String(i + 1)) === l : l === levels[levels.length - 1]);
    seats.replaceChildren(
      ...Array.from({ length: n - 1 }, (_, i) =>
        h(
          "label",
          {},
          t.seat(i + 1) + " ",
          h("select", { "data-seat": i + 1 }, h("option", { value: "human", selected: keep(i, "human") }, t.person), ...levels.map((l) => h("option", { value: l, selected: keep(i, l) }, t.botLevel(t.levels[l] || l)))),
        ),
      ),
    );
    preset.disabled = game.value === "seven";
    ruleset.placeholder = game.value === "seven" ? "limit = 50" : 'preset = "fr"\ntarget = 21';
  };
  game.addEventListener("change", drawSeats);
  // On input, not change: a change fires on blur, and redrawing then would swallow the click
  // that moved the focus.
  players.addEventListener("input", drawSeats);
  drawSeats();
  form.append(
    h("label", {}, t.game + " ", game),
    h("label", {}, t.preset + " ", preset),
    h("label", { class: "wide" }, t.ruleset, ruleset),
    h("label", {}, t.players + " ", players),
    h("label", {}, t.yourName + " ", name),
    seats,
    h("button", { type: "submit", id: "create-btn", class: "primary" }, t.create),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { game: game.value, players: Number(players.value), name: name.value, lang: S.lang };
    body.seats = ["human", ...[...seats.querySelectorAll("select")].map((s) => s.value)];
    if (ruleset.value.trim()) body.ruleset = ruleset.value;
    else if (game.value === "oh7") body.preset = preset.value;
    const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const v = await r.json();
    if (!r.ok) {
      S.notice = errorText(v);
      render();
      return;
    }
    localStorage.setItem(`oh7.token.${v.invite}`, v.token);
    history.pushState({}, "", `/t/${v.invite}`);
    // For the browser tests: a read-only look at what the page knows.
window.oh7State = () => JSON.parse(JSON.stringify({ version: S.version, you: S.you, table: S.table, view: S.view, legal: S.legal, links: S.links, connected: S.connected }));
route();
  });
  return h("div", { class: "home" }, h("header", {}, h("h1", {}, "oh7"), langSwitch()), h("p", {}, t.tagline), noticeEl(), form);
}

function noticeEl() {
  if (!S.notice) return null;
  return h("p", { class: "notice", role: "alert" }, S.notice, " ", h("button", { class: "link", onclick: () => ((S.notice = null), render()), "aria-label": "OK" }, "×"));
}

function seatName(s) {
  const v = S.view;
  if (v && v.dummy === s) return T().dummy;
  const seat = S.table?.seats?.[s];
  if (seat?.name) return seat.name;
  if (seat?.bot) return T().botName(s + 1, T().levels[seat.bot] || seat.bot);
  const names = v?.names || v?.seats;
  return names?.[s] ?? `#${s + 1}`;
}

function tablePage() {
  const t = T();
  const tbl = S.table;
  const head = h(
    "header",
    {},
    h("h1", {}, h("a", { href: "/", "aria-label": t.back }, "oh7"), " ", tbl ? (tbl.game === "seven" ? t.gameSeven : t.presets[tbl.preset] || tbl.preset) : ""),
    h("span", { class: `status ${S.connected ? "ok" : "down"}`, role: "status" }, S.connected ? t.connected : t.reconnecting),
    langSwitch(),
    h("details", { class: "rules" }, h("summary", {}, t.rules), h("p", {}, t.rulesText[gameOf()])),
  );
  if (!tbl) return h("div", { class: "table-page" }, head, noticeEl());
  const body = tbl.state === "lobby" ? lobby() : gameScreen();
  return h("div", { class: "table-page" }, head, noticeEl(), body, chatPanel());
}

function linkRow(label, url) {
  const input = h("input", { value: url, readonly: true, "aria-label": label });
  const btn = h("button", {
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        input.select();
        document.execCommand("copy");
      }
      btn.textContent = T().copied;
    },
  }, T().copy);
  return h("div", { class: "link-row" }, h("span", {}, label), input, btn);
}

function linksEl() {
  if (!S.links) return null;
  const base = location.origin;
  return h("div", { class: "links" }, S.links.invite ? linkRow(T().invite, `${base}/t/${S.links.invite}`) : null, linkRow(T().watchLink, `${base}/w/${S.links.watch}`));
}

function seatList() {
  const t = T();
  return h(
    "ul",
    { class: "seat-list" },
    ...S.table.seats.map((s) =>
      h("li", {}, h("strong", {}, seatName(s.seat)), s.seat === S.you ? ` (${t.you})` : "", " — ", t.statuses[s.status] || s.status),
    ),
  );
}

function lobby() {
  const t = T();
  const parts = [seatList(), linksEl()];
  const free = S.table.seats.some((s) => s.status === "empty");
  if (S.you === null && S.access === "invite" && free) {
    const name = h("input", { id: "sit-name", maxlength: 24, "aria-label": t.yourName, placeholder: t.yourName });
    parts.push(
      h(
        "form",
        { class: "sit", onsubmit: (e) => (e.preventDefault(), command("sit", { name: name.value })) },
        name,
        h("button", { type: "submit", id: "sit-btn", class: "primary" }, t.takeSeat),
      ),
    );
  } else if (S.you === null) {
    parts.push(h("p", {}, free ? t.watching : t.full));
  }
  if (S.you === 0) {
    const levels = LEVELS[gameOf()];
    const fill = h("select", { id: "fill", "aria-label": t.fillWith }, ...levels.map((l) => h("option", { value: l, selected: l === levels[levels.length - 1] }, t.levels[l] || l)));
    parts.push(
      h(
        "div",
        { class: "start" },
        free ? h("label", {}, t.fillWith + " ", fill) : null,
        h("button", { id: "start-btn", class: "primary", onclick: () => command("start", free ? { fill: fill.value } : {}) }, t.start),
      ),
    );
  } else if (S.you !== null) {
    parts.push(h("p", {}, t.waitingHost));
  }
  return h("section", { class: "panel lobby" }, ...parts);
}

// ---------- the game ----------

function gameScreen() {
  const v = S.view;
  if (!v) return null;
  const main = gameOf() === "seven" ? sevenTable(v) : oh7Table(v);
  const over = S.table.state === "over" ? endPanel(v) : null;
  return h("section", { class: "game" }, main, over, linksEl());
}

function toMoveText(v) {
  const t = T();
  const moving = v.to_move || [];
  if (moving.includes(S.you) && S.legal.length) return h("p", { class: "turn you", role: "status" }, t.yourTurn);
  if (!moving.length) return null;
  return h("p", { class: "turn", role: "status" }, t.toMove(moving.map(seatName).join(", ")));
}

function seatStatus(s) {
  const st = S.table.seats[s]?.status;
  if (!st || st === "here") return null;
  return h("span", { class: `badge ${st}` }, T().statuses[st]);
}

function oh7Table(v) {
  const t = T();
  const n = v.players;
  const seats = n + (v.dummy !== null && v.dummy !== undefined ? 1 : 0);
  const trick = new Map((v.trick || []).map(([s, c]) => [s, c]));
  const newest = (v.trick || []).length ? v.trick[v.trick.length - 1][1] : null;
  const panels = [];
  for (let s = 0; s < seats; s++) {
    const isDummy = v.dummy === s;
    const decided = (v.decided || []).includes(s);
    const turn = (v.to_move || []).includes(s);
    const bet = v.bets ? v.bets[s] : null;
    const info = [
      h("div", { class: "name" }, seatName(s), s === S.you ? ` (${t.you})` : "", " ", isDummy ? null : seatStatus(s)),
      h("div", { class: "stats" }, `${t.bet}${t.colon}${bet ?? (decided ? "✓" : "–")}`, " · ", `${t.won}${t.colon}${v.won?.[s] ?? 0}`, isDummy ? "" : ` · ${t.score}${t.colon}${v.totals?.[s] ?? 0}`),
      h("div", { class: "count" }, t.cards(v.hand_sizes?.[s] ?? 0)),
    ];
    if (decided && !v.bets) info.push(h("div", { class: "decided" }, t.decided));
    if (isDummy && v.dummy_faceup?.length) info.push(h("div", { class: "faceup" }, ...v.dummy_faceup.map((c) => cardEl(c))));
    if (isDummy) info.push(h("div", { class: "count" }, t.dummyPile(v.dummy_pile_left)));
    const pub = v.public_bet_cards?.[s];
    if (pub?.length) info.push(h("div", { class: "faceup" }, h("small", {}, t.betCard), " ", ...pub.map((c) => cardEl(c))));
    const played = trick.get(s);
    panels.push(
      h(
        "div",
        { class: `seat${turn ? " turn" : ""}${s === S.you ? " me" : ""}`, "data-seat": s },
        h("div", { class: "info" }, ...info),
        h("div", { class: "played" }, played ? cardEl(played, { arrive: played === newest }) : h("span", { class: "slot" })),
      ),
    );
  }
  const lt = v.last_trick;
  const lastTrick = h(
    "div",
    { class: "last-trick", id: "last-trick", "aria-live": "polite" },
    h("h3", {}, t.lastTrick),
    lt
      ? h("div", {}, h("div", { class: "cards" }, ...lt.plays.map(([s, c]) => h("span", { class: `play${s === lt.winner ? " winner" : ""}` }, cardEl(c), h("small", {}, seatName(s))))), h("p", { class: "won-by" }, t.wonBy(seatName(lt.winner))))
      : h("p", {}, t.noLastTrick),
  );
  const trump = v.leader_trump ? suitName(v.leader_trump[1], S.lang, rulesOf()) : null;
  const counters = h(
    "div",
    { class: "counters" },
    h("span", {}, t.round(v.round)),
    v.phase.name === "playing" ? h("span", {}, t.trick((v.tricks || []).length + 1)) : null,
    h("span", {}, `${t.trump}${t.colon}`, trump ? h("span", { class: "trump" }, `${trump.symbol} ${trump.name}`) : t.noTrump),
  );
  return h(
    "div",
    { class: "oh7" },
    counters,
    h("div", { class: "seats" }, ...panels),
    lastTrick,
    attemptsEl(v),
    toMoveText(v),
    oh7Actions(v),
    handEl(v.hand || [], v),
  );
}

function attemptsEl(v) {
  if (!v.bet_attempts?.length || v.phase.name !== "betting") return null;
  const t = T();
  return h("div", { class: "attempts" }, h("h3", {}, t.attempts), ...v.bet_attempts.map((a) => h("div", { class: "cards" }, ...a.map((c, s) => h("span", { class: "play" }, cardEl(c), h("small", {}, seatName(s)))))));
}

function phaseText(v) {
  const t = T();
  const p = v.phase;
  if (p.name === "passing") return t.phase.passing(p.count);
  if (p.name === "betting") return t.phase.betting(p.attempt);
  const f = t.phase[p.name];
  return typeof f === "function" ? f() : f;
}

function actionLabel(a) {
  const t = T();
  const r = rulesOf();
  let m;
  if ((m = /^reveal (yes|no)$/.exec(a))) return m[1] === "yes" ? `${t.reveal} ${r.mark}` : t.dontReveal;
  if ((m = /^leader (\d+)$/.exec(a))) return t.leads(seatName(Number(m[1])));
  if ((m = /^trump (\w)$/.exec(a))) {
    const s = suitName(m[1], S.lang, r);
    return t.trumpIs(`${s.symbol} ${s.name}`);
  }
  if ((m = /^announce (\w)$/.exec(a))) {
    const s = suitName(m[1], S.lang, r);
    return t.announce(`${s.symbol} ${s.name}`);
  }
  if (a === "draw") return t.draw;
  if (a === "pass") return t.pass;
  if ((m = /^callout (\d+)$/.exec(a))) return t.callOut(seatName(Number(m[1])));
  if (a === "nocall") return t.noCall;
  const card = actionCard(gameOf(), a);
  if (card) {
    let label = speak(gameOf(), card, S.lang, r);
    const suit = /:(\w)/.exec(a);
    if (suit) label += ` → ${suitName(suit[1], S.lang, r).symbol}`;
    if (a.endsWith("!")) label += ` (${t.announceLast})`;
    return label;
  }
  return a;
}

function hintRow() {
  if (!S.legal.length || S.you === null) return null;
  const t = T();
  return h(
    "div",
    { class: "hint" },
    h("button", { id: "hint-btn", onclick: () => command("hint") }, t.hint),
    S.hint ? h("span", { role: "status" }, t.hintIs(actionLabel(S.hint))) : null,
  );
}

function oh7Actions(v) {
  if (S.you === null) return null;
  const t = T();
  const items = [];
  if (S.legal.length) items.push(h("p", { class: "question" }, phaseText(v)));
  if (v.my_pending && v.phase.name === "betting") items.push(h("p", {}, t.betChosen, " ", cardEl(v.my_pending)));
  if (v.phase.name === "passing" && S.legal.length) {
    const need = v.phase.count;
    items.push(h("button", { id: "pass-btn", class: "primary", disabled: S.passSel.size !== need, onclick: () => sendPass(need) }, t.passConfirm));
  }
  if (v.passed?.length) items.push(h("p", {}, t.passed, " ", ...v.passed.map((c) => cardEl(c))));
  if (v.received?.length) items.push(h("p", {}, t.received, " ", ...v.received.map((c) => cardEl(c))));
  const other = S.legal.filter((a) => !actionCard("oh7", a) && !a.startsWith("pass "));
  if (other.length) items.push(h("div", { class: "choices" }, ...other.map((a) => h("button", { class: "choice", "data-action": a, onclick: () => act(a) }, actionLabel(a)))));
  items.push(hintRow());
  return h("div", { class: "actions" }, ...items);
}

function sendPass(need) {
  const want = [...S.passSel].sort().join(" ");
  const a = S.legal.find((x) => x.startsWith("pass ") && x.slice(5).split(" ").sort().join(" ") === want);
  if (a && S.passSel.size === need) act(a);
}

function act(action) {
  S.choice = null;
  S.hint = null;
  command("act", { action });
  render();
}

function handEl(hand, v) {
  const t = T();
  const game = gameOf();
  const byCard = new Map();
  for (const a of S.legal) {
    const c = actionCard(game, a);
    if (c) byCard.set(c, [...(byCard.get(c) || []), a]);
  }
  const passing = game === "oh7" && v.phase?.name === "passing" && S.legal.length > 0;
  const hinted = S.hint ? actionCard(game, S.hint) : null;
  const cards = sortHand(game, hand).map((c) => {
    const actions = byCard.get(c) || [];
    const legal = passing || actions.length > 0;
    return cardEl(c, {
      game,
      legal,
      disabled: !legal,
      selected: S.passSel.has(c),
      hinted: c === hinted,
      onclick: () => {
        if (passing) {
          if (S.passSel.has(c)) S.passSel.delete(c);
          else S.passSel.add(c);
          render();
        } else if (actions.length === 1) act(actions[0]);
        else if (actions.length > 1) chooseAmong(actions);
      },
    });
  });
  const parts = [h("h3", {}, t.hand), h("div", { class: "hand", role: "group", "aria-label": t.hand }, ...cards)];
  if (S.choice) parts.push(h("div", { class: "choices", role: "group", "aria-label": t.chooseSuit }, ...S.choice.map((a) => h("button", { class: "choice", "data-action": a, onclick: () => act(a) }, actionLabel(a)))));
  return h("div", { class: "hand-area" }, ...parts);
}

function chooseAmong(actions) {
  // Seven: an 8's suit, and whether to announce the last card.
  const withBang = actions.filter((a) => a.endsWith("!"));
  const plain = actions.filter((a) => !a.endsWith("!"));
  const pool = S.announce && withBang.length ? withBang : plain.length ? plain : actions;
  if (pool.length === 1) act(pool[0]);
  else {
    S.choice = pool;
    render();
  }
}

function sevenTable(v) {
  const t = T();
  const n = v.players;
  const panels = [];
  for (let s = 0; s < n; s++) {
    const turn = v.turn === s;
    const out = !(v.in_game || []).includes(s);
    const last = (v.last_card || []).find((x) => x.seat === s);
    panels.push(
      h(
        "div",
        { class: `seat${turn ? " turn" : ""}${s === S.you ? " me" : ""}${out ? " out" : ""}`, "data-seat": s },
        h(
          "div",
          { class: "info" },
          h("div", { class: "name" }, seatName(s), s === S.you ? ` (${t.you})` : "", " ", seatStatus(s)),
          h("div", { class: "stats" }, `${t.score}${t.colon}${v.totals?.[s] ?? 0}`),
          h("div", { class: "count" }, t.cards(v.hand_counts?.[s] ?? 0), last ? " !" : ""),
        ),
      ),
    );
  }
  const active = suitName(v.active_suit, S.lang);
  const pile = h(
    "div",
    { class: "pile" },
    h("div", {}, h("h3", {}, t.top), cardEl(v.top, { game: "seven", arrive: true })),
    h("div", {}, `${t.activeSuit}${t.colon}`, h("span", { class: "trump" }, `${active.symbol} ${active.name}`)),
    h("div", {}, t.drawPile(v.draw_pile)),
    h("div", {}, t.direction[v.direction] || v.direction),
    v.penalty ? h("div", { class: "warn" }, t.penalty(v.penalty.cards)) : null,
    v.seven_lock ? h("div", { class: "warn" }, t.sevenLock) : null,
  );
  const other = S.legal.filter((a) => !actionCard("seven", a));
  const hand = v.hand || [];
  const actions = S.you === null ? null : h(
    "div",
    { class: "actions" },
    hand.length === 2 && S.legal.some((a) => a.endsWith("!"))
      ? h("label", {}, h("input", { type: "checkbox", id: "announce", checked: S.announce, onchange: (e) => ((S.announce = e.target.checked), render()) }), " ", t.announceLast)
      : null,
    other.length ? h("div", { class: "choices" }, ...other.map((a) => h("button", { class: "choice", "data-action": a, onclick: () => act(a) }, actionLabel(a)))) : null,
    hintRow(),
  );
  return h("div", { class: "seven" }, h("div", { class: "counters" }, h("span", {}, t.round(v.round))), h("div", { class: "seats" }, ...panels), pile, toMoveText(v), actions, S.you === null ? null : handEl(hand, v));
}

function endPanel(v) {
  const t = T();
  const winners = (S.table.winners || []).map(seatName).join(", ");
  const n = S.table.players;
  const rows = [];
  for (const r of v.past_rounds || []) {
    rows.push(h("tr", {}, h("th", { scope: "row" }, t.round(r.number)), ...r.points.map((p, s) => h("td", {}, `${p} (${r.won[s]}/${r.bets[s]})`))));
  }
  rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t.total), ...(S.table.totals || []).slice(0, n).map((p) => h("td", {}, String(p)))));
  const watch = S.links?.watch;
  return h(
    "div",
    { class: "panel end", id: "end" },
    h("h2", {}, t.over),
    h("p", { class: "winner" }, t.winner(winners)),
    h("table", { class: "scores" }, h("caption", {}, t.scores), h("thead", {}, h("tr", {}, h("th", {}), ...Array.from({ length: n }, (_, s) => h("th", { scope: "col" }, seatName(s))))), h("tbody", {}, ...rows)),
    S.you === 0 ? h("button", { id: "rematch-btn", class: "primary", onclick: () => command("rematch") }, t.rematch) : null,
    watch ? h("a", { id: "download", href: `/api/tables/${watch}/record`, download: "oh7-game.json" }, t.download) : null,
  );
}

function chatPanel() {
  const t = T();
  const list = h("ul", { class: "chat-list", "aria-live": "polite" }, ...S.chat.map((c) => h("li", {}, h("strong", {}, c.name), ": ", c.text)));
  const input = h("input", { id: "chat-input", maxlength: 300, "aria-label": t.chat });
  const form = S.you === null ? null : h("form", { onsubmit: (e) => (e.preventDefault(), input.value.trim() && command("chat", { text: input.value }), (input.value = "")) }, input, h("button", { type: "submit" }, t.send));
  return h("aside", { class: "chat panel" }, h("h3", {}, t.chat), list, form);
}

// ---------- start ----------

function route() {
  const m = /^\/(t|w)\/([0-9a-f]{32})$/.exec(location.pathname);
  if (S.ws) {
    S.ws.onclose = null;
    S.ws.close();
    S.ws = null;
  }
  Object.assign(S, { table: null, view: null, version: 0, you: null, links: null, chat: [], legal: [], hint: null, choice: null });
  S.passSel.clear();
  if (m) {
    S.code = m[2];
    S.access = m[1] === "t" ? "invite" : "watch";
    connect();
  } else {
    S.code = null;
  }
  render();
}

window.addEventListener("popstate", route);
document.addEventListener("keydown", (e) => {
  // Keyboard: digits 1-9 play the n-th legal card of the hand; Enter on a focused card plays it.
  if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
  const n = Number(e.key);
  if (n >= 1 && n <= 9) {
    const cards = [...document.querySelectorAll(".hand .card.legal")];
    if (cards[n - 1]) cards[n - 1].click();
  }
});
// For the browser tests: a read-only look at what the page knows.
window.oh7State = () => JSON.parse(JSON.stringify({ version: S.version, you: S.you, table: S.table, view: S.view, legal: S.legal, links: S.links, connected: S.connected }));
route();
