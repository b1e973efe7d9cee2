"""The picture has a legend of its marks: stars, planet values, the red planet, moons,
moon counts and die indices."""

from __future__ import annotations

import numpy as np

from moon_envs.core.svg_record import picture_and_svg
from moon_envs.moonstar.render import render_rgb
from tests.moonstar.test_side_bets_text import at_side_bets


def test_the_picture_has_a_legend_of_its_marks():
    _, s = at_side_bets()
    img, svg = picture_and_svg(render_rgb, s)
    for words in ("STAR", "PLANET VALUE", "RED PLANET", "MOON", "MOVED", "MOONS", "DIE INDEX"):
        assert f">{words}<" in svg, words
    legend_band = img[-2 * 18 - 10 :]
    assert len(np.unique(legend_band.reshape(-1, 3), axis=0)) > 4  # drawn, in colour
