"""Who plays the seats that are not yours: a built-in level, a Python function, or a frozen
policy. The same forms are taken by ``BatchEnv``, ``Oh7VectorEnv``, the Gymnasium env
(``bots=``), the SB3 vector env and :func:`oh7.duplicate_match` (``opponent=``).

- a **level name** (``"heuristic"``, ``"expert"``, any of :func:`oh7.bot_levels`) or an
  :class:`oh7.Bot`: the built-in bot plays inside Rust, seeded per seat and game;
- a **batched policy**: an object with ``act_batch(obs, masks) -> ids``, called once per step
  with the games that wait on that seat: ``obs`` ``(k, obs_len)`` float32, ``masks``
  ``(k, num_actions)`` bool, ids ``(k,)`` ints. :func:`batched` makes one of a function,
  :func:`frozen` of a trained model (a snapshot, so training on does not change it);
- a **function** ``f(obs, mask) -> id`` of one game (``obs`` ``(obs_len,)``, ``mask``
  ``(num_actions,)`` bool): called once per game that waits on it.

docs/python.md, "Opponents from Python".
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Protocol, Union, runtime_checkable

import numpy as np

__all__ = ["Opponent", "OpponentSpec", "batched", "frozen", "resolve"]


@runtime_checkable
class Opponent(Protocol):
    """A policy that answers for a batch of games at once."""

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray: ...


OpponentSpec = Union[str, Opponent, Callable[[np.ndarray, np.ndarray], int], Any]


class _Batched:
    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any], name: str):
        self._fn = fn
        self.name = name

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.asarray(self._fn(obs, masks))

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(obs[None], mask[None])[0])

    def __repr__(self) -> str:
        return f"<oh7 opponent {self.name}>"


class _PerGame(_Batched):
    def _one(self, obs: np.ndarray, mask: np.ndarray) -> int:
        a = self._fn(obs, mask)
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            if not (isinstance(a, np.ndarray) and a.shape == () and np.issubdtype(a.dtype, np.integer)):
                raise ValueError(f"the opponent {self.name!r} returned {a!r} ({type(a).__name__}): give an int id")
        return int(a)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([self._one(o, m) for o, m in zip(obs, masks)], np.int64)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return self._one(obs, mask)


def batched(fn: Callable[[np.ndarray, np.ndarray], Any]) -> Opponent:
    """A batched opponent of ``fn(obs, masks) -> ids`` (``(k, obs_len)``, ``(k, num_actions)``
    bool in, ``(k,)`` ids out): one call per step for every game that waits on its seat, e.g. a
    torch network over the batch. Usable as a decorator."""
    return _Batched(fn, getattr(fn, "__name__", "batched"))


def frozen(model: Any, deterministic: bool = True) -> Opponent:
    """A snapshot of a trained model as an opponent: SB3's ``MaskablePPO`` (or anything with
    ``predict(obs, action_masks=..., deterministic=...)``), its policy copied now, so that the
    model can go on training while this copy plays against it (self-play against earlier
    copies: docs/python.md). The mask is always applied."""
    policy = getattr(model, "policy", None)
    if policy is not None and hasattr(policy, "predict"):
        if hasattr(policy, "_get_constructor_parameters"):
            # SB3: a new policy of the same build with the weights copied (a deepcopy trips
            # over the tensors the optimizer holds).
            snap = type(policy)(**policy._get_constructor_parameters())
            snap.load_state_dict(policy.state_dict())
            snap.to(policy.device)
        else:
            snap = copy.deepcopy(policy)
        if hasattr(snap, "set_training_mode"):
            snap.set_training_mode(False)
    elif hasattr(model, "predict"):
        snap = model
    else:
        raise TypeError(f"frozen() takes a model with predict(), not {type(model).__name__}")

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        ids, _ = snap.predict(obs, action_masks=masks, deterministic=deterministic)
        return np.asarray(ids)

    return _Batched(act, f"frozen {type(model).__name__}")


def resolve(spec: OpponentSpec) -> str | Opponent:
    """A level name (for Rust) or a batched opponent (for Python), from any accepted form."""
    if isinstance(spec, str):
        return spec
    level = getattr(spec, "level", None)
    if isinstance(level, str) and hasattr(spec, "_bot"):  # an oh7.Bot
        return level
    if isinstance(spec, Opponent):
        return spec
    if hasattr(spec, "predict") and hasattr(spec, "policy"):  # an SB3 model given as is
        return frozen(spec)
    if callable(spec):
        return _PerGame(spec, getattr(spec, "__name__", "function"))
    raise TypeError(
        f"an opponent is a bot level (str), oh7.Bot, a function f(obs, mask) -> id, or a batched "
        f"policy with act_batch(obs, masks); not {type(spec).__name__}"
    )


def ids_from(opp: Opponent, obs: np.ndarray, masks: np.ndarray, seat: int) -> np.ndarray:
    """``opp``'s ids for these games, checked: one int per game, each legal in its mask."""
    got = np.asarray(opp.act_batch(obs, masks))
    k = len(obs)
    if got.shape == (k, 1):
        got = got[:, 0]
    if got.shape != (k,) or not np.issubdtype(got.dtype, np.integer):
        raise ValueError(f"the opponent at seat {seat} ({opp!r}) returned {got.dtype} of shape {got.shape}: give ({k},) integer ids")
    n = masks.shape[1]
    bad = (got < 0) | (got >= n)
    if not bad.any():
        bad = ~masks[np.arange(k), got]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"the opponent at seat {seat} ({opp!r}) chose id {int(got[i])}, not legal there "
            f"(legal: {np.flatnonzero(masks[i]).tolist()})"
        )
    return got.astype(np.int64)
