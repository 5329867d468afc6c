"""What the language server knows of one version of a document, found once when it is checked:
the names it declares, every word of its files, and which names each declaration binds for
itself. Hover, definition, completion, references and rename read this index instead of walking
the module on every request (`meeple/lsp.py`).

Built from the AST and the source texts alone (no analysis of its own): a declaration is what
`declared` lists; a use is a word of a file that spells a declared name where the language would
look that name up: outside texts (but inside a text's `{...}` parts) and comments, outside a
table's rows and column headings, not after a `.` unless the name is an attribute a declaration
adds (a zone or variable `per` an owner), and not inside a declaration that binds the name for
itself (a parameter, a `let`, a loop's or a choice's variable), as the analyzer's lookup order
puts those first (docs/language.md, "Names").

Positions are the AST's: lines and columns counted from 1, in characters, lines split at `\\n`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from meeple.grammar import ast
from meeple.grammar.words import _definitions as grammar_definitions
from meeple.grammar.words import words as grammar_words
from meeple.interpreter import attributes as attribute_table
from meeple.interpreter.analysis import Symbols, is_keyed, type_of_ref
from meeple.interpreter.own_names import OWN_NAMES
from meeple.interpreter.types import ANY, LOC, PLAYER, Row, Type

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A file's words: a comment, a text (whose `{...}` parts are read again), or a name.
_TOKEN = re.compile(r'(?P<comment>#[^\n]*)|(?P<text>"(?:[^"\\\n]|\\.)*"?)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)')
_PART = re.compile(r"\{([^{}\"\n]*)\}")

# Each kind of declaration, by the word it is shown with.
KIND_WORDS: dict[type[ast.Node], str] = {
    ast.VariantHeader: "variant",
    ast.GameHeader: "game",
    ast.OptionDecl: "option",
    ast.Constant: "constant",
    ast.Table: "table",
    ast.PieceDecl: "piece",
    ast.ComponentDecl: "component",
    ast.ZoneDecl: "zone",
    ast.CounterDecl: "counter",
    ast.VarDecl: "var",
    ast.MapDecl: "map",
    ast.MovementDecl: "movement",
    ast.RuleDecl: "rule",
    ast.ValueDecl: "value",
    ast.TriggerDecl: "when",
    ast.SetupDecl: "setup",
    ast.PlayDecl: "play",
    ast.ScoreDecl: "score",
    ast.StyleDecl: "style",
    ast.AutomatedDecl: "automated",
    ast.TeamsDecl: "teams",
    ast.Example: "example",
    ast.Named: "phase",
    ast.ReplaceDecl: "replace",
    ast.ReplaceBlock: "replace",
    ast.RemoveDecl: "remove",
    ast.InsertBlock: "insert",
    ast.Reword: "reword",
    ast.ExtendTable: "extend table",
    ast.ExtendSetup: "extend setup",
}


def lines_of(text: str) -> list[str]:
    return text.split("\n")  # as the parser counts lines: at `\n` only


@dataclass(frozen=True)
class Place:
    """Where a word stands: its file, its line and its columns (the end one past its last)."""

    file: str
    line: int
    start: int
    end: int


@dataclass
class Declared:
    """A name a file declares, where its name stands, and the declaration."""

    name: str
    kind: str
    node: ast.Decl | ast.Named
    place: Place


@dataclass(frozen=True)
class Word:
    """A name written in a file, and whether it follows a `.` (an attribute)."""

    place: Place
    attribute: bool


@dataclass
class Scope:
    """A declaration of the module, the lines it spans in its file, and the names it binds for
    itself (parameters, `let`s, loop and choice variables: found when first asked)."""

    decl: ast.Decl
    first: int
    last: int
    bound: set[str] | None = None

    @property
    def binds(self) -> set[str]:
        if self.bound is None:
            self.bound = binds(self.decl)
        return self.bound


@dataclass
class Index:
    """The declarations and words of one version of a document (and of the files it includes)."""

    module: ast.Module
    sources: dict[str, str]
    declarations: dict[str, list[Declared]] = field(default_factory=dict)
    lines: dict[str, list[str]] = field(default_factory=dict)  # each file's lines
    written: dict[str, list[Word]] = field(default_factory=dict)  # each name's words, once asked
    scopes: dict[str, list[Scope]] = field(default_factory=dict)  # by file, in line order
    owned: set[str] = field(default_factory=set)  # names read as an attribute: `p.NAME`
    rows: dict[str, set[int]] = field(default_factory=dict)  # by file: the lines of tables' rows
    headings: set[Place] = field(default_factory=set)  # where tables name their columns

    def declared(self, name: str) -> list[Declared]:
        return self.declarations.get(name, [])

    def scope_at(self, file: str, line: int) -> Scope | None:
        """The declaration a line of a file stands in."""
        scopes = self.scopes.get(file, [])
        at = bisect.bisect_right([s.first for s in scopes], line) - 1
        if at >= 0 and scopes[at].first <= line <= scopes[at].last:
            return scopes[at]
        return None

    def is_local(self, name: str, file: str, line: int) -> bool:
        """Whether `name` at this line is bound by the declaration it stands in, not a declared name."""
        scope = self.scope_at(file, line)
        return scope is not None and name in scope.binds

    def words(self, name: str) -> list[Word]:
        """Every place `name` is written as a word of the language, in every file (found when first
        asked: reading every word of a long game takes longer than a request may)."""
        if name not in self.written:
            found = []
            for file, lines in self.lines.items():
                for number, line in enumerate(lines, start=1):
                    if name in line:
                        found += [w for n, w in words_of(line, file, number) if n == name]
            self.written[name] = found
        return self.written[name]

    def references(self, name: str) -> list[Place]:
        """Every place the declared `name` is written: its declarations, then its uses."""
        if name not in self.declarations:
            return []
        out: list[Place] = [d.place for d in self.declarations[name]]
        seen = set(out)
        for word in self.words(name):
            where = word.place
            if where in seen or where in self.headings or where.line in self.rows.get(where.file, set()):
                continue
            if word.attribute and name not in self.owned:
                continue
            if self.is_local(name, where.file, where.line):
                continue
            seen.add(where)
            out.append(where)
        return out


def name_around(line: str, character: int) -> str | None:
    """The name under a 0-based character of a line (or just before it, where it ends a word)."""
    found = name_span(line, character)
    return line[found[0] : found[1]] if found else None


def name_span(line: str, character: int) -> tuple[int, int] | None:
    """Where the name under a 0-based character of a line starts and ends (0-based, end past it)."""
    for match in NAME.finditer(line):
        if match.start() <= character <= match.end():
            return match.start(), match.end()
    return None


def build(module: ast.Module) -> Index:
    """The index of a module: its declarations, found once; uses are found when asked for."""
    sources = dict(module.sources) or {module.file: module.source}
    sources.setdefault(module.file, module.source)
    split = {file: lines_of(text) for file, text in sources.items()}
    index = Index(module, sources, lines=split)
    for d in declared(module, split):
        index.declarations.setdefault(d.name, []).append(d)
    for decl in module.decls:
        if isinstance(decl, ast.ZoneDecl | ast.VarDecl | ast.MapDecl) and decl.per:
            index.owned.add(decl.name)
        if isinstance(decl, ast.Table | ast.ExtendTable):
            index.rows.setdefault(decl.span.file, set()).update(r.span.line for r in decl.rows)
        if isinstance(decl, ast.Table):
            for column in decl.columns:
                s = column.span
                index.headings.add(Place(s.file, s.line, s.column, s.column + len(column.name)))
        scope = Scope(decl, decl.span.line, decl.span.end_line or decl.span.line)
        index.scopes.setdefault(decl.span.file, []).append(scope)
    for scopes in index.scopes.values():
        scopes.sort(key=lambda s: s.first)
    return index


def words_of(line: str, file: str, number: int) -> Iterator[tuple[str, Word]]:
    """Every name written on a line, outside comments and texts, and inside texts' `{...}` parts."""
    for token in _TOKEN.finditer(line):
        if token.lastgroup == "name":
            place = Place(file, number, token.start() + 1, token.end() + 1)
            yield token.group(), Word(place, line[: token.start()].rstrip().endswith("."))
        elif token.lastgroup == "text":
            for part in _PART.finditer(token.group()):
                inside, offset = part.group(1), token.start() + part.start(1)
                for name in NAME.finditer(inside):
                    start = offset + name.start() + 1
                    place = Place(file, number, start, start + len(name.group()))
                    yield name.group(), Word(place, inside[: name.start()].rstrip().endswith("."))


_BINDING_FIELDS = ("var", "piece_var", "loc_var", "step_var", "through_var", "ends_var")


def binds(decl: ast.Decl) -> set[str]:
    """The names a declaration binds for itself: its parameters and `let`s, and the variables of
    its loops, choices, lists and triggers (each a field named `var` or `..._var`)."""
    out: set[str] = set()
    for node in decl.walk():
        if isinstance(node, ast.Param | ast.Let):
            out.add(node.name)
        for name in _BINDING_FIELDS:
            value = getattr(node, name, None)
            if isinstance(value, str):
                out.add(value)
    return out


def _name_at(lines: Sequence[str], node: ast.Node, name: str) -> tuple[int, int, int]:
    """Where a declaration writes its name: the first time the name stands as a word on its
    first line after the first word (`rule NAME`, `var NAME: NAME`), else its first word."""
    line = node.span.line
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    after = text.find(" ", max(0, node.span.column - 1))
    for match in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
        if after >= 0 and match.start() >= after:
            return line, match.start() + 1, match.end() + 1
    return line, node.span.column, node.span.column + 1


def named_steps(body: Sequence[ast.Stmt]) -> Iterator[ast.Named]:
    """The phases and steps directly in a block, through the ifs and loops around them (those
    inside a phase or step are its own)."""
    for stmt in body:
        if isinstance(stmt, ast.Named):
            yield stmt
        else:
            for block in stmt.blocks():
                yield from named_steps(block)


def declared(module: ast.Module, split: dict[str, list[str]] | None = None) -> list[Declared]:
    """Every name the module declares (a variant's: its base game's too, where they stand), and
    every phase and step of its flow."""
    split = split if split is not None else {module.file: lines_of(module.source)}
    out: list[Declared] = []

    def add(name: str, kind: str, node: ast.Decl | ast.Named) -> None:
        lines = split.get(node.span.file, [])
        line, start, end = _name_at(lines, node, name)
        out.append(Declared(name, kind, node, Place(node.span.file, line, start, end)))

    for decl in module.decls:
        name = getattr(decl, "name", None)
        kind = KIND_WORDS.get(type(decl), "")
        if isinstance(name, str) and NAME.fullmatch(name) and not isinstance(decl, ast.GameHeader):
            add(name, kind, decl)
    for body in ast.statement_lists(module.decls):
        for stmt in body:
            if isinstance(stmt, ast.Named):
                add(stmt.name, stmt.kind, stmt)
    return out


# ---------------------------------------------------------------------- what fits at a cursor


def type_of(index: Index, symbols: Symbols, name: str, file: str, line: int) -> Type:
    """The type the analyzer gave a name written at a line (PLAYER, Row(TABLE)...; ANY when
    it is not known): a name the declaration there binds, as the analyzer typed its uses in that
    declaration (or its parameter's type); else a built-in name, a constant, a variable or a row."""
    scope = index.scope_at(file, line)
    if scope is not None and name in scope.binds:
        for node in scope.decl.walk():
            if isinstance(node, ast.Param) and node.name == name and node.type is not None:
                return type_of_ref(node.type, symbols)
            if isinstance(node, ast.Name) and node.id == name and symbols.types.get(id(node), ANY) != ANY:
                return symbols.types[id(node)]
        return ANY
    if name in OWN_NAMES:
        return OWN_NAMES[name].type
    if name in symbols.constants:
        return symbols.types.get(id(symbols.constants[name].value), ANY)
    if name in symbols.vars:
        decl = symbols.vars[name]
        return type_of_ref(decl.type, symbols) if decl.type else symbols.types.get(id(decl.init), ANY)
    tables = symbols.row_keys.get(name, [])
    return Row(tables[0]) if len(tables) == 1 else ANY


def attributes(symbols: Symbols, owner: Type) -> dict[str, str]:
    """The attributes a value of a type has, each with what it is: what may follow its `.`
    (docs/language.md, "Attributes"). The language's own are the attribute table's
    (interpreter/attributes.py), with its lines; a player's and a row's are what the rules
    declare."""
    out: dict[str, str] = {}
    if owner == PLAYER:
        out[attribute_table.SEAT.name] = attribute_table.SEAT.doc
        out |= {z: "zone per player" for z in symbols.owned_zones.get("player", {})}
        out |= {v: "var per player" for v in symbols.owned_vars.get("player", {})}
        out |= {m: "map per player" for m, decl in symbols.maps.items() if decl.per == "player"}
    elif isinstance(owner, Row) and owner.table in symbols.tables:
        of = owner.table
        out |= {c.name: f"column of {of}" for c in symbols.tables[of].columns}
        out |= {z: f"zone per {of}" for z in symbols.owned_zones.get(of, {})}
        out |= {v: f"var per {of}" for v in symbols.owned_vars.get(of, {})}
    elif owner == LOC:
        out[attribute_table.ZONE_OWNER.name] = attribute_table.ZONE_OWNER.doc
    elif (kind := attribute_table.BY_TYPE.get(type(owner))) is not None:
        out |= {name: a.doc for name, a in kind.attributes.items()}
        if kind.further is not None:
            out |= attributes(symbols, kind.further(owner, symbols))
    return out


def rows_of(table: ast.Table) -> list[str]:
    """The names of a keyed table's rows (`TABLE.row`); a relation table's rows have none."""
    if not is_keyed(table):
        return []
    return [str(row.cells[0]) for row in table.rows if row.cells and isinstance(row.cells[0], str)]


def in_scope(index: Index, symbols: Symbols, file: str, line: int) -> dict[str, str]:
    """The names an expression at a line may read, in the analyzer's lookup order (docs/
    language.md, "Names"), each with what it is."""
    out: dict[str, str] = {}
    scope = index.scope_at(file, line)
    if scope is not None:
        out |= {name: "local name" for name in sorted(scope.binds)}
    kinds = (
        ("constant", symbols.constants),
        ("var", symbols.vars),
        ("zone", symbols.zones),
        ("table", symbols.tables),
        ("map", symbols.maps),
        ("piece", symbols.pieces),
        ("value", symbols.values),
        ("rule", symbols.rules),
        ("movement", symbols.movements),
    )
    for kind, names in kinds:
        for name in names:
            out.setdefault(name, kind)
    for name in OWN_NAMES:
        out.setdefault(name, "built-in name")
    for key, tables in symbols.row_keys.items():
        out.setdefault(key, f"row of {tables[0]}")
    return out


@cache
def expression_words() -> frozenset[str]:
    """The keywords an expression may hold (`and`, `if`, `each`, `yes`...): those of the grammar's
    rules an expression is made of."""
    definitions = grammar_definitions()
    seen: set[str] = set()
    todo = ["expr"]
    found: set[str] = set()
    while todo:
        rule = todo.pop()
        if rule in seen or rule not in definitions:
            continue
        seen.add(rule)
        body = definitions[rule]
        found |= grammar_words(body)
        todo += re.findall(r"\b[a-z_][a-z_0-9]*\b", re.sub(r'"[^"]*"|/(?:[^/\\]|\\.)+/', "", body))
    return frozenset(found)
