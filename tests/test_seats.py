"""Seats the rules play (`automated NAME plays STYLE`): a player like the others, seated after the
players, that owns pieces, scores and can win, and whose every decision the rules make: its style's
lines taken strictly, in order, a tie drawn from the game's seed. It is never asked, never recorded
among the choices, and a decision its style cannot resolve is an error at the statement that asks.

The game is tests/games/pacer_race.rules: each round every runner, and the Pacer, moves stones
from its stock to its track."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import meeple
from meeple import RuleRuntimeError
from meeple.cli import app
from tests.helpers import assert_same_game, line_of, play_refusing_bad_answers, run, write

PACER = Path(__file__).parent / "games" / "pacer_race.rules"
SOURCE = PACER.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def game() -> meeple.Game:
    return meeple.load(PACER)


def answer(state: meeple.State, *labels: str) -> None:
    """Answer the players' decisions by label, in order; the Pacer is never among them."""
    for label in labels:
        assert state.decision is not None
        assert not state.decision.player.automated
        state.apply(state.decision.options.index(label))


def test_the_automated_seat_sits_after_the_players_under_its_own_name(game: meeple.Game) -> None:
    state = game.new_game(players=2, seed=1)
    assert (state.players, state.seats) == (2, 3)
    assert [str(p) for p in state.rt.players] == ["Player 1", "Player 2", "the Pacer"]
    assert [p.automated for p in state.rt.players] == [False, False, True]


def test_a_solo_game_is_one_player_and_the_automated_seat(game: meeple.Game) -> None:
    state = game.new_game(players=1, seed=0)
    while not state.is_over:
        assert state.decision is not None and state.decision.player.seat == 0
        state.apply(0)
    assert len(state.scores) == 2
    assert set(state.choosers) == {0}


def test_the_automated_seat_follows_its_style_line_by_line(game: meeple.Game) -> None:
    """Its first line (2 stones, weight 5) outranks its second (3 stones, weight 2): strictly, not
    in proportion; it never rests (avoid yes) and takes the larger bonus (weight k)."""
    for seed in range(10):
        state = game.new_game(players=1, seed=seed)
        while not state.is_over:
            state.apply(0)
        said = [line for line in state.log if line.startswith("  the Pacer")]
        assert (
            said
            == [
                "  the Pacer how many stones?: 2",
                "  the Pacer rest a round?: no",
                "  the Pacer a bonus, or pass: 2",
            ]
            * 3
        )
        assert state.scores[1] == 12  # its own stones, on its own track
        assert len(state.rt.locs[game.program.zone("track", state.rt.players[1])]) == 12


def test_the_automated_seat_wins_a_tie_when_the_rules_say_so(game: meeple.Game) -> None:
    """Player 1 moves as the Pacer does (2 stones, no rest, the bonus of 2, no gift): 12 each, and
    the tiebreak (`if automated(p) then 1 else 0`) gives the Pacer the game."""
    state = game.new_game(players=1, seed=4)
    for _ in range(3):
        answer(state, "2", "no", "2", "no")
    assert state.is_over
    assert state.scores == [12, 12]
    assert state.winners == [1]


def test_without_a_tiebreak_the_tie_is_shared(tmp_path: Path) -> None:
    lines = SOURCE.replace(
        'tiebreak p = if automated(p) then 1 else 0\n  text "The Pacer wins every tie."\n', ""
    )
    state = meeple.load(write(tmp_path, "pacer.rules", lines)).new_game(players=1, seed=4)
    for _ in range(3):
        answer(state, "2", "no", "2", "no")
    assert state.winners == [0, 1]


TIED = """game "Level":
  players 1

automated dealer plays even
  called "the Dealer"

var total: int = 0 per player

rule pick_one(p: player):
  choose n from [1, 2, 3] by p prompt "Pick":
    add n to p.total

play:
  for each p in players:
    turn p:
      pick_one(p)

score p = p.total

style even:
  prefer pick_one.n where n > 1
"""


def test_options_the_style_leaves_level_are_drawn_from_the_game_seed(tmp_path: Path) -> None:
    """2 and 3 are level after every line: the game's own generator picks one, so that the same
    seed picks the same, other seeds the other, and 1 never."""
    game = meeple.load(write(tmp_path, "level.rules", TIED))

    def dealt(seed: int) -> int:
        state = game.new_game(players=1, seed=seed)
        state.apply(0)
        assert state.is_over and state.choices == [0]
        return state.scores[1]

    picks = [dealt(seed) for seed in range(40)]
    assert set(picks) == {2, 3}
    assert picks == [dealt(seed) for seed in range(40)]


def test_a_decision_its_style_says_nothing_of_is_an_error_at_the_statement(tmp_path: Path) -> None:
    """Without `if not automated(p)`, the rules ask the Pacer whether to give a stone back, which
    its style says nothing of: a RuleRuntimeError at that `may`, never a quiet first option."""
    lines = SOURCE.replace("        if not automated(p):\n          gift(p)", "        gift(p)")
    path = write(tmp_path, "pacer.rules", lines)
    state = meeple.load(path).new_game(players=1, seed=0)
    with pytest.raises(RuleRuntimeError) as err:
        while not state.is_over:
            state.apply(0)
    assert "the Pacer is a seat the rules play" in str(err.value)
    assert "'Give a stone back?'" in str(err.value)
    assert err.value.span is not None
    assert err.value.span.line == line_of(lines, 'may "Give a stone back?"')


def test_an_automated_seat_without_a_style_is_an_error_when_asked(tmp_path: Path) -> None:
    path = write(tmp_path, "level.rules", TIED.replace(" plays even", ""))
    with pytest.raises(RuleRuntimeError, match="it plays no style"):
        state = meeple.load(path).new_game(players=1, seed=0)
        state.apply(0)


def test_a_decision_of_one_option_needs_no_style(tmp_path: Path) -> None:
    lines = TIED.replace(" plays even", "").replace("[1, 2, 3]", "[2]")
    state = meeple.load(write(tmp_path, "level.rules", lines)).new_game(players=1, seed=0)
    assert state.is_over and state.scores == [2, 2]


def test_an_unknown_style_is_reported_at_the_declaration(tmp_path: Path) -> None:
    lines = TIED.replace("plays even", "plays evn")
    report = meeple.check(write(tmp_path, "level.rules", lines))
    found = [d for d in report.diagnostics if d.code == "M010"]
    assert len(found) == 1
    assert "unknown style 'evn'" in found[0].message and "did you mean 'even'" in found[0].hint
    assert found[0].line == line_of(lines, "automated dealer")


@settings(max_examples=30, deadline=None)
@given(players=st.integers(1, 3), seed=st.integers(0, 10_000), data=st.data())
def test_random_games_never_ask_the_automated_seat(
    game: meeple.Game, players: int, seed: int, data: st.DataObject
) -> None:
    """Random games: the automated seat never holds `state.decision`, never appears among the
    choosers, every refused answer leaves the position as it was, and the replay is exact."""
    state = game.new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    asked: list[int] = []
    original_apply = state.apply

    def apply(index: int) -> None:
        if state.decision is not None:
            asked.append(state.decision.player.seat)
        original_apply(index)

    state.apply = apply  # type: ignore[method-assign]
    play_refusing_bad_answers(state, rnd, data, rate=0.2, max_decisions=200)
    assert all(seat < players for seat in asked)
    assert all(seat < players for seat in state.choosers)
    again = meeple.replay(game, players, seed, state.choices)
    assert_same_game(again, state)


# ------------------------------------------------------------------ the command line and the docs


def test_meeple_play_names_the_automated_seat() -> None:
    result = run("play", str(PACER), "--players", "1", "--seed", "4", "--agents", "first")
    assert result.exit_code == 0, result.output
    assert "Pacer Race: 1 player and the Pacer" in result.stdout
    assert "│ the Pacer │" in result.stdout


def test_a_human_at_the_terminal_is_asked_only_for_the_players_decisions() -> None:
    """Four decisions a round for Player 1, three rounds: twelve answers, and the game ends."""
    result = CliRunner().invoke(
        app,
        ["play", str(PACER), "--players", "1", "--agents", "human"],
        input="1\n" * 12,
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "the Pacer: How many stones?" not in result.stderr
    assert result.stderr.count("Player 1: How many stones?") == 3


def test_agents_cover_only_the_players() -> None:
    """`--agents first,random` names Player 1 and Player 2; the Pacer takes no agent."""
    result = run("play", str(PACER), "--players", "2", "--agents", "first,random", "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["scores"]) == 3


def test_simulate_reports_the_automated_seat_with_its_interval() -> None:
    result = run("simulate", str(PACER), "--players", "1", "--games", "30", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert (stats["players"], stats["seats"]) == (1, 2)
    pacer = stats["figures"]["win_rate"][1]
    low, high = pacer["interval"]
    assert low <= pacer["rate"] <= high
    assert sum(stats["win_rate"]) == pytest.approx(1.0)
    text = run("simulate", str(PACER), "--players", "1", "--games", "30", "--jobs", "1").stdout
    assert "1 player (random) and the Pacer" in text


def test_the_printed_rules_tell_the_automated_seat_in_players_words(tmp_path: Path) -> None:
    result = run("docs", str(PACER), "--format", "md", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "pacer_race.md").read_text(encoding="utf-8")
    assert "*1 to 3 players and the Pacer*" in text
    assert "The Pacer plays by the rules: nobody at the table plays it. The Pacer always moves two" in text


def test_the_playtest_page_never_asks_the_automated_seat(game: meeple.Game) -> None:
    """A person at the page plays Player 1; the page's game moves on past the Pacer's turns by
    itself, and only Player 1 is ever to answer."""
    pytest.importorskip(
        "starlette", reason="the playtest page needs the serve extra: pip install -e '.[serve]'"
    )
    from meeple.serve.app import Session

    session = Session(game, str(PACER), 1, 0, ["human"])
    while not session.state.is_over:
        decision = session.state.decision
        assert decision is not None and decision.player.seat == 0
        session.answer(len(session.state.choices), 0, 0)
    assert session.error == ""
    assert len(session.state.scores) == 2


OFFERED = """game "Errands":
  players 1

automated clerk plays diligent
  called "the Clerk"

var done: int = 0 per player

rule errand(p: player):
  add 1 to p.done

rule a_turn(p: player):
  offer errand(p) to p where p.done < 2 as "run an errand":
    may "Rest?" by p:
      log "{p} rests"

play:
  repeat 3 times:
    for each p in players:
      turn p:
        a_turn(p)

score p = p.done

style diligent:
  prefer offer errand
  prefer yes in a_turn
"""


def test_an_offered_action_is_taken_while_the_style_prefers_it(tmp_path: Path) -> None:
    """`offer ... where` adds an action to the Clerk's decisions: its first line prefers it over
    resting for as long as it is open (2 errands), then it rests."""
    state = meeple.load(write(tmp_path, "errands.rules", OFFERED)).new_game(players=1, seed=0)
    while not state.is_over:
        assert state.decision is not None
        state.apply(state.decision.options.index("no"))  # Player 1 never runs an errand
    assert state.scores == [0, 2]
    assert state.log.count("  the Clerk rest?: run an errand") == 2


def test_check_play_finds_a_decision_the_style_cannot_resolve_at_the_statement(tmp_path: Path) -> None:
    """Analysis cannot tell whom a `by p` will name; random games can: `meeple check --play`
    reports the unresolved decision as an error at the statement that asks (M064)."""
    lines = SOURCE.replace("        if not automated(p):\n          gift(p)", "        gift(p)")
    path = write(tmp_path, "pacer.rules", lines)
    result = run("check", str(path), "--play", "5")
    assert result.exit_code == 1
    line = line_of(lines, 'may "Give a stone back?"')
    where = f"pacer.rules:{line}:3: error: a rule broke in gift"
    assert where in result.output
    assert "its style 'pacing' says nothing of this decision" in result.output
