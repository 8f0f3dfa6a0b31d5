"""Seven as an OpenSpiel game: ``import oh7.spiel_seven`` registers ``python_seven``.

A whole game of Seven (``pyspiel.load_game("python_seven", {"players": 4})``): sequential,
imperfect information, general sum, terminal returns (minus each seat's penalty points, times
``scale``), and **sampled** chance (OpenSpiel's ``SAMPLED_STOCHASTIC``): the shuffles (the deal,
the draw pile, a discard pile turned into a new draw pile) are drawn inside the engine from the
game's seed, which ``new_initial_state()`` takes from the game's generator (parameter
``rng_seed``), so no chance node appears and a state's copies play on identically. Actions are
the ids of ``oh7.env(game="seven")``; the observation tensor is its observation;
``information_state_string(p)`` is the seat's view. States clone (each copy plays on the same);
they do not pickle or ``serialize()``: OpenSpiel serializes a sampled-stochastic game with its
C++ generator's state, which a Python game cannot give. ``resample_from_infostate`` is not built
for Seven (its draw pile is the engine's own), so OpenSpiel's ISMCTS does not run on it.

Parameters: ``players`` (default 4), ``limit`` (the penalty total that ends the game, default
the engine's; 0: one round), ``hand_size`` (default the engine's), ``scale`` (default 1.0),
``rng_seed`` (default 0).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import _core
from .spiel import Oh7Observer

_DEFAULTS = {"players": 4, "limit": -1, "hand_size": -1, "scale": 1.0, "rng_seed": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_seven",
    long_name="Seven (oh7 engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class SevenSpielGame(pyspiel.Game):
    """A whole game of Seven."""

    def __init__(self, params=None):
        p = {**_DEFAULTS, **(params or {})}
        # As for python_oh7: build the C++ base object in any case, then raise.
        error, self.n_players, self.obs_len, self.scale = None, 2, 0, 1.0
        try:
            self.n_players = int(p["players"])
            self.scale = float(p["scale"])
            self.limit = None if int(p["limit"]) < 0 else int(p["limit"])
            self.hand_size = None if int(p["hand_size"]) < 0 else int(p["hand_size"])
            self._rng = np.random.default_rng(int(p["rng_seed"]))
            probe = self._core(0)
            self.obs_len = probe.obs_len
        except (ValueError, TypeError) as e:
            error = e
        info = pyspiel.GameInfo(
            num_distinct_actions=_core.num_actions("seven"),
            max_chance_outcomes=0,
            num_players=self.n_players,
            min_utility=-10_000.0 * self.scale,
            max_utility=0.0,
            max_game_length=100_000,
        )
        super().__init__(_GAME_TYPE, info, p)
        if error is not None:
            raise error

    def _core(self, seed):
        return _core.Core(
            game="seven", players=self.n_players, seed=seed, limit=self.limit, hand_size=self.hand_size, win_reward=0.0
        )

    def new_initial_state(self):
        return SevenSpielState(self, self._core(int(self._rng.integers(0, 2**63))))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SevenObserver(self, params)


class SevenSpielState(pyspiel.State):
    """A state of the game; ``state.core`` is its engine (an ``oh7.Core``)."""

    def __init__(self, game, core):
        super().__init__(game)
        self.core = core
        self._returns = np.zeros(game.n_players)
        self._scale = game.scale

    def current_player(self):
        seat = self.core.to_act()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player):
        return self.core.legal_ids(player) if self.core.to_act() == player else []

    def _apply_action(self, action):
        r = self.core.step(self.core.to_act(), int(action))
        if r is not None:
            self._returns += np.array(r)

    def _action_to_string(self, player, action):
        return self.core.action_text(int(action))

    def is_terminal(self):
        return self.core.is_over()

    def returns(self):
        # Rewards are minus the penalty points of each scored round.
        return list(self._returns * self._scale) if self.core.is_over() else [0.0] * len(self._returns)

    def resample_from_infostate(self, player_id, probability_sampler):
        raise NotImplementedError("resampling is not built for Seven (the draw pile is the engine's own)")

    def __str__(self):
        return self.core.render()


class SevenObserver(Oh7Observer):
    """Observation tensor: ``oh7.env(game="seven")``'s observation; strings: the seat's view."""

    def __init__(self, game, params):
        super().__init__(game, None, params)

    def string_from(self, state, player):
        return state.core.view_json(player)


pyspiel.register_game(_GAME_TYPE, SevenSpielGame)
