"""PolicyAgent: masked greedy play, checkpoint round trip, frozen snapshots, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import moon_envs
from moon_agents.checkpoint import save_checkpoint
from moon_agents.policy import PolicyAgent
from moon_agents.zoo import make_agent
from moon_envs import ConfigError


@pytest.fixture(scope="module")
def model() -> MaskablePPO:
    torch.manual_seed(0)
    vec = DummyVecEnv([lambda: moon_envs.make_single_agent("jupiter_v0")])
    return MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        policy_kwargs={"net_arch": [32]},
        seed=0,
        device="cpu",
    )


def views(n: int, seed: int = 0):
    """Views of the player to move along random games of Jupiter."""
    env = moon_envs.make("jupiter_v0")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    out = []
    while len(out) < n:
        if env.game_state.is_terminal():
            env.reset()
            continue
        view = env.agent_view()
        out.append(view)
        env.step(int(rng.choice(view.legal_actions)))
    return out


def test_acts_legally_and_greedily(model: MaskablePPO) -> None:
    agent = PolicyAgent(model.policy, name="p")
    for view in views(60):
        a = agent.act(view)
        assert view.action_mask[a] == 1
        obs = torch.as_tensor(view.observation[None])
        dist = model.policy.get_distribution(obs, action_masks=view.action_mask[None].astype(bool))
        probs = dist.distribution.probs[0].detach().numpy()
        assert a == int(np.argmax(probs))
        p = agent.action_probabilities(view)
        assert p[view.action_mask == 0].sum() == 0
        assert np.allclose(p, probs, atol=1e-5)


def test_sampling_mode_is_seeded(model: MaskablePPO) -> None:
    vs = views(40, seed=1)
    a1 = [PolicyAgent(model.policy, seed=3, deterministic=False).act(v) for v in vs]
    s1 = PolicyAgent(model.policy, seed=3, deterministic=False)
    s2 = PolicyAgent(model.policy, seed=3, deterministic=False)
    assert [s1.act(v) for v in vs] == [s2.act(v) for v in vs]
    assert all(vs[i].action_mask[a] for i, a in enumerate(a1))


def test_load_round_trip_and_zoo_spec(model: MaskablePPO, tmp_path: Path) -> None:
    path = save_checkpoint(model, tmp_path / "m")
    assert path == tmp_path / "m.zip"
    live = PolicyAgent(model.policy)
    loaded = PolicyAgent.load(path)
    no_suffix = PolicyAgent.load(tmp_path / "m")
    via_zoo = make_agent(f"ppo:{path}", "jupiter", seed=0)
    trusted = make_agent(f"ppo-trusted:{path}", "jupiter", seed=0)
    assert loaded.name == "ppo:m" and via_zoo.name == f"ppo:{path}"
    for view in views(40, seed=2):
        a = live.act(view)
        assert loaded.act(view) == a == no_suffix.act(view) == via_zoo.act(view)
        assert trusted.act(view) == a
        assert np.allclose(loaded.action_probabilities(view), live.action_probabilities(view))


def test_plain_sb3_saves_need_the_trusted_opt_in(model: MaskablePPO, tmp_path: Path) -> None:
    path = tmp_path / "plain.zip"
    model.save(str(path))  # no JSON description: loading it would mean unpickling
    with pytest.raises(ConfigError, match="ppo-trusted:PATH"):
        PolicyAgent.load(path)
    with pytest.raises(ConfigError, match="trusted files only"):
        make_agent(f"ppo:{path}", "jupiter", seed=0)
    trusted = PolicyAgent.load(path, trusted=True)
    live = PolicyAgent(model.policy)
    assert all(trusted.act(v) == live.act(v) for v in views(20, seed=5))


def test_snapshot_is_frozen(model: MaskablePPO) -> None:
    snap = PolicyAgent.from_model(model, name="snap")
    vs = views(30, seed=4)
    before = [snap.act(v) for v in vs]
    with torch.no_grad():
        for p in model.policy.parameters():
            p.add_(torch.randn_like(p))
    assert [snap.act(v) for v in vs] == before
    assert all(not p.requires_grad for p in snap.policy.parameters())


def test_errors(model: MaskablePPO, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        PolicyAgent.load(tmp_path / "missing.zip")
    env3 = moon_envs.make("jupiter_v0", num_players=3)
    env3.reset(seed=0)
    with pytest.raises(ConfigError, match="observation shape"):
        PolicyAgent(model.policy).act(env3.agent_view())


def test_a_shipped_policy_without_the_train_extra_names_the_spec_typed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from moon_agents.zoo import make_agent
    from moon_envs.core.game import ConfigError

    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as if the extra were missing
    with pytest.raises(ConfigError) as err:
        make_agent("trained-ppo", "moonwakers")
    message = str(err.value)
    assert message.startswith("agent 'trained-ppo' for moonwakers is the MaskablePPO")
    assert "moonwakers.zip" in message and 'pip install "moon-envs[train]"' in message
