//! Builds the page's WebAssembly (`oh7-wasm` for `wasm32-unknown-unknown`, profile `wasm`) so
//! that the binary embeds it and `oh7 serve` offers play on the device with nothing but cargo.
//!
//! The module is built by a second cargo in its own target folder (`target/wasm`, so the two
//! never wait on each other's lock), as `substrate-wasm-builder` does. `OH7_WASM=/path/oh7.wasm`
//! embeds a module built elsewhere instead; `OH7_WASM=skip` embeds none (the server then offers
//! online tables only, and says so). A toolchain managed by rustup without the target gets it
//! (`rustup target add wasm32-unknown-unknown`); where that fails (no network, no rustup) the
//! build warns and embeds none.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("oh7.wasm");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..").canonicalize().expect("the workspace root");
    println!("cargo:rerun-if-env-changed=OH7_WASM");
    for dir in [
        "oh7-core/src",
        "oh7-bots/src",
        "oh7-bots/models",
        "oh7-table/src",
        "oh7-review/src",
        "oh7-stats/src",
        "oh7-wasm",
    ] {
        println!("cargo:rerun-if-changed={}", root.join("crates").join(dir).display());
    }
    println!("cargo:rerun-if-changed={}", root.join("Cargo.lock").display());
    match std::env::var("OH7_WASM").ok().as_deref() {
        Some("skip") => return none(&out, "OH7_WASM=skip"),
        Some(path) if !path.is_empty() => {
            println!("cargo:rerun-if-changed={path}");
            std::fs::copy(path, &out).unwrap_or_else(|e| panic!("OH7_WASM={path}: {e}"));
            return;
        }
        _ => {}
    }
    add_target();
    let target_dir = root.join("target/wasm");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(&root)
        .args(["build", "--profile", "wasm", "-p", "oh7-wasm", "--target", "wasm32-unknown-unknown", "--target-dir"])
        .arg(&target_dir);
    // The outer build's flags are for the host (x86-64-v2), not for the WebAssembly.
    for var in
        ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_TARGET_DIR", "CARGO_BUILD_RUSTFLAGS"]
    {
        cmd.env_remove(var);
    }
    match cmd.status() {
        Ok(s) if s.success() => {
            let built = target_dir.join("wasm32-unknown-unknown/wasm/oh7_wasm.wasm");
            std::fs::copy(&built, &out).unwrap_or_else(|e| panic!("{}: {e}", built.display()));
        }
        Ok(s) => none(&out, &format!("building oh7-wasm for wasm32-unknown-unknown failed ({s})")),
        Err(e) => none(&out, &format!("cargo could not be run: {e}")),
    }
}

/// rustup adds a toolchain file's targets when it installs the toolchain, not to a toolchain
/// already installed: add the WebAssembly target here when rustup manages this toolchain and
/// lacks it (a fresh machine's `cargo run --release -- serve` then builds the page's module too).
fn add_target() {
    let Ok(out) = Command::new("rustup").args(["target", "list", "--installed"]).output() else { return };
    if !out.status.success()
        || String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        return;
    }
    // Its output goes to the build's log (cargo shows it with -vv or on failure).
    let _ = Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]).status();
}

/// No module: an empty file, and a warning saying why.
fn none(out: &Path, why: &str) {
    println!("cargo:warning=no WebAssembly in this build ({why}): the server offers online tables only");
    std::fs::write(out, b"").expect("OUT_DIR is writable");
}
