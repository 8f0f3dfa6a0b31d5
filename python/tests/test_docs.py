"""docs/python.md agrees with the code, and its examples run."""

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

import oh7
from conftest import OH7_BIN, REPO

DOC = (REPO / "docs" / "python.md").read_text()
EXAMPLES = REPO / "python" / "examples"


def test_no_placeholder_is_left():
    assert "PLACEHOLDER" not in DOC


def test_observation_tables_are_the_layout():
    tables = re.findall(r"\| offset \| length \| field \|\n\|---:\|---:\|---\|\n((?:\|.*\|\n)+)", DOC)
    assert len(tables) == 2
    for game, table in zip(("oh7", "seven"), tables):
        rows = [tuple(c.strip() for c in line.strip("|").split("|")) for line in table.strip().splitlines()]
        want = [(str(o), str(n), name) for name, o, n in oh7.observation_layout(game)]
        assert rows == want, game


def test_the_sizes_the_page_gives():
    for game, (n_obs, n_act) in {"oh7": (2786, 318), "seven": (448, 276)}.items():
        e = oh7.env(game=game, players=4)
        assert e.observation_space("player_0")["observation"].shape == (n_obs,)
        assert e.action_space("player_0").n == n_act
        assert f"N = {n_obs:,}" in DOC and f"A = {n_act}" in DOC


def test_twenty_line_example_is_on_the_page_and_runs(tmp_path):
    src = (EXAMPLES / "random_agents.py").read_text().rstrip()
    assert f"```python\n{src}\n```" in DOC
    assert len(src.splitlines()) <= 20
    run = subprocess.run([sys.executable, str(EXAMPLES / "random_agents.py")], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("winners") == 3
    record = json.loads((tmp_path / "last-game.json").read_text())
    assert record["game"] == "oh7" and record["finished"]
    if os.path.exists(OH7_BIN):
        rep = subprocess.run([OH7_BIN, "replay", str(tmp_path / "last-game.json")], capture_output=True, text=True)
        assert rep.returncode == 0, rep.stderr


def test_training_sketch_runs(tmp_path):
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_masked.py"), "--episodes", "10"], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "episode 10" in run.stdout


def test_ismcts_match_script_runs(tmp_path):
    pytest.importorskip("pyspiel")
    out = tmp_path / "m.json"
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "ismcts_vs_expert.py"), "--deals", "1", "--simulations", "10",
         "--expert", "heuristic", "--out", str(out)],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(out.read_text())
    assert got["summary"]["deals"] == 1 and len(got["rows"]) == 2


def test_the_rating_example_prints_what_the_page_shows():
    import numpy as np

    rng = np.random.default_rng(0)
    got = oh7.duplicate_match(
        lambda obs, env: int(rng.choice(np.flatnonzero(obs["action_mask"]))), "heuristic", deals=30, preset="kod7", players=4
    )
    assert str(got) in DOC


def test_the_opponents_example_runs():
    block = re.search(r"```python\n(import numpy as np\nfrom oh7 import opponents\n.*?)```", DOC, re.S)
    assert block, "the example of 'Opponents from Python' is on the page"
    scope: dict = {}
    exec(block.group(1), scope)
    assert (scope["to_act"] == 0).all() and scope["obs"].shape == (64, 2786)


def test_the_records_example_runs(tmp_path, monkeypatch):
    block = re.search(r"```python\n(from oh7 import records\n.*?)```", DOC, re.S)
    assert block, "the example of 'Records in Python' is on the page"
    monkeypatch.chdir(tmp_path)
    lines = [json.dumps(json.loads(p.read_text())["record"]) for p in sorted((REPO / "python" / "tests" / "fixtures").glob("kod7-*.json"))]
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + "\n")
    exec(block.group(1), {})
    assert json.loads((tmp_path / "named.json").read_text())["seats"] == ["Ann", "Bob", "Cy", "Dee"]


def test_the_baseline_script_runs(tmp_path):
    out = tmp_path / "b.json"
    run = subprocess.run(
        [sys.executable, str(REPO / "python" / "bench" / "baselines.py"), "--presets", "kod7", "--deals", "3",
         "--levels", "random,heuristic", "--out", str(out)],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(out.read_text())["tables"]["kod7"]
    assert [r["player"] for r in got] == ["random", "heuristic"]
    assert got[1]["mean"] == 0 and got[1]["ci95"] == [0, 0]  # heuristic against itself
    assert "| `kod7` 4" in run.stdout or "`kod7` 4" in run.stdout
    # The page's tables are the ones the script wrote.
    doc = json.loads((REPO / "docs" / "python-baselines.json").read_text())
    for preset, rows in doc["tables"].items():
        for r in rows:
            assert f"| {r['deals']} | {r['mean']:+.2f} |" in DOC, (preset, r["player"])
