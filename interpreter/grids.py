"""Grid maps: hex geometry, where a shape may be placed, and the routes a movement can take.

Everything here is generic: a grid knows cells, coordinates and directions; what a cell *is*
(its terrain, its icon) is a row of the rules' own table, and what may be passed or where a
route may end are the rules' own conditions, handed in as functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.interpreter.values import Cell, MapRef, Placement, Route, Row

# Axial coordinates, pointy-top; the six directions in a fixed order: E, NE, NW, W, SW, SE.
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    """Turn (q, r) by `turns` sixths of a circle about the origin: (q, r) -> (-r, q + r) each."""
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def hex_distance(a: Cell, b: Cell) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(grid: dict[tuple[int, int], Cell], cell: Cell) -> list[Cell]:
    out = []
    for dq, dr in HEX_DIRECTIONS:
        nb = grid.get((cell.q + dq, cell.r + dr))
        if nb is not None:
            out.append(nb)
    return out


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
    for turns in range(6):
        turned = [rotate(q, r, turns) for q, r in local]
        # Each shift that puts some cell of the shape on a frontier hex, once.
        shifts = sorted({(fq - sq, fr - sr) for fq, fr in frontier for sq, sr in turned})
        for dq, dr in shifts:
            coords = [(q + dq, r + dr) for q, r in turned]
            if any(c in grid for c in coords):
                continue
            key = frozenset(zip(coords, ids, strict=True))
            if key not in seen:  # a symmetric shape can land the same way from two turns
                seen.add(key)
                out.append(Placement(mapref, coords, rows, turns))
    return out


def routes(
    grid: dict[tuple[int, int], Cell],
    start: Cell,
    steps: list[int],
    straight: bool,
    backtracks: bool,
    may_pass: Callable[[Cell], bool],
    may_end: Callable[[Cell], bool],
    occupied: Callable[[Cell], bool],
) -> list[Route]:
    """The distinct routes from `start`: one per end cell and set of occupied cells passed (two
    paths that end in the same place having passed the same pieces are the same choice).

    Breadth first, so the route kept for each outcome is a shortest one. A route may pass a cell
    only if `may_pass` holds for it (the start excepted: the mover has left it), may end only where
    `may_end` holds, and revisits cells only if it `backtracks`."""
    if not steps:
        return []
    low, high = min(steps), max(steps)
    wanted = set(steps)
    found: dict[tuple[Cell, frozenset[Cell]], Route] = {}

    def consider(path: tuple[Cell, ...]) -> None:
        route = Route(start, path)
        if len(path) in wanted and may_end(route.end):
            key = (route.end, frozenset(c for c in route.passed if occupied(c)))
            found.setdefault(key, route)

    if low == 0:
        consider(())
    # A state is the path so far and the direction of its last step (for straight lines).
    layer: list[tuple[tuple[Cell, ...], int]] = [((), -1)]
    # With backtracking only the cell, the pieces passed and the heading matter for what can still
    # happen, so a state met again later is dropped -- unless short routes are not wanted, when
    # the depth matters too.
    seen: set[tuple[Cell, frozenset[Cell], int, int]] = set()
    for depth in range(1, high + 1):
        next_layer = []
        for path, last in layer:
            here = path[-1] if path else start
            if path and here is not start and not may_pass(here):
                continue  # `here` would become a passed cell: the route cannot go on from it
            for direction, (dq, dr) in enumerate(HEX_DIRECTIONS):
                if straight and last >= 0 and direction != last:
                    continue
                nxt = grid.get((here.q + dq, here.r + dr))
                if nxt is None or (not backtracks and (nxt is start or nxt in path)):
                    continue
                new = (*path, nxt)
                if backtracks:
                    passed = frozenset(c for c in new[:-1] if c is not start and occupied(c))
                    state = (nxt, passed, direction if straight else -1, depth if low > 1 else 0)
                    if state in seen:
                        continue
                    seen.add(state)
                consider(new)
                next_layer.append((new, direction))
        layer = next_layer
    return list(found.values())


def grid_of(rt: Any, mapref: MapRef) -> dict[tuple[int, int], Cell]:
    """The cells of one grid map in one game (made empty on first use)."""
    grid = rt.grids.get(mapref)
    if grid is None:
        grid = rt.grids[mapref] = {}
    return grid
