"""Parse tree -> AST: one method per grammar rule, each returning a pydantic node with its span."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, TypeVar

from lark import Token, Transformer, v_args
from lark.tree import Meta as LarkMeta

from meeple.grammar import ast
from meeple.limits import MAX_DIGITS

Counted = TypeVar("Counted", ast.PieceDecl, ast.ComponentDecl)
ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def _unquote(token: Token) -> str:
    """Read a STRING token. `\\"`, `\\\\`, `\\n` and `\\t` are escapes; any other backslash stays as
    written, so no text the designer types can fail to read."""
    body, out, i = str(token)[1:-1], [], 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body) and body[i + 1] in ESCAPES:
            out.append(ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


class NumberTooLong(Exception):
    """A number with more digits than any game needs (the parser reports it where it stands)."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


def _int(token: Token) -> int:
    if len(str(token)) > MAX_DIGITS:
        raise NumberTooLong(token)
    return int(token)


def _counted(node: Counted, count: tuple[Any, ...]) -> Counted:
    """A piece's or a component's count, as `_piece_count` parsed it, set on its node."""
    if count[0] == "each":
        node.each_row_of = count[1]
    elif count[0] == "per_row":
        node.count, node.per_row_of = count[1], count[2]
    else:
        node.count, node.per_player = count[1], count[0] == "per_player"
    return node


@v_args(meta=True)  # each rule's method is given its place in the text (lark: once, for every method)
class Builder(Transformer):  # type: ignore[type-arg]
    """Builds AST nodes. `parse_expr` parses the `{...}` parts of log texts; `source` is the text
    being parsed, read to place each cell of a table row (cells such as `-` or `yes` keep no token
    of their own)."""

    def __init__(self, file: str, parse_expr: Any, source: str = "") -> None:
        super().__init__()
        self.file = file
        self.parse_expr = parse_expr
        self.lines = source.split("\n")  # lines as Lark counts them

    def _span(self, meta: LarkMeta | Token) -> ast.Span:
        if isinstance(meta, Token):
            return ast.Span(
                file=self.file,
                line=meta.line or 0,
                column=meta.column or 0,
                end_line=meta.end_line or 0,
                end_column=meta.end_column or 0,
            )
        if getattr(meta, "empty", True):
            return ast.Span(file=self.file)
        return ast.Span(
            file=self.file,
            line=meta.line,
            column=meta.column,
            end_line=meta.end_line,
            end_column=meta.end_column,
        )

    # -------------------------------------------------------------- module

    def start(self, meta: LarkMeta, items: list[Any]) -> list[Any]:
        return [i for i in items if i is not None]

    def meta(self, meta: LarkMeta, c: list[Token]) -> ast.Meta:
        return ast.Meta(span=self._span(meta), kind=str(c[0]), value=_unquote(c[1]))  # type: ignore[arg-type]

    def called(self, meta: LarkMeta, c: list[Token | None]) -> ast.Called:
        plural = _unquote(c[2]) if c[2] is not None else None
        return ast.Called(span=self._span(meta), value=_unquote(c[1]), plural=plural)  # type: ignore[arg-type]

    def called_each(self, meta: LarkMeta, c: list[Token]) -> ast.CalledEach:
        return ast.CalledEach(span=self._span(meta), value=_unquote(c[1]), parts=self._text_parts(c[1]))

    def numbered(self, meta: LarkMeta, c: list[Token]) -> ast.Numbered:
        return ast.Numbered(span=self._span(meta), value=str(c[1]), number=_int(c[1]))

    def conflict_line(self, meta: LarkMeta, c: list[Token]) -> ast.Conflict:
        return ast.Conflict(span=self._span(meta), value=_unquote(c[1]))

    def conflict(self, meta: LarkMeta, c: list[Any]) -> ast.Conflict:
        lines: list[ast.Meta] = c[2:]
        return ast.Conflict(
            span=self._span(meta),
            value=_unquote(c[1]),
            passages=[m for m in lines if m.kind == "cites"],
            reading=[m for m in lines if m.kind == "text"],
            others=[m for m in lines if m.kind not in {"cites", "text"}],
        )

    def game_decl(self, meta: LarkMeta, c: list[Any]) -> ast.GameHeader:
        return self._header_fields(ast.GameHeader(span=self._span(meta), name=_unquote(c[0])), c[1:])

    @staticmethod
    def _header_fields(head: ast.GameHeader, fields: list[Any]) -> ast.GameHeader:
        """The fields a game header and a variant header share."""
        for field in fields:
            if isinstance(field, ast.Meta):
                head.meta.append(field)
            elif field[0] == "players":
                head.min_players, head.max_players = field[1], field[2]
                if isinstance(head, ast.VariantHeader):
                    head.has_players = True
            elif field[0] == "rulebook":
                head.rulebook, head.rulebook_except = field[1], field[2]
        return head

    def players_field(self, meta: LarkMeta, c: list[Token | None]) -> tuple[str, int, int]:
        low = _int(c[0])  # type: ignore[arg-type]
        return ("players", low, low if c[1] is None else _int(c[1]))

    def rulebook_field(self, meta: LarkMeta, c: list[Token | None]) -> tuple[str, str, list[str]]:
        names = [_unquote(t) for t in c if t is not None]
        return ("rulebook", names[0], names[1:])

    @staticmethod
    def _split_meta(items: list[Any]) -> tuple[list[Any], list[ast.Meta]]:
        rest = [i for i in items if not isinstance(i, ast.Meta)]
        return rest, [i for i in items if isinstance(i, ast.Meta)]

    def option_decl(self, meta: LarkMeta, c: list[Any]) -> ast.OptionDecl:
        rest, metas = self._split_meta(c)
        name, type_ref, default = str(rest[0]), rest[1], rest[2]
        return ast.OptionDecl(
            span=self._span(meta), name=name, type=type_ref, default=default, value=default, meta=metas
        )

    def const_decl(self, meta: LarkMeta, c: list[Any]) -> ast.Constant:
        rest, metas = self._split_meta(c)
        return ast.Constant(span=self._span(meta), name=str(rest[0]), value=rest[1], meta=metas)

    def table_decl(self, meta: LarkMeta, c: list[Any]) -> ast.Table:
        rest, metas = self._split_meta(c)
        columns = [x for x in rest[1:] if isinstance(x, ast.Column)]
        rows = [x for x in rest[1:] if isinstance(x, ast.Row)]
        table = ast.Table(span=self._span(meta), name=str(rest[0]), columns=columns, rows=rows, meta=metas)
        for x in rest[1:]:
            if isinstance(x, tuple) and x[0] == "data_file":
                table.data_file, table.data_span = x[1], x[2]
            elif isinstance(x, tuple) and x[0] == "belongs":
                table.belongs, table.belongs_span = x[1], x[2]
        return table

    def belongs(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str, ast.Span]:
        return ("belongs", str(c[1]), self._span(c[1]))

    def table_file(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str, ast.Span]:
        return ("data_file", _unquote(c[0]), self._span(c[0]))

    def column(self, meta: LarkMeta, c: list[Any]) -> ast.Column:
        called = _unquote(c[2]) if len(c) > 2 and c[2] is not None else None
        return ast.Column(
            span=self._span(meta), name=str(c[0]), type=c[1] if len(c) > 1 else None, called=called
        )

    def type_ref(self, meta: LarkMeta, c: list[Token]) -> ast.TypeRef:
        return ast.TypeRef(span=self._span(meta), name=str(c[0]), optional=c[1] is not None)

    def row(self, meta: LarkMeta, c: list[tuple[Any, bool]]) -> ast.Row:
        return ast.Row(
            span=self._span(meta),
            cells=[v for v, _ in c],
            names=[n for _, n in c],
            cell_columns=self._cell_columns(meta),
        )

    def _cell_columns(self, meta: LarkMeta) -> list[tuple[int, int]]:
        """Where each cell of a row starts and ends (1-based columns, end excluded): the row's text
        split at the commas outside quoted texts. A row is one line."""
        if getattr(meta, "empty", True) or meta.line > len(self.lines):
            return []
        text = self.lines[meta.line - 1][meta.column - 1 : meta.end_column - 1]
        cuts, quoted, escaped = [-1], False, False
        for i, ch in enumerate(text):
            if escaped:
                escaped = False
            elif quoted and ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = not quoted
            elif ch == "," and not quoted:
                cuts.append(i)
        cuts.append(len(text))
        out = []
        for before, after in pairwise(cuts):
            cell = text[before + 1 : after]
            start = before + 1 + len(cell) - len(cell.lstrip())
            out.append((meta.column + start, meta.column + start + len(cell.strip())))
        return out

    def cell_name(self, meta: LarkMeta, c: list[Token]) -> tuple[Any, bool]:
        return (str(c[0]), True)

    def cell_int(self, meta: LarkMeta, c: list[Token]) -> tuple[Any, bool]:
        return (_int(c[0]), False)

    def cell_neg(self, meta: LarkMeta, c: list[Token]) -> tuple[Any, bool]:
        return (-_int(c[0]), False)

    def cell_text(self, meta: LarkMeta, c: list[Token]) -> tuple[Any, bool]:
        return (_unquote(c[0]), False)

    def cell_yes(self, meta: LarkMeta, c: list[Token]) -> tuple[Any, bool]:
        return (True, False)

    def cell_no(self, meta: LarkMeta, c: list[Token]) -> tuple[Any, bool]:
        return (False, False)

    def cell_empty(self, meta: LarkMeta, c: list[Token]) -> tuple[Any, bool]:
        return (None, False)

    def piece_decl(self, meta: LarkMeta, c: list[Any]) -> ast.PieceDecl:
        rest, metas = self._split_meta(c)
        node = ast.PieceDecl(span=self._span(meta), name=str(rest[0]), zone=rest[2], meta=metas)
        return _counted(node, rest[1])

    def component_decl(self, meta: LarkMeta, c: list[Any]) -> ast.ComponentDecl:
        rest, metas = self._split_meta(c)
        node = ast.ComponentDecl(span=self._span(meta), name=str(rest[0]), meta=metas)
        return _counted(node, rest[1])

    def count_each(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str]:
        return ("each", str(c[0]))

    def count_per_player(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("per_player", c[0])

    def count_per_row(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any, str]:
        return ("per_row", c[0], str(c[1]))

    def count_shared(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("shared", c[0])

    def zone_decl(self, meta: LarkMeta, c: list[Any]) -> ast.ZoneDecl:
        rest, metas = self._split_meta(c)
        per = str(rest[1]) if rest[1] is not None else None
        flags = [str(tok) for tok in rest[2:]]
        return ast.ZoneDecl(span=self._span(meta), name=str(rest[0]), per=per, flags=flags, meta=metas)

    # ------------------------------------------------------------ carried state, sequences of games

    def carry_decl(self, meta: LarkMeta, c: list[Any]) -> ast.CarryDecl:
        rest, metas = self._split_meta(c)
        per = str(rest[1]) if rest[1] is not None else None
        return ast.CarryDecl(span=self._span(meta), name=str(rest[0]), per=per, condition=rest[2], meta=metas)

    def sequence_decl(self, meta: LarkMeta, c: list[Any]) -> ast.SequenceDecl:
        rest, metas = self._split_meta(c)
        games = [g for g in rest[1:] if isinstance(g, ast.SequenceGame)]
        return ast.SequenceDecl(span=self._span(meta), name=str(rest[0]), games=games, meta=metas)

    def sequence_game(self, meta: LarkMeta, c: list[Any]) -> ast.SequenceGame:
        return ast.SequenceGame(span=self._span(meta), options=[o for o in c if o is not None])

    def sequence_option(self, meta: LarkMeta, c: list[Any]) -> tuple[str, ast.Cell]:
        return (str(c[0]), c[1][0])

    # ------------------------------------------------------------

    def counter_decl(self, meta: LarkMeta, c: list[Any]) -> ast.CounterDecl:
        rest, metas = self._split_meta(c)
        return ast.CounterDecl(
            span=self._span(meta), name=str(rest[0]), per_player=rest[1] is not None, meta=metas
        )

    def counter_per(self, meta: LarkMeta, c: list[Any]) -> bool:
        return True

    def var_per(self, meta: LarkMeta, c: list[Any]) -> tuple[Any, Any]:
        return (c[0], c[1])

    def var_decl(self, meta: LarkMeta, c: list[Any]) -> ast.VarDecl:
        rest, metas = self._split_meta(c)
        name, type_, init, owners, within, bookkeeping = rest
        per, by = owners if owners is not None else (None, None)
        return ast.VarDecl(
            span=self._span(meta),
            name=str(name),
            type=type_,
            init=init,
            per=str(per) if per is not None else None,
            by=str(by) if by is not None else None,
            within=within,
            bookkeeping=bookkeeping is not None,
            meta=metas,
        )

    def map_decl(self, meta: LarkMeta, c: list[Any]) -> ast.MapDecl:
        rest, metas = self._split_meta(c)
        per = str(rest[1]) if rest[1] is not None else None
        node = ast.MapDecl(span=self._span(meta), name=str(rest[0]), per=per, meta=metas)
        for field in rest[2:]:
            if field[0] == "nodes":
                node.nodes, node.at = field[1], field[2]
            elif field[0] == "grid":
                node.grid, node.block, node.faces = field[1], field[2], field[4]
                if field[3] is not None:
                    node.outline, node.size = field[3]
            else:
                node.edges, node.edge_from, node.edge_to = field[1], field[2], field[3]
        return node

    def map_grid(
        self, meta: LarkMeta, c: list[Any]
    ) -> tuple[str, str, int, tuple[str, list[ast.Expr]] | None, str | None]:
        return (
            "grid",
            str(c[0]),
            int(c[1]) if c[1] is not None else 1,
            c[2],
            str(c[3]) if c[3] is not None else None,
        )

    def grid_by(self, meta: LarkMeta, c: list[ast.Expr]) -> tuple[str, list[ast.Expr]]:
        return ("by", list(c))

    def grid_hexagon(self, meta: LarkMeta, c: list[ast.Expr]) -> tuple[str, list[ast.Expr]]:
        return ("hexagon", list(c))

    def movement_decl(self, meta: LarkMeta, c: list[Any]) -> ast.MovementDecl:
        rest, metas = self._split_meta(c)
        node = ast.MovementDecl(span=self._span(meta), name=str(rest[0]), params=rest[1] or [], meta=metas)
        for field in rest[2:]:
            match field:
                case ("steps" | "straight" | "backtracks") as key, value:
                    setattr(node, key, value)
                case "step", var, places:
                    node.step_var, node.step = var, places
                case "through", var, cond:
                    node.through_var, node.through = var, cond
                case "ends", var, cond:
                    node.ends_var, node.ends = var, cond
        return node

    def mv_steps(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("steps", c[0])

    def mv_step(self, meta: LarkMeta, c: list[Any]) -> tuple[str, str, Any]:
        return ("step", str(c[0]), c[1])

    def mv_straight(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("straight", c[0])

    def mv_backtracks(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("backtracks", c[0])

    def mv_through(self, meta: LarkMeta, c: list[Any]) -> tuple[str, str, Any]:
        return ("through", str(c[0]), c[1])

    def mv_ends(self, meta: LarkMeta, c: list[Any]) -> tuple[str, str, Any]:
        return ("ends", str(c[0]), c[1])

    def map_nodes(self, meta: LarkMeta, c: list[Any]) -> tuple[str, str, list[ast.Expr]]:
        return ("nodes", str(c[0]), [c[1], c[2]] if c[1] is not None else [])

    def map_edges(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str, str, str]:
        return ("edges", str(c[0]), str(c[1]), str(c[2]))

    def rule_decl(self, meta: LarkMeta, c: list[Any]) -> ast.RuleDecl:
        name, params, body = c
        metas = [s for s in body if isinstance(s, ast.Meta)]
        return ast.RuleDecl(span=self._span(meta), name=str(name), params=params or [], body=body, meta=metas)

    def params(self, meta: LarkMeta, c: list[ast.Param]) -> list[ast.Param]:
        return c

    def param(self, meta: LarkMeta, c: list[Any]) -> ast.Param:
        return ast.Param(span=self._span(meta), name=str(c[0]), type=c[1])

    def value_decl(self, meta: LarkMeta, c: list[Any]) -> ast.ValueDecl:
        rest, metas = self._split_meta(c)
        name, params, expr = rest
        return ast.ValueDecl(
            span=self._span(meta), name=str(name), params=params or [], expr=expr, meta=metas
        )

    def trigger_decl(self, meta: LarkMeta, c: list[Any]) -> ast.TriggerDecl:
        kind, piece_var, loc_var, cond, body = c
        return ast.TriggerDecl(
            span=self._span(meta),
            kind=str(kind),
            piece_var=str(piece_var),
            loc_var=str(loc_var),
            cond=cond,
            body=body,
            meta=[s for s in body if isinstance(s, ast.Meta)],
        )

    def setup_decl(self, meta: LarkMeta, c: list[Any]) -> ast.SetupDecl:
        return ast.SetupDecl(
            span=self._span(meta), body=c[0], meta=[s for s in c[0] if isinstance(s, ast.Meta)]
        )

    def play_decl(self, meta: LarkMeta, c: list[Any]) -> ast.PlayDecl:
        return ast.PlayDecl(
            span=self._span(meta), body=c[0], meta=[s for s in c[0] if isinstance(s, ast.Meta)]
        )

    def score_decl(self, meta: LarkMeta, c: list[Any]) -> ast.ScoreDecl:
        rest, metas = self._split_meta(c)
        return ast.ScoreDecl(
            span=self._span(meta),
            kind=str(rest[0]),  # type: ignore[arg-type]  # the grammar's word: pydantic checks it
            var=str(rest[1]),
            expr=rest[2],
            meta=metas,  # type: ignore[arg-type]
        )

    def style_decl(self, meta: LarkMeta, c: list[Any]) -> ast.StyleDecl:
        rest, metas = self._split_meta(c)
        return ast.StyleDecl(span=self._span(meta), name=str(rest[0]), preferences=rest[1:], meta=metas)

    # ------------------------------------------------------------ seats the rules play, and teams

    def automated_decl(self, meta: LarkMeta, c: list[Any]) -> ast.AutomatedDecl:
        rest, metas = self._split_meta(c)
        style = None if rest[1] is None else str(rest[1])
        return ast.AutomatedDecl(span=self._span(meta), name=str(rest[0]), style=style, meta=metas)

    def teams_decl(self, meta: LarkMeta, c: list[Any]) -> ast.TeamsDecl:
        rest, metas = self._split_meta(c)
        low = _int(rest[0])
        high = low if rest[1] is None else _int(rest[1])
        return ast.TeamsDecl(span=self._span(meta), smallest=low, largest=high, meta=metas)

    def preference(self, meta: LarkMeta, c: list[Any]) -> ast.Preference:
        target, rule, var = c[1]
        parts = dict(x for x in c[2:] if x is not None)
        return ast.Preference(
            span=self._span(meta),
            avoid=str(c[0]) == "avoid",
            target=target,
            rule=rule,
            var=var,
            cond=parts.get("where"),
            weight=parts.get("weight"),
        )

    def target_option(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str, str | None]:
        return ("option", str(c[0]), str(c[1]))

    def target_yes(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str, str | None]:
        return ("yes", str(c[0]), None)

    def target_pass(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str, str | None]:
        return ("pass", str(c[0]), None)

    def target_offer(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str, str | None]:
        return ("offer", str(c[0]), None)

    def weight(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("weight", c[0])

    def example_decl(self, meta: LarkMeta, c: list[Any]) -> ast.Example:
        node = ast.Example(span=self._span(meta), name=_unquote(c[0]))
        for item in c[1:]:
            if isinstance(item, ast.Meta):
                node.meta.append(item)
            else:
                for field, value in item if isinstance(item, list) else [item]:
                    setattr(node, field, value)
        return node

    def ex_players(self, meta: LarkMeta, c: list[Token | None]) -> list[tuple[str, Any]]:
        count, *names = c
        assert count is not None
        return [("players", _int(count)), ("seat_names", [_unquote(t) for t in names if t is not None])]

    def ex_teams(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str]:
        return ("teams", _unquote(c[0]))

    def ex_seed(self, meta: LarkMeta, c: list[Token]) -> tuple[str, int]:
        return ("seed", _int(c[0]))

    def ex_given(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("given", c[0])

    def ex_do(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("do", c[0])

    def ex_from(self, meta: LarkMeta, c: list[Any]) -> tuple[str, bool]:
        return ("from_setup", True)

    def ex_play(self, meta: LarkMeta, c: list[Any]) -> tuple[str, bool]:
        return ("plays", True)

    @staticmethod
    def _script(c: list[Token]) -> list[int | str]:
        return [_int(t) if t.type == "INT" else _unquote(t) for t in c]

    def ex_choices(self, meta: LarkMeta, c: list[Token | None]) -> list[tuple[str, Any]]:
        tokens = [t for t in c if t is not None]
        first = bool(tokens) and tokens[-1].type == "FIRST"
        return [("choices", self._script(tokens[:-1] if first else tokens)), ("then_first", first)]

    def ex_outcomes(self, meta: LarkMeta, c: list[Token]) -> tuple[str, Any]:
        return ("outcomes", self._script(c))

    def ex_expect(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("expect", c)

    def ex_shows(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("shows", c)

    # -------------------------------------------------------------- variants

    def variant_decl(self, meta: LarkMeta, c: list[Any]) -> ast.VariantHeader:
        bases = [t for t in c[1:] if isinstance(t, Token) and t.type == "STRING"]
        head = ast.VariantHeader(span=self._span(meta), name=_unquote(c[0]), base=_unquote(bases[0]))
        head.combines = [_unquote(t) for t in bases[1:]]
        head.combines_spans = [self._span(t) for t in bases[1:]]
        self._header_fields(head, c[1 + len(bases) :])
        return head

    def replace_decl(self, meta: LarkMeta, c: list[Any]) -> ast.ReplaceDecl:
        return ast.ReplaceDecl(span=self._span(meta), decl=c[0])

    def replace_block(self, meta: LarkMeta, c: list[Any]) -> ast.ReplaceBlock:
        return ast.ReplaceBlock(span=self._span(meta), kind=str(c[0]), name=str(c[1]), body=c[2])  # type: ignore[arg-type]

    def remove_decl(self, meta: LarkMeta, c: list[Token]) -> ast.RemoveDecl:
        name = _unquote(c[1]) if c[1].type == "STRING" else str(c[1])  # a conflict's title
        return ast.RemoveDecl(span=self._span(meta), kind=str(c[0]), name=name)

    def reword_decl(self, meta: LarkMeta, c: list[Any]) -> ast.Reword:
        name = str(c[1]) if len(c) > 1 and isinstance(c[1], Token) else ""
        lines = [x for x in c if isinstance(x, ast.Meta)]
        return ast.Reword(span=self._span(meta), kind=str(c[0]), name=name, meta=lines)

    def insert_block(self, meta: LarkMeta, c: list[Any]) -> ast.InsertBlock:
        return ast.InsertBlock(
            span=self._span(meta),
            position=str(c[0]),  # type: ignore[arg-type]  # the grammar's words: pydantic checks them
            kind=str(c[1]),  # type: ignore[arg-type]
            name=str(c[2]),
            body=c[3],  # type: ignore[arg-type]
        )

    def extend_table(self, meta: LarkMeta, c: list[Any]) -> ast.ExtendTable:
        rows = [x for x in c[1:] if isinstance(x, ast.Row)]
        metas = [x for x in c[1:] if isinstance(x, ast.Meta)]
        return ast.ExtendTable(span=self._span(meta), name=str(c[0]), rows=rows, meta=metas)

    def change_table(self, meta: LarkMeta, c: list[Any]) -> ast.ChangeTable:
        patches = [x for x in c[1:] if not isinstance(x, ast.Meta)]
        metas = [x for x in c[1:] if isinstance(x, ast.Meta)]
        return ast.ChangeTable(span=self._span(meta), name=str(c[0]), patches=patches, meta=metas)

    def patch_cell(self, meta: LarkMeta, c: list[Any]) -> ast.SetCell:
        (value, is_name), value_span = c[2]
        return ast.SetCell(
            span=self._span(meta),
            key=str(c[0]),
            key_span=self._span(c[0]),
            column=str(c[1]),
            column_span=self._span(c[1]),
            value=value,
            is_name=is_name,
            value_span=value_span,
        )

    def patch_row(self, meta: LarkMeta, c: list[Any]) -> ast.ReplaceRow:
        return ast.ReplaceRow(span=self._span(meta), row=c[0])

    def patch_add_row(self, meta: LarkMeta, c: list[Any]) -> ast.AddRow:
        return ast.AddRow(span=self._span(meta), row=c[0])

    def patch_remove_row(self, meta: LarkMeta, c: list[Token]) -> ast.RemoveRow:
        return ast.RemoveRow(span=self._span(meta), key=str(c[0]), key_span=self._span(c[0]))

    def patch_add_column(self, meta: LarkMeta, c: list[Any]) -> ast.AddColumn:
        (value, is_name), value_span = c[1]
        return ast.AddColumn(
            span=self._span(meta), column=c[0], value=value, is_name=is_name, value_span=value_span
        )

    def patch_value(self, meta: LarkMeta, c: list[Any]) -> tuple[tuple[Any, bool], ast.Span]:
        """A cell of a table patch, and where it stands (a cell alone has no position)."""
        return c[0], self._span(meta)

    def extend_setup(self, meta: LarkMeta, c: list[Any]) -> ast.ExtendSetup:
        return ast.ExtendSetup(span=self._span(meta), body=c[0])

    # -------------------------------------------------------------- statements

    def block(self, meta: LarkMeta, c: list[Any]) -> list[Any]:
        return c

    def move_refs(self, meta: LarkMeta, c: list[Any]) -> ast.MoveRefs:
        return ast.MoveRefs(span=self._span(meta), pieces=c[0], dest=c[1])

    def move_count(self, meta: LarkMeta, c: list[Any]) -> ast.MoveCount:
        count, kind, which, owner, src, dest = c
        return ast.MoveCount(
            span=self._span(meta), count=count, kind=str(kind), which=which, owner=owner, src=src, dest=dest
        )

    def move_all(self, meta: LarkMeta, c: list[Any]) -> ast.MoveAll:
        kind, which, owner, src, dest = c
        return ast.MoveAll(
            span=self._span(meta), kind=str(kind), which=which, owner=owner, src=src, dest=dest
        )

    def set_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.SetStmt:
        return ast.SetStmt(span=self._span(meta), target=c[0], value=c[1])

    def swap_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Swap:
        return ast.Swap(span=self._span(meta), first=c[0], second=c[1])

    def add_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.AddStmt:
        return ast.AddStmt(span=self._span(meta), amount=c[0], target=c[1])

    def subtract_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.AddStmt:
        return ast.AddStmt(span=self._span(meta), amount=c[0], target=c[1], sign=-1)

    def let_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Let:
        return ast.Let(span=self._span(meta), name=str(c[0]), value=c[1])

    def shuffle_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(span=self._span(meta), zone=c[0])

    def draw_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Draw:
        return ast.Draw(span=self._span(meta), count=c[0], src=c[1], dest=c[2])

    def place_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Place:
        return ast.Place(span=self._span(meta), shape=c[0], map=c[1], at=c[2], over=c[3] is not None)

    def lift_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Lift:
        return ast.Lift(span=self._span(meta), layer=c[0])

    def shift_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Shift:
        return ast.Shift(span=self._span(meta), map=c[0], dq=c[1], dr=c[2])

    def end_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.EndGame:
        return ast.EndGame(span=self._span(meta))

    def log_stmt(self, meta: LarkMeta, c: list[Token]) -> ast.Log:
        return ast.Log(span=self._span(meta), parts=self._text_parts(c[0]))

    def reveal_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Reveal:
        return ast.Reveal(span=self._span(meta), pieces=c[0], to=c[1])

    def _text_parts(self, token: Token) -> list[str | ast.Expr]:
        """A text with `{expr}` parts: its words and its expressions, in order."""
        text = _unquote(token)
        parts: list[str | ast.Expr] = []
        pos = 0
        while pos < len(text):
            open_ = text.find("{", pos)
            if open_ < 0:
                parts.append(text[pos:])
                break
            close = text.find("}", open_)
            if close < 0:
                parts.append(text[pos:])
                break
            if open_ > pos:
                parts.append(text[pos:open_])
            parts.append(self.parse_expr(text[open_ + 1 : close], token))
            pos = close + 1
        return parts

    def tally_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Tally:
        return ast.Tally(span=self._span(meta), name=str(c[0]), player=c[1], amount=c[2])

    def call_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.CallStmt:
        return ast.CallStmt(span=self._span(meta), name=str(c[0]), args=c[1] or [])

    def if_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.If:
        first = ast.Branch(span=c[0].span, cond=c[0], body=c[1])
        branches = [first] + [
            ast.Branch(span=clause[1].span, cond=clause[1], body=clause[2]) for clause in c[2:-1]
        ]
        orelse = c[-1][1] if c[-1] is not None else []
        return ast.If(span=self._span(meta), branches=branches, orelse=orelse)

    def elif_clause(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any, Any]:
        return ("elif", c[0], c[1])

    def else_clause(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("else", c[0])

    def where(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("where", c[0])

    def chosen_by(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("chooser", c[0])

    def by(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("chooser", c[0])

    def prompt(self, meta: LarkMeta, c: list[Token]) -> tuple[str, str]:
        return ("prompt", _unquote(c[0]))

    def shown_at(self, meta: LarkMeta, c: list[Any]) -> tuple[str, Any]:
        return ("shown_at", c[0])

    @staticmethod
    def _opt(clause: tuple[str, Any] | None, default: Any = None) -> Any:
        """The value of an optional clause (`where ...`, `by ...`, `else: ...`), or the default."""
        return clause[1] if clause is not None else default

    def for_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.ForEach:
        var, seq, where, chooser, prompt, body = c
        return ast.ForEach(
            span=self._span(meta),
            var=str(var),
            seq=seq,
            cond=self._opt(where),
            chooser=self._opt(chooser),
            prompt=self._opt(prompt),
            body=body,
        )

    def repeat_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Repeat:
        return ast.Repeat(span=self._span(meta), count=c[0], body=c[1])

    def while_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.While:
        return ast.While(span=self._span(meta), cond=c[0], body=c[1])

    def choose_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Choose:
        may, var, seq, where, chooser, prompt, shown_at, body, orelse = c
        return ast.Choose(
            span=self._span(meta),
            optional=may is not None,
            var=str(var),
            seq=seq,
            cond=self._opt(where),
            chooser=self._opt(chooser),
            prompt=self._opt(prompt),
            shown_at=self._opt(shown_at),
            body=body,
            orelse=self._opt(orelse, []),
        )

    def ask_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Ask:
        _may, prompt, chooser, body, orelse = c
        return ast.Ask(
            span=self._span(meta),
            prompt=_unquote(prompt),
            chooser=self._opt(chooser),
            body=body,
            orelse=self._opt(orelse, []),
        )

    def random_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Random:
        label = _unquote(c[0]) if c[0] is not None else None
        outcomes = [x for x in c if isinstance(x, ast.Outcome)]
        return ast.Random(span=self._span(meta), label=label, outcomes=outcomes)

    def outcome_chance(self, meta: LarkMeta, c: list[Any]) -> ast.Outcome:
        return ast.Outcome(span=self._span(meta), name=str(c[0]), weight=c[1], body=c[2])

    def outcome_otherwise(self, meta: LarkMeta, c: list[Any]) -> ast.Outcome:
        return ast.Outcome(span=self._span(meta), name=str(c[0]), body=c[1])

    def pick_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Pick:
        var, seq, where, body, orelse = c
        return ast.Pick(
            span=self._span(meta),
            var=str(var),
            seq=seq,
            cond=self._opt(where),
            body=body,
            orelse=self._opt(orelse, []),
        )

    def turn_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Turn:
        return ast.Turn(span=self._span(meta), player=c[0], body=c[1])

    def offer_stmt(self, meta: LarkMeta, c: list[Any]) -> ast.Offer:
        rule, args, player, where, label, body = c
        return ast.Offer(
            span=self._span(meta),
            rule=str(rule),
            args=args or [],
            player=player,
            cond=self._opt(where),
            label=_unquote(label) if label is not None else None,
            body=body,
        )

    def named_block(self, meta: LarkMeta, c: list[Any]) -> ast.Named:
        return ast.Named(span=self._span(meta), kind=str(c[0]), name=str(c[1]), body=c[2])  # type: ignore[arg-type]

    # -------------------------------------------------------------- expressions

    def int_(self, meta: LarkMeta, c: list[Token]) -> ast.Num:
        return ast.Num(span=self._span(meta), value=_int(c[0]))

    def text_(self, meta: LarkMeta, c: list[Token]) -> ast.Text:
        return ast.Text(span=self._span(meta), value=_unquote(c[0]))

    def yes(self, meta: LarkMeta, c: list[Any]) -> ast.Bool:
        return ast.Bool(span=self._span(meta), value=True)

    def no(self, meta: LarkMeta, c: list[Any]) -> ast.Bool:
        return ast.Bool(span=self._span(meta), value=False)

    def none_(self, meta: LarkMeta, c: list[Any]) -> ast.NoneLit:
        return ast.NoneLit(span=self._span(meta))

    def name(self, meta: LarkMeta, c: list[Token]) -> ast.Name:
        return ast.Name(span=self._span(meta), id=str(c[0]))

    def call(self, meta: LarkMeta, c: list[Any]) -> ast.Call:
        return ast.Call(span=self._span(meta), func=str(c[0]), args=c[1] or [])

    def args(self, meta: LarkMeta, c: list[Any]) -> list[Any]:
        return c

    def attr(self, meta: LarkMeta, c: list[Any]) -> ast.Attr:
        return ast.Attr(span=self._span(meta), obj=c[0], name=str(c[1]))

    def index(self, meta: LarkMeta, c: list[Any]) -> ast.Index:
        return ast.Index(span=self._span(meta), obj=c[0], index=c[1])

    def neg(self, meta: LarkMeta, c: list[Any]) -> ast.Unary:
        return ast.Unary(span=self._span(meta), op="-", operand=c[0])

    def not_(self, meta: LarkMeta, c: list[Any]) -> ast.Unary:
        return ast.Unary(span=self._span(meta), op="not", operand=c[0])

    def _binary(self, meta: LarkMeta, op: str, left: Any, right: Any) -> ast.Binary:
        return ast.Binary(span=self._span(meta), op=op, left=left, right=right)  # type: ignore[arg-type]

    def binop(self, meta: LarkMeta, c: list[Any]) -> ast.Binary:
        return self._binary(meta, str(c[1]), c[0], c[2])

    def compare(self, meta: LarkMeta, c: list[Any]) -> ast.Binary:
        return self._binary(meta, str(c[1]), c[0], c[2])

    def or_(self, meta: LarkMeta, c: list[Any]) -> ast.Binary:
        return self._binary(meta, "or", c[0], c[1])

    def and_(self, meta: LarkMeta, c: list[Any]) -> ast.Binary:
        return self._binary(meta, "and", c[0], c[1])

    def in_(self, meta: LarkMeta, c: list[Any]) -> ast.Binary:
        return self._binary(meta, "in", c[0], c[1])

    def not_in(self, meta: LarkMeta, c: list[Any]) -> ast.Binary:
        return self._binary(meta, "not in", c[0], c[1])

    def range_(self, meta: LarkMeta, c: list[Any]) -> ast.Binary:
        return self._binary(meta, "..", c[0], c[1])

    def cond_expr(self, meta: LarkMeta, c: list[Any]) -> ast.IfExpr:
        return ast.IfExpr(span=self._span(meta), cond=c[0], then=c[1], orelse=c[2])

    def list_(self, meta: LarkMeta, c: list[Any]) -> ast.ListLit:
        return ast.ListLit(span=self._span(meta), items=[x for x in c if x is not None])

    def filter_(self, meta: LarkMeta, c: list[Any]) -> ast.Filter:
        return ast.Filter(span=self._span(meta), var=str(c[0]), seq=c[1], cond=c[2])

    def ranked(self, meta: LarkMeta, c: list[Any]) -> ast.Filter:
        span = self._span(meta)
        cond = c[2][1] if c[2] is not None else ast.Bool(span=span, value=True)  # `where`: (word, cond)
        return ast.Filter(span=span, var=str(c[0]), seq=c[1], cond=cond, keys=c[3:])

    def map_(self, meta: LarkMeta, c: list[Any]) -> ast.MapComp:
        cond = c[3][1] if len(c) > 3 and c[3] is not None else None
        return ast.MapComp(span=self._span(meta), expr=c[0], var=str(c[1]), seq=c[2], cond=cond)
