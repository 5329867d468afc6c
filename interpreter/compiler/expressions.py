"""Expressions: each becomes a function `(runtime, env) -> value`. Names are resolved here once
(a variable, a zone, a table, a constant computed now...), attributes by what analysis knows of
the object where it can, and the built-in functions compile through their registry
(meeple.interpreter.builtins). Values the rules declare are called through the memo (memo.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from meeple.grammar import ast
from meeple.interpreter import attributes
from meeple.interpreter.areas import Area
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.compiler.base import (
    _ERRORS,
    Part,
    _Fixed,
)
from meeple.interpreter.own_names import OWN_NAMES
from meeple.interpreter.program import Fn
from meeple.interpreter.runtime import OverLimit, RuleRuntimeError, list_limit, too_big
from meeple.interpreter.types import ANY, PLAYER, Rows, Type
from meeple.interpreter.types import Row as RowType
from meeple.interpreter.values import (
    Cell,
    PieceRef,
    Player,
    Row,
    label,
    type_name,
)
from meeple.limits import MAX_LIST, MAX_NUMBER


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


def _checked_sum(left: Fn, right: Fn) -> Fn:
    """`a + b`: numbers added, or lists joined, within the limits."""

    def plus(rt: Any, env: dict[str, Any]) -> Any:
        r = left(rt, env) + right(rt, env)
        if type(r) is int:
            if -MAX_NUMBER <= r <= MAX_NUMBER:
                return r
            raise too_big()
        if len(r) > MAX_LIST:
            raise list_limit(len(r))
        return r

    return plus


def _checked_difference(left: Fn, right: Fn) -> Fn:
    def minus(rt: Any, env: dict[str, Any]) -> int:
        r = left(rt, env) - right(rt, env)
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
        raise too_big()

    return minus


def _checked_product(left: Fn, right: Fn) -> Fn:
    def times(rt: Any, env: dict[str, Any]) -> int:
        r = left(rt, env) * right(rt, env)
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
        raise too_big()

    return times


# Each binary operator but `..`, as what makes its function from its sides' (comparisons with a
# value known when compiled are read rather than called for: `_compared_to`).
_BINARY: dict[str, Callable[[Fn, Fn], Fn]] = {
    "and": lambda left, right: lambda rt, env: left(rt, env) and right(rt, env),
    "or": lambda left, right: lambda rt, env: left(rt, env) or right(rt, env),
    "+": _checked_sum,
    "-": _checked_difference,
    "*": _checked_product,
    "//": lambda left, right: lambda rt, env: left(rt, env) // right(rt, env),
    "%": lambda left, right: lambda rt, env: left(rt, env) % right(rt, env),
    "==": lambda left, right: lambda rt, env: left(rt, env) == right(rt, env),
    "!=": lambda left, right: lambda rt, env: left(rt, env) != right(rt, env),
    "<": lambda left, right: lambda rt, env: left(rt, env) < right(rt, env),
    "<=": lambda left, right: lambda rt, env: left(rt, env) <= right(rt, env),
    ">": lambda left, right: lambda rt, env: left(rt, env) > right(rt, env),
    ">=": lambda left, right: lambda rt, env: left(rt, env) >= right(rt, env),
    "in": lambda left, right: lambda rt, env: left(rt, env) in right(rt, env),
    "not in": lambda left, right: lambda rt, env: left(rt, env) not in right(rt, env),
}
_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})


class Expressions(Part):
    def expr(self, e: ast.Expr, scope: set[str]) -> Fn:
        """An expression as a function `(runtime, env) -> value`, by its kind's `expr_X` method."""
        return ast.handler(self, "expr_", e, "the compiler")(e, scope)  # type: ignore[no-any-return]

    def expr_Num(self, e: ast.Num | ast.Text | ast.Bool, scope: set[str]) -> Fn:
        return self.fixed(e.value)

    expr_Text = expr_Bool = expr_Num

    def expr_NoneLit(self, e: ast.NoneLit, scope: set[str]) -> Fn:
        return self.fixed(None)

    def expr_Name(self, e: ast.Name, scope: set[str]) -> Fn:
        return self.name(e.id, scope)

    def expr_Attr(self, e: ast.Attr, scope: set[str]) -> Fn:
        sym = self.sym
        if isinstance(e.obj, ast.Name) and e.obj.id in sym.tables and e.obj.id not in scope:
            return self.fixed(self.p.row_by_key[e.obj.id][e.name])  # `TABLE.KEY`
        obj = self.expr(e.obj, scope)
        return self.typed_attr(obj, e.name, sym.types.get(id(e.obj), ANY)) or self.attr(obj, e.name, e.span)

    def expr_Index(self, e: ast.Index, scope: set[str]) -> Fn:
        obj, index = self.expr(e.obj, scope), self.expr(e.index, scope)
        if isinstance(self.sym.types.get(id(e.obj)), Rows):  # `p.NAME[row]`
            return lambda rt, env: obj(rt, env)[index(rt, env)]

        def item(rt: Any, env: dict[str, Any]) -> Any:
            i = index(rt, env)
            if i < 0:
                raise OverLimit(f"there is no item {i} in a list: items are numbered from 0")
            return obj(rt, env)[i]

        return item

    def expr_Unary(self, e: ast.Unary, scope: set[str]) -> Fn:
        inner = self.expr(e.operand, scope)
        if e.op == "-":
            return lambda rt, env: -inner(rt, env)  # the limits are symmetric: no check
        return lambda rt, env: not inner(rt, env)

    def expr_Binary(self, e: ast.Binary, scope: set[str]) -> Fn:
        return self.binary(e, scope)

    def expr_IfExpr(self, e: ast.IfExpr, scope: set[str]) -> Fn:
        cond, then, orelse = (self.expr(e.cond, scope), self.expr(e.then, scope), self.expr(e.orelse, scope))
        return lambda rt, env: then(rt, env) if cond(rt, env) else orelse(rt, env)

    def expr_ListLit(self, e: ast.ListLit, scope: set[str]) -> Fn:
        items = [self.expr(i, scope) for i in e.items]
        return lambda rt, env: [f(rt, env) for f in items]

    def expr_Filter(self, e: ast.Filter, scope: set[str]) -> Fn:
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

    def expr_MapComp(self, e: ast.MapComp, scope: set[str]) -> Fn:
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

    def expr_Call(self, e: ast.Call, scope: set[str]) -> Fn:
        return self.call(e, scope)

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
        """A bare name: bound in the rule, a constant, a variable, a declaration, one of the
        language's own names, or a row of a table by its key."""
        p, sym = self.p, self.sym
        if name in scope:
            return self.bound(name)
        if name in p.constants:
            return self.fixed(p.constants[name])
        if name in sym.constants:
            return self.fixed(self.constant(name))
        if name in sym.vars:
            return self.variable(name)
        declared = self.declared(name)
        if declared is not None:
            return declared
        if name in OWN_NAMES:
            return OWN_NAMES[name].read
        tables = sym.row_keys.get(name, [])
        if len(tables) == 1:
            return self.fixed(p.row_by_key[tables[0]][name])
        raise AssertionError(f"unresolved name {name}")  # analysis reports these first

    @staticmethod
    def variable(name: str) -> Fn:
        """A global variable, read (and recorded as read, for the memo)."""

        def var(rt: Any, env: dict[str, Any]) -> Any:
            reads = rt.reads
            if reads is not None:
                reads.add(name)
            return rt.vars[name]

        return var

    def declared(self, name: str) -> Fn | None:
        """A shared zone, a table (its rows), a map (a grid's reference, or its nodes) or a kind
        of piece (its name); None for a name that is none of these."""
        p, sym = self.p, self.sym
        found: Any
        if name in sym.zones:
            found = p.zone_locs[(name, None)]
        elif name in sym.tables:
            found = p.rows[name]  # shared, never changed: statements that change lists take copies
        elif name in sym.maps:
            found = p.map_refs[(name, None)] if (name, None) in p.map_refs else p.map_nodes[name]
        elif name in sym.pieces:
            found = name
        else:
            return None
        return lambda rt, env: found

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

    def typed_attr(self, obj: Fn, name: str, owner: Type) -> Fn | None:
        """`x.name` where analysis knows what x is: a direct lookup, no dispatch at run time."""
        sym, zone_locs = self.sym, self.p.zone_locs
        per = "player" if owner == PLAYER else owner.table if isinstance(owner, RowType) else None
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

    def of_row(self, name: str, span: ast.Span) -> Callable[[Any, Row], Any]:
        """`row.name`, for a row of any table: what `name` means for each table (a variable, a
        zone or a column) is decided here, once, not at every access."""
        row_var = {table: (table, name) for table, group in self.sym.owned_vars.items() if name in group}
        row_zone = {table for table, group in self.sym.owned_zones.items() if name in group}
        zone_locs, rule = self.p.zone_locs, self.rule

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

        return of_row

    def of_player(self, name: str) -> Callable[[Any, Player], Any] | None:
        """`player.name`: its variable, its zone or its grid map, as the rules declare them, or
        its seat; None when a player has nothing of that name."""
        sym, zone_locs, map_refs = self.sym, self.p.zone_locs, self.p.map_refs
        if name in sym.owned_vars.get("player", {}):
            key = ("player", name)

            def owned_var(rt: Any, o: Player) -> Any:
                if rt.reads is not None:
                    rt.reads.add((key, o))
                return rt.owned[key][o]

            return owned_var
        if name in sym.owned_zones.get("player", {}):
            return lambda rt, o: zone_locs[(name, o)]
        if (name, self.p.players[0]) in map_refs:
            return lambda rt, o: map_refs[(name, o)]
        return attributes.SEAT.get if name == attributes.SEAT.name else None

    def attr(self, obj: Fn, name: str, span: ast.Span) -> Fn:
        """`x.name`, resolved by the kind of x at run time: a row's or a player's as the rules
        declare them, else the attribute table's (interpreter/attributes.py), else, for a value
        that answers for another (a piece for its row, a cell for its face, an area for its first
        place), that one's."""
        rule = self.rule
        of_row, of_player, fixed = self.of_row(name, span), self.of_player(name), attributes.getters(name)

        def further(rt: Any, o: Any) -> Any:
            t = type(o)
            if t is PieceRef and o.piece[0].row is not None:
                return of_row(rt, o.piece[0].row)
            if t is Cell:
                return of_row(rt, attributes.face(rt, o))
            raise RuleRuntimeError(f"{label(o)} ({type_name(o)}) has no '{name}'", span, rule)

        def get(rt: Any, env: dict[str, Any]) -> Any:
            o = obj(rt, env)
            t = type(o)
            if t is Row:
                return of_row(rt, o)
            if t is Player and of_player is not None:
                return of_player(rt, o)
            found = fixed.get(t)
            if found is not None:
                return found(rt, o)
            if t is Area:  # what its places share: the first one's
                o = o.first
                t = type(o)
                if t is Row:
                    return of_row(rt, o)
                found = fixed.get(t)
                if found is not None:
                    return found(rt, o)
            return further(rt, o)

        return get

    def binary(self, e: ast.Binary, scope: set[str]) -> Fn:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op == "..":
            return self.numbers(left, right, e.span)
        if e.op in _COMPARISONS and right in self.known:
            return _compared_to(e.op, left, self.known[right], self.names.get(left))
        return _BINARY[e.op](left, right)

    def numbers(self, left: Fn, right: Fn, span: ast.Span) -> Fn:
        """`a..b`: the whole numbers from a to b, each costing a step of the budget."""
        spend = self._spending(span)

        def numbers(rt: Any, env: dict[str, Any]) -> list[int]:
            low, high = left(rt, env), right(rt, env)
            if high - low + 1 > MAX_LIST:
                raise list_limit(high - low + 1)
            return spend(rt, list(range(low, high + 1)))

        return numbers

    def call(self, e: ast.Call, scope: set[str]) -> Fn:
        if e.func in self.sym.values:
            return self.value_call(e.func, [self.expr(a, scope) for a in e.args])
        return BUILTINS[e.func].compile(self, e, scope)
