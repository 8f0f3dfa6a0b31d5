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
