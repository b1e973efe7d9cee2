"""Train a small Jupiter agent by self-play, then measure it against random and greedy.

    python examples/train_jupiter.py            # about a minute on a laptop

For the full run use the shipped config: ``moon-envs train configs/jupiter_ppo.yaml``.
"""

from moon_agents.evaluation.tournament import tournament
from moon_agents.policy import PolicyAgent
from moon_agents.training.config import load_config
from moon_agents.training.train import train

config = load_config(
    "configs/jupiter_ppo.yaml",
    overrides={
        "budget.total_timesteps": 50_000,  # the shipped config trains for much longer
        "eval.every_timesteps": 10_240,
        "eval.games": 50,
        "opponents.snapshots.every_timesteps": 20_480,
        "output.dir": "runs/examples",
        "output.overwrite": True,
    },
)
result = train(config)
print(f"run folder: {result.run_dir}")
for row in result.metrics:
    print(
        f"{row['timesteps']:>7} steps: win rate vs random {row['eval_random_win_rate']:.2f}, "
        f"vs greedy {row['eval_greedy_win_rate']:.2f}"
    )

# 2-player games between two of the three agents at a time ("round_robin"; by default each
# agent would take a seat of one 3-player game); line_features=true and num_players=2 come
# from the run folder's config.yaml
final = tournament(
    "jupiter_v0",
    [PolicyAgent.load(result.model_path, name="trained"), "greedy", "random"],
    games=120,
    seed=1,
    out_dir=result.run_dir / "tournament",
    seating="round_robin",
)
print(final)
