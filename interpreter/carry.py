"""Carried state: what a game's end hands to a later game's start (`carry NAME [per OWNER]`).

A rules file declares what is carried: variables (global, per player, per row of a table, per
owner and table), zones (their pieces) and grid maps (their layers and the pieces on their
cells). `take` reads those at any moment of a game (the end, for `meeple play --save`) into a
`Save` (meeple/saves.py); `give` sets them at the start of another game, after every variable
has its start value and every piece its start place, and before setup runs:

- a carried variable starts with the saved value instead of its own start value;
- a carried zone, or a carried grid's cell, holds exactly the saved pieces, in the saved order.
  Pieces are never created: each comes from wherever it began (first from the carried places,
  then from the others, in the order of the game's places, from the top), and a piece a carried
  place held at the start but the save does not give it goes back where pieces of its kind and
  owner began;
- a carried grid gets the saved layers, laid in the saved order, before any piece is placed.

An envelope that outlasts the seating (a family, a character, a team) is a row of a table: what
is carried `per TABLE` is saved under the row's key, whoever sits where. What is carried `per
player` is saved by seat and needs a game of as many players.

A save comes from a file anyone can write, so `give` checks every entry against the rules before
it changes anything that a refusal would leave behind: the game's name, each declaration and
owner, each row, each value's type and range, each piece's kind and owner, and that the pieces
exist. A refused save raises SaveError; the half-made state is thrown away by the caller (a game
that refuses its save never starts).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter import grids, layers
from meeple.interpreter.analysis import Analyzer, Symbols, type_of_ref
from meeple.interpreter.types import BOOL, INT, PLAYER, SCALARS, TEXT
from meeple.interpreter.types import Row as RowType
from meeple.interpreter.values import (
    Cell,
    Kind,
    Location,
    MapRef,
    Placement,
    Player,
    Row,
    label,
    label_piece,
    label_pieces,
)
from meeple.saves import SAVE_FORMAT, Save, SavedCell, SavedEntry, SavedLayer, SavedPieces, SaveError

# What a carried variable may hold: a value a file can write down and read back (and a row).
CARRIED_TYPES = SCALARS
# A cell of a carried grid, by its coordinates: found once the grid's saved layers are laid.
CellAt = tuple[str, MapRef, tuple[int, int]]


@dataclass(frozen=True)
class Carried:
    """A `carry` line, resolved: what it names, of which kind, and its owners' kind."""

    decl: ast.CarryDecl
    kind: str  # "variable", "zone" or "grid"
    target: ast.VarDecl | ast.ZoneDecl | ast.MapDecl
    per: str | None  # None (shared), "player", or a table


# ---------------------------------------------------------------- analysis


def resolve(symbols: Symbols, analyzer: Analyzer) -> tuple[list[Carried], list[Diagnostic]]:
    """Each `carry` line's declaration, and what is wrong with the lines (M010 an unknown name,
    M011 a line twice, M014 a variable whose type a save cannot hold or a condition that is not
    yes or no; the analyzer reports what is wrong inside a condition)."""
    out: list[Carried] = []
    diags: list[Diagnostic] = []
    seen: set[tuple[str, str | None]] = set()
    for decl in symbols.module.decls:
        if not isinstance(decl, ast.CarryDecl):
            continue
        if decl.condition is not None:
            analyzer.expect(
                decl.condition, analyzer.expr(decl.condition, {}), BOOL, "the condition of 'carry'"
            )
        found = _find(symbols, decl)
        if found is None:
            where = f" per {decl.per}" if decl.per else ""
            diags.append(
                _at(
                    decl,
                    codes.UNKNOWN_NAME,
                    f"nothing to carry called '{decl.name}'{where}",
                    "carry names a variable, a zone or a grid map, with its 'per' if it has one",
                )
            )
            continue
        if (decl.name, decl.per) in seen:
            diags.append(_at(decl, codes.DECLARED_TWICE, f"'{decl.name}' is carried twice"))
            continue
        seen.add((decl.name, decl.per))
        if isinstance(found.target, ast.VarDecl):
            var = found.target
            kind = type_of_ref(var.type, symbols)
            if kind not in CARRIED_TYPES and not isinstance(kind, RowType):
                diags.append(
                    _at(
                        decl,
                        codes.WRONG_TYPE,
                        f"variable '{var.name}' cannot be carried: a save holds a number, yes/no, a text, "
                        "a player or a row of a table",
                        f"give it one of those types: var {var.name}: int = ...",
                    )
                )
                continue
        out.append(found)
    return out, diags


def _find(symbols: Symbols, decl: ast.CarryDecl) -> Carried | None:
    name, per = decl.name, decl.per
    if per is None:
        if name in symbols.vars:
            return Carried(decl, "variable", symbols.vars[name], None)
        if name in symbols.zones:
            return Carried(decl, "zone", symbols.zones[name], None)
        m = symbols.maps.get(name)
        if m is not None and m.grid is not None and m.per is None:
            return Carried(decl, "grid", m, None)
        return None
    if name in symbols.owned_vars.get(per, {}):
        return Carried(decl, "variable", symbols.owned_vars[per][name], per)
    if name in symbols.owned_zones.get(per, {}):
        return Carried(decl, "zone", symbols.owned_zones[per][name], per)
    m = symbols.maps.get(name)
    if m is not None and m.grid is not None and m.per == per:
        return Carried(decl, "grid", m, per)
    return None


def _at(node: ast.Node, code: str, message: str, hint: str = "") -> Diagnostic:
    span = node.span
    end = span.end_column if span.end_line == span.line else 0
    return Diagnostic(span.file, max(span.line, 1), max(span.column, 1), "error", code, message, hint, end)


# ---------------------------------------------------------------- the save of a game


def owners(rt: Any, per: str | None) -> list[Player | Row | None]:
    """Whom a carried declaration has one of: nobody (shared), each player, each row."""
    if per is None:
        return [None]
    if per == "player":
        return list(rt.players)
    return list(rt.program.rows.get(per, []))


def take(state: Any) -> Save:
    """What the rules carry, as the game stands now."""
    rt, program = state.rt, state.game.program
    names = program.names
    entries: list[SavedEntry] = []
    for c in program.carried:
        name = c.decl.name
        called = names.decl(name).one if names is not None else name
        for owner in owners(rt, c.per):
            whose = (
                {}
                if owner is None
                else {"seat": owner.seat}
                if isinstance(owner, Player)
                else {"row": owner.key}
            )
            words = called if owner is None else f"{called} of {label(owner)}"
            base = {"carry": name, "per": c.per, "kind": c.kind, "called": words, **whose}
            if c.kind == "variable":
                store = rt.vars if c.per is None else rt.owned[(c.per, name)]
                value = store[name] if c.per is None else store[owner]
                if isinstance(value, dict):
                    base["values"] = {row.key: _out(v) for row, v in value.items()}
                    base["shows"] = ", ".join(f"{label(row)} {label(v)}" for row, v in value.items())
                else:
                    base["value"] = _out(value)
                    base["shows"] = label(value)
            elif c.kind == "zone":
                base["pieces"] = _runs(rt.locs[program.zone_locs[(name, owner)]])
            else:
                mapref = program.map_refs[(name, owner)]
                grid = rt.grids.get(mapref, {})
                base["layers"] = [
                    SavedLayer(
                        cells=list(layer.coords), rows=[r.key for r in layer.rows], turns=layer.rotation
                    )
                    for layer in _laid_order(rt, grid)
                ]
                base["cells"] = [
                    SavedCell(cell=(cell.q, cell.r), pieces=_runs(rt.locs[cell]))
                    for cell in grid.values()
                    if rt.locs.get(cell)
                ]
            entries.append(SavedEntry(**base))
    return Save(meeple_save=SAVE_FORMAT, game=program.name, players=len(rt.players), entries=entries)


def _out(value: Any) -> Any:
    """A variable's value as a save writes it: a row by its key, a player by its seat."""
    if isinstance(value, Row):
        return value.key
    if isinstance(value, Player):
        return value.seat
    return value


def _runs(pieces: list[Any]) -> list[SavedPieces]:
    """A place's pieces as runs of one kind and owner, bottom first."""
    runs: list[list[Any]] = []
    for piece in pieces:
        if runs and runs[-1][0] == piece:
            runs[-1][1] += 1
        else:
            runs.append([piece, 1])
    return [
        SavedPieces(
            piece=kind.name,
            row=kind.row.key if kind.row is not None else None,
            seat=owner.seat if owner is not None else None,
            count=n,
            called=f"{n} {label_pieces((kind, owner)) if n > 1 else label_piece((kind, owner))}",
        )
        for (kind, owner), n in runs
    ]


def _laid_order(rt: Any, grid: dict[tuple[int, int], Cell]) -> list[Placement]:
    """A grid's layers in an order that lays them again as they are: each after every layer
    under it on any of its cells (a layer is laid at one moment, so such an order exists)."""
    below: dict[int, set[int]] = {}
    found: dict[int, Placement] = {}
    for cell in grid.values():
        stack = rt.layers.get(cell, [])
        for i, layer in enumerate(stack):
            found.setdefault(id(layer), layer)
            below.setdefault(id(layer), set()).update(id(x) for x in stack[:i])
    order: list[Placement] = []
    done: set[int] = set()
    pending = list(found)
    while pending:
        ready = [k for k in pending if below[k] <= done] or pending[:1]  # (never empty: see above)
        for k in ready:
            order.append(found[k])
            done.add(k)
        pending = [k for k in pending if k not in done]
    return order


# ---------------------------------------------------------------- a game started from a save


def give(rt: Any, save: Save) -> None:
    """Start this game from `save`: the carried variables, grids and places as it says.
    Raises SaveError, naming the entry, for a save that does not fit the rules."""
    plan = check(rt, save)
    for mapref, laid, _ in plan.layers:
        _lay(rt, mapref, laid)
    _place(rt, plan)
    rt.forget()


@dataclass
class Plan:
    """A save checked against a game's start: what `give` lays over it (the native core lays it
    itself, interpreter/native/carried.py). The carried variables are set already."""

    layers: list[tuple[MapRef, list[tuple[list[tuple[int, int]], list[Row], int]], str]]
    places: list[tuple[Location | CellAt, list[tuple[tuple[Kind, Any], int]], str]]
    carried_grids: set[MapRef]


def check(rt: Any, save: Save) -> Plan:
    """Check `save` against this game's start (every piece where it starts, no layer laid) and
    set the carried variables; what is left to lay, in the order `give` lays it. Raises
    SaveError, naming the entry, in the order `give` would meet each fault."""
    program = rt.program
    if save.game != program.name:
        raise SaveError(f"the save is from the game '{save.game}', not '{program.name}'")
    entries = _entries_by_owner(save)
    _check_entries(rt, save)
    places, laid = _give_entries(rt, entries)
    cells: dict[MapRef, set[tuple[int, int]]] = {}
    layers = []
    for mapref, saved_layers, what in laid:
        there = cells.setdefault(mapref, set(rt.grids.get(mapref, {})))
        layers.append((mapref, _check_layers(rt, mapref, saved_layers, what, there), what))
    plan = Plan(layers, [], {mapref for mapref, _, _ in laid})
    _check_places(rt, plan, places, cells)
    return plan


EntryKey = tuple[str, str | None, Any]  # what is carried, per what, and whose (a seat, a row's key)
Places = list[tuple[Location | CellAt, list[SavedPieces], str]]  # where pieces go, which, in words


def _entries_by_owner(save: Save) -> dict[EntryKey, SavedEntry]:
    """The save's entries by what they carry and whose it is; an entry given twice is refused."""
    entries: dict[EntryKey, SavedEntry] = {}
    for e in save.entries:
        key = (e.carry, e.per, e.seat if e.per == "player" else e.row)
        if key in entries:
            raise SaveError(f"the save gives {_entry_words(e)} twice")
        entries[key] = e
    return entries


def _check_entries(rt: Any, save: Save) -> None:
    """Refuse a save whose entries these rules do not carry (or carry as another kind), from a
    game of another number of players when something is carried per player, or for an owner the
    game does not have (a seat past the players, a row not there)."""
    program = rt.program
    known = {(c.decl.name, c.decl.per): c for c in program.carried}
    for e in save.entries:
        c = known.get((e.carry, e.per))
        if c is None:
            where = f" per {e.per}" if e.per else ""
            raise SaveError(f"the save carries '{e.carry}'{where}, which these rules do not carry")
        if e.kind != c.kind:
            raise SaveError(f"the save gives '{e.carry}' as a {e.kind}; these rules carry a {c.kind}")
    if any(c.per == "player" for c in program.carried) and save.players != len(rt.players):
        raise SaveError(
            f"the save is from a game of {save.players} players; these rules carry what each player has, "
            f"so the game must have {save.players} players, not {len(rt.players)}"
        )
    for e in save.entries:
        if e.per == "player" and (e.seat is None or e.seat >= len(rt.players)):
            raise SaveError(f"the save gives {_entry_words(e)}, but the game has {len(rt.players)} players")
        if e.per not in (None, "player") and (
            e.row is None or e.row not in program.row_by_key.get(e.per, {})
        ):
            raise SaveError(f"the save gives {_entry_words(e)}, but '{e.per}' has no row '{e.row}'")


def _give_entries(
    rt: Any, entries: dict[EntryKey, SavedEntry]
) -> tuple[Places, list[tuple[MapRef, list[SavedLayer], str]]]:
    """Set each carried variable from its entry, and return where the carried pieces go and
    which layers each carried grid gets (laid and placed once every entry is read). Every owner
    of everything carried must have an entry."""
    program = rt.program
    places: Places = []
    laid: list[tuple[MapRef, list[SavedLayer], str]] = []
    for c in program.carried:
        for owner in owners(rt, c.per):
            key_owner = None if owner is None else owner.seat if isinstance(owner, Player) else owner.key
            entry = entries.get((c.decl.name, c.per, key_owner))
            what = c.decl.name if owner is None else f"{c.decl.name} of {label(owner)}"
            if entry is None:
                raise SaveError(f"the save has nothing for {what}")
            if c.kind == "variable":
                _set_variable(rt, c, owner, entry, what)
            elif c.kind == "zone":
                places.append((program.zone_locs[(c.decl.name, owner)], entry.pieces or [], what))
            else:
                mapref = program.map_refs[(c.decl.name, owner)]
                laid.append((mapref, entry.layers or [], what))
                for saved in entry.cells or []:
                    places.append((("cell", mapref, saved.cell), saved.pieces, f"{what} at {saved.cell}"))
    return places, laid


def _entry_words(e: SavedEntry) -> str:
    whose = f" of Player {e.seat + 1}" if e.seat is not None else f" of {e.row}" if e.row is not None else ""
    return f"'{e.carry}'{whose}"


def _set_variable(rt: Any, c: Carried, owner: Any, e: SavedEntry, what: str) -> None:
    var = c.target
    assert isinstance(var, ast.VarDecl)
    program = rt.program
    if var.by is not None:
        if e.values is None:
            raise SaveError(f"the save gives {what} one value; it has one for each {var.by}")
        rows = program.rows.get(var.by, [])
        unknown = sorted(set(e.values) - {r.key for r in rows})
        if unknown:
            raise SaveError(f"the save gives {what} a value for '{unknown[0]}', which is not a {var.by}")
        missing = [r.key for r in rows if r.key not in e.values]
        if missing:
            raise SaveError(f"the save has no value of {what} for '{missing[0]}'")
        store = rt.owned[(c.per, var.name)]
        store[owner] = {r: _in(rt, var, e.values[r.key], f"{what} for {r.key}") for r in rows}
        return
    if e.values is not None:
        raise SaveError(f"the save gives {what} a value for each row; it has one value")
    value = _in(rt, var, e.value, what)
    if c.per is None:
        rt.vars[var.name] = value
    else:
        rt.owned[(c.per, var.name)][owner] = value


def _in(rt: Any, var: ast.VarDecl, value: Any, what: str) -> Any:
    """A saved value as the variable holds it, refused if its type or range does not fit."""
    program = rt.program
    kind = type_of_ref(var.type, program.symbols)
    optional = var.type is not None and var.type.optional
    if value is None:
        if optional:
            return None
        raise SaveError(f"the save gives {what} no value, and it must have one")
    if kind == INT:
        if type(value) is not int:
            raise SaveError(f"the save gives {what} {value!r}, which is not a whole number")
        if var.within is not None:
            low, high = program.carry_bounds[(var.name, var.per)]
            if not low <= value <= high:
                raise SaveError(f"the save gives {what} {value}, outside {low} to {high}")
        return value
    if kind == BOOL:
        if type(value) is not bool:
            raise SaveError(f"the save gives {what} {value!r}, which is not yes or no")
        return value
    if kind == TEXT:
        if type(value) is not str:
            raise SaveError(f"the save gives {what} {value!r}, which is not a text")
        return value
    if kind == PLAYER:
        if type(value) is not int or not 0 <= value < len(rt.players):
            raise SaveError(f"the save gives {what} {value!r}, which is not a seat of this game")
        return rt.players[value]
    table = kind.table if isinstance(kind, RowType) else ""
    row = program.row_by_key.get(table, {}).get(value) if type(value) is str else None
    if row is None:
        raise SaveError(f"the save gives {what} {value!r}, which is not a {table}")
    return row


def _check_layers(
    rt: Any, mapref: MapRef, saved_layers: list[SavedLayer], what: str, there: set[tuple[int, int]]
) -> list[tuple[list[tuple[int, int]], list[Row], int]]:
    """A carried grid's saved layers checked, each as it would be laid in the saved order on the
    cells `there` (which grows as they are laid): its cells, rows and turn."""
    decl = rt.program.symbols.maps[mapref.name]
    faces = rt.program.row_by_key.get(decl.faces or "", {})
    out = []
    for n, saved in enumerate(saved_layers, 1):
        if len(saved.rows) != len(saved.cells):
            raise SaveError(f"layer {n} of {what} has {len(saved.cells)} cells and {len(saved.rows)} rows")
        rows = []
        for key in saved.rows:
            if key not in faces:
                raise SaveError(f"layer {n} of {what} shows '{key}', which is not a {decl.faces}")
            rows.append(faces[key])
        coords = [(q, r) for q, r in saved.cells]
        if len(set(coords)) != len(coords):
            raise SaveError(f"layer {n} of {what} covers a cell twice")
        if mapref.board is not None and any(c not in mapref.board for c in coords):
            raise SaveError(f"layer {n} of {what} covers a cell that is not on the board")
        over = [c in there for c in coords]
        if any(over) and not all(over):  # layers.lay's refusal, where the layer lies partly over
            raise SaveError(f"layer {n} of {what}: the shape would cover cells of {mapref} already there")
        there.update(coords)
        out.append((coords, rows, saved.turns % 360))
    return out


def _lay(rt: Any, mapref: MapRef, laid: list[tuple[list[tuple[int, int]], list[Row], int]]) -> None:
    """Lay the checked layers on a carried grid, in the saved order."""
    grid = grids.grid_of(rt, mapref)
    for coords, rows, turns in laid:
        layers.lay(rt, mapref, coords, rows, turns, all(c in grid for c in coords))


def _check_places(rt: Any, plan: Plan, places: Places, cells: dict[MapRef, set[tuple[int, int]]]) -> None:
    """Check that the saved pieces can be put in the carried places, each taken from where it
    began (counting, moving nothing), and add each place and its pieces to `plan`."""
    resolved: list[tuple[Location | CellAt, list[SavedPieces], str]] = []
    for where, runs, what in places:
        if isinstance(where, tuple):  # a cell of a carried grid, by its coordinates
            _, mapref, (q, r) = where
            if (q, r) not in cells.get(mapref, set()):
                raise SaveError(f"the save puts pieces on {what}, where the grid has no cell")
            where = ("cell", mapref, (q, r))
        resolved.append((where, runs, what))
    targets = {where for where, _, _ in resolved}
    home: dict[tuple[Kind, Any], Location] = {}
    loose: dict[tuple[Kind, Any], int] = defaultdict(int)  # lifted from the carried places
    spare: dict[tuple[Kind, Any], int] = defaultdict(int)  # in the places not carried
    for loc, held in rt.locs.items():
        carried = loc in targets or (isinstance(loc, Cell) and loc.map in plan.carried_grids)
        for piece in held:
            home.setdefault(piece, loc)
            (loose if carried else spare)[piece] += 1
    kinds = _kinds_by_name(rt.program)
    for where, runs, what in resolved:
        pieces = []
        for run in runs:
            piece = _piece_of(rt, kinds, run, what)
            took = min(run.count, loose.get(piece, 0))
            loose[piece] = loose.get(piece, 0) - took
            if spare[piece] < run.count - took:
                raise SaveError(
                    f"the save puts {run.count} of {label_piece(piece)} in {what}: "
                    "the game does not have that many"
                )
            spare[piece] -= run.count - took
            pieces.append((piece, run.count))
        plan.places.append((where, pieces, what))
    for piece, left in loose.items():
        back = home[piece]
        if left and (back in targets or (isinstance(back, Cell) and back.map in plan.carried_grids)):
            raise SaveError(
                f"the save leaves {left} of {label_piece(piece)} with no place: they began in "
                f"{label(back)}, which is carried, and the save puts them in no carried place "
                "(the rules should carry the place they went to as well)"
            )


def _place(rt: Any, plan: Plan) -> None:
    """Put the saved pieces in the carried places (checked), taking each from where it began:
    first from the carried places, then from the others, in the order of the game's places, from
    the top; a piece a carried place held that the save does not give it goes back where pieces
    of its kind and owner began."""
    targets = []
    for where, runs, _ in plan.places:
        if isinstance(where, tuple):
            _, mapref, at = where
            where = rt.grids[mapref][at]
        targets.append((where, runs))
    carried: set[Location] = {loc for loc, _ in targets}
    for mapref in plan.carried_grids:
        carried.update(rt.grids.get(mapref, {}).values())
    home: dict[tuple[Kind, Any], Location] = {}
    for loc, held in rt.locs.items():
        for piece in held:
            home.setdefault(piece, loc)
    loose: dict[tuple[Kind, Any], int] = defaultdict(int)
    for loc in rt.locs:
        if loc in carried and rt.locs[loc]:
            for piece in rt.locs[loc]:
                loose[piece] += 1
            rt.locs[loc].clear()
    others = [loc for loc in rt.locs if loc not in carried]
    for loc, runs in targets:
        for piece, count in runs:
            took = min(count, loose.get(piece, 0))
            loose[piece] = loose.get(piece, 0) - took
            _take(rt, others, piece, count - took)
            rt.locs[loc].extend([piece] * count)
    for piece, left in loose.items():
        if left:
            rt.locs[home[piece]].extend([piece] * left)


def _kinds_by_name(program: Any) -> dict[tuple[str, str | None], Kind]:
    """Every kind of piece by its piece's name and its row's key (None for a piece of no table)."""
    kinds: dict[tuple[str, str | None], Kind] = {}
    for name, group in program.kinds.items():
        for k in group:
            kinds[(name, k.row.key if k.row is not None else None)] = k
    return kinds


def _piece_of(
    rt: Any, kinds: dict[tuple[str, str | None], Kind], run: SavedPieces, what: str
) -> tuple[Kind, Any]:
    """The piece (kind and owner) a run of the save names; refused if the rules or the seats
    have no such piece."""
    kind = kinds.get((run.piece, run.row))
    if kind is None:
        named = run.piece + (f" {run.row}" if run.row else "")
        raise SaveError(f"the save puts '{named}' in {what}: these rules have no such piece")
    if run.seat is not None and run.seat >= len(rt.players):
        raise SaveError(
            f"the save puts pieces of Player {run.seat + 1} in {what}, in a game of {len(rt.players)}"
        )
    return kind, rt.players[run.seat] if run.seat is not None else None


def _take(rt: Any, others: list[Location], piece: tuple[Kind, Any], need: int) -> None:
    """Take `need` of the piece (there are that many: `_check_places`) from the places not
    carried, in their order, each from the top."""
    for other in others:
        if need == 0:
            break
        held = rt.locs[other]
        for i in range(len(held) - 1, -1, -1):  # from the top
            if need and held[i] == piece:
                del held[i]
                need -= 1
