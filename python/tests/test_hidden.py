"""A seat's observation never changes with another seat's hidden cards or secret choices."""

import numpy as np
import pytest

import oh7


def obs(core, seat):
    return np.frombuffer(core.observe(seat), dtype=np.float32).copy()


def swapped_deal(core, a, b):
    """The same game with seats a and b's hands swapped (nobody has acted yet)."""
    hands = core.hands()[: core.players]
    dealt = {c for h in hands for c in h}
    rest = [c for c in core.deck() if c not in dealt]
    hands[a], hands[b] = hands[b], hands[a]
    twin = core.clone()
    twin.set_deal(hands, rest)
    return twin


@pytest.mark.parametrize("players", [3, 4, 6, 8])
def test_seven_swapping_other_hands_changes_nothing_for_me(players):
    """Seven: seats 1 and 2 swap hands before anyone acts; seat 0 (and every other seat) sees
    the same, and keeps seeing the same while the rules show it nothing of those hands."""
    rng = np.random.default_rng(8)
    for seed in range(20):
        a = oh7.Core(game="seven", players=players, seed=seed)
        b = a.clone()
        b.swap_hands(1, 2)
        assert a.view_json(1) != b.view_json(1)
        for me in [0] + list(range(3, players)):
            assert (obs(a, me) == obs(b, me)).all()
        steps = 0
        while (seat := a.to_act()) is not None and a.view_json(0) == b.view_json(0) and steps < 50:
            assert (obs(a, 0) == obs(b, 0)).all()
            la, lb = a.legal_ids(seat), b.legal_ids(seat)
            common = sorted(set(la) & set(lb))
            if not common:
                break
            x = int(rng.choice(common))
            a.step(seat, x)
            b.step(seat, x)
            steps += 1


CASES = [(p, n) for p in ["en", "fr", "fr-advanced", "kod7", "bga"] for n in (3, 4)]


@pytest.mark.parametrize("preset,players", CASES)
def test_swapping_other_hands_changes_nothing_for_me(preset, players):
    """Seats 1 and 2 swap hands: seat 0's observation is the same, and stays the same while
    the others make their secret first decisions (bets) with those different hands."""
    rng = np.random.default_rng(5)
    for seed in range(20):
        a = oh7.Core(preset=preset, players=players, seed=seed)
        b = swapped_deal(a, 1, 2)
        assert a.hands()[1] == b.hands()[2] and a.hands()[1] != b.hands()[1]
        hidden_steps = 0
        while (seat := a.to_act()) is not None and a.view_json(0) == b.view_json(0):
            assert (obs(a, 0) == obs(b, 0)).all(), a.render(0)
            la, lb = a.legal_ids(seat), b.legal_ids(seat)
            if seat == 0:
                assert la == lb
                x = y = int(rng.choice(la))
            else:
                x, y = int(rng.choice(la)), int(rng.choice(lb))
                hidden_steps += 1
            a.step(seat, x)
            b.step(seat, y)
        # Every other seat decided at least once with its hidden hand before seat 0 could tell.
        assert hidden_steps >= players - 1, (preset, seed, hidden_steps)


@pytest.mark.parametrize("preset", ["en", "fr", "fr-advanced", "kod7", "bga"])
def test_secret_bets_stay_secret_until_the_reveal(preset):
    """Same deal, different first decisions by seats 1..n-1 (the lowest legal id in one game,
    the highest in the other): seat 0 sees exactly the same until every seat has decided."""
    for seed in range(30):
        a = oh7.Core(preset=preset, players=4, seed=seed)
        b = a.clone()
        differed = 0
        while (seat := a.to_act()) is not None and a.view_json(0) == b.view_json(0):
            assert (obs(a, 0) == obs(b, 0)).all()
            la = a.legal_ids(seat)
            if seat == 0:
                a.step(0, la[0])
                b.step(0, la[0])
            else:
                a.step(seat, la[0])
                b.step(seat, la[-1])
                differed += len(la) > 1
        assert differed >= 3 or seed > 0, (preset, differed)
