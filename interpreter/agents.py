"""Agents: who answers a decision. Choices are the only player agency, so an agent is one method.

The built-in agents are below; a game's own ways to play are written in its rules (`style NAME:`)
and played by StyleAgent."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from meeple.interpreter.engine import State
from meeple.interpreter.geometry import column_letters
from meeple.interpreter.runtime import Decision
from meeple.interpreter.styles import Style, draw
from meeple.interpreter.values import first_upper, humanise


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


class HumanAgent:
    """Asks at the terminal: shows the position as the deciding seat may see it, lists the options
    numbered (1-based for people) and takes a number or an option's label.

    A label may be typed in any case, whole or as a prefix that only one label starts with; an
    answer that fits several options or none is asked again, saying what it fits. Options with
    the very same label cannot be told apart by anyone, so such a label picks the first of them.
    An answer of digits is always a number, even where the labels are numbers too.

    Numbers are stable: an option offered again in the seat's next decision of the same kind
    (the same prompt) keeps its number, so a hand that shrinks leaves gaps rather than renumbering
    what is left, while the list stays in the order the rules give with the pass option and the
    offered actions last. A number is reused for another option only when keeping every old
    number would break that order (an option the rules now put before one it followed)."""

    def __init__(self, ask: Callable[[str], str] = input, show: Callable[[str], None] = print) -> None:
        self.ask = ask
        self.show = show
        self.numbers: dict[tuple[int, str], dict[str, list[int]]] = {}  # the last numbers per kind

    def choose(self, state: State, decision: Decision) -> int:
        numbers = self.number(decision)
        self.show("")
        for line in position(state.view(decision.player.seat)):
            self.show(line)
        self.show(f"{decision.player}: {decision.prompt}")
        for number, option in zip(numbers, decision.options, strict=True):
            self.show(f"  {number}. {option}")
        while True:
            answer = self.ask("choose by number or name: ").strip()
            found = self.match(answer, numbers, decision.options)
            if isinstance(found, int):
                return found
            self.show(found)

    def number(self, decision: Decision) -> list[int]:
        """Each option's number: the one it had in the previous decision of the same kind where
        that keeps the numbers rising, else the next one up."""
        kind = (decision.player.seat, decision.prompt)
        before = {label: list(taken) for label, taken in self.numbers.get(kind, {}).items()}
        numbers: list[int] = []
        for option in decision.options:
            last = numbers[-1] if numbers else 0
            kept = before.get(option, [])
            while kept and kept[0] <= last:
                kept.pop(0)
            numbers.append(kept.pop(0) if kept else last + 1)
        now: dict[str, list[int]] = {}
        for option, number in zip(decision.options, numbers, strict=True):
            now.setdefault(option, []).append(number)
        self.numbers[kind] = now
        return numbers

    @staticmethod
    def match(answer: str, numbers: list[int], options: list[str]) -> int | str:
        """The index an answer names, or why it names none (to show before asking again)."""
        if answer.isdigit():
            if int(answer) in numbers:
                return numbers.index(int(answer))
            return f"'{answer}' is not one of the numbers listed"
        typed = answer.casefold()
        if not typed:
            return "type a number or the start of an option's name"
        exact = [i for i, option in enumerate(options) if option.casefold() == typed]
        fits = exact or [i for i, option in enumerate(options) if option.casefold().startswith(typed)]
        if len({options[i] for i in fits}) == 1:
            return fits[0]
        if not fits:
            return f"'{answer}' is not an option"
        fitting = ", ".join(dict.fromkeys(f"{numbers[i]}. {options[i]}" for i in fits))
        return f"'{answer}' fits several options: {fitting}; type more of the name, or its number"


def position(view: Mapping[str, Any]) -> list[str]:
    """The position in a few lines, from `State.view` of one seat: the variables, what each player
    holds in the rules' stores, the zones and map places that hold anything, and the grid cells
    with pieces or a face, each named as players read it (the view's `names`: a `called` name,
    else the name in words); a zone the seat may not look into says how many pieces it holds
    face down."""
    lines: list[str] = []
    names = view["names"]

    def name(key: str) -> str:
        return names.get(key) or humanise(key)

    values = [f"{name(var)}: {value}" for var, value in view["variables"].items()]
    if values:
        lines.append(first_upper("; ".join(values)))
    for store, held in view["owned"].items():
        per, _, _ = store.partition(".")
        if per == "player" and held:
            said = ", ".join(f"{who} {value}" for who, value in held.items())
            lines.append(first_upper(f"{name(store)}: {said}"))
    places = {**view["zones"], **{p: c for m in view["maps"].values() for p, c in m.items()}}
    for place, contents in places.items():
        said = pieces(contents, view["plurals"])
        if said:
            lines.append(first_upper(f"{name(place)}: {said}"))
    for grid, cells in view["grids"].items():
        form = view["grid_forms"][grid]
        if form["board"] and all(not c["face"] and len(c["pieces"]) <= 1 for c in cells):
            lines += picture(first_upper(name(grid)), cells, form["kind"] == "hex")
            continue
        for cell in cells:
            face = name(cell["face"]) if cell["face"] else ""
            said = ", ".join(x for x in [face, pieces(cell["pieces"], view["plurals"])] if x)
            if said:
                lines.append(first_upper(f"{name(grid)} {cell['name']}: {said}"))
    return lines


def picture(name: str, cells: list[dict[str, Any]], hexes: bool) -> list[str]:
    """A board whose cells hold at most one kind of piece each (a board of stones, marks, discs)
    drawn as text, a letter for each kind with a key below: the position at a glance, as on
    paper. Rows run north to south, each with its number, under the column letters (the cells'
    names: `b2`); a hex grid's rows lean as its cells do, half a cell east a row."""
    kinds = list(dict.fromkeys(kind for c in cells for kind in c["pieces"]))
    marks = {kind: chr(ord("A") + i) if i < 26 else "*" for i, kind in enumerate(kinds)}
    west, north = min(c["q"] for c in cells), min(c["r"] for c in cells)
    east = max(c["q"] for c in cells)
    rows: dict[int, dict[int, str]] = {}
    for c in cells:
        held = next(iter(c["pieces"]), None)
        count = c["pieces"].get(held, 0)
        mark = "." if held is None else marks[held] if count == 1 else str(count)
        rows.setdefault(c["r"], {})[c["q"]] = mark
    width = len(str(max(rows) - north + 1))
    letters = [column_letters(q - west) for q in range(west, east + 1)]
    drawn = [f"{name}:", " " * (width + 3) + " ".join(letters)]
    for r in sorted(rows):
        indent = " " * (r - north) if hexes else ""
        row = " ".join(rows[r].get(q, " ") for q in range(west, east + 1))
        drawn.append(f"  {indent}{r - north + 1:>{width}} {row}".rstrip())
    drawn += [f"  {mark} = {kind}" for kind, mark in marks.items()]
    return drawn


def pieces(contents: Any, plurals: Mapping[str, str]) -> str:
    """A zone's contents in words: "3 face down", "3 face down, of which you saw Owl" (what
    `reveal` showed the seat), "2 Tokens, Stone" (`plurals`: the view's), or "" when it is
    empty."""
    if isinstance(contents, list):  # an ordered zone, top last
        return ", ".join(contents)
    if "hidden" in contents:
        count = contents["hidden"]
        if not count:
            return ""
        seen = f", of which you saw {', '.join(contents['seen'])}" if contents.get("seen") else ""
        return f"{count} face down" + (f", {contents['top']} on top" if contents.get("top") else "") + seen
    return ", ".join(f"{n} {plurals.get(piece, piece)}" if n > 1 else piece for piece, n in contents.items())


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
        elif search_iterations(name) is not None:
            out.append(MctsAgent(seed_of_seat, search_iterations(name) or 1000))
        elif name not in AGENTS:
            known = ", ".join([*AGENTS, "mcts[:N]", *styles])
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
