"""Carried state on the native core (`carry`, interpreter/carry.py): a native game started from
a save, and the save a native game ends with.

A save is checked by the Python engine's own code (`carry.check`), so that the two engines take
and refuse a save alike, word for word. `start` checks it against a Python engine's start of the
game (a Runtime with its start values and pieces, no setup run, nothing laid), and hands the core
what to lay, in the core's indexes (src/carry.rs): the carried variables' values, the carried
grids' layers in the order the save gives them (so that the cells they make are numbered in the
Python engine's order), the pieces each carried place gets, and the order of the places that
says where a piece began and whence it is taken. The core lays it over its own start before
setup runs, as `carry.give` lays it over the Python engine's.

`take` reads a native game as `carry.take` reads a Python engine's runtime: the carried
variables, the pieces of the carried places, and each carried grid's cells with their layers,
from the core, through a stand-in for the runtime (`_Position`) holding just those.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from meeple.interpreter import carry
from meeple.interpreter.native.lower import place_key, plain_const
from meeple.interpreter.values import Cell, MapRef, Placement, Player, Row
from meeple.saves import Save, SaveError

if TYPE_CHECKING:
    from meeple.interpreter.engine import Game
    from meeple.interpreter.native.lower import Lowered
    from meeple.interpreter.native.state import NativeState
    from meeple.interpreter.teams import Layout


def start(
    game: Game, lowered: Lowered, players: int, seed: int, budget: int, save: Save, layout: Layout | None
) -> str:
    """The start a save makes of a game, as the core lays it (JSON); SaveError, before anything
    runs, for a save that does not fit the rules, as the Python engine refuses it."""
    from meeple.interpreter.engine import State

    made = State(game, players, seed, budget, None, run_setup=False, logging=False, layout=layout)
    rt, program = made.rt, game.program
    plan = carry.check(rt, save)  # sets the carried variables of `rt`
    out: dict[str, list[Any]] = {key: [] for key in ("vars", "owned", "layers", "order", "grids", "places")}
    rows = lowered.row_index
    for c in program.carried:
        if c.kind == "variable":
            for owner in carry.owners(rt, c.per):
                _variable(out, lowered, rt, c, owner, rows)
    for mapref, laid, _ in plan.layers:
        grid = _grid(lowered, mapref)
        for coords, faces, turns in laid:
            out["layers"].append(
                {"grid": grid, "coords": coords, "rows": [rows[id(row)] for row in faces], "turns": turns}
            )
    out["grids"] = [_grid(lowered, mapref) for mapref in plan.carried_grids]
    kinds = lowered.kind_index
    places = lowered.place_index
    for where, pieces, _ in plan.places:
        if isinstance(where, tuple):  # a cell of a carried grid, by its coordinates
            _, mapref, (q, r) = where
            target: dict[str, Any] = {"Cell": [_grid(lowered, mapref), q, r]}
        else:
            target = {"Loc": places[place_key(where)]}
        runs = [[kinds[id(kind)], None if who is None else who.seat, n] for (kind, who), n in pieces]
        out["places"].append([target, runs])
    out["order"] = [loc for loc in (places.get(place_key(place)) for place in rt.locs) if loc is not None]
    return json.dumps(out)


def _grid(lowered: Lowered, mapref: MapRef) -> int:
    """A grid's index in the core (each MapRef is one object of the program)."""
    return next(i for i, g in enumerate(lowered.grids) if g is mapref)


def _variable(
    out: dict[str, list[Any]], lowered: Lowered, rt: Any, c: carry.Carried, owner: Any, rows: dict[int, int]
) -> None:
    """A carried variable's value after `give`, for its slot in the core."""
    name = c.decl.name

    def const(value: Any) -> Any:
        return plain_const(value, rows)

    if c.per is None:
        out["vars"].append([lowered.variables.index(name), const(rt.vars[name])])
        return
    store = lowered.stores.index((c.per, name))
    index = carry.owners(rt, c.per).index(owner)
    value = rt.owned[(c.per, name)][owner]
    if isinstance(value, dict):  # a value for each row of a table: side by side (src/rows.rs)
        for k, row_value in enumerate(value.values()):
            out["owned"].append([store, index * len(value) + k, const(row_value)])
    else:
        out["owned"].append([store, index, const(value)])


class _Position:
    """What `carry.take` reads of a runtime, read from a native game: the carried variables,
    the pieces of places, each carried grid's cells and the layers on them."""

    def __init__(self, state: NativeState) -> None:
        low, core, program = state.lowered, state.core, state.game.program
        self.program = program
        self.players: list[Player] = low.players[: state.seats]
        self.vars: dict[str, Any] = {}
        self.owned: dict[tuple[str, str], dict[Any, Any]] = {}
        self.grids: dict[MapRef, dict[tuple[int, int], Cell]] = {}
        self.layers: dict[Cell, list[Placement]] = {}
        self.locs = _Pieces(state, low.place_index)
        for c in program.carried:
            name, per = c.decl.name, c.per
            if c.kind == "variable" and per is None:
                self.vars[name] = state.value(core.variable(None, low.variables.index(name)))
            elif c.kind == "variable" and per is not None:
                self.owned[(per, name)] = self._owned(state, c, per)
            elif c.kind == "grid":
                for owner in carry.owners(self, c.per):
                    self._grid(state, program.map_refs[(name, owner)])

    def _owned(self, state: NativeState, c: carry.Carried, per: str) -> dict[Any, Any]:
        low, core = state.lowered, state.core
        store = low.stores.index((per, c.decl.name))
        by = getattr(c.target, "by", None)
        rows: list[Row] = [] if by is None else list(self.program.rows.get(by, []))
        values: dict[Any, Any] = {}
        for i, owner in enumerate(carry.owners(self, per)):
            if by is None:
                values[owner] = state.value(core.variable(store, i))
            else:
                values[owner] = {
                    row: state.value(core.variable(store, i * len(rows) + k)) for k, row in enumerate(rows)
                }
        return values

    def _grid(self, state: NativeState, mapref: MapRef) -> None:
        """A carried grid's cells, and the layers on each (one object per layer, as the
        Python engine's layers are, so that `carry` lays them again in an order that fits)."""
        low, core = state.lowered, state.core
        cells: dict[tuple[int, int], Cell] = {}
        made: dict[int, Placement] = {}
        for loc, q, r, stack in core.cells(_grid(low, mapref)):
            cell = cells[(q, r)] = Cell(mapref, q, r)
            self.locs.grown[id(cell)] = loc
            for layer in stack:
                if layer not in made:
                    coords, faces, turns = core.layer(layer)
                    made[layer] = Placement(
                        mapref, [tuple(at) for at in coords], [low.rows[f] for f in faces], turns
                    )
            self.layers[cell] = [made[layer] for layer in stack]
        self.grids[mapref] = cells


class _Pieces:
    """The pieces of a native game's places, by the Python engine's places (`rt.locs`)."""

    def __init__(self, state: NativeState, places: dict[Any, int]) -> None:
        self.state = state
        self.places = places
        self.grown: dict[int, int] = {}  # a carried grid's cell (its id) -> its location

    def __getitem__(self, place: Any) -> list[Any]:
        loc = self.grown.get(id(place))
        if loc is None:
            loc = self.places[place_key(place)]
        low = self.state.lowered
        players = low.players
        return [(low.kinds[k], None if s is None else players[s]) for k, s in self.state.core.pieces(loc)]

    def get(self, place: Any, default: Any = None) -> list[Any] | None:
        try:
            return self[place]
        except KeyError:
            return default


class _Taken:
    """A native game as `carry.take` reads a game: its runtime and its rules."""

    def __init__(self, state: NativeState) -> None:
        self.rt = _Position(state)
        self.game = state.game


def take(state: NativeState) -> Save:
    """What the rules carry, as the native game stands now (as State.save)."""
    if not state.game.program.carried:
        raise SaveError(f"{state.game.name} carries nothing: its rules have no 'carry' line")
    return carry.take(_Taken(state))
