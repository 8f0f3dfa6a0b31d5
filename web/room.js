// The public room on the home page: the open tables (asked again every few seconds while the
// page shows them) and quick match for the signed-in (join, wait, be seated). The words and the
// rows are pure functions of the server's bodies (tested with node); the panel draws them.

import { call } from "./api.js";
import { h } from "./dom.js";
import { rulesName } from "./player.js";
import { TEXT } from "./i18n.js";

/** The panel's words (kept here, not in i18n.js: the home page loads them after itself). */
export const ROOM_TEXT = {
  en: {
    title: "Play with strangers",
    intro: "Join a table that waits for players, or let quick match seat you with people of your level.",
    openTitle: "Open tables",
    none: "No table is waiting for players right now.",
    join: "Join",
    host: (n) => `Host: ${n}`,
    hostRating: (r) => `rating ${r}`,
    seatsFree: (f, n) => `${f} of ${n} seats free`,
    live: "live",
    turnBased: (hrs) => `turn-based (${hrs} h a move)`,
    rated: "rated",
    lang: { en: "in English", fr: "in French" },
    quickTitle: "Quick match",
    signIn: "Sign in (below) to be matched with players of your rating.",
    family: "Rules",
    mode: "Pace",
    botsLabel: "If nobody comes",
    botsNever: "keep waiting",
    botsAfter: (s) => (s < 60 ? `bots after ${s} s` : `bots after ${s / 60} min`),
    botsIn: (s) => `bots fill the seats in ${s} s`,
    ratedBox: "Rated",
    play: "Play now",
    leave: "Leave the queue",
    waiting: (f, s) => `Looking for players (${f}): ${s} s`,
    range: (r) => `Players within ${r} rating points`,
    matched: "Matched: opening your table…",
  },
  fr: {
    title: "Jouer avec des inconnus",
    intro: "Rejoignez une table qui attend des joueurs, ou laissez la partie rapide vous placer avec des joueurs de votre niveau.",
    openTitle: "Tables ouvertes",
    none: "Aucune table n'attend de joueurs pour l'instant.",
    join: "Rejoindre",
    host: (n) => `Hôte : ${n}`,
    hostRating: (r) => `classement ${r}`,
    seatsFree: (f, n) => `${f} place${f > 1 ? "s" : ""} libre${f > 1 ? "s" : ""} sur ${n}`,
    live: "en direct",
    turnBased: (hrs) => `tour par tour (${hrs} h par coup)`,
    rated: "classée",
    lang: { en: "en anglais", fr: "en français" },
    quickTitle: "Partie rapide",
    signIn: "Connectez-vous (plus bas) pour être placé avec des joueurs de votre classement.",
    family: "Règles",
    mode: "Rythme",
    botsLabel: "Si personne ne vient",
    botsNever: "attendre encore",
    botsAfter: (s) => (s < 60 ? `robots après ${s} s` : `robots après ${s / 60} min`),
    botsIn: (s) => `des robots prennent les places dans ${s} s`,
    ratedBox: "Classée",
    play: "Jouer maintenant",
    leave: "Quitter la file",
    waiting: (f, s) => `Recherche de joueurs (${f}) : ${s} s`,
    range: (r) => `Joueurs à ${r} points de classement au plus`,
    matched: "Partie trouvée : ouverture de votre table…",
  },
};

/** The panel's words in the language of the page's texts `t`. */
const wordsOf = (t) => (t === TEXT.fr ? ROOM_TEXT.fr : ROOM_TEXT.en);

/** The families quick match offers, as the server names them. */
export const MATCH_FAMILIES = ["oh7:en", "oh7:fr", "oh7:fr-advanced", "oh7:kod7", "oh7:bga", "seven"];

/** How often the open tables are asked again, and the queue while waiting (ms). */
export const LIST_EVERY_MS = 5000;
export const MATCH_EVERY_MS = 1500;

/** Pure: one open table of `GET /api/open-tables` as its row's words. */
export function openRow(t, x) {
  const r = wordsOf(t);
  const title = rulesName(t, x.game === x.preset ? x.preset : `${x.game}:${x.preset}`);
  const facts = [
    r.seatsFree(x.seats_free, x.players),
    x.move_hours ? r.turnBased(x.move_hours) : r.live,
    x.rated ? r.rated : null,
    r.lang[x.lang] || x.lang,
  ].filter(Boolean);
  const host = x.people[0] || "";
  const rating = typeof x.host_rating === "number" ? r.hostRating(Math.round(x.host_rating)) : null;
  return { key: x.watch, title, facts, host, rating, others: x.people.slice(1) };
}

/** Pure: what the quick-match panel says for a state of `GET /api/match`. */
export function matchWords(t, s) {
  const r = wordsOf(t);
  if (!s || s.state === "idle") return { waiting: false, line: "" };
  if (s.state === "matched") return { waiting: false, line: r.matched, invite: s.invite };
  return {
    waiting: true,
    line: r.waiting(rulesName(t, s.family), s.waited_s),
    range: r.range(Math.round(s.range)),
    bots: s.bots_after_s === undefined ? r.botsNever : r.botsIn(Math.max(0, s.bots_after_s - s.waited_s)),
  };
}

/**
 * The panel: `t` the page's texts, `words(code, params)` a refusal in the page's language,
 * `go(invite, sit)` opens a table (and, `sit`, takes a free seat there).
 */
export function roomPanel(t, words, go) {
  const r = wordsOf(t);
  const panel = h("section", { id: "room", class: "panel", "aria-labelledby": "room-title" });
  const list = h("ul", { id: "open-tables", class: "open-tables", "aria-live": "polite" });
  const empty = h("p", { id: "open-empty", class: "help" }, r.none);
  const error = h("p", { id: "room-error", class: "form-error", role: "alert" });
  const quick = h("div", { id: "quick-match" });
  panel.append(h("h2", { id: "room-title" }, r.title), h("p", { class: "help" }, r.intro), quick, h("h3", {}, r.openTitle), empty, list, error);

  let shown = "";
  const drawList = (tables) => {
    const key = JSON.stringify(tables);
    if (key === shown) return; // nothing changed: focus and scroll stay
    shown = key;
    empty.hidden = tables.length > 0;
    list.replaceChildren(
      ...tables.map((x) => {
        const row = openRow(t, x);
        const join = h("button", { type: "button", class: "small", "data-watch": x.watch }, r.join);
        join.addEventListener("click", async () => {
          error.textContent = "";
          join.disabled = true;
          const a = await call("POST", `/api/open-tables/${x.watch}/join`);
          join.disabled = false;
          if (!a.ok) {
            error.textContent = words(a.body.code, a.body.params);
            refresh();
            return;
          }
          go(a.body.invite, true);
        });
        return h(
          "li",
          { "data-k": row.key },
          h("span", { class: "open-title" }, row.title),
          h("span", { class: "open-host" }, r.host(row.host), row.rating ? ` (${row.rating})` : "", row.others.length ? ` · ${row.others.join(", ")}` : ""),
          h("span", { class: "open-facts" }, row.facts.join(" · ")),
          join,
        );
      }),
    );
  };
  let timer = null;
  const refresh = async () => {
    if (!panel.isConnected && timer) {
      clearInterval(timer);
      timer = null;
      return;
    }
    const a = await call("GET", "/api/open-tables");
    if (a.ok) drawList(a.body.tables || []);
  };
  refresh();
  timer = setInterval(refresh, LIST_EVERY_MS);

  // Quick match: signed out, a line; signed in, the form, or the wait.
  let polling = null;
  const family = h("select", { id: "match-family" }, ...MATCH_FAMILIES.map((f) => h("option", { value: f }, rulesName(t, f))));
  const mode = h("select", { id: "match-mode" }, h("option", { value: "live" }, r.live), h("option", { value: "turn" }, r.turnBased(24)));
  const rated = h("input", { id: "match-rated", type: "checkbox", checked: true });
  const bots = h("select", { id: "match-bots" }, h("option", { value: "" }, r.botsNever), ...[30, 60, 120, 300].map((s) => h("option", { value: String(s) }, r.botsAfter(s))));
  bots.value = "60";
  const form = h("form", { id: "match-form", class: "match-form" });
  form.append(
    h("label", {}, r.family, family),
    h("label", {}, r.mode, mode),
    h("label", {}, r.botsLabel, bots),
    h("label", { class: "check" }, rated, r.ratedBox),
    h("button", { type: "submit", id: "match-btn", class: "primary" }, r.play),
  );
  const status = h("p", { id: "match-status", role: "status" });
  const leave = h("button", { type: "button", id: "match-leave" }, r.leave);
  const showState = (s) => {
    const w = matchWords(t, s);
    if (w.invite) {
      stop();
      go(w.invite, false);
      return;
    }
    if (w.waiting) {
      quick.replaceChildren(h("h3", {}, r.quickTitle), status, h("p", { class: "help", id: "match-range" }, w.range, " · ", w.bots), leave);
      status.textContent = w.line;
      if (!polling) polling = setInterval(ask, MATCH_EVERY_MS);
      return;
    }
    stop();
    quick.replaceChildren(h("h3", {}, r.quickTitle), form);
  };
  const stop = () => {
    if (polling) clearInterval(polling);
    polling = null;
  };
  const ask = async () => {
    if (!panel.isConnected) return stop();
    const a = await call("GET", "/api/match");
    if (a.status === 401) {
      stop();
      quick.replaceChildren(h("h3", {}, r.quickTitle), h("p", { class: "help", id: "match-signin" }, r.signIn));
      return;
    }
    if (a.ok) showState(a.body);
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const body = { family: family.value, turn_based: mode.value === "turn", rated: rated.checked };
    if (bots.value) body.bots_after_s = Number(bots.value);
    const a = await call("POST", "/api/match", body);
    if (!a.ok) {
      error.textContent = words(a.body.code, a.body.params);
      return;
    }
    showState(a.body);
  });
  leave.addEventListener("click", async () => {
    const a = await call("DELETE", "/api/match");
    if (a.ok) showState(a.body);
  });
  // Once the panel is on the page (it is drawn before it is placed).
  setTimeout(ask, 0);
  // Signing in or out redraws the account panel; it tells this one to ask again.
  panel.addEventListener("account-changed", ask);
  return panel;
}
