"""`meeple lsp`: a Language Server for `.rules` files, spoken over stdin and stdout.

An editor gets what `meeple check` says, as the designer types, and can find its way around a
file: hover, go to definition, completion and the outline. Nothing here checks anything itself:
the diagnostics are those of `meeple.loader.check` and `run_checks` (the open document's text
read through `Buffer`, a `loader.Files` that gives the editor's text for that one file and reads
everything else, a variant's base and a table's CSV, from disk under the loader's own rules);
the words of a hover are the designer's reference's (`codegen/english.py`); the keywords come
from the grammar (`grammar/words.py`), the functions from `interpreter/builtins.py`.

Checking runs in a worker thread, one document at a time, so that the server keeps answering
while a long file is checked; a version the designer has already typed past is not checked at
all. What checking raises, a bug in meeple, becomes a diagnostic (M099) and the server goes on.

Positions: the AST counts lines from 1 and columns from 1 in characters, split at `\\n` only, as
the parser does; LSP counts both from 0, columns in the units the client and server agreed
(UTF-16 unless the client offers another): `pygls`' position codec converts each column on the
line it stands on.

Requires the `lsp` extra (`pip install 'meeple[lsp]'`): pygls and lsprotocol.
"""

from __future__ import annotations

import asyncio
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
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from meeple import codes
from meeple.codegen.english import English, Line
from meeple.codegen.markup import markdown, md_escape
from meeple.diagnostics import Diagnostic, Severity
from meeple.grammar import ast
from meeple.grammar.words import keywords
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.checks import CheckOptions, run_checks
from meeple.limits import MAX_EDITED_BYTES
from meeple.loader import Checked, Files, check

TOO_LARGE = codes.DOCUMENT_TOO_LARGE  # a document larger than MAX_EDITED_BYTES: not checked as you type
# Checking raised: a bug in meeple, said in the file rather than killing the server.
INTERNAL = codes.CHECK_FAILED
DEBOUNCE = 0.2  # seconds of quiet typing before a version is checked
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
T = TypeVar("T")

_SEVERITY: dict[Severity, lsp.DiagnosticSeverity] = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "note": lsp.DiagnosticSeverity.Information,
    "info": lsp.DiagnosticSeverity.Hint,
}

# Each kind of declaration: the word it is shown with, its symbol in an outline, its completion kind.
_KINDS: dict[type[ast.Node], tuple[str, lsp.SymbolKind, lsp.CompletionItemKind]] = {
    ast.VariantHeader: ("variant", lsp.SymbolKind.Module, lsp.CompletionItemKind.Module),
    ast.GameHeader: ("game", lsp.SymbolKind.Module, lsp.CompletionItemKind.Module),
    ast.OptionDecl: ("option", lsp.SymbolKind.Constant, lsp.CompletionItemKind.Constant),
    ast.Constant: ("constant", lsp.SymbolKind.Constant, lsp.CompletionItemKind.Constant),
    ast.Table: ("table", lsp.SymbolKind.Struct, lsp.CompletionItemKind.Struct),
    ast.PieceDecl: ("piece", lsp.SymbolKind.Object, lsp.CompletionItemKind.Class),
    ast.ZoneDecl: ("zone", lsp.SymbolKind.Array, lsp.CompletionItemKind.Folder),
    ast.CounterDecl: ("counter", lsp.SymbolKind.Number, lsp.CompletionItemKind.Value),
    ast.VarDecl: ("var", lsp.SymbolKind.Variable, lsp.CompletionItemKind.Variable),
    ast.MapDecl: ("map", lsp.SymbolKind.Namespace, lsp.CompletionItemKind.Module),
    ast.MovementDecl: ("movement", lsp.SymbolKind.Operator, lsp.CompletionItemKind.Operator),
    ast.RuleDecl: ("rule", lsp.SymbolKind.Function, lsp.CompletionItemKind.Function),
    ast.ValueDecl: ("value", lsp.SymbolKind.Function, lsp.CompletionItemKind.Function),
    ast.TriggerDecl: ("when", lsp.SymbolKind.Event, lsp.CompletionItemKind.Event),
    ast.SetupDecl: ("setup", lsp.SymbolKind.Constructor, lsp.CompletionItemKind.Constructor),
    ast.PlayDecl: ("play", lsp.SymbolKind.Module, lsp.CompletionItemKind.Module),
    ast.ScoreDecl: ("score", lsp.SymbolKind.Field, lsp.CompletionItemKind.Field),
    ast.StyleDecl: ("style", lsp.SymbolKind.Class, lsp.CompletionItemKind.Class),
    ast.AutomatedDecl: (
        "automated",
        lsp.SymbolKind.Class,
        lsp.CompletionItemKind.Class,
    ),  # a seat the rules play
    ast.TeamsDecl: ("teams", lsp.SymbolKind.Struct, lsp.CompletionItemKind.Struct),
    ast.Example: ("example", lsp.SymbolKind.Key, lsp.CompletionItemKind.Text),
    ast.Named: ("phase", lsp.SymbolKind.Namespace, lsp.CompletionItemKind.Module),
    ast.ReplaceDecl: ("replace", lsp.SymbolKind.Module, lsp.CompletionItemKind.Module),
    ast.ReplaceBlock: ("replace", lsp.SymbolKind.Namespace, lsp.CompletionItemKind.Module),
    ast.RemoveDecl: ("remove", lsp.SymbolKind.Null, lsp.CompletionItemKind.Module),
    ast.InsertBlock: ("insert", lsp.SymbolKind.Namespace, lsp.CompletionItemKind.Module),
    ast.ExtendTable: ("extend table", lsp.SymbolKind.Struct, lsp.CompletionItemKind.Struct),
    ast.ExtendSetup: ("extend setup", lsp.SymbolKind.Constructor, lsp.CompletionItemKind.Constructor),
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


def load_stage(path: Path, text: str) -> Analysis:
    """Parse, apply a variant, analyse and compile the text, as `meeple check` does first."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_EDITED_BYTES:
        message = f"the document is larger than {MAX_EDITED_BYTES // 2**20} MB: not checked as you type"
        return Analysis([_whole_file(path, TOO_LARGE, message)])
    try:
        checked = check(path, files=Buffer(path, text))
    except Exception as err:  # a bug in meeple: said in the file, and the server goes on
        return Analysis([_whole_file(path, INTERNAL, f"meeple could not check this file: {err!r}")])
    return Analysis(_shown(checked.diagnostics), checked)


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


def _word_at(ls: LanguageServer, text: str, position: lsp.Position) -> str | None:
    """The name under the cursor (or just before it, where the cursor ends a word)."""
    lines = _lines(text)
    if position.line >= len(lines):
        return None
    where = ls.workspace.position_codec.position_from_client_units(lines, position)
    line = lines[where.line]
    for match in _NAME.finditer(line):
        if match.start() <= where.character <= match.end():
            return match.group()
    return None


# ---------------------------------------------------------------------- the declarations


@dataclass
class Declared:
    """A name a file declares, where its name stands, and the declaration."""

    name: str
    kind: str
    node: ast.Decl | ast.Named
    file: str
    line: int
    start: int  # 1-based columns of the name on its line
    end: int


def _name_at(source: str, node: ast.Node, name: str) -> tuple[int, int, int]:
    """Where a declaration writes its name: the first time the name stands as a word on its
    first line after the first word (`rule NAME`, `var NAME: NAME`), else its first word."""
    line = node.span.line
    lines = _lines(source)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    after = text.find(" ", max(0, node.span.column - 1))
    for match in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
        if after >= 0 and match.start() >= after:
            return line, match.start() + 1, match.end() + 1
    return line, node.span.column, node.span.column + 1


def _named_steps(body: Sequence[ast.Stmt]) -> Iterator[ast.Named]:
    """The phases and steps directly in a block, through the ifs and loops around them (those
    inside a phase or step are its own)."""
    for stmt in body:
        if isinstance(stmt, ast.Named):
            yield stmt
        else:
            for block in stmt.blocks():
                yield from _named_steps(block)


def declared(module: ast.Module) -> list[Declared]:
    """Every name the module declares (a variant's: its base game's too, where they stand), and
    every phase and step of its flow."""
    out: list[Declared] = []

    def add(name: str, kind: str, node: ast.Decl | ast.Named) -> None:
        source = module.sources.get(node.span.file, module.source if node.span.file == module.file else "")
        line, start, end = _name_at(source, node, name)
        out.append(Declared(name, kind, node, node.span.file, line, start, end))

    for decl in module.decls:
        name = getattr(decl, "name", None)
        kind = _KINDS.get(type(decl), ("",))[0]
        if isinstance(name, str) and _NAME.fullmatch(name) and not isinstance(decl, ast.GameHeader):
            add(name, kind, decl)
    for named in module.walk():
        if isinstance(named, ast.Named):
            add(named.name, named.kind, named)
    return out


def _metas(node: ast.Decl | ast.Named) -> list[ast.Meta]:
    if isinstance(node, ast.Named):
        return [s for s in node.body if isinstance(s, ast.Meta)]
    return node.meta


# ---------------------------------------------------------------------- the server


@dataclass
class State:
    """The server's memory: the latest analysis of each open document that parsed (hover,
    definition and completion keep working while a line is half typed)."""

    folder: tempfile.TemporaryDirectory[str]  # where documents not on disk are (nothing else is)
    parsed: dict[str, Checked] = field(default_factory=dict)
    wanted: dict[str, int] = field(default_factory=dict)  # the latest version of each document
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one document checked at a time
    running: set[asyncio.Task[None]] = field(default_factory=set)


def _to_lsp(ls: LanguageServer, d: Diagnostic, path: Path, sources: dict[str, str]) -> lsp.Diagnostic:
    """A diagnostic at its place; one in another file (a variant's base game) at the top of this
    one, saying where it is."""
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    if d.file != str(path):
        message = f"{d.location()}: {message}"
        where = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    else:
        lines = _lines(sources.get(d.file, ""))
        end = d.end_column if d.end_column > d.column else d.column + 1
        where = _range(ls, lines, d.line, d.column, end)
    return lsp.Diagnostic(where, message, _SEVERITY[d.severity], d.code, source="meeple")


def _publish(ls: LanguageServer, uri: str, version: int, path: Path, text: str, found: Analysis) -> None:
    sources = {**(found.checked.sources if found.checked else {}), str(path): text}
    shown = [_to_lsp(ls, d, path, sources) for d in found.diagnostics]
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, shown, version))


async def diagnose(ls: LanguageServer, state: State, uri: str, version: int) -> None:
    """Check one version of a document, unless the designer has typed on: the loader's
    diagnostics first, then those of the checks on top (which may take seconds on a large game)."""
    await asyncio.sleep(DEBOUNCE)
    async with state.lock:
        if state.wanted.get(uri) != version:
            return
        text = open_text(ls, uri)
        if text is None:  # closed meanwhile
            return
        path = document_path(uri, Path(state.folder.name))
        found = await asyncio.to_thread(load_stage, path, text)
        if state.wanted.get(uri) != version:
            return
        _remember(state, uri, found)
        _publish(ls, uri, version, path, text, found)
        if state.wanted.get(uri) != version:  # typed on while the loader ran: skip the long part
            return
        found = await asyncio.to_thread(checks_stage, found)
        if state.wanted.get(uri) == version:
            _publish(ls, uri, version, path, text, found)


def _remember(state: State, uri: str, found: Analysis) -> None:
    if found.checked is not None and found.checked.module is not None:
        state.parsed[uri] = found.checked


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
    except Exception as err:
        message = f"meeple could not answer {what}: {type(err).__name__}: {err}"
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, message))
        return empty


def _schedule(ls: LanguageServer, state: State, uri: str, version: int) -> None:
    state.wanted[uri] = version
    task = asyncio.get_running_loop().create_task(diagnose(ls, state, uri, version))
    state.running.add(task)  # held until done: the loop keeps only a weak reference to a task
    task.add_done_callback(state.running.discard)


def _lookup(ls: LanguageServer, state: State, uri: str, position: lsp.Position) -> list[Declared]:
    """The declarations of the name under the cursor (a table and a variable may share one)."""
    checked, text = state.parsed.get(uri), open_text(ls, uri)
    if checked is None or checked.module is None or text is None:
        return []
    word = _word_at(ls, text, position)
    if word is None:
        return []
    return [d for d in declared(checked.module) if d.name == word]


def hover(ls: LanguageServer, state: State, params: lsp.HoverParams) -> lsp.Hover | None:
    """The declaration's kind and name, its `text` (and `says`), its generated English and its
    `cites` lines, as Markdown."""
    uri = params.text_document.uri
    found = _lookup(ls, state, uri, params.position)
    if not found:
        return None
    checked = state.parsed[uri]
    program = checked.program
    speaker = English(checked.symbols, program.constants if program else {})
    parts = [_describe(speaker, d) for d in found]
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n---\n\n".join(parts)))


def _describe(speaker: English, d: Declared) -> str:
    notes = _metas(d.node)
    out = [f"**{d.kind}** `{d.name}`"]
    out += [md_escape(m.value) for m in notes if m.kind in ("text", "says")]
    words = generated(speaker, d.node)
    if words:
        out.append("*In words:*\n\n" + words)
    out += [f"> {md_escape(m.value)}" for m in notes if m.kind == "cites"]
    return "\n\n".join(out)


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


def definition(ls: LanguageServer, state: State, params: lsp.DefinitionParams) -> list[lsp.Location]:
    """Where the name under the cursor is declared: in this file, or in a variant's base game."""
    out = []
    checked = state.parsed.get(params.text_document.uri)
    for d in _lookup(ls, state, params.text_document.uri, params.position):
        source = checked.sources.get(d.file, "") if checked else ""
        lines = _lines(source)
        out.append(lsp.Location(from_fs_path(d.file) or d.file, _range(ls, lines, d.line, d.start, d.end)))
    return out


def completion(ls: LanguageServer, state: State, params: lsp.CompletionParams) -> lsp.CompletionList:
    """The names the file declares, the language's keywords and the built-in functions."""
    items: dict[str, lsp.CompletionItem] = {}
    checked = state.parsed.get(params.text_document.uri)
    for d in declared(checked.module) if checked and checked.module else []:
        kind = _KINDS.get(type(d.node), _KINDS[ast.Named])[2]
        items.setdefault(d.name, lsp.CompletionItem(d.name, kind=kind, detail=d.kind))
    for name, builtin in sorted(BUILTINS.items()):
        words = lsp.MarkupContent(lsp.MarkupKind.Markdown, f"{builtin.usage}: {builtin.value}")
        function = lsp.CompletionItemKind.Function
        items.setdefault(
            name, lsp.CompletionItem(name, kind=function, detail="built-in function", documentation=words)
        )
    for word in sorted(keywords()):
        keyword = lsp.CompletionItemKind.Keyword
        items.setdefault(word, lsp.CompletionItem(word, kind=keyword, detail="keyword"))
    return lsp.CompletionList(is_incomplete=False, items=list(items.values()))


def document_symbols(ls: LanguageServer, state: State, params: lsp.DocumentSymbolParams) -> list[Any]:
    """The outline: each declaration of this file by its kind, the phases and steps of a flow
    inside it. A variant's outline is its own patches, not its base game's declarations."""
    uri = params.text_document.uri
    checked = state.parsed.get(uri)
    if checked is None or checked.module is None:
        return []
    path = str(checked.path)
    lines = _lines(checked.sources.get(path, checked.source))
    names = {id(d.node): d for d in declared(checked.module)}
    symbols = []
    for decl in checked.module.decls:
        if decl.span.file == path:
            symbols.append(_symbol(ls, lines, decl, names))
    return symbols


def _symbol(
    ls: LanguageServer, lines: Sequence[str], node: ast.Decl | ast.Named, names: dict[int, Declared]
) -> lsp.DocumentSymbol:
    word, kind, _ = _KINDS.get(type(node), ("", lsp.SymbolKind.Null, None))
    if isinstance(node, ast.Named):
        word = node.kind
    label = str(getattr(node, "name", "") or getattr(node, "kind", "") or "")
    whole = _span_range(ls, lines, node.span)
    named = names.get(id(node))
    chosen = _range(ls, lines, named.line, named.start, named.end) if named else whole
    if not _inside(chosen, whole):
        chosen = lsp.Range(whole.start, whole.start)
    body = getattr(node, "body", None)
    children = [
        _symbol(ls, lines, step, names) for step in _named_steps(body if isinstance(body, list) else [])
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
        _schedule(ls, state, params.text_document.uri, params.text_document.version)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        _schedule(ls, state, params.text_document.uri, params.text_document.version)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        state.parsed.pop(uri, None)
        state.wanted.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @ls.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return answered(ls, "hover", lambda: hover(ls, state, params), None)

    @ls.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: LanguageServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
        return answered(ls, "go to definition", lambda: definition(ls, state, params), [])

    @ls.feature(lsp.TEXT_DOCUMENT_COMPLETION)
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
