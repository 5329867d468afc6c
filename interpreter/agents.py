"""Agents: who answers a decision. Choices are the only player agency, so an agent is one method.

The built-in agents are below; a game's own ways to play are written in its rules (`style NAME:`)
and played by StyleAgent."""

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
        weights = state.evaluate(lambda: self.style.weights(state.rt, decision), f"style '{self.style.name}'")
        if weights is None or min(weights) == max(weights):  # nothing to prefer: as random would
            return self.rng.randrange(decision.size)
        return draw(self.rng, weights)


class FirstAgent:
    """Always the first option: a deterministic baseline."""

    def choose(self, state: State, decision: Decision) -> int:
        return 0


class ScriptedAgent:
    """Answers from a list of option indices, in order."""

    def __init__(self, choices: Sequence[int]) -> None:
        self.choices = list(choices)

    def choose(self, state: State, decision: Decision) -> int:
        if not self.choices:
            raise ValueError(f"the script has no answer left for: {decision}")
        return self.choices.pop(0)


class HumanAgent:
    """Asks at the terminal with numbered options (1-based for people)."""

    def __init__(self, ask: Callable[[str], str] = input, show: Callable[[str], None] = print) -> None:
        self.ask = ask
        self.show = show

    def choose(self, state: State, decision: Decision) -> int:
        self.show(f"\n{decision.player}: {decision.prompt}")
        for number, option in enumerate(decision.options, start=1):
            self.show(f"  {number}. {option}")
        while True:
            answer = self.ask(f"choose 1-{len(decision.options)}: ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                return int(answer) - 1
            self.show(f"'{answer}' is not an option: type a number from 1 to {len(decision.options)}")


AGENTS = {"random": RandomAgent, "first": FirstAgent, "human": HumanAgent}


def make_agents(
    names: Sequence[str], players: int, seed: int, styles: Mapping[str, Style] | None = None
) -> list[Agent]:
    """One agent per seat; a shorter list repeats its last name. A name is a built-in agent or one
    of the game's playing styles (`styles`). Random and style agents get distinct seeds."""
    if not names:
        names = ["random"]
    styles = styles or {}
    out: list[Agent] = []
    for seat in range(players):
        name = names[min(seat, len(names) - 1)]
        seed_of_seat = seed * 1000 + seat
        if name in styles:
            out.append(StyleAgent(styles[name], seed_of_seat))
        elif name not in AGENTS:
            known = ", ".join([*AGENTS, *styles])
            raise ValueError(f"unknown agent '{name}' (known: {known})")
        else:
            out.append(RandomAgent(seed_of_seat) if name == "random" else AGENTS[name]())
    return out


def play(state: State, agents: Sequence[Agent]) -> State:
    """Play a state to its end, each decision answered by the agent of the deciding seat."""
    while not state.is_over:
        decision = state.decision
        assert decision is not None
        state.apply(agents[decision.player.seat].choose(state, decision))
    return state
