"""Counters: what an author counts for statistics (`counter NAME [per player]`, added to with
`tally NAME [for PLAYER] [by AMOUNT]`). The rules never read a counter, so counting something
changes no game; `simulate` and `compare` report them like the built-in figures, and an example's
`expect:` may read them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import meeple
from meeple import Game
from meeple.cli import app
from meeple.interpreter.agents import RandomAgent
from meeple.interpreter.agents import play as play_to_end
from meeple.interpreter.examples import run_examples
from tests.helpers import write

COUNTING = """game "Counting":
  players 2..3

counter draws per player
  called "card drawn", "cards drawn"
  text "A card a player draws."
counter rounds

var pile: int = 12

score p = 0

rule take(p: player, n: int):
  subtract n from pile
  tally draws for p by n

play:
  while pile > 0:
    tally rounds
    for each p in players:
      if pile > 0:
        choose n from [1, 2] where n <= pile by p prompt "Cards to draw":
          take(p, n)

example "a player's draws are counted for that player":
  players 2
  do:
    take(players[1], 2)
    take(players[1], 1)
  expect:
    draws == [0, 3]
    rounds == 0
"""


PLAIN = COUNTING.replace("  tally draws for p by n\n", "").replace("    tally rounds\n", "")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("counters")


@pytest.fixture(scope="module")
def counting(folder: Path) -> Game:
    return meeple.load(write(folder, "counting.rules", COUNTING))


@pytest.fixture(scope="module")
def plain(folder: Path) -> Game:
    return meeple.load(write(folder, "plain.rules", PLAIN))


def errors(folder: Path, source: str) -> list[tuple[str, int, str]]:
    """The diagnostics of a file: (code, line, message)."""
    checked = meeple.check(write(folder, "broken.rules", source))
    return [(d.code, d.line, d.message) for d in checked.diagnostics if d.severity in ("error", "warning")]


def test_tally_adds_to_the_players_own_count_and_to_the_games(counting: Game) -> None:
    state = counting.new_game(2, seed=1)
    play_to_end(state, [RandomAgent(1), RandomAgent(2)])
    counted = state.counted()
    assert sum(counted["draws"]) == 12  # every card drawn is counted once, for whoever drew it
    assert counted["rounds"] == state.result()["counters"]["rounds"] >= 3


def test_an_example_reads_the_counters(counting: Game) -> None:
    (result,) = run_examples(counting)
    assert result.passed, result.failures


def test_an_example_that_expects_another_count_fails(folder: Path) -> None:
    wrong = meeple.load(write(folder, "wrong.rules", COUNTING.replace("draws == [0, 3]", "draws == [3, 0]")))
    (result,) = run_examples(wrong)
    assert not result.passed
    assert "draws == [3, 0]" in result.failures[0] and "[0, 3]" in result.failures[0]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 3))
def test_counting_changes_no_game(counting: Game, plain: Game, seed: int, players: int) -> None:
    """The same game without its tallies asks the same decisions and ends the same way."""
    games = []
    for game in (counting, plain):
        state = game.new_game(players, seed=seed)
        play_to_end(state, [RandomAgent(seed * 10 + i) for i in range(players)])
        games.append((state.choices, state.scores, state.turns))
    assert games[0] == games[1]


def test_the_rules_cannot_read_a_counter(folder: Path) -> None:
    source = COUNTING.replace("  while pile > 0:", "  while pile > rounds:")
    (found,) = [e for e in errors(folder, source) if e[0] == "M014"]
    assert found[1] == source.splitlines().index("  while pile > rounds:") + 1
    assert "'rounds' is a counter" in found[2]


def test_a_counter_per_player_needs_whose_count_and_a_game_counter_refuses_one(folder: Path) -> None:
    no_player = COUNTING.replace("tally draws for p by n", "tally draws by n")
    assert any(e[0] == "M014" and "say whose" in e[2] for e in errors(folder, no_player))
    a_player = COUNTING.replace("    tally rounds\n", "    tally rounds for players[0]\n")
    assert any(e[0] == "M014" and "whole game" in e[2] for e in errors(folder, a_player))


def test_an_unknown_counter_is_refused_with_a_suggestion(folder: Path) -> None:
    source = COUNTING.replace("    tally rounds\n", "    tally roundz\n")
    (found,) = [e for e in errors(folder, source) if e[0] == "M010"]
    assert "unknown counter 'roundz'" in found[2]


def test_a_counted_amount_is_a_number(folder: Path) -> None:
    source = COUNTING.replace("tally draws for p by n", "tally draws for p by p")
    assert any(e[0] == "M014" for e in errors(folder, source))


def test_a_counter_nothing_tallies_is_reported_unused(folder: Path) -> None:
    path = write(folder, "unused.rules", COUNTING.replace("    tally rounds\n", ""))
    found = json.loads(CliRunner().invoke(app, ["check", str(path), "--format", "json"]).stdout)
    assert any(d["code"] == "M040" and "counter 'rounds'" in d["message"] for d in found)


def test_the_rulebook_says_nothing_of_counters_and_the_reference_lists_them(folder: Path) -> None:
    out = folder / "docs"
    result = CliRunner().invoke(
        app,
        [
            "docs",
            str(write(folder, "counting.rules", COUNTING)),
            "-o",
            str(out),
            "--format",
            "md",
            "--reference",
        ],
    )
    assert result.exit_code == 0, result.output
    rulebook = (out / "counting.md").read_text(encoding="utf-8")
    reference = (out / "counting-reference.md").read_text(encoding="utf-8")
    assert "tally" not in rulebook.lower() and "cards drawn" not in rulebook
    assert "Counted for statistics" in reference and "A card a player draws." in reference


def test_simulate_and_compare_report_the_counters(folder: Path) -> None:
    path = str(write(folder, "counting.rules", COUNTING))
    result = CliRunner().invoke(app, ["simulate", path, "--games", "30", "--players", "3", "--json"])
    stats = json.loads(result.stdout)
    draws = stats["figures"]["counter_draws"]
    assert len(draws) == 3 and sum(seat["mean"] for seat in draws) == pytest.approx(12)
    text = CliRunner().invoke(app, ["simulate", path, "--games", "30", "--players", "3"]).stdout
    assert "cards drawn" in text and "rounds" in text
    more = str(write(folder, "more.rules", COUNTING.replace("var pile: int = 12", "var pile: int = 30")))
    compared = json.loads(CliRunner().invoke(app, ["compare", path, more, "--games", "30", "--json"]).stdout)
    rounds = next(r for r in compared["differences"] if r["measure"] == "counter_rounds")
    assert rounds["distinguishable"] and rounds["difference"] > 0
