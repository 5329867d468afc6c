"""The native core keeps an answer about one kind of piece at a place while pieces of other kinds
come and go there (`Part::Kind`, docs/architecture.md, "The memo, measured"), as the Python
engine's memo keeps `(location, kind)` apart. An answer kept when it should have been found again
would show in the log, the options offered or the scores: here the same games on both engines,
where beads of three colours (pieces one per row of a table) and stones (another declaration)
share the same places, are moved one by one, in lists, drawn from the top and shuffled, and
every question asks about one colour, one declaration, or every piece at a place."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import native_or_skip, write
from test_native import both, outcome, played_out_both

import meeple
from meeple.interpreter import native


@pytest.fixture(autouse=True)
def built() -> None:
    native_or_skip()


BEADS = """game "Sorting Beads":
  players 2..3
table colour (name, worth: int):
  red, 1
  blue, 2
  green, 3
zone bag, ordered
zone pool
zone tray per player
piece bead: 3 per colour in bag
piece stone: 2 per player in pool
value beads_of(p: player, c: colour) = count(pieces(p.tray, c))
value stones_of(p: player) = count(pieces(p.tray, stone))
value everything(p: player) = count(pieces(p.tray))
value both_places(p: player, c: colour) = count(pieces([p.tray, pool], c))
value top_bead() = if count(pieces(bag, bead)) > 0 then pieces(bag, bead)[0].row else red
value wanted(p: player) = [each c in colour where beads_of(p, c) < 2 and count(pieces(bag, c)) > 0]
score p = sum([c.worth * beads_of(p, c) for each c in colour]) + stones_of(p) + everything(p)
play:
  shuffle bag
  repeat 3 times:
    for each p in players:
      turn p:
        log "{p} sees {top_bead()} on top, {both_places(p, red)} red within reach"
        if count(wanted(p)) > 0:
          choose c from wanted(p) prompt "Colour to take":
            move 1 bead c from bag to p.tray
            log "{p} has {beads_of(p, c)} {c}, {stones_of(p)} stones, {everything(p)} pieces"
        may "Put a stone in?":
          move 1 stone of p from pool to p.tray
          log "{p} has {stones_of(p)} stones, {everything(p)} pieces, {beads_of(p, blue)} blue"
        draw 1 from bag to pool
        log "{top_bead()} on top, {both_places(p, green)} green within reach"
        may choose x from pieces(pool, bead) prompt "Bead to keep":
          move x to p.tray
          log "{p} keeps {x}: {beads_of(p, x.row)} of it, {everything(p)} pieces"
        may "Shuffle the bag?":
          shuffle bag
          log "{top_bead()} on top now"
        may "Give every stone back?":
          move pieces(p.tray, stone) to pool
          log "{p} has {stones_of(p)} stones, {beads_of(p, red)} red, {everything(p)} pieces"
"""


def test_questions_about_one_kind_of_piece_at_a_place_are_answered_alike_on_both_engines(
    tmp_path: Path,
) -> None:
    game = meeple.load(str(write(tmp_path, "beads.rules", BEADS)))
    assert native.engine_for(game, "auto") == ("native", "")
    for players in (2, 3):
        for seed in range(20):
            python, core = both(game, players, seed)
            assert core == python, f"{players} players, seed {seed}"
    # The games went where the questions could go wrong: a bead kept from the pool, a shuffle
    # asked for, stones given back.
    games = [both(game, 2, seed)[0] for seed in range(20)]
    assert not any("error" in played for played in games)
    said = " ".join(line for played in games for line in played["log"])
    assert " keeps " in said and "on top now" in said and "has 0 stones" in said


def test_a_game_played_inside_the_core_is_the_python_agents_game_with_kinds_apart(tmp_path: Path) -> None:
    """Played wholly inside the core (`play_out`, its memo never handed back to Python between
    decisions), the same choices, log, scores and winners as the Python engine's agents."""
    game = meeple.load(str(write(tmp_path, "beads.rules", BEADS)))
    for seed in range(10):
        python, core = played_out_both(game, 3, seed, "random")
        assert outcome(core) == outcome(python), f"seed {seed}"
