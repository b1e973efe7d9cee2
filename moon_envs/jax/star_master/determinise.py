"""Star Master's twin, the determinisation of a position for one seat (``resample``).

As :func:`moon_envs.star_master.determinise.resample_state`: the colours of the slots that
the seat neither remembers nor saw since its last decision are shuffled among themselves
(uniformly); every seat's memory and window follow the new layout; during a race the
other seats' sealed choices are redrawn (abstain or a slot, uniformly); in decay mode the
forgetting seed is redrawn. Before the layout is complete (set-up) and once the game is
over the position is returned unchanged. Everything the seat is shown (observation and
legal mask) is the same in every redraw.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.star_master.tables import END, RACE, SEED, SETUP, SMx, Tables

Array = jax.Array


def resample(t: Tables, x: SMx, p: Array, key: Array) -> SMx:
    """A position consistent with everything seat ``p`` knows, the unknown redrawn."""
    n, k = t.n, t.k
    key_layout, key_race, key_seed = jax.random.split(key, 3)
    active = (x.phase != SETUP) & (x.phase != END)
    hidden = (x.win[p] < 0) & (x.mem[p] < 0) & active
    # the hidden colours in ascending order, then dealt to the hidden slots at random
    colours = jnp.sort(jnp.where(hidden, x.layout, k))
    noise = jnp.where(hidden, jax.random.uniform(key_layout, (k,)), 2.0)
    rank = jnp.argsort(jnp.argsort(noise))
    layout = jnp.where(hidden, colours[rank], x.layout)
    win = jnp.where(x.win >= 0, layout[None, :], -1)
    mem = jnp.where(x.mem >= 0, layout[None, :], -1)
    # other seats' sealed race choices
    redraw = (x.phase == RACE) & (jnp.arange(n) != p) & (x.race_choice != -2)
    drawn = jax.random.randint(key_race, (n,), -1, k)
    seed = x.seed
    if t.decays:
        fresh = jax.random.randint(key_seed, (), 0, t.num_outcomes)
        seed = jnp.where(active & (x.phase != SEED), fresh, seed)
    return x._replace(
        layout=layout,
        win=win,
        mem=mem,
        race_choice=jnp.where(redraw, drawn, x.race_choice),
        seed=seed,
    )
