"""Carried state (`carry NAME [per OWNER]`, interpreter/carry.py, meeple/saves.py): a game's end
saved to a file a person can read, and a later game started from it.

Written for Dino Dynasty's "Save Between Games" ("Each player places in the SAVE ENVELOPE ...")
and "Dynasty Game" (an envelope chosen at setup), tested here with neutral names: a game of
pebbles, gems, towers and a deck (`tests/carry/pebbles.rules`).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_same_game, run, write
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import saves
from meeple.interpreter import carry
from meeple.interpreter.engine import State
from meeple.logs import LogError, log_text, parse_log
from meeple.saves import Save, SaveError, parse_save, read_save, save_text, write_save

HERE = Path(__file__).resolve().parent
PEBBLES = HERE / "carry" / "pebbles.rules"


@pytest.fixture(scope="module")
def game() -> meeple.Game:
    return meeple.load(PEBBLES)


def played(game: meeple.Game, players: int, seed: int, load: Any = None) -> State:
    """A game answered at random (from the seed) to its end."""
    rnd = random.Random(seed)
    state = game.new_game(players, seed, load=load)
    while not state.is_over:
        assert state.decision is not None
        state.apply(rnd.randrange(state.decision.size))
    return state


def pieces(state: State) -> Counter[Any]:
    """Every piece of the game, wherever it is: pieces are never created nor lost."""
    return Counter(piece for held in state.rt.locs.values() for piece in held)


def save_data(game: meeple.Game) -> dict[str, Any]:
    """A valid save, as plain JSON data a test can spoil."""
    return json.loads(save_text(played(game, 3, 4).save()))


# ---------------------------------------------------------------- the save and the start it gives


def test_a_save_read_back_gives_the_same_start(game: meeple.Game, tmp_path: Path) -> None:
    """Saved at the end, written, read back and loaded: the new game starts with exactly what the
    save says (its own save, taken before any decision, is the same save)."""
    end = played(game, 3, 4)
    save = end.save()
    write_save(tmp_path / "save.json", save)
    again = read_save(tmp_path / "save.json")
    assert again == save
    start = game.new_game(3, seed=99, load=again)
    assert start.choices == []
    assert start.save() == save


def test_a_loaded_game_has_the_saved_values_and_pieces(game: meeple.Game) -> None:
    end = played(game, 3, 4)
    start = game.new_game(3, seed=5, load=end.save())
    rt, old = start.rt, end.rt
    assert rt.vars["rounds"] == old.vars["rounds"] == 1
    assert rt.vars["last_winner"] is rt.players[0]
    for key in [("player", "gold"), ("player", "favourite"), ("player", "stock"), ("tower", "guards")]:
        assert rt.owned[key] == old.owned[key]
    for loc in rt.locs:
        if getattr(loc, "zone", None) in {"pouch", "vault", "deck", "table_top"}:
            assert rt.locs[loc] == old.locs[loc], loc  # the same pieces, in the same order


def test_carried_pieces_come_from_where_they_began(game: meeple.Game) -> None:
    """Pieces are never created: a loaded game holds exactly the pieces a new one does."""
    fresh = game.new_game(3, seed=5)
    loaded = game.new_game(3, seed=5, load=played(game, 3, 4).save())
    assert pieces(loaded) == pieces(fresh)


def test_the_save_is_readable_with_the_rules_names(game: meeple.Game) -> None:
    """JSON a person can read: each entry names its declaration and says it in players' words."""
    data = save_data(game)
    assert data["game"] == "Pebble Keep" and data["players"] == 3
    guards = next(e for e in data["entries"] if e["carry"] == "guards" and e["row"] == "north")
    assert guards["called"] == "guards of North Tower"
    vault = next(e for e in data["entries"] if e["carry"] == "vault" and e["row"] == "north")
    assert vault["pieces"][0]["piece"] == "gem" and "gem" in vault["pieces"][0]["called"]


def test_a_save_per_row_outlasts_the_seating(game: meeple.Game) -> None:
    """What is carried per row of a table (a tower) loads into a game of any size; what is
    carried per player needs as many players."""
    save = played(game, 3, 4).save()
    with pytest.raises(SaveError, match="must have 3 players, not 2"):
        game.new_game(2, seed=1, load=save)


def test_a_game_that_carries_nothing_cannot_be_saved(tmp_path: Path) -> None:
    plain = meeple.load(write(tmp_path, "plain.rules", 'game "Plain":\n  players 1\n\nplay:\n  log "hi"\n'))
    with pytest.raises(SaveError, match="carries nothing"):
        plain.new_game(1).save()


# ---------------------------------------------------------------- refused saves


def _entry(data: dict[str, Any], name: str, **where: Any) -> dict[str, Any]:
    return next(
        e for e in data["entries"] if e["carry"] == name and all(e.get(k) == v for k, v in where.items())
    )


def _set(name: str, field: str, value: Any, **where: Any) -> Any:
    def spoil(data: dict[str, Any]) -> None:
        _entry(data, name, **where)[field] = value

    return spoil


def _drop(name: str, **where: Any) -> Any:
    def spoil(data: dict[str, Any]) -> None:
        data["entries"].remove(_entry(data, name, **where))

    return spoil


def _twice(name: str) -> Any:
    def spoil(data: dict[str, Any]) -> None:
        data["entries"].append(_entry(data, name))

    return spoil


def _extra(name: str, **owner: Any) -> Any:
    def spoil(data: dict[str, Any]) -> None:
        data["entries"].append({**_entry(data, name), **owner})

    return spoil


def _top(field: str, value: Any) -> Any:
    def spoil(data: dict[str, Any]) -> None:
        data[field] = value

    return spoil


def _pieces(name: str, runs: list[dict[str, Any]], **where: Any) -> Any:
    return _set(name, "pieces", runs, **where)


# Each way a save can fail to fit the rules, and what the error says.
DOES_NOT_FIT = {
    "another game": (_top("game", "Stone Keep"), "from the game 'Stone Keep'"),
    "a name the rules do not carry": (
        _set("rounds", "carry", "turns"),
        "'turns', which these rules do not carry",
    ),
    "a row that does not exist": (_set("guards", "row", "east", row="north"), "no row 'east'"),
    "a value that is no row": (_set("favourite", "value", "green", seat=0), "'green', which is not a colour"),
    "a count out of range": (_set("gold", "value", 99, seat=1), "99, outside 0 to 20"),
    "a number that is a text": (_set("gold", "value", "many", seat=1), "'many', which is not a whole number"),
    "yes/no that is a number": (_set("fallen", "value", 1, row="south"), "1, which is not yes or no"),
    "no value where one is needed": (_set("rounds", "value", None), "no value, and it must have one"),
    "a player who is not at the table": (_set("last_winner", "value", 7), "7, which is not a seat"),
    "a seat past the players": (
        _set("gold", "seat", 5, seat=2),
        "'gold' of Player 6, but the game has 3 players",
    ),
    "an owner the game has not": (
        _extra("gold", seat=5),
        "gives 'gold' of Player 6, but the game has 3 players",
    ),
    "an entry missing": (_drop("gold", seat=1), "nothing for gold of Player 2"),
    "an entry twice": (_twice("rounds"), "'rounds' twice"),
    "a row missing from a value per row": (
        _set("stock", "values", {"red": 2}, seat=0),
        "no value of stock of Player 1 for 'blue'",
    ),
    "a row too many in a value per row": (
        _set("stock", "values", {"red": 2, "blue": 0, "green": 1}, seat=0),
        "'green', which is not a colour",
    ),
    "one value where there is one per row": (_set("stock", "values", None, seat=0), "one value; it has one"),
    "a kind that is not declared": (
        _pieces("vault", [{"piece": "ruby", "count": 1}], row="north"),
        "'ruby' in vault of North Tower: these rules have no such piece",
    ),
    "more pieces than the game has": (
        _pieces("vault", [{"piece": "gem", "count": 50}], row="north"),
        "50 of gem in vault of North Tower: the game does not have that many",
    ),
    "pieces of a seat past the players": (
        _pieces("pouch", [{"piece": "pebble", "seat": 9, "count": 1}], seat=0),
        "pieces of Player 10",
    ),
    "a zone given as a variable": (_set("deck", "kind", "variable"), "gives 'deck' as a variable"),
}


@pytest.mark.parametrize("case", list(DOES_NOT_FIT), ids=list(DOES_NOT_FIT))
def test_a_save_that_does_not_fit_the_rules_is_refused_before_anything_runs(
    game: meeple.Game, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spoil, message = DOES_NOT_FIT[case]
    data = save_data(game)
    spoil(data)
    ran: list[str] = []
    monkeypatch.setattr(State, "flow", lambda self, setup_only=False: ran.append("setup") or iter(()))
    with pytest.raises(SaveError) as err:
        game.new_game(3, seed=1, load=data)
    assert message in str(err.value)
    assert ran == []  # refused before setup


# Saves the schema refuses: the file is not a save at all.
NOT_A_SAVE = {
    "not JSON": (b"{not json", "not JSON"),
    "a field a save has not": (
        b'{"meeple_save": 1, "game": "x", "players": 2, "entries": [], "run": 1}',
        "'run'",
    ),
    "a field missing": (b'{"meeple_save": 1, "game": "x", "entries": []}', "'players' is missing"),
    "a count that is yes": (
        b'{"meeple_save": 1, "game": "x", "players": 2, "entries": [{"carry": "a", "kind": "zone",'
        b' "pieces": [{"piece": "p", "count": true}]}]}',
        "entries.0.pieces.0.count",
    ),
    "another format": (b'{"meeple_save": 7, "game": "x", "players": 2, "entries": []}', "format 7"),
    "a kind of entry that does not exist": (
        b'{"meeple_save": 1, "game": "x", "players": 2, "entries": [{"carry": "a", "kind": "code"}]}',
        "entries.0.kind",
    ),
    "JSON nested deeper than a save": (
        b'{"meeple_save": 1, "game": "x", "players": 2, "entries": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "not a meeple save",
    ),
}


@pytest.mark.parametrize("case", list(NOT_A_SAVE), ids=list(NOT_A_SAVE))
def test_a_file_that_is_not_a_save_is_refused_in_a_sentence(case: str) -> None:
    text, message = NOT_A_SAVE[case]
    with pytest.raises(SaveError) as err:
        parse_save(text, "the file")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_field_a_save_has_not_is_named_alike_in_a_save_and_in_a_log(game: meeple.Game) -> None:
    """A log that carries a save says what is wrong with it in a save's words (one account of a
    schema's first problem, meeple/saves.py `first_problem`): a field that is not one is named."""
    original = played(game, 2, 1, load=played(game, 2, 0).save())
    data = json.loads(log_text({**original.result(), "rules": "pebbles.rules"}))
    data["load"]["run"] = 1
    with pytest.raises(LogError) as err:
        parse_log(json.dumps(data).encode(), "the log")
    assert str(err.value) == "the log is not a meeple log: 'load.run' is not a field of a save"


def test_a_save_larger_than_a_save_can_be_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(" " * 1001)
    with pytest.raises(SaveError, match="larger than the save can be"):
        read_save(big)


def test_a_save_is_read_from_a_regular_file_only(tmp_path: Path) -> None:
    """A link to a device, a pipe or a folder is refused: a save from someone else can make
    meeple read nothing but the file named."""
    (tmp_path / "device.json").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "pipe.json")
    for name in ["device.json", "pipe.json"]:
        with pytest.raises(SaveError, match=r"not the save|not a regular file"):
            read_save(tmp_path / name)
    with pytest.raises(SaveError, match=r"missing\.json"):
        read_save(tmp_path / "missing.json")


# ---------------------------------------------------------------- the command line and replays


def test_play_saves_and_loads_and_replay_is_exact(tmp_path: Path) -> None:
    rules = write(tmp_path, "pebbles.rules", PEBBLES.read_text())
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    log = tmp_path / "log.json"
    result = run("play", str(rules), "--players", "2", "--seed", "3", "--save", str(first))
    assert result.exit_code == 0, result.output
    result = run(
        "play",
        str(rules),
        "--players",
        "2",
        "--seed",
        "4",
        "--load",
        str(first),
        "--save",
        str(second),
        "--log",
        str(log),
    )
    assert result.exit_code == 0, result.output
    assert json.loads(log.read_text())["load"]["entries"]  # the log holds the save it started from
    result = run("replay", str(log))
    assert result.exit_code == 0 and "same" in result.output, result.output
    assert read_save(second).entries != read_save(first).entries


def test_play_refuses_a_save_that_does_not_fit_before_playing(game: meeple.Game, tmp_path: Path) -> None:
    data = save_data(game)
    data["game"] = "Stone Keep"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    rules = write(tmp_path, "pebbles.rules", PEBBLES.read_text())
    result = run("play", str(rules), "--players", "3", "--load", str(bad))
    assert result.exit_code == 1
    assert "the save does not fit the rules: the save is from the game 'Stone Keep'" in result.output
    assert "which tower" not in result.output.lower()  # nothing was played


def test_save_needs_rules_that_carry(tmp_path: Path) -> None:
    rules = write(tmp_path, "plain.rules", 'game "Plain":\n  players 1\n\nplay:\n  log "hi"\n')
    result = run("play", str(rules), "--save", str(tmp_path / "out.json"))
    assert result.exit_code == 2 and "carries nothing" in result.output
    assert not (tmp_path / "out.json").exists()


def test_simulate_starts_every_game_from_the_save(game: meeple.Game, tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    write_save(save, played(game, 2, 4).save())
    rules = write(tmp_path, "pebbles.rules", PEBBLES.read_text())
    fresh = run("simulate", str(rules), "--games", "5", "--players", "2", "--jobs", "1", "--json")
    loaded = run(
        "simulate", str(rules), "--games", "5", "--players", "2", "--jobs", "1", "--json", "--load", str(save)
    )
    assert fresh.exit_code == loaded.exit_code == 0, loaded.output
    assert json.loads(fresh.output) != json.loads(loaded.output)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_a_game_started_from_a_save_replays_exactly_from_its_log(
    game: meeple.Game, seed: int, players: int
) -> None:
    save = played(game, players, seed).save()
    original = played(game, players, seed + 1, load=save)
    entry = parse_log(log_text({**original.result(), "rules": "pebbles.rules"}).encode(), "the log")
    assert entry.load == save
    again = meeple.replay(game, entry.players, entry.seed, entry.choices, load=entry.load)
    assert_same_game(again, original)
    assert again.save() == original.save()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_saves_chain_and_pieces_are_conserved(game: meeple.Game, seed: int, players: int) -> None:
    """Game after game from the last one's save: every start holds the pieces a new game does,
    and starts as its save says."""
    fresh = pieces(game.new_game(players, seed))
    save: Save | None = None
    for n in range(3):
        state = played(game, players, seed + n, load=save)
        assert pieces(state) == fresh
        save = state.save()
        start = game.new_game(players, seed, load=save)
        assert pieces(start) == fresh
        assert carry.take(start) == save


def test_the_playtest_page_starts_from_a_save_and_keeps_it(game: meeple.Game) -> None:
    """`meeple serve --load`: the page's game starts from the save; an undo replays from the same
    save, and the log the page saves holds it, so loading that log plays the same game again."""
    app = pytest.importorskip("meeple.serve.app")
    save = played(game, 2, 4).save()
    session = app.Session(game, game.path, 2, 9, ["human"], save)
    assert carry.take(session.state) == save  # before any decision, the start is the save
    state = session.state
    session.answer(0, state.decision.player.seat, 1)
    session.answer(1, session.state.decision.player.seat, 0)
    session.undo()  # takes back the last answer: replayed from the save with the first
    assert session.state.loaded == save and session.state.choices == [1]
    text = session.save()
    assert parse_log(text.encode(), "the page's log").load == save
    other = app.Session(game, game.path, 2, 9, ["human"])
    other.load(text.encode())
    assert other.state.loaded == save and other.state.choices == [1]
    assert carry.take(other.state) == carry.take(session.state)


def test_replay_refuses_a_log_whose_save_does_not_fit(tmp_path: Path) -> None:
    rules = write(tmp_path, "pebbles.rules", PEBBLES.read_text())
    first, log = tmp_path / "first.json", tmp_path / "log.json"
    assert run("play", str(rules), "--players", "2", "--save", str(first)).exit_code == 0
    assert run("play", str(rules), "--players", "2", "--load", str(first), "--log", str(log)).exit_code == 0
    data = json.loads(log.read_text())
    next(e for e in data["load"]["entries"] if e["carry"] == "gold")["value"] = 999
    log.write_text(json.dumps(data))
    result = run("replay", str(log))
    assert result.exit_code == 1
    assert "the save in" in result.output and "999, outside 0 to 20" in result.output


def test_a_carry_lines_called_heads_what_it_keeps_and_renames_nothing(tmp_path: Path) -> None:
    """The rulebook's "Kept between games" heads each carried thing by its name and owner ("Guards
    of each tower"); a `called` line on the `carry` heads it as written, where that would not read
    as a heading (Dino Dynasty's "Evolve marker kept by a change of species of each Dynasty"),
    and leaves the variable's own name as it is wherever else it is read."""
    from meeple.codegen import render

    source = PEBBLES.read_text(encoding="utf-8").replace(
        "carry stock per player\n", 'carry stock per player\n  called "The stock each player has put by"\n'
    )
    checked = meeple.check(write(tmp_path, "pebbles.rules", source))
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    docs = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    headings = [what for what, _ in docs.book.kept]
    assert "The stock each player has put by" in headings and "guards of each tower" in headings
    assert "stock of each player" not in headings
    saved = save_data(meeple.load(str(checked.path)))
    assert "stock of Player 1" in {e["called"] for e in saved["entries"] if e["carry"] == "stock"}
