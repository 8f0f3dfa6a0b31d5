// One WebSocket to the table: hello (with the seat token kept in this browser), reconnection
// with backoff, a `redirect` followed at once to the server instance that plays the table (and
// this page's own server again whenever that connection drops: it knows where the table went), `sync` when the state says a version was skipped or a patch did not fit its
// document (state.js `needSync`), and command ids that are
// unique per page (a random prefix and a count), so a repeated command is answered, never
// applied twice.

const PREFIX = Math.random().toString(36).slice(2, 10);
// A connection not open after this long is given up (a paused server accepts and says nothing).
const CONNECT_MS = 5000;
// The heartbeat (docs/protocol.md `ping`): a ping every 15 s; a table that has not answered
// within 10 s is stalled or gone, and the page connects again (to a live instance).
const PING_MS = 15000;
const PONG_MS = 10000;
let count = 0;

/** The seat token this browser keeps for a table (by its invite code). */
export function tokenFor(code) {
  try {
    return localStorage.getItem(`oh7.token.${code}`);
  } catch {
    return null;
  }
}

/** Keep a seat token (never in a URL, a log or a cookie). */
export function keepToken(code, token) {
  try {
    localStorage.setItem(`oh7.token.${code}`, token);
  } catch {
    // Private windows may refuse storage: the seat lasts as long as the page.
  }
}

/** The WebSocket address of the server at `base` (`http://host:port`), or of this page's. */
export function socketUrl(base, here = globalThis.location) {
  if (!base) return `${here.protocol === "https:" ? "wss" : "ws"}://${here.host}/ws`;
  const u = new URL("/ws", base);
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  return u.href;
}

/** The instance to try after `retry` failures in a row: the live ones in turn. */
export function nextServer(servers, retry) {
  return servers[retry % servers.length];
}

/**
 * Connect to table `code` (`access`: "invite" or "watch"); `onMessage(msg)` gets every server
 * message, `onDown()` every lost connection. Returns {send(type, fields) -> id, sync(), close()}.
 */
export function connect(code, access, onMessage, onDown) {
  let ws = null;
  let retry = 0;
  let closed = false;
  let timer = null;
  // Where a `redirect` sent this page (null: the page's own server).
  let elsewhere = null;
  // Redirects in a row with no table between them (two servers that disagree for a moment):
  // past a few, the usual backoff.
  let hops = 0;
  // The live instances (`/api/lobby`'s `servers`; empty with one server): where to try when
  // this page's own server is gone.
  let servers = [];
  let learnt = false;
  // Connections lost or refused in a row (not capped, unlike the backoff).
  let downs = 0;
  // The server this page is connected to now (its address; null: the page's own).
  let current = null;
  // A server that was paused (or is cut off) never completes a close: a socket given up on is
  // dropped at once, its handlers detached, instead of waiting for its `close` event.
  // Where to avoid on the next attempt (the server a connection was given up on).
  let avoid = null;
  const drop = (sock) => {
    sock.onopen = null;
    sock.onmessage = null;
    sock.onclose = null;
    try {
      sock.close();
    } catch {
      // Already closing.
    }
  };
  const down = () => {
    if (closed) return;
    // Back to the page's own server (it knows whether the table moved since), unless this
    // was a redirect that keeps happening: then to where it says, after the pause.
    if (hops === 0) elsewhere = null;
    onDown();
    retry = Math.min(retry + 1, 6);
    downs += 1;
    if (avoid !== null && servers.length > 0) {
      // A server that stopped answering: another live one at once.
      const other = servers.find((u) => u.replace(/\/+$/, "") !== avoid);
      avoid = null;
      if (other) {
        elsewhere = other;
        timer = setTimeout(open, 0);
        return;
      }
    }
    // Twice down in a row: this page's server may be gone; the other instances in turn.
    if (downs >= 2 && servers.length > 0) elsewhere = nextServer(servers, downs);
    timer = setTimeout(open, 250 * 2 ** retry);
  };
  const open = () => {
    const sock = new WebSocket(socketUrl(elsewhere));
    ws = sock;
    // A connection that does not open in time (a paused server accepts it and says nothing).
    const stuck = setTimeout(() => {
      if (ws === sock && sock.readyState === 0) {
        drop(sock);
        down();
      }
    }, CONNECT_MS);
    // When the last ping went unanswered since (null: answered), and when it was sent.
    let waiting = null;
    let pinged = Date.now();
    const beat = setInterval(() => {
      if (ws !== sock || closed) {
        clearInterval(beat);
        return;
      }
      if (sock.readyState !== 1) return;
      const now = Date.now();
      if (waiting !== null && now - waiting > PONG_MS) {
        clearInterval(beat);
        api.reconnect();
      } else if (waiting === null && now - pinged >= PING_MS) {
        waiting = pinged = now;
        sock.send(JSON.stringify({ type: "ping" }));
      }
    }, 1000);
    sock.onopen = () => {
      clearTimeout(stuck);
      retry = 0;
      downs = 0;
      current = elsewhere;
      if (!learnt) {
        learnt = true;
        fetch(new URL("/api/lobby", elsewhere || location.href))
          .then((r) => r.json())
          .then((l) => {
            if (Array.isArray(l.servers)) servers = l.servers.filter((u) => typeof u === "string");
          })
          .catch(() => {
            learnt = false;
          });
      }
      const token = access === "invite" ? tokenFor(code) : null;
      sock.send(JSON.stringify({ type: "hello", table: code, token }));
    };
    sock.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg && msg.type === "redirect" && typeof msg.url === "string") {
        // The table is played by another instance: say hello there (at once, unless it keeps
        // happening).
        elsewhere = msg.url;
        hops += 1;
        drop(sock);
        if (hops <= 3) open();
        else down();
        return;
      }
      hops = 0;
      // Whatever the table says shows it is alive; a pong says nothing else.
      waiting = null;
      if (msg && msg.type === "pong") return;
      onMessage(msg);
    };
    sock.onclose = () => {
      clearTimeout(stuck);
      clearInterval(beat);
      if (ws === sock) down();
    };
  };
  open();
  const api = {
    /** Send a command; its id, or null when the connection is down (nothing was sent). */
    send(type, fields = {}) {
      if (!ws || ws.readyState !== 1) return null;
      count += 1;
      const id = `${PREFIX}-${count}`;
      ws.send(JSON.stringify({ type, id, ...fields }));
      return id;
    },
    sync() {
      if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "sync" }));
    },
    /** The address of the server this page is connected to (`""`: the page's own), for the
     * table's reads and the links that need the table's server (records, replays, reviews). */
    base() {
      return current ? current.replace(/\/+$/, "") : "";
    },
    /** A connection that stopped answering (a command with no answer in time: the server may be
     * paused): drop it and connect again, through the page's own server. */
    reconnect() {
      if (!ws || closed) return;
      // Not back to the server that stopped answering, when another is known.
      avoid = (current || location.origin).replace(/\/+$/, "");
      drop(ws);
      clearTimeout(timer);
      down();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (ws) drop(ws);
    },
  };
  return api;
}
