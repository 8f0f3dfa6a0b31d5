"""A seeded game gives the same record in Rust and in Python, and `oh7 replay` reads it."""

import json
import os
import pathlib
import subprocess

import pytest

import oh7
from conftest import OH7_BIN

FIXTURES = sorted((pathlib.Path(__file__).parent / "fixtures").glob("*.json"))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_same_record_as_rust(path, tmp_path):
    fx = json.loads(path.read_text())
    args = dict(fx["args"])
    if "ruleset" in args:  # TOML text
        rules = tmp_path / "rules.toml"
        rules.write_text(args["ruleset"])
        args["ruleset"] = str(rules)
    e = oh7.env(players=fx["players"], **args)
    e.reset(seed=fx["seed"])
    ids = iter(fx["ids"])
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else next(ids))
    assert next(ids, None) is None, "the game ended before the ids ran out"
    assert e.unwrapped.record() == fx["record"]
    out = tmp_path / "game.json"
    e.unwrapped.record_to(out)
    if not os.path.exists(OH7_BIN):
        pytest.skip(f"{OH7_BIN} not built (cargo build -p oh7)")
    run = subprocess.run([OH7_BIN, "replay", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_fixtures_exist():
    assert len(FIXTURES) >= 4, "cargo test -p oh7 --test python_fixtures writes them (OH7_BLESS=1)"
