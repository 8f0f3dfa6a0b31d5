// Where the socket connects: this page's server, or the instance a `redirect` named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { nextServer, socketUrl } from "../socket.js";

test("the page's own server, ws or wss as the page", () => {
  assert.equal(socketUrl(null, { protocol: "http:", host: "127.0.0.1:7777" }), "ws://127.0.0.1:7777/ws");
  assert.equal(socketUrl(null, { protocol: "https:", host: "oh7.example" }), "wss://oh7.example/ws");
});

test("a redirect's instance address becomes its WebSocket", () => {
  assert.equal(socketUrl("http://10.0.0.2:7777"), "ws://10.0.0.2:7777/ws");
  assert.equal(socketUrl("https://b.oh7.example/"), "wss://b.oh7.example/ws");
});

test("with the page's server gone, every live instance is tried in turn", () => {
  const servers = ["http://a:1", "http://b:2", "http://c:3"];
  const tried = [2, 3, 4, 5, 6, 7].map((downs) => nextServer(servers, downs));
  assert.deepEqual(tried, ["http://c:3", "http://a:1", "http://b:2", "http://c:3", "http://a:1", "http://b:2"]);
});

test("the heartbeat: a ping every 15 s; unanswered for 10 s, the page connects again", async (t) => {
  const { connect } = await import("../socket.js");
  t.mock.timers.enable({ apis: ["setInterval", "setTimeout", "Date"] });
  const made = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      this.closed = false;
      made.push(this);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.closed = true;
    }
    open() {
      this.readyState = 1;
      this.onopen?.();
    }
    say(msg) {
      this.onmessage?.({ data: JSON.stringify(msg) });
    }
  }
  const saved = { WebSocket: globalThis.WebSocket, location: globalThis.location, fetch: globalThis.fetch };
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "127.0.0.1:7777", origin: "http://127.0.0.1:7777", href: "http://127.0.0.1:7777/t/x" };
  globalThis.fetch = () => new Promise(() => {});
  try {
    const got = [];
    let downs = 0;
    const sock = connect("c0de", "watch", (m) => got.push(m), () => (downs += 1));
    const first = made[0];
    first.open();
    assert.deepEqual(first.sent.map((m) => m.type), ["hello"]);
    t.mock.timers.tick(15000);
    assert.deepEqual(first.sent.map((m) => m.type), ["hello", "ping"], "a ping after 15 s");
    first.say({ type: "pong", version: 3 });
    assert.equal(got.length, 0, "a pong is the socket's own business");
    t.mock.timers.tick(9000);
    assert.equal(first.closed, false, "answered: still connected");
    t.mock.timers.tick(7000);
    assert.equal(first.sent.filter((m) => m.type === "ping").length, 2, "the next ping");
    t.mock.timers.tick(10000);
    assert.equal(first.closed, false, "10 s without an answer: still waiting");
    t.mock.timers.tick(1000);
    assert.equal(first.closed, true, "no pong within 10 s: this connection is dropped");
    assert.deepEqual([downs, made.length], [1, 1]);
    t.mock.timers.tick(500);
    assert.equal(made.length, 2, "and a new one is made");
    sock.close();
  } finally {
    Object.assign(globalThis, saved);
  }
});
