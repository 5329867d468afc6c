"""The `meeple` command line: check, play, replay, simulate and test rules files, list bundled games.

A thin shell over the library (`meeple.check`, `meeple.load`, `meeple.replay`, the agents and the
examples runner): it adds no game logic, only argument parsing and presentation. Every error a
user can cause becomes a message on stderr and an exit code, never a traceback:

    0  success
    1  the rules, a game, an example or a log is wrong
    2  the command line is wrong (unknown option, no such file, bad player count or agent name)

Machine-readable output (`--json`, `--format json`) is exactly one JSON value on stdout; progress
bars, prompts for human players and errors go to stderr so that stdout stays parseable.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from enum import StrEnum
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Any

import typer
from pygments import highlight
from pygments.formatters import TerminalFormatter
from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

import meeple
from meeple import codes
from meeple.board import Looks, say_place
from meeple.cli_common import (
    ENGINE,
    FAILED,
    LOAD,
    OK,
    OPTIONS,
    PLAYERS,
    RULES,
    TEAMS,
    USAGE,
    Fail,
    command,
    echo_json,
    load_game,
    note_engine,
    parse_options,
    parse_teams,
    plural,
    progress_bar,
    read_save_or_fail,
    real_stream,
    say,
    stderr,
    stdout,
    visible,
)
from meeple.cli_docs import check_file, docs
from meeple.cli_simulate import compare, simulate
from meeple.codegen.lexer import MeepleLexer
from meeple.interpreter import native
from meeple.interpreter.agents import Agent, make_agents
from meeple.interpreter.agents import play as play_to_end
from meeple.interpreter.checks import CheckOptions, Report, as_json, run_checks
from meeple.interpreter.engine import Game, State
from meeple.interpreter.examples import run_example
from meeple.interpreter.native.state import CORE_LIMIT, CoreLimit
from meeple.interpreter.runtime import Said, Secret, short
from meeple.interpreter.teams import Layout, layout_text
from meeple.limits import MAX_NUMBER
from meeple.loader import Checked, bundled_dir, read_header, resolve_named
from meeple.logs import LogError, for_seat, log_rules, position, read_log, write_log
from meeple.paths import Refused, resolved
from meeple.saves import Save, SaveError, write_save
from meeple.simulation import engine_of
from meeple.terminal import HumanAgent

app = typer.Typer(
    help="meeple: a declarative rules language for board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,  # our own errors never reach Python; a bug should show plainly
    context_settings={"help_option_names": ["-h", "--help"]},  # every command inherits them
)


def _version(asked: bool) -> None:
    """`--version`: the installed package's version, read from its metadata so that it cannot
    drift from the one pip installed."""
    if asked:
        typer.echo(f"meeple {version('meeple')}")
        raise typer.Exit(OK)


@app.callback()
def main(
    _: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print meeple's version and exit."),
    ] = False,
) -> None:
    """The options of `meeple` itself, before any command: a callback is where Typer takes them."""


# ------------------------------------------------------------------ loading and playing


def start(
    game: Game,
    players: int | None,
    seed: int,
    agent_names: list[str],
    logging: bool,
    load: Save | None = None,
    teams: Layout | None = None,
    engine: str = "python",
) -> tuple[State, list[Agent]]:
    """A new game and its agents, on the engine named. Setup runs here, so it may raise the errors
    `play_game` reports."""
    players = game.min_players if players is None else players
    try:
        # refuses a count out of range first, then teams that do not fit, then a save that does
        # not fit the rules (in the same words on either engine: native/carried.py)
        if engine == "native":
            state = native.new_game(game, players, seed, logging=logging, teams=teams, load=load)
        else:
            state = game.new_game(players, seed, logging=logging, load=load, teams=teams)
        agents = make_agents(agent_names, players, seed, game.program.styles, HumanAgent)
    except SaveError as err:
        raise Fail(f"error: the save does not fit the rules: {err}") from None
    except ValueError as err:  # a player count out of range, an unknown agent name, teams that do not fit
        raise Fail(f"error: {err}", USAGE) from None
    return state, agents


def play_game(
    game: Game,
    rules: str,
    players: int | None,
    seed: int,
    agent_names: list[str],
    terminal: Terminal,
    logging: bool = True,
    load: Save | None = None,
    teams: Layout | None = None,
    engine: str = "python",
    auto: bool = False,
) -> State:
    """Play one whole game. A rule that breaks while running is reported with everything needed to
    reproduce it: the seed, the player count and the choices made so far. Simulations turn the
    readable log off: nobody reads it, and it costs time. Human seats talk through `terminal`,
    which remembers how much of the log they were shown. A game the native core stops on a limit
    of its own is played again on Python when the engine was not asked for (`auto`): its agents
    are no humans (engine_of), so it is the same game."""
    state: State | None = None
    try:
        state, agents = start(game, players, seed, agent_names, logging, load, teams, engine)
        terminal.humans = {seat for seat, agent in enumerate(agents) if isinstance(agent, HumanAgent)}
        play_to_end(state, [Narrated(a, terminal) if isinstance(a, HumanAgent) else a for a in agents])
        return state
    except (meeple.RuleRuntimeError, meeple.IllegalChoice) as err:
        if auto and isinstance(err, CoreLimit):
            again = (game, rules, players, seed, agent_names, terminal, logging, load, teams)
            return play_game(*again, engine="python")
        seats = state.players if state is not None else players or game.min_players
        choices = state.choices if state is not None else []
        raise Fail(
            f"error: {err}\n"
            f"  while playing {rules} with {seats} players, seed {seed}, "
            f"after choices {short(str(choices), 200)}\n"
            f"  reproduce with: meeple play {rules} --players {seats} --seed {seed} "
            f"--agents {','.join(agent_names)}" + (f" --teams {layout_text(teams)}" if teams else "")
        ) from None
    except EOFError:
        raise Fail("error: the input ended before the game did") from None


class Terminal:
    """The one terminal the human seats share: how many lines of the log it has shown. Shared, so
    that with two humans at one keyboard a line is shown once, not once to each of them. A line
    some seats alone may read (`reveal`) is shown to the seat whose decision comes as that seat
    may read it; a person who may read more of it is shown it before their own next decision
    (`owed`), or when the game ends if none comes, so that the one who looked sees what they
    looked at, and nobody else does. When the keyboard passes from one person to another (hot
    seat), the next is asked to take it before anything of their seat shows (`hand_off`)."""

    def __init__(self) -> None:
        self.seen = 0
        self.humans: set[int] = set()  # the seats people play at this terminal
        self.owed: dict[int, list[str]] = {}  # lines kept for a person whose decision comes later
        self.at: int | None = None  # the seat of the person who answered last at this terminal

    def hand_off(self, seat: int) -> bool:
        """Whether `seat`'s decision passes the keyboard from one person to another: the next
        must take it before their private information shows, as the page's hand-off screen
        waits for a click. The first person to decide takes it with nothing shown before."""
        passing = self.at is not None and self.at != seat
        self.at = seat
        return passing

    def show(self, state: State, seat: int) -> list[str]:
        """The lines to show before `seat` decides: those kept for it, then the new ones as it may
        read them."""
        lines = self.owed.pop(seat, [])
        fresh = state.log[self.seen :]
        self.seen = len(state.log)
        for line in fresh:
            if isinstance(line, Secret):
                for reader in sorted(line.readers & self.humans - {seat}):
                    self.owed.setdefault(reader, []).append(line)
        names = state.game.program.names
        looks = Looks(names) if names is not None else None
        return lines + for_seat(fresh, seat, None if looks is None else lambda line: say_place(looks, line))

    def kept(self, state: State) -> list[str]:
        """The lines still kept for people whose decision never came, once each and in the log's
        order: the game is over, so they are shown now, before the rest of the record."""
        owed = {id(line) for lines in self.owed.values() for line in lines}
        self.owed = {}
        return [line for line in state.log[: self.seen] if id(line) in owed]


class Narrated:
    """A human agent that talks on stderr (stdout stays the game's record) and, before each of its
    decisions, shows what happened since the terminal last showed the log: the other seats' moves
    and the dice."""

    def __init__(self, human: HumanAgent, terminal: Terminal) -> None:
        self.human = human
        self.terminal = terminal
        err = stderr()
        human.show = lambda text: err.print(text, soft_wrap=True)
        human.ask = self.ask

    @staticmethod
    def ask(prompt: str) -> str:
        typer.echo(prompt, err=True, nl=False)
        return input()

    def choose(self, state: State, decision: Any) -> int:
        if self.terminal.hand_off(decision.player.seat):
            self.hand_over(decision.player)
        for line in self.terminal.show(state, decision.player.seat):
            typer.echo(line, err=True)
        return self.human.choose(state, decision)

    def hand_over(self, player: Any) -> None:
        """The hand-off screen: what the last person saw is cleared from a terminal (a pipe keeps
        it: nobody looks at one), and nothing of the next seat is shown until its person says
        they are at the keyboard."""
        err = stderr()
        err.clear()
        if err.is_terminal:
            typer.echo("\x1b[3J", err=True, nl=False)  # the scrollback too, where the terminal keeps one
        typer.echo(f"Pass the keyboard to {player}.", err=True)
        self.ask(f"{player}: press Enter when you are at the keyboard, to see your turn: ")


def seat_names(state: State) -> list[str]:
    """Every seat by its name: the players, then the seats the rules play (on either engine)."""
    return [str(p) for p in state.game.program.seated(state.players)]


def seats_named(seats: list[int], names: list[str]) -> str:
    """Seats as the tables call them ("Player 1"), not as a result keeps them (0-based indices,
    which read as one seat off). A seat beyond the table, as a tampered log may give, is said by
    its number."""
    return ", ".join(names[s] if s < len(names) else f"seat {s + 1}" for s in seats) or "none"


# ------------------------------------------------------------------ commands


class Format(StrEnum):
    text = "text"
    json = "json"


@app.command()
@command
def check(
    files: Annotated[
        list[str], typer.Argument(metavar="FILE", help="Rules files (or bundled game names) to check.")
    ],
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for tools.")] = Format.text,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the check too.")] = False,
    rulebook: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH_OR_DIR",
            help="The rulebook the header names, or a folder holding it "
            "(default: the rules file's folder, then each folder of $MEEPLE_RULEBOOKS).",
        ),
    ] = None,
    coverage: Annotated[
        bool, typer.Option("--coverage", help="Report how much of the rulebook citations and asides cover.")
    ] = False,
    assumptions: Annotated[
        bool, typer.Option("--assumptions", help="List every assume and conflict with its place.")
    ] = False,
    play_games: Annotated[
        int,
        typer.Option(
            "--play", metavar="N", min=0, help="Also play N random games per allowed player count and report."
        ),
    ] = 0,
    option: Annotated[list[str] | None, OPTIONS] = None,
) -> None:
    """Report every problem in rules files: errors, warnings, with the line and a caret."""
    chosen = parse_options(option or [])
    if rulebook is not None:
        try:
            there = resolved(rulebook, "a rulebook").exists()
        except Refused as err:
            raise Fail(f"error: --rulebook: {err}", USAGE) from None
        if not there:
            raise Fail(f"error: no rulebook or folder at {rulebook}", USAGE)
    options = CheckOptions(rulebook=rulebook, coverage=coverage, assumptions=assumptions, play=play_games)
    code = OK
    found: list[dict[str, object]] = []
    out = stdout()
    for name in files:
        checked = check_file(name, chosen)
        if checked is None:
            code = USAGE
            continue
        report = _run_checks(checked, name, options)
        problems = report.problems
        errors = sum(d.severity == "error" for d in problems)
        warnings = len(problems) - errors
        if errors or (strict and warnings):
            code = max(code, FAILED)
        if fmt is Format.json:
            found.extend(as_json(d) for d in report.diagnostics)
            continue
        sources = report.sources()
        shown = [*problems, *report.notes]
        for d in sorted(shown, key=lambda d: (d.file != str(report.path), d.file, d.line, d.column)):
            show_diagnostic(out, d, sources.get(d.file))
        if coverage:
            show_coverage(out, report)
        if assumptions:
            show_reports(
                out, report, {codes.ASSUMPTION, codes.CONFLICT}, "Assumptions and conflicts", "none declared"
            )
        if play_games:
            show_reports(out, report, {codes.PLAY_SUMMARY}, "Play", "not played: the file has errors")
        counts = [plural(errors, "error"), plural(warnings, "warning")]
        notes = f" ({plural(len(report.notes), 'note')})" if report.notes else ""
        typer.echo(f"{name}: {', '.join(counts) if problems else 'no problems'}{notes}")
    if fmt is Format.json:
        echo_json(found)
    raise typer.Exit(code)


def _run_checks(checked: Checked, name: str, options: CheckOptions) -> Report:
    """`run_checks`, with a progress bar while `--play` plays its games (the long part)."""
    if not options.play:
        return run_checks(checked, name, options)
    with progress_bar() as progress:
        task = progress.add_task(escape(f"playing {Path(name).name}"), total=None)

        def played(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total, refresh=True)

        return run_checks(checked, name, replace(options, progress=played))


# The colours of a diagnostic's severity on a terminal (SGR codes: bold red, yellow, cyan).
_SEVERITY_COLOURS = {"error": "1;31", "warning": "1;33"}
_LEXER, _FORMATTER = MeepleLexer(), TerminalFormatter()


def show_diagnostic(out: Console, d: meeple.Diagnostic, source: str | None) -> None:
    """`FILE:LINE:COL: severity: message [CODE]`, the line, a caret and the hint; on a terminal the
    severity in colour and the source line in the colours of the docs' highlighter (the same
    Pygments lexer). Written in one piece, not through rich: a file with 100,000 warnings spent
    most of its check printing them, three rich renderings and an ANSI decoding each. The text
    is made visible (`visible`) first, so the only codes written are the colours added here."""
    text = visible(d.render(source))
    if not out.is_terminal:
        typer.echo(text)
        return
    head, _, rest = text.partition("\n")
    colour = _SEVERITY_COLOURS.get(d.severity, "1;36")
    head = head.replace(f" {d.severity}:", f" \x1b[{colour}m{d.severity}:\x1b[0m", 1)
    code, _, after = rest.partition("\n")
    lines = [head]
    if rest:
        lines.append(highlight(code, _LEXER, _FORMATTER).rstrip("\n"))
    if after:
        lines.append(after)
    out.file.write("\n".join(lines) + "\n")


def show_coverage(out: Console, report: Report) -> None:
    """The rulebook coverage as a table per section, then the paragraphs the rules do not cover."""
    book = report.rulebook
    if book is None:
        typer.echo("rulebook coverage: no rulebook to read (see the note above)")
        return
    *sections, total = report.coverage
    figures = total.as_data()
    missing = len(total.uncovered) + len(total.example_only) + len(total.unreachable_only)
    typer.echo(
        f"\nRulebook coverage of {book.path}: {figures['cited_percent']}% of {total.rule_paragraphs} rule "
        f"paragraphs covered by the rules ({len(total.conflict_only)} only by a conflict), {missing} not; "
        f"{total.asides} marked as not rules, "
        f"{total.excluded} left to other files; the quotes copy {figures['quoted_percent']}% of its words"
    )
    headings = ("Paragraphs", "Covered", "Not rules", "Elsewhere", "Not covered", "Quoted")
    table = Table("Section", *(Column(h, justify="right") for h in headings))
    for s in sections:
        data = s.as_data()
        table.add_row(
            escape("  " * s.level + s.title),
            str(s.paragraphs),
            f"{data['cited_percent']}%",
            str(s.asides),
            str(s.excluded),
            str(len(s.uncovered) + len(s.example_only) + len(s.unreachable_only)),
            f"{data['quoted_percent']}%",
        )
    out.print(table)
    for word, group in (
        ("uncovered", "uncovered"),
        ("covered only by a conflict", "conflict_only"),
        ("cited only by an example", "example_only"),
        ("cited only by a declaration the game never reaches", "unreachable_only"),
    ):
        for s in sections:
            for paragraph in getattr(s, group):
                typer.echo(
                    f"  {word}: {book.path.name}:{paragraph.line} ({s.title}): {paragraph.first_words}"
                )


def show_reports(out: Console, report: Report, codes: set[str], title: str, empty: str) -> None:
    """Info entries (assumptions, the play summary) as a titled list."""
    entries = [d for d in report.diagnostics if d.code in codes]
    typer.echo(f"\n{title}:" + ("" if entries or not empty else f" {empty}"))
    for d in entries:
        typer.echo(f"  {d.location()}: {d.message}")


@app.command()
@command
def play(
    rules: Annotated[str, RULES],
    players: Annotated[int | None, PLAYERS] = None,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_NUMBER, help="Seed of the game's dice and the random agents.")
    ] = 0,
    agents: Annotated[
        str,
        typer.Option(
            help="Comma-separated, one per seat, the last repeats: random, first, human, a style of the "
            "rules, or a search: mcts (1,000 playouts a decision), mcts:N (N playouts), "
            "mcts:Ts (T seconds, as 2s or 0.5s), each with :STYLE to finish its playouts as "
            "that style plays (mcts:500:STYLE)."
        ),
    ] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print only the result, as JSON.")] = False,
    log: Annotated[Path | None, typer.Option(help="Also write the result, a replayable log, here.")] = None,
    option: Annotated[list[str] | None, OPTIONS] = None,
    load: Annotated[Path | None, LOAD] = None,
    save: Annotated[
        Path | None,
        typer.Option(metavar="OUT.json", help="At the end, save what the rules carry (`carry`) here."),
    ] = None,
    teams: Annotated[str | None, TEAMS] = None,
    engine: Annotated[str | None, ENGINE] = None,
) -> None:
    """Play one whole game (or a whole sequence of games), then print its log and the results.

    The log is printed once. Without a human seat stdout holds it all: the game's record. With
    one, the humans were shown the log on stderr as it happened, up to their last decision (in
    players' words: without the engine's records of random picks, and each line that some seats
    alone may read, `reveal`, as the seat about to decide may read it), so stdout prints only the
    rest (what happened after it, whole: the game is over) before the results; `--log` keeps the
    whole game (its seed and choices), which `meeple replay` plays again, log and all."""
    game = load_game(rules, parse_options(option or []))
    if save is not None and not game.program.carried:
        raise Fail(f"error: --save: {game.name} carries nothing (its rules have no 'carry' line)", USAGE)
    loaded = read_save_or_fail(load) if load is not None else None
    agent_names = [n.strip() for n in agents.split(",") if n.strip()]
    asked = engine or os.environ.get("MEEPLE_ENGINE") or "auto"
    try:
        played_by, why = engine_of(game, agent_names or ["random"], asked)
    except ValueError as err:
        raise Fail(f"error: {err}", USAGE) from None
    if not as_json:
        note_engine(played_by, why)
    terminal = Terminal()
    layout = parse_teams(teams)
    state = play_game(
        game,
        rules,
        players,
        seed,
        agent_names,
        terminal,
        load=loaded,
        teams=layout,
        engine=played_by,
        auto=asked == "auto",
    )
    if state.engine != played_by:  # the core stopped on a limit of its own: Python played the game
        played_by, why = state.engine, CORE_LIMIT
    result = state.result()
    if save is not None:
        _write_save(save, state)
    if log is not None:
        _write_log(log, rules, result)
    if as_json:  # which engine played, and why not the native one
        because = {"python_because": why} if played_by == "python" else {}
        echo_json({**result, "engine": played_by, **because})
        return
    for line in terminal.kept(state):
        typer.echo(line, err=True)
    names = game.program.names
    looks = Looks(names) if terminal.humans and names is not None else None
    for line in state.log[terminal.seen :]:  # to people, a tile's place in words, as they read the rest
        typer.echo(say_place(looks, line) if looks is not None and isinstance(line, Said) else line)
    _print_results(game.name, seed, state, result)


def _write_save(save: Path, state: State) -> None:
    """`play --save`: what the rules carry, written where the user asked (a clear error if not)."""
    try:
        write_save(save, state.save())
    except OSError as err:
        raise Fail(f"error: cannot write the save {save}: {err.strerror or err}") from None


def _write_log(log: Path, rules: str, result: dict[str, Any]) -> None:
    """`play --log`: the result with the rules it was played by, named so `meeple replay` finds
    them again (a clear error if they cannot be named or written)."""
    path = meeple.resolve(rules)
    try:
        named = log_rules(path, log, bundled=path.resolve().parent == bundled_dir())
        write_log(log, {**result, "rules": named})
    except Refused as err:
        raise Fail(f"error: cannot write the log {log}: {err}") from None
    except OSError as err:
        raise Fail(f"error: cannot write the log {log}: {err.strerror or err}") from None


def _print_results(name: str, seed: int, state: State, result: dict[str, Any]) -> None:
    """The end of `play`'s output: the game, its seats and turns, then each seat's score, the
    teams and the winners, in players' words."""
    out = stdout()
    names = seat_names(state)  # the players, then the seats the rules play (on either engine)
    automata = "".join(f" and {name}" for name in names[state.players :])
    who = f"{plural(state.players, 'player')}{automata}"
    out.print(escape(f"\n{name}: {who}, seed {seed}, {state.turns} turns"))
    winners = result["winners"]
    # A solo game has a score, not a winner among players: its own log says whether the score
    # reached the game's goal, and "winner" beside a score that fell short would contradict it.
    # One player against a seat the rules play is not solo: one of them wins.
    solo = state.seats == 1
    table = Table("Seat", Column("Score", justify="right"), *([] if solo else [""]))
    for seat, score in enumerate(result["scores"]):
        table.add_row(
            escape(names[seat]), str(score), *([] if solo else ["winner" if seat in winners else ""])
        )
    out.print(table)
    if state.layout is not None:
        out.print(escape("Teams: " + "; ".join(" + ".join(names[s] for s in team) for team in state.layout)))
    if not solo:
        out.print(escape(f"{'Winner' if len(winners) == 1 else 'Winners'}: {seats_named(winners, names)}"))
    for what, missing in result["shortfalls"].items():
        out.print(escape(f"note: the rules asked for {missing} more {what} than there were"))


@app.command()
@command
def replay(
    log: Annotated[Path, typer.Argument(metavar="LOG.json", help="A log written by `meeple play --log`.")],
    rules: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="The rules to replay it with (default: the game the log names, if it is bundled "
            "or beside the log).",
        ),
    ] = None,
) -> None:
    """Replay a logged game from its seed and choices and say whether it ends the same way."""
    try:
        entry = read_log(log)
    except LogError as err:
        raise Fail(f"error: {err}") from None
    if rules is None:
        try:
            rules = str(resolve_named(entry.rules, log.parent, "a log"))
        except Refused as err:
            raise Fail(f"error: {log}: {err}; name the rules with --rules FILE") from None
    else:  # rules the user names that are not there are a wrong command line, not a wrong log
        try:
            meeple.resolve(rules)
        except FileNotFoundError as err:
            raise Fail(f"error: {err}", USAGE) from None
    try:
        game = load_game(rules, entry.options)
    except Fail as err:  # a log naming rules that are gone or broken is a bad log, not a bad command
        raise Fail(f"{err.message}\nerror: {log}: cannot load the rules the log was played with") from None
    try:
        state = position(game, entry)
    except meeple.IllegalChoice as err:
        raise Fail(f"error: {log} does not fit the rules of {entry.rules}: {err}") from None
    except SaveError as err:
        raise Fail(f"error: the save in {log} does not fit the rules of {entry.rules}: {err}") from None
    except (ValueError, TypeError) as err:  # a player count or teams the game does not allow
        raise Fail(f"error: {log}: {err}") from None
    except meeple.RuleRuntimeError as err:
        raise Fail(f"error: replaying {log}, a rule broke: {err}") from None
    actual = state.result()
    names = seat_names(state)
    differences = []
    for key in ("scores", "winners", "turns"):
        logged, replayed = getattr(entry, key), actual[key]
        if logged != replayed:
            if key == "winners":
                logged, replayed = seats_named(logged, names), seats_named(replayed, names)
            differences.append(f"  {key}: the log says {logged}, the replay gives {replayed}")
    if not state.is_over:
        differences.insert(0, f"  the log's choices end before the game does (next: {state.decision})")
    if differences:
        typer.echo(f"{log}: DIFFERENT from the log\n" + "\n".join(differences))
        raise typer.Exit(FAILED)
    winners = actual["winners"]
    won = f", {'winner' if len(winners) == 1 else 'winners'} {seats_named(winners, names)}"
    typer.echo(
        f"{log}: same: {game.name}, {plural(state.players, 'player')}, seed {state.seed}, "
        f"{state.turns} turns, scores {actual['scores']}{won if state.seats > 1 else ''}"  # solo: as `play`
    )


@app.command("test")
@command
def test_examples(
    files: Annotated[
        list[str], typer.Argument(metavar="FILE", help="Rules files (or bundled game names) to test.")
    ],
    option: Annotated[list[str] | None, OPTIONS] = None,
) -> None:
    """Run the `example` blocks of rules files: each one's position, choices and expectations."""
    code = OK
    passed = failed = loaded = 0
    chosen = parse_options(option or [])
    for name in files:
        try:
            game = load_game(name, chosen)
        except Fail as err:
            typer.echo(err.message, err=True)
            code = max(code, err.code)
            continue
        loaded += 1
        examples = game.program.examples
        if not examples:
            typer.echo(f"{name}: no examples")
        with progress_bar() as progress:  # each result is said as it comes, above the bar
            task = progress.add_task(escape(Path(name).name), total=len(examples))
            for example in examples:
                r = run_example(game, example)
                say(f"{'PASS' if r.passed else 'FAIL'} {name}:{r.line}: {r.name}")
                for failure in r.failures:
                    say(f"    {failure}")
                passed += r.passed
                failed += not r.passed
                progress.update(task, advance=1, refresh=True)
    if failed:
        code = max(code, FAILED)
    if loaded:  # a tally of nothing would read as a run that found no fault
        typer.echo(f"{plural(passed, 'example')} passed, {failed} failed")
    raise typer.Exit(code)


@app.command("list")
@command
def list_games() -> None:
    """The games that ship with meeple: play them by name (`meeple play NAME`).

    Each game's header is all it shows, so each file is only parsed, not analysed or compiled
    (half the time that loading every game takes); `meeple check` says whether a game is sound."""
    table = Table("Name", "Game", "Players", title="Bundled games")
    for path in meeple.bundled_games():
        try:
            header = read_header(path)
        except meeple.RulesError as err:
            table.add_row(path.stem, "[red]does not load[/red]", plural(len(err.diagnostics), "error"))
            continue
        except Refused as err:
            table.add_row(path.stem, "[red]cannot be read[/red]", escape(str(err)))
            continue
        table.add_row(path.stem, escape(header.name), f"{header.min_players}-{header.max_players}")
    stdout().print(table)


@app.command("lsp")
@command
def lsp() -> None:
    """A language server for editors: diagnostics, hover, definitions, completion, outline.

    It speaks the Language Server Protocol on stdin and stdout; an editor starts it. It needs the
    optional `lsp` dependencies (docs/editors.md)."""
    try:
        from meeple.lsp import main as serve
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in {"pygls", "lsprotocol"}:
            raise
        raise Fail(f"error: meeple lsp needs {err.name}: pip install 'meeple[lsp]'", USAGE) from None
    serve(sys.stdin.buffer, real_stream(sys.stdout).buffer)  # the protocol's bytes: no terminal's text


@app.command()
@command
def serve(
    rules: Annotated[str, RULES],
    players: Annotated[int | None, PLAYERS] = None,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_NUMBER, help="Seed of the game's dice and the agents.")
    ] = 0,
    agents: Annotated[
        str,
        typer.Option(
            help="One per seat, comma-separated, the last repeats: human (at the page), random, first, a "
            "style of the rules, or a search: mcts (1,000 playouts a decision), mcts:N (N playouts), "
            "mcts:Ts (T seconds, as 2s or 0.5s), each with :STYLE to finish its playouts as "
            "that style plays (mcts:500:STYLE)."
        ),
    ] = "human",
    port: Annotated[int, typer.Option(min=1, max=65535, help="The port to serve the page on.")] = 8000,
    host: Annotated[
        str, typer.Option(help="The address to listen on (any but 127.0.0.1 lets others in).")
    ] = "127.0.0.1",
    option: Annotated[list[str] | None, OPTIONS] = None,
    load: Annotated[Path | None, LOAD] = None,
    teams: Annotated[str | None, TEAMS] = None,
) -> None:
    """Serve a playtest page: people play the game in a browser, against each other and agents."""
    try:
        from meeple.serve.app import Session, run
    except ImportError:
        raise Fail(
            "error: `meeple serve` needs the serve extra: pip install 'meeple[serve]'", USAGE
        ) from None
    game = load_game(rules, parse_options(option or []))
    loaded = read_save_or_fail(load) if load is not None else None
    names = [n.strip() for n in agents.split(",") if n.strip()]
    count = game.min_players if players is None else players
    try:  # the page's saved log names the rules as the game does (a bundled one by its name)
        session = Session(game, game.path, count, seed, names, loaded, parse_teams(teams))
    except SaveError as err:
        raise Fail(f"error: the save does not fit the rules: {err}") from None
    except ValueError as err:  # a player count out of range, an unknown agent name
        raise Fail(f"error: {err}", USAGE) from None
    except (meeple.RuleRuntimeError, meeple.IllegalChoice) as err:
        raise Fail(f"error: {err}") from None
    say(f"{game.name}: playtest page at http://{host}:{port}/ (Ctrl-C stops it)")
    if not run(session, host, port):
        raise Fail(f"error: cannot serve the page at {host}:{port}")


app.command("docs")(command(docs))
app.command("simulate")(command(simulate))
app.command("compare")(command(compare))

if __name__ == "__main__":
    app()
