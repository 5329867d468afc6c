"""Diagnostics: what every stage reports to the user about their rules.

Every message a user can cause names the file, line and column, shows the line with a caret and
says what was expected in the user's words. Stages collect diagnostics instead of raising, so
that one `meeple check` run reports all of them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Literal

# error and warning are problems (a warning fails `check --strict`); a note is said to the user and
# never fails a check; info entries are reports (coverage, assumptions) printed only when asked.
Severity = Literal["error", "warning", "note", "info"]
SHOWN = 120  # characters of a source line shown under a diagnostic


@lru_cache(maxsize=8)
def _lines(source: str) -> tuple[str, ...]:
    """A file's lines, split once for all the diagnostics shown in it (splitting it for each one
    made a file with thousands of warnings take quadratic time)."""
    return tuple(source.split("\n"))


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    column: int
    severity: Severity
    code: str
    message: str
    hint: str = ""
    end_column: int = 0

    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def render(self, source: str | None) -> str:
        """`FILE:LINE:COL: severity: message`, then the source line and a caret under the column.
        Lines are counted as the parser counts them (at `\\n` only: a form feed or U+2028 inside
        a text does not start a line), and a very long line is shown around the caret."""
        out = [f"{self.location()}: {self.severity}: {self.message} [{self.code}]"]
        lines = _lines(source) if source is not None else ()
        if 0 < self.line <= len(lines):
            text = lines[self.line - 1].rstrip("\r")
            width = max(1, self.end_column - self.column) if self.end_column > self.column else 1
            column = max(0, self.column - 1)
            if len(text) > SHOWN:
                start = max(0, min(column - SHOWN // 4, len(text) - SHOWN))
                text = ("..." if start else "") + text[start : start + SHOWN] + "..."
                column -= start - (3 if start else 0)
                width = min(width, SHOWN)
            text = "".join(" " if ch.isspace() else ch for ch in text)  # a tab or form feed moves no caret
            out.append("    " + text)
            out.append("    " + " " * column + "^" * min(width, max(1, len(text) - column)))
        if self.hint:
            out.append(f"    hint: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


class RulesError(Exception):
    """Raised when a rules file cannot be loaded; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None) -> None:
        self.diagnostics = diagnostics
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources.get(d.file)) for d in self.diagnostics)
