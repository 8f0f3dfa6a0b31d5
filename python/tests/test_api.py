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
