//! The browser client's files (`web/`), embedded in the binary: one file to ship, no CDN, works
//! offline on a LAN. The table pages (`/t/CODE`, `/w/CODE`) are the same page; the script reads
//! the code from the path.

use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::app::App;

const INDEX: &str = include_str!("../../../../web/index.html");
const APP: &str = include_str!("../../../../web/app.js");
const STATE: &str = include_str!("../../../../web/state.js");
const SOCKET: &str = include_str!("../../../../web/socket.js");
const DOM: &str = include_str!("../../../../web/dom.js");
const TABLE: &str = include_str!("../../../../web/table.js");
const RULES: &str = include_str!("../../../../web/rules.js");
const CARDS: &str = include_str!("../../../../web/cards.js");
const PIPS: &str = include_str!("../../../../web/pips.js");
const SOUND: &str = include_str!("../../../../web/sound.js");
const COACH: &str = include_str!("../../../../web/coach.js");
const I18N: &str = include_str!("../../../../web/i18n.js");
/// The glossary as an ES module; a test checks it is what `oh7_core::glossary::to_js` makes, so
/// the terminal and the browser read the same words (node's tests import the file as it is).
const GLOSSARY: &str = include_str!("../../../../web/glossary.js");
/// The refusals' wordings as an ES module (a test in `oh7-core` checks it is what
/// `oh7_core::wording::to_js` makes: the terminal and the browser word them alike).
const WORDING: &str = include_str!("../../../../web/wording.js");
const PATCH: &str = include_str!("../../../../web/patch.js");
/// The review and replay pages' scripts (loaded only on `/review/CODE` and `/replay/CODE` pages,
/// so the first load of a table does not carry them).
const REVIEW: &str = include_str!("../../../../web/review.js");
const REVIEW_MODEL: &str = include_str!("../../../../web/review-model.js");
const REVIEW_SEVEN: &str = include_str!("../../../../web/review-seven.js");
const REPLAY: &str = include_str!("../../../../web/replay.js");
const ACCOUNT: &str = include_str!("../../../../web/account.js");
/// The home page's public room (open tables, quick match), loaded after the page.
const ROOM: &str = include_str!("../../../../web/room.js");
/// The people menus beside a table's chat (mute, block, report), loaded with the chat.
const PEOPLE: &str = include_str!("../../../../web/people.js");
const API: &str = include_str!("../../../../web/api.js");
const CATALOGUE: &str = include_str!("../../../../web/catalogue.js");
const PLAYER: &str = include_str!("../../../../web/player.js");
const STYLE: &str = include_str!("../../../../web/style.css");
/// Play on this device: the transport to the worker, and the worker that runs the WebAssembly.
const LOCAL: &str = include_str!("../../../../web/local.js");
const WORKER: &str = include_str!("../../../../web/worker.js");
/// The service worker, before its version and file list are written in ([`service_worker`]).
const SW: &str = include_str!("../../../../web/sw.js");
const MANIFEST: &str = include_str!("../../../../web/manifest.webmanifest");
/// The page's WebAssembly (`oh7-wasm`, built by `build.rs`; empty when the build had none).
pub const WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/oh7.wasm"));
const ICON: &str = include_str!("../../../../web/favicon.svg");

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the client: its path, content type and body (the first-load budget counts them).
pub(crate) const FILES: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", INDEX),
    ("/app.js", JS, APP),
    ("/state.js", JS, STATE),
    ("/socket.js", JS, SOCKET),
    ("/dom.js", JS, DOM),
    ("/account.js", JS, ACCOUNT),
    ("/room.js", JS, ROOM),
    ("/people.js", JS, PEOPLE),
    ("/api.js", JS, API),
    ("/catalogue.js", JS, CATALOGUE),
    ("/player.js", JS, PLAYER),
    ("/table.js", JS, TABLE),
    ("/rules.js", JS, RULES),
    ("/cards.js", JS, CARDS),
    ("/pips.js", JS, PIPS),
    ("/sound.js", JS, SOUND),
    ("/coach.js", JS, COACH),
    ("/i18n.js", JS, I18N),
    ("/glossary.js", JS, GLOSSARY),
    ("/wording.js", JS, WORDING),
    ("/patch.js", JS, PATCH),
    ("/review.js", JS, REVIEW),
    ("/review-model.js", JS, REVIEW_MODEL),
    ("/review-seven.js", JS, REVIEW_SEVEN),
    ("/replay.js", JS, REPLAY),
    ("/style.css", "text/css; charset=utf-8", STYLE),
    ("/favicon.svg", "image/svg+xml", ICON),
    ("/local.js", JS, LOCAL),
    ("/worker.js", JS, WORKER),
    ("/manifest.webmanifest", "application/manifest+json", MANIFEST),
];

/// The client's files that are not text: the icons and the WebAssembly.
pub(crate) const ASSETS: &[(&str, &str, &[u8])] = &[
    ("/icons/icon-180.png", "image/png", include_bytes!("../../../../web/icons/icon-180.png")),
    ("/icons/icon-192.png", "image/png", include_bytes!("../../../../web/icons/icon-192.png")),
    ("/icons/icon-512.png", "image/png", include_bytes!("../../../../web/icons/icon-512.png")),
    ("/oh7.wasm", "application/wasm", WASM),
];

/// Whether this build has the WebAssembly (play on the device).
pub fn has_wasm() -> bool {
    !WASM.is_empty()
}

/// The files the service worker keeps, relative to it (`./` is the page).
fn cached_files() -> Vec<String> {
    let text = FILES.iter().map(|(p, _, _)| *p);
    let assets = ASSETS.iter().filter(|(p, _, b)| !b.is_empty() || *p != "/oh7.wasm").map(|(p, _, _)| *p);
    text.chain(assets).map(|p| format!(".{p}")).collect()
}

/// The client's version: a hash of every file it is made of.
fn version() -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bodies =
        FILES.iter().map(|(_, _, b)| b.as_bytes()).chain(ASSETS.iter().map(|(_, _, b)| *b)).chain([SW.as_bytes()]);
    for body in bodies {
        for &b in body {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h = h.rotate_left(7);
    }
    format!("{h:016x}")
}

/// The service worker with this version and file list written in.
pub fn service_worker() -> String {
    let files = serde_json::to_string(&cached_files()).expect("strings serialize");
    SW.replacen("\"__OH7_VERSION__\"", &format!("\"{}\"", version()), 1).replacen("[\"__OH7_FILES__\"]", &files, 1)
}

/// The static copy of the client (`oh7 web`): every file by its relative path, the page with
/// relative links and in local-only mode (no server: play on the device only).
pub fn static_files() -> Vec<(String, Vec<u8>)> {
    let index = INDEX.replace("=\"/", "=\"./").replace("<body>", "<body data-mode=\"local\">");
    let mut out = vec![("index.html".to_string(), index.into_bytes())];
    for &(path, _, body) in FILES.iter().filter(|(p, _, _)| *p != "/") {
        out.push((path.trim_start_matches('/').to_string(), body.as_bytes().to_vec()));
    }
    for &(path, _, body) in ASSETS {
        out.push((path.trim_start_matches('/').to_string(), body.to_vec()));
    }
    out.push(("sw.js".to_string(), service_worker().into_bytes()));
    out
}

/// A file's validator: a hash of its bytes (FNV-1a, 64 bits), weak, so a browser revalidates with
/// `If-None-Match` and gets `304 Not Modified` until the binary ships a new file.
fn etag(body: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in body {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    // Weak: the compression layer sends the same file gzipped or plain under one tag.
    format!("W/\"{h:016x}\"")
}

/// A static file: `Cache-Control: no-cache` (always revalidated, so a new binary's client is
/// seen at once) with an `ETag`, answered `304` when the browser has it already.
fn file(headers: &HeaderMap, content_type: &'static str, body: &'static str) -> Response {
    let tag = etag(body.as_bytes());
    let fresh = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|v| v == tag);
    let common = [(header::CACHE_CONTROL, "no-cache".to_string()), (header::ETAG, tag)];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    ([(header::CONTENT_TYPE, content_type.to_string()), common[0].clone(), common[1].clone()], body).into_response()
}

/// A file that is not text: the same validation as [`file`].
fn bytes(headers: &HeaderMap, content_type: &'static str, body: &'static [u8]) -> Response {
    let tag = etag(body);
    let fresh = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|v| v == tag);
    let common = [(header::CACHE_CONTROL, "no-cache".to_string()), (header::ETAG, tag)];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    ([(header::CONTENT_TYPE, content_type.to_string()), common[0].clone(), common[1].clone()], body).into_response()
}

/// The home page.
pub(crate) fn index() -> Response {
    live(&HeaderMap::new(), "/", "text/html; charset=utf-8", INDEX)
}

/// For working on the client: with `OH7_WEB_DIR` set, files are read from that folder on every
/// request (edit, reload), instead of the copies built into the binary.
fn live(headers: &HeaderMap, path: &str, content_type: &'static str, body: &'static str) -> Response {
    if let Some(dir) = std::env::var_os("OH7_WEB_DIR") {
        let name = if path == "/" { "index.html" } else { path.trim_start_matches('/') };
        if let Ok(text) = std::fs::read_to_string(std::path::Path::new(&dir).join(name)) {
            return ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-store")], text).into_response();
        }
    }
    file(headers, content_type, body)
}

/// The client's other files and the table pages.
pub(crate) fn routes() -> Router<Arc<App>> {
    let mut r = Router::new();
    for &(path, ty, body) in FILES.iter().filter(|(p, _, _)| *p != "/") {
        r = r.route(path, get(move |h: HeaderMap| async move { live(&h, path, ty, body) }));
    }
    for &(path, ty, body) in ASSETS.iter().filter(|(_, _, b)| !b.is_empty()) {
        r = r.route(path, get(move |h: HeaderMap| async move { bytes(&h, ty, body) }));
    }
    let sw: &'static str = Box::leak(service_worker().into_boxed_str());
    r.route("/sw.js", get(move |h: HeaderMap| async move { file(&h, JS, sw) }))
        .route("/favicon.ico", get(|h: HeaderMap| async move { file(&h, "image/svg+xml", ICON) }))
        .route("/t/{code}", get(|h: HeaderMap| async move { live(&h, "/", "text/html; charset=utf-8", INDEX) }))
        .route("/w/{code}", get(|h: HeaderMap| async move { live(&h, "/", "text/html; charset=utf-8", INDEX) }))
        .route("/review/{code}", get(|h: HeaderMap| async move { live(&h, "/", "text/html; charset=utf-8", INDEX) }))
        .route("/replay/{code}", get(|h: HeaderMap| async move { live(&h, "/", "text/html; charset=utf-8", INDEX) }))
        .route("/p/{name}", get(|h: HeaderMap| async move { live(&h, "/", "text/html; charset=utf-8", INDEX) }))
}

#[cfg(test)]
mod tests {
    /// The first load (page, scripts, style) stays under 330 KB: every text file but the review
    /// and replay pages' scripts, which only those pages load (`import()`), and the service
    /// worker's files (the WebAssembly is counted in docs/offline.md's compressed download), and
    /// the public room's panel and the people menus, which the home page and the table's chat
    /// import once drawn.
    /// It was 300 KB until the tutorials (2026-12-02): their coach (`coach.js`, 21 KB) is on the
    /// home page a newcomer opens first, and the table's new look added 12 KB.
    #[test]
    fn first_load_is_small() {
        let later = ["/review.js", "/review-model.js", "/review-seven.js", "/replay.js", "/room.js", "/people.js"];
        let total: usize = super::FILES.iter().filter(|(p, _, _)| !later.contains(p)).map(|(_, _, f)| f.len()).sum();
        assert!(total < 330_000, "{total} bytes");
    }

    /// The browser's glossary is the terminal's: the file shipped is what the core generates.
    #[test]
    fn glossary_js_is_generated_from_the_core() {
        assert_eq!(
            super::GLOSSARY,
            oh7_core::glossary::to_js(),
            "run the glossary test's regeneration: web/glossary.js is stale"
        );
    }

    /// A file's ETag changes with its bytes.
    #[test]
    fn etags_follow_the_bytes() {
        assert_ne!(super::etag(b"a"), super::etag(b"b"));
        assert_eq!(super::etag(b"a"), super::etag(b"a"));
    }
}
