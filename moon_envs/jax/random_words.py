"""Random words from a JAX key in one elementwise pass: ``jax.random.bits(key, (count,),
jnp.uint32)``, bit for bit, without its loop.

On the CPU JAX lowers the threefry hash as a rolled loop of five steps (to keep compile
times short); under ``vmap`` in a twin's step that loop cost more than the rules. Here
the same hash (Threefry-2x32 with 20 rounds, as :mod:`jax._src.random.threefry2x32`) is
written out round by round, which XLA fuses into one pass. It gives the words
``jax.random.bits`` gives for a threefry key (raw ``uint32[2]`` or typed) with
``jax_threefry_partitionable`` on, JAX's default; for any other key or setting it calls
``jax.random.bits`` itself.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array
U32 = jnp.uint32

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA


def _rotate_left(x: Array, d: int) -> Array:
    return (x << U32(d)) | (x >> U32(32 - d))


def threefry2x32(k0: Array, k1: Array, x0: Array, x1: Array) -> tuple[Array, Array]:
    """The Threefry-2x32 hash (20 rounds) of the counter pair ``(x0, x1)`` under the key
    ``(k0, k1)``, all uint32 (broadcast together): JAX's ``threefry2x32`` primitive."""
    ks = (k0, k1, k0 ^ k1 ^ U32(_PARITY))
    x0, x1 = x0 + ks[0], x1 + ks[1]
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = x0 + x1
            x1 = _rotate_left(x1, r) ^ x0
        x0 = x0 + ks[(i + 1) % 3]
        x1 = x1 + ks[(i + 2) % 3] + U32(i + 1)
    return x0, x1


def _threefry_data(key: Array) -> Array | None:
    """The ``uint32[2]`` words of a threefry key (raw or typed), when JAX draws from keys as
    written out here (``jax_threefry_partitionable``, the default); ``None`` otherwise."""
    threefry = str(jax.random.key_impl(key)) == "threefry2x32"
    if not threefry or not jax.config.jax_threefry_partitionable:
        return None
    typed = jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key)
    return jax.random.key_data(key) if typed else key


def _hash_counters(data: Array, count: int) -> tuple[Array, Array]:
    counter = jnp.arange(count, dtype=U32)
    return threefry2x32(data[0], data[1], jnp.zeros_like(counter), counter)


def random_words(key: Array, count: int) -> Array:
    """uint32 ``[count]``: ``jax.random.bits(key, (count,), jnp.uint32)`` for one key."""
    data = _threefry_data(key)
    if data is None:
        return jax.random.bits(key, (count,), U32)
    high, low = _hash_counters(data, count)
    return high ^ low


def split_key(key: Array, num: int = 2) -> Array:
    """``jax.random.split(key, num)``, bit for bit, in one pass for a raw threefry key (the
    twins' chance loops split a key per event; JAX's rolled hash loop cost more than the
    event). Any other key goes to ``jax.random.split`` itself."""
    typed = jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key)
    if typed or _threefry_data(key) is None:
        return jax.random.split(key, num)
    high, low = _hash_counters(key, num)
    return jnp.stack([high, low], axis=-1)


__all__ = ["random_words", "split_key", "threefry2x32"]
