"""Dino Dynasty's Dynasty game and Campaign (games/dino_dynasty_dynasty.rules and
games/dino_dynasty_campaign.rules; the rulebook's "Game Variants"): their worked examples, their
check against the rulebook, and what holds in every game: random games end, Dinos are conserved,
the save envelopes written at a game's end are what the next game starts from ("Each player places
in the SAVE ENVELOPE"), replays with saves are exact, and a whole Campaign ("5 consecutive
Scenarios from A to E") plays as one game."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_same_game, new_game_as_played, play_refusing_bad_answers, run, shared_file
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter.examples import run_examples

GAMES = Path(__file__).parents[1] / "games"
VARIANTS = ["dino_dynasty_dynasty", "dino_dynasty_campaign", "dino_dynasty_campaign_teams"]
# the teams a Campaign in teams is played in, by player count: team-mates seated apart
LAYOUTS = {
    2: [[0], [1]],
    3: [[0], [1, 2]],
    4: [[0, 2], [1, 3]],
    5: [[0, 3], [1, 4], [2]],
    6: [[0, 3], [1, 4], [2, 5]],
}


@cache
def dynasty(scenario: str = "A") -> meeple.Game:
    return meeple.load("dino_dynasty_dynasty", {"scenario": scenario})


@cache
def campaign(map_kept: str, teams: bool = False, same_name: str = "no") -> meeple.Game:
    """The Campaign under these options, each given only where it is not the default: the loader
    keeps a game by the options it was asked for, so the Campaign of its defaults is the one the
    worked examples loaded (8 s of CPU a load)."""
    name = "dino_dynasty_campaign_teams" if teams else "dino_dynasty_campaign"
    options = {"map_kept": map_kept, "same_name": same_name}
    game = meeple.load(name, {k: v for k, v in options.items() if v != CAMPAIGN_DEFAULTS[k]})
    assert {k: game.options[k] for k in options} == options, "CAMPAIGN_DEFAULTS are not the file's"
    return game


CAMPAIGN_DEFAULTS = {"map_kept": "yes", "same_name": "no"}  # games/dino_dynasty_campaign.rules


def played(
    game: meeple.Game,
    players: int,
    seed: int,
    load: Any = None,
    watch: Any = None,
    teams: Any = None,
    as_played: bool = False,
) -> Any:
    """A game (or a whole sequence) answered at random; `watch(state)` after every decision. On the
    Python engine, whose state the tests below read; `as_played`, on the engine `meeple play`
    picks (helpers.new_game_as_played), for a test of the outcome alone."""
    rnd = random.Random(seed)
    if as_played:
        state = new_game_as_played(game, players, seed, load=load, teams=teams)
    else:
        state = game.new_game(players, seed=seed, load=load, teams=teams)
    for _ in range(200_000):
        if state.is_over:
            return state
        assert state.decision is not None
        state.apply(rnd.randrange(state.decision.size))
        if watch is not None:
            watch(state)
    pytest.fail(f"no end ({game.name}, {players} players, seed {seed})")


def dinos(state: Any) -> Counter[str]:
    """Every Dino, by its owner: none is made or lost, wherever it stands."""
    return Counter(
        str(owner) for held in state.rt.locs.values() for kind, owner in held if str(kind) == "dino"
    )


# Every check of a variant with its rulebook is test_citations.py's
# test_a_bundled_game_passes_every_check_with_its_rulebook, for each of them, in the default run;
# here the same through the command line (tens of seconds of CPU each: setup under every option
# and Scenario) is in the soak, which CI runs.
@pytest.mark.soak
@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_checks_clean_against_the_rulebook(name: str) -> None:
    rulebook = shared_file("rulebooks", "dino-dynasty.txt")  # a skip, saying how, where it is absent
    result = run("check", str(GAMES / f"{name}.rules"), "--rulebook", str(rulebook))
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output, result.output


@pytest.mark.parametrize("name", VARIANTS)
def test_the_worked_examples_pass(name: str) -> None:
    results = run_examples(meeple.load(name))
    assert results and all(r.passed for r in results), [r for r in results if not r.passed]


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_a_random_dynasty_game_ends_with_its_dinos_conserved_and_its_envelopes_saved(
    seed: int, players: int
) -> None:
    game = dynasty()
    start = dinos(game.new_game(players, seed=seed))

    def conserved(state: Any) -> None:
        assert dinos(state) == start

    end = played(game, players, seed, watch=conserved)
    save = end.save()
    current = {e.row: e.value for e in save.entries if e.carry == "current"}
    chosen = {str(p.values["dynasty"].key) for p in (end.rt.owned[("player", "species_of")].values())}
    assert {row for row, value in current.items() if value is not None} == chosen
    assert [e.value for e in save.entries if e.carry == "games_played"] == [1]


def test_the_next_game_starts_from_the_envelopes_and_replays_exactly() -> None:
    """'Players choose 1 of the DYNASTY SAVE ENVELOPES': a Dynasty whose envelope holds a species
    plays that species; the game replays exactly from its log, with the save it loaded."""
    game = dynasty()
    first = played(game, 3, 11)
    save = first.save()
    at_start: list[Any] = []

    def after_setup(state: Any) -> None:
        if state.turns >= 1 and not at_start:  # setup is done: no species changed yet
            at_start.extend(state.rt.owned[("player", "species_of")].values())

    second = played(game, 3, 12, load=save, watch=after_setup)
    current = {e.row: e.value for e in save.entries if e.carry == "current" and e.value is not None}
    assert current and at_start
    for p in at_start:
        dyn = str(p.values["dynasty"].key)
        if dyn in current:
            assert p.key == current[dyn]
    again = meeple.replay(game, 3, 12, second.choices, load=save)
    assert_same_game(again, second)
    assert again.save() == second.save()


def test_a_save_round_trips_exactly(tmp_path: Path) -> None:
    game = dynasty()
    save = played(game, 4, 5).save()
    start = game.new_game(4, seed=1, load=save, run_setup=False)
    assert start.save() == save


# With the Map kept (Alternative A) here; without it in the soak (the Campaigns with the same name
# and of `simulate` below are played without it, whole, in the default run). The Campaign in teams
# below is the one its worked examples loaded (its defaults: a Campaign build is 7 s of CPU).
@pytest.mark.parametrize("map_kept", ["yes", pytest.param("no", marks=pytest.mark.soak)])
def test_a_whole_campaign_plays_as_one_game_and_replays_exactly(map_kept: str) -> None:
    """A Campaign is five Scenarios, A to E, one seed and one log; its score is the Campaign
    tokens ('as many as the number of players they beat'), at most 3 per Scenario with 4 players."""
    game = campaign(map_kept)
    state = played(game, 4, 3)
    result = state.result()
    assert [g["options"]["scenario"] for g in result["games"]] == ["A", "B", "C", "D", "E"]
    tokens = [e.value for e in state.save().entries if e.carry == "campaign_tokens"]
    assert state.scores == tokens and all(0 <= t <= 15 for t in tokens)
    again = meeple.replay(game, 4, 3, state.choices)
    assert again.scores == state.scores and again.log == state.log


@pytest.mark.soak  # whole Campaigns of every size: minutes (CI runs it: .ci/run)
@settings(max_examples=3, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    map_kept=st.sampled_from(["yes", "no"]),
    teams=st.booleans(),
)
def test_a_random_campaign_ends_with_its_dinos_conserved_and_replays_exactly(
    seed: int, players: int, map_kept: str, teams: bool
) -> None:
    """Any Campaign, alone or in teams ('the teams remain the same through all 5 Scenarios'),
    ends after its fifth Scenario; no Dino is made or lost, in any Scenario; and it replays
    exactly from its seed and choices."""
    game, layout = campaign(map_kept, teams), LAYOUTS[players] if teams else None
    counts: list[Counter[str]] = []

    def conserved(state: Any) -> None:
        if len(counts) <= len(state.done):  # a new Scenario: its own Dinos, kept from then on
            counts.append(dinos(state))
        assert dinos(state) == counts[-1]

    end = played(game, players, seed, watch=conserved, teams=layout)
    assert len(end.done) == 4 and end.is_over
    again = meeple.replay(game, players, seed, end.choices, teams=layout)
    assert again.scores == end.scores and again.log == end.log


def test_a_campaign_in_teams_shares_its_tokens_and_its_victory() -> None:
    """'Their victory positions are counted as a team': team-mates end with as many Campaign
    tokens as each other, and win or lose together."""
    layout = LAYOUTS[4]
    state = played(campaign("yes", teams=True), 4, 8, teams=layout, as_played=True)
    assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]
    winners = state.winners
    assert sorted(winners) in ([0, 2], [1, 3], [0, 1, 2, 3])


def test_a_campaign_with_the_same_name_plays_all_five_scenarios_under_it() -> None:
    """'Players can draw Scenarios at random or continue with the same name for all 5 Scenarios':
    with the same name, every Scenario is played on the side of its size with the first one's
    name, a name printed in every size."""
    state = played(campaign("no", same_name="yes"), 3, 6, as_played=True)
    sides = [part.rt.vars["played"] for part in [*state.done, state.current]]
    names = {str(side.values["campaign_name"].key) for side in sides}
    assert len(names) == 1 and names <= {"laurasia", "gondwana", "western_interior_seaway", "tethys"}
    assert [str(side.values["card"].values["size"].key) for side in sides] == ["A", "B", "C", "D", "E"]


def test_a_kept_map_grows_and_keeps_its_tiles() -> None:
    """Alternative A: 'the Map is kept with all tiles, Morph tokens and Herds'."""
    game = campaign("yes")
    sizes: list[int] = []

    def watch(state: Any) -> None:
        if len(sizes) < len(state.done):
            ended, current = state.done[-1], state.current
            sizes.append(len(ended.rt.layers))
            assert len(current.rt.layers) >= len(ended.rt.layers)

    played(game, 3, 4, watch=watch)
    assert len(sizes) == 4


def test_play_and_simulate_run_a_campaign(tmp_path: Path) -> None:
    log = tmp_path / "campaign.json"
    result = run(
        "play",
        "dino_dynasty_campaign",
        "--players",
        "3",
        "--seed",
        "2",
        "--agents",
        "random",
        "--log",
        str(log),
    )
    assert result.exit_code == 0, result.output
    assert len(json.loads(log.read_text())["games"]) == 5
    # the options of the Campaign with the same name above: the game its test built (7 s of CPU)
    result = run(
        "simulate",
        "dino_dynasty_campaign",
        "--players",
        "3",
        "--games",
        "1",
        "--option",
        "map_kept=no",
        "--option",
        "same_name=yes",
    )
    assert result.exit_code == 0, result.output


@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), data=st.data())
def test_every_refused_answer_leaves_a_dynasty_game_as_it_was(
    seed: int, players: int, data: st.DataObject
) -> None:
    """An answer that is not an option (`IllegalChoice`) changes nothing, in the Dynasty game's
    own decisions too (a species changed, an envelope's Morph tokens kept)."""
    state = dynasty().new_game(players, seed=seed)
    play_refusing_bad_answers(state, random.Random(seed), data, rate=0.05, max_decisions=20_000)
