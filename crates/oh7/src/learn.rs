//! `oh7 learn`: training data from seeded games, the hand model's training and its evaluation
//! (`docs/learning.md`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::{Args, Subcommand};
use oh7_learn::data::{DataMeta, DataPlan, FORMAT, Rows};
use oh7_learn::train::{TrainPlan, evaluate, evaluate_prior, load_model, load_prior, train, train_prior};
use oh7_sim::Shard;

use crate::sim::Progress;
use crate::{RulesArgs, parse_seed};

#[derive(Subcommand)]
pub(crate) enum LearnCommand {
    /// Play seeded games between bots and write one row per bet and card played (observation,
    /// legal ids, the true places of the hidden cards, the search's visits, the round's points)
    /// to a safetensors file (format: docs/learning.md).
    Data(DataArgs),
    /// Train the hand model, the policy prior or the leaf value on data files (CPU) and write
    /// its weights (safetensors).
    Train(TrainArgs),
    /// The hand model's cross-entropy against the true deals beside the uniform sampler's, over
    /// the rows of data files made with --baseline; with --kind prior, the prior's
    /// cross-entropy against the search's visits beside the uniform one's; with --kind value, the
    /// leaf value's against the true tricks.
    Eval(EvalArgs),
}

/// Which model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Kind {
    /// Where the unseen cards are (`ismcts:hand=true`).
    Hand,
    /// The search's root prior over bets and cards (`ismcts:prior=true`).
    Prior,
    /// The leaf value: each player's tricks still to win in a position (`ismcts:value=true`;
    /// data from `oh7 learn data --value`).
    Value,
    /// The bid evaluator: the round's points of each bet (`betnet=FILE`; data from `oh7 learn
    /// data --bets`).
    Bet,
}

#[derive(Args)]
pub(crate) struct DataArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Players at the table.
    #[arg(long, default_value_t = 4)]
    players: usize,
    /// Games in the run.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The run's seed (game i is dealt from it and i, as in `oh7 simulate`).
    #[arg(long, default_value = "1", value_parser = parse_seed)]
    seed: u64,
    /// Bot levels seat by seat, rotated one seat per game (the ISMCTS levels, `ismcts`, `expert`
    /// and `ismcts:...`, also record their root visits).
    #[arg(long, default_value = oh7_bots::Level::Expert.name(), value_delimiter = ',')]
    bots: Vec<String>,
    /// Only shard I of N of the run (0 <= I < N): exactly those games' rows.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Stop each game after this many rounds (0: whole games).
    #[arg(long, default_value_t = 0)]
    rounds: u32,
    /// Also measure the uniform deal sampler's cross-entropy on each row with K of its samples
    /// (for `oh7 learn eval`; 0: not measured).
    #[arg(long, value_name = "K", default_value_t = 0)]
    baseline: u32,
    /// Write the leaf value's rows instead (per player at each card played: the position's
    /// features and the tricks it still won; tables without the Dummy).
    #[arg(long)]
    value: bool,
    /// Write the bid evaluator's rows instead (per bet that stood: its features from the
    /// bettor's view and the points the bettor then scored in the round).
    #[arg(long, conflicts_with = "value")]
    bets: bool,
    /// With --bets: the probability that a bet is a legal bet drawn at random instead of the
    /// bot's (the bot then plays the round for it), so that every bet's outcome is seen.
    #[arg(long, value_name = "P", default_value_t = 0.0, requires = "bets")]
    explore_bets: f64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// The file to write (replaced only once complete).
    #[arg(long, value_name = "FILE.safetensors")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct TrainArgs {
    /// Data files from `oh7 learn data`.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The model to train.
    #[arg(long, value_enum, default_value = "hand")]
    kind: Kind,
    /// Width of the hidden layers (default: 64 for the hand model, 128 for the prior).
    #[arg(long)]
    hidden: Option<usize>,
    /// Hidden layers (default: 2 for the hand model, 1 for the prior).
    #[arg(long)]
    layers: Option<usize>,
    /// Passes over the data.
    #[arg(long, default_value_t = TrainPlan::default().epochs)]
    epochs: usize,
    /// Rows per step.
    #[arg(long, default_value_t = TrainPlan::default().batch)]
    batch: usize,
    /// Learning rate (AdamW).
    #[arg(long, default_value_t = TrainPlan::default().lr)]
    lr: f64,
    /// The seed of the weights and of the batch order.
    #[arg(long, default_value = "1", value_parser = parse_seed)]
    seed: u64,
    /// Worker threads (default: every core; the weights do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// The weights to write (safetensors, F16; replaced only once complete).
    #[arg(long, value_name = "FILE.safetensors")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct EvalArgs {
    /// Data files made with `oh7 learn data --baseline K` (any data file for the prior).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The model to score.
    #[arg(long, value_enum, default_value = "hand")]
    kind: Kind,
    /// A model file (default: the model shipped in oh7).
    #[arg(long, value_name = "FILE.safetensors")]
    model: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(cmd: &LearnCommand) -> Result<()> {
    match cmd {
        LearnCommand::Data(a) => data(a),
        LearnCommand::Train(a) => train_cmd(a),
        LearnCommand::Eval(a) => eval(a),
    }
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        b = b.num_threads(t);
    }
    b.build().map_err(|e| anyhow!("{e}"))
}

fn data(a: &DataArgs) -> Result<()> {
    let rules = a.rules.ruleset()?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    crate::sim::check_out_folder("--out", &a.out)?;
    if let Some(s) = a.shard
        && s.count > a.games
    {
        bail!("{} shards of {} games: some shards would be empty", s.count, a.games);
    }
    let plan = DataPlan {
        rules,
        players: a.players,
        games: a.games,
        seed: a.seed,
        bots: a.bots.clone(),
        shard: a.shard,
        rounds: a.rounds,
        baseline: a.baseline,
        explore_bets: a.explore_bets,
    };
    let (lo, hi) = match a.shard {
        Some(s) => (a.games * s.index / s.count, a.games * (s.index + 1) / s.count),
        None => (0, a.games),
    };
    let progress = Progress::new(hi - lo, "games", "");
    let start = Instant::now();
    let meta = DataMeta {
        format: FORMAT.into(),
        preset: if a.rules.ruleset.is_some() { "custom".into() } else { a.rules.preset.to_string() },
        rules,
        players: a.players,
        games: a.games,
        seed: a.seed,
        bots: a.bots.clone(),
        shard: a.shard.map(|s| format!("{}/{}", s.index, s.count)),
        rounds: a.rounds,
        baseline: a.baseline,
        explore_bets: a.explore_bets,
    };
    if a.bets {
        let rows = pool(a.threads)?
            .install(|| oh7_learn::bets::generate_bets(&plan, &|d| progress.set(d)))
            .map_err(|e| anyhow!(e))?;
        progress.finish();
        oh7_learn::bets::write_bets(&a.out, &rows, &meta).map_err(|e| anyhow!(e))?;
        eprintln!(
            "{} bet rows ({} explored) from {} games written to {} in {:.1} s",
            rows.len(),
            rows.explored.iter().filter(|&&e| e == 1).count(),
            hi - lo,
            a.out.display(),
            start.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    if a.value {
        let rows = pool(a.threads)?
            .install(|| oh7_learn::value::generate_value(&plan, &|d| progress.set(d)))
            .map_err(|e| anyhow!(e))?;
        progress.finish();
        oh7_learn::value::write_value(&a.out, &rows, &meta).map_err(|e| anyhow!(e))?;
        eprintln!(
            "{} value rows from {} games written to {} in {:.1} s",
            rows.len(),
            hi - lo,
            a.out.display(),
            start.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    let rows =
        pool(a.threads)?.install(|| oh7_learn::data::generate(&plan, &|d| progress.set(d))).map_err(|e| anyhow!(e))?;
    progress.finish();
    oh7_learn::data::write(&a.out, &rows, &meta).map_err(|e| anyhow!(e))?;
    eprintln!(
        "{} rows from {} games ({} searched) written to {} in {:.1} s",
        rows.len(),
        hi - lo,
        rows.searched.iter().filter(|&&s| s == 1).count(),
        a.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn read_all(files: &[PathBuf]) -> Result<(Rows, Vec<DataMeta>)> {
    let mut all = Rows::default();
    let mut metas = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let (mut rows, meta) = oh7_learn::data::read(f).map_err(|e| anyhow!(e))?;
        // Games of different files are different games: keep their held-out split (game % 10)
        // and make them distinct by the file's place.
        for g in rows.game.iter_mut() {
            *g = g.wrapping_add((i as u32) * 10_000_000);
        }
        all.append(rows);
        metas.push(meta);
    }
    Ok((all, metas))
}

fn train_cmd(a: &TrainArgs) -> Result<()> {
    let (hidden, layers) = match a.kind {
        Kind::Hand => {
            (a.hidden.unwrap_or(TrainPlan::default().hidden), a.layers.unwrap_or(TrainPlan::default().layers))
        }
        Kind::Prior => (a.hidden.unwrap_or(128), a.layers.unwrap_or(1)),
        Kind::Value => (a.hidden.unwrap_or(32), a.layers.unwrap_or(1)),
        Kind::Bet => (a.hidden.unwrap_or(64), a.layers.unwrap_or(2)),
    };
    if a.epochs == 0 || a.batch == 0 || hidden == 0 || layers == 0 {
        bail!("--epochs, --batch, --hidden and --layers must be at least 1");
    }
    if !(a.lr.is_finite() && a.lr > 0.0) {
        bail!("--lr must be a positive number");
    }
    crate::sim::check_out_folder("--out", &a.out)?;
    let plan =
        TrainPlan { hidden, layers, epochs: a.epochs, batch: a.batch, lr: a.lr, seed: a.seed, ..TrainPlan::default() };
    let bets = if a.kind == Kind::Bet {
        let b = oh7_learn::bets::read_all_bets(&a.files).map_err(|e| anyhow!(e))?;
        eprintln!("{} bet rows from {} files", b.len(), a.files.len());
        b
    } else {
        Default::default()
    };
    let (rows, values) = if a.kind == Kind::Value {
        let v = oh7_learn::value::read_values(&a.files).map_err(|e| anyhow!(e))?;
        eprintln!("{} value rows from {} files", v.len(), a.files.len());
        (Rows::default(), v)
    } else if a.kind == Kind::Bet {
        (Rows::default(), Default::default())
    } else {
        let (rows, _) = read_all(&a.files)?;
        eprintln!("{} rows from {} files", rows.len(), a.files.len());
        (rows, Default::default())
    };
    let start = Instant::now();
    let (bytes, _) = pool(a.threads)?
        .install(|| {
            let unit = match a.kind {
                Kind::Hand => "hidden card",
                Kind::Prior => "decision",
                Kind::Value => "player and position",
                Kind::Bet => "bet",
            };
            let mut report = |ep: &oh7_learn::train::Epoch| {
                eprintln!(
                    "epoch {}/{}: training loss {:.4}, held-out cross-entropy {:.4} nats per {unit}, {:.0} s",
                    ep.epoch,
                    plan.epochs,
                    ep.train,
                    ep.held_out,
                    start.elapsed().as_secs_f64()
                )
            };
            match a.kind {
                Kind::Hand => train(&rows, &plan, &mut report),
                Kind::Prior => train_prior(&rows, &plan, &mut report),
                Kind::Value => oh7_learn::value::train_value(&values, &plan, &mut report),
                Kind::Bet => oh7_learn::bets::train_bets(&bets, &plan, &mut report),
            }
        })
        .map_err(|e| anyhow!(e))?;
    let tmp = a.out.with_extension("partial");
    std::fs::write(&tmp, &bytes).map_err(|e| anyhow!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &a.out).map_err(|e| anyhow!("cannot write {}: {e}", a.out.display()))?;
    eprintln!("weights ({} KB) written to {}", bytes.len() / 1024, a.out.display());
    Ok(())
}

fn eval(a: &EvalArgs) -> Result<()> {
    if a.kind == Kind::Prior {
        return eval_prior(a);
    }
    if a.kind == Kind::Value {
        return eval_value(a);
    }
    if a.kind == Kind::Bet {
        return eval_bets(a);
    }
    let model = match &a.model {
        Some(p) => load_model(p).map_err(|e| anyhow!(e))?,
        None => oh7_bots::hand_model::HandModel::shipped().clone(),
    };
    let mut out = Vec::new();
    for f in &a.files {
        let (rows, meta) = oh7_learn::data::read(f).map_err(|e| anyhow!(e))?;
        if meta.baseline == 0 {
            bail!("{}: made without --baseline, so the uniform sampler was not measured", f.display());
        }
        let ce = evaluate(&model, &rows, false);
        out.push((f.display().to_string(), meta, ce));
    }
    if a.json {
        let v: Vec<serde_json::Value> = out
            .iter()
            .map(|(f, m, c)| {
                serde_json::json!({"file": f, "preset": m.preset, "players": m.players, "rows": c.rows, "cards": c.cards,
                    "model_nats": c.model, "uniform_nats": c.uniform, "reduction": 1.0 - c.model / c.uniform})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!(
        "| data | preset | players | decisions | hidden cards | model (nats/card) | uniform sampler | reduction |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (f, m, c) in &out {
        println!(
            "| {f} | {} | {} | {} | {} | {:.4} | {:.4} | {:.1}% |",
            m.preset,
            m.players,
            c.rows,
            c.cards,
            c.model,
            c.uniform,
            100.0 * (1.0 - c.model / c.uniform)
        );
    }
    Ok(())
}

fn eval_prior(a: &EvalArgs) -> Result<()> {
    let net = match &a.model {
        Some(p) => load_prior(p).map_err(|e| anyhow!(e))?,
        None => oh7_bots::policy::PolicyNet::shipped().as_ref().clone(),
    };
    let mut out = Vec::new();
    for f in &a.files {
        let (rows, meta) = oh7_learn::data::read(f).map_err(|e| anyhow!(e))?;
        out.push((f.display().to_string(), meta, evaluate_prior(&net, &rows, false)));
    }
    if a.json {
        let v: Vec<serde_json::Value> = out
            .iter()
            .map(|(f, m, c)| {
                serde_json::json!({"file": f, "preset": m.preset, "players": m.players, "rows": c.rows,
                    "model_nats": c.model, "uniform_nats": c.uniform, "agree": c.agree})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("| data | preset | players | decisions searched | prior (nats) | uniform (nats) | top choice agrees |");
    println!("|---|---|---|---|---|---|---|");
    for (f, m, c) in &out {
        println!(
            "| {f} | {} | {} | {} | {:.4} | {:.4} | {:.1}% |",
            m.preset,
            m.players,
            c.rows,
            c.model,
            c.uniform,
            100.0 * c.agree
        );
    }
    Ok(())
}

fn eval_value(a: &EvalArgs) -> Result<()> {
    let net = match &a.model {
        Some(p) => {
            let bytes = std::fs::read(p).map_err(|e| anyhow!("cannot open {}: {e}", p.display()))?;
            oh7_bots::value::ValueNet::from_safetensors(&bytes).map_err(|e| anyhow!("{}: {e}", p.display()))?
        }
        None => (**oh7_bots::value::ValueNet::shipped()).clone(),
    };
    println!("| data | held-out rows | model (nats) | by tricks left only (nats) | expected tricks, mean abs. error |");
    println!("|---|---|---|---|---|");
    for f in &a.files {
        let rows = oh7_learn::value::read_value(f).map_err(|e| anyhow!(e))?;
        let (ce, base, mae, n) = oh7_learn::value::evaluate_value(&net, &rows);
        println!("| {} | {n} | {ce:.4} | {base:.4} | {mae:.3} |", f.display());
    }
    Ok(())
}

fn eval_bets(a: &EvalArgs) -> Result<()> {
    let Some(p) = &a.model else { bail!("--kind bet needs --model FILE: no bid evaluator is shipped yet") };
    let bytes = std::fs::read(p).map_err(|e| anyhow!("cannot open {}: {e}", p.display()))?;
    let net = oh7_bots::bet_model::BetNet::from_safetensors(&bytes).map_err(|e| anyhow!("{}: {e}", p.display()))?;
    println!(
        "| data | held-out bets | model (nats) | points' distribution alone (nats) | expected points, mean abs. error | the mean's |"
    );
    println!("|---|---|---|---|---|---|");
    for f in &a.files {
        let rows = oh7_learn::bets::read_bets(f).map_err(|e| anyhow!(e))?;
        let (ce, base, mae, base_mae, n) = oh7_learn::bets::evaluate_bets(&net, &rows);
        println!("| {} | {n} | {ce:.4} | {base:.4} | {mae:.3} | {base_mae:.3} |", f.display());
    }
    Ok(())
}
