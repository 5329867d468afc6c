"""The syntax of `.rules` files: what parses to which AST node, and how a syntax error is reported.

Every syntax error is a `RulesError` whose first diagnostic names the file, the line and the column
of the mistake and says what was expected in the designer's words: never Lark's token names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meeple
from meeple import Diagnostic, RulesError
from meeple.grammar import ast
from meeple.grammar.parser import parse

GAMES = Path(__file__).resolve().parent.parent / "games"
FILE = "test.rules"
HEADER = 'game "Test":\n  players 2..4\n'  # two lines: what follows starts on line 3


def syntax_error(source: str, file: str = FILE) -> Diagnostic:
    """The first diagnostic of the syntax error that `source` must raise."""
    with pytest.raises(RulesError) as info:
        parse(source, file)
    assert info.value.diagnostics, "a RulesError carries at least one diagnostic"
    return info.value.diagnostics[0]


# Anything that looks like a Lark terminal name: NAME, RPAR, _NL, __ANON_0, $END ...
_TOKEN_NAME = re.compile(r"\$END|__ANON\w*|\b_?[A-Z][A-Z0-9_]*[A-Z0-9]\b")


def assert_in_user_words(diag: Diagnostic) -> None:
    """No Lark token name in the message or the hint (quoted source text like 'X' does not count)."""
    text = re.sub(r"'[^']*'", "''", f"{diag.message} {diag.hint}")
    assert not _TOKEN_NAME.findall(text), f"token names in: {diag.message!r} / {diag.hint!r}"


def position_of(source: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the `occurrence`-th `needle` in `source`."""
    index = -1
    for _ in range(occurrence):
        index = source.index(needle, index + 1)
    line = source.count("\n", 0, index) + 1
    column = index - (source.rfind("\n", 0, index) + 1) + 1
    return line, column


# ===================================================================== syntax errors


@pytest.mark.parametrize(
    ("source", "header_line"),
    [
        ('game "Test"\n  players 2..4\n', 'game "Test"'),
        (HEADER + "play\n  end game\n", "play"),
        (HEADER + "rule grow()\n  end game\n", "rule grow()"),
        (HEADER + "play:\n  if yes\n    end game\n", "  if yes"),
        (HEADER + "play:\n  for each p in players\n    end game\n", "  for each p in players"),
    ],
)
def test_a_block_header_ends_with_a_colon(source: str, header_line: str) -> None:
    diag = syntax_error(source)
    line, _ = position_of(source, header_line + "\n")
    assert (diag.file, diag.line, diag.column) == (FILE, line, len(header_line) + 1)
    assert diag.code == "M003"
    assert diag.severity == "error"
    assert "':'" in diag.message
    assert "did you forget the ':'" in diag.hint
    assert_in_user_words(diag)


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        (HEADER + "play:\nend game\n", 4, 1),
        (HEADER + "play:\n  if yes:\n  end game\n", 5, 3),
    ],
)
def test_a_block_is_indented_under_its_header(source: str, line: int, column: int) -> None:
    diag = syntax_error(source)
    assert (diag.file, diag.line, diag.column) == (FILE, line, column)
    assert diag.code == "M003"
    assert_in_user_words(diag)


@pytest.mark.parametrize(
    "source",
    [HEADER + "play:\nend game\n", HEADER + "play:\n  if yes:\n  end game\n"],
)
def test_an_unindented_block_is_reported_as_a_missing_indented_block(source: str) -> None:
    diag = syntax_error(source)
    assert "an indented block" in diag.message
    assert "the end of the line" not in diag.message


def test_a_dedent_returns_to_the_indentation_of_an_enclosing_block() -> None:
    source = HEADER + "play:\n    if yes:\n        end game\n  end game\n"
    diag = syntax_error(source)
    assert (diag.file, diag.line, diag.column) == (FILE, 6, 3)
    assert diag.code == "M004"
    assert diag.severity == "error"
    assert "indentation" in diag.message
    assert_in_user_words(diag)


def test_a_dedent_error_ignores_comment_lines() -> None:
    source = HEADER + "play:\n    end game\n  # a comment at another indentation\n  end game\n"
    diag = syntax_error(source)
    assert (diag.line, diag.column, diag.code) == (6, 3, "M004")


def test_a_dedent_error_is_located_when_blocks_are_indented_with_tabs() -> None:
    source = HEADER + "play:\n\tif yes:\n\t\tend game\n   end game\n"
    diag = syntax_error(source)
    assert (diag.line, diag.column, diag.code) == (6, 4, "M004")


def test_a_line_indented_deeper_than_its_block_is_a_syntax_error() -> None:
    source = HEADER + "play:\n  end game\n    end game\n"
    diag = syntax_error(source)
    assert diag.code == "M003"
    assert "only a line ending in ':' opens a block" in diag.hint
    assert_in_user_words(diag)


def test_a_line_indented_deeper_than_its_block_is_reported_on_that_line() -> None:
    source = HEADER + "play:\n  end game\n    end game\n"
    diag = syntax_error(source)
    assert diag.line == 5
    assert 1 <= diag.column <= 5


@pytest.mark.parametrize(
    ("source", "char"),
    [
        (HEADER + "constant x = 3 $ 4\n", "$"),
        (HEADER + "constant x = @\n", "@"),
        (HEADER + "constant café = 1\n", "é"),
        (HEADER + "play:\n  end game ;\n", ";"),
    ],
)
def test_a_character_outside_the_language_is_M001(source: str, char: str) -> None:
    diag = syntax_error(source)
    assert (diag.file, diag.line, diag.column) == (FILE, *position_of(source, char))
    assert diag.code == "M001"
    assert diag.severity == "error"
    assert f"'{char}'" in diag.message
    assert_in_user_words(diag)


def test_an_unterminated_text_is_reported_at_its_opening_quote() -> None:
    source = HEADER + 'play:\n  log "hello\n'
    diag = syntax_error(source)
    assert (diag.line, diag.column) == position_of(source, '"hello')
    assert diag.code == "M001"


def test_an_unterminated_text_says_its_closing_quote_is_missing() -> None:
    diag = syntax_error(HEADER + 'play:\n  log "hello\n')
    assert re.search(r"clos|unterminated|unfinished", f"{diag.message} {diag.hint}")
    assert "names use letters" not in diag.hint


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        (HEADER + "play:\n", 3, 6),  # just after the ':' of `play:`
        (HEADER + "play:\n  if yes:\n", 4, 10),
        ('game "Test":\n', 1, 13),
    ],
)
def test_a_block_header_at_the_end_of_the_file_still_needs_its_block(
    source: str, line: int, column: int
) -> None:
    diag = syntax_error(source)
    assert (diag.file, diag.line, diag.column) == (FILE, line, column)
    assert diag.code in {"M002", "M003"}
    assert "indented block" in diag.message
    assert "must be followed by an indented block" in diag.hint
    assert_in_user_words(diag)


@pytest.mark.parametrize(
    "source",
    [HEADER + "constant x = (1 +", HEADER + "constant x = [1, 2", HEADER + "constant x = 1 + \\"],
)
def test_a_file_that_ends_inside_an_expression_says_the_file_ends(source: str) -> None:
    diag = syntax_error(source)
    assert diag.code in {"M002", "M003"}
    assert diag.line == 3
    assert diag.column >= 1
    assert "the end of the file" in diag.message
    assert_in_user_words(diag)


@pytest.mark.parametrize(
    ("source", "at", "found"),
    [
        (HEADER + "constant x = 1 + * 2\n", "* 2", "*"),
        (HEADER + "constant x = (1 + 2))\n", ")\n", ")"),
        (HEADER + "constant x = [1 2]\n", "2]", "2"),
        (HEADER + "play:\n  choose x players:\n    end game\n", "players:", "players"),
        (HEADER + "play:\n  set round 3\n", "3\n", "3"),
        ('game "Test":\n  players two\n', "two", "two"),
    ],
)
def test_a_token_that_cannot_stand_in_its_place_is_reported_at_that_token(
    source: str, at: str, found: str
) -> None:
    diag = syntax_error(source)
    assert (diag.file, diag.line, diag.column) == (FILE, *position_of(source, at))
    assert diag.code == "M003"
    assert "expected " in diag.message
    assert f"'{found}'" in diag.message
    assert diag.end_column == diag.column + len(found)
    assert_in_user_words(diag)


def test_after_a_complete_expression_the_message_offers_the_end_of_the_line() -> None:
    diag = syntax_error(HEADER + "constant x = 1 2\n")
    assert "the end of the line" in diag.message
    assert "')'" not in diag.message


@pytest.mark.parametrize(
    "source",
    [HEADER + "play\n  end game\n", HEADER + "play:\n", HEADER + "constant x = (1 +"],
)
def test_a_syntax_message_says_what_was_expected_and_what_was_found(source: str) -> None:
    diag = syntax_error(source)
    assert "expected " in diag.message
    assert "found " in diag.message
    assert "unexpected the" not in diag.message
    assert "unexpected an" not in diag.message


def test_an_unreadable_expression_inside_a_log_text_is_M005_at_the_text() -> None:
    source = HEADER + 'play:\n  log "score: {1 +}"\n'
    diag = syntax_error(source)
    assert (diag.line, diag.column) == position_of(source, '"score')
    assert diag.code == "M005"
    assert "{1 +}" in diag.message


@pytest.mark.parametrize(
    "source",
    [
        HEADER + 'play:\n  log "C:\\xbox"\n',
        HEADER + 'constant t = "\\N"\n',
        HEADER + 'constant t = "\\u12"\n',
        'game "\\x":\n  players 2..4\n',
    ],
)
def test_a_text_with_a_bad_backslash_escape_is_read_or_reported_never_a_traceback(source: str) -> None:
    # Either reading: keep the backslash as written, or report the escape at its text.
    try:
        parse(source, FILE)
    except RulesError as err:
        diag = err.diagnostics[0]
        assert diag.line >= 1
        assert diag.column >= 1


def test_a_number_too_long_to_read_is_a_syntax_error() -> None:
    diag = syntax_error(HEADER + "constant x = " + "9" * 5000 + "\n")
    assert (diag.line, diag.column) == (3, 14)


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.rules"
    path.write_text(HEADER + "play:\n  end game\n", encoding="utf-8-sig")
    assert meeple.check(path).ok


def test_a_syntax_error_names_the_file_it_was_given() -> None:
    diag = syntax_error(HEADER + "play\n", file="games/variant.rules")
    assert diag.file == "games/variant.rules"
    with pytest.raises(RulesError) as info:
        parse(HEADER + "play\n", "games/variant.rules")
    rendered = info.value.render()
    assert rendered.startswith("games/variant.rules:3:5: error:")
    assert "    play\n" in rendered  # the line, then a caret under the column
    assert "\n        ^" in rendered


def test_check_reports_a_syntax_error_as_a_diagnostic_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "broken.rules"
    path.write_text(HEADER + "play\n  end game\n", encoding="utf-8")
    checked = meeple.check(path)
    assert not checked.ok
    assert checked.module is None
    [diag] = checked.diagnostics
    assert (diag.file, diag.line, diag.column, diag.code) == (str(path), 3, 5, "M003")
    with pytest.raises(RulesError):
        meeple.load(path)


# Broken sources of every kind: none of their messages may name a Lark token.
BROKEN = [
    HEADER + "play\n  end game\n",
    HEADER + "play:\nend game\n",
    HEADER + "play:\n  end game\n    end game\n",
    HEADER + "play:\n",
    HEADER + "constant x = (1 + 2))\n",
    HEADER + "constant x = [1, 2\n",
    HEADER + "constant x = 1 2\n",
    HEADER + "constant x = 1 .. \n",
    HEADER + "table t (a, b: int):\n  x,\n",
    HEADER + "table t (a, b: int:\n  x, 1\n",
    HEADER + "zone z per\n",
    HEADER + "zone z, shiny\n",
    HEADER + "piece p: each in z\n",
    HEADER + "var v: = 1\n",
    HEADER + "rule r(a b):\n  end game\n",
    HEADER + "rule r():\n  random:\n    outcome a 50:\n      end game\n",
    HEADER + "rule r():\n  random:\n    end game\n",
    HEADER + 'example "e":\n  choices: 1, x\n',
    HEADER + "when dino d enters:\n  end game\n",
    HEADER + "score = 1\n",
    HEADER + "play:\n  phase:\n    end game\n",
    HEADER + "play:\n  if yes:\n    end game\n  else\n    end game\n",
    HEADER + "play:\n  set x 3\n",
    HEADER + "play:\n  move all from a to b\n",
    HEADER + "play:\n  pick x at from y:\n    end game\n",
    HEADER + "play:\n  log hello\n",
    HEADER + "cites hello\n",
    "players 2..4\n",
    HEADER + "end game\n",
]


@pytest.mark.parametrize("source", BROKEN)
def test_a_syntax_error_is_described_in_the_designers_words(source: str) -> None:
    diag = syntax_error(source)
    assert diag.severity == "error"
    assert diag.code in {"M001", "M002", "M003", "M004", "M005"}
    assert diag.line >= 1
    assert diag.column >= 1
    assert diag.message
    assert_in_user_words(diag)


# ===================================================================== what parses to what

SAMPLE = """# A sample game: every construct the tests below look at.
game "Sample":
  players 2..4
  rulebook "sample.txt"

constant bonus = 2
  assume "Our own number."

table animal (name, strength: int, favours: animal?, night: bool):
  frog,  -3, -,    no
  tiger,  5, frog, yes

zone pool
zone hand per player, private
piece token: 10 per player in pool
var energy: int = 3 per player within 0..15

rule hunt(p: player):
  text "Every other player may hunt."
  for each q in players where q != p chosen by p:
    choose a from animal where a.strength > 0 by q prompt "Pick one":
      random "roll":
        outcome high chance 30:
          log "{q} rolls {a.strength + bonus}!"
        outcome low otherwise:
          add 1 to q.energy

play:
  for each p in players:
    turn p:
      hunt(p)

score p = p.energy
"""


@pytest.fixture(scope="module")
def sample() -> ast.Module:
    return parse(SAMPLE, "sample.rules")


def decl(module: ast.Module, kind: type[ast.Decl], name: str | None = None) -> ast.Decl:
    found = [
        d for d in module.decls if isinstance(d, kind) and (name is None or getattr(d, "name", None) == name)
    ]
    assert len(found) == 1, f"one {kind.__name__} {name or ''}"
    return found[0]


def starts_at(node: ast.Node, source: str, needle: str, occurrence: int = 1) -> bool:
    line, column = position_of(source, needle, occurrence)
    return (node.span.file, node.span.line, node.span.column) == ("sample.rules", line, column)


def test_a_file_is_a_module_of_declarations_in_source_order(sample: ast.Module) -> None:
    kinds = [type(d).__name__ for d in sample.decls]
    assert kinds == [
        "GameHeader",
        "Constant",
        "Table",
        "ZoneDecl",
        "ZoneDecl",
        "PieceDecl",
        "VarDecl",
        "RuleDecl",
        "PlayDecl",
        "ScoreDecl",
    ]
    assert sample.file == "sample.rules"
    assert sample.source.startswith("# A sample game")


def test_the_game_header_gives_name_player_range_and_rulebook(sample: ast.Module) -> None:
    header = decl(sample, ast.GameHeader)
    assert isinstance(header, ast.GameHeader)
    assert (header.name, header.min_players, header.max_players) == ("Sample", 2, 4)
    assert header.rulebook == "sample.txt"
    assert starts_at(header, SAMPLE, 'game "Sample"')


def test_an_indented_assume_belongs_to_the_declaration_above(sample: ast.Module) -> None:
    const = decl(sample, ast.Constant, "bonus")
    assert isinstance(const, ast.Constant)
    assert const.value == ast.Num(value=2, span=const.value.span)
    assert [(m.kind, m.value) for m in const.meta] == [("assume", "Our own number.")]
    assert starts_at(const.meta[0], SAMPLE, 'assume "Our own')


def test_table_columns_have_optional_types(sample: ast.Module) -> None:
    table = decl(sample, ast.Table, "animal")
    assert isinstance(table, ast.Table)
    columns = [
        (c.name, c.type.name if c.type else None, c.type.optional if c.type else None) for c in table.columns
    ]
    assert columns == [
        ("name", None, None),
        ("strength", "int", False),
        ("favours", "animal", True),
        ("night", "bool", False),
    ]
    assert starts_at(table.columns[1], SAMPLE, "strength: int")
    assert starts_at(table.columns[2].type, SAMPLE, "animal?")  # type: ignore[arg-type]


def test_table_cells_are_names_numbers_negative_numbers_yes_no_and_dash_for_empty(sample: ast.Module) -> None:
    table = decl(sample, ast.Table, "animal")
    assert isinstance(table, ast.Table)
    assert [row.cells for row in table.rows] == [["frog", -3, None, False], ["tiger", 5, "frog", True]]
    assert [row.names for row in table.rows] == [[True, False, False, False], [True, False, True, False]]
    assert starts_at(table.rows[0], SAMPLE, "frog,  -3")
    assert starts_at(table.rows[1], SAMPLE, "tiger,")


def test_a_quoted_cell_is_text_not_a_name() -> None:
    module = parse(HEADER + 'table card (name, says: text):\n  joker, "Wild, and \\"free\\""\n')
    table = module.decls[1]
    assert isinstance(table, ast.Table)
    assert table.rows[0].cells == ["joker", 'Wild, and "free"']
    assert table.rows[0].names == [True, False]


def test_zones_are_shared_or_per_player_with_flags(sample: ast.Module) -> None:
    pool = decl(sample, ast.ZoneDecl, "pool")
    hand = decl(sample, ast.ZoneDecl, "hand")
    assert isinstance(pool, ast.ZoneDecl) and isinstance(hand, ast.ZoneDecl)
    assert (pool.per, pool.flags) == (None, [])
    assert (hand.per, hand.flags) == ("player", ["private"])


def test_a_piece_count_is_per_player_or_one_per_table_row() -> None:
    module = parse(
        HEADER + "zone pool\npiece token: 10 per player in pool\npiece card: each animal in pool\n"
    )
    token, card = module.decls[2], module.decls[3]
    assert isinstance(token, ast.PieceDecl) and isinstance(card, ast.PieceDecl)
    assert token.per_player and isinstance(token.count, ast.Num) and token.count.value == 10
    assert token.zone == ast.Name(id="pool", span=token.zone.span)
    assert card.each_row_of == "animal" and card.count is None


def test_a_piece_count_shared_by_all_players_parses() -> None:
    module = parse(HEADER + "zone pool\npiece token: 10 in pool\n")
    token = module.decls[2]
    assert isinstance(token, ast.PieceDecl)
    assert not token.per_player
    assert isinstance(token.count, ast.Num) and token.count.value == 10


def test_a_piece_count_can_be_an_expression_or_per_row_of_a_table() -> None:
    module = parse("piece gem: 2 * 5 in pool\npiece egg: self.eggs per nest in pool\n")
    gem, egg = module.decls
    assert isinstance(gem, ast.PieceDecl) and isinstance(egg, ast.PieceDecl)
    assert shape(gem.count) == ("*", 2, 5)  # type: ignore[arg-type]
    assert (gem.per_player, gem.per_row_of) == (False, None)
    assert egg.per_row_of == "nest"
    assert isinstance(egg.count, ast.Attr) and egg.count.name == "eggs"


def test_a_map_is_built_from_tables_or_grown_as_a_grid() -> None:
    source = "map land:\n  nodes zone\n  edges border (a, b)\nmap board per player:\n  grid hex of tile\n"
    land, board = parse(source).decls
    assert isinstance(land, ast.MapDecl) and isinstance(board, ast.MapDecl)
    assert (land.nodes, land.edges, land.edge_from, land.edge_to) == ("zone", "border", "a", "b")
    assert (land.grid, land.per) == (None, None)
    assert (board.grid, board.faces, board.per) == ("hex", "tile", "player")


def test_a_movement_declares_steps_and_conditions_as_data() -> None:
    source = (
        "movement hunt(n: int):\n"
        "  steps 1..n\n"
        "  straight yes\n"
        "  backtracks no\n"
        '  through c where c.land == "lake"\n'
        "  ends e where yes\n"
    )
    hunt = parse(source).decls[0]
    assert isinstance(hunt, ast.MovementDecl)
    assert [p.name for p in hunt.params] == ["n"]
    assert shape(hunt.steps) == ("..", 1, "n")  # type: ignore[arg-type]
    assert isinstance(hunt.straight, ast.Bool) and hunt.straight.value
    assert isinstance(hunt.backtracks, ast.Bool) and not hunt.backtracks.value
    assert hunt.through_var == "c" and isinstance(hunt.through, ast.Binary)
    assert hunt.ends_var == "e" and isinstance(hunt.ends, ast.Bool)
    assert (hunt.steps.span.line, hunt.steps.span.column) == position_of(source, "1..n")  # type: ignore[union-attr]


def test_place_lays_a_shape_on_a_map_at_a_placement() -> None:
    source = "play:\n  place tile on board at spot\n  place tile on board\n"
    play = parse(source).decls[0]
    assert isinstance(play, ast.PlayDecl)
    placed, origin = play.body
    assert isinstance(placed, ast.Place) and isinstance(origin, ast.Place)
    assert isinstance(placed.at, ast.Name) and placed.at.id == "spot"
    assert origin.at is None
    end = 3 + len("place tile on board at spot")
    assert (placed.span.line, placed.span.column, placed.span.end_column) == (2, 3, end)


def test_a_move_by_count_can_pick_a_kind_by_row() -> None:
    source = (
        "play:\n  move 1 animal c.icon of current from supply to c\n  move all animal c.icon from a to b\n"
    )
    play = parse(source).decls[0]
    assert isinstance(play, ast.PlayDecl)
    some, every = play.body
    assert isinstance(some, ast.MoveCount) and isinstance(every, ast.MoveAll)
    assert some.kind == "animal" and isinstance(some.which, ast.Attr) and some.which.name == "icon"
    assert isinstance(some.owner, ast.Name) and some.owner.id == "current"
    assert every.kind == "animal" and isinstance(every.which, ast.Attr)


def test_an_aside_quotes_a_passage_that_is_not_a_rule() -> None:
    module = parse('aside "Dinosaurs were real."\n')
    assert [(m.kind, m.value) for m in module.meta] == [("aside", "Dinosaurs were real.")]


def test_a_var_per_player_within_a_range(sample: ast.Module) -> None:
    var = decl(sample, ast.VarDecl, "energy")
    assert isinstance(var, ast.VarDecl)
    assert var.type is not None and var.type.name == "int"
    assert var.per == "player"
    assert isinstance(var.init, ast.Num) and var.init.value == 3
    within = var.within
    assert isinstance(within, ast.Binary) and within.op == ".."
    assert (within.left, within.right) == (
        ast.Num(value=0, span=within.left.span),
        ast.Num(value=15, span=within.right.span),
    )
    assert starts_at(var, SAMPLE, "var energy")
    assert starts_at(within, SAMPLE, "0..15")
    assert within.span.end_column == within.span.column + len("0..15")


def test_a_rule_has_typed_parameters_and_a_body(sample: ast.Module) -> None:
    rule = decl(sample, ast.RuleDecl, "hunt")
    assert isinstance(rule, ast.RuleDecl)
    assert [(p.name, p.type.name if p.type else None) for p in rule.params] == [("p", "player")]
    assert starts_at(rule, SAMPLE, "rule hunt")
    assert [m.kind for m in rule.meta] == ["text"]
    assert [type(s).__name__ for s in rule.body] == ["Meta", "ForEach"]


def test_for_each_takes_a_where_filter_and_who_chooses_the_order(sample: ast.Module) -> None:
    rule = decl(sample, ast.RuleDecl, "hunt")
    assert isinstance(rule, ast.RuleDecl)
    loop = rule.body[1]
    assert isinstance(loop, ast.ForEach)
    assert loop.var == "q"
    assert isinstance(loop.seq, ast.Name) and loop.seq.id == "players"
    assert isinstance(loop.cond, ast.Binary) and loop.cond.op == "!="
    assert isinstance(loop.chooser, ast.Name) and loop.chooser.id == "p"
    assert starts_at(loop, SAMPLE, "for each q")
    assert starts_at(loop.cond, SAMPLE, "q != p")
    assert starts_at(loop.chooser, SAMPLE, "p:\n    choose")


def test_choose_names_the_option_its_filter_chooser_and_prompt(sample: ast.Module) -> None:
    rule = decl(sample, ast.RuleDecl, "hunt")
    assert isinstance(rule, ast.RuleDecl)
    loop = rule.body[1]
    assert isinstance(loop, ast.ForEach)
    choose = loop.body[0]
    assert isinstance(choose, ast.Choose)
    assert not choose.optional
    assert choose.var == "a"
    assert isinstance(choose.seq, ast.Name) and choose.seq.id == "animal"
    assert isinstance(choose.cond, ast.Binary) and choose.cond.op == ">"
    assert isinstance(choose.cond.left, ast.Attr) and choose.cond.left.name == "strength"
    assert isinstance(choose.chooser, ast.Name) and choose.chooser.id == "q"
    assert choose.prompt == "Pick one"
    assert choose.orelse == []
    assert starts_at(choose, SAMPLE, "choose a")
    assert starts_at(choose.cond, SAMPLE, "a.strength > 0")


def test_may_choose_is_optional_and_can_have_an_else_block() -> None:
    source = HEADER + 'play:\n  may choose x from players:\n    end game\n  else:\n    log "none"\n'
    play = parse(source).decls[1]
    assert isinstance(play, ast.PlayDecl)
    choose = play.body[0]
    assert isinstance(choose, ast.Choose)
    assert choose.optional
    assert [type(s) for s in choose.body] == [ast.EndGame]
    assert [type(s) for s in choose.orelse] == [ast.Log]


def test_random_has_weighted_outcomes_and_a_last_otherwise(sample: ast.Module) -> None:
    rule = decl(sample, ast.RuleDecl, "hunt")
    assert isinstance(rule, ast.RuleDecl)
    random = rule.body[1].body[0].body[0]  # type: ignore[attr-defined]
    assert isinstance(random, ast.Random)
    assert random.label == "roll"
    high, low = random.outcomes
    assert high.name == "high" and isinstance(high.weight, ast.Num) and high.weight.value == 30
    assert low.name == "low" and low.weight is None
    assert starts_at(random, SAMPLE, 'random "roll"')
    assert starts_at(high, SAMPLE, "outcome high")
    assert starts_at(low, SAMPLE, "outcome low")
    add = low.body[0]
    assert isinstance(add, ast.AddStmt) and add.sign == 1
    assert isinstance(add.target, ast.Attr) and add.target.name == "energy"


def test_a_log_text_interpolates_expressions_in_braces(sample: ast.Module) -> None:
    rule = decl(sample, ast.RuleDecl, "hunt")
    assert isinstance(rule, ast.RuleDecl)
    log = rule.body[1].body[0].body[0].outcomes[0].body[0]  # type: ignore[attr-defined]
    assert isinstance(log, ast.Log)
    assert len(log.parts) == 4
    who, rolls, amount, bang = log.parts
    assert isinstance(who, ast.Name) and who.id == "q"
    assert rolls == " rolls "
    assert isinstance(amount, ast.Binary) and amount.op == "+"
    assert isinstance(amount.left, ast.Attr) and amount.left.name == "strength"
    assert bang == "!"
    # An interpolated expression is placed at its text: its own position would count from the text.
    assert starts_at(who, SAMPLE, '"{q} rolls')
    assert starts_at(amount.left, SAMPLE, '"{q} rolls')
    assert starts_at(log, SAMPLE, "log ")


def test_a_log_text_without_braces_is_one_part() -> None:
    play = parse(HEADER + 'play:\n  log "just words"\n  log "{unclosed"\n').decls[1]
    assert isinstance(play, ast.PlayDecl)
    assert [s.parts for s in play.body] == [["just words"], ["{unclosed"]]  # type: ignore[attr-defined]


def test_statements_of_the_flow() -> None:
    source = HEADER + (
        "play:\n"
        "  phase opening:\n"
        "    step deal:\n"
        "      move 2 token of current from pool to current.hand\n"
        "      move all token from pool to bin\n"
        "      move token_ref to bin\n"
        "      draw 1 from deck to bin\n"
        "      shuffle deck\n"
        "      set round to round + 1\n"
        "      subtract 1 from round\n"
        "      let n = 3\n"
        "      deal_more(n, yes)\n"
        '      may "Keep going?" by current:\n'
        "        end game\n"
        "      pick x at random from players where x != current:\n"
        "        repeat 2 times:\n"
        '          log "x"\n'
        "      while no:\n"
        "        end game\n"
        "      if a:\n"
        "        end game\n"
        "      elif b:\n"
        "        end game\n"
        "      else:\n"
        "        end game\n"
    )
    play = parse(source).decls[1]
    assert isinstance(play, ast.PlayDecl)
    phase = play.body[0]
    assert isinstance(phase, ast.Named) and (phase.kind, phase.name) == ("phase", "opening")
    step = phase.body[0]
    assert isinstance(step, ast.Named) and (step.kind, step.name) == ("step", "deal")
    assert [type(s).__name__ for s in step.body] == [
        "MoveCount",
        "MoveAll",
        "MoveRefs",
        "Draw",
        "Shuffle",
        "SetStmt",
        "AddStmt",
        "Let",
        "CallStmt",
        "Ask",
        "Pick",
        "While",
        "If",
    ]
    move = step.body[0]
    assert isinstance(move, ast.MoveCount) and move.kind == "token" and move.owner is not None
    subtract = step.body[6]
    assert isinstance(subtract, ast.AddStmt) and subtract.sign == -1
    call = step.body[8]
    assert isinstance(call, ast.CallStmt) and call.name == "deal_more" and len(call.args) == 2
    branches = step.body[12]
    assert isinstance(branches, ast.If) and len(branches.branches) == 2 and len(branches.orelse) == 1
    for statement, needle in zip(
        step.body, ["move 2", "move all", "move token_ref", "draw", "shuffle"], strict=False
    ):
        assert (statement.span.line, statement.span.column) == position_of(source, needle)


def test_a_turn_block_names_whose_turn_it_is(sample: ast.Module) -> None:
    play = decl(sample, ast.PlayDecl)
    assert isinstance(play, ast.PlayDecl)
    turn = play.body[0].body[0]  # type: ignore[attr-defined]
    assert isinstance(turn, ast.Turn)
    assert isinstance(turn.player, ast.Name) and turn.player.id == "p"
    call = turn.body[0]
    assert isinstance(call, ast.CallStmt) and call.name == "hunt"


def test_score_and_tiebreak_bind_a_player() -> None:
    module = parse(HEADER + "score p = p.points\ntiebreak p = 0 - p.seat\n")
    score, tiebreak = module.decls[1], module.decls[2]
    assert isinstance(score, ast.ScoreDecl) and (score.kind, score.var) == ("score", "p")
    assert isinstance(tiebreak, ast.ScoreDecl) and tiebreak.kind == "tiebreak"


def test_an_example_states_players_seed_choices_outcomes_and_expectations() -> None:
    source = HEADER + (
        'example "A worked example":\n'
        "  players 3\n"
        "  seed 7\n"
        "  given:\n"
        "    set round to 2\n"
        "  do:\n"
        "    first_stage()\n"
        '  choices: 1, "north"\n'
        '  outcomes: "hit", 0\n'
        "  expect:\n"
        "    round == 2\n"
        "    yes\n"
    )
    example = parse(source).decls[1]
    assert isinstance(example, ast.Example)
    assert (example.name, example.players, example.seed) == ("A worked example", 3, 7)
    assert example.choices == [1, "north"]
    assert example.outcomes == ["hit", 0]
    assert [type(s) for s in example.given] == [ast.SetStmt]
    assert [type(s) for s in example.do] == [ast.CallStmt]
    assert len(example.expect) == 2
    assert (example.expect[0].span.line, example.expect[0].span.column) == position_of(source, "round == 2")


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("1 + 2 * 3", ("+", 1, ("*", 2, 3))),
        ("(1 + 2) * 3", ("*", ("+", 1, 2), 3)),
        ("1 - 2 - 3", ("-", ("-", 1, 2), 3)),
        ("7 // 2 % 3", ("%", ("//", 7, 2), 3)),
        ("-1 + 2", ("+", ("neg", 1), 2)),
        ("not a and b or c", ("or", ("and", ("not", "a"), "b"), "c")),
        ("a or b and c", ("or", "a", ("and", "b", "c"))),
        ("1 + 1 == 2", ("==", ("+", 1, 1), 2)),
        ("x in 1..3", ("in", "x", ("..", 1, 3))),
        ("x not in ys", ("not in", "x", "ys")),
        ("not x in ys", ("not", ("in", "x", "ys"))),
    ],
)
def test_operator_precedence_follows_arithmetic_then_comparison_then_not_and_or(
    text: str, tree: object
) -> None:
    const = parse(f"constant c = {text}\n").decls[0]
    assert isinstance(const, ast.Constant)
    assert shape(const.value) == tree


def shape(expr: ast.Expr) -> object:
    """A compact picture of an expression tree: numbers, names and (op, left, right) tuples."""
    match expr:
        case ast.Num(value=value):
            return value
        case ast.Name(id=name):
            return name
        case ast.Binary(op=op, left=left, right=right):
            return (op, shape(left), shape(right))
        case ast.Unary(op="-", operand=operand):
            return ("neg", shape(operand))
        case ast.Unary(op=op, operand=operand):
            return (op, shape(operand))
    return type(expr).__name__


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ('"hi"', ast.Text),
        ("yes", ast.Bool),
        ("none", ast.NoneLit),
        ("p.hand", ast.Attr),
        ("xs[0]", ast.Index),
        ("count(xs)", ast.Call),
        ("all(xs)", ast.Call),  # a keyword of `move all` is still a function name here
        ("[1, 2]", ast.ListLit),
        ("[]", ast.ListLit),
        ("[each x in xs where x > 1]", ast.Filter),
        ("[x.a for each x in xs]", ast.MapComp),
        ("[x.a for each x in xs where x.b]", ast.MapComp),
    ],
)
def test_expression_forms(text: str, node: type[ast.Expr]) -> None:
    const = parse(f"constant c = {text}\n").decls[0]
    assert isinstance(const, ast.Constant)
    assert type(const.value) is node
    assert (const.value.span.line, const.value.span.column) == (1, 14)
    assert const.value.span.end_column == 14 + len(text)


def test_brackets_and_a_backslash_continue_a_line() -> None:
    module = parse("constant c = [1,\n  2,\n  3]\nconstant d = 1 + \\\n  2\n")
    first, second = module.decls
    assert isinstance(first, ast.Constant) and isinstance(first.value, ast.ListLit)
    assert len(first.value.items) == 3
    assert isinstance(second, ast.Constant) and shape(second.value) == ("+", 1, 2)


def test_comments_and_blank_lines_are_ignored() -> None:
    source = "# top\n\n" + HEADER + "\n# between\nplay:  # trailing\n\n  # inside\n  end game\n"
    module = parse(source)
    assert [type(d) for d in module.decls] == [ast.GameHeader, ast.PlayDecl]
    play = module.decls[1]
    assert isinstance(play, ast.PlayDecl)
    assert [type(s) for s in play.body] == [ast.EndGame]


def test_windows_line_endings_parse_like_unix_ones() -> None:
    unix = HEADER + "play:\n  if yes:\n    end game\n"
    windows = unix.replace("\n", "\r\n")
    assert [type(d) for d in parse(windows).decls] == [type(d) for d in parse(unix).decls]


def test_an_empty_file_is_an_empty_module() -> None:
    assert parse("").decls == []
    assert parse("# only a comment").decls == []


def test_top_level_metadata_is_kept_on_the_module() -> None:
    module = parse('assume "A gap in the rulebook."\naside "Flavour."\n')
    assert [(m.kind, m.value) for m in module.meta] == [
        ("assume", "A gap in the rulebook."),
        ("aside", "Flavour."),
    ]
    assert module.decls == []


def test_a_conflict_block_quotes_its_passages_and_says_its_reading() -> None:
    source = (
        'conflict "How many rounds":\n  cites "four rounds"\n  cites "five rounds"\n  text "We play four."\n'
    )
    (conflict,) = parse(source).meta
    assert isinstance(conflict, ast.Conflict) and conflict.value == "How many rounds"
    assert [p.value for p in conflict.passages] == ["four rounds", "five rounds"]
    assert [r.value for r in conflict.reading] == ["We play four."]


def test_a_rulebook_line_may_leave_sections_to_other_files() -> None:
    header = parse('game "G":\n  rulebook "g.txt" except "Two Players", "Solo"\nplay:\n  end game\n').decls[0]
    assert isinstance(header, ast.GameHeader)
    assert (header.rulebook, header.rulebook_except) == ("g.txt", ["Two Players", "Solo"])


def test_a_grouped_keyword_never_takes_the_start_of_a_longer_name() -> None:
    """`text`, `step`, `score`... are keywords where a name may stand too: `textual()` is a call."""
    source = HEADER + 'rule textual():\n  log "t"\nrule stepper():\n  textual()\n\nplay:\n  stepper()\n'
    play = parse(source).decls[-1]
    assert isinstance(play, ast.PlayDecl) and isinstance(play.body[0], ast.CallStmt)


def test_an_example_may_start_from_setup_play_the_game_and_answer_first() -> None:
    source = HEADER + 'play:\n  end game\nexample "e":\n  from setup\n  play\n  choices: 2, "b", first\n'
    example = parse(source).decls[-1]
    assert isinstance(example, ast.Example)
    assert (example.from_setup, example.plays, example.choices, example.then_first) == (
        True,
        True,
        [2, "b"],
        True,
    )
    assert parse(source.replace('2, "b", first', "first")).decls[-1].choices == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("doc", ["language.md", "authoring-variants.md"])
def test_every_rules_example_of_the_reference_parses(doc: str) -> None:
    text = (GAMES.parent / "docs" / doc).read_text(encoding="utf-8")
    blocks = re.findall(r"```rules\n(.*?)```", text, flags=re.DOTALL)
    assert blocks
    for block in blocks:
        parse(block, doc)


def test_a_keyword_can_be_a_name_where_no_keyword_fits() -> None:
    play = parse(HEADER + "play:\n  let end = 3\n").decls[1]
    assert isinstance(play, ast.PlayDecl)
    let = play.body[0]
    assert isinstance(let, ast.Let) and let.name == "end"


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.name)
def test_every_bundled_game_parses(path: Path) -> None:
    module = parse(path.read_text(encoding="utf-8"), str(path))
    assert module.decls
    assert all(d.span.line >= 1 and d.span.column >= 1 for d in module.decls)


def test_a_column_may_carry_the_heading_players_read() -> None:
    table = parse(
        HEADER + 'table t (name, meat_a: int "First meat", b "Second"):\n  x, 1, 2\nplay:\n  end game\n'
    ).decls[1]
    assert isinstance(table, ast.Table)
    assert [(c.name, c.called) for c in table.columns] == [
        ("name", None),
        ("meat_a", "First meat"),
        ("b", "Second"),
    ]


def test_players_n_is_a_game_for_exactly_n() -> None:
    """`players 2` reads as `players 2..2`: new users write it, and meant it."""
    header = parse('game "Duel":\n  players 2\nplay:\n  end game\n').decls[0]
    assert isinstance(header, ast.GameHeader)
    assert (header.min_players, header.max_players) == (2, 2)
