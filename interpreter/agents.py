"""Agents: who answers a decision. Choices are the only player agency, so an agent is one method.

The built-in agents are below; a game's own ways to play are written in its rules (`style NAME:`)
and played by StyleAgent; a person at the terminal is `meeple.terminal.HumanAgent`, which shows
the position in the players' words, a presentation that is no part of the engine."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from meeple.interpreter.engine import Game, State
from meeple.interpreter.runtime import Decision
from meeple.interpreter.styles import Style, draw


class Agent(Protocol):
    def choose(self, state: State, decision: Decision) -> int: ...


class RandomAgent:
    """Uniformly random among the options, from its own seeded generator (replays stay exact)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, decision: Decision) -> int:
        return self.rng.randrange(decision.size)


class StyleAgent:
    """Plays a style written in the rules (`style NAME:`): the options its preferences speak of
    weighed by them, the rest at random. Where the style has nothing to prefer (it says nothing
    of the decision, or its conditions leave every option the same weight) it answers as a
    RandomAgent of the same seed would."""

    def __init__(self, style: Style, seed: int = 0) -> None:
        self.style = style
        self.rng = random.Random(seed)

    def choose(self, state: State, decision: Decision) -> int:
        on_core = getattr(state, "style_weights", None)  # a game on the native core weighs there
        if on_core is not None:
            weights = on_core(self.style.name)
        else:
            weights = state.evaluate(
                lambda: self.style.weights(state.rt, decision), f"style '{self.style.name}'"
            )
        if weights is None or min(weights) == max(weights):  # nothing to prefer: as random would
            return self.rng.randrange(decision.size)
        return draw(self.rng, weights)


DEFAULT_PLAYOUTS = 1000  # a search's budget when its name says none (`mcts`)
MOST_SECONDS = 86_400  # a search's time per decision at most (src/py.rs): a day
SEARCH_SYNTAX = "mcts, mcts:N (N playouts), mcts:Ts (T seconds, as 2s or 0.5s), then :STYLE if you like"


@dataclass(frozen=True)
class Search:
    """What a searching agent's name asks for: a budget per decision (so many playouts, or so
    many seconds) and the style its playouts play (None: at random)."""

    playouts: int | None = DEFAULT_PLAYOUTS
    seconds: float | None = None
    style: str | None = None


DIGITS = "0123456789"  # a budget's: ASCII digits alone ("²" is a digit to str.isdigit, not to int)


def parse_search(name: str) -> Search | None:
    """The search an agent's name asks for, None for a name that is no search: `mcts`,
    `mcts:500` (500 playouts a decision), `mcts:2s` or `mcts:0.5s` (that long a decision), each
    with `:STYLE` after it (`mcts:500:hunter`, or `mcts:hunter` with the playouts by default)
    to finish each playout as that style of the rules plays. Raises ValueError, saying how to
    write it, for a name that starts as a search and is not one."""
    if name != "mcts" and not name.startswith("mcts:"):
        return None
    parts = name.split(":")[1:]
    wrong = ValueError(f"'{name[:60]}' is not a search: say {SEARCH_SYNTAX}")
    if len(parts) > 2 or any(not part for part in parts):
        raise wrong
    search = Search()
    if parts and parts[0][:1] in DIGITS:
        budget = parts.pop(0)
        if re.fullmatch("[0-9]+", budget) and 1 <= int(budget) <= 2**32 - 1:
            search = Search(playouts=int(budget))
        elif budget.endswith("s") and re.fullmatch(r"[0-9]+(\.[0-9]+)?", budget[:-1]):
            seconds = float(budget[:-1])
            if not 0 < seconds <= MOST_SECONDS:
                raise ValueError(f"'{name[:60]}': a search takes more than 0 seconds and at most a day")
            search = Search(playouts=None, seconds=seconds)
        else:
            raise wrong
    if parts:
        if not parts[0].isidentifier():
            raise wrong
        search = Search(search.playouts, search.seconds, parts[0])
    return search


class MctsAgent:
    """Searches before it answers: Monte Carlo tree search over copies of the game (src/mcts.rs),
    for so many playouts or so many seconds a decision (`Search`), each playout finished at
    random or as a style of the rules plays. It needs states that copy, so it plays where the
    native engine runs the game: on a game of the Python engine (the playtest page's) it
    searches a native copy replayed from the same seed and choices, which the two engines play
    alike (tests/test_native.py). Its n-th answer's search is seeded with seed * 1,000,000 + n,
    as the same agent inside the native core seeds it: a search of so many playouts answers
    the same every time; one of so many seconds, as many playouts as the machine made."""

    def __init__(self, seed: int = 0, search: Search | None = None) -> None:
        self.seed = seed
        self.search = search or Search()
        self.asked = 0
        self._copy: Any = None  # the native copy of a Python engine's game (`native_copy`)

    def choose(self, state: State, decision: Decision) -> int:
        native = self.native_copy(state)
        seed = self.seed * 1_000_000 + self.asked
        choice = native.core.mcts(seed, *search_arguments(self.search, native.lowered))
        self.asked += 1
        return int(choice or 0)

    def native_copy(self, state: Any) -> Any:
        """The game on the native core: the state itself, or a copy of a Python engine's game
        played to the same position (kept, and played on by the choices made since)."""
        if getattr(state, "core", None) is not None:
            return state
        from meeple.interpreter import native
        from meeple.interpreter.native.lower import Unsupported

        copy = self._copy
        if copy is None or copy.seed != state.seed or copy.choices != state.choices[: len(copy.choices)]:
            if state.loaded is not None:
                raise ValueError("the mcts agent searches copies of a game: not of one started from a save")
            try:
                copy = native.new_game(
                    state.game, state.players, state.seed, state.rt.budget, False, teams=state.layout
                )
            except Unsupported as err:
                raise ValueError(f"the mcts agent plays on the native engine only, and here: {err}") from None
        for index in state.choices[len(copy.choices) :]:
            copy.apply(index)
        self._copy = copy
        return copy


def search_arguments(search: Search, lowered: Any) -> tuple[int | None, float | None, int | None]:
    """A search's budget and its style's index in the game's lowered program (`lowered`), as the
    core takes them (src/py.rs): ValueError for a style the core does not play."""
    if search.style is None:
        return search.playouts, search.seconds, None
    index = lowered.styles.get(search.style)
    if index is None:
        raise ValueError(
            f"the native engine cannot play the style '{search.style}' in a search's playouts "
            "(it weighs an offered action, or uses what the engine does not run)"
        )
    return search.playouts, search.seconds, index


class FirstAgent:
    """Always the first option: a deterministic baseline."""

    def choose(self, state: State, decision: Decision) -> int:
        return 0


AGENTS = ("random", "first", "human")  # the built-in agents' names


def make_agents(
    names: Sequence[str],
    players: int,
    seed: int,
    styles: Mapping[str, Style] | None = None,
    human: Callable[[], Agent] | None = None,
) -> list[Agent]:
    """One agent per seat; a shorter list repeats its last name. A name is a built-in agent or one
    of the game's playing styles (`styles`). Random and style agents get distinct seeds. A seat
    named `human` is a person, asked by whatever shows them the game (`human` makes one: the
    terminal's, the playtest page's); where nothing can ask a person, the name is refused."""
    if not names:
        names = ["random"]
    styles = styles or {}
    out: list[Agent] = []
    for seat in range(players):
        name = names[min(seat, len(names) - 1)]
        seed_of_seat = seed * 1000 + seat
        if name in styles:
            out.append(StyleAgent(styles[name], seed_of_seat))
        elif (search := parse_search(name)) is not None:
            if search.style is not None and search.style not in styles:
                known = f"known: {', '.join(styles)}" if styles else "the rules declare none"
                raise ValueError(f"unknown style '{search.style}' for the search '{name}' ({known})")
            out.append(MctsAgent(seed_of_seat, search))
        elif name not in AGENTS:
            known = ", ".join([*AGENTS, "mcts[:N|:Ts][:STYLE]", *styles])
            raise ValueError(f"unknown agent '{name}' (known: {known})")
        elif name == "human":
            if human is None:
                raise ValueError("a person cannot play here: name agents that play by themselves")
            out.append(human())
        else:
            out.append(RandomAgent(seed_of_seat) if name == "random" else FirstAgent())
    return out


def play(state: State, agents: Sequence[Agent]) -> State:
    """Play a state to its end, each decision answered by the agent of the deciding seat."""
    while not state.is_over:
        decision = state.decision
        assert decision is not None
        state.apply(agents[decision.player.seat].choose(state, decision))
    return state


# How playouts draw their random answers: "seat", each seat's agent from its own generator
# (`make_agents`'s, as `meeple simulate` plays); "game", one generator for every seat, as a loop
# `rng = Random(seed); while not over: apply(rng.randrange(size))` draws (a benchmark's).
DRAWS = ("seat", "game")


def one_generator(draw: str, agents: Sequence[str]) -> bool:
    """Whether playouts draw every seat's answers from one generator (`draw` "game": `DRAWS`),
    which only random agents can share. Raises ValueError for another `draw`, or for "game"
    with any other agent."""
    if draw not in DRAWS:
        raise ValueError(f'draw is "seat" or "game", not {draw!r}')
    others = [name for name in agents if name != "random"]
    if draw == "game" and others:
        raise ValueError(
            f"only random agents draw from one generator for every seat (draw=\"game\"), not '{others[0]}'"
        )
    return draw == "game"


def playouts(
    game: Game,
    games: int,
    seed: int = 0,
    players: int | None = None,
    agents: Sequence[str] = ("random",),
    teams: Sequence[Sequence[int]] | None = None,
    stream: bool = False,
    draw: str = "seat",
) -> list[State]:
    """`games` games played to their end on the Python engine by agents named as `make_agents`
    names them: what `native.playouts` plays inside the core, the same games. Each game of seeds
    `seed`, `seed + 1`, ... is the game of its own seed, its chance and its agents seeded for it,
    so that each replays alone. With `stream`, the games are drawn from one stream from `seed`:
    the chance generator and the agents are made once, as the game of `seed` makes them, and each
    game goes on from where the one before left them, none seeded again (what many random games
    ask where none must replay alone: a benchmark, as other engines' loops draw from one
    generator). A stream's first game is the game of its seed; a later one replays only after
    those before it, so a search, which copies its game from the seed, plays no stream.

    With `draw="game"` (random agents only: `one_generator`), every seat's answers are drawn from
    one generator, seeded with the game's seed (in a stream, once with `seed`): one RandomAgent
    seated at every seat, so the games are those of the loop `rng = Random(seed); while not
    over: state.apply(rng.randrange(state.decision.size))`."""
    shared = one_generator(draw, agents)

    def seated(players: int, seed: int) -> list[Agent]:
        if shared:
            return [RandomAgent(seed)] * players  # one generator, whoever decides
        return make_agents(list(agents), players, seed, game.program.styles)

    if not stream:
        out = []
        for n in range(games):
            state = game.new_game(players, seed + n, logging=False, teams=teams)
            out.append(play(state, seated(state.players, seed + n)))
        return out
    first = game.new_game(players, seed, logging=False, teams=teams, run_setup=False)
    made = seated(first.players, seed)
    if any(isinstance(agent, MctsAgent) for agent in made):
        raise ValueError("a search copies its game from the game's seed: it plays no stream of games")
    chance = random.Random(seed)
    out = []
    for n in range(games):
        state = first if n == 0 else game.new_game(players, seed, logging=False, teams=teams, run_setup=False)
        state.rt.rng = chance
        state.run(state.flow())
        out.append(play(state, made))
    return out
