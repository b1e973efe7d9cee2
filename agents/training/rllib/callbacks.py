"""Per-episode statistics of the learner's seats, logged by the env runners."""

from __future__ import annotations

from typing import Any

from ray.rllib.callbacks.callbacks import RLlibCallback


class LeagueMetricsCallback(RLlibCallback):
    """Logs, for every finished episode, each learner seat's win, return and length.

    Keys in ``result["env_runners"]``: ``learner_games``, ``learner_wins``,
    ``learner_return`` and ``learner_length`` (sums over the iteration's episodes).
    """

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        if metrics_logger is None:
            return
        for agent_id, single in episode.agent_episodes.items():
            if "@" in str(agent_id):
                continue  # a snapshot's seat
            infos = single.get_infos()
            last = infos[-1] if len(infos) else {}
            metrics_logger.log_value("learner_games", 1, reduce="sum")
            metrics_logger.log_value("learner_wins", float(bool(last.get("won"))), reduce="sum")
            metrics_logger.log_value("learner_return", float(single.get_return()), reduce="sum")
            metrics_logger.log_value("learner_length", len(single), reduce="sum")
