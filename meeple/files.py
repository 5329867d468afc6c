"""Writing a file whole or not at all.

Every file meeple writes (a log, a page of the rules, the record of what was laid out) goes into
a temporary file beside its target and is then renamed over it: a run interrupted halfway leaves
the old file or none, never half of one that looks complete, and a symbolic link already at the
target is replaced by the file, never followed to overwrite what it points at.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: Path, data: str | bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if isinstance(data, bytes):
            temporary.write_bytes(data)
        else:
            temporary.write_text(data, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
