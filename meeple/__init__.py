"""meeple: a declarative rules language for board games.

import meeple
game = meeple.load("my_game")             # a bundled game by name, or a path to a .rules file
state = game.new_game(players=3, seed=1)
state.decision                              # who decides, the prompt, the options
state.apply(0)

The names below are imported when first used, so that `import meeple` (and the start of the
`meeple` command, which must answer Ctrl-C even while it is still loading) costs nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.diagnostics import Diagnostic, RulesError
    from meeple.interpreter.engine import Game, IllegalChoice, State, replay
    from meeple.interpreter.runtime import RuleRuntimeError
    from meeple.loader import bundled_games, check, load, resolve

_API = {
    "Diagnostic": "meeple.diagnostics",
    "RulesError": "meeple.diagnostics",
    "Game": "meeple.interpreter.engine",
    "IllegalChoice": "meeple.interpreter.engine",
    "State": "meeple.interpreter.engine",
    "replay": "meeple.interpreter.engine",
    "RuleRuntimeError": "meeple.interpreter.runtime",
    "bundled_games": "meeple.loader",
    "check": "meeple.loader",
    "load": "meeple.loader",
    "resolve": "meeple.loader",
}

__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module 'meeple' has no attribute {name!r}")
    value = getattr(importlib.import_module(_API[name]), name)
    globals()[name] = value
    return value
