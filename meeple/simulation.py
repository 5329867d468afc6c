"""Playing many games for statistics: what to play (a `Plan`), one game's record, and the ways to
spread the seeds over processes.

Each game depends on its seed alone (the game's dice and every random answer are seeded from
it), so a batch of seeds gives the same records wherever it is played: in this process, in
worker processes (`jobs`), or as tasks on a Ray cluster (`meeple.ray_backend`). A record is plain
JSON-able data, cheap to send back from any of them.

A game that breaks (a rule that does something impossible, or the step budget running out) does
not stop the others: its record says so, with the error, and the summary lists it with the
command that plays it again.
"""

from __future__ import annotations

import functools
import shlex
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import meeple
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents, parse_search
from meeple.interpreter.agents import play as play_to_end
from meeple.interpreter.engine import Game, IllegalChoice, State
from meeple.interpreter.native.state import CoreLimit
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.interpreter.teams import Layout, layout_text, teams_of
from meeple.saves import Save, as_save
from meeple.workers import in_workers

FINISHED, FAILED, OUT_OF_BUDGET = "finished", "failed", "out of budget"


@dataclass(frozen=True)
class Plan:
    """What to play, as a worker or a remote task needs it: which rules, with which options, how
    many players and which agent in each seat."""

    rules: str
    players: int
    agents: tuple[str, ...] = ("random",)
    options: tuple[tuple[str, str], ...] = ()  # (name, value) pairs: a plan is a key of the workers' cache
    # carried state: the save every game starts from (its JSON text, checked when loaded), and
    # the file it was read from, for the command that plays a game again
    load: str = ""
    load_file: str = ""
    # Teams and seats the rules play (interpreter/teams.py, seats.py): the teams chosen (None:
    # everyone alone), and how many seats the rules play beside the players.
    teams: Layout | None = None
    automated: int = 0

    @property
    def seats(self) -> int:
        return self.players + self.automated

    @property
    def sides(self) -> Layout:
        """Every seat's team: those chosen, then each seat alone."""
        return teams_of(self.teams, self.seats)

    engine: str = "auto"  # which engine plays: auto, python or native (interpreter/native)

    def reproduce(self, seed: int) -> str:
        """The command that plays one of these games again, answer for answer."""
        words = ["meeple", "play", self.rules, "--players", str(self.players), "--seed", str(seed)]
        words += ["--agents", ",".join(self.agents)]
        for name, value in self.options:
            words += ["--option", f"{name}={value}"]
        if self.load_file:
            words += ["--load", self.load_file]
        if self.teams is not None:
            words += ["--teams", layout_text(self.teams)]
        return shlex.join(words)


def record(state: State, status: str = FINISHED, error: str = "") -> dict[str, Any]:
    """One game, as the statistics read it. A game that did not finish keeps how far it got."""
    finished = status == FINISHED
    return {
        "seed": state.seed,
        "players": state.players,
        "seats": state.seats,
        "teams": [list(team) for team in state.teams],  # every seat's team, alone where none is chosen
        "status": status,
        "error": error,
        "scores": state.scores if finished else [],
        "winners": state.winners if finished else [],
        "turns": state.turns,
        "decisions": len(state.choices),
        "shortfalls": state.shortfalls,
        "counters": state.counted(),
    }


@functools.lru_cache(maxsize=4)
def _save(text: str) -> Save | None:
    """A plan's save, read once per process rather than once per game."""
    return as_save(text) if text else None


# The agents the native core plays inside itself (and searches, `mcts...`): a game of only these
# never leaves the core.
NATIVE_AGENTS = {"random", "first"}  # with mcts[:N] and the styles the rules declare
# A person's seat (`meeple play`, `meeple serve`) plays a native game from Python, through the
# same view and the same log in words as on the Python engine (tests/test_native_view.py).
PEOPLE = {"human"}
NOT_NATIVE_AGENTS = "the native engine plays random, first, mcts, the rules' styles and a person, no other"


def engine_of(game: Game, agents: Sequence[str], asked: str) -> tuple[str, str]:
    """The engine that plays a game with these agents, when `asked` (auto, python or native) is
    asked for, and why not the native one when it is not (ValueError: native cannot). Auto plays
    native wherever the core runs the game and its agents: the two engines play the same games
    (tests/test_native.py), limits included (tests/test_native_limits.py)."""
    searching = [name for name in agents if parse_search(name) is not None]
    engine, why = native.engine_for(game, asked)
    if engine == "python" and searching:
        raise ValueError(f"the {searching[0]} agent plays on the native engine only, and here: {why}")
    if engine == "native":
        styles = game.program.styles
        refused = native.lowered(game)[0].refused_styles
        for name in agents:
            if name in styles and name in refused:
                why = f"the style '{name}' uses what the native engine does not run: {refused[name]}"
                break
            if name not in styles and name not in NATIVE_AGENTS | PEOPLE and parse_search(name) is None:
                why = NOT_NATIVE_AGENTS
                break
        else:
            return engine, why
        if asked == "native":
            raise ValueError(why)
        return "python", why
    return engine, why


def play_one(game: Game, plan: Plan, seed: int) -> dict[str, Any]:
    """Play one game to its end and record it; never raises for a game that breaks."""
    if engine_of(game, plan.agents, plan.engine)[0] == "native":
        played = play_native(game, plan, seed)
        if played is not None:
            return played
    state = game.new_game(
        plan.players, seed, logging=False, run_setup=False, load=_save(plan.load), teams=plan.teams
    )
    try:
        state.run(state.flow())
        play_to_end(state, make_agents(list(plan.agents), plan.players, seed, game.program.styles))
    except (RuleRuntimeError, IllegalChoice) as err:
        status = OUT_OF_BUDGET if state.rt.steps > state.rt.budget else FAILED
        return record(state, status, str(err))
    return record(state)


def play_native(game: Game, plan: Plan, seed: int) -> dict[str, Any] | None:
    """One game played inside the native core, its agents too: the record the Python engine
    makes of the same seed (tests/test_native.py). None where the core stopped on a limit of its
    own and the engine was not asked for: the Python engine plays that game."""
    state = native.new_game(
        game, plan.players, seed, logging=False, checked=False, teams=plan.teams, load=_save(plan.load)
    )
    try:
        state.check()
        state.play_out(list(plan.agents))
    except RuleRuntimeError as err:
        if plan.engine == "auto" and isinstance(err, CoreLimit):
            return None
        return record(state, OUT_OF_BUDGET if state.steps > state.budget else FAILED, str(err))
    return record(state)


# ------------------------------------------------------------------ spreading the seeds

# A worker process loads the game once, then plays batch after batch of seeds with it.
_WORKER: dict[Plan, Game] = {}


def _game_for(plan: Plan) -> Game:
    """The worker's game for a plan (a forked worker already has it; a spawned one loads it)."""
    if plan not in _WORKER:
        _WORKER[plan] = meeple.load(plan.rules, dict(plan.options))
    return _WORKER[plan]


def play_batch(plan: Plan, seeds: Sequence[int]) -> list[dict[str, Any]]:
    """The records of a batch of seeds, in their order, played with the worker's game."""
    game = _game_for(plan)
    return [play_one(game, plan, seed) for seed in seeds]


BATCH_SECONDS = 0.25  # of games per batch: the progress bar moves about four times a second
SPREAD = 4  # batches per worker, at least: the work spreads evenly to the end


def batch_size(seconds: float, games: int, workers: int, target: float = BATCH_SECONDS) -> int:
    """Games per batch, for games that take about `seconds` each: as many as take about `target`
    seconds (a batch sent to a local worker costs a fraction of a millisecond; a Ray task, more),
    but never so many that there are fewer than SPREAD batches per worker."""
    by_time = int(target / max(seconds, 1e-6))
    by_spread = games // (workers * SPREAD)
    return max(1, min(by_time, by_spread))


def play_local(game: Game, plan: Plan, seeds: range, jobs: int) -> Iterator[list[dict[str, Any]]]:
    """The records of `seeds` a batch at a time, as the batches are done (in any order: the
    caller puts them in seed order), in worker processes when there are several jobs, here
    otherwise. The first game is played here at once, so that a progress bar moves from the
    start, and timed, to size the batches by time rather than by count: a fixed count makes
    a long game's bar sit still for many seconds and then jump. Short runs stay here: starting
    the workers costs about a second."""
    if not seeds:
        return
    began = time.process_time()
    yield [play_one(game, plan, seeds[0])]
    rest = seeds[1:]
    if jobs <= 1 or len(rest) < 4 * jobs:
        for seed in rest:
            yield [play_one(game, plan, seed)]
        return
    size = batch_size(time.process_time() - began, len(rest), jobs)
    parts = [rest[i : i + size] for i in range(0, len(rest), size)]
    _WORKER[plan] = game  # forked workers inherit it
    try:
        yield from in_workers(functools.partial(play_batch, plan), parts, jobs, ordered=False)
    finally:
        _WORKER.clear()


def plan_for(
    game: Game,
    rules: str,
    players: int | None,
    agents: Sequence[str],
    teams: Layout | None = None,
    engine: str = "auto",
) -> Plan:
    """A plan for a loaded game, with its player count and teams checked (ValueError if they do
    not fit the game), and the engine asked for (ValueError if it cannot play the game)."""
    count = game.min_players if players is None else players
    state = game.new_game(count, run_setup=False, teams=teams)  # the game's own word on the count
    make_agents(list(agents), count, 0, game.program.styles)  # an unknown agent is refused first
    plan = Plan(
        rules,
        count,
        tuple(agents) or ("random",),
        tuple(game.options.items()),
        teams=state.layout,
        automated=state.seats - count,
        engine=engine,
    )
    engine_of(game, plan.agents, engine)
    return plan
