"""MoonwakersHeuristicAgent: a rule-of-thumb policy for Moonwakers SEED.

It reads a determinised state (``view.sample_state``), so it only uses what its seat
knows. Its *goal* is the face-up COMBINATION card with the most points it lacks the fewest
atoms for; *needed* elements are the goal's cost minus its current elements.

* Opening: PROTECTION (+2 on every roll); a forced scan looks at the first table card.
* Abilities: never used (DASH, SHORTCUT, PERMUTATION pass); CRYOGEN never played.
* Positioning: under a table card it knows to hold elements or an action card, else
  under a card whose terrain element is needed, else the first free card.
* Reveal: MAP a card it knows to be an accident or a storm, or an unknown card whose
  terrain element is needed; EXPLORE otherwise (an explored face holds 2-3 atoms).
* Accidents: SHELTER when held, else roll; a loss gives up the least needed card.
* End of the game (``game_end="choice"``): end it when ahead, play on otherwise.
* Responses: SHIELD whenever attacked; DEFECTIVE SHELTER whenever possible.
* Acquisition: claim the affordable card with the most points; without one, LABO an
  opponent's mapped card of a needed element; pay with the card that wastes least.
"""

from __future__ import annotations

import numpy as np

from moon_agents.base import AgentView, legal_actions
from moon_envs.moonwakers.config import NUM_ELEMENTS
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.game import MoonwakersGame

_BAD = ("accident", "infrared_storm", "ionic_storm")


class MoonwakersHeuristicAgent:
    """Rule-of-thumb Moonwakers player; see the module docstring."""

    def __init__(self, seed: int | None = None, name: str = "heuristic") -> None:
        self.name = name
        self.rng = np.random.default_rng(seed)

    def act(self, view: AgentView) -> int:
        if not isinstance(view.game, MoonwakersGame):
            raise TypeError(
                f"MoonwakersHeuristicAgent plays Moonwakers only, not {view.game.spec.name}"
            )
        legal = [int(a) for a in legal_actions(view)]
        s = view.sample_state(self.rng)
        me = view.seat
        kind = s.tasks[0]["t"]
        need = self.needed(s, me)
        choose = getattr(self, f"_{kind}", None)
        a = choose(s, me, legal, need) if choose else None
        return a if a in legal else legal[0]

    @staticmethod
    def needed(s, me: int) -> np.ndarray:
        """Atoms missing (per element) for the goal combination."""
        have = s.resources(me)
        best = None
        for combo in s.combo_up:
            if combo < 0:
                continue
            missing = np.maximum(0, s.cards.combo_cost[combo] - have)
            key = (int(missing.sum()), -int(s.cards.combo_points[combo]))
            if best is None or key < best[0]:
                best = (key, missing)
        return best[1] if best else np.zeros(NUM_ELEMENTS, dtype=np.int64)

    @staticmethod
    def _option(s, me, legal, need):
        return A.OPT_PROTECTION

    @staticmethod
    def _place(s, me, legal, need):
        bit = 1 << me
        places = [a for a in legal if A.PLACE <= a < A.SCAN_CARD]
        for a in places:
            c = s.table[a - A.PLACE]
            if s.known[c] & bit and s.cards.kind_name(c) not in _BAD:
                return a
        for a in places:
            c = s.table[a - A.PLACE]
            if not s.known[c] & bit and need[s.cards.terrain_element[c]] > 0:
                return a
        unknown = [a for a in places if not s.known[s.table[a - A.PLACE]] & bit]
        return (unknown or places)[0]

    @staticmethod
    def _reveal(s, me, legal, need):
        c = s.table[s.position[me]]
        if s.known[c] & (1 << me):
            return A.MAP if s.cards.kind_name(c) in _BAD else A.EXPLORE
        return A.MAP if need[s.cards.terrain_element[c]] > 0 else A.EXPLORE

    @staticmethod
    def _accident(s, me, legal, need):
        return A.SHELTER if A.SHELTER in legal else A.ROLL

    _respond = _accident

    @staticmethod
    def _end_choice(s, me, legal, need):
        best_other = max(s.points(x) for x in range(s.n) if x != me)
        return A.END if s.points(me) > best_other else A.PASS

    @staticmethod
    def _loss(s, me, legal, need):
        lay = s.layout

        def cost(a):
            if a >= lay.HAND:
                return int(sum(s.cards.gives[a - lay.HAND]))
            card = s.mapped[me][lay.split_mapped(a)[1]]
            return 1 + 3 * int(need[s.cards.element_of[card]] > 0)

        return min(legal, key=cost)

    @staticmethod
    def _shield_cryogen(s, me, legal, need):
        return A.SHIELD

    _target_shield = _shield_cryogen
    _shield_defective = _shield_cryogen

    @staticmethod
    def _defective(s, me, legal, need):
        return A.DEFECTIVE

    @staticmethod
    def _claim(s, me, legal, need):
        claims = [a for a in legal if A.CLAIM <= a < A.END]
        if claims:
            return max(claims, key=lambda a: s.cards.points_of[s.combo_up[a - A.CLAIM]])
        lay = s.layout
        for a in legal:
            if A.MAPPED <= a < lay.HAND:
                off, i = lay.split_mapped(a)
                card = s.mapped[(me + off) % s.n][i]
                if off > 0 and need[s.cards.element_of[card]]:
                    return a
        return A.PASS

    @staticmethod
    def _pay(s, me, legal, need_goal):
        need = np.array(s.pay_need)
        lay = s.layout

        def waste(a):
            if a >= lay.HAND:
                gives = np.array(s.cards.gives[a - lay.HAND])
            else:
                card = s.mapped[me][lay.split_mapped(a)[1]]
                gives = np.eye(NUM_ELEMENTS, dtype=np.int64)[s.cards.element_of[card]]
            return int(np.maximum(0, gives - need).sum()), -int(np.minimum(gives, need).sum())

        return min(legal, key=waste)
