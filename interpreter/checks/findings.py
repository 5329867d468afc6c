"""What every check reports: a diagnostic that may carry data, and the table of codes.

The command line promises one shape for everything `meeple check` says (`FILE:LINE:COL`, a severity,
a code, a hint), so the reports that are not problems (rulebook coverage, the list of assumptions,
the summary of played games) are diagnostics too, of severity `info`, with their figures in
`data`. A tool that reads `--format json` then handles one kind of entry, and can ignore codes it
does not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple.diagnostics import Diagnostic, Severity
from meeple.grammar import ast

# Every code the checks report: its usual severity and what it means (docs/checking.md lists them
# in the same words; a test keeps the two in step).
CODES: dict[str, tuple[Severity, str]] = {
    "M040": ("warning", "a table, piece, zone, map or variable the game never uses"),
    "M041": (
        "warning",
        "a rule, value or constant that nothing reached from setup, play, a trigger or the score uses",
    ),
    "M042": ("warning", "a variable the rules change but never read"),
    "M043": ("warning", "a trigger that can never fire: nothing the game runs moves that kind of piece"),
    "M044": ("error", "setup asks for more pieces (or cards to draw) than there are, for some player count"),
    "M045": ("error", "setup breaks for some player count: a runtime error, or the step budget"),
    "M046": ("warning", "a 'while' that never ends once it starts: its body cannot change its condition"),
    "M047": (
        "warning",
        "a statement or branch that can never run (a condition always no, nothing to go through, "
        "a chance of 0, after 'end game')",
    ),
    "M048": ("warning", "a 'choose' that always has exactly one option: nobody ever decides"),
    "M049": ("error", "a 'random' whose every outcome has a chance of 0"),
    "M050": (
        "warning",
        "a citation (cites or aside), or a section named by `rulebook ... except`, that is not in the "
        "rulebook; the hint shows the closest passage",
    ),
    "M051": (
        "note",
        "citations not checked: the rulebook named in the header is not found (or cannot be read)",
    ),
    "M052": ("warning", "a citation found in several passages of the rulebook"),
    "M053": (
        "warning",
        "the header names its rulebook with a folder, or the file quotes a rulebook its header does not name",
    ),
    "M054": (
        "warning",
        "a citation or aside longer than twelve words: it copies the rulebook instead of locating a passage",
    ),
    "M055": (
        "error",
        "a conflict that does not quote the two passages that disagree and say the reading followed, "
        "or whose passage is not in the rulebook",
    ),
    "M056": (
        "warning",
        "a 'called' that names nothing (not among a declaration's lines, nor directly in a phase or "
        "step), a second one for the same thing, or a 'called' column cell that is not a text",
    ),
    "M060": (
        "warning",
        "a rule, trigger, statement or branch that never ran (setup for every player count, or --play)",
    ),
    "M061": ("warning", "a supply that ran short in the games played (--play)"),
    "M062": ("error", "a game that hit the step budget or never ended (--play)"),
    "M063": ("error", "a decision that had to be made but had no option (--play)"),
    "M064": ("error", "a rule that broke while a game was played (--play)"),
    "M065": ("error", "an error inside the engine while a game was played (--play)"),
    "M069": ("info", "what --play played: games, player counts, errors"),
    "M070": ("info", "rulebook coverage of one section (--coverage)"),
    "M071": ("info", "a rulebook paragraph that no citation or aside covers (--coverage)"),
    "M072": ("info", "rulebook coverage overall, and the share of its words the quotes copy (--coverage)"),
    "M073": (
        "info",
        "a rulebook paragraph cited only by an example, or only by a declaration the game never "
        "reaches (--coverage)",
    ),
    "M080": ("info", "an assumption (assume) the rules make (--assumptions)"),
    "M081": ("info", "a conflict (conflict) in the rulebook and how the rules settle it (--assumptions)"),
    "M092": (
        "warning",
        "a variant changes a number (a constant, a table cell) that a text of its base game still "
        "states, in a passage about it, instead of showing it with {name}",
    ),
}


@dataclass(frozen=True, eq=False)
class Finding(Diagnostic):
    """A diagnostic with figures attached (`data`), printed as JSON with the other fields."""

    data: dict[str, Any] = field(default_factory=dict)


def at(
    node: ast.Node | ast.Span,
    code: str,
    message: str,
    hint: str = "",
    severity: Severity | None = None,
    data: dict[str, Any] | None = None,
) -> Finding:
    """A finding at a node's place, with the code's usual severity unless told otherwise."""
    span = node if isinstance(node, ast.Span) else node.span
    end = span.end_column if span.end_line == span.line else 0
    return Finding(
        span.file,
        max(span.line, 1),
        max(span.column, 1),
        severity or CODES[code][0],
        code,
        message,
        hint,
        end,
        data or {},
    )


def as_json(diag: Diagnostic) -> dict[str, Any]:
    """One entry of `meeple check --format json`: every diagnostic has `data` (empty for most)."""
    out = diag.to_json()
    out.setdefault("data", {})
    return out
