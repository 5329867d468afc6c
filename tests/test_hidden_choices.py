"""A choice made from where other players cannot see (issue 26, "hidden information a seat alone
sees"): when a seat takes a piece from its private hand or a hidden pile and the piece stays out
of the others' sight, their log says what kind of piece it took and from where ("Player 1 stash:
a card from their hand"), not which; a seat that sees where it went (given into its hand, laid
face up) reads the line whole. The game's record keeps everything, and a replay is exact.

On `tests/games/stash.rules`: a card stashed face down stays secret, a card given is known to
the giver and the receiver, a card shown is known to everyone. Its cards have names of their
own, so a test can tell whether a seat's log names a card it may not know."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, native_or_skip
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.engine import State, replay
from meeple.interpreter.runtime import Secret
from meeple.logs import for_seat

STASH = ROOT / "tests" / "games" / "stash.rules"
LOOKOUT = ROOT / "tests" / "games" / "lookout.rules"  # the same cards
CARDS = ["Owl", "Lamp", "Key", "Bell", "Coin", "Drum", "Kite", "Mask", "Ring", "Fern"]
Start = Callable[[int, int], Any]  # a new game of Stash: (players, seed)
NAMED = re.compile(r"\b(" + "|".join(CARDS) + r")\b")


@cache
def loaded(path: Path) -> meeple.Game:
    """Stash or Lookout: built on first use, not at import (each test process imports every file)."""
    return meeple.load(path)


@pytest.fixture(params=["python", "native"])
def start(request: pytest.FixtureRequest) -> Start:
    """A new game of Stash, on each engine: each seat reads the same lines on both (issue 24),
    the native core taking what the words need as it writes the answer (src/words.rs)."""
    if request.param == "native":
        native_or_skip()
        return lambda players, seed: native.new_game(loaded(STASH), players, seed)
    return lambda players, seed: loaded(STASH).new_game(players, seed)


def _until(state: Any, prompt: str, answer: Callable[[Any], int] = lambda state: 0) -> str:
    """Play on (`answer` deciding) until the decision with this prompt; the label of its first
    option, the one the caller takes."""
    while state.decision is not None and state.decision.prompt != prompt:
        state.apply(answer(state))
    assert state.decision is not None, f"the game ended before '{prompt}'"
    return state.decision.options[0]


def _line(state: Any, words: str) -> str:
    return next(line for line in reversed(state.log) if words in line)


def _give_not_show(state: Any) -> int:
    """An answer that gives a card (rather than showing one) where it is asked."""
    assert state.decision is not None
    return 1 if state.decision.prompt == "Show a card instead of giving one" else 0


def test_a_card_stashed_from_a_private_hand_is_named_to_its_owner_alone(start: Start) -> None:
    state = start(3, 1)
    card = _until(state, "Stash")
    state.apply(0)
    line = _line(state, "Player 1 stash:")
    assert str(line) == f"  Player 1 stash: {card}"  # the game's record keeps it
    assert f"  Player 1 stash: {card}" in for_seat(state.log, 0)
    for seat in (1, 2):
        assert "  Player 1 stash: a card from their hand" in for_seat(state.log, seat)
        assert not any(card in said for said in for_seat(state.log, seat))


def test_a_card_given_is_named_to_the_giver_and_the_receiver_alone(start: Start) -> None:
    state = start(3, 1)
    _until(state, "Give a card to", _give_not_show)
    (card,) = state.view(0)["zones"]["hand of Player 1"]  # one card left: given as the only option
    state.apply(0)  # to Player 2, the first other player
    assert isinstance(_line(state, "Player 1 give:"), Secret)
    assert f"  Player 1 give: {card} (only option)" in for_seat(state.log, 0)
    assert f"  Player 1 give: {card} (only option)" in for_seat(state.log, 1)
    assert "  Player 1 give: a card from their hand (only option)" in for_seat(state.log, 2)


def test_a_card_shown_face_up_is_named_to_everyone(start: Start) -> None:
    state = start(3, 1)
    _until(state, "Show a card instead of giving one")
    (card,) = state.view(0)["zones"]["hand of Player 1"]  # one card left: shown as the only option
    state.apply(0)  # yes: show one
    line = _line(state, "Player 1 show:")
    assert type(line) is str
    assert line == f"  Player 1 show: {card} (only option)"


def test_a_choice_of_what_everyone_sees_is_a_plain_line(start: Start) -> None:
    state = start(3, 1)
    _until(state, "Give a card to", _give_not_show)
    state.apply(0)
    assert type(_line(state, "Player 1 give a card to:")) is str


# ------------------------------------------------------------------ the property, on random games


def _walk(game: meeple.Game, players: int, seed: int) -> State:
    """A random game, checked at every decision and at its end: each seat's log names only
    cards it has held or seen face up: what its view shows face up, looked at whenever a line is
    written (a card drawn and stashed as the only option is in the hand only then) and at every
    decision (a card given stays in the receiver's hand till its next turn)."""
    state = game.new_game(players, seed, run_setup=False)
    agents = make_agents(["random"], players, seed)
    known: list[set[str]] = [set() for _ in range(players)]

    def look() -> None:
        for seat in range(players):
            for contents in state.view(seat)["zones"].values():
                if isinstance(contents, dict) and "hidden" in contents:
                    known[seat] |= set(contents.get("seen", [])) | {contents.get("top") or ""}
                else:
                    known[seat] |= set(contents)

    write = state.rt.write

    def looking(line: str, *where: Any) -> None:
        look()
        write(line, *where)

    state.rt.write = looking  # type: ignore[method-assign]
    state.run(state.flow())
    while True:
        look()
        for seat in range(players):
            said = set(NAMED.findall("\n".join(for_seat(state.log, seat))))
            assert said <= known[seat], (seat, said - known[seat])
        if state.is_over:
            return state
        assert state.decision is not None
        state.apply(agents[state.decision.player.seat].choose(state, state.decision))


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), rules=st.sampled_from([STASH, LOOKOUT]))
def test_no_seat_s_log_names_a_card_it_never_held_saw_or_was_shown(
    players: int, seed: int, rules: Path
) -> None:
    """Over the test games with hands: Stash (choices that stay hidden, or not) and Lookout
    (`reveal`: a look at a hand, a peek at the deck, each shown to one seat)."""
    _walk(loaded(rules), players, seed)


def test_random_games_keep_some_choices_secret_and_tell_others() -> None:
    """The property above is not empty: random games stash in secret, and give and show."""
    lines = [line for seed in range(10) for line in _walk(loaded(STASH), 3, seed).log if " stash: " in line]
    lines += [line for seed in range(10) for line in _walk(loaded(STASH), 3, seed).log if " give: " in line]
    assert any(isinstance(line, Secret) and " stash: " in line for line in lines)
    assert any(isinstance(line, Secret) and len(line.readers) == 2 and " give: " in line for line in lines)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_a_replay_keeps_every_secret_choice(players: int, seed: int) -> None:
    state = _walk(loaded(STASH), players, seed)
    again = replay(loaded(STASH), players, seed, state.choices)
    assert _secrets(again.log) == _secrets(state.log)


def _secrets(lines: list[str]) -> list[tuple[str, object, str]]:
    return [(str(line), getattr(line, "readers", None), getattr(line, "others", "")) for line in lines]
