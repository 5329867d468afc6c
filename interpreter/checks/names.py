"""Names players read (M056): where a `called` or `numbered` line may stand, and a table's `called` column.

`called "Name"` names the declaration it belongs to, or the phase or step it stands directly in;
anywhere else (inside an `if`, a loop, an example) it would name nothing, and a second one for
the same thing would be silently ignored. A table names its rows in a column called `called`,
whose cells are texts, or of their cells by one `called each` line. The printed rulebook reads
these names (interpreter/names.py).
"""

from __future__ import annotations

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter.checks.findings import Finding, at

COLUMN = ast.CALLED_COLUMN


def check_names(module: ast.Module) -> list[Finding]:
    out: list[Finding] = []
    placed: set[int] = set()  # the `called` lines that name something
    for decl in module.decls:
        out += _once([m for m in decl.meta if isinstance(m, ast.Called)], placed)
    for body in ast.statement_lists(module.decls):
        for stmt in body:
            if isinstance(stmt, ast.Named):
                out += _once([s for s in stmt.body if isinstance(s, ast.Called)], placed)
    every = [m for m in module.meta if isinstance(m, ast.Called)]
    every += [n for d in module.decls for n in d.find_all(ast.Called)]
    seen: set[int] = set()
    for line in every:
        if id(line) in placed or id(line) in seen:
            continue
        seen.add(id(line))
        out.append(
            at(
                line,
                codes.BAD_CALLED,
                "this 'called' names nothing: it names the declaration it belongs to, or the phase or "
                "step it stands in",
                "move it among the declaration's lines, or to the first lines of the phase or step",
            )
        )
    out += _numbers(module)
    tables = [d for d in module.decls if isinstance(d, ast.Table)]
    for table in tables:
        out += _column(table)
        out += _called_each(table)
    owned = {id(m) for table in tables for m in table.meta if isinstance(m, ast.CalledEach)}
    every_each = [m for m in module.meta if isinstance(m, ast.CalledEach)]
    every_each += [n for d in module.decls for n in d.find_all(ast.CalledEach) if id(n) not in owned]
    for each in every_each:
        out.append(
            at(
                each,
                codes.BAD_CALLED,
                "this 'called each' names nothing: it names the rows of the table it belongs to",
                "move it among the table's lines",
            )
        )
    return out


def _numbers(module: ast.Module) -> list[Finding]:
    """A `numbered` line numbers the phase or step it stands directly in, once: anywhere else the
    printed rules would follow no number."""
    out: list[Finding] = []
    placed: set[int] = set()
    for body in ast.statement_lists(module.decls):
        for stmt in body:
            if isinstance(stmt, ast.Named):
                lines = [s for s in stmt.body if isinstance(s, ast.Numbered)]
                placed.update(id(line) for line in lines)
                again = f"a second number for the same step (the first is {lines[0].number})" if lines else ""
                out += [at(line, codes.BAD_CALLED, again) for line in lines[1:]]
    every = [m for m in module.meta if isinstance(m, ast.Numbered)]
    every += [n for d in module.decls for n in d.find_all(ast.Numbered)]
    for line in every:
        if id(line) not in placed:
            placed.add(id(line))
            out.append(
                at(
                    line,
                    codes.BAD_CALLED,
                    "this 'numbered' numbers nothing: it gives the phase or step it stands in its number "
                    "in the rulebook",
                    "move it to the first lines of a phase or step",
                )
            )
    return out


def _called_each(table: ast.Table) -> list[Finding]:
    """A table has one `called each` line (analysis checks that its parts are its columns)."""
    lines = [m for m in table.meta if isinstance(m, ast.CalledEach)]
    first = lines[0].value if lines else ""
    again = f"a second name for each row (the first is '{first}')"
    return [at(line, codes.BAD_CALLED, again) for line in lines[1:]]


def _once(lines: list[ast.Called], placed: set[int]) -> list[Finding]:
    placed.update(id(line) for line in lines)
    return [
        at(line, codes.BAD_CALLED, f"a second name for the same thing (the first is '{lines[0].value}')")
        for line in lines[1:]
    ]


def _column(table: ast.Table) -> list[Finding]:
    names = [c.name for c in table.columns]
    if COLUMN not in names[1:]:
        return []
    index = names.index(COLUMN)
    out = []
    for row in table.rows:
        if index < len(row.cells) and (not isinstance(row.cells[index], str) or row.names[index]):
            out.append(
                at(
                    row,
                    codes.BAD_CALLED,
                    f"a row of '{table.name}' is named in its '{COLUMN}' column by a quoted text",
                )
            )
    return out
