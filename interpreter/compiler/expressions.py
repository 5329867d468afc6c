"""Expressions: each becomes a function `(runtime, env) -> value`. Names are resolved here once
(a variable, a zone, a table, a constant computed now...), attributes by what analysis knows of
the object where it can, and the built-in functions compile through their registry
(meeple.interpreter.builtins). Values the rules declare are called through the memo (memo.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from meeple.grammar import ast
from meeple.interpreter import areas, grids
from meeple.interpreter.areas import Area
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.compiler.base import (
    _ERRORS,
    OverLimit,
    Part,
    _Fixed,
    _list_limit,
    _too_big,
)
from meeple.interpreter.program import Fn
from meeple.interpreter.runtime import (
    CURRENT,
    RuleRuntimeError,
)
from meeple.interpreter.values import (
    Border,
    Cell,
    PieceRef,
    Placement,
    Player,
    Route,
    Row,
    ZoneLoc,
    label,
    type_name,
)
from meeple.limits import MAX_LIST, MAX_NUMBER

ROUTE_ATTRS = {"start", "end", "passed", "path", "steps"}
PLACEMENT_ATTRS = {"cells", "x", "y", "turns", "shape", "under"}


def placement_attr(rt: Any, spot: Placement, name: str) -> Any:
    """An attribute of a placement, laid or not. `under` is the layer it lies on at its first
    cell (for one not laid, the layer it would lie on): none where there is nothing below."""
    if name == "x" or name == "y":
        return spot.block[0 if name == "x" else 1]
    if name == "turns":
        return spot.rotation
    if name == "shape":
        return list(spot.rows)
    grid = grids.grid_of(rt, spot.map)
    if name == "cells":
        return [grid[c] for c in spot.coords if c in grid]
    first = grid.get(spot.coords[0])
    stack = rt.layers.get(first, []) if first is not None else []
    if spot in stack:
        below = stack.index(spot)
        return stack[below - 1] if below > 0 else None
    return stack[-1] if stack else None


def _compared_to(op: str, left: Fn, value: Any, var: str | None) -> Fn:
    """`x == k`, `count(...) > 0`: a comparison with a value known when it is compiled, which is
    read rather than called for (and a bound x read at once, the commonest left side of `==`)."""
    if op == "==":
        if var is not None:
            return lambda rt, env: env[var] == value
        return lambda rt, env: left(rt, env) == value
    if op == "!=":
        return lambda rt, env: left(rt, env) != value
    if op == "<":
        return lambda rt, env: left(rt, env) < value
    if op == "<=":
        return lambda rt, env: left(rt, env) <= value
    if op == ">":
        return lambda rt, env: left(rt, env) > value
    return lambda rt, env: left(rt, env) >= value


class Expressions(Part):
    def expr(self, e: ast.Expr, scope: set[str]) -> Fn:
        p, sym = self.p, self.sym
        match e:
            case ast.Num(value=v) | ast.Text(value=v) | ast.Bool(value=v):
                return self.fixed(v)
            case ast.NoneLit():
                return self.fixed(None)
            case ast.Name(id=name):
                return self.name(name, scope)
            case ast.Attr(obj=ast.Name(id=table), name=key) if table in sym.tables and table not in scope:
                return self.fixed(p.row_by_key[table][key])
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
                seq, var, fn, where = self.comprehension(e, scope)
                spend = self._spending(e.span)

                def map_(rt: Any, env: dict[str, Any]) -> list[Any]:
                    out = []
                    for x in spend(rt, seq(rt, env)):
                        env[var] = x
                        if where is None or where(rt, env):
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

    def fixed(self, value: Any) -> Fn:
        """An expression whose value is known now, as a function that gives it (see `known`)."""

        def fn(rt: Any, env: dict[str, Any]) -> Any:
            return value

        self.known[fn] = value
        return fn

    def bound(self, name: str) -> Fn:
        """A name bound in the rule (an argument, a `let`, a loop's variable), as a function that
        reads it (see `names`)."""

        def fn(rt: Any, env: dict[str, Any]) -> Any:
            return env[name]

        self.names[fn] = name
        return fn

    def name(self, name: str, scope: set[str]) -> Fn:
        p, sym = self.p, self.sym
        if name in scope:
            return self.bound(name)
        if name in p.constants:
            return self.fixed(p.constants[name])
        if name in sym.constants:
            return self.fixed(self.constant(name))
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
            return self.fixed(p.row_by_key[tables[0]][name])
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
            var = self.names.get(obj)
            if var is not None:  # `x.name` of a bound x, the commonest attribute: one call, not two
                return lambda rt, env: env[var].values[name]
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
            if t is Area:
                if name in areas.ATTRIBUTES:
                    return areas.attribute(rt, o, name)
                o = o.first  # what its places share: the first one's
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
                if name == "placed":
                    stack = rt.layers.get(o)
                    return stack[-1] if stack else None
                face = rt.faces[o]
                return face if name == "face" else of_row(rt, face)
            elif t is Route and name in ROUTE_ATTRS:
                return len(o.path) if name == "steps" else getattr(o, name)
            elif t is Placement and name in PLACEMENT_ATTRS:
                return placement_attr(rt, o, name)
            elif t is Border and name in ("new", "old"):
                return o.new if name == "new" else o.old
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
            case "==" | "!=" | "<" | "<=" | ">" | ">=" if right in self.known:
                return _compared_to(e.op, left, self.known[right], self.names.get(left))
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
        if e.func in self.sym.values:
            return self.value_call(e.func, [self.expr(a, scope) for a in e.args])
        return BUILTINS[e.func].compile(self, e, scope)
