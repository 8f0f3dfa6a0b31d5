"""Masks hold exactly the legal actions; every masked id applies, no other does."""

import numpy as np
import pytest

import oh7
from oh7.env import _ruleset_text
from conftest import label, oh7_configs, seven_configs

CONFIGS = oh7_configs() + seven_configs()


def legal_from_engine(core, seat):
    """The ids of the engine's own legal actions (each action text mapped to its ids; a pass
    maps to its cards, any of which may be picked next)."""
    ids = set()
    for text in core.legal_text(seat):
        ids.update(core.ids_for(seat, text))
    return ids


@pytest.mark.parametrize("cfg", CONFIGS, ids=[label(c) for c in CONFIGS])
def test_masks_are_exactly_the_legal_actions(cfg):
    rng = np.random.default_rng(7)
    args = dict(cfg)
    if "ruleset" in args:  # Core takes the TOML text; the env also takes a path
        args["ruleset"] = _ruleset_text(args["ruleset"])
    core = oh7.Core(**args, seed=11)
    for step in range(3000):
        seat = core.to_act()
        if seat is None:
            break
        mask = np.frombuffer(core.mask(seat), dtype=np.int8)
        ids = set(np.flatnonzero(mask).tolist())
        assert ids, f"seat {seat} owes a decision but has no legal id"
        if core.game == "oh7" and core.picks(seat):
            # In the middle of a pass: the cards in hand not picked yet.
            hand = set(core.hands()[seat]) - set(core.picks(seat))
            assert ids == {198 + c for c in hand}
        else:
            assert ids == legal_from_engine(core, seat), core.render(seat)
        # Seats that owe nothing have empty masks.
        for other in range(core.players):
            if other not in core.owing():
                assert not np.frombuffer(core.mask(other), dtype=np.int8).any()
        # A few ids outside the mask are refused and change nothing.
        outside = np.flatnonzero(mask == 0)
        before = core.record_json()
        for bad in rng.choice(outside, size=min(3, len(outside)), replace=False):
            with pytest.raises(ValueError):
                core.step(seat, int(bad))
        assert core.record_json() == before
        # Every masked id applies on a copy.
        for good in list(ids)[:5]:
            core.clone().step(seat, good)
        core.step(seat, int(rng.choice(sorted(ids))))

