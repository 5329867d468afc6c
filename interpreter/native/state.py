"""A game on the native core, with the engine's API (interpreter/engine.py's State): `decision`,
`apply`, `is_over`, `log`, `scores`, `winners`, `result`.

The core gives back indexes and tagged values; this side maps them to the program's own values
(a Player, a Row, a Cell, a PieceRef...) and words them with the same `values.label` and the
same log lines as the Python engine: the two engines are compared through one formatter.
"""

from __future__ import annotations

from typing import Any

from meeple.interpreter import teams as teams_
from meeple.interpreter.agents import parse_search, search_arguments
from meeple.interpreter.areas import Area, grown_places
from meeple.interpreter.compiler.base import too_deep
from meeple.interpreter.compiler.statements import _looked
from meeple.interpreter.engine import (
    Game,
    Hidden,
    IllegalChoice,
    answer_line,
    record,
    reveal_hidden,
    too_many_decisions,
    withhold,
)
from meeple.interpreter.native import carried
from meeple.interpreter.native.lower import Lowered
from meeple.interpreter.native.position import Position
from meeple.interpreter.runtime import (
    Decision,
    Offer,
    RuleRuntimeError,
    Said,
    Secret,
    chance_line,
    log_too_long,
)
from meeple.interpreter.sequence import SequenceState
from meeple.interpreter.values import Border, Cell, LazyList, Piece, PieceRef, Placement, Route, label
from meeple.interpreter.view import place, player_view
from meeple.limits import MAX_VALUE_DEPTH
from meeple.saves import Save


class CoreLimit(RuleRuntimeError):
    """A stop the Python engine may not make alike: values nested beyond the core's own stack
    (MAX_VALUE_DEPTH), which the Python engine does not have, or the step budget, which the core
    counts apart where its memo keeps other answers (docs/architecture.md: a few percent more).
    Where the engine was chosen for the user (`--engine auto`), such a game is played again on
    Python, so that the choice never changes what a game does."""


CORE_LIMIT = (
    "the native engine stopped on a limit it counts apart (values nested beyond MAX_VALUE_DEPTH, "
    "or the step budget), so the Python engine played the game again"
)


def core_error(lowered: Lowered, budget: int, kind: str, detail: str, at: int | None) -> RuleRuntimeError:
    """The core's error (NativeError's kind, detail and place: src/py.rs's `error_parts`) as
    the rules' error the Python engine raises there, in its words; the step budget's and the
    core's own stack's as CoreLimit, which the core counts apart."""
    span, rule = lowered.sites[at] if at is not None else (None, "")
    if kind == "budget_loop":
        message = (
            f"the step budget ({budget}) ran out: this loop in '{rule or 'the flow'}' seems never to end"
        )
    elif kind == "budget_call":
        callee = lowered.codes[int(detail)]
        message = f"the step budget ({budget}) ran out: '{rule or callee}' seems to loop forever"
        rule = callee
    elif kind == "budget_list":
        message = (
            f"the step budget ({budget}) ran out going through a list of {int(detail):,} items "
            f"in '{rule or 'the flow'}'"
        )
    elif kind == "recursion_code":  # at the rule or trigger entered, as the Python engine says
        name = lowered.codes[int(detail)]
        return too_deep(name, lowered.declared[int(detail)])
    elif kind == "recursion_value":  # at the value entered: its declaration's site
        declared, name = lowered.sites[int(detail)]
        return too_deep(name, declared)
    elif kind == "decisions":
        return too_many_decisions(span, rule)
    elif kind == "log_chars":
        return log_too_long(span, rule)
    elif kind == "value_depth":
        message = (
            f"values in '{rule}' call one another more deeply than {MAX_VALUE_DEPTH} levels, "
            "the most the native engine allows (--engine python allows more)"
        )
    else:
        return RuleRuntimeError(detail, span, rule)
    return CoreLimit(message, span, rule)  # the budget's and the core's stack's: counted apart


class NativeState:
    """One game in progress on the native core."""

    engine = "native"

    def __init__(
        self,
        game: Game,
        lowered: Lowered,
        core: Any,
        players: int,
        seed: int,
        budget: int,
        logging: bool,
        layout: teams_.Layout | None = None,
        load: Save | None = None,
    ) -> None:
        self.game = game
        self.lowered = lowered
        self.players = players
        self.seed = seed
        self.budget = budget
        self.logging = logging
        self.choosers: list[int] = []
        # What the Python engine's State also says: the seats are the players and the seats the
        # rules play after them (interpreter/seats.py), and the save the game started from.
        self.seats = players + len(game.program.automata)
        self.layout = layout  # the teams chosen (interpreter/teams.py), or None
        self.teams = teams_.teams_of(layout, self.seats)  # every seat's team, alone where none is chosen
        self.loaded = load
        # what the save makes of the start (SaveError here, before anything runs: carried.py)
        start = None if load is None else carried.start(game, lowered, players, seed, budget, load, layout)
        self.failed: RuleRuntimeError | None = None
        # The scores and tiebreaks the game ended with: computed once, as it ends, so that a score
        # that breaks stops the game with a located error, as on the Python engine (State.flow).
        self.final: tuple[list[int], list[int]] | None = None
        self._log: list[str] = []
        self._seen = 0  # how many of the core's log events are in words in _log
        self._decision: Decision | None = None
        self._position: Position | None = None  # the position as the view reads it, once read
        self.hidden: list[Hidden] = []  # this step's answers some seats may not read (engine.Hidden)
        self._grown: dict[tuple[int, int, int, int], Cell] = {}  # cells of grids that grow, made once
        self._over = False
        teams = None if layout is None else [list(team) for team in layout]
        self.core = core.new_game(self.seats, seed, budget, logging, teams, start)
        self._settle(raising=False)

    # -------------------------------------------------------------- values back from the core

    def value(self, v: Any) -> Any:
        """A value the core gave, as the program's own value."""
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if not isinstance(v, tuple):
            return v
        low, tag = self.lowered, v[0]
        if tag == "player":
            return low.players[v[1]]
        if tag == "row":
            return low.rows[v[1]]
        if tag == "zone":
            return low.zones[v[1]]
        if tag == "cell":
            return self._place(v[1])
        if tag == "grid":
            return low.grids[v[1]]
        if tag == "kind":
            return low.decls[v[1]]
        if tag == "placement":
            _, grid, coords, rows, turns = v
            return Placement(low.grids[grid], [tuple(c) for c in coords], [low.rows[r] for r in rows], turns)
        if tag == "route":
            return Route(self.value(v[1]), tuple(self.value(x) for x in v[2]))
        if tag == "area":
            # Read for its words only (`label`): what it is next to is the core's to answer.
            return Area([self._place(c) for c in v[2]], self.value(v[1]), None, 0)  # type: ignore[arg-type]
        if tag == "border":
            return Border(low.rows[v[1]], self._place(v[2]))
        loc, kind, owner = v[1], v[2], v[3]
        return PieceRef(self._place(loc), (low.kinds[kind], None if owner is None else low.players[owner]))

    def _place(self, loc: int) -> Any:
        """The place at a location: a zone, a board's cell, a map's node, or a cell of a grid
        that grows (made as the Python engine makes it: read by its coordinates)."""
        low = self.lowered
        place = low.cells.get(loc) or low.zones.get(loc) or low.nodes.get(loc)
        if place is not None:
            return place
        # One Cell object per cell, as on the Python engine, where a route that ends where it
        # started is told by the cell being the same one. Keyed by coordinates too: a copy of the
        # game shares this, and may lay another cell at the same location.
        key = (loc, *self.core.grown_cell(loc))
        cell = self._grown.get(key)
        if cell is None:
            cell = self._grown[key] = Cell(low.grids[key[1]], key[2], key[3])
        return cell

    def _settle(self, raising: bool = True) -> None:
        """After the core ran: its new log lines in words, and its error as the rules' error
        (raised, unless not `raising`: then by `check`)."""
        self._decision = None
        self._position = None
        if self.logging:
            events = self.core.events(self._seen)
            self._seen += len(events)
            self._words(events)
            if self.hidden:  # the step is over: what each seat now sees of the pieces taken
                reveal_hidden(self, self._log, self.hidden)
        try:
            self.core.check()
        except Exception as err:  # the core's NativeError: (kind, detail, at)
            kind, detail, at = err.args
            self.failed = self._error(kind, detail, at)
        self._over = over = self.core.is_over
        if self.failed is None and self.final is None and over:
            try:
                self.final = (self._per_player(False), self._per_player(True))
            except RuleRuntimeError as err:
                self.failed = err
        if raising:
            self.check()

    def check(self) -> None:
        """Raise the error in the rules that stopped the game, if one did."""
        if self.failed is not None:
            raise self.failed

    def _words(self, events: list[Any]) -> None:
        texts = self.lowered.texts
        named: Any = None  # what the last line names, for the context that may follow it
        for event in events:
            if event[0] == "chose":
                _, seat, prompt, option, only = event
                value = None if option is None else self.value(option[0])
                who = self.lowered.players[seat]
                said = "pass" if option is None else label(value)
                self._log.append(answer_line(who, texts[prompt], said, only))
                named = (who, texts[prompt], value, only)
            elif event[0] == "around":  # the line before names places of a grid that grows
                self._said(named, event[1])
            elif event[0] == "sight":  # the answer before took a piece some seats may not see
                self._withheld(named, event[1], event[2])
            elif event[0] == "revealed":
                self._log.append(self._revealed(event[1], event[2]))
            elif event[0] == "chance":
                _, title, outcome = event
                said = texts[outcome] if isinstance(outcome, int) else label(self.value(outcome[0]))
                self._log.append(chance_line(texts[title], said))
            else:  # a `log` line: texts (by index) and values
                parts = event[1]
                values = [None if isinstance(x, int) else self.value(x[0]) for x in parts]
                paired = list(zip(parts, values, strict=True))
                self._log.append("".join(texts[x] if isinstance(x, int) else label(v) for x, v in paired))
                named = [v for x, v in paired if not isinstance(x, int) and _a_place(v)]

    def _said(self, named: Any, cells: list[tuple[int, int, int]]) -> None:
        """The last line as the Python engine writes it when it names places of a grid that grows
        (runtime.py's `Said`): the place (an answer's value, or a `log` line's places) and what
        lay around it when it was written, as the core took it (src/words.rs)."""
        value = named[2] if isinstance(named, tuple) else named
        around = {(q, r): self.lowered.rows[row] for q, r, row in cells}
        self._log[-1] = Said(self._log[-1], value, around)

    def _withheld(self, named: Any, there: list[int], before: list[int]) -> None:
        """The last line, an answer that took a piece from a zone, as the seats that could not see
        it read it (`engine.withhold`), from what each seat could see as the core took it
        (src/words.rs); revealed as on the Python engine once the step is over (`_settle`)."""
        who, prompt, value, only = named
        line = self._log[-1]
        withheld = withhold(self, who, prompt, line, value, only, there)
        if withheld is not None:
            self._log[-1] = withheld
            at, readers = len(self._log) - 1, set(withheld.readers)
            self.hidden.append(Hidden(at, line, withheld.others, value.piece, readers, before))

    def _piece(self, kind: int, owner: int | None) -> Piece:
        return (self.lowered.kinds[kind], None if owner is None else self.lowered.players[owner])

    def _revealed(self, seats: list[int], at: list[tuple[int, list[tuple[int, int | None]]]]) -> Secret:
        """A reveal's line, which the seats shown alone read (the Python engine's words:
        statements.py's `_looked`)."""
        names = self.game.program.names
        assert names is not None
        shown = [self.lowered.players[seat] for seat in seats]
        pieces = {self._place(loc): [self._piece(*pc) for pc in held] for loc, held in at}
        text, others = _looked(names, shown, pieces)
        return Secret(text, frozenset(seats), others)

    @property
    def seen(self) -> dict[Any, dict[int, dict[Piece, int]]]:
        """What `reveal` showed each seat and it still knows, by place, as the Python engine's
        `Runtime.seen` keeps it (each seat's pieces in the order it first saw them)."""
        out: dict[Any, dict[int, dict[Piece, int]]] = {}
        for loc, seat, known in self.core.seen:
            out.setdefault(self._place(loc), {})[seat] = {self._piece(k, o): n for k, o, n in known}
        return out

    def _error(self, kind: str, detail: str, at: int | None) -> RuleRuntimeError:
        return core_error(self.lowered, self.budget, kind, detail, at)

    # -------------------------------------------------------------- the engine's API

    @property
    def decision(self) -> Decision | None:
        if self._decision is None:
            asked = self.core.decision()
            if asked is None:
                return None
            seat, prompt, options, optional = asked
            player = self.lowered.players[seat]
            # the actions an `offer` adds, after the options: labelled as the Python engine's
            offers = [
                Offer(player, self.lowered.texts[text], None, None, {}, self.lowered.codes[code])
                for text, code in self.core.offers()
            ]
            self._decision = Decision(
                player,
                self.lowered.texts[prompt],
                LazyList(len(options), lambda i: self.value(options[i])),
                extra="pass" if optional else "",
                offers=offers,
            )
        return self._decision

    @property
    def is_over(self) -> bool:
        """As the core said when it last ran (_settle); a game stopped by an error in the rules,
        its scores' too, is not over, as on the Python engine (whose flow raised before it ended)."""
        return self._over and self.failed is None

    @property
    def ended_early(self) -> bool:
        return bool(self.core.ended_early)

    @property
    def choices(self) -> list[int]:
        return list(self.core.choices)

    @property
    def turns(self) -> int:
        return int(self.core.turns)

    @property
    def steps(self) -> int:
        return int(self.core.steps)

    @property
    def log(self) -> list[str]:
        return self._log

    def apply(self, index: int) -> None:
        """Answer the current decision with the option at `index` (as State.apply). The core
        checks the answer: a random playout crosses into it once per decision, with no
        Decision made here (docs/benchmarks.md)."""
        if self.failed is not None:
            raise IllegalChoice(f"the game stopped on an error in the rules: {self.failed}")
        try:
            if isinstance(index, bool) or not isinstance(index, int) or index < 0:
                raise ValueError
            seat = self.core.apply(index)  # the seat that answered
        except (ValueError, OverflowError):  # no option of that number, or the game is over
            decision = self.decision
            if decision is None:
                raise IllegalChoice("the game is over: there is no decision to answer") from None
            raise IllegalChoice(
                f"{index!r} is not an option: choose a number from 0 to {decision.size - 1}"
            ) from None
        self.choosers.append(seat)
        self._settle()

    def style_weights(self, style: str) -> list[float] | None:
        """Each option's weight by a style the rules declare, for the pending decision, as
        `Style.weights` gives them on the Python engine (None: the style says nothing of it):
        what a StyleAgent draws from (agents.py)."""
        try:
            weights = self.core.weights(style)
        except ValueError:
            raise
        except Exception as err:  # the core's NativeError
            kind, detail, at = err.args
            raise self._error(kind, detail, at) from None
        return None if weights is None else list(weights)

    def play_out(self, agents: list[str]) -> None:
        """Play to the end inside the core, each seat by its agent ("random", "first", a style the
        rules declare, or a search, `mcts...`; a shorter list repeats its last, as make_agents
        does), drawing what interpreter/agents.py's agents of the same seed draw."""
        named = [agents[min(seat, len(agents) - 1)] for seat in range(self.players)]
        self.core.play_out([self._agent(name) for name in named], self.seed)
        self._settle()

    def _agent(self, name: str) -> Any:
        return core_agent(self.game, self.lowered, name)

    def play_with(self, agents: Any) -> None:
        """Play to the end inside the core with agents that outlive the game (`_core.Agents`):
        a sequence's games are played by the same agents (NativeSequence)."""
        self.core.play_with(agents)
        self._settle()

    @property
    def scores(self) -> list[int]:
        """Each seat's score: as the game ended with it, or as the position gives it now."""
        return list(self.final[0]) if self.final is not None else self._per_player(False)

    @property
    def tiebreaks(self) -> list[int]:
        return list(self.final[1]) if self.final is not None else self._per_player(True)

    def _per_player(self, tiebreak: bool) -> list[int]:
        try:
            return list(self.core.scores(tiebreak))
        except Exception as err:  # the core's NativeError
            kind, detail, at = err.args
            raise self._error(kind, detail, at) from None

    @property
    def winners(self) -> list[int]:
        """Seats with the best score (then the best tiebreak); several when they share it. In a
        game played in teams, every member of the teams whose best member is the best."""
        return teams_.winners(list(zip(self.scores, self.tiebreaks, strict=True)), self.teams)

    def counted(self) -> dict[str, int | list[int]]:
        declared = self.game.program.symbols.counters
        counts = self.core.counters
        return {
            name: list(counts[i]) if declared[name].per_player else counts[i][0]
            for i, name in enumerate(self.lowered.counters)
        }

    @property
    def shortfalls(self) -> dict[str, int]:
        """What moves wanted and did not find, keyed as the Python engine keys them."""
        out: dict[str, int] = {}
        for decl, where, missing in self.core.shortfalls:
            if decl is None:  # a draw, from the location `where`
                key = f"draw from {self.lowered.zones.get(where) or self.lowered.nodes[where]}"
            else:
                kind = self.lowered.decls[decl]
                key = kind if where is None else f"{kind} {self.lowered.rows[where]}"
            out[key] = out.get(key, 0) + missing
        return out

    def clone(self) -> NativeState:
        """A copy of the game that plays on alone (the program is shared)."""
        copy = object.__new__(NativeState)
        copy.__dict__.update(self.__dict__)
        copy.core = self.core.clone()
        copy.choosers = list(self.choosers)
        copy._log = list(self._log)
        copy._decision = None
        copy._position = None
        copy.hidden = list(self.hidden)
        return copy

    @property
    def rt(self) -> Position:
        """The position as the Python engine's Runtime holds it, read from the core once per
        position: what the view, the terminal and the playtest page read (position.py)."""
        if self._position is None:
            self._position = Position(self)
        return self._position

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The position as one seat may see it (None: everything): State.view's, decided by the
        same code (interpreter/view.py)."""
        return player_view(self, seat)

    def shown(self) -> list[Any]:
        """Where the decision's rules show each option (`shown at PLACE`: asked of the core,
        src/shown.rs), or the option itself, as State.shown gives them."""
        decision = self.decision
        if decision is None:
            return []
        places = self.core.shown()
        if places is None:
            return list(decision.values)
        return [self.value(v) for v in places]

    def place(self, value: Any) -> dict[str, Any] | None:
        """The place on the board an option denotes (`view.place`), as State.place."""
        return place(self.game.program, value)

    def save(self) -> Save:
        """What the rules carry, as the game stands now (as State.save: carried.py)."""
        return carried.take(self)

    def result(self) -> dict[str, Any]:
        """The game as a log records it, as State.result (one record for both engines)."""
        return record(self)


def core_agent(game: Game, lowered: Lowered, name: str) -> Any:
    """An agent as the core takes it (src/py.rs's AgentSpec): its name, or a search's tuple."""
    search = parse_search(name)
    if search is None:
        return name
    if search.style is not None and search.style not in game.program.styles:
        raise ValueError(f"unknown style '{search.style}' for the search '{name}'")
    return ("mcts", *search_arguments(search, lowered))


def _a_place(value: Any) -> bool:
    """Whether a `log` line's value is a place of a grid that grows (a shape laid, a cell, an
    area, a route there): such a line is a `Said`, as compile_Log writes it."""
    return type(value) is Placement or bool(grown_places(value))


class NativeSequence(SequenceState):
    """A sequence of games (interpreter/sequence.py) whose games are each played on the native
    core: what goes from a game to the next is its save, as on the Python engine (carried.py)."""

    engine = "native"

    def _new(self, part: Game, seed: int, load: Save | None, run_setup: bool) -> Any:
        from meeple.interpreter.native import lowered

        low, core = lowered(part, self.players)
        state = NativeState(part, low, core, self.players, seed, self.budget, self.logging, self.layout, load)
        if self.done:  # a later game: its setup's error is raised at once, as the Python engine's
            state.check()
        return state

    @property
    def playing(self) -> NativeState:
        """The game in progress (each game of this sequence is a native one)."""
        assert isinstance(self.current, NativeState)
        return self.current

    def check(self) -> None:
        """Raise the error in the rules that stopped the game in progress, if one did."""
        self.playing.check()

    def clone(self) -> NativeSequence:
        """A copy of the sequence that plays on alone: the game in progress copied (the core's
        copy), the games played to their end shared, since nothing changes them any more."""
        copy = object.__new__(NativeSequence)
        copy.__dict__.update(self.__dict__)
        game: Any = self.playing.clone()  # where the Python sequence holds a State, as `_new`'s
        copy.current = game
        copy.done = list(self.done)
        copy.choices = list(self.choices)
        copy.choosers = list(self.choosers)
        return copy

    @property
    def steps(self) -> int:
        return self.playing.steps  # each game of a sequence has the step budget (as on Python)

    @property
    def core(self) -> Any:
        """The game in progress on the core (what a searching agent searches)."""
        return self.playing.core

    def play_out(self, agents: list[str]) -> None:
        """Play the sequence to its end inside the core, each game in turn, by the same agents
        (their generators go on from one game to the next, as interpreter/agents.py's do)."""
        named = [agents[min(seat, len(agents) - 1)] for seat in range(self.players)]
        seats = self.playing.core.agents([self.playing._agent(name) for name in named], self.seed)
        while not self.is_over:
            state = self.playing
            before = len(state.choices)
            try:
                state.play_with(seats)
            finally:
                self.choices.extend(state.choices[before:])
            self._next()
