"""What an example's `expect:` lines can read about the game as a whole, beside the position: the
scores, the tiebreaks, the winners and whether the game has ended.

A rulebook's scoring and end-of-game sentences ("the player with the most points wins", "the game
ends after the fourth round") are statements about results, not about pieces, so an example needs
words for them. They are declared here once: analysis gives them their types, the examples runner
computes them from the finished example, and the language reference lists them (a test keeps the
two in step). They are names only `expect:` sees; a declaration of the same name is hidden there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meeple.interpreter.types import BOOL, INT, PLAYER, ListOf, Type

if TYPE_CHECKING:
    from meeple.interpreter.engine import State


@dataclass(frozen=True)
class Result:
    type: Type  # as analysis gives it (interpreter/types.py)
    doc: str  # what the name means, for the language reference
    get: Callable[[State, bool], Any]  # (the example's state, whether its game ended) -> the value


def _tiebreaks(state: State) -> list[int]:
    tiebreak = state.game.program.tiebreak
    return [0] * state.players if tiebreak is None else [tiebreak(state.rt, p) for p in state.rt.players]


RESULTS: dict[str, Result] = {
    "scores": Result(
        ListOf(INT),
        "each player's score, in seat order (`scores[0]` is the first player's)",
        lambda state, ended: state.scores,
    ),
    "tiebreaks": Result(
        ListOf(INT),
        "each player's tiebreak, in seat order (all 0 when the game has none)",
        lambda state, ended: _tiebreaks(state),
    ),
    "winners": Result(
        ListOf(PLAYER),
        "the players with the best score, then the best tiebreak, as the game would name them now",
        lambda state, ended: [state.rt.players[i] for i in state.winners],
    ),
    "game_over": Result(
        BOOL,
        "the game has ended: by `end game`, or by its `play` running to the end (an example that "
        "says `play`)",
        lambda state, ended: ended,
    ),
    "ended_early": Result(
        BOOL,
        "the game was ended by `end game`, before its `play` ran to the end",
        lambda state, ended: state.ended_early,
    ),
}
