"""The program's fixed data, made once per rules file and shared by every game: a `Row` per table
row (references between tables resolved to the rows), a `Kind` per kind of piece, a `ZoneLoc` per
zone instance, map nodes and their adjacency, grid maps, movements; and the initializer that sets
every variable to its start value (within its bounds) and lays out every piece at the start."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols, is_keyed
from meeple.interpreter.compiler.base import (
    _ERRORS,
    Part,
    _Fixed,
    _nothing,
)
from meeple.interpreter.geometry import board, board_cells, cell_names, geometry
from meeple.interpreter.names import Names, called_each
from meeple.interpreter.own_names import SELF
from meeple.interpreter.program import Fn, Movement, Program
from meeple.interpreter.runtime import (
    RuleRuntimeError,
    describe,
)
from meeple.interpreter.seats import automated_seats
from meeple.interpreter.types import ANY, ListOf, element
from meeple.interpreter.types import Row as RowType
from meeple.interpreter.values import (
    Kind,
    MapRef,
    Player,
    Row,
    ZoneLoc,
    label,
)
from meeple.limits import MAX_CELLS, MAX_PIECES


def adjacency_for(p: Program, sym: Symbols, e: ast.Call, named: ast.Expr) -> dict[Row, list[Row]]:
    """The edges a graph query walks: of the map `named` names (`neighbours(x, m)`,
    `regions(m, attr)`), else of the map built on the table of the query's first argument. (The
    native engine's lowering asks the same.)"""
    if isinstance(named, ast.Name) and named.id in p.adjacency:
        return p.adjacency[named.id]
    owner = sym.types.get(id(e.args[0]), ANY)
    node = element(owner) if isinstance(owner, ListOf) else owner
    table = node.table if isinstance(node, RowType) else ""
    merged: dict[Row, list[Row]] = {}
    for name, adjacency in p.adjacency.items():
        if p.map_of_table.get(table, name) == name:
            merged.update(adjacency)
    return merged


class Data(Part):
    def build_data(self) -> None:
        """The canonical values: rows, the kinds of piece, zones and maps."""
        p, sym = self.p, self.sym
        names = p.names = Names(sym)  # what players read: options, logs and positions say these
        p.automata = list(sym.automata)  # seats the rules play (interpreter/seats.py)
        p.automated = automated_seats(p.automata, names, p.min_players, p.max_players)
        every_seat = p.players + [s for seats in p.automated.values() for s in seats]
        self.build_rows(names)
        self.build_kinds(names)
        self.build_zones(names, every_seat)
        for m in sym.maps.values():
            if m.grid is not None:
                board = self.board(m)
                for owner in every_seat if m.per == "player" else [None]:
                    p.map_refs[(m.name, owner)] = MapRef(m.name, owner, geometry(m.grid, m.block), board)
            else:
                self.build_graph(m)

    def build_rows(self, names: Names) -> None:
        """A `Row` per row of each table, its cells' references to other tables resolved to the
        rows themselves, and each row's name as players read it."""
        p, sym = self.p, self.sym
        for table in sym.tables.values():
            keyed = is_keyed(table)
            rows = [
                Row(table.name, str(r.cells[0]) if keyed else f"{table.name} {i + 1}", i)
                for i, r in enumerate(table.rows)
            ]
            p.rows[table.name] = rows
            p.row_by_key[table.name] = {r.key: r for r in rows}
        for table in sym.tables.values():
            for row, src in zip(p.rows[table.name], table.rows, strict=True):
                for col, cell in zip(table.columns, src.cells, strict=False):
                    ref = col.type.name if col.type else None
                    if ref in p.row_by_key and isinstance(cell, str):
                        row.values[col.name] = p.row_by_key[ref][cell]
                    else:
                        row.values[col.name] = cell
                called = names.called_row(table.name, row.key)
                if called is not None and called.one:
                    row.name = called.one  # the name players read (docs/language.md, "called")
        # Rows named of their cells (`called each`), once every row has its own name to be shown by.
        for table in sym.tables.values():
            each = called_each(table)
            if each is not None:
                self.rule = f"the rows of table {table.name}"
                parts = [part if isinstance(part, str) else self.expr(part, {SELF}) for part in each.parts]
                for row in p.rows[table.name]:
                    env = {SELF: row}
                    row.name = "".join(
                        part if isinstance(part, str) else label(part(_Fixed(), env)) for part in parts
                    )

    def build_kinds(self, names: Names) -> None:
        """The kinds of each piece: one, or one per row of the table it is made from."""
        p = self.p
        for piece in self.sym.pieces.values():
            rows_of = piece.each_row_of or piece.per_row_of
            called = names.decl(piece.name)
            if rows_of:
                p.kinds[piece.name] = [
                    Kind(piece.name, r, many=names.row(rows_of, r.key).many) for r in p.rows.get(rows_of, [])
                ]
            else:
                p.kinds[piece.name] = [Kind(piece.name, None, called.one, called.many)]

    def build_zones(self, names: Names, every_seat: list[Player]) -> None:
        """A `ZoneLoc` per shared zone, and per owner of each owned zone."""
        p, sym = self.p, self.sym
        for zone in sym.zones.values():
            p.zone_locs[(zone.name, None)] = ZoneLoc(zone.name, None, names.decl(zone.name).one)
        for per, group in sym.owned_zones.items():
            owners: list[Any] = every_seat if per == "player" else p.rows.get(per, [])
            for zone in group.values():
                for owner in owners:
                    p.zone_locs[(zone.name, owner)] = ZoneLoc(zone.name, owner, names.decl(zone.name).one)

    def build_graph(self, m: ast.MapDecl) -> None:
        """A map of nodes: its nodes, where each is drawn, and who is next to whom (its edges, both
        ways, each once)."""
        p = self.p
        nodes = p.rows.get(m.nodes, [])
        p.map_nodes[m.name] = nodes
        if m.at:
            p.node_at[m.name] = self.node_positions(m, nodes)
        p.map_of_table.setdefault(m.nodes, m.name)
        adjacency: dict[Row, list[Row]] = {node: [] for node in nodes}
        p.adjacency[m.name] = adjacency
        if not (m.edges and m.edge_from and m.edge_to):
            return
        for edge in p.rows.get(m.edges, []):
            a, b = edge.values.get(m.edge_from), edge.values.get(m.edge_to)
            if a in adjacency and b in adjacency:
                if b not in adjacency[a]:
                    adjacency[a].append(b)
                if a not in adjacency[b]:
                    adjacency[b].append(a)

    def node_positions(self, m: ast.MapDecl, nodes: list[Row]) -> dict[Row, tuple[int, int]]:
        """`nodes T at X, Y`: where each node is drawn, computed once from its row, before any
        game (so reading the position is refused, as in a constant)."""
        self.rule = f"map {m.name}"
        x, y = (self.expr(e, {SELF}) for e in m.at)
        out = {}
        for node in nodes:
            env = {SELF: node}
            try:
                out[node] = (int(x(_Fixed(), env)), int(y(_Fixed(), env)))
            except _ERRORS as err:
                raise RuleRuntimeError(
                    f"where {node.name} is drawn must be known before the game: {describe(err)}", m.at[0].span
                ) from None
        return out

    def movement(self, decl: ast.MovementDecl) -> Movement:
        self.rule = f"movement {decl.name}"
        params = [x.name for x in decl.params]
        scope = {*params, "start"}

        def optional(e: ast.Expr | None, var: str | None = None) -> Fn | None:
            return self.expr(e, scope | ({var} if var else set())) if e is not None else None

        return Movement(
            params=params,
            steps=optional(decl.steps) or (lambda rt, env: [1]),
            step_var=decl.step_var,
            step=optional(decl.step, decl.step_var),
            step_span=decl.step.span if decl.step is not None else None,
            straight=optional(decl.straight),
            backtracks=optional(decl.backtracks),
            through_var=decl.through_var,
            through=optional(decl.through, decl.through_var),
            ends_var=decl.ends_var,
            ends=optional(decl.ends, decl.ends_var),
        )

    def board(self, m: ast.MapDecl) -> dict[tuple[int, int], str] | None:
        """The cells of a board given by its size, with their names; None for a grid that grows.
        A size may be a constant, so it is known here, once the file is loaded: one that is not
        a whole number from 1 up, or that makes more cells than a board may have, is refused at
        the size that says it."""
        if m.outline is None:
            return None
        sizes = []
        for term in m.size:
            size = self.expr(term, set())(_Fixed(), {})
            if isinstance(size, bool) or not isinstance(size, int) or size < 1:
                raise RuleRuntimeError(f"a board's size is a whole number from 1 up, not {size!r}", term.span)
            sizes.append(size)
        count = board_cells(m.outline, sizes)
        if count > MAX_CELLS:
            raise RuleRuntimeError(
                f"a board of {count:,} cells is more than a game can hold (at most {MAX_CELLS:,})", m.span
            )
        return cell_names(board(m.grid or "square", m.outline, sizes))

    def adjacency_for(self, e: ast.Call, named: ast.Expr) -> dict[Row, list[Row]]:
        return adjacency_for(self.p, self.sym, e, named)

    def _clamp(self, decl: ast.VarDecl | None) -> Callable[[Any], Any] | None:
        within = self.within(decl)
        if within is None:
            return None
        low, high = within
        return lambda v: low if v < low else high if v > high else v

    def within(self, decl: ast.VarDecl | None) -> tuple[int, int] | None:
        """A variable's `within LOW..HIGH`, known when the file is loaded; None without one."""
        if decl is None or decl.within is None:
            return None
        bounds = self.expr(decl.within, set())(_Fixed(), {})
        return min(bounds), max(bounds)

    def initializer(self) -> Callable[[Any], None]:
        """Sets every variable to its start value and puts every piece in its start zone."""
        p, sym = self.p, self.sym
        self.rule = "the start of the game"
        global_vars = [(v.name, self.expr(v.init, set()), self._clamp(v)) for v in sym.vars.values()]
        owned = [
            (per, v.name, self.expr(v.init, {SELF}), self._clamp(v), v.by)
            for per, group in sym.owned_vars.items()
            for v in group.values()
        ]
        # Each piece with its count (none for one piece per row: `_nothing`) and its zone (none
        # when each player's pieces start in their own zone, named by its last item).
        placements: list[tuple[ast.PieceDecl, Fn, Fn, str | None]] = []
        for piece in sym.pieces.values():
            count = self.expr(piece.count, {SELF}) if piece.count is not None else _nothing
            zone = piece.zone
            own_zone = (
                isinstance(zone, ast.Name)
                and piece.per_player
                and zone.id in sym.owned_zones.get("player", {})
            )
            where = _nothing if own_zone else self.expr(zone, set())
            placements.append(
                (piece, count, where, zone.id if own_zone and isinstance(zone, ast.Name) else None)
            )

        def init(rt: Any) -> None:
            total = 0

            def laid_out(piece: ast.PieceDecl, n: int) -> int:
                """Count the pieces laid out so far, refusing more than a machine holds."""
                nonlocal total
                total += n
                if n < 0 or total > MAX_PIECES:
                    what = f"{n} pieces" if n < 0 else f"more than {MAX_PIECES:,} pieces in all"
                    raise RuleRuntimeError(
                        f"'{piece.name}' asks for {what}", piece.span, "the start of the game"
                    )
                return n

            for name, fn, clamp in global_vars:
                v = fn(rt, {})
                rt.vars[name] = clamp(v) if clamp else v
            for per, name, fn, clamp, by in owned:
                owners = rt.players if per == "player" else p.rows.get(per, [])
                store = rt.owned[(per, name)] = {}
                for owner in owners:
                    if by is not None:  # a value for each row: a dict the owner's variable holds
                        values = [fn(rt, {SELF: owner}) for _ in p.rows[by]]
                        store[owner] = {
                            r: clamp(v) if clamp else v for r, v in zip(p.rows[by], values, strict=True)
                        }
                        continue
                    v = fn(rt, {SELF: owner})
                    store[owner] = clamp(v) if clamp else v
            for piece, count, where, own_zone in placements:
                kinds = p.kinds[piece.name]
                if piece.each_row_of:
                    rt.locs[where(rt, {})].extend((k, None) for k in kinds)
                    continue
                if piece.per_row_of:
                    pile = rt.locs[where(rt, {})]
                    for k in kinds:
                        pile.extend([(k, None)] * laid_out(piece, count(rt, {SELF: k.row})))
                    continue
                n = count(rt, {})
                laid_out(piece, n * len(rt.players) if piece.per_player else n)
                if piece.per_player:
                    for player in rt.players:
                        loc = p.zone_locs[(own_zone, player)] if own_zone else where(rt, {})
                        rt.locs[loc].extend([(kinds[0], player)] * n)
                else:
                    rt.locs[where(rt, {})].extend([(kinds[0], None)] * n)
            # Start values may have asked values while the position was being laid out (each
            # variable is set once, but the pieces were placed after): nothing of that is kept.
            # Laying out the position is not a step of the game.
            rt.forget()
            rt.steps = 0

        return init
