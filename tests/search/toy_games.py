"""Tiny games with known answers, for checking the search on hand-built positions."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, Game, GameSpec, State


@dataclass(frozen=True)
class NimConfig:
    heap: int = 5


class NimGame(Game):
    """Two players take 1-3 stones in turn (action ``k - 1`` takes ``k``); who takes the
    last stone wins. From a heap of 5, taking 1 (leaving 4) is the only winning move."""

    config_class = NimConfig

    def _make_spec(self) -> GameSpec:
        return GameSpec("nim", 2, 3, (1,), self.config.heap)


class NimState(State):
    def __init__(self, game: NimGame) -> None:
        super().__init__(game)
        self.heap = game.config.heap
        self.player = 0
        self.last = -1

    def _current_player(self) -> int:
        return TERMINAL if self.heap == 0 else self.player

    def _legal_mask(self) -> np.ndarray:
        return (np.arange(3) < self.heap).astype(np.int8)

    def _apply(self, action: int) -> None:
        self.heap -= action + 1
        self.last = self.player
        self.player = 1 - self.player

    def _observation(self, player: int) -> np.ndarray:
        return np.array([self.heap], np.float32)

    def _scores(self) -> np.ndarray:
        return np.zeros(2)

    def _winners(self) -> list[int]:
        return [self.last]


NimGame.state_class = NimState


@dataclass(frozen=True)
class CoinConfig:
    p_safe: float = 0.6
    p_risky: float = 0.3


class CoinGame(Game):
    """Seat 0 picks a coin (action 0: wins with ``p_risky``; action 1: with ``p_safe``),
    a chance node flips it (outcome 0: seat 0 wins, 1: seat 1 wins). Seat 1 never moves.
    The value of action ``a`` for seat 0 is ``2 p_a - 1``."""

    config_class = CoinConfig

    def _make_spec(self) -> GameSpec:
        return GameSpec("coin", 2, 2, (1,), 1, has_chance=True, max_chance_outcomes=2)


class CoinState(State):
    def __init__(self, game: CoinGame) -> None:
        super().__init__(game)
        self.choice = -1
        self.winner = -1

    def _current_player(self) -> int:
        if self.choice < 0:
            return 0
        return CHANCE if self.winner < 0 else TERMINAL

    def _legal_mask(self) -> np.ndarray:
        return np.ones(2, np.int8)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        cfg = self.game.config
        p = cfg.p_safe if self.choice == 1 else cfg.p_risky
        return [(0, p), (1, 1.0 - p)]

    def _apply(self, action: int) -> None:
        if self.choice < 0:
            self.choice = action
        else:
            self.winner = action

    def _observation(self, player: int) -> np.ndarray:
        return np.array([self.choice], np.float32)

    def _scores(self) -> np.ndarray:
        return np.zeros(2)

    def _winners(self) -> list[int]:
        return [self.winner]


CoinGame.state_class = CoinState


@dataclass(frozen=True)
class WideConfig:
    width: int = 50
    winning: int = 17


class WideGame(Game):
    """Seat 0 picks one of ``width`` moves and wins only with ``winning``; then the game
    ends. A search that tries each move once needs ``width`` simulations to find it."""

    config_class = WideConfig

    def _make_spec(self) -> GameSpec:
        return GameSpec("wide", 2, self.config.width, (1,), 1)


class WideState(State):
    def __init__(self, game: WideGame) -> None:
        super().__init__(game)
        self.choice = -1

    def _current_player(self) -> int:
        return 0 if self.choice < 0 else TERMINAL

    def _legal_mask(self) -> np.ndarray:
        return np.ones(self.game.config.width, np.int8)

    def _apply(self, action: int) -> None:
        self.choice = action

    def _observation(self, player: int) -> np.ndarray:
        return np.array([self.choice], np.float32)

    def _scores(self) -> np.ndarray:
        won = self.choice == self.game.config.winning
        return np.array([1.0, 0.0] if won else [0.0, 1.0])

    def _winners(self) -> list[int]:
        return [0] if self.choice == self.game.config.winning else [1]


WideGame.state_class = WideState
