"""The engine remembers a value's answer until a part of the position it read changes
(`Runtime.memo`, `Runtime.reads`, `Runtime.changed`). That must never change a game: every
statement that changes the position has to say what it changed, and every expression that reads
the position has to say what it read; one that forgets makes rules read a stale answer. So: the
same games, with the memo and with a memo that remembers nothing, must be the same game, decision
by decision; and after every decision, every remembered answer must still be the answer."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter.compiler import Compiler, compile_program
from meeple.interpreter.runtime import Runtime

GAMES = [("dino_party", 3), ("gods_love_dinosaurs", 3), ("dino_garden", 3), ("dino_garden_solo", 1)]


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


@pytest.mark.parametrize(("name", "players"), GAMES)
@settings(deadline=None, max_examples=3)
@given(seed=st.integers(0, 2**32 - 1), answers=st.integers(0, 2**32 - 1))
def test_remembering_values_never_changes_a_game(name: str, players: int, seed: int, answers: int) -> None:
    assert play(name, players, seed, answers, True) == play(name, players, seed, answers, False)


def stale(game: meeple.Game, rt: Runtime) -> list[tuple[Any, ...]]:
    """The remembered answers that are no longer what the value gives now, computed afresh all
    the way down (the values it uses are computed again too, not taken from the memo)."""
    memo, wrong = rt.memo, []
    rt.memo = Forgetful()
    try:
        for key, remembered in list(memo.items()):
            name, *args = key
            params, fn = game.program.values[name]
            if fn(rt, dict(zip(params, args, strict=True))) != remembered:
                wrong.append(key)
    finally:
        rt.memo = memo
    return wrong


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_no_remembered_answer_is_stale_after_any_decision(name: str, players: int) -> None:
    """A direct check: after every decision of a game, each remembered answer is computed again
    from the position (outside the memo) and must be the same."""
    game = meeple.load(name)
    state = game.new_game(players, seed=1)
    rnd = random.Random(1)
    assert not stale(game, state.rt)
    while not state.is_over:
        state.apply(rnd.randrange(state.decision.size))  # type: ignore[union-attr]
        assert not stale(game, state.rt), f"after {len(state.choices)} decisions"


def test_a_change_reaches_the_answers_built_on_it() -> None:
    """Forgetting an answer forgets the answers that used it, however deep."""
    game = meeple.load("dino_garden")
    rt = game.new_game(3, seed=1).rt
    rt.remember(("inner",), 1, {"a_variable"})
    rt.remember(("middle",), 2, {("inner",)})
    rt.remember(("outer",), 3, {("middle",), "another_variable"})
    rt.remember(("unrelated",), 4, {"another_variable"})
    rt.changed("a_variable")
    assert ("inner",) not in rt.memo and ("middle",) not in rt.memo and ("outer",) not in rt.memo
    assert rt.memo[("unrelated",)] == 4


def test_moving_one_kind_keeps_answers_about_another_kind() -> None:
    """A value that asked only for the pieces of one kind at a location keeps its answer when
    pieces of another kind come or go there."""
    game = meeple.load("dino_garden")
    state = game.new_game(3, seed=1)
    rt = state.rt
    loc = next(iter(rt.locs))
    kinds = [k for group in game.program.kinds.values() for k in group]
    one, other = kinds[0], next(k for k in kinds if k.name != kinds[0].name)
    rt.remember(("about one",), 0, {(loc, one.name)})
    rt.remember(("about the place",), 0, {loc})
    rt.moved(loc, [(other, None)])
    assert ("about one",) in rt.memo
    assert ("about the place",) not in rt.memo
    rt.moved(loc, [(one, None)])
    assert ("about one",) not in rt.memo


def test_a_static_value_is_computed_once_per_arguments_in_every_game() -> None:
    """A value of fixed data (static) is remembered by the program: its calls look the answer up
    by the arguments and compute it only the first time, whichever game asks."""
    symbols = meeple.check("dino_garden").symbols
    assert symbols is not None
    program = compile_program(symbols)  # its own: a loaded game's Program is shared, never changed
    game = meeple.Game(program, "dino_garden")
    static = Compiler(program.symbols).static_values()
    assert static
    computed: list[tuple[Any, ...]] = []

    def counting(name: str, params: list[str], fn: Any) -> Any:
        def value(rt: Any, env: dict[str, Any]) -> Any:
            computed.append((name, *[env[p] for p in params]))
            return fn(rt, env)

        return value

    for name in static:
        params, fn = program.values[name]
        program.values[name] = (params, counting(name, params, fn))
    for seed in range(2):
        state = game.new_game(3, seed=seed, logging=False)
        rnd = random.Random(seed)
        while not state.is_over:
            state.apply(rnd.randrange(state.decision.size))  # type: ignore[union-attr]
    assert computed and len(computed) == len(set(computed))
