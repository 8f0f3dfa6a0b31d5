//! The browser table in a real browser: Debian's chromium through chromium-driver (headless),
//! driven with fantoccini against the real `oh7 serve` on a loopback port with a temporary
//! SQLite file. The scenarios run one after another in one test (one driver, one server).
//!
//! Without chromedriver on the PATH the test says so and passes, so `cargo test` works with the
//! Rust toolchain alone; `.ci/run` installs chromium and sets `OH7_BROWSER_TESTS=require`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Guard, serve};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

fn find_driver() -> Option<PathBuf> {
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].iter().map(PathBuf::from).find(|p| p.exists())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn session(driver: &str, width: u32, height: u32) -> Client {
    let mut caps = serde_json::Map::new();
    let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].into_iter().find(|p| Path::new(p).exists());
    let mut opts = json!({"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        format!("--window-size={width},{height}"), "--lang=en-US"]});
    if let Some(b) = binary {
        opts["binary"] = Value::from(b);
    }
    caps.insert("goog:chromeOptions".into(), opts);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let c = ClientBuilder::new(connector).capabilities(caps).connect(driver).await.expect("chromedriver session");
    c.set_window_size(width, height).await.ok();
    c
}

fn shots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/browser-screens");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    std::fs::write(shots().join(format!("{name}.png")), png).unwrap();
}

/// What the page knows (its read-only test hook).
async fn state(c: &Client) -> Value {
    c.execute("return window.oh7State ? window.oh7State() : null", vec![]).await.unwrap_or(Value::Null)
}

async fn text(c: &Client) -> String {
    c.execute("return document.body.innerText", vec![]).await.unwrap().as_str().unwrap_or("").to_string()
}

async fn wait_for(c: &Client, css: &str) -> fantoccini::elements::Element {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            return e;
        }
        assert!(Instant::now() < until, "`{css}` never appeared; page: {}", text(c).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn wait_state(c: &Client, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let s = state(c).await;
        if f(&s) {
            return s;
        }
        assert!(Instant::now() < until, "waited for {what}; state: {s}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Make one decision by clicking, if this seat owes one: a choice button, a legal card, or
/// (passing) legal cards then the pass button. Returns whether it clicked.
async fn act_once(c: &Client) -> bool {
    let s = state(c).await;
    if s["legal"].as_array().is_none_or(|l| l.is_empty()) {
        return false;
    }
    if let Ok(b) = c.find(Locator::Css(".choices button.choice")).await {
        return b.click().await.is_ok();
    }
    if let Ok(pass) = c.find(Locator::Css("#pass-btn")).await {
        if pass.attr("disabled").await.ok().flatten().is_none() {
            return pass.click().await.is_ok();
        }
        if let Ok(card) = c.find(Locator::Css(".hand button.card.legal:not(.selected)")).await {
            return card.click().await.is_ok();
        }
        return false;
    }
    if let Ok(card) = c.find(Locator::Css(".hand button.card.legal")).await {
        return card.click().await.is_ok();
    }
    false
}

/// Play by clicking until `done` holds (at most `limit` seconds).
async fn play_until(c: &Client, what: &str, limit: u64, done: impl Fn(&Value) -> bool) {
    let until = Instant::now() + Duration::from_secs(limit);
    loop {
        let s = state(c).await;
        if done(&s) {
            return;
        }
        assert!(Instant::now() < until, "played {limit} s without reaching {what}; state: {s}");
        if !act_once(c).await {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
}

/// A table to create from the home page.
struct NewTable<'a> {
    lang: &'a str,
    game: &'a str,
    preset: &'a str,
    players: u32,
    /// The other seats: `human` or a bot level.
    seats: &'a [&'a str],
    ruleset: &'a str,
}

/// Create a table from the home page by hand: game, rules, players, the other seats' bots.
async fn create(c: &Client, base: &str, t: NewTable<'_>) {
    let NewTable { lang, game, preset, players, seats, ruleset } = t;
    c.goto(&format!("{base}/")).await.unwrap();
    wait_for(c, "#create").await;
    c.find(Locator::Css("#lang")).await.unwrap().select_by_value(lang).await.unwrap();
    c.find(Locator::Css("#game")).await.unwrap().select_by_value(game).await.unwrap();
    if game == "oh7" {
        c.find(Locator::Css("#preset")).await.unwrap().select_by_value(preset).await.unwrap();
    }
    let p = c.find(Locator::Css("#players")).await.unwrap();
    p.clear().await.unwrap();
    p.send_keys(&players.to_string()).await.unwrap();
    for (i, level) in seats.iter().enumerate() {
        let sel = c.find(Locator::Css(&format!("select[data-seat='{}']", i + 1))).await.unwrap();
        sel.select_by_value(level).await.unwrap();
    }
    if !ruleset.is_empty() {
        c.find(Locator::Css("#ruleset")).await.unwrap().send_keys(ruleset).await.unwrap();
    }
    c.find(Locator::Css("#name")).await.unwrap().send_keys("Ann").await.unwrap();
    c.find(Locator::Css("#create-btn")).await.unwrap().click().await.unwrap();
    wait_state(c, "the table", |s| s["table"].is_object() && s["links"].is_object()).await;
}

async fn start(c: &Client) {
    wait_for(c, "#start-btn").await.click().await.unwrap();
    wait_state(c, "the start", |s| s["table"]["state"] == "playing").await;
}

#[test]
fn the_browser_table() {
    let Some(driver_bin) = find_driver() else {
        assert!(
            std::env::var("OH7_BROWSER_TESTS").as_deref() != Ok("require"),
            "OH7_BROWSER_TESTS=require but chromedriver is not installed"
        );
        eprintln!("browser tests skipped: chromedriver not found (apt-get install -y chromium chromium-driver)");
        return;
    };
    let scratch = tempfile::Builder::new().prefix("oh7-browser-").tempdir().expect("a temporary directory");
    let dir = scratch.path().to_path_buf();
    let (_server, addr) = serve(&dir.join("oh7.db"));
    let base = format!("http://{addr}");
    let port = free_port();
    let _driver = Guard(
        Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let driver = format!("http://127.0.0.1:{port}");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        // Wait for the driver.
        let until = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let a = session(&driver, 1200, 900).await;

        eprintln!("scenario: three bots, a whole round of en by clicking");
        create(
            &a,
            &base,
            NewTable {
                lang: "en",
                game: "oh7",
                preset: "en",
                players: 4,
                seats: &["random", "random", "random"],
                ruleset: "",
            },
        )
        .await;
        shot(&a, "lobby").await;
        start(&a).await;
        let mut shot_taken = false;
        play_until(&a, "round 2", 120, |s| {
            s["view"]["round"].as_u64().unwrap_or(0) >= 2 || s["table"]["state"] == "over"
        })
        .await;
        // A fresh screenshot of the game screen mid-trick, with the last trick shown.
        play_until(&a, "a trick in progress", 60, |s| {
            s["view"]["trick"].as_array().is_some_and(|t| t.len() >= 2) && !s["view"]["last_trick"].is_null()
        })
        .await;
        if !shot_taken {
            shot(&a, "game").await;
            shot_taken = true;
        }
        assert!(shot_taken);
        let body = text(&a).await;
        assert!(body.contains("Last trick") && body.contains("won by"), "{body}");

        eprintln!("scenario: the hint button says what the expert would play");
        play_until(&a, "a card of ours to play", 60, |s| {
            s["view"]["phase"]["name"] == "playing" && s["legal"].as_array().is_some_and(|l| !l.is_empty())
        })
        .await;
        wait_for(&a, "#hint-btn").await.click().await.unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        while !text(&a).await.contains("The expert would play") {
            assert!(Instant::now() < until, "no hint shown: {}", text(&a).await);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(a.find(Locator::Css(".hand .card.hinted")).await.is_ok(), "the hinted card is marked");

        eprintln!("scenario: a chat message is shown as text");
        let evil = "<img src=x onerror=alert(1)>";
        a.find(Locator::Css("#chat-input")).await.unwrap().send_keys(evil).await.unwrap();
        a.find(Locator::Css(".chat form button")).await.unwrap().click().await.unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let shown = a.execute("return document.querySelector('.chat-list').innerText", vec![]).await.unwrap();
            if shown.as_str().is_some_and(|t| t.contains(evil)) {
                break;
            }
            assert!(Instant::now() < until, "the chat line never showed: {shown}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let imgs = a.execute("return document.querySelectorAll('.chat-list img').length", vec![]).await.unwrap();
        assert_eq!(imgs, json!(0), "the chat line became HTML");

        eprintln!("scenario: two browsers, joined by the invite link: bets and a trick between them");
        create(
            &a,
            &base,
            NewTable {
                lang: "en",
                game: "oh7",
                preset: "en",
                players: 4,
                seats: &["human", "random", "random"],
                ruleset: "",
            },
        )
        .await;
        let invite: String = a
            .execute(
                "return [...document.querySelectorAll('.links input')].map(i => i.value).find(v => v.includes('/t/'))",
                vec![],
            )
            .await
            .unwrap()
            .as_str()
            .unwrap()
            .to_string();
        let b = session(&driver, 1200, 900).await;
        b.goto(&invite).await.unwrap();
        wait_for(&b, "#sit-name").await.send_keys("Bob").await.unwrap();
        b.find(Locator::Css("#sit-btn")).await.unwrap().click().await.unwrap();
        wait_state(&b, "Bob seated", |s| s["you"] == 1).await;
        wait_state(&a, "Bob seen", |s| s["table"]["seats"][1]["name"] == "Bob").await;
        start(&a).await;
        let one_trick = |s: &Value| {
            s["view"]["tricks"].as_array().is_some_and(|t| !t.is_empty()) || s["view"]["round"].as_u64() > Some(1)
        };
        let until = Instant::now() + Duration::from_secs(60);
        while !(one_trick(&state(&a).await) && one_trick(&state(&b).await)) {
            assert!(Instant::now() < until, "no trick between the two browsers");
            let x = act_once(&a).await;
            let y = act_once(&b).await;
            if !x && !y {
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
        }
        let sb = state(&b).await;
        assert!(sb["view"]["bets"].is_array(), "the bets were revealed to Bob: {sb}");

        eprintln!("scenario: a reload in the middle of a trick continues where it was");
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let s = state(&b).await;
            if s["view"]["trick"].as_array().is_some_and(|t| !t.is_empty())
                && s["legal"].as_array().is_some_and(|l| l.is_empty())
            {
                break;
            }
            assert!(Instant::now() < until, "never mid-trick: {s}");
            if !act_once(&a).await && !act_once(&b).await {
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
        }
        let before = state(&b).await;
        b.refresh().await.unwrap();
        let after = wait_state(&b, "the snapshot after the reload", |s| {
            s["version"].as_u64() >= before["version"].as_u64() && s["view"].is_object()
        })
        .await;
        assert_eq!(after["you"], 1, "the seat token survived the reload");
        if after["version"] == before["version"] {
            assert_eq!(after["view"]["trick"], before["view"]["trick"]);
        }
        let v = after["version"].as_u64().unwrap();
        let until = Instant::now() + Duration::from_secs(30);
        while state(&b).await["version"].as_u64().unwrap_or(0) <= v {
            assert!(Instant::now() < until, "the game did not go on after the reload");
            if !act_once(&a).await && !act_once(&b).await {
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
        }
        b.close().await.ok();

        eprintln!("scenario: a French table shows French words only");
        create(
            &a,
            &base,
            NewTable { lang: "fr", game: "oh7", preset: "fr", players: 3, seats: &["random", "random"], ruleset: "" },
        )
        .await;
        start(&a).await;
        play_until(&a, "a trick", 60, |s| !s["view"]["last_trick"].is_null()).await;
        let body = text(&a).await;
        shot(&a, "game-fr").await;
        assert!(body.contains("Manche") && body.contains("Votre main") && body.contains("Dernier pli"), "{body}");
        for english in [
            "Round",
            "Trick",
            "Trump",
            "Your hand",
            "Last trick",
            "Waiting",
            "Score:",
            "Send",
            "Hint",
            "random",
            "won by",
            "Bet:",
        ] {
            assert!(!body.contains(english), "English `{english}` on a French table: {body}");
        }

        eprintln!("scenario: the Dummy, a game of two played to its end");
        create(
            &a,
            &base,
            NewTable { lang: "en", game: "oh7", preset: "en", players: 2, seats: &["random"], ruleset: "" },
        )
        .await;
        start(&a).await;
        let s = state(&a).await;
        assert!(s["view"]["dummy"].is_number(), "two players play with the Dummy: {s}");
        play_until(&a, "the end of the Dummy game", 240, |s| s["table"]["state"] == "over").await;
        wait_for(&a, "#end").await;
        wait_for(&a, "#download").await;
        shot(&a, "end").await;

        eprintln!("scenario: Seven played to its end");
        create(
            &a,
            &base,
            NewTable { lang: "en", game: "seven", preset: "", players: 2, seats: &["random"], ruleset: "limit = 15" },
        )
        .await;
        start(&a).await;
        play_until(&a, "the end of the Seven game", 240, |s| s["table"]["state"] == "over").await;
        wait_for(&a, "#end").await;
        shot(&a, "seven-end").await;
        a.close().await.ok();

        eprintln!("scenario: a phone-sized window plays a trick");
        let p = session(&driver, 375, 812).await;
        create(
            &p,
            &base,
            NewTable { lang: "en", game: "oh7", preset: "kod7", players: 3, seats: &["random", "random"], ruleset: "" },
        )
        .await;
        start(&p).await;
        play_until(&p, "a trick on the phone", 60, |s| !s["view"]["last_trick"].is_null()).await;
        shot(&p, "phone").await;
        let width = p.execute("return document.documentElement.scrollWidth", vec![]).await.unwrap();
        assert!(width.as_u64().unwrap_or(9999) <= 400, "the page is wider than the phone: {width}");
        p.close().await.ok();
    });
}
