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


def test_the_policy_sees_the_environment_as_it_is():
    """The policy is asked for env.agent_selection, and env.last() is its observation."""
    seen = []

    def policy(obs, env):
        agent = env.agent_selection
        last = env.last()[0]
        assert (last["observation"] == obs["observation"]).all()
        seen.append(agent)
        return int(np.flatnonzero(obs["action_mask"])[0])

    oh7.duplicate_match(policy, oh7.Bot("heuristic"), deals=2, preset="kod7", players=4)
    assert len(set(seen)) == 4


def test_bad_matches_are_refused():
    import pytest

    with pytest.raises(ValueError, match="at least 2 deals"):
        oh7.duplicate_match(lambda o, e: 0, deals=1)
    with pytest.raises(TypeError, match="int id"):
        oh7.duplicate_match(lambda o, e: 3.0, deals=2, preset="kod7", players=4)
