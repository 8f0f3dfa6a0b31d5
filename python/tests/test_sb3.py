"""SB3's VecEnv over the batch (issue 60): SB3's own checks accept it, MaskablePPO learns on it
(masks through env_method), episodes end with SB3's terminal observation and episode info, and
a frozen copy of the model plays as an opponent (self-play). Skipped without stable-baselines3
(CI installs no torch; docs/python.md says how to install it)."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")

from oh7 import opponents  # noqa: E402
from oh7.sb3 import Oh7SB3VecEnv  # noqa: E402


def test_steps_episodes_and_masks():
    v = Oh7SB3VecEnv(4, preset="kod7", players=4, bots="random", seed=3, win_reward=0.0)
    v.seed(5)
    obs = v.reset()
    assert obs.shape == (4, v.batch.obs_len)
    masks = np.stack(v.env_method("action_masks"))
    assert masks.dtype == np.bool_ and masks.any(axis=1).all()
    ended = 0
    for _ in range(400):
        v.step_async(v.action_masks().argmax(1))
        obs2, r, d, infos = v.step_wait()
        assert obs2 is not obs and r.shape == (4,)
        for i in np.flatnonzero(d):
            ended += 1
            assert not infos[i]["terminal_observation"].any()
            assert infos[i]["episode"]["l"] > 10
        obs = obs2
    assert ended > 0
    assert v.env_is_wrapped(object) == [False] * 4
    with pytest.raises(AttributeError):
        v.get_attr("nothing")


def test_maskable_ppo_learns_then_plays_its_frozen_copy():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    v = Oh7SB3VecEnv(8, preset="kod7", players=4, bots="random", seed=0, win_reward=0.0)
    assert is_masking_supported(v)
    model = MaskablePPO("MlpPolicy", v, n_steps=32, batch_size=256, n_epochs=1, seed=0, verbose=0)
    model.learn(512)
    copy = opponents.frozen(model, deterministic=True)
    before = [p.detach().clone() for p in model.policy.parameters()]
    probe = Oh7SB3VecEnv(64, preset="kod7", players=4, bots="random", seed=9)
    obs, masks = probe.reset(), get_action_masks(probe)
    answers = copy.act_batch(obs, masks)
    assert masks[np.arange(len(answers)), answers].all()
    selfplay = Oh7SB3VecEnv(8, preset="kod7", players=4, bots=copy, seed=1, win_reward=0.0)
    model.set_env(selfplay)
    model.learn(512, reset_num_timesteps=False)
    assert any(not np.array_equal(a.numpy(), b.detach().numpy()) for a, b in zip(before, model.policy.parameters()))
    # The copy did not train along: its answers are those of the weights it was made from.
    assert np.array_equal(copy.act_batch(obs, masks), answers)
