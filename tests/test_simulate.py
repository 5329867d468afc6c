"""`meeple simulate` and `meeple compare`: the figures a designer reads to judge balance, with
how far chance alone could move them.

Tic-Tac-Toe is the game of known answers (tests/games/tic_tac_toe.rules): under uniformly random
play the first player wins 58.5% of games, the second 28.8%, and 12.7% are drawn (counted over
the complete game tree, each move equally likely)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli import app

GAMES = Path(__file__).parent / "games"
TIC_TAC_TOE = str(GAMES / "tic_tac_toe.rules")
NO_DIAGONALS = str(GAMES / "tic_tac_toe_no_diagonals.rules")

BOOM = """game "Boom":
  players 2..3

var n: int = 0

play:
  choose x from [1, 2, 3] by players[0] prompt "Pick":
    set n to 10 // (x - 1)
"""
FOREVER = """game "Forever":
  players 2..2

var n: int = 0

play:
  while n >= 0:
    set n to n + 1
"""
TWO_SHARE = """game "Two share":
  players 3..3

score p = if p == players[2] then 0 else 1

play:
  log "nothing happens"
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def stats_of(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def tic_tac_toe() -> dict:
    return stats_of("simulate", TIC_TAC_TOE, "--games", "4000", "--jobs", "2")


# ------------------------------------------------------------------ simulate


def test_random_tic_tac_toe_rates_fall_inside_their_95_percent_intervals(tic_tac_toe: dict) -> None:
    figures = tic_tac_toe["figures"]
    known = {"first": 0.585, "second": 0.288, "draw": 0.127}
    for seat, rate in enumerate((known["first"], known["second"])):
        low, high = figures["outright_win_rate"][seat]["interval"]
        assert low <= rate <= high
    low, high = figures["draw_rate"]["interval"]
    assert low <= known["draw"] <= high
    assert high - low < 0.025  # 4000 games pin a rate down to about a percentage point either way


def test_wins_and_draws_account_for_every_game(tic_tac_toe: dict) -> None:
    assert sum(tic_tac_toe["wins"]) + tic_tac_toe["draws"] == tic_tac_toe["finished"] == 4000
    assert sum(tic_tac_toe["win_rate"]) == pytest.approx(1.0)  # a draw is half a win to each
    assert tic_tac_toe["win_rate"][0] == pytest.approx(
        (tic_tac_toe["wins"][0] + tic_tac_toe["draws"] / 2) / 4000
    )


def test_simulate_json_keeps_the_old_keys_and_adds_spreads(tic_tac_toe: dict) -> None:
    old = {
        "game",
        "games",
        "players",
        "seed",
        "win_rate",
        "mean_score",
        "min_score",
        "max_score",
        "mean_turns",
    }
    assert old <= tic_tac_toe.keys()
    assert not any("second" in key for key in tic_tac_toe)  # no timings: the output is reproducible
    score = tic_tac_toe["figures"]["score"][0]
    assert score["min"] <= score["q1"] <= score["median"] <= score["q3"] <= score["max"]
    assert score["interval"][0] <= score["mean"] == tic_tac_toe["mean_score"][0] <= score["interval"][1]
    for length in ("turns", "decisions"):
        assert {"mean", "sd", "interval", "q1", "median", "q3"} <= tic_tac_toe["figures"][length].keys()
    assert tic_tac_toe["figures"]["turns"]["min"] == 5  # the quickest win: three marks against two


def test_a_win_shared_by_some_seats_is_a_shared_win_not_a_draw(tmp_path: Path) -> None:
    stats = stats_of("simulate", write(tmp_path, "share.rules", TWO_SHARE), "--games", "4", "--players", "3")
    assert (stats["wins"], stats["shared_wins"], stats["draws"]) == ([0, 0, 0], [4, 4, 0], 0)
    assert stats["win_rate"] == [0.5, 0.5, 0.0]


def test_the_agents_are_named_per_seat() -> None:
    stats = stats_of("simulate", TIC_TAC_TOE, "--games", "1", "--agents", "first")
    assert stats["draws"] == 0  # marking the first free square: the first player's column wins
    assert stats["wins"] == [1, 0]


def test_simulate_text_shows_a_table_by_seat_with_intervals() -> None:
    result = run("simulate", TIC_TAC_TOE, "--games", "50")
    assert result.exit_code == 0
    for words in ("Win rate", "95%", "Player 2", "draws:", "length:", "quartiles"):
        assert words in result.stdout


def test_game_i_is_the_game_played_with_seed_s_plus_i() -> None:
    stats = stats_of("simulate", "dino_party", "--games", "2", "--seed", "7")
    games = [json.loads(run("play", "dino_party", "--seed", str(s), "--json").stdout) for s in (7, 8)]
    assert stats["min_score"] == [min(g["scores"][seat] for g in games) for seat in range(2)]
    assert stats["max_score"] == [max(g["scores"][seat] for g in games) for seat in range(2)]
    assert stats["mean_turns"] == sum(g["turns"] for g in games) / 2


def test_worker_processes_give_the_same_statistics() -> None:
    """Each game depends on its seed only, so the number of workers changes nothing but the time."""
    args = ["simulate", "dino_party", "--games", "24", "--players", "4", "--seed", "3"]
    assert stats_of(*args, "--jobs", "1") == stats_of(*args, "--jobs", "2")


@pytest.mark.parametrize(
    "args",
    [["--games", "0"], [], ["--games", "3", "--players", "9"], ["--games", "3", "--agents", "human"]],
    ids=["no games", "no count", "too many players", "a human cannot be simulated"],
)
def test_bad_arguments_are_usage_errors(args: list[str]) -> None:
    assert run("simulate", "dino_party", *args).exit_code == 2


def test_a_game_that_breaks_is_reported_with_its_reproduce_command_and_the_others_still_count(
    tmp_path: Path,
) -> None:
    boom = write(tmp_path, "boom.rules", BOOM)
    result = run("simulate", boom, "--games", "12", "--seed", "20", "--json")
    assert result.exit_code == 1
    stats = json.loads(result.stdout)
    broken = stats["unfinished"]
    assert 0 < len(broken) < 12 and stats["finished"] == 12 - len(broken)
    assert all("division by zero" in b["error"] and b["status"] == "failed" for b in broken)
    assert f"seed {broken[0]['seed']} broke" in result.stderr and "Traceback" not in result.stderr
    again = run(*shlex.split(broken[0]["reproduce"])[1:])  # `meeple play ...` plays the same game
    assert again.exit_code == 1 and "division by zero" in again.stderr


def test_a_game_out_of_its_step_budget_is_said_so(tmp_path: Path) -> None:
    result = run("simulate", write(tmp_path, "forever.rules", FOREVER), "--games", "2", "--json")
    assert result.exit_code == 1
    assert [b["status"] for b in json.loads(result.stdout)["unfinished"]] == ["out of budget"] * 2
    assert "ran out of its step budget" in result.stderr


def test_workers_report_broken_games_as_one_process_does(tmp_path: Path) -> None:
    boom = write(tmp_path, "boom.rules", BOOM)
    args = ["simulate", boom, "--games", "16", "--seed", "20", "--json"]
    alone, together = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert alone.exit_code == together.exit_code == 1
    assert alone.stdout == together.stdout


# ------------------------------------------------------------------ compare


def test_compare_a_game_with_itself_finds_no_difference() -> None:
    result = stats_of("compare", TIC_TAC_TOE, TIC_TAC_TOE, "--games", "300")
    assert result["paired"] == 300
    for row in result["differences"]:
        assert (row["difference"], row["interval"], row["distinguishable"]) == (0, [0, 0], False)
    text = run("compare", TIC_TAC_TOE, TIC_TAC_TOE, "--games", "300").stdout
    assert "No difference stands out from chance in 300 paired games." in text


def test_compare_finds_the_draws_a_variant_adds() -> None:
    """Without diagonals Tic-Tac-Toe has two lines fewer through the centre: far more draws."""
    result = stats_of("compare", TIC_TAC_TOE, NO_DIAGONALS, "--games", "400")
    rows = {(r["measure"], r["seat"]): r for r in result["differences"]}
    draws = rows[("draw_rate", None)]
    assert draws["distinguishable"] and draws["difference"] > 0.1
    assert draws["interval"][0] > 0
    assert rows[("outright_win_rate", 0)]["difference"] < 0
    text = run("compare", TIC_TAC_TOE, NO_DIAGONALS, "--games", "400").stdout
    assert "Draws:" in text and "more than chance explains" in text


def test_compare_pairs_the_seeds() -> None:
    result = stats_of("compare", TIC_TAC_TOE, NO_DIAGONALS, "--games", "10", "--seed", "5")
    assert result["a"]["seed"] == result["b"]["seed"] == 5
    rows = {(r["measure"], r["seat"]): r for r in result["differences"]}
    assert rows[("turns", None)]["a"] == result["a"]["mean_turns"]
    assert rows[("turns", None)]["b"] == result["b"]["mean_turns"]


def test_compare_leaves_out_seeds_that_broke_on_either_side(tmp_path: Path) -> None:
    boom = write(tmp_path, "boom.rules", BOOM)
    result = run("compare", "dino_party", boom, "--games", "6", "--json")
    assert result.exit_code == 1
    comparison = json.loads(result.stdout)
    assert comparison["paired"] == comparison["b"]["finished"] < 6
    assert "B: seed" in result.stderr
