"""The mutable state of one game, and the requests a running game makes of its driver.

A game's rules run as Python generators compiled from the AST (see compiler.py). When the rules
need a player's decision or a random outcome they yield a request (Decision or Chance) and wait
for the index of the answer. Everything else about a game lives in a Runtime: plain data that
refers to the program's canonical players, rows, zones and piece kinds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.grammar.ast import Span
from meeple.interpreter.values import Location, Piece, Player, Row

if TYPE_CHECKING:
    from meeple.interpreter.program import Program


@dataclass
class Decision:
    """A choice a player must make: the only way players act on a game."""

    player: Player
    prompt: str
    options: list[str]
    values: list[Any] = field(repr=False)
    rule: str = ""

    def __str__(self) -> str:
        return f"{self.player}: {self.prompt}"


@dataclass
class Chance:
    """A random outcome: resolved by the seeded generator, or by an example's script."""

    label: str
    options: list[str]
    weights: list[int] | None  # None: all equally likely


class GameEnded(Exception):
    """Raised by `end game` to stop the flow at once, from wherever it is."""


class RuleRuntimeError(Exception):
    """A rules file did something impossible while running (an index out of range, a piece that
    is not there, a loop that never ends). Names the rule and the place in the file."""

    def __init__(self, message: str, span: Span | None = None, rule: str = "") -> None:
        self.message = message
        self.span = span
        self.rule = rule
        where = f"{span.file}:{span.line}:{span.column}: " if span is not None and span.line else ""
        in_rule = f" (in {rule})" if rule else ""
        super().__init__(f"{where}{message}{in_rule}")


class Runtime:
    """Everything that changes during one game."""

    def __init__(self, program: Program, players: int, seed: int, budget: int) -> None:
        self.program = program
        self.players: list[Player] = program.players[:players]
        self.rng = random.Random(seed)
        self.vars: dict[str, Any] = {}
        self.owned: dict[tuple[str, str], dict[Any, Any]] = {}
        self.locs: dict[Location, list[Piece]] = {loc: [] for loc in program.all_locations(players)}
        self.log: list[str] = []
        self.turns = 0
        self.current: Player | None = None
        self.steps = 0
        self.budget = budget
        self.shortfalls: dict[str, int] = {}
        self.ran: set[int] = set()  # ids of statements that ran, when coverage is on
        self.track = False

    def shortfall(self, what: str, missing: int) -> None:
        """A move wanted more pieces than there were: recorded for `meeple check --play`."""
        self.shortfalls[what] = self.shortfalls.get(what, 0) + missing

    def row_var(self, owner: Row | Player, per: str, name: str) -> Any:
        return self.owned[(per, name)][owner]
