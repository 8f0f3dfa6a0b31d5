"""The OpenSpiel game: random playouts, resampling keeps the information state, and
OpenSpiel's own ISMCTS plays a deal against oh7's bot."""

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import oh7  # noqa: E402
import oh7.spiel  # noqa: E402,F401  (registers python_oh7)


def deal(state, rng):
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        assert abs(sum(probs) - 1) < 1e-9
        state.apply_action(int(rng.choice(outcomes)))


@pytest.mark.parametrize("preset,players", [("kod7", 4), ("en", 3), ("fr-advanced", 5), ("bga", 4), ("en", 2)])
def test_random_playouts(preset, players):
    game = pyspiel.load_game("python_oh7", {"preset": preset, "players": players})
    assert game.num_players() == players
    rng = np.random.default_rng(1)
    scored = 0
    for _ in range(5):
        state = game.new_initial_state()
        assert state.is_chance_node()
        deal(state, rng)
        while not state.is_terminal():
            p = state.current_player()
            legal = state.legal_actions()
            assert legal and p >= 0
            state.information_state_string(p)
            assert len(state.observation_tensor(p)) == oh7.observation_layout()[-1][1] + oh7.observation_layout()[-1][2]
            state.apply_action(int(rng.choice(legal)))
            deal(state, rng)  # chance again: a lot, or a new deal after failed bets
        r = state.returns()
        assert len(r) == players
        scored += any(x != 0 for x in r)
    assert scored > 0, "some deal scores points"


def bet_value(card_id):
    if card_id < 80:
        return (card_id % 16) // 2
    if card_id < 96:
        return (card_id - 80) // 2
    return 0


def test_lots_are_chance_nodes():
    """A tie for the first leader broken by lot (kod7, ‽ held by nobody) is a chance node among
    the tied seats."""
    rng = np.random.default_rng(6)
    game = pyspiel.load_game("python_oh7", {"preset": "kod7", "players": 5})
    lots = 0
    for _ in range(300):
        state = game.new_initial_state()
        deal(state, rng)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]).startswith("the lot falls")
                assert 2 <= len(outcomes) <= 5
                lots += 1
                state.apply_action(int(rng.choice([o for o, _ in outcomes])))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    assert lots > 0


def test_a_new_deal_after_failed_bets_is_dealt_by_chance():
    """`en`: after three attempts whose bets sum to 7 the round is dealt again, card by card by
    chance nodes. The last bettor of each attempt makes the sum 7 on purpose."""
    rng = np.random.default_rng(7)
    game = pyspiel.load_game("python_oh7", {"preset": "en", "players": 3})
    redeals = 0
    for _ in range(40):
        state = game.new_initial_state()
        deal(state, rng)
        attempt = []
        while not state.is_terminal() and redeals < 5:
            if state.is_chance_node():
                assert state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0]).startswith("deal")
                redeals += 1
                deal(state, rng)
                attempt = []
                continue
            legal = state.legal_actions()
            if all(99 <= a < 198 for a in legal):  # a bet
                if len(attempt) < 2:  # low bets first, so the last can make 7
                    fits = [a for a in legal if bet_value(a - 99) <= 3]
                else:
                    fits = [a for a in legal if bet_value(a - 99) == 7 - sum(attempt)]
                a = int(rng.choice(fits or legal))
                attempt = attempt + [bet_value(a - 99)] if len(attempt) < 2 else []
            else:
                a = int(rng.choice(legal))
            state.apply_action(a)
    assert redeals > 0


@pytest.mark.parametrize(
    "params", [{"preset": "kod7", "players": 4}, {"preset": "en", "players": 2}, {"preset": "fr-advanced", "players": 5},
               {"preset": "bga", "players": 6}, {"preset": "fr", "players": 3}],
)
def test_openspiel_own_random_simulation_test(params):
    """OpenSpiel's own check of a game (legal actions, chance distributions, clones, returns,
    information states and observations along random playouts)."""
    game = pyspiel.load_game("python_oh7", params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_parameters_are_checked_clearly(tmp_path):
    with pytest.raises(Exception, match="unknown preset 'nope'"):
        pyspiel.load_game("python_oh7", {"preset": "nope"})
    rules = tmp_path / "r.toml"
    rules.write_text('preset = "bga"\nscoring = "basket"\n')
    game = pyspiel.load_game("python_oh7", {"ruleset": str(rules), "players": 4})
    state = game.new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="no player is to act"):
        oh7.Bot("heuristic").act(state)
    with pytest.raises(Exception, match="not both"):
        pyspiel.load_game("python_oh7", {"ruleset": str(rules), "preset": "fr"})


def test_a_resampled_state_pickles_to_itself():
    import pickle

    game = pyspiel.load_game("python_oh7", {"preset": "kod7", "players": 4})
    rng = np.random.default_rng(9)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    deal(state, rng)
    for _ in range(10):
        state.apply_action(int(rng.choice(state.legal_actions())))
        deal(state, rng)
    p = state.current_player()
    other = state.resample_from_infostate(p, sampler)
    back = pickle.loads(pickle.dumps(other))
    for s in range(4):
        assert back.information_state_string(s) == other.information_state_string(s)


@pytest.mark.parametrize("params", [
    {"preset": "kod7", "players": 4},
    {"preset": "en", "players": 2},  # the Dummy: its turned cards stay, the face-down rest is dealt anew
    {"preset": "kod7", "players": 2},
    {"preset": "bga", "players": 5},  # rules with passing (the first deal passes none)
], ids=["kod7-4", "en-2-dummy", "kod7-2-dummy", "bga-5"])
def test_resample_keeps_the_information_state(params):
    game = pyspiel.load_game("python_oh7", params)
    rng = np.random.default_rng(2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = differ = 0
    for _ in range(20):
        state = game.new_initial_state()
        deal(state, rng)
        while not state.is_terminal():
            p = state.current_player()
            key = state.information_state_string(p)
            other = state.resample_from_infostate(p, sampler)
            assert other.current_player() == p
            assert other.information_state_string(p) == key
            assert other.legal_actions() == state.legal_actions()
            checked += 1
            # The hidden hands are dealt anew (not a copy of the truth).
            differ += other.core.core().hands() != state.core.core().hands()
            state.apply_action(int(rng.choice(state.legal_actions())))
            deal(state, rng)  # a new deal after failed bets, or a lot
    assert checked > 20 * 7 * params["players"] * 0.9 and differ > checked // 2


def test_clone_and_serialization_free_copy():
    game = pyspiel.load_game("python_oh7")
    state = game.new_initial_state()
    deal(state, np.random.default_rng(3))
    twin = state.clone()
    a = state.legal_actions()[0]
    state.apply_action(a)
    assert twin.information_state_string(0) != state.information_state_string(0) or twin.current_player() != state.current_player()


@pytest.mark.parametrize("preset,players", [("kod7", 4), ("en", 2)], ids=["kod7-4", "en-2-dummy"])
def test_openspiel_ismcts_plays_a_deal_against_the_expert(preset, players):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_oh7", {"preset": preset, "players": players, "scale": 0.1})
    rs = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), uct_c=2.0, max_simulations=20,
        max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES, random_state=rs,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        use_observation_string=False, allow_inconsistent_action_sets=False,
        child_selection_policy=ismcts.ChildSelectionPolicy.UCT,
    )
    expert = oh7.Bot("heuristic")
    state = game.new_initial_state()
    deal(state, np.random.default_rng(5))
    moves = 0
    while not state.is_terminal():
        p = state.current_player()
        a = bot.step(state) if p % 2 == 0 else expert.act(state)
        assert a in state.legal_actions()
        state.apply_action(int(a))
        deal(state, np.random.default_rng(moves))
        moves += 1
    assert moves >= players * 7 and len(state.returns()) == players


PASSING = 'preset = "bga"\npassing = true\n'


@pytest.mark.parametrize("preset,players", [("kod7", 4), ("en", 2), ("bga", 5), ("passing", 4)])
def test_the_whole_game(preset, players, tmp_path):
    """`whole_game`: every round dealt by chance nodes, to the game's end; returns are its points
    (the totals of the game played), and OpenSpiel's own random simulation test passes."""
    if preset == "passing":
        (tmp_path / "passing.toml").write_text(PASSING)
        rules = {"ruleset": str(tmp_path / "passing.toml")}
    else:
        rules = {"preset": preset}
    game = pyspiel.load_game("python_oh7", {**rules, "players": players, "whole_game": True})
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    rounds = set()
    while not state.is_terminal():
        deal(state, rng)
        if state.is_terminal():
            break
        rounds.add(state.core.core().round_number())
        state.apply_action(int(rng.choice(state.legal_actions())))
    core = state.core.core()
    assert core.is_over() and len(rounds) > 1
    assert state.returns() == [float(t) for t in core.totals()]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # The first deal of a game with passing passes nothing; later deals pass cards: resampling
    # keeps the information state while the passes are chosen and after they are made (the
    # others' passes chosen anew, not copied).
    if preset == "passing":
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        state = game.new_initial_state()
        during = after = differ = 0
        while not state.is_terminal():
            deal(state, rng)
            if state.is_terminal():
                break
            p = state.current_player()
            core = state.core.core()
            last = json.loads(core.record_json())["rounds"][-1]
            passes_made = any(last["passes"])
            picking = "pick" in state.action_to_string(p, state.legal_actions()[0])
            if picking or passes_made:
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.legal_actions() == state.legal_actions()
                during += picking
                after += passes_made and not picking
                if passes_made and not picking:
                    theirs = json.loads(other.core.core().record_json())["rounds"][-1]["passes"]
                    differ += theirs != last["passes"]
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert during > 20 and after > 100 and differ > after // 2, (during, after, differ)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_seven_as_an_openspiel_game(players):
    """`python_seven`: a whole game of Seven, chance sampled inside the engine; OpenSpiel's
    random simulation test (with serialization) passes, returns are minus the penalty points."""
    import oh7.spiel_seven  # noqa: F401  (registers python_seven)

    game = pyspiel.load_game("python_seven", {"players": players, "limit": 30, "rng_seed": 3})
    assert game.num_players() == players and game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    # OpenSpiel serializes a sampled-stochastic game with its C++ RNG state, which a Python game
    # cannot give: the random test runs without serialization (states clone; they do not pickle).
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    rng = np.random.default_rng(players)
    state = game.new_initial_state()
    first = state.information_state_string(state.current_player())
    assert game.new_initial_state().information_state_string(0) != first or players == 2
    while not state.is_terminal():
        p = state.current_player()
        assert not state.is_chance_node()
        copy = state.clone()
        assert copy.information_state_string(p) == state.information_state_string(p)
        assert len(state.observation_tensor(p)) == game.observation_tensor_size()
        state.apply_action(int(rng.choice(state.legal_actions())))
    core = state.core
    assert state.returns() == [-float(t) for t in core.totals()]
    with pytest.raises(NotImplementedError):
        game.new_initial_state().resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
