"""The ``imitation`` trainer: the oracle's targets, the labelled data rounds, networks that
read input features after the observation, and the config's refusals.

The shipped config trains end to end (shrunk) in ``tests/agents/test_shipped_configs.py``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

import moon_envs
from moon_agents.base import AgentView
from moon_agents.heuristics.moonstar import MoonstarOracleAgent
from moon_agents.net_agent import NetAgent
from moon_agents.net_weights import array_shapes, load_net, save_net
from moon_agents.training.config import load_config, parse_config
from moon_agents.training.imitation_data import RoundSpec, play_round
from moon_envs import ConfigError
from moon_envs.moonstar import solver
from moon_envs.moonstar.landing import num_landing_values

ROOT = Path(__file__).resolve().parents[2]
PARAMS = {"game": 1, "num_players": 2, "solver_info": False, "round_optimum": True}


def _play_positions(seed: int, count: int):
    """The first ``count`` play-phase positions of a random Game 1 game."""
    g = moon_envs.make("moonstar_v1", **PARAMS).game
    st = g.new_initial_state()
    rng = np.random.default_rng(seed)
    found = []
    while not st.is_terminal() and len(found) < count:
        if st.is_chance_node():
            outcomes, probs = zip(*st.chance_outcomes())
            st.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if st.phase == "play":
            found.append(st.clone())
        st.apply_action(int(rng.choice(np.flatnonzero(st.legal_actions_mask()))))
    return found


def test_the_oracles_targets_are_exactly_the_moves_keeping_the_round_optimum() -> None:
    oracle = MoonstarOracleAgent(seed=0)
    checked = 0
    for st in _play_positions(seed=4, count=12):
        seat = st.current_player()
        view = AgentView.of(st, seat)
        best = oracle.best_actions(view)
        optimum = solver.solve(st.situation(), with_plan=False).total
        for a in np.flatnonzero(st.legal_actions_mask()).tolist():
            after = st.clone()
            after.apply_action(a)
            if after.phase == "play" and after.round_no == st.round_no:
                rest = solver.solve(after.situation(), with_plan=False).total
                reached = after.round_total - st.round_total + rest
                assert (reached == optimum) == (a in best), (a, reached, optimum)
                checked += 1
        assert best and oracle.act(view) in best
    assert checked > 100


def test_a_data_round_labels_every_position_the_same_in_one_or_two_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from moon_agents.training import imitation_data

    monkeypatch.setattr(imitation_data, "CHUNK_GAMES", 1)  # two chunks: one per process
    spec = RoundSpec(
        env_id="moonstar_v1",
        params=PARAMS,
        teacher="oracle",
        opponents=("heuristic", "random"),
        seed=11,
        explore=0.5,
        learner_share=1.0,
        network=None,
    )
    reported: list[int] = []
    one = play_round(spec, games=2, workers=1, report=reported.append)
    two = play_round(spec, games=2, workers=2)
    assert len(reported) == 2 and 0 < reported[0] < reported[1] == len(one)
    for field in ("observation", "mask", "target", "outcome"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))
    assert len(one) > 100
    assert (one.target.sum(1) >= 1).all() and not (one.target & ~one.mask).any()
    assert set(np.unique(one.outcome).tolist()) <= {-1, 0, 1} and one.outcome.any()


def _feature_network(tmp_path: Path) -> Path:
    game = moon_envs.make("moonstar_v1", **PARAMS).game
    obs = game.spec.observation_shape[0]
    d = {
        "algorithm": "imitation",
        "env_id": "moonstar_v1",
        "game": "moonstar",
        "game_config": json.loads(json.dumps(dataclasses.asdict(game.config))),
        "observation_size": obs,
        "num_actions": game.spec.num_actions,
        "hidden": [16],
        "activation": "relu",
        "input_features": ["landing_values"],
        "input_size": obs + num_landing_values(game),
    }
    rng = np.random.default_rng(0)
    shapes = array_shapes(d["input_size"], d["num_actions"], d["hidden"])
    arrays = {k: rng.normal(size=s).astype(np.float32) for k, s in shapes.items()}
    return save_net(tmp_path / "net.npz", arrays, d)


def test_a_network_reads_the_landing_values_after_the_observation(tmp_path: Path) -> None:
    path = _feature_network(tmp_path)
    agent = NetAgent.load(path)
    env = moon_envs.make("moonstar_v1", **PARAMS)
    env.reset(seed=2)
    agent.reset(env.game, 0)
    rng = np.random.default_rng(2)
    compared = 0
    while env.agents and compared < 5:
        name = env.agent_selection
        view = env.agent_view(name)
        if env.game_state.phase == "play":
            move = agent.act(view)
            assert view.action_mask[move]
            with pytest.raises(ConfigError, match="evaluate\\(observation, action_mask\\)"):
                NetAgent.load(path).evaluate(view.observation)  # no mask, no game met
            compared += 1
        env.step(int(rng.choice(np.flatnonzero(view.action_mask))))
    assert compared == 5
    _, description = load_net(path)
    assert description["input_features"] == ["landing_values"]


def test_a_wrong_input_size_or_feature_is_refused_by_name(tmp_path: Path) -> None:
    path = _feature_network(tmp_path)
    arrays, d = load_net(path)
    bad = {**d, "input_size": d["input_size"] - 1}
    bad.pop("format"), bad.pop("version")
    small = {**arrays, "trunk.0.weight": arrays["trunk.0.weight"][:, :-1]}
    save_net(tmp_path / "short.npz", small, bad)
    with pytest.raises(ConfigError, match="'input_size' is .*allowed: " + str(d["input_size"])):
        load_net(tmp_path / "short.npz")
    other = {**d, "input_features": ["line_features"]}
    other.pop("format"), other.pop("version")
    save_net(tmp_path / "other.npz", arrays, other)
    with pytest.raises(ConfigError, match="allowed for moonstar: \\['landing_values'\\]"):
        load_net(tmp_path / "other.npz")


def _imitation(**algorithm) -> dict:
    raw = load_config(ROOT / "configs" / "moonstar_imitation.yaml").to_dict()
    raw["algorithm"].update(algorithm)
    return raw


def test_the_config_refuses_what_imitation_cannot_do() -> None:
    with pytest.raises(ConfigError, match=r"algorithm\.init_from: the imitation trainer trains"):
        parse_config(_imitation(init_from="agents/trained/moonstar.npz"))
    with pytest.raises(ConfigError, match=r"algorithm\.teacher: 'nobody'"):
        parse_config(_imitation(teacher="nobody"))
    with pytest.raises(ConfigError, match=r"algorithm\.workers"):
        parse_config(_imitation(workers=0))
    raw = _imitation()
    raw["env"] = {"id": "jupiter_v0", "params": {"num_players": 2}}
    raw["algorithm"]["teacher"] = "greedy"
    raw["algorithm"]["opponents"] = ["greedy"]
    raw["eval"]["opponents"] = ["greedy"]
    with pytest.raises(ConfigError, match="'landing_values' is defined for moonstar, not jupiter"):
        parse_config(raw)


def test_an_imitation_run_is_not_resumed(tmp_path: Path) -> None:
    from moon_agents.training.jax.run import train_jax

    cfg = parse_config(_imitation())
    with pytest.raises(ConfigError, match=r"--resume .*keeps no resume state; rerun"):
        train_jax(cfg, progress=False, resume=tmp_path)


def test_the_twin_plays_a_frozen_feature_network_as_the_numpy_agent_does(tmp_path: Path) -> None:
    """``jax_ppo``'s frozen opponent (``exploit --agent trained``) computes the landing
    values on the twin: the same logits as the numpy agent, position by position."""
    jnp = pytest.importorskip("jax.numpy")
    import jax

    from moon_agents.training.jax.network import FeatureInputNet, opponent_network

    path = _feature_network(tmp_path)
    frozen = opponent_network(str(path))
    assert isinstance(frozen, FeatureInputNet)
    agent = NetAgent.load(path)
    env = moon_envs.make("moonstar_v1", **PARAMS)
    env.reset(seed=5)
    agent.reset(env.game, 0)
    rng = np.random.default_rng(5)
    observations, masks = [], []
    while env.agents and len(observations) < 30:
        seen = env.observe(env.agent_selection)
        observations.append(seen["observation"])
        masks.append(seen["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    logits, _ = jax.vmap(frozen)(jnp.asarray(np.stack(observations)), jnp.asarray(np.stack(masks)))
    for row, (obs, mask) in enumerate(zip(observations, masks)):
        want, _ = agent.evaluate(obs, mask)
        np.testing.assert_allclose(np.asarray(logits[row]), want, rtol=1e-4, atol=1e-4)
    assert any(np.asarray(m)[env.game.a_move :].any() for m in masks)  # moves among them
