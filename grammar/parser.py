"""Source text -> AST, with syntax errors in the user's words.

Lark (LALR, contextual lexer) does the parsing; an Indenter turns indentation into block tokens.
Lark's failures are caught here and turned into diagnostics that say what was expected in words a
designer knows ("a name", "an indented block"), never bare token names.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark import __version__ as lark_version
from lark.exceptions import VisitError
from lark.indenter import DedentError, Indenter

from meeple import codes
from meeple.diagnostics import Diagnostic, RulesError
from meeple.grammar import ast
from meeple.grammar.transformer import Builder, NumberTooLong
from meeple.limits import MAX_DEPTH, MAX_DIGITS

GRAMMAR = Path(__file__).with_name("meeple.lark")


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def cache_file() -> str | bool:
    """Where Lark keeps the parser's tables between runs (building them takes about a second, and
    every command starts by parsing), or False for no cache.

    Lark reads its cache with `pickle`, which runs whatever code the file holds, so the file must
    be one nobody else can have written: it lives in a folder of this user's cache (`meeple/` in
    $XDG_CACHE_HOME or ~/.cache) that meeple makes readable by its owner only, and both the folder
    and the file must be this user's, not links, and writable by nobody else. Otherwise (and on
    systems without user ids) there is no cache, only a slower start."""
    if not hasattr(os, "getuid"):
        return False
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "meeple"
    file = folder / f"parser-lark-{lark_version}.cache"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return False
        if info.st_mode & 0o077:
            os.chmod(folder, 0o700)  # ours, but left open: closed before anything is read from it
        info = file.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
            return False
    except FileNotFoundError:
        pass  # no file yet: Lark writes it
    except OSError:
        return False
    return str(file)


@cache
def _lark() -> Lark:
    """The parser, its tables kept between runs where that is safe (`cache_file`)."""
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        postlex=_Indenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expr"],
        cache=cache_file(),
    )


# What each token is called in an error message.
_WORDS = {
    "NAME": "a name",
    "INT": "a whole number",
    "STRING": 'a quoted text ("...")',
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the indented block",
    "$END": "the end of the file",
    "COMP_OP": "a comparison (==, !=, <, <=, >, >=)",
    "ADD_OP": "+ or -",
    "MUL_OP": "*, // or %",
    "META_KIND": "cites, text, says, assume or aside",
    "CONFLICT": "conflict",
    "CALLED": "called",
    "ZONE_FLAG": "public, private, hidden or ordered",
    "BLOCK_KIND": "phase or step",
    "SCORE_KIND": "score or tiebreak",
    "MAY": "may",
    "OPTIONAL": "?",
}


def _describe(terminal: str) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    for term in _lark().terminals:
        if term.name == terminal and term.pattern.type == "str":
            return f"'{term.pattern.value}'"
    return terminal.lower()


def _expected(names: set[str]) -> str:
    words = sorted({_describe(n) for n in names if not n.startswith("__")})
    if not words:
        return "something else"
    if len(words) > 8:
        words = [*words[:8], "..."]
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def _found(token: Token) -> str:
    if token.type == "_NL":
        return "the end of the line"
    if token.type == "_INDENT":
        return "an indented line"
    if token.type == "_DEDENT":
        return "the end of an indented block"
    if token.type == "$END":
        return "the end of the file"
    return f"'{token}'"


def _syntax_diagnostic(err: UnexpectedInput, file: str, source: str) -> Diagnostic:
    from meeple.grammar.mistakes import common_mistake  # loaded on a syntax error only

    better = common_mistake(err, source, _lark)  # (message, hint) for a common mistake
    line, column = getattr(err, "line", 0) or 0, getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        char = source[pos] if pos is not None and pos < len(source) else "?"
        message = f"unexpected character '{char}'"
        hint = "names use letters, digits and _; texts go in double quotes"
        if char == "\t":
            hint = "indent with spaces"
        message, hint = better or (message, hint)
        return Diagnostic(file, line, column, "error", codes.BAD_CHARACTER, message, hint)
    if isinstance(err, UnexpectedEOF):
        lines = source.rstrip("\n").split("\n")
        return Diagnostic(
            file,
            len(lines),
            len(lines[-1]) + 1,
            "error",
            codes.UNEXPECTED_END,
            f"the file ends too early: expected {_expected(set(err.expected))}",
        )
    assert isinstance(err, UnexpectedToken)
    token = err.token
    if token.type in {"_DEDENT", "$END"} or not line:
        # Block tokens borrow the position of the next real token; point at the line end before it.
        line = token.line or source.rstrip("\n").count("\n") + 1
        column = token.column or 1
    elif token.type == "_INDENT":
        # An indent borrows the position of the line break before it: point at the indented line.
        line, column = _next_code_line(source, line) or (line, column)
    wanted = set(err.accepts or err.expected)  # accepts: what the parser takes there, after reductions
    expected = _expected(wanted)
    message = f"expected {expected}, found {_found(token)}"
    hint = ""
    if token.type == "_INDENT":
        hint = "this line is indented more than the line before; only a line ending in ':' opens a block"
    elif "_INDENT" in wanted:
        hint = "a line ending in ':' must be followed by an indented block"
    elif token.type == "_NL" and '":"' not in expected and "':'" in expected:
        hint = "did you forget the ':' at the end of the line?"
    if better is not None and (better[0] or not hint):  # no message: only a hint, if there is none
        message, hint = better[0] or message, better[1]
    return Diagnostic(
        file, line, column, "error", codes.UNEXPECTED_WORD, message, hint, end_column=column + len(str(token))
    )


def _next_code_line(source: str, after: int) -> tuple[int, int] | None:
    """(line, column) of the first character of the first line after line `after` that is not
    blank or a comment."""
    for number, text in enumerate(source.split("\n")[after:], start=after + 1):
        stripped = text.rstrip("\r").lstrip(" \t")
        if stripped and not stripped.startswith("#"):
            return number, len(text) - len(stripped) + 1
    return None


def _dedent_diagnostic(file: str, source: str) -> Diagnostic:
    """Lark's DedentError carries no position: find the first line that closes no open block."""
    stack = [0]
    for number, text in enumerate(source.split("\n"), start=1):
        stripped = text.rstrip("\r").lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        lead = text[: len(text) - len(stripped)]
        indent = lead.count(" ") + lead.count("\t") * _Indenter.tab_len  # as the indenter counts
        if indent > stack[-1]:
            stack.append(indent)
            continue
        while indent < stack[-1]:
            stack.pop()
        if indent != stack[-1]:
            return Diagnostic(
                file,
                number,
                len(lead) + 1,
                "error",
                codes.BAD_INDENT,
                "this line's indentation matches no enclosing block",
                "indent it like the block it belongs to",
            )
    return Diagnostic(file, 1, 1, "error", codes.BAD_INDENT, "inconsistent indentation")


def _too_deep(tree: Tree[Token], file: str) -> Diagnostic | None:
    """The first place the parse tree goes deeper than MAX_DEPTH, as a diagnostic. Measured
    without recursion, before anything recursive (the AST builder, analysis, the compiler) walks
    the tree, so that a hostile file gets a located error and not Python's RecursionError."""
    stack: list[tuple[Tree[Token], int, Tree[Token]]] = [(tree, 1, tree)]
    while stack:
        node, depth, place = stack.pop()
        if str(node.data).endswith(("_stmt", "_decl")):
            place = node  # the statement or declaration it is in: where the caret goes
        if depth > MAX_DEPTH:
            meta = place.meta
            line, column = (meta.line, meta.column) if not meta.empty else (1, 1)
            return Diagnostic(
                file,
                line,
                column,
                "error",
                codes.NESTED_TOO_DEEP,
                f"this is nested too deeply: more than {MAX_DEPTH} levels of blocks, brackets or operators",
                "give a part a name of its own: a 'let', a 'value' or a 'rule'",
            )
        stack.extend((child, depth + 1, place) for child in node.children if isinstance(child, Tree))
    return None


def _too_long(err: NumberTooLong, file: str) -> Diagnostic:
    token = err.token
    message = f"this number has {len(str(token))} digits: no game needs more than {MAX_DIGITS}"
    return Diagnostic(file, token.line or 0, token.column or 0, "error", codes.TOO_MANY_DIGITS, message)


def parse(source: str, file: str = "<rules>") -> ast.Module:
    """Parse a whole `.rules` text. Raises RulesError (with diagnostics) on a syntax error.

    The text is parsed declaration by declaration (`_chunks`), each part's nodes kept by its text
    (`_parsed_part`, as if it stood at the first line): a text parsed again after an edit (an
    editor's, as one types) parses only the declarations that changed, and copies the others
    to where they stand now. The module returned is the caller's own, to change as it likes."""
    source = source.removeprefix("\ufeff")  # a byte-order mark some editors write is not text
    if not source.endswith("\n"):
        source += "\n"
    parts = _chunks(source)
    items: list[ast.Decl | ast.Meta] = []
    for number, (first, text) in enumerate(parts):
        try:
            items += _copied(_parsed_part(text, file), {}, first - 1)  # a part may be kept twice
        except RulesError as err:
            # The error a parse of the whole text gives: one inside the part is the same there
            # (the text before the part ends a declaration, and the whole text reads the same
            # words up to it); a part cut short may be an error only at the next part's first
            # word, and the rest of the text is read, from this part on.
            if not isinstance(err, _CutShort):
                moved = [replace(d, line=d.line + first - 1) if d.line else d for d in err.diagnostics]
                raise RulesError(moved, {file: source}) from None
            found: RulesError = err
            try:
                _parse_part("\n" * (first - 1) + "".join(t for _, t in parts[number:]), file)
            except RulesError as whole:
                found = whole
            raise RulesError(found.diagnostics, {file: source}) from None
    module = ast.Module(file=file, source=source, decls=[], span=ast.Span(file=file, line=1, column=1))
    for item in items:
        if isinstance(item, ast.Meta):
            module.meta.append(item)
        else:
            module.decls.append(item)
    return module


def copied(module: ast.Module) -> ast.Module:
    """A copy of a module for the caller to change, made as `parse` copies its kept parts: a
    variant is applied to its base game's copy, and each game of a sequence starts from a copy of
    the file as read. pydantic's `model_copy(deep=True)` (`copy.deepcopy`) took twice as long:
    `meeple.load` and `meeple.check` of the longest bundled variant (it combines two variants of a
    variant, and is a sequence of five games) in a fresh process, three runs each in turn: 9.1,
    9.2, 9.3 s of CPU with it, 6.8, 7.7, 7.6 s with this (load 4 to 7)."""
    out: ast.Module = _copied(module, {}, 0)
    return out


def _copied(value: Any, done: dict[int, Any], lines: int) -> Any:
    """A copy of parsed nodes, for a caller to change, `lines` lines further down the text: each
    node and list anew (a node the tree holds in two places, such as a conflict's quotes, copied
    once and held in both, as `copy.deepcopy` does), each span moved, what cannot change (a text,
    a number) shared. `deepcopy` took half again as long, the larger part of checking a long
    file again as one types; a node is made as pydantic's own `__copy__` makes one (its fields
    are the parsed node's, already valid), without `model_construct`'s work on defaults, which
    was half of the copy's time. Nodes are at most MAX_DEPTH deep (`_too_deep`): the recursion
    is bounded."""
    if type(value) in _SHARED:
        return value  # a text, a number, yes or no, or none
    if id(value) in done:
        return done[id(value)]
    if isinstance(value, ast.Span):
        if not lines or not value.line:  # where it stood, or nowhere (a span of no text)
            return value
        moved = {"line": value.line + lines, "end_line": value.end_line + lines if value.end_line else 0}
        return _made(ast.Span, value.__dict__ | moved, value.__pydantic_fields_set__)
    if isinstance(value, ast.Node):
        fields = {name: _copied(item, done, lines) for name, item in value.__dict__.items()}
        out: Any = _made(type(value), fields, value.__pydantic_fields_set__)
    elif isinstance(value, list):
        out = [_copied(item, done, lines) for item in value]
    elif isinstance(value, dict):
        out = {key: _copied(item, done, lines) for key, item in value.items()}
    elif isinstance(value, tuple):
        out = tuple(_copied(item, done, lines) for item in value)
    else:
        return value  # anything else a node holds is as unchangeable as a text
    done[id(value)] = out
    return out


_SHARED = frozenset({str, int, bool, float, type(None)})  # what a copy shares: it cannot change
_set = object.__setattr__  # past pydantic's own __setattr__, as its `__copy__` does


def _made(kind: type[ast.Node] | type[ast.Span], fields: dict[str, Any], fields_set: set[str]) -> Any:
    """A node of `kind` with these fields, as pydantic's `BaseModel.__copy__` makes one: nodes
    have no extra or private attributes."""
    out = kind.__new__(kind)
    _set(out, "__dict__", fields)
    _set(out, "__pydantic_fields_set__", set(fields_set))
    _set(out, "__pydantic_extra__", None)
    _set(out, "__pydantic_private__", None)
    return out


# A part of a text (`_chunks`): a string, a comment, or a bracket, as far as it matters where the
# text may be cut.
_PART_LEXEME = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[()\[\]]')


def _chunks(source: str) -> list[tuple[int, str]]:
    """A text cut where a top-level declaration starts (a line whose first character is neither
    a space, a tab, a comment nor the end of a line, outside brackets and after no `\\`): each
    part with its first line. Parts keep their line ends, so that they join into the text."""
    lines = source.split("\n")[:-1]  # the text ends with a line end
    out: list[tuple[int, str]] = []
    start, depth, continued = 0, 0, False
    for number, line in enumerate(lines):
        if (
            number > start
            and depth == 0
            and not continued
            and line[:1] not in ("", " ", "\t", "#", "\f", "\r")
        ):
            out.append((start + 1, "".join(f"{text}\n" for text in lines[start:number])))
            start = number
        end = len(line.rstrip(" \t\f\r")) - 1  # where a `\\` that continues the line stands
        continued = line[end:].startswith("\\")
        for lexeme in _PART_LEXEME.finditer(line):
            if lexeme.group() in "()[]":
                depth = max(0, depth + (1 if lexeme.group() in "([" else -1))
            elif lexeme.start() <= end < lexeme.end():
                continued = False  # the `\\` is in a text or a comment
    out.append((start + 1, "".join(f"{text}\n" for text in lines[start:])))
    return out


class _CutShort(RulesError):
    """A part of a text ended where a declaration was not finished (`parse`)."""


@lru_cache(maxsize=4096)
def _parsed_part(text: str, file: str) -> tuple[ast.Decl | ast.Meta, ...]:
    """The declarations of part of a file, as if it stood at its first line (kept: never change
    them; `parse` copies them to where the part stands)."""
    return _parse_part(text, file)


def _parse_part(padded: str, file: str) -> tuple[ast.Decl | ast.Meta, ...]:
    """The declarations of a text (a whole file, part of one, or part of one after as many line
    ends as there are lines before it, for its errors' lines)."""
    try:
        tree = _lark().parse(padded, start="start")
    except UnexpectedInput as err:
        ended = isinstance(err, UnexpectedEOF) or (
            isinstance(err, UnexpectedToken) and err.token.type == "$END"
        )
        raised = _CutShort if ended else RulesError
        raise raised([_syntax_diagnostic(err, file, padded)], {file: padded}) from None
    except DedentError:
        raise RulesError([_dedent_diagnostic(file, padded)], {file: padded}) from None
    if (deep := _too_deep(tree, file)) is not None:
        raise RulesError([deep], {file: padded})

    def parse_expr(text: str, where: Token) -> ast.Expr:
        shown = text if len(text) <= 40 else text[:37] + "..."
        line, column = where.line or 0, where.column or 0
        try:
            sub = _lark().parse(text, start="expr")
        except UnexpectedInput:
            message = f"cannot read '{{{shown}}}' in this text as an expression"
            raise RulesError(
                [Diagnostic(file, line, column, "error", codes.BAD_TEXT_EXPRESSION, message)], {file: padded}
            ) from None
        if (deep := _too_deep(sub, file)) is not None:
            raise RulesError([replace(deep, line=line, column=column)], {file: padded})
        try:
            expr: ast.Expr = Builder(file, parse_expr).transform(sub)
        except VisitError as err:
            if not isinstance(err.orig_exc, NumberTooLong):
                raise
            raise RulesError(
                [replace(_too_long(err.orig_exc, file), line=line, column=column)], {file: padded}
            ) from None
        return _reposition(expr, where, file)

    try:
        items: list[ast.Decl | ast.Meta] = Builder(file, parse_expr, padded).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, RulesError):
            raise err.orig_exc from None
        if isinstance(err.orig_exc, NumberTooLong):
            raise RulesError([_too_long(err.orig_exc, file)], {file: padded}) from None
        raise
    return tuple(items)


def _reposition(expr: ast.Expr, where: Token, file: str) -> ast.Expr:
    """An expression inside a text gets the text's position: its own would count from the text."""
    span = ast.Span(file=file, line=where.line or 0, column=where.column or 0)
    for node in list(expr.walk()):
        node.span = span
    return expr
