"""Many playouts in one call into the native core (`native.playouts`, src/playouts.rs): each is
the game the same seed plays one by one (`native.new_game` then `play_out`), and the game the
Python engine's agents play, though every game is a copy of a start prepared once: laid out
once, and, where nothing is drawn before the first decision, run to it once.

These tests skip when the core is not built; CI sets $MEEPLE_REQUIRE_NATIVE, which makes that
skip a failure."""

from __future__ import annotations

import gc
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, native_or_skip, write

import meeple
from meeple import Game
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.agents import play as play_to_end
from meeple.interpreter.agents import playouts as python_playouts


@pytest.fixture(autouse=True)
def built() -> None:
    native_or_skip()


GAMES = ROOT / "tests" / "games"
# (rules, options, players, agents, teams): chance before the first decision or not (Dino Party
# deals and shuffles in setup: each game runs from the start laid out), styles, seats the rules
# play, teams.
CASES: list[tuple[Path, dict[str, str], int, tuple[str, ...], list[list[int]] | None]] = [
    (GAMES / "tic_tac_toe.rules", {}, 2, ("random",), None),
    (GAMES / "connect_four.rules", {}, 2, ("random", "first"), None),
    (GAMES / "hex.rules", {"size": "5"}, 2, ("random",), None),
    (GAMES / "call_the_die.rules", {}, 2, ("random",), None),
    (ROOT / "games" / "dino_party.rules", {}, 3, ("random",), None),
    (GAMES / "errand_runner.rules", {}, 2, ("runner_style", "random"), None),
    (GAMES / "tug_teams.rules", {}, 4, ("random",), [[0, 2], [1, 3]]),
]


def one_by_one(game: Game, players: int, seed: int, agents: tuple[str, ...], teams: Any) -> tuple[Any, ...]:
    """What a game played inside the core, alone, comes to."""
    state = native.new_game(game, players, seed, logging=False, teams=teams)
    state.play_out(list(agents))
    return (state.choices, state.turns, state.steps, state.scores, state.tiebreaks, state.winners)


@pytest.mark.parametrize(("rules", "options", "players", "agents", "teams"), CASES)
def test_playouts_in_one_call_are_the_games_played_one_by_one(
    rules: Path, options: dict[str, str], players: int, agents: tuple[str, ...], teams: Any
) -> None:
    game = meeple.load(str(rules), options)
    played = native.playouts(game, 12, seed=5, players=players, agents=agents, teams=teams)
    assert [p.seed for p in played] == list(range(5, 17))
    for p in played:
        assert p.error is None
        mine = (p.choices, p.turns, p.steps, p.scores, p.tiebreaks, p.winners)
        assert mine == one_by_one(game, players, p.seed, agents, teams)


@pytest.mark.parametrize(("rules", "options", "players", "agents", "teams"), CASES[:5])
def test_playouts_in_one_call_are_the_python_engines_games(
    rules: Path, options: dict[str, str], players: int, agents: tuple[str, ...], teams: Any
) -> None:
    game = meeple.load(str(rules), options)
    played = native.playouts(game, 8, players=players, agents=agents, teams=teams)
    python = python_playouts(game, 8, players=players, agents=agents, teams=teams)
    for p, state in zip(played, python, strict=True):
        assert (p.choices, p.turns, p.scores, p.winners) == (
            state.choices,
            state.turns,
            state.scores,
            state.winners,
        )


@pytest.mark.parametrize(("rules", "options", "players", "agents", "teams"), CASES)
def test_playouts_from_one_stream_are_the_python_engines_games_from_that_stream(
    rules: Path, options: dict[str, str], players: int, agents: tuple[str, ...], teams: Any
) -> None:
    """With `stream`, both engines draw the games from one stream from the seed (the chance
    generator and the agents made once, each game going on from where the one before left
    them): the same games, game after game, the first the game of the seed alone."""
    game = meeple.load(str(rules), options)
    played = native.playouts(game, 8, seed=3, players=players, agents=agents, teams=teams, stream=True)
    python = python_playouts(game, 8, seed=3, players=players, agents=agents, teams=teams, stream=True)
    assert [(p.choices, p.turns, p.scores, p.winners) for p in played] == [
        (s.choices, s.turns, s.scores, s.winners) for s in python
    ]
    assert all(p.error is None and p.seed == 3 for p in played)
    mine = (played[0].choices, played[0].turns, played[0].steps, played[0].scores, played[0].winners)
    alone = one_by_one(game, players, 3, agents, teams)
    assert mine == alone[:4] + alone[5:]


def test_a_stream_of_games_goes_on_where_games_of_their_own_seeds_start_again() -> None:
    """A stream's games after the first are not the games of any seed played alone: their
    generators were never seeded again. On the Python engine too."""
    game = meeple.load(str(GAMES / "call_the_die.rules"))
    stream = [p.choices for p in native.playouts(game, 12, players=2, stream=True)]
    seeded = [p.choices for p in native.playouts(game, 12, players=2)]
    assert stream[0] == seeded[0] and stream != seeded
    assert [s.choices for s in python_playouts(game, 12, players=2)] == seeded


def test_a_search_plays_no_stream_of_games() -> None:
    """A search copies its game from the game's seed, which a stream's later games do not
    replay from: both engines refuse it, before any game."""
    game = meeple.load(str(GAMES / "tic_tac_toe.rules"))
    with pytest.raises(ValueError, match="no stream"):
        native.playouts(game, 2, agents=("mcts:10",), stream=True)
    with pytest.raises(ValueError, match="no stream"):
        python_playouts(game, 2, players=2, agents=("random", "mcts:10"), stream=True)


# The cases whose seats all play at random (those that can draw from one generator), Connect
# Four's among them.
RANDOM_CASES = [(CASES[1][0], {}, 2, ("random",), None)] + [
    case for case in CASES if set(case[3]) == {"random"}
]
# The games that draw no chance: a loop that makes each game afresh from the seed plays a
# stream's games only where the game's own chance draws nothing.
NO_CHANCE = {"tic_tac_toe.rules", "connect_four.rules", "hex.rules"}


def looped(game: Game, players: int, seeds: range, teams: Any, rng: random.Random | None = None) -> list[Any]:
    """The games of the loop `rng = Random(seed); while not over: apply(rng.randrange(size))` on
    the Python engine, a game a seed (or each of them from the one `rng` given): their choices,
    turns, scores and winners."""
    out = []
    for seed in seeds:
        state = game.new_game(players, seed, logging=False, teams=teams)
        draws = rng or random.Random(seed)
        while not state.is_over:
            state.apply(draws.randrange(state.decision.size))
        out.append((state.choices, state.turns, state.scores, state.winners))
    return out


@pytest.mark.parametrize(("rules", "options", "players", "agents", "teams"), RANDOM_CASES)
def test_playouts_drawn_from_one_generator_a_game_are_the_games_of_a_loop_drawing_from_its_seed(
    rules: Path, options: dict[str, str], players: int, agents: tuple[str, ...], teams: Any
) -> None:
    """With `draw="game"`, a game of seed s draws every seat's answers from one `Random(s)`,
    `randrange(decision size)` each: on both engines, the games of that loop, not those of a
    generator a seat."""
    game = meeple.load(str(rules), options)
    seeds = range(5, 15)
    played = native.playouts(game, 10, seed=5, players=players, teams=teams, draw="game")
    python = python_playouts(game, 10, seed=5, players=players, teams=teams, draw="game")
    loop = looped(game, players, seeds, teams)
    assert [(p.choices, p.turns, p.scores, p.winners) for p in played] == loop
    assert [(s.choices, s.turns, s.scores, s.winners) for s in python] == loop
    assert [p.seed for p in played] == list(seeds) and all(p.error is None for p in played)
    by_seat = native.playouts(game, 10, seed=5, players=players, teams=teams)
    assert [p.choices for p in by_seat] != [p.choices for p in played]


@pytest.mark.parametrize(("rules", "options", "players", "agents", "teams"), RANDOM_CASES)
def test_a_stream_drawn_from_one_generator_is_the_same_stream_on_both_engines(
    rules: Path, options: dict[str, str], players: int, agents: tuple[str, ...], teams: Any
) -> None:
    """With `draw="game"` and `stream`, one generator seeded once draws every seat's answers of
    every game, the game's chance going on too: the same games on both engines, the first the
    game of the seed drawn alone; where the game draws no chance, those of a loop drawing every
    game's answers from one `Random(seed)`."""
    game = meeple.load(str(rules), options)
    played = native.playouts(game, 8, seed=3, players=players, teams=teams, stream=True, draw="game")
    python = python_playouts(game, 8, seed=3, players=players, teams=teams, stream=True, draw="game")
    mine = [(p.choices, p.turns, p.scores, p.winners) for p in played]
    assert mine == [(s.choices, s.turns, s.scores, s.winners) for s in python]
    assert mine[0] == looped(game, players, range(3, 4), teams)[0]
    if rules.name in NO_CHANCE:
        assert mine == looped(game, players, range(3, 11), teams, random.Random(3))
        assert all(p.seed == 3 and p.error is None for p in played)


def test_only_random_agents_draw_from_one_generator_and_draw_is_seat_or_game() -> None:
    """Another agent cannot share the one generator, and `draw` is "seat" or "game": both
    engines, and the core asked directly, refuse before any game."""
    game = meeple.load(str(GAMES / "tic_tac_toe.rules"))
    for amiss in [{"agents": ("random", "first")}, {"agents": ("mcts:10",)}, {"draw": "dice"}]:
        asked = {"draw": "game", **amiss}
        with pytest.raises(ValueError, match=r"random agents|seat"):
            native.playouts(game, 2, players=2, **asked)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"random agents|seat"):
            python_playouts(game, 2, players=2, **asked)  # type: ignore[arg-type]
    core = native.lowered(game, 2)[1]
    for agents, draw in [(["random", "first"], "game"), (["random"], "dice")]:
        with pytest.raises(ValueError, match=r"random agents|seat"):
            core.playouts(2, (0, 2), agents, 1000, None, False, draw)


def test_a_playout_stopped_by_the_rules_carries_the_python_engines_error(tmp_path: Path) -> None:
    """An error in the rules stops that game alone, with the error the Python engine raises
    there, word for word; the step budget too."""
    rules = write(
        tmp_path,
        "broken.rules",
        'game "Broken":\n  players 2..2\nzone pool\nvar n: int = 0\ntable pick (name):\n  a\n  b\n'
        'play:\n  turn players[0]:\n    choose c from pick by players[0] prompt "Pick":\n'
        "      if c == b:\n        set n to [1, 2][n + 5]\n",
    )
    game = meeple.load(str(rules))
    played = native.playouts(game, 10, players=2)
    broken = [p for p in played if p.error is not None]
    assert broken and len(broken) < len(played)  # the answer b breaks, a does not
    for p in broken:
        state = game.new_game(2, p.seed, logging=False)
        with pytest.raises(meeple.RuleRuntimeError) as python:
            play_to_end(state, make_agents(["random"], 2, p.seed))
        assert str(p.error) == str(python.value)
        assert (p.scores, p.winners) == ([], [])
    endless = write(
        tmp_path,
        "endless.rules",
        'game "Endless":\n  players 1..1\nzone pool\nvar n: int = 0\n'
        "play:\n  while n == 0:\n    set n to 0\n",
    )
    (out,) = native.playouts(meeple.load(str(endless)), 1, players=1, budget=1000)
    assert "step budget (1000) ran out" in str(out.error)


def test_a_playouts_record_is_one_object_the_collector_does_not_track() -> None:
    """Each game's record is one object holding no container CPython's cyclic collector tracks
    (a tuple and four lists a game set it off over the whole heap, again and again, in a
    benchmark's thousands of playouts); its fields are made when read, a new list each time."""
    game = meeple.load(str(GAMES / "tic_tac_toe.rules"))
    played = native.playouts(game, 3, players=2)
    assert not any(gc.is_tracked(p) for p in played)
    first = played[0]
    assert first.choices == first.choices and first.choices is not first.choices
    assert repr(first).startswith(f"Playout(seed=0, {len(first.choices)} choices, turns=")


def test_playouts_asked_amiss_are_refused_before_any_game_is_played() -> None:
    game = meeple.load(str(GAMES / "tic_tac_toe.rules"))
    for amiss in [
        {"games": -1},
        {"games": 2, "players": 3},
        {"games": 2, "seed": -1},
        {"games": 2, "agents": ("nobody",)},
        {"games": 2, "agents": ()},
        {"games": 2, "budget": 0},
    ]:
        with pytest.raises(ValueError):
            native.playouts(game, **amiss)
    assert native.playouts(game, 0) == []


@pytest.mark.parametrize("name", ["call_the_die", "tic_tac_toe", "errands"])
def test_new_game_starts_each_seed_as_a_program_that_started_no_other_game(name: str) -> None:
    """`new_game` makes each game as a copy of a start prepared for games of its settings (the
    first game's, at its first decision, where it drew nothing): the same game, log included,
    as a program that started that seed alone makes."""

    def games(seeds: list[int]) -> dict[int, tuple[Any, ...]]:
        game = meeple.load(str(GAMES / f"{name}.rules"))
        game.program.native = None  # loaded into the core afresh: no start prepared yet
        out = {}
        for seed in seeds:
            state = native.new_game(game, 2, seed)
            state.play_out(["random"])
            out[seed] = (state.choices, state.log, state.steps, state.scores, state.winners)
        return out

    alone = {seed: games([seed])[seed] for seed in range(12)}
    assert games(list(range(12))) == alone
