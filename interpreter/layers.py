"""Laying a shape on a grid, lifting it off and shifting the grid: the one place a grid's cells,
the layers on each cell and what each cell shows change (`place`, `lift`, `shift`, and
`as_if_laid`, which lays a shape for a moment to ask a question and lifts it again); and the other
supposition of a position, `as_if_moved`, which moves pieces for a moment to ask a question and
puts them back.

A layer is the placement it was laid at: the same spot laid twice is two layers. A cell shows the
row its top layer puts there (`Runtime.faces`); lifting the top layer shows the one under it, and
a cell with no layer left goes, which it may only do empty, so pieces are never lost with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from meeple.interpreter import grids
from meeple.interpreter.grids import ShapeError
from meeple.interpreter.runtime import VOLATILE
from meeple.interpreter.values import Cell, MapRef, Piece, PieceRef, Placement, Row


def lay(
    rt: Any, mapref: MapRef, coords: list[tuple[int, int]], rows: list[Row], turns: int, over: bool
) -> Placement:
    """Lay rows on cells: new cells, or (`over`) a layer on cells that are all there."""
    grid = grids.grid_of(rt, mapref)
    there = [c in grid for c in coords]
    if over and not all(there):
        raise ShapeError(f"a layer is laid over cells of {mapref} that are there, and some are not")
    if not over and any(there):
        raise ShapeError(f"the shape would cover cells of {mapref} already there")
    layer = Placement(mapref, list(coords), rows, turns)
    for (q, r), row in zip(coords, rows, strict=True):
        cell = grid.get((q, r))
        if cell is None:
            cell = grid[(q, r)] = Cell(mapref, q, r)
            rt.locs[cell] = []
            rt.layers[cell] = []
        rt.layers[cell].append(layer)
        rt.faces[cell] = row
        rt.changed(cell)
    rt.reshaped(mapref)
    return layer


def lift(rt: Any, layer: Placement) -> None:
    """Take the top layer off (refused, changing nothing, if it is not on top everywhere, or if a
    cell it alone holds up has pieces on it)."""
    grid = grids.grid_of(rt, layer.map)
    cells = [grid.get(c) for c in layer.coords]
    for cell in cells:
        stack = rt.layers.get(cell) if cell is not None else None
        if not stack or stack[-1] is not layer:
            raise ShapeError(f"{layer} is not the top layer of {layer.map} there")
        if len(stack) == 1 and rt.locs.get(cell):
            raise ShapeError(f"nothing would be left under the pieces at {cell}: move them first")
    for cell in cells:
        assert cell is not None
        _take_off(rt, grid, cell)
        rt.changed(cell)
    rt.reshaped(layer.map)


def _take_off(rt: Any, grid: dict[tuple[int, int], Cell], cell: Cell) -> None:
    """Take a cell's top layer off: it shows the layer under it again, or goes with none left."""
    stack = rt.layers[cell]
    stack.pop()
    if stack:
        below = stack[-1]
        rt.faces[cell] = below.rows[below.coords.index((cell.q, cell.r))]
    else:
        del grid[(cell.q, cell.r)], rt.faces[cell], rt.layers[cell], rt.locs[cell]


def shift(rt: Any, mapref: MapRef, dq: int, dr: int) -> None:
    """Move every cell of a growing grid by (dq, dr), in the grid's units (blocks, on a grid laid
    in blocks, so that its shapes still lie on whole blocks), as one slides a map across the table
    to make room on one side. The cells, the layers and the pieces stay the same objects, each at
    its new place: whatever the rules hold of them (a layer in a variable, pieces on a cell) holds
    still. A board given by its size has its cells where they are, and cannot shift."""
    if mapref.board is not None:
        raise ShapeError(f"{mapref} is a board given by its size: its cells cannot shift")
    if type(dq) is not int or type(dr) is not int:
        raise ShapeError(f"{mapref} shifts by whole numbers, not {dq}, {dr}")
    block = mapref.geometry.block
    dq, dr = dq * block, dr * block
    grid = grids.grid_of(rt, mapref)
    moved: dict[int, Placement] = {}
    for cell in grid.values():
        for layer in rt.layers.get(cell, []):
            moved.setdefault(id(layer), layer)
    for layer in moved.values():
        layer.coords = [(q + dq, r + dr) for q, r in layer.coords]
    cells = list(grid.values())
    grid.clear()
    for cell in cells:
        cell.q, cell.r = cell.q + dq, cell.r + dr
        cell.name = f"({cell.q},{cell.r})"
        grid[(cell.q, cell.r)] = cell
    rt.reshaped(mapref)
    rt.forget()  # every answer that read a cell's coordinates, wherever it read them


class NotThere(Exception):
    """A piece a supposition would move is not where its reference says."""


@contextmanager
def _apart(rt: Any) -> Iterator[None]:
    """A question about a position that never happens, for as long as the block runs.

    Answers computed meanwhile go to a memo of their own, thrown away after, and the value that
    asked is marked VOLATILE, so that it and what is built on it are kept only while the real
    position lasts (memo.py). The block puts the position back as it was, so what was kept before
    is good again."""
    if rt.reads is not None:
        rt.reads.add(VOLATILE)
    kept = rt.memo, rt.readers, rt.areas, rt.position
    rt.memo, rt.readers, rt.areas = {}, {}, {}
    rt.supposing += 1
    try:
        yield
    finally:
        rt.memo, rt.readers, rt.areas, rt.position = kept
        rt.supposing -= 1


@contextmanager
def supposing(rt: Any, spot: Placement) -> Iterator[None]:
    """The grid as if `spot` were laid (over what is there, when its cells all are), for as long
    as the block runs; then exactly as it was."""
    grid = grids.grid_of(rt, spot.map)
    over = any(c in grid for c in spot.coords)
    with _apart(rt):
        layer = lay(rt, spot.map, spot.coords, spot.rows, spot.rotation, over)
        try:
            yield
        finally:
            _unlay(rt, layer)


def check_there(rt: Any, refs: list[PieceRef]) -> None:
    """Each piece is where its reference says, once (NotThere if not): so they can all move."""
    left: dict[Any, list[Piece]] = {}
    for ref in refs:
        pieces = left.setdefault(ref.loc, list(rt.locs.get(ref.loc, ())))
        if ref.piece not in pieces:
            # The core says it in the same words: it cannot name the piece (its names are here).
            raise NotThere("a piece is not where it was found, or is named twice")
        pieces.remove(ref.piece)


@contextmanager
def supposing_moved(rt: Any, refs: list[PieceRef], to: Any) -> Iterator[None]:
    """The position as if the pieces `refs` found had moved to the location `to`, for as long as
    the block runs; then every location they touched holds exactly what it held, in its order.
    Each piece must be where its reference says (`check_there`)."""
    saved: dict[Any, list[Piece]] = {}
    for ref in refs:
        saved.setdefault(ref.loc, list(rt.locs[ref.loc]))
    saved.setdefault(to, list(rt.locs[to]))
    with _apart(rt):
        try:
            for ref in refs:
                rt.locs[ref.loc].remove(ref.piece)
                rt.moved(ref.loc, [ref.piece])
            rt.locs[to].extend(ref.piece for ref in refs)
            rt.moved(to, [ref.piece for ref in refs])
            yield
        finally:
            for loc, pieces in saved.items():
                rt.locs[loc][:] = pieces


def _unlay(rt: Any, layer: Placement) -> None:
    """Lift a layer laid for a moment, pieces or not: nothing can have moved onto it, since a
    question changes nothing."""
    grid = grids.grid_of(rt, layer.map)
    for coords in layer.coords:
        _take_off(rt, grid, grid[coords])
