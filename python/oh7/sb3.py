"""Stable-Baselines3's ``VecEnv`` over :class:`oh7.vector.BatchEnv`: N games stepped in Rust by
one call, with ``action_masks()`` for SB3-contrib's ``MaskablePPO``. The fast path for
training (docs/python.md, "Training with SB3"); needs ``stable-baselines3`` (``pip install
sb3-contrib`` brings it)::

    from sb3_contrib import MaskablePPO
    from oh7.sb3 import Oh7SB3VecEnv

    venv = Oh7SB3VecEnv(16, preset="kod7", players=4, bots="heuristic", win_reward=0.0)
    model = MaskablePPO("MlpPolicy", venv).learn(100_000)

You play seat ``seat`` in every game; ``bots`` are the other seats' opponents, in any form
:mod:`oh7.opponents` takes (a level, a function, a frozen policy, one per seat), and
:meth:`set_opponents` swaps the Python ones between learning calls (self-play). An episode is a
game; where one ended, the observation returned is already the next game's first and
``infos[i]["terminal_observation"]`` is zeros (a terminal state has no decision), with
``infos[i]["episode"]`` its return and length, as SB3's ``Monitor`` gives them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .vector import BatchEnv

__all__ = ["Oh7SB3VecEnv"]


class Oh7SB3VecEnv(VecEnv):
    """N games of one seat against opponents, stepped together in Rust (``BatchEnv``)."""

    def __init__(self, num_envs: int, *, seat: int = 0, bots: Any = "heuristic", seed: int | str = 0, **env_args: Any):
        self.batch = BatchEnv(num_envs, learner=seat, bots=bots, seed=seed, **env_args)
        self.seat = seat
        obs_space = spaces.Box(-np.inf, np.inf, (self.batch.obs_len,), np.float32)
        super().__init__(num_envs, obs_space, spaces.Discrete(self.batch.num_actions))
        self._actions: np.ndarray | None = None
        self._next_seed: int | str | None = seed
        self._returns = np.zeros(num_envs, np.float64)
        self._lengths = np.zeros(num_envs, np.int64)
        self._masks = np.zeros((num_envs, self.batch.num_actions), np.bool_)

    def seed(self, seed: int | None = None) -> list[int | None]:
        """The seed of the next :meth:`reset` (the games of the batch are derived from it)."""
        self._next_seed = seed
        return [seed] * self.num_envs

    def reset(self) -> np.ndarray:
        obs, masks, _, _, _ = self.batch.reset(self._next_seed)
        self._next_seed = None
        self._returns[:] = 0
        self._lengths[:] = 0
        self._masks = masks.astype(np.bool_)
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() before step_async()")
        obs, masks, _, rewards, dones = self.batch.step(self._actions)
        self._actions = None
        self._masks = masks.astype(np.bool_)
        r = rewards[:, self.seat].astype(np.float32)
        done = dones.copy()
        self._returns += r
        self._lengths += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done):
            infos[i]["terminal_observation"] = np.zeros(self.batch.obs_len, np.float32)
            infos[i]["TimeLimit.truncated"] = False
            infos[i]["episode"] = {"r": float(self._returns[i]), "l": int(self._lengths[i])}
            self._returns[i] = 0
            self._lengths[i] = 0
        # A copy: SB3 keeps the last observation while the next step is written.
        return obs.copy(), r, done, infos

    def action_masks(self) -> np.ndarray:
        """The legal ids of your seat in each game, ``(N, num_actions)`` bool."""
        return self._masks

    def set_opponents(self, bots: Any) -> None:
        """Change the Python opponents (:meth:`oh7.vector.BatchEnv.set_opponents`)."""
        self.batch.set_opponents(bots)

    def _idx(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    # SB3-contrib asks for the masks through env_method("action_masks") and checks for them
    # with get_attr("action_masks").
    def env_method(self, method_name: str, *args: Any, indices=None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            return [self._masks[i] for i in self._idx(indices)]
        raise AttributeError(f"Oh7SB3VecEnv has no per-game method {method_name!r}")

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks for _ in self._idx(indices)]
        if attr_name == "render_mode":
            return [None for _ in self._idx(indices)]
        raise AttributeError(f"Oh7SB3VecEnv has no per-game attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError(f"Oh7SB3VecEnv's games have no attribute {attr_name!r} to set")

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False for _ in self._idx(indices)]

    def close(self) -> None:
        pass
