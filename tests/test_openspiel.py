"""A meeple game handed to OpenSpiel (`meeple/openspiel.py`): OpenSpiel's own MCTS bot plays
Tic-Tac-Toe and a bundled game through it, and OpenSpiel's own consistency test passes on both.

Small search budgets keep these quick: Tic-Tac-Toe needs a hundred simulations a move (with the
bot's solver) to beat a random player, three hundred to draw against itself; the bundled game is
only played to its end."""

from __future__ import annotations

import importlib
import json
import sys

import pytest

pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install -e '.[openspiel]'")

import numpy as np
import pyspiel
from helpers import ROOT
from open_spiel.python.algorithms import mcts

from meeple.openspiel import load_game

TIC_TAC_TOE = ROOT / "tests" / "games" / "tic_tac_toe.rules"


def mcts_bot(game: pyspiel.Game, simulations: int, seed: int) -> mcts.MCTSBot:
    """OpenSpiel's UCT bot with random rollouts and its solver, seeded."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, 2, simulations, evaluator, solve=True, random_state=rng)


def play(game: pyspiel.Game, bots: dict[int, mcts.MCTSBot], seed: int) -> pyspiel.State:
    """A game to its end: the seats in `bots` search, the others play at random. Every action
    taken is checked to be legal where it is taken."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = bots[seat].step(state) if seat in bots else rng.choice(legal)
        assert action in legal
        state.apply_action(action)
    return state


# Eight games by default (a third of a second of CPU each), the first eight of the soak's 24.
@pytest.mark.parametrize("games", [8, pytest.param(24, marks=pytest.mark.soak)])
def test_mcts_never_loses_tic_tac_toe_to_a_random_player(games: int):
    game = load_game(TIC_TAC_TOE)
    outcomes = []
    for seed in range(games):
        seat = seed % 2  # half the games first, half second
        state = play(game, {seat: mcts_bot(game, 100, seed)}, seed)
        outcomes.append(state.returns()[seat])
    assert -1.0 not in outcomes
    assert outcomes.count(1.0) > len(outcomes) // 2  # and it wins most of them


# One game by default (two seconds of CPU), the first of the soak's two.
@pytest.mark.parametrize("games", [1, pytest.param(2, marks=pytest.mark.soak)])
def test_mcts_draws_tic_tac_toe_against_itself(games: int):
    game = load_game(TIC_TAC_TOE)
    for seed in range(games):
        state = play(game, {0: mcts_bot(game, 300, seed), 1: mcts_bot(game, 300, 100 + seed)}, seed)
        assert state.returns() == [0.0, 0.0]
        assert state.meeple.winners == [0, 1]  # meeple's draw: both share the best score


def test_mcts_plays_a_bundled_game_to_its_end():
    game = load_game("dino_party", players=3, seed=4)
    state = play(game, {0: mcts_bot(game, 2, 0)}, 0)
    assert state.meeple.is_over
    returns = state.returns()
    winners = state.meeple.winners
    assert sum(returns) == pytest.approx(0.0)
    assert [r > 0 for r in returns] == [seat in winners for seat in range(3)]


@pytest.mark.parametrize("rules", [TIC_TAC_TOE, ROOT / "tests" / "games" / "connect_four.rules"])
def test_openspiel_random_simulation_test_passes_on_a_game_without_chance(rules):
    game = load_game(rules)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_random_simulation_test_passes_on_a_game_with_chance_and_secrets():
    """Serialization is left out: OpenSpiel asks a sampled game for its generator's state, which a
    game written in Python cannot give it."""
    game = load_game("dino_party", players=2, seed=1)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_copy_is_the_same_position_and_moves_on_alone():
    game = load_game("dino_party", players=3, seed=2)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    copied = state.clone()
    assert str(copied) == str(state)
    assert copied.history() == state.history()
    assert copied.information_state_string(1) == state.information_state_string(1)
    copied.apply_action(copied.legal_actions()[0])
    assert len(copied.history()) == len(state.history()) + 1
    assert state.meeple.choices == copied.meeple.choices[:-1]


def test_a_draw_is_zero_and_a_win_is_plus_one_minus_one():
    game = load_game(TIC_TAC_TOE)
    state = game.new_initial_state()
    # X takes the top row (cells 0, 1, 2) while O plays 3 and 4: option positions among empty cells
    for action in [0, 2, 0, 1, 0]:
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]


def test_the_seed_is_not_in_what_a_seat_observes():
    """The seed tells every coming draw: a seat must not see it."""
    game = load_game("dino_party", players=3, seed=123456789)
    state = game.new_initial_state()
    assert "123456789" not in state.observation_string(0)
    assert "123456789" not in state.information_state_string(0)


def test_a_seat_observes_what_its_view_shows_and_no_more():
    """Dino Party's deck is `hidden` and each player's drawn cards `private`: a seat sees how many
    cards the deck and another's drawn zone hold, and its own drawn cards."""
    game = load_game("dino_party", players=2, seed=3)
    state = game.new_initial_state()
    zones = json.loads(state.observation_string(0))["zones"]
    assert set(zones["deck"]) == {"hidden"}
    assert set(zones["drawn of Player 2"]) == {"hidden"}
    assert "hidden" not in zones["drawn of Player 1"]
    assert json.loads(str(state))["zones"]["deck"] != zones["deck"]  # the whole position shows it


def test_a_registered_game_loads_by_name_with_its_options():
    load_game(ROOT / "tests" / "games" / "hex.rules")
    game = pyspiel.load_game("meeple_hex(size=3)")
    assert len(game.new_initial_state().legal_actions()) == 9


def test_one_player_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="no one to win against"):
        load_game("dino_garden_solo")


def test_without_openspiel_the_import_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "meeple.openspiel")
    with pytest.raises(ImportError, match=r"pip install 'meeple\[openspiel\]'"):
        importlib.import_module("meeple.openspiel")
