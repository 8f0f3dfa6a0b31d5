"""Opponents from Python (issue 60): a function, a batched policy or a built-in level in any seat
of BatchEnv, Oh7VectorEnv, the Gym env and duplicate_match; the learner is asked only at its
turns; the opponents see exactly what the engine would show that seat; bad answers are refused
before any game moves; arrays are writable without changing the games."""

import gymnasium
import numpy as np
import pytest

import oh7
from oh7 import opponents
from oh7.gym import Oh7GymEnv
from oh7.vector import BatchEnv, Oh7VectorEnv


def first_legal(obs, mask):
    return int(np.flatnonzero(mask)[0])


def last_legal_batch(obs, masks):
    return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)


def test_a_python_opponent_plays_its_seat_exactly_as_the_core_would():
    """Seat 1 is a Python function, seat 3 a batched policy, seat 2 a built-in level: the batch's
    games are those of Core stepped with the same choices (the opponents' observations and masks
    are Core's for their seat), and the learner is asked only at seat 0."""
    seen = {1: 0, 3: 0}

    def f(obs, mask):
        seen[1] += 1
        return first_legal(obs, mask)

    @opponents.batched
    def g(obs, masks):
        seen[3] += len(obs)
        return last_legal_batch(obs, masks)

    n = 5
    b = BatchEnv(n, preset="kod7", players=4, learner=0, bots=[None, f, "random", g], seed=7)
    obs, masks, to_act, rewards, dones = b.reset(seed=11)
    assert (to_act == 0).all()
    rng = np.random.default_rng(0)
    ended = 0
    total = np.zeros((n, 4))
    for _ in range(300):
        ids = np.argmax(rng.random(masks.shape) * masks, axis=1)
        obs, masks, to_act, rewards, dones = b.step(ids)
        assert (to_act == 0).all(), to_act
        total += rewards
        ended += int(dones.sum())
    assert ended > 0 and seen[1] > 100 and seen[3] > 100
    # A finished game's record replays with seat 1 always choosing its first legal id.
    rec = next(b.record(i, finished=True) for i in range(n) if b.record(i, finished=True))
    from oh7 import records

    for step in records.replay(rec):
        if step.seat == 1:
            assert step.action == first_legal(step.observation, step.mask)
        if step.seat == 3:
            assert step.action == int(last_legal_batch(step.observation[None], step.mask[None])[0])


def test_opponents_by_dict_one_for_all_and_swapped():
    calls = []
    a = opponents.batched(lambda o, m: (calls.append("a"), m.argmax(1))[1])
    b = BatchEnv(3, preset="en", players=3, learner=2, bots={0: a, 1: "heuristic"}, seed=1)
    _, masks, to_act, _, _ = b.reset()
    assert (to_act == 2).all()
    b.step(masks.argmax(1))
    assert calls
    calls.clear()
    other = []
    b.set_opponents({0: opponents.batched(lambda o, m: (other.append("b"), m.argmax(1))[1])})
    for _ in range(20):
        _, masks, _, _, _ = b.step(b._masks.argmax(1))
    assert other and not calls
    with pytest.raises(ValueError, match="seat 1 is played by the built-in level 'heuristic'"):
        b.set_opponents({1: a})
    with pytest.raises(ValueError, match="no new opponent for the Python seats"):
        b.set_opponents({1: "heuristic"})
    # A list naming every seat: the built-in level's seat given its level again (or None).
    b.set_opponents([a, "heuristic", None])
    b.set_opponents([a, None, None])
    b.step(b._masks.argmax(1))
    # One Python opponent for every other seat.
    c = BatchEnv(2, preset="kod7", players=4, learner=1, bots=first_legal, seed=2)
    assert sorted(c._py) == [0, 2, 3]


def test_bad_opponents_are_refused_before_anything_moves():
    with pytest.raises(TypeError, match="opponent"):
        BatchEnv(2, players=4, learner=0, bots=[None, 3, "random", "random"])
    with pytest.raises(ValueError, match="4, one per seat"):
        BatchEnv(2, players=4, learner=0, bots=[None, "random"])
    with pytest.raises(ValueError, match="no opponent for seats"):
        BatchEnv(2, players=4, learner=0, bots={1: "random"})
    with pytest.raises(ValueError, match="learner"):
        BatchEnv(2, players=4, learner=0, bots={0: "random", 1: "random", 2: "random", 3: "random"})
    illegal = opponents.batched(lambda o, m: np.argmin(m, axis=1))
    with pytest.raises(ValueError, match="seat 0 .* not legal"):
        BatchEnv(2, preset="kod7", players=4, learner=3, bots=[illegal, illegal, illegal, None], seed=0)
    floats = lambda o, m: float(np.flatnonzero(m)[0]) + 0.7  # noqa: E731
    with pytest.raises(ValueError, match="give an int id"):
        BatchEnv(2, preset="kod7", players=4, learner=3, bots=[floats, floats, floats, None], seed=0)
    shape = opponents.batched(lambda o, m: np.zeros((len(o), 2), np.int64))
    with pytest.raises(ValueError, match="shape"):
        BatchEnv(2, preset="kod7", players=4, learner=3, bots=[shape, shape, shape, None], seed=0)


def test_writable_arrays_do_not_change_the_games():
    b = BatchEnv(4, preset="kod7", players=4, learner=0, bots="random", seed=5)
    twin = BatchEnv(4, preset="kod7", players=4, learner=0, bots="random", seed=5)
    obs, masks, _, _, _ = b.reset(seed=9)
    obs2, masks2, _, _, _ = twin.reset(seed=9)
    for arr in (obs, masks):
        assert arr.flags.writeable
    rng = np.random.default_rng(1)
    for _ in range(60):
        ids = np.argmax(rng.random(masks.shape) * masks, axis=1)
        masks[:] = 1  # scribbled over: an illegal id must still be refused
        obs[:] = -7.0
        if ids.size:
            bad = np.flatnonzero(masks2[0] == 0)
            if bad.size:
                with pytest.raises(ValueError, match="not legal"):
                    b.step(np.r_[bad[0], ids[1:]])
        obs, masks, _, _, _ = b.step(ids)
        obs2, masks2, _, _, _ = twin.step(ids)
        assert np.array_equal(obs, obs2) and np.array_equal(masks, masks2)
    # DLPack takes the batch without a copy.
    shared = np.from_dlpack(obs)
    assert shared.ctypes.data == obs.ctypes.data


def test_torch_takes_the_batch_without_a_copy_or_a_warning():
    torch = pytest.importorskip("torch")
    import warnings

    b = BatchEnv(4, preset="kod7", players=4, learner=0, bots="random", seed=5)
    obs, masks, _, _, _ = b.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = torch.from_numpy(obs)
        m = torch.from_dlpack(masks)
    assert t.data_ptr() == obs.ctypes.data and m.data_ptr() == masks.ctypes.data  # no copy


def test_gym_envs_take_python_opponents_and_make_vec_uses_the_batch():
    env = Oh7GymEnv(preset="kod7", players=4, bots=[None, first_legal, "random", "heuristic"])
    obs, info = env.reset(seed=3)
    done = False
    steps = 0
    while not done:
        obs, r, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
    assert steps > 10
    v = gymnasium.make_vec("oh7/Oh7-v0", num_envs=3, preset="kod7", bots=first_legal)
    assert isinstance(v, Oh7VectorEnv)
    obs, info = v.reset(seed=0)
    assert obs.shape == (3, v.batch.obs_len)
    obs, r, term, trunc, info = v.step(info["action_mask"].argmax(1))
    assert r.shape == (3,)


def test_duplicate_match_against_a_python_opponent_and_a_batched_policy():
    m = oh7.duplicate_match(oh7.Bot("heuristic"), first_legal, deals=6, preset="kod7")
    assert m.deals == 6 and m.mean > 0  # the heuristic beats always-the-first-card
    same = oh7.duplicate_match(opponents.batched(last_legal_batch), opponents.batched(last_legal_batch), deals=4, preset="kod7")
    assert same.mean == 0 and all(x == 0 for x in same.per_deal)  # the same player in both seats
    assert "against the opponent" in str(m)


def test_a_seed_may_be_a_records_hex_string():
    b = BatchEnv(2, preset="kod7", players=4, seed="00000000000000ff")
    c = BatchEnv(2, preset="kod7", players=4, seed=255)
    assert b.seeds() == c.seeds()
    e = oh7.env(preset="kod7")
    e.reset(seed="0x1f")
    f = oh7.env(preset="kod7")
    f.reset(seed=31)
    assert e.unwrapped.record() == f.unwrapped.record()
    with pytest.raises(ValueError, match="hexadecimal"):
        e.reset(seed="twelve")
