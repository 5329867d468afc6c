"""Types are values (interpreter/types.py), and each value's attributes are defined once
(interpreter/attributes.py): what analysis, the compiler and the editors read alike."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.grammar import ast
from meeple.interpreter import attributes
from meeple.interpreter import types as ty
from meeple.interpreter.attributes import OWNERS, SEAT, ZONE_OWNER, Attribute
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.lsp_index import attributes as completions

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "language.md"

# ---------------------------------------------------------------------- types as values

_names = st.sampled_from(["", "land", "colour"])
_scalars = st.sampled_from([ty.INT, ty.BOOL, ty.TEXT, ty.PLAYER, ty.LOC, ty.KIND, ty.MOVEMENT, ty.ANY])
_types = st.recursive(
    _scalars
    | st.builds(ty.Row, st.sampled_from(["land", "colour"]))
    | st.builds(ty.Piece, _names)
    | st.builds(ty.Cell, _names)
    | st.builds(ty.Grid, _names)
    | st.builds(ty.Placement, _names)
    | st.builds(ty.Border, _names),
    lambda inner: (
        st.builds(ty.ListOf, st.none() | inner)
        | st.builds(ty.Area, st.none() | inner)
        | st.builds(ty.Route, st.none() | inner)
        | st.builds(ty.Rows, st.sampled_from(["land", "colour"]), inner)
    ),
    max_leaves=4,
)


@given(_types)
def test_a_type_fits_itself_and_anything_fits_where_nothing_is_known(t: ty.Type) -> None:
    assert t.fits(t)
    assert t.fits(ty.ANY) and ty.ANY.fits(t)
    assert hash(t) == hash(type(t)(*(getattr(t, f) for f in t.__dataclass_fields__)))


@given(_types, _types, _types)
def test_refinement_is_transitive(a: ty.Type, b: ty.Type, c: ty.Type) -> None:
    if a.refines(b) and b.refines(c):
        assert a.refines(c)


@given(_types)
def test_a_type_with_its_parameters_left_empty_is_one_every_refinement_fits(t: ty.Type) -> None:
    """`Piece()` stands for a piece of any kind, `ListOf()` for any list: what a built-in takes."""
    general = type(t)() if isinstance(t, ty.ListOf | ty.Piece | ty.Cell | ty.Grid | ty.Placement) else t
    assert t.fits(general)


@given(_types)
def test_every_type_is_said_in_words(t: ty.Type) -> None:
    words = t.readable()
    assert words and ":" not in words  # never the old "list:row:x"


def test_a_piece_of_a_kind_is_a_piece_and_a_list_of_them_a_list() -> None:
    assert ty.Piece("card").fits(ty.Piece())
    assert not ty.Piece().fits(ty.Piece("card"))
    assert ty.ListOf(ty.Piece("card")).fits(ty.ListOf(ty.Piece()))
    assert ty.ListOf(ty.INT).fits(ty.ListOf())
    assert not ty.ListOf(ty.INT).fits(ty.ListOf(ty.ANY))  # as before: "list:int" is no "list:any"
    assert ty.Row("land").fits(ty.LOC) and ty.Cell("land").fits(ty.LOC)  # places hold pieces
    assert not ty.INT.fits(ty.LOC)


def test_diagnostics_say_types_as_before() -> None:
    """The words the messages used when types were strings (tests/test_analysis.py holds them)."""
    assert ty.ListOf(ty.INT).readable() == "a list of numbers"
    assert ty.Row("colour").readable() == "a row of 'colour'"
    assert ty.Grid("land").readable() == "the grid 'land'"
    assert ty.Cell().readable() == "a cell of a grid map"
    assert ty.Placement().readable() == "a placement (from placements(...))"
    assert ty.ListOf(ty.Piece("card")).readable() == "a list of pieces"


# ---------------------------------------------------------------------- one table of attributes


def _reference_rows() -> list[tuple[str, str, str]]:
    text = REFERENCE.read_text(encoding="utf-8")
    section = text.split("\n### Attributes\n", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| (an? \w+) \| `(\w+)` \| (.+) \|$", section, flags=re.M)


def test_the_reference_lists_every_attribute_of_the_table_with_its_line() -> None:
    wanted = [("a player", SEAT.name, SEAT.doc), ("a zone", ZONE_OWNER.name, ZONE_OWNER.doc)]
    wanted += [(owner.what, a.name, a.doc) for owner in OWNERS for a in owner.attributes.values()]
    assert _reference_rows() == wanted


GAME = """\
game "Weights":
  players 2..2

zone pool
piece token: 3 in pool
var total: int = 0

play:
  for each t in pieces(pool):
    add t.{name} to total
  end game
"""


@pytest.fixture
def weight() -> Iterator[Attribute]:
    """A piece's `weight` (2), in the table for one test only."""
    added = Attribute("weight", "what a piece weighs", lambda owner, symbols: ty.INT, lambda rt, piece: 2)
    pieces = attributes.BY_TYPE[ty.Piece].attributes
    pieces[added.name] = added
    try:
        yield added
    finally:
        del pieces[added.name]


def test_an_attribute_is_one_entry_read_by_analysis_the_compiler_and_the_editors(
    tmp_path: Path, weight: Attribute
) -> None:
    path = tmp_path / "weights.rules"
    path.write_text(GAME.format(name="weight"), encoding="utf-8")
    checked = meeple.check(path)
    assert checked.ok, checked.diagnostics
    assert checked.symbols is not None
    [attr] = [a for a in checked.symbols.module.walk() if isinstance(a, ast.Attr) and a.name == "weight"]
    assert checked.symbols.types[id(attr)] == ty.INT  # analysis gave it the table's type
    assert completions(checked.symbols, ty.Piece("token"))["weight"] == "what a piece weighs"
    state = meeple.load(path).new_game(2, seed=0)  # the compiler computes it with the table's getter
    assert state.is_over and state.rt.vars["total"] == 6


def test_a_piece_has_no_attribute_the_table_does_not_give_it(tmp_path: Path) -> None:
    path = tmp_path / "weights.rules"
    path.write_text(GAME.format(name="weight"), encoding="utf-8")
    with pytest.raises(RuleRuntimeError, match="has no 'weight'"):
        meeple.load(path).new_game(2, seed=0)
