"""The rulebook a publisher would print: the game in players' words, gathered from the AST.

The designer's reference (codegen/model.py) shows everything the file says, in the file's terms,
for the author checking the file. This is the other document: what a player reads to learn the
game. It follows a rulebook's order (overview, components, setup, how a round goes, each action,
what happens when, scoring and the end, worked examples, rulings) and speaks only players' words:
the author's `says` where a rule has one (it stands for the rule's steps), else the author's
`text` followed by the steps in players' English (codegen/players.py), with the names players
read (interpreter/names.py). What only the machine needs (values, variables, tuning numbers that
an `assume` invents, tables nobody describes, log lines, source lines, citations) is left to the
designer's reference. Nothing here is chosen by a game's name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.codegen.english import Line, anchor, join, known_number, players
from meeple.codegen.pictures import COLOUR_COLUMN, Picture, Position, is_colour_code, pictures
from meeple.codegen.players import PlayersEnglish
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols, is_keyed
from meeple.interpreter.checks.briefs import sentences
from meeple.interpreter.names import CALLED_COLUMN, Names, called, humanise, numbered, own_lines, with_article
from meeple.interpreter.own_names import SELF
from meeple.interpreter.values import first_upper
from meeple.interpreter.variants import DECL_KINDS, names_used


@dataclass
class Part:
    """A rule, a step of the flow, a trigger, the setup, the scoring: its words and its steps."""

    anchor: str
    title: str
    words: list[str]  # the author's: `says` (standing for the steps) or `text`
    steps: list[Line]  # in players' English; none when `says` stands for them
    changed: bool = False  # in a variant: what the variant changes
    of_flow: bool = False  # a phase or step the rulebook prints among its rules (the flow names it)
    brief: list[str] = field(default_factory=list)  # the author's `brief`: the rule as the aid prints it


@dataclass
class Component:
    name: str
    count: str  # "20 for each player", "9"
    words: list[str]


# A table is split into parts, each with the rows' names, where its words do not fit a line of the
# page, in letters, with room to spare: a table of more than SMALL_ABOVE columns prints in 9.5 pt
# type (about 110 letters on the 170 mm line, fewer of the headings' bold ones), a narrower one in
# the body's (about 95).
WIDEST = 95
WIDEST_BODY = 85
SMALL_ABOVE = 5
GAP = 2  # letters of room between two columns (a cell's inset on either side)
# A table of this many rows or more, of narrow columns, prints in two halves side by side: a
# shorter one (a fifth of a page) goes whole to the next page, or splits, at little cost.
FOLD_ROWS = 16
# What the line holds as the column widths share it out (render.column_widths): nearer the truth,
# so that the room left goes to the columns that want it, and yet no more than the line holds,
# or a column would get less than its longest word.
LINE = 108
LINE_BODY = 94


def least_letters(column: Sequence[str]) -> int:
    """How many letters wide a column (its heading first) must be: its longest word, a word of
    the heading two letters more, since it prints in bold."""
    heading = [len(word) + 2 for word in column[0].split()]
    return max([3, *heading, *(len(word) for cell in column[1:] for word in cell.split())])


def line_letters(columns: int, shared: bool = False) -> int:
    """How many letters of a table of this many columns a line of the page holds: to decide
    whether it fits, with room to spare; `shared`, to share the line out among its columns."""
    if shared:
        return LINE if columns > SMALL_ABOVE else LINE_BODY
    return WIDEST if columns > SMALL_ABOVE else WIDEST_BODY


@dataclass
class Sheet:
    """A table players look things up in: its rows named as players name them, and the columns
    the author gave a heading (a column without one is the machine's: a flag, a measure)."""

    title: str
    words: list[str]
    columns: list[str]
    rows: list[list[str]]

    def parts(self) -> list[tuple[list[str], list[list[str]]]]:
        """The table as printed: whole, or, where its words do not fit the page's width
        (`fits`), in parts that each repeat the rows' names (its first column, or as few first
        columns as tell its rows apart: a "Board 1" of several rows is named by its board and
        its space), so that no heading is squeezed over another and a row of one part is found
        in the other; a table that fits is not cut (a table of eight short columns printed in
        two parts, on two pages, and a reader turned a page to read one row). A table left with
        no column but the rows' names prints none: its words say what it holds."""
        if len(self.columns) < 2:
            return []
        keys = self._keys()
        rest = len(self.columns) - keys
        count = next(  # as few parts as it takes, as even as they can be
            (n for n in range(1, rest) if all(self.fits([*range(keys), *c]) for c in _shares(keys, rest, n))),
            rest,  # a column a part at the most
        )
        out = []
        for chosen in _shares(keys, rest, count):
            chosen = [*range(keys), *chosen]
            out.append(([self.columns[i] for i in chosen], [[row[i] for i in chosen] for row in self.rows]))
        return out

    def folded(self, columns: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
        """A part as the printed page sets it: a long table of few narrow columns (a track's
        points, space by space) in two halves side by side, its first rows on the left, where both
        fit a line; whole otherwise. Nineteen two-column rows took a page and a half, and left
        five alone on the last page."""
        cells = [[column, *(row[i] for row in rows)] for i, column in enumerate(columns)]
        width = 2 * sum(max(len(cell) for cell in column) + GAP for column in cells)
        if len(rows) < FOLD_ROWS or width > line_letters(2 * len(columns)):
            return columns, rows
        half = -(-len(rows) // 2)
        right = [*rows[half:], [""] * len(columns)]
        return columns * 2, [[*row, *right[i]] for i, row in enumerate(rows[:half])]

    def fits(self, chosen: list[int]) -> bool:
        """Whether these columns fit a line of the page: the first (the rows' names, which are not
        broken) as wide as its longest name, each other as wide as its longest word, with a gap
        between them (a heading breaks between its words, a word never breaks)."""
        cells = [[self.columns[i], *(row[i] for row in self.rows)] for i in chosen]
        first = max(len(cell) for cell in cells[0])
        others = sum(least_letters(column) for column in cells[1:])
        return first + others + GAP * len(chosen) <= line_letters(len(chosen))

    def _keys(self) -> int:
        """How many first columns name the rows in each part of a table printed in parts: the
        fewest that tell every row apart, at most three; the first alone where none do."""
        if self.fits(list(range(len(self.columns)))):
            return 1
        for keys in range(1, min(4, len(self.columns))):  # a column at least is left to print
            if len({tuple(row[:keys]) for row in self.rows}) == len(self.rows):
                return keys
        return 1


def _shares(keys: int, rest: int, count: int) -> list[list[int]]:
    """The columns after the `keys` first cut into `count` runs in their order, as even as they
    can be (the last may be shorter)."""
    size = -(-rest // count)
    return [list(range(at, min(at + size, keys + rest))) for at in range(keys, keys + rest, size)]


@dataclass
class Example:
    """A worked example the rulebook prints: its `says` tells the position, the moves and the
    result in players' words (the example's own statements are the designer's test). How many
    players it is played with is not printed: its words say so where that matters (a tag "2
    players" on every example told a reader nothing; the designer's reference keeps it)."""

    title: str
    words: list[str]
    pictures: list[Picture] = field(default_factory=list)  # the position before and after


@dataclass
class Option:
    """A choice made before the game: its name, what it may be (the default first), its words."""

    name: str
    choices: list[str]
    words: list[str]


@dataclass
class Ruling:
    """How the game settles a point of its rules. A `conflict` is a point the rules could be read
    two ways (`point`, its question) and the way this game plays it (`words`); an `assumption`, a
    question the rules leave open, and this game's answer (`words`, which ask it too). The rulebook
    prints them under two headings: a reader told only the answer did not know that the rules
    themselves seem to say two things there."""

    kind: str  # "assumption" or "conflict"
    words: str
    point: str = ""  # a conflict's question ("How many cards a player keeps"); "" for an assumption


@dataclass
class Series:
    """A sequence of games (`sequence NAME:`), as players read it: its name, its words, and each
    game with the options it is played with."""

    title: str
    words: list[str]
    games: list[str]


@dataclass
class Rulebook:
    stem: str
    title: str
    players: str
    base: str | None  # a variant: the game, not itself a variant, that it changes
    overview: list[str]
    components: list[Component]
    numbers: list[tuple[str, str, list[str]]]  # (name, value, words)
    sheets: list[Sheet]
    setup: Part | None
    flow_words: list[str]  # the author's words for the whole flow (play's `says` or `text`)
    flow: list[Line]
    rules: list[Part]
    whenever: list[Part]
    scoring: list[Part]
    examples: list[Example]
    rulings: list[Ruling]
    changes: list[Part] = field(default_factory=list)  # a variant's, in the order of its file
    left_out: str = ""  # a variant's one sentence on what of its base game it plays without
    ends: list[str] = field(default_factory=list)  # the author's sentences on when the game ends
    options: list[Option] = field(default_factory=list)  # what the players choose before the game
    # carried state: what one game keeps for the next (`carry`), and the sequence the game is played as
    kept: list[tuple[str, list[str]]] = field(default_factory=list)  # (what, the author's words)
    sequence: Series | None = None
    terms: list[tuple[str, list[str]]] = field(default_factory=list)  # the words the rules use, defined
    # a variant of a variant: the sentence that says its changes take in those of the variants
    # between it and its base game, whose books its reader need not hold
    includes: str = ""
    # a variant's game: the values, movements and tables it defines otherwise than its base game
    definitions: list[Part] = field(default_factory=list)


def words_of(metas: list[ast.Meta]) -> tuple[list[str], bool]:
    """The author's words for players among some metadata, and whether they stand for the steps
    (a `says`)."""
    says = [m.value for m in metas if m.kind == "says"]
    if says:
        return says, True
    return [m.value for m in metas if m.kind == "text"], False


def briefs(metas: list[ast.Meta]) -> list[str]:
    """The author's `brief` lines: the rule as the player aid prints it, in place of its `says`."""
    return [m.value for m in metas if m.kind == "brief"]


class _Builder:
    def __init__(
        self,
        module: ast.Module,
        symbols: Symbols,
        constants: dict[str, Any],
        full: bool,
        positions: dict[str, Position] | None = None,
    ) -> None:
        self.module, self.sym, self.constants = module, symbols, constants
        self.positions = positions or {}
        self.names = Names(symbols)
        self.en = PlayersEnglish(symbols, constants)
        # A variant's rulebook prints its changes from the game it is finally a variant of, its
        # own and those of every variant between (a player of a variant of a variant holds the
        # game's book and this one, not a third); `full`, the game it makes, as a game of its own.
        variant = self._files() > 1 and not full
        self.variant_files = {file for _, file in module.lineage} if variant else set()

    def _files(self) -> int:
        return len({d.span.file for d in self.module.decls})

    def changed(self, node: ast.Node) -> bool:
        """Whether a variant's rulebook tells this node among its changes: one of the variant's
        own or of a variant between it and its base game (the last to replace a declaration is
        the one a node comes from, so nothing is told twice), but for a phase, step or score line
        it replaced with the base game's statements in new words (the solo book printed three
        phases that play as in the base game, told for one player): the reader holds the base
        game's. What the variant inserts in such a block is a change, told as added to the block
        where it goes, so that the reader knows where that is."""
        own = node.span.file in self.variant_files
        return own and node.span not in self.module.worded_anew

    # ------------------------------------------------------------------ parts

    def part(self, kind: str, name: str, title: str, decl: ast.Decl, steps: list[Line]) -> Part:
        words, stands = words_of(decl.meta)
        steps = [] if stands else steps
        return Part(anchor(kind, name), title, words, steps, self.changed(decl), brief=briefs(decl.meta))

    def rule(self, d: ast.RuleDecl) -> Part:
        return self.part("rule", d.name, self.names.decl(d.name).one, d, self.en.rule_lines(d))

    def trigger(self, d: ast.TriggerDecl) -> Part:
        """What happens whenever a piece arrives: titled by its `called` line, or so in words."""
        own = called(d.meta)
        kind = self.names.decl(d.kind).one
        title = own.value if own else f"Whenever {with_article(kind)} arrives somewhere"
        return self.part("when", d.kind, title, d, self.en.rule_lines(d))

    def scoring(self) -> list[Part]:
        """The score and the tie-break, each in its author's `says` or else in generated words: a
        score with no words printed a "Scoring" heading with nothing under it."""
        out = []
        for d, title in ((self.sym.score, "Scoring"), (self.sym.tiebreak, "Ties")):
            if d is None:
                continue
            out.append(self.part(d.kind, "line", title, d, [Line(first_upper(self.en.score(d)) + ".")]))
        return out

    # ------------------------------------------------------------------ what players handle

    def components(self) -> list[Component]:
        """What players unpack, in the file's order: each piece and each component, with its
        count and its words, then each board given by its size."""
        out = []
        known = self.sym.pieces.keys() | self.sym.components.keys()
        for piece in [d for d in self.module.decls if isinstance(d, ast.Counted) and d.name in known]:
            name = self.names.decl(piece.name)
            count = known_number(piece.count, self.constants)
            table = piece.each_row_of or piece.per_row_of
            rows = len(self.sym.tables[table].rows) if table in self.sym.tables else None
            # A table of the piece's own kinds ("bonus card" rows for bonus cards) is not named
            # again: "23", "20: 4 of each of 5 kinds", not "23, one for each chip".
            kinds = self.names.decl(table or "").one
            own = kinds.lower() == name.one.lower()
            if piece.each_row_of and rows is not None:
                says = str(rows) if own else f"{rows}, one for each {kinds}"
            elif piece.per_row_of and rows is not None and count is not None:
                says = (
                    f"{rows * count}: {count} of each of {rows} kinds"
                    if own
                    else f"{rows * count}, {count} for each {kinds}"
                )
            elif piece.per_row_of and (each := self._per_row(piece)) is not None:
                # A kind with none in the box is no component ("0 Sharp Teeth": a power printed
                # on some boards, of which the bag holds no token): the list counts what is there.
                listed = [self.names.row(piece.per_row_of, key).count_label(n) for key, n in each if n]
                total = sum(n for _, n in each)
                says = f"{total}: " + ", ".join(listed) if listed else str(total)
            elif piece.per_player and count is not None:
                says = f"{count} for each player"
            elif count is not None:
                says = str(count)
            else:
                says = "some"
            words, own_says = words_of(piece.meta)
            if own_says and words and _tells_count(words[0], count, table is not None):
                # Its `says` tells the count its own way ("5 for most players, 4 for the last"):
                # the count printed before it would state as a fact what the words then qualify.
                says, words = words[0].rstrip("."), words[1:]
            one = count == 1 and not piece.per_player and table is None  # "Cloth bag: 1", not "Cloth bags: 1"
            out.append(Component(name.one if one else name.many, says, words))
        for board in self.sym.maps.values():  # a board given by its size is a component too
            if board.outline is not None:
                words, _ = words_of(board.meta)
                out.append(Component(self.names.decl(board.name).one, self.en.map_words(board), words))
        return out

    def _per_row(self, piece: ast.Counted) -> list[tuple[str, int]] | None:
        """`piece x: self.supply per animal`: how many for each row, read from the row's cells."""
        e, table = piece.count, self.sym.tables.get(piece.per_row_of or "")
        if table is None or not (
            isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name) and e.obj.id == SELF
        ):
            return None
        columns = [c.name for c in table.columns]
        if e.name not in columns:
            return None
        at = columns.index(e.name)
        out = []
        for row in table.rows:
            key, n = row.cells[0], row.cells[at] if at < len(row.cells) else None
            if not isinstance(key, str) or not isinstance(n, int) or isinstance(n, bool):
                return None
            out.append((key, n))
        return out

    def numbers(self) -> list[tuple[str, str, list[str]]]:
        """The numbers the rulebook prints (a constant that cites it), not the ones the file had
        to invent (a constant with an `assume`): those are tuning, for the designer; nor how many
        of a piece there are, which the components tell; nor an option, which players choose
        before the game (the options tell it: an aid printed "Played on: False")."""
        out = []
        every = [*self.sym.pieces.values(), *self.sym.components.values()]
        counted = {p.count.id for p in every if isinstance(p.count, ast.Name)}
        for c in self.sym.constants.values():
            if c.name in counted or isinstance(c, ast.OptionDecl):
                continue  # the components say how many there are; the options what players choose
            kinds = {m.kind for m in c.meta}
            value = self.constants.get(c.name)
            a_number = isinstance(value, int | str) and not isinstance(value, bool)  # a yes is no number
            if "cites" in kinds and "assume" not in kinds and a_number:
                words, _ = words_of(c.meta)
                out.append((self.names.decl(c.name).one, str(value), words))
        return out

    def sheets(self) -> list[Sheet]:
        """The tables the author describes for players (a `says` or a `text`), rows by name, with
        the columns the author heads for players: a column without a heading of its own (a flag,
        a measure, the codes of the pictures' colours) is the machine's and is left to the
        reference; a colour in words ("white") is what a player's pieces are, and prints. A
        variant's book prints the tables it brings or writes anew, rows and all (a deck of
        cards the variant brought printed its words and no row); the base game's are in its own book."""
        out = []
        for t in self.sym.tables.values():
            words, _ = words_of(t.meta)
            if not words or (self.variant_files and not self.changed(t)):
                continue
            keyed = is_keyed(t)
            keep = [
                i
                for i, c in enumerate(t.columns)
                if (i == 0 and keyed) or (c.called is not None and not _machines(t, i))
            ]
            columns = [t.columns[i].called or humanise(t.columns[i].name) for i in keep]
            if keyed and t.columns[0].called is None:  # the rows' own column: what they are
                columns[0] = self.names.decl(t.name).one
            rows = []
            for row in t.rows:
                cells = []
                for i in keep:
                    value = row.cells[i] if i < len(row.cells) else None
                    column = t.columns[i]
                    refers = column.type.name if column.type is not None else ""
                    if i == 0 and keyed and isinstance(value, str):
                        cells.append(self.names.row(t.name, value).one)
                    elif refers in self.sym.tables and isinstance(value, str):
                        cells.append(self.names.row(refers, value).one)  # a row of another table
                    else:
                        cells.append(self._cell(value, row.names[i] if i < len(row.names) else False))
                rows.append(cells)
            out.append(Sheet(self.names.decl(t.name).one, words, columns, rows))
        return out

    def _cell(self, value: ast.Cell, is_name: bool) -> str:
        if value is None:
            return "\u2013"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str):
            return self.names.key(value).one if is_name else value
        return str(value)

    def terms(self) -> list[tuple[str, list[str]]]:
        """The words the rules use for a condition or a measure (a `value` that `says` what it
        is, under the name players read), as a glossary defines them, in the order of the file. A
        value's `text` is the designer's description and stays in the reference."""
        out = []
        for d in self.module.decls:
            if isinstance(d, ast.ValueDecl):
                words, stands = words_of(d.meta)
                if stands:
                    out.append((self.names.decl(d.name).one, words))
        return out

    # ------------------------------------------------------------------ the order rules come in

    def rules_in_order(self) -> list[ast.RuleDecl | ast.Named]:
        """The rules a player reads, in the order the game first reaches them: play (a reader
        meets an action where the flow first sends them to it), then setup, then the rest. A
        rule without a `says` of its own is left out when every place that calls it says in its
        `says` what it does: the caller's words already tell it. A phase or step of the flow whose
        `says` so tells a rule is a rule itself, where the flow reaches it (`told_by_blocks`)."""
        told = self._told()
        blocks = self.told_by_blocks(told)
        order: list[str | ast.Named] = []

        def reach(node: ast.Node) -> None:  # depth first: a rule's own rules come right after it
            for item in _calls_in_print_order(node, blocks):
                if isinstance(item, ast.Named):
                    order.append(item)
                elif item in self.sym.rules and item not in order:
                    order.append(item)
                    reach(self.sym.rules[item])

        for decl in (self.sym.play, self.sym.setup):
            if decl is not None:
                reach(decl)
        order += [n for n in self.sym.rules if n not in order]
        return [
            item if isinstance(item, ast.Named) else self.sym.rules[item]
            for item in order
            if isinstance(item, ast.Named) or item not in told
        ]

    def told_by_blocks(self, told: set[str]) -> set[int]:
        """The phases and steps of the flow (by id) whose `says` tells a rule the rulebook prints
        nowhere else (one of `told`), the outermost of those inside one another: each is printed
        among the rules under its name, and the flow's outline names it. Told only in the outline,
        three phases of a game stood four levels deep in it, and a player looking for them under
        the rules found nothing."""
        found: set[int] = set()

        def visit(body: list[ast.Stmt]) -> None:
            for stmt in body:
                if isinstance(stmt, ast.Named) and words_of(own_lines(stmt, self.module))[1]:
                    calls = {c.name for c in stmt.find_all(ast.CallStmt)}
                    if calls & told:
                        found.add(id(stmt))
                        continue
                for inner in stmt.blocks():
                    visit(inner)

        if self.sym.play is not None:
            visit(self.sym.play.body)
        return found

    def block_part(self, block: ast.Named) -> Part:
        """A phase or step the rules print under its name (`told_by_blocks`): its `says`."""
        words, _ = words_of(own_lines(block, self.module))
        title = self.names.block(block).one
        return Part(anchor(block.kind, block.name), title, words, [], self.changed(block), of_flow=True)

    def _told(self, own: bool = False) -> set[str]:
        """The rules whose every call stands where a `says` tells what happens: in a rule with a
        `says` (one that is itself printed, or told in turn), or in a phase or step with one.
        `own`: only a variant's own `says` count (the base game's words tell the base game's
        rule, not the one the variant replaces it with)."""
        sym = self.sym
        calls: dict[str, list[tuple[str | None, bool]]] = {name: [] for name in sym.rules}

        def says(metas: Sequence[ast.Meta]) -> bool:
            return any(m.kind == "says" and (not own or m.span.file in self.variant_files) for m in metas)

        def visit(body: list[ast.Stmt], owner: str | None, covered: bool) -> None:
            for stmt in body:
                if isinstance(stmt, ast.Named):
                    visit(stmt.body, owner, covered or says(own_lines(stmt, sym.module)))
                    continue
                if isinstance(stmt, ast.CallStmt) and stmt.name in calls:
                    calls[stmt.name].append((owner, covered))
                for inner in stmt.blocks():
                    visit(inner, owner, covered)

        for name, rule in sym.rules.items():
            visit(rule.body, name, says(rule.meta))
        for decl in [sym.setup, sym.play, *sym.triggers]:
            if decl is not None:
                visit(decl.body, None, says(decl.meta))
        told: set[str] = set()
        changed = True
        while changed:  # a call from a told rule is told as well: its caller's words cover both
            changed = False
            for name, sites in calls.items():
                if words_of(sym.rules[name].meta)[1]:
                    continue  # its own `says`: printed
                if name not in told and sites and all(c or (o is not None and o in told) for o, c in sites):
                    told.add(name)
                    changed = True
        return told

    # ------------------------------------------------------------------ examples and rulings

    def example(self, d: ast.Example) -> Example:
        words, _ = words_of(d.meta)
        shown = self.positions.get(d.name)
        drawn = pictures(shown, self.names) if shown else []
        return Example(d.name, words, drawn)

    def rulings(self) -> list[Ruling]:
        """How the rules settle what the rulebook leaves open (an `assume`) or says twice (a
        `conflict`), in the author's words: those that stand in what players read (a rule, a
        step, a trigger, the setup, the score, the header) and the conflicts about the whole game
        (at the top level). The file's own notes (its top lines) and what is assumed or settled
        about data (a table, a constant the file had to invent, a piece count, a variable) are the
        designer's: the data prints as the file settles it (a table's colours, a terrain's one
        name), so a player needs no ruling to read it, and the reference has them. A variant
        prints only its own."""
        out: list[Ruling] = []
        seen: set[tuple[int, int, str]] = set()
        data = (ast.Table, ast.Constant, ast.Counted, ast.ZoneDecl, ast.VarDecl, ast.MapDecl, ast.Example)
        kept: list[ast.Meta] = [m for m in self.module.meta if isinstance(m, ast.Conflict)]
        kept += [n for d in self.module.decls if not isinstance(d, data) for n in d.find_all(ast.Meta)]
        for m in kept:
            key = (m.span.line, m.span.column, m.span.file)
            if key in seen or m.kind not in ("assume", "conflict"):
                continue
            if self.variant_files and not self.changed(m):
                continue
            seen.add(key)
            if isinstance(m, ast.Conflict):
                reading = " ".join(r.value for r in m.reading)
                out.append(Ruling("conflict", reading, m.value) if reading else Ruling("conflict", m.value))
            else:
                out.append(Ruling("assumption", _without_tag(m.value)))
        return out

    # ------------------------------------------------------------------ the whole book

    def build(self, path: Path) -> Rulebook:
        sym = self.sym
        header = sym.header or ast.GameHeader(name=path.stem)
        # A variant's header: its own words, which say what it changes, in place of the base game's
        # (which may say what no longer holds: a round count, the players).
        own = [m for m in header.meta if m.span.file == self.module.file]
        overview, _ = words_of(own) if self._files() > 1 and words_of(own)[0] else words_of(header.meta)
        setup = None
        in_order = self.rules_in_order()
        self.en.printed = {r.name for r in in_order if isinstance(r, ast.RuleDecl)}
        self.en.sections = {id(r): anchor(r.kind, r.name) for r in in_order if isinstance(r, ast.Named)}
        if sym.setup is not None:
            setup = self.part("setup", "rules", "Setup", sym.setup, self.en.block(sym.setup.body, meta=False))
        rules = [self.rule(r) if isinstance(r, ast.RuleDecl) else self.block_part(r) for r in in_order]
        flow_words, flow_says = words_of(sym.play.meta) if sym.play is not None else ([], False)
        if flow_says and self._flow_patched():
            flow_words, flow_says = [], False  # the base game's words tell its own flow, not the variant's
        whenever = [self.trigger(t) for t in sym.triggers]
        scoring = self.scoring()
        book = Rulebook(
            stem=path.stem,
            title=header.name,
            players=players(header.min_players, header.max_players) + self.automata_named(),
            base=None,
            overview=overview + self.seats_told(),
            components=self.components(),
            numbers=self.numbers(),
            sheets=self.sheets(),
            setup=setup,
            flow_words=flow_words,
            flow=[] if sym.play is None or flow_says else self.en.block(sym.play.body, meta=False),
            rules=rules,
            whenever=whenever,
            scoring=scoring,
            examples=[self.example(e) for e in sym.examples if words_of(e.meta)[1]],
            rulings=self.rulings(),
        )
        book.ends = self.ends()
        book.options = self.options()
        book.kept, book.sequence = self.kept(), self.series()
        book.terms = self.terms()
        book.definitions = self.definitions()
        if self.sym.sequence is not None:  # the options its games set are told with the games
            fixed = {self.names.decl(name).one for g in self.sym.sequence.games for name, _ in g.options}
            book.options = [o for o in book.options if o.name not in fixed]
        if self.variant_files:
            book.base = self.module.root or "the base game"
            between = [name for name, _ in self.module.lineage[:-1]]
            if between:
                book.includes = f"You need no other book: these changes take in those of {join(between)}."
            book.changes = self.changes()
            book.left_out = self.left_out()
        return book

    def _flow_patched(self) -> bool:
        """Whether a variant changed its base game's flow: a phase or step replaced or inserted
        (a statement from another file than the flow's), or a phase removed. The base game's
        `says` for the whole flow then tells a flow the variant no longer plays (an aid said
        "each player takes one last turn" of a round its variant removes): the flow is printed
        by its phases and steps, each by its own words."""
        play = self.sym.play
        if play is None or self._files() < 2:
            return False
        if any(r.kind == "phase" for r in self.module.removed):
            return True
        worded_anew = self.module.worded_anew
        return any(
            isinstance(n, ast.Stmt) and n.span.file != play.span.file and n.span not in worded_anew
            for n in play.walk()
        )

    # ------------------------------------------------------------------ seats the rules play, and teams

    def automata_named(self) -> str:
        """The seats the rules play after the player count: " and the Pacer"."""
        return "".join(f" and {self.names.decl(a.name).one}" for a in self.sym.automata)

    def seats_told(self) -> list[str]:
        """What players read of the seats the rules play and of teams: who plays each seat (its
        own `text`, in the author's words), and the sizes of teams."""
        out = []
        for a in self.sym.automata:
            name = self.names.decl(a.name).one
            words, _ = words_of(a.meta)
            out.append(
                " ".join(
                    [
                        f"{name[:1].upper()}{name[1:]} plays by the rules: nobody at the table plays it.",
                        *words,
                    ]
                )
            )
        teams = self.sym.teams
        if teams is not None:
            low, high = teams.smallest, teams.largest
            size = str(low) if low == high else f"up to {high}" if low == 1 else f"{low} to {high}"
            words, _ = words_of(teams.meta)
            out.append(
                " ".join([f"You may play in teams of {size} players: a team wins or loses together.", *words])
            )
        return out

    def options(self) -> list[Option]:
        """The game's options as players choose them: a table's rows by their names, in the
        table's order, then the one played when nobody chooses (a default is the file's, not the
        publisher's: printed first it reads as the rule); a number or yes/no as such."""
        out = []
        for d in self.module.decls:
            if not isinstance(d, ast.OptionDecl):
                continue
            default = d.default
            kind = d.type.name
            if kind in self.sym.tables:
                keys = [r.cells[0] for r in self.sym.tables[kind].rows if isinstance(r.cells[0], str)]
                first = default.name if isinstance(default, ast.Attr) else getattr(default, "id", "")
                names = [self.names.row(kind, k).one for k in keys]
                chosen = self.names.row(kind, first).one if first in keys else names[0]
                choices = [f"{join(names, 'or')} ({chosen} if you choose none)" if len(names) > 1 else chosen]
            else:
                choices = [f"{self.en.expr(default)} unless agreed otherwise"]
            out.append(Option(self.names.decl(d.name).one, choices, words_of(d.meta)[0]))
        return out

    def kept(self) -> list[tuple[str, list[str]]]:
        """What a game keeps for the next (`carry`): each in players' words, with its own text;
        headed by the line's `called` where the name it carries and its owner would not read as
        a heading (a variable named for the rules' sake, "score kept by a change of team of each
        club")."""
        out = []
        for d in self.module.decls:
            if isinstance(d, ast.CarryDecl):
                name = self.names.decl(d.name).one
                whose = (
                    ""
                    if d.per is None
                    else f" of each {self.names.decl(d.per).one if d.per != 'player' else 'player'}"
                )
                holds = self._holds(d.condition)
                if holds is False:  # not carried with the options these rules are printed for
                    continue
                when = "" if holds or d.condition is None else f" (when {self.en.cond(d.condition)})"
                own = called(d.meta)
                out.append((f"{own.value if own else name + whose}{when}", words_of(d.meta)[0]))
        return out

    def _holds(self, condition: ast.Expr | None) -> bool | None:
        """Whether a `carry` line's condition holds with the options the rules are printed for:
        an option or constant, or `not` one (None: a condition said in words instead)."""
        match condition:
            case None:
                return True
            case ast.Name(id=name) if isinstance(self.constants.get(name), bool):
                return bool(self.constants[name])
            case ast.Unary(op="not", operand=ast.Name(id=name)) if isinstance(self.constants.get(name), bool):
                return not self.constants[name]
        return None

    def series(self) -> Series | None:
        """The sequence the game is played as, each game by the options it is played with."""
        d = self.sym.sequence
        if d is None:
            return None
        games = []
        for g in d.games:
            said = [
                f"{self.names.decl(name).one} {self._option_value(name, value)}" for name, value in g.options
            ]
            games.append(", ".join(said) or "as the options say")
        return Series(self.names.decl(d.name).one, words_of(d.meta)[0], games)

    def _option_value(self, name: str, value: ast.Cell) -> str:
        option = self.sym.constants.get(name)
        kind = option.type.name if isinstance(option, ast.OptionDecl) else ""
        if kind in self.sym.tables and isinstance(value, str):
            return self.names.row(kind, value).one
        return "yes" if value is True else "no" if value is False else str(value)

    def ends(self) -> list[str]:
        """When the game ends early, in the author's words: the sentences that speak of an end in
        the words of each rule, trigger or block that holds an `end game` (the player aid prints
        them; the rulebook has them in their rules)."""
        out: list[str] = []
        owners: list[tuple[ast.Node, list[ast.Meta]]] = [(d, d.meta) for d in self.module.decls]
        owners += [
            (s, own_lines(s, self.module))
            for body in ast.statement_lists(self.module.decls)
            for s in body
            if isinstance(s, ast.Named)
        ]
        for node, metas in owners:
            if isinstance(node, ast.Example) or not any(True for _ in node.find_all(ast.EndGame)):
                continue
            words, _ = words_of(metas)
            out += [s for w in words for s in sentences(w) if re.search(r"\bend", s) and s not in out]
        return out

    def changes(self) -> list[Part]:
        """What a variant changes, in players' words, in the order a player meets it: the options
        the players choose before the game (the setup and the rules use them: a Campaign's
        Scenario step said "Playing with the same name" a page before the option that names it),
        setup (the words that open it first, then the variant's own setup lines, what it adds to
        the base game's: a Campaign printed its setup's opening words after the steps they
        introduce), the flow (the phases and
        steps it replaces, what it inserts, said as "added to" the block it joins), its rules,
        what happens when, values and numbers it changes, tables it adds to, and the score. A
        declaration it only removes has nothing left to print; the designer's reference lists
        every patch."""
        # A rule the variant replaces is told by its callers' words only where they are the
        # variant's own: a replaced rule told by the base game's words went unlisted.
        told = self._told() & (
            self._told(own=True) | {n for n in self.sym.rules if f"rule {n}" not in self.module.patched}
        )
        chosen, setup, flow, rules, scoring = [], [], [], [], []
        reworded = self._reworded()
        # A phase or step worded anew is told where the block stands, among the blocks the
        # variant replaces (a solo book printed "2.", "3.", then "1." and "4." after them).
        blocks = {(p.kind, p.name): part for p, part in reworded if p.kind in _BLOCK_KINDS}
        placed = set(blocks)
        if self.sym.setup is not None:
            setup += self._patched(self.sym.setup.body, "Setup", blocks)
        if self.sym.play is not None:
            flow += self._patched(self.sym.play.body, "the game", blocks)
        for rule in self.sym.rules.values():
            if not self.changed(rule):
                rules += self._patched(rule.body, self.names.decl(rule.name).one, blocks)
        for d in self.module.decls:
            match d:
                case ast.RuleDecl() if self.changed(d) and d.name not in told:
                    rules.append(self._changed_rule(d))
                case ast.TriggerDecl() if self.changed(d):
                    rules.append(self.trigger(d))
                case ast.ScoreDecl() if self.changed(d):
                    scoring += [p for p in self.scoring() if p.anchor == anchor(d.kind, "line")]
                case ast.Table():
                    rules += self._extended(d)
                case ast.OptionDecl() if self.changed(d):
                    chosen += self._described(d)
                case _ if isinstance(d, _DESCRIBED) and self.changed(d):
                    rules += self._described(d)
        for patch, part in reworded:
            if (patch.kind, patch.name) in placed - set(blocks):
                continue  # told where its block stands
            if patch.kind in ("setup", "play"):  # the words that open the setup or the game lead its changes
                (setup if patch.kind == "setup" else flow).insert(0, part)
            else:
                (flow if patch.kind in _FLOW_KINDS else rules).append(part)
        return [*self._between(), *chosen, *setup, *flow, *rules, *scoring]

    def _changed_rule(self, d: ast.RuleDecl) -> Part:
        """A rule the variant brings or replaces; one that only logs says so in one plain
        sentence rather than print a heading with nothing under it."""
        part = self.rule(d)
        if not part.words and not part.steps:
            part.steps = [Line("Nothing happens in this variant.")]
        return part

    def _between(self) -> list[Part]:
        """The words of each variant between this one and its base game, which its own header
        words (the overview) no longer print: what each brings, titled by its name, before the
        changes (a variant of a variant lost what its parent's header said the parent brings)."""
        header = self.sym.header
        out = []
        for name, file in self.module.lineage[:-1]:
            words, _ = words_of([m for m in header.meta if m.span.file == file]) if header else ([], False)
            if words:
                out.append(Part(anchor("variant", name), name, words, [], True))
        return out

    def _reworded(self) -> list[tuple[ast.Reword, Part]]:
        """The base game's passages the variant words anew (`reword`), by their new words: the
        base game's rulebook prints the old ones, so the new are among the changes. A `holds`
        changes no word and is printed nowhere a player reads."""
        out: list[tuple[ast.Reword, Part]] = []
        for patch in self.module.rewords:
            found = self._passage(patch) if patch.span.file in self.variant_files else None
            if found is None:
                continue
            title, metas = found
            words, _ = words_of([m for m in metas if self.changed(m)])
            if words and not self._told_by_its_block(patch):
                out.append(
                    (patch, Part(anchor("reworded", patch.key.replace(" ", "-")), title, words, [], True))
                )
        return out

    def _told_by_its_block(self, patch: ast.Reword) -> bool:
        """Whether a reworded step stands in a phase or step whose `says`, the variant's own,
        tells it among the changes already (a solo book printed a step's new words again after
        its phase's new words, which said them). A block worded by the base game does not: the
        reader's base book prints its old words, which do not tell the variant's step."""
        bodies = [d.body for d in (self.sym.setup, self.sym.play) if d is not None]

        def within(body: list[ast.Stmt], said: bool) -> bool:
            for stmt in body:
                if isinstance(stmt, ast.Named) and (stmt.kind, stmt.name) == (patch.kind, patch.name):
                    return said
                if isinstance(stmt, ast.Named):  # its own words lead it (an insert's `says` may follow)
                    inner = said or words_of([m for m in _leading(stmt.body) if self.changed(m)])[1]
                else:
                    inner = said
                if any(within(block, inner) for block in stmt.blocks()):
                    return True
            return False

        return patch.kind in _BLOCK_KINDS and any(within(body, False) for body in bodies)

    def _passage(self, patch: ast.Reword) -> tuple[str, list[ast.Meta]] | None:
        """A reworded passage's title and its lines (its metadata and those directly in it)."""
        node: ast.Decl | ast.Named | None
        if patch.kind in ("setup", "play"):
            node = self.sym.setup if patch.kind == "setup" else self.sym.play
            title = "Setup" if patch.kind == "setup" else "How to play"
        elif patch.kind in _FLOW_KINDS:
            node = next(
                (
                    s
                    for body in ast.statement_lists(self.module.decls)
                    for s in body
                    if isinstance(s, ast.Named) and s.kind == patch.kind and s.name == patch.name
                ),
                None,
            )
            title = self.names.block(node).one if node is not None else ""
        else:
            cls = DECL_KINDS[patch.kind]
            node = next(
                (d for d in self.module.decls if type(d) is cls and getattr(d, "name", None) == patch.name),
                None,
            )
            name = self.names.decl(patch.name)
            title = name.many if issubclass(cls, ast.Counted) else name.one
        if node is None:
            return None
        body = getattr(node, "body", None)
        lines = [
            *(node.meta if isinstance(node, ast.Decl) else []),
            *(body if isinstance(body, list) else []),
        ]
        return title, list({id(m): m for m in lines if isinstance(m, ast.Meta)}.values())

    def definitions(self) -> list[Part]:
        """What a variant's game defines otherwise than its base game, which the player aid prints
        (its setup, flow, actions, numbers and score tell the rest): each value and movement a
        variant replaces, by its words or in players' English (a neutral piece's space that
        no one may stop on), and each table it brings or writes anew, by its words (its rows are the
        rulebook's). Whichever book is printed (the changes or `--full`), and from every file
        but the base game's: a variant of a variant defines what both change. A value or movement
        whose every reader (but a worked example) is a rule, trigger or score line in a variant's
        own words is left out: the aid prints those words already (the Team game's aid told its
        team rules twice)."""
        play = self.sym.play
        if play is None or self._files() < 2:
            return []
        out: list[Part] = []
        uses: list[tuple[ast.Decl, set[str]]] | None = None  # each declaration's reads, walked once
        for d in self.module.decls:
            if d.span.file == play.span.file:
                continue
            if isinstance(d, ast.ValueDecl | ast.MovementDecl):
                kind = "value" if isinstance(d, ast.ValueDecl) else "movement"
                if f"{kind} {d.name}" not in self.module.patched:
                    continue
                if uses is None:
                    uses = [(e, names_used(e)) for e in self.module.decls if not isinstance(e, ast.Example)]
                if not self._told_by_readers(d.name, uses):
                    out += self._described(d)
            elif isinstance(d, ast.Table) and (words := words_of(d.meta)[0]):
                title = self.names.decl(d.name).one
                out.append(Part(anchor("table", d.name), title, words, [], True, brief=briefs(d.meta)))
        return out

    def _told_by_readers(self, name: str, uses: list[tuple[ast.Decl, set[str]]]) -> bool:
        """Whether every declaration that reads `name` is a rule, trigger or score line whose
        `says` is a variant's (the aid prints it), and there is at least one. `uses`: each
        declaration but the worked examples, with the names it reads (`names_used`), worked out
        once for all the names asked about, not walked again for each name (the rulebook, aid and
        reference of every bundled game, full and not: 5.16 s of CPU before, 4.70 s after)."""
        play = self.sym.play
        readers = [d for d, used in uses if name in used and getattr(d, "name", None) != name]
        return bool(readers) and all(
            isinstance(d, ast.RuleDecl | ast.TriggerDecl | ast.ScoreDecl)
            and any(m.kind == "says" and play is not None and m.span.file != play.span.file for m in d.meta)
            for d in readers
        )

    def _described(self, d: ast.Decl) -> list[Part]:
        """A declaration the variant brings or replaces, by its own words; one that replaces the
        base game's and has none is said in players' English (a number with the base game's),
        so that no change goes untold, unless its `holds` says why the base game's words, with
        the variant's other changes, still tell it (the Team game printed who wins a Challenge
        card three times: the card's winner, the score, and the scoring). A new one without words
        is the rules' own helper: the
        rules that use it tell it; so is a new variable or zone, the rules' bookkeeping, which
        the base game's rulebook never prints either (a solo variant's changes printed
        "Visited: Whether the Owner token has stopped in the section this round")."""
        name = str(getattr(d, "name", ""))
        words, _ = words_of(d.meta)
        steps: list[Line] = []
        kind = next(word for word, cls in DECL_KINDS.items() if type(d) is cls)
        replaces = f"{kind} {name}" in self.module.patched  # as the patch names it: `replace value x`
        if not replaces and (isinstance(d, ast.VarDecl | ast.ZoneDecl) or not words):
            return []
        if not words and any(m.kind == "holds" for m in d.meta):
            return []  # the base game's words still tell it (`holds`), and the changes that make it so
        if not words:
            was = next((c.old for c in self.module.changes if c.name == name and c.row is None), None)
            if isinstance(d, ast.Constant) and was is not None:
                now = self.en.expr(d.value)
                steps = [Line(f"{now} in this variant, instead of {self._cell(was, False)}.")]
            else:
                said = self.en.definition(d) if isinstance(d, ast.ValueDecl) else self.en.say(d)
                steps = [Line(first_upper(said) + ".")]
        title = self.names.decl(name)
        heading = title.many if isinstance(d, ast.Counted) else title.one
        return [Part(anchor("decl", name), heading, words, steps, True, brief=briefs(d.meta))]

    def left_out(self) -> str:
        """What a variant plays without, in one sentence: the base game's passages it removes, by
        the headings the reader's base book prints them under. A passage quoted under its old
        heading, "Left out of this variant; the base game says: ...", read as a rule of the
        variant; one the base book does not print (a helper without words) is not named."""
        titles = [
            r.called or humanise(r.name)
            for r in self.module.removed
            if r.span.file in self.variant_files and (r.words or r.kind in _PRINTED_KINDS)
        ]
        if not titles:
            return ""
        quoted = [f"\u201c{first_upper(t)}\u201d" for t in dict.fromkeys(titles)]
        verb = "it is" if len(quoted) == 1 else "they are"
        return f"Leave out {join(quoted)}: {verb} not played in this variant."

    def _extended(self, table: ast.Table) -> list[Part]:
        """A table the variant adds to, changes or declares: its own words, the rows it brings
        (`extend table`, when it says why), and each change of a `change table`."""
        patches = [p for c in self.module.table_changes if c.name == table.name for p in c.patches]
        patched = {p.row.span for p in patches if isinstance(p, ast.ReplaceRow | ast.AddRow)}
        rows = [r for r in table.rows if self.changed(r) and r.span not in patched]
        if not rows and not patches and not self.changed(table):
            return []
        words = [m.value for m in table.meta if m.kind in ("says", "text") and self.changed(m)]
        if not words and not patches and f"table {table.name}" not in self.module.patched:
            return []  # a new table no words describe is the rules' data: the rules that read it tell it
        if self.changed(table) and words_of(table.meta)[0]:
            return []  # a table the variant writes whole is printed whole, among its tables (sheets)
        shown = [", ".join(self._cell(c, n) for c, n in zip(r.cells, r.names, strict=False)) for r in rows]
        steps = [Line(f"Added: {row}.") for row in shown] if words and not self.changed(table) else []
        steps += [Line(first_upper(line)) for p in patches if (line := self._table_patch(table, p))]
        return [Part(anchor("table", table.name), self.names.decl(table.name).one, words, steps, True)]

    def _table_patch(self, table: ast.Table, patch: ast.TablePatch) -> str:
        """One change of a `change table`, in players' words: the row by its name, the column by
        its heading, a changed cell with its value in the base game."""
        headings = {c.name: c.called or humanise(c.name) for c in table.columns}
        was = {(c.row, c.name): c.old for c in self.module.changes if c.span == patch.span and c.row}

        def cells(key: str, columns: list[str], values: dict[str, tuple[ast.Cell, bool]]) -> str:
            said = []
            for column in columns:
                value, is_name = values[column]
                before = (
                    f" (instead of {self._cell(was[key, column], False)})" if (key, column) in was else ""
                )
                said.append(f"{headings[column]} {self._cell(value, is_name)}{before}")
            return ", ".join(said)

        def row(r: ast.Row) -> dict[str, tuple[ast.Cell, bool]]:
            return {c.name: (v, n) for c, v, n in zip(table.columns, r.cells, r.names, strict=False)}

        match patch:
            case ast.SetCell(key=key, column=column):
                shown = cells(key, [column], {column: (patch.value, patch.is_name)})
                return f"{self.names.row(table.name, key).one}: {shown}."
            case ast.ReplaceRow(row=new) if new.cells:
                key = str(new.cells[0])
                changed = [column for r, column in was if r == key]
                return (
                    f"{self.names.row(table.name, key).one}: {cells(key, changed, row(new))}."
                    if changed
                    else ""
                )
            case ast.AddRow(row=new) if new.cells:
                key = str(new.cells[0])
                shown = cells(key, [c.name for c in table.columns[1:] if c.name != CALLED_COLUMN], row(new))
                return f"Added: {self.names.row(table.name, key).one}, with {shown}."
            case ast.RemoveRow(key=key):
                return f"Removed: {self.names.row(table.name, key).one}."
            case ast.AddColumn(column=column):
                value, each = self._cell(patch.value, patch.is_name), self.names.decl(table.name).one
                return f"New: {headings[column.name]}, {value} for each {each} unless said below."
        return ""

    def _title(self, decl: ast.Decl) -> str:
        if isinstance(decl, ast.SetupDecl):
            return "Setup"
        if isinstance(decl, ast.PlayDecl):
            return "the game"
        return self.names.decl(str(getattr(decl, "name", ""))).one

    def _replaced_block(self, block: ast.Named) -> Part:
        """A phase or step the variant replaces or brings: its `says` (or its steps in players'
        English), but for a replacement that says again sentences the base game's block said:
        the reader's base book prints those, so only the new ones are printed, after "Played as
        in the base game." (a two-player book repeated a whole turn paragraph to add one turn)."""
        title = self.names.block(block).one
        own = words_of(own_lines(block, self.module))
        if own[1]:
            # the base game's words only: a reader of a variant of a variant holds no parent's book
            held = [m.value for m in self.module.was_said.get(block.span, []) if not self.changed(m)]
            was = {s for w in held for s in sentences(w)}
            said = [s for w in own[0] for s in sentences(w)]
            new = [s for s in said if s not in was]
            words = [" ".join(["Played as in the base game.", *new])] if len(new) < len(said) else own[0]
            return Part(anchor(block.kind, block.name), title, words, [], True)
        line = self.en.block([block])[0]
        return Part(line.anchor or anchor(block.kind, block.name), title, [], line.children, True)

    def _patched(self, body: list[ast.Stmt], where: str, blocks: dict[tuple[str, str], Part]) -> list[Part]:
        """The variant's parts inside a body of the base game: a replaced phase or step whole,
        a phase or step it words anew (`blocks`, by kind and name: taken out of it once told),
        and each run of statements it inserted, as an addition to the block it stands in, titled
        by where it goes as a printed rulebook says it: before the phase after it ("Before the
        Action phase"), or before or after the step beside it, in its block ("Setup, after the
        Standby track"); else by the block alone ("Game end and final scoring"). "Added to Each
        round", "Each round, before 1. Action phase" and "Also in ..." read as a designer's notes."""
        out: list[Part] = []
        run: list[ast.Stmt] = []

        def close(following: ast.Stmt | None) -> None:
            if not run:
                return
            words, stands = words_of([s for s in run if isinstance(s, ast.Meta)])
            steps = [] if stands else self.en.block(run, meta=False)
            if not words and not steps:  # only a log: nothing for a player to do, no empty heading
                run.clear()
                return
            at = next(i for i, s in enumerate(body) if s is run[0])
            before = [s for s in body[:at] if isinstance(s, ast.Named)]
            if isinstance(following, ast.Named) and following.kind == "phase":
                title = f"Before {_the(self.names.block(following).one)}"
            elif isinstance(following, ast.Named):
                title = f"{where}, before {_the(self.names.block(following).one)}"
            elif before and words_of(own_lines(before[-1], self.module))[0]:
                title = f"{where}, after {_the(self.names.block(before[-1]).one)}"
            else:
                title = where
            out.append(Part(anchor("added", f"{where}-{len(out)}"), title, words, steps, True))
            run.clear()

        reworded = {m.span for patch in self.module.rewords for m in patch.meta}
        for stmt in body:
            if self.changed(stmt) and stmt.span not in reworded:  # a reworded passage's words: its own part
                if isinstance(stmt, ast.Named):
                    close(stmt)
                    out.append(self._replaced_block(stmt))
                else:
                    run.append(stmt)
                continue
            close(stmt)
            if isinstance(stmt, ast.Named) and (said := blocks.pop((stmt.kind, stmt.name), None)):
                out.append(said)
            inner = self.names.block(stmt).one if isinstance(stmt, ast.Named) else where
            for part in stmt.blocks():
                out += self._patched(part, inner, blocks)
        close(None)
        return out


def _the(name: str) -> str:
    """A phase's or step's name as a sentence reads it after "before" or "after": without the
    number its heading prints ("1. Action phase"), and with "the" where it ends in a common noun
    ("the Action phase", "the Standby track"; "Starting Tiles" and "Tidying" take none)."""
    name = re.sub(r"^\d+[.)]\s+", "", name)
    words = name.split()
    common = len(words) > 1 and words[-1].islower() and words[0].lower() not in ("a", "the")
    return f"the {name}" if common else name


def _calls_in_print_order(
    node: ast.Node, blocks: set[int] | frozenset[int] = frozenset()
) -> list[str | ast.Named]:
    """The rules a declaration calls (or offers), in the order the rulebook tells them: the order
    they stand in, except where its phases and steps are `numbered`: a call then goes by the
    number of the step it stands in, and by the order it stands in among equals; a call that
    stands in no numbered step (before the first, between two, after the last: what the turn
    does around its steps, or only when it finds a player Extinct) comes after every numbered
    step, in the order it stands in. A player learns the steps of a turn before what happens
    around them: a book opened with what a turn does before its first step and with the restart
    of a player knocked out of the game, and the rules it calls, before the actions. A
    rule offered over a block ("at any time during your turn") comes after the rules of the
    block: a player learns the steps of a turn before what they may also do between them. A
    phase or step among `blocks` (by id) is told as a rule too: it comes where it stands, before
    the rules it calls."""
    found: list[tuple[float, str | ast.Named]] = []
    steps = any(isinstance(s, ast.Named) and numbered(s) is not None for s in node.walk())
    around = math.inf if steps else 0  # where a call outside the numbered steps goes

    def visit(body: list[ast.Stmt], within: float | None) -> None:
        for stmt in body:
            number = numbered(stmt) if isinstance(stmt, ast.Named) else None
            if isinstance(stmt, ast.Named) and id(stmt) in blocks:
                found.append((number if number is not None else around if within is None else within, stmt))
            if isinstance(stmt, ast.Named) and number is not None:
                visit(stmt.body, number)
                continue
            if isinstance(stmt, ast.CallStmt):
                found.append((around if within is None else within, stmt.name))
            for inner in stmt.blocks():
                visit(inner, within)
            if isinstance(stmt, ast.Offer):
                found.append((around if within is None else within, stmt.rule))

    body = getattr(node, "body", None)
    if isinstance(body, list):
        visit(body, None)
    return [item for _, item in sorted(found, key=lambda pair: pair[0])]  # stable: equals keep their order


def _leading(body: list[ast.Stmt]) -> list[ast.Meta]:
    """A block's own words: the metadata it opens with, before its first statement."""
    out: list[ast.Meta] = []
    for stmt in body:
        if not isinstance(stmt, ast.Meta):
            break
        out.append(stmt)
    return out


_FLOW_KINDS = ("play", "phase", "step")  # the passages of the flow, among a variant's changes
_BLOCK_KINDS = ("phase", "step")  # the named blocks of a setup, a flow or a rule

# What the base game's rulebook prints even without words of its own (a rule's steps, a phase, a
# component): the variant's tells it as left out; a helper without words players never read.
_PRINTED_KINDS = ("rule", "phase", "step", "piece", "component")

# The declarations a variant's rulebook tells by their words, or in players' English when they
# replace the base game's; rules, triggers, tables, the score and the flow are told on their own.
_DESCRIBED = (
    ast.Constant,
    ast.OptionDecl,
    ast.PieceDecl,
    ast.ComponentDecl,
    ast.ZoneDecl,
    ast.VarDecl,
    ast.MapDecl,
    ast.MovementDecl,
    ast.ValueDecl,
)


def _machines(table: ast.Table, i: int) -> bool:
    """Whether a table's column is only for the machine: the rows' names as players read them
    (`called`), or a colour column whose cells are the pictures' colour codes."""
    name = table.columns[i].name
    if name == CALLED_COLUMN:
        return True
    cells = [row.cells[i] for row in table.rows if i < len(row.cells) and row.cells[i] is not None]
    return name == COLOUR_COLUMN and all(is_colour_code(c) for c in cells)


def states(value: str, words: list[str]) -> bool:
    """Whether a number's words state it already ("Every player starts the game with 2 funds."):
    the Numbers list then prints the words alone, not "Starting funds: 2." before them."""
    said = re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)")
    return any(said.search(w) for w in words)


def _without_tag(text: str) -> str:
    """An assumption's words without the bracketed tag a component file gives it ("[diet] ...")."""
    if text.startswith("[") and "] " in text:
        return text.split("] ", 1)[1]
    return text


def rulebook(
    path: Path,
    module: ast.Module,
    symbols: Symbols,
    constants: dict[str, Any],
    full: bool = False,
    positions: dict[str, Position] | None = None,
) -> Rulebook:
    """The rulebook of a checked module. A variant's tells its changes from the base game;
    with `full`, the whole game it makes. `positions`: what the worked examples show
    (pictures.positions), to draw them."""
    return _Builder(module, symbols, constants, full, positions).build(path)


def _tells_count(first: str, count: int | None, per_kind: bool) -> bool:
    """Whether an author's first sentence tells a component's count its own way: it opens with
    the count, or, for a piece made from the rows of a table whose count no one number gives
    (one per row, or each row's own number), with any number, since the rows count kinds while
    the author counts what is in the box ("89: 84 tiles, all different, and 5 alike"; "5: the
    white die and 4 black ones"): printing the count before would state it twice."""
    if count is not None:
        return re.match(rf"{count}(?!\d)", first) is not None
    return per_kind and re.match(r"\d", first) is not None
