//! `oh7 review`: one seat's decisions in a finished game, reviewed from the seat's view
//! (`docs/review.md`), and the measurements of `oh7 bench review`.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use oh7_review::{LEVELS, Review, ReviewLevel, ReviewOptions, review_record};
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
    #[arg(long, value_name = "L", default_value_t = ReviewLevel::Expert, value_parser = review_level())]
    pub level: ReviewLevel,
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

/// The `k`-th record (from 1) of `path` (plain, gzip or Zstandard): the whole file if it is one
/// JSON document, else the `k`-th non-empty line.
pub(crate) fn read_record(path: &Path, k: usize) -> Result<Value> {
    std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut oh7_sim::files::open(path)?, &mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", path.display()))?;
    if let Ok(v) = serde_json::from_str::<Value>(&text) {
        if k != 1 {
            bail!("there is no game {k}: {} holds 1 game", path.display());
        }
        return Ok(v);
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(i, l)| {
            let header = *i == 0 && crate::replay::is_shard_header(l.as_bytes());
            !l.trim().is_empty() && !header
        })
        .collect();
    if lines.is_empty() {
        bail!("{} holds no record", path.display());
    }
    let Some(&(i, line)) = lines.get(k.wrapping_sub(1)) else {
        bail!("there is no game {k}: {} holds {} game(s)", path.display(), lines.len());
    };
    serde_json::from_str(line).with_context(|| format!("{}:{}: not JSON", path.display(), i + 1))
}

/// A review level, its names the possible values (`--level`, `serve --review-level`).
pub(crate) fn review_level() -> impl clap::builder::TypedValueParser<Value = ReviewLevel> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(LEVELS.iter().copied()).map(|s| s.parse::<ReviewLevel>().expect("a listed level"))
}

fn options(args: &ReviewArgs) -> ReviewOptions {
    let mut o = ReviewOptions { level: args.level, hindsight: !args.no_hindsight, ..ReviewOptions::default() };
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
