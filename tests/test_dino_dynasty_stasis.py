"""Dino Dynasty, the Stasis Variant (games/dino_dynasty_stasis.rules; the rulebook's "Stasis
Variant"): random games of each mode end, with every Dino kept and the Stasis never asking a
decision ("The Stasis follow the Priorities stated in rules and cards"), replays are exact, and the
worked examples hold."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from helpers import assert_same_game, play_random, play_refusing_bad_answers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple import State
from meeple.interpreter.examples import run_examples

MODES = ["easy", "legendary", "manker"]
BUDGET = 5_000_000
MAX_DECISIONS = 4_000
DINOS_PER_SEAT = 16  # `piece dino: 16 per player`: the Stasis takes all of its Dynasty's 16
seeds = st.integers(min_value=0, max_value=2**32 - 1)
answers = seeds.map(random.Random)


@cache
def game(mode: str) -> meeple.Game:
    return meeple.load("dino_dynasty_stasis", {"scenario": "A", "mode": mode})


def kept_and_unasked(state: State) -> None:
    """Every seat's Dinos and Nest are somewhere (never created nor lost), and the decision waiting,
    if any, is a player's: the Stasis is never asked."""
    for seat in state.rt.players:
        dinos = sum(
            1
            for pile in state.rt.locs.values()
            for kind, owner in pile
            if owner is seat and kind.name == "dino"
        )
        nests = sum(
            1
            for pile in state.rt.locs.values()
            for kind, owner in pile
            if owner is seat and kind.name == "nest"
        )
        assert (dinos, nests) == (DINOS_PER_SEAT, 1), seat
    if state.decision is not None:
        assert not state.decision.player.automated, state.decision.prompt


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([1, 2]), seed=seeds, rnd=answers)
def test_random_games_of_each_mode_end_with_dinos_kept_and_the_stasis_never_asked(
    mode: str, players: int, seed: int, rnd: random.Random
) -> None:
    state = play_random(
        game(mode), players, seed, rnd, budget=BUDGET, max_decisions=MAX_DECISIONS, check=kept_and_unasked
    )
    assert state.is_over
    assert len(state.scores) == players + 1
    again = meeple.replay(game(mode), players, seed, state.choices, budget=BUDGET)
    assert_same_game(again, state)


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([1, 2]), seed=seeds, rnd=answers, data=st.data())
def test_every_refused_answer_leaves_the_game_as_it_was(
    mode: str, players: int, seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    state = game(mode).new_game(players, seed=seed, budget=BUDGET)
    play_refusing_bad_answers(state, rnd, data, rate=0.05, max_decisions=MAX_DECISIONS)


def test_the_stasis_is_the_seat_after_the_players() -> None:
    state = game("easy").new_game(1, seed=3)
    assert [p.automated for p in state.rt.players] == [False, True]
    assert str(state.rt.players[1]) == "the Stasis"


def test_in_legendary_mode_a_game_where_every_player_is_extinct_is_won_by_the_stasis_alone() -> None:
    """'all players goes extinct (the Stasis directly wins)': a game that ends with its one player
    out of the game scores 1 for the Stasis and 0 for the player."""
    for seed in range(40):
        state = play_random(
            game("legendary"), 1, seed, random.Random(seed), budget=BUDGET, max_decisions=MAX_DECISIONS
        )
        if any("is Extinct and out of the game" in line for line in state.log):
            assert state.scores == [0, 1]
            assert state.winners == [1]
            return
    pytest.skip("no game of the first 40 seeds ended with the player Extinct")


def test_the_stasis_examples_pass() -> None:
    results = run_examples(game("easy"))
    assert results and all(r.passed for r in results), [(r.name, r.failures) for r in results if not r.passed]


CAMOUFLAGED = """variant "The Stasis, one mode" of "dino_dynasty_stasis":
  players 1..5

replace option mode: stasis_mode = {mode}

example "A Patagotitan in its Home forest, and a Stasis Herd beside it":
  players 1
  given:
    place shape(face_of(T02, side_a)) on world at placement(world, shape(face_of(T02, side_a)), 0, 0, 0)
    take_species(players[0], patagotitan)
    set players[1].species_of to utahraptor
    move 16 dino of players[1] from players[1].reserve to players[1].supply
    move 1 dino of players[1] from players[1].supply to cell(world, 0, 0)
    move 1 dino of players[0] from players[0].supply to cell(world, 1, 1)
  expect:
    camouflaged(players[0], area(cell(world, 0, 0), biome))
    attackable(players[1], area(cell(world, 0, 0), biome)) == {attackable}
"""


@pytest.mark.parametrize(
    ("mode", "attackable"), [("easy", "[]"), ("legendary", "[]"), ("manker", "[players[0]]")]
)
def test_only_manker_mode_forbids_camouflage_against_the_stasis(
    tmp_path: Path, mode: str, attackable: str
) -> None:
    """'Manker mode: ... the player(s) can not use the Camouflage ability against the Stasis.'"""
    path = tmp_path / f"{mode}.rules"
    path.write_text(CAMOUFLAGED.format(mode=mode, attackable=attackable), encoding="utf-8")
    results = run_examples(meeple.load(path))
    assert results and all(r.passed for r in results), [(r.name, r.failures) for r in results]
