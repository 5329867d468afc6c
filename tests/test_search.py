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

from pathlib import Path

import pytest
from helpers import ROOT, native_or_skip

import meeple
from meeple.interpreter import native
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
