"""Exact Moonstar solver for independent scoring (Games 1–6, 9 and their combinations).

Each moon scores on its own, so the best total is a maximum-weight assignment of dice to
moons, the weight of (moon, die) being the best landing value over the allowed
directions. Every landing scores at least 1, so the total is ``moves + best sum of
(weight - 1)`` over matchings of at most ``moves`` pairs; a depth-first branch and bound
over the moons that can gain more than 1 (best moons first, equal dice interchangeable,
bound = sum of the remaining moons' best gains) finds it exactly.
:func:`moon_envs.moonstar.solver.solve` calls it, once per planet star for Game 6.
"""

from __future__ import annotations

import numpy as np

from moon_envs.moonstar.situation import (
    NUM_STARS,
    Situation,
    Solution,
    _faces,
    displacement,
    num_directions,
)


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
