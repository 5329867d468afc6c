"""Statements: each becomes a plain function `(runtime, env) -> None`, or a generator function when
it suspends (analyses.py says which; `stmt` gives each compiled statement that form). Here are
blocks, lets, logs, set/add/subtract, calls of rules, `if`, the loops, turns, named phases and
steps, offers and the end of the game; moves are in moves.py, decisions and chance in
decisions.py."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from meeple.grammar import ast
from meeple.interpreter.areas import grown_places
from meeple.interpreter.compiler.base import (
    _ERRORS,
    Compiled,
    Part,
    _nothing,
    _number,
    as_gen,
    site_of,
    snapshot_where,
    too_deep,
)
from meeple.interpreter.compiler.decisions import _distinct
from meeple.interpreter.names import Names
from meeple.interpreter.program import Fn, Gen
from meeple.interpreter.runtime import (
    CURRENT,
    Decision,
    GameEnded,
    Offer,
    RuleRuntimeError,
    Said,
    describe,
    offers_for,
    take_offer,
)
from meeple.interpreter.values import (
    Piece,
    PieceRef,
    Placement,
    Player,
    Row,
    label,
    label_piece,
    type_name,
)
from meeple.limits import MAX_RECURSION


def _and(items: list[str]) -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _looked(names: Names, seats: list[Player], at: dict[Any, list[Piece]]) -> tuple[str, str]:
    """A reveal's log line as the seats shown read it ("Player 1 looks at Owl, Key in hand of
    Player 2"), and as every other seat reads it ("Player 1 looks at 2 cards in hand of
    Player 2"), from the pieces by the place they are in."""
    who = f"  {_and([str(p) for p in seats])} {'looks' if len(seats) == 1 else 'look'} at"
    named = [f"{', '.join(label_piece(p) for p in pieces)} in {label(loc)}" for loc, pieces in at.items()]
    counted = [f"{_how_many(names, pieces)} in {label(loc)}" for loc, pieces in at.items()]
    return f"{who} {_and(named)}", f"{who} {_and(counted)}"


def _how_many(names: Names, pieces: list[Piece]) -> str:
    """How many pieces, by the name of their declaration and not of their row ("2 Cards", not
    "Owl and Lamp"), as another seat is told of pieces revealed to someone else: "one Card",
    "2 Cards", "3 pieces" for pieces of several declarations."""
    declared = {kind.name for kind, _ in pieces}
    if len(declared) > 1:
        return f"{len(pieces)} pieces"
    said = names.decl(pieces[0][0].name)
    return f"one {said.one}" if len(pieces) == 1 else f"{len(pieces)} {said.many}"


# Where `swap` holds the two values it read (compile_Swap): no name a rule writes has a space.
_FIRST, _SECOND = "swapped first", "swapped second"


class Statements(Part):
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
        """The statement compiled by its kind's `compile_X` method (here, moves.py, decisions.py)."""
        return ast.handler(self, "compile_", s, "the compiler")(s, scope)  # type: ignore[no-any-return]

    def compile_Let(self, s: ast.Let, scope: set[str]) -> Fn:
        value, name = self.expr(s.value, scope), s.name

        def let(rt: Any, env: dict[str, Any]) -> None:
            env[name] = value(rt, env)

        return let

    def compile_Shuffle(self, s: ast.Shuffle, scope: set[str]) -> Fn:
        zone = self.expr(s.zone, scope)

        def shuffle(rt: Any, env: dict[str, Any]) -> None:
            loc = zone(rt, env)
            rt.rng.shuffle(rt.locs[loc])
            rt.moved(loc, rt.locs[loc])

        return shuffle

    def compile_EndGame(self, s: ast.EndGame, scope: set[str]) -> Fn:
        def end(rt: Any, env: dict[str, Any]) -> None:
            raise GameEnded

        return end

    def compile_Log(self, s: ast.Log, scope: set[str]) -> Fn:
        parts = [self.expr(x, scope) if isinstance(x, ast.Expr) else x for x in s.parts]
        span, rule = s.span, self.rule

        def log(rt: Any, env: dict[str, Any]) -> None:
            if rt.logging:
                values = [x if isinstance(x, str) else x(rt, env) for x in parts]
                line = "".join(x if isinstance(x, str) else label(x) for x in values)
                places = [
                    x for x in values if type(x) is Placement or (not isinstance(x, str) and grown_places(x))
                ]
                if places:  # a place of a grid that grows: players read it by what it touches
                    rt.write(Said(line, places, rt.around_places(*places)), span, rule)
                else:
                    rt.write(line, span, rule)

        return log

    def compile_Reveal(self, s: ast.Reveal, scope: set[str]) -> Fn:
        """The seats named remember the pieces where they are (`Runtime.reveal`, shown by
        view.py) and read them in their log line; every other seat's line says how many pieces
        were looked at, and where, without naming them. No piece moves and nothing the rules read
        changes, so no answer is forgotten. Showing no pieces, or to nobody, does nothing."""
        what, to = self.expr(s.pieces, scope), self.expr(s.to, scope)
        span, rule = s.span, self.rule
        names = self.p.names
        assert names is not None

        def reveal(rt: Any, env: dict[str, Any]) -> None:
            refs, whom = what(rt, env), to(rt, env)
            refs = refs if isinstance(refs, list) else [refs]
            seats = whom if isinstance(whom, list) else [whom]
            for seat in seats:
                if not isinstance(seat, Player):
                    raise RuleRuntimeError(
                        f"pieces are revealed to players, not to {type_name(seat)}", span, rule
                    )
            at: dict[Any, list[Piece]] = {}  # the pieces by place, in the order the rules gave them
            for ref in refs:
                if not isinstance(ref, PieceRef):
                    raise RuleRuntimeError(f"only pieces can be revealed, not {type_name(ref)}", span, rule)
                if ref.piece not in rt.locs[ref.loc]:
                    raise RuleRuntimeError(f"{ref} is no longer in {label(ref.loc)}", span, rule)
                at.setdefault(ref.loc, []).append(ref.piece)
            if not at or not seats:
                return
            for loc, pieces in at.items():
                rt.reveal(loc, pieces, [p.seat for p in seats])
            if rt.logging:
                text, others = _looked(names, seats, at)
                rt.write_secret(text, frozenset(p.seat for p in seats), others, span, rule)

        return reveal

    def compile_Named(self, s: ast.Named, scope: set[str]) -> Callable[..., Any]:
        return self.block(s.body, scope)[0]

    def compile_SetStmt(self, s: ast.SetStmt | ast.AddStmt, scope: set[str]) -> Fn:
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
        clamps: dict[str | None, Callable[[Any], Any] | None] = {
            per: self._clamp(group.get(name)) for per, group in sym.owned_vars.items()
        }

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

    compile_AddStmt = compile_SetStmt

    def compile_Swap(self, s: ast.Swap, scope: set[str]) -> Fn:
        """Both values are read first; then each variable is set, as `set` sets it (clamped to
        its range, the change recorded), to the value read from the other. The values are held
        under names no rule can write (they hold a space)."""
        first, second = self.expr(s.first, scope), self.expr(s.second, scope)
        held = scope | {_FIRST, _SECOND}
        set_first = self.compile_SetStmt(
            ast.SetStmt(span=s.span, target=s.first, value=ast.Name(span=s.span, id=_SECOND)), held
        )
        set_second = self.compile_SetStmt(
            ast.SetStmt(span=s.span, target=s.second, value=ast.Name(span=s.span, id=_FIRST)), held
        )

        def swap(rt: Any, env: dict[str, Any]) -> None:
            values = {**env, _FIRST: first(rt, env), _SECOND: second(rt, env)}
            set_first(rt, values)
            set_second(rt, values)

        return swap

    def compile_Tally(self, s: ast.Tally, scope: set[str]) -> Fn:
        """Adds to a counter. Nothing in the game reads counters, so no answer is forgotten."""
        name = s.name
        whose = self.expr(s.player, scope) if s.player is not None else None
        amount = self.expr(s.amount, scope) if s.amount is not None else None

        def tally(rt: Any, env: dict[str, Any]) -> None:
            seat = whose(rt, env).seat if whose is not None else 0
            rt.counters[name][seat] += amount(rt, env) if amount is not None else 1

        return tally

    def compile_CallStmt(self, s: ast.CallStmt, scope: set[str]) -> Callable[..., Any]:
        """A rule's call. It counts how deeply calls are nested (`Runtime.depth`, as `counted`
        does for values and triggers), here rather than around the rule's body: a rule is called
        thousands of times a game, and a generator around a generator would be resumed at every
        decision below it."""
        args = [self.expr(a, scope) for a in s.args]
        rules, name, span, caller = self.p.rules, s.name, s.span, self.rule
        declared = self.sym.rules[name].span

        def bind(rt: Any, env: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
            rt.steps += 1
            if rt.steps > rt.budget:
                raise RuleRuntimeError(
                    f"the step budget ({rt.budget}) ran out: '{caller or name}' seems to loop forever",
                    span,
                    name,
                )
            if rt.depth >= MAX_RECURSION:
                raise too_deep(name, declared)
            rt.last_rule = name
            params, fn, _ = rules[name]
            inner = {}  # a loop, not a comprehension: a rule is called thousands of times a game
            for param, arg in zip(params, args, strict=True):
                inner[param] = arg(rt, env)
            return fn, inner

        if self.suspends(s):

            def call_gen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
                fn, inner = bind(rt, env)
                rt.depth += 1
                try:
                    yield from fn(rt, inner)
                finally:
                    rt.depth -= 1

            return call_gen

        def call_plain(rt: Any, env: dict[str, Any]) -> None:
            fn, inner = bind(rt, env)
            rt.depth += 1
            try:
                fn(rt, inner)
            finally:
                rt.depth -= 1

        return call_plain

    def compile_If(self, s: ast.If, scope: set[str]) -> Callable[..., Any]:
        branches = [(self.expr(b.cond, scope), self.block(b.body, scope)) for b in s.branches]
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

    def compile_ForEach(self, s: ast.ForEach, scope: set[str]) -> Callable[..., Any]:
        inner = scope | {s.var}
        seq = self.expr(s.seq, scope)
        cond = self.expr(s.cond, inner) if s.cond is not None else None
        body, is_gen = self.block(s.body, inner)
        var, spend = s.var, self._budget(s.span)

        items = snapshot_where(seq, cond, var)

        if s.chooser is not None:
            chooser, gbody, rule = self.expr(s.chooser, scope), as_gen(body, is_gen), self.rule
            prompt = s.prompt or "Which one next?"  # a player reads no variable names
            site = site_of(s)

            def for_chosen(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
                todo = items(rt, env)
                who = chooser(rt, env)
                while todo:
                    spend(rt)
                    options, index = _distinct(todo), 0
                    while len(options) > 1:  # asked again after an offered action
                        offers = offers_for(rt, who) if rt.offers else None
                        answer = yield Decision(who, prompt, list(options), rule, "", offers, site, env, var)
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

    def compile_Repeat(self, s: ast.Repeat, scope: set[str]) -> Callable[..., Any]:
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

    def compile_While(self, s: ast.While, scope: set[str]) -> Callable[..., Any]:
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

    def compile_Offer(self, s: ast.Offer, scope: set[str]) -> Gen:
        """While the block runs, the rule is offered beside every decision of the player."""
        args = [self.expr(a, scope) for a in s.args]
        player = self.expr(s.player, scope)
        cond = self.expr(s.cond, scope) if s.cond is not None else None
        body = as_gen(*self.block(s.body, scope))
        rules, name, label_text = self.p.rules, s.rule, s.label or s.rule.replace("_", " ")

        def offer(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            params, fn, is_gen = rules[name]
            bound = dict(zip(params, [a(rt, env) for a in args], strict=True))
            entry = (Offer(player(rt, env), label_text, as_gen(fn, is_gen), cond, bound, name), env)
            rt.offers.append(entry)
            try:
                yield from body(rt, env)
            finally:
                rt.offers.remove(entry)

        return offer

    def compile_Turn(self, s: ast.Turn, scope: set[str]) -> Callable[..., Any]:
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
