"""Exact Moonstar solver for Game 8 chains that count the moons standing on a star.

Under ``chain_members="all"`` a moon landing on a star scores 1, plus the length of the
chain it continues (the moved moons on the star of the moon moved just before it), plus
every unmoved moon standing on that star. Which moons are still standing depends on the
order of the moves, so the moves are not just grouped by star as with
``chain_members="moved"``: this module searches the orders.

The search is a depth-first branch and bound over the moves (moons on the same star are
interchangeable, so are dice of the same face), best immediate gains first, with

* a transposition table: a position (unmoved moons per star, free dice per face, chain
  star and length) reached again with no more points than before is not searched again;
* an upper bound: split the moves left into runs, each run landing on one star ``t``
  and at most as long as the number of moons and dice that can reach ``t``; a run of
  ``c`` moves scores at most ``c (c + 1) / 2 + c * standing(t)``, and the best split is a
  small knapsack; the chain in progress adds its length to at most the moves that can
  reach its star.
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


def solve_standing(sit: Situation) -> Solution:
    """The best total of a chains situation under ``chain_members="all"``, and a plan
    reaching it (moves in playing order)."""
    n_moves = sit.num_moves
    if n_moves == 0:
        return Solution(0, [], None)
    faces, die_ids = _faces(sit.dice)
    nf = len(faces)
    nd = num_directions(sit.movement)
    stars = sorted(set(sit.moon_stars))
    ns = len(stars)
    unmoved = [sit.moon_stars.count(s) for s in stars]
    left = [len(ids) for ids in die_ids]
    standing = [0] * NUM_STARS
    for s in sit.moon_stars:
        standing[s] += 1
    # landing star -> direction, per (start star, face)
    targets = [
        [
            {(s + displacement(faces[f], k, sit.movement)) % NUM_STARS: k for k in range(nd)}
            for f in range(nf)
        ]
        for s in stars
    ]
    best_total = -1
    best_path: list[tuple[int, int, int]] = []
    path: list[tuple[int, int, int]] = []
    seen: dict[tuple, int] = {}
    bounds: dict[tuple, tuple[list, list[int]]] = {}

    def runs_bound() -> tuple[list, list[int]]:
        """(most points of j more moves for each j, longest run that can reach each star)."""
        key = (tuple(unmoved), tuple(left))
        cached = bounds.get(key)
        if cached is not None:
            return cached
        moons_to = [0] * NUM_STARS
        faces_to: list[set[int]] = [set() for _ in range(NUM_STARS)]
        for i in range(ns):
            if not unmoved[i]:
                continue
            reach: set[int] = set()
            for f in range(nf):
                if left[f]:
                    for t in targets[i][f]:
                        faces_to[t].add(f)
                        reach.add(t)
            for t in reach:
                moons_to[t] += unmoved[i]
        caps = [min(moons_to[t], sum(left[f] for f in faces_to[t])) for t in range(NUM_STARS)]
        total_left = sum(unmoved)
        run = [None] * (total_left + 1)  # best single run of c moves
        for c in range(1, total_left + 1):
            vals = [c * (c + 1) // 2 + c * standing[t] for t in range(NUM_STARS) if caps[t] >= c]
            run[c] = max(vals) if vals else None
        most: list = [0] + [None] * total_left  # best split of j moves into runs
        for j in range(1, total_left + 1):
            options = [
                most[j - c] + run[c]
                for c in range(1, j + 1)
                if run[c] is not None and most[j - c] is not None
            ]
            most[j] = max(options) if options else None
        bounds[key] = (most, caps)
        return most, caps

    def search(moves_left: int, total: int, chain_star: int, chain_len: int) -> None:
        nonlocal best_total, best_path
        if moves_left == 0:
            if total > best_total:
                best_total, best_path = total, path[:]
            return
        most, caps = runs_bound()
        bound = most[moves_left]
        if bound is None:
            return
        if chain_star >= 0:
            bound += chain_len * min(moves_left, caps[chain_star])
        if total + bound <= best_total:
            return
        key = (tuple(unmoved), tuple(left), chain_star, chain_len)
        if seen.get(key, -1) >= total:
            return
        seen[key] = total
        options = []
        for i in range(ns):
            if not unmoved[i]:
                continue
            s = stars[i]
            for f in range(nf):
                if not left[f]:
                    continue
                for t in targets[i][f]:
                    gain = 1 + standing[t] - (t == s) + (chain_len if t == chain_star else 0)
                    options.append((gain, i, f, t))
        options.sort(reverse=True)
        for gain, i, f, t in options:
            s = stars[i]
            unmoved[i] -= 1
            left[f] -= 1
            standing[s] -= 1
            path.append((i, f, t))
            search(moves_left - 1, total + gain, t, chain_len + 1 if t == chain_star else 1)
            path.pop()
            unmoved[i] += 1
            left[f] += 1
            standing[s] += 1

    search(n_moves, 0, sit.chain_star, sit.chain_len)
    # (start star, face, landing star) -> (moon, die, direction)
    free_moons = {s: [m for m, x in enumerate(sit.moon_stars) if x == s] for s in stars}
    free_dice = [list(ids) for ids in die_ids]
    plan = [
        (free_moons[stars[i]].pop(0), free_dice[f].pop(0), targets[i][f][t])
        for i, f, t in best_path
    ]
    return Solution(int(best_total), plan, None)
