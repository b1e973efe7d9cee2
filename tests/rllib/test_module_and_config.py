"""The masked PPO module, the RLlib config schema and the missing-ray message."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import torch
from ray.rllib.core.columns import Columns

from moon_agents.training.config import load_config, parse_config
from moon_agents.training.rllib.env import MoonMultiAgentEnv
from moon_agents.training.rllib.module import MaskedPPOTorchRLModule, masked_module_spec
from moon_envs.core.game import ConfigError


def _module(inference_only: bool = False):
    env = MoonMultiAgentEnv({"env_id": "jupiter_v0"})
    spec = masked_module_spec(
        env.single_observation_space, env.single_action_space, [16], "tanh", inference_only
    )
    return env, spec.build()


def test_illegal_logits_are_masked_and_never_sampled():
    env, module = _module()
    assert isinstance(module, MaskedPPOTorchRLModule)
    rng = np.random.default_rng(0)
    n = env.num_actions
    masks = (rng.random((64, n)) < 0.3).astype(np.float32)
    masks[np.arange(64), rng.integers(n, size=64)] = 1.0
    obs = rng.random((64, *env.single_observation_space["observations"].shape))
    batch = {
        Columns.OBS: {
            "observations": torch.as_tensor(obs, dtype=torch.float32),
            "action_mask": torch.as_tensor(masks),
        }
    }
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward(dict(batch))[Columns.ACTION_DIST_INPUTS]
        dist = torch.distributions.Categorical(logits=logits)
        for _ in range(20):
            actions = dist.sample().numpy()
            assert masks[np.arange(64), actions].all()
        assert torch.all(dist.probs[torch.as_tensor(masks) == 0] < 1e-12)
    values = module.compute_values(dict(batch))
    assert values.shape == (64,)


def test_the_module_refuses_an_observation_without_a_mask():
    env = MoonMultiAgentEnv({"env_id": "jupiter_v0"})
    spec = masked_module_spec(
        env.single_observation_space["observations"], env.single_action_space, [8]
    )
    with pytest.raises(ValueError, match="action_mask"):
        spec.build()


def test_shipped_rllib_config_loads():
    config = load_config("configs/jupiter_rllib.yaml")
    assert config.algorithm.name == "rllib-ppo"
    assert config.ray.address is None and config.ray.num_env_runners == 2


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ray": {"num_env_runners": -1}}, "ray.num_env_runners"),
        ({"ray": {"adress": "auto"}}, "ray.adress"),
        ({"algorithm": {"name": "rllib-ppo", "minibatch_size": 9000}}, "algorithm.minibatch_size"),
        ({"algorithm": {"name": "rllib-ppo", "n_envs": 4}}, "algorithm.n_envs"),
        ({"opponents": {"pool": ["nobody"]}}, "opponents.pool"),
    ],
)
def test_config_errors_name_the_field(change, field):
    data = {"algorithm": "rllib-ppo", **change}
    with pytest.raises(ConfigError) as err:
        parse_config(data)
    assert field in str(err.value)


def test_unknown_ray_key_lists_the_allowed_keys():
    with pytest.raises(ConfigError, match="address"):
        parse_config({"algorithm": "rllib-ppo", "ray": {"adress": "auto"}})


def test_missing_ray_names_the_extra(monkeypatch):
    from moon_agents.training.rllib import require_ray

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ConfigError, match=r"moon-envs\[rllib\]"):
        require_ray()


def test_rllib_agent_spec_names_a_missing_model(tmp_path):
    from moon_agents.zoo import make_agent

    with pytest.raises(ConfigError, match="rllib:PATH"):
        make_agent(f"rllib:{tmp_path}", "jupiter")


def test_rllib_opponent_in_a_config_must_exist(tmp_path):
    with pytest.raises(ConfigError, match=r"opponents\.pool"):
        parse_config({"algorithm": "rllib-ppo", "opponents": {"pool": [f"rllib:{tmp_path}/x"]}})


def test_masked_ppo_config_builds_and_trains_where_a_bare_ppo_config_cannot(ray_session):
    """The docs' snippet: a PPOConfig for a moon-envs id with the masked module selected
    trains an iteration on Moonstar (3 seats, one module); RLlib's default module fails."""
    from ray.rllib.algorithms.ppo import PPOConfig

    from moon_agents.training.rllib.env import register_envs
    from moon_agents.training.rllib.ppo import masked_ppo_config

    small = {"num_epochs": 1, "train_batch_size_per_learner": 128, "minibatch_size": 64}
    env_config = {"params": {"num_players": 3, "max_rounds": 1}, "seed": 0}
    config = masked_ppo_config("moonstar_v1", env_config, net_arch=(16,))
    algo = config.env_runners(num_env_runners=0).training(**small).build_algo()
    try:
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
        module = algo.get_module("learner")
        assert isinstance(module, MaskedPPOTorchRLModule)
    finally:
        algo.stop()
    register_envs()
    bare = PPOConfig().environment("jupiter_v0").env_runners(num_env_runners=0)
    with pytest.raises(Exception):  # RLlib's own error, whichever it raises
        bare.training(**small).build_algo().stop()
