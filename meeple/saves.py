"""A game's save: what `meeple play --save` writes at the end of a game and `--load` starts the
next one from, as JSON a person can read.

A save holds what the rules declare `carry` (interpreter/carry.py): variables, the pieces in
zones, grid maps with their layers and pieces, each shared or per owner. Every entry names the
declaration as the rules write it (`carry`, `per`) and, beside it, what players read (`called`,
`owner`, a row's name); the names players read are there for people and are never read back.

A save may come from someone else, so reading one trusts nothing in it: the file is opened by
one function (`read_save_bytes`), which reads a regular file only and at most MAX_SAVE_BYTES of
it; the schema fixes every field's type, length and range (JSON nested deeper than the schema is
refused by the parser); and the engine then checks every entry against the rules (names, owners,
rows, types, ranges, piece counts) before anything runs. A save is data: nothing in it is a path
meeple opens or code it runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meeple import paths
from meeple.files import write_atomic
from meeple.limits import MAX_LIST, MAX_NUMBER, MAX_PIECES, MAX_SAVE_BYTES, MAX_SEATS

SAVE_FORMAT = 1  # the "meeple_save" field: the version of this schema

Name = Annotated[str, Field(min_length=1, max_length=100)]  # a name as the rules write it
Words = Annotated[str, Field(max_length=1_000)]  # what players read: never read back
Number = Annotated[int, Field(strict=True, ge=-MAX_NUMBER, le=MAX_NUMBER)]
Seat = Annotated[int, Field(strict=True, ge=0, lt=MAX_SEATS)]
Coordinate = Annotated[int, Field(strict=True, ge=-1_000_000, le=1_000_000)]
# A variable's value: a number, yes/no, a text or a row's key (by the variable's type), a seat
# (a player), or none.
Value = Annotated[int, Field(strict=True, ge=-MAX_NUMBER, le=MAX_NUMBER)] | bool | Words | None


class SaveError(ValueError):
    """A save that cannot be read, or does not fit the rules: the message says why in a sentence."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class SavedPieces(_Strict):
    """`count` pieces of one kind and owner, in a row: a place's pieces are runs, bottom first."""

    piece: Name  # the piece's declaration
    row: Name | None = None  # for pieces made from a table: the row's key
    seat: Seat | None = None  # the owner, or none
    count: Annotated[int, Field(strict=True, ge=1, le=MAX_PIECES)]
    called: Words = ""  # what players read: "3 Tokens of Player 1"


class SavedLayer(_Strict):
    """A shape laid on a grid: its cells and the row each shows, and the turn it was given."""

    cells: Annotated[list[tuple[Coordinate, Coordinate]], Field(min_length=1, max_length=MAX_LIST)]
    rows: Annotated[list[Name], Field(min_length=1, max_length=MAX_LIST)]
    turns: Annotated[int, Field(strict=True, ge=0, le=360)]


class SavedCell(_Strict):
    """The pieces on one cell of a grid."""

    cell: tuple[Coordinate, Coordinate]
    pieces: Annotated[list[SavedPieces], Field(max_length=MAX_LIST)]


class SavedEntry(_Strict):
    """One carried declaration for one owner: a variable's value (`value`, or `values` by row for
    a variable per owner and table), a zone's pieces, or a grid's layers and the pieces on it."""

    carry: Name  # the declaration, as the rules write it
    per: Name | None = None  # its `per`: "player" or a table
    kind: Literal["variable", "zone", "grid"]
    seat: Seat | None = None  # the owner, for `per player`
    row: Name | None = None  # the owner row's key, for `per TABLE`
    called: Words = ""  # what players read: "Gold of Player 1"
    value: Value = None
    values: Annotated[dict[Name, Value], Field(max_length=MAX_LIST)] | None = None
    shows: Words = ""  # what players read for the value: "Red", "Red 2, Blue 0"
    pieces: Annotated[list[SavedPieces], Field(max_length=MAX_LIST)] | None = None
    layers: Annotated[list[SavedLayer], Field(max_length=MAX_LIST)] | None = None
    cells: Annotated[list[SavedCell], Field(max_length=MAX_LIST)] | None = None


class Save(_Strict):
    """A whole save: the game it comes from and every carried entry."""

    meeple_save: Annotated[int, Field(strict=True)]
    game: Annotated[str, Field(max_length=1_000)]  # the game's name, as its header gives it
    players: Annotated[int, Field(strict=True, ge=1, le=MAX_SEATS)]
    entries: Annotated[list[SavedEntry], Field(max_length=MAX_LIST)]


def read_save_bytes(path: Path) -> bytes:
    """The bytes of a save file the user names, read as every file is (`meeple/paths.py`): a
    regular file only (never a device, a pipe or a link loop), at most MAX_SAVE_BYTES."""
    try:
        return paths.read_user_bytes(path, MAX_SAVE_BYTES, "the save")
    except paths.Refused as err:
        raise SaveError(str(err)) from None


def read_save(path: Path) -> Save:
    """The save at `path`, or SaveError saying what is wrong with it."""
    return parse_save(read_save_bytes(path), str(path))


def parse_save(text: bytes | str, where: str) -> Save:
    """A save's text (read from `where`, which the message names), or SaveError."""
    try:
        save = Save.model_validate_json(text)
    except ValidationError as err:
        raise SaveError(f"{where} is not a meeple save: {first_problem(err)}") from None
    if save.meeple_save != SAVE_FORMAT:
        raise SaveError(
            f"{where} is a save of format {save.meeple_save}; this meeple reads format {SAVE_FORMAT}"
        )
    return save


def as_save(data: Save | dict | str | bytes, where: str = "the save") -> Save:
    """A save given to the API: a Save, its JSON, or its plain data (as `Save.model_dump`)."""
    if isinstance(data, Save):
        return data
    if isinstance(data, str | bytes):
        return parse_save(data, where)
    if isinstance(data, dict):
        return parse_save(json.dumps(data), where)
    raise SaveError(f"{where} must be a save (its JSON, or the data a game's save() gives), not {data!r}")


def first_problem(err: ValidationError) -> str:
    """The first thing wrong with a save or a log (meeple/logs.py), in a sentence: what pydantic
    found, said of the field where it found it. A field that is not one is only forbidden in a
    save (a log's own fields ignore the unknown), so it is a field of a save that it names."""
    problem = err.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    message = str(problem["msg"]).removeprefix("Value error, ")
    if problem["type"] == "missing":
        return f"the field '{where}' is missing"
    if problem["type"] == "extra_forbidden":
        return f"'{where}' is not a field of a save"
    if not where:
        return message.replace("Invalid JSON", "not JSON")
    return f"the field '{where}': {message[:1].lower()}{message[1:]}"


def save_text(save: Save) -> str:
    """A save as the text of its file: indented, so that a person can read it."""
    return json.dumps(save.model_dump(mode="json", exclude_none=True), indent=1, ensure_ascii=False) + "\n"


def write_save(path: Path, save: Save) -> None:
    """Write a save, whole or not at all."""
    write_atomic(path, save_text(save))
