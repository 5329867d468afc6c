"""meeple: a declarative rules language for board games.

import meeple
game = meeple.load("my_game")             # a bundled game by name, or a path to a .rules file
state = game.new_game(players=3, seed=1)
state.decision                              # who decides, the prompt, the options
state.apply(0)
"""

from meeple.diagnostics import Diagnostic, RulesError
from meeple.interpreter.engine import Game, IllegalChoice, State, replay
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.loader import bundled_games, check, load, resolve

__all__ = [
    "Diagnostic",
    "Game",
    "IllegalChoice",
    "RuleRuntimeError",
    "RulesError",
    "State",
    "bundled_games",
    "check",
    "load",
    "replay",
    "resolve",
]
