"""Random-play speed of the JAX twins beside pgx's ``connect_four``, measured in one run.

``moon-envs bench --jax`` (or ``python -m moon_agents.benchmarks.jax_speed``) runs the same
harness on every twin and on ``pgx.make("connect_four")``: a batch of games under
``jax.vmap``, each lane choosing a uniformly random legal action from its mask with one
uniform draw (:func:`uniform_legal_action`), ``step`` with its own key, and a
finished game restarted with ``init`` in place. One jitted call plays ``steps_per_call``
decisions per lane; the clock runs over whole calls after compilation, with
``block_until_ready``. Figures are *decisions per second* (every lane's action counts).

Compilation is timed apart (``jit(...).lower(...).compile()``), once per twin and batch
size. The Python AEC env of the same id runs the same random play for comparison (one env
in one process, :func:`moon_agents.benchmarks.speed.random_play`).

The ratio column is twin / connect_four at the same batch size; machines are shared and
noisy, so read ratios rather than absolute figures. :func:`run_jax_bench` also measures
mctx search on every engine (:mod:`moon_agents.benchmarks.jax_search_speed`); it compiles
everything first, then times ``repeats`` runs, one after the other, and shows medians
(:mod:`moon_agents.benchmarks.jax_bench_report`: the tables and the JSON file).
connect_four needs pgx: ``pip install "moon-envs[jax,bench]"``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from moon_agents.benchmarks.jax_bench_report import REFERENCE

DEFAULT_BATCHES = (1, 64, 1024)
PARTS = ("play", "search", "all")
"""What one bench measures (``--jax-part``): random play, mctx search, or both."""


@dataclass(frozen=True)
class JaxRow:
    """One engine at one batch size."""

    name: str
    batch: int
    decisions: int
    seconds: float
    compile_seconds: float

    @property
    def per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0


BLOCK = 32
"""Width of the blocks :func:`uniform_legal_action` counts legal actions in."""


def uniform_legal_action(key: Any, mask: Any) -> Any:
    """A uniformly random legal action from one uniform draw: the ``k``-th legal action,
    ``k = floor(u * legal count)``. The same distribution as ``jax.random.categorical``
    over the masked logits, which draws one number per action: on the CPU that cost more
    than a whole Jupiter step, so it would have measured the sampler, not the engines.

    Masks wider than :data:`BLOCK` are counted in two levels, legal actions per block of
    ``BLOCK`` and then within the chosen block, which picks the same action: XLA's CPU
    ``cumsum`` over a whole 1,443-action mask (Moon Harvesters) cost 17 of the 24 ms of a
    harness step at batch 1024, and five times less in blocks. The blocks are summed
    straight from the boolean mask and the chosen block is sliced from it and counted as
    one 32-bit word's prefix popcounts: a padded ``int32`` copy of the whole mask, which
    XLA wrote out in full, cost twice as much again."""
    import jax
    import jax.numpy as jnp

    n = mask.shape[-1]
    u = jax.random.uniform(key)
    if n <= BLOCK:
        legal = jnp.cumsum(mask.astype(jnp.int32))
        k = jnp.floor(u * legal[-1]).astype(jnp.int32)
        return jnp.argmax(legal > k)
    full, blocks = n // BLOCK, -(-n // BLOCK)
    per_block = jnp.sum(mask[: full * BLOCK].reshape(full, BLOCK), axis=1, dtype=jnp.int32)
    if full < blocks:  # the last, partial block
        tail = jnp.sum(mask[full * BLOCK :], dtype=jnp.int32)
        per_block = jnp.concatenate([per_block, tail[None]])
    upto = jnp.cumsum(per_block)  # legal actions in blocks 0..b
    k = jnp.floor(u * upto[-1]).astype(jnp.int32)
    b = jnp.argmax(upto > k)
    padded = jnp.pad(mask, (0, blocks * BLOCK - n))  # a slice must not be shifted back
    block = jax.lax.dynamic_slice(padded, (b * BLOCK,), (BLOCK,))
    bit = jnp.arange(BLOCK, dtype=jnp.uint32)
    word = jnp.sum(block.astype(jnp.uint32) << bit, dtype=jnp.uint32)
    upto_bit = jax.lax.population_count(word & (jnp.uint32(0xFFFFFFFF) >> (31 - bit)))
    return b * BLOCK + jnp.argmax(upto_bit.astype(jnp.int32) > k - (upto[b] - per_block[b]))


def rollout_fn(env: Any, batch: int, steps_per_call: int) -> tuple[Callable, Any]:
    """A jitted ``(state, key) -> (state, key)`` playing ``steps_per_call`` random
    decisions in each of ``batch`` games, and its first state (both compiled here)."""
    import jax
    import jax.numpy as jnp

    def one_step(state: Any, key: Any) -> Any:
        k_act, k_step, k_init = jax.random.split(key, 3)
        action = uniform_legal_action(k_act, state.legal_action_mask)
        state = env.step(state, action, k_step)
        fresh = env.init(k_init)
        return jax.tree.map(lambda f, s: jnp.where(state.terminated, f, s), fresh, state)

    def rollout(state: Any, key: Any) -> tuple[Any, Any]:
        def body(_: int, carry: tuple[Any, Any]) -> tuple[Any, Any]:
            state, key = carry
            key, sub = jax.random.split(key)
            state = jax.vmap(one_step)(state, jax.random.split(sub, batch))
            return state, key

        return jax.lax.fori_loop(0, steps_per_call, body, (state, key))

    init = jax.jit(jax.vmap(env.init))
    state = init(jax.random.split(jax.random.PRNGKey(0), batch))
    return jax.jit(rollout), state


@dataclass
class PreparedPlay:
    """A compiled random-play rollout of one engine, ready to be timed again and again."""

    name: str
    batch: int
    steps_per_call: int
    compile_seconds: float
    call: Callable
    state: Any
    key: Any

    def time(self, seconds: float) -> JaxRow:
        """Whole calls of the rollout for about ``seconds`` (at least one)."""
        import jax

        calls = 0
        start = time.perf_counter()
        while True:
            self.state, self.key = self.call(self.state, self.key)
            jax.block_until_ready(self.state)
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        decisions = calls * self.steps_per_call * self.batch
        return JaxRow(self.name, self.batch, decisions, elapsed, self.compile_seconds)


def prepare_play(name: str, env: Any, batch: int, steps_per_call: int) -> PreparedPlay:
    """Compile the rollout (timed), then run one warm-up call."""
    import jax

    fn, state = rollout_fn(env, batch, steps_per_call)
    key = jax.random.PRNGKey(1)
    start = time.perf_counter()
    compiled = fn.lower(state, key).compile()
    compile_seconds = time.perf_counter() - start
    state, key = compiled(state, key)  # warm-up
    jax.block_until_ready(state)
    return PreparedPlay(name, batch, steps_per_call, compile_seconds, compiled, state, key)


def measure(name: str, env: Any, batch: int, seconds: float, steps_per_call: int) -> JaxRow:
    """Compile, then time whole calls of the rollout for about ``seconds``."""
    return prepare_play(name, env, batch, steps_per_call).time(seconds)


def steps_per_call(batch: int) -> int:
    """Decisions per lane in one call: enough that dispatch costs nothing at any batch."""
    return max(16, 16384 // batch)


def check_settings(
    batches: Sequence[int], seconds: float, repeats: int, part: str, search_batch: int,
    simulations: int,
) -> None:  # fmt: skip
    """ValueError naming the first setting out of its range (the CLI's flag names)."""
    from moon_agents.benchmarks import jax_search_speed as js

    def within(bounds: tuple[int, int], value: int) -> bool:
        return bounds[0] <= value <= bounds[1]

    checks = (
        ("--batches", batches, min(batches, default=0) >= 1, "comma-separated positive integers"),
        ("--seconds", seconds, seconds > 0, "more than 0"),
        ("--repeats", repeats, repeats >= 1, "1 or more"),
        ("--jax-part", part, part in PARTS, ", ".join(PARTS)),
        ("--search-batch", search_batch, within(js.SEARCH_BATCHES, search_batch),
         "{}..{}".format(*js.SEARCH_BATCHES)),
        ("--simulations", simulations, within(js.SIMULATIONS, simulations),
         "{}..{}".format(*js.SIMULATIONS)),
    )  # fmt: skip
    for flag, value, ok, allowed in checks:
        if not ok:
            raise ValueError(f"{flag} {value!r}: out of range; allowed: {allowed}")


def run_jax_bench(
    env_ids: Sequence[str] | None = None,
    batches: Sequence[int] = DEFAULT_BATCHES,
    seconds: float = 3.0,
    seed: int = 0,
    out: Callable[[str], None] = print,
    progress: Callable[[int, int, str], None] | None = None,
    *,
    repeats: int = 1,
    part: str = "all",
    search_batch: int | None = None,
    simulations: int | None = None,
    json_path: str | None = None,
) -> dict[str, Any]:
    """Measure every twin (default: all) and pgx connect_four, print the tables, return
    the figures (and write them to ``json_path`` if given; its folder must exist).

    ``part`` is ``"play"`` (random play at each of ``batches``, then the Python AEC envs),
    ``"search"`` (mctx search of ``search_batch`` positions with ``simulations``
    simulations, :mod:`moon_agents.benchmarks.jax_search_speed`) or ``"all"``. Every
    engine is compiled first (timed apart); then ``repeats`` runs each time every
    measurement once for about ``seconds``, one run after the other; the tables show
    medians. ``progress`` (if given) is called with ``(steps done, steps in all, what is
    under way)`` before each compile and each timed measurement, and with ``""`` at the
    end. Returns the data of :func:`moon_agents.benchmarks.jax_bench_report.report_data`."""
    import jax
    import pgx

    import moon_envs
    import moon_envs.jax as mj
    from moon_agents.benchmarks import jax_bench_report as jr
    from moon_agents.benchmarks import jax_search_speed as js
    from moon_agents.benchmarks.bench_report import Results, check_json_path, write_json
    from moon_agents.benchmarks.speed import random_play

    search_batch = js.DEFAULT_SEARCH_BATCH if search_batch is None else search_batch
    simulations = js.DEFAULT_SIMULATIONS if simulations is None else simulations
    check_settings(batches, seconds, repeats, part, search_batch, simulations)
    if json_path is not None:
        check_json_path(json_path)
    play, search = part in ("all", "play"), part in ("all", "search")
    ids = list(env_ids or mj.list_twins())
    engines = {REFERENCE: pgx.make("connect_four"), **{e: mj.make(e) for e in ids}}
    out(f"JAX {jax.__version__} on {jax.devices()[0].platform}: {jax.devices()[0].device_kind}")
    metrics = jr.jax_metrics(
        batches if play else (), search_batch if search else None, simulations, play
    )
    results = Results(metrics)
    compiled: dict[str, dict[str, float]] = {key: {} for key in metrics}
    to_prepare: list[tuple[str, str, str, Callable[[], Any]]] = []
    for batch in batches if play else ():
        for name, env in engines.items():
            to_prepare.append((jr.play_key(batch), name, f"batch {batch}", lambda n=name,
                               e=env, b=batch: prepare_play(n, e, b, steps_per_call(b))))
    if search:
        for name, env in engines.items():
            to_prepare.append((jr.search_key(search_batch), name, f"search {search_batch}",
                               lambda n=name, e=env: js.prepare_search(
                                   n, e, search_batch, simulations, seed)))
    python_envs = {env_id: moon_envs.make(env_id) for env_id in ids} if play else {}
    total = len(to_prepare) + repeats * (len(to_prepare) + len(python_envs))
    done = 0

    def next_step(text: str) -> None:
        nonlocal done
        if progress:
            progress(done, total, text)
        done += 1

    timed = []
    for key, name, what, prepare in to_prepare:
        next_step(f"compiling {name}, {what}")
        prepared = prepare()
        compiled[key][name] = prepared.compile_seconds
        timed.append((key, name, what, prepared))
    for r in range(repeats):  # a run measures everything once; runs follow one another
        for key, name, what, prepared in timed:
            next_step(f"run {r + 1}/{repeats}, {name}, {what}")
            results.add(key, name, prepared.time(seconds).per_second)
        for env_id, env in python_envs.items():
            next_step(f"run {r + 1}/{repeats}, {env_id}, Python AEC env")
            results.add(jr.PYTHON_AEC, env_id, random_play(env, seconds, seed + r).steps_per_s)
    for env in python_envs.values():
        env.close()

    runs = jr.runs_text(repeats)
    for batch in batches if play else ():
        out("")
        out(f"batch {batch} ({steps_per_call(batch)} decisions per game per call, {runs})")
        key = jr.play_key(batch)
        jr.engine_table(results, key, list(engines), compiled[key], out, repeats)
    if play:
        out("")
        out(f"Python AEC env, one process (moon_envs.make, random legal actions, {runs})")
        for env_id in ids:
            out(f"{env_id:<22}{results.median(jr.PYTHON_AEC, env_id):>14,.0f}")
    if search:
        out("")
        out(f"mctx gumbel_muzero_policy, batch {search_batch}, {simulations} simulations, "
            f"{js.MAX_CONSIDERED} considered actions, MLP {js.HIDDEN}x{js.HIDDEN} ({runs})")
        key = jr.search_key(search_batch)
        jr.engine_table(results, key, list(engines), compiled[key], out, repeats)
    if progress:
        progress(total, total, "")
    settings = {
        "envs": ids, "part": part, "batches": list(batches) if play else [],
        "seconds": seconds, "repeats": repeats, "seed": seed,
        "search": {
            "batch": search_batch, "simulations": simulations,
            "max_considered_actions": js.MAX_CONSIDERED, "hidden": [js.HIDDEN, js.HIDDEN],
        } if search else None,
    }  # fmt: skip
    data = jr.report_data(results, compiled, settings)
    if json_path is not None:
        out(f"\nfigures written to {write_json(json_path, data)}")
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m moon_agents.benchmarks.jax_speed", description=__doc__.split("\n")[0]
    )
    parser.add_argument("envs", nargs="*", metavar="ENV", help="twin ids (default: all)")
    parser.add_argument("--batches", default="1,64,1024", help="comma-separated batch sizes")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--repeats", type=int, default=1, help="runs; medians shown")
    parser.add_argument("--part", choices=PARTS, default="all", help="what to measure")
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this file")
    args = parser.parse_args(argv)
    run_jax_bench(
        args.envs or None, parse_batches(args.batches), args.seconds,
        repeats=args.repeats, part=args.part, json_path=args.json,
    )  # fmt: skip
    return 0


def parse_batches(text: str) -> list[int]:
    """``"1,64,1024"`` as batch sizes; anything else is a ValueError naming the flag."""
    try:
        batches = [int(part) for part in text.split(",")]
    except ValueError:
        batches = []
    if not batches or min(batches) < 1:
        raise ValueError(f"--batches {text!r}: allowed: comma-separated positive integers")
    return batches


if __name__ == "__main__":
    raise SystemExit(main())
