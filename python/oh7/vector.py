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
from .env import _ruleset_text

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
        options: dict | None = None,
    ):
        if learner is not None and (isinstance(learner, bool) or not isinstance(learner, (int, np.integer)) or learner < 0):
            raise ValueError(f"learner {learner!r}: a seat number from 0, or None")
        if (game is None or game == "oh7") and preset is None and ruleset is None:
            preset = "kod7"  # oh7.env's default
        self.core = _core.VecCore(
            num_envs,
            game=game,
            preset=preset,
            players=players,
            seed=seed,
            ruleset=_ruleset_text(ruleset),
            limit=limit,
            hand_size=hand_size,
            win_reward=win_reward,
            learner=learner,
            bots=bots,
            options=options,
        )
        self.num_envs = num_envs
        self.players = players
        self.num_actions = self.core.num_actions
        self.obs_len = self.core.obs_len
        self.learner = learner
        self._rng = np.random.default_rng(seed)
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
        """Start every game anew: from ``seed``, or without one from the next seed of a generator
        seeded by the last seed given (as :func:`oh7.env` does), so each reset deals new games."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        else:
            seed = int(self._rng.integers(0, 2**63))
        self.core.reset(seed)
        return self._arrays()

    def step(self, actions):
        """One action id per game for its seat to act."""
        a = np.asarray(actions)
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions of dtype {a.dtype}: give integer ids")
        a = np.ascontiguousarray(a, dtype=np.int64)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions of shape {a.shape}: give ({self.num_envs},), one id per game")
        self.core.step(a.tobytes())
        return self._arrays()

    def seeds(self) -> list[int]:
        """The seed of the game each slot is playing."""
        return self.core.seeds()

    def record(self, i: int, finished: bool = False) -> dict[str, Any] | None:
        """The record (``oh7-record/1``) of the game slot ``i`` is playing, or with ``finished``
        of the last game it finished (the one whose end ``dones[i]`` reported; ``None`` before)."""
        import json

        text = self.core.record_json(i, finished)
        return None if text is None else json.loads(text)


class Oh7VectorEnv(VectorEnv):
    """A Gymnasium ``VectorEnv``: N games where you play seat ``seat`` against built-in bots,
    stepped in Rust by one call. Observations ``(N, obs_len)`` float32; actions ``(N,)`` ids;
    rewards ``(N,)`` your seat's; ``infos["action_mask"]`` ``(N, num_actions)`` bool, also
    :meth:`action_masks`. Autoreset in the same step (``metadata["autoreset_mode"]``): where a
    game ended, the observation is the next game's first, and, as Gymnasium's SAME_STEP mode
    has it, ``infos["final_obs"]`` and ``infos["final_info"]`` hold the ended game's (a terminal
    state: zeros, ``{}``) with ``infos["_final_obs"]`` saying where. Games are never truncated.
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
        seats = players if isinstance(players, (int, np.integer)) else None
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < (seats or seat + 1):
            last = f"{seats - 1}" if seats else "players - 1"
            raise ValueError(f"seat {seat!r}: a seat number from 0 to {last}")
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
        infos: dict[str, Any] = {"action_mask": self._masks}
        if not step:
            return obs.copy(), infos
        done = dones.copy()
        if done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i] = np.zeros(self.batch.obs_len, np.float32)
                final_info[i] = {}
            infos.update(final_obs=final_obs, _final_obs=done, final_info=final_info, _final_info=done)
        r = rewards[:, self.seat].astype(np.float32)
        return obs.copy(), r, done, np.zeros(self.num_envs, np.bool_), infos

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal every game anew: from ``seed``, or new games from the last seed's generator.
        Returns the observations of your seat and ``{"action_mask": ...}``."""
        return self._out(self.batch.reset(seed), step=False)

    def step(self, actions):
        """One id per game for your seat; the bots then play to your next turn. Returns
        observations, your rewards, which games ended (already dealt anew: same-step autoreset),
        no truncations, and the infos above. An id outside its mask raises ``ValueError`` and no
        game moves."""
        return self._out(self.batch.step(actions), step=True)

    def action_masks(self) -> np.ndarray:
        """The legal ids of your seat in each game, ``(N, num_actions)`` bool."""
        return self._masks
