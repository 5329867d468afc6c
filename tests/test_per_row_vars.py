"""Variables per owner *and* per row: `var NAME: TYPE = INIT per player, TABLE` holds one value
for each player and each row of TABLE (a marker on each track, a resource of each kind), read
`p.NAME[row]` and changed with `set`, `add` and `subtract` on the same form; `within` bounds
each value. On a game of neutral names."""

from __future__ import annotations

from pathlib import Path

from helpers import only

import meeple
from meeple.interpreter.examples import run_examples

GAME = """\
game "Tracks":
  players 2..2

table track (name):
  speed
  power

var marker: int = 1 per player, track within 0..3

rule climb(p: player, t: track):
  add 5 to p.marker[t]

play:
  for each p in players:
    turn p:
      climb(p, speed)

score p = p.marker[speed] + p.marker[power]

example "Each row has its own value, bounded by within":
  given:
    set players[0].marker[power] to 2
  do:
    climb(players[0], speed)
  expect:
    players[0].marker[speed] == 3 and players[0].marker[power] == 2
    players[1].marker[speed] == 1
"""


def write(tmp_path: Path, source: str = GAME) -> Path:
    path = tmp_path / "tracks.rules"
    path.write_text(source)
    return path


def test_one_value_per_player_and_row_read_and_changed_by_row(tmp_path: Path) -> None:
    game = meeple.load(write(tmp_path))
    assert [r.failures for r in run_examples(game)] == [[]]
    assert game.new_game(2).scores == [4, 4]  # speed climbs to its bound, 3; power stays 1


def test_the_row_must_be_a_row_of_the_table(tmp_path: Path) -> None:
    diag = only(meeple.check(write(tmp_path, GAME.replace("p.marker[speed] +", "p.marker[2] +"))), "M014")
    assert "a row of 'track'" in diag.message


def test_per_names_an_owner_and_a_table(tmp_path: Path) -> None:
    bad = only(
        meeple.check(write(tmp_path, GAME.replace("per player, track", "per player, nothing"))), "M010"
    )
    assert "'nothing' is not a table" in bad.message


def test_both_englishes_say_which_row(tmp_path: Path) -> None:
    from meeple.codegen.english import English
    from meeple.codegen.players import PlayersEnglish

    checked = meeple.check(write(tmp_path))
    assert checked.symbols is not None and checked.symbols.score is not None
    score = checked.symbols.score.expr
    assert "marker for speed" in English(checked.symbols).expr(score)
    assert "marker for speed" in PlayersEnglish(checked.symbols).expr(score)
