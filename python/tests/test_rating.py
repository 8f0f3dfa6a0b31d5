"""Rating against the built-in bots on duplicate deals."""

import numpy as np

import oh7


def test_a_bot_against_itself_scores_exactly_zero():
    r = oh7.duplicate_match(oh7.Bot("heuristic", seed=1), "heuristic", deals=10, preset="kod7", players=4)
    assert r.deals == 10 and r.mean == 0.0 and r.per_deal == [0.0] * 10


def test_random_play_loses_to_the_heuristic():
    rng = np.random.default_rng(0)

    def policy(obs, env):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    r = oh7.duplicate_match(policy, "heuristic", deals=30, preset="kod7", players=4)
    assert r.ci95[1] < 0, str(r)
    r = oh7.duplicate_match(policy, "heuristic", deals=10, game="seven", players=3)
    assert r.mean < 0, str(r)
