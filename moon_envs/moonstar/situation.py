"""What the Moonstar solver works on: a round to solve, a solution, and how moves score.

:class:`Situation` is what the player of the round faces once the dice are rolled,
:class:`Solution` the best total with a plan reaching it; :func:`displacement` and
:func:`num_directions` give the movement rules, :func:`landing_value` and
:func:`score_plan` the scoring of moves played in order. The searches are in
:mod:`moon_envs.moonstar.solver` and the modules it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

NUM_STARS = 12


def displacement(face: int, direction: int, movement: str = "double_half") -> int:
    """Signed number of stars moved by a die ``face`` in ``direction`` (0..3) under
    ``movement`` (direction 3 only exists with Game 9's movements)."""
    if direction == 0:
        return face
    if direction == 1:
        return -face
    if direction == 2:
        return 2 * face
    return -2 * face if movement == "double_double" else -(face // 2)


def num_directions(movement: str) -> int:
    """2 for exact movement, 4 with Game 9's movements."""
    return 2 if movement == "exact" else 4


@dataclass(frozen=True)
class Situation:
    """A round to solve.

    Attributes:
        moon_stars: star of each moon still to move (the moon's index is its position).
        dice: face of each free die (the die's index is its position).
        star_values: 12 planet values (0: no planet); ignored by squares and chains.
        scoring: ``"planets"``, ``"squares"`` or ``"chains"``.
        movement: ``"exact"``, ``"double_half"`` or ``"double_double"``.
        red_star: the star of Game 6's red planet (its moons score double), or None.
        choose_red: the player still has to place the red planet (Game 6): the best over
            the stars holding a planet is taken and returned in the solution.
        max_moves: at most this many moves (the timer), None: as many as moons and dice.
        landed: moons already moved this round, per star (mid-round squares situations).
        chain_star, chain_len: the chain in progress (mid-round chain situations); a moon
            landing on ``chain_star`` first continues it.
        chain_members: Game 8's reading of a chain: ``"moved"`` (only moved moons count)
            or ``"all"`` (the unmoved moons standing on the landing star count too).

    The total of a mid-round situation counts only the points still to be scored.
    """

    moon_stars: tuple[int, ...]
    dice: tuple[int, ...]
    star_values: tuple[int, ...] = (0,) * NUM_STARS
    scoring: str = "planets"
    movement: str = "exact"
    red_star: int | None = None
    choose_red: bool = False
    max_moves: int | None = None
    landed: tuple[int, ...] = (0,) * NUM_STARS
    chain_star: int = -1
    chain_len: int = 0
    chain_members: str = "moved"

    @property
    def num_moves(self) -> int:
        n = min(len(self.moon_stars), len(self.dice))
        return n if self.max_moves is None else min(n, self.max_moves)


@dataclass
class Solution:
    """The best ``total`` of a situation, a ``plan`` of ``(moon, die, direction)`` moves
    reaching it (in playing order), and the red star chosen (Game 6) or None."""

    total: int
    plan: list[tuple[int, int, int]] = field(default_factory=list)
    red_star: int | None = None


def landing_value(star_values: Sequence[int], star: int, red_star: int | None) -> int:
    """Points of one moon landing on ``star`` under planet scoring."""
    v = star_values[star] or 1
    return 2 * v if star == red_star else v


def score_plan(
    sit: Situation, plan: Sequence[tuple[int, int, int]], red_star: int | None = None
) -> int:
    """Total of playing ``plan`` in order in ``sit`` (chains: runs scored as played)."""
    red = sit.red_star if red_star is None else red_star
    counts = list(sit.landed)
    total = 0
    chain_star, chain_len = sit.chain_star, sit.chain_len
    standing = [0] * NUM_STARS  # unmoved moons per star (chains, ``chain_members="all"``)
    if sit.chain_members == "all":
        for s in sit.moon_stars:
            standing[s] += 1
    for m, d, k in plan:
        t = (sit.moon_stars[m] + displacement(sit.dice[d], k, sit.movement)) % NUM_STARS
        if sit.scoring == "planets":
            total += landing_value(sit.star_values, t, red)
        elif sit.scoring == "squares":
            total += 2 * counts[t] + 1
        else:
            chain_len = chain_len + 1 if t == chain_star else 1
            chain_star = t
            if sit.chain_members == "all":
                standing[sit.moon_stars[m]] -= 1
                total += standing[t]
            total += chain_len
        counts[t] += 1
    return total


def _faces(dice: Sequence[int]) -> tuple[list[int], list[list[int]]]:
    """Distinct faces and, per face, the indices of the dice showing it."""
    by_face: dict[int, list[int]] = {}
    for i, f in enumerate(dice):
        by_face.setdefault(f, []).append(i)
    faces = sorted(by_face)
    return faces, [by_face[f] for f in faces]
