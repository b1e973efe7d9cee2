"""Search throughput of the JAX twins beside pgx's ``connect_four``: mctx simulations per
second, measured in one run.

Every engine runs the same search: ``mctx.gumbel_muzero_policy`` with
:data:`DEFAULT_SIMULATIONS` simulations (``--simulations``, :data:`SIMULATIONS`) and
:data:`MAX_CONSIDERED` considered actions over a batch of positions (256 by default,
``--search-batch``, :data:`SEARCH_BATCHES`), ``invalid_actions = ~legal_action_mask``. The
``recurrent_fn`` is the engine's own ``step(state, action, key)`` (chance sampled with the
search key); the reward is the mover's reward and the discount is ``+1`` when the same
seat moves again and ``-1`` when the turn passes (``0`` once the game ends). That is a
cost benchmark, not a tuned agent: the discount ignores seat order beyond two players.

Prior logits and value come from the same small MLP for every engine (2 hidden layers of
:data:`HIDDEN` units, weights drawn from a fixed seed) over ``env.observe(state)``
flattened, so the network costs about the same everywhere and the figure mostly measures
``step``. Only the public API is used (``init``, ``step``, ``observe``,
``legal_action_mask``, ``current_player``, ``rewards``, ``terminated``).

One jitted call runs one whole search; :func:`prepare_search` compiles it (timed apart)
and :meth:`PreparedSearch.time` runs whole calls for about ``seconds`` with
``block_until_ready``, as often as ``--repeats`` asks. The figure is
``simulations/s = batch x simulations x searches / seconds``.
:func:`moon_agents.benchmarks.jax_speed.run_jax_bench` measures every twin and pgx
connect_four this way in one run and prints the table (ratio: twin / connect_four).
connect_four needs pgx: ``pip install "moon-envs[jax,bench]"``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DEFAULT_SIMULATIONS = 32
SIMULATIONS = (1, 1024)
"""The range ``--simulations`` allows."""
MAX_CONSIDERED = 16
HIDDEN = 64
DEFAULT_SEARCH_BATCH = 256
SEARCH_BATCHES = (1, 4096)
"""The range ``--search-batch`` allows."""


@dataclass(frozen=True)
class SearchRow:
    """One engine's search throughput at one batch size: ``searches`` whole searches of
    ``batch`` positions, ``simulations`` simulations each, in ``seconds``."""

    name: str
    batch: int
    simulations: int
    searches: int
    seconds: float
    compile_seconds: float

    @property
    def per_second(self) -> float:
        """Simulations per second: ``batch x simulations x searches / seconds``."""
        sims = self.batch * self.simulations * self.searches
        return sims / self.seconds if self.seconds > 0 else 0.0


def mlp_params(obs_size: int, num_actions: int, seed: int = 0) -> list[tuple[Any, Any]]:
    """Fixed-seed random weights of the MLP: ``obs_size -> 64 -> 64 -> num_actions + 1``."""
    import jax
    import jax.numpy as jnp

    sizes = [obs_size, HIDDEN, HIDDEN, num_actions + 1]
    keys = jax.random.split(jax.random.PRNGKey(seed), len(sizes) - 1)
    return [
        (jax.random.normal(k, (n_in, n_out)) / jnp.sqrt(n_in), jnp.zeros(n_out))
        for k, n_in, n_out in zip(keys, sizes[:-1], sizes[1:])
    ]


def search_fn(
    env: Any, batch: int, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0
) -> tuple[Callable, Any]:
    """A jitted ``(state, key) -> action weights`` running one search of ``simulations``
    simulations over ``batch`` positions, and the batch of first positions to search from."""
    import jax
    import jax.numpy as jnp
    import mctx

    init = jax.jit(jax.vmap(env.init))
    states = init(jax.random.split(jax.random.PRNGKey(seed), batch))
    obs_size = int(jnp.size(jax.vmap(env.observe)(states)) // batch)
    params = mlp_params(obs_size, env.num_actions, seed)

    def net(state: Any) -> tuple[Any, Any]:
        x = jax.vmap(env.observe)(state).reshape(batch, -1).astype(jnp.float32)
        for i, (w, b) in enumerate(params):
            x = x @ w + b
            if i < len(params) - 1:
                x = jax.nn.relu(x)
        logits = jnp.where(state.legal_action_mask, x[:, :-1], -1e9)
        return logits, jnp.tanh(x[:, -1])

    def recurrent_fn(_: Any, key: Any, action: Any, state: Any) -> tuple[Any, Any]:
        mover = state.current_player
        state = jax.vmap(env.step)(state, action, jax.random.split(key, batch))
        logits, value = net(state)
        reward = jnp.take_along_axis(state.rewards, jnp.maximum(mover, 0)[:, None], axis=1)
        discount = jnp.where(state.current_player == mover, 1.0, -1.0)
        discount = jnp.where(state.terminated, 0.0, discount)
        out = mctx.RecurrentFnOutput(
            reward=reward[:, 0].astype(jnp.float32),
            discount=discount,
            prior_logits=logits,
            value=jnp.where(state.terminated, 0.0, value),
        )
        return out, state

    def search(state: Any, key: Any) -> Any:
        logits, value = net(state)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
        policy = mctx.gumbel_muzero_policy(
            params=None,
            rng_key=key,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=simulations,
            max_num_considered_actions=MAX_CONSIDERED,
            invalid_actions=~state.legal_action_mask,
        )
        return policy.action_weights

    return jax.jit(search), states


@dataclass
class PreparedSearch:
    """A compiled search of one engine over its first positions, ready to be timed again
    and again (every call searches the same positions with a fresh key)."""

    name: str
    batch: int
    simulations: int
    compile_seconds: float
    call: Callable
    states: Any
    key: Any

    def time(self, seconds: float) -> SearchRow:
        """Whole searches for about ``seconds`` (at least one)."""
        import jax

        searches = 0
        start = time.perf_counter()
        while True:
            self.key, sub = jax.random.split(self.key)
            jax.block_until_ready(self.call(self.states, sub))
            searches += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        return SearchRow(
            self.name, self.batch, self.simulations, searches, elapsed, self.compile_seconds
        )


def prepare_search(
    name: str, env: Any, batch: int, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0
) -> PreparedSearch:
    """Compile one search (timed), then run it once as a warm-up, its key split as
    :meth:`PreparedSearch.time` splits it (the split's own compile is no run's)."""
    import jax

    fn, states = search_fn(env, batch, simulations, seed)
    key, sub = jax.random.split(jax.random.PRNGKey(seed + 1))
    start = time.perf_counter()
    compiled = fn.lower(states, sub).compile()
    compile_seconds = time.perf_counter() - start
    jax.block_until_ready(compiled(states, sub))  # warm-up
    return PreparedSearch(name, batch, simulations, compile_seconds, compiled, states, key)


def measure_search(
    name: str,
    env: Any,
    batch: int,
    seconds: float,
    seed: int = 0,
    simulations: int = DEFAULT_SIMULATIONS,
) -> SearchRow:
    """Compile one search, then time whole searches for about ``seconds``."""
    return prepare_search(name, env, batch, simulations, seed).time(seconds)
