"""Self-contained HTML replay: an SVG board per step, a step slider and the move list.

The page needs no network: every step's picture is inlined in its SVG as a PNG data URI
beneath SVG text (the step's move, scores and who is to move), and the spectator's text
view of the position sits beside it. Keys: left/right arrows step, Home/End jump. Opening
the page with ``#step=N`` shows step ``N``.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.replay.png import encode_png

HEADER = 46

_STYLE = """
body { font-family: sans-serif; background: #0c0e20; color: #ebebf5; margin: 1em; }
#main { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
.step[hidden] { display: none; }
pre { background: #14172e; padding: .6em; font-size: 12px; }
ol { max-height: 70vh; overflow: auto; font-size: 13px; padding-left: 3em; }
li { cursor: pointer; }
li.current { background: #3c4680; }
#controls { margin: .6em 0; }
input[type=range] { width: 24em; vertical-align: middle; }
"""

_SCRIPT = """
(function () {
  var steps = document.querySelectorAll('.step');
  var items = document.querySelectorAll('#moves li');
  var slider = document.getElementById('slider');
  var counter = document.getElementById('counter');
  function show(i) {
    i = Math.max(0, Math.min(steps.length - 1, i | 0));
    for (var k = 0; k < steps.length; k++) { steps[k].hidden = (k !== i); }
    for (var k = 0; k < items.length; k++) {
      items[k].className = (k === i) ? 'current' : '';
    }
    slider.value = i;
    counter.textContent = 'step ' + i + ' / ' + (steps.length - 1);
    var svg = steps[i].querySelector('svg');
    var box = svg.getBBox();
    document.body.setAttribute('data-step', i);
    document.body.setAttribute('data-rendered', box.width > 0 && box.height > 0 ? 'yes' : 'no');
  }
  window.replayShow = show;
  slider.addEventListener('input', function () { show(+slider.value); });
  document.getElementById('prev').onclick = function () { show(+slider.value - 1); };
  document.getElementById('next').onclick = function () { show(+slider.value + 1); };
  for (var k = 0; k < items.length; k++) {
    items[k].onclick = (function (i) { return function () { show(i); }; })(k);
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') show(+slider.value - 1);
    if (e.key === 'ArrowRight') show(+slider.value + 1);
    if (e.key === 'Home') show(0);
    if (e.key === 'End') show(steps.length - 1);
  });
  var m = /step=(\\d+)/.exec(location.hash);
  show(m ? +m[1] : 0);
  if (/next/.test(location.hash)) { document.getElementById('next').click(); }
})();
"""


def step_svg(step: Any, index: int, player_names: Sequence[str]) -> str:
    """The SVG board of one step: a caption, scores and turn in SVG text over the picture."""
    esc = html.escape
    width, height = (
        (step.frame.shape[1], step.frame.shape[0]) if step.frame is not None else (480, 0)
    )
    width = max(width, 480)
    if step.to_move >= 0 and step.to_move < len(player_names):
        turn = f"to move: {player_names[step.to_move]}"
    elif step.to_move == -2:
        turn = "game over"
    else:
        turn = "chance"
    scores = ", ".join(f"{name.split()[0]} {s:g}" for name, s in zip(player_names, step.scores))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + HEADER}" '
        f'viewBox="0 0 {width} {height + HEADER}" role="img" aria-label="step {index}">',
        f'<rect width="{width}" height="{height + HEADER}" fill="#0c0e20"/>',
        f'<text x="6" y="17" fill="#ebebf5" font-size="14">{index}. {esc(step.caption)}</text>',
        f'<text x="6" y="37" fill="#b4b8dc" font-size="12">{esc(scores)}; {esc(turn)}</text>',
    ]
    if step.frame is not None:
        data = base64.b64encode(encode_png(step.frame)).decode("ascii")
        parts.append(
            f'<image x="0" y="{HEADER}" width="{step.frame.shape[1]}" '
            f'height="{step.frame.shape[0]}" href="data:image/png;base64,{data}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def replay_html(steps: Sequence[Any], title: str, player_names: Sequence[str]) -> str:
    """The whole replay page as a string."""
    esc = html.escape
    boards = "\n".join(
        f'<div class="step" id="step-{i}"{" hidden" if i else ""}>'
        f"{step_svg(s, i, player_names)}<pre>{esc(s.text)}</pre></div>"
        for i, s in enumerate(steps)
    )
    moves = "\n".join(f"<li>{esc(s.caption)}</li>" for s in steps)
    meta = json.dumps({"title": title, "steps": len(steps), "players": list(player_names)})
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)} replay</title>
<style>{_STYLE}</style></head>
<body data-step="0" data-rendered="no">
<h1>{esc(title)}</h1>
<p>{esc(" vs ".join(player_names))}</p>
<script type="application/json" id="replay-meta">{esc(meta)}</script>
<div id="controls"><button id="prev">&#9664; prev</button>
<input id="slider" type="range" min="0" max="{len(steps) - 1}" value="0" step="1">
<button id="next">next &#9654;</button> <span id="counter"></span></div>
<div id="main"><div id="boards">{boards}</div>
<ol id="moves" start="0">{moves}</ol></div>
<script>{_SCRIPT}</script>
</body></html>
"""


def write_html(steps: Sequence[Any], path: str, title: str, player_names: Sequence[str]) -> None:
    """Write the replay page for ``steps`` at ``path``."""
    if not steps:
        raise ValueError("nothing to replay: no steps were recorded")
    Path(path).write_text(replay_html(steps, title, player_names), encoding="utf-8")
