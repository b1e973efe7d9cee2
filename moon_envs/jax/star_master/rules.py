"""Star Master's twin, the course of a turn: player actions and chance outcomes.

The transitions of :mod:`moon_envs.star_master.turns`, written without branching on
traced values: each function takes a condition and changes the position only where it
holds (``jnp.where``), so that it runs unchanged under ``jax.vmap``. Indexing by a traced
seat, slot or colour is written as a one-hot selection rather than a gather, which XLA
fuses with its neighbours (the hot path of every step).

A player action (:func:`apply_action`) is a decision: it starts the seat's window of
recent events afresh, then names a colour, flips a slot (or passes), swaps the found
cube, or makes a sealed race choice. A chance outcome (:func:`apply_chance`) places a
cube at set-up (:func:`place`), draws the forgetting seed, rolls the dice (:func:`roll`)
or draws a race's winner (:func:`draw`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.star_master.forget import forget_mask
from moon_envs.jax.star_master.tables import (
    DRAW,
    END,
    FLIP,
    NAME,
    RACE,
    ROLL,
    SEED,
    SETUP,
    STAR,
    SWAP,
    SMx,
    Tables,
)
from moon_envs.star_master.config import GOAL

Array = jax.Array
NOT_CHOSEN, ABSTAIN = -2, -1


def pick(values: Array, index: Array) -> Array:
    """``values[index]`` along the first axis, as a one-hot sum (``0`` out of range)."""
    hot = jnp.arange(values.shape[0]) == index
    hot = hot.reshape(hot.shape + (1,) * (values.ndim - 1))
    return jnp.sum(jnp.where(hot, values, 0), axis=0).astype(values.dtype)


def first_from(t: Tables, flags: Array, start: Array) -> Array:
    """The first seat with ``flags`` from ``start`` on, clockwise (``start`` if none)."""
    distance = (jnp.arange(t.n) - start) % t.n
    return (start + jnp.min(jnp.where(flags, distance, t.n))) % t.n


def _end_turn(t: Tables, x: SMx, cond: Array) -> SMx:
    """Where ``cond``: the dice pass on; at the turn cap the game ends instead."""
    at_cap = x.turn >= t.turn_cap
    if t.cap_nobody:
        cap_winners = jnp.zeros_like(x.winners)
    else:
        counts = jnp.sum(x.pawns, axis=1, dtype=jnp.int32)
        best = jnp.max(counts)
        cap_winners = (counts == best) & (best > 0)
    return x._replace(
        phase=jnp.where(cond, jnp.where(at_cap, END, ROLL), x.phase),
        roller=jnp.where(cond, (x.roller + 1) % t.n, x.roller),
        white=jnp.where(cond, -1, x.white),
        black=jnp.where(cond, 0, x.black),
        target=jnp.where(cond, -1, x.target),
        found=jnp.where(cond, -1, x.found),
        winners=jnp.where(cond & at_cap, cap_winners, x.winners),
    )


def _resolve_flip(
    t: Tables, x: SMx, cond: Array, seat: Array, slot: Array, sought: Array, race: Array
) -> tuple[SMx, Array]:
    """Where ``cond``: ``seat`` flips ``slot`` looking for ``sought`` (a flip, or the
    winning grab of a race when ``race``). The colour is shown to everyone; found: the seat
    gains it, wins with 6 colours, else swaps (ends the turn with ``children``); missed: a
    race loses the flipped colour, a flip under the competition rule the sought one.
    Returns the position and whether the turn ends (see :func:`_end_turn`)."""
    slots = jnp.arange(t.k)
    shown = slots == slot
    colour = jnp.sum(jnp.where(shown, x.layout, 0))
    found = colour == sought
    shown = cond & shown[None, :]
    win = jnp.where(shown, colour, x.win)
    mem = jnp.where(shown, colour, x.mem) if t.remembers else x.mem
    seat_row = jnp.arange(t.n) == seat
    cell = seat_row[:, None] & (slots == jnp.where(found | ~race, sought, colour))[None, :]
    gain = cond & found
    pawns = jnp.where(cell & gain, True, x.pawns)
    if t.must_search:
        pawns = jnp.where(cell & cond & ~found, False, pawns)
    else:
        pawns = jnp.where(cell & cond & ~found & race, False, pawns)
    held = jnp.sum(seat_row[:, None] & pawns, dtype=jnp.int32)
    goal = gain & (held >= GOAL)
    to_swap = gain & ~goal
    if t.children:
        to_swap = jnp.zeros_like(to_swap)
    x = x._replace(
        win=win,
        mem=mem,
        pawns=pawns,
        mover=jnp.where(cond, seat, x.mover),
        phase=jnp.where(goal, END, jnp.where(to_swap, SWAP, x.phase)),
        found=jnp.where(to_swap, slot, x.found),
        winners=jnp.where(goal, seat_row, x.winners),
        race_choice=jnp.where(cond & race, NOT_CHOSEN, x.race_choice),
    )
    return x, cond & ~goal & ~to_swap


def _decide(t: Tables, x: SMx, seat: Array) -> SMx:
    """``seat`` decides: its window of recent events starts afresh."""
    row = (jnp.arange(t.n) == seat)[:, None]
    return x._replace(
        win=jnp.where(row, -1, x.win),
        perm=jnp.where(row, jnp.arange(t.k, dtype=jnp.int32)[None, :], x.perm),
    )


def _swap(t: Tables, x: SMx, cond: Array, s: Array, u: Array) -> SMx:
    """Where ``cond``: the cubes on slots ``s`` and ``u`` change places; every seat's
    window and memory columns follow them."""
    slots = jnp.arange(t.k)
    at_s, at_u = cond & (slots == s), cond & (slots == u)

    def exchange(a: Array) -> Array:
        col_s = jnp.sum(jnp.where(at_s, a, 0), axis=-1, keepdims=True)
        col_u = jnp.sum(jnp.where(at_u, a, 0), axis=-1, keepdims=True)
        return jnp.where(at_s, col_u, jnp.where(at_u, col_s, a))

    return x._replace(
        layout=exchange(x.layout), win=exchange(x.win), perm=exchange(x.perm),
        mem=exchange(x.mem),
    )  # fmt: skip


def apply_action(t: Tables, x: SMx, a: Array) -> SMx:
    """The player to move takes action ``a`` (legal; see :func:`..views.legal_mask`)."""
    k, n = t.k, t.n
    ph = x.phase
    is_flip, is_race, is_swap, is_name = ph == FLIP, ph == RACE, ph == SWAP, ph == NAME
    seat = jnp.where(is_race, (x.roller + x.race_next) % n, x.mover)
    x = _decide(t, x, seat)
    # naming a colour: then flip for it
    x = x._replace(
        target=jnp.where(is_name, a - 2 * k, x.target),
        phase=jnp.where(is_name, FLIP, x.phase),
    )
    # a sealed race choice; once every seat has chosen, the race is resolved
    seats = jnp.arange(n)
    choice = jnp.where(a == t.pass_, ABSTAIN, a)
    race_choice = jnp.where(is_race & (seats == seat), choice, x.race_choice)
    race_next = x.race_next + is_race.astype(jnp.int32)
    done = is_race & (race_next == n)
    grab = race_choice >= 0
    first = first_from(t, grab, x.roller)
    if t.seat_order:
        draw = jnp.zeros_like(done)
    else:
        draw = done & (jnp.sum(grab, dtype=jnp.int32) > 1)
    nobody = done & ~jnp.any(grab)
    x = x._replace(
        race_choice=jnp.where(nobody, NOT_CHOSEN, race_choice),
        race_next=race_next,
        phase=jnp.where(draw, DRAW, x.phase),
    )
    race_flip = done & ~nobody & ~draw
    # a flip (or the lone / first grabber's flip); a pass ends the turn
    x, ends = _resolve_flip(
        t,
        x,
        (is_flip & (a < k)) | race_flip,
        seat=jnp.where(is_flip, x.mover, first),
        slot=jnp.where(is_flip, a, pick(race_choice, first)),
        sought=jnp.where(is_flip, x.target, x.white),
        race=~is_flip,
    )
    # the found cube swaps with another slot
    x = _swap(t, x, is_swap, x.found, a - k)
    return _end_turn(t, x, ends | (is_flip & (a == t.pass_)) | is_swap | nobody)


def place(t: Tables, x: SMx, colour: Array, cond: Array) -> SMx:
    """Where ``cond`` (set-up): the next slot gets ``colour``; once every cube is placed,
    every seat sees the layout (and remembers it), then the seed or the first roll."""
    slots = jnp.arange(t.k)
    layout = jnp.where(cond & (slots == x.setup_index), colour, x.layout)
    placed = x.setup_index + cond.astype(jnp.int32)
    shown = cond & (placed == t.k)
    return x._replace(
        layout=layout,
        setup_index=placed,
        win=jnp.where(shown, layout[None, :], x.win),
        mem=jnp.where(shown, layout[None, :], x.mem) if t.remembers else x.mem,
        phase=jnp.where(shown, SEED if t.decays else ROLL, x.phase),
    )


def roll(t: Tables, x: SMx, outcome: Array, cond: Array) -> SMx:
    """Where ``cond``: a new turn (forgetting first, in decay mode) with the dice
    ``outcome = 2 * white + black``: name (white star), race (black star) or flip."""
    turn = x.turn + cond.astype(jnp.int32)
    mem = x.mem
    if t.decays:
        forget = forget_mask(x.seed, turn, t.n, t.k, t.forget_threshold)
        mem = jnp.where(cond & forget, -1, mem)
    white, black = outcome // 2, outcome % 2
    phase = jnp.where(white == STAR, NAME, jnp.where(black == 1, RACE, FLIP))
    return x._replace(
        turn=turn,
        mem=mem,
        white=jnp.where(cond, white, x.white),
        black=jnp.where(cond, black, x.black),
        mover=jnp.where(cond, x.roller, x.mover),
        phase=jnp.where(cond, phase, x.phase),
        race_next=jnp.where(cond, 0, x.race_next),
        target=jnp.where(cond & (phase == FLIP), white, x.target),
    )


def draw(t: Tables, x: SMx, winner: Array, cond: Array) -> SMx:
    """Where ``cond``: ``winner``, drawn among several grabbers, flips its grabbed slot."""
    slot = pick(x.race_choice, winner)
    x, ends = _resolve_flip(t, x, cond, winner, slot, x.white, jnp.bool_(True))
    return _end_turn(t, x, ends)


def apply_chance(t: Tables, x: SMx, o: Array) -> SMx:
    """Chance outcome ``o`` (the Python engine's id): a colour at set-up, the forgetting
    seed, a dice roll ``2 * white + black`` or the race winner's seat."""
    ph = x.phase
    x = x._replace(
        seed=jnp.where(ph == SEED, o, x.seed),
        phase=jnp.where(ph == SEED, ROLL, x.phase),
    )
    x = place(t, x, o, ph == SETUP)
    x = roll(t, x, o, ph == ROLL)
    return draw(t, x, o, ph == DRAW)
