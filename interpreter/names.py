"""The names players read: of every declaration, every table row, every phase and step.

A rules file names things for a machine (`owner_token`, `magic_caves`, `st1`); the printed
rulebook names them as the publisher does ("Owner token", "Magic Caves"). A declaration, a phase
or a step is given its players' name by a `called "Name", "Plural"` line among its metadata; a
table gives its rows theirs in a column named `called`, or makes each row's name of its cells by a
`called each "{self.column} ..."` line. Anything not named so is called by its
name in words (`owner_token` reads "owner token"), and plurals are made by English's rules
unless the `called` line gives one. Nothing here knows a game: the names come from the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.values import article as article
from meeple.interpreter.values import humanise
from meeple.interpreter.values import with_article as with_article

CALLED_COLUMN = ast.CALLED_COLUMN
_SIBILANT = re.compile(r"(s|x|z|ch|sh)$", re.IGNORECASE)
_CONSONANT_Y = re.compile(r"[^aeiou]y$", re.IGNORECASE)


def plural(words: str) -> str:
    """The plural of a name by English's regular rules, on its last word ("gold coin" ->
    "gold coins", "family" -> "families", "box" -> "boxes"). Irregular ones are written in the
    `called` line."""
    head, _, last = words.rpartition(" ")
    if _CONSONANT_Y.search(last):
        last = last[:-1] + "ies"
    elif _SIBILANT.search(last):
        last += "es"
    elif last:
        last += "s"
    return f"{head} {last}" if head else last


@dataclass(frozen=True)
class Name:
    """A thing's name as players read it, one and many."""

    one: str
    many: str

    @classmethod
    def of(cls, one: str, many: str | None = None) -> Name:
        return cls(one, many if many is not None else plural(one))

    def count(self, n: int) -> str:
        """`1 coin`, `5 coins`."""
        return f"{n} {self.one if n == 1 else self.many}"

    def count_label(self, n: int) -> str:
        """A kind named by a table row: `25 pebbles`, but `17 Gold`: a capitalised row name is a
        label (a brand, a size), printed as it is."""
        return f"{n} {self.one}" if self.one[:1].isupper() else self.count(n)


def called_each(table: ast.Table) -> ast.CalledEach | None:
    """The `called each` line among a table's lines, which names each of its rows from its cells."""
    return next((m for m in table.meta if isinstance(m, ast.CalledEach)), None)


def called(metas: list[ast.Meta]) -> ast.Called | None:
    """The `called` line among a declaration's metadata (or a phase's or step's own lines)."""
    return next((m for m in metas if isinstance(m, ast.Called)), None)


def numbered(block: ast.Named) -> int | None:
    """The number the rulebook gives a phase or step (`numbered 2`), if the file says it."""
    return next((m.number for m in own_lines(block) if isinstance(m, ast.Numbered)), None)


def own_lines(block: ast.Named, module: ast.Module | None = None) -> list[ast.Meta]:
    """A phase's or step's own metadata lines: those written in it, not those a variant
    inserted into it (they stand in the variant's file, and speak for what they insert), but
    those a variant's `reword` gave it in place of its words (with `module`, the merged game
    whose rewords they are): they speak for the whole block, as the words they replace did."""
    reworded = {id(m) for patch in module.rewords for m in patch.meta} if module is not None else set()
    return [
        s
        for s in block.body
        if isinstance(s, ast.Meta) and (s.span.file == block.span.file or id(s) in reworded)
    ]


class Names:
    """Every name of one module that players read."""

    def __init__(self, symbols: Symbols) -> None:
        self.sym = symbols
        self._decls: dict[str, Name] = {}
        for decl in symbols.module.decls:
            name = getattr(decl, "name", None)
            line = called(decl.meta)
            # A `carry` line's `called` heads what it keeps in the rulebook: it names no declaration.
            if isinstance(name, str) and line is not None and not isinstance(decl, ast.CarryDecl):
                self._decls.setdefault(name, Name.of(line.value, line.plural))
        self._rows: dict[tuple[str, str], Name] = {}
        for table in symbols.tables.values():
            columns = [c.name for c in table.columns]
            if CALLED_COLUMN not in columns[1:]:
                continue
            at = columns.index(CALLED_COLUMN)
            for row in table.rows:
                if (
                    len(row.cells) > at
                    and isinstance(row.cells[0], str)
                    and isinstance(cell := row.cells[at], str)
                ):
                    self._rows[(table.name, row.cells[0])] = Name.of(cell)
        self._blocks: dict[int, Name] = {}
        for body in ast.statement_lists(symbols.module.decls):
            for stmt in body:
                if isinstance(stmt, ast.Named):
                    line = called(own_lines(stmt))
                    if line is not None:
                        self._blocks[id(stmt)] = Name.of(line.value, line.plural)

    def decl(self, name: str) -> Name:
        """A declaration's name (a piece, a zone, a variable, a rule...), by its name in the file."""
        return self._decls.get(name) or Name.of(humanise(name))

    def row(self, table: str, key: str) -> Name:
        """A table row's name: its `called` cell, or its key in words."""
        return self.called_row(table, key) or Name.of(humanise(key))

    def called_row(self, table: str, key: str) -> Name | None:
        """A table row's `called` cell, if its table has the column."""
        return self._rows.get((table, key))

    def key(self, key: str) -> Name:
        """A row named by its key alone (`magic_caves`): the row of the one table that has it."""
        tables = self.sym.row_keys.get(key, [])
        return self.row(tables[0], key) if len(tables) == 1 else Name.of(humanise(key))

    def block(self, node: ast.Named) -> Name:
        """A phase's or step's name: its `called` line, or its name in words."""
        return self._blocks.get(id(node)) or Name.of(humanise(node.name))
