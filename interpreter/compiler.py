"""AST -> closures, once per rules file.

Every expression becomes a function `(runtime, env) -> value`; every statement becomes either a
plain function `(runtime, env) -> None` or, when it can ask for a decision or a random outcome, a
generator function that yields Decision/Chance requests. Knowing which statements can suspend
(a fixpoint over the rule call graph) lets most of a game run as plain calls: the engine never
walks the AST while a game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import Any

from meeple.diagnostics import Diagnostic, RulesError
from meeple.grammar import ast
from meeple.interpreter import grids
from meeple.interpreter.analysis import Symbols, is_keyed, type_of_ref
from meeple.interpreter.builtins import BUILTINS, locations
from meeple.interpreter.program import CompiledExample, Fn, Gen, Movement, Program, Trigger
from meeple.interpreter.results import RESULTS
from meeple.interpreter.runtime import (
    CURRENT,
    Chance,
    Decision,
    GameEnded,
    Offer,
    RuleRuntimeError,
    describe,
    offers_for,
    take_offer,
)
from meeple.interpreter.values import (
    Bottom,
    Cell,
    Kind,
    MapRef,
    Piece,
    PieceRef,
    Placement,
    Player,
    Route,
    Row,
    ZoneLoc,
    label,
    type_name,
)
from meeple.limits import DEFAULT_BUDGET, MAX_LIST, MAX_NUMBER, MAX_PIECES

Compiled = tuple[Callable[..., Any], bool]  # (function, is it a generator function)
_ERRORS = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError)


class OverLimit(ValueError):
    """A value beyond meeple's limits (meeple/limits.py): stops the rule like any error in it."""


def _too_big(n: int) -> OverLimit:
    return OverLimit(f"a number grew beyond {MAX_NUMBER:,} (the largest a game may compute)")


def _list_limit(size: int) -> OverLimit:
    return OverLimit(f"a list of {size:,} items: more than the {MAX_LIST:,} a list may hold")


class _Fixed:
    """What a constant is computed with before any game exists: a step budget and nothing else,
    so that reading the position (players, variables, pieces) fails, as it must in a constant,
    and going through lists still costs steps."""

    __slots__ = ("budget", "steps")

    def __init__(self) -> None:
        self.steps, self.budget = 0, DEFAULT_BUDGET


def _number(n: int) -> int:
    """A computed whole number, refused when it outgrows the limit: a rule multiplying a number by
    itself would otherwise fill the memory in a few dozen steps."""
    if -MAX_NUMBER <= n <= MAX_NUMBER:
        return n
    raise _too_big(n)


ROUTE_ATTRS = {"start", "end", "passed", "path", "steps"}
SHARED_TYPES = {"int", "bool", "text", "player"}


def as_gen(fn: Callable[..., Any], is_gen: bool) -> Gen:
    """A plain statement as a generator function, for places that always `yield from`."""
    if is_gen:
        return fn

    def gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
        fn(rt, env)
        return
        yield  # pragma: no cover - makes this a generator

    return gen


def _nothing(rt: Any, env: dict[str, Any]) -> None:
    return None


def _distinct(items: list[Any]) -> list[Any]:
    """The options of a choice among `items`: identical pieces in one place are one option, since
    which of them is taken makes no difference (the first is)."""
    return list(dict.fromkeys(items)) if items and type(items[0]) is PieceRef else items


_MISSING = object()  # not in the memo (None is an answer like any other)


def _compute(rt: Any, key: tuple[Any, ...], fn: Fn, env: dict[str, Any]) -> Any:
    """Compute a value's answer, recording what it reads, and remember it (see Compiler.call)."""
    caller = rt.reads
    rt.reads = reads = set()
    try:
        result = fn(rt, env)
    finally:
        rt.reads = caller
    rt.remember(key, result, reads)
    if caller is not None:
        caller.add(key)
    return result


def _memoized(fn: Fn, params: list[str]) -> Fn:
    """A value of fixed data, remembered per arguments (shared by every game of the program)."""
    cache: dict[tuple[Any, ...], Any] = {}

    def value(rt: Any, env: dict[str, Any]) -> Any:
        key = tuple(env[p] for p in params)
        if key not in cache:
            cache[key] = fn(rt, env)
        return cache[key]

    return value


def _arrive(rt: Any, to: Any, pieces: list[Piece], span: ast.Span, rule: str) -> Any:
    """Put pieces where a move sends them: on top of the others, or (`bottom(Z)`) under them.
    Returns the place they are in now."""
    if isinstance(to, Bottom):
        _pile(rt, to.loc, span, rule)[0:0] = pieces
        return to.loc
    _pile(rt, to, span, rule).extend(pieces)
    return to


def _pile(rt: Any, loc: Any, span: ast.Span, rule: str) -> list[Piece]:
    """The pieces at a location, or a clear error when the value is not a place that holds pieces."""
    pile = rt.locs.get(loc)
    if pile is None:
        raise RuleRuntimeError(
            f"{label(loc)} is not a place that holds pieces (a zone or a map node)", span, rule
        )
    return pile


class Compiler:
    def __init__(self, symbols: Symbols, coverage: bool = False) -> None:
        self.sym = symbols
        self.coverage = coverage  # record which statements run (for `meeple check --play`)
        header = symbols.header
        self.p = Program(
            symbols=symbols,
            name=header.name if header else "?",
            min_players=header.min_players if header else 1,
            max_players=header.max_players if header else 1,
        )
        self.rule = ""  # the rule being compiled, for error messages
        self.suspending: set[str] = set()
        self.static: set[str] = set()  # values of fixed data (static_values)
        self.trigger_kinds = {t.kind for t in symbols.triggers}

    # ============================================================== data

    def build_data(self) -> None:
        p, sym = self.p, self.sym
        for table in sym.tables.values():
            keyed = is_keyed(table)
            rows = [
                Row(table.name, str(r.cells[0]) if keyed else f"{table.name} {i + 1}", i)
                for i, r in enumerate(table.rows)
            ]
            p.rows[table.name] = rows
            p.row_by_key[table.name] = {r.key: r for r in rows}
        for table in sym.tables.values():
            for row, src in zip(p.rows[table.name], table.rows, strict=True):
                for col, cell in zip(table.columns, src.cells, strict=False):
                    ref = col.type.name if col.type else None
                    if ref in p.row_by_key and isinstance(cell, str):
                        row.values[col.name] = p.row_by_key[ref][cell]
                    else:
                        row.values[col.name] = cell
        for piece in sym.pieces.values():
            rows_of = piece.each_row_of or piece.per_row_of
            if rows_of:
                p.kinds[piece.name] = [Kind(piece.name, r) for r in p.rows.get(rows_of, [])]
            else:
                p.kinds[piece.name] = [Kind(piece.name, None)]
        for zone in sym.zones.values():
            p.zone_locs[(zone.name, None)] = ZoneLoc(zone.name, None)
        for per, group in sym.owned_zones.items():
            owners: list[Any] = p.players if per == "player" else p.rows.get(per, [])
            for zone in group.values():
                for owner in owners:
                    p.zone_locs[(zone.name, owner)] = ZoneLoc(zone.name, owner)
        for m in sym.maps.values():
            if m.grid is not None:
                owners: list[Any] = p.players if m.per == "player" else [None]
                for owner in owners:
                    p.map_refs[(m.name, owner)] = MapRef(m.name, owner)
                continue
            nodes = p.rows.get(m.nodes, [])
            p.map_nodes[m.name] = nodes
            p.map_of_table.setdefault(m.nodes, m.name)
            adjacency: dict[Row, list[Row]] = {node: [] for node in nodes}
            p.adjacency[m.name] = adjacency
            if m.edges and m.edge_from and m.edge_to:
                for edge in p.rows.get(m.edges, []):
                    a, b = edge.values.get(m.edge_from), edge.values.get(m.edge_to)
                    if a in adjacency and b in adjacency:
                        if b not in adjacency[a]:
                            adjacency[a].append(b)
                        if a not in adjacency[b]:
                            adjacency[b].append(a)

    # ============================================================== which rules can suspend

    def find_suspending(self) -> None:
        changed = True
        while changed:
            changed = False
            for rule in self.sym.rules.values():
                if rule.name not in self.suspending and self._suspends(rule.body):
                    self.suspending.add(rule.name)
                    changed = True

    def _suspends(self, body: list[ast.Stmt]) -> bool:
        return any(self.suspends(s) for s in body)

    def suspends(self, s: ast.Stmt) -> bool:
        """Whether a statement can yield a decision or a random outcome, and so is compiled as a
        generator function. The one place that decides it: the fixpoint over the rules asks it, and
        so does `stmt`, which gives every compiled statement this answer as its form."""
        match s:
            case ast.Choose() | ast.Ask() | ast.Random() | ast.Pick():
                return True
            case ast.ForEach() if s.chooser is not None:
                return True
            case ast.CallStmt():
                return s.name in self.suspending
            case ast.MoveCount() | ast.MoveAll():
                return s.kind in self.trigger_kinds
            case ast.MoveRefs() | ast.Draw():
                return bool(self.trigger_kinds)
            case ast.If():
                return any(self._suspends(b) for _, b in s.branches) or self._suspends(s.orelse)
            case ast.Offer():
                return True  # compiled as a generator always: it manages the offers around its body
            case ast.ForEach() | ast.Repeat() | ast.While() | ast.Turn() | ast.Named():
                return self._suspends(s.body)
        return False

    # ============================================================== expressions

    def expr(self, e: ast.Expr, scope: set[str]) -> Fn:
        p, sym = self.p, self.sym
        match e:
            case ast.Num(value=v) | ast.Text(value=v) | ast.Bool(value=v):
                return lambda rt, env: v
            case ast.NoneLit():
                return lambda rt, env: None
            case ast.Name(id=name):
                return self.name(name, scope)
            case ast.Attr(obj=ast.Name(id=table), name=key) if table in sym.tables and table not in scope:
                row = p.row_by_key[table][key]
                return lambda rt, env: row
            case ast.Attr():
                obj = self.expr(e.obj, scope)
                return self.typed_attr(obj, e.name, sym.types.get(id(e.obj), "any")) or self.attr(
                    obj, e.name, e.span
                )
            case ast.Index():
                obj, index = self.expr(e.obj, scope), self.expr(e.index, scope)

                if self.sym.types.get(id(e.obj), "").startswith("rows:"):  # `p.NAME[row]`
                    return lambda rt, env: obj(rt, env)[index(rt, env)]

                def item(rt: Any, env: dict[str, Any]) -> Any:
                    i = index(rt, env)
                    if i < 0:
                        raise OverLimit(f"there is no item {i} in a list: items are numbered from 0")
                    return obj(rt, env)[i]

                return item
            case ast.Unary(op="-"):
                inner = self.expr(e.operand, scope)
                return lambda rt, env: -inner(rt, env)  # the limits are symmetric: no check
            case ast.Unary():
                inner = self.expr(e.operand, scope)
                return lambda rt, env: not inner(rt, env)
            case ast.Binary():
                return self.binary(e, scope)
            case ast.IfExpr():
                cond, then, orelse = (
                    self.expr(e.cond, scope),
                    self.expr(e.then, scope),
                    self.expr(e.orelse, scope),
                )
                return lambda rt, env: then(rt, env) if cond(rt, env) else orelse(rt, env)
            case ast.ListLit():
                items = [self.expr(i, scope) for i in e.items]
                return lambda rt, env: [f(rt, env) for f in items]
            case ast.Filter():
                seq, cond, var = self.expr(e.seq, scope), self.expr(e.cond, scope | {e.var}), e.var
                spend = self._spending(e.span)

                def filter_(rt: Any, env: dict[str, Any]) -> list[Any]:
                    out = []
                    for x in spend(rt, seq(rt, env)):
                        env[var] = x
                        if cond(rt, env):
                            out.append(x)
                    return out

                if not e.keys:
                    return filter_
                keys = [self.expr(k, scope | {e.var}) for k in e.keys]

                def ranked(rt: Any, env: dict[str, Any]) -> list[Any]:
                    """Highest keys first; Python's sort is stable, so ties keep the list's order."""
                    ranks = []
                    for x in filter_(rt, env):
                        env[var] = x
                        ranks.append((tuple(-k(rt, env) for k in keys), x))
                    ranks.sort(key=lambda pair: pair[0])
                    return [x for _, x in ranks]

                return ranked
            case ast.MapComp():
                seq, var, fn, cond = self.comprehension(e, scope)
                spend = self._spending(e.span)

                def map_(rt: Any, env: dict[str, Any]) -> list[Any]:
                    out = []
                    for x in spend(rt, seq(rt, env)):
                        env[var] = x
                        if cond is None or cond(rt, env):
                            out.append(fn(rt, env))
                    return out

                return map_
            case ast.Call():
                return self.call(e, scope)
        raise AssertionError(f"cannot compile {type(e).__name__}")

    def _spending(self, span: ast.Span) -> Callable[[Any, list[Any]], list[Any]]:
        """What going through a list costs: one step of the budget per item, charged when the
        list is known. Expressions run inside the step budget too, so a comprehension inside a
        comprehension over big lists ends with the budget's error instead of running for hours."""
        rule = self.rule or "the flow"

        def spend(rt: Any, items: list[Any]) -> list[Any]:
            rt.steps += len(items)
            if rt.steps > rt.budget:
                raise RuleRuntimeError(
                    f"the step budget ({rt.budget}) ran out going through a list of {len(items):,} items "
                    f"in '{rule}'",
                    span,
                    rule,
                )
            return items

        return spend

    def comprehension(self, e: ast.MapComp, scope: set[str]) -> tuple[Fn, str, Fn, Fn | None]:
        """The compiled parts of `[f(x) for each x in s where c]`: s, x, f and c (or None)."""
        inner = scope | {e.var}
        cond = self.expr(e.cond, inner) if e.cond is not None else None
        return self.expr(e.seq, scope), e.var, self.expr(e.expr, inner), cond

    def lazy_map(self, e: ast.MapComp, scope: set[str]) -> Callable[[Any, dict[str, Any]], Iterator[Any]]:
        """`[f(x) for each x in s where c]` one item at a time, for `any` and `all`, which can
        stop early: expressions change nothing, so the items not computed cannot be missed. (A
        list comprehension stays a plain loop: a generator there costs a quarter more.)"""
        seq, var, fn, cond = self.comprehension(e, scope)

        spend = self._spending(e.span)

        def items(rt: Any, env: dict[str, Any]) -> Iterator[Any]:
            for x in spend(rt, seq(rt, env)):
                env[var] = x
                if cond is None or cond(rt, env):
                    yield fn(rt, env)

        return items

    def name(self, name: str, scope: set[str]) -> Fn:
        p, sym = self.p, self.sym
        if name in scope:
            return lambda rt, env: env[name]
        if name in p.constants:
            value = p.constants[name]
            return lambda rt, env: value
        if name in sym.constants:
            value = self.constant(name)
            return lambda rt, env: value
        if name in sym.vars:

            def var(rt: Any, env: dict[str, Any]) -> Any:
                reads = rt.reads
                if reads is not None:
                    reads.add(name)
                return rt.vars[name]

            return var
        if name in sym.zones:
            loc = p.zone_locs[(name, None)]
            return lambda rt, env: loc
        if name in sym.tables:
            rows = p.rows[name]  # shared, never changed: statements that change lists take copies
            return lambda rt, env: rows
        if name in sym.maps and (name, None) in p.map_refs:
            grid_map = p.map_refs[(name, None)]
            return lambda rt, env: grid_map
        if name in sym.maps:
            nodes = p.map_nodes[name]
            return lambda rt, env: nodes
        if name in sym.pieces:
            return lambda rt, env: name
        if name == "players":
            return lambda rt, env: list(rt.players)
        if name == "current":

            def current(rt: Any, env: dict[str, Any]) -> Player | None:
                reads = rt.reads
                if reads is not None:
                    reads.add(CURRENT)
                return rt.current

            return current
        if name == "player_count":
            return lambda rt, env: len(rt.players)
        if name == "self":
            return lambda rt, env: env["self"]
        tables = sym.row_keys.get(name, [])
        if len(tables) == 1:
            row = p.row_by_key[tables[0]][name]
            return lambda rt, env: row
        raise AssertionError(f"unresolved name {name}")  # analysis reports these first

    def constant(self, name: str) -> Any:
        if name not in self.p.constants:
            self.p.constants[name] = None  # guards against a constant defined by itself
            decl = self.sym.constants[name]
            fn = self.expr(decl.value, set())
            try:
                self.p.constants[name] = fn(_Fixed(), {})
            except (RuleRuntimeError, *_ERRORS):
                raise RuleRuntimeError(
                    f"constant '{name}' must be known before a game starts: it may use numbers, texts, "
                    "tables and other constants, not players or anything that changes",
                    decl.span,
                ) from None
        return self.p.constants[name]

    def typed_attr(self, obj: Fn, name: str, owner: str) -> Fn | None:
        """`x.name` where analysis knows what x is: a direct lookup, no dispatch at run time."""
        sym, zone_locs = self.sym, self.p.zone_locs
        per = "player" if owner == "player" else owner[4:] if owner.startswith("row:") else None
        if per is None:
            return None
        if name in sym.owned_vars.get(per, {}):
            key = (per, name)

            def owned_var(rt: Any, env: dict[str, Any]) -> Any:
                o = obj(rt, env)
                reads = rt.reads
                if reads is not None:
                    reads.add((key, o))
                return rt.owned[key][o]

            return owned_var
        if name in sym.owned_zones.get(per, {}):
            return lambda rt, env: zone_locs[(name, obj(rt, env))]
        if per == "player" and (name, self.p.players[0]) in self.p.map_refs:
            map_refs = self.p.map_refs
            return lambda rt, env: map_refs[(name, obj(rt, env))]
        if per != "player" and per in sym.tables and any(col.name == name for col in sym.tables[per].columns):
            return lambda rt, env: obj(rt, env).values[name]
        return None

    def attr(self, obj: Fn, name: str, span: ast.Span) -> Fn:
        """`x.name`, resolved by the runtime kind of x. What `name` can mean for a row of each table
        (a variable, a zone or a column) is decided here, once, not at every access."""
        p, sym, rule = self.p, self.sym, self.rule
        player_var = ("player", name) if name in sym.owned_vars.get("player", {}) else None
        player_zone = name in sym.owned_zones.get("player", {})
        zone_locs, map_refs = p.zone_locs, p.map_refs
        row_var = {table: (table, name) for table, group in sym.owned_vars.items() if name in group}
        row_zone = {table for table, group in sym.owned_zones.items() if name in group}

        def of_row(rt: Any, row: Row) -> Any:
            key = row_var.get(row.table)
            if key is not None:
                if rt is None:
                    raise RuleRuntimeError(
                        f"'{name}' changes during a game: a constant cannot use it", span, rule
                    )
                if rt.reads is not None:
                    rt.reads.add((key, row))
                return rt.owned[key][row]
            if row.table in row_zone:
                return zone_locs[(name, row)]
            return row.values[name]

        def get(rt: Any, env: dict[str, Any]) -> Any:
            o = obj(rt, env)
            t = type(o)
            if t is Row:
                return of_row(rt, o)
            if t is Player:
                if player_var is not None:
                    if rt.reads is not None:
                        rt.reads.add((player_var, o))
                    return rt.owned[player_var][o]
                if player_zone:
                    return zone_locs[(name, o)]
                if (name, o) in map_refs:
                    return map_refs[(name, o)]
                if name == "seat":
                    return o.seat
            elif t is PieceRef:
                kind, owner = o.piece
                if name == "owner":
                    return owner
                if name == "kind":
                    return kind.name
                if name == "location":
                    return o.loc
                if name == "row":
                    return kind.row
                if kind.row is not None:
                    return of_row(rt, kind.row)
            elif t is ZoneLoc and name == "owner":
                return o.owner
            elif t is Cell:
                if name == "q":
                    return o.q
                if name == "r":
                    return o.r
                if name == "map":
                    return o.map
                if rt.reads is not None:
                    rt.reads.add(o)
                face = rt.faces[o]
                return face if name == "face" else of_row(rt, face)
            elif t is Route and name in ROUTE_ATTRS:
                return len(o.path) if name == "steps" else getattr(o, name)
            elif t is Placement and name == "cells":
                grid = grids.grid_of(rt, o.map)
                return [grid[c] for c in o.coords if c in grid]
            raise RuleRuntimeError(f"{label(o)} ({type_name(o)}) has no '{name}'", span, rule)

        return get

    def binary(self, e: ast.Binary, scope: set[str]) -> Fn:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        match e.op:
            case "and":
                return lambda rt, env: left(rt, env) and right(rt, env)
            case "or":
                return lambda rt, env: left(rt, env) or right(rt, env)
            case "+":

                def plus(rt: Any, env: dict[str, Any]) -> Any:
                    r = left(rt, env) + right(rt, env)
                    if type(r) is int:
                        if -MAX_NUMBER <= r <= MAX_NUMBER:
                            return r
                        raise _too_big(r)
                    if len(r) > MAX_LIST:
                        raise _list_limit(len(r))
                    return r

                return plus
            case "-":

                def minus(rt: Any, env: dict[str, Any]) -> int:
                    r = left(rt, env) - right(rt, env)
                    if -MAX_NUMBER <= r <= MAX_NUMBER:
                        return r
                    raise _too_big(r)

                return minus
            case "*":

                def times(rt: Any, env: dict[str, Any]) -> int:
                    r = left(rt, env) * right(rt, env)
                    if -MAX_NUMBER <= r <= MAX_NUMBER:
                        return r
                    raise _too_big(r)

                return times
            case "//":
                return lambda rt, env: left(rt, env) // right(rt, env)
            case "%":
                return lambda rt, env: left(rt, env) % right(rt, env)
            case "==":
                return lambda rt, env: left(rt, env) == right(rt, env)
            case "!=":
                return lambda rt, env: left(rt, env) != right(rt, env)
            case "<":
                return lambda rt, env: left(rt, env) < right(rt, env)
            case "<=":
                return lambda rt, env: left(rt, env) <= right(rt, env)
            case ">":
                return lambda rt, env: left(rt, env) > right(rt, env)
            case ">=":
                return lambda rt, env: left(rt, env) >= right(rt, env)
            case "in":
                return lambda rt, env: left(rt, env) in right(rt, env)
            case "not in":
                return lambda rt, env: left(rt, env) not in right(rt, env)
            case "..":
                spend = self._spending(e.span)

                def numbers(rt: Any, env: dict[str, Any]) -> list[int]:
                    low, high = left(rt, env), right(rt, env)
                    if high - low + 1 > MAX_LIST:
                        raise _list_limit(high - low + 1)
                    return spend(rt, list(range(low, high + 1)))

                return numbers
        raise AssertionError(e.op)

    def call(self, e: ast.Call, scope: set[str]) -> Fn:
        p = self.p
        name = e.func
        if name in self.sym.values:
            args = [self.expr(a, scope) for a in e.args]
            values = p.values

            # Values are called thousands of times a game: answer from the memo (Runtime.memo)
            # when the same question was asked and nothing it read has changed since. Computing
            # an answer records what it reads (Runtime.reads); using one, computed or
            # remembered, records its key in the caller's reads, so that a change reaches every
            # answer built on it. Bind no, or one, argument without a list and zip, and find the
            # value's function only when it must run (measured: a tenth of the time of a game that
            # asks many questions). Values of fixed data have a memo of their own (_memoized).
            # `last_rule` names the value being computed, for the error a recursion without end
            # raises; a remembered answer computes nothing.
            if name in self.static:

                def call_static(rt: Any, env: dict[str, Any]) -> Any:
                    rt.last_rule = name
                    params, fn = values[name]
                    return fn(rt, {p: a(rt, env) for p, a in zip(params, args, strict=True)})

                return call_static
            if not args:
                key0 = (name,)

                def call_value0(rt: Any, env: dict[str, Any]) -> Any:
                    result = rt.memo.get(key0, _MISSING)
                    if result is _MISSING:
                        rt.last_rule = name
                        return _compute(rt, key0, values[name][1], {})
                    if rt.reads is not None:
                        rt.reads.add(key0)
                    return result

                return call_value0
            if len(args) == 1:
                only = args[0]

                def call_value1(rt: Any, env: dict[str, Any]) -> Any:
                    arg = only(rt, env)
                    key = (name, arg)
                    try:
                        result = rt.memo.get(key, _MISSING)
                    except TypeError:  # a list argument: not remembered, its reads are the caller's
                        rt.last_rule = name
                        params, fn = values[name]
                        return fn(rt, {params[0]: arg})
                    if result is _MISSING:
                        rt.last_rule = name
                        params, fn = values[name]
                        return _compute(rt, key, fn, {params[0]: arg})
                    if rt.reads is not None:
                        rt.reads.add(key)
                    return result

                return call_value1

            def call_value(rt: Any, env: dict[str, Any]) -> Any:
                key = (name, *[a(rt, env) for a in args])
                try:
                    result = rt.memo.get(key, _MISSING)
                except TypeError:  # a list argument: not remembered, its reads are the caller's
                    rt.last_rule = name
                    params, fn = values[name]
                    return fn(rt, dict(zip(params, key[1:], strict=True)))
                if result is _MISSING:
                    rt.last_rule = name
                    params, fn = values[name]
                    return _compute(rt, key, fn, dict(zip(params, key[1:], strict=True)))
                if rt.reads is not None:
                    rt.reads.add(key)
                return result

            return call_value
        return BUILTINS[name].compile(self, e, scope)

    def static_values(self) -> set[str]:
        """Values that read only their arguments and the game's fixed data (tables, constants,
        other such values): the same arguments always give the same answer, so it is kept."""
        sym = self.sym
        changing = {name for group in sym.owned_vars.values() for name in group}
        changing |= {name for group in sym.owned_zones.values() for name in group}
        static: set[str] = set()

        def fixed(e: ast.Expr | None, local: set[str]) -> bool:
            match e:
                case None | ast.Num() | ast.Text() | ast.Bool() | ast.NoneLit():
                    return True
                case ast.Name(id=name):
                    return (
                        name in local
                        or name in sym.constants
                        or name in sym.tables
                        or (name in sym.row_keys and name not in sym.vars)
                    )
                case ast.Attr():
                    return e.name not in changing and fixed(e.obj, local)
                case ast.Index():
                    return fixed(e.obj, local) and fixed(e.index, local)
                case ast.Unary():
                    return fixed(e.operand, local)
                case ast.Binary():
                    return fixed(e.left, local) and fixed(e.right, local)
                case ast.ListLit():
                    return all(fixed(i, local) for i in e.items)
                case ast.Filter():
                    inner = local | {e.var}
                    return (
                        fixed(e.seq, local) and fixed(e.cond, inner) and all(fixed(k, inner) for k in e.keys)
                    )
                case ast.MapComp():
                    inner = local | {e.var}
                    return fixed(e.seq, local) and fixed(e.expr, inner) and fixed(e.cond, inner)
                case ast.Call(func=func):
                    known = func in static or (func in BUILTINS and BUILTINS[func].pure)
                    return known and all(fixed(a, local) for a in e.args)
            return False

        changed = True
        while changed:  # a value is fixed if it uses only fixed values: grow the set to a fixpoint
            changed = False
            for value in sym.values.values():
                params = {p.name for p in value.params}
                # Arguments are the cache's keys: only values every game shares (no grid cells,
                # which each game makes anew and a cache would keep alive).
                shared = all(
                    type_of_ref(p.type, sym) in SHARED_TYPES or type_of_ref(p.type, sym).startswith("row:")
                    for p in value.params
                )
                if value.name not in static and shared and fixed(value.expr, params):
                    static.add(value.name)
                    changed = True
        return static

    def movement(self, decl: ast.MovementDecl) -> Movement:
        self.rule = f"movement {decl.name}"
        params = [x.name for x in decl.params]
        scope = {*params, "start"}

        def optional(e: ast.Expr | None, var: str | None = None) -> Fn | None:
            return self.expr(e, scope | ({var} if var else set())) if e is not None else None

        return Movement(
            params=params,
            steps=optional(decl.steps) or (lambda rt, env: [1]),
            straight=optional(decl.straight),
            backtracks=optional(decl.backtracks),
            through_var=decl.through_var,
            through=optional(decl.through, decl.through_var),
            ends_var=decl.ends_var,
            ends=optional(decl.ends, decl.ends_var),
        )

    def adjacency_for(self, e: ast.Call, named: ast.Expr) -> dict[Row, list[Row]]:
        """The edges a graph query walks: of the map `named` names (`neighbours(x, m)`,
        `regions(m, attr)`), else of the map built on the table of the query's first argument."""
        p = self.p
        if isinstance(named, ast.Name) and named.id in p.adjacency:
            return p.adjacency[named.id]
        owner = self.sym.types.get(id(e.args[0]), "any")
        table = owner.removeprefix("list:").removeprefix("row:")
        merged: dict[Row, list[Row]] = {}
        for name, adjacency in p.adjacency.items():
            if p.map_of_table.get(table, name) == name:
                merged.update(adjacency)
        return merged

    # ============================================================== statements

    def block(self, body: list[ast.Stmt], scope: set[str]) -> Compiled:
        """A statement list: plain when no statement in it can suspend."""
        scope = set(scope)
        items: list[Compiled] = []
        spans: list[ast.Span] = []
        for s in body:
            if isinstance(s, ast.Meta):
                continue
            compiled = self.stmt(s, scope)
            items.append(self._covered(s, *compiled) if self.coverage else compiled)
            spans.append(s.span)
            if isinstance(s, ast.Let):
                scope.add(s.name)
        rule = self.rule
        if not items:
            return _nothing, False
        if not any(g for _, g in items):
            fns = [f for f, _ in items]
            if len(fns) == 1:
                only, span = fns[0], spans[0]

                def run_one(rt: Any, env: dict[str, Any]) -> None:
                    try:
                        only(rt, env)
                    except _ERRORS as err:
                        raise RuleRuntimeError(describe(err), span, rule) from None

                return run_one, False

            def run_plain(rt: Any, env: dict[str, Any]) -> None:
                i = 0
                try:
                    for i, f in enumerate(fns):  # noqa: B007 - i names the failing statement
                        f(rt, env)
                except _ERRORS as err:
                    raise RuleRuntimeError(describe(err), spans[i], rule) from None

            return run_plain, False
        gens = [as_gen(f, g) for f, g in items]

        def run_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            i = 0
            try:
                for i, g in enumerate(gens):  # noqa: B007
                    yield from g(rt, env)
            except _ERRORS as err:
                raise RuleRuntimeError(describe(err), spans[i], rule) from None

        return run_gen, True

    def _covered(self, s: ast.Stmt, fn: Callable[..., Any], is_gen: bool) -> Compiled:
        """The statement, recording in `rt.covered` that it ran. Only built when coverage is asked
        for: a game played for speed pays nothing."""
        key = (s.span.line, s.span.column)
        self.p.statements.append((key, s, self.rule))
        if is_gen:

            def covered_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
                rt.covered.add(key)
                yield from fn(rt, env)

            return covered_gen, True

        def covered(rt: Any, env: dict[str, Any]) -> None:
            rt.covered.add(key)
            fn(rt, env)

        return covered, False

    def stmt(self, s: ast.Stmt, scope: set[str]) -> Compiled:
        """The statement's function, and whether it is a generator function: that is what
        `suspends` says, never decided again here (each compiler below builds the form it says)."""
        return self._stmt(s, scope), self.suspends(s)

    def _stmt(self, s: ast.Stmt, scope: set[str]) -> Callable[..., Any]:
        match s:
            case ast.MoveRefs():
                return self.move_refs(s, scope)
            case ast.MoveCount() | ast.MoveAll():
                return self.move_count(s, scope)
            case ast.SetStmt() | ast.AddStmt():
                return self.assign(s, scope)
            case ast.Let():
                value, name = self.expr(s.value, scope), s.name

                def let(rt: Any, env: dict[str, Any]) -> None:
                    env[name] = value(rt, env)

                return let
            case ast.Shuffle():
                zone = self.expr(s.zone, scope)

                def shuffle(rt: Any, env: dict[str, Any]) -> None:
                    loc = zone(rt, env)
                    rt.rng.shuffle(rt.locs[loc])
                    rt.moved(loc, rt.locs[loc])

                return shuffle
            case ast.Draw():
                return self.draw(s, scope)
            case ast.Place():
                return self.place(s, scope)
            case ast.EndGame():

                def end(rt: Any, env: dict[str, Any]) -> None:
                    raise GameEnded

                return end
            case ast.Log():
                parts = [self.expr(x, scope) if isinstance(x, ast.Expr) else x for x in s.parts]

                def log(rt: Any, env: dict[str, Any]) -> None:
                    if rt.logging:
                        rt.log.append("".join(x if isinstance(x, str) else label(x(rt, env)) for x in parts))

                return log
            case ast.CallStmt():
                return self.call_rule(s, scope)
            case ast.If():
                return self.if_(s, scope)
            case ast.ForEach():
                return self.for_each(s, scope)
            case ast.Repeat():
                return self.repeat(s, scope)
            case ast.While():
                return self.while_(s, scope)
            case ast.Choose():
                return self.choose(s, scope)
            case ast.Ask():
                return self.ask(s, scope)
            case ast.Random():
                return self.random(s, scope)
            case ast.Pick():
                return self.pick(s, scope)
            case ast.Turn():
                return self.turn(s, scope)
            case ast.Named():
                return self.block(s.body, scope)[0]
            case ast.Offer():
                return self.offer(s, scope)
        raise AssertionError(f"cannot compile {type(s).__name__}")

    # -------------------------------------------------------------- moving pieces

    def _moving(
        self, take: Callable[[Any, dict[str, Any]], tuple[list[Piece], Any]], triggered: bool
    ) -> Callable[..., Any]:
        """A statement that moves pieces (`take` moves them, tells the runtime which locations
        changed, and says which pieces moved, and where to). When a trigger may watch such moves it
        becomes a generator that runs the triggers after each piece arrives; otherwise it stays a
        plain call, as most moves are."""
        if not triggered:

            def move(rt: Any, env: dict[str, Any]) -> None:
                take(rt, env)

            return move
        triggers = self.p.triggers

        def moving(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            moved, to = take(rt, env)
            for piece in moved:
                for t in triggers.get(piece[0].name, ()):
                    rt.last_rule = t.name
                    where = {t.piece_var: PieceRef(to, piece), t.loc_var: to}
                    if t.cond is None or t.cond(rt, where):
                        yield from t.body(rt, where)

        return moving

    def move_refs(self, s: ast.MoveRefs, scope: set[str]) -> Callable[..., Any]:
        what, dest = self.expr(s.pieces, scope), self.expr(s.dest, scope)
        span, rule = s.span, self.rule

        def take(rt: Any, env: dict[str, Any]) -> tuple[list[Piece], Any]:
            refs = what(rt, env)
            refs = refs if isinstance(refs, list) else [refs]
            to = dest(rt, env)
            _pile(rt, to.loc if isinstance(to, Bottom) else to, span, rule)  # a place, before any move
            moved = []
            for ref in refs:
                if not isinstance(ref, PieceRef):
                    raise RuleRuntimeError(f"only pieces can move, not {type_name(ref)}", span, rule)
                try:
                    rt.locs[ref.loc].remove(ref.piece)
                except ValueError:
                    raise RuleRuntimeError(f"{ref} is no longer in {ref.loc}", span, rule) from None
                rt.moved(ref.loc, [ref.piece])
                moved.append(ref.piece)
            to = _arrive(rt, to, moved, span, rule)
            if moved:
                rt.moved(to, moved)
            return moved, to

        return self._moving(take, self.suspends(s))

    def move_count(self, s: ast.MoveCount | ast.MoveAll, scope: set[str]) -> Callable[..., Any]:
        count = self.expr(s.count, scope) if isinstance(s, ast.MoveCount) else None
        owner = self.expr(s.owner, scope) if s.owner is not None else None
        src, dest, kind = self.expr(s.src, scope), self.expr(s.dest, scope), s.kind
        which = self.expr(s.which, scope) if s.which is not None else None
        has_owner = owner is not None
        span, rule = s.span, self.rule

        def take(rt: Any, env: dict[str, Any]) -> tuple[list[Piece], Any]:
            want = count(rt, env) if count is not None else None
            who = owner(rt, env) if owner is not None else None
            row = which(rt, env) if which is not None else None
            to = dest(rt, env)
            moved: list[Piece] = []
            for loc in locations(src(rt, env)):
                if want is not None and len(moved) >= want:
                    break
                pile = _pile(rt, loc, span, rule)
                found = []  # indices of the pieces taken; stop as soon as there are enough
                for i, pc in enumerate(pile):
                    if (
                        pc[0].name == kind
                        and (row is None or pc[0].row is row)
                        and (not has_owner or pc[1] is who)
                    ):
                        found.append(i)
                        if want is not None and len(moved) + len(found) >= want:
                            break
                taken = [pile[i] for i in found]
                for i in reversed(found):
                    del pile[i]
                if taken:
                    rt.moved(loc, taken)
                    moved.extend(taken)
            to = _arrive(rt, to, moved, span, rule)
            if moved:
                rt.moved(to, moved)
            if want is not None and len(moved) < want:
                rt.shortfall(kind if row is None else f"{kind} {row}", want - len(moved))
            return moved, to

        return self._moving(take, self.suspends(s))

    def draw(self, s: ast.Draw, scope: set[str]) -> Callable[..., Any]:
        count, src, dest = self.expr(s.count, scope), self.expr(s.src, scope), self.expr(s.dest, scope)
        span, rule = s.span, self.rule

        def take(rt: Any, env: dict[str, Any]) -> tuple[list[Piece], Any]:
            n, source, to = count(rt, env), src(rt, env), dest(rt, env)
            pile = rt.locs[source]
            moved = [pile.pop() for _ in range(min(n, len(pile)))]
            if len(moved) < n:
                rt.shortfall(f"draw from {source}", n - len(moved))
            to = _arrive(rt, to, moved, span, rule)
            if moved:
                rt.moved(source, moved)
                rt.moved(to, moved)
            return moved, to

        return self._moving(take, self.suspends(s))

    def place(self, s: ast.Place, scope: set[str]) -> Fn:
        shape, target = self.expr(s.shape, scope), self.expr(s.map, scope)
        at = self.expr(s.at, scope) if s.at is not None else None
        span, rule = s.span, self.rule

        def place(rt: Any, env: dict[str, Any]) -> None:
            mapref, rows = target(rt, env), list(shape(rt, env))
            if not isinstance(mapref, MapRef):
                raise RuleRuntimeError(
                    f"{label(mapref)} is not a grid map: shapes are placed on grids", span, rule
                )
            spot = at(rt, env) if at is not None else None
            if spot is not None and [r.index for r in spot.rows] != [r.index for r in rows]:
                raise RuleRuntimeError("that placement was made for another shape", span, rule)
            coords = spot.coords if spot is not None else [(r.values["q"], r.values["r"]) for r in rows]
            grid = grids.grid_of(rt, mapref)
            if any(c in grid for c in coords):
                raise RuleRuntimeError(f"the shape would cover cells of {mapref} already there", span, rule)
            for (q, r), row in zip(coords, rows, strict=True):
                cell = grid[(q, r)] = Cell(mapref, q, r)
                rt.faces[cell] = row
                rt.locs[cell] = []
                rt.changed(cell)
            rt.changed(mapref)

        return place

    # -------------------------------------------------------------- variables

    def _clamp(self, decl: ast.VarDecl | None) -> Callable[[Any], Any] | None:
        if decl is None or decl.within is None:
            return None
        bounds = self.expr(decl.within, set())(_Fixed(), {})
        low, high = min(bounds), max(bounds)
        return lambda v: low if v < low else high if v > high else v

    def assign(self, s: ast.SetStmt | ast.AddStmt, scope: set[str]) -> Fn:
        sym, span, rule = self.sym, s.span, self.rule
        value = self.expr(s.value if isinstance(s, ast.SetStmt) else s.amount, scope)
        sign = s.sign if isinstance(s, ast.AddStmt) else 0
        target = s.target
        if isinstance(target, ast.Name):
            name = target.id
            clamp = self._clamp(sym.vars.get(name))

            def set_global(rt: Any, env: dict[str, Any]) -> None:
                v = value(rt, env)
                if sign:
                    v = _number(rt.vars[name] + sign * v)
                rt.vars[name] = clamp(v) if clamp else v
                rt.changed(name)

            return set_global
        row = None
        if isinstance(target, ast.Index):  # `set p.NAME[row] to ...`: one row's value
            row, target = self.expr(target.index, scope), target.obj
        assert isinstance(target, ast.Attr)
        obj, name = self.expr(target.obj, scope), target.name
        clamps = {per: self._clamp(group.get(name)) for per, group in sym.owned_vars.items()}

        def set_owned(rt: Any, env: dict[str, Any]) -> None:
            o = obj(rt, env)
            per = "player" if type(o) is Player else o.table if type(o) is Row else None
            store = rt.owned.get((per, name))
            if store is None:
                raise RuleRuntimeError(f"'{name}' of {label(o)} is not a variable", span, rule)
            v = value(rt, env)
            clamp = clamps.get(per)
            if row is not None:
                values, r = store[o], row(rt, env)
                if sign:
                    v = _number(values[r] + sign * v)
                values[r] = clamp(v) if clamp else v
                rt.changed(((per, name), o))
                return
            if sign:
                v = _number(store[o] + sign * v)
            store[o] = clamp(v) if clamp else v
            rt.changed(((per, name), o))

        return set_owned

    # -------------------------------------------------------------- control flow

    def call_rule(self, s: ast.CallStmt, scope: set[str]) -> Callable[..., Any]:
        args = [self.expr(a, scope) for a in s.args]
        rules, name, span, caller = self.p.rules, s.name, s.span, self.rule

        def bind(rt: Any, env: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
            rt.steps += 1
            if rt.steps > rt.budget:
                raise RuleRuntimeError(
                    f"the step budget ({rt.budget}) ran out: '{caller or name}' seems to loop forever",
                    span,
                    name,
                )
            rt.last_rule = name
            params, fn, _ = rules[name]
            return fn, dict(zip(params, [a(rt, env) for a in args], strict=True))

        if self.suspends(s):

            def call_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
                fn, inner = bind(rt, env)
                yield from fn(rt, inner)

            return call_gen

        def call_plain(rt: Any, env: dict[str, Any]) -> None:
            fn, inner = bind(rt, env)
            fn(rt, inner)

        return call_plain

    def if_(self, s: ast.If, scope: set[str]) -> Callable[..., Any]:
        branches = [(self.expr(c, scope), self.block(b, scope)) for c, b in s.branches]
        orelse = self.block(s.orelse, scope)
        if not self.suspends(s):
            conds = [(c, f) for c, (f, _) in branches]
            other = orelse[0]

            def if_plain(rt: Any, env: dict[str, Any]) -> None:
                for cond, body in conds:
                    if cond(rt, env):
                        body(rt, env)
                        return
                other(rt, env)

            return if_plain
        gconds = [(c, as_gen(f, g)) for c, (f, g) in branches]
        gother = as_gen(*orelse)

        def if_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            for cond, body in gconds:
                if cond(rt, env):
                    yield from body(rt, env)
                    return
            yield from gother(rt, env)

        return if_gen

    def _budget(self, span: ast.Span) -> Callable[[Any], None]:
        rule = self.rule or "the flow"

        def spend(rt: Any) -> None:
            rt.steps += 1
            if rt.steps > rt.budget:
                raise RuleRuntimeError(
                    f"the step budget ({rt.budget}) ran out: this loop in '{rule}' seems never to end",
                    span,
                    rule,
                )

        return spend

    def for_each(self, s: ast.ForEach, scope: set[str]) -> Callable[..., Any]:
        inner = scope | {s.var}
        seq = self.expr(s.seq, scope)
        cond = self.expr(s.cond, inner) if s.cond is not None else None
        body, is_gen = self.block(s.body, inner)
        var, spend = s.var, self._budget(s.span)

        def items(rt: Any, env: dict[str, Any]) -> list[Any]:
            values = list(seq(rt, env))  # a snapshot: the body may change what the list was made of
            if cond is None:
                return values
            out = []
            for x in values:
                env[var] = x
                if cond(rt, env):
                    out.append(x)
            return out

        if s.chooser is not None:
            chooser, gbody, rule = self.expr(s.chooser, scope), as_gen(body, is_gen), self.rule
            prompt = s.prompt or f"which {var} next?"

            def for_chosen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
                todo = items(rt, env)
                who = chooser(rt, env)
                while todo:
                    spend(rt)
                    options, index = _distinct(todo), 0
                    while len(options) > 1:  # asked again after an offered action
                        offers = offers_for(rt, who) if rt.offers else None
                        answer = yield Decision(who, prompt, list(options), rule, "", offers)
                        if answer < len(options):
                            index = todo.index(options[answer])
                            break
                        yield from take_offer(rt, offers[answer - len(options)])  # type: ignore[index]
                    env[var] = todo.pop(index)
                    yield from gbody(rt, env)

            return for_chosen
        if not self.suspends(s):

            def for_plain(rt: Any, env: dict[str, Any]) -> None:
                for x in items(rt, env):
                    spend(rt)
                    env[var] = x
                    body(rt, env)

            return for_plain

        def for_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            for x in items(rt, env):
                spend(rt)
                env[var] = x
                yield from body(rt, env)

        return for_gen

    def repeat(self, s: ast.Repeat, scope: set[str]) -> Callable[..., Any]:
        count, (body, _), spend = (
            self.expr(s.count, scope),
            self.block(s.body, scope),
            self._budget(s.span),
        )
        if not self.suspends(s):

            def repeat_plain(rt: Any, env: dict[str, Any]) -> None:
                for _ in range(count(rt, env)):
                    spend(rt)
                    body(rt, env)

            return repeat_plain

        def repeat_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            for _ in range(count(rt, env)):
                spend(rt)
                yield from body(rt, env)

        return repeat_gen

    def while_(self, s: ast.While, scope: set[str]) -> Callable[..., Any]:
        cond, (body, _), spend = (
            self.expr(s.cond, scope),
            self.block(s.body, scope),
            self._budget(s.span),
        )
        if not self.suspends(s):

            def while_plain(rt: Any, env: dict[str, Any]) -> None:
                while cond(rt, env):
                    spend(rt)
                    body(rt, env)

            return while_plain

        def while_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            while cond(rt, env):
                spend(rt)
                yield from body(rt, env)

        return while_gen

    def offer(self, s: ast.Offer, scope: set[str]) -> Gen:
        """While the block runs, the rule is offered beside every decision of the player."""
        args = [self.expr(a, scope) for a in s.args]
        player = self.expr(s.player, scope)
        cond = self.expr(s.cond, scope) if s.cond is not None else None
        body = as_gen(*self.block(s.body, scope))
        rules, name, label_text = self.p.rules, s.rule, s.label or s.rule.replace("_", " ")

        def offer(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            params, fn, is_gen = rules[name]
            bound = dict(zip(params, [a(rt, env) for a in args], strict=True))
            entry = (Offer(player(rt, env), label_text, as_gen(fn, is_gen), cond, bound), env)
            rt.offers.append(entry)
            try:
                yield from body(rt, env)
            finally:
                rt.offers.remove(entry)

        return offer

    def turn(self, s: ast.Turn, scope: set[str]) -> Callable[..., Any]:
        player, (body, _) = self.expr(s.player, scope), self.block(s.body, scope)

        def start(rt: Any, env: dict[str, Any]) -> None:
            rt.current = player(rt, env)
            rt.turns += 1
            rt.changed(CURRENT)

        if not self.suspends(s):

            def turn_plain(rt: Any, env: dict[str, Any]) -> None:
                start(rt, env)
                body(rt, env)

            return turn_plain

        def turn_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            start(rt, env)
            yield from body(rt, env)

        return turn_gen

    # -------------------------------------------------------------- decisions and chance

    def _options(self, seq_e: ast.Expr, cond_e: ast.Expr | None, var: str, scope: set[str]) -> Fn:
        seq = self.expr(seq_e, scope)
        cond = self.expr(cond_e, scope | {var}) if cond_e is not None else None

        def options(rt: Any, env: dict[str, Any]) -> list[Any]:
            values = list(seq(rt, env))
            if cond is None:
                return values
            out = []
            for x in values:
                env[var] = x
                if cond(rt, env):
                    out.append(x)
            return out

        return options

    def _chooser(self, chooser_e: ast.Expr | None, scope: set[str], span: ast.Span) -> Fn:
        rule = self.rule
        if chooser_e is not None:
            return self.expr(chooser_e, scope)

        def current(rt: Any, env: dict[str, Any]) -> Player:
            if rt.current is None:
                raise RuleRuntimeError("nobody's turn: say who chooses with 'by PLAYER'", span, rule)
            return rt.current

        return current

    def choose(self, s: ast.Choose, scope: set[str]) -> Gen:
        options = self._options(s.seq, s.cond, s.var, scope)
        chooser = self._chooser(s.chooser, scope, s.span)
        body = as_gen(*self.block(s.body, scope | {s.var}))
        orelse = as_gen(*self.block(s.orelse, scope))
        var, optional, rule, span = s.var, s.optional, self.rule, s.span
        prompt = s.prompt or f"choose {var}"

        def choose(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            while True:  # asked again after an offered action, which may change the options
                opts = _distinct(options(rt, env))
                if not opts and not optional:
                    if s.orelse:
                        yield from orelse(rt, env)
                        return
                    raise RuleRuntimeError(f"no option for '{prompt}', and a choice must be made", span, rule)
                who = chooser(rt, env)
                offers = offers_for(rt, who) if rt.offers else None
                index = yield Decision(who, prompt, opts, rule, "pass" if optional else "", offers)
                taken = index - len(opts) - optional
                if taken < 0:
                    break
                yield from take_offer(rt, offers[taken])  # type: ignore[index]
            if index == len(opts):
                yield from orelse(rt, env)
                return
            env[var] = opts[index]
            yield from body(rt, env)

        return choose

    def ask(self, s: ast.Ask, scope: set[str]) -> Gen:
        chooser = self._chooser(s.chooser, scope, s.span)
        body, orelse = as_gen(*self.block(s.body, scope)), as_gen(*self.block(s.orelse, scope))
        prompt, rule = s.prompt, self.rule

        def ask(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            while True:
                who = chooser(rt, env)
                offers = offers_for(rt, who) if rt.offers else None
                index = yield Decision(who, prompt, [True, False], rule, "", offers)
                if index < 2:
                    break
                yield from take_offer(rt, offers[index - 2])  # type: ignore[index]
            yield from (body if index == 0 else orelse)(rt, env)

        return ask

    def random(self, s: ast.Random, scope: set[str]) -> Gen:
        weights = [self.expr(o.weight, scope) if o.weight is not None else None for o in s.outcomes]
        bodies = [as_gen(*self.block(o.body, scope)) for o in s.outcomes]
        names = [o.name for o in s.outcomes]
        title, span, rule = s.label or "random", s.span, self.rule

        def random_(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            values = [max(0, w(rt, env)) if w is not None else None for w in weights]
            given = sum(v for v in values if v is not None)
            values = [v if v is not None else max(0, 100 - given) for v in values]
            if sum(values) <= 0:
                raise RuleRuntimeError(f"every outcome of '{title}' has chance 0", span, rule)
            if rt.scripted:
                index = yield Chance(title, names, values)
            else:
                index = rt.roll(values, 0)
                if rt.logging:
                    rt.log.append(f"  ({title}: {names[index]})")
            yield from bodies[index](rt, env)

        return random_

    def pick(self, s: ast.Pick, scope: set[str]) -> Gen:
        options = self._options(s.seq, s.cond, s.var, scope)
        body = as_gen(*self.block(s.body, scope | {s.var}))
        orelse = as_gen(*self.block(s.orelse, scope))
        var = s.var
        title = f"random {var}"

        def pick(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            opts = options(rt, env)
            if not opts:
                yield from orelse(rt, env)
                return
            if rt.scripted:
                index = yield Chance(title, opts, None)
            else:
                index = rt.rng.randrange(len(opts))
                if rt.logging:
                    rt.log.append(f"  ({title}: {label(opts[index])})")
            env[var] = opts[index]
            yield from body(rt, env)

        return pick

    # ============================================================== the whole program

    def build(self) -> Program:
        p, sym = self.p, self.sym
        self.build_data()
        self.find_suspending()
        self.static = static = self.static_values()
        for name in sym.constants:
            self.constant(name)
        for value in sym.values.values():
            self.rule = value.name
            params = [x.name for x in value.params]
            fn = self.expr(value.expr, set(params))
            p.values[value.name] = (params, _memoized(fn, params) if value.name in static else fn)
        for movement in sym.movements.values():
            p.movements[movement.name] = self.movement(movement)
        for rule in sym.rules.values():
            self.rule = rule.name
            params = [x.name for x in rule.params]
            fn, is_gen = self.block(rule.body, set(params))
            p.rules[rule.name] = (params, fn, is_gen)
        for trig in sym.triggers:
            self.rule = f"when {trig.kind} enters"
            inner = {trig.piece_var, trig.loc_var}
            p.triggers.setdefault(trig.kind, []).append(
                Trigger(
                    kind=trig.kind,
                    piece_var=trig.piece_var,
                    loc_var=trig.loc_var,
                    cond=self.expr(trig.cond, inner) if trig.cond is not None else None,
                    body=as_gen(*self.block(trig.body, inner)),
                    name=self.rule,
                )
            )
        self.rule = "setup"
        p.setup = as_gen(*self.block(sym.setup.body, set())) if sym.setup else None
        self.rule = "play"
        p.play = as_gen(*self.block(sym.play.body, set())) if sym.play else None
        self.rule = "score"
        if sym.score is not None:
            p.score = self._scorer(sym.score)
        if sym.tiebreak is not None:
            p.tiebreak = self._scorer(sym.tiebreak)
        p.init = self.initializer()
        self.coverage = False  # examples are not part of the game: their statements are not counted
        for example in sym.examples:
            p.examples.append(self.example(example))
        return p

    def example(self, decl: ast.Example) -> CompiledExample:
        """An example's blocks share one scope: names it lets in `given` are seen by `do` and
        `expect`; `expect` also sees the results (scores, winners...) it names."""
        self.rule = f"example '{decl.name}'"
        do = decl.do
        lets = {s.name for s in [*decl.given, *do] if isinstance(s, ast.Let)}
        results = sorted({n.id for e in decl.expect for n in e.find_all(ast.Name) if n.id in RESULTS} - lets)
        scope = lets | set(results)
        expect = []
        for e in decl.expect:
            sides = (None, None)
            if isinstance(e, ast.Binary) and e.op not in {"and", "or"}:
                sides = (self.expr(e.left, scope), self.expr(e.right, scope))
            expect.append((e, self.expr(e, scope), *sides))
        return CompiledExample(
            decl=decl,
            given=as_gen(*self.block(decl.given, set())),
            do=as_gen(*self.block(do, {s.name for s in decl.given if isinstance(s, ast.Let)})),
            expect=expect,
            results=results,
            shows=[self.expr(e, lets) for e in decl.shows],
        )

    def _scorer(self, decl: ast.ScoreDecl) -> Fn:
        fn, var = self.expr(decl.expr, {decl.var}), decl.var
        return lambda rt, player: fn(rt, {var: player})

    def initializer(self) -> Callable[[Any], None]:
        """Sets every variable to its start value and puts every piece in its start zone."""
        p, sym = self.p, self.sym
        self.rule = "the start of the game"
        global_vars = [(v.name, self.expr(v.init, set()), self._clamp(v)) for v in sym.vars.values()]
        owned = [
            (per, v.name, self.expr(v.init, {"self"}), self._clamp(v), v.by)
            for per, group in sym.owned_vars.items()
            for v in group.values()
        ]
        placements = []
        for piece in sym.pieces.values():
            count = self.expr(piece.count, {"self"}) if piece.count is not None else None
            zone = piece.zone
            own_zone = (
                isinstance(zone, ast.Name)
                and piece.per_player
                and zone.id in sym.owned_zones.get("player", {})
            )
            where = None if own_zone else self.expr(zone, set())
            placements.append(
                (piece, count, where, zone.id if own_zone and isinstance(zone, ast.Name) else None)
            )

        def init(rt: Any) -> None:
            total = 0

            def laid_out(piece: ast.PieceDecl, n: int) -> int:
                """Count the pieces laid out so far, refusing more than a machine holds."""
                nonlocal total
                total += n
                if n < 0 or total > MAX_PIECES:
                    what = f"{n} pieces" if n < 0 else f"more than {MAX_PIECES:,} pieces in all"
                    raise RuleRuntimeError(
                        f"'{piece.name}' asks for {what}", piece.span, "the start of the game"
                    )
                return n

            for name, fn, clamp in global_vars:
                v = fn(rt, {})
                rt.vars[name] = clamp(v) if clamp else v
            for per, name, fn, clamp, by in owned:
                owners = rt.players if per == "player" else p.rows.get(per, [])
                store = rt.owned[(per, name)] = {}
                for owner in owners:
                    if by is not None:  # a value for each row: a dict the owner's variable holds
                        values = [fn(rt, {"self": owner}) for _ in p.rows[by]]
                        store[owner] = {
                            r: clamp(v) if clamp else v for r, v in zip(p.rows[by], values, strict=True)
                        }
                        continue
                    v = fn(rt, {"self": owner})
                    store[owner] = clamp(v) if clamp else v
            for piece, count, where, own_zone in placements:
                kinds = p.kinds[piece.name]
                if piece.each_row_of:
                    rt.locs[where(rt, {})].extend((k, None) for k in kinds)
                    continue
                if piece.per_row_of:
                    pile = rt.locs[where(rt, {})]
                    for k in kinds:
                        pile.extend([(k, None)] * laid_out(piece, count(rt, {"self": k.row})))
                    continue
                n = count(rt, {})
                laid_out(piece, n * len(rt.players) if piece.per_player else n)
                if piece.per_player:
                    for player in rt.players:
                        loc = p.zone_locs[(own_zone, player)] if own_zone else where(rt, {})
                        rt.locs[loc].extend([(kinds[0], player)] * n)
                else:
                    rt.locs[where(rt, {})].extend([(kinds[0], None)] * n)
            # Start values may have asked values while the position was being laid out (each
            # variable is set once, but the pieces were placed after): nothing of that is kept.
            # Laying out the position is not a step of the game.
            rt.forget()
            rt.steps = 0

        return init


def compile_program(symbols: Symbols, coverage: bool = False) -> Program:
    """The runnable program. With coverage, every statement records that it ran (slower)."""
    try:
        return Compiler(symbols, coverage).build()
    except RuleRuntimeError as err:
        span = err.span or ast.Span(file=symbols.module.file)
        diag = Diagnostic(span.file, span.line, span.column, "error", "M030", err.message)
        raise RulesError(
            [diag], {symbols.module.file: symbols.module.source, **symbols.module.sources}
        ) from None
    except _ERRORS as err:
        diag = Diagnostic(
            symbols.module.file, 1, 1, "error", "M030", f"cannot compute a constant: {describe(err)}"
        )
        raise RulesError(
            [diag], {symbols.module.file: symbols.module.source, **symbols.module.sources}
        ) from None
