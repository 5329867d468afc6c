"""Dino Dynasty, the Team game (games/dino_dynasty_teams.rules; the rulebook's "Team Game"): its
worked examples, and what holds in every game played in teams: no player Attacks a team-mate
("Players are not allowed to Attack each other within a team"), a team wins together ("Players
compete for the victory together"), and a replay with its teams is exact."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from helpers import assert_same_game, play_random, play_refusing_bad_answers
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter.examples import run_examples

ATTACK = re.compile(r"^(Player \d+) attacks (Player \d+): Power")


@cache
def game() -> meeple.Game:
    return meeple.load("dino_dynasty_teams")


@cache
def small_map() -> meeple.Game:
    return meeple.load("dino_dynasty_teams", {"scenario": "A"})


def test_the_team_game_examples_pass() -> None:
    results = run_examples(game())
    assert results and all(r.passed for r in results), [r for r in results if not r.passed]


@pytest.mark.parametrize(("players", "teams"), [(4, [[0, 2], [1, 3]]), (5, [[0, 3], [1, 4], [2]])])
def test_a_random_team_game_ends_with_a_team_winning_and_no_attack_within_a_team(
    players: int, teams: list[list[int]]
) -> None:
    seed = 7
    state = game().new_game(players, seed=seed, teams=teams)
    team_of = {f"Player {s + 1}": i for i, team in enumerate(teams) for s in team}
    rnd = random.Random(seed)
    while not state.is_over:
        assert state.decision is not None
        state.apply(rnd.randrange(state.decision.size))
    attacks = [ATTACK.match(line) for line in state.log]
    for found in filter(None, attacks):
        assert team_of[found[1]] != team_of[found[2]], found[0]
    winners = set(state.winners)
    assert all(set(team) <= winners or not set(team) & winners for team in teams)
    assert all(state.scores[team[0]] == state.scores[s] for team in teams for s in team)
    again = meeple.replay(game(), players, seed, state.choices, teams=teams)
    assert_same_game(again, state)


@pytest.mark.parametrize("seed", [0, 8])
def test_extinct_players_of_three_pairs_on_the_smallest_map_restart_and_the_game_ends(seed: int) -> None:
    """Rulebook: "Restarting in a Biome with a team mate is allowed". On a Scenario A Map with 6
    players in 3 pairs, players go Extinct again and again, and some find no Empty Biome and no
    Biome of their team alone (in seed 8 as the rules stand): every restart finds a place and the
    game ends. Where the restart goes is the rules file's example ("the Extinct player restarts
    beside their team-mate"); a random game's path changes with any rule, so it pins no position."""
    teams = [[0, 3], [1, 4], [2, 5]]
    state = small_map().new_game(6, seed=seed, teams=teams, budget=5_000_000)
    rnd = random.Random(seed)
    for _ in range(4_000):
        if state.is_over:
            break
        assert state.decision is not None
        state.apply(rnd.randrange(state.decision.size))
    assert state.is_over
    restarts = [line for line in state.log if " restarts in " in line]
    assert restarts, "no player went Extinct"
    assert not any("finds no land Biome" in line for line in state.log)


def test_without_teams_everyone_plays_alone() -> None:
    """The variant played without --teams is the base game's victory count, each player alone."""
    state = play_random(game(), 2, 3, random.Random(3), budget=5_000_000, max_decisions=4_000)
    assert state.layout is None and len(state.scores) == 2


@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_every_refused_answer_leaves_a_team_game_as_it_was(seed: int, data: st.DataObject) -> None:
    """An answer that is not an option changes nothing, in the team's own decisions too (how a
    team divides its losses, a restart beside a team-mate)."""
    state = small_map().new_game(4, seed=seed, teams=[[0, 2], [1, 3]], budget=5_000_000)
    play_refusing_bad_answers(state, random.Random(seed), data, rate=0.05, max_decisions=20_000)
