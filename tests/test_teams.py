"""Teams: a game that declares `teams of A..B` can be played with seats grouped into teams, chosen
when it starts (`--teams 1+3,2+4`, `new_game(..., teams=[[0, 2], [1, 3]])`). The rules ask
`team(p)` and `teammates(p)`; a team wins together (every member of the best team); the layout is
recorded so that a replay is exact; `simulate` and `compare` give each team's win rate. A layout
that does not fit the game is a usage error that starts nothing.

The game is tests/games/tug_teams.rules: players pull beads from a pool and may take one from a
rival of another team; a team scores its players' beads together."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter.teams import parse_layout
from tests.helpers import assert_same_game, play_refusing_bad_answers, run, write

TUG = Path(__file__).parent / "games" / "tug_teams.rules"
PACER = Path(__file__).parent / "games" / "pacer_race.rules"


@pytest.fixture(scope="module")
def game() -> meeple.Game:
    return meeple.load(TUG)


def play_first(state: meeple.State) -> meeple.State:
    while not state.is_over:
        state.apply(0)
    return state


def test_a_layout_is_written_with_seats_from_one() -> None:
    assert parse_layout("1+4,2+5,3+6") == ((0, 3), (1, 4), (2, 5))
    assert parse_layout(" 1 + 3 , 2 ") == ((0, 2), (1,))


def test_the_rules_ask_a_players_team_and_teammates(game: meeple.Game) -> None:
    state = game.new_game(players=5, seed=0, teams=[[0, 3], [1, 4], [2]])
    rt = state.rt
    seats = rt.players
    assert rt.team_of[seats[3]] == [seats[0], seats[3]]
    assert rt.team_of[seats[2]] == [seats[2]]
    # Rivals (`q not in team(p)`) are never teammates; the turn order spreads teams out.
    log = play_first(state).log
    assert "Player 1 cheers Player 4 on" in log and "Player 5 cheers Player 2 on" in log
    assert not any("Player 3 cheers" in line for line in log)
    order = [line.split(" how many")[0].strip() for line in log if "how many beads" in line][:5]
    assert order == ["Player 1", "Player 2", "Player 3", "Player 4", "Player 5"]


def test_seating_spreads_the_teams_out(game: meeple.Game) -> None:
    """Teams 1+2 and 3+4: the first of each team plays first (Players 1 and 3), then the second
    (Players 2 and 4), so that teammates never play one after the other."""
    state = play_first(game.new_game(players=4, seed=0, teams=[[0, 1], [2, 3]]))
    order = [line.split(" how many")[0].strip() for line in state.log if "how many beads" in line][:4]
    assert order == ["Player 1", "Player 3", "Player 2", "Player 4"]


def test_a_team_that_scores_together_wins_together(game: meeple.Game) -> None:
    for seed in range(20):
        state = play_first(game.new_game(players=4, seed=seed, teams=[[0, 2], [1, 3]]))
        scores = state.scores
        assert scores[0] == scores[2] and scores[1] == scores[3]  # a team scores together
        best = max(scores)
        assert state.winners == [s for s in range(4) if scores[s] == best]
        assert state.winners in ([0, 2], [1, 3], [0, 1, 2, 3])


def test_a_team_takes_its_best_members_result(tmp_path: Path) -> None:
    """Rules whose players score alone: the team's result is its best member's, and every member
    of the best team wins, the weaker one too."""
    lines = TUG.read_text(encoding="utf-8").replace(
        "score p = sum([count(pieces(q.pile)) for each q in team(p)])", "score p = count(pieces(p.pile))"
    )
    game = meeple.load(write(tmp_path, "alone.rules", lines))
    carried = 0  # games the pair won only through its better member
    for seed in range(30):
        rnd = random.Random(seed)
        state = game.new_game(players=3, seed=seed, teams=[[0, 1], [2]])
        while not state.is_over:
            assert state.decision is not None
            state.apply(rnd.randrange(state.decision.size))
        scores = state.scores
        best_pair = max(scores[0], scores[1])
        expected = [0, 1] if best_pair > scores[2] else [2] if best_pair < scores[2] else [0, 1, 2]
        assert state.winners == expected
        carried += min(scores[0], scores[1]) < scores[2] < best_pair
    assert carried > 0


def test_without_teams_everyone_plays_alone(game: meeple.Game) -> None:
    state = play_first(game.new_game(players=3, seed=2))
    assert state.layout is None
    assert [len(state.rt.team_of[p]) for p in state.rt.players] == [1, 1, 1]
    assert state.result()["teams"] is None


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ([[0, 0], [1, 2]], "Player 1 is in a team twice"),
        ([[0, 2], [1, 0]], "Player 1 is in a team twice"),
        ([[0, 4], [1, 2]], "seat 5 is not a player's: the game has 4 players"),
        ([[0, 1], [2]], "Player 4 is in no team"),
        ([[0, 1, 2], [3]], "a team of 3 (Player 1 + Player 2 + Player 3): Tug of Teams's teams have 1 to 2"),
        ([[], [0, 1], [2, 3]], "a team of 0"),
    ],
)
def test_a_layout_that_does_not_fit_the_game_is_refused(
    game: meeple.Game, teams: list[list[int]], message: str
) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        game.new_game(players=4, seed=0, teams=teams)


def test_teams_in_a_game_without_teams_are_refused() -> None:
    with pytest.raises(ValueError, match="Pacer Race is not played in teams"):
        meeple.load(PACER).new_game(players=2, teams=[[0, 1]])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--teams", "1+1,2+3,4"], "Player 1 is in a team twice"),
        (["--teams", "1+5,2+3,4"], "seat 5 is not a player's"),
        (["--teams", "1+2"], "Player 3 is in no team"),
        (["--teams", "1+x,2+3,4"], "'x' is not a seat number"),
        (["--teams", "1+2+3,4"], "teams have 1 to 2 players"),
    ],
)
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_bad_layout_on_the_command_line_is_a_usage_error(
    command: str, args: list[str], message: str
) -> None:
    extra = ["--games", "2", "--jobs", "1"] if command == "simulate" else []
    result = run(command, str(TUG), "--players", "4", *args, *extra)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_teams_for_a_game_without_teams_is_a_usage_error() -> None:
    result = run("play", str(PACER), "--players", "2", "--teams", "1+2")
    assert result.exit_code == 2
    assert "Pacer Race is not played in teams (its rules declare no `teams`)" in result.output


def test_the_log_records_the_teams_and_replay_is_exact(tmp_path: Path) -> None:
    rules = tmp_path / "tug.rules"
    rules.write_text(TUG.read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "game.json"
    played = run("play", str(rules), "--players", "4", "--teams", "1+3,2+4", "--seed", "5", "--log", str(log))
    assert played.exit_code == 0, played.output
    assert "Teams: Player 1 + Player 3; Player 2 + Player 4" in played.stdout
    entry = json.loads(log.read_text(encoding="utf-8"))
    assert entry["teams"] == [[0, 2], [1, 3]]
    again = run("replay", str(log))
    assert again.exit_code == 0 and "same" in again.stdout, again.output
    # A log whose teams do not fit the rules is refused, naming what is wrong.
    log.write_text(json.dumps({**entry, "teams": [[0, 0], [1, 3]]}), encoding="utf-8")
    tampered = run("replay", str(log))
    assert tampered.exit_code == 1
    assert "Player 1 is in a team twice" in tampered.output


def test_simulate_reports_each_teams_win_rate() -> None:
    result = run(
        "simulate", str(TUG), "--players", "4", "--teams", "1+3,2+4", "--games", "40", "--jobs", "1", "--json"
    )
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["teams"] == [[0, 2], [1, 3]]
    first, second = stats["team_win_rate"]
    assert first["rate"] + second["rate"] == pytest.approx(1.0)
    assert first["interval"][0] <= first["rate"] <= first["interval"][1]
    # Each member of a team has its team's win rate.
    assert stats["win_rate"][0] == pytest.approx(first["rate"])
    assert stats["win_rate"][2] == pytest.approx(first["rate"])
    text = run("simulate", str(TUG), "--players", "4", "--teams", "1+3,2+4", "--games", "10", "--jobs", "1")
    assert "Player 1 + Player 3" in text.stdout


def test_compare_reports_each_teams_win_rate() -> None:
    result = run(
        "compare",
        str(TUG),
        str(TUG),
        "--players",
        "4",
        "--teams",
        "1+3,2+4",
        "--games",
        "10",
        "--jobs",
        "1",
        "--json",
    )
    assert result.exit_code == 0, result.output
    measures = {row["measure"] for row in json.loads(result.stdout)["differences"]}
    assert {"team_1_win_rate", "team_2_win_rate"} <= measures


layouts = st.integers(2, 6).flatmap(
    lambda n: st.permutations(range(n)).flatmap(
        lambda seats: st.lists(st.integers(1, 2), min_size=n, max_size=n).map(lambda sizes: (n, seats, sizes))
    )
)


def cut(seats: list[int], sizes: list[int]) -> list[list[int]]:
    """Seats cut into teams of the given sizes, in order (the last one as long as what is left)."""
    teams, at = [], 0
    for size in sizes:
        if at >= len(seats):
            break
        teams.append(sorted(seats[at : at + size]))
        at += size
    return teams


@settings(max_examples=25, deadline=None)
@given(layout=layouts, seed=st.integers(0, 10_000), data=st.data())
def test_random_games_in_random_teams(
    game: meeple.Game, layout: tuple[int, list[int], list[int]], seed: int, data: st.DataObject
) -> None:
    """Any layout of pairs and players alone: games end, winners are whole teams, refused answers
    change nothing and the replay (with its teams) is exact."""
    n, seats, sizes = layout
    teams = cut(list(seats), sizes)
    state = game.new_game(players=n, seed=seed, teams=teams)
    play_refusing_bad_answers(state, random.Random(seed), data, rate=0.2, max_decisions=200)
    winners = set(state.winners)
    assert all(set(team) <= winners or not set(team) & winners for team in teams)
    again = meeple.replay(game, n, seed, state.choices, teams=teams)
    assert_same_game(again, state)


EXAMPLE = """
example "Player 2 and Player 3 pull together":
  players 3
  teams "1,2+3"
  do:
    pull(players[1])
  choices: "3"
  expect:
    scores == [0, 3, 3]
    teammates(players[1]) == [players[2]]
"""


def test_an_example_is_played_in_the_teams_it_names(tmp_path: Path) -> None:
    path = write(tmp_path, "tug.rules", TUG.read_text(encoding="utf-8") + EXAMPLE)
    result = run("test", str(path))
    assert result.exit_code == 0, result.output


def test_an_example_in_teams_that_do_not_fit_is_M022_at_the_example(tmp_path: Path) -> None:
    source = TUG.read_text(encoding="utf-8") + EXAMPLE.replace('"1,2+3"', '"1,2+2"')
    report = meeple.check(write(tmp_path, "tug.rules", source))
    found = [d for d in report.diagnostics if d.code == "M022"]
    assert len(found) == 1 and "Player 2 is in a team twice" in found[0].message
    assert found[0].line == source[: source.index("example ")].count("\n") + 1
