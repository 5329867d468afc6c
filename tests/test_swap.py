"""`swap X with Y` (docs/language.md, "Changing variables"): two variables exchange their values,
both read before either changes, each set as `set` sets it (clamped to its range). The worked
examples below are the specification; the checks say what a swap refuses."""

from __future__ import annotations

from pathlib import Path

from helpers import SWAPPED, only

import meeple
from meeple.interpreter.examples import run_examples

GAME = (
    """\
game "Swaps":
  players 2..2

"""
    + SWAPPED
    + """\

play:
  swap first with second

example "Two variables exchange their values":
  do:
    swap first with second
  expect:
    first == 5
    second == 1

example "A swap twice changes nothing":
  do:
    swap first with second
    swap second with first
  expect:
    first == 1
    second == 5

example "Each value is kept within the range of the variable it goes to":
  do:
    swap low with second
  expect:
    low == 3
    second == 0

example "Two players' values, and a variable with a player's":
  given:
    set players[0].seat to 2
    set players[1].seat to 7
    set players[1].mark to far
  do:
    swap players[0].seat with players[1].seat
    swap players[0].mark with players[1].mark
    swap first with players[0].seat
  expect:
    players[0].seat == 1
    players[1].seat == 2
    first == 7
    players[0].mark == far
    players[1].mark == near

example "Two players":
  do:
    swap leader with trailer
  expect:
    leader == players[1]
    trailer == players[0]

example "Two rows of one variable per owner and row":
  given:
    set players[0].worth[far] to 9
  do:
    swap players[0].worth[near] with players[0].worth[far]
  expect:
    players[0].worth[near] == 9
    players[0].worth[far] == 0
"""
)


def test_two_variables_exchange_their_values(tmp_path: Path) -> None:
    path = tmp_path / "swaps.rules"
    path.write_text(GAME)
    results = run_examples(meeple.load(path))
    assert len(results) == 6
    assert [(r.name, r.failures) for r in results] == [(r.name, []) for r in results]


def test_two_variables_of_different_types_cannot_swap(tmp_path: Path) -> None:
    path = tmp_path / "swaps.rules"
    path.write_text(GAME.replace("  swap first with second\n\n", "  swap first with leader\n\n", 1))
    assert only(meeple.check(path), "M014").message == "cannot swap a number with a player"


def test_only_variables_swap(tmp_path: Path) -> None:
    path = tmp_path / "swaps.rules"
    path.write_text(GAME.replace("  swap first with second\n\n", "  let n = 2\n  swap first with n\n\n", 1))
    assert only(meeple.check(path), "M019").message == "'n' is not a variable that can change"


def test_a_swap_without_its_second_variable_is_told_its_form(tmp_path: Path) -> None:
    path = tmp_path / "swaps.rules"
    path.write_text(GAME.replace("  swap first with second\n\n", "  swap first\n\n", 1))
    checked = meeple.check(path)
    assert not checked.ok
    assert any("the form is: swap <x> with <y>" in d.hint for d in checked.diagnostics)
