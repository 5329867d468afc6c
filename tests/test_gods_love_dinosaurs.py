"""Properties of Gods Love Dinosaurs that hold in every game, whatever the seed and the players choose.

Random games are played for every player count the header allows (2 to 5): the stacks are shuffled
by the game's seed and the answers come from a `random.Random` whose seed hypothesis draws too, so a
failing example is reproduced by (players, seed, answer seed), and its message gives the choices.
Where a property comes from the rulebook (/work/shared/rulebooks/gods-love-dinosaurs.txt) its
docstring quotes the passage; where it comes from an `assume` of the rules file, it says so.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from functools import cache
from typing import Any

import pytest
from helpers import (
    Check,
    assert_each_answer_goes_on,
    assert_same_game,
    play_random,
    play_refusing_bad_answers,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import Game, State
from meeple.codegen import render
from meeple.grammar import ast
from meeple.interpreter.examples import run_example
from meeple.interpreter.values import Cell, Placement, Route

# Each property at every player count the box allows; the largest, whose games are the longest (a
# third of the file's time), runs with the soaks (CI runs them): a five-player game is still played
# whole in the default run by tests/test_native.py, on both engines.
PLAYER_COUNTS = [2, 3, 4, pytest.param(5, marks=pytest.mark.soak)]
# Steps: a random game of five takes about 13,000 (the median of 40), and up to 35,000 (seed 0,
# answers 0: a hunt whose routes go through 259 places); 20,000 stopped that game.
BUDGET = 100_000
MAX_DECISIONS = 1_500  # a random game of five asks about 400; a guard, so that no game hangs

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@cache
def game() -> Game:
    """Gods Love Dinosaurs: built on first use, not at import (each test process imports every file)."""
    return meeple.load("gods_love_dinosaurs")


# ---------------------------------------------------------------------- reading a state


def constant(name: str) -> Any:
    return game().program.constants[name]


def kind_of(piece: tuple[Any, Any]) -> str:
    """A piece's kind as the rules count it: beasts by their animal row, the rest by piece name."""
    kind = piece[0]
    return kind.row.key if kind.name == "beast" else kind.name


def census(state: State) -> Counter[str]:
    """How many pieces of each kind there are, over every location of the game."""
    return Counter(kind_of(piece) for pieces in state.rt.locs.values() for piece in pieces)


def cells(state: State) -> list[Cell]:
    """Every hex of every player's ecosystem."""
    return [cell for grid in state.rt.grids.values() for cell in grid.values()]


def face(state: State, cell: Cell, column: str) -> Any:
    """A column of the tile hex printed on a cell (its terrain, icon, nest)."""
    return state.rt.faces[cell].values[column]


def zone(name: str, owner: Any = None) -> Any:
    return game().program.zone(name, owner)


def nest_eggs(state: State, seat: int) -> tuple[int, int]:
    """(regular, golden) eggs in a player's nest."""
    counts = Counter(kind_of(p) for p in state.rt.locs[zone("nest", state.rt.players[seat])])
    return counts["egg"], counts["golden_egg"]


def supply(state: State, kind: str) -> int:
    return sum(1 for p in state.rt.locs[zone("supply")] if kind_of(p) == kind)


def tiles_in_play(players: int) -> int:
    """The ecosystem tiles used with this many players: those marked for that many or fewer."""
    return sum(
        1
        for t in game().program.rows["tile"]
        if t.values["stack"] is not None and t.values["min_players"] <= players
    )


def play(players: int, seed: int, answers: int, check: Check | None = None) -> State:
    """A game answered at random (`answers` seeds the answers); `check` runs at the start and
    after every decision."""
    return play_random(
        game(), players, seed, random.Random(answers), budget=BUDGET, max_decisions=MAX_DECISIONS, check=check
    )


# ---------------------------------------------------------------------- the rulebook's promises

SETTINGS = settings(deadline=None, max_examples=5)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, answers=seeds)
def test_every_game_ends_within_the_step_budget(players: int, seed: int, answers: int) -> None:
    """A game ends, whatever is chosen, within the step budget and within one turn per tile.

    Rulebook: "On your turn, you must take 1 ecosystem tile from the animal board", and, Game End:
    "if there are not enough ecosystem tiles to fill up all empty columns, the game ends
    immediately" -- the only way the game ends, so every game ends early, from inside a turn."""
    state = play(players, seed, answers)
    assert state.is_over and state.decision is None
    assert state.ended_early, "the game ends only when the stacks cannot refill the columns"
    assert state.rt.steps <= BUDGET
    assert len(state.choices) <= MAX_DECISIONS
    assert 0 < state.turns <= tiles_in_play(players)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, answers=seeds)
def test_pieces_are_conserved_after_every_decision(players: int, seed: int, answers: int) -> None:
    """No piece is created or destroyed: animals, dinosaurs, eggs and tiles only move.

    Rulebook, Components: "84 Ecosystem Tiles", "20 Dinosaurs", "35 Rats", "25 Frogs",
    "30 Rabbits", "25 Tigers", "25 Eagles", "30 Regular Eggs", "15 Golden Eggs"; eaten animals are
    "returned to the supply", new ones are taken "from the supply"."""
    start = game().new_game(players, seed=seed, budget=BUDGET)
    expected = census(start)
    components = {row.key: row.values["supply"] for row in game().program.rows["animal"]}
    components |= {
        "dinosaur": constant("dinosaurs"),
        "egg": constant("regular_eggs"),
        "golden_egg": constant("golden_eggs"),
        "ecotile": len(game().program.rows["tile"]),  # the 84 and the starting tile's own row
    }
    assert expected == components

    def conserved(state: State) -> None:
        assert census(state) == expected

    play(players, seed, answers, conserved)


LAYS = re.compile(r"^(Player \d+)'s dinosaur hunts .* and lays (\d+) egg\(s\)$")
HATCHES = re.compile(r"^(Player \d+) hatches a dinosaur$")


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, answers=seeds)
def test_egg_value_moves_only_by_laying_and_hatching(players: int, seed: int, answers: int) -> None:
    """A nest's worth in eggs (a golden egg counting five) changes only by the eggs laid and hatched,
    and five regular eggs are never left in a nest while the supply has a golden egg.

    Rulebook: "For every predator a dinosaur eats, it lays 1 egg"; "discard 1 of the eggs in your
    nest to hatch a new dinosaur"; "Golden eggs are worth 5 regular eggs. You may exchange 5 regular
    eggs for a golden egg from the supply, or vice versa, at any time." The rules file assumes the
    exchange is automatic ("five regular eggs in a nest become a golden egg whenever the supply has
    one") and that "an egg the supply lacks is not laid": a step where the supply ran short may
    change a nest's worth by less, never by more."""
    worth = constant("golden_worth")
    seen = {"log": 0, "short": 0, "value": [0] * players}

    def value(state: State, seat: int) -> int:
        regular, golden = nest_eggs(state, seat)
        return regular + worth * golden

    def eggs(state: State) -> None:
        names = [str(p) for p in state.rt.players]
        expected = [0] * players
        for line in state.log[seen["log"] :]:
            if m := LAYS.match(line):
                expected[names.index(m[1])] += int(m[2])
            elif m := HATCHES.match(line):
                expected[names.index(m[1])] -= 1
        short = state.rt.shortfalls.get("egg", 0)
        for seat in range(players):
            change = value(state, seat) - seen["value"][seat]
            if short == seen["short"]:
                assert change == expected[seat], f"seat {seat}: {change} != {expected[seat]}"
            else:
                assert change <= expected[seat], f"seat {seat}: {change} > {expected[seat]}"
            regular, _ = nest_eggs(state, seat)
            assert not (regular >= worth and supply(state, "golden_egg") > 0), (
                f"seat {seat} keeps {regular} regular eggs while the supply has a golden egg"
            )
        seen["log"], seen["short"] = len(state.log), short
        seen["value"] = [value(state, seat) for seat in range(players)]

    start = game().new_game(players, seed=seed, budget=BUDGET)
    assert [value(start, seat) for seat in range(players)] == [constant("starting_eggs")] * players
    seen["value"] = [constant("starting_eggs")] * players
    seen["log"] = len(start.log)
    play(players, seed, answers, eggs)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, answers=seeds)
def test_every_hex_holds_at_most_one_animal(players: int, seed: int, answers: int) -> None:
    """At every decision, each hex of every ecosystem holds at most one animal or dinosaur, and
    nothing else; prey stand only on their favoured terrain or a wild hex, and only dinosaurs on
    mountains.

    Rulebook, Frequently Overlooked Rules: "There can only be one animal in each hex."; Prey
    Activation: "expand into one empty adjacent hex of its favored terrain type"; Wild Hexes:
    "Any prey can expand into a Wild hex"; the rules file assumes "prey icons sit only on their
    favoured terrain, mountain and wild hexes carry no icon"."""

    def one_each(state: State) -> None:
        for cell in cells(state):
            pieces = state.rt.locs[cell]
            assert len(pieces) <= 1, f"{cell} of {cell.map} holds {pieces}"
            if not pieces:
                continue
            kind = pieces[0][0]
            assert kind.name in {"beast", "dinosaur"}, f"{cell} holds {kind}"
            terrain = face(state, cell, "terrain")
            if kind.name == "beast":
                assert not terrain.values["mountain"], f"a {kind} on the mountain {cell}"
                favours = kind.row.values["favours"]
                assert favours is None or terrain in (favours, game().program.row("terrain", "wild")), (
                    f"a {kind} on {terrain} at {cell}"
                )

    play(players, seed, answers, one_each)


def outcome(state: State, value: Any) -> Any:
    """What an option does, for telling two options apart: a route by where it ends and what it
    passes; a placement by where each hex of the tile lands; anything else by itself."""
    if isinstance(value, Route):
        return (value.end, frozenset(c for c in value.passed if state.rt.locs[c]))
    if isinstance(value, Placement):
        return tuple(value.coords)
    return value


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, answers=seeds)
def test_options_are_distinct_outcomes_the_rules_allow(players: int, seed: int, answers: int) -> None:
    """Every option offered is a different outcome, and one the rules allow: a placement touches
    the ecosystem and covers none of it; a predator's route ends on a prey within its reach,
    passing only empty hexes and prey (an eagle's in a straight line); a dinosaur's route ends on a
    mountain without a dinosaur, or where it started, within five hexes, having eaten something.

    Rulebook: "place it anywhere in your ecosystem, as long as it touches at least 1 ecosystem
    hex"; "Each predator must end its hunt on a hex with a prey."; "Predators may move through
    empty hexes, but may not move through other predators or dinosaurs."; "Eagles move up to 3
    hexes in a straight line."; "Dinosaurs may move up to 5 hexes"; "Each dinosaur must end its hunt
    on an empty mountain hex."; "may end on the mountain hex where they started"."""
    directions = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]

    def beast(state: State, cell: Cell) -> Any:
        pieces = [p for p in state.rt.locs[cell] if p[0].name == "beast"]
        return pieces[0][0].row if pieces else None

    def dinosaur(state: State, cell: Cell) -> bool:
        return any(p[0].name == "dinosaur" for p in state.rt.locs[cell])

    def options(state: State) -> None:
        decision = state.decision
        if decision is None:
            return
        values = decision.values
        assert len({outcome(state, v) for v in values}) == len(values), decision.options
        for v in values:
            if isinstance(v, Placement):
                grid = state.rt.grids[v.map]
                assert not any(c in grid for c in v.coords)
                assert any((q + dq, r + dr) in grid for q, r in v.coords for dq, dr in directions)
            elif isinstance(v, Route) and decision.prompt == "Hunt":
                animal = beast(state, v.start)
                assert 1 <= len(v.path) <= animal.values["reach"]
                prey = beast(state, v.end)
                assert prey is not None and prey.values["role"].key == "prey"
                for c in v.passed:
                    assert not dinosaur(state, c)
                    assert beast(state, c) is None or beast(state, c).values["role"].key == "prey"
                if animal.values["straight"]:
                    steps = [v.start, *v.path]
                    heading = {(b.q - a.q, b.r - a.r) for a, b in itertools.pairwise(steps)}
                    assert len(heading) == 1, f"{v} is not a straight line"
            elif isinstance(v, Route):
                assert decision.prompt == "Dinosaur hunt"
                assert len(v.path) <= constant("dinosaur_reach")
                assert v.end is v.start or (
                    face(state, v.end, "terrain").values["mountain"] and not dinosaur(state, v.end)
                )
                assert not any(dinosaur(state, c) for c in v.passed)
                assert any(beast(state, c) is not None for c in v.passed), f"{v} eats nothing"

    play(players, seed, answers, options)


# ---------------------------------------------------------------------- the engine's promises


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(deadline=None, max_examples=3)
@given(seed=seeds, answers=seeds, data=st.data())
def test_every_offered_option_is_accepted(players: int, seed: int, answers: int, data: st.DataObject) -> None:
    """At any decision, each of the options offered can be chosen and the game goes on.

    Rulebook: "You may choose any face-up tile from any animal column."; "You may freely rotate the
    new tile, and you may place it anywhere in your ecosystem"; "You may always choose not to expand
    a prey."; "You may also choose not to move a predator when it activates, and instead let it
    starve." -- every one of those choices is playable.

    A mid-game position is copied by replaying its choices. Every option is tried when there are
    at most 16; above that (placements and dinosaur hunts can offer hundreds) the first, the last
    and four drawn by hypothesis, since each try replays the game so far."""
    original = play(players, seed, answers)
    steps = len(original.choices)
    for step in data.draw(st.lists(st.integers(0, steps - 1), min_size=1, max_size=2, unique=True)):
        prefix = original.choices[:step]
        state = meeple.replay(game(), players, seed, prefix, budget=BUDGET, complete=False)
        assert state.decision is not None
        size = state.decision.size
        assert len(state.decision.options) == size  # every option has a label
        indices = set(range(size))
        if size > 16:
            indices = {0, size - 1} | set(data.draw(st.lists(st.integers(0, size - 1), max_size=4)))
        assert_each_answer_goes_on(game(), players, seed, prefix, sorted(indices), budget=BUDGET)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, answers=seeds, data=st.data())
def test_an_index_outside_the_options_is_refused_and_changes_nothing(
    players: int, seed: int, answers: int, data: st.DataObject
) -> None:
    """Only an offered option is an answer; anything else raises IllegalChoice and leaves the state.

    Rulebook: "On your turn, you must take 1 ecosystem tile from the animal board" -- one of those
    offered, nothing else; and once "the game ends immediately", nothing more can be played. The
    engine's promise (docs/architecture.md): "the state is left unchanged"."""
    state = game().new_game(players, seed=seed, budget=BUDGET)
    play_refusing_bad_answers(state, random.Random(answers), data, rate=0.05, max_decisions=MAX_DECISIONS)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=seeds, answers=seeds)
def test_replaying_the_choices_reproduces_the_game(players: int, seed: int, answers: int) -> None:
    """(rules, players, seed, choices) is the replay format: it gives the same game again.

    Rulebook: "Shuffle each stack independently" is the only chance in the game, and it comes from
    the seed; everything else is the players' choices, so those four give the same game, scores,
    log and turns (docs/architecture.md: "A game is fully determined by (rules file, number of
    players, seed, choices)")."""
    original = play(players, seed, answers)
    again = meeple.replay(game(), players, seed, original.choices, budget=BUDGET)
    assert_same_game(again, original)
    assert again.rt.shortfalls == original.rt.shortfalls


# ---------------------------------------------------------------------- a position built by hand


def move_pieces(state: State, kind: str, src: Any, dest: Any, n: int | None = None) -> None:
    """Move n pieces of a kind (all of them when n is None) between two locations, by hand. The
    engine remembers values until the rules change what they read, so it is told to forget."""
    moving = [p for p in state.rt.locs[src] if kind_of(p) == kind][:n]
    for piece in moving:
        state.rt.locs[src].remove(piece)
        state.rt.locs[dest].append(piece)
    state.rt.forget()


def test_a_golden_egg_back_in_the_supply_goes_to_a_nest_of_five() -> None:
    """The rules file assumes "five regular eggs in a nest become a golden egg whenever the supply has
    one" (rulebook: "You may exchange 5 regular eggs for a golden egg from the supply, or vice versa,
    at any time."). Random games never get there: it needs all 15 golden eggs in nests, so that
    another nest holds five or more regular eggs, when a player with only golden eggs hatches.

    The position: a two-player game (seed 0, the random answers of `random.Random(0)`: choices
    [6, 53, 0, 33, 7, 51, 6, 106, 1, 3, 45, 4, 55, 1, 72, 0, 24, 1, 0, 1, 0, 11, 1, 5, 120, 4, 25,
    2, 111, 1]) at Player 2's "Hatch a dinosaur?", with the eggs then moved by hand: Player 2 holds
    all 15 golden eggs and no regular one, Player 1 holds 7 regular eggs. Player 2 hatches, breaking
    a golden egg; the supply now has one, and Player 1 still holds 7 regular eggs."""
    choices = [6, 53, 0, 33, 7, 51, 6, 106, 1, 3, 45, 4, 55, 1, 72]
    choices += [0, 24, 1, 0, 1, 0, 11, 1, 5, 120, 4, 25, 2, 111, 1]
    state = meeple.replay(game(), 2, 0, choices, budget=BUDGET, complete=False)
    if (
        state.decision is None
        or state.decision.prompt != "Hatch a dinosaur?"
        or state.decision.player.seat != 1
    ):
        pytest.fail(f"the replay no longer reaches Player 2's hatch: {state.decision}")
    one, two = (zone("nest", p) for p in state.rt.players)
    move_pieces(state, "golden_egg", one, two)
    move_pieces(state, "golden_egg", zone("supply"), two)
    move_pieces(state, "egg", two, zone("supply"))
    move_pieces(state, "egg", one, zone("supply"))
    move_pieces(state, "egg", zone("supply"), one, 7)
    if nest_eggs(state, 1) != (0, constant("golden_eggs")) or nest_eggs(state, 0) != (7, 0):
        pytest.fail("the position was not built")
    state.apply(0)  # yes: hatch, breaking a golden egg
    if nest_eggs(state, 1)[1] != constant("golden_eggs") - 1:
        pytest.fail("Player 2 did not break a golden egg")
    assert supply(state, "golden_egg") == 0 or nest_eggs(state, 0)[0] < constant("golden_worth"), (
        f"Player 1 holds {nest_eggs(state, 0)[0]} regular eggs while the supply has "
        f"{supply(state, 'golden_egg')} golden egg(s)"
    )


def test_every_worked_example_shows_each_prey_on_its_favoured_terrain_or_wild() -> None:
    """A worked example shows a position the game can reach, as the rulebook prints it: Prey
    Activation, "expand into one empty adjacent hex of its favored terrain type"; Wild Hexes,
    "Wild hexes count as favored terrain for all 3 prey animal types". So no picture may show a
    prey elsewhere: Jimmy's eagles ("eating 2 rabbits") once flew over a rabbit on a lake, and
    Clare's older dinosaur ("eat 1 frog") once ate a frog on a field."""
    wild = game().program.row("terrain", "wild")
    checked = 0
    for example in game().program.examples:
        result = run_example(game(), example)
        assert result.passed, (example.decl.name, result.failures)
        for shown in [*result.before, *result.after]:
            for q, r, face_row, pieces in shown.cells:
                for kind, _ in pieces:
                    favours = kind.row.values["favours"] if kind.name == "beast" else None
                    if favours is None or face_row is None:
                        continue
                    checked += 1
                    terrain = face_row.values["terrain"]
                    assert terrain in (favours, wild), (
                        f"{example.decl.name}: a {kind.row.key} on {terrain} at ({q},{r})"
                    )
    assert checked > 0


def test_the_end_of_the_game_is_declared_a_conflict_between_the_overview_and_game_end() -> None:
    """Rulebook, Overview: "Players continue taking turns until all of the ecosystem tile stacks are
    empty, which immediately triggers the end of the game"; Game End: "if there are not enough
    ecosystem tiles to fill up all empty columns, the game ends immediately". A refill that uses up
    the last tiles and fills every column ends the game by the first and not by the second: the
    file declares the contradiction, quoting both, and says which the game follows (the example
    "A refill that uses the last tiles but fills every column does not end the game" plays it)."""
    module = game().program.symbols.module
    (conflict,) = [c for c in module.find_all(ast.Conflict) if c.value == "When the game ends"]
    quoted = [" ".join(p.value.split()) for p in conflict.passages]
    assert any("stacks are empty" in q for q in quoted)
    assert any("not enough ecosystem tiles" in q for q in quoted)
    (reading,) = conflict.reading
    assert "Empty stacks alone do not end the game" in reading.value
    assert "lets play go on" in reading.value


def test_the_book_says_a_predator_never_reenters_a_hex_as_a_reading_not_a_printed_rule() -> None:
    """Rulebook, Predator Activation: tigers "may change direction as they move", and only
    dinosaurs "may use their movement to 'backtrack'". That a tiger does not enter a hex twice is
    this file's reading of the gap, so the book says it among the questions the rules leave open,
    not in the rule itself; and the refill ruling says what the game does, without the designer's
    reasoning ("Refilling until the stacks run out would end the game at the same moment")."""
    found = meeple.check("gods_love_dinosaurs")
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    book = " ".join(render.rulebook_markdown(docs).split())
    rules, rulings = book[: book.index("## Rulings")], book[book.index("## Rulings") :]
    assert "same hex twice" not in rules
    left_open = rulings[rulings.index("### Questions the rules leave open") :]
    assert "A predator never enters the same hex twice in one move: only a dinosaur may go back" in left_open
    assert "Refilling until the stacks run out" not in book
