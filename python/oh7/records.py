"""Game records (``oh7-record/1``, docs/records.md) in Python: load them, check them as
``oh7 replay`` does, replay one into ``(observation, mask, action, reward)`` steps for
imitation learning, and write one with the seat names you choose.

    from oh7 import records

    for rec in records.load("games.jsonl"):     # a record file, or a records file
        for step in records.replay(rec):        # every decision, in the engine's order
            step.seat, step.observation, step.mask, step.action, step.reward

The command ``oh7-replay FILE...`` (installed with the package) checks records from the shell.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _core
from .env import seed_value

__all__ = ["Step", "check", "load", "replay", "seed_of", "with_seat_names", "write"]


@dataclass
class Step:
    """One decision of a recorded game: the seat that made it, what it saw (``oh7.Core``'s
    observation of its view, float32) and could do (its mask, bool), the action id it chose,
    and its reward: what its total changed by from this decision to its next one (or to the
    game's end, ``win_reward`` included), so that a seat's rewards sum to its game."""

    seat: int
    observation: np.ndarray
    mask: np.ndarray
    action: int
    reward: float


def load(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records in a file: one record (a JSON object, as ``oh7 play --record`` and
    ``record_to`` write it) or a records file (one record per line, as ``oh7 simulate
    --records`` writes it; blank lines skipped). A line that is not a record raises
    ``ValueError`` naming the file and line."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    stripped = text.strip()
    if not stripped:
        return []
    try:
        one = json.loads(stripped)
    except json.JSONDecodeError:
        one = None
    if isinstance(one, dict):
        return [_checked_shape(one, path, 1)]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(_checked_shape(json.loads(line), path, n))
        except json.JSONDecodeError as e:
            raise ValueError(f"{os.fspath(path)}, line {n}: not JSON ({e.msg})") from None
    return out


def _checked_shape(v: Any, path: Any, line: int) -> dict[str, Any]:
    if not isinstance(v, dict) or v.get("format") != "oh7-record/1":
        raise ValueError(f"{os.fspath(path)}, line {line}: not an oh7-record/1 record")
    return v


def _text(record: dict[str, Any] | str) -> str:
    return record if isinstance(record, str) else json.dumps(record)


def check(record: dict[str, Any] | str) -> None:
    """Replay ``record`` through the engine, as ``oh7 replay`` does: ``ValueError`` with the
    first divergence or illegal choice, else nothing."""
    _core.record_steps(_text(record))


def seed_of(record: dict[str, Any]) -> int:
    """The record's seed as an int (records write it as 16 hexadecimal digits); every reset
    takes either form."""
    return seed_value(record["seed"])


def replay(record: dict[str, Any] | str, win_reward: float = 0.0) -> list[Step]:
    """Every decision of a recorded game, in the order the engine asks them, with what the
    deciding seat saw: the record is checked first (``ValueError`` if it does not replay).
    A choice of several ids (a pass of three cards) is as many steps. ``win_reward`` as in
    :func:`oh7.env` (0: only points)."""
    core, steps, _ = _core.record_steps(_text(record), win_reward)
    nobs = core.obs_len
    out: list[Step] = []
    last: list[Step | None] = [None] * core.players
    for seat, ids in steps:
        for aid in ids:
            raw = core.observe_and_mask(seat)
            obs = np.frombuffer(raw, np.float32, nobs).copy()
            mask = np.frombuffer(raw, np.uint8, offset=4 * nobs).astype(np.bool_)
            step = Step(seat, obs, mask, int(aid), 0.0)
            out.append(step)
            last[seat] = step
            rewards = core.step(seat, aid)
            if rewards is not None:
                for s, r in enumerate(rewards):
                    if last[s] is not None:
                        last[s].reward += float(r)
    return out


def with_seat_names(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A copy of ``record`` with its seats named ``names`` (one per seat, each 1 to 24
    characters, all different); the copy is checked by a replay."""
    players = record.get("players")
    if not isinstance(names, (list, tuple)) or len(names) != players:
        raise ValueError(f"{len(names) if isinstance(names, (list, tuple)) else names!r} names: give {players}, one per seat")
    for name in names:
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 24:
            raise ValueError(f"seat name {name!r}: 1 to 24 characters")
    if len(set(names)) != len(names):
        raise ValueError(f"seat names {list(names)}: each seat its own")
    out = dict(record)
    out["seats"] = list(names)
    check(out)
    return out


def write(record: dict[str, Any], path: str | os.PathLike[str], seat_names: list[str] | None = None) -> None:
    """Write ``record`` (optionally with ``seat_names``) as one JSON object to ``path``, readable
    by :func:`load`, ``oh7 replay`` and ``oh7 review``. Written to a temporary file and renamed,
    so a crash leaves the old file or the new, never half of one."""
    if seat_names is not None:
        record = with_seat_names(record, seat_names)
    tmp = f"{os.fspath(path)}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(record, f, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    """``oh7-replay FILE...``: check each record by replaying it (exit 1 if any fails)."""
    ap = argparse.ArgumentParser(
        prog="oh7-replay",
        description="Check oh7 game records (a record file or a records file, one per line) by "
        "replaying them through the engine, as `oh7 replay` does.",
    )
    ap.add_argument("files", nargs="+", help="record files (.json) or records files (.jsonl)")
    args = ap.parse_args(argv)
    bad = 0
    for path in args.files:
        try:
            recs = load(path)
        except (OSError, ValueError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            bad += 1
            continue
        for i, rec in enumerate(recs, 1):
            where = path if len(recs) == 1 else f"{path}, record {i}"
            try:
                check(rec)
            except ValueError as e:
                print(f"{where}: does not replay: {e}", file=sys.stderr)
                bad += 1
                continue
            print(f"{where}: replays exactly ({rec.get('game')}, {rec.get('players')} players, seed {rec.get('seed')})")
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
