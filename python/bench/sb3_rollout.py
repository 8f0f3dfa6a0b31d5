"""How fast SB3 collects experience from oh7: steps per second of the rollout alone (the policy's
masked prediction for every game, then one vector step), on `Oh7SB3VecEnv` (the games stepped in
Rust by one call) and on SB3's `DummyVecEnv` over single `Oh7GymEnv`s, at several batch sizes.
The learning step is left out: it is the same for both (docs/python.md, "Training with SB3").

    python python/bench/sb3_rollout.py --envs 8,64 --steps 20000
"""

import argparse
import json
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.vec_env import DummyVecEnv

from oh7.gym import Oh7GymEnv
from oh7.sb3 import Oh7SB3VecEnv


def make(kind: str, n: int, preset: str):
    if kind == "batch":
        return Oh7SB3VecEnv(n, preset=preset, players=4, bots="heuristic", win_reward=0.0)
    return DummyVecEnv([lambda: Oh7GymEnv(preset=preset, players=4, bots="heuristic", win_reward=0.0) for _ in range(n)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", default="8,64")
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--preset", default="kod7")
    args = ap.parse_args()
    torch.set_num_threads(1)
    out = []
    for n in [int(x) for x in args.envs.split(",")]:
        for kind in ("dummy", "batch"):
            venv = make(kind, n, args.preset)
            venv.seed(0)
            model = MaskablePPO("MlpPolicy", venv, policy_kwargs={"net_arch": [256, 256]}, seed=0, n_steps=64, verbose=0)
            obs = venv.reset()
            steps, t0 = 0, time.perf_counter()
            while steps < args.steps:
                actions, _ = model.predict(obs, action_masks=get_action_masks(venv), deterministic=False)
                obs, _, _, _ = venv.step(actions)
                steps += n
            rate = steps / (time.perf_counter() - t0)
            out.append({"vec": kind, "envs": n, "steps_per_second": round(rate)})
            print(f"{kind:>5} N={n:<4} {rate:10,.0f} steps/s", flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
