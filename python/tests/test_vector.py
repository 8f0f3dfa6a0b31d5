"""The batched environment and the Gymnasium ones: the same games, ids, masks and observations as
`oh7.Core`, rewards that add up to the records' points, autoreset, seeds, refusals that change
nothing, and Gymnasium's own checker."""

import json

import gymnasium
import numpy as np
import pytest

import oh7
from oh7.gym import Oh7GymEnv
from oh7.vector import BatchEnv, Oh7VectorEnv

CASES = [
    dict(preset="kod7", players=4),
    dict(preset="bga", players=5),
    dict(preset="en", players=2),  # the Dummy
    dict(preset="fr-advanced", players=3),
    dict(game="seven", players=3, limit=30),
]


def random_ids(rng, masks):
    """A uniform legal id per game."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.get('preset', c.get('game'))}-{c['players']}")
def test_each_game_is_a_core_game(case):
    """Game i of the batch is the Core game of its seed, stepped with the same ids: the same
    seat asked, observation and mask at every step; rewards sum to the totals."""
    n = 6
    b = BatchEnv(n, seed=3, **case)
    obs, masks, to_act, rewards, dones = b.reset()
    cores = [oh7.Core(seed=s, **case) for s in b.seeds()]
    summed = np.zeros((n, case["players"]))
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        for i, core in enumerate(cores):
            seat = core.to_act()
            assert to_act[i] == seat
            assert np.array_equal(obs[i], np.frombuffer(core.observe(seat), np.float32))
            assert np.array_equal(masks[i], np.frombuffer(core.mask(seat), np.uint8))
        ids = random_ids(rng, masks)
        for i, core in enumerate(cores):
            core.step(core.to_act(), int(ids[i]))
        obs, masks, to_act, rewards, dones = b.step(ids)
        summed += rewards
        for i in np.flatnonzero(dones):
            ended += 1
            core = cores[i]
            assert core.is_over()
            sign = -1 if core.game == "seven" else 1
            # The rewards are the totals, plus one for each winner and minus one for the others.
            wins = np.array([1.0 if s in core.winners() else -1.0 for s in range(case["players"])])
            assert np.allclose(summed[i], sign * np.array(core.totals()) + wins)
            summed[i] = 0
            cores[i] = oh7.Core(seed=b.seeds()[i], **case)
    if case.get("game") != "seven":
        assert ended > 0, "some games ended in 400 steps"


def test_a_seed_gives_the_same_games_and_an_illegal_id_changes_nothing():
    a, b = BatchEnv(4, preset="kod7", seed=9), BatchEnv(4, preset="kod7", seed=9)
    assert a.seeds() == b.seeds() and len(set(a.seeds())) == 4
    assert BatchEnv(4, preset="kod7", seed=10).seeds() != a.seeds()
    rng = np.random.default_rng(1)
    for _ in range(50):
        ids = random_ids(rng, a._masks)
        oa, ob = a.step(ids), b.step(ids)
        for x, y in zip(oa, ob):
            assert np.array_equal(x, y)
    before = [x.copy() for x in a._arrays()]
    records = [a.record(i) for i in range(4)]
    bad = random_ids(rng, a._masks)
    bad[2] = int(np.flatnonzero(a._masks[2] == 0)[0])
    with pytest.raises(ValueError, match="game 2: action"):
        a.step(bad)
    assert [a.record(i) for i in range(4)] == records
    for x, y in zip(before, a._arrays()):
        assert np.array_equal(x, y)
    with pytest.raises(ValueError, match="one id per game"):
        a.step([0, 1])


def test_learner_mode_asks_only_the_learner():
    b = BatchEnv(8, preset="bga", players=5, seed=2, learner=3, bots="heuristic")
    rng = np.random.default_rng(2)
    obs, masks, to_act, rewards, dones = b.reset()
    games = 0
    for _ in range(300):
        assert (to_act == 3).all()
        obs, masks, to_act, rewards, dones = b.step(random_ids(rng, masks))
        games += int(dones.sum())
    assert games > 0
    record = b.record(0)
    assert record["seats"] is not None


def test_gymnasium_vector_env():
    env = Oh7VectorEnv(4, preset="kod7", players=4, seat=1, bots="random", seed=5)
    obs, info = env.reset(seed=5)
    assert obs.shape == (4, env.single_observation_space.shape[0]) and obs.dtype == np.float32
    rng = np.random.default_rng(3)
    total = np.zeros(4)
    for _ in range(200):
        a = random_ids(rng, env.action_masks())
        obs, r, term, trunc, info = env.step(a)
        assert r.shape == (4,) and term.dtype == np.bool_ and not trunc.any()
        assert np.array_equal(info["action_mask"], env.action_masks())
        total += r
    assert total.any()


def test_gym_env_spaces_seeds_and_whole_games():
    # Gymnasium's check_env steps random ids of the action space, which this env refuses unless
    # they are in the mask; its other checks, here.
    env = Oh7GymEnv(preset="kod7", players=4, seat=2, bots="heuristic")
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs) and set(info) == {"action_mask"}
    assert np.array_equal(obs, env.reset(seed=1)[0]), "reset(seed) is repeatable"
    a = int(np.flatnonzero(info["action_mask"])[0])
    step = env.step(a)
    assert env.observation_space.contains(step[0]) and isinstance(step[1], float) and isinstance(step[2], bool)
    env = gymnasium.make("oh7/Oh7-v0", preset="en", players=3, bots="random", win_reward=0.0)
    obs, info = env.reset(seed=4)
    again, _ = gymnasium.make("oh7/Oh7-v0", preset="en", players=3, bots="random", win_reward=0.0).reset(seed=4)
    assert np.array_equal(obs, again), "a seed gives the same game"
    rng = np.random.default_rng(4)
    points = 0.0
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        assert np.array_equal(mask, info["action_mask"])
        obs, r, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        points += r
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    obs, info = env.reset()
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    assert points != 0.0


def test_batch_record_is_a_record():
    b = BatchEnv(2, preset="kod7", seed=1)
    rec = b.record(1)
    assert rec["game"] == "oh7" and rec["players"] == 4
    json.dumps(rec)


def test_resets_rules_and_bad_arguments():
    from conftest import CUSTOM_RULES

    b = BatchEnv(3, seed=5)
    first = b.seeds()
    assert b.record(0)["preset"] == "kod7", "oh7.env's default preset"
    b.reset()
    second = b.seeds()
    b.reset()
    assert len({tuple(first), tuple(second), tuple(b.seeds())}) == 3, "each unseeded reset deals new games"
    b.reset(seed=5)
    assert b.seeds() == first
    # A ruleset file's path, as oh7.env takes it.
    env = oh7.env(ruleset=str(CUSTOM_RULES))
    env.reset(seed=0)
    assert BatchEnv(2, ruleset=str(CUSTOM_RULES)).record(0)["ruleset"] == env.record()["ruleset"]
    with pytest.raises(TypeError, match="integer"):
        b.step(np.array([1.5, 2.5, 3.5]))
    with pytest.raises(ValueError, match="learner"):
        BatchEnv(2, learner=-1)
    with pytest.raises(ValueError, match="seats 0 to 3"):
        BatchEnv(2, players=4, learner=4)
    with pytest.raises(ValueError, match="not an action id"):
        b.step(np.array([999, 0, 0]))


def test_the_finished_game_stays_readable_and_gymnasium_gets_final_obs():
    b = BatchEnv(2, preset="en", players=3, seed=1)
    assert b.record(0, finished=True) is None
    rng = np.random.default_rng(5)
    obs, masks, *_ = b.reset()
    while True:
        obs, masks, to_act, rewards, dones = b.step(random_ids(rng, masks))
        if dones.any():
            i = int(np.flatnonzero(dones)[0])
            done_game = b.record(i, finished=True)
            assert done_game["finished"] and not b.record(i)["finished"]
            break
    v = Oh7VectorEnv(3, preset="en", players=3, seed=2)
    obs, info = v.reset()
    while True:
        obs, r, term, trunc, info = v.step(random_ids(rng, v.action_masks()))
        if term.any():
            assert np.array_equal(info["_final_obs"], term)
            for i in np.flatnonzero(term):
                assert not info["final_obs"][i].any() and info["final_info"][i] == {}
            break
        assert "final_obs" not in info
    g = Oh7GymEnv(preset="en", players=3, bots="random")
    obs, info = g.reset(seed=3)
    done = False
    while not done:
        obs, r, done, _, info = g.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert g.record()["finished"] and not obs.any()
    with pytest.raises(TypeError):
        g.reset(seed=3)
        g.step(1.5)


def test_a_bad_seat_and_an_id_out_of_range_are_named_as_such():
    for seat in (7, -1, "0", True):
        with pytest.raises(ValueError, match=rf"seat {seat!r}: a seat number from 0 to 3"):
            Oh7VectorEnv(2, seat=seat, players=4)
    env = gymnasium.make("oh7/Oh7-v0", preset="kod7", players=4, seat=0)
    env.reset(seed=0)
    before = env.unwrapped.record()
    for a in (318, -1):
        with pytest.raises(ValueError, match=r"is not an action id: ids are 0 to 317"):
            env.step(a)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    with pytest.raises(ValueError, match=rf"action {illegal} is not legal now"):
        env.step(illegal)
    assert env.unwrapped.record() == before
