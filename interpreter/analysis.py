"""Analysis: names, types and static diagnostics over the AST.

Builds the symbol tables the compiler needs and reports, with file, line and column, what can
be known before a game is played: unknown and duplicate names, wrong argument counts, unknown
attributes, type mismatches, table rows that do not fit their columns, a `choose` that can never
have an option, and declarations nothing uses.

Types are values (interpreter/types.py): `INT`, `PLAYER`, `Row("colour")`, `ListOf(Piece("card"))`
and `ANY` (unknown: accepted everywhere). The checker is a guide for designers, not a proof
system: where it cannot tell, it says nothing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.grammar.words import statement_words
from meeple.interpreter import attributes
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.own_names import OWN_NAMES, SELF
from meeple.interpreter.results import RESULTS
from meeple.interpreter.teams import check_layout, parse_layout
from meeple.interpreter.types import (
    ANY,
    BOOL,
    BOTTOM,
    INT,
    KIND,
    LOC,
    MOVEMENT,
    NAMED,
    PLAYER,
    SCALAR_WORDS,
    SCALARS,
    TEXT,
    Cell,
    Grid,
    ListOf,
    Piece,
    Placement,
    Row,
    Rows,
    Type,
    element,
)
from meeple.limits import MAX_SEATS

if TYPE_CHECKING:
    from meeple.interpreter.carry import Carried

ORDINALS = ("first", "second", "third", "fourth", "fifth")

# Built-in names (values, not calls).
# Words that start a statement (grammar/meeple.lark): a rule named so could never be called, since
# `NAME(...)` at the start of a line would read as that statement.
STATEMENT_WORDS = statement_words()


_SHOWN = re.compile(r"\{[^{}]*\}")  # a `{...}` part, as a log line writes one


@dataclass(frozen=True)
class Site:
    """A statement that asks a player something: a `choose` or `may choose` ("choose"), a
    `for each ... chosen by` ("order"), a `may "..."` ("ask"), or an `offer` ("offer", the
    offered rule's name as `rule`). `scope` is what a style's condition there may read: the
    names in scope at the statement (the option's name among them), with their types."""

    kind: str
    rule: str
    var: str | None
    optional: bool
    stmt: ast.Node
    scope: dict[str, Type]


@dataclass
class Symbols:
    """Every declaration of a module, by kind and name: what the compiler and codegen read."""

    module: ast.Module
    header: ast.GameHeader | None = None
    constants: dict[str, ast.Constant] = field(default_factory=dict)
    tables: dict[str, ast.Table] = field(default_factory=dict)
    pieces: dict[str, ast.PieceDecl] = field(default_factory=dict)
    components: dict[str, ast.ComponentDecl] = field(default_factory=dict)  # for players: never played
    zones: dict[str, ast.ZoneDecl] = field(default_factory=dict)  # shared zones
    owned_zones: dict[str, dict[str, ast.ZoneDecl]] = field(default_factory=dict)  # owner -> name -> decl
    vars: dict[str, ast.VarDecl] = field(default_factory=dict)  # global variables
    owned_vars: dict[str, dict[str, ast.VarDecl]] = field(default_factory=dict)  # owner -> name -> decl
    maps: dict[str, ast.MapDecl] = field(default_factory=dict)
    movements: dict[str, ast.MovementDecl] = field(default_factory=dict)
    counters: dict[str, ast.CounterDecl] = field(default_factory=dict)  # for statistics: never read
    styles: dict[str, ast.StyleDecl] = field(default_factory=dict)  # ways to play, for simulated players
    # Every statement that asks a player, with the rule it is in and the names it sees: where a
    # style's preferences apply, and what their conditions may read.
    sites: list[Site] = field(default_factory=list)
    preferred: dict[int, list[Site]] = field(default_factory=dict)  # id(preference) -> where it applies
    places: set[str] = field(
        default_factory=set
    )  # tables whose rows the rules move pieces to: their maps make them places
    rules: dict[str, ast.RuleDecl] = field(default_factory=dict)
    values: dict[str, ast.ValueDecl] = field(default_factory=dict)
    triggers: list[ast.TriggerDecl] = field(default_factory=list)
    setup: ast.SetupDecl | None = None
    play: ast.PlayDecl | None = None
    score: ast.ScoreDecl | None = None
    tiebreak: ast.ScoreDecl | None = None
    examples: list[ast.Example] = field(default_factory=list)
    # Seats the rules play, in seat order after the players; whether the game is played in teams.
    automata: list[ast.AutomatedDecl] = field(default_factory=list)
    teams: ast.TeamsDecl | None = None
    row_keys: dict[str, list[str]] = field(default_factory=dict)  # key -> tables that have it
    types: dict[int, Type] = field(default_factory=dict)  # id(expression) -> its type, for the compiler
    # carried state (interpreter/carry.py) and the sequence of games (interpreter/sequence.py)
    carried: list[Carried] = field(default_factory=list)
    sequence: ast.SequenceDecl | None = None

    def column_type(self, table: str, column: str) -> Type:
        decl = self.tables[table]
        for index, col in enumerate(decl.columns):
            if col.name == column:
                if index == 0 and is_keyed(decl):
                    return TEXT
                return type_of_ref(col.type, self) if col.type else TEXT
        return ANY


def type_of_ref(ref: ast.TypeRef | None, symbols: Symbols) -> Type:
    """The type a column, a parameter or a variable names: a word of the language, a table (a
    row of it) or `piece`; ANY for what is none of these."""
    if ref is None:
        return ANY
    if ref.name in SCALAR_WORDS:
        return NAMED[ref.name]
    if ref.name in symbols.tables:
        return Row(ref.name)
    if ref.name == "piece":
        return Piece()
    return NAMED.get(ref.name, ANY)


class Analyzer:
    def __init__(self, module: ast.Module) -> None:
        self.module = module
        self.sym = Symbols(module)
        self.destinations: set[int] = set()  # the expressions that stand where pieces go
        # The types of the places each movement's routes start on (`routes(start, NAME, ...)`): a
        # `step` line's place is of that type, so it is checked once every call has been.
        self.route_starts: dict[str, set[Type]] = {}
        self.diags: list[Diagnostic] = []
        self.used: set[str] = set()
        self.rule = ""  # the rule whose statements are being analysed ("" in setup, play...)
        self.seen: dict[str, ast.Node] = {}  # "namespace:name" -> where it was declared first
        # Each movement's parameters and `start`: the scope its `step` line is checked in, last.
        self.movement_scopes: dict[str, dict[str, Type]] = {}

    # -------------------------------------------------------------- reporting

    def error(self, node: ast.Node, code: str, message: str, hint: str = "") -> None:
        self._report(node, "error", code, message, hint)

    def warning(self, node: ast.Node, code: str, message: str, hint: str = "") -> None:
        self._report(node, "warning", code, message, hint)

    def _report(self, node: ast.Node, severity: str, code: str, message: str, hint: str) -> None:
        span = node.span
        end = span.end_column if span.end_line == span.line else 0
        self.diags.append(
            Diagnostic(span.file, span.line, span.column, severity, code, message, hint, end)  # type: ignore[arg-type]
        )

    def _suggest(self, name: str, candidates: Iterable[str]) -> str:
        close = difflib.get_close_matches(name, list(candidates), n=1)
        return f"did you mean '{close[0]}'?" if close else ""

    # -------------------------------------------------------------- declarations

    def collect(self) -> None:
        """Every declaration into the symbols, by its kind's `collect_X` method; then what
        needs them all (the owners named by `per`, the keys of the tables' rows)."""
        for decl in self.module.decls:
            ast.handler(self, "collect_", decl, "the collection of declarations")(decl)
        if self.sym.header is None:
            self.error(
                self.module, codes.BAD_HEADER, "the file has no game header", 'start with: game "Name":'
            )
        if self.sym.play is None:
            self.error(
                self.module, codes.NO_PLAY, "the file has no play block", "add 'play:' with the game's flow"
            )
        for name in list(self.sym.owned_zones) + list(self.sym.owned_vars):
            if name != "player" and name not in self.sym.tables:
                for decl in [
                    *self.sym.owned_zones.get(name, {}).values(),
                    *self.sym.owned_vars.get(name, {}).values(),
                ]:
                    self.error(decl, codes.UNKNOWN_NAME, f"'per {name}': expected 'player' or a table name")
        for group in self.sym.owned_vars.values():
            for decl in group.values():
                if decl.by is not None and decl.by not in self.sym.tables:
                    self.error(
                        decl, codes.UNKNOWN_NAME, f"'per {decl.per}, {decl.by}': '{decl.by}' is not a table"
                    )
        for table in self.sym.tables.values():
            for row in table.rows if is_keyed(table) else []:
                if row.cells and isinstance(row.cells[0], str):
                    self.sym.row_keys.setdefault(row.cells[0], []).append(table.name)

    def declare(self, name: str, node: ast.Node, namespace: str = "") -> None:
        """A name declared once in its namespace; a second declaration is an error."""
        key = f"{namespace}:{name}"
        if key in self.seen:
            prev = self.seen[key].span
            self.error(node, codes.DECLARED_TWICE, f"'{name}' is declared twice (first at line {prev.line})")
        else:
            self.seen[key] = node

    def collect_GameHeader(self, decl: ast.GameHeader) -> None:
        if self.sym.header is not None:
            self.error(decl, codes.DECLARED_TWICE, "a file has one game header")
        self.sym.header = decl
        if not 1 <= decl.min_players <= decl.max_players:
            self.error(
                decl,
                codes.BAD_HEADER,
                "the player range must be like 2..5, smallest first, from 1",
            )

    def collect_Constant(self, decl: ast.Constant) -> None:
        self.declare(decl.name, decl)
        self.sym.constants[decl.name] = decl

    def collect_Table(self, decl: ast.Table) -> None:
        self.declare(decl.name, decl)
        self.sym.tables[decl.name] = decl

    def collect_PieceDecl(self, decl: ast.PieceDecl) -> None:
        self.declare(decl.name, decl)
        self.sym.pieces[decl.name] = decl

    def collect_ComponentDecl(self, decl: ast.ComponentDecl) -> None:
        self.declare(decl.name, decl)
        self.sym.components[decl.name] = decl

    def collect_ZoneDecl(self, decl: ast.ZoneDecl) -> None:
        if decl.per is None:
            self.declare(decl.name, decl)
            self.sym.zones[decl.name] = decl
        else:
            self.declare(decl.name, decl, decl.per or "")
            self.sym.owned_zones.setdefault(decl.per or "", {})[decl.name] = decl

    def collect_CounterDecl(self, decl: ast.CounterDecl) -> None:
        self.declare(decl.name, decl)
        self.sym.counters[decl.name] = decl

    def collect_StyleDecl(self, decl: ast.StyleDecl) -> None:
        self.declare(decl.name, decl, "style")
        self.sym.styles[decl.name] = decl

    def collect_AutomatedDecl(self, decl: ast.AutomatedDecl) -> None:
        """A seat the rules play (interpreter/seats.py)."""
        self.declare(decl.name, decl, "seat")
        self.sym.automata.append(decl)

    def collect_TeamsDecl(self, decl: ast.TeamsDecl) -> None:
        if self.sym.teams is not None:
            self.error(decl, codes.DECLARED_TWICE, "a file says once whether its game is played in teams")
        self.sym.teams = decl
        if not 1 <= decl.smallest <= decl.largest:
            self.error(decl, codes.BAD_HEADER, "team sizes must be like 1..2, smallest first, from 1")

    def collect_VarDecl(self, decl: ast.VarDecl) -> None:
        if decl.per is None:
            self.declare(decl.name, decl)
            self.sym.vars[decl.name] = decl
            if decl.by is not None:
                self.error(
                    decl,
                    codes.WRONG_TYPE,
                    "'per OWNER, TABLE' names an owner first: per player, TABLE",
                )
        else:
            self.declare(decl.name, decl, decl.per or "")
            self.sym.owned_vars.setdefault(decl.per or "", {})[decl.name] = decl

    def collect_MapDecl(self, decl: ast.MapDecl) -> None:
        self.declare(decl.name, decl)
        self.sym.maps[decl.name] = decl

    def collect_MovementDecl(self, decl: ast.MovementDecl) -> None:
        self.declare(decl.name, decl)
        self.sym.movements[decl.name] = decl

    def collect_RuleDecl(self, decl: ast.RuleDecl) -> None:
        self.declare(decl.name, decl)
        if decl.name in STATEMENT_WORDS:
            self.error(
                decl,
                codes.RULE_NAMED_LIKE_STATEMENT,
                f"a rule cannot be called '{decl.name}': the word starts a statement",
                f"call it e.g. '{decl.name}_rule'",
            )
        self.sym.rules[decl.name] = decl

    def collect_ValueDecl(self, decl: ast.ValueDecl) -> None:
        self.declare(decl.name, decl)
        self.sym.values[decl.name] = decl

    def collect_TriggerDecl(self, decl: ast.TriggerDecl) -> None:
        self.sym.triggers.append(decl)

    def collect_SetupDecl(self, decl: ast.SetupDecl) -> None:
        if self.sym.setup is not None:
            self.error(decl, codes.DECLARED_TWICE, "a file has one setup block")
        self.sym.setup = decl

    def collect_PlayDecl(self, decl: ast.PlayDecl) -> None:
        if self.sym.play is not None:
            self.error(decl, codes.DECLARED_TWICE, "a file has one play block")
        self.sym.play = decl

    def collect_ScoreDecl(self, decl: ast.ScoreDecl) -> None:
        if getattr(self.sym, decl.kind) is not None:
            self.error(decl, codes.DECLARED_TWICE, f"a file has one {decl.kind} line")
        setattr(self.sym, decl.kind, decl)

    def collect_Example(self, decl: ast.Example) -> None:
        self.declare(decl.name, decl, "example")
        self.sym.examples.append(decl)

    def collect_CarryDecl(self, decl: ast.CarryDecl) -> None:
        """Carried state is resolved once the symbols are whole (interpreter/carry.py)."""

    def collect_SequenceDecl(self, decl: ast.SequenceDecl) -> None:
        """A sequence is checked once the symbols are whole (interpreter/sequence.py)."""

    def check_tables(self) -> None:
        for table in self.sym.tables.values():
            keys: set[str] = set()
            for col in table.columns:
                if col.type and col.type.name not in SCALAR_WORDS and col.type.name not in self.sym.tables:
                    self.error(
                        col.type,
                        codes.UNKNOWN_NAME,
                        f"unknown column type '{col.type.name}'",
                        "use int, bool, text or the name of a table",
                    )
            self._check_called_each(table)
            self._check_belongs(table)
            keyed = is_keyed(table)
            for row in table.rows:
                if len(row.cells) != len(table.columns):
                    self.error(
                        row,
                        codes.BAD_ROW,
                        f"this row of '{table.name}' has {len(row.cells)} values, "
                        f"the table has {len(table.columns)} columns",
                    )
                    continue
                key = row.cells[0]
                if keyed and (not isinstance(key, str) or not row.names[0]):
                    self.error(row, codes.BAD_ROW, "a row starts with its name (a plain word)")
                elif keyed and key in keys:
                    self.error(row, codes.DECLARED_TWICE, f"'{key}' is a row of '{table.name}' twice")
                elif keyed:
                    keys.add(str(key))
                start = 1 if keyed else 0
                for index in range(start, len(table.columns)):
                    self._check_cell(row, index, table.columns[index])

    def _check_node_positions(self, m: ast.MapDecl) -> None:
        """`nodes T at X, Y`: whole numbers computed from each node's row, seen as `self`."""
        for e in m.at:
            self.expect(e, self.expr(e, {SELF: Row(m.nodes)}), INT, "where a node is drawn")

    def _check_belongs(self, table: ast.Table) -> None:
        """`belongs to COLUMN`: a whole-number column of the table, each row's seat."""
        if table.belongs is None or table.belongs_span is None:
            return
        where = ast.Node(span=table.belongs_span)
        column = next((c for c in table.columns if c.name == table.belongs), None)
        if column is None:
            names = ", ".join(c.name for c in table.columns)
            self.error(
                where,
                codes.UNKNOWN_NAME,
                f"'{table.belongs}' is not a column of '{table.name}'",
                f"its columns: {names}",
            )
        elif column.type is None or column.type.name != "int" or column.type.optional:
            self.error(
                where,
                codes.WRONG_TYPE,
                f"a row's seat is a whole number (0 for Player 1): '{table.belongs}' is no int column",
                f"declare it '{table.belongs}: int'",
            )

    def _check_called_each(self, table: ast.Table) -> None:
        """The `{...}` parts of a table's `called each` line, which see the row as `self`."""
        for line in (m for m in table.meta if isinstance(m, ast.CalledEach)):
            for part in line.parts:
                if isinstance(part, ast.Expr):
                    self.expr(part, {SELF: Row(table.name)})

    @staticmethod
    def _cell(row: ast.Row, index: int) -> ast.Node:
        """The row, placed at one of its cells: a diagnostic about a cell points at it."""
        if index >= len(row.cell_columns):
            return row
        start, end = row.cell_columns[index]
        span = row.span.model_copy(update={"column": start, "end_line": row.span.line, "end_column": end})
        return row.model_copy(update={"span": span})

    def _check_cell(self, row: ast.Row, index: int, col: ast.Column) -> None:
        problem = cell_problem(row.cells[index], row.names[index], col, self.sym.tables)
        if problem is not None:
            self.error(self._cell(row, index), *problem)

    # -------------------------------------------------------------- names and types

    def global_type(self, name: str) -> Type | None:
        s = self.sym
        if name in s.constants:
            return ANY
        if name in s.vars:
            return type_of_ref(s.vars[name].type, s)
        if name in s.zones:
            return LOC
        if name in s.tables:
            return ListOf(Row(name))
        if name in s.maps and s.maps[name].grid is None:
            return ListOf(Row(s.maps[name].nodes))
        if name in s.maps and s.maps[name].per is None:
            return Grid(name)
        if name in s.movements:
            return MOVEMENT
        if name in s.pieces:
            return KIND
        if name in OWN_NAMES:
            return OWN_NAMES[name].type
        tables = s.row_keys.get(name, [])
        return Row(tables[0]) if len(tables) == 1 else None  # a row's name, of one table only

    def var_type(self, decl: ast.VarDecl) -> Type:
        """An owned variable's type: its values', or (`per player, TABLE`) `Rows(TABLE, TYPE)`, a
        value for each row of TABLE, which only indexing by a row reads (`p.NAME[row]`)."""
        value = type_of_ref(decl.type, self.sym)
        return value if decl.by is None else Rows(decl.by, value)

    def attr_type(self, owner: Type, name: str, node: ast.Node) -> Type:
        """The type of `x.NAME` where x is of type `owner`: what the rules declare for a player
        or a row, else the attribute table (interpreter/attributes.py)."""
        if owner == ANY:
            return ANY
        if owner == PLAYER:
            return self.attr_of_player(name, node)
        if isinstance(owner, Row):
            return self.attr_of_row(owner.table, name, node)
        kind = attributes.BY_TYPE.get(type(owner))
        if kind is not None:
            attribute = kind.attributes.get(name)
            if attribute is not None:
                return attribute.result(owner, self.sym)
            if kind.further is None:
                return self._no_attr(node, kind.what, name)
            return self.attr_type(kind.further(owner, self.sym), name, node)
        if owner == LOC:
            return (
                attributes.ZONE_OWNER.result(owner, self.sym)
                if name == "owner"
                else self._no_attr(node, "a zone", name)
            )
        if isinstance(owner, ListOf):
            return self._no_attr(node, "a list", name, "use [x.NAME for each x in LIST] or LIST[0].NAME")
        if owner in (INT, BOOL, TEXT):
            return self._no_attr(node, owner.readable(), name)
        return ANY

    def attr_of_player(self, name: str, node: ast.Node) -> Type:
        """The attributes a player's: its own zones and variables, its seat, its grid map."""
        s = self.sym
        if name in s.owned_zones.get("player", {}):
            return LOC
        if name in s.owned_vars.get("player", {}):
            return self.var_type(s.owned_vars["player"][name])
        if name == attributes.SEAT.name:
            return attributes.SEAT.result(PLAYER, s)
        if name in s.maps and s.maps[name].per == "player":
            return Grid(name)
        self.error(
            node,
            codes.UNKNOWN_ATTRIBUTE,
            f"a player has no '{name}'",
            self._suggest(name, [*s.owned_zones.get("player", {}), *s.owned_vars.get("player", {})]),
        )
        return ANY

    def attr_of_row(self, table: str, name: str, node: ast.Node) -> Type:
        """The attributes a row's: its own variables and zones, its columns."""
        s = self.sym
        if table not in s.tables:
            return ANY
        if name in s.owned_vars.get(table, {}):
            return self.var_type(s.owned_vars[table][name])
        if name in s.owned_zones.get(table, {}):
            return LOC
        if any(c.name == name for c in s.tables[table].columns):
            return s.column_type(table, name)
        candidates = [c.name for c in s.tables[table].columns] + list(s.owned_vars.get(table, {}))
        self.error(
            node,
            codes.UNKNOWN_ATTRIBUTE,
            f"a row of '{table}' has no '{name}'",
            self._suggest(name, candidates),
        )
        return ANY

    def _no_attr(self, node: ast.Node, what: str, name: str, hint: str = "") -> Type:
        self.error(node, codes.UNKNOWN_ATTRIBUTE, f"{what} has no '{name}'", hint)
        return ANY

    def expect(self, node: ast.Node, got: Type, want: Type, what: str) -> None:
        """An error where a value of type `got` may not stand where `want` is asked for."""
        if not got.fits(want):
            self.error(node, codes.WRONG_TYPE, f"{what} must be {want.readable()}, not {got.readable()}")

    def expr(self, e: ast.Expr, scope: dict[str, Type]) -> Type:
        """The type of an expression; recorded so that the compiler can specialise attribute access."""
        t = self._expr(e, scope)
        self.sym.types[id(e)] = t
        return t

    def _expr(self, e: ast.Expr, scope: dict[str, Type]) -> Type:
        """The type of an expression, by its kind's `expr_X` method."""
        return ast.handler(self, "expr_", e, "analysis")(e, scope)  # type: ignore[no-any-return]

    def expr_Num(self, e: ast.Num, scope: dict[str, Type]) -> Type:
        return INT

    def expr_Text(self, e: ast.Text, scope: dict[str, Type]) -> Type:
        return TEXT

    def expr_Bool(self, e: ast.Bool, scope: dict[str, Type]) -> Type:
        return BOOL

    def expr_NoneLit(self, e: ast.NoneLit, scope: dict[str, Type]) -> Type:
        return ANY

    def expr_Name(self, e: ast.Name, scope: dict[str, Type]) -> Type:
        name = e.id
        if name in scope:
            return scope[name]
        self.used.add(name)
        found = self.global_type(name)
        if found is None and len(self.sym.row_keys.get(name, [])) > 1:
            tables = " and ".join(self.sym.row_keys[name])
            self.error(e, codes.UNKNOWN_NAME, f"'{name}' is a row of {tables}", f"write TABLE.{name}")
            return ANY
        if found is None and name in self.sym.components:
            self.component_used(e, name)
            return ANY
        if found is None and name in self.sym.counters:
            self.error(
                e,
                codes.WRONG_TYPE,
                f"'{name}' is a counter: the rules add to it ('tally {name}') but never read it",
                "counters are for statistics, so that counting something changes no game; "
                "an example's 'expect:' may read it",
            )
            return ANY
        if found is None:
            names = [
                *scope,
                *self.sym.constants,
                *self.sym.vars,
                *self.sym.zones,
                *self.sym.tables,
                *self.sym.maps,
                *self.sym.pieces,
                *OWN_NAMES,
                *self.sym.row_keys,
            ]
            self.error(e, codes.UNKNOWN_NAME, f"unknown name '{name}'", self._suggest(name, names))
            return ANY
        return found

    def expr_Attr(self, e: ast.Attr, scope: dict[str, Type]) -> Type:
        if isinstance(e.obj, ast.Name) and e.obj.id in self.sym.tables and e.obj.id not in scope:
            table, key = e.obj.id, e.name  # `TABLE.KEY`: a row of a table, by its key
            self.used.add(table)
            if not any(r.cells and r.cells[0] == key for r in self.sym.tables[table].rows):
                self.error(e, codes.NOT_A_ROW, f"'{key}' is not a row of table '{table}'")
            return Row(table)
        owner = self.expr(e.obj, scope)
        return self.attr_type(owner, e.name, e)

    def expr_Index(self, e: ast.Index, scope: dict[str, Type]) -> Type:
        seq = self.expr(e.obj, scope)
        if isinstance(seq, Rows):
            table = seq.table
            self.expect(e.index, self.expr(e.index, scope), Row(table), f"a row of '{table}'")
            return seq.value
        self.expect(e.index, self.expr(e.index, scope), INT, "an index")
        self.expect(e.obj, seq, ListOf(), "what is indexed")
        return element(seq)

    def expr_Unary(self, e: ast.Unary, scope: dict[str, Type]) -> Type:
        if e.op == "-":
            self.expect(e.operand, self.expr(e.operand, scope), INT, "what '-' negates")
            return INT
        self.expect(e.operand, self.expr(e.operand, scope), BOOL, "what 'not' negates")
        return BOOL

    def expr_IfExpr(self, e: ast.IfExpr, scope: dict[str, Type]) -> Type:
        self.expect(e.cond, self.expr(e.cond, scope), BOOL, "an 'if' condition")
        then, orelse = self.expr(e.then, scope), self.expr(e.orelse, scope)
        return then if then == orelse else ANY

    def expr_ListLit(self, e: ast.ListLit, scope: dict[str, Type]) -> Type:
        types = {self.expr(item, scope) for item in e.items}
        return ListOf(types.pop()) if len(types) == 1 else ListOf(ANY)

    def expr_Filter(self, e: ast.Filter, scope: dict[str, Type]) -> Type:
        item = self.element(e.seq, scope)
        self.expect(e.cond, self.expr(e.cond, {**scope, e.var: item}), BOOL, "a 'where' condition")
        for rank in e.keys:
            self.expect(rank, self.expr(rank, {**scope, e.var: item}), INT, "a 'ranked by' key")
        return ListOf(item)

    def expr_MapComp(self, e: ast.MapComp, scope: dict[str, Type]) -> Type:
        inner = {**scope, e.var: self.element(e.seq, scope)}
        if e.cond is not None:
            self.expect(e.cond, self.expr(e.cond, inner), BOOL, "a 'where' condition")
        return ListOf(self.expr(e.expr, inner))

    def element(self, seq: ast.Expr, scope: dict[str, Type]) -> Type:
        t = self.expr(seq, scope)
        if isinstance(t, ListOf):
            return t.item
        if t != ANY:
            self.error(seq, codes.WRONG_TYPE, f"expected a list to go through, not {t.readable()}")
        return ANY

    def expr_Binary(self, e: ast.Binary, scope: dict[str, Type]) -> Type:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op == "+" and (isinstance(left, ListOf) or isinstance(right, ListOf)):
            self.expect(e.left, left, ListOf(), "the left side of '+' (lists are joined)")
            self.expect(e.right, right, ListOf(), "the right side of '+' (lists are joined)")
            return left if left == right else ListOf(ANY)
        if e.op == "+" and left == right == ANY:
            return ANY  # numbers added or lists joined: not known yet
        if e.op in {"+", "-", "*", "//", "%"}:
            self.expect(e.left, left, INT, f"the left side of '{e.op}'")
            self.expect(e.right, right, INT, f"the right side of '{e.op}'")
            return INT
        if e.op in {"<", "<=", ">", ">="}:
            self.expect(e.left, left, INT, f"the left side of '{e.op}'")
            self.expect(e.right, right, INT, f"the right side of '{e.op}'")
            return BOOL
        if e.op in {"and", "or"}:
            self.expect(e.left, left, BOOL, f"the left side of '{e.op}'")
            self.expect(e.right, right, BOOL, f"the right side of '{e.op}'")
            return BOOL
        if e.op in {"in", "not in"}:
            self.expect(e.right, right, ListOf(), f"the right side of '{e.op}'")
            return BOOL
        if e.op == "..":
            self.expect(e.left, left, INT, "a range's start")
            self.expect(e.right, right, INT, "a range's end")
            return ListOf(INT)
        if {left, right} <= SCALARS and left != right:
            self.warning(
                e, codes.WRONG_TYPE, f"comparing {left.readable()} with {right.readable()} is never true"
            )
        return BOOL

    def expr_Call(self, e: ast.Call, scope: dict[str, Type]) -> Type:
        name = e.func
        if name in self.sym.values:
            self.used.add(name)
            decl = self.sym.values[name]
            self.arity(e, name, len(decl.params), len(decl.params))
            for arg, param in zip(e.args, decl.params, strict=False):
                self.expect(
                    arg, self.expr(arg, scope), type_of_ref(param.type, self.sym), f"argument '{param.name}'"
                )
            return ANY
        if name not in BUILTINS:
            if name in self.sym.rules:
                self.error(
                    e,
                    codes.WRONG_TYPE,
                    f"'{name}' is a rule: it does things and gives no value",
                    "call it on a line of its own, or declare a 'value'",
                )
            else:
                self.error(
                    e,
                    codes.UNKNOWN_NAME,
                    f"unknown function '{name}'",
                    self._suggest(name, [*BUILTINS, *self.sym.values]),
                )
            for arg in e.args:
                self.expr(arg, scope)
            return ANY
        builtin = BUILTINS[name]
        self.arity(e, name, builtin.fewest, builtin.most)
        if len(e.args) < builtin.fewest:  # reported; the checks read the missing arguments
            for arg in e.args:
                self.expr(arg, scope)
            return ANY
        types = builtin.arg_types(self, e, scope)
        for i, (want, got) in enumerate(zip(builtin.takes, types, strict=False)):
            self.expect(e.args[i], got, want, f"the {ORDINALS[i]} argument of {name}")
        return builtin.check(self, e, types)

    def is_board(self, grid_type: Type) -> bool:
        """Whether a `Grid(NAME)` type is a board given by its size (whose cells are all there)."""
        m = self.sym.maps.get(grid_type.name) if isinstance(grid_type, Grid) else None
        return m is not None and m.outline is not None

    def board(self, m: ast.MapDecl) -> None:
        """A board given by its size: sizes known when the file is loaded (numbers or constants:
        their values are checked once known, by the compiler), and nothing that only a growing
        grid has."""
        if m.block != 1 or m.faces is not None:
            self.error(
                m,
                codes.UNKNOWN_NAME,
                "a board given by its size has all its cells from the start: no 'blocks' or 'of'",
            )
        if m.outline == "hexagon" and m.grid != "hex":
            self.error(
                m,
                codes.UNKNOWN_NAME,
                "only a hex grid is laid out as a hexagon: a square one is 'COLUMNS by ROWS'",
            )
        for term in m.size:
            if isinstance(term, ast.Name) and term.id not in self.sym.constants:
                self.error(
                    term,
                    codes.UNKNOWN_NAME,
                    f"a board's size is a number or a constant, and '{term.id}' is not one",
                )
            else:
                self.expect(term, self.expr(term, {}), INT, "a board's size")

    def destination(self, e: ast.Expr, scope: dict[str, Type]) -> Type:
        """The type of where pieces go: a place, or the bottom of one (`bottom(Z)`), which is a
        place only there: nothing else reads or counts a bottom."""
        self.destinations.add(id(e))
        t = self.expr(e, scope)
        if isinstance(t, Row):  # a row is a place only on a map of its table
            self.sym.places.add(t.table)
        return LOC if t == BOTTOM else t

    def arity(self, e: ast.Call | ast.CallStmt, name: str, low: int, high: int) -> None:
        n = len(e.args)
        if not low <= n <= high:
            want = str(low) if low == high else f"{low} to {high}"
            self.error(e, codes.WRONG_ARGUMENT_COUNT, f"'{name}' takes {want} argument(s), not {n}")

    # -------------------------------------------------------------- statements

    def stmts(self, body: list[ast.Stmt], scope: dict[str, Type]) -> None:
        scope = dict(scope)
        for stmt in body:
            self.stmt(stmt, scope)

    def stmt(self, s: ast.Stmt, scope: dict[str, Type]) -> None:
        """Check one statement, by its kind's `stmt_X` method. `scope` is the block's: a `let`
        adds its name to it for the statements after it."""
        self.prompt_shows_no_value(s)
        ast.handler(self, "stmt_", s, "analysis")(s, scope)

    def prompt_shows_no_value(self, s: ast.Stmt) -> None:
        """A prompt is printed as written: a `{...}` in it would reach the player as braces."""
        prompt = getattr(s, "prompt", None)
        if isinstance(prompt, str) and (shown := _SHOWN.search(prompt)) is not None:
            self.error(
                s,
                codes.PROMPT_SHOWS_NO_VALUE,
                f"a prompt shows no values: '{shown.group()}' would be printed as written",
                "ask without it (the player being asked is the one who reads it); a `log` line shows values",
            )

    def stmt_Meta(self, s: ast.Meta, scope: dict[str, Type]) -> None:
        """Words for players and the checker: nothing here to type."""

    def stmt_MoveRefs(self, s: ast.MoveRefs, scope: dict[str, Type]) -> None:
        t = self.expr(s.pieces, scope)
        if not (t.fits(Piece()) or t.fits(ListOf(Piece())) or t == ListOf(ANY)):
            self.error(
                s.pieces,
                codes.WRONG_TYPE,
                f"'move ... to' moves pieces, not {t.readable()}",
                "to move by count write: move N KIND from ZONE to ZONE",
            )
        self.expect(s.dest, self.destination(s.dest, scope), LOC, "where pieces move to")

    def stmt_MoveCount(self, s: ast.MoveCount | ast.MoveAll, scope: dict[str, Type]) -> None:
        if isinstance(s, ast.MoveCount):
            self.expect(s.count, self.expr(s.count, scope), INT, "how many to move")
        self.kind(s, s.kind)
        if s.which is not None:
            decl = self.sym.pieces.get(s.kind)
            rows_of = decl.each_row_of or decl.per_row_of if decl is not None else None
            which = self.expr(s.which, scope)
            if decl is not None and rows_of is None:
                self.error(
                    s.which,
                    codes.WRONG_TYPE,
                    f"'{s.kind}' is not made from a table: it has no kinds to pick",
                )
            elif rows_of is not None:
                self.expect(s.which, which, Row(rows_of), f"which kind of {s.kind}")
        if s.owner is not None:
            self.expect(s.owner, self.expr(s.owner, scope), PLAYER, "the owner of the pieces")
        self.expect(s.src, self.expr(s.src, scope), LOC, "where pieces move from")
        self.expect(s.dest, self.destination(s.dest, scope), LOC, "where pieces move to")

    stmt_MoveAll = stmt_MoveCount

    def stmt_SetStmt(self, s: ast.SetStmt | ast.AddStmt, scope: dict[str, Type]) -> None:
        target = s.target
        t = self.target(target, scope)
        value = s.value if isinstance(s, ast.SetStmt) else s.amount
        vt = self.expr(value, scope)
        if isinstance(s, ast.AddStmt):
            self.expect(value, vt, INT, "what is added")
            self.expect(target, t, INT, "what is added to")
        elif ANY not in (t, vt) and t != vt:
            self.error(value, codes.WRONG_TYPE, f"cannot set {t.readable()} to {vt.readable()}")

    stmt_AddStmt = stmt_SetStmt

    def stmt_Swap(self, s: ast.Swap, scope: dict[str, Type]) -> None:
        """Two variables that can change, of one type: each takes the other's value."""
        first, second = self.target(s.first, scope), self.target(s.second, scope)
        if ANY not in (first, second) and first != second:
            self.error(s.second, codes.WRONG_TYPE, f"cannot swap {first.readable()} with {second.readable()}")

    def target(self, target: ast.Expr, scope: dict[str, Type]) -> Type:
        """The type of a variable a statement changes (`set X to ...`), which must be one."""
        if isinstance(target, ast.Name) and target.id not in self.sym.vars:
            self.error(
                target,
                codes.CANNOT_CHANGE,
                f"'{target.id}' is not a variable that can change",
                "declare it with 'var'; 'let' names are fixed",
            )
        elif isinstance(target, ast.Index) and isinstance(target.obj, ast.Attr):
            self._check_assignable(target.obj, scope)
            if not isinstance(self.expr(target.obj, scope), Rows):
                self.error(
                    target,
                    codes.CANNOT_CHANGE,
                    "only a variable per owner and row (x.NAME[row]) changes by row",
                )
        elif not isinstance(target, ast.Name | ast.Attr):
            self.error(
                target,
                codes.CANNOT_CHANGE,
                "only a variable or a variable attribute (x.NAME) can change",
            )
        elif isinstance(target, ast.Attr):
            self._check_assignable(target, scope)
        return self.expr(target, scope)

    def stmt_Let(self, s: ast.Let, scope: dict[str, Type]) -> None:
        scope[s.name] = self.expr(s.value, scope)

    def stmt_Shuffle(self, s: ast.Shuffle, scope: dict[str, Type]) -> None:
        self.expect(s.zone, self.expr(s.zone, scope), LOC, "what is shuffled")

    def stmt_Place(self, s: ast.Place, scope: dict[str, Type]) -> None:
        self.expect(s.shape, self.expr(s.shape, scope), ListOf(), "the shape placed (a list of rows)")
        grid = self.expr(s.map, scope)
        if not isinstance(grid, Grid) and grid != ANY:
            self.error(s.map, codes.WRONG_TYPE, f"shapes are placed on a grid map, not on {grid.readable()}")
        elif not s.over and self.is_board(grid):
            self.error(
                s.map,
                codes.WRONG_TYPE,
                "a board given by its size has all its cells: lay shapes 'over' it",
            )
        if s.at is not None:
            self.expect(s.at, self.expr(s.at, scope), Placement(), "where the shape goes")

    def stmt_Lift(self, s: ast.Lift, scope: dict[str, Type]) -> None:
        self.expect(s.layer, self.expr(s.layer, scope), Placement(), "the laid shape lifted")

    def stmt_Shift(self, s: ast.Shift, scope: dict[str, Type]) -> None:
        grid = self.expr(s.map, scope)
        if not isinstance(grid, Grid) and grid != ANY:
            self.error(s.map, codes.WRONG_TYPE, f"a grid map is shifted, not {grid.readable()}")
        elif self.is_board(grid):
            self.error(
                s.map,
                codes.WRONG_TYPE,
                "a board given by its size has its cells where they are: it cannot shift",
            )
        self.expect(s.dq, self.expr(s.dq, scope), INT, "how far the map shifts east")
        self.expect(s.dr, self.expr(s.dr, scope), INT, "how far the map shifts south")

    def stmt_Draw(self, s: ast.Draw, scope: dict[str, Type]) -> None:
        self.expect(s.count, self.expr(s.count, scope), INT, "how many to draw")
        self.expect(s.src, self.expr(s.src, scope), LOC, "where cards are drawn from")
        self.expect(s.dest, self.destination(s.dest, scope), LOC, "where drawn cards go")

    def stmt_EndGame(self, s: ast.EndGame, scope: dict[str, Type]) -> None:
        """`end game` reads nothing."""

    def stmt_Log(self, s: ast.Log, scope: dict[str, Type]) -> None:
        for part in s.parts:
            if isinstance(part, ast.Expr):
                self.expr(part, scope)

    def stmt_Reveal(self, s: ast.Reveal, scope: dict[str, Type]) -> None:
        """`reveal PIECES to PLAYERS`: a piece or a list of pieces, shown to a player or a list of
        players (a team)."""
        what = self.expr(s.pieces, scope)
        if not _one_or_list_of(what, Piece()):
            self.error(
                s.pieces,
                codes.WRONG_TYPE,
                f"'reveal' shows pieces, not {what.readable()}",
                "to show what a zone holds write: reveal pieces(ZONE) to PLAYER",
            )
        who = self.expr(s.to, scope)
        if not _one_or_list_of(who, PLAYER):
            self.error(
                s.to,
                codes.WRONG_TYPE,
                f"pieces are revealed to a player or a list of players, not {who.readable()}",
            )

    def stmt_CallStmt(self, s: ast.CallStmt, scope: dict[str, Type]) -> None:
        self.call_stmt(s, scope)

    def stmt_If(self, s: ast.If, scope: dict[str, Type]) -> None:
        for cond, body in ((b.cond, b.body) for b in s.branches):
            self.expect(cond, self.expr(cond, scope), BOOL, "an 'if' condition")
            self.stmts(body, scope)
        self.stmts(s.orelse, scope)

    def stmt_ForEach(self, s: ast.ForEach, scope: dict[str, Type]) -> None:
        element = self.element(s.seq, scope)
        inner = {**scope, s.var: element}
        if s.cond is not None:
            self.expect(s.cond, self.expr(s.cond, inner), BOOL, "a 'where' condition")
        if s.chooser is not None:
            self.expect(s.chooser, self.expr(s.chooser, scope), PLAYER, "who chooses the order")
            self.sym.sites.append(Site("order", self.rule, s.var, False, s, inner))
        self.stmts(s.body, inner)

    def stmt_Repeat(self, s: ast.Repeat, scope: dict[str, Type]) -> None:
        self.expect(s.count, self.expr(s.count, scope), INT, "how many times to repeat")
        self.stmts(s.body, scope)

    def stmt_While(self, s: ast.While, scope: dict[str, Type]) -> None:
        self.expect(s.cond, self.expr(s.cond, scope), BOOL, "a 'while' condition")
        self.stmts(s.body, scope)

    def stmt_Choose(self, s: ast.Choose | ast.Pick, scope: dict[str, Type]) -> None:
        element = self.element(s.seq, scope)
        inner = {**scope, s.var: element}
        if s.cond is not None:
            self.expect(s.cond, self.expr(s.cond, inner), BOOL, "a 'where' condition")
        if isinstance(s, ast.Choose) and s.chooser is not None:
            self.expect(s.chooser, self.expr(s.chooser, scope), PLAYER, "who chooses")
        if isinstance(s, ast.Choose) and s.shown_at is not None:
            self.expr(s.shown_at, inner)
        if isinstance(s, ast.Choose):
            self.sym.sites.append(Site("choose", self.rule, s.var, s.optional, s, inner))
        if isinstance(s, ast.Choose) and not s.optional and not s.orelse and self._never_options(s):
            self.error(
                s,
                codes.CHOICE_WITHOUT_OPTION,
                "this 'choose' can never have an option, and it must be made",
                "give it options, write 'may choose', or add an 'else:' block",
            )
        self.stmts(s.body, inner)
        self.stmts(s.orelse, scope)

    stmt_Pick = stmt_Choose

    def stmt_Ask(self, s: ast.Ask, scope: dict[str, Type]) -> None:
        if s.chooser is not None:
            self.expect(s.chooser, self.expr(s.chooser, scope), PLAYER, "who chooses")
        self.sym.sites.append(Site("ask", self.rule, None, True, s, scope))
        self.stmts(s.body, scope)
        self.stmts(s.orelse, scope)

    def stmt_Random(self, s: ast.Random, scope: dict[str, Type]) -> None:
        names: set[str] = set()
        for i, outcome in enumerate(s.outcomes):
            if outcome.name in names:
                self.error(outcome, codes.DECLARED_TWICE, f"two outcomes are called '{outcome.name}'")
            names.add(outcome.name)
            if outcome.weight is None and i != len(s.outcomes) - 1:
                self.error(outcome, codes.WRONG_TYPE, "'otherwise' must be the last outcome")
            if outcome.weight is not None:
                self.expect(outcome.weight, self.expr(outcome.weight, scope), INT, "a chance")
            self.stmts(outcome.body, scope)

    def stmt_Turn(self, s: ast.Turn, scope: dict[str, Type]) -> None:
        self.expect(s.player, self.expr(s.player, scope), PLAYER, "whose turn it is")
        self.stmts(s.body, scope)

    def stmt_Named(self, s: ast.Named, scope: dict[str, Type]) -> None:
        self.stmts(s.body, scope)

    def stmt_Offer(self, s: ast.Offer, scope: dict[str, Type]) -> None:
        self.call_stmt(ast.CallStmt(span=s.span, name=s.rule, args=s.args), scope)
        self.expect(s.player, self.expr(s.player, scope), PLAYER, "who is offered the action")
        if s.cond is not None:
            self.expect(s.cond, self.expr(s.cond, scope), BOOL, "when the action is offered")
        offered = self.sym.rules.get(s.rule)
        if offered is not None:  # a style's condition reads the offered rule's arguments
            arguments = {p.name: type_of_ref(p.type, self.sym) for p in offered.params}
            self.sym.sites.append(Site("offer", s.rule, None, False, s, arguments))
        self.stmts(s.body, scope)

    def _check_assignable(self, target: ast.Attr, scope: dict[str, Type]) -> None:
        owner = self.expr(target.obj, scope)
        if owner == PLAYER and target.name not in self.sym.owned_vars.get("player", {}):
            self.error(
                target, codes.CANNOT_CHANGE, f"'{target.name}' of a player is not a variable that can change"
            )
        elif isinstance(owner, Row) and target.name not in self.sym.owned_vars.get(owner.table, {}):
            self.error(
                target,
                codes.CANNOT_CHANGE,
                f"'{target.name}' of a row of '{owner.table}' is table data and cannot change",
                f"declare 'var {target.name} = ... per {owner.table}'",
            )

    def _never_options(self, s: ast.Choose) -> bool:
        if isinstance(s.seq, ast.ListLit) and not s.seq.items:
            return True
        if isinstance(s.seq, ast.Name) and s.seq.id in self.sym.tables and not self.sym.tables[s.seq.id].rows:
            return True
        return isinstance(s.cond, ast.Bool) and not s.cond.value

    def kind(self, node: ast.Node, name: str) -> None:
        self.used.add(name)
        if name in self.sym.components:
            self.component_used(node, name)
        elif name not in self.sym.pieces:
            self.error(
                node,
                codes.UNKNOWN_PIECE_KIND,
                f"unknown kind of piece '{name}'",
                self._suggest(name, self.sym.pieces),
            )

    def component_used(self, node: ast.Node, name: str) -> None:
        """A rule that moves, counts or reads a component: a component is for players to lay out
        and never plays a part, so a rule that needs it needs a piece."""
        self.error(
            node,
            codes.WRONG_TYPE,
            f"'{name}' is a component: the rulebook lists it, and no rule moves, counts or reads it",
            f"if the rules need it, declare it as a piece in a zone: piece {name}: COUNT in ZONE",
        )

    def stmt_Tally(self, s: ast.Tally, scope: dict[str, Type]) -> None:
        """`tally NAME [for PLAYER] [by AMOUNT]`: a declared counter, a player exactly when it is
        counted per player, a whole number."""
        decl = self.sym.counters.get(s.name)
        if decl is None:
            self.error(
                s, codes.UNKNOWN_NAME, f"unknown counter '{s.name}'", self._suggest(s.name, self.sym.counters)
            )
        elif decl.per_player and s.player is None:
            self.error(
                s,
                codes.WRONG_TYPE,
                f"'{s.name}' is counted per player: say whose",
                f"write 'tally {s.name} for PLAYER'",
            )
        elif not decl.per_player and s.player is not None:
            self.error(
                s.player,
                codes.WRONG_TYPE,
                f"'{s.name}' is counted for the whole game, not per player",
                f"declare it 'counter {s.name} per player' to count it for each player",
            )
        if s.player is not None:
            self.expect(s.player, self.expr(s.player, scope), PLAYER, "whose count it is")
        if s.amount is not None:
            self.expect(s.amount, self.expr(s.amount, scope), INT, "how much is counted")

    def call_stmt(self, s: ast.CallStmt, scope: dict[str, Type]) -> None:
        self.used.add(s.name)
        decl = self.sym.rules.get(s.name)
        if decl is None:
            if s.name in self.sym.values:
                self.error(
                    s,
                    codes.WRONG_TYPE,
                    f"'{s.name}' is a value: it gives a value and does nothing on its own",
                    "use it in an expression, e.g. 'let x = ...' or 'if ...:'",
                )
            else:
                self.error(
                    s, codes.UNKNOWN_NAME, f"unknown rule '{s.name}'", self._suggest(s.name, self.sym.rules)
                )
            for arg in s.args:
                self.expr(arg, scope)
            return
        self.arity(s, s.name, len(decl.params), len(decl.params))
        for arg, param in zip(s.args, decl.params, strict=False):
            self.expect(
                arg, self.expr(arg, scope), type_of_ref(param.type, self.sym), f"argument '{param.name}'"
            )

    def params(self, params: list[ast.Param]) -> dict[str, Type]:
        scope: dict[str, Type] = {}
        for p in params:
            if p.name in scope:
                self.error(p, codes.DECLARED_TWICE, f"two parameters are called '{p.name}'")
            if p.type is not None and type_of_ref(p.type, self.sym) == ANY and p.type.name != "any":
                self.error(
                    p.type,
                    codes.UNKNOWN_NAME,
                    f"unknown type '{p.type.name}'",
                    "use int, bool, text, player, piece, zone or a table name",
                )
            scope[p.name] = type_of_ref(p.type, self.sym)
        return scope

    # -------------------------------------------------------------- the whole module

    def run(self) -> Symbols:
        """Every check of the module, declarations by kind, then the bodies of statements."""
        self.collect()
        self.check_tables()
        s = self.sym
        for const in s.constants.values():
            self.check_constant(const)
        for counted in [*s.pieces.values(), *s.components.values()]:
            self.check_count(counted)
        for var in [*s.vars.values(), *(v for group in s.owned_vars.values() for v in group.values())]:
            self.check_var(var)
        for movement in s.movements.values():
            self.check_movement(movement)
        for m in s.maps.values():
            if m.grid is not None:
                self.check_grid_map(m)
            else:
                self.check_graph_map(m)
        self.check_bodies()
        for example in s.examples:
            self.example(example)
        for style in s.styles.values():
            self.style(style)
        self.seats()
        for movement in s.movements.values():
            if movement.step is not None:
                self.step_line(movement, movement.step, self.movement_scopes[movement.name])
        self.named_blocks()
        self.unused()
        return s

    def check_bodies(self) -> None:
        """What the game runs: rules, values, triggers, setup, play and the score."""
        s = self.sym
        for rule in s.rules.values():
            self.rule = rule.name
            self.stmts(rule.body, self.params(rule.params))
        self.rule = ""
        for value in s.values.values():
            self.expr(value.expr, self.params(value.params))
        for trig in s.triggers:
            self.check_trigger(trig)
        for block in (s.setup, s.play):
            if block is not None:
                self.stmts(block.body, {})
        for score in (s.score, s.tiebreak):
            if score is not None:
                self.expect(score.expr, self.expr(score.expr, {score.var: PLAYER}), INT, f"a {score.kind}")

    def check_trigger(self, trig: ast.TriggerDecl) -> None:
        """A trigger names a kind of piece; its body sees the piece and where it arrived."""
        self.kind(trig, trig.kind)
        scope = {trig.piece_var: Piece(trig.kind), trig.loc_var: ANY}
        if trig.cond is not None:
            self.expect(trig.cond, self.expr(trig.cond, scope), BOOL, "a 'when' condition")
        self.stmts(trig.body, scope)

    def check_constant(self, const: ast.Constant) -> None:
        """A constant's value has a type; an option's default is of the option's type."""
        s = self.sym
        got = self.expr(const.value, {})
        if isinstance(const, ast.OptionDecl):
            want = type_of_ref(const.type, s)
            if want == ANY:
                self.error(
                    const.type,
                    codes.WRONG_TYPE,
                    "an option is a number, yes/no, a text or a row of a table",
                )
            else:
                self.expect(const.value, got, want, f"option '{const.name}'")

    def check_count(self, counted: ast.Counted) -> None:
        """A count of pieces or components is a number, or a table's rows; pieces start in a place."""
        s = self.sym
        rows_of = counted.each_row_of or counted.per_row_of
        if counted.count is not None:
            scope: dict[str, Type] = {SELF: Row(counted.per_row_of)} if counted.per_row_of else {}
            what = "a number of pieces" if isinstance(counted, ast.PieceDecl) else "a number of components"
            self.expect(counted.count, self.expr(counted.count, scope), INT, what)
        if rows_of is not None and rows_of not in s.tables:
            self.error(
                counted, codes.UNKNOWN_NAME, f"unknown table '{rows_of}'", self._suggest(rows_of, s.tables)
            )
        elif rows_of is not None:
            self.used.add(rows_of)
        if isinstance(counted, ast.PieceDecl):
            self.check_start(counted)

    def check_start(self, piece: ast.PieceDecl) -> None:
        """Pieces start in a place: a player's own zone for pieces per player, or any place."""
        s = self.sym
        zone = piece.zone
        if isinstance(zone, ast.Name) and piece.per_player and zone.id in s.owned_zones.get("player", {}):
            return  # each player's pieces start in their own zone
        self.expect(zone, self.expr(zone, {}), LOC, "where the pieces start")

    def check_var(self, var: ast.VarDecl) -> None:
        """A variable starts as a value of its type, within its range."""
        s = self.sym
        owner: Type = Row(var.per) if var.per and var.per != "player" else PLAYER
        scope: dict[str, Type] = {SELF: owner} if var.per else {}
        got = self.expr(var.init, scope)
        want = type_of_ref(var.type, s)
        if var.type is not None and want == ANY and var.type.name != "any":
            self.error(var.type, codes.UNKNOWN_NAME, f"unknown type '{var.type.name}'")
        elif ANY not in (got, want) and got != want:
            self.error(
                var.init,
                codes.WRONG_TYPE,
                f"'{var.name}' is {want.readable()} but starts as {got.readable()}",
            )
        if var.within is not None:
            self.expect(var.within, self.expr(var.within, {}), ListOf(INT), "a 'within' range")

    def check_movement(self, movement: ast.MovementDecl) -> None:
        """A movement's lines, each in the scope of its parameters and the place it tests."""
        scope = self.movement_scopes[movement.name] = {**self.params(movement.params), "start": ANY}
        if movement.step is not None and movement.straight is not None:
            self.error(
                movement.straight,
                codes.WRONG_TYPE,
                "a straight line follows a grid's directions: the places a 'step' line lists have none",
            )
        if movement.steps is not None:
            steps = self.expr(movement.steps, scope)
            if steps not in (INT, ListOf(INT), ANY):
                self.error(movement.steps, codes.WRONG_TYPE, "steps are a number or a range such as 1..3")
        for flag in (movement.straight, movement.backtracks):
            if flag is not None:
                self.expect(flag, self.expr(flag, scope), BOOL, "yes or no")
        if movement.through is not None:
            inner = {**scope, movement.through_var: ANY}
            self.expect(movement.through, self.expr(movement.through, inner), BOOL, "a 'through' condition")
        if movement.ends is not None:
            inner = {**scope, movement.ends_var: ANY}
            self.expect(movement.ends, self.expr(movement.ends, inner), BOOL, "an 'ends' condition")

    def check_grid_map(self, m: ast.MapDecl) -> None:
        """A grid map: shared or per player, its faces' table, its blocks and its outline."""
        s = self.sym
        if m.per not in (None, "player"):
            self.error(m, codes.UNKNOWN_NAME, "a grid map is shared or 'per player'")
        if m.faces is not None and m.faces not in s.tables:
            self.error(m, codes.UNKNOWN_NAME, f"unknown table '{m.faces}'", self._suggest(m.faces, s.tables))
        elif m.faces is not None:
            self.used.add(m.faces)
        if m.block != 1 and m.grid != "square":
            self.error(m, codes.UNKNOWN_NAME, "only a square grid is laid in blocks")
        elif m.block < 1:
            self.error(m, codes.UNKNOWN_NAME, "a block is at least 1 cell wide")
        if m.outline is not None:
            self.board(m)

    def check_graph_map(self, m: ast.MapDecl) -> None:
        """A map of nodes and edges: its tables, and the columns its edges join."""
        s = self.sym
        if m.nodes not in s.tables:
            if not m.nodes:
                self.error(
                    m,
                    codes.UNKNOWN_NAME,
                    "a map needs 'nodes TABLE' (with 'edges'), 'grid hex' or 'grid square'",
                )
            else:
                self.error(
                    m,
                    codes.UNKNOWN_NAME,
                    f"unknown node table '{m.nodes}'",
                    self._suggest(m.nodes, s.tables),
                )
        if m.edges is not None:
            table = s.tables.get(m.edges)
            if table is None:
                self.error(
                    m,
                    codes.UNKNOWN_NAME,
                    f"unknown edge table '{m.edges}'",
                    self._suggest(m.edges, s.tables),
                )
            else:
                self.used.add(m.edges)
                for col in (m.edge_from, m.edge_to):
                    if not any(c.name == col for c in table.columns):
                        self.error(m, codes.UNKNOWN_ATTRIBUTE, f"table '{m.edges}' has no column '{col}'")
        self.used.add(m.nodes)
        self._check_node_positions(m)

    def seats(self) -> None:
        """A seat the rules play names a style the rules declare, and the table has room for it."""
        header = self.sym.header
        for decl in self.sym.automata:
            if decl.style is not None and decl.style not in self.sym.styles:
                self.error(
                    decl,
                    codes.UNKNOWN_NAME,
                    f"unknown style '{decl.style}': a seat the rules play plays a `style` the rules declare",
                    self._suggest(decl.style, self.sym.styles),
                )
        automata = len(self.sym.automata)
        if header is not None and automata and header.max_players + automata > MAX_SEATS:
            self.error(
                self.sym.automata[0],
                codes.BAD_HEADER,
                f"{header.max_players} players and {len(self.sym.automata)} seats the rules play: "
                f"a table has at most {MAX_SEATS} seats",
            )

    def example(self, example: ast.Example) -> None:
        header = self.sym.header
        if (
            header is not None
            and example.players is not None
            and not (header.min_players <= example.players <= header.max_players)
        ):
            self.error(
                example,
                codes.EXAMPLE_PLAYERS_NOT_ALLOWED,
                f"the game is for {header.min_players} to {header.max_players} players",
            )
        if example.seat_names and len(example.seat_names) != example.players:
            self.error(
                example,
                codes.EXAMPLE_PLAYERS_NOT_ALLOWED,
                f"the example calls {len(example.seat_names)} seats by name but is played with "
                f"{example.players} players: name each seat once",
            )
        if example.teams is not None:  # the teams it is played in fit the game (interpreter/teams.py)
            name = header.name if header is not None else "the game"
            players = example.players or (header.min_players if header is not None else 1)
            try:
                check_layout(parse_layout(example.teams), self.sym.teams, name, players)
            except ValueError as err:
                self.error(example, codes.EXAMPLE_PLAYERS_NOT_ALLOWED, f"the example's teams: {err}")
        before = set(self.used)
        scope: dict[str, Type] = {}  # given, do and expect share one scope, as they do when run
        for stmt in [*example.given, *example.do]:
            self.stmt(stmt, scope)
        results = {name: result.type for name, result in RESULTS.items()}
        results |= {name: counter_type(decl) for name, decl in self.sym.counters.items()}
        for expect in example.expect:
            self.expect(expect, self.expr(expect, {**results, **scope}), BOOL, "an expectation")
        for shown in example.shows:
            kind = self.expr(shown, scope)
            if kind not in (LOC, ANY) and not isinstance(kind, Grid | Row | Cell):
                self.error(
                    shown,
                    codes.NOTHING_TO_SHOW,
                    f"an example shows a grid map or a place, not {kind.readable()}",
                )
        self.used = before | {n for n in self.used if n in self.sym.pieces}

    def style(self, style: ast.StyleDecl) -> None:
        """Each preference names decisions the rules make, and its condition and weight fit every
        one of them: a condition reads what the asking statement sees (the option by its name)."""
        from meeple.interpreter.agents import AGENTS  # here: the agents module imports the engine

        if style.name in AGENTS:
            self.error(
                style,
                codes.DECLARED_TWICE,
                f"'{style.name}' is the name of a built-in player",
                "call the style otherwise",
            )
        for pref in style.preferences:
            sites = self.sym.preferred[id(pref)] = self.style_sites(pref)
            for site in sites:
                if pref.cond is not None:
                    self.expect(pref.cond, self.expr(pref.cond, site.scope), BOOL, "a preference's condition")
                if pref.weight is not None:
                    self.expect(pref.weight, self.expr(pref.weight, site.scope), INT, "a weight")

    def style_sites(self, pref: ast.Preference) -> list[Site]:
        """The decisions a preference speaks of; none is an error that says what the rule asks."""
        if pref.rule not in self.sym.rules:
            self.error(
                pref,
                codes.UNKNOWN_NAME,
                f"unknown rule '{pref.rule}'",
                self._suggest(pref.rule, self.sym.rules),
            )
            return []
        self.used.add(pref.rule)
        in_rule = [site for site in self.sym.sites if site.rule == pref.rule]
        kinds = {
            "option": ("choose", "order"),
            "yes": ("ask",),
            "pass": ("choose", "ask"),
            "offer": ("offer",),
        }
        found = [
            site
            for site in in_rule
            if site.kind in kinds[pref.target]
            and (pref.target != "option" or site.var == pref.var)
            and (pref.target != "pass" or site.optional)
        ]
        if not found:
            asked = sorted({f"{pref.rule}.{site.var}" for site in in_rule if site.var})
            hint = f"it chooses {', '.join(asked)}" if asked else "it asks nothing"
            r, v = pref.rule, pref.var
            message = {
                "option": f"rule '{r}' has no 'choose {v}' (nor 'for each {v} ... chosen by')",
                "yes": f"rule '{r}' has no 'may \"...\"'",
                "pass": f"rule '{r}' has nothing to pass: no 'may choose', no 'may \"...\"'",
                "offer": f"the rules never offer '{r}'",
            }[pref.target]
            self.error(pref, codes.UNKNOWN_NAME, f"no decision to prefer: {message}", hint)
        return found

    def step_line(self, movement: ast.MovementDecl, step: ast.Expr, scope: dict[str, Type]) -> None:
        """`step NAME to PLACES`: NAME (and `start`) is a place of the type the movement's routes
        start on, when every call agrees on one; PLACES is a list of places of that type."""
        starts = self.route_starts.get(movement.name, set()) - {ANY}
        place = next(iter(starts)) if len(starts) == 1 else ANY
        inner: dict[str, Type] = {**scope, "start": place, movement.step_var: place}
        got = self.expr(step, inner)
        self.expect(step, got, ListOf(), "a 'step' line (the places one step reaches)")
        item = element(got)
        if ANY not in (place, item) and not (item.refines(place) or place.refines(item)):
            self.error(
                step,
                codes.WRONG_TYPE,
                f"a step from {place.readable()} reaches places of the same kind, not {got.readable()}",
            )

    def named_blocks(self) -> None:
        """Variants address phases and steps by name, so a name must be unique in its kind."""
        seen: dict[tuple[str, str], ast.Named] = {}
        for body in ast.statement_lists(self.module.decls):
            for stmt in body:
                if isinstance(stmt, ast.Named):
                    first = seen.setdefault((stmt.kind, stmt.name), stmt)
                    if first is not stmt:
                        self.error(
                            stmt,
                            codes.DECLARED_TWICE,
                            f"two {stmt.kind}s are called '{stmt.name}' (first at line {first.span.line})",
                            "a variant could not tell them apart",
                        )

    def unused(self) -> None:
        s = self.sym
        for kind, group in (("rule", s.rules), ("value", s.values), ("constant", s.constants)):
            for name, decl in group.items():
                if name not in self.used:
                    self.warning(decl, codes.UNUSED_RULE, f"{kind} '{name}' is never used")


def counter_type(decl: ast.CounterDecl) -> Type:
    """What an example's `expect:` reads a counter as: a number, or one per seat."""
    return ListOf(INT) if decl.per_player else INT


def cell_problem(
    cell: ast.Cell, is_name: bool, col: ast.Column, tables: dict[str, ast.Table]
) -> tuple[str, str, str] | None:
    """What is wrong with a cell of a column (its code, message and hint), or None: the one test
    of a cell against its column's type, for a table's rows and for a variant's table patches."""
    if col.type is None or cell is None:
        if cell is None and col.type is not None and not col.type.optional and col.type.name in SCALAR_WORDS:
            return (
                codes.BAD_ROW,
                f"column '{col.name}' needs a value here (or make it '{col.type.name}?')",
                "",
            )
        return None
    kind = col.type.name
    ok = {
        "int": isinstance(cell, int) and not isinstance(cell, bool),
        "bool": isinstance(cell, bool),
        "text": isinstance(cell, str),
    }.get(kind)
    if ok is not None:
        if not ok:
            shown = "yes" if cell is True else "no" if cell is False else cell
            plural = {"int": "numbers", "bool": "yes or no", "text": "texts"}[kind]
            return codes.WRONG_TYPE, f"column '{col.name}' holds {plural}, not '{shown}'", ""
        return None
    target = tables.get(kind)
    if target is None or (is_name and any(r.cells and r.cells[0] == cell for r in target.rows)):
        return None
    keys = [str(r.cells[0]) for r in target.rows if r.cells]
    close = difflib.get_close_matches(str(cell), keys, n=1)
    return (
        codes.NOT_A_ROW,
        f"'{cell}' is not a row of table '{kind}' (column '{col.name}')",
        f"did you mean '{close[0]}'?" if close else "",
    )


def is_keyed(table: ast.Table) -> bool:
    """A table whose first column is untyped is keyed by it (each row has a name); a table whose
    first column is typed (a relation such as `border (a: zone, b: zone)`) has anonymous rows."""
    return bool(table.columns) and table.columns[0].type is None


def _one_or_list_of(got: Type, want: Type) -> bool:
    """`got` is a `want`, or a list of them (a list of what is not known counts)."""
    return got.fits(want) or got.fits(ListOf(want)) or (isinstance(got, ListOf) and got.item == ANY)


def analyse(module: ast.Module) -> tuple[Symbols, list[Diagnostic]]:
    """Names and types (`names_and_types`), then the bounds of what the symbols declare."""
    from meeple.interpreter.bounds import check_bounds  # a pass over these symbols

    symbols, diagnostics = names_and_types(module)
    return symbols, [*diagnostics, *check_bounds(symbols)]


def names_and_types(module: ast.Module) -> tuple[Symbols, list[Diagnostic]]:
    """Names and types (Analyzer), then the passes that resolve what it names (carried state, a
    sequence of games): all of `analyse` but the bounds. The language server shows these as one
    types, before the bounds and the compiler have run (`loader.check_names`)."""
    from meeple.interpreter.carry import resolve  # carried state: a pass over these symbols
    from meeple.interpreter.sequence import check_sequence

    analyzer = Analyzer(module)
    symbols = analyzer.run()
    symbols.carried, carry_diags = resolve(symbols, analyzer)
    symbols.sequence, sequence_diags = check_sequence(symbols)
    return symbols, [*analyzer.diags, *carry_diags, *sequence_diags]
