"""Exact Moonstar solver for squares (Game 7) and chains of moved moons (Game 8).

Both scorings are convex in the number of moons landing on each star, so the moons
interact: a depth-first branch and bound over the moons (dice deduplicated by face, moons
on the same star kept in canonical order, transpositions skipped, bound from the largest
reachable pile, a greedy plan as the first incumbent) finds the optimum. The plan is then
ordered by landing star, so that chains are unbroken and the chain in progress comes first.
:func:`moon_envs.moonstar.solver.solve` calls it.
"""

from __future__ import annotations

from moon_envs.moonstar.situation import (
    NUM_STARS,
    Situation,
    Solution,
    _faces,
    displacement,
    num_directions,
)

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
