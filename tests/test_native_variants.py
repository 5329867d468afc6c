"""The mechanisms of the Dino Dynasty variants on the native core mean what they mean on the
Python engine (docs/architecture.md, "The native engine"), each checked alone on a neutral test
game, then on the bundled variant: the same decisions offered, the same choices, log, scores and
winners on both engines, several seeds per player count, whole games played inside the core, and
a copy taken mid-game finishing the same.

Teams (docs/language.md#teams): the layout is chosen when a game starts, `team(p)` and
`teammates(p)` read it, and every member of the best team wins (interpreter/teams.py, which the
core's src/teams.rs follows). `swap X with Y`: lowered to two reads and two sets. `as_if_moved`
(src/supposed.rs) and `fewest_steps` of a movement with a `step` line (src/steps.rs). Carried
state (`carry`: a game started from a save, and its save; interpreter/native/carried.py,
src/carry.rs), sequences of games (`sequence`: NativeSequence) and `shift` (src/shift.rs), then
Dino Dynasty's Dynasty game and Campaign."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, SWAPPED, ring_map, run, write
from test_carry import DOES_NOT_FIT, save_data
from test_native import (  # noqa: F401 (built: the fixture that skips, or fails, without the core)
    both,
    built,
    load,
    outcome,
    played,
    played_out_both,
    same_on_both_engines,
)

from meeple import Game
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.saves import SaveError, save_text
from meeple.simulation import Plan, play_one

TUG = ROOT / "tests" / "games" / "tug_teams.rules"

# Layouts of tug_teams (teams of 1..2) at each player count, seats from 0; None: all alone.
LAYOUTS: list[tuple[int, list[list[int]] | None]] = [
    (2, None),
    (2, [[0, 1]]),
    (3, [[0, 2], [1]]),
    (4, [[0, 2], [1, 3]]),
    (4, [[3], [1, 2], [0]]),
    (5, [[0, 3], [1, 4], [2]]),
    (6, [[0, 3], [1, 4], [2, 5]]),
]


@functools.cache
def tug() -> Game:
    return load(TUG)


@pytest.mark.parametrize(("players", "teams"), LAYOUTS)
def test_a_game_in_teams_is_the_same_game_on_both_engines(
    players: int, teams: list[list[int]] | None
) -> None:
    """`team(p)` orders the turns and decides who is a rival, `teammates(p)` is logged, a team
    scores together and wins together (tests/test_teams.py has what each means)."""
    game = tug()
    assert native.engine_for(game, "auto") == ("native", "")
    for seed in range(8):
        python, core = both(game, players, seed, teams)
        assert core == python, f"{players} players in {teams}, seed {seed}"
    state = native.new_game(game, players, 0, teams=teams)
    assert (state.layout, state.teams) == (game.new_game(players, 0, teams=teams).layout, state.teams)


@pytest.mark.parametrize(("players", "teams"), LAYOUTS)
def test_a_game_in_teams_played_inside_the_core_is_the_python_agents_game(
    players: int, teams: list[list[int]] | None
) -> None:
    for seed in range(4):
        python, core = played_out_both(tug(), players, seed, "random", teams)
        assert outcome(core) == outcome(python), f"{players} players in {teams}, seed {seed}"


def test_a_copy_of_a_game_in_teams_taken_mid_game_finishes_as_the_game_does() -> None:
    """The layout is part of the game: a copy plays on in the same teams (whom `team(p)` names,
    who wins), and the Python engine, given the same choices, ends the same."""
    game, teams = tug(), [[0, 2], [1, 3]]
    whole = native.new_game(game, 4, 5, teams=teams)
    whole.play_out(["random"])
    half = whole.choices[: len(whole.choices) // 2]
    state = native.new_game(game, 4, 5, teams=teams)
    for choice in half:
        state.apply(choice)
    copy = state.clone()
    assert copy.core == state.core
    rest = whole.choices[len(half) :]
    python = game.new_game(4, 5, teams=teams)
    for choice in half + rest:
        python.apply(choice)
    for choice in rest:
        copy.apply(choice)
    assert outcome(copy) == outcome(whole) == outcome(python)
    assert len(state.choices) == len(half)  # the original did not move on with its copy


def test_a_team_wins_together_on_the_core(tmp_path: Path) -> None:
    """The winners are every member of the team whose best member is best (interpreter/
    teams.py's `winners`): with each player scoring alone, teams 1+3 and 2+4 still win whole,
    never a seat alone, as on the Python engine."""
    alone = TUG.read_text().replace(
        "score p = sum([count(pieces(q.pile)) for each q in team(p)])", "score p = count(pieces(p.pile))"
    )
    game, teams = load(write(tmp_path, "tug_alone.rules", alone)), [[0, 2], [1, 3]]
    seen, apart = set(), 0
    for seed in range(12):
        python, core = played_out_both(game, 4, seed, "random", teams)
        assert outcome(core) == outcome(python)
        apart += core.scores[0] != core.scores[2] or core.scores[1] != core.scores[3]
        seen.add(tuple(core.winners))
    assert apart > 6  # team-mates scored apart in most games
    assert seen <= {(0, 2), (1, 3), (0, 1, 2, 3)} and {(0, 2), (1, 3)} <= seen


def test_simulate_records_a_game_in_teams_alike_on_both_engines() -> None:
    teams = ((0, 2), (1, 3))
    for seed in range(4):
        records = [
            play_one(tug(), Plan(str(TUG), 4, ("random",), (), teams=teams, engine=engine), seed)
            for engine in ("python", "native")
        ]
        assert records[0] == records[1] and records[0]["teams"] == [[0, 2], [1, 3]]


def test_a_layout_that_does_not_fit_is_refused_on_the_core_as_on_python() -> None:
    with pytest.raises(ValueError, match="Player 2 is in a team twice"):
        native.new_game(tug(), 4, 0, teams=[[0, 1], [1, 2], [3]])
    with pytest.raises(ValueError, match="is in no team"):
        native.new_game(tug(), 4, 0, teams=[[0, 1]])


def test_searching_players_share_a_teams_victory() -> None:
    """MCTS rewards every member of the winning team (src/mcts.rs): the search of a seat whose
    teammate wins counts it a win. Played inside the core and through agents.py alike."""
    game, teams = tug(), [[0, 2], [1, 3]]
    outside = native.new_game(game, 4, 1, teams=teams)
    played(outside, make_agents(["mcts:20", "random"], 4, 1))
    inside = native.new_game(game, 4, 1, teams=teams)
    inside.play_out(["mcts:20", "random"])
    assert outcome(inside) == outcome(outside)


# ---------------------------------------------------------------------- the Team game


@functools.cache
def dino_dynasty_teams(scenario: str) -> Game:
    return load(ROOT / "games" / "dino_dynasty_teams.rules", scenario=scenario)


@pytest.mark.parametrize(("players", "teams"), [(3, [[0], [1, 2]]), (4, [[0, 2], [1, 3]]), (4, None)])
def test_dino_dynasty_in_teams_is_the_same_game_on_both_engines(
    players: int, teams: list[list[int]] | None
) -> None:
    """Dino Dynasty's Team game (rulebook "Team Game" under "Game Variants": team-mates never
    Attack each other, share Biomes, Compete together, win the Challenge cards and the game
    together), on a 4 x 4 Map (scenario A) to keep it quick."""
    game = dino_dynasty_teams("A")
    assert native.engine_for(game, "auto") == ("native", "")
    python, core = both(game, players, players, teams)
    assert core == python, f"{players} players in {teams}"


@pytest.mark.soak  # whole games at the standard size: CI runs it, `-m soak` here
@pytest.mark.parametrize("scenario", ["A", "C"])
def test_dino_dynasty_in_teams_is_the_same_game_on_both_engines_at_its_sizes(scenario: str) -> None:
    game = dino_dynasty_teams(scenario)
    layouts: list[tuple[int, Any]] = [(2, [[0, 1]]), (3, [[0], [1, 2]]), (4, [[0, 2], [1, 3]])]
    layouts += [(5, [[0, 3], [1, 4], [2]]), (6, [[0, 3], [1, 4], [2, 5]])]
    for players, teams in layouts:
        for seed in range(3):
            python, core = both(game, players, seed, teams)
            assert core == python, f"scenario {scenario}, {players} players in {teams}, seed {seed}"
    for seed in range(2):
        python_state, core_state = played_out_both(game, 4, seed, "random", [[0, 2], [1, 3]])
        assert outcome(core_state) == outcome(python_state)


# ---------------------------------------------------------------------- swap

SWAPPING = (
    """\
game "Swapping":
  players 2..3

"""
    + SWAPPED
    + """\

play:
  repeat 4 times:
    for each p in players:
      turn p:
        choose k from [1, 2, 3, 4, 5] by p prompt "Which swap?":
          add k to p.seat
          set p.worth[far] to p.worth[far] + k
          if k == 1:
            swap first with second
          elif k == 2:
            swap low with second
          elif k == 3:
            set p.mark to far
            swap p.seat with next_player(p).seat
            swap p.mark with next_player(p).mark
          elif k == 4:
            swap leader with trailer
          else:
            swap p.worth[near] with p.worth[far]
          log "{p}: {first}, {second}, {low}, {leader}, {p.seat}, {p.mark}, {p.worth[near]}, {p.worth[far]}"

score p = p.seat + p.worth[near] + (if leader == p then first else low)
"""
)


def test_a_swap_is_the_same_on_both_engines(tmp_path: Path) -> None:
    """`swap X with Y` (docs/language.md, "Changing variables"; tests/test_swap.py has what it
    means): variables of the game, a player's, one row's of a variable per player and row, each
    kept within its range, both read before either changes."""
    game = load(write(tmp_path, "swapping.rules", SWAPPING))
    same_on_both_engines(game, 10)


# ---------------------------------------------------------------------- look-ahead and distance

# a - b - c
# |       |
# e ----- d        f
RING_WALK = (
    """\
game "Ring walk":
  players 2..3

"""
    + ring_map("f")
    + """\

zone purse per player
zone pot
piece rock: 4 in pot
piece flag: 3 in pot
piece coin: 3 per player in purse

movement walk():
  steps 1
  step s to neighbours(s)
  through s where count(pieces(s, rock)) == 0

movement jump(far: bool):
  steps 1
  step s to neighbours(s) + (if far then [each x in spot where x != s] else [])
  ends s where count(pieces(s, rock)) == 0

value flagged() = [each s in spot where count(pieces(s, flag)) > 0]
value to_flag(origin: spot) = fewest_steps(origin, flagged(), walk)
value far_to_flag(origin: spot, far: bool) = fewest_steps(origin, flagged(), jump, far)
value broke(q: player) = count(pieces(q.purse, coin)) == 0
value would_break(q: player) = as_if_moved(pieces(q.purse), pot, broke(q))
value half_would_break(q: player) = as_if_moved(pieces(q.purse)[0], pot, broke(q))

play:
  repeat 3 times:
    for each p in players:
      turn p:
        choose s from spot by p prompt "Where does a rock go?":
          move 1 rock from pot to s
        choose s from spot by p prompt "Where does a flag go?":
          move 1 flag from pot to s
        log "{p}: {to_flag(a)}, {to_flag(c)}, {far_to_flag(f, yes)}, {far_to_flag(f, no)}, {would_break(p)}"
        if count(pieces(p.purse)) > 0 and not half_would_break(p):
          may "Put a coin in the pot?" by p:
            move pieces(p.purse)[0] to pot
        log "{as_if_moved(pieces(p.purse), pot, count(pieces(pot)))}"
        log "{as_if_moved(pieces(pot, rock), a, to_flag(b))}"

score p = count(pieces(p.purse, coin)) + (if to_flag(a) == none then 0 else to_flag(a))
"""
)


def test_a_look_ahead_and_the_fewest_steps_are_the_same_on_both_engines(tmp_path: Path) -> None:
    """`as_if_moved(PIECES, PLACE, X)` (docs/language.md, "Look-ahead"; tests/test_as_if_moved.py):
    X as it would be were the pieces moved, nothing moving, the values remembered those of the
    real position; `fewest_steps(START, PLACES, MOVEMENT, ARGS...)` of a movement whose `step`
    line says where a step goes (tests/test_fewest_steps.py): around the ring past rocks, to
    none when no flag can be reached, 0 from a flag's spot."""
    game = load(write(tmp_path, "ring_walk.rules", RING_WALK))
    python = same_on_both_engines(game, 12)
    assert any(", none, " in line for line in python["log"])  # a flag cut off, on some seed


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("as_if_moved(pieces(p.purse) + pieces(p.purse), pot, 0)", "named twice"),
        ("as_if_moved(pieces(p.purse), [pot], 0)", "to one place"),
        ("as_if_moved([p], pot, 0)", "only pieces can move"),
        ("fewest_steps(a, [[a]], walk)", "counts to places"),
    ],
)
def test_a_look_ahead_or_a_distance_refused_is_an_error_on_both_engines(
    tmp_path: Path, value: str, said: str
) -> None:
    """A piece named twice, a list for the place, something other than pieces, places that are
    lists: the rule's error at the call on both engines, nothing moved, never a crash."""
    rules = (
        RING_WALK[: RING_WALK.index("play:")] + f'play:\n  for each p in players:\n    log "{{{value}}}"\n'
    )
    game = load(write(tmp_path, "refused.rules", rules))
    with pytest.raises(RuleRuntimeError) as python:
        game.new_game(2, 0)
    with pytest.raises(RuleRuntimeError) as core:
        native.new_game(game, 2, 0)
    assert said in str(python.value) and str(core.value) == str(python.value)  # the call's place


# ---------------------------------------------------------------------- seats the rules play

PACER = ROOT / "tests" / "games" / "pacer_race.rules"


def test_a_seat_the_rules_play_is_the_same_on_both_engines() -> None:
    """`automated pacer plays pacing` (docs/language.md#automated-seats; tests/test_seats.py has
    what it means): the Pacer sits after the players, is never asked, takes the best option by
    its style's lines read in order (a tie drawn from the game's generator), and its answers are
    logged but are no choices; `automated(p)` tells it from the players."""
    game = load(PACER)
    python = same_on_both_engines(game, 12)
    assert any(line.startswith("  the Pacer how many stones?") for line in python["log"])
    for players in range(1, 4):
        for seed in range(4):
            python_state, core_state = played_out_both(game, players, seed, "random")
            assert outcome(core_state) == outcome(python_state)
            assert core_state.seats == players + 1 and len(core_state.scores) == players + 1


def test_a_copy_of_a_game_with_a_seat_the_rules_play_finishes_as_the_game_does() -> None:
    game = load(PACER)
    whole = native.new_game(game, 2, 3)
    whole.play_out(["random"])
    half = whole.choices[: len(whole.choices) // 2]
    state = native.new_game(game, 2, 3)
    for choice in half:
        state.apply(choice)
    copy = state.clone()
    for choice in whole.choices[len(half) :]:
        copy.apply(choice)
    assert outcome(copy) == outcome(whole)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("automated pacer plays pacing", "automated pacer"), "it plays no style"),
        (("  avoid yes in advance weight 100\n", ""), "its style 'pacing' says nothing of this decision"),
        (("prefer advance.k weight k", "prefer advance.k weight k - 2"), "a weight of -1"),
    ],
)
def test_a_decision_a_seat_the_rules_play_cannot_make_is_the_same_error_on_both_engines(
    tmp_path: Path, change: tuple[str, str], said: str
) -> None:
    """No style, a style silent on a decision, a weight below 0: the rules' error, word for word,
    at the same place on both engines (seats.py), never a quiet first option."""
    rules = PACER.read_text().replace(*change)
    game = load(write(tmp_path, "pacer.rules", rules))
    for seed in range(3):
        python, core = both(game, 1, seed)
        assert core == python and said in python["error"]


# ---------------------------------------------------------------------- the Stasis


@functools.cache
def dino_dynasty_stasis(scenario: str) -> Game:
    return load(ROOT / "games" / "dino_dynasty_stasis.rules", scenario=scenario)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_dino_dynasty_against_the_stasis_is_the_same_game_on_both_engines(players: int) -> None:
    """Dino Dynasty's Stasis variant (rulebook "Stasis Variant"): the Stasis is a seat the rules
    play by its priorities (`stasis_priorities`), which ask `as_if_moved` whether an Event would
    win the game; its Herds look for Rivals by `fewest_steps`. On a 4 x 4 Map (scenario A)."""
    game = dino_dynasty_stasis("A")
    assert native.engine_for(game, "auto") == ("native", "")
    for seed in range(2):
        python, core = both(game, players, seed)
        assert core == python, f"{players} players, seed {seed}"
    assert any(line.startswith("  the Stasis ") for line in python["log"])


@pytest.mark.soak  # whole games at the standard size: CI runs it, `-m soak` here
@pytest.mark.parametrize("mode", ["easy", "legendary", "manker"])
def test_dino_dynasty_against_the_stasis_is_the_same_game_in_every_mode(mode: str) -> None:
    game = load(ROOT / "games" / "dino_dynasty_stasis.rules", scenario="C", mode=mode)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(2):
            python, core = both(game, players, seed)
            assert core == python, f"mode {mode}, {players} players, seed {seed}"
        python_state, core_state = played_out_both(game, players, 0, "random")
        assert outcome(core_state) == outcome(python_state)


# ---------------------------------------------------------------- carried state and sequences
# `carry` (docs/language.md#carried-state): a game started from a save lays it over its start
# before setup, and its end is saved; the Python engine's interpreter/carry.py is the
# specification, which the core's start is made with (interpreter/native/carried.py, src/carry.rs).
# `sequence`: games played as one, each started from the save of the one before
# (interpreter/sequence.py), the same agents playing them all.

PEBBLES = ROOT / "tests" / "carry" / "pebbles.rules"  # variables, zones and a deck carried
SEASONS = ROOT / "tests" / "carry" / "seasons.rules"  # a grid of layers, pieces on it; a sequence


@functools.cache
def carried(path: Path, **options: str) -> Game:
    return load(path, **options)


def from_save(game: Game, players: int, seed: int, save: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The same game started from `save` on both engines, each answered by the Python agents."""
    agents = functools.partial(make_agents, ["random"], players, seed)
    python = game.new_game(players, seed, load=save)
    core = native.new_game(game, players, seed, load=save)
    return (
        played(python, agents()) | {"save": python.save()},
        played(core, agents()) | {"save": core.save()},
    )


def ended(game: Game, players: int, seed: int) -> Any:
    """The save a game played at random on the Python engine ends with."""
    state = game.new_game(players, seed)
    played(state, make_agents(["random"], players, seed))
    return state.save()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_started_from_a_save_is_the_same_game_on_both_engines(players: int) -> None:
    """Variables of their own, per player, per row and per player and row (an optional player, a
    text, yes/no, a row), zones per player and per row, and an ordered deck, carried: the same
    decisions, log, scores, winners, and the same save at the end."""
    game = carried(PEBBLES)
    assert native.engine_for(game, "auto") == ("native", "")
    for seed in range(4):
        python, core = from_save(game, players, seed + 10, ended(game, players, seed))
        assert core == python, f"{players} players, seed {seed}"


def test_a_carried_grid_is_laid_again_on_the_core_as_saved() -> None:
    """A grid's layers, one laid over another (the frost of a cold season), and the pieces on its
    cells: a season of Seasons started from the last one's save is the same season on both engines."""
    _, first, second = carried(SEASONS).parts  # the second season is cold: frost over the first tile
    for players in (2, 3):
        for seed in range(3):
            save = ended(first, players, seed)
            assert any(len(entry.layers or []) > 1 for entry in save.entries)
            python, core = from_save(second, players, seed + 5, save)
            assert core == python, f"{players} players, seed {seed}"


@pytest.mark.parametrize("path", [PEBBLES, SEASONS], ids=["pebbles", "seasons"])
def test_a_save_written_on_one_engine_loads_on_the_other(path: Path) -> None:
    """The core's save is the Python engine's, entry for entry, and each engine plays on from the
    other's save as from its own."""
    game = carried(path)
    part = game.parts[1] if game.parts else game
    for seed in range(3):
        python = part.new_game(2, seed)
        played(python, make_agents(["random"], 2, seed))
        core = native.new_game(part, 2, seed)
        core.play_out(["random"])
        assert core.save() == python.save(), f"seed {seed}"
        on_python = part.new_game(2, seed + 1, load=core.save())
        on_core = native.new_game(part, 2, seed + 1, load=python.save())
        agents = functools.partial(make_agents, ["random"], 2, seed + 1)
        assert played(on_core, agents()) == played(on_python, agents()), f"seed {seed}"


def test_a_save_that_does_not_fit_is_refused_on_the_core_in_the_python_engines_words() -> None:
    """Every way test_carry.py spoils a save is refused by native.new_game, before the core starts a
    game, with the Python engine's sentence."""
    game = carried(PEBBLES)
    for case, (spoil, _) in DOES_NOT_FIT.items():
        data = save_data(game)
        spoil(data)
        with pytest.raises(SaveError) as on_python:
            game.new_game(3, seed=1, load=data)
        with pytest.raises(SaveError) as on_core:
            native.new_game(game, 3, seed=1, load=data)
        assert str(on_core.value) == str(on_python.value), case


@pytest.mark.parametrize("players", [2, 3])
def test_a_sequence_is_the_same_game_on_both_engines(players: int) -> None:
    """Three seasons played as one: each decision, the log with each game's heading, the scores
    and winners of the last season, the record of every game and the save at the end."""
    game = carried(SEASONS)
    assert native.engine_for(game, "auto") == ("native", "")
    for seed in range(4):
        python = game.new_game(players, seed)
        core = native.new_game(game, players, seed)
        assert core.engine == "native" and python.engine == "python"
        agents = functools.partial(make_agents, ["random"], players, seed)
        assert played(core, agents()) == played(python, agents()), f"{players} players, seed {seed}"
        assert (core.result(), core.save()) == (python.result(), python.save())


@pytest.mark.parametrize("agent", ["random", "first"])
def test_a_sequence_played_inside_the_core_is_the_python_agents_sequence(agent: str) -> None:
    """The same agents play every game of a sequence, each drawing on from where the last game
    left it: inside the core as with the Python engine's agents."""
    game = carried(SEASONS)
    for players in (2, 3):
        for seed in range(3):
            python, core = played_out_both(game, players, seed, agent)
            assert core.result() == python.result(), f"{players} players, seed {seed}"


def test_simulate_plays_a_save_and_a_sequence_alike_on_both_engines() -> None:
    """`meeple simulate --load` and a sequence: each seed's record is the same on either engine."""
    pebbles = carried(PEBBLES)
    text = save_text(ended(pebbles, 2, 0))
    for game, rules, load_text in ((pebbles, str(PEBBLES), text), (carried(SEASONS), str(SEASONS), "")):
        plans = [Plan(rules, 2, load=load_text, engine=engine) for engine in ("python", "native")]
        for seed in range(3):
            on_python, on_core = (play_one(game, plan, seed) for plan in plans)
            assert on_core == on_python, f"{rules}, seed {seed}"


def test_play_saves_and_loads_on_the_core_as_on_python(tmp_path: Path) -> None:
    """`meeple play --save` then `--load`: the core plays both games (it says so), and the game
    from the save, its record and its save are the Python engine's."""
    saved = tmp_path / "end.json"
    first = json.loads(run("play", str(PEBBLES), "--save", str(saved), "--json").stdout)
    assert first["engine"] == "native"
    common = ("play", str(PEBBLES), "--load", str(saved), "--seed", "3", "--json", "--save")
    on_core = json.loads(run(*common, str(tmp_path / "core.json")).stdout)
    on_python = json.loads(run(*common, str(tmp_path / "python.json"), "--engine", "python").stdout)
    assert (on_core.pop("engine"), on_python.pop("engine"), on_python.pop("python_because")) == (
        "native",
        "python",
        "asked for",
    )
    assert on_core == on_python and "load" in on_core
    assert (tmp_path / "core.json").read_text() == (tmp_path / "python.json").read_text()


@functools.cache
def dino_dynasty_dynasty(**options: str) -> Game:
    return load(ROOT / "games" / "dino_dynasty_dynasty.rules", **options)


@pytest.mark.parametrize("played_on", ["no", "yes"])
def test_dino_dynastys_dynasty_game_is_the_same_game_on_both_engines(played_on: str) -> None:
    """Dino Dynasty's Dynasty game ("Save Between Games", "Dynasty Game" in the rulebook's Game
    Variants) at its smallest scenario: each Dynasty's envelope (its species, the Morph tokens
    slot by slot, the Evolve markers a change of species kept) saved at the end, and the next
    game started from it, alike on both engines."""
    game = dino_dynasty_dynasty(scenario="A", played_on=played_on)
    assert native.engine_for(game, "auto") == ("native", "")
    for players in (2, 4):
        python, core = played_out_both(game, players, 0, "random")
        assert (core.result(), core.save()) == (python.result(), python.save()), f"{players} players"
        again = from_save(game, players, 1, core.save())
        assert again[1] == again[0], f"{players} players, from the save"


@pytest.mark.soak  # whole games at the standard size: CI runs it, `-m soak` here
def test_dino_dynastys_dynasty_game_is_the_same_game_on_both_engines_at_its_sizes() -> None:
    for scenario in ("A", "C"):
        game = dino_dynasty_dynasty(scenario=scenario, played_on="yes")
        for players in (2, 3, 4, 5, 6):
            save = None
            for seed in range(3):
                python, core = from_save(game, players, seed, save)
                assert core == python, f"scenario {scenario}, {players} players, seed {seed}"
                save = python["save"]


# ---------------------------------------------------------------- shift
# `shift GRID by DQ, DR` (src/shift.rs): a grid's cells and the layers on them move; a layer a
# rule holds by name moves with it, as the Python engine's layer objects do (tests/games/drift.rules
# holds one in `laid` across the shift, prints it, lifts it, floods it where it now lies).

DRIFT = ROOT / "tests" / "games" / "drift.rules"


@pytest.mark.parametrize("agent", ["random", "first"])
def test_a_drifting_world_played_inside_the_core_is_the_python_agents_game(agent: str) -> None:
    game = carried(DRIFT)
    for players in (2, 3):
        for seed in range(6):
            python, core = played_out_both(game, players, seed, agent)
            assert outcome(core) == outcome(python), f"{players} players, seed {seed}"


@functools.cache
def campaign(name: str) -> Game:
    return load(ROOT / "games" / f"{name}.rules")


def test_dino_dynastys_campaign_is_the_same_game_on_both_engines() -> None:
    """Dino Dynasty's Campaign (Game Variants, "Campaign Game"): five Scenarios played as one, the
    Map kept from each to the next and slid to grow on the side the starting player picks
    (`shift`), Campaign tokens and Dynasties carried; at its smallest, 2 players."""
    game = campaign("dino_dynasty_campaign")
    assert native.engine_for(game, "auto") == ("native", "")
    python, core = played_out_both(game, 2, 0, "random")
    assert (core.result(), core.save()) == (python.result(), python.save())


@pytest.mark.soak  # whole Campaigns: CI runs it, `-m soak` here
@pytest.mark.parametrize("name", ["dino_dynasty_campaign", "dino_dynasty_campaign_teams"])
def test_dino_dynastys_campaign_is_the_same_game_on_both_engines_at_its_sizes(name: str) -> None:
    game = campaign(name)
    for players in (2, 3, 4):
        for seed in range(3):
            agents = functools.partial(make_agents, ["random"], players, seed)
            python = played(game.new_game(players, seed), agents())
            core = played(native.new_game(game, players, seed), agents())
            assert core == python, f"{name}, {players} players, seed {seed}"
