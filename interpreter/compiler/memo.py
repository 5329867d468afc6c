"""How a value the rules declare is called: from the runtime's memo (Runtime.memo) when the same
question was asked and nothing it read has changed since; computing an answer records what it
reads (Runtime.reads), so that a change reaches every answer built on it. Static values
(analyses.py) have a memo of their own, shared by every game of the program (`_memoized`)."""

from __future__ import annotations

from typing import Any

from meeple.interpreter.compiler.base import (
    Part,
)
from meeple.interpreter.program import Fn
from meeple.interpreter.runtime import VOLATILE

_MISSING = object()  # not in the memo (None is an answer like any other)


def _compute(rt: Any, key: tuple[Any, ...], fn: Fn, env: dict[str, Any]) -> Any:
    """Compute a value's answer, recording what it reads, and remember it (see value_call below).

    An answer built on a supposed position (`as_if_laid`: it read VOLATILE) cannot say what it
    depends on, so it is kept only while the position it was asked in lasts (Runtime.position):
    the questions of one decision share it, and any change forgets it."""
    caller = rt.reads
    if rt.volatile_at == rt.position and key in rt.volatile:
        if caller is not None:
            caller.add(VOLATILE)
        return rt.volatile[key]
    rt.reads = reads = set[Any]()
    try:
        result = fn(rt, env)
    finally:
        rt.reads = caller
    if VOLATILE in reads:
        if not rt.supposing:
            if rt.volatile_at != rt.position:
                rt.volatile, rt.volatile_at = {}, rt.position
            rt.volatile[key] = result
        if caller is not None:
            caller.add(VOLATILE)
        return result
    rt.remember(key, result, reads)
    if caller is not None:
        caller.add(key)
    return result


def _memoized(fn: Fn, params: list[str], answers: dict[tuple[Any, ...], Any]) -> Fn:
    """A value of fixed data, remembered per arguments in `answers` (shared by every game of the
    program, and read first by its calls: see value_call)."""

    def value(rt: Any, env: dict[str, Any]) -> Any:
        key = tuple(env[p] for p in params)
        result = answers.get(key, _MISSING)
        if result is _MISSING:
            result = answers[key] = fn(rt, env)
        return result

    return value


class Memo(Part):
    def value_call(self, name: str, args: list[Fn]) -> Fn:
        """A call of a value the rules declare, with its arguments compiled.

        Values are called thousands of times a game: answer from the memo (Runtime.memo)
        when the same question was asked and nothing it read has changed since. Computing
        an answer records what it reads (Runtime.reads); using one, computed or
        remembered, records its key in the caller's reads, so that a change reaches every
        answer built on it. Bind no, one or two arguments without a list and zip, and find the
        value's function only when it must run (measured: a tenth of the time of a game that
        asks many questions). Values of fixed data have a memo of their own (_memoized).
        `last_rule` names the value being computed, for the error a recursion without end
        raises; a remembered answer computes nothing.
        A static value's call looks its answer up by the arguments alone, and builds the
        value's environment only when it must compute (measured: x1.06 on a game that asks many).
        """
        if name in self.static:
            return self.static_call(name, args)
        if len(args) <= 2:
            return (self.value_call0, self.value_call1, self.value_call2)[len(args)](name, args)
        return self.value_calln(name, args)

    def static_call(self, name: str, args: list[Fn]) -> Fn:
        """A call of a static value: its answer looked up by the arguments alone."""
        values = self.p.values
        answers = self.static_answers(name)
        if len(args) == 1:
            only, bound = args[0], self.names.get(args[0])  # `f(x)`: a bound x read at once

            def call_static1(rt: Any, env: dict[str, Any]) -> Any:
                arg = env[bound] if bound is not None else only(rt, env)
                result = answers.get((arg,), _MISSING)
                if result is _MISSING:
                    rt.last_rule = name
                    params, fn = values[name]
                    return fn(rt, {params[0]: arg})
                return result

            return call_static1

        def call_static(rt: Any, env: dict[str, Any]) -> Any:
            given = []  # a loop: a comprehension makes a function and a frame each time
            for a in args:
                given.append(a(rt, env))
            key = tuple(given)
            result = answers.get(key, _MISSING)
            if result is _MISSING:
                rt.last_rule = name
                params, fn = values[name]
                return fn(rt, dict(zip(params, key, strict=True)))
            return result

        return call_static

    def value_call0(self, name: str, args: list[Fn]) -> Fn:
        """`f()`: its one answer, from the memo."""
        values = self.p.values
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

    def value_call1(self, name: str, args: list[Fn]) -> Fn:
        """`f(x)`: by its argument, from the memo (a bound x read at once)."""
        values = self.p.values
        only, bound = args[0], self.names.get(args[0])  # `f(x)`: a bound x read at once

        def call_value1(rt: Any, env: dict[str, Any]) -> Any:
            arg = env[bound] if bound is not None else only(rt, env)
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

    def value_call2(self, name: str, args: list[Fn]) -> Fn:
        """`f(x, y)`: by its two arguments, from the memo (a bound x read at once)."""
        values = self.p.values
        first, second = args
        bound = self.names.get(first)  # `f(x, y)`: a bound x read at once

        def call_value2(rt: Any, env: dict[str, Any]) -> Any:
            key = (name, env[bound] if bound is not None else first(rt, env), second(rt, env))
            try:
                result = rt.memo.get(key, _MISSING)
            except TypeError:  # a list argument: not remembered, its reads are the caller's
                rt.last_rule = name
                params, fn = values[name]
                return fn(rt, {params[0]: key[1], params[1]: key[2]})
            if result is _MISSING:
                rt.last_rule = name
                params, fn = values[name]
                return _compute(rt, key, fn, {params[0]: key[1], params[1]: key[2]})
            if rt.reads is not None:
                rt.reads.add(key)
            return result

        return call_value2

    def value_calln(self, name: str, args: list[Fn]) -> Fn:
        """`f(a, b, c...)`: by its arguments, from the memo."""
        values = self.p.values

        def call_value(rt: Any, env: dict[str, Any]) -> Any:
            given = [name]  # a loop: a comprehension makes a function and a frame each time
            for a in args:
                given.append(a(rt, env))
            key = tuple(given)
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

    def static_answers(self, name: str) -> dict[tuple[Any, ...], Any]:
        """The answers of a static value, by its arguments: one dict, which its calls read and
        its function (`_memoized`) fills."""
        return self.static_memo.setdefault(name, {})
