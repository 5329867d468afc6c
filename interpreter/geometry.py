"""What a kind of grid is: the directions of its sides and corners, and how a shape turns on it.

Every grid question (the neighbours of a cell, where a shape may go, the routes of a movement, the
areas of like cells) asks its map's geometry rather than assuming hexes, so a grid kind is added
here, in one place. A square grid may be laid in blocks (`grid square blocks 2`): shapes then go
on whole K x K blocks, as square tiles of K x K cells do, and turn about the block's centre.
"""

from __future__ import annotations

from dataclasses import dataclass

Offset = tuple[int, int]


@dataclass(frozen=True)
class Geometry:
    """One kind of grid. Coordinates are (q, r); on a square grid q grows eastwards and r
    southwards, as a printed map is read."""

    kind: str  # the word the rules use: "hex" or "square"
    directions: tuple[Offset, ...]  # the cells sharing a side, in a fixed order
    corners: tuple[Offset, ...]  # the cells meeting at a corner only (none on hexes)
    turns: int  # the turns that make a full circle
    block: int = 1  # the side of a block: shapes are laid on whole blocks

    def rotate(self, q: int, r: int, turns: int) -> Offset:
        """(q, r) turned `turns` times. Hexes turn about the origin by sixths, (q, r) -> (-r, q + r);
        squares clockwise by quarters about the centre of the block at the origin, (q, r) ->
        (K - 1 - r, q), which keeps a block's cells in the block (and is (-r, q) when K is 1)."""
        for _ in range(turns % self.turns):
            q, r = (-r, q + r) if self.kind == "hex" else (self.block - 1 - r, q)
        return q, r

    def block_of(self, q: int, r: int) -> Offset:
        """The block a cell lies in (the cell itself on a grid without blocks)."""
        return q // self.block, r // self.block

    def degrees(self, turns: int) -> int:
        return turns * 360 // self.turns


# Axial coordinates, pointy-top; the six directions in a fixed order: E, NE, NW, W, SW, SE.
HEX = Geometry("hex", ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)), (), 6)

# North, east, south, west; then the corners north-east, south-east, south-west, north-west.
SQUARE_SIDES: tuple[Offset, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
SQUARE_CORNERS: tuple[Offset, ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def board(kind: str, outline: str, sizes: list[int]) -> list[Offset]:
    """The cells of a board given by its size, in reading order (north to south, then west to
    east): `COLUMNS by ROWS` from (0, 0), which on hexes is a rhombus leaning as axial rows do
    (each row half a cell east of the one above: a Hex board); or, on hexes, a `hexagon` of N
    cells a side centred on (0, 0)."""
    if outline == "hexagon":
        reach = sizes[0] - 1
        return [
            (q, r)
            for r in range(-reach, reach + 1)
            for q in range(max(-reach, -r - reach), min(reach, -r + reach) + 1)
        ]
    columns, rows = sizes
    return [(q, r) for r in range(rows) for q in range(columns)]


def board_cells(outline: str, sizes: list[int]) -> int:
    """How many cells `board` would make, without making them: a hostile size may ask for
    billions, and is refused by this count first."""
    if outline == "hexagon":
        return 3 * sizes[0] * (sizes[0] - 1) + 1
    return sizes[0] * sizes[1]


def cell_names(cells: list[Offset]) -> dict[Offset, str]:
    """How a player names the cells of a board: a column letter and a row number, as on a chess
    or Hex board, counted from the board's north-west (a, b, ... z, aa, ab ...; 1, 2, ...)."""
    west = min(q for q, _ in cells)
    north = min(r for _, r in cells)
    return {(q, r): f"{column_letters(q - west)}{r - north + 1}" for q, r in cells}


def column_letters(n: int) -> str:
    """The letters of the n-th column from the west, counted from 0: a, b, ... z, aa, ab ..."""
    word = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        word = chr(ord("a") + rest) + word
    return word


def geometry(kind: str, block: int = 1) -> Geometry:
    """The geometry a map declaration names (`grid hex`, `grid square blocks 2`)."""
    if kind == "hex":
        return HEX
    return Geometry("square", SQUARE_SIDES, SQUARE_CORNERS, 4, block)
