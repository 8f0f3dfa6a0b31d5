//! `oh7 league`: the bots' strength on the rating scale of rated tables. Whole games are played
//! by levels drawn at random (seeded, distinct levels at a table), each level rated as one
//! player with the server's own Weng-Lin update and placings ([`oh7_server::ratings`]), in
//! game order. The result is what the leaderboards show as reference points, written to
//! `crates/oh7-server/data/bot_ratings.json` with `--write`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use oh7_bots::{DynBot, GameBots, GameSpec};
use oh7_core::GameId;
use oh7_server::ratings::{BotRating, BotReferences, FamilyReference, family, placings, shown, update};
use rand::SeedableRng;
use rand::seq::index::sample;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::GameArgs;
use crate::sim::Progress;

/// Arguments of `oh7 league`.
#[derive(Args, Debug)]
pub(crate) struct LeagueArgs {
    /// The game (`--game`) and its rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// Players at the table (at most as many as the levels).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Whole games to play.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// The levels, comma-separated (every offered level of the game by default).
    #[arg(long, value_delimiter = ',')]
    pub bots: Vec<String>,
    /// Seed of the games and of the draws.
    #[arg(long, default_value = "1", value_parser = crate::parse_seed)]
    pub seed: u64,
    /// Print the ratings as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the ratings into this references file (its family's entry is replaced), e.g.
    /// crates/oh7-server/data/bot_ratings.json.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
}

/// One game of the league: who sat where, their totals and the winners.
struct Played {
    seating: Vec<usize>,
    totals: Vec<i64>,
    winners: Vec<usize>,
}

/// Play game `i`: `players` distinct levels drawn from `levels`, in the drawn order by seat.
fn play(spec: &GameSpec, players: usize, levels: &[String], seed: u64, i: u64) -> Result<Played> {
    let s = oh7_sim::tournament::deal_seed(seed, i);
    let mut rng = ChaCha8Rng::seed_from_u64(s ^ 0x1ea9_5eed);
    let seating: Vec<usize> = sample(&mut rng, levels.len(), players).into_vec();
    let mut game = spec.new_game(players, s).map_err(anyhow::Error::msg)?;
    let mut bots: Vec<Box<dyn DynBot>> = seating
        .iter()
        .enumerate()
        .map(|(seat, &b)| spec.bot(&levels[b], oh7_sim::tournament::deal_seed(s ^ 0xb07, seat as u64)))
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut steps = 0u32;
    while let Some(seat) = game.to_move().lowest() {
        let text = bots[seat].decide(&*game, seat).context("a bot had no decision")?;
        game.apply_text(seat, &text).map_err(|e| anyhow::anyhow!("{}: {text}: {e:?}", levels[seating[seat]]))?;
        steps += 1;
        if steps > 1_000_000 {
            bail!("game {i} did not end");
        }
    }
    Ok(Played { seating, totals: game.totals(), winners: game.winners() })
}

/// Rate `levels` over `games` (in game order): each level's `(mu, sigma, games)`.
fn rate(levels: &[String], games: &[Played]) -> Vec<(f64, f64, u64)> {
    let mut now: Vec<Option<(f64, f64)>> = vec![None; levels.len()];
    let mut count = vec![0u64; levels.len()];
    for g in games {
        let people: Vec<(usize, String)> = g.seating.iter().enumerate().map(|(s, &b)| (s, b.to_string())).collect();
        let placed = placings(&g.totals, &g.winners, &people);
        let current: Vec<Option<(f64, f64)>> = g.seating.iter().map(|&b| now[b]).collect();
        let ranks: Vec<usize> = placed.iter().map(|p| p.1).collect();
        for (&b, new) in g.seating.iter().zip(update(&current, &ranks)) {
            now[b] = Some(new);
            count[b] += 1;
        }
    }
    now.iter().zip(count).map(|(r, n)| (r.map_or(25.0, |r| r.0), r.map_or(25.0 / 3.0, |r| r.1), n)).collect()
}

/// The league's ratings, strongest first.
fn league(spec: &GameSpec, players: usize, levels: &[String], games: u64, seed: u64) -> Result<Vec<BotRating>> {
    let progress = Progress::new(games, "games", "");
    let done = std::sync::atomic::AtomicU64::new(0);
    let played: Vec<Played> = (0..games)
        .into_par_iter()
        .map(|i| {
            let p = play(spec, players, levels, seed, i);
            progress.set(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
            p
        })
        .collect::<Result<_>>()?;
    progress.finish();
    let mut out: Vec<BotRating> = levels
        .iter()
        .zip(rate(levels, &played))
        .map(|(bot, (mu, sigma, games))| BotRating { bot: bot.clone(), rating: shown(mu, sigma), mu, sigma, games })
        .collect();
    out.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    Ok(out)
}

/// Run `oh7 league`.
pub(crate) fn run(args: &LeagueArgs) -> Result<()> {
    let spec = args.game.spec()?;
    spec.check_players(args.players).map_err(anyhow::Error::msg)?;
    let levels: Vec<String> =
        if args.bots.is_empty() { spec.levels().iter().map(|s| s.to_string()).collect() } else { args.bots.clone() };
    for b in &levels {
        if !spec.levels().contains(&b.as_str()) {
            bail!("unknown bot `{b}`: choose among {}", spec.levels().join(", "));
        }
    }
    if levels.len() < args.players {
        bail!(
            "--bots names {} levels for {} seats: a table seats distinct levels, name at least {}",
            levels.len(),
            args.players,
            args.players
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let fam = family(spec.game_name(), &spec.label());
    let bots = league(&spec, args.players, &levels, args.games, args.seed)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&bots)?);
    } else {
        println!("{fam}, {} players, {} games (seed {}): rating = mu − 3·sigma", args.players, args.games, args.seed);
        println!("{:<12} {:>8} {:>8} {:>7} {:>6}", "level", "rating", "mu", "sigma", "games");
        for b in &bots {
            println!("{:<12} {:>8.2} {:>8.2} {:>7.2} {:>6}", b.bot, b.rating, b.mu, b.sigma, b.games);
        }
    }
    if let Some(path) = &args.write {
        let mut refs: BotReferences = match std::fs::read_to_string(path) {
            Ok(text) => {
                serde_json::from_str(&text).with_context(|| format!("{} is not a references file", path.display()))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BotReferences::default(),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let mut command = format!(
            "oh7 league --game {} --players {} --games {} --seed {}",
            spec.game_name(),
            args.players,
            args.games,
            args.seed
        );
        if spec.game_name() == GameId::Oh7.name() {
            command = format!("{command} --preset {}", spec.label());
        }
        if !args.bots.is_empty() {
            command = format!("{command} --bots {}", args.bots.join(","));
        }
        refs.families.insert(fam.clone(), FamilyReference { command, players: args.players, games: args.games, bots });
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(&refs)? + "\n")
            .with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
        eprintln!("wrote {fam} into {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use oh7_core::ruleset::{Preset, Ruleset};

    /// A small league is the same whatever the threads, and a level that counts beats one
    /// that plays at random.
    #[test]
    fn a_league_is_seeded_and_ranks_heuristic_above_random() {
        let spec = GameSpec::oh7(Ruleset::preset(Preset::Kod7));
        let levels: Vec<String> = ["random", "heuristic"].map(String::from).to_vec();
        let a = league(&spec, 2, &levels, 40, 3).unwrap();
        let b = league(&spec, 2, &levels, 40, 3).unwrap();
        assert_eq!(a, b);
        assert_eq!(a[0].bot, "heuristic", "{a:?}");
        assert!(a[0].rating > a[1].rating + 1.0, "{a:?}");
        assert_eq!(a.iter().map(|r| r.games).sum::<u64>(), 80);
    }
}
