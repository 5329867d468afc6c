"""Pictures of a worked example's position: the grid maps and places its `shows` line names,
drawn as SVG before the example's moves and after them.

A rulebook's worked example shows the board; a list of coordinates would not. The position is
the one the example itself builds and plays (interpreter/examples.py runs it: the picture cannot
differ from what the rules do), and it is drawn with the names players read (names.py):

- a grid map as its cells (pointy-top hexes, or squares with each block of a grid of blocks
  outlined: a tile), each filled with the colour of what its face is (the first column of the
  placed row that names a row of another table: a terrain), the pieces on it in bold and that
  row's other marks (an icon, a yes column) in italics, with a legend;
- any other place (a zone, a row that holds pieces, a cell) as a box of its pieces, counted;
  places that are nodes of a map whose rules say where each is drawn (`nodes T at X, Y`) as that
  map's cells, side by side where the board has them side by side, with the board's other nodes
  between them drawn blank, so that "your upper Event area" stands over "your lower Event area"
  as it does on the board.

A colour is the referred row's own `colour` cell when it is a "#rrggbb" text, else one of a
fixed palette in the order of that table's rows. Nothing here knows a game.
"""

from __future__ import annotations

import html
import math
import re
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.grammar import ast
from meeple.interpreter.engine import Game
from meeple.interpreter.examples import Shown, run_example
from meeple.interpreter.geometry import Geometry
from meeple.interpreter.names import Names
from meeple.interpreter.program import Program
from meeple.interpreter.values import Cell, MapRef, Piece, Player, Row, ZoneLoc, first_upper

HEX = 34.0  # a hex's radius, in the picture's units
SQUARE = 60.0  # a square cell's side
# Words on a cell stand on a pale label of their own, so that they read on a dark ground as on a
# light one at print size (an outline around each letter did not: it printed as white outlined
# text); each kind of piece has its own label, framed, and what is printed on the cell its own,
# unframed, so that two players' pieces on one cell, and a piece and a mark, are told apart.
LABEL = 'fill="#ffffff" fill-opacity="0.88" rx="3"'
LABEL_FRAME = 'stroke="#444" stroke-width="0.6"'
LETTER = 0.5  # the width of an average letter, in font sizes: a label's width is estimated from it
BOLD_LETTER = 0.6  # the same in bold: a piece's label
OVERHANG = 8.0  # a label wider than its cell may reach this far past a map's edge: the picture holds it
LEGEND_SWATCH = 19.0  # a legend entry's swatch and the space before its name
LEGEND_GAP = 18.0  # between two entries of a legend's row
LEGEND_ROW = 22.0  # the height of a legend's row
CELL_LINE = 11  # letters a line of words on a cell holds at full size
# A piece's label is bold and framed, and stays within its cell, so that the label on the next cell
# never covers it: bold letters average 0.55 of the font size (measured on an 11-letter name), so
# 9 of them and the frame's margin fit a cell 59 units wide (a hex's, a square's is 60).
PIECE_LINE = 9
STEP = 12.0  # a label's lines on a cell, baseline to baseline
GAP = 3.0  # between two labels on a cell
FONT = 11.0
FONT_FAMILY = "Libertinus Serif, Georgia, serif"
BOX_WIDTH = 200.0
BOX_NARROWEST = 90.0  # a box drawn beside others: at least this wide, else as wide as its words
BOX_GAP = 12.0  # between two boxes side by side
LINE = FONT + 8  # a box's lines, baseline to baseline
SCALE = 0.8  # points a unit of the picture prints at: its words at about 9 pt
HALF_PAGE = 230.0  # points: a picture this narrow is printed beside its other half
FULL_PAGE = 460.0  # points: a wider one above it, at most this wide
TALLEST = 250.0  # points: a picture at most this tall, so that before, after and the words fit one page
PALETTE = ("#cfe3c6", "#f1dfb0", "#c7dcef", "#e7cbe0", "#d9d2c5", "#f3c9b8", "#d0e7e4", "#e9e6a8")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_OWNED = re.compile(r"(.+) \((.+)\)")  # a piece and its owner: "3 stones (Player 1)"
COLOUR_COLUMN = "colour"  # a table's column of colours for pictures: not printed as data


@dataclass
class Picture:
    """One place drawn twice: before the example's moves and after them."""

    title: str
    before: str
    after: str
    width: float  # in points, as printed: the pictures' units at SCALE, at most a page wide and TALLEST tall
    key: str = ""  # a map's key (its colours, its bold and italic words), printed once under both, at SCALE

    @property
    def side_by_side(self) -> bool:
        """Before beside after, or (a wide picture) before above after."""
        return self.width <= HALF_PAGE

    @property
    def unchanged(self) -> bool:
        """Whether the example's moves change nothing this picture shows (what it checks is a
        count, a score, a rule met): it is drawn once, not twice the same under "Before" and
        "After", which a reader compared in vain for what had moved."""
        return self.before == self.after


@dataclass
class _Box:
    """Where one place's box lies in a picture of places side by side, in the picture's units."""

    place: Any
    x: float
    y: float
    width: float
    chars: int  # letters a line of its pieces holds
    head: int  # lines of its name
    body: int  # lines of its pieces
    cell: bool = False  # a node of a drawn map: its name inside it, its sides against its neighbours'
    shown: bool = True  # False: a node of that map between shown ones, drawn blank
    height: float = 0.0

    def __post_init__(self) -> None:
        if not self.height:
            self.height = (self.head + self.body) * LINE + 14


Shapes = dict[tuple[str, str], list[Row]]  # a shape's row (table, key): the rows of its cells
Drawn = dict[Row, tuple[str, int, int]]  # a map's node: the map, and where its rules draw the node


@dataclass
class Position:
    """What a printed example shows before its moves and after them, with what it needs to draw
    them as its words tell them: what each tile holds, and what its words call each seat."""

    before: list[Shown]
    after: list[Shown]
    shapes: Shapes
    seats: list[str]  # by seat, from `players N called ...`; none: "Player 1"...
    at: Drawn = field(default_factory=dict)
    marks: dict[int, str] = field(default_factory=dict)  # by the `shows` it is: a marker's name


@dataclass(frozen=True)
class Mark:
    """A variable `shows` names whose value is a row (a marker that stands below one column of a
    board): the row it names before the moves and after them, drawn as a marker with the box of
    the place that is that row, or is that row's zone (`red.pot` for red)."""

    name: str
    before: Row
    after: Row


def positions(program: Program) -> dict[str, Position]:
    """What each printed example (one with a `says` and a `shows`) shows, before its moves and
    after them, by the example's name: the examples run as `meeple test` runs them. One that
    fails shows nothing (`meeple test` says why). With them, what each shape a grid lays holds
    (a tile's hexes), so that a tile off the board is drawn by what is on it."""
    game = Game(program, "")
    out = {}
    shapes = _shapes(program)
    at = {node: (name, x, y) for name, nodes in program.node_at.items() for node, (x, y) in nodes.items()}
    for example in program.examples:
        decl = example.decl
        if decl.shows and any(m.kind == "says" for m in decl.meta):
            result = run_example(game, example)
            marks = {
                i: e.id
                for i, e in enumerate(decl.shows)
                if isinstance(e, ast.Name) and e.id in program.symbols.vars
            }
            if result.passed:
                out[decl.name] = Position(result.before, result.after, shapes, decl.seat_names, at, marks)
    return out


def _shapes(program: Program) -> Shapes:
    """The rows of each grid's shape table by the shape they are part of (their first column):
    a tile's hexes, as `grid hex of tile_hex` lays them."""
    out: Shapes = {}
    for grid in program.symbols.maps.values():
        if grid.faces is None or grid.grid is None:
            continue
        for face in program.row_by_key.get(grid.faces, {}).values():
            shape = next(iter(face.values.values()), None)
            if isinstance(shape, Row) and "q" in face.values and "r" in face.values:
                out.setdefault((shape.table, shape.key), []).append(face)
    return out


def pictures(position: Position, names: Names) -> list[Picture]:
    """Each shown place before and after, drawn at the same scale (the larger of the two). Places
    that are not maps, shown one after the other, are drawn side by side in one picture, each box
    under its name, as they lie beside each other on the table."""
    out = []
    pairs = list(zip(position.before, position.after, strict=True))
    marks, pairs = _marks(pairs, position.marks, names)
    for group in _grouped(pairs):
        drawer = Drawer(names, position.shapes, position.seats, position.at, marks)
        firsts, lasts = [first for first, _ in group], [last for _, last in group]
        if len(group) > 1:
            both = firsts + lasts
            size = drawer.boxes_size(both)
            title = drawer.group_title(firsts)
            before_svg, after_svg = (
                drawer.boxes(firsts, both, size),
                drawer.boxes(lasts, both, size, after=True),
            )
        else:
            size = drawer.size(firsts + lasts)
            title = first_upper(drawer.title(firsts[0].place))  # "its owner's tray" heads its picture
            before_svg, after_svg = drawer.draw(firsts[0], size), drawer.draw(lasts[0], size)
        width = min(size[2] * SCALE, FULL_PAGE, TALLEST * size[2] / size[3])
        out.append(Picture(title, before_svg, after_svg, width, drawer.key(firsts + lasts)))
    return out


def _marks(
    pairs: list[tuple[Shown, Shown]], marks: dict[int, str], names: Names
) -> tuple[list[Mark], list[tuple[Shown, Shown]]]:
    """The markers among the shown (a variable naming a row of a place shown beside it), and the
    places left to draw. A variable whose rows no shown place is is drawn as the row it names."""
    places = [first.place for i, (first, _) in enumerate(pairs) if i not in marks]
    rows = {row for place in places if (row := _row_of(place)) is not None}
    out, left = [], []
    for i, (first, last) in enumerate(pairs):
        if i in marks and first.place in rows and last.place in rows:
            out.append(Mark(names.decl(marks[i]).one, first.place, last.place))
        else:
            left.append((first, last))
    return out, left


def _row_of(place: Any) -> Row | None:
    """The row a place is, or is the zone of (`red.pot`: red)."""
    if isinstance(place, Row):
        return place
    return place.owner if isinstance(place, ZoneLoc) and isinstance(place.owner, Row) else None


def _grouped(pairs: list[tuple[Shown, Shown]]) -> list[list[tuple[Shown, Shown]]]:
    """The shown places in order, a grid map alone and places in a row together."""
    out: list[list[tuple[Shown, Shown]]] = []
    for pair in pairs:
        boxed = not isinstance(pair[0].place, MapRef)
        if boxed and out and not isinstance(out[-1][0][0].place, MapRef):
            out[-1].append(pair)
        else:
            out.append([pair])
    return out


def printed_width(svg: str) -> float:
    """How wide a picture drawn at SCALE prints, in points (a map's key: its words at the size
    of the map's)."""
    found = re.search(r'width="([0-9.]+)"', svg[: svg.index(">")])
    return float(found[1]) * SCALE if found else FULL_PAGE


def is_colour_code(value: object) -> bool:
    """Whether a cell is a colour for the pictures ("#rrggbb"), not words a player reads."""
    return isinstance(value, str) and _COLOUR.fullmatch(value) is not None


def outline(kind: str, x: float, y: float, hex_radius: float, square_side: float) -> str:
    """The corners of a cell centred on (x, y), as an SVG polygon's points: a pointy-top hex of
    that radius, or a square of that side (the rulebook's pictures and the playtest page)."""
    if kind == "hex":
        angles = [math.radians(60 * i - 30) for i in range(6)]
        points = [(x + hex_radius * math.cos(a), y + hex_radius * math.sin(a)) for a in angles]
    else:
        h = square_side / 2
        points = [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in points)


class Drawer:
    def __init__(
        self,
        names: Names,
        shapes: Shapes | None = None,
        seats: Sequence[str] = (),
        at: Drawn | None = None,
        marks: Sequence[Mark] = (),
    ) -> None:
        self.names = names
        self.shapes = shapes or {}
        self.seats = list(seats)
        self.at = at or {}
        self.marked = list(marks)

    def markers(self, place: Any, after: bool) -> list[str]:
        """The markers in a place's box, before the moves or after them."""
        row = _row_of(place)
        return [m.name for m in self.marked if row is not None and (m.after if after else m.before) == row]

    def seat(self, player: Player) -> str:
        """A seat as the example's words call it ("you", "Jimmy"), or by its own name."""
        return self.seats[player.seat] if player.seat < len(self.seats) else str(player)

    # ------------------------------------------------------------------ words

    def title(self, place: Any) -> str:
        match place:
            case MapRef() | ZoneLoc():
                own = self.names.decl(place.name if isinstance(place, MapRef) else place.zone).one
                return self._owned(own, place.owner)
            case Row():
                return self._row_title(self.names.row(place.table, place.key).one)
            case Cell():
                return f"a {_cell_word(place.map)} of {self.title(place.map)}"
        return str(place)

    def _row_title(self, name: str) -> str:
        """A place that is a row of a table, by its name; a row named as a seat's by that seat's
        name in the game ("upper-left area of Player 1") is named as the example's words call the
        seat ("Your upper-left area"), as a seat's own place is."""
        for seat in range(len(self.seats)):
            default = f" of {Player(seat)}"
            if name.endswith(default):
                return self._owned(name[: -len(default)], Player(seat))
        return name[:1].upper() + name[1:]

    def _owned(self, name: str, owner: Player | Row | None) -> str:
        """A player's place is theirs ("Player 1's tray"); a place of each row of a table is named
        by the row, as a noun before it ("Red pile")."""
        if owner is None:
            return name[:1].upper() + name[1:]
        if isinstance(owner, Row):
            who = self.names.row(owner.table, owner.key).one
            return f"{who[:1].upper()}{who[1:]} {name}"
        who = self.seat(owner)
        if who.lower() == "you":
            return f"Your {name}"
        possessive = "" if who.endswith("s") else "'s"
        return f"{who}{possessive} {name}"

    def group_title(self, shown: Sequence[Shown]) -> str:
        """Places drawn side by side: the zone they all are, in the plural ("Columns"); places of
        several kinds have none, since each box is named in the picture."""
        zones = {s.place.zone for s in shown if isinstance(s.place, ZoneLoc)}
        if len(zones) == 1 and all(isinstance(s.place, ZoneLoc) for s in shown):
            many = self.names.decl(zones.pop()).many
            return many[:1].upper() + many[1:]
        return ""

    def piece(self, piece: Piece, count: int) -> str:
        """A piece by its name, or a shape a grid lays (a tile) by what is on it: its cells'
        faces, with what is printed on each ("sand (spring), water")."""
        kind, owner = piece
        cells = self.shapes.get((kind.row.table, kind.row.key), []) if kind.row is not None else []
        if cells:
            words = ", ".join(self._face(cell) for cell in cells)
            words = f"{count} \u00d7 {words}" if count != 1 else words
        elif kind.row is not None:
            name = self.names.row(kind.row.table, kind.row.key)
            words = name.count_label(count) if count != 1 else name.one
        else:
            name = self.names.decl(kind.name)
            words = name.count(count) if count != 1 else name.one
        if isinstance(owner, Player):
            who = self.seat(owner)
            return f"your {words}" if who.lower() == "you" else f"{words} ({who})"
        return f"{words} ({owner})" if owner is not None else words

    def pieces(self, pieces: list[Piece]) -> list[str]:
        return [self.piece(p, n) for p, n in Counter(pieces).items()]

    def _face(self, cell: Row) -> str:
        what, marks = self.marks(cell)
        said = self.names.row(what.table, what.key).one if what is not None else "?"
        return f"{said}\u00a0({', '.join(marks)})" if marks else said  # kept on one line

    def marks(self, face: Row | None) -> tuple[Row | None, list[str]]:
        """What a cell's face is (the first row of another table it names) and its other marks."""
        if face is None:
            return None, []
        what, marks = None, []
        for column, value in list(face.values.items())[1:]:  # the first: which shape it is part of
            if isinstance(value, Row):
                if what is None:
                    what = value
                else:
                    marks.append(self.names.row(value.table, value.key).one)
            elif value is True:
                marks.append(self.names.key(column).one)
        return what, marks

    def colour(self, what: Row | None) -> str:
        if what is None:
            return "#ffffff"
        own = what.values.get(COLOUR_COLUMN)
        if is_colour_code(own):
            assert isinstance(own, str)
            return own
        return PALETTE[what.index % len(PALETTE)]

    # ------------------------------------------------------------------ layout

    def size(self, shown: Sequence[Shown]) -> tuple[float, float, float, float]:
        """The box every picture of a place fits in: (left, top, width, height)."""
        if all(isinstance(s.place, MapRef) for s in shown):
            geometry = shown[0].place.geometry
            reach = HEX if geometry.kind == "hex" else SQUARE / 2
            points = [_centre(geometry, q, r) for s in shown for q, r, _, _ in s.cells] or [(0.0, 0.0)]
            xs, ys = [x for x, _ in points], [y for _, y in points]
            # labels piled higher than their cell are kept inside the map where it is tall enough
            # (_pile_top); what still reaches past it, the picture holds
            low, high = min(ys) - reach, max(ys) + reach
            over = 0.0
            for s in shown:
                mine = _frame(geometry, s)
                for q, r, face, pieces in s.cells:
                    piled = _piled(self._labels(face, pieces))
                    start = _pile_top(_centre(geometry, q, r)[1], piled, *mine)
                    over = max(over, low - start, start + piled - high)
            left, top = min(xs) - reach - 4 - OVERHANG, min(ys) - reach - 4 - over
            width = max(xs) - min(xs) + 2 * reach + 8 + 2 * OVERHANG
            return left, top, width, max(ys) - min(ys) + 2 * reach + 8 + 2 * over
        lines = max([len(self.pieces(s.pieces)) for s in shown] + [1])
        return 0, 0, BOX_WIDTH, 10 + lines * LINE + 4

    def _lines(self, shown: Shown, chars: int) -> list[list[str]]:
        """Each piece in a box as lines of at most `chars` letters ("empty" for none)."""
        return [
            textwrap.wrap(w, chars, break_long_words=False) or [w]
            for w in self.pieces(shown.pieces) or ["empty"]
        ]

    def _title_lines(self, place: Any, width: float) -> list[str]:
        """A box's name over it, in bold, in lines as wide as the box."""
        chars = max(1, int((width - 4) / (BOLD_LETTER * FONT)))
        title = self.title(place)
        return textwrap.wrap(title, chars, break_long_words=False) or [title]

    def _width(self, same: Sequence[Shown], share: float) -> tuple[float, int, int]:
        """A box's width, the letters a line of it holds and its lines of pieces and markers (the
        most of any moment in `same`): as wide as its words, or a share of a page's width."""
        words = [w for s in same for w in self.pieces(s.pieces)] or ["empty"]
        markers = [self.markers(same[0].place, after) for after in (False, True)]
        wide = [len(w) * LETTER * FONT for w in words]
        wide += [len(m) * BOLD_LETTER * FONT for moment in markers for m in moment]
        width = max(BOX_NARROWEST, min(share, max(wide) + 24))
        chars = max(1, int((width - 24) / (LETTER * FONT)))
        return width, chars, max(sum(map(len, self._lines(s, chars))) for s in same) + max(map(len, markers))

    def _units(self, first: Sequence[Shown]) -> list[list[Shown]]:
        """The places in order: each alone, but the nodes of one map whose rules say where each
        is drawn together, where the first of them comes."""
        units: list[list[Shown]] = []
        boards: dict[str, list[Shown]] = {}
        for f in first:
            drawn = self.at.get(f.place) if isinstance(f.place, Row) else None
            if drawn is None:
                units.append([f])
            elif drawn[0] in boards:
                boards[drawn[0]].append(f)
            else:
                boards[drawn[0]] = [f]
                units.append(boards[drawn[0]])
        return units

    def _board(self, unit: Sequence[Shown], both: Sequence[Shown], share: float) -> list[_Box]:
        """The nodes of one map as its rules draw them: a grid of cells of one width, each row as
        tall as its fullest cell, each cell's name inside it; a node of the map between the shown
        ones is a blank cell, so that the board keeps its shape. Laid from (0, 0)."""
        name = self.at[unit[0].place][0]
        spots = {(x, y): node for node, (m, x, y) in self.at.items() if m == name}
        xs = [self.at[s.place][1] for s in unit]
        ys = [self.at[s.place][2] for s in unit]
        shown = {self.at[s.place][1:]: s for s in unit}
        grid = [(x, y) for y in range(min(ys), max(ys) + 1) for x in range(min(xs), max(xs) + 1)]
        width = BOX_NARROWEST  # every cell's: each as wide as its words, or its name on a line
        for x, y in grid:
            if (x, y) in shown:
                place = shown[x, y].place
                named = len(self.title(place)) * BOLD_LETTER * FONT + 12
                words = self._width([s for s in both if s.place == place], share)[0]
                width = max(width, words, min(share, named))
        cells: list[_Box] = []
        for x, y in grid:
            at = shown.get((x, y))
            if at is None and (x, y) not in spots:
                continue
            place = spots[x, y] if at is None else at.place
            chars, body = 1, 0
            if at is not None:
                _, chars, body = self._width([s for s in both if s.place == place], width)
            head = len(self._title_lines(place, width))
            cells.append(
                _Box(
                    place, (x - min(xs)) * width, y - min(ys), width, chars, head, body, True, at is not None
                )
            )
        tall = {row: max(c.height for c in cells if c.y == row) for row in {c.y for c in cells}}
        tops = {row: sum(tall[r] for r in tall if r < row) for row in tall}
        for c in cells:
            c.y, c.height = tops[c.y], tall[c.y]
        return cells

    def _laid(self, first: Sequence[Shown], both: Sequence[Shown]) -> list[_Box]:
        """Where each place's box lies, before and after alike: side by side, as they lie on the
        table, each as wide as its words or an even share of a page's width, in rows no wider
        than a page; the nodes of a drawn map as its rules draw them (`_board`). The shown
        places' boxes first, in the order of `first`, then the board's blank cells."""
        units = self._units(first)
        board_columns = [len({self.at[s.place][1] for s in u}) for u in units if u[0].place in self.at]
        n = len(units) - len(board_columns) + sum(max(xs, 1) for xs in board_columns)
        share = (FULL_PAGE / SCALE - BOX_GAP * (n - 1)) / n
        laid: list[list[_Box]] = []
        for unit in units:
            if isinstance(unit[0].place, Row) and unit[0].place in self.at:
                laid.append(self._board(unit, both, share))
                continue
            place = unit[0].place
            width, chars, body = self._width([s for s in both if s.place == place], share)
            named = len(self.title(place)) * BOLD_LETTER * FONT + 4
            width = max(width, min(share, named))
            laid.append([_Box(place, 0, 0, width, chars, len(self._title_lines(place, width)), body)])
        # in rows no wider than a page; a name over its box takes as many lines as the longest in its row
        rows: list[list[list[_Box]]] = [[]]
        x = 0.0
        for boxes in laid:
            wide = max(b.x + b.width for b in boxes)
            if x and x + wide > FULL_PAGE / SCALE:
                rows.append([])
                x = 0.0
            for b in boxes:
                b.x += x
            rows[-1].append(boxes)
            x += wide + BOX_GAP
        y = 0.0
        for row in rows:
            head = max([b.head for boxes in row for b in boxes if not b.cell] + [0])
            for b in (b for boxes in row for b in boxes):
                if not b.cell:
                    b.head = head
                    b.height = head * LINE + 14 + b.body * LINE
                b.y += y
            y = max(b.y + b.height for boxes in row for b in boxes) + BOX_GAP
        placed = {b.place: b for boxes in laid for b in boxes if b.shown}
        blank = [b for boxes in laid for b in boxes if not b.shown]
        return [placed[f.place] for f in first] + blank

    def boxes_size(self, both: Sequence[Shown]) -> tuple[float, float, float, float]:
        """The box a picture of places side by side fits in, before and after alike (`both`: the
        places before, then the same places after)."""
        laid = self._laid(both[: len(both) // 2], both)
        # a line's stroke reaches half its width past the box it draws: the picture holds it
        return -1, -1, max(b.x + b.width for b in laid) + 2, max(b.y + b.height for b in laid) + 2

    def boxes(
        self,
        shown: Sequence[Shown],
        both: Sequence[Shown],
        size: tuple[float, float, float, float],
        after: bool = False,
    ) -> str:
        """Places side by side, each a box of its pieces under its name, as they lie on the
        table; laid out over `both` (before and after), so that each box keeps its place in both
        pictures. A thin rule parts two pieces whose words take more than a line. A board's
        cells touch, as its areas do, each with its name inside it; a blank cell is grey."""
        parts: list[str] = []
        laid = self._laid(both[: len(both) // 2], both)
        for b in laid[len(shown) :]:
            parts.append(
                f'<rect x="{b.x:.1f}" y="{b.y:.1f}" width="{b.width:.1f}" height="{b.height:.1f}" '
                'fill="#e4e4e0" stroke="#888"/>'
            )
            parts += self._name(b, "#666")
        for s, b in zip(shown, laid[: len(shown)], strict=True):
            parts += self._name(b, "#1d1d1f")
            held = b.body - max(len(self.markers(s.place, moment)) for moment in (False, True))
            if b.cell:
                top = b.y + b.head * LINE - 4
                parts.insert(
                    0,
                    f'<rect x="{b.x:.1f}" y="{b.y:.1f}" width="{b.width:.1f}" height="{b.height:.1f}" '
                    'fill="#f7f7f4" stroke="#555"/>',
                )
            else:
                top = b.y + b.head * LINE
                parts.append(
                    f'<rect x="{b.x + 1:.1f}" y="{top:.1f}" width="{b.width - 2:.1f}" '
                    f'height="{10 + held * LINE + 2:.1f}" rx="6" fill="#f7f7f4" stroke="#888"/>'
                )
            line, pieces = 0, self._lines(s, b.chars)
            apart = any(len(piece) > 1 for piece in pieces)
            for i, piece in enumerate(pieces):
                if i and apart:
                    rule = top + 7 + line * LINE
                    parts.append(
                        f'<line x1="{b.x + 8:.1f}" x2="{b.x + b.width - 8:.1f}" y1="{rule:.1f}" '
                        f'y2="{rule:.1f}" stroke="#bbb" stroke-width="0.6"/>'
                    )
                for words in piece:
                    parts.append(
                        f'<text x="{b.x + 12:.1f}" y="{top + 21 + line * LINE:.1f}">{_e(words)}</text>'
                    )
                    line += 1
            # a marker (a piece of no place) on a framed label, as a piece on a cell is: in a
            # board's cell under its pieces, else under the box (a column's marker stands below it)
            below = top + 18 + (line if b.cell else held) * LINE
            for k, name in enumerate(self.markers(s.place, after)):
                y = below + k * LINE
                wide = min(len(name) * BOLD_LETTER * FONT + 6, b.width - 6)
                parts.append(
                    f'<rect x="{b.x + 3:.1f}" y="{y:.1f}" width="{wide:.1f}" height="{STEP + 2:.1f}" '
                    f'{LABEL} {LABEL_FRAME}/><text x="{b.x + 6:.1f}" y="{y + FONT:.1f}" font-weight="bold">'
                    f"{_e(name)}</text>"
                )
        return _svg(size, self.group_title(shown) or ", ".join(self.title(s.place) for s in shown), parts)

    def _name(self, box: _Box, colour: str) -> list[str]:
        """A box's name in bold: over it, or inside a board's cell at its top."""
        inset = 6 if box.cell else 4
        top = box.y + (4 if box.cell else 0)
        return [
            f'<text x="{box.x + inset:.1f}" y="{top + FONT + k * LINE:.1f}" font-weight="bold" '
            f'fill="{colour}">{_e(words)}</text>'
            for k, words in enumerate(self._title_lines(box.place, box.width))
        ]

    def _marked(self, shown: Sequence[Shown]) -> bool:
        """Whether some hex carries marks of its own (written in italics, explained below)."""
        return any(self.marks(face)[1] for s in shown for _, _, face, _ in s.cells)

    def _legend(self, shown: Sequence[Shown]) -> list[Row]:
        found = {
            what.index: what for s in shown for _, _, face, _ in s.cells if (what := self.marks(face)[0])
        }
        return [found[i] for i in sorted(found)]

    # ------------------------------------------------------------------ drawing

    def draw(self, shown: Shown, size: tuple[float, float, float, float]) -> str:
        _, _, width, height = size
        parts: list[str] = []
        if isinstance(shown.place, MapRef):
            geometry = shown.place.geometry
            bounds = _frame(geometry, shown)
            cells = [self._cell(geometry, q, r, face, pieces, bounds) for q, r, face, pieces in shown.cells]
            parts += [ground for ground, _ in cells]
            parts += _blocks(geometry, [(q, r) for q, r, _, _ in shown.cells])
            parts += [words for _, words in cells]  # over every cell: a wide label is not covered
        else:
            parts.append(
                f'<rect x="1" y="1" width="{width - 2:.1f}" height="{height - 2:.1f}" rx="6" fill="#f7f7f4" '
                'stroke="#888"/>'
            )
            words = self.pieces(shown.pieces) or ["empty"]
            for i, word in enumerate(words):
                parts.append(f'<text x="12" y="{22 + i * LINE:.1f}">{_e(word)}</text>')
        return _svg(size, self.title(shown.place), parts)

    def key(self, shown: Sequence[Shown]) -> str:
        """The key to a map's pictures, before and after together, printed once under both: the
        colour of each kind of cell either shows, and what bold and italic words on a cell are, in
        rows a page wide. Each entry is as wide as its name, and the words on bold and italics go
        on the last row where they fit there: in a grid of entries of one width, with those words
        on a line of their own, a key of four kinds of cell took two lines, and a book's first
        example missed the room under the rules by less than that line. "" for a place that is
        no map."""
        if not all(isinstance(s.place, MapRef) for s in shown):
            return ""
        entries = [
            (self.colour(what), self.names.row(what.table, what.key).one) for what in self._legend(shown)
        ]
        widest = FULL_PAGE / SCALE - 8
        items = [(LEGEND_SWATCH + _wide(name), name, colour) for colour, name in entries]
        note = ""
        if self._marked(shown):
            note = f"bold: pieces; italics: printed on the {_cell_word(shown[0].place)}"
            items.append((_wide(note), note, ""))
        rows: list[list[tuple[float, str, str]]] = [[]]
        for item in items:
            used = sum(w for w, _, _ in rows[-1]) + LEGEND_GAP * len(rows[-1])
            if rows[-1] and used + item[0] > widest:
                rows.append([])
            rows[-1].append(item)
        parts = []
        for r, row in enumerate(rows):
            x, y = 4.0, 4.0 + LEGEND_ROW * r
            for w, name, colour in row:
                if colour:
                    parts.append(
                        f'<rect x="{x:.1f}" y="{y:.1f}" width="14" height="14" rx="2" fill="{colour}" '
                        f'stroke="#777"/><text x="{x + 19:.1f}" y="{y + 11.5:.1f}">{_e(name)}</text>'
                    )
                else:
                    parts.append(
                        f'<text x="{x:.1f}" y="{y + 11.5:.1f}" fill="#555">'
                        '<tspan font-weight="bold">bold</tspan>: pieces; '
                        '<tspan font-style="italic">italics</tspan>: printed on the '
                        f"{_e(_cell_word(shown[0].place))}</text>"
                    )
                x += w + LEGEND_GAP
        width = max(sum(w for w, _, _ in row) + LEGEND_GAP * (len(row) - 1) for row in rows) + 8
        return _svg((0, 0, width, LEGEND_ROW * len(rows) + 4), "Key", parts)

    def _labels(self, face: Row | None, pieces: list[Piece]) -> list[tuple[list[str], bool]]:
        """The labels on a cell, each as its lines: each kind of piece (True), then each mark."""
        _, marks = self.marks(face)
        own = [(_wrap(p, PIECE_LINE), True) for p in self.pieces(pieces)]
        return own + [(_wrap(m), False) for m in marks]

    def _cell(
        self,
        geometry: Geometry,
        q: int,
        r: int,
        face: Row | None,
        pieces: list[Piece],
        bounds: tuple[float, float],
    ) -> tuple[str, str]:
        """A cell's ground, and the labels of what is on it; `bounds`: the map's top and bottom."""
        x, y = _centre(geometry, q, r)
        corners = outline(geometry.kind, x, y, HEX, SQUARE)
        what, _ = self.marks(face)
        labels = self._labels(face, pieces)
        ground = f'<polygon points="{corners}" fill="{self.colour(what)}" stroke="#555" stroke-width="1"/>'
        out: list[str] = []
        top = _pile_top(y, _piled(labels), *bounds)
        for lines, piece in labels:
            letter = BOLD_LETTER if piece else LETTER
            wide = max(len(w) * letter * FONT for w in lines) + 6
            frame = LABEL_FRAME if piece else ""
            tall = len(lines) * STEP
            out.append(
                f'<rect x="{x - wide / 2:.1f}" y="{top:.1f}" width="{wide:.1f}" height="{tall:.1f}" '
                f"{LABEL} {frame}/>"
            )
            attr = 'font-weight="bold"' if piece else 'font-style="italic" fill="#333"'
            for i, word in enumerate(lines):
                out.append(
                    f'<text x="{x:.1f}" y="{top + i * STEP + FONT * 0.85:.1f}" text-anchor="middle" '
                    f"{attr}>{_e(word)}</text>"
                )
            top += tall + GAP
        return ground, "".join(out)


def _frame(geometry: Geometry, shown: Shown) -> tuple[float, float]:
    """The top and bottom of a picture's map."""
    reach = HEX if geometry.kind == "hex" else SQUARE / 2
    ys = [_centre(geometry, q, r)[1] for q, r, _, _ in shown.cells] or [0.0]
    return min(ys) - reach, max(ys) + reach


def _pile_top(y: float, piled: float, low: float, high: float) -> float:
    """Where a cell's pile of labels starts: centred on the cell at `y`, but moved down or up to
    stay inside the map's frame (`low` to `high`, with a margin) where the map is tall enough. A
    pile taller than a cell on the map's edge stood out above its frame (two pieces' labels in a
    top corner); centred, it covers the cells beside it anyway."""
    margin = 2.0
    top = y - piled / 2
    if piled > high - low - 2 * margin:
        return top
    return min(max(top, low + margin), high - margin - piled)


def _piled(labels: list[tuple[list[str], bool]]) -> float:
    """How tall a cell's labels are, piled one over another."""
    return sum(len(lines) for lines, _ in labels) * STEP + GAP * (len(labels) - 1)


def _svg(size: tuple[float, float, float, float], title: str, parts: list[str]) -> str:
    left, top, width, height = size
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" width="{width:.0f}" '
        f'height="{height:.0f}" font-family="{FONT_FAMILY}" font-size="{FONT}" '
        f'role="img"><title>{_e(title)}</title>' + "".join(parts) + "</svg>"
    )


def _wrap(words: str, line: int = CELL_LINE) -> list[str]:
    """Words on a cell, in lines that fit its width at full size: a piece and its owner that do not
    fit one line are two, the owner's name without parentheses under the piece's ("3 stones" over
    "Player 1"); a single word too long for a line is broken over lines with a hyphen, never
    printed smaller (a long name shrunk to fit printed under the pictures' smallest legible size)."""
    owned = _OWNED.fullmatch(words)
    lines = _cell_lines(words, line)
    if owned and len(lines) > 1:
        return [*_wrap(owned[1], line), *_cell_lines(owned[2], line)]
    return lines


def _cell_lines(words: str, most: int) -> list[str]:
    """Words in lines of at most `most` letters; a longer word in as few hyphenated parts of as
    even a length as it takes ("Tyranno-", "saurus")."""
    out: list[str] = []
    for line in textwrap.wrap(words, most, break_long_words=False) or [words]:
        if len(line) <= most:
            out.append(line)
            continue
        parts = -(-len(line) // (most - 1))  # each part and its hyphen within a line
        size = -(-len(line) // parts)
        pieces = [line[i : i + size] for i in range(0, len(line), size)]
        out += [piece + "-" for piece in pieces[:-1]] + pieces[-1:]
    return out


def _cell_word(grid: MapRef) -> str:
    return "hex" if grid.geometry.kind == "hex" else "square"


def _centre(geometry: Geometry, q: int, r: int) -> tuple[float, float]:
    if geometry.kind == "hex":
        return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r
    return SQUARE * q, SQUARE * r


def _blocks(geometry: Geometry, cells: list[tuple[int, int]]) -> list[str]:
    """The outline of each block some cell of the picture lies in: the tiles of a tile grid."""
    k = geometry.block
    if k == 1:
        return []
    side = SQUARE * k
    out = []
    for x, y in sorted({geometry.block_of(q, r) for q, r in cells}):
        left, top = SQUARE * (x * k) - SQUARE / 2, SQUARE * (y * k) - SQUARE / 2
        out.append(
            f'<rect x="{left:.1f}" y="{top:.1f}" width="{side:.1f}" height="{side:.1f}" '
            'fill="none" stroke="#222" stroke-width="3"/>'
        )
    return out


def _wide(words: str) -> float:
    """How wide words print in a picture, estimated from an average letter."""
    return len(words) * LETTER * FONT


def _e(text: str) -> str:
    return html.escape(text, quote=True)
