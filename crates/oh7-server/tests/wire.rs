//! What docs/protocol.md and docs/server.md promise at the edges of the wire: oversized frames
//! and bodies, close statuses, ids on rate-limit errors, unknown fields on `sync`, the header
//! read timeout.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{fast, start, temp_db};
use oh7_server::client::{Client, create_table, http};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A WebSocket opened by hand (so that the test can send frames no library would).
async fn raw_ws(addr: SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        s.read_exact(&mut b).await.unwrap();
        head.push(b[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    s
}

/// One client frame (masked), `first` the first byte (FIN and opcode).
fn client_frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![first];
    let n = payload.len();
    if n < 126 {
        f.push(0x80 | n as u8);
    } else if n < 65536 {
        f.push(0x80 | 126);
        f.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        f.push(0x80 | 127);
        f.extend_from_slice(&(n as u64).to_be_bytes());
    }
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    f.extend_from_slice(&mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

/// The server's frames until it closes: (text frames, the close status if any).
async fn read_until_close(s: &mut TcpStream) -> (Vec<Value>, Option<u16>) {
    let mut texts = Vec::new();
    let mut buf = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        // Parse whole frames from the buffer.
        while buf.len() >= 2 {
            let op = buf[0] & 0x0f;
            let (len, at) = match buf[1] & 0x7f {
                126 if buf.len() >= 4 => (u16::from_be_bytes([buf[2], buf[3]]) as usize, 4),
                127 if buf.len() >= 10 => (u64::from_be_bytes(buf[2..10].try_into().unwrap()) as usize, 10),
                126 | 127 => break,
                n => (n as usize, 2),
            };
            if buf.len() < at + len {
                break;
            }
            let payload: Vec<u8> = buf[at..at + len].to_vec();
            buf.drain(..at + len);
            match op {
                1 => texts.push(serde_json::from_slice(&payload).unwrap()),
                8 => {
                    let code = (payload.len() >= 2).then(|| u16::from_be_bytes([payload[0], payload[1]]));
                    return (texts, code);
                }
                _ => {}
            }
        }
        let mut chunk = [0u8; 4096];
        let n = match tokio::time::timeout_at(deadline, s.read(&mut chunk)).await {
            Ok(Ok(n)) => n,
            Ok(Err(_)) => 0,
            Err(_) => panic!("the server neither closed nor answered; got {texts:?}"),
        };
        if n == 0 {
            return (texts, None);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// A frame over the 64 KiB read limit is answered `too_large` and closed with 1009.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_64_kib_is_answered_too_large_and_closed_1009() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let mut s = raw_ws(server.addr).await;
    let text = json!({"type": "chat", "id": "big", "text": "x".repeat(70 * 1024)}).to_string();
    s.write_all(&client_frame(0x81, text.as_bytes())).await.unwrap();
    let (texts, code) = read_until_close(&mut s).await;
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert_eq!(texts[0]["code"], "too_large", "{texts:?}");
    assert_eq!(code, Some(1009));
    server.stop().await;
}

/// A text frame that is not UTF-8 closes with 1007; a reserved opcode with 1002.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_utf8_closes_1007_and_a_reserved_opcode_1002() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let mut s = raw_ws(server.addr).await;
    s.write_all(&client_frame(0x81, b"{\"type\":\"sync\",\"x\":\"\xff\xfe\"}")).await.unwrap();
    assert_eq!(read_until_close(&mut s).await.1, Some(1007));
    let mut s = raw_ws(server.addr).await;
    s.write_all(&client_frame(0x83, b"{}")).await.unwrap();
    assert_eq!(read_until_close(&mut s).await.1, Some(1002));
    server.stop().await;
}

/// A `rate_limited` error carries the command's id (null when the frame does not read).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limited_carries_the_command_id() {
    let db = temp_db();
    let settings = oh7_server::Settings { commands_per_s: 0.01, burst: 1.0, ..fast() };
    let server = start(&db, settings).await;
    let created = create_table(server.addr, &json!({"players": 3, "name": "A"})).await.unwrap();
    let mut a = Client::connect(server.addr).await.unwrap();
    a.hello(created["invite"].as_str().unwrap(), created["token"].as_str()).await.unwrap();
    a.send(&json!({"type": "chat", "id": "c1", "text": "hi"})).await.unwrap();
    let m = a.until(|m| m["type"] == "error").await.unwrap();
    assert_eq!((&m["code"], &m["id"]), (&json!("rate_limited"), &json!("c1")), "{m}");
    a.send_text("not json".into()).await.unwrap();
    let m = a.until(|m| m["type"] == "error").await.unwrap();
    assert_eq!((&m["code"], &m["id"]), (&json!("rate_limited"), &Value::Null), "{m}");
    server.stop().await;
}

/// `sync` refuses unknown fields like every other command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_with_an_unknown_field_is_malformed() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let created = create_table(server.addr, &json!({"players": 3, "name": "A"})).await.unwrap();
    let mut a = Client::connect(server.addr).await.unwrap();
    a.hello(created["invite"].as_str().unwrap(), created["token"].as_str()).await.unwrap();
    a.send(&json!({"type": "sync", "since": 3})).await.unwrap();
    let m = a.until(|m| m["type"] == "error" || m["type"] == "snapshot").await.unwrap();
    assert_eq!(m["code"], "malformed", "{m}");
    a.send(&json!({"type": "sync"})).await.unwrap();
    let m = a.until(|m| m["type"] == "error" || m["type"] == "snapshot").await.unwrap();
    assert_eq!(m["type"], "snapshot", "{m}");
    server.stop().await;
}

/// An oversized create body gets 413 with the `{code, message}` of every refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_create_body_is_413_json() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let body = json!({"players": 3, "name": "A", "ruleset": "#".repeat(20 * 1024)}).to_string();
    let (status, text) = http(server.addr, "POST", "/api/tables", Some(&body)).await.unwrap();
    assert_eq!(status, 413, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(v["code"], "too_large", "{v}");
    assert!(v["message"].as_str().is_some_and(|m| m.contains("16 KiB")), "{v}");
    server.stop().await;
}

/// Issue 37 (6): a create body that is not a JSON object is `malformed` (serde alone would read
/// `[]` as a request with every field left out, and answer `bad_name`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_body_that_is_not_an_object_is_malformed() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    for body in ["[]", "[\"oh7\"]", "null", "7", "\"en\""] {
        let (status, text) = http(server.addr, "POST", "/api/tables", Some(body)).await.unwrap();
        assert_eq!(status, 400, "{body}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(v["code"], "malformed", "{body}: {v}");
    }
    server.stop().await;
}

/// A connection that never finishes its request head is dropped after the header timeout; a
/// WebSocket whose upgrade came in time stays open past it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_request_head_times_out() {
    let db = temp_db();
    let settings = oh7_server::Settings { header_timeout: Duration::from_millis(300), ..fast() };
    let server = start(&db, settings).await;
    for head in ["GET /healthz HTTP/1.1\r\nHost: x\r\n", "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"] {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        s.write_all(head.as_bytes()).await.unwrap();
        let mut buf = [0u8; 256];
        let r = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf)).await;
        assert!(matches!(r, Ok(Ok(0)) | Ok(Err(_))), "{head:?} is still open: {r:?}");
    }
    let created = create_table(server.addr, &json!({"players": 3, "name": "A"})).await.unwrap();
    let mut a = Client::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let snap = a.hello(created["invite"].as_str().unwrap(), created["token"].as_str()).await.unwrap();
    assert_eq!(snap["type"], "snapshot", "{snap}");
    let (status, body) = http(server.addr, "GET", "/healthz", None).await.unwrap();
    assert_eq!((status, body.as_str()), (200, "ok"));
    // Ready: a change can be committed through the writer.
    let (status, body) = http(server.addr, "GET", "/readyz", None).await.unwrap();
    assert_eq!((status, body.as_str()), (200, "ready\n"));
    server.stop().await;
}

/// The heartbeat: `ping` is answered `pong` with the table's version, by seats and spectators
/// alike; `ping` with a field is malformed; a client that pinged and then stays silent past the
/// deadline is disconnected (and its seat is away), while a client that never pings is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_is_answered_and_holds_the_client_to_its_heartbeat() {
    let db = temp_db();
    let settings = oh7_server::Settings { heartbeat: Duration::from_millis(700), ..fast() };
    let server = start(&db, settings).await;
    let created = create_table(server.addr, &json!({"players": 3, "name": "A"})).await.unwrap();
    let invite = created["invite"].as_str().unwrap();
    let mut a = Client::connect(server.addr).await.unwrap();
    let snap = a.hello(invite, created["token"].as_str()).await.unwrap();
    let mut quiet = Client::connect(server.addr).await.unwrap();
    quiet.hello(created["watch"].as_str().unwrap(), None).await.unwrap();
    a.send(&json!({"type": "ping", "id": "x"})).await.unwrap();
    let m = a.until(|m| m["type"] == "error" || m["type"] == "pong").await.unwrap();
    assert_eq!(m["code"], "malformed", "a field the ping does not have: {m}");
    a.send(&json!({"type": "ping"})).await.unwrap();
    let m = a.until(|m| m["type"] == "error" || m["type"] == "pong").await.unwrap();
    assert_eq!(m, json!({"type": "pong", "version": snap["version"]}));
    // Kept alive by its pings.
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        a.send(&json!({"type": "ping"})).await.unwrap();
        a.until(|m| m["type"] == "pong").await.unwrap();
    }
    // Silent past the deadline: closed.
    let gone = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match a.recv_within(Duration::from_secs(5)).await {
                Err(oh7_server::client::ClientError::Closed) => return true,
                Err(_) => return false,
                Ok(_) => continue,
            }
        }
    })
    .await;
    assert_eq!(gone, Ok(true), "a silent client that pinged is disconnected");
    // The spectator never pinged and sent nothing all along: still connected, and it answers.
    quiet.send(&json!({"type": "ping"})).await.unwrap();
    let m = quiet.until(|m| m["type"] == "pong").await.unwrap();
    assert_eq!(m["version"], snap["version"]);
    server.stop().await;
}

/// Every client of a stopping server gets `closing` before the close (issue 55: in a rolling
/// restart one client in three got a bare close): a seat, a spectator, and a connection that has
/// joined no table yet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_client_of_a_stopping_server_gets_closing() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let created = create_table(server.addr, &json!({"players": 3, "name": "A"})).await.unwrap();
    let mut seat = Client::connect(server.addr).await.unwrap();
    seat.hello(created["invite"].as_str().unwrap(), created["token"].as_str()).await.unwrap();
    let mut watcher = Client::connect(server.addr).await.unwrap();
    watcher.hello(created["watch"].as_str().unwrap(), None).await.unwrap();
    let idle = Client::connect(server.addr).await.unwrap();
    let stopping = tokio::spawn(server.stop());
    for (who, mut c) in [("seat", seat), ("spectator", watcher), ("at no table", idle)] {
        let mut seen = Vec::new();
        while let Ok(m) = c.recv_within(Duration::from_secs(10)).await {
            seen.push(m["type"].as_str().unwrap_or("").to_string());
        }
        assert_eq!(seen.last().map(String::as_str), Some("closing"), "{who}: {seen:?}");
    }
    stopping.await.unwrap();
}
