import numpy as np

import oh7

env = oh7.env(preset="kod7", players=4)
rng = np.random.default_rng(0)
for game in range(3):
    env.reset(seed=game)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(rng.choice(legal))
        env.step(action)
    print(f"game {game}: totals {env.totals()}, winners {env.winners()}")
env.record_to("last-game.json")  # oh7-replay last-game.json (installed with the package)
