"""Variants as patches: a variant file names its base game and changes it, without Python.

Each test writes a small variant of the bundled Dino Party (or of a tiny base game beside it) and
checks that check, play and test treat it like any game."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import chip_game

import meeple
from meeple.grammar import ast
from meeple.interpreter.examples import run_examples

HERE = Path(__file__).parent
BASE = chip_game(10, "table colour (name, worth: int):\n  red, 1\n")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def variant(tmp_path: Path, body: str) -> Path:
    write(tmp_path, "base.rules", BASE)
    return write(tmp_path, "variant.rules", 'variant "Changed" of "base.rules":\n  players 2..2\n' + body)


def errors(path: Path) -> list[tuple[str, int, str]]:
    return [
        (Path(d.file).name, d.line, d.code) for d in meeple.check(path).diagnostics if d.severity == "error"
    ]


def test_a_variant_takes_its_name_and_player_counts_and_keeps_the_rest(tmp_path: Path) -> None:
    game = meeple.load(variant(tmp_path, ""))
    assert (game.name, game.min_players, game.max_players) == ("Changed", 2, 2)
    assert game.new_game(2).scores == [2, 2]


def test_a_variant_names_the_game_it_changes_by_its_header(tmp_path: Path) -> None:
    """What the variant's rulebook says it changes ("a variant of Base"), without the base file
    being parsed again."""
    module = meeple.check(variant(tmp_path, "")).module
    assert module is not None and module.base == "Base"
    assert meeple.check(write(tmp_path, "alone.rules", BASE)).module.base is None  # type: ignore[union-attr]


def test_replacing_a_constant_changes_the_game(tmp_path: Path) -> None:
    game = meeple.load(variant(tmp_path, "replace constant rounds = 5\n"))
    assert game.new_game(2).scores == [5, 5]


def test_replacing_a_rule(tmp_path: Path) -> None:
    game = meeple.load(
        variant(tmp_path, "replace rule gain(p: player):\n  move 3 chip of p from bag to p.pot\n")
    )
    assert game.new_game(2).scores == [6, 6]


def test_inserting_before_and_after_a_named_step(tmp_path: Path) -> None:
    body = 'insert before step income:\n  log "before"\ninsert after step income:\n  log "after"\n'
    state = meeple.load(variant(tmp_path, body)).new_game(2)
    assert [line for line in state.log if line in {"before", "after"}] == ["before", "after"] * 2


def test_replacing_and_removing_a_step(tmp_path: Path) -> None:
    state = meeple.load(variant(tmp_path, 'replace step income:\n  log "nothing"\n')).new_game(2)
    assert state.scores == [0, 0] and state.log.count("nothing") == 2
    state = meeple.load(variant(tmp_path, "remove step income\n")).new_game(2)
    assert state.scores == [0, 0] and state.turns == 0


def test_extending_a_table_and_the_setup(tmp_path: Path) -> None:
    body = "extend table colour:\n  blue, 2\nextend setup:\n  for each p in players:\n    gain(p)\n"
    game = meeple.load(variant(tmp_path, body))
    assert [r.key for r in game.program.rows["colour"]] == ["red", "blue"]
    assert game.new_game(2).scores == [3, 3]


def test_an_extended_table_keeps_the_citations_and_text_of_its_new_rows(tmp_path: Path) -> None:
    body = 'extend table colour:\n  cites "blue is new"\n  text "Blue joins."\n  blue, 2\n'
    module = meeple.check(variant(tmp_path, body)).module
    assert module is not None
    table = next(d for d in module.decls if isinstance(d, ast.Table) and d.name == "colour")
    assert [(m.kind, m.value) for m in table.meta][-2:] == [("cites", "blue is new"), ("text", "Blue joins.")]


def test_new_declarations_are_added(tmp_path: Path) -> None:
    body = "constant bonus = 4\nrule reward(p: player):\n  move bonus chip of p from bag to p.pot\n"
    body += "extend setup:\n  for each p in players:\n    reward(p)\n"
    assert meeple.load(variant(tmp_path, body)).new_game(2).scores == [6, 6]


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ('replace rule nothing(p: player):\n  log "x"\n', 3),
        ("remove step nowhere\n", 3),
        ('insert after phase nowhere:\n  log "x"\n', 3),
        ("extend table nothing:\n  a, 1\n", 3),
        ("replace constant rounds = yes\n", 3),
        ('rule gain(p: player):\n  log "x"\n', 3),
    ],
)
def test_a_patch_that_names_nothing_in_the_base_is_an_error_at_the_variants_line(
    tmp_path: Path, body: str, line: int
) -> None:
    assert errors(variant(tmp_path, body)) == [("variant.rules", line, "M090")]


def test_errors_in_the_changed_game_point_into_the_file_that_has_them(tmp_path: Path) -> None:
    path = variant(tmp_path, "replace rule gain(p: player):\n  move 1 chip of p from nowhere to p.pot\n")
    checked = meeple.check(path)
    (diag,) = [d for d in checked.diagnostics if d.severity == "error"]
    assert (Path(diag.file).name, diag.line, diag.code) == ("variant.rules", 4, "M010")
    assert "nowhere" in checked.render(diag)


def test_a_missing_base_game_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "v.rules", 'variant "V" of "no_such_game.rules":\n  players 2..2\n')
    assert errors(path) == [("v.rules", 1, "M091")]


def test_a_variant_of_itself_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "loop.rules", 'variant "V" of "loop.rules":\n  players 2..2\n')
    assert errors(path) == [("loop.rules", 1, "M091")]


def test_the_calm_skies_variant_of_dino_party_plays_and_passes_its_own_examples() -> None:
    """A variant of a bundled game, found by name: three Epochs, so three turns per player."""
    game = meeple.load(HERE / "variants" / "calm_skies.rules")
    state = game.new_game(3, seed=1)
    while not state.is_over:
        state.apply(0)
    assert state.turns == 9
    results = run_examples(game)
    assert [r.name for r in results] == ["Calm skies: no card is ever drawn"]
    assert all(r.passed for r in results)


# A base game with one of each kind a variant may replace besides rules, values, constants and
# tables: a runner walks a number line by a movement, chosen each turn.
WALK = """\
game "Walk":
  players 2..2
option laps: int = 1
zone start
zone finish per player
piece runner: 1 per player in start
var at: int = 0 per player
counter strides
map line:
  nodes place
table place (name):
  origin
movement stride():
  steps 1 .. 2
  step k to [k + 1]
style eager:
  prefer walk.r where r.end > 1
rule walk(p: player):
  choose r from routes(p.at, stride) by p prompt "How far?":
    set p.at to r.end
    tally strides
play:
  repeat laps times:
    for each p in players:
      turn p:
        walk(p)
score p = p.at
"""


def walk_variant(tmp_path: Path, body: str) -> Path:
    write(tmp_path, "walk.rules", WALK)
    return write(tmp_path, "longer.rules", 'variant "Longer" of "walk.rules":\n  players 2..2\n' + body)


def test_replacing_a_movement_changes_where_a_piece_can_go(tmp_path: Path) -> None:
    """The variant's game walks by the new movement: up to three where the base allowed two, and
    the base movement is not left behind unused (no M040)."""
    base = meeple.load(write(tmp_path, "walk.rules", WALK)).new_game(2)
    assert base.decision is not None and len(base.decision.options) == 2
    path = walk_variant(tmp_path, "replace movement stride():\n  steps 1 .. 3\n  step k to [k + 1]\n")
    assert [d.code for d in meeple.check(path).diagnostics] == []
    state = meeple.load(path).new_game(2)
    assert state.decision is not None and len(state.decision.options) == 3
    while not state.is_over:
        state.apply(len(state.decision.options) - 1)  # type: ignore[union-attr]
    assert state.scores == [3, 3]


@pytest.mark.parametrize(
    "body",
    [
        "replace zone finish\n",
        "replace piece runner: 2 per player in start\n",
        "replace var at: int = 5 per player\n",
        "replace option laps: int = 2\n",
        'replace counter strides\n  text "Strides taken."\n',
        "replace map line:\n  nodes place\n",
        "replace style eager:\n  avoid walk.r where r.end > 1\n",
    ],
)
def test_replacing_a_declaration_of_any_named_kind(tmp_path: Path, body: str) -> None:
    """The base game's declaration of that kind and name gives way to the variant's, in its place."""
    checked = meeple.check(walk_variant(tmp_path, body))
    assert [d.code for d in checked.diagnostics if d.severity == "error"] == []
    assert checked.module is not None
    name = body.split()[2].rstrip(":")
    (decl,) = [
        d
        for d in checked.module.decls
        if getattr(d, "name", None) == name and not isinstance(d, ast.GameHeader)
    ]
    assert Path(decl.span.file).name == "longer.rules"


def test_a_replaced_variable_and_option_change_the_game(tmp_path: Path) -> None:
    body = "replace var at: int = 5 per player\nreplace option laps: int = 2\n"
    state = meeple.load(walk_variant(tmp_path, body)).new_game(2)
    while not state.is_over:
        state.apply(0)
    assert state.scores == [7, 7]


@pytest.mark.parametrize(
    ("body", "message", "hint"),
    [
        (
            "replace movement strid():\n  steps 1 .. 3\n",
            "the base game has no movement 'strid' to replace",
            "did you mean 'stride'?",
        ),
        (
            "replace zone stride\n",
            "the base game has no zone 'stride' to replace",
            "'stride' is a movement in the base game: write 'replace movement stride'",
        ),
        (
            "replace constant laps = 2\n",
            "the base game has no constant 'laps' to replace",
            "'laps' is an option in the base game: write 'replace option laps'",
        ),
        (
            "remove piece runners\n",
            "the base game has no piece 'runners' to remove",
            "did you mean 'runner'?",
        ),
        (
            "remove var stride\n",
            "the base game has no var 'stride' to remove",
            "'stride' is a movement in the base game: write 'remove movement stride'",
        ),
    ],
)
def test_a_replaced_or_removed_declaration_must_be_of_its_kind_in_the_base(
    tmp_path: Path, body: str, message: str, hint: str
) -> None:
    (diag,) = [d for d in meeple.check(walk_variant(tmp_path, body)).diagnostics if d.severity == "error"]
    located = (Path(diag.file).name, diag.line, diag.column, diag.code)
    assert (located, diag.message, diag.hint) == (("longer.rules", 3, 1, "M090"), message, hint)


def test_removing_a_declaration_of_a_named_kind(tmp_path: Path) -> None:
    """The declaration goes, and what still uses it is an error (a removed counter still tallied)."""
    checked = meeple.check(walk_variant(tmp_path, "remove style eager\nremove counter strides\n"))
    assert [d.code for d in checked.diagnostics if d.severity == "error"] == ["M010"]  # `tally strides`
    checked = meeple.check(walk_variant(tmp_path, "remove style eager\n"))
    assert checked.ok and checked.program is not None and "eager" not in checked.program.styles


def test_the_kinds_a_variant_changes_are_the_grammars_named_declarations() -> None:
    """variants.DECL_KINDS, the grammar's `_named_decl` and its REMOVABLE name the same kinds: a
    declaration kind added to one and not the others would be refused by `replace` or `remove`."""
    from meeple.grammar.parser import _lark
    from meeple.interpreter.variants import DECL_KINDS

    lark = _lark()
    named = {r.expansion[0].name for r in lark.rules if r.origin.name == "_named_decl"}
    words = {
        lark.get_terminal(r.expansion[0].name).pattern.value for r in lark.rules if r.origin.name in named
    }
    removable = lark.get_terminal("REMOVABLE").pattern.value
    assert words == set(DECL_KINDS)
    assert removable == "(?:" + "|".join([*DECL_KINDS, "phase", "step"]) + r")\b"
