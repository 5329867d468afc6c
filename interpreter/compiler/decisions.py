"""Statements that ask a player (`choose`, `may choose`, `may "..."`) or leave it to chance
(`random`, `pick`): each yields a Decision or a Chance and goes on with the answer. When nobody
scripts the outcomes, chance draws from the game's generator inline instead of yielding."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from meeple.grammar import ast
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.compiler.base import (
    Part,
    as_gen,
    site_of,
    snapshot_where,
)
from meeple.interpreter.program import Fn, Gen
from meeple.interpreter.runtime import (
    Chance,
    Decision,
    RuleRuntimeError,
    chance_line,
    offers_for,
    take_offer,
)
from meeple.interpreter.values import (
    PieceRef,
    Player,
    label,
)


def _distinct(items: Sequence[Any]) -> Sequence[Any]:
    """The options of a choice among `items`: identical pieces in one place are one option, since
    which of them is taken makes no difference (the first is)."""
    return list(dict.fromkeys(items)) if items and type(items[0]) is PieceRef else items


class Decisions(Part):
    def _options(self, seq_e: ast.Expr, cond_e: ast.Expr | None, var: str, scope: set[str]) -> Fn:
        """What a choice offers: the items of a list for which the condition holds. A built-in
        that can give them as they are read (`placements`) gives them so when every item is
        offered; a player reading one option then makes one."""
        if cond_e is None and isinstance(seq_e, ast.Call) and seq_e.func not in self.sym.values:
            lazy = BUILTINS[seq_e.func].compile_options(self, seq_e, scope)
            if lazy is not None:
                return lazy
        seq = self.expr(seq_e, scope)
        cond = self.expr(cond_e, scope | {var}) if cond_e is not None else None
        return snapshot_where(seq, cond, var)

    def _chooser(self, chooser_e: ast.Expr | None, scope: set[str], span: ast.Span) -> Fn:
        rule = self.rule
        if chooser_e is not None:
            return self.expr(chooser_e, scope)

        def current(rt: Any, env: dict[str, Any]) -> Player:
            if rt.current is None:
                raise RuleRuntimeError("nobody's turn: say who chooses with 'by PLAYER'", span, rule)
            return rt.current

        return current

    def compile_Choose(self, s: ast.Choose, scope: set[str]) -> Gen:
        options = self._options(s.seq, s.cond, s.var, scope)
        chooser = self._chooser(s.chooser, scope, s.span)
        body = as_gen(*self.block(s.body, scope | {s.var}))
        orelse = as_gen(*self.block(s.orelse, scope))
        var, optional, rule, span = s.var, s.optional, self.rule, s.span
        prompt = s.prompt or "Choose one"  # a player reads no variable names
        site = site_of(s)
        shown_at = None if s.shown_at is None else self.expr(s.shown_at, scope | {s.var})

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
                index = yield Decision(
                    who, prompt, opts, rule, "pass" if optional else "", offers, site, env, var, shown_at
                )
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

    def compile_Ask(self, s: ast.Ask, scope: set[str]) -> Gen:
        chooser = self._chooser(s.chooser, scope, s.span)
        body, orelse = as_gen(*self.block(s.body, scope)), as_gen(*self.block(s.orelse, scope))
        prompt, rule, site = s.prompt, self.rule, site_of(s)

        def ask(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            while True:
                who = chooser(rt, env)
                offers = offers_for(rt, who) if rt.offers else None
                index = yield Decision(who, prompt, [True, False], rule, "", offers, site, env)
                if index < 2:
                    break
                yield from take_offer(rt, offers[index - 2])  # type: ignore[index]
            yield from (body if index == 0 else orelse)(rt, env)

        return ask

    def compile_Random(self, s: ast.Random, scope: set[str]) -> Gen:
        weights = [self.expr(o.weight, scope) if o.weight is not None else None for o in s.outcomes]
        bodies = [as_gen(*self.block(o.body, scope)) for o in s.outcomes]
        names = [o.name for o in s.outcomes]
        title, span, rule = s.label or "random", s.span, self.rule

        def random_(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            # Loops, not comprehensions (each of which makes a function and a frame every time):
            # the weights given, then each outcome without one has what is left of 100.
            values: list[int] = []
            given = 0
            for w in weights:
                value = max(0, w(rt, env)) if w is not None else -1  # -1: none given
                values.append(value)
                given += max(0, value)
            for i, value in enumerate(values):
                if value < 0:
                    values[i] = max(0, 100 - given)
            if sum(values) <= 0:
                raise RuleRuntimeError(f"every outcome of '{title}' has chance 0", span, rule)
            if rt.scripted:
                index = yield Chance(title, names, values)
            else:
                index = rt.roll(values, 0)
                if rt.logging:
                    rt.write(chance_line(title, names[index]), span, rule)
            yield from bodies[index](rt, env)

        return random_

    def compile_Pick(self, s: ast.Pick, scope: set[str]) -> Gen:
        options = self._options(s.seq, s.cond, s.var, scope)
        body = as_gen(*self.block(s.body, scope | {s.var}))
        orelse = as_gen(*self.block(s.orelse, scope))
        var = s.var
        title, span, rule = f"random {var}", s.span, self.rule

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
                    rt.write(chance_line(title, label(opts[index])), span, rule)
            env[var] = opts[index]
            yield from body(rt, env)

        return pick
