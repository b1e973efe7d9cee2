"""The exact solver against brute force over every assignment and direction."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.moonstar.solver import (
    Situation,
    brute_force,
    displacement,
    num_directions,
    score_plan,
    solve,
)

N_SITUATIONS = 200


def random_situation(rng, scoring, movement, max_moons=4, max_dice=4):
    vals = [0] * 12
    if scoring == "planets":
        for s in rng.choice(12, int(rng.integers(1, 7)), replace=False):
            vals[int(s)] = int(rng.choice([2, 3, 5, 10, 20]))
    nm = int(rng.integers(1, max_moons + 1))
    nd = int(rng.integers(1, max_dice + 1))
    budget = None if rng.random() < 0.7 else int(rng.integers(1, 4))
    red = None
    choose = False
    if scoring == "planets":
        u = rng.random()
        if u < 0.25:
            choose = True
        elif u < 0.5:
            red = int(rng.choice([s for s in range(12) if vals[s]]))
    landed, chain_star, chain_len = (0,) * 12, -1, 0
    if scoring != "planets" and rng.random() < 0.4:  # a round already under way
        landed = tuple(int(x) for x in rng.multinomial(int(rng.integers(1, 5)), [1 / 12] * 12))
        chain_star = int(rng.choice(np.flatnonzero(landed)))
        chain_len = int(rng.integers(1, landed[chain_star] + 1))
    return Situation(
        moon_stars=tuple(int(x) for x in rng.integers(0, 12, nm)),
        dice=tuple(int(x) for x in rng.integers(1, 7, nd)),
        star_values=tuple(vals),
        scoring=scoring,
        movement=movement,
        red_star=red,
        choose_red=choose,
        max_moves=budget,
        landed=landed,
        chain_star=chain_star,
        chain_len=chain_len,
    )


def check_plan(sit: Situation, sol) -> None:
    moons = [m for m, _, _ in sol.plan]
    dice = [d for _, d, _ in sol.plan]
    assert len(sol.plan) == sit.num_moves
    assert len(set(moons)) == len(moons) and len(set(dice)) == len(dice)
    assert all(0 <= k < num_directions(sit.movement) for _, _, k in sol.plan)
    red = sol.red_star if sit.choose_red else sit.red_star
    if sit.choose_red:
        assert sit.star_values[sol.red_star] > 0
    assert score_plan(sit, sol.plan, red) == sol.total  # the plan, played in order, reaches it


@pytest.mark.parametrize(
    "scoring,movement",
    [
        ("planets", "exact"),
        ("squares", "exact"),
        ("chains", "exact"),
        ("planets", "double_half"),
        ("squares", "double_half"),
        ("chains", "double_half"),
        ("planets", "double_double"),
        ("squares", "double_double"),
        ("chains", "double_double"),
    ],
)
def test_solver_equals_brute_force(scoring, movement):
    rng = np.random.default_rng(hash((scoring, movement)) % 2**32)
    n = N_SITUATIONS if movement == "exact" else N_SITUATIONS // 3 + 1
    for _ in range(n):
        sit = random_situation(
            rng, scoring, movement, 5 if movement == "exact" else 4, 5 if movement == "exact" else 4
        )
        sol = solve(sit)
        assert sol.total == brute_force(sit), sit
        assert solve(sit, with_plan=False).total == sol.total
        check_plan(sit, sol)


def test_game9_movement_over_200_situations():
    """Game 9 (four directions) across all three scoring rules: 200 situations in all."""
    rng = np.random.default_rng(9)
    for i in range(N_SITUATIONS):
        scoring = ("planets", "squares", "chains")[i % 3]
        sit = random_situation(rng, scoring, "double_half", 4, 4)
        sol = solve(sit)
        assert sol.total == brute_force(sit), sit
        check_plan(sit, sol)


def test_more_moons_than_dice_and_more_dice_than_moons():
    rng = np.random.default_rng(34)
    for scoring in ("planets", "squares", "chains"):
        for _ in range(30):
            sit = random_situation(rng, scoring, "exact", 5, 3)
            assert solve(sit).total == brute_force(sit)
            sit = random_situation(rng, scoring, "exact", 3, 5)
            assert solve(sit).total == brute_force(sit)


def test_mid_round_situations():
    # squares: two moons already on star 6; two more reach it: 4^2 - 2^2 = 12 more points
    sit = Situation((0, 1), (6, 5), scoring="squares", landed=(0,) * 6 + (2,) + (0,) * 5)
    assert solve(sit).total == 12 == brute_force(sit)
    # chains: a chain of 3 on star 6 is in progress; continuing it scores 4 + 5
    sit = Situation((0, 1), (6, 5), scoring="chains", chain_star=6, chain_len=3)
    sol = solve(sit)
    assert sol.total == 9 == brute_force(sit) == score_plan(sit, sol.plan)


def test_displacements_of_game9():
    assert [displacement(5, k) for k in range(4)] == [5, -5, 10, -2]
    assert [displacement(1, k) for k in range(4)] == [1, -1, 2, 0]
    assert displacement(3, 3) == -1


def test_hand_examples():
    # two moons next to a 10: both reach it with a 1 (one each way)
    sit = Situation((1, 11), (1, 1), tuple([10] + [0] * 11))
    assert solve(sit).total == 20
    # squares: four moons that can all meet on star 6
    sit = Situation((0, 1, 2, 3), (6, 5, 4, 3), scoring="squares")
    assert solve(sit).total == 16
    # chains: the same meeting scores 1 + 2 + 3 + 4
    sit = Situation((0, 1, 2, 3), (6, 5, 4, 3), scoring="chains")
    assert solve(sit).total == 10
    # the red planet goes where it pays most
    sit = Situation((1,), (1,), tuple([5, 0, 10] + [0] * 9), choose_red=True)
    sol = solve(sit)
    assert sol.total == 20 and sol.red_star == 2


def test_full_size_situations_have_valid_plans():
    rng = np.random.default_rng(7)
    for scoring in ("planets", "squares", "chains"):
        for _ in range(5):
            sit = random_situation(rng, scoring, "exact", 7, 7)
            sit = Situation(
                tuple(int(x) for x in rng.integers(0, 12, 7)),
                tuple(int(x) for x in rng.integers(1, 7, 7)),
                sit.star_values,
                scoring,
                "exact",
            )
            sol = solve(sit)
            check_plan(sit, sol)
            # no single swap of two dice improves an independent optimum
            if scoring == "planets":
                for i in range(7):
                    for j in range(i + 1, 7):
                        p = list(sol.plan)
                        (mi, di, _), (mj, dj, _) = p[i], p[j]
                        for ki in range(2):
                            for kj in range(2):
                                q = list(p)
                                q[i], q[j] = (mi, dj, ki), (mj, di, kj)
                                assert score_plan(sit, q) <= sol.total


# ---- Game 8 with chain_members="all": the order of the moves matters ----------------------


def stacked_chain_situation(rng, movement, max_moons, max_dice):
    """Chains counting standing moons; moons drawn from few stars so that they stack."""
    nm = int(rng.integers(1, max_moons + 1))
    nd = int(rng.integers(1, max_dice + 1))
    chain_star, chain_len = -1, 0
    if rng.random() < 0.4:  # a chain already under way
        chain_star, chain_len = int(rng.integers(0, 12)), int(rng.integers(1, 4))
    return Situation(
        moon_stars=tuple(int(x) for x in rng.integers(0, 5, nm)),
        dice=tuple(int(x) for x in rng.integers(1, 7, nd)),
        scoring="chains",
        movement=movement,
        max_moves=None if rng.random() < 0.7 else int(rng.integers(1, 4)),
        chain_star=chain_star,
        chain_len=chain_len,
        chain_members="all",
    )


@pytest.mark.parametrize(
    "movement,n,size", [("exact", 200, 4), ("double_half", 60, 3), ("double_double", 60, 3)]
)
def test_chains_counting_standing_moons_equal_brute_force(movement, n, size):
    rng = np.random.default_rng({"exact": 81, "double_half": 82, "double_double": 83}[movement])
    differs = 0
    for _ in range(n):
        sit = stacked_chain_situation(rng, movement, size, size)
        sol = solve(sit)
        assert sol.total == brute_force(sit), sit
        assert solve(sit, with_plan=False).total == sol.total
        check_plan(sit, sol)
        moved = Situation(**{**sit.__dict__, "chain_members": "moved"})
        differs += solve(moved).total != sol.total
    assert differs >= n // 8  # the two readings really differ


def test_chains_counting_standing_moons_by_hand():
    # two moons stand on star 6: a moon from star 0 with the 6 scores 1 + 2, then the moon
    # from star 5 with the 1 scores 1 + 1 (its chain) + 2; counting moved moons only, 1 + 2
    sit = Situation((0, 5, 6, 6), (6, 1), scoring="chains", chain_members="all")
    sol = solve(sit)
    assert sol.total == 3 + 4 == brute_force(sit) == score_plan(sit, sol.plan)
    assert solve(Situation((0, 5, 6, 6), (6, 1), scoring="chains")).total == 1 + 2
