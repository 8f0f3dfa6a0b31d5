//! Parquet rows for analysts: one row per seat per scored round (`oh7 simulate --parquet`,
//! `oh7 export`). The schema is documented in `docs/records.md` ("Parquet rows").
//!
//! What it is for: [`ParquetSink`] takes a run's games in game order; [`export_files`] reads
//! JSON Lines records files (each record must replay through the engine, as for `oh7 stats`).
//! Both go through the same row builder ([`Rows`]), so a run's file and the export of its
//! records hold the same rows.
//!
//! The file is written with the `parquet` crate's low-level column writer (no Arrow), Snappy
//! pages, in row groups of [`ROW_GROUP_ROWS`] rows at most, so memory stays flat however many
//! games. It is written under a temporary name next to the output and renamed when complete: an
//! error (or a run that stops) leaves no partial output file.

use std::fs::File;
use std::io::{BufRead, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use oh7_core::GameId;
use oh7_core::oh7::Record;
use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use serde::Deserialize;
use serde_json::Value;

use crate::{Chunk, Rec, SimError, Sink};

/// Rows per row group (at most): about 10 MB of buffered columns, and enough row groups in a
/// large file for readers to work in parallel.
pub const ROW_GROUP_ROWS: usize = 1 << 17;

/// The seat-rounds table's schema name, written in the file's key-value metadata under
/// `oh7.schema`.
pub const SCHEMA: &str = "oh7-parquet-rows/1";

/// The rounds table's schema name (`oh7.schema`).
pub const ROUNDS_SCHEMA: &str = "oh7-parquet-rounds/1";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    I32,
    I64,
    Bool,
    Str,
}

/// A column: name, type, nullable.
type Column = (&'static str, Kind, bool);

/// The columns every table starts with: which game, which round.
const GAME_COLUMNS: &[Column] = &[
    ("game", Kind::Str, false),
    ("game_id", Kind::I64, false),
    ("seed", Kind::Str, false),
    ("preset", Kind::Str, false),
    ("players", Kind::I32, false),
    ("dummy", Kind::Bool, false),
    ("round", Kind::I32, false),
];

/// The seat-rounds table's own columns, after [`GAME_COLUMNS`].
const SEAT_COLUMNS: &[Column] = &[
    ("seat", Kind::I32, false),
    ("bot", Kind::Str, false),
    ("bet", Kind::I32, true),
    ("tricks", Kind::I32, true),
    ("score_delta", Kind::I64, false),
    ("total", Kind::I64, false),
    ("winner", Kind::Bool, false),
    ("finished", Kind::Bool, false),
];

/// The rounds table's own columns, after [`GAME_COLUMNS`] (Oh 7 family rounds only).
const ROUND_COLUMNS: &[Column] = &[
    ("hand_size", Kind::I32, false),
    ("redeals", Kind::I32, false),
    ("bet_attempts", Kind::I32, false),
    ("passing", Kind::Bool, false),
    ("first_leader", Kind::I32, true),
    ("trump", Kind::Str, true),
    ("bet_total", Kind::I32, false),
    ("tricks", Kind::I32, false),
    ("bets_zero", Kind::I32, false),
    ("bet_cards_regular", Kind::I32, false),
    ("bet_cards_star", Kind::I32, false),
    ("bet_cards_void", Kind::I32, false),
    ("bet_cards_interrobang", Kind::I32, false),
    ("made", Kind::I32, false),
    ("trumps_dealt", Kind::I32, true),
    ("trumps_max", Kind::I32, true),
    ("decisions", Kind::I32, false),
    ("lots", Kind::I32, false),
    ("points_total", Kind::I64, false),
    ("finished", Kind::Bool, false),
];

/// The knob columns every table ends with. They come from the record's `ruleset` object (knob
/// name without the `rule_` prefix); a knob the game does not have is null.
const KNOB_COLUMNS: &[Column] = &[
    // Oh 7 family knobs (null in Seven rows).
    ("rule_min_players", Kind::I32, true),
    ("rule_max_players", Kind::I32, true),
    ("rule_dummy", Kind::Bool, true),
    ("rule_deck", Kind::Str, true),
    ("rule_decks", Kind::I32, true),
    ("rule_passing", Kind::Bool, true),
    ("rule_bet_attempts", Kind::I32, true),
    ("rule_after_last_attempt", Kind::Str, true),
    ("rule_rebid_bonus", Kind::Bool, true),
    ("rule_leader", Kind::Str, true),
    ("rule_scoring", Kind::Str, true),
    ("rule_end", Kind::Str, true),
    ("rule_rounds", Kind::I32, true),
    ("rule_target", Kind::I32, true),
    ("rule_every_tie_replays", Kind::Bool, true),
    ("rule_dummy_follower", Kind::Str, true),
    // Seven knobs (null in Oh 7 rows).
    ("rule_limit", Kind::I32, true),
    ("rule_hand_size", Kind::I32, true),
    ("rule_ten_skips_with_two", Kind::Bool, true),
    ("rule_round_turn_limit", Kind::I32, true),
];

/// Which table a Parquet file holds (`docs/records.md`, "Parquet rows" and "Parquet rounds").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Table {
    /// One row per seat per scored round, Oh 7 and Seven (`--parquet`).
    SeatRounds,
    /// One row per scored Oh 7 round with its context (`--rounds-parquet`).
    Rounds,
}

impl Table {
    fn own(self) -> &'static [Column] {
        match self {
            Table::SeatRounds => SEAT_COLUMNS,
            Table::Rounds => ROUND_COLUMNS,
        }
    }

    /// The columns, in file order.
    fn columns(self) -> impl Iterator<Item = Column> {
        GAME_COLUMNS.iter().chain(self.own()).chain(KNOB_COLUMNS).copied()
    }

    fn column(self, i: usize) -> Column {
        self.columns().nth(i).expect("a column of the table")
    }

    /// The schema's name (`oh7.schema` in the file's metadata).
    pub fn schema(self) -> &'static str {
        match self {
            Table::SeatRounds => SCHEMA,
            Table::Rounds => ROUNDS_SCHEMA,
        }
    }

    /// The column names, in file order.
    pub fn column_names(self) -> Vec<&'static str> {
        self.columns().map(|c| c.0).collect()
    }

    /// The Parquet message type of the columns.
    fn schema_text(self) -> String {
        let name = match self {
            Table::SeatRounds => "oh7_round_seat",
            Table::Rounds => "oh7_round",
        };
        let mut s = format!("message {name} {{\n");
        for (name, kind, nullable) in self.columns() {
            let rep = if nullable { "optional" } else { "required" };
            let ty = match kind {
                Kind::I32 => "int32",
                Kind::I64 => "int64",
                Kind::Bool => "boolean",
                Kind::Str => "binary",
            };
            let ann = if kind == Kind::Str { " (STRING)" } else { "" };
            s.push_str(&format!("  {rep} {ty} {name}{ann};\n"));
        }
        s.push('}');
        s
    }
}

/// One cell.
#[derive(Clone, Debug)]
enum Val {
    Null,
    I32(i32),
    I64(i64),
    Bool(bool),
    Str(ByteArray),
}

/// One column's buffered values (non-null only) and definition levels (nullable columns).
#[derive(Default)]
struct Col {
    i32s: Vec<i32>,
    i64s: Vec<i64>,
    bools: Vec<bool>,
    strs: Vec<ByteArray>,
    defs: Vec<i16>,
}

impl Col {
    fn clear(&mut self) {
        self.i32s.clear();
        self.i64s.clear();
        self.bools.clear();
        self.strs.clear();
        self.defs.clear();
    }
}

/// Why a record gives no rows.
type Why = String;

impl GameFields {
    /// The [`GAME_COLUMNS`] of a row of round `round`.
    fn head(&self, round: u32) -> Vec<Val> {
        let mut row = Vec::with_capacity(64);
        row.extend([
            Val::Str(self.game.into()),
            Val::I64(self.id),
            Val::Str(self.seed.clone()),
            Val::Str(self.preset.clone()),
            Val::I32(self.players),
            Val::Bool(self.dummy),
            Val::I32(round as i32),
        ]);
        row
    }
}

/// The fields every row of one game shares.
struct GameFields {
    game: &'static str,
    id: i64,
    seed: ByteArray,
    preset: ByteArray,
    players: i32,
    dummy: bool,
    winners: Vec<usize>,
    finished: bool,
    knobs: Vec<Val>,
    seats: Vec<ByteArray>,
}

/// The knob columns of a game from its `ruleset` object.
fn knobs(ruleset: &Value) -> Result<Vec<Val>, Why> {
    KNOB_COLUMNS
        .iter()
        .map(|&(name, kind, _)| {
            let knob = name.strip_prefix("rule_").expect("knob columns start with rule_");
            let v = ruleset.get(knob).unwrap_or(&Value::Null);
            if v.is_null() {
                return Ok(Val::Null);
            }
            let bad = || format!("ruleset knob `{knob}` is not {kind:?}: {v}");
            Ok(match kind {
                Kind::I32 => Val::I32(v.as_i64().and_then(|x| i32::try_from(x).ok()).ok_or_else(bad)?),
                Kind::I64 => Val::I64(v.as_i64().ok_or_else(bad)?),
                Kind::Bool => Val::Bool(v.as_bool().ok_or_else(bad)?),
                Kind::Str => Val::Str(v.as_str().ok_or_else(bad)?.into()),
            })
        })
        .collect()
}

/// Rows being built, flushed to the file a row group at a time.
pub struct Rows {
    table: Table,
    cols: Vec<Col>,
    /// Rows buffered (not yet in a row group).
    len: usize,
    /// Rows in all.
    total: u64,
}

impl Rows {
    /// No rows of `table` yet.
    pub fn new(table: Table) -> Rows {
        Rows { table, cols: table.columns().map(|_| Col::default()).collect(), len: 0, total: 0 }
    }

    /// Rows added so far.
    pub fn total(&self) -> u64 {
        self.total
    }

    fn push(&mut self, row: &[Val]) {
        debug_assert_eq!(row.len(), self.cols.len());
        for ((col, v), (_, _, nullable)) in self.cols.iter_mut().zip(row).zip(self.table.columns()) {
            match v {
                Val::Null => {}
                Val::I32(x) => col.i32s.push(*x),
                Val::I64(x) => col.i64s.push(*x),
                Val::Bool(x) => col.bools.push(*x),
                Val::Str(x) => col.strs.push(x.clone()),
            }
            if nullable {
                col.defs.push(i16::from(!matches!(v, Val::Null)));
            }
        }
        self.len += 1;
        self.total += 1;
    }

    /// One row of game `g`: round `round`, seat `seat`.
    #[allow(clippy::too_many_arguments)]
    fn push_seat(
        &mut self,
        g: &GameFields,
        round: u32,
        seat: usize,
        bet: Option<i64>,
        tricks: Option<i64>,
        delta: i64,
        total: i64,
    ) {
        let opt = |x: Option<i64>| x.map_or(Val::Null, |x| Val::I32(x as i32));
        let mut row = g.head(round);
        row.extend([
            Val::I32(seat as i32),
            Val::Str(g.seats.get(seat).cloned().unwrap_or_else(|| format!("p{seat}").as_str().into())),
            opt(bet),
            opt(tricks),
            Val::I64(delta),
            Val::I64(total),
            Val::Bool(g.winners.contains(&seat)),
            Val::Bool(g.finished),
        ]);
        row.extend(g.knobs.iter().cloned());
        self.push(&row);
    }

    /// The rows of an Oh 7 record: one per player (the Dummy has none) per scored round, the
    /// rounds `oh7 stats` counts (points, bets and tricks known for every player).
    pub fn add_oh7(&mut self, id: u64, r: &Record) -> Result<(), Why> {
        let ruleset = serde_json::to_value(r.ruleset).map_err(|e| e.to_string())?;
        let np = r.players;
        let g = GameFields {
            game: GameId::Oh7.name(),
            id: id as i64,
            seed: r.seed.as_str().into(),
            preset: r.preset.to_string().as_str().into(),
            players: np as i32,
            dummy: r.dummy,
            winners: r.winners.clone(),
            finished: r.finished,
            knobs: knobs(&ruleset)?,
            seats: r.seats.iter().map(|s| s.as_str().into()).collect(),
        };
        for round in &r.rounds {
            if round.points.len() < np || round.bets.len() < np || round.won.len() < np {
                continue;
            }
            if self.table == Table::Rounds {
                let row = round_row(&g, r, round);
                self.push(&row);
                continue;
            }
            for s in 0..np {
                let total = round.totals.get(s).copied().unwrap_or(0);
                self.push_seat(
                    &g,
                    round.number,
                    s,
                    Some(round.bets[s].into()),
                    Some(round.won[s].into()),
                    round.points[s].into(),
                    total.into(),
                );
            }
        }
        Ok(())
    }

    /// The rows of a Seven record: one per seat in the round per finished round (`bet` and
    /// `tricks` null).
    pub fn add_seven(&mut self, id: u64, v: &Value) -> Result<(), Why> {
        #[derive(Deserialize)]
        struct Round {
            number: u32,
            seats_in: Vec<usize>,
            points: Option<Vec<i64>>,
            totals: Option<Vec<i64>>,
        }
        #[derive(Deserialize)]
        struct Seven {
            players: usize,
            #[serde(default)]
            seats: Vec<String>,
            seed: String,
            #[serde(default)]
            ruleset: Value,
            rounds: Vec<Round>,
            #[serde(default)]
            winners: Vec<usize>,
            finished: bool,
        }
        let r = Seven::deserialize(v).map_err(|e| format!("not a Seven record: {e}"))?;
        if self.table == Table::Rounds {
            // The rounds table is the Oh 7 family's (bets, tricks, trumps).
            return Ok(());
        }
        let g = GameFields {
            game: GameId::Seven.name(),
            id: id as i64,
            seed: r.seed.as_str().into(),
            preset: GameId::Seven.name().into(),
            players: r.players as i32,
            dummy: false,
            winners: r.winners,
            finished: r.finished,
            knobs: knobs(&r.ruleset)?,
            seats: r.seats.iter().map(|s| s.as_str().into()).collect(),
        };
        for round in &r.rounds {
            let Some(points) = &round.points else { continue };
            for &s in &round.seats_in {
                if s >= r.players {
                    continue;
                }
                let total = round.totals.as_ref().and_then(|t| t.get(s)).copied().unwrap_or(0);
                self.push_seat(&g, round.number, s, None, None, points.get(s).copied().unwrap_or(0), total);
            }
        }
        Ok(())
    }

    /// The rows of a record given as JSON (either game).
    pub fn add_value(&mut self, id: u64, v: &Value) -> Result<(), Why> {
        let game = GameId::of_record(v).map_err(|_| {
            let name = v.get("game").and_then(Value::as_str).unwrap_or("(none)");
            format!("unknown game `{name}` (expected {})", GameId::names().join(" or "))
        })?;
        match game {
            GameId::Oh7 => {
                let r = Record::deserialize(v).map_err(|e| format!("not an Oh 7 record: {e}"))?;
                self.add_oh7(id, &r)
            }
            GameId::Seven => self.add_seven(id, v),
        }
    }
}

/// The rounds table's row of one scored round (`docs/records.md`, "Parquet rounds").
fn round_row(g: &GameFields, r: &Record, round: &oh7_core::oh7::RoundRecord) -> Vec<Val> {
    use oh7_core::card::Kind as CardKind;
    let np = r.players;
    let count = |n: usize| Val::I32(n as i32);
    let deal = &round.deal;
    let final_bets = deal.bet_attempts.last().map(Vec::as_slice).unwrap_or_default();
    let of_kind = |k: fn(CardKind) -> bool| count(final_bets.iter().filter(|c| k(c.kind())).count());
    let trumps: Option<Vec<usize>> = round
        .trump
        .map(|t| deal.hands.iter().take(np).map(|h| h.iter().filter(|c| c.suit() == Some(t)).count()).collect());
    let mut row = g.head(round.number);
    row.extend([
        count(deal.hands.first().map_or(0, Vec::len)),
        count(round.redeals.len()),
        count(deal.bet_attempts.len()),
        Val::Bool(deal.passes.iter().any(|p| !p.is_empty())),
        round.first_leader.map_or(Val::Null, &count),
        round.trump.map_or(Val::Null, |t| Val::Str(t.letter().to_string().as_str().into())),
        count(round.bets.iter().map(|&b| usize::from(b)).sum()),
        count(round.tricks.len()),
        count(round.bets.iter().take(np).filter(|&&b| b == 0).count()),
        of_kind(|k| matches!(k, CardKind::Regular(_))),
        of_kind(|k| k == CardKind::Star),
        of_kind(|k| k == CardKind::Void),
        of_kind(|k| k == CardKind::Interrobang),
        count((0..np).filter(|&s| round.bets[s] == round.won[s]).count()),
        trumps.as_ref().map_or(Val::Null, |t| count(t.iter().sum())),
        trumps.as_ref().map_or(Val::Null, |t| count(t.iter().copied().max().unwrap_or(0))),
        count(round.decisions.len()),
        count(round.decisions.iter().filter(|d| d.kind == "lot").count()),
        Val::I64(round.points.iter().take(np).map(|&p| i64::from(p)).sum()),
        Val::Bool(r.finished),
    ]);
    row.extend(g.knobs.iter().cloned());
    row
}

/// A Parquet file being written under a temporary name; [`ParquetFile::finish`] renames it.
/// Dropped unfinished, it removes the temporary file.
pub struct ParquetFile {
    path: PathBuf,
    tmp: PathBuf,
    writer: Option<SerializedFileWriter<BufWriter<File>>>,
    table: Table,
    rows: Rows,
    /// Renamed into place.
    done: bool,
}

fn pq_err(path: &Path) -> impl FnOnce(parquet::errors::ParquetError) -> SimError + '_ {
    move |e| SimError::Io { path: path.to_path_buf(), source: std::io::Error::other(e) }
}

impl ParquetFile {
    /// Start writing `table` to `path` (replaced only once the file is complete).
    pub fn create(path: &Path, table: Table) -> Result<ParquetFile, SimError> {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.is_empty() {
            return Err(SimError::Plan(format!("{}: not a file name", path.display())));
        }
        let tmp = path.with_file_name(format!(".{name}.partial-{}", std::process::id()));
        let f = File::create(&tmp).map_err(|source| SimError::Io { path: path.to_path_buf(), source })?;
        let schema = Arc::new(parse_message_type(&table.schema_text()).expect("the schema parses"));
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("oh7 {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![KeyValue::new("oh7.schema".to_string(), table.schema().to_string())]))
            .build();
        let writer = SerializedFileWriter::new(BufWriter::with_capacity(1 << 20, f), schema, Arc::new(props));
        let mut out =
            ParquetFile { path: path.to_path_buf(), tmp, writer: None, table, rows: Rows::new(table), done: false };
        out.writer = Some(writer.map_err(pq_err(path))?);
        Ok(out)
    }

    /// The rows added so far.
    pub fn rows(&mut self) -> &mut Rows {
        &mut self.rows
    }

    /// Write a row group if enough rows are buffered.
    pub fn maybe_flush(&mut self) -> Result<(), SimError> {
        if self.rows.len >= ROW_GROUP_ROWS { self.flush() } else { Ok(()) }
    }

    /// Write the buffered rows as one row group.
    fn flush(&mut self) -> Result<(), SimError> {
        if self.rows.len == 0 {
            return Ok(());
        }
        let path = self.path.clone();
        let w = self.writer.as_mut().ok_or_else(|| SimError::Plan("the Parquet file is already finished".into()))?;
        let mut rg = w.next_row_group().map_err(pq_err(&path))?;
        let mut i = 0;
        while let Some(mut c) = rg.next_column().map_err(pq_err(&path))? {
            let col = &self.rows.cols[i];
            let (_, kind, nullable) = self.table.column(i);
            let defs = nullable.then_some(col.defs.as_slice());
            let written = match kind {
                Kind::I32 => c.typed::<Int32Type>().write_batch(&col.i32s, defs, None),
                Kind::I64 => c.typed::<Int64Type>().write_batch(&col.i64s, defs, None),
                Kind::Bool => c.typed::<BoolType>().write_batch(&col.bools, defs, None),
                Kind::Str => c.typed::<ByteArrayType>().write_batch(&col.strs, defs, None),
            };
            written.map_err(pq_err(&path))?;
            c.close().map_err(pq_err(&path))?;
            i += 1;
        }
        rg.close().map_err(pq_err(&path))?;
        for c in &mut self.rows.cols {
            c.clear();
        }
        self.rows.len = 0;
        Ok(())
    }

    /// Write the last rows and the footer, and put the file in place. Returns the rows written.
    pub fn finish(&mut self) -> Result<u64, SimError> {
        self.flush()?;
        let w = self.writer.take().ok_or_else(|| SimError::Plan("the Parquet file is already finished".into()))?;
        let path = self.path.clone();
        let mut inner = w.into_inner().map_err(pq_err(&path))?;
        std::io::Write::flush(&mut inner).map_err(|source| SimError::Io { path: path.clone(), source })?;
        drop(inner);
        std::fs::rename(&self.tmp, &self.path).map_err(|source| SimError::Io { path: path.clone(), source })?;
        self.done = true;
        Ok(self.rows.total)
    }
}

impl Drop for ParquetFile {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A run's games as Parquet rows of one table; game id = the game's index in the run.
pub struct ParquetSink {
    file: ParquetFile,
}

impl ParquetSink {
    /// Start writing `table` to `path`.
    pub fn create(path: &Path, table: Table) -> Result<ParquetSink, SimError> {
        Ok(ParquetSink { file: ParquetFile::create(path, table)? })
    }
}

impl Sink for ParquetSink {
    fn wants_records(&self) -> bool {
        true
    }
    fn chunk(&mut self, c: &Chunk) -> Result<(), SimError> {
        for (i, rec) in c.records.iter().enumerate() {
            let game = c.first + i as u64;
            let res = match rec {
                Rec::Oh7(r) => self.file.rows().add_oh7(game, r),
                Rec::Seven(v) => self.file.rows().add_seven(game, v),
            };
            res.map_err(|why| SimError::Game { game, why })?;
            self.file.maybe_flush()?;
        }
        Ok(())
    }
    fn finish(&mut self) -> Result<(), SimError> {
        self.file.finish().map(|_| ())
    }
}

/// What [`export_files`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Records read.
    pub records: u64,
    /// Rows written to each output, in the order given.
    pub rows: Vec<u64>,
}

/// Write the Parquet rows of JSON Lines records files to `out`. Each record must replay
/// through the engine (as for `oh7 stats`); a shard's header line is skipped, and its records
/// get their game's index in the run as game id (`from` of the header onwards); records of
/// other files are numbered in order across the files, from 0. An error names the file and
/// line and leaves no output file. Each output is a file and its table; one reading of the
/// records fills them all. `progress` gets records read.
pub fn export_files(
    paths: &[PathBuf],
    outs: &[(&Path, Table)],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Exported, SimError> {
    // Shards: of one run, each once (some may be left out), in the run's order, so the rows are
    // in game order whatever the order given; other files in the order given.
    let headers = paths.iter().map(|p| crate::header_of(p)).collect::<Result<Vec<_>, _>>()?;
    crate::check_shards(paths, &headers, false)?;
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by_key(|&i| headers[i].as_ref().map_or(0, |h| h.shard));
    let paths: Vec<PathBuf> = order.into_iter().map(|i| paths[i].clone()).collect();
    let mut files = outs.iter().map(|&(p, t)| ParquetFile::create(p, t)).collect::<Result<Vec<_>, _>>()?;
    let mut records = 0u64;
    let mut next_id = 0u64;
    for path in &paths {
        let reader = crate::files::open(path)?;
        for (i, line) in reader.split(b'\n').enumerate() {
            let line = line.map_err(|source| SimError::Io { path: path.clone(), source })?;
            let line_err = |why: String| SimError::Line { path: path.clone(), line: i + 1, why };
            if line.trim_ascii().is_empty() {
                continue;
            }
            // A record as oh7 writes it: the fast path of `oh7 stats` (no JSON tree).
            if let Some((_, rec)) = oh7_core::oh7::replay_written(&line) {
                for file in &mut files {
                    file.rows().add_oh7(next_id, &rec).map_err(line_err)?;
                    file.maybe_flush()?;
                }
                next_id += 1;
                records += 1;
                if records.is_multiple_of(1024) {
                    progress(records);
                }
                continue;
            }
            let text = std::str::from_utf8(&line).map_err(|_| line_err("not UTF-8 text".into()))?;
            let v: Value = serde_json::from_str(text).map_err(|e| line_err(format!("not JSON: {e}")))?;
            if i == 0 && v.get("oh7_shard").is_some() {
                let h: crate::RunHeader =
                    serde_json::from_value(v).map_err(|e| line_err(format!("not a shard header: {e}")))?;
                next_id = h.from;
                continue;
            }
            oh7_core::replay_record(&v).map_err(|e| line_err(format!("the record does not replay: {e}")))?;
            for file in &mut files {
                file.rows().add_value(next_id, &v).map_err(line_err)?;
                file.maybe_flush()?;
            }
            next_id += 1;
            records += 1;
            if records.is_multiple_of(1024) {
                progress(records);
            }
        }
    }
    progress(records);
    let rows = files.iter_mut().map(ParquetFile::finish).collect::<Result<Vec<_>, _>>()?;
    Ok(Exported { records, rows })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JsonLines, Plan};
    use oh7_bots::GameSpec;
    use oh7_core::ruleset::{Preset, Ruleset};
    use oh7_core::seven::SevenRules;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::RowAccessor;

    /// Rows and the sum of `score_delta`, read back with the crate's reader.
    fn read_back(path: &Path) -> (i64, i64) {
        let r = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
        let rows = r.metadata().file_metadata().num_rows();
        let at = col(Table::SeatRounds, "score_delta");
        let sum = r.get_row_iter(None).unwrap().map(|row| row.unwrap().get_long(at).unwrap()).sum();
        (rows, sum)
    }

    fn col(t: Table, name: &str) -> usize {
        t.column_names().iter().position(|c| *c == name).unwrap()
    }

    fn simulate(spec: GameSpec, players: usize, games: u64, dir: &Path) -> (PathBuf, PathBuf, crate::Outcome) {
        let plan = Plan::new(spec, players, games, 7, Some("random"), Some(2)).unwrap();
        let (pq, jl, rounds) = (dir.join("run.parquet"), dir.join("run.jsonl"), dir.join("rounds.parquet"));
        let mut sinks: Vec<Box<dyn Sink>> = vec![
            Box::new(JsonLines::create(&jl, None).unwrap()),
            Box::new(ParquetSink::create(&pq, Table::SeatRounds).unwrap()),
            Box::new(ParquetSink::create(&rounds, Table::Rounds).unwrap()),
        ];
        let o = crate::run(&plan, &mut sinks, &|_| {}).unwrap();
        (pq, jl, o)
    }

    #[test]
    fn oh7_rows_match_the_statistics_and_the_export() {
        let dir = tempfile::tempdir().unwrap();
        let spec = GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) };
        let (pq, jl, o) = simulate(spec, 4, 12, dir.path());
        let s = &o.stats.oh7;
        let (rows, sum) = read_back(&pq);
        assert_eq!(rows as u64, s.rounds * 4);
        let points: i64 = s.by_seat.iter().map(|p| p.points.sum).sum();
        assert_eq!(sum, points);
        let (e, er) = (dir.path().join("export.parquet"), dir.path().join("export-rounds.parquet"));
        let x = export_files(&[jl], &[(&e, Table::SeatRounds), (&er, Table::Rounds)], &|_| {}).unwrap();
        assert_eq!(x, Exported { records: 12, rows: vec![rows as u64, s.rounds] });
        assert_eq!(read_back(&e), (rows, sum));
        // The rounds table: one row per scored round, its points the seat rows' points; the
        // export's rows are the run's.
        let rounds = dir.path().join("rounds.parquet");
        let all = |p: &Path| -> Vec<String> {
            let r = SerializedFileReader::new(File::open(p).unwrap()).unwrap();
            r.get_row_iter(None).unwrap().map(|row| row.unwrap().to_string()).collect()
        };
        let (a, b) = (all(&rounds), all(&er));
        assert_eq!(a.len() as u64, s.rounds);
        assert_eq!(a, b, "the export's rounds are the run's");
        let r = SerializedFileReader::new(File::open(&rounds).unwrap()).unwrap();
        let meta = r.metadata().file_metadata().key_value_metadata().unwrap();
        assert!(meta.iter().any(|kv| kv.key == "oh7.schema" && kv.value.as_deref() == Some(ROUNDS_SCHEMA)));
        let t = Table::Rounds;
        let (mut points, mut bets, mut tricks) = (0i64, 0i64, 0i64);
        for row in r.get_row_iter(None).unwrap() {
            let row = row.unwrap();
            points += row.get_long(col(t, "points_total")).unwrap();
            bets += i64::from(row.get_int(col(t, "bet_total")).unwrap());
            tricks += i64::from(row.get_int(col(t, "tricks")).unwrap());
            let kinds: i32 = ["regular", "star", "void", "interrobang"]
                .iter()
                .map(|k| row.get_int(col(t, &format!("bet_cards_{k}"))).unwrap())
                .sum();
            assert_eq!(kinds, 4, "one bet card per player: {row}");
            let hand = row.get_int(col(t, "hand_size")).unwrap();
            let (dealt, max) =
                (row.get_int(col(t, "trumps_dealt")).unwrap(), row.get_int(col(t, "trumps_max")).unwrap());
            assert!(max <= hand && dealt >= max && dealt <= 4 * hand, "{row}");
            assert!(row.get_int(col(t, "made")).unwrap() <= 4);
        }
        assert_eq!(points, sum, "the rounds' points are the seat rows' points");
        let mean_bet: f64 = s.by_seat.iter().map(|p| p.bet.sum as f64).sum::<f64>();
        assert_eq!(bets as f64, mean_bet, "the rounds' bets are the seats' bets");
        assert!(tricks > 0);
        // Only the outputs: no temporary file left.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 5);
    }

    #[test]
    fn seven_rows_have_no_bets() {
        let dir = tempfile::tempdir().unwrap();
        let (pq, _, o) = simulate(GameSpec::Seven { rules: SevenRules::default() }, 3, 3, dir.path());
        let (rows, sum) = read_back(&pq);
        assert_eq!(rows as u64, o.stats.seven.points_hist.0.values().sum::<u64>());
        assert_eq!(sum, o.stats.seven.points_hist.0.iter().map(|(k, c)| k * *c as i64).sum::<i64>());
        let r = SerializedFileReader::new(File::open(&pq).unwrap()).unwrap();
        let bet = col(Table::SeatRounds, "bet");
        let row = r.get_row_iter(None).unwrap().next().unwrap().unwrap();
        assert!(row.get_int(bet).is_err(), "bet is null in Seven rows");
    }

    #[test]
    fn a_bad_line_names_file_and_line_and_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let spec = GameSpec::Oh7 { ruleset: Ruleset::preset(Preset::En) };
        let (_, jl, _) = simulate(spec, 4, 2, dir.path());
        let mut text = std::fs::read_to_string(&jl).unwrap();
        text.push_str("{\"game\": \"oh7\"}\n");
        let bad = dir.path().join("bad.jsonl");
        std::fs::write(&bad, text).unwrap();
        let out = dir.path().join("out.parquet");
        let rounds = dir.path().join("out-rounds.parquet");
        let err = export_files(&[bad], &[(&out, Table::SeatRounds), (&rounds, Table::Rounds)], &|_| {})
            .unwrap_err()
            .to_string();
        assert!(err.contains("bad.jsonl:3:"), "{err}");
        assert!(!out.exists() && !rounds.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4, "no temporary file left");
    }
}
