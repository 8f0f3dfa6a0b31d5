from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .env import Oh7Env

Policy = Callable[[dict[str, np.ndarray], Oh7Env], int]

@dataclass
class MatchResult:
    deals: int
    mean: float
    ci95: tuple[float, float]
    per_deal: list[float]

def duplicate_match(
    policy: Any, opponent: Any = "heuristic", deals: int = 100, seed: int = 0, **env_args: Any
) -> MatchResult: ...
