"""Properties of Dino Party that hold in every game, whatever the seed and whatever the players choose.

Random games are played for every player count the header allows (2 to 6), with the dice seeded by
hypothesis and the answers drawn from a hypothesis-provided random generator. Where a property
comes from the rulebook (/work/shared/rulebooks/dino-party.txt) its docstring quotes the passage.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from helpers import (
    Check,
    assert_each_answer_goes_on,
    assert_same_game,
    play_random,
    play_refusing_bad_answers,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import Game, State
from meeple.codegen import render
from meeple.interpreter.values import Row

# Each property at every player count the box allows; the largest, whose games are the longest (a
# sixth of the file's time), runs with the soaks (CI runs them): a six-player game is still played
# whole in the default run by tests/test_native.py, on both engines.
PLAYER_COUNTS = [2, 3, 4, 5, pytest.param(6, marks=pytest.mark.soak)]
BUDGET = 50_000  # steps; a whole game takes a few thousand at most
MAX_DECISIONS = 5_000  # a guard, so that a game that never ends fails instead of hanging

seeds = st.integers(min_value=0, max_value=2**32 - 1)
answers = st.randoms(use_true_random=False)


@cache
def game() -> Game:
    """Dino Party: built on first use, not at import (each test process imports every file)."""
    return meeple.load("dino_party")


# ---------------------------------------------------------------------- reading a state


def constant(name: str) -> Any:
    return game().program.constants[name]


def pieces_of(state: State, kind: str) -> list[tuple[Any, Any]]:
    """(location, owner) of every piece of a kind, over every location of the game."""
    return [(loc, owner) for loc, pieces in state.rt.locs.items() for k, owner in pieces if k.name == kind]


def dinos_at(state: State, loc: Any, seat: int | None = None) -> int:
    return sum(
        1
        for kind, owner in state.rt.locs[loc]
        if kind.name == "dino" and (seat is None or owner is state.rt.players[seat])
    )


def continent() -> list[Row]:
    return game().program.map_nodes["continent"]


def terrain(state: State, zone: Row) -> Row:
    return state.rt.owned[("zone", "terrain")][zone]


def hand(state: State, seat: int) -> int:
    return dinos_at(state, game().program.zone("hand", state.rt.players[seat]), seat)


def play(players: int, seed: int, rnd: random.Random, check: Check | None = None) -> State:
    """A game answered at random; `check` runs at the start and after every decision."""
    return play_random(game(), players, seed, rnd, budget=BUDGET, max_decisions=MAX_DECISIONS, check=check)


# ---------------------------------------------------------------------- the engine's promises

SETTINGS = settings(deadline=None, max_examples=12)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_every_game_ends_within_the_step_budget(players: int, seed: int, rnd: random.Random) -> None:
    """A game of any size ends, whatever is chosen, without running out of steps."""
    state = play(players, seed, rnd)
    assert state.is_over
    assert state.decision is None
    assert not state.ended_early, "Dino Party has no early end"
    assert state.rt.steps <= BUDGET


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_dinos_are_conserved_after_every_decision(players: int, seed: int, rnd: random.Random) -> None:
    """Each player's Dinos are never created or destroyed: lost ones go to the Reserve.

    Rulebook: "takes five matching figures into hand. The remaining figures go to the Reserve";
    "All Dinos in the Ocean or Space go to the Reserve"."""
    per_type = constant("figures_per_type")

    def conserved(state: State) -> None:
        owners = [owner for _, owner in pieces_of(state, "dino")]
        for player in state.rt.players:
            assert sum(1 for owner in owners if owner is player) == per_type, player
        assert len(owners) == per_type * players

    play(players, seed, rnd, conserved)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_replaying_the_choices_reproduces_the_game(players: int, seed: int, rnd: random.Random) -> None:
    """(rules, players, seed, choices) is the replay format: it gives the same game again."""
    original = play(players, seed, rnd)
    again = meeple.replay(game(), players, seed, original.choices, budget=BUDGET)
    assert_same_game(again, original)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(deadline=None, max_examples=6)
@given(seed=seeds, rnd=answers, data=st.data())
def test_every_offered_option_is_accepted(
    players: int, seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    """At any decision, each of the options offered can be chosen and the game goes on."""
    original = play(players, seed, rnd)
    steps = len(original.choices)
    assert steps > 0
    for step in data.draw(st.lists(st.integers(0, steps - 1), min_size=1, max_size=2, unique=True)):
        prefix = original.choices[:step]
        state = meeple.replay(game(), players, seed, prefix, budget=BUDGET, complete=False)
        assert state.decision is not None
        size = len(state.decision.options)
        assert_each_answer_goes_on(game(), players, seed, prefix, range(size), budget=BUDGET)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers, data=st.data())
def test_an_index_outside_the_options_is_refused_and_changes_nothing(
    players: int, seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    """Only an offered option is an answer; anything else raises IllegalChoice and leaves the state."""
    state = game().new_game(players, seed=seed, budget=BUDGET)
    play_refusing_bad_answers(state, rnd, data, rate=0.1, max_decisions=MAX_DECISIONS)


# ---------------------------------------------------------------------- the rulebook's promises


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_gives_every_player_five_dinos_and_the_rest_to_the_reserve(players: int) -> None:
    """Rulebook, Setup: "each player chooses a type of Dino and takes five matching figures into
    hand. The remaining figures go to the Reserve." """
    state = game().new_game(players, seed=players)
    assert state.decision is not None and state.decision.prompt == "Aim at a zone"
    reserve = game().program.zone("reserve")
    for seat in range(players):
        assert hand(state, seat) == constant("starting_hand") == 5
        assert dinos_at(state, reserve, seat) == constant("figures_per_type") - 5


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_the_game_lasts_four_epochs_of_one_turn_per_player(
    players: int, seed: int, rnd: random.Random
) -> None:
    """Rulebook, Game Goal: "The game lasts 4 rounds, called "Epochs"", and in each Epoch the
    players take turns throwing ("Players take turns, or throw simultaneously")."""
    state = play(players, seed, rnd)
    epochs = constant("epochs")
    assert epochs == 4
    assert state.turns == epochs * players
    assert [line for line in state.log if line.startswith("Epoch ")] == [f"Epoch {n}" for n in range(1, 5)]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_no_dino_stays_in_space_or_the_ocean(players: int, seed: int, rnd: random.Random) -> None:
    """Rulebook, First Stage: "All Dinos in the Ocean or Space go to the Reserve." At every decision,
    Space and every Ocean zone are empty of Dinos."""
    space = game().program.zone("space")

    def empty_sea(state: State) -> None:
        assert dinos_at(state, space) == 0
        for zone in continent():
            if terrain(state, zone).values["lost"]:
                assert dinos_at(state, zone) == 0, f"Dinos in the Ocean at {zone}"

    play(players, seed, rnd, empty_sea)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_at_the_end_dinos_in_jungles_and_disasters_are_lost_and_hands_score(
    players: int, seed: int, rnd: random.Random
) -> None:
    """Rulebook, End of Game: "all Dinos in the Jungles or in natural disaster zones are considered
    permanently lost. Players receive one victory point for each Dino in hand. There may be several
    winners." """
    state = play(players, seed, rnd)
    for zone in continent():
        if terrain(state, zone).values["lost_at_end"]:
            assert dinos_at(state, zone) == 0, f"Dinos left in {zone} ({terrain(state, zone)})"
    assert state.scores == [hand(state, seat) for seat in range(players)]
    best = max(state.scores)
    assert state.winners == [seat for seat, score in enumerate(state.scores) if score == best]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_the_nine_air_pollution_cards_are_conserved(players: int, seed: int, rnd: random.Random) -> None:
    """Rulebook, Air Pollution: "The nine card illustrations" — drawn cards go into force, to a
    player for one Epoch, then to the discard; none appears or vanishes."""
    cards = len(game().program.rows["pollution"])
    assert cards == 9

    def nine(state: State) -> None:
        assert len(pieces_of(state, "card")) == cards

    play(players, seed, rnd, nine)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_players_aim_only_at_zones_that_are_not_ocean(players: int, seed: int, rnd: random.Random) -> None:
    """The rules file's assumption "Players aim only at zones that are not Ocean": every aim
    decision offers exactly the continent's zones whose terrain can be aimed at, as flooding
    changes them."""

    def aim(state: State) -> None:
        decision = state.decision
        if decision is not None and decision.prompt == "Aim at a zone":
            expected = [zone.name for zone in continent() if terrain(state, zone).values["aim"]]
            assert decision.options == expected

    play(players, seed, rnd, aim)


def test_the_components_say_how_each_air_pollution_card_makes_you_throw() -> None:
    """Rulebook, Components: "9 Air Pollution cards"; the nine card illustrations ("On tiptoes" ...
    "Nose pinched") are what a player reads on a card. They are told with the cards among the
    components, where a player meets them, and not in a Reference entry of their own, which
    stood alone, three lines, on the book's last page."""
    found = meeple.check("dino_party")
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    book = render.rulebook_markdown(docs)
    components = book[book.index("## Components") : book.index("## Setup")]
    assert "Each shows how you must throw: on tiptoes" in components
    assert "with your nose pinched" in components
    assert "### Card illustration" not in book


def test_the_book_states_no_aiming_rule_and_names_zone_types_as_the_rulebook_does() -> None:
    """Rulebook, Throw the Dinos: players throw "onto the game board" and say nothing of where a
    throw may be aimed; aiming only at land is the engine's model of a throw, an `assume`, not a
    rule a player reads ("aimed at a zone ... that is not an Ocean", "You may aim here: no"). The
    zone types are capitalised like the rulebook's ("Natural Disaster"), and the player count is an
    answer, not a reason ("as there are six Dino types")."""
    found = meeple.check("dino_party")
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    book = render.rulebook_markdown(docs)
    assert "not an Ocean" not in book
    assert "aim" not in book.lower().replace("claim", "")
    assert "| Natural disaster |" in book
    assert "- 2 to 6 players can play: each takes one of the six Dino types." in book
