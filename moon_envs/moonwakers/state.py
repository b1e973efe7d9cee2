"""The Moonwakers position: its fields, set-up, and the task queue that drives it.

Where every card is (a card id indexes the card file's lists):

* ``pile`` (terrain draw pile, unordered: a draw takes a uniformly random card of it),
  ``discard`` (cards paid for combinations, public), ``table`` (one card id or -1 per
  slot), ``hand[seat]`` (explored cards), ``mapped[seat]`` (mapped cards, terrain face
  up, oldest first) and ``limbo`` (a card between two steps, e.g. a flipped accident);
* ``combo_pile`` (unordered), ``combo_up`` (face-up slots, -1 empty), ``bought[seat]``
  and ``combo_under`` (cards an infrared storm is putting back).

``known[card]`` is a bit mask of the seats that know that card's explored face (all bits:
public). It is cleared when a card goes back into the pile.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, State
from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.cards import ABILITIES, EXPLORED_KINDS
from moon_envs.moonwakers.config import (
    PROTECTION_MOD,
    SCAN_MOD,
    TABLE_SLOTS,
    face_up_combos,
    target_points,
)

SCAN, PROTECTION = 0, 1


class MoonwakersState(State):
    """One Moonwakers position; see the module docstring for the card fields."""

    def __init__(self, game) -> None:
        super().__init__(game)
        n = game.config.num_players
        self.n = n  # seats
        cards = game.cards
        self.round = 0
        self.initiative = 0
        self.character = [-1] * n
        self.option = [-1] * n  # -1 none yet, 0 SCAN, 1 PROTECTION (sealed until all chose)
        self.options_public = False
        self.position = [-1] * n  # table slot of each character
        self.occupant = [-1] * TABLE_SLOTS
        self.table = [-1] * TABLE_SLOTS
        self.ability_used = [False] * n
        self.frozen = [False] * n
        self.ability_blocked = False  # the target of the ability being used shielded it
        self.shortcut_seat = -1
        self.shelter_ok = False
        self.reveal_choice = [-1] * n  # 0 MAP, 1 EXPLORE
        self.claims = [-2] * n  # -2 undecided, -1 pass, else combo slot (sealed)
        self.claims_public = False
        self.duel_rolls = [-1] * n
        self.pay_need = [0] * 6
        self.last_rolls: list[list[int]] = []  # public: [seat, die, total] of the round
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.mapped: list[list[int]] = [[] for _ in range(n)]
        self.bought: list[list[int]] = [[] for _ in range(n)]
        self.pile = list(range(cards.num_terrain))
        self.discard: list[int] = []
        self.limbo: list[int] = []
        self.known = [0] * cards.num_terrain
        self.combo_pile = list(range(cards.num_combos))
        self.combo_up = [-1] * face_up_combos(n)
        self.combo_under: list[int] = []
        self.tasks: list[dict] = [T.task("setup")]
        self.advance()

    # ---- helpers used by the phase modules --------------------------------------------
    @property
    def cards(self):
        return self.game.cards

    @property
    def all_seats(self) -> int:
        return (1 << self.n) - 1

    def push(self, *new: dict) -> None:
        """Put tasks at the front of the queue, in the order given."""
        self.tasks[0:0] = list(new)

    def order_from(self, start: int) -> list[int]:
        """Seats clockwise (increasing, wrapping) from ``start``."""
        return [(start + i) % self.n for i in range(self.n)]

    def modifier(self, seat: int) -> int:
        """The round's die modifier: SCAN -1, PROTECTION +2."""
        return {SCAN: SCAN_MOD, PROTECTION: PROTECTION_MOD}.get(self.option[seat], 0)

    def holding(self, seat: int, kind: str) -> int:
        """A card of explored ``kind`` in ``seat``'s hand (the oldest), or -1."""
        k = EXPLORED_KINDS.index(kind)
        kind_of = self.cards.kind_of
        for c in self.hand[seat]:
            if kind_of[c] == k:
                return c
        return -1

    def ability(self, seat: int) -> str:
        """The ability of ``seat``'s character ('' before characters are dealt)."""
        c = self.character[seat]
        return ABILITIES[int(self.cards.character_ability[c])] if c >= 0 else ""

    def window(self, seat: int, kind: str, action: int) -> list[int]:
        """Legal actions of a response window for an action card of ``kind``: PASS or play
        it when held; PASS alone when ``seat`` holds a card the others have not seen (so
        that being asked tells nobody what that card is); no window otherwise."""
        if self.holding(seat, kind) >= 0:
            return [0, action]
        full = self.all_seats
        if any(self.known[c] != full for c in self.hand[seat]):
            return [0]
        return []

    def to_pile(self, card: int) -> None:
        """Put a card under the terrain pile (the pile is unordered: it is shuffled in)."""
        self.pile.append(card)
        self.known[card] = 0

    def spend(self, seat: int, kind: str) -> int:
        """Play an action card of ``kind`` from ``seat``'s hand; it goes under the pile."""
        c = self.holding(seat, kind)
        self.hand[seat].remove(c)
        self.to_pile(c)
        return c

    def resources(self, seat: int) -> list[int]:
        """Element counts of ``seat``: terrain faces of mapped cards + explored hand faces."""
        cards = self.cards
        total = [0] * 6
        element_of = cards.element_of
        for c in self.mapped[seat]:
            total[element_of[c]] += 1
        gives = cards.gives_sparse
        for c in self.hand[seat]:
            for e, v in gives[c]:
                total[e] += v
        return total

    def can_afford(self, seat: int, slot: int, have: list[int] | None = None) -> bool:
        combo = self.combo_up[slot]
        if combo < 0:
            return False
        if have is None:
            have = self.resources(seat)
        cost = self.cards.cost_of[combo]
        return all(h >= c for h, c in zip(have, cost))

    def points(self, seat: int) -> int:
        points_of = self.cards.points_of
        total = 0
        for c in self.bought[seat]:
            total += points_of[c]
        return total

    @property
    def target(self) -> int:
        return target_points(self.n)

    # ---- the queue ---------------------------------------------------------------------
    def advance(self) -> None:
        """Run auto tasks and skip void ones until a chance node, a decision or the end.

        The front task keeps its legal actions (``_legal``) or chance outcomes
        (``_chance``) once computed; it is popped by the next :meth:`apply_action`, and
        :meth:`resample` drops these memos since it redraws cards they may depend on.
        """
        tasks = self.tasks
        while tasks:
            t = tasks[0]
            kind = t["t"]
            if kind in T.AUTO:
                tasks.pop(0)
                T.AUTO[kind](self, t)
                continue
            if kind in T.CHANCE_OUTCOMES:
                out = T.CHANCE_OUTCOMES[kind](self, t)
                key = "_chance"
            else:
                out = T.LEGAL[kind](self, t)
                key = "_legal"
            if out:
                t[key] = out
                return
            tasks.pop(0)

    def _current_player(self) -> int:
        if not self.tasks:
            return TERMINAL
        t = self.tasks[0]
        if "_chance" in t:
            return CHANCE
        return t["seat"]

    def legal_list(self) -> list[int]:
        t = self.tasks[0]
        out = t.get("_legal")
        if out is None:
            out = t["_legal"] = T.LEGAL[t["t"]](self, t)
        return out

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.spec.num_actions, dtype=np.int8)
        mask[self.legal_list()] = 1
        return mask

    def _is_legal(self, action: int) -> bool:
        return action in self.legal_list()

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        t = self.tasks[0]
        out = t.get("_chance")
        if out is None:
            out = t["_chance"] = T.CHANCE_OUTCOMES[t["t"]](self, t)
        return out

    def forget_memos(self) -> None:
        """Drop the front task's memo of legal actions / chance outcomes and recompute it
        (after a change made outside :meth:`apply_action`)."""
        if self.tasks:
            self.tasks[0].pop("_legal", None)
            self.tasks[0].pop("_chance", None)
            self.advance()

    def _apply(self, action: int) -> None:
        t = self.tasks.pop(0)
        if "_chance" in t:
            T.CHANCE_APPLY[t["t"]](self, t, action)
        else:
            T.APPLY[t["t"]](self, t, action)
        self.advance()

    def phase(self) -> str:
        """The kind of the task to act on ('over' at the end)."""
        return self.tasks[0]["t"] if self.tasks else "over"

    # ---- results -----------------------------------------------------------------------
    def _scores(self) -> list[int]:
        """Combination points per seat (a list: the core converts it)."""
        return [self.points(s) for s in range(self.n)]

    def _winners(self) -> list[int]:
        """Most points; ties broken by more COMBINATION cards, then shared."""
        keys = [(self.points(s), len(self.bought[s])) for s in range(self.n)]
        best = max(keys)
        return [s for s in range(self.n) if keys[s] == best]

    def info(self) -> dict:
        """Public facts: the round and the combination points."""
        return {"round": self.round, "points": self._scores()}
