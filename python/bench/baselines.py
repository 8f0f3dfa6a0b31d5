"""The baseline table (docs/python.md, "Baselines"): every built-in level, a MaskablePPO
checkpoint and OpenSpiel's ISMCTS on one scale, with each one's decision cost.

The scale: **points per round against `heuristic`**, on duplicate deals. For each deal, the
round is played once with `heuristic` in every seat, then once per seat with the player in that
seat and `heuristic` in the others; the deal's score is the mean over seats of the player's
points minus `heuristic`'s in the same seat with the same cards (``oh7.duplicate_match``).
`heuristic` is 0 by construction; 95% intervals from the deals' spread.

Decision cost: the wall time of the player's own decisions divided by their number (ms per
decision), on one core (``RAYON_NUM_THREADS=1``, one torch thread), so the figures of one run
compare with each other.

OpenSpiel's ISMCTS runs on OpenSpiel's game (``oh7.spiel``, its deals drawn by OpenSpiel's
chance nodes from each deal's seed), scored the same way against `heuristic`; it is slow
(Python), so it plays fewer deals (``--ismcts-deals``).

    python python/bench/baselines.py --presets kod7,en --deals 200 --ppo ppo-kod7.zip \\
        --ismcts-deals 20 --out docs/python-baselines.json

Prints a Markdown table and, with ``--out``, writes every figure as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import oh7  # noqa: E402


class Timed:
    """A duplicate-match player that counts its decisions and their wall time."""

    def __init__(self, act):
        self.act_fn = act
        self.decisions = 0
        self.seconds = 0.0

    def __call__(self, observation, env):
        t = time.perf_counter()
        a = self.act_fn(observation, env)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        return a

    def ms(self) -> float:
        return 1000 * self.seconds / max(self.decisions, 1)


def level_player(level: str, seed: int) -> Timed:
    bot = oh7.Bot(level, seed=seed)
    return Timed(lambda observation, env: bot.act(env))


def ppo_player(path: str) -> Timed:
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    model = MaskablePPO.load(path, device="cpu")

    def act(observation, env):
        mask = observation["action_mask"].astype(bool)
        a, _ = model.predict(observation["observation"], action_masks=mask, deterministic=True)
        return int(a)

    return Timed(act)


def summary(name: str, scores, ms: float, decisions: int, seconds: float) -> dict:
    arr = np.asarray(scores, float)
    mean = float(arr.mean())
    half = 1.96 * float(arr.std(ddof=1)) / math.sqrt(len(arr)) if len(arr) > 1 else float("nan")
    return {
        "player": name,
        "deals": len(arr),
        "mean": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "ms_per_decision": round(ms, 3),
        "decisions": decisions,
        "seconds": round(seconds, 1),
    }


def ismcts_row(preset: str, players: int, deals: int, sims: int, seed: int) -> dict:
    """OpenSpiel's ISMCTSBot (random rollouts, UCT c=2, max-visit final policy) in one seat,
    `heuristic` in the others, against `heuristic` in every seat, on OpenSpiel's deals."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import oh7.spiel  # noqa: F401  (registers python_oh7)

    game = pyspiel.load_game("python_oh7", {"preset": preset, "players": players})
    timer = {"n": 0, "s": 0.0}

    def play(d: int, seat: int | None):
        rs = np.random.RandomState(d)
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
            uct_c=2.0,
            max_simulations=sims,
            max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=rs,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            use_observation_string=False,
            allow_inconsistent_action_sets=False,
            child_selection_policy=ismcts.ChildSelectionPolicy.UCT,
        )
        bots = {s: oh7.Bot("heuristic", seed=d * 64 + s) for s in range(players)}
        deal_rng = np.random.default_rng(d)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [c for c, _ in state.chance_outcomes()]
                state.apply_action(int(deal_rng.choice(outcomes)))
                continue
            p = state.current_player()
            if p == seat:
                t = time.perf_counter()
                a = bot.step(state)
                timer["s"] += time.perf_counter() - t
                timer["n"] += 1
            else:
                a = bots[p].act(state)
            state.apply_action(int(a))
        return state.returns()

    t0 = time.perf_counter()
    scores, left_out = [], 0
    for d in range(seed, seed + deals):
        try:
            base = play(d, None)
            scores.append(float(np.mean([play(d, s)[s] - base[s] for s in range(players)])))
        except ValueError as e:  # ISMCTS's resampling gave up on a tight view (rare)
            left_out += 1
            print(f"  ismcts: deal {d} left out: {e}", file=sys.stderr, flush=True)
        print(f"  ismcts: {d - seed + 1}/{deals} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    row = summary(f"OpenSpiel ISMCTS ({sims} sims)", scores, 1000 * timer["s"] / max(timer["n"], 1), timer["n"], time.perf_counter() - t0)
    row["left_out"] = left_out
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default="kod7,en")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--levels", default=",".join(oh7.bot_levels()), help="built-in levels, comma-separated")
    ap.add_argument("--ppo", action="append", default=[], metavar="PRESET=PATH", help="a MaskablePPO checkpoint for a preset (repeatable)")
    ap.add_argument("--ismcts-deals", type=int, default=0, help="deals for OpenSpiel's ISMCTS (0: left out)")
    ap.add_argument("--ismcts-sims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args()
    ppo = dict(p.split("=", 1) for p in args.ppo)
    result: dict = {"players": args.players, "seed": args.seed, "tables": {}}
    for preset in args.presets.split(","):
        rows = []
        players = [(lv, lambda lv=lv: level_player(lv, args.seed)) for lv in args.levels.split(",") if lv]
        if preset in ppo:
            players.append((f"MaskablePPO ({os.path.basename(ppo[preset])})", lambda p=ppo[preset]: ppo_player(p)))
        for name, make in players:
            player = make()
            t0 = time.perf_counter()
            m = oh7.duplicate_match(player, "heuristic", deals=args.deals, seed=args.seed, preset=preset, players=args.players)
            rows.append(summary(name, m.per_deal, player.ms(), player.decisions, time.perf_counter() - t0))
            print(f"{preset}: {rows[-1]}", file=sys.stderr, flush=True)
        if args.ismcts_deals:
            rows.append(ismcts_row(preset, args.players, args.ismcts_deals, args.ismcts_sims, args.seed))
            print(f"{preset}: {rows[-1]}", file=sys.stderr, flush=True)
        result["tables"][preset] = rows
        if args.out:  # after each table, so a long run keeps what it has
            with open(args.out, "w") as f:
                json.dump(result, f, indent=1)
    for preset, rows in result["tables"].items():
        print(f"\n`{preset}` {args.players}: points per round against `heuristic` (duplicate deals, 95% interval), ms per decision on one core\n")
        print("| player | deals | − heuristic | 95% interval | ms / decision |")
        print("|---|---|---|---|---|")
        for r in sorted(rows, key=lambda r: r["mean"]):
            lo, hi = r["ci95"]
            print(f"| {r['player']} | {r['deals']} | {r['mean']:+.2f} | {lo:+.2f} .. {hi:+.2f} | {r['ms_per_decision']:.2f} |")


if __name__ == "__main__":
    main()
