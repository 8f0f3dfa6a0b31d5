//! The browser client's files (`web/`), embedded in the binary: one file to ship, no CDN, works
//! offline on a LAN. The table pages (`/t/CODE`, `/w/CODE`) are the same page; the script reads
//! the code from the path.

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::http::App;

const INDEX: &str = include_str!("../../../web/index.html");
const APP: &str = include_str!("../../../web/app.js");
const CARDS: &str = include_str!("../../../web/cards.js");
const I18N: &str = include_str!("../../../web/i18n.js");
const STYLE: &str = include_str!("../../../web/style.css");

/// Every file of the client and its size, for the first-load budget.
pub const FILES: &[(&str, &str)] =
    &[("/", INDEX), ("/app.js", APP), ("/cards.js", CARDS), ("/i18n.js", I18N), ("/style.css", STYLE)];

fn file(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// The terms of the rule documents, from the glossary the terminal game uses
/// (`oh7_core::glossary`), as an ES module.
fn glossary() -> Response {
    static JS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let body = JS.get_or_init(oh7_core::glossary::to_js).clone();
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], body)
        .into_response()
}

/// The home page.
pub fn index() -> Response {
    file("text/html; charset=utf-8", INDEX)
}

/// The client's other files and the table pages.
pub fn routes() -> Router<Arc<App>> {
    let js = "text/javascript; charset=utf-8";
    Router::new()
        .route("/app.js", get(move || async move { file(js, APP) }))
        .route("/cards.js", get(move || async move { file(js, CARDS) }))
        .route("/i18n.js", get(move || async move { file(js, I18N) }))
        .route("/glossary.js", get(move || async move { glossary() }))
        .route("/style.css", get(|| async { file("text/css; charset=utf-8", STYLE) }))
        .route("/t/{code}", get(|| async { index() }))
        .route("/w/{code}", get(|| async { index() }))
}

#[cfg(test)]
mod tests {
    /// The first load (page, scripts, style) stays under 300 KB.
    #[test]
    fn first_load_is_small() {
        let total: usize = super::FILES.iter().map(|(_, f)| f.len()).sum();
        assert!(total < 300_000, "{total} bytes");
    }
}
