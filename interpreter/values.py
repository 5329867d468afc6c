"""The values a running game computes with.

Players, table rows, zone instances and piece kinds are created once per compiled program and
compared by identity; a game's state only refers to them. Pieces of one kind and owner are
interchangeable, so a piece is the pair (kind, owner) and a location holds a list of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meeple.interpreter.geometry import HEX, Geometry


class Player:
    """A seat at the table. Seats are 0-based in data; shown 1-based to people. A seat the rules
    play (`automated`) is shown by its name, and is never asked a decision (interpreter/seats.py)."""

    __slots__ = ("automated", "name", "seat")

    def __init__(self, seat: int, name: str = "", automated: bool = False) -> None:
        self.seat = seat
        self.name = name or f"Player {seat + 1}"
        self.automated = automated

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__


class Row:
    """One row of a table: a piece kind, a zone of a map, a card... Its key is its first cell, as
    the rules file writes it (`hq`); its name is what players read (its `called` column,
    "Headquarters", else its key): options, logs and positions show the name."""

    __slots__ = ("index", "key", "name", "table", "values")

    def __init__(self, table: str, key: str, index: int) -> None:
        self.table = table
        self.key = key
        self.name = key
        self.index = index
        self.values: dict[str, Any] = {}

    def __str__(self) -> str:
        return self.key

    __repr__ = __str__


class ZoneLoc:
    """One instance of a declared zone: shared, or owned by a player or a table row. Its name is
    what players read (the zone's `called` line, else its name in words)."""

    __slots__ = ("name", "owner", "zone")

    def __init__(self, zone: str, owner: Player | Row | None, name: str = "") -> None:
        self.zone = zone
        self.owner = owner
        self.name = name or humanise(zone)

    def __str__(self) -> str:
        return self.zone if self.owner is None else f"{self.zone} of {self.owner}"

    __repr__ = __str__


class Kind:
    """A kind of piece. Pieces declared `each TABLE` get one kind per row and read its columns.
    `called` is what players read: its row's name, else the piece's `called` line, else its name
    in words; `many` is its plural."""

    __slots__ = ("called", "many", "name", "row")

    def __init__(self, name: str, row: Row | None, called: str = "", many: str = "") -> None:
        self.name = name
        self.row = row
        self.called = row.name if row is not None else called or humanise(name)
        self.many = many or self.called  # the plural players read: "15 Tokens"

    def __str__(self) -> str:
        return self.row.key if self.row is not None else self.name

    __repr__ = __str__


Piece = tuple[Kind, Player | None]


class PieceRef:
    """A piece found at a location: what `pieces(...)` returns and `move ... to` takes."""

    __slots__ = ("loc", "piece")

    def __init__(self, loc: Location, piece: Piece) -> None:
        self.loc = loc
        self.piece = piece

    def __str__(self) -> str:
        return label_piece(self.piece)

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PieceRef) and other.loc is self.loc and other.piece == self.piece

    def __hash__(self) -> int:
        return hash((id(self.loc), self.piece))


def label_piece(piece: Piece) -> str:
    """A piece as people read it: its kind, and its owner if it has one (`Token of Player 2`)."""
    kind, owner = piece
    return kind.called if owner is None else f"{kind.called} of {owner}"


def label_pieces(piece: Piece) -> str:
    """Several pieces of one kind and owner, as people read them: `Tokens of Player 2`."""
    kind, owner = piece
    return kind.many if owner is None else f"{kind.many} of {owner}"


def humanise(name: str) -> str:
    """A declared name in words: `magic_caves` -> "magic caves". Here, beside `label`, so that
    the engine (a prompt, the position shown to a player) and the printed rules say it alike."""
    return name.replace("_", " ").strip() or name


def first_upper(text: str) -> str:
    """A sentence's first letter in capitals (the rest as it is: "Player 2", "the Reserve")."""
    return text[:1].upper() + text[1:]


def label(value: Any) -> str:
    """How a value reads in an option list or a log line."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(label(v) for v in value) + "]"
    if isinstance(value, dict):  # a value per row (`var x per player, TABLE`), by the rows' names
        return ", ".join(f"{label(k)}: {label(v)}" for k, v in value.items())
    if type(value) is Row:
        return value.name
    if type(value) is ZoneLoc:
        return value.name if value.owner is None else f"{value.name} of {label(value.owner)}"
    return str(value)


def written(value: Any) -> str:
    """How a value is written in a rules file: a row by its key (`hq`), a piece by its kind's
    name or row key (`token of Player 2`), anything else as it reads. An example's `choices`
    may name an option either way."""
    if type(value) is Row:
        return value.key
    if type(value) is PieceRef:
        kind, owner = value.piece
        return str(kind) if owner is None else f"{kind} of {owner}"
    if isinstance(value, list):
        return "[" + ", ".join(written(v) for v in value) + "]"
    return label(value)


def article(word: str) -> str:
    """The indefinite article a name takes, by its first letter ("a card", "an event"): here, for
    the engine's log and the printed rules alike, which may not import the doc generators."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def with_article(word: str) -> str:
    """A noun with its indefinite article: "a card", "an event"."""
    return f"{article(word)} {word}"


def type_name(value: Any) -> str:
    """The language's name for a runtime value's type, for error messages."""
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, int):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, Player):
        return "player"
    if isinstance(value, Row):
        return f"row of {value.table}"
    if isinstance(value, ZoneLoc):
        return "zone"
    if isinstance(value, PieceRef):
        return "piece"
    if isinstance(value, list):
        return "list"
    if value is None:
        return "none"
    return type(value).__name__


def a_kind(value: Any) -> str:
    """`type_name` with its article, for a sentence: "a number", "a list", "none"."""
    name = type_name(value)
    return name if value is None else with_article(name)


class Bottom:
    """`bottom(Z)`: the bottom of a place, as a destination. Pieces moved or drawn there go under
    the pieces already there ("put it on the bottom of the deck"); nothing else takes it."""

    __slots__ = ("loc",)

    def __init__(self, loc: Location) -> None:
        self.loc = loc

    def __str__(self) -> str:
        return f"the bottom of {self.loc}"

    __repr__ = __str__


class MapRef:
    """One grid map: a map declared `per player` has one per player. It carries its geometry,
    which every question about its cells asks, and, for a board given by its size, its cells
    (every game starts with all of them) and their names."""

    __slots__ = ("board", "geometry", "name", "owner")

    def __init__(
        self,
        name: str,
        owner: Player | None,
        geometry: Geometry = HEX,
        board: dict[tuple[int, int], str] | None = None,
    ) -> None:
        self.name = name
        self.owner = owner
        self.geometry = geometry
        self.board = board  # (q, r) -> the cell's name, in reading order; None: the grid grows

    def __str__(self) -> str:
        return self.name if self.owner is None else f"{self.name} of {self.owner}"

    __repr__ = __str__


class Cell:
    """A cell of a grid map, at axial coordinates (q, r). Cells of a growing grid exist from the
    moment a shape is placed over them, and read as their coordinates; a board's are there from
    the start and read as a player names them (`b2`). Each game makes its own (they are places
    that hold pieces)."""

    __slots__ = ("map", "name", "q", "r")

    def __init__(self, map: MapRef, q: int, r: int, name: str = "") -> None:
        self.map = map
        self.q = q
        self.r = r
        self.name = name or f"({q},{r})"

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__


class Placement:
    """Where a shape could go on a grid: its cells' coordinates, in the order of its rows, and the
    turn it was given. Once laid (`place`), the same object stands for the layer on the grid."""

    __slots__ = ("coords", "map", "rotation", "rows")

    def __init__(self, map: MapRef, coords: list[tuple[int, int]], rows: list[Row], rotation: int) -> None:
        self.map = map
        self.coords = coords
        self.rows = rows
        self.rotation = rotation

    @property
    def block(self) -> tuple[int, int]:
        """The block of its first cell: on a grid of blocks, the block it covers."""
        q, r = self.coords[0]
        return self.map.geometry.block_of(q, r)

    def __str__(self) -> str:
        x, y = self.block
        return f"({x},{y}) turned {self.map.geometry.degrees(self.rotation)}°"

    __repr__ = __str__


class Border:
    """A side a placement would share with the grid: the row the shape puts on one side of it
    and the cell already on the other. Edge matching (tiles whose touching sides must agree) is a
    test over a placement's borders."""

    __slots__ = ("new", "old")

    def __init__(self, new: Row, old: Cell) -> None:
        self.new = new
        self.old = old

    def __str__(self) -> str:
        return f"{self.new} against {self.old}"

    __repr__ = __str__


class Route:
    """A way a `movement` can go: where it starts and ends and the places it passes in between.
    Places are grid cells, table-map nodes, or whatever a movement's `step` line lists."""

    __slots__ = ("end", "passed", "path", "start")

    def __init__(self, start: Any, path: tuple[Any, ...]) -> None:
        self.start = start
        self.path = path  # every place entered, in order; the last is the end
        self.end = path[-1] if path else start
        self.passed = list(dict.fromkeys(c for c in path[:-1] if c != start))

    def __str__(self) -> str:
        """`from (0,0) to (2,0) via (1,0)`; `from (0,0) via (1,0) back to (0,0)`; `stay at (0,0)`."""
        if not self.path:
            return f"stay at {self.start}"
        via = f" via {', '.join(str(c) for c in self.passed)}" if self.passed else ""
        if self.end == self.start:
            return f"from {self.start}{via} back to {self.start}"
        return f"from {self.start} to {self.end}{via}"

    __repr__ = __str__


_UNMADE = object()  # an item of a LazyList not made yet


class LazyList(Sequence[Any]):
    """A list whose items are made only when they are read: its length is known at once, and each
    item is made the first time it is read and kept, so that one index always gives the same
    object. A choice offers one (`choose spot from placements(...)`): a player who reads a
    few options, as a random one does, makes a few of the hundreds a large grid offers."""

    __slots__ = ("_made", "_make")

    def __init__(self, size: int, make: Callable[[int], Any]) -> None:
        self._made: list[Any] = [_UNMADE] * size
        self._make = make  # index (0 to size - 1) -> item

    def __len__(self) -> int:
        return len(self._made)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._made)))]
        item = self._made[index]  # an IndexError past the end, as a list's
        if item is _UNMADE:
            item = self._made[index] = self._make(index % len(self._made))
        return item

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list | LazyList):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has no hash either

    def __repr__(self) -> str:
        return repr(list(self))


Location = ZoneLoc | Row | Cell
