"""Every command shown in README.md and docs/*.md runs.

The commands are read from the files at test time, so the test follows their edits: each
line (or ``&&``-separated part) of a fenced code block and each inline code span that is
a ``moon-envs ...`` command is one; ``python -m moon_agents.cli`` and ``.venv/bin/python -m
moon_agents.cli`` count as ``moon-envs``, and ``python -m moon_agents.benchmarks.NAME`` and
``python -m moon_agents.benchmarks.rllib_sampling`` are run too (all after optional ``$``,
``VAR=value`` and ``nice -n N`` prefixes); a trailing ``# comment`` is dropped. Long commands run
shrunk, the same command with smaller budgets:

* ``eval ... --games N``: 24 games when N is a multiple of 24 (seat rotations of 4
  players stay balanced), else 2;
* ``bench``: ``--seconds 0.1``, ``--repeats 1`` and ``--json`` in the temporary folder;
  with ``--jax``, batch 4 only (a search of 2 positions with 2 simulations), 16 decisions
  per lane in each rollout call, only the play table unless ``--jax-part`` is named, and
  Jupiter's twin where no env is named, run once per distinct shrunk command;
* ``ladder``: 1 game per pairing, 1 worker, output in the temporary folder, the published
  agents with MCTS budgets of 2 simulations (the lineup, its specs and the env
  parameters are otherwise as published);
* ``mcts:...`` agents: 4 simulations (or 0.01 s) per move, and Moonstar games cut to 2
  rounds; an ``eval`` without ``--games`` plays 2;
* ``mctx:...`` agents: a search of 8 simulations over 4 considered actions (other options as
  shown), the budget of ``tests/agents/test_mctx_agent.py`` and
  ``tests/agents/test_mctx_other_games.py``, so that the session's compilation cache holds
  the search these commands compile;
* ``train CONFIG``: a copy of CONFIG (a file or a shipped config's name) with 128
  timesteps, 2 envs of 64 steps, no evaluation, checkpoints, plot or TensorBoard (a JAX
  trainer's: 32 decisions of 4 games, 2 evaluation games against its first opponent;
  ``imitation``: one round of 2 games, one epoch, in one process);
  ``ppo:runs/NAME_seedS/model.zip`` (or ``az:...model.npz``) in a later command is the
  model such a shrunk run of ``configs/NAME.yaml`` wrote;
* ``exploit``: ``--decisions 8192`` (one rollout) and ``--games 2``;
* ``play --human SEAT``: the person types numbers 0, 1, 2, ... until the game ends;
* output files (``--out``, ``--gif``, ``--html``, ``--to``, ``--json``) go to a temporary
  folder;
* ``moon_agents.benchmarks.search_vs_open_spiel``: 4 simulations and 2 games per case (its
  default cases, or the one ``--env`` names);
* ``moon_agents.benchmarks.moonstar_rounds``: ``--games 2``;
* ``moon_agents.benchmarks.engine_breakdown``: the envs it names (Jupiter when none),
  ``--decisions 30 --repeats 1``;
* ``moon_agents.benchmarks.rllib_sampling``: ``--seconds 0.2``, ``--runners 0`` (the
  driver samples) and only the first of the listed env counts (1 where none is listed),
  SB3 rollouts of 2 envs x 64 steps and RLlib samples of 64 timesteps, run once per
  distinct shrunk setting; with ``--address``
  (joining a running Ray cluster) it is skipped, as no cluster runs here.

Every command must exit with status 0; a benchmark module the docs show without a
shrinking rule here fails the test until one is added.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from moon_agents.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHRUNK_TRAINING = {
    "budget": {"total_timesteps": 128},
    "algorithm": {"n_envs": 2, "n_steps": 64, "batch_size": 64},
    "opponents": {"snapshots": {"every_timesteps": 64}},
    "eval": {"every_timesteps": 0, "games": 2},
    "checkpoints": {"every_timesteps": 0},
    "output": {"progress_bar": False, "tensorboard": False, "plot": False},
}

SHRUNK_JAX = {  # the JAX trainers' schema (agents/training/jax/config.py)
    "alphazero": {"algorithm": {"games": 4, "unroll": 8, "batch_size": 16}},
    "jax_ppo": {"algorithm": {"num_envs": 4, "num_steps": 8, "num_minibatches": 2}},
    "imitation": {"algorithm": {"games_per_round": 2, "epochs": 1, "batch_size": 32, "workers": 1}},
}
SHRUNK_JAX_COMMON = {
    "budget": {"total_timesteps": 32},
    "eval": {"every_timesteps": 0, "games": 2},
    "output": {"progress_bar": False, "plot": False},
}

SHRUNK_RLLIB = {  # the RLlib back-end's own schema (agents/training/rllib/config.py)
    "budget": {"total_timesteps": 128},
    "algorithm": {"train_batch_size": 128, "minibatch_size": 64, "num_epochs": 1},
    "ray": {"num_env_runners": 0, "num_envs_per_env_runner": 1},  # sampled in the driver
    "opponents": {"snapshots": {"every_timesteps": 64}},
    "eval": {"every_timesteps": 0, "games": 2},
    "checkpoints": {"every_timesteps": 0},
    "output": {"progress_bar": False, "tensorboard": False, "plot": False},
}


def _is_rllib(config: dict) -> bool:
    algo = config.get("algorithm")
    name = algo.get("name") if isinstance(algo, dict) else algo
    return isinstance(name, str) and name.startswith("rllib")


_PREFIX = r"(?:\$\s*)?(?:[A-Z_]+=\S*\s+)*(?:nice\s+-n\s*-?\d+\s+)?"
_CLI = re.compile(_PREFIX + r"(?:\S*/)?(?:moon-envs|python3?\s+-m\s+moon_agents\.cli)(\s.*)?$")
_MODULE = re.compile(_PREFIX + r"(?:\S*/)?python3?\s+-m\s+(moon_agents\.benchmarks\.\w+)(\s.*)?$")


def as_command(text: str) -> str | None:
    """``text`` as a command to run: ``moon-envs ARGS`` for ``moon-envs``, ``python -m
    moon_agents.cli`` and ``.venv/bin/python -m moon_agents.cli`` (after ``$``, ``VAR=value`` and
    ``nice -n N`` prefixes), ``python -m MODULE ARGS`` for the benchmark modules; None
    for anything else. A trailing ``# comment`` is dropped."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+#.*$", "", text)
    m = _CLI.match(text)
    if m:
        return ("moon-envs" + (m.group(1) or "")).strip()
    m = _MODULE.match(text)
    if m:
        return (f"python -m {m.group(1)}" + (m.group(2) or "")).strip()
    return None


def documented_commands() -> list[str]:
    """Every distinct command in the docs (see :func:`as_command`), in order of appearance."""
    found: list[str | None] = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```[^\n]*\n(.*?)```", text, re.S):
            for line in block.splitlines():
                found += [as_command(part) for part in line.split("&&")]
        outside = re.sub(r"```.*?```", "", text, flags=re.S)
        # every text between two backticks that starts a command (overlapping, so that a
        # stray backtick elsewhere cannot shift the pairs)
        spans = re.findall(r"(?=`([^`\s][^`]*)`)", outside)
        found += [as_command(span) for span in spans]
    commands: list[str] = []
    for cmd in found:
        if cmd and cmd not in commands and not re.search(r"[A-Z]{3,}", cmd):  # placeholders
            commands.append(cmd)
    return commands


def config_file(arg: str) -> Path:
    """The config ``moon-envs train ARG`` reads: a file of the checkout, or a shipped
    config's name."""
    from moon_agents.cli.configs import resolve_config

    return ROOT / arg if (ROOT / arg).exists() else resolve_config(arg)[0]


def _set_deep(data: dict, updates: dict) -> None:
    for key, value in updates.items():
        if isinstance(value, dict):
            _set_deep(data.setdefault(key, {}), value)
        else:
            data[key] = value


def shrink(argv: list[str], tmp: Path) -> list[str]:
    """The same command with small budgets and its outputs in ``tmp``."""
    import yaml

    out = list(argv)
    command = out[0]
    if command == "eval" and "--games" in out:
        i = out.index("--games") + 1
        out[i] = "24" if int(out[i]) % 24 == 0 else "2"
    if command == "eval":
        if "--games" not in out:
            out += ["--games", "2"]
        out.append("--no-progress")
    if command in ("eval", "play") and any(a.startswith("mcts") for a in out):
        if len(out) > 1 and out[1].startswith("moonstar"):  # a rollout plays ~30 rounds
            out += ["--param", "max_rounds=2"]
    if command == "ladder":
        for flag, value in (("--games", "1"), ("--workers", "1")):
            if flag in out:
                out[out.index(flag) + 1] = value
            else:
                out += [flag, value]
        if "--out" not in out:  # the default folder is ladders/ENV in the working directory
            out += ["--out", str(tmp / "files" / "ladder")]
        out.append("--no-progress")
    if command == "exploit":
        for flag, value in (("--decisions", "8192"), ("--games", "2")):
            if flag in out:
                out[out.index(flag) + 1] = value
            else:
                out += [flag, value]
        if "--out" not in out:  # the default folder is runs/ in the working directory
            out += ["--out", str(tmp / "files" / "runs")]
        out.append("--no-progress")
    if command == "bench" and "--jax" in out:  # compiles are the cost: one twin, one batch
        if not any(a.endswith(("_v0", "_v1")) for a in out):
            out.append("jupiter_v0")
        if "--batches" in out:
            out[out.index("--batches") + 1] = "4"
        else:
            out += ["--batches", "4"]
        if "--jax-part" not in out:  # the search table has its own test
            out += ["--jax-part", "play"]
        for flag, value in (("--search-batch", "2"), ("--simulations", "2")):
            if flag in out:
                out[out.index(flag) + 1] = value
            else:
                out += [flag, value]
    if command == "bench":
        # one short run of each measurement, not the median of several
        for flag, value in (("--seconds", "0.1"), ("--repeats", "1")):
            if flag in out:
                out[out.index(flag) + 1] = value
            else:
                out += [flag, value]
        if "--json" in out:  # its folder must exist (the file goes there, below)
            (tmp / "files").mkdir(exist_ok=True)
    if command == "train":
        path = config_file(out[1])
        config = yaml.safe_load(path.read_text())
        rllib = _is_rllib(config)
        algorithm = config.get("algorithm", {}).get("name")
        if algorithm in SHRUNK_JAX:
            _set_deep(config, SHRUNK_JAX_COMMON)
            _set_deep(config, SHRUNK_JAX[algorithm])
            config["eval"]["opponents"] = config["eval"]["opponents"][:1]
            if config["budget"].get("stop_at_timesteps"):  # within the shrunk budget
                config["budget"]["stop_at_timesteps"] = 16
        else:
            _set_deep(config, SHRUNK_RLLIB if rllib else SHRUNK_TRAINING)
        start = config.get("algorithm", {}).get("init_from") or ""
        m = re.match(r"runs/(\w+?)_seed(\d+)/(model\.npz)$", start)
        if m:  # a config chain: it starts from another config's run, trained shrunk first
            config["algorithm"]["init_from"] = str(_trained(*m.groups()[:2], tmp, m.group(3)))
        small = tmp / "configs" / path.name
        small.parent.mkdir(parents=True, exist_ok=True)
        small.write_text(yaml.safe_dump(config))
        out[1] = str(small)
        out = [x for x in out if x != "--no-progress"] + ["--out", str(tmp / "runs")]
        out.append("--no-progress")
    for i, arg in enumerate(out):
        if arg.startswith("mcts"):  # search budgets shrunk: the spec is what is checked
            arg = out[i] = re.sub(r"simulations=\d+", "simulations=4", arg)
            arg = out[i] = re.sub(r"seconds=[\d.]+", "seconds=0.01", arg)
        if arg.startswith("mctx:"):
            arg = out[i] = shrink_mctx(arg)
        if (
            out[i - 1] in ("--out", "--gif", "--html", "--to", "--json")
            and i > 0
            and (command != "train")
        ):
            out[i] = str(tmp / "files" / Path(arg).name)
        m = re.match(r"(ppo|rllib|az):runs/(\w+?)_seed(\d+)/(model\.zip|model\.npz|model)$", arg)
        if m:
            out[i] = f"{m.group(1)}:{_trained(m.group(2), m.group(3), tmp, m.group(4))}"
    return out


MCTX_BUDGET = {"simulations": "8", "considered": "4"}


def shrink_mctx(spec: str) -> str:
    """An ``mctx:PATH,...`` spec with the search budget of :data:`MCTX_BUDGET` (its other
    options unchanged): ``mctx:trained,simulations=16`` -> ``mctx:trained,simulations=8,
    considered=4``."""
    path, *options = spec.split(",")
    kept = [o for o in options if o.partition("=")[0] not in MCTX_BUDGET]
    return ",".join([path, *(f"{k}={v}" for k, v in MCTX_BUDGET.items()), *kept])


def _trained(name: str, seed: str, tmp: Path, model_name: str = "model.zip") -> Path:
    """The model a shrunk ``moon-envs train configs/NAME.yaml --seed SEED`` writes
    (``model.zip`` for SB3, the ``model`` folder for RLlib)."""
    model = tmp / "runs" / f"{name}_seed{seed}" / model_name
    if not model.exists():
        argv = shrink(["train", f"configs/{name}.yaml", "--seed", seed], tmp)
        assert main(argv, stdout=io.StringIO()) == 0, argv
    return model


# Games whose ladder is cut to 2 rounds. None now: Moonwakers' network refuses a max_rounds
# other than the one it was trained with, and its games at 1 per pairing with 2-simulation
# MCTS take seconds (Moonstar's network needs its own cap too).
LONG_GAMES: tuple[str, ...] = ()


def shrink_ladders(monkeypatch: pytest.MonkeyPatch) -> None:
    """The published ladders with 2-simulation MCTS, games of ``LONG_GAMES`` cut to 2 rounds."""
    from dataclasses import replace

    from moon_agents.evaluation.ladder import lineups

    small = {}
    for env_id, plan in lineups.LADDERS.items():
        agents = {
            label: re.sub(r"simulations=\d+", "simulations=2", spec)
            for label, spec in plan.agents.items()
        }
        params = {**plan.env_params, **({"max_rounds": 2} if env_id in LONG_GAMES else {})}
        small[env_id] = replace(plan, agents=agents, env_params=params)
    monkeypatch.setattr(lineups, "LADDERS", small)


class CountingInput(io.StringIO):
    """A person who types 0, 1, 2, ... (a wrong number is refused and the next is tried)."""

    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def readline(self, *args: object) -> str:
        self.n += 1
        return f"{self.n % 500}\n"


COMMANDS = documented_commands()


def test_the_docs_show_commands() -> None:
    assert any(c.startswith("moon-envs play ") for c in COMMANDS)
    assert any(c.startswith("moon-envs eval ") for c in COMMANDS)
    # README.md shows this one as `python -m moon_agents.cli eval ...`
    assert "moon-envs eval star_master_v0 --agents memory3 random --games 500" in COMMANDS


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("$ moon-envs bench --seconds 2  # a comment", "moon-envs bench --seconds 2"),
        ("PYTHONPATH=$PWD nice -n 10 python -m moon_agents.cli bench --seconds 3",
         "moon-envs bench --seconds 3"),
        (".venv/bin/python -m moon_agents.cli list", "moon-envs list"),
        (".venv/bin/moon-envs play jupiter_v0", "moon-envs play jupiter_v0"),
        ("python3 -m moon_agents.cli eval jupiter_v0\n  --agents random greedy",
         "moon-envs eval jupiter_v0 --agents random greedy"),
        ("python -m moon_agents.benchmarks.rllib_sampling --env jupiter_v0",
         "python -m moon_agents.benchmarks.rllib_sampling --env jupiter_v0"),
        ("python -m moon_agents.benchmarks.search_vs_open_spiel",
         "python -m moon_agents.benchmarks.search_vs_open_spiel"),
        ("python3 -m venv .venv", None),
        ("pip install moon-envs", None),
        ("python -m pytest -q", None),
    ],
)  # fmt: skip
def test_what_counts_as_a_command(text: str, command: str | None) -> None:
    assert as_command(text) == command


@pytest.mark.parametrize(
    ("spec", "shrunk"),
    [
        ("mctx:trained,simulations=16", "mctx:trained,simulations=8,considered=4"),
        ("mctx:trained,simulations=16,considered=8,margin=1",
         "mctx:trained,simulations=8,considered=4,margin=1"),
        ("mctx:runs/a/model.npz,samples=1",
         "mctx:runs/a/model.npz,simulations=8,considered=4,samples=1"),
    ],
)  # fmt: skip
def test_mctx_specs_keep_their_options_with_a_small_budget(spec: str, shrunk: str) -> None:
    assert shrink_mctx(spec) == shrunk
    assert shrink(["eval", "jupiter_v0", "--agents", spec, "random"], Path("."))[3] == shrunk


def _first_of_list(argv: list[str], flag: str) -> list[str]:
    """``--flag A B C`` -> ``--flag A``."""
    if flag not in argv:
        return argv
    i = argv.index(flag) + 1
    j = i + 1
    while j < len(argv) and not argv[j].startswith("--"):
        j += 1
    return argv[: i + 1] + argv[j:]


_RLLIB_RUNS_DONE: set[str] = set()  # shrunk rllib_sampling settings that ran and passed
_JAX_BENCHES_DONE: set[tuple[str, ...]] = set()  # shrunk `bench --jax` commands that passed


def run_module(module: str, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``python -m module argv`` shrunk, in this process; it must end as ``python -m``
    would with status 0."""
    import importlib

    if module == "moon_agents.benchmarks.search_vs_open_spiel":
        pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
        bench = importlib.import_module(module)
        if "--env" in argv:
            argv = [*argv, "--simulations", "4", "--games", "2"]
        else:
            small = [(env, params, 4, 2) for env, params, _, _ in bench.DEFAULT_CASES]
            monkeypatch.setattr(bench, "DEFAULT_CASES", small)
        assert bench.main(argv) == 0
        return
    if module == "moon_agents.benchmarks.rllib_sampling":
        pytest.importorskip("ray.rllib", reason="the rllib extra is not installed")
        if "--address" in argv:
            pytest.skip("--address joins a running Ray cluster; none runs here")
        for flag, value in (("--runners", "1"), ("--envs-per-runner", "1"), ("--seconds", "")):
            argv = _first_of_list(argv, flag)  # one runner count, one env count
            if flag not in argv:
                argv += [flag, value]  # the defaults are several
        argv[argv.index("--seconds") + 1] = "0.2"
        # in the driver: starting a sampling process took 20-100 s of a loaded CI machine;
        # tests/rllib/test_train.py samples with a remote env runner
        argv[argv.index("--runners") + 1] = "0"
        bench = importlib.import_module(module)
        for name, value in (("SB3_ENVS", 2), ("SB3_STEPS", 64), ("RLLIB_CHUNK", 64)):
            monkeypatch.setattr(bench, name, value)  # one small rollout and sample each
        settings = repr(sorted(vars(bench.parse_args(argv)).items()))
        if settings in _RLLIB_RUNS_DONE:
            return  # shrunk, this command is a run that already passed (a Ray start is ~20 s)
        rates = bench.main(argv)
        assert rates["sb3"] > 0 and any(k.startswith("rllib-") for k in rates)
        _RLLIB_RUNS_DONE.add(settings)
        return
    if module == "moon_agents.benchmarks.engine_breakdown":
        envs = [a for a in argv if not a.startswith("-")] or ["jupiter_v0"]
        shrunk = [*envs, "--decisions", "30", "--repeats", "1"]
        assert importlib.import_module(module).main(shrunk) == 0
        return
    if module == "moon_agents.benchmarks.moonstar_rounds":
        if "--games" in argv:
            argv[argv.index("--games") + 1] = "2"
        assert importlib.import_module(module).main(argv) == 0
        return
    pytest.fail(f"{module}: the docs show it but this test has no rule to run it shrunk")


@pytest.mark.parametrize("command", COMMANDS)
def test_documented_command_runs(
    command: str, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    if command.startswith("python -m "):
        module, *argv = shlex.split(command)[2:]
        run_module(module, argv, monkeypatch)
        return
    argv = shlex.split(command)[1:]
    if any(a.startswith("rllib:") for a in argv):
        pytest.importorskip("ray", reason="the rllib extra is not installed")
    if (argv and argv[0] == "train") or any(a.startswith(("ppo:", "rllib:")) for a in argv):
        pytest.importorskip("sb3_contrib")
        yaml = pytest.importorskip("yaml")
        if argv[0] == "train" and _is_rllib(yaml.safe_load(config_file(argv[1]).read_text())):
            pytest.importorskip("ray", reason="the rllib extra is not installed")
    tmp = tmp_path_factory.getbasetemp() / "docs_commands"
    tmp.mkdir(exist_ok=True)
    argv = shrink(argv, tmp) if argv else argv
    if argv and argv[0] == "ladder":
        shrink_ladders(monkeypatch)
    jax_bench = argv[:1] == ["bench"] and "--jax" in argv
    if jax_bench:
        if tuple(argv) in _JAX_BENCHES_DONE:
            return  # shrunk, this command is a run that already passed (its compiles are ~1 min)
        from moon_agents.benchmarks import jax_speed

        # the published 16,384 / batch decisions per call run for minutes at batch 4
        monkeypatch.setattr(jax_speed, "steps_per_call", lambda batch: 16)
    out = io.StringIO()
    code = main(argv, stdin=CountingInput(), stdout=out)
    assert code == 0, f"{command} -> {argv} exited {code}:\n{out.getvalue()[-2000:]}"
    if jax_bench:
        assert "pgx connect_four" in out.getvalue(), out.getvalue()[-2000:]  # the peer row
        _JAX_BENCHES_DONE.add(tuple(argv))


def registry_snippet() -> str:
    """The README's registry snippet: its fenced Python block calling both registries."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    found = [b for b in blocks if "pettingzoo.make(" in b and "gymnasium.make(" in b]
    assert len(found) == 1, "README.md should show one registry snippet"
    return found[0]


def test_registry_snippet_runs_pasted_alone(tmp_path: Path) -> None:
    """The README's registry snippet, read from README.md, in a fresh interpreter outside
    the source tree; Gymnasium also takes ``"moon_envs:moon_envs/Jupiter-v0"``, which
    imports the package."""
    import subprocess
    import sys

    snippet = registry_snippet()
    assert "import moon_envs" in snippet
    check = "\nprint(type(aec.unwrapped).__name__, single.spec.id)\n"
    done = subprocess.run(
        [sys.executable, "-c", snippet + check], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == "moon_envs/Jupiter-v0"
    plain = "import gymnasium; print(gymnasium.make('moon_envs:moon_envs/Jupiter-v0').spec.id)"
    done = subprocess.run(
        [sys.executable, "-c", plain], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0 and done.stdout.strip() == "moon_envs/Jupiter-v0", done.stderr
