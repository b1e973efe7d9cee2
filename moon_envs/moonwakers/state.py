"""The Moonwakers position: its fields, helpers of the phase modules, and the task queue.

Where every card is (a card id indexes the card file's lists):

* ``pile`` (the shuffled terrain pile, kept sorted: a draw takes a uniformly random card
  of it),
  ``pile_under`` (with ``pile="ordered"``: cards put under the pile, in order; they are
  drawn once ``pile`` is empty), ``discard`` (cards paid for combinations, public),
  ``table`` (one card id or -1 per slot), ``hand[seat]`` (explored cards and the set-up
  card), ``mapped[seat]`` (mapped cards, terrain face up, oldest first) and ``limbo`` (a
  card between two steps: a flipped accident, a card DASH replaced);
* ``combo_pile`` (unordered), ``combo_up`` (face-up slots, -1 empty), ``bought[seat]`` and
  ``combo_under`` (cards an infrared storm is putting back).

What each seat knows:

* ``known[card]``: bit mask of the seats that know that card's explored face (all bits:
  public). Cleared when the card is shuffled into the pile.
* ``tick`` counts draws and cards going into the pile; ``drawn[card]`` is the tick at
  which the card left the shuffled pile (-1 while in it); ``gone[seat][card]`` the last
  tick at which ``seat`` saw that card go into the shuffled pile (``gone_pub`` when all
  saw it). A card can only be in a place filled before the seat last saw it elsewhere.
* ``looks``: every private look at a face-down card ``[seat, away, candidates]``: the
  cards it could have looked at (those still on the table or mapped) and how many of the
  candidates have left for the pile or been flipped; the determinisation redraws them.
* ``floor[seat]``: elements the seat's unseen set-up card must hold (its revealed claims
  needed them); ``not_kinds[seat]``: explored kinds it cannot be (bit mask; windows not
  offered under ``response_windows="holders"``).

Sealed choices: ``option`` (SCAN / PROTECTION), ``claims``, ``responses`` (SHELTER or
roll against the free card's accident) are hidden from the others until the matching
``*_public`` flag is set.
"""

from __future__ import annotations

from bisect import insort

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, State
from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.cards import ABILITIES, EXPLORED_KINDS, covers
from moon_envs.moonwakers.config import (
    ActionLayout,
    PROTECTION_MOD,
    SCAN_MOD,
    TABLE_SLOTS,
    face_up_combos,
)
from moon_envs.moonwakers.copies import CopiedFields

SCAN, PROTECTION = 0, 1
ROLL_RESPONSE, SHELTER_RESPONSE = 0, 1
MAX_ROLLS_KEPT = 64
MAPPED = ActionLayout.MAPPED
_KIND = {k: i for i, k in enumerate(EXPLORED_KINDS)}


class MoonwakersState(CopiedFields, State):
    """One Moonwakers position; see the module docstring for the card fields (and
    :mod:`~moon_envs.moonwakers.copies` for its clones)."""

    def __init__(self, game) -> None:
        super().__init__(game)
        n = game.config.num_players
        self.n = n  # seats
        cards = game.cards
        nt = cards.num_terrain
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
        self.shelter_ok = False
        self.reveal_choice = [-1] * n  # 0 MAP, 1 EXPLORE
        self.responses = [-1] * n  # -1 none, 0 roll, 1 SHELTER (sealed until all chose)
        self.responses_public = False
        self.claims = [-2] * n  # -2 undecided, -1 pass, else combo slot (sealed)
        self.claims_public = False
        self.claim_need = [[0] * 6 for _ in range(n)]  # what a claim needed of unseen cards
        self.bought_round = [0] * n  # COMBINATION cards bought this round
        self.claim_turns = 0  # claim turns held this round
        self.duel_rolls = [-1] * n
        self.pay_need = [0] * 6
        self.last_rolls: list[list[int]] = []  # public: [seat, die, total], the round's last 64
        # the last step: [seat or -1 (chance), action, kind, card]; card: the terrain card a
        # MAPPED action named, read before the move (a paid, lost or LABO'd card has left
        # the mapped cards by then), else -1
        self.last: list = [-1, -1, "", -1]
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.mapped: list[list[int]] = [[] for _ in range(n)]
        self.bought: list[list[int]] = [[] for _ in range(n)]
        self.score = [0] * n  # combination points of ``bought`` (kept up to date)
        self.pile = list(range(nt))
        self.pile_under: list[int] = []
        self.discard: list[int] = []
        self.limbo: list[int] = []
        self.known = [0] * nt
        self.tick = 0
        self.drawn = [-1] * nt
        self.gone = [[-1] * nt for _ in range(n)]
        self.gone_pub = [-1] * nt
        self.looks: list[list] = []
        self.floor = [[0] * 6 for _ in range(n)]
        self.not_kinds = [0] * n
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
    def layout(self):
        return self.game.layout

    @property
    def config(self):
        return self.game.config

    @property
    def all_seats(self) -> int:
        return (1 << self.n) - 1

    def push(self, *new: dict) -> None:
        """Put tasks at the front of the queue, in the order given."""
        self.tasks[0:0] = new

    def order_from(self, start: int) -> tuple[int, ...]:
        """Seats clockwise (increasing, wrapping) from ``start``."""
        return self.game.orders[start]

    def modifier(self, seat: int) -> int:
        """The round's die modifier: SCAN -1, PROTECTION +2."""
        opt = self.option[seat]
        return SCAN_MOD if opt == SCAN else PROTECTION_MOD if opt == PROTECTION else 0

    def holding(self, seat: int, kind: str) -> int:
        """A card of explored ``kind`` in ``seat``'s hand (the oldest), or -1."""
        k = _KIND[kind]
        kind_of = self.cards.kind_of
        for c in self.hand[seat]:
            if kind_of[c] == k:
                return c
        return -1

    def unseen_in_hand(self, seat: int) -> list[int]:
        """``seat``'s hand cards that some other seat has not seen."""
        full = self.all_seats
        known = self.known
        return [c for c in self.hand[seat] if known[c] != full]

    def ability(self, seat: int) -> str:
        """The ability of ``seat``'s character ('' before characters are dealt)."""
        c = self.character[seat]
        return ABILITIES[self.cards.ability_of[c]] if c >= 0 else ""

    def window(self, seat: int, kind: str, action: int) -> list[int]:
        """Legal actions of a response window for an action card of ``kind``: PASS or play
        it when held. Under ``response_windows="disguised"``, PASS alone when ``seat``
        holds a card the others have not seen (being asked tells nobody what that card
        is); under ``"holders"`` no window, and the others learn that the unseen cards
        are not of ``kind`` (or see the card, when it is the one that opens the window)."""
        held = self.holding(seat, kind)
        if self.config.response_windows == "holders":
            unseen = self.unseen_in_hand(seat)
            k = _KIND[kind]
            kind_of = self.cards.kind_of
            if held >= 0:
                if all(c in unseen for c in self.hand[seat] if kind_of[c] == k):
                    for c in unseen:  # the window shows the table what the card is
                        if kind_of[c] == k:
                            self.known[c] = self.all_seats
                return [0, action]
            if unseen:
                self.not_kinds[seat] |= 1 << k
            return []
        if held >= 0:
            return [0, action]
        full = self.all_seats
        known = self.known
        for c in self.hand[seat]:
            if known[c] != full:
                return [0]
        return []

    def mapped_choices(self, actor: int, owner: int, unseen_only: bool = False) -> list[int]:
        """MAPPED actions of ``actor`` naming each of ``owner``'s mapped cards (only those
        ``actor`` has not seen, with ``unseen_only``)."""
        lay = self.layout
        off = (owner - actor) % self.n
        base = lay.MAPPED + off * lay.num_terrain
        if not unseen_only:
            return list(range(base, base + len(self.mapped[owner])))
        bit = 1 << actor
        known = self.known
        return [base + i for i, c in enumerate(self.mapped[owner]) if not known[c] & bit]

    def mapped_card(self, actor: int, action: int) -> int:
        """The card a MAPPED action of ``actor`` names (-1 for a hand card action)."""
        lay = self.layout
        if action >= lay.HAND:
            return -1
        off, i = lay.split_mapped(action)
        return self.mapped[(actor + off) % self.n][i]

    def go_public(self, card: int) -> None:
        """Everyone sees ``card``'s explored face."""
        self.known[card] = self.all_seats

    def to_pile(self, card: int) -> None:
        """Put a card under the terrain pile: shuffled in (``pile="unordered"``), or at the
        bottom (``"ordered"``: it stays a place whose card its knowers know)."""
        if self.config.pile == "ordered":
            self.pile_under.append(card)
        else:
            self.shuffle_in(card)

    def shuffle_in(self, card: int) -> None:
        """Shuffle ``card`` into the pile; the seats that knew it remember when."""
        self.tick += 1
        tick = self.tick
        known = self.known[card]
        if known:
            if known == self.all_seats:
                self.gone_pub[card] = tick
            gone = self.gone
            for x in range(self.n):
                if known >> x & 1:
                    gone[x][card] = tick
        insort(self.pile, card)  # kept sorted: the pile is a set, drawn uniformly
        self.known[card] = 0
        self.drawn[card] = -1

    def spend(self, seat: int, kind: str) -> int:
        """Play an action card of ``kind`` from ``seat``'s hand (shown to all); it goes
        under the pile."""
        c = self.holding(seat, kind)
        self.hand[seat].remove(c)
        self.known[c] = self.all_seats
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

    def public_resources(self, seat: int) -> list[int]:
        """``seat``'s elements that every seat can count (unseen hand cards left out)."""
        total = [0] * 6
        element_of = self.cards.element_of
        for c in self.mapped[seat]:
            total[element_of[c]] += 1
        full = self.all_seats
        gives = self.cards.gives_sparse
        for c in self.hand[seat]:
            if self.known[c] == full:
                for e, v in gives[c]:
                    total[e] += v
        return total

    def packed_resources(self, seat: int) -> int:
        """:meth:`resources` packed in one int (see :func:`cards.packed`)."""
        cards = self.cards
        return sum(map(cards.packed_face.__getitem__, self.mapped[seat])) + sum(
            map(cards.packed_gives.__getitem__, self.hand[seat])
        )

    def can_afford(self, seat: int, slot: int, have: int | None = None) -> bool:
        """Whether ``seat`` (holding ``have``, packed, when given) can pay the COMBINATION
        card in ``slot``."""
        combo = self.combo_up[slot]
        if combo < 0:
            return False
        if have is None:
            have = self.packed_resources(seat)
        return covers(have, self.cards.packed_cost[combo])

    def points(self, seat: int) -> int:
        return self.score[seat]

    def buy(self, seat: int, combo: int) -> None:
        """``seat`` takes COMBINATION card ``combo``."""
        self.bought[seat].append(combo)
        score = list(self.score)  # a new list: infos handed out keep their values
        score[seat] += self.cards.points_of[combo]
        self.score = score

    @property
    def target(self) -> int:
        return self.game.target

    def note_roll(self, seat: int, die: int, total: int) -> None:
        rolls = self.last_rolls
        rolls.append([seat, die, total])
        if len(rolls) > MAX_ROLLS_KEPT:
            del rolls[0]

    # ---- the queue ---------------------------------------------------------------------
    def advance(self) -> None:
        """Run auto tasks and skip void ones until a chance node, a decision or the end.

        The front task keeps its legal actions (``_legal``) or chance outcomes
        (``_chance``) once computed; it is popped by the next :meth:`apply_action`.
        """
        tasks = self.tasks
        step = T.STEP
        while tasks:
            t = tasks[0]
            what, fn = step[t["t"]]
            if what == 0:  # an automatic step
                tasks.pop(0)
                fn(self, t)
                continue
            out = fn(self, t)  # chance outcomes or legal actions
            if out:
                t["_chance" if what == 1 else "_legal"] = out
                return
            tasks.pop(0)

    def _current_player(self) -> int:
        tasks = self.tasks
        if not tasks:
            return TERMINAL
        t = tasks[0]
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
        legal = self.tasks[0].get("_legal") or self.legal_list()
        masks = self.game.mask_cache
        key = tuple(legal)
        mask = masks.get(key)
        if mask is None:
            if len(masks) > 256:  # a bounded memo of the masks met so far (< 0.3 MB)
                masks.clear()
            mask = masks[key] = np.zeros(self.game.spec.num_actions, dtype=np.int8)
            mask[legal] = 1
        return mask.copy()

    def _is_legal(self, action: int) -> bool:
        return action in (self.tasks[0].get("_legal") or self.legal_list())

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
        kind = t["t"]
        if "_chance" in t:
            self.last = [-1, action, kind, -1]
            T.CHANCE_APPLY[kind](self, t, action)
        else:
            seat = t["seat"]
            card = self.mapped_card(seat, action) if action >= MAPPED else -1
            self.last = [seat, action, kind, card]
            T.APPLY[kind](self, t, action)
        self.advance()

    def phase(self) -> str:
        """The kind of the task to act on ('over' at the end)."""
        return self.tasks[0]["t"] if self.tasks else "over"

    # ---- results -----------------------------------------------------------------------
    def _scores(self) -> list[int]:
        """Combination points per seat (a list: the core converts it)."""
        return self.score

    def _winners(self) -> list[int]:
        """Most points; ties broken by more COMBINATION cards, then shared."""
        keys = [(self.score[s], len(self.bought[s])) for s in range(self.n)]
        best = max(keys)
        return [s for s in range(self.n) if keys[s] == best]

    def info(self) -> dict:
        """Public facts: the round and the combination points."""
        return {"round": self.round, "points": list(self.score)}
