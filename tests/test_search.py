"""A player that searches (`--agents mcts`): it plays well, and it plays fair.

Issue 24 asks of it: it never loses Tic-Tac-Toe to a random player and draws against itself (in
tests/test_native.py), it wins Connect Four against random players over 95% of the time, and in
Gods Love Dinosaurs its win rate against random players, with its interval, is well above a
random seat's. A search looks ahead on copies of the game, and a copy holds the generator and
every face-down piece: the searching player must look only at what its seat could know, or its
strength would be a cheat's. Two small test games show the difference: a cheat wins them every
time, a fair player as often as chance allows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT, native_or_skip, run, write
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.interpreter import native
from meeple.interpreter.agents import Search, make_agents, parse_search, play
from meeple.statistics import wilson

GAMES = ROOT / "tests" / "games"


@pytest.fixture(autouse=True)
def built() -> None:
    """A search plays on the native engine only: skip without it, unless CI requires it."""
    native_or_skip()


def first_seat_wins(path: Path, agents: list[str], seeds: range) -> int:
    """How many of the games, one per seed, the first seat won alone."""
    game = meeple.load(str(path))
    won = 0
    for seed in seeds:
        state = native.new_game(game, 2, seed, logging=False)
        state.play_out(agents)
        won += state.winners == [0]
    return won


def test_a_search_cannot_see_the_order_of_a_face_down_deck() -> None:
    """Guess the Top Card: the deck is `hidden, ordered`, shuffled before the first player names
    a card. A search of the game as it lies would always name the top card; a fair one names it
    about one time in three (60 games: 20 expected, a cheat's 60)."""
    won = first_seat_wins(GAMES / "guess_the_top_card.rules", ["mcts:60", "random"], range(60))
    assert 5 <= won <= 35, f"the searching player named the top card {won} times of 60"


def test_a_search_cannot_see_the_dice_to_come() -> None:
    """Call the Die: the first player calls high or low before the roll. A search that kept the
    game's generator would know the roll; a fair one calls it about one time in two."""
    won = first_seat_wins(GAMES / "call_the_die.rules", ["mcts:60", "random"], range(60))
    assert 15 <= won <= 45, f"the searching player called the roll {won} times of 60"


def test_a_search_still_plays_what_it_can_see() -> None:
    """The guesses are of the unseen alone: in Connect Four, a game of perfect information, the
    searching player wins against a random one over 95% of the time (issue 24), from either
    seat."""
    game = meeple.load(str(GAMES / "connect_four.rules"))
    games, won = 0, 0
    for seat in (0, 1):
        for seed in range(10):
            agents = ["random", "random"]
            agents[seat] = "mcts:200"
            state = native.new_game(game, 2, seed, logging=False)
            state.play_out(agents)
            games += 1
            won += state.winners == [seat]
    assert won / games > 0.95, f"won {won} of {games}"


@pytest.mark.soak  # 36 whole games of searches: minutes (CI runs it: .ci/run)
def test_a_searching_seat_of_gods_love_dinosaurs_wins_well_above_a_random_seats_share() -> None:
    """Gods Love Dinosaurs, three players: the searching seat (first, second or third in turn,
    25 playouts a decision) against two random ones. A random seat wins about a third of games;
    the searching seat wins at least half, and the 95% interval of its win rate (Wilson's) lies
    wholly above a third."""
    game = meeple.load(str(ROOT / "games" / "gods_love_dinosaurs.rules"))
    games, won = 0, 0.0
    for seed in range(36):
        seat = seed % 3
        agents = ["random"] * 3
        agents[seat] = "mcts:25"
        state = native.new_game(game, 3, seed, logging=False)
        state.play_out(agents)
        games += 1
        won += 1 / len(state.winners) if seat in state.winners else 0
    low, _high = wilson(won, games)
    assert won / games >= 0.5 and low > 1 / 3, f"won {won} of {games} (95% interval from {low:.2f})"


# ---------------------------------------------------------------------- budgets and playouts

LONG_HAUL = GAMES / "long_haul.rules"


def searching_seat_wins(agent: str, seeds: range) -> int:
    """Long Haul from either seat against a steady opponent (`first`: it sprints, then takes 3
    points every round, for 30): the games the searching seat won."""
    game = meeple.load(str(LONG_HAUL))
    won = 0
    for seed in seeds:
        for seat in (0, 1):
            agents = ["first", "first"]
            agents[seat] = agent
            state = native.new_game(game, 2, seed, logging=False)
            state.play_out(agents)
            won += state.winners == [seat]
    return won


def test_a_search_whose_playouts_play_a_style_plays_better_than_one_of_random_playouts() -> None:
    """Long Haul: hauling wins (36 points to 30) only for a player who then takes 3 points every
    round. Random playouts almost never do (one in 6,561), so a search of 30 playouts a decision
    finishing them at random cannot see that hauling pays, and loses to the steady opponent; the
    same search finishing them as the style `greedy` plays (it takes 3, and says nothing of the
    plan) hauls and wins. 10 games each, from either seat."""
    styled = searching_seat_wins("mcts:30:greedy", range(5))
    randomly = searching_seat_wins("mcts:30", range(5))
    assert styled == 10, f"the search of greedy playouts won {styled} of 10"
    assert randomly <= 2, f"the search of random playouts won {randomly} of 10"


def test_a_search_for_a_time_answers_with_an_option_and_stops() -> None:
    """`mcts:0.05s`: a twentieth of a second a decision, whatever the machine makes of it; the
    answers are options of their decisions and the game ends (a time budget is reproducible
    only in the playouts it reached: the core's own tests give it a clock of their own)."""
    game = meeple.load(str(GAMES / "tic_tac_toe.rules"))
    state = native.new_game(game, 2, 0, logging=False)
    while not state.is_over:
        size = state.decision.size
        choice = state.core.mcts(7, seconds=0.05)
        assert choice is not None and 0 <= choice < size
        state.apply(choice)
    state = native.new_game(game, 2, 1, logging=False)
    state.play_out(["mcts:0.05s", "random"])
    assert state.is_over and len(state.choices) >= 5


def test_a_search_of_so_many_playouts_is_the_same_from_python_and_inside_the_core() -> None:
    """With style playouts too: agents.py's agent and the core's play the same game for a seed."""
    game = meeple.load(str(LONG_HAUL))
    outside = native.new_game(game, 2, 3)
    play(outside, make_agents(["mcts:20:greedy", "random"], 2, 3, game.program.styles))
    inside = native.new_game(game, 2, 3)
    inside.play_out(["mcts:20:greedy", "random"])
    assert inside.choices == outside.choices


def test_a_search_plays_a_python_engine_game_through_a_native_copy() -> None:
    """On the playtest page the game is the Python engine's: the searching agent searches a
    native copy at the same position and answers as it would on the native engine."""
    game = meeple.load(str(LONG_HAUL))
    python = game.new_game(2, 5)
    play(python, make_agents(["mcts:20:greedy", "first"], 2, 5, game.program.styles))
    inside = native.new_game(game, 2, 5)
    inside.play_out(["mcts:20:greedy", "first"])
    assert python.choices == inside.choices


@pytest.mark.parametrize(
    ("name", "search"),
    [
        ("mcts", Search(1000, None, None)),
        ("mcts:500", Search(500, None, None)),
        ("mcts:2s", Search(None, 2.0, None)),
        ("mcts:0.5s", Search(None, 0.5, None)),
        ("mcts:300:greedy", Search(300, None, "greedy")),
        ("mcts:1.5s:greedy", Search(None, 1.5, "greedy")),
        ("mcts:greedy", Search(1000, None, "greedy")),
        ("random", None),
        ("mctsx", None),
    ],
)
def test_a_search_is_named_by_its_budget_then_its_style(name: str, search: Search | None) -> None:
    assert parse_search(name) == search


@pytest.mark.parametrize(
    "name",
    [
        "mcts:",
        "mcts:0",
        "mcts:0s",
        "mcts:2x",
        "mcts:1:2:3",
        "mcts:500:",
        "mcts::greedy",
        "mcts:9e9",
        "mcts:99999s",
    ],
)
def test_a_name_that_starts_as_a_search_and_is_none_says_how_to_write_one(name: str) -> None:
    with pytest.raises(ValueError, match=r"is not a search: say mcts|more than 0 seconds and at most a day"):
        parse_search(name)


@given(st.text(max_size=20))
def test_any_name_is_a_search_no_search_or_a_clear_error(text: str) -> None:
    """Whatever a user types after `mcts:`, the name parses or is refused with a sentence."""
    try:
        search = parse_search("mcts:" + text)
    except ValueError as err:
        assert "mcts" in str(err)
    else:
        assert search is not None
        assert (search.playouts is None) != (search.seconds is None)
        assert search.playouts is None or search.playouts >= 1
        assert search.seconds is None or search.seconds > 0


def test_a_bad_search_is_a_usage_error_before_anything_is_played() -> None:
    for agents, said in [
        ("mcts:2x,random", "'mcts:2x' is not a search"),
        ("mcts:10:nosuch,random", "unknown style 'nosuch'"),
    ]:
        result = run("play", str(LONG_HAUL), "--agents", agents)
        assert result.exit_code == 2 and said in result.output, result.output


def test_the_core_refuses_a_search_without_a_budget_or_with_a_style_it_does_not_know() -> None:
    state = native.new_game(meeple.load(str(LONG_HAUL)), 2, 0)
    for arguments in [
        {},
        {"playouts": 0},
        {"seconds": -1.0},
        {"playouts": 5, "seconds": 1.0},
        {"playouts": 5, "style": 9},
    ]:
        with pytest.raises(ValueError, match=r"a search needs one budget|no style 9"):
            state.core.mcts(0, **arguments)


STYLE_OF_AN_OFFER = """
game "Shop":
  players 2..2
  text "Take 1 or 2 points a turn; at any time buy a point."

var points: int = 0 per player

rule buy(p: player):
  add 1 to p.points

rule take(p: player):
  offer buy(p) to p as "buy a point":
    choose n from [1, 2] by p prompt "Take":
      add n to p.points

play:
  repeat 2 times:
    for each p in players:
      turn p:
        take(p)

score p = p.points

style shopper:
  prefer offer buy weight 5

style taker:
  prefer take.n where n == 2
"""


def test_a_style_that_weighs_an_offered_action_is_played_out_by_a_search_too(tmp_path: Path) -> None:
    """The core's styles weigh offered actions as the Python engine's do (src/styles.rs), so a
    search's playouts may play such a style: both styles are lowered, and a search of either
    plays the game to its end on the core."""
    game = meeple.load(str(write(tmp_path, "shop.rules", STYLE_OF_AN_OFFER)))
    assert native.engine_for(game) == ("native", "")
    state = native.new_game(game, 2, 0)
    assert sorted(state.lowered.styles) == ["shopper", "taker"]
    state.play_out(["mcts:10:shopper", "mcts:10:taker"])
    assert state.is_over


def test_simulate_plays_searches_of_a_style_on_the_native_engine() -> None:
    result = run(
        "simulate",
        str(LONG_HAUL),
        "--games",
        "2",
        "--agents",
        "mcts:20:greedy,first",
        "--json",
        "--jobs",
        "1",
    )
    stats = json.loads(result.stdout)
    assert stats["engine"] == "native" and stats["win_rate"][0] == 1.0


def test_compare_plays_searching_seats_the_same_on_the_same_seeds() -> None:
    """`compare` with a searching seat: a game compared with itself differs in nothing (each
    search of so many playouts is the same on the same seed), and the search wins its games."""
    rules = str(GAMES / "tic_tac_toe.rules")
    result = run(
        "compare", rules, rules, "--games", "4", "--agents", "mcts:100,random", "--json", "--jobs", "1"
    )
    compared = json.loads(result.stdout)
    assert compared["a"]["figures"]["win_rate"][0]["rate"] == 1.0
    assert all(row["difference"] == 0 for row in compared["differences"])
