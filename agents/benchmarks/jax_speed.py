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
noisy, so read ratios rather than absolute figures. connect_four needs pgx:
``pip install "moon-envs[jax,bench]"``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_BATCHES = (1, 64, 1024)
REFERENCE = "pgx connect_four"


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


def measure(name: str, env: Any, batch: int, seconds: float, steps_per_call: int) -> JaxRow:
    """Compile, then time whole calls of the rollout for about ``seconds``."""
    import jax

    fn, state = rollout_fn(env, batch, steps_per_call)
    key = jax.random.PRNGKey(1)
    start = time.perf_counter()
    compiled = fn.lower(state, key).compile()
    compile_seconds = time.perf_counter() - start
    state, key = compiled(state, key)  # warm-up
    jax.block_until_ready(state)
    calls = 0
    start = time.perf_counter()
    while True:
        state, key = compiled(state, key)
        jax.block_until_ready(state)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return JaxRow(name, batch, calls * steps_per_call * batch, elapsed, compile_seconds)


def steps_per_call(batch: int) -> int:
    """Decisions per lane in one call: enough that dispatch costs nothing at any batch."""
    return max(16, 16384 // batch)


def run_jax_bench(
    env_ids: Sequence[str] | None = None,
    batches: Sequence[int] = DEFAULT_BATCHES,
    seconds: float = 3.0,
    seed: int = 0,
    out: Callable[[str], None] = print,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[JaxRow]:
    """Measure every twin (default: all) and pgx connect_four at each batch size and print
    one table per batch size, then the Python AEC envs. ``progress`` (if given) is called
    with ``(measurements done, measurements in all, what is under way)`` before each
    measurement and with ``""`` at the end."""
    import jax
    import pgx

    import moon_envs
    import moon_envs.jax as mj
    from moon_agents.benchmarks.speed import random_play

    ids = list(env_ids or mj.list_twins())
    twins = {env_id: mj.make(env_id) for env_id in ids}
    out(f"JAX {jax.__version__} on {jax.devices()[0].platform}: {jax.devices()[0].device_kind}")
    rows: list[JaxRow] = []
    total, done = len(batches) * (len(twins) + 1) + len(ids), 0

    def measured_next(name: str, what: str) -> None:
        nonlocal done
        if progress:
            progress(done, total, f"{name}, {what}")
        done += 1

    for batch in batches:
        k = steps_per_call(batch)
        measured_next(REFERENCE, f"batch {batch}")
        reference = measure(REFERENCE, pgx.make("connect_four"), batch, seconds, k)
        measured = []
        for env_id, twin in twins.items():
            measured_next(env_id, f"batch {batch}")
            measured.append(measure(env_id, twin, batch, seconds, k))
        rows += [reference, *measured]
        out("")
        out(f"batch {batch} ({k} decisions per game per call)")
        out(f"{'engine':<22}{'decisions/s':>14}{'ratio':>9}{'compile s':>11}")
        for row in [reference, *measured]:
            ratio = row.per_second / reference.per_second if reference.per_second else 0.0
            out(f"{row.name:<22}{row.per_second:>14,.0f}{ratio:>8.2f}x{row.compile_seconds:>11.1f}")
    out("")
    out("Python AEC env, one process (moon_envs.make, random legal actions)")
    for env_id in ids:
        measured_next(env_id, "Python AEC env")
        row = random_play(moon_envs.make(env_id), seconds, seed)
        out(f"{env_id:<22}{row.steps_per_s:>14,.0f}")
    if progress:
        progress(total, total, "")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m moon_agents.benchmarks.jax_speed", description=__doc__.split("\n")[0]
    )
    parser.add_argument("envs", nargs="*", metavar="ENV", help="twin ids (default: all)")
    parser.add_argument("--batches", default="1,64,1024", help="comma-separated batch sizes")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    args = parser.parse_args(argv)
    run_jax_bench(args.envs or None, parse_batches(args.batches), args.seconds)
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
