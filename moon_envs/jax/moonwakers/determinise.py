"""The Moonwakers twin's determinisation of a position for one seat (``resample``).

As :func:`moon_envs.moonwakers.determinisation.resample`, what seat ``p`` cannot know is
redrawn, and only that:

* **Cards.** Every *hidden place* (a face-down table card, another seat's unseen hand
  card, a mapped card, a card in limbo or put under the pile that ``p`` has not looked at)
  gets a card of the same terrain face from the pool ``p`` cannot place (those places'
  cards and the shuffled pile's). A place filled from the pile at tick ``d`` only takes a
  card ``p`` last saw go into the pile before ``d``; a set-up card is never an ACCIDENT or
  a STORM (``setup_hand="redraw"``), of no kind a window ruled out (``not_kinds``), and
  holds the elements its holder's revealed claim or its payment under way need. The
  places are filled one at a time, the most constrained first, each with a random
  allowed card still free (a place whose allowed cards are all taken gets a random free
  card of its face, so a deal is always found). The cards left over form the pile.
* **Other seats' looks.** Looks none of whose cards is still face down in play are
  dropped, and cards that left play are counted as gone, as the engine does. Which card
  another seat saw is redrawn among its look's candidates it does not already know (or
  none, in proportion to the candidates that left play).
* **Sealed choices** not yet revealed: another seat's SCAN / PROTECTION, claim (pass or a
  COMBINATION card it can afford in the redrawn position) and answer to the free card's
  accident (SHELTER only when it holds one). Other seats' memories keep only what all
  saw.

Every random draw is tied to something ``p`` sees (a place, a card id, a look's row),
never to which card lies where, so two positions that differ only in what ``p`` has not
seen give the same result for the same key. The distribution differs from the Python
engine's (whose matching is by augmenting paths), but both deal only positions ``p``
cannot tell from the true one.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.claim_steps import SHELTER_RESPONSE, can_afford
from moon_envs.jax.moonwakers.decisions import public_resources
from moon_envs.jax.moonwakers.moves import (
    KIND_INDEX,
    all_seats,
    card_words,
    face_up_combo,
    holding,
    word_cards,
)
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.tables import (
    HAND,
    LIMBO,
    MAPPED,
    PILE,
    TABLE,
    UNDER,
    MoonwakersTables,
)
from moon_envs.moonwakers.draws import BAD_SETUP
from moon_envs.moonwakers.state import ROLL_RESPONSE

Array = jax.Array
_PAY = queue.KIND["pay"]
_PAY_SEAT = 1 + queue.FIELDS["pay"].index("seat")


def resample(t: MoonwakersTables, x: MWx, p: Array, key: Array) -> MWx:
    """A position consistent with everything seat ``p`` knows, the unknown redrawn."""
    key_deal, key_looks, key_sealed = jax.random.split(key, 3)
    old = x
    x, source = _redeal(t, x, p, key_deal)
    x = _redraw_looks(t, x, old, p, source, key_looks)
    x = _redraw_sealed(t, x, p, key_sealed)
    gone = jnp.where((jnp.arange(t.n) == p)[:, None], x.gone, x.gone_pub[None, :])
    return x._replace(gone=gone)


# ---- cards ----------------------------------------------------------------------------------


def _hidden(x: MWx, p: Array) -> Array:
    """bool ``[N]``: cards in a place ``p`` sees but whose explored face it does not know."""
    unseen = (x.known >> p) & 1 == 0
    placed = (x.place == TABLE) | (x.place == HAND) | (x.place == MAPPED)
    placed = placed | (x.place == LIMBO) | (x.place == UNDER)
    return placed & unseen


def _place_ids(t: MoonwakersTables, x: MWx) -> Array:
    """int32 ``[N]``: a distinct number per place a card is in (place, owner, index): what
    a seat sees of where a card lies, never which card it is."""
    span = t.num_terrain + 1
    return (x.place * (t.n + 8) + (x.owner + 1)) * span + x.index


def _floor(t: MoonwakersTables, x: MWx) -> Array:
    """int32 ``[n, 6]``: the elements each seat's unseen hand cards must hold (its revealed
    claim's needs, and what its payment under way lacks beyond its seen cards)."""
    front = queue.front(x.queue, x.head)
    paying = (x.size > 0) & (front[0] == _PAY)
    floors = []
    for s in range(t.n):
        lack = x.pay_need - public_resources(t, x, jnp.int32(s))
        pay = paying & (front[_PAY_SEAT] == s)
        floors.append(jnp.where(pay, jnp.maximum(x.floor[s], lack), x.floor[s]))
    return jnp.stack(floors)


def _allowed(t: MoonwakersTables, x: MWx, p: Array, hidden: Array) -> tuple[Array, Array]:
    """bool ``[N, N]`` twice: which pool card may fill the place of each hidden card,
    under every constraint ``p`` knows (strict) and by face alone (loose)."""
    pool = hidden | (x.place == PILE)
    face = jnp.asarray(t.face_of)
    loose = hidden[:, None] & pool[None, :] & (face[:, None] == face[None, :])
    drawn = x.drawn[:, None]
    strict = loose & ((drawn < 0) | (x.gone[p][None, :] < drawn))
    kind = jnp.asarray(t.kind_of)
    bad = np.zeros(len(KIND_INDEX), bool)
    if t.config.setup_hand == "redraw":
        bad[[KIND_INDEX[k] for k in BAD_SETUP]] = True
    owner = jnp.clip(x.owner, 0, t.n - 1)
    banned = (x.not_kinds[owner][:, None] >> kind[None, :]) & 1 == 1
    floor = _floor(t, x)[owner]  # [N, 6]
    enough = jnp.all(jnp.asarray(t.gives)[None, :, :] >= floor[:, None, :], axis=2)
    setup_ok = ~jnp.asarray(bad)[kind][None, :] & ~banned & enough
    in_hand = (x.place == HAND)[:, None]
    return strict & (~in_hand | setup_ok), loose


def _redeal(t: MoonwakersTables, x: MWx, p: Array, key: Array) -> tuple[MWx, Array]:
    """Redeal the hidden places; return the position and ``source`` (int32 ``[N]``: the
    old card whose place each card now fills, -1 for the pile, itself when not dealt)."""
    num = t.num_terrain
    hidden = _hidden(x, p)
    strict, loose = _allowed(t, x, p, hidden)
    ids = jnp.where(hidden, _place_ids(t, x), jnp.iinfo(jnp.int32).max)
    rank = jnp.argsort(jnp.argsort(ids))  # each hidden place's rank among hidden places
    key_order, key_cards = jax.random.split(key)
    place_noise = jax.random.uniform(key_order, (num,))[rank]
    card_noise = jax.random.uniform(key_cards, (num, num))[rank]  # [place rank, card]
    # the most constrained places first, ties in random order
    urgency = jnp.sum(strict, axis=1) + place_noise
    order = jnp.argsort(jnp.where(hidden, urgency, jnp.inf))

    def fill(i: int, carry: tuple[Array, Array]) -> tuple[Array, Array]:
        used, dealt = carry
        h = order[i]
        cands = strict[h] & ~used
        cands = jnp.where(jnp.any(cands), cands, loose[h] & ~used)
        card = jnp.argmax(jnp.where(cands, card_noise[h], -1.0))
        take = hidden[h] & jnp.any(cands)
        used = used | (take & (jnp.arange(num) == card))
        dealt = dealt.at[h].set(jnp.where(take, card, dealt[h]))
        return used, dealt

    start = (jnp.zeros(num, bool), jnp.full(num, -1, jnp.int32))
    _, dealt = jax.lax.fori_loop(0, num, fill, start)
    # source[c]: the hidden place card c now fills
    targets = jnp.where(hidden, dealt, num)
    source = jnp.full(num + 1, -1, jnp.int32).at[targets].set(jnp.arange(num, dtype=jnp.int32))
    pool = hidden | (x.place == PILE)
    source = jnp.where(pool, source[:num], jnp.arange(num, dtype=jnp.int32))
    src = jnp.maximum(source, 0)
    filled = source >= 0
    x = x._replace(
        place=jnp.where(filled, x.place[src], PILE),
        owner=jnp.where(filled, x.owner[src], -1),
        index=jnp.where(filled, x.index[src], 0),
        known=jnp.where(filled, x.known[src], 0),
        drawn=jnp.where(filled, x.drawn[src], -1),
    )
    return x, source


# ---- looks and sealed choices ----------------------------------------------------------------


def _redraw_looks(t: MoonwakersTables, x: MWx, old: MWx, p: Array, source: Array,
                  key: Array) -> MWx:  # fmt: skip
    """Keep the looks with a card still face down in play (their cards renamed as dealt),
    forget what other seats know but all, and redraw which card each look of another
    seat saw."""
    full = all_seats(t)
    in_play = (old.place == TABLE) | (old.place == MAPPED) | (old.place == LIMBO)
    live = (in_play | (old.place == UNDER)) & (old.known != full)  # face down in play
    every = word_cards(t, old.look_cards)  # [L, N], old ids
    cards = every & live[None, :]
    held = old.look_order >= 0
    before = jnp.sum(every, axis=1)
    kept = jnp.sum(cards, axis=1)
    keep = held & (kept > 0)
    src = jnp.maximum(source, 0)
    renamed = jnp.where((source >= 0)[None, :], cards[:, src], False)
    # the kept looks in their order, in rows 0, 1, ... (as the engine's list)
    rows = jnp.argsort(jnp.where(keep, old.look_order, jnp.iinfo(jnp.int32).max))
    count = jnp.sum(keep, dtype=jnp.int32)
    first = jnp.arange(t.look_size) < count
    seats = jnp.where(first, old.look_seat[rows], -1)
    away = jnp.where(first, (old.look_away + before - kept)[rows], 0)
    renamed = renamed[rows] & first[:, None]
    x = x._replace(
        look_seat=seats,
        look_away=away,
        look_cards=card_words(t, renamed),
        look_order=jnp.where(first, jnp.arange(t.look_size), -1),
        num_looks=count,
    )
    mine = jnp.left_shift(1, p)
    known = jnp.where(x.known == full, full, x.known & mine)
    owner_bit = jnp.left_shift(1, jnp.clip(x.owner, 0, t.n - 1))
    known = jnp.where(x.place == HAND, known | owner_bit, known)
    draws = jax.random.uniform(key, (t.look_size,))

    def look(i: int, known: Array) -> Array:
        seat = seats[i]
        bit = jnp.left_shift(1, jnp.maximum(seat, 0))
        options = renamed[i] & ((known & bit) == 0)
        num = jnp.sum(options)
        r = jnp.floor(draws[i] * (away[i] + num)).astype(jnp.int32)
        pick = options & (jnp.cumsum(options) == r + 1)
        seen = (seat >= 0) & (seat != p) & (r < num)
        return jnp.where(seen & pick, known | bit, known)

    return x._replace(known=jax.lax.fori_loop(0, t.look_size, look, known))


def _redraw_sealed(t: MoonwakersTables, x: MWx, p: Array, key: Array) -> MWx:
    """Other seats' sealed SCAN / PROTECTION, claims and answers, redrawn."""
    n = t.n
    others = jnp.arange(n) != p
    key_option, key_claim, key_answer = jax.random.split(key, 3)
    coin = jax.random.bernoulli(key_option, 0.5, (n,)).astype(jnp.int32)
    option = jnp.where(~x.options_public & others & (x.option >= 0), coin, x.option)
    claim_need = jnp.where(others[:, None], 0, x.claim_need)
    claims, needs = [], []
    picks = jax.random.uniform(key_claim, (n,))
    for s in range(n):
        seat = jnp.int32(s)
        ok = jnp.stack([can_afford(t, x, seat, jnp.int32(k)) for k in range(t.face_up)])
        choices = jnp.concatenate([jnp.ones(1, bool), ok])  # pass, then each slot
        r = jnp.floor(picks[s] * jnp.sum(choices)).astype(jnp.int32)
        slot = jnp.argmax(choices & (jnp.cumsum(choices) == r + 1)).astype(jnp.int32) - 1
        redraw = ~x.claims_public & (seat != p) & (x.claims[s] >= -1)
        slot = jnp.where(redraw, slot, x.claims[s])
        _, combo = face_up_combo(t, x, slot)
        cost = jnp.asarray(t.cost)[combo]
        need = jnp.maximum(0, cost - public_resources(t, x, seat))
        claims.append(slot)
        needs.append(jnp.where(redraw & (slot >= 0), need, claim_need[s]))
    shelter = jax.random.bernoulli(key_answer, 0.5, (n,))
    holds = jnp.stack([holding(t, x, jnp.int32(s), "shelter") >= 0 for s in range(n)])
    answer = jnp.where(holds & shelter, SHELTER_RESPONSE, ROLL_RESPONSE)
    redraw_answer = ~x.responses_public & others & (x.responses >= 0)
    return x._replace(
        option=option,
        claims=jnp.stack(claims),
        claim_need=jnp.stack(needs),
        responses=jnp.where(redraw_answer, answer, x.responses),
    )
