"""Reading weight files in bounded time and memory, whatever the file holds.

A policy file names its architecture; the network built from it has a known number of
parameters, so its weights have a known size. Everything here reads at most that size
(plus a small margin), never trusting the sizes an archive declares:

* :func:`weights_limit`: the largest weights file a network of ``n`` parameters needs;
* :func:`read_member`: one member of a zip, refused if it declares more than its limit,
  and read by streaming with a cap on the bytes actually inflated (a zip bomb is cut off
  at the cap, not after it has inflated);
* :func:`check_torch_archive`: a ``torch.save`` file (a zip) checked before ``torch.load``
  sees it: at most :data:`MAX_TORCH_RECORDS` records, stored uncompressed as torch writes
  them, summing to at most the limit;
* :func:`open_zip`: a zip with at most :data:`MAX_MEMBERS` members;
* :func:`parse_json`: JSON text nested at most :data:`MAX_JSON_DEPTH` levels, checked
  before ``json`` parses it (a file of 60,000 ``[`` is refused, not a ``RecursionError``);
* :func:`parameter_cap`: the most parameters a network for an env may have, from its
  observation size and action count (with :data:`MAX_HIDDEN_WIDTH` and
  :data:`MAX_HIDDEN_LAYERS` for its hidden layers);
* :func:`strip_ansi`: colour escapes removed from messages passed on from other libraries.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import IO, Any

import numpy as np

from moon_envs.core.game import ConfigError

MAX_MEMBERS = 64
"""Most members a policy zip may have (sb3 writes 6)."""
MAX_TORCH_RECORDS = 4096
"""Most records a ``torch.save`` archive of weights may have (one per tensor, plus a few)."""
BYTES_PER_PARAMETER = 4  # float32
MARGIN_BYTES = 1 << 16
"""Room for torch's per-tensor records and pickle beside the raw float32 data."""
MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects in a description or sidecar (they use 3)."""
MAX_HIDDEN_WIDTH = 4096
"""Widest hidden layer of a network file or policy (the JAX trainers' own limit)."""
MAX_HIDDEN_LAYERS = 16
"""Most hidden layers of a network file or of each MLP of a policy."""
HIDDEN_PARAMETERS = 8_000_000
"""Parameters allowed between hidden layers, on top of the env's own share
(:func:`parameter_cap`)."""
_CHUNK = 1 << 20
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.DOTALL)
"""A JSON string, or an unterminated one to the end (matched in one pass either way)."""
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def weights_limit(n_parameters: int) -> int:
    """Largest weights file (bytes) for a network of ``n_parameters`` float32 parameters:
    the raw data plus 1/8 and :data:`MARGIN_BYTES` (the shipped policies need 0.2-1% more
    than the raw data)."""
    raw = BYTES_PER_PARAMETER * n_parameters
    return raw + raw // 8 + MARGIN_BYTES


def parameter_cap(inputs: int, outputs: int, mlps: int = 1) -> int:
    """Most parameters a network of ``mlps`` MLPs (a policy's actor and critic: 2) may have
    for an env of ``inputs`` observation values and ``outputs`` actions: each MLP's input
    and output layers at :data:`MAX_HIDDEN_WIDTH`, plus :data:`HIDDEN_PARAMETERS` between
    its hidden layers. A [256, 256] network needs 1-4% of it; a [4096, 4096] one is refused."""
    return mlps * ((inputs + outputs + 2) * MAX_HIDDEN_WIDTH + HIDDEN_PARAMETERS)


def parse_json(raw: bytes, where: str, depth: int = MAX_JSON_DEPTH) -> Any:
    """``raw`` parsed as UTF-8 JSON, refused with a :class:`ConfigError` naming ``where``
    when it is not, or when it nests arrays and objects more than ``depth`` levels deep
    (counted on the text outside strings before ``json`` sees it, so no input can exhaust
    the parser's recursion)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: not UTF-8 JSON (a byte is not UTF-8)") from None
    brackets = np.frombuffer(_JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKETS), np.uint8)
    levels = np.cumsum(np.where((brackets == ord("[")) | (brackets == ord("{")), 1, -1))
    if levels.size and levels.max() > depth:
        raise ConfigError(
            f"{where}: JSON nested more than {depth} levels deep; allowed: at most {depth}"
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ConfigError(f"{where}: not UTF-8 JSON ({quote_reason(exc)})") from None


def quote_reason(exc: BaseException) -> str:
    """The first 120 characters of an exception's message, without colour escapes."""
    return strip_ansi(str(exc))[:120]


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def strip_ansi(text: str) -> str:
    """``text`` without terminal colour escapes (torch colours some of its messages)."""
    return _ANSI.sub("", text)


def open_zip(
    source: str | Path | IO[bytes], where: str, what: str = "a zip archive"
) -> zipfile.ZipFile:
    """``source`` as a zip with at most :data:`MAX_MEMBERS` members (else a
    :class:`ConfigError` saying it is not ``what``)."""
    try:
        zf = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise ConfigError(f"{where}: not {what} ({strip_ansi(str(exc))[:120]})") from None
    if len(zf.infolist()) > MAX_MEMBERS:
        count = len(zf.infolist())
        zf.close()
        raise ConfigError(f"{where}: {count} members; allowed: at most {MAX_MEMBERS}")
    return zf


def read_member(
    zf: zipfile.ZipFile,
    name: str,
    limit: int,
    where: str,
    needs: str = "the network the file describes needs",
) -> bytes:
    """Member ``name`` of ``zf``, refused if it declares or inflates to more than
    ``limit`` bytes (reading stops at ``limit + 1`` bytes); ``needs`` says where the
    limit comes from, in the message."""
    info = zf.getinfo(name)
    if info.file_size > limit:
        raise ConfigError(
            f"{where}: {name} declares {info.file_size:,} bytes; {needs} at most {limit:,}"
        )
    out = io.BytesIO()
    with zf.open(info) as f:
        while out.tell() <= limit:
            chunk = f.read(min(_CHUNK, limit + 1 - out.tell()))
            if not chunk:
                break
            out.write(chunk)
    if out.tell() > limit:
        raise ConfigError(
            f"{where}: {name} inflates to more than {limit:,} bytes; {needs} at most "
            f"{limit:,}; refused"
        )
    return out.getvalue()


def check_torch_archive(source: str | Path | bytes, limit: int, where: str) -> None:
    """Refuse a ``torch.save`` file that is not a plain archive of at most ``limit`` bytes
    of stored (uncompressed) records, before ``torch.load`` reads it."""
    if isinstance(source, (str, Path)) and Path(source).stat().st_size > limit:
        raise ConfigError(
            f"{where}: {Path(source).stat().st_size:,} bytes; the network it should hold "
            f"needs at most {limit:,}"
        )
    stream = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        zf = zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise ConfigError(
            f"{where}: not a torch weights archive (torch.save writes a zip archive)"
        ) from None
    with zf:
        records = zf.infolist()
        if len(records) > MAX_TORCH_RECORDS:
            raise ConfigError(
                f"{where}: {len(records)} records; allowed: at most {MAX_TORCH_RECORDS}"
            )
        packed = [r.filename for r in records if r.compress_type != zipfile.ZIP_STORED]
        if packed:
            raise ConfigError(
                f"{where}: compressed records {packed[:3]}; torch.save stores records "
                f"uncompressed, so this file was not written by it"
            )
        total = sum(r.file_size for r in records)
        if total > limit:
            raise ConfigError(
                f"{where}: its records hold {total:,} bytes; the network needs at most {limit:,}"
            )
