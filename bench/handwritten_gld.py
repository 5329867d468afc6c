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

It is written the way a good Python programmer would write this one game by hand: a game is a
Python generator that yields a `Decision` whenever a player must choose and receives the index of
the answer; `State` drives it with the same small API as meeple's (`decision`, `apply`,
`is_over`). Its hot paths use no generality the game does not need: a place is one number (moving
is adding), each hex links its six neighbours as it is laid, each ecosystem keeps its frontier
up to date, placements are set differences over those numbers, a predator's and a dinosaur's hunt
are two searches written for each, and the animals a hunt passed are the bits of one number.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Generator
from dataclasses import dataclass, field
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
# A place (q, r) is the number q * STRIDE + r (an ecosystem spans a few dozen hexes, far less than
# STRIDE / 2 in any direction): moving is adding, a set of places is a set of numbers, and places
# sort as their (q, r) pairs do.
STRIDE = 1 << 10
STEPS: tuple[int, ...] = tuple(dq * STRIDE + dr for dq, dr in DIRECTIONS)


def at(q: int, r: int) -> int:
    return q * STRIDE + r


def where(place: int) -> tuple[int, int]:
    q = (place + STRIDE // 2) // STRIDE
    return q, place - q * STRIDE


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
    """A hex of an ecosystem. Only one animal (or dinosaur) fits on a hex, so it holds a name.
    `around` holds its neighbours by direction (None: no hex there yet), linked as hexes are laid,
    so that a hunt walks from hex to hex without looking coordinates up."""

    q: int
    r: int
    terrain: str
    nest: bool
    bit: int  # its own bit, for the set of hexes a hunt passed as one number
    animal: str | None = None
    around: list[Hex | None] = field(default_factory=lambda: [None] * 6)

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


@dataclass(eq=False)
class Player:
    seat: int
    hexes: dict[int, Hex] = field(default_factory=dict)  # by place, in the order they were laid
    frontier: set[int] = field(default_factory=set)  # the empty places beside them
    nest: Hex = field(init=False)  # the starting mountain, where dinosaurs hatch
    eggs: int = 0
    golden: int = 0

    def lay(self, q: int, r: int, terrain: str, nest: bool) -> Hex:
        """A new hex of the ecosystem, linked to its neighbours, and the frontier kept up."""
        place = at(q, r)
        new = self.hexes[place] = Hex(q, r, terrain, nest, 1 << len(self.hexes))
        self.frontier.discard(place)
        for direction, step in enumerate(STEPS):
            there = self.hexes.get(place + step)
            if there is None:
                self.frontier.add(place + step)
            else:
                new.around[direction] = there
                there.around[(direction + 3) % 6] = new
        return new


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


Places = tuple[int, int, int]  # where a tile's three hexes go, in the tile's order
_TURNED: dict[str, tuple[Places, ...]] = {}  # tile -> its faces' places, turned 0 to 5 times


def turnings(tile: Tile) -> tuple[Places, ...]:
    turned = _TURNED.get(tile.name)
    if turned is None:
        a, b, c = tile.faces  # every ecosystem tile has three hexes
        turned = _TURNED[tile.name] = tuple(
            (at(*rotate(a.q, a.r, t)), at(*rotate(b.q, b.r, t)), at(*rotate(c.q, c.r, t))) for t in range(6)
        )
    return turned


def placements(player: Player, tile: Tile) -> list[Places]:
    """Every way to lay the tile, turned freely, touching the ecosystem and covering none of it: the
    place of each of its faces, in the tile's order. Its three hexes are different hexes, so two
    turns never lay it the same way: every placement is a different outcome. In the order the
    rules give them: by turn, then by shift (each shift that puts some hex of the tile on the
    frontier, once)."""
    hexes, frontier = player.hexes, player.frontier
    out = []
    for a, b, c in turnings(tile):
        shifts = {f - a for f in frontier} | {f - b for f in frontier} | {f - c for f in frontier}
        shifts -= {h - a for h in hexes}  # minus those that lay a face on a hex already there
        shifts -= {h - b for h in hexes}
        shifts -= {h - c for h in hexes}
        out += [(shift + a, shift + b, shift + c) for shift in sorted(shifts)]
    return out


def hunts(start: Hex, reach: int, straight: bool, prey: dict[str, str]) -> list[Route]:
    """Where a predator may hunt: 1 to `reach` steps (in one line if `straight`), never on a hex
    twice, through empty hexes and prey, to a prey. One route per destination and set of prey
    passed, the shortest found first (breadth first, directions in the rules' order)."""
    found: dict[tuple[Hex, int], Route] = {}
    layer: list[tuple[tuple[Hex, ...], int, int]] = [((), -1, 0)]  # path after start, heading, passed
    for _ in range(reach):
        next_layer = []
        for path, heading, passed in layer:
            here = start
            if path:
                here = path[-1]
                if here.animal is not None:
                    if here.animal not in prey:
                        continue  # it may end here, but not go on
                    passed |= here.bit
            for direction in (heading,) if straight and heading >= 0 else range(6):
                there = here.around[direction]
                if there is None or there is start or there in path:
                    continue
                if there.animal in prey and (there, passed) not in found:
                    found[(there, passed)] = Route(there, path)
                next_layer.append(((*path, there), direction, passed))
        layer = next_layer
    return list(found.values())


def dinosaur_hunts(start: Hex, reach: int) -> list[Route]:
    """Where a dinosaur may hunt: up to `reach` steps, back and forth as it likes, through any hex
    but another dinosaur's, to a mountain without a dinosaur or back to its start, eating
    something on the way. One route per destination and set of animals passed, the shortest
    found first. Only the hex and the animals passed so far matter for what can still happen, so
    a walk that meets them again is not followed twice."""
    found: dict[tuple[Hex, int], Route] = {}
    seen: set[tuple[Hex, int]] = set()
    layer: list[tuple[Hex, tuple[Hex, ...], int]] = [(start, (), 0)]  # here, path after start, passed
    for _ in range(reach):
        next_layer = []
        for here, path, passed in layer:
            if path and here is not start:
                if here.animal == DINOSAUR:
                    continue
                if here.animal is not None:
                    passed |= here.bit
            for there in here.around:
                if there is None or (there, passed) in seen:
                    continue
                seen.add((there, passed))
                if passed and (there is start or (there.terrain == "mountain" and there.animal != DINOSAUR)):
                    found[(there, passed)] = Route(
                        there, tuple(dict.fromkeys(h for h in path if h is not start))
                    )
                next_layer.append((there, (*path, there), passed))
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
                    self.put(player.hexes[at(h.q, h.r)], h.icon)
            self.put(player.nest, DINOSAUR)
            player.eggs = self.take(self.c.starting_eggs, "egg")

    def start_ecosystem(self, seat: int) -> Player:
        player = Player(seat)
        for f in self.c.start.faces:
            laid = player.lay(f.q, f.r, f.terrain, f.nest)
            if f.nest:
                player.nest = laid
        return player

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
        spots = placements(player, tile)
        spot = spots[(yield from self.choose(player, "Place the tile", spots))]
        laid = [
            player.lay(*where(place), face.terrain, face.nest)
            for place, face in zip(spot, tile.faces, strict=True)
        ]
        for hex_, face in zip(laid, tile.faces, strict=True):
            if face.icon is not None:
                self.put(hex_, face.icon)
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
        favoured = self.c.favours[prey]
        return [
            h
            for h in here.around
            if h is not None and h.animal is None and (h.terrain == favoured or h.terrain == "wild")
        ]

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
            options = hunts(here, reach, straight, self.c.favours)
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
            options = dinosaur_hunts(here, self.c.dinosaur_reach)
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
