// The server's JSON calls (same origin, the session cookie): the lowest layer of the page's
// modules, which the account panel, the player pages and the table all use.

/** Send a request to the server; returns `{ok, status, body}` (`body.code` on a refusal). */
export async function call(method, path, body) {
  try {
    const r = await fetch(path, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
    });
    const text = await r.text();
    let v = {};
    try {
      v = text ? JSON.parse(text) : {};
    } catch {
      v = { code: "bad_request" };
    }
    return { ok: r.ok, status: r.status, body: v };
  } catch {
    return { ok: false, status: 0, body: { code: "offline" } };
  }
}
