// The solo table's driver, in a Web Worker so the page never freezes while a bot thinks. It runs
// oh7.wasm (the engine, the bots, the table library, the review), keeps the table's log in
// IndexedDB and, like a server's table task, stores each change **before** the page is told of
// it. The page talks to it through web/local.js; the messages it gets are the protocol's own
// (snapshot, event, ack, error, review), so the reducer and the drawing are the online table's.
//
// Page -> worker: {n, op, ...}; worker -> page: {n, ...} (the answer to request n) or
// {messages: [...]} (what the table says, e.g. after a bot's decision).

const DB = "oh7";
const STORE = "kv";
// The finished games kept in the local history (the oldest go first).
const HISTORY_KEPT = 200;

let wasm = null;
let mem = () => new Uint8Array(wasm.memory.buffer);
const enc = new TextEncoder();
const dec = new TextDecoder();
// The bots' pace: milliseconds between two decisions (the page's speed setting).
let pace = 700;
let driving = false;
// The setup of the current table (for the history's entries).
let current = null;

function call(req) {
  const bytes = enc.encode(JSON.stringify(req));
  const ptr = wasm.oh7_alloc(bytes.length);
  mem().set(bytes, ptr);
  const out = wasm.oh7_call(ptr, bytes.length);
  const len = wasm.oh7_out_len();
  return JSON.parse(dec.decode(mem().slice(out, out + len)));
}

async function load() {
  if (wasm) return;
  const url = new URL("./oh7.wasm", import.meta.url);
  const imports = {};
  let result;
  try {
    result = await WebAssembly.instantiateStreaming(fetch(url), imports);
  } catch {
    // A server (or a cache) that does not say application/wasm: compile from the bytes.
    const bytes = await (await fetch(url)).arrayBuffer();
    result = await WebAssembly.instantiate(bytes, imports);
  }
  wasm = result.instance.exports;
}

// ---------- IndexedDB: one key-value store ----------

let dbp = null;
function db() {
  dbp ||= new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return dbp;
}

async function tx(mode, f) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(STORE, mode);
    const r = f(t.objectStore(STORE));
    t.oncomplete = () => resolve(r?.result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error);
  });
}

const get = (key) => tx("readonly", (s) => s.get(key));
const put = (key, value) => tx("readwrite", (s) => s.put(value, key));
const del = (key) => tx("readwrite", (s) => s.delete(key));

// The solo table's log: its settings under "solo", each event under "ev:" and its index (so a
// step stores only its own events, whatever the length of the game).
const EVENTS = () => IDBKeyRange.bound("ev:", "ev:\uffff");
const evKey = (i) => `ev:${String(i).padStart(8, "0")}`;
let stored = 0;
const allEvents = () => tx("readonly", (s) => s.getAll(EVENTS()));
function appendEvents(events) {
  const from = stored;
  stored += events.length;
  return tx("readwrite", (s) => events.forEach((e, i) => s.put(e, evKey(from + i))));
}
function replaceEvents(events) {
  stored = events.length;
  return tx("readwrite", (s) => {
    s.delete(EVENTS());
    events.forEach((e, i) => s.put(e, evKey(i)));
  });
}

// ---------- the table ----------

function post(messages) {
  if (messages?.length) postMessage({ messages });
}

/** A step of the table: its log stored first (committed before told), then its messages. */
async function commit(answer) {
  if (answer.config) await put("solo", { setup: current, config: answer.config });
  if (answer.reset) await replaceEvents(answer.events);
  else if (answer.events?.length) await appendEvents(answer.events);
  if (answer.events?.length) await noteFinished(answer.messages);
  post(answer.messages);
}

/** A game that just ended goes to the local history (its record, as `oh7 replay` reads it). */
async function noteFinished(messages) {
  const over = (messages || []).some((m) => m.type === "event" && m.patch?.["t/state"] === "over");
  if (!over) return;
  const records = call({ op: "records" });
  const record = records[records.length - 1];
  if (!record) return;
  // The same game once only (a table restored after its end does not end again).
  if ((await get("history"))?.some((e) => e.record?.seed === record.seed && JSON.stringify(e.record) === JSON.stringify(record))) return;
  const history = (await get("history")) || [];
  const id = `${Date.now().toString(36)}-${records.length}`;
  history.push({ id, when: Date.now(), setup: current, totals: record.totals ?? null, record });
  while (history.length > HISTORY_KEPT) history.shift();
  await put("history", history);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// One step at a time, in order: a step's storing finishes before the next one runs, so the
// page gets the versions in order.
let queue = Promise.resolve();
function enqueue(f) {
  const p = queue.then(f);
  queue = p.catch(() => {});
  return p;
}

/** The bots decide, one at a time at the page's pace, until the person owes a decision. */
async function drive() {
  if (driving) return;
  driving = true;
  try {
    for (;;) {
      await sleep(pace);
      const more = await enqueue(async () => {
        if (!wasm) return false;
        const a = call({ op: "bot" });
        if (a.idle || a.error) return false;
        await commit(a);
        return true;
      });
      if (!more) break;
    }
  } finally {
    driving = false;
  }
}

function seed() {
  // 53 bits: a seed JSON carries exactly to the engine.
  const w = crypto.getRandomValues(new Uint32Array(2));
  return (w[0] & 0x1fffff) * 2 ** 32 + w[1];
}

const ops = {
  /** Load the module; restore the stored table, if any: `{table: bool}`. */
  async open() {
    await load();
    const table = await get("solo");
    if (!table?.config) return { table: false };
    const events = await allEvents();
    const a = call({ op: "restore", saved: { config: table.config, events } });
    if (a.error) return { table: false, error: a.error };
    stored = events.length;
    current = table.setup;
    post(a.messages);
    drive();
    // A table whose game is over is not an unfinished game to offer again.
    const over = (a.messages || []).some((m) => m.type === "snapshot" && m.table?.state === "over");
    return { table: true, setup: current, over };
  },
  /** A new table (the stored one is replaced). */
  async new({ setup }) {
    await load();
    const a = call({ op: "new", setup, seed: seed() });
    if (a.error) return { error: a.error };
    const refused = a.messages?.find((m) => m.type === "error");
    if (refused) return { refused };
    current = setup;
    await commit(a);
    drive();
    return { ok: true };
  },
  /** One command of the person (the protocol's JSON, `undo` and `rematch` included). */
  async command({ msg }) {
    if (msg.type === "rematch") msg = { ...msg, seed: seed() };
    const a = call({ op: "command", text: JSON.stringify(msg) });
    if (a.error) return { error: a.error };
    await commit(a);
    drive();
    return { ok: true };
  },
  /** The games, presets and levels (the body of the server's `GET /api/presets`). */
  async presets() {
    await load();
    return call({ op: "presets" });
  },
  async speed({ ms }) {
    pace = Math.max(0, Math.min(5000, Number(ms) || 0));
    return { ok: true };
  },
  async rules() {
    return call({ op: "rules" });
  },
  async stats() {
    return call({ op: "stats" });
  },
  async records() {
    return call({ op: "records" });
  },
  /** The expert's review of the person's last finished game, stored under a local code. */
  async review({ game, names }) {
    const records = call({ op: "records" });
    const record = records[(game || records.length) - 1];
    if (!record) return { error: "no finished game" };
    const version = 0;
    postMessage({ messages: [{ type: "review", version, game, seat: 0, state: "running", done: 0, total: 0 }] });
    const body = call({ op: "review", record, seat: 0, names });
    if (body.error) {
      postMessage({ messages: [{ type: "review", version, game, seat: 0, state: "failed", message: body.error }] });
      return { error: body.error };
    }
    const share = `local-${Date.now().toString(36)}`;
    await put(`review:${share}`, body);
    postMessage({ messages: [{ type: "review", version, game, seat: 0, state: "done", share }] });
    return { share };
  },
  /** A review kept on this device. */
  async reviewBody({ share }) {
    return (await get(`review:${share}`)) || null;
  },
  /** The local history: each finished game, newest first. */
  async history() {
    const h = (await get("history")) || [];
    return h.slice().reverse();
  },
  /**
   * The bots' decision times in this worker (scripts/bench-web.sh): a table of `setup` (not
   * stored; the current one is restored after), the person playing each first legal action, each
   * bot decision timed until `decisions` are; the milliseconds sorted, with p50 and p95.
   */
  async bench({ setup, decisions = 200, seed: s = 1 }) {
    await load();
    const times = [];
    let game = 0;
    let n = 0;
    while (times.length < decisions && game < 50) {
      const a = call({ op: "new", setup, seed: s + game });
      if (a.error || a.messages?.some((m) => m.type === "error")) return { error: a.error || JSON.stringify(a.messages) };
      game += 1;
      for (;;) {
        const t0 = performance.now();
        const b = call({ op: "bot" });
        const ms = performance.now() - t0;
        if (!b.idle) {
          times.push(ms);
          if (times.length >= decisions) break;
          continue;
        }
        const st = call({ op: "command", text: JSON.stringify({ type: "sync" }) }).messages[0];
        if (st.table.state === "over") break;
        const first = st.legal?.[0]?.a;
        if (!first) break;
        call({ op: "command", text: JSON.stringify({ type: "act", id: `bench-${++n}`, action: first }) });
      }
    }
    const table = await get("solo");
    if (table?.config) call({ op: "restore", saved: { config: table.config, events: await allEvents() } });
    times.sort((x, y) => x - y);
    const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
    return { decisions: times.length, games: game, p50: q(0.5), p95: q(0.95), max: times[times.length - 1] };
  },
  /** Forget the table being played (its finished games stay in the history). */
  async abandon() {
    await del("solo");
    await replaceEvents([]);
    current = null;
    return { ok: true };
  },
  /** Review a game of the local history (by its id): its local code. */
  async reviewHistory({ id, names }) {
    await load();
    const h = (await get("history")) || [];
    const entry = h.find((e) => e.id === id);
    if (!entry) return { error: "unknown game" };
    const body = call({ op: "review", record: entry.record, seat: 0, names });
    if (body.error) return { error: body.error };
    const share = `local-${id}`;
    await put(`review:${share}`, body);
    return { share };
  },
};

onmessage = (e) => {
  const { n, op, ...args } = e.data;
  enqueue(async () => {
    try {
      const f = ops[op];
      const answer = f ? await f(args) : { error: `unknown op ${op}` };
      postMessage({ n, answer });
    } catch (err) {
      postMessage({ n, answer: { error: String(err?.message || err) } });
    }
  });
};
