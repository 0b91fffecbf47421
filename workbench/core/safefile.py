"""Reading a user's file without trusting it: regular files only, a size cap, no content in errors.

A scenario or record path may name ``/dev/zero`` (endless), a FIFO (blocks forever), a directory
or a secret (``/etc/shadow``). ``read_text_capped`` opens without blocking, checks that the open
file is a regular one, reads at most ``limit`` bytes and decodes UTF-8. Its errors say what is
wrong with the file, never what is in it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path


class UnsafeFileError(ValueError):
    """A file that cannot be read as asked: not a regular file, too big, unreadable or not text."""


# Set while a board handles a message from a page (a click, an uploaded scenario or record): nothing it sends may
# open a file outside the folders the project ships (the workbench's own data, the scenarios folder), whatever
# key names it. None: a notebook or command line, which names its own files.
PAGE_INPUT: ContextVar[tuple[Path, ...] | None] = ContextVar("page_input", default=None)
_SHIPPED = Path(__file__).resolve().parents[1]  # the workbench package: games' data files


@contextmanager
def page_input(*roots: str | os.PathLike[str]) -> Iterator[None]:
    """While inside, ``read_bytes_capped`` opens only files under the workbench package and ``roots``."""
    token = PAGE_INPUT.set((_SHIPPED, *(Path(r).resolve() for r in roots)))
    try:
        yield
    finally:
        PAGE_INPUT.reset(token)


def read_bytes_capped(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``UnsafeFileError`` otherwise."""
    p = Path(path)
    allowed = PAGE_INPUT.get()
    if allowed is not None and not any(p.resolve().is_relative_to(root) for root in allowed):
        raise UnsafeFileError("text from a page names no file on the server; load such a scenario from the notebook")
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise UnsafeFileError(f"cannot open the file: {exc.strerror or type(exc).__name__}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
            raise UnsafeFileError(f"not a regular file (it is {kind})")
        if info.st_size > limit:
            raise UnsafeFileError(f"the file is {info.st_size:,} bytes; the limit is {limit:,}")
        chunks = []
        size = 0
        while True:  # read to the end, never past the limit (the file may grow while we read)
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise UnsafeFileError(f"the file is over the limit of {limit:,} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise UnsafeFileError(f"cannot read the file: {exc.strerror or type(exc).__name__}") from None
    finally:
        os.close(fd)


def read_text_capped(path: str | os.PathLike[str], limit: int) -> str:
    """``read_bytes_capped`` decoded as UTF-8 (a binary file is refused, not echoed)."""
    data = read_bytes_capped(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsafeFileError(f"not UTF-8 text (byte {exc.start}); is it a binary file?") from None


def confine(name: str | os.PathLike[str], bases: Sequence[str | os.PathLike[str]]) -> Path:
    """The file ``name`` names, which must lie inside one of ``bases`` (symlinks followed); ``UnsafeFileError`` else.

    Why: a scenario or record is a file someone sent; the files it names may only be its neighbours or
    the game's own data, never ``/etc/shadow`` or ``../../secret``. A relative name is tried against each
    base in turn (the first that holds the file wins). A name outside gets the same error whether or not
    the file exists, so it tells nothing about the disk outside.
    """
    if not bases:
        raise UnsafeFileError("no folder to read named files from")
    p = Path(name)
    roots = [Path(b).resolve() for b in bases]
    candidates = [p] if p.is_absolute() else [root / p for root in roots]
    inside: list[Path] = []
    for cand in candidates:
        real = cand.resolve()
        if any(real == root or real.is_relative_to(root) for root in roots):
            if real.is_file():
                return real
            inside.append(real)
        elif os.path.lexists(cand):  # a link or ../ that leaves the folders: refused, not skipped
            break
    else:
        if inside:
            return inside[0]  # inside but absent: the reader says it cannot open it
    raise UnsafeFileError("a file named inside a scenario or record must lie in that file's folder or the game's data")
