"""The trainer's options beyond plain PPO: score-margin shaping, pool schedules, and the
shipped policies (exported checkpoints, the ``trained`` agent)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from moon_envs import ConfigError, make_single_agent

pytest.importorskip("sb3_contrib")

from moon_agents.checkpoint import SIDECAR, WEIGHTS, export_policy
from moon_agents.training.config import parse_config
from moon_agents.training.train import train


def margin(env) -> float:
    scores = np.asarray(env.aec.game_state.scores(), dtype=float)
    return float(scores[env.seat] - np.delete(scores, env.seat).max())


@pytest.mark.parametrize("env_id", ["jupiter_v0", "moon_harvesters_v0"])
def test_margin_shaping_adds_k_times_each_change_of_the_score_margin(env_id: str) -> None:
    k = 0.05
    plain = make_single_agent(env_id, opponents=["greedy"], margin_shaping=0.0)
    shaped = make_single_agent(env_id, opponents=["greedy"], margin_shaping=k)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        plain.reset(seed=seed)
        shaped.reset(seed=seed)
        first = before = margin(shaped)
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(shaped.action_masks())))
            _, r_plain, done, _, info = plain.step(action)
            _, r_shaped, done2, _, info2 = shaped.step(action)
            assert done == done2
            if done:
                np.testing.assert_array_equal(info["scores"], info2["scores"])
            after = margin(shaped)
            assert r_shaped - r_plain == pytest.approx(k * (after - before), abs=1e-9)
            total += r_shaped - r_plain
            before = after
        assert total == pytest.approx(k * (margin(shaped) - first), abs=1e-9)


@pytest.mark.parametrize("bad", [-0.1, float("nan"), float("inf"), True, "0.1"])
def test_bad_margin_shaping_is_refused(bad) -> None:
    with pytest.raises(ConfigError, match="margin_shaping"):
        make_single_agent("jupiter_v0", margin_shaping=bad)


def config(out: Path, **opponents) -> object:
    return parse_config(
        {
            "name": "options",
            "env": {"id": "jupiter_v0", "params": {"num_players": 2}, "margin_shaping": 0.01},
            "algorithm": {"n_envs": 2, "n_steps": 64, "batch_size": 64, "net_arch": [16]},
            "opponents": {"pool": ["random"], "snapshots": {"every_timesteps": 0}, **opponents},
            "budget": {"total_timesteps": 512},
            "eval": {"every_timesteps": 0, "games": 4, "opponents": ["random"]},
            "checkpoints": {"every_timesteps": 0},
            "output": {"dir": str(out), "progress_bar": False, "tensorboard": False},
        }
    )


def test_schedule_swaps_the_pool_at_its_step(tmp_path: Path) -> None:
    cfg = config(tmp_path, schedule=[{"from_timesteps": 256, "pool": ["greedy", "greedy"]}])
    result = train(cfg)
    assert result.timesteps >= 512
    assert (result.run_dir / "model.zip").is_file()
    again = train(config(tmp_path / "b", schedule=[{"from_timesteps": 256, "pool": ["greedy"]}]))
    assert again.timesteps == result.timesteps


def test_schedule_reaches_the_envs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from moon_envs.core import wrappers

    seen: list[list[str]] = []
    original = wrappers.SingleAgentEnv.set_opponents

    def spy(self, opponents):
        seen.append([getattr(o, "name", "?") for o in opponents])
        return original(self, opponents)

    monkeypatch.setattr(wrappers.SingleAgentEnv, "set_opponents", spy)
    train(config(tmp_path, schedule=[{"from_timesteps": 128, "pool": ["greedy"]}]))
    assert seen == [["greedy"], ["greedy"]]  # once per env, when step 128 was reached


@pytest.mark.parametrize(
    ("schedule", "needle"),
    [
        (
            [{"from_timesteps": 5, "pool": ["random"]}, {"from_timesteps": 5, "pool": ["greedy"]}],
            "must increase",
        ),
        ([{"from_timesteps": 0, "pool": ["random"]}], "from_timesteps"),
        ([{"from_timesteps": 5, "pool": []}], "pool"),
        ([{"from_timesteps": 5, "pool": ["nobody"]}], "opponents.schedule.0.pool"),
        ([{"from_timesteps": 5, "pool": ["random"], "extra": 1}], "unknown key"),
    ],
)
def test_bad_schedules_name_the_field(tmp_path: Path, schedule: list, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        config(tmp_path, schedule=schedule)


def test_rllib_refuses_the_sb3_only_options() -> None:
    base = {"env": {"id": "jupiter_v0"}, "algorithm": {"name": "rllib-ppo"}}
    with pytest.raises(ConfigError, match="margin_shaping"):
        parse_config({**base, "env": {"id": "jupiter_v0", "margin_shaping": 0.1}})
    with pytest.raises(ConfigError, match="schedule"):
        parse_config(
            {**base, "opponents": {"schedule": [{"from_timesteps": 9, "pool": ["random"]}]}}
        )


def test_export_keeps_only_what_loads_and_plays_the_same(tmp_path: Path) -> None:
    from moon_agents.evaluation.tournament import tournament

    run = train(config(tmp_path))
    small = export_policy(run.run_dir / "model.zip", tmp_path / "small.zip")
    with zipfile.ZipFile(small) as zf:
        assert sorted(zf.namelist()) == sorted([SIDECAR, WEIGHTS])
    assert small.stat().st_size < (run.run_dir / "model.zip").stat().st_size
    full = tournament("jupiter_v0", [f"ppo:{run.run_dir / 'model.zip'}", "greedy"], 6)
    slim = tournament("jupiter_v0", [f"ppo:{small}", "greedy"], 6)
    assert [g.winners for g in full.games] == [g.winners for g in slim.games]
    with pytest.raises(ConfigError):
        export_policy(tmp_path / "missing.zip", tmp_path / "x.zip")


def test_trained_agents_are_shipped_for_every_game() -> None:
    from moon_agents.evaluation.ladder.lineups import LADDERS
    from moon_agents.zoo import agent_names, make_agent, trained_model
    from moon_envs import make

    for env_id, plan in LADDERS.items():
        env = make(env_id, **plan.env_params)
        game = env.game.spec.name
        assert trained_model(game) is not None, game
        assert "trained" in agent_names(game)
        agent = make_agent("trained", game, seed=0)
        env.reset(seed=0)
        action = agent.act(env.agent_view(env.agent_selection))
        assert env.game_state.legal_actions_mask()[action]
