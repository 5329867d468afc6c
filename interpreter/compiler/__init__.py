"""AST -> closures, once per rules file.

Every expression becomes a function `(runtime, env) -> value`; every statement becomes either a
plain function `(runtime, env) -> None` or, when it can ask for a decision or a random outcome, a
generator function that yields Decision/Chance requests. Knowing which statements can suspend
(a fixpoint over the rule call graph) lets most of a game run as plain calls: the engine never
walks the AST while a game is played.

`Compiler` is made of one part per concern, each a module of this package:

- data.py: the fixed data (rows, kinds, zones, maps, movements) and the start of a game;
- analyses.py: which statements suspend, which values are static;
- expressions.py: expressions, names and attributes (built-ins: meeple.interpreter.builtins);
- memo.py: calling a declared value through the memo, and what it reads;
- statements.py: blocks, set/add, calls, `if`, loops, turns, named phases/steps, offers;
- moves.py: moving pieces (and the triggers that watch them), placing shapes;
- decisions.py: choices and chance;
- examples.py: example blocks;
- styles.py: playing styles (preferences over the options of decisions);
- base.py: the state the parts share, and the limits of computed values.

`build` below puts the whole program together; `compile_program` is the entry point.
"""

from __future__ import annotations

from meeple import codes
from meeple.diagnostics import Diagnostic, RulesError
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.compiler.analyses import Analyses
from meeple.interpreter.compiler.base import _ERRORS, _Fixed, as_gen, counted
from meeple.interpreter.compiler.data import Data
from meeple.interpreter.compiler.decisions import Decisions
from meeple.interpreter.compiler.examples import Examples
from meeple.interpreter.compiler.expressions import Expressions
from meeple.interpreter.compiler.memo import Memo, _memoized
from meeple.interpreter.compiler.moves import Moves
from meeple.interpreter.compiler.statements import Statements
from meeple.interpreter.compiler.styles import Styles
from meeple.interpreter.program import Program, Scorer, Trigger
from meeple.interpreter.runtime import RuleRuntimeError, describe


class Compiler(Data, Analyses, Expressions, Memo, Statements, Moves, Decisions, Examples, Styles):
    """The parts together. `build` runs them in the order each needs the last: the data, then
    the analyses, then constants and values, movements, rules, triggers, setup, play, scores, the
    initializer, the styles, and last the examples."""

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
            fn = counted(self.expr(value.expr, set(params)), False, value.name, value.span)
            if value.name in static:
                fn = _memoized(fn, params, self.static_answers(value.name))
            p.values[value.name] = (params, fn)
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
                    body=counted(as_gen(*self.block(trig.body, inner)), True, self.rule, trig.span),
                    name=self.rule,
                    span=trig.span,
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
        # carried state (interpreter/carry.py): what a save holds, and each variable's bounds
        p.carried = [
            c
            for c in sym.carried
            if c.decl.condition is None or self.expr(c.decl.condition, set())(_Fixed(), {})
        ]
        for c in p.carried:
            if isinstance(c.target, ast.VarDecl) and (within := self.within(c.target)) is not None:
                p.carry_bounds[(c.target.name, c.per)] = within
        p.sequence = sym.sequence
        for style in sym.styles.values():
            self.rule = f"style {style.name}"
            p.styles[style.name] = self.style(style)
        self.coverage = False  # examples are not part of the game: their statements are not counted
        for example in sym.examples:
            p.examples.append(self.example(example))
        return p

    def _scorer(self, decl: ast.ScoreDecl) -> Scorer:
        fn, var = self.expr(decl.expr, {decl.var}), decl.var
        return lambda rt, player: fn(rt, {var: player})


def compile_program(symbols: Symbols, coverage: bool = False) -> Program:
    """The runnable program. With coverage, every statement records that it ran (slower)."""
    try:
        return Compiler(symbols, coverage).build()
    except RuleRuntimeError as err:
        span = err.span or ast.Span(file=symbols.module.file)
        diag = Diagnostic(span.file, span.line, span.column, "error", codes.CANNOT_BUILD, err.message)
        raise RulesError(
            [diag], {symbols.module.file: symbols.module.source, **symbols.module.sources}
        ) from None
    except _ERRORS as err:
        diag = Diagnostic(
            symbols.module.file,
            1,
            1,
            "error",
            codes.CANNOT_BUILD,
            f"cannot compute a constant: {describe(err)}",
        )
        raise RulesError(
            [diag], {symbols.module.file: symbols.module.source, **symbols.module.sources}
        ) from None
