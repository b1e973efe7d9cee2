"""The position of the Moonwakers twin: :class:`MWx`, the Python ``MoonwakersState``'s
fields as fixed-shape arrays.

Where every card is, is three small arrays per card set rather than a list per place
(see :mod:`~moon_envs.jax.moonwakers.tables`): a draw, a payment or a loss changes a few
entries of each, and "the ``i``-th oldest mapped card of a seat" is the card whose owner
is that seat and whose index is ``i``. The task queue is a ring buffer of int32 rows
(:mod:`~moon_envs.jax.moonwakers.queue`), and every private look is a row of a fixed
list, its candidates a set of cards in bit words.

The Python engine's records for the text view (``last`` and ``last_rolls``) are not part
of the twin's position: no mask, observation, reward or chance probability reads them.
"""

from __future__ import annotations

from typing import NamedTuple

import jax

Array = jax.Array


class MWx(NamedTuple):
    """One Moonwakers position (int32 unless noted; ``n`` seats, ``N`` terrain cards,
    ``C`` COMBINATION cards, ``U`` face-up slots; -1 means none or not yet).

    Leaves:
        place, owner, index: ``[N]`` where each terrain card is (a place code of
            :mod:`~moon_envs.jax.moonwakers.tables`), whose it is or which table slot
            holds it, and its index in its ordered list.
        combo_place, combo_owner, combo_index: ``[C]`` the same for COMBINATION cards.
        known: ``[N]`` bit mask of the seats that know the card's explored face.
        drawn: ``[N]`` the tick at which the card left the shuffled pile (-1 in it).
        gone: ``[n, N]`` the last tick at which each seat saw the card go into the
            shuffled pile; ``gone_pub``: ``[N]`` the same for all seats at once.
        tick: draws and cards shuffled in so far.
        look_seat, look_away: ``[L]`` each private look's seat and how many of its
            candidates left play; ``look_cards``: uint32 ``[L, W]`` its candidates, one
            bit per card; ``look_order``: ``[L]`` its place in the engine's list (looks
            sort by it; -1: a free row); ``num_looks``: looks held.
        character, option, position, reveal_choice, responses, claims, bought_round,
            duel_rolls, score, not_kinds: ``[n]`` the per-seat fields of the same name.
        ability_used, frozen: bool ``[n]``.
        claim_need, floor: ``[n, 6]``; ``pay_need``: ``[6]``.
        occupant: ``[7]`` the seat placed under each table slot.
        round, initiative, claim_turns: counters.
        options_public, claims_public, responses_public, ability_blocked, shelter_ok:
            bool flags.
        queue: ``[Q, 8]`` the task queue's rows; ``head``: the front task's row;
            ``size``: the tasks queued (0 once the game is over).
    """

    place: Array
    owner: Array
    index: Array
    combo_place: Array
    combo_owner: Array
    combo_index: Array
    known: Array
    drawn: Array
    gone: Array
    gone_pub: Array
    tick: Array
    look_seat: Array
    look_away: Array
    look_cards: Array
    look_order: Array
    num_looks: Array
    character: Array
    option: Array
    position: Array
    reveal_choice: Array
    responses: Array
    claims: Array
    bought_round: Array
    duel_rolls: Array
    score: Array
    not_kinds: Array
    ability_used: Array
    frozen: Array
    claim_need: Array
    floor: Array
    pay_need: Array
    occupant: Array
    round: Array
    initiative: Array
    claim_turns: Array
    options_public: Array
    claims_public: Array
    responses_public: Array
    ability_blocked: Array
    shelter_ok: Array
    queue: Array
    head: Array
    size: Array
