"""Any meeple game as an OpenSpiel game, so that OpenSpiel's algorithms (its MCTS bot, CFR...) play
designers' games.

    from meeple.openspiel import load_game
    game = load_game("my_game", players=3)            # a pyspiel.Game
    state = game.new_initial_state()                   # a pyspiel.State

Needs the `openspiel` extra (`pip install 'meeple[openspiel]'`); importing this module without it
raises an ImportError that says so. Loading a game also registers it with OpenSpiel as
`meeple_<file name>` (`meeple_tic_tac_toe`), its parameters `players`, `seed` and the game's own
options (`pyspiel.load_game("meeple_hex(size=7)")` once `load_game("hex.rules")` ran).

How a meeple game is put in OpenSpiel's terms, and why:

- **Actions** are option positions in the current decision: action `i` is the `i`-th option of
  `state.decision` (`state.apply(i)`), as a meeple log records it. The same action in another
  position may be another move; a meeple decision has no fixed list of all moves. So
  `num_distinct_actions` is a bound (the most items a list may hold, one pass, and one per `offer`
  statement), not a move table: fine for search (MCTS, CFR), not an output layer for AlphaZero,
  and no observation tensors are provided.
- **Chance** is drawn inside the engine from the game's seed (the order of a shuffle, a `random`,
  a `pick`), never offered as a chance node: a meeple game does not say in advance what it will
  draw. So a game that draws is `SAMPLED_STOCHASTIC`, with its seed fixed per game (the `seed`
  parameter: every initial state of one game object plays the same draws; load another seed for
  other draws), and a game that never draws is `DETERMINISTIC`. As in OpenSpiel's own sampled
  games, a copy of a state draws what the original will draw: a search through copies knows the
  coming draws of this seed. Seeds vary the draws between games, not within one search.
- **Information**: perfect unless a zone is `hidden`, `private` or `top`. A seat's observation is
  its `state.view(seat)` (what a meeple player may look at, as JSON, without the seed, which
  would tell the coming draws); its information state adds every choice made so far and who made
  it (meeple's log shows every choice to the table).
- **Returns** are wins, zero-sum: the winners share +1 and the losers share -1 (two players: +1
  and -1; everyone winning or a draw: 0 each; three players with one winner: +1, -1/2, -1/2).
  meeple's winners are the seats with the best score (then tiebreak). A solo game has no one to
  win against and is refused here.
- **Copies**: a Python-engine state holds a running generator and cannot be deep-copied, so a copy
  replays the choices from the seed (`meeple.replay(..., complete=False)`): its cost grows with
  the length of the game so far. A state of another engine (the native core) copies itself with
  its own `clone()`: `_copy` takes one path or the other by the state's type. OpenSpiel copies a
  Python state by deep-copying its attributes, so the meeple state sits in a `_Position`, whose
  `__deepcopy__` is that copy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import meeple
from meeple.grammar import ast
from meeple.interpreter.engine import Game, State
from meeple.limits import MAX_CHOICES, MAX_LIST

INSTALL = "pip install 'meeple[openspiel]'"

try:
    import pyspiel
except ImportError as err:  # the optional extra: say how to get it rather than a bare ModuleNotFoundError
    raise ImportError(f"meeple.openspiel needs OpenSpiel: {INSTALL}") from err


# Statements that draw from the game's seed: a game without them is deterministic.
DRAWS = (ast.Shuffle, ast.Random, ast.Pick)
# Zone flags that keep something from some seat.
SECRET = {"hidden", "private", "top"}
Options = tuple[tuple[str, str], ...]  # a game's option values, sorted by name: a key
# Each game loaded, by its rules and options: OpenSpiel makes a game object for every parameter
# set it reads (a serialized state, `pyspiel.load_game`), and each needs the same meeple game.
_games: dict[tuple[str, Options], Game] = {}
# short name -> the class OpenSpiel makes its games with (its registry is global to the process).
_registered: dict[str, type[MeepleGame]] = {}


def load_game(
    path_or_name: str | Path,
    players: int | None = None,
    options: dict[str, str] | None = None,
    seed: int = 0,
) -> MeepleGame:
    """A meeple game (a bundled game's name or a .rules file) as an OpenSpiel game for `players`
    seats (default: the game's fewest), with these option values and this seed for its draws.
    Raises what `meeple.load` raises for a broken file or an unknown option, and ValueError for a
    player count the game does not take or a solo game."""
    game = meeple.load(path_or_name, options)
    _games[game.path, _key(game.options)] = game
    params = {"players": game.min_players if players is None else players, "seed": seed}
    return _registered_class(game)(params | _option_params(game))


def _registered_class(game: Game) -> type[MeepleGame]:
    """The class of this file's OpenSpiel games, registered as `meeple_<file name>` the first
    time. A class, as OpenSpiel's own Python games register: a registered function aborted the
    process at its end (OpenSpiel frees it after Python has let go of its lock)."""
    short_name = "meeple_" + Path(game.path).stem
    registered = _registered.get(short_name)
    if registered is None:
        _refuse_solo(game, game.max_players)
        # the defaults OpenSpiel fills in for parameters not given: the file's own option values
        kind = game_type(_loaded(game.path, ()), short_name)
        registered = type(short_name, (MeepleGame,), {"rules": game.path, "kind": kind})
        pyspiel.register_game(kind, registered)
        _registered[short_name] = registered
    elif registered.rules != game.path:
        raise ValueError(f"another game is registered with OpenSpiel as {short_name}: {registered.rules}")
    return registered


def _refuse_solo(game: Game, players: int) -> None:
    if players < 2:
        raise ValueError(
            f"{game.name} for one player has no one to win against: OpenSpiel's returns here are wins"
        )


def game_type(game: Game, short_name: str) -> pyspiel.GameType:
    """What OpenSpiel needs to know of a game before playing it (see the module's docstring)."""
    module = game.program.symbols.module
    draws = any(isinstance(node, DRAWS) for node in module.walk())
    secret = any(SECRET & set(decl.flags) for decl in module.find_all(ast.ZoneDecl))
    return pyspiel.GameType(
        short_name=short_name,
        long_name=game.name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        if draws
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if secret
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=max(2, game.min_players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": max(2, game.min_players), "seed": 0} | _option_params(game),
    )


def _option_params(game: Game) -> dict[str, int | str]:
    """The game's option values as OpenSpiel parameters: a whole number for an `int` option
    (OpenSpiel reads `size=11` as one), the text for any other."""
    ints = {d.name for d in game.program.symbols.module.find_all(ast.OptionDecl) if d.type.name == "int"}
    return {name: int(value) if name in ints else value for name, value in game.options.items()}


def _key(options: dict[str, str]) -> Options:
    return tuple(sorted(options.items()))


def _loaded(rules: str, options: Options) -> Game:
    """A game loaded once per process for these rules and options (a key from `_key`)."""
    if (rules, options) not in _games:
        _games[rules, options] = meeple.load(rules, dict(options))
    return _games[rules, options]


class MeepleGame(pyspiel.Game):
    """A meeple game for a number of players and a seed (its parameters), with the game's options
    (the others). One subclass per rules file, registered with OpenSpiel, names the file (`rules`:
    a bundled game's name or a file's path) and its type (`kind`)."""

    rules: str
    kind: pyspiel.GameType

    def __init__(self, params: dict[str, Any]) -> None:
        options = {name: str(value) for name, value in params.items() if name not in ("players", "seed")}
        game = _loaded(self.rules, _key(options))
        players, seed = params["players"], params["seed"]
        if not game.min_players <= players <= game.max_players:
            raise ValueError(
                f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}"
            )
        _refuse_solo(game, players)
        offers = sum(1 for _ in game.program.symbols.module.find_all(ast.Offer))
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_LIST + 1 + offers,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_CHOICES,
        )
        super().__init__(self.kind, info, params)
        self.meeple = game
        self.players = players
        self.seed = seed

    def new_initial_state(self) -> MeepleState:
        return MeepleState(self, self.meeple.new_game(self.players, seed=self.seed, logging=False))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"a meeple game's observations take no parameters, not {params}")
        return Observer(iig_obs_type is not None and iig_obs_type.perfect_recall)


class _Position:
    """The meeple state inside a MeepleState: what OpenSpiel deep-copies to clone it."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(_copy(self.state))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """What OpenSpiel pickles to serialize a state: the replay record (rules, options,
        players, seed, choices), never the running game."""
        state = self.state
        game = state.game
        return _replayed, (
            game.path,
            _key(game.options),
            state.players,
            state.seed,
            tuple(state.choices),
        )


def _replayed(path: str, options: Options, players: int, seed: int, choices: tuple[int, ...]) -> _Position:
    """A serialized state read back: the game loaded again (once per process) and replayed."""
    return _Position(meeple.replay(_loaded(path, options), players, seed, list(choices), complete=False))


def _copy(state: Any) -> Any:
    """A copy of a meeple state: the Python engine's by replaying its choices from its seed (it
    holds a generator, which Python cannot copy); any other engine's by its own `clone()`."""
    if isinstance(state, State):
        return meeple.replay(state.game, state.players, state.seed, state.choices, complete=False)
    return state.clone()


class MeepleState(pyspiel.State):
    """A meeple game in progress, as OpenSpiel sees it."""

    def __init__(self, game: MeepleGame, state: Any) -> None:
        super().__init__(game)
        self._position = _Position(state)

    @property
    def meeple(self) -> Any:
        """The meeple state: its decision, log, view, scores and winners."""
        return self._position.state

    def current_player(self) -> int:
        decision = self.meeple.decision
        return pyspiel.PlayerId.TERMINAL if decision is None else decision.player.seat

    def _legal_actions(self, player: int) -> list[int]:
        decision = self.meeple.decision
        return list(range(decision.size)) if decision is not None and decision.player.seat == player else []

    def _apply_action(self, action: int) -> None:
        self.meeple.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The option's label while it is that player's to choose; its position otherwise (a
        position means nothing once the decision is gone)."""
        decision = self.meeple.decision
        if decision is not None and decision.player.seat == player and 0 <= action < decision.size:
            return f"{decision.player}: {decision.option(action)}"
        return f"option {action}"

    def is_terminal(self) -> bool:
        return self.meeple.is_over

    def returns(self) -> list[float]:
        """Zero-sum wins: the winners share +1, the others -1 (see the module's docstring)."""
        state = self.meeple
        if not state.is_over:
            return [0.0] * state.players
        winners = set(state.winners)
        losers = state.players - len(winners)
        if losers == 0:
            return [0.0] * state.players
        return [1.0 / len(winners) if seat in winners else -1.0 / losers for seat in range(state.players)]

    def __str__(self) -> str:
        return _seen(self.meeple, None)


class Observer:
    """What a seat observes (its view) and, with perfect recall, every choice made so far. A seat
    sees what its meeple view shows, whatever else OpenSpiel's observation type asks (public
    information only, or every player's): meeple's views are per seat."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: MeepleState, player: int) -> None:
        """No tensors: a meeple position has no fixed shape (see the module's docstring)."""

    def string_from(self, state: MeepleState, player: int) -> str:
        seen = _seen(state.meeple, player)
        if not self.perfect_recall:
            return seen
        played = list(zip(state.meeple.choosers, state.meeple.choices, strict=True))
        return f"{seen}\nchoices (seat, option): {played}"


def _seen(state: Any, seat: int | None) -> str:
    """The position as `seat` may see it (None: everything), without the seed: knowing it would
    tell every coming draw."""
    view = state.view(seat)
    del view["seed"]
    return json.dumps(view, sort_keys=True)


__all__ = ["INSTALL", "MeepleGame", "MeepleState", "load_game"]
