"""Flow that can be proved wrong without playing (M046-M049, and more M017).

- a `while` whose body (with every rule it calls and every trigger its moves may fire) changes
  nothing its condition reads, and cannot `end game`: once it starts, it never stops;
- statements and branches that can never run: a condition that is always `no` (or a branch after
  one that is always `yes`), a `repeat` of 0 times, a loop or choice over a list that is always
  empty, an outcome whose chance is 0, a statement after `end game` in the same block;
- a `choose` that must be made from a list of exactly one element: nobody ever decides;
- a `random` whose every outcome has a chance of 0 (a runtime error each time it runs);
- a `choose` that must be made and can never have an option, in the cases analysis does not see
  (an empty range, a condition that is a constant `no`): M017, the code analysis uses.

"Always" means: from literals, constants and table sizes only (see `walk.Known`). Where the
checker cannot be sure, it says nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.checks.walk import Known, Owner, owners, sites
from meeple.interpreter.own_names import OWN_NAMES

Token = tuple[str, str]  # what a condition reads or a body changes: ("var", name), ("pieces", "")...
ANY: Token = ("any", "")  # something the checker cannot follow: anything may change
ENDS: Token = ("ends", "")  # `end game`: the loop can stop
PIECES: Token = ("pieces", "")
CURRENT: Token = ("current", "")
# The language's own names that do not change while a game is played.
_FIXED_NAMES = {name for name, own in OWN_NAMES.items() if own.steady}


def _reads_only_arguments(func: str) -> bool:
    """A built-in that reads nothing that changes during a game but its arguments."""
    builtin = BUILTINS.get(func)
    return builtin is not None and (builtin.pure or builtin.steady)


class Flow:
    def __init__(self, symbols: Symbols, known: Known) -> None:
        self.sym = symbols
        self.known = known
        self.owned_vars = {name for group in symbols.owned_vars.values() for name in group}

    # -------------------------------------------------------------- what a condition reads

    def reads(self, e: ast.Node, seen: frozenset[str] = frozenset()) -> set[Token]:
        out: set[Token] = set()
        for node in e.walk():
            match node:
                case ast.Name(id=name):
                    out |= self._name(name)
                case ast.Attr(name=name) if name in self.owned_vars:
                    out.add(("attr", name))
                case ast.Call(func=func) if func in self.sym.values and func not in seen:
                    value = self.sym.values[func]
                    out |= self.reads(value.expr, seen | {func})
                case ast.Call(func=func) if func in BUILTINS and BUILTINS[func].reads_pieces:
                    out.add(PIECES)
                case ast.Call(func=func, args=[_, ast.Name(id=attr), *_]) if (
                    func in BUILTINS and BUILTINS[func].names_attribute
                ):
                    out.add(("attr", attr))
                case ast.Call(func=func) if func not in seen and not _reads_only_arguments(func):
                    out.add(ANY)  # a function whose reads the checker does not know
        return out

    def _name(self, name: str) -> set[Token]:
        s = self.sym
        if name == "current":
            return {CURRENT}
        if name in s.vars:
            return {("var", name), ("local", name)}  # a parameter may shadow a global variable
        if name in _FIXED_NAMES or name in s.row_keys:
            return set()
        if any(name in group for group in (s.constants, s.tables, s.zones, s.maps, s.pieces)):
            return set()
        return {("local", name)}

    # -------------------------------------------------------------- what a body changes

    def writes(self, body: list[ast.Stmt]) -> set[Token]:
        """What running a body may change: its own statements, every rule they call (and the
        rules those call), and, if it moves pieces, every trigger (and what the triggers call)."""
        out, todo = self._direct(body)
        done: set[str] = set()
        fired = False
        while todo or (PIECES in out and not fired):
            if todo:
                name = todo.pop()
                if name in done:
                    continue
                done.add(name)
                rule = self.sym.rules.get(name)
                found, calls = self._direct(rule.body) if rule is not None else ({ANY}, [])
            else:
                fired = True
                found, calls = set(), []
                for trig in self.sym.triggers:
                    more, called = self._direct(trig.body)
                    found |= more
                    calls += called
            out |= found
            todo += calls
        return out

    def _direct(self, body: list[ast.Stmt]) -> tuple[set[Token], list[str]]:
        """What the statements of a body change themselves, and the rules they call."""
        out: set[Token] = set()
        calls: list[str] = []
        for stmt in body:
            if stmt.facts.calls is not None:
                calls.append(getattr(stmt, stmt.facts.calls))
            out |= self._stmt_writes(stmt)
            for inner in stmt.blocks():
                more, called = self._direct(inner)
                out |= more
                calls += called
        return out, calls

    def _stmt_writes(self, stmt: ast.Stmt) -> set[Token]:
        """What a statement changes itself, from its facts (the rules it calls are followed by
        `writes`)."""
        out: set[Token] = set()
        for write in stmt.facts.writes:
            out |= self._tokens(stmt, write)
        for field in stmt.facts.targets:
            target = getattr(stmt, field)
            if isinstance(target, ast.Name):
                out |= {("var", target.id), ("local", target.id)}
            else:
                out |= {("attr", target.name)} if isinstance(target, ast.Attr) else {ANY}
        return out

    @staticmethod
    def _tokens(stmt: ast.Stmt, write: ast.Write) -> set[Token]:
        match write:
            case "bound":
                return {("local", getattr(stmt, stmt.facts.binds or ""))}
            case "pieces":
                return {PIECES}
            case "current":
                return {CURRENT}
            case "ends":
                return {ENDS}
        return {ANY}

    # -------------------------------------------------------------- the checks

    def check(self) -> list[Finding]:
        out: list[Finding] = []
        for owner in owners(self.sym):
            if owner.kind == "trigger" and self.known.value(getattr(owner.decl, "cond", None)) is False:
                out.append(
                    at(
                        owner.decl,
                        codes.NEVER_RUNS,
                        f"{owner.label} never fires: its 'where' condition is always no",
                    )
                )
            out += self._after_end(owner.body, owner)
            for site in sites(owner.body, owner):
                out += self._stmt(site.stmt, owner)
                for inner in site.stmt.blocks():
                    out += self._after_end(inner, owner)
        return out

    def _stmt(self, s: ast.Stmt, owner: Owner) -> list[Finding]:
        known, where = self.known, f" in {owner.label}"
        match s:
            case ast.While():
                return self._while(s, where)
            case ast.If():
                return self._if(s, where)
            case ast.Repeat():
                n = known.value(s.count)
                if isinstance(n, int) and not isinstance(n, bool) and n <= 0:
                    return [
                        at(
                            s,
                            codes.NEVER_RUNS,
                            f"this 'repeat'{where} never runs its block: it repeats {n} times",
                        )
                    ]
            case ast.ForEach() if known.empty(s.seq, s.cond):
                return [
                    at(
                        s,
                        codes.NEVER_RUNS,
                        f"this 'for each'{where} never runs its block: there is never anything to go through",
                    )
                ]
            case ast.Pick() if known.empty(s.seq, s.cond):
                return [
                    at(
                        s,
                        codes.NEVER_RUNS,
                        f"this 'pick'{where} never runs its block: there is never anything to pick from",
                    )
                ]
            case ast.Choose():
                return self._choose(s, where)
            case ast.Random():
                return self._random(s, where)
        return []

    def _while(self, s: ast.While, where: str) -> list[Finding]:
        cond = self.known.value(s.cond)
        if cond is False:
            return [
                at(
                    s,
                    codes.NEVER_RUNS,
                    f"this 'while'{where} never runs its block: its condition is always no",
                )
            ]
        changed = self.writes(s.body)
        if ENDS in changed or ANY in changed:
            return []
        if cond is True:
            return [
                at(
                    s,
                    codes.ENDLESS_WHILE,
                    f"this 'while'{where} never ends: its condition is always yes and nothing in it "
                    "ends the game",
                    "add 'end game' in its block, or a condition that its block changes",
                    severity="error",
                )
            ]
        read = self.reads(s.cond)
        if ANY in read or read & changed:
            return []
        what = ", ".join(sorted({_readable(t) for t in read})) or "nothing that changes"
        return [
            at(
                s,
                codes.ENDLESS_WHILE,
                f"this 'while'{where} never ends once it starts: nothing in its block (nor the rules "
                "it calls) changes what its condition reads",
                f"its condition reads {what}; change one of them in the block, or end the game there",
            )
        ]

    def _if(self, s: ast.If, where: str) -> list[Finding]:
        for i, cond in enumerate(b.cond for b in s.branches):
            value = self.known.value(cond)
            word = "'if'" if i == 0 else "'elif'"
            if value is False:
                return [
                    at(
                        cond,
                        codes.NEVER_RUNS,
                        f"this {word} condition{where} is always no: its branch never runs",
                    )
                ]
            if value is True and (i + 1 < len(s.branches) or s.orelse):
                return [
                    at(
                        cond,
                        codes.NEVER_RUNS,
                        f"this {word} condition{where} is always yes: the branches after it never run",
                    )
                ]
        return []

    def _choose(self, s: ast.Choose, where: str) -> list[Finding]:
        if self.known.empty(s.seq, s.cond):
            if not s.optional and not s.orelse:
                return [
                    at(
                        s,
                        codes.CHOICE_WITHOUT_OPTION,
                        "this 'choose' can never have an option, and it must be made",
                        "give it options, write 'may choose', or add an 'else:' block",
                        severity="error",
                    )
                ]
            return [
                at(s, codes.NEVER_RUNS, f"this 'choose'{where} never runs its block: it never has an option")
            ]
        if not s.optional and s.cond is None and self.known.length(s.seq) == 1:
            return [
                at(
                    s,
                    codes.SINGLE_OPTION,
                    f"this 'choose'{where} always has exactly one option: it is taken without asking anyone",
                    "if nobody should decide, write the statements without 'choose'",
                )
            ]
        return []

    def _random(self, s: ast.Random, where: str) -> list[Finding]:
        out = []
        weights = [None if o.weight is None else self.known.value(o.weight) for o in s.outcomes]
        fixed = [w for w in weights if w is not None]
        all_known = all(isinstance(w, int) for w in fixed)
        for outcome, w in zip(s.outcomes, weights, strict=True):
            if isinstance(w, int) and w <= 0:
                out.append(
                    at(
                        outcome,
                        codes.NEVER_RUNS,
                        f"outcome '{outcome.name}'{where} never happens: its chance is {w}",
                    )
                )
            elif w is None and all_known and sum(max(0, v) for v in fixed) >= 100:
                out.append(
                    at(
                        outcome,
                        codes.NEVER_RUNS,
                        f"outcome '{outcome.name}'{where} never happens: the chances before it add up "
                        "to 100 or more",
                    )
                )
        if all_known:
            given = sum(max(0, v) for v in fixed)
            total = given + (max(0, 100 - given) if None in weights else 0)
            if total <= 0:
                return [
                    at(
                        s,
                        codes.NO_CHANCE,
                        f"every outcome of this 'random'{where} has a chance of 0",
                        "give one a chance",
                    )
                ]
        return out

    def _after_end(self, body: list[ast.Stmt], owner: Owner) -> list[Finding]:
        statements = [s for s in body if not isinstance(s, ast.Meta)]
        for i, stmt in enumerate(statements[:-1]):
            if isinstance(stmt, ast.EndGame):
                return [
                    at(
                        statements[i + 1],
                        codes.NEVER_RUNS,
                        f"this statement in {owner.label} never runs: 'end game' just above ends the game",
                    )
                ]
        return []


def _readable(token: Token) -> str:
    kind, name = token
    return {
        "var": f"'{name}'",
        "attr": f"'.{name}'",
        "local": f"'{name}'",
        "pieces": "where pieces are",
        "current": "whose turn it is",
    }.get(kind, kind)


def check_flow(symbols: Symbols, known: Known, earlier: Iterable[Diagnostic]) -> list[Finding]:
    """M046-M049 and the M017 cases analysis leaves, for a file that analysed without errors."""
    reported = {(d.line, d.column) for d in earlier if d.code == codes.CHOICE_WITHOUT_OPTION}
    found = Flow(symbols, known).check()
    return [
        f for f in found if not (f.code == codes.CHOICE_WITHOUT_OPTION and (f.line, f.column) in reported)
    ]
