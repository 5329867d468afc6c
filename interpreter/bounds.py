"""An analysis pass: what no machine can hold, and values that can never give an answer (M020,
M025, M026).

A rules file from a stranger may ask for a billion pieces, players numbered in the quintillions,
a range no memory holds, or a value that calls itself for ever. The running game stops each of
these with an error when it happens (meeple/limits.py); this pass says so before anything runs,
wherever the file states it plainly: in literal numbers, and in values whose every answer needs
an answer of themselves first.
"""

from __future__ import annotations

from collections.abc import Iterator

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.geometry import board_cells
from meeple.limits import MAX_CELLS, MAX_LIST, MAX_PIECES, MAX_SEATS


def check_bounds(symbols: Symbols) -> list[Diagnostic]:
    return [*_player_counts(symbols), *_sizes(symbols), *_endless_values(symbols)]


def _at(node: ast.Node, code: str, message: str, hint: str = "") -> Diagnostic:
    span = node.span
    end = span.end_column if span.end_line == span.line else 0
    return Diagnostic(span.file, max(span.line, 1), max(span.column, 1), "error", code, message, hint, end)


def _player_counts(symbols: Symbols) -> Iterator[Diagnostic]:
    header = symbols.header
    if header is not None and header.max_players > MAX_SEATS:
        yield _at(
            header, codes.BAD_HEADER, f"a game is for at most {MAX_SEATS} players, not {header.max_players}"
        )


def _number(e: ast.Expr | None) -> int | None:
    """A whole number written as such (`3`, `-3`), or None."""
    if isinstance(e, ast.Num):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.Num):
        return -e.operand.value
    return None


def _sizes(symbols: Symbols) -> Iterator[Diagnostic]:
    """Counts of pieces and ranges, where the file writes them as numbers."""
    for piece in symbols.pieces.values():
        count = _number(piece.count)
        if count is not None and count > MAX_PIECES:
            yield _at(
                piece.count or piece,
                codes.COUNT_TOO_LARGE,
                f"{count} pieces is more than a game can hold (at most {MAX_PIECES:,} pieces in all)",
            )
    for m in symbols.maps.values():
        sizes = [_number(term) for term in m.size]
        if m.outline is not None and all(n is not None and n > 0 for n in sizes):
            cells = board_cells(m.outline, [n for n in sizes if n is not None])
            if cells > MAX_CELLS:
                too_many = f"a board of {cells:,} cells is more than a game can hold (at most {MAX_CELLS:,})"
                yield _at(m, codes.COUNT_TOO_LARGE, too_many)
    for decl in symbols.module.decls:
        for node in decl.find_all(ast.Binary):
            low, high = _number(node.left), _number(node.right)
            if node.op == ".." and low is not None and high is not None and high - low + 1 > MAX_LIST:
                yield _at(
                    node,
                    codes.COUNT_TOO_LARGE,
                    f"the range {low}..{high} holds {high - low + 1:,} numbers: "
                    f"a list holds at most {MAX_LIST:,}",
                )


def _calls_always(e: ast.Node) -> Iterator[ast.Call]:
    """The calls an expression makes whatever happens: not those in one branch of `if ... then
    ... else`, after the first side of `and`/`or`, or inside a list's items (the list may be
    empty)."""
    stack = [e]
    while stack:
        node = stack.pop()
        match node:
            case ast.Call():
                yield node
                stack.extend(node.args)
            case ast.IfExpr():
                stack.append(node.cond)
            case ast.Binary(op="and" | "or"):
                stack.append(node.left)
            case ast.Filter():
                stack.append(node.seq)
            case ast.MapComp():
                stack.append(node.seq)
            case _:
                stack.extend(node.children())


def _endless_values(symbols: Symbols) -> Iterator[Diagnostic]:
    """M026: a value that needs itself (directly or through other values) before it can answer."""
    values = symbols.values
    needs = {
        name: {c.func for c in _calls_always(decl.expr) if c.func in values} for name, decl in values.items()
    }
    for name, decl in values.items():
        seen, todo, path = set(), [(n, [n]) for n in needs[name]], None
        while todo and path is None:
            current, via = todo.pop()
            if current == name:
                path = via
            elif current not in seen:
                seen.add(current)
                todo.extend((n, [*via, n]) for n in needs[current])
        if path is not None:
            through = "" if len(path) == 1 else f" (through {', '.join(repr(p) for p in path[:-1])})"
            yield _at(
                decl,
                codes.VALUE_NEEDS_ITSELF,
                f"value '{name}' always calls itself{through}: it can never give an answer",
                "give it a case that answers without calling itself: if ... then ... else",
            )
