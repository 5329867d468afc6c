"""What every `meeple` command shares: the exit codes, the user error (`Fail`) and the wrapper that
turns it into a message, the consoles, and loading a game from the command line.

Kept apart from `meeple/cli.py` so that the modules of single commands (`meeple/cli_simulate.py`)
can use them without importing the whole command line.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TextIO, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.segment import Segment
from rich.text import Text

import meeple
from meeple.interpreter.engine import Game
from meeple.interpreter.teams import Layout, parse_layout
from meeple.limits import MAX_SEATS
from meeple.paths import Refused
from meeple.saves import Save, SaveError, read_save

OK, FAILED, USAGE = 0, 1, 2

# The argument and options every command that plays a game shares.
RULES = typer.Argument(metavar="FILE", help="A rules file or a bundled game name.")
PLAYERS = typer.Option(min=1, max=MAX_SEATS, help="Number of players (default: the game's smallest).")
OPTIONS = typer.Option(
    "--option", metavar="NAME=VALUE", help="A value for one of the game's options (repeat for several)."
)

# carried state (meeple/saves.py): a game started from a save
LOAD = typer.Option(
    "--load", metavar="IN.json", help="Start from this save (written by `meeple play --save`)."
)


def read_save_or_fail(path: Path) -> Save:
    """A save named on the command line, or a Fail saying what is wrong with it."""
    try:
        return read_save(path)
    except SaveError as err:
        raise Fail(f"error: {err}") from None


# ---------------------------------------------------------------- teams (interpreter/teams.py)
TEAMS = typer.Option(
    "--teams",
    metavar="1+4,2+5,...",
    help="Play in teams (a game whose rules declare `teams`): seats from 1, + within a team, a comma "
    "between teams; every player once, a player alone is a team of one.",
)


def parse_teams(text: str | None) -> Layout | None:
    """`--teams 1+4,2+5,3+6` as seats from 0; None without it. A malformed one is a usage error
    (one that does not fit the game is refused when the game starts: `Game.new_game`)."""
    if text is None:
        return None
    try:
        return parse_layout(text)
    except ValueError as err:
        raise Fail(f"error: --teams: {err}", USAGE) from None


P = ParamSpec("P")
R = TypeVar("R")


class Fail(Exception):
    """A user error: the message to print and the exit code. Raised anywhere below a command."""

    def __init__(self, message: str, code: int = FAILED) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def command(func: Callable[P, R]) -> Callable[P, R]:
    """Turn `Fail` (and Ctrl-C) into a message and an exit code, so that no command prints a
    traceback; and print every command's words through `Visible` (see `terminal_safe`)."""

    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with terminal_safe():
            try:
                return func(*args, **kwargs)
            except Fail as err:
                typer.echo(err.message, err=True)
                raise typer.Exit(err.code) from None
            except KeyboardInterrupt:
                typer.echo("interrupted", err=True)
                raise typer.Exit(130) from None

    return run


# ------------------------------------------------------------------ what reaches the terminal

# Every C0 and C1 control character but the line break and the tab, as the text that names it: a
# rules file's title, a log line or a file name holding `ESC [2J` or an OSC title would otherwise
# clear the screen, retitle the window or hide what follows when printed.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c not in (0x09, 0x0A)}


def visible(text: str) -> str:
    """`text` with every control character written out (`\\x1b`): printed, it acts on nothing."""
    return text.translate(_CONTROLS)


class Visible:
    """A text stream that writes through `visible`. It has no `buffer`, so that nothing (click
    looks for one) writes around it."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError("a Visible stream writes text")
        self.raw.write(visible(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":
            raise AttributeError(name)
        return getattr(self.raw, name)


def real_stream(stream: TextIO) -> TextIO:
    """The stream under `Visible`: for what is no terminal text (the language server's protocol)."""
    return stream.raw if isinstance(stream, Visible) else stream


@contextmanager
def terminal_safe() -> Iterator[None]:
    """The one place where what a command prints is made safe for a terminal: while a command
    runs, stdout and stderr write through `Visible` (so do `typer.echo`, `print` and prompts),
    and the rich consoles below write their own colours to the real streams but their text
    through `visible`. User text (titles, log lines, names of files) reaches the terminal as text
    that shows its control characters, never as codes the terminal acts on."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Visible(real_stream(out)), Visible(real_stream(err))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


class SafeConsole(Console):
    """A rich console whose text goes through `visible`: strings as rich reads them, and every
    segment of text it writes (a `Text` made elsewhere); the codes rich adds itself (colours, the
    cursor moves of a progress bar) are its own segments' styles and controls, and pass."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        """A string printed or put in a table, made visible before rich measures it (a control
        character is no width to rich, its written-out form four)."""
        return super().render_str(visible(text), **kwargs)

    def render(self, renderable: Any, options: Any = None) -> Iterator[Segment]:
        for segment in super().render(renderable, options):
            if segment.control or not segment.text:
                yield segment
            else:
                yield Segment(visible(segment.text), segment.style, segment.control)


def stdout() -> Console:
    """Made per command (not at import) so that tests capturing stdout and non-tty detection work."""
    return SafeConsole(file=real_stream(sys.stdout), highlight=False)


def stderr() -> Console:
    return SafeConsole(file=real_stream(sys.stderr), highlight=False)


def progress_bar() -> Progress:
    """The progress bar of a long command: on stderr, and only when stderr is a terminal (a pipe
    or a file gets nothing of it). What the command prints on stdout meanwhile (with `say`)
    stays on stdout: above the bar when stdout is the terminal too, untouched when it goes
    elsewhere (a JSON document stays one). It is drawn when told (`update(..., refresh=True)`),
    never by a thread of its own: commands fork worker processes while it is shown, and a copy
    made while that thread writes would inherit its lock."""
    err = stderr()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    return Progress(
        *columns,
        console=err,
        transient=True,
        disable=not err.is_terminal,
        auto_refresh=False,
        redirect_stdout=sys.stdout.isatty(),
    )


ENGINE = typer.Option(
    help="The engine that plays: auto (the native core where it runs the game and its agents, else "
    "Python), python or native. Default: $MEEPLE_ENGINE, else auto.",
)


def note_engine(engine: str, why: str) -> None:
    """Say once, on stderr, that the native engine is not built, when that is why Python plays."""
    from meeple.interpreter.native import NOT_BUILT

    if engine == "python" and why == NOT_BUILT:
        typer.echo(f"note: {NOT_BUILT}: games run on the Python engine", err=True)


def say(text: str) -> None:
    """A line on stdout, that a progress bar drawn on the same terminal makes room for: `print`
    is what rich moves above the bar (`typer.echo` finds the terminal beneath it, and writes
    across the bar)."""
    print(text, flush=True)


def echo_json(value: Any) -> None:
    typer.echo(json.dumps(value))


def parse_options(given: list[str]) -> dict[str, str]:
    """`--option NAME=VALUE`, each given once: by name. A malformed one is a usage error."""
    out: dict[str, str] = {}
    for item in given:
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise Fail(f"error: --option takes NAME=VALUE, not '{item}'", USAGE)
        if name.strip() in out:
            raise Fail(f"error: option '{name.strip()}' is given twice", USAGE)
        out[name.strip()] = value.strip()
    return out


def load_game(rules: str, options: dict[str, str] | None = None) -> Game:
    """`meeple.load` with every way it can fail turned into a `Fail`: a file that cannot be found or
    read, or an option the game does not have, is a usage error (2), a file with errors is a
    failure (1) and prints its diagnostics."""
    try:
        return meeple.load(rules, options)
    except meeple.OptionError as err:
        raise Fail(f"error: {err}", USAGE) from None
    except FileNotFoundError as err:
        raise Fail(f"error: {err}", USAGE) from None
    except meeple.RulesError as err:
        count = len(err.diagnostics)
        raise Fail(f"{err.render()}\n{rules}: does not load ({plural(count, 'error')})") from None
    except Refused as err:  # found, but it cannot be read (permissions, a file swapped meanwhile)
        raise Fail(f"error: cannot read {rules}: {err}", USAGE) from None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
