"""The types analysis gives expressions, as values: `ListOf(Piece("card"))`, `Cell("land")`,
`Rows("colour", INT)`, `INT`... Each is frozen and hashable, says itself in players' words for
diagnostics (`readable`), and knows which types it refines (`fits`), so no reader cuts a string
to find out what a type is.

A parameter left empty (`Piece()`, `Cell()`, `ListOf()`) is "of any": a built-in that `takes`
`Cell()` accepts a cell of any grid, and `Piece("card")` is a piece (`fits(Piece())`). `ANY` is
what the checker cannot tell: it fits everything and everything fits it, so that where the
checker does not know, it says nothing (it is a guide for designers, not a proof system).
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Type:
    """A type of value. `fits(want)`: a value of this type may stand where `want` is asked for
    (`ANY` either side, the same type, or one that fills in what `want` leaves empty)."""

    def readable(self) -> str:
        """The type in the words a diagnostic uses: "a number", "a row of 'colour'"."""
        raise NotImplementedError

    def refines(self, want: Type) -> bool:
        """This type is `want`, or `want` with its empty parameters filled in: `Piece("card")`
        refines `Piece()`, `ListOf(Piece("card"))` refines `ListOf(Piece())` and `ListOf()`."""
        if type(self) is not type(want):
            return False
        for f in fields(want):
            wanted, got = getattr(want, f.name), getattr(self, f.name)
            if wanted is None or wanted == "":
                continue
            if isinstance(wanted, Type) and isinstance(got, Type):
                if not got.refines(wanted):
                    return False
            elif got != wanted:
                return False
        return True

    def fits(self, want: Type) -> bool:
        """A value of this type may stand where `want` is asked for. A zone is asked for where
        pieces are: a row (a node of a map), a list, a cell or an area holds them too."""
        if self == ANY or want == ANY or self.refines(want):
            return True
        return want == LOC and isinstance(self, Row | ListOf | Cell | Area)


@dataclass(frozen=True)
class Scalar(Type):
    """A type without parameters: a number, yes/no, a text, a player, a zone, a kind of piece, a
    movement, the bottom of a place, or anything (not known)."""

    name: str
    words: str

    def readable(self) -> str:
        return self.words

    def __repr__(self) -> str:
        return self.name.upper()


INT = Scalar("int", "a number")
BOOL = Scalar("bool", "yes/no")
TEXT = Scalar("text", "a text")
PLAYER = Scalar("player", "a player")
LOC = Scalar("loc", "a zone")
KIND = Scalar("kind", "a kind of piece")
MOVEMENT = Scalar("movement", "a movement")
BOTTOM = Scalar("bottom", "the bottom of a place")  # `bottom(Z)`: where pieces go, and nothing else
ANY = Scalar("any", "anything")

# The types a table's column, a parameter or a variable names by a word of the language.
NAMED = {"int": INT, "bool": BOOL, "text": TEXT, "player": PLAYER, "zone": LOC, "location": LOC}
SCALARS = frozenset({INT, BOOL, TEXT, PLAYER})  # the plain values: a column's, a seat's, a save's
SCALAR_WORDS = frozenset(word for word, t in NAMED.items() if t in SCALARS)  # int, bool, text, player


def _unarticled(words: str) -> str:
    return words.removeprefix("a ").removeprefix("an ")


@dataclass(frozen=True)
class ListOf(Type):
    """A list of values of one type (`ListOf()`: a list of anything, as a built-in takes it)."""

    element: Type | None = None

    def readable(self) -> str:
        if self.element is None:
            return "a list"
        return f"a list of {_unarticled(self.element.readable())}s"

    @property
    def item(self) -> Type:
        """What an item of the list is (ANY where not known)."""
        return self.element if self.element is not None else ANY


@dataclass(frozen=True)
class Row(Type):
    """A row of a table."""

    table: str

    def readable(self) -> str:
        return f"a row of '{self.table}'"


@dataclass(frozen=True)
class Rows(Type):
    """A variable with a value for each row of a table (`var NAME per player, TABLE`), which only
    indexing by a row reads (`p.NAME[row]`)."""

    table: str
    value: Type

    def readable(self) -> str:
        return f"{self.value.readable()} for each row of '{self.table}'"


@dataclass(frozen=True)
class Piece(Type):
    """A piece, of one kind where it is known."""

    kind: str = ""

    def readable(self) -> str:
        return "a piece"


@dataclass(frozen=True)
class Grid(Type):
    """A grid map."""

    name: str = ""

    def readable(self) -> str:
        return f"the grid '{self.name}'" if self.name else "a grid map"


@dataclass(frozen=True)
class Cell(Type):
    """A cell of a grid map."""

    grid: str = ""

    def readable(self) -> str:
        return f"a cell of '{self.grid}'" if self.grid else "a cell of a grid map"


@dataclass(frozen=True)
class Placement(Type):
    """Where a shape lies, or may lie, on a grid (from `placements(...)`)."""

    grid: str = ""

    def readable(self) -> str:
        return f"a placement of '{self.grid}'" if self.grid else "a placement (from placements(...))"


@dataclass(frozen=True)
class Border(Type):
    """A side a placement would share with a cell beside it."""

    grid: str = ""

    def readable(self) -> str:
        return f"a border of '{self.grid}'" if self.grid else "a border"


def _place_name(place: Type | None) -> str:
    """The table or grid whose places a type is: '' where none is known."""
    if isinstance(place, Row):
        return place.table
    if isinstance(place, Cell):
        return place.grid
    return ""


@dataclass(frozen=True)
class Area(Type):
    """An area: places (cells, or a map's nodes) joined by one column's value."""

    place: Type | None = None

    def readable(self) -> str:
        name = _place_name(self.place)
        return f"an area of '{name}'" if name else "an area"


@dataclass(frozen=True)
class Route(Type):
    """A route of a movement, from place to place (cells, or a map's nodes)."""

    place: Type | None = None

    def readable(self) -> str:
        name = _place_name(self.place)
        return f"a route of '{name}'" if name else "a route"


def element(t: Type) -> Type:
    """What an item of a list of this type is: ANY for what is not known to be a list."""
    return t.item if isinstance(t, ListOf) else ANY
