"""The ParallelEnv: PettingZoo's own parallel API and seed tests, simultaneous decisions taken in
one step, and refusals that change nothing."""

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

import oh7
from conftest import label

CASES = [
    dict(game="oh7", preset="kod7", players=4),
    dict(game="oh7", preset="bga", players=6),  # passing
    dict(game="oh7", preset="en", players=2),  # the Dummy
    dict(game="oh7", preset="fr-advanced", players=5),
    dict(game="seven", players=4, limit=30),
]


@pytest.mark.parametrize("cfg", CASES, ids=[label(c) for c in CASES])
def test_pettingzoos_parallel_test_and_seeds(cfg):
    parallel_api_test(oh7.parallel_env(**cfg), num_cycles=400)
    # PettingZoo's parallel_seed_test samples ids outside the masks, which this env refuses:
    # the same check with masked samples. One seed, the same game.
    runs = []
    for _ in range(2):
        env = oh7.parallel_env(**cfg)
        obs, _ = env.reset(seed=42)
        rng = np.random.default_rng(1)
        seen = []
        for _ in range(300):
            if not env.agents:
                break
            acts = {
                a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items() if o["action_mask"].any()
            }
            obs, rew, term, trunc, info = env.step(acts)
            seen.append((sorted(acts.items()), sorted(rew.items()), [o["observation"].tobytes() for o in obs.values()]))
        runs.append(seen)
    assert runs[0] == runs[1]


def test_secret_bets_are_one_step_and_a_bad_id_changes_nothing():
    env = oh7.parallel_env(preset="kod7", players=4)
    obs, _ = env.reset(seed=3)
    owing = [a for a in env.agents if obs[a]["action_mask"].any()]
    assert owing == env.agents, "every player bets at once"
    rng = np.random.default_rng(0)
    acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in owing}
    before = env.record()
    bad = dict(acts)
    bad["player_2"] = int(np.flatnonzero(obs["player_2"]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="player_2"):
        env.step(bad)
    missing = {a: acts[a] for a in owing[:-1]}
    with pytest.raises(ValueError, match="owes a decision"):
        env.step(missing)
    assert env.record() == before
    obs, rew, term, trunc, info = env.step(acts)
    assert env.record()["rounds"][0]["bet_attempts"], "the four bets were revealed together"
    # Then the tricks: one agent at a time.
    while not any(term.values()):
        owing = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert owing
        acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in owing}
        obs, rew, term, trunc, info = env.step(acts)
    assert env.agents == [] and env.record()["finished"]
