"""Star Master's twin: the position as fixed-shape arrays and the static tables of a config.

:class:`SMx` holds one position (unbatched; ``n`` seats, ``k = num_colours`` colours,
cubes and slots). It mirrors the fields of
:class:`~moon_envs.star_master.position.StarMasterPosition` that the rules, the
observations and the determinisation read; the Python engine's info-only records
(``last_flip``, ``last_race``, ``in_window``, the last decision) are left out, as no
observation, mask, reward or chance probability depends on them.

:class:`Tables` is built once per twin from the Python engine's validated config: plain
Python values and numpy arrays, read at trace time (each parameter set is its own compile).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.star_master.config import DECAY_SEEDS, STAR, StarMasterConfig
from moon_envs.star_master.phases import DRAW, END, FLIP, NAME, RACE, ROLL, SEED, SETUP, SWAP

Array = jax.Array

__all__ = [
    "DRAW",
    "END",
    "FLIP",
    "NAME",
    "RACE",
    "ROLL",
    "SEED",
    "SETUP",
    "STAR",
    "SWAP",
    "SMx",
    "Tables",
    "initial_x",
]


class SMx(NamedTuple):
    """One Star Master position (all int32 unless noted; ``-1`` means none / unknown).

    Attributes:
        phase: the Python engine's phase (``SETUP`` .. ``END`` of ``phases``).
        layout: ``[k]`` the colour of the cube on each slot.
        setup_index: slots placed so far during set-up.
        seed: the forgetting hash seed (``memory="decay"``).
        turn: turns started.
        roller, mover: the seat that rolled this turn, the seat acting in name/flip/swap.
        white, black: the dice (white: a colour or ``STAR``, -1 between turns; black 0/1).
        target: the colour sought by a flip; found: the slot of the found cube (to swap).
        race_choice: ``[n]`` sealed race choices (-2 not chosen, -1 abstain, else a slot).
        race_next: race choices made so far.
        pawns: bool ``[n, k]``, the colours each seat holds.
        win: ``[n, k]`` the colour each slot showed since the seat's last decision.
        perm: ``[n, k]`` where the cube now on each slot stood at the seat's last decision.
        mem: ``[n, k]`` the colour each seat remembers on each slot.
        winners: bool ``[n]``, set once the game is over.
    """

    phase: Array
    layout: Array
    setup_index: Array
    seed: Array
    turn: Array
    roller: Array
    mover: Array
    white: Array
    black: Array
    target: Array
    found: Array
    race_choice: Array
    race_next: Array
    pawns: Array
    win: Array
    perm: Array
    mem: Array
    winners: Array


class Tables:
    """The static facts of one config, read while tracing.

    Attributes:
        n, k: seats and colours; ``pass_`` the pass / abstain action (``3k``), ``num``
            actions in all (``3k + 1``).
        must_search, children, remembers, decays, seat_order: rule switches.
        turn_cap: the turn limit (``solitaire_turns`` or ``max_turns``).
        cap_nobody: no winner at the cap (one player, or ``turn_limit="nobody"``).
        roll_probs: float32 ``[20]`` the dice outcome ``2 * white + black`` probabilities.
        roll_counts, roll_total: the same as counts of face pairs (white, black) among
            ``roll_total`` equally likely pairs.
        layout_split: the set-up's draws (``k - i`` choices for slot ``i``) are taken
            from two words, the first ``layout_split`` draws from one: the split that
            keeps each word's product of choices (and so its bias) smallest.
        num_outcomes: chance outcome ids (1024 in decay mode, else 20).
        forget_threshold: an integer ``T``: a slot is forgotten when the 53-bit hash value
            is below ``T`` (``u < forget_prob`` with ``u = value / 2**53``, exactly).
    """

    def __init__(self, config: StarMasterConfig) -> None:
        c = config
        self.n = c.num_players
        self.k = k = c.num_colours
        self.pass_ = 3 * k
        self.num = 3 * k + 1
        self.must_search = c.must_search
        self.children = c.children
        self.remembers = c.memory != "none"
        self.decays = c.memory == "decay"
        self.seat_order = c.race_winner == "seat_order"
        self.turn_cap = c.turn_cap
        self.cap_nobody = c.num_players == 1 or c.turn_limit == "nobody"
        probs = np.zeros(2 * (STAR + 1))
        for w in c.white_faces:
            for b in c.black_faces:
                probs[2 * w + (0 if c.children else b)] += 1.0
        self.roll_probs = (probs / probs.sum()).astype(np.float32)
        self.roll_counts = probs.astype(np.int64)
        self.roll_total = int(probs.sum())
        self.layout_split = _balanced_split(list(range(k, 1, -1)))
        with np.errstate(divide="ignore"):
            self.roll_logits = np.log(probs / probs.sum()).astype(np.float32)
        self.num_outcomes = DECAY_SEEDS if self.decays else 2 * (STAR + 1)
        prob = float(c.forget_prob)
        self.forget_threshold = 0 if prob <= 0.0 else int(np.ceil(prob * 2.0**53))


def _balanced_split(radices: list[int]) -> int:
    """The index splitting ``radices`` into two runs whose larger product is least."""
    products = [(max(np.prod(radices[:i]), np.prod(radices[i:])), i) for i in range(len(radices))]
    return min(products)[1]


def initial_x(t: Tables) -> SMx:
    """The position before set-up: no cube placed, every window fresh."""
    n, k = t.n, t.k
    i32 = jnp.int32
    none = jnp.full((n, k), -1, i32)
    return SMx(
        phase=i32(SETUP),
        layout=jnp.full((k,), -1, i32),
        setup_index=i32(0),
        seed=i32(-1),
        turn=i32(0),
        roller=i32(0),
        mover=i32(0),
        white=i32(-1),
        black=i32(0),
        target=i32(-1),
        found=i32(-1),
        race_choice=jnp.full((n,), -2, i32),
        race_next=i32(0),
        pawns=jnp.zeros((n, k), jnp.bool_),
        win=none,
        perm=jnp.broadcast_to(jnp.arange(k, dtype=i32), (n, k)),
        mem=none,
        winners=jnp.zeros((n,), jnp.bool_),
    )
