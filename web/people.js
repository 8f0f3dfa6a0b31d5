// The people at a table, beside its chat: a menu for each other person (mute their chat on this
// browser, block them by their seat's account, report them with their last lines). Imported by
// the table page once its chat is drawn: not part of the first load.

import { call } from "./api.js";
import { h, region } from "./dom.js";
import { errorText } from "./i18n.js";

/** The words, in English and French. */
export const PEOPLE_TEXT = {
  en: {
    mute: "Mute their chat",
    unmute: "Show their chat",
    mutedMark: "muted",
    block: "Block",
    blocked: (n) => `You blocked ${n}: quick match never seats you together, and their open tables are hidden from you.`,
    why: "What happened?",
    report: "Report",
    reported: "Reported: the server's operator reads it with this table and their last lines.",
    guest: "This person plays as a guest: mute them here; only an account can be blocked.",
    signIn: "Sign in (on the home page) to block or report.",
    hint: "Choose a name to mute, block or report them.",
    unblock: "Unblock",
    blockedMark: "blocked",
    unblocked: (n) => `You no longer block ${n}.`,
  },
  fr: {
    mute: "Masquer ses messages",
    unmute: "Afficher ses messages",
    mutedMark: "masqué",
    block: "Bloquer",
    blocked: (n) => `Vous avez bloqué ${n} : la partie rapide ne vous place jamais ensemble, et ses tables ouvertes vous sont cachées.`,
    why: "Que s'est-il passé ?",
    report: "Signaler",
    reported: "Signalé : l'administrateur du serveur le lit avec cette table et ses derniers messages.",
    guest: "Cette personne joue en invitée : masquez ses messages ici ; seul un compte peut être bloqué.",
    signIn: "Connectez-vous (sur l'accueil) pour bloquer ou signaler.",
    hint: "Choisissez un nom pour masquer, bloquer ou signaler cette personne.",
    unblock: "Débloquer",
    blockedMark: "bloqué",
    unblocked: (n) => `Vous ne bloquez plus ${n}.`,
  },
};

/** The names whose chat this browser hides. */
export function mutedNames() {
  try {
    return new Set(JSON.parse(localStorage.getItem("oh7.muted") || "[]"));
  } catch {
    return new Set();
  }
}

function setMuted(name, on) {
  const m = mutedNames();
  if (on) m.add(name);
  else m.delete(name);
  try {
    localStorage.setItem("oh7.muted", JSON.stringify([...m]));
  } catch {
    // Not kept: muted for this page only.
  }
}

/** The names the account blocks (asked once a page; kept up to date by this page's blocks). */
let blocked = null;
/** The seat whose menu is open, kept open across redraws. */
let openSeat = null;

/**
 * Draw the menus into `el`: `S` the page's state, `code` the table's code, `redraw()` draws the
 * page again (a muted person's lines go).
 */
export function peopleMenus(el, S, code, redraw) {
  const p = PEOPLE_TEXT[S.lang] || PEOPLE_TEXT.en;
  if (blocked === null) {
    blocked = new Set();
    call("GET", "/api/account/blocks").then((r) => {
      if (r.ok) {
        blocked = new Set(r.body.blocked || []);
        redraw();
      }
    });
  }
  const others = (S.table?.seats || []).filter((s) => s.name && !s.bot && s.seat !== S.you);
  const muted = mutedNames();
  region(el, JSON.stringify([S.lang, others.map((s) => [s.seat, s.name]), [...muted], [...blocked]]), () => {
    if (!others.length) return [];
    return [
      h("p", { class: "help people-hint" }, p.hint),
      ...others.map((s) => {
        const isMuted = muted.has(s.name);
        const isBlocked = blocked.has(s.name);
        const said = h("p", { class: "help person-said", role: "status" });
        const answer = (r, ok) => {
          // The page's own words for a guest (no account to block) and a page signed out.
          const own = { unknown_player: p.guest, signed_out: p.signIn }[r.body.code];
          said.textContent = r.ok ? ok : own || errorText(S.lang, r.body.code, r.body.params);
        };
        const mute = h("button", { type: "button", class: "small", onclick: () => (setMuted(s.name, !isMuted), redraw()) }, isMuted ? p.unmute : p.mute);
        const block = h(
          "button",
          {
            type: "button",
            class: "small",
            onclick: async () => {
              const r = await call("POST", "/api/account/blocks", { table: code, seat: s.seat, block: !isBlocked });
              if (r.ok) {
                if (isBlocked) blocked.delete(s.name);
                else blocked.add(s.name);
                redraw();
                // The region was drawn anew: the answer goes to the new menu's line.
                const line = el.querySelector(`[data-k="person:${s.seat}"] .person-said`);
                if (line) line.textContent = isBlocked ? p.unblocked(s.name) : p.blocked(s.name);
                return;
              }
              answer(r, "");
            },
          },
          isBlocked ? p.unblock : p.block,
        );
        const why = h("input", { maxlength: 1000, "aria-label": p.why, placeholder: p.why });
        const report = h(
          "form",
          {
            class: "person-report",
            onsubmit: async (e) => {
              e.preventDefault();
              const lines = S.chat.filter((c) => c.name === s.name).slice(-5).map((c) => ({ name: c.name, text: c.text }));
              const r = await call("POST", "/api/reports", { table: code, seat: s.seat, lines, reason: why.value });
              if (r.ok) why.value = "";
              answer(r, p.reported);
            },
          },
          why,
          h("button", { type: "submit", class: "small" }, p.report),
        );
        const marks = [isMuted ? p.mutedMark : null, isBlocked ? p.blockedMark : null].filter(Boolean);
        const menu = h(
          "details",
          { class: "person-menu", "data-k": `person:${s.seat}`, open: openSeat === s.seat },
          h("summary", {}, s.name, marks.length ? ` (${marks.join(", ")})` : ""),
          h("div", { class: "buttons" }, mute, block),
          report,
          said,
        );
        menu.addEventListener("toggle", () => {
          if (menu.open) openSeat = s.seat;
          else if (openSeat === s.seat) openSeat = null;
        });
        return menu;
      }),
    ];
  });
}
