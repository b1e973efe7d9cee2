"""Statistics for tournaments: Wilson score intervals and Bradley–Terry (Elo) ratings.

:func:`wilson_interval` gives a 95% interval for a win rate; :func:`fit_elo` fits a
Bradley–Terry model to pairwise results by the minorisation–maximisation iteration
(Hunter 2004) and reports it on the Elo scale, ``400 log10(strength)``, shifted so that
the mean rating is :data:`ELO_MEAN`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

ELO_MEAN = 1500.0


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); ``(0, 1)`` for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return lo, hi


def fit_elo(
    names: Sequence[str],
    results: Sequence[tuple[str, str, float]],
    prior_ties: float = 1.0,
    iterations: int = 10_000,
    tol: float = 1e-10,
) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale from pairwise ``(a, b, score_of_a)`` results.

    ``score_of_a`` is 1 (a won), 0.5 (tie) or 0 (b won). ``prior_ties`` virtual ties are
    added to every pair that met. Ratings have mean :data:`ELO_MEAN`; a 400-point gap
    means 10:1 odds.
    """
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = np.zeros((k, k))  # wins[i, j]: points of i against j
    for a, b, s in results:
        i, j = index[a], index[b]
        if i == j:
            continue
        wins[i, j] += s
        wins[j, i] += 1.0 - s
    games = wins + wins.T
    met = games > 0
    wins = wins + np.where(met, prior_ties / 2.0, 0.0)
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    gamma = np.ones(k)
    for _ in range(iterations):
        denom = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), gamma)
        new = np.where(new > 0, new, 1e-12)
        new = new / math.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    elo = 400.0 * np.log10(gamma)
    elo = elo - elo.mean() + ELO_MEAN
    return {n: float(elo[index[n]]) for n in names}
