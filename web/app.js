// The browser table: the pages (home, lobby, game), built once and updated in place from the
// state (state.js, a pure reducer over the server's messages). Every word comes from i18n.js,
// every card from cards.js; names and chat are shown as text, never as HTML.

import { texts, errorText } from "./i18n.js";
import { initial, reduce, gameOf, myTurn, newTurn, askedAgain } from "./state.js";
import { connect, tokenFor, keepToken } from "./socket.js";
import { connectLocal, newTable, storedTable, request as askWorker, paceName, setPace, PACES } from "./local.js";
import { h, region, part } from "./dom.js";
import { accountPanel } from "./account.js";
import { call } from "./api.js";
import { CATALOGUE } from "./catalogue.js";
import { playerPage } from "./player.js";
import { symbols, terms } from "./rules.js";
import { lesson, tutorialBody, familyOf, FAMILIES, coachWords } from "./coach.js";
import { renderGame, seatName, handKeys, clearSevenChoice } from "./table.js";
import { cardSoundsOn, setCardSounds } from "./sound.js";

const NOTICE_MS = 5000;
// A command unanswered this long frees the hand again.
const PENDING_MS = 6000;

// The page's state: the reducer's, plus the language and the route.
let S = { ...initial(), lang: pickLang() };
let code = null;
let access = null;
// The share code of the review shown (/review/{code}), or null; the review page's module
// (review.js), loaded only on that page, so the table's first load does not carry it.
let reviewCode = null;
// A player's page (`/p/NAME`): the name.
let playerName = null;
// On /replay/{code} (the table's last finished game, every hand shown), the same page without a
// review: review.js in its replay mode.
let replay = false;
let reviewMod = null;
let reviewLoad = null;
let sock = null;
// The table is a solo table played on this device (local.js), not a server's.
let solo = false;
// The solo panel's redraw, for when the presets arrive.
let soloRedraw = null;
// Installing the app (Android, desktop Chromium): the browser's prompt, offered on the home page.
let installPrompt = null;
// The page asked the new version's service worker to take over: reload once it has.
let switching = false;
// A static copy of the client (`oh7 web`): no server behind the page, local play only.
const LOCAL_ONLY = document.body?.dataset.mode === "local";
let presets = null;
let stats = null;
let statsFor = null;
let announce = false;
let chatWaiting = null;
// Below 760 px the chat is a sheet over the table, opened from a button that counts the lines
// not seen yet (others' lines that came while it was closed).
let chatOpen = false;
// The last line seen (undefined: nothing drawn yet, so what a snapshot brings counts as seen).
let chatSeen = undefined;
const wide = () => window.matchMedia?.("(min-width: 760px)").matches ?? true;
let lastChatAt = 0;
const noticeTimers = new Map();
// The turn alerts this browser asked for (remembered): a sound, a notification when hidden.
const alerts = { sound: pref("oh7.sound"), notify: pref("oh7.notify") };
let audio = null;
// The viewer's turn clock: when its decision began (this page's time; the server's clock began
// at the same version, so this is at most a message's delay late), and the timer redrawing it.
let turnSince = null;
let clockTimer = null;

function pref(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

function setPref(key, on) {
  try {
    if (on) localStorage.setItem(key, "1");
    else localStorage.removeItem(key);
  } catch {
    // Remembered as long as the page.
  }
}

function pickLang() {
  let l = null;
  try {
    l = localStorage.getItem("oh7.lang");
  } catch {
    l = null;
  }
  l = l || ((navigator.language || "en").startsWith("fr") ? "fr" : "en");
  return ["en", "fr"].includes(l) ? l : "en";
}

const T = () => texts(S.lang);

function rules() {
  return symbols(S.table?.ruleset || { preset: S.table?.preset });
}

/** The address of the server the table is played on now (`""`: this page's own). */
function serverBase() {
  return sock ? sock.base() : "";
}

const ctx = {
  get S() {
    return S;
  },
  // Where the table's records, replays and reviews are read (the server it is played on).
  get base() {
    return serverBase();
  },
  // The code the table page was opened with (invite or watch), for the replay link.
  get code() {
    return code;
  },
  t: T,
  clockLeft: () => clockLeft(),
  rematchLeft: () => rematchLeft(),
  rules,
  dispatch,
  send: (type, fields) => sendCommand(type, fields),
  act,
  requestReview,
  // Where a review's link goes: a solo table's reviews are kept on this device.
  reviewHref: (share) => (solo ? `#solo-review/${encodeURIComponent(share)}` : `${serverBase()}/review/${encodeURIComponent(share)}`),
  solo: () => solo,
  // A solo table's last finished game, downloaded as its record.
  exportRecord: async () => {
    const records = await askWorker("records");
    const last = Array.isArray(records) ? records[records.length - 1] : null;
    if (last) download(`oh7-game-${S.table?.game_number ?? 1}.json`, last);
  },
  redraw: () => render(),
  // A tutorial table's lesson now (web/coach.js), and its box.
  coach: () => coachNow(),
  coachEl: (l) => coachEl(l),
  stats: () => stats,
  announce: () => announce,
  setAnnounce: (v) => {
    announce = v;
    render();
  },
};

function dispatch(msg) {
  const lang = S.lang;
  const before = S;
  S = { ...reduce(S, msg), lang };
  if (newTurn(before, S)) onNewTurn();
  else if (!myTurn(S)) turnSince = null;
  if (askedAgain(S) && !askedAgain(before)) alertMe(T().rematchAsked(S.table.seats?.[0]?.name || ""));
  render();
}

/** The viewer's decision begins: its clock starts, and the alerts it asked for go off. */
function onNewTurn() {
  turnSince = Date.now();
  alertMe(T().turnNotice, T().turnNoticeBody(tableName()));
}

/** The alerts this browser asked for: a chime, and a notification when the tab is hidden. */
function alertMe(title, body = tableName()) {
  if (alerts.sound) beep();
  if (alerts.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      const n = new Notification(title, { body, tag: "oh7-turn" });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // A browser that shows notifications only from a service worker: the title still says it.
    }
  }
}

function tableName() {
  const tbl = S.table;
  if (!tbl) return "oh7";
  return T().presets[tbl.preset] || T().games[tbl.game] || tbl.preset;
}

/** A short two-note chime (Web Audio; the context was made on the click that turned it on). */
function beep() {
  try {
    audio ||= new AudioContext();
    const at = audio.currentTime;
    for (const [k, f] of [
      [0, 660],
      [0.16, 880],
    ]) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, at + k);
      g.gain.exponentialRampToValueAtTime(0.2, at + k + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, at + k + 0.15);
      o.connect(g).connect(audio.destination);
      o.start(at + k);
      o.stop(at + k + 0.16);
    }
  } catch {
    // No audio here: the title and the prompt still say it.
  }
}

/** Seconds left on the viewer's turn clock, or null when the table has none or it is not its turn. */
function clockLeft() {
  const secs = S.table?.turn_clock_s;
  if (!secs || turnSince === null || !myTurn(S)) return null;
  return Math.max(0, Math.ceil(secs - (Date.now() - turnSince) / 1000));
}

/** Seconds before the rematch being asked starts without those who have not answered, or null. */
function rematchLeft() {
  const r = S.table?.rematch;
  if (!r || !r.deadline_ms) return null;
  return Math.max(0, Math.min(r.wait_s, Math.ceil((r.deadline_ms - Date.now()) / 1000)));
}

/** Redraw every second while the viewer's clock or a rematch's deadline runs. */
function tickClock() {
  const running = clockLeft() !== null || rematchLeft() !== null;
  if (running && clockTimer === null) clockTimer = setInterval(render, 1000);
  if (!running && clockTimer !== null) {
    clearInterval(clockTimer);
    clockTimer = null;
  }
}

function alertsEl() {
  const t = T();
  const note = h("small", { class: "help", id: "alerts-note", role: "status" });
  const sound = h("input", {
    type: "checkbox",
    id: "alert-sound",
    "data-k": "alert-sound",
    checked: alerts.sound || null,
    onchange: (e) => {
      alerts.sound = e.target.checked;
      setPref("oh7.sound", alerts.sound);
      if (alerts.sound) {
        // Made on this click, so the browser lets it play later.
        try {
          audio ||= new AudioContext();
          audio.resume?.();
        } catch {
          audio = null;
        }
      }
    },
  });
  const notify = h("input", {
    type: "checkbox",
    id: "alert-notify",
    "data-k": "alert-notify",
    checked: alerts.notify || null,
    onchange: async (e) => {
      const box = e.target;
      note.textContent = "";
      if (!box.checked) {
        alerts.notify = false;
        setPref("oh7.notify", false);
        return;
      }
      if (!("Notification" in window)) {
        box.checked = false;
        note.textContent = t.notifyUnsupported;
        return;
      }
      // Asked on this click, never before.
      let p = Notification.permission;
      if (p === "default") {
        try {
          p = await Notification.requestPermission();
        } catch {
          p = Notification.permission;
        }
      }
      alerts.notify = p === "granted";
      box.checked = alerts.notify;
      setPref("oh7.notify", alerts.notify);
      if (!alerts.notify) note.textContent = t.notifyBlocked;
    },
  });
  const cards = h("input", {
    type: "checkbox",
    id: "card-sounds",
    "data-k": "card-sounds",
    checked: cardSoundsOn() || null,
    onchange: (e) => setCardSounds(e.target.checked),
  });
  // Card sounds are not about your turn: beside the group, not in it.
  return [
    h(
      "fieldset",
      { class: "alerts" },
      h("legend", {}, t.alerts),
      h("label", { class: "check" }, sound, " ", t.sound),
      h("label", { class: "check" }, notify, " ", t.notify),
      note,
    ),
    h("label", { class: "check card-sounds" }, cards, " ", t.cardSounds),
  ];
}

/** What the table's settings say about its pace and rating, under the game. */
function tableNotesEl() {
  const t = T();
  return h(
    "div",
    { class: "table-notes" },
    S.table?.turn_clock_s ? h("p", { class: "help" }, `${t.turnClock}: ${t.clockSeconds(S.table.turn_clock_s)}. ${t.clockHelp}`) : null,
    S.table?.move_deadline_s ? h("p", { class: "help", id: "deadline-note" }, `${t.acct.deadline}: ${t.acct.deadlineHours(Math.round(S.table.move_deadline_s / 3600))}. ${t.acct.deadlineHelp}`) : null,
    S.table?.rated ? h("p", { class: "help", id: "rated-note" }, `${t.acct.rated}. ${t.acct.ratedHelp}`) : null,
  );
}

function sendCommand(type, fields = {}) {
  if (!sock) return null;
  return sock.send(type, fields);
}

/** Ask for this seat's review of the game just finished (the answers come as `review` messages). */
function requestReview() {
  const r = S.review;
  if (r && (r.state === "asking" || r.state === "queued" || r.state === "running")) return;
  const game = S.table?.game_number;
  const names = (S.table?.seats || []).map((x, i) => seatName(ctx, i));
  const id = sendCommand("review", solo ? { game, names } : game ? { game } : {});
  if (!id) return;
  dispatch({ type: "local/review-sent", id, game: game ?? null });
}

function act(action) {
  if (S.pending) return;
  // At a tutorial table, a lesson about the decision being taken (the one on screen) is read
  // once the newcomer acts on it, "Got it" pressed or not: it does not come back at the next
  // round. A lesson that only tells (the trump, a trick won, the score) waits for its "Got it".
  const shown = code && !solo ? document.querySelector(".coach")?.dataset.lesson : null;
  if (shown && ACTED_ON.has(shown)) readLesson(shown, false, false);
  clearSevenChoice();
  const fromActions = document.activeElement?.closest?.(".actions");
  const id = sendCommand("act", { action });
  if (!id) return;
  dispatch({ type: "local/sent", id, action });
  setTimeout(() => {
    // No answer in time: the server may be paused or gone with the connection still open.
    // Let the person try again, and connect again (to whichever server plays the table now).
    if (S.pending && S.pending.id === id && S.pending.acked === undefined) sock?.reconnect();
    dispatch({ type: "local/pending-timeout", id });
  }, PENDING_MS);
  // The button pressed is gone: the keyboard goes back to the hand, not to the page's top.
  if (fromActions && !document.activeElement?.closest?.(".actions")) document.querySelector('.hand [tabindex="0"]')?.focus();
}

function onMessage(msg) {
  // Keep the seat token this browser was given (never in a URL).
  if (msg.type === "ack" && msg.token) keepToken(code, msg.token);
  // Each viewer reads the table in their own language (chosen, or else their browser's), not
  // the host's: the table's language is what its bots' names and its records are written in.
  if (msg.type === "ack" && chatWaiting && msg.id === chatWaiting.id) {
    const input = document.getElementById("chat-input");
    if (input && input.value === chatWaiting.text) input.value = "";
    chatWaiting = null;
  }
  if (msg.type === "error" && chatWaiting && msg.id === chatWaiting.id) chatWaiting = null;
  const gapBefore = S.needSync;
  dispatch(msg);
  // One `sync` per gap or patch that did not fit: the events that follow it are ignored until
  // the snapshot.
  if (S.needSync && !gapBefore) sock?.sync();
  if (msg.type === "event" || msg.type === "snapshot") clearSevenChoice();
  // A review made of this game (remembered below): back at the table, it is shown again.
  if (msg.type === "snapshot" && S.table?.state === "over" && S.you !== null && !S.review && reviewedHere() === S.table.game_number) requestReview();
  if (S.review?.state === "done" && S.table?.game_number && reviewedHere() !== S.table.game_number) {
    try {
      localStorage.setItem(`oh7.reviewed.${code}`, String(S.table.game_number));
    } catch {
      // Not remembered: the button asks again.
    }
  }
}

/** The game of this table whose review this browser has (by the table's code), or null. */
function reviewedHere() {
  try {
    const g = localStorage.getItem(`oh7.reviewed.${code}`);
    return g === null ? null : Number(g);
  } catch {
    return null;
  }
}

// ---------- rendering ----------

function render() {
  const app = document.getElementById("app");
  document.documentElement.lang = S.lang;
  document.title = reviewCode ? T().title : myTurn(S) ? T().turnTitle : askedAgain(S) ? T().againTitle : T().title;
  tickClock();
  if (reviewCode) {
    if (!reviewMod) {
      reviewLoad ||= import("./review.js")
        .then((m) => {
          reviewMod = m;
        })
        .catch(() => {
          reviewLoad = "failed";
        })
        .finally(() => render());
      const failed = reviewLoad === "failed";
      if (app.__page !== `review-wait:${S.lang}:${failed}`) {
        app.__page = `review-wait:${S.lang}:${failed}`;
        app.replaceChildren(h("header", { class: "bar" }, h("h1", {}, h("a", { href: "/" }, "oh7")), langSwitch()), h("main", { id: "content" }, h("p", failed ? { class: "form-error", role: "alert" } : { role: "status" }, failed ? T().rv.offline : T().rv.loading)));
      }
      return;
    }
    if (app.__page !== `review:${S.lang}:${replay}:${reviewCode}`) {
      app.__page = `review:${S.lang}:${replay}:${reviewCode}`;
      app.replaceChildren(
        reviewMod.reviewPage(
          reviewCode,
          S.lang,
          langSwitch(),
          // The reader's own language, as at a table (not the table's).
          () => {},
          replay,
        ),
      );
    }
    return;
  }
  if (playerName !== null) {
    if (app.__page !== `player:${S.lang}:${playerName}`) {
      app.__page = `player:${S.lang}:${playerName}`;
      app.replaceChildren(playerPage(T(), playerName, h("header", { class: "bar" }, h("h1", {}, h("a", { href: "/" }, "oh7")), langSwitch())));
    }
    return;
  }
  const page = code ? "table" : "home";
  if (app.__page !== `${page}:${S.lang}:${code}`) {
    app.__page = `${page}:${S.lang}:${code}`;
    app.replaceChildren(page === "home" ? homePage() : tablePage());
  }
  if (page === "table") updateTablePage(app);
}

function langSwitch() {
  return h(
    "label",
    { class: "lang" },
    h("span", {}, T().language),
    h(
      "select",
      {
        id: "lang",
        onchange: (e) => {
          const keep = formValues();
          S = { ...S, lang: e.target.value };
          try {
            localStorage.setItem("oh7.lang", S.lang);
          } catch {
            // The choice lasts as long as the page.
          }
          render();
          restoreForm(keep);
          document.getElementById("lang")?.focus();
        },
      },
      h("option", { value: "en", selected: S.lang === "en" || null }, "English"),
      h("option", { value: "fr", selected: S.lang === "fr" || null }, "Français"),
    ),
  );
}

// ---------- home: create a table ----------

// What the page knows of the games before (or without) the server's answer: the registry's own
// catalogue, generated into catalogue.js (no copy written here).
const FALLBACK = CATALOGUE;

function catalogue() {
  return presets || FALLBACK;
}

/** The catalogue's games, in its order. */
function gamesOf() {
  return [...new Set(catalogue().games.map((e) => e.game))];
}

/** A game's presets (Seven has one, named after the game). */
function presetsOf(g) {
  return catalogue().games.filter((e) => e.game === g);
}

/** A select of the catalogue's games. */
function gameSelect(attrs) {
  const t = T();
  return h("select", attrs, ...gamesOf().map((g) => h("option", { value: g }, t.games[g] || g)));
}

/** Fill `select` with game `g`'s presets, keeping the one chosen where it still is; a game of
 * one preset shows it, not to be changed. */
function fillPresets(select, g) {
  const t = T();
  const was = select.value;
  const list = presetsOf(g);
  select.replaceChildren(...list.map((e) => h("option", { value: e.preset }, t.presets[e.preset] || e.preset)));
  if (list.some((e) => e.preset === was)) select.value = was;
  select.disabled = list.length < 2;
}

function formValues() {
  const f = document.getElementById("create");
  if (!f) return null;
  const out = {};
  for (const el of f.querySelectorAll("input, select, textarea")) out[el.id || el.dataset.seat] = el.value;
  return out;
}

function restoreForm(values) {
  if (!values) return;
  const f = document.getElementById("create");
  if (!f) return;
  for (const id of ["game", "preset", "players", "name", "turn-clock", "ruleset"]) {
    const el = document.getElementById(id);
    if (el && values[id] !== undefined) el.value = values[id];
  }
  f.dispatchEvent(new Event("redraw-seats"));
  for (const sel of f.querySelectorAll("select[data-seat]")) if (values[sel.dataset.seat] !== undefined) sel.value = values[sel.dataset.seat];
}

function homePage() {
  const t = T();
  const form = h("form", { id: "create", class: "panel", novalidate: true });
  const game = gameSelect({ id: "game", name: "game" });
  const preset = h("select", { id: "preset", name: "preset" });
  fillPresets(preset, game.value);
  const ruleset = h("textarea", { id: "ruleset", rows: 2, placeholder: 'preset = "fr"\ntarget = 21', "aria-describedby": "ruleset-help" });
  const players = h("input", { id: "players", type: "number", min: 2, max: 9, value: 4, inputmode: "numeric", "aria-describedby": "players-help" });
  const playersHelp = h("small", { id: "players-help", class: "help" });
  const name = h("input", { id: "name", autocomplete: "nickname", required: true, "aria-describedby": "name-help" });
  const nameHelp = h("small", { id: "name-help", class: "help" }, t.nameHelp);
  nameLimit(name, nameHelp);
  const seats = h("fieldset", { id: "seats", class: "seats-form" });
  const error = h("p", { id: "create-error", class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", id: "create-btn", class: "primary" }, t.create);
  const entry = () => presetsOf(game.value).find((e) => e.preset === preset.value) || presetsOf(game.value)[0];
  const drawSeats = () => {
    fillPresets(preset, game.value);
    const e = entry();
    players.min = e.min_players;
    players.max = e.max_players;
    playersHelp.textContent = t.playersAllowed(e.min_players, e.max_players, !!e.ruleset?.dummy && e.min_players === 2);
    const n = Math.max(e.min_players, Math.min(e.max_players, Number(players.value) || 4));
    const levels = levelsOf(game.value);
    const before = new Map([...seats.querySelectorAll("select")].map((s) => [s.dataset.seat, s.value]));
    seats.replaceChildren(
      h("legend", {}, t.otherSeats),
      ...Array.from({ length: n - 1 }, (_, i) => {
        const was = before.get(String(i + 1));
        const opts = [h("option", { value: "human" }, t.freeSeat), ...levels.map((l) => h("option", { value: l }, t.botLevel(t.levels[l] || l)))];
        const sel = h("select", { "data-seat": i + 1, id: `seat-${i + 1}` }, ...opts);
        sel.value = was && [...sel.options].some((o) => o.value === was) ? was : "human";
        return h("label", {}, t.seat(i + 1), sel);
      }),
    );
    ruleset.placeholder = t.rulesetExample[game.value] || "";
  };
  form.addEventListener("redraw-seats", drawSeats);
  game.addEventListener("change", drawSeats);
  preset.addEventListener("change", drawSeats);
  // On input, not change: a change fires on blur, and redrawing then would swallow the click
  // that moved the focus.
  players.addEventListener("input", drawSeats);
  drawSeats();
  if (!presets) {
    // A static copy has no server: the worker's engine says the same.
    (LOCAL_ONLY ? askWorker("presets") : fetch("/api/presets").then((r) => (r.ok ? r.json() : null)))
      .then((p) => {
        if (p?.games) {
          presets = p;
          const keep = formValues();
          drawSeats();
          restoreForm(keep);
          soloRedraw?.();
        }
      })
      .catch(() => {});
  }
  const rated = h("input", { id: "rated", type: "checkbox", "aria-describedby": "rated-help" });
  const access = h("select", { id: "access" }, h("option", { value: "link" }, t.roomByLink), h("option", { value: "open" }, t.roomAnyone));
  const deadline = h("select", { id: "move-deadline", "aria-describedby": "deadline-help" }, h("option", { value: "" }, t.acct.deadlineOff), ...[12, 24, 48, 72, 168].map((n) => h("option", { value: String(n) }, t.acct.deadlineHours(n))));
  const clock = h(
    "select",
    { id: "turn-clock", "aria-describedby": "clock-help" },
    h("option", { value: "" }, t.clockOff),
    ...[30, 60, 120, 300].map((n) => h("option", { value: String(n) }, t.clockSeconds(n))),
  );
  form.append(
    h("h2", { class: "wide" }, t.createTitle),
    h("label", {}, t.game, game),
    h("label", {}, t.preset, preset),
    h("label", {}, t.players, players, playersHelp),
    // A name has 24 characters at most: said under the field, and said again as a longer one is typed.
    h("label", {}, t.yourName, name, nameHelp),
    seats,
    h("label", {}, t.roomAccess, access),
    h("label", {}, t.turnClock, clock, h("small", { id: "clock-help", class: "help" }, t.clockHelp)),
    h("label", {}, t.acct.deadline, deadline, h("small", { id: "deadline-help", class: "help" }, t.acct.deadlineHelp)),
    h("div", { class: "rated-box" }, h("label", { class: "check" }, rated, t.acct.rated), h("small", { id: "rated-help", class: "help" }, t.acct.ratedHelp)),
    h("label", { class: "wide" }, t.ruleset, ruleset),
    error,
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const body = { game: game.value, players: Number(players.value), name: name.value, lang: S.lang };
    body.seats = ["human", ...[...seats.querySelectorAll("select")].map((s) => s.value)];
    if (clock.value) body.turn_clock_s = Number(clock.value);
    if (rated.checked) body.rated = true;
    if (access.value === "open") body.open = true;
    if (deadline.value) {
      // A turn-based table has no live turn clock.
      body.move_hours = Number(deadline.value);
      delete body.turn_clock_s;
    }
    if (ruleset.value.trim()) body.ruleset = ruleset.value;
    else body.preset = preset.value;
    submit.disabled = true;
    submit.textContent = t.creating;
    let r;
    let v;
    try {
      r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      v = await r.json().catch(() => ({ code: "bad_request" }));
    } catch {
      v = { code: "offline" };
    }
    submit.disabled = false;
    submit.textContent = t.create;
    if (!r || !r.ok) {
      // The form keeps what was typed; the sentence says what to change.
      error.textContent = errorText(S.lang, v.code, v.params);
      const focus = { bad_deadline: deadline, bad_name: name, bad_players: players, bad_ruleset: ruleset, ruleset_too_large: ruleset, preset_and_ruleset: ruleset }[v.code];
      (focus || error).focus?.();
      return;
    }
    keepToken(v.invite, v.token);
    history.pushState({}, "", `/t/${v.invite}`);
    route();
  });
  const turnBanner = h("p", { id: "turn-banner", class: "turn-banner", hidden: true });
  const learn = LOCAL_ONLY ? null : learnPanel(() => name.value.trim());
  // An open table joined or a quick match made: its page, and a free seat taken with the name
  // typed in the form (a quick match's seat is the account's already).
  const goTable = (invite, sit) => {
    history.pushState({}, "", `/t/${invite}`);
    route();
    const n = name.value.trim();
    if (sit && n) sitWhenConnected(n);
  };
  // The public room's panel is loaded after the page (it is not part of the first load).
  const room = LOCAL_ONLY ? null : h("section", { id: "room-slot", class: "panel", "aria-busy": "true" });
  if (room) {
    import("./room.js")
      .then((m) => room.isConnected && room.replaceWith(m.roomPanel(T(), (c, p) => errorText(S.lang, c, p), goTable)))
      .catch(() => room.remove());
  }
  return h(
    "div",
    { class: "home" },
    h("header", { class: "bar" }, h("h1", {}, "oh7"), langSwitch()),
    LOCAL_ONLY ? h("main", { id: "content" }, soloPanel(), h("p", { class: "help" }, t.solo.onlyLocal)) :
    h("main", { id: "content" }, h("p", { class: "tagline" }, t.tagline), turnBanner, newcomer() ? learn : null, room, form, soloPanel(), newcomer() ? null : learn, accountPanel(
          t,
          (c, p) => errorText(S.lang, c, p),
          (n) => {
            // The create form offers the account's name (a name typed there stays).
            if (!name.value) name.value = n;
          },
          (n) => {
            // Above the form (on a phone the panel is far below): the tables waiting for a move.
            turnBanner.hidden = n === 0;
            // The link moves to the list itself (a hash change would redraw the page and lose
            // the place), and takes the keyboard's focus there.
            const toList = (e) => {
              e.preventDefault();
              const list = document.getElementById("account-turns");
              list?.scrollIntoView({ block: "start" });
              list?.focus({ preventScroll: true });
            };
            turnBanner.replaceChildren(h("a", { href: "#account-turns", onclick: toList }, t.acct.turnsWaiting(n)));
          },
        )),
  );
}

// ---------- tutorials ----------

/** The tutorial kept for the table of code `c` ({family, seen}), or null when it is not one. */
function tutorialAt(c) {
  try {
    return JSON.parse(localStorage.getItem(`oh7.tutorial.${c}`) || "null");
  } catch {
    return null;
  }
}

function keepTutorial(c, tut) {
  try {
    localStorage.setItem(`oh7.tutorial.${c}`, JSON.stringify(tut));
  } catch {
    // Not kept: the lessons start again after a reload.
  }
}

/** Whether this browser has never sat at a table nor taken a tutorial: the tutorials come first. */
function newcomer() {
  try {
    return !Object.keys(localStorage).some((k) => k.startsWith("oh7.token.") || k.startsWith("oh7.learned."));
  } catch {
    return true;
  }
}

/** The lesson a tutorial table needs now, or null (not a tutorial, or nothing new to say). */
function coachNow() {
  if (!code || solo || access !== "invite") return null;
  const tut = tutorialAt(code);
  if (!tut) return null;
  return lesson(S, tut.seen || [], S.lang, tableRules()?.[S.lang], (s) => seatName(ctx, s));
}

/** The lessons about a decision, read by taking it (web/coach.js's ids). */
const ACTED_ON = new Set(["specials", "pass", "bet", "rebet", "lead", "follow", "noFollow", "play", "actions", "wild", "draw", "penalty", "lock", "lastCard", "callout"]);

/** A lesson read: the next one comes; the last one ends the tutorial of the family. */
function readLesson(id, last, draw = true) {
  const tut = tutorialAt(code) || { seen: [] };
  tut.seen = [...new Set([...(tut.seen || []), id])];
  keepTutorial(code, tut);
  if (last) {
    try {
      localStorage.setItem(`oh7.learned.${familyOf(S.table)}`, "1");
    } catch {
      // The home page will not tick it.
    }
  }
  if (draw) render();
}

/** The coach's box at a tutorial table: the lesson, and what to press. */
function coachEl(l) {
  const w = coachWords(S.lang);
  const ok = l.last
    ? [
        h("button", { type: "button", class: "primary", "data-k": "coach-ok", onclick: () => readLesson(l.id, true) }, w.playOn),
        " ",
        h("a", { class: "button", href: "/", "data-k": "coach-home", onclick: () => readLesson(l.id, true) }, w.home),
      ]
    : h("button", { type: "button", "data-k": "coach-ok", onclick: () => readLesson(l.id, false) }, w.gotIt);
  return h("aside", { class: "coach", "aria-label": w.coach, "data-lesson": l.id }, h("p", { class: "coach-title" }, w.coach), h("p", { class: "coach-text" }, l.text), h("div", { class: "coach-actions" }, ok));
}

/** The home page's tutorials: one per family, each a table of its prepared deal against bots. */
function learnPanel(typedName) {
  const w = coachWords(S.lang);
  const error = h("p", { id: "learn-error", class: "form-error", role: "alert" });
  const learned = (f) => {
    try {
      return localStorage.getItem(`oh7.learned.${f}`) === "1";
    } catch {
      return false;
    }
  };
  const start = async (f, btn) => {
    error.textContent = "";
    btn.disabled = true;
    let r;
    let v;
    try {
      const body = tutorialBody(f, S.lang, typedName() || w.player);
      r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      v = await r.json().catch(() => ({ code: "bad_request" }));
    } catch {
      v = { code: "offline" };
    }
    btn.disabled = false;
    if (!r || !r.ok) {
      error.textContent = errorText(S.lang, v.code, v.params);
      error.focus?.();
      return;
    }
    keepToken(v.invite, v.token);
    keepTutorial(v.invite, { family: f, seen: [] });
    history.pushState({}, "", `/t/${v.invite}`);
    route();
  };
  return h(
    "section",
    { class: "panel learn", id: "learn", "aria-labelledby": "learn-title" },
    h("h2", { id: "learn-title" }, w.learn),
    h("p", { class: "help" }, w.learnHelp),
    h(
      "ul",
      { class: "learn-list" },
      ...FAMILIES.map((f) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", id: `learn-${f}`, class: "learn-btn", onclick: (e) => start(f, e.currentTarget) },
            h("strong", {}, w.titles[f]),
            learned(f) ? h("span", { class: "learned" }, ` ✓ ${w.learned}`) : null,
            h("small", {}, w.blurbs[f]),
          ),
        ),
      ),
    ),
    error,
  );
}

// ---------- play on this device ----------

/** Undo and the bots' pace, under a solo table. */
function soloControls() {
  const t = T();
  const pace = h("select", { id: "solo-pace" }, ...Object.keys(PACES).map((p) => h("option", { value: p }, t.solo.paces[p])));
  pace.value = paceName();
  pace.addEventListener("change", () => setPace(pace.value));
  return h(
    "div",
    { class: "solo-controls" },
    h("button", { type: "button", id: "undo-btn", title: t.solo.undoHelp, "aria-describedby": "undo-help", onclick: () => sock?.undo?.() }, t.solo.undo),
    h("small", { id: "undo-help", class: "sr-only" }, t.solo.undoHelp),
    h("label", {}, t.solo.pace, " ", pace),
  );
}

/** What a stored solo setup is, in words ("Kod-7, 4 players, bots: expert"). */
function setupWords(t, st) {
  if (!st) return "";
  const what = t.presets[st.preset ?? st.game] || st.preset || st.game;
  return `${what}, ${st.players} ${t.players.toLowerCase()}, ${t.botLevel(t.levels[st.level] || st.level)}`;
}

/** Download a record as the JSON file `oh7 replay`, `oh7 review` and `oh7 stats` read. */
function download(name, value) {
  // One line: a record file is JSON Lines, one record a line, as `oh7 replay` and `oh7 stats` read.
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value)}\n`], { type: "application/json" }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The home page's panel: a game against bots in this browser, the unfinished one, the history. */
function soloPanel() {
  const t = T();
  const panel = h("section", { class: "panel solo", id: "solo", "aria-labelledby": "solo-title" });
  const game = gameSelect({ id: "solo-game" });
  const preset = h("select", { id: "solo-preset" });
  const players = h("input", { id: "solo-players", type: "number", min: 2, max: 9, value: 4, inputmode: "numeric", "aria-describedby": "solo-players-help" });
  const playersHelp = h("small", { id: "solo-players-help", class: "help" });
  const level = h("select", { id: "solo-level" });
  const error = h("p", { id: "solo-error", class: "form-error", role: "alert" });
  const start = h("button", { type: "submit", id: "solo-start", class: "primary" }, t.solo.start);
  const resume = h("div", { class: "solo-resume", id: "solo-resume" });
  // Its heading and a line held from the start: the list comes from the worker (which may take
  // seconds to start on a slow phone) and must not push the account panel under a finger.
  const history = h("div", { class: "solo-history", id: "solo-history" }, h("h3", {}, t.solo.history), h("p", { class: "help" }, "\u00a0"));
  const entry = () => presetsOf(game.value).find((e) => e.preset === preset.value) || presetsOf(game.value)[0];
  const redraw = () => {
    fillPresets(preset, game.value);
    const e = entry();
    players.min = e.min_players;
    players.max = e.max_players;
    playersHelp.textContent = t.playersAllowed(e.min_players, e.max_players, !!e.ruleset?.dummy && e.min_players === 2);
    const levels = levelsOf(game.value);
    // What the person picked here (not what this form offered them) is kept across games.
    const was = level.dataset.picked || "";
    level.replaceChildren(...levels.map((l) => h("option", { value: l }, t.levels[l] || l)));
    // A newcomer (no level chosen on this device yet) is offered the weakest level above random:
    // the beginner in Oh 7, the heuristic in Seven (the tutorial's bots too).
    const chosen = localStorage.getItem("oh7.solo.level");
    level.value = levels.includes(was) ? was : levels.includes(chosen) ? chosen : levels.includes("beginner") ? "beginner" : levels[Math.min(1, levels.length - 1)];
  };
  game.addEventListener("change", redraw);
  preset.addEventListener("change", redraw);
  level.addEventListener("change", () => (level.dataset.picked = level.value));
  redraw();
  soloRedraw = redraw;
  const form = h(
    "form",
    { id: "solo-form", novalidate: true },
    h("label", {}, t.game, game),
    h("label", {}, t.preset, preset),
    h("label", {}, t.players, players, playersHelp),
    h("label", {}, t.solo.level, level),
    error,
    start,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    // A new game replaces the unfinished one: only when the person says so.
    if (unfinished && !confirm(t.solo.replaceAsk)) return;
    const setup = { game: game.value, players: Number(players.value), level: level.value, lang: S.lang };
    localStorage.setItem("oh7.solo.level", level.value);
    setup.preset = preset.value;
    start.disabled = true;
    start.textContent = t.solo.starting;
    const a = await newTable(setup);
    start.disabled = false;
    start.textContent = t.solo.start;
    if (a.refused || a.error) {
      error.textContent = a.refused ? errorText(S.lang, a.refused.code, a.refused.params || {}) : a.error;
      (a.refused?.code === "bad_players" ? players : error).focus?.();
      return;
    }
    location.hash = "#solo";
  });
  // The unfinished game and the finished ones, from the worker's storage.
  let unfinished = false;
  storedTable().then((a) => {
    if (!a || a.over) return;
    unfinished = true;
    resume.replaceChildren(
      h("a", { class: "button primary", id: "solo-resume-link", href: "#solo" }, t.solo.resume),
      " ",
      h("small", { class: "help" }, t.solo.resumeHelp(setupWords(t, a.setup))),
      " ",
      h("button", { type: "button", class: "link", id: "solo-abandon", onclick: () => askWorker("abandon").then(() => { unfinished = false; resume.replaceChildren(); }) }, t.solo.abandon),
    );
  });
  askWorker("history").then((list) => {
    if (!Array.isArray(list)) return;
    const when = (ms) => new Date(ms).toLocaleString(S.lang === "fr" ? "fr-FR" : "en-GB", { dateStyle: "short", timeStyle: "short" });
    const row = (e) => {
      const pts = (e.record?.totals || e.totals || []).join(" · ");
      const busy = h("span", { class: "help", role: "status" });
      return h(
        "li",
        {},
        t.solo.historyRow(setupWords(t, e.setup), when(e.when), pts),
        " ",
        h("button", { type: "button", class: "link", title: t.solo.exportHelp, onclick: () => download(`oh7-${e.id}.json`, e.record) }, t.solo.export),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "link",
            onclick: async () => {
              busy.textContent = t.solo.reviewing;
              const names = (e.record?.names || []).map(String);
              const r = await askWorker("reviewHistory", { id: e.id, names });
              busy.textContent = r.error || "";
              if (r.share) location.hash = `#solo-review/${encodeURIComponent(r.share)}`;
            },
          },
          t.solo.review,
        ),
        " ",
        busy,
      );
    };
    history.replaceChildren(h("h3", {}, t.solo.history), list.length ? h("ul", {}, ...list.map(row)) : h("p", { class: "help" }, t.solo.historyNone));
  });
  const install = h("div", { id: "solo-install" }, installPrompt ? installButton() : null);
  panel.append(h("h2", { id: "solo-title" }, t.solo.title), h("p", { class: "help" }, t.solo.help), resume, form, install, history);
  return panel;
}

/** The browser's install prompt, behind a button (shown once the browser offers it). */
function installButton() {
  const b = h(
    "button",
    {
      type: "button",
      id: "install-btn",
      onclick: async () => {
        const p = installPrompt;
        installPrompt = null;
        b.remove();
        await p?.prompt();
      },
    },
    T().solo.install,
  );
  return b;
}

/** A name field says, as it is typed, when the name is longer than a name may be (a pasted
 * name is not cut short without a word; the server refuses it with its own sentence too). */
function nameLimit(input, help, plain = T().nameHelp) {
  const MAX = 24;
  input.addEventListener("input", () => {
    const n = [...input.value].length;
    const over = n > MAX;
    help.textContent = over ? T().nameTooLong(n, MAX) : plain;
    help.classList.toggle("warn", over);
    input.setAttribute("aria-invalid", over ? "true" : "false");
  });
}

// ---------- the table page: built once, updated in place ----------

function tablePage() {
  const t = T();
  const details = h("details", { class: "rules", id: "rules" }, h("summary", {}, t.rules), h("div", { class: "rules-body" }));
  return h(
    "div",
    { class: "table-page" },
    h(
      "header",
      { class: "bar" },
      h("h1", {}, h("a", { href: "/", title: t.back }, "oh7"), h("span", { class: "title-preset" })),
      h("span", { class: "status", role: "status" }),
      h("span", { class: "watching" }),
      langSwitch(),
      // The settings sit off the table, in a menu of the bar.
      h("details", { class: "settings", id: "settings" }, h("summary", { "data-k": "settings" }, h("span", { "aria-hidden": "true" }, "⚙"), h("span", { class: "settings-label" }, ` ${t.settings}`)), h("div", { class: "alerts-area" })),
      h("div", { class: "facts" }),
      details,
    ),
    h(
      "main",
      { id: "content" },
      h("div", { class: "notices", "aria-live": "polite" }),
      h("section", { class: "lobby-area", "aria-label": t.seatsTitle }),
      h("section", { class: "game-area", "aria-label": t.gameOh7 }),
      h("div", { class: "solo-area" }),
      h("div", { class: "notes-area" }),
      h("div", { class: "links-area" }),
    ),
    solo ? null : chatPanel(),
  );
}

function updateTablePage(app) {
  const t = T();
  const tbl = S.table;
  const q = (sel) => app.querySelector(sel);
  region(q(".title-preset"), JSON.stringify([S.lang, tbl?.game, tbl?.preset]), () => (tbl ? ` ${tableName()}` : ""));
  const status = q(".status");
  const up = S.connected && !S.closing;
  status.className = `status ${up ? "ok" : "down"}`;
  const said = solo ? (up ? t.solo.badge : t.solo.noGame) : up ? t.connected : t.reconnecting;
  if (status.textContent !== said) status.textContent = said;
  // An invite opened in the lobby is a seat about to be taken, not a spectator.
  const aboutToSit = access === "invite" && tbl?.state === "lobby";
  region(q(".watching"), JSON.stringify([S.lang, S.you, !!tbl, aboutToSit]), () => (tbl && S.you === null && !aboutToSit ? h("span", { class: "badge watch" }, t.watchingBadge) : null));
  const summary = tbl ? tableRules()?.[S.lang] : null;
  // The table's facts, and whether it is rated, at the top where everyone sees them first.
  region(q(".facts"), JSON.stringify([S.lang, !!summary, !!tbl?.rated]), () => [
    tbl?.rated ? h("span", { class: "fact rated" }, t.acct.rated) : null,
    ...(summary?.facts || []).map((f) => h("span", { class: "fact" }, f)),
  ]);
  region(q(".rules-body"), JSON.stringify([S.lang, !!summary]), () => {
    if (!summary) return h("p", { role: "status" }, t.rulesLoading);
    const section = (title, items) => h("section", {}, h("h2", {}, title), h("ul", {}, ...items.map((x) => h("li", {}, x))));
    return [
      ...summary.sections.filter((sec) => sec.items.length).map((sec, i) => section(i === 0 ? summary.title : sec.title, sec.items)),
      section(t.onScreen, t.signs[gameOf(S)](terms(tbl.preset, S.lang))),
    ];
  });
  renderNotices(q(".notices"));
  const lobbyArea = q(".lobby-area");
  const gameArea = q(".game-area");
  if (!tbl) {
    region(lobbyArea, "none", () => null);
    return;
  }
  if (tbl.state === "lobby") {
    gameArea.hidden = true;
    lobbyArea.hidden = false;
    renderLobby(lobbyArea);
  } else {
    lobbyArea.hidden = true;
    gameArea.hidden = false;
    if (tbl.state === "over") fetchStats();
    renderGame(gameArea, ctx);
    region(part(gameArea, "watch-note"), JSON.stringify([S.lang, S.you, access, tbl.state]), () =>
      S.you === null && access === "invite" && tbl.state === "playing" ? h("p", { class: "note" }, t.startedWatching) : null,
    );
  }
  region(q(".alerts-area"), JSON.stringify([S.lang, S.you, tbl.state]), () => (S.you !== null && tbl.state !== "over" ? alertsEl() : null));
  q(".settings").hidden = !(S.you !== null && tbl.state !== "over");
  region(q(".notes-area"), JSON.stringify([S.lang, S.you, tbl.state, tbl.turn_clock_s, tbl.move_deadline_s, tbl.rated]), () => (S.you !== null && tbl.state !== "over" ? tableNotesEl() : null));
  region(q(".solo-area"), JSON.stringify([S.lang, solo, tbl.state]), () => (solo && tbl.state === "playing" ? soloControls() : null));
  region(q(".links-area"), JSON.stringify([S.lang, S.links, S.you, tbl.state, solo]), () =>
    tbl.state === "lobby" || solo ? null : h("details", { class: "links-more" }, h("summary", {}, S.links?.invite ? T().links : T().linksWatch), linksEl()),
  );
  renderChat(app);
}

function renderNotices(el) {
  region(el, JSON.stringify([S.lang, S.notices.map((n) => n.n)]), () =>
    S.notices.map((n) => h("p", { class: "notice", role: "alert" }, errorText(S.lang, n.code, n.params), " ", h("button", { type: "button", class: "link", "aria-label": T().dismiss, onclick: () => dispatch({ type: "local/dismiss-notice", n: n.n }) }, "×"))),
  );
  for (const n of S.notices) {
    if (noticeTimers.has(n.n)) continue;
    noticeTimers.set(
      n.n,
      setTimeout(() => {
        noticeTimers.delete(n.n);
        dispatch({ type: "local/dismiss-notice", n: n.n });
      }, NOTICE_MS),
    );
  }
}

// The table's rules summary in both languages, as the server generates it from the table's
// ruleset for its player count (oh7_core::rules_summary, the terminal's words): asked for once
// per table, again a few seconds after a failure.
let rulesOf = { code: null, body: null };
function tableRules() {
  if (!code) return null;
  if (rulesOf.code !== code) {
    const want = code;
    rulesOf = { code: want, body: null };
    const c = S.links?.watch || code;
    (solo ? askWorker("rules").then((b) => (b && !b.error ? b : Promise.reject(new Error("no table")))) : fetch(`${serverBase()}/api/tables/${c}/rules`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status))))))
      .then((body) => {
        if (rulesOf.code !== want) return;
        rulesOf.body = body;
        render();
      })
      .catch(() =>
        setTimeout(() => {
          if (rulesOf.code === want && !rulesOf.body) rulesOf.code = null;
        }, 5000),
      );
  }
  return rulesOf.body;
}

function fetchStats() {
  const key = `${code}:${S.table.game_number}`;
  if (statsFor === key) return;
  statsFor = key;
  stats = null;
  const c = S.links?.watch || code;
  // From the server that plays the table (this page's own server may be the one that stopped).
  (solo ? askWorker("stats").then((v) => (v?.error ? null : v)) : fetch(`${serverBase()}/api/tables/${c}/stats`)
    .then((r) => (r.ok ? r.json() : null)))
    .then((v) => {
      if (statsFor === key && v) {
        stats = v;
        render();
      }
    })
    .catch(() => {});
}

// ---------- the lobby ----------

function renderLobby(area) {
  const t = T();
  const tbl = S.table;
  // The links are for whoever holds a seat (a visitor about to sit has the invite already).
  region(part(area, "lobby-links"), JSON.stringify([S.lang, S.links, S.you]), () => (S.you === null ? null : linksEl()));
  const seatsEl = part(area, "lobby-seats");
  const sitEl = part(area, "lobby-sit");
  const startEl = part(area, "lobby-start");
  const people = tbl.seats.filter((s) => s.name).length;
  region(seatsEl, JSON.stringify([S.lang, tbl.seats, S.you]), () => [
    h("h2", { id: "seats-h" }, t.seatsTitle),
    h("p", {}, t.joined(people, tbl.players)),
    h("ul", { class: "seat-list" }, ...tbl.seats.map((s) => seatRow(s))),
  ]);
  const free = tbl.seats.some((s) => s.status === "empty");
  // The sit form is made once and kept: a name being typed survives others joining.
  const showSit = S.you === null && access === "invite" && free;
  if (showSit && !sitEl.firstChild) {
    const name = h("input", { id: "sit-name", autocomplete: "nickname", "aria-label": t.yourName, placeholder: t.yourName, "aria-describedby": "sit-name-help" });
    const sitHelp = h("small", { id: "sit-name-help", class: "help" });
    nameLimit(name, sitHelp, "");
    sitEl.append(
      h(
        "form",
        {
          class: "sit",
          onsubmit: (e) => {
            e.preventDefault();
            sendCommand("sit", { name: name.value });
          },
        },
        name,
        h("button", { type: "submit", id: "sit-btn", class: "primary" }, t.takeSeat),
        sitHelp,
      ),
    );
    // Signed in: the account's name is offered (a name typed meanwhile stays). A rated table
    // seats only accounts: a guest is told so before asking, and signs in or up right here.
    call("GET", "/api/account").then((r) => {
      if (r.ok && !name.value) name.value = r.body.name;
      // Just signed in or up here to sit at a rated table: take the seat as asked.
      if (r.ok && sitAfterSignIn === code) {
        sitAfterSignIn = null;
        sitWhenConnected(name.value);
      }
      if (!r.ok && S.table?.rated) {
        sitHelp.textContent = T().ratedSignIn;
        // A guest cannot sit here: no name to type nor a button to press until signed in, and
        // no line saying accounts are optional.
        name.hidden = true;
        sitEl.querySelector("#sit-btn").hidden = true;
        // Signed in, the table is opened again: the connection then carries the account, and
        // the seat is taken with the account's name.
        const panel = accountPanel(T(), (c, p) => errorText(S.lang, c, p), () => {
          sitAfterSignIn = code;
          route();
        });
        panel.classList.add("sit-account");
        sitEl.append(panel);
      }
    });
  }
  sitEl.hidden = !showSit;
  region(part(area, "lobby-note", "p"), JSON.stringify([S.lang, S.you, free]), () => (S.you === null ? (free ? (access === "invite" ? "" : t.watching) : t.full) : S.you !== 0 ? t.waitingHost : ""));
  region(part(area, "open-note", "p"), JSON.stringify([S.lang, !!tbl.open]), () => (tbl.open ? t.openListed : ""));
  if (S.you === 0) {
    if (!startEl.firstChild) {
      const levels = levelsOf(gameOf(S));
      const fill = h("select", { id: "fill" }, ...levels.map((l) => h("option", { value: l }, t.fillBots(t.levels[l] || l))));
      fill.value = levels[levels.length - 1];
      startEl.append(
        h("label", { class: "fill-label" }, t.fillWith, fill),
        h("button", { type: "button", id: "start-btn", class: "primary", onclick: () => sendCommand("start", S.table.seats.some((s) => s.status === "empty") ? { fill: fill.value } : {}) }, t.start),
      );
    }
    startEl.querySelector(".fill-label").hidden = !free;
    startEl.hidden = false;
  } else {
    startEl.hidden = true;
  }
}

// The table where a person just signed in or up to take a seat (a rated table's sit form).
let sitAfterSignIn = null;

/** Take a seat once the table's connection is up (a few seconds at most). */
function sitWhenConnected(name, tries = 40) {
  if (S.you !== null) return;
  if (S.connected && S.table) {
    sendCommand("sit", { name });
    return;
  }
  if (tries > 0) setTimeout(() => sitWhenConnected(name, tries - 1), 150);
}

function levelsOf(game) {
  return catalogue().levels[game] || FALLBACK.levels[game];
}

function seatRow(s) {
  const t = T();
  const you = s.seat === S.you;
  const label = s.name || s.bot ? h("span", { class: "nm" }, seatName(ctx, s.seat)) : null;
  const status = h("span", { class: `badge ${s.status}` }, t.statuses[s.status] || s.status);
  const bits = [h("span", { class: "seat-no" }, t.seatSetting(s.seat)), label, you ? ` (${t.you})` : null, s.seat === 0 ? h("span", { class: "badge host" }, t.host) : null, status];
  // The host turns any seat no person holds into a bot seat, or back into a free seat.
  if (S.you === 0 && s.seat !== 0 && !s.name) {
    const levels = levelsOf(gameOf(S));
    const sel = h(
      "select",
      {
        "data-k": `seat:${s.seat}`,
        "aria-label": t.seatSetting(s.seat),
        onchange: (e) => sendCommand("seat", { seat: s.seat, bot: e.target.value === "human" ? null : e.target.value }),
      },
      h("option", { value: "human" }, t.freeSeat),
      ...levels.map((l) => h("option", { value: l }, t.botLevel(t.levels[l] || l))),
    );
    sel.value = s.bot || "human";
    bits.push(sel);
  }
  return h("li", { class: you ? "me" : null }, ...bits);
}

// ---------- links ----------

function linkRow(id, label, url, help) {
  const t = T();
  const input = h("input", { id, value: url, readonly: true, "aria-label": label, "data-k": id });
  const btn = h(
    "button",
    {
      type: "button",
      "data-k": `${id}-copy`,
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(url);
        } catch {
          input.select();
          document.execCommand("copy");
        }
        btn.textContent = t.copied;
        setTimeout(() => (btn.textContent = t.copy), 2000);
      },
    },
    t.copy,
  );
  return h("div", { class: "link-row" }, h("label", { for: id }, label), h("div", { class: "link-line" }, input, btn), help ? h("small", { class: "help" }, help) : null);
}

function linksEl() {
  if (!S.links) return null;
  const t = T();
  const base = location.origin;
  const rows = [];
  if (S.links.invite) rows.push(linkRow("invite-link", t.invite, `${base}/t/${S.links.invite}`));
  rows.push(linkRow("watch-link", t.watchLink, `${base}/w/${S.links.watch}`));
  const token = S.you !== null && S.links.invite ? tokenFor(code) : null;
  const out = [h("div", { class: "links panel" }, ...rows)];
  if (token) {
    // The seat's secret travels in the fragment, which browsers never send to a server.
    out.push(h("details", { class: "seat-link panel" }, h("summary", {}, t.seatLink), linkRow("seat-link", t.seatLink, `${base}/t/${S.links.invite}#seat=${token}`, t.seatLinkHelp)));
  }
  return out;
}

// ---------- chat: made once; its input is never redrawn ----------

function chatPanel() {
  const t = T();
  const list = h("ul", { class: "chat-list", "aria-live": "polite" });
  const input = h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", "aria-label": t.chatLabel });
  const form = h(
    "form",
    {
      class: "chat-form",
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text || chatWaiting) return;
        // One line a second: a quick second line waits its turn instead of being refused.
        const wait = Math.max(0, lastChatAt + 1100 - Date.now());
        setTimeout(() => {
          lastChatAt = Date.now();
          const id = sendCommand("chat", { text });
          if (id) chatWaiting = { id, text: input.value };
        }, wait);
      },
    },
    input,
    h("button", { type: "submit", id: "chat-send" }, t.send),
  );
  const close = h("button", { type: "button", id: "chat-close", class: "link chat-close", "aria-label": t.chatClose, onclick: () => setChat(false) }, "×");
  const people = h("div", { class: "people", id: "people" });
  return h("aside", { class: "chat panel", id: "chat", "aria-labelledby": "chat-h" }, h("h2", { id: "chat-h" }, t.chat, close), people, list, form);
}

// ---------- the people at the table: mute, block, report (people.js, loaded with the chat) ----------

let people = null;
let peopleAsked = false;

/** Load the people menus once a table's chat is drawn. */
function askPeople() {
  if (peopleAsked) return;
  peopleAsked = true;
  import("./people.js")
    .then((m) => {
      people = m;
      render();
    })
    .catch(() => {
      peopleAsked = false;
    });
}

function setChat(open) {
  chatOpen = open;
  render();
  if (open) document.getElementById(S.you === null ? "chat-close" : "chat-input")?.focus();
  else document.getElementById("chat-toggle")?.focus();
}

/** The lines of others not seen yet: all that came while the chat sheet was closed on a phone. */
function chatUnread() {
  if (wide() || chatOpen) {
    chatSeen = S.chat.at(-1) ?? null;
    return 0;
  }
  if (chatSeen === undefined) {
    chatSeen = S.chat.at(-1) ?? null;
    return 0;
  }
  // After the last line seen (all the kept lines when it was cut from the front); a snapshot's
  // lines are new objects, so they are compared by what they say.
  const key = JSON.stringify(chatSeen);
  const from = chatSeen === null ? 0 : S.chat.findLastIndex((c) => JSON.stringify(c) === key) + 1;
  return S.chat.slice(from).filter((c) => c.seat !== S.you).length;
}

function renderChat(app) {
  // Nobody to chat with at a solo table.
  if (!app.querySelector(".chat")) return;
  const list = app.querySelector(".chat-list");
  const form = app.querySelector(".chat-form");
  form.hidden = S.you === null;
  const panel = app.querySelector(".chat");
  panel.classList.toggle("open", chatOpen);
  const unread = chatUnread();
  let toggle = app.querySelector("#chat-toggle");
  if (!toggle) {
    toggle = h("button", { type: "button", id: "chat-toggle", class: "chat-toggle", "aria-controls": "chat", onclick: () => setChat(!chatOpen) });
    // In the page's top bar, where it covers nothing (a button fixed over the page hid the last
    // cards of a phone's hand).
    const bar = app.querySelector(".table-page > .bar");
    bar.insertBefore(toggle, bar.querySelector(".watching"));
  }
  region(toggle, JSON.stringify([S.lang, unread]), () => [T().chat, unread ? h("span", { class: "unread", "aria-hidden": "true" }, String(unread)) : null]);
  toggle.setAttribute("aria-label", T().chatOpen(unread));
  toggle.setAttribute("aria-expanded", String(chatOpen));
  if (people) people.peopleMenus(app.querySelector("#people"), S, code, render);
  else askPeople();
  // A muted person's lines are not shown here.
  const muted = people ? people.mutedNames() : new Set();
  const want = muted.size ? S.chat.filter((c) => !muted.has(c.name)) : S.chat;
  // Append what is new; redraw only when the kept lines were cut from the front.
  const shown = list.__shown || [];
  const prefix = shown.length <= want.length && shown.every((e, i) => e === want[i]);
  if (!prefix) {
    list.replaceChildren();
    list.__shown = [];
  }
  const have = list.__shown?.length ?? 0;
  for (const c of want.slice(have)) list.append(h("li", {}, h("strong", {}, c.name), ": ", c.text));
  list.__shown = want;
  if (want.length > have) list.scrollTop = list.scrollHeight;
}

// ---------- start ----------

function route() {
  if (sock) {
    sock.close();
    sock = null;
  }
  const lang = S.lang;
  S = { ...initial(), lang };
  chatOpen = false;
  chatSeen = undefined;
  stats = null;
  statsFor = null;
  reviewMod?.leaveReview();
  reviewCode = null;
  playerName = null;
  solo = false;
  const lr = /^#solo-review\/([^/]{1,128})$/.exec(location.hash);
  const pm = /^\/p\/([^/]{1,200})$/.exec(location.pathname);
  const rv = /^\/(review|replay)\/([^/]{1,128})$/.exec(location.pathname);
  const m = /^\/(t|w)\/([0-9a-f]{32})$/.exec(location.pathname);
  if (location.hash === "#solo") {
    // A solo table on this device: the worker restores it and sends its snapshot.
    code = "solo";
    access = "invite";
    solo = true;
    sock = connectLocal(onMessage);
  } else if (lr) {
    code = null;
    access = null;
    replay = false;
    reviewCode = decodeURIComponent(lr[1]);
  } else if (pm) {
    code = null;
    access = null;
    try {
      playerName = decodeURIComponent(pm[1]);
    } catch {
      playerName = pm[1];
    }
  } else if (rv) {
    // A review's share link: the page reads it over HTTP, no table connection.
    code = null;
    access = null;
    replay = rv[1] === "replay";
    try {
      reviewCode = decodeURIComponent(rv[2]);
    } catch {
      reviewCode = rv[2];
    }
  } else if (m) {
    code = m[2];
    access = m[1] === "t" ? "invite" : "watch";
    // A seat link from another device: keep its token here, then take it out of the address bar.
    const f = /^#seat=([0-9a-f]{16,128})$/.exec(location.hash);
    if (f && access === "invite") {
      keepToken(code, f[1]);
      history.replaceState({}, "", location.pathname);
    }
    sock = connect(code, access, onMessage, () => dispatch({ type: "local/disconnected" }));
  } else {
    code = null;
    access = null;
  }
  document.getElementById("app").__page = null;
  render();
}

// The settings menu closes on a click or a tap elsewhere, and on Escape (focus back on its button).
document.addEventListener("click", (e) => {
  const menu = document.getElementById("settings");
  if (menu?.open && !menu.contains(e.target)) menu.open = false;
});
document.addEventListener("keydown", (e) => {
  const menu = document.getElementById("settings");
  if (e.key === "Escape" && menu?.open) {
    menu.open = false;
    menu.querySelector("summary")?.focus();
  }
});

window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
// Leaving the page (a link such as the review's, the back button, a closed tab), even into the
// back/forward cache: the connection goes now, so the others see the seat away at once and a
// bot can play for it; coming back from that cache connects again (the snapshot catches up).
window.addEventListener("pagehide", () => {
  if (!sock) return;
  sock.close();
  sock = null;
  dispatch({ type: "local/disconnected" });
});
window.addEventListener("pageshow", (e) => {
  if (!e.persisted) return;
  if (code && !sock) sock = solo ? connectLocal(onMessage) : connect(code, access, onMessage, () => dispatch({ type: "local/disconnected" }));
  // The home page back from that cache (Back after a move at a table opened by its link) is
  // drawn again, so its lists (whose turn it is) are asked anew, not shown as they were.
  else if (!code && !reviewCode && !playerName) route();
});
document.addEventListener("keydown", (e) => {
  if (reviewCode) {
    reviewMod?.reviewKeys(e);
    return;
  }
  if (handKeys(e)) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (e.key === "Escape" && S.summary) dispatch({ type: "local/dismiss-summary" });
  if ((e.key === " " || e.key === "Escape") && S.completed && tag !== "BUTTON") {
    e.preventDefault();
    dispatch({ type: "local/dismiss-trick" });
  }
  // Digits 1-9 play the n-th playable card of the hand.
  const n = Number(e.key);
  if (n >= 1 && n <= 9) {
    const cards = [...document.querySelectorAll(".hand .card.legal")];
    if (cards[n - 1]) cards[n - 1].click();
  }
});
// For the browser tests: a read-only look at what the page knows.
window.oh7State = () =>
  JSON.parse(JSON.stringify({ version: S.version, you: S.you, table: S.table, view: S.view, legal: S.legal, links: S.links, connected: S.connected, pending: S.pending, choice: S.choice, completed: S.completed, summary: S.summary, notices: S.notices, review: S.review, chat: S.chat }));
route();
// The app shell, the WebAssembly and the models cached for offline play (sw.js). A new version
// is cached whole beside the old one; this page offers to switch, and reloads once it has (a
// page is never half old, half new).
function offerUpdate(waiting) {
  if (document.getElementById("update")) return;
  const t = T();
  const bar = h(
    "div",
    { id: "update", class: "update-bar", role: "status" },
    t.updateReady,
    " ",
    h("button", { type: "button", id: "update-btn", onclick: () => {
      switching = true;
      waiting.postMessage("take-over");
    } }, t.updateReload),
  );
  document.body.prepend(bar);
}
if ("serviceWorker" in navigator && (location.protocol === "https:" || location.hostname === "localhost" || location.hostname === "127.0.0.1")) {
  navigator.serviceWorker
    .register(new URL("./sw.js", import.meta.url))
    .then((reg) => {
      const offer = () => {
        if (reg.waiting && navigator.serviceWorker.controller) offerUpdate(reg.waiting);
      };
      offer();
      reg.addEventListener("updatefound", () => reg.installing?.addEventListener("statechange", offer));
    })
    .catch(() => {});
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (switching) location.reload();
  });
}
window.addEventListener("beforeinstallprompt", (e) => {
  e.preventDefault();
  installPrompt = e;
  // Offered in place on the home page (nothing else redrawn: what was typed stays).
  const spot = document.getElementById("solo-install");
  if (spot) spot.replaceChildren(installButton());
});
window.addEventListener("appinstalled", () => {
  installPrompt = null;
});
