"""A newcomer's trial run of ``moon-envs train``: a budget that is not a whole number of
iterations is said to be rounded up, ``--eval-games`` shrinks the evaluations, the bar
labels every win rate in full, and a trainer without a snapshot pool prints no count."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from moon_agents.cli import train as train_command
from moon_agents.cli.configs import configs_dir
from moon_agents.cli.main import main
from moon_agents.training.config import load_config
from moon_agents.training.run_folder import TrainResult

TINY = (
    "name: trial\n"
    "algorithm: {n_envs: 2, n_steps: 32, batch_size: 32, n_epochs: 1, net_arch: [16]}\n"
    "opponents: {pool: [random], snapshots: {every_timesteps: 0}}\n"
    "eval: {every_timesteps: 0, games: 100, opponents: [random]}\n"
    "checkpoints: {every_timesteps: 0}\n"
    "output: {tensorboard: false, plot: false}\n"
)


def test_the_shipped_alphazero_budget_of_one_says_it_is_rounded_up() -> None:
    pytest.importorskip("pydantic")
    config = load_config(configs_dir() / "jupiter_alphazero.yaml", {"budget.total_timesteps": 1})
    note = train_command.rounding_note(config)
    assert note == (
        "note: budget.total_timesteps 1 is rounded up to 12,288: the trainer works in whole "
        "iterations of 12,288 decisions (games 256 x unroll 48)"
    )
    whole = load_config(
        configs_dir() / "jupiter_alphazero.yaml", {"budget.total_timesteps": 3 * 12_288}
    )
    assert train_command.rounding_note(whole) is None


def test_a_trial_run_is_one_iteration_with_small_evaluations(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(TINY)
    out = io.StringIO()
    argv = ["train", str(cfg), "--out", str(tmp_path / "runs"), "--no-progress"]
    code = main([*argv, "--timesteps", "1", "--eval-games", "2"], stdout=out)
    assert code == 0
    text = out.getvalue()
    assert "rounded up to 64: the trainer works in whole iterations of 64 decisions" in text
    metrics = (tmp_path / "runs" / "trial_seed0" / "metrics.csv").read_text().splitlines()
    assert [row.split(",")[0] for row in metrics[1:]] == ["0", "64"]
    assert "games: 2" in (tmp_path / "runs" / "trial_seed0" / "config.yaml").read_text()


def test_eval_games_is_refused_with_resume(capsys: pytest.CaptureFixture) -> None:
    code = main(["train", "--resume", "runs/x", "--eval-games", "2"], stdout=io.StringIO())
    assert code == 2 and "--eval-games: a resumed run keeps" in capsys.readouterr().err


def test_the_bar_labels_each_win_rate_in_full() -> None:
    pytest.importorskip("jax")
    from moon_agents.training.jax.run import bar_labels

    row = {"timesteps": 9, "learner_win_rate": 0.59, "eval_greedy_win_rate": 0.5,
           "eval_mcts_200_win_rate": 0.25, "eval_greedy_ci_low": 0.4}  # fmt: skip
    assert bar_labels(row) == {"learner": "0.59", "greedy": "0.50", "mcts_200": "0.25"}


@pytest.mark.parametrize(("snapshots", "shown"), [(None, False), (3, True)])
def test_snapshots_are_printed_only_for_a_trainer_with_a_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshots: int | None, shown: bool
) -> None:
    pytest.importorskip("pydantic")
    import moon_agents.training.train as training

    def fake_train(config: object, progress: object = None, resume: object = None) -> TrainResult:
        return TrainResult(tmp_path, tmp_path / "model.npz", [], 12_288, 1.0, snapshots)

    monkeypatch.setattr(training, "train", fake_train)
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(TINY)
    out = io.StringIO()
    assert main(["train", str(cfg), "--no-progress"], stdout=out) == 0
    assert ("snapshots: 3" in out.getvalue()) is shown
    assert "timesteps: 12288" in out.getvalue()
