"""Paths from configs and flags: plain names, and folders the program may replace.

The trainer and the ladder write into folders a user names. Two rules keep a user's own
files safe:

* a name that must stay inside its parent (``output.run_name``) is a *plain name*: no path
  separator, not ``.`` or ``..``, not absolute, no control characters
  (:func:`check_plain_name`); a folder path (``output.dir``, the ladder's ``--out``) may
  have separators but no control characters and must not name an existing file
  (:func:`check_folder_path`); a file a command writes (``play --gif``) is not a folder or
  a link and replaces an existing file only when asked to (:func:`check_output_file`);
* a folder is replaced or emptied only when this program made it: it carries the
  marker file :data:`RUN_MARKER`, written when the folder is created
  (:func:`is_marked`, :func:`mark`). Anything else is refused before anything is
  written, with the path and the reason.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

RUN_MARKER = ".moon-envs-run.json"
"""The file that marks a folder this program created (a run folder, a ladder folder)."""


def _control_characters(text: str) -> str:
    """The control characters in ``text``, escaped (``"\\x07, \\n"``), or ``""``."""
    found = sorted({c for c in text if ord(c) < 32 or ord(c) == 127})
    return ", ".join(c.encode("unicode_escape").decode() for c in found)


def check_plain_name(field: str, value: str) -> str:
    """``value`` if it is one plain folder name, else a :class:`ConfigError` naming
    ``field`` and what is wrong."""
    problems = []
    if not value:
        problems.append("it is empty")
    if "/" in value or "\\" in value:
        problems.append("it has a path separator")
    if value in (".", ".."):
        problems.append("it names the current or parent folder")
    if Path(value).is_absolute() or (len(value) > 1 and value[1] == ":"):
        problems.append("it is an absolute path")
    if _control_characters(value):
        problems.append(f"it has control characters ({_control_characters(value)})")
    if problems:
        raise ConfigError(
            f"{field}={quote(value)} is not allowed: {'; '.join(problems)}. Allowed: one "
            f"folder name (letters, digits, '_', '-', '.'), created inside output.dir"
        )
    return value


def check_folder_path(field: str, value: str) -> str:
    """``value`` if it can name a folder to write in: not empty, no control characters,
    not an existing file, not inside one."""
    if not value or _control_characters(value):
        why = (
            f"it has control characters ({_control_characters(value)})" if value else "it is empty"
        )
        raise ConfigError(f"{field}={quote(value)} is not allowed: {why}. Allowed: a folder path")
    path = Path(value).expanduser()
    blocked = _file_above(path)
    if (path.exists() and not path.is_dir()) or blocked:
        what = f"{blocked} is a file" if blocked else f"{path} exists and is not a folder"
        raise ConfigError(
            f"{field}={quote(value)} is not allowed: {what}. "
            f"Allowed: a folder path (an existing folder, or one to create)"
        )
    return value


def _file_above(path: Path) -> Path | None:
    """The first existing folder above ``path`` that is not a folder (a file in the way of
    the folders to create), or None."""
    for parent in path.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def check_output_file(field: str, value: str, force: bool = False, suffix: str = "") -> Path:
    """The file ``value`` a command may write (``play --gif``, ``--html``), checked before
    any work: a :class:`ConfigError` naming ``field`` unless it is a file path (no control
    characters, not a folder, not a link, no file where its folders would go, ending in
    ``suffix`` when given) that does not exist yet, or ``force`` allows replacing."""
    path = Path(value).expanduser()
    problem = ""
    if not value or _control_characters(value):
        problem = (
            f"it has control characters ({_control_characters(value)})" if value else "it is empty"
        )
    elif path.is_dir():
        problem = "it is a folder"
    elif suffix and path.suffix.lower() != suffix:
        problem = f"its name does not end in {suffix}"
    elif _file_above(path):
        problem = f"{_file_above(path)} is a file, not a folder"
    if problem:
        example = f" such as game{suffix}" if suffix else ""
        raise ConfigError(
            f"{field} {quote(value)} is not allowed: {problem}. Allowed: a file path{example}"
        )
    if path.is_symlink():
        raise ConfigError(f"{path} is a link; it is left untouched. Choose another {field}")
    if path.exists() and not force:
        raise ConfigError(
            f"{path} already exists; it is left untouched. Choose another {field}, or add "
            "--force to replace it"
        )
    return path


def is_marked(folder: Path) -> bool:
    """Whether ``folder`` is a real folder (not a link) that this program created."""
    return folder.is_dir() and not folder.is_symlink() and (folder / RUN_MARKER).is_file()


def mark(folder: Path, kind: str) -> None:
    """Write the marker that lets a later run replace ``folder`` (``kind``: what made it)."""
    body = {"made_by": f"moon-envs {kind}", "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    (folder / RUN_MARKER).write_text(json.dumps(body) + "\n")


def refuse_unmarked(folder: Path, field: str, action: str) -> None:
    """A :class:`ConfigError` unless ``folder`` may be ``action``-ed (replaced, emptied):
    it must be a folder this program made."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        what = "a link" if folder.is_symlink() else "a file"
        raise ConfigError(
            f"{field}: {folder} is {what}, not a folder made by moon-envs; it is left "
            f"untouched. Choose another name, or move it away yourself"
        )
    if folder.exists() and not is_marked(folder):
        raise ConfigError(
            f"{field}: will not {action} {folder}: it was not made by moon-envs (it has no "
            f"{RUN_MARKER}), so it may hold your own files; it is left untouched. Choose "
            f"another output.run_name or output.dir, or remove it yourself"
        )


EARLIER_RESULTS = {"ladder": ("ladder.json",), "eval": ("results.json",)}
"""Per command, a file that shows an unmarked folder holds that command's earlier results
(folders written before the marker existed)."""


def claim_output_folder(field: str, value: str, kind: str) -> Path:
    """The folder ``value`` for a command that writes its own files there (``--out`` of
    ``ladder`` and ``eval``): created and marked if new; reused if this program made it (or
    it holds that command's earlier results, :data:`EARLIER_RESULTS`); refused if it exists
    with other contents, so that no file of the user's is overwritten."""
    check_folder_path(field, value)
    folder = Path(value).expanduser()
    if folder.is_symlink():
        raise ConfigError(f"{field}: {folder} is a link; allowed: a real folder path")
    if folder.is_dir() and any(folder.iterdir()):
        earlier = EARLIER_RESULTS.get(kind, ())
        if not is_marked(folder) and not any((folder / f).is_file() for f in earlier):
            raise ConfigError(
                f"{field}: {folder} already holds files that moon-envs did not write (it has "
                f"no {RUN_MARKER}); they are left untouched. Allowed: a new or empty folder, "
                f"or one an earlier {kind} wrote"
            )
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / RUN_MARKER).exists():
        mark(folder, kind)
    return folder
