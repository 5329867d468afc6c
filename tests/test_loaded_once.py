"""A game is read, analysed and compiled once per process (meeple/loader.py, `KEPT`): a second
`load` or `check` of the same file under the same options hands out what the first built, but
only while every file it read is still there with the same text, and every name in it still
leads to the same file. Each caller owns what it gets: the Game's options and parts, the
Checked's diagnostics; the Program inside is shared, and the engine never changes it."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from helpers import write

import meeple
from meeple.loader import Recorded

GAME = """\
game "Counters":
  players 2..2

option stones: int = 2
table colour (name):
  red
table shade (name) from "shades.csv":
  grey

zone box
zone lane
piece stone: 6 in box

play:
  for each p in players:
    turn p:
      choose n from [1, stones] by p prompt "How many":
        move n stone from box to lane
"""
VARIANT = """\
variant "More counters" of "counters.rules":
  players 2..2

replace option stones: int = 3
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write(tmp_path, "counters.rules", GAME)
    write(tmp_path, "shades.csv", "name\npale\n")
    write(tmp_path, "more.rules", VARIANT)
    return tmp_path


def prompt_options(game: meeple.Game) -> list[str]:
    state = game.new_game(2)
    assert state.decision is not None
    return state.decision.options


def test_the_same_file_under_the_same_options_is_built_once(folder: Path) -> None:
    first, again = meeple.load(folder / "counters.rules"), meeple.load(folder / "counters.rules")
    assert again.program is first.program
    assert meeple.load(folder / "counters.rules", {"stones": "4"}).program is not first.program
    assert meeple.check(folder / "counters.rules").program is meeple.check(folder / "counters.rules").program


def test_a_bundled_game_asked_for_by_its_name_or_by_its_file_is_built_once() -> None:
    """`dino_party` and the file it names are one game: one check and one Program (each test
    process asked for every bundled game both ways, and built each twice)."""
    path = next(p for p in meeple.bundled_games() if p.stem == "dino_party")
    by_name, by_file = meeple.check(path.stem), meeple.check(path)
    assert by_file.program is by_name.program and by_file.path == by_name.path
    assert meeple.load(path).program is meeple.load(path.stem).program


def test_a_load_after_a_check_of_the_same_file_and_options_builds_nothing_again(folder: Path) -> None:
    """A check kept from the disk hands its Program to a load of the same file under the same
    options (a test, `meeple check --play`, checks and then plays): built once, not twice; a
    check that found an error does not, and the load says the error."""
    checked = meeple.check(folder / "counters.rules", {"stones": "5"})
    game = meeple.load(folder / "counters.rules", {"stones": "5"})
    assert game.program is checked.program and game.options == checked.options
    assert prompt_options(game) == ["1", "5"]
    write(folder, "broken.rules", GAME.replace("n stone", "n pebble"))
    assert not meeple.check(folder / "broken.rules").ok
    with pytest.raises(meeple.RulesError, match="pebble"):
        meeple.load(folder / "broken.rules")


def test_each_caller_owns_its_game_and_its_check(folder: Path) -> None:
    first = meeple.load(folder / "counters.rules")
    first.options["stones"] = "9"
    assert meeple.load(folder / "counters.rules").options == {"stones": "2"}
    checked = meeple.check(folder / "counters.rules")
    assert checked.ok
    checked.diagnostics.append(meeple.Diagnostic("counters.rules", 1, 1, "error", "M001", "the caller's own"))
    checked.options.clear()
    again = meeple.check(folder / "counters.rules")
    assert again.ok and again.options == {"stones": "2"}


@pytest.mark.parametrize(
    ("file", "text"),
    [
        ("counters.rules", GAME.replace("[1, stones]", "[1, 5]")),  # the rules file
        ("shades.csv", "name\npale\ndark\n"),  # a data file it reads
    ],
)
def test_a_file_changed_on_disk_is_read_again(folder: Path, file: str, text: str) -> None:
    before = meeple.load(folder / "counters.rules")
    write(folder, file, text)
    after = meeple.load(folder / "counters.rules")
    assert after.program is not before.program


def test_a_variant_is_read_again_when_its_base_game_changes(folder: Path) -> None:
    assert prompt_options(meeple.load(folder / "more.rules")) == ["1", "3"]
    write(folder, "counters.rules", GAME.replace("[1, stones]", "[2, stones]"))
    assert prompt_options(meeple.load(folder / "more.rules")) == ["2", "3"]
    assert meeple.check(folder / "more.rules").ok


def test_a_file_gone_from_the_disk_is_an_error_again(folder: Path) -> None:
    meeple.load(folder / "counters.rules")
    (folder / "shades.csv").unlink()
    with pytest.raises(meeple.RulesError, match=r"shades\.csv"):
        meeple.load(folder / "counters.rules")
    assert not meeple.check(folder / "counters.rules").ok


def test_a_relative_name_is_read_from_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same name, asked from another folder, is another file, even with the same text: a
    log names the file it was played from."""
    alone = GAME.replace('table shade (name) from "shades.csv":\n  grey\n', "")  # reads no other file
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        write(tmp_path / name, "counters.rules", alone)
    monkeypatch.chdir(tmp_path / "one")
    assert meeple.load("counters.rules").path == str(tmp_path / "one" / "counters.rules")
    monkeypatch.chdir(tmp_path / "two")
    assert meeple.load("counters.rules").path == str(tmp_path / "two" / "counters.rules")


def test_a_file_is_read_once_for_all_its_options_and_each_check_owns_its_module(folder: Path) -> None:
    """`meeple check` builds the game under every other value of an option (`checks._option_games`),
    a sequence each of its games: the file and its base are read, parsed and applied once
    (`loader.read_kept`), and each check gets a copy to set its options in."""
    reads: list[Path] = []
    real = meeple.loader.read_module

    def counting(path: Path, *args: object, **kwargs: object) -> object:
        reads.append(path)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(meeple.loader, "read_module", counting)
        four = meeple.check(folder / "more.rules", {"stones": "4"})
        five = meeple.check(folder / "more.rules", {"stones": "5"})
    assert reads == [folder / "more.rules", folder / "counters.rules"]  # the variant, then its base
    assert four.module is not five.module
    assert four.options == {"stones": "4"} and five.options == {"stones": "5"}
    assert prompt_options(meeple.load(folder / "more.rules")) == ["1", "3"]  # no option a check set


def test_a_read_kept_notes_every_file_a_read_from_the_disk_notes(folder: Path) -> None:
    """What a load read is what a Ray task is sent (`ray_backend.bundle`) and what decides that a
    kept game is still the file's: a kept read notes the same texts, names and answers, in the
    same order, as reading the files again."""
    meeple.load(folder / "more.rules")  # the read is kept
    kept, fresh = Recorded(), Recorded()
    meeple.load(folder / "more.rules", {"stones": "7"}, files=kept)
    with pytest.MonkeyPatch.context() as patch:
        reading = meeple.loader.read_module
        patch.setattr(meeple.loader, "read_kept", lambda path, files, seen=(): reading(path, seen, files))
        meeple.load(folder / "more.rules", {"stones": "7"}, files=fresh)
    assert list(kept.texts.items()) == list(fresh.texts.items()) and len(kept.texts) == 3
    assert list(kept.found.items()) == list(fresh.found.items())
    assert kept.answers == fresh.answers


def test_a_recorded_load_is_unchanged_until_a_file_it_read_changes(folder: Path) -> None:
    files = Recorded()
    meeple.load(folder / "more.rules", files=files)
    assert files.unchanged()
    write(folder, "shades.csv", "name\npale\n")  # the same text again
    assert files.unchanged()
    write(folder, "counters.rules", GAME + "\n")
    assert not files.unchanged()


def test_the_garbage_collector_is_off_only_while_a_game_is_built(folder: Path) -> None:
    """The loader holds the cyclic collector off while it builds (`loader.uncollected`: half of a
    Campaign's load was the collector's), and leaves it as it found it: on after a load, a check
    and a load that fails; off where the caller had turned it off."""
    seen: list[bool] = []
    real = meeple.loader.apply_options

    def watching(*args: object) -> object:
        seen.append(gc.isenabled())
        return real(*args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(meeple.loader, "apply_options", watching)
        meeple.load(folder / "more.rules", {"stones": "3"})
    assert seen == [False] and gc.isenabled()
    assert meeple.check(folder / "counters.rules", {"stones": "5"}).ok and gc.isenabled()
    write(folder, "broken.rules", GAME.replace("play:", "play"))
    with pytest.raises(meeple.RulesError):
        meeple.load(folder / "broken.rules")
    assert gc.isenabled()
    gc.disable()
    try:
        meeple.load(folder / "counters.rules", {"stones": "1"})
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_variants_of_one_game_read_the_base_game_once(folder: Path) -> None:
    """Two variants of one game, and the game itself, parse and read its file once in a process
    (`loader.read_kept` keeps a variant's base as it keeps the file asked for): each variant of a
    game read, parsed and patched its base again, seconds for a Campaign's chain of variants.
    Each keeps its own module: the second variant does not see the first one's patch."""
    write(folder, "fewer.rules", VARIANT.replace("More", "Fewer").replace("= 3", "= 5"))
    reads: list[str] = []
    own_module = meeple.loader._own_module
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            meeple.loader,
            "_own_module",
            lambda path, files: reads.append(path.name) or own_module(path, files),
        )
        more, fewer = meeple.load(folder / "more.rules"), meeple.load(folder / "fewer.rules")
        meeple.load(folder / "counters.rules")
    assert sorted(reads) == ["counters.rules", "fewer.rules", "more.rules"]
    assert prompt_options(more) == ["1", "3"] and prompt_options(fewer) == ["1", "5"]
    assert prompt_options(meeple.load(folder / "counters.rules")) == ["1", "2"]
