//! The bodies of the public reads: the presets a create form offers, and a table's statistics
//! (each finished game, and `oh7-stats` figures over all of them): the same for a server's
//! tables and the browser's solo tables.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::FinishedGame;
use oh7_bots::{GameBots, GameSpec};
use oh7_core::registry::GameId;

// The bodies below list their fields in alphabetical order: they were once built as `Value` maps,
// whose keys serde_json writes sorted, and the same order keeps every body byte for byte.

/// One value per game of the registry, keyed by its name (`oh7`, `seven`).
pub type ByGame<T> = std::collections::BTreeMap<GameId, T>;

/// One game and preset a table can be created with, in [`Presets`].
#[derive(Debug, Serialize)]
pub struct PresetGame {
    /// `oh7` or `seven`.
    pub game: &'static str,
    /// The most players.
    pub max_players: usize,
    /// The fewest players.
    pub min_players: usize,
    /// The preset's name (`seven` for Seven).
    pub preset: String,
    /// Its rules, as the engine's knobs.
    pub ruleset: Value,
}

/// The body of `GET /api/presets`: see [`presets`].
#[derive(Debug, Serialize)]
pub struct Presets {
    /// Every game and preset with its player counts and rules.
    pub games: Vec<PresetGame>,
    /// Each game's bot levels, weakest first.
    pub levels: ByGame<&'static [&'static str]>,
    /// Each game's strongest bot level.
    pub strongest: ByGame<&'static str>,
}

/// What every create form needs to know: the bot levels of each game, the strongest, and each
/// preset's player counts and rules (from the engine's own knobs).
pub fn presets() -> Presets {
    let specs = GameSpec::all();
    let games = specs
        .iter()
        .filter_map(|spec| {
            let (min, max) = spec.player_range()?;
            Some(PresetGame {
                game: spec.game_name(),
                max_players: max,
                min_players: min,
                preset: spec.label(),
                ruleset: spec.ruleset_json(),
            })
        })
        .collect();
    Presets {
        games,
        levels: GameId::ALL.into_iter().map(|g| (g, g.levels())).collect(),
        strongest: GameId::ALL.into_iter().map(|g| (g, g.strongest())).collect(),
    }
}

/// The catalogue as an ES module for the browser (`web/catalogue.js`, generated like
/// `web/wording.js`): `CATALOGUE`, the body of `GET /api/presets` ([`presets`]), so the page
/// knows every game, preset, player range, rule and bot level before any answer comes (and with
/// no server at all) from the one registry.
pub fn catalogue_js() -> String {
    let body = serde_json::to_string_pretty(&presets()).expect("the presets serialize");
    format!(
        "// Generated from the registry by oh7_table::bodies::catalogue_js (do not edit: regenerate\n\
         // with `OH7_WRITE_CATALOGUE=1 cargo test -p oh7-table catalogue`): every game, preset,\n\
         // player range, rule and bot level, the body of GET /api/presets.\n\n\
         export const CATALOGUE = {body};\n"
    )
}

/// One finished game in [`TableStats::history`].
#[derive(Debug, Serialize)]
pub struct GameResult {
    /// Its number at the table, from 1.
    pub game: u32,
    /// Final totals by seat.
    pub totals: Vec<i64>,
    /// The winners.
    pub winners: Vec<oh7_core::Seat>,
}

/// The body of `GET /api/tables/{code}/stats`: see [`table_stats`].
#[derive(Debug, Serialize)]
pub struct TableStats {
    /// How many games have finished.
    pub games: usize,
    /// Each finished game's totals and winners, in order.
    pub history: Vec<GameResult>,
    /// The Oh 7 figures over every finished Oh 7 game (`null` when there is none).
    pub stats: Option<Oh7Figures>,
    /// The Seven figures over every finished Seven game (`null` when there is none).
    pub seven: Option<SevenFigures>,
}

/// The figures of `oh7-stats` over a table's finished Seven games, in [`TableStats`].
#[derive(Debug, Serialize)]
pub struct SevenFigures {
    /// Rounds played.
    pub rounds: u64,
    /// Draw actions (a turn's draw or a penalty), and the cards they drew.
    pub draws: u64,
    /// Cards drawn.
    pub cards_drawn: u64,
    /// Last cards announced.
    pub announces: u64,
    /// Call-outs that made a player draw.
    pub callouts: u64,
    /// Per seat.
    pub players: Vec<SevenSeatFigures>,
}

/// One seat's Seven figures, in [`SevenFigures`].
#[derive(Debug, Serialize)]
pub struct SevenSeatFigures {
    /// The seat, from 0.
    pub seat: usize,
    /// The mean points added per round played (fewer is better).
    pub points_per_round: f64,
    /// The share of its rounds in which the seat went out first.
    pub out_rate: f64,
    /// Action cards played (2, A♠, 7, 8, 10, J).
    pub action_cards: u64,
    /// Turns taken (plays, draws, passes).
    pub turns: u64,
}

/// The figures of `oh7-stats` over a table's finished Oh 7 games, in [`TableStats`].
#[derive(Debug, Serialize)]
pub struct Oh7Figures {
    /// Per seat.
    pub players: Vec<SeatFigures>,
    /// Rounds played.
    pub rounds: u64,
    /// For the whole table.
    pub table: TableFigures,
}

/// A table's figures over every seat, in [`Oh7Figures`].
#[derive(Debug, Serialize)]
pub struct TableFigures {
    /// The mean of each round's highest bid.
    pub average_top_bid: f64,
    /// The share of bids that are 0.
    pub nil_bid_rate: f64,
    /// By suit letter: the share of rounds with a trump that had this suit as trump (every suit
    /// of the decks played is listed, 0 if never trump).
    pub trump_selection_rate: std::collections::BTreeMap<String, f64>,
}

/// One seat's figures, in [`Oh7Figures`].
#[derive(Debug, Serialize)]
pub struct SeatFigures {
    /// The mean bid.
    pub average_bid: f64,
    /// The share of bids that are 0.
    pub nil_bid_rate: f64,
    /// The share of rounds with more tricks than bid.
    pub overshoot_rate: f64,
    /// The mean points per round.
    pub points_per_round: f64,
    /// The seat, from 0.
    pub seat: usize,
    /// The share of rounds with fewer tricks than bid.
    pub shortfall_rate: f64,
    /// The share of rounds with exactly the tricks bid.
    pub success_rate: f64,
    /// The share of bids that are the round's highest.
    pub top_bid_rate: f64,
}

/// The statistics of a table's finished games: each game's totals and winners, and for Oh 7 the
/// figures of `oh7-stats` (the same accumulator as `oh7 stats`) over all of them.
pub fn table_stats(games: &[Arc<FinishedGame>]) -> TableStats {
    let history = games
        .iter()
        .map(|g| GameResult { game: g.game, totals: g.totals.clone(), winners: g.winners.clone() })
        .collect();
    let records: Vec<Value> = games.iter().map(|g| g.record_value()).collect();
    let of = |id| -> Vec<&Value> { records.iter().filter(|r| GameId::of_record(r).ok() == Some(id)).collect() };
    let oh7 = of(GameId::Oh7);
    let stats = if oh7.is_empty() { None } else { Some(oh7_figures(&oh7)) };
    let seven = of(GameId::Seven);
    let seven = if seven.is_empty() { None } else { Some(seven_figures(&seven)) };
    TableStats { games: games.len(), history, stats, seven }
}

fn seven_figures(records: &[&Value]) -> SevenFigures {
    let mut acc = oh7_stats::Stats::new();
    for r in records {
        if let Err(e) = acc.add_value(r) {
            tracing::error!(error = %e, "a finished game's record is not readable for statistics");
        }
    }
    let o = &acc.seven;
    let players = o
        .by_seat
        .iter()
        .enumerate()
        .map(|(seat, p)| SevenSeatFigures {
            seat,
            points_per_round: p.points.value(),
            out_rate: p.out.value(),
            action_cards: p.plays[..oh7_stats::seven::ACTION_CARDS.len()].iter().sum(),
            turns: p.turns,
        })
        .collect();
    SevenFigures {
        rounds: o.rounds,
        draws: o.draws,
        cards_drawn: o.cards_drawn,
        announces: o.announces,
        callouts: o.callouts,
        players,
    }
}

fn oh7_figures(records: &[&Value]) -> Oh7Figures {
    let mut acc = oh7_stats::Stats::new();
    // Every suit of the deck is listed, those never trump at 0.
    let mut suits: Vec<oh7_core::card::Suit> = Vec::new();
    for r in records {
        if let Err(e) = acc.add_value(r) {
            tracing::error!(error = %e, "a finished game's record is not readable for statistics");
            continue;
        }
        let players = r["players"].as_u64().unwrap_or(0) as usize;
        if let Ok(rules) = oh7_core::ruleset::Ruleset::deserialize(&r["ruleset"]) {
            for s in rules.suits(players) {
                if !suits.contains(&s) {
                    suits.push(s);
                }
            }
        }
    }
    let o = &acc.oh7;
    let mut trump = std::collections::BTreeMap::new();
    for s in oh7_core::card::Suit::ALL {
        let rate = o.trump_rates().into_iter().find(|(t, _)| *t == s).map(|(_, r)| r.value());
        if rate.is_some() || suits.contains(&s) {
            trump.insert(s.letter().to_string(), rate.unwrap_or(0.0));
        }
    }
    let players = o
        .by_seat
        .iter()
        .enumerate()
        .map(|(seat, p)| SeatFigures {
            average_bid: p.bet.value(),
            nil_bid_rate: p.nil.value(),
            overshoot_rate: p.over.value(),
            points_per_round: p.points.value(),
            seat,
            shortfall_rate: p.under.value(),
            success_rate: p.made.value(),
            top_bid_rate: p.top.value(),
        })
        .collect();
    Oh7Figures {
        players,
        rounds: o.rounds,
        table: TableFigures {
            average_top_bid: o.top_bid.value(),
            nil_bid_rate: o.nil.value(),
            trump_selection_rate: trump,
        },
    }
}

#[cfg(test)]
mod tests {
    //! The typed bodies against a frozen copy of the `json!` code they replaced, byte for byte.

    use super::*;
    use serde_json::json;

    fn old_presets() -> Value {
        let specs = GameSpec::all();
        let games: Vec<Value> = specs
            .iter()
            .filter_map(|spec| {
                let (min, max) = spec.player_range()?;
                Some(json!({
                    "game": spec.game_name(),
                    "preset": spec.label(),
                    "min_players": min,
                    "max_players": max,
                    "ruleset": spec.ruleset_json(),
                }))
            })
            .collect();
        let oh7 = GameSpec::Oh7 { ruleset: oh7_core::ruleset::Ruleset::preset(oh7_core::ruleset::Preset::En) };
        let seven = GameSpec::Seven { rules: Default::default() };
        json!({
            "levels": {"oh7": oh7.levels(), "seven": seven.levels()},
            "strongest": {"oh7": oh7.strongest(), "seven": seven.strongest()},
            "games": games,
        })
    }

    fn old_table_stats(games: &[Arc<FinishedGame>]) -> Value {
        let history: Vec<Value> =
            games.iter().map(|g| json!({"game": g.game, "totals": g.totals, "winners": g.winners})).collect();
        let records: Vec<Value> = games.iter().map(|g| g.record_value()).collect();
        let oh7: Vec<&Value> = records.iter().filter(|r| r["game"] == "oh7").collect();
        let stats = if oh7.is_empty() { Value::Null } else { old_oh7_stats_json(&oh7) };
        json!({"games": games.len(), "history": history, "stats": stats})
    }

    fn old_oh7_stats_json(records: &[&Value]) -> Value {
        let mut acc = oh7_stats::Stats::new();
        let mut suits: Vec<oh7_core::card::Suit> = Vec::new();
        for r in records {
            if acc.add_value(r).is_err() {
                continue;
            }
            let players = r["players"].as_u64().unwrap_or(0) as usize;
            if let Ok(rules) = oh7_core::ruleset::Ruleset::deserialize(&r["ruleset"]) {
                for s in rules.suits(players) {
                    if !suits.contains(&s) {
                        suits.push(s);
                    }
                }
            }
        }
        let o = &acc.oh7;
        let mut trump = serde_json::Map::new();
        for s in oh7_core::card::Suit::ALL {
            let rate = o.trump_rates().into_iter().find(|(t, _)| *t == s).map(|(_, r)| r.value());
            if rate.is_some() || suits.contains(&s) {
                trump.insert(s.letter().to_string(), json!(rate.unwrap_or(0.0)));
            }
        }
        let players: Vec<Value> = o
            .by_seat
            .iter()
            .enumerate()
            .map(|(seat, p)| {
                json!({
                    "seat": seat,
                    "points_per_round": p.points.value(),
                    "average_bid": p.bet.value(),
                    "nil_bid_rate": p.nil.value(),
                    "top_bid_rate": p.top.value(),
                    "success_rate": p.made.value(),
                    "overshoot_rate": p.over.value(),
                    "shortfall_rate": p.under.value(),
                })
            })
            .collect();
        json!({
            "rounds": o.rounds,
            "table": {
                "nil_bid_rate": o.nil.value(),
                "average_top_bid": o.top_bid.value(),
                "trump_selection_rate": trump,
            },
            "players": players,
        })
    }

    /// A whole game of `spec` for `players`, each decision picked by `seed` among the legal ones.
    fn finished(number: u32, spec: &GameSpec, players: usize, seed: u64) -> Arc<FinishedGame> {
        let mut g = spec.new_game(players, seed).expect("a game");
        let mut pick = seed;
        while let Some(seat) = g.to_move().lowest() {
            let legal = g.legal_text(seat);
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let action = &legal[(pick >> 33) as usize % legal.len()];
            g.apply_text(seat, action).expect("a legal action");
        }
        Arc::new(FinishedGame::of(number, g.as_ref()))
    }

    fn same(new: &impl Serialize, old: &Value) {
        assert_eq!(serde_json::to_string(new).unwrap(), old.to_string());
    }

    #[test]
    fn the_browsers_catalogue_is_the_registrys() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/catalogue.js");
        let made = catalogue_js();
        if std::env::var_os("OH7_WRITE_CATALOGUE").is_some() {
            std::fs::write(path, &made).unwrap();
        }
        let kept = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            kept == made,
            "web/catalogue.js is not the registry's: OH7_WRITE_CATALOGUE=1 cargo test -p oh7-table catalogue"
        );
    }

    #[test]
    fn presets_are_as_before() {
        same(&presets(), &old_presets());
    }

    /// The Oh 7 part of the statistics is as before (the Seven figures are new: checked below).
    fn same_stats(new: &TableStats, old: &Value) {
        let mut v = serde_json::to_value(new).unwrap();
        v.as_object_mut().unwrap().remove("seven");
        assert_eq!(v.to_string(), old.to_string());
    }

    #[test]
    fn stats_are_as_before() {
        let specs = GameSpec::all();
        let seven = specs.iter().find(|s| s.game_name() == "seven").expect("seven");
        let (smin, _) = seven.player_range().expect("seven's players");
        // No game yet, only Seven (stats null), and a record the accumulator cannot read.
        same_stats(&table_stats(&[]), &old_table_stats(&[]));
        let sevens = vec![finished(1, seven, smin, 1), finished(2, seven, smin, 2)];
        same_stats(&table_stats(&sevens), &old_table_stats(&sevens));
        // Seven's own figures: every round of both games, each seat's share of rounds gone out.
        let sv = table_stats(&sevens).seven.expect("Seven figures");
        let rounds: usize = sevens.iter().map(|g| g.record_value()["rounds"].as_array().unwrap().len()).sum();
        assert!(sv.rounds > 0 && sv.rounds as usize <= rounds, "{} of {rounds}", sv.rounds);
        assert_eq!(sv.players.len(), smin);
        let out: f64 = sv.players.iter().map(|p| p.out_rate).sum();
        assert!(out > 0.0, "someone goes out: {out}");
        assert!(sv.players.iter().all(|p| p.turns > 0));
        assert!(table_stats(&[]).seven.is_none());
        let garbage =
            vec![Arc::new(FinishedGame::with_record(1, &json!({"game": "oh7", "players": 3}), vec![0, 0, 0], vec![]))];
        same_stats(&table_stats(&garbage), &old_table_stats(&garbage));
        // Every Oh 7 preset at its player counts alone, then all of them (and Seven) together.
        let mut all = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let (min, max) = spec.player_range().expect("players");
            for players in [min, max] {
                let one = vec![finished(1, spec, players, 7 + i as u64 * 31 + players as u64)];
                same_stats(&table_stats(&one), &old_table_stats(&one));
                all.push(finished(all.len() as u32 + 1, spec, players, 100 + all.len() as u64));
            }
        }
        same_stats(&table_stats(&all), &old_table_stats(&all));
        let figures = table_stats(&all).stats.expect("Oh 7 figures");
        assert!(figures.rounds > 0 && !figures.players.is_empty() && !figures.table.trump_selection_rate.is_empty());
        all.extend(garbage);
        same_stats(&table_stats(&all), &old_table_stats(&all));
    }
}

/// An open table as the home page lists it: public facts only. The server adds the table's
/// spectator code (its one public code) and the host's rating; no invite, token or card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Listing {
    /// The game.
    pub game: GameId,
    /// The preset's name (the game's own name for Seven).
    pub preset: String,
    /// Seats in all.
    pub players: usize,
    /// Seats free for people.
    pub seats_free: usize,
    /// The people seated, by name (the host first).
    pub people: Vec<String>,
    /// Bots seated.
    pub bots: usize,
    /// `en` or `fr`.
    pub lang: String,
    /// Rated.
    pub rated: bool,
    /// A turn-based table: hours per decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_hours: Option<u64>,
    /// A live table's turn clock, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_clock_s: Option<u32>,
}

/// The listing of an open table, while it waits for players: open, no game yet, a seat free and
/// someone here to play with (`None` otherwise: it leaves the list).
pub fn listing(info: &crate::project::TableInfo) -> Option<Listing> {
    use crate::protocol::TableState;
    let free = info.seats.iter().filter(|s| s.status == "empty").count();
    let here = info.seats.iter().any(|s| s.status == "here");
    if !info.open || info.state != TableState::Lobby || free == 0 || !here {
        return None;
    }
    let mut people: Vec<(usize, String)> =
        info.seats.iter().filter(|s| s.bot.is_none()).filter_map(|s| s.name.clone().map(|n| (s.seat, n))).collect();
    people.sort_by_key(|(s, _)| usize::from(*s != info.host) * 100 + s);
    Some(Listing {
        game: info.game,
        preset: info.preset.clone(),
        players: info.players,
        seats_free: free,
        people: people.into_iter().map(|(_, n)| n).collect(),
        bots: info.seats.iter().filter(|s| s.bot.is_some()).count(),
        lang: info.lang.clone(),
        rated: info.rated,
        move_hours: info.move_deadline_s.map(|s| s / 3600),
        turn_clock_s: info.turn_clock_s,
    })
}
