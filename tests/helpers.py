"""What several tests share: the publishers' files the tests may read, playing a game with random
answers, checking as it goes, taking a snapshot of a position, comparing a replay with its
original, and the rules text that several test files build their small games on (`chip_game`,
`SWAPPED`, `ring_map`; whole games shared are files in tests/games/ and tests/grids/)."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

import meeple
from meeple import Diagnostic, Game, IllegalChoice, State
from meeple.cli import app
from meeple.grammar import ast
from meeple.interpreter.checks import Report
from meeple.loader import bundled_games, read_header

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "rulebooks"  # our own small rulebooks, for the checker
# The publishers' rulebooks and component data are not part of meeple: a clone has none. Beside our
# own checkout they are in ../shared; elsewhere $MEEPLE_RULEBOOKS and $MEEPLE_COMPONENTS say where.
PLACES = {
    "rulebooks": ("MEEPLE_RULEBOOKS", ROOT.parent / "shared" / "rulebooks"),
    "components": ("MEEPLE_COMPONENTS", ROOT.parent / "shared" / "components"),
}
# Set by CI, where the files are present: a test that needs one fails instead of skipping.
REQUIRE = "MEEPLE_REQUIRE_SHARED"


def shared_file(kind: str, name: str) -> Path:
    """A publisher's rulebook or component file, or a skip that says how to provide it (a failure
    when $MEEPLE_REQUIRE_SHARED is set, so that CI checks every citation of every game)."""
    variable, beside = PLACES[kind]
    folders = [Path(p) for p in os.environ.get(variable, "").split(os.pathsep) if p] + [beside]
    for folder in folders:
        if (folder / name).is_file():
            return folder / name
    why = f"needs the {kind[:-1]} {name}: put its folder in ${variable}"
    if os.environ.get(REQUIRE):
        pytest.fail(f"{why} (${REQUIRE} is set: the {kind} must be present)")
    pytest.skip(why)


@cache
def bundled_variants() -> list[str]:
    """The bundled games that are variants (their header names a base game), by file name without
    `.rules`. Test files parametrise over them, and each test process works the list out as it
    collects every file, the files it will not run too: from the headers alone (`read_header`
    parses, and analyses nothing; the parsed parts are kept for the games loaded later), not by
    checking all eleven games."""
    return [path.stem for path in bundled_games() if isinstance(read_header(path), ast.VariantHeader)]


def found(report: Report, code: str) -> list[Diagnostic]:
    """The diagnostics of one code that `meeple check` reported."""
    return [d for d in report.diagnostics if d.code == code]


def only(report: Report, code: str) -> Diagnostic:
    """The one diagnostic of a code (the test fails, showing them all, if there is not one)."""
    hits = found(report, code)
    assert len(hits) == 1, [d.render(None) for d in report.diagnostics]
    return hits[0]


def located_errors(path: Path) -> list[tuple[str, int, str, str]]:
    """The errors `meeple check` finds in a rules file and the files it reads: where each is (the
    file's name and the line), its code and its message."""
    return [
        (Path(d.file).name, d.line, d.code, d.message)
        for d in meeple.check(path).diagnostics
        if d.severity == "error"
    ]


def ask(state: State, value: str, *args: Any) -> Any:
    """A value's answer computed afresh (outside the memo), in the game as it stands."""
    params, fn = state.game.program.values[value]
    return fn(state.rt, dict(zip(params, args, strict=True)))


def write(folder: Path, name: str, text: str) -> Path:
    """A rules (or any text) file of the test's own, in `folder`."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def chip_game(chips: int, tables: str = "") -> str:
    """The rules text of a small base game that variant tests patch: for `rounds` (2) rounds, a
    step `income` in which each player gains (`rule gain`) one of its `chips` chips from the bag
    into its pot; its score, the chips in its pot. `tables`: rules text after the constant."""
    return f"""\
game "Base":
  players 2..3
constant rounds = 2
{tables}zone bag
zone pot per player
piece chip: {chips} per player in bag
rule gain(p: player):
  move 1 chip of p from bag to p.pot
play:
  repeat rounds times:
    phase round:
      step income:
        for each p in players:
          turn p:
            gain(p)
score p = count(pieces(p.pot))
"""


# What `swap` tests exchange: variables of the game (one kept within a range, two players), a
# player's, and one row's of a variable per player and row.
SWAPPED = """\
table track (name, worth: int):
  near, 1
  far, 4

var first: int = 1
var second: int = 5
var low: int = 0 within 0..3
var leader: player = players[0]
var trailer: player = players[1]
var seat: int = 0 per player
var mark: track = near per player
var worth: int = 0 per player, track
"""


# a - b - c
# |       |
# e ----- d        (and the spots `ring_map` is given beside, joined to nothing)
def ring_map(*alone: str) -> str:
    """The rules text of a small graph that several tests move over: five spots joined in a ring
    of two ways round from a to d (`table spot`, `table link`, `map ring`), and the spots `alone`
    joined to nothing. A test's game text is its header, this, and its own pieces and rules."""
    spots = "".join(f"  {name}\n" for name in alone)
    return f"""\
table spot (name):
  a
  b
  c
  d
  e
{spots}
table link (x: spot, y: spot):
  a, b
  b, c
  c, d
  a, e
  e, d

map ring:
  nodes spot
  edges link (x, y)
"""


def line_of(source: str, text: str) -> int:
    return source[: source.index(text)].count("\n") + 1


def run(*args: str) -> Result:
    """The command line, as `meeple ARGS...` (exceptions are not caught: a traceback fails)."""
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


Check = Callable[[State], None]
Answer = Callable[[State, random.Random], int]  # a player: the index of its answer


def play_random(
    game: Game,
    players: int,
    seed: int,
    rnd: random.Random,
    *,
    budget: int,
    max_decisions: int,
    check: Check | None = None,
    answer: Answer | None = None,
) -> State:
    """A game answered at random (or by `answer`, drawing from `rnd`); `check` runs at the start
    and after every decision. A failure carries the replay that reproduces it; a game that does
    not end within `max_decisions` fails the test."""
    state = game.new_game(players, seed=seed, budget=budget)
    try:
        if check is not None:
            check(state)
        for _ in range(max_decisions):
            if state.is_over:
                return state
            assert state.decision is not None
            state.apply(answer(state, rnd) if answer else rnd.randrange(len(state.decision.options)))
            if check is not None:
                check(state)
    except Exception as err:
        err.add_note(f"reproduce: meeple.replay(game, {players}, {seed}, {state.choices}, complete=False)")
        raise
    pytest.fail(f"no end after {max_decisions} decisions ({game.name}, {players} players, seed {seed})")


def counts_named(text: str) -> set[int]:
    """The player counts a text names: "3 players", "3 or 4 players", "a 3-player game"."""
    named = set()
    for first, second in re.findall(r"\b(\d+)(?: or (\d+))? players\b", text):
        named |= {int(first), *([int(second)] if second else [])}
    named |= {int(n) for n in re.findall(r"\b(\d+)-player game\b", text)}
    return named


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything a refused answer must leave as it was."""
    decision = state.decision
    rt = state.rt
    return (
        list(state.choices),
        list(state.log),
        None if decision is None else (decision.player, decision.prompt, list(decision.options)),
        state.is_over,
        state.turns,
        {loc: list(pieces) for loc, pieces in rt.locs.items()},
        dict(rt.vars),
        {key: dict(store) for key, store in rt.owned.items()},
        {grid: dict(cells) for grid, cells in rt.grids.items()},
        dict(rt.faces),
        {cell: list(layers) for cell, layers in rt.layers.items()},
        rt.rng.getstate(),
    )


def count_owned(state: State, owner: Any, kind: str) -> int:
    """How many pieces of `kind` that `owner` owns the game holds, wherever they are."""
    return sum(1 for pile in state.rt.locs.values() for k, o in pile if o is owner and k.name == kind)


def assert_same_game(again: State, original: State) -> None:
    """A replay is the same game: it ends, with the same scores, winners, log, turns and choices."""
    assert again.is_over
    assert again.scores == original.scores
    assert again.winners == original.winners
    assert again.log == original.log
    assert again.turns == original.turns
    assert again.choices == original.choices


def play_refusing_bad_answers(
    state: State, rnd: random.Random, data: st.DataObject, *, rate: float, max_decisions: int
) -> None:
    """Play `state` to its end with random answers and, at about `rate` of its decisions (and once
    it is over), first give an index outside the options: it must raise IllegalChoice and leave
    the position exactly as it was."""

    def refused(bad: int) -> None:
        before = snapshot(state)
        with pytest.raises(IllegalChoice):
            state.apply(bad)
        assert snapshot(state) == before

    for _ in range(max_decisions):
        if state.is_over:
            break
        assert state.decision is not None
        size = state.decision.size
        if rnd.random() < rate:
            refused(data.draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=size)), label="bad"))
        state.apply(rnd.randrange(size))
    assert state.is_over
    refused(0)


def assert_each_answer_goes_on(
    game: Game, players: int, seed: int, prefix: list[int], indices: Iterable[int], *, budget: int
) -> None:
    """Each of `indices`, answered at the decision that replaying `prefix` reaches (a fresh replay
    for each), is taken, and the game then ends or asks again."""
    for index in indices:
        again = meeple.replay(game, players, seed, prefix, budget=budget, complete=False)
        again.apply(index)
        assert again.choices == [*prefix, index]
        assert again.is_over or again.decision is not None


def new_game_as_played(game: Game, players: int, seed: int, **given: Any) -> Any:
    """A game started on the engine `meeple play` picks for it (`--engine auto`): the native core
    where it runs the game, else the Python engine. For a test of what the rules make of a game
    (its outcome), not of an engine: the two play the same games move by move (tests/test_native.py
    and tests/test_native_variants.py check it), and a whole game on the core takes a fraction of
    the CPU (a Campaign in teams: 0.6 s against 10.5 s on Python)."""
    from meeple.interpreter import native

    if native.engine_for(game, "auto")[0] == "native":
        return native.new_game(game, players, seed, **given)
    return game.new_game(players, seed=seed, **given)


def native_or_skip() -> None:
    """A test of the native engine: skipped where the extension is not built, failed instead where
    CI requires it ($MEEPLE_REQUIRE_NATIVE: .ci/run builds it)."""
    from meeple.interpreter import native

    if native.available():
        return
    if os.environ.get("MEEPLE_REQUIRE_NATIVE"):
        pytest.fail(f"{native.NOT_BUILT} ($MEEPLE_REQUIRE_NATIVE is set: the native engine must be built)")
    pytest.skip(native.NOT_BUILT)
