"""Bit streams spread into arrays: the entries of a mask or a one-hot view, written as
``uint32`` words and unpacked in one pass.

Under ``vmap`` on the CPU, XLA vectorises a loop along the last axis of its output; a
view built as ``[cells, channels]`` or ``[rows, cols]`` compares has a last axis of a
handful to a dozen entries, which it barely vectorises, and joining blocks with
``concatenate`` copies each one again. Here the words are first repacked into 16-bit
chunks of one stream (static shifts over one period of ``lcm(width, 16)`` bits, no
gather), computed once into memory, then unpacked along a 16-wide axis.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.jupiter_arrays import computed_once

Array = jax.Array


CHUNK = 16  # bits per word of a repacked stream: XLA's CPU loops vectorise a 16-wide axis
_CHUNK_BITS = np.uint32((1 << CHUNK) - 1)


def chunks_of(words: Array, width: int) -> Array:
    """uint32 ``[ceil(w * width / 16)]`` (rounded up to a whole period): the stream that
    ``words`` (uint32 ``[w]``, ``width`` low bits each, word after word, low bit first)
    spell, cut into 16-bit chunks. Static shifts over one period of ``lcm(width, 16)``
    bits; no gather."""
    period = width * CHUNK // np.gcd(width, CHUNK)
    per_words, per_chunks = period // width, period // CHUNK
    groups = -(-words.shape[0] // per_words)
    padded = jnp.pad(words, (0, groups * per_words - words.shape[0]))
    grouped = padded.reshape(groups, per_words)
    chunks = []
    for j in range(per_chunks):
        chunk = None
        for m in range(per_words):
            shift = m * width - j * CHUNK
            if shift >= CHUNK or shift + width <= 0:
                continue  # word m has no bit in chunk j
            part = grouped[:, m]
            part = part << np.uint32(shift) if shift >= 0 else part >> np.uint32(-shift)
            chunk = part if chunk is None else chunk | part
        chunks.append(chunk & _CHUNK_BITS)
    return jnp.stack(chunks, axis=1).reshape(-1)


def after_bits(lead: Array, chunks: Array) -> Array:
    """uint32 16-bit chunks: the bits ``lead`` (bool ``[a]``) followed by the stream of
    ``chunks``."""
    full, rest = divmod(lead.shape[0], CHUNK)
    weights = np.uint32(1) << np.arange(CHUNK, dtype=np.uint32)
    head = lead[: full * CHUNK].reshape(full, CHUNK).astype(jnp.uint32) @ weights
    if rest:
        low = jnp.sum(lead[full * CHUNK :].astype(jnp.uint32) * weights[:rest], dtype=jnp.uint32)
        tail = jnp.concatenate([low[None], chunks >> np.uint32(CHUNK - rest)])
        tail = tail | jnp.pad((chunks << np.uint32(rest)) & _CHUNK_BITS, (0, 1))
        chunks = tail
    return jnp.concatenate([head.astype(jnp.uint32), chunks])


def unpack_chunks(chunks: Array, size: int) -> Array:
    """bool ``[size]``: the first ``size`` bits of the stream of 16-bit ``chunks`` (zeros
    past its end).

    The chunks are computed once into memory first
    (:func:`~moon_envs.jax.jupiter_arrays.computed_once`): fused into the unpacking loop,
    each would be recomputed for each of its 16 bits."""
    short = -(-size // CHUNK) - chunks.shape[0]
    chunks = computed_once(jnp.pad(chunks, (0, max(0, short))))
    bits = (chunks[:, None] >> jnp.arange(CHUNK, dtype=jnp.uint32)) & np.uint32(1)
    return bits.astype(jnp.bool_).reshape(-1)[:size]
