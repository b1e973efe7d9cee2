"""Chance outcomes in the search tree are drawn by their running totals: the first outcome
whose total exceeds a uniform draw, found by bisection (Moonstar's dice have 7,776)."""

from __future__ import annotations

import random

from moon_agents.search.tree import cumulative, sample


def _first_above(ids: list[int], cum: list[float], u: float) -> int:
    return next((o for o, c in zip(ids, cum) if u < c), ids[-1])


class _Fixed(random.Random):
    def __init__(self, u: float) -> None:
        super().__init__(0)
        self.u = u

    def random(self) -> float:
        return self.u


def test_sample_picks_the_first_outcome_whose_total_exceeds_the_draw() -> None:
    rng = random.Random(5)
    for size in (1, 2, 7, 300):
        weights = [rng.random() + (0.0 if i % 3 else 1e-9) for i in range(size)]
        ids, cum = cumulative([(10 + i, w) for i, w in enumerate(weights)])
        assert cum[-1] == 1.0 and ids[0] == 10
        draws = [rng.random() for _ in range(200)] + [0.0, *cum[: min(size, 20)]]
        for u in draws:
            assert sample(ids, cum, _Fixed(u)) == _first_above(ids, cum, u), (size, u)


def test_sample_follows_the_probabilities() -> None:
    ids, cum = cumulative([(0, 0.1), (1, 0.6), (2, 0.3)])
    rng = random.Random(1)
    counts = [0, 0, 0]
    for _ in range(20_000):
        counts[sample(ids, cum, rng)] += 1
    for count, p in zip(counts, (0.1, 0.6, 0.3)):
        assert abs(count / 20_000 - p) < 0.02, counts
