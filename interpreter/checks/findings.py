"""What every check reports: a diagnostic that may carry data, with its code's usual severity
(the codes are registered in meeple/codes.py).

The command line promises one shape for everything `meeple check` says (`FILE:LINE:COL`, a severity,
a code, a hint), so the reports that are not problems (rulebook coverage, the list of assumptions,
the summary of played games) are diagnostics too, of severity `info`, with their figures in
`data`. A tool that reads `--format json` then handles one kind of entry, and can ignore codes it
does not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple import codes
from meeple.diagnostics import Diagnostic, Severity
from meeple.grammar import ast


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
        severity or codes.REGISTRY[code].severity,
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
