"""A game's log: what `meeple play --log` writes and `meeple replay` reads.

A log is the replay format (rules, players, seed, choices, and the save the game started from if
it was started from one) and the result it led to, as JSON. A
log arrives attached to a bug report or from a friend, so reading one trusts nothing in it: the
file's size is bounded before it is read, the schema below fixes every field's type and range
(a `true` is not a format number, `1.0` is not a seat, a 5,000-digit seed is refused), and the
rules it names are found the way a variant finds its base game: a bundled game, or a `.rules`
file beside the log (`meeple replay LOG --rules FILE` names any other).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from meeple.files import write_atomic
from meeple.interpreter.runtime import Said, Secret
from meeple.limits import MAX_CHOICES, MAX_JSON_DEPTH, MAX_LOG_BYTES, MAX_NUMBER, MAX_SEATS
from meeple.paths import Refused, read_user_bytes, resolved
from meeple.saves import Save, first_problem

if TYPE_CHECKING:
    from meeple.interpreter.engine import Game, State

LOG_FORMAT = 1  # the "meeple" field: the version of this schema

# The line the engine logs for a `random x from LIST` pick (interpreter/compiler/decisions.py):
# a record for replaying the game, not a sentence of the rules. The saved log and `play`'s
# stdout (the game's record) keep it; what a player reads as the game goes (the playtest page,
# the terminal's narration) leaves it out.
PICK_RECORD = re.compile(r"\s+\(random \w+: .*\)")


def for_seat(lines: list[str], seat: int | None, say: Callable[[Said], str] | None = None) -> list[str]:
    """The log lines a player at `seat` reads as the game goes: the engine's records of random
    picks left out, and a line some seats alone may read (`reveal`: a `Secret`) as the seat may
    read it, its text or what the others read in its place. `seat` None: a reader who may read
    everything (the game is over). `say` puts a place on a grid that grows (a `Said` line) in
    words (`meeple.board.say_place`); without it, the record's coordinates stay."""
    return [
        line.others
        if isinstance(line, Secret) and seat is not None and seat not in line.readers
        else say(line)
        if say is not None and isinstance(line, Said)
        else line
        for line in lines
        if not PICK_RECORD.fullmatch(line)
    ]


Number = Annotated[int, Field(strict=True, ge=-MAX_NUMBER, le=MAX_NUMBER)]
# A seed is what `Game.new_game` takes: from 0 (Python's generator would play -5 as 5).
Seed = Annotated[int, Field(strict=True, ge=0, le=MAX_NUMBER)]
Seat = Annotated[int, Field(strict=True, ge=0, lt=MAX_SEATS)]
Choice = Annotated[int, Field(strict=True, ge=0, lt=2**31)]


class LogError(ValueError):
    """A log that cannot be read, with a message that says why in a sentence."""


class SequencePart(BaseModel):
    """One game of a sequence, as its log records it."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    options: Annotated[
        dict[Annotated[str, Field(max_length=100)], Annotated[str, Field(max_length=1_000)]],
        Field(max_length=1_000),
    ] = {}
    seed: Number
    scores: Annotated[list[Number], Field(max_length=MAX_SEATS)] = []
    winners: Annotated[list[Seat], Field(max_length=MAX_SEATS)] = []
    choices: Annotated[int, Field(strict=True, ge=0, le=MAX_CHOICES)] = 0


class GameLog(BaseModel):
    """One game, as `play --log` writes it (fields a newer meeple adds are ignored)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    meeple: Annotated[int, Field(strict=True)]
    game: Annotated[str, Field(max_length=1_000)] = ""
    rules: Annotated[str, Field(min_length=1, max_length=4_096)]
    players: Annotated[int, Field(strict=True, ge=1, le=MAX_SEATS)]
    seed: Seed
    scores: Annotated[list[Number], Field(max_length=MAX_SEATS)]
    winners: Annotated[list[Seat], Field(max_length=MAX_SEATS)]
    turns: Annotated[int, Field(strict=True, ge=0, le=MAX_NUMBER)]
    choices: Annotated[list[Choice], Field(max_length=MAX_CHOICES)]
    shortfalls: Annotated[dict[str, Number], Field(max_length=10_000)] = {}
    # what the rules' counters counted (`counter`, `tally`): a number, or one per seat
    counters: Annotated[
        dict[
            Annotated[str, Field(max_length=100)],
            Number | Annotated[list[Number], Field(max_length=MAX_SEATS)],
        ],
        Field(max_length=10_000),
    ] = {}
    # the values the game's options were played with (loaded with them again to replay)
    options: Annotated[
        dict[Annotated[str, Field(max_length=100)], Annotated[str, Field(max_length=1_000)]],
        Field(max_length=1_000),
    ] = {}

    # -------------------------------------------------------- carried state, sequences of games
    # The save the game started from (`meeple play --load`), whole: replaying the log starts from
    # it again, so a log alone replays exactly. A save is checked as `--load` checks one.
    load: Save | None = None
    # A sequence of games (interpreter/sequence.py): each game's options, seed, scores, winners
    # and how many of `choices` it took. For people: replaying needs only the fields above.
    games: Annotated[list[SequencePart], Field(max_length=10_000)] = []
    # the teams of a game played in teams (each a list of seats from 0), checked against the
    # rules when the game is replayed; None: everyone played alone
    teams: Annotated[
        list[Annotated[list[Seat], Field(max_length=MAX_SEATS)]] | None, Field(max_length=MAX_SEATS)
    ] = None

    @field_validator("meeple")
    @classmethod
    def _known_format(cls, value: int) -> int:
        if value != LOG_FORMAT:
            raise ValueError(f"this is a log of format {value}; this meeple reads format {LOG_FORMAT}")
        return value


def position(game: Game, entry: GameLog) -> State:
    """The game a log records, played again from its seed, its choices, the save it started from
    and its teams, up to where the log ends (`meeple replay` and the playtest page's load): an
    IllegalChoice, SaveError, ValueError or RuleRuntimeError where the log does not fit the rules."""
    from meeple.interpreter.engine import replay

    return replay(
        game, entry.players, entry.seed, entry.choices, complete=False, load=entry.load, teams=entry.teams
    )


def read_log(path: Path) -> GameLog:
    """The log at `path` (a file the user names, read through `meeple.paths`: a regular file, at
    most MAX_LOG_BYTES), or LogError saying what is wrong with it."""
    try:
        text = read_user_bytes(path, MAX_LOG_BYTES, "a log")
    except Refused as err:
        raise LogError(f"cannot read the log {path}: {err}") from None
    return parse_log(text, str(path))


def parse_log(text: bytes, where: str) -> GameLog:
    """A log's text (read from `where`, which the message names), or LogError saying what is
    wrong with it. The caller bounds its size (MAX_LOG_BYTES) before reading it; its nesting is
    bounded here (MAX_JSON_DEPTH), before any parser recurses into it."""
    if (deep := too_deep(text)) is not None:
        raise LogError(
            f"{where} is not a meeple log: brackets nested more than {MAX_JSON_DEPTH} deep at byte {deep}"
        )
    try:
        return GameLog.model_validate_json(text)
    except ValidationError as err:
        raise LogError(f"{where} is not a meeple log: {first_problem(err)}") from None


# A JSON string (skipped whole: brackets inside it are text) or a bracket.
_STRING_OR_BRACKET = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def too_deep(text: bytes, limit: int = MAX_JSON_DEPTH) -> int | None:
    """Where (a byte offset) a JSON text's brackets first go deeper than `limit`, or None. One
    pass without recursion, over its strings and brackets only: what a parser would recurse
    through is measured before it does."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        bracket = match.group()
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return match.start()
        elif bracket in (b"]", b"}"):
            depth -= 1
    return None


def log_rules(rules_path: Path, log: Path, bundled: bool) -> str:
    """How a log names its rules: a bundled game by its name; a file in the log's folder (or
    below it) by its path from there, so that the two can move together; any other by its
    absolute path, which `replay` will not open unless the user names the rules. The log's folder
    is what counts (the log itself is written over whatever is there, a link included); Refused
    for a folder that cannot be resolved."""
    if bundled:
        return rules_path.stem
    folder, target = resolved(log.absolute().parent, "the log's folder"), rules_path.resolve()
    if target.is_relative_to(folder):
        return target.relative_to(folder).as_posix()
    return str(target)


def write_log(path: Path, result: dict[str, Any]) -> None:
    """Write a log, checked against the schema it will be read with, whole or not at all."""
    write_atomic(path, log_text(result))


def log_text(result: dict[str, Any]) -> str:
    """A game's result (`State.result()` with the rules named) as a log's text, checked against
    the schema it will be read with."""
    # checked as JSON, as `replay` will read it (a saved layer's cells are JSON lists)
    entry = GameLog.model_validate_json(json.dumps({"meeple": LOG_FORMAT, **result}))
    unused = {name for name in ("load", "games") if not getattr(entry, name)}  # a plain game's log as before
    return json.dumps(entry.model_dump(mode="json", exclude=unused)) + "\n"
