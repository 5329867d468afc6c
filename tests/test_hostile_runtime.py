"""Hostile input, round two, while a game runs: a score that breaks, calls nested without end, a
log or a game that grows without end. Each ends with a located error (file, line, column, and
the rule, value, trigger or limit), never a traceback, a crash of the interpreter or a machine out
of memory, and in `simulate` and `compare` a broken game is one failed record among the others.

The limits are in `meeple/limits.py` and in the language reference ("Limits"), which says
exactly what each counts; the tests below check the words against the counts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run, write

import meeple
from meeple.interpreter.agents import make_agents
from meeple.interpreter.agents import play as play_to_end
from meeple.limits import MAX_DECISIONS, MAX_LOG_CHARS, MAX_MESSAGE, MAX_RECURSION
from meeple.simulation import FAILED, FINISHED, Plan, play_one

PICK = """
var n: int = 0

play:
  for each p in players:
    turn p:
      choose x from [1, 2, 3] by p prompt "Pick":
        set n to x
"""

# A score or a tiebreak that only the end of a game can break: analysis sees nothing wrong.
BROKEN_SCORES = {
    "an index out of range in the score": 'game "Broken Score":\n  players 2..2\n\nscore p = [1, 2][n + 5]\n',
    "a tiebreak whose value never stops calling itself": (
        'game "Broken Tiebreak":\n  players 2..2\n\n'
        "value f(k: int) = if k < 0 then 0 else f(k + 1)\n\n"
        "score p = n\ntiebreak p = f(1)\n"
    ),
}
# The line each error must name: the score's, or the value the tiebreak calls, which never stops.
SCORE_LINE = {"an index out of range in the score": 4, "a tiebreak whose value never stops calling itself": 4}
# What the error names: the score, or the value.
CULPRIT = {
    "an index out of range in the score": "the score",
    "a tiebreak whose value never stops calling itself": "f",
}


def broken(tmp_path: Path, case: str) -> Path:
    return write(tmp_path, "broken.rules", BROKEN_SCORES[case] + PICK)


def no_traceback(result: object) -> str:
    out = result.stdout + result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in out
    return out


# ===================================================================== a score that breaks


@pytest.mark.parametrize("case", BROKEN_SCORES)
def test_a_score_that_breaks_is_a_located_error_in_play(tmp_path: Path, case: str) -> None:
    path = broken(tmp_path, case)
    played = run("play", str(path))
    out = no_traceback(played)
    assert played.exit_code == 1
    assert f"broken.rules:{SCORE_LINE[case]}:1:" in out
    assert "reproduce with: meeple play" in out


@pytest.mark.parametrize("case", BROKEN_SCORES)
def test_a_score_that_breaks_is_a_located_error_in_replay(tmp_path: Path, case: str) -> None:
    path = broken(tmp_path, case)
    log = {
        "meeple": 1,
        "game": meeple.load(path).name,
        "rules": "broken.rules",
        "players": 2,
        "seed": 0,
        "scores": [0, 0],
        "winners": [0, 1],
        "turns": 2,
        "choices": [0, 0],
    }
    logged = write(tmp_path, "game.json", json.dumps(log))
    replayed = run("replay", str(logged))
    out = no_traceback(replayed)
    assert replayed.exit_code == 1
    assert "a rule broke" in out and f"broken.rules:{SCORE_LINE[case]}:1:" in out


@pytest.mark.parametrize("case", BROKEN_SCORES)
def test_a_score_that_breaks_is_a_failed_game_in_simulate_and_compare(tmp_path: Path, case: str) -> None:
    path = broken(tmp_path, case)
    simulated = run("simulate", str(path), "--games", "3", "--jobs", "1")
    out = no_traceback(simulated)
    assert simulated.exit_code == 1
    assert out.count("broke:") == 3 and f"broken.rules:{SCORE_LINE[case]}:1:" in out
    fixed = write(tmp_path, "fixed.rules", 'game "Fixed":\n  players 2..2\n\nscore p = n\n' + PICK)
    compared = run("compare", str(fixed), str(path), "--games", "3", "--jobs", "1")
    no_traceback(compared)
    assert compared.exit_code == 1


def test_in_a_simulation_only_the_games_whose_score_breaks_fail_and_the_others_count(tmp_path: Path) -> None:
    # The score breaks only when the last seat picked 3: some seeds break, the others finish.
    path = write(
        tmp_path,
        "sometimes.rules",
        'game "Sometimes":\n  players 2..2\n\nscore p = [0, 1, 2][n - 1 + n // 3]\n' + PICK,
    )
    game = meeple.load(path)
    plan = Plan(str(path), 2)
    records = [play_one(game, plan, seed) for seed in range(30)]
    statuses = {r["status"] for r in records}
    assert statuses == {FAILED, FINISHED}
    for r in records:
        if r["status"] == FAILED:
            assert "sometimes.rules:4:1:" in r["error"] and r["scores"] == []
        else:
            assert len(r["scores"]) == 2
    simulated = run("simulate", str(path), "--games", "30", "--jobs", "1", "--json")
    assert simulated.exit_code == 1
    figures = json.loads(simulated.stdout)
    assert figures["games"] == 30 and figures["finished"] == sum(
        1 for r in records if r["status"] == FINISHED
    )
    assert sum(figures["wins"]) + figures["draws"] == figures["finished"]  # the finished games count


@pytest.mark.parametrize("case", BROKEN_SCORES)
def test_check_play_scores_every_game_it_plays_and_reports_a_broken_score(tmp_path: Path, case: str) -> None:
    path = broken(tmp_path, case)
    checked = run("check", str(path), "--play", "3")
    out = no_traceback(checked)
    assert checked.exit_code == 1
    assert f"broken.rules:{SCORE_LINE[case]}:1: error: a rule broke in {CULPRIT[case]}" in out
    assert "0 ended, 3 broke" in out


def test_a_game_whose_score_breaks_stops_with_the_error_and_has_no_scores(tmp_path: Path) -> None:
    game = meeple.load(broken(tmp_path, "an index out of range in the score"))
    state = game.new_game(2, 0)
    state.apply(0)
    with pytest.raises(meeple.RuleRuntimeError, match="index out of range"):
        state.apply(0)
    assert state.failed is not None and not state.is_over
    assert state.result()["scores"] == [] and state.result()["winners"] == []
    with pytest.raises(meeple.IllegalChoice, match="stopped on an error"):
        state.apply(0)


def test_the_scores_are_computed_once_when_the_game_ends(tmp_path: Path) -> None:
    """The scores a finished game gives are those it ended with, whoever asks and however often."""
    path = write(
        tmp_path, "fine.rules", 'game "Fine":\n  players 2..2\n\nscore p = n * (p.seat + 1)\n' + PICK
    )
    state = meeple.load(path).new_game(2, 0)
    state.apply(1)
    state.apply(2)
    assert state.is_over and state.final == ([3, 6], [0, 0])
    state.rt.vars["n"] = 100  # nothing changes a finished game, but if it did, its result would stand
    assert state.scores == [3, 6] and state.winners == [1]


# ===================================================================== calls nested without end

ENDLESS = {
    "a value": ("value f(k: int) = if k < 0 then 0 else f(k + 1)\n\nplay:\n  let v = f(1)\n", 4),
    "a rule": ("var n: int = 0\n\nrule go(k: int):\n  set n to k\n  go(k + 1)\n\nplay:\n  go(0)\n", 6),
    "a rule that asks": (
        'var n: int = 0\n\nrule go(k: int):\n  choose x from [1, 2] by players[0] prompt "Pick":\n'
        "    set n to x\n  go(k + 1)\n\nplay:\n  go(0)\n",
        6,
    ),
    "two triggers firing each other": (
        "zone a\nzone b\npiece ball: 1 in a\n\n"
        "when ball x enters b:\n  move 1 ball from b to a\n\n"
        "when ball y enters a:\n  move 1 ball from a to b\n\n"
        "play:\n  move 1 ball from a to b\n",
        8,
    ),
}


@pytest.mark.parametrize("case", ENDLESS)
def test_calls_without_end_stop_at_the_documented_depth_with_the_place_of_the_declaration(
    tmp_path: Path, case: str
) -> None:
    body, line = ENDLESS[case]
    path = write(tmp_path, "endless.rules", 'game "Endless":\n  players 2..2\n\n' + body)
    played = run("play", str(path))
    out = no_traceback(played)
    assert played.exit_code == 1
    assert f"endless.rules:{line}:1:" in out
    assert f"more than {MAX_RECURSION:,} calls deep" in out and "calls itself" in out


def _nested(kind: str, depth: int) -> str:
    """A game whose calls nest exactly `depth` deep, of one kind."""
    if kind == "value":  # f(1) .. f(depth), each inside the last
        return (
            f'value f(k: int) = if k >= {depth} then k else f(k + 1)\n\nscore p = f(1)\n\nplay:\n  log "."\n'
        )
    if kind in ("rule", "rule that asks"):  # go(1) .. go(depth)
        asks = (
            '  choose x from [1, 2] by players[0] prompt "Pick":\n    set n to x\n' if "asks" in kind else ""
        )
        return (
            f"var n: int = 0\n\nrule go(k: int):\n{asks}  set n to k\n  if k < {depth}:\n    go(k + 1)\n\n"
            "play:\n  go(1)\n"
        )
    # triggers firing each other: the k-th firing moves the ball on while k < depth
    body = "var n: int = 0\nzone a\nzone b\npiece ball: 1 in a\n\n"
    for name, there, back in (("x", "b", "a"), ("y", "a", "b")):
        body += f"when ball {name} enters {there}:\n  if n < {depth - 1}:\n    add 1 to n\n"
        body += f"    move 1 ball from {there} to {back}\n\n"
    return body + "play:\n  move 1 ball from a to b\n"


@pytest.mark.parametrize("kind", ["value", "rule", "rule that asks", "triggers"])
def test_the_recursion_limit_counts_calls_as_the_reference_says(tmp_path: Path, kind: str) -> None:
    """`MAX_RECURSION` nested calls are allowed, one more is the error: the words and the limit
    agree (calls, not Python frames), for each kind of call."""

    def played(depth: int) -> meeple.State:
        path = write(
            tmp_path, f"deep{depth}.rules", 'game "Deep":\n  players 2..2\n\n' + _nested(kind, depth)
        )
        state = meeple.load(path).new_game(2, 0)
        play_to_end(state, make_agents(["first"], 2, 0))
        return state

    assert played(MAX_RECURSION).is_over
    with pytest.raises(meeple.RuleRuntimeError, match=f"more than {MAX_RECURSION:,} calls deep"):
        played(MAX_RECURSION + 1)


def _deepest(tmp_path: Path, kind: str) -> Path:
    """Calls each nested as deep as the parser allows: in blocks (each a generator the rule that
    asks resumes), in an expression, or in the blocks of triggers that fire each other. Python's
    stack runs out before MAX_RECURSION calls: the error still names the declaration."""
    lines = ["  " * (i + 1) + ("if yes:" if i % 2 else f"for each j{i} in [1]:") for i in range(90)]
    if kind == "triggers":
        body = "zone a\nzone b\npiece ball: 1 in a\n\n"
        for name, there, back in (("x", "b", "a"), ("y", "a", "b")):
            body += f"when ball {name} enters {there}:\n" + "\n".join(lines) + "\n"
            body += "  " * 91 + f"move 1 ball from {there} to {back}\n\n"
        body += "play:\n  move 1 ball from a to b\n"
    elif kind == "blocks":
        body = (
            'var n: int = 0\n\nrule go(k: int):\n  choose x from [1, 2] by players[0] prompt "Pick":\n'
            "    set n to x\n" + "\n".join(lines) + "\n" + "  " * 91 + "go(k + 1)\n\nplay:\n  go(0)\n"
        )
    else:
        expr = "f(k + 1)"
        for _ in range(150):
            expr = f"(1 + {expr})"
        body = f"value f(k: int) = if k < 0 then 0 else {expr}\n\nplay:\n  let v = f(0)\n"
    return write(tmp_path, f"deepest_{kind}.rules", 'game "Deepest":\n  players 2..2\n\n' + body)


@pytest.mark.parametrize("kind", ["blocks", "expression", "triggers"])
def test_the_deepest_calls_a_file_can_write_end_in_an_error_not_a_crash_of_the_interpreter(
    tmp_path: Path, kind: str
) -> None:
    """In a process of its own: a C stack overflow would kill it (a signal), not fail a test."""
    path = _deepest(tmp_path, kind)
    done = subprocess.run(
        [sys.executable, "-m", "meeple.cli", "play", str(path)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    line = {"blocks": 6, "expression": 4, "triggers": 8}[kind]  # the rule's, the value's, a trigger's
    assert f"deepest_{kind}.rules:{line}:1:" in done.stderr and "calls itself" in done.stderr


# ===================================================================== memory and output


def test_a_log_that_grows_without_end_stops_at_its_limit_with_the_place(tmp_path: Path) -> None:
    """A 2 KB line logged four million times would need 8 GB within the step budget."""
    path = write(
        tmp_path,
        "chatty.rules",
        'game "Chatty":\n  players 2..2\n\nplay:\n  repeat 4000000 times:\n    log "' + "x" * 2000 + '"\n',
    )
    played = run("play", str(path))
    out = no_traceback(played)
    assert played.exit_code == 1
    assert "chatty.rules:6:5:" in out and "MAX_LOG_CHARS" in out and f"{MAX_LOG_CHARS:,}" in out
    assert len(played.stderr) < 2 * MAX_MESSAGE


ASKING = (
    'game "Asking":\n  players 2..2\n\nvar n: int = 0\n\nplay:\n  while yes:\n'
    '    choose x from [1, 2] by players[0] prompt "Pick":\n      set n to x\n'
)


def test_a_log_counts_every_line_decisions_too(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "loop.rules",
        ASKING,
    )
    state = meeple.load(path).new_game(2, 0)
    state.rt.log_chars = MAX_LOG_CHARS - 10  # as if the game had logged nearly all it may
    with pytest.raises(meeple.RuleRuntimeError, match="MAX_LOG_CHARS"):
        state.apply(0)
    assert state.failed is not None


def test_a_game_that_asks_without_end_stops_at_the_decisions_limit_with_a_short_message(
    tmp_path: Path,
) -> None:
    """`while yes:` around a `choose`: 2.5 million choices and 15 MB of error before the limit."""
    path = write(
        tmp_path,
        "asking.rules",
        ASKING,
    )
    played = run("play", str(path))
    out = no_traceback(played)
    assert played.exit_code == 1
    assert "asking.rules:8:5:" in out and "MAX_DECISIONS" in out and f"{MAX_DECISIONS:,}" in out
    assert len(played.stderr) < 2 * MAX_MESSAGE
    state = meeple.load(path).new_game(2, 0, logging=False)
    with pytest.raises(meeple.RuleRuntimeError, match="MAX_DECISIONS"):
        play_to_end(state, make_agents(["first"], 2, 0))
    assert len(state.choices) == MAX_DECISIONS


def test_an_error_quoting_many_options_is_cut_short(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "many.rules",
        'game "Many":\n  players 2..2\n\nvar n: int = 0\n\n'
        'rule pick_one():\n  choose x from 1..90000 by players[0] prompt "Pick":\n    set n to x\n\n'
        "play:\n  pick_one()\n\n"
        'example "an answer that is not an option":\n  do:\n    pick_one()\n  choices: "none of them"\n',
    )
    tested = run("test", str(path))
    out = no_traceback(tested)
    assert tested.exit_code == 1
    assert "is not one of" in out and "more characters)" in out
    assert len(out) < 3 * MAX_MESSAGE
    with pytest.raises(meeple.RuleRuntimeError) as err:
        raise meeple.RuleRuntimeError("x" * 10 * MAX_MESSAGE)
    assert len(str(err.value)) < MAX_MESSAGE + 100


def test_a_game_ended_in_its_setup_is_scored_as_it_ends(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "short.rules",
        'game "Short":\n  players 2..2\n\nsetup:\n  end game\n\n'
        'score p = [1, 2][p.seat + 1]\n\nplay:\n  log "never"\n',
    )
    with pytest.raises(meeple.RuleRuntimeError, match="index out of range"):
        meeple.load(path).new_game(2, 0)
    played = run("play", str(path))
    assert played.exit_code == 1 and "short.rules:7:1:" in no_traceback(played)


def test_the_documented_depth_holds_when_the_host_lowered_pythons_limit_after_import(
    tmp_path: Path,
) -> None:
    """A host may set Python's recursion limit back after meeple was imported (hypothesis does,
    when one of its tests ends): a game must still stop at MAX_RECURSION calls, with its words."""
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        body, line = ENDLESS["a value"]
        path = write(tmp_path, "endless.rules", 'game "Endless":\n  players 2..2\n\n' + body)
        out = no_traceback(run("play", str(path)))
    finally:
        sys.setrecursionlimit(old)
    assert f"endless.rules:{line}:1:" in out
    assert f"more than {MAX_RECURSION:,} calls deep" in out
