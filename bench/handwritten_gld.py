"""Gods Love Dinosaurs written by hand in plain Python: the speed bar for meeple.

This plays exactly the rules of `games/gods_love_dinosaurs.rules` (its `assume` lines included),
with the same decision points and the same options in the same order, so that figures are
comparable (see `bench.py --compare`):

- take a tile: every tile of every column, column by column, bottom slot first;
- place it: every distinct placement (turned and moved, touching, not overlapping);
- prey: which prey expands next, then where (or pass);
- predators: which hunts next, then one route per destination and set of prey eaten (or pass);
- dinosaurs: hatch yes/no, which hunts next, then one route per destination and set of animals
  eaten (or pass).

A decision with a single option is taken automatically, as meeple does. The tiles are shuffled
with `random.Random(seed)` exactly as meeple shuffles them, so for one seed and one list of
answers both play the same game: that is how `bench.py --compare` checks this file against the
rules. It reads the tiles from the authored component data and does not import meeple.

It is written the way one would write a game by hand, straightforwardly: a game is a Python
generator that yields a `Decision` whenever a player must choose and receives the index of the
answer; `State` drives it with the same small API as meeple's (`decision`, `apply`, `is_over`).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

# The authored tile data is not part of meeple (the rules file has it as tables; this mirror reads
# it apart, to stay independent): in $MEEPLE_COMPONENTS, or in ../shared beside our checkout.
COMPONENTS = "gods-love-dinosaurs.json"


def components_file() -> Path:
    folders = [Path(p) for p in os.environ.get("MEEPLE_COMPONENTS", "").split(os.pathsep) if p]
    folders.append(Path(__file__).resolve().parents[2] / "shared" / "components")
    found = next((f / COMPONENTS for f in folders if (f / COMPONENTS).is_file()), None)
    if found is None:
        raise SystemExit(f"{COMPONENTS} not found: put its folder in $MEEPLE_COMPONENTS")
    return found


# Axial coordinates, pointy-top, in the order the rules use: E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DINOSAUR = "dinosaur"
PASS = "pass"  # the last option of a choice a player may decline


class GameOver(Exception):
    """The stacks cannot refill the empty columns: the game ends at once, from deep inside a turn."""


# ---------------------------------------------------------------------- components


@dataclass(frozen=True)
class Face:
    """One printed hex of a tile, at the tile's own coordinates."""

    q: int
    r: int
    terrain: str
    icon: str | None  # an animal, or None
    nest: bool


@dataclass(frozen=True)
class Tile:
    name: str
    stack: str | None
    min_players: int
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Components:
    """Everything the rules read from the component data."""

    columns: tuple[str, ...]  # the animal board, left to right
    favours: dict[str, str]  # prey -> favoured terrain
    reach: dict[str, tuple[int, bool]]  # predator -> (most steps, straight line only)
    dinosaur_reach: int
    rows_by_players: dict[int, int]
    supply: dict[str, int]
    golden_worth: int
    starting_eggs: int
    stacks: tuple[str, ...]
    start: Tile
    tiles: tuple[Tile, ...]

    @classmethod
    def load(cls, path: Path | None = None) -> Components:
        data = json.loads((path or components_file()).read_text())

        def faces(hexes: list[dict[str, Any]]) -> tuple[Face, ...]:
            return tuple(
                Face(
                    h["q"],
                    h["r"],
                    h["terrain"],
                    None if h["icon"] in (None, "nest") else h["icon"],
                    h["icon"] == "nest",
                )
                for h in hexes
            )

        board = data["animal_board"]
        return cls(
            columns=tuple(board["columns"]),
            favours=dict(data["prey"]),
            reach={a: (p["max_steps"], p["straight_line"]) for a, p in data["predators"].items()},
            dinosaur_reach=data["dinosaur"]["max_steps"],
            rows_by_players={int(n): rows for n, rows in board["rows_by_players"].items()},
            supply=dict(data["supply"]),
            golden_worth=data["golden_egg_value"],
            starting_eggs=data["starting_eggs"],
            stacks=tuple(data["stacks"]),
            # All starting tiles are the same flower (an assumption of the rules).
            start=Tile("start", None, 1, faces(data["starting_tiles"][0]["hexes"])),
            tiles=tuple(
                Tile(f"t{t['id']}", t["stack"], t["min_players"], faces(t["hexes"]))
                for t in data["ecosystem_tiles"]
            ),
        )


# ---------------------------------------------------------------------- the table


@dataclass(eq=False, slots=True)
class Hex:
    """A hex of an ecosystem. Only one animal (or dinosaur) fits on a hex, so it holds a name."""

    q: int
    r: int
    terrain: str
    nest: bool
    animal: str | None = None

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


@dataclass(eq=False)
class Player:
    seat: int
    hexes: dict[tuple[int, int], Hex]  # in the order they were placed
    nest: Hex  # the starting mountain, where dinosaurs hatch
    eggs: int = 0
    golden: int = 0


class Route(NamedTuple):
    """Where a hunt ends and the hexes it passes in between (start and end excluded)."""

    end: Hex
    passed: tuple[Hex, ...]


class Decision(NamedTuple):
    player: int
    prompt: str
    options: list[Any]

    @property
    def size(self) -> int:
        return len(self.options)


Flow = Generator[Decision, int, None]


def rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    for _ in range(turns):
        q, r = -r, q + r
    return q, r


def placements(hexes: dict[tuple[int, int], Hex], tile: Tile) -> list[tuple[tuple[int, int], ...]]:
    """Every way to lay the tile, turned freely, touching the ecosystem and covering none of it: the
    coordinates of each of its faces, in the tile's order. Its three hexes are different hexes, so
    two turns never lay it the same way: every placement is a different outcome."""
    frontier = sorted({(h.q + dq, h.r + dr) for h in hexes.values() for dq, dr in DIRECTIONS} - hexes.keys())
    out = []
    for turns in range(6):
        turned = [rotate(f.q, f.r, turns) for f in tile.faces]
        # Each shift that puts some hex of the tile on a frontier hex, once.
        shifts = sorted({(fq - q, fr - r) for fq, fr in frontier for q, r in turned})
        for dq, dr in shifts:
            coords = tuple((q + dq, r + dr) for q, r in turned)
            if hexes.keys().isdisjoint(coords):
                out.append(coords)
    return out


def routes(
    hexes: dict[tuple[int, int], Hex],
    start: Hex,
    steps: range,
    straight: bool,
    backtracks: bool,
    may_pass: Callable[[Hex], bool],
    may_end: Callable[[Hex], bool],
) -> list[Route]:
    """One route per destination and set of animals passed, the shortest found first.

    Breadth first over paths, each carrying the animals it has passed. With backtracking only the
    hex, the animals passed and the heading matter for what can still happen, so a state met again
    is not explored twice."""
    found: dict[tuple[Hex, frozenset[Hex]], Route] = {}
    if 0 in steps and may_end(start):
        found[(start, frozenset())] = Route(start, ())
    layer: list[tuple[tuple[Hex, ...], int, frozenset[Hex]]] = [((), -1, frozenset())]
    seen: set[tuple[Hex, frozenset[Hex], int]] = set()
    for depth in range(1, steps.stop):
        next_layer = []
        for path, heading, passed in layer:
            here = path[-1] if path else start
            if path and here is not start:
                if not may_pass(here):
                    continue  # it may end here, but not go on
                if here.animal is not None:
                    passed = passed | {here}
            for direction, (dq, dr) in enumerate(DIRECTIONS):
                if straight and heading >= 0 and direction != heading:
                    continue
                nxt = hexes.get((here.q + dq, here.r + dr))
                if nxt is None or (not backtracks and (nxt is start or nxt in path)):
                    continue
                if backtracks:
                    state = (nxt, passed, direction if straight else -1)
                    if state in seen:
                        continue
                    seen.add(state)
                key = (nxt, passed)
                if depth in steps and key not in found and may_end(nxt):
                    found[key] = Route(nxt, tuple(dict.fromkeys(h for h in path if h is not start)))
                next_layer.append(((*path, nxt), direction, passed))
        layer = next_layer
    return list(found.values())


# ---------------------------------------------------------------------- the game


class Game:
    """One game of Gods Love Dinosaurs: `play()` is its flow, a generator of decisions."""

    def __init__(self, players: int, seed: int, components: Components) -> None:
        self.c = components
        self.rng = random.Random(seed)
        self.rows = components.rows_by_players[players]
        self.supply = dict(components.supply)
        self.piles: dict[str, list[Tile]] = {s: [] for s in components.stacks}
        self.columns: dict[str, list[Tile]] = {a: [] for a in components.columns}
        self.marker = components.columns[0]
        self.volcano = 0
        self.turns = 0
        self.players = [self.start_ecosystem(seat) for seat in range(players)]

    # ------------------------------------------------------------------ setup

    def setup(self) -> None:
        for tile in self.c.tiles:
            if tile.stack is not None and tile.min_players <= len(self.players):
                self.piles[tile.stack].append(tile)
        for pile in self.piles.values():
            self.rng.shuffle(pile)
        self.refill_columns()
        self.supply[DINOSAUR] -= 1  # the dinosaur marker
        for player in self.players:
            for h in self.c.start.faces:
                if h.icon is not None:
                    self.put(player.hexes[(h.q, h.r)], h.icon)
            self.put(player.nest, DINOSAUR)
            player.eggs = self.take(self.c.starting_eggs, "egg")

    def start_ecosystem(self, seat: int) -> Player:
        hexes = {(f.q, f.r): Hex(f.q, f.r, f.terrain, f.nest) for f in self.c.start.faces}
        nest = next(h for h in hexes.values() if h.nest)
        return Player(seat, hexes, nest)

    # ------------------------------------------------------------------ the supply

    def take(self, n: int, what: str) -> int:
        """Up to n pieces from the supply: as many as it has."""
        n = min(n, self.supply[what])
        self.supply[what] -= n
        return n

    def put(self, where: Hex, what: str) -> None:
        """A piece from the supply onto an empty hex; nothing if the supply has none."""
        if self.take(1, what):
            where.animal = what

    def remove(self, where: Hex) -> None:
        """Whatever stands on a hex back to the supply."""
        if where.animal is not None:
            self.supply[where.animal] += 1
            where.animal = None

    # ------------------------------------------------------------------ flow

    def play(self) -> Flow:
        self.setup()
        try:
            while True:
                for player in self.players:
                    self.turns += 1
                    yield from self.take_tile(player)
        except GameOver:
            return

    @staticmethod
    def choose(player: Player, prompt: str, options: list[Any]) -> Generator[Decision, int, int]:
        """The index of a player's answer; a single option is taken without asking."""
        if len(options) == 1:
            return 0
        return (yield Decision(player.seat, prompt, options))

    def players_from(self, seat: int) -> list[Player]:
        return self.players[seat:] + self.players[:seat]

    def take_tile(self, player: Player) -> Flow:
        options = [(a, tile) for a in self.c.columns for tile in self.columns[a]]
        column, tile = options[(yield from self.choose(player, "Take a tile", options))]
        self.columns[column].remove(tile)
        spots = placements(player.hexes, tile)
        spot = spots[(yield from self.choose(player, "Place the tile", spots))]
        for (q, r), face in zip(spot, tile.faces, strict=True):
            player.hexes[(q, r)] = Hex(q, r, face.terrain, face.nest)
        for (q, r), face in zip(spot, tile.faces, strict=True):
            if face.icon is not None:
                self.put(player.hexes[(q, r)], face.icon)
        if not self.columns[column]:
            yield from self.activate(column, player.seat)

    def activate(self, animal: str, active: int) -> Flow:
        self.volcano = active
        for player in self.players_from(active):
            if animal in self.c.favours:
                yield from self.expand(player, animal)
            else:
                yield from self.hunt(player, animal)
        if self.marker == animal:
            yield from self.dinosaur_activation(active)

    # ------------------------------------------------------------------ prey and predators

    def room(self, player: Player, here: Hex, prey: str) -> list[Hex]:
        """The empty neighbours a prey may expand into: its favoured terrain or wild."""
        out = []
        for dq, dr in DIRECTIONS:
            h = player.hexes.get((here.q + dq, here.r + dr))
            if h is not None and h.animal is None and h.terrain in (self.c.favours[prey], "wild"):
                out.append(h)
        return out

    def expand(self, player: Player, prey: str) -> Flow:
        # Only the prey there when the activation starts act; offspring wait.
        todo = [h for h in player.hexes.values() if h.animal == prey and self.room(player, h, prey)]
        while todo:
            here = todo.pop((yield from self.choose(player, "which next?", todo)))
            room = self.room(player, here, prey)
            answer = yield from self.choose(player, "Expand to", [*room, PASS])
            if answer < len(room):
                self.put(room[answer], prey)

    def hunt(self, player: Player, predator: str) -> Flow:
        reach, straight = self.c.reach[predator]
        todo = [h for h in player.hexes.values() if h.animal == predator]
        while todo:
            here = todo.pop((yield from self.choose(player, "which next?", todo)))
            options = routes(
                player.hexes,
                here,
                range(1, reach + 1),
                straight,
                False,
                lambda h: h.animal is None or h.animal in self.c.favours,
                lambda h: h.animal in self.c.favours,
            )
            answer = yield from self.choose(player, "Hunt", [*options, PASS])
            if answer == len(options):  # it starves
                self.remove(here)
                continue
            route = options[answer]
            for h in route.passed:
                if h.animal is not None:  # a prey passed becomes an offspring
                    self.remove(h)
                    self.put(h, predator)
            self.remove(route.end)
            here.animal, route.end.animal = None, predator

    # ------------------------------------------------------------------ dinosaurs

    def dinosaur_activation(self, active: int) -> Flow:
        order = self.players_from(active)
        for player in order:
            yield from self.hatch(player)
        for player in order:
            yield from self.dinosaurs_hunt(player)
        columns = self.c.columns
        self.marker = columns[(columns.index(self.marker) + 1) % len(columns)]
        self.refill_columns()

    def hatch(self, player: Player) -> Flow:
        if player.nest.animal is not None or not (player.eggs or player.golden) or not self.supply[DINOSAUR]:
            return
        if (yield from self.choose(player, "Hatch a dinosaur?", [True, False])) != 0:
            return
        if player.eggs == 0:  # break a golden egg into regular ones
            player.golden -= 1
            self.supply["golden_egg"] += 1
            player.eggs += self.take(self.c.golden_worth, "egg")
        if player.eggs:
            player.eggs -= 1
            self.supply["egg"] += 1
        self.put(player.nest, DINOSAUR)

    def dinosaurs_hunt(self, player: Player) -> Flow:
        todo = [h for h in player.hexes.values() if h.animal == DINOSAUR]
        while todo:
            here = todo.pop((yield from self.choose(player, "which next?", todo)))
            options = [
                route
                for route in routes(
                    player.hexes,
                    here,
                    range(self.c.dinosaur_reach + 1),
                    False,
                    True,
                    lambda h: h.animal != DINOSAUR,
                    lambda h, start=here: h is start or (h.terrain == "mountain" and h.animal != DINOSAUR),
                )
                if any(h.animal is not None for h in route.passed)  # it must eat something
            ]
            answer = yield from self.choose(player, "Dinosaur hunt", [*options, PASS])
            if answer == len(options):  # it starves
                self.remove(here)
                continue
            route = options[answer]
            predators = sum(1 for h in route.passed if h.animal in self.c.reach)
            for h in route.passed:
                self.remove(h)
            here.animal, route.end.animal = None, DINOSAUR
            player.eggs += self.take(predators, "egg")
            self.keep_eggs_in_normal_form(player)

    def keep_eggs_in_normal_form(self, player: Player) -> None:
        worth = self.c.golden_worth
        while player.eggs >= worth and self.supply["golden_egg"]:
            player.eggs -= worth
            self.supply["egg"] += worth
            self.supply["golden_egg"] -= 1
            player.golden += 1

    def refill_columns(self) -> None:
        empty = [a for a in self.c.columns if not self.columns[a]]
        if sum(len(pile) for pile in self.piles.values()) < len(empty) * self.rows:
            raise GameOver
        for column in empty:
            for _ in range(self.rows):
                pile = next(p for p in self.piles.values() if p)
                self.columns[column].append(pile.pop())

    # ------------------------------------------------------------------ the end

    def scores(self) -> list[int]:
        return [
            p.eggs + self.c.golden_worth * p.golden + sum(1 for h in p.hexes.values() if h.animal == DINOSAUR)
            for p in self.players
        ]


# ---------------------------------------------------------------------- driving a game


class State:
    """A game in progress, with meeple's small API: `decision`, `apply(i)`, `is_over`."""

    def __init__(self, players: int, seed: int, components: Components | None = None) -> None:
        self.game = Game(players, seed, components or default_components())
        self.choices: list[int] = []
        self.decision: Decision | None = None
        self.is_over = False
        self._flow = self.game.play()
        self._advance(None)

    def _advance(self, answer: int | None) -> None:
        try:
            self.decision = self._flow.send(answer) if answer is not None else next(self._flow)
        except StopIteration:
            self.decision = None
            self.is_over = True

    def apply(self, index: int) -> None:
        if self.decision is None or not 0 <= index < self.decision.size:
            raise ValueError(f"{index!r} is not an option")
        self.choices.append(index)
        self._advance(index)

    @property
    def turns(self) -> int:
        return self.game.turns

    @property
    def scores(self) -> list[int]:
        return self.game.scores()


_COMPONENTS: Components | None = None


def default_components(path: Path | None = None) -> Components:
    """The component data, read once (from `path`, or where `components_file` finds it)."""
    global _COMPONENTS
    if _COMPONENTS is None:
        _COMPONENTS = Components.load(path)
    return _COMPONENTS


def play_random(players: int, seed: int) -> State:
    """A game where every player answers uniformly at random (the agent seeded with `seed`)."""
    state = State(players, seed)
    rng = random.Random(seed)
    while state.decision is not None:
        state.apply(rng.randrange(state.decision.size))
    return state


if __name__ == "__main__":
    for n in range(2, 6):
        s = play_random(n, 1)
        print(n, "players:", s.turns, "turns,", len(s.choices), "decisions, scores", s.scores)
