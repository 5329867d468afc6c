"""The built-in functions: one class each, collected into one registry (`BUILTINS`).

A built-in is known in many places: the checker gives its argument count and the type of its
answer, the compiler its implementation, the checks whether it reads the game as it changes, both
English voices its words, the lexer its name, the language reference its row. Each of those reads
the entry here, so that a built-in is added, or changed, in one place: subclass `Builtin`, give it
the class attributes and the methods it needs, decorate it with `@register`. Its row in the table
of docs/language.md must then be added too (tests/test_builtins.py says which row is missing).

The language reference lists the built-ins in the order they are registered here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter import areas, grids, layers
from meeple.interpreter.areas import Area
from meeple.interpreter.runtime import RuleRuntimeError, too_big
from meeple.interpreter.types import (
    ANY,
    BOOL,
    BOTTOM,
    INT,
    KIND,
    LOC,
    PLAYER,
    TEXT,
    Grid,
    ListOf,
    Piece,
    Type,
    element,
)
from meeple.interpreter.types import (
    Area as AreaType,
)
from meeple.interpreter.types import (
    Border as BorderType,
)
from meeple.interpreter.types import (
    Cell as CellType,
)
from meeple.interpreter.types import (
    Placement as PlacementType,
)
from meeple.interpreter.types import (
    Route as RouteType,
)
from meeple.interpreter.types import (
    Row as RowType,
)
from meeple.interpreter.values import (
    Border,
    Bottom,
    Cell,
    MapRef,
    PieceRef,
    Placement,
    Player,
    Route,
    Row,
    a_kind,
    type_name,
)
from meeple.limits import MAX_NUMBER

if TYPE_CHECKING:
    from meeple.interpreter.analysis import Analyzer
    from meeple.interpreter.compiler.base import Part
    from meeple.interpreter.program import Fn, Movement

MANY = 99  # `most` of a built-in that takes any number of arguments


class Speaker(Protocol):
    """What a built-in's `english` asks of the designer's reference (`codegen/english.py`'s
    `English` is one): declared here, so that the interpreter imports nothing of the generators
    that read it, not even for its types."""

    def expr(self, e: ast.Expr, context: int = 0, cond: bool = False) -> str: ...
    def cond(self, e: ast.Expr, context: int = 0) -> str: ...
    def typed(self, e: ast.Expr) -> Type: ...
    def var(self, name: str) -> str: ...
    def pieces_in(self, args: Sequence[ast.Expr], default: str) -> str: ...
    def total(self, e: ast.Expr) -> str | None: ...
    def source(self, e: ast.MapComp) -> str: ...
    def named(self, e: ast.Expr) -> str: ...
    def listing(self, words: list[str]) -> str: ...


class Builtin:
    """One built-in function. The class attributes say what it is; the methods what each part of
    meeple does with a call of it. The defaults suit a function nothing special is known of."""

    name: ClassVar[str]
    fewest: ClassVar[int]  # arguments
    most: ClassVar[int]  # arguments; MANY: no limit
    # Its answer depends on its arguments alone (and the rules' fixed data): the same in every game.
    # The compiler keeps answers of values built on such calls across games (static values); the
    # flow checks know that a condition calling it reads only what its arguments read.
    pure: ClassVar[bool] = False
    # Not pure, but nothing it reads changes while a game lasts (the seating, the map's edges, this
    # game's cells): the flow checks may treat it as pure, the compiler may not keep its answers.
    steady: ClassVar[bool] = False
    # It reads which pieces are where (of a zone or location it is given): a condition calling it
    # changes when pieces move.
    reads_pieces: ClassVar[bool] = False
    # Its second argument names an attribute of the nodes (`region(n, colour)`), not a value.
    names_attribute: ClassVar[bool] = False
    # The type each argument must have, in order (ANY: not checked): analysis refuses a call
    # whose argument is of another type (M014), before `check` reads the types.
    takes: ClassVar[tuple[Type, ...]] = ()
    # It walks a map's edges: a map built on a table the game uses is then used too.
    walks_graph: ClassVar[bool] = False
    # Its own errors at run time name the call's place, not its statement's (a question about a
    # grid, a map or a movement, a look-ahead: one statement may ask several). Its `compile`
    # raises them with the call's span; the core, told by this, locates them there too.
    errors_at_call: ClassVar[bool] = False
    # The language reference's row: how it is called ("`pieces(where)`, ...") and what it gives.
    usage: ClassVar[str]
    value: ClassVar[str]

    @property
    def arguments(self) -> str:
        """The argument count as the language reference says it: "1", "1 or 2", "2 or more"."""
        if self.fewest == self.most:
            return str(self.fewest)
        if self.most == MANY:
            return f"{self.fewest} or more"
        if self.most == self.fewest + 1:
            return f"{self.fewest} or {self.most}"
        return f"{self.fewest} to {self.most}"

    # ------------------------------------------------------------------ checking

    def arg_types(self, analyzer: Analyzer, call: ast.Call, scope: dict[str, Type]) -> list[Type]:
        """The types of the arguments, each checked as an expression (an argument that is not a
        value, such as an attribute's name, is left unchecked by overriding this)."""
        return [analyzer.expr(arg, scope) for arg in call.args]

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        """The type of the call's answer, reporting what is wrong with its arguments. Called only
        when the call has at least `fewest` arguments."""
        return ANY

    def reads_any_kind(self, call: ast.Call) -> bool:
        """Whether the call sees pieces without naming their kind: their kind is then used through
        their zone (checks/usage.py)."""
        return self.reads_pieces

    # ------------------------------------------------------------------ running

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        """The call as a function `(runtime, env) -> value`."""
        raise NotImplementedError(self.name)

    def compile_options(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn | None:
        """The call as the options of a choice (`choose x from CALL`), as a function giving a
        sequence whose items are made as they are read (values.LazyList), equal item for item to
        the list `compile` gives; None: the choice takes that list."""
        return None

    # ------------------------------------------------------------------ words

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        """The call in the designer's English; `words` are its arguments spoken. None: "NAME of
        ARGS", as for a value."""
        return None

    def players(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        """The call in players' words (codegen/players.py, with the names bound there)."""
        return self.english(speaker, call, words)


BUILTINS: dict[str, Builtin] = {}


def register(cls: type[Builtin]) -> type[Builtin]:
    """Add a built-in to the registry (a class decorator)."""
    BUILTINS[cls.name] = cls()
    return cls


def _args(compiler: Part, call: ast.Call, scope: set[str]) -> list[Fn]:
    return [compiler.expr(a, scope) for a in call.args]


def locations(value: Any) -> list[Any]:
    """A location, a list of them or an area (what `pieces`, `count` and `move ... from` accept)."""
    if type(value) is Area:
        return value.cells
    return value if isinstance(value, list) else [value]


# ====================================================================== numbers and lists


@register
class Count(Builtin):
    name = "count"
    fewest, most = 1, 1
    pure = True  # of a list; of a zone it reads the pieces there (reads_pieces)
    reads_pieces = True
    usage = "`count(x)`"
    value = "the length of a list, or the number of pieces in a location"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return INT

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        inner = call.args[0]
        if isinstance(inner, ast.Call) and inner.func == "pieces":
            return self.count_pieces(compiler, inner, scope)
        a0 = compiler.expr(inner, scope)

        def count(rt: Any, env: dict[str, Any]) -> int:
            v = a0(rt, env)
            if isinstance(v, list):
                return len(v)
            if rt.reads is not None:
                rt.reads.add(v)
            return len(rt.locs[v])

        return count

    @staticmethod
    def count_pieces(compiler: Part, e: ast.Call, scope: set[str]) -> Fn:
        """`count(pieces(where, KIND, OWNER))` without making a piece value for each piece: the
        commonest question in rules ("is this hex empty?") asked thousands of times a game."""
        where = compiler.expr(e.args[0], scope)
        kind_fn = compiler.expr(e.args[1], scope) if len(e.args) > 1 else None
        owner_fn = compiler.expr(e.args[2], scope) if len(e.args) > 2 else None

        def count(rt: Any, env: dict[str, Any]) -> int:
            kind = kind_fn(rt, env) if kind_fn else None
            owner = owner_fn(rt, env) if owner_fn else None
            total = 0
            reads = rt.reads
            for loc in locations(where(rt, env)):
                if reads is not None:
                    reads.add(loc if kind is None else (loc, kind))
                pile = rt.locs[loc]
                if kind is None and owner_fn is None:
                    total += len(pile)
                    continue
                for pc in pile:
                    if (kind is None or pc[0].name == kind or pc[0].row is kind) and (
                        owner_fn is None or pc[1] is owner
                    ):
                        total += 1
            return total

        return count

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        if len(call.args) != 1:
            return None
        arg = call.args[0]
        if isinstance(arg, ast.Call) and arg.func == "pieces":
            return f"the number of {speaker.pieces_in(arg.args, 'pieces')}"
        if isinstance(arg, ast.Filter):
            where = speaker.cond(arg.cond)
            return f"the number of {speaker.var(arg.var)} in {speaker.expr(arg.seq)} where {where}"
        if speaker.typed(arg) == LOC:
            return f"the number of pieces in {words[0]}"
        if isinstance(speaker.typed(arg), ListOf):
            return f"the number of items in {words[0]}"
        return f"the number of {words[0]}"


@register
class Sum(Builtin):
    name = "sum"
    takes = (ListOf(),)
    fewest, most = 1, 1
    pure = True
    usage = "`sum(list)`"
    value = "the sum of a list of numbers"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return INT

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)

        def total(rt: Any, env: dict[str, Any]) -> int:
            # Each partial sum within the limits, as `+` and the native engine's sum check them:
            # a sum that passes the largest number on its way fails even if it comes back.
            out = 0
            for n in a0(rt, env):
                out += n
                if not -MAX_NUMBER <= out <= MAX_NUMBER:
                    raise too_big()
            return out

        return total

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        if len(call.args) != 1:
            return None
        total = speaker.total(call.args[0])
        return total if total is not None else f"the total of {words[0]}"


class _Extreme(Builtin):
    """`min` and `max`: of one list, or of their arguments."""

    fewest, most = 1, MANY
    pure = True
    pick: ClassVar[Callable[..., Any]]
    one: ClassVar[str]  # "smallest": of a list
    two: ClassVar[str]  # "smaller": of two

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        if len(types) == 1 and types[0] is not ANY and not isinstance(types[0], ListOf):
            analyzer.error(
                call.args[0],
                codes.WRONG_TYPE,
                f"{self.name} of one argument is of a list of numbers, not {types[0].readable()}: "
                f"write {self.name}(a, b) for two numbers",
            )
        return INT

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        args = _args(compiler, call, scope)
        pick, empty = type(self).pick, f"{self.name} of an empty list: there is no {self.one} number"

        def extreme(given: Sequence[int]) -> int:
            # The rule's error in the designer's words, located at its statement as Python's own
            # errors are (runtime.describe); the native core says the same words.
            if not given:
                raise ValueError(empty)
            return pick(given)

        if len(args) == 1:
            a0 = args[0]
            return lambda rt, env: extreme(a0(rt, env))
        return lambda rt, env: pick(a(rt, env) for a in args)

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        args = call.args
        if len(args) == 1 and isinstance(args[0], ast.MapComp):
            m = args[0]
            each = f"for any {speaker.var(m.var)} in {speaker.source(m)}"
            return f"the {self.one} {speaker.expr(m.expr)} {each}"
        if len(args) == 1:
            return f"the {self.one} of {words[0]}"
        if len(args) == 2:
            return f"the {self.two} of {words[0]} and {words[1]}"
        return f"the {self.one} of {speaker.listing(words)}"


@register
class Min(_Extreme):
    name = "min"
    pick = min
    one, two = "smallest", "smaller"
    usage = "`min(list)`, `min(a, b, ...)`"
    value = "the smallest"


@register
class Max(_Extreme):
    name = "max"
    pick = max
    one, two = "largest", "larger"
    usage = "`max(list)`, `max(a, b, ...)`"
    value = "the largest"


class _Test(Builtin):
    """`any` and `all` of a list of truths."""

    fewest, most = 1, 1
    pure = True
    test: ClassVar[Callable[..., bool]]
    some: ClassVar[str]  # "some": for some x in S
    plain: ClassVar[str]  # "any of L holds"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return BOOL

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        test = type(self).test
        if isinstance(call.args[0], ast.MapComp):  # stop at the first answer, as a player would
            items = compiler.lazy_map(call.args[0], scope)
            return lambda rt, env: test(items(rt, env))
        a0 = compiler.expr(call.args[0], scope)
        return lambda rt, env: test(a0(rt, env))

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        if len(call.args) != 1:
            return None
        m = call.args[0]
        if isinstance(m, ast.MapComp):
            return f"{speaker.cond(m.expr)} for {self.some} {speaker.var(m.var)} in {speaker.source(m)}"
        return self.plain.format(words[0])

    def players(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        """Players hear the bound element by its noun ("some zone where ..."), the list it is taken
        from being said once, by the binding (codegen/players.py)."""
        m = call.args[0] if len(call.args) == 1 else None
        if isinstance(m, ast.MapComp):
            noun = speaker.var(m.var).removeprefix("the ")
            where = f" where {speaker.cond(m.cond)}" if m.cond is not None else ""
            return f"{speaker.cond(m.expr)} for {self.some} {noun}{where}"
        return self.english(speaker, call, words)


@register
class AnyTrue(_Test):
    name = "any"
    takes = (ListOf(),)
    test = any
    some, plain = "some", "any of {} holds"
    usage = "`any(list)`"
    value = "some element is true"


@register
class AllTrue(_Test):
    name = "all"
    takes = (ListOf(),)
    test = all
    some, plain = "every", "all of {} hold"
    usage = "`all(list)`"
    value = "every element is true"


@register
class Abs(Builtin):
    name = "abs"
    takes = (INT,)
    fewest, most = 1, 1
    pure = True
    usage = "`abs(n)`"
    value = "the number without its sign"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return INT

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)
        return lambda rt, env: abs(a0(rt, env))

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the absolute value of {words[0]}" if len(words) == 1 else None


# ====================================================================== pieces


@register
class Flat(Builtin):
    name = "flat"
    fewest, most = 1, 1
    pure = True
    usage = "`flat(lists)`"
    value = "a list of lists joined into one list, in order"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        given = types[0]
        if given not in (ANY, ListOf(ANY)) and not isinstance(element(given), ListOf):
            analyzer.error(
                call.args[0], codes.WRONG_TYPE, f"flat joins a list of lists, not {given.readable()}"
            )
        return element(given) if isinstance(element(given), ListOf) else ListOf(ANY)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)

        def flat(rt: Any, env: dict[str, Any]) -> list[Any]:
            out: list[Any] = []
            for part in a0(rt, env):
                if not isinstance(part, list):  # stops its statement, as on the native engine
                    raise ValueError(f"flat joins lists, and one of these is {a_kind(part)}")
                out += part
            return out

        return flat

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"{words[0]}, joined into one list"


@register
class Pieces(Builtin):
    name = "pieces"
    takes = (LOC,)
    fewest, most = 1, 3
    reads_pieces = True
    usage = "`pieces(where)`, `pieces(where, KIND)`, `pieces(where, KIND, OWNER)`"
    value = (
        "the pieces in a location or a list of locations, bottom first; only of KIND (a kind of piece, "
        "or a row of the table its pieces are made from: `pieces(area, large)`); only owned by "
        "OWNER (`none`: owned by nobody)"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        args = call.args
        if len(args) > 1 and not isinstance(types[1], RowType):
            analyzer.expect(args[1], types[1], KIND, "pieces' second argument (a kind of piece, or a row)")
        if len(args) > 2:
            analyzer.expect(args[2], types[2], PLAYER, "pieces' third argument (an owner)")
        if len(args) > 1 and isinstance(args[1], ast.Name):
            return ListOf(Piece(args[1].id))
        return ListOf(Piece())

    def reads_any_kind(self, call: ast.Call) -> bool:
        return len(call.args) == 1  # `pieces(z, KIND)` names the kind it sees

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        args = _args(compiler, call, scope)
        a0 = args[0]
        kind_fn = args[1] if len(args) > 1 else None
        owner_fn = args[2] if len(args) > 2 else None

        def pieces(rt: Any, env: dict[str, Any]) -> list[PieceRef]:
            kind = kind_fn(rt, env) if kind_fn else None
            owner = owner_fn(rt, env) if owner_fn else None
            out = []
            reads = rt.reads
            for loc in locations(a0(rt, env)):
                if reads is not None:
                    reads.add(loc if kind is None else (loc, kind))
                for pc in rt.locs[loc]:
                    if (kind is None or pc[0].name == kind or pc[0].row is kind) and (
                        owner_fn is None or pc[1] is owner
                    ):
                        out.append(PieceRef(loc, pc))
            return out

        return pieces

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the {speaker.pieces_in(call.args, 'pieces')}"


@register
class BottomOf(Builtin):
    name = "bottom"
    fewest, most = 1, 1
    pure = True  # it names a place; it reads nothing
    usage = "`bottom(where)`"
    value = (
        "the bottom of a place, as the destination of `move` and `draw`: the pieces go under the "
        "ones already there (`move t to bottom(deck)`); nothing else takes it"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        analyzer.expect(call.args[0], types[0], LOC, "bottom's argument (a place)")
        if id(call) not in analyzer.destinations:
            analyzer.error(
                call,
                codes.WRONG_TYPE,
                "bottom(...) is where pieces go: only 'move ... to' and 'draw ... to' take it",
            )
        return BOTTOM

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        where = compiler.expr(call.args[0], scope)
        return lambda rt, env: Bottom(where(rt, env))

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the bottom of {words[0]}"


# ====================================================================== maps


def _next_to(rt: Any, place: Any, adjacency: dict[Row, list[Row]]) -> Sequence[Any]:
    """The places next to a place: a grid cell's neighbours across its sides, as the game stands,
    or a map node's along its edges (`adjacency`, the map's or maps' the caller walks)."""
    if type(place) is Cell:
        return grids.neighbours(grids.grid_of(rt, place.map), place)
    return adjacency.get(place, ())


@register
class Neighbours(Builtin):
    name = "neighbours"
    fewest, most = 1, 2
    steady = True
    walks_graph = True
    usage = "`neighbours(node)`, `neighbours(node, MAP)`"
    value = "the nodes next to a map node (name the map when several maps are built on one table)"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        tables = [m.nodes for m in analyzer.sym.maps.values()]
        node = types[0].table if isinstance(types[0], RowType) else ""
        if len(call.args) == 1 and tables.count(node) > 1:
            analyzer.error(
                call,
                codes.WRONG_ARGUMENT_COUNT,
                f"several maps are built on '{node}': say which, neighbours(node, map)",
            )
        if types[0] not in (ANY, LOC) and not isinstance(types[0], RowType | CellType):
            analyzer.error(
                call.args[0],
                codes.WRONG_TYPE,
                "neighbours are those of a node of a table map or a cell of a grid",
            )
        return ListOf(types[0]) if isinstance(types[0], RowType | CellType) else ListOf(ANY)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)
        adjacency = compiler.adjacency_for(call, call.args[-1])

        return lambda rt, env: list(_next_to(rt, a0(rt, env), adjacency))

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        if len(words) == 1:
            return f"the neighbours of {words[0]}"
        if len(words) == 2:
            return f"the neighbours of {words[0]} on {words[1]}"
        return None


class _Regions(Builtin):
    """`region` and `regions`: nodes joined by edges whose attribute (the second argument, a name)
    is the same: the rows of a table map joined by its edges, or the cells of a grid map joined
    by the grid's sides (they once gave each cell a region of its own)."""

    fewest, most = 2, 2
    errors_at_call = True
    names_attribute = True
    walks_graph = True
    many: ClassVar[bool]  # regions: of a list of nodes, every region

    def arg_types(self, analyzer: Analyzer, call: ast.Call, scope: dict[str, Type]) -> list[Type]:
        return [analyzer.expr(call.args[0], scope)]  # the second names an attribute

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        node_type = element(types[0]) if self.many else types[0]
        attr = call.args[1]
        if not isinstance(attr, ast.Name):
            analyzer.error(
                attr, codes.WRONG_TYPE, f"{self.name}'s second argument names the attribute that must match"
            )
        elif isinstance(node_type, RowType | CellType):
            analyzer.attr_type(node_type, attr.id, attr)
        elif node_type != ANY:
            analyzer.error(
                call.args[0],
                codes.WRONG_TYPE,
                f"{self.name}'s first argument is a node of a table map or a cell of a grid map",
            )
        place = node_type if isinstance(node_type, RowType | CellType) else ANY
        return ListOf(ListOf(place)) if self.many else ListOf(place)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        first = compiler.expr(call.args[0], scope)
        attr_name = call.args[1].id if isinstance(call.args[1], ast.Name) else ""
        key = compiler.attr(lambda rt, env: env["node"], attr_name, call.span)
        adjacency = compiler.adjacency_for(call, call.args[0])

        def component(rt: Any, start: Any, seen: set[Any]) -> list[Any]:
            want = key(rt, {"node": start})
            out, todo = [start], [start]
            seen.add(start)
            while todo:
                for nb in _next_to(rt, todo.pop(), adjacency):
                    if nb not in seen and key(rt, {"node": nb}) == want:
                        seen.add(nb)
                        out.append(nb)
                        todo.append(nb)
            return out

        if not self.many:
            return lambda rt, env: component(rt, first(rt, env), set())

        def regions(rt: Any, env: dict[str, Any]) -> list[list[Any]]:
            seen: set[Any] = set()
            return [component(rt, n, seen) for n in first(rt, env) if n not in seen]

        return regions


@register
class Region(_Regions):
    name = "region"
    many = False
    usage = "`region(node, ATTR)`"
    value = "the connected nodes with the same ATTR ([maps](#maps))"

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the region around {words[0]} with the same {speaker.named(call.args[1])}"


@register
class Regions(_Regions):
    name = "regions"
    many = True
    usage = "`regions(nodes, ATTR)`"
    value = "the list of such regions"

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the regions of {words[0]} with one {speaker.named(call.args[1])} each"


class _Areas(Builtin):
    """`area` and `areas`: connected places sharing an attribute, as values (interpreter/areas.py).
    On a grid the attribute is a column of the rows laid on its cells, and the areas are kept
    until the grid changes; on a map it may be anything a node has, and they are found anew."""

    fewest, most = 2, 2
    errors_at_call = True
    names_attribute = True
    walks_graph = True
    many: ClassVar[bool]  # areas: all of a grid's, or of a list of nodes
    first: ClassVar[str]  # what its first argument is, in the words of its errors

    def arg_types(self, analyzer: Analyzer, call: ast.Call, scope: dict[str, Type]) -> list[Type]:
        return [analyzer.expr(call.args[0], scope)]  # the second names an attribute

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        given, attr = types[0], call.args[1]
        place: Type | None
        if self.many and isinstance(given, Grid):
            place = CellType(given.name)
        elif self.many:
            place = (
                given.element if isinstance(given, ListOf) and isinstance(given.element, RowType) else None
            )
            place = ANY if given == ANY else place
        else:
            # A piece's location is some place: a cell, at run time, or it is refused there.
            place = given if isinstance(given, RowType | CellType) else ANY if given in (ANY, LOC) else None
        if place is None:
            analyzer.error(call.args[0], codes.WRONG_TYPE, f"{self.name}'s first argument is {self.first}")
            place = ANY
        if not isinstance(attr, ast.Name):
            analyzer.error(
                attr, codes.WRONG_TYPE, f"{self.name}'s second argument names the attribute that joins places"
            )
        elif isinstance(place, CellType):
            grid = analyzer.sym.maps.get(place.grid)
            faces = analyzer.sym.tables.get(grid.faces or "") if grid is not None else None
            if faces is not None and not any(c.name == attr.id for c in faces.columns):
                analyzer.error(
                    attr,
                    codes.WRONG_TYPE,
                    f"areas of a grid join cells by a column of '{faces.name}', and it has no '{attr.id}'",
                    analyzer._suggest(attr.id, [c.name for c in faces.columns]),
                )
        elif isinstance(place, RowType):
            analyzer.attr_type(place, attr.id, attr)
        return ListOf(AreaType(place)) if self.many else AreaType(place)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        first = compiler.expr(call.args[0], scope)
        column = call.args[1].id if isinstance(call.args[1], ast.Name) else ""
        key_of = compiler.attr(lambda rt, env: env["node"], column, call.span)
        adjacency = compiler.adjacency_for(call, call.args[0])
        many, span, rule = self.many, call.span, compiler.rule
        refused = f"{self.name}'s first argument is {self.first}, not "

        def labelling(rt: Any, given: Any) -> areas.Labelling:
            if type(given) is MapRef:
                return areas.of_grid(rt, given, column)
            if type(given) is Cell:
                return areas.of_grid(rt, given.map, column)
            if not isinstance(given, list | Row):
                raise RuleRuntimeError(refused + a_kind(given), span, rule)
            nodes = given if isinstance(given, list) else list(adjacency)
            if any(type(n) is Cell for n in nodes):
                raise RuleRuntimeError(
                    "the areas of a grid are those of the grid: areas(GRID, ATTR)", span, rule
                )
            return areas.of_nodes(nodes, lambda n: key_of(rt, {"node": n}), adjacency)

        def find(rt: Any, env: dict[str, Any]) -> Any:
            given = first(rt, env)
            found = labelling(rt, given)
            if many:
                return list(found.areas)
            area = found.of.get(given)
            if area is None:
                raise RuleRuntimeError(f"that {type_name(given)} is not a place of this map", span, rule)
            return area

        return find


@register
class AreaOf(_Areas):
    name = "area"
    many = False
    first = "a cell of a grid or a map node"
    usage = "`area(place, ATTR)`"
    value = (
        "the area holding a cell or a map node: the places joined to it with the same ATTR ([areas](#areas))"
    )

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the area of {speaker.named(call.args[1])} around {words[0]}"


@register
class AreasOf(_Areas):
    name = "areas"
    many = True
    first = "a grid map or a list of a map's nodes"
    usage = "`areas(GRID or nodes, ATTR)`"
    value = "every such area of a grid, or of some nodes of a map, in the order of their first places"

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the areas of one {speaker.named(call.args[1])} each on {words[0]}"


class _Beside(Builtin):
    """`next_to` and `corner_to`: the graph between areas, asked of the areas as the game stands
    (an area found before the grid changed, and gone since, is an error, not a stale answer)."""

    fewest, most = 1, 1
    errors_at_call = True
    corner: ClassVar[bool]

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        if types[0] != ANY and not isinstance(types[0], AreaType):
            analyzer.error(
                call.args[0], codes.WRONG_TYPE, f"{self.name} is asked of an area (from area() or areas())"
            )
        return ListOf(types[0]) if isinstance(types[0], AreaType) else ListOf(ANY)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0, corner, span, rule = compiler.expr(call.args[0], scope), self.corner, call.span, compiler.rule

        def beside(rt: Any, env: dict[str, Any]) -> list[Area]:
            area = a0(rt, env)
            if type(area) is not Area:
                raise RuleRuntimeError(f"{self.name} is asked of an area, not {a_kind(area)}", span, rule)
            now = area.labelling.again(rt)
            if not now.holds(area):
                raise RuleRuntimeError(
                    f"the area {area} has changed since it was found: find it again", span, rule
                )
            return now.corner_to(area) if corner else now.next_to(area)

        return beside


@register
class NextTo(_Beside):
    name = "next_to"
    corner = False
    usage = "`next_to(area)`"
    value = "the areas with a place sharing a side with one of its places"

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the areas next to {words[0]}"


@register
class CornerTo(_Beside):
    name = "corner_to"
    corner = True
    usage = "`corner_to(area)`"
    value = "the areas meeting it at a corner of a square grid and nowhere along a side"

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the areas touching {words[0]} only at a corner"


# ====================================================================== players


@register
class PlayersFrom(Builtin):
    name = "players_from"
    takes = (PLAYER,)
    fewest, most = 1, 1
    steady = True  # the seating
    usage = "`players_from(p)`"
    value = "all players in seat order, starting with p and going round"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return ListOf(PLAYER)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)

        def players_from(rt: Any, env: dict[str, Any]) -> list[Player]:
            seat = a0(rt, env).seat
            return rt.players[seat:] + rt.players[:seat]

        return players_from

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the players, starting with {words[0]}"


@register
class NextPlayer(Builtin):
    name = "next_player"
    takes = (PLAYER,)
    fewest, most = 1, 1
    steady = True  # the seating
    usage = "`next_player(p)`"
    value = "the player after p in seat order, round the table"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return PLAYER

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)
        return lambda rt, env: rt.players[(a0(rt, env).seat + 1) % len(rt.players)]

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the player after {words[0]}"


# ---------------------------------------------------------------- seats the rules play, and teams
# (interpreter/seats.py, interpreter/teams.py)


@register
class Automated(Builtin):
    name = "automated"
    takes = (PLAYER,)
    fewest, most = 1, 1
    steady = True  # the seating
    usage = "`automated(p)`"
    value = "yes if p is a seat the rules play (`automated`), no for a player"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return BOOL

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)
        return lambda rt, env: a0(rt, env).automated

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"{words[0]} is played by the rules"


@register
class Team(Builtin):
    name = "team"
    takes = (PLAYER,)
    fewest, most = 1, 1
    steady = True  # the teams, chosen when the game starts
    usage = "`team(p)`"
    value = "p's team: its players in seat order, p among them (p alone when the game is not played in teams)"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return ListOf(PLAYER)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)
        return lambda rt, env: list(rt.team_of[a0(rt, env)])

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the team of {words[0]}"


@register
class Teammates(Builtin):
    name = "teammates"
    takes = (PLAYER,)
    fewest, most = 1, 1
    steady = True  # the teams, chosen when the game starts
    usage = "`teammates(p)`"
    value = "the other players of p's team, in seat order (none when p plays alone)"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return ListOf(PLAYER)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)

        def teammates(rt: Any, env: dict[str, Any]) -> list[Player]:
            p = a0(rt, env)
            return [q for q in rt.team_of[p] if q is not p]

        return teammates

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the teammates of {words[0]}"


# ====================================================================== grid maps


@register
class Cells(Builtin):
    name = "cells"
    takes = (Grid(),)
    fewest, most = 1, 1
    usage = "`cells(GRID)`"
    value = "the cells of a grid map, in the order they were placed (a board's in reading order)"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return ListOf(CellType(grid)) if (grid := _grid_map(types)) else ListOf(ANY)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)
        return lambda rt, env: list(grids.grid_of(rt, a0(rt, env)).values())


@register
class CellAt(Builtin):
    name = "cell"
    takes = (Grid(), INT, INT)
    fewest, most = 3, 3
    usage = "`cell(GRID, q, r)`"
    value = "the cell at (q, r), or `none`"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return CellType(grid) if (grid := _grid_map(types)) else ANY

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0, q_fn, r_fn = _args(compiler, call, scope)
        return lambda rt, env: grids.grid_of(rt, a0(rt, env)).get((q_fn(rt, env), r_fn(rt, env)))


@register
class Distance(Builtin):
    name = "distance"
    takes = (CellType(), CellType())
    fewest, most = 2, 2
    usage = "`distance(a, b)`"
    value = "the number of steps from side to side between two cells of a grid"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return INT

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0, a1 = _args(compiler, call, scope)
        return lambda rt, env: grids.distance(a0(rt, env), a1(rt, env))


def _grid_map(types: list[Type]) -> str:
    """The map a `Grid(NAME)` type names, or "" when it is not known."""
    return types[0].name if types and isinstance(types[0], Grid) else ""


@register
class Placements(Builtin):
    name = "placements"
    takes = (Grid(), ListOf())
    fewest, most = 2, 2
    errors_at_call = True
    usage = "`placements(GRID, SHAPE)`"
    value = "every distinct way to lay SHAPE on GRID ([grids](#grid-maps))"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        if analyzer.is_board(types[0]):
            analyzer.error(
                call.args[0],
                codes.WRONG_TYPE,
                "placements are found on a grid that grows: a board has all its cells",
            )
        return ListOf(PlacementType(_grid_map(types)))

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        lazy = self.compile_options(compiler, call, scope)
        return lambda rt, env: list(lazy(rt, env))

    def compile_options(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0, shape = _args(compiler, call, scope)
        span, rule = call.span, compiler.rule

        def placements(rt: Any, env: dict[str, Any]) -> Sequence[Placement]:
            mapref, rows = a0(rt, env), shape(rt, env)
            local = [(row.values["q"], row.values["r"]) for row in rows]
            try:
                return grids.placements(grids.grid_of(rt, mapref), mapref, rows, local)
            except grids.ShapeError as err:
                raise RuleRuntimeError(str(err), span, rule) from None

        return placements


@register
class PlacementOf(Builtin):
    name = "placement"
    takes = (Grid(), ListOf(), INT, INT, INT)
    fewest, most = 5, 5
    errors_at_call = True
    usage = "`placement(GRID, SHAPE, q, r, turns)`"
    value = (
        "one placement: SHAPE turned `turns` times, its first cell at (q, r), or on a grid of "
        "blocks in the block at (q, r) (for setups and examples)"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return PlacementType(_grid_map(types))

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0, shape, q_fn, r_fn, turns_fn = _args(compiler, call, scope)
        span, rule = call.span, compiler.rule

        def placement(rt: Any, env: dict[str, Any]) -> Placement:
            rows = list(shape(rt, env))
            mapref, q, r, turns = a0(rt, env), q_fn(rt, env), r_fn(rt, env), turns_fn(rt, env)
            for number in (q, r, turns):
                if type(number) is not int:
                    refused = f"{self.name}'s x, y and turns are numbers, not {a_kind(number)}"
                    raise RuleRuntimeError(refused, span, rule)
            try:
                return grids.placement_at(mapref, rows, q, r, turns)
            except grids.ShapeError as err:
                raise RuleRuntimeError(str(err), span, rule) from None

        return placement


@register
class Borders(Builtin):
    name = "borders"
    fewest, most = 1, 1
    usage = "`borders(PLACEMENT)`"
    value = (
        "the sides a placement would share with cells already there: each a border, whose `new` is "
        "the row the shape puts on one side and `old` the cell on the other (edge matching)"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        if types[0] != ANY and not isinstance(types[0], PlacementType):
            analyzer.error(
                call.args[0], codes.WRONG_TYPE, "borders are those of a placement (from placements(...))"
            )
        return ListOf(BorderType(types[0].grid if isinstance(types[0], PlacementType) else ""))

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)

        def borders(rt: Any, env: dict[str, Any]) -> list[Border]:
            spot = a0(rt, env)
            return grids.borders(grids.grid_of(rt, spot.map), spot)

        return borders

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the sides {words[0]} would share with the cells beside it"


@register
class Corners(Builtin):
    name = "corners"
    fewest, most = 1, 1
    usage = "`corners(cell)`"
    value = "the cells meeting a cell of a square grid at a corner only"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        cell = types[0]
        grid = analyzer.sym.maps.get(cell.grid) if isinstance(cell, CellType) else None
        if cell != ANY and (grid is None or grid.grid != "square"):
            analyzer.error(call.args[0], codes.WRONG_TYPE, "corners are those of a cell of a square grid")
        return ListOf(cell) if isinstance(cell, CellType) else ListOf(ANY)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)

        def corners(rt: Any, env: dict[str, Any]) -> list[Cell]:
            cell = a0(rt, env)
            return grids.corners(grids.grid_of(rt, cell.map), cell)

        return corners

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the cells at the corners of {words[0]}"


def _side_word(call: ast.Call) -> str:
    """The side `side(GRID, "north")` names: written out, so the checker knows it."""
    word = call.args[1]
    return word.value if isinstance(word, ast.Text) else ""


@register
class InARow(Builtin):
    name = "in_a_row"
    takes = (ListOf(), INT)
    fewest, most = 2, 2
    usage = "`in_a_row(CELLS, n)`"
    value = (
        "whether n of the cells lie in a straight line, each next to the one before: along a side, "
        "or on a square grid a diagonal too"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        if types[0] not in (ANY, ListOf(ANY)) and not isinstance(element(types[0]), CellType):
            analyzer.error(call.args[0], codes.WRONG_TYPE, "in_a_row counts cells of a grid in a line")
        return BOOL

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0, a1 = _args(compiler, call, scope)
        return lambda rt, env: grids.in_a_row(a0(rt, env), a1(rt, env))

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"{words[1]} of {words[0]} in a row"


@register
class Side(Builtin):
    name = "side"
    takes = (Grid(), TEXT)
    fewest, most = 2, 2
    usage = '`side(GRID, "north")`'
    value = (
        'the cells along one side of a grid: `"north"`, `"east"`, `"south"` or `"west"`; on hexes '
        '`"east"`, `"west"`, `"north"`, `"south"` and the four between (`"north-east"`...) '
        "([boards](#boards-given-by-size))"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        grid = analyzer.sym.maps.get(_grid_map(types))
        kinds = [grid.grid] if grid is not None and grid.grid else list(grids.SIDES)
        known = sorted({w for k in kinds for w in grids.SIDES[k]})
        word = _side_word(call)
        if not any(word in grids.SIDES[k] for k in kinds):
            where = f"a {kinds[0]} grid" if len(kinds) == 1 else "a grid"
            analyzer.error(
                call.args[1],
                codes.WRONG_TYPE,
                f"the sides of {where} are written out: {', '.join(repr(w) for w in known)}",
                analyzer._suggest(word, known),
            )
        return ListOf(CellType(grid.name)) if grid is not None else ListOf(ANY)

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0 = compiler.expr(call.args[0], scope)
        word = _side_word(call)

        def side(rt: Any, env: dict[str, Any]) -> list[Cell]:
            mapref = a0(rt, env)
            grid = grids.grid_of(rt, mapref)
            found = rt.sides.get((mapref, word))
            if found is None:  # kept until the grid changes: a board's, for the whole game
                found = rt.sides[(mapref, word)] = grids.side(grid, mapref.geometry, word)
            return found

        return side

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the cells along the {_side_word(call)} side of {words[0]}"


@register
class Connected(Builtin):
    name = "connected"
    takes = (ListOf(), ListOf(), ListOf())
    fewest, most = 3, 3
    walks_graph = True
    usage = "`connected(PLACES, FROM, TO)`"
    value = (
        "whether a chain of PLACES, each next to the one before (sharing a side, or an edge of a "
        "map), runs from one of FROM to one of TO: connecting one side of a board to the other"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        for arg, t in zip(call.args, types, strict=True):
            if t not in (ANY, ListOf(ANY)) and not isinstance(element(t), CellType | RowType):
                analyzer.error(arg, codes.WRONG_TYPE, "connected joins cells of a grid or nodes of a map")
        return BOOL

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        places, starts, ends = _args(compiler, call, scope)
        adjacency = compiler.adjacency_for(call, call.args[0])

        def connected(rt: Any, env: dict[str, Any]) -> bool:
            chain = places(rt, env)
            inside = set(chain)
            goal = set(ends(rt, env)) & inside
            todo = [p for p in starts(rt, env) if p in inside]
            seen = set(todo)
            while todo:
                place = todo.pop()
                if place in goal:
                    return True
                for nb in _next_to(rt, place, adjacency):
                    if nb in inside and nb not in seen:
                        seen.add(nb)
                        todo.append(nb)
            return False

        return connected

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"a chain of {words[0]} joins {words[1]} to {words[2]}"


@register
class BlockAt(Builtin):
    name = "block"
    takes = (Grid(), INT, INT)
    fewest, most = 3, 3
    usage = "`block(GRID, x, y)`"
    value = "the top layer laid on the block at (x, y) (on a grid without blocks, the cell), or `none`"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return PlacementType(_grid_map(types))

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        a0, x_fn, y_fn = _args(compiler, call, scope)

        def block(rt: Any, env: dict[str, Any]) -> Placement | None:
            mapref = a0(rt, env)
            grid, k = grids.grid_of(rt, mapref), mapref.geometry.block
            x, y = x_fn(rt, env), y_fn(rt, env)
            for q in range(x * k, x * k + k):
                for r in range(y * k, y * k + k):
                    cell = grid.get((q, r))
                    if cell is not None:
                        return rt.layers[cell][-1]
            return None

        return block

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the shape on top at ({words[1]}, {words[2]}) of {words[0]}"


@register
class AsIfLaid(Builtin):
    name = "as_if_laid"
    takes = (PlacementType(),)
    fewest, most = 2, 2
    errors_at_call = True
    usage = "`as_if_laid(PLACEMENT, x)`"
    value = (
        "what x would be were the placement laid (over what is there, where its cells are): "
        "nothing is laid ([layers](#layers))"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        if types[0] != ANY and not isinstance(types[0], PlacementType):
            analyzer.error(
                call.args[0], codes.WRONG_TYPE, "as_if_laid supposes a placement (from placements(...))"
            )
        return types[1]

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        spot_fn, then = _args(compiler, call, scope)
        span, rule = call.span, compiler.rule

        def as_if_laid(rt: Any, env: dict[str, Any]) -> Any:
            spot = spot_fn(rt, env)
            if not isinstance(spot, Placement):
                raise RuleRuntimeError(f"as_if_laid supposes a placement, not {a_kind(spot)}", span, rule)
            try:
                with layers.supposing(rt, spot):
                    return then(rt, env)
            except grids.ShapeError as err:
                raise RuleRuntimeError(str(err), span, rule) from None

        return as_if_laid

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"{words[1]}, were {words[0]} laid"


@register
class AsIfMoved(Builtin):
    """A look-ahead: a question about the position some moves would make ("would this Event make
    me win?"), asked of the rules' own values, without making the moves."""

    name = "as_if_moved"
    fewest, most = 3, 3
    errors_at_call = True
    reads_pieces = True
    usage = "`as_if_moved(PIECES, PLACE, x)`"
    value = (
        "what x would be were the pieces (a list from `pieces(...)`, or one) moved to PLACE: "
        "nothing moves, and no trigger runs ([look-ahead](#look-ahead))"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        return types[2]

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        what, dest, then = _args(compiler, call, scope)
        span, rule = call.span, compiler.rule

        def as_if_moved(rt: Any, env: dict[str, Any]) -> Any:
            refs, to = what(rt, env), dest(rt, env)
            refs = refs if isinstance(refs, list) else [refs]
            for ref in refs:
                if not isinstance(ref, PieceRef):
                    raise RuleRuntimeError(f"only pieces can move, not {a_kind(ref)}", span, rule)
            if isinstance(to, (list, bool)) or to not in rt.locs:
                raise RuleRuntimeError(f"as_if_moved moves pieces to one place, not {a_kind(to)}", span, rule)
            try:
                layers.check_there(rt, refs)
            except layers.NotThere as err:
                raise RuleRuntimeError(f"as_if_moved: {err}", span, rule) from None
            with layers.supposing_moved(rt, refs, to):
                return then(rt, env)

        return as_if_moved

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"{words[2]}, were {words[0]} moved to {words[1]}"


@register
class Routes(Builtin):
    """Where a movement can go from a place. One step goes where the movement's `step` line says,
    or else along the start's own map: a grid's sides, a table map's edges (the adjacency
    `neighbours` walks)."""

    name = "routes"
    fewest, most = 2, MANY
    errors_at_call = True
    walks_graph = True
    usage = "`routes(START, MOVEMENT, args...)`"
    value = (
        "the distinct routes a movement allows from START: a cell, a node of a table map, or any "
        "place its `step` line takes ([movements](#movements))"
    )

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        movements = analyzer.sym.movements
        movement = call.args[1]
        decl = None
        if not (isinstance(movement, ast.Name) and movement.id in movements):
            analyzer.error(
                movement,
                codes.UNKNOWN_NAME,
                "routes' second argument names a movement",
                analyzer._suggest(getattr(movement, "id", ""), movements),
            )
        else:
            analyzer.used.add(movement.id)
            decl = movements[movement.id]
            wanted = len(decl.params)
            if len(call.args) - 2 != wanted:
                analyzer.error(
                    call,
                    codes.WRONG_ARGUMENT_COUNT,
                    f"movement '{movement.id}' takes {wanted} argument(s) after it, not {len(call.args) - 2}",
                )
        start = types[0]
        if decl is not None:
            analyzer.route_starts.setdefault(decl.name, set()).add(start)
        nodes = {m.nodes for m in analyzer.sym.maps.values() if m.grid is None}
        on_node = isinstance(start, RowType) and start.table in nodes
        if isinstance(start, ListOf):
            analyzer.error(call.args[0], codes.WRONG_TYPE, "a route starts on one place, not on a list")
        elif decl is not None and decl.step is not None:
            pass  # the `step` line says where a step goes from anything (checked with it)
        elif start != ANY and not isinstance(start, CellType) and not on_node:
            analyzer.error(
                call.args[0],
                codes.WRONG_TYPE,
                "a route starts on a cell of a grid map or a node of a table map",
                "elsewhere, say where one step goes: a line 'step NAME to PLACES' in the movement",
            )
        elif on_node and decl is not None and decl.straight is not None:
            analyzer.error(
                call.args[0],
                codes.WRONG_TYPE,
                "a straight line follows a grid's directions: the edges of a table map have none",
            )
        return ListOf(RouteType() if start == ANY or isinstance(start, ListOf) else RouteType(start))

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        """The distinct routes the movement allows from start."""
        start_fn = compiler.expr(call.args[0], scope)
        movement = call.args[1].id if isinstance(call.args[1], ast.Name) else ""
        extra = [compiler.expr(a, scope) for a in call.args[2:]]
        movements, span, rule = compiler.p.movements, call.span, compiler.rule
        adjacency = compiler.adjacency_for(call, call.args[0])

        def routes(rt: Any, env: dict[str, Any]) -> list[Route]:
            start = start_fn(rt, env)
            mv = movements[movement]
            inner = dict(zip(mv.params, [a(rt, env) for a in extra], strict=True))
            inner["start"] = start
            steps = mv.steps(rt, inner)
            steps = steps if isinstance(steps, list) else [steps]
            straight = bool(mv.straight(rt, inner)) if mv.straight else False
            backtracks = bool(mv.backtracks(rt, inner)) if mv.backtracks else False
            next_places = _next_places(rt, inner, mv, movement, start, straight, adjacency, span, rule)
            may_pass, may_end = _conditions(rt, inner, mv)

            def occupied(place: Any) -> bool:
                if rt.reads is not None:
                    rt.reads.add(place)
                return bool(rt.locs.get(place))

            return grids.routes(start, steps, straight, backtracks, next_places, may_pass, may_end, occupied)

        return routes


@register
class FewestSteps(Builtin):
    """How far a movement has to go: the length of its shortest route to any of the places wanted,
    however long (the graph is the game's, so the search ends). It answers "the closest" as the
    rules count closeness, by their own movement and its conditions, where `min` of `routes`
    would only see as far as the movement's `steps` allow."""

    name = "fewest_steps"
    fewest, most = 3, MANY
    errors_at_call = True
    walks_graph = True
    usage = "`fewest_steps(START, PLACES, MOVEMENT, args...)`"
    value = (
        "the fewest steps MOVEMENT takes from START to any of PLACES, past places its `through` "
        "allows and to one its `ends` allows, whatever its `steps` line (0 when START is among "
        "them); `none` when none can be reached ([movements](#movements))"
    )

    def arg_types(self, analyzer: Analyzer, call: ast.Call, scope: dict[str, Type]) -> list[Type]:
        """The third argument names a movement, and is not a value: only its name is checked."""
        return [analyzer.expr(a, scope) if i != 2 else ANY for i, a in enumerate(call.args)]

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        movements = analyzer.sym.movements
        movement = call.args[2]
        if not (isinstance(movement, ast.Name) and movement.id in movements):
            analyzer.error(
                movement,
                codes.UNKNOWN_NAME,
                "fewest_steps' third argument names a movement",
                analyzer._suggest(getattr(movement, "id", ""), movements),
            )
            return INT
        analyzer.used.add(movement.id)
        decl = movements[movement.id]
        if len(call.args) - 3 != len(decl.params):
            analyzer.error(
                call,
                codes.WRONG_ARGUMENT_COUNT,
                f"movement '{movement.id}' takes {len(decl.params)} argument(s) after it, "
                f"not {len(call.args) - 3}",
            )
        if decl.straight is not None:
            straight = "fewest_steps counts steps in any direction: a straight movement has one"
            analyzer.error(movement, codes.WRONG_TYPE, straight)
        if types[1] != ANY and not isinstance(types[1], ListOf):
            places = "fewest_steps' second argument is a list of places"
            analyzer.error(call.args[1], codes.WRONG_TYPE, places)
        if isinstance(types[0], ListOf):
            analyzer.error(call.args[0], codes.WRONG_TYPE, "a route starts on one place, not on a list")
        else:
            analyzer.route_starts.setdefault(decl.name, set()).add(types[0])
        return INT

    def compile(self, compiler: Part, call: ast.Call, scope: set[str]) -> Fn:
        start_fn, goals_fn = compiler.expr(call.args[0], scope), compiler.expr(call.args[1], scope)
        movement = call.args[2].id if isinstance(call.args[2], ast.Name) else ""
        extra = [compiler.expr(a, scope) for a in call.args[3:]]
        movements, span, rule = compiler.p.movements, call.span, compiler.rule
        adjacency = compiler.adjacency_for(call, call.args[0])

        def fewest_steps(rt: Any, env: dict[str, Any]) -> int | None:
            start, goals = start_fn(rt, env), goals_fn(rt, env)
            if not isinstance(goals, list):
                raise RuleRuntimeError(
                    f"fewest_steps counts to a list of places, not {a_kind(goals)}", span, rule
                )
            mv = movements[movement]
            inner = dict(zip(mv.params, [a(rt, env) for a in extra], strict=True))
            inner["start"] = start
            next_places = _next_places(rt, inner, mv, movement, start, False, adjacency, span, rule)
            may_pass, may_end = _conditions(rt, inner, mv)
            try:
                wanted = set(goals)
            except TypeError:  # a list among them: a place is one value
                raise RuleRuntimeError(
                    "fewest_steps counts to places, not lists of them", span, rule
                ) from None
            return grids.fewest_steps(start, wanted, next_places, may_pass, may_end)

        return fewest_steps

    def english(self, speaker: Speaker, call: ast.Call, words: list[str]) -> str | None:
        return f"the fewest steps from {words[0]} to any of {words[1]} by {speaker.expr(call.args[2])}"


def _next_places(
    rt: Any,
    inner: dict[str, Any],
    mv: Movement,
    movement: str,
    start: Any,
    straight: bool,
    adjacency: dict[Row, list[Row]],
    span: ast.Span,
    rule: str,
) -> grids.NextPlaces:
    """Where one step of a movement goes from a place: where its `step` line says, else along the
    start's own map (a grid's sides, a table map's edges)."""
    if mv.step is not None:
        if isinstance(start, list):
            raise RuleRuntimeError(f"a route starts on one place, not on {a_kind(start)}", span, rule)
        return _computed_steps(rt, inner, mv, f"movement {movement}")
    if type(start) is Cell:
        grid = grids.grid_of(rt, start.map)
        return grids.grid_steps(grid, start.map.geometry.directions)
    if isinstance(start, Row) and start in adjacency:
        if straight:
            raise RuleRuntimeError(
                "a straight line follows a grid's directions: the edges of a table map have none", span, rule
            )
        return _edges(adjacency)
    raise RuleRuntimeError(
        f"routes start on a grid cell or a node of a table map, not on {a_kind(start)}"
        f" (or movement '{movement}' says where a step goes: 'step NAME to PLACES')",
        span,
        rule,
    )


def _conditions(
    rt: Any, inner: dict[str, Any], mv: Movement
) -> tuple[Callable[[Any], bool], Callable[[Any], bool]]:
    """A movement's `through` and `ends` conditions, as tests of one place each."""
    through, ends = mv.through, mv.ends

    def may_pass(place: Any) -> bool:
        inner[mv.through_var] = place
        return through is None or bool(through(rt, inner))

    def may_end(place: Any) -> bool:
        inner[mv.ends_var] = place
        return ends is None or bool(ends(rt, inner))

    return may_pass, may_end


def _edges(adjacency: dict[Row, list[Row]]) -> grids.NextPlaces:
    """What one step from a node of a table map reaches: the nodes its edges join it to."""
    return lambda node: [(grids.UNDIRECTED, nb) for nb in adjacency[node]]


def _computed_steps(rt: Any, inner: dict[str, Any], mv: Movement, rule: str) -> grids.NextPlaces:
    """What one step reaches by a movement's `step NAME to PLACES` line: the list PLACES gives with
    NAME bound to the place stepped from (its places in its order, each once). What PLACES reads is
    read by whoever asked for the routes (a value remembers it), as the conditions' reads are."""
    step, var = mv.step, mv.step_var
    assert step is not None

    def next_places(place: Any) -> list[tuple[int, Any]]:
        inner[var] = place
        places = step(rt, inner)
        if not isinstance(places, list):
            raise RuleRuntimeError(
                f"a 'step' line lists the places one step reaches, not {a_kind(places)}", mv.step_span, rule
            )
        try:
            once = dict.fromkeys(places)
        except TypeError:  # a list among them: a place is one value, found again by equality
            raise RuleRuntimeError(
                "a 'step' line lists places, not lists of them", mv.step_span, rule
            ) from None
        return [(grids.UNDIRECTED, p) for p in once]

    return next_places
