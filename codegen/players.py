"""The rules in players' words: what the printed rulebook and the player aid say where the author
wrote no `says` for a rule.

The designer's English (codegen/english.py) says exactly what the engine does, in the file's own
terms: a rule's variables in italics, constants with their names, every log line. A player needs
none of that. This voice speaks the same nodes with the names players read (interpreter/names.py:
"Owner token", "Town Square"), a thing bound by the rules as "the player", "the zone" (or "the other
zone" beside a first one), numbers as their values, plurals where a count says so, and nothing
of what only the machine needs: no log lines, no types, no file lines. Only the methods whose
words differ are here; the rest are English's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from meeple.codegen.english import (
    _ATOM,
    English,
    Line,
    _is_num,
    _possessive,
    _simple,
    always,
    anchor,
    article,
    join,
    ordinal,
)
from meeple.codegen.markup import capitalise, ref
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.builtins import Builtin
from meeple.interpreter.names import Names, humanise, numbered, own_lines, plural
from meeple.interpreter.own_names import OWN_NAMES
from meeple.interpreter.types import (
    ANY,
    BOOL,
    INT,
    LOC,
    PLAYER,
    TEXT,
    Cell,
    Grid,
    ListOf,
    Piece,
    Row,
    Rows,
    Type,
    element,
)

_BUILTINS = {
    **{name: own.players for name, own in OWN_NAMES.items()},
    # what an example's `expect` reads of the game as a whole (interpreter/results.py)
    "scores": "the scores",
    "tiebreaks": "the tiebreaks",
    "winners": "the winners",
    "game_over": "the game is over",
    "ended_early": "the game ended early",
}
_TYPE_NOUNS: dict[Type, str] = {PLAYER: "player", INT: "number", TEXT: "word", BOOL: "answer", LOC: "place"}


class PlayersEnglish(English):
    """English for players: see the module's docstring."""

    def __init__(
        self,
        symbols: Symbols,
        constants: dict[str, Any] | None = None,
        anchors: dict[int, str] | None = None,
    ) -> None:
        super().__init__(symbols, constants, anchors)
        self.names = Names(symbols)
        self.scope: dict[str, str] = {}  # a bound name -> how it is said ("the zone")
        self.printed: set[str] | None = None  # the rules a call may link to (None: every rule)
        # the phases and steps (by id) printed among the rules, by their sections' anchors: the
        # flow names each and links to it
        self.sections: dict[int, str] = {}

    # ------------------------------------------------------------------ naming

    def noun(self, t: Type) -> str:
        """What a value of a type is called: a player, a zone (a row of the table `zone`)..."""
        assert self.sym is not None
        if isinstance(t, ListOf):
            return f"group of {plural(self.noun(t.item))}"
        if isinstance(t, Row):
            return self.names.decl(t.table).one
        if isinstance(t, Piece):
            return self.names.decl(t.kind).one if t.kind else "piece"
        if (isinstance(t, Cell) and t.grid) or (isinstance(t, Grid) and t.name):
            return "space"
        return _TYPE_NOUNS.get(t, "one")

    @contextmanager
    def binding(self, name: str, noun: str) -> Iterator[str]:
        """`name` is said as "the NOUN" while the block that binds it is spoken ("the other NOUN",
        "the third NOUN" when the scope already has one)."""
        taken = [said for said in self.scope.values() if said.endswith(f" {noun}")]
        said = (
            f"the {noun}"
            if not taken
            else f"the other {noun}"
            if len(taken) == 1
            else (f"the {ordinal(len(taken) + 1)} {noun}")
        )
        before = self.scope.get(name)
        self.scope[name] = said
        try:
            yield said
        finally:
            if before is None:
                self.scope.pop(name, None)
            else:
                self.scope[name] = before

    def element(self, seq: ast.Expr) -> str:
        t = self.typed(seq)
        if t == ANY and isinstance(seq, ast.Call) and self.sym is not None and seq.func in self.sym.values:
            t = self.typed(self.sym.values[seq.func].expr)  # a value's call: what the value gives
        return self.noun(element(t) if isinstance(t, ListOf) else t)

    def var(self, name: str) -> str:
        return self.scope.get(name, "it")

    def word(self, name: str) -> str:
        assert self.sym is not None
        if name in self.sym.zones or name in self.sym.maps:
            return f"the {self.names.decl(name).one}"  # a place the players share: the Reserve
        if name in self.declared:
            return self.names.decl(name).one
        if name in self.sym.row_keys:
            tables = self.sym.row_keys[name]
            place = any(m.nodes in tables for m in self.sym.maps.values())
            return f"the {self.names.key(name).one}" if place else self.names.key(name).one
        groups: list[Mapping[str, object]] = [*self.sym.owned_zones.values(), *self.sym.owned_vars.values()]
        for owned in groups:
            if name in owned:
                return self.names.decl(name).one
        return humanise(name)

    def kind(self, name: str, count: int | None = None) -> str:
        called = self.names.decl(name)
        return called.one if count == 1 else called.many

    def name(self, name: str) -> str:
        s = self.sym
        assert s is not None
        if name in _BUILTINS:
            return _BUILTINS[name]
        if name in self.scope:
            return self.scope[name]
        if name in s.constants:
            value = self.constants.get(name)
            if isinstance(value, bool):
                return "yes" if value else "no"
            if isinstance(value, int | str):
                return str(value)
            return self.names.decl(name).one
        if name in s.rules:
            called = self.names.decl(name).one
            return (
                called
                if self.printed is not None and name not in self.printed
                else ref(anchor("rule", name), called)
            )
        if name in s.values:
            return self.names.decl(name).one
        if name in self.declared or name in s.row_keys:
            return self.word(name)
        return self.var(name)

    # ------------------------------------------------------------------ expressions

    def _index(self, e: ast.Index) -> str:
        if isinstance(self.typed(e.obj), Rows):  # a variable per owner and row
            return f"{self.expr(e.obj, _ATOM)} for {self.expr(e.index, _ATOM)}"
        if isinstance(e.index, ast.Num):
            if isinstance(e.obj, ast.Name) and e.obj.id == "players":
                return f"the {ordinal(e.index.value + 1)} player"
            return f"the {ordinal(e.index.value + 1)} of {self.expr(e.obj, _ATOM)}"
        return f"one of {self.expr(e.obj, _ATOM)}"

    def _filter(self, e: ast.Filter) -> str:
        """ "every card of the hand where that card is not a Guard": the kept one is "that card"
        in its condition (not "the third card" of the names around it), and a filter over every
        player or a whole table names no group: "every card where ..."."""
        noun = self.element(e.seq)
        with self.binding(e.var, noun):
            self.scope[e.var] = f"that {noun}"
            where = "" if always(e.cond) else f" where {self.cond(e.cond)}"
            ranked = f", highest {join([self.expr(k) for k in e.keys])} first" if e.keys else ""
            group = "" if _plainly_all(e.seq, self.sym) else f" of {self.expr(e.seq)}"
            return f"every {noun}{group}{where}{ranked}"

    def _mapcomp(self, e: ast.MapComp) -> str:
        with self.binding(e.var, self.element(e.seq)) as said:
            return f"{self.expr(e.expr)} for each {said.removeprefix('the ')} of {self.source(e)}"

    def _call(self, e: ast.Call) -> str:
        bound = next((a for a in e.args if isinstance(a, ast.MapComp | ast.Filter)), None)
        if bound is None and e.args and self.sym is not None and e.func in self.sym.values:
            return self._value_call(e)
        if bound is None:
            return super()._call(e)
        with self.binding(bound.var, self.element(bound.seq)):
            return super()._call(e)

    def builtin(self, builtin: Builtin, e: ast.Call, words: list[str]) -> str | None:
        return builtin.players(self, e, words)

    def _value_call(self, e: ast.Call, many: bool = False) -> str:
        """A value the rules define, called, as players read it: a yes/no one named by a verb
        ("holds", "beats") is a sentence, "the player holds the card" (not "holds of the player
        and the card"); one that is a thing of one simple argument is "the player's targets",
        as an attribute reads "the player's hand" (not "the targets of the player"). `many`: the
        things a list names, as "one of" them says them ("one of the player's Targets", where the
        value is called "Target")."""
        words = [self.expr(a) for a in e.args]
        said = self._apply(e.func, words)
        if said.startswith(words[0]):  # already a sentence: "the card is empty"
            return said
        verb = humanise(e.func).split(" ")[0]
        assert self.sym is not None
        if BOOL in (self.typed(e), self.typed(self.sym.values[e.func].expr)):
            if verb.endswith("s") and not verb.endswith("ss"):
                return " ".join([words[0], self.name(e.func), *([join(words[1:])] if len(words) > 1 else [])])
            return said
        label = self.name(e.func)
        if len(e.args) == 1 and _simple(e.args[0]) and said == f"{label} of {words[0]}":
            return f"{words[0]}{_possessive(words[0])} {_many(label) if many else label}"
        return f"the {said}" if said[:1].islower() else said

    def among(self, name: str, seq: ast.Expr, cond: ast.Expr | None) -> str:
        """What a loop or a choice runs over, after "of": a whole table or every player is named
        by the noun alone, so only its condition is said ("a card where ..."), not "of card"."""
        if cond is None and isinstance(seq, ast.Filter) and seq.var == name:
            cond, seq = seq.cond, seq.seq
        if _plainly_all(seq, self.sym):
            return "" if cond is None else f"where {self.cond(cond)}"
        return super().among(name, seq, cond)

    def _of(self, name: str, seq: ast.Expr, cond: ast.Expr | None) -> str:
        """ " of the hand where ...", " where ..." for a whole table, or nothing."""
        source = self.among(name, seq, cond)
        whole = _plainly_all(seq, self.sym) or (
            cond is None
            and isinstance(seq, ast.Filter)
            and seq.var == name
            and _plainly_all(seq.seq, self.sym)
        )
        return f" {source}" if whole and source else "" if whole else f" of {source}"

    # ------------------------------------------------------------------ statements

    def block(self, stmts: Sequence[ast.Stmt], meta: bool = True) -> list[Line]:
        """The sentences of a block, where a `says` standing among its statements (as a variant's
        `insert` or `extend` brings one) stands for the statements after it, as a rule's `says`
        stands for its steps: they are not told again, up to the next phase or step, which keeps
        its name. `meta=False` leaves out the metadata lines a block opens with, which its
        declaration shows in its heading (the parser keeps them in both places)."""
        lines: list[Line] = []
        told, opening = False, True
        for s in stmts:
            if isinstance(s, ast.Meta):
                if meta or not opening:
                    told = told or s.kind == "says"
                    lines.extend(self.stmt(s))
                continue
            opening = False
            if told and not any(True for _ in s.find_all(ast.Named)):
                continue
            told = False
            lines.extend(self.stmt(s))
        return lines

    def _meta(self, s: ast.Meta) -> list[Line]:
        """Only the author's words for players stand among the steps; citations, assumptions and
        asides are for the designer (the rulebook gathers the rulings in an appendix)."""
        return [Line(s.value, kind="text")] if s.kind in ("says", "text") else []

    def _log(self, s: ast.Log) -> list[Line]:
        return []  # the game's record, not a rule

    def _tally(self, s: ast.Tally) -> list[Line]:
        return []  # the designer's statistics, not a rule

    def _move_count(self, s: ast.MoveCount) -> Line:
        count = s.count.value if isinstance(s.count, ast.Num) else None
        what = self.kind(s.kind, count)
        if s.which is not None:
            what = f"{what} ({self.expr(s.which)})"
        if s.owner is not None:
            what += f" of {self.expr(s.owner)}"
        src, dest = self.expr(s.src), self.expr(s.dest)
        if count == 1:
            return Line(f"Move {article(what)} {what} from {src} to {dest}.")
        return Line(f"Move {self.expr(s.count, _ATOM)} {what} from {src} to {dest}.")

    def _move_all(self, s: ast.MoveAll) -> Line:
        what = self.kind(s.kind)
        if s.owner is not None:
            what += f" of {self.expr(s.owner)}"
        return Line(f"Move all {what} from {self.expr(s.src)} to {self.expr(s.dest)}.")

    def _let(self, s: ast.Let) -> Line:
        word = humanise(s.name) if len(s.name) > 1 else "the result"
        with_value = self.cond(s.value) if self.typed(s.value) == BOOL else self.expr(s.value)
        self.scope[s.name] = f"the {word}" if len(s.name) > 1 else word
        return Line(capitalise(f"note {self.scope[s.name]}: {with_value}."))

    def _for_each(self, s: ast.ForEach) -> Line:
        with self.binding(s.var, self.element(s.seq)) as said:
            noun = said.removeprefix("the ")
            lead = f"For each {noun}{self._of(s.var, s.seq, s.cond)}"
            if s.chooser is not None:
                lead += f", in the order {self.expr(s.chooser)} chooses"
            kind = "decide" if s.chooser is not None else "loop"
            return Line(lead + ":", kind=kind, children=self.block(s.body))

    def _chosen(self, seq: ast.Expr) -> str:
        """What a choice's pick is called in the steps under it: its kind, or, for a thing of no
        known kind from a value called by what each of its things is ("Target"), that name: "the
        Target", not "the one" ("Move a chip from the one to ...")."""
        noun = self.element(seq)
        valued = isinstance(seq, ast.Call) and self.sym is not None and seq.func in self.sym.values
        if noun == "one" and valued:
            assert isinstance(seq, ast.Call)
            label = self.name(seq.func)
            return noun if _many(label) == label else label
        return noun

    def _choose(self, s: ast.Choose) -> list[Line]:
        who = self.chooser(s.chooser)
        verb = "may choose" if s.optional else "chooses"
        with self.binding(s.var, self._chosen(s.seq)) as said:
            noun = said.removeprefix("the ")
            if isinstance(s.seq, ast.ListLit) and len(s.seq.items) > 1:
                options = [self.expr(i) for i in s.seq.items]
                text = f"{who} {verb} one of {', '.join(options[:-1])} or {options[-1]}"
            elif (
                isinstance(s.seq, ast.Call)
                and s.seq.args
                and self.sym is not None
                and s.seq.func in self.sym.values
            ):
                # the value names the things themselves: "one of the player's targets", not
                # "another player of the player's targets"
                some = "another" if noun.startswith("other ") else "one"
                where = "" if s.cond is None else f" where {self.cond(s.cond)}"
                text = f"{who} {verb} {some} of {self._value_call(s.seq, many=True)}{where}"
            else:
                text = f"{who} {verb} {_some(said)}{self._of(s.var, s.seq, s.cond)}"
            lines = [Line(capitalise(text) + ":", kind="decide", children=self.block(s.body))]
        if s.orelse:
            nothing = "nothing" if noun == "one" else f"no {noun}"
            lead = f"If {who} does not:" if s.optional else f"If there is {nothing} to choose:"
            lines.append(Line(capitalise(lead), children=self.block(s.orelse)))
        return lines

    def _pick(self, s: ast.Pick) -> list[Line]:
        with self.binding(s.var, self.element(s.seq)) as said:
            text = (
                f"Pick {_some(said)} at random{self._of(s.var, s.seq, s.cond).replace(' of ', ' from ', 1)}"
            )
            lines = [Line(text + ":", kind="chance", children=self.block(s.body))]
        if s.orelse:
            lines.append(Line("If there is none:", children=self.block(s.orelse)))
        return lines

    def _repeat(self, s: ast.Repeat) -> Line:
        count = self.expr(s.count)
        if _is_num(s.count, 1):
            text = "Once:"
        elif count.isdigit():
            text = f"{count} times:"
        else:
            text = f"As many times as {count}:"
        return Line(text, kind="loop", children=self.block(s.body))

    def _turn(self, s: ast.Turn) -> Line:
        who = self.expr(s.player, _ATOM)
        return Line(capitalise(f"on {who}'s turn:"), kind="flow", children=self.block(s.body))

    def _named(self, s: ast.Named) -> Line:
        """A phase or step by its players' name, after the number the rulebook gives it (where
        the file says one); its `says`, where it has one, stands for its statements, but for a
        phase or step printed among the rules (`sections`), which a rulebook's outline names with a
        link there (`see`)."""
        title = capitalise(self.names.block(s).one)
        number = numbered(s)
        title = title if number is None else f"{number}. {title}"
        module = self.sym.module if self.sym is not None else None
        lines = own_lines(s, module)
        says = [Line(m.value, kind="text") for m in lines if m.kind == "says"]
        children = says or self.block(s.body)
        see = ref(self.sections[id(s)], title) + "." if id(s) in self.sections else ""
        brief = " ".join(m.value for m in lines if m.kind == "brief") or None
        return Line(
            f"{title}:", kind=s.kind, children=children, anchor=self.anchors.get(id(s)), see=see, brief=brief
        )

    def score(self, d: ast.ScoreDecl) -> str:
        with self.binding(d.var, "player"):
            return super().score(d)

    def rule_lines(self, decl: ast.RuleDecl | ast.TriggerDecl) -> list[Line]:
        """A rule's steps, its parameters said as "the player", "the zone"."""
        assert self.sym is not None
        bound: list[tuple[str, str]] = []
        if isinstance(decl, ast.RuleDecl):
            bound = [(p.name, self.noun(_param_type(p, self.sym))) for p in decl.params]
        else:
            bound = [(decl.piece_var, self.names.decl(decl.kind).one), (decl.loc_var, "place")]
        with _bound(self, bound):
            return self.block(decl.body, meta=False)

    def definition(self, decl: ast.ValueDecl) -> str:
        """A value as a definition, its parameters said as "the number", "the player"."""
        assert self.sym is not None
        with _bound(self, [(p.name, self.noun(_param_type(p, self.sym))) for p in decl.params]):
            return self.say(decl)


def _some(said: str) -> str:
    """One of a kind, as a choice or a draw names it, from how the chosen one is then said:
    "the card" is chosen as "a card", "the other card" as "another card", "the third card" as
    "a third card", and a thing of no known kind ("the one") as "one"."""
    noun = said.removeprefix("the ")
    if noun == "one":
        return "one"
    if noun.startswith("other "):
        return "an" + noun
    return f"{article(noun)} {noun}"


def _many(label: str) -> str:
    """A list's name as "one of" says it: a value named for its things ("targets") as it is, one
    called by what each of them is ("Target") in the plural."""
    last = label.rsplit(" ", 1)[-1]
    return label if last.endswith("s") and not last.endswith("ss") else plural(label)


def _param_type(p: ast.Param, symbols: Symbols) -> Type:
    from meeple.interpreter.analysis import type_of_ref

    return type_of_ref(p.type, symbols)


@contextmanager
def _bound(speaker: PlayersEnglish, names: list[tuple[str, str]]) -> Iterator[None]:
    if not names:
        yield
        return
    (name, noun), *rest = names
    with speaker.binding(name, noun), _bound(speaker, rest):
        yield


def _plainly_all(seq: ast.Expr, symbols: Symbols | None) -> bool:
    """A loop over every player, or over a whole table, needs no "of ...": "For each letter"."""
    if not isinstance(seq, ast.Name):
        return False
    return seq.id == "players" or (symbols is not None and seq.id in symbols.tables)
