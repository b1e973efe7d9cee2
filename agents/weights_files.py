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
* :func:`strip_ansi`: colour escapes removed from messages passed on from other libraries.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import IO

from moon_envs.core.game import ConfigError

MAX_MEMBERS = 64
"""Most members a policy zip may have (sb3 writes 6)."""
MAX_TORCH_RECORDS = 4096
"""Most records a ``torch.save`` archive of weights may have (one per tensor, plus a few)."""
BYTES_PER_PARAMETER = 4  # float32
MARGIN_BYTES = 1 << 16
"""Room for torch's per-tensor records and pickle beside the raw float32 data."""
_CHUNK = 1 << 20
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def weights_limit(n_parameters: int) -> int:
    """Largest weights file (bytes) for a network of ``n_parameters`` float32 parameters:
    the raw data plus 1/8 and :data:`MARGIN_BYTES` (the shipped policies need 0.2-1% more
    than the raw data)."""
    raw = BYTES_PER_PARAMETER * n_parameters
    return raw + raw // 8 + MARGIN_BYTES


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
