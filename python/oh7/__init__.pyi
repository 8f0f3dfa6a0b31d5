from typing import Any

from ._core import Core as Core
from ._core import bot_levels as bot_levels
from ._core import num_actions as num_actions
from ._core import player_range as player_range
from ._core import presets as presets
from .env import Oh7Env as Oh7Env
from .env import env as env
from .env import raw_env as raw_env
from .rating import MatchResult as MatchResult
from .rating import duplicate_match as duplicate_match
from . import opponents as opponents
from . import records as records

__version__: str
OH7_ACTIONS: int

def observation_layout(game: str = "oh7") -> list[tuple[str, int, int]]: ...

class Bot:
    def __init__(self, level: str = "expert", game: str = "oh7", seed: int = 0) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def level(self) -> str: ...
    def act(self, env: Any, agent: str | None = None) -> int: ...
    def __call__(self, env: Any, agent: str | None = None) -> int: ...
