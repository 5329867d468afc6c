"""Boards given by their size (`grid square 7 by 6`, `grid hex 11 by 11`, `grid hex hexagon 4`):
all their cells from the start, named as players name them, with their sides, lines and chains
computed rather than typed out. Three classic games written on them are checked against what is
known of them (tests/games/): Tic-Tac-Toe's complete game tree, Connect Four's first-player edge
under random play, and Hex, which is never drawn."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from helpers import only, play_random, run, write
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import Game
from meeple.interpreter import grids
from meeple.interpreter.engine import replay
from meeple.interpreter.examples import run_examples
from meeple.interpreter.geometry import board, cell_names, geometry
from meeple.interpreter.values import Cell, MapRef
from meeple.limits import DEFAULT_BUDGET
from meeple.terminal import Screen

GAMES = Path(__file__).parent / "games"
CONNECT_FOUR = GAMES / "connect_four.rules"
HEX = GAMES / "hex.rules"


@cache
def tic_tac_toe() -> Game:
    """Tic-tac-toe: built on first use, not at import (each test process imports every file)."""
    return meeple.load(GAMES / "tic_tac_toe.rules")


HEADER = 'game "Board":\n  players 2..2\n'


def cells_of(kind: str, outline: str, sizes: list[int]) -> dict[tuple[int, int], Cell]:
    """A board's cells as a game makes them, without a game."""
    names = cell_names(board(kind, outline, sizes))
    mapref = MapRef("board", None, geometry(kind), names)
    return {at: Cell(mapref, *at, name) for at, name in names.items()}


def named(cells: list[Cell]) -> list[str]:
    return [c.name for c in cells]


# ------------------------------------------------------------------ the cells of a board


def test_a_square_board_is_read_row_by_row_and_named_by_column_letter_and_row_number() -> None:
    cells = cells_of("square", "by", [3, 2])
    assert named(list(cells.values())) == ["a1", "b1", "c1", "a2", "b2", "c2"]
    assert cells[(2, 1)].name == "c2"  # q is the column (eastwards), r the row (southwards)


def test_a_hex_board_by_size_is_a_rhombus_and_a_hexagon_has_n_cells_a_side() -> None:
    assert len(cells_of("hex", "by", [11, 11])) == 121
    hexagon = cells_of("hex", "hexagon", [4])
    assert len(hexagon) == 37  # 3n(n - 1) + 1
    assert max(grids.distance(c, hexagon[(0, 0)]) for c in hexagon.values()) == 3


def test_columns_past_z_are_named_as_spreadsheets_name_them() -> None:
    names = cell_names(board("square", "by", [28, 1]))
    assert [names[(q, 0)] for q in (0, 25, 26, 27)] == ["a1", "z1", "aa1", "ab1"]


def test_every_cell_of_a_board_is_there_at_the_start_of_a_game() -> None:
    state = tic_tac_toe().new_game(2, seed=0)
    (cells,) = state.view()["grids"].values()
    assert [c["name"] for c in cells] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert state.decision is not None and state.decision.options == [c["name"] for c in cells]


# ------------------------------------------------------------------ sides, lines, chains


def test_the_sides_of_a_square_board_are_its_outer_rows_and_columns() -> None:
    cells = cells_of("square", "by", [3, 3])
    geo = geometry("square")
    assert named(grids.side(cells, geo, "north")) == ["a1", "b1", "c1"]
    assert named(grids.side(cells, geo, "west")) == ["a1", "a2", "a3"]
    assert named(grids.side(cells, geo, "south")) == ["a3", "b3", "c3"]


def test_the_north_of_a_hex_rhombus_is_its_first_row_and_its_east_its_last_column() -> None:
    cells = cells_of("hex", "by", [3, 3])
    geo = geometry("hex")
    assert named(grids.side(cells, geo, "north")) == ["a1", "b1", "c1"]
    assert named(grids.side(cells, geo, "east")) == ["c1", "c2", "c3"]
    assert named(grids.side(cells, geo, "south-west")) == ["a1", "a2", "a3", "b3", "c3"]


def test_in_a_row_counts_straight_runs_along_sides_and_square_diagonals() -> None:
    square = cells_of("square", "by", [4, 4])
    pick = lambda *names: [c for c in square.values() if c.name in names]  # noqa: E731
    assert grids.in_a_row(pick("a1", "b2", "c3"), 3)  # a diagonal
    assert grids.in_a_row(pick("b1", "b2", "b3", "d4"), 3)  # a column
    assert not grids.in_a_row(pick("a1", "b2", "d4"), 3)  # a gap
    assert not grids.in_a_row(pick("a1", "b1", "d1"), 3)
    assert grids.in_a_row(pick("c2"), 1) and not grids.in_a_row([], 1)
    hexes = cells_of("hex", "by", [4, 4])
    on_hex = lambda *at: [hexes[a] for a in at]  # noqa: E731
    assert grids.in_a_row(on_hex((0, 2), (1, 1), (2, 0)), 3)  # north-east, a side direction on hexes
    assert not grids.in_a_row(on_hex((0, 0), (1, 1), (2, 2)), 3)  # not a line of hexes


def test_in_a_row_refuses_a_count_below_one() -> None:
    with pytest.raises(ValueError, match="counted from 1"):
        grids.in_a_row(list(cells_of("square", "by", [2, 2]).values()), 0)


# ------------------------------------------------------------------ mistakes, located


def check(tmp_path: Path, body: str) -> meeple.Checked:
    return meeple.check(write(tmp_path, "board.rules", HEADER + body + '\nplay:\n  log "go"\n'))


@pytest.mark.parametrize(
    ("body", "code", "line", "column", "says"),
    [
        ("map board:\n  grid square hexagon 3\n", "M010", 3, 1, "only a hex grid is laid out as a hexagon"),
        ("var n: int = 3\nmap board:\n  grid hex n by 3\n", "M010", 5, 12, "'n' is not one"),
        ("map board:\n  grid square 2 by 2 of t\ntable t (name):\n  a\n", "M010", 3, 1, "no 'blocks'"),
        ("map board:\n  grid square 1000 by 1000\n", "M025", 3, 1, "1,000,000 cells"),
        ("constant n = 0\nmap board:\n  grid square n by 3\n", "M030", 5, 15, "from 1 up, not 0"),
        (
            'map board:\n  grid square 3 by 3\nvalue x() = count(side(board, "nort"))\n',
            "M014",
            5,
            31,
            "sides of a square grid",
        ),
        (
            "map board:\n  grid square 3 by 3\nvalue x() = count(placements(board, []))\n",
            "M014",
            5,
            30,
            "a board has all its cells",
        ),
    ],
)
def test_a_board_s_mistakes_are_located(
    tmp_path: Path, body: str, code: str, line: int, column: int, says: str
) -> None:
    d = only(check(tmp_path, body), code)
    assert (d.line, d.column) == (line, column) and says in d.message, d.message


def test_a_misspelt_side_is_answered_with_the_side_meant(tmp_path: Path) -> None:
    body = 'map board:\n  grid hex 3 by 3\nvalue x() = count(side(board, "north_east"))\n'
    d = only(check(tmp_path, body), "M014")
    assert "'north-east'" in d.hint


def test_a_board_size_may_be_an_option(tmp_path: Path) -> None:
    game = meeple.load(HEX, {"size": "4"})
    (cells,) = game.new_game(2, seed=0).view()["grids"].values()
    assert len(cells) == 16


# ------------------------------------------------------------------ the terminal shows the board


def test_terminal_play_draws_a_board_with_a_key() -> None:
    state = tic_tac_toe().new_game(2, seed=0)
    state.apply(4)  # b2
    lines = [line.plain for line in Screen(state, 1).lines]
    start = lines.index("Board:")
    assert lines[start : start + 5] == ["Board:", "    a b c", "  1 . . .", "  2 . A .", "  3 . . ."]
    assert "  A = mark of Player 1" in lines


# ------------------------------------------------------------------ the three classic games


def test_the_worked_examples_of_the_three_games_hold() -> None:
    for path in (GAMES / "tic_tac_toe.rules", CONNECT_FOUR, HEX):
        results = run_examples(meeple.load(path))
        assert len(results) == 2 and all(not r.failures for r in results), path


def game_tree(game: meeple.Game) -> Counter[str]:
    """Every complete game from the start, counted by how it ends ("Player 1", "draw"): a move
    sequence is a game, so the count is the size of the game tree. Positions reached by several
    orders of moves are explored once (their counts are shared), so the search visits thousands of
    positions rather than hundreds of thousands of games."""
    known: dict[str, Counter[str]] = {}

    def games_from(choices: list[int]) -> Counter[str]:
        state = replay(game, 2, 0, choices, complete=False)
        if state.is_over:
            winners = state.winners
            return Counter({"draw" if len(winners) > 1 else f"Player {winners[0] + 1}": 1})
        view = state.view()
        key = json.dumps([view["grids"], view["decision"]], sort_keys=True)
        if key not in known:
            assert state.decision is not None
            known[key] = sum((games_from([*choices, i]) for i in range(state.decision.size)), Counter())
        return known[key]

    return games_from([])


def test_tic_tac_toe_has_255168_games_131184_won_first_77904_won_second_46080_drawn() -> None:
    """The complete game tree of Tic-Tac-Toe, as counted by Schaefer (2002) and others."""
    tree = game_tree(tic_tac_toe())
    assert sum(tree.values()) == 255_168
    assert tree == Counter({"Player 1": 131_184, "Player 2": 77_904, "draw": 46_080})


def simulated(path: Path, games: int, *options: str) -> dict:
    result = run("simulate", str(path), "--games", str(games), "--jobs", "2", "--json", *options)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_connect_four_under_random_play_gives_the_first_player_about_56_percent() -> None:
    """Random against random, the first player wins about 55.7% of Connect Four games, the
    second about 44%, and under 1% are drawn."""
    figures = simulated(CONNECT_FOUR, 1000)["figures"]
    (first_low, first_high), (second_low, second_high) = (
        seat["interval"] for seat in figures["outright_win_rate"]
    )
    assert first_low <= 0.557 <= first_high and first_low > 0.5
    assert second_low <= 0.44 <= second_high
    assert figures["draw_rate"]["interval"][1] < 0.02


@settings(max_examples=15, deadline=None)
@given(size=st.integers(min_value=1, max_value=7), seed=st.integers(min_value=0, max_value=10_000))
def test_hex_is_never_drawn_on_any_board(size: int, seed: int) -> None:
    """On any board a game of Hex ends with one winner: a full board always joins one player's
    sides (the rules let a game run on to a full board, so a draw would show)."""
    game = meeple.load(HEX, {"size": str(size)})
    state = play_random(game, 2, seed, random.Random(seed), budget=DEFAULT_BUDGET, max_decisions=size * size)
    assert len(state.winners) == 1, (size, seed, state.choices)


def test_hex_on_its_11_by_11_board_is_never_drawn_in_random_games() -> None:
    result = simulated(HEX, 40)
    assert result["draws"] == 0 and result["finished"] == 40
