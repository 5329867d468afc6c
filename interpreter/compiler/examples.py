"""Compiling a file's `example` blocks (meeple.interpreter.examples runs them)."""

from __future__ import annotations

from meeple.grammar import ast
from meeple.interpreter.compiler.base import (
    Part,
    as_gen,
)
from meeple.interpreter.program import CompiledExample, Fn
from meeple.interpreter.results import RESULTS


class Examples(Part):
    def example(self, decl: ast.Example) -> CompiledExample:
        """An example's blocks share one scope: names it lets in `given` are seen by `do` and
        `expect`; `expect` also sees the results (scores, winners...) and the counters it names."""
        self.rule = f"example '{decl.name}'"
        do = decl.do
        lets = {s.name for s in [*decl.given, *do] if isinstance(s, ast.Let)}
        known = RESULTS.keys() | self.sym.counters.keys()
        results = sorted({n.id for e in decl.expect for n in e.find_all(ast.Name) if n.id in known} - lets)
        scope = lets | set(results)
        expect: list[tuple[ast.Expr, Fn, Fn | None, Fn | None]] = []
        for e in decl.expect:
            sides: tuple[Fn | None, Fn | None] = (None, None)
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
