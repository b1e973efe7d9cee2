"""Playing, watching and reading games as a person.

* :mod:`moon_agents.play.human.parsing`: moves typed by number, name or a few words of the name;
  the nearest legal moves when nothing matches.
* :mod:`moon_agents.play.human.hooks`: per-game hooks (narration, legend, pictures, move names,
  typed aliases) looked up by ``GameSpec.name``, with a generic fallback for every game.
* :mod:`moon_agents.play.human.player`: :class:`HumanAgent`, a person at the terminal.
* :mod:`moon_agents.play.human.moonstar`, :mod:`moon_agents.play.human.moon_harvesters`: those
  games' hooks.
* :mod:`moon_agents.play.human.jupiter`: Jupiter's hooks (scores of each move, who starts, rolls);
  :mod:`moon_agents.play.human.moonstar_typing`: Moonstar's typed moves and bids;
  :mod:`moon_agents.play.human.moonwakers_typing`: Moonwakers cards typed as the game prints them;
  :mod:`moon_agents.play.human.cells`: refusals of moves on taken cells, naming what is there.
* :mod:`moon_agents.play.human.screen`: a screen redrawn in place on a terminal, a plain log
  elsewhere, lines wrapped at the width.
"""

from moon_agents.play.human.hooks import (
    GameHooks,
    hooks_for,
    narrate,
    narrate_chance,
    register_hooks,
)
from moon_agents.play.human.parsing import MoveError, parse_move
from moon_agents.play.human.player import HumanAgent, InputEnded

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
