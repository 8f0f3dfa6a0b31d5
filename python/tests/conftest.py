import os
import pathlib

import oh7

REPO = pathlib.Path(__file__).resolve().parents[2]
CUSTOM_RULES = REPO / "docs" / "bga-lab" / "en-rules.toml"


def oh7_configs():
    """Every preset at every player count it allows, and a custom ruleset file."""
    out = []
    for preset in oh7.presets():
        lo, hi = oh7.player_range(preset=preset)
        out += [dict(game="oh7", preset=preset, players=n) for n in range(lo, hi + 1)]
    lo, hi = oh7.player_range(ruleset=CUSTOM_RULES.read_text())
    out += [dict(game="oh7", ruleset=str(CUSTOM_RULES), players=n) for n in (lo, hi)]
    return out


def seven_configs():
    lo, hi = oh7.player_range(game="seven")
    # A low limit so that seats are eliminated within the cycles a test runs.
    return [dict(game="seven", players=n, limit=30) for n in range(lo, hi + 1)]


def label(cfg):
    what = cfg.get("preset") or ("custom" if "ruleset" in cfg else cfg["game"])
    return f"{what}-{cfg['players']}"


OH7_BIN = os.environ.get("OH7_BIN", str(REPO / "target" / "debug" / "oh7"))
