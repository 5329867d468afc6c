"""The mutable state of one game, and the requests a running game makes of its driver.

A game's rules run as Python generators compiled from the AST (see compiler/). When the rules
need a player's decision or a random outcome they yield a request (Decision or Chance) and wait
for the index of the answer. Everything else about a game lives in a Runtime: plain data that
refers to the program's canonical players, rows, zones and piece kinds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from meeple.grammar.ast import Span
from meeple.interpreter.values import (
    Cell,
    Kind,
    Location,
    MapRef,
    Piece,
    Placement,
    Player,
    Row,
    a_kind,
    label,
    written,
)
from meeple.limits import MAX_LIST, MAX_LOG_CHARS, MAX_MESSAGE, MAX_NUMBER

# Whose turn it is, as a part of the position values may read (see Runtime.reads); no variable
# can have this name.
CURRENT = "<current player>"

if TYPE_CHECKING:
    from meeple.interpreter.areas import Labelling
    from meeple.interpreter.program import Program


# Where in the rules a decision is asked: the asking statement's (file, line, column).
Site = tuple[str, int, int]


class Decision:
    """A choice a player must make: the only way players act on a game.

    `values` are what the rules chose from, a list or a LazyList (a sequence equal to the list,
    whose items are made when first read); `options` are their readable labels, made only when
    someone looks (a simulation of random agents never needs them)."""

    __slots__ = (
        "_options",
        "env",
        "extra",
        "offers",
        "player",
        "prompt",
        "rule",
        "shown_at",
        "site",
        "values",
        "var",
    )

    def __init__(
        self,
        player: Player,
        prompt: str,
        values: Sequence[Any],
        rule: str = "",
        extra: str = "",
        offers: list[Offer] | None = None,
        site: Site | None = None,
        env: dict[str, Any] | None = None,
        var: str = "",
        shown_at: Callable[[Any, dict[str, Any]], Any] | None = None,
    ) -> None:
        self.player = player
        # `shown at PLACE`: where a picture of the board offers each option, from the position
        # and the statement's names with `var` bound to the option
        self.shown_at = shown_at
        self.prompt = prompt
        self.values = values
        self.rule = rule
        self.extra = extra  # a last option that is not a value ("pass"), or ""
        self.offers = offers or []  # actions offered beside the options (`offer`), after them
        # Where the rules ask, and what they see there: a playing style weighs the options by
        # conditions on the statement's names, `var` bound to each option in turn.
        self.site = site
        self.env = env if env is not None else {}
        self.var = var
        self._options: list[str] | None = None

    @property
    def size(self) -> int:
        return len(self.values) + (1 if self.extra else 0) + len(self.offers)

    @property
    def options(self) -> list[str]:
        if self._options is None:
            self._options = self._said(label)
        return self._options

    @property
    def written(self) -> list[str]:
        """The options as a rules file writes them (a row by its key): what an example's
        `choices` may say instead of a label."""
        return self._said(written)

    def _said(self, say: Callable[[Any], str]) -> list[str]:
        """Every option in words: the values as `say` says them, then the pass and the offers."""
        return (
            [say(v) for v in self.values]
            + ([self.extra] if self.extra else [])
            + [o.label for o in self.offers]
        )

    def option(self, index: int) -> str:
        """The label of one option, `options[index]`, without labelling the others: what the log
        says was chosen."""
        if self._options is not None:
            return self._options[index]
        if index < len(self.values):
            return label(self.values[index])
        index -= len(self.values)
        if self.extra:
            if index == 0:
                return self.extra
            index -= 1
        return self.offers[index].label

    def __str__(self) -> str:
        return f"{self.player}: {self.prompt}"

    __repr__ = __str__


class Offer:
    """An action offered beside every decision of one player while an `offer` block runs."""

    __slots__ = ("body", "cond", "env", "label", "player", "rule", "running")

    def __init__(
        self, player: Player, label: str, body: Any, cond: Any, env: dict[str, Any], rule: str = ""
    ) -> None:
        self.player = player
        self.label = label
        self.rule = rule  # the offered rule's name
        self.body = body  # the rule's generator function
        self.cond = cond  # when it may be taken, or None
        self.env = env  # the rule's arguments, bound when the block began
        self.running = False  # an offered action is not offered inside itself

    def open_to(self, rt: Any, player: Player, where: dict[str, Any]) -> bool:
        return (
            self.player is player and not self.running and (self.cond is None or bool(self.cond(rt, where)))
        )


def offers_for(rt: Any, player: Player) -> list[Offer]:
    """The actions offered to a player now, for a decision they are about to make."""
    return [o for o, where in rt.offers if o.open_to(rt, player, where)]


def take_offer(rt: Any, offer: Offer) -> Any:
    """Run an offered action (a generator): the decision that offered it is asked again after."""
    offer.running = True
    try:
        yield from offer.body(rt, dict(offer.env))
    finally:
        offer.running = False


class Chance:
    """A random outcome: resolved by the seeded generator, or by an example's script."""

    __slots__ = ("_options", "label", "values", "weights")

    def __init__(self, label: str, values: Sequence[Any], weights: list[int] | None) -> None:
        self.label = label
        self.values = values
        self.weights = weights  # None: all equally likely
        self._options: list[str] | None = None

    @property
    def size(self) -> int:
        return len(self.values)

    @property
    def options(self) -> list[str]:
        if self._options is None:
            self._options = [label(v) for v in self.values]
        return self._options

    @property
    def written(self) -> list[str]:
        """The outcomes as a rules file writes them (a row by its key)."""
        return [written(v) for v in self.values]

    def option(self, index: int) -> str:
        """The label of one outcome, `options[index]`, without labelling the others."""
        return self._options[index] if self._options is not None else label(self.values[index])


def chance_line(title: str, outcome: str) -> str:
    """The log's line for a random outcome (a `random` block's, a `pick`'s), whoever drew it (the
    seeded generator, an example's script) and on either engine (interpreter/native/state.py
    writes the core's with it): in brackets, since no player chose it."""
    return f"  ({title}: {outcome})"


class GameEnded(Exception):
    """Raised by `end game` to stop the flow at once, from wherever it is."""


def short(text: str, limit: int = MAX_MESSAGE) -> str:
    """A message cut to `limit` characters, saying how much was left out: an error quoting a
    value, the options or the choices of a game must stay a message, not megabytes."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def describe(err: Exception) -> str:
    """Python's error inside a rule, in the designer's words."""
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, IndexError):
        return "index out of range: the list is shorter"
    if isinstance(err, KeyError):
        key = err.args[0]
        if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str):
            # `x.hand` where x has no zone or map of that name (x is none, say): said as the core
            # says it, which knows the owner, not the name
            return f"{a_kind(key[1])} has no such zone or map"
        return f"no value for {key!r} here"
    return str(err)


class OverLimit(ValueError):
    """A value beyond meeple's limits (meeple/limits.py): stops the rule like any error in it."""


def too_big() -> OverLimit:
    return OverLimit(f"a number grew beyond {MAX_NUMBER:,} (the largest a game may compute)")


def list_limit(size: int) -> OverLimit:
    return OverLimit(f"a list of {size:,} items: more than the {MAX_LIST:,} a list may hold")


class RuleRuntimeError(Exception):
    """A rules file did something impossible while running (an index out of range, a piece that
    is not there, a loop that never ends). Names the rule and the place in the file."""

    def __init__(self, message: str, span: Span | None = None, rule: str = "") -> None:
        message = short(message)
        self.message = message
        self.span = span
        self.rule = rule
        where = f"{span.file}:{span.line}:{span.column}: " if span is not None and span.line else ""
        in_rule = f" (in {rule})" if rule else ""
        super().__init__(f"{where}{message}{in_rule}")


# Read by a value whose answer describes a position that is only supposed (`as_if_laid`): such an
# answer is never remembered, nor any answer built on it (compiler/memo.py).
VOLATILE = object()


class Secret(str):
    """A line of the log that some seats alone may read (written by `reveal`): the text is
    theirs, and every other seat reads `others` in its place. A plain str is a line every seat
    reads. It is a str, so that whatever keeps or prints the whole log (the game's record,
    `meeple play` without a person at the table, a sequence's log) keeps it as a line; what one
    seat may read is asked of `meeple.logs.for_seat`."""

    readers: frozenset[int]  # the seats that read the text
    others: str  # what every other seat reads instead

    def __new__(cls, text: str, readers: frozenset[int], others: str) -> Secret:
        line = super().__new__(cls, text)
        line.readers = readers
        line.others = others
        return line

    def __getnewargs__(self) -> tuple[str, frozenset[int], str]:  # type: ignore[override]
        """What a copy (`copy`, `pickle`) makes it again from: a str's own gives the text alone."""
        return str(self), self.readers, self.others


class Withheld(Secret):
    """An answer's line withheld from the seats that could not see the piece it took (a card
    chosen from a private hand: `engine.Hidden`). The Python engine alone words it so: the native
    core, which plays no seat a person holds, names the piece to every seat, and both count only
    the line itself towards MAX_LOG_CHARS (what the others read is a piece's and a place's names,
    no longer than the line)."""


class Said(str):
    """A log line whose answer is a place on a grid that grows (a shape laid, a cell): its text is
    the game's record ("(1,0) turned 90°", as both engines write it), and it carries the place
    (`value`) and what lay around it when it was chosen (`around`: each cell next to it by (q,
    r), with the row shown there or None), so that what a player reads can say it in words, by
    what it touched then ("turned a quarter right, west of Water": `meeple.board.say_place`)."""

    value: Any
    around: dict[tuple[int, int], Any]

    def __new__(cls, text: str, value: Any, around: dict[tuple[int, int], Any]) -> Said:
        line = super().__new__(cls, text)
        line.value = value
        line.around = around
        return line

    def __getnewargs__(self) -> tuple[str, Any, dict[tuple[int, int], Any]]:  # type: ignore[override]
        """What a copy (`copy`, `pickle`) makes it again from: a str's own gives the text alone."""
        return str(self), self.value, self.around


def log_too_long(span: Span | None, rule: str) -> RuleRuntimeError:
    """The error of a log line beyond MAX_LOG_CHARS, at the statement that writes it: one
    wording for both engines (interpreter/native keeps the same count)."""
    return RuleRuntimeError(
        f"the game's log grew beyond {MAX_LOG_CHARS:,} characters (the limit MAX_LOG_CHARS): "
        "the rules seem to log without end",
        span,
        rule,
    )


class Runtime:
    """Everything that changes during one game."""

    def __init__(self, program: Program, players: int, seed: int, budget: int) -> None:
        self.program = program
        self.players: list[Player] = program.seated(players)  # the players, then the seats the rules play
        # Each seat's team, its members in seat order (interpreter/teams.py): alone unless the game
        # is played in teams.
        self.team_of: dict[Player, list[Player]] = {p: [p] for p in self.players}
        self.rng = random.Random(seed)
        self.vars: dict[str, Any] = {}
        self.owned: dict[tuple[str, str], dict[Any, Any]] = {}
        self.locs: dict[Location, list[Piece]] = {loc: [] for loc in program.all_locations(players)}
        self.grids: dict[MapRef, dict[tuple[int, int], Cell]] = {  # grid map -> (q, r) -> cell
            mapref: {at: Cell(mapref, *at, name) for at, name in mapref.board.items()}
            for mapref in program.map_refs.values()
            if mapref.board is not None and (mapref.owner is None or mapref.owner in self.players)
        }
        self.faces: dict[Cell, Row] = {}  # what each grid cell shows: the row its top layer put there
        self.layers: dict[Cell, list[Placement]] = {}  # the shapes laid on each cell, the top one last
        self.areas: dict[tuple[MapRef, str], Labelling] = {}  # each grid's areas, kept until it changes
        self.sides: dict[tuple[MapRef, str], list[Cell]] = {}  # each grid's sides, kept until it changes
        for board in self.grids.values():  # a board's cells are places from the start
            for cell in board.values():
                self.locs[cell] = []
                self.layers[cell] = []
        # Which position the game is in: a new number after every change. Answers about supposed
        # positions (VOLATILE) are kept only while the position they were asked in lasts.
        self.changes = 0
        self.position = 0
        self.supposing = 0  # how many `as_if_laid` are under way: a supposed position keeps nothing
        self.volatile: dict[tuple[Any, ...], Any] = {}
        self.volatile_at = -1
        self.log: list[str] = []  # every line; a Secret is one some seats alone may read
        self.log_chars = 0  # characters in the log so far (MAX_LOG_CHARS)
        self.logging = True  # simulations switch the readable log off
        self.scripted = False  # an example scripts random outcomes: chance must be asked of the driver
        self.turns = 0
        self.current: Player | None = None
        self.steps = 0
        self.budget = budget
        self.shortfalls: dict[str, int] = {}
        # What `reveal` showed, by place: for each seat shown, how many of each piece it saw there.
        # Kept until a piece like it leaves or reaches the place (`moved`), so that a seat is
        # never shown what it only saw before the piece moved; the view shows it (view.py).
        self.seen: dict[Location, dict[int, dict[Piece, int]]] = {}
        # What `tally` counted, for statistics: one count per counter, or one per seat.
        self.counters: dict[str, list[int]] = {
            name: [0] * (len(self.players) if decl.per_player else 1)
            for name, decl in program.symbols.counters.items()
        }
        self.offers: list[tuple[Offer, dict[str, Any]]] = []  # open `offer` blocks, with their env
        self.covered: set[tuple[int, int]] = set()  # (line, column) of statements that ran, with coverage
        self.last_rule = ""  # the rule called last: names the culprit when rules recurse without end
        self.depth = 0  # rule, value and trigger calls under way, one inside another (MAX_RECURSION)
        # Values already computed, by (value, arguments), kept until a part of the position they
        # read changes. Rules ask the same questions before every decision ("is any free action
        # possible?") while a decision changes one or two parts of the position.
        self.memo: dict[tuple[Any, ...], Any] = {}
        # What the value being computed has read so far: parts of the position (a location, a
        # variable, CURRENT) and the memo keys of the values it used. None outside values.
        self.reads: set[Any] | None = None
        # A part of the position (or a memo key) -> the memo keys of the values that read it.
        self.readers: dict[Any, set[tuple[Any, ...]]] = {}

    def remember(self, key: tuple[Any, ...], result: Any, reads: set[Any]) -> None:
        """Keep a value's answer until one of the things it read changes."""
        self.memo[key] = result
        readers = self.readers
        for part in reads:
            known = readers.get(part)
            if known is None:
                readers[part] = {key}
            else:
                known.add(key)

    def changed(self, part: Any) -> None:
        """A part of the position changed: forget the answers that read it, then the answers that
        used those, and so on. An answer no longer in the memo has no users left in it: they were
        forgotten with it, and a new user can only come after it is computed again."""
        self.changes += 1
        self.position = self.changes
        readers = self.readers.pop(part, None)
        if not readers:
            return
        memo, todo = self.memo, list(readers)
        while todo:
            key = todo.pop()
            if key in memo:
                del memo[key]
                users = self.readers.pop(key, None)
                if users:
                    todo.extend(users)

    def reshaped(self, mapref: MapRef) -> None:
        """A grid's cells or what they show changed: forget what read the grid, its areas and its
        sides."""
        self.changed(mapref)
        for key in [k for k in self.areas if k[0] is mapref]:
            del self.areas[key]
        for key in [k for k in self.sides if k[0] is mapref]:
            del self.sides[key]

    def moved(self, loc: Location, pieces: list[Piece]) -> None:
        """Pieces arrived at or left a location (or it was shuffled). A value that asked only for
        pieces of one kind there read `(loc, kind name)` or `(loc, row)`, so moving pieces of
        another kind leaves its answer standing: tokens moving through an area do not change how
        many cubes it holds."""
        self.changed(loc)
        if self.seen and loc in self.seen and not self.supposing:  # a supposition puts it back
            self.unseen(loc, pieces)
        kinds: list[Kind] = []  # each once (a loop: a set comprehension costs a frame per move)
        for piece in pieces:
            kind = piece[0]
            if kind not in kinds:
                kinds.append(kind)
                self.changed((loc, kind.name))
                if kind.row is not None:
                    self.changed((loc, kind.row))

    def reveal(self, loc: Location, pieces: list[Piece], seats: list[int]) -> None:
        """The seats `seats` saw the pieces `pieces` at `loc` (`reveal`): each remembers, of each
        piece, as many as it saw there at once (a second look at the same hand adds nothing)."""
        looked: dict[Piece, int] = {}
        for piece in pieces:
            looked[piece] = looked.get(piece, 0) + 1
        at = self.seen.setdefault(loc, {})
        for seat in seats:
            known = at.setdefault(seat, {})
            for piece, count in looked.items():
                known[piece] = max(known.get(piece, 0), count)

    def unseen(self, loc: Location, pieces: list[Piece]) -> None:
        """Pieces left or reached `loc`, or it was shuffled: what any seat saw there of pieces like
        them is forgotten. Pieces of one kind and owner are alike, so no seat can still tell
        which of them is the one it saw, nor where a shuffled one went."""
        at = self.seen[loc]
        for seat, known in list(at.items()):
            for piece in pieces:
                known.pop(piece, None)
            if not known:
                del at[seat]
        if not at:
            del self.seen[loc]

    def forget(self) -> None:
        """Forget every answer: after the position was changed other than by the rules (a test or a
        tool setting up a position by hand), or wholesale (the start of a game)."""
        self.memo.clear()
        self.readers.clear()
        self.changes += 1
        self.position = self.changes

    def around(
        self, coords: list[tuple[int, int]], grid: Any, own: bool = False
    ) -> dict[tuple[int, int], Row | None]:
        """The cells next to some cells of a grid that grows, as they are now (and the cells
        themselves, `own`: a cell or an area is said by what it shows too): each by (q, r), with
        the row it shows (None: nothing shown). What a `Said` line keeps."""
        cells = self.grids.get(grid, {})
        mine = set(coords)
        around: dict[tuple[int, int], Row | None] = {}
        for q, r in mine:
            for dq, dr in grid.geometry.directions:
                at = (q + dq, r + dr)
                if (own or at not in mine) and at in cells:
                    around[at] = self.faces.get(cells[at])
        if own:
            around |= {at: self.faces.get(cells[at]) for at in mine if at in cells}
        return around

    def around_places(self, *values: Any) -> dict[tuple[int, int], Row | None]:
        """What lies around every place of a grid that grows the values name (`grown_places`, and
        a shape laid: a `Placement`): what a `Said` line keeps of a cell, an area, a route or a
        tile laid."""
        from meeple.interpreter.areas import Area, grown_places
        from meeple.interpreter.values import Placement

        around: dict[tuple[int, int], Row | None] = {}
        for value in values:
            if type(value) is Placement:
                around |= self.around(list(value.coords), value.map)
                continue
            for place in grown_places(value):
                cells = place.cells if isinstance(place, Area) else [place]
                around |= self.around([(c.q, c.r) for c in cells], cells[0].map, own=True)
        return around

    def write(self, line: str, span: Span | None = None, rule: str = "") -> None:
        """Add a line to the readable log, which must stay within MAX_LOG_CHARS: a rule that logs
        in a loop would otherwise fill the memory long before its step budget runs out."""
        self.log_chars += len(line)
        if self.log_chars > MAX_LOG_CHARS:
            raise log_too_long(span, rule)
        self.log.append(line)

    def write_secret(
        self, text: str, readers: frozenset[int], others: str, span: Span | None = None, rule: str = ""
    ) -> None:
        """Add a line that the seats `readers` alone may read; the others read `others` in its
        place. Both count towards MAX_LOG_CHARS."""
        self.log_chars += len(others)
        self.write(Secret(text, readers, others), span, rule)

    def roll(self, weights: list[int] | None, size: int) -> int:
        """A random outcome from the seeded generator: weighted, or uniform over `size` options."""
        if weights is None:
            return self.rng.randrange(size)
        point = self.rng.random() * sum(weights)
        for index, weight in enumerate(weights):
            point -= weight
            if point < 0:
                return index
        return len(weights) - 1

    def shortfall(self, what: str, missing: int) -> None:
        """A move wanted more pieces than there were: recorded for `meeple check --play`."""
        self.shortfalls[what] = self.shortfalls.get(what, 0) + missing
