"""The limits of a running game hold on the native core as on the Python engine
(docs/language.md#limits): a game that goes beyond one stops with the same error, word for word,
at the same place, on both engines. `MAX_RECURSION` counts calls of rules, values and triggers
together, however each engine runs them; `MAX_DECISIONS` the decisions put to a player;
`MAX_LOG_CHARS` the characters of the readable log, which the core counts as it writes, line by
line as the Python side puts them in words.

These tests skip when the core is not built, as tests/test_native.py's do."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, native_or_skip, run, write

import meeple
from meeple import Game
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.native.state import CORE_LIMIT
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.limits import MAX_DECISIONS, MAX_LOG_CHARS, MAX_RECURSION
from meeple.simulation import Plan, play_one


@pytest.fixture(autouse=True)
def built() -> None:
    native_or_skip()


def play(state: Any, agent: str, seed: int) -> RuleRuntimeError | None:
    """Play the game to its end or its error, each seat by `agent`: the error, if any."""
    agents = make_agents([agent], len(state.teams), seed)
    try:
        while not state.is_over:
            decision = state.decision
            state.apply(agents[decision.player.seat].choose(state, decision))
    except RuleRuntimeError as err:
        return err
    return None


def both_stop(game: Game, logging: bool = True) -> tuple[Any, Any, str]:
    """Both engines' games of two players and seed 0, each played by its first options until
    it stops: the states (None where the game stopped before its first decision) and the error,
    which must be the same on both."""
    stopped: list[tuple[Any, str]] = []
    for start in (game.new_game, partial(native.new_game, game)):
        try:
            state = start(2, 0, logging=logging)
        except RuleRuntimeError as err:
            stopped.append((None, str(err)))
            continue
        err = play(state, "first", 0)
        assert err is not None, "the game was to stop on an error"
        stopped.append((state, str(err)))
    (python, python_err), (core, core_err) = stopped
    assert core_err == python_err
    return python, core, core_err


# ===================================================================== MAX_RECURSION

ENDLESS = {
    # a rule that calls itself: stops at the rule's declaration
    "a rule": ("var n: int = 0\nrule go(k: int):\n  set n to k\n  go(k + 1)\nplay:\n  go(0)\n", 4),
    # the same, each call waiting for a decision first
    "a rule that asks": (
        'var n: int = 0\nrule go(k: int):\n  choose x from [1, 2] by players[0] prompt "Pick":\n'
        "    set n to x\n  go(k + 1)\nplay:\n  go(0)\n",
        4,
    ),
    # 1,500 rules deep, then a value 600 deep: 2,100 calls, though neither alone is too deep;
    # stops at the value's declaration
    "rules, then values": (
        "var n: int = 0\nvalue down(k: int) = if k == 0 then 0 else down(k - 1)\n"
        "rule dive(k: int):\n  if k == 0:\n    set n to down(600)\n  else:\n    dive(k - 1)\n"
        "play:\n  dive(1500)\n",
        4,
    ),
    # two triggers setting each other off, each where its condition is met: a trigger whose
    # condition is not met is not entered (the 2,001st call is the first trigger's)
    "two triggers": (
        "zone a\nzone b\npiece ball: 1 in a\n"
        "when ball x enters z where z == b:\n  move 1 ball from b to a\n"
        "when ball y enters z where z == a:\n  move 1 ball from a to b\n"
        "play:\n  move 1 ball from a to b\n",
        6,
    ),
    # two triggers on every place a ball enters: the first runs (and sets both off again) before
    # the second begins, which is not under way until then
    "triggers waiting their turn": (
        "zone a\nzone b\npiece ball: 1 in a\n"
        "when ball x enters z:\n  move 1 ball from z to a\n"
        "when ball y enters z:\n  move 1 ball from z to b\n"
        "play:\n  move 1 ball from a to b\n",
        6,
    ),
}


@pytest.mark.parametrize("case", ENDLESS)
def test_calls_nested_beyond_max_recursion_stop_alike_at_the_declaration_entered(
    tmp_path: Path, case: str
) -> None:
    """docs/language.md#limits: "Entering one while 2,000 are under way stops the game with an
    error at the declaration entered" — rules, values and triggers counted together."""
    body, line = ENDLESS[case]
    path = write(tmp_path, "endless.rules", 'game "Endless":\n  players 2..2\n' + body)
    game = meeple.load(str(path))
    assert native.engine_for(game, "native") == ("native", "")
    _, _, error = both_stop(game)
    assert f"endless.rules:{line}:1:" in error
    assert f"more than {MAX_RECURSION:,} calls deep" in error


def test_calls_just_within_max_recursion_run_on_both_engines(tmp_path: Path) -> None:
    """1,400 rules deep, then a value 590 deep: 1,990 calls, within the limit on both engines
    (each of the two counts rules and values together, not one or the other)."""
    body = ENDLESS["rules, then values"][0].replace("down(600)", "down(590)").replace("1500", "1400")
    game = meeple.load(str(write(tmp_path, "deep.rules", 'game "Deep":\n  players 2..2\n' + body)))
    assert game.new_game(2, 0).is_over
    assert native.new_game(game, 2, 0).is_over


# ===================================================================== MAX_DECISIONS

ASKING = (
    'game "Asking":\n  players 2..2\nvar n: int = 0\nplay:\n  while yes:\n'
    '    choose x from [1, 2] by players[0] prompt "Pick":\n      set n to x\n'
)


def test_a_game_asking_without_end_stops_at_max_decisions_alike(tmp_path: Path) -> None:
    """docs/language.md#limits: "When the game asks one more after 100,000 answers, it stops
    with an error at the statement that asks"."""
    game = meeple.load(str(write(tmp_path, "asking.rules", ASKING)))
    python, core, error = both_stop(game, logging=False)
    assert "asking.rules:6:5:" in error and f"more than {MAX_DECISIONS:,} decisions" in error
    assert len(core.choices) == len(python.choices) == MAX_DECISIONS


ERRAND = (
    'game "Errand":\n  players 2..2\nvar n: int = 0\nrule errand(k: int):\n  add k to n\n'
    'play:\n  offer errand(1) to players[0] as "run an errand":\n    may "Stop?" by players[0]:\n'
    "      set n to 0\n"
)


def taking_the_last_option(state: Any, most: int | None = None) -> RuleRuntimeError | None:
    """Answer each decision with its last option (an offered action, where there is one), at
    most `most` times: the error the game stopped on, if any."""
    try:
        while not state.is_over and (most is None or len(state.choices) < most):
            state.apply(state.decision.size - 1)
    except RuleRuntimeError as err:
        return err
    return None


def test_an_offered_action_taken_without_end_stops_at_max_decisions_alike(tmp_path: Path) -> None:
    """Taking an action an `offer` adds asks the decision again: each asking counts towards
    MAX_DECISIONS, and the game stops at the statement that asks; the line saying the action was
    taken counts towards the log's characters as its label reads."""
    game = meeple.load(str(write(tmp_path, "errand.rules", ERRAND)))
    assert native.engine_for(game, "native") == ("native", "")
    python, core = game.new_game(2, 0, logging=False), native.new_game(game, 2, 0, logging=False)
    errors = [str(taking_the_last_option(state)) for state in (python, core)]
    assert errors[0] == errors[1] and "errand.rules:8:5:" in errors[0]
    assert f"more than {MAX_DECISIONS:,} decisions" in errors[0]
    assert len(core.choices) == len(python.choices) == MAX_DECISIONS
    logged = native.new_game(game, 2, 0)
    assert taking_the_last_option(logged, 3) is None
    assert logged.log == ["  Player 1 stop?: run an errand"] * 3
    assert logged.core.log_chars == sum(len(line) for line in logged.log)


# ===================================================================== MAX_LOG_CHARS

CHATTY = 'game "Chatty":\n  players 2..2\nplay:\n  repeat 4000000 times:\n    log "' + "x" * 2000 + '"\n'


def test_a_log_growing_without_end_stops_at_max_log_chars_alike(tmp_path: Path) -> None:
    """docs/language.md#limits: "The line that would take the total beyond it stops the game
    with an error at the statement that writes it" (a 2 KB line four million times)."""
    game = meeple.load(str(write(tmp_path, "chatty.rules", CHATTY)))
    python, core, error = both_stop(game)
    assert "chatty.rules:5:5:" in error and f"beyond {MAX_LOG_CHARS:,} characters" in error
    assert python is None and core is None  # both stopped before their first decision
    stopped = native.new_game(game, 2, 0, checked=False)  # kept, to read its log
    assert stopped.failed is not None and stopped.log == ["x" * 2000] * (MAX_LOG_CHARS // 2000)


def full(over: int) -> str:
    """A game that logs lines of 4,000 characters until the log is within a decision's line of
    MAX_LOG_CHARS, then asks: the line saying its answer ("  Player 1 ppp...p: 1") takes the log
    `over` characters beyond the limit."""
    lines = MAX_LOG_CHARS // 4000
    left = MAX_LOG_CHARS - lines * 4000  # what the answer's line may take
    prompt = "p" * (left + over - len("  Player 1 : 1"))
    return (
        'game "Full":\n  players 2..2\nvar n: int = 0\nplay:\n'
        f'  repeat {lines} times:\n    log "' + "x" * 4000 + '"\n'
        f'  choose x from [1, 2] by players[0] prompt "{prompt}":\n    set n to x\n'
    )


def test_the_answer_that_takes_the_log_beyond_max_log_chars_stops_the_game_alike(tmp_path: Path) -> None:
    """The line saying a decision's answer counts too, and stops the game at the statement that
    asked; the line that takes the log to its limit exactly does not."""
    game = meeple.load(str(write(tmp_path, "full.rules", full(over=1))))
    python, core, error = both_stop(game)
    assert "full.rules:7:3:" in error and "MAX_LOG_CHARS" in error
    assert core.failed is not None and python.failed is not None
    assert core.log == python.log and len(core.log) == MAX_LOG_CHARS // 4000
    exact = meeple.load(str(write(tmp_path, "exact.rules", full(over=0))))
    for state in (exact.new_game(2, 0), native.new_game(exact, 2, 0)):
        assert play(state, "first", 0) is None and state.is_over
        assert sum(len(line) for line in state.log) == MAX_LOG_CHARS


LABELS = """game "Labels":
  players 2..3
table colour (name, points: int):
  red, 1
  blue, 2
map board:
  grid square 2 by 2
zone supply
zone hand per player
piece mark: 2 per player in supply
piece card: each colour in supply
var last: player? = none
play:
  for each p in players:
    turn p:
      choose c from [each x in cells(board) where count(pieces(x)) == 0] prompt "Square to mark":
        move 1 mark of p from supply to c
        log "{p} marks {c}: {pieces(c)} after {last}, {c == c} {count(pieces(c)) == 0} {[1, -20]} {p.hand}"
      choose q from [p] prompt "Seat to show":
        log "{q}"
      choose k from colour prompt "Colour":
        log "{k} is worth {k.points}"
      may choose m from pieces(supply) prompt "Piece to take":
        move m to p.hand
        log "{p} takes {m}"
      random "Coin":
        outcome heads chance 50:
          log "heads"
        outcome tails otherwise:
          pick t at random from pieces(supply):
            move t to p.hand
      set last to p
"""


@pytest.mark.parametrize("players", [2, 3])
def test_the_core_counts_each_log_line_as_the_python_engine_writes_it(tmp_path: Path, players: int) -> None:
    """The core counts the log's characters from the labels' lengths: the count is the length of
    the lines in words, whatever they name (players, cells, rows, zones of a player, pieces with
    and without an owner, lists, numbers, yes and no, none, random outcomes, only options)."""
    game = meeple.load(str(write(tmp_path, "labels.rules", LABELS)))
    for seed in range(20):
        python, core = game.new_game(players, seed), native.new_game(game, players, seed)
        assert play(python, "random", seed) is None and play(core, "random", seed) is None
        assert core.log == python.log
        assert core.core.log_chars == sum(len(line) for line in core.log), f"seed {seed}"


@pytest.mark.parametrize("rules", ["tests/grids/hunt.rules", "games/gods_love_dinosaurs.rules"])
def test_the_core_counts_placements_routes_and_laid_cells_as_the_log_writes_them(rules: str) -> None:
    """On grids that grow the log names what a game made as it went: a laid cell (`(1,-2)`), a
    placement chosen (`(0,1) turned 60°`), a route (`from (0,0) to (2,0) via (1,0)`). None has a
    label in the program: the core counts them from what they hold."""
    game = meeple.load(str(ROOT / rules))
    for seed in range(4):
        core = native.new_game(game, game.max_players - seed % 2, seed)
        assert play(core, "random", seed) is None
        assert any("turned" in line for line in core.log) and any(" to (" in line for line in core.log)
        assert core.core.log_chars == sum(len(line) for line in core.log), f"seed {seed}"


# ===================================================================== the core's own limit

DEEP = (
    'game "Deep":\n  players 2..2\nvar n: int = 0\n'
    "value down(k: int) = if k == 0 then 0 else down(k - 1)\n"
    "score p = n\nplay:\n  set n to down(1500)\n"
)


def test_a_game_beyond_the_cores_own_stack_plays_on_python_unless_native_is_asked_for(tmp_path: Path) -> None:
    """Values 1,500 deep are within MAX_RECURSION but beyond the core's MAX_VALUE_DEPTH: chosen
    for the user (auto), the engine must not change what the game does, so Python plays it again
    and says why (as it does a game whose step budget ran out on the core, which counts its steps
    apart); asked for, the native engine stops with its error."""
    path = str(write(tmp_path, "deep.rules", DEEP))
    chosen = json.loads(run("play", path, "--json").stdout)
    assert (chosen["engine"], chosen["python_because"]) == ("python", CORE_LIMIT)
    assert chosen["scores"] == [0, 0]
    asked = run("play", path, "--engine", "native")
    assert asked.exit_code == 1 and "the most the native engine allows" in asked.output
    game = meeple.load(path)
    auto, python = (play_one(game, Plan("deep", 2, ("random",), (), engine=e), 0) for e in ("auto", "python"))
    assert auto == python and auto["status"] == "finished"


def test_the_core_counts_areas_and_placements_on_blocks_as_the_log_writes_them() -> None:
    """tests/grids/quads.rules names areas (`town at (0,0)`: its value and its first cell) and
    placements on a grid of blocks (`(1,0) turned 90°`: the block, not the cell) in its log."""
    game = meeple.load(str(ROOT / "tests" / "grids" / "quads.rules"))
    for seed in range(4):
        core = native.new_game(game, 3, seed)
        assert play(core, "random", seed) is None
        assert any("turned" in line for line in core.log) and any(" at (" in line for line in core.log)
        assert core.core.log_chars == sum(len(line) for line in core.log), f"seed {seed}"
