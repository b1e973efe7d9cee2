"""``algorithm.init_from`` with a MaskablePPO policy zip: the JAX network starts as the
policy's actor (same logits), with a zero value head, and a policy of another shape or
env is refused; ``pool_keep_initial`` keeps the starting network among the opponents."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")
pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import jax
import numpy as np
import torch

import moon_envs
import moon_envs.jax as mj
from moon_agents.checkpoint import SIDECAR, WEIGHTS, build_policy
from moon_agents.net_agent import NetAgent
from moon_agents.policy import PolicyAgent, write_sidecar
from moon_agents.training.config import parse_config
from moon_agents.training.jax.network import net_description
from moon_agents.zoo import trained_model
from moon_envs.core.game import ConfigError

PARAMS = {"num_players": 2, "line_features": True}
HIDDEN = [32, 16]


def _policy_zip(
    path: Path, net_arch: Any = HIDDEN, activation: str = "tanh", params: dict | None = PARAMS
) -> tuple[Path, Any]:
    """A MaskablePPO policy for Jupiter (206 observations, 33 actions) written as
    ``moon-envs train`` writes one, with its sidecar unless ``params`` is None."""
    meta = {
        "format": "moon-envs-maskable-ppo-policy",
        "version": 1,
        "observation_shape": [206],
        "observation_low": 0.0,
        "observation_high": 1.0,
        "num_actions": 33,
        "net_arch": net_arch,
        "activation": activation,
        "share_features_extractor": True,
    }
    torch.manual_seed(3)
    policy = build_policy(meta)
    weights = io.BytesIO()
    torch.save(policy.state_dict(), weights)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(SIDECAR, json.dumps(meta))
        zf.writestr(WEIGHTS, weights.getvalue())
    if params is not None:
        write_sidecar(path, "jupiter_v0", params)
    return path, policy


def _config(tmp_path: Path, init_from: Path, **algorithm: Any) -> Any:
    data = {
        "name": "init_from_ppo",
        "seed": 1,
        "env": {"id": "jupiter_v0", "params": PARAMS},
        "algorithm": {
            "name": "jax_ppo",
            "num_envs": 16,
            "num_steps": 16,
            "num_minibatches": 2,
            "hidden": HIDDEN,
            "activation": "tanh",
            "pool_size": 2,
            "init_from": str(init_from),
            **algorithm,
        },
        "budget": {"total_timesteps": 256},
        "eval": {"every_timesteps": 256, "games": 2, "opponents": ["random"]},
        "export": "last",
        "output": {"dir": str(tmp_path / "runs"), "progress_bar": False, "plot": False},
    }
    return parse_config(data)


def _start_arrays(config: Any) -> dict[str, np.ndarray]:
    """The arrays of the network a run of ``config`` starts from."""
    from moon_agents.training.jax.network import initial_net, to_arrays

    twin = mj.make(config.env.id, **config.env.params)
    return to_arrays(initial_net(config, twin, jax.random.key(0)))


def _trainer(config: Any) -> Any:
    from moon_agents.training.jax.run import _trainer

    return _trainer(config, mj.make(config.env.id, **config.env.params))


def _observations(env_id: str, params: dict, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) pairs of one seeded random game."""
    env = moon_envs.make(env_id, **params)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    seen = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seen.append((obs["observation"], obs["action_mask"]))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if len(seen) == count:
            break
    env.close()
    return seen


def test_the_network_starts_as_the_policy_actor(tmp_path: Path) -> None:
    path, policy = _policy_zip(tmp_path / "policy.zip")
    config = _config(tmp_path, path)
    arrays = _start_arrays(config)
    assert not arrays["value.weight"].any() and not arrays["value.bias"].any()
    description = net_description(config, mj.make("jupiter_v0", **PARAMS))
    agent = NetAgent(arrays, description)
    for obs, _ in _observations("jupiter_v0", PARAMS, 40):
        with torch.no_grad():
            x = torch.as_tensor(obs[None], dtype=torch.float32)
            expected = policy.action_net(policy.mlp_extractor.forward_actor(x))[0].numpy()
        logits, value = agent.evaluate(obs)
        np.testing.assert_allclose(logits, expected, rtol=1e-4, atol=1e-5)
        assert value == 0.0


def test_the_shipped_moon_harvesters_policy_converts_move_for_move(tmp_path: Path) -> None:
    """The network made from ``trained-ppo`` picks the policy's move everywhere."""
    path = trained_model("moon_harvesters", "trained-ppo")
    config = parse_config(
        {
            "name": "mh_from_ppo",
            "env": {"id": "moon_harvesters_v0", "params": {"num_players": 2}},
            "algorithm": {
                "name": "jax_ppo",
                "num_envs": 8,
                "num_steps": 8,
                "num_minibatches": 1,
                "hidden": [256, 256],
                "activation": "tanh",
                "init_from": str(path),
            },
            "budget": {"total_timesteps": 64},
            "eval": {"every_timesteps": 64, "games": 2, "opponents": ["random"]},
            "output": {"dir": str(tmp_path), "progress_bar": False, "plot": False},
        }
    )
    twin = mj.make("moon_harvesters_v0", num_players=2)
    net = NetAgent(_start_arrays(config), net_description(config, twin))
    ppo = PolicyAgent.load(path)
    for obs, mask in _observations("moon_harvesters_v0", {"num_players": 2}, 30):
        logits, _ = net.evaluate(obs)
        ours = int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))
        view = SimpleNamespace(observation=obs, action_mask=mask)  # what act() reads
        assert ours == ppo.act(view)


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ({"net_arch": [32, 32]}, "hidden=[32, 32]"),
        ({"net_arch": {"pi": [16], "vf": [32, 16]}}, "hidden=[16]"),
        ({"activation": "relu"}, "activation='relu'"),
        ({"params": None}, "says nothing of the env"),
        ({"params": {**PARAMS, "ties": "none"}}, "trained on jupiter_v0 with params"),
    ],
)
def test_a_policy_of_another_shape_or_env_is_refused(
    tmp_path: Path, policy: dict, message: str
) -> None:
    path, _ = _policy_zip(tmp_path / "policy.zip", **policy)
    with pytest.raises(ConfigError, match=r"algorithm\.init_from") as err:
        _start_arrays(_config(tmp_path, path))
    assert message in str(err.value)


def test_the_policy_critic_is_not_what_the_value_head_starts_from(tmp_path: Path) -> None:
    """An SB3 value net exists in the file, but the value head is zero: a test that the
    critic's layers were not mistaken for the actor's."""
    path, policy = _policy_zip(tmp_path / "policy.zip")
    arrays = _start_arrays(_config(tmp_path, path))
    actor = policy.mlp_extractor.policy_net[0].weight.detach().numpy()
    critic = policy.mlp_extractor.value_net[0].weight.detach().numpy()
    assert np.array_equal(arrays["trunk.0.weight"], actor)
    assert not np.array_equal(arrays["trunk.0.weight"], critic)


def test_pool_keep_initial_keeps_the_starting_network(tmp_path: Path) -> None:
    path, _ = _policy_zip(tmp_path / "policy.zip")
    kept = _trainer(_config(tmp_path, path, pool_keep_initial=True, pool_size=3))
    rotated = _trainer(_config(tmp_path, path, pool_size=3))
    start = jax.tree.leaves(kept.params)
    for trainer in (kept, rotated):
        for i in range(5):  # five snapshots of ever-changing parameters
            trainer.params = jax.tree.map(lambda p, i=i: p + i + 1.0, trainer.params)
            trainer._snapshot()
    first = [leaf[0] for leaf in jax.tree.leaves(kept.pool)]
    assert all(np.array_equal(a, b) for a, b in zip(first, start))
    # the other slots hold the last snapshots (4th and 5th: +10 and +15 in total)
    others = jax.tree.leaves(kept.pool)[0][1:]
    assert sorted(float(x[0, 0] - start[0][0, 0]) for x in others) == pytest.approx([10, 15])
    assert not np.array_equal(jax.tree.leaves(rotated.pool)[0][0], start[0])


def test_pool_keep_initial_needs_a_second_slot(tmp_path: Path) -> None:
    path, _ = _policy_zip(tmp_path / "policy.zip")
    with pytest.raises(ValueError, match=r"pool_keep_initial.*pool_size of 2 or more"):
        _config(tmp_path, path, pool_keep_initial=True, pool_size=1)
