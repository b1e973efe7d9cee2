"""Self-play leagues through RLlib's policy mapping.

One module, ``"learner"``, is trained; it plays every seat whose agent id is
``player_<seat>``. Frozen copies of it, ``"snapshot_<k>"`` (a fixed number of slots,
refilled round-robin during training), play the seats named ``player_<seat>@snapshot_<k>``.
Zoo agents (random, heuristics, ``ppo:``/``rllib:`` checkpoints) are played inside the env
(see :mod:`moon_agents.training.rllib.env`), so each learner seat only ever collects its own reward.
"""

from __future__ import annotations

from typing import Any

from moon_agents.training.rllib.env import LEARNER, MODULE_PREFIX


def policy_mapping_fn(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """``player_3`` -> ``"learner"``; ``player_3@snapshot_1`` -> ``"snapshot_1"``."""
    _, _, module = str(agent_id).partition("@")
    return module or LEARNER


def snapshot_ids(slots: int) -> list[str]:
    """The module ids of ``slots`` snapshot slots."""
    return [f"{MODULE_PREFIX}{k}" for k in range(slots)]


def league_entries(pool: list[str], snapshots_filled: int, self_play: bool) -> list[str]:
    """The env league: the zoo ``pool``, the filled snapshot slots, and ``"learner"``
    (pure self-play) when ``self_play``."""
    return [*pool, *snapshot_ids(snapshots_filled), *([LEARNER] if self_play else [])]
