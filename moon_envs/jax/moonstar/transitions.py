"""Moonstar's transitions: one event (player action or chance outcome) applied to a
:class:`MoonstarX`, then the follow-ups it triggers, as the Python engine does.

:func:`advance` first applies the current phase's own effect (the first organizer, the
menu entry, a planet or a moon placed, the roll, an auction action or the speaker drawn,
the red planet, a side bet, a move), then, where triggered, the settlement of a played
round or of a round nobody bid on, the end of the round (game over, or the next
organizer), the start of the next round and its set-up.

Written for a small trace (compile time): the phases' effects are mutually exclusive, so
each is applied as ``where(phase == k, new, old)`` on just the fields it touches (no
``lax.switch`` over whole positions, no scatters), and ``chance=True/False`` (static)
leaves out the phases that cannot occur for that kind of event.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.core.game import CHANCE
from moon_envs.jax.moonstar.arrays import MoonstarX, upd
from moon_envs.jax.moonstar.moves import move
from moon_envs.jax.moonstar.rules import barred, next_eligible, per_round
from moon_envs.jax.moonstar.tables import (
    AUCTION,
    BETS,
    FAVOURITE,
    FIRST,
    MENU,
    MOON,
    OVER,
    PLANET,
    PLAY,
    ROLL,
    MoonstarTables,
)
from moon_envs.moonstar.constants import CHALLENGE_STAKE, FAIL_BONUS, NO_BID_BONUS

Array = jax.Array
i32 = jnp.int32


def after_auction(t: MoonstarTables, x: MoonstarX, red_placed: bool) -> Array:
    """The phase once the auction is won: Game 6's red planet, Game 11's bets, or play."""
    phase = jnp.int32(PLAY)
    if t.uses["side_bets"]:
        phase = jnp.where(per_round(t, t.side_bets, x), BETS, phase)
    if not red_placed and t.uses["favourite"]:
        phase = jnp.where(per_round(t, t.favourite, x), FAVOURITE, phase)
    return phase


def _setup_events(t: MoonstarTables, x: MoonstarX, e: Array, ph: Array) -> MoonstarX:
    """A planet or a moon placed on star ``e`` (the organizer's action or chance)."""
    stars = jnp.arange(12)
    k = x.planets_placed
    if t.R > 1:
        value = jnp.asarray(t.planets)[x.rules_idx, jnp.clip(k, 0, 6)]
    else:
        value = jnp.asarray(t.planets[0])[jnp.clip(k, 0, 6)]
    on_planet = ph == PLANET
    x = upd(
        x,
        on_planet,
        planet_value=jnp.where(stars == e, value, x.planet_value),
        planets_placed=k + 1,
        phase=jnp.where(k + 1 >= per_round(t, t.num_planets, x), MOON, PLANET),
    )
    m = x.moons_placed
    on_moon = ph == MOON
    return upd(
        x,
        on_moon,
        moon_star=jnp.where(jnp.arange(t.M) == m, e, x.moon_star),
        moons_placed=m + 1,
        phase=jnp.where(m + 1 >= per_round(t, t.num_moons, x), ROLL, MOON),
    )


def _auction_action(t: MoonstarTables, x: MoonstarX, e: Array, on: Array):
    """A bid, a pass or a challenge by the seat to speak; returns ``(x, nobody bid)``."""
    seats = jnp.arange(t.n)
    p = jnp.clip(x.to_move, 0, t.n - 1)
    is_pass = (e == t.a_pass) | (e == t.a_challenge)
    me = seats == p
    passes = jnp.where(is_pass, x.passes + 1, 0)
    high = jnp.where(is_pass, x.high_bid, e - t.a_bid + 2)
    bidder = jnp.where(is_pass, x.bidder, p)
    top = ~is_pass & (high == 70)
    if t.uses["challenges"]:
        top = top & ~per_round(t, t.challenges, x)
    n_elig = jnp.sum(~barred(t, x))
    nobody = (bidder < 0) & (passes >= n_elig)
    won = (top | ((bidder >= 0) & (passes >= n_elig - 1))) & ~nobody
    if t.cfg.auction_order == "random":
        nxt = jnp.int32(CHANCE)
    else:
        nxt = next_eligible(t, x, p)
    phase = jnp.where(won, after_auction(t, x, False), AUCTION)
    x = upd(
        x,
        on,
        passes=passes,
        passed=is_pass & (x.passed | me),
        challengers=is_pass & (x.challengers | (me & (e == t.a_challenge))),
        high_bid=high,
        bidder=bidder,
        to_move=jnp.where(nobody | won, x.to_move, nxt),
        phase=phase,
        bet_turn=jnp.where(phase == BETS, bidder, x.bet_turn),
    )
    return x, on & nobody


def _bet(t: MoonstarTables, x: MoonstarX, e: Array, on: Array) -> MoonstarX:
    """A sealed side bet by ``bet_turn`` (Game 11); the last one starts play."""
    seats = jnp.arange(t.n)
    p = jnp.clip(x.bet_turn, 0, t.n - 1)
    F = max(t.num_stakes, 1)
    side, k = jnp.divmod(e - t.a_bet, F)
    k = jnp.clip(k, 0, t.stakes.shape[0] - 1)
    pts = jnp.clip(jnp.sum(jnp.where(seats == p, x.points, 0)), 0, t.stake_top)
    stake = jnp.asarray(t.stakes)[k, pts]
    nxt = (p + 1) % t.n
    if not t.cfg.excluded_side_bets:
        nxt = jnp.where(nxt == x.excluded, (nxt + 1) % t.n, nxt)
    done = nxt == x.bidder
    me = seats == p
    return upd(
        x,
        on,
        bet_side=jnp.where(me, side, x.bet_side),
        bet_idx=jnp.where(me, k, x.bet_idx),
        bet_stake=jnp.where(me, stake, x.bet_stake),
        bet_turn=jnp.where(done, -1, nxt),
        phase=jnp.where(done, PLAY, BETS),
    )


def _settlement(t: MoonstarTables, x: MoonstarX) -> Array:
    """int [n]: the score changes of a played round (made or failed, challenges, bets)."""
    cfg = t.cfg
    is_b = jnp.arange(t.n) == x.bidder
    made = x.round_total >= x.high_bid
    challenged = x.challengers.any()
    stake = jnp.where(challenged, CHALLENGE_STAKE, 0)
    gain_made = jnp.where(is_b, x.high_bid + stake, 0) - jnp.where(
        x.challengers, CHALLENGE_STAKE, 0
    )
    others = jnp.where(challenged, cfg.challenge_fail_bonus, FAIL_BONUS)
    gain_failed = jnp.where(is_b, -stake, jnp.where(x.challengers, CHALLENGE_STAKE, others))
    delta = jnp.where(made, gain_made, gain_failed)
    if t.uses["side_bets"]:
        won = (x.bet_side == 0) == made
        bets = jnp.where(x.bet_stake > 0, jnp.where(won, x.bet_stake, -x.bet_stake), 0)
        delta = delta + jnp.where(per_round(t, t.side_bets, x), bets, 0)
    return delta


def advance(t: MoonstarTables, x: MoonstarX, e: Array, chance: bool) -> MoonstarX:
    """Apply event ``e`` (a chance outcome if ``chance`` else an action) and every
    follow-up it triggers (see the module docstring)."""
    cfg = t.cfg
    e = jnp.asarray(e, i32)
    ph = x.phase
    n = t.n
    seats = jnp.arange(n)
    random_setup = cfg.setup == "random"
    random_order = cfg.auction_order == "random"
    start = jnp.bool_(False)
    setup = jnp.bool_(False)
    nobid = jnp.bool_(False)
    forced = jnp.bool_(False)
    settle = jnp.bool_(False)
    if chance:
        start = ph == FIRST
        x = upd(x, start, organizer=e)
        if random_setup:
            x = _setup_events(t, x, e, ph)
        on_roll = ph == ROLL
        faces = jnp.asarray(t.roll_faces)[per_round(t, t.nd_idx, x), e]
        first = jnp.int32(CHANCE) if random_order else next_eligible(t, x, x.organizer)
        x = upd(x, on_roll, dice=faces, phase=AUCTION, to_move=first)
        nobid = forced = on_roll & ~(~barred(t, x)).any()
        if random_order:
            x = upd(x, ph == AUCTION, to_move=e)
    else:
        if t.menu_size:
            setup = ph == MENU
            x = upd(x, setup, rules_idx=e - t.a_menu)
        if not random_setup:
            x = _setup_events(t, x, e, ph)
        x, nobid = _auction_action(t, x, e, ph == AUCTION)
        if t.uses["favourite"]:
            x = upd(x, ph == FAVOURITE, red_star=e, phase=after_auction(t, x, True))
            x = upd(x, (ph == FAVOURITE) & (x.phase == BETS), bet_turn=x.bidder)
        if t.num_stakes:
            x = _bet(t, x, e, ph == BETS)
        x = move(t, x, e, ph == PLAY)
        settle = (ph == PLAY) & (x.moves_done >= per_round(t, t.num_moves, x))
        # the end of a played round: unplayed moons and dice leave the board
        delta = jnp.where(settle, _settlement(t, x), 0)
        made = x.round_total >= x.high_bid
        x = upd(
            x,
            settle,
            moon_star=jnp.where(x.moon_moved, x.moon_star, -1),
            dice=jnp.where(x.die_used, x.dice, 0),
            points=x.points + delta,
            pending_excluded=jnp.where(made, x.pending_excluded, x.bidder),
        )
    # the round nobody bid on: the organizer's +20, the exclusion kept or spent
    o = x.organizer
    bonus = NO_BID_BONUS
    if not cfg.excluded_organizer_bonus:
        bonus = jnp.where(o != x.excluded, NO_BID_BONUS, 0)
    pending = x.pending_excluded
    if cfg.exclusion_after_no_bid == "kept":
        pending = jnp.where(forced, pending, x.excluded)
    x = upd(x, nobid, points=x.points + jnp.where(seats == o, bonus, 0), pending_excluded=pending)
    # the end of the round: game over, or the next round (organizer rotated if played)
    end = settle | nobid
    over = end & ((jnp.max(x.points) >= cfg.target) | (x.round_no >= cfg.max_rounds))
    x = upd(x, over, phase=OVER)
    x = upd(x, end & ~over & settle, organizer=(o + 1) % n)
    start = start | (end & ~over)
    sits_out = nobid & (cfg.no_bid_reading == "organizer_sits_out")
    x = upd(
        x,
        start,
        round_no=x.round_no + 1,
        sitting_out=jnp.where(sits_out, o, -1),
        excluded=x.pending_excluded,
        pending_excluded=-1,
        rules_idx=0,
        planets_placed=7,  # none left to place until the set-up (Game 12's menu)
        phase=MENU if t.menu_size else x.phase,
    )
    if not t.menu_size:
        setup = setup | start
    return begin_setup(t, x, setup)


def begin_setup(t: MoonstarTables, x: MoonstarX, on: Array) -> MoonstarX:
    """Where ``on``: a round's set-up (the board cleared, planets if any, then moons)."""
    n, M, D = t.n, t.M, t.D
    z = jnp.int32(0)
    return upd(
        x,
        on,
        phase=jnp.where(per_round(t, t.num_planets, x) > 0, PLANET, MOON),
        planet_value=jnp.zeros(12, i32),
        planets_placed=z,
        red_star=-1,
        moon_star=jnp.full(M, -1, i32),
        moon_moved=jnp.zeros(M, bool),
        moons_placed=z,
        dice=jnp.zeros(D, i32),
        die_used=jnp.zeros(D, bool),
        high_bid=z,
        bidder=-1,
        passes=z,
        passed=jnp.zeros(n, bool),
        challengers=jnp.zeros(n, bool),
        bet_side=jnp.full(n, -1, i32),
        bet_idx=jnp.zeros(n, i32),
        bet_stake=jnp.zeros(n, i32),
        bet_turn=-1,
        moves_done=z,
        round_total=z,
        chain_star=-1,
        chain_len=z,
        landed=jnp.zeros(12, i32),
    )


def start_first_round(t: MoonstarTables, x: MoonstarX) -> MoonstarX:
    """The initial position with a fixed first organizer: round 1 started."""
    x = x._replace(round_no=x.round_no + 1, excluded=x.pending_excluded, rules_idx=i32(0))
    if t.menu_size:
        return x._replace(phase=i32(MENU))
    return begin_setup(t, x, jnp.bool_(True))


__all__ = ["FIRST", "advance", "begin_setup", "start_first_round"]
