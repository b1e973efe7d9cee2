"""StarMasterMemoryAgent: remembers what it has been shown and plays its best guess.

The agent reads only its observation (never the hidden layout). At each decision it
updates its own memory of the board, then acts on it.

Memory update (see the observation layout in :mod:`moon_envs.star_master.env`):

1. the cubes have moved since its last decision by the *window permutation*, so every
   remembered entry follows its cube;
2. every colour in the *window map* (flips seen since its last decision; the full layout
   after set-up) and in the env's *memory block* (``memory="perfect"`` / ``"decay"``) is
   remembered with the current time;
3. with ``capacity=k`` only the ``k`` most recently seen slots are kept (ties broken by
   slot order); ``capacity=None`` is perfect recall.

Policy:

* flip: the remembered slot of the sought colour; else pass when allowed (an owned
  colour); else a uniformly random slot not remembered (any slot if all are);
* star: name a lacking colour whose slot it remembers; else a lacking colour it has not
  located (uniform);
* swap: the found cube goes to a remembered slot (both colours stay known), else anywhere;
* race (sealed): grab the remembered slot of the rolled colour if it lacks that colour;
  otherwise abstain (a wrong grab can only lose a pawn).

In the zoo: ``memory`` (perfect recall), ``memory3`` (3 slots) and ``memory:capacity=N``
(``N`` slots, 0..9; see :meth:`StarMasterMemoryAgent.from_spec`).

Ladder measured in ``docs/star_master.md``: random < memory (3 slots) < perfect recall.
"""

from __future__ import annotations

import numpy as np

from moon_agents.base import AgentView, legal_actions
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote
from moon_envs.star_master.config import NUM_COLOURS, ActionIds
from moon_envs.star_master.observation import ObservationLayout

SPEC_FIELDS = ["capacity"]


class StarMasterMemoryAgent:
    """Memory player with ``capacity`` remembered slots (``None``: perfect recall)."""

    def __init__(
        self, seed: int | None = None, name: str = "memory", capacity: int | None = None
    ) -> None:
        if capacity is not None and not (
            isinstance(capacity, int) and not isinstance(capacity, bool) and 0 <= capacity <= 9
        ):
            raise ConfigError(
                f"capacity={quote(capacity)} is not allowed; allowed values: None (perfect "
                "recall) or integers 0..9"
            )
        self.name = name
        self.capacity = capacity
        self.rng = np.random.default_rng(seed)
        self._layouts: dict[tuple[int, int], ObservationLayout] = {}
        self._memory: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._clock = 0

    @classmethod
    def from_spec(
        cls, text: str, seed: int | None = None, name: str | None = None
    ) -> StarMasterMemoryAgent:
        """The agent of the zoo spec ``memory:capacity=N`` (``text`` is what follows
        ``memory:``): fields ``capacity`` (integers 0..9). Bad fields or values raise
        :class:`ConfigError` naming the field and the allowed values."""
        values: dict[str, int] = {}
        for item in (p.strip() for p in text.split(",")):
            if not item:
                continue
            key, sep, raw = (x.strip() for x in item.partition("="))
            if not sep or not raw:
                raise ConfigError(
                    f"memory parameter {quote(item)} must read field=value; fields: {SPEC_FIELDS}"
                )
            if key not in SPEC_FIELDS:
                raise ConfigError(
                    f"unknown memory parameter {quote(key)}; allowed fields: {SPEC_FIELDS}"
                )
            if key in values:
                raise ConfigError(f"memory parameter {key!r} is given twice")
            if not raw.isdigit() or not 0 <= int(raw) <= 9:
                raise ConfigError(
                    f"capacity={quote(raw)} is not allowed; allowed values: integers 0..9"
                )
            values[key] = int(raw)
        if not values:
            raise ConfigError(
                f"memory: names no parameter; write memory:capacity=N (fields: {SPEC_FIELDS}) "
                "or memory alone for perfect recall"
            )
        return StarMasterMemoryAgent(
            seed=seed, name=name or f"memory:{text}", capacity=values["capacity"]
        )

    def reset(self, game, seat: int) -> None:
        """A new game starts for ``seat``: forget everything about that seat's board."""
        k = game.config.num_colours
        self._memory[seat] = (np.full(k, -1), np.full(k, -1))

    # ---- memory ---------------------------------------------------------------------------
    def _layout(self, n: int, k: int) -> ObservationLayout:
        if (n, k) not in self._layouts:
            self._layouts[n, k] = ObservationLayout(n, k)
        return self._layouts[n, k]

    def remember(self, obs: np.ndarray, seat: int, n: int, k: int = NUM_COLOURS) -> np.ndarray:
        """Update the seat's memory from ``obs`` (``n`` seats, ``k`` colours, so ``k``
        slots); return the remembered colour per slot."""
        L = self._layout(n, k)
        colours, seen = self._memory.get(seat) or (np.full(k, -1), np.full(k, -1))
        if colours.size != k:  # a game of another colour count without a reset
            colours, seen = np.full(k, -1), np.full(k, -1)
        self._clock += 1
        perm = obs[L.perm[0] : L.perm[0] + k * k].reshape(k, k).argmax(axis=1)
        colours, seen = colours[perm], seen[perm]
        ch = L.ch
        for start in (int(L.mem[0]) - 1, int(L.win[0]) - 1):  # memory block, then window
            block = obs[start : start + k * ch].reshape(k, ch).argmax(axis=1) - 1
            shown = block >= 0
            colours = np.where(shown, block, colours)
            seen = np.where(shown, self._clock, seen)
        if self.capacity is not None:
            known = np.flatnonzero(colours >= 0)
            if known.size > self.capacity:
                order = known[np.lexsort((-known, seen[known]))]  # oldest first
                drop = order[: known.size - self.capacity]
                colours[drop], seen[drop] = -1, -1
        self._memory[seat] = (colours, seen)
        return colours

    # ---- policy ---------------------------------------------------------------------------
    def act(self, view: AgentView) -> int:
        if view.game.spec.name != "star_master":
            raise TypeError(
                f"StarMasterMemoryAgent plays Star Master only, not {view.game.spec.name}"
            )
        n = view.game.spec.num_players
        k = view.game.config.num_colours  # colours, and so slots
        ids = ActionIds(k)
        L = self._layout(n, k)
        obs, mask = view.observation, view.action_mask
        colours = self.remember(obs, view.seat, n, k)
        legal = legal_actions(view)
        phase = int(np.argmax(obs[L.phase : L.phase + 4]))
        mine = obs[L.pawns : L.pawns + k] > 0.5
        where = {int(c): s for s, c in enumerate(colours) if c >= 0}
        if phase == 0:  # name a lacking colour
            lacking = [c for c in range(k) if mask[ids.name0 + c]]
            located = [c for c in lacking if c in where]
            pool = located or [c for c in lacking if c not in where] or lacking
            return ids.name0 + int(self.rng.choice(pool))
        if phase == 2:  # swap onto a remembered slot
            found = int(np.argmax(obs[L.found : L.found + k]))
            keep = [t for t in range(k) if t != found and colours[t] >= 0]
            pool = [ids.swap0 + t for t in keep] or legal.tolist()
            return int(self.rng.choice(pool))
        target = int(np.argmax(obs[L.target : L.target + k]))
        if phase == 3:  # race: the white die's colour
            target = int(np.argmax(obs[L.white : L.white + k]))
            if target in where and not mine[target]:
                return where[target]
            return ids.pass_
        if target in where:
            return where[target]
        if mask[ids.pass_]:
            return ids.pass_
        unknown = [s for s in range(k) if colours[s] < 0]
        return int(self.rng.choice(unknown or list(range(k))))


class StarMasterSlotsAgent(StarMasterMemoryAgent):
    """:class:`StarMasterMemoryAgent` remembering only 3 slots (``memory3`` in the zoo)."""

    from_spec = None  # type: ignore[assignment]  # fixed capacity: use memory:capacity=N

    def __init__(self, seed: int | None = None, name: str = "memory3") -> None:
        super().__init__(seed=seed, name=name, capacity=3)
