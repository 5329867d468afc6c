"""The lowering: an analysed, compiled program made into the plain data the native core runs.

It reads the analysed AST and Symbols, and the Program's canonical data (its rows, kinds, zones,
grids and players, by index), and writes an intermediate representation: names become slots of
a frame or indexes into the program's lists, types are resolved to what the core asks for, and
built-ins are named by id. Statements become instructions with jumps (the core runs them in
explicit frames, a decision suspending nothing but a frame's program counter); expressions stay
trees, which the core evaluates recursively.

One method per AST node class (`lower_X` for statements, `expr_X` for expressions). A construct
the core does not run yet raises `Unsupported` naming it and its place in the rules: the game
then runs on the Python engine, which says why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from meeple.grammar import ast
from meeple.interpreter import attributes, grids
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.builtins import BUILTINS as REGISTRY
from meeple.interpreter.compiler import Compiler
from meeple.interpreter.compiler.base import _ERRORS, _Fixed
from meeple.interpreter.compiler.data import adjacency_for
from meeple.interpreter.own_names import OWN_NAMES, SELF
from meeple.interpreter.program import Program
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.interpreter.types import ANY, Grid, ListOf, Rows, Type, element
from meeple.interpreter.types import Area as AreaType
from meeple.interpreter.types import Border as BorderType
from meeple.interpreter.types import Cell as CellType
from meeple.interpreter.types import Placement as PlacementType
from meeple.interpreter.types import Route as RouteType
from meeple.interpreter.types import Row as RowType
from meeple.interpreter.values import Cell, Kind, MapRef, Player, Row, ZoneLoc, label
from meeple.interpreter.view import zone_flags
from meeple.limits import MAX_DECISIONS, MAX_LIST, MAX_LOG_CHARS, MAX_PIECES, MAX_RECURSION, MAX_VALUE_DEPTH

BINARY = {
    "and": "And",
    "or": "Or",
    "+": "Add",
    "-": "Sub",
    "*": "Mul",
    "//": "FloorDiv",
    "%": "Mod",
    "==": "Eq",
    "!=": "Ne",
    "<": "Lt",
    "<=": "Le",
    ">": "Gt",
    ">=": "Ge",
    "in": "In",
    "not in": "NotIn",
    "..": "Range",
}

# Built-ins the core runs as they are, by the name the rules call them.
BUILTINS = {
    "count": "Count",
    "sum": "Sum",
    "min": "Min",
    "max": "Max",
    "any": "Any",
    "all": "All",
    "abs": "Abs",
    "pieces": "Pieces",
    "cells": "Cells",
    "cell": "Cell",
    "distance": "Distance",
    "in_a_row": "InARow",
    "connected": "Connected",
    "neighbours": "Neighbours",
    "next_player": "NextPlayer",
    "players_from": "PlayersFrom",
    "flat": "Flat",
    "next_to": "NextTo",
    "corner_to": "CornerTo",
    "borders": "Borders",
    "placement": "PlacementAt",
    "block": "BlockAt",
    "team": "Team",
    "teammates": "Teammates",
    "automated": "Automated",
}

# Attributes of the values a grid's questions give, each read by what the value is at run time
# (`Shaped`): a route's, a placement's, an area's, a border's.
SHAPED: dict[type[Type], set[str]] = {
    kind: set(attributes.BY_TYPE[kind].attributes)
    for kind in (RouteType, PlacementType, AreaType, BorderType)
}

# Questions the core answers of boards, not yet of grids that grow.
GRID_QUESTIONS = ("distance", "in_a_row", "connected", "side", "region", "regions")

# Attributes the core reads of the values it has.
ATTRIBUTES = {"q": "Q", "r": "R", "seat": "Seat", "owner": "Owner", "kind": "Kind", "location": "Location"}


def _unseen(sym: Symbols, zone: ZoneLoc) -> str:
    """What a seat may not see of a zone's pieces, as the player view shows them (`view.py`):
    the native core's searching player deals those again before it looks ahead (mcts.rs)."""
    flags = zone_flags(sym, zone)
    if "top" in flags:
        return "under_top"
    if "hidden" in flags or ("private" in flags and not isinstance(zone.owner, Player)):
        return "all"
    return "but_owner" if "private" in flags else "nothing"


class Unsupported(Exception):
    """A construct the native core does not run yet, and where the rules use it."""

    def __init__(self, construct: str, span: ast.Span | None) -> None:
        self.construct = construct
        self.span = span
        where = f" at {span.file}:{span.line}:{span.column}" if span is not None and span.line else ""
        super().__init__(f"unsupported: {construct}{where}")


@dataclass
class Frame:
    """The names of one frame (a rule, a value, setup, play), each with its slot."""

    slots: dict[str, int] = field(default_factory=dict)

    def slot(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = len(self.slots)
        return self.slots[name]

    def scratch(self) -> int:
        """A slot no name of the rules uses: a loop's snapshot of its list, its position in it."""
        return self.slot(f"<{len(self.slots)}>")

    @property
    def size(self) -> int:
        return len(self.slots)


@dataclass
class Lowered:
    """What the Python side keeps of a lowered program: the IR as JSON, and the program's own
    values for every index the core gives back (to label options and log lines)."""

    ir: str
    texts: list[str]
    sites: list[tuple[ast.Span | None, str]]  # each instruction's `at`: its span and its rule
    codes: list[str]  # each code's rule name
    declared: list[ast.Span | None]  # each code's declaration: where calls too deep stop
    players: list[Player]
    rows: list[Row]
    zones: dict[int, ZoneLoc]  # location -> zone instance
    cells: dict[int, Cell]  # location -> board cell
    nodes: dict[int, Row]  # location -> node of a map of nodes
    grids: list[MapRef]
    kinds: list[Kind]
    decls: list[str]  # each piece declaration's name
    counters: list[str]
    # The styles an agent cannot play on the core, each with why (a construct in one of its
    # preferences the core does not run): a game played by other agents still runs on it.
    refused_styles: dict[str, str] = field(default_factory=dict)
    # The styles an agent or a search's playouts can play on the core, by their index among the
    # styles the rules declare (src/py.rs): every style but those refused.
    styles: dict[str, int] = field(default_factory=dict)
    variables: list[str] = field(default_factory=list)  # each variable of its own, by its slot
    stores: list[tuple[str, str]] = field(default_factory=list)  # each store of variables per owner

    @cached_property
    def row_index(self) -> dict[int, int]:
        """Each row's index by its id, found once: every game started from a save asks it."""
        return {id(row): i for i, row in enumerate(self.rows)}

    @cached_property
    def kind_index(self) -> dict[int, int]:
        """Each kind's index by its id, found once."""
        return {id(kind): i for i, kind in enumerate(self.kinds)}

    @cached_property
    def place_index(self) -> dict[Any, int]:
        """Each of the program's places by `place_key`: its location, found once."""
        tables: tuple[dict[int, Any], ...] = (self.zones, self.nodes, self.cells)
        return {place_key(place): loc for table in tables for loc, place in table.items()}


def place_key(place: Any) -> Any:
    """A place of the program's own as the lowering's tables find it: a zone or a node by its
    identity, a board's cell (each game makes its own) by its grid and coordinates."""
    return (id(place.map), place.q, place.r) if isinstance(place, Cell) else id(place)


def plain_const(value: bool | int | str | Player | Row | None, rows: dict[int, int]) -> Any:
    """A value that names no place (nothing, a truth, a number, a text, a player, a row: `rows`
    gives each row's index by its id) as the IR writes it: what a constant of the program and
    a carried variable's value (carried.py) share."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return {"Bool": value}
    if isinstance(value, int):
        return {"Int": value}
    if isinstance(value, str):
        return {"Text": value}
    if isinstance(value, Player):
        return {"Player": value.seat}
    return {"Row": rows[id(value)]}


class Lowering:
    def __init__(self, program: Program, players: int | None = None) -> None:
        self.p = program
        self.sym = program.symbols
        # The seats a game of this program can have: the Program makes zones and maps for every
        # seat a game could ever have (MAX_SEATS), and each would be a location, an empty list
        # in every game of the core, were the seats beyond the game's most players laid out. A
        # program with seats the rules play is lowered for one number of players: its automata
        # sit after them, each a seat of its own with its own zones (interpreter/seats.py).
        if program.automata:
            self.seats = program.seated(program.min_players if players is None else players)
        else:
            self.seats = program.players[: program.max_players]
        self.seated = {id(seat) for seat in self.seats}
        self.texts: list[str] = []
        self.columns: list[str] = []  # the columns expressions read, by their index (`column`)
        self.sites: list[tuple[ast.Span | None, str]] = []
        self.rule = ""
        self.frame = Frame()
        self.instrs: list[dict[str, Any]] = []  # the instructions of the block being lowered
        self.code: list[dict[str, Any]] = []
        self.decls = list(program.kinds)
        self.kinds = [k for name in self.decls for k in program.kinds[name]]
        self.kind_index = {id(k): i for i, k in enumerate(self.kinds)}
        self.rows = [r for rows in program.rows.values() for r in rows]
        self.row_index = {id(r): i for i, r in enumerate(self.rows)}
        self.locations: list[dict[str, Any]] = []
        self.zone_index: dict[int, int] = {}
        self.zones: dict[int, ZoneLoc] = {}
        self.cells: dict[int, Cell] = {}
        self.nodes: dict[int, Row] = {}  # location -> the node of a map of nodes
        self.cell_loc: dict[int, int] = {}  # id of a Cell -> its location
        self.grids: list[MapRef] = []
        self.grid_index: dict[int, int] = {}
        self.grid_ir: list[dict[str, Any]] = []
        self.var_index = {name: i for i, name in enumerate(self.sym.vars)}
        self.value_index = {name: i for i, name in enumerate(self.sym.values)}
        self.rule_index = {name: i for i, name in enumerate(self.sym.rules)}
        self.counter_index = {name: i for i, name in enumerate(self.sym.counters)}
        self.movement_index = {name: i for i, name in enumerate(self.sym.movements)}
        self.grows = False  # whether a grid grows: known once the grids are lowered
        owners = [(per, name) for per, group in self.sym.owned_vars.items() for name in group]
        self.stores = {owner: i for i, owner in enumerate(owners)}
        # The preferences of every style (played by a seat the rules play, src/automata.rs, or by
        # an agent, src/styles.rs), by asking statement, and as lowered by the site of the
        # instruction that asks (an `offer`'s preferences at its OfferOpen).
        self.style_index = {name: i for i, name in enumerate(self.sym.styles)}
        self.pref_sites = self.preferences_at()
        self.prefs: dict[int, list[dict[str, Any]]] = {}
        self.refused_styles: dict[str, str] = {}
        self.shown: dict[int, Any] = {}  # each `choose ... shown at`'s place, by its site

    # ------------------------------------------------------------------ the whole program

    def lower(self) -> Lowered:
        sym, p = self.sym, self.p
        for (_name, owner), zone in p.zone_locs.items():
            if isinstance(owner, Player) and id(owner) not in self.seated:
                continue
            self.zone_index[id(zone)] = len(self.locations)
            self.zones[len(self.locations)] = zone
            self.locations.append({"cell": None, "owner": self.const(owner), "unseen": _unseen(sym, zone)})
        node_locations: list[int | None] = [None] * len(self.rows)
        for nodes in p.map_nodes.values():
            for node in nodes:
                if node_locations[self.row_index[id(node)]] is None:
                    node_locations[self.row_index[id(node)]] = len(self.locations)
                    self.nodes[len(self.locations)] = node
                    self.locations.append({"cell": None, "owner": "None", "node": self.row_index[id(node)]})
        for mapref in p.map_refs.values():
            if mapref.owner is not None and id(mapref.owner) not in self.seated:
                continue
            self.grid_index[id(mapref)] = len(self.grids)
            g = len(self.grids)
            self.grids.append(mapref)
            if mapref.board is None:
                self.grid_ir.append(
                    {
                        "hex": mapref.geometry.kind == "hex",
                        "first": len(self.locations),
                        "cells": [],
                        "owner": None if mapref.owner is None else mapref.owner.seat,
                        "grows": True,
                        "name": str(mapref),
                        "block": mapref.geometry.block,
                    }
                )
                continue
            first = len(self.locations)
            for (q, r), name in mapref.board.items():
                cell = self.cells[len(self.locations)] = Cell(mapref, q, r, name)
                self.cell_loc[id(cell)] = len(self.locations)
                self.locations.append({"cell": [g, q, r], "owner": "None"})
            self.grid_ir.append(
                {
                    "hex": mapref.geometry.kind == "hex",
                    "first": first,
                    "cells": list(mapref.board),
                    "owner": None if mapref.owner is None else mapref.owner.seat,
                    "name": str(mapref),
                }
            )
        self.grows = any(m.board is None for m in self.grids)
        init_at = self.site(None, "the start of the game")
        variables = [self.variable(v) for v in sym.vars.values()]
        owned = [self.owned_var(per, v) for per, group in sym.owned_vars.items() for v in group.values()]
        pieces = [self.piece(piece) for piece in sym.pieces.values()]
        values = [self.value(v) for v in sym.values.values()]
        movements = [self.movement(m) for m in sym.movements.values()]
        self.code_names = list(sym.rules)
        declared: list[ast.Span | None] = [rule.span for rule in sym.rules.values()]
        for rule in sym.rules.values():
            self.rule = rule.name
            self.code.append(self.block_code([x.name for x in rule.params], rule.body))
        triggers = []
        for trigger in sym.triggers:
            self.rule = f"when {trigger.kind} enters"
            triggers.append([self.decls.index(trigger.kind), len(self.code)])
            self.code.append(self.trigger_code(trigger))
            self.code_names.append(self.rule)
            declared.append(trigger.span)
        setup = play = None
        if sym.setup is not None:
            self.rule, setup = "setup", len(self.code)
            self.code.append(self.block_code([], sym.setup.body))
            self.code_names.append("setup")
            declared.append(sym.setup.span)
        if sym.play is not None:
            self.rule, play = "play", len(self.code)
            self.code.append(self.block_code([], sym.play.body))
            self.code_names.append("play")
            declared.append(sym.play.span)
        self.rule = "score"
        ir = {
            "kinds": [
                {"decl": self.decls.index(k.name), "row": self.row_index.get(id(k.row))} for k in self.kinds
            ],
            "locations": self.locations,
            "grids": self.grid_ir,
            "node_locations": node_locations,
            "triggers": triggers,
            "rows": [{col: self.const(v) for col, v in row.values.items()} for row in self.rows],
            "columns": self.columns,
            "vars": variables,
            "owned": owned,
            "pieces": pieces,
            "values": values,
            "code": self.code,
            "movements": movements,
            "setup": setup,
            "play": play,
            "score": self.scorer(sym.score),
            "tiebreak": self.scorer(sym.tiebreak),
            "texts": self.texts,
            "counters": [c.per_player for c in sym.counters.values()],
            "init_at": init_at,
            "limits": {
                "max_list": MAX_LIST,
                "max_pieces": MAX_PIECES,
                "max_recursion": MAX_RECURSION,
                "max_value_depth": MAX_VALUE_DEPTH,
                "max_decisions": MAX_DECISIONS,
                "max_log_chars": MAX_LOG_CHARS,
            },
            "labels": self.labels(),
            "styles": list(self.sym.styles),
            "prefs": self.prefs,
            "shown": self.shown,
            **self.automata(),
        }
        return Lowered(
            ir=json.dumps(ir),
            texts=self.texts,
            sites=self.sites,
            codes=self.code_names,
            declared=declared,
            players=self.seats,
            rows=self.rows,
            zones=self.zones,
            cells=self.cells,
            nodes=self.nodes,
            grids=self.grids,
            kinds=self.kinds,
            decls=self.decls,
            counters=list(sym.counters),
            refused_styles=self.refused_styles,
            styles={name: i for name, i in self.style_index.items() if name not in self.refused_styles},
            variables=list(sym.vars),
            stores=list(self.stores),
        )

    def labels(self) -> dict[str, list[int]]:
        """How many characters each thing a log line names reads as (`values.label`), by its
        index: the core counts the readable log's characters as the Python engine writes them
        (MAX_LOG_CHARS), while the lines are put in words on this side (state.py)."""
        places = [
            self.zones.get(i) or self.cells.get(i) or self.nodes.get(i) for i in range(len(self.locations))
        ]
        names = self.p.names
        assert names is not None
        return {
            "players": [len(label(p)) for p in self.seats],
            "rows": [len(label(r)) for r in self.rows],
            "locations": [0 if place is None else len(label(place)) for place in places],
            "grids": [len(label(g)) for g in self.grids],
            "decls": [len(label(d)) for d in self.decls],
            "kinds": [len(k.called) for k in self.kinds],
            "texts": [len(t) for t in self.texts],
            "lower": [len(t.lower()) for t in self.texts],
            # what a reveal tells the seats it does not show: "one Card", "2 Cards" (src/reveal.rs)
            "kind_decl": [self.decls.index(k.name) for k in self.kinds],
            "decl_one": [len(names.decl(d).one) for d in self.decls],
            "decl_many": [len(names.decl(d).many) for d in self.decls],
        }

    def automata(self) -> dict[str, Any]:
        """The seats the rules play (src/automata.rs): after how many players they sit, each
        one's name and style, and the preferences of those styles at each statement that asks
        (lowered with the statement, in the names it sees: `self.prefs`)."""
        if not self.p.automata:
            return {}
        automata = [
            {"name": label(seat), "style": self.style_index.get(decl.style or ""), "style_name": decl.style}
            for seat, decl in zip(self.seats[-len(self.p.automata) :], self.p.automata, strict=True)
        ]
        return {"humans": len(self.seats) - len(automata), "automata": automata}

    def preferences_at(self) -> dict[int, list[tuple[int, ast.Preference]]]:
        """Each asking statement's (and `offer`'s) preferences of every style, by the statement
        (its id), in the order the styles' lines come (compiler/styles.py's)."""
        at: dict[int, list[tuple[int, ast.Preference]]] = {}
        for name, index in self.style_index.items():
            for pref in self.sym.styles[name].preferences:
                for site in self.sym.preferred.get(id(pref), []):
                    at.setdefault(id(site.stmt), []).append((index, pref))
        return at

    def preferences(self, s: ast.Stmt, asking: int, ask: bool) -> None:
        """The styles' preferences at the statement `s` lowered to the instruction `asking`, in
        the names the statement sees now (the frame as it stands). A preference with a construct
        the core does not run refuses its style alone (`refused_styles`), unless a seat the rules
        play plays it: then the whole game stays on Python."""
        automated = {d.style for d in self.p.automata}
        rule = self.rule
        for style, pref in self.pref_sites.get(id(s), []):
            name = pref_style(self.sym, pref)
            if name in self.refused_styles:
                continue
            self.rule = f"style {name}"
            try:
                lowered = self.preference(pref, style, ask)
            except Unsupported as err:
                if name in automated:
                    raise
                self.refused_styles[name] = str(err)
                continue
            self.prefs.setdefault(self.instrs[asking]["at"], []).append(lowered)
        self.rule = rule

    def preference(self, pref: ast.Preference, style: int, ask: bool) -> dict[str, Any]:
        return {
            "style": style,
            "avoid": pref.avoid,
            "target": pref.target.capitalize(),
            "ask": ask,
            "cond": self.expr(pref.cond) if pref.cond is not None else None,
            "weight": self.expr(pref.weight) if pref.weight is not None else None,
            "line": [pref.span.line, pref.span.column],
            "at": self.site(pref.span),
            "bound_at": self.site(pref.span, ""),
        }

    def site(self, span: ast.Span | None, rule: str | None = None) -> int:
        self.sites.append((span, self.rule if rule is None else rule))
        return len(self.sites) - 1

    def text(self, words: str) -> int:
        if words not in self.texts:
            self.texts.append(words)
        return self.texts.index(words)

    def column(self, name: str) -> int:
        """A column an expression reads, by its index: the core finds a row's value of it at that
        place of the row, found once at load, rather than by its name at every read."""
        if name not in self.columns:
            self.columns.append(name)
        return self.columns.index(name)

    def const(self, value: Any) -> Any:
        """A value of the program as the IR writes it."""
        if value is None or isinstance(value, (bool, int, str, Player, Row)):
            return plain_const(value, self.row_index)
        if isinstance(value, ZoneLoc):
            return {"Zone": self.zone_index[id(value)]}
        if isinstance(value, MapRef):
            return {"Grid": self.grid_index[id(value)]}
        if isinstance(value, Cell):
            return {"Cell": self.cell_loc[id(value)]}
        if isinstance(value, list):
            return {"List": [self.const(v) for v in value]}
        raise Unsupported(f"a fixed {type(value).__name__}", None)

    def const_expr(self, value: Any) -> Any:
        return {"Const": self.const(value)}

    def variable(self, decl: ast.VarDecl) -> dict[str, Any]:
        self.rule, self.frame = "the start of the game", Frame()
        init = self.expr(decl.init)
        return {"init": init, "clamp": self.bounds(decl), "slots": self.frame.size}

    def bounds(self, decl: ast.VarDecl) -> list[int] | None:
        """The bounds a variable is kept within, as the Python engine computes them (data.py's
        `_clamp`): fixed before any game, so computed here, once."""
        if decl.within is None:
            return None
        compiler = Compiler(self.sym)
        compiler.p.constants = dict(self.p.constants)
        try:
            given = compiler.expr(decl.within, set())(_Fixed(), {})
            return [min(given), max(given)]
        except (RuleRuntimeError, *_ERRORS):
            raise Unsupported("bounds the lowering cannot compute", decl.within.span) from None

    def owned_var(self, per: str, decl: ast.VarDecl) -> dict[str, Any]:
        self.rule, self.frame = "the start of the game", Frame()
        self.frame.slot(SELF)
        init = self.expr(decl.init)
        rows = None if per == "player" else [self.row_index[id(r)] for r in self.p.rows.get(per, [])]
        by = None if decl.by is None else [self.row_index[id(r)] for r in self.p.rows[decl.by]]
        return {"init": init, "slots": self.frame.size, "rows": rows, "clamp": self.bounds(decl), "by": by}

    def owned_ref(self, name: str) -> dict[str, Any]:
        """Where `OWNER.name` is, for a player and for each row (by index among all rows)."""
        rows: list[list[int] | None] = [None] * len(self.rows)
        for (per, var), store in self.stores.items():
            if var == name and per != "player":
                for i, row in enumerate(self.p.rows.get(per, [])):
                    rows[self.row_index[id(row)]] = [store, i]
        return {"name": name, "player": self.stores.get(("player", name)), "rows": rows}

    def piece(self, decl: ast.PieceDecl) -> dict[str, Any]:
        self.rule, self.frame = "the start of the game", Frame()
        if decl.each_row_of or decl.per_row_of:
            kinds = [self.kind_index[id(k)] for k in self.p.kinds[decl.name]]
            self.frame.slot(SELF)
            count = (
                self.expr(decl.count) if decl.per_row_of and decl.count is not None else self.const_expr(1)
            )
            return {
                "name": decl.name,
                "kind": kinds[0] if kinds else 0,
                "each": kinds,
                "per_row": bool(decl.per_row_of),
                "count": count,
                "per_player": False,
                "zone": self.expr(decl.zone),
                "own_zone": None,
                "at": self.site(decl.span, "the start of the game"),
            }
        if decl.count is None:
            raise Unsupported("pieces without a count", decl.span)
        zone = decl.zone
        own_zones = self.sym.owned_zones.get("player", {})
        own = isinstance(zone, ast.Name) and decl.per_player and zone.id in own_zones
        count = self.expr(decl.count)
        return {
            "name": decl.name,
            "kind": self.kind_index[id(self.p.kinds[decl.name][0])],
            "count": count,
            "per_player": decl.per_player,
            "zone": None if own else self.expr(zone),
            "own_zone": [self.zone_index[id(self.p.zone_locs[(zone.id, pl)])] for pl in self.seats]
            if own and isinstance(zone, ast.Name)
            else None,
            "at": self.site(decl.span, "the start of the game"),
        }

    def value(self, decl: ast.ValueDecl) -> dict[str, Any]:
        self.rule, self.frame = decl.name, Frame()
        for param in decl.params:
            self.frame.slot(param.name)
        body = self.expr(decl.expr)
        return {"slots": self.frame.size, "body": body, "at": self.site(decl.span)}

    def movement(self, decl: ast.MovementDecl) -> dict[str, Any]:
        """A movement's conditions in a frame of their own: its parameters, then `start`, then
        the place `through` and `ends` test (data.py's `movement` compiles the same)."""
        self.rule, self.frame = f"movement {decl.name}", Frame()
        for param in decl.params:
            self.frame.slot(param.name)
        start = self.frame.slot("start")

        def tested(var: str, e: ast.Expr | None) -> list[Any] | None:
            if e is None:
                return None
            slot = self.frame.slot(var)
            return [slot, self.expr(e)]

        lowered = {
            "start": start,
            "steps": self.expr(decl.steps) if decl.steps is not None else self.const_expr([1]),
            "straight": self.expr(decl.straight) if decl.straight is not None else None,
            "backtracks": self.expr(decl.backtracks) if decl.backtracks is not None else None,
            "through": tested(decl.through_var, decl.through),
            "ends": tested(decl.ends_var, decl.ends),
            "step": tested(decl.step_var, decl.step),
            "step_at": self.site(decl.step.span) if decl.step is not None else None,
        }
        return {**lowered, "slots": self.frame.size}

    def scorer(self, decl: ast.ScoreDecl | None) -> dict[str, Any] | None:
        if decl is None:
            return None
        self.frame = Frame()
        self.frame.slot(decl.var)
        body = self.expr(decl.expr)
        return {"slots": self.frame.size, "body": body, "at": self.site(decl.span, "score")}

    # ------------------------------------------------------------------ statements

    def block_code(self, params: list[str], body: list[ast.Stmt]) -> dict[str, Any]:
        self.frame, self.instrs = Frame(), []
        for name in params:
            self.frame.slot(name)
        self.block(body)
        self.emit(None, {"Return": None})
        return {"params": len(params), "slots": self.frame.size, "instrs": self.instrs}

    def trigger_code(self, trigger: ast.TriggerDecl) -> dict[str, Any]:
        """A trigger's body, run after a move with the piece and its place in the first two
        slots, its condition asked first."""
        self.frame, self.instrs = Frame(), []
        self.frame.slot(trigger.piece_var)
        self.frame.slot(trigger.loc_var)
        test = None
        if trigger.cond is not None:
            test = self.emit(trigger, {"JumpUnless": {"cond": self.expr(trigger.cond), "to": -1}})
        # Entered once its condition is met, as the Python engine counts a trigger's call.
        self.emit(trigger, "Enter")
        self.block(trigger.body)
        if test is not None:
            self.patch(test, "to", self.here())
        self.emit(None, "Return")
        return {"params": 2, "slots": self.frame.size, "instrs": self.instrs}

    def emit(self, s: ast.Node | None, op: Any) -> int:
        self.instrs.append({"at": self.site(s.span if s is not None else None), "op": op})
        return len(self.instrs) - 1

    def here(self) -> int:
        return len(self.instrs)

    def patch(self, index: int, key: str, target: int) -> None:
        (op,) = self.instrs[index]["op"].values()
        op[key] = target

    def block(self, body: list[ast.Stmt]) -> None:
        for s in body:
            if isinstance(s, ast.Meta):
                continue
            method = getattr(self, f"lower_{type(s).__name__}", None)
            if method is None:
                raise Unsupported(f"the statement `{_said(s)}`", s.span)
            method(s)

    def body_or_else(self, s: ast.Choose | ast.Ask | ast.Pick, at: int) -> None:
        """A statement's body, then its `orelse`: the instruction at `at` (a decision, a pick)
        jumps to the `orelse` when it has nothing to enter the body with, and the body's end
        jumps over it."""
        self.block(s.body)
        end = self.emit(s, {"Jump": {"to": -1}})
        self.patch(at, "orelse", self.here())
        self.block(s.orelse)
        self.patch(end, "to", self.here())

    def lower_Let(self, s: ast.Let) -> None:
        e = self.expr(s.value)
        self.emit(s, {"Let": {"slot": self.frame.slot(s.name), "e": e}})

    def lower_SetStmt(self, s: ast.SetStmt) -> None:
        self.assign(s, s.value, 0)

    def lower_AddStmt(self, s: ast.AddStmt) -> None:
        self.assign(s, s.amount, s.sign)

    def assign(self, s: ast.Stmt, value: ast.Expr, sign: int) -> None:
        target = s.target  # type: ignore[attr-defined]
        if isinstance(target, ast.Index) and isinstance(target.obj, ast.Attr):
            # `set OWNER.NAME[ROW] to E`: the owner, the value, then the row, as Python takes them
            owned = {"obj": self.expr(target.obj.obj), "var": self.owned_ref(target.obj.name)}
            e = self.expr(value)
            row = self.expr(target.index)
            self.emit(s, {"SetOwnedRow": {**owned, "row": row, "e": e, "sign": sign}})
            return
        if isinstance(target, ast.Attr):
            owned = {"obj": self.expr(target.obj), "var": self.owned_ref(target.name)}
            self.emit(s, {"SetOwned": {**owned, "e": self.expr(value), "sign": sign}})
            return
        if not isinstance(target, ast.Name):
            raise Unsupported("setting a variable's value for a row (`x.NAME[row]`)", s.span)
        self.emit(s, {"SetVar": {"var": self.var_index[target.id], "e": self.expr(value), "sign": sign}})

    def lower_Swap(self, s: ast.Swap) -> None:
        """Both values read first, into slots no name of the rules uses; then each variable set,
        as `set` sets it, to the value read from the other (statements.py's compile_Swap)."""
        first, second = self.frame.scratch(), self.frame.scratch()
        self.emit(s, {"Let": {"slot": first, "e": self.expr(s.first)}})
        self.emit(s, {"Let": {"slot": second, "e": self.expr(s.second)}})
        for target, slot in ((s.first, second), (s.second, first)):
            held = ast.Name(span=s.span, id=f"<{slot}>")
            self.assign(ast.SetStmt(span=s.span, target=target, value=held), held, 0)

    def lower_MoveCount(self, s: ast.MoveCount) -> None:
        self.move(s, self.expr(s.count))

    def lower_MoveAll(self, s: ast.MoveAll) -> None:
        self.move(s, None)

    def move(self, s: ast.MoveCount | ast.MoveAll, count: Any) -> None:
        dest, bottom = self.destination(s.dest)
        self.emit(
            s,
            {
                "Move": {
                    "count": count,
                    "decl": self.decls.index(s.kind),
                    "which": self.expr(s.which) if s.which is not None else None,
                    "owner": self.expr(s.owner) if s.owner is not None else None,
                    "src": self.expr(s.src),
                    "dest": dest,
                    "bottom": bottom,
                }
            },
        )

    def lower_MoveRefs(self, s: ast.MoveRefs) -> None:
        pieces = self.expr(s.pieces)
        dest, bottom = self.destination(s.dest)
        self.emit(s, {"MoveRefs": {"pieces": pieces, "dest": dest, "bottom": bottom}})

    def lower_If(self, s: ast.If) -> None:
        ends = []
        for branch in s.branches:
            test = self.emit(s, {"JumpUnless": {"cond": self.expr(branch.cond), "to": -1}})
            self.block(branch.body)
            ends.append(self.emit(s, {"Jump": {"to": -1}}))
            self.patch(test, "to", self.here())
        self.block(s.orelse)
        for end in ends:
            self.patch(end, "to", self.here())

    def lower_ForEach(self, s: ast.ForEach) -> None:
        if s.chooser is not None:
            self.for_chosen(s)
            return
        var = self.frame.slot(s.var)
        items, index = self.frame.scratch(), self.frame.scratch()
        seq = self.expr(s.seq)
        cond = self.expr(s.cond) if s.cond is not None else None
        self.emit(s, {"ForStart": {"seq": seq, "cond": cond, "var": var, "list": items, "index": index}})
        top = self.emit(s, {"ForNext": {"var": var, "list": items, "index": index, "end": -1}})
        self.block(s.body)
        self.emit(s, {"Jump": {"to": top}})
        self.patch(top, "end", self.here())

    def for_chosen(self, s: ast.ForEach) -> None:
        """`for each X in SEQ chosen by P`: the items taken once, then the seat, as the Python
        engine takes them; each round the seat picks the next of those left."""
        assert s.chooser is not None
        var = self.frame.slot(s.var)
        items, index, who = self.frame.scratch(), self.frame.scratch(), self.frame.scratch()
        seq = self.expr(s.seq)
        cond = self.expr(s.cond) if s.cond is not None else None
        self.emit(s, {"ForStart": {"seq": seq, "cond": cond, "var": var, "list": items, "index": index}})
        self.emit(s, {"Let": {"slot": who, "e": self.expr(s.chooser)}})
        prompt = self.text(s.prompt or "Which one next?")
        top = self.emit(
            s, {"ChooseNext": {"var": var, "list": items, "who": who, "prompt": prompt, "end": -1}}
        )
        self.preferences(s, top, False)
        self.emit(s, {"Chosen": {"var": var, "list": items}})
        self.block(s.body)
        self.emit(s, {"Jump": {"to": top}})
        self.patch(top, "end", self.here())

    def lower_Place(self, s: ast.Place) -> None:
        at = self.expr(s.at) if s.at is not None else None
        place = {"shape": self.expr(s.shape), "grid": self.expr(s.map), "at": at, "over": s.over}
        self.emit(s, {"Place": place})

    def lower_Lift(self, s: ast.Lift) -> None:
        self.emit(s, {"Lift": {"layer": self.expr(s.layer)}})

    def lower_Shift(self, s: ast.Shift) -> None:
        self.emit(s, {"Shift": {"grid": self.expr(s.map), "dq": self.expr(s.dq), "dr": self.expr(s.dr)}})

    def lower_While(self, s: ast.While) -> None:
        top = self.emit(s, {"JumpUnless": {"cond": self.expr(s.cond), "to": -1}})
        self.emit(s, "Spend")
        self.block(s.body)
        self.emit(s, {"Jump": {"to": top}})
        self.patch(top, "to", self.here())

    def lower_Repeat(self, s: ast.Repeat) -> None:
        counter = self.frame.scratch()
        self.emit(s, {"RepeatStart": {"count": self.expr(s.count), "counter": counter}})
        top = self.emit(s, {"RepeatNext": {"counter": counter, "end": -1}})
        self.block(s.body)
        self.emit(s, {"Jump": {"to": top}})
        self.patch(top, "end", self.here())

    def lower_CallStmt(self, s: ast.CallStmt) -> None:
        args = [self.expr(a) for a in s.args]
        self.emit(s, {"Call": {"code": self.rule_index[s.name], "args": args}})

    def lower_Turn(self, s: ast.Turn) -> None:
        self.emit(s, {"Turn": {"player": self.expr(s.player)}})
        self.block(s.body)

    def lower_Named(self, s: ast.Named) -> None:
        self.block(s.body)

    def lower_Choose(self, s: ast.Choose) -> None:
        var = self.frame.slot(s.var)
        seq = self.expr(s.seq)
        cond = self.expr(s.cond) if s.cond is not None else None
        chooser = self.expr(s.chooser) if s.chooser is not None else None
        ask = self.emit(
            s,
            {
                "Choose": {
                    "seq": seq,
                    "cond": cond,
                    "var": var,
                    "chooser": chooser,
                    "prompt": self.text(s.prompt or "Choose one"),
                    "optional": s.optional,
                    "has_orelse": bool(s.orelse),
                    "orelse": -1,
                }
            },
        )
        self.preferences(s, ask, False)
        if s.shown_at is not None:  # read by a seat's view alone (src/shown.rs)
            self.shown[self.instrs[ask]["at"]] = self.expr(s.shown_at)
        self.body_or_else(s, ask)

    def lower_Ask(self, s: ast.Ask) -> None:
        chooser = self.expr(s.chooser) if s.chooser is not None else None
        ask = self.emit(s, {"Ask": {"chooser": chooser, "prompt": self.text(s.prompt), "orelse": -1}})
        self.preferences(s, ask, True)
        self.body_or_else(s, ask)

    def lower_Offer(self, s: ast.Offer) -> None:
        """The block between an OfferOpen, which binds the rule's arguments and the seat, and an
        OfferClose; the condition is asked at each decision, with the block's names then."""
        args = [self.expr(a) for a in s.args]
        player = self.expr(s.player)
        cond = self.expr(s.cond) if s.cond is not None else None
        label = self.text(s.label or s.rule.replace("_", " "))
        opened = {
            "code": self.rule_index[s.rule],
            "args": args,
            "player": player,
            "cond": cond,
            "label": label,
        }
        # The styles' preferences for the action (`prefer offer RULE`), read in the block's names.
        self.preferences(s, self.emit(s, {"OfferOpen": opened}), False)
        self.block(s.body)
        self.emit(s, "OfferClose")

    def lower_Random(self, s: ast.Random) -> None:
        weights = [self.expr(o.weight) if o.weight is not None else None for o in s.outcomes]
        names = [self.text(o.name) for o in s.outcomes]
        targets: list[int] = []
        self.emit(
            s,
            {
                "Random": {
                    "title": self.text(s.label or "random"),
                    "weights": weights,
                    "names": names,
                    "targets": targets,
                }
            },
        )
        ends = []
        for outcome in s.outcomes:
            targets.append(self.here())
            self.block(outcome.body)
            ends.append(self.emit(s, {"Jump": {"to": -1}}))
        for end in ends:
            self.patch(end, "to", self.here())

    def lower_Pick(self, s: ast.Pick) -> None:
        var = self.frame.slot(s.var)
        seq = self.expr(s.seq)
        cond = self.expr(s.cond) if s.cond is not None else None
        title = self.text(f"random {s.var}")
        pick = self.emit(s, {"Pick": {"seq": seq, "cond": cond, "var": var, "title": title, "orelse": -1}})
        self.body_or_else(s, pick)

    def lower_Shuffle(self, s: ast.Shuffle) -> None:
        self.emit(s, {"Shuffle": {"zone": self.expr(s.zone)}})

    def lower_Draw(self, s: ast.Draw) -> None:
        dest, bottom = self.destination(s.dest)
        draw = {"count": self.expr(s.count), "src": self.expr(s.src), "dest": dest, "bottom": bottom}
        self.emit(s, {"Draw": draw})

    def destination(self, dest: ast.Expr) -> tuple[Any, bool]:
        """Where a move or a draw sends pieces, and whether under the pieces already there
        (`bottom(PLACE)`, which only a destination takes)."""
        if isinstance(dest, ast.Call) and dest.func == "bottom":
            return self.expr(dest.args[0]), True
        return self.expr(dest), False

    def lower_Log(self, s: ast.Log) -> None:
        parts = [{"Text": self.text(x)} if isinstance(x, str) else {"Expr": self.expr(x)} for x in s.parts]
        self.emit(s, {"Log": {"parts": parts}})

    def lower_Reveal(self, s: ast.Reveal) -> None:
        """The pieces, then the seats, as statements.py's `compile_Reveal` takes them
        (src/reveal.rs)."""
        self.emit(s, {"Reveal": {"pieces": self.expr(s.pieces), "to": self.expr(s.to)}})

    def lower_Tally(self, s: ast.Tally) -> None:
        player = self.expr(s.player) if s.player is not None else None
        amount = self.expr(s.amount) if s.amount is not None else None
        self.emit(s, {"Tally": {"counter": self.counter_index[s.name], "player": player, "amount": amount}})

    def lower_EndGame(self, s: ast.EndGame) -> None:
        self.emit(s, "EndGame")

    # ------------------------------------------------------------------ expressions

    def typed(self, e: ast.Expr) -> Type:
        """The type analysis gave an expression (ANY where it gave none)."""
        return self.sym.types.get(id(e), ANY)

    def expr(self, e: ast.Expr) -> Any:
        method = getattr(self, f"expr_{type(e).__name__}", None)
        if method is None:
            raise Unsupported(f"the expression {type(e).__name__}", e.span)
        return method(e)

    def expr_Num(self, e: ast.Num) -> Any:
        return self.const_expr(e.value)

    def expr_Text(self, e: ast.Text) -> Any:
        return self.const_expr(e.value)

    def expr_Bool(self, e: ast.Bool) -> Any:
        return self.const_expr(e.value)

    def expr_NoneLit(self, e: ast.NoneLit) -> Any:
        return self.const_expr(None)

    def expr_Name(self, e: ast.Name) -> Any:
        name, p, sym = e.id, self.p, self.sym
        if name in self.frame.slots:
            return {"Local": self.frame.slots[name]}
        if name in p.constants:
            return self.const_expr(p.constants[name])
        if name in sym.vars:
            return {"Var": self.var_index[name]}
        if name in sym.zones:
            return self.const_expr(p.zone_locs[(name, None)])
        if name in sym.tables:
            return self.const_expr(p.rows[name])
        if name in sym.maps and (name, None) in p.map_refs:
            return self.const_expr(p.map_refs[(name, None)])
        if name in p.map_nodes:
            return self.const_expr(p.map_nodes[name])
        if name in sym.pieces:
            return {"Const": {"KindName": self.decls.index(name)}}
        if name in OWN_NAMES and OWN_NAMES[name].native is not None:
            return OWN_NAMES[name].native
        tables = sym.row_keys.get(name, [])
        if len(tables) == 1:
            return self.const_expr(p.row_by_key[tables[0]][name])
        raise Unsupported(f"the name '{name}'", e.span)

    def expr_Attr(self, e: ast.Attr) -> Any:
        sym = self.sym
        if isinstance(e.obj, ast.Name) and e.obj.id in sym.tables and e.obj.id not in self.frame.slots:
            return self.const_expr(self.p.row_by_key[e.obj.id][e.name])
        columns = {col.name for table in sym.tables.values() for col in table.columns}
        if isinstance(self.typed(e.obj), CellType) and e.name in columns and e.name not in ("q", "r"):
            # what a cell shows is a row: its columns, before any zone or variable of that name
            return {"Attr": [self.expr(e.obj), {"Column": self.column(e.name)}]}
        if any(e.name in group for group in sym.owned_zones.values()):
            return self.zone_of(e)
        if any(e.name in group for group in sym.owned_vars.values()):
            if isinstance(self.typed(e), Rows):
                raise Unsupported("a variable's values for every row at once (without `[row]`)", e.span)
            return {"Owned": [self.expr(e.obj), self.owned_ref(e.name)]}
        if (e.name, self.p.players[0]) in self.p.map_refs:
            seats = [self.grid_index[id(self.p.map_refs[(e.name, pl)])] for pl in self.seats]
            return {"GridOf": [self.expr(e.obj), seats]}
        shaped = self.typed(e.obj)
        unknown = shaped == ANY and e.name not in columns  # read by the value at run time
        if e.name in SHAPED.get(type(shaped), ()) or (unknown and any(e.name in n for n in SHAPED.values())):
            return {"Attr": [self.expr(e.obj), {"Shaped": e.name}]}
        if e.name == "placed" and (shaped == ANY or isinstance(shaped, CellType)):  # a cell's top layer
            return {"Attr": [self.expr(e.obj), {"Shaped": e.name}]}
        if e.name in ATTRIBUTES:
            attr: Any = ATTRIBUTES[e.name]
        elif e.name == "row":
            attr = "Row"
        elif e.name in columns:
            attr = {"Column": self.column(e.name)}
        else:
            raise Unsupported(f"the attribute '{e.name}'", e.span)
        return {"Attr": [self.expr(e.obj), attr]}

    def zone_of(self, e: ast.Attr) -> Any:
        """`OWNER.zone`: the zone's instance of a player (by seat) or of a row (by its index)."""
        seats: list[int | None] = [None] * len(self.seats)
        rows: list[int | None] = [None] * len(self.rows)
        for (name, owner), zone in self.p.zone_locs.items():
            if name != e.name:
                continue
            if isinstance(owner, Player):
                if id(owner) in self.seated:
                    seats[owner.seat] = self.zone_index[id(zone)]
            elif isinstance(owner, Row):
                rows[self.row_index[id(owner)]] = self.zone_index[id(zone)]
        return {"ZoneOf": [self.expr(e.obj), seats, rows]}

    def expr_Index(self, e: ast.Index) -> Any:
        if isinstance(self.typed(e.obj), Rows) and isinstance(e.obj, ast.Attr):
            # `OWNER.NAME[ROW]`: one row's value of a variable with a value for each row
            owner, var = self.expr(e.obj.obj), self.owned_ref(e.obj.name)
            return {"OwnedRow": [owner, var, self.expr(e.index)]}
        return {"Index": [self.expr(e.obj), self.expr(e.index)]}

    def expr_Unary(self, e: ast.Unary) -> Any:
        return {"Neg" if e.op == "-" else "Not": self.expr(e.operand)}

    def expr_Binary(self, e: ast.Binary) -> Any:
        return {"Bin": [BINARY[e.op], self.expr(e.left), self.expr(e.right)]}

    def expr_IfExpr(self, e: ast.IfExpr) -> Any:
        return {"If": [self.expr(e.cond), self.expr(e.then), self.expr(e.orelse)]}

    def expr_ListLit(self, e: ast.ListLit) -> Any:
        return {"List": [self.expr(i) for i in e.items]}

    def expr_Filter(self, e: ast.Filter) -> Any:
        seq = self.expr(e.seq)
        slot = self.frame.slot(e.var)
        kept = {"Filter": {"seq": seq, "slot": slot, "cond": self.expr(e.cond)}}
        if not e.keys:
            return kept
        return {"Ranked": {"items": kept, "slot": slot, "keys": [self.expr(k) for k in e.keys]}}

    def expr_MapComp(self, e: ast.MapComp) -> Any:
        seq = self.expr(e.seq)
        slot = self.frame.slot(e.var)
        cond = self.expr(e.cond) if e.cond is not None else None
        return {"Map": {"seq": seq, "slot": slot, "e": self.expr(e.expr), "cond": cond}}

    def expr_Call(self, e: ast.Call) -> Any:
        lowered = self.call(e)
        builtin = REGISTRY.get(e.func)
        if e.func not in self.sym.values and builtin is not None and builtin.errors_at_call:
            return {"At": [self.site(e.span), lowered]}
        return lowered

    def call(self, e: ast.Call) -> Any:
        if e.func in self.sym.values:
            return {"Value": [self.value_index[e.func], [self.expr(a) for a in e.args]]}
        if self.grows and e.func in GRID_QUESTIONS:
            # asked of a board only, so far: the core's answers there read a board's fixed cells
            raise Unsupported(f"{e.func}(...) in a game with a grid that grows", e.span)
        if self.grows and e.func == "neighbours" and not self.on_cells(e):
            raise Unsupported("neighbours(...) in a game with a grid that grows and a map of nodes", e.span)
        if e.func == "side":
            return self.side(e)
        if e.func == "neighbours" and not self.on_cells(e):
            return {"NextTo": [self.expr(e.args[0]), self.adjacency(e, e.args[-1])]}
        if e.func in ("region", "regions"):
            return self.regions(e)
        if e.func in ("area", "areas"):
            return self.areas(e)
        if e.func == "as_if_laid":
            return {"AsIfLaid": [self.expr(e.args[0]), self.expr(e.args[1])]}
        if e.func == "as_if_moved":
            return {"AsIfMoved": [self.expr(e.args[0]), self.expr(e.args[1]), self.expr(e.args[2])]}
        if e.func == "fewest_steps":
            return self.fewest_steps(e)
        if e.func == "connected" and not self.on_cells(e):
            raise Unsupported("connected(...) of the nodes of a map", e.span)
        if e.func == "placements":
            faces = self.faces() if isinstance(self.typed(e.args[0]), Grid) else []
            grid, shape = self.expr(e.args[0]), self.expr(e.args[1])
            return {"Placements": {"grid": grid, "shape": shape, "faces": faces}}
        if e.func == "routes":
            return self.routes(e)
        if e.func not in BUILTINS:
            raise Unsupported(f"the built-in {e.func}(...)", e.span)
        return {"Builtin": [BUILTINS[e.func], [self.expr(a) for a in e.args]]}

    def faces(self) -> list[int]:
        """Each row's look apart from its coordinates, as a number (grids.py's `_faces`): rows
        that look alike have the same one."""
        looks: dict[Any, int] = {}
        faces = [tuple((k, v) for k, v in row.values.items() if k not in ("q", "r")) for row in self.rows]
        return [looks.setdefault(face, len(looks)) for face in faces]

    def routes(self, e: ast.Call) -> Any:
        """`routes(START, MOVEMENT, ARGS...)` from a cell: what starts elsewhere (a node of a table
        map) runs on the Python engine."""
        movement = e.args[1]
        assert isinstance(movement, ast.Name)
        computed = self.sym.movements[movement.id].step is not None  # a step goes where it says
        if not computed and not isinstance(self.typed(e.args[0]), CellType):
            raise Unsupported("routes(...) from something other than a cell", e.span)
        start = self.expr(e.args[0])
        args = [self.expr(a) for a in e.args[2:]]
        return {"Routes": {"movement": self.movement_index[movement.id], "start": start, "args": args}}

    def fewest_steps(self, e: ast.Call) -> Any:
        """`fewest_steps(START, PLACES, MOVEMENT, ARGS...)` of a movement whose `step` line says
        where a step goes; along a grid's sides or a map's edges it runs on the Python engine."""
        movement = e.args[2]
        assert isinstance(movement, ast.Name)
        if self.sym.movements[movement.id].step is None:
            raise Unsupported("fewest_steps(...) of a movement without a `step` line", e.span)
        start, goals = self.expr(e.args[0]), self.expr(e.args[1])
        args = [self.expr(a) for a in e.args[3:]]
        index = self.movement_index[movement.id]
        return {"FewestSteps": {"movement": index, "start": start, "goals": goals, "args": args}}

    def adjacency(self, e: ast.Call, named: ast.Expr) -> list[list[int]]:
        """The edges a graph question walks, each node's neighbours by row index: of the map
        `named` names, else of the maps built on the table of the first argument (data.py's
        `adjacency_for`, whose answer this is)."""
        table = adjacency_for(self.p, self.sym, e, named)
        out: list[list[int]] = [[] for _ in self.rows]
        for node, nbs in table.items():
            out[self.row_index[id(node)]] = [self.row_index[id(nb)] for nb in nbs]
        return out

    def regions(self, e: ast.Call) -> Any:
        """`region(NODE, ATTR)`, `regions(NODES, ATTR)`: ATTR read of each place as `x.ATTR`."""
        if not isinstance(e.args[1], ast.Name):
            raise Unsupported(f"{e.func}(...) of something other than an attribute's name", e.span)
        seq = self.expr(e.args[0])
        slot = self.frame.scratch()
        name = f"<{slot}>"
        key = self.expr_Attr(ast.Attr(obj=ast.Name(id=name, span=e.span), name=e.args[1].id, span=e.span))
        adjacency = self.adjacency(e, e.args[0])
        return {
            "Regions": {
                "seq": seq,
                "slot": slot,
                "key": key,
                "adjacency": adjacency,
                "many": e.func == "regions",
            }
        }

    def areas(self, e: ast.Call) -> Any:
        """`areas(GRID, COLUMN)`, `area(CELL, COLUMN)` of a grid that grows; the areas of a map's
        nodes run on the Python engine."""
        given = self.typed(e.args[0])
        if not isinstance(e.args[1], ast.Name):
            raise Unsupported(f"{e.func}(...) of something other than a column's name", e.span)
        if self.p.adjacency and not isinstance(given, Grid | CellType):
            raise Unsupported(f"{e.func}(...) in a game with a map of nodes", e.span)
        return {"Areas": {"of": self.expr(e.args[0]), "column": e.args[1].id, "many": e.func == "areas"}}

    def on_cells(self, e: ast.Call) -> bool:
        """Whether a graph question walks the cells of a grid (rather than a map's edges): a
        program without maps of nodes has only cells to walk; otherwise an argument must be
        known to be cells."""
        if not self.p.adjacency:
            return True
        types = [self.typed(a) for a in e.args]
        if e.func == "neighbours":
            return len(e.args) == 1 and isinstance(types[0], CellType)
        items = [element(t) for t in types if isinstance(t, ListOf)]
        cells = any(isinstance(t, CellType) for t in items)
        return cells and not any(isinstance(t, RowType) for t in items)

    def side(self, e: ast.Call) -> Any:
        grid_type = self.typed(e.args[0])
        decl = self.sym.maps.get(grid_type.name) if isinstance(grid_type, Grid) else None
        word = e.args[1].value if isinstance(e.args[1], ast.Text) else ""
        if decl is None or decl.grid is None or word not in grids.SIDES[decl.grid]:
            raise Unsupported("a side of a grid not known before the game", e.span)
        where = e.args[0]
        if (
            isinstance(where, ast.Name)
            and (where.id, None) in self.p.map_refs
            and where.id not in self.frame.slots
        ):
            # a board's sides never change: found now, once
            mapref = self.p.map_refs[(where.id, None)]  # type: ignore[union-attr]
            board = {(c.q, c.r): c for c in self.cells.values() if c.map is mapref}
            return self.const_expr(grids.side(board, mapref.geometry, word))
        return {"Side": [self.expr(where), list(grids.SIDES[decl.grid][word])]}


# Statements as the rules write them, for the message that names one the core does not run.
KEYWORDS = {
    "Random": "random",
    "Pick": "pick ... at random",
    "Shuffle": "shuffle",
    "Draw": "draw",
    "Place": "place",
    "Lift": "lift",
    "Shift": "shift",
    "Offer": "offer",
}


def _said(s: ast.Stmt) -> str:
    """A statement's kind as the rules write it (`may`, `random`, `offer`...)."""
    return KEYWORDS.get(type(s).__name__, type(s).__name__.lower())


def pref_style(sym: Any, pref: ast.Preference) -> str:
    """The name of the style a preference is a line of."""
    return next(name for name, style in sym.styles.items() if any(p is pref for p in style.preferences))


def lower(program: Program, players: int | None = None) -> Lowered:
    """The program lowered for the native core (for games of `players` players, where its seats
    depend on it: seats the rules play sit after the players); raises Unsupported for what it
    does not run."""
    return Lowering(program, players).lower()
