"""The typed syntax tree of a `.rules` file.

Small, typed nodes in the spirit of sqlglot's expression tree: every node keeps the span it was
parsed from, so that analysis, the engine and the doc generators can all point back at the
author's text. The tree is plain data (pydantic) so that it can be dumped to JSON, diffed by a
variant patch and walked by the doc generators without knowing the parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

N = TypeVar("N", bound="Node")


class Span(BaseModel):
    """Where a node stands in its source file (1-based line and column)."""

    model_config = ConfigDict(frozen=True)
    file: str = "<rules>"
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0


class Node(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    span: Span = Span()

    def fields(self) -> Iterator[tuple[str, Any]]:
        """The node's own fields (not its span) and their values, in declaration order: what every
        walk of the tree reads, so that a node added to the language later is walked without
        anyone listing it."""
        values = self.__dict__
        for name in field_names(type(self)):
            yield name, values[name]

    def children(self) -> Iterator[Node]:
        """The nodes directly inside this one, in field order."""
        found: list[Node] = []
        _add_children(self, found)
        return iter(found)

    def walk(self) -> Iterator[Node]:
        """Every node of this subtree, this one first (depth first, in source order). Iterative:
        a deeply nested expression does not exhaust Python's stack. Every pass walks the tree (the
        checks, the variants, the texts, the bounds), so it is written for speed: each node's
        children gathered into one list, without a generator per field and value (a walk of
        every declaration of the Campaign in teams, one process, the same nodes in the same
        order: 0.059 to 0.073 s of CPU with those generators, 0.033 to 0.047 s so, load 15)."""
        stack: list[Node] = [self]
        kids: list[Node] = []
        while stack:
            current = stack.pop()
            yield current
            _add_children(current, kids)
            if kids:
                kids.reverse()
                stack += kids
                kids.clear()

    def find_all(self, kind: type[N]) -> Iterator[N]:
        """Every node of this subtree of one type."""
        for node in self.walk():
            if isinstance(node, kind):
                yield node


_FIELD_NAMES: dict[type[Node], tuple[str, ...]] = {}


def field_names(kind: type[Node]) -> tuple[str, ...]:
    """A kind of node's own fields (not its span), in declaration order; worked out once per kind."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(name for name in kind.model_fields if name != "span")
    return names


def _add_children(node: Node, found: list[Node]) -> None:
    """Append the nodes directly inside `node` to `found`, in field order (`nodes_in` of each
    field's value)."""
    values = node.__dict__
    for name in field_names(type(node)):
        value = values[name]
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, list | tuple) and value:
            _add_items(value, found)


def _add_items(items: list[Any] | tuple[Any, ...], found: list[Node]) -> None:
    """`nodes_in` of a list or tuple, appended to `found`."""
    for item in items:
        if isinstance(item, Node):
            found.append(item)
        elif isinstance(item, list | tuple):
            _add_items(item, found)


class Unhandled(Exception):
    """A pass met a kind of node it has no handler for: a fault of meeple, not of the rules. It
    says where the node stands, so that the rules that showed the fault can be found."""

    def __init__(self, node: Node, what: str) -> None:
        span = node.span
        super().__init__(
            f"{span.file}:{span.line}:{span.column}: internal error: {what} has no handler for "
            f"{type(node).__name__}"
        )


def handler(owner: object, prefix: str, node: Node, what: str) -> Callable[..., Any]:
    """The method of `owner` for this node: `prefix` and the name of the node's class, or of its
    nearest ancestor that has one (`stmt_Meta` for a `Called`), as jinja2's visitors find
    `visit_X`. A pass thus has one method per kind of node, and a kind it lacks is an error
    (`Unhandled`), never a node silently skipped."""
    method = find_handler(owner, prefix, type(node))
    if method is None:
        raise Unhandled(node, what)
    return method


def find_handler(owner: object, prefix: str, kind: type[Node]) -> Callable[..., Any] | None:
    """The method `handler` finds for a kind of node, or None."""
    for cls in kind.__mro__:
        method = getattr(owner, prefix + cls.__name__, None)
        if method is not None:
            return method  # type: ignore[no-any-return]
    return None


def nodes_in(value: Any) -> Iterator[Node]:
    """The nodes in a field's value: a node, or the nodes in (nested) lists and tuples."""
    if isinstance(value, Node):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from nodes_in(item)


# ---------------------------------------------------------------- expressions


class Expr(Node):
    pass


class Num(Expr):
    value: int


class Text(Expr):
    value: str


class Bool(Expr):
    value: bool


class NoneLit(Expr):
    pass


class Name(Expr):
    id: str


class Attr(Expr):
    obj: Expr
    name: str


class Index(Expr):
    obj: Expr
    index: Expr


class Call(Expr):
    func: str
    args: list[Expr]


class Unary(Expr):
    op: Literal["-", "not"]
    operand: Expr


BinaryOp = Literal[
    "+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in", ".."
]


class Binary(Expr):
    op: BinaryOp
    left: Expr
    right: Expr


class IfExpr(Expr):
    """`if COND then A else B`: a value chosen by a condition."""

    cond: Expr
    then: Expr
    orelse: Expr


class ListLit(Expr):
    items: list[Expr]


class Filter(Expr):
    """`[each x in SEQ where COND]`: the elements of SEQ for which COND holds. With `ranked by
    K1, K2, ...` they are ordered highest K1 first, then highest K2, then as in SEQ (highest
    wins, as in `tiebreak`): a priority list, "the player farthest behind", in one expression."""

    var: str
    seq: Expr
    cond: Expr
    keys: list[Expr] = []


class MapComp(Expr):
    """`[EXPR for each x in SEQ where COND]`: EXPR for each element of SEQ (optionally filtered)."""

    expr: Expr
    var: str
    seq: Expr
    cond: Expr | None = None


# ---------------------------------------------------------------- statements


# When a statement can suspend the game (wait for a decision or a random outcome), and so is
# compiled as a generator function (interpreter/compiler/analyses.py, `suspends`):
#   "never", "always";
#   "inside": when a statement of one of its blocks can;
#   "call": when the rule it calls can (a fixpoint over the call graph);
#   "moves": when a trigger watches the pieces it moves (see `Facts.moves`).
Suspends = Literal["never", "always", "inside", "call", "moves"]
# What a statement itself changes, for the checks that prove a loop cannot end (checks/flow.py):
#   "pieces": where pieces are; "current": whose turn it is; "ends": it ends the game;
#   "bound": the local name it binds (`Facts.binds`); the variables it sets are `Facts.targets`;
#   "anything": something the checks do not follow (a grid's cells, an offered action...).
Write = Literal["pieces", "current", "ends", "bound", "anything"]


@dataclass(frozen=True)
class Facts:
    """What is known of a kind of statement without running it, declared once on its node class
    (`facts`) and read by every pass that used to keep a list of its own: the syntax hints
    (grammar/mistakes.py), the compiler's `suspends`, the checks' walkers (checks/walk.py,
    usage.py, flow.py, supply.py). A pass that meets a statement reads its facts; it never lists
    statements, so a new statement is known everywhere once its facts are written."""

    # How it is written, as the language reference's table of statements writes it (one row each,
    # docs/language.md): the hint after a syntax error on a line that starts with its first word.
    forms: tuple[str, ...] = ()
    suspends: Suspends = "never"
    writes: frozenset[Write] = frozenset()
    # The fields that hold the variables it changes (`set X to V`: X), as `set` writes them.
    targets: tuple[str, ...] = ()
    # The pieces it moves from place to place, which fire `when ... enters` triggers: "" none,
    # "kind" those of the kind its `kind` field names, "any" pieces of any kind.
    moves: Literal["", "kind", "any"] = ""
    # It sees or moves pieces without naming their kind (`draw`, `shuffle`, `move PIECES to`):
    # then every piece whose zone the game reads is used (checks/usage.py).
    any_kind: bool = False
    binds: str | None = None  # the field that holds the name it binds for its block (or after it)
    # Which of its blocks runs is a player's decision or chance (`choose`, `random`...): that one
    # seed never ran a block proves nothing of it (checks/supply.py).
    decided: bool = False
    calls: str | None = None  # the field that names the rule it runs
    # String fields that are words for players or names it gives (a prompt, a label, a phase's
    # name), never a mention of a declaration (checks/walk.py).
    texts: tuple[str, ...] = ()


class Stmt(Node):
    # Declared by every kind of statement (tests/test_statements.py checks each has them).
    facts: ClassVar[Facts]

    def suspension(self) -> Suspends:
        """When this statement can suspend: its kind's fact, unless one of its options changes it."""
        return self.facts.suspends

    def blocks(self) -> list[list[Stmt]]:
        """The statement lists directly inside this statement: its own (`body`, `orelse`...) and
        those of the parts it holds (an `if`'s branches, a `random`'s outcomes). Read from the
        fields, so that a statement added later is walked without anyone listing it."""
        return [block for _, block in self.named_blocks()]

    def named_blocks(self) -> list[tuple[str, list[Stmt]]]:
        """`blocks`, each with the name of its part, as the checks say where a statement stands:
        a field's ("body"; "else" for `orelse`), or a part's (`Branch.part`: "if", "elif";
        `Outcome.part`: "outcome NAME")."""
        out: list[tuple[str, list[Stmt]]] = []
        for name in type(self).model_fields:
            value = getattr(self, name)
            if not isinstance(value, list) or not value:
                continue
            if all(isinstance(s, Stmt) for s in value):
                out.append(("else" if name == "orelse" else name, value))
                continue
            for index, part in enumerate(value):
                body = getattr(part, "body", None) if isinstance(part, Node) else None
                if isinstance(body, list) and body:
                    named = getattr(part, "part", None)
                    out.append((named(index) if callable(named) else name, body))
        return out


class Meta(Stmt):
    """Rule text, a citation, an assumption or a declared conflict: read by docs and the checker.
    `text` explains a rule beside its steps; `says` is the rule in players' words, and stands for
    its steps in the printed rulebook; `brief` is the same rule as short as the player aid needs
    it, where the whole `says` is more than the aid has room for. `aside` quotes a rulebook
    passage that is not a rule (flavour, a fact box, an example, a caption), so that rulebook
    coverage can tell it from a rule nobody wrote. `holds` (a variant's, in a `reword` or a
    replacing declaration) says why the base game's words about it still hold after the change:
    the stale-text check (M094) reads it, and no book a player reads prints it."""

    facts = Facts(
        forms=(
            'text "..."',
            'says "..."',
            'brief "..."',
            'cites "..."',
            'assume "..."',
            'aside "..."',
            'holds "..."',
        ),
        texts=("kind", "value", "written"),
    )

    kind: Literal[
        "cites",
        "text",
        "says",
        "brief",
        "assume",
        "conflict",
        "aside",
        "holds",
        "called",
        "called_each",
        "numbered",
    ]
    value: str
    # A `text`, `says` or `brief` whose `{name}` parts the loader filled in (interpreter/texts.py): the
    # words as the file wrote them, which the checks read. None: nothing was filled.
    written: str | None = None


class Called(Meta):
    """`called "Goose", "Geese"` -- the name players read for the declaration (or the phase or
    step) it stands in, and its plural when English would not make it by adding an s."""

    facts = Facts(
        forms=('called "Name"', 'called "Name", "Plural"'), texts=("kind", "value", "written", "plural")
    )

    kind: Literal["called"] = "called"
    plural: str | None = None


class CalledEach(Meta):
    """`called each "{self.hall}, row {self.row + 1}"` -- among a table's lines, the name
    players read for each of its rows, made of its cells as a log line is made: each `{expr}` part
    is filled in with `self` the row. It names rows that have no name of their own (a relation
    table's), or whose names are a machine's."""

    facts = Facts(forms=('called each "..."',), texts=("kind", "value", "written"))

    kind: Literal["called_each"] = "called_each"
    parts: list[str | Expr] = []


class Numbered(Meta):
    """`numbered 2` -- in a phase or step, the number the rulebook gives it among its block's
    steps. A rulebook may number a turn's steps in an order the rules cannot run them in (a step
    done "before or after" another is written twice); the printed rules follow the numbers, and
    two steps may share one."""

    facts = Facts(forms=("numbered N",), texts=("kind", "value", "written"))

    kind: Literal["numbered"] = "numbered"
    number: int


class Conflict(Meta):
    """`conflict "what": ...` -- two passages of the rulebook that disagree, quoted (`cites`), and
    the reading the rules follow (`text`). `value` says what the passages disagree about. The
    checker refuses a conflict that does not quote two passages found in the rulebook; the quotes
    account for their paragraphs in the coverage without counting as the rule that implements
    them (the rule that follows the reading cites that)."""

    facts = Facts(forms=('conflict "...":',), texts=("kind", "value", "written"))

    kind: Literal["conflict"] = "conflict"
    passages: list[Meta] = []  # the `cites` lines
    reading: list[Meta] = []  # the `text` line (one; a checker error otherwise)
    others: list[Meta] = []  # anything else written in the block: a checker error


class MoveRefs(Stmt):
    """`move PIECES to LOC`: move particular pieces (a piece or a list of pieces)."""

    facts = Facts(
        forms=("move PIECES to LOC",),
        suspends="moves",
        writes=frozenset({"pieces"}),
        moves="any",
        any_kind=True,
    )

    pieces: Expr
    dest: Expr


class MoveCount(Stmt):
    """`move N KIND [WHICH] [of OWNER] from SRC to DEST`: as many as there are, up to N. WHICH is a
    row of the table the kind is made from (`move 1 animal c.icon from supply to c`)."""

    facts = Facts(
        forms=("move N KIND [ROW] [of OWNER] from SRC to DEST",),
        suspends="moves",
        writes=frozenset({"pieces"}),
        moves="kind",
    )

    count: Expr
    kind: str
    which: Expr | None = None
    owner: Expr | None = None
    src: Expr
    dest: Expr


class MoveAll(Stmt):
    facts = Facts(
        forms=("move all KIND [ROW] [of OWNER] from SRC to DEST",),
        suspends="moves",
        writes=frozenset({"pieces"}),
        moves="kind",
    )

    kind: str
    which: Expr | None = None
    owner: Expr | None = None
    src: Expr
    dest: Expr


class SetStmt(Stmt):
    facts = Facts(forms=("set X to V",), targets=("target",))

    target: Expr
    value: Expr


class Swap(Stmt):
    """`swap X with Y`: two variables exchange their values (both read before either changes), as
    a player swaps two scores or two markers' positions on a track."""

    facts = Facts(forms=("swap X with Y",), targets=("first", "second"))

    first: Expr
    second: Expr


class AddStmt(Stmt):
    """`add N to X` and `subtract N from X` (sign = -1)."""

    facts = Facts(
        forms=("add N to X", "subtract N from X"),
        targets=("target",),
    )

    amount: Expr
    target: Expr
    sign: int = 1


class Let(Stmt):
    facts = Facts(forms=("let NAME = V",), writes=frozenset({"bound"}), binds="name")

    name: str
    value: Expr


class Shuffle(Stmt):
    facts = Facts(forms=("shuffle ZONE",), writes=frozenset({"pieces"}), any_kind=True)

    zone: Expr


class Draw(Stmt):
    facts = Facts(
        forms=("draw N from SRC to DEST",),
        suspends="moves",
        writes=frozenset({"pieces"}),
        moves="any",
        any_kind=True,
    )

    count: Expr
    src: Expr
    dest: Expr


class Place(Stmt):
    """`place SHAPE on MAP [at PLACEMENT] [over]`: lay the cells of a shape (rows with q and r
    columns) on a grid map, where a placement says (or, without one, at the origin unturned).
    With `over` it is a layer laid on cells already there, which show its rows until it is lifted."""

    facts = Facts(forms=("place SHAPE on GRID [at PLACEMENT] [over]",), writes=frozenset({"anything"}))

    shape: Expr
    map: Expr
    at: Expr | None = None
    over: bool = False


class Shift(Stmt):
    """`shift MAP by DQ, DR`: every cell of a growing grid moved by an offset (in blocks, on a grid
    laid in blocks), with its layers and its pieces, as a map is slid across the table to make
    room on one side (interpreter/layers.py, `shift`)."""

    facts = Facts(forms=("shift GRID by DQ, DR",), writes=frozenset({"anything"}))

    map: Expr
    dq: Expr
    dr: Expr


class Lift(Stmt):
    """`lift LAYER`: take a laid shape off its grid; what lay under it shows again."""

    facts = Facts(forms=("lift LAYER",), writes=frozenset({"anything"}))

    layer: Expr


class EndGame(Stmt):
    facts = Facts(forms=("end game",), writes=frozenset({"ends"}))

    pass


class Log(Stmt):
    """A line for the readable game log; `{expr}` parts are filled in when it runs."""

    facts = Facts(forms=('log "TEXT {EXPR} ..."',))

    parts: list[str | Expr]


class Reveal(Stmt):
    """`reveal PIECES to PLAYERS`: a piece (or a list of them) shown to one player or a list of
    players (a team) alone, as a card is shown to one player across the table. Those seats see
    it in their view until a piece like it leaves or reaches its place, and read it in their log
    line; every other seat's line says only how many pieces were looked at, and where."""

    facts = Facts(forms=("reveal PIECES to PLAYERS",))

    pieces: Expr
    to: Expr


class Tally(Stmt):
    """Adds to a counter (`amount`, 1 if None), the player's own when the counter is per player."""

    facts = Facts(forms=("tally COUNTER [for PLAYER] [by AMOUNT]",))

    name: str
    player: Expr | None = None
    amount: Expr | None = None


class CallStmt(Stmt):
    facts = Facts(forms=("NAME(ARGS)",), suspends="call", calls="name")

    name: str
    args: list[Expr]


class Branch(Node):
    """One `if` or `elif` of an `if` statement: its condition and its block."""

    cond: Expr
    body: list[Stmt]

    def part(self, index: int) -> str:
        """How the checks name this branch's block: the first is the `if`, the others `elif`s."""
        return "if" if index == 0 else "elif"


class If(Stmt):
    facts = Facts(forms=("if COND:", "elif COND:", "else:"), suspends="inside")

    branches: list[Branch]
    orelse: list[Stmt] = []


class ForEach(Stmt):
    facts = Facts(
        forms=('for each x in LIST [where COND] [chosen by P [prompt "..."]]:',),
        suspends="inside",
        writes=frozenset({"bound"}),
        binds="var",
        texts=("prompt",),
    )

    var: str
    seq: Expr
    cond: Expr | None = None
    chooser: Expr | None = None  # `chosen by P`: P picks which item comes next, each time
    prompt: str | None = None  # what P is asked then
    body: list[Stmt]

    def suspension(self) -> Suspends:
        """`chosen by P` asks P before each item: then it always suspends."""
        return "always" if self.chooser is not None else self.facts.suspends


class Repeat(Stmt):
    facts = Facts(forms=("repeat N times:",), suspends="inside")

    count: Expr
    body: list[Stmt]


class While(Stmt):
    facts = Facts(forms=("while COND:",), suspends="inside")

    cond: Expr
    body: list[Stmt]


class Choose(Stmt):
    facts = Facts(
        forms=(
            'choose x from LIST [where COND] [by P] [prompt "..."] [shown at PLACE]:',
            "may choose x from ...:",
        ),
        suspends="always",
        writes=frozenset({"bound"}),
        binds="var",
        decided=True,
        texts=("prompt",),
    )

    optional: bool
    var: str
    seq: Expr
    cond: Expr | None = None
    chooser: Expr | None = None
    prompt: str | None = None
    # `shown at PLACE`: where on the board a picture of the game offers each option (PLACE may
    # read the option, by its name): for options that are no place themselves
    shown_at: Expr | None = None
    body: list[Stmt]
    orelse: list[Stmt] = []


class Ask(Stmt):
    """`may "prompt" [by P]:` a yes/no decision."""

    facts = Facts(forms=('may "question" [by P]:',), suspends="always", decided=True, texts=("prompt",))

    prompt: str
    chooser: Expr | None = None
    body: list[Stmt]
    orelse: list[Stmt] = []


class Outcome(Node):
    name: str
    weight: Expr | None = None  # None: "otherwise", the rest of 100
    body: list[Stmt]

    def part(self, index: int) -> str:
        """How the checks name this outcome's block."""
        return f"outcome {self.name}"


class Random(Stmt):
    facts = Facts(
        forms=('random ["label"]:', "outcome NAME chance N:", "outcome NAME otherwise:"),
        suspends="always",
        decided=True,
        texts=("label",),
    )

    label: str | None = None
    outcomes: list[Outcome]


class Pick(Stmt):
    facts = Facts(
        forms=("pick x at random from LIST [where COND]:",),
        suspends="always",
        writes=frozenset({"bound"}),
        binds="var",
        decided=True,
    )

    var: str
    seq: Expr
    cond: Expr | None = None
    body: list[Stmt]
    orelse: list[Stmt] = []


class Turn(Stmt):
    facts = Facts(forms=("turn PLAYER:",), suspends="inside", writes=frozenset({"current"}))

    player: Expr
    body: list[Stmt]


class Offer(Stmt):
    """`offer RULE(args) to P [where COND] [as "label"]:` -- while the block runs, every decision
    P makes also offers the rule (an action allowed "at any time"); taking it runs the rule and
    asks the decision again."""

    facts = Facts(
        forms=('offer RULE(ARGS) to P [where COND] [as "..."]:',),
        suspends="always",  # compiled as a generator always: it manages the offers around its body
        writes=frozenset({"anything"}),
        calls="rule",
        texts=("label",),
    )

    rule: str
    args: list[Expr]
    player: Expr
    cond: Expr | None = None
    label: str | None = None
    body: list[Stmt]


class Named(Stmt):
    """A named phase or step of the flow: variants and docs address it by name."""

    # No form for `step`: a movement's `step` line starts with the word too, and means another thing.
    facts = Facts(forms=("phase NAME:",), suspends="inside", texts=("kind", "name"))

    kind: Literal["phase", "step"]
    name: str
    body: list[Stmt]


# ---------------------------------------------------------------- declarations


class Decl(Node):
    meta: list[Meta] = []


class TypeRef(Node):
    name: str
    optional: bool = False


class Column(Node):
    name: str
    type: TypeRef | None = None
    called: str | None = None  # the heading players read, where the name in words would not do


Cell = int | str | bool | None
# The column of a table that holds its rows' names as players read them (`called` on a row).
CALLED_COLUMN = "called"


class Row(Node):
    cells: list[Cell]
    names: list[bool]  # which cells were bare names (references or keys), not quoted text
    cell_columns: list[tuple[int, int]] = []  # each cell's (start, end) on the row's line, for diagnostics


class GameHeader(Decl):
    name: str
    min_players: int = 1
    max_players: int = 1
    rulebook: str | None = None
    # Sections of the rulebook this file leaves to other files (a variant's own rules): the
    # coverage does not count them.
    rulebook_except: list[str] = []


class Constant(Decl):
    name: str
    value: Expr


class OptionDecl(Constant):
    """`option NAME: TYPE = DEFAULT`: a constant whose value is chosen before the game (an
    expansion, a scenario, a difficulty) and fixed for the whole program: `value` is the
    default until the loader puts the chosen value there (loader.apply_options)."""

    type: TypeRef
    default: Expr


class Table(Decl):
    name: str
    columns: list[Column]
    rows: list[Row]
    # `from "FILE.csv"`: the file its rows come from (the loader reads them, after the rows
    # written in the rules file), and where the name stands, for an error about the file
    data_file: str | None = None
    data_span: Span | None = None
    # `belongs to COLUMN`: the column that gives each row's seat (0: Player 1), and where it stands
    belongs: str | None = None
    belongs_span: Span | None = None


class Counted(Decl):
    """How many of a thing the box holds, as a piece and a component both write it: N, N per
    player, one for each row of a table, or N (which may read the row as `self`) per row."""

    name: str
    count: Expr | None = None
    per_player: bool = False
    each_row_of: str | None = None  # one for each row of this table
    per_row_of: str | None = None  # `count` for each row of this table (count may use `self`)


class PieceDecl(Counted):
    """Pieces are never created; they start in a zone and only ever move."""

    zone: Expr


class ComponentDecl(Counted):
    """What players unpack and lay out that no rule moves or counts: a board, the dice, a bag, a
    player aid. The rulebook lists it with its count and its words; it is no piece, so the engine
    never sees it, and a rule that moves or reads it is an error (analysis), not a piece that sits
    unmoved in a zone the rules never read."""


class ZoneDecl(Decl):
    name: str
    per: str | None = None  # "player" or a table name
    flags: list[str] = []


class CounterDecl(Decl):
    """Something to count for statistics: once per game, or for each player."""

    name: str
    per_player: bool = False


class VarDecl(Decl):
    name: str
    type: TypeRef | None = None
    init: Expr
    per: str | None = None
    # `per player, TABLE`: a value for each owner and each row of TABLE (`p.NAME[row]`)
    by: str | None = None
    within: Expr | None = None
    # `bookkeeping`: a value the rules keep for themselves (a step's progress, dice kept between
    # two rules), not game state a player reads: what shows the position to players leaves it out
    bookkeeping: bool = False


class MapDecl(Decl):
    """A graph. Either built from tables (`nodes T`, `edges E (a, b)`), a grid that grows as
    shapes are placed on it (`grid hex of T`: cells read their attributes from rows of T), or a
    grid of fixed cells given by its size (`grid square 3 by 3`)."""

    name: str
    nodes: str = ""
    # `nodes T at X, Y`: where each node is drawn (the playtest page), computed from its row
    # (`self`); none: the page lays the nodes on a ring.
    at: list[Expr] = []
    edges: str | None = None
    edge_from: str | None = None
    edge_to: str | None = None
    per: str | None = None  # one map per player
    grid: str | None = None  # "hex" or "square"
    block: int = 1  # `blocks K`: shapes are laid on whole K x K blocks of a square grid
    faces: str | None = None  # the table whose rows are placed on grid cells
    # A board of fixed cells (`grid square 7 by 6`, `grid hex hexagon 4`): its outline and sizes,
    # each a number or a constant's name. None: the grid grows as shapes are placed on it.
    outline: Literal["by", "hexagon"] | None = None
    size: list[Expr] = []


class Param(Node):
    name: str
    type: TypeRef | None = None


class MovementDecl(Decl):
    """A way of moving over a graph, as data: `routes(start, NAME, args...)` lists where it can go.
    The graph is a grid's sides, a table map's edges, or what `step a to EXPR` computes (the places
    one step from `a` reaches). Conditions see the place being tested (`through c where ...`) and
    `start`."""

    name: str
    params: list[Param]
    steps: Expr | None = None
    step_var: str = "place"
    step: Expr | None = None  # None: the start's own map says where a step goes
    straight: Expr | None = None
    backtracks: Expr | None = None
    through_var: str = "cell"
    through: Expr | None = None
    ends_var: str = "cell"
    ends: Expr | None = None


class RuleDecl(Decl):
    name: str
    params: list[Param]
    body: list[Stmt]


class ValueDecl(Decl):
    name: str
    params: list[Param]
    expr: Expr


class TriggerDecl(Decl):
    """`when KIND piece enters loc [where COND]:` runs after any move that brings KIND to a location."""

    kind: str
    piece_var: str
    loc_var: str
    cond: Expr | None = None
    body: list[Stmt]


class SetupDecl(Decl):
    body: list[Stmt]


class PlayDecl(Decl):
    body: list[Stmt]


class ScoreDecl(Decl):
    kind: Literal["score", "tiebreak"]
    var: str
    expr: Expr


class Preference(Node):
    """One line of a playing style: options of some decisions made more likely (`prefer`) or
    less (`avoid`), by `weight` times (10 when it says none), where `cond` holds.

    `target` says which options: "option" (those of a `choose VAR` in `rule`), "yes" (the yes of
    a `may "..."` in it), "pass" (its no, or the pass of a `may choose`) or "offer" (taking the
    offered action `rule`)."""

    avoid: bool
    target: str
    rule: str
    var: str | None = None
    cond: Expr | None = None
    weight: Expr | None = None


class StyleDecl(Decl):
    """A way to play for simulated players: what it prefers and avoids; the rest is random."""

    name: str
    preferences: list[Preference]


# ---------------------------------------------------------------- seats the rules play, and teams


class AutomatedDecl(Decl):
    """A seat the rules play (`automated NAME [plays STYLE]`): a player like the others, seated
    after them, whose decisions the style answers strictly (interpreter/seats.py)."""

    name: str
    style: str | None = None


class TeamsDecl(Decl):
    """The game can be played in teams of `smallest` to `largest` seats (`teams of 1..2`)."""

    smallest: int
    largest: int


class Example(Decl):
    """A worked example. It starts from the components as declared, or (`from setup`) from the
    position setup leaves with the example's seed; then `given` changes the position, `do` runs,
    and (`play`) the game's own `play` runs to the end of the game."""

    name: str
    players: int | None = None
    seat_names: list[str] = []  # `players 2 called "you", "Jimmy"`: the seats as its words call them
    seed: int = 0
    from_setup: bool = False
    plays: bool = False
    given: list[Stmt] = []
    do: list[Stmt] = []
    choices: list[int | str] = []
    then_first: bool = False  # `choices: ..., first`: every later decision takes its first option
    outcomes: list[int | str] = []
    expect: list[Expr] = []
    shows: list[Expr] = []  # grid maps and zones the rulebook draws before `do` and after it
    teams: str | None = None  # `teams "1,2+3"`: the teams it is played in, as `--teams` writes them


class VariantHeader(GameHeader):
    """`variant "Name" of "base.rules":` -- this file changes another game. Player counts and the
    rulebook, when given, replace the base game's. `of "a.rules", "b.rules"` combines two variants
    of one game: b's own patches are applied to a (interpreter/variants.py, `combine_conflicts`)."""

    base: str
    combines: list[str] = []  # the further variants whose own patches follow the base's, in order
    combines_spans: list[Span] = []  # where each is named, for an error about it
    has_players: bool = False


class ReplaceDecl(Decl):
    """`replace constant|zone|movement|rule|... NAME ...`: the base game's declaration of that
    kind and name, replaced by `decl`."""

    decl: Decl


class ReplaceBlock(Decl):
    """`replace phase|step NAME:` -- a named block of the base game's flow, with a new body."""

    kind: Literal["phase", "step"]
    name: str
    body: list[Stmt]


class RemoveDecl(Decl):
    """`remove KIND NAME`: a named declaration of the base game, or a phase or step of its flow;
    or `remove conflict "TITLE"`: a ruling of the base game, by its title (then `name`)."""

    kind: str  # the grammar's REMOVABLE words, or "conflict"
    name: str


class InsertBlock(Decl):
    """`insert before|after phase|step NAME:` -- statements put beside a named block of the flow."""

    position: Literal["before", "after"]
    kind: Literal["phase", "step"]
    name: str
    body: list[Stmt]


class Reword(Decl):
    """`reword KIND NAME:` (or `reword setup:`, `reword play:`) -- the base game's words for one
    passage (a declaration, or a phase or step: its `says` and `text` lines) after a variant's
    change: `meta` holds the new `says` and `text` that take their place, with their `cites`, or a
    `holds "why"` line that says the base words still hold."""

    kind: str  # the grammar's REMOVABLE words, or "setup", "play"
    name: str = ""  # empty for the setup and the flow, which have no name

    @property
    def key(self) -> str:
        """The passage as a designer writes it: `rule gain`, `step income`, `play`."""
        return f"{self.kind} {self.name}" if self.name else self.kind


class ExtendTable(Decl):
    name: str
    rows: list[Row]


class SetCell(Node):
    """`set ROW.COLUMN to VALUE` in a `change table`: one cell of a base game's row."""

    key: str
    key_span: Span
    column: str
    column_span: Span
    value: Cell
    is_name: bool  # the value was a bare name (a reference to a row)
    value_span: Span


class ReplaceRow(Node):
    """`replace row CELLS` in a `change table`: the row its first cell names, written anew."""

    row: Row


class AddRow(Node):
    """`add row CELLS` in a `change table`: a row the base game's table does not have."""

    row: Row


class RemoveRow(Node):
    """`remove row KEY` in a `change table`."""

    key: str
    key_span: Span


class AddColumn(Node):
    """`add column NAME: TYPE = VALUE` in a `change table`: a new column, VALUE in every row."""

    column: Column
    value: Cell
    is_name: bool
    value_span: Span


TablePatch = SetCell | ReplaceRow | AddRow | RemoveRow | AddColumn


class ChangeTable(Decl):
    """`change table NAME:` -- a base game's table changed in place, patch after patch; its
    `text` lines join the table's, as the words for players of what changed."""

    name: str
    patches: list[TablePatch]


class ValueChange(Node):
    """A number or other value a variant changed (a constant's, or a table cell's), with its value
    in the base game: what the stale-number check looks for in the base game's texts. `span` is
    the variant's patch."""

    name: str  # the constant, or the cell's column
    row: str | None = None  # a cell's row and table
    table: str | None = None
    old: Cell
    new: Cell


class Removed(BaseModel):
    """A declaration, phase or step a variant's `remove` took out of its base game, with what
    players read of it there (its `called` name, its `says` or `text`): what the variant's
    rulebook tells as left out. Not a node of the game, and plain texts rather than its metadata
    lines, so that nothing walking the module meets it (a removed citation counts for nothing).
    `span` is the variant's patch."""

    span: Span
    kind: str  # as a designer writes it: "rule", "step"
    name: str
    called: str | None = None
    words: list[str] = []


class ExtendSetup(Decl):
    body: list[Stmt]


# ---------------------------------------------------------------- carried state, sequences of games


class CarryDecl(Decl):
    """`carry NAME [per OWNER]`: a variable, zone or grid map that a game's save holds at its end
    and a loaded save sets at the start (interpreter/carry.py). `per` says which of two
    declarations with one name (`var gold per player`, `var gold per city`) is meant."""

    name: str
    per: str | None = None
    condition: Expr | None = None  # `if CONDITION`: carried only when it holds (an option's value)


class SequenceGame(Node):
    """One `game` line of a sequence: the values its options take, as the command line writes
    them (a number, yes/no, a text, a row's name)."""

    options: list[tuple[str, Cell]] = []


class SequenceDecl(Decl):
    """`sequence NAME:` the games played one after another as one (interpreter/sequence.py)."""

    name: str
    games: list[SequenceGame] = []


class Module(Node):
    """One parsed `.rules` file, declarations in source order. A variant, once applied to its base,
    is one module too: `sources` then holds the text of every file its spans point into."""

    file: str
    source: str
    decls: list[Decl]
    meta: list[Meta] = []
    sources: dict[str, str] = {}
    base: str | None = None  # a variant's: the name of the game it changes, as its header gives it
    # (of the games: "A and B", when it combines variants of one game)
    combines: list[str] = []  # a variant's: the names of the variants it combines with its base
    # a variant's: the name of the game, not itself a variant, that it builds on through every
    # variant between (for a variant of a variant of a game: that game)
    root: str | None = None
    # a variant's: (name, file) of every variant between it and its root game, in the order their
    # patches apply (those it builds on, then those it combines), and its own last: the files whose
    # declarations its rulebook tells as changes from the root game
    lineage: list[tuple[str, str]] = []
    # every declaration a patch replaced, removed or changed, by "kind name": where the last did
    patched: dict[str, Span] = {}
    changes: list[ValueChange] = []  # a variant's: the values it changed (apply_variant)
    removed: list[Removed] = []  # a variant's: what its `remove` patches took out (apply_variant)
    table_changes: list[ChangeTable] = []  # a variant's `change table` patches: what its rulebook tells
    rewords: list[Reword] = []  # a variant's `reword` patches, applied: what its rulebook and M094 read
    # a variant's: each base text (by where it stands) and the names its passage read before the
    # variant's patches, so that M094 knows what a text describes of a block the variant replaced
    described: dict[Span, set[str]] = {}
    # a variant's: every node of a phase or step it replaced with the base game's own statements
    # (its words alone are new: "you" for "each player"), by where it stands; its rulebook's
    # changes leave them out, as they change no rule (apply_variant)
    worded_anew: set[Span] = set()
    # a variant's: the `says` lines of each phase or step it replaced, by where the replacement
    # stands: its rulebook prints only the sentences the replacement adds to the base game's
    was_said: dict[Span, list[Meta]] = {}


def statement_lists(decls: list[Decl]) -> list[list[Stmt]]:
    """Every list of statements in these declarations, nested blocks included (if-branches,
    random outcomes, loop bodies): where named phases and steps can stand."""
    found: list[list[Stmt]] = []

    def walk(body: list[Stmt]) -> None:
        found.append(body)
        for stmt in body:
            for block in stmt.blocks():
                walk(block)

    for decl in decls:
        body = getattr(decl, "body", None)
        if isinstance(body, list):
            walk(body)
    return found


def statement_kinds() -> list[type[Stmt]]:
    """Every kind of statement the language has: the subclasses of Stmt, in the order they are
    declared here (a kind's subclasses after it)."""
    out: list[type[Stmt]] = []
    todo: list[type[Stmt]] = [Stmt]
    while todo:
        kind = todo.pop(0)
        out += [sub for sub in kind.__subclasses__() if sub not in out]
        todo += kind.__subclasses__()
    return out


def statement_forms() -> dict[str, str]:
    """Each word that starts a statement, with the forms of the statements it starts, from their
    facts, as a hint says them: a part to fill in, written `COND` in the reference, is `<cond>`
    there (a word in capitals reads as a token's name). A form that starts with no keyword (a
    rule's call) has no word."""
    found: dict[str, list[str]] = {}
    for kind in statement_kinds():
        for form in vars(kind).get("facts", Facts()).forms:
            word = form.split()[0].rstrip(":")
            if word.isalpha() and word.islower():
                found.setdefault(word, []).append(_PART.sub(lambda m: f"<{m[0].lower()}>", form))
    return {word: _either(forms) for word, forms in found.items()}


_PART = re.compile(r"\b[A-Z][A-Z_]*\b")  # a part of a form to fill in: N, COND, SRC


def _either(forms: list[str]) -> str:
    """ "A", "A or B", "A, B or C"."""
    return forms[0] if len(forms) == 1 else ", ".join(forms[:-1]) + " or " + forms[-1]
