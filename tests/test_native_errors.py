"""A rule that breaks inside a question about a grid, a map or a movement, or inside a look-ahead,
stops the game with the same error on both engines, in the same words and at the same place
(docs/architecture.md, "The native engine"): the call's own errors at the call
(`Builtin.errors_at_call`: the core is told by it, `Expr::At` in src/ir.rs), a movement's `step`
line's at that line, and its arguments' and what it asks inside (a look-ahead's question) at the
statement, as any other error there. Where the core cannot name a value (it holds no names), both
engines name its kind ("not a number")."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write
from test_native import (
    SQUARES,
    built,  # noqa: F401 (the fixture that skips, or fails, without the core)
    the_same_error,
)
from test_native_variants import RING_WALK

import meeple

# Ring walk (a map of nodes, movements with a `step` line, pieces to suppose moved) with a value
# of any kind to break the calls with, and a movement whose step line lists that value.
RING = (
    RING_WALK[: RING_WALK.index("play:")]
    .replace("zone pot\n", "zone pot\nvar t: any = 0\n")
    .replace("movement jump(", "movement hop():\n  steps 1\n  step s to t\n\nmovement jump(")
)
RING_PLAY = "play:\n  for each p in players:\n"

# Squares (a grid that grows, shapes laid as layers) likewise, its first shape laid.
SQUARES_HEAD = SQUARES[: SQUARES.index("play:")].replace("zone pool\n", "zone pool\nvar t: any = 0\n")
SQUARES_PLAY = "play:\n  for each p in players:\n    place part(seed) on p.garden\n"

# Each case: the game, the statements that break (the last one, 4 columns in, breaks), the words,
# and whether the error is the call's own (at the call, column 9: `log "{` puts it there) or not.
CASES = {
    "something other than pieces supposed moved": (
        RING,
        'log "{as_if_moved([p], pot, 0)}"',
        "only pieces can move, not a player",
        True,
    ),
    "pieces supposed moved to a list": (
        RING,
        'log "{as_if_moved(pieces(p.purse), [pot], 0)}"',
        "as_if_moved moves pieces to one place, not a list",
        True,
    ),
    "a piece supposed moved twice": (
        RING,
        'log "{as_if_moved(pieces(p.purse) + pieces(p.purse), pot, 0)}"',
        "as_if_moved: a piece is not where it was found, or is named twice",
        True,
    ),
    "a look-ahead's argument that breaks": (
        RING,
        'log "{as_if_moved(pieces(p.purse)[7], pot, 0)}"',
        "index out of range: the list is shorter",
        False,
    ),
    "a look-ahead's question that breaks": (
        RING,
        'log "{as_if_moved(pieces(p.purse), pot, [1][5])}"',
        "index out of range: the list is shorter",
        False,
    ),
    "the fewest steps to a number": (
        RING,
        'set t to 5\n    log "{fewest_steps(a, t, walk)}"',
        "fewest_steps counts to a list of places, not a number",
        True,
    ),
    "the fewest steps to lists of places": (
        RING,
        'log "{fewest_steps(a, [[a]], walk)}"',
        "fewest_steps counts to places, not lists of them",
        True,
    ),
    "the fewest steps from a list": (
        RING,
        'set t to [a, b]\n    log "{fewest_steps(t, [a], walk)}"',
        "a route starts on one place, not on a list",
        True,
    ),
    "the areas beside a number": (
        RING,
        'set t to 3\n    log "{count(next_to(t))}"',
        "next_to is asked of an area, not a number",
        True,
    ),
    "a placement supposed laid that is a number": (
        SQUARES_HEAD,
        'set t to 3\n    log "{as_if_laid(t, 1)}"',
        "as_if_laid supposes a placement, not a number",
        True,
    ),
    "a placement supposed laid over the cells there": (
        SQUARES_HEAD,
        'log "{as_if_laid(placement(p.garden, part(pair), 0, 0, 0), 1)}"',
        "a layer is laid over cells of garden of Player 1 that are there, and some are not",
        True,
    ),
    "a supposed placement's question that breaks": (
        SQUARES_HEAD,
        'log "{as_if_laid(placement(p.garden, part(pair), 1, 0, 0), [1][3])}"',
        "index out of range: the list is shorter",
        False,
    ),
    "the area of a number": (
        SQUARES_HEAD,
        'set t to 3\n    log "{area(t, ground)}"',
        "area's first argument is a cell of a grid or a map node, not a number",
        True,
    ),
    "a placement at a list": (
        SQUARES_HEAD,
        'set t to [1]\n    log "{placement(p.garden, part(pair), t, 0, 0).turns}"',
        "placement's x, y and turns are numbers, not a list",
        True,
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_calls_own_error_is_located_at_the_call_and_the_same_on_both_engines(
    tmp_path: Path, case: str
) -> None:
    head, statements, words, own = CASES[case]
    play = RING_PLAY if head is RING else SQUARES_PLAY
    text = f"{head}{play}    {statements}\n"
    rules = write(tmp_path, "broken.rules", text)
    line = text.count("\n")
    said = the_same_error(meeple.load(str(rules)), 2)
    assert said == f"{rules}:{line}:{9 if own else 5}: {words} (in play)"


@pytest.mark.parametrize(
    ("listed", "words"),
    [
        ("5", "a 'step' line lists the places one step reaches, not a number"),
        ("[[a]]", "a 'step' line lists places, not lists of them"),
    ],
)
def test_a_step_line_that_lists_no_places_is_located_at_the_line_on_both_engines(
    tmp_path: Path, listed: str, words: str
) -> None:
    """Where a movement's `step` line breaks, the error names the line and the movement, not the
    statement that asked for the steps (as a movement's conditions are the movement's)."""
    text = f'{RING}{RING_PLAY}    set t to {listed}\n    log "{{fewest_steps(a, [b], hop)}}"\n'
    rules = write(tmp_path, "broken.rules", text)
    line = RING.splitlines().index("  step s to t") + 1
    said = the_same_error(meeple.load(str(rules)), 2)
    assert said == f"{rules}:{line}:13: {words} (in movement hop)"
