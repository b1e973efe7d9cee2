"""What a seat observes in the Moonstar twin: the Python engine's ``observation(player)``.

The seat-independent board (the engine's ``board_features``: stars, moons, dice, the
auction, the phase, the round's rules, Game 12's menu entry, the round's numbers) is
computed from the pieces; the seat's own part follows, seats rotated so that the observer
comes first: the high bidder, Game 10's challengers, the seats barred from the auction,
the organizer, the player to move, Game 11's side bets (sealed: only one's own while
bets are being placed), the scores and the lead, and with ``auction_order="random"`` who
passed since the last bid. Layout and offsets are the Python layout's
(:class:`~moon_envs.moonstar.layout.MoonstarLayout`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonstar.arrays import MoonstarX, materialized
from moon_envs.jax.moonstar.rules import per_round, player
from moon_envs.jax.moonstar.tables import (
    BETS,
    FIRST,
    MENU,
    MOON,
    PLANET,
    PLAY,
    ROLL,
    MoonstarTables,
)

Array = jax.Array
f32 = jnp.float32


def board(t: MoonstarTables, x: MoonstarX) -> Array:
    """float32 [board_len]: the seat-independent part of the observation."""
    D = t.D
    stars12 = jnp.arange(12)
    on = x.moon_star >= 0
    unmoved = on & ~x.moon_moved
    at = x.moon_star[:, None] == stars12[None, :]  # [M, 12]
    st = jnp.stack(
        [
            x.planet_value / 50.0,
            (stars12 == x.red_star).astype(f32),
            jnp.sum(at & unmoved[:, None], axis=0) / 15.0,
            x.landed / 15.0,
            ((stars12 == x.chain_star) & (x.phase == PLAY)).astype(f32),
        ],
        axis=1,
    ).astype(f32)
    moons = jnp.concatenate(
        [at.astype(f32), (x.moon_moved & on)[:, None].astype(f32), on[:, None].astype(f32)], axis=1
    )
    shown = x.phase != ROLL
    free = (x.dice > 0) & ~x.die_used
    face_count = jnp.sum(free[:, None] & (x.dice[:, None] == jnp.arange(1, 7)[None, :]), axis=0)
    dice = jnp.concatenate([x.dice / 6.0, free.astype(f32), face_count / D]) * shown
    n = t.n
    phase = (jnp.arange(10) == x.phase).astype(f32)
    rules = (
        jnp.asarray(t.rule_features)[x.rules_idx] if t.R > 1 else jnp.asarray(t.rule_features[0])
    )
    parts = [
        st.reshape(-1),
        moons.reshape(-1),
        dice.astype(f32),
        jnp.stack([x.high_bid / 70.0, x.passes / n]).astype(f32),
        phase,
        rules,
    ]
    if t.menu_size:
        chosen = (x.phase != MENU) & (x.phase != FIRST)  # set by the set-up
        parts.append(((jnp.arange(t.menu_size) == x.rules_idx) & chosen).astype(f32))
    k = x.planets_placed
    if t.R > 1:
        next_planet = jnp.asarray(t.planets)[x.rules_idx, k]
    else:
        next_planet = jnp.asarray(t.planets[0])[jnp.clip(k, 0, 6)]
    next_planet = jnp.where(k < per_round(t, t.num_planets, x), next_planet, 0)
    placing = (x.phase == PLANET) | (x.phase == MOON)
    left = jnp.where(placing, per_round(t, t.num_moons, x) - x.moons_placed, 0)
    cfg = t.cfg
    parts.append(
        jnp.stack(
            [
                jnp.tanh(x.round_total / 50.0),
                x.moves_done / 15.0,
                x.chain_len / 15.0,
                next_planet / 50.0,
                left / 15.0,
                jnp.tanh(jnp.float32(cfg.target / 200.0)),
                jnp.minimum(1.0, x.round_no / cfg.max_rounds),
            ]
        ).astype(f32)
    )
    return jnp.concatenate([materialized(p) for p in parts])


def seat_part(t: MoonstarTables, x: MoonstarX, me: Array, optimum: Array | None) -> Array:
    """float32: the observer's own part (seats rotated, the observer first)."""
    n = t.n
    order = (me + jnp.arange(n)) % n  # rotated index k -> seat
    one = lambda seat: (order == seat).astype(f32)  # noqa: E731
    bidder = one(x.bidder) * (x.bidder >= 0)
    if t.uses["challenges"]:
        ch = x.challengers[order] & (x.bidder >= 0) & per_round(t, t.challenges, x)
    else:
        ch = jnp.zeros(n, bool)
    barred = jnp.maximum(one(x.excluded), one(x.sitting_out))
    cp = player(t, x)
    parts = [bidder, ch.astype(f32), barred, one(x.organizer), one(cp) * (cp >= 0)]
    if t.any_bets:
        show = (x.phase == BETS) | (x.phase == PLAY)
        side = x.bet_side[order]
        visible = show & (side >= 0) & ((x.phase != BETS) | (order == me))
        parts += [
            jnp.where(visible, 1.0 - side, 0.0),
            jnp.where(visible, side, 0.0),
            jnp.where(visible, x.bet_idx[order] / max(1, t.num_stakes - 1), 0.0),
        ]
    else:
        parts.append(jnp.zeros(3 * n, f32))
    pts = x.points
    others = jnp.where(jnp.arange(n) == me, jnp.iinfo(jnp.int32).min, pts)
    lead = pts[me] - jnp.max(others)
    parts += [jnp.tanh(pts[order] / 100.0), jnp.tanh(lead / 50.0)[None]]
    if t.passed_len:
        parts.append(x.passed[order].astype(f32))
    if optimum is not None:
        parts.append(optimum)
    return jnp.concatenate([materialized(p.astype(f32)) for p in parts])


def observe(t: MoonstarTables, x: MoonstarX, me: Array, optimum: Array | None = None) -> Array:
    """float32 [obs_len]: ``me``'s observation, as the engine's ``observation(me)``."""
    return jnp.concatenate([board(t, x), seat_part(t, x, me, optimum)])
