// The table's state in the browser: a pure reducer over what the server sends (snapshot, event,
// presence, ack, error, closing) and the few things the page itself decides (a card chosen and
// not yet confirmed, a command on its way, a notice dismissed). No DOM and no socket here, so
// node's test runner replays recorded message sequences through it (web/test/state.test.mjs).
//
// `reduce(state, msg)` never changes `state`: it returns a new object (or the same one when
// nothing changed), so the views can compare what they drew with what is now true.
//
// The viewer's document is `{table, view, legal}` (kept as the state's fields of those names).
// A snapshot gives it whole; an `event` or `presence` carries only a patch of it (web/patch.js),
// applied to the document of the version before. A patch that does not fit, like an event that
// skips a version, sets `needSync`: the page then asks for a snapshot (one `sync`, see app.js)
// and ignores events and presence until it arrives.

import { applyPatch, Misfit } from "./patch.js";

/** The state before the first snapshot. */
export function initial() {
  return {
    version: 0,
    you: null,
    table: null,
    view: null,
    legal: [],
    chat: [],
    links: null,
    connected: false,
    // The server said it is stopping (until the next snapshot).
    closing: false,
    // A `sync` is owed: an event skipped a version, or a patch did not fit the document.
    needSync: false,
    // The command on its way ({id, action, acked}): the hand takes no second click until the
    // table has moved past it.
    pending: null,
    // A decision chosen but not confirmed yet (a bet card), or the cards chosen to pass.
    choice: null,
    passSel: [],
    // What the expert would do (the ack of `hint`).
    hint: null,
    // Short notices ({n, code, params, message}); the views let each go after a few seconds.
    notices: [],
    noticeSeq: 0,
    // The trick just completed ({plays, winner, version}), shown on the table for a moment.
    completed: null,
    // The round just finished ({number, bets, won, points, ...}), until dismissed or the next
    // decision of this seat.
    summary: null,
    // This seat's review of a finished game (see `reviewOf`): {game, id, state: "asking" |
    // "queued" | "running" | "done" | "failed", position, done, total, share, code}. The server's
    // `review` messages go to this connection only and do not move the table's version.
    review: null,
  };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The round that just ended (its `past_rounds` entry), or null. */
function roundEnded(before, after) {
  const was = before.past_rounds?.length ?? 0;
  const now = after.past_rounds?.length ?? 0;
  return now > was ? after.past_rounds[now - 1] : null;
}

// Each game's moments, looked up by its name once (no comparison of names).
const MOMENTS = {
  // Seven: a round's summary when one ends (who went out, the points added, the totals).
  seven(s, before, after, version) {
    let { completed, summary } = s;
    const ended = roundEnded(before, after);
    if (ended && !after.over) summary = { ...ended, version };
    return { completed, summary };
  },
  // Oh 7: the trick just gathered, and the round's summary.
  oh7(s, before, after, version) {
    let { completed, summary } = s;
    if (after.last_trick && !same(after.last_trick, before.last_trick)) {
      completed = { plays: after.last_trick.plays, winner: after.last_trick.winner, version };
    }
    const ended = roundEnded(before, after);
    if (ended) summary = { ...ended, version };
    // A spectator's summary goes when the next round's bets are revealed.
    if (summary && s.you === null && after.bets && after.round > summary.number) summary = null;
    return { completed, summary };
  },
};

/** What changed in the game between two views, as the page shows it. */
function moments(s, before, after, version) {
  const of = after && Object.hasOwn(MOMENTS, after.game) ? MOMENTS[after.game] : null;
  if (!before || !of) return { completed: s.completed, summary: s.summary };
  return of(s, before, after, version);
}

function withNotice(s, notice) {
  const n = s.noticeSeq + 1;
  return { ...s, noticeSeq: n, notices: [...s.notices, { n, ...notice }].slice(-3) };
}

/**
 * The document after `patch` ({table, view, legal}, from the server's {t, v, l}; sharing what did not change), or null when
 * the patch does not fit (a snapshot is owed). No patch: the document as it is.
 */
function patched(s, patch) {
  // The server names the document's parts `t` (table), `v` (view) and `l` (legal), so that
  // patch paths stay short (`v/top`).
  if (!patch) return { table: s.table, view: s.view, legal: s.legal };
  const doc = { t: s.table, v: s.view, l: s.legal };
  let out;
  try {
    out = applyPatch(doc, patch);
  } catch (e) {
    if (e instanceof Misfit) return null;
    throw e;
  }
  // The whole document replaced (path ""): it must still be a document.
  if (out === null || typeof out !== "object" || Array.isArray(out)) return null;
  return { table: out.t ?? null, view: out.v ?? null, legal: Array.isArray(out.l) ? out.l : [] };
}

/**
 * `next` (a fresh copy of the state, at its new version) given the patched document, with what
 * the page derives from its change since `s`: the trick just completed, the round just summed
 * up, and (when the legal actions change) the choice, cards to pass and hint dropped.
 */
function withDoc(next, s, doc) {
  next.table = doc.table;
  if (doc.view !== s.view) {
    Object.assign(next, moments(s, s.view, doc.view, next.version));
    next.view = doc.view;
  }
  if (doc.legal !== s.legal && !same(doc.legal, s.legal)) {
    next.legal = doc.legal;
    next.choice = null;
    next.passSel = [];
    next.hint = null;
  }
  return next;
}

/** The next state after `msg`. */
export function reduce(s, msg) {
  switch (msg.type) {
    case "snapshot":
      return {
        ...s,
        connected: true,
        closing: false,
        needSync: false,
        version: msg.version,
        you: msg.you ?? null,
        table: msg.table ?? null,
        view: msg.view ?? null,
        legal: msg.legal || [],
        chat: msg.chat || [],
        links: msg.links || s.links,
        pending: null,
        choice: null,
        passSel: [],
        completed: null,
        summary: s.view && msg.view ? moments(s, s.view, msg.view, msg.version).summary : s.summary,
      };
    case "event": {
      if (msg.version <= s.version) return s;
      // Waiting for the snapshot: what comes before it cannot be applied.
      if (s.needSync) return s;
      if (msg.version !== s.version + 1) return { ...s, needSync: true };
      const doc = patched(s, msg.patch);
      if (!doc) return { ...s, needSync: true };
      const next = withDoc({ ...s, version: msg.version }, s, doc);
      if (msg.event?.kind === "chat") next.chat = [...s.chat, msg.event.entry].slice(-50);
      if (msg.event?.kind === "start") Object.assign(next, { completed: null, summary: null, choice: null, passSel: [], review: null });
      if (s.pending && (s.pending.acked !== undefined ? msg.version >= s.pending.acked : msg.event?.kind === "act" && msg.event.seat === s.you)) {
        next.pending = null;
      }
      return next;
    }
    case "presence": {
      // The table information changed, not the version: the patch is of the document at
      // `msg.version`, which must be ours.
      if (s.needSync || !msg.patch) return s;
      if (msg.version !== s.version) return { ...s, needSync: true };
      const doc = patched(s, msg.patch);
      if (!doc) return { ...s, needSync: true };
      if (doc.table === s.table && doc.view === s.view && doc.legal === s.legal) return s;
      return withDoc({ ...s }, s, doc);
    }
    case "ack": {
      const next = { ...s };
      if (msg.seat !== undefined && msg.seat !== null) next.you = msg.seat;
      if (msg.hint !== undefined) next.hint = msg.hint;
      if (s.pending && s.pending.id === msg.id) {
        // Free the hand once the change itself has reached us (it follows its ack).
        next.pending = msg.version <= s.version ? null : { ...s.pending, acked: msg.version };
      }
      return next;
    }
    case "error": {
      // A refusal of this command frees the hand (a rate limit says no id: it may be ours).
      const ours = s.pending && (s.pending.id === msg.id || (msg.id === null && msg.code === "rate_limited"));
      let next = ours ? { ...s, pending: null } : s;
      // A refused review request: the button comes back, with the reason.
      if (s.review && s.review.id === msg.id && s.review.state === "asking") next = { ...next, review: { ...s.review, state: "failed", code: msg.code } };
      return withNotice(next, { code: msg.code, params: msg.params || {}, message: msg.message });
    }
    case "review": {
      // Progress of a review this connection asked for. Not a table change: the version, the
      // document and `needSync` stay as they are, whatever `msg.version` says.
      if (!["queued", "running", "done", "failed"].includes(msg.state)) return s;
      const was = s.review && s.review.game === msg.game ? s.review : null;
      // A late "running" after "done" (or after a failure) changes nothing.
      if (was && (was.state === "done" || was.state === "failed") && msg.state !== "done" && msg.state !== "failed") return s;
      const review = { game: msg.game, seat: msg.seat ?? s.you, id: was?.id ?? s.review?.id ?? null, state: msg.state };
      if (msg.state === "queued") review.position = msg.position ?? null;
      if (msg.state === "running") Object.assign(review, { done: msg.done ?? 0, total: msg.total ?? 0 });
      if (msg.state === "done") review.share = msg.share;
      if (msg.state === "failed") review.code = "review_failed";
      return { ...s, review };
    }
    case "closing":
      return { ...s, closing: true };
    // ---- what the page decides ----
    case "local/disconnected":
      // A review on its way reports to this connection only: after a reconnection the person
      // asks again (the server answers a finished one at once). A done review keeps its link.
      return { ...s, connected: false, pending: null, review: s.review && s.review.state !== "done" ? null : s.review };
    case "local/pending-timeout":
      // No answer in time (a connection that died quietly): let the person try again; the
      // server never applies a command twice, and a stale one is refused.
      return s.pending && s.pending.id === msg.id && s.pending.acked === undefined ? { ...s, pending: null } : s;
    // Acting puts a round's summary away once it has been on screen: during the last trick's
    // hold (the summary waits for it) it stays, to be shown after.
    case "local/sent":
      return { ...s, pending: { id: msg.id, action: msg.action }, choice: null, passSel: [], summary: s.completed ? s.summary : null };
    case "local/choose":
      return { ...s, choice: msg.action, summary: s.completed ? s.summary : null };
    case "local/unchoose":
      return { ...s, choice: null };
    case "local/toggle-pass": {
      const has = s.passSel.includes(msg.card);
      return { ...s, passSel: has ? s.passSel.filter((c) => c !== msg.card) : [...s.passSel, msg.card], summary: s.completed ? s.summary : null };
    }
    case "local/review-sent":
      return { ...s, review: { game: msg.game ?? null, seat: s.you, id: msg.id, state: "asking" } };
    case "local/notice":
      return withNotice(s, { code: msg.code, params: msg.params || {}, message: msg.message || "" });
    case "local/dismiss-notice":
      return s.notices.some((x) => x.n === msg.n) ? { ...s, notices: s.notices.filter((x) => x.n !== msg.n) } : s;
    case "local/dismiss-trick":
      return s.completed ? { ...s, completed: null } : s;
    case "local/dismiss-summary":
      return s.summary ? { ...s, summary: null } : s;
    case "local/reset":
      return initial();
    default:
      return s;
  }
}

/** Whether the seat can send a decision now (it owes one and none is on its way). */
export function canAct(s) {
  return s.you !== null && s.legal.length > 0 && !s.pending;
}

/**
 * What the game-over panel shows about this seat's review of game `game`: null (a spectator, a
 * Seven game, or a game still on), or {state: "none" | "asking" | "queued" | "running" | "done" |
 * "failed", position, percent, share, code}.
 */
export function reviewOf(s, game = s.table?.game_number) {
  // Seven games are reviewed too (docs/review.md, Seven).
  if (s.you === null || s.you === undefined || s.table?.state !== "over") return null;
  const r = s.review;
  // A review whose game the server did not name yet (asking) counts for the game on the table.
  if (!r || (r.game !== null && r.game !== undefined && game !== undefined && r.game !== game)) return { state: "none" };
  const out = { state: r.state };
  if (r.state === "queued") out.position = r.position;
  if (r.state === "running") out.percent = r.total > 0 ? Math.min(100, Math.floor((100 * r.done) / r.total)) : 0;
  if (r.state === "done") out.share = r.share;
  if (r.state === "failed") out.code = r.code;
  return out;
}

/** The game of the table: "oh7" or "seven". */
export function gameOf(s) {
  return s.table?.game || s.view?.game || "oh7";
}

/** Whether the viewer owes a decision now: its seat is to move in a running game, with legal
 * actions. (The page's title, sound, notification and turn clock follow it.) */
export function myTurn(S) {
  return S.you !== null && S.table?.state === "playing" && (S.view?.to_move || []).includes(S.you) && S.legal.length > 0;
}

/** Whether the viewer's decision at `after` is a new one (not the one it owed at `before`): its
 * turn begins, or it acted and must decide again (the table's version moved while it owed a
 * decision and had a command on its way). The server's turn clock starts again then. */
/** The host asks this viewer for another game and it has not answered. */
export function askedAgain(s) {
  return s.you !== null && s.you !== undefined && s.table?.rematch?.answers?.[s.you] === "waiting";
}

export function newTurn(before, after) {
  if (!myTurn(after)) return false;
  if (!myTurn(before)) return true;
  return after.version !== before.version && !!before.pending && !after.pending;
}
