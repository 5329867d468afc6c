"""Every attribute the language gives a kind of value (`route.steps`, `cell.q`, `piece.owner`...),
defined once: its name, the type of its answer (from the owner's type), how a running game
computes it, and its line for the editors' hover and completion.

Analysis reads the types (`Analyzer.attr_type`), the compiler the getters (`Expressions.attr`),
the language server the names and lines (`meeple/lsp_index.py`). What the rules declare (a
player's or a row's variables and zones, a table's columns) is not here: those are the game's
own names, found in its symbols.

Some values answer for another beside their own attributes (`further`): a piece made from a table
for its row, a grid cell for the row its face shows, an area for its first place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.interpreter import areas, grids
from meeple.interpreter import types as ty
from meeple.interpreter import values as v

if TYPE_CHECKING:
    from meeple.interpreter.analysis import Symbols

Result = Callable[[Any, "Symbols"], ty.Type]  # (the owner's type, the symbols) -> the answer's type
Getter = Callable[[Any, Any], Any]  # (the runtime, the value) -> the answer


@dataclass(frozen=True)
class Attribute:
    """One attribute of a kind of value."""

    name: str
    doc: str  # what it is, in a line: the editors' hover and completion
    result: Result
    get: Getter


@dataclass(frozen=True)
class Owner:
    """A kind of value that has attributes: its type (`of`), the class of its values in a running game,
    what it is called in "... has no 'x'", and its attributes. `further` is the type whose
    attributes it answers for beyond its own (None: it has only its own, and another name is an
    error)."""

    of: type[ty.Type]
    value: type
    what: str
    attributes: dict[str, Attribute] = field(default_factory=dict)
    further: Callable[[Any, Symbols], ty.Type] | None = None


def _owner(
    type_: type[ty.Type],
    value: type,
    what: str,
    attributes: list[Attribute],
    further: Callable[[Any, Symbols], ty.Type] | None = None,
) -> Owner:
    return Owner(type_, value, what, {a.name: a for a in attributes}, further)


def _faces(symbols: Symbols, grid: str) -> str | None:
    """The table a grid's cells show (`grid hex of TABLE`), if any."""
    m = symbols.maps.get(grid)
    return m.faces if m is not None else None


def _face_row(symbols: Symbols, grid: str) -> ty.Type:
    faces = _faces(symbols, grid)
    return ty.Row(faces) if faces else ty.ANY


def _rows_of(symbols: Symbols, kind: str) -> str | None:
    """The table a kind of piece is made from (`each row of`, `per row of`), if any."""
    decl = symbols.pieces.get(kind)
    return decl.each_row_of or decl.per_row_of if decl is not None else None


def _piece_row(piece: ty.Piece, symbols: Symbols) -> ty.Type:
    rows = _rows_of(symbols, piece.kind)
    return ty.Row(rows) if rows in symbols.tables else ty.ANY


def _place(owner: ty.Area | ty.Route) -> ty.Type:
    return owner.place if owner.place is not None else ty.ANY


def _grid_of(place: ty.Type) -> str:
    return place.grid if isinstance(place, ty.Cell) else ""


def _cell_read(rt: Any, cell: v.Cell) -> None:
    """What a cell holds changes as shapes are laid: a memo that asked depends on the cell."""
    if rt.reads is not None:
        rt.reads.add(cell)


def _placed(rt: Any, cell: v.Cell) -> Any:
    _cell_read(rt, cell)
    stack = rt.layers.get(cell)
    return stack[-1] if stack else None


def face(rt: Any, cell: v.Cell) -> Any:
    """The row a cell shows (read: what a cell shows changes as shapes are laid)."""
    _cell_read(rt, cell)
    return rt.faces[cell]


def placement_attr(rt: Any, spot: v.Placement, name: str) -> Any:
    """An attribute of a placement, laid or not. `under` is the layer it lies on at its first
    cell (for one not laid, the layer it would lie on): none where there is nothing below."""
    if name == "x" or name == "y":
        return spot.block[0 if name == "x" else 1]
    if name == "turns":
        return spot.rotation
    if name == "shape":
        return list(spot.rows)
    grid = grids.grid_of(rt, spot.map)
    if name == "cells":
        return [grid[c] for c in spot.coords if c in grid]
    first = grid.get(spot.coords[0])
    stack = rt.layers.get(first, []) if first is not None else []
    if spot in stack:
        below = stack.index(spot)
        return stack[below - 1] if below > 0 else None
    return stack[-1] if stack else None


def _of_placement(name: str) -> Getter:
    return lambda rt, spot: placement_attr(rt, spot, name)


def _of_area(name: str) -> Getter:
    return lambda rt, area: areas.attribute(rt, area, name)


OWNERS: tuple[Owner, ...] = (
    _owner(
        ty.Piece,
        v.PieceRef,
        "a piece",
        [
            Attribute(
                "owner", "the player who owns the piece", lambda o, s: ty.PLAYER, lambda rt, p: p.piece[1]
            ),
            Attribute(
                "kind", "the piece's kind, by name", lambda o, s: ty.TEXT, lambda rt, p: p.piece[0].name
            ),
            Attribute("location", "the place the piece is in", lambda o, s: ty.LOC, lambda rt, p: p.loc),
            Attribute(
                "row",
                "the row of its table a piece made from a table is",
                lambda o, s: ty.Row(rows) if (rows := _rows_of(s, o.kind)) else ty.ANY,
                lambda rt, p: p.piece[0].row,
            ),
        ],
        _piece_row,
    ),
    _owner(
        ty.Cell,
        v.Cell,
        "a cell",
        [
            Attribute("q", "the cell's column", lambda o, s: ty.INT, lambda rt, c: c.q),
            Attribute("r", "the cell's row", lambda o, s: ty.INT, lambda rt, c: c.r),
            Attribute(
                "map", "the grid map the cell is on", lambda o, s: ty.Grid(o.grid), lambda rt, c: c.map
            ),
            Attribute(
                "placed", "the shape laid on top of the cell", lambda o, s: ty.Placement(o.grid), _placed
            ),
            Attribute("face", "the row the cell shows", lambda o, s: _face_row(s, o.grid), face),
        ],
        lambda o, s: _face_row(s, o.grid) if _faces(s, o.grid) in s.tables else ty.ANY,
    ),
    _owner(
        ty.Area,
        areas.Area,
        "an area",
        [
            Attribute("cells", "the area's places", lambda o, s: ty.ListOf(_place(o)), _of_area("cells")),
            Attribute("first", "the area's first place", lambda o, s: _place(o), _of_area("first")),
            Attribute(
                "blocks",
                "the shapes on top of the area's cells",
                lambda o, s: ty.ListOf(ty.Placement(g) if (g := _grid_of(_place(o))) else ty.ANY),
                _of_area("blocks"),
            ),
            Attribute(
                "gaps",
                "the places beside the area that hold no cell, as [x, y]",
                lambda o, s: ty.ListOf(ty.ListOf(ty.INT)),
                _of_area("gaps"),
            ),
        ],
        lambda o, s: _place(o),
    ),
    _owner(
        ty.Route,
        v.Route,
        "a route",
        [
            Attribute(
                "start", "the place the route starts on", lambda o, s: _place(o), lambda rt, r: r.start
            ),
            Attribute("end", "the place the route ends on", lambda o, s: _place(o), lambda rt, r: r.end),
            Attribute(
                "passed",
                "the places between its start and end, each once",
                lambda o, s: ty.ListOf(_place(o)),
                lambda rt, r: r.passed,
            ),
            Attribute(
                "path",
                "every place the route enters",
                lambda o, s: ty.ListOf(_place(o)),
                lambda rt, r: r.path,
            ),
            Attribute(
                "steps", "how many steps the route takes", lambda o, s: ty.INT, lambda rt, r: len(r.path)
            ),
        ],
    ),
    _owner(
        ty.Placement,
        v.Placement,
        "a placement",
        [
            Attribute(
                "cells",
                "the cells the shape covers",
                lambda o, s: ty.ListOf(ty.Cell(o.grid) if o.grid else ty.ANY),
                _of_placement("cells"),
            ),
            Attribute("x", "the block's column", lambda o, s: ty.INT, _of_placement("x")),
            Attribute("y", "the block's row", lambda o, s: ty.INT, _of_placement("y")),
            Attribute(
                "turns", "how many times the shape is turned", lambda o, s: ty.INT, _of_placement("turns")
            ),
            Attribute(
                "shape",
                "the shape's rows",
                lambda o, s: (
                    ty.ListOf(f) if isinstance(f := _face_row(s, o.grid), ty.Row) else ty.ListOf(ty.ANY)
                ),
                _of_placement("shape"),
            ),
            Attribute("under", "the shape it lies on", lambda o, s: o, _of_placement("under")),
        ],
    ),
    _owner(
        ty.Border,
        v.Border,
        "a border",
        [
            Attribute(
                "new",
                "the row the shape puts on one side",
                lambda o, s: _face_row(s, o.grid),
                lambda rt, b: b.new,
            ),
            Attribute(
                "old",
                "the cell on the other side",
                lambda o, s: ty.Cell(o.grid) if o.grid else ty.ANY,
                lambda rt, b: b.old,
            ),
        ],
    ),
)

BY_TYPE: dict[type[ty.Type], Owner] = {owner.of: owner for owner in OWNERS}
BY_VALUE: dict[type, Owner] = {owner.value: owner for owner in OWNERS}

# The zone's one attribute and the player's own (beside what the rules declare per player).
ZONE_OWNER = Attribute("owner", "the zone's owner", lambda o, s: ty.ANY, lambda rt, z: z.owner)
SEAT = Attribute("seat", "the player's seat, from 0", lambda o, s: ty.INT, lambda rt, p: p.seat)


def getters(name: str) -> dict[type, Getter]:
    """How a running game answers `x.NAME`, by the class of x: for each kind of value that has
    an attribute of that name."""
    found = {owner.value: owner.attributes[name].get for owner in OWNERS if name in owner.attributes}
    if name == ZONE_OWNER.name:
        found[v.ZoneLoc] = ZONE_OWNER.get
    return found
