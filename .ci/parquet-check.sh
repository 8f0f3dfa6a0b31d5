#!/bin/bash
# Parquet rows read back by independent readers (pyarrow, DuckDB, Polars, pandas, from PyPI in a
# venv under target/): for `simulate --parquet` (Oh 7 and Seven) and `export` of the same
# records, the row count and the sum of score deltas equal what `oh7 stats --json` reports for
# those records. Uses the debug binary the tests built.
set -euo pipefail
cd "$(dirname "$0")/.."
OH7="$PWD/target/debug/oh7"
venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check pyarrow duckdb polars pandas
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$OH7" simulate --preset kod7 --players 5 --games 300 --seed 4 --record "$work/o.jsonl" --parquet "$work/o.parquet" >/dev/null
"$OH7" simulate --game seven --players 3 --games 40 --seed 4 --record "$work/s.jsonl" --parquet "$work/s.parquet" >/dev/null
"$OH7" export "$work/o.jsonl" "$work/s.jsonl" --parquet "$work/e.parquet" >/dev/null
for set in "o.parquet:o.jsonl" "s.parquet:s.jsonl" "e.parquet:o.jsonl s.jsonl"; do
  file=${set%%:*}
  records=${set#*:}
  # shellcheck disable=SC2086
  (cd "$work" && "$OH7" stats $records --json) > "$work/stats.json"
  for reader in pyarrow duckdb polars pandas; do
    "$venv/bin/python" scripts/check_parquet.py "$work/$file" --reader "$reader" > "$work/got.json"
    "$venv/bin/python" - "$work/stats.json" "$work/got.json" "$file" "$reader" <<'PY'
import json, sys
stats, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
rows = total = 0
for s in stats["sections"]:
    for r in s["rows"]:
        if (s["id"], r["label"]) in (("oh7.table", "points per round"), ("seven.table", "points per player per round")):
            c = r["cells"][0]
            rows += c["n"]
            total += round(c["n"] * c["value"])
want = {"rows": rows, "score_delta_sum": total}
have = {"rows": got["rows"], "score_delta_sum": got["score_delta_sum"]}
assert have == want, f"{sys.argv[3]} read by {sys.argv[4]}: {have}, oh7 stats says {want}"
print(f"{sys.argv[3]} read by {sys.argv[4]}: {have['rows']} rows, score deltas {have['score_delta_sum']}: as oh7 stats says")
PY
  done
done

# The rounds table (docs/records.md, "Parquet rounds"): written by `simulate` and by `export`
# alike, one row per scored round, and in DuckDB it agrees with the seat rows of the same run.
"$OH7" simulate --preset bga --players 5 --games 200 --seed 4 --record "$work/b.jsonl" \
  --parquet "$work/b.parquet" --rounds-parquet "$work/br.parquet" >/dev/null
"$OH7" export "$work/b.jsonl" --rounds-parquet "$work/bx.parquet" >/dev/null
cmp "$work/br.parquet" "$work/bx.parquet"
"$venv/bin/python" - "$work" <<'PY'
import sys
import duckdb
w = sys.argv[1]
seat = duckdb.sql(f"""SELECT game_id, round, count(*) AS n, sum(score_delta) AS points, sum(bet) AS bets,
                             sum(tricks) AS won, count(*) FILTER (WHERE bet = tricks) AS made
                      FROM '{w}/b.parquet' GROUP BY ALL""")
rounds = duckdb.sql(f"SELECT * FROM '{w}/br.parquet'")
bad = duckdb.sql("""SELECT count(*) FROM rounds r FULL JOIN seat s USING (game_id, round)
                    WHERE r.round IS NULL OR s.round IS NULL OR r.points_total <> s.points
                       OR r.bet_total <> s.bets OR r.made <> s.made OR r.tricks <> s.won""").fetchall()[0][0]
n = duckdb.sql("SELECT count(*), sum(bet_attempts), count(trump) FROM rounds").fetchall()[0]
assert bad == 0, f"{bad} rounds disagree with their seat rows"
print(f"rounds table: {n[0]} rounds, each as its seat rows say (points, bets, made, tricks); {n[1]} bet attempts, {n[2]} with a trump")
PY
