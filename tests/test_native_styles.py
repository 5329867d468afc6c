"""Styles played by an agent (`--agents STYLE`) and seats the rules play where actions are offered
(`offer`), on the native core (src/styles.rs, src/automata.rs) as on the Python engine
(docs/language.md#playing-styles; tests/test_styles.py and tests/test_seats.py have what they
mean).

An agent playing a style weighs each option by the style's lines (interpreter/styles.py) and
draws in proportion from its own generator, `random.Random(seed * 1000 + seat)`: on the core the
same weights, in the same floating-point operations, and the same draws, so a seed is the same
game on both engines, whether the agent answers from Python (`StyleAgent` asking the core for the
weights) or inside the core (`play_out`). A seat the rules play ranks an offered action with the
options, line by line, and takes it as a player would."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, native_or_skip, write
from test_native import load, outcome, played

from meeple import Game
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.simulation import engine_of

PACER = ROOT / "tests" / "games" / "pacer_race.rules"
RUNNER = ROOT / "tests" / "games" / "errand_runner.rules"


@pytest.fixture(autouse=True)
def built() -> None:
    native_or_skip()


@functools.cache
def game_of(path: Path, **options: str) -> Game:
    return load(path, **options)


def styled_both(game: Game, players: int, seed: int, style: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game played by agents of the style on each engine, decision by decision from Python."""
    styles = game.program.styles
    python = played(game.new_game(players, seed), make_agents([style], players, seed, styles))
    core = played(native.new_game(game, players, seed), make_agents([style], players, seed, styles))
    return python, core


def styled_inside(game: Game, players: int, seed: int, style: str) -> tuple[Any, Any]:
    """The same game played to its end by the Python engine's agents, and inside the core."""
    python = game.new_game(players, seed)
    played(python, make_agents([style], players, seed, game.program.styles))
    core = native.new_game(game, players, seed)
    core.play_out([style])
    return python, core


def weighed(game: Game, players: int, seed: int, style: str) -> int:
    """How many decisions of a game the style weighs unevenly, by the core's weights (checked
    equal to the Python engine's at each): a comparison of games where the style never speaks
    would not tell a style from a random player."""
    python, core = game.new_game(players, seed), native.new_game(game, players, seed)
    agents = make_agents([style], players, seed, game.program.styles)
    uneven = 0
    while not python.is_over:
        decision = python.decision
        weights = core.style_weights(style)
        assert weights == game.program.styles[style].weights(python.rt, decision)
        uneven += weights is not None and min(weights) != max(weights)
        choice = agents[decision.player.seat].choose(python, decision)
        python.apply(choice)
        core.apply(choice)
    return uneven


@pytest.mark.parametrize(("path", "style"), [(PACER, "pacing"), (RUNNER, "runner_style")])
def test_an_agent_playing_a_style_plays_the_same_game_on_both_engines(path: Path, style: str) -> None:
    """Every seat, prompt, option label and choice, the log, scores and winners; the weights of
    every decision; and the game played inside the core, at every player count."""
    game = game_of(path)
    assert engine_of(game, [style], "auto") == ("native", "")
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(8):
            python, core = styled_both(game, players, seed, style)
            assert core == python, f"{players} players, seed {seed}"
            python_state, core_state = styled_inside(game, players, seed, style)
            assert outcome(core_state) == outcome(python_state), f"{players} players, seed {seed}"
    assert weighed(game, game.min_players, 0, style) > 0


def test_a_seat_the_rules_play_ranks_an_offered_action_with_the_options() -> None:
    """Errand Runner: the Runner's style prefers running an errand (an action offered beside its
    decisions) while it has bought fewer than two coins; it takes it as a player would, the
    action's own decisions and the decision asked again after it, on both engines."""
    game = game_of(RUNNER)
    assert native.engine_for(game, "auto") == ("native", "")
    for players in range(1, 4):
        for seed in range(10):
            python, core = styled_both(game, players, seed, "random")
            assert core == python, f"{players} players, seed {seed}"
            python_state, core_state = styled_inside(game, players, seed, "random")
            assert outcome(core_state) == outcome(python_state), f"{players} players, seed {seed}"
    assert python["log"].count("  runner take points: run an errand") == 2


def test_a_style_that_breaks_is_the_same_error_at_the_same_place(tmp_path: Path) -> None:
    """A weight below 0 in a style an agent plays: the rules' error at the preference, on both
    engines, from Python and inside the core."""
    rules = PACER.read_text().replace(
        "prefer advance.n where n == 3 weight 2", "prefer advance.n weight 0 - n"
    )
    game = load(write(tmp_path, "pacer.rules", rules))
    python, core = styled_both(game, 1, 0, "pacing")
    assert "a weight of -" in python["error"] and core == python
    inside = native.new_game(game, 1, 0)
    with pytest.raises(RuleRuntimeError) as stopped:
        inside.play_out(["pacing"])
    assert str(stopped.value) == python["error"]


@pytest.mark.parametrize("players", [2, 3])
def test_gods_love_dinosaurs_played_by_hunters_is_the_same_game_on_both_engines(players: int) -> None:
    """Gods Love Dinosaurs' `hunter` style: conditions over routes, `yes` and `pass`."""
    game = game_of(ROOT / "games" / "gods_love_dinosaurs.rules")
    for seed in range(2):
        python_state, core_state = styled_inside(game, players, seed, "hunter")
        assert outcome(core_state) == outcome(python_state), f"{players} players, seed {seed}"
    assert weighed(game, players, 0, "hunter") > 0


@pytest.mark.parametrize("players", [3, 4])
def test_dino_garden_played_by_keepers_is_the_same_game_on_both_engines(players: int) -> None:
    """Dino Garden's `keeper` style: it avoids the free actions offered beside its decisions
    (`avoid offer free_actions`) unless a Milestone is open to it."""
    game = game_of(ROOT / "games" / "dino_garden.rules")
    for seed in range(2):
        python, core = styled_both(game, players, seed, "keeper")
        assert core == python, f"{players} players, seed {seed}"
        python_state, core_state = styled_inside(game, players, seed, "keeper")
        assert outcome(core_state) == outcome(python_state), f"{players} players, seed {seed}"
    assert weighed(game, players, 0, "keeper") > 0


@pytest.mark.soak  # whole games at a standard size: CI runs it, `-m soak` here
@pytest.mark.parametrize("players", [1, 2, 3])
def test_dino_dynasty_with_steady_players_against_the_stasis_is_the_same_game(players: int) -> None:
    game = game_of(ROOT / "games" / "dino_dynasty_stasis.rules", scenario="A")
    assert engine_of(game, ["steady_player"], "auto") == ("native", "")
    for seed in range(2):
        python_state, core_state = styled_inside(game, players, seed, "steady_player")
        assert outcome(core_state) == outcome(python_state), f"{players} players, seed {seed}"


# A style whose condition reads a variable's values for every row at once, which the core does
# not run yet (docs/architecture.md, "Not yet").
COUNTING = """
table lane (name):
  inner
  outer
var laps: int = 0 per player, lane

style counting:
  prefer advance.n where p.laps == p.laps weight n
"""


def test_a_style_the_core_cannot_run_keeps_its_agents_alone_on_python(tmp_path: Path) -> None:
    """The core refuses the style, not the game: a game played by another agent (or by the
    seats the rules play) still runs on it, and the style's agents play on Python, saying why
    and where; asked for the native engine, it is an error that says so."""
    game = load(write(tmp_path, "pacer.rules", PACER.read_text() + COUNTING))
    engine, why = engine_of(game, ["counting"], "auto")
    assert engine == "python"
    assert why.startswith("the style 'counting' uses what the native engine does not run: unsupported: ")
    assert "pacer.rules:52:" in why
    assert engine_of(game, ["pacing"], "auto") == ("native", "")
    assert engine_of(game, ["random"], "auto") == ("native", "")
    with pytest.raises(ValueError, match="the style 'counting'"):
        engine_of(game, ["counting"], "native")


@pytest.mark.soak  # many whole games of every bundled game with a style: CI runs it, `-m soak` here
@pytest.mark.parametrize(
    ("name", "style"),
    [
        ("gods_love_dinosaurs", "hunter"),
        ("dino_garden", "keeper"),
        ("dino_garden_2p", "keeper"),
        ("dino_garden_solo", "keeper"),
    ],
)
def test_every_bundled_style_plays_the_same_games_on_both_engines_at_every_player_count(
    name: str, style: str
) -> None:
    game = game_of(ROOT / "games" / f"{name}.rules")
    assert engine_of(game, [style], "auto") == ("native", "")
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(6):
            python_state, core_state = styled_inside(game, players, seed, style)
            assert outcome(core_state) == outcome(python_state), f"{players} players, seed {seed}"
