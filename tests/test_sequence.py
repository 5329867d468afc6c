"""A sequence of games played as one (`sequence NAME:`, interpreter/sequence.py): each game of
the file under its own options, each starting from the save of the one before.

Written for Dino Dynasty's Campaign ("Gameplay continues in 5 consecutive Scenarios from A to E,
where the different Scenarios will affect each other"; alternative A: "the Map is kept with all
tiles, Morph tokens and Herds remaining as they were"), tested here with neutral names: three
seasons on a land of square tiles that is kept and grows (`tests/carry/seasons.rules`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import run, write
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter import carry
from meeple.interpreter.sequence import SequenceState
from meeple.logs import log_text, parse_log
from meeple.simulation import Plan, play_one

HERE = Path(__file__).resolve().parent
SEASONS = HERE / "carry" / "seasons.rules"


@pytest.fixture(scope="module")
def year() -> meeple.Game:
    return meeple.load(SEASONS)


def played(game: meeple.Game, players: int, seed: int, watch: Any = None) -> Any:
    """A whole sequence answered at random; `watch(state)` after every decision."""
    rnd = random.Random(seed)
    state = game.new_game(players, seed)
    while not state.is_over:
        assert state.decision is not None
        state.apply(rnd.randrange(state.decision.size))
        if watch is not None:
            watch(state)
    return state


def pieces(state: Any) -> Counter[Any]:
    """Every piece, by its kind and owner's names (each game of a sequence is its own program)."""
    return Counter(str(piece) for held in state.rt.locs.values() for piece in held)


def test_a_sequence_plays_each_game_with_its_options(year: meeple.Game) -> None:
    state = played(year, 2, 3)
    assert isinstance(state, SequenceState)
    assert [part.sequence_options for part in year.parts] == [
        {"tiles": "1"},
        {"tiles": "2", "cold": "yes"},
        {"tiles": "3"},
    ]
    assert [part.program.constants["tiles"] for part in year.parts] == [1, 2, 3]
    assert len(state.done) == 2 and state.current.game is year.parts[2]
    assert state.rt.vars["seasons"] == 3  # each game added one to what the last one carried
    result = state.result()
    assert [g["options"] for g in result["games"]] == [p.sequence_options for p in year.parts]
    assert sum(g["choices"] for g in result["games"]) == len(result["choices"])


def test_each_game_starts_from_the_end_of_the_one_before(year: meeple.Game) -> None:
    """The moment a game ends, the next one starts from its save: before its setup runs, it holds
    what the last one carried (the land with every tile where it lay, the frost over the first
    tile, the followers on it, the piles, the points)."""
    starts: list[tuple[Any, Any]] = []

    def watch(state: SequenceState) -> None:
        if len(starts) < len(state.done):
            ended, current = state.done[-1], state.current
            assert current.loaded is not None
            start = current.game.new_game(2, current.seed, run_setup=False, load=current.loaded)
            starts.append((ended.save(), carry.take(start)))
            assert len(current.rt.layers) >= len(ended.rt.layers)  # the land is kept and grows

    played(year, 2, 5, watch)
    assert len(starts) == 2
    for ended, started in starts:
        assert started == ended
    frost = [r.key for r in year.parts[1].program.rows["quarter"] if r.values["kind"].key == "frost"]
    before, after = (next(e for e in s.entries if e.carry == "land").layers for _, s in starts)
    assert not any(layer.rows == frost for layer in before)
    assert [layer.rows for layer in after].count(frost) == 1  # the frost of the second season


def test_a_carried_grid_keeps_its_stacked_layers(year: meeple.Game) -> None:
    """A save of the land, loaded into a game of its own, lays the same layers in the same stacks
    (the frost over the first tile, not under it) and puts the followers back on their cells."""
    state = played(year, 3, 8)
    save = state.save()
    again = year.parts[2].new_game(3, seed=1, load=save, run_setup=False)
    assert carry.take(again) == save
    old, new = state.rt, again.rt
    faces = {(c.q, c.r): old.faces[c].key for c in old.grids[next(iter(old.grids))].values()}
    assert {(c.q, c.r): new.faces[c].key for c in new.grids[next(iter(new.grids))].values()} == faces
    (corner,) = [c for c in new.grids[next(iter(new.grids))].values() if (c.q, c.r) == (0, 0)]
    assert new.faces[corner].values["ground"].key == "ice"
    assert len(new.layers[corner]) == 2  # the frost over the first tile, the tile under it


def test_pieces_are_conserved_over_the_whole_sequence(year: meeple.Game) -> None:
    fresh = pieces(year.parts[0].new_game(2, 0))

    def watch(state: SequenceState) -> None:
        assert pieces(state) == fresh

    played(year, 2, 11, watch)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 3))
def test_a_sequence_is_one_seed_one_log_and_replays_exactly(
    year: meeple.Game, seed: int, players: int
) -> None:
    original = played(year, players, seed)
    entry = parse_log(log_text({**original.result(), "rules": "seasons.rules"}).encode(), "the log")
    assert len(entry.games) == 3
    again = meeple.replay(year, entry.players, entry.seed, entry.choices)
    assert again.scores == original.scores and again.winners == original.winners
    assert again.log == original.log
    assert again.save() == original.save()


def test_the_sequence_scores_as_its_last_game(year: meeple.Game) -> None:
    """Its result is its last game's: the rules score it from what they carried (the points of
    every season added up)."""
    state = played(year, 2, 7)
    assert state.scores == [p for p in (state.rt.owned[("player", "points")][q] for q in state.rt.players)]
    assert state.scores == state.current.scores


def test_simulate_plays_whole_sequences(year: meeple.Game, tmp_path: Path) -> None:
    record = play_one(year, Plan(str(SEASONS), 2), 4)
    assert record["status"] == "finished"
    assert record["turns"] == (1 + 2 + 3) * 2  # every season's turns, not one game's 3 * 2
    rules = write(tmp_path, "seasons.rules", SEASONS.read_text())
    result = run("simulate", str(rules), "--games", "4", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 4


def test_play_runs_a_sequence_as_one_game(tmp_path: Path) -> None:
    rules = write(tmp_path, "seasons.rules", SEASONS.read_text())
    log = tmp_path / "log.json"
    result = run("play", str(rules), "--seed", "2", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "Game 1 of 3 (tiles 1)" in result.output and "Game 3 of 3 (tiles 3)" in result.output
    assert "Seasons: 2 players, seed 2" in result.output
    assert run("replay", str(log)).exit_code == 0


def test_an_option_a_sequence_sets_is_not_the_callers(tmp_path: Path) -> None:
    with pytest.raises(meeple.OptionError, match="sets the option 'tiles'"):
        meeple.load(SEASONS, {"tiles": "5"})


SEQUENCE_MISTAKES = {
    "an option the game has not": ("game depth = 2", "M010", "no option 'depth'"),
    "an option twice": ("game size = 1, size = 2", "M011", "given twice"),
    "a second sequence": ("game\n\nsequence other:\n  game", "M011", "one sequence"),
}


@pytest.mark.parametrize("case", list(SEQUENCE_MISTAKES), ids=list(SEQUENCE_MISTAKES))
def test_a_sequence_that_names_what_is_not_there_is_an_error(case: str, tmp_path: Path) -> None:
    line, code, message = SEQUENCE_MISTAKES[case]
    text = (
        'game "Tiny":\n  players 2\n\noption size: int = 1\n\nplay:\n  log "{size}"\n\n'
        f"sequence two:\n  {line}\n"
    )
    checked = meeple.check(write(tmp_path, "tiny.rules", text))
    assert any(d.code == code and message in d.message for d in checked.diagnostics), checked.diagnostics


CARRY_MISTAKES = {
    "a name that is not declared": ("carry wealth", "M010", "nothing to carry called 'wealth'"),
    "the wrong owner": ("carry gold per city", "M010", "nothing to carry called 'gold' per city"),
    "a variable of no type": ("carry loose", "M014", "cannot be carried"),
    "a line twice": ("carry gold per player\ncarry gold per player", "M011", "carried twice"),
}


@pytest.mark.parametrize("case", list(CARRY_MISTAKES), ids=list(CARRY_MISTAKES))
def test_a_carry_line_that_names_what_cannot_be_carried_is_an_error(case: str, tmp_path: Path) -> None:
    line, code, message = CARRY_MISTAKES[case]
    text = (
        'game "Tiny":\n  players 2\n\nvar gold: int = 0 per player\nvar loose = [1, 2]\n\n'
        f'{line}\n\nplay:\n  log "{{loose}}"\n'
    )
    checked = meeple.check(write(tmp_path, "tiny.rules", text))
    assert any(d.code == code and message in d.message for d in checked.diagnostics), checked.diagnostics


def test_a_carry_line_with_a_condition_carries_only_when_the_option_says(year: meeple.Game) -> None:
    """Dino Dynasty's Campaign alternative B, "If the Map is not saved between games": with the
    land not kept, each season lays a land anew from all its tiles, and only the points go on."""
    fresh = meeple.load(SEASONS, {"keep_land": "no"})
    kept = {e.carry for e in played(year, 2, 6).save().entries}
    state = played(fresh, 2, 6)
    assert {e.carry for e in state.save().entries} == {"seasons", "points"}
    assert kept == {"land", "bag", "aside", "camp", "seasons", "points"}
    for game in [*state.done, state.current]:  # each season begins with its start tile alone
        start = game.game.new_game(2, game.seed, run_setup=False, load=game.loaded)
        assert not start.rt.layers
    assert state.rt.owned[("player", "points")] != {p: 0 for p in state.rt.players}


def test_a_carry_condition_must_be_known_when_the_file_is_loaded(tmp_path: Path) -> None:
    text = (
        'game "Tiny":\n  players 2\n\nvar gold: int = 0\nvar kept: bool = no\n\n'
        'carry gold if kept\n\nplay:\n  log "{gold}"\n'
    )
    with pytest.raises(meeple.RulesError, match="M030"):
        meeple.load(write(tmp_path, "tiny.rules", text))
    checked = meeple.check(write(tmp_path, "number.rules", text.replace("if kept", "if 3")))
    assert any(d.code == "M014" and "condition of 'carry'" in d.message for d in checked.diagnostics)


@pytest.mark.parametrize("keep", ["yes", "no"])
def test_the_printed_rules_tell_the_sequence_and_what_is_kept(keep: str) -> None:
    """The rulebook tells the game as its sequence ("A year": each game with its options, won as
    the last one is won) and lists what one game keeps for the next, as the options print it."""
    from meeple.codegen import render

    checked = meeple.check(SEASONS, {"keep_land": keep})
    assert checked.module and checked.symbols and checked.program
    docs = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    text = render.rulebook_markdown(docs)
    assert "## A year" in text and "Play 3 games, one after the other, with the same players" in text
    assert "1. Tiles 1.\n2. Tiles 2, cold yes.\n3. Tiles 3." in text
    assert "## Kept between games" in text and "- **Points of each player**." in text
    kept_land = "- The land is kept as it lies, with the followers on it." in text  # its sentence, no label
    assert kept_land == (keep == "yes")
    assert "**Tiles**: 3 unless" not in text  # the sequence sets it for each game: not an option to agree on
