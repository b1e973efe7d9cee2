"""Every documented command that runs for minutes says how long, so that nobody starts an
hours-long run unawares.

The commands are those :mod:`tests.test_docs_commands` runs (README.md and docs/*.md,
fenced and inline). A command counts as long when, on the 2-core machine:

* ``train CONFIG`` has no ``--timesteps``: the shipped configs train for 5 to 45 minutes;
* ``ladder``: every pairing of the published line-ups plays ``--games`` (500) games;
* ``bench``: ``5 n + 6`` measurements a run for ``n`` envs (31 for all five), times
  ``--repeats`` (3), times ``--seconds`` (1), is over a minute; with ``--jax``, one
  measurement per engine (the four twins and pgx's connect_four) and batch size, one per
  engine for the search and one per Python env (fewer with ``--jax-part``), at
  ``--seconds`` (3) each, times ``--repeats`` (1), plus compiling each engine's tables, is;
* ``eval`` with an ``mcts`` agent plays 100 games or more (search costs tens of
  milliseconds a move), or its agents' ``seconds=`` budgets, over a seat's decisions
  (:data:`MOVES_PER_SEAT`) and the games, add up to over a minute;
* the benchmark modules ``search_vs_open_spiel`` and ``rllib_sampling`` (SB3 and every
  runner and env count for ``--seconds``, 20, over a minute), and
  ``moon_agents.evaluation.jax_equivalence`` over every parameter set (57) or 1,000 games.

Such a command states its time where it is shown: a fenced line in its ``#`` comment, an
inline one with arguments in its paragraph (headings and a bare ``moon-envs bench`` in a
sentence name the tool), as ``about N seconds|minutes|hours`` (``about 50 minutes on
2 cores``) or as a measured wall time (``42 min 50 s``, ``140 s wall``, ``(1,581 s)``).
"""

from __future__ import annotations

import re
import shlex

import pytest

from tests.test_docs_commands import DOCS, as_command

TIME = re.compile(
    r"\babout\s+[\d.,]+\s+(?:seconds|minutes?|hours?)\b"  # about 50 minutes (on 2 cores)
    r"|\b\d+\s+min\b"  # 42 min 50 s of wall time
    r"|\b\d[\d,.]*\s+s\s+(?:of\s+)?wall"  # 140 s wall
    r"|\(\d[\d,.]*\s+s[;),]"  # (1,581 s)
)
ALL_ENVS = 5
JAX_TWINS = 5
MOVES_PER_SEAT = {  # a seat's decisions in a game, about (2 players; Moonstar 3)
    "jupiter": 10, "moonstar": 50, "moon_harvesters": 30, "star_master": 15, "moonwakers": 100,
}  # fmt: skip


def occurrences() -> list[tuple[str, str, str]]:
    """``(command, the text that must state its time, file name)`` for every command shown:
    a fenced line (its comment included), or the paragraph around an inline span."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```[^\n]*\n(.*?)```", text, re.S):
            for line in block.splitlines():
                for part in line.split("&&"):
                    cmd = command_in(part)
                    if cmd:
                        found.append((cmd, line, path.name))
        outside = re.sub(r"```.*?```", "", text, flags=re.S)
        for paragraph in re.split(r"\n\s*\n", outside):
            if paragraph.lstrip().startswith("#"):  # a heading names a command, runs none
                continue
            for span in re.findall(r"(?=`([^`\s][^`]*)`)", paragraph):
                cmd = command_in(span)
                if cmd and len(cmd.split()) > 2:  # a bare `moon-envs bench` names the tool
                    found.append((cmd, paragraph, path.name))
    return [(c, context, name) for c, context, name in found if not re.search(r"[A-Z]{3,}", c)]


def _value(argv: list[str], flag: str, default: float) -> float:
    return float(argv[argv.index(flag) + 1]) if flag in argv else default


def _count(argv: list[str], flag: str, default: int) -> int:
    """How many values ``flag`` lists (``--runners 1 8 32``: 3)."""
    if flag not in argv:
        return default
    values = argv[argv.index(flag) + 1 :]
    return next((i for i, v in enumerate(values) if v.startswith("--")), len(values))


def command_in(text: str) -> str | None:
    """``text`` as a command (:func:`tests.test_docs_commands.as_command`), or a ``python
    -m moon_agents...`` module run."""
    text = re.sub(r"\s+#.*$", "", re.sub(r"\s+", " ", text).strip())
    cmd = as_command(text)
    if cmd is None:
        m = re.match(r"(?:\$ ?)?(?:\S*/)?python3? -m (moon_agents\.[\w.]+)(.*)$", text)
        cmd = f"python -m {m.group(1)}{m.group(2)}".strip() if m else None
    return cmd


def runs_for_minutes(command: str) -> bool:
    """Whether ``command`` counts as long (see the module docstring)."""
    argv = shlex.split(command)
    if argv[0] == "python":
        module = argv[2].rpartition(".")[2]
        if module == "rllib_sampling":
            runs = 1 + _count(argv, "--runners", 2) * _count(argv, "--envs-per-runner", 2)
            return runs * _value(argv, "--seconds", 20) > 60
        if module == "jax_equivalence":  # every parameter set: compiles, then the games
            return "--env" not in argv or _value(argv, "--games", 100) >= 1000
        return module == "search_vs_open_spiel"
    if len(argv) < 2:
        return False
    name, args = argv[1], argv[2:]
    envs = [a for a in args if re.fullmatch(r"[a-z_]+_v\d+", a)]
    if name == "train":
        return "--timesteps" not in args
    if name == "ladder":
        return True
    if name == "bench" and "--jax" in args:
        part = args[args.index("--jax-part") + 1] if "--jax-part" in args else "all"
        batches = len(args[args.index("--batches") + 1].split(",")) if "--batches" in args else 3
        batches = 0 if part == "search" else batches
        tables = batches + (0 if part == "play" else 1)
        engines = (len(envs) or JAX_TWINS) + 1
        python_envs = 0 if part == "search" else engines - 1
        measured = (tables * engines + python_envs) * _value(args, "--seconds", 3)
        measured *= _value(args, "--repeats", 1)
        return measured + 15 * tables * engines > 60  # 3 to 25 s to compile each
    if name == "bench":
        n = len(envs) or ALL_ENVS
        return (5 * n + 6) * _value(args, "--repeats", 3) * _value(args, "--seconds", 1) > 60
    if name == "eval":
        games = _value(args, "--games", 100)
        timed = [float(m) for a in args for m in re.findall(r"seconds=([\d.]+)", a)]
        decisions = MOVES_PER_SEAT.get(args[0].rpartition("_v")[0], 10) if args else 10
        return (any(a.startswith("mcts") for a in args) and games >= 100) or (
            games * decisions * sum(timed) > 60
        )
    return False


LONG = [(c, context, name) for c, context, name in occurrences() if runs_for_minutes(c)]


def test_the_rules_find_the_long_commands() -> None:
    assert runs_for_minutes("moon-envs train configs/jupiter_ppo.yaml")
    assert not runs_for_minutes("moon-envs train configs/jupiter_ppo.yaml --timesteps 5000")
    assert runs_for_minutes("moon-envs bench")  # 31 measurements x 3 runs x 1 s
    assert not runs_for_minutes("moon-envs bench jupiter_v0 --seconds 1 --repeats 1")
    assert runs_for_minutes("moon-envs eval moonstar_v1 --agents mcts:seconds=0.5 heuristic")
    assert runs_for_minutes("moon-envs eval moonstar_v1 --agents mcts:seconds=0.5 a b --games 6")
    assert runs_for_minutes("moon-envs bench --jax")  # every twin, three batch sizes, search
    assert runs_for_minutes("moon-envs bench --jax jupiter_v0 --batches 1024 --seconds 5")
    assert not runs_for_minutes("moon-envs bench --jax jupiter_v0 --jax-part play --batches 64")
    assert runs_for_minutes(
        "moon-envs bench --jax jupiter_v0 --jax-part play --batches 64 --repeats 5"
    )
    assert not runs_for_minutes("moon-envs bench --jax jupiter_v0 --jax-part search")
    assert not runs_for_minutes("moon-envs eval jupiter_v0 --agents greedy random --games 100")
    assert not runs_for_minutes("moon-envs play jupiter_v0 --agents mcts greedy")
    assert any(c.startswith("moon-envs ladder") for c, _, _ in LONG)


@pytest.mark.parametrize(("command", "context", "page"), LONG, ids=[c for c, _, _ in LONG])
def test_a_long_command_states_its_time(command: str, context: str, page: str) -> None:
    assert TIME.search(context), (
        f"{page}: `{command}` runs for minutes on 2 cores; say how long next to it "
        f"(e.g. '# about 10 minutes on 2 cores'):\n{context}"
    )
