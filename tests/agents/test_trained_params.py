"""Trained agents bring the env parameters they were trained with (moon_agents.seating).

``play``, ``eval``, ``ladder``, ``tournament`` and ``run_ladder`` set the parameters the
user did not give, with a note; a conflicting parameter, player count or second agent is
refused naming the parameters. Every policy format says what it was trained with through
``env_params()``: JAX networks (their weight file), MaskablePPO zips (a JSON sidecar, or
the run folder's config.yaml) and RLlib models (model.json).
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

import moon_envs
from moon_agents.base import EnvParams, env_params_of
from moon_agents.cli.main import main
from moon_agents.evaluation.ladder.run import run_ladder
from moon_agents.evaluation.tournament import tournament
from moon_agents.policy import read_sidecar, sidecar_path, trained_env
from moon_agents.random_agent import RandomAgent
from moon_agents.seating import setup_game
from moon_agents.zoo import TRAINED_DIR, make_agent
from moon_envs import ConfigError
from moon_envs.core.aec import ENV_PARAMS

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue(), capsys.readouterr().err


class NeedsParams(RandomAgent):
    """A random agent that says it needs certain parameters: any format implementing the
    protocol gets them applied."""

    def __init__(self, name: str, env_id: str | None, params: dict, seed: int = 0) -> None:
        super().__init__(seed=seed, name=name)
        self._needs = EnvParams(env_id, params)

    def env_params(self) -> EnvParams:
        return self._needs


# ---- the shipped agents, from the command line --------------------------------------------


@pytest.mark.parametrize(
    ("env_id", "note"),
    [
        ("jupiter_v0", "trained: using line_features=true, as trained"),
        ("moonstar_v1", "trained: using game=1, round_optimum=true, solver_info=false, as trained"),
        ("star_master_v0", "trained: using memory=perfect, as trained"),
    ],
)
def test_play_sets_what_the_shipped_network_was_trained_with(
    env_id: str, note: str, capsys: pytest.CaptureFixture
) -> None:
    argv = ["play", env_id, "--agents", "trained", "random", "--render", "none"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert note in err.splitlines()
    assert out.splitlines()[0].startswith(f"{env_id}: player_0 (trained) vs player_1 (random)")
    assert "final scores:" in out


def test_star_master_ppo_policy_plays_with_the_memory_it_was_trained_with(
    capsys: pytest.CaptureFixture,
) -> None:
    pytest.importorskip("sb3_contrib")
    agent = make_agent("trained-ppo", "star_master", seed=0, name="trained-ppo")
    assert env_params_of(agent) == EnvParams(
        "star_master_v0", {"num_players": 2, "memory": "perfect"}
    )
    # a game built by hand under the default memory="none" is refused, not played weaker
    with pytest.raises(ConfigError, match="pass --param memory=perfect"):
        agent.reset(moon_envs.make("star_master_v0").game, 0)
    agent.reset(moon_envs.make("star_master_v0", memory="perfect").game, 0)
    argv = ["eval", "star_master_v0", "--agents", "trained-ppo", "random", "--games", "2"]
    code, out, err = run([*argv, "--no-progress"], capsys)
    assert code == 0, err
    assert "trained-ppo: using memory=perfect, as trained" in err
    assert out.startswith("star_master_v0 {'num_players': 2, 'memory': 'perfect'}: 2 players")


def test_a_parameter_given_otherwise_is_refused_naming_it(capsys: pytest.CaptureFixture) -> None:
    argv = ["eval", "jupiter_v0", "--agents", "trained", "random", "--games", "2"]
    code, _, err = run([*argv, "--param", "line_features=false"], capsys)
    assert code == 2
    assert err.startswith("error: trained: trained with line_features=True, but ")
    assert "line_features=False was given; pass --param line_features=true" in err
    code, _, err = run(["play", "star_master_v0", "--agents", "random", "trained",
                        "--param", "memory=decay"], capsys)  # fmt: skip
    assert code == 2 and "pass --param memory=perfect" in err


def test_a_player_count_it_was_not_trained_for_is_refused(capsys: pytest.CaptureFixture) -> None:
    code, _, err = run(["play", "jupiter_v0", "--agents", "trained", "random", "random"], capsys)
    assert code == 2
    assert "trained: trained with num_players=2, but 3 agents named (one per seat)" in err
    assert "name 2 agents" in err


def test_two_agents_that_need_different_parameters_are_refused_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    pytest.importorskip("sb3_contrib")
    other = tmp_path / "plain.zip"
    shutil.copy(TRAINED_DIR / "jupiter.zip", other)
    sidecar_path(other).write_text(
        json.dumps({"env_id": "jupiter_v0", "params": {"line_features": False}})
    )
    code, _, err = run(["eval", "jupiter_v0", "--agents", "trained", f"ppo:{other}"], capsys)
    assert code == 2
    assert f"trained and ppo:{other} cannot play in one game" in err
    assert "trained was trained with line_features=True and" in err
    assert "with line_features=False" in err


def test_a_network_of_another_game_is_refused_before_any_game(
    capsys: pytest.CaptureFixture,
) -> None:
    spec = f"az:{TRAINED_DIR / 'jupiter.npz'}"
    code, _, err = run(["eval", "moonstar_v1", "--agents", "random", spec], capsys)
    assert code == 2 and "trained on jupiter_v0; it cannot play moonstar_v1" in err


def test_ladder_sets_them_too(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    argv = ["ladder", "jupiter_v0", "--games", "1", "--out", str(tmp_path), "--no-progress",
            "--only", "random", "trained"]  # fmt: skip
    code, out, err = run([*argv, "--param", "line_features=false"], capsys)
    assert code == 2 and "pass --param line_features=true" in err
    # the published ladder already names it: no note, the same parameters (and cache)
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert "using" not in err
    assert out.startswith("jupiter_v0 {'num_players': 2, 'line_features': True}: 2 players;")


# ---- the Python API --------------------------------------------------------------------------


def test_tournament_and_run_ladder_set_them(tmp_path: Path) -> None:
    notes: list[str] = []
    result = tournament("jupiter_v0", ["trained", "random"], games=2, note=notes.append)
    assert result.env_params == {"num_players": 2, "line_features": True}
    assert result.notes == notes == ["trained: using line_features=true, as trained"]
    assert result.to_json()["notes"] == notes
    ladder = run_ladder("jupiter_v0", {"t": "trained", "r": "random"}, games=1)
    assert ladder.env_params == {"line_features": True}
    assert ladder.notes == ["t: using line_features=true, as trained"]
    with pytest.raises(ConfigError, match="pass --param line_features=true"):
        tournament("jupiter_v0", ["trained", "random"], 2, env_params={"line_features": False})


def test_any_agent_implementing_the_protocol_gets_its_parameters() -> None:
    a = NeedsParams("a", "star_master_v0", {"memory": "decay", "reward_mode": "score"})
    result = tournament("star_master_v0", [a, "random"], games=2)
    assert result.env_params == {"num_players": 2, "memory": "decay"}  # not reward_mode
    assert result.notes == ["a: using memory=decay, as trained"]
    any_game = NeedsParams("b", None, {"num_players": 3})
    setup = setup_game("jupiter_v0", {}, lambda game: [any_game])
    assert setup.num_players == 3 and setup.notes == ["b: using num_players=3, as trained"]
    b = NeedsParams("b", None, {"memory": "perfect"})
    with pytest.raises(ConfigError, match=r"a and b cannot play in one game: a was trained "
                       r"with memory='decay' and b with memory='perfect'"):  # fmt: skip
        tournament("star_master_v0", [a, b], games=2)
    elsewhere = NeedsParams("c", "jupiter_v0", {})
    with pytest.raises(ConfigError, match="c: trained on jupiter_v0; it cannot play star_master"):
        tournament("star_master_v0", [elsewhere, "random"], games=2)


# ---- where each format keeps them -------------------------------------------------------------


def _game_params(config_path: Path) -> tuple[str, dict]:
    env = yaml.safe_load(config_path.read_text())["env"]
    params = {k: v for k, v in env.get("params", {}).items() if k not in ENV_PARAMS}
    return env["id"], params


@pytest.mark.parametrize("zip_path", sorted(TRAINED_DIR.glob("*.zip")), ids=lambda p: p.name)
def test_every_shipped_policy_zip_has_a_sidecar_that_fits_it(zip_path: Path) -> None:
    """The sidecar names the env of the shipped config, and that env's observation and
    actions are the policy's (read from the zip's JSON entry: no torch needed)."""
    side = sidecar_path(zip_path)
    assert side.name == f"{zip_path.name}.json" and side.is_file()
    trained = read_sidecar(side)
    config = ROOT / json.loads(side.read_text())["config"]
    assert (trained.env_id, trained.params) == _game_params(config)
    meta = json.loads(zipfile.ZipFile(zip_path).read("moon_envs_policy.json"))
    env = moon_envs.make(trained.env_id, **trained.params)
    agent = env.possible_agents[0]
    assert list(env.observation_space(agent)["observation"].shape) == meta["observation_shape"]
    assert env.action_space(agent).n == meta["num_actions"]
    assert trained_env(zip_path) == trained


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("[1, 2]", "must hold a JSON object"),
        ('{"env_id": "jupiter_v0"}', "missing field(s) ['params']"),
        ('{"env_id": "jupiter_v0", "params": {}, "extra": 1}', "unknown field(s) ['extra']"),
        ('{"env_id": "nope_v0", "params": {}}', "env_id='nope_v0' is not allowed; allowed: ["),
        ('{"env_id": "jupiter_v0", "params": []}', "params must be a JSON object"),
        ('{"env_id": "jupiter_v0", "params": {"colour": 1}}', "params: unknown parameter"),
        ('{"env_id": "jupiter_v0", "params": {"num_players": 9}}', "num_players=9"),
        ("{not json", "not UTF-8 JSON"),
    ],
)
def test_bad_sidecars_are_refused_naming_the_file_and_field(
    tmp_path: Path, body: str, needle: str
) -> None:
    side = tmp_path / "model.zip.json"
    side.write_text(body)
    with pytest.raises(ConfigError) as err:
        trained_env(tmp_path / "model.zip")
    assert str(err.value).startswith(str(side)) and needle in str(err.value)


def test_a_run_folder_says_what_its_models_were_trained_with(tmp_path: Path) -> None:
    run = tmp_path / "jupiter_ppo_seed0"
    (run / "checkpoints").mkdir(parents=True)
    params = {"num_players": 2, "reward_mode": "win", "line_features": True}
    (run / "config.yaml").write_text(
        yaml.safe_dump({"env": {"id": "jupiter_v0", "params": params}})
    )
    expected = EnvParams("jupiter_v0", params)
    for name in ("model.zip", "checkpoints/step_64.zip"):
        shutil.copy(TRAINED_DIR / "jupiter.zip", run / name)
        assert trained_env(run / name) == expected
    shutil.copy(TRAINED_DIR / "jupiter.zip", run / "renamed.zip")
    assert trained_env(run / "renamed.zip") is None  # not a name the trainer writes
    (run / "config.yaml").write_text("not: [a, training config")
    assert trained_env(run / "model.zip") is None
    # a sidecar comes first
    sidecar_path(run / "model.zip").write_text('{"env_id": "jupiter_v0", "params": {}}')
    assert trained_env(run / "model.zip") == EnvParams("jupiter_v0", {})


def test_rllib_models_say_it_from_model_json() -> None:
    from moon_agents.training.rllib.agent import RllibAgent

    meta = {"env_id": "star_master_v0", "params": {"memory": "perfect"}, "net_arch": [8]}
    agent = RllibAgent(None, meta, name="rl")
    assert env_params_of(agent) == EnvParams("star_master_v0", {"memory": "perfect"})
    with pytest.raises(ConfigError, match="rl: trained on star_master_v0 with memory='perfect'"):
        agent.reset(moon_envs.make("star_master_v0").game, 0)
    with pytest.raises(ConfigError, match="rl: trained on star_master_v0; it cannot play jupiter"):
        agent.reset(moon_envs.make("jupiter_v0").game, 0)
    setup = setup_game("star_master_v0", {}, lambda game: [agent])
    assert setup.params == {"memory": "perfect"}


def test_networks_say_it_from_their_weight_file() -> None:
    agent = make_agent("trained", "jupiter", seed=0, name="trained")
    needs = env_params_of(agent)
    assert needs.env_id == "jupiter_v0" and needs.params["line_features"] is True
    assert needs.params["num_players"] == 2


def test_a_trainers_evaluation_keeps_the_training_env() -> None:
    """The learner is evaluated on the env it trains on: an opponent trained with other
    parameters is refused there, not given its own (which would change the learner's
    game without a word)."""
    from types import SimpleNamespace

    from moon_agents.evaluation.tournament import evaluate_learner

    env = SimpleNamespace(id="star_master_v0", params={"num_players": 2, "reward_mode": "win"})
    cfg = SimpleNamespace(env=env, eval=SimpleNamespace(games=2, opponents=["random"]), seed=0)
    learner = RandomAgent(seed=0, name="learner")
    assert set(evaluate_learner(cfg, learner, str)) == {"random"}
    cfg.eval.opponents = ["random", "trained"]
    with pytest.raises(ConfigError) as err:
        evaluate_learner(cfg, learner, str)
    assert str(err.value) == (
        "trained: trained with memory='perfect', but the training env has memory='none'; "
        "it cannot play there"
    )


def test_make_game_sets_up_env_and_agents_from_python() -> None:
    from moon_agents.evaluation.tournament import play_game
    from moon_agents.seating import make_game

    game = make_game("star_master_v0", ["trained", "random"], seed=3)
    assert game.params == {"num_players": 2, "memory": "perfect"}
    assert game.notes == ["trained: using memory=perfect, as trained"]
    assert [a.name for a in game.agents] == ["trained", "random"]
    scores, _, _ = play_game(game.env, game.agents, seed=0)
    assert len(scores) == 2
    with pytest.raises(ConfigError, match="pass --param memory=perfect"):
        make_game("star_master_v0", ["trained", "random"], memory="decay")
