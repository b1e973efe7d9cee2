"""Progress bars of ``train``, ``eval``, ``ladder`` and ``bench``: ``--progress`` draws a
tqdm bar on stderr even when it is not a terminal, ``--no-progress`` never, and by default
only a terminal gets one; the bars count games, measurements and timesteps."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from moon_agents.cli.main import build_parser, main
from moon_agents.evaluation.ladder.run import run_ladder
from moon_agents.progress import CountBar, resolve

ROOT = Path(__file__).resolve().parents[2]
TINY_TRAINING = (
    "name: progress_smoke\n"
    "algorithm: {n_envs: 2, n_steps: 32, batch_size: 32, n_epochs: 1, net_arch: [16]}\n"
    "opponents: {pool: [random], snapshots: {every_timesteps: 0}}\n"
    "eval: {every_timesteps: 0, games: 2, opponents: [random]}\n"
    "checkpoints: {every_timesteps: 0}\n"
    "output: {tensorboard: false, plot: false, progress_bar: %s}\n"
)


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def command(name: str, tmp_path: Path) -> list[str]:
    """A tiny run of ``name`` (a few seconds at most)."""
    if name == "train":
        pytest.importorskip("sb3_contrib")
        cfg = tmp_path / "tiny.yaml"
        cfg.write_text(TINY_TRAINING % "true")
        return ["train", str(cfg), "--out", str(tmp_path / "runs"), "--timesteps", "128"]
    if name == "eval":
        return ["eval", "jupiter_v0", "--agents", "random", "greedy", "--games", "2"]
    if name == "ladder":
        return ["ladder", "jupiter_v0", "--games", "2", "--only", "random", "greedy",
                "--out", str(tmp_path / "ladder")]  # fmt: skip
    return ["bench", "star_master_v0", "--seconds", "0.05", "--repeats", "1"]


COMMANDS = ["train", "eval", "ladder", "bench"]


@pytest.mark.parametrize("name", COMMANDS)
def test_one_flag_pair_on_every_long_command(name: str) -> None:
    parser = build_parser()
    argv = {"train": ["train", "c.yaml"], "eval": ["eval", "jupiter_v0", "--agents", "a", "b"],
            "ladder": ["ladder", "jupiter_v0"], "bench": ["bench"]}[name]  # fmt: skip
    assert parser.parse_args(argv).progress is None
    assert parser.parse_args([*argv, "--progress"]).progress is True
    assert parser.parse_args([*argv, "--no-progress"]).progress is False


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("flag", ["--progress", "--no-progress", None])
def test_bar_only_when_asked_for_off_a_terminal(
    name: str, flag: str | None, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    argv = command(name, tmp_path) + ([flag] if flag else [])
    code = main(argv, stdout=io.StringIO())
    err = capsys.readouterr().err
    assert code == 0, err
    if flag == "--progress":
        assert "%|" in err and "/s" in err, err  # a tqdm bar: percentage, rate
    else:  # quiet: no bar, no line rewritten in place
        assert "%|" not in err and "\r" not in err, err
        if name != "train":  # training may warn; the others say nothing at all here
            assert err == ""


@pytest.mark.parametrize("name", ["eval", "ladder", "bench"])
def test_a_terminal_gets_the_bar_by_default(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert main(command(name, tmp_path), stdout=io.StringIO()) == 0
    assert "%|" in term.getvalue()
    units = {"eval": "game", "ladder": "game", "bench": "measurement"}
    assert f"{units[name]}/s" in term.getvalue() or f"s/{units[name]}" in term.getvalue()


def test_train_flag_wins_and_the_config_is_honoured_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert [resolve(None, True), resolve(None, False)] == [None, False]
    assert [resolve(True, False), resolve(False, True)] == [True, False]
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.yaml"
    for configured, flag, drawn in [
        ("true", None, True),
        ("false", None, False),
        ("false", "--progress", True),
        ("true", "--no-progress", False),
    ]:
        cfg.write_text(TINY_TRAINING % configured)
        term = Terminal()
        monkeypatch.setattr(sys, "stderr", term)
        argv = ["train", str(cfg), "--out", str(tmp_path / "runs"), "--timesteps", "64"]
        assert main(argv + ([flag] if flag else []), stdout=io.StringIO()) == 0
        assert ("%|" in term.getvalue()) is drawn, (configured, flag, term.getvalue())
        if drawn:
            assert "64/64" in term.getvalue() and "step/s" in term.getvalue()


def test_every_shipped_config_draws_the_bar() -> None:
    pytest.importorskip("pydantic")
    from moon_agents.training.config import load_config

    configs = sorted((ROOT / "configs").glob("*.yaml"))
    assert configs
    silenced = [p.name for p in configs if not load_config(p).output.progress_bar]
    assert not silenced, silenced


@pytest.mark.parametrize("workers", [1, 2])
def test_the_ladder_reports_every_game_over_all_pairings(workers: int) -> None:
    calls: list[tuple[int, int]] = []
    agents = {"random": "random", "r2": "random", "greedy": "greedy"}  # 3 pairings
    run_ladder("jupiter_v0", agents, games=3, workers=workers, progress=lambda *c: calls.append(c))
    assert calls[0] == (0, 9) and calls[-1] == (9, 9)
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(set(done)) == 10  # each game counted, in order


def test_count_bar_draws_once_the_total_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    lines: list[str] = []
    with CountBar(True, "bench", "measurement") as bar:
        write = bar.above(lines.append)
        bar(0, 4, "warm-up")
        bar(3, 4, "run 1/1, aec jupiter_v0")
        write("a table line")
        bar(4, 4, "")
    assert lines == ["a table line"]
    text = err.getvalue()
    assert "bench: run 1/1, aec jupiter_v0" in text and "4/4" in text and "100%|" in text
    with CountBar(False, "bench", "measurement") as off:
        off(1, 2, "x")
    assert err.getvalue() == text  # --no-progress: nothing more


def test_the_jax_trainers_count_decisions(capsys: pytest.CaptureFixture) -> None:
    from types import SimpleNamespace

    from moon_agents.training.jax.run import _bar

    config = SimpleNamespace(run_name=lambda: "az_seed0")
    assert _bar(None, config, 128) is None and _bar(False, config, 128) is None  # captured
    bar = _bar(True, config, 128)
    bar.update(64)
    bar.close()
    err = capsys.readouterr().err
    assert "az_seed0" in err and "64/128" in err and "decision" in err


def test_a_run_past_its_budget_keeps_the_bars_total() -> None:
    """Trainers work in whole iterations: a run ending at 1,500 of 1,000 steps shows
    1500/1500 at 100%, not a bare count with the total and ETA dropped."""
    tqdm = pytest.importorskip("tqdm").tqdm
    from moon_agents.progress import advance

    bar = tqdm(total=1000, file=io.StringIO(), disable=False)
    advance(bar, 400)
    assert "400/1000" in str(bar)
    advance(bar, 1500)
    assert "1500/1500" in str(bar) and "100%" in str(bar)
    bar.close()
