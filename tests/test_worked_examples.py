"""The rulebooks' worked examples, reproduced as printed (issue 25, section 3): every `example` of
the base games holds, and the three that were once changed until they passed show the printed
position and result again: Gods Love Dinosaurs' hatched dinosaur walks the 5 hexes the book prints,
Jimmy's eagle that eats starts on the plains hex (a field: the conflict "Fields or plains"), and
Dino Garden's placement example has only the tokens the book lists, no Large meat token.

Dino Dynasty's examples are run by test_dino_dynasty.py, its variants' by their own test files.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

import meeple
from meeple.interpreter.examples import ExampleResult, run_examples

COORDINATES = re.compile(r"\((-?\d+),(-?\d+)\)")


@cache
def results(stem: str) -> dict[str, ExampleResult]:
    return {result.name: result for result in run_examples(meeple.load(stem))}


def example(stem: str, start: str) -> ExampleResult:
    """The one example of a game whose name starts so, which must hold."""
    (found,) = [result for name, result in results(stem).items() if name.startswith(start)]
    assert found.passed, found.failures
    return found


@pytest.mark.parametrize("stem", ["dino_party", "gods_love_dinosaurs", "dino_garden"])
def test_every_worked_example_of_a_base_game_holds(stem: str) -> None:
    failed = {name: result.failures for name, result in results(stem).items() if not result.passed}
    assert failed == {}


def test_the_hatched_dinosaur_walks_the_five_hexes_the_rulebook_prints_and_eats_three_predators() -> None:
    """The rulebook: "She moves the new dinosaur she hatched 5 hexes, eating 3 predators and
    ending on a different mountain hex. This will score her 3 eggs."."""
    hatched = example("gods_love_dinosaurs", "Clare hatches")
    (hunt,) = [line for line in hatched.log if line.startswith("Player 1's dinosaur hunts from (0,0) to ")]
    route, eggs = hunt.split(" and lays ")
    assert len(COORDINATES.findall(route)) - 1 == 5  # the hexes entered: the start is not one
    assert eggs.startswith("3 egg")


def test_jimmys_eagle_that_eats_starts_on_the_plains_hex() -> None:
    """The rulebook: "Jimmy first moves the eagle on the plains hex, eating 2 rabbits and leaving 1
    new offspring." Its plains are the fields rabbits expand into."""
    eagles = example("gods_love_dinosaurs", "Jimmy's eagles")
    (hunt,) = [line for line in eagles.log if "'s eagle hunts from " in line]
    start = tuple(int(n) for n in COORDINATES.findall(hunt)[0])
    (cell,) = [cell for cell in eagles.before[0].cells if cell[:2] == start]
    _, _, hex_, pieces = cell
    assert hex_ is not None and hex_.values["terrain"].name == "field"
    assert [str(piece[0]) for piece in pieces] == ["eagle"]


def test_the_placement_example_has_the_tokens_the_rulebook_lists_and_no_large_meat() -> None:
    """The rulebook: "In one area, there is 1 Pachycephalosaurus token, 1 Triceratops token, 1
    Elasmosaurus token, 1 Small meat token, 1 Medium meat token, and a lake"."""
    placed = example("dino_garden", "Placement:")
    (area,) = placed.before
    tokens = sorted(str(piece[0]) for piece in area.pieces)
    assert tokens == ["elasmosaurus", "medium", "pachycephalosaurus", "small", "triceratops"]
