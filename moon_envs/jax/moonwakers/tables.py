"""Static tables of the Moonwakers twin, built once per parameter set with numpy.

Everything the twin reads of the config and the card file: the seat count, the card
facts as arrays indexed by card id, the action layout, the capacities of the fixed-shape
task queue and list of looks, and the codes that say where each card is.

Where a card is (:class:`~moon_envs.jax.moonwakers.position.MWx`): each terrain card has
a place code (``PILE`` .. ``LIMBO``), an owner (the seat of a hand or of mapped cards,
the slot of a table card, else -1) and an index (its place in an ordered list: a hand,
the mapped cards, the cards put under the pile, the discard pile or limbo; 0 in the pile,
which is a set, and on the table). Each COMBINATION card likewise has a place
(``COMBO_PILE`` .. ``COMBO_UNDER``), an owner (a face-up slot or the buyer) and an index
(in the buyer's cards, or among those an infrared storm is putting back).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moon_envs.moonwakers.cards import ABILITIES, ACTION_KINDS, EXPLORED_KINDS
from moon_envs.moonwakers.config import (
    COMBO_SLOTS,
    MAX_PLAYERS,
    TABLE_SLOTS,
    ActionLayout,
    face_up_combos,
)
from moon_envs.moonwakers.game import MoonwakersGame
from moon_envs.moonwakers.observation import global_size, observation_size, table_features

# where a terrain card is
PILE, UNDER, DISCARD, TABLE, HAND, MAPPED, LIMBO = range(7)
TRANSIT = -1  # a card between two lists within one step (never in a settled position)
PLACES = ("pile", "pile_under", "discard", "table", "hand", "mapped", "limbo")
"""The Python state's field for each place code."""
# where a COMBINATION card is
COMBO_PILE, COMBO_UP, BOUGHT, COMBO_UNDER = range(4)

QUEUE_WIDTH = 8
"""Int32 fields of one task in the queue: kind, three fields, and a follow-up task (kind
and three fields); :mod:`~moon_envs.jax.moonwakers.queue` says which field is which."""


def queue_capacity(n: int) -> int:
    """Tasks the twin's queue holds with ``n`` seats: the most a round can queue at once,
    with room to spare.

    A round queues its placements at once: SHORTCUT offers (at most ``2 n`` with
    ``shortcut_when="every"``: two characters hold it), ``n`` placements, two PERMUTATION
    offers, ``n`` reveals and the end of the round; an ability then adds its windows
    (``n + 1``), its duel (``n + 1``) and its follow-up, and an accident a few more.
    Below ``6 n + 12``; random play at 6 seats with every option that lengthens the queue
    reached 31 (``docs/moonwakers.md``). The capacity is ``8 n + 16``."""
    return 8 * n + 16


LOOK_CAPACITY = 192
"""Private looks the twin keeps (the Python engine prunes looks whose cards all left play
once it holds more than 32; random play at 6 seats reached 93)."""


@dataclass(frozen=True)
class MoonwakersTables:
    """Everything the twin reads of the config and the card file.

    Attributes:
        n, num_terrain, num_combos, face_up: seats, terrain cards (``N``), COMBINATION
            cards (``C``), face-up COMBINATION slots (2 with 2-3 seats, 3 with 4+).
        num_biomes, obs_size, seat_features, table_features: the observation's layout.
        element_of, kind_of, biome_of, face_of: int32 ``[N]`` (``face_of``: the terrain
            face, what a face-down card shows); ``gives``: int32 ``[N, 6]`` the
            explored face's elements; ``action_slot``: int32 ``[N]`` the card's index in
            ``ACTION_KINDS`` (-1 for elements, accidents and storms).
        cost: int32 ``[C, 6]``; ``points``: int32 ``[C]``; ``ability_of``: int32 ``[6]``
            (per character, an index into ``ABILITIES``).
        target, max_rounds: the points that end the game, the round cap.
        queue_size, look_size: capacities of the task queue and the list of looks.
        num_actions, hand_base: the action layout (``ActionLayout``).
        config: the validated :class:`~moon_envs.moonwakers.config.MoonwakersConfig`.
    """

    n: int
    num_terrain: int
    num_combos: int
    face_up: int
    num_biomes: int
    obs_size: int
    seat_features: int
    table_features: int
    element_of: np.ndarray
    kind_of: np.ndarray
    biome_of: np.ndarray
    face_of: np.ndarray
    gives: np.ndarray
    action_slot: np.ndarray
    cost: np.ndarray
    points: np.ndarray
    ability_of: np.ndarray
    target: int
    max_rounds: int
    queue_size: int
    look_size: int
    num_actions: int
    hand_base: int
    config: object

    @property
    def words(self) -> int:
        """uint32 words of a set of terrain cards (one bit per card)."""
        return -(-self.num_terrain // 32)


def build_tables(game: MoonwakersGame) -> MoonwakersTables:
    """The tables of ``game``'s config and card file."""
    cards = game.cards
    n = game.config.num_players
    nb = len(cards.biomes)
    i32 = np.int32
    action_slot = [ACTION_KINDS.index(k) if k in ACTION_KINDS else -1 for k in EXPLORED_KINDS]
    layout = ActionLayout(cards.num_terrain)
    seat_features = 47
    assert global_size() + MAX_PLAYERS * seat_features + TABLE_SLOTS * table_features(
        nb
    ) + COMBO_SLOTS * 9 == observation_size(nb)
    assert len(ABILITIES) == 3
    return MoonwakersTables(
        n=n,
        num_terrain=cards.num_terrain,
        num_combos=cards.num_combos,
        face_up=face_up_combos(n),
        num_biomes=nb,
        obs_size=observation_size(nb),
        seat_features=seat_features,
        table_features=table_features(nb),
        element_of=np.asarray(cards.element_of, i32),
        kind_of=np.asarray(cards.kind_of, i32),
        biome_of=np.asarray(cards.biome_of, i32),
        face_of=np.asarray(cards.face_of, i32),
        gives=np.asarray(cards.gives, i32).reshape(cards.num_terrain, 6),
        action_slot=np.asarray([action_slot[k] for k in cards.kind_of], i32),
        cost=np.asarray(cards.cost_of, i32).reshape(cards.num_combos, 6),
        points=np.asarray(cards.points_of, i32),
        ability_of=np.asarray(cards.ability_of, i32),
        target=game.target,
        max_rounds=game.config.max_rounds,
        queue_size=queue_capacity(n),
        look_size=LOOK_CAPACITY,
        num_actions=layout.num_actions,
        hand_base=layout.HAND,
        config=game.config,
    )
