"""The figures of ``moon-envs bench``: medians over repeated runs, ratios to peers, the
printed tables and the ``--json`` file.

:class:`Results` keeps every run of every (metric, row) pair; a row is an env id or a
peer (``connect_four_v3``, ``open_spiel:...``). Each :class:`Metric` names its peers,
each with the metric its figure comes from, and a row's ratio to a peer is
``median(row) / median(peer)`` (for ``clone_us``, a time, a ratio above 1 means slower).
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

C4_PZ = "connect_four_v3"
C4_OS = "open_spiel:connect_four"
TTT_OS = "open_spiel:python_tic_tac_toe"
MCTS_BOT = "open_spiel:mcts_bot:connect_four"
LABELS = {C4_PZ: "connect_four_v3", C4_OS: "os c4", TTT_OS: "os ttt", MCTS_BOT: "MCTSBot c4"}
LEGEND = {
    C4_OS: "os c4 = OpenSpiel connect_four (C++ engine, pyspiel)",
    TTT_OS: "os ttt = OpenSpiel python_tic_tac_toe (pure-Python engine)",
    MCTS_BOT: "MCTSBot c4 = OpenSpiel's Python MCTSBot on its C++ connect_four",
}
PACKAGES = ("moon-envs", "numpy", "pettingzoo", "gymnasium", "open_spiel")


@dataclass(frozen=True)
class Metric:
    """One measured quantity: its JSON key, column header, unit and peers ``(peer row,
    metric the peer's figure is read from)``."""

    key: str
    header: str
    unit: str
    description: str
    peers: tuple[tuple[str, str], ...] = ()
    lower_is_better: bool = False


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        Metric(
            "aec_steps_per_s", "agent-steps/s", "agent-steps/s",
            "random play through the AEC env (moon_envs.make / connect_four_v3.env()), "
            "resets included", ((C4_PZ, "aec_steps_per_s"),),
        ),
        Metric("aec_games_per_s", "games/s", "games/s", "games finished in that random play"),
        Metric(
            "engine_decisions_per_s", "decisions/s", "decisions/s",
            "rules engine random play: legal actions + apply_action, chance outcomes sampled "
            "(not counted), new game at the end",
            ((C4_OS, "engine_decisions_per_s"), (TTT_OS, "engine_decisions_per_s")),
        ),
        Metric(
            "clone_us", "clone us", "microseconds",
            "mean time of state.clone() over positions sampled from random play",
            ((C4_OS, "clone_us"), (TTT_OS, "clone_us")), lower_is_better=True,
        ),
        Metric(
            "mcts_simulations_per_s", "simulations/s", "simulations/s",
            "the zoo's mcts agent (UCT, random rollouts) on positions from random play",
            ((MCTS_BOT, "mcts_simulations_per_s"),),
        ),
        Metric(
            "search_cost_actions_per_s", "actions/s", "actions/s",
            "rules-core random actions with a clone() every 4 (chance outcomes count)",
            ((C4_PZ, "aec_steps_per_s"),),
        ),
    )
}  # fmt: skip


class Results:
    """Every run of every (metric, row); medians and ratios. ``metrics`` are those of
    ``moon-envs bench`` unless given (``bench --jax`` has its own)."""

    def __init__(self, metrics: dict[str, Metric] | None = None) -> None:
        self.metrics = METRICS if metrics is None else metrics
        self.runs: dict[str, dict[str, list[float]]] = {key: {} for key in self.metrics}

    def add(self, metric: str, row: str, value: float) -> None:
        self.runs[metric].setdefault(row, []).append(float(value))

    def median(self, metric: str, row: str) -> float | None:
        values = self.runs[metric].get(row)
        return statistics.median(values) if values else None

    def ratios(self, metric: str, row: str) -> dict[str, float]:
        """``median(row) / median(peer)`` for every peer of ``metric`` that was measured."""
        value = self.median(metric, row)
        out = {}
        for peer, peer_metric in self.metrics[metric].peers:
            ref = self.median(peer_metric, peer)
            if value is not None and ref:
                out[peer] = value / ref
        return out

    def as_json(self) -> dict[str, Any]:
        metrics: dict[str, Any] = {}
        for key, m in self.metrics.items():
            metrics[key] = {
                "unit": m.unit,
                "description": m.description,
                "lower_is_better": m.lower_is_better,
                "peers": {
                    peer: {"metric": pm, "median": self.median(pm, peer)} for peer, pm in m.peers
                },
                "rows": {
                    row: {
                        "median": self.median(key, row),
                        "runs": list(values),
                        "ratios": self.ratios(key, row),
                    }
                    for row, values in self.runs[key].items()
                },
            }
        return metrics


# ---- tables --------------------------------------------------------------------------------

NAME_WIDTH = 30


def _fmt(value: float | None, digits: int) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def table(
    results: Results,
    columns: Sequence[tuple[str, int]],
    rows: Sequence[str],
    out: Callable[[str], None],
) -> None:
    """Print ``rows`` with, per ``(metric, digits)`` column, the median then one ``x PEER``
    column per peer of the metric (``n/a`` where that peer was not measured)."""
    head = [f"{'env':<{NAME_WIDTH}}"]
    for key, _ in columns:
        m = METRICS[key]
        head.append(f"{m.header:>14}")
        head += [f"{'x ' + LABELS[p]:>{max(10, len(LABELS[p]) + 3)}}" for p, _ in m.peers]
    out(" ".join(head))
    for row in rows:
        if all(results.median(key, row) is None for key, _ in columns):
            continue
        cells = [f"{row:<{NAME_WIDTH}}"]
        for key, digits in columns:
            m = METRICS[key]
            value = results.median(key, row)
            cells.append(f"{_fmt(value, digits):>14}")
            ratios = results.ratios(key, row)
            for p, _ in m.peers:
                width = max(10, len(LABELS[p]) + 3)
                text = "" if value is None else _fmt(ratios.get(p), 2)
                cells.append(f"{text:>{width}}")
        out(" ".join(cells).rstrip())
    legend = [LEGEND[p] for key, _ in columns for p, _ in METRICS[key].peers if p in LEGEND]
    if any(METRICS[key].lower_is_better and METRICS[key].peers for key, _ in columns):
        legend.append("a time's ratio (clone us) above 1 means slower than the peer")
    for line in dict.fromkeys(legend):
        out(f"  {line}")


def print_tables(
    results: Results,
    games: Sequence[str],
    seconds: float,
    repeats: int,
    out: Callable[[str], None],
    mcts_note: str,
) -> None:
    """The four tables of ``moon-envs bench``: AEC, rules engine, MCTS, search cost."""
    runs = f"median of {repeats} interleaved run{'s' if repeats != 1 else ''}"
    out(f"random play, {seconds:g} s per env per run, {runs}, one process, same loop for all")
    table(results, [("aec_steps_per_s", 0), ("aec_games_per_s", 1)], [*games, C4_PZ], out)
    out(
        "\nrules engine: random play (legal actions + apply_action, chance outcomes sampled, "
        "decisions counted) and clone() of positions from random play"
    )
    table(
        results,
        [("engine_decisions_per_s", 0), ("clone_us", 2)],
        [*games, C4_OS, TTT_OS],
        out,
    )
    out(f"\nMCTS simulations/s on positions from random play ({mcts_note})")
    table(results, [("mcts_simulations_per_s", 0)], [*games, MCTS_BOT], out)
    out(
        "\nsearch cost: rules-core random actions with a clone() every 4 "
        "(chance outcomes count as actions)"
    )
    table(results, [("search_cost_actions_per_s", 0)], games, out)


# ---- the JSON file and machine facts -----------------------------------------------------


def check_json_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a file to write; ValueError naming the problem when its folder does not
    exist or it is a folder. An existing file there is replaced."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"--json {path}: the folder {str(parent)!r} does not exist")
    if p.is_dir():
        raise ValueError(f"--json {path}: that is a folder; give a file name")
    return p


def machine_info() -> dict[str, Any]:
    """CPU count, load, Python and package versions (None for a package not installed)."""
    from importlib import metadata

    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    info: dict[str, Any] = {
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "packages": {name: version(name) for name in PACKAGES},
    }
    return info


def _finite(value: Any) -> Any:
    """``value`` with NaN and infinities (not JSON) replaced by None, in nested containers."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def write_json(path: str | os.PathLike[str], data: dict[str, Any]) -> Path:
    """Write ``data`` to ``path`` (checked by :func:`check_json_path`) as indented JSON."""
    p = check_json_path(path)
    p.write_text(json.dumps(_finite(data), indent=2, allow_nan=False) + "\n", encoding="utf-8")
    return p
