"""Texts that show a value: `text "A pawn moves up to {pawn_reach} squares"`.

A number the rules declare once (a constant, a table cell) is often stated again in the words
for players. Written as `{NAME}` (a constant or an option) or `{ROW.COLUMN}` (a cell of a table
whose rows have names), the text shows the value the game has: a variant that changes the
constant changes its words too, and the two can never disagree. `{{` and `}}` are a brace.

Filled by the loader once the game is compiled (the constants' values are known then), in every
`text` and `says` line, so that everything that shows a text (the rulebook, the reference, the
player aid) shows the filled one; the words as written stay in `Meta.written` for the checks.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from typing import Any

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.grammar.transformer import ESCAPES
from meeple.interpreter.analysis import is_keyed

CODE_UNKNOWN = codes.UNKNOWN_NAME  # an unknown name, as anywhere else in the rules
CODE_KIND = codes.WRONG_TYPE  # a value of the wrong kind
KINDS = ("text", "says", "brief")  # the metadata whose words may show values
_PLACE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?")


def places(text: str) -> Iterator[tuple[int, int, str | None]]:
    """Each `{...}` of a text, and each brace: (start, end, what stands inside). `{{` and `}}`
    give None, a lone brace or a `{}` gives "" (a mistake)."""
    for match in _PLACE.finditer(text):
        found = match.group(0)
        if found in ("{{", "}}"):
            yield match.start(), match.end(), None
        else:
            yield match.start(), match.end(), match.group(1) or ""


def outside_places(text: str) -> str:
    """A text with its `{...}` parts blanked (each character a space, so that what is found in
    it stands where it does in the text): the words it states literally."""
    return _PLACE.sub(lambda match: " " * len(match.group(0)), text)


def _shown(value: Any) -> str | None:
    """A value as a text shows it: a number, yes or no, a text; None for anything else."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | str):
        return str(value)
    return None


def text_span(module: ast.Module, meta: ast.Meta, start: int, end: int) -> ast.Span:
    """Where characters `start` to `end` of a meta line's text stand in its file: its quoted
    string read the way the parser unquotes it (an escape is two characters of the line)."""
    lines = module.sources.get(meta.span.file, module.source).split("\n")
    if not 0 < meta.span.line <= len(lines):
        return meta.span
    line = lines[meta.span.line - 1]
    at = line.find('"', max(0, meta.span.column - 1))
    if at < 0:
        return meta.span
    raw, read, columns = at + 1, 0, []
    while read <= end and raw <= len(line):
        columns.append(raw + 1)
        raw += 2 if line[raw : raw + 1] == "\\" and line[raw + 1 : raw + 2] in ESCAPES else 1
        read += 1
    if len(columns) <= end:
        return meta.span
    return meta.span.model_copy(
        update={"column": columns[start], "end_line": meta.span.line, "end_column": columns[end]}
    )


Problem = tuple[int, int, str, str, str]  # start, end (in the text), code, message, hint


def fill_texts(module: ast.Module, constants: Mapping[str, Any]) -> list[Diagnostic]:
    """Fill every `{NAME}` of the module's texts with the value it names (the compiled game's
    `constants`, the tables' cells), in place; return what names nothing or cannot be shown,
    located at its brace. A text with such a mistake is left as written."""
    values: dict[str, Any] = {}
    for table in module.decls:
        if isinstance(table, ast.Table) and is_keyed(table):
            for row in table.rows:
                for column, cell in zip(table.columns[1:], row.cells[1:], strict=False):
                    values[f"{row.cells[0]}.{column.name}"] = cell
    values.update(constants)
    # Each once: a rule holds its `text` line both in its body and as its own metadata.
    found = [m for d in module.decls for m in d.find_all(ast.Meta)]
    found += [m for top in module.meta for m in top.find_all(ast.Meta)]
    metas = list({id(m): m for m in found}.values())
    out: list[Diagnostic] = []
    for meta in metas:
        if meta.kind not in KINDS or meta.written is not None or not any(True for _ in places(meta.value)):
            continue
        filled, problems = _fill(meta.value, values)
        for start, end, code, message, hint in problems:
            span = text_span(module, meta, start, end)
            out.append(
                Diagnostic(span.file, span.line, span.column, "error", code, message, hint, span.end_column)
            )
        if not problems:
            meta.written, meta.value = meta.value, filled
    return out


def _fill(text: str, values: Mapping[str, Any]) -> tuple[str, list[Problem]]:
    """A text with its places filled from `values`, and the places that cannot be."""
    out, problems, last = [], [], 0
    for start, end, inside in places(text):
        out.append(text[last:start])
        last = end
        name = inside.strip() if inside is not None else None
        if name is None:
            out.append(text[start])
        elif not _NAME.fullmatch(name):
            message = "braces in a text name a constant, {name}, or a table's cell, {row.column}"
            problems.append((start, end, CODE_UNKNOWN, message, "write '{{' and '}}' for a brace"))
        elif name not in values:
            close = difflib.get_close_matches(name, list(values), n=1)
            what = "row and column" if "." in name else "constant"
            hint = f"did you mean '{{{close[0]}}}'?" if close else ""
            problems.append((start, end, CODE_UNKNOWN, f"no {what} '{name}' to show in this text", hint))
        elif (shown := _shown(values[name])) is None:
            message = f"'{name}' is not a number, yes/no or a text: a text cannot show it"
            problems.append((start, end, CODE_KIND, message, ""))
        else:
            out.append(shown)
    out.append(text[last:])
    return "".join(out), problems
