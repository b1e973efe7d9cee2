"""Self-contained HTML replay: an SVG board per step, a step slider and the move list.

The page needs no network. Every step's board is drawn in SVG: the game's picture
recorded as vector shapes and text by :mod:`moon_envs.core.svg_record` (a PNG data URI
only for a picture given without its SVG), beneath SVG text (the step's move, wrapped so
that none is clipped, the scores and who is to move), with the spectator's text view of
the position under it and the move list beside it, the current move kept in view. Keys:
left/right arrows step, Home/End jump. Opening the page with ``#step=N`` shows step
``N`` (``#step=N&next`` or ``&prev`` then presses that button, as a test in a headless
browser does).
"""

from __future__ import annotations

import base64
import html
import json
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moon_agents.play.replay.png import encode_png

LINE = 17  # SVG text line height (px)
FONT_PX = 8.2  # a generous average width of a 14 px sans-serif character

_STYLE = """
body { font-family: sans-serif; background: #0c0e20; color: #ebebf5; margin: 1em; }
#main { display: grid; grid-template-columns: max-content minmax(16em, 1fr); gap: 1.5em;
        align-items: start; }
#boards { min-width: 0; }
.step[hidden] { display: none; }
pre { background: #14172e; padding: .6em; font-size: 12px; overflow-x: auto; }
ol { max-height: 80vh; overflow: auto; font-size: 13px; padding-left: 3em; margin: 0;
     position: relative; }
li { cursor: pointer; overflow-wrap: anywhere; }
li.current { background: #3c4680; }
#controls { margin: .6em 0; }
input[type=range] { width: 24em; vertical-align: middle; }
@media (max-width: 800px) { #main { grid-template-columns: 1fr; } }
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
    var list = document.getElementById('moves');
    var item = items[i];
    if (item) {  // keep the current move in view inside the list (not the page)
      if (item.offsetTop < list.scrollTop) {
        list.scrollTop = item.offsetTop;
      } else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
      }
      var shown = item.offsetTop >= list.scrollTop - 1 &&
        item.offsetTop + item.offsetHeight <= list.scrollTop + list.clientHeight + 1;
      document.body.setAttribute('data-current-visible', shown ? 'yes' : 'no');
    }
    var board = steps[i].getBoundingClientRect();
    var side = list.getBoundingClientRect();
    document.body.setAttribute('data-list-beside', side.left >= board.right &&
      side.top < board.bottom ? 'yes' : 'no');
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
  if (/prev/.test(location.hash)) { document.getElementById('prev').click(); }
})();
"""


def svg_lines(text: str, width: int) -> list[str]:
    """``text`` wrapped to fit ``width`` pixels of 14 px SVG text (at most 3 lines, the
    last one cut with an ellipsis when the text goes on)."""
    per_line = max(20, int((width - 12) / FONT_PX))
    lines = textwrap.wrap(text, per_line) or [""]
    if len(lines) > 3:
        lines = [*lines[:2], textwrap.shorten(" ".join(lines[2:]), per_line, placeholder=" ...")]
    return lines


def step_svg(step: Any, index: int, player_names: Sequence[str]) -> str:
    """The SVG board of one step: the caption (wrapped, never clipped), scores and turn in
    SVG text over the picture."""
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
    caption = svg_lines(f"{index}. {step.caption}", width)
    status = svg_lines(f"{scores}; {turn}", width + 100)  # 12 px text: more per line
    header = LINE * (len(caption) + len(status)) + 10
    total = height + header
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total}" '
        f'viewBox="0 0 {width} {total}" role="img" aria-label="step {index}">',
        f'<rect width="{width}" height="{total}" fill="#0c0e20"/>',
    ]
    y = 0
    for line in caption:
        y += LINE
        parts.append(f'<text x="6" y="{y}" fill="#ebebf5" font-size="14">{esc(line)}</text>')
    for line in status:
        y += LINE
        parts.append(f'<text x="6" y="{y}" fill="#b4b8dc" font-size="12">{esc(line)}</text>')
    if step.board_svg is not None:  # the board as vector shapes and text, below the header
        parts.append(step.board_svg.replace("<svg ", f'<svg x="0" y="{header}" class="board" ', 1))
    elif step.frame is not None:
        data = base64.b64encode(encode_png(step.frame)).decode("ascii")
        parts.append(
            f'<image x="0" y="{header}" width="{step.frame.shape[1]}" '
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
<body data-step="0" data-rendered="no" data-current-visible="no" data-list-beside="no">
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
