"""`belongs to COLUMN` (docs/language.md, "Tables"; issue 26): a table says which seat each of its
rows belongs to, so that the pictures of a game (the playtest page, the terminal, the view every
seat reads) leave out the places made of rows of seats not in the game: a 2-player game of Dino
Garden does not draw the Park boards of Players 3 and 4, which stay in the box. The rules still
read every row. On a neutral game of one yard per player (`YARDS`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple import Diagnostic
from meeple.interpreter.engine import State
from meeple.serve.present import Presenter
from meeple.terminal import Screen

YARDS = """\
game "Yards":
  players 2..3

table spot (name, called, seat: int, x: int, y: int):
  belongs to seat
  a1, "first gate of Player 1", 0, 0, 0
  a2, "second gate of Player 1", 0, 1, 0
  b1, "first gate of Player 2", 1, 0, 1
  b2, "second gate of Player 2", 1, 1, 1
  c1, "first gate of Player 3", 2, 0, 2
  c2, "second gate of Player 3", 2, 1, 2

table path (a: spot, b: spot):
  a1, a2
  a2, b1
  b1, c1

map yards:
  nodes spot at self.x, self.y
  edges path (a, b)

zone pool per player
piece stone: 2 per player in pool

value spots_in_all() = count(yards)

score p = spots_in_all()

play:
  choose n from yards by players[0] prompt "Where":
    move 1 stone of players[0] from players[0].pool to n
"""


def game(tmp_path: Path, source: str = YARDS) -> meeple.Game:
    path = tmp_path / "yards.rules"
    path.write_text(source)
    return meeple.load(path)


def check(tmp_path: Path, source: str) -> list[Diagnostic]:
    path = tmp_path / "yards.rules"
    path.write_text(source)
    return meeple.check(path).diagnostics


def test_a_game_of_two_draws_no_place_of_a_third_seat_on_the_page(tmp_path: Path) -> None:
    state = game(tmp_path).new_game(2, 1)
    (board,) = Presenter(state).page(state, 0)["boards"]
    assert "first gate of Player 2" in board
    assert "of Player 3" not in board
    three = game(tmp_path).new_game(3, 1)
    (board,) = Presenter(three).page(three, 0)["boards"]
    assert "first gate of Player 3" in board


def test_a_game_of_two_draws_no_place_of_a_third_seat_at_the_terminal(tmp_path: Path) -> None:
    state = game(tmp_path).new_game(2, 1)
    drawn = "\n".join(line.plain for line in Screen(state, 0).lines)
    assert "Player 2" in drawn
    assert "Player 3" not in drawn


def test_the_rules_still_read_every_row_and_the_options_are_the_rules(tmp_path: Path) -> None:
    """What a row belongs to changes only what pictures show: the rules count every node, and
    offer them (a designer who wants fewer says so in the rules)."""
    state = game(tmp_path).new_game(2, 1)
    assert state.decision is not None and len(state.decision.options) == 6
    state.apply(5)  # a stone on the third seat's gate, as the rules allow
    assert state.scores == [6, 6]


def test_a_view_holds_no_place_of_a_seat_not_in_the_game(tmp_path: Path) -> None:
    state: State = game(tmp_path).new_game(2, 1)
    state.apply(5)
    assert state.view(0)["maps"]["yards"] == {}
    state = game(tmp_path).new_game(2, 1)
    state.apply(0)
    assert state.view(0)["maps"]["yards"] == {"a1": {"stone of Player 1": 1}}


def test_dino_garden_for_two_leaves_the_other_park_boards_in_the_box() -> None:
    """Dino Garden's rulebook: "a seat not in the game leaves its board in the box" (its `plot`
    table `belongs to seat`)."""
    two = meeple.load("dino_garden_2p").new_game(2, 1)
    boards = "".join(Presenter(two).page(two, 0)["boards"])
    assert "area of Player 2" in boards
    assert "area of Player 3" not in boards and "area of Player 4" not in boards
    three = meeple.load("dino_garden").new_game(3, 1)
    boards = "".join(Presenter(three).page(three, 0)["boards"])
    assert "area of Player 3" in boards and "area of Player 4" not in boards


@pytest.mark.parametrize(
    ("line", "code", "message"),
    [
        ("belongs to owner", "M010", "'owner' is not a column of 'spot'"),
        ("belongs to called", "M014", "'called' is no int column"),
    ],
)
def test_a_seat_is_a_whole_number_column_of_the_table(
    tmp_path: Path, line: str, code: str, message: str
) -> None:
    diags = check(tmp_path, YARDS.replace("belongs to seat", line))
    (diag,) = [d for d in diags if d.severity == "error"]
    assert (diag.code, diag.line, diag.column) == (code, 5, 14)
    assert message in diag.message
