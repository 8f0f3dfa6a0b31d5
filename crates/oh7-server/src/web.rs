//! The browser client's files, embedded in the binary (one file to ship, no CDN).

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::http::App;

const INDEX: &str = include_str!("../../../web/index.html");

/// The home page.
pub fn index() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX).into_response()
}

/// The client's other files.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
}
