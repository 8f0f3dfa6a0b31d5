//! Issue 59, behind a proxy: `--trust-proxy` counts a request under the address its proxy wrote,
//! only when it comes from that proxy; a spoofed `X-Forwarded-For` from anyone else changes
//! nothing.

mod common;

use common::*;
use oh7_server::client::{Client, request};
use serde_json::json;

/// Create a bot table from loopback with `headers`; the answer's status.
async fn create(addr: std::net::SocketAddr, headers: &[(&str, &str)]) -> u16 {
    let body = json!({"players": 3, "seats": ["random", "random", "random"]}).to_string();
    request(addr, "POST", "/api/tables", headers, Some(&body)).await.unwrap().status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spoofed_forwarded_for_changes_nothing_unless_it_comes_from_the_trusted_proxy() {
    // Untrusted: every header is ignored; all three requests count under 127.0.0.1.
    let db = temp_db();
    let server = start(&db, oh7_server::Settings { max_tables_per_ip: 2, max_conns_per_ip: 2, ..fast() }).await;
    let addr = server.addr;
    assert_eq!(create(addr, &[("X-Forwarded-For", "192.0.2.1")]).await, 201);
    assert_eq!(create(addr, &[("X-Forwarded-For", "192.0.2.2")]).await, 201);
    assert_eq!(create(addr, &[("X-Forwarded-For", "192.0.2.3"), ("Forwarded", "for=192.0.2.4")]).await, 429);
    let c1 = Client::connect_with(addr, &[("X-Forwarded-For", "192.0.2.1")]).await.unwrap();
    let c2 = Client::connect_with(addr, &[("X-Forwarded-For", "192.0.2.2")]).await.unwrap();
    assert!(Client::connect_with(addr, &[("X-Forwarded-For", "192.0.2.3")]).await.is_err(), "a third connection");
    drop((c1, c2));
    server.stop().await;

    // Trusted (the proxy is loopback): each client's own address is counted.
    let db = temp_db();
    let settings = oh7_server::Settings {
        max_tables_per_ip: 2,
        max_conns_per_ip: 2,
        trust_proxy: vec!["127.0.0.0/8".parse().unwrap()],
        ..fast()
    };
    let server = start(&db, settings).await;
    let addr = server.addr;
    let ann = [("X-Forwarded-For", "198.51.100.1")];
    assert_eq!(create(addr, &ann).await, 201);
    assert_eq!(create(addr, &ann).await, 201);
    assert_eq!(create(addr, &ann).await, 429, "Ann's third table this hour");
    assert_eq!(create(addr, &[("X-Forwarded-For", "198.51.100.2")]).await, 201, "Bob has his own limit");
    // Ann writes Bob's address in front of hers: the proxy appended hers, and hers is counted.
    assert_eq!(create(addr, &[("X-Forwarded-For", "198.51.100.3, 198.51.100.1")]).await, 429);
    // `Forwarded` is read too.
    assert_eq!(create(addr, &[("Forwarded", "for=\"[2001:db8::7]:443\"")]).await, 201);
    // Connections: two for Ann, then hers are refused while Bob still connects.
    let a1 = Client::connect_with(addr, &ann).await.unwrap();
    let a2 = Client::connect_with(addr, &ann).await.unwrap();
    assert!(Client::connect_with(addr, &ann).await.is_err(), "Ann's third connection");
    let b1 = Client::connect_with(addr, &[("X-Forwarded-For", "198.51.100.2")]).await.unwrap();
    drop((a1, a2, b1));
    server.stop().await;
}
