"""Train SB3-contrib's MaskablePPO on one seat of `kod7` (4 players) against heuristic bots for a
few minutes on a CPU, then rate it with oh7's duplicate match against `random` and `heuristic`.

    pip install sb3-contrib            # brings stable-baselines3 and torch (docs/python.md)
    python python/examples/maskable_ppo.py --steps 200000 --deals 400 [--save ppo.zip]

The environment is `oh7.sb3.Oh7SB3VecEnv`: the N games stepped in Rust by one call (BatchEnv),
with the `action_masks()` MaskablePPO asks for. `--vec dummy` trains on SB3's `DummyVecEnv`
over N single games (`oh7.gym.Oh7GymEnv`) instead, to compare. The rating is
`oh7.duplicate_match`: the same deals with the seats rotated, the policy's points per round
minus the opponent's, with a 95% interval (docs/python.md, "Training with SB3"). The figures
of one run are printed as JSON last.
"""

import argparse
import json
import time

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import oh7
from oh7.gym import Oh7GymEnv
from oh7.sb3 import Oh7SB3VecEnv

ap = argparse.ArgumentParser()
ap.add_argument("--preset", default="kod7")
ap.add_argument("--players", type=int, default=4)
ap.add_argument("--steps", type=int, default=200_000, help="environment steps of training")
ap.add_argument("--envs", type=int, default=8)
ap.add_argument("--vec", choices=["batch", "dummy"], default="batch", help="the games stepped in Rust together, or SB3's DummyVecEnv over single games")
ap.add_argument("--bots", default="heuristic", help="the other seats' level during training")
ap.add_argument("--deals", type=int, default=400, help="deals of each duplicate match")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--save")
args = ap.parse_args()

torch.set_num_threads(1)
torch.manual_seed(args.seed)


# Rewards: a round's points (no bonus for winning the game), so every round teaches.
if args.vec == "batch":
    venv = Oh7SB3VecEnv(args.envs, preset=args.preset, players=args.players, seat=0, bots=args.bots, win_reward=0.0)
else:

    def make():
        def f():
            return Oh7GymEnv(preset=args.preset, players=args.players, seat=0, bots=args.bots, win_reward=0.0)

        return f

    venv = DummyVecEnv([make() for _ in range(args.envs)])
venv.seed(args.seed)
model = MaskablePPO(
    "MlpPolicy",
    venv,
    n_steps=512,
    batch_size=1024,
    n_epochs=4,
    learning_rate=3e-4,
    gamma=1.0,
    ent_coef=0.01,
    policy_kwargs={"net_arch": [256, 256]},
    seed=args.seed,
    verbose=0,
)
t0 = time.perf_counter()
model.learn(total_timesteps=args.steps)
train_s = time.perf_counter() - t0
if args.save:
    model.save(args.save)


def policy(observation, env):
    """The trained policy as a duplicate-match player: the mask applied, its most likely id."""
    mask = observation["action_mask"].astype(bool)
    action, _ = model.predict(observation["observation"], action_masks=mask, deterministic=True)
    return int(action)


results = {
    "preset": args.preset,
    "players": args.players,
    "vec": args.vec,
    "envs": args.envs,
    "steps": args.steps,
    "train_seconds": round(train_s, 1),
    "steps_per_second": round(args.steps / train_s),
}
for opponent in ["random", "heuristic"]:
    t0 = time.perf_counter()
    m = oh7.duplicate_match(policy, opponent, deals=args.deals, seed=args.seed + 1, preset=args.preset, players=args.players)
    results[f"vs_{opponent}"] = {
        "mean": round(m.mean, 3),
        "ci95": [round(m.ci95[0], 3), round(m.ci95[1], 3)],
        "deals": m.deals,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(f"MaskablePPO - {opponent}: {m}")
print(json.dumps(results))
