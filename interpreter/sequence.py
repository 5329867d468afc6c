"""A sequence of games played as one (`sequence NAME:` with a `game` line for each): a campaign
of scenarios, a match of several rounds, a league evening.

Each game of a sequence is the same rules file under the options its `game` line gives (options
are fixed per program, so each is a program of its own, loaded before the first game starts: a
value an option cannot take is refused before anything runs). The games are played in turn by
the same seats; each one starts from the save of the one before (interpreter/carry.py), so what
the file carries goes from each game to the next, and a map the file carries is kept and grows.
The sequence is one unit to the rest of meeple: one seed (the first game's; the others' are
drawn from it), one list of choices, one log, and one result, which is its last game's scores,
tiebreaks and winners, so the rules keep the sequence's score in a carried variable (campaign
points added up game after game) and score with it.

`SequenceState` answers as a `State` does (decision, apply, is_over, scores, winners, log,
result, view, save), so `meeple play`, `simulate`, `replay`, `serve` and agents play a sequence as
they play a game.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.runtime import Decision
from meeple.interpreter.teams import Layout
from meeple.saves import Save

if TYPE_CHECKING:
    from meeple.interpreter.engine import Game, State


# ---------------------------------------------------------------- analysis


def check_sequence(symbols: Symbols) -> tuple[ast.SequenceDecl | None, list[Diagnostic]]:
    """The file's sequence, and what is wrong with it: a second one (M011), an option the game
    does not have (M010) or gives twice in a line (M011), a value left empty (M014). A variant's
    own sequence replaces its base game's."""
    found: ast.SequenceDecl | None = None
    diags: list[Diagnostic] = []
    options = {name for name, c in symbols.constants.items() if isinstance(c, ast.OptionDecl)}
    module = symbols.module
    declared = [d for d in module.decls if isinstance(d, ast.SequenceDecl)]
    if any(d.span.file == module.file for d in declared):  # a variant's own replaces its base game's
        declared = [d for d in declared if d.span.file == module.file]
    for decl in declared:
        if found is not None:
            diags.append(
                _at(decl, codes.DECLARED_TWICE, f"a file has one sequence: '{found.name}' is the first")
            )
            continue
        found = decl
        for game in decl.games:
            seen: set[str] = set()
            for name, value in game.options:
                if name not in options:
                    known = ", ".join(sorted(options)) or "none"
                    diags.append(
                        _at(
                            game,
                            codes.UNKNOWN_NAME,
                            f"the game has no option '{name}' (its options: {known})",
                        )
                    )
                elif name in seen:
                    diags.append(
                        _at(
                            game,
                            codes.DECLARED_TWICE,
                            f"option '{name}' is given twice in one game of the sequence",
                        )
                    )
                elif value is None:
                    diags.append(_at(game, codes.WRONG_TYPE, f"option '{name}' needs a value"))
                seen.add(name)
    return found, diags


def _at(node: ast.Node, code: str, message: str) -> Diagnostic:
    span = node.span
    return Diagnostic(span.file, max(span.line, 1), max(span.column, 1), "error", code, message)


def game_options(game: ast.SequenceGame) -> dict[str, str]:
    """A game line's options as the command line writes them."""
    return {name: _text(value) for name, value in game.options}


def _text(value: ast.Cell) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def set_options(sequence: ast.SequenceDecl) -> set[str]:
    """The options the sequence sets for its games (the command line may not set these)."""
    return {name for game in sequence.games for name, _ in game.options}


def seeds(seed: int, games: int) -> list[int]:
    """Each game's seed: the sequence's own for the first, then drawn from it, so that the
    sequence is one seed and its games are not the same game again."""
    return [seed] + [random.Random(f"{seed}:{k}").randrange(2**31) for k in range(1, games)]


# ---------------------------------------------------------------- playing one


class SequenceState:
    """A sequence of games in progress, answering as one game's State does."""

    engine = "python"  # each game of a sequence is played by the Python engine (as State's)

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int,
        budget: int,
        run_setup: bool,
        logging: bool,
        load: Save | None,
        layout: Layout | None = None,
    ) -> None:
        assert game.program.sequence is not None and game.parts, "load the file with meeple.load"
        self.game = game
        self.players = players
        self.seed = seed
        self.budget = budget
        self.logging = logging
        self.loaded = load
        self.layout = layout  # the same teams play every game of the sequence
        self.seeds = seeds(seed, len(game.parts))
        self.done: list[State] = []  # the games played to their end
        self.choices: list[int] = []
        self.choosers: list[int] = []
        self.current: State = self._start(0, load, run_setup)
        if run_setup:
            self._next()

    def _start(self, index: int, load: Save | None, run_setup: bool = True) -> State:
        state = self._new(self.game.parts[index], self.seeds[index], load, run_setup)
        if self.logging:
            options = ", ".join(f"{k} {v}" for k, v in self.game.parts[index].sequence_options.items())
            state.log.insert(
                0, f"Game {index + 1} of {len(self.game.parts)}" + (f" ({options})" if options else "")
            )
        return state

    def _new(self, part: Game, seed: int, load: Save | None, run_setup: bool) -> State:
        """A game of the sequence, on this sequence's engine (the native core's: native/state.py)."""
        return part.new_game(
            self.players,
            seed,
            self.budget,
            run_setup=run_setup,
            logging=self.logging,
            load=load,
            teams=self.layout,
        )

    def _next(self) -> None:
        """While the game in progress has ended and another follows: start it from its save."""
        while (
            self.current.is_over and self.current.failed is None and len(self.done) + 1 < len(self.game.parts)
        ):
            save = self.current.save() if self.game.program.carried else None
            self.done.append(self.current)
            self.current = self._start(len(self.done), save)

    # What a driver runs: `run(flow())` starts a sequence made with run_setup=False, as it starts a game.
    def flow(self) -> Generator[Any, int, None]:
        return self.current.flow()

    def run(self, gen: Generator[Any, int, None]) -> None:
        self.current.run(gen)
        self._next()

    def apply(self, index: int) -> None:
        state, before = self.current, len(self.current.choices)
        try:
            state.apply(index)  # refuses, changing nothing, an answer that is not an option
        finally:
            if len(state.choices) > before:  # taken, even if a rule then broke
                self.choices.append(index)
                self.choosers.append(state.choosers[-1])
        self._next()

    @property
    def index(self) -> int:
        """Which game of the sequence is in progress (0 for the first)."""
        return len(self.done)

    @property
    def decision(self) -> Decision | None:
        return self.current.decision

    @property
    def is_over(self) -> bool:
        return self.current.is_over and (
            self.current.failed is not None or self.index + 1 == len(self.game.parts)
        )

    @property
    def failed(self) -> Any:
        return self.current.failed

    @property
    def ended_early(self) -> bool:
        return self.current.ended_early

    @property
    def rt(self) -> Any:
        return self.current.rt

    @property
    def script(self) -> Any:
        return None

    @property
    def log(self) -> list[str]:
        return [line for state in [*self.done, self.current] for line in state.log]

    @property
    def turns(self) -> int:
        return sum(state.turns for state in [*self.done, self.current])

    # The sequence's result is its last game's: the rules score it from what they carried.
    @property
    def scores(self) -> list[int]:
        return self.current.scores

    @property
    def tiebreaks(self) -> list[int]:
        return self.current.tiebreaks

    @property
    def winners(self) -> list[int]:
        return self.current.winners

    # Seats and teams are the same in every game of the sequence.
    @property
    def seats(self) -> int:
        return self.current.seats

    @property
    def teams(self) -> Layout:
        return self.current.teams

    def counted(self) -> dict[str, int | list[int]]:
        """The counters, added up over the games."""
        total: dict[str, Any] = {}
        for state in [*self.done, self.current]:
            for name, value in state.counted().items():
                if name not in total:
                    total[name] = value
                elif isinstance(value, list):
                    total[name] = [a + b for a, b in zip(total[name], value, strict=True)]
                else:
                    total[name] += value
        return total

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.current.view(seat) | {"sequence": {"game": self.index + 1, "of": len(self.game.parts)}}

    def place(self, value: Any) -> dict[str, Any] | None:
        return self.current.place(value)

    def evaluate(self, compute: Any, what: str, span: Any = None) -> Any:
        return self.current.evaluate(compute, what, span)

    def save(self) -> Save:
        return self.current.save()

    @property
    def shortfalls(self) -> dict[str, int]:
        """What moves wanted and did not find, added up over the games."""
        shortfalls: dict[str, int] = {}
        for state in [*self.done, self.current]:
            for what, n in state.shortfalls.items():
                shortfalls[what] = shortfalls.get(what, 0) + n
        return shortfalls

    def result(self) -> dict[str, Any]:
        shortfalls = self.shortfalls
        loaded = (
            {} if self.loaded is None else {"load": self.loaded.model_dump(mode="json", exclude_none=True)}
        )
        return loaded | {
            "game": self.game.name,
            "rules": self.game.path,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.game.options),
            "scores": self.scores,
            "winners": self.winners,
            "turns": self.turns,
            "choices": list(self.choices),
            "teams": None if self.layout is None else [list(team) for team in self.layout],
            "shortfalls": shortfalls,
            "counters": self.counted(),
            # each game of the sequence: its options, seed, scores and winners
            "games": [
                {
                    "options": part.sequence_options,
                    "seed": state.seed,
                    "scores": state.scores if state.is_over and state.failed is None else [],
                    "winners": state.winners if state.is_over and state.failed is None else [],
                    "choices": len(state.choices),
                }
                for part, state in zip(self.game.parts, [*self.done, self.current], strict=False)
            ],
        }
