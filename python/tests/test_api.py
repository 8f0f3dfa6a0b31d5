"""PettingZoo's own conformance tests on every preset at every player count, a custom
ruleset, and Seven."""

import pytest
from pettingzoo.test import api_test, seed_test

import oh7
from conftest import label, oh7_configs, seven_configs

CONFIGS = oh7_configs() + seven_configs()


@pytest.mark.parametrize("cfg", CONFIGS, ids=[label(c) for c in CONFIGS])
def test_api(cfg):
    api_test(oh7.env(**cfg), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("cfg", CONFIGS, ids=[label(c) for c in CONFIGS])
def test_seed(cfg):
    seed_test(lambda: oh7.env(**cfg), num_cycles=100)


def test_bga_with_passing_asks_one_card_at_a_time(tmp_path):
    rules = tmp_path / "pass.toml"
    rules.write_text('preset = "bga"\npassing = true\n')
    e = oh7.env(ruleset=str(rules), players=4)
    api_test(e, num_cycles=300, verbose_progress=False)
    e.reset(seed=3)
    texts = set()
    for agent in e.agent_iter(max_iter=60):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        a = int(legal[0])
        texts.add(e.unwrapped.action_text(a).split()[0])
        e.step(a)
    assert "pick" in texts


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="preset"):
        oh7.env(preset="nope")
    with pytest.raises(ValueError):
        oh7.env(preset="en", players=9)
    with pytest.raises(ValueError, match="oh7 or seven"):
        oh7.env(game="chess")
    with pytest.raises(ValueError, match="render_mode"):
        oh7.env(render_mode="rgb")


def test_illegal_action_raises_and_changes_nothing():
    e = oh7.raw_env(preset="kod7", players=4)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    bad = int((obs["action_mask"] == 0).nonzero()[0][0])
    before = e.record()
    with pytest.raises(ValueError, match="not legal"):
        e.step(bad)
    assert e.record() == before


def test_render_ansi():
    e = oh7.env(preset="en", players=3, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert "oh7" in text and "legal:" in text


def test_action_types_and_ranges_are_refused_clearly():
    e = oh7.env(preset="kod7", players=4)
    e.reset(seed=2)
    before = e.record()
    for bad, err, words in [
        (1.5, TypeError, "int id"),
        ("3", TypeError, "int id"),
        (True, TypeError, "int id"),
        (-1, ValueError, "ids are 0 to 317"),
        (318, ValueError, "ids are 0 to 317"),
    ]:
        with pytest.raises(err, match=words):
            e.step(bad)
    assert e.record() == before
    with pytest.raises(ValueError, match="ids are 0 to 317"):
        e.core.action_text(-1)
    s = oh7.env(game="seven", players=3)
    with pytest.raises(ValueError, match="ids are 0 to 275"):
        s.core.action_text(276)


def test_positional_arguments_and_bots_before_reset():
    e = oh7.env("oh7", "en", 3)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(AttributeError, match="reset"):
        oh7.Bot("random").act(e)


def test_pickling_rebuilds_the_same_game():
    import pickle

    for kw in [dict(preset="bga", players=5), dict(game="seven", players=4)]:
        e = oh7.env(**kw)
        e.reset(seed=4)
        for _ in range(37):
            obs, *_ = e.last()
            e.step(int(obs["action_mask"].nonzero()[0][-1]))
        twin = pickle.loads(pickle.dumps(e))
        assert twin.record() == e.record()
        assert twin.agent_selection == e.agent_selection
        a, b = twin.observe(twin.agent_selection), e.observe(e.agent_selection)
        assert (a["observation"] == b["observation"]).all()
    c = oh7.Core(preset="kod7", players=4, seed=1)
    c.swap_hands(1, 2)
    with pytest.raises(ValueError, match="cannot be pickled"):
        pickle.dumps(c)


def test_after_the_end_and_odd_arguments():
    e = oh7.env(preset="en", players=3)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    with pytest.raises(ValueError, match="call reset"):
        e.step(0)
    with pytest.raises(TypeError, match="int id"):
        e.action_text(3.7)
    with pytest.raises(TypeError, match="preset 3"):
        oh7.env("seven", 3)


def test_a_seven_ruleset_is_read_as_the_server_and_the_command_line_read_it():
    # Issue 57: Python refused a Seven ruleset the registry accepts.
    e = oh7.env(game="seven", players=3, ruleset="hand_size = 5\n")
    e.reset(seed=1)
    assert e.record()["ruleset"]["hand_size"] == 5
    with pytest.raises(ValueError, match="decks"):
        oh7.env(game="seven", players=3, ruleset="decks = 2\n")


def test_options_are_laid_over_the_preset_as_at_the_other_doors():
    # Issue 57: one request path, key=value options (the command line's --set, the server's
    # "options" object).
    e = oh7.env(preset="fr", players=4, options={"target": 21, "passing": False})
    e.reset(seed=1)
    assert e.record()["ruleset"]["target"] == 21
    s = oh7.env(game="seven", players=3, options={"limit": 0, "hand_size": 6})
    s.reset(seed=1)
    rules = s.record()["ruleset"]
    assert rules["limit"] is None and rules["hand_size"] == 6
    with pytest.raises(ValueError, match="option `target`"):
        oh7.env(preset="fr", players=4, options={"target": "21"})
    with pytest.raises(ValueError, match="option `bogus`"):
        oh7.env(preset="fr", players=4, options={"bogus": 1})
    with pytest.raises(ValueError, match="option `preset`"):
        oh7.env(players=4, options={"preset": "fr"})
