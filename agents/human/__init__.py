"""Playing, watching and reading games as a person.

* :mod:`agents.human.parsing`: moves typed by number, name or a few words of the name;
  the nearest legal moves when nothing matches.
* :mod:`agents.human.hooks`: per-game hooks (narration, legend, pictures, move names,
  typed aliases) looked up by ``GameSpec.name``, with a generic fallback for every game.
* :mod:`agents.human.player`: :class:`HumanAgent`, a person at the terminal.
* :mod:`agents.human.moonstar`, :mod:`agents.human.moon_harvesters`: those games' hooks.
* :mod:`agents.human.jupiter`: Jupiter's hooks (scores of each move, who starts, rolls);
  :mod:`agents.human.moonstar_typing`: Moonstar's typed moves and bids.
"""

from agents.human.hooks import GameHooks, hooks_for, narrate, narrate_chance, register_hooks
from agents.human.parsing import MoveError, parse_move
from agents.human.player import HumanAgent, InputEnded

__all__ = [
    "GameHooks",
    "HumanAgent",
    "InputEnded",
    "MoveError",
    "hooks_for",
    "narrate",
    "narrate_chance",
    "parse_move",
    "register_hooks",
]
