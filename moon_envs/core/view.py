"""What an agent is shown when it must act: the one input of every baseline agent."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from moon_envs.core.game import Game, State


@dataclass(frozen=True)
class AgentView:
    """The acting seat's view of the position.

    Attributes:
        observation: the seat's observation vector (``State.observation(seat)``).
        action_mask: int8 mask of legal actions.
        seat: the acting seat (``player_<seat>``).
        game: the immutable rules (spec, config) being played.

    Agents that search call :meth:`sample_state`, which returns a *determinised* state:
    everything the seat may not know is redrawn, so an agent cannot peek at hidden
    information through the view.
    """

    observation: np.ndarray
    action_mask: np.ndarray
    seat: int
    game: Game
    _state: State = field(repr=False, compare=False)

    def sample_state(self, rng: np.random.Generator) -> State:
        """A state consistent with what ``seat`` knows (a fresh copy, safe to mutate)."""
        return self._state.resample(self.seat, rng)

    @property
    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.action_mask)

    @classmethod
    def of(cls, state: State, seat: int | None = None) -> AgentView:
        """The view of ``seat`` (default: the player to move) on ``state``."""
        if seat is None:
            seat = state.current_player()
        if seat < 0:
            raise ValueError("no player is to move: the state is a chance or terminal node")
        mask = (
            state.legal_actions_mask()
            if state.current_player() == seat
            else np.zeros(state.game.spec.num_actions, dtype=np.int8)
        )
        return cls(state.observation(seat), mask, seat, state.game, state)
