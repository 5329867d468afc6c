"""What the compiler must know before it compiles a statement or a value (the rules' own analysis,
the names and types, is meeple.interpreter.analysis):

- which statements suspend, that is, can yield a decision or a random outcome and so are compiled
  as generator functions (`suspends`, the one place that decides it; which rules suspend is a
  fixpoint over the call graph);
- which values are static: they read only their arguments and fixed data, so their answers are
  kept for every game of the program (memo.py)."""

from __future__ import annotations

from meeple.grammar import ast
from meeple.interpreter.analysis import type_of_ref
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.compiler.base import Part
from meeple.interpreter.types import SCALARS, Row


class Analyses(Part):
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
        match s.suspension():  # the statement's fact (grammar/ast.py, Facts.suspends)
            case "always":
                return True
            case "inside":
                return any(self._suspends(block) for block in s.blocks())
            case "call":
                return getattr(s, s.facts.calls or "") in self.suspending
            case "moves" if s.facts.moves == "kind":
                return getattr(s, "kind", None) in self.trigger_kinds
            case "moves":
                return bool(self.trigger_kinds)
        return False

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
                    type_of_ref(p.type, sym) in SCALARS or isinstance(type_of_ref(p.type, sym), Row)
                    for p in value.params
                )
                if value.name not in static and shared and fixed(value.expr, params):
                    static.add(value.name)
                    changed = True
        return static
