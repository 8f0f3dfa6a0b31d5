"""OpenSpiel's own ISMCTSBot against oh7's expert on duplicate deals of kod7 at 4 players.

Every deal is played twice with the same cards (the chance outcomes drawn from the deal's
seed): ISMCTS in seats 0 and 2 and the expert in 1 and 3, then the other way round. A deal's
score is ISMCTS's mean points per seat minus the expert's, averaged over the two seatings;
the result is the mean over deals with a 95% confidence interval (normal, from the deals'
spread).

    python python/examples/ismcts_vs_expert.py --deals 200 --simulations 200 --out result.json
"""

import argparse
import json
import math
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import oh7
import oh7.spiel  # noqa: F401  (registers python_oh7)


def play(game, deal_seed, ismcts_seats, sims, expert_level):
    rs = np.random.RandomState(deal_seed)
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
    experts = {s: oh7.Bot(expert_level, seed=deal_seed * 16 + s) for s in range(4) if s not in ismcts_seats}
    deal_rng = np.random.default_rng(deal_seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [c for c, _ in state.chance_outcomes()]
            state.apply_action(int(deal_rng.choice(outcomes)))
            continue
        p = state.current_player()
        a = bot.step(state) if p in ismcts_seats else experts[p].act(state)
        state.apply_action(int(a))
    return state.returns()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="first deal number (to run in parts)")
    ap.add_argument("--simulations", type=int, default=200, help="ISMCTS simulations per decision")
    ap.add_argument("--expert", default="expert", help="oh7 bot level")
    ap.add_argument("--out", help="write per-deal results and the summary as JSON")
    args = ap.parse_args()
    game = pyspiel.load_game("python_oh7", {"preset": "kod7", "players": 4, "scale": 0.05})
    rows, t0 = [], time.time()
    skipped = []
    for d in range(args.first, args.first + args.deals):
        diffs, played = [], []
        try:
            for ismcts_seats in ((0, 2), (1, 3)):
                r = play(game, d, ismcts_seats, args.simulations, args.expert)
                pts = [round(x / 0.05) for x in r]
                mine = np.mean([pts[s] for s in ismcts_seats])
                theirs = np.mean([pts[s] for s in range(4) if s not in ismcts_seats])
                diffs.append(mine - theirs)
                played.append({"deal": d, "ismcts_seats": list(ismcts_seats), "points": pts})
        except ValueError as e:
            # OpenSpiel's ISMCTS redraws the hidden hands through `resample_from_infostate`,
            # which draws at random until a deal fits the seat's view; on a rare, tightly
            # constrained view it gives up. The deal is left out, and said to be.
            skipped.append({"deal": d, "why": str(e)})
            print(f"deal {d} left out: {e}", file=sys.stderr, flush=True)
            continue
        played[-1]["diff"] = float(np.mean(diffs))
        rows.extend(played)
        done = d - args.first + 1
        if done % 5 == 0 or done == args.deals:
            print(f"{done}/{args.deals} deals, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    diffs = np.array([r["diff"] for r in rows if "diff" in r])
    mean, sd = float(diffs.mean()), float(diffs.std(ddof=1)) if len(diffs) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(diffs)) if len(diffs) > 1 else None
    summary = {
        "deals": len(diffs),
        "simulations": args.simulations,
        "expert": args.expert,
        "ismcts_minus_expert_points_per_seat_per_deal": mean,
        "ci95": None if half is None else [mean - half, mean + half],  # needs two deals or more
        "seconds": time.time() - t0,
        "left_out": skipped,
    }
    print(json.dumps(summary, indent=2))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "rows": rows}, f)


if __name__ == "__main__":
    main()
