"""Running games for the checks: setup alone (for every player count) or whole games (`--play`).

A game is run exactly as `meeple play FILE --players N --seed S` runs it (the same random agents,
seeded the same way), so that anything found here is reproduced by that command. The program is
compiled with coverage, and two things are added to the game's runtime from the outside, without
the engine knowing:

- `rt.covered` becomes a `Trail`, a set that also remembers the statement that started last, so
  that an error the engine did not expect can be placed at a line;
- `rt.shortfall` is wrapped, so that every shortfall is recorded with that statement: the move or
  draw that wanted more pieces than there were.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple.interpreter.agents import make_agents
from meeple.interpreter.engine import Game, IllegalChoice, State
from meeple.interpreter.runtime import RuleRuntimeError, Runtime

Key = tuple[int, int]  # a statement, as coverage names it: (line, column)
MAX_DECISIONS = 20_000  # a game asking more is reported as never ending, like the step budget


class Trail(set[Key]):
    """The set of statements that ran, and the one that started last."""

    last: Key | None = None

    def add(self, key: Key) -> None:
        self.last = key
        super().add(key)


@dataclass(frozen=True)
class Short:
    """A move or draw that wanted `missing` more pieces of `what` than there were."""

    key: Key | None
    what: str
    missing: int


@dataclass
class Run:
    """One game (or one setup) and what happened in it."""

    players: int
    seed: int
    covered: set[Key] = field(default_factory=set)
    shorts: list[Short] = field(default_factory=list)
    choices: list[int] = field(default_factory=list)
    error: Exception | None = None
    last: Key | None = None  # the statement that started last: where an unexpected error happened
    last_rule: str = ""
    out_of_budget: bool = False  # the step budget ran out, or the game asked too many decisions
    too_many_decisions: bool = False


def drive(game: Game, players: int, seed: int, budget: int, setup_only: bool = False) -> Run:
    """Play one game with random agents (or run its setup alone); never raises for a bad game."""
    run = Run(players, seed)
    state: State | None = None
    trail = Trail()
    try:
        state = game.new_game(players, seed, budget=budget, run_setup=False, logging=False)
        rt = state.rt
        rt.covered = trail
        _record_shortfalls(rt, trail, run.shorts)
        state.run(state.flow(setup_only))
        agents = make_agents(["random"], players, seed)
        while not state.is_over:
            if len(state.choices) >= MAX_DECISIONS:
                run.out_of_budget = run.too_many_decisions = True
                break
            decision = state.decision
            assert decision is not None
            state.apply(agents[decision.player.seat].choose(state, decision))
    except (RuleRuntimeError, IllegalChoice) as err:
        run.error = err
        run.out_of_budget = state is not None and state.rt.steps > state.rt.budget
    except Exception as err:  # an engine bug: reported with what reproduces it
        run.error = err
    if state is not None:
        run.choices = list(state.choices)
        run.last_rule = state.rt.last_rule
    run.covered = set(trail)
    run.last = trail.last
    return run


def _record_shortfalls(rt: Runtime, trail: Trail, shorts: list[Short]) -> None:
    counted = rt.shortfall

    def shortfall(what: str, missing: int) -> None:
        shorts.append(Short(trail.last, what, missing))
        counted(what, missing)

    rt.shortfall = shortfall  # type: ignore[method-assign]
