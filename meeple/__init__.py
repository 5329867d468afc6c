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

if TYPE_CHECKING:  # what a type checker sees: the same names, imported at once
    from meeple.diagnostics import Diagnostic as Diagnostic
    from meeple.diagnostics import RulesError as RulesError
    from meeple.interpreter.engine import Game as Game
    from meeple.interpreter.engine import IllegalChoice as IllegalChoice
    from meeple.interpreter.engine import State as State
    from meeple.interpreter.engine import replay as replay
    from meeple.interpreter.runtime import RuleRuntimeError as RuleRuntimeError
    from meeple.loader import OptionError as OptionError
    from meeple.loader import bundled_games as bundled_games
    from meeple.loader import check as check
    from meeple.loader import load as load
    from meeple.loader import resolve as resolve
    from meeple.saves import Save as Save
    from meeple.saves import SaveError as SaveError

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
    "OptionError": "meeple.loader",
    "resolve": "meeple.loader",
    "Save": "meeple.saves",
    "SaveError": "meeple.saves",
}

__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module 'meeple' has no attribute {name!r}")
    value = getattr(importlib.import_module(_API[name]), name)
    globals()[name] = value
    return value
