"""Networks shipped for one variant of a game: ``trained:KEY=N`` (moon_agents.zoo).

Moonstar ships one network per Game it was trained on (``agents/trained/moonstar_game6.npz``
is ``trained:game=6``). Each file must have been trained with the parameter its name
states, the spec brings those parameters to the game, and a wrong or missing variant is
refused naming what exists.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml

from moon_agents import shipped
from moon_agents.base import env_params_of
from moon_agents.cli.main import main
from moon_agents.training.jax.exploit import allowed_specs
from moon_agents.zoo import (
    TRAINED_DIR,
    agent_names,
    make_agent,
    model_path,
    trained_model,
    trained_variants,
    variant_suffix,
)
from moon_envs import ConfigError

GAMES = ("jupiter", "moonstar", "moon_harvesters", "star_master", "moonwakers")
VARIANTS = [(game, spec) for game in GAMES for spec in trained_variants(game)]


def test_moonstar_ships_networks_for_games_6_and_11() -> None:
    assert {"trained:game=6", "trained:game=11"} <= set(trained_variants("moonstar"))
    assert set(trained_variants("moonstar")) <= set(agent_names("moonstar"))
    assert "trained:game=6" in allowed_specs("moonstar")  # exploit's frozen agents


@pytest.mark.parametrize(("game", "spec"), VARIANTS)
def test_each_variant_was_trained_with_the_parameter_its_name_states(game: str, spec: str) -> None:
    key, value = spec.partition(":")[2].split("=")
    agent = make_agent(spec, game, seed=0, name=spec)
    params = env_params_of(agent).params
    assert params[key] == int(value), (spec, params[key])
    assert model_path(spec, game) == TRAINED_DIR / f"{game}_{key}{value}.npz"
    # the game's plain network, where there is one, is another file
    assert trained_model(game) != trained_model(game, spec)


def test_the_variant_brings_its_parameters_to_the_game(capsys: pytest.CaptureFixture) -> None:
    out = io.StringIO()
    argv = ["eval", "moonstar_v1", "--agents", "trained:game=6", "heuristic", "--games", "2"]
    assert main([*argv, "--no-progress"], stdout=out) == 0
    err = capsys.readouterr().err
    assert "trained:game=6: using favourite_star=true, game=6" in err
    assert "'game': 6" in out.getvalue().splitlines()[0]
    # the Game 1 network and the Game 6 one cannot share a table
    code = main(["eval", "moonstar_v1", "--agents", "trained:game=6", "trained", "--games", "2",
                 "--no-progress"], stdout=io.StringIO())  # fmt: skip
    assert code == 2
    assert "trained" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["trained:game", "trained:game=x", "trained:Game=6", "trained:"])
def test_a_malformed_variant_is_refused_naming_the_form(spec: str) -> None:
    with pytest.raises(ConfigError, match=r"written trained:KEY=N, for example 'trained:game=6'"):
        make_agent(spec, "moonstar")
    with pytest.raises(ConfigError, match="trained:KEY=N"):
        variant_suffix(spec)


def test_a_variant_not_shipped_is_refused_naming_those_that_are() -> None:
    with pytest.raises(ConfigError, match=r"no 'trained:game=7' agent is shipped") as info:
        make_agent("trained:game=7", "moonstar")
    assert "variants of moonstar: ['trained:game=6', 'trained:game=11']" in str(info.value)
    assert "moonstar_game6" not in str(info.value)  # the games list holds games only
    with pytest.raises(ConfigError, match="no 'trained:game=6' agent is shipped for game 'jup"):
        make_agent("trained:game=6", "jupiter")


def test_mctx_searches_with_a_variant_network() -> None:
    pytest.importorskip("mctx")
    agent = make_agent("mctx:trained:game=6,simulations=4", "moonstar", seed=0)
    assert env_params_of(agent).params["game"] == 6
    with pytest.raises(ConfigError, match=r"no shipped network 'trained:game=7'.*variants of"):
        make_agent("mctx:trained:game=7,simulations=4", "moonstar")


@pytest.mark.parametrize(("game", "spec"), VARIANTS)
def test_each_variant_comes_from_a_shipped_config(game: str, spec: str) -> None:
    """A shipped config trains it: same env, the variant's parameter, trainer and layers."""

    from moon_agents.net_weights import load_net
    from moon_agents.training.config import load_config

    key, value = spec.partition(":")[2].split("=")
    _, description = load_net(str(trained_model(game, spec)))
    configs = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.yaml"))
    matches = []
    for path in configs:
        raw = yaml.safe_load(path.read_text())["env"]  # full load (slow) for candidates only
        if raw["id"] != description["env_id"] or (raw.get("params") or {}).get(key) != int(value):
            continue
        cfg = load_config(path)
        matches.append((cfg.algorithm.name, list(cfg.algorithm.hidden)))
    assert (description["algorithm"], description["hidden"]) in matches, matches


def test_az_trained_is_the_shipped_network_with_a_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``az:trained,simulations=N``: the game's shipped network with PUCT search at play
    time; the ladder cache hashes that file; a game with only a MaskablePPO policy is
    refused."""
    agent = make_agent("az:trained,simulations=8,c=2", "jupiter", seed=0)
    assert agent.simulations == 8 and agent.name == "az:trained,simulations=8,c=2"
    assert model_path("az:trained,simulations=8", "jupiter") == trained_model("jupiter")
    assert model_path("az:PATH.npz", "jupiter").name == "PATH.npz"  # other paths unchanged
    (tmp_path / "moonwakers.zip").write_bytes(b"")  # a policy, no network
    monkeypatch.setattr(shipped, "TRAINED_DIR", tmp_path)
    with pytest.raises(ConfigError, match=r"no network is shipped for game 'moonwakers'; "):
        make_agent("az:trained", "moonwakers")
