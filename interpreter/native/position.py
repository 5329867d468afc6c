"""A native game's position as the Python engine's Runtime holds it, read from the core: what a
seat's view (interpreter/view.py's `Position`), the terminal and the playtest page read of a
game (its players, variables, pieces by place, grids with the rows their cells show, what
`reveal` showed, whose turn it is). Read once per position (`NativeState.rt`), and read-only:
the game itself is the core's.

The places are the program's own (a zone, a node, a board's cell: the lowering's tables) and a
grown cell is the one `NativeState` makes for its location, so that an option, a log line and
the view name one place by one object, as on the Python engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.interpreter.values import Cell, MapRef, Piece, Player, Row

if TYPE_CHECKING:
    from meeple.interpreter.native.state import NativeState


class Position:
    """The position of a native game as it stands, in the Python engine's values."""

    def __init__(self, state: NativeState) -> None:
        low, core, program = state.lowered, state.core, state.game.program
        self.program = program
        self.players: list[Player] = low.players[: state.seats]
        self.turns: int = core.turns
        current = core.current
        self.current: Player | None = None if current is None else low.players[current]
        self.vars: dict[str, Any] = {
            name: state.value(v) for name, v in zip(low.variables, core.variables(), strict=True)
        }
        self.owned = _owned(state, core.stores())
        held = core.held()
        kinds, players = low.kinds, low.players
        pieces = [[(kinds[k], None if s is None else players[s]) for k, s in at] for at in held]
        # The places of this game's seats (the core lays out every seat the program may have).
        seated = set(self.players)
        self.locs: dict[Any, list[Piece]] = {}
        for loc, zone in low.zones.items():
            if not isinstance(zone.owner, Player) or zone.owner in seated:
                self.locs[zone] = pieces[loc]
        for loc, node in low.nodes.items():
            self.locs[node] = pieces[loc]
        self.grids: dict[MapRef, dict[tuple[int, int], Cell]] = {}
        self.faces: dict[Cell, Row] = {}
        for loc, cell in low.cells.items():
            if not isinstance(cell.map.owner, Player) or cell.map.owner in seated:
                self.locs[cell] = pieces[loc]
                self.grids.setdefault(cell.map, {})[(cell.q, cell.r)] = cell
        for g, grid in enumerate(low.grids):
            if grid.board is not None or (isinstance(grid.owner, Player) and grid.owner not in seated):
                continue
            cells = self.grids[grid] = {}
            for loc, q, r, face in core.grown(g):
                cell = cells[(q, r)] = state.value(("cell", loc))
                self.locs[cell] = pieces[loc]
                self.faces[cell] = low.rows[face]
        self.seen = state.seen


def _owned(state: NativeState, stores: list[list[Any]]) -> dict[tuple[str, str], dict[Any, Any]]:
    """Each variable per owner, by (per, name), as the Runtime keeps it: each owner's value, or
    for a variable with a value per row (`by`), each owner's values by row (laid side by side
    in the core: src/rows.rs)."""
    low, program = state.lowered, state.game.program
    out: dict[tuple[str, str], dict[Any, Any]] = {}
    for (per, name), values in zip(low.stores, stores, strict=True):
        owners: list[Any] = low.players[: state.seats] if per == "player" else list(program.rows.get(per, []))
        by = program.symbols.owned_vars[per][name].by
        rows: list[Row] = [] if by is None else list(program.rows[by])
        store: dict[Any, Any] = {}
        for i, owner in enumerate(owners):
            if by is None:
                store[owner] = state.value(values[i])
            else:
                store[owner] = {row: state.value(values[i * len(rows) + k]) for k, row in enumerate(rows)}
        out[(per, name)] = store
    return out
