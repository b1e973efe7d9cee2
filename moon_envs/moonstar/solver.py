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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

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
        from moon_envs.moonstar.chain_solver import solve_standing

        return solve_standing(sit)
    return _solve_convex(sit)


# ---- independent scoring: assignment DP -------------------------------------------------


def _faces(dice: Sequence[int]) -> tuple[list[int], list[list[int]]]:
    """Distinct faces and, per face, the indices of the dice showing it."""
    by_face: dict[int, list[int]] = {}
    for i, f in enumerate(dice):
        by_face.setdefault(f, []).append(i)
    faces = sorted(by_face)
    return faces, [by_face[f] for f in faces]


def _weights(sit: Situation, faces: list[int], red: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(best landing value, best direction) per (moon, face)."""
    nd = num_directions(sit.movement)
    vals = np.array([v or 1 for v in sit.star_values], dtype=np.int64)
    if red is not None:
        vals[red] *= 2
    start = np.array(sit.moon_stars, dtype=np.int64)[:, None, None]
    disp = np.array(
        [[displacement(f, k, sit.movement) for k in range(nd)] for f in faces], dtype=np.int64
    )
    land = (start + disp[None, :, :]) % NUM_STARS
    v = vals[land]  # moons x faces x directions
    return v.max(axis=2), v.argmax(axis=2)


def _independent_total(sit: Situation, red: int | None) -> int:
    """The best total only (no plan): the same search on plain Python lists."""
    n_moves = sit.num_moves
    if n_moves == 0:
        return 0
    vals = [v or 1 for v in sit.star_values]
    if red is not None:
        vals[red] *= 2
    count: dict[int, int] = {}
    for f in sit.dice:
        count[f] = count.get(f, 0) + 1
    faces = list(count)
    left = [count[f] for f in faces]
    nf = len(faces)
    four = sit.movement != "exact"
    ccw_far = 2 if sit.movement == "double_double" else 0  # 0: half the die
    by_star: dict[int, tuple] = {}
    rel = []
    for s in sit.moon_stars:
        entry = by_star.get(s)
        if entry is None:
            row = []
            for f in faces:
                a, b = vals[(s + f) % 12], vals[(s - f) % 12]
                e = max(b, a)
                if four:
                    back = ccw_far * f if ccw_far else f // 2
                    c, d = vals[(s + 2 * f) % 12], vals[(s - back) % 12]
                    e = max(e, c, d)
                row.append(e - 1)
            opts = [j for j in range(nf) if row[j] > 0]
            opts.sort(key=row.__getitem__, reverse=True)
            entry = by_star[s] = (row, opts)
        row, opts = entry
        if opts:
            rel.append((-row[opts[0]], s, opts, row))
    rel.sort()
    nrel = len(rel)
    same = [i > 0 and rel[i][1] == rel[i - 1][1] for i in range(nrel)]
    suffix = [0] * (nrel + 1)
    for i in range(nrel - 1, -1, -1):
        suffix[i] = suffix[i + 1] - rel[i][0]
    best = -1

    def dfs(i: int, val: int, used: int, lo: int) -> None:
        nonlocal best
        if i == nrel or used == n_moves:
            best = max(best, val)
            return
        if val + suffix[i] <= best:
            return
        _, _, opts, row = rel[i]
        for j in range(lo if same[i] else 0, len(opts)):
            f = opts[j]
            if left[f]:
                left[f] -= 1
                dfs(i + 1, val + row[f], used + 1, j)
                left[f] += 1
                if best == val + suffix[i]:
                    return
        dfs(i + 1, val, used, len(opts))

    dfs(0, 0, 0, 0)
    return n_moves + best


def _solve_independent(sit: Situation, red: int | None, with_plan: bool = True) -> Solution:
    if not with_plan:
        return Solution(_independent_total(sit, red), [], red)
    n_moves = sit.num_moves
    if n_moves == 0:
        return Solution(0, [], red)
    faces, idx = _faces(sit.dice)
    w, wdir = _weights(sit, faces, red)
    excess = (w - 1).tolist()
    cnt = [len(i) for i in idx]
    nf = len(faces)
    # moons that can gain more than 1, with their useful faces (best first)
    rel = []
    stars = sit.moon_stars
    for m, row in enumerate(excess):
        opts = [f for f in range(nf) if row[f] > 0]
        if opts:
            opts.sort(key=row.__getitem__, reverse=True)
            rel.append((-row[opts[0]], stars[m], m, opts, row))
    # depth-first branch and bound over the useful moons, best moons first (moons on the
    # same star are interchangeable: they take their faces in canonical order); bound: each
    # remaining moon gains at most its own best excess
    rel.sort()
    nrel = len(rel)
    same = [i > 0 and rel[i][1] == rel[i - 1][1] for i in range(nrel)]
    suffix = [0] * (nrel + 1)
    for i in range(nrel - 1, -1, -1):
        suffix[i] = suffix[i + 1] - rel[i][0]
    left = list(cnt)
    choice = [-1] * nrel
    best_choice = [-1] * nrel
    best_val = -1

    def dfs(i: int, val: int, used: int, lo: int) -> None:
        nonlocal best_val, best_choice
        if i == nrel or used == n_moves:
            if val > best_val:
                best_val = val
                best_choice = choice[:i] + [-1] * (nrel - i)
            return
        if val + suffix[i] <= best_val:
            return
        _, _, _, opts, row = rel[i]
        start = lo if same[i] else 0
        for j in range(start, len(opts)):
            f = opts[j]
            if left[f]:
                left[f] -= 1
                choice[i] = f
                dfs(i + 1, val + row[f], used + 1, j)
                left[f] += 1
                if best_val == val + suffix[i]:
                    return
        choice[i] = -1
        dfs(i + 1, val, used, len(opts))

    dfs(0, 0, 0, 0)
    if not with_plan:
        return Solution(int(n_moves + best_val), [], red)
    extra = best_val
    plan: list[tuple[int, int, int]] = []
    free = [list(i) for i in idx]
    moved = set()
    used = 0
    for i, f in enumerate(best_choice):
        if f >= 0:
            m = rel[i][2]
            plan.append((m, free[f].pop(0), int(wdir[m, f])))
            moved.add(m)
            used += 1
    # fill the remaining moves (each scores its best landing, at least 1)
    for m in range(len(sit.moon_stars)):
        if used == n_moves:
            break
        if m in moved:
            continue
        f = max((f for f in range(nf) if free[f]), key=lambda f: w[m, f])
        plan.append((m, free[f].pop(0), int(wdir[m, f])))
        used += 1
    total = n_moves + extra
    return Solution(int(total), plan, red)


# ---- interacting scoring: branch and bound ----------------------------------------------


def _solve_convex(sit: Situation) -> Solution:
    squares = sit.scoring == "squares"
    n_moves = sit.num_moves
    moons = list(range(len(sit.moon_stars)))
    if n_moves == 0:
        return Solution(0, [], None)
    faces, idx = _faces(sit.dice)
    nf = len(faces)
    cnt = [len(i) for i in idx]
    nd = num_directions(sit.movement)
    # options of each moon: distinct (landing star, face)
    opts_of = {}
    for m in moons:
        s = sit.moon_stars[m]
        seen = set()
        opts = []
        for f in range(nf):
            for k in range(nd):
                t = (s + displacement(faces[f], k, sit.movement)) % NUM_STARS
                if (t, f) not in seen:
                    seen.add((t, f))
                    opts.append((t, f, k))
        opts_of[m] = opts
    # moons grouped by start star (same-star moons are interchangeable)
    order = sorted(moons, key=lambda m: sit.moon_stars[m])
    nm = len(order)
    same_prev = [
        i > 0 and sit.moon_stars[order[i]] == sit.moon_stars[order[i - 1]] for i in range(nm)
    ]
    reach_after = [[0] * NUM_STARS for _ in range(nm + 1)]
    for i in range(nm - 1, -1, -1):
        r = reach_after[i] = list(reach_after[i + 1])
        for t in {o[0] for o in opts_of[order[i]]}:
            r[t] += 1

    cs, offset = (sit.chain_star, sit.chain_len) if not squares else (-1, 0)

    def gain(c: int) -> int:  # points of the c-th moon on a star (before the chain offset)
        return 2 * c - 1 if squares else c

    def gain_at(t: int, c: int) -> int:  # the c-th new moon on star t
        return gain(c) + (offset if t == cs else 0)

    start = list(sit.landed) if squares else [0] * NUM_STARS
    counts = list(start)
    used_f = [0] * nf
    best_total = -1
    best_plan: list[tuple[int, int, int]] = []
    cur_plan: list[tuple[int, int, int, int]] = []  # (moon, face, dir, opt index)
    seen: set = set()

    # incumbent: greedy
    def greedy() -> None:
        nonlocal best_total, best_plan
        c = list(start)
        u = [0] * nf
        tot, plan = 0, []
        for m in order:
            if len(plan) == n_moves:
                break
            bestv, bo = -1, None
            for t, f, k in opts_of[m]:
                if u[f] < cnt[f] and gain_at(t, c[t] + 1) > bestv:
                    bestv, bo = gain_at(t, c[t] + 1), (t, f, k)
            if bo is None:
                continue
            t, f, k = bo
            c[t] += 1
            u[f] += 1
            tot += gain_at(t, c[t])
            plan.append((m, f, k))
        if len(plan) == n_moves:
            best_total, best_plan = tot, plan

    greedy()

    def dfs(i: int, moves_left: int, total: int, min_opt: int) -> None:
        nonlocal best_total, best_plan
        if moves_left == 0:
            if total > best_total:
                best_total = total
                best_plan = [(m, f, k) for m, f, k, _ in cur_plan]
            return
        if nm - i < moves_left:
            return
        # bound: each remaining move scores at most gain(largest possible pile)
        ra = reach_after[i]
        cap = 0
        for t in range(NUM_STARS):
            x = counts[t] + ra[t]
            cap = max(cap, x)
        cm = max(counts)
        ub = total + offset * moves_left
        for j in range(1, moves_left + 1):
            ub += gain(min(cm + j, cap))
        if ub <= best_total:
            return
        key = (i, min_opt if same_prev[i] else -1, tuple(counts), tuple(used_f))
        if key in seen:
            return
        seen.add(key)
        m = order[i]
        opts = opts_of[m]
        lo = min_opt if same_prev[i] else 0
        # best-looking options first
        cand = sorted(
            (j for j in range(lo, len(opts)) if used_f[opts[j][1]] < cnt[opts[j][1]]),
            key=lambda j: -counts[opts[j][0]],
        )
        for j in cand:
            t, f, k = opts[j]
            counts[t] += 1
            used_f[f] += 1
            cur_plan.append((m, f, k, j))
            dfs(i + 1, moves_left - 1, total + gain_at(t, counts[t]), j)
            cur_plan.pop()
            counts[t] -= 1
            used_f[f] -= 1
        if nm - i - 1 >= moves_left:  # this moon gets no die (more moons than moves)
            dfs(i + 1, moves_left, total, len(opts))

    dfs(0, n_moves, 0, 0)
    # faces -> die indices; order moves by landing star so chains are unbroken
    free = [list(i) for i in idx]
    plan = []
    for m, f, k in best_plan:
        plan.append((m, free[f].pop(0), k))

    def landing(mv: tuple[int, int, int]) -> int:
        return (
            sit.moon_stars[mv[0]] + displacement(sit.dice[mv[1]], mv[2], sit.movement)
        ) % NUM_STARS

    plan.sort(key=lambda mv: (landing(mv) != cs, landing(mv)))  # the chain in progress first
    return Solution(int(best_total), plan, None)


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
