"""Playing styles: ways to play written in the rules (`style NAME:` with `prefer` and `avoid`
lines), for simulated players. Each option of a decision weighs 1; a preference whose condition
holds multiplies it by its weight (`prefer`) or divides it (`avoid`); the option is drawn in
proportion. What a style does not speak of stays random, exactly as a random player plays it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import meeple
from meeple import Game
from meeple.cli import app
from meeple.interpreter.agents import RandomAgent, StyleAgent, make_agents
from meeple.interpreter.agents import play as play_to_end
from tests.helpers import write

GAME = """game "Numbers":
  players 1..2

var total: int = 0 per player
counter threes per player
counter doubles per player
counter passes per player
counter extras per player

score p = p.total

rule extra(p: player):
  tally extras for p

rule take_number(p: player):
  choose n from [1, 2, 3] by p prompt "Number":
    add n to p.total
    if n == 3:
      tally threes for p
  may "Double?" by p:
    add 1 to p.total
    tally doubles for p
  may choose k from [1, 2] by p prompt "A bonus, or pass":
    add k to p.total
  else:
    tally passes for p

play:
  repeat 100 times:
    for each p in players:
      turn p:
        offer extra(p) to p as "an extra":
          take_number(p)

style {name}:
  called "Tester"
{lines}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("styles")


def game_with(folder: Path, *lines: str, name: str = "tester") -> Game:
    source = GAME.format(name=name, lines="\n".join(f"  {line}" for line in lines))
    return meeple.load(write(folder, f"style_{abs(hash(lines))}.rules", source))


def counted(game: Game, seed: int = 1, agents: tuple[str, ...] = ("tester",)) -> dict:
    state = game.new_game(1, seed=seed)
    play_to_end(state, make_agents(list(agents), 1, seed, game.program.styles))
    return {name: value[0] for name, value in state.counted().items()}


def test_a_preferred_option_is_taken_as_often_as_its_weight_says(folder: Path) -> None:
    """Weights 8, 1, 1: the 3 is taken 8 times in 10. Of 100 decisions, 80 or so (the binomial's
    spread is 4), at any rate between 68 and 92."""
    game = game_with(folder, "prefer take_number.n where n == 3 weight 8")
    assert 68 <= counted(game)["threes"] <= 92
    assert 20 <= counted(game, agents=("random",))["threes"] <= 47  # a random player: 1 in 3


def test_a_strong_preference_is_followed(folder: Path) -> None:
    game = game_with(folder, "prefer take_number.n where n == 3 weight 100000")
    assert counted(game)["threes"] == 100


def test_avoid_divides_and_several_preferences_multiply(folder: Path) -> None:
    """avoid 1 and 2 by 10 each: the 3 weighs 1 against 0.1 and 0.1, taken 5 times in 6."""
    game = game_with(folder, "avoid take_number.n where n < 3 weight 10")
    assert 75 <= counted(game)["threes"] <= 92


def test_yes_and_pass_and_offers_are_targets(folder: Path) -> None:
    game = game_with(
        folder,
        "prefer yes in take_number weight 100000",
        "avoid pass in take_number weight 100000",
        "avoid offer extra weight 100000",
    )
    result = counted(game)
    assert result["doubles"] == 100  # the yes of the `may "..."`
    assert result["passes"] == 0  # the pass of the `may choose` (the no of the ask is avoided too)
    assert result["extras"] == 0  # the offered action, beside every decision
    # Weight 4 against the 3 numbers: taken 4 times in 7 at each decision, and offered again after
    # each time it is taken, so about 1.3 times a decision (some 400 times in 300 decisions).
    taken = counted(game_with(folder, "prefer offer extra weight 4"))
    assert 250 < taken["extras"] < 600


def test_a_condition_reads_the_names_the_asking_statement_sees(folder: Path) -> None:
    """`p` is the rule's parameter there; the style prefers a 3 only once the player has 50."""
    game = game_with(folder, "prefer take_number.n where n == 3 and p.total >= 50 weight 100000")
    state = game.new_game(1, seed=3)
    play_to_end(state, make_agents(["tester"], 1, 3, game.program.styles))
    assert 0 < state.counted()["threes"][0] < 100


def test_a_style_that_speaks_of_nothing_asked_plays_as_a_random_player(folder: Path) -> None:
    game = game_with(folder, "prefer take_number.n where n == 3 and p.total < 0")  # never true
    games = []
    for agent in (StyleAgent(game.program.styles["tester"], 7), RandomAgent(7)):
        state = game.new_game(1, seed=7)
        play_to_end(state, [agent])
        games.append(state.choices)
    assert games[0] == games[1]


def test_a_game_played_in_a_style_replays_exactly(folder: Path) -> None:
    game = game_with(folder, "prefer take_number.n where n == 3 weight 8", "prefer yes in take_number")
    state = game.new_game(1, seed=5)
    play_to_end(state, make_agents(["tester"], 1, 5, game.program.styles))
    again = meeple.replay(game, 1, 5, state.choices)
    assert (again.scores, again.counted()) == (state.scores, state.counted())


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("prefer take_numbr.n", "unknown rule 'take_numbr'"),
        ("prefer take_number.m", "has no 'choose m'"),
        ("prefer yes in extra", "has no 'may"),
        ("avoid pass in extra", "nothing to pass"),
        ("avoid offer take_number", "never offer 'take_number'"),
        ("prefer take_number.n where n", "must be yes/no"),
        ("prefer take_number.n weight yes", "must be a number"),
    ],
    ids=["unknown rule", "no such choice", "no ask", "nothing to pass", "not offered", "condition", "weight"],
)
def test_a_preference_that_fits_no_decision_is_refused_where_it_stands(
    folder: Path, line: str, words: str
) -> None:
    source = GAME.format(name="tester", lines=f"  {line}")
    errors = [
        d for d in meeple.check(write(folder, "bad.rules", source)).diagnostics if d.severity == "error"
    ]
    assert len(errors) == 1 and words in errors[0].message
    assert errors[0].line == source.splitlines().index(f"  {line}") + 1


def test_a_style_may_not_take_a_built_in_players_name(folder: Path) -> None:
    source = GAME.format(name="random", lines="  prefer take_number.n")
    errors = [
        d for d in meeple.check(write(folder, "named.rules", source)).diagnostics if d.severity == "error"
    ]
    assert [e.code for e in errors] == ["M011"]


def test_a_weight_below_its_least_is_a_broken_game_with_its_place(folder: Path) -> None:
    path = write(
        folder, "minus.rules", GAME.format(name="tester", lines="  prefer take_number.n weight 0 - n")
    )
    result = CliRunner().invoke(app, ["simulate", str(path), "--games", "2", "--agents", "tester", "--json"])
    assert result.exit_code == 1
    (first, _) = json.loads(result.stdout)["unfinished"]
    assert "a weight of -1" in first["error"] and "minus.rules:" in first["error"]


def test_the_command_line_names_styles_as_agents(folder: Path) -> None:
    path = str(
        write(folder, "cli.rules", GAME.format(name="tester", lines="  prefer take_number.n where n == 3"))
    )
    played = CliRunner().invoke(app, ["play", path, "--agents", "tester", "--json"])
    assert played.exit_code == 0
    unknown = CliRunner().invoke(app, ["simulate", path, "--games", "2", "--agents", "testr"])
    assert unknown.exit_code == 2 and "tester" in unknown.stderr  # the known agents, styles among them


def test_the_dino_garden_keeper_keeps_its_dinosaurs_and_feeds_its_carnivores() -> None:
    """Random players send dinosaurs to the Wasteland again and again and never feed a carnivore;
    the Keeper (games/dino_garden.rules) hardly ever sends one and does feed them."""
    runs = {}
    for agents in ("random", "keeper"):
        args = ["simulate", "dino_garden", "--games", "12", "--players", "3", "--agents", agents, "--json"]
        runs[agents] = json.loads(CliRunner().invoke(app, args).stdout)["figures"]
    sent = {a: sum(s["mean"] for s in f["counter_dinosaurs_to_wasteland"]) for a, f in runs.items()}
    eaten = {a: sum(s["mean"] for s in f["counter_meat_eaten"]) for a, f in runs.items()}
    assert sent["keeper"] < 0.5 < 4 < sent["random"]
    assert eaten["keeper"] > eaten["random"]
    scores = {a: sum(s["mean"] for s in f["score"]) for a, f in runs.items()}
    assert scores["keeper"] > scores["random"]
