"""`meeple lsp`: the language server, driven over stdio as an editor drives it.

One server for the whole file, started as the `meeple` command of this environment and spoken to
by pygls' own client; each test opens documents of its own. Skipped without the `lsp` extra.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("pygls")
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from meeple.interpreter.attributes import SEAT
from meeple.interpreter.own_names import OWN_NAMES
from meeple.loader import bundled_dir, check
from meeple.lsp import Buffer

T = TypeVar("T")
WAIT = 120  # seconds a test waits for an answer before it fails (a busy machine is slow, not wrong)

TOKENS = """\
game "Tokens":
  players 2..2
  rulebook "tokens.txt"

constant target = 3

zone pool, public
zone store per player, public
piece token: 10 in pool

rule take(p: player):
  text "Take one token from the pool."
  cites "take a token"
  move 1 token from pool to p.store

play:
  phase rounds:
    while yes:
      for each p in players:
        step taking:
          take(p)
        if count(pieces(p.store)) >= target:
          end game

score p = count(pieces(p.store))
"""
RULEBOOK = "Tokens\n\nOn your turn, take a token from the pool. The first to hold three wins.\n"


class Editor:
    """A client in a thread of its own, so that plain tests can wait for what the server says."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client = LanguageClient("meeple-tests", "1")
        self.published: dict[str, list[lsp.PublishDiagnosticsParams]] = {}
        self.changed = asyncio.Condition()
        self.versions: dict[str, int] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def published(params: lsp.PublishDiagnosticsParams) -> None:
            async with self.changed:
                self.published.setdefault(params.uri, []).append(params)
                self.changed.notify_all()

        command = Path(sys.executable).with_name("meeple")
        self.run(self.client.start_io(str(command), "lsp"))
        self.capabilities = self.run(
            self.client.initialize_async(
                lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), process_id=None)
            )
        ).capabilities
        self.client.initialized(lsp.InitializedParams())

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(asyncio.wait_for(coroutine, WAIT), self.loop).result()

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path)) or ""
        if uri in self.versions:  # opened by an earlier test: closed first, as an editor does
            self.client.text_document_did_close(
                lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri))
            )
        # Opened again, a document starts past every version it had: the server may still be
        # sending what it found for the last opening's version 1 (sent before the close, read
        # after it), and a wait for "version 1" would take that stale answer for this one's.
        version = self.versions.get(uri, 0) + 1
        self.versions[uri] = version
        self.published.pop(uri, None)
        item = lsp.TextDocumentItem(uri=uri, language_id="meeple", version=version, text=text)
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri])
        change = lsp.TextDocumentContentChangeWholeDocument(text=text)
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(document, [change]))

    def diagnostics(
        self, uri: str, until: Callable[[list[lsp.Diagnostic]], bool] = lambda found: True
    ) -> list[lsp.Diagnostic]:
        """The diagnostics of the latest version, once they are what `until` waits for (the
        server publishes the loader's first, then those of the checks on top)."""

        async def wait() -> list[lsp.Diagnostic]:
            def ready() -> bool:
                sent = self.published.get(uri, [])
                return bool(sent) and sent[-1].version == self.versions[uri] and until(sent[-1].diagnostics)

            async with self.changed:
                await self.changed.wait_for(ready)
                return list(self.published[uri][-1].diagnostics)

        return self.run(wait())

    def hover(self, uri: str, line: int, character: int) -> lsp.Hover | None:
        params = lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
        return self.run(self.client.text_document_hover_async(params))

    def definition(self, uri: str, line: int, character: int) -> Any:
        params = lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
        return self.run(self.client.text_document_definition_async(params))

    def completion(self, uri: str, line: int, character: int) -> Any:
        params = lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
        return self.run(self.client.text_document_completion_async(params))

    def references(self, uri: str, line: int, character: int, declaration: bool = True) -> Any:
        context = lsp.ReferenceContext(include_declaration=declaration)
        params = lsp.ReferenceParams(context, lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
        return self.run(self.client.text_document_references_async(params))

    def rename(self, uri: str, line: int, character: int, new: str) -> Any:
        params = lsp.RenameParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character), new)
        return self.run(self.client.text_document_rename_async(params))

    def prepare_rename(self, uri: str, line: int, character: int) -> Any:
        params = lsp.PrepareRenameParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
        return self.run(self.client.text_document_prepare_rename_async(params))

    def code_actions(self, uri: str, diagnostics: list[lsp.Diagnostic]) -> Any:
        where = diagnostics[0].range if diagnostics else lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
        context = lsp.CodeActionContext(diagnostics=diagnostics)
        params = lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), where, context)
        return self.run(self.client.text_document_code_action_async(params))

    def save(self, uri: str) -> None:
        self.client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))

    def published_for(self, uri: str) -> list[list[lsp.Diagnostic]]:
        """Every publication of the latest version so far, in order."""
        return [list(p.diagnostics) for p in self.published.get(uri, []) if p.version == self.versions[uri]]

    def symbols(self, uri: str) -> Any:
        params = lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
        return self.run(self.client.text_document_document_symbol_async(params))

    def close(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=WAIT)


@pytest.fixture(scope="module")
def editor() -> Iterator[Editor]:
    started = Editor()
    yield started
    started.close()


@pytest.fixture
def tokens(tmp_path: Path) -> Path:
    (tmp_path / "tokens.txt").write_text(RULEBOOK, encoding="utf-8")
    path = tmp_path / "tokens.rules"
    path.write_text(TOKENS, encoding="utf-8")
    return path


def line_of(text: str, needle: str) -> int:
    """The 0-based line of the first line holding `needle`."""
    return next(n for n, line in enumerate(text.split("\n")) if needle in line)


def test_the_server_announces_what_it_offers(editor: Editor) -> None:
    caps = editor.capabilities
    assert caps.hover_provider and caps.definition_provider and caps.document_symbol_provider
    assert caps.references_provider and caps.rename_provider and caps.code_action_provider
    assert caps.completion_provider is not None and list(
        caps.completion_provider.trigger_characters or []
    ) == ["."]
    assert caps.text_document_sync.change == lsp.TextDocumentSyncKind.Full


def test_a_sound_file_has_no_diagnostics(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    assert editor.diagnostics(uri) == []


def test_a_broken_line_gets_its_code_and_place_and_fixing_it_clears_it(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    broken = TOKENS.replace("          take(p)", "          tkae(p)")
    editor.change(uri, broken)
    found = editor.diagnostics(uri, lambda found: any(d.code == "M010" for d in found))
    unknown = next(d for d in found if d.code == "M010")
    assert unknown.severity == lsp.DiagnosticSeverity.Error
    assert "tkae" in unknown.message and "did you mean 'take'" in unknown.message
    line = line_of(broken, "tkae")
    assert unknown.range == lsp.Range(lsp.Position(line, 10), lsp.Position(line, 17))
    editor.change(uri, TOKENS)
    assert editor.diagnostics(uri, lambda found: not found) == []


def test_an_edit_shows_names_and_types_first_then_what_check_says(editor: Editor, tokens: Path) -> None:
    """After an edit, the server shows what parsing and the names and types find as soon as they
    are found, then `meeple.check`'s diagnostics of the same version: a text's unknown `{name}`
    is found only once the game is compiled (its values filled in), so it is in the second."""
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    broken = TOKENS.replace('text "Take one token from the pool."', 'text "Take {nosuch} token."')
    editor.change(uri, broken)
    editor.diagnostics(uri, lambda found: any(d.code == "M010" for d in found))
    shown = [p.diagnostics for p in editor.published[uri] if p.version == editor.versions[uri]]
    assert not shown[0]  # names and types: nothing wrong
    expected = check(tokens, files=Buffer(tokens, broken)).diagnostics
    assert [(d.code, d.range.start.line + 1, d.message) for d in shown[1]] == [
        (d.code, d.line, d.message + (f"\nhint: {d.hint}" if d.hint else ""))
        for d in expected
        if d.severity != "info"
    ]
    assert [d.code for d in shown[1]] == ["M010"]


def test_a_syntax_error_is_located(editor: Editor, tokens: Path) -> None:
    broken = TOKENS.replace("rule take(p: player):", "rule take(p: player)")
    uri = editor.open(tokens, broken)
    found = editor.diagnostics(uri)
    assert [d.code for d in found] == ["M003"]
    assert found[0].range.start.line == line_of(broken, "rule take")
    assert "':'" in found[0].message


def test_columns_after_characters_beyond_ascii_are_counted_in_utf16(editor: Editor, tokens: Path) -> None:
    """é is one UTF-16 unit and one character; 🎲 is two UTF-16 units and one character."""
    text = TOKENS + 'value label(p: player) = if "é🎲" == "x" then nosuch else 1\n'
    uri = editor.open(tokens, text)
    found = editor.diagnostics(uri, lambda found: any(d.code == "M010" for d in found))
    unknown = next(d for d in found if d.code == "M010")
    line = text.split("\n")[unknown.range.start.line]
    assert "nosuch" in line
    characters = line.index("nosuch")
    assert unknown.range.start.character == characters + 1  # the die counts twice
    assert unknown.range.end.character == characters + 1 + len("nosuch")


def test_setup_under_each_option_of_a_table_is_checked_from_the_editors_text(
    editor: Editor, tokens: Path
) -> None:
    """`meeple check` runs setup under every other row of an option's table: the document the
    editor holds (here never saved) is read again for it, not the disk."""
    text = (
        TOKENS.replace(
            "constant target = 3\n",
            "table goal (name, n: int):\n  short, 2\n  long, 900\n\n"
            "option length: goal = long\nconstant target = length.n\n",
        )
        .replace("piece token: 10 in pool", "piece token: target in pool")
        .replace(
            "play:\n", "setup:\n  for each p in players:\n    move 2 token from pool to p.store\n\nplay:\n"
        )
    )
    uri = editor.open(tokens.with_name("unsaved.rules"), text)
    found = editor.diagnostics(uri, lambda found: bool(found))
    assert [d.code for d in found] == ["M044"]
    assert "(with length=short)" in found[0].message


def test_hover_on_a_rule_shows_its_text_its_words_and_its_citation(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    line = line_of(TOKENS, "          take(p)")
    shown = editor.hover(uri, line, 12)
    assert shown is not None and shown.contents.kind == lsp.MarkupKind.Markdown
    text = shown.contents.value
    assert "**rule** `take`" in text
    assert "Take one token from the pool." in text
    assert "> take a token" in text
    assert "Move" in text and "token" in text.split("*In words:*")[1]  # the generated English


def test_hover_on_a_bundled_game_shows_a_citation(editor: Editor) -> None:
    path = bundled_dir() / "dino_party.rules"
    text = path.read_text(encoding="utf-8")
    uri = editor.open(path, text)
    editor.diagnostics(uri)
    line = line_of(text, "rule throw(p: player):")
    shown = editor.hover(uri, line, len("rule th"))
    assert shown is not None
    assert "**rule** `throw`" in shown.contents.value
    assert "Aim one Dino from your hand" in shown.contents.value
    symbols = editor.symbols(uri)
    names = [s.name for s in symbols]
    assert {"throw", "epochs", "continent", "play", "setup"} <= set(names)
    play = symbols[names.index("play")]
    phases = [c.name for c in play.children]
    assert "epoch" in phases
    epoch = play.children[phases.index("epoch")]
    assert "throw_dinos" in [c.name for c in epoch.children]


def test_hover_on_a_keyword_says_what_the_language_reference_says(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    shown = editor.hover(uri, line_of(TOKENS, "  move 1 token"), 3)
    assert shown is not None
    assert "**keyword** `move`" in shown.contents.value
    assert "`move N KIND [ROW] [of OWNER] from SRC to DEST`" in shown.contents.value


def test_hover_on_a_built_in_gives_its_usage_and_value(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    line = line_of(TOKENS, "if count(")
    shown = editor.hover(uri, line, TOKENS.split("\n")[line].index("count") + 1)
    assert shown is not None
    assert "`count(x)`" in shown.contents.value and "number of pieces in a location" in shown.contents.value


def test_hover_on_an_attribute_says_what_the_attribute_table_says(editor: Editor, tokens: Path) -> None:
    """`p.seat`: the line interpreter/attributes.py gives the attribute, for what p is."""
    text = TOKENS.replace(
        "  move 1 token from pool to p.store\n", '  move 1 token from pool to p.store\n  log "{p.seat}"\n'
    )
    uri = editor.open(tokens, text)
    editor.diagnostics(uri)
    line = line_of(text, "log ")
    shown = editor.hover(uri, line, text.split("\n")[line].index("seat") + 1)
    assert shown is not None
    assert "**attribute** `seat` of a player" in shown.contents.value
    assert SEAT.doc in shown.contents.value


def test_hover_on_a_name_of_the_language_says_what_it_is(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    line = line_of(TOKENS, "for each p in players")
    shown = editor.hover(uri, line, TOKENS.split("\n")[line].index("players") + 1)
    assert shown is not None
    assert "**built-in name** `players`: a list of players" in shown.contents.value
    assert OWN_NAMES["players"].doc in shown.contents.value


def test_hover_on_a_parameter_is_not_the_declaration_of_that_name(editor: Editor, tokens: Path) -> None:
    """A parameter named like a declaration hides it in its rule (docs/language.md, "Names")."""
    text = TOKENS + "\nvalue twice(target: int) = target * 2\n"
    uri = editor.open(tokens, text)
    editor.diagnostics(uri)
    line = line_of(text, "value twice")
    assert editor.hover(uri, line, text.split("\n")[line].rindex("target") + 1) is None
    assert editor.definition(uri, line, text.split("\n")[line].rindex("target") + 1) == []


def test_definition_jumps_to_the_declaration(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    used = line_of(TOKENS, "if count(pieces(p.store)) >= target")
    where = editor.definition(uri, used, TOKENS.split("\n")[used].index("target") + 2)
    declared = line_of(TOKENS, "constant target")
    assert where == [lsp.Location(uri, lsp.Range(lsp.Position(declared, 9), lsp.Position(declared, 15)))]


def test_definition_in_a_variant_jumps_into_its_base_game(editor: Editor, tokens: Path) -> None:
    variant = tokens.with_name("quick.rules")
    text = (
        'variant "Quick" of "tokens.rules":\n  players 2..2\n\n'
        "replace constant target = 2\n\n"
        'replace rule take(p: player):\n  text "Take two tokens."\n  move 2 token from pool to p.store\n'
    )
    uri = editor.open(variant, text)
    assert [d.code for d in editor.diagnostics(uri)] == []
    moved = line_of(text, "move 2 token")
    where = editor.definition(uri, moved, text.split("\n")[moved].index("pool"))
    declared = line_of(TOKENS, "zone pool")
    assert where == [
        lsp.Location(
            from_fs_path(str(tokens)), lsp.Range(lsp.Position(declared, 5), lsp.Position(declared, 9))
        )
    ]
    replaced = editor.definition(uri, line_of(text, "constant target"), len("replace constant ta"))
    assert [w.uri for w in replaced] == [uri]  # the variant's constant stands for the base game's
    assert [s.name for s in editor.symbols(uri)] == ["Quick", "target", "take"]
    hover = editor.hover(uri, moved, text.split("\n")[moved].index("token"))
    assert hover is not None and "**piece** `token`" in hover.contents.value


def test_a_variant_may_not_make_the_server_read_outside_its_folder(editor: Editor, tokens: Path) -> None:
    secret = tokens.parent.parent / "secret.rules"
    text = f'variant "Sneaky" of "{secret}":\n  players 2..2\n'
    uri = editor.open(tokens.with_name("sneaky.rules"), text)
    found = editor.diagnostics(uri)
    assert [d.code for d in found] == ["M091"]
    assert "not '" in found[0].message


def test_a_document_not_on_disk_may_be_a_variant_of_a_bundled_game_only(editor: Editor) -> None:
    """An editor's new buffer has no folder: nothing is beside it, bundled games are found."""
    uri = "untitled:Untitled-1"
    editor.versions[uri] = 1
    text = 'variant "Short" of "dino_party":\n  players 2..4\n\nreplace constant epochs = 3\n'
    item = lsp.TextDocumentItem(uri=uri, language_id="meeple", version=1, text=text)
    editor.client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
    assert "M099" not in {d.code for d in editor.diagnostics(uri, lambda found: True)}
    assert [s.name for s in editor.symbols(uri)] == ["Short", "epochs"]
    editor.change(uri, text.replace('"dino_party"', '"tokens.rules"'))
    found = editor.diagnostics(uri)
    assert [d.code for d in found] == ["M091"]


def completion_at(
    editor: Editor, tokens: Path, text: str, needle: str, line: int | None = None
) -> dict[str, lsp.CompletionItem]:
    """What completion offers with the cursor just after `needle` (in a version that does not
    parse: the names come from the latest one that did)."""
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    editor.change(uri, text)
    line = line_of(text, needle) if line is None else line
    column = text.split("\n")[line].index(needle) + len(needle)
    return {i.label: i for i in editor.completion(uri, line, column).items}


def test_completion_after_a_players_dot_offers_what_a_player_has(editor: Editor, tokens: Path) -> None:
    text = TOKENS.replace("  move 1 token from pool to p.store", "  move 1 token from pool to p.")
    items = completion_at(editor, tokens, text, "to p.")
    assert set(items) == {"seat", "store"}
    assert items["store"].kind == lsp.CompletionItemKind.Field and items["store"].detail == "zone per player"


def test_completion_after_a_rows_dot_offers_its_columns(editor: Editor, tokens: Path) -> None:
    table = "table level (name, tokens: int):\n  low, 1\n  high, 2\n\n"
    text = table + TOKENS.replace(
        "score p = count(pieces(p.store))", "score p = sum([l.tokens for each l in level])"
    )
    typed = text.replace("[l.tokens for", "[l. for")
    uri = editor.open(tokens, text)
    assert editor.diagnostics(uri) == []
    editor.change(uri, typed)
    line = line_of(typed, "[l. for")
    items = editor.completion(uri, line, typed.split("\n")[line].index("[l.") + 3).items
    assert {i.label for i in items} == {"name", "tokens"}
    rows = typed.replace("[l. for", "[level. for")
    editor.change(uri, rows)
    items = editor.completion(uri, line, rows.split("\n")[line].index("level.") + 6).items
    assert {i.label for i in items} == {"low", "high"}


def test_completion_at_the_start_of_a_line_offers_statements_and_rules(editor: Editor, tokens: Path) -> None:
    text = TOKENS.replace("          take(p)\n", "          take(p)\n          mo\n")
    items = completion_at(editor, tokens, text, "          mo")
    assert items["move"].kind == lsp.CompletionItemKind.Keyword and items["take"].detail == "rule"
    assert "count" not in items and "target" not in items
    text = TOKENS + "\nru\n"
    items = completion_at(editor, tokens, text, "ru", line=len(text.split("\n")) - 2)
    assert {"rule", "table", "zone", "value"} <= set(items) and "move" not in items


def test_completion_in_an_expression_offers_the_names_in_scope_and_built_ins(
    editor: Editor, tokens: Path
) -> None:
    text = TOKENS.replace("if count(pieces(p.store)) >= target:", "if count(pieces(p.store)) >= ta")
    items = completion_at(editor, tokens, text, ">= ta")
    assert items["p"].detail == "local name"
    assert items["target"].kind == lsp.CompletionItemKind.Constant
    assert items["count"].kind == lsp.CompletionItemKind.Function and items["count"].detail == "count(x)"
    assert items["and"].kind == lsp.CompletionItemKind.Keyword
    assert "move" not in items and "rule" not in items


def test_the_outline_lists_the_declarations_and_the_steps_of_a_phase(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    symbols = editor.symbols(uri)
    outline = [(s.name, s.kind) for s in symbols]
    assert outline == [
        ("Tokens", lsp.SymbolKind.Module),
        ("target", lsp.SymbolKind.Constant),
        ("pool", lsp.SymbolKind.Array),
        ("store", lsp.SymbolKind.Array),
        ("token", lsp.SymbolKind.Object),
        ("take", lsp.SymbolKind.Function),
        ("play", lsp.SymbolKind.Module),
        ("score", lsp.SymbolKind.Field),
    ]
    take = symbols[5]
    line = line_of(TOKENS, "rule take")
    assert take.selection_range == lsp.Range(lsp.Position(line, 5), lsp.Position(line, 9))
    play = symbols[6]
    assert [c.name for c in play.children] == ["rounds"]
    assert [c.name for c in play.children[0].children] == ["taking"]


@pytest.mark.parametrize(
    ("hostile", "code"),
    [
        # brackets of an expression are no levels of the tree: it parses, and the constant is unused
        pytest.param("constant x = " + "(" * 10_000 + "1" + ")" * 10_000 + "\n", "M021", id="10000-brackets"),
        pytest.param("constant x = " + "[" * 10_000 + "1" + "]" * 10_000 + "\n", "M007", id="10000-lists"),
        pytest.param('constant x = "' + "a" * 5_000_000 + '"\n', "M098", id="5MB-line"),
    ],
)
def test_a_hostile_document_gets_a_diagnostic_and_the_server_goes_on(
    editor: Editor, tokens: Path, hostile: str, code: str
) -> None:
    uri = editor.open(tokens.with_name("hostile.rules"), TOKENS + hostile)
    found = editor.diagnostics(uri, lambda found: bool(found))
    assert code in {d.code for d in found}
    other = editor.open(tokens, TOKENS)
    assert editor.diagnostics(other) == []
    assert editor.hover(other, line_of(TOKENS, "          take(p)"), 12) is not None


def test_references_are_every_use_of_a_declaration(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    found = editor.references(uri, line_of(TOKENS, "constant target"), len("constant ta"))
    lines = [(w.uri, w.range.start.line) for w in found]
    assert lines == [(uri, line_of(TOKENS, "constant target")), (uri, line_of(TOKENS, ">= target"))]
    used = editor.references(uri, line_of(TOKENS, ">= target"), 38, declaration=False)
    assert [w.range.start.line for w in used] == [line_of(TOKENS, ">= target")]


QUICK = (
    'variant "Quick" of "tokens.rules":\n  players 2..2\n\n'
    'replace rule take(p: player):\n  text "Take two tokens."\n  move 2 token from pool to p.store\n'
)


def test_rename_changes_a_variant_and_the_base_game_it_changes(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens.with_name("quick.rules"), QUICK)
    assert editor.diagnostics(uri) == []
    line = line_of(QUICK, "move 2 token")
    column = QUICK.split("\n")[line].index("pool") + 1
    assert editor.prepare_rename(uri, line, column) == lsp.Range(
        lsp.Position(line, column - 1), lsp.Position(line, column + 3)
    )
    edit = editor.rename(uri, line, column, "supply")
    base = from_fs_path(str(tokens))
    assert set(edit.changes) == {uri, base}
    assert [e.range.start.line for e in edit.changes[uri]] == [line]
    in_base = sorted((e.range.start.line, e.range.start.character) for e in edit.changes[base])
    lines = TOKENS.split("\n")
    assert in_base == [
        (n, lines[n].index("pool"))
        for n in (line_of(TOKENS, needle) for needle in ("zone pool", "piece", "move 1"))
    ]
    assert all(e.new_text == "supply" for edits in edit.changes.values() for e in edits)


def test_rename_refuses_a_keyword_a_taken_name_and_an_undeclared_one(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    line = line_of(TOKENS, "constant target")
    for new in ("move", "take", "2much", "count"):
        with pytest.raises(Exception, match="name"):
            editor.rename(uri, line, len("constant ta"), new)
    with pytest.raises(Exception, match="not declared"):
        editor.rename(uri, line_of(TOKENS, "for each p in players"), len("      for each p"), "q")


def test_a_did_you_mean_has_a_quick_fix_that_writes_the_name_it_proposes(
    editor: Editor, tokens: Path
) -> None:
    uri = editor.open(tokens, TOKENS)
    broken = TOKENS.replace("if count(pieces(p.store)) >= target", "if count(pieces(p.stroe)) >= targte")
    editor.change(uri, broken)
    found = editor.diagnostics(uri, lambda found: {"M010", "M013"} <= {d.code for d in found})
    fixes = {}
    for d in found:
        if "did you mean" not in d.message:
            assert not editor.code_actions(uri, [d])
            continue
        (action,) = editor.code_actions(uri, [d])
        assert action.kind == lsp.CodeActionKind.QuickFix
        (edit,) = action.edit.changes[uri]
        fixes[edit.new_text] = edit.range
    line = line_of(broken, "targte")
    written = broken.split("\n")[line]
    assert fixes == {
        "store": lsp.Range(
            lsp.Position(line, written.index("stroe")), lsp.Position(line, written.index("stroe") + 5)
        ),
        "target": lsp.Range(
            lsp.Position(line, written.index("targte")), lsp.Position(line, written.index("targte") + 6)
        ),
    }


def test_a_diagnostic_without_a_suggestion_has_no_quick_fix(editor: Editor, tokens: Path) -> None:
    uri = editor.open(tokens, TOKENS)
    broken = TOKENS.replace("          take(p)", "          zzzzzz(p)")
    editor.change(uri, broken)
    found = editor.diagnostics(uri, lambda found: any(d.code == "M010" for d in found))
    assert not editor.code_actions(uri, found)


def test_the_slow_checks_come_after_the_loaders_and_at_once_when_saved(editor: Editor, tokens: Path) -> None:
    """As one types, the loader's diagnostics (parse, analysis) come first; the checks on top
    (here: a citation the rulebook does not hold, M050) come once typing pauses, or at once when
    the file is saved."""
    uri = editor.open(tokens, TOKENS)
    editor.diagnostics(uri)
    editor.change(uri, TOKENS.replace('cites "take a token"', 'cites "take a pebble"'))
    editor.save(uri)
    found = editor.diagnostics(uri, lambda found: any(d.code == "M050" for d in found))
    assert [d.code for d in found] == ["M050"]
    assert editor.published_for(uri)[0] == []  # the loader's, before the checks'
