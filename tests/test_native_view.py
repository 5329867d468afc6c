"""What a seat sees is the same on both engines (issue 24: the Python API works on native
states the same way): at every decision of random games, `view(seat)` of a native game, for
every seat and for None (everything), equals the Python engine's for the same position: its
zones as each seat may see them (hidden, private, top), maps, grids with the rows their cells
show, variables, counts, whose turn it is, and the decision with the place of each option
(`shown at` too, asked of the core). Looking changes nothing in the game.

Every game the core runs, bundled and of the tests: a fast case by default (the first decisions
of one game), whole games of several seeds at every player count in the `soak`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import test_native
from helpers import ROOT, native_or_skip, write

import meeple
from meeple import Game
from meeple.board import Looks, say_place
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.runtime import Said, Secret
from meeple.logs import for_seat


@pytest.fixture(autouse=True)
def built() -> None:
    native_or_skip()


GAMES = {
    path.stem: path
    for path in [*(ROOT / "games").glob("*.rules"), *(ROOT / "tests" / "games").glob("*.rules")]
}
# The games the core runs (tests/test_native.py's lists; the others play on the Python engine,
# whose view this is). Dino Dynasty's sequences start slowly on the Python engine: whole games of
# them are in the soak, and a small sequence stands for them by default.
NATIVE = [name for name in [*test_native.NATIVE, *test_native.NATIVE_TOO] if name in GAMES]
SLOW = {"dino_dynasty_campaign", "dino_dynasty_campaign_teams"}


def views_agree(game: Game, players: int, seed: int, decisions: int | None = None) -> int:
    """Play a random game on both engines, comparing every seat's view (and the whole view) at
    each decision, up to `decisions` of them; how many decisions were compared."""
    python, core = game.new_game(players, seed), native.new_game(game, players, seed)
    agents = make_agents(["random"], players, seed)
    seen = 0
    while True:
        for seat in [None, *range(python.seats)]:
            assert core.view(seat) == python.view(seat), (seat, seen)
        if python.is_over or seen == decisions:
            return seen
        decision = python.decision
        assert decision is not None
        choice = agents[decision.player.seat].choose(python, decision)
        python.apply(choice)
        core.apply(choice)
        seen += 1


@pytest.mark.parametrize("name", [name for name in NATIVE if name not in SLOW])
def test_every_seat_sees_the_same_position_on_both_engines(name: str) -> None:
    game = meeple.load(str(GAMES[name]))
    assert native.engine_for(game, "auto")[0] == "native"
    assert views_agree(game, game.min_players, 1, decisions=12) > 0


@pytest.mark.soak
@pytest.mark.parametrize("name", NATIVE)
def test_every_seat_sees_the_same_position_on_both_engines_whole_games(name: str) -> None:
    game = meeple.load(str(GAMES[name]))
    for players in sorted({game.min_players, game.max_players}):
        for seed in range(3):
            views_agree(game, players, seed)


# Games whose log a seat reads in its own words: answers taken from a private hand (Stash), looks
# shown to one seat (Lookout), places of grids that grow said by what they touch (Quads, Hunt).
WORDED = [
    ROOT / "tests" / "games" / "stash.rules",
    ROOT / "tests" / "games" / "lookout.rules",
    ROOT / "tests" / "grids" / "quads.rules",
    ROOT / "tests" / "grids" / "hunt.rules",
]


@pytest.mark.parametrize("path", WORDED, ids=lambda p: p.stem)
def test_every_seat_reads_the_same_log_on_both_engines(path: Path) -> None:
    """What each seat reads of the log (`logs.for_seat`, places said as the terminal and the page
    say them) is the same on both engines at every decision of random games: the core takes
    what the words need as it writes a line (src/words.rs)."""
    game = meeple.load(str(path))
    looks = Looks(game.program.names)
    worded = 0
    for seed in range(3):
        python, core = game.new_game(game.max_players, seed), native.new_game(game, game.max_players, seed)
        agents = make_agents(["random"], game.max_players, seed)
        while True:
            for seat in range(python.seats):
                theirs = for_seat(python.log, seat, lambda line: say_place(looks, line))
                assert for_seat(core.log, seat, lambda line: say_place(looks, line)) == theirs
            if python.is_over:
                break
            decision = python.decision
            assert decision is not None
            choice = agents[decision.player.seat].choose(python, decision)
            python.apply(choice)
            core.apply(choice)
        worded += sum(isinstance(line, (Said, Secret)) for line in core.log)
    assert worded  # the games have lines worded for a reader


SHOWN = """\
game "Shown":
  players 2..2

table kind (name, called):
  low, "Low"
  high, "High"
  none, "None"
table spot (name, seat: int, kind: kind):
  low_1, 0, low
  high_1, 0, high
  low_2, 1, low
  high_2, 1, high
table link (a: spot, b: spot):
  low_1, high_1

zone box
zone hand per player, private
piece stone: 4 in box
piece gem: 2 in box
map yard:
  nodes spot
  edges link (a, b)

value spot_of(p: player, k: kind) = [each s in spot where s.seat == p.seat and s.kind == k][0]

setup:
  move 1 gem from box to players[0].hand

play:
  for each p in players:
    choose k from kind by p prompt "Kind" shown at spot_of(p, k):
      move 1 stone from box to spot_of(p, k)
"""


def test_an_option_is_shown_where_the_rules_say_on_the_core_and_nowhere_where_that_breaks(
    tmp_path: Path,
) -> None:
    """`choose ... shown at PLACE` on the core: each kind is offered at the deciding player's
    spot of that kind; the kind that has no spot (the index past the list's end breaks) is still
    offered, at no place, as on the Python engine."""
    game = meeple.load(write(tmp_path, "shown.rules", SHOWN))
    core = native.new_game(game, 2, 0)
    places = [{"map": "yard", "node": "low_1"}, {"map": "yard", "node": "high_1"}, None]
    assert core.view(0)["decision"]["places"] == places == game.new_game(2, 0).view(0)["decision"]["places"]
    assert "places" not in core.view(1)["decision"]  # another seat sees who decides, not the options
    assert core.view(1)["zones"]["hand of Player 1"] == {"hidden": 1}


def test_looking_at_a_native_game_changes_nothing_in_it(tmp_path: Path) -> None:
    """The view asks `shown at` of a copy: the game's steps and what it plays next stay as
    they were."""
    game = meeple.load(write(tmp_path, "shown.rules", SHOWN))
    looked, left = native.new_game(game, 2, 0), native.new_game(game, 2, 0)
    looked.view(0)
    assert looked.steps == left.steps
    looked.apply(1)
    left.apply(1)
    assert looked.core == left.core


GROWS = """\
game "Grows":
  players 1..1

table shape (name):
  one
table tile (shape: shape, q: int, r: int, ground: ground):
  one, 0, 0, sand
table ground (name):
  sand

map land:
  grid square of tile

play:
  turn players[0]:
    choose n from [1, 2] prompt "Lay?":
      place [each t in tile where t.shape == one] on land
"""


def test_a_grid_that_grows_is_in_the_view_before_anything_is_laid_on_it(tmp_path: Path) -> None:
    """An empty grid that grows is shown, with no cells, on both engines alike: the Python
    engine makes its table of cells when the rules first read it, which no seat should see."""
    game = meeple.load(write(tmp_path, "grows.rules", GROWS))
    python, core = game.new_game(1, 0), native.new_game(game, 1, 0)
    assert core.view(0)["grids"] == python.view(0)["grids"] == {"land": []}
    python.apply(0)
    core.apply(0)
    assert core.view(0) == python.view(0)
    assert [(c["q"], c["r"]) for c in core.view(0)["grids"]["land"]] == [(0, 0)]


def test_a_native_sequence_shows_its_game_in_progress() -> None:
    """A sequence played on the core is looked at through its game in progress, as on Python,
    from one game to the next."""
    game = meeple.load(str(ROOT / "tests" / "carry" / "seasons.rules"))
    players = game.min_players
    python, core = game.new_game(players, 0), native.new_game(game, players, 0)
    agents = make_agents(["random"], players, 0)
    games = set()
    while not python.is_over:
        view: Any = core.view(0)
        assert view == python.view(0)
        games.add(view["sequence"]["game"])
        decision = python.decision
        assert decision is not None
        choice = agents[decision.player.seat].choose(python, decision)
        python.apply(choice)
        core.apply(choice)
    assert games == set(range(1, len(game.parts) + 1))


def test_a_native_sequence_copied_mid_way_plays_on_alone() -> None:
    """A sequence on the core copies as its games do (issue 24): the copy, played on into the
    next game, leaves the original where it was, and the original played the same way is the
    same sequence."""
    game = meeple.load(str(ROOT / "tests" / "carry" / "seasons.rules"))
    players = game.min_players
    sequence = native.new_game(game, players, 0)
    agents = make_agents(["random"], players, 0)
    for _ in range(3):
        sequence.apply(agents[sequence.decision.player.seat].choose(sequence, sequence.decision))
    choices, log, index = list(sequence.choices), list(sequence.log), sequence.index
    copy = sequence.clone()
    while not copy.is_over:
        copy.apply(0)
    assert copy.index > index  # it played on into a later game
    assert (sequence.choices, sequence.log, sequence.index) == (choices, log, index)
    while not sequence.is_over:
        sequence.apply(0)
    assert sequence.result() == copy.result()
