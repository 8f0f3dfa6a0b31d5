"""Batched environments: N games stepped in Rust by one call, observations, masks, rewards and
game ends as numpy arrays.

:class:`BatchEnv` is the raw batch: in each game the seat to act is asked, whoever it is (one
policy for every seat: self-play), or only the learner's seat when ``learner`` is set (the
built-in bots play the others inside Rust). :class:`Oh7VectorEnv` is a Gymnasium ``VectorEnv``
over it for the learner's seat. Ids, masks and observations are those of :func:`oh7.env`
(``oh7.Core``'s encoder); docs/python.md, "Batched environments".
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from . import _core

__all__ = ["BatchEnv", "Oh7VectorEnv"]


class BatchEnv:
    """N games of the same rules, stepped together in Rust (on every core).

    ``reset(seed)`` and ``step(actions)`` return ``(obs, masks, to_act, rewards, dones)``:

    - ``obs``: ``(N, obs_len)`` float32, the observation of the seat to act in each game;
    - ``masks``: ``(N, num_actions)`` uint8, its legal ids;
    - ``to_act``: ``(N,)`` int64, that seat;
    - ``rewards``: ``(N, players)`` float32, every seat's reward from that step (the change of its
      total, and ± ``win_reward`` at the game's end), bots' moves included;
    - ``dones``: ``(N,)`` bool, the game ended at that step; it has already started anew (the
      same-step autoreset), so ``obs`` is the new game's first.

    The arrays are read-only views of arrays this object owns, which Rust writes in place at
    each call (nothing is copied): copy one to keep it past the next call. A step whose
    action is not in its game's mask raises ``ValueError`` and changes no game. Game ``k`` of
    slot ``i`` is seeded from ``seed``, ``i`` and ``k``: one seed, the same games.
    """

    def __init__(
        self,
        num_envs: int,
        *,
        game: str | None = None,
        preset: str | None = None,
        players: int = 4,
        seed: int = 0,
        ruleset: str | None = None,
        limit: int | None = None,
        hand_size: int | None = None,
        win_reward: float = 1.0,
        learner: int | None = None,
        bots: str = "heuristic",
    ):
        self.core = _core.VecCore(
            num_envs,
            game=game,
            preset=preset,
            players=players,
            seed=seed,
            ruleset=ruleset,
            limit=limit,
            hand_size=hand_size,
            win_reward=win_reward,
            learner=learner,
            bots=bots,
        )
        self.num_envs = num_envs
        self.players = players
        self.num_actions = self.core.num_actions
        self.obs_len = self.core.obs_len
        self.learner = learner
        self._bind()

    def _bind(self) -> None:
        """Arrays of this object's own that Rust writes in place (no copy per step)."""
        n = self.num_envs
        self._obs = np.zeros((n, self.obs_len), np.float32)
        self._masks = np.zeros((n, self.num_actions), np.uint8)
        self._to_act = np.zeros(n, np.int64)
        self._rewards = np.zeros((n, self.players), np.float32)
        self._dones = np.zeros(n, np.uint8)
        arrays = (self._obs, self._masks, self._to_act, self._rewards, self._dones)
        self.core.bind(*[(a.ctypes.data, a.size) for a in arrays])
        self._views = tuple(a.view() for a in arrays[:4]) + (self._dones.view(np.bool_),)
        for v in self._views:
            v.flags.writeable = False

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self._views

    def reset(self, seed: int | None = None):
        """Start every game anew (from ``seed``, default the batch's)."""
        self.core.reset(seed)
        return self._arrays()

    def step(self, actions):
        """One action id per game for its seat to act."""
        a = np.ascontiguousarray(actions, dtype=np.int64)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions of shape {a.shape}: give ({self.num_envs},), one id per game")
        self.core.step(a.tobytes())
        return self._arrays()

    def seeds(self) -> list[int]:
        """The seed of the game each slot is playing."""
        return self.core.seeds()

    def record(self, i: int) -> dict[str, Any]:
        """Game ``i``'s record as it stands (``oh7-record/1``)."""
        import json

        return json.loads(self.core.record_json(i))


class Oh7VectorEnv(VectorEnv):
    """A Gymnasium ``VectorEnv``: N games where you play seat ``seat`` against built-in bots,
    stepped in Rust by one call. Observations ``(N, obs_len)`` float32; actions ``(N,)`` ids;
    rewards ``(N,)`` your seat's; ``infos["action_mask"]`` ``(N, num_actions)`` bool, also
    :meth:`action_masks`. Autoreset in the same step (``metadata["autoreset_mode"]``): where a
    game ended, the observation is the next game's first. Games are never truncated.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        *,
        game: str | None = None,
        preset: str | None = None,
        players: int = 4,
        seat: int = 0,
        bots: str = "heuristic",
        seed: int = 0,
        ruleset: str | None = None,
        limit: int | None = None,
        hand_size: int | None = None,
        win_reward: float = 1.0,
    ):
        self.batch = BatchEnv(
            num_envs,
            game=game,
            preset=preset,
            players=players,
            seed=seed,
            ruleset=ruleset,
            limit=limit,
            hand_size=hand_size,
            win_reward=win_reward,
            learner=seat,
            bots=bots,
        )
        self.num_envs = num_envs
        self.seat = seat
        self.single_observation_space = spaces.Box(-np.inf, np.inf, (self.batch.obs_len,), np.float32)
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = spaces.Box(-np.inf, np.inf, (num_envs, self.batch.obs_len), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.batch.num_actions))
        self._masks = np.zeros((num_envs, self.batch.num_actions), np.bool_)

    def _out(self, arrays, step: bool):
        obs, masks, _, rewards, dones = arrays
        self._masks = masks.astype(np.bool_)
        infos = {"action_mask": self._masks}
        if not step:
            return obs.copy(), infos
        r = rewards[:, self.seat].astype(np.float32)
        return obs.copy(), r, dones.copy(), np.zeros(self.num_envs, np.bool_), infos

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        return self._out(self.batch.reset(seed), step=False)

    def step(self, actions):
        return self._out(self.batch.step(actions), step=True)

    def action_masks(self) -> np.ndarray:
        """The legal ids of your seat in each game, ``(N, num_actions)`` bool."""
        return self._masks
