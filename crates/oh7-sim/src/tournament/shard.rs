//! A tournament cut into shards (`oh7 tournament --shard I/N --out F`, then `--merge`): the file
//! one shard writes (a [`ShardHeader`] line, then one [`DealRow`] line per deal, or per pair of
//! levels and deal for a `--ratings` round-robin) and the merge that puts shards back together
//! in deal order, exactly as the one-process run has them. Every error names its file and line.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use oh7_bots::GameSpec;
use serde::{Deserialize, Serialize};

use super::SeatResult;
use crate::{Part, SimError, check_parts, io};

/// The first line of a tournament shard's file: which tournament and which deals.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardHeader {
    /// The format's version (1).
    pub oh7_tournament_shard: u32,
    /// The game and its rules.
    pub spec: GameSpec,
    /// Players at the table.
    pub players: usize,
    /// The bots (every level of the game for `--ratings`).
    pub bots: Vec<String>,
    /// The tournament's seed.
    pub seed: u64,
    /// Deals of the whole tournament.
    pub deals: u64,
    /// This shard's index.
    pub shard: u64,
    /// Shards in all.
    pub of: u64,
    /// The first deal of this shard.
    pub from: u64,
    /// One past its last deal.
    pub to: u64,
    /// A `--ratings` round-robin (the bots are every level; rows name their pair).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ratings: bool,
}

impl ShardHeader {
    /// The header of shard `shard` of `of`, deals `from..to`, of a tournament of `spec`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        spec: &GameSpec,
        players: usize,
        bots: Vec<String>,
        seed: u64,
        deals: u64,
        (shard, of): (u64, u64),
        (from, to): (u64, u64),
        ratings: bool,
    ) -> ShardHeader {
        ShardHeader {
            oh7_tournament_shard: 1,
            spec: spec.clone(),
            players,
            bots,
            seed,
            deals,
            shard,
            of,
            from,
            to,
            ratings,
        }
    }

    /// The pairs of levels a `--ratings` round-robin plays (1 for a tournament).
    fn pairs(&self) -> u64 {
        if self.ratings { (self.bots.len() * self.bots.len().saturating_sub(1) / 2) as u64 } else { 1 }
    }
}

/// One deal's results, a line of a shard's file (of one pair of levels, for `--ratings`).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealRow {
    /// The deal's index in the tournament.
    pub deal: u64,
    /// For `--ratings`: the pair of levels (indices into the header's bots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<[usize; 2]>,
    /// Each seat's result, as [`super::play_deals`] gives them.
    pub results: Vec<SeatResult>,
}

/// A shard's file: its header, then its rows (one per deal, or per pair and deal).
pub fn write_shard(path: &Path, header: &ShardHeader, rows: impl Iterator<Item = DealRow>) -> Result<(), SimError> {
    fn put(out: &mut impl Write, v: &impl Serialize) -> std::io::Result<()> {
        serde_json::to_writer(&mut *out, v)?;
        out.write_all(b"\n")
    }
    let f = std::fs::File::create(path).map_err(io(path))?;
    let mut out = std::io::BufWriter::new(f);
    put(&mut out, header).map_err(io(path))?;
    for row in rows {
        put(&mut out, &row).map_err(io(path))?;
    }
    out.flush().map_err(io(path))
}

/// A tournament's shards put back together.
pub enum Merged {
    /// A tournament: its header (the first shard's), and every deal's results in deal order.
    Tournament {
        /// The tournament.
        header: ShardHeader,
        /// Deal by deal.
        deals: Vec<Vec<SeatResult>>,
    },
    /// A `--ratings` round-robin: each pair of levels with its deals' results, pairs in the
    /// order the one-process run plays them.
    Ratings {
        /// The round-robin.
        header: ShardHeader,
        /// Pair by pair, deal by deal.
        played: Vec<([usize; 2], Vec<Vec<SeatResult>>)>,
    },
}

/// Read the shard files `paths` of one tournament (or one `--ratings` run): each whole (every
/// deal of its range, once), every shard once, all of one tournament.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, SimError> {
    let mut headers = Vec::new();
    // Keyed by (pair of levels for --ratings, deal).
    type Key = (Option<[usize; 2]>, u64);
    let mut deals: BTreeMap<Key, (Vec<SeatResult>, &Path)> = BTreeMap::new();
    for path in paths {
        let f = std::fs::File::open(path).map_err(io(path))?;
        let mut lines = std::io::BufReader::new(f).lines();
        let bad = |line: usize, why: String| SimError::Line { path: path.clone(), line, why };
        let first = lines.next().transpose().map_err(io(path))?;
        let header: ShardHeader = first
            .as_deref()
            .and_then(|l| serde_json::from_str(l).ok())
            .ok_or_else(|| bad(1, "not a tournament shard (its first line is not a shard header)".into()))?;
        let mut rows = 0;
        for (i, line) in lines.enumerate() {
            let line = line.map_err(io(path))?;
            if line.trim().is_empty() {
                continue;
            }
            let row: DealRow =
                serde_json::from_str(&line).map_err(|e| bad(i + 2, format!("not a deal's results: {e}")))?;
            if !(header.from..header.to).contains(&row.deal) {
                return Err(bad(
                    i + 2,
                    format!("deal {} is not in this shard's deals {} to {}", row.deal, header.from, header.to - 1),
                ));
            }
            if row.pair.is_some() != header.ratings {
                return Err(bad(i + 2, "a row that does not fit its shard's kind of tournament".into()));
            }
            if let Some((_, other)) = deals.insert((row.pair, row.deal), (row.results, path)) {
                return Err(SimError::Shards(format!(
                    "deal {} is in {} and in {}",
                    row.deal,
                    other.display(),
                    path.display()
                )));
            }
            rows += 1;
        }
        let want = (header.to - header.from) * header.pairs();
        if rows != want {
            return Err(SimError::Shards(format!(
                "{}: shard {} of {} should hold {want} deals but holds {rows}: an unfinished or cut file",
                path.display(),
                header.shard,
                header.of,
            )));
        }
        headers.push(header);
    }
    let parts: Vec<Part<'_>> = paths
        .iter()
        .zip(&headers)
        .map(|(path, h)| {
            let mut run = serde_json::to_value(h).expect("headers serialize");
            if let Some(o) = run.as_object_mut() {
                for k in ["shard", "from", "to"] {
                    o.remove(k);
                }
            }
            Part { path, run, index: h.shard, count: h.of }
        })
        .collect();
    check_parts(&parts)?;
    let header = headers.swap_remove(0);
    if header.ratings {
        let mut played: Vec<([usize; 2], Vec<Vec<SeatResult>>)> = Vec::new();
        for ((pair, _), (results, _)) in deals {
            let pair = pair.expect("ratings rows name their pair");
            match played.last_mut() {
                Some((p, v)) if *p == pair => v.push(results),
                _ => played.push((pair, vec![results])),
            }
        }
        if played.len() as u64 != header.pairs() || played.iter().any(|(_, v)| v.len() as u64 != header.deals) {
            return Err(SimError::Shards("the shards do not hold every deal of every pair of levels".into()));
        }
        return Ok(Merged::Ratings { header, played });
    }
    let all: Vec<Vec<SeatResult>> = deals.into_values().map(|(r, _)| r).collect();
    if all.len() as u64 != header.deals {
        return Err(SimError::Shards(format!(
            "the shards hold {} deals of the tournament's {}",
            all.len(),
            header.deals
        )));
    }
    Ok(Merged::Tournament { header, deals: all })
}
