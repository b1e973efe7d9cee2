"""Exact Moonstar solver: the best total of a round and one plan reaching it.

A *situation* is what the player of the round faces once the dice are rolled: where the
moons stand, which dice are free, the star values, and the round's scoring and movement.
:func:`solve` returns a :class:`Solution`: the best achievable total and a plan, a list of
moves ``(moon, die, direction)`` in the order to play them (the order matters only for
chain scoring, Game 8).

Methods (numpy only, no scipy):

* **Independent scoring** (Games 1–6, 9 and their combinations): each moon scores on its
  own, so the best total is a maximum-weight assignment of dice to moons, the weight of
  (moon, die) being the best landing value over the allowed directions. Every landing
  scores at least 1, so the total is ``moves + best sum of (weight - 1)`` over matchings of
  at most ``moves`` pairs; a search over the moons that can gain more than 1, tracking how
  many dice of each face remain (equal dice are interchangeable), finds it exactly by
  depth-first branch and bound (best moons first, bound = sum of the remaining moons' best
  gains).
  Game 6 (red planet chosen by the player) takes the best over the planet stars.
* **Squares** (Game 7, ``sum over stars of count^2``) and **chains** (Game 8): with chains
  scored while moving, the player can always move all moons bound for one star in a row,
  so the best chain total is ``sum over stars of c (c + 1) / 2``; any other order scores
  less. Both are convex in the counts, so the moons interact: a depth-first branch and
  bound over moons (dice deduplicated by face, moons on the same star kept in canonical
  order, transpositions skipped, bound from the largest reachable pile) finds the optimum.
* **Chains counting standing moons** (Game 8 with ``chain_members="all"``): a landing
  also scores the unmoved moons standing on its star, so the order of the moves matters
  beyond grouping them by star; :mod:`moon_envs.moonstar.chain_solver` searches the
  orders exactly.

Direction ``k`` of a move: 0 clockwise ``d``, 1 counter-clockwise ``d``, and with Game 9
movement 2 clockwise ``2d``, 3 counter-clockwise ``d // 2`` (``"double_half"``) or ``2d``
(``"double_double"``, the seed's literal words).

This module holds :func:`solve`, which picks the method, and :func:`brute_force` for the
tests; the situation and scoring are in :mod:`moon_envs.moonstar.situation`, the searches
in :mod:`moon_envs.moonstar.independent_solver`, :mod:`moon_envs.moonstar.convex_solver`
and :mod:`moon_envs.moonstar.chain_solver`; every name is importable from here.
"""

from __future__ import annotations

from moon_envs.moonstar.chain_solver import solve_standing
from moon_envs.moonstar.convex_solver import _solve_convex
from moon_envs.moonstar.independent_solver import _solve_independent
from moon_envs.moonstar.situation import (
    NUM_STARS,
    Situation,
    Solution,
    displacement,
    landing_value,
    num_directions,
    score_plan,
)

__all__ = [  # the entry points and, for existing imports, the situation and scoring
    "NUM_STARS",
    "Situation",
    "Solution",
    "brute_force",
    "displacement",
    "landing_value",
    "num_directions",
    "score_plan",
    "solve",
]


def solve(sit: Situation, with_plan: bool = True) -> Solution:
    """The best total of ``sit`` and a plan reaching it (exact). ``with_plan=False``
    may skip building the plan (the total is the same)."""
    if sit.scoring == "planets":
        if sit.choose_red:
            best: Solution | None = None
            for r in range(NUM_STARS):
                if sit.star_values[r]:
                    s = _solve_independent(sit, r, with_plan)
                    if best is None or s.total > best.total:
                        best = s
            if best is not None:
                return best
        return _solve_independent(sit, sit.red_star, with_plan)
    if sit.scoring == "chains" and sit.chain_members == "all":
        return solve_standing(sit)
    return _solve_convex(sit)


def brute_force(sit: Situation) -> int:
    """Best total by trying every assignment and direction (for tests; tiny sizes only)."""
    import itertools

    n_moves = sit.num_moves
    nd = num_directions(sit.movement)
    reds = [sit.red_star]
    if sit.scoring == "planets" and sit.choose_red:
        reds = [r for r in range(NUM_STARS) if sit.star_values[r]] or [sit.red_star]
    best = 0
    if sit.scoring == "chains" and sit.chain_members == "all":  # every order of every pairing
        for moons in itertools.permutations(range(len(sit.moon_stars)), n_moves):
            for dice in itertools.permutations(range(len(sit.dice)), n_moves):
                for dirs in itertools.product(range(nd), repeat=n_moves):
                    best = max(best, score_plan(sit, list(zip(moons, dice, dirs))))
        return best
    for red in reds:
        for moons in itertools.permutations(range(len(sit.moon_stars)), n_moves):
            for dice in itertools.combinations(range(len(sit.dice)), n_moves):
                for dirs in itertools.product(range(nd), repeat=n_moves):
                    plan = list(zip(moons, dice, dirs))
                    if sit.scoring == "chains":
                        counts = [0] * NUM_STARS
                        for m, d, k in plan:
                            t = sit.moon_stars[m] + displacement(sit.dice[d], k, sit.movement)
                            counts[t % 12] += 1
                        v = sum(c * (c + 1) // 2 for c in counts)
                        if sit.chain_star >= 0:
                            v += sit.chain_len * counts[sit.chain_star]
                    else:
                        v = score_plan(sit, plan, red)
                    best = max(best, v)
    return best
