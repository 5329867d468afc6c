"""Agents: who answers a decision. Choices are the only player agency, so an agent is one method.

The built-in agents are below; a game's own ways to play are written in its rules (`style NAME:`)
and played by StyleAgent; a person at the terminal is `meeple.terminal.HumanAgent`, which shows
the position in the players' words, a presentation that is no part of the engine."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from meeple.interpreter.engine import State
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


class MctsAgent:
    """Searches before it answers: Monte Carlo tree search over copies of the game, so many
    random playouts per decision (`mcts`: 1,000; `mcts:N`). It needs states that copy, so it
    plays on the native engine only. Its n-th answer's search is seeded with
    seed * 1,000,000 + n, as the same agent inside the native core seeds it."""

    def __init__(self, seed: int = 0, iterations: int = 1000) -> None:
        self.seed = seed
        self.iterations = iterations
        self.asked = 0

    def choose(self, state: State, decision: Decision) -> int:
        core = getattr(state, "core", None)
        if core is None:
            raise ValueError("the mcts agent searches copies of a game: it plays on the native engine only")
        choice = core.mcts(self.iterations, self.seed * 1_000_000 + self.asked)
        self.asked += 1
        return int(choice or 0)


def search_iterations(name: str) -> int | None:
    """The playouts of an agent named `mcts` (1,000) or `mcts:N`; None for any other name."""
    if name == "mcts":
        return 1000
    if name.startswith("mcts:") and name[5:].isdigit() and int(name[5:]) >= 1:
        return int(name[5:])
    return None


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
        elif search_iterations(name) is not None:
            out.append(MctsAgent(seed_of_seat, search_iterations(name) or 1000))
        elif name not in AGENTS:
            known = ", ".join([*AGENTS, "mcts[:N]", *styles])
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
