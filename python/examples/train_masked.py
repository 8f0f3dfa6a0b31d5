"""A training loop with action masks, numpy only: a linear softmax policy for player_0 trained
by REINFORCE against heuristic bots. Illegal actions get a logit of -inf, so the policy never
picks one and its gradient never pushes them. Swap in your network; the loop stays the same.

    python python/examples/train_masked.py --episodes 200
"""

import argparse

import numpy as np

import oh7

ap = argparse.ArgumentParser()
ap.add_argument("--episodes", type=int, default=200)
ap.add_argument("--lr", type=float, default=1e-3)
args = ap.parse_args()

env = oh7.env(preset="kod7", players=4, win_reward=0.0)  # rewards: points of each round
n_obs = env.observation_space("player_0")["observation"].shape[0]
n_act = env.action_space("player_0").n
W = np.zeros((n_act, n_obs), np.float32)
bots = {a: oh7.Bot("heuristic", seed=i) for i, a in enumerate(env.possible_agents) if a != "player_0"}
rng = np.random.default_rng(0)
returns = []
for episode in range(args.episodes):
    env.reset(seed=episode)
    trajectory, ret = [], 0.0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if agent == "player_0":
            ret += reward
        if termination or truncation:
            env.step(None)
        elif agent != "player_0":
            env.step(bots[agent].act(env))
        else:
            x = obs["observation"]
            logits = np.where(obs["action_mask"] == 1, W @ x, -np.inf)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            a = int(rng.choice(n_act, p=p))
            trajectory.append((x, a, p))
            env.step(a)
    returns.append(ret)
    baseline = np.mean(returns[-50:])
    for x, a, p in trajectory:  # REINFORCE: grad log pi(a|x) = (onehot(a) - p) x^T
        g = -p
        g[a] += 1.0
        W += args.lr * (ret - baseline) * np.outer(g, x)
    if (episode + 1) % 10 == 0:
        print(f"episode {episode + 1}: mean points per game (last 10) {np.mean(returns[-10:]):+.1f}")
