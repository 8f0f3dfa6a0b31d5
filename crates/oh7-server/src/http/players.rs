//! A player's page (`GET /api/players/{name}`): their figures over the **finished** games of the
//! tables where their account holds a seat, per game and rules, with the per-player set of
//! `oh7-stats` (the one `oh7 stats` reports: points per round, average bid, nil and top bid
//! rates, success, overshoot and shortfall rates), and their tables, running and finished, by
//! their watch codes (what a spectator may see). Public: a finished game's record is public,
//! and nothing of a running game is read (its table's finished games only). The reviews of
//! their seats are listed on their own page only (signed in as them).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use oh7_core::registry::GameId;
use oh7_stats::oh7::PlayerStats;
use serde::Serialize;

use crate::accounts::HeldSeat;
use crate::app::App;
use crate::http::accounts::{Refused, named, signed_in};
use crate::store::StoreError;

/// A player's page.
#[derive(Debug, Serialize)]
pub(crate) struct Profile {
    /// The account's name.
    pub name: String,
    /// Finished games, all rules together.
    pub games: u64,
    /// Per game and rules, the most played first.
    pub by_rules: Vec<RulesFigures>,
    /// The ratings of rated games, per family, with their history.
    pub ratings: Vec<crate::accounts::RatingBody>,
    /// The tables where they hold a seat, newest first: running and finished.
    pub tables: Vec<TableLine>,
}

/// One table of a player's page: what anyone may see of it (its watch code, never its invite).
#[derive(Debug, Serialize)]
pub(crate) struct TableLine {
    /// The watch code: `/w/CODE` watches the table (the spectators' view), `/replay/CODE`
    /// replays its last finished game.
    pub watch: String,
    /// `oh7` or `seven`.
    pub game: &'static str,
    /// The rules' label.
    pub rules: String,
    /// Players at the table.
    pub players: usize,
    /// The player's seat.
    pub seat: usize,
    /// Creation time, Unix seconds.
    pub created_at: i64,
    /// The table's last game is over.
    pub finished: bool,
    /// Its finished games.
    pub games: u64,
    /// Those the player won.
    pub wins: u64,
    /// The reviews of the player's seat there: only on their own page (signed in as them).
    pub reviews: Vec<crate::accounts::OwnReview>,
}

/// A player's figures under one game's rules.
#[derive(Debug, Serialize)]
pub(crate) struct RulesFigures {
    /// `oh7` or `seven`.
    pub game: &'static str,
    /// The rules' label (`en`, `bga`, …).
    pub rules: String,
    /// Finished games.
    pub games: u64,
    /// Those won (a shared victory counts).
    pub wins: u64,
    /// Oh 7's per-player figures (`None` for Seven).
    pub oh7: Option<PlayerFigures>,
}

/// `oh7-stats`' per-player set.
#[derive(Debug, Serialize)]
pub(crate) struct PlayerFigures {
    /// Rounds played.
    pub rounds: u64,
    /// Mean points per round.
    pub points_per_round: f64,
    /// Mean bid.
    pub average_bid: f64,
    /// Share of bids that are 0.
    pub nil_bid_rate: f64,
    /// Share of bids that are the round's highest.
    pub top_bid_rate: f64,
    /// Share of rounds with exactly the tricks bid.
    pub success_rate: f64,
    /// Share of rounds with more tricks than bid.
    pub overshoot_rate: f64,
    /// Share of rounds with fewer tricks than bid.
    pub shortfall_rate: f64,
}

impl From<&PlayerStats> for PlayerFigures {
    fn from(p: &PlayerStats) -> PlayerFigures {
        PlayerFigures {
            rounds: p.made.n,
            points_per_round: p.points.value(),
            average_bid: p.bet.value(),
            nil_bid_rate: p.nil.value(),
            top_bid_rate: p.top.value(),
            success_rate: p.made.value(),
            overshoot_rate: p.over.value(),
            shortfall_rate: p.under.value(),
        }
    }
}

/// What one rules' games add up to, while reading.
#[derive(Default)]
struct Tally {
    game: &'static str,
    games: u64,
    wins: u64,
    oh7: Option<PlayerStats>,
}

/// The figures of the seats `held` (each with its table's finished games).
fn figures(name: String, held: &[(HeldSeat, Vec<Arc<crate::table::FinishedGame>>)]) -> Profile {
    let by_rules = rules_figures(held);
    let tables = held
        .iter()
        .map(|(s, games)| TableLine {
            watch: s.watch.clone(),
            game: s.game,
            rules: s.rules.clone(),
            players: s.players,
            seat: s.seat,
            created_at: s.created_at,
            finished: s.finished,
            games: games.len() as u64,
            wins: games.iter().filter(|g| g.winners.contains(&s.seat)).count() as u64,
            reviews: Vec::new(),
        })
        .collect();
    Profile { name, games: by_rules.iter().map(|r| r.games).sum(), by_rules, ratings: Vec::new(), tables }
}

fn rules_figures(held: &[(HeldSeat, Vec<Arc<crate::table::FinishedGame>>)]) -> Vec<RulesFigures> {
    let mut by: BTreeMap<(&'static str, String), Tally> = BTreeMap::new();
    for (seat, games) in held {
        for g in games {
            let t = by.entry((seat.game, seat.rules.clone())).or_default();
            t.game = seat.game;
            t.games += 1;
            t.wins += u64::from(g.winners.contains(&seat.seat));
            let record = g.record_value();
            if GameId::of_record(&record).ok() == Some(GameId::Oh7) {
                let mut one = oh7_stats::Stats::new();
                match one.add_value(&record) {
                    Ok(()) => {
                        if let Some(p) = one.oh7.by_seat.get(seat.seat) {
                            t.oh7.get_or_insert_with(PlayerStats::default).merge(p);
                        }
                    }
                    Err(e) => tracing::error!(error = %e, "a finished game's record is not readable for statistics"),
                }
            }
        }
    }
    let mut by_rules: Vec<RulesFigures> = by
        .into_iter()
        .map(|((game, rules), t)| RulesFigures {
            game,
            rules,
            games: t.games,
            wins: t.wins,
            oh7: t.oh7.as_ref().map(PlayerFigures::from),
        })
        .collect();
    by_rules.sort_by_key(|r| std::cmp::Reverse(r.games));
    by_rules
}

/// The player pages' routes.
pub(crate) fn routes() -> axum::Router<Arc<App>> {
    axum::Router::new()
        .route("/api/players/{name}", axum::routing::get(page))
        .route("/api/leaderboard/{family}", axum::routing::get(leaderboard))
}

/// `GET /api/players/{name}`.
pub(crate) async fn page(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    let account = named(&app, &name).await?;
    let own = signed_in(&app, &headers).await?.is_some_and(|a| a.id == account.id);
    let seats = app.lobby.accounts().tables_of(&account.id).await?;
    let mut held = Vec::with_capacity(seats.len());
    for seat in seats {
        let stored = app.lobby.load_stored(&seat.table_id).await?;
        // Replaying a log is CPU work: off the async workers.
        let games = tokio::task::spawn_blocking(move || crate::table::finished_games(stored))
            .await
            .map_err(|_| StoreError::Closed)?
            .map_err(|why| StoreError::Corrupt { table: seat.table_id.clone(), why })?;
        held.push((seat, games));
    }
    let mut profile = figures(account.name, &held);
    profile.ratings = app.lobby.accounts().ratings_of(&account.id).await?;
    if own {
        let reviews = app.lobby.accounts().reviews_of(&account.id).await?;
        for (line, (seat, _)) in profile.tables.iter_mut().zip(&held) {
            line.reviews =
                reviews.iter().filter(|r| r.table_id == seat.table_id && r.seat == seat.seat).cloned().collect();
        }
    }
    Ok(Json(profile).into_response())
}

/// Most lines a leaderboard shows.
const LEADERBOARD: i64 = 100;

/// `GET /api/leaderboard/{family}`: the best rated accounts of a family of rules (`oh7:en`,
/// `seven`), best first; empty for a family nobody is rated in.
pub(crate) async fn leaderboard(State(app): State<Arc<App>>, Path(family): Path<String>) -> Result<Response, Refused> {
    let standings = app.lobby.accounts().leaderboard(&family, LEADERBOARD).await?;
    let bots = crate::ratings::bot_references().families.get(&family).map(|f| f.bots.clone()).unwrap_or_default();
    Ok(Json(LeaderboardBody { family, standings, bots }).into_response())
}

/// A leaderboard.
#[derive(Serialize)]
struct LeaderboardBody {
    family: String,
    standings: Vec<crate::accounts::Standing>,
    /// The bots' measured ratings on the same scale, strongest first (reference points: they
    /// never play rated tables; see `docs/accounts.md`).
    bots: Vec<crate::ratings::BotRating>,
}
