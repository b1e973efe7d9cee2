"""The Moonwakers game object and its state class (the rules engine's entry point); the
rules it implements, with the reason for every house rule, are in docs/rules.md (section
"Moonwakers SEED")."""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import Game, GameSpec
from moon_envs.core.info_fields import Field
from moon_envs.moonwakers import (  # noqa: F401 (the phase modules register their handlers)
    accidents,
    acquisition,
    draws,
    opening,
    positioning,
    reveal,
)
from moon_envs.moonwakers import determinisation, hidden, observation, text, validation
from moon_envs.moonwakers.cards import load_cards
from moon_envs.moonwakers.config import ActionLayout, MoonwakersConfig, target_points
from moon_envs.moonwakers.stalemate import STALEMATE_TEXT, stalemated
from moon_envs.moonwakers.state import MoonwakersState as _Core

observation.index_decision_kinds()


class MoonwakersState(_Core):
    """A Moonwakers position with its views: observation, text, resample, global state."""

    def _observation(self, player: int) -> np.ndarray:
        return observation.build_observation(self, player)

    def _global_state(self) -> np.ndarray:
        return hidden.global_state(self)

    def resample(self, player: int, rng: np.random.Generator) -> MoonwakersState:
        if not 0 <= player < self.n:
            raise ValueError(f"player must be in 0..{self.n - 1}, got {player}")
        return determinisation.resample(self, player, rng)

    def _validate(self) -> None:
        last = self.last
        if type(last) is list and len(last) == 3:  # a snapshot from before last[3] existed
            self.last = [*last, -1]  # the card its move took is not known: none named
        validation.validate(self)

    def to_string(self, player: int | None = None) -> str:
        if player is not None and not 0 <= player < self.n:
            raise ValueError(f"player must be in 0..{self.n - 1}, got {player}")
        return text.to_text(self, player)

    def __str__(self) -> str:
        return text.to_text(self, None)

    def action_to_string(self, action: int) -> str:
        return text.action_name(self, action)

    def stalemate_reason(self) -> str:
        """Why nobody can ever score again (:mod:`~moon_envs.moonwakers.stalemate`), or
        ``""`` while someone still can (and at the end of the game). A fact of the whole
        position, the spectator's: a seat cannot always tell (another hand's unseen card
        may be a LABO or hold the atoms missing)."""
        return STALEMATE_TEXT if self.tasks and stalemated(self) else ""

    def action_to_public_string(self, action: int, observer: int) -> str:
        return text.public_action_name(self, action, observer)


class MoonwakersGame(Game):
    """Moonwakers SEED rules (docs/rules.md, section *Moonwakers SEED*) with the card file
    ``config.cards``."""

    config_class = MoonwakersConfig
    state_class = MoonwakersState

    def info_fields(self) -> list[Field]:
        """The round and every seat's points."""
        return [Field(("round",)), Field(("points",), self.spec.num_players, 0)]

    def _make_spec(self) -> GameSpec:
        self.cards = load_cards(self.config.cards)
        self.mask_cache: dict[tuple[int, ...], np.ndarray] = {}  # legal actions -> mask
        self.target = target_points(self.config.num_players)
        n = self.config.num_players
        self.orders = [tuple((start + i) % n for i in range(n)) for start in range(n)]
        self.layout = ActionLayout(self.cards.num_terrain)
        n = self.config.num_players
        obs = observation.observation_size(len(self.cards.biomes))
        # decisions per round, at most: options, peeks and placements (n each, plus a
        # SCAN per card), abilities with their windows (n (n + 2)) and SHORTCUT offers
        # (n^2), reveals (n), accidents (at most 4n of them, n + 3 decisions each, plus n
        # sealed responses), claims with LABO (3 turns of n + N) and payments (12 atoms,
        # 3 purchases each), end choices (n): below 8 n^2 + 60 n + 4 N
        per_round = 8 * n * n + 60 * n + 4 * self.cards.num_terrain
        return GameSpec(
            name="moonwakers",
            num_players=n,
            num_actions=self.layout.num_actions,
            observation_shape=(obs,),
            max_game_length=self.config.max_rounds * per_round,
            has_chance=True,
            hidden_information=True,
            max_chance_outcomes=max(self.cards.num_terrain, self.cards.num_combos, 12),
            state_shape=(hidden.global_state_size(n, obs, self.cards.num_terrain),),
        )
