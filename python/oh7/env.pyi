import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _core

class Oh7Env(AECEnv):
    core: _core.Core
    game: str
    max_steps: int | None
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
        options: dict[str, bool | int | str] | None = None,
    ) -> None: ...
    def observation_space(self, agent: str) -> spaces.Dict: ...
    def action_space(self, agent: str) -> spaces.Discrete: ...
    def observe(self, agent: str) -> dict[str, np.ndarray]: ...
    def reset(self, seed: int | str | None = None, options: dict[str, Any] | None = None) -> None: ...
    def step(self, action: int | None) -> None: ...
    def render(self) -> str | None: ...
    def close(self) -> None: ...
    def seat(self, agent: str) -> int: ...
    def record(self) -> dict[str, Any]: ...
    def record_to(self, path: str | os.PathLike[str]) -> None: ...
    def totals(self) -> list[int]: ...
    def winners(self) -> list[str]: ...
    def observation_layout(self) -> list[tuple[str, int, int]]: ...
    def action_text(self, action: int) -> str: ...

def env(
    game: str = ...,
    preset: str | None = ...,
    players: int = ...,
    ruleset: str | os.PathLike[str] | None = ...,
    limit: int | None = ...,
    hand_size: int | None = ...,
    win_reward: float = ...,
    max_steps: int | None = ...,
    render_mode: str | None = ...,
    options: dict[str, bool | int | str] | None = ...,
) -> Oh7Env: ...

raw_env = env
