"""The compiled program: a game's data made into canonical values, and its rules made into closures.

Built once per rules file. Many games (states) run from one program; they share its players,
rows, zones and piece kinds and keep only their own Runtime.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.names import Names
from meeple.interpreter.values import Kind, Location, MapRef, Player, Row, ZoneLoc
from meeple.limits import MAX_SEATS

if TYPE_CHECKING:  # styles.py reads this module's Fn
    from meeple.interpreter.carry import Carried
    from meeple.interpreter.styles import Style

Fn = Callable[[Any, dict[str, Any]], Any]
Gen = Callable[[Any, dict[str, Any]], Generator[Any, int, None]]
Scorer = Callable[[Any, Player], int]  # a score or tiebreak: (runtime, the player scored) -> its number


@dataclass
class Trigger:
    kind: str
    piece_var: str
    loc_var: str
    cond: Fn | None
    body: Gen
    name: str  # "when KIND enters": names the trigger in runtime errors
    span: ast.Span  # and this places it


@dataclass
class Movement:
    """A compiled `movement`: its parameters and conditions, evaluated when routes are asked for."""

    params: list[str]
    steps: Fn
    step_var: str
    step: Fn | None  # the places one step from `step_var` reaches; None: the start's map says
    step_span: ast.Span | None
    straight: Fn | None
    backtracks: Fn | None
    through_var: str
    through: Fn | None
    ends_var: str
    ends: Fn | None


@dataclass
class CompiledExample:
    decl: ast.Example
    given: Gen
    do: Gen
    expect: list[tuple[ast.Expr, Fn, Fn | None, Fn | None]]  # expression, value, and its two sides
    results: list[str] = field(
        default_factory=list
    )  # the results (scores, winners...) and counters expect reads
    shows: list[Fn] = field(default_factory=list)  # the maps and places a printed example draws


@dataclass
class Program:
    symbols: Symbols
    name: str
    min_players: int
    max_players: int
    players: list[Player] = field(default_factory=lambda: [Player(i) for i in range(MAX_SEATS)])
    rows: dict[str, list[Row]] = field(default_factory=dict)
    row_by_key: dict[str, dict[str, Row]] = field(default_factory=dict)
    kinds: dict[str, list[Kind]] = field(default_factory=dict)
    zone_locs: dict[tuple[str, Any], ZoneLoc] = field(default_factory=dict)
    adjacency: dict[str, dict[Row, list[Row]]] = field(default_factory=dict)  # map -> node -> neighbours
    map_of_table: dict[str, str] = field(default_factory=dict)  # node table -> the first map built on it
    map_refs: dict[tuple[str, Any], MapRef] = field(default_factory=dict)  # (grid map, owner) -> its value
    names: Names | None = None  # what players read: the position shown to a seat says these
    movements: dict[str, Movement] = field(default_factory=dict)
    map_nodes: dict[str, list[Row]] = field(default_factory=dict)
    node_at: dict[str, dict[Row, tuple[int, int]]] = field(default_factory=dict)  # map -> node -> drawn at
    constants: dict[str, Any] = field(default_factory=dict)
    rules: dict[str, tuple[list[str], Gen | Fn, bool]] = field(default_factory=dict)
    values: dict[str, tuple[list[str], Fn]] = field(default_factory=dict)
    triggers: dict[str, list[Trigger]] = field(default_factory=dict)
    setup: Gen | None = None
    play: Gen | None = None
    score: Scorer | None = None
    tiebreak: Scorer | None = None
    init: Callable[[Any], None] | None = None
    # The program lowered for the native core, once asked for (interpreter/native), by number of
    # players (one entry unless seats the rules play sit after them): (what the Python side
    # keeps, the core's loaded program), or why the core cannot run it.
    native: Any = None
    examples: list[CompiledExample] = field(default_factory=list)
    styles: dict[str, Style] = field(default_factory=dict)  # ways to play, by name (`--agents NAME`)
    # Carried state (interpreter/carry.py): what a save holds, each variable's `within` bounds,
    # and the sequence of games the file is played as (interpreter/sequence.py), if any.
    carried: list[Carried] = field(default_factory=list)
    carry_bounds: dict[tuple[str, str | None], tuple[int, int]] = field(default_factory=dict)
    sequence: ast.SequenceDecl | None = None
    # With coverage on: every statement as ((line, column), statement, the rule it is in).
    statements: list[tuple[tuple[int, int], ast.Stmt, str]] = field(default_factory=list)
    # Seats the rules play (interpreter/seats.py): their declarations, and their seats for each
    # number of players (seated after the players).
    automata: list[ast.AutomatedDecl] = field(default_factory=list)
    automated: dict[int, list[Player]] = field(default_factory=dict)

    def seated(self, players: int) -> list[Player]:
        """Everyone at the table of a game of `players` players: the players, then the seats the
        rules play."""
        return self.players[:players] + self.automated.get(players, [])

    def all_locations(self, players: int) -> list[Location]:
        locs: list[Location] = []
        seated = set(self.seated(players))
        for (_, owner), loc in self.zone_locs.items():
            if isinstance(owner, Player) and owner not in seated:
                continue
            locs.append(loc)
        for nodes in self.map_nodes.values():
            locs.extend(nodes)
        return locs

    def zone(self, name: str, owner: Any = None) -> ZoneLoc:
        return self.zone_locs[(name, owner)]

    def row(self, table: str, key: str) -> Row:
        return self.row_by_key[table][key]
