"""Static analysis: what `meeple check` reports about a rules file that parses.

Each diagnostic code has a small broken file that triggers it, and the test states the code, the
severity, the line and the column the designer is shown. Files go through `meeple.check`, the
same path as the command line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple import Diagnostic
from meeple import codes as meeple_codes
from meeple.interpreter.builtins import BUILTINS

GAMES = Path(__file__).resolve().parent.parent / "games"

# A game that checks clean. Tests append declarations to it; `at()` finds their positions.
BASE = """game "Test":
  players 2..4
zone pool
piece token: 10 per player in pool
var points: int = 0 per player
play:
  end game
score p = p.points
"""


def check(tmp_path: Path, source: str) -> list[Diagnostic]:
    path = tmp_path / "game.rules"
    path.write_text(source, encoding="utf-8")
    checked = meeple.check(path)
    assert checked.module is not None, f"the file must parse: {checked.diagnostics}"
    assert all(d.file == str(path) for d in checked.diagnostics)
    return checked.diagnostics


def the(diags: list[Diagnostic], code: str, severity: str = "error") -> Diagnostic:
    """The one diagnostic with this code and severity."""
    found = [d for d in diags if d.code == code and d.severity == severity]
    assert len(found) == 1, f"expected one {severity} {code}, got: {diags}"
    return found[0]


def codes(diags: list[Diagnostic], severity: str = "error") -> set[str]:
    return {d.code for d in diags if d.severity == severity}


def at(source: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the `occurrence`-th `needle` in `source`."""
    index = -1
    for _ in range(occurrence):
        index = source.index(needle, index + 1)
    return source.count("\n", 0, index) + 1, index - (source.rfind("\n", 0, index) + 1) + 1


def where(diag: Diagnostic) -> tuple[int, int]:
    return diag.line, diag.column


def test_the_base_game_checks_clean(tmp_path: Path) -> None:
    assert check(tmp_path, BASE) == []


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.name)
def test_every_bundled_game_has_no_errors(path: Path) -> None:
    checked = meeple.check(path)
    assert checked.ok, [d for d in checked.diagnostics if d.severity == "error"]


def test_dino_party_checks_clean() -> None:
    checked = meeple.check(GAMES / "dino_party.rules")
    assert checked.ok
    assert checked.symbols is not None
    assert checked.symbols.header is not None and checked.symbols.header.name == "Dino Party"


# ===================================================================== M010 unknown names


def test_an_unknown_name_is_M010_with_a_did_you_mean_hint(tmp_path: Path) -> None:
    source = BASE + "constant lives = 3\nconstant left = livs - 1\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "livs")
    assert diag.message == "unknown name 'livs'"
    assert diag.hint == "did you mean 'lives'?"
    assert diag.end_column == diag.column + len("livs")


def test_an_unknown_name_far_from_any_other_has_no_hint(tmp_path: Path) -> None:
    source = BASE + "constant left = zzzzzz\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "zzzzzz")
    assert diag.hint == ""


def test_an_unknown_rule_is_M010_with_a_did_you_mean_hint(tmp_path: Path) -> None:
    source = BASE + "rule grow():\n  end game\nrule turn_of(p: player):\n  grwo()\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "grwo()")
    assert diag.message == "unknown rule 'grwo'"
    assert diag.hint == "did you mean 'grow'?"


def test_an_unknown_function_is_M010_with_a_did_you_mean_hint(tmp_path: Path) -> None:
    source = BASE + "constant n = cnt(players)\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "cnt(")
    assert diag.message == "unknown function 'cnt'"
    assert diag.hint == "did you mean 'count'?"


def test_an_unknown_name_inside_a_log_text_is_M010_at_the_text(tmp_path: Path) -> None:
    source = BASE + 'rule tell():\n  log "points: {pionts}"\n'
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, '"points:')
    assert diag.message == "unknown name 'pionts'"


def test_an_unknown_column_type_is_M010(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: number):\n  owl, 2\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "number")
    assert "unknown column type 'number'" in diag.message


def test_an_unknown_parameter_type_is_M010(tmp_path: Path) -> None:
    source = BASE + "rule hop(n: numbr):\n  end game\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "numbr")
    assert diag.message == "unknown type 'numbr'"


def test_per_names_player_or_a_table(tmp_path: Path) -> None:
    source = BASE + "zone bag per colour\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "zone bag")
    assert "'per colour'" in diag.message


def test_a_row_name_shared_by_two_tables_must_name_its_table(tmp_path: Path) -> None:
    source = BASE + "table fruit (name):\n  orange\ntable colour (name):\n  orange\nconstant c = orange\n"
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "orange\n", 3)
    assert diag.message == "'orange' is a row of fruit and colour"
    assert diag.hint == "write TABLE.orange"


# ===================================================================== M011 duplicates


def test_a_piece_of_one_kind_is_a_piece_where_a_rule_takes_one(tmp_path: Path) -> None:
    source = BASE + (
        "zone hand per player\n"
        "rule keep(p: player, t: piece):\n  move t to p.hand\n"
        "rule keep_first(p: player):\n  keep(p, pieces(pool, token)[0])\n"
        "  for each t in pieces(pool, token, p):\n    keep(p, t)\n"
    )
    assert codes(check(tmp_path, source)) == set()
    wrong = BASE + 'rule keep(t: piece):\n  log "{t}"\nrule bad():\n  keep(3)\n'
    assert "must be a piece, not a number" in the(check(tmp_path, wrong), "M014").message


def test_a_name_is_declared_once(tmp_path: Path) -> None:
    source = BASE + "constant lives = 1\nconstant lives = 2\n"
    diag = the(check(tmp_path, source), "M011")
    assert where(diag) == at(source, "constant lives", 2)
    first_line, _ = at(source, "constant lives")
    assert diag.message == f"'lives' is declared twice (first at line {first_line})"


def test_a_rule_and_a_constant_share_one_namespace(tmp_path: Path) -> None:
    source = BASE + "constant grow = 1\nrule grow():\n  end game\n"
    diag = the(check(tmp_path, source), "M011")
    assert where(diag) == at(source, "rule grow")


@pytest.mark.parametrize(
    ("extra", "needle", "message"),
    [
        ('game "Again":\n  players 2..3\n', 'game "Again"', "a file has one game header"),
        ("play:\n  end game\n", "play:", "a file has one play block"),
        ("setup:\n  end game\nsetup:\n  end game\n", "setup:", "a file has one setup block"),
        ("score p = 1\n", "score p = 1", "a file has one score line"),
    ],
)
def test_a_file_has_one_header_setup_play_and_score(
    tmp_path: Path, extra: str, needle: str, message: str
) -> None:
    source = BASE + extra
    diag = the(check(tmp_path, source), "M011")
    occurrence = 2 if needle in BASE or needle == "setup:" else 1
    assert where(diag) == at(source, needle, occurrence)
    assert diag.message == message


def test_a_table_row_name_is_used_once_per_table(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: int):\n  owl, 2\n  owl, 3\n"
    diag = the(check(tmp_path, source), "M011")
    assert where(diag) == at(source, "owl", 2)
    assert diag.message == "'owl' is a row of 'bird' twice"


def test_outcomes_of_one_random_have_different_names(tmp_path: Path) -> None:
    source = BASE + (
        "rule roll():\n"
        "  random:\n"
        "    outcome six chance 20:\n"
        "      end game\n"
        "    outcome six otherwise:\n"
        "      end game\n"
    )
    diag = the(check(tmp_path, source), "M011")
    assert where(diag) == at(source, "outcome six", 2)
    assert diag.message == "two outcomes are called 'six'"


def test_parameters_of_a_rule_have_different_names(tmp_path: Path) -> None:
    source = BASE + "rule swap(a, a):\n  end game\n"
    diag = the(check(tmp_path, source), "M011")
    assert where(diag) == at(source, "a)")
    assert diag.message == "two parameters are called 'a'"


def test_examples_have_different_names(tmp_path: Path) -> None:
    source = BASE + 'example "twice":\n  expect:\n    yes\nexample "twice":\n  expect:\n    yes\n'
    diag = the(check(tmp_path, source), "M011")
    assert where(diag) == at(source, 'example "twice"', 2)


def test_steps_of_one_block_have_different_names(tmp_path: Path) -> None:
    source = BASE + "rule r():\n  step deal:\n    end game\n  step deal:\n    end game\n"
    diag = the(check(tmp_path, source), "M011")
    assert where(diag) == at(source, "step deal", 2)


# ===================================================================== M012 arity


def test_a_builtin_is_called_with_its_number_of_arguments(tmp_path: Path) -> None:
    source = BASE + "constant n = count(players, players)\n"
    diag = the(check(tmp_path, source), "M012")
    assert where(diag) == at(source, "count(")
    assert diag.message == "'count' takes 1 argument(s), not 2"


def test_a_builtin_with_a_range_of_arguments_says_the_range(tmp_path: Path) -> None:
    source = BASE + "constant n = count(pieces())\n"
    diag = the(check(tmp_path, source), "M012")
    assert where(diag) == at(source, "pieces()")
    assert diag.message == "'pieces' takes 1 to 3 argument(s), not 0"


def test_a_rule_is_called_with_its_number_of_arguments(tmp_path: Path) -> None:
    source = BASE + "rule hop(p: player):\n  end game\nrule jump():\n  hop()\n"
    diag = the(check(tmp_path, source), "M012")
    assert where(diag) == at(source, "hop()")
    assert diag.message == "'hop' takes 1 argument(s), not 0"


def test_a_value_is_called_with_its_number_of_arguments(tmp_path: Path) -> None:
    source = BASE + "value double(n: int) = n * 2\nconstant four = double(2, 2)\n"
    diag = the(check(tmp_path, source), "M012")
    assert where(diag) == at(source, "double(2")
    assert diag.message == "'double' takes 1 argument(s), not 2"


def _wrong_arity_calls() -> list[object]:
    params: list[object] = []
    for name, builtin in sorted(BUILTINS.items()):
        low, high = builtin.fewest, builtin.most
        too_few = {0, low - 1} if low > 0 else set()
        too_many = {high + 1} if high < 10 else set()
        for count in sorted(too_few | too_many):
            call = f"{name}({', '.join(['1'] * count)})"
            params.append(pytest.param(call, id=call))
    return params


@pytest.mark.parametrize("call", _wrong_arity_calls())
def test_a_builtin_called_with_a_wrong_number_of_arguments_is_M012(tmp_path: Path, call: str) -> None:
    source = BASE + f"constant c = {call}\n"
    diags = check(tmp_path, source)
    arity = [d for d in diags if d.code == "M012"]
    assert arity, diags
    assert where(arity[0]) == at(source, call)
    assert "argument(s), not" in arity[0].message


# ===================================================================== M013 attributes


def test_a_player_has_only_its_declared_zones_and_variables(tmp_path: Path) -> None:
    source = BASE + "value best(p: player) = p.pionts\n"
    diag = the(check(tmp_path, source), "M013")
    assert where(diag) == at(source, "p.pionts")
    assert diag.message == "a player has no 'pionts'"
    assert diag.hint == "did you mean 'points'?"


def test_a_row_has_only_its_columns_and_variables(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: int):\n  owl, 2\nconstant w = bird.owl.wigns\n"
    diag = the(check(tmp_path, source), "M013")
    assert where(diag) == at(source, "bird.owl.wigns")
    assert diag.message == "a row of 'bird' has no 'wigns'"
    assert diag.hint == "did you mean 'wings'?"


def test_a_list_has_no_attributes(tmp_path: Path) -> None:
    source = BASE + "constant seats = players.seat\n"
    diag = the(check(tmp_path, source), "M013")
    assert where(diag) == at(source, "players.seat")
    assert diag.message == "a list has no 'seat'"
    assert "for each" in diag.hint


def test_a_map_joins_nodes_by_columns_of_its_edge_table(tmp_path: Path) -> None:
    source = BASE + (
        "table spot (name):\n  a\n  b\n"
        "table link (x: spot, y: spot):\n  a, b\n"
        "map board:\n  nodes spot\n  edges link (x, z)\n"
    )
    diag = the(check(tmp_path, source), "M013")
    assert where(diag) == at(source, "map board")
    assert diag.message == "table 'link' has no column 'z'"


# ===================================================================== M014 types


def test_an_if_condition_is_yes_or_no(tmp_path: Path) -> None:
    source = BASE + "rule r():\n  if 1:\n    end game\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "1:")
    assert diag.message == "an 'if' condition must be yes/no, not a number"


def test_arithmetic_is_on_numbers(tmp_path: Path) -> None:
    source = BASE + "constant n = 1 + yes\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "yes")
    assert diag.message == "the right side of '+' must be a number, not yes/no"


def test_a_variable_starts_with_a_value_of_its_type(tmp_path: Path) -> None:
    source = BASE + "var round: int = no\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "no\n")
    assert diag.message == "'round' is a number but starts as yes/no"


def test_set_keeps_a_variables_type(tmp_path: Path) -> None:
    source = BASE + 'var round: int = 0\nrule r():\n  set round to "two"\n'
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, '"two"')
    assert diag.message == "cannot set a number to a text"


def test_a_rule_gives_no_value(tmp_path: Path) -> None:
    source = BASE + "rule grow():\n  end game\nconstant g = grow()\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "grow()\n")
    assert diag.message == "'grow' is a rule: it does things and gives no value"


def test_otherwise_is_the_last_outcome(tmp_path: Path) -> None:
    source = BASE + (
        "rule roll():\n"
        "  random:\n"
        "    outcome miss otherwise:\n"
        "      end game\n"
        "    outcome hit chance 30:\n"
        "      end game\n"
    )
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "outcome miss")
    assert diag.message == "'otherwise' must be the last outcome"


def test_move_to_moves_pieces(tmp_path: Path) -> None:
    source = BASE + "rule r():\n  move 3 to pool\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "3 to")
    assert "move N KIND from ZONE to ZONE" in diag.hint


def test_a_choose_goes_through_a_list(tmp_path: Path) -> None:
    source = BASE + "rule r():\n  choose x from 3:\n    end game\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "3:")
    assert diag.message == "expected a list to go through, not a number"


def test_a_rule_argument_has_its_parameter_type(tmp_path: Path) -> None:
    source = BASE + "rule hop(n: int):\n  end game\nrule r():\n  hop(yes)\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "yes)")
    assert diag.message == "argument 'n' must be a number, not yes/no"


def test_a_within_range_is_a_range_of_numbers(tmp_path: Path) -> None:
    source = BASE + "var energy: int = 0 per player within yes\n"
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "yes")


def test_comparing_values_of_different_types_is_a_warning(tmp_path: Path) -> None:
    source = BASE + 'value odd(p: player) = p.points == "x"\nconstant o = odd(players[0])\n'
    diags = check(tmp_path, source)
    diag = the(diags, "M014", "warning")
    assert where(diag) == at(source, 'p.points == "x"')
    assert diag.message == "comparing a number with a text is never true"
    assert "M014" not in codes(diags)


@pytest.mark.parametrize(
    ("extra", "wrong"),
    [
        ("table bird (name, wings: int):\n  owl, yes\n", "'True'"),
        ("constant x = (1).size\n", "a int"),
        ("constant x = 1 in 2\n", "must be list"),
        (
            "table tile (name, q: int, r: int):\n  a, 0, 0\nmap board:\n  grid hex of tile\n"
            "rule r():\n  place tile on board at 3\n",
            "must be placement",
        ),
    ],
)
def test_type_messages_use_the_designers_words(tmp_path: Path, extra: str, wrong: str) -> None:
    diags = check(tmp_path, BASE + extra)
    assert diags
    for diag in diags:
        assert wrong not in diag.message


# ===================================================================== M015 table rows


def test_a_row_has_one_value_per_column(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: int):\n  owl, 2, 3\n"
    diag = the(check(tmp_path, source), "M015")
    assert where(diag) == at(source, "owl")
    assert diag.message == "this row of 'bird' has 3 values, the table has 2 columns"


def test_a_keyed_row_starts_with_its_name(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: int):\n  3, 2\n"
    diag = the(check(tmp_path, source), "M015")
    assert where(diag) == at(source, "3, 2")
    assert diag.message == "a row starts with its name (a plain word)"


def test_a_cell_of_a_required_column_is_not_empty(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: int, colour: text?):\n  owl, -, -\n"
    diag = the(check(tmp_path, source), "M015")
    assert diag.line == at(source, "owl")[0]
    assert diag.message == "column 'wings' needs a value here (or make it 'int?')"


def test_a_cell_holds_a_value_of_its_column_type(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: int):\n  owl, many\n"
    diag = the(check(tmp_path, source), "M014")
    assert diag.line == at(source, "owl")[0]
    assert "column 'wings' holds numbers" in diag.message


# ===================================================================== M016 table keys


def test_table_dot_key_names_a_row_of_that_table(tmp_path: Path) -> None:
    source = BASE + "table bird (name, wings: int):\n  owl, 2\nconstant b = bird.crow\n"
    diag = the(check(tmp_path, source), "M016")
    assert where(diag) == at(source, "bird.crow")
    assert diag.message == "'crow' is not a row of table 'bird'"


def test_a_cell_of_a_table_typed_column_names_a_row_of_that_table(tmp_path: Path) -> None:
    source = BASE + "table bird (name):\n  owl\n  crow\ntable nest (name, of: bird):\n  tree, crwo\n"
    diag = the(check(tmp_path, source), "M016")
    assert diag.line == at(source, "tree")[0]
    assert diag.message == "'crwo' is not a row of table 'bird' (column 'of')"
    assert diag.hint == "did you mean 'crow'?"


@pytest.mark.parametrize(
    ("extra", "code", "cell"),
    [
        ("table bird (name, wings: int):\n  owl, many\n", "M014", "many"),
        ("table bird (name, wings: int):\n  owl, -\n", "M015", "-"),
        ("table bird (name):\n  owl\ntable nest (name, of: bird):\n  tree, crwo\n", "M016", "crwo"),
    ],
)
def test_a_diagnostic_about_one_cell_points_at_that_cell(
    tmp_path: Path, extra: str, code: str, cell: str
) -> None:
    source = BASE + extra
    diag = the(check(tmp_path, source), code)
    assert where(diag) == at(source, cell)


# ===================================================================== M017 choices without options


@pytest.mark.parametrize(
    "header",
    [
        "choose x from []",
        "choose x from players where no",
        "choose x from empty_table",
    ],
)
def test_a_choose_that_must_be_made_can_have_an_option(tmp_path: Path, header: str) -> None:
    source = BASE + (
        f'table empty_table (name):\n  text "no rows yet"\nrule pick_one():\n  {header}:\n    end game\n'
    )
    diag = the(check(tmp_path, source), "M017")
    assert where(diag) == at(source, "choose x")
    assert diag.message == "this 'choose' can never have an option, and it must be made"
    assert "may choose" in diag.hint and "else:" in diag.hint


@pytest.mark.parametrize(
    "stmt",
    [
        "may choose x from []:\n    end game\n",
        "choose x from []:\n    end game\n  else:\n    end game\n",
    ],
)
def test_a_choose_without_options_is_fine_when_it_may_be_skipped(tmp_path: Path, stmt: str) -> None:
    source = BASE + f"rule pick_one():\n  {stmt}"
    assert "M017" not in codes(check(tmp_path, source))


# ===================================================================== M018 piece kinds


def test_move_by_count_names_a_declared_kind_of_piece(tmp_path: Path) -> None:
    source = BASE + "rule r():\n  move 1 tokn from pool to pool\n"
    diag = the(check(tmp_path, source), "M018")
    assert where(diag) == at(source, "move 1")
    assert diag.message == "unknown kind of piece 'tokn'"
    assert diag.hint == "did you mean 'token'?"


def test_move_all_names_a_declared_kind_of_piece(tmp_path: Path) -> None:
    source = BASE + "rule r():\n  move all tokens from pool to pool\n"
    diag = the(check(tmp_path, source), "M018")
    assert where(diag) == at(source, "move all")
    assert diag.hint == "did you mean 'token'?"


def test_a_trigger_names_a_declared_kind_of_piece(tmp_path: Path) -> None:
    source = BASE + "when tokn t enters z:\n  end game\n"
    diag = the(check(tmp_path, source), "M018")
    assert where(diag) == at(source, "when tokn")


# ===================================================================== M019 assignments


@pytest.mark.parametrize(
    ("extra", "target", "message"),
    [
        ("rule r():\n  let n = 1\n  set n to 2\n", "n to 2", "'n' is not a variable that can change"),
        ("constant k = 1\nrule r():\n  add 1 to k\n", "k\n", "'k' is not a variable that can change"),
        (
            "rule r(p: player):\n  set p.seat to 2\n",
            "p.seat",
            "'seat' of a player is not a variable that can change",
        ),
        (
            "table bird (name, wings: int):\n  owl, 2\nrule r():\n  set bird.owl.wings to 3\n",
            "bird.owl.wings",
            "'wings' of a row of 'bird' is table data and cannot change",
        ),
        (
            "rule r():\n  set players[0] to players[1]\n",
            "players[0]",
            "only a variable or a variable attribute (x.NAME) can change",
        ),
    ],
)
def test_only_variables_can_change(tmp_path: Path, extra: str, target: str, message: str) -> None:
    source = BASE + extra
    diag = the(check(tmp_path, source), "M019")
    assert where(diag) == at(source, target)
    assert diag.message == message


def test_variables_declared_per_player_or_per_row_can_change(tmp_path: Path) -> None:
    source = BASE + (
        "table bird (name):\n  owl\n"
        "var fed: bool = no per bird\n"
        "var round: int = 0\n"
        "rule r(p: player):\n"
        "  add 1 to p.points\n"
        "  set bird.owl.fed to yes\n"
        "  set round to round + 1\n"
    )
    assert "M019" not in codes(check(tmp_path, source))


# ===================================================================== M020 header


def test_a_file_starts_with_a_game_header(tmp_path: Path) -> None:
    source = "play:\n  end game\n"
    diag = the(check(tmp_path, source), "M020")
    assert where(diag) == (1, 1)
    assert diag.message == "the file has no game header"
    assert 'game "Name":' in diag.hint


@pytest.mark.parametrize("players", ["4..2", "0..2"])
def test_the_player_range_is_smallest_first_from_one(tmp_path: Path, players: str) -> None:
    source = BASE.replace("2..4", players)
    diag = the(check(tmp_path, source), "M020")
    assert where(diag) == at(source, 'game "Test"')
    assert "player range" in diag.message


# ===================================================================== M021 unused declarations


@pytest.mark.parametrize(
    ("extra", "needle", "message"),
    [
        ("rule idle():\n  end game\n", "rule idle", "rule 'idle' is never used"),
        ("value zero() = 0\n", "value zero", "value 'zero' is never used"),
        ("constant spare = 1\n", "constant spare", "constant 'spare' is never used"),
    ],
)
def test_an_unused_rule_value_or_constant_is_a_warning(
    tmp_path: Path, extra: str, needle: str, message: str
) -> None:
    source = BASE + extra
    diags = check(tmp_path, source)
    diag = the(diags, "M021", "warning")
    assert where(diag) == at(source, needle)
    assert diag.message == message
    assert not codes(diags), "a warning alone leaves the file ok"


def test_a_declaration_used_anywhere_is_not_reported_unused(tmp_path: Path) -> None:
    source = BASE.replace("  end game\n", "  grow(bonus())\n", 1) + (
        "constant step = 2\nvalue bonus() = step\nrule grow(n: int):\n  end game\n"
    )
    assert check(tmp_path, source) == []


def test_a_rule_used_only_by_an_example_is_still_unused(tmp_path: Path) -> None:
    source = BASE + 'rule idle():\n  end game\nexample "e":\n  do:\n    idle()\n  expect:\n    yes\n'
    diag = the(check(tmp_path, source), "M021", "warning")
    assert where(diag) == at(source, "rule idle")


# ===================================================================== M022 examples


def test_an_example_plays_with_a_player_count_the_game_allows(tmp_path: Path) -> None:
    source = BASE + 'example "crowded":\n  players 9\n  expect:\n    yes\n'
    diag = the(check(tmp_path, source), "M022")
    assert where(diag) == at(source, 'example "crowded"')
    assert diag.message == "the game is for 2 to 4 players"


def test_an_example_expectation_is_yes_or_no(tmp_path: Path) -> None:
    source = BASE + 'example "sum":\n  expect:\n    1 + 1\n'
    diag = the(check(tmp_path, source), "M014")
    assert where(diag) == at(source, "1 + 1")


# ===================================================================== M023 play


def test_a_file_has_a_play_block(tmp_path: Path) -> None:
    source = 'game "Test":\n  players 2..4\n'
    diag = the(check(tmp_path, source), "M023")
    assert where(diag) == (1, 1)
    assert diag.message == "the file has no play block"
    assert "play:" in diag.hint


# ===================================================================== M024 rule names


@pytest.mark.parametrize("name", ["shuffle", "text", "log"])
def test_a_rule_is_not_named_after_a_statement_word(tmp_path: Path, name: str) -> None:
    source = BASE + f"rule {name}():\n  end game\n"
    diag = the(check(tmp_path, source), "M024")
    assert where(diag) == at(source, f"rule {name}")
    assert diag.message == f"a rule cannot be called '{name}': the word starts a statement"


# ===================================================================== maps, grids and movements

GRID = (
    "table tile (name, q: int, r: int, land: text):\n"
    '  a, 0, 0, "lake"\n'
    "map board:\n"
    "  grid hex of tile\n"
    "movement walk(n: int):\n"
    "  steps 1..n\n"
)


def test_a_grid_game_checks_clean(tmp_path: Path) -> None:
    source = (
        BASE
        + GRID
        + (
            "rule explore():\n"
            "  place tile on board\n"
            "  for each c in cells(board):\n"
            '    log "{c.q},{c.r}: {c.land}"\n'
            "    for each way in routes(c, walk, 2):\n"
            '      log "{way.steps} steps to {way.end.land}"\n'
        )
    )
    assert codes(check(tmp_path, source.replace("  end game\n", "  explore()\n", 1))) == set()


def test_routes_names_a_declared_movement(tmp_path: Path) -> None:
    source = BASE + GRID + "constant c = routes(cells(board)[0], wlak, 1)\n"
    [diag] = [d for d in check(tmp_path, source) if d.message.startswith("routes'")]
    assert (diag.code, diag.severity) == ("M010", "error")
    assert where(diag) == at(source, "wlak")
    assert diag.message == "routes' second argument names a movement"
    assert diag.hint == "did you mean 'walk'?"


def test_routes_passes_a_movement_its_arguments(tmp_path: Path) -> None:
    source = BASE + GRID + "constant c = routes(cells(board)[0], walk)\n"
    diag = the(check(tmp_path, source), "M012")
    assert where(diag) == at(source, "routes(")
    assert diag.message == "movement 'walk' takes 1 argument(s) after it, not 0"


def test_a_cell_has_the_columns_of_its_face_table(tmp_path: Path) -> None:
    source = BASE + GRID + "value lands() = [c.lnad for each c in cells(board)]\n"
    diag = the(check(tmp_path, source), "M013")
    assert where(diag) == at(source, "c.lnad")
    assert diag.message == "a row of 'tile' has no 'lnad'"


def test_shapes_are_placed_on_a_grid_map(tmp_path: Path) -> None:
    source = BASE + GRID + "rule r():\n  place tile on pool\n"
    diag = the(check(tmp_path, source), "M014")
    line, column = at(source, "on pool")
    assert where(diag) == (line, column + len("on "))
    assert diag.message == "shapes are placed on a grid map, not on a zone"


def test_neighbours_names_its_map_when_several_share_a_node_table(tmp_path: Path) -> None:
    source = BASE + (
        "table spot (name):\n  a\n"
        "table link (x: spot, y: spot):\n  a, a\n"
        "map road:\n  nodes spot\n  edges link (x, y)\n"
        "map rail:\n  nodes spot\n  edges link (x, y)\n"
        "constant n = neighbours(spot.a)\n"
    )
    diag = the(check(tmp_path, source), "M012")
    assert where(diag) == at(source, "neighbours(")
    assert "say which, neighbours(node, map)" in diag.message


def test_a_map_without_nodes_or_grid_says_what_it_lacks(tmp_path: Path) -> None:
    source = BASE + 'map board:\n  text "the board"\n'
    diag = the(check(tmp_path, source), "M010")
    assert where(diag) == at(source, "map board")
    assert "''" not in diag.message
    assert "nodes" in diag.message or "nodes" in diag.hint


# ===================================================================== misleading messages


def test_a_value_called_as_a_statement_is_reported_as_a_value(tmp_path: Path) -> None:
    source = BASE + "value double(n: int) = n * 2\nrule r():\n  double(2)\n"
    diags = check(tmp_path, source)
    assert all("unknown rule" not in d.message for d in diags)
    assert any("'double' is a value" in d.message for d in diags)


def test_every_diagnostic_has_a_position_in_the_file(tmp_path: Path) -> None:
    source = BASE + (
        "constant a = livs\n"
        "constant b = 1\n"
        "constant b = a\n"
        "table bird (name, wings: int):\n  owl, 2, 3\n"
        "rule r():\n  move 1 tokn from pool to pool\n  choose x from []:\n    end game\n"
    )
    diags = check(tmp_path, source)
    assert {"M010", "M011", "M015", "M017", "M018"} <= codes(diags)
    lines = source.count("\n")
    for diag in diags:
        assert 1 <= diag.line <= lines
        assert diag.column >= 1
        assert diag.render(source).startswith(f"{diag.file}:{diag.line}:{diag.column}: {diag.severity}:")


def test_adding_two_values_of_unknown_type_may_join_lists(tmp_path: Path) -> None:
    """`a() + b()` of values whose answers are not known yet may be a sum or two lists joined:
    going through it is no error (it once was typed a number)."""
    source = BASE + (
        "value some() = [1, 2]\nvalue more() = [3]\n"
        "value all_of() = [x for each x in some() + more()]\n"
        "value total() = sum(all_of())\n"
    )
    assert "M014" not in codes(check(tmp_path, source))


NODES_AT = """game "Spots":
  players 2..2

table spot (name, called, x: int):
  near, "Near Spot", 0
  far, "Far Spot", 3

zone box
piece stone: 2 in box
map ring:
  nodes spot at X, Y

play:
  move 1 stone from box to near
"""


def test_where_a_node_is_drawn_is_a_whole_number_of_its_row(tmp_path: Path) -> None:
    """`nodes T at X, Y` (docs/language.md, maps): each computed from the node's row as `self`."""
    assert not codes(check(tmp_path, NODES_AT.replace("X, Y", "self.x * 2, 1")))
    wrong = NODES_AT.replace("X, Y", "self.called, 1")
    d = the(check(tmp_path, wrong), meeple_codes.WRONG_TYPE)
    assert where(d) == at(wrong, "self.called") and "where a node is drawn must be" in d.message
    unknown = NODES_AT.replace("X, Y", "self.y, 1")
    assert where(the(check(tmp_path, unknown), meeple_codes.UNKNOWN_ATTRIBUTE)) == at(unknown, "self.y")


def test_where_a_node_is_drawn_is_known_before_the_game(tmp_path: Path) -> None:
    """Computed once, before any game: reading the position there is a located error, not a crash."""
    source = NODES_AT.replace("X, Y", "count(pieces(box)), 1")
    d = the(check(tmp_path, source), meeple_codes.CANNOT_BUILD)
    assert where(d) == at(source, "count(pieces(box))") and "Near Spot is drawn" in d.message
