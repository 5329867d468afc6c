"""`bottom(Z)`: pieces moved or drawn there go under the ones already there ("put it on the bottom
of the deck"), by every form of `move` and by `draw`; nothing but a destination takes it. On a
game of neutral names."""

from __future__ import annotations

from pathlib import Path

from helpers import only

import meeple
from meeple.interpreter.examples import run_examples

GAME = """\
game "Deck":
  players 2..2

table colour (name):
  red
  blue

zone box
zone deck, ordered
zone hand per player
piece card: each colour in box
piece stone: 2 in box

play:
  for each p in players:
    turn p:
      log "turn"

example "A card moved to the bottom goes under the others":
  given:
    move 1 card red from box to deck
    move 1 stone from box to deck
  do:
    move 1 card blue from box to bottom(deck)
  expect:
    [x.kind for each x in pieces(deck)] == ["card", "card", "stone"]
    pieces(deck)[0].row == blue

example "A piece named, moved to the bottom":
  given:
    move 2 stone from box to deck
    move 1 card red from box to players[0].hand
  do:
    move pieces(players[0].hand)[0] to bottom(deck)
  expect:
    pieces(deck)[0].row == red and count(pieces(players[0].hand)) == 0

example "Drawn to the bottom of another pile":
  given:
    move 1 card red from box to deck
    move 1 stone from box to deck
    move 1 card blue from box to players[0].hand
  do:
    draw 1 from deck to bottom(players[0].hand)
  expect:
    [x.kind for each x in pieces(players[0].hand)] == ["stone", "card"]
"""


def test_pieces_go_under_the_others_by_every_move_and_draw(tmp_path: Path) -> None:
    path = tmp_path / "deck.rules"
    path.write_text(GAME)
    results = run_examples(meeple.load(path))
    assert [(r.name, r.failures) for r in results] == [(r.name, []) for r in results]


def test_a_bottom_is_only_a_destination(tmp_path: Path) -> None:
    path = tmp_path / "deck.rules"
    path.write_text(GAME.replace("[x.kind for each x in pieces(players[0].hand)]", "count(bottom(deck))"))
    assert "only 'move ... to' and 'draw ... to' take it" in only(meeple.check(path), "M014").message
