"""The engine remembers a value's answer until the position next changes (`Runtime.memo`). That
must never change a game: every statement that changes the position has to empty the memo, and
one that forgets would make rules read a stale answer. So: the same games, with the memo and with
a memo that remembers nothing, must be the same game, decision by decision."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter import runtime


class Forgetful(dict):  # type: ignore[type-arg]
    """A memo that never remembers: every value is computed again."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def play(name: str, players: int, seed: int, answers: int, forgetful: bool) -> list[Any]:
    game = meeple.load(name)
    state = game.new_game(players, seed=seed)
    if forgetful:
        state.rt.memo = Forgetful()
    rnd, trail = random.Random(answers), []
    while not state.is_over:
        decision = state.decision
        assert decision is not None
        trail.append((decision.player.seat, decision.prompt, list(decision.options)))
        state.apply(rnd.randrange(decision.size))
    return [trail, state.log, state.scores]


@pytest.mark.parametrize(
    ("name", "players"),
    [("dino_party", 3), ("gods_love_dinosaurs", 3), ("dino_garden", 3), ("dino_garden_solo", 1)],
)
@settings(deadline=None, max_examples=3)
@given(seed=st.integers(0, 2**32 - 1), answers=st.integers(0, 2**32 - 1))
def test_remembering_values_never_changes_a_game(name: str, players: int, seed: int, answers: int) -> None:
    assert play(name, players, seed, answers, True) == play(name, players, seed, answers, False)


def test_the_memo_is_emptied_when_the_position_changes() -> None:
    """A direct check on one game: after any decision, nothing remembered is stale."""
    game = meeple.load("dino_garden")
    state = game.new_game(3, seed=1)
    rnd = random.Random(1)
    assert isinstance(state.rt, runtime.Runtime)
    for _ in range(150):
        if state.is_over:
            break
        state.apply(rnd.randrange(state.decision.size))  # type: ignore[union-attr]
        for key, remembered in list(state.rt.memo.items()):
            name, *args = key
            params, fn = game.program.values[name]
            assert fn(state.rt, dict(zip(params, args, strict=True))) == remembered, key
