"""Moonstar — ``moonstar_v1``
==========================

Alex Randolph's bidding game (Avalon Hill 1981) for any number of players: the organizer
sets planets and moons on a ring of twelve stars, seven dice are rolled, everyone bids on
how many points they can make by moving one moon per die, and the high bidder must make
the bid. The twelve Games of the rule book are parameters of one validated config.
The rules as implemented, with the reason for every house reading: ``docs/rules.md``
(section Moonstar).

============================  ==========================================================
Import                        ``moon_envs.make("moonstar_v1", num_players=4)``
Presets (Games 1–12)          ``moon_envs.make("moonstar_v1", game=8)`` (Game 8)
PettingZoo registry           ``pettingzoo.make("aec", "moon_envs/moonstar_v1", game=8)``
Gymnasium (single agent)      ``gymnasium.make("moon_envs/Moonstar-v1")``
Agents                        ``player_0 .. player_{n-1}`` (n = 2..8)
Actions                       ``Discrete(83 + menu + 2F + M·D·K)``: 181 for Game 1
Observation                   ``Dict(observation=Box(-1, 1, (L,), float32),
                              action_mask=Box(0, 1, (A,), int8))``: L = 244 for Game 1
                              with 4 players
Chance                        first organizer, random setup, the roll (one chance node
                              over sorted multisets of faces, multinomial probabilities),
                              the speakers with ``auction_order="random"``
Hidden information            only Game 11's sealed side bets, until all have bet
============================  ==========================================================

A round
-------
1. *Organizer.* The first is drawn by the four-dice roll (ties re-rolled among the tied):
   by symmetry each seat is equally likely, so the chance node draws the seat uniformly.
   Then the organizer moves one seat to the left after every played round.
2. *Game 12 only:* the organizer picks the round's rules from ``dealer_menu``.
3. *Setup.* The organizer places the planets (highest value first) on stars without a
   planet, then the moons on stars holding fewer than three moons (``setup="organizer"``),
   or chance places them uniformly (``setup="random"``).
4. *Roll.* One chance node rolls all the dice: its outcomes are the sorted multisets of
   faces (792 for seven dice), likeliest first, with their multinomial probabilities
   (``MoonstarGame.roll_outcome(faces)`` gives the id). Die ``d`` is the ``d``-th smallest.
5. *Auction.* Starting left of the organizer and going round (``auction_order=
   "rotation"``), each eligible player bids more than the high bid (2..70) or passes;
   passing is not final. With ``auction_order="random"`` a chance node draws each speaker
   uniformly among the eligible players who have not passed since the last bid (the high
   bidder aside). It ends when all other eligible players have passed since the last bid
   (all of them if nobody bid), or at once on 70 (under Game 10 the others may still
   challenge a 70). The player who failed last round is excluded (skipped). Nobody
   bids: the organizer scores +20 and sets up a new round (same organizer); see
   ``no_bid_reading`` and the exclusion parameters below for how that void round counts.
6. *Game 6:* the high bidder puts the red planet on a star holding a planet.
7. *Game 11:* every player, bidder first, places a sealed side bet (an excluded player
   does not, unless ``excluded_side_bets``).
8. *Play.* The high bidder moves the moons: each action moves one unmoved moon with one
   free die in one direction; the round's moves are ``min(moons, dice)`` (or the
   ``move_budget``). Moons left without a die (Game 3, timer) are removed, dice left over
   (Game 4) are discarded.
9. *Score and settle* (below); the game ends when someone reaches ``target`` at the end of
   a round, or after ``max_rounds`` rounds: the highest score wins; a tie at the top is
   shared (``ties="shared"``) or nobody's win (``ties="none"``).

Actions
-------
* ``0..11`` a star: the next planet, the next moon, or the red planet (Game 6);
* ``12..80`` bid ``action - 10`` (2..70); ``81`` pass; ``82`` challenge (Game 10);
* ``83 .. 83+menu-1`` Game 12: menu entry ``action - 83``;
* then ``2F`` side bets (Game 11 only; ``F = len(bet_fractions)``): ``made k`` then
  ``failed k``, stake ``floor(bet_fractions[k] · max(score, 0))``; ``made 0`` is "no bet";
  the bidder may only back "made" (``bidder_bets``);
* then ``M·D·K`` moves: ``move_base + (moon·D + die)·K + direction``, with ``M``/``D`` the
  most moons/dice of any round and ``K = 2`` (0 clockwise, 1 counter-clockwise) or ``4``
  with Game 9 (2 clockwise twice the die, 3 counter-clockwise half the die, rounded down).
  Equal dice are interchangeable: only the first free die of each face is unmasked.

``MoonstarGame.bid_action``, ``bet_action``, ``move_action`` and ``decode_move`` compute
the ids; ``state.action_to_string(a)`` names them. The mask is exact and never empty for
the player to move; it is all zeros for the others.

Scoring and settlement
----------------------
* Planets (Games 1–6, 9): a moon on a star with a planet of value ``v`` scores ``v``,
  elsewhere 1; on the red planet's star (Game 6) twice that.
* Squares (Game 7): each star scores (moons landed there)²; target 100.
* Chains (Game 8): scored while moving: a moon landing on the star of the moon moved just
  before it scores 1 + the length of that chain, elsewhere it starts a new chain worth 1.
  Points already scored are kept when a chain breaks, and every moon moved before the
  break leaves the board (observation, text and pictures); only moved moons count in a
  chain (``chain_members="moved"``; ``"all"``: the unmoved moons standing on the landing
  star count too). Target 50.
* Made (total ≥ bid): the bidder gains the bid. Failed: the bidder gains nothing and is
  excluded from the next auction; every other player gains 10.
* Game 10: a challenged bid that is made gives the bidder bid + 25 and each challenger
  −25; a challenged bid that fails costs the bidder 25 and gives each challenger 25 (the
  other players ``challenge_fail_bonus``, 10). Scores may go negative.
* Game 11: a side bet on the right outcome gains its stake, on the wrong one loses it.

Observation
-----------
In this order: per star (12 × 5): planet value / 50, red planet, unmoved moons / 15,
landed moons / 15, current chain star; per moon (M × 14): one-hot star, moved, on the
board; per die (D × 2): face / 6, free; free dice per face / D (6); high bid / 70,
passes / n; phase one-hot (10); the round's rule switches (scoring one-hot, double/half
movement, favourite star, challenges, side bets, moons / 15, dice / 11, move budget / 15);
menu entry one-hot (Game 12); round total ``tanh(x / 50)``, moves made / 15, chain length
/ 15, next planet value / 50, moons left to place / 15, ``tanh(target / 200)``, rounds
played / ``max_rounds``. Then, from the observing seat's point of view (seats rotated so
that "me" comes first): one-hot seat of the high bidder, challengers, seats barred from
the auction (excluded, or the organizer sitting out),
organizer, player to move; side bets as made / failed / stake index (own always, others
only once all have bet); ``tanh(score / 100)`` per seat and
``tanh((mine − best other) / 50)``; with ``auction_order="random"`` only, the seats that
passed since the last bid (n, "me" first).
``L = 60 + 14M + 2D + 6 + 2 + 9n + 1 + 10 + 10 + menu + 7`` (``+ n`` with
``auction_order="random"``).

Rewards and info
----------------
``reward_mode="win"`` (default): 0 until the end; the winners share +1 and the others
share −1. ``reward_mode="score"``: each step's change of score for every seat.
At the end of each round ``info["round_report"]`` holds ``round``, ``organizer``,
``no_bid``, ``bidder``, ``bid``, ``achieved``, ``made``, ``rules`` (menu entry),
``best_total`` (the exact optimum from :mod:`moon_envs.moonstar.solver`; Game 6 with the
best red star), ``regret`` (best − achieved), ``challengers``, ``side_bets`` (settled
side-bet amounts) and ``score_changes``.

Parameters
----------
=================  ==================  ===================================================
``num_players``    4                   2..8
``game``           None                1..12: start from that Game's preset (below);
                                       every rule left unset takes the preset's value
``num_moons``      7                   7..15 (Games 2–4)
``num_dice``       7                   7..11 (Games 2–4)
``count_rule``     ``"auto"``          ``"equal"`` (Games 1–2: 7..11 each), ``"more_moons"``
                                       (Game 3: 8..15 moons, 7..10 dice), ``"more_dice"``
                                       (Game 4: 8..11 dice, 7..10 moons); ``"auto"`` infers
                                       it from the counts
``planets``        ``None``            list of 1..6 values 1..50 (Game 5); ``None``:
                                       [5, 5, 10, 10], or none for squares/chains
``scoring``        ``"planets"``       ``"squares"`` (Game 7), ``"chains"`` (Game 8)
``favourite_star`` False               Game 6
``movement``       ``"exact"``         ``"double_half"`` (Game 9: counter-clockwise d or
                                       ⌊d/2⌋) or ``"double_double"`` (d or 2d both ways)
``challenges``     False               Game 10
``side_bets``      False               Game 11
``bet_fractions``  [0, .25, .5, 1]     side-bet stakes (first must be 0)
``move_budget``    None                the sand timer: at most this many moves
``dealer_menu``    []                  Game 12: entries are game numbers 1..11 or mappings
                                       of round rules applied over the parameters above
``target``         None                200 (planets), 100 (squares), 50 (chains)
``setup``          ``"organizer"``     or ``"random"``
``first_organizer`` ``"roll"``         or a seat number
``max_rounds``     100                 the game also ends after this many rounds
``solver_info``    True                solve each round for the ``info`` report
``round_optimum``  False               observation: the round's best total (solver) and a
                                       flag, from the roll until play begins
``ties``           ``"shared"``        or ``"none"`` (a tie at the top: all returns 0)
``no_bid_reading`` ``"round_not_``     or ``"organizer_sits_out"``: the organizer may not
                   ``played"``         bid in the round set up after nobody bid
``exclusion_after  ``"kept"``          or ``"spent"``: whether a round nobody bids on
_no_bid``                              counts as the excluded player's round out
``excluded_        True                whether an excluded organizer takes the +20 of a
organizer_bonus``                      round nobody bids on
``excluded_side_   False               whether an excluded player places side bets
bets``
``challenge_fail_  10                  Game 10: points for each bystander when a
bonus``                                challenged bid fails
``bidder_bets``    ``"made_only"``     or ``"any"`` (Game 11)
``chain_members``  ``"moved"``         or ``"all"`` (Game 8): whether the unmoved moons
                                       standing on the landing star count in its chain
``auction_order``  ``"rotation"``      or ``"random"``: who speaks next in the auction
=================  ==================  ===================================================

plus the env's ``render_mode`` (``"human"``, ``"ansi"``, ``"rgb_array"``: the ring of
stars), ``reward_mode`` and ``illegal_action``. Bad values raise ``ConfigError`` naming the
field; forbidden combinations say why (planets with Games 7–8, the red planet without
planets, a timer with Game 8, counts that do not follow the named Game).

Presets: ``game=N`` applies ``moon_envs.moonstar.preset(N)`` to every rule you leave
unset (your keywords override it): G2 9 moons/9 dice, G3 10 moons/8 dice, G4
8 moons/10 dice, G5 planets [3, 5, 8, 10, 15, 20], G6 favourite star, G7 squares, G8
chains, G9 double/half, G10 challenges, G11 side bets, G12 dealer's menu = Games 1–11.
Variants combine freely (e.g. ``scoring="squares", movement="double_half",
challenges=True``) except as listed above.

House rules
-----------
Each is argued in ``docs/rules.md``; those with a choice are parameters (above).

* The free-for-all bidding is a turn-based ascending auction, round the table
  (``auction_order``).
* The first organizer is uniform (the exact outcome of the four-dice roll-off).
* "Il ne joue pas ce tour" after a round nobody bids on: the unbid round is void
  (``no_bid_reading``); it does not count as the excluded player's round out
  (``exclusion_after_no_bid="kept"``), unless nobody at all could bid; an excluded
  organizer still takes the +20 (``excluded_organizer_bonus``); an excluded player places
  no side bet (``excluded_side_bets``).
* Game 8: scored points stay when a chain breaks; only moved moons count in a chain
  (``chain_members``).
* Game 9: counter-clockwise moves ``d`` or ``⌊d/2⌋`` stars (``movement``).
* Game 10: a challenge takes the challenger's turn and counts as a pass for ending the
  auction (part of the auction's turn structure, ``auction_order``); a new bid cancels
  all challenges; the high bidder may not challenge.
* Game 10: bystanders gain ``challenge_fail_bonus`` (10) when a challenged bid fails.
* Game 11: the bidder may only back "made" (``bidder_bets``); stakes are discretised
  (``bet_fractions``).
* Game 12: the organizer chooses before setup; the target is the config's (``target``).
* The timer is a move budget; ``max_rounds`` bounds the game (highest score wins).
* Ties share the win (``ties``).

Version history
---------------
* v1 (moon-envs 0.2.0): Game 10's 70 can be challenged; a broken Game 8 chain's moons
  leave the board; an exclusion survives a round nobody bids on and bars side bets; the
  house readings above became parameters (and Game 9's literal reading,
  ``movement="double_double"``); snapshots are validated field by field. Later, with
  every default unchanged: ``chain_members`` and ``auction_order``; positions record who
  passed since the last bid and env snapshots the env's ``reward_mode`` and
  ``illegal_action``, so snapshots taken before are refused (take new ones).
* v0 (moon-envs 0.1.0): first release.
"""

from __future__ import annotations

from typing import Any, ClassVar

from moon_envs.core.aec import RENDER_MODES, MoonAECEnv
from moon_envs.moonstar.render import render_rgb
from moon_envs.moonstar.rules import MoonstarGame


class raw_env(MoonAECEnv):
    """Moonstar as a PettingZoo AEC environment; see the module docstring."""

    game_class = MoonstarGame
    rgb_renderer = staticmethod(render_rgb)
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "moonstar_v1",
        "is_parallelizable": False,
        "render_fps": 2,
    }


def env(**kwargs: Any) -> raw_env:
    """Build the Moonstar AEC environment (keywords as in the module docstring; ``game=N``
    starts from Game N's preset)."""
    return raw_env(**kwargs)
