// The account panel of the home page (optional accounts: guests play as they are). The session
// is an HttpOnly cookie the page never sees; the page only asks the server who is signed in
// (`GET /api/account`) and sends the forms (`POST /api/account/...`, JSON, same origin).

import { call } from "./api.js";
import { h } from "./dom.js";
import { playerParts, rulesName } from "./player.js";

/**
 * The panel: `t` the page's texts (`t.acct`), `words(code, params)` a refusal in the page's
 * language, `onName(name)` told the account's name once it is known (the create form offers it),
 * `onTurns(n)` how many turn-based tables wait for the account (0 when signed out).
 * It asks who is signed in, then shows the sign-in form or the account's buttons, redrawing only
 * itself.
 */
/** The seats this browser kept tokens for (`oh7.token.CODE`, the invite code), claimed for the
 * account just signed in: its tables, figures and reviews then include the guest's games. */
async function claimGuestSeats() {
  const seats = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      const m = /^oh7\.token\.([0-9a-f]{32})$/.exec(k || "");
      if (m) seats.push({ code: m[1], token: localStorage.getItem(k) });
    }
  } catch {
    return;
  }
  for (let i = 0; i < seats.length; i += 50) await call("POST", "/api/account/claim", { seats: seats.slice(i, i + 50) });
}

export function accountPanel(t, words, onName = () => {}, onTurns = () => {}) {
  const a = t.acct;
  const panel = h("section", { id: "account", class: "panel", "aria-labelledby": "account-title" });
  const status = h("p", { id: "account-status", role: "status" });
  const error = h("p", { id: "account-error", class: "form-error", role: "alert" });
  let me = undefined;

  const show = () => {
    const title = h("h2", { id: "account-title" }, a.title);
    if (me === undefined) {
      panel.replaceChildren(title, status);
      return;
    }
    if (me) {
      onName(me.name);
      const out = h("button", { type: "button", id: "signout" }, a.signOut);
      const all = h("button", { type: "button", id: "signout-all" }, a.signOutAll);
      const remove = h("button", { type: "button", id: "account-delete" }, a.remove);
      const confirm = h("form", { id: "account-delete-form", hidden: true });
      const pw = h("input", { id: "account-delete-password", type: "password", autocomplete: "current-password", required: true });
      confirm.append(h("label", {}, a.confirmRemove, pw), h("button", { type: "submit", class: "danger" }, a.remove));
      out.addEventListener("click", () => send("POST", "/api/account/signout", null, false));
      all.addEventListener("click", () => send("POST", "/api/account/signout-everywhere", null, false));
      remove.addEventListener("click", () => {
        confirm.hidden = false;
        pw.focus();
      });
      confirm.addEventListener("submit", (e) => {
        e.preventDefault();
        send("DELETE", "/api/account", { password: pw.value }, false, a.removed);
      });
      // The address turn notices go to (when the server sends mail), kept while typed.
      const email = h("input", { id: "account-email", type: "email", maxlength: 254, autocomplete: "email", value: me.email || "" });
      email.addEventListener("input", () => {
        status.textContent = "";
      });
      const mailForm = h("form", { id: "account-email-form" }, h("label", {}, a.email, email), h("button", { type: "submit", class: "small" }, a.save), h("p", { class: "help" }, a.emailHelp));
      mailForm.addEventListener("submit", async (e) => {
        e.preventDefault();
        error.textContent = "";
        const r = await call("POST", "/api/account/email", { email: email.value });
        if (!r.ok) {
          error.textContent = words(r.body.code, r.body.params);
          email.focus();
          return;
        }
        me.email = r.body.email;
        status.textContent = a.saved;
      });
      const list = h("div", { id: "account-tables" });
      const turns = h("div", { id: "account-turns", "aria-live": "polite", tabindex: "-1" });
      const figures = h("div", { id: "account-figures" });
      panel.replaceChildren(title, h("p", { id: "account-name" }, a.signedInAs(me.name), " · ", h("a", { href: `/p/${encodeURIComponent(me.name)}` }, a.yourPage)), h("div", { class: "buttons" }, out, all, remove), confirm, mailForm, error, status, turns, figures, list);
      showTurns(turns);
      showFigures(figures, me.name);
      showTables(list);
      return;
    }
    const form = h("form", { id: "account-form", novalidate: true });
    const name = h("input", { id: "account-name-input", maxlength: 24, autocomplete: "username", required: true });
    const pw = h("input", { id: "account-password", type: "password", maxlength: 128, autocomplete: "current-password", required: true });
    const signIn = h("button", { type: "submit", id: "signin", class: "primary" }, a.signIn);
    const signUp = h("button", { type: "button", id: "signup" }, a.signUp);
    form.append(h("p", { class: "help acct-intro" }, a.intro), h("label", {}, a.name, name), h("label", {}, a.password, pw), h("div", { class: "buttons" }, signIn, signUp), error);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      send("POST", "/api/account/signin", { name: name.value, password: pw.value }, true);
    });
    signUp.addEventListener("click", () => {
      pw.autocomplete = "new-password";
      send("POST", "/api/account/signup", { name: name.value, password: pw.value }, true);
    });
    panel.replaceChildren(title, form, status);
  };

  // The account's figures over its finished games (its public player page's).
  const showFigures = async (el, name) => {
    const r = await call("GET", `/api/players/${encodeURIComponent(name)}`);
    if (!r.ok || !el.isConnected) return;
    el.replaceChildren(...playerParts(t, r.body, { own: true }));
  };

  // The turn-based tables where it is the account's turn; asked again every minute while the
  // page is open, with a notification (if the person allowed them) when a new one comes.
  let seen = null;
  let polling = null;
  const showTurns = async (el) => {
    const r = await call("GET", "/api/account/turns");
    if (!r.ok || !el.isConnected) return;
    const rows = r.body.turns || [];
    onTurns(rows.length);
    const keys = new Set(rows.map((x) => `${x.invite}:${x.due_at}`));
    if (seen && typeof Notification !== "undefined" && Notification.permission === "granted" && [...keys].some((k) => !seen.has(k))) {
      new Notification(a.turnNotice, { body: location.host, tag: "oh7-turn" });
    }
    seen = keys;
    const ask = typeof Notification !== "undefined" && Notification.permission === "default" ? h("button", { type: "button", id: "notify-turns", class: "small", onclick: () => Notification.requestPermission().then(() => showTurns(el)) }, a.notifyTurns) : null;
    el.replaceChildren(
      h("h3", {}, a.yourTurn),
      rows.length ? h("ul", { class: "held" }, ...rows.map((x) => h("li", {}, h("a", { href: `/t/${x.invite}` }, a.turnLine({ ...x, rules: rulesName(t, x.rules) }), " · ", a.dueBy(new Date(x.due_at * 1000)))))) : h("p", { class: "help" }, a.noTurn),
      ask,
    );
    clearTimeout(polling);
    polling = setTimeout(() => showTurns(el), 60000);
  };

  // The tables where the account holds a seat, with their links.
  const showTables = async (list) => {
    const r = await call("GET", "/api/account/tables");
    if (!r.ok || !list.isConnected) return;
    const rows = r.body.tables || [];
    list.replaceChildren(
      h("h3", {}, a.tables),
      rows.length
        ? h("ul", { class: "held" }, ...rows.map((row) => h("li", {}, h("a", { href: `/t/${row.invite}` }, a.tableLine({ ...row, rules: rulesName(t, row.rules) })))))
        : h("p", { class: "help" }, a.noTables),
    );
  };

  // One request at a time; on a refusal the form keeps what was typed and says why.
  let busy = false;
  const send = async (method, path, body, signsIn, done) => {
    if (busy) return;
    busy = true;
    error.textContent = "";
    status.textContent = a.busy;
    const r = await call(method, path, body);
    busy = false;
    status.textContent = "";
    if (!r.ok) {
      error.textContent = words(r.body.code, r.body.params);
      error.focus?.();
      return;
    }
    me = signsIn ? { name: r.body.name, email: r.body.email } : null;
    if (!me) onTurns(0);
    // The games this browser played as a guest follow the account from now on.
    if (me) await claimGuestSeats();
    show();
    // The quick-match panel asks again who may wait.
    document.getElementById("room")?.dispatchEvent(new Event("account-changed"));
    if (done) status.textContent = done;
    panel.querySelector(signsIn ? "#signout" : "#account-name-input")?.focus();
  };

  show();
  call("GET", "/api/account").then((r) => {
    me = r.ok ? { name: r.body.name, email: r.body.email } : null;
    show();
  });
  return panel;
}
