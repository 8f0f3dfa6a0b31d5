//! HTTP routes (axum): health, the presets a create form offers, table creation and
//! information, record download and game statistics (gzip when asked), and the WebSocket of each
//! client. Handlers only translate between the wire and the lobby or a table
//! task; they never hold game state.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tower_http::compression::CompressionLayer;

use crate::Settings;
use crate::lobby::{CreateTable, Lobby, Located};
use crate::protocol::{ClientMsg, ErrorCode, MAX_ID_LEN, Refusal, ServerMsg};
use crate::table::{ConnId, Frame, TableHandle, TableMsg};

/// The address a connection comes from (the listener's own connect info, see `listen.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer(pub SocketAddr);

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, crate::listen::HeaderTimeoutListener>>
    for Peer
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, crate::listen::HeaderTimeoutListener>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

/// What every handler shares.
pub(crate) struct App {
    /// The tables.
    pub lobby: Lobby,
    /// Limits and timings.
    pub settings: Arc<Settings>,
    next_conn: AtomicU64,
    /// Set when the server is stopping: new commands are refused.
    pub stopping: tokio::sync::watch::Receiver<bool>,
}

impl App {
    /// The shared state.
    pub(crate) fn new(lobby: Lobby, settings: Arc<Settings>, stopping: tokio::sync::watch::Receiver<bool>) -> App {
        App { lobby, settings, next_conn: AtomicU64::new(1), stopping }
    }
}

/// Largest HTTP request body, in bytes.
pub(crate) const MAX_BODY: usize = 16 * 1024;

/// Largest WebSocket frame or message read, in bytes: one over [`Settings::max_message`] but
/// under this is answered `too_large` and the connection stays; one over this is answered
/// `too_large` and the connection is closed with status 1009 (its bytes are not read).
pub(crate) const MAX_FRAME: usize = 64 * 1024;

/// The routes.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/presets", get(presets))
        .route("/api/lobby", get(lobby))
        .route("/api/tables", post(create))
        .route("/api/tables/{code}", get(info))
        .route("/api/tables/{code}/record", get(record))
        .route("/api/tables/{code}/stats", get(stats))
        .route("/api/tables/{code}/rules", get(rules))
        .route("/api/reviews/{code}", get(review))
        .merge(crate::web::routes())
        // gzip when the client asks (`Accept-Encoding`), on every route above; a layer covers
        // only the routes added before it, so the WebSocket below is left alone.
        .layer(CompressionLayer::new())
        .route("/ws", get(ws))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
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

async fn review(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    match app.lobby.reviews.page(&code).await {
        Some(body) => ([(axum::http::header::CONTENT_TYPE, "application/json")], body).into_response(),
        None => {
            refusal_response(StatusCode::NOT_FOUND, &Refusal::new(ErrorCode::UnknownReview, "No review has this link."))
        }
    }
}

async fn index() -> Response {
    crate::web::index()
}

async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
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
    match app.lobby.create(req, addr.ip()).await {
        Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
        Err(r) => {
            let status = match r.code {
                ErrorCode::TooMany => StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::Storage => StatusCode::SERVICE_UNAVAILABLE,
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
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let ip = addr.ip();
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
            connection(socket, app.clone()).await;
            app.lobby.disconnect(ip);
        })
}

/// A token bucket: `rate` commands a second, up to `burst` at once.
struct Bucket {
    level: f64,
    at: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.level = (self.level + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.level >= 1.0 {
            self.level -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn connection(socket: WebSocket, app: Arc<App>) {
    let conn: ConnId = app.next_conn.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Frame>(app.settings.outbox);
    let writer = tokio::spawn(async move {
        while let Some(f) = rx.recv().await {
            if sink.send(Message::Text(f.as_ref().into())).await.is_err() {
                break;
            }
        }
        sink
    });
    // A close status to send (RFC 6455): 1009 too big, 1007 not UTF-8, 1002 protocol error.
    let mut status: Option<(u16, &str)> = None;
    let s = &app.settings;
    let mut bucket = Bucket { level: s.burst, at: Instant::now(), rate: s.commands_per_s, burst: s.burst };
    let mut table: Option<TableHandle> = None;
    let mut stopping = app.stopping.clone();
    let err = |r: Refusal, id: Option<&str>| r.to_msg(id, None).frame();
    // Once the client pings (its heartbeat), it is held to it: silent past the deadline, the
    // connection is closed (a stalled network, a page frozen without a close).
    let mut heard_by: Option<tokio::time::Instant> = None;
    loop {
        // The table's task ended (it was lost to another instance): its last frames are sent
        // and the connection closes; the client reconnects.
        let table_gone = async {
            match &table {
                Some(h) => h.tx.closed().await,
                None => std::future::pending().await,
            }
        };
        let deadline = async {
            match heard_by {
                Some(t) => tokio::time::sleep_until(t).await,
                None => std::future::pending().await,
            }
        };
        let msg = tokio::select! {
            m = stream.next() => m,
            _ = stopping.changed() => break,
            _ = table_gone => break,
            _ = deadline => break,
        };
        if heard_by.is_some() {
            heard_by = Some(tokio::time::Instant::now() + s.heartbeat);
        }
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Binary(_))) => {
                let _ = tx.send(err(Refusal::new(ErrorCode::Malformed, "Send text frames of JSON."), None)).await;
                continue;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Err(e)) => {
                // The library's error kinds arrive as text (axum wraps its own tungstenite).
                let e = e.to_string();
                if e.starts_with("Space limit exceeded") {
                    let r =
                        Refusal::new(ErrorCode::TooLarge, format!("A message has at most {} bytes.", s.max_message));
                    let _ = tx.send(err(r, None)).await;
                    status = Some((1009, "message too big"));
                } else if e.starts_with("UTF-8 encoding error") {
                    status = Some((1007, "text frames are UTF-8"));
                } else if e.starts_with("WebSocket protocol error") {
                    status = Some((1002, "protocol error"));
                }
                break;
            }
            Some(Ok(Message::Close(_))) | None => break,
        };
        if text.len() > s.max_message {
            let r = Refusal::new(ErrorCode::TooLarge, format!("A message has at most {} bytes.", s.max_message));
            let _ = tx.send(err(r, None)).await;
            continue;
        }
        if !bucket.take() {
            // The command's id when the frame reads as one, so the client knows which it was.
            let id = serde_json::from_str::<Value>(&text).ok().and_then(|v| {
                v.get("id")
                    .and_then(Value::as_str)
                    .filter(|id| !id.is_empty() && id.len() <= MAX_ID_LEN)
                    .map(String::from)
            });
            let r = Refusal::new(ErrorCode::RateLimited, "Too many commands: slow down.");
            let _ = tx.send(err(r, id.as_deref())).await;
            continue;
        }
        let msg: ClientMsg = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                let r = Refusal::new(ErrorCode::Malformed, format!("Not a message of the protocol: {e}."));
                let _ = tx.send(err(r, None)).await;
                continue;
            }
        };
        if matches!(msg, ClientMsg::Ping {}) {
            heard_by = Some(tokio::time::Instant::now() + s.heartbeat);
        }
        if msg.id().is_some_and(|id| id.is_empty() || id.len() > MAX_ID_LEN) {
            let r = Refusal::new(ErrorCode::Malformed, format!("A command id has 1 to {MAX_ID_LEN} characters."));
            let _ = tx.send(err(r, None)).await;
            continue;
        }
        match (msg, &table) {
            (ClientMsg::Hello { table: code, token }, None) => {
                // A table that unloads itself while this hello is on its way drops the answer;
                // the lobby then loads it again.
                let mut answer = None;
                let mut owner = None;
                for _ in 0..3 {
                    let (handle, access) = match app.lobby.locate(&code).await {
                        Located::Here(h, a) => (h, a),
                        Located::Elsewhere(url) => {
                            owner = Some(url);
                            break;
                        }
                        Located::Unknown => break,
                    };
                    let (reply, wait) = oneshot::channel();
                    let attach = TableMsg::Attach { conn, tx: tx.clone(), access, token: token.clone(), reply };
                    if handle.tx.send(attach).await.is_err() {
                        continue;
                    }
                    if let Ok(r) = wait.await {
                        answer = Some((handle, r));
                        break;
                    }
                }
                match answer {
                    Some((handle, Ok(_))) => table = Some(handle),
                    Some((_, Err(r))) => {
                        let _ = tx.send(err(r, None)).await;
                    }
                    None if owner.is_some() => {
                        let url = owner.unwrap_or_default();
                        let msg = "This table is played on another server: connect there.".to_string();
                        let _ = tx.send(ServerMsg::Redirect { url, message: msg }.frame()).await;
                        break;
                    }
                    None if app.lobby.is_closing() => {
                        let r = Refusal::new(ErrorCode::ShuttingDown, "The server is stopping; try again soon.");
                        let _ = tx.send(err(r, None)).await;
                    }
                    None => {
                        let r = Refusal::new(ErrorCode::UnknownTable, "No table has this link.");
                        let _ = tx.send(err(r, None)).await;
                    }
                }
            }
            (ClientMsg::Hello { .. }, Some(_)) => {
                let r = Refusal::new(ErrorCode::AlreadyJoined, "This connection has joined a table already.");
                let _ = tx.send(err(r, None)).await;
            }
            (msg, None) => {
                let r = Refusal::new(ErrorCode::NoHello, "Say hello with the table's link first.");
                let _ = tx.send(err(r, msg.id())).await;
            }
            (msg, Some(h)) => {
                if h.tx.send(TableMsg::Command { conn, msg }).await.is_err() {
                    break;
                }
            }
        }
    }
    if let Some(h) = table {
        let _ = h.tx.send(TableMsg::Detach { conn }).await;
    }
    drop(tx);
    if let Ok(mut sink) = writer.await {
        if let Some((code, reason)) = status {
            let close = axum::extract::ws::CloseFrame { code, reason: reason.into() };
            let _ = sink.send(Message::Close(Some(close))).await;
            let _ = sink.flush().await;
            // The rest of a frame too big to read may still be unread: closing the socket at
            // once would reset the connection and lose the close frame on its way. The library
            // reads no more after its error, so wait a moment for the client to take it.
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        let _ = sink.close().await;
    }
}
