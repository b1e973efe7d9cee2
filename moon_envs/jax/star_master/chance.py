"""Star Master's twin, chance: the outcome probabilities and the sampling of the chance
events that start a game or follow an action.

Outcome ids are the Python engine's: a colour at set-up, a seed ``0..1023`` (decay
mode), a dice roll ``2 * white + black`` (``0..19``), a race winner's seat. A turn's
chance is known in advance: after a player action at most a race draw and then a roll;
at the start of a game the set-up's draws, the seed (decay mode) and the first roll.
:func:`start` (pgx's ``init``) and :func:`resolve` (after an action) apply exactly those,
each under its condition, without a loop; :func:`set_up` loops over set-up draws still
pending (only from the explicit layer's initial state).

Each outcome is drawn from a uniform uint32 word rather than a Gumbel vector: a uniform
integer below ``m`` is the word's multiply-high by ``m`` (:func:`below`), a roll is a
uniform pair of faces, a race winner a uniform grabber, and the layout a Fisher-Yates
shuffle whose draws are the mixed-radix digits of two words (:func:`digits`). The words
are ``jax.random.bits``'s for the key, computed without its loop
(:mod:`moon_envs.jax.random_words`): four for a new game, two for a step.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.random_words import random_words
from moon_envs.jax.star_master import rules
from moon_envs.jax.star_master.tables import DRAW, ROLL, SEED, SETUP, SMx, Tables, initial_x

Array = jax.Array


def chance_probs(t: Tables, x: SMx) -> Array:
    """float32 ``[num_outcomes]`` at a chance node: the colours left at set-up, the
    uniform seed, the dice table, or the grabbers (seat ids) of a race draw."""
    size = t.num_outcomes
    ph = x.phase
    ids = jnp.arange(size)
    placed = jnp.any(x.layout[None, :] == ids[:, None], axis=1)
    left = (ids < t.k) & ~placed
    setup = left / jnp.maximum(jnp.sum(left), 1)
    grab = jnp.pad(x.race_choice >= 0, (0, size - t.n))
    draw = grab / jnp.maximum(jnp.sum(grab), 1)
    roll = jnp.pad(jnp.asarray(t.roll_probs), (0, size - t.roll_probs.size))
    seed = jnp.full((size,), 1.0 / size)
    out = jnp.where(ph == SETUP, setup, jnp.where(ph == DRAW, draw, 0.0))
    out = jnp.where(ph == ROLL, roll, jnp.where(ph == SEED, seed, out))
    return out.astype(jnp.float32)


def below(word: Array, m: Array | int) -> Array:
    """``floor(word * m / 2**32)``: uniform in ``0..m-1`` for a uniform uint32 ``word``
    (``m`` below ``2**16``; each value has ``floor`` or ``ceil`` of ``2**32 / m`` words,
    a bias below ``m / 2**32``), in 32-bit integers."""
    m = jnp.asarray(m).astype(jnp.uint32)
    high, low = word >> 16, word & jnp.uint32(0xFFFF)
    return ((high * m + ((low * m) >> 16)) >> 16).astype(jnp.int32)


def digits(word: Array, radices: list[int]) -> list[Array]:
    """Uniform digits ``0..r-1`` for each radix ``r`` from one uint32 ``word``: the digits
    of ``word / 2**32`` in that mixed radix (jointly uniform over the radices' product
    ``P``, a bias below ``P / 2**32``)."""
    out = []
    for r in radices:
        out.append(below(word, r))
        word = word * jnp.uint32(r)
    return out


def _among(flags: Array, word: Array) -> Array:
    """A uniform draw among the true entries of ``flags`` (at least one), from a uint32:
    the ``r``-th true entry, ``r`` drawn below their count (unrolled over the few
    entries, so that it stays one elementwise pass)."""
    count = sum(flags[i].astype(jnp.int32) for i in range(flags.shape[0]))
    r = below(word, count)
    seen, out = jnp.int32(0), jnp.int32(0)
    for i in range(flags.shape[0]):
        out = jnp.where(flags[i] & (seen == r), i, out)
        seen = seen + flags[i].astype(jnp.int32)
    return out


def roll_outcome(t: Tables, word: Array) -> Array:
    """A dice outcome ``2 * white + black`` from a uint32: a uniform pair of faces (one of
    ``t.roll_total``) mapped to its outcome through the outcomes' cumulative counts."""
    d = below(word, t.roll_total)
    ends = np.cumsum(t.roll_counts)
    last = int(np.flatnonzero(t.roll_counts)[-1])
    return sum((d >= int(e)).astype(jnp.int32) for e in ends[:last])


def set_up(t: Tables, x: SMx, key: Array) -> SMx:
    """The set-up's pending chance drawn with ``key``: the cubes still to place (each a
    uniform draw among the colours left) and the seed (decay mode); nothing elsewhere."""

    def pending(carry: tuple[SMx, Array]) -> Array:
        return (carry[0].phase == SETUP) | (carry[0].phase == SEED)

    def one(carry: tuple[SMx, Array]) -> tuple[SMx, Array]:
        x, key = carry
        key, sub = jax.random.split(key)
        words = jax.random.bits(sub, (2,), jnp.uint32)
        colours = jnp.arange(t.k)
        left = ~jnp.any(x.layout[None, :] == colours[:, None], axis=1)
        is_seed = x.phase == SEED
        x = rules.place(t, x, _among(left, words[0]), x.phase == SETUP)
        return x._replace(
            seed=jnp.where(is_seed, (words[1] >> 22).astype(jnp.int32), x.seed),
            phase=jnp.where(is_seed, ROLL, x.phase),
        ), key

    return jax.lax.while_loop(pending, one, (x, key))[0]


def init_words(key: Array) -> Array:
    """The four uint32 words a new game is drawn from (``jax.random.bits(key, (4,))``):
    two for the layout, one for the first roll, one for the seed."""
    return random_words(key, 4)


def step_words(key: Array) -> Array:
    """The two uint32 words a step's chance is drawn from (``jax.random.bits(key,
    (2,))``): a race draw's, then the roll's."""
    return random_words(key, 2)


def resolve(t: Tables, x: SMx, words: Array) -> SMx:
    """The chance events a player action can cause, drawn from ``words``
    (:func:`step_words`): a race draw among several grabbers, then the next turn's roll
    (each only where it is pending)."""
    is_draw = x.phase == DRAW
    x = rules.draw(t, x, _among(x.race_choice >= 0, words[0]), is_draw)
    return rules.roll(t, x, roll_outcome(t, words[1]), x.phase == ROLL)


def shuffled(k: int, draws: list[Array]) -> Array:
    """The colours ``0..k-1`` shuffled by Fisher-Yates: slot ``i`` swaps with slot
    ``i + draws[i]`` (``draws[i]`` uniform in ``0..k-1-i``), on ``k`` scalars so that it
    stays one elementwise pass."""
    slots = [jnp.int32(c) for c in range(k)]
    for i, d in enumerate(draws):
        j = i + d
        chosen = slots[i]
        for m in range(i + 1, k):
            chosen = jnp.where(j == m, slots[m], chosen)
            slots[m] = jnp.where(j == m, slots[i], slots[m])
        slots[i] = chosen
    return jnp.stack(slots)


def start(t: Tables, words: Array) -> SMx:
    """A new game, its set-up chance drawn from ``words`` (:func:`init_words`): a uniform
    layout (the distribution of the set-up's draws, each cube a uniform draw among the
    colours left), the seed (decay mode), the first roll."""
    k = t.k
    radices = list(range(k, 1, -1))
    draws = digits(words[0], radices[: t.layout_split]) + digits(
        words[1], radices[t.layout_split :]
    )
    layout = shuffled(k, draws)
    slots = jnp.arange(k)
    x = initial_x(t)
    x = x._replace(layout=jnp.where(slots == k - 1, -1, layout), setup_index=jnp.int32(k - 1))
    x = rules.place(t, x, layout[k - 1], jnp.bool_(True))  # every seat sees the layout
    if t.decays:
        x = x._replace(seed=(words[3] >> 22).astype(jnp.int32), phase=jnp.int32(ROLL))
    return rules.roll(t, x, roll_outcome(t, words[2]), jnp.bool_(True))
