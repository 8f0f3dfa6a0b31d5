"""oh7: the Oh 7 family of trick-taking games and Seven, over oh7's exact Rust engine, for
learning agents: a PettingZoo AEC environment (:func:`env`) and ParallelEnv
(:func:`parallel_env`), batched environments (``oh7.vector``), a Gymnasium environment against
the bots (``oh7.gym``), the built-in bots as opponents (:class:`Bot`) and OpenSpiel games
(``import oh7.spiel`` for Oh 7, ``import oh7.spiel_seven`` for Seven)."""

from typing import Any as _Any

try:
    from . import _core
except ImportError as _e:  # pragma: no cover - only without the built engine
    raise ImportError(
        "oh7's compiled engine (oh7._core) is not in this `oh7` folder. If you are inside the "
        "repository's `python/` folder, run Python from the repository's root instead (here the "
        "source folder shadows the installed package); otherwise install it: pip install ./python"
    ) from _e
from ._core import Core, bot_levels, num_actions, player_range, presets
from .env import Oh7Env, env, raw_env
from .parallel import Oh7ParallelEnv, parallel_env
from .rating import MatchResult, duplicate_match
from . import opponents, records  # noqa: E402  (oh7.opponents, oh7.records after `import oh7`)

__version__ = _core.__version__
OH7_ACTIONS: int = _core.OH7_ACTIONS

__all__ = [
    "Bot",
    "Core",
    "MatchResult",
    "duplicate_match",
    "Oh7Env",
    "Oh7ParallelEnv",
    "OH7_ACTIONS",
    "bot_levels",
    "env",
    "num_actions",
    "observation_layout",
    "opponents",
    "parallel_env",
    "player_range",
    "presets",
    "raw_env",
    "records",
]


def observation_layout(game: str = "oh7") -> list[tuple[str, int, int]]:
    """The observation vector's fields for a game: ``(name, offset, length)``."""
    return Core(game=game, players=4).observation_layout()


class Bot:
    """A built-in bot (``random``, ``heuristic``, ``ismcts``, ``expert`` for Oh 7; ``random``,
    ``heuristic``, ``search`` for Seven), deciding from its seat's view only.

    ``bot.act(env)`` gives the action id for the agent to act (``env.agent_selection``).
    """

    def __init__(self, level: str = "expert", game: str = "oh7", seed: int = 0):
        self._bot = _core.Bot(level=level, game=game, seed=seed)

    @property
    def name(self) -> str:
        return self._bot.name

    @property
    def level(self) -> str:
        return self._bot.level

    def act(self, env: _Any, agent: str | None = None) -> int:
        """The action id for ``agent`` (default: the agent to act) in a PettingZoo env of oh7, an
        OpenSpiel state of oh7, or an ``oh7.Core``."""
        core, seat = _core_and_seat(env, agent)
        return self._bot.act(core, seat)

    __call__ = act


def _core_and_seat(target: _Any, agent: str | None) -> tuple[Core, int | None]:
    if isinstance(target, Core):
        return target, None if agent is None else int(agent)
    raw = getattr(target, "unwrapped", target)
    if isinstance(raw, Oh7Env):
        if not raw._has_reset:
            raise AttributeError("the environment has no game yet: call reset() first")
        return raw.core, None if agent is None else raw.seat(agent)
    core = getattr(target, "core", None)
    if isinstance(core, Core):
        return core, None if agent is None else int(agent)
    if isinstance(core, _core.SpielCore):  # an OpenSpiel state of python_oh7
        if core.current_player() < 0:
            raise ValueError("no player is to act in this state (a chance node, or the end)")
        return core.core(), None if agent is None else int(agent)
    raise TypeError(f"Bot.act needs an oh7 environment, OpenSpiel state or Core, not {type(target).__name__}")
