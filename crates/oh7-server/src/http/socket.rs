//! One client's WebSocket: a [`Session`] reads its frames, limits its commands, joins it to one
//! table with `hello`, and hands every later command to that table's task; a writer task sends
//! what the table queues for it. Bad input gets a documented error and the connection stays;
//! what the WebSocket library refuses (a frame too big, text that is not UTF-8, a broken
//! protocol) closes it with the status RFC 6455 gives (a [`CloseReason`]).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::app::App;
use crate::lobby::Located;
use crate::table::{ConnId, Frame, TableHandle, TableMsg};
use oh7_table::protocol::{ClientMsg, ErrorCode, MAX_ID_LEN, Refusal, ServerMsg};

/// Why the server closes a WebSocket with a status (RFC 6455, section 7.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CloseReason {
    /// A frame or message over the largest read (1009).
    TooBig,
    /// A text frame that is not UTF-8 (1007).
    NotUtf8,
    /// A frame that breaks the WebSocket protocol (1002).
    Protocol,
}

impl CloseReason {
    /// The reason of a read error, from the WebSocket library's own error kinds; `None` for an
    /// error with no status to send (the connection just ends).
    pub(crate) fn of(e: axum::Error) -> Option<CloseReason> {
        use tungstenite::Error;
        match e.into_inner().downcast::<Error>().ok().map(|e| *e)? {
            Error::Capacity(_) => Some(CloseReason::TooBig),
            Error::Utf8(_) => Some(CloseReason::NotUtf8),
            Error::Protocol(_) => Some(CloseReason::Protocol),
            _ => None,
        }
    }

    /// The close frame: its status and its words.
    fn frame(self) -> CloseFrame {
        let (code, reason) = match self {
            CloseReason::TooBig => (1009, "message too big"),
            CloseReason::NotUtf8 => (1007, "text frames are UTF-8"),
            CloseReason::Protocol => (1002, "protocol error"),
        };
        CloseFrame { code, reason: reason.into() }
    }
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

/// What to do after a frame.
enum Flow {
    /// Read the next one.
    Go,
    /// Close the connection.
    Stop,
}

/// One connection, from its first frame to its close.
pub(crate) struct Session {
    conn: ConnId,
    app: Arc<App>,
    /// The connection's queue of frames to send (the writer task sends them).
    tx: mpsc::Sender<Frame>,
    bucket: Bucket,
    /// The table this connection joined with `hello`.
    table: Option<TableHandle>,
    /// Once the client pings (its heartbeat), it is held to it: silent past this, the
    /// connection is closed (a stalled network, a page frozen without a close).
    heard_by: Option<tokio::time::Instant>,
    /// The status to close with, if any.
    close: Option<CloseReason>,
    /// The account signed in on the page that opened the connection (its session cookie).
    account: Option<String>,
}

impl Session {
    /// Serve `socket` until it closes, the table it joined goes, or the server stops.
    pub(crate) async fn run(socket: WebSocket, app: Arc<App>, account: Option<String>) {
        let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
        let span = tracing::info_span!("conn", id = conn);
        tracing::Instrument::instrument(Session::serve(socket, app, account, conn), span).await
    }

    async fn serve(socket: WebSocket, app: Arc<App>, account: Option<String>, conn: ConnId) {
        let _open = crate::metrics::Held::new(crate::metrics::CONNECTIONS);
        let (sink, mut stream) = socket.split();
        let (tx, rx) = mpsc::channel::<Frame>(app.settings.outbox);
        let writer = crate::settings::spawn_here(write(sink, rx));
        let s = &app.settings;
        let bucket = Bucket { level: s.burst, at: Instant::now(), rate: s.commands_per_s, burst: s.burst };
        let mut session =
            Session { conn, app: app.clone(), tx, bucket, table: None, heard_by: None, close: None, account };
        let stopped = session.read_all(&mut stream).await;
        let Session { table, tx, close, .. } = session;
        if stopped && table.is_none() {
            // A connection at no table hears it from nobody else: every client of a stopping
            // server gets `closing` before the close (a table tells its own, with its version).
            let _ = tx.send(oh7_table::protocol::ClosingReason::Stopping.msg(0).frame()).await;
        }
        if let Some(h) = table {
            let _ = h.tx.send(TableMsg::Detach { conn }).await;
        }
        drop(tx);
        if let Ok(mut sink) = writer.await {
            if let Some(reason) = close {
                let _ = sink.send(Message::Close(Some(reason.frame()))).await;
                let _ = sink.flush().await;
                // The rest of a frame too big to read may still be unread: closing the socket at
                // once would reset the connection and lose the close frame on its way. The
                // library reads no more after its error, so wait a moment for the client to take it.
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            let _ = sink.close().await;
        }
    }

    /// Read frames until the connection ends (or must end); `true` if it ends because the
    /// server is stopping.
    async fn read_all(&mut self, stream: &mut SplitStream<WebSocket>) -> bool {
        let mut stopping = self.app.stopping.clone();
        loop {
            // The table's task ended (it was lost to another instance): its last frames are sent
            // and the connection closes; the client reconnects.
            let table_gone = async {
                match &self.table {
                    Some(h) => h.tx.closed().await,
                    None => std::future::pending().await,
                }
            };
            let deadline = async {
                match self.heard_by {
                    Some(t) => tokio::time::sleep_until(t).await,
                    None => std::future::pending().await,
                }
            };
            let msg = tokio::select! {
                m = stream.next() => m,
                _ = stopping.changed() => return true,
                _ = table_gone => return false,
                _ = deadline => return false,
            };
            if self.heard_by.is_some() {
                self.heard_by = Some(tokio::time::Instant::now() + self.app.settings.heartbeat);
            }
            let flow = match msg {
                Some(Ok(Message::Text(t))) => self.text(t.as_str()).await,
                Some(Ok(Message::Binary(_))) => {
                    self.refuse(Refusal::new(ErrorCode::Malformed, "Send text frames of JSON."), None).await;
                    Flow::Go
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => Flow::Go,
                Some(Err(e)) => {
                    self.close = CloseReason::of(e);
                    if self.close == Some(CloseReason::TooBig) {
                        self.refuse(self.too_large(), None).await;
                    }
                    Flow::Stop
                }
                Some(Ok(Message::Close(_))) | None => Flow::Stop,
            };
            if let Flow::Stop = flow {
                return false;
            }
        }
    }

    fn too_large(&self) -> Refusal {
        let most = self.app.settings.max_message;
        Refusal::new(ErrorCode::TooLarge, format!("A message has at most {most} bytes."))
    }

    /// Send refusal `r` (of the command `id`, when known) to this connection.
    async fn refuse(&self, r: Refusal, id: Option<&str>) {
        metrics::counter!(crate::metrics::REFUSALS, "code" => r.code.as_str()).increment(1);
        let _ = self.tx.send(r.to_msg(id, None).frame()).await;
    }

    /// One text frame: within the limits, a message of the protocol, then its command.
    async fn text(&mut self, text: &str) -> Flow {
        if text.len() > self.app.settings.max_message {
            self.refuse(self.too_large(), None).await;
            return Flow::Go;
        }
        if !self.bucket.take() {
            // The command's id when the frame reads as one, so the client knows which it was.
            let id = serde_json::from_str::<Value>(text).ok().and_then(|v| {
                v.get("id")
                    .and_then(Value::as_str)
                    .filter(|id| !id.is_empty() && id.len() <= MAX_ID_LEN)
                    .map(String::from)
            });
            self.refuse(Refusal::new(ErrorCode::RateLimited, "Too many commands: slow down."), id.as_deref()).await;
            return Flow::Go;
        }
        let msg: ClientMsg = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                let r = Refusal::new(ErrorCode::Malformed, format!("Not a message of the protocol: {e}."));
                self.refuse(r, None).await;
                return Flow::Go;
            }
        };
        if matches!(msg, ClientMsg::Ping {}) {
            self.heard_by = Some(tokio::time::Instant::now() + self.app.settings.heartbeat);
        }
        if msg.id().is_some_and(|id| id.is_empty() || id.len() > MAX_ID_LEN) {
            let r = Refusal::new(ErrorCode::Malformed, format!("A command id has 1 to {MAX_ID_LEN} characters."));
            self.refuse(r, None).await;
            return Flow::Go;
        }
        match (msg, &self.table) {
            (ClientMsg::Hello { table: code, token }, None) => self.hello(&code, token).await,
            (ClientMsg::Hello { .. }, Some(_)) => {
                let r = Refusal::new(ErrorCode::AlreadyJoined, "This connection has joined a table already.");
                self.refuse(r, None).await;
                Flow::Go
            }
            (msg, None) => {
                let r = Refusal::new(ErrorCode::NoHello, "Say hello with the table's link first.");
                self.refuse(r, msg.id()).await;
                Flow::Go
            }
            (msg, Some(h)) => match h.tx.send(TableMsg::Command { conn: self.conn, msg }).await {
                Ok(()) => Flow::Go,
                Err(_) => Flow::Stop,
            },
        }
    }

    /// `hello`: join the table behind `code` (here, or redirected to its instance).
    async fn hello(&mut self, code: &str, token: Option<String>) -> Flow {
        // A table that unloads itself while this hello is on its way drops the answer; the
        // lobby then loads it again.
        let mut answer = None;
        let mut owner = None;
        for _ in 0..3 {
            let (handle, access) = match self.app.lobby.locate(code).await {
                Located::Here(h, a) => (h, a),
                Located::Elsewhere(url) => {
                    owner = Some(url);
                    break;
                }
                Located::Unknown => break,
            };
            let (reply, wait) = oneshot::channel();
            let attach = TableMsg::Attach {
                conn: self.conn,
                tx: self.tx.clone(),
                access,
                token: token.clone(),
                account: self.account.clone(),
                reply,
            };
            if handle.tx.send(attach).await.is_err() {
                continue;
            }
            if let Ok(r) = wait.await {
                answer = Some((handle, r));
                break;
            }
        }
        match (answer, owner) {
            (Some((handle, Ok(_))), _) => self.table = Some(handle),
            (Some((_, Err(r))), _) => self.refuse(r, None).await,
            (None, Some(url)) => {
                let message = "This table is played on another server: connect there.".to_string();
                let _ = self.tx.send(ServerMsg::Redirect { url, message }.frame()).await;
                return Flow::Stop;
            }
            (None, None) if self.app.lobby.is_closing() => {
                self.refuse(Refusal::new(ErrorCode::ShuttingDown, "The server is stopping; try again soon."), None)
                    .await
            }
            (None, None) => self.refuse(Refusal::new(ErrorCode::UnknownTable, "No table has this link."), None).await,
        }
        Flow::Go
    }
}

/// The writer task: send what the connection's queue holds; give the sink back at the end.
async fn write(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Frame>,
) -> SplitSink<WebSocket, Message> {
    // What is queued together goes out together: one write for a move's ack and its event.
    while let Some(f) = rx.recv().await {
        if sink.feed(Message::Text(f.as_ref().into())).await.is_err() {
            return sink;
        }
        while let Ok(f) = rx.try_recv() {
            if sink.feed(Message::Text(f.as_ref().into())).await.is_err() {
                return sink;
            }
        }
        if sink.flush().await.is_err() {
            break;
        }
    }
    sink
}
