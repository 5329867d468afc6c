"""A text is parsed declaration by declaration, each part kept by its text and first line
(grammar/parser.py, `parse`): parsing a text again after an edit parses only what changed, and
gives the module, and the syntax errors, that parsing the whole text at once gives."""

from __future__ import annotations

import pytest
from helpers import ROOT

from meeple.diagnostics import RulesError
from meeple.grammar import ast
from meeple.grammar.parser import _chunks, _parse_part, _parsed_part, parse

TEXT = """\
game "Parts":
  players 2..2

# a comment at the start of a line, inside no declaration
constant many = 3
constant listed = [1,
2, 3]
constant joined = 1 + \\
2

rule take(p: player):
  # a comment inside a block
  log "take {many}"

play:
  take(players[0])
"""


def whole(text: str, file: str = "parts.rules") -> tuple[list[ast.Decl], list[ast.Meta]]:
    """The declarations and metadata of a text parsed at once, as one part."""
    items = _parse_part(text, file)
    return [i for i in items if not isinstance(i, ast.Meta)], [i for i in items if isinstance(i, ast.Meta)]


def test_a_text_is_cut_where_a_declaration_starts_outside_brackets_and_continued_lines() -> None:
    firsts = [first for first, _ in _chunks(TEXT)]
    lines = TEXT.split("\n")
    assert [lines[first - 1] for first in firsts] == [
        'game "Parts":',
        "constant many = 3",
        "constant listed = [1,",
        "constant joined = 1 + \\",
        "rule take(p: player):",
        "play:",
    ]
    assert "".join(text for _, text in _chunks(TEXT)) == TEXT


@pytest.mark.parametrize("game", ["dino_garden", "dino_dynasty", "gods_love_dinosaurs", "dino_party"])
def test_a_game_parsed_in_parts_is_the_game_parsed_at_once(game: str) -> None:
    path = ROOT / "games" / f"{game}.rules"
    text = path.read_text(encoding="utf-8")
    module = parse(text, str(path))
    decls, meta = whole(text if text.endswith("\n") else text + "\n", str(path))
    assert [d.model_dump() for d in module.decls] == [d.model_dump() for d in decls]
    assert [m.model_dump() for m in module.meta] == [m.model_dump() for m in meta]


def test_an_edit_parses_again_only_the_declaration_it_changed() -> None:
    parse(TEXT, "edited.rules")
    before = _parsed_part.cache_info().misses
    parse(TEXT.replace('log "take {many}"', 'log "take {many} now"'), "edited.rules")
    assert _parsed_part.cache_info().misses == before + 1


def test_a_line_added_above_moves_the_declarations_below_without_parsing_them_again() -> None:
    parse(TEXT, "moved.rules")
    before = _parsed_part.cache_info().misses
    moved = parse(TEXT.replace("# a comment at", "\n\n# a comment at"), "moved.rules")
    assert _parsed_part.cache_info().misses == before + 1  # the part that holds the new lines
    decls, _ = whole(TEXT.replace("# a comment at", "\n\n# a comment at"), "moved.rules")
    assert [d.model_dump() for d in moved.decls] == [d.model_dump() for d in decls]


def test_a_declaration_written_twice_is_two_declarations_each_where_it_stands() -> None:
    twice = TEXT + "constant many = 3\n"
    module = parse(twice, "twice.rules")
    many = [d for d in module.decls if isinstance(d, ast.Constant) and d.name == "many"]
    assert [d.span.line for d in many] == [5, len(twice.split("\n")) - 1]
    assert many[0] is not many[1] and many[0].value is not many[1].value


def test_the_module_is_the_callers_own() -> None:
    first = parse(TEXT, "own.rules")
    assert isinstance(first.decls[1], ast.Constant)
    first.decls[1].name = "changed"
    assert parse(TEXT, "own.rules").decls[1].name == "many"


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param(TEXT.replace("rule take(p: player):\n", "rule take(p: player):\n\n"), id="blank-line"),
        pytest.param(TEXT.replace('  log "take {many}"\n', ""), id="block-cut-short-by-the-next"),
        pytest.param(TEXT.replace("constant many = 3", "constant many = "), id="value-missing"),
        pytest.param(TEXT.replace("play:\n", "play\n"), id="colon-missing"),
        pytest.param(TEXT.replace('log "take {many}"', 'log "take {many +}"'), id="text-expression"),
        pytest.param(TEXT.replace("2, 3]", "2, 3"), id="bracket-left-open"),
    ],
)
def test_a_syntax_error_is_the_one_a_parse_of_the_whole_text_finds(broken: str) -> None:
    try:
        whole(broken)
    except RulesError as err:
        expected = err.diagnostics
    else:
        expected = []
    if not expected:
        assert parse(broken, "parts.rules")
        return
    with pytest.raises(RulesError) as found:
        parse(broken, "parts.rules")
    assert found.value.diagnostics == expected
    assert found.value.sources == {"parts.rules": broken}
