"""The PettingZoo AEC environment over oh7's engine (``oh7.env``, ``oh7.raw_env``)."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _core

__all__ = ["env", "raw_env", "Oh7Env"]


def seed_value(seed: int | str) -> int:
    """A seed as given: an int (taken modulo 2**64), or a string of hexadecimal digits as records
    write it (``"00000000000000a5"``, ``"0xa5"``): the same game either way."""
    if isinstance(seed, str):
        text = seed.strip().lower().removeprefix("0x")
        try:
            return int(text, 16) & (2**64 - 1)
        except ValueError:
            raise ValueError(f"seed {seed!r}: an int, or hexadecimal digits as a record's seed") from None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed {seed!r}: an int, or hexadecimal digits as a record's seed")
    return int(seed) & (2**64 - 1)


def _ruleset_text(ruleset: str | os.PathLike[str] | None) -> str | None:
    """A ruleset argument as TOML text: a path to a file, or the TOML itself."""
    if ruleset is None:
        return None
    text = os.fspath(ruleset)
    if "\n" not in text and "=" not in text:
        with open(text, encoding="utf-8") as f:
            return f.read()
    return text


def _make_core(game, preset, players, ruleset, limit, hand_size, win_reward, options=None) -> _core.Core:
    """The engine of an environment, its arguments checked (the AEC and parallel envs')."""
    for name, value, kinds in [("game", game, str), ("preset", preset, (str, type(None))), ("players", players, int)]:
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise TypeError(f"{name} {value!r}: see help(oh7.env) (e.g. game=\"oh7\", preset=\"kod7\", players=4)")
    if game == "oh7" and preset is None and ruleset is None:
        preset = "kod7"
    return _core.Core(
        game=game,
        preset=preset,
        players=players,
        seed=0,
        ruleset=_ruleset_text(ruleset),
        limit=limit,
        hand_size=hand_size,
        win_reward=win_reward,
        options=options,
    )


class Oh7Env(AECEnv):
    """An Oh 7 family game or a game of Seven as a PettingZoo AEC environment.

    Agents are ``player_0`` .. ``player_{n-1}`` (the Dummy of a two-player Oh 7 game is not an
    agent: the engine plays it). Decisions the rules make at the same time (secret bets,
    passing, announcing a trump, calling out in Seven) are asked one seat at a time, lowest seat
    first, and no seat's observation shows what another chose before the rules reveal it.
    A pass of k cards is k decisions of the same agent, one card each.

    Rewards come on the step that caused them, to every agent: the change of the agent's
    total when a round is scored (Oh 7: the points won; Seven: minus the penalty points), and
    ``+win_reward`` to each winner, ``-win_reward`` to the others when the game ends.
    Every agent terminates when the game ends.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "oh7_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        game: str = "oh7",
        preset: str | None = None,
        players: int = 4,
        ruleset: str | os.PathLike[str] | None = None,
        limit: int | None = None,
        hand_size: int | None = None,
        win_reward: float = 1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        options: dict | None = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {self.metadata['render_modes']} or None")
        self.core = _make_core(game, preset, players, ruleset, limit, hand_size, win_reward, options)
        self.game = game
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_obs, n_act = self.core.obs_len, self.core.num_actions
        # One space object per agent, built once: seeding a space must last.
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(n_obs,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n_act,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._steps = 0
        self._n_actions = n_act
        self._obs_bytes = 4 * n_obs
        self._has_reset = False
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # ---- the PettingZoo API ----

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            raise AttributeError("observe() cannot be called before reset()")
        # One call, one copy: the floats then the mask, in one writable buffer.
        buf = np.frombuffer(self.core.observe_and_mask(self._seat[agent]), dtype=np.uint8).copy()
        return {"observation": buf[: self._obs_bytes].view(np.float32), "action_mask": buf[self._obs_bytes :].view(np.int8)}

    def reset(self, seed: int | str | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``reset(seed=s)`` gives the same deal and, with the same actions, the same
        game every time; without a seed the next game's seed comes from the last one given (or
        from the operating system the first time). A seed is an int, or hexadecimal digits as
        a record's ``seed`` (the game of that record)."""
        if seed is not None:
            game_seed = seed_value(seed)
            self._rng = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._rng.integers(0, 2**63))
        self.core.reset(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._steps = 0
        self._rewards_set = False
        self._has_reset = True
        self.agent_selection = self.possible_agents[self.core.to_act()]
        if self.render_mode == "human":
            self.render()

    def _check_id(self, action: Any) -> int:
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an int id (0 to {self._n_actions - 1}), not {type(action).__name__} {action!r}")
        if not 0 <= action < self._n_actions:
            raise ValueError(f"{action} is not an action id of {self.game}: ids are 0 to {self._n_actions - 1}")
        return int(action)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            raise AttributeError("step() cannot be called before reset()")
        if not self.agents:
            raise ValueError("the game is over and every agent has left: call reset() to play another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} owes a decision: give an action id, not None")
        seat = self._seat[agent]
        rewards = self.core.step(seat, self._check_id(action))
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        if rewards is not None:
            for a in self.agents:
                self.rewards[a] = float(rewards[self._seat[a]])
            self._rewards_set = True
        elif self._rewards_set:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._rewards_set = False
        nxt = self.core.to_act()
        if nxt is None:
            for a in self.agents:
                self.terminations[a] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        if nxt is not None:
            self.agent_selection = self.possible_agents[nxt]
        if rewards is not None:  # adding zeros would change nothing
            self._accumulate_rewards()
        if nxt is None or self.truncations[self.agent_selection]:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if not self._has_reset:
            raise AttributeError("render() cannot be called before reset()")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() without a render_mode: give render_mode='ansi' or 'human'")
            return None
        text = self.core.render(self._seat.get(self.agent_selection))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ---- beyond PettingZoo ----

    def seat(self, agent: str) -> int:
        """The seat number of an agent (``player_2`` → 2)."""
        return self._seat[agent]

    def record(self) -> dict[str, Any]:
        """The game's record so far, in the engine's own format (``oh7-record/1``)."""
        return json.loads(self.core.record_json())

    def record_to(self, path: str | os.PathLike[str]) -> None:
        """Write the record as a JSON file that ``oh7 replay`` reads."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.core.record_json())
            f.write("\n")

    def totals(self) -> list[int]:
        """Every seat's running total (Oh 7: points; Seven: penalty points)."""
        return self.core.totals()

    def winners(self) -> list[str]:
        """The agents who won (empty until the game is over)."""
        return [self.possible_agents[s] for s in self.core.winners()]

    def observation_layout(self) -> list[tuple[str, int, int]]:
        """The observation vector's fields: ``(name, offset, length)``."""
        return self.core.observation_layout()

    def action_text(self, action: int) -> str:
        """What an action id means, in the engine's words."""
        return self.core.action_text(self._check_id(action))


def env(
    game: str = "oh7",
    preset: str | None = None,
    players: int = 4,
    ruleset: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    hand_size: int | None = None,
    win_reward: float = 1.0,
    max_steps: int | None = None,
    render_mode: str | None = None,
    options: dict | None = None,
) -> Oh7Env:
    """A game as a PettingZoo AEC environment (see :class:`Oh7Env` and docs/python.md).

    ``game``: ``"oh7"`` or ``"seven"``. ``preset``: ``en``, ``fr``, ``fr-advanced``, ``kod7``
    (the default), ``bga``; or ``ruleset``: a ruleset TOML file's path or text. ``players``: see
    ``oh7.player_range``. Seven: ``limit`` (0: one round) and ``hand_size``. ``options``: any
    knob of the game's ruleset laid over the preset or the ruleset (``{"target": 21}``), as the
    server's and the command line's ``--set`` take them. ``win_reward``: to
    each winner at the end (minus it to the others). ``max_steps``: truncate after so many steps.
    ``render_mode``: ``"ansi"`` or ``"human"``.

    The environment checks what PettingZoo's ``OrderEnforcingWrapper`` and
    ``AssertOutOfBoundsWrapper`` check (no ``step``, ``observe`` or ``render`` before ``reset``;
    action ids in range) itself, because those wrapper classes cost about 7 microseconds a step,
    more than the game. An illegal id raises ``ValueError`` and changes nothing (PettingZoo's
    classic games end the game instead)."""
    return Oh7Env(game, preset, players, ruleset, limit, hand_size, win_reward, max_steps, render_mode, options)


#: The same as :func:`env` (the name PettingZoo's games give their unwrapped environment).
raw_env = env
