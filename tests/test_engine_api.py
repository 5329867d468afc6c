"""The engine's API, in the spirit of OpenSpiel, specified on the bundled Dino Party.

game = meeple.load("dino_party")
state = game.new_game(players, seed)
state.decision -> who decides, the prompt, the options (readable labels)
state.apply(i)  -> answers it; anything that is not an option is refused and changes nothing
meeple.replay(game, players, seed, choices) -> the same game again
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_same_game, snapshot

import meeple
from meeple import Game, IllegalChoice, State


@pytest.fixture(scope="module")
def game() -> Game:
    return meeple.load("dino_party")


def play_randomly(game: Game, players: int, seed: int, choice_seed: int) -> State:
    state = game.new_game(players, seed=seed)
    rng = random.Random(choice_seed)
    while not state.is_over:
        assert state.decision is not None
        state.apply(rng.randrange(len(state.decision.options)))
    return state


# ---------------------------------------------------------------------- loading


def test_load_a_bundled_game_by_name(game: Game) -> None:
    assert game.name == "Dino Party"
    assert (game.min_players, game.max_players) == (2, 6)
    assert meeple.resolve(game.path) == meeple.resolve("dino_party")
    assert meeple.resolve(game.path).name == "dino_party.rules"


def test_load_by_path_gives_the_same_game(game: Game) -> None:
    path = meeple.resolve("dino_party")
    assert path.is_file()
    by_path = meeple.load(path)
    by_text_path = meeple.load(str(path))
    assert by_path.name == by_text_path.name == game.name
    assert by_path.program.constants == game.program.constants
    first = play_randomly(by_path, 3, seed=5, choice_seed=5)
    again = play_randomly(game, 3, seed=5, choice_seed=5)
    assert first.log == again.log
    assert first.scores == again.scores


def test_load_by_name_with_the_rules_suffix(game: Game) -> None:
    assert meeple.load("dino_party.rules").name == game.name


def test_load_an_unknown_name_says_which_games_exist() -> None:
    with pytest.raises(FileNotFoundError, match="dino_party"):
        meeple.load("no_such_game")


# ---------------------------------------------------------------------- starting a game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_new_game_accepts_the_header_player_counts(game: Game, players: int) -> None:
    state = game.new_game(players, seed=1)
    assert state.players == players
    assert len(state.scores) == players
    assert not state.is_over


@pytest.mark.parametrize("players", [-1, 0, 1, 7, 64])
def test_new_game_rejects_a_player_count_outside_the_header(game: Game, players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        game.new_game(players, seed=1)


def test_new_game_without_a_player_count_takes_the_fewest(game: Game) -> None:
    assert game.new_game(seed=0).players == game.min_players


def test_decision_says_who_decides_what_and_lists_readable_options(game: Game) -> None:
    state = game.new_game(3, seed=1)
    decision = state.decision
    assert decision is not None
    assert decision.player.seat == 0, "the first player throws first"
    assert str(decision.player) == "Player 1"
    assert decision.prompt == "Aim at a zone"
    assert len(decision.options) >= 2
    assert all(isinstance(option, str) and option for option in decision.options)
    assert "Great Valley 1" in decision.options  # a zone by its `called` name, not its key `gv1`


@pytest.mark.parametrize("name", ["dino_garden", "gods_love_dinosaurs"])
def test_one_option_label_is_the_label_in_the_list_of_options(name: str) -> None:
    """The log labels only the option chosen (`Decision.option`): for every index, values, a
    "pass" and offered actions alike, it is the label the whole list gives."""
    state = meeple.load(name).new_game(3, seed=2)
    rnd = random.Random(2)
    while not state.is_over:
        decision = state.decision
        assert decision is not None
        one_by_one = [decision.option(i) for i in range(decision.size)]
        assert one_by_one == decision.options
        state.apply(rnd.randrange(decision.size))


# ---------------------------------------------------------------------- answering

ONE_WAY = """\
game "One way":
  players 2..2

zone box
zone lane
piece stone: 6 in box

play:
  for each p in players:
    turn p:
      choose n from [2] by p prompt "Only":
        move n stone from box to lane
      choose m from [0, 1] by p prompt "Either":
        move m stone from box to lane
"""


def test_a_decision_with_one_option_is_taken_without_asking_and_is_not_recorded(tmp_path: Path) -> None:
    """The engine's contract (interpreter/engine.py): a decision with a single option is taken
    at once, never offered, and its answer is not recorded; the log still says it was taken."""
    path = tmp_path / "one_way.rules"
    path.write_text(ONE_WAY)
    state = meeple.load(path).new_game(2)
    for seat in (0, 1):
        assert state.decision is not None
        assert (state.decision.player.seat, state.decision.prompt) == (seat, "Either")
        state.apply(1)
    assert state.is_over
    assert state.choices == [1, 1]  # the two "Either" answers alone
    assert sum(1 for line in state.log if "(only option)" in line) == 2
    assert meeple.replay(state.game, 2, 0, state.choices).view()["zones"]["lane"] == {"stone": 6}


def test_no_decision_a_bundled_game_offers_has_fewer_than_two_options(game: Game) -> None:
    for seed in range(3):
        state = game.new_game(3, seed=seed)
        rnd = random.Random(seed)
        while not state.is_over:
            assert state.decision is not None and state.decision.size >= 2, state.decision
            state.apply(rnd.randrange(state.decision.size))


@pytest.mark.parametrize("bad", [-1, -100, 10_000, True, False, "0", "gv1", 1.0, None])
def test_apply_refuses_anything_that_is_not_an_option_index_and_changes_nothing(game: Game, bad: Any) -> None:
    state = game.new_game(4, seed=3)
    state.apply(2)
    before = snapshot(state)
    with pytest.raises(IllegalChoice):
        state.apply(bad)
    assert snapshot(state) == before


def test_apply_refuses_the_index_one_past_the_last_option(game: Game) -> None:
    state = game.new_game(2, seed=0)
    assert state.decision is not None
    before = snapshot(state)
    with pytest.raises(IllegalChoice):
        state.apply(len(state.decision.options))
    assert snapshot(state) == before


def test_a_refused_answer_leaves_the_game_playable_to_the_same_end(game: Game) -> None:
    reference = play_randomly(game, 3, seed=8, choice_seed=8)
    state = game.new_game(3, seed=8)
    for index in reference.choices:
        with pytest.raises(IllegalChoice):
            state.apply(-1)
        state.apply(index)
    assert state.is_over
    assert state.log == reference.log
    assert state.scores == reference.scores


def test_apply_records_the_answer(game: Game) -> None:
    state = game.new_game(2, seed=0)
    state.apply(1)
    assert state.choices == [1]


def test_apply_after_the_end_is_refused_and_changes_nothing(game: Game) -> None:
    state = play_randomly(game, 2, seed=4, choice_seed=1)
    assert state.is_over
    assert state.decision is None
    before = snapshot(state)
    scores = state.scores
    for index in (0, 1, -1):
        with pytest.raises(IllegalChoice):
            state.apply(index)
    assert snapshot(state) == before
    assert state.scores == scores


def test_illegal_choice_is_a_value_error() -> None:
    assert issubclass(IllegalChoice, ValueError)


# ---------------------------------------------------------------------- replays


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 17), (6, 123)])
def test_replay_reproduces_the_game_exactly(game: Game, players: int, seed: int) -> None:
    original = play_randomly(game, players, seed=seed, choice_seed=seed + 1)
    again = meeple.replay(game, players, seed, original.choices)
    assert_same_game(again, original)
    assert again.result() == original.result()


def test_replay_of_a_cut_short_log_is_refused(game: Game) -> None:
    original = play_randomly(game, 3, seed=9, choice_seed=9)
    with pytest.raises(IllegalChoice, match="before the game does"):
        meeple.replay(game, 3, 9, original.choices[:-1])


def test_replay_of_a_prefix_rebuilds_the_position_when_asked(game: Game) -> None:
    original = game.new_game(3, seed=9)
    rng = random.Random(9)
    for _ in range(20):
        assert original.decision is not None
        original.apply(rng.randrange(len(original.decision.options)))
    again = meeple.replay(game, 3, 9, original.choices, complete=False)
    assert again.decision is not None and original.decision is not None
    assert again.decision.player == original.decision.player
    assert again.decision.prompt == original.decision.prompt
    assert again.decision.options == original.decision.options
    assert again.log == original.log
    assert snapshot(again) == snapshot(original)


def test_same_seed_and_same_choices_give_the_same_game(game: Game) -> None:
    first = play_randomly(game, 4, seed=21, choice_seed=99)
    second = play_randomly(game, 4, seed=21, choice_seed=99)
    assert first.choices == second.choices
    assert first.log == second.log
    assert first.scores == second.scores


def test_the_seed_decides_the_random_outcomes(game: Game) -> None:
    logs = {tuple(play_randomly(game, 3, seed=seed, choice_seed=0).log) for seed in range(5)}
    assert len(logs) > 1


def test_replay_refuses_a_choice_that_does_not_fit(game: Game) -> None:
    original = play_randomly(game, 2, seed=2, choice_seed=2)
    corrupt = list(original.choices)
    corrupt[3] = 10_000
    with pytest.raises(IllegalChoice, match="choice 4"):
        meeple.replay(game, 2, 2, corrupt)


def test_replay_refuses_more_choices_than_the_game_asks_for(game: Game) -> None:
    original = play_randomly(game, 2, seed=2, choice_seed=2)
    with pytest.raises(IllegalChoice, match="more than the game asks for"):
        meeple.replay(game, 2, 2, [*original.choices, 0])


def test_result_is_the_replay_record(game: Game) -> None:
    state = play_randomly(game, 3, seed=6, choice_seed=6)
    result = state.result()
    assert result["players"] == 3
    assert result["seed"] == 6
    assert result["choices"] == state.choices
    assert result["scores"] == state.scores
    again = meeple.replay(game, result["players"], result["seed"], result["choices"])
    assert again.result() == result
