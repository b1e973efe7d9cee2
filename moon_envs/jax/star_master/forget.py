"""Forgetting in ``memory="decay"``: the Python engine's SplitMix64 hash in 32-bit JAX.

:func:`moon_envs.star_master.memory.forget_mask` hashes ``(seed, turn, cell)`` with
SplitMix64 on uint64 and forgets a cell when ``(hash >> 11) / 2**53 < forget_prob``. JAX
runs without 64-bit types by default, so a uint64 is held here as a pair ``(hi, lo)`` of
uint32 and the comparison is made on integers against a threshold ``T`` precomputed from
``forget_prob`` (see :class:`~moon_envs.jax.star_master.tables.Tables`): bit for bit the
engine's draws.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array
U32 = jnp.uint32

_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def _split(c: int) -> tuple[Array, Array]:
    return U32(c >> 32), U32(c & 0xFFFFFFFF)


def _add(a: tuple[Array, Array], c: int) -> tuple[Array, Array]:
    bh, bl = _split(c)
    lo = a[1] + bl
    return a[0] + bh + (lo < bl).astype(U32), lo


def _mulhi32(a: Array, b: Array) -> Array:
    """The high 32 bits of the 64-bit product of two uint32."""
    mask = U32(0xFFFF)
    a0, a1, b0, b1 = a & mask, a >> 16, b & mask, b >> 16
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> 16) + (p01 & mask) + (p10 & mask)
    return p11 + (p01 >> 16) + (p10 >> 16) + (mid >> 16)


def _mul(a: tuple[Array, Array], c: int) -> tuple[Array, Array]:
    ah, al = a
    bh, bl = _split(c)
    return _mulhi32(al, bl) + al * bh + ah * bl, al * bl


def _xorshift(a: tuple[Array, Array], s: int) -> tuple[Array, Array]:
    """``a ^ (a >> s)`` for ``0 < s < 32``."""
    hi, lo = a
    return hi ^ (hi >> s), lo ^ ((lo >> s) | (hi << (32 - s)))


def _mix(a: tuple[Array, Array]) -> tuple[Array, Array]:
    a = _add(a, _GOLDEN)
    a = _mul(_xorshift(a, 30), _M1)
    a = _mul(_xorshift(a, 27), _M2)
    return _xorshift(a, 31)


def forget_mask(seed: Array, turn: Array, n: int, k: int, threshold: int) -> Array:
    """Bool ``[n, k]``: the slots each seat forgets at the start of ``turn`` (the engine's
    ``forget_mask(seed, turn, n, forget_prob, k)``; ``threshold`` as in ``Tables``)."""
    if threshold <= 0:
        return jnp.zeros((n, k), jnp.bool_)
    # seed < 1024 and turn <= 100 000: seed * 1 000 003 + turn fits in 32 bits
    start = seed.astype(U32) * U32(1_000_003) + turn.astype(U32)
    hi, lo = _mix((jnp.zeros_like(start), start))
    cells = jnp.arange(n * k, dtype=U32)
    hi, lo = _mix((jnp.broadcast_to(hi, cells.shape), lo ^ cells))
    top, low = hi >> 11, (lo >> 11) | (hi << 21)  # the 53-bit value, split at bit 32
    t_hi, t_lo = threshold >> 32, threshold & 0xFFFFFFFF
    below = (top < U32(t_hi)) | ((top == U32(t_hi)) & (low < U32(t_lo)))
    return below.reshape(n, k)
