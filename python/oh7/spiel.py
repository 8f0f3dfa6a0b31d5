"""The Oh 7 family as an OpenSpiel game: ``import oh7.spiel`` registers ``python_oh7``.

One deal of an Oh 7 game (``pyspiel.load_game("python_oh7", {"preset": "kod7", "players":
4})``): imperfect information, explicit chance (the deal is dealt one card per chance node,
each remaining card equally likely; a new deal after failed bets the same way; a lot to break a
tie for the first leader is a chance node among the tied seats), and the players' decisions with
the same action ids as the PettingZoo environment, until the deal is scored. Returns are the deal's points times
``scale``. ``information_state_string(p)`` is the seat's view (the whole public history of the
deal with its own cards and choices); ``resample_from_infostate`` deals the hidden cards anew
consistently with it, so OpenSpiel's ``ISMCTSBot`` runs unchanged.

Parameters: ``preset`` (default ``kod7``), ``ruleset`` (a ruleset file's path or its TOML text,
replaces the preset),
``players`` (default 4), ``scale`` (default 1.0), ``whole_game`` (default false: one deal; true:
every round of the game, each dealt by chance nodes, until the game ends; returns are then the
game's points times ``scale``).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import _core
from .env import _ruleset_text

_DEFAULTS = {"preset": "kod7", "ruleset": "", "players": 4, "scale": 1.0, "whole_game": False}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_oh7",
    long_name="Oh 7 (oh7 engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=9,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class Oh7SpielGame(pyspiel.Game):
    """One deal of an Oh 7 game."""

    def __init__(self, params=None):
        p = {**_DEFAULTS, **(params or {})}
        # A Python exception before pyspiel.Game.__init__ leaves a half-built C++ object that
        # can crash the interpreter when it is collected: check everything, build the base
        # object in any case (with harmless figures when the parameters are bad), then raise.
        error, self.n_players, self.obs_len, self.whole = None, 2, 0, False
        try:
            self.rules_text = self._rules(p)
            self.n_players = int(p["players"])
            self.scale = float(p["scale"])
            self.whole = bool(p["whole_game"])
            probe = _core.SpielCore(self.rules_text, self.n_players, 0, self.scale, self.whole)
            self.obs_len = len(probe.observe(0)) // 4
        except (ValueError, TypeError, OSError) as e:
            error, self.n_players, self.scale = e, 2, 1.0
        # A bound on one deal's points (on a whole game's), not the exact extremes.
        bound = (10_000.0 if self.whole else 100.0) * self.scale
        info = pyspiel.GameInfo(
            num_distinct_actions=_core.OH7_ACTIONS,
            max_chance_outcomes=99,
            num_players=self.n_players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=100_000 if self.whole else 1000,
        )
        super().__init__(_GAME_TYPE, info, p)
        if error is not None:
            raise error

    @staticmethod
    def _rules(p):
        # OpenSpiel hands over every parameter, defaults included: a preset other than the
        # default beside a ruleset is the conflict it can see.
        if p["ruleset"] and p["preset"] != _DEFAULTS["preset"]:
            raise ValueError("give a preset or a ruleset, not both")
        if p["ruleset"]:
            return _ruleset_text(p["ruleset"])  # a file's path or its TOML text
        if p["preset"] in _core.presets():
            return p["preset"]
        raise ValueError(f"unknown preset {p['preset']!r}: choose one of {', '.join(_core.presets())}")

    def new_initial_state(self):
        return Oh7SpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return Oh7Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class Oh7SpielState(pyspiel.State):
    """A state of the deal; ``state.core`` is its engine state (``oh7._core.SpielCore``)."""

    def __init__(self, game, core=None):
        super().__init__(game)
        self.core = core or _core.SpielCore(game.rules_text, game.n_players, 0, game.scale, game.whole)

    def current_player(self):
        p = self.core.current_player()
        if p == -1:
            return pyspiel.PlayerId.CHANCE
        if p == -4:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        return self.core.legal_actions(player)

    def chance_outcomes(self):
        outs = self.core.chance_outcomes()
        p = 1.0 / len(outs)
        return [(c, p) for c in outs]

    def _apply_action(self, action):
        self.core.apply(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return self.core.chance_text(int(action))
        return self.core.action_text(int(action))

    def is_terminal(self):
        return self.core.is_terminal()

    def returns(self):
        return self.core.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one (for ISMCTS)."""
        seed = int(probability_sampler() * 2**53)
        return Oh7SpielState(self.get_game(), self.core.resample(player_id, seed))

    def __str__(self):
        return self.core.render()


class Oh7Observer:
    """Observation tensor: the PettingZoo observation (``oh7.observation_layout()``); strings:
    the seat's view."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(game.obs_len, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = np.frombuffer(state.core.observe(player), dtype=np.float32)

    def string_from(self, state, player):
        return state.core.information_state(player)


pyspiel.register_game(_GAME_TYPE, Oh7SpielGame)
