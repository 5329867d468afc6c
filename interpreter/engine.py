"""The engine API, in the spirit of OpenSpiel.

    game = meeple.load("my_game")    # a bundled game by name, or a path
    state = game.new_game(players=3, seed=7)
    while not state.is_over:
        state.apply(agent(state.decision))
    state.scores, state.winners, state.log

A game is fully determined by (rules file, players, seed, choices), and the save it started
from if it started from one (`new_game(load=...)`, interpreter/carry.py): that is the replay
format. Random outcomes come from the seeded generator, so they are not part of the choices;
decisions with a single option are taken automatically and are not recorded either.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from meeple.grammar.ast import Span
from meeple.interpreter import carry, seats
from meeple.interpreter import teams as teams_
from meeple.interpreter.areas import grown_places
from meeple.interpreter.names import with_article
from meeple.interpreter.program import Program, Scorer
from meeple.interpreter.runtime import (
    Chance,
    Decision,
    GameEnded,
    RuleRuntimeError,
    Runtime,
    Said,
    Withheld,
    chance_line,
    describe,
    short,
)
from meeple.interpreter.values import (
    Piece,
    PieceRef,
    Placement,
    Player,
    ZoneLoc,
)
from meeple.interpreter.view import in_sight, place, player_view
from meeple.limits import DEFAULT_BUDGET, MAX_DECISIONS, MAX_RECURSION
from meeple.saves import Save, SaveError, as_save

T = TypeVar("T")

# Python frames for MAX_RECURSION nested calls. A call of a rule, value or trigger takes 3 to 6
# frames (more when it stands deep in blocks or expressions), so the engine's own count of calls
# (compiler/base.py: `counted`) stops a recursion without end first, with an error naming the
# declaration. A call nested so deep in expressions that Python's limit comes first is caught as
# RecursionError (State._endless). The limit is no higher because Python 3.11 counts C frames
# (generators resumed, `json`) against the same limit: measured, a chain of about 25,000 resumed
# generators overflows a main thread's 8 MB C stack and kills the interpreter, and 20,000 do not.
PYTHON_FRAMES = 10 * MAX_RECURSION


def _enough_frames() -> None:
    """Give Python the frames MAX_RECURSION calls need, whenever rules are about to run: not once
    at import, since a host may set the limit back afterwards (hypothesis restores the limit it
    found when one of its tests ends, so a game played after one imported the engine would stop
    at Python's limit, long before the documented number of calls)."""
    if sys.getrecursionlimit() < PYTHON_FRAMES:
        sys.setrecursionlimit(PYTHON_FRAMES)


class IllegalChoice(ValueError):
    """An answer that is not one of the options offered. The state is left unchanged."""


class Script:
    """Answers given in advance, by index or by label: an example's choices and random outcomes.
    With `then_first`, every decision after the listed choices takes its first option."""

    def __init__(
        self, choices: Sequence[int | str] = (), outcomes: Sequence[int | str] = (), then_first: bool = False
    ) -> None:
        self.choices = list(choices)
        self.outcomes = list(outcomes)
        self.then_first = then_first

    def answers(self) -> bool:
        """Whether the script answers the next decision."""
        return bool(self.choices) or self.then_first

    def next_choice(self, request: Decision) -> int:
        return self.resolve(self.choices.pop(0), request, request.prompt) if self.choices else 0

    @staticmethod
    def resolve(answer: int | str, request: Decision | Chance, what: str) -> int:
        """The option an answer names: by number, by its label ("Headquarters"), or as the rules
        file writes it (`hq`)."""
        options = request.options
        if isinstance(answer, int):
            if 0 <= answer < len(options):
                return answer
            raise IllegalChoice(f"{what}: {answer} is not an option number (0 to {len(options) - 1})")
        if answer in options:
            return options.index(answer)
        written = request.written
        if answer in written:
            return written.index(answer)
        raise IllegalChoice(short(f"{what}: '{answer}' is not one of: {', '.join(options)}"))


@dataclass
class Game:
    """A loaded rules file, ready to start games."""

    program: Program
    path: str
    options: dict[str, str] = field(default_factory=dict)  # the values its options were given
    # A file with a `sequence`: its games, each loaded with its options (interpreter/sequence.py);
    # a game of a sequence: the options its `game` line gives.
    parts: list[Game] = field(default_factory=list)
    sequence_options: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.program.name

    @property
    def min_players(self) -> int:
        return self.program.min_players

    @property
    def max_players(self) -> int:
        return self.program.max_players

    def new_game(
        self,
        players: int | None = None,
        seed: int = 0,
        budget: int = DEFAULT_BUDGET,
        script: Script | None = None,
        run_setup: bool = True,
        logging: bool = True,
        load: Save | dict[str, Any] | str | bytes | None = None,
        teams: Sequence[Sequence[int]] | None = None,
    ) -> State:
        """A game of `players` players (the seats the rules play, `automated`, come in addition).
        `load`: a save (meeple/saves.py) the game starts from (SaveError, before anything runs, if
        it does not fit the rules). `teams`: the layout of a game played in teams, each team a
        list of seats from 0 (`[[0, 2], [1, 3]]`); None: everyone plays alone. A file that declares
        a `sequence` starts the whole sequence (interpreter/sequence.py), unless it is run by a
        script (an example plays one game of it)."""
        n = self.min_players if players is None else _whole("players", players)
        if _whole("seed", seed) < 0:  # Python's generator would play -5 as 5: a log would lie
            raise ValueError(f"a seed is a whole number from 0, not {seed}")
        if _whole("budget", budget) < 1:
            raise ValueError(f"the step budget must be at least 1, not {budget}")
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players} to {self.max_players} players, not {n}")
        saved = None if load is None else as_save(load)
        declared = self.program.symbols.teams
        layout = None if teams is None else teams_.check_layout(teams, declared, self.name, n)
        if self.parts and script is None:
            from meeple.interpreter.sequence import SequenceState

            state = SequenceState(self, n, seed, budget, run_setup, logging, saved, layout)
            return state  # type: ignore[return-value]
        return State(self, n, seed, budget, script, run_setup, logging, saved, layout)


def answered(decision: Decision, index: int, only: bool = False) -> str:
    """The log's line for an answer to a decision (see `answer_line`)."""
    return answer_line(decision.player, decision.prompt, decision.option(index), only)


def answer_line(who: object, prompt: str, option: str, only: bool = False) -> str:
    """The log's line for an answer, however it was given (a player, a seat the rules play, a
    script, the only option) and on either engine (interpreter/native/state.py writes the core's
    answers with it): who decided, what they were asked, and the option taken."""
    return f"  {who} {prompt.lower()}: {option}" + (" (only option)" if only else "")


@dataclass
class Hidden:
    """An answer that took a piece some seats could not see (from a private hand, a hidden pile):
    its line in the log (`at`), which those seats read as `others` ("Player 2 play: a card from
    their hand"). When the step the answer starts is over, a seat that now sees more pieces like
    it than it did (`before`, by seat) saw where it went, and reads the line as it is."""

    at: int
    line: str
    others: str
    piece: Piece
    readers: set[int]
    before: list[int]


def _whose(zone: ZoneLoc, seat: int) -> str:
    """A zone as the log names it to other seats: "their hand" (the chooser's own), "Player 2's
    hand", "the deck"."""
    owner = zone.owner
    if isinstance(owner, Player):
        return f"their {zone.name}" if owner.seat == seat else f"{owner}'s {zone.name}"
    return f"the {zone.name}" + ("" if owner is None else f" of {owner.name}")


def withhold(
    state: Any, who: Player, prompt: str, line: str, value: PieceRef, only: bool, there: list[int]
) -> Withheld | None:
    """An answer's line as the seats that could not see the piece it took read it (`Hidden`),
    given how many pieces like it each seat could see where it was (`there`): None when every
    seat could. Both engines word it so (interpreter/native/state.py gets `there` from the core,
    taken as the answer was logged)."""
    readers = {who.seat} | {s for s, count in enumerate(there) if count}
    zone = value.loc
    if len(readers) >= state.seats or not isinstance(zone, ZoneLoc):  # a cell or a node: in sight
        return None
    piece = value.piece
    names = state.game.program.names
    kind = names.decl(piece[0].name).one if names is not None else piece[0].name
    taken = f"{with_article(kind)} from {_whose(zone, who.seat)}"
    return Withheld(line, frozenset(readers), answer_line(who, prompt, taken, only))


def reveal_hidden(state: Any, log: list[str], hidden: list[Hidden]) -> None:
    """The step is over: each hidden answer of it is read, as it is, by every seat that now
    sees more pieces like the one taken than it did (it saw where it went); a line every seat
    may read is a plain line again. On either engine (`state` as view.py reads it)."""
    for one in hidden:
        now = in_sight(state, one.piece)
        readers = one.readers | {s for s, count in enumerate(now) if count > one.before[s]}
        if readers != one.readers:
            full = len(readers) >= state.seats
            log[one.at] = one.line if full else Withheld(one.line, frozenset(readers), one.others)
    hidden.clear()


def asked_at(decision: Decision) -> Span | None:
    """Where the rules ask a decision: the place of an error the decision brings about."""
    site = decision.site
    return None if site is None else Span(file=site[0], line=site[1], column=site[2])


def too_many_decisions(span: Span | None, rule: str) -> RuleRuntimeError:
    """The error of a decision asked after MAX_DECISIONS answers, at the statement that asks it:
    one wording for both engines (interpreter/native keeps the same count)."""
    return RuleRuntimeError(
        f"the game asked for more than {MAX_DECISIONS:,} decisions (the limit MAX_DECISIONS): "
        "it seems never to end",
        span,
        rule,
    )


def _whole(what: str, value: Any) -> int:
    """An argument of the API that must be a whole number (a bool or "3" is not one): said
    plainly, rather than by whatever Python would raise deep inside a game."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a whole number, not {value!r}")
    return value


class State:
    """One game in progress: who must decide what, and everything that happened so far."""

    engine = "python"  # which engine plays it (interpreter/native's states say "native")

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int,
        budget: int,
        script: Script | None,
        run_setup: bool,
        logging: bool = True,
        load: Save | None = None,
        layout: teams_.Layout | None = None,
    ) -> None:
        self.game = game
        self.players = players  # the players; `seats` counts the seats the rules play too
        self.layout = layout  # the teams chosen (interpreter/teams.py), or None
        self.seed = seed
        self.choices: list[int] = []
        self.choosers: list[int] = []  # the seat that made each choice: what an undo takes back
        self.script = script
        self.decision: Decision | None = None
        self.is_over = False
        self.ended_early: bool = False
        self.failed: RuleRuntimeError | None = None  # a broken rule stopped the game here
        self.final: tuple[list[int], list[int]] | None = None  # the scores and tiebreaks it ended with
        self.hidden: list[Hidden] = []  # this step's answers that some seats may not read
        program = game.program
        self.rt: Runtime = Runtime(program, players, seed, budget)
        self.rt.logging = logging
        self.rt.scripted = bool(script and script.outcomes)
        self.seats = len(self.rt.players)
        self.teams = teams_.teams_of(layout, self.seats)  # every seat's team, alone where none is chosen
        for team in self.teams:
            members = [self.rt.players[s] for s in team]
            for member in members:
                self.rt.team_of[member] = members
        assert program.init is not None
        init = program.init
        self.evaluate(lambda: init(self.rt), "the start of the game")
        self.loaded = load  # the save this game started from: its log keeps it, so replays are exact
        if load is not None:
            carry.give(self.rt, load)
        self._gen: Generator[Any, int, None] | None = None
        if run_setup:
            self._gen = self.flow()
            self._advance(None)

    def flow(self, setup_only: bool = False) -> Generator[Any, int, None]:
        """The game as the rules run it: setup, then play, then the scores. A state made with
        run_setup=False can be prepared (a checker instruments it) and then started with
        `state.run(state.flow())`.

        The scores are part of the game: they are computed once, as it ends, so that a score that
        breaks (an index out of range, a value that never stops) stops the game with a located
        error as any rule's would, wherever the game is played, instead of breaking whoever reads
        the scores afterwards."""
        program = self.game.program
        try:
            if program.setup is not None:
                yield from program.setup(self.rt, {})
            if program.play is not None and not setup_only:
                yield from program.play(self.rt, {})
        except GameEnded:  # `end game`, in setup or in play
            self.ended_early = True
        if not setup_only:
            self.final = (self.scores, self.tiebreaks)

    def run(self, gen: Generator[Any, int, None]) -> None:
        """Drive any compiled body (an example's `do:` block) through this state's driver."""
        self._gen = gen
        self.is_over = False
        self._advance(None)

    # -------------------------------------------------------------- the driver

    def _advance(self, answer: int | None) -> None:
        _enough_frames()
        gen = self._gen
        assert gen is not None
        rt = self.rt
        try:
            request = gen.send(answer) if answer is not None else next(gen)
            while True:
                if type(request) is Chance:
                    index = self._chance(request)
                    if rt.logging:
                        rt.write(chance_line(request.label, request.option(index)))
                elif request.size == 1:
                    index = 0
                    if rt.logging:
                        self.write_answer(request, 0, only=True)
                elif request.player.automated:  # a seat the rules play: never asked (seats.py)
                    index = seats.resolve(self.game.program, rt, request)
                    if rt.logging:
                        self.write_answer(request, index)
                elif self.script is not None and self.script.answers():
                    index = self.script.next_choice(request)
                    self.write_answer(request, index)
                else:
                    if len(self.choices) >= MAX_DECISIONS:
                        raise too_many_decisions(asked_at(request), request.rule)
                    self.decision = request
                    self.reveal_answers()
                    return
                request = gen.send(index)
        except StopIteration:
            pass
        except GameEnded:
            self.ended_early = True
        except RecursionError:
            self.failed = self._endless()
            raise self.failed from None
        except RuleRuntimeError as err:
            self.failed = err
            raise
        self.decision = None
        self.is_over = True
        self.reveal_answers()

    def write_answer(self, decision: Decision, index: int, only: bool = False) -> None:
        """Log an answer. One that takes a piece from where some seats cannot see it is a line
        those seats read without the piece's name (`Hidden`), until the step it starts is over
        (`reveal_answers`)."""
        line = answered(decision, index, only)
        value = decision.values[index] if index < len(decision.values) else None
        if type(value) is Placement:
            said = Said(line, value, self.rt.around(value.coords, value.map))
            self.rt.write(said, asked_at(decision), decision.rule)
            return
        if grown_places(value):
            self.rt.write(Said(line, value, self.rt.around_places(value)), asked_at(decision), decision.rule)
            return
        if type(value) is not PieceRef or type(value.loc) is not ZoneLoc or self.seats < 2:
            self.rt.write(line, asked_at(decision), decision.rule)
            return
        there = in_sight(self, value.piece, value.loc)
        withheld = withhold(self, decision.player, decision.prompt, line, value, only, there)
        self.rt.write(withheld or line, asked_at(decision), decision.rule)
        if withheld is not None:
            at, readers, before = len(self.rt.log) - 1, set(withheld.readers), in_sight(self, value.piece)
            self.hidden.append(Hidden(at, line, withheld.others, value.piece, readers, before))

    def reveal_answers(self) -> None:
        """The step is over: each hidden answer of it is read as `reveal_hidden` says."""
        reveal_hidden(self, self.rt.log, self.hidden)

    def _endless(self) -> RuleRuntimeError:
        """The error for calls that Python's own stack could not hold before MAX_RECURSION calls
        (each nested deep in expressions), naming the last rule, value or trigger called."""
        rule = self.rt.last_rule
        program = self.game.program
        decl = program.symbols.rules.get(rule) or program.symbols.values.get(rule)
        triggers = (t.span for ts in program.triggers.values() for t in ts if t.name == rule)
        span = decl.span if decl is not None else next(triggers, None)
        return RuleRuntimeError(
            f"'{rule}' calls itself (directly or through other rules, values or triggers) so deeply, "
            f"each call nested in others' expressions, that it runs out of stack before "
            f"{MAX_RECURSION:,} calls: it seems never to stop",
            span,
            rule,
        )

    def evaluate(self, compute: Callable[[], T], what: str, span: Span | None = None) -> T:
        """Compute something from the position outside the flow of the game (the scores, an
        example's expectation): an error in the rules comes out as a RuleRuntimeError, as it
        would inside the flow, never as Python's own."""
        _enough_frames()
        try:
            return compute()
        except RecursionError:
            raise self._endless() from None
        except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError) as err:
            raise RuleRuntimeError(describe(err), span, what) from None

    def _chance(self, request: Chance) -> int:
        if self.script is not None and self.script.outcomes:
            return Script.resolve(self.script.outcomes.pop(0), request, request.label)
        return self.rt.roll(request.weights, request.size)

    def apply(self, index: int) -> None:
        """Answer the current decision with the option at `index`. Refuses (and changes nothing)
        when the game is over or the index is not an option."""
        if self.failed is not None:
            raise IllegalChoice(f"the game stopped on an error in the rules: {self.failed}")
        if self.is_over or self.decision is None:
            raise IllegalChoice("the game is over: there is no decision to answer")
        size = self.decision.size
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
            raise IllegalChoice(f"{index!r} is not an option: choose a number from 0 to {size - 1}")
        decision = self.decision
        if self.rt.logging:
            try:
                self.write_answer(decision, index)
            except RuleRuntimeError as err:
                self.failed = err
                raise
        self.choices.append(index)
        self.choosers.append(decision.player.seat)
        self.decision = None
        self._advance(index)

    # -------------------------------------------------------------- results

    @property
    def log(self) -> list[str]:
        return self.rt.log

    @property
    def turns(self) -> int:
        return self.rt.turns

    @property
    def scores(self) -> list[int]:
        """Each seat's score: as the game ended with it, or as the position gives it now."""
        if self.final is not None:
            return list(self.final[0])
        return self._per_player(self.game.program.score, "the score")

    @property
    def tiebreaks(self) -> list[int]:
        if self.final is not None:
            return list(self.final[1])
        return self._per_player(self.game.program.tiebreak, "the tiebreak")

    def _per_player(self, fn: Scorer | None, what: str) -> list[int]:
        if fn is None:
            return [0] * self.seats
        decl = getattr(self.game.program.symbols, what.removeprefix("the "))
        return self.evaluate(lambda: [fn(self.rt, p) for p in self.rt.players], what, decl.span)

    @property
    def winners(self) -> list[int]:
        """Seats with the best score (then the best tiebreak); several when they share it. In a
        game played in teams, every member of the teams whose best member is the best."""
        return teams_.winners(list(zip(self.scores, self.tiebreaks, strict=True)), self.teams)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The position as plain JSON-able data, as one seat may see it (None: everything).

        Keys are the rules' own names (`first_player`, `hand of Player 1`); `names` says what
        players read for each (its `called` name, else its name in words). A `hidden` zone shows
        only how many pieces it holds; a `private` zone shows its contents
        to its owner only; a `top` zone (a draw pile with its top face up) shows how many it
        holds and its top piece. Grid maps show every cell: its name, what was placed there and
        the pieces on it. The decision gives, beside each option, the place on the board it
        denotes (`place`), so that a picture of the board can offer it there. This is what a
        human or a bot is allowed to look at: decided in interpreter/view.py, beside the engine."""
        return player_view(self, seat)

    def shown(self) -> list[Any]:
        """Where the decision's rules show each option (`shown at PLACE`), or the option itself.
        A place the rules cannot give for an option (a rule that breaks there) is no place: the
        option is still offered, as a button."""
        decision = self.decision
        if decision is None:
            return []
        at = decision.shown_at
        if at is None:
            return list(decision.values)
        env, var = decision.env, decision.var

        def shown_at(value: Any) -> Any:
            try:
                return self.evaluate(lambda: at(self.rt, {**env, var: value}), "a 'shown at'")
            except RuleRuntimeError:
                return None

        return [shown_at(value) for value in decision.values]

    def place(self, value: Any) -> dict[str, Any] | None:
        """The place on the board an option denotes, for a picture of the board to offer it there
        (`view.place`)."""
        return place(self.game.program, value)

    @property
    def shortfalls(self) -> dict[str, int]:
        """How many pieces moves wanted and did not find, by what they wanted."""
        return dict(self.rt.shortfalls)

    def counted(self) -> dict[str, int | list[int]]:
        """What the counters counted so far: a number, or one per seat for a counter per player."""
        counted, declared = self.rt.counters, self.game.program.symbols.counters
        return {n: list(counted[n]) if d.per_player else counted[n][0] for n, d in declared.items()}

    def save(self) -> Save:
        """What the rules carry (`carry`), as the game stands now: what `meeple play --save`
        writes at the end, and another game starts from (`new_game(load=...)`)."""
        if not self.game.program.carried:
            raise SaveError(f"{self.game.name} carries nothing: its rules have no 'carry' line")
        return carry.take(self)

    def result(self) -> dict[str, Any]:
        return record(self)


def record(state: Any) -> dict[str, Any]:
    """A game as a log records it (with the save it started from, if any), on either engine (a
    State, a native state: both say what is read here). A game stopped by a broken rule (or
    score) has no scores and no winners; a game under way has the scores of its position, or
    none while its scores cannot be computed yet (a save in the middle of a game must not fail
    for that)."""
    scores: list[int] = []
    winners: list[int] = []
    if state.failed is None:
        try:
            scores, winners = state.scores, state.winners
        except RuleRuntimeError:
            if state.is_over:
                raise
    loaded = {} if state.loaded is None else {"load": state.loaded.model_dump(mode="json", exclude_none=True)}
    return loaded | {
        "game": state.game.name,
        "rules": state.game.path,
        "players": state.players,
        "seed": state.seed,
        "options": dict(state.game.options),
        "scores": scores,
        "winners": winners,
        "turns": state.turns,
        "choices": list(state.choices),
        "teams": None if state.layout is None else [list(team) for team in state.layout],
        "shortfalls": state.shortfalls,
        "counters": state.counted(),
    }


def replay(
    game: Game,
    players: int,
    seed: int,
    choices: Sequence[int],
    budget: int = DEFAULT_BUDGET,
    complete: bool = True,
    load: Save | dict[str, Any] | None = None,
    teams: Sequence[Sequence[int]] | None = None,
) -> State:
    """Play a game again from its log. Raises IllegalChoice if the log does not fit the rules, or
    (when `complete`) if it ends before the game does. With complete=False it rebuilds the
    position after those choices: that is how a mid-game state is copied."""
    if isinstance(choices, str | bytes) or not isinstance(choices, Sequence):
        raise TypeError(f"choices must be a list of option numbers, not {choices!r}")
    state = game.new_game(players, seed, budget, load=load, teams=teams)
    for step, index in enumerate(choices):
        if state.is_over:
            raise IllegalChoice(f"the log has {len(choices) - step} choice(s) more than the game asks for")
        try:
            state.apply(index)
        except IllegalChoice as err:
            raise IllegalChoice(f"choice {step + 1}: {err}") from None
    if complete and not state.is_over:
        raise IllegalChoice(f"the log ends after {len(choices)} choice(s), before the game does")
    return state


__all__ = ["Game", "IllegalChoice", "RuleRuntimeError", "SaveError", "Script", "State", "replay"]
