"""Moonstar's landing values: what each legal move scores at once, read from the observation.

A moon moved by a die lands on a star; under planet scoring that landing scores the
star's planet value (1 on an empty star), doubled on Game 6's favourite (red) star.
:func:`landing_values` gives that number, divided by 10, for every move action, and 0 for
an action that is not a legal move (so all zeros outside the play phase)::

    import moon_envs
    from moon_envs.moonstar.landing import landing_values

    env = moon_envs.make("moonstar_v1", game=1, num_players=2)
    ...                                   # play up to a move
    seen = env.observe(env.agent_selection)
    values = landing_values(env.game, seen["observation"], seen["action_mask"])
    # float32[moons x dice x directions], in the move actions' order

Everything it reads is in the seat's observation (planet values, the red star, each
moon's star, each die's face, the round's movement rule) and the action mask: it is the
rules' one-move lookahead, a fixed input layer for a network, not a search or a solver.
Networks trained with it (``input_features: [landing_values]`` in their weight file) see
the observation followed by these values.

The same code runs on numpy arrays and on ``jax.numpy`` arrays (``xp=jnp``), one
observation or a batch (leading axes), so a network uses it unchanged on the JAX twin.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moon_envs.moonstar.variants import MAX_PLANET_VALUE, NUM_STARS

SCALE = 10.0
"""Landing points are divided by this (Game 1's best landing, a 10-planet, gives 1.0)."""

_MOVEMENT_DOUBLE_DOUBLE = 0.5
"""The rule-feature value of ``movement="double_double"`` (``layout._rule_features``)."""


def num_landing_values(game: Any) -> int:
    """How many values :func:`landing_values` gives: one per move action id."""
    return game.max_moons * game.max_dice * game.num_dirs


def landing_values(game: Any, observation: Any, action_mask: Any, xp: Any = np) -> Any:
    """Each move action's landing points / :data:`SCALE`, 0 where the move is not legal.

    ``game`` is the env's ``MoonstarGame`` (its observation offsets); ``observation``
    ``[..., obs_len]`` and ``action_mask`` ``[..., num_actions]`` as the env gives them;
    ``xp`` is ``numpy`` or ``jax.numpy``. Returns float32 ``[..., moons * dice * dirs]``
    in the move actions' order (``MoonstarGame.move_action``).
    """
    obs = xp.asarray(observation, dtype=xp.float32)
    lead = obs.shape[:-1]
    stars = obs[..., : NUM_STARS * 5].reshape(*lead, NUM_STARS, 5)
    planet = xp.round(stars[..., 0] * MAX_PLANET_VALUE)
    points = xp.where(planet > 0, planet, 1.0) * xp.where(stars[..., 1] > 0.5, 2.0, 1.0)
    M, D, K = game.max_moons, game.max_dice, game.num_dirs
    moons = obs[..., game.moon_base : game.dice_base].reshape(*lead, M, 14)
    moon_star = xp.argmax(moons[..., :NUM_STARS], axis=-1)  # [..., M]
    face = xp.round(obs[..., game.dice_base : game.dice_base + D] * 6.0).astype(xp.int32)
    double_double = xp.abs(obs[..., game.t_rules + 3] - _MOVEMENT_DOUBLE_DOUBLE) < 0.25
    back = xp.where(double_double[..., None], -2 * face, -(face // 2))
    steps = xp.stack([face, -face, 2 * face, back], axis=-1)[..., :K]  # [..., D, K]
    landing = (moon_star[..., :, None, None] + steps[..., None, :, :]) % NUM_STARS
    flat_points = xp.take_along_axis(
        points, landing.reshape(*lead, M * D * K), axis=-1
    )  # [..., M*D*K]
    legal = xp.asarray(action_mask)[..., game.a_move : game.a_move + M * D * K] > 0
    return xp.where(legal, flat_points / SCALE, 0.0).astype(xp.float32)
