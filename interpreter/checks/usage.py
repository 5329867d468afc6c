"""Declarations the game never uses, rules it never reaches, variables it never reads, and triggers
that can never fire (M040-M043).

A declaration is *live* when the game can get to it from what it runs by itself: `setup`, `play`,
the triggers and the score. Examples do not count: a rule that only an example calls is never part
of a game. Liveness spreads through mentions (a rule calls a rule, a value reads a table, a
variable is declared per the rows of a table), and two mentions that are not written as names:
pieces are live when the game reads the zone they start in and also reads pieces without naming
their kind (`pieces(zone)`, `draw`...), and a map is live when the game walks a graph
(`neighbours`, `region`, `regions`) over its live node table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.checks.walk import Owner, Refs, owners, refs, sites
from meeple.interpreter.types import ANY, ListOf, Piece, element


def describe(decl: ast.Node) -> str:
    """A declaration as a designer would name it in a sentence."""
    match decl:
        case ast.Table():
            return f"table '{decl.name}'"
        case ast.PieceDecl():
            return f"piece '{decl.name}'"
        case ast.ZoneDecl() | ast.MapDecl():
            kind = "zone" if isinstance(decl, ast.ZoneDecl) else "map"
            return f"{kind} '{decl.name}'" + (f" (per {decl.per})" if decl.per else "")
        case ast.VarDecl():
            return f"variable '{decl.name}'" + (f" (per {decl.per})" if decl.per else "")
        case ast.RuleDecl():
            return f"rule '{decl.name}'"
        case ast.ValueDecl():
            return f"value '{decl.name}'"
        case ast.Constant():
            return f"constant '{decl.name}'"
        case ast.TriggerDecl():
            return f"the trigger 'when {decl.kind} {decl.piece_var} enters {decl.loc_var}'"
        case ast.Example():
            return f"example '{decl.name}'"
        case ast.ScoreDecl():
            return f"the {decl.kind}"
        case ast.SetupDecl():
            return "setup"
        case ast.PlayDecl():
            return "play"
    kind = type(decl).__name__.removesuffix("Decl").lower()
    name = getattr(decl, "name", None)
    return f"{kind} '{name}'" if isinstance(name, str) else kind


class Usage:
    """Who mentions whom, and which declarations are live."""

    def __init__(self, symbols: Symbols) -> None:
        self.sym = s = symbols
        self.decls: list[ast.Decl] = list(s.module.decls)
        self.refs: dict[int, Refs] = {id(d): refs(d) for d in self.decls}
        # Declarations by name: global ones, and those made per owner (`per player`, `per TABLE`),
        # which are named as attributes (`p.hand`). Read from the declarations themselves, so that
        # a kind of declaration added to the language later is counted too.
        self.globals: dict[str, ast.Decl] = {}
        self.owned: dict[str, list[ast.Decl]] = {}
        for decl in self.decls:
            name = getattr(decl, "name", None)
            # A style is used by whoever plays with it (`--agents`), never by the rules; a seat the
            # rules play (`automated`) is a seat at the table, which the rules never name; a `carry`
            # line and a sequence name what they use, and nothing names them.
            unnamed = ast.StyleDecl | ast.AutomatedDecl | ast.CarryDecl | ast.SequenceDecl
            if not isinstance(name, str) or isinstance(decl, ast.Example | ast.GameHeader | unnamed):
                continue
            if getattr(decl, "per", None):
                self.owned.setdefault(name, []).append(decl)
            else:
                self.globals[name] = decl
        roots: list[ast.Decl] = [*s.triggers]
        roots += [d for d in (s.setup, s.play, s.score, s.tiebreak) if d is not None]
        # The style a seat the rules play plays is part of the rules: every game runs it, so what
        # its lines read is needed.
        played = {d.style for d in self.decls if isinstance(d, ast.AutomatedDecl)}
        roots += [d for d in self.decls if isinstance(d, ast.StyleDecl) and d.name in played]
        # A component is for players to read, never played: what its count reads (a table of its
        # kinds, a constant) is needed for the rulebook.
        roots += s.components.values()
        self.live: set[int] = set()
        self._spread(roots)

    def targets(self, r: Refs) -> Iterator[ast.Decl]:
        """The declarations a set of mentions can mean."""
        for name in r.names | r.set_names:
            if name in self.globals:
                yield self.globals[name]
            for table in self.sym.row_keys.get(name, []):
                yield self.sym.tables[table]  # a row named by its key keeps its table alive
        for name in r.attrs | r.set_attrs:
            yield from self.owned.get(name, [])
        for kind in r.kinds:
            if kind in self.sym.pieces:
                yield self.sym.pieces[kind]

    def is_live(self, decl: ast.Decl) -> bool:
        return id(decl) in self.live

    def _spread(self, roots: list[ast.Decl]) -> None:
        todo = list(roots)
        while True:
            while todo:
                decl = todo.pop()
                if id(decl) not in self.live:
                    self.live.add(id(decl))
                    todo.extend(self.targets(self.refs[id(decl)]))
            todo = self._implied()
            if not todo:
                return

    def _implied(self) -> list[ast.Decl]:
        """Declarations made live by what is live without naming them."""
        out: list[ast.Decl] = []
        live = [d for d in self.decls if self.is_live(d)]
        if any(_reads_any_kind(d) for d in live):
            for piece in self.sym.pieces.values():
                if not self.is_live(piece) and any(self.is_live(d) for d in self.targets(refs(piece.zone))):
                    out.append(piece)
        walks_graphs = any(
            name in BUILTINS and BUILTINS[name].walks_graph for d in live for name in self.refs[id(d)].names
        )
        for m in self.sym.maps.values():
            table = self.sym.tables.get(m.nodes)
            if not self.is_live(m) and walks_graphs and table is not None and self.is_live(table):
                out.append(m)
        return out

    def users(self, decl: ast.Decl) -> list[ast.Decl]:
        """The other declarations that mention this one (examples included)."""
        return [
            d for d in self.decls if d is not decl and any(t is decl for t in self.targets(self.refs[id(d)]))
        ]

    def live_refs(self, exclude: ast.Decl | None = None) -> Refs:
        """Everything the live declarations mention (but `exclude`)."""
        out = Refs()
        for d in self.decls:
            if self.is_live(d) and d is not exclude:
                out.update(self.refs[id(d)])
        return out

    def live_owners(self) -> list[Owner]:
        return [o for o in owners(self.sym) if self.is_live(o.decl)]


def _reads_any_kind(decl: ast.Decl) -> bool:
    """Whether a declaration can see or move pieces without naming their kind (`pieces(z)`,
    `count(z)`, `draw`, `shuffle`, `move PIECES to`): then pieces are used through their zone."""
    for node in decl.walk():
        match node:
            case ast.Stmt() if node.facts.any_kind:
                return True
            case ast.Call(func=func) if func in BUILTINS and BUILTINS[func].reads_any_kind(node):
                return True
    return False


def _used_by(users: list[ast.Decl]) -> str:
    if not users:
        return ""
    if all(isinstance(u, ast.Example) for u in users):
        return "used only in examples, which are not part of a game"
    names = ", ".join(describe(u) for u in users[:4]) + (" ..." if len(users) > 4 else "")
    return f"used only by {names}, which the game itself never reaches"


def check_usage(symbols: Symbols, earlier: Iterable[Diagnostic]) -> list[Finding]:
    """M040-M043 for a file that analysed without errors. `earlier` holds analysis's diagnostics,
    so that a rule analysis already calls unused (M021) is not reported twice."""
    usage = Usage(symbols)
    already = {(d.line, d.column) for d in earlier if d.code == codes.UNUSED_RULE}
    out: list[Finding] = []
    s = symbols
    named = [*usage.globals.values(), *(d for group in usage.owned.values() for d in group)]
    for decl in named:
        if isinstance(decl, ast.RuleDecl | ast.ValueDecl | ast.Constant | ast.VarDecl):
            continue  # M041, M042 and analysis's M021 below
        if usage.is_live(decl):
            continue
        users = usage.users(decl)
        how = _used_by(users)
        message = f"{describe(decl)} is {how or 'never used'}"
        hint = "delete it, or use it in the rules"
        if isinstance(decl, ast.PieceDecl):
            hint = "nothing moves these pieces or reads the zone they start in: delete them, or use them"
        elif isinstance(decl, ast.MapDecl) and not how:
            hint = "nothing names the map or walks its graph (neighbours, region, regions)"
        if isinstance(decl, ast.ZoneDecl) and any(isinstance(u, ast.PieceDecl) for u in users):
            continue  # pieces start there: the unused piece is the finding
        if isinstance(decl, ast.MapDecl) and decl.nodes in s.places:
            continue  # pieces are moved to its rows: the map is what makes them places
        out.append(at(decl, codes.UNUSED, message, hint))
    out += _variables(usage)
    for decl in [*s.rules.values(), *s.values.values(), *s.constants.values()]:
        if usage.is_live(decl) or (decl.span.line, decl.span.column) in already:
            continue
        how = _used_by(usage.users(decl)) or "never used"
        verb = "never runs" if isinstance(decl, ast.RuleDecl) else "is never needed"
        out.append(
            at(
                decl,
                codes.UNREACHABLE,
                f"{describe(decl)} {verb}: nothing reached from setup, play, a trigger or the score uses it",
                f"it is {how}",
            )
        )
    out += _dead_triggers(usage)
    return out


def _variables(usage: Usage) -> list[Finding]:
    s = usage.sym
    out = []
    group_of = [(v, v.name, False) for v in s.vars.values()]
    group_of += [(v, v.name, True) for group in s.owned_vars.values() for v in group.values()]
    for decl, name, owned in group_of:
        seen = usage.live_refs(exclude=decl)
        read = name in (seen.attrs if owned else seen.names)
        changed = name in (seen.set_attrs if owned else seen.set_names)
        if read or any(c.target is decl for c in s.carried):  # a save reads what is carried
            continue
        if changed:
            out.append(
                at(
                    decl,
                    codes.NEVER_READ,
                    f"{describe(decl)} is changed but never read",
                    "nothing the game runs, nor the score, looks at it: read it, or delete it and the "
                    "statements that change it",
                )
            )
        else:
            how = _used_by(usage.users(decl))
            out.append(
                at(decl, codes.UNUSED, f"{describe(decl)} is {how or 'never used'}", "delete it, or use it")
            )
    return out


def _dead_triggers(usage: Usage) -> list[Finding]:
    """A trigger fires when a piece of its kind arrives somewhere. If nothing the game runs can
    move a piece of that kind (apart from the trigger itself), it never fires."""
    out = []
    live_owners = usage.live_owners()
    for trig in usage.sym.triggers:
        movers: set[str] = set()
        moves_any = False
        for owner in live_owners:
            if owner.decl is trig:
                continue
            for site in sites(owner.body, owner):
                kinds = _kinds_moved(site.stmt, usage.sym)
                if kinds is None:
                    moves_any = True
                else:
                    movers |= kinds
        if not moves_any and trig.kind not in movers:
            out.append(
                at(
                    trig,
                    codes.TRIGGER_NEVER_FIRES,
                    f"{describe(trig)} can never fire: nothing the game runs moves a {trig.kind}",
                    f"a trigger fires when a {trig.kind} arrives somewhere by a move or a draw",
                )
            )
    return out


def _kinds_moved(stmt: ast.Stmt, symbols: Symbols) -> set[str] | None:
    """The kinds of piece a statement itself may move (not those of the statements inside it);
    None when it may move any kind."""
    if isinstance(stmt, ast.MoveRefs):  # the pieces' type may say their kind
        t = symbols.types.get(id(stmt.pieces), ANY)
        piece = element(t) if isinstance(t, ListOf) else t
        return {piece.kind} if isinstance(piece, Piece) and piece.kind else None
    if stmt.facts.moves == "kind" and isinstance(kind := getattr(stmt, "kind", None), str):
        return {kind}
    return set() if stmt.facts.moves == "" else None
