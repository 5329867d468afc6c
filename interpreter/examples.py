"""Running `example` blocks: a position, the choices and random outcomes, and what must follow.

The rulebooks' worked examples are written as examples in the `.rules` files; `meeple test` runs
them. An example starts from the game's start state *without* running setup (or, `from setup`,
after running it with the example's seed), applies `given`, runs `do` and (`play`) the game's own
`play` to its end, with its scripted answers, and checks every `expect` line. `expect`
may also read the results (`interpreter/results.py`): scores, tiebreaks, winners, whether the
game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from meeple.interpreter.engine import Game, IllegalChoice, Script, State
from meeple.interpreter.program import CompiledExample
from meeple.interpreter.results import RESULTS
from meeple.interpreter.runtime import RuleRuntimeError, short
from meeple.interpreter.teams import parse_layout
from meeple.interpreter.values import MapRef, Piece, Row, label


@dataclass
class Shown:
    """What an example's `shows` found at one moment: a place and its pieces, or a grid map and
    each of its cells (coordinates, the row placed there, the pieces on it)."""

    place: Any  # a MapRef, or a zone, row or cell
    pieces: list[Piece] = field(default_factory=list)
    cells: list[tuple[int, int, Row | None, list[Piece]]] = field(default_factory=list)


@dataclass
class ExampleResult:
    name: str
    line: int
    passed: bool
    failures: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    before: list[Shown] = field(default_factory=list)  # what `shows` names, after `given`
    after: list[Shown] = field(default_factory=list)  # and at the end


def _shown(state: State, example: CompiledExample, env: dict[str, Any]) -> list[Shown]:
    """The example's `shows`, as they stand now: copies, since the game goes on changing them."""
    rt, out = state.rt, []
    for fn in example.shows:
        place = state.evaluate(partial(fn, rt, env), "what an example shows")
        if isinstance(place, MapRef):
            cells = [
                (c.q, c.r, rt.faces.get(c), list(rt.locs.get(c, [])))
                for c in rt.grids.get(place, {}).values()
            ]
            out.append(Shown(place, cells=cells))
        else:
            out.append(Shown(place, pieces=list(rt.locs.get(place, []))))
    return out


def _source(game: Game, file: str, line: int, column: int, end_column: int) -> str:
    module = game.program.symbols.module
    lines = module.sources.get(file, module.source).split("\n")  # as the parser counts lines
    if 0 < line <= len(lines):
        text = lines[line - 1]
        return text[column - 1 : end_column - 1] if end_column > column else text.strip()
    return "?"


def run_example(game: Game, example: CompiledExample) -> ExampleResult:
    """Run one example: its parts in order, then what it must leave (its unused script, its
    `expect` lines). A part that stops at an unanswered decision or fails ends it there."""
    decl = example.decl
    result = ExampleResult(decl.name, decl.span.line, passed=False)
    script = Script(decl.choices, decl.outcomes, then_first=decl.then_first)
    teams = None if decl.teams is None else parse_layout(decl.teams)  # checked by analysis (M022)
    players = decl.players or game.min_players
    state = game.new_game(players, seed=decl.seed, script=script, run_setup=False, teams=teams)
    env: dict[str, Any] = {}
    if _run_parts(state, example, env, result):
        result.failures.extend(_unused(script))
        if _count_results(state, example, env, result):
            _check_expectations(game, state, example, env, result)
    result.passed = not result.failures
    result.log = state.log
    return result


def _parts(
    state: State, example: CompiledExample, env: dict[str, Any]
) -> list[tuple[str, Callable[[], Generator[Any, int, None]]]]:
    """What an example runs, in order and by name: setup (`from setup`), `given`, `do`, and the
    game's own `play` (`plays`)."""
    decl, program = example.decl, state.game.program
    parts: list[tuple[str, Callable[[], Generator[Any, int, None]]]] = []
    if decl.from_setup and program.setup is not None:
        parts.append(("setup", lambda: state.flow(setup_only=True)))
    parts.append(("given", lambda: example.given(state.rt, env)))
    parts.append(("do", lambda: example.do(state.rt, env)))
    play = program.play
    if decl.plays and play is not None:
        parts.append(("play", lambda: play(state.rt, {})))
    return parts


def _run_parts(state: State, example: CompiledExample, env: dict[str, Any], result: ExampleResult) -> bool:
    """Run the example's parts, noting what `shows` finds before `do`. False (with the failure in
    `result`) when a part stops at a decision the script does not answer or breaks a rule."""
    try:
        for what, body in _parts(state, example, env):
            if what == "do":
                result.before = _shown(state, example, env)
            state.run(body())
            if state.decision is not None:
                d = state.decision
                result.failures.append(
                    short(
                        f"'{what}' stopped at a decision the example does not answer: {d.player}: "
                        f"{d.prompt} [{', '.join(d.options)}]"
                    )
                )
                return False
            if state.ended_early:
                break  # `end game`: nothing more of the game runs
    except (RuleRuntimeError, IllegalChoice) as err:
        result.failures.append(str(err))
        return False
    return True


def _unused(script: Script) -> list[str]:
    """The failures of a script not used up: an example says exactly what is asked and drawn."""
    failures = []
    if script.choices:
        failures.append(f"{len(script.choices)} scripted choice(s) were never asked for: {script.choices}")
    if script.outcomes:
        failures.append(f"{len(script.outcomes)} scripted outcome(s) were never used: {script.outcomes}")
    return failures


def _count_results(
    state: State, example: CompiledExample, env: dict[str, Any], result: ExampleResult
) -> bool:
    """What `shows` finds at the end, and the results the expectations read (scores, winners...)
    bound in `env`. False when the results cannot be computed: no expectation can be checked."""
    ended = state.ended_early or example.decl.plays
    try:
        result.after = _shown(state, example, env)
    except RuleRuntimeError as err:
        result.failures.append(f"cannot show what the example shows: {err.message}")
    try:
        counted = state.counted()
        for name in example.results:
            env[name] = RESULTS[name].get(state, ended) if name in RESULTS else counted[name]
    except RuleRuntimeError as err:
        result.failures.append(f"cannot compute the scores: {err.message}")
        return False
    return True


def _check_expectations(
    game: Game, state: State, example: CompiledExample, env: dict[str, Any], result: ExampleResult
) -> None:
    """Each `expect` line that does not hold is a failure quoting it, with both sides of a
    comparison."""
    for expr, value, left, right in example.expect:
        text = _source(game, expr.span.file, expr.span.line, expr.span.column, expr.span.end_column)
        try:
            if state.evaluate(partial(value, state.rt, env), "an expectation", expr.span):
                continue
            detail = ""
            if left is not None and right is not None:
                sides = [
                    label(state.evaluate(partial(f, state.rt, env), "an expectation")) for f in (left, right)
                ]
                detail = f" (left side is {sides[0]}, right side is {sides[1]})"
            result.failures.append(f"line {expr.span.line}: expected {text}{detail}")
        except RuleRuntimeError as err:
            result.failures.append(f"line {expr.span.line}: cannot evaluate {text}: {err.message}")


def run_examples(game: Game) -> list[ExampleResult]:
    return [run_example(game, ex) for ex in game.program.examples]
