//! HTTP routes (axum): health, the presets a create form offers, table creation and
//! information, record download and game statistics (gzip when asked), and the WebSocket of each
//! client. Handlers only translate between the wire and the lobby or a table
//! task; they never hold game state.

//!
//! One file per area: `mod.rs` the router and the table routes, `accounts.rs` the account
//! routes, `players.rs` the player pages, `socket.rs` the WebSocket session, `files.rs` the
//! browser client's static files.

pub(crate) mod accounts;
pub mod files;
pub(crate) mod players;
pub(crate) mod room;
pub(crate) mod socket;

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use tower_http::compression::CompressionLayer;

use crate::app::{App, ClientIp, MAX_BODY, MAX_FRAME};
use crate::lobby::{CreateTable, Located};
use oh7_table::protocol::{ErrorCode, Refusal};

/// The routes.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/api/presets", get(presets))
        .route("/api/lobby", get(lobby))
        .route("/api/tables", post(create))
        .route("/api/tables/{code}", get(info))
        .route("/api/tables/{code}/record", get(record))
        .route("/api/tables/{code}/stats", get(stats))
        .route("/api/tables/{code}/rules", get(rules))
        .route("/api/reviews/{code}", get(review))
        .merge(files::routes())
        .merge(crate::http::accounts::routes())
        .merge(players::routes())
        .merge(room::routes())
        // gzip when the client asks (`Accept-Encoding`), on every route above; a layer covers
        // only the routes added before it, so the WebSocket below is left alone.
        .layer(CompressionLayer::new())
        .route("/ws", get(ws))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(request_span))
        .with_state(app)
}

/// Every request's log lines carry its id (span `req`); never its path, where codes are.
async fn request_span(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let span = tracing::info_span!("req", id, method = %req.method());
    tracing::Instrument::instrument(next.run(req), span).await
}

fn refusal_response(status: StatusCode, r: &Refusal) -> Response {
    (status, Json(r.to_body())).into_response()
}

async fn presets() -> Response {
    Json(crate::lobby::presets()).into_response()
}

async fn stats(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    let r = match app.lobby.stats(&code).await {
        Ok(Some(v)) => Json(v).into_response(),
        Ok(None) => refusal_response(
            StatusCode::NOT_FOUND,
            &Refusal::new(ErrorCode::NotOver, "No game at this table has finished yet."),
        ),
        Err(away) => elsewhere(away, &format!("/api/tables/{code}/stats")),
    };
    public(r)
}

async fn rules(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    public(match app.lobby.rules(&code).await {
        Ok(body) => Json(body).into_response(),
        Err(away) => elsewhere(away, &format!("/api/tables/{code}/rules")),
    })
}

/// A table's public reads may be fetched by a page another instance served (after a redirect).
fn public(mut r: Response) -> Response {
    r.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, header::HeaderValue::from_static("*"));
    r
}

/// A table not played here: to its instance (307, the same path), or unknown.
fn elsewhere(away: Located, path: &str) -> Response {
    match away {
        Located::Elsewhere(url) => {
            let to = format!("{}{path}", url.trim_end_matches('/'));
            match header::HeaderValue::from_str(&to) {
                Ok(to) => (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, to)]).into_response(),
                Err(_) => unknown_table(),
            }
        }
        _ => unknown_table(),
    }
}

async fn lobby(State(app): State<Arc<App>>) -> Response {
    match app.lobby.counts().await {
        Ok(c) => public(Json(c).into_response()),
        Err(e) => {
            tracing::error!(error = %e, "could not count the lobby");
            refusal_response(
                StatusCode::SERVICE_UNAVAILABLE,
                &Refusal::new(ErrorCode::Storage, "The server could not read the lobby; try again."),
            )
        }
    }
}

/// Ready to take players: not stopping, and a change can be committed now (the database answers
/// and can write). `503` with the reason otherwise, for a load balancer or an orchestrator's
/// readiness probe; `/healthz` says only that the process is alive.
async fn readyz(State(app): State<Arc<App>>) -> Response {
    if *app.stopping.borrow() {
        return (StatusCode::SERVICE_UNAVAILABLE, "not ready: stopping\n").into_response();
    }
    match app.lobby.ready(std::time::Duration::from_secs(2)).await {
        Ok(()) => "ready\n".into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "not ready: a change cannot be committed");
            (StatusCode::SERVICE_UNAVAILABLE, format!("not ready: cannot commit ({e})\n")).into_response()
        }
    }
}

async fn review(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    match app.lobby.reviews.page(&code).await {
        Some(body) => ([(axum::http::header::CONTENT_TYPE, "application/json")], body).into_response(),
        None => {
            refusal_response(StatusCode::NOT_FOUND, &Refusal::new(ErrorCode::UnknownReview, "No review has this link."))
        }
    }
}

async fn index() -> Response {
    files::index()
}

async fn create(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        // Over the body limit (or a body that could not be read): the same `{code, message}`
        // as every other refusal, not the framework's plain text.
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return refusal_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                &Refusal::new(ErrorCode::TooLarge, format!("A table request has at most {} KiB.", MAX_BODY / 1024)),
            );
        }
        Err(e) => {
            return refusal_response(e.status(), &Refusal::new(ErrorCode::BadRequest, e.body_text()));
        }
    };
    // A JSON object and nothing else: serde would read an array as the fields in order (and
    // `[]` as a request with every field left out).
    let parsed = serde_json::from_slice::<serde_json::Value>(&body).and_then(|v| {
        if v.is_object() {
            serde_json::from_value::<CreateTable>(v)
        } else {
            Err(serde::de::Error::custom("a JSON object is expected"))
        }
    });
    let req: CreateTable = match parsed {
        Ok(r) => r,
        Err(e) => {
            return refusal_response(
                StatusCode::BAD_REQUEST,
                &Refusal::new(ErrorCode::Malformed, format!("Not a table request: {e}")),
            );
        }
    };
    let account = crate::http::accounts::connection_account(&app, &headers).await;
    match app.lobby.create(req, ip, account).await {
        Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
        Err(r) => {
            let status = match r.code {
                ErrorCode::TooMany => StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::Storage => StatusCode::SERVICE_UNAVAILABLE,
                // As every account call says it (a rated table needs a signed-in host).
                ErrorCode::SignedOut => StatusCode::UNAUTHORIZED,
                _ => StatusCode::BAD_REQUEST,
            };
            refusal_response(status, &r)
        }
    }
}

fn unknown_table() -> Response {
    refusal_response(StatusCode::NOT_FOUND, &Refusal::new(ErrorCode::UnknownTable, "No table has this link."))
}

async fn info(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    public(match app.lobby.info(&code).await {
        Ok(v) => Json(v).into_response(),
        Err(away) => elsewhere(away, &format!("/api/tables/{code}")),
    })
}

async fn record(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    public(match app.lobby.record(&code).await {
        Ok(Some(rec)) => {
            let mut body = rec.to_string();
            body.push('\n');
            (
                [
                    (header::CONTENT_TYPE, "application/json"),
                    (header::CONTENT_DISPOSITION, "attachment; filename=\"oh7-game.json\""),
                ],
                body,
            )
                .into_response()
        }
        Ok(None) => refusal_response(
            StatusCode::NOT_FOUND,
            &Refusal::new(ErrorCode::NotOver, "No game at this table has finished yet."),
        ),
        Err(away) => elsewhere(away, &format!("/api/tables/{code}/record")),
    })
}

async fn ws(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // The page's account, if it is signed in (and the page is this server's own).
    let account = crate::http::accounts::connection_account(&app, &headers).await;
    if let Err(r) = app.lobby.connect(ip) {
        return refusal_response(StatusCode::TOO_MANY_REQUESTS, &r);
    }
    // Frames up to 64 KiB are read so that one over 16 KiB gets an error, not a dropped socket.
    // Small buffers: a table's messages are a few KiB, and 10,000 connections should not each
    // hold 128 KiB of read buffer.
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .on_upgrade(move |socket| async move {
            socket::Session::run(socket, app.clone(), account).await;
            app.lobby.disconnect(ip);
        })
}
