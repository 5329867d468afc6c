"""`[each x in L where C ranked by K1, K2, ...]`: the elements, highest K1 first, then highest
K2, then in the list's order; what a priority list or "the farthest behind" needs in one
expression. Checked by running the examples of a game of neutral names."""

from __future__ import annotations

from pathlib import Path

from helpers import only

import meeple
from meeple.codegen.english import English
from meeple.interpreter.examples import run_examples

GAME = """\
game "Race":
  players 2..2

table animal (name, speed: int, size: int):
  frog, 2, 1
  heron, 3, 2
  fox, 3, 3
  ant, 1, 1

value by_speed() = [each a in animal ranked by a.speed]
value by_speed_then_size() = [each a in animal ranked by a.speed, a.size]
value small_and_slow() = [each a in animal where a.size == 1 ranked by -a.speed]

play:
  for each p in players:
    turn p:
      log "go"

example "Highest first, ties in the list's order":
  expect:
    by_speed() == [heron, fox, frog, ant]

example "A second key breaks the first one's ties":
  expect:
    by_speed_then_size() == [fox, heron, frog, ant]

example "Filtered, then ranked; a negative key ranks lowest first":
  expect:
    small_and_slow() == [ant, frog]
"""


def write(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "race.rules"
    path.write_text(source)
    return path


def test_ranked_by_orders_highest_first_then_by_the_next_key_then_as_listed(tmp_path: Path) -> None:
    results = run_examples(meeple.load(write(tmp_path, GAME)))
    assert [r.failures for r in results] == [[], [], []]


def test_a_key_is_a_number(tmp_path: Path) -> None:
    source = GAME.replace("ranked by a.speed]", "ranked by a.name]")
    diag = only(meeple.check(write(tmp_path, source)), "M014")
    assert "a 'ranked by' key must be a number" in diag.message


def test_the_designers_english_says_the_ranking(tmp_path: Path) -> None:
    checked = meeple.check(write(tmp_path, GAME))
    assert checked.symbols is not None
    said = English(checked.symbols).expr(checked.symbols.values["small_and_slow"].expr)
    assert "where" in said and "ranked by" in said and "highest first" in said
