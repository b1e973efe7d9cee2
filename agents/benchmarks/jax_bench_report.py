"""The figures of ``moon-envs bench --jax``: its metrics, the printed tables and the
``--json`` file, in the shape of ``moon-envs bench``'s (:mod:`moon_agents.benchmarks.bench_report`).

One metric per measured table: ``play_decisions_per_s_batch<B>`` for the random play of
``B`` games at once, ``search_simulations_per_s_batch<B>`` for the mctx search of ``B``
positions at once, each with pgx's ``connect_four`` (:data:`REFERENCE`) as its peer, and
``python_aec_steps_per_s`` for the Python AEC envs (no peer). Every run of every row is
kept (run ``i`` of a twin and run ``i`` of connect_four come from the same run); the tables
show medians, a row's ratio is ``median(row) / median(connect_four)`` and, over several
runs, its spread is ``(max - min) / median`` of its runs. Compile times (one per engine and
table, before the runs) are kept apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from moon_agents.benchmarks.bench_report import Metric, Results, machine_info
from moon_agents.benchmarks.jax_search_speed import HIDDEN, MAX_CONSIDERED

REFERENCE = "pgx connect_four"
PYTHON_AEC = "python_aec_steps_per_s"
JAX_PACKAGES = ("jax", "jaxlib", "pgx", "mctx")


def play_key(batch: int) -> str:
    return f"play_decisions_per_s_batch{batch}"


def search_key(batch: int) -> str:
    return f"search_simulations_per_s_batch{batch}"


def jax_metrics(
    batches: Sequence[int], search_batch: int | None, simulations: int, python_rows: bool
) -> dict[str, Metric]:
    """The metrics of one ``bench --jax``: a random-play one per batch size (none when
    ``batches`` is empty), the search one (when ``search_batch`` is given), the Python
    AEC one (when ``python_rows``)."""
    metrics = [
        Metric(
            play_key(b), "decisions/s", "decisions/s",
            f"random legal actions in {b} games under jax.vmap, finished games restarted, "
            "many decisions per jitted call", ((REFERENCE, play_key(b)),),
        )
        for b in batches
    ]
    if search_batch is not None:
        metrics.append(Metric(
            search_key(search_batch), "simulations/s", "simulations/s",
            f"mctx.gumbel_muzero_policy over {search_batch} positions, {simulations} "
            f"simulations, {MAX_CONSIDERED} considered actions, the engine's step as the "
            f"model, an MLP {HIDDEN}x{HIDDEN} (fixed-seed weights) on observe(); "
            "batch x simulations x searches / s",
            ((REFERENCE, search_key(search_batch)),),
        ))
    if python_rows:
        metrics.append(Metric(
            PYTHON_AEC, "agent-steps/s", "agent-steps/s",
            "the Python AEC env of the same id, random legal actions, one process",
        ))
    return {m.key: m for m in metrics}  # fmt: skip


def runs_text(repeats: int) -> str:
    return f"median of {repeats} run{'s' if repeats != 1 else ''}"


def spread(results: Results, key: str, row: str) -> float | None:
    """``(max - min) / median`` of the row's runs (0 for one run; None when unmeasured)."""
    runs, median = results.runs[key].get(row), results.median(key, row)
    if not runs or not median:
        return None
    return (max(runs) - min(runs)) / median


def engine_table(
    results: Results,
    key: str,
    rows: Sequence[str],
    compile_seconds: dict[str, float],
    out: Callable[[str], None],
    repeats: int = 1,
) -> None:
    """One table: engine, the metric's median, ratio to connect_four, the spread of the
    runs (only when ``repeats > 1``), compile s."""
    header = results.metrics[key].header
    spread_head = f"{'spread':>9}" if repeats > 1 else ""
    out(f"{'engine':<22}{header:>14}{'ratio':>9}{spread_head}{'compile s':>11}")
    for row in rows:
        value = results.median(key, row)
        if value is None:
            continue
        ratio = results.ratios(key, row).get(REFERENCE)
        shown = "n/a" if ratio is None else f"{ratio:.2f}x" if ratio >= 0.01 else f"{ratio:.4f}x"
        cell = f"{100 * (spread(results, key, row) or 0.0):>8.0f}%" if repeats > 1 else ""
        out(f"{row:<22}{value:>14,.0f}{shown:>9}{cell}{compile_seconds.get(row, 0.0):>11.1f}")


def jax_facts() -> dict[str, Any]:
    """The JAX version, backend and device, and the versions of the JAX packages."""
    from importlib import metadata

    import jax

    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    device = jax.devices()[0]
    return {
        "version": jax.__version__,
        "backend": device.platform,
        "device_kind": device.device_kind,
        "device_count": jax.device_count(),
        "packages": {name: version(name) for name in JAX_PACKAGES},
    }


def report_data(
    results: Results,
    compile_seconds: dict[str, dict[str, float]],
    settings: dict[str, Any],
) -> dict[str, Any]:
    """``{"settings", "machine", "metrics"}`` as ``moon-envs bench --json`` writes them,
    plus ``machine["jax"]`` (:func:`jax_facts`). Each metric also says its ``part``
    (``play``, ``search``, ``python``) and ``batch`` (None for the Python envs), and each
    row, besides ``median``, ``runs`` and ``ratios``, its ``spread`` and
    ``compile_seconds`` (None for the Python envs)."""
    machine = machine_info()
    machine["jax"] = jax_facts()
    metrics = results.as_json()
    for key, metric in metrics.items():
        part, _, batch = key.partition("_batch")
        metric["part"] = "python" if key == PYTHON_AEC else part.split("_", 1)[0]
        metric["batch"] = int(batch) if batch else None
        for row, figures in metric["rows"].items():
            figures["spread"] = spread(results, key, row)
            figures["compile_seconds"] = compile_seconds.get(key, {}).get(row)
    return {"settings": settings, "machine": machine, "metrics": metrics}
