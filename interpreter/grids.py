"""Grid maps: hex geometry, where a shape may be placed, and the routes a movement can take.

Everything here is generic: a grid knows cells, coordinates and directions; what a cell *is*
(its terrain, its icon) is a row of the rules' own table, and what may be passed or where a
route may end are the rules' own conditions, handed in as functions. The route search walks any
graph: it is handed what one step from a place reaches (a grid's sides, a table map's edges, a
list the rules compute).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from meeple.interpreter.values import Cell, MapRef, Placement, Route, Row

# Axial coordinates, pointy-top; the six directions in a fixed order: E, NE, NW, W, SW, SE.
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Each grid kind's directions, in its fixed order (MapRef.kind names one): the one place a kind
# says which cells are next to a cell. Neighbours, regions and routes read them from here, and a
# route's straight line is a direction index into this tuple.
DIRECTIONS: dict[str, tuple[tuple[int, int], ...]] = {"hex": HEX_DIRECTIONS}

# No direction: a step on a graph that has none (a table map's edges, a list the rules compute).
UNDIRECTED = -1

# What one step from a place reaches, in order: (direction, place) pairs, the direction an index
# into the grid's DIRECTIONS, or UNDIRECTED.
NextPlaces = Callable[[Any], Sequence[tuple[int, Any]]]


def rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    """Turn (q, r) by `turns` sixths of a circle about the origin: (q, r) -> (-r, q + r) each."""
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def hex_distance(a: Cell, b: Cell) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(grid: dict[tuple[int, int], Cell], cell: Cell) -> list[Cell]:
    """The cells next to a cell, in its grid kind's order of directions."""
    return [nb for _, nb in grid_steps(grid, DIRECTIONS[cell.map.kind])(cell)]


def grid_steps(grid: dict[tuple[int, int], Cell], directions: tuple[tuple[int, int], ...]) -> NextPlaces:
    """What one step from a cell of `grid` reaches: the cells next to it, with the index of the
    direction each lies in (what a straight line keeps)."""

    def steps(cell: Cell) -> list[tuple[int, Cell]]:
        out = []
        for direction, (dq, dr) in enumerate(directions):
            nb = grid.get((cell.q + dq, cell.r + dr))
            if nb is not None:
                out.append((direction, nb))
        return out

    return steps


def placements(
    grid: dict[tuple[int, int], Cell], mapref: MapRef, rows: list[Row], local: list[tuple[int, int]]
) -> list[Placement]:
    """Every distinct way to lay a shape (rows at local coordinates) on the grid, turned freely,
    covering no cell and touching at least one. On an empty grid: at the origin, unturned."""
    if not grid:
        return [Placement(mapref, list(local), rows, 0)]
    frontier = sorted(
        {
            (c.q + dq, c.r + dr)
            for c in grid.values()
            for dq, dr in HEX_DIRECTIONS
            if (c.q + dq, c.r + dr) not in grid
        }
    )
    seen: set[frozenset[tuple[tuple[int, int], int]]] = set()
    out: list[Placement] = []
    ids = [row.index for row in rows]
    taken = grid.keys()
    # Two different (turn, shift) pairs put the rows of a shape of two or more distinct cells on
    # different cells, so only a one-cell shape can produce the same placement twice.
    single = len(set(local)) < 2
    for turns in range(6):
        turned = [rotate(q, r, turns) for q, r in local]
        # Each shift that puts some cell of the shape on a frontier hex, once.
        shifts = sorted({(fq - sq, fr - sr) for fq, fr in frontier for sq, sr in turned})
        for dq, dr in shifts:
            coords = [(q + dq, r + dr) for q, r in turned]
            if not taken.isdisjoint(coords):
                continue
            if single:  # one cell lands the same way whatever the turn
                key = frozenset(zip(coords, ids, strict=True))
                if key in seen:
                    continue
                seen.add(key)
            out.append(Placement(mapref, coords, rows, turns))
    return out


def routes(
    start: Hashable,
    steps: list[int],
    straight: bool,
    backtracks: bool,
    next_places: NextPlaces,
    may_pass: Callable[[Any], bool],
    may_end: Callable[[Any], bool],
    occupied: Callable[[Any], bool],
) -> list[Route]:
    """The distinct routes from `start`: one per end place and set of occupied places passed (two
    paths that end in the same place having passed the same pieces are the same choice).

    Breadth first, so the route kept for each outcome is a shortest one. `next_places` says where
    one step from a place goes, in a fixed order (the order routes are found in); a `straight`
    route keeps the direction of its first step. A route may pass a place only if `may_pass`
    holds for it (the start excepted: the mover has left it), may end only where `may_end`
    holds, and revisits places only if it `backtracks`."""
    if not steps:
        return []
    low, high = min(steps), max(steps)
    wanted = set(steps)
    found: dict[tuple[Any, frozenset[Any]], Route] = {}
    # The graph and the conditions look at places, which do not change during the search: ask
    # once per place.
    passable: dict[Any, bool] = {}
    endable: dict[Any, bool] = {}
    full: dict[Any, bool] = {}
    onward: dict[Any, Sequence[tuple[int, Any]]] = {}

    def check(cache: dict[Any, Any], test: Callable[[Any], Any], place: Any) -> Any:
        answer = cache.get(place)
        if answer is None:
            answer = cache[place] = test(place)
        return answer

    if low == 0 and check(endable, may_end, start):
        found[(start, frozenset())] = Route(start, ())
    # A state: the path so far, the direction of its last step (for straight lines) and the
    # occupied places it has passed (what makes two routes different outcomes).
    layer: list[tuple[tuple[Any, ...], int, frozenset[Any]]] = [((), UNDIRECTED, frozenset())]
    # With backtracking only the place, the pieces passed and the heading matter for what can
    # still happen, so a state met again later is dropped -- unless short routes are not wanted,
    # when the depth matters too.
    seen: set[tuple[Any, frozenset[Any], int, int]] = set()
    for depth in range(1, high + 1):
        next_layer = []
        for path, last, occupied_passed in layer:
            here = path[-1] if path else start
            passing = occupied_passed
            if path and here != start:
                if not check(passable, may_pass, here):
                    continue  # `here` would become a passed place: the route cannot go on from it
                if check(full, occupied, here):
                    passing = occupied_passed | {here}
            for direction, nxt in check(onward, next_places, here):
                if straight and last != UNDIRECTED and direction != last:
                    continue
                if not backtracks and (nxt == start or nxt in path):
                    continue
                if backtracks:
                    heading = direction if straight else UNDIRECTED
                    state = (nxt, passing, heading, depth if low > 1 else 0)
                    if state in seen:
                        continue
                    seen.add(state)
                new = (*path, nxt)
                key = (nxt, passing)
                if depth in wanted and key not in found and check(endable, may_end, nxt):
                    found[key] = Route(start, new)
                next_layer.append((new, direction, passing))
        layer = next_layer
    return list(found.values())


def grid_of(rt: Any, mapref: MapRef) -> dict[tuple[int, int], Cell]:
    """The cells of one grid map in one game (made empty on first use). Which cells exist is a
    part of the position a value may read: `place` changes it."""
    if rt.reads is not None:
        rt.reads.add(mapref)
    grid = rt.grids.get(mapref)
    if grid is None:
        grid = rt.grids[mapref] = {}
    return grid
