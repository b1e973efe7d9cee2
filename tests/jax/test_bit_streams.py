"""Bit streams (moon_envs.jax.bit_streams): the mask and view builders' 16-bit chunks
spell exactly the words joined end to end."""

import pytest

pytest.importorskip("jax")

import jax.numpy as jnp
import numpy as np

from moon_envs.jax import bit_streams


@pytest.mark.parametrize("width", [3, 7, 12, 16])
def test_bit_streams_unpack_as_the_words_joined(width: int) -> None:
    """The mask and the view unpack row words through 16-bit chunks of their stream; the
    bits equal the words unpacked one by one and joined, after any leading bits."""
    rng = np.random.default_rng(width)
    for words, lead in ((1, 0), (37, 3), (120, 9), (50, 16), (13, 21)):
        w = rng.integers(0, 1 << width, words).astype(np.uint32)
        first = rng.random(lead) < 0.5
        joined = [(w[i] >> np.arange(width)) & 1 for i in range(words)]
        expected = np.concatenate([first, *[bits.astype(bool) for bits in joined]])
        chunks = bit_streams.chunks_of(jnp.asarray(w), width)
        stream = bit_streams.after_bits(jnp.asarray(first), chunks)
        got = np.asarray(bit_streams.unpack_chunks(stream, expected.size))
        np.testing.assert_array_equal(got, expected)
        wider = np.asarray(bit_streams.unpack_chunks(stream, expected.size + 40))
        assert not wider[expected.size :].any()
