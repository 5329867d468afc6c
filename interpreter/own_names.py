"""The language's own names: `players`, `current`, `player_count` and `self`, each defined once,
with its type, how a running game reads it, its words in the designer's reference and in the
players' rules, and its line for the editors' hover. Analysis, the compiler, the native lowering,
the flow checks, both English voices, the lexers and the language server read this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple.interpreter import types as ty
from meeple.interpreter.runtime import CURRENT

Fn = Callable[[Any, dict[str, Any]], Any]  # as interpreter/program.py's: (runtime, env) -> value
# The name a declaration's line calls the row (or player) it is about: the key it is bound by in
# the environment of every pass that binds it (analysis, the compiler, the native lowering).
SELF = "self"


def _players(rt: Any, env: dict[str, Any]) -> list[Any]:
    return list(rt.players)


def _current(rt: Any, env: dict[str, Any]) -> Any:
    reads = rt.reads
    if reads is not None:
        reads.add(CURRENT)  # whose turn it is changes: a memo that asked depends on it
    return rt.current


def _player_count(rt: Any, env: dict[str, Any]) -> int:
    return len(rt.players)


def _self(rt: Any, env: dict[str, Any]) -> Any:
    return env[SELF]


@dataclass(frozen=True)
class OwnName:
    """A name the language gives every game. `steady`: it does not change while a game is
    played (the flow checks treat it as fixed). `native`: the native core's expression for it,
    or None where the lowering binds it as a name of its own (`self`, a slot of the frame)."""

    name: str
    type: ty.Type
    doc: str
    english: str
    players: str
    steady: bool
    read: Fn
    native: str | None


OWN_NAMES: dict[str, OwnName] = {
    own.name: own
    for own in (
        OwnName(
            "players",
            ty.ListOf(ty.PLAYER),
            "every player, in seat order",
            "the players",
            "the players",
            True,
            _players,
            "Players",
        ),
        OwnName(
            "current",
            ty.PLAYER,
            "the player whose turn it is",
            "the current player",
            "the active player",
            False,
            _current,
            "Current",
        ),
        OwnName(
            "player_count",
            ty.INT,
            "how many players the game has",
            "the number of players",
            "the number of players",
            True,
            _player_count,
            "PlayerCount",
        ),
        OwnName(
            SELF,
            ty.ANY,
            "the row (or player) a declaration's line is about",
            "it",
            "it",
            True,
            _self,
            None,
        ),
    )
}
