//! `oh7 review`: one seat's decisions in a finished game, reviewed from the seat's view
//! (`docs/review.md`), and the measurements of `oh7 bench review`.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use oh7_core::game::Game;
use oh7_core::oh7::Oh7Game;
use oh7_core::ruleset::{Preset, Ruleset};
use oh7_review::{LEVELS, Review, ReviewOptions, review_oh7, review_record};
use serde_json::Value;

/// The arguments of `oh7 review`.
#[derive(Args, Debug)]
pub(crate) struct ReviewArgs {
    /// A game record: one `oh7-record/1` JSON document, or JSON Lines of records (as
    /// `oh7 simulate --record` writes them).
    pub file: PathBuf,
    /// Which record of the file (from 1).
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub game: usize,
    /// The seat to review (from 0).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seat: usize,
    /// The reviewer: `expert` is the expert player's search (ISMCTS, every option given an
    /// equal share of its iterations); `easy`, `medium`, `hard` and `pimc` are the
    /// determinization search at those budgets (Seven: the Seven search with 256 to 4096
    /// worlds per option, `pimc` as `expert`).
    #[arg(long, value_name = "L", default_value = "expert", value_parser = clap::builder::PossibleValuesParser::new(LEVELS.iter().copied()))]
    pub level: String,
    /// The review seed (decimal, or hexadecimal with 0x); the same seed gives the same review.
    #[arg(long, value_parser = crate::parse_seed)]
    pub seed: Option<u64>,
    /// Leave out the oracle's hindsight (about twice as fast).
    #[arg(long)]
    pub no_hindsight: bool,
    /// Print the review as JSON (`docs/review.md`).
    #[arg(long)]
    pub json: bool,
}

/// The `k`-th record (from 1) of `path`: the whole file if it is one JSON document, else the
/// `k`-th non-empty line.
pub(crate) fn read_record(path: &Path, k: usize) -> Result<Value> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", path.display()))?;
    if let Ok(v) = serde_json::from_str::<Value>(&text) {
        if k != 1 {
            bail!("there is no game {k}: {} holds 1 game", path.display());
        }
        return Ok(v);
    }
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        bail!("{} holds no record", path.display());
    }
    let Some(&(i, line)) = lines.get(k.wrapping_sub(1)) else {
        bail!("there is no game {k}: {} holds {} game(s)", path.display(), lines.len());
    };
    serde_json::from_str(line).with_context(|| format!("{}:{}: not JSON", path.display(), i + 1))
}

fn options(args: &ReviewArgs) -> ReviewOptions {
    let mut o = ReviewOptions { level: args.level.clone(), hindsight: !args.no_hindsight, ..ReviewOptions::default() };
    if let Some(s) = args.seed {
        o.seed = s;
    }
    o
}

/// Run `oh7 review`.
pub(crate) fn run(args: &ReviewArgs) -> Result<()> {
    let v = read_record(&args.file, args.game)?;
    let tty = std::io::stderr().is_terminal();
    let progress = |done: usize, total: usize| {
        if tty {
            eprint!("\rreviewing: {done}/{total} decisions");
            if done == total {
                eprint!("\r\x1b[K");
            }
        }
    };
    let review = review_record(&v, args.seat, &options(args), &progress)
        .with_context(|| format!("{}, game {}", args.file.display(), args.game))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&review)?);
    } else {
        print!("{}", text(&review));
    }
    Ok(())
}

fn signed(x: f64) -> String {
    format!("{x:+.2}")
}

/// A review as text for people: one line per decision, then the summaries.
pub(crate) fn text(r: &Review) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Review of seat {} ({}) — {}, {} players — reviewer {} (seed {:#x})",
        r.seat,
        r.name,
        r.preset,
        r.players,
        r.level,
        u64::from_str_radix(&r.seed, 16).unwrap_or(0)
    );
    let seven = r.family == oh7_core::GameId::Seven;
    let unit = if seven { "the chance to go out first (percent)" } else { "expected round points" };
    let _ = writeln!(
        s,
        "Values are {unit} from the seat's view at that moment; loss = best − chosen. \
         Marks: inaccuracy ≥ {}, mistake ≥ {}, blunder ≥ {}.",
        r.thresholds[0], r.thresholds[1], r.thresholds[2]
    );
    let mut round = 0;
    for d in &r.decisions {
        if d.round != round {
            round = d.round;
            let _ = writeln!(s, "\nRound {round}");
        }
        let hand = &d.hand;
        let at = match d.kind.as_str() {
            _ if seven => format!("turn {}", d.step),
            "bet" => format!("bet (attempt {})", d.step),
            "play" => format!("trick {}", d.step),
            k => k.replace('_', " "),
        };
        let table = if let Some(t) = &d.seven {
            let mut x = format!(" | top {} ({})", t.top, t.active_suit);
            match t.mode.as_str() {
                "penalty" => {
                    let _ = write!(x, ", penalty {}", t.penalty);
                }
                "call_out" => {
                    let _ = write!(x, ", call-out window on seat {}", t.offender.unwrap_or(0));
                }
                "normal" => {}
                m => {
                    let _ = write!(x, ", {m}");
                }
            }
            x
        } else if d.kind == "play" {
            let t = &d.trick;
            if t.is_empty() { " | you lead".to_string() } else { format!(" | table {}", t.join(" ")) }
        } else {
            String::new()
        };
        let mut line = format!("  #{:<3} {at:<16} hand {}{table} | chose {}", d.index + 1, hand.join(" "), d.chosen);
        match (&d.evaluation, d.loss) {
            (Some(e), Some(loss)) => {
                let ci = e.options.iter().position(|o| o.option == d.chosen).unwrap_or(e.best);
                let b = &e.options[e.best];
                let _ = write!(line, " ({})", signed(e.options[ci].value));
                if ci == e.best || loss == 0.0 {
                    line.push_str(" = best");
                } else {
                    let _ = write!(line, ", best {} ({}), lost {loss:.2}", b.option, signed(b.value));
                }
                if let Some(m) = d.mark {
                    let _ = write!(line, " — {}", m.word().to_uppercase());
                }
                if d.mark.is_some()
                    && let Some(why) = &d.reason
                {
                    let _ = write!(line, ": {why}");
                }
            }
            _ => {
                let _ = write!(line, " — not evaluated: {}", d.note.as_deref().unwrap_or("?"));
            }
        }
        if let Some(h) = &d.hindsight {
            let _ = write!(line, " | hindsight: oracle {}{}", h.oracle, if h.agrees { " (same)" } else { "" });
        }
        let _ = writeln!(s, "{line}");
    }
    let lost = if seven { "percentage points lost" } else { "expected points lost" };
    let _ = writeln!(s, "\nPer round ({lost}; accuracy; actual points):");
    for rr in &r.rounds {
        let m = &rr.summary;
        let _ = writeln!(
            s,
            "  round {:>2}: {:>2} decisions, lost {:>5.2} ({:.2} per decision), accuracy {:>5.1}, points {:+}",
            rr.round, m.decisions, m.loss, m.loss_per_decision, m.accuracy, rr.points
        );
    }
    let g = &r.game;
    let _ = writeln!(
        s,
        "\nGame: {} decisions ({} evaluated), {lost} {:.2} ({:.3} per decision), accuracy {:.1}",
        g.decisions, g.evaluated, g.loss, g.loss_per_decision, g.accuracy
    );
    let _ = writeln!(s, "  {} inaccuracies, {} mistakes, {} blunders", g.inaccuracies, g.mistakes, g.blunders);
    let _ = writeln!(s, "  (accuracy: mean over decisions of 100 × exp(−loss / {}))", r.accuracy_scale);
    if !r.costliest.is_empty() {
        let _ = writeln!(s, "Costliest decisions:");
        for &i in &r.costliest {
            let d = &r.decisions[i];
            let best = d.evaluation.as_ref().map(|e| e.options[e.best].option.clone()).unwrap_or_default();
            let _ = writeln!(
                s,
                "  #{} round {} {}: chose {}, best {best}, lost {:.2}",
                d.index + 1,
                d.round,
                d.kind.replace('_', " "),
                d.chosen,
                d.loss.unwrap_or(0.0)
            );
        }
    }
    if let Some(a) = g.oracle_agrees {
        let _ = writeln!(
            s,
            "Hindsight (the oracle sees every hand; not a fair judgement): it would have chosen the same in {a} of {} decisions.",
            g.decisions
        );
    }
    s
}

/// A finished game between bots, as a record: `levels` seat by seat (cycled), seeded.
pub(crate) fn bot_game(rules: Ruleset, players: usize, levels: &[&str], seed: u64) -> Result<Value> {
    let mut g = Oh7Game::new(rules, players, seed)?;
    let mut bots = (0..players)
        .map(|p| oh7_bots::oh7_bot(levels[p % levels.len()], seed.wrapping_mul(31).wrapping_add(p as u64)))
        .collect::<Result<Vec<_>, oh7_bots::BotError>>()
        .map_err(anyhow::Error::msg)?;
    oh7_bots::play_game(&mut g, &mut bots, 100_000)?;
    Ok(g.record())
}

/// Reviews `games` games (at least one), game `k` made by `make(k)` (not timed) and reviewed by
/// `review`, and prints the time a review took, the slowest, and the time per decision, under
/// `label`.
fn time_reviews(
    label: &str,
    games: usize,
    make: impl Fn(u64) -> Result<Value>,
    review: impl Fn(&Value) -> Result<Review>,
) -> Result<()> {
    let mut times = Vec::new();
    let mut decisions = 0;
    for k in 0..games.max(1) as u64 {
        let v = make(k)?;
        let t = Instant::now();
        let r = review(&v)?;
        times.push(t.elapsed().as_secs_f64());
        decisions += r.decisions.len();
    }
    let total: f64 = times.iter().sum();
    let max = times.iter().copied().fold(0.0, f64::max);
    println!(
        "  {label}: {:.2} s per game (max {max:.2} s, {} game(s)), {decisions} decisions, {:.0} ms per decision",
        total / times.len() as f64,
        times.len(),
        1000.0 * total / decisions.max(1) as f64
    );
    Ok(())
}

/// `oh7 bench review`: the time to review seat 0 of whole games between heuristic bots, a
/// four-player `en` game and a nine-player `bga` game.
pub(crate) fn bench(level: &str, games: usize, hindsight: bool) -> Result<()> {
    let threads = rayon::current_num_threads();
    println!(
        "review of seat 0, reviewer {level}, hindsight {}, {threads} thread(s); games between heuristic bots",
        if hindsight { "on" } else { "off" }
    );
    let opts = ReviewOptions { level: level.into(), hindsight, ..ReviewOptions::default() };
    for (preset, players) in [(Preset::En, 4), (Preset::Bga, 9)] {
        time_reviews(
            &format!("{preset} {players} players"),
            games,
            |k| bot_game(Ruleset::preset(preset), players, &["heuristic"], 1 + k),
            |v| Ok(review_oh7(v, 0, &opts, &|_, _| {})?),
        )?;
    }
    for players in [4, 8] {
        time_reviews(
            &format!("seven {players} players"),
            games,
            |k| seven_bot_game(players, &["heuristic"], 1 + k),
            |v| Ok(review_record(v, 0, &opts, &|_, _| {})?),
        )?;
    }
    Ok(())
}

/// A finished Seven game between bots, as a record: `levels` seat by seat (cycled), seeded.
pub(crate) fn seven_bot_game(players: usize, levels: &[&str], seed: u64) -> Result<Value> {
    let mut g = oh7_core::seven::SevenGame::new(oh7_core::seven::SevenRules::default(), players, seed)?;
    let mut bots = (0..players)
        .map(|p| oh7_bots::seven_bot(levels[p % levels.len()], seed.wrapping_mul(31).wrapping_add(p as u64)))
        .collect::<Result<Vec<_>, oh7_bots::BotError>>()
        .map_err(anyhow::Error::msg)?;
    oh7_bots::play_game(&mut g, &mut bots, 10_000_000)?;
    Ok(g.record())
}

/// Seeded Seven games (`players` seats) where one seat is a random bot, one the heuristic and
/// one the `search` player (the others heuristic), rotated through the seats; each of the
/// three reviewed at `level`; the mean percentage points lost per decision of each with a 95%
/// interval over games. Stops after `games` games or `seconds` seconds.
fn signal_seven(games: usize, players: usize, level: &str, seconds: f64) -> Result<()> {
    let names = ["random", "heuristic", "search"];
    let mut per_game: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut acc: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let start = Instant::now();
    let opts = ReviewOptions { level: level.into(), hindsight: false, ..ReviewOptions::default() };
    for k in 0..games {
        if start.elapsed().as_secs_f64() > seconds {
            break;
        }
        let shift = k % players;
        let mut levels = vec!["heuristic"; players];
        for (i, n) in names.iter().enumerate() {
            levels[(i + shift) % players] = *n;
        }
        let v = seven_bot_game(players, &levels, 1000 + k as u64)?;
        for i in 0..3 {
            let r = review_record(&v, (i + shift) % players, &opts, &|_, _| {})?;
            if r.game.evaluated > 0 {
                per_game[i].push(r.game.loss_per_decision);
                acc[i].push(r.game.accuracy);
            }
        }
    }
    println!(
        "seven signal check: {} games ({players} players), reviewer {level}, {:.0} s; percentage points lost per decision (95% interval), accuracy",
        per_game[0].len(),
        start.elapsed().as_secs_f64()
    );
    for i in 0..3 {
        let (m, h) = mean_ci(&per_game[i]);
        let (a, ah) = mean_ci(&acc[i]);
        println!("  {:>10}: loss/decision {m:.3} ± {h:.3}   accuracy {a:.1} ± {ah:.1}", names[i]);
    }
    Ok(())
}

/// `oh7 bench review-signal`: seeded four-player `en` games where one seat is a random bot,
/// one the heuristic, one `expert_level` (the fourth a heuristic), rotated through the seats;
/// each of the three reviewed; the mean expected points lost per decision of each with a 95%
/// interval over games. Stops after `games` games or `seconds` seconds. Then the same for
/// four-player Seven games ([`signal_seven`], the same limits again).
pub(crate) fn signal(games: usize, level: &str, expert_level: &str, seconds: f64) -> Result<()> {
    let names = ["random", "heuristic", expert_level];
    let mut per_game: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut acc: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let start = Instant::now();
    let opts = ReviewOptions { level: level.into(), hindsight: false, ..ReviewOptions::default() };
    for k in 0..games {
        if start.elapsed().as_secs_f64() > seconds {
            break;
        }
        let shift = k % 4;
        let mut levels = ["heuristic"; 4];
        for (i, n) in names.iter().enumerate() {
            levels[(i + shift) % 4] = *n;
        }
        let v = bot_game(Ruleset::preset(Preset::En), 4, &levels, 1000 + k as u64)?;
        for i in 0..3 {
            let r = review_oh7(&v, (i + shift) % 4, &opts, &|_, _| {})?;
            if r.game.evaluated > 0 {
                per_game[i].push(r.game.loss_per_decision);
                acc[i].push(r.game.accuracy);
            }
        }
    }
    let n = per_game[0].len();
    println!(
        "signal check: {n} en games (4 players), reviewer {level}, {:.0} s; mean over games of each seat's expected points lost per decision (95% interval), accuracy",
        start.elapsed().as_secs_f64()
    );
    for i in 0..3 {
        let (m, h) = mean_ci(&per_game[i]);
        let (a, ah) = mean_ci(&acc[i]);
        println!("  {:>10}: loss/decision {m:.3} ± {h:.3}   accuracy {a:.1} ± {ah:.1}", names[i]);
    }
    signal_seven(games, 4, level, seconds)
}

fn mean_ci(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (m, f64::NAN);
    }
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, 1.96 * (var / n).sqrt())
}
