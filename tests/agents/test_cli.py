"""Every ``moon-envs`` subcommand through ``moon_agents.cli.main.main``; bad input exits with status
2."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from moon_agents.cli.main import main, parse_params, parse_value

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], stdin: io.StringIO | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=stdin, stdout=out)
    return code, out.getvalue()


class CyclingInput(io.StringIO):
    """A fake terminal that answers every prompt with the next of 0, 1, 2, ... (wrapping).

    Illegal answers are rejected and asked again, so every legal move is reached.
    """

    def __init__(self, num_actions: int) -> None:
        super().__init__()
        self.n = num_actions
        self.i = 0
        self.lines = 0

    def readline(self, *args) -> str:  # type: ignore[override]
        self.lines += 1
        answer = "not-a-number" if self.lines == 1 else str(self.i % self.n)
        if self.lines > 1:
            self.i += 1
        return answer + "\n"


def test_parse_values() -> None:
    assert parse_value("3") == 3 and parse_value("0.5") == 0.5
    assert parse_value("true") is True and parse_value("None") is None
    assert parse_value("score") == "score"
    assert parse_params(["num_players=3", "black_moons=yes"]) == {
        "num_players": 3,
        "black_moons": True,
    }


def test_list() -> None:
    code, out = run(["list", "--params"])
    assert code == 0
    assert "jupiter_v0" in out
    assert "agents: greedy, heuristic, mcts, random, trained, trained-ppo, ppo:PATH, az:PATH" in out
    assert "num_players" in out


def test_play_between_agents() -> None:
    code, out = run(["play", "jupiter_v0", "--agents", "random", "greedy", "--seed", "3"])
    assert code == 0
    assert "player_0 (random) vs player_1 (greedy)" in out
    assert "final scores:" in out and "winner(s):" in out
    _, out2 = run(["play", "jupiter_v0", "--agents", "random", "greedy", "--seed", "3"])
    assert out2 == out  # seeded: the same game again


def test_a_game_nobody_wins_says_none() -> None:
    """A lost Star Master solitaire has no winner: the last line says so, after the scores."""
    code, out = run(["play", "star_master_v0", "--param", "num_players=1", "--param",
                     "solitaire=true", "--render", "none", "--seed", "0"])  # fmt: skip
    assert code == 0
    tail = out.rstrip().splitlines()[-2:]
    assert tail[0].startswith("final scores: player_0 (random) ")
    assert tail[1] == "winner(s): none"


def test_play_three_players_with_params() -> None:
    argv = ["play", "jupiter_v0", "--agents", "greedy", "random", "greedy", "--render", "none"]
    code, out = run([*argv, "--param", "num_players=3"])  # agreeing with the 3 agents
    assert code == 0
    assert "player_2 (greedy)" in out and "final scores:" in out
    # without --agents every seat plays random, at num_players
    code, out = run(["play", "jupiter_v0", "--param", "num_players=3", "--render", "none"])
    assert code == 0 and "player_2 (random)" in out


def test_play_human_from_fake_stdin() -> None:
    inp = CyclingInput(33)
    code, out = run(
        ["play", "jupiter_v0", "--agents", "greedy", "--human", "1", "--seed", "0"], stdin=inp
    )
    assert code == 0
    assert "player_1 (human)" in out
    assert "Your move (player_1)." in out and "Legal moves:" in out
    assert "'not-a-number' names no legal move" in out
    assert "nearest legal moves:" in out
    assert "player_1 (human): " in out  # the human's moves were played
    assert "final scores:" in out


def test_play_human_quits_and_eof() -> None:
    code, out = run(["play", "jupiter_v0", "--human", "0"], stdin=io.StringIO("q\n"))
    assert code == 1 and "game abandoned" in out
    code, _ = run(["play", "jupiter_v0", "--human", "0"], stdin=io.StringIO(""))
    assert code == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "nope_v0"], "registered ids"),
        (
            ["play", "jupiter_v0", "--agents", "bogus", "random"],
            "allowed: ['greedy', 'heuristic', 'mcts', 'random', 'trained', 'trained-ppo']",
        ),
        (
            ["play", "jupiter_v0", "--agents", *["random"] * 5],
            "5 agents named (one per seat), but jupiter_v0 seats 2..4 players; name 2..4 agents",
        ),
        (
            ["play", "jupiter_v0", "--agents", "random"],
            "1 agent named (one per seat), but jupiter_v0 seats 2..4 players",
        ),
        (
            ["play", "jupiter_v0", "--agents", "random", "random", "--param", "num_players=3"],
            "2 agents named (one per seat), but num_players=3 was given: name 3 agents",
        ),
        (
            [
                "play",
                "jupiter_v0",
                "--agents",
                "random",
                "--human",
                "0",
                "--param",
                "num_players=3",
            ],
            "name 2 agents besides --human",
        ),
        (
            ["eval", "moonstar_v1", "--agents", *["random"] * 9],
            "but moonstar_v1 seats 2..8 players; name 2..8 agents",
        ),
        (["play", "jupiter_v0", "--param", "num_players=9"], "num_players=9"),
        (["play", "jupiter_v0", "--param", "colour=red"], "valid parameters"),
        (["play", "jupiter_v0", "--param", "oops"], "KEY=VALUE"),
        (["play", "jupiter_v0", "--human", "5"], "allowed: 0..1"),
        (["eval", "jupiter_v0", "--agents", "random"], "at least two agents, one per seat"),
        (["eval", "jupiter_v0", "--agents", "random", "ppo:/no/such.zip"], "does not exist"),
        (["bench", "nope_v0", "--seconds", "0.1"], "registered ids"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture
) -> None:
    code, _ = run(argv)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err


def test_eval_writes_table_and_files(tmp_path: Path) -> None:
    code, out = run(
        [
            "eval",
            "jupiter_v0",
            "--agents",
            "random",
            "greedy",
            "--games",
            "20",
            "--out",
            str(tmp_path),
            "--no-progress",
        ]
    )
    assert code == 0
    head = out.splitlines()
    assert head[0] == "jupiter_v0 {'num_players': 2}: 2 players, 20 games, seats rotated, seed 0"
    assert head[1].startswith("Seating: one agent per seat, seats rotated")
    assert head[2] == "Game 0: seat 0 random, seat 1 greedy."
    assert head[3] == "Games in seats 0/1: random 10/10; greedy 10/10."
    assert "| Agent | Games |" in out and "| greedy | 20 |" in out
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["num_games"] == 20
    assert (tmp_path / "win_rates.png").is_file()


def test_bench_runs_and_prints_ratio() -> None:
    code, out = run(["bench", "jupiter_v0", "--seconds", "0.05", "--repeats", "2"])
    assert code == 0
    assert "jupiter_v0" in out and "agent-steps/s" in out
    pytest.importorskip("pettingzoo.classic.connect_four_v3")
    assert "connect_four_v3" in out and "x connect_four_v3" in out


def test_train_from_yaml(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(
        "name: cli_smoke\n"
        "algorithm: {n_envs: 2, n_steps: 32, batch_size: 32, n_epochs: 1, net_arch: [16]}\n"
        "opponents: {pool: [random], snapshots: {every_timesteps: 64}}\n"
        "eval: {every_timesteps: 0, games: 4, opponents: [random]}\n"
        "checkpoints: {every_timesteps: 0}\n"
        "output: {tensorboard: false}\n"
    )
    code, out = run(
        ["train", str(cfg), "--out", str(tmp_path / "runs"), "--timesteps", "128", "--no-progress"]
    )
    assert code == 0, capsys.readouterr().err
    assert "run folder:" in out and "final win rate vs random" in out
    model = tmp_path / "runs" / "cli_smoke_seed0" / "model.zip"
    assert model.is_file()
    code, out = run(
        ["play", "jupiter_v0", "--agents", f"ppo:{model}", "random", "--render", "none"]
    )
    assert code == 0 and "final scores:" in out


def test_train_bad_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("algorithm:\n  n_steps: -4\n  colour: blue\n")
    code, _ = run(["train", str(cfg)])
    assert code == 2
    err = capsys.readouterr().err
    assert "algorithm.n_steps" in err and "algorithm.colour: unknown key" in err
    assert "Traceback" not in err


def test_list_play_bench_do_not_import_torch() -> None:
    import subprocess
    import sys

    code = (
        "import io, sys\n"
        "from moon_agents.cli.main import main\n"
        "for argv in (['list'], ['play', 'jupiter_v0', '--render', 'none'],\n"
        "             ['bench', 'jupiter_v0', '--seconds', '0.02', '--repeats', '1']):\n"
        "    assert main(argv, stdout=io.StringIO()) == 0\n"
        "heavy = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr


def test_bench_without_connect_four_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import moon_agents.benchmarks.speed

    monkeypatch.setattr(moon_agents.benchmarks.speed, "reference_factory", lambda: None)
    code, out = run(["bench", "jupiter_v0", "--seconds", "0.05", "--repeats", "1"])
    assert code == 0
    assert 'pip install "moon-envs[bench]"' in out
    assert "jupiter_v0" in out and "n/a" in out


def test_play_human_does_not_see_sealed_side_bets() -> None:
    # Game 11: side bets are sealed; the person at seat 0 sees that others bet, not how
    argv = ["play", "moonstar_v1", "--agents", "random", "random", "--human", "0", "--seed", "2"]
    argv += ["--param", "game=11", "--param", "num_players=3", "--param", "max_rounds=3"]
    code, out = run(argv, stdin=CyclingInput(189))
    assert code == 0 and "final scores:" in out
    others = [ln for ln in out.splitlines() if ln.startswith(("player_1 (", "player_2 ("))]
    assert any(ln.endswith(": a sealed side bet") for ln in others)
    assert not any("side bet " in ln and " on " in ln for ln in others)
    # a spectator (no --human) sees every bet
    code, out = run(["play", "moonstar_v1", "--agents", "random", "random", "random", "--seed",
                     "2", "--render", "none", "--param", "game=11", "--param", "num_players=3",
                     "--param", "max_rounds=3"])  # fmt: skip
    assert code == 0 and "sealed" not in out and " of score on " in out


def test_player_count_follows_the_agents_named() -> None:
    code, out = run(["play", "moonstar_v1", "--agents", "oracle", "heuristic", "random",
                     "--seed", "1", "--render", "none", "--param", "max_rounds=2"])  # fmt: skip
    assert code == 0
    assert out.splitlines()[0].startswith(
        "moonstar_v1: player_0 (oracle) vs player_1 (heuristic) vs player_2 (random)"
    )
    assert re.search(r"moon \d+ on star \d+, die \d+ \(face [1-6]\), \w+ -> star \d+: \+\d+", out)
    assert "== round 1 over" in out or "== round 1: nobody bid" in out


def test_param_takes_lists_and_mappings() -> None:
    assert parse_value("[3,5,8]") == [3, 5, 8]
    assert parse_value('{"a": [1, 2]}') == {"a": [1, 2]}
    assert parse_value("[L, X]") == ["L", "X"]  # YAML's safe subset
    assert parse_params(["shapes=[L, X]"]) == {"shapes": ["L", "X"]}
    code, out = run(["play", "moon_harvesters_v0", "--seed", "0", "--render", "none",
                     "--param", "shapes=[I, X]"])  # fmt: skip
    assert code == 0 and "take harvester kind I" in out


def test_list_env_prints_the_page_and_every_parameter(capsys: pytest.CaptureFixture) -> None:
    import dataclasses

    import moon_envs

    for env_id in moon_envs.list_envs():
        code, out = run(["list", env_id])
        assert code == 0
        assert moon_envs.get_entry(env_id).doc.splitlines()[0] in out
        config = moon_envs.get_entry(env_id).env_class().game_class.config_class
        params = out.split("Parameters (name = default: allowed values)")[1]
        for f in dataclasses.fields(config):
            assert re.search(rf"^  {f.name} = .+: .+", params, re.M), f.name
        assert '  illegal_action = "raise": "raise"' in params
    assert "num_players = 2: 2, 3 or 4." in run(["list", "jupiter_v0"])[1]
    jupiter = run(["list", "jupiter_v0"])[1]
    assert "num_probes = 6: probes per player (6 in the published game). Allowed: an " \
        "integer 1..12." in jupiter  # fmt: skip
    code, _ = run(["list", "nope_v0"])
    assert code == 2 and "registered ids" in capsys.readouterr().err


def test_list_env_gives_the_allowed_values_of_every_int_and_bool_parameter() -> None:
    """Read from the config's own checks (``recording_allowed_values``), or written in the
    parameter's description as a range."""
    import dataclasses

    import moon_envs

    for env_id in moon_envs.list_envs():
        out = run(["list", env_id])[1].split("Parameters (name = default: allowed values)")[1]
        config = moon_envs.get_entry(env_id).env_class().game_class.config_class
        for f in dataclasses.fields(config):
            if str(f.type) not in ("int", "bool", "float"):
                continue
            line = re.search(rf"^  {f.name} = .*$", out, re.M).group(0)
            assert "Allowed:" in line or re.search(r"\d\.\.\d", line), (env_id, line)


def test_moonstar_planets_param_as_a_list() -> None:
    code, out = run(["play", "moonstar_v1", "--agents", "random", "random", "--seed", "0",
                     "--render", "none", "--param", "planets=[3,5,8]", "--param", "num_players=2",
                     "--param", "max_rounds=1"])  # fmt: skip
    assert code == 0 and "final scores:" in out


def test_train_interrupted_on_cuda_less_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sb3_contrib")
    import torch

    import moon_agents.training.train as train_module

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: 'cuda' is honoured")
    built = train_module.build_model

    def build_then_interrupt(*args, **kwargs):
        model = built(*args, **kwargs)
        learn = model.learn

        def learn_then_ctrl_c(total_timesteps, callback=None, **kw):
            learn(total_timesteps=64, callback=callback, **kw)
            raise KeyboardInterrupt

        model.learn = learn_then_ctrl_c
        return model

    monkeypatch.setattr(train_module, "build_model", build_then_interrupt)
    cfg = tmp_path / "cuda.yaml"
    cfg.write_text(
        "name: ctrl_c\n"
        "algorithm: {n_envs: 2, n_steps: 32, batch_size: 32, n_epochs: 1, net_arch: [16], "
        "device: cuda}\n"
        "opponents: {pool: [random]}\n"
        "eval: {every_timesteps: 0, games: 2, opponents: [random]}\n"
        "checkpoints: {every_timesteps: 0}\n"
        "output: {tensorboard: false}\n"
    )
    with pytest.warns(RuntimeWarning, match="torch sees no GPU; training on the CPU"):
        code, out = run(["train", str(cfg), "--out", str(tmp_path), "--no-progress"])
    assert code == 0
    run_dir = tmp_path / "ctrl_c_seed0"
    assert "training interrupted (Ctrl-C) at 64 timesteps" in out and str(run_dir) in out
    assert "(device: cpu)" in out
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["interrupted"] is True and summary["device"] == "cpu"
    assert (run_dir / "model.zip").is_file()


def test_a_text_parameter_keeps_the_word_typed() -> None:
    """``memory=none`` is Star Master's mode "none", not Python's None; a parameter that
    takes None (Moon Harvesters' ``rows``) still reads ``none`` as None."""
    from moon_agents.cli.usage import parse_params

    params = parse_params(["memory=none", "num_players=2", "race_winner=first"], "star_master_v0")
    assert params == {"memory": "none", "num_players": 2, "race_winner": "first"}
    assert parse_params(["rows=none"], "moon_harvesters_v0") == {"rows": None}
    argv = ["play", "star_master_v0", "--agents", "random", "random", "--render", "none"]
    code, out = run([*argv, "--param", "memory=none", "--param", "max_turns=4"])
    assert code == 0, out
