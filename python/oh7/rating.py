"""Rate an agent against the built-in bots on duplicate deals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from . import _core
from .env import Oh7Env
from .opponents import Opponent, ids_from, resolve

Policy = Callable[[dict[str, np.ndarray], Oh7Env], int]


@dataclass
class MatchResult:
    """Points per round of the agent minus the bot's in the same seat with the same cards."""

    deals: int
    mean: float
    ci95: tuple[float, float]
    per_deal: list[float]

    def __str__(self) -> str:
        lo, hi = self.ci95
        return f"{self.mean:+.2f} points per round against the opponent (95% CI {lo:+.2f} .. {hi:+.2f}, {self.deals} deals)"


def _play_round(env: Oh7Env, seed: int, policies: dict[int, Any]) -> list[float]:
    """Play the first round of the game of `seed` through the environment; each seat's points
    (Seven: minus its penalty points)."""
    env.reset(seed=seed)
    core = env.core
    first, before = core.round_number(), core.totals()
    while core.to_act() is not None and core.round_number() == first:
        agent = env.agent_selection
        p = policies[env.seat(agent)]
        env.step(p.act(env, agent) if hasattr(p, "act") else p(env.observe(agent), env))
    sign = -1.0 if core.game == "seven" else 1.0
    return [sign * (a - b) for a, b in zip(core.totals(), before)]


class _Seat:
    """A Python opponent (or a batched policy) as a duplicate-match player: one game at a time."""

    def __init__(self, opp: Opponent):
        self.opp = opp

    def __call__(self, observation: dict[str, np.ndarray], env: Oh7Env) -> int:
        seat = env.seat(env.agent_selection)
        obs = np.asarray(observation["observation"], np.float32)[None]
        mask = np.asarray(observation["action_mask"]).astype(np.bool_)[None]
        return int(ids_from(self.opp, obs, mask, seat)[0])


def duplicate_match(
    policy: Policy | Opponent,
    opponent: Any = "heuristic",
    deals: int = 100,
    seed: int = 0,
    **env_args: Any,
) -> MatchResult:
    """Play `deals` deals (the first round of the games of seeds `seed`, `seed + 1`, ...) once
    with the bot `opponent` in every seat, then once per seat with `policy` in that seat and the
    bot in the others. A deal's score is the mean over seats of the policy's points minus the
    bot's points in that seat with the same cards; the result is the mean over deals with a 95%
    confidence interval.

    `policy(observation, env)` returns an action id for `env.agent_selection` (the environment
    is stepped through its API, so `env.last()` and the rest are current); any :class:`oh7.Bot`
    works too, and so does a batched policy (:func:`oh7.opponents.frozen`, ``batched``).
    `opponent` is a bot level or an :class:`oh7.Bot` (its level is used, seeded per seat and
    deal), or a Python opponent in any form :mod:`oh7.opponents` takes (a function
    ``f(obs, mask) -> id``, a frozen policy): a policy rated against another policy, or
    against its own earlier copy. `env_args` are :func:`oh7.env`'s (``preset``, ``players``,
    ``game``, ...); win rewards are left out.
    """
    if deals < 2:
        raise ValueError(f"deals={deals}: a match needs at least 2 deals for its interval")
    if isinstance(policy, Opponent):
        policy = _Seat(policy)
    opp = resolve(opponent)
    env = Oh7Env(**{**env_args, "win_reward": 0.0})
    game = env.core.game
    n = env.core.players

    def seat_of(d: int, s: int):
        return _core_bot(opp, game, d * 64 + s) if isinstance(opp, str) else _Seat(opp)

    scores = []
    for d in range(seed, seed + deals):
        bots = {s: seat_of(d, s) for s in range(n)}
        base = _play_round(env, d, bots)
        diffs = []
        for s in range(n):
            bots = {t: seat_of(d, t) for t in range(n)}
            bots[s] = policy
            got = _play_round(env, d, bots)
            diffs.append(got[s] - base[s])
        scores.append(float(np.mean(diffs)))
    arr = np.array(scores)
    mean = float(arr.mean())
    half = 1.96 * float(arr.std(ddof=1)) / math.sqrt(len(arr))
    return MatchResult(len(arr), mean, (mean - half, mean + half), scores)


def _core_bot(level: str, game: str, seed: int):
    from . import Bot

    return Bot(level, game=game, seed=seed)
