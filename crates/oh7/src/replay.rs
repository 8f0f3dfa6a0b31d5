//! `oh7 replay`: every record of a file through the engine, and one game shown readably.

use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

use anyhow::{Context, Result, bail};
use oh7_core::oh7::Record;
use serde_json::Value;

/// Replay one record; `Ok` if the engine reproduces it.
pub(crate) fn replay_value(v: &Value) -> Result<()> {
    oh7_core::replay_record(v).map(|_| ()).map_err(Into::into)
}

/// Whether a records file's first line is a shard's header (`{"oh7_shard": ...}`).
pub(crate) fn is_shard_header(line: &[u8]) -> bool {
    line.trim_ascii_start().starts_with(b"{\"oh7_shard\"")
}

/// Run `oh7 replay FILE [--show K]`.
pub(crate) fn replay_file(path: &Path, show: Option<usize>) -> Result<()> {
    // The error names the file.
    let f = oh7_sim::files::open(path)?;
    let (mut ok, mut bad, mut n) = (0usize, 0usize, 0usize);
    let mut shown = false;
    for (i, line) in f.split(b'\n').enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        // A shard's header line (`oh7 simulate --shard`) names its run: not a record.
        if line.trim_ascii().is_empty() || (i == 0 && is_shard_header(&line)) {
            continue;
        }
        n += 1;
        let text = String::from_utf8(line).map_err(|_| anyhow::anyhow!("not UTF-8 text"));
        let result = text
            .and_then(|line| serde_json::from_str::<Value>(&line).map_err(|e| anyhow::anyhow!("not JSON: {e}")))
            .and_then(|v| {
                if show == Some(n) {
                    print!("{}", show_game(&v)?);
                    shown = true;
                }
                replay_value(&v)
            });
        match result {
            Ok(()) => ok += 1,
            Err(e) => {
                bad += 1;
                if bad <= 20 {
                    let e = format!("{e:#}").replace('\n', " ");
                    eprintln!("{}:{}: game {n}: {e}", path.display(), i + 1);
                }
            }
        }
    }
    if let Some(k) = show
        && !shown
    {
        bail!("there is no game {k}: {} holds {n} game(s)", path.display());
    }
    if bad > 20 {
        eprintln!("{}: {} more record(s) do not replay", path.display(), bad - 20);
    }
    println!("{n} record(s) read from {}: {ok} replay exactly, {bad} do not", path.display());
    if bad > 0 {
        bail!("{bad} record(s) do not replay");
    }
    Ok(())
}

/// A record as text a person can follow.
pub(crate) fn show_game(v: &Value) -> Result<String> {
    if oh7_core::GameId::of_record(v).ok() == Some(oh7_core::GameId::Seven) {
        return show_seven(v);
    }
    let rec: Record = serde_json::from_value(v.clone()).context("not an oh7 record")?;
    let mut s = String::new();
    let name = |p: usize| -> String {
        if rec.dummy && p == 2 {
            "Dummy".to_string()
        } else {
            format!("{p}:{}", rec.seats.get(p).map_or("?", |x| x.as_str()))
        }
    };
    writeln!(
        s,
        "{} — {} players{} — seed {}",
        rec.preset,
        rec.players,
        if rec.dummy { " + the Dummy" } else { "" },
        rec.seed
    )?;
    for r in &rec.rounds {
        writeln!(s, "\nRound {}", r.number)?;
        for (k, d) in r.redeals.iter().enumerate() {
            let attempts: Vec<String> = d.bet_attempts.iter().map(|a| join(a)).collect();
            writeln!(s, "  deal {} abandoned after bets {}", k + 1, attempts.join(" | "))?;
        }
        for (p, h) in r.deal.hands.iter().enumerate() {
            let passed = r
                .deal
                .passes
                .get(p)
                .filter(|x| !x.is_empty())
                .map(|x| format!(" (passed {})", join(x)))
                .unwrap_or_default();
            writeln!(s, "  {:>16}: {}{passed}", name(p), join(h))?;
        }
        if rec.dummy {
            writeln!(s, "  {:>16}: {}", "Dummy pile", join(&r.deal.dummy_pile))?;
        }
        for (k, a) in r.deal.bet_attempts.iter().enumerate() {
            writeln!(s, "  bets, attempt {}: {}", k + 1, join(a))?;
        }
        for d in &r.decisions {
            writeln!(s, "  decision: {} by {} -> {}", d.kind, d.seat.map_or("the lot".to_string(), name), d.value)?;
        }
        if let (Some(l), Some(t)) = (r.first_leader, r.trump) {
            writeln!(s, "  bets {:?}; {} leads, trump {t}", r.bets, name(l))?;
        }
        for (k, t) in r.tricks.iter().enumerate() {
            let plays: Vec<String> = t.plays.iter().map(|(p, c)| format!("{}={c}", name(*p))).collect();
            let w = t.winner.map_or("(in progress)".to_string(), |w| format!("won by {}", name(w)));
            writeln!(s, "  trick {}: {}  {w}", k + 1, plays.join(" "))?;
        }
        if !r.points.is_empty() {
            writeln!(s, "  won {:?}; points {:?}; totals {:?}", r.won, r.points, r.totals)?;
        }
    }
    if rec.finished {
        let w: Vec<String> = rec.winners.iter().map(|&p| name(p)).collect();
        writeln!(s, "\nWinner(s): {}", w.join(", "))?;
    } else {
        writeln!(s, "\nUnfinished game.")?;
    }
    Ok(s)
}

fn join<T: std::fmt::Display>(v: &[T]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

/// A Seven record as text: each round's deal, turns and scores.
fn show_seven(v: &Value) -> Result<String> {
    let mut s = String::new();
    let seats: Vec<String> = v["seats"]
        .as_array()
        .map(|a| a.iter().map(|x| x.as_str().unwrap_or("?").to_string()).collect())
        .unwrap_or_default();
    writeln!(s, "seven — {} players — seed {}", v["players"], v["seed"].as_str().unwrap_or("?"))?;
    for r in v["rounds"].as_array().into_iter().flatten() {
        writeln!(s, "\nRound {}", r["number"])?;
        for (p, h) in r["hands"].as_array().into_iter().flatten().enumerate() {
            let cards: Vec<&str> = h.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            writeln!(s, "  {:>16}: {}", format!("{p}:{}", seats.get(p).map_or("?", |x| x.as_str())), cards.join(" "))?;
        }
        writeln!(s, "  starting card: {}", r["starting_card"])?;
        for t in r["turns"].as_array().into_iter().flatten() {
            writeln!(s, "  seat {}: {}", t[0], t[1])?;
        }
        writeln!(s, "  points {}; totals {}; eliminated {}", r["points"], r["totals"], r["eliminated"])?;
    }
    writeln!(s, "\nWinner(s): {}", v["winners"])?;
    Ok(s)
}
