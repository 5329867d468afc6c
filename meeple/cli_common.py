"""What every `meeple` command shares: the exit codes, the user error (`Fail`) and the wrapper that
turns it into a message, the consoles, and loading a game from the command line.

Kept apart from `meeple/cli.py` so that the modules of single commands (`meeple/cli_simulate.py`)
can use them without importing the whole command line.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import meeple
from meeple.interpreter.engine import Game
from meeple.limits import MAX_SEATS

OK, FAILED, USAGE = 0, 1, 2

# The options every command that plays a game shares.
PLAYERS = typer.Option(min=1, max=MAX_SEATS, help="Number of players (default: the game's smallest).")
OPTIONS = typer.Option(
    "--option", metavar="NAME=VALUE", help="A value for one of the game's options (repeat for several)."
)

P = ParamSpec("P")
R = TypeVar("R")


class Fail(Exception):
    """A user error: the message to print and the exit code. Raised anywhere below a command."""

    def __init__(self, message: str, code: int = FAILED) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def command(func: Callable[P, R]) -> Callable[P, R]:
    """Turn `Fail` (and Ctrl-C) into a message and an exit code, so that no command prints a traceback."""

    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except Fail as err:
            typer.echo(err.message, err=True)
            raise typer.Exit(err.code) from None
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130) from None

    return run


def stdout() -> Console:
    """Made per command (not at import) so that tests capturing stdout and non-tty detection work."""
    return Console(highlight=False)


def stderr() -> Console:
    return Console(stderr=True, highlight=False)


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
    except (OSError, UnicodeDecodeError) as err:
        raise Fail(f"error: cannot read {rules}: {err}", USAGE) from None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
