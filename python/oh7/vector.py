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
from .env import _ruleset_text, seed_value
from .opponents import Opponent, OpponentSpec, ids_from, resolve

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

    The arrays are this object's own, which Rust writes in place at each call (nothing is
    copied): copy one to keep it past the next call. They are writable, so ``torch.from_numpy``
    and DLPack take them without a copy or a warning; what you write in them is overwritten at
    the next call and never read back (legality is checked against each game's own mask). A
    step whose action is not in its game's mask raises ``ValueError`` and changes no game.
    Game ``k`` of slot ``i`` is seeded from ``seed``, ``i`` and ``k``: one seed, the same
    games. A seed is an int or, as records write it, a string of hexadecimal digits.

    With ``learner`` set, ``bots`` says who plays the other seats: one opponent for all, or a
    list (one per seat, the learner's ``None``) or dict ``{seat: opponent}``; each a level name,
    an :class:`oh7.Bot`, a function ``f(obs, mask) -> id`` or a batched policy
    (``oh7.opponents``). Built-in levels play inside Rust; Python opponents are asked once per
    step for all the games that wait on their seat, and the arrays returned are always at the
    learner's turn (``rewards`` and ``dones`` summed over the opponents' moves in between).
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
        bots: OpponentSpec | list | dict = "heuristic",
        options: dict | None = None,
    ):
        if learner is not None and (isinstance(learner, bool) or not isinstance(learner, (int, np.integer)) or learner < 0):
            raise ValueError(f"learner {learner!r}: a seat number from 0, or None")
        if (game is None or game == "oh7") and preset is None and ruleset is None:
            preset = "kod7"  # oh7.env's default
        seed = seed_value(seed)
        levels, self._py = _seats(bots, learner, players)
        self._levels = levels
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
            options=options,
            seat_levels=levels,
        )
        self.num_envs = num_envs
        self.players = players
        self.num_actions = self.core.num_actions
        self.obs_len = self.core.obs_len
        self.learner = learner
        self._rng = np.random.default_rng(seed)
        self._bind()
        self._advance()

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
        self._views = tuple(arrays[:4]) + (self._dones.view(np.bool_),)

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self._views

    def _advance(self) -> None:
        """Let the Python opponents play every game that waits on them, until each is at the
        learner's turn; rewards and game ends summed over their moves."""
        if not self._py:
            return
        seats = np.fromiter(self._py, np.int64)
        rewards = dones = None
        while True:
            waiting = np.isin(self._to_act, seats)
            if not waiting.any():
                break
            if rewards is None:
                rewards, dones = self._rewards.copy(), self._dones.copy()
            ids = np.full(self.num_envs, -1, np.int64)
            for seat, opp in self._py.items():
                idx = np.flatnonzero(self._to_act == seat)
                if idx.size:
                    ids[idx] = ids_from(opp, self._obs[idx], self._masks[idx].astype(np.bool_), seat)
            self.core.step(ids.tobytes(), True)
            rewards += self._rewards
            dones |= self._dones
        if rewards is not None:
            self._rewards[:] = rewards
            self._dones[:] = dones

    def set_opponents(self, bots: OpponentSpec | list | dict) -> None:
        """Change the Python opponents between steps (self-play: a newer frozen copy). The seats
        played by Python stay those of the constructor, and the built-in levels stay as they
        were: give one Python opponent for all of those seats, or a list (one per seat) or a
        dict ``{seat: opponent}``, where a seat that a built-in level plays may be left out, or
        given ``None`` or its level again."""
        if isinstance(bots, dict):
            given = dict(bots)
        elif isinstance(bots, (list, tuple)):
            given = dict(enumerate(bots))
        else:
            given = {s: bots for s in self._py}
        levels = self._levels or []
        new = {}
        for s, spec in given.items():
            level = levels[s] if isinstance(s, int) and 0 <= s < len(levels) else None
            if s not in self._py:
                if spec is None or (isinstance(spec, str) and spec == level):
                    continue
                if level is not None:
                    raise ValueError(
                        f"seat {s} is played by the built-in level {level!r}, set when the batch was made; "
                        f"set_opponents changes the Python seats {sorted(self._py)}"
                    )
                raise ValueError(f"seat {s} is not a Python opponent's seat: this batch has them at seats {sorted(self._py)}")
            r = resolve(spec) if spec is not None else None
            if r is None or isinstance(r, str):
                raise ValueError(f"seat {s}: give a Python opponent (a built-in level is set when the batch is made)")
            new[s] = r
        missing = sorted(set(self._py) - set(new))
        if missing:
            raise ValueError(f"no new opponent for the Python seats {missing}")
        self._py = new

    def reset(self, seed: int | str | None = None):
        """Start every game anew: from ``seed``, or without one from the next seed of a generator
        seeded by the last seed given (as :func:`oh7.env` does), so each reset deals new games."""
        if seed is not None:
            seed = seed_value(seed)
            self._rng = np.random.default_rng(seed)
        else:
            seed = int(self._rng.integers(0, 2**63))
        self.core.reset(seed)
        self._advance()
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
        self._advance()
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


def _seats(bots: Any, learner: int | None, players: int) -> tuple[list[str | None] | None, dict[int, Opponent]]:
    """Per seat, the level Rust plays it with (``None``: the caller, or Python), and the Python
    opponents by seat. Without a learner: every seat is the caller's."""
    if learner is None:
        return None, {}
    if not isinstance(players, (int, np.integer)) or isinstance(players, bool):
        return None, {}  # the engine words the bad count
    if isinstance(bots, dict):
        extra = sorted(set(bots) - set(range(players)) | ({learner} & set(bots)))
        if extra:
            raise ValueError(f"bots for seats {extra}: give the seats other than the learner's ({learner}), 0 to {players - 1}")
        missing = sorted(set(range(players)) - set(bots) - {learner})
        if missing:
            raise ValueError(f"no opponent for seats {missing}")
        per = [bots.get(s) for s in range(players)]
    elif isinstance(bots, (list, tuple)):
        if len(bots) != players:
            raise ValueError(f"bots has {len(bots)} entries: give {players}, one per seat (the learner's None)")
        per = list(bots)
    else:
        per = [bots] * players
    levels: list[str | None] = []
    py: dict[int, Opponent] = {}
    for s, spec in enumerate(per):
        if s == learner:
            levels.append(None)
            continue
        if spec is None:
            raise ValueError(f"no opponent for seat {s}")
        r = resolve(spec)
        if isinstance(r, str):
            levels.append(r)
        else:
            levels.append(None)
            py[s] = r
    return levels, py


class Oh7VectorEnv(VectorEnv):
    """A Gymnasium ``VectorEnv``: N games where you play seat ``seat`` against ``bots`` (a level, or
    Python opponents: :class:`BatchEnv`),
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
        bots: OpponentSpec | list | dict = "heuristic",
        seed: int | str = 0,
        ruleset: str | None = None,
        limit: int | None = None,
        hand_size: int | None = None,
        win_reward: float = 1.0,
        options: dict | None = None,
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
            options=options,
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

    def set_opponents(self, bots) -> None:
        """Change the Python opponents (:meth:`BatchEnv.set_opponents`)."""
        self.batch.set_opponents(bots)

    def reset(self, *, seed: int | str | None = None, options: dict | None = None):
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
