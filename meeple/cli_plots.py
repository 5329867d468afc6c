"""`--plot DIR` of `meeple simulate` and `meeple compare`: the figures of `meeple.plots`, written
after the tables.

Kept apart from `meeple/cli_simulate.py` so that a command takes one option and makes one call.
matplotlib is an optional extra (`meeple[plot]`) and slow to import, so it is imported only when
`--plot` is given. Both ways `--plot` can fail are found as the command line is read, before a
long simulation is played for nothing: matplotlib missing is a usage error (2), a folder that
cannot be made or written a failure (1), as is a write that fails later all the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import typer
from rich.markup import escape

from meeple.balance import Measure, Record
from meeple.cli_common import FAILED, USAGE, Fail, plural, stderr

INSTALL = "pip install 'meeple[plot]'"


def _checked(folder: Path | None) -> Path | None:
    """The `--plot` folder, once it is clear that the figures can be drawn and written there."""
    if folder is None:
        return None
    try:
        import matplotlib  # noqa: F401  (only to know it is there)
    except ImportError:
        typer.echo(f"error: --plot needs matplotlib, which is not installed: {INSTALL}", err=True)
        raise typer.Exit(USAGE) from None
    problem = _unwritable(folder.absolute())
    if problem:
        typer.echo(f"error: --plot {folder}: {problem}", err=True)
        raise typer.Exit(FAILED)
    return folder


def _unwritable(folder: Path) -> str:
    """Why figures could not be written into `folder` (made if missing), or "" when they can:
    the nearest part of the path that exists must be a folder we may write in."""
    for place in (folder, *folder.parents):
        if place.exists():
            if not place.is_dir():
                return f"{place} is not a folder"
            if not os.access(place, os.W_OK | os.X_OK):
                return f"cannot write in {place}"
            return ""
    return ""


PLOT = typer.Option(
    "--plot",
    metavar="DIR",
    callback=_checked,
    help=f"Also draw the figures into DIR (made if missing), as PNG and SVG. Needs {escape(INSTALL)}.",
)


def draw_simulation(
    folder: Path, records: list[Record], drawn: Sequence[Measure], title: str, seats: Sequence[str]
) -> None:
    """The figures of one simulation (of the measures `drawn`, the game's counters among them)."""
    from meeple.plots import plot_simulation

    _written(folder, lambda: plot_simulation(records, list(drawn), seats, title, folder))


def draw_comparison(
    folder: Path,
    a: list[Record],
    b: list[Record],
    drawn: Sequence[Measure],
    titles: tuple[str, str],
    seats: Sequence[str],
) -> None:
    """The figures of A and B side by side and of their paired differences, into `folder`."""
    from meeple.plots import plot_comparison

    _written(folder, lambda: plot_comparison(a, b, list(drawn), seats, titles, folder))


def _written(folder: Path, draw: Callable[[], list[Path]]) -> None:
    """Draw, say what was written (on stderr, so that `--json` stays the only thing on stdout),
    and turn a failed write into a message."""
    try:
        paths = draw()
    except OSError as err:
        raise Fail(f"error: cannot write the figures into {folder}: {err.strerror or err}", FAILED) from None
    if not paths:
        stderr().print("no game finished: no figures drawn")
        return
    names = list(dict.fromkeys(p.stem for p in paths))  # each figure once, in the order drawn
    said = f"{plural(len(names), 'figure')} (PNG and SVG) in {folder}: {', '.join(names)}"
    stderr().print(escape(said), soft_wrap=True)
