// The second transport beside the WebSocket (socket.js): a solo table played on this device, in
// a Web Worker (worker.js) running the engine and the bots as WebAssembly. It gives the page the
// same messages as a server (snapshot, event, ack, error, review) through the same
// `onMessage`, and takes the same commands through `send(type, fields)`, so the reducer
// (state.js), the drawing and the words are the online table's. What only a solo table has:
// `undo`, the bots' pace, and a history of finished games kept in this browser.

const PREFIX = `solo-${Math.random().toString(36).slice(2, 8)}`;
let count = 0;
let worker = null;
let asked = 0;
const waiting = new Map();
let listener = null;

function start() {
  if (worker) return worker;
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (e) => {
    const d = e.data;
    if (d.messages) for (const m of d.messages) listener?.(m);
    if (d.n !== undefined && waiting.has(d.n)) {
      waiting.get(d.n)(d.answer);
      waiting.delete(d.n);
    }
  };
  worker.onerror = () => {
    for (const f of waiting.values()) f({ error: "the worker stopped" });
    waiting.clear();
  };
  return worker;
}

/** Ask the worker (`op` and its fields): its answer. */
export function request(op, fields = {}) {
  start();
  const n = ++asked;
  return new Promise((resolve) => {
    waiting.set(n, resolve);
    worker.postMessage({ n, op, ...fields });
  });
}

/** The speed settings: the pause before each bot decision, in milliseconds. */
export const PACES = { fast: 150, normal: 700, slow: 1500 };

/** The bots' pace kept in this browser. */
export function paceName() {
  try {
    const p = localStorage.getItem("oh7.pace");
    return p in PACES ? p : "normal";
  } catch {
    return "normal";
  }
}

export function setPace(name) {
  try {
    localStorage.setItem("oh7.pace", name);
  } catch {
    // Not kept: the pace lasts as long as the page.
  }
  return request("speed", { ms: PACES[name] ?? PACES.normal });
}

/** Whether a solo table is stored on this device (the worker restores it). */
export async function storedTable() {
  const a = await request("open");
  return a.table ? a : null;
}

/** A new solo table (`setup`: game, preset or ruleset, players, level, lang, name). */
export function newTable(setup) {
  return request("new", { setup });
}

/**
 * The solo table as a connection: `onMessage(msg)` gets every message. Returns the interface of
 * socket.js's `connect` ({send, sync, reconnect, close, base}) and `undo()`.
 */
export function connectLocal(onMessage) {
  listener = onMessage;
  let closed = false;
  start();
  request("speed", { ms: PACES[paceName()] });
  // The stored table's snapshot comes as a message; without one there is nothing to show.
  request("open").then((a) => {
    if (!closed && !a.table) onMessage({ type: "error", id: null, code: "unknown_table", message: "No game on this device.", version: null });
  });
  const send = (type, fields = {}) => {
    if (closed) return null;
    const id = `${PREFIX}-${++count}`;
    if (type === "review") {
      request("review", { game: fields.game, names: fields.names || [] });
      return id;
    }
    request("command", { msg: { type, id, ...fields } }).then((a) => {
      if (a?.error) onMessage({ type: "error", id, code: "bad_request", message: a.error, version: null });
    });
    return id;
  };
  return {
    send,
    undo: () => send("undo"),
    sync: () => request("command", { msg: { type: "sync" } }),
    reconnect: () => request("command", { msg: { type: "sync" } }),
    close: () => {
      closed = true;
      if (listener === onMessage) listener = null;
    },
    base: () => "",
    local: true,
  };
}
