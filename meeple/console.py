"""The `meeple` command's entry point.

Loading the command line takes a moment (typer, rich, pydantic, Lark); Ctrl-C in that moment
must end the command like Ctrl-C at any other time, with one word and exit 130, not a traceback
from inside an import. `import meeple` itself loads nothing, so this module is the first thing
that runs.
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from meeple.cli import app
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    app()
