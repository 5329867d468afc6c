"""Which files meeple may open, and how it reads them: every path goes through here.

Rules files, logs and save files come from anyone, and the names written in them are the
author's, not the user's. So there are two kinds of path, and one function for each:

- `named_in(name, folder)`: a path a *file* names (a variant's base game, a table's CSV file, a
  log's rules, a rulebook found beside a rules file). It is relative, and after every symbolic
  link is resolved it is still in the naming file's folder or below it. A bundled game is found
  by the caller, by its name, not through here.
- `user_file(path)`: a path the *user* names (on the command line, in `$MEEPLE_RULEBOOKS`, a log
  or a save file to read). It may be anywhere, but it is resolved too.

Both then insist on a regular file: no device, FIFO or socket (a read that never ends), nothing
under `/proc`, `/sys` or `/dev` (files that claim no size and hold another process's secrets).
Then `read_bytes(path, limit, what)` reads it: opened without following a link or waiting on a
FIFO, checked again on the open file, and read to at most `limit + 1` bytes, never the whole file
first; `read_text` also decodes UTF-8, and a byte that is not UTF-8 is an error at its line and
column (`NotText`). `read_user_bytes(path, limit, what)` is `user_file` and the read in one call:
what a command that takes a file (a log, a save file) needs.

Every odd name (empty, a NUL byte, a part over 255 bytes, a loop of links, a folder where a file
is wanted) is `Refused` with a sentence that names what was asked for and never shows anything
read from the file; the caller places it (at the line that names the path, or as a command-line
error). Nothing here raises `OSError` or `RuntimeError`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

NAME_MAX = 255  # bytes of one part of a path (POSIX's NAME_MAX on every common file system)
PATH_MAX = 4096  # bytes of a whole path
SPECIAL = ("proc", "sys", "dev")  # top folders whose files are the system's, not documents


class Refused(ValueError):
    """A path meeple may not open, or a file it cannot read: the message says why in a sentence."""


class NotText(Refused):
    """A file that is not UTF-8 text: where the first byte that is not stands (1-based, the column
    counted in characters of the line up to it, as the parser counts them). `here` says it for a
    message shown at that line and column."""

    here = "the file is not UTF-8 text: a byte here is not"

    def __init__(self, path: Path, line: int, column: int) -> None:
        self.path, self.line, self.column = path, line, column
        super().__init__(f"{path.name} is not UTF-8 text: a byte at line {line}, column {column} is not")


class Outside(Refused):
    """A name that leads out of the folder it must stay in (an absolute path, `..`, a link)."""


class Missing(Refused):
    """A name that stands for no file."""


class TooLarge(Refused):
    """A file over its size limit (the message names the limit)."""


def check_name(name: str, what: str = "a file") -> None:
    """Refuse a name no file can have, before anything looks for it: empty, a NUL byte (which
    the system would cut the name at), a part longer than NAME_MAX bytes, a path over PATH_MAX."""
    if not name:
        raise Refused(f"{what} needs a name")
    if "\0" in name:
        raise Refused(f"{what} may not have a NUL byte in its name")
    encoded = os.fsencode(name) if _encodable(name) else name.encode("utf-8", "surrogatepass")
    if len(encoded) > PATH_MAX:
        raise Refused(f"the name of {what} is longer than {PATH_MAX} bytes")
    if any(len(part) > NAME_MAX for part in encoded.split(b"/")):
        raise Refused(f"a part of the name of {what} is longer than {NAME_MAX} bytes")


def _encodable(name: str) -> bool:
    try:
        os.fsencode(name)
    except UnicodeError:
        return False
    return True


def shown(name: str) -> str:
    """A name as a message shows it: a hostile one may be 4,000 characters long."""
    return name if len(name) <= 80 else name[:60] + "..." + name[-16:]


def resolved(path: Path, what: str = "a file") -> Path:
    """`path` with every link followed, or Refused (a loop of links, a name too long)."""
    check_name(str(path), what)
    try:
        return path.resolve()
    except RuntimeError:  # Python 3.11's word for a loop of symbolic links
        raise Refused(f"'{shown(str(path))}' is a loop of symbolic links") from None
    except OSError as err:
        raise Refused(f"cannot open '{shown(str(path))}': {err.strerror or err}") from None


def openable(path: Path, what: str = "a file") -> Path:
    """A resolved path, if it is a regular file meeple may read; else Refused."""
    if len(path.parts) > 1 and path.is_absolute() and path.parts[1] in SPECIAL:
        raise Refused(f"'{shown(str(path))}' is a file of the system, not {what}")
    try:
        info = path.stat()
    except FileNotFoundError:
        raise Missing(f"there is no file '{shown(str(path))}'") from None
    except OSError as err:
        raise Refused(f"cannot open '{shown(str(path))}': {err.strerror or err}") from None
    if not stat.S_ISREG(info.st_mode):
        raise Refused(f"'{shown(str(path))}' is not a regular file")
    return path


def named_in(name: str, folder: Path, what: str = "a file") -> Path:
    """The file that `name`, written inside a file of `folder`, stands for: resolved, in
    `folder` or below it, and regular (see the module's docstring). Refused otherwise, saying
    `what` may be named."""
    check_name(name, what)
    if Path(name).is_absolute():
        raise Outside(f"{what} is named by a path relative to the file that names it, not '{shown(name)}'")
    inside = resolved(folder, "the folder")
    candidate = resolved(inside / name, what)
    if not candidate.is_relative_to(inside):
        raise Outside(
            f"{what} must be beside the file that names it or below its folder, not '{shown(name)}'"
        )
    return openable(candidate, what)


def user_file(path: str | Path, what: str = "a file") -> Path:
    """A file the user names: anywhere, but resolved and regular (see the module's docstring)."""
    return openable(resolved(Path(path), what), what)


def is_user_file(path: str | Path) -> bool:
    """Whether `user_file` would accept the path (for a search that tries several places)."""
    try:
        user_file(path)
    except Refused:
        return False
    return True


def read_bytes(path: Path, limit: int, what: str = "a file") -> bytes:
    """The bytes of a file `named_in` or `user_file` accepted, at most `limit` of them: a larger
    file is TooLarge (its message names the limit). The file is opened without following a link
    or waiting on a FIFO, and checked once more as opened: a file swapped since it was checked
    is refused too."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    name = shown(str(path))
    try:
        handle = os.open(path, flags)
    except OSError as err:
        raise Refused(f"cannot open '{name}': {err.strerror or err}") from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise Refused(f"'{name}' is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise Refused(f"cannot read '{name}': {err.strerror or err}") from None
    finally:
        os.close(handle)
    if size > limit:
        raise TooLarge(f"'{path.name}' is larger than {what} can be ({size_text(limit)})")
    return b"".join(chunks)


def decode(data: bytes, path: Path) -> str:
    """UTF-8 text (a byte-order mark dropped), or NotText at the first byte that is not."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        before = data[: err.start]
        line = before.count(b"\n") + 1
        start = before.rfind(b"\n") + 1
        column = len(before[start:].decode("utf-8", "replace")) + 1
        raise NotText(path, line, column) from None


def read_text(path: Path, limit: int, what: str = "a file") -> str:
    """`read_bytes`, decoded as UTF-8 (`decode`)."""
    return decode(read_bytes(path, limit, what), path)


def read_user_bytes(path: str | Path, limit: int, what: str = "a file") -> bytes:
    """A file the user names (a log, a save file), read: `user_file` then `read_bytes`."""
    return read_bytes(user_file(path, what), limit, what)


def size_text(limit: int) -> str:
    """A limit in bytes as people say it: 16 MB, 64 KB."""
    for unit, size in (("MB", 2**20), ("KB", 2**10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit:,} bytes"
