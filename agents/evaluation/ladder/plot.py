"""The ladder's picture: Elo ratings (bars) beside the pairwise win rates (heat map)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["plot_ladder"]


def plot_ladder(result: Any, path: str | Path) -> None:
    """Draw a :class:`~moon_agents.evaluation.ladder.report.LadderResult` into ``path``
    (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    order = result.ranking()
    k = len(order)
    grid = np.full((k, k), np.nan)
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if a != b:
                grid[i, j] = result.rate(a, b)[0]
    fig, (ax1, ax2) = plt.subplots(
        1, 2, figsize=(5 + 1.4 * k, 0.5 * k + 3), gridspec_kw={"width_ratios": [2, 3]}
    )
    elo = [result.elo[n] for n in order]
    ax1.barh(range(k), elo, color="#4c72b0")
    ax1.set_yticks(range(k), order)
    ax1.invert_yaxis()
    ax1.set_xlim(min(elo) - 100, max(elo) + 100)
    ax1.set_xlabel("Elo (Bradley–Terry, mean 1500)")
    for i, v in enumerate(elo):
        ax1.text(v, i, f" {v:.0f}", va="center", fontsize=8)
    im = ax2.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    ax2.set_xticks(range(k), order, rotation=35, ha="right")
    ax2.set_yticks(range(k), order)
    for i in range(k):
        for j in range(k):
            if i != j:
                colour = "white" if abs(grid[i, j] - 0.5) > 0.3 else "black"
                ax2.text(
                    j,
                    i,
                    f"{grid[i, j]:.2f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color=colour,
                )
    ax2.set_title("win rate, row vs column")
    fig.colorbar(im, ax=ax2, fraction=0.046)
    fig.suptitle(f"{result.env_id}: {result.games_per_pairing} games per pairing")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
