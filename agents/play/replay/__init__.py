"""Replays of whole games: an animated GIF (:mod:`moon_agents.play.replay.gif`, Pillow) and a
self-contained HTML page with an SVG board per step, a slider and the move list
(:mod:`moon_agents.play.replay.html`). :class:`Recorder` collects the steps while a game is played
(``moon-envs play ... --gif game.gif --html replay.html``)."""

from moon_agents.play.replay.recorder import Recorder, Step, snapshot

__all__ = ["Recorder", "Step", "snapshot"]
