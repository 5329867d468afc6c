"""`meeple lsp`: a Language Server for `.rules` files, spoken over stdin and stdout.

An editor gets what `meeple check` says, as the designer types, and can find its way around a
file and change it: hover, go to definition, find references, rename, quick fixes, completion
and the outline. Nothing here checks anything itself: the diagnostics are those of
`meeple.loader.check` and `run_checks` (the open document's text read through `Buffer`, a
`loader.Files` that gives the editor's text for that one file and reads everything else, a
variant's base and a table's CSV, from disk under the loader's own rules); the words of a hover
are the designer's reference's (`codegen/english.py`), the registry's and the language
reference's (`meeple/lsp_help.py`); the keywords come from the grammar (`grammar/words.py`), the
functions from `interpreter/builtins.py`. What a request needs of a document (its declarations,
the names each declaration binds, where a name is written, the type of a name at a cursor) is in
its index (`meeple/lsp_index.py`), made once per version that parses.

Checking runs in a worker thread, one document at a time, so that the server keeps answering
while a long file is checked; a version the designer has already typed past is not checked at
all. The loader's part runs after each edit, in two steps each shown as soon as it is found:
parse, variant, names and types first (`names_stage`), then bounds, compiler and texts
(`compile_stage`); the checks on top (seconds on a large game) once typing pauses (`PAUSE`), or
at once when the document is opened or saved. What checking raises, a bug in meeple, becomes a
diagnostic (M099) and the server goes on.

Positions: the AST counts lines from 1 and columns from 1 in characters, split at `\\n` only, as
the parser does; LSP counts both from 0, columns in the units the client and server agreed
(UTF-16 unless the client offers another): `pygls`' position codec converts each column on the
line it stands on.

Requires the `lsp` extra (`pip install 'meeple[lsp]'`): pygls and lsprotocol.
"""

# pygls and lsprotocol are the `lsp` extra: where they are not installed they are unknown, not an
# error, as pyproject.toml tells mypy; where they are (CI), they are checked.
# pyright: reportMissingImports=false

from __future__ import annotations

import asyncio
import difflib
import re
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import version
from pathlib import Path
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from meeple import codes
from meeple.codegen.english import English, Line
from meeple.codegen.markup import markdown, md_escape
from meeple.diagnostics import Diagnostic, Severity
from meeple.grammar import ast
from meeple.grammar.words import declaration_words, keywords, meta_words, statement_words
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.checks import CheckOptions, run_checks
from meeple.interpreter.own_names import OWN_NAMES
from meeple.limits import MAX_EDITED_BYTES
from meeple.loader import Checked, Files, bundled_dir, check_names, finish_check, uncollected
from meeple.lsp_help import builtin_help, keyword_help, own_name_help, signature
from meeple.lsp_index import (
    KIND_WORDS,
    NAME,
    Declared,
    Index,
    Place,
    attributes,
    build,
    expression_words,
    in_scope,
    name_around,
    name_span,
    named_steps,
    rows_of,
    type_of,
)

TOO_LARGE = codes.DOCUMENT_TOO_LARGE  # a document larger than MAX_EDITED_BYTES: not checked as you type
# Checking raised: a bug in meeple, said in the file rather than killing the server.
INTERNAL = codes.CHECK_FAILED
DEBOUNCE = 0.2  # seconds of quiet typing before a version is checked
PAUSE = 1.5  # seconds of quiet typing after that before the slow checks run (at once on save)
T = TypeVar("T")

_SEVERITY: dict[Severity, lsp.DiagnosticSeverity] = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "note": lsp.DiagnosticSeverity.Information,
    "info": lsp.DiagnosticSeverity.Hint,
}

# Each kind of declaration's symbol in an outline (its word: lsp_index.KIND_WORDS).
_SYMBOLS: dict[type[ast.Node], lsp.SymbolKind] = {
    ast.VariantHeader: lsp.SymbolKind.Module,
    ast.GameHeader: lsp.SymbolKind.Module,
    ast.OptionDecl: lsp.SymbolKind.Constant,
    ast.Constant: lsp.SymbolKind.Constant,
    ast.Table: lsp.SymbolKind.Struct,
    ast.PieceDecl: lsp.SymbolKind.Object,
    ast.ComponentDecl: lsp.SymbolKind.Object,
    ast.ZoneDecl: lsp.SymbolKind.Array,
    ast.CounterDecl: lsp.SymbolKind.Number,
    ast.VarDecl: lsp.SymbolKind.Variable,
    ast.MapDecl: lsp.SymbolKind.Namespace,
    ast.MovementDecl: lsp.SymbolKind.Operator,
    ast.RuleDecl: lsp.SymbolKind.Function,
    ast.ValueDecl: lsp.SymbolKind.Function,
    ast.TriggerDecl: lsp.SymbolKind.Event,
    ast.SetupDecl: lsp.SymbolKind.Constructor,
    ast.PlayDecl: lsp.SymbolKind.Module,
    ast.ScoreDecl: lsp.SymbolKind.Field,
    ast.StyleDecl: lsp.SymbolKind.Class,
    ast.AutomatedDecl: lsp.SymbolKind.Class,  # a seat the rules play
    ast.TeamsDecl: lsp.SymbolKind.Struct,
    ast.Example: lsp.SymbolKind.Key,
    ast.Named: lsp.SymbolKind.Namespace,
    ast.ReplaceDecl: lsp.SymbolKind.Module,
    ast.ReplaceBlock: lsp.SymbolKind.Namespace,
    ast.RemoveDecl: lsp.SymbolKind.Null,
    ast.InsertBlock: lsp.SymbolKind.Namespace,
    ast.Reword: lsp.SymbolKind.String,
    ast.ExtendTable: lsp.SymbolKind.Struct,
    ast.ExtendSetup: lsp.SymbolKind.Constructor,
}


# ---------------------------------------------------------------------- reading the document


class Buffer(Files):
    """The loader's files, with the editor's text in place of the open document's file: the
    designer is told about what they see, saved or not. Everything else the document names is
    read as the loader reads it (`Files`): a variant's base beside it or bundled, a table's CSV
    beside it or below, nothing else."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text

    def find(self, name_or_path: str | Path) -> Path:
        return self.path if Path(name_or_path) == self.path else super().find(name_or_path)

    def rules(self, path: Path) -> str:
        return self.text if path == self.path else super().rules(path)


@dataclass
class Analysis:
    """What checking one version of a document found."""

    diagnostics: list[Diagnostic]
    checked: Checked | None = None  # None: too large, or checking broke
    index: Index | None = None  # its declarations and words, when it parsed


def document_path(uri: str, untitled: Path) -> Path:
    """The file a document is, for the loader: its own path, or for a document not on disk (an
    editor's new buffer) a name in an empty folder of the server's, beside which nothing can be
    found (its variant may name a bundled game only)."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if path:
        return Path(path)
    return untitled / (re.sub(r"[^A-Za-z0-9_.-]", "_", uri.rsplit("/", 1)[-1]) or "untitled")


def _whole_file(path: Path, code: str, message: str) -> Diagnostic:
    return Diagnostic(str(path), 1, 1, "error", code, message)


def names_stage(path: Path, text: str) -> Analysis:
    """Parse, apply a variant, and analyse names and types: the diagnostics shown first after an
    edit (`loader.check_names`), with the version's index."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_EDITED_BYTES:
        message = f"the document is larger than {MAX_EDITED_BYTES // 2**20} MB: not checked as you type"
        return Analysis([_whole_file(path, TOO_LARGE, message)])
    try:
        with uncollected():
            checked = check_names(path, files=Buffer(path, text))
    except Exception as err:  # a bug in meeple: said in the file, and the server goes on
        return Analysis([_whole_file(path, INTERNAL, f"meeple could not check this file: {err!r}")])
    index = build(checked.module) if checked.module is not None else None
    return Analysis(_shown(checked.diagnostics), checked, index)


def compile_stage(analysis: Analysis) -> Analysis:
    """The rest of the loader's check on what `names_stage` found (`loader.finish_check`): the
    bounds, the compiler and the texts' values. Its diagnostics are `meeple.check`'s."""
    checked = analysis.checked
    if checked is None or checked.module is None:
        return analysis
    try:
        with uncollected():
            finish_check(checked)
    except Exception as err:  # as in names_stage
        found = _whole_file(checked.path, INTERNAL, f"meeple could not check this file: {err!r}")
        return replace(analysis, diagnostics=[*analysis.diagnostics, found], checked=None)
    return replace(analysis, diagnostics=_shown(checked.diagnostics))


def load_stage(path: Path, text: str) -> Analysis:
    """Parse, apply a variant, analyse and compile the text, as `meeple check` does first."""
    return compile_stage(names_stage(path, text))


def checks_stage(analysis: Analysis) -> Analysis:
    """The checks of `meeple check` on top of the loader's (no `--play`): unused declarations,
    loops, setup for every player count, citations when the rulebook is found."""
    checked = analysis.checked
    if checked is None:
        return analysis
    try:
        report = run_checks(checked, str(checked.path), CheckOptions())
    except Exception as err:  # as in load_stage
        found = _whole_file(checked.path, INTERNAL, f"meeple could not finish checking this file: {err!r}")
        return replace(analysis, diagnostics=[*analysis.diagnostics, found])
    return replace(analysis, diagnostics=_shown(report.diagnostics))


def _shown(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """What an editor shows: problems and notes, not the reports that `--coverage` asks for."""
    return [d for d in diagnostics if d.severity != "info"]


# ---------------------------------------------------------------------- positions


def _lines(text: str) -> list[str]:
    return text.split("\n")  # as the parser counts lines: at `\n` only


def _position(ls: LanguageServer, lines: Sequence[str], line: int, column: int) -> lsp.Position:
    """A 1-based line and character column of the AST as an LSP position."""
    line0 = max(0, min(line - 1, len(lines) - 1)) if lines else 0
    column0 = max(0, min(column - 1, len(lines[line0]) if lines else 0))
    return ls.workspace.position_codec.position_to_client_units(lines, lsp.Position(line0, column0))


def _range(ls: LanguageServer, lines: Sequence[str], line: int, start: int, end: int) -> lsp.Range:
    return lsp.Range(_position(ls, lines, line, start), _position(ls, lines, line, end))


def _span_range(ls: LanguageServer, lines: Sequence[str], span: ast.Span) -> lsp.Range:
    """A node's whole span: a declaration's runs to where the next one starts."""
    end_line, end_column = (span.end_line, span.end_column) if span.end_line else (span.line, span.column)
    return lsp.Range(_position(ls, lines, span.line, span.column), _position(ls, lines, end_line, end_column))


# ---------------------------------------------------------------------- the server


@dataclass
class Known:
    """One version of a document that parsed, and its index: what requests read."""

    checked: Checked
    index: Index
    speaker: English | None = None  # made on the first hover that needs it

    @property
    def module(self) -> ast.Module:
        return self.index.module

    def english(self) -> English:
        if self.speaker is None:
            program = self.checked.program
            self.speaker = English(self.checked.symbols, program.constants if program else {})
        return self.speaker


@dataclass
class State:
    """The server's memory: the latest analysis of each open document that parsed (hover,
    definition and completion keep working while a line is half typed)."""

    folder: tempfile.TemporaryDirectory[str]  # where documents not on disk are (nothing else is)
    known: dict[str, Known] = field(default_factory=dict)
    wanted: dict[str, int] = field(default_factory=dict)  # the ticket of the latest check asked for
    versions: dict[str, int] = field(default_factory=dict)  # the latest version of each document
    tickets: int = 0  # checks asked for so far
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one document loaded at a time
    checking: asyncio.Lock = field(default_factory=asyncio.Lock)  # and one checked at a time
    running: set[asyncio.Task[None]] = field(default_factory=set)
    # The loader's latest check of each document: its version, text, analysis, and whether it is
    # complete (False: names and types only, `names_stage`).
    loaded: dict[str, tuple[int, str, Analysis, bool]] = field(default_factory=dict)
    finished: dict[str, tuple[int, str]] = field(default_factory=dict)  # the version the checks have run on


_SUGGESTION = re.compile(r"did you mean '([^']+)'")


def _to_lsp(ls: LanguageServer, d: Diagnostic, path: Path, sources: dict[str, str]) -> lsp.Diagnostic:
    """A diagnostic at its place; one in another file (a variant's base game) at the top of this
    one, saying where it is. A "did you mean" carries the fix (`data`), for its quick fix."""
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    fix = None
    if d.file != str(path):
        message = f"{d.location()}: {message}"
        where = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    else:
        lines = _lines(sources.get(d.file, ""))
        end = d.end_column if d.end_column > d.column else d.column + 1
        where = _range(ls, lines, d.line, d.column, end)
        fix = _fix(ls, lines, d, end)
    return lsp.Diagnostic(where, message, _SEVERITY[d.severity], d.code, source="meeple", data=fix)


def _fix(ls: LanguageServer, lines: Sequence[str], d: Diagnostic, end: int) -> dict[str, Any] | None:
    """The edit a "did you mean 'X'" proposes: the name the message quotes, where it stands at
    the diagnostic, replaced by X. None when the diagnostic proposes nothing, or the quoted
    name is not written there."""
    suggested = _SUGGESTION.search(f"{d.message} {d.hint}")
    if suggested is None or not 0 < d.line <= len(lines):
        return None
    better = suggested.group(1)
    text = lines[d.line - 1]
    quoted = [w for w in re.findall(r"'([^']+)'", d.message) if w != better]
    wrong = sorted(
        quoted, key=lambda w: -difflib.SequenceMatcher(None, w, better).ratio()
    )  # the likeliest first
    for word in wrong:
        bare = word.strip("{}")
        for match in re.finditer(rf"(?<![\w]){re.escape(bare)}(?![\w])", text):
            if d.column - 1 <= match.start() < end - 1 or not d.end_column:
                where = _range(ls, lines, d.line, match.start() + 1, match.end() + 1)
                start, stop = where.start, where.end
                return {
                    "range": [start.line, start.character, stop.line, stop.character],
                    "with": better.strip("{}"),
                }
    return None


def _publish(ls: LanguageServer, uri: str, version: int, path: Path, text: str, found: Analysis) -> None:
    sources = {**(found.checked.sources if found.checked else {}), str(path): text}
    shown = [_to_lsp(ls, d, path, sources) for d in found.diagnostics]
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, shown, version))


async def diagnose(ls: LanguageServer, state: State, uri: str, version: int, ticket: int, slow: bool) -> None:
    """Check one version of a document, unless something newer was asked for it since (`ticket`:
    the designer typed on, saved, or closed and opened it again), in three parts, each shown as
    it is found: names and types (what changes as one types, shown first), then the rest of the
    loader's check (bounds, compiler, texts: `meeple.check`'s diagnostics), then, after a pause
    in typing or at once when the document is opened or saved (`slow`), those of the checks on
    top (unused declarations, loops, setup under every option: seconds on a large game). Each
    part runs once per version and text: a save after the pause checks nothing again. A part
    whose version the designer has typed past is neither shown nor followed by the next."""
    await asyncio.sleep(DEBOUNCE)
    async with state.lock:
        text = open_text(ls, uri)
        if state.wanted.get(uri) != ticket or text is None:  # asked again, or closed meanwhile
            return
        path = document_path(uri, Path(state.folder.name))
        loaded = state.loaded.get(uri)
        found = loaded[2] if loaded is not None and loaded[:2] == (version, text) else None
        if found is None or loaded is None or not loaded[3]:  # else loaded, and shown, already
            if found is None:
                found = await asyncio.to_thread(names_stage, path, text)
                state.loaded[uri] = (version, text, found, False)
                if not _current(ls, state, uri, version, text):
                    return
                _show(ls, state, uri, version, path, text, found)
            found = await asyncio.to_thread(compile_stage, found)
            state.loaded[uri] = (version, text, found, True)
            if not _current(ls, state, uri, version, text):
                return
            _show(ls, state, uri, version, path, text, found)
    if not slow:
        await asyncio.sleep(PAUSE)
    # The checks hold a lock of their own: the loader's check of a newer version need not wait
    # for them (a large game's take half a minute on a busy machine), and their answer for a
    # version typed past is not shown.
    async with state.checking:
        if state.wanted.get(uri) != ticket or state.finished.get(uri) == (version, text):
            return  # typed on (the checks wait for the next pause), or checked already
        found = await asyncio.to_thread(checks_stage, found)
        if state.wanted.get(uri) == ticket:
            state.finished[uri] = (version, text)
            _publish(ls, uri, version, path, text, found)


def _current(ls: LanguageServer, state: State, uri: str, version: int, text: str) -> bool:
    """The document is still this version with this text (a save of it asks for a check of the
    same version: what was found for that version is still the answer)."""
    return state.versions.get(uri) == version and open_text(ls, uri) == text


def _show(
    ls: LanguageServer, state: State, uri: str, version: int, path: Path, text: str, found: Analysis
) -> None:
    """What a part of the loader's check found: its diagnostics, and what requests read."""
    if found.checked is not None and found.index is not None:
        state.known[uri] = Known(found.checked, found.index)
    _publish(ls, uri, version, path, text, found)


def open_text(ls: LanguageServer, uri: str) -> str | None:
    """The editor's text of a document it has opened, or None. Never the disk: pygls'
    `get_text_document` reads a file it was not sent, and a request may name any file."""
    document = ls.workspace.text_documents.get(unquote(uri))
    return document.source if document is not None else None


def answered(ls: LanguageServer, what: str, handler: Callable[[], T], empty: T) -> T:
    """A request's answer, or `empty` when answering raised (a bug in meeple): the editor gets
    nothing rather than a traceback in the response's data, and the log says what failed."""
    try:
        return handler()
    except Refusal:
        raise  # said to the designer as the request's error
    except Exception as err:
        message = f"meeple could not answer {what}: {type(err).__name__}: {err}"
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, message))
        return empty


class Refusal(JsonRpcInvalidParams):
    """A request the server will not do, and why, in the designer's words (a rename to a name
    that is taken): the editor shows the message."""


def _schedule(ls: LanguageServer, state: State, uri: str, version: int, slow: bool = False) -> None:
    state.tickets += 1
    state.wanted[uri], state.versions[uri] = state.tickets, version
    task = asyncio.get_running_loop().create_task(diagnose(ls, state, uri, version, state.tickets, slow))
    state.running.add(task)  # held until done: the loop keeps only a weak reference to a task
    task.add_done_callback(state.running.discard)


@dataclass
class Cursor:
    """A request's document, where its cursor is (the AST's 1-based line and column), the name
    under it, and the latest version of the document that parsed."""

    known: Known
    text: str
    file: str
    line: int
    column: int
    word: str | None
    before: str  # the line up to the cursor

    @property
    def local(self) -> bool:
        """The name is one its declaration binds (a parameter, a loop's variable): not declared."""
        return self.word is not None and self.known.index.is_local(self.word, self.file, self.line)


def _cursor(ls: LanguageServer, state: State, uri: str, position: lsp.Position) -> Cursor | None:
    known, text = state.known.get(uri), open_text(ls, uri)
    if known is None or text is None:
        return None
    lines = _lines(text)
    if position.line >= len(lines):
        return None
    where = ls.workspace.position_codec.position_from_client_units(lines, position)
    line = lines[where.line]
    return Cursor(
        known,
        text,
        str(known.checked.path),
        where.line + 1,
        where.character + 1,
        name_around(line, where.character),
        line[: where.character],
    )


def _lookup(ls: LanguageServer, state: State, uri: str, position: lsp.Position) -> list[Declared]:
    """The declarations of the name under the cursor (a table and a variable may share one)."""
    cursor = _cursor(ls, state, uri, position)
    if cursor is None or cursor.word is None or cursor.local:
        return []
    return cursor.known.index.declared(cursor.word)


def hover(ls: LanguageServer, state: State, params: lsp.HoverParams) -> lsp.Hover | None:
    """A declared name: its kind and name, its `text` (and `says`), its generated English and its
    `cites` lines. A built-in function: its usage and value; a keyword: what the language
    reference says of it. As Markdown."""
    cursor = _cursor(ls, state, params.text_document.uri, params.position)
    if cursor is None or cursor.word is None or cursor.local:
        return None
    found = cursor.known.index.declared(cursor.word)
    if found:
        speaker = cursor.known.english()
        words = "\n\n---\n\n".join(_describe(speaker, d) for d in found)
    else:
        words = (
            _attribute_help(cursor)
            or builtin_help(cursor.word)
            or own_name_help(cursor.word)
            or keyword_help(cursor.word)
            or ""
        )
    if not words:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, words))


def _attribute_help(cursor: Cursor) -> str | None:
    """`x.NAME` under the cursor: NAME's line as the attribute table (or the rules' declaration)
    gives it for what x is; None where the cursor is on no attribute, or x's type is not known."""
    attribute = _ATTRIBUTE.search(cursor.before)
    symbols = cursor.known.checked.symbols
    if attribute is None or symbols is None or cursor.word is None:
        return None
    owner = type_of(cursor.known.index, symbols, attribute.group(1), cursor.file, cursor.line)
    what = attributes(symbols, owner).get(cursor.word)
    return f"**attribute** `{cursor.word}` of {owner.readable()}\n\n{what}" if what else None


def _describe(speaker: English, d: Declared) -> str:
    notes = _metas(d.node)
    out = [f"**{d.kind}** `{d.name}`"]
    out += [md_escape(m.value) for m in notes if m.kind in ("text", "says")]
    words = generated(speaker, d.node)
    if words:
        out.append("*In words:*\n\n" + words)
    out += [f"> {md_escape(m.value)}" for m in notes if m.kind == "cites"]
    return "\n\n".join(out)


def _metas(node: ast.Decl | ast.Named) -> list[ast.Meta]:
    if isinstance(node, ast.Named):
        return [s for s in node.body if isinstance(s, ast.Meta)]
    return node.meta


def generated(speaker: English, node: ast.Decl | ast.Named) -> str:
    """A declaration in the designer's reference's words: a block as its sentences (nested as
    bullets), anything else as the one sentence `English.say` gives it. Empty when the words
    cannot be made (analysis found errors the speaker trips on)."""
    try:
        if isinstance(node, ast.VarDecl):
            return markdown(speaker.var_words(node), links=False)
        if isinstance(node, ast.MapDecl):
            return markdown(speaker.map_words(node), links=False)
        body = getattr(node, "body", None)
        if isinstance(body, list):
            return "\n".join(_bullets(speaker.block(body, meta=False)))
        return markdown(speaker.say(node), links=False)
    except Exception:  # the words of a file with errors: shown again once it checks
        return ""


def _bullets(lines: Sequence[Line], depth: int = 0) -> Iterator[str]:
    for line in lines:
        yield "  " * depth + "- " + markdown(line.text, links=False)
        yield from _bullets(line.children, depth + 1)


def _uri(known: Known, file: str, uri: str) -> str:
    """The address of one of a document's files: the document's own, or a file it includes."""
    return uri if file == str(known.checked.path) else (from_fs_path(file) or file)


def _location(ls: LanguageServer, known: Known, uri: str, place: Place) -> lsp.Location:
    lines = _lines(known.index.sources.get(place.file, ""))
    return lsp.Location(_uri(known, place.file, uri), _range(ls, lines, place.line, place.start, place.end))


def definition(ls: LanguageServer, state: State, params: lsp.DefinitionParams) -> list[lsp.Location]:
    """Where the name under the cursor is declared: in this file, or in a variant's base game."""
    uri = params.text_document.uri
    known = state.known.get(uri)
    if known is None:
        return []
    return [_location(ls, known, uri, d.place) for d in _lookup(ls, state, uri, params.position)]


def references(ls: LanguageServer, state: State, params: lsp.ReferenceParams) -> list[lsp.Location]:
    """Every place the declared name under the cursor is written, in this file and the files it
    includes (a variant's base game)."""
    uri = params.text_document.uri
    cursor = _cursor(ls, state, uri, params.position)
    if cursor is None or cursor.word is None or cursor.local:
        return []
    index = cursor.known.index
    places = index.references(cursor.word)
    if not params.context.include_declaration:
        declared = {d.place for d in index.declared(cursor.word)}
        places = [p for p in places if p not in declared]
    return [_location(ls, cursor.known, uri, p) for p in places]


def prepare_rename(ls: LanguageServer, state: State, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    """The name a rename would change: a declared name, in a version of the document that parsed."""
    cursor = _renamable(ls, state, params.text_document.uri, params.position)
    line = _lines(cursor.text)[cursor.line - 1]
    found = name_span(line, cursor.column - 1)
    if found is None:
        return None
    return _range(ls, _lines(cursor.text), cursor.line, found[0] + 1, found[1] + 1)


def _renamable(ls: LanguageServer, state: State, uri: str, position: lsp.Position) -> Cursor:
    cursor = _cursor(ls, state, uri, position)
    if cursor is None or cursor.word is None:
        raise Refusal("there is no name here to rename")
    if cursor.known.index.sources.get(cursor.file) != cursor.text:
        raise Refusal("the file has changed since it last parsed: fix what does not parse, then rename")
    if cursor.local or not cursor.known.index.declared(cursor.word):
        raise Refusal(f"'{cursor.word}' is not declared in this game: only a declared name can be renamed")
    return cursor


def rename(ls: LanguageServer, state: State, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    """Every place the declared name is written, in this file and in the files it includes, given
    the new name. Refused for a name that is not a name, a keyword or taken, and for a name
    written in a game bundled with meeple (its copy is meeple's, not the designer's)."""
    uri = params.text_document.uri
    cursor = _renamable(ls, state, uri, params.position)
    new, index = params.new_name, cursor.known.index
    if not NAME.fullmatch(new) or new in keywords():
        raise Refusal(
            f"'{new}' cannot be a name: a name is a word of letters, digits and _ that is no keyword"
        )
    if index.declared(new) or new in BUILTINS or new in OWN_NAMES:
        raise Refusal(f"'{new}' is already a name in this game")
    edits: dict[str, list[lsp.TextEdit]] = {}
    bundled = bundled_dir().resolve()
    for place in index.references(cursor.word or ""):
        if place.file != cursor.file and Path(place.file).resolve().is_relative_to(bundled):
            raise Refusal(
                f"'{cursor.word}' is also written in {Path(place.file).name}, a game bundled with meeple"
            )
        where = _location(ls, cursor.known, uri, place)
        edits.setdefault(where.uri, []).append(lsp.TextEdit(where.range, new))
    return lsp.WorkspaceEdit(changes=edits)


def code_actions(ls: LanguageServer, state: State, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """A quick fix for each "did you mean" among the diagnostics the editor sends: the name the
    diagnostic quotes, replaced by the one it proposes."""
    out = []
    for d in params.context.diagnostics:
        fix = d.data if isinstance(d.data, dict) else None
        if not fix or not isinstance(fix.get("with"), str) or not isinstance(fix.get("range"), list):
            continue
        line, start, end_line, end = (int(n) for n in fix["range"])
        where = lsp.Range(lsp.Position(line, start), lsp.Position(end_line, end))
        edit = lsp.WorkspaceEdit(changes={params.text_document.uri: [lsp.TextEdit(where, fix["with"])]})
        title = f"Change to '{fix['with']}'"
        out.append(
            lsp.CodeAction(
                title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[d], edit=edit, is_preferred=True
            )
        )
    return out


_ATTRIBUTE = re.compile(r"([A-Za-z_]\w*)\s*\.\s*\w*$")
_LINE_START = re.compile(r"[ \t]*\w*")


def completion(ls: LanguageServer, state: State, params: lsp.CompletionParams) -> lsp.CompletionList:
    """What may be written where the cursor is: after `NAME.`, a table's rows or the attributes
    of what NAME is (a row's columns, a player's zones and variables...); at the start of a line,
    the words that start a declaration (unindented) or a statement (in a block) and the rules it
    may call; elsewhere, the names in scope there, the built-in functions with their usage, and
    the words of an expression."""
    empty = lsp.CompletionList(is_incomplete=False, items=[])
    cursor = _cursor(ls, state, params.text_document.uri, params.position)
    if cursor is None or cursor.known.checked.symbols is None:
        return empty
    symbols, index = cursor.known.checked.symbols, cursor.known.index
    items: dict[str, lsp.CompletionItem] = {}

    def add(label: str, kind: lsp.CompletionItemKind, detail: str, words: str = "") -> None:
        documentation = lsp.MarkupContent(lsp.MarkupKind.Markdown, words) if words else None
        items.setdefault(
            label, lsp.CompletionItem(label, kind=kind, detail=detail, documentation=documentation)
        )

    attribute = _ATTRIBUTE.search(cursor.before)
    if attribute:
        owner = attribute.group(1)
        if owner in symbols.tables:
            for row in rows_of(symbols.tables[owner]):
                add(row, lsp.CompletionItemKind.EnumMember, f"row of {owner}")
        else:
            owner_type = type_of(index, symbols, owner, cursor.file, cursor.line)
            for name, what in attributes(symbols, owner_type).items():
                add(name, lsp.CompletionItemKind.Field, what)
    elif _LINE_START.fullmatch(cursor.before) and not cursor.before[:1].isspace():
        for word in sorted(declaration_words()):
            add(word, lsp.CompletionItemKind.Keyword, "declaration")
    elif _LINE_START.fullmatch(cursor.before):
        for word in sorted(statement_words() | meta_words()):
            add(word, lsp.CompletionItemKind.Keyword, "statement")
        for name in symbols.rules:
            add(name, lsp.CompletionItemKind.Function, "rule")
    else:
        for name, what in in_scope(index, symbols, cursor.file, cursor.line).items():
            add(name, _COMPLETION_KINDS.get(what, lsp.CompletionItemKind.Variable), what)
        for name in BUILTINS:
            add(name, lsp.CompletionItemKind.Function, signature(name), builtin_help(name) or "")
        for word in sorted(expression_words()):
            add(word, lsp.CompletionItemKind.Keyword, "keyword")
    return lsp.CompletionList(is_incomplete=False, items=list(items.values()))


_COMPLETION_KINDS = {
    "constant": lsp.CompletionItemKind.Constant,
    "var": lsp.CompletionItemKind.Variable,
    "zone": lsp.CompletionItemKind.Folder,
    "table": lsp.CompletionItemKind.Struct,
    "map": lsp.CompletionItemKind.Module,
    "piece": lsp.CompletionItemKind.Class,
    "value": lsp.CompletionItemKind.Function,
    "rule": lsp.CompletionItemKind.Function,
    "movement": lsp.CompletionItemKind.Operator,
}


def document_symbols(ls: LanguageServer, state: State, params: lsp.DocumentSymbolParams) -> list[Any]:
    """The outline: each declaration of this file by its kind, the phases and steps of a flow
    inside it. A variant's outline is its own patches, not its base game's declarations."""
    known = state.known.get(params.text_document.uri)
    if known is None:
        return []
    path = str(known.checked.path)
    lines = _lines(known.index.sources.get(path, known.checked.source))
    names = {id(d.node): d for ds in known.index.declarations.values() for d in ds}
    return [_symbol(ls, lines, decl, names) for decl in known.module.decls if decl.span.file == path]


def _symbol(
    ls: LanguageServer, lines: Sequence[str], node: ast.Decl | ast.Named, names: dict[int, Declared]
) -> lsp.DocumentSymbol:
    word, kind = KIND_WORDS.get(type(node), ""), _SYMBOLS.get(type(node), lsp.SymbolKind.Null)
    if isinstance(node, ast.Named):
        word = node.kind
    label = str(getattr(node, "name", "") or getattr(node, "kind", "") or "")
    whole = _span_range(ls, lines, node.span)
    named = names.get(id(node))
    chosen = _range(ls, lines, named.place.line, named.place.start, named.place.end) if named else whole
    if not _inside(chosen, whole):
        chosen = lsp.Range(whole.start, whole.start)
    body = getattr(node, "body", None)
    children = [
        _symbol(ls, lines, step, names) for step in named_steps(body if isinstance(body, list) else [])
    ]
    return lsp.DocumentSymbol(
        name=label or word, detail=word, kind=kind, range=whole, selection_range=chosen, children=children
    )


def _inside(inner: lsp.Range, outer: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(outer.start) <= key(inner.start) and key(inner.end) <= key(outer.end)


def server() -> LanguageServer:
    """The language server, its features each a function above."""
    ls = LanguageServer("meeple", version("meeple"), text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
    state = State(tempfile.TemporaryDirectory(prefix="meeple-lsp-"))

    @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        _schedule(ls, state, params.text_document.uri, params.text_document.version, slow=True)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        _schedule(ls, state, params.text_document.uri, params.text_document.version)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in state.versions:
            _schedule(ls, state, uri, state.versions[uri], slow=True)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        state.known.pop(uri, None)
        state.wanted.pop(uri, None)
        state.versions.pop(uri, None)
        state.loaded.pop(uri, None)
        state.finished.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @ls.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return answered(ls, "hover", lambda: hover(ls, state, params), None)

    @ls.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: LanguageServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
        return answered(ls, "go to definition", lambda: definition(ls, state, params), [])

    @ls.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls: LanguageServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        return answered(ls, "find references", lambda: references(ls, state, params), [])

    @ls.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def on_prepare_rename(ls: LanguageServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
        return answered(ls, "rename", lambda: prepare_rename(ls, state, params), None)

    @ls.feature(lsp.TEXT_DOCUMENT_RENAME)
    def on_rename(ls: LanguageServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        return answered(ls, "rename", lambda: rename(ls, state, params), None)

    @ls.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix])
    )
    def on_code_action(ls: LanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return answered(ls, "quick fixes", lambda: code_actions(ls, state, params), [])

    @ls.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        empty = lsp.CompletionList(is_incomplete=False, items=[])
        return answered(ls, "completion", lambda: completion(ls, state, params), empty)

    @ls.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls: LanguageServer, params: lsp.DocumentSymbolParams) -> list[Any]:
        return answered(ls, "the outline", lambda: document_symbols(ls, state, params), [])

    return ls


def main(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Serve one editor over these streams (the command's stdin and stdout) until it says exit."""
    # Checking runs setup, whose rules may call each other MAX_RECURSION deep (engine.py): the
    # worker thread gets a stack as large as a main thread's, whatever the system gives threads.
    threading.stack_size(64 * 2**20)
    server().start_io(stdin, stdout)
