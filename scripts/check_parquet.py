#!/usr/bin/env python3
"""Read an oh7 Parquet rows file (docs/records.md, "Parquet rows") with an independent reader
and print its row count and the sum of `score_delta` as JSON.

    python3 scripts/check_parquet.py FILE.parquet [--reader pyarrow|duckdb|polars|pandas]

The default reader is pyarrow (DuckDB if pyarrow is missing). Compare with `oh7 stats --json`
on the same records: the row count is the rounds counted times the seats that scored them, the
sum the points of every seat.
"""

import argparse
import json
import sys


def with_pyarrow(path):
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    t = pq.read_table(path)
    return t.num_rows, int(pc.sum(t.column("score_delta")).as_py() or 0)


def with_duckdb(path):
    import duckdb

    con = duckdb.connect()
    rows, total = con.execute("SELECT count(*), coalesce(sum(score_delta), 0) FROM read_parquet(?)", [path]).fetchall()[0]
    con.close()
    return int(rows), int(total)


def with_polars(path):
    import polars as pl

    df = pl.read_parquet(path)
    return df.height, int(df["score_delta"].sum())


def with_pandas(path):
    import pandas as pd

    df = pd.read_parquet(path)
    return len(df), int(df["score_delta"].sum())


READERS = {"pyarrow": with_pyarrow, "duckdb": with_duckdb, "polars": with_polars, "pandas": with_pandas}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--reader", choices=sorted(READERS))
    a = ap.parse_args()
    name = a.reader
    if name is None:
        try:
            import pyarrow  # noqa: F401

            name = "pyarrow"
        except ImportError:
            name = "duckdb"
    try:
        rows, total = READERS[name](a.file)
    except Exception as e:  # one line, naming the file
        print(f"error: {a.file}: {e}", file=sys.stderr)
        return 2
    print(json.dumps({"file": a.file, "reader": name, "rows": rows, "score_delta_sum": total}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
