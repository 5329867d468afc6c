"""The language server's index of a document (meeple/lsp_index.py) and its words for keywords and
built-ins (meeple/lsp_help.py): what references, rename and completion are built on, checked
without a server."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple.interpreter.types import PLAYER, Piece, Row
from meeple.loader import Checked, check
from meeple.lsp_help import builtin_help, keyword_help
from meeple.lsp_index import Index, Place, attributes, build, expression_words, in_scope, rows_of, type_of

GAME = """\
game "Stones":
  players 2..3

table colour (name, worth: int):
  red, 1
  blue, 2

constant goal = 5
zone bag
zone hand per player
var gold: int = 0 per player
var stock: int = 0 per colour
piece stone: each colour in bag

rule gain(p: player):
  text "Take a stone, until {goal} gold"
  # gain is said again in this comment, and in this text: "gain"
  for each c in colour where c.worth > 0:
    add c.worth to p.gold
  move 1 stone from bag to p.hand

rule loop(gain: int):
  log "{gain} again"

value rich(p: player) = p.gold >= goal

play:
  phase rounds:
    while yes:
      for each p in players:
        gain(p)
        loop(1)
        if rich(p):
          end game

score p = p.gold
"""


@pytest.fixture
def checked(tmp_path: Path) -> Checked:
    path = tmp_path / "stones.rules"
    path.write_text(GAME, encoding="utf-8")
    found = check(path)
    assert found.ok, [d.message for d in found.diagnostics]
    return found


def at(place: Place) -> tuple[int, str]:
    """A place as its line and the word written there."""
    line = GAME.split("\n")[place.line - 1]
    return place.line, line[place.start - 1 : place.end - 1]


def line_of(needle: str) -> int:
    return next(n for n, line in enumerate(GAME.split("\n"), start=1) if needle in line)


def index_of(checked: Checked) -> Index:
    assert checked.module is not None
    return build(checked.module)


def test_references_are_the_declaration_then_every_use_outside_comments_and_texts(checked: Checked) -> None:
    index = index_of(checked)
    found = [at(p) for p in index.references("gain")]
    assert found == [(line_of("rule gain"), "gain"), (line_of("        gain(p)"), "gain")]


def test_a_parameter_of_the_same_name_hides_the_declaration_in_its_own_rule(checked: Checked) -> None:
    """docs/language.md, "Names": parameters are looked up before declarations."""
    index = index_of(checked)
    lines = {p.line for p in index.references("gain")}
    assert line_of("rule loop") not in lines and line_of('log "{gain} again"') not in lines
    assert index.is_local("gain", str(checked.path), line_of('log "{gain} again"'))


def test_a_texts_braced_parts_are_uses(checked: Checked) -> None:
    index = index_of(checked)
    assert (line_of("Take a stone"), "goal") in [at(p) for p in index.references("goal")]


def test_an_attribute_is_a_use_only_of_a_name_declared_per_owner(checked: Checked) -> None:
    index = index_of(checked)
    gold = [at(p) for p in index.references("gold")]
    assert (line_of("add c.worth to p.gold"), "gold") in gold and (line_of("score p"), "gold") in gold
    assert index.references("worth") == []  # a column is not a declaration


def test_a_tables_rows_and_column_headings_are_no_uses(checked: Checked) -> None:
    index = index_of(checked)
    assert [at(p)[0] for p in index.references("colour")].count(line_of("table colour")) == 1
    assert all(p.line not in (line_of("red, 1"), line_of("blue, 2")) for p in index.references("colour"))


def test_the_declarations_of_a_phase_are_indexed(checked: Checked) -> None:
    index = index_of(checked)
    assert [(d.kind, at(d.place)) for d in index.declared("rounds")] == [
        ("phase", (line_of("phase rounds"), "rounds"))
    ]


def test_a_loop_variable_has_the_type_analysis_gave_it(checked: Checked) -> None:
    index, symbols = index_of(checked), checked.symbols
    assert symbols is not None
    assert type_of(index, symbols, "c", str(checked.path), line_of("add c.worth")) == Row("colour")
    assert type_of(index, symbols, "p", str(checked.path), line_of("add c.worth")) == PLAYER
    assert type_of(index, symbols, "current", str(checked.path), 1) == PLAYER


def test_a_rows_attributes_are_its_columns_and_what_is_declared_per_its_table(checked: Checked) -> None:
    symbols = checked.symbols
    assert symbols is not None
    assert set(attributes(symbols, Row("colour"))) == {"name", "worth", "stock"}
    assert set(attributes(symbols, PLAYER)) == {"seat", "hand", "gold"}
    assert {"owner", "kind", "location", "row", "worth"} <= set(attributes(symbols, Piece("stone")))
    assert rows_of(symbols.tables["colour"]) == ["red", "blue"]


def test_names_in_scope_are_the_locals_first_then_the_declarations(checked: Checked) -> None:
    index, symbols = index_of(checked), checked.symbols
    assert symbols is not None
    names = in_scope(index, symbols, str(checked.path), line_of("add c.worth"))
    assert list(names)[:2] == ["c", "p"]
    assert names["goal"] == "constant" and names["rich"] == "value" and names["red"] == "row of colour"
    assert "c" not in in_scope(index, symbols, str(checked.path), line_of("score p"))


def test_the_words_of_an_expression_come_from_the_grammar() -> None:
    assert {"and", "or", "not", "if", "then", "else", "each", "where", "yes", "none"} <= expression_words()
    assert "move" not in expression_words() and "rule" not in expression_words()


def test_a_built_ins_hover_is_its_reference_row() -> None:
    words = builtin_help("count")
    assert words is not None and "`count(x)`" in words and "number of pieces" in words
    assert builtin_help("nosuch") is None


def test_a_keywords_hover_is_what_the_language_reference_says() -> None:
    move = keyword_help("move")
    assert move is not None and "`move N KIND [ROW] [of OWNER] from SRC to DEST`" in move
    turn = keyword_help("turn")
    assert turn is not None and "makes PLAYER the current player" in turn
    zone = keyword_help("zone")
    assert zone is not None and len(zone) > len("**keyword** `zone`")
    assert keyword_help("frog") is None


def test_a_keyword_without_the_reference_says_only_that_it_is_one(tmp_path: Path) -> None:
    assert keyword_help("move", tmp_path / "missing.md") == "**keyword** `move`"
