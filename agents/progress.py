"""Progress bars of the long commands (``train``, ``eval``, ``ladder``, ``bench``).

Each bar is a `tqdm <https://tqdm.github.io>`_ bar on stderr that counts the command's
real units (training timesteps, games, measurements) and shows the rate and an ETA. Every
caller passes on one three-way setting, ``show``:

* ``None`` (the default): a bar only when stderr is a terminal; piped or redirected
  output gets nothing, not even a stray line;
* ``True`` (``--progress``): a bar even when stderr is not a terminal (a log file, CI);
* ``False`` (``--no-progress``): no bar.

For ``train``, :func:`resolve` combines the flag with the config's
``output.progress_bar``: the flag wins when given; otherwise ``progress_bar: true`` means
a bar on a terminal and ``false`` none. Without tqdm installed there is no bar (a forced
one says so once).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["CountBar", "add_progress_flag", "advance", "progress_bar", "resolve"]


def add_progress_flag(parser: argparse.ArgumentParser, default: str = "on a terminal") -> None:
    """``--progress/--no-progress`` on ``parser`` (``args.progress``: True, False or None)."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"a progress bar with an ETA on stderr (--progress: always; --no-progress: "
        f"never; default: {default})",
    )


def resolve(flag: bool | None, configured: bool = True) -> bool | None:
    """The ``show`` setting: ``flag`` when given, else ``configured`` honoured on a terminal
    (``None`` when true, ``False`` when false)."""
    if flag is not None:
        return bool(flag)
    return None if configured else False


def progress_bar(show: bool | None, *, total: int | None, desc: str, unit: str) -> Any:
    """A tqdm bar of ``total`` ``unit`` on stderr, or None when ``show`` says none (or
    tqdm is missing, or ``show`` is None and stderr is not a terminal)."""
    if show is False:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        if show:
            note = "note: no progress bar: tqdm is not installed (pip install tqdm)"
            print(note, file=sys.stderr)
        return None
    bar = tqdm(
        total=total,
        desc=desc,
        unit=unit,
        dynamic_ncols=True,
        file=sys.stderr,
        disable=None if show is None else False,  # None: shown on a terminal only
    )
    if bar.disable:
        bar.close()
        return None
    return bar


def advance(bar: Any, done: int) -> None:
    """Move ``bar`` to ``done`` units. A trainer works in whole iterations, so a run can
    end past its budget: the total then grows to ``done``. (tqdm drops a total that the
    count has passed, and with it the percentage and the ETA.)"""
    if bar.total is not None and done > bar.total:
        bar.total = done
    bar.update(done - bar.n)


class CountBar:
    """A progress callback ``bar(done, total, text=None)`` drawing a :func:`progress_bar`
    from its first call on (a ``total`` of 0 or None: not known yet) and closing it when
    ``done`` reaches ``total``; ``text`` says what is under way, after the description.
    Close it (or use it as a context manager) in case the work stops early."""

    def __init__(self, show: bool | None, desc: str, unit: str) -> None:
        self.show, self.desc, self.unit = show, desc, unit
        self.bar: Any = None
        self._started = False

    def __call__(self, done: int, total: int | None, text: str | None = None) -> None:
        total = total or None  # 0: not known yet
        if not self._started:
            self._started = True
            self.bar = progress_bar(self.show, total=total, desc=self.desc, unit=self.unit)
        if self.bar is None:
            return
        if self.bar.total != total:
            self.bar.total = total
        if text is not None:
            self.bar.set_description_str(f"{self.desc}: {text}" if text else self.desc, False)
        self.bar.update(done - self.bar.n)
        if total is not None and done >= total:  # the work is done: stop the clock
            self.close()

    def above(self, write: Callable[[str], None]) -> Callable[[str], None]:
        """``write`` (a function printing a line) made to print above the bar, not
        through it."""

        def wrapped(text: str) -> None:
            if self.bar is None:
                write(text)
                return
            self.bar.clear()
            write(text)
            self.bar.refresh()

        return wrapped

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> CountBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
