"""Network weight files (``.npz`` + JSON description): round trips, the numpy forward
pass, and the refusal of malformed, hostile or mismatched files."""

from __future__ import annotations

import io
import json
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

import moon_envs
from moon_agents.net_agent import NetAgent, parse_spec
from moon_agents.net_weights import DESCRIPTION, array_shapes, load_net, save_net
from moon_agents.zoo import make_agent
from moon_envs import ConfigError

MiB = 1 << 20


def _description(**changes) -> dict:
    game = moon_envs.make("jupiter_v0", line_features=True).game
    import dataclasses

    d = {
        "algorithm": "alphazero",
        "env_id": "jupiter_v0",
        "game": "jupiter",
        "game_config": json.loads(json.dumps(dataclasses.asdict(game.config))),
        "observation_size": 206,
        "num_actions": 33,
        "hidden": [16, 8],
        "activation": "relu",
    }
    d.update(changes)
    return d


def _arrays(d: dict, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    shapes = array_shapes(d["observation_size"], d["num_actions"], d["hidden"])
    return {k: rng.normal(size=s).astype(np.float32) for k, s in shapes.items()}


@pytest.fixture
def weights(tmp_path: Path) -> Path:
    d = _description()
    return save_net(tmp_path / "net.npz", _arrays(d), d)


def _rewrite(src: Path, dst: Path, replace: dict[str, bytes | None]) -> Path:
    """``src`` with members replaced (bytes) or removed (None), or added."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in zin.namelist():
            if name in replace:
                continue
            zout.writestr(name, zin.read(name))
        for name, data in replace.items():
            if data is not None:
                zout.writestr(name, data)
    return dst


def _npy(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=True)
    return buf.getvalue()


def test_round_trip(weights: Path) -> None:
    d = _description()
    arrays, description = load_net(weights)
    assert description["hidden"] == [16, 8] and description["format"] == "moon-envs-net"
    for name, arr in _arrays(d).items():
        np.testing.assert_array_equal(arrays[name], arr)


def test_numpy_forward_matches_the_equinox_network() -> None:
    pytest.importorskip("equinox")
    import jax

    from moon_agents.training.jax.network import PolicyValueNet, from_arrays, to_arrays

    for activation in ("relu", "tanh", "gelu", "silu"):
        net = PolicyValueNet(206, 33, [16, 8], activation, jax.random.key(3))
        agent = NetAgent(to_arrays(net), _description(activation=activation))
        obs = np.random.default_rng(1).normal(size=206).astype(np.float32)
        logits, value = net(obs)
        np_logits, np_value = agent.evaluate(obs)
        np.testing.assert_allclose(np_logits, np.asarray(logits), rtol=1e-4, atol=1e-5)
        assert abs(np_value - float(value)) < 1e-5
        again = from_arrays(to_arrays(net), 206, 33, [16, 8], activation)
        np.testing.assert_array_equal(np.asarray(again(obs)[0]), np.asarray(logits))


def test_plays_legal_moves_in_the_python_env(weights: Path) -> None:
    agent = make_agent(f"az:{weights}", "jupiter", seed=0)
    env = moon_envs.make("jupiter_v0", line_features=True)
    env.reset(seed=0)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        view = env.agent_view(name)
        action = agent.act(view)
        assert obs["action_mask"][action] == 1
        env.step(action)


@pytest.mark.parametrize(
    "change, words",
    [
        ({"format": "other"}, "format"),
        ({"version": 2}, "version"),
        ({"algorithm": "dqn"}, "algorithm"),
        ({"activation": "sigmoid"}, "activation"),
        ({"hidden": []}, "hidden"),
        ({"hidden": [16, True]}, "hidden"),
        ({"hidden": [100000]}, "hidden"),
        ({"observation_size": 0}, "observation_size"),
        ({"num_actions": "33"}, "num_actions"),
        ({"hidden": [4096] * 16}, "parameters"),
        ({"game_config": []}, "game_config"),
        ({"env_id": ""}, "env_id"),
    ],
)
def test_bad_descriptions_are_refused(weights: Path, tmp_path: Path, change, words) -> None:
    d = {"format": "moon-envs-net", "version": 1, **_description(), **change}
    bad = _rewrite(weights, tmp_path / "bad.npz", {DESCRIPTION: json.dumps(d).encode()})
    with pytest.raises(ConfigError, match=words):
        load_net(bad)


def test_malformed_files_are_refused(weights: Path, tmp_path: Path) -> None:
    cases = {
        "no description": {DESCRIPTION: None},
        "not JSON": {DESCRIPTION: b"{not json"},
        "extra array": {"extra.npy": _npy(np.zeros(3, np.float32))},
        "missing array": {"value.bias.npy": None},
        "wrong shape": {"value.bias.npy": _npy(np.zeros(2, np.float32))},
        "wrong dtype": {"value.bias.npy": _npy(np.zeros(1, np.float64))},
        "object array": {"value.bias.npy": _npy(np.array([object()], dtype=object))},
        "NaN": {"value.bias.npy": _npy(np.array([np.nan], np.float32))},
        "not npy": {"value.bias.npy": b"\x00" * 16},
    }
    for label, replace in cases.items():
        bad = _rewrite(weights, tmp_path / f"{label}.npz", replace)
        with pytest.raises(ConfigError, match="weights file"):
            load_net(bad)
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ConfigError, match="not a weights file"):
        load_net(tmp_path / "text.npz")
    with pytest.raises(ConfigError, match="does not exist"):
        load_net(tmp_path / "missing.npz")
    with pytest.raises(ConfigError, match="not a regular file"):
        load_net(tmp_path)


def test_a_zip_bomb_is_cut_off_at_the_known_size(weights: Path, tmp_path: Path) -> None:
    """A member that inflates to 256 MiB is refused after reading at most its array's
    size: the memory used stays far below what it declares."""
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(weights) as zin, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        for name in zin.namelist():
            if name != "trunk.0.weight.npy":
                z.writestr(name, zin.read(name))
        with z.open("trunk.0.weight.npy", "w", force_zip64=True) as f:
            chunk = b"\x00" * MiB
            for _ in range(256):
                f.write(chunk)
    assert bomb.stat().st_size < 2 * MiB
    tracemalloc.start()
    try:
        with pytest.raises(ConfigError, match=r"trunk\.0\.weight"):
            load_net(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MiB


def test_mismatched_games_are_refused_with_the_params_to_pass(weights: Path) -> None:
    agent = NetAgent.load(weights)
    plain = moon_envs.make("jupiter_v0").game
    with pytest.raises(ConfigError, match="--param line_features=true"):
        agent.reset(plain, 0)
    other = moon_envs.make("moon_harvesters_v0").game
    with pytest.raises(ConfigError, match="cannot play moon_harvesters"):
        agent.reset(other, 0)
    agent.reset(moon_envs.make("jupiter_v0", line_features=True).game, 0)
    with pytest.raises(ConfigError, match="observation of 158 values"):
        agent.evaluate(np.zeros(158, np.float32))


def test_spec_fields() -> None:
    assert parse_spec("az:runs/a,b/model.npz,simulations=8,c=2") == (
        "runs/a,b/model.npz",
        {"simulations": 8, "c": 2.0},
    )
    assert parse_spec("jppo:model.npz") == ("model.npz", {})
    for bad, words in [
        ("az:", "no weights file"),
        ("az:m.npz,simulations=x", "simulations"),
        ("az:m.npz,simulations=0", "simulations"),
        ("az:m.npz,c=-1", "c must"),
    ]:
        with pytest.raises(ConfigError, match=words):
            parse_spec(bad)
