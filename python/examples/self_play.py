"""Self-play with your own opponents: MaskablePPO on seat 0 of `kod7` (4 players), first against
Python opponents (a function of yours in seats 1 and 3, the built-in heuristic in seat 2), then
against frozen copies of itself, then rated on duplicate deals against the built-in bots and
against its own first copy.

    pip install sb3-contrib            # brings stable-baselines3 and torch (docs/python.md)
    python python/examples/self_play.py --steps 100000 --rounds 4 --round-steps 50000 --deals 300

The recipe (docs/python.md, "Self-play"):

1. any seat's opponent is a level, a function ``f(obs, mask) -> id`` or a batched policy
   (``oh7.opponents``); here ``lowest_card`` is a plain Python function;
2. ``oh7.opponents.frozen(model)`` is a snapshot of the model's policy: the model trains on
   while the snapshot plays;
3. ``venv.set_opponents(...)`` swaps the Python seats' opponents between learning calls: each
   round the opponents are copies drawn from the pool of earlier ones (the latest most often);
4. ``oh7.duplicate_match`` rates the model (a frozen copy is a batched policy too) against a
   level or against another policy on the same deals with the seats rotated.

The figures are printed as JSON last.
"""

import argparse
import json
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

import oh7
from oh7 import opponents
from oh7.sb3 import Oh7SB3VecEnv

ap = argparse.ArgumentParser()
ap.add_argument("--preset", default="kod7")
ap.add_argument("--players", type=int, default=4)
ap.add_argument("--envs", type=int, default=16)
ap.add_argument("--steps", type=int, default=100_000, help="steps against the Python opponents first")
ap.add_argument("--rounds", type=int, default=4, help="self-play rounds after that")
ap.add_argument("--round-steps", type=int, default=50_000, help="steps per self-play round")
ap.add_argument("--deals", type=int, default=300, help="deals of each duplicate match")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--save")
args = ap.parse_args()
if args.players < 3:
    ap.error("--players: 3 or more (seats 1 and 2 are opponents)")

torch.set_num_threads(1)
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)


def lowest_card(obs, mask):
    """A Python opponent: the lowest legal id (for a bet or a card, the lowest card)."""
    return int(np.flatnonzero(mask)[0])


# Seats 1.. are Python opponents except seat 2, the built-in heuristic (inside Rust).
def seats(python_opponent):
    return [None] + [("heuristic" if s == 2 else python_opponent) for s in range(1, args.players)]


venv = Oh7SB3VecEnv(args.envs, preset=args.preset, players=args.players, bots=seats(lowest_card), seed=args.seed, win_reward=0.0)
model = MaskablePPO(
    "MlpPolicy",
    venv,
    n_steps=256,
    batch_size=1024,
    n_epochs=4,
    learning_rate=3e-4,
    gamma=1.0,
    ent_coef=0.01,
    policy_kwargs={"net_arch": [256, 256]},
    seed=args.seed,
    verbose=0,
)
out = {"preset": args.preset, "players": args.players, "envs": args.envs}
t0 = time.perf_counter()
model.learn(total_timesteps=args.steps)
out["against_python"] = {"steps": args.steps, "seconds": round(time.perf_counter() - t0, 1)}
print(f"trained {args.steps} steps against Python opponents in {out['against_python']['seconds']} s", flush=True)

# Self-play: the Python seats get frozen copies of the model, a pool of every earlier one.
first = opponents.frozen(model)
pool = [first]
venv = Oh7SB3VecEnv(args.envs, preset=args.preset, players=args.players, bots=seats(first), seed=args.seed + 1, win_reward=0.0)
model.set_env(venv)
t0 = time.perf_counter()
for r in range(args.rounds):
    # The latest copy half of the time, else any earlier one: not only beating the last self.
    pick = pool[-1] if rng.random() < 0.5 else pool[int(rng.integers(len(pool)))]
    venv.set_opponents(pick)
    model.learn(total_timesteps=args.round_steps, reset_num_timesteps=False)
    pool.append(opponents.frozen(model))
    print(f"self-play round {r + 1}/{args.rounds} done", flush=True)
out["self_play"] = {"rounds": args.rounds, "steps": args.rounds * args.round_steps, "seconds": round(time.perf_counter() - t0, 1)}
if args.save:
    model.save(args.save)

final = opponents.frozen(model)
for name, opponent in [("random", "random"), ("heuristic", "heuristic"), ("first_copy", first)]:
    t0 = time.perf_counter()
    m = oh7.duplicate_match(final, opponent, deals=args.deals, seed=args.seed + 1000, preset=args.preset, players=args.players)
    out[f"vs_{name}"] = {
        "mean": round(m.mean, 3),
        "ci95": [round(m.ci95[0], 3), round(m.ci95[1], 3)],
        "deals": m.deals,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(f"self-played MaskablePPO - {name}: {m}", flush=True)
print(json.dumps(out))
