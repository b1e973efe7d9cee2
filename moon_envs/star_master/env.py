"""Star Master — ``star_master_v0``
=================================

François Allaire's memory game for 1–6 players: nine cubes of nine colours lie hidden on
nine slots (``num_colours``: 6 to 9 of each); dice name a colour and the players flip
cubes to find it. The first player holding 6 different colours wins. Memory is the game,
so what an observation remembers is an explicit parameter (``memory``). The rules as
implemented, with the reason for every house rule: ``docs/rules.md`` (section "Star
Master").

============================  ==========================================================
Import                        ``moon_envs.make("star_master_v0", num_players=2)``
PettingZoo registry           ``pettingzoo.make("aec", "moon_envs/star_master_v0")``
Gymnasium (single agent)      ``gymnasium.make("moon_envs/StarMaster-v0")``
Agents                        ``player_0 .. player_{n-1}``
Actions                       ``Discrete(3k + 1)``: ``Discrete(28)`` with the default
                              ``k = num_colours = 9``
Observation                   ``Dict(observation=Box(0, 1, (3k*k + 6k + 7 + (k + 1)n,),
                              float32), action_mask=Box(0, 1, (3k + 1,), int8))``; with
                              9 colours ``304 + 10n`` and ``28``
Chance                        set-up layout (one slot at a time), the forgetting seed
                              (``memory="decay"``), the dice, the race winner
Hidden information            the layout (except what a seat's observation shows), sealed
                              race choices
============================  ==========================================================

Turn
----
There are ``k = num_colours`` colours (default 9), as many cubes and slots; the action ids
below are those of 9 colours, with ``k`` colours they are flip ``0..k-1``, swap
``k..2k-1``, name ``2k..3k-1`` and pass ``3k``. A chance node rolls the white die
(``white_faces``, default the ``k`` colours + 1 star, uniform) and the black die
(``black_faces``, default 2 stars of 6; never rolled with ``children``).

* White colour ``c``, black blank: the roller flips a slot (actions ``0..8``) or passes
  (``27``; only if they own ``c`` and neither ``competition`` nor ``solitaire`` is on).
  Found: they gain ``c`` and must swap that cube with another slot (``9..17``; no swap with
  ``children``). Missed: the cube goes back; under the competition rule an owned ``c`` is lost.
* White star: the roller names a colour they lack (``18..26``), then flips as above.
* White colour, black star: the race. Every seat, from the roller on, chooses one slot to
  grab (``0..8``) or abstains (``27``); the choices are sealed. Among the grabbers a
  chance node draws the winner (``race_winner="random"``), who flips the grabbed slot:
  ``c`` gains ``c`` (unless owned) and swaps; another colour loses that colour's pawn if
  owned. If nobody grabs, the dice pass on.

Holding 6 colours ends the game at once. The mask is exact; it is all zeros for an agent
not to move. ``state.action_to_string(a)`` names actions in the current phase.

Observation (seat ``p``, length ``304 + 10n``)
----------------------------------------------
The blocks as with the default 9 colours; with ``k`` colours read ``k`` for every 9
(slots, colours, pawns) and ``k + 1`` for every 10 (length ``3k*k + 6k + 7 + (k + 1)n``).

1. *Window map* (9 slots × 10: unknown, 9 colours): the colour each slot is known to hold
   from the public events since ``p``'s last decision (every flip, by anyone, tracked through
   later swaps). The first observation after set-up shows the full layout here.
2. *Window permutation* (9 × 9): entry ``[s, t]`` is 1 when the cube now on slot ``s`` stood
   on slot ``t`` at ``p``'s last decision (every public swap since, composed). An agent
   that keeps its own memory updates it with 2. and then overwrites it with 1.
3. *Memory* (9 × 10): ``memory="none"``: always "unknown". ``"perfect"``: the last seen
   colour of every slot (so the true layout, as every flip and swap is public).
   ``"decay"``: like perfect, but at the start of every turn each remembered slot is
   forgotten (back to unknown) with probability ``forget_prob``, drawn reproducibly from
   the env's seed (a set-up chance node draws a hash seed; see
   :mod:`moon_envs.star_master.memory`); a slot seen again is remembered again. The
   draws are independent per seat, per slot and per turn: ``forget_prob`` is the chance
   that one remembered slot is forgotten at one turn's start, for each such slot.
4. Pawns: 9 per seat, ``p`` first then clockwise.
5. White die one-hot (9 colours + star; zeros between turns), black star flag.
6. Phase one-hot (name, flip, swap, race), sought colour one-hot (9), found slot one-hot (9,
   the slot to swap), *match* (9: 1 where 1. or 3. shows the colour being sought, i.e. the
   named colour or the white die's colour; a summary of blocks 1, 3 and 5, nothing more),
   roller one-hot relative to ``p`` (n), ``turn / turn cap``.

No block ever shows another seat's sealed race choice.

Info (``env.infos[agent]``, ``state.info_for(p)``)
--------------------------------------------------
Public facts, per seat: ``turn``, ``roller``, ``white``, ``black_star``, ``last_flip``
(seat, slot, colour, found) and ``last_race`` (every seat's choice, once all have
chosen). ``last_flip`` and ``last_race`` follow the seat's window: they are shown from
the moment the event happens until the seat's next decision, then ``None`` (in every
``memory`` mode), so an info never tells a seat more than its observation's window does.
``state.info()`` is the spectator's: both events until the next ones.
``env.state()`` is the full state: true layout, every memory and window, sealed choices.

Pictures and text
-----------------
``render_mode="rgb_array"`` draws the spectator's picture: the board with the true
colours (slots numbered), the dice, the sought colour, the phase, how many have chosen in
a race (never what), a row per player (its colour, the number and discs of the colours
it holds, and right after a race what each seat grabbed), whose turn it is and the last
move. ``moon_envs.star_master.render.render_rgb(state, p)`` draws seat ``p``'s own
picture (``?`` on the slots it is not shown), as ``state.to_string(p)`` writes its text
view; ``"ansi"`` / ``"human"`` print the spectator's text.

Rewards
-------
``reward_mode="win"`` (default): 0 until the end; the winner gets +1, the others share −1
(at the turn cap, see ``turn_limit``). With one player (solitaire or not) only holding 6
colours wins: +1, else −1 at the turn cap.
``reward_mode="score"``: each step's change in the number of colours held.

Parameters
----------
``num_players`` (1–6, default 2), ``memory`` (``"none"``, ``"perfect"``, ``"decay"``;
default ``"none"``), ``forget_prob`` (0..1, default 0.1; decay only), ``competition``
(False), ``children`` (False), ``solitaire`` (False; needs ``num_players=1``; competition
rule, ``solitaire_turns`` turns), ``solitaire_turns`` (12), and the house rules below
(``num_colours``, ``white_faces``, ``black_faces``, ``race_winner``, ``max_turns``,
``turn_limit``), plus the env's ``render_mode`` (``"human"``, ``"ansi"``,
``"rgb_array"``), ``reward_mode`` and ``illegal_action`` (``"raise"`` or ``"penalize"``).

House rules
-----------
Each is a parameter; ``docs/rules.md`` gives the reason for every default.

* ``num_colours=9``: the published contents (9 cubes, 54 pawns, 1–6 players, goal 6
  different colours) read as 9 cubes of 9 different colours with 6 pawns each, one per
  player; no other reading fits the book's count and its rules (see ``docs/rules.md``).
  ``num_colours`` 6..9 plays with that many colours, cubes and slots (one cube per
  colour, a pawn of each colour per player), e.g. a smaller memory task; the goal stays
  6 colours (with 6: every colour). The actions and the observation follow the count.
* ``white_faces=None``: the white die, one face per colour and one star, uniform
  (``(0, 1, ..., 8, 9)`` with 9 colours); faces are colours ``0..num_colours-1`` and
  9 = star.
* ``black_faces=(1, 1, 0, 0, 0, 0)``: the black die, 1 = star.
* ``race_winner="random"``: the fastest hand is a uniform draw among the grabbers;
  ``"seat_order"``: the first grabber from the roller on.
* ``max_turns=300`` and ``turn_limit="most_colours"``: every game ends after 300 turns;
  then the players holding the most colours share the win, if they hold at least one
  (nobody wins a cap where nobody holds a colour); ``"nobody"``: no winner.
  Alone at the table there is nobody to out-collect: a lone player without 6 colours at
  the cap loses under either rule.

Resampling
----------
``state.resample(p, rng)`` (``AgentView.sample_state``) shuffles the colours of the slots
that ``p``'s observation neither remembers nor shows among themselves (other seats'
memories and windows, and the last flip's record when ``p`` is no longer shown it, follow
the new layout), redraws other seats' sealed race choices (uniformly: abstain or a slot)
and the forgetting seed. Everything ``p`` is shown (observation, info, text view, mask)
is the same in every redraw. With ``memory="perfect"`` every slot is known: outside a
race the result equals a clone (``to_dict`` equal); during a race it differs from a
clone exactly in the other seats' still-sealed choices, which are redrawn.

Version history
---------------
* v0 (moon-envs 0.1.0): first release. Later within v0 (the same games under the
  default parameters): infos per seat, following its window; a lone player without
  6 colours at the turn cap loses (it used to win with ``turn_limit="most_colours"``);
  labelled pictures; snapshots gained ``in_window`` and the last decision
  (``last_seat``, ``last_action``, ``last_phase``), so older snapshots are refused.
  Later within v0 (defaults unchanged): ``num_colours``.
"""

from __future__ import annotations

from moon_envs.core.aec import RENDER_MODES, MoonAECEnv
from moon_envs.star_master.render import render_rgb
from moon_envs.star_master.rules import StarMasterGame


class raw_env(MoonAECEnv):
    """Star Master as a PettingZoo AEC environment; see the module docstring."""

    game_class = StarMasterGame
    rgb_renderer = staticmethod(render_rgb)
    metadata = {
        "render_modes": RENDER_MODES,
        "name": "star_master_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }


def env(**kwargs) -> raw_env:
    """Build the Star Master AEC environment (keyword parameters as in the module docstring)."""
    return raw_env(**kwargs)
