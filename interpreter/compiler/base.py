"""What every part of the compiler shares: the compiler's state (`Part`, which each part extends
and `Compiler` combines), the form of a compiled statement, the errors a statement's failure is
reported as, and the limits a computed value must keep (meeple/limits.py)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import Any, Protocol

from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.program import Fn, Gen, Program
from meeple.interpreter.runtime import RuleRuntimeError, Site, too_big
from meeple.interpreter.values import Row
from meeple.limits import DEFAULT_BUDGET, MAX_NUMBER, MAX_RECURSION

Compiled = tuple[Callable[..., Any], bool]  # (function, is it a generator function)


_ERRORS = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError)


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
    raise too_big()


def as_gen(fn: Callable[..., Any], is_gen: bool) -> Gen:
    """A plain statement as a generator function, for places that always `yield from`."""
    if is_gen:
        return fn

    def gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
        fn(rt, env)
        return
        yield  # pragma: no cover - makes this a generator

    return gen


def too_deep(name: str, span: ast.Span | None) -> RuleRuntimeError:
    """The error of calls nested deeper than MAX_RECURSION, placed at the declaration entered."""
    return RuleRuntimeError(
        f"'{name}' calls itself (directly or through other rules, values or triggers) more than "
        f"{MAX_RECURSION:,} calls deep: it seems never to stop",
        span,
        name,
    )


def counted(fn: Callable[..., Any], is_gen: bool, name: str, span: ast.Span) -> Callable[..., Any]:
    """A value's or a trigger's body, counting how deeply calls are nested (`Runtime.depth`; a
    rule's call counts itself: statements.py, `compile_CallStmt`). The limit is in calls, as the
    language reference says, so that it is the same whatever Python frames a call takes (and the
    same for another engine); it stops a recursion without end well before Python's own stack
    does. A generator body (a trigger's) stays entered while it waits for an answer: what it
    interrupted is still under way."""
    if is_gen:

        def enter_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            if rt.depth >= MAX_RECURSION:
                raise too_deep(name, span)
            rt.depth += 1
            try:
                yield from fn(rt, env)
            finally:
                rt.depth -= 1

        return enter_gen

    def enter(rt: Any, env: dict[str, Any]) -> Any:
        if rt.depth >= MAX_RECURSION:
            raise too_deep(name, span)
        rt.depth += 1
        try:
            return fn(rt, env)
        finally:
            rt.depth -= 1

    return enter


def site_of(stmt: ast.Node) -> Site:
    """Where a statement that asks stands: how a decision finds the style preferences for it."""
    return (stmt.span.file, stmt.span.line, stmt.span.column)


def snapshot_where(seq: Fn, cond: Fn | None, var: str) -> Fn:
    """The elements of a list for which a condition holds, taken from a snapshot of the list: what
    a loop goes through and a choice offers, even if its body changes what the list was made of."""

    def items(rt: Any, env: dict[str, Any]) -> list[Any]:
        values = list(seq(rt, env))
        if cond is None:
            return values
        out = []
        for x in values:
            env[var] = x
            if cond(rt, env):
                out.append(x)
        return out

    return items


def _nothing(rt: Any, env: dict[str, Any]) -> None:
    return None


class Parts(Protocol):
    """What one part of the compiler (or a built-in compiling its call: interpreter/builtins.py)
    calls on another: each is defined by the part named beside it, and `Compiler` has them all.
    Declared here so that a part type-checks alone (a part that calls a method no part defines is
    an error, not a surprise at run time)."""

    def expr(self, e: ast.Expr, scope: set[str]) -> Fn: ...  # expressions.py

    def attr(self, obj: Fn, name: str, span: ast.Span) -> Fn: ...  # expressions.py

    def lazy_map(self, e: ast.MapComp, scope: set[str]) -> Callable[[Any, dict[str, Any]], Iterator[Any]]: ...

    def value_call(self, name: str, args: list[Fn]) -> Fn: ...  # memo.py

    def block(self, body: list[ast.Stmt], scope: set[str]) -> Compiled: ...  # statements.py

    def suspends(self, s: ast.Stmt) -> bool: ...  # analyses.py

    def _clamp(self, decl: ast.VarDecl | None) -> Callable[[Any], Any] | None: ...  # data.py

    def adjacency_for(self, e: ast.Call, named: ast.Expr) -> dict[Row, list[Row]]: ...  # data.py

    def compile_MoveRefs(self, s: ast.MoveRefs, scope: set[str]) -> Callable[..., Any]: ...  # moves.py

    def compile_MoveCount(self, s: ast.MoveCount | ast.MoveAll, scope: set[str]) -> Callable[..., Any]: ...

    def compile_Draw(self, s: ast.Draw, scope: set[str]) -> Callable[..., Any]: ...  # moves.py

    def compile_Place(self, s: ast.Place, scope: set[str]) -> Fn: ...  # moves.py

    def compile_Lift(self, s: ast.Lift, scope: set[str]) -> Fn: ...  # moves.py

    def compile_Shift(self, s: ast.Shift, scope: set[str]) -> Fn: ...  # moves.py

    def compile_Choose(self, s: ast.Choose, scope: set[str]) -> Gen: ...  # decisions.py

    def compile_Ask(self, s: ast.Ask, scope: set[str]) -> Gen: ...  # decisions.py

    def compile_Random(self, s: ast.Random, scope: set[str]) -> Gen: ...  # decisions.py

    def compile_Pick(self, s: ast.Pick, scope: set[str]) -> Gen: ...  # decisions.py


class Part(Parts):
    """The compiler's state, which every part reads: the symbols, the program being built, the
    rule being compiled (for error messages) and what the analyses found."""

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
        self.static_memo: dict[str, dict[tuple[Any, ...], Any]] = {}  # their answers (memo.py)
        # Compiled expressions whose value is known before any game (a literal, a constant, a row
        # named by its key), with that value; and those that read a name bound in the rule, with
        # the name. An operator or attribute on one reads the value or the name itself rather than
        # calling for it (expressions.py: `fixed`, `bound`).
        self.known: dict[Fn, Any] = {}
        self.names: dict[Fn, str] = {}
        self.trigger_kinds = {t.kind for t in symbols.triggers}
