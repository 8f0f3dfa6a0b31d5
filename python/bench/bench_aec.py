"""Random-agent steps per second through PettingZoo's AEC API: oh7 beside PettingZoo's classic
card games and RLCard's UNO, in one run on one machine, with the same loop as the peers' own
PettingZoo benchmark (``agent_iter``, ``last``, a uniform
choice among the masked actions, ``step``), and the same loop over a no-op environment (the
cost of Python, PettingZoo's wrappers and the agent themselves).

    pip install "pettingzoo[classic]" rlcard    # the peers (pygame comes with the classic games)
    python python/bench/bench_aec.py [--seconds 5] [--json out.json]

It also measures the batched environment (``oh7.vector.BatchEnv``) in the same run.
"""

import argparse
import json
import platform
import time

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import oh7


def run_aec(make, seconds):
    env = make()
    rng = np.random.default_rng(0)
    steps = games = 0
    env.reset(seed=0)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for agent in env.agent_iter():
            obs, rew, term, trunc, info = env.last()
            if term or trunc:
                a = None
            else:
                mask = obs["action_mask"]
                a = int(rng.choice(np.flatnonzero(mask)))
            env.step(a)
            steps += 1
        games += 1
        env.reset(seed=games)
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


class NoOpEnv(AECEnv):
    """Four agents, oh7's spaces, 60 steps a game; a step only passes the turn. What is left is
    the loop itself: Python, PettingZoo's wrappers, the agent's numpy choice."""

    metadata = {"render_modes": [], "name": "noop_v0", "is_parallelizable": False}

    def __init__(self, n_obs, n_act, length=60):
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._obs = np.zeros(n_obs, np.float32)
        self._mask = np.zeros(n_act, np.int8)
        self._mask[:7] = 1
        self.length = length

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        return {"observation": self._obs, "action_mask": self._mask}

    def reset(self, seed=None, options=None):
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.t = 0

    def step(self, action):
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self.t += 1
        self._cumulative_rewards[self.agent_selection] = 0
        i = self.possible_agents.index(self.agent_selection)
        self.agent_selection = self.possible_agents[(i + 1) % 4]
        if self.t >= self.length:
            for a in self.agents:
                self.terminations[a] = True
        self._accumulate_rewards()
        self._deads_step_first()


def noop_wrapped():
    e = NoOpEnv(oh7.Core().obs_len, oh7.OH7_ACTIONS)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))


def rlcard_uno(seconds):
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    t0 = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - t0 < seconds:
        traj, _ = env.run(is_training=False)
        games += 1
        steps += sum((len(t) - 1) // 2 for t in traj)
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


def core_loop(seconds):
    """oh7 in RLCard's loop shape (no PettingZoo API): each step the acting seat's observation
    and legal ids, a uniform random choice, the step."""
    core = oh7.Core(preset="kod7", players=4)
    rng = np.random.default_rng(0)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        core.reset(games)
        while (seat := core.to_act()) is not None:
            core.observe(seat)
            ids = core.legal_ids(seat)
            core.step(seat, ids[rng.integers(len(ids))])
            steps += 1
        games += 1
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


def batch_loop(seconds, n, policy):
    """oh7.vector.BatchEnv: n kod7 games stepped by one call, observations and masks as numpy
    arrays. `policy` "random": a uniform legal id per game, drawn with numpy (the largest random
    key among the legal ids); "first": the first legal id (what the environment alone costs)."""
    from oh7.vector import BatchEnv

    b = BatchEnv(n, preset="kod7", players=4, seed=0)
    obs, masks, to_act, rewards, dones = b.reset()
    rng = np.random.default_rng(0)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if policy == "random":
            a = np.argmax(rng.random(masks.shape, dtype=np.float32) * masks, axis=1)
        else:
            a = masks.argmax(axis=1)
        obs, masks, to_act, rewards, dones = b.step(a)
        steps += n
        games += int(dones.sum())
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--json", help="write the table as JSON")
    args = ap.parse_args()
    from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4

    runs = [
        ("oh7 kod7 4p, oh7.env", lambda: oh7.env(preset="kod7", players=4)),
        ("oh7 bga 6p, oh7.env", lambda: oh7.env(preset="bga", players=6)),
        ("oh7 seven 4p, oh7.env", lambda: oh7.env(game="seven", players=4)),
        ("no-op env, same spaces, unwrapped", lambda: NoOpEnv(oh7.Core().obs_len, oh7.OH7_ACTIONS)),
        ("no-op env, same spaces, PettingZoo wrappers", noop_wrapped),
        ("pettingzoo texas_holdem_v4", texas_holdem_v4.env),
        ("pettingzoo leduc_holdem_v4", leduc_holdem_v4.env),
    ]
    table = []
    for name, make in runs:
        s, g = run_aec(make, args.seconds)
        table.append({"env": name, "steps_per_s": s, "games_per_s": g})
        print(f"{name:40s} {s:>10,.0f} steps/s {g:>9,.1f} games/s", flush=True)
    s, g = core_loop(args.seconds)
    table.append({"env": "oh7 kod7 4p, oh7.Core loop (RLCard's shape)", "steps_per_s": s, "games_per_s": g})
    print(f"{'oh7 kod7 4p, oh7.Core loop (RLCard shape)':40s} {s:>10,.0f} steps/s {g:>9,.1f} games/s")
    for n, policy in [(256, "random"), (256, "first"), (64, "first"), (1024, "first")]:
        name = f"oh7 kod7 4p, oh7.vector.BatchEnv N={n}, {policy}"
        s, g = batch_loop(args.seconds, n, policy)
        table.append({"env": name, "steps_per_s": s, "games_per_s": g})
        print(f"{name:40s} {s:>10,.0f} steps/s {g:>9,.1f} games/s", flush=True)
    s, g = rlcard_uno(args.seconds)
    table.append({"env": "rlcard uno (env.run, its own loop)", "steps_per_s": s, "games_per_s": g})
    print(f"{'rlcard uno (env.run, its own loop)':40s} {s:>10,.0f} steps/s {g:>9,.1f} games/s")
    if args.json:
        meta = {"python": platform.python_version(), "machine": platform.machine(), "seconds": args.seconds}
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "table": table}, f, indent=2)


if __name__ == "__main__":
    main()
