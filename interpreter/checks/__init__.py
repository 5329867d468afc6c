"""`meeple check`: whether a rules file holds together, statically and by play.

One module per family of checks, each returning diagnostics (`findings.Finding`, codes M040 and
up; `docs/checking.md` documents every one):

- `usage`: declarations the game never uses, rules it never reaches, variables it never reads,
  triggers that can never fire;
- `flow`: loops that never end, statements that can never run, choices nobody makes, chances of 0;
- `supply`: setup run for every allowed player count: counts that do not add up, setups that break;
- `rulebook`: citations found in the rulebook, and how much of the rulebook the rules cover;
- `names`: the names players read (`called`), where they stand;
- `briefs`: rules whose words the player aid cuts short, with no `brief`;
- `stale`: a variant's changed number that a text of its base game still states, and a text
  of its base game about a rule, value or movement the variant replaces or removes;
- `assumptions`: every `assume` and `conflict`, listed;
- `play`: random games with coverage: what never ran, supplies that ran short, games that broke;
- `syntax`: common mistakes named in the designer's words (used by the parser).

Beside them: `findings` (the codes and the diagnostic with data), `walk` (walking the AST without
knowing every node; values known without playing) and `driving` (running setup or a game the way
`meeple play` does, with coverage and shortfalls placed at their statements).

`run_checks` runs them in that order over what `meeple.check` (parse and analysis) found. The
checks that need a sound program (usage, flow, setup, play) run only when analysis found no error:
on a broken file they would mostly repeat its errors in other words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.checks.assumptions import list_assumptions
from meeple.interpreter.checks.briefs import check_briefs
from meeple.interpreter.checks.findings import Finding, as_json
from meeple.interpreter.checks.flow import check_flow
from meeple.interpreter.checks.names import check_names
from meeple.interpreter.checks.play import check_play
from meeple.interpreter.checks.rulebook import (
    Rulebook,
    SectionCoverage,
    check_citations,
    check_quotes,
    coverage,
    coverage_findings,
    locate_rulebook,
)
from meeple.interpreter.checks.stale import check_stale_numbers, check_stale_texts
from meeple.interpreter.checks.supply import check_setup
from meeple.interpreter.checks.usage import Usage, check_usage
from meeple.interpreter.checks.walk import Known
from meeple.interpreter.compiler import compile_program
from meeple.interpreter.engine import Game
from meeple.limits import DEFAULT_BUDGET

if TYPE_CHECKING:
    from meeple.loader import Checked

__all__ = ["CheckOptions", "Finding", "Report", "as_json", "run_checks"]


@dataclass
class CheckOptions:
    """What `meeple check` was asked to do beyond the static checks."""

    rulebook: Path | None = None  # a rulebook file, or a folder to find it in (else the search path)
    coverage: bool = False  # report how much of the rulebook the citations cover
    assumptions: bool = False  # list every assume and conflict
    play: int = 0  # random games per allowed player count
    budget: int = DEFAULT_BUDGET  # step budget of each game (and of each setup run)
    # Told (games played, games to play) after each game of `play`: a command's progress bar.
    progress: Callable[[int, int], None] | None = None


@dataclass
class Report:
    """Everything `meeple check` found in one rules file."""

    rules: str  # the file as the user named it (a path, or a bundled game's name)
    path: Path
    source: str
    diagnostics: list[Diagnostic]
    rulebook: Rulebook | None = None
    coverage: list[SectionCoverage] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # a variant's base game files, by name

    @property
    def problems(self) -> list[Diagnostic]:
        """Errors and warnings (not the notes, nor the info entries that carry reports)."""
        return [d for d in self.diagnostics if d.severity in {"error", "warning"}]

    @property
    def notes(self) -> list[Diagnostic]:
        """What the user is told that never fails a check (citations not checked...)."""
        return [d for d in self.diagnostics if d.severity == "note"]

    def sources(self) -> dict[str, str]:
        """The text of each file a diagnostic may point into: the file, and for a variant its base."""
        return {**self.files, str(self.path): self.source}


def _option_game(checked: Checked, options: dict[str, str], rules: str) -> Game | None:
    """The game `checked` is under other values of its options, compiled with coverage; None
    when it has an error under them. The file is read once (`loader.read_kept`) and checked
    here, not kept by the loader: a check kept its Program without coverage, compiled again with
    it here, for each option (a variant with six option games compiled 13 times instead of 7),
    and each process kept every one of those games while it ran."""
    from meeple.loader import check_names, finish_check, uncollected  # the loader runs the checks

    with uncollected():
        other = finish_check(check_names(checked.path, options, checked.files), coverage=True)
    return Game(other.program, rules) if other.ok and other.program is not None else None


def _option_games(checked: Checked, rules: str) -> list[tuple[str, Game]]:
    """The game under each other value of each option chosen from a table (a scenario, a board
    size): setup is run under every one of them too, since a setup step may serve only some.
    Options of numbers, texts and yes/no have too many values to try."""
    from meeple.interpreter.sequence import game_options

    module = checked.module
    if module is None:
        return []
    tables = {d.name: d for d in module.decls if isinstance(d, ast.Table)}
    out = []
    for decl in module.decls:
        if not isinstance(decl, ast.OptionDecl) or decl.type.name not in tables:
            continue
        for row in tables[decl.type.name].rows:
            value = str(row.cells[0])
            if value == checked.options.get(decl.name):
                continue
            game = _option_game(checked, {**checked.options, decl.name: value}, rules)
            if game is not None:
                out.append((f"{decl.name}={value}", game))
    # a sequence's games (interpreter/sequence.py): each under the options its line gives
    sequence = next((d for d in module.decls if isinstance(d, ast.SequenceDecl)), None)
    for line in sequence.games if sequence is not None else []:
        own = {name: text for name, text in game_options(line).items() if text != checked.options.get(name)}
        if not own:
            continue
        game = _option_game(checked, {**checked.options, **own}, rules)
        if game is not None:
            out.append((", ".join(f"{k}={v}" for k, v in own.items()), game))
    return out


def run_checks(checked: Checked, rules: str, options: CheckOptions) -> Report:
    """Every check on a file `meeple.check` has read; `rules` names it in reproduce commands."""
    report = Report(rules, checked.path, checked.source, list(checked.diagnostics), files=checked.sources)
    module, symbols = checked.module, checked.symbols
    if module is None:
        return report  # a syntax error: nothing else can be known
    diags = report.diagnostics
    diags += check_quotes(module)
    diags += check_names(module)
    diags += check_briefs(module)
    diags += check_stale_numbers(module)
    diags += check_stale_texts(module)
    book, missing = locate_rulebook(module, options.rulebook)
    diags += missing
    if book is not None:
        report.rulebook = book
        usage = Usage(symbols) if checked.ok and symbols is not None else None
        cited = check_citations(module, book, usage.is_live if usage is not None else None)
        diags += cited.findings
        if options.coverage:
            report.coverage = coverage(book, cited)
            diags += coverage_findings(book, report.coverage, rules)
    if options.assumptions:
        diags += list_assumptions(module)
    if not checked.ok or symbols is None or checked.program is None:
        return report
    program = compile_program(symbols, coverage=True)
    game = Game(program, rules)
    diags += check_usage(symbols, diags)
    diags += check_flow(symbols, Known(symbols, program.constants), diags)
    others = _option_games(checked, rules)
    diags += check_setup(game, symbols, rules, options.budget, unrun=not options.play, others=others)
    if options.play:
        diags += check_play(game, symbols, rules, options.play, options.budget, diags, options.progress)
    return report
