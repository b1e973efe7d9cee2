"""Moonstar's rules as pure ``jnp`` functions of one :class:`MoonstarX` (no Python control
flow on traced values; Python branches only on the static tables).

:func:`advance` applies one event (a player's action or a chance outcome: they share the
dispatch, as in the Python engine's ``_dispatch``): the phase's own effect first, then the
follow-ups it triggers, in the engine's order: settle the round or take the round nobody
bid on, end the round (game over, or next organizer), start the next round (Game 12's
menu or the set-up). The mask, the chance distribution and the scores are here too.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.moonstar.arrays import MoonstarX, materialized
from moon_envs.jax.random_words import random_words
from moon_envs.jax.moonstar.tables import (
    AUCTION,
    BETS,
    FAVOURITE,
    FIRST,
    MENU,
    MOON,
    PLANET,
    PLAY,
    ROLL,
    MoonstarTables,
)

Array = jax.Array
i32 = jnp.int32


def per_round(t: MoonstarTables, table, x: MoonstarX) -> Array:
    """``table[rules_idx]`` (a constant when every round has the same rules)."""
    if t.R == 1:
        return jnp.asarray(table[0])
    return jnp.asarray(table)[x.rules_idx]


# ---- who may bid, who speaks -------------------------------------------------------------
def barred(t: MoonstarTables, x: MoonstarX) -> Array:
    """bool [n]: seats that may not bid this round (excluded, or the organizer sitting out)."""
    seats = jnp.arange(t.n)
    return (seats == x.excluded) | (seats == x.sitting_out)


def next_eligible(t: MoonstarTables, x: MoonstarX, seat: Array) -> Array:
    """The first seat after ``seat`` (round the table) that may bid; ``seat`` if none."""
    n = t.n
    order = (seat + jnp.arange(1, n + 1)) % n
    ok = ~barred(t, x)[order]
    return jnp.where(ok.any(), order[jnp.argmax(ok)], seat).astype(i32)


def speakers(t: MoonstarTables, x: MoonstarX) -> Array:
    """bool [n]: seats chance may draw to speak (``auction_order="random"``)."""
    return ~barred(t, x) & ~x.passed & (jnp.arange(t.n) != x.bidder)


# ---- the player to move, the mask ----------------------------------------------------------
def player(t: MoonstarTables, x: MoonstarX) -> Array:
    """The seat to act, ``CHANCE`` or ``TERMINAL`` (the engine's ``_compute_player``)."""
    setup = x.organizer if t.cfg.setup == "organizer" else i32(CHANCE)
    by_phase = jnp.array(
        [CHANCE, 0, 0, 0, CHANCE, 0, 0, 0, 0, TERMINAL], i32
    )  # placeholders for the seat-dependent phases
    p = by_phase[x.phase]
    p = jnp.where(x.phase == AUCTION, x.to_move, p)
    p = jnp.where((x.phase == PLAY) | (x.phase == FAVOURITE), x.bidder, p)
    p = jnp.where((x.phase == PLANET) | (x.phase == MOON), setup, p)
    p = jnp.where(x.phase == BETS, x.bet_turn, p)
    p = jnp.where(x.phase == MENU, x.organizer, p)
    return p.astype(i32)


def moons_on_star(x: MoonstarX) -> Array:
    """int [12]: moons on each star (every moon on the board during set-up)."""
    return jnp.sum(x.moon_star[:, None] == jnp.arange(12)[None, :], axis=0)


def star_mask(x: MoonstarX) -> Array:
    """bool [12]: the stars a planet, a moon or the red planet may go on."""
    return jnp.where(
        x.phase == PLANET,
        x.planet_value == 0,
        jnp.where(x.phase == MOON, moons_on_star(x) < 3, x.planet_value > 0),
    )


def play_block(t: MoonstarTables, x: MoonstarX) -> Array:
    """bool [M, D, K]: every unmoved moon with the first free die of each face, in each
    direction of the round's movement (the engine's ``build_play_block``)."""
    free = (x.dice > 0) & ~x.die_used
    d = jnp.arange(t.D)
    earlier = (d[None, :] < d[:, None]) & free[None, :] & (x.dice[None, :] == x.dice[:, None])
    first = materialized(free & ~earlier.any(axis=1))
    unmoved = (x.moon_star >= 0) & ~x.moon_moved
    dirs = jnp.arange(t.K) < per_round(t, t.num_dirs, x)
    return unmoved[:, None, None] & first[None, :, None] & dirs[None, None, :]


def legal_mask(t: MoonstarTables, x: MoonstarX) -> Array:
    """bool [num_actions] for the player to move (the engine's ``_legal_mask``)."""
    ph = x.phase
    stars = star_mask(x) & ((ph == PLANET) | (ph == MOON) | (ph == FAVOURITE))
    auction = ph == AUCTION
    bids = auction & (jnp.arange(t.num_bids) + 2 > x.high_bid)
    seat = jnp.clip(x.to_move, 0, t.n - 1)
    challenge = auction & (x.bidder >= 0) & ~x.challengers[seat]
    if t.uses["challenges"]:
        challenge = challenge & per_round(t, t.challenges, x)
    else:
        challenge = challenge & False
    parts = [stars, bids, auction[None], challenge[None]]
    if t.menu_size:
        parts.append(jnp.full(t.menu_size, ph == MENU))
    if t.num_stakes:
        F = t.num_stakes
        bets = ph == BETS
        may_fail = (x.bet_turn != x.bidder) | (t.cfg.bidder_bets == "any")
        parts.append(jnp.full(F, bets))
        parts.append((jnp.arange(F) > 0) & bets & may_fail)
    parts.append((play_block(t, x) & (ph == PLAY)).reshape(-1))
    return jnp.concatenate([materialized(p.reshape(-1)) for p in parts])


# ---- chance ------------------------------------------------------------------------------
def small_chance_probs(t: MoonstarTables, x: MoonstarX) -> Array:
    """float32 [max(12, n)]: the first organizer, a random set-up star or the next speaker."""
    size = max(12, t.n)
    seats = jnp.zeros(size, bool).at[: t.n].set(True)
    ok = jnp.where(x.phase == FIRST, seats, jnp.zeros(size, bool))
    ok = jnp.where(
        (x.phase == PLANET) | (x.phase == MOON), jnp.pad(star_mask(x), (0, size - 12)), ok
    )
    if t.cfg.auction_order == "random":
        ok = jnp.where(x.phase == AUCTION, jnp.pad(speakers(t, x), (0, size - t.n)), ok)
    return ok / jnp.maximum(jnp.sum(ok), 1)


def chance_probs(t: MoonstarTables, x: MoonstarX) -> Array:
    """float32 [num_chance_outcomes], ids as the engine's ``chance_outcomes()``."""
    small = small_chance_probs(t, x)
    probs = jnp.zeros(t.num_chance, jnp.float32).at[: small.shape[0]].set(small)
    roll = jnp.asarray(t.roll_probs)[per_round(t, t.nd_idx, x)]
    return jnp.where(x.phase == ROLL, roll, probs)


def _uniform_below(hi: Array, lo: Array, n: Array) -> Array:
    """``(hi * 2**32 + lo) % n`` for uint32 words: uniform in ``0..n-1`` from 64 random bits
    (bias below ``n / 2**64``, as ``jax.random.randint``), without 64-bit integers."""
    n = jnp.asarray(n).astype(jnp.uint32)
    wrap = (jnp.uint32(0) - n) % n  # 2**32 % n
    return (((hi % n) * wrap + lo % n) % n).astype(i32)


def sorted_faces(drawn: Array) -> Array:
    """``jnp.sort(drawn)`` for faces 1..7 without a sort (slow under ``vmap`` on the CPU):
    the ``i``-th smallest is 1 + the number of faces ``f`` in 1..6 with at most ``i``
    dice showing ``f`` or less."""
    f = jnp.arange(1, 7)
    at_most = jnp.sum(drawn[:, None] <= f[None, :], axis=0)  # [6]
    i = jnp.arange(drawn.shape[0])
    return (1 + jnp.sum(at_most[None, :] <= i[:, None], axis=1)).astype(i32)


def sample_chance(t: MoonstarTables, x: MoonstarX, key: Array) -> Array:
    """An outcome id drawn from :func:`chance_probs`, from one draw of random bits: a roll
    is drawn die by die, sorted and ranked back to its id; the other events uniformly
    among their allowed ids (the first organizer, a set-up star, the next speaker)."""
    D = t.D
    bits = random_words(key, 2 * D + 2)
    hi, lo = bits[: D + 1], bits[D + 1 :]
    nd = per_round(t, t.num_dice, x)
    live = jnp.arange(D) < nd
    drawn = jnp.where(live, _uniform_below(hi[:D], lo[:D], 6) + 1, 7)
    faces = sorted_faces(drawn)
    prev = jnp.concatenate([jnp.ones(1, i32), faces[:-1]])
    rest = jnp.clip(nd - jnp.arange(D) - 1, 0, D)
    part = jnp.asarray(t.rank_part)
    rank = jnp.sum(jnp.where(live, part[rest, faces] - part[rest, prev], 0))
    roll = jnp.asarray(t.lex_to_id)[per_round(t, t.nd_idx, x), rank]
    allowed = small_chance_probs(t, x) > 0
    k = _uniform_below(hi[D], lo[D], jnp.maximum(jnp.sum(allowed), 1))
    other = jnp.argmax(allowed & (jnp.cumsum(allowed) == k + 1))
    return jnp.where(x.phase == ROLL, roll, other).astype(i32)


def scores(x: MoonstarX) -> Array:
    return x.points


def winners(t: MoonstarTables, x: MoonstarX) -> Array:
    top = x.points == jnp.max(x.points)
    if t.cfg.ties == "none":
        top = top & (jnp.sum(top) == 1)
    return top
