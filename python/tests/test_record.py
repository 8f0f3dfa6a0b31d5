"""Records in Python (issue 60): a seeded game gives the same record in Rust and in Python; a
record loads, checks, replays into (observation, mask, action, reward) steps that rebuild it,
takes chosen seat names, and `oh7 replay` (the command line, required in CI) and the
`oh7-replay` console script read it."""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import oh7
from conftest import OH7_BIN
from oh7 import records

FIXTURES = sorted((pathlib.Path(__file__).parent / "fixtures").glob("*.json"))


def env_of(fx, tmp_path):
    args = dict(fx["args"])
    if "ruleset" in args:  # TOML text
        rules = tmp_path / "rules.toml"
        rules.write_text(args["ruleset"])
        args["ruleset"] = str(rules)
    return oh7.env(players=fx["players"], **args)


def oh7_replay(path):
    """`oh7 replay PATH` with the command line built by cargo; CI sets OH7_REQUIRE_BIN=1 so that
    a missing binary fails instead of skipping."""
    if not os.path.exists(OH7_BIN):
        if os.environ.get("OH7_REQUIRE_BIN") == "1":
            pytest.fail(f"{OH7_BIN} not built (cargo build -p oh7), and OH7_REQUIRE_BIN=1")
        pytest.skip(f"{OH7_BIN} not built (cargo build -p oh7)")
    return subprocess.run([OH7_BIN, "replay", str(path)], capture_output=True, text=True)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_same_record_as_rust(path, tmp_path):
    fx = json.loads(path.read_text())
    e = env_of(fx, tmp_path)
    e.reset(seed=fx["seed"])
    ids = iter(fx["ids"])
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else next(ids))
    assert next(ids, None) is None, "the game ended before the ids ran out"
    assert e.unwrapped.record() == fx["record"]
    out = tmp_path / "game.json"
    e.unwrapped.record_to(out)
    records.check(records.load(out)[0])
    run = oh7_replay(out)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_record_replays_into_steps_that_rebuild_it(path, tmp_path):
    """The steps' actions, played again from the record's own seed (its hex string), make the
    same record; each step's observation and mask are the env's for that seat; each seat's
    rewards add up to its total."""
    fx = json.loads(path.read_text())
    rec = fx["record"]
    steps = records.replay(rec)
    assert len(steps) == len(fx["ids"])
    e = env_of(fx, tmp_path)
    e.reset(seed=rec["seed"])  # the record's hex seed as it is
    assert records.seed_of(rec) == fx["seed"]
    it = iter(steps)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        s = next(it)
        assert e.unwrapped.seat(agent) == s.seat
        assert np.array_equal(obs["observation"], s.observation)
        assert np.array_equal(obs["action_mask"].astype(bool), s.mask)
        assert s.mask[s.action]
        e.step(s.action)
    assert e.unwrapped.record() == rec
    sign = -1 if rec["game"] == "seven" else 1
    got = [sum(s.reward for s in steps if s.seat == p) for p in range(rec["players"])]
    assert got == [sign * t for t in rec["rounds"][-1]["totals"]]


def test_seat_names_load_write_and_refusals(tmp_path):
    fx = json.loads(FIXTURES[1].read_text())
    rec = fx["record"]
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][: rec["players"]]
    out = tmp_path / "named.json"
    records.write(rec, out, seat_names=names)
    back = records.load(out)
    assert len(back) == 1 and back[0]["seats"] == names
    assert rec["seats"] != names  # the original is left as it was
    assert [s.action for s in records.replay(back[0])] == [s.action for s in records.replay(rec)]
    run = oh7_replay(out)
    assert run.returncode == 0, run.stderr
    for bad, msg in [(names[:-1], "one per seat"), ([names[0]] * len(names), "each seat its own"), (["x" * 25] + names[1:], "1 to 24")]:
        with pytest.raises(ValueError, match=msg):
            records.with_seat_names(rec, bad)
    assert not (tmp_path / "other.json").exists()
    # A records file (one per line) and a line that is not a record.
    lines = tmp_path / "games.jsonl"
    lines.write_text("\n".join(json.dumps(json.loads(p.read_text())["record"]) for p in FIXTURES) + "\n\n")
    assert len(records.load(lines)) == len(FIXTURES)
    lines.write_text(json.dumps(rec) + "\n{\"format\": \"other\"}\n")
    with pytest.raises(ValueError, match="line 2: not an oh7-record/1"):
        records.load(lines)
    # A record that diverges is refused with the first divergence.
    wrong = dict(rec, seed="0000000000000001")
    with pytest.raises(ValueError, match="round 1"):
        records.check(wrong)


def test_a_game_in_progress_replays_as_far_as_it_went():
    e = oh7.env(preset="kod7")
    e.reset(seed=5)
    for _ in range(60):
        obs, _, _, _, _ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    rec = e.unwrapped.record()
    assert rec["finished"] is False
    records.check(rec)
    steps = records.replay(rec)
    assert len(steps) == 60
    again = oh7.env(preset="kod7")
    again.reset(seed=rec["seed"])
    for s in steps:
        again.step(s.action)
    assert again.unwrapped.record() == rec


def test_the_console_script(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(json.loads(FIXTURES[0].read_text())["record"]))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(json.loads(FIXTURES[0].read_text())["record"], seed="0000000000000002")))
    script = shutil.which("oh7-replay", path=os.path.dirname(sys.executable))
    assert script, "pip install puts oh7-replay beside python"
    ok = subprocess.run([script, str(good)], capture_output=True, text=True)
    assert ok.returncode == 0 and "replays exactly" in ok.stdout, ok.stderr
    no = subprocess.run([script, str(good), str(bad)], capture_output=True, text=True)
    assert no.returncode == 1 and "bad.json: does not replay" in no.stderr


def test_fixtures_exist():
    assert len(FIXTURES) >= 4, "cargo test -p oh7 --test python_fixtures writes them (OH7_BLESS=1)"
