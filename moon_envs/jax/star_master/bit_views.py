"""Star Master's twin, the observation and the legal mask built as bit words: the values
of :func:`~moon_envs.jax.star_master.views.observe` and
:func:`~moon_envs.jax.star_master.views.legal_mask`, for the fast ``init`` and ``step``.

Every entry of the observation but the last (the turn) is 0 or 1, and every entry of the
mask a bool: each is a bit of a few uint32 words per position, set by scalar arithmetic
(a one-hot block sets one bit at a computed place), then spread over the entries in one
elementwise pass (:func:`spread`). On the CPU under ``vmap`` that is one small pass and
one wide one, where the block-by-block observation is a dozen passes and a concatenation.

Checked against the views in ``tests/jax/test_star_master_fast_paths.py``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.jupiter_arrays import computed_once
from moon_envs.jax.star_master.tables import FLIP, NAME, RACE, STAR, SWAP, SMx, Tables

Array = jax.Array
U32 = jnp.uint32
WIDTH = 32  # bits per word


class BitWords:
    """Bits written one after the other into uint32 words (scalars under ``vmap``)."""

    def __init__(self, size: int) -> None:
        self.words = [U32(0)] * -(-size // WIDTH)
        self.at = 0  # the next bit's place

    def one_hot(self, value: Array, count: int) -> None:
        """``count`` bits, the ``value``-th set (none if ``value`` is out of range)."""
        inside = (value >= 0) & (value < count)
        first, last = self.at // WIDTH, (self.at + count - 1) // WIDTH
        for w in range(first, last + 1):
            place = self.at + value - w * WIDTH
            here = inside & (place >= 0) & (place < WIDTH)
            bit = U32(1) << jnp.clip(place, 0, WIDTH - 1).astype(U32)
            self.words[w] = self.words[w] | jnp.where(here, bit, U32(0))
        self.at += count

    def flag(self, value: Array) -> None:
        """One bit, set where ``value``."""
        w, b = divmod(self.at, WIDTH)
        self.words[w] = self.words[w] | (value.astype(U32) << U32(b))
        self.at += 1

    def skip(self, count: int) -> None:
        self.at += count


def spread(words: Array, size: int) -> Array:
    """Bool ``[size]``: bit ``j % 32`` of word ``j // 32`` (one elementwise pass; the
    words are computed once first, not again for each of their 32 entries)."""
    words = computed_once(words)
    bits = (words[:, None] >> jnp.arange(WIDTH, dtype=U32)[None, :]) & U32(1)
    return bits.reshape(-1)[:size] == U32(1)


def _row(values: Array, seat: Array) -> Array:
    """``values[seat]`` as a chain of selects over the few seats (elementwise)."""
    out = values[0]
    for s in range(1, values.shape[0]):
        out = jnp.where(seat == s, values[s], out)
    return out


def observe(t: Tables, x: SMx, p: Array) -> Array:
    """:func:`~moon_envs.jax.star_master.views.observe` ``(t, x, p)``, bit for bit."""
    n, k = t.n, t.k
    win, perm, mem = _row(x.win, p), _row(x.perm, p), _row(x.mem, p)
    sought = jnp.where(x.target >= 0, x.target, x.white)
    valid = (sought >= 0) & (sought < k)
    size = 3 * k * k + 2 * k + n * k + (k + 1) + 1 + 4 + 3 * k + n + 1
    bits = BitWords(size)
    for s in range(k):
        bits.one_hot(win[s] + 1, k + 1)
    for s in range(k):
        bits.one_hot(perm[s], k)
    for s in range(k):
        bits.one_hot(mem[s] + 1, k + 1)
    for i in range(n):  # the pawns from seat p on
        row = _row(x.pawns, (p + i) % n)
        for c in range(k):
            bits.flag(row[c])
    rolled = x.white >= 0
    bits.one_hot(jnp.where(rolled, jnp.minimum(x.white, k), -1), k + 1)
    bits.flag(rolled & (x.black == 1))
    bits.one_hot(x.phase - NAME, 4)
    bits.one_hot(x.target, k)
    bits.one_hot(x.found, k)
    for s in range(k):
        bits.flag((x.layout[s] == sought) & ((win[s] >= 0) | (mem[s] >= 0)) & valid)
    bits.one_hot((x.roller - p) % n, n)
    bits.skip(1)  # the turn, a fraction
    assert bits.at == size
    entries = spread(jnp.stack(bits.words), size).astype(jnp.float32)
    turn = x.turn.astype(jnp.float32) / jnp.float32(t.turn_cap)
    return jnp.where(jnp.arange(size) == size - 1, turn, entries)


def legal_mask(t: Tables, x: SMx) -> Array:
    """:func:`~moon_envs.jax.star_master.views.legal_mask` ``(t, x)``, as one word."""
    k = t.k
    ph = x.phase
    colours = U32((1 << k) - 1)
    mine = _row(x.pawns, x.mover)
    held = U32(0)
    for c in range(k):
        held = held | (mine[c].astype(U32) << U32(c))
    own_target = (x.target >= 0) & (((held >> jnp.clip(x.target, 0, k - 1).astype(U32)) & 1) == 1)
    may_pass = ph == RACE if t.must_search else (ph == RACE) | ((x.white != STAR) & own_target)
    flip_like = (ph == FLIP) | (ph == RACE)
    found = U32(1) << jnp.clip(x.found, 0, k - 1).astype(U32)
    not_found = jnp.where(x.found >= 0, ~found, U32(0xFFFFFFFF)) & colours
    word = jnp.where(flip_like, colours, U32(0))
    word = word | jnp.where(flip_like & may_pass, U32(1 << (3 * k)), U32(0))
    word = word | jnp.where(ph == SWAP, not_found << U32(k), U32(0))
    word = word | jnp.where(ph == NAME, (~held & colours) << U32(2 * k), U32(0))
    return spread(word[None], t.num)
