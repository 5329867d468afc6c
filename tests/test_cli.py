"""The `meeple` command line: the contract other tools rely on (exit codes, JSON shapes, messages).

Most tests run the Typer app in-process with `catch_exceptions=False`, so that an exception the
CLI fails to turn into a message makes the test fail loudly instead of passing as "exit 1".
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner, Result

from meeple import cli_common, loader
from meeple.cli import app

HEADER = 'game "Tiny":\n  players 1..2\n\n'
VALID = HEADER + 'play:\n  log "hello"\n'
SYNTAX_ERROR = HEADER + 'play:\n  log "hello" +\n'
UNUSED_CONSTANT = HEADER + 'constant unused_thing = 3\n\nplay:\n  log "hello"\n'
TWO_CHOICES = """game "Two choices":
  players 2..3

var n: int = 0

score p = n

play:
  turn players[0]:
    choose x from [1, 2, 3] by players[0] prompt "Pick":
      set n to x
  turn players[1]:
    choose y from [1, 2] by players[1] prompt "Pick again":
      set n to n + y
"""
DIVIDES_BY_ZERO = """game "Boom":
  players 2..3

var n: int = 0

play:
  choose x from [1, 2, 3] by players[0] prompt "Pick":
    set n to 10 // (x - x)
"""
EXAMPLES = """game "Examples":
  players 1..2

var n: int = 0

rule bump():
  set n to n + 2

play:
  bump()

example "bump adds two":
  do:
    bump()
  expect:
    n == 2

example "bump adds three":
  do:
    bump()
  expect:
    n == 3
"""
RESULT_KEYS = {
    "game",
    "rules",
    "players",
    "seed",
    "scores",
    "winners",
    "turns",
    "choices",
    "teams",  # the teams chosen, or None (interpreter/teams.py)
    "shortfalls",
    "options",
    "counters",
}


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def logged_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A Dino Party game played with `--log`, and the log it wrote (tests change copies of it)."""
    log = tmp_path_factory.mktemp("log") / "game.json"
    result = run("play", "dino_party", "--players", "3", "--seed", "5", "--log", str(log), "--json")
    assert result.exit_code == 0, result.output
    return log, json.loads(log.read_text())


def tampered(tmp_path: Path, entry: dict, **changes: object) -> str:
    return write(tmp_path, "tampered.json", json.dumps({**entry, **changes}))


# ------------------------------------------------------------------ the app


def test_version_prints_the_installed_version_and_exits_0() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"meeple {version('meeple')}\n"


def test_lsp_without_its_extra_says_what_to_install_and_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "meeple.lsp", raising=False)
    # as if `pip install 'meeple[lsp]'` was not run, even where a test before it imported pygls
    for name in [m for m in sys.modules if m == "pygls" or m.startswith("pygls.")] or ["pygls"]:
        monkeypatch.setitem(sys.modules, name, None)
    result = run("lsp")
    assert result.exit_code == 2
    assert "pip install 'meeple[lsp]'" in result.stderr


COMMANDS = sorted(typer.main.get_group(app).commands)


@pytest.mark.parametrize("command", [None, *COMMANDS])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_short_and_long_help_work_on_the_app_and_every_command(command: str | None, flag: str) -> None:
    result = run(*([command] if command else []), flag)
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.stdout and "Traceback" not in result.output


# ------------------------------------------------------------------ check


def test_check_valid_file_exits_0_and_says_no_problems(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.rules", VALID)
    result = run("check", path)
    assert result.exit_code == 0
    assert f"{path}: no problems" in result.stdout


def test_check_bundled_game_has_no_errors() -> None:
    assert run("check", "dino_party").exit_code == 0


def test_check_error_exits_1_with_location_caret_and_summary(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.rules", SYNTAX_ERROR)
    result = run("check", path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{path}:5:15: error: ")
    assert lines[0].endswith("]")
    assert lines[1] == '      log "hello" +'
    assert lines[2] == "    " + " " * 14 + "^"
    assert lines[-1] == f"{path}: 1 error, 0 warnings"


def test_check_warning_passes_unless_strict(tmp_path: Path) -> None:
    path = write(tmp_path, "warn.rules", UNUSED_CONSTANT)
    plain = run("check", path)
    assert plain.exit_code == 0
    assert ": warning: " in plain.stdout
    assert "0 errors, 1 warning" in plain.stdout
    assert run("check", "--strict", path).exit_code == 1


def test_check_several_files_fails_when_any_has_errors(tmp_path: Path) -> None:
    good, bad = write(tmp_path, "ok.rules", VALID), write(tmp_path, "bad.rules", SYNTAX_ERROR)
    result = run("check", good, bad)
    assert result.exit_code == 1
    assert f"{good}: no problems" in result.stdout
    assert f"{bad}: 1 error" in result.stdout


def test_check_json_prints_only_a_list_of_diagnostics(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.rules", SYNTAX_ERROR)
    result = run("check", "--format", "json", path)
    assert result.exit_code == 1
    diagnostics = json.loads(result.stdout)
    assert isinstance(diagnostics, list) and len(diagnostics) == 1
    assert diagnostics[0]["file"] == path
    assert (diagnostics[0]["line"], diagnostics[0]["column"], diagnostics[0]["severity"]) == (5, 15, "error")
    assert {"code", "message", "hint", "end_column"} <= diagnostics[0].keys()


def test_check_json_of_a_valid_file_is_an_empty_list(tmp_path: Path) -> None:
    result = run("check", "--format", "json", write(tmp_path, "ok.rules", VALID))
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


def test_check_missing_file_is_a_usage_error_with_one_line(tmp_path: Path) -> None:
    result = run("check", str(tmp_path / "nowhere.rules"))
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0
    assert "nowhere.rules" in result.stderr


def test_check_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    result = run("check", "--bogus", write(tmp_path, "ok.rules", VALID))
    assert result.exit_code == 2
    assert "--bogus" in result.output


def test_check_unknown_format_is_a_usage_error(tmp_path: Path) -> None:
    assert run("check", "--format", "xml", write(tmp_path, "ok.rules", VALID)).exit_code == 2


# ------------------------------------------------------------------ play


def test_play_json_prints_exactly_the_result_object() -> None:
    result = run("play", "dino_party", "--seed", "3", "--json")
    assert result.exit_code == 0
    game = json.loads(result.stdout)
    assert game.keys() - {"engine", "python_because"} == RESULT_KEYS  # and which engine played
    assert game["engine"] in ("python", "native")
    assert game["game"] == "Dino Party"
    assert game["players"] == 2  # the game's minimum
    assert game["seed"] == 3
    assert len(game["scores"]) == 2
    assert game["winners"] and all(0 <= w < 2 for w in game["winners"])
    assert all(isinstance(c, int) for c in game["choices"])


def test_play_same_seed_plays_the_same_game() -> None:
    first = run("play", "dino_party", "--players", "4", "--seed", "11", "--json").stdout
    assert run("play", "dino_party", "--players", "4", "--seed", "11", "--json").stdout == first


def test_play_text_prints_log_then_results(tmp_path: Path) -> None:
    result = run("play", write(tmp_path, "two.rules", TWO_CHOICES), "--agents", "first")
    assert result.exit_code == 0
    out = result.stdout
    assert "Player 1 pick: 1" in out and "Player 2 pick again: 1" in out
    assert out.index("pick again") < out.index("Score")
    assert "Winners: Player 1, Player 2" in out  # the score is shared by every seat


def test_play_human_agent_answers_with_1_based_numbers(tmp_path: Path) -> None:
    path = write(tmp_path, "two.rules", TWO_CHOICES)
    result = run("play", path, "--agents", "human,first", "--json", input="x\n3\n")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["choices"] == [2, 0]  # 'x' was refused, '3' is the third option
    assert "1. 1" in result.stderr


def test_the_terminal_narrates_the_rules_sentences_not_the_engines_record_of_a_pick(tmp_path: Path) -> None:
    """Issue 26: Dino Dynasty's setup showed 106 "(random s: side B)" lines to the person playing.
    The narration a person reads leaves the engine's record of a random pick out; the game's
    record (stdout, without a person at the terminal) keeps it."""
    picked = TWO_CHOICES.replace(
        "play:\n", 'play:\n  pick side at random from [1, 2]:\n    log "The side is chosen."\n'
    )
    path = write(tmp_path, "picked.rules", picked)
    narrated = run("play", path, "--agents", "first,human", input="1\n")
    assert narrated.exit_code == 0, narrated.stderr
    assert "The side is chosen." in narrated.stderr and "(random side:" not in narrated.stderr
    assert "(random side:" in run("play", path, "--agents", "first").stdout


def test_play_human_agent_without_input_fails_cleanly(tmp_path: Path) -> None:
    result = run("play", write(tmp_path, "two.rules", TWO_CHOICES), "--agents", "human", input="")
    assert result.exit_code == 1
    assert "input ended" in result.stderr


def test_play_log_file_holds_the_result_and_a_format_version(tmp_path: Path) -> None:
    log = tmp_path / "out.json"
    result = run("play", "dino_party", "--seed", "2", "--json", "--log", str(log))
    assert result.exit_code == 0
    written = json.loads(log.read_text())
    assert written.pop("meeple") == 1
    printed = json.loads(result.stdout)
    printed.pop("engine"), printed.pop("python_because", None)  # which engine played: not the log's
    assert written == printed


def test_a_solo_game_prints_its_score_and_no_winner() -> None:
    """One player has a score, not a win over others: its log says how the score measures up."""
    result = run("play", "dino_garden_solo", "--seed", "0")
    assert result.exit_code == 0
    log, _, results = result.stdout.partition("Dino Garden: solo: 1 player, seed 0,")
    assert "short of the goal" in log
    assert "Player 1" in results and "Score" in results
    assert "winner" not in results.lower() and "Traceback" not in result.output


def test_a_solo_game_keeps_its_winner_in_json_and_its_replay_names_none(tmp_path: Path) -> None:
    solo = write(tmp_path, "solo.rules", 'game "Alone":\n  players 1..1\n\nplay:\n  log "hello"\n')
    log = tmp_path / "solo.json"
    played = run("play", solo, "--json", "--log", str(log))
    assert played.exit_code == 0
    assert json.loads(played.stdout)["winners"] == [0]
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0
    assert ": same: Alone, 1 player, seed 0, " in replayed.stdout and "winner" not in replayed.stdout


@pytest.mark.parametrize("players", ["1", "7"])
def test_play_player_count_out_of_range_is_a_usage_error(players: str) -> None:
    result = run("play", "dino_party", "--players", players)
    assert result.exit_code == 2
    assert "2 to 6 players" in result.stderr


def test_play_unknown_agent_is_a_usage_error() -> None:
    result = run("play", "dino_party", "--agents", "random,clever")
    assert result.exit_code == 2
    assert "unknown agent 'clever'" in result.stderr


def test_play_unknown_game_names_the_bundled_games() -> None:
    result = run("play", "no_such_game")
    assert result.exit_code == 2
    assert "dino_party" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["play"],
        ["check"],
        ["simulate", "--games", "2"],
        ["docs", "--format", "md", "-o", "out"],
        ["test"],
        ["compare", "dino_party", "--games", "2"],
    ],
)
def test_a_misspelt_bundled_game_is_a_usage_error_that_names_the_closest(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # docs would write into ./out
    name, *rest = command
    result = run(name, *rest, "dino_partyy")
    assert result.exit_code == 2
    assert "no rules file 'dino_partyy': did you mean 'dino_party'?" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_a_path_that_does_not_exist_gets_no_guess(tmp_path: Path) -> None:
    result = run("play", str(tmp_path / "dino_partyy.rules"))
    assert result.exit_code == 2
    assert "did you mean" not in result.stderr and "bundled games:" in result.stderr


def test_play_rules_with_errors_prints_diagnostics_and_exits_1(tmp_path: Path) -> None:
    result = run("play", write(tmp_path, "bad.rules", SYNTAX_ERROR))
    assert result.exit_code == 1
    assert ":5:15: error: " in result.stderr


def test_play_broken_rule_reports_seed_and_choices_to_reproduce(tmp_path: Path) -> None:
    path = write(tmp_path, "boom.rules", DIVIDES_BY_ZERO)
    result = run("play", path, "--seed", "4", "--agents", "first")
    assert result.exit_code == 1
    assert "division by zero" in result.stderr
    assert "seed 4" in result.stderr
    assert "choices [0]" in result.stderr
    assert f"meeple play {path} --players 2 --seed 4" in result.stderr


# ------------------------------------------------------------------ replay


def test_replay_of_a_logged_game_is_the_same(logged_game: tuple[Path, dict]) -> None:
    log, _ = logged_game
    result = run("replay", str(log))
    assert result.exit_code == 0
    assert "same" in result.stdout


def test_replay_names_the_winners_by_their_seats_as_the_tables_do(logged_game: tuple[Path, dict]) -> None:
    log, entry = logged_game
    result = run("replay", str(log))
    assert result.exit_code == 0
    seats = ", ".join(f"Player {w + 1}" for w in entry["winners"])
    assert f", 3 players, seed 5, {entry['turns']} turns" in result.stdout
    assert result.stdout.rstrip().endswith(f"winner{'s' if len(entry['winners']) > 1 else ''} {seats}")
    assert "winners [" not in result.stdout


def test_replay_with_tampered_winners_names_both_by_seat(
    tmp_path: Path, logged_game: tuple[Path, dict]
) -> None:
    _, entry = logged_game
    other = (entry["winners"][0] + 1) % 3
    result = run("replay", tampered(tmp_path, entry, winners=[other, 7]))
    assert result.exit_code == 1
    replayed = ", ".join(f"Player {w + 1}" for w in entry["winners"])
    assert f"winners: the log says Player {other + 1}, seat 8, the replay gives {replayed}" in result.stdout
    assert "Traceback" not in result.output


def test_replay_with_tampered_scores_differs(tmp_path: Path, logged_game: tuple[Path, dict]) -> None:
    _, entry = logged_game
    scores = [s + 1 for s in entry["scores"]]
    result = run("replay", tampered(tmp_path, entry, scores=scores))
    assert result.exit_code == 1
    assert "DIFFERENT" in result.stdout
    assert f"the log says {scores}" in result.stdout


def test_replay_with_choices_cut_short_differs(tmp_path: Path, logged_game: tuple[Path, dict]) -> None:
    _, entry = logged_game
    result = run("replay", tampered(tmp_path, entry, choices=entry["choices"][:3]))
    assert result.exit_code == 1
    assert "end before the game does" in result.stdout


def test_replay_with_a_choice_out_of_range_names_it(tmp_path: Path, logged_game: tuple[Path, dict]) -> None:
    _, entry = logged_game
    choices = list(entry["choices"])
    choices[2] = 99
    result = run("replay", tampered(tmp_path, entry, choices=choices))
    assert result.exit_code == 1
    assert "choice 3: 99 is not an option" in result.stderr


def test_replay_with_extra_choices_fails(tmp_path: Path, logged_game: tuple[Path, dict]) -> None:
    _, entry = logged_game
    result = run("replay", tampered(tmp_path, entry, choices=[*entry["choices"], 0]))
    assert result.exit_code == 1
    assert "more than the game asks for" in result.stderr


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seed": None}, "the field 'seed': input should be a valid integer"),
        ({"players": "three"}, "the field 'players': input should be a valid integer"),
        ({"choices": [0, "1"]}, "the field 'choices.1': input should be a valid integer"),
        ({"players": 9}, "2 to 6 players"),
        ({"rules": "no_such_game"}, "no rules file 'no_such_game'"),
        ({"meeple": 99}, "format 99"),
    ],
)
def test_replay_with_a_bad_field_names_it(
    tmp_path: Path, logged_game: tuple[Path, dict], changes: dict, message: str
) -> None:
    _, entry = logged_game
    result = run("replay", tampered(tmp_path, entry, **changes))
    assert result.exit_code == 1
    assert message in result.stderr


def test_replay_with_a_missing_field_names_it(tmp_path: Path, logged_game: tuple[Path, dict]) -> None:
    partial = {key: value for key, value in logged_game[1].items() if key != "turns"}
    result = run("replay", write(tmp_path, "partial.json", json.dumps(partial)))
    assert result.exit_code == 1
    assert "'turns' is missing" in result.stderr


def test_replay_of_a_log_naming_a_misspelt_bundled_game_names_the_closest(
    tmp_path: Path, logged_game: tuple[Path, dict]
) -> None:
    result = run("replay", tampered(tmp_path, logged_game[1], rules="dino_partyy"))
    assert result.exit_code == 1
    assert "did you mean 'dino_party'?" in result.stderr and "Traceback" not in result.output


def test_replay_with_rules_that_do_not_exist_is_a_usage_error(logged_game: tuple[Path, dict]) -> None:
    result = run("replay", str(logged_game[0]), "--rules", "dino_partyy")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no rules file 'dino_partyy': did you mean 'dino_party'?")
    assert "cannot load the rules the log was played with" not in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", ""])
def test_replay_of_a_corrupt_log_exits_1_with_a_message(tmp_path: Path, text: str) -> None:
    result = run("replay", write(tmp_path, "corrupt.json", text))
    assert result.exit_code == 1
    assert "corrupt.json" in result.stderr


def test_replay_of_a_missing_log_exits_1(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nowhere.json"))
    assert result.exit_code == 1
    assert "cannot read the log" in result.stderr


def test_replay_of_a_corrupt_log_prints_no_traceback_from_the_installed_command(tmp_path: Path) -> None:
    """End to end through the console script, as a user would run it."""
    path = write(tmp_path, "corrupt.json", "{not json")
    cmd = [sys.executable, "-c", "from meeple.console import main; main()", "replay", path]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "is not a meeple log: not JSON" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# ------------------------------------------------------------------ test


def test_test_bundled_game_examples_pass() -> None:
    result = run("test", "dino_party")
    assert result.exit_code == 0
    assert "PASS" in result.stdout and "FAIL" not in result.stdout


def test_test_failing_example_exits_1_naming_it_and_what_differed(tmp_path: Path) -> None:
    result = run("test", write(tmp_path, "ex.rules", EXAMPLES))
    assert result.exit_code == 1
    assert "PASS" in result.stdout and "bump adds two" in result.stdout
    assert "FAIL" in result.stdout and "bump adds three" in result.stdout
    assert "left side is 2, right side is 3" in result.stdout
    assert "1 example passed, 1 failed" in result.stdout


def test_test_file_that_does_not_load_exits_1_with_diagnostics(tmp_path: Path) -> None:
    result = run("test", write(tmp_path, "bad.rules", SYNTAX_ERROR))
    assert result.exit_code == 1
    assert ":5:15: error: " in result.stderr


def test_test_missing_file_is_a_usage_error_with_one_line_and_no_tally(tmp_path: Path) -> None:
    result = run("test", str(tmp_path / "nowhere.rules"))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no rules file") and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_test_missing_file_beside_one_that_loads_tests_that_one_and_exits_2(tmp_path: Path) -> None:
    result = run("test", str(tmp_path / "nowhere.rules"), write(tmp_path, "ex.rules", EXAMPLES))
    assert result.exit_code == 2
    assert "nowhere.rules" in result.stderr
    assert "1 example passed, 1 failed" in result.stdout


def test_test_says_each_example_on_stdout_while_its_progress_bar_is_on_stderr(
    tmp_path: Path, terminal: None
) -> None:
    result = run("test", write(tmp_path, "ex.rules", EXAMPLES))
    assert "ex.rules" in result.stderr  # the bar, drawn on the (pretend) terminal
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[:2]] == ["PASS", "FAIL"]
    assert lines[-1] == "1 example passed, 1 failed"


# ------------------------------------------------------------------ progress bars


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stderr is a terminal (so the progress bars are drawn on it); stdout is not."""
    monkeypatch.setattr(cli_common, "stderr", lambda: Console(stderr=True, force_terminal=True))


def test_check_play_draws_its_progress_bar_on_stderr_and_keeps_json_on_stdout_clean(
    tmp_path: Path, terminal: None
) -> None:
    result = run("check", write(tmp_path, "two.rules", TWO_CHOICES), "--play", "3", "--format", "json")
    assert "playing" in result.stderr
    assert isinstance(json.loads(result.stdout), list)


def test_simulate_draws_its_progress_bar_on_stderr_and_keeps_json_on_stdout_clean(
    tmp_path: Path, terminal: None
) -> None:
    result = run("simulate", write(tmp_path, "two.rules", TWO_CHOICES), "--games", "5", "--json")
    assert "Two choices" in result.stderr
    assert json.loads(result.stdout)["games"] == 5


def test_without_a_terminal_no_progress_bar_is_drawn(tmp_path: Path) -> None:
    result = run("check", write(tmp_path, "two.rules", TWO_CHOICES), "--play", "3", "--format", "json")
    assert result.stderr == ""


# ------------------------------------------------------------------ list


def test_list_shows_bundled_games_with_player_counts() -> None:
    result = run("list")
    assert result.exit_code == 0
    assert "Dino Party" in result.stdout
    assert "dino_party" in result.stdout
    assert "2-6" in result.stdout


def test_list_reads_headers_and_says_which_bundled_file_does_not_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `list` shows comes from parsing alone; a syntax error anywhere in a file (here past its
    header) still shows, and a variant without a player range shows its base game's."""
    write(tmp_path, "tiny.rules", VALID)
    write(tmp_path, "broken.rules", SYNTAX_ERROR)
    write(tmp_path, "tiny_variant.rules", 'variant "Tiny again" of "tiny":\n  says "The same."\n')
    monkeypatch.setattr(loader, "bundled_dir", lambda: tmp_path)
    result = run("list")
    assert result.exit_code == 0
    rows = {line.split()[1]: line for line in result.stdout.splitlines() if line.startswith("│")}
    assert "does not load" in rows["broken"] and "1 error" in rows["broken"]
    assert "Tiny " in rows["tiny"] and "1-2" in rows["tiny"]
    assert "Tiny again" in rows["tiny_variant"] and "1-2" in rows["tiny_variant"]
    assert "Traceback" not in result.output
