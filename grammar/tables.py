"""Table rows from a CSV file: `table NAME (COLUMNS) from "FILE.csv"`.

A game's data (hundreds of tiles or cards) is easier to keep in a spreadsheet than inline,
and a designer edits it without Python. The file's rows become the table's rows exactly as rows
written in the rules file would: the same cells (a number, `yes`/`no`, `-` for none, a name, a
text), with the file, line and column of each cell, so that analysis reports a wrong cell where
it stands in the CSV file. Its first line names the columns, in the order the table declares
them: a file whose columns moved is refused, never read into the wrong columns.

How a cell is read follows its column's type: an `int` column reads a whole number, a `bool`
column `yes` or `no`, a `text` column the cell as written, a column that refers to a table (or
the first, the rows' names) a name. An untyped column reads what the cell looks like, as an
unquoted cell of the rules file would be read, or else as text. An empty cell or `-` is none.
Reading the file (where it may be, how big) is the loader's: this module only reads its text.
"""

from __future__ import annotations

import csv
import re

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.limits import MAX_DIGITS, MAX_LIST

CODE = codes.BAD_TABLE_FILE
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INT = re.compile(r"-?[0-9]+")


def read_rows(text: str, file: str, table: ast.Table) -> tuple[list[ast.Row], list[Diagnostic]]:
    """The rows of a CSV file for a table, and what is wrong with it (located in the file)."""
    problems: list[Diagnostic] = []

    def problem(line: int, column: int, message: str, hint: str = "", end: int = 0) -> None:
        problems.append(Diagnostic(file, line, column, "error", CODE, message, hint, end_column=end))

    records: list[tuple[int, list[str]]] = []  # (line, cells): one record a line, blank lines skipped
    for number, source in enumerate(text.split("\n"), 1):
        if not source.strip():
            continue
        try:
            records.append((number, next(csv.reader([source.rstrip("\r")], strict=True))))
        except csv.Error as err:
            problem(number, 1, f"not a CSV line: {err}", "a cell is one line; a text with commas is quoted")
    if problems:
        return [], problems
    if not records:
        problem(1, 1, f"the file has no header line naming the columns of table '{table.name}'")
        return [], problems
    wanted = [c.name for c in table.columns]
    header_line, header = records[0][0], [cell.strip() for cell in records[0][1]]
    if header != wanted:
        problem(
            header_line,
            1,
            f"the header line names the columns {', '.join(header) or '(none)'}; "
            f"table '{table.name}' has {', '.join(wanted)}",
            "the first line lists the table's columns, in its order",
        )
        return [], problems
    if len(records) - 1 > MAX_LIST:
        problem(header_line, 1, f"more than {MAX_LIST:,} rows")
        return [], problems
    rows: list[ast.Row] = []
    lines = text.split("\n")
    for line, record in records[1:]:
        source = lines[line - 1].rstrip("\r")
        spans = _cell_columns(source)
        if len(record) != len(wanted):
            problem(line, 1, f"{len(record)} cells, but table '{table.name}' has {len(wanted)} columns")
            continue
        cells: list[ast.Cell] = []
        names: list[bool] = []
        for index, (raw, column) in enumerate(zip(record, table.columns, strict=True)):
            start, end = spans[index] if index < len(spans) else (1, 1)
            value, is_name, error = _cell(raw.strip(), column, first=index == 0)
            if error:
                problem(line, start, f"column '{column.name}': {error}", end=end)
            cells.append(value)
            names.append(is_name)
        span = ast.Span(file=file, line=line, column=1, end_line=line, end_column=len(source) + 1)
        rows.append(ast.Row(span=span, cells=cells, names=names, cell_columns=spans[: len(cells)]))
    return rows, problems


def _cell(raw: str, column: ast.Column, first: bool) -> tuple[ast.Cell, bool, str]:
    """A cell's value, whether it is a name (a reference or a row's key), and what is wrong."""
    kind = column.type.name if column.type is not None else None
    if raw in ("", "-"):
        return None, False, ""
    if kind == "text" or column.name == ast.CALLED_COLUMN:  # the names players read: a text
        return raw, False, ""
    if kind == "int" or (kind is None and not first and _INT.fullmatch(raw)):
        if not _INT.fullmatch(raw):
            return None, False, f"'{raw}' is not a whole number"
        if len(raw.lstrip("-")) > MAX_DIGITS:
            return None, False, f"a number of more than {MAX_DIGITS} digits"
        return int(raw), False, ""
    if kind == "bool" or (kind is None and not first and raw in ("yes", "no")):
        if raw not in ("yes", "no"):
            return None, False, f"'{raw}' is not yes or no"
        return raw == "yes", False, ""
    if _NAME.fullmatch(raw):
        return raw, True, ""
    if kind is None and not first:
        return raw, False, ""  # an untyped column's text
    return None, False, f"'{raw}' is not a name (letters, digits and _, not starting with a digit)"


def _cell_columns(line: str) -> list[tuple[int, int]]:
    """Where each cell of a one-line record starts and ends (1-based, end excluded), split at
    the commas outside double quotes."""
    out, start, quoted = [], 0, False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            out.append((start + 1, i + 1))
            start = i + 1
    out.append((start + 1, len(line) + 1))
    return out
