"""A single-agent Gymnasium environment: you play one seat of an Oh 7 (or Seven) game against
the built-in bots, which play the other seats inside Rust. The usual entry of single-agent
libraries: SB3-contrib's ``MaskablePPO`` (through :meth:`Oh7GymEnv.action_masks`), CleanRL.

    import gymnasium as gym
    import oh7.gym  # registers "oh7/Oh7-v0"

    env = gym.make("oh7/Oh7-v0", preset="kod7", players=4, bots="heuristic")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

An episode is a whole game; the reward of a step is the change of your total it brought
(bots' moves after yours included) and ± ``win_reward`` at the end. The step that ends the game
returns ``terminated=True``, an observation of zeros (a terminal state has no decision) and an
empty mask; ``record()`` then gives the finished game until ``reset()``. docs/python.md,
"Gymnasium".
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from .env import seed_value
from .vector import BatchEnv

__all__ = ["Oh7GymEnv"]


class Oh7GymEnv(gymnasium.Env):
    """One seat (``seat``) of a game against ``bots``: a level of :func:`oh7.bot_levels`, or
    Python opponents (a function, a frozen policy, one per seat: ``oh7.opponents``).

    Observation: ``oh7.Core``'s float32 vector of your seat's view. Action: an id
    (``Discrete(num_actions)``); ``info["action_mask"]`` and :meth:`action_masks` say which are
    legal. An illegal id raises ``ValueError`` and changes nothing.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: str | None = None,
        preset: str | None = None,
        players: int = 4,
        seat: int = 0,
        bots="heuristic",
        ruleset: str | None = None,
        limit: int | None = None,
        hand_size: int | None = None,
        win_reward: float = 1.0,
        options: dict | None = None,
    ):
        self._batch = BatchEnv(
            1,
            game=game,
            preset=preset,
            players=players,
            ruleset=ruleset,
            limit=limit,
            hand_size=hand_size,
            win_reward=win_reward,
            learner=seat,
            bots=bots,
            options=options,
        )
        self.seat = seat
        self.observation_space = spaces.Box(-np.inf, np.inf, (self._batch.obs_len,), np.float32)
        self.action_space = spaces.Discrete(self._batch.num_actions)
        self._mask = np.zeros(self._batch.num_actions, np.bool_)
        self._done = True
        self._ended = False

    def _view(self, arrays):
        obs, masks, _, rewards, dones = arrays
        self._mask = masks[0].astype(np.bool_)
        return obs[0].copy(), float(rewards[0, self.seat]), bool(dones[0])

    def reset(self, *, seed: int | str | None = None, options: dict | None = None):
        super().reset(seed=None if seed is None else seed_value(seed))
        # A new game from the env's generator (seeded by `seed` once, as Gymnasium asks).
        game_seed = int(self.np_random.integers(0, 2**63))
        obs, _, _ = self._view(self._batch.reset(game_seed))
        self._done = False
        self._ended = False
        return obs, {"action_mask": self._mask.copy()}

    def step(self, action):
        if self._done:
            raise RuntimeError("the game is over: call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            if not (isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer)):
                raise TypeError(f"an action is an int id, not {type(action).__name__} {action!r}")
        a = int(action)
        if not 0 <= a < len(self._mask):
            raise ValueError(f"{a} is not an action id: ids are 0 to {len(self._mask) - 1}")
        if not self._mask[a]:
            raise ValueError(f"action {a} is not legal now (legal: {np.flatnonzero(self._mask).tolist()})")
        obs, reward, done = self._view(self._batch.step(np.array([a], np.int64)))
        if done:
            # The batch has already dealt the next game (its same-step autoreset); here the
            # episode ends, nothing is legal until reset(), and the observation returned is
            # zeros (a terminal state has no next decision).
            self._done = True
            self._ended = True
            self._mask[:] = False
            obs = np.zeros_like(obs)
        return obs, reward, done, False, {"action_mask": self._mask.copy()}

    def action_masks(self) -> np.ndarray:
        """The legal ids now (bool), as SB3-contrib's ``MaskablePPO`` asks."""
        return self._mask.copy()

    def record(self) -> dict:
        """The episode's game as its record (``oh7-record/1``): the one being played, or once
        it ended, the finished one (until ``reset()``)."""
        return self._batch.record(0, finished=self._done and self._ended)


# `gym.make("oh7/Oh7-v0")` one game; `gym.make_vec("oh7/Oh7-v0", num_envs=N)` the batch in Rust
# (oh7.vector.Oh7VectorEnv, its vector entry point) with the same arguments.
gymnasium.register(id="oh7/Oh7-v0", entry_point="oh7.gym:Oh7GymEnv", vector_entry_point="oh7.vector:Oh7VectorEnv")
