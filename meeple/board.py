"""What a picture of a game in play shows of its grid maps: what each cell is, in what colour, and
a place on the board said in words. One definition for every picture of a running game: the
playtest page (`serve/present.py`) and the terminal (`terminal.py`) both draw from it, and it
takes its colours from the rulebook's pictures (`codegen.pictures.Drawer`), so a cell is the
same colour in the printed rules, on the page and at the terminal.

A cell is what its face is made of: the first column of the row laid there that names a row of
another table (a terrain, a ground), said by that row's display name and filled with that row's
`colour` cell, else a colour of a fixed palette (see [grid maps](../docs/language.md)). Nothing
here knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple.codegen.pictures import Drawer
from meeple.interpreter.areas import Area, grown_places
from meeple.interpreter.geometry import HEX, SQUARE_SIDES
from meeple.interpreter.names import Names
from meeple.interpreter.program import Program
from meeple.interpreter.runtime import Said
from meeple.interpreter.values import Cell, PieceRef, Placement, Row, label

# One colour per seat, for the pieces a seat owns (dark enough for white words on them).
SEAT_COLOURS = ("#c0392b", "#1f6fb2", "#2e8b57", "#8e44ad", "#b8860b", "#16a085", "#d35400", "#555f6e")
NEUTRAL = "#6b5a45"  # pieces of nobody


def seat_colour(seat: int | None) -> str:
    """The colour of a seat's pieces (NEUTRAL: nobody's)."""
    return NEUTRAL if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@dataclass(frozen=True)
class Look:
    """What one cell shows: its name (a board's `b2`, a grown grid's `(3,4)`), what it is by its
    display name ("Meadow"; "" where nothing is laid or the face names no other row), the row
    that is (the key a picture's legend is made of) and the colour it is filled with."""

    name: str
    face: str
    what: Row | None
    colour: str


class Looks:
    """The looks of one game's cells (its names are read once)."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.drawer = Drawer(names)

    def what(self, face: Row | None) -> Row | None:
        """What a cell's face is (the row pictures colour it by), or None."""
        what, _ = self.drawer.marks(face)
        return what

    def colour(self, face: Row | None) -> str:
        """The colour a cell with this face (a row laid there, or about to be) is filled with."""
        return self.drawer.colour(self.what(face))

    def said(self, what: Row | None) -> str:
        """What a cell is, by its display name; "" for nothing."""
        return "" if what is None else self.names.row(what.table, what.key).one

    def cell(self, cell: dict[str, Any], face: Row | None) -> Look:
        """A cell of the view (`State.view`'s grids) with the row laid there."""
        what = self.what(face)
        called = cell.get("name") or f"{cell['q']}, {cell['r']}"
        return Look(called, self.said(what), what, self.drawer.colour(what))


def shape_of(program: Program, value: Any) -> tuple[str, list[Row]] | None:
    """What a piece or a row holds when it is a shape a grid lays (a tile, before it is laid):
    the kind of that grid ("hex", "square") and the rows of its shape table that name it in
    their first column (a tile's hexes, as `grid hex of tile_hex` lays them). None for anything
    that is no shape."""
    row = value.piece[0].row if isinstance(value, PieceRef) else value
    if not isinstance(row, Row):
        return None
    for grid in program.symbols.maps.values():
        if grid.faces is None or grid.grid is None:
            continue
        cells = [
            face
            for face in program.row_by_key.get(grid.faces, {}).values()
            if next(iter(face.values.values()), None) is row and "q" in face.values and "r" in face.values
        ]
        if cells:
            return grid.grid, cells
    return None


def faces(state: Any) -> dict[str, dict[tuple[int, int], Row]]:
    """Each grid's laid rows by cell (q, r), as the game stands: what its cells show."""
    out: dict[str, dict[tuple[int, int], Row]] = {}
    for cell, row in state.rt.faces.items():
        out.setdefault(str(cell.map), {})[(cell.q, cell.r)] = row
    return out


# ------------------------------------------------------------------ places in words

# The sides of a cell by the compass, as a player reads a map with north at the top.
_SQUARE_WORDS = dict(zip(SQUARE_SIDES, ("north", "east", "south", "west"), strict=True))
_HEX_WORDS = dict(
    zip(HEX.directions, ("east", "north-east", "north-west", "west", "south-west", "south-east"), strict=True)
)

# A turn in words, by the fraction of a full turn; turns are clockwise (`Geometry.rotate`).
_TURNS = {
    (0, 4): "not turned",
    (1, 4): "turned a quarter right",
    (2, 4): "turned half round",
    (3, 4): "turned a quarter left",
    (0, 6): "not turned",
    (1, 6): "turned a sixth right",
    (2, 6): "turned a third right",
    (3, 6): "turned half round",
    (4, 6): "turned a third left",
    (5, 6): "turned a sixth left",
}


def turn_words(kind: str, degrees: int) -> str:
    """A shape's turn as a player says it: "turned a quarter right" (clockwise), "not turned"."""
    sides = 6 if kind == "hex" else 4
    return _TURNS.get((degrees * sides // 360 % sides, sides), f"turned {degrees}\u00b0")


def beside(kind: str, laid: list[tuple[tuple[int, int], str]], looks: dict[tuple[int, int], Look]) -> str:
    """Where a shape laid on some cells (each with what it would put there) lies, said by what
    it would touch: "north of Town and Meadow (Town against Town, Meadow against
    Meadow)". Each side of the shape that touches cells already there is named by the compass
    (from those cells to the shape) and by what they are (their names, where they are nothing),
    and each contact by what meets what, as a player checks that edges match. "" when it
    touches nothing."""
    steps = _HEX_WORDS if kind == "hex" else _SQUARE_WORDS
    mine = {cell for cell, _ in laid}
    touching: dict[str, list[tuple[tuple[int, int], str, str]]] = {}
    for (q, r), new in laid:
        for (dq, dr), word in steps.items():
            other = (q - dq, r - dr)
            look = looks.get(other)
            if other not in mine and look is not None:
                touching.setdefault(word, []).append((other, new, look.face or look.name))
    said = []
    for word, contacts in touching.items():
        contacts.sort(key=lambda contact: (contact[0][1], contact[0][0]))  # west to east, north to south
        olds = list(dict.fromkeys(old for _, _, old in contacts))
        pairs = ", ".join(f"{new} against {old}" for _, new, old in contacts if new)
        said.append(f"{word} of {_and(olds)}" + (f" ({pairs})" if pairs else ""))
    return ", ".join(said)


def lay_words(
    looks: Looks, kind: str, lay: dict[str, Any], value: Any, cells: dict[tuple[int, int], Look]
) -> str:
    """An option that lays a shape (its place's `lay`: cells and turn; `value`, the placement) in
    words, as a player checks that sides match: its turn, then what it would touch among the
    grid's `cells` ("turned half round, north of Town (Town against Town)")."""
    rows = getattr(value, "rows", [])
    laid = [
        ((q, r), looks.said(looks.what(rows[i])) if i < len(rows) else "")
        for i, (q, r) in enumerate(lay["cells"])
    ]
    return ", ".join(x for x in (turn_words(kind, lay["turn"]), beside(kind, laid, cells)) if x)


def say_place(looks: Looks, line: Said) -> str:
    """A log line whose answer is a place on a grid that grows, as a player reads it: the place
    said by what it touched when it was chosen, as the terminal says an option ("turned a
    quarter right, west of Water (Meadow against Water)"; a cell or an area by what it shows and
    touches: "Meadow (north of Water)"), instead of the coordinates and degrees the game's
    record keeps ("(1,0) turned 90°", "Meadow at (6,6)")."""
    value = line.value
    around = {at: Look("a cell", looks.said(looks.what(face)), None, "") for at, face in line.around.items()}
    text = str(line)
    for said in value if isinstance(value, list) else [value]:  # a `log` line's places: a list
        if type(said) is Placement:
            text = text.replace(label(said), _laid_words(looks, said, around), 1)
            continue
        for place in grown_places(said):
            text = text.replace(label(place), _place_words(place, around))  # "back to" it too
    return text


def _laid_words(looks: Looks, placement: Placement, around: dict[tuple[int, int], Look]) -> str:
    """A shape laid by its turn and what it touched: "turned a quarter right, west of Water
    (Meadow against Water)"."""
    kind = placement.map.geometry.kind
    rows = zip(placement.coords, placement.rows, strict=False)
    laid = [(at, looks.said(looks.what(row))) for at, row in rows]
    said = [turn_words(kind, placement.map.geometry.degrees(placement.rotation)), beside(kind, laid, around)]
    return ", ".join(x for x in said if x)


def _place_words(place: Cell | Area, around: dict[tuple[int, int], Look]) -> str:
    """A cell or an area of a grid that grows by what it shows and what it touches: "Meadow
    (north of Water and Town, west of Field)"."""
    cells = place.cells if isinstance(place, Area) else [place]
    mine = [(c.q, c.r) for c in cells]
    if isinstance(place, Area):
        what = label(place.value)
    else:
        own = around.get(mine[0])
        what = own.face if own is not None and own.face else "the cell"
    others = {at: look for at, look in around.items() if at not in mine}
    touches = beside(cells[0].map.geometry.kind, [(at, "") for at in mine], others)
    return f"{what} ({touches})" if touches else what


def kept_by_rules(decl: Any) -> bool:
    """Whether the rules keep a value for themselves (`bookkeeping`: a step's progress, dice kept
    between steps): no picture of the game shows it to players."""
    return decl is not None and bool(getattr(decl, "bookkeeping", False))


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def dark(colour: str) -> bool:
    """Whether a "#rrggbb" colour is dark enough that words on it are written in white."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue < 110
