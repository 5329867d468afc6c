"""Areas: the connected cells of a grid (or nodes of a map) that share an attribute, as values.

A city of joined tiles, a region of one terrain, a field of like quarters: an area is found by
joining neighbours whose attribute is equal. It is a value with an identity (equal by its cells,
so it can be a key, and a value that takes it is remembered), it stands wherever a list of places
is taken (`pieces(a)`), and it knows the areas beside it.

On a grid the attribute is a column of the rows laid on the cells, so the areas depend only on
which rows lie where: the labelling of a whole grid is made once after each change of the grid
and kept (`Runtime.areas`), and a value that asks for areas reads the grid alone (its MapRef) --
one read, where reading each cell would tie the value to hundreds of them. The graph between the
areas is made when first asked, once per labelling.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from meeple.interpreter import grids
from meeple.interpreter.values import Cell, MapRef, Route, label


class Area:
    """Connected places sharing one value of an attribute; `cells` in reading order (north to
    south, then west to east, on a grid), so `first` is the north-west-most and names it.
    `order` is its place among the areas of its labelling."""

    __slots__ = ("_hash", "cells", "labelling", "order", "value")

    def __init__(self, cells: list[Any], value: Any, labelling: Labelling, order: int) -> None:
        self.cells = cells
        self.value = value
        self.labelling = labelling
        self.order = order
        self._hash = hash(frozenset(cells))

    @property
    def first(self) -> Any:
        return self.cells[0]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Area) and self._hash == other._hash and set(self.cells) == set(other.cells)

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"{label(self.value)} at {label(self.first)}"

    __repr__ = __str__


class Labelling:
    """Every area of some places under one attribute, and the graph between the areas.

    `again` gives the labelling as the game stands now (the kept one of a grid, or a new one of a
    map whose attribute may be a variable): an area found earlier is asked about through it, so
    that an answer never comes from a grid that has changed since. Each area's neighbours are
    found when first asked, from the sides of its places, which the labelling found already."""

    def __init__(
        self,
        places: list[Any],
        key: Callable[[Any], Hashable],
        sides: Callable[[Any], list[Any]],
        corners: Callable[[Any], list[Any]] | None,
        again: Callable[[Any], Labelling],
    ) -> None:
        self.corners, self.again = corners, again
        self.of: dict[Any, Area] = {}
        self.areas: list[Area] = []
        inside = set(places)
        keys = {place: key(place) for place in places}
        self.sides = {place: [nb for nb in sides(place) if nb in inside] for place in places}
        order = {place: i for i, place in enumerate(places)}
        for start in places:
            if start in self.of:
                continue
            want = keys[start]
            found, todo = [start], [start]
            seen = {start}
            while todo:
                for nb in self.sides[todo.pop()]:
                    if nb not in seen and keys[nb] == want:
                        seen.add(nb)
                        found.append(nb)
                        todo.append(nb)
            area = Area(sorted(found, key=order.__getitem__), want, self, len(self.areas))
            self.areas.append(area)
            for place in found:
                self.of[place] = area
        self._next: dict[int, list[Area]] = {}
        self._corner: dict[int, list[Area]] = {}

    def holds(self, area: Area) -> bool:
        """Whether `area` is still one of these areas, cell for cell."""
        mine = self.of.get(area.first)
        return mine is not None and mine == area

    def next_to(self, area: Area) -> list[Area]:
        """The areas with a place sharing a side with one of `area`'s, in the order of their
        first places."""
        mine = self.of[area.first]
        found = self._next.get(mine.order)
        if found is None:
            sides = self.sides
            found = self._next[mine.order] = self._ranked(mine, (nb for c in mine.cells for nb in sides[c]))
        return found

    def corner_to(self, area: Area) -> list[Area]:
        """The areas meeting `area` at a corner and nowhere along a side."""
        if self.corners is None:
            return []
        mine = self.of[area.first]
        found = self._corner.get(mine.order)
        if found is None:
            corners, of = self.corners, self.of
            beside = {a.order for a in self.next_to(mine)}
            touching = (nb for c in mine.cells for nb in corners(c) if nb in of)
            found = [a for a in self._ranked(mine, touching) if a.order not in beside]
            self._corner[mine.order] = found
        return found

    def _ranked(self, area: Area, places: Any) -> list[Area]:
        of = self.of
        found = {of[nb].order for nb in places} - {area.order}
        return [self.areas[i] for i in sorted(found)]


def reading_order(cells: list[Cell]) -> list[Cell]:
    """A grid's cells north to south, then west to east."""
    return sorted(cells, key=lambda c: (c.r, c.q))


def of_grid(rt: Any, mapref: MapRef, column: str) -> Labelling:
    """The areas of a grid joined by a column of the rows laid on its cells: kept until the grid
    changes (`Runtime.reshaped`). Asking reads the grid itself, which every change announces."""
    grid = grids.grid_of(rt, mapref)
    kept = rt.areas.get((mapref, column))
    if kept is None:
        faces = rt.faces
        corners = (lambda c: grids.corners(grid, c)) if mapref.geometry.corners else None
        kept = rt.areas[(mapref, column)] = Labelling(
            reading_order(list(grid.values())),
            lambda c: faces[c].values.get(column),
            lambda c: grids.neighbours(grid, c),
            corners,
            lambda now: of_grid(now, mapref, column),
        )
    return kept


def of_nodes(nodes: list[Any], key: Callable[[Any], Hashable], adjacency: dict[Any, list[Any]]) -> Labelling:
    """The areas of some nodes of a map, joined by its edges through those nodes only. The
    attribute may be a variable, so the labelling is made anew each time it is asked for (the
    reads of the attribute go to the asking value, as they are made)."""
    return Labelling(
        nodes, key, lambda n: adjacency.get(n, []), None, lambda now: of_nodes(nodes, key, adjacency)
    )


def attribute(rt: Any, area: Area, name: str) -> Any:
    """`a.cells`, `a.first`, `a.blocks` (the top layers its cells lie on) and `a.gaps` (the
    places beside it holding no cell, as [x, y] of blocks on a grid of blocks, else of cells)."""
    if name == "cells":
        return list(area.cells)
    if name == "first":
        return area.first
    cells = [c for c in area.cells if type(c) is Cell]
    if not cells:
        return []
    grid = grids.grid_of(rt, cells[0].map)
    if name == "blocks":
        return list(dict.fromkeys(rt.layers[c][-1] for c in cells))
    geo = cells[0].map.geometry
    gaps = {
        geo.block_of(c.q + dq, c.r + dr)
        for c in cells
        for dq, dr in geo.directions
        if (c.q + dq, c.r + dr) not in grid
    }
    return [[x, y] for x, y in sorted(gaps, key=lambda b: (b[1], b[0]))]


ATTRIBUTES = ("cells", "first", "blocks", "gaps")


def grown_places(value: Any) -> list[Cell | Area]:
    """The places of a grid that grows an answer names: a cell, an area of cells, or those a
    route starts at, passes and ends at. Such a grid's cells have no names but coordinates, so
    what a player reads says them by what they show and touch (`Said`, `meeple.board.say_place`)."""
    parts = [value.start, *value.passed, value.end] if type(value) is Route else [value]
    grown: list[Cell | Area] = []
    for part in parts:
        first = part.first if type(part) is Area and part.cells else part
        if type(first) is Cell and first.map.board is None and part not in grown:
            grown.append(part)
    return grown
