"""What a rulebook says, gathered from the AST: the data the templates print.

The templates only lay things out; everything they show is decided here, once for every format,
so that the Markdown, HTML and PDF of a game say the same things. Each declaration of the module
becomes an entry of its section; nothing is chosen by name, so a new game needs no change here.
A declaration of a kind this module does not know yet is still printed (under "Other
declarations", in generated words), so that the reference never silently leaves a part out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.codegen import flow
from meeple.codegen.english import (
    ZONE_FLAGS,
    English,
    Line,
    anchor,
    cell,
    humanise,
    known_number,
    meta_words,
    players,
    quote,
    slug,
)
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols


@dataclass
class Notes:
    """The metadata lines of one declaration, by kind."""

    text: list[str] = field(default_factory=list)
    says: list[str] = field(default_factory=list)  # the rule in players' words (its steps, in the rulebook)
    cites: list[str] = field(default_factory=list)
    assume: list[str] = field(default_factory=list)
    conflict: list[str] = field(default_factory=list)
    aside: list[str] = field(default_factory=list)
    holds: list[str] = field(default_factory=list)  # a variant's: why the base game's words still hold
    brief: list[str] = field(default_factory=list)  # the rule as the player aid prints it

    @classmethod
    def of(cls, metas: Sequence[ast.Meta]) -> Notes:
        notes = cls()
        for m in metas:
            if m.kind in ("called", "called_each"):
                continue  # a name, not a note: interpreter/names.py and the compiler read it
            if m.kind == "says":  # the author's words, as `text` is, in the designer's reference
                notes.text.append(m.value)
            getattr(notes, m.kind).append(meta_words(m))
        return notes


@dataclass
class Entry:
    """One documented declaration: a rule, a trigger, a value, the setup, a score line."""

    anchor: str
    title: str
    heading: str  # marked text: what it applies to ("for p (a player) and z (a zone)"), or nothing
    notes: Notes
    lines: list[Line]
    source: str
    line: int
    changed: bool = False  # in a variant: declared by the variant, not by its base game

    @property
    def generated(self) -> bool:
        """No words from the author: the generated sentences are all a reader gets."""
        return not self.notes.text


@dataclass
class Item:
    """A component, a number, a variable: a name, what it is, and its notes."""

    anchor: str
    name: str
    words: str  # marked text
    notes: Notes
    extra: str = ""
    changed: bool = False


@dataclass
class TableDoc:
    anchor: str
    title: str
    columns: list[tuple[str, str]]  # name, and the kind of its cells in a word or two
    rows: list[list[str]]
    notes: Notes
    changed: bool = False


@dataclass
class ExampleDoc:
    anchor: str
    title: str
    notes: Notes
    players: int
    seed: int
    given: list[Line]
    do: list[Line]
    choices: list[str]
    outcomes: list[str]
    expect: list[str]
    changed: bool = False


@dataclass
class Note:
    """An assumption, conflict or aside, and where in the rules it stands (for the appendix)."""

    kind: str
    text: str
    where: str
    anchor: str


@dataclass
class Reference:
    """The full rule reference of one game."""

    stem: str
    file: str
    base: str | None  # a variant: the file of the game it changes
    title: str
    players: str
    rulebook: str | None
    notes: Notes
    pieces: list[Item]
    components: list[Item]  # laid out by the players (`component`): never played
    zones: list[Item]
    maps: list[Item]
    variables: list[Item]
    counters: list[Item]  # counted for statistics (`counter`): never read by the rules
    styles: list[Item]  # ways to play for simulated players (`style`)
    movements: list[Item]
    constants: list[Item]
    setup: Entry | None
    flow_svg: str
    flow_lines: list[Line]
    rules: list[Entry]
    triggers: list[Entry]
    values: list[Entry]
    score: Entry | None
    tiebreak: Entry | None
    tables: list[TableDoc]
    examples: list[ExampleDoc]
    others: list[Item]
    appendix: list[Note]
    flow_boxes: list[flow.Box]


# ---------------------------------------------------------------------- source lines


def source_of(module: ast.Module, node: ast.Node) -> str:
    """The lines of the file a declaration was written on, without the comments and blank lines
    that follow it (a declaration's span runs up to the next one). In a variant applied to its
    base game, a declaration may come from either file."""
    lines = module.sources.get(node.span.file, module.source).split("\n")
    start = max(node.span.line, 1) - 1
    end = max(node.span.end_line, node.span.line)
    own = [lines[start]] if start < len(lines) else []
    for text in lines[start + 1 : end]:
        if text[:1] not in ("", " ", "\t", "#"):
            break  # the next top-level declaration
        own.append(text)
    while own and (not own[-1].strip() or own[-1].lstrip().startswith("#")):
        own.pop()
    return "\n".join(own)


Made = Item | Entry | TableDoc | ExampleDoc  # what the reference shows of one declaration


class _Builder:
    def __init__(self, module: ast.Module, symbols: Symbols, constants: dict[str, Any]) -> None:
        self.module = module
        self.sym = symbols
        self.constants = constants
        self.used: set[str] = set()
        self.named: dict[int, str] = {}  # every phase and step, wherever it stands: its anchor
        for node in module.walk():
            if isinstance(node, ast.Named):
                self.named[id(node)] = self.unique(anchor(node.kind, node.name))
        self.en = English(symbols, constants, self.named)

    def unique(self, wanted: str) -> str:
        out, n = wanted, 2
        while out in self.used:
            out, n = f"{wanted}-{n}", n + 1
        self.used.add(out)
        return out

    def anchor_of(self, node: ast.Node) -> str | None:
        if isinstance(node, ast.Named):
            return self.named.get(id(node))
        if isinstance(node, ast.CallStmt) and node.name in self.sym.rules:
            return anchor("rule", node.name)
        return None

    def source(self, node: ast.Node) -> str:
        return source_of(self.module, node)

    def entry(
        self, kind: str, name: str, title: str, heading: str, decl: ast.Decl, lines: list[Line]
    ) -> Entry:
        return Entry(
            self.unique(anchor(kind, name)),
            title,
            heading,
            Notes.of(decl.meta),
            lines,
            self.source(decl),
            decl.span.line,
        )

    # ------------------------------------------------------------------ sections

    def piece(self, d: ast.Counted, low: int, high: int) -> Item:
        extra = ""
        count = known_number(d.count, self.constants)
        table = d.each_row_of or d.per_row_of
        rows = len(self.sym.tables[table].rows) if table in self.sym.tables else None
        if d.each_row_of and rows is not None:
            extra = f"{rows} in all"
        elif table and rows is not None and count is not None:
            extra = f"{rows * count} in all"
        elif d.per_player and count is not None:
            extra = f"{count * low} in all" if low == high else f"{count * low} to {count * high} in all"
        elif count is not None:
            extra = f"{count} in all"
        kind = "piece" if isinstance(d, ast.PieceDecl) else "component"
        return Item(
            self.unique(anchor(kind, d.name)), humanise(d.name), self.en.say(d), Notes.of(d.meta), extra
        )

    def zone(self, d: ast.ZoneDecl) -> Item:
        whose = f"one for each {humanise(d.per)}" if d.per else "shared"
        sees = "; ".join(ZONE_FLAGS.get(f, f) for f in d.flags) or ZONE_FLAGS["public"]
        return Item(self.unique(anchor("zone", d.name)), humanise(d.name), whose, Notes.of(d.meta), sees)

    def constant(self, d: ast.Constant) -> Item:
        value = self.constants.get(d.name)
        shown = cell(value) if isinstance(value, int | str | bool) or value is None else self.en.expr(d.value)
        words = "" if isinstance(d.value, ast.Num | ast.Bool | ast.Text) else self.en.expr(d.value)
        return Item(self.unique(anchor("number", d.name)), humanise(d.name), words, Notes.of(d.meta), shown)

    def table(self, d: ast.Table) -> TableDoc:
        columns = [(humanise(c.name), _column_type(c.type)) for c in d.columns]
        rows = [[cell(c) for c in row.cells] for row in d.rows]
        return TableDoc(
            self.unique(anchor("table", d.name)), humanise(d.name), columns, rows, Notes.of(d.meta)
        )

    def example(self, d: ast.Example, low: int) -> ExampleDoc:
        return ExampleDoc(
            self.unique(anchor("example", d.name)),
            d.name,
            Notes.of(d.meta),
            d.players or low,
            d.seed,
            self.en.block(d.given),
            self.en.block(d.do),
            [_script(c) for c in d.choices],
            [_script(c) for c in d.outcomes],
            [self.en.cond(e) for e in d.expect],
        )

    def appendix(self, entries: dict[int, tuple[str, str]]) -> list[Note]:
        """Every assumption, conflict and aside of the file, with the section it belongs to."""
        notes: list[Note] = []
        seen: set[tuple[str, int, int, str]] = set()
        for m in self.module.meta:
            if m.kind in ("assume", "conflict", "aside"):
                notes.append(Note(m.kind, meta_words(m), "the whole game", "top"))
        for decl in self.module.decls:
            where, link = entries.get(id(decl), ("the rules", "top"))
            for node in decl.walk():
                if isinstance(node, ast.Meta) and node.kind in ("assume", "conflict", "aside"):
                    key = (node.span.file, node.span.line, node.span.column, node.value)
                    if key not in seen:
                        seen.add(key)
                        notes.append(Note(node.kind, meta_words(node), where, link))
        order = {"conflict": 0, "assume": 1, "aside": 2}
        return sorted(notes, key=lambda n: order[n.kind])

    def base(self) -> str | None:
        """For a variant applied to its base game: the base game's file (most declarations come
        from it). None for a game of one file."""
        files = [d.span.file for d in self.module.decls if d.span.file != self.module.file]
        return Path(max(set(files), key=files.count)).name if files else None

    def makers(self, low: int, high: int) -> dict[type[ast.Decl], Callable[[Any], tuple[str, Made]]]:
        """How each kind of declaration is shown, and the section of the reference it is in (any
        other kind: `other`)."""
        en = self.en
        return {
            ast.PieceDecl: lambda d: ("pieces", self.piece(d, low, high)),
            ast.ComponentDecl: lambda d: ("components", self.piece(d, low, high)),
            ast.ZoneDecl: lambda d: ("zones", self.zone(d)),
            ast.MapDecl: lambda d: ("maps", self.item("map", d, en.map_words(d))),
            ast.VarDecl: lambda d: ("variables", self.item("var", d, en.var_words(d))),
            ast.CounterDecl: lambda d: ("counters", self.item("counter", d, en.say(d))),
            ast.StyleDecl: lambda d: ("styles", self.item("style", d, en.say(d))),
            ast.Constant: lambda d: ("constants", self.constant(d)),
            ast.Table: lambda d: ("tables", self.table(d)),
            ast.RuleDecl: lambda d: ("rules", self.rule(d)),
            ast.ValueDecl: lambda d: ("values", self.value(d)),
            ast.TriggerDecl: lambda d: ("triggers", self.trigger(d)),
            ast.SetupDecl: lambda d: (
                "setup",
                self.entry("setup", "rules", "How to set up", "", d, en.block(d.body, meta=False)),
            ),
            ast.ScoreDecl: lambda d: (d.kind, self.score(d)),
            ast.Example: lambda d: ("examples", self.example(d, low)),
        }

    def item(self, kind: str, d: ast.Decl, words: str) -> Item:
        """A declaration shown by its name and its words (a map, a variable, a counter, a style)."""
        name = str(getattr(d, "name", ""))
        return Item(self.unique(anchor(kind, name)), humanise(name), words, Notes.of(d.meta))

    def rule(self, d: ast.RuleDecl) -> Entry:
        heading = f"for {self.en.params(d.params)}" if d.params else ""
        return self.entry("rule", d.name, humanise(d.name), heading, d, self.en.block(d.body, meta=False))

    def value(self, d: ast.ValueDecl) -> Entry:
        heading = f"of {self.en.params(d.params)}" if d.params else ""
        return self.entry("value", d.name, humanise(d.name), heading, d, [Line(self.en.say(d) + ".")])

    def trigger(self, d: ast.TriggerDecl) -> Entry:
        title = f"When {humanise(d.kind)} enters"
        return self.entry("when", d.kind, title, self.en.trigger(d), d, self.en.block(d.body, meta=False))

    def score(self, d: ast.ScoreDecl) -> Entry:
        title = "Score" if d.kind == "score" else "Tiebreak"
        return self.entry(d.kind, "line", title, "", d, [Line(self.en.score(d) + ".")])

    def other(self, d: ast.Decl) -> tuple[str, Item]:
        """Any other declaration (a movement, an option...): its name and what English says of it."""
        name = str(getattr(d, "name", type(d).__name__))
        item = Item(self.unique(anchor("decl", name)), humanise(name), self.en.say(d), Notes.of(d.meta))
        return ("movements" if isinstance(d, ast.MovementDecl) else "others"), item

    def build(self, path: Path) -> Reference:
        sym, en = self.sym, self.en
        header = sym.header or ast.GameHeader(name=path.stem)
        low, high = header.min_players, header.max_players
        where: dict[int, tuple[str, str]] = {}  # id(decl) -> (its title, its anchor), for the appendix
        base = self.base()
        sections: dict[str, list[Any]] = defaultdict(list)  # each section's items, in file order
        play_anchor = self.unique("flow")
        makers = self.makers(low, high)
        for d in self.module.decls:
            if isinstance(d, ast.GameHeader):
                where[id(d)] = ("the game", "top")
                continue
            if isinstance(d, ast.PlayDecl):
                where[id(d)] = ("the flow of play", play_anchor)
                continue
            make = next((makers[c] for c in type(d).__mro__ if c in makers), self.other)  # an option too
            section, item = make(d)
            sections[section].append(item)
            where[id(d)] = (_title_of(item), item.anchor)
            item.changed = base is not None and d.span.file == self.module.file
        pieces, zones, maps, variables = (sections[s] for s in ("pieces", "zones", "maps", "variables"))
        components = sections["components"]
        movements, constants, others = sections["movements"], sections["constants"], sections["others"]
        counters, styles = sections["counters"], sections["styles"]
        rules, triggers, values = sections["rules"], sections["triggers"], sections["values"]
        tables, examples = sections["tables"], sections["examples"]
        setup, score, tiebreak = (
            sections[s][-1] if sections[s] else None for s in ("setup", "score", "tiebreak")
        )
        boxes = flow.flow_tree(sym.play.body, en, self.anchor_of) if sym.play else []
        return Reference(
            stem=path.stem,
            file=path.name,
            base=base,
            title=header.name,
            players=players(low, high),
            rulebook=header.rulebook,
            notes=Notes.of([*header.meta, *self.module.meta]),
            pieces=pieces,
            components=components,
            zones=zones,
            maps=maps,
            variables=variables,
            counters=counters,
            styles=styles,
            movements=movements,
            constants=constants,
            setup=setup,
            flow_svg=flow.render_svg(boxes, prefix=f"flow-{slug(path.stem)}"),
            flow_lines=en.block(sym.play.body) if sym.play else [],
            rules=rules,
            triggers=triggers,
            values=values,
            score=score,
            tiebreak=tiebreak,
            tables=tables,
            examples=examples,
            others=others,
            appendix=self.appendix(where),
            flow_boxes=boxes,
        )


def _title_of(item: Made) -> str:
    if isinstance(item, Item):
        return item.name
    return item.title


def _column_type(t: ast.TypeRef | None) -> str:
    if t is None:
        return ""
    words = {"int": "number", "bool": "yes/no", "text": "text"}.get(t.name, humanise(t.name))
    return f"{words} or \u2013" if t.optional else words


def _script(item: int | str) -> str:
    return f"option {item}" if isinstance(item, int) else quote(item)


def reference(path: Path, module: ast.Module, symbols: Symbols, constants: dict[str, Any]) -> Reference:
    """The full reference of a checked module. `constants` are the compiled constants' values."""
    return _Builder(module, symbols, constants).build(path)
