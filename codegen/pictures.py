"""Pictures of a worked example's position: the grid maps and places its `shows` line names,
drawn as SVG before the example's moves and after them.

A rulebook's worked example shows the board; a list of coordinates would not. The position is
the one the example itself builds and plays (interpreter/examples.py runs it: the picture cannot
differ from what the rules do), and it is drawn with the names players read (names.py):

- a grid map as its cells (pointy-top hexes, or squares with each block of a grid of blocks
  outlined: a tile), each filled with the colour of what its face is (the first column of the
  placed row that names a row of another table: a terrain), the pieces on it in bold and that
  row's other marks (an icon, a yes column) in italics, with a legend;
- any other place (a zone, a row that holds pieces, a cell) as a box of its pieces, counted.

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
from dataclasses import dataclass
from typing import Any

from meeple.interpreter.engine import Game
from meeple.interpreter.examples import Shown, run_example
from meeple.interpreter.geometry import Geometry
from meeple.interpreter.names import Names
from meeple.interpreter.program import Program
from meeple.interpreter.values import Cell, MapRef, Piece, Player, Row, ZoneLoc

HEX = 34.0  # a hex's radius, in the picture's units
SQUARE = 60.0  # a square cell's side
# Words on a cell stand on a pale label of their own, so that they read on a dark ground as on a
# light one at print size (an outline around each letter did not: it printed as white outlined
# text); each kind of piece has its own label, framed, and what is printed on the cell its own,
# unframed, so that two players' pieces on one cell, and a piece and a mark, are told apart.
LABEL = 'fill="#ffffff" fill-opacity="0.88" rx="3"'
LABEL_FRAME = 'stroke="#444" stroke-width="0.6"'
LETTER = 0.5  # the width of an average letter, in font sizes: a label's width is estimated from it
LEGEND_ENTRY = 95.0  # the width a legend entry needs: its swatch and a name
CELL_LINE = 11  # letters a line of words on a cell holds at full size
FONT = 11.0
FONT_FAMILY = "Libertinus Serif, Georgia, serif"
BOX_WIDTH = 200.0
LINE = FONT + 8  # a box's lines, baseline to baseline
SCALE = 0.8  # points a unit of the picture prints at: its words at about 9 pt
HALF_PAGE = 230.0  # points: a picture this narrow is printed beside its other half
FULL_PAGE = 460.0  # points: a wider one above it, at most this wide
TALLEST = 250.0  # points: a picture at most this tall, so that before, after and the words fit one page
PALETTE = ("#cfe3c6", "#f1dfb0", "#c7dcef", "#e7cbe0", "#d9d2c5", "#f3c9b8", "#d0e7e4", "#e9e6a8")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
COLOUR_COLUMN = "colour"  # a table's column of colours for pictures: not printed as data


@dataclass
class Picture:
    """One place drawn twice: before the example's moves and after them."""

    title: str
    before: str
    after: str
    width: float  # in points, as printed: the pictures' units at SCALE, at most a page wide and TALLEST tall

    @property
    def side_by_side(self) -> bool:
        """Before beside after, or (a wide picture) before above after."""
        return self.width <= HALF_PAGE


def positions(program: Program) -> dict[str, tuple[list[Shown], list[Shown]]]:
    """What each printed example (one with a `says` and a `shows`) shows, before its moves and
    after them, by the example's name: the examples run as `meeple test` runs them. One that
    fails shows nothing (`meeple test` says why)."""
    game = Game(program, "")
    out = {}
    for example in program.examples:
        decl = example.decl
        if decl.shows and any(m.kind == "says" for m in decl.meta):
            result = run_example(game, example)
            if result.passed:
                out[decl.name] = (result.before, result.after)
    return out


def pictures(before: Sequence[Shown], after: Sequence[Shown], names: Names) -> list[Picture]:
    """Each shown place before and after, drawn at the same scale (the larger of the two)."""
    out = []
    for first, last in zip(before, after, strict=True):
        drawer = Drawer(names)
        size = drawer.size([first, last])
        width = min(size[2] * SCALE, FULL_PAGE, TALLEST * size[2] / size[3])
        out.append(
            Picture(drawer.title(first.place), drawer.draw(first, size), drawer.draw(last, size), width)
        )
    return out


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
    def __init__(self, names: Names) -> None:
        self.names = names

    # ------------------------------------------------------------------ words

    def title(self, place: Any) -> str:
        match place:
            case MapRef() | ZoneLoc():
                own = self.names.decl(place.name if isinstance(place, MapRef) else place.zone).one
                return self._owned(own, place.owner)
            case Row():
                name = self.names.row(place.table, place.key).one
                return name[:1].upper() + name[1:]
            case Cell():
                return f"a {_cell_word(place.map)} of {self.title(place.map)}"
        return str(place)

    def _owned(self, name: str, owner: Player | Row | None) -> str:
        if owner is None:
            return name[:1].upper() + name[1:]
        who = str(owner) if isinstance(owner, Player) else self.names.row(owner.table, owner.key).one
        possessive = "" if who.endswith("s") else "'s"
        return f"{who}{possessive} {name}"

    def piece(self, piece: Piece, count: int) -> str:
        kind, owner = piece
        if kind.row is not None:
            name = self.names.row(kind.row.table, kind.row.key)
            words = name.count_label(count) if count != 1 else name.one
        else:
            name = self.names.decl(kind.name)
            words = name.count(count) if count != 1 else name.one
        return f"{words} ({owner})" if owner is not None else words

    def pieces(self, pieces: list[Piece]) -> list[str]:
        return [self.piece(p, n) for p, n in Counter(pieces).items()]

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
            left, top = min(xs) - reach - 4, min(ys) - reach - 4
            width = max(xs) - min(xs) + 2 * reach + 8
            rows = math.ceil(len(self._legend(shown)) / _columns(width))
            legend = 22 * rows + (18 if self._marked(shown) else 0)
            return left, top, width, max(ys) - min(ys) + 2 * reach + 8 + legend
        lines = max([len(self.pieces(s.pieces)) for s in shown] + [1])
        return 0, 0, BOX_WIDTH, 10 + lines * LINE + 4

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
        left, top, width, height = size
        parts: list[str] = []
        if isinstance(shown.place, MapRef):
            geometry = shown.place.geometry
            for q, r, face, pieces in shown.cells:
                parts.append(self._cell(geometry, q, r, face, pieces))
            parts += _blocks(geometry, [(q, r) for q, r, _, _ in shown.cells])
            marked = 18 if self._marked([shown]) else 0
            columns = _columns(width)
            y = top + height - 22 * math.ceil(len(self._legend([shown])) / columns) - marked + 4
            if marked:
                parts.append(
                    f'<text x="{left + 4:.1f}" y="{top + height - 6:.1f}" fill="#555">'
                    '<tspan font-weight="bold">bold</tspan>: pieces; '
                    '<tspan font-style="italic">italics</tspan>: printed on the '
                    f"{_cell_word(shown.place)}</text>"
                )
            for i, what in enumerate(self._legend([shown])):
                x, row = left + 4 + (i % columns) * (width / columns), y + 22 * (i // columns)
                parts.append(
                    f'<rect x="{x:.1f}" y="{row:.1f}" width="14" height="14" rx="2" '
                    f'fill="{self.colour(what)}" stroke="#777"/><text x="{x + 19:.1f}" y="{row + 11.5:.1f}">'
                    f"{_e(self.names.row(what.table, what.key).one)}</text>"
                )
        else:
            parts.append(
                f'<rect x="1" y="1" width="{width - 2:.1f}" height="{height - 2:.1f}" rx="6" fill="#f7f7f4" '
                'stroke="#888"/>'
            )
            words = self.pieces(shown.pieces) or ["empty"]
            for i, word in enumerate(words):
                parts.append(f'<text x="12" y="{22 + i * LINE:.1f}">{_e(word)}</text>')
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" width="{width:.0f}" '
            f'height="{height:.0f}" font-family="{FONT_FAMILY}" font-size="{FONT}" '
            f'role="img"><title>{_e(self.title(shown.place))}</title>' + "".join(parts) + "</svg>"
        )

    def _cell(self, geometry: Geometry, q: int, r: int, face: Row | None, pieces: list[Piece]) -> str:
        x, y = _centre(geometry, q, r)
        corners = outline(geometry.kind, x, y, HEX, SQUARE)
        what, marks = self.marks(face)
        labels = [(_wrap(p), True) for p in self.pieces(pieces)] + [(_wrap(m), False) for m in marks]
        out = [f'<polygon points="{corners}" fill="{self.colour(what)}" stroke="#555" stroke-width="1"/>']
        step = FONT + 1  # baseline to baseline
        gap = 3.0  # between two labels
        height = sum(len(lines) for lines, _ in labels) * step + gap * (len(labels) - 1)
        top = y - height / 2
        for lines, piece in labels:
            sizes = [FONT if len(w) <= CELL_LINE else FONT * CELL_LINE / len(w) for w in lines]
            wide = max(len(w) * LETTER * size for w, size in zip(lines, sizes, strict=True)) + 6
            frame = LABEL_FRAME if piece else ""
            tall = len(lines) * step
            out.append(
                f'<rect x="{x - wide / 2:.1f}" y="{top:.1f}" width="{wide:.1f}" height="{tall:.1f}" '
                f"{LABEL} {frame}/>"
            )
            attr = 'font-weight="bold"' if piece else 'font-style="italic" fill="#333"'
            for i, (word, size) in enumerate(zip(lines, sizes, strict=True)):
                out.append(
                    f'<text x="{x:.1f}" y="{top + i * step + FONT * 0.85:.1f}" text-anchor="middle" '
                    f'font-size="{size:.1f}" {attr}>{_e(word)}</text>'
                )
            top += tall + gap
        return "".join(out)


def _wrap(words: str) -> list[str]:
    """Words on a cell, in lines that fit its width at full size ("3 stones (Player 1)" on two):
    only a single word too long for a line is printed smaller."""
    return textwrap.wrap(words, CELL_LINE, break_long_words=False) or [words]


def _columns(width: float) -> int:
    """How many legend entries a row of the legend holds: three, or fewer on a narrow picture."""
    return max(1, min(3, int(width // LEGEND_ENTRY)))


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


def _e(text: str) -> str:
    return html.escape(text, quote=True)
