"""RLlib itself samples episodes with the masked module: no illegal action, ever; and
``ray.address`` decides between starting a local Ray and joining a cluster."""

from __future__ import annotations

import pytest

pytest.importorskip("ray.rllib")

from moon_agents.training.config import parse_config
from moon_agents.training.rllib.train import build_algorithm, init_ray


@pytest.mark.parametrize(("env_id", "params"), [("moon_harvesters_v0", {})])
def test_sampled_episodes_hold_only_legal_actions(ray_session, env_id, params):
    """Moon Harvesters: the largest mask (Jupiter and Moonstar sample in test_train)."""
    config = parse_config(
        {
            "env": {"id": env_id, "params": params},
            "algorithm": {"name": "rllib-ppo", "net_arch": [16]},
            "opponents": {"pool": ["random"], "self_play": True},
            "eval": {"opponents": ["random"]},
            "ray": {"num_env_runners": 0, "num_envs_per_env_runner": 4},
        }
    )
    algo = build_algorithm(config, ["random", "learner"], [])
    try:
        episodes = algo.env_runner.sample(num_episodes=20, explore=True)
        actions = 0
        for episode in episodes:
            for single in episode.agent_episodes.values():
                obs = single.get_observations()
                for t, action in enumerate(single.get_actions()):
                    assert obs["action_mask"][t][action] == 1
                    actions += 1
        assert len(episodes) >= 20 and actions > 200
    finally:
        algo.stop()


def test_ray_address_selects_local_or_cluster(monkeypatch):
    import ray

    calls = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(kw))
    local = parse_config({"algorithm": "rllib-ppo", "ray": {"num_cpus": 2}})
    cluster = parse_config({"algorithm": "rllib-ppo", "ray": {"address": "auto"}})
    assert init_ray(local) and init_ray(cluster)
    assert calls[0]["num_cpus"] == 2 and calls[0]["address"] == "local"  # always a new Ray
    assert calls[1]["address"] == "auto" and "num_cpus" not in calls[1]


def test_a_snapshot_copies_the_learner_and_joins_the_league(ray_session, tmp_path):
    import torch

    from moon_agents.training.rllib.train import _Run

    config = parse_config(
        {
            "algorithm": {"name": "rllib-ppo", "net_arch": [8]},
            "opponents": {"pool": ["random"], "snapshots": {"max_in_pool": 2}},
            "eval": {"opponents": ["random"]},
            "ray": {"num_env_runners": 0, "num_envs_per_env_runner": 1},
            "output": {"tensorboard": False},
        }
    )
    slots = ["snapshot_0", "snapshot_1"]
    algo = build_algorithm(config, ["random"], slots)
    try:
        (tmp_path / "checkpoints").mkdir()
        run = _Run(config, tmp_path, algo, slots)
        learner = run.learner_state()
        runner = algo.env_runner
        before = runner.module["snapshot_0"].state_dict()
        assert any(not torch.equal(before[k], learner[k]) for k in before)
        run.snapshot()
        after = runner.module["snapshot_0"].state_dict()
        assert all(torch.equal(after[k], learner[k]) for k in after)
        assert runner.env.envs[0].unwrapped.league == ["random", "snapshot_0"]
        assert (tmp_path / "checkpoints" / "snapshot_0" / "module_state.pt").is_file()
    finally:
        algo.stop()
