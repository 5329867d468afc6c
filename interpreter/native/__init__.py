"""The native engine: the same games, run by a Rust core (this folder's Cargo crate, built into
`_core` when meeple is installed on a machine with a Rust toolchain).

`lower.py` lowers a compiled program to the core's plain data; `state.py` wraps a game on the
core in the engine's API. The Python engine (interpreter/engine.py) stays the executable
specification and the fallback: a program the core does not run yet (`lower.Unsupported`), or a
machine where the core was not built, plays on it, and `engine_for` says why.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol

from meeple.interpreter import teams as teams_
from meeple.interpreter.engine import Game, _whole
from meeple.interpreter.native.lower import Lowered, Unsupported, lower
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.limits import DEFAULT_BUDGET
from meeple.saves import Save, as_save

try:
    import meeple.interpreter.native._core as _core
except ImportError:  # built without Rust: everything runs on the Python engine
    _core = None

NOT_BUILT = "the native engine is not built (meeple was installed without a Rust toolchain)"
ENGINES = ("auto", "python", "native")


def available() -> bool:
    return _core is not None


def lowered(game: Game, players: int | None = None) -> tuple[Lowered, Any]:
    """The game's program lowered and loaded into the core, once per program; a program with
    seats the rules play, once per number of players (its automata sit after the players)."""
    program = game.program
    count = game.min_players if players is None or not program.automata else players
    if program.native is None:
        program.native = {}
    if count not in program.native:
        try:
            low = lower(program, count)
            program.native[count] = (low, _core.Program(low.ir) if _core is not None else None)
        except Unsupported as err:
            program.native[count] = err
        except ValueError as err:  # the core refused to load it: expressions nested too deeply
            program.native[count] = Unsupported(f"a program the core cannot load ({err})", None)
    done = program.native[count]
    if isinstance(done, Unsupported):
        raise done
    return done


def engine_for(game: Game, asked: str | None = None) -> tuple[str, str]:
    """Which engine plays the game, and why not the native one when it is not: `asked` (or
    $MEEPLE_ENGINE) is auto (native when it can), python or native (an error when it cannot)."""
    asked = asked or os.environ.get("MEEPLE_ENGINE") or "auto"
    if asked not in ENGINES:
        raise ValueError(f"unknown engine '{asked}' (known: {', '.join(ENGINES)})")
    if asked == "python":
        return "python", "asked for"
    if _core is None:
        if asked == "native":
            raise ValueError(NOT_BUILT)
        return "python", NOT_BUILT
    try:
        for program in [game, *game.parts]:  # a sequence: each of its games, under its options
            lowered(program)
    except Unsupported as err:
        if asked == "native":
            raise ValueError(f"the native engine cannot play this game: {err}") from None
        return "python", str(err)
    return "native", ""


def new_game(
    game: Game,
    players: int | None = None,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    logging: bool = True,
    checked: bool = True,
    teams: Sequence[Sequence[int]] | None = None,
    load: Save | dict[str, Any] | str | bytes | None = None,
) -> Any:
    """A game on the native core (raises Unsupported or ValueError where there is none): checked
    as Game.new_game checks its arguments, its `teams` too (a layout of seats from 0, as
    Game.new_game takes it), and its save (`load`: SaveError before anything runs, as on the
    Python engine). A file with a `sequence` starts the whole sequence, each of its games on the
    core. An error in the rules before the first decision is raised here, or with checked=False
    by the state's `check()`."""
    from meeple.interpreter.native.state import NativeSequence, NativeState

    if _core is None:
        raise ValueError(NOT_BUILT)
    n = game.min_players if players is None else _whole("players", players)
    if _whole("seed", seed) < 0:
        raise ValueError(f"a seed is a whole number from 0, not {seed}")
    if _whole("budget", budget) < 1:
        raise ValueError(f"the step budget must be at least 1, not {budget}")
    if not game.min_players <= n <= game.max_players:
        raise ValueError(f"{game.name} is for {game.min_players} to {game.max_players} players, not {n}")
    layout = None if teams is None else teams_.check_layout(teams, game.program.symbols.teams, game.name, n)
    saved = None if load is None else as_save(load)
    if game.parts:
        for part in game.parts:
            lowered(part, n)
        sequence = NativeSequence(game, n, seed, budget, True, logging, saved, layout)
        if checked:
            sequence.check()
        return sequence
    low, core = lowered(game, n)
    state = NativeState(game, low, core, n, seed, budget, logging, layout, saved)
    if checked:
        state.check()
    return state


class Playout(Protocol):
    """A game `playouts` played to its end: its seed, the option taken at each decision (as
    `choices` records them), its turns and steps, each seat's score and tiebreak and the
    winners (seats from 0); or the error in the rules that stopped it (then no scores and no
    winners, as a record of such a game has none). The core makes one per game (src/py.rs's
    `Playout`): one object CPython's collector does not track, each field made a Python value
    when it is read. A tuple and four lists a game (and then a named tuple) set the collector off
    again and again over the whole heap of a loaded game: a seventh of the CPU time of 2,000
    Tic-Tac-Toe playouts, a quarter of 20,000's (docs/benchmarks.md, the fortieth round)."""

    @property
    def seed(self) -> int: ...
    @property
    def choices(self) -> list[int]: ...
    @property
    def turns(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def tiebreaks(self) -> list[int]: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def error(self) -> RuleRuntimeError | None: ...


def playouts(
    game: Game,
    games: int,
    seed: int = 0,
    players: int | None = None,
    agents: Sequence[str] = ("random",),
    budget: int = DEFAULT_BUDGET,
    teams: Sequence[Sequence[int]] | None = None,
    stream: bool = False,
    draw: str = "seat",
) -> list[Playout]:
    """`games` games of seeds `seed`, `seed + 1`, ..., each played to its end inside the core by
    its agents (named as `NativeState.play_out` names them, a shorter list repeating its last),
    in one call: each is the game `new_game(game, players, s, logging=False)` then `play_out`
    plays (tests/test_native_playouts.py), started from a copy of a start prepared once
    (src/playouts.rs), with nothing crossing into Python per game or per decision. What a
    benchmark of random playouts or a batch of a simulation asks. Arguments are checked as
    `new_game` checks them (ValueError); a `sequence` is played game by game (`new_game`).

    With `stream`, the games are drawn from one stream from `seed` rather than each from its own
    seed: the chance generator and the agents made once, each game going on from where the one
    before left them (src/playouts.rs's `Stream`), so nothing is seeded per game. The first is
    the game of `seed`; a later one replays only after those before it (each `Playout`'s `seed`
    is then the stream's). The Python engine's `agents.playouts` plays the same games.

    `draw` says how the random answers are drawn: "seat" (the default), each seat's agent from
    its own generator, `Random(seed * 1000 + seat)`, as `play_out` and `meeple simulate` draw
    them; "game", one generator for every seat, seeded with the game's seed (in a stream, once
    with `seed`), drawing each answer as `randrange(decision size)`: the games of the loop
    `rng = Random(seed); while not state.is_over: state.apply(rng.randrange(state.decision.size))`
    on either engine (a benchmark's, and OpenSpiel's), with one seeding a game rather than one a
    seat. Only random agents share one: any other agent with "game" is a ValueError."""
    from meeple.interpreter.agents import one_generator, parse_search
    from meeple.interpreter.native.state import core_agent, core_error

    if _core is None:
        raise ValueError(NOT_BUILT)
    if _whole("games", games) < 0:
        raise ValueError(f"a number of games is a whole number from 0, not {games}")
    if game.parts:
        raise ValueError("a sequence is played game by game: new_game, then play_out")
    if not agents:
        raise ValueError("playouts need an agent for the players (random, first, a style, mcts...)")
    one_generator(draw, agents)  # checked before any game
    if stream and any(parse_search(name) is not None for name in agents):
        raise ValueError("a search copies its game from the game's seed: it plays no stream of games")
    probe = new_game(game, players, seed, budget, logging=False, checked=False, teams=teams)  # checks them
    low, core = lowered(game, probe.players)
    named = [core_agent(game, low, agents[min(seat, len(agents) - 1)]) for seat in range(probe.players)]
    layout = None if probe.layout is None else [list(team) for team in probe.layout]

    def worded(kind: str, detail: str, at: int | None) -> RuleRuntimeError:
        """A failed game's error (the core's kind, detail and place) in the Python engine's words."""
        return core_error(low, budget, kind, detail, at)

    records: list[Playout] = core.playouts(
        probe.seats, (seed, games), named, budget, layout, stream, draw, worded
    )
    return records


__all__ = [
    "ENGINES",
    "NOT_BUILT",
    "Playout",
    "Unsupported",
    "available",
    "engine_for",
    "lowered",
    "new_game",
    "playouts",
]
