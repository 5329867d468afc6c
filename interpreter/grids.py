"""Grid maps: where a shape may be placed, the sides it would share, and the routes a movement
can take, on any grid kind (interpreter/geometry.py).

Everything here is generic: a grid knows cells, coordinates and directions; what a cell *is*
(its terrain, its icon) is a row of the rules' own table, and what may be passed or where a
route may end are the rules' own conditions, handed in as functions. The route search walks any
graph: it is handed what one step from a place reaches (a grid's sides, a table map's edges, a
list the rules compute).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from meeple.interpreter.geometry import Geometry
from meeple.interpreter.values import Border, Cell, LazyList, MapRef, Placement, Route, Row

# No direction: a step on a graph that has none (a table map's edges, a list the rules compute).
UNDIRECTED = -1

# What one step from a place reaches, in order: (direction, place) pairs, the direction an index
# into the grid's directions (its Geometry), or UNDIRECTED.
NextPlaces = Callable[[Any], Sequence[tuple[int, Any]]]


class ShapeError(ValueError):
    """A shape that cannot be laid on a grid as it is (the caller says where in the rules)."""


def distance(a: Cell, b: Cell) -> int:
    """The fewest steps from side to side between two cells of one grid, present or not."""
    dq, dr = a.q - b.q, a.r - b.r
    if a.map.geometry.kind == "hex":
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    return abs(dq) + abs(dr)


def neighbours(grid: dict[tuple[int, int], Cell], cell: Cell) -> list[Cell]:
    """The cells sharing a side with `cell`, in the order of its grid's directions."""
    return _around(grid, cell, cell.map.geometry.directions)


def corners(grid: dict[tuple[int, int], Cell], cell: Cell) -> list[Cell]:
    """The cells meeting `cell` at a corner only (a square grid's diagonals)."""
    return _around(grid, cell, cell.map.geometry.corners)


def _around(
    grid: dict[tuple[int, int], Cell], cell: Cell, offsets: tuple[tuple[int, int], ...]
) -> list[Cell]:
    out = []
    for dq, dr in offsets:
        nb = grid.get((cell.q + dq, cell.r + dr))
        if nb is not None:
            out.append(nb)
    return out


def axes(geo: Geometry) -> list[tuple[int, int]]:
    """The ways a straight line runs on a grid, each once (east, not east and west): along a
    side, and on a square grid along a corner too (a diagonal)."""
    out: list[tuple[int, int]] = []
    for dq, dr in (*geo.directions, *geo.corners):
        if (-dq, -dr) not in out:
            out.append((dq, dr))
    return out


def in_a_row(cells: Sequence[Cell], n: int) -> bool:
    """Whether `n` of the cells lie in a straight line, each next to the one before (`axes`):
    three in a row, four in a line. Each run is walked once, from its first cell."""
    if n < 1:
        raise ValueError(f"cells in a row are counted from 1, not {n}")
    if not cells:
        return False
    at = {(c.q, c.r) for c in cells}
    if len({c.map for c in cells}) > 1:
        raise ValueError("cells in a row are cells of one grid")
    lines = axes(cells[0].map.geometry)
    for q, r in at:
        for dq, dr in lines:
            if (q - dq, r - dr) in at:
                continue  # not the first cell of its run
            length = 1
            while (q + length * dq, r + length * dr) in at:
                length += 1
            if length >= n:
                return True
    return False


# The sides of a grid by name: the directions (as indexes into its geometry's) in which a cell of
# that side has no cell beyond it. On hexes, north and south are the two northern (southern)
# directions at once: the top row of a board leaning as axial rows do.
SIDES: dict[str, dict[str, tuple[int, ...]]] = {
    "square": {"north": (0,), "east": (1,), "south": (2,), "west": (3,)},
    "hex": {
        "east": (0,),
        "north-east": (1,),
        "north-west": (2,),
        "west": (3,),
        "south-west": (4,),
        "south-east": (5,),
        "north": (1, 2),
        "south": (4, 5),
    },
}


def side(grid: dict[tuple[int, int], Cell], geo: Geometry, name: str) -> list[Cell]:
    """The cells along one side of a grid (`SIDES`), in the order of the grid's cells."""
    beyond = [geo.directions[i] for i in SIDES[geo.kind][name]]
    return [c for c in grid.values() if all((c.q + dq, c.r + dr) not in grid for dq, dr in beyond)]


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


def _faces(rows: list[Row]) -> list[tuple[tuple[str, Any], ...]]:
    """What each row of a shape shows, as a player sees it: its values apart from its own
    coordinates."""
    return [tuple((k, v) for k, v in row.values.items() if k not in ("q", "r")) for row in rows]


def _look(coords: list[tuple[int, int]], marks: list[Any]) -> frozenset[tuple[tuple[int, int], Any]]:
    """What a placement puts where: each cell with the mark of the row laid there (what the row
    shows, `_faces`, or which row it is). Two turns of a symmetric tile look the same."""
    return frozenset(zip(coords, marks, strict=True))


def placements(
    grid: dict[tuple[int, int], Cell], mapref: MapRef, rows: list[Row], local: list[tuple[int, int]]
) -> Sequence[Placement]:
    """Every distinct way to lay a shape (rows at local coordinates) on the grid, turned freely,
    covering no cell and touching at least one by a side: for each turn, the shifts in order of
    (q, r). On an empty grid: at the origin, unturned. On a grid of blocks, only on a free block
    beside a taken one (`_on_blocks`).

    The placements are made as they are read (a LazyList): a choice among hundreds of them, of
    which a random player takes one, makes one. The search itself is over packed coordinates
    (`_Packing`), whole sets at once: a shift is free when it is none of the shifts that would
    put a cell of the shape on a taken cell."""
    geo = mapref.geometry
    if geo.block > 1:
        return _on_blocks(grid, mapref, rows, local)
    if not grid:
        return [Placement(mapref, list(local), rows, 0)]
    turned = [[geo.rotate(q, r, t) for q, r in local] for t in range(geo.turns)]
    pack = _Packing(grid, turned)
    taken = {pack.of(q, r) for q, r in grid}
    sides = [pack.of(dq, dr) for dq, dr in geo.directions]
    frontier = {c + d for c in taken for d in sides} - taken
    # Two different (turn, shift) pairs put the rows of a shape of two or more distinct cells on
    # different cells, so on hexes only a one-cell shape can produce the same placement twice. On
    # squares, turns that look the same (a symmetric tile) are offered once.
    single = len(set(local)) < 2
    alike = geo.kind != "hex"
    seen: set[Any] = set()
    marks = _faces(rows) if alike else [row.index for row in rows]
    shifts: list[int] = []  # the placements found, packed: each one's shift and turn
    turns_of: list[int] = []
    for turns, cells in enumerate(turned):
        packed = [pack.of(q, r) for q, r in cells]
        # Each shift that puts some cell of the shape on a frontier cell, and none on a taken one.
        free = sorted({f - c for f in frontier for c in packed} - {t - c for t in taken for c in packed})
        if alike or single:
            free = [shift for shift in free if _first_look(seen, cells, pack.unpack(shift), marks)]
        shifts += free
        turns_of += [turns] * len(free)

    def make(index: int) -> Placement:
        turns, (dq, dr) = turns_of[index], pack.unpack(shifts[index])
        return Placement(mapref, [(q + dq, r + dr) for q, r in turned[turns]], rows, turns)

    return LazyList(len(shifts), make)


def _first_look(
    seen: set[Any], cells: list[tuple[int, int]], shift: tuple[int, int], marks: list[Any]
) -> bool:
    """Whether a placement (a shape's cells turned, then shifted) looks different from every one
    in `seen` (`_look`), which it joins."""
    dq, dr = shift
    key = _look([(q + dq, r + dr) for q, r in cells], marks)
    if key in seen:
        return False
    seen.add(key)
    return True


class _Packing:
    """Cells and shifts of one placement search as single numbers, q * width + r, so that sets
    of them are sets of small integers and a shift is one addition. The width is more than twice
    any r the search packs (a cell of the grid or its frontier, a shift from a cell of the shape
    turned to one of those), so two pairs have the same number only if they are the same pair,
    and numbers sort as their pairs do, by q and then r."""

    __slots__ = ("half", "width")

    def __init__(self, grid: dict[tuple[int, int], Cell], turned: list[list[tuple[int, int]]]) -> None:
        reach = max(abs(r) for _, r in grid) + max((abs(r) for cells in turned for _, r in cells), default=0)
        self.half = reach + 2  # a frontier cell is one step beyond the grid
        self.width = 2 * self.half

    def of(self, q: int, r: int) -> int:
        return q * self.width + r

    def unpack(self, n: int) -> tuple[int, int]:
        q = (n + self.half) // self.width
        return q, n - q * self.width


def _check_block(geo: Geometry, local: list[tuple[int, int]]) -> None:
    k = geo.block
    outside = [(q, r) for q, r in local if not (0 <= q < k and 0 <= r < k)]
    if outside:
        q, r = outside[0]
        raise ShapeError(f"a shape laid in {k} x {k} blocks has its cells at 0 to {k - 1}, not at ({q},{r})")


def _on_blocks(
    grid: dict[tuple[int, int], Cell], mapref: MapRef, rows: list[Row], local: list[tuple[int, int]]
) -> list[Placement]:
    """Placements on a grid of K x K blocks: on each free block sharing a side with a taken one
    (a block is taken when any of its cells is there), in reading order (north to south, west to
    east), each way the shape turns about the block's centre that looks different."""
    geo = mapref.geometry
    _check_block(geo, local)
    k = geo.block
    if not grid:
        return [Placement(mapref, list(local), rows, 0)]
    taken = {geo.block_of(q, r) for q, r in grid}
    free = {(x + dx, y + dy) for x, y in taken for dx, dy in geo.directions} - taken
    turned = [[geo.rotate(q, r, t) for q, r in local] for t in range(geo.turns)]
    # The turns that look different from every turn before them: the same on every block, since
    # moving two placements to another block keeps them alike or not.
    faces, seen, distinct = _faces(rows), set(), []
    for t, cells in enumerate(turned):
        key = _look(cells, faces)
        if key not in seen:
            seen.add(key)
            distinct.append(t)
    out: list[Placement] = []
    for x, y in sorted(free, key=lambda b: (b[1], b[0])):
        for t in distinct:
            out.append(Placement(mapref, [(x * k + q, y * k + r) for q, r in turned[t]], rows, t))
    return out


def placement_at(mapref: MapRef, rows: list[Row], q: int, r: int, turns: int) -> Placement:
    """One placement, as an example names it: the shape turned `turns` times with its first cell
    at (q, r) -- on a grid of blocks, in the block at (q, r)."""
    geo = mapref.geometry
    local = [(row.values["q"], row.values["r"]) for row in rows]
    turned = [geo.rotate(lq, lr, turns) for lq, lr in local]
    if geo.block > 1:
        _check_block(geo, local)
        coords = [(q * geo.block + lq, r * geo.block + lr) for lq, lr in turned]
    else:
        dq, dr = q - turned[0][0], r - turned[0][1]
        coords = [(lq + dq, lr + dr) for lq, lr in turned]
    return Placement(mapref, coords, rows, turns % geo.turns)


def borders(grid: dict[tuple[int, int], Cell], spot: Placement) -> list[Border]:
    """The sides a placement would share with cells already on the grid: for each of its cells,
    in the order of its rows, each side facing a cell it does not cover."""
    mine = set(spot.coords)
    out = []
    for (q, r), row in zip(spot.coords, spot.rows, strict=True):
        for dq, dr in spot.map.geometry.directions:
            there = (q + dq, r + dr)
            if there not in mine:
                cell = grid.get(there)
                if cell is not None:
                    out.append(Border(row, cell))
    return out


class _Answers(dict[Any, Any]):
    """One question about places (may a route pass it? end there?), asked once per place: the
    answers kept by place, each asked when first looked up."""

    def __init__(self, ask: Callable[[Any], Any]) -> None:
        super().__init__()
        self.ask = ask

    def __missing__(self, place: Any) -> Any:
        answer = self[place] = self.ask(place)
        return answer


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
    passable, endable = _Answers(may_pass), _Answers(may_end)
    full, onward = _Answers(occupied), _Answers(next_places)
    if low == 0 and endable[start]:
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
        ending = depth in wanted
        depth_seen = depth if low > 1 else 0
        for path, last, occupied_passed in layer:
            here = path[-1] if path else start
            passing = occupied_passed
            if path and here != start:
                if not passable[here]:
                    continue  # `here` would become a passed place: the route cannot go on from it
                if full[here]:
                    passing = occupied_passed | {here}
            for direction, nxt in onward[here]:
                if straight and last != UNDIRECTED and direction != last:
                    continue
                if backtracks:
                    state = (nxt, passing, direction if straight else UNDIRECTED, depth_seen)
                    if state in seen:
                        continue
                    seen.add(state)
                elif nxt == start or nxt in path:
                    continue
                new = (*path, nxt)
                if ending and (nxt, passing) not in found and endable[nxt]:
                    found[(nxt, passing)] = Route(start, new)
                next_layer.append((new, direction, passing))
        layer = next_layer
    return list(found.values())


def fewest_steps(
    start: Hashable,
    wanted: set[Any],
    next_places: NextPlaces,
    may_pass: Callable[[Any], bool],
    may_end: Callable[[Any], bool],
) -> int | None:
    """The length of a shortest path from `start` to a place of `wanted` where `may_end` holds,
    passing only places where `may_pass` holds (the start excepted: the mover has left it); 0 when
    the start is such a place, None when none is reached. Breadth first over every place reachable
    however far: each place is entered once, so it ends on any finite graph."""
    if start in wanted and may_end(start):
        return 0
    seen = {start}
    layer = [start]
    depth = 0
    while layer:
        depth += 1
        next_layer = []
        for here in layer:
            if here != start and not may_pass(here):
                continue
            for _, nxt in next_places(here):
                if nxt in seen:
                    continue
                seen.add(nxt)
                if nxt in wanted and may_end(nxt):
                    return depth
                next_layer.append(nxt)
        layer = next_layer
    return None


def grid_of(rt: Any, mapref: MapRef) -> dict[tuple[int, int], Cell]:
    """The cells of one grid map in one game (made empty on first use). Which cells exist is a
    part of the position a value may read: `place` changes it."""
    if rt.reads is not None:
        rt.reads.add(mapref)
    grid = rt.grids.get(mapref)
    if grid is None:
        grid = rt.grids[mapref] = {}
    return grid
