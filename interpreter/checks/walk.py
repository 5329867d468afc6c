"""Walking the AST for the checks: what a piece of rules mentions, where each statement stands, and
which values can be known without playing.

The walkers read the nodes' fields (`Node.fields`, `Node.walk`: the AST's own traversal) instead
of listing every node type, so that a statement or declaration added to the language later is
still walked: what they do not know they treat conservatively (a string field is a possible
reference; an unknown statement may change anything), so that a new construct can hide a warning
but never cause a false one.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.builtins import BUILTINS

# String fields that name nothing declared elsewhere: texts, labels, the names a statement binds,
# operators. Every other string field is read as a possible reference. A statement's are its facts
# (`texts`, `binds`).
_NOT_REFERENCES: set[tuple[type[ast.Node], str]] = {
    *((kind, name) for kind in ast.statement_kinds() for name in kind.facts.texts),
    *((kind, kind.facts.binds) for kind in ast.statement_kinds() if kind.facts.binds is not None),
    (ast.Text, "value"),
    (ast.Unary, "op"),
    (ast.Binary, "op"),
    (ast.Filter, "var"),
    (ast.MapComp, "var"),
    (ast.Outcome, "name"),
    (ast.Param, "name"),
    (ast.Column, "name"),
    (ast.Column, "called"),
    (ast.Row, "cells"),
    (ast.TriggerDecl, "piece_var"),
    (ast.TriggerDecl, "loc_var"),
    (ast.ScoreDecl, "kind"),
    (ast.ScoreDecl, "var"),
    (ast.Example, "choices"),
    (ast.Example, "outcomes"),
    (ast.GameHeader, "rulebook"),
    (ast.ZoneDecl, "flags"),
    (ast.MapDecl, "edge_from"),
    (ast.MapDecl, "edge_to"),
    (ast.Module, "file"),
    (ast.Module, "source"),
}
# String fields that name a global declaration (a rule, a function, a table); a statement's, the
# rule it runs (`calls`).
_NAMING_FIELDS: set[tuple[type[ast.Node], str]] = {
    *((kind, kind.facts.calls) for kind in ast.statement_kinds() if kind.facts.calls is not None),
    (ast.Call, "func"),
    (ast.TypeRef, "name"),
    (ast.PieceDecl, "each_row_of"),
    (ast.ComponentDecl, "each_row_of"),
    (ast.ZoneDecl, "per"),
    (ast.VarDecl, "per"),
    (ast.MapDecl, "nodes"),
    (ast.MapDecl, "edges"),
}


def metas(module: ast.Module) -> Iterator[tuple[ast.Meta, ast.Node]]:
    """Every `cites`, `aside`, `text`, `assume` and `conflict` line, with the declaration it is in
    (the module itself for the lines at the top level)."""
    for top in module.meta:
        for node in top.walk():  # a conflict holds its passages and its reading
            if isinstance(node, ast.Meta):
                yield node, module
    for decl in module.decls:
        seen: set[int] = set()  # a block's lines are also the declaration's `meta`: the same nodes
        for node in decl.walk():
            if isinstance(node, ast.Meta) and id(node) not in seen:
                seen.add(id(node))
                yield node, decl


# ------------------------------------------------------------------ references


@dataclass
class Refs:
    """What a piece of rules mentions, by namespace."""

    names: set[str] = field(default_factory=set)  # bare names, calls and type names: global declarations
    attrs: set[str] = field(default_factory=set)  # `x.NAME`: per-owner variables and zones
    kinds: set[str] = field(default_factory=set)  # kinds of piece named by moves and triggers
    set_names: set[str] = field(default_factory=set)  # global variables changed by set/add/subtract
    set_attrs: set[str] = field(default_factory=set)  # `x.NAME` changed by set/add/subtract

    def update(self, other: Refs) -> None:
        self.names |= other.names
        self.attrs |= other.attrs
        self.kinds |= other.kinds
        self.set_names |= other.set_names
        self.set_attrs |= other.set_attrs


def refs(node: ast.Node) -> Refs:
    """Everything a subtree mentions. A declaration's own name is not a mention of itself."""
    out = Refs()
    _refs(node, out, top=True)
    return out


def reaches(symbols: Symbols, node: ast.Node) -> Refs:
    """Everything a piece of rules mentions, and everything the values it computes mention, to
    the end: what a score really reads, for instance, when it reads it through values."""
    out = refs(node)
    done: set[str] = set()
    while todo := [n for n in out.names if n in symbols.values and n not in done]:
        for name in todo:
            done.add(name)
            out.update(refs(symbols.values[name]))
    return out


def _refs(node: ast.Node, out: Refs, top: bool = False) -> None:
    match node:
        case ast.Name():
            out.names.add(node.id)
            return
        case ast.Attr():
            out.attrs.add(node.name)
            _refs(node.obj, out)
            return
        case ast.Call() if node.func in BUILTINS and BUILTINS[node.func].names_attribute:
            out.names.add(node.func)
            for i, arg in enumerate(node.args):
                if i == 1 and isinstance(arg, ast.Name):
                    out.attrs.add(arg.id)
                else:
                    _refs(arg, out)
            return
        case ast.Stmt() if node.facts.targets:  # `set X to V`...: X is changed, not read
            for name, value in node.fields():
                if name in node.facts.targets:
                    _set_refs(value, out)
                else:
                    for child in ast.nodes_in(value):
                        _refs(child, out)
            return
        case ast.TriggerDecl():
            out.kinds.add(node.kind)
        case ast.Stmt() if _names_kind(node):  # `move 2 stone ...`: its facts say its `kind` field
            out.kinds.add(getattr(node, "kind", ""))
        case ast.PieceDecl() if isinstance(node.zone, ast.Name):
            out.attrs.add(node.zone.id)  # `in hand`: each player's own zone, by its bare name
    _field_refs(node, out, top)


def _field_refs(node: ast.Node, out: Refs, top: bool) -> None:
    """What a node's fields mention: its strings that may be names, and its children's mentions."""
    for name, value in node.fields():
        if isinstance(value, str) and not _skip(node, name, top):
            out.names.add(value)
            if (type(node), name) not in _NAMING_FIELDS:
                out.attrs.add(value)  # a field the checks do not know: it may name anything
        for child in ast.nodes_in(value):
            _refs(child, out)


def _set_refs(target: ast.Expr, out: Refs) -> None:
    """What a variable that a statement changes mentions: the variable as changed."""
    if isinstance(target, ast.Name):
        out.set_names.add(target.id)
    elif isinstance(target, ast.Attr):
        out.set_attrs.add(target.name)
        _refs(target.obj, out)
    else:
        _refs(target, out)


def _names_kind(node: ast.Node) -> bool:
    """A statement that moves the pieces of the kind its `kind` field names (its facts say so)."""
    return isinstance(node, ast.Stmt) and node.facts.moves == "kind"


def _skip(node: ast.Node, name: str, top: bool) -> bool:
    if (type(node), name) in _NOT_REFERENCES:
        return True
    if name == "kind" and (isinstance(node, ast.TriggerDecl) or _names_kind(node)):
        return True  # collected as a kind of piece above
    return name == "name" and isinstance(node, ast.Decl) and top


# ------------------------------------------------------------------ statements and where they stand


@dataclass(frozen=True, eq=False)
class Owner:
    """A body of statements the game runs: a rule, a trigger, setup or play."""

    kind: str  # "rule", "trigger", "setup", "play"
    name: str
    decl: ast.Decl

    @property
    def label(self) -> str:
        if self.kind == "rule":
            return f"rule '{self.name}'"
        if self.kind == "trigger":
            return f"the trigger '{self.name}'"
        return self.kind

    @property
    def body(self) -> list[ast.Stmt]:
        return list(getattr(self.decl, "body", []))


def owners(symbols: Symbols) -> list[Owner]:
    out = [Owner("rule", name, decl) for name, decl in symbols.rules.items()]
    for trig in symbols.triggers:
        where = " where ..." if trig.cond is not None else ""
        label = f"when {trig.kind} {trig.piece_var} enters {trig.loc_var}{where}"
        out.append(Owner("trigger", label, trig))
    if symbols.setup is not None:
        out.append(Owner("setup", "setup", symbols.setup))
    if symbols.play is not None:
        out.append(Owner("play", "play", symbols.play))
    return out


@dataclass(frozen=True, eq=False)
class Site:
    """A statement, the body it runs in, and which part of its parent that body is."""

    stmt: ast.Stmt
    owner: Owner
    parent: ast.Stmt | None
    slot: str  # "body", "if", "elif", "else", "outcome NAME", or the field of an unknown statement

    @property
    def key(self) -> tuple[int, int]:
        """How the compiler's coverage names this statement."""
        return (self.stmt.span.line, self.stmt.span.column)


def sites(
    body: list[ast.Stmt], owner: Owner, parent: ast.Stmt | None = None, slot: str = "body"
) -> Iterator[Site]:
    """Every statement of a body and of the bodies inside it, parents first."""
    for stmt in body:
        if isinstance(stmt, ast.Meta):
            continue
        yield Site(stmt, owner, parent, slot)
        for part, inner in stmt.named_blocks():
            yield from sites(inner, owner, stmt, part)


# ------------------------------------------------------------------ values known without playing

UNKNOWN: Any = type("Unknown", (), {"__repr__": lambda self: "UNKNOWN"})()

_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "%": operator.mod,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Known:
    """Values that do not depend on the game being played: literals, constants, table sizes.

    `value(e)` is UNKNOWN whenever it cannot be sure; the checks only prove things from what it
    returns."""

    def __init__(self, symbols: Symbols, constants: dict[str, Any]) -> None:
        self.sym = symbols
        self.constants = constants

    def value(self, e: ast.Expr | None) -> Any:
        match e:
            case ast.Num() | ast.Bool() | ast.Text():
                return e.value
            case ast.Name(id=name) if name in self.constants and isinstance(self.constants[name], int | str):
                return self.constants[name]
            case ast.Unary(op="-"):
                inner = self.value(e.operand)
                return -inner if isinstance(inner, int) and not isinstance(inner, bool) else UNKNOWN
            case ast.Unary(op="not"):
                inner = self.value(e.operand)
                return (not inner) if isinstance(inner, bool) else UNKNOWN
            case ast.Binary(op="and" | "or"):
                return self._logic(e)
            case ast.Binary(op=op) if op in _OPS:
                left, right = self.value(e.left), self.value(e.right)
                if left is UNKNOWN or right is UNKNOWN or type(left) is not type(right):
                    return UNKNOWN
                try:
                    return _OPS[op](left, right)
                except (ArithmeticError, TypeError):
                    return UNKNOWN
        return UNKNOWN

    def _logic(self, e: ast.Binary) -> Any:
        """`x or yes` is yes and `x and no` is no, whatever x is."""
        left, right = self.value(e.left), self.value(e.right)
        if e.op == "or":
            if left is True or right is True:
                return True
            if left is False and right is False:
                return False
        else:
            if left is False or right is False:
                return False
            if left is True and right is True:
                return True
        return UNKNOWN

    def length(self, e: ast.Expr) -> int | None:
        """How many elements a list expression has, when that is certain."""
        match e:
            case ast.ListLit():
                return len(e.items)
            case ast.Name(id=name) if name in self.sym.tables:
                return len(self.sym.tables[name].rows)
            case ast.Name(id=name) if name in self.sym.maps and self.sym.maps[name].nodes in self.sym.tables:
                return len(self.sym.tables[self.sym.maps[name].nodes].rows)
            case ast.Binary(op=".."):
                low, high = self.value(e.left), self.value(e.right)
                if isinstance(low, int) and isinstance(high, int):
                    return max(0, high - low + 1)
            case ast.Filter():
                if self.value(e.cond) is False or self.length(e.seq) == 0:
                    return 0
            case ast.MapComp():
                if e.cond is not None and self.value(e.cond) is False:
                    return 0
                if e.cond is None:
                    return self.length(e.seq)
                if self.length(e.seq) == 0:
                    return 0
        return None

    def empty(self, seq: ast.Expr, cond: ast.Expr | None) -> bool:
        """The elements of `seq` that pass `cond` are certainly none."""
        return self.length(seq) == 0 or (cond is not None and self.value(cond) is False)


def site_index(symbols: Symbols) -> dict[tuple[int, int], Site]:
    """Every statement the game runs, by the (line, column) that coverage records for it."""
    return {site.key: site for owner in owners(symbols) for site in sites(owner.body, owner)}
