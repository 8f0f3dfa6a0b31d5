//! Ratings of rated tables (`docs/accounts.md`): Weng-Lin (the Bayesian rating OpenSkill
//! implements; `skillratings`), multiplayer, one rating per account and family of rules
//! (`oh7:en`, `oh7:bga`, `seven`, …). A finished game of a rated table ranks its people by their
//! totals (better first, ties sharing a rank; bots' seats are not ranked) and moves their
//! ratings once: the game's row in `rated_games` is the key, written in the same transaction as
//! the ratings and their history, so writing it twice changes nothing.
//!
//! What is shown is the conservative rating `mu − 3·sigma` (it starts at 0 and rises as games
//! make a player's skill both higher and surer).

use oh7_core::game::Seat;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// One rated game's outcome, as stored with the game's end.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The table.
    pub table_id: String,
    /// The game's number at the table.
    pub game: u32,
    /// The family of rules (`oh7:en`, `seven`).
    pub family: String,
    /// Each rated person: their account and their rank (1 best; ties share one).
    pub placings: Vec<(String, usize)>,
}

/// The family of a table's rules: the game and its rules' label.
pub fn family(game: &str, label: &str) -> String {
    if game == label { game.to_string() } else { format!("{game}:{label}") }
}

/// Rank the people (`(seat, account)`) by their totals, better first: higher totals are better
/// when the winners hold the highest total (Oh 7), lower otherwise (Seven's points).
pub fn placings(totals: &[i64], winners: &[Seat], people: &[(Seat, String)]) -> Vec<(String, usize)> {
    let max = totals.iter().copied().max().unwrap_or(0);
    let high = winners.iter().all(|&w| totals.get(w) == Some(&max));
    let key = |s: Seat| if high { -totals[s] } else { totals[s] };
    people
        .iter()
        .map(|(s, a)| {
            // 1 + how many people did strictly better.
            let rank = 1 + people.iter().filter(|(o, _)| key(*o) < key(*s)).count();
            (a.clone(), rank)
        })
        .collect()
}

/// The new `(mu, sigma)` of each player from their current ones (`None`: unrated yet) and ranks.
pub fn update(current: &[Option<(f64, f64)>], ranks: &[usize]) -> Vec<(f64, f64)> {
    let ratings: Vec<[WengLinRating; 1]> = current
        .iter()
        .map(|c| [c.map_or_else(WengLinRating::new, |(mu, sigma)| WengLinRating { rating: mu, uncertainty: sigma })])
        .collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> =
        ratings.iter().zip(ranks).map(|(r, &k)| (&r[..], MultiTeamOutcome::new(k))).collect();
    weng_lin_multi_team(&teams, &WengLinConfig::new()).into_iter().map(|t| (t[0].rating, t[0].uncertainty)).collect()
}

/// The bots' measured strength on this rating's scale, per family: what `oh7 league` wrote to
/// `crates/oh7-server/data/bot_ratings.json` (each level rated as one player over games of
/// mixed levels, with [`placings`] and [`update`] as a rated table uses them). Shown on the
/// leaderboards as reference points.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct BotReferences {
    /// Per family (`oh7:en`, `seven`).
    pub families: std::collections::BTreeMap<String, FamilyReference>,
}

/// One family's bot ratings.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct FamilyReference {
    /// The command that measured them.
    pub command: String,
    /// Seats at each game.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// Each level, strongest first.
    pub bots: Vec<BotRating>,
}

/// One bot level's rating.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct BotRating {
    /// The level (`expert`, `hard`, …).
    pub bot: String,
    /// The rating shown (`mu − 3·sigma`).
    pub rating: f64,
    /// Weng-Lin's mu.
    pub mu: f64,
    /// Weng-Lin's sigma.
    pub sigma: f64,
    /// Games it played.
    pub games: u64,
}

/// The file the server ships.
const BOT_RATINGS: &str = include_str!("../data/bot_ratings.json");

/// The shipped bot ratings.
pub fn bot_references() -> &'static BotReferences {
    static REFS: std::sync::LazyLock<BotReferences> = std::sync::LazyLock::new(|| {
        serde_json::from_str(BOT_RATINGS).unwrap_or_else(|e| {
            tracing::error!(error = %e, "data/bot_ratings.json is not readable: leaderboards show no bots");
            BotReferences::default()
        })
    });
    &REFS
}

/// The rating shown: `mu − 3·sigma`.
pub fn shown(mu: f64, sigma: f64) -> f64 {
    mu - 3.0 * sigma
}

/// Apply a rated game in an open transaction on either database (`$lock`: how the current
/// ratings are read, `FOR UPDATE` on PostgreSQL). Nothing happens if the game was rated before.
macro_rules! apply_rated {
    ($name:ident, $conn:ty, $lock:literal) => {
        pub(crate) async fn $name(c: &mut $conn, r: &Rated, now: i64) -> Result<(), sqlx::Error> {
            let first = sqlx::query(
                "INSERT INTO rated_games (table_id, game, family, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            )
            .bind(&r.table_id)
            .bind(r.game as i64)
            .bind(&r.family)
            .bind(now)
            .execute(&mut *c)
            .await?
            .rows_affected();
            if first == 0 {
                return Ok(());
            }
            // Accounts deleted since the game are left out.
            let mut people = Vec::new();
            let mut current = Vec::new();
            for (account, rank) in &r.placings {
                let exists: Option<(String,)> = sqlx::query_as("SELECT id FROM accounts WHERE id = $1")
                    .bind(account)
                    .fetch_optional(&mut *c)
                    .await?;
                if exists.is_none() {
                    continue;
                }
                let now_rated: Option<(f64, f64, i64)> = sqlx::query_as(concat!(
                    "SELECT mu, sigma, games FROM ratings WHERE account_id = $1 AND family = $2",
                    $lock
                ))
                .bind(account)
                .bind(&r.family)
                .fetch_optional(&mut *c)
                .await?;
                people.push((account, *rank, now_rated.map_or(0, |(_, _, g)| g)));
                current.push(now_rated.map(|(mu, sigma, _)| (mu, sigma)));
            }
            if people.len() < 2 {
                return Ok(());
            }
            let ranks: Vec<usize> = people.iter().map(|p| p.1).collect();
            for ((account, _, games), (mu, sigma)) in people.iter().zip(update(&current, &ranks)) {
                sqlx::query(
                    "INSERT INTO ratings (account_id, family, mu, sigma, games) VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (account_id, family) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, \
                     games = excluded.games",
                )
                .bind(*account)
                .bind(&r.family)
                .bind(mu)
                .bind(sigma)
                .bind(games + 1)
                .execute(&mut *c)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (account_id, family, table_id, game, mu, sigma, at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(*account)
                .bind(&r.family)
                .bind(&r.table_id)
                .bind(r.game as i64)
                .bind(mu)
                .bind(sigma)
                .bind(now)
                .execute(&mut *c)
                .await?;
            }
            Ok(())
        }
    };
}

apply_rated!(apply_sqlite, sqlx::SqliteConnection, "");
apply_rated!(apply_pg, sqlx::PgConnection, " FOR UPDATE");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_are_ranked_by_their_totals_the_right_way_round() {
        let people: Vec<(Seat, String)> = (0..4).map(|s| (s, format!("a{s}"))).collect();
        // Oh 7: the winner holds the highest total; seat 1 and 3 tie.
        let oh7 = placings(&[10, 25, 31, 25], &[2], &people);
        assert_eq!(oh7.iter().map(|p| p.1).collect::<Vec<_>>(), vec![4, 2, 1, 2]);
        // Seven: the winner holds the lowest.
        let seven = placings(&[40, 3, 12, 3], &[1, 3], &people);
        assert_eq!(seven.iter().map(|p| p.1).collect::<Vec<_>>(), vec![4, 1, 3, 1]);
        // A bot's seat (2) is not ranked: the people keep their order among themselves.
        let two = [(0, "a".to_string()), (3, "b".to_string())];
        assert_eq!(placings(&[10, 25, 31, 25], &[2], &two), vec![("a".to_string(), 2), ("b".to_string(), 1)]);
    }

    #[test]
    fn the_winner_gains_the_loser_loses_and_both_grow_surer() {
        let new = update(&[None, None], &[1, 2]);
        let (w, l) = (new[0], new[1]);
        assert!(w.0 > 25.0 && l.0 < 25.0, "{new:?}");
        assert!(w.1 < 25.0 / 3.0 && l.1 < 25.0 / 3.0, "{new:?}");
        assert!(shown(w.0, w.1) > shown(l.0, l.1));
        // A tie moves nobody's mu between equals.
        let tie = update(&[None, None], &[1, 1]);
        assert!((tie[0].0 - tie[1].0).abs() < 1e-9);
    }

    /// The shipped file reads, every family's levels are known ones, strongest first, and
    /// each rating is what its mu and sigma show.
    #[test]
    fn the_shipped_bot_ratings_read() {
        let refs: BotReferences = serde_json::from_str(BOT_RATINGS).unwrap();
        assert!(refs.families.contains_key("oh7:en"), "{:?}", refs.families.keys());
        for (family, f) in &refs.families {
            assert!(f.bots.len() >= 2, "{family}");
            assert!(f.bots.windows(2).all(|w| w[0].rating >= w[1].rating), "{family}");
            for b in &f.bots {
                assert!((b.rating - shown(b.mu, b.sigma)).abs() < 1e-6, "{family} {b:?}");
                assert!(b.games > 0);
            }
        }
        assert_eq!(bot_references(), &refs);
    }

    #[test]
    fn families_name_the_game_and_its_rules() {
        assert_eq!(family("oh7", "bga"), "oh7:bga");
        assert_eq!(family("seven", "seven"), "seven");
    }
}
