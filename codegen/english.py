"""English for every node of the AST: the words of a generated rulebook.

A rules file is written for a machine as much as for a reader; the printed rules must never leave
a rule out just because its author gave it no `text`. So every expression, statement and
declaration has a sentence here, generated from what it does ("Move up to 2 cube of p from reserve
to p's hand"). The wording follows the language reference, so that the printed rule says exactly
what the engine does: `move N` moves *up to* N, a `choose` names who decides, chance names its
outcomes.

Dispatch is one table from node type to method (`HANDLERS`), so a test can prove that no node type of
`grammar/ast.py` is left without words, and a new node fails that test until it is given some.
The speaker knows the module's declarations (`Symbols`) only to tell a rule's variable (`p`,
shown in italics) from a declared name (a zone, a constant: shown in words, with the constant's
value) and to link a rule call to its rule. It knows no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.codegen.markup import VAR_CLOSE, capitalise, plain, ref
from meeple.codegen.markup import var as mark_var
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.builtins import BUILTINS, Builtin
from meeple.interpreter.names import article as article_of
from meeple.interpreter.own_names import OWN_NAMES, SELF
from meeple.interpreter.styles import DEFAULT_WEIGHT
from meeple.interpreter.types import ANY, BOOL, Rows, Type
from meeple.interpreter.values import humanise

# Binding strength, loosest first, as in the grammar: a looser child of a tighter parent is
# bracketed so that "a times (b plus c)" keeps its meaning in words.
_PRECEDENCE = {
    "or": 1,
    "and": 2,
    "not": 3,
    "==": 4,
    "!=": 4,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "in": 4,
    "not in": 4,
    "..": 5,
    "+": 6,
    "-": 6,
    "*": 7,
    "//": 7,
    "%": 7,
    "neg": 8,
}
_ATOM = 9
_WORDS = {
    "or": "or",
    "and": "and",
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
    "in": "is in",
    "not in": "is not in",
    "+": "plus",
    "-": "minus",
    "*": "times",
}
_OPPOSITE = {
    "==": "!=",
    "!=": "==",
    "<": ">=",
    ">=": "<",
    ">": "<=",
    "<=": ">",
    "in": "not in",
    "not in": "in",
}
_PREPOSITIONS = {"at", "in", "of", "on", "for", "from", "to", "with", "by", "into", "near", "under", "over"}
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
_TYPES = {
    "int": "a number",
    "bool": "yes or no",
    "text": "a text",
    "player": "a player",
    "zone": "a zone",
    "location": "a location",
    "piece": "a piece",
    "any": "anything",
}
ZONE_FLAGS = {
    "public": "everyone sees it",
    "private": "only its owner sees what is in it",
    "hidden": "nobody sees what is in it",
    "ordered": "kept in order",
    "top": "kept in order; only its top piece shows",
}


def slug(name: str) -> str:
    """A name made safe for an HTML id or a Markdown link target."""
    out = "".join(ch if ch.isalnum() else "-" for ch in name.lower())
    return "-".join(part for part in out.split("-") if part) or "x"


def anchor(kind: str, name: str) -> str:
    """The id of a declaration's section: stable, so that links and tests can find it."""
    return f"{kind}-{slug(name)}"


def ordinal(n: int) -> str:
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def article(word: str) -> str:
    """The article of a marked name ("a", "an"): the words alone decide it."""
    return article_of(plain(word))


def known_number(e: ast.Expr | None, constants: dict[str, Any]) -> int | None:
    """A count known before the game: a number, a constant whose value is one, or such counts
    added, taken away or multiplied (`size * size per player`)."""
    if isinstance(e, ast.Num):
        return e.value
    if isinstance(e, ast.Name) and isinstance(constants.get(e.id), int):
        value = constants[e.id]
        return None if isinstance(value, bool) else value
    if isinstance(e, ast.Binary) and e.op in ("+", "-", "*"):
        left, right = known_number(e.left, constants), known_number(e.right, constants)
        if left is not None and right is not None:
            return left + right if e.op == "+" else left - right if e.op == "-" else left * right
    return None


def always(cond: ast.Expr) -> bool:
    """A condition written as `yes` (or left out of a `ranked by` list): nothing to say of it."""
    return isinstance(cond, ast.Bool) and cond.value is True


def join(items: Sequence[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _cell_words(value: ast.Cell) -> str:
    """A value as a table or a sequence's game line writes it, in words."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return humanise(str(value))


def quote(text: str) -> str:
    return f"\u201c{text}\u201d"


def meta_words(m: ast.Meta) -> str:
    """A metadata line as a reader gets it. A conflict is its subject, the passages that disagree
    and the reading the rules follow, in one paragraph."""
    if not isinstance(m, ast.Conflict):
        return m.value
    quotes = " and ".join(quote(p.value) for p in m.passages)
    reading = " ".join(r.value for r in m.reading)
    return f"{m.value}: the rulebook says {quotes}. {reading}".strip() if quotes else m.value


@dataclass
class Line:
    """One sentence of a generated procedure, with the sentences it governs (an `if`'s block, a
    loop's body). `kind` lets a template style it: do, decide, chance, flow, log, end, or the kind
    of a metadata line (text, cites, assume, conflict, aside)."""

    text: str
    kind: str = "do"
    children: list[Line] = field(default_factory=list)
    anchor: str | None = None  # a phase or step: the id its section is found by
    # a phase or step a rulebook prints among its rules: its name, marked as a link to it there,
    # which the rulebook's outline prints in place of its words (an aid keeps the words)
    see: str = ""
    brief: str | None = None  # a phase or step: its author's `brief`, what the player aid prints of its words

    def flat(self) -> str:
        """The sentence and everything under it as one paragraph: for a diagram or a summary."""
        own = self.text.rstrip(":").rstrip(".")
        inner = "; ".join(child.flat() for child in self.children)
        return f"{own}: {inner}" if inner else own


class English:
    """Speaks one module's AST. `constants` are the computed values of the constants, shown
    beside their names ("epochs (4)") so that a reader need not look them up."""

    def __init__(
        self,
        symbols: Symbols | None = None,
        constants: dict[str, Any] | None = None,
        anchors: dict[int, str] | None = None,
    ) -> None:
        self.sym = symbols
        self.constants = constants or {}
        # Every name a declaration gives (kinds analysis may not list yet, such as movements).
        self.declared = {
            name
            for d in (symbols.module.decls if symbols else [])
            if isinstance(name := getattr(d, "name", None), str)
        }
        self.anchors = anchors or {}  # id(phase or step) -> its anchor, made unique by the caller

    # ------------------------------------------------------------------ entry points

    def say(self, node: ast.Node) -> str:
        """Any node in words, as one text with inline marks (statements: flattened)."""
        if isinstance(node, ast.Stmt):
            return "; ".join(line.flat() for line in self.stmt(node))
        return self.speak(node)

    def speak(self, node: ast.Node) -> Any:
        """The words of one node, by the method HANDLERS names for its type, looked up on this
        speaker: a voice (a subclass) speaks a node its own way by overriding that method."""
        return getattr(self, HANDLERS[type(node)].__name__)(node)

    def expr(self, e: ast.Expr, context: int = 0, cond: bool = False) -> str:
        """An expression; bracketed when it binds looser than `context`. `cond`: it is read as a
        condition, so a yes/no attribute reads "b is large" rather than "b's large"."""
        if cond and (words := self._condition(e)) is not None:
            return words
        text = self.speak(e)
        if _strength(e) < context:
            return f"({text})"
        return text

    def cond(self, e: ast.Expr, context: int = 0) -> str:
        return self.expr(e, context, cond=True)

    def block(self, stmts: Sequence[ast.Stmt], meta: bool = True) -> list[Line]:
        """The sentences of a block. `meta=False` leaves out its own metadata lines, which a
        declaration shows in its heading (the parser keeps them in both places)."""
        lines: list[Line] = []
        for s in stmts:
            if isinstance(s, ast.Meta) and not meta:
                continue
            lines.extend(self.stmt(s))
        return lines

    def stmt(self, s: ast.Stmt) -> list[Line]:
        out = self.speak(s)
        return out if isinstance(out, list) else [out]

    # ------------------------------------------------------------------ names

    def var(self, name: str) -> str:
        """A name the rules bind (a parameter, a loop's item): in italics, as the file writes it."""
        return mark_var(name)

    def word(self, name: str) -> str:
        """A declared thing (a zone, a table, an attribute) in words."""
        return humanise(name)

    def kind(self, name: str, count: int | None = None) -> str:
        """A kind of piece, as many as `count` says (None: however many)."""
        return humanise(name)

    def name(self, name: str) -> str:
        """A bare name: a variable of the rule in italics, a declared name in words."""
        s = self.sym
        if name in OWN_NAMES:
            return OWN_NAMES[name].english
        if s is None:
            return self.var(name)
        if name in s.constants:
            value = self.constants.get(name)
            if isinstance(value, bool):
                return f"{humanise(name)} ({'yes' if value else 'no'})"
            if isinstance(value, int | str):
                return f"{humanise(name)} ({value})"
            return humanise(name)
        if name in s.rules:
            return ref(anchor("rule", name), humanise(name))
        if name in s.values:
            return ref(anchor("value", name), humanise(name))
        if name in self.declared or name in s.row_keys:
            return humanise(name)
        return self.var(name)

    def is_row_of(self, table: str, key: str) -> bool:
        return self.sym is not None and table in self.sym.row_keys.get(key, [])

    def typed(self, e: ast.Expr) -> Type:
        """The type analysis gave an expression (ANY without symbols, or where it gave none)."""
        return self.sym.types.get(id(e), ANY) if self.sym is not None else ANY

    def is_bool(self, e: ast.Attr) -> bool:
        """A yes/no attribute. Where analysis could not tell the owner's type (a trigger's
        location), an attribute is taken as yes/no when every column and variable of that name is."""
        typed = self.typed(e)
        if typed != ANY or self.sym is None:
            return typed == BOOL
        kinds = {
            col.type.name if col.type else "text"
            for table in self.sym.tables.values()
            for col in table.columns
            if col.name == e.name
        }
        for owned in self.sym.owned_vars.values():
            if e.name in owned:
                decl = owned[e.name]
                kinds.add(decl.type.name if decl.type else "any")
        return kinds == {"bool"}

    # ------------------------------------------------------------------ expressions

    def _num(self, e: ast.Num) -> str:
        return str(e.value)

    def _text(self, e: ast.Text) -> str:
        return quote(e.value)

    def _bool(self, e: ast.Bool) -> str:
        return "yes" if e.value else "no"

    def _none(self, e: ast.NoneLit) -> str:
        return "none"

    def _name(self, e: ast.Name) -> str:
        return self.name(e.id)

    def _attr(self, e: ast.Attr) -> str:
        if isinstance(e.obj, ast.Name) and self.is_row_of(e.obj.id, e.name):
            return self.word(e.name)  # `table.row`: the row itself
        if isinstance(e.obj, ast.Name) and e.obj.id == SELF:
            return f"its {self.word(e.name)}"
        owner = self.expr(e.obj, _ATOM)
        if _simple(e.obj):
            return f"{owner}{_possessive(owner)} {self.word(e.name)}"
        return f"the {self.word(e.name)} of {owner}"

    def _index(self, e: ast.Index) -> str:
        seq = self.expr(e.obj, _ATOM)
        if isinstance(self.typed(e.obj), Rows):  # a variable per owner and row
            return f"{seq} for {self.expr(e.index, _ATOM)}"
        if isinstance(e.index, ast.Num):
            if isinstance(e.obj, ast.Name) and e.obj.id == "players":
                return f"Player {e.index.value + 1}"  # how the engine shows players
            return f"the {ordinal(e.index.value + 1)} of {seq}"
        return f"item {self.expr(e.index, _ATOM)} of {seq}, counting from 0"

    def _call(self, e: ast.Call) -> str:
        args = e.args
        # Several arguments are joined with "and"; one that is itself a call of several arguments
        # is bracketed, so that "holds of (cell of m, 0 and 1) and x" keeps its grouping.
        words = [
            f"({self.expr(a)})"
            if len(args) > 1 and isinstance(a, ast.Call) and len(a.args) > 1
            else self.expr(a)
            for a in args
        ]
        builtin = BUILTINS.get(e.func)
        if builtin is not None and (said := self.builtin(builtin, e, words)) is not None:
            return said
        return self._apply(e.func, words)

    def builtin(self, builtin: Builtin, e: ast.Call, words: list[str]) -> str | None:
        """A built-in's call in this voice's words (None: none of its own)."""
        return builtin.english(self, e, words)

    def _apply(self, func: str, words: list[str]) -> str:
        """A value, or a function the speaker has no special words for: "NAME of ARGS"."""
        label = self.name(func) if self.sym is not None and func in self.sym.values else self.word(func)
        return _mention(label, func, words)

    def pieces_in(self, args: Sequence[ast.Expr], default: str) -> str:
        """`pieces(where, KIND, OWNER)` without its article: "cube of p in r"."""
        where = self.expr(args[0])
        what = self.kind(_bare(args[1])) if len(args) > 1 else default
        if len(args) > 2:
            what += " owned by nobody" if isinstance(args[2], ast.NoneLit) else f" of {self.expr(args[2])}"
        return f"{what} in {where}"

    def total(self, e: ast.Expr) -> str | None:
        """`sum([c.x for each c in S])` as "the total x of S": how a rulebook says it."""
        if not isinstance(e, ast.MapComp) or e.cond is not None:
            return None
        body = e.expr
        if isinstance(body, ast.Attr) and isinstance(body.obj, ast.Name) and body.obj.id == e.var:
            return f"the total {self.word(body.name)} of {self.expr(e.seq)}"
        return None

    def source(self, e: ast.MapComp) -> str:
        """What a comprehension is taken from: "S", or "S where C"."""
        seq = self.expr(e.seq)
        return f"{seq} where {self.cond(e.cond)}" if e.cond is not None else seq

    def named(self, e: ast.Expr) -> str:
        """An argument that names something (an attribute, a kind) rather than being a value."""
        return self.word(_bare(e))

    def listing(self, words: list[str]) -> str:
        """Several things said in a row: "a, b and c"."""
        return join(words)

    def _unary(self, e: ast.Unary) -> str:
        if e.op == "not":
            operand = e.operand
            if isinstance(operand, ast.Binary) and operand.op in _OPPOSITE:
                return self._binary(operand.model_copy(update={"op": _OPPOSITE[operand.op]}))
            return f"not {self.cond(operand, _PRECEDENCE['not'] + 1)}"
        if isinstance(e.operand, ast.Num):
            return f"-{e.operand.value}"
        return f"minus {self.expr(e.operand, _PRECEDENCE['neg'])}"

    def _binary(self, e: ast.Binary) -> str:
        strength = _PRECEDENCE[e.op]
        if e.op in ("and", "or"):
            # "a or b and c" is clear to a parser, not to a reader: mixed and/or is bracketed.
            left, right = (
                self.cond(side, _ATOM if _mixes(e.op, side) else strength) for side in (e.left, e.right)
            )
            return f"{left} {e.op} {right}"
        if (words := self._emptiness(e)) is not None:
            return words
        left = self.expr(e.left, strength)
        right = self.expr(e.right, strength + 1)
        if e.op == "..":
            return f"{left} to {right}"
        if e.op == "//":
            return f"{left} divided by {right} (rounded down)"
        if e.op == "%":
            return f"the remainder of {left} divided by {right}"
        if e.op in ("in", "not in") and isinstance(e.right, ast.ListLit):
            items = [self.expr(i) for i in e.right.items]
            return f"{left} is {'one' if e.op == 'in' else 'none'} of {join(items, 'or')}"
        return f"{left} {_WORDS[e.op]} {right}"

    def _emptiness(self, e: ast.Binary) -> str | None:
        """`count(X) > 0` as a reader says it: "there is a cube in z", "the list is empty"."""
        counted = e.left
        if not (isinstance(counted, ast.Call) and counted.func == "count" and len(counted.args) == 1):
            return None
        some = (e.op in (">", "!=") and _is_num(e.right, 0)) or (e.op == ">=" and _is_num(e.right, 1))
        none = (e.op == "==" and _is_num(e.right, 0)) or (e.op == "<" and _is_num(e.right, 1))
        if not (some or none):
            return None
        what = counted.args[0]
        if isinstance(what, ast.Call) and what.func == "pieces":
            return f"there is {'a' if some else 'no'} {self.pieces_in(what.args, 'piece')}"
        if isinstance(what, ast.Filter):
            seq = f"{self.expr(what.seq)} where {self.cond(what.cond)}"
            return f"there is {article(what.var) if some else 'no'} {self.var(what.var)} in {seq}"
        return f"{self.expr(what)} is {'not ' if some else ''}empty"

    def _if_expr(self, e: ast.IfExpr) -> str:
        return f"{self.expr(e.then, 1)} if {self.cond(e.cond, 1)}, otherwise {self.expr(e.orelse, 1)}"

    def _list(self, e: ast.ListLit) -> str:
        return join([self.expr(i) for i in e.items])

    def _filter(self, e: ast.Filter) -> str:
        where = "" if always(e.cond) else f" where {self.cond(e.cond)}"
        ranked = f", ranked by {join([self.expr(k) for k in e.keys])}, highest first" if e.keys else ""
        return f"every {self.var(e.var)} in {self.expr(e.seq)}{where}{ranked}"

    def _mapcomp(self, e: ast.MapComp) -> str:
        return f"{self.expr(e.expr)} for each {self.var(e.var)} in {self.source(e)}"

    def _condition(self, e: ast.Expr) -> str | None:
        """Yes/no attributes read as predicates: "b is large", "b is not flipped"."""
        negated = isinstance(e, ast.Unary) and e.op == "not"
        target = e.operand if isinstance(e, ast.Unary) and negated else e
        if not isinstance(target, ast.Attr) or not self.is_bool(target):
            return None
        if isinstance(target.obj, ast.Name) and target.obj.id == SELF:
            return None
        owner = self.expr(target.obj, _ATOM)
        return f"{owner} is {'not ' if negated else ''}{self.word(target.name)}"

    # ------------------------------------------------------------------ statements

    def _meta(self, s: ast.Meta) -> list[Line]:
        if isinstance(s, ast.Called):
            plural = f" (plural {quote(s.plural)})" if s.plural else ""
            return [Line(f"Called {quote(s.value)}{plural} by players.", kind="text")]
        if isinstance(s, ast.CalledEach):
            return [Line(f"Each row called {quote(s.value)} by players.", kind="text")]
        if isinstance(s, ast.Numbered):
            return [Line(f"Numbered {s.number} in the rulebook.", kind="text")]
        return [Line(meta_words(s), kind="text" if s.kind == "says" else s.kind)]

    def _owner(self, kind: str, which: ast.Expr | None, owner: ast.Expr | None) -> str:
        what = self.kind(kind)
        if which is not None:
            what += f" ({self.expr(which)})"
        if owner is not None:
            what += f" of {self.expr(owner)}"
        return what

    def _move_refs(self, s: ast.MoveRefs) -> Line:
        return Line(f"Move {self.expr(s.pieces)} to {self.expr(s.dest)}.")

    def _move_count(self, s: ast.MoveCount) -> Line:
        what = self._owner(s.kind, s.which, s.owner)
        src, dest = self.expr(s.src), self.expr(s.dest)
        if isinstance(s.count, ast.Num) and s.count.value == 1:
            return Line(f"Move one {what} from {src} to {dest}, if there is one.")
        return Line(f"Move up to {self.expr(s.count, _ATOM)} {what} from {src} to {dest}.")

    def _move_all(self, s: ast.MoveAll) -> Line:
        what = self._owner(s.kind, s.which, s.owner)
        return Line(f"Move all {what} from {self.expr(s.src)} to {self.expr(s.dest)}.")

    def _swap(self, s: ast.Swap) -> Line:
        return Line(f"Swap {self.expr(s.first)} with {self.expr(s.second)}.")

    def _set(self, s: ast.SetStmt) -> Line:
        target = self.expr(s.target)
        value = s.value
        if isinstance(value, ast.Binary) and value.op in "+-" and self.expr(value.left) == target:
            amount = self.expr(value.right, _PRECEDENCE["+"] + 1)
            if value.op == "+":
                return Line(f"Add {amount} to {target}.")
            return Line(f"Subtract {amount} from {target}.")
        return Line(f"Set {target} to {self.expr(value)}.")

    def _add(self, s: ast.AddStmt) -> Line:
        if s.sign < 0:
            return Line(f"Subtract {self.expr(s.amount)} from {self.expr(s.target)}.")
        return Line(f"Add {self.expr(s.amount)} to {self.expr(s.target)}.")

    def _let(self, s: ast.Let) -> Line:
        if self.typed(s.value) == BOOL or (isinstance(s.value, ast.Binary) and _PRECEDENCE[s.value.op] <= 4):
            return Line(f"Let {self.var(s.name)} be whether {self.cond(s.value)}.")
        return Line(f"Let {self.var(s.name)} be {self.expr(s.value)}.")

    def _shuffle(self, s: ast.Shuffle) -> Line:
        return Line(f"Shuffle {self.expr(s.zone)}.")

    def _draw(self, s: ast.Draw) -> Line:
        count = "the top piece" if _is_num(s.count, 1) else f"the top {self.expr(s.count)} pieces"
        return Line(f"Draw {count} of {self.expr(s.src)} to {self.expr(s.dest)}.")

    def _place(self, s: ast.Place) -> Line:
        at = f" at {self.expr(s.at)}" if s.at is not None else ""
        over = ", on top of what is there" if s.over else ""
        return Line(f"Place {self.expr(s.shape)} on {self.expr(s.map)}{at}{over}.")

    def _shift(self, s: ast.Shift) -> Line:
        east, south = self.expr(s.dq), self.expr(s.dr)
        return Line(f"Slide {self.expr(s.map)}, with everything on it, {east} east and {south} south.")

    def _lift(self, s: ast.Lift) -> Line:
        return Line(f"Lift {self.expr(s.layer)} off the map: what lies under it shows again.")

    def _end(self, s: ast.EndGame) -> Line:
        return Line("The game ends.", kind="end")

    def _log(self, s: ast.Log) -> Line | list[Line]:  # a voice may say nothing of it: players.py
        parts = [p if isinstance(p, str) else f"[{self.expr(p)}]" for p in s.parts]
        return Line(f"Log {quote(''.join(parts))}.", kind="log")

    def _reveal(self, s: ast.Reveal) -> Line:
        return Line(f"Show {self.expr(s.pieces)} to {self.expr(s.to)}, and to no one else.")

    def _tally(self, s: ast.Tally) -> Line | list[Line]:
        whose = f" for {self.expr(s.player)}" if s.player is not None else ""
        amount = f" by {self.expr(s.amount)}" if s.amount is not None else ""
        return Line(f"Count {self.name(s.name)}{whose}{amount} (for statistics).", kind="log")

    def _call_stmt(self, s: ast.CallStmt) -> Line:
        rule = self.name(s.name) if self.sym is not None and s.name in self.sym.rules else self.word(s.name)
        args = [self.expr(a) for a in s.args]
        return Line(capitalise(f"{rule} for {join(args)}." if args else f"{rule}."))

    def _if(self, s: ast.If) -> list[Line]:
        lines = [self._branch(b, first=i == 0) for i, b in enumerate(s.branches)]
        otherwise = self.block(s.orelse)
        if otherwise:  # an `else` of nothing a voice tells (a log line) prints no empty bullet
            lines.append(Line("Otherwise:", children=otherwise))
        return lines

    def _branch(self, b: ast.Branch, first: bool = True) -> Line:
        lead = "If" if first else "Otherwise, if"
        return Line(f"{lead} {self.cond(b.cond)}:", children=self.block(b.body))

    def _say_branch(self, b: ast.Branch) -> str:
        return self._branch(b).flat()

    def among(self, name: str, seq: ast.Expr, cond: ast.Expr | None) -> str:
        """What a loop or a choice runs over: "palette where c is bright". A filter over the same
        name (`for each c in [each c in S where C]`) reads as its list and condition."""
        if cond is None and isinstance(seq, ast.Filter) and seq.var == name:
            cond, seq = seq.cond, seq.seq
        words = self.expr(seq)
        return f"{words} where {self.cond(cond)}" if cond is not None else words

    def _for_each(self, s: ast.ForEach) -> Line:
        text = f"For each {self.var(s.var)} in {self.among(s.var, s.seq, s.cond)}"
        if s.chooser is not None:
            text += f", in the order {self.expr(s.chooser)} chooses"
            if s.prompt:
                text += f" ({quote(s.prompt)})"
        return Line(text + ":", kind="decide" if s.chooser is not None else "do", children=self.block(s.body))

    def _repeat(self, s: ast.Repeat) -> Line:
        text = "Once:" if _is_num(s.count, 1) else f"Repeat {self.expr(s.count)} times:"
        return Line(text, children=self.block(s.body))

    def _while(self, s: ast.While) -> Line:
        if isinstance(s.cond, ast.Bool) and s.cond.value:
            return Line("Repeat until the game ends:", children=self.block(s.body))
        return Line(f"As long as {self.cond(s.cond)}, repeat:", children=self.block(s.body))

    def chooser(self, who: ast.Expr | None) -> str:
        return self.expr(who) if who is not None else "the current player"

    def _choose(self, s: ast.Choose) -> list[Line]:
        who = self.chooser(s.chooser)
        verb = "may choose" if s.optional else "chooses"
        if isinstance(s.seq, ast.ListLit) and len(s.seq.items) > 1:
            options = [self.expr(i) for i in s.seq.items]
            text = f"{who} {verb} {article(s.var)} {self.var(s.var)}: {join(options, 'or')}"
            if s.cond is not None:
                text += f" where {self.cond(s.cond)}"
        else:
            text = f"{who} {verb} {article(s.var)} {self.var(s.var)} from {self.among(s.var, s.seq, s.cond)}"
        if s.prompt:
            text += f" ({quote(s.prompt)})"
        lines = [Line(capitalise(text) + ":", kind="decide", children=self.block(s.body))]
        if s.orelse:
            lead = f"If {who} passes:" if s.optional else f"If there is no {self.var(s.var)} to choose:"
            lines.append(Line(capitalise(lead), children=self.block(s.orelse)))
        return lines

    def _ask(self, s: ast.Ask) -> list[Line]:
        who = self.chooser(s.chooser)
        lines = [Line(capitalise(f"If {who} says yes to {quote(s.prompt)}:"), "decide", self.block(s.body))]
        if s.orelse:
            lines.append(Line(capitalise(f"If {who} says no:"), children=self.block(s.orelse)))
        return lines

    def _random(self, s: ast.Random) -> Line:
        label = f"Chance decides the {humanise(s.label)}:" if s.label else "Chance decides:"
        relative = all(o.weight is not None for o in s.outcomes)
        return Line(label, kind="chance", children=[self._outcome(o, relative) for o in s.outcomes])

    def _outcome(self, o: ast.Outcome, relative: bool = False) -> Line:
        if o.weight is None:
            odds = "the rest"
        elif relative:
            odds = f"weight {self.expr(o.weight)}"
        else:
            odds = f"{self.expr(o.weight)} in 100"
        return Line(f"{humanise(o.name)} ({odds}):", kind="chance", children=self.block(o.body))

    def _say_outcome(self, o: ast.Outcome) -> str:
        return self._outcome(o).flat()

    def _pick(self, s: ast.Pick) -> list[Line]:
        text = f"Pick {article(s.var)} {self.var(s.var)} at random from {self.among(s.var, s.seq, s.cond)}"
        lines = [Line(text + ":", kind="chance", children=self.block(s.body))]
        if s.orelse:
            lines.append(Line("If there is none:", children=self.block(s.orelse)))
        return lines

    def _offer(self, s: ast.Offer) -> Line:
        rule = self.name(s.rule) if self.sym is not None and s.rule in self.sym.rules else self.word(s.rule)
        args = [self.expr(a) for a in s.args]
        action = f"{rule} for {join(args)}" if args else rule
        who = self.expr(s.player)
        when = f" (when {self.cond(s.cond)})" if s.cond is not None else ""
        text = f"Meanwhile, whenever {who} decides something, {who} may first {action}{when}:"
        return Line(capitalise(text), kind="decide", children=self.block(s.body))

    def _turn(self, s: ast.Turn) -> Line:
        who = self.expr(s.player, _ATOM)
        return Line(capitalise(f"{who}{_possessive(who)} turn:"), kind="flow", children=self.block(s.body))

    def _named(self, s: ast.Named) -> Line:
        text = f"{s.kind.capitalize()} {humanise(s.name)}:"
        return Line(text, kind="flow", children=self.block(s.body), anchor=self.anchors.get(id(s)))

    # ------------------------------------------------------------------ declarations and parts

    def type_ref(self, t: ast.TypeRef | None) -> str:
        if t is None:
            return "anything"
        words = _TYPES.get(t.name)
        if words is None:
            words = f"{article(t.name)} {humanise(t.name)}"
        return f"{words} or none" if t.optional else words

    def _type(self, t: ast.TypeRef) -> str:
        return self.type_ref(t)

    def _column(self, c: ast.Column) -> str:
        return f"{humanise(c.name)} ({self.type_ref(c.type)})" if c.type else humanise(c.name)

    def _row(self, r: ast.Row) -> str:
        return ", ".join(cell(c) for c in r.cells)

    def _param(self, p: ast.Param) -> str:
        return f"{self.var(p.name)} ({self.type_ref(p.type)})" if p.type else self.var(p.name)

    def params(self, params: Sequence[ast.Param]) -> str:
        return join([self._param(p) for p in params]) if params else ""

    def _header(self, d: ast.GameHeader) -> str:
        return f"{d.name}, for {players(d.min_players, d.max_players)}"

    def _constant(self, d: ast.Constant) -> str:
        return f"{humanise(d.name)} is {self.expr(d.value)}"

    def _option(self, d: ast.OptionDecl) -> str:
        chosen = "" if d.value is d.default else f" (this time: {self.expr(d.value)})"
        kind, default = self.type_ref(d.type), self.expr(d.default)
        return (
            f"{humanise(d.name)} is chosen before the game: {kind}, {default} unless chosen otherwise{chosen}"
        )

    def _table(self, d: ast.Table) -> str:
        cols = join([self._column(c) for c in d.columns])
        return f"{humanise(d.name)}: {len(d.rows)} rows of {cols}"

    def where(self, zone: ast.Expr) -> str:
        """Where pieces start: a `per player` zone written bare means each player's own."""
        if isinstance(zone, ast.Name) and self.sym is not None:
            owned = self.sym.owned_zones.get("player", {})
            if zone.id in owned and zone.id not in self.sym.zones:
                return f"each player's own {humanise(zone.id)}"
        return self.expr(zone)

    def _how_many(self, d: ast.Counted) -> str:
        """A piece's or a component's count: "3 meeple for each player", "one card for each row of X"."""
        name = humanise(d.name)
        if d.each_row_of:
            return f"one {name} for each row of {humanise(d.each_row_of)}"
        count = self.expr(d.count) if d.count is not None else "some"
        if d.per_row_of:
            return f"{count} {name} for each row of {humanise(d.per_row_of)}"
        return f"{count} {name} for each player" if d.per_player else f"{count} {name}"

    def _piece(self, d: ast.PieceDecl) -> str:
        owned = ", owned by that player" if d.per_player else ""
        return f"{self._how_many(d)}{owned}, starting in {self.where(d.zone)}"

    def _component(self, d: ast.ComponentDecl) -> str:
        return f"{self._how_many(d)}, laid out by the players; no rule moves or counts it"

    def _counter(self, d: ast.CounterDecl) -> str:
        whose = "for each player" if d.per_player else "for the whole game"
        return f"Counted {whose}, for the statistics of simulated games; the rules never read it."

    # carried state and sequences of games (interpreter/carry.py, interpreter/sequence.py)

    def _carry(self, d: ast.CarryDecl) -> str:
        whose = "" if d.per is None else f" of each {humanise(d.per)}"
        when = "" if d.condition is None else f"when {self.cond(d.condition)}, "
        return (
            f"{when}{humanise(d.name)}{whose} is saved at the end of the game, and a game started from "
            "that save begins with it as it was"
        )

    def _sequence(self, d: ast.SequenceDecl) -> str:
        games = "; ".join(f"game {n}: {self._sequence_game(g)}" for n, g in enumerate(d.games, 1))
        return (
            f"played as {len(d.games)} games, one after the other, each starting from what the one "
            f"before saved, and won as the last one is won ({games})"
        )

    def _sequence_game(self, g: ast.SequenceGame) -> str:
        return ", ".join(f"{humanise(name)} {_cell_words(value)}" for name, value in g.options) or "as it is"

    def _automated(self, d: ast.AutomatedDecl) -> str:
        how = f"playing the style {humanise(d.style)} strictly" if d.style else "playing no style"
        return f"A seat the rules play, after the players, {how}: no agent is ever asked its decisions."

    def _teams(self, d: ast.TeamsDecl) -> str:
        size = str(d.smallest) if d.smallest == d.largest else f"{d.smallest} to {d.largest}"
        return (
            f"The game can be played in teams of {size} players, chosen when it starts; a team wins together."
        )

    def _style(self, d: ast.StyleDecl) -> str:
        return " ".join(self._preference(p) for p in d.preferences)

    def _preference(self, p: ast.Preference) -> str:
        rule = f"“{humanise(p.rule)}”"
        what = {
            "option": f"the option {mark_var(p.var or '')} chosen in {rule}",
            "yes": f"yes in {rule}",
            "pass": f"passing in {rule}",
            "offer": f"taking {rule} when it is offered",
        }[p.target]
        when = f", when {self.cond(p.cond)}" if p.cond is not None else ""
        weight = self.expr(p.weight) if p.weight is not None else str(DEFAULT_WEIGHT)
        how = f"{weight} times less likely" if p.avoid else f"{weight} times as likely"
        return f"{'Avoids' if p.avoid else 'Prefers'} {what}{when} ({how})."

    def _zone(self, d: ast.ZoneDecl) -> str:
        whose = f"one for each {humanise(d.per)}" if d.per else "shared"
        flags = [ZONE_FLAGS.get(f, f) for f in d.flags]
        return f"{humanise(d.name)}: {'; '.join([whose, *flags])}"

    def var_words(self, d: ast.VarDecl) -> str:
        """What a variable holds and where it starts, without its name."""
        text = f"one for each {humanise(d.per)}: " if d.per else ""
        text += f"{self.type_ref(d.type) if d.type else 'a value'}, starting at {self.expr(d.init)}"
        if d.within is not None:
            text += f", kept within {self.expr(d.within)}"
        return text

    def _var(self, d: ast.VarDecl) -> str:
        return f"{humanise(d.name)}: {self.var_words(d)}"

    def map_words(self, d: ast.MapDecl) -> str:
        """What a map is made of, without its name."""
        whose = f"one for each {humanise(d.per)}: " if d.per else ""
        grid = d.grid
        if grid and d.outline is not None:
            sizes = [self.expr(term) for term in d.size]
            cell = "hexes" if grid == "hex" else "squares"
            if d.outline == "hexagon":
                return f"{whose}a hexagon of {cell}, {sizes[0]} to a side"
            shape = "a rhombus" if grid == "hex" else "a grid"
            return f"{whose}{shape} of {sizes[0]} by {sizes[1]} {cell}"
        if grid:
            cells = f", whose cells read {humanise(d.faces)}" if d.faces else ""
            return f"{whose}a {grid} grid that grows as shapes are placed on it{cells}"
        text = f"{whose}the rows of {humanise(d.nodes)}"
        if d.edges:
            text += f", joined by the rows of {humanise(d.edges)} ({d.edge_from} to {d.edge_to})"
        return text

    def _map(self, d: ast.MapDecl) -> str:
        return f"{humanise(d.name)}: {self.map_words(d)}"

    def _movement(self, d: ast.MovementDecl) -> str:
        parts = [f"{humanise(d.name)}" + (f" for {self.params(d.params)}" if d.params else "")]
        if d.steps is not None:
            parts.append(f"up to {self.expr(d.steps)} steps")
        if d.step is not None:
            parts.append(
                f"each step going from {article(d.step_var)} {self.var(d.step_var)} to {self.expr(d.step)}"
            )
        if d.straight is not None:
            parts.append(f"in a straight line when {self.cond(d.straight)}")
        if d.backtracks is not None:
            parts.append(f"going back over a cell when {self.cond(d.backtracks)}")
        if d.through is not None:
            parts.append(f"through each {self.var(d.through_var)} where {self.cond(d.through)}")
        if d.ends is not None:
            parts.append(f"ending on {article(d.ends_var)} {self.var(d.ends_var)} where {self.cond(d.ends)}")
        return ", ".join(parts)

    def signature(self, name: str, params: Sequence[ast.Param]) -> str:
        return f"{humanise(name)} for {self.params(params)}" if params else humanise(name)

    def _rule(self, d: ast.RuleDecl) -> str:
        return self.signature(d.name, d.params)

    def _value(self, d: ast.ValueDecl) -> str:
        """A value as a definition: "score of p is ...", or for a yes/no value "c is empty means
        there is no piece in c"."""
        head = _mention(humanise(d.name), d.name, [self.var(p.name) for p in d.params])
        e = d.expr
        if self.typed(e) == BOOL or _strength(e) <= _PRECEDENCE["=="]:
            return f"{head} means {self.cond(e)}"
        return f"{head} is {self.expr(e)}"

    def trigger(self, d: ast.TriggerDecl) -> str:
        kind, piece, place = humanise(d.kind), self.var(d.piece_var), self.var(d.loc_var)
        text = f"When {article(d.kind)} {kind} {piece} enters {place}"
        if d.cond is not None:
            text += f", if {self.cond(d.cond)}"
        return text

    def _trigger(self, d: ast.TriggerDecl) -> str:
        return self.trigger(d)

    def _setup(self, d: ast.SetupDecl) -> str:
        return "Setup: " + "; ".join(line.flat() for line in self.block(d.body, meta=False))

    def _play(self, d: ast.PlayDecl) -> str:
        return "Play: " + "; ".join(line.flat() for line in self.block(d.body, meta=False))

    def score(self, d: ast.ScoreDecl) -> str:
        who = self.var(d.var)
        if d.kind == "tiebreak":
            e = d.expr
            if isinstance(e, ast.Unary) and e.op == "-":  # how a rules file says "the lowest wins"
                return f"If scores tie, the lower value of {self.expr(e.operand)} wins"
            return f"If scores tie, the higher value of {self.expr(e)} wins"
        return f"{who}{_possessive(who)} score is {self.expr(d.expr)}"

    def _score(self, d: ast.ScoreDecl) -> str:
        return self.score(d)

    def _example(self, d: ast.Example) -> str:
        return f"Example: {d.name}"

    # Variant patches: a variant is documented once applied to its base game, but its own syntax
    # tree (before it is applied) can be spoken too.

    def _variant_header(self, d: ast.VariantHeader) -> str:
        counts = f", for {players(d.min_players, d.max_players)}" if d.has_players else ""
        return f"{d.name}: a variant of {' and '.join([d.base, *d.combines])}{counts}"

    def _replace_decl(self, d: ast.ReplaceDecl) -> str:
        return f"Instead of the base game's: {self.say(d.decl)}"

    def _replace_block(self, d: ast.ReplaceBlock) -> str:
        inner = "; ".join(line.flat() for line in self.block(d.body))
        return f"Replace {d.kind} {humanise(d.name)} with: {inner}"

    def _remove_decl(self, d: ast.RemoveDecl) -> str:
        return f"Remove the {d.kind} {humanise(d.name)}"

    def _reword(self, d: ast.Reword) -> str:
        what = f"{d.kind} {humanise(d.name)}" if d.name else d.kind
        words = " ".join(m.value for m in d.meta if m.kind in ("says", "text"))
        if words:
            return f"The {what}, in new words: {words}"
        return f"The base game's words for the {what} still hold: " + " ".join(
            m.value for m in d.meta if m.kind == "holds"
        )

    def _insert_block(self, d: ast.InsertBlock) -> str:
        inner = "; ".join(line.flat() for line in self.block(d.body))
        return f"{d.position.capitalize()} {d.kind} {humanise(d.name)}: {inner}"

    def _extend_table(self, d: ast.ExtendTable) -> str:
        rows = "; ".join(self._row(r) for r in d.rows)
        return f"Add to {humanise(d.name)} the rows {rows}"

    def _extend_setup(self, d: ast.ExtendSetup) -> str:
        return "Add to the setup: " + "; ".join(line.flat() for line in self.block(d.body))

    def _change_table(self, d: ast.ChangeTable) -> str:
        return f"Change {humanise(d.name)}: " + "; ".join(self.say(p) for p in d.patches)

    def _set_cell(self, d: ast.SetCell) -> str:
        return f"the {humanise(d.column)} of {humanise(d.key)} becomes {cell(d.value)}"

    def _replace_row(self, d: ast.ReplaceRow) -> str:
        return f"the row {self._row(d.row)} instead of the base game's"

    def _add_row(self, d: ast.AddRow) -> str:
        return f"a new row {self._row(d.row)}"

    def _remove_row(self, d: ast.RemoveRow) -> str:
        return f"no row {humanise(d.key)}"

    def _add_column(self, d: ast.AddColumn) -> str:
        return f"a new column {humanise(d.column.name)}, {cell(d.value)} in every row"

    def _value_change(self, d: ast.ValueChange) -> str:
        what = f"the {humanise(d.name)} of {humanise(d.row)}" if d.row else humanise(d.name)
        return f"{what}: {cell(d.new)} instead of {cell(d.old)}"

    def _module(self, m: ast.Module) -> str:
        header = next((d for d in m.decls if isinstance(d, ast.GameHeader)), None)
        return self._header(header) if header is not None else m.file


def players(low: int, high: int) -> str:
    if low == high:
        return f"{low} player{'' if low == 1 else 's'}"
    return f"{low} to {high} players"


def cell(value: ast.Cell) -> str:
    """A table cell as a reader writes it: yes/no, a dash for none, names in words."""
    if value is None:
        return "\u2013"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return humanise(value)
    return str(value)


def _strength(e: ast.Expr) -> int:
    if isinstance(e, ast.IfExpr):
        return 0  # `if C then A else B` binds loosest of all
    if isinstance(e, ast.Binary):
        return _PRECEDENCE[e.op]
    if isinstance(e, ast.Unary):
        return _PRECEDENCE["not" if e.op == "not" else "neg"]
    return _ATOM


def _simple(e: ast.Expr) -> bool:
    """Owners that read well with a possessive: `p's hand`, not `the first of r's terrain`."""
    return isinstance(e, ast.Name) or (
        isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and e.obj.id == "players"
    )


def _mention(label: str, name: str, words: list[str]) -> str:
    """A value with its arguments: "hit chance of p"; `cubes_at(c)` reads "cubes at c", and
    `is_empty(n)` reads "n is empty"."""
    if not words:
        return label
    parts = humanise(name).split(" ")
    if parts[0] in ("is", "has", "can"):  # `has(a, b)`: "a has b", not "has of a and b"
        return " ".join([words[0], label, *([join(words[1:])] if len(words) > 1 else [])])
    linked = "" if parts[-1] in _PREPOSITIONS else " of"
    return f"{label}{linked} {join(words)}"


def _mixes(op: str, side: ast.Expr) -> bool:
    """`and` under `or` (or the other way round)."""
    return isinstance(side, ast.Binary) and side.op in ("and", "or") and side.op != op


def _possessive(words: str) -> str:
    """`players'` but `s's` for a variable named s: a one-letter name is not a plural."""
    if words.endswith(VAR_CLOSE) or not plain(words).endswith("s"):
        return "'s"
    return "'"


def _bare(e: ast.Expr) -> str:
    """A name given as an argument (a kind of piece, an attribute): its identifier."""
    return e.id if isinstance(e, ast.Name) else str(getattr(e, "value", "?"))


def _is_num(e: ast.Expr, value: int) -> bool:
    return isinstance(e, ast.Num) and e.value == value


Handler = Callable[[English, Any], Any]

# Every node type of grammar/ast.py and the method that speaks it (tests/test_english.py checks
# that the table is complete).
HANDLERS: dict[type[ast.Node], Handler] = {
    ast.Num: English._num,
    ast.Text: English._text,
    ast.Bool: English._bool,
    ast.NoneLit: English._none,
    ast.Name: English._name,
    ast.Attr: English._attr,
    ast.Index: English._index,
    ast.Call: English._call,
    ast.Unary: English._unary,
    ast.Binary: English._binary,
    ast.IfExpr: English._if_expr,
    ast.ListLit: English._list,
    ast.Filter: English._filter,
    ast.MapComp: English._mapcomp,
    ast.Meta: English._meta,
    ast.Conflict: English._meta,
    ast.Called: English._meta,
    ast.CalledEach: English._meta,
    ast.Numbered: English._meta,
    ast.MoveRefs: English._move_refs,
    ast.MoveCount: English._move_count,
    ast.MoveAll: English._move_all,
    ast.SetStmt: English._set,
    ast.Swap: English._swap,
    ast.Reveal: English._reveal,
    ast.AddStmt: English._add,
    ast.Let: English._let,
    ast.Shuffle: English._shuffle,
    ast.Draw: English._draw,
    ast.EndGame: English._end,
    ast.Log: English._log,
    ast.Tally: English._tally,
    ast.CallStmt: English._call_stmt,
    ast.If: English._if,
    ast.Branch: English._say_branch,
    ast.ForEach: English._for_each,
    ast.Repeat: English._repeat,
    ast.While: English._while,
    ast.Choose: English._choose,
    ast.Ask: English._ask,
    ast.Outcome: English._say_outcome,
    ast.Random: English._random,
    ast.Pick: English._pick,
    ast.Turn: English._turn,
    ast.Offer: English._offer,
    ast.Named: English._named,
    ast.TypeRef: English._type,
    ast.Column: English._column,
    ast.Row: English._row,
    ast.Param: English._param,
    ast.GameHeader: English._header,
    ast.Constant: English._constant,
    ast.OptionDecl: English._option,
    ast.Table: English._table,
    ast.Counted: English._how_many,
    ast.PieceDecl: English._piece,
    ast.ComponentDecl: English._component,
    ast.ZoneDecl: English._zone,
    ast.CounterDecl: English._counter,
    ast.StyleDecl: English._style,
    ast.CarryDecl: English._carry,
    ast.SequenceDecl: English._sequence,
    ast.SequenceGame: English._sequence_game,
    ast.AutomatedDecl: English._automated,
    ast.TeamsDecl: English._teams,
    ast.Preference: English._preference,
    ast.VarDecl: English._var,
    ast.MapDecl: English._map,
    ast.RuleDecl: English._rule,
    ast.ValueDecl: English._value,
    ast.TriggerDecl: English._trigger,
    ast.SetupDecl: English._setup,
    ast.PlayDecl: English._play,
    ast.ScoreDecl: English._score,
    ast.Example: English._example,
    ast.Module: English._module,
    ast.Place: English._place,
    ast.Lift: English._lift,
    ast.Shift: English._shift,
    ast.MovementDecl: English._movement,
    ast.VariantHeader: English._variant_header,
    ast.ReplaceDecl: English._replace_decl,
    ast.ReplaceBlock: English._replace_block,
    ast.RemoveDecl: English._remove_decl,
    ast.InsertBlock: English._insert_block,
    ast.Reword: English._reword,
    ast.ExtendTable: English._extend_table,
    ast.ExtendSetup: English._extend_setup,
    ast.ChangeTable: English._change_table,
    ast.SetCell: English._set_cell,
    ast.ReplaceRow: English._replace_row,
    ast.AddRow: English._add_row,
    ast.RemoveRow: English._remove_row,
    ast.AddColumn: English._add_column,
    ast.ValueChange: English._value_change,
}
