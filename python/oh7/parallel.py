"""A PettingZoo ``ParallelEnv`` over oh7's engine (``oh7.parallel_env``): every agent that owes a
decision acts in the same step, which is how the rules play their simultaneous decisions
(secret bet cards, passing, announcing a trump); in the tricks one agent acts at a time.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from .env import _make_core, seed_value

__all__ = ["Oh7ParallelEnv", "parallel_env"]


class Oh7ParallelEnv(ParallelEnv):
    """An Oh 7 family game or a game of Seven as a PettingZoo ParallelEnv.

    Each step takes one action id from every agent whose ``action_mask`` is not all zeros (the
    agents that owe a decision now: all of them at a secret bet or a pass, one in a trick); the
    actions of the others are ignored and may be left out or ``None``. Every given id is checked
    against its agent's mask before any is applied: one that is not legal raises ``ValueError``
    and the game does not change. A pass of k cards is k steps, one card each, all passers at
    once. Observations, masks, ids and rewards are those of :func:`oh7.env` (the same encoder);
    every agent terminates when the game ends.
    """

    metadata = {"render_modes": [], "name": "oh7_parallel_v0"}

    def __init__(
        self,
        game: str = "oh7",
        preset: str | None = None,
        players: int = 4,
        ruleset: str | os.PathLike[str] | None = None,
        limit: int | None = None,
        hand_size: int | None = None,
        win_reward: float = 1.0,
        options: dict | None = None,
    ):
        self.core = _make_core(game, preset, players, ruleset, limit, hand_size, win_reward, options)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._n_obs, self._n_act = self.core.obs_len, self.core.num_actions
        self._rng = np.random.default_rng()

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self._n_obs,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._n_act,), dtype=np.int8),
            }
        )

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Discrete:
        return spaces.Discrete(self._n_act)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        out = {}
        nb = 4 * self._n_obs
        for i, a in enumerate(self.possible_agents):
            buf = np.frombuffer(self.core.observe_and_mask(i), dtype=np.uint8).copy()
            out[a] = {"observation": buf[:nb].view(np.float32), "action_mask": buf[nb:].view(np.int8)}
        return out

    def reset(self, seed: int | str | None = None, options: dict[str, Any] | None = None):
        """A new game (``seed`` as in :func:`oh7.env`)."""
        if seed is not None:
            game_seed = seed_value(seed)
            self._rng = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._rng.integers(0, 2**63))
        self.core.reset(game_seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, int | None]):
        if not self.agents:
            raise ValueError("the game is over: call reset() to play another")
        owing = [s for s in self.core.owing()]
        given = {}
        for s in owing:
            agent = self.possible_agents[s]
            a = actions.get(agent)
            if a is None:
                raise ValueError(f"{agent} owes a decision: give it an action id")
            if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not 0 <= a < self._n_act:
                raise ValueError(f"{agent}: {a!r} is not an action id (0 to {self._n_act - 1})")
            if not np.frombuffer(self.core.mask(s), np.uint8)[a]:
                raise ValueError(f"{agent}: action {int(a)} ({self.core.action_text(int(a))}) is not legal now")
            given[s] = int(a)
        rewards = np.zeros(len(self.possible_agents))
        for s in sorted(given):
            r = self.core.step(s, given[s])
            if r is not None:
                rewards += np.array(r)
        over = self.core.is_over()
        obs = self._observations()
        agents = self.agents
        rew = {a: float(rewards[i]) for i, a in enumerate(self.possible_agents) if a in agents}
        term = {a: over for a in agents}
        trunc = {a: False for a in agents}
        infos = {a: {} for a in agents}
        obs = {a: obs[a] for a in agents}
        if over:
            self.agents = []
        return obs, rew, term, trunc, infos

    def record(self) -> dict[str, Any]:
        """The game's record so far (``oh7-record/1``)."""
        import json

        return json.loads(self.core.record_json())


def parallel_env(**kwargs: Any) -> Oh7ParallelEnv:
    """An :class:`Oh7ParallelEnv` (the arguments of :func:`oh7.env`, without ``max_steps`` and
    rendering)."""
    return Oh7ParallelEnv(**kwargs)
