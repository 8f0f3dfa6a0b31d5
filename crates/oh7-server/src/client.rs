//! A small client of the server, for the tests and `oh7 bench server`: plain HTTP/1.1 for the
//! few HTTP calls, and a WebSocket that tracks the version, the view and the legal actions.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Why a client call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The connection.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// The WebSocket.
    #[error("websocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
    /// The answer.
    #[error("bad answer: {0}")]
    Answer(String),
    /// Nothing came in time.
    #[error("timed out")]
    Timeout,
    /// The server closed the connection.
    #[error("closed")]
    Closed,
}

/// One HTTP request; returns the status and the body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<(u16, String), ClientError> {
    let a = request(addr, method, path, &[], body).await?;
    Ok((a.status, a.body))
}

/// An HTTP answer: its status, its head's header lines (names lower-cased) and its body.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status.
    pub status: u16,
    /// `(name, value)` of each header line, the name lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body (de-chunked).
    pub body: String,
}

impl Answer {
    /// The first value of header `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// One HTTP request with extra header lines (`Cookie`, `Origin`, ...).
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: Option<&str>,
) -> Result<Answer, ClientError> {
    let mut s = TcpStream::connect(addr).await?;
    let body = body.unwrap_or("");
    let extra: String = extra.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await?;
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").ok_or_else(|| ClientError::Answer("no HTTP head".into()))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::Answer("no status".into()))?;
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked { dechunk(rest) } else { rest.to_string() };
    Ok(Answer { status, headers, body })
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Create a table: `POST /api/tables`; returns the answer (invite, watch, token).
pub async fn create_table(addr: SocketAddr, req: &Value) -> Result<Value, ClientError> {
    let (status, body) = http(addr, "POST", "/api/tables", Some(&req.to_string())).await?;
    let v: Value = serde_json::from_str(&body).map_err(|e| ClientError::Answer(format!("{e}: {body}")))?;
    if status != 201 {
        return Err(ClientError::Answer(format!("{status}: {body}")));
    }
    Ok(v)
}

/// A WebSocket client that keeps what its last messages said.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The last version seen.
    pub version: u64,
    /// The seat, once seated.
    pub seat: Option<usize>,
    /// The last view received.
    pub view: Value,
    /// The last table information received.
    pub table: Value,
    /// The legal actions now, as sent (structured: `{a, kind, card, …}`).
    pub moves: Value,
    /// The legal actions' notations (each move's `a`).
    pub legal: Vec<String>,
    /// The chat lines seen (the snapshot's, then each one told).
    pub chat: Vec<Value>,
    /// Every frame received, as text, when recording.
    pub frames: Option<Vec<String>>,
    /// Bytes received.
    pub bytes: u64,
    next_id: u64,
    prefix: String,
}

impl Client {
    /// Connect to `ws://addr/ws`.
    pub async fn connect(addr: SocketAddr) -> Result<Client, ClientError> {
        Client::connect_with(addr, &[]).await
    }

    /// [`Client::connect`] with extra header lines on the upgrade request (`Cookie`, `Origin`).
    pub async fn connect_with(addr: SocketAddr, headers: &[(&str, &str)]) -> Result<Client, ClientError> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = format!("ws://{addr}/ws").into_client_request()?;
        for (k, v) in headers {
            let name = tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(k.as_bytes())
                .map_err(|e| ClientError::Answer(e.to_string()))?;
            let value = tokio_tungstenite::tungstenite::http::HeaderValue::from_str(v)
                .map_err(|e| ClientError::Answer(e.to_string()))?;
            req.headers_mut().insert(name, value);
        }
        // Read and write buffers of 8 KiB, as the server's (a message is under 2 KiB): with
        // tungstenite's default of 128 KiB every read zeroes a fresh 128 KiB, which took 38% of
        // the load generator's core at 10,000 connections and made it, not the server, the
        // limit of `oh7 bench server`.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8 * 1024)
            .write_buffer_size(8 * 1024);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), false).await?;
        Ok(Client {
            ws,
            version: 0,
            seat: None,
            view: Value::Null,
            table: Value::Null,
            moves: Value::Array(Vec::new()),
            legal: Vec::new(),
            chat: Vec::new(),
            frames: None,
            bytes: 0,
            next_id: 0,
            prefix: crate::secrets::new_code()[..8].to_string(),
        })
    }

    /// Send a raw text frame.
    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        self.ws.send(Message::Text(text.into())).await?;
        Ok(())
    }

    /// Send a message.
    pub async fn send(&mut self, v: &Value) -> Result<(), ClientError> {
        self.send_text(v.to_string()).await
    }

    /// A fresh command id, unique across this client's reconnections (a random prefix per
    /// client, then a count): the server answers a repeated id with its first answer.
    pub fn id(&mut self) -> String {
        self.next_id += 1;
        format!("{}-{}", self.prefix, self.next_id)
    }

    /// The next message (within `wait`), after updating version, view and legal actions.
    pub async fn recv_within(&mut self, wait: Duration) -> Result<Value, ClientError> {
        loop {
            let m = tokio::time::timeout(wait, self.ws.next()).await.map_err(|_| ClientError::Timeout)?;
            let text = match m {
                Some(Ok(Message::Text(t))) => t.to_string(),
                Some(Ok(Message::Close(_))) | None => return Err(ClientError::Closed),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.into()),
            };
            self.bytes += text.len() as u64;
            let v: Value = serde_json::from_str(&text).map_err(|e| ClientError::Answer(e.to_string()))?;
            if let Some(f) = &mut self.frames {
                f.push(text);
            }
            self.absorb(&v).map_err(ClientError::Answer)?;
            return Ok(v);
        }
    }

    /// The next message (within 20 s).
    pub async fn recv(&mut self) -> Result<Value, ClientError> {
        self.recv_within(Duration::from_secs(20)).await
    }

    /// Keep the legal actions as sent, and their notations.
    fn set_moves(&mut self, moves: Value) {
        self.legal = moves
            .as_array()
            .map_or_else(Vec::new, |l| l.iter().filter_map(|m| m["a"].as_str().map(String::from)).collect());
        self.moves = moves;
    }

    /// Keep what a message says: a snapshot's document whole, an event's or a presence's patch
    /// applied to it (a patch that does not fit is an error: the server sent a wrong patch).
    fn absorb(&mut self, v: &Value) -> Result<(), String> {
        match v["type"].as_str() {
            Some("snapshot") => {
                self.version = v["version"].as_u64().unwrap_or(0);
                self.seat = v["you"].as_u64().map(|s| s as usize);
                self.view = v["view"].clone();
                self.table = v["table"].clone();
                self.set_moves(v["legal"].clone());
                self.chat = v["chat"].as_array().cloned().unwrap_or_default();
            }
            Some("event") | Some("presence") => {
                if v["event"]["kind"] == "chat" {
                    self.chat.push(v["event"]["entry"].clone());
                }
                self.version = v["version"].as_u64().unwrap_or(self.version);
                if let Some(patch) = v["patch"].as_object() {
                    // The document's parts as patches name them: `t`, `v`, `l`.
                    let mut doc = serde_json::json!({
                        "t": std::mem::take(&mut self.table),
                        "v": std::mem::take(&mut self.view),
                        "l": std::mem::take(&mut self.moves),
                    });
                    let fit = oh7_table::patch::apply(&mut doc, patch);
                    self.table = doc["t"].take();
                    self.view = doc["v"].take();
                    self.set_moves(doc["l"].take());
                    fit.map_err(|e| format!("{e}: {v}"))?;
                }
            }
            Some("ack") => {
                if let Some(s) = v["seat"].as_u64() {
                    self.seat = Some(s as usize);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Wait for a message for which `f` holds (others are absorbed on the way).
    pub async fn until(&mut self, mut f: impl FnMut(&Value) -> bool) -> Result<Value, ClientError> {
        loop {
            let v = self.recv().await?;
            if f(&v) {
                return Ok(v);
            }
        }
    }

    /// `hello` and the snapshot that answers it (or the error).
    pub async fn hello(&mut self, code: &str, token: Option<&str>) -> Result<Value, ClientError> {
        self.send(&json!({"type": "hello", "table": code, "token": token})).await?;
        self.until(|v| v["type"] == "snapshot" || v["type"] == "error").await
    }

    /// Send a command with a fresh id and wait for its ack or error.
    pub async fn command(&mut self, mut cmd: Value) -> Result<Value, ClientError> {
        let id = self.id();
        cmd["id"] = Value::String(id.clone());
        self.send(&cmd).await?;
        self.until(|v| (v["type"] == "ack" || v["type"] == "error") && v["id"] == id.as_str()).await
    }

    /// Close the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The strings of a JSON array.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default()
}
