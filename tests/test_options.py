"""Game options: `option NAME: TYPE = DEFAULT` is a constant the player sets before the game (a
scenario, an expansion, a difficulty), fixed for every game the program starts. It is set by
`meeple.load(path, options=...)` and `--option NAME=VALUE`, recorded in the game's result and log,
and a replay loads the game with it again. On a game of neutral names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import only
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.interpreter.checks import CheckOptions, run_checks

GAME = """\
game "Sizes":
  players 2..2

table size (name, tiles: int):
  small, 2
  large, 5

option board: size = small
  says "Play on a small board or a large one."
option bonus: int = 0
option lucky: bool = no

zone box
zone board_tiles
piece tile: 9 in box

setup:
  move board.tiles tile from box to board_tiles

play:
  for each p in players:
    turn p:
      log "turn"

score p = count(pieces(board_tiles)) + bonus + (if lucky then 1 else 0)
"""


def path(tmp_path: Path, source: str = GAME) -> Path:
    file = tmp_path / "sizes.rules"
    file.write_text(source)
    return file


def test_the_default_holds_unless_an_option_is_given(tmp_path: Path) -> None:
    game = meeple.load(path(tmp_path))
    assert game.new_game(2).scores == [2, 2]
    assert game.options == {"board": "small", "bonus": "0", "lucky": "no"}
    chosen = meeple.load(path(tmp_path), {"board": "large", "bonus": "3", "lucky": "yes"})
    assert chosen.new_game(2).scores == [9, 9]
    assert chosen.new_game(2).result()["options"] == {"board": "large", "bonus": "3", "lucky": "yes"}


def test_the_record_of_a_default_no_text_reads_back_as_loads_the_same_game(tmp_path: Path) -> None:
    """What a log, a worker process or a task on a cluster loads the game with."""
    rules = path(tmp_path, GAME.replace("bonus: int = 0", "bonus: int = 1 + 1"))
    game = meeple.load(rules)
    assert game.options["bonus"] == "?"
    again = meeple.load(rules, game.options)
    assert again.new_game(2).scores == game.new_game(2).scores == [4, 4]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "the game has no option 'colour' (its options: board, bonus, lucky)"),
        ({"board": "huge"}, "option 'board' is one of small, large, not 'huge'"),
        ({"bonus": "many"}, "option 'bonus' is a whole number, not 'many'"),
        ({"lucky": "maybe"}, "option 'lucky' is yes or no, not 'maybe'"),
    ],
)
def test_an_option_the_game_lacks_or_a_value_it_cannot_take_is_refused(
    tmp_path: Path, options: dict[str, str], message: str
) -> None:
    with pytest.raises(meeple.OptionError, match=re.escape(message)):
        meeple.load(path(tmp_path), options)


def test_a_default_of_the_wrong_type_is_an_error(tmp_path: Path) -> None:
    diag = only(meeple.check(path(tmp_path, GAME.replace("bonus: int = 0", "bonus: int = no"))), "M014")
    assert "option 'bonus' must be a number" in diag.message


def test_the_command_line_sets_options_and_a_replay_uses_the_logged_ones(tmp_path: Path) -> None:
    runner, rules, log = CliRunner(), path(tmp_path), tmp_path / "game.json"
    played = runner.invoke(app, ["play", str(rules), "--option", "board=large", "--json", "--log", str(log)])
    assert played.exit_code == 0, played.stderr
    assert json.loads(played.stdout)["scores"] == [5, 5]
    assert json.loads(log.read_text())["options"]["board"] == "large"
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0 and "same" in replayed.stdout, replayed.stdout + replayed.stderr
    bad = runner.invoke(app, ["play", str(rules), "--option", "board"])
    assert bad.exit_code == 2 and "NAME=VALUE" in bad.stderr
    unknown = runner.invoke(app, ["simulate", str(rules), "--games", "3", "--option", "size=large"])
    assert unknown.exit_code == 2 and "no option 'size'" in unknown.stderr
    for command in ("check", "test"):
        assert runner.invoke(app, [command, str(rules), "--option", "board=large"]).exit_code == 0
        refused = runner.invoke(app, [command, str(rules), "--option", "board=huge"])
        assert refused.exit_code == 2 and "not 'huge'" in refused.stderr, command


def test_the_rulebook_says_what_to_choose_before_the_game(tmp_path: Path) -> None:
    from meeple.codegen import render

    checked = meeple.check(path(tmp_path))
    assert checked.module and checked.symbols and checked.program
    docs = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    board = docs.book.options[0]
    assert (board.name, board.choices) == ("board", ["small or large (small if you choose none)"])
    text = render.rulebook_markdown(docs)
    assert (
        "## Options" in text
        and "**Board**: small or large (small if you choose none). Play on a small board" in text
    )


def test_setup_is_checked_under_every_value_of_an_option_from_a_table(tmp_path: Path) -> None:
    """A setup step that only the large board needs is not 'never run', and a setup that breaks
    only on the large board is reported, naming the option."""
    path = tmp_path / "sizes.rules"
    path.write_text(
        GAME.replace(
            "  move board.tiles tile from box to board_tiles\n",
            "  move board.tiles tile from box to board_tiles\n"
            "  if board == large:\n"
            '    log "a large board"\n',
        )
    )
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    assert not [d for d in report.diagnostics if d.code == "M060"]
    path.write_text(
        GAME.replace(
            "  move board.tiles tile from box to board_tiles\n",
            "  move board.tiles tile from box to board_tiles\n"
            "  move [1, 2, 3][board.tiles] tile from box to board_tiles\n",
        )
    )
    (broken,) = [
        d for d in run_checks(meeple.check(path), str(path), CheckOptions()).diagnostics if d.code == "M045"
    ]
    assert broken.message.endswith("(with board=large)")
