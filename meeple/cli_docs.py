"""`meeple docs`: print a game's rules from its rules file, in one command.

A designer changes a `.rules` file and runs `meeple docs FILE -o DIR`: the rulebook (and, with
`--summary`, the two-page player aid; with `--reference`, the designer's reference) are written
again from the same source the engine plays, so the printed rules cannot drift from the game.
The command is a thin shell over `meeple.codegen`; like every command it turns what a user can
get wrong into a message and an exit code, never a traceback:

    0  every file's docs were written
    1  a rules file has errors (its diagnostics are printed, its docs are not written), or the
       output cannot be written
    2  the command line is wrong: a file that does not exist, an unknown format

It is registered by `meeple/cli.py` (`app.command("docs")(docs)`), and imports nothing from it so
that either module can be imported first.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

import meeple
from meeple.cli_common import plural, progress_bar, say
from meeple.codegen import GameDocs, game_docs, pdf_available, write
from meeple.loader import Checked
from meeple.paths import Refused

OK, FAILED, USAGE = 0, 1, 2


def check_file(name: str, options: dict[str, str] | None = None) -> Checked | None:
    """`meeple.check` for a command: a file that cannot be found or read, or an option it does
    not have, is said on stderr (the caller exits 2); None then."""
    try:
        return meeple.check(name, options)
    except meeple.OptionError as err:
        typer.echo(f"error: {name}: {err}", err=True)
    except FileNotFoundError as err:
        typer.echo(f"error: {err}", err=True)
    except Refused as err:  # found, but it cannot be read
        typer.echo(f"error: cannot read {name}: {err}", err=True)
    return None


class DocFormat(StrEnum):
    md = "md"
    html = "html"
    pdf = "pdf"
    all = "all"


def docs(
    files: Annotated[
        list[str], typer.Argument(metavar="FILE", help="Rules files (or bundled game names) to document.")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="The folder to write the docs into.")],
    fmt: Annotated[DocFormat, typer.Option("--format", help="md, html, pdf, or all three.")] = DocFormat.all,
    summary: Annotated[
        bool,
        typer.Option("--summary", help="Also write the player aid: two pages to keep beside the board."),
    ] = False,
    reference: Annotated[
        bool,
        typer.Option(
            "--reference", help="Also write the designer's reference: every statement, with its source."
        ),
    ] = False,
    full: Annotated[
        bool,
        typer.Option("--full", help="A variant's rulebook as the whole game, not its changes."),
    ] = False,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=1, help="Page layouts made at once (default: one per CPU)."),
    ] = os.cpu_count() or 1,
    force: Annotated[
        bool,
        typer.Option("--force", help="Lay out every PDF again, even those unchanged."),
    ] = False,
    listed: Annotated[
        bool,
        typer.Option("--list", help="Name every file written, as it is written, instead of a summary."),
    ] = False,
) -> None:
    """Write the rulebook of each game (and its player aid, its reference) as Markdown, HTML, PDF.

    A PDF whose rules have not changed since the last run into the same folder is kept as it
    is (laying out pages is the slow part); --force makes them all again."""
    code = OK
    games: list[GameDocs] = []
    heard: list[tuple[Path, bool]] = []
    with progress_bar() as progress:  # over every stage: the checks, the texts, the PDFs' layouts
        task = progress.add_task("checking the rules", total=len(files))

        def stage(what: str, done: int, total: int) -> None:
            progress.update(task, description=what, completed=done, total=total, refresh=True)

        for count, name in enumerate(files):
            stage(f"checking {escape(name)}", count, len(files))
            code = max(code, _checked_docs(name, full, games))
        formats = ["md", "html", "pdf"] if fmt is DocFormat.all else [fmt.value]
        documents = ["rulebook", *(["aid"] if summary else []), *(["reference"] if reference else [])]
        if games:
            if "pdf" in formats and (why := pdf_available()) is not None:
                typer.echo(f"error: cannot make PDF on this machine ({why}); try --format html", err=True)
                raise typer.Exit(FAILED)
            try:
                write(
                    games,
                    out,
                    formats,
                    documents,
                    lambda path, kept: _written(path, kept, heard, listed),
                    workers=jobs,
                    reuse=not force,
                    progress=stage,
                )
            except OSError as err:
                typer.echo(f"error: cannot write the docs into {out}: {err}", err=True)
                raise typer.Exit(FAILED) from None
            except KeyboardInterrupt:
                typer.echo("interrupted", err=True)
                raise typer.Exit(130) from None
    if heard and not listed:
        say(_summary(out, heard))
    raise typer.Exit(code)


def _checked_docs(name: str, full: bool, games: list[GameDocs]) -> int:
    """Check one file and add its docs to `games`; the exit code it earns (its errors printed)."""
    checked = check_file(name)
    if checked is None:
        return USAGE
    if not checked.ok or checked.module is None or checked.symbols is None or checked.program is None:
        errors = [d for d in checked.diagnostics if d.severity == "error"]
        for d in errors:
            typer.echo(checked.render(d), err=True)  # a variant's errors may be in its base game
        count = f"{len(errors)} error{'' if len(errors) == 1 else 's'}"
        typer.echo(f"{name}: {count}, no docs written for it", err=True)
        return FAILED
    games.append(
        game_docs(
            checked.path,
            checked.module,
            checked.symbols,
            checked.program.constants,
            full,
            program=checked.program,
        )
    )
    return OK


def _written(path: Path, kept: bool, heard: list[tuple[Path, bool]], listed: bool) -> None:
    """A file is written (or kept from the last run): said at once with --list, else counted."""
    heard.append((path, kept))
    if listed:
        say(f"{path} (unchanged)" if kept else str(path))


_OPEN_FIRST = {".pdf": 0, ".html": 1, ".md": 2}  # the file a summary says to open: the one to print


def _summary(out: Path, heard: list[tuple[Path, bool]]) -> str:
    """What a run wrote, in two lines rather than a line per file: how many files of each kind,
    how many PDFs were kept unchanged, and the file to open first."""
    kinds: dict[str, int] = {}
    for path, _ in heard:
        kinds[path.suffix.lstrip(".").upper()] = kinds.get(path.suffix.lstrip(".").upper(), 0) + 1
    counted = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    kept = sum(1 for _, k in heard if k)
    again = f" ({kept} unchanged since the last run, kept)" if kept else ""
    ranked = sorted(heard, key=lambda h: (h[0].name != "index.html", _OPEN_FIRST.get(h[0].suffix, 9)))
    first = ranked[0][0]
    wrote = f"wrote {plural(len(heard), 'file')} into {out}: {counted}{again}"
    return f"{wrote}\nopen {first} (--list names every file)"
