"""`fewest_steps(START, PLACES, MOVEMENT, args...)`: how far a movement has to go to the closest
of some places, however far, by the movement's own graph and conditions (docs/language.md,
"Movements"). One small neutral game: six spots, five of them in a ring, one (f) joined to
nothing, rocks that block the way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import ask, ring_map

import meeple
from meeple import Diagnostic

# a - b - c
# |       |
# e ----- d        f
RING = (
    """\
game "Ring":
  players 1..1

"""
    + ring_map("f")
    + """\

zone box
piece rock: 3 in box
piece flag: 2 in box

movement walk():
  steps 1 .. 1
  through s where count(pieces(s, rock)) == 0
  ends s where yes

movement jump(far: bool):
  steps 1
  step s to neighbours(s) + (if far then [each x in spot where x != s] else [])

value flagged() = [each s in spot where count(pieces(s, flag)) > 0]
value to_flag(origin: spot) = fewest_steps(origin, flagged(), walk)
value to_any(origin: spot, places) = fewest_steps(origin, places, walk)

play:
  for each p in players:
    turn p:
      log "{to_flag(a)}"
"""
)


def started(tmp_path: Path, source: str = RING) -> meeple.State:
    path = tmp_path / "ring.rules"
    path.write_text(source, encoding="utf-8")
    return meeple.load(path).new_game(1, seed=1)


def spot(state: meeple.State, name: str) -> Any:
    return state.game.program.row("spot", name)


def put(state: meeple.State, kind: str, where: str) -> None:
    state.rt.locs[spot(state, where)].append((state.game.program.kinds[kind][0], None))
    state.rt.forget()


def errors(tmp_path: Path, source: str) -> list[Diagnostic]:
    path = tmp_path / "ring.rules"
    path.write_text(source, encoding="utf-8")
    return [d for d in meeple.check(path).diagnostics if d.severity == "error"]


def test_the_fewest_steps_is_the_shortest_way_round_the_ring(tmp_path: Path) -> None:
    state = started(tmp_path)
    places = [spot(state, "c"), spot(state, "d")]
    assert ask(state, "to_any", spot(state, "a"), places) == 2
    assert ask(state, "to_any", spot(state, "b"), places) == 1


def test_it_goes_farther_than_the_movements_steps_allow(tmp_path: Path) -> None:
    """`walk` takes 1 step a move; c is still 2 steps from a."""
    state = started(tmp_path)
    assert ask(state, "to_any", spot(state, "a"), [spot(state, "c")]) == 2


def test_the_start_among_the_places_is_0_steps(tmp_path: Path) -> None:
    state = started(tmp_path)
    assert ask(state, "to_any", spot(state, "a"), [spot(state, "a"), spot(state, "d")]) == 0


def test_a_place_past_a_blocked_one_is_reached_the_other_way_round(tmp_path: Path) -> None:
    """A rock on b may not be passed (walk's `through`): c is 3 steps from a, by e and d."""
    state = started(tmp_path)
    put(state, "rock", "b")
    assert ask(state, "to_any", spot(state, "a"), [spot(state, "c")]) == 3


def test_no_way_there_is_none(tmp_path: Path) -> None:
    state = started(tmp_path)
    assert ask(state, "to_any", spot(state, "a"), [spot(state, "f")]) is None
    assert ask(state, "to_any", spot(state, "a"), []) is None


def test_the_places_are_whatever_the_rules_compute(tmp_path: Path) -> None:
    """The spots holding a flag: none, then d, then b too (the closest)."""
    state = started(tmp_path)
    assert ask(state, "to_flag", spot(state, "a")) is None
    put(state, "flag", "d")
    assert ask(state, "to_flag", spot(state, "a")) == 2
    put(state, "flag", "b")
    assert ask(state, "to_flag", spot(state, "a")) == 1


def test_a_step_line_gives_the_graph_it_counts_on(tmp_path: Path) -> None:
    """`jump` with `far` may step to any spot: f, cut off from the ring, is 1 step away."""
    source = RING.replace("fewest_steps(origin, places, walk)", "fewest_steps(origin, places, jump, yes)")
    state = started(tmp_path, source)
    assert ask(state, "to_any", spot(state, "a"), [spot(state, "f")]) == 1
    near = RING.replace("fewest_steps(origin, places, walk)", "fewest_steps(origin, places, jump, no)")
    assert ask(started(tmp_path, near), "to_any", spot(state, "a"), [spot(state, "f")]) is None


def test_a_name_that_is_not_a_movement_is_an_error_at_it(tmp_path: Path) -> None:
    source = RING.replace("fewest_steps(origin, places, walk)", "fewest_steps(origin, places, wlak)")
    [error] = [d for d in errors(tmp_path, source) if d.code == "M010"]
    assert error.message == "fewest_steps' third argument names a movement"
    assert error.hint == "did you mean 'walk'?"


def test_the_movements_arguments_are_counted(tmp_path: Path) -> None:
    source = RING.replace("fewest_steps(origin, places, walk)", "fewest_steps(origin, places, jump)")
    assert [d.code for d in errors(tmp_path, source)] == ["M012"]


def test_a_straight_movement_is_refused(tmp_path: Path) -> None:
    source = RING.replace("  steps 1 .. 1\n", "  steps 1 .. 1\n  straight yes\n", 1)
    messages = [d.message for d in errors(tmp_path, source) if d.code == "M014"]
    assert "fewest_steps counts steps in any direction: a straight movement has one" in messages


def test_the_places_must_be_a_list(tmp_path: Path) -> None:
    source = RING.replace("fewest_steps(origin, places, walk)", "fewest_steps(origin, 3, walk)")
    messages = [d.message for d in errors(tmp_path, source) if d.code == "M014"]
    assert "fewest_steps' second argument is a list of places" in messages
