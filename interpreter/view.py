"""What one seat may look at: the position as plain JSON-able data (`State.view(seat)`).

Kept out of the engine, as boardgame.io keeps its `playerView` beside the game rather than in it:
the engine plays, and this module only reads what the engine holds and decides what a seat is
shown. A human at the terminal, the playtest page, the agents and OpenSpiel all see the game
through it, so what a `hidden` or `private` zone holds is kept from the others here alone.

It reads a game through `Viewed`, which both engines' states give: the Python engine's `State`
with its Runtime, a native game (interpreter/native/state.py) with a stand-in read from the core
(interpreter/native/position.py). So one piece of code decides what a seat sees on either engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from meeple.interpreter.areas import Area
from meeple.interpreter.values import (
    Cell,
    MapRef,
    Piece,
    PieceRef,
    Placement,
    Player,
    Route,
    Row,
    ZoneLoc,
    label,
    label_piece,
    label_pieces,
    written,
)

if TYPE_CHECKING:  # the engine imports this module
    from meeple.interpreter.analysis import Symbols
    from meeple.interpreter.engine import Game
    from meeple.interpreter.program import Program
    from meeple.interpreter.runtime import Decision


class Position(Protocol):
    """What the view reads of a game's position, read-only: the Python engine's Runtime has it,
    and a native game's stand-in (interpreter/native/position.py) reads it from the core."""

    @property
    def players(self) -> list[Player]: ...
    @property
    def vars(self) -> Mapping[str, Any]: ...
    @property
    def owned(self) -> Mapping[tuple[str, str], Mapping[Any, Any]]: ...
    @property
    def locs(self) -> Mapping[Any, list[Piece]]: ...
    @property
    def grids(self) -> Mapping[MapRef, Mapping[tuple[int, int], Cell]]: ...
    @property
    def faces(self) -> Mapping[Cell, Row]: ...
    @property
    def seen(self) -> Mapping[Any, Mapping[int, Mapping[Piece, int]]]: ...
    @property
    def turns(self) -> int: ...
    @property
    def current(self) -> Player | None: ...


class Viewed(Protocol):
    """A game the view reads: its rules, seats and seed, its position, and its decision with
    where the rules show each option."""

    game: Game
    seats: int
    seed: int

    @property
    def rt(self) -> Position: ...

    @property
    def decision(self) -> Decision | None: ...

    def shown(self) -> list[Any]: ...


def player_view(state: Viewed, seat: int | None) -> dict[str, Any]:
    """The position as one seat may see it (None: everything); see `State.view`."""
    rt, program = state.rt, state.game.program
    shown: list[Piece] = []  # every piece the view shows: the only ones its labels may name
    zones = {
        str(loc): _contents(state, loc, seat, shown)
        for loc in rt.locs
        if isinstance(loc, ZoneLoc) and (not isinstance(loc.owner, Player) or loc.owner.seat < state.seats)
    }
    maps = {
        name: {
            str(node): _contents(state, node, seat, shown)
            for node in nodes
            if rt.locs[node] and not out_of_game(state, node)
        }
        for name, nodes in program.map_nodes.items()
    }
    every_grid = grids_of(state)
    grids = {
        str(grid): [_cell(state, cell, shown) for cell in rt.grids.get(grid, {}).values()]
        for grid in every_grid
    }
    return {
        # what players read for each variable, store, zone, map place and grid named below
        "names": _names(state),
        # each piece label below, for more than one ("Token of Player 2": "Tokens of Player 2")
        "plurals": {label_piece(p): label_pieces(p) for p in shown},
        "game": state.game.name,
        "seed": state.seed,
        "turns": rt.turns,
        "current": None if rt.current is None else rt.current.seat,
        "variables": {name: label(v) for name, v in rt.vars.items()},
        "owned": {
            f"{per}.{name}": {label(o): label(v) for o, v in store.items()}
            for (per, name), store in rt.owned.items()
        },
        "zones": zones,
        "maps": maps,
        # each grid's kind ("hex", "square"), and whether it is a board given by its size
        "grid_forms": {
            str(grid): {"kind": grid.geometry.kind, "board": grid.board is not None}
            for grid in grids_of(state)
        },
        "grids": grids,
        "decision": _decision(state, seat),
    }


def grids_of(state: Viewed) -> list[MapRef]:
    """The grids of this game: every grid map, one per seat for a grid each player has (a seat
    not in the game has none). A grid that grows is shown from the start, with no cells until
    shapes are laid on it: what a seat sees does not hang on whether the rules have yet read it
    (the Python engine makes its cells' table on first use)."""
    return [
        grid
        for grid in state.game.program.map_refs.values()
        if not isinstance(grid.owner, Player) or grid.owner.seat < state.seats
    ]


def out_of_game(state: Viewed, row: Any) -> bool:
    """Whether a row belongs to a seat not in this game (`belongs to COLUMN`: a 2-player game's
    Player 3 and 4 boards): the rules still read it, but no picture of the game shows it."""
    table = state.game.program.symbols.tables.get(getattr(row, "table", ""))
    if table is None or table.belongs is None:
        return False
    seat = row.values.get(table.belongs)
    return isinstance(seat, int) and not 0 <= seat < state.seats


def zone_flags(symbols: Symbols, loc: Any) -> list[str]:
    """The flags of the zone a place is (`hidden`, `private`, `top`, `ordered`); none for a map's.
    The native lowering reads them too, for what a searching player may not see."""
    if not isinstance(loc, ZoneLoc):
        return []
    owner = loc.owner
    if owner is None:
        decl = symbols.zones.get(loc.zone)
    else:
        per = "player" if isinstance(owner, Player) else owner.table
        decl = symbols.owned_zones.get(per, {}).get(loc.zone)
    return decl.flags if decl is not None else []


def in_sight(state: Viewed, piece: Piece, at: Any = None) -> list[int]:
    """How many pieces like `piece` each seat may see, by seat, where the view shows them: face
    up, in its own private zone, on top of a `top` zone, or shown to it by `reveal` (`seen`);
    only at the place `at` when one is given. A choice of a piece some seat cannot see is
    told to that seat by what it is only once a piece like it comes into its sight
    (`engine.Hidden`): pieces of one kind and owner are alike, so that is all a seat can know."""
    rt, symbols = state.rt, state.game.program.symbols
    counts = [0] * state.seats
    for loc in rt.locs if at is None else [at]:
        pieces = rt.locs.get(loc, [])
        held = pieces.count(piece)
        if not held:
            continue
        flags = zone_flags(symbols, loc)
        owner = loc.owner if isinstance(loc, ZoneLoc) else None
        for seat in range(state.seats):
            if "top" in flags:
                counts[seat] += pieces[-1] == piece
            elif "hidden" not in flags and (
                "private" not in flags or (isinstance(owner, Player) and owner.seat == seat)
            ):
                counts[seat] += held
    for loc, known in rt.seen.items():
        if at is None or loc is at:
            for seat, pieces_seen in known.items():
                if seat < state.seats:
                    counts[seat] += pieces_seen.get(piece, 0)
    return counts


def _contents(state: Viewed, loc: Any, seat: int | None, shown: list[Piece]) -> Any:
    """What a place holds as the seat may see it: an ordered zone as a list (top last), any other
    as counts by piece; a `top` zone its count and top piece; a `hidden` zone, or another seat's
    `private` one, its count alone, and what `reveal` showed the seat there (`seen`). The pieces
    shown are added to `shown`."""
    pieces = state.rt.locs[loc]
    flags = zone_flags(state.game.program.symbols, loc)
    owner = loc.owner if isinstance(loc, ZoneLoc) else None
    if seat is not None and "top" in flags:
        shown += pieces[-1:]
        return {"hidden": len(pieces), "top": label_piece(pieces[-1]) if pieces else None} | _seen(
            state, loc, seat, shown
        )
    mine = isinstance(owner, Player) and owner.seat == seat
    if seat is not None and ("hidden" in flags or ("private" in flags and not mine)):
        return {"hidden": len(pieces)} | _seen(state, loc, seat, shown)
    shown += pieces
    labels = [label_piece(p) for p in pieces]
    return labels if {"ordered", "top"} & set(flags) else dict(Counter(labels))


def _seen(state: Viewed, loc: Any, seat: int, shown: list[Piece]) -> dict[str, list[str]]:
    """What `reveal` showed the seat of a place it cannot see, and that is still there unmoved
    (`Runtime.seen`): `seen`, a label per piece; nothing when it saw nothing there."""
    known = state.rt.seen.get(loc, {}).get(seat)
    if not known:
        return {}
    pieces = [piece for piece, count in known.items() for _ in range(count)]
    shown += pieces
    return {"seen": [label_piece(p) for p in pieces]}


def _cell(state: Viewed, cell: Any, shown: list[Piece]) -> dict[str, Any]:
    """A cell of a grid: its name, place, the face placed there and the pieces on it."""
    rt = state.rt
    pieces = rt.locs.get(cell, [])
    shown += pieces
    return {
        "name": cell.name,
        "q": cell.q,
        "r": cell.r,
        "face": None if rt.faces.get(cell) is None else written(rt.faces[cell]),
        "pieces": dict(Counter(label_piece(p) for p in pieces)),
    }


def _names(state: Viewed) -> dict[str, str]:
    """What players read for each name the view uses as a key: its `called` name, else its name
    in words."""
    rt, program = state.rt, state.game.program
    called = program.names
    assert called is not None
    names = {name: called.decl(name).one for name in rt.vars}
    names |= {f"{per}.{name}": called.decl(name).one for per, name in rt.owned}
    names |= {str(loc): label(loc) for loc in rt.locs if isinstance(loc, ZoneLoc)}
    names |= {str(node): label(node) for nodes in program.map_nodes.values() for node in nodes}
    names |= {written(face): label(face) for face in rt.faces.values()}
    names |= {m: called.decl(m).one for m in program.map_nodes}
    names |= {
        str(grid): called.decl(grid.name).one + ("" if grid.owner is None else f" of {grid.owner}")
        for grid in grids_of(state)
    }
    return names


def _decision(state: Viewed, seat: int | None) -> dict[str, Any] | None:
    """Who decides, the prompt, the options, and beside each the place on the board it denotes.
    Another seat sees who decides and what about, not the options: they may be what the deciding
    seat alone sees (its private hand, a card revealed to it)."""
    decision = state.decision
    if decision is None:
        return None
    if seat is not None and seat != decision.player.seat:
        return {"player": decision.player.seat, "prompt": decision.prompt}
    return {
        "player": decision.player.seat,
        "prompt": decision.prompt,
        "options": decision.options,
        "places": [place(state.game.program, v) for v in state.shown()]
        + [None] * (decision.size - len(decision.values)),
    }


def place(program: Program, value: Any) -> dict[str, Any] | None:
    """The place on the board an option denotes, for a picture of the board to offer it there:
    a grid cell (its grid and q, r), a node of a table map (its map and node), a piece on one
    of them, the end of a route, an area (its first place, and every place of it in `cells`
    or `nodes`), or a placement of a shape (`lay`: the cell or block it is laid at, as q, r,
    its turn in degrees, and every cell it would cover); None for anything else."""
    if isinstance(value, PieceRef):
        value = value.loc
    elif isinstance(value, Route):
        value = value.end
    if isinstance(value, Area):
        first = place(program, value.first)
        if first is None:
            return None
        if "grid" in first:
            return first | {"cells": [[c.q, c.r] for c in value.cells]}
        return first | {"nodes": [str(n) for n in value.cells]}
    if isinstance(value, Placement):
        geometry = value.map.geometry
        q, r = value.block if geometry.block > 1 else value.coords[0]
        return {
            "grid": str(value.map),
            "q": q,
            "r": r,
            "lay": {
                "block": geometry.block,
                "turn": geometry.degrees(value.rotation),
                "cells": [[cq, cr] for cq, cr in value.coords],
            },
        }
    if isinstance(value, Cell):
        return {"grid": str(value.map), "q": value.q, "r": value.r}
    if isinstance(value, Row) and value.table in program.map_of_table:
        return {"map": program.map_of_table[value.table], "node": str(value)}
    return None
