"""Each general mechanism of the language, specified alone on a tiny game.

The engine knows no game, so these games use neutral names (tokens, cubes, cells). Every test
writes its rules to a temporary file, loads it with `meeple.load` and checks what the engine does
through the public API (`state.decision`, `state.apply`, `state.log`, ...) and the state's
locations (`state.rt.locs`).
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple import Game, RuleRuntimeError, State
from meeple.interpreter.examples import ExampleResult, run_examples

MakeGame = Callable[[str], Game]

HEADER = 'game "Mechanism":\n  players 2..4\n'


@pytest.fixture
def make_game(tmp_path: Path) -> MakeGame:
    """Build a game from rules text. The header (2 to 4 players) is added unless the text has one."""
    counter = iter(range(1_000_000))

    def build(text: str) -> Game:
        body = textwrap.dedent(text).strip("\n") + "\n"
        if not body.startswith("game "):
            body = HEADER + "\n" + body
        path = tmp_path / f"mechanism_{next(counter)}.rules"
        path.write_text(body, encoding="utf-8")
        return meeple.load(path)

    return build


# ---------------------------------------------------------------------- helpers


def piece_name(piece: tuple[Any, Any]) -> str:
    kind, owner = piece
    return str(kind) if owner is None else f"{kind} of {owner}"


def at(state: State, zone: str, owner: int | None = None) -> Counter[str]:
    """What a zone holds (a zone of seat `owner` for a per-player zone), as a multiset of names."""
    seat = None if owner is None else state.rt.players[owner]
    loc = state.game.program.zone(zone, seat)
    return Counter(piece_name(p) for p in state.rt.locs[loc])


def order(state: State, zone: str) -> list[str]:
    """A zone's pieces in their order (the end of the list is the top)."""
    return [piece_name(p) for p in state.rt.locs[state.game.program.zone(zone)]]


def at_node(state: State, table: str, key: str) -> Counter[str]:
    """What a map node (a row of the map's node table) holds."""
    loc = state.game.program.row(table, key)
    return Counter(piece_name(p) for p in state.rt.locs[loc])


def var(state: State, name: str) -> Any:
    return state.rt.vars[name]


def owned(state: State, per: str, name: str, owner: Any) -> Any:
    """A per-player variable (owner: a seat) or a per-row variable (owner: the row's key)."""
    key = state.rt.players[owner] if per == "player" else state.game.program.row(per, owner)
    return state.rt.owned[(per, name)][key]


def messages(state: State) -> list[str]:
    """The log lines the rules wrote (`log "..."`), without the engine's indented answer lines."""
    return [line for line in state.log if not line.startswith("  ")]


def started(make_game: MakeGame, template: str, lines: Sequence[str], players: int = 2) -> State:
    """A game of a section's `template` whose `{body}` is `lines`, each a line of its `play:`,
    started with `players` players at seed 0."""
    body = "\n".join(f"  {line}" for line in lines)
    return make_game(template.format(body=body)).new_game(players, seed=0)


def play_out(state: State, answers: list[int]) -> State:
    for index in answers:
        assert state.decision is not None, f"the game asked nothing, but {index} was to be answered"
        state.apply(index)
    return state


# ---------------------------------------------------------------------- pieces and zones


def test_pieces_per_player_start_in_the_declared_shared_zone(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone bag, public
        piece token: 3 per player in bag

        play:
          log "start"
        """
    )
    state = game.new_game(3, seed=0)
    assert at(state, "bag") == {"token of Player 1": 3, "token of Player 2": 3, "token of Player 3": 3}


def test_pieces_per_player_start_in_each_players_own_zone(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone hand per player, private
        piece cube: 2 per player in hand

        play:
          log "start"
        """
    )
    state = game.new_game(2, seed=0)
    assert at(state, "hand", 0) == {"cube of Player 1": 2}
    assert at(state, "hand", 1) == {"cube of Player 2": 2}


def test_pieces_each_row_of_a_table_start_in_the_declared_zone(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone deck, hidden, ordered
        table cardtable (name, value: int):
          ace, 1
          two, 2
          three, 3
        piece card: each cardtable in deck

        play:
          log "start"
        """
    )
    state = game.new_game(2, seed=0)
    assert order(state, "deck") == ["ace", "two", "three"]


def test_pieces_with_a_shared_count_start_in_the_declared_zone(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone box, public
        piece chip: 4 in box

        play:
          log "start"
        """
    )
    state = game.new_game(2, seed=0)
    assert at(state, "box") == {"chip": 4}


MOVES = """
zone bag, public
zone box, public
piece token: 3 per player in bag
piece cube: 2 per player in bag

play:
{body}
"""


def moves(make_game: MakeGame, *lines: str) -> State:
    return started(make_game, MOVES, lines)


def test_move_count_of_an_owner_moves_only_that_owners_pieces_of_that_kind(make_game: MakeGame) -> None:
    state = moves(make_game, "move 2 token of players[0] from bag to box")
    assert at(state, "box") == {"token of Player 1": 2}
    assert at(state, "bag") == {
        "token of Player 1": 1,
        "token of Player 2": 3,
        "cube of Player 1": 2,
        "cube of Player 2": 2,
    }


def test_move_count_without_owner_moves_pieces_of_that_kind_of_anyone(make_game: MakeGame) -> None:
    state = moves(make_game, "move 5 token from bag to box")
    assert sum(at(state, "box").values()) == 5
    assert set(at(state, "box")) <= {"token of Player 1", "token of Player 2"}
    assert sum(at(state, "bag").values()) == 10 - 5


def test_move_count_moves_at_most_what_is_there(make_game: MakeGame) -> None:
    state = moves(make_game, "move 10 token of players[1] from bag to box", "move 1 token from box to box")
    assert at(state, "box") == {"token of Player 2": 3}
    assert at(state, "bag")["token of Player 2"] == 0
    assert at(state, "bag")["token of Player 1"] == 3
    assert state.rt.shortfalls == {"token": 7}, "a move short of pieces is recorded for `meeple check`"


def test_move_count_from_an_empty_zone_moves_nothing(make_game: MakeGame) -> None:
    state = moves(make_game, "move 3 cube from box to bag")
    assert at(state, "box") == {}
    assert sum(at(state, "bag").values()) == 10


def test_move_all_moves_every_piece_of_the_kind_and_leaves_the_others(make_game: MakeGame) -> None:
    state = moves(make_game, "move all cube from bag to box")
    assert at(state, "box") == {"cube of Player 1": 2, "cube of Player 2": 2}
    assert at(state, "bag") == {"token of Player 1": 3, "token of Player 2": 3}


def test_move_all_of_an_owner(make_game: MakeGame) -> None:
    state = moves(make_game, "move all token of players[1] from bag to box")
    assert at(state, "box") == {"token of Player 2": 3}


def test_move_count_from_a_list_of_zones(make_game: MakeGame) -> None:
    state = moves(
        make_game,
        "move 2 token of players[0] from bag to box",
        "move 3 token of players[0] from [bag, box] to bag",
    )
    assert at(state, "box") == {}
    assert at(state, "bag")["token of Player 1"] == 3


def test_moving_and_counting_pieces_of_a_row_keeps_the_order_of_the_rest(make_game: MakeGame) -> None:
    """Identical pieces are found in C (list.count, list.remove) when a filter names one kind:
    the first ones are taken, as a search from the bottom would, and the rest keep their order."""
    game = make_game(
        """
        zone bag, ordered
        zone box, ordered
        table colour (name, chips: int):
          red, 3
          blue, 2
        piece chip: self.chips per colour in bag
        piece pawn: 1 per player in bag

        value chips_of(z, c: colour) = count(pieces(z, c))
        value pawns_of(z, p: player) = count(pieces(z, pawn, p))

        play:
          move 1 pawn of players[0] from bag to box
          move 2 chip red from bag to box
          move all chip blue from bag to box
          move 1 chip blue from box to bag
          log "{chips_of(bag, red)} {chips_of(box, red)} {chips_of(box, blue)}"
          log "{pawns_of(bag, players[1])} {pawns_of(box, players[1])}"
        """
    )
    state = game.new_game(2, seed=0)
    assert order(state, "bag") == ["red", "pawn of Player 2", "blue"]
    assert order(state, "box") == ["pawn of Player 1", "red", "red", "blue"]
    assert state.log[-2:] == ["1 2 1", "1 0"]


def test_move_one_piece_reference_from_pieces(make_game: MakeGame) -> None:
    state = moves(make_game, "move pieces(bag, cube, players[1])[0] to box")
    assert at(state, "box") == {"cube of Player 2": 1}
    assert at(state, "bag")["cube of Player 2"] == 1


def test_move_a_list_of_piece_references(make_game: MakeGame) -> None:
    state = moves(make_game, "move pieces(bag, cube) to box")
    assert at(state, "box") == {"cube of Player 1": 2, "cube of Player 2": 2}


def test_move_a_piece_reference_that_is_gone_fails_naming_the_rule(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone bag, public
        zone box, public
        zone hand per player, public
        piece token: 1 per player in hand

        rule hand_over(p: player):
          let t = pieces(p.hand)[0]
          move t to bag
          move t to box

        play:
          hand_over(players[0])
        """
    )
    with pytest.raises(RuleRuntimeError, match="no longer in") as err:
        game.new_game(2, seed=0)
    assert err.value.rule == "hand_over"


# ---------------------------------------------------------------------- triggers

TRIGGERS = """
zone bag, public
zone box, public
zone bin, public
zone deck, hidden, ordered
table cardtable (name):
  ace
  two
piece token: 3 per player in bag
piece cube: 2 per player in bag
piece card: each cardtable in deck
var arrivals: int = 0
var last: text = ""
var into_box: int = 0 per player

when token t enters z where z == box:
  add 1 to arrivals
  add 1 to t.owner.into_box

when card c enters z where z == box:
  add 10 to arrivals

when token t enters z where z == bin:
  move t to bag

play:
{body}
"""


def triggered(make_game: MakeGame, *lines: str) -> State:
    return started(make_game, TRIGGERS, lines)


def test_trigger_fires_once_for_every_piece_a_counted_move_brings_in(make_game: MakeGame) -> None:
    state = triggered(make_game, "move 2 token of players[0] from bag to box")
    assert var(state, "arrivals") == 2
    assert owned(state, "player", "into_box", 0) == 2
    assert owned(state, "player", "into_box", 1) == 0


def test_trigger_fires_for_move_all(make_game: MakeGame) -> None:
    state = triggered(make_game, "move all token from bag to box")
    assert var(state, "arrivals") == 6
    assert [owned(state, "player", "into_box", seat) for seat in (0, 1)] == [3, 3]


def test_trigger_fires_for_moving_a_piece_reference(make_game: MakeGame) -> None:
    state = triggered(make_game, "move pieces(bag, token, players[1])[0] to box")
    assert var(state, "arrivals") == 1
    assert owned(state, "player", "into_box", 1) == 1


def test_trigger_fires_for_a_draw(make_game: MakeGame) -> None:
    state = triggered(make_game, "draw 2 from deck to box")
    assert var(state, "arrivals") == 20


def test_trigger_does_not_fire_for_other_kinds_or_other_locations(make_game: MakeGame) -> None:
    state = triggered(make_game, "move all cube from bag to box", "move 2 token from bag to deck")
    assert var(state, "arrivals") == 0


def test_trigger_fires_again_on_every_later_move_in(make_game: MakeGame) -> None:
    state = triggered(
        make_game,
        "move 1 token from bag to box",
        "move all token from box to bag",
        "move 1 token from bag to box",
    )
    assert var(state, "arrivals") == 2


def test_trigger_can_move_the_piece_that_entered(make_game: MakeGame) -> None:
    state = triggered(make_game, "move 2 token of players[0] from bag to bin")
    assert at(state, "bin") == {}
    assert at(state, "bag")["token of Player 1"] == 3


def test_triggers_that_never_stop_fail_naming_the_trigger(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone bag, public
        zone box, public
        piece token: 1 per player in bag

        when token t enters z where z == box:
          move t to bag

        when token t enters z where z == bag:
          move t to box

        play:
          move 1 token from bag to box
        """
    )
    with pytest.raises(RuleRuntimeError) as err:
        game.new_game(2, seed=0, budget=1000)
    assert "when token enters" in str(err.value)


# ---------------------------------------------------------------------- variables


VARIABLES = """
table cell (name, start: int):
  a, 3
  b, 7
var level: int = 5 within 0..15
var free: int = 0
var high: int = 40 within 0..15
var gold: int = 2 per player within 0..15
var mark: int = self.start per cell within 0..15
var flag: bool = no per cell

play:
{body}
"""


def variables(make_game: MakeGame, *lines: str) -> State:
    return started(make_game, VARIABLES, lines or ('log "nothing"',))


def test_variables_start_at_their_declared_values(make_game: MakeGame) -> None:
    state = variables(make_game)
    assert var(state, "level") == 5
    assert var(state, "free") == 0
    assert [owned(state, "player", "gold", seat) for seat in (0, 1)] == [2, 2]
    assert owned(state, "cell", "mark", "a") == 3
    assert owned(state, "cell", "mark", "b") == 7
    assert owned(state, "cell", "flag", "a") is False


def test_a_start_value_outside_within_is_clamped(make_game: MakeGame) -> None:
    assert var(variables(make_game), "high") == 15


def test_set_add_subtract_on_a_global_variable(make_game: MakeGame) -> None:
    state = variables(make_game, "set free to 10", "add 5 to free", "subtract 20 from free")
    assert var(state, "free") == -5


def test_set_add_subtract_on_a_per_player_variable(make_game: MakeGame) -> None:
    state = variables(make_game, "add 4 to players[1].gold", "subtract 1 from players[0].gold")
    assert [owned(state, "player", "gold", seat) for seat in (0, 1)] == [1, 6]


def test_set_add_subtract_on_a_per_row_variable(make_game: MakeGame) -> None:
    state = variables(make_game, "set cell.a.mark to 9", "subtract 2 from b.mark", "set a.flag to yes")
    assert owned(state, "cell", "mark", "a") == 9
    assert owned(state, "cell", "mark", "b") == 5
    assert owned(state, "cell", "flag", "a") is True
    assert owned(state, "cell", "flag", "b") is False


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("add 20 to level", 15),
        ("subtract 20 from level", 0),
        ("set level to 99", 15),
        ("set level to 0 - 3", 0),
    ],
)
def test_within_clamps_a_global_variable(make_game: MakeGame, line: str, expected: int) -> None:
    assert var(variables(make_game, line), "level") == expected


def test_within_clamps_per_player_and_per_row_variables(make_game: MakeGame) -> None:
    state = variables(
        make_game,
        "subtract 5 from players[0].gold",
        "add 50 to players[1].gold",
        "add 100 to a.mark",
        "subtract 100 from b.mark",
    )
    assert [owned(state, "player", "gold", seat) for seat in (0, 1)] == [0, 15]
    assert owned(state, "cell", "mark", "a") == 15
    assert owned(state, "cell", "mark", "b") == 0


def test_a_variable_without_within_is_not_clamped(make_game: MakeGame) -> None:
    assert var(variables(make_game, "add 1000 to free"), "free") == 1000


# ---------------------------------------------------------------------- control flow


def test_if_elif_else_runs_the_first_true_branch_only(make_game: MakeGame) -> None:
    game = make_game(
        """
        rule classify(x: int):
          if x < 2:
            log "small {x}"
          elif x < 4:
            log "medium {x}"
          elif x < 6:
            log "big {x}"
          else:
            log "huge {x}"

        rule only_if(x: int):
          if x > 0:
            log "positive {x}"

        play:
          classify(1)
          classify(3)
          classify(2 + 3)
          classify(8)
          only_if(0)
          only_if(1)
        """
    )
    state = game.new_game(2, seed=0)
    assert messages(state) == ["small 1", "medium 3", "big 5", "huge 8", "positive 1"]


def test_any_and_all_of_a_comprehension_stop_at_the_first_answer(make_game: MakeGame) -> None:
    """The items after the deciding one are not computed: here they would fail (an index out of
    range), so the game would stop with an error if they were."""
    game = make_game(
        """
        play:
          if any([[1, 2][i] == 1 for each i in [0, 5]]):
            log "any stops at the first yes"
          if not all([[1, 2][i] == 2 for each i in [0, 5]]):
            log "all stops at the first no"
          if not any([x > 5 for each x in [1, 2, 3]]) and all([x > 0 for each x in [1, 2, 3] where x > 1]):
            log "and otherwise looks at every item"
        """
    )
    state = game.new_game(2, seed=0)
    assert messages(state) == [
        "any stops at the first yes",
        "all stops at the first no",
        "and otherwise looks at every item",
    ]


def test_for_each_where_visits_matching_items_in_order(make_game: MakeGame) -> None:
    game = make_game(
        """
        table cell (name, size: int):
          a, 1
          b, 2
          c, 3
          d, 4

        play:
          for each c in cell where c.size % 2 == 0:
            log "even {c}"
          for each p in players:
            log "seat {p.seat}"
        """
    )
    state = game.new_game(3, seed=0)
    assert messages(state) == ["even b", "even d", "seat 0", "seat 1", "seat 2"]


def test_for_each_goes_through_a_snapshot(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone bag, public
        zone box, public
        piece token: 2 per player in bag
        var visits: int = 0

        play:
          for each t in pieces(bag):
            move all token from bag to box
            add 1 to visits
        """
    )
    state = game.new_game(2, seed=0)
    assert var(state, "visits") == 4
    assert sum(at(state, "box").values()) == 4


def test_for_each_chosen_by_asks_that_player_for_the_order(make_game: MakeGame) -> None:
    game = make_game(
        """
        table cell (name, size: int):
          a, 1
          b, 2
          c, 3

        play:
          for each c in cell chosen by players[1]:
            log "visit {c}"
        """
    )
    state = game.new_game(2, seed=0)
    decision = state.decision
    assert decision is not None
    assert decision.player.seat == 1
    assert decision.options == ["a", "b", "c"]
    state.apply(2)
    assert state.decision is not None
    assert state.decision.options == ["a", "b"]
    state.apply(0)
    assert state.is_over, "the last item needs no decision"
    assert messages(state) == ["visit c", "visit a", "visit b"]
    assert state.choices == [2, 0]


def test_for_each_chosen_by_offers_identical_pieces_as_one_option_with_its_prompt(
    make_game: MakeGame,
) -> None:
    """As with `choose`: which of two identical pieces in one place goes first makes no
    difference, so it is not asked; the prompt is the author's."""
    game = make_game(
        """
        zone bag, public
        piece token: 2 per player in bag
        piece cube: 1 per player in bag

        play:
          for each x in pieces(bag) chosen by players[0] prompt "Piece to take next":
            log "take {x}"
        """
    )
    state = game.new_game(2, seed=0)
    decision = state.decision
    assert decision is not None and decision.prompt == "Piece to take next"
    tokens, cubes = ["token of Player 1", "token of Player 2"], ["cube of Player 1", "cube of Player 2"]
    assert decision.options == tokens + cubes
    state.apply(2)  # a cube of Player 1
    assert state.decision is not None
    assert state.decision.options == ["token of Player 1", "token of Player 2", "cube of Player 2"]
    state.apply(0)
    state.apply(1)
    state.apply(0)  # left: a token of Player 1, then one of Player 2
    state.apply(0)
    assert state.is_over, "a last identical piece needs no decision"
    assert messages(state) == [
        "take cube of Player 1",
        "take token of Player 1",
        "take token of Player 2",
        "take token of Player 1",
        "take token of Player 2",
        "take cube of Player 2",
    ]


def test_repeat_n_times(make_game: MakeGame) -> None:
    game = make_game(
        """
        var n: int = 0
        var zero: int = 0

        play:
          repeat 3 + 2 times:
            add 1 to n
          repeat 0 times:
            add 1 to zero
        """
    )
    state = game.new_game(2, seed=0)
    assert var(state, "n") == 5
    assert var(state, "zero") == 0


def test_while_loops_until_its_condition_is_false(make_game: MakeGame) -> None:
    game = make_game(
        """
        var total: int = 0
        var rounds: int = 0

        play:
          while total < 10:
            add 3 to total
            add 1 to rounds
        """
    )
    state = game.new_game(2, seed=0)
    assert (var(state, "total"), var(state, "rounds")) == (12, 4)


# ---------------------------------------------------------------------- decisions

CHOICES = """
table cell (name, size: int):
  a, 1
  b, 2
  c, 3
  d, 4
var got: int = 0
var passed: bool = no

play:
{body}
"""


def choosing(make_game: MakeGame, *lines: str, players: int = 2) -> State:
    return started(make_game, CHOICES, lines, players)


def test_choose_offers_exactly_the_filtered_options_with_readable_labels(make_game: MakeGame) -> None:
    state = choosing(
        make_game,
        'choose x from cell where x.size > 1 by players[1] prompt "Pick a cell":',
        "  set got to x.size",
    )
    decision = state.decision
    assert decision is not None
    assert decision.player.seat == 1
    assert decision.prompt == "Pick a cell"
    assert decision.options == ["b", "c", "d"]
    state.apply(1)
    assert state.is_over
    assert var(state, "got") == 3
    assert state.choices == [1]


def test_choose_labels_players_and_pieces_readably(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone bag, public
        piece token: 1 per player in bag
        var who: int = 0

        play:
          choose q from players by players[0]:
            set who to q.seat
          choose t from pieces(bag) by players[0]:
            log "took {t}"
        """
    )
    state = game.new_game(3, seed=0)
    assert state.decision is not None
    assert state.decision.options == ["Player 1", "Player 2", "Player 3"]
    state.apply(2)
    assert state.decision is not None
    assert state.decision.options == ["token of Player 1", "token of Player 2", "token of Player 3"]
    state.apply(1)
    assert var(state, "who") == 2
    assert messages(state) == ["took token of Player 2"]


def test_choose_offers_identical_pieces_as_one_option(make_game: MakeGame) -> None:
    game = make_game(
        """
        zone bag, public
        zone box, public
        piece token: 2 per player in bag

        play:
          choose t from pieces(bag) by players[0]:
            move t to box
        """
    )
    state = game.new_game(2, seed=0)
    assert state.decision is not None
    assert state.decision.options == ["token of Player 1", "token of Player 2"]
    state.apply(1)
    assert at(state, "box") == {"token of Player 2": 1}
    assert at(state, "bag") == {"token of Player 1": 2, "token of Player 2": 1}


def test_choose_without_by_asks_the_player_whose_turn_it_is(make_game: MakeGame) -> None:
    state = choosing(
        make_game,
        "turn players[2]:",
        "  choose x from cell:",
        "    set got to x.size",
        players=3,
    )
    assert state.decision is not None
    assert state.decision.player.seat == 2
    assert state.decision.prompt == "Choose one"  # no variable letter in a default prompt


def test_choose_without_by_outside_a_turn_fails_naming_the_rule(make_game: MakeGame) -> None:
    game = make_game(
        """
        table cell (name):
          a
          b

        rule nobody():
          choose x from cell:
            log "{x}"

        play:
          nobody()
        """
    )
    with pytest.raises(RuleRuntimeError, match="nobody's turn") as err:
        game.new_game(2, seed=0)
    assert err.value.rule == "nobody"


def test_may_choose_adds_pass_which_runs_else(make_game: MakeGame) -> None:
    lines = (
        "may choose x from cell where x.size > 2 by players[0]:",
        "  set got to x.size",
        "else:",
        "  set passed to yes",
    )
    state = choosing(make_game, *lines)
    assert state.decision is not None
    assert state.decision.options == ["c", "d", "pass"]
    state.apply(2)
    assert (var(state, "got"), var(state, "passed")) == (0, True)

    state = choosing(make_game, *lines)
    state.apply(1)
    assert (var(state, "got"), var(state, "passed")) == (4, False)


def test_may_choose_with_no_option_passes_by_itself(make_game: MakeGame) -> None:
    state = choosing(
        make_game,
        "may choose x from cell where x.size > 10 by players[0]:",
        "  set got to x.size",
        "else:",
        "  set passed to yes",
    )
    assert state.is_over
    assert var(state, "passed") is True
    assert state.choices == []


def test_must_choose_with_no_option_runs_else(make_game: MakeGame) -> None:
    state = choosing(
        make_game,
        "choose x from cell where x.size > 10 by players[0]:",
        "  set got to x.size",
        "else:",
        "  set passed to yes",
    )
    assert state.is_over
    assert var(state, "passed") is True


def test_must_choose_with_no_option_and_no_else_fails_naming_the_rule(make_game: MakeGame) -> None:
    game = make_game(
        """
        table cell (name, size: int):
          a, 1
          b, 2

        rule stuck(limit: int):
          choose x from cell where x.size > limit by players[0]:
            log "chose {x}"

        play:
          stuck(5)
        """
    )
    with pytest.raises(RuleRuntimeError, match="must be made") as err:
        game.new_game(2, seed=0)
    assert err.value.rule == "stuck"
    assert "stuck" in str(err.value)


def test_a_single_option_is_taken_automatically_and_not_recorded(make_game: MakeGame) -> None:
    state = choosing(
        make_game,
        "choose x from cell where x.size == 2 by players[0]:",
        "  add x.size to got",
        "choose y from cell where y.size > 2 by players[1]:",
        "  add y.size to got",
    )
    decision = state.decision
    assert decision is not None
    assert decision.player.seat == 1, "the first choice had one option and was taken"
    assert decision.options == ["c", "d"]
    assert var(state, "got") == 2
    assert state.choices == []
    assert any("only option" in line for line in state.log)
    state.apply(1)
    assert state.choices == [1]
    assert var(state, "got") == 6


def test_may_prompt_asks_yes_or_no(make_game: MakeGame) -> None:
    lines = (
        'may "Take one more?" by players[1]:',
        "  add 1 to got",
        "else:",
        "  set passed to yes",
    )
    state = choosing(make_game, *lines)
    decision = state.decision
    assert decision is not None
    assert decision.player.seat == 1
    assert decision.prompt == "Take one more?"
    assert decision.options == ["yes", "no"]
    state.apply(0)
    assert (var(state, "got"), var(state, "passed")) == (1, False)

    state = choosing(make_game, *lines)
    state.apply(1)
    assert (var(state, "got"), var(state, "passed")) == (0, True)


# ---------------------------------------------------------------------- chance

COIN = """
var heads: int = 0
var edge: int = 0
var tails: int = 0
constant edge_chance = 10

rule flip():
  random "coin":
    outcome heads chance 70:
      add 1 to heads
    outcome edge chance edge_chance:
      add 1 to edge
    outcome tails otherwise:
      add 1 to tails

play:
  flip()

example "outcomes are scripted by name or number":
  outcomes: "tails", "edge", 0
  do:
    flip()
    flip()
    flip()
  expect:
    heads == 1
    edge == 1
    tails == 1
"""


def test_random_outcomes_can_be_scripted_in_an_example(make_game: MakeGame) -> None:
    [result] = run_examples(make_game(COIN))
    assert result.passed, result.failures
    assert result.log == ["  (coin: tails)", "  (coin: edge)", "  (coin: heads)"]


def test_random_outcomes_follow_their_weights_and_otherwise_takes_the_rest(make_game: MakeGame) -> None:
    game = make_game(COIN)
    runs = 2000
    tally: Counter[str] = Counter()
    for seed in range(runs):
        state = game.new_game(2, seed=seed)
        tally.update({name: var(state, name) for name in ("heads", "edge", "tails")})
    assert sum(tally.values()) == runs
    for name, share in {"heads": 0.70, "edge": 0.10, "tails": 0.20}.items():
        assert abs(tally[name] / runs - share) < 0.05, (name, tally)


def test_random_outcomes_are_the_same_for_the_same_seed(make_game: MakeGame) -> None:
    game = make_game(COIN.replace("play:\n  flip()", "play:\n  repeat 20 times:\n    flip()"))
    first, again = game.new_game(2, seed=42), game.new_game(2, seed=42)
    assert first.log == again.log
    assert [var(first, n) for n in ("heads", "edge", "tails")] == [
        var(again, n) for n in ("heads", "edge", "tails")
    ]


def test_otherwise_gets_nothing_when_the_chances_reach_100(make_game: MakeGame) -> None:
    game = make_game(
        """
        var rest: int = 0
        var sure: int = 0

        play:
          repeat 50 times:
            random "sure":
              outcome certain chance 100:
                add 1 to sure
              outcome never otherwise:
                add 1 to rest
        """
    )
    for seed in range(10):
        state = game.new_game(2, seed=seed)
        assert (var(state, "sure"), var(state, "rest")) == (50, 0)


def test_random_where_every_chance_is_zero_fails_naming_the_rule(make_game: MakeGame) -> None:
    game = make_game(
        """
        var n: int = 0

        rule hopeless():
          random "nothing":
            outcome never chance 0:
              add 1 to n

        play:
          hopeless()
        """
    )
    with pytest.raises(RuleRuntimeError, match="chance 0") as err:
        game.new_game(2, seed=0)
    assert err.value.rule == "hopeless"


PICK = """
table cell (name, size: int):
  a, 1
  b, 2
  c, 3
  d, 4
var got: int = 0
var missed: bool = no

play:
  pick x at random from cell where x.size > 1:
    set got to x.size
  pick y at random from cell where y.size > 10:
    set got to 0
  else:
    set missed to yes
"""


def test_pick_at_random_takes_one_of_the_filtered_items_uniformly(make_game: MakeGame) -> None:
    game = make_game(PICK)
    runs = 1500
    tally = Counter(var(game.new_game(2, seed=seed), "got") for seed in range(runs))
    assert set(tally) == {2, 3, 4}
    for size in (2, 3, 4):
        assert abs(tally[size] / runs - 1 / 3) < 0.05, tally


def test_pick_at_random_from_nothing_runs_else(make_game: MakeGame) -> None:
    state = make_game(PICK).new_game(2, seed=3)
    assert var(state, "missed") is True
    assert state.choices == [], "chance is not a player's choice"


def test_pick_at_random_can_be_scripted_in_an_example(make_game: MakeGame) -> None:
    game = make_game(
        PICK
        + """
example "pick is scripted by label":
  outcomes: "c"
  do:
    pick x at random from cell where x.size > 1:
      set got to x.size
  expect:
    got == 3
"""
    )
    [result] = run_examples(game)
    assert result.passed, result.failures


SHUFFLE = """
zone deck, hidden, ordered
zone hand per player, private
table cardtable (name):
  c1
  c2
  c3
  c4
  c5
  c6
piece card: each cardtable in deck

play:
  shuffle deck
  may "look at the deck" by players[0]:
    draw 2 from deck to players[0].hand
"""


def test_shuffle_is_a_permutation_fixed_by_the_seed(make_game: MakeGame) -> None:
    game = make_game(SHUFFLE)
    cards = ["c1", "c2", "c3", "c4", "c5", "c6"]
    orders = {seed: order(game.new_game(2, seed=seed), "deck") for seed in range(8)}
    for deck in orders.values():
        assert sorted(deck) == cards
    assert order(game.new_game(2, seed=5), "deck") == orders[5]
    assert len({tuple(deck) for deck in orders.values()}) > 1, "different seeds shuffle differently"


def test_draw_takes_from_the_top_which_is_the_end_of_the_list(make_game: MakeGame) -> None:
    state = make_game(SHUFFLE).new_game(2, seed=11)
    before = order(state, "deck")
    state.apply(0)
    assert at(state, "hand", 0) == Counter(before[-2:])
    assert order(state, "deck") == before[:-2]


def test_draw_takes_at_most_what_is_there(make_game: MakeGame) -> None:
    game = make_game(
        SHUFFLE.replace("draw 2 from deck to players[0].hand", "draw 9 from deck to players[0].hand")
    )
    state = game.new_game(2, seed=0)
    state.apply(0)
    assert sum(at(state, "hand", 0).values()) == 6
    assert order(state, "deck") == []


# ---------------------------------------------------------------------- maps

MAP = """
table cell (name, colour):
  a, red
  b, red
  c, blue
  d, red
  e, blue
  f, blue
  g, red
table link (x: cell, y: cell):
  a, b
  b, c
  c, d
  d, a
  e, f
map board:
  nodes cell
  edges link (x, y)
var paint: text = "" per cell
zone bag, public
piece token: 2 per player in bag

play:
{body}
"""


def on_map(make_game: MakeGame, *lines: str) -> State:
    return started(make_game, MAP, lines)


def test_edges_make_neighbours_both_ways(make_game: MakeGame) -> None:
    state = on_map(
        make_game,
        'log "{neighbours(a)}"',
        'log "{neighbours(c)}"',
        'log "{neighbours(f)}"',
        'log "{neighbours(g)}"',
    )
    assert messages(state) == ["[b, d]", "[b, d]", "[e]", "[]"]


def test_a_map_is_the_list_of_its_nodes(make_game: MakeGame) -> None:
    state = on_map(make_game, 'log "{board}"', 'log "{count(board)}"')
    assert messages(state) == ["[a, b, c, d, e, f, g]", "7"]


def test_map_nodes_hold_pieces(make_game: MakeGame) -> None:
    state = on_map(
        make_game,
        "move 2 token of players[0] from bag to a",
        "move 1 token of players[1] from bag to b",
        'log "{count(pieces(a))} {count(pieces([a, b], token, players[1]))}"',
    )
    assert at_node(state, "cell", "a") == {"token of Player 1": 2}
    assert at_node(state, "cell", "b") == {"token of Player 2": 1}
    assert messages(state) == ["2 1"]


def nodes(text: str) -> list[str]:
    """`[a, b, d]` as logged -> ["a", "b", "d"]."""
    inner = text.strip()[1:-1].strip()
    return [x.strip() for x in inner.split(",")] if inner else []


def partition(text: str) -> list[set[str]]:
    """`[[a, b, d], [c]]` as logged -> [{"a", "b", "d"}, {"c"}], regions in their order."""
    inner = text.strip()[1:-1]
    return [set(nodes("[" + part.strip(" []") + "]")) for part in inner.split("],")]


def test_region_merges_adjacent_nodes_with_an_equal_attribute(make_game: MakeGame) -> None:
    state = on_map(
        make_game,
        'log "{region(a, colour)}"',
        'log "{region(d, colour)}"',
        'log "{region(c, colour)}"',
        'log "{region(f, colour)}"',
        'log "{region(g, colour)}"',
    )
    found = [nodes(line) for line in messages(state)]
    assert [region[0] for region in found] == ["a", "d", "c", "f", "g"], "a region starts at its node"
    assert [set(region) for region in found] == [{"a", "b", "d"}, {"a", "b", "d"}, {"c"}, {"e", "f"}, {"g"}]


def test_regions_partitions_the_map_by_an_attribute(make_game: MakeGame) -> None:
    state = on_map(
        make_game,
        'log "{regions(board, colour)}"',
        'log "{[r[0] for each r in regions(board, colour)]}"',
    )
    listed, firsts = messages(state)
    assert partition(listed) == [{"a", "b", "d"}, {"c"}, {"e", "f"}, {"g"}]
    assert nodes(firsts) == ["a", "c", "e", "g"], "each region starts at its first node in map order"


def test_regions_follow_a_per_row_variable_as_it_changes(make_game: MakeGame) -> None:
    state = on_map(
        make_game,
        'log "{regions(board, paint)}"',
        'set d.paint to "wet"',
        'log "{regions(board, paint)}"',
    )
    before, after = messages(state)
    assert partition(before) == [{"a", "b", "c", "d"}, {"e", "f"}, {"g"}]
    assert partition(after) == [{"a", "b", "c"}, {"d"}, {"e", "f"}, {"g"}]


def test_pieces_of_a_region_count_over_all_its_nodes(make_game: MakeGame) -> None:
    state = on_map(
        make_game,
        "move 1 token of players[0] from bag to a",
        "move 1 token of players[0] from bag to d",
        "move 1 token of players[1] from bag to c",
        "for each r in regions(board, colour):",
        '  log "{r[0]}: {count(pieces(r, token, players[0]))}"',
    )
    assert messages(state) == ["a: 2", "c: 0", "e: 0", "g: 0"]


# ---------------------------------------------------------------------- players and turns


def test_players_from_starts_at_a_player_and_wraps(make_game: MakeGame) -> None:
    game = make_game(
        """
        play:
          for each p in players_from(players[2]):
            log "{p} then {next_player(p)}"
        """
    )
    state = game.new_game(4, seed=0)
    assert messages(state) == [
        "Player 3 then Player 4",
        "Player 4 then Player 1",
        "Player 1 then Player 2",
        "Player 2 then Player 3",
    ]


def test_turn_sets_the_current_player_and_counts_turns(make_game: MakeGame) -> None:
    game = make_game(
        """
        play:
          repeat 2 times:
            for each p in players:
              turn p:
                log "{current}"
        """
    )
    state = game.new_game(3, seed=0)
    assert state.turns == 6
    assert messages(state) == ["Player 1", "Player 2", "Player 3"] * 2


def test_player_count_is_the_number_of_seats(make_game: MakeGame) -> None:
    game = make_game(
        """
        play:
          log "{player_count} {count(players)}"
        """
    )
    assert messages(game.new_game(3, seed=0)) == ["3 3"]


def test_end_game_ends_at_once_from_inside_nested_rules(make_game: MakeGame) -> None:
    game = make_game(
        """
        var after: int = 0

        rule deep(n: int):
          if n == 0:
            end game
          deep(n - 1)
          add 1 to after

        play:
          log "before"
          repeat 3 times:
            deep(4)
            add 1 to after
          log "never"
        """
    )
    state = game.new_game(2, seed=0)
    assert state.is_over
    assert state.ended_early
    assert state.decision is None
    assert var(state, "after") == 0
    assert messages(state) == ["before"]


def test_end_game_after_a_decision_ends_at_once(make_game: MakeGame) -> None:
    game = make_game(
        """
        var after: int = 0

        play:
          may "Stop now?" by players[0]:
            end game
          add 1 to after
          may "Go on?" by players[1]:
            add 1 to after
        """
    )
    state = game.new_game(2, seed=0)
    state.apply(0)
    assert state.is_over
    assert state.ended_early
    assert var(state, "after") == 0


# ---------------------------------------------------------------------- budgets


def test_a_while_loop_that_never_ends_fails_naming_the_budget_and_the_rule(make_game: MakeGame) -> None:
    game = make_game(
        """
        var n: int = 0

        rule spin():
          while n >= 0:
            add 1 to n

        play:
          spin()
        """
    )
    with pytest.raises(RuleRuntimeError, match=r"step budget \(1000\)") as err:
        game.new_game(2, seed=0, budget=1000)
    assert "spin" in str(err.value)
    assert err.value.rule == "spin"


def test_a_loop_that_asks_forever_fails_naming_the_budget_and_the_rule(make_game: MakeGame) -> None:
    game = make_game(
        """
        rule nag():
          while yes:
            may "Again?" by players[0]:
              log "again"

        play:
          nag()
        """
    )
    state = game.new_game(2, seed=0, budget=1000)
    with pytest.raises(RuleRuntimeError, match="step budget") as err:
        for _ in range(2000):
            state.apply(0)
    assert "nag" in str(err.value)


def test_a_short_recursion_fails_with_the_budget_naming_the_rule(make_game: MakeGame) -> None:
    game = make_game(
        """
        rule again():
          again()

        play:
          again()
        """
    )
    with pytest.raises(RuleRuntimeError, match="step budget") as err:
        game.new_game(2, seed=0, budget=200)
    assert "again" in str(err.value)


@pytest.mark.parametrize("budget", [1000, None])
def test_a_rule_that_recurses_forever_fails_naming_the_rule(make_game: MakeGame, budget: int | None) -> None:
    game = make_game(
        """
        rule again():
          again()

        play:
          again()
        """
    )
    with pytest.raises(RuleRuntimeError) as err:
        if budget is None:
            game.new_game(2, seed=0)
        else:
            game.new_game(2, seed=0, budget=budget)
    assert err.value.rule == "again"
    assert "'again'" in str(err.value)


def test_a_value_that_recurses_forever_fails_naming_the_value(make_game: MakeGame) -> None:
    """A value with a way out that a game never takes: stopped at meeple's depth, named (one with
    no way out at all is refused before any game: M026)."""
    game = make_game(
        """
        value forever_value(k: int) = if k < 0 then 0 else forever_value(k + 1)

        play:
          log "{forever_value(1)}"
        """
    )
    with pytest.raises(RuleRuntimeError) as err:
        game.new_game(2, seed=0, budget=1000)
    assert "forever_value" in str(err.value) and "calls itself" in str(err.value)


def test_a_score_that_recurses_forever_is_a_rule_error_naming_the_value(make_game: MakeGame) -> None:
    game = make_game(
        """
        value worth(k: int) = if k < 0 then 0 else worth(k + 1)

        play:
          log "go"

        score p = worth(p.seat)
        """
    )
    with pytest.raises(RuleRuntimeError) as err:
        game.new_game(2, seed=0)  # the game ends at once, and its scores are computed as it ends
    assert "'worth' calls itself" in str(err.value)


def test_turns_looped_by_a_rule_calling_itself_last_as_long_as_the_players_go_on(
    make_game: MakeGame,
) -> None:
    game = make_game(
        """
        rule next_round(p: player):
          turn p:
            may "Stop the game?" by p:
              end game
          next_round(next_player(p))

        play:
          next_round(players[0])
        """
    )
    state = game.new_game(2, seed=0)
    for _ in range(1000):
        state.apply(1)
    state.apply(0)
    assert state.is_over
    assert state.turns == 1001


# ---------------------------------------------------------------------- scoring


SCORING = """
var pts: int = 0 per player
var tb: int = 0 per player

play:
{body}

score p = p.pts * 2
{tiebreak}
"""


def scored(make_game: MakeGame, lines: list[str], tiebreak: str = "") -> State:
    body = "\n".join(f"  {line}" for line in lines)
    return make_game(SCORING.format(body=body, tiebreak=tiebreak)).new_game(4, seed=0)


def test_score_is_computed_per_player(make_game: MakeGame) -> None:
    state = scored(make_game, ["set players[0].pts to 3", "set players[2].pts to 1"])
    assert state.scores == [6, 0, 2, 0]
    assert state.winners == [0]


def test_players_with_the_best_score_share_the_win(make_game: MakeGame) -> None:
    state = scored(make_game, ["set players[1].pts to 3", "set players[3].pts to 3"])
    assert state.winners == [1, 3]


def test_tiebreak_decides_between_equal_scores(make_game: MakeGame) -> None:
    state = scored(
        make_game,
        [
            "set players[1].pts to 3",
            "set players[3].pts to 3",
            "set players[3].tb to 1",
            "set players[0].tb to 9",
        ],
        tiebreak="tiebreak p = p.tb",
    )
    assert state.winners == [3]


def test_equal_tiebreaks_still_share_the_win(make_game: MakeGame) -> None:
    state = scored(
        make_game,
        ["set players[1].pts to 3", "set players[3].pts to 3", "set players[2].tb to 5"],
        tiebreak="tiebreak p = p.tb",
    )
    assert state.winners == [1, 3]


def test_a_game_without_score_gives_everyone_zero(make_game: MakeGame) -> None:
    state = make_game('play:\n  log "nothing"\n').new_game(3, seed=0)
    assert state.scores == [0, 0, 0]
    assert state.winners == [0, 1, 2]


def test_value_computes_from_its_arguments(make_game: MakeGame) -> None:
    game = make_game(
        """
        table cell (name, size: int):
          a, 1
          b, 5
          c, 3
        var bonus: int = 2

        value boosted(c: cell, times: int) = c.size * times + bonus
        value biggest() = max([c.size for each c in cell])
        value total_of(xs: int) = sum([boosted(c, xs) for each c in cell where c.size > 1])

        play:
          log "{boosted(b, 3)} {biggest()} {total_of(2)}"
          set bonus to 0
          log "{boosted(b, 3)}"
        """
    )
    assert messages(game.new_game(2, seed=0)) == ["17 5 20", "15"]


# ---------------------------------------------------------------------- examples

EXAMPLES = """
zone bag, public
zone box, public
piece token: 3 per player in bag
table cell (name, size: int):
  a, 1
  b, 2
  c, 3
var got: int = 0

rule pick_two():
  choose x from cell by players[0]:
    add x.size to got
  choose y from cell by players[1]:
    add y.size to got

play:
  pick_two()

example "choices by label and by number":
  players 3
  choices: "c", 0
  do:
    pick_two()
  expect:
    got == 4

example "given sets up a position":
  given:
    move 2 token of players[1] from bag to box
  do:
    move 1 token of players[1] from box to bag
  expect:
    count(pieces(box, token, players[1])) == 1
    count(pieces(bag)) == 5

example "a wrong expectation":
  choices: 1, 2
  do:
    pick_two()
  expect:
    got == 4
    got + 1 == 9
    count(pieces(bag)) == 6

example "a choice the example does not answer":
  choices: "c"
  do:
    pick_two()
  expect:
    got == 3

example "a choice that is not an option":
  choices: "zz"
  do:
    pick_two()
  expect:
    got == 3

example "more choices than asked":
  choices: 0, 0, 1
  do:
    pick_two()
  expect:
    got == 2
"""


@pytest.fixture
def example_results(make_game: MakeGame) -> dict[str, ExampleResult]:
    return {result.name: result for result in run_examples(make_game(EXAMPLES))}


def test_examples_that_hold_pass(example_results: dict[str, ExampleResult]) -> None:
    for name in ("choices by label and by number", "given sets up a position"):
        assert example_results[name].passed, example_results[name].failures
        assert example_results[name].failures == []


def test_an_example_let_is_seen_by_the_parts_after_it(make_game: MakeGame) -> None:
    """`let` in `given:` or `do:` names a value for the rest of the example, `expect:` included."""
    game = make_game(
        """
        var n: int = 0

        play:
          set n to 1

        example "lets":
          given:
            let a = 2
          do:
            let b = a + 1
            set n to b
          expect:
            n == 3 and a == 2 and b == 3
        """
    )
    (result,) = run_examples(game)
    assert result.passed, result.failures


def test_examples_do_not_run_setup_or_play(make_game: MakeGame) -> None:
    game = make_game(
        EXAMPLES.replace(
            "play:\n  pick_two()", "setup:\n  move all token from bag to box\n\nplay:\n  pick_two()"
        )
    )
    result = {r.name: r for r in run_examples(game)}["given sets up a position"]
    assert result.passed, result.failures


def test_a_failing_expectation_reports_its_line_and_both_sides(
    example_results: dict[str, ExampleResult],
) -> None:
    result = example_results["a wrong expectation"]
    assert not result.passed
    assert len(result.failures) == 2, result.failures
    first, second = result.failures
    assert "got == 4" in first
    assert "left side is 5" in first and "right side is 4" in first
    assert "got + 1 == 9" in second
    assert "left side is 6" in second and "right side is 9" in second
    assert first.startswith("line ")


def test_an_example_stopped_at_an_unanswered_decision_fails(
    example_results: dict[str, ExampleResult],
) -> None:
    result = example_results["a choice the example does not answer"]
    assert not result.passed
    assert any("does not answer" in f and "Player 2" in f for f in result.failures), result.failures


def test_an_example_choice_that_is_not_an_option_fails(example_results: dict[str, ExampleResult]) -> None:
    result = example_results["a choice that is not an option"]
    assert not result.passed
    assert any("'zz'" in f for f in result.failures), result.failures


def test_an_example_with_unused_choices_fails(example_results: dict[str, ExampleResult]) -> None:
    result = example_results["more choices than asked"]
    assert not result.passed
    assert any("never asked for" in f for f in result.failures), result.failures


RESULTS_GAME = """
zone bag, public
zone hand per player
piece coin: 5 per player in bag
var rounds: int = 0

setup:
  for each p in players:
    move 1 coin of p from bag to p.hand

play:
  repeat 2 times:
    add 1 to rounds
    for each p in players:
      choose n from [1, 2] by p prompt "How many coins":
        move n coin of p from bag to p.hand
  if rounds > 5:
    end game

rule stop():
  end game
  add 1 to rounds

score p = count(pieces(p.hand))
tiebreak p = 0 - p.seat

example "scores, tiebreaks and winners of a position":
  given:
    move 2 coin of players[1] from bag to players[1].hand
  expect:
    scores == [0, 2]
    tiebreaks == [0, -1]
    winners == [players[1]]
    not game_over

example "a tie goes by the tiebreak":
  given:
    move 1 coin of players[0] from bag to players[0].hand
    move 1 coin of players[1] from bag to players[1].hand
  expect:
    winners == [players[0]]

example "a whole game from setup":
  from setup
  play
  choices: 1, first
  expect:
    game_over
    not ended_early
    rounds == 2
    scores == [4, 3]

example "end game ends it early, and nothing after it runs":
  do:
    stop()
  expect:
    game_over and ended_early
    rounds == 0

example "from setup, without play, stops after setup":
  from setup
  expect:
    scores == [1, 1]
    not game_over
"""


def test_an_example_reads_scores_tiebreaks_winners_and_the_end_of_the_game(make_game: MakeGame) -> None:
    """`expect:` can state a rulebook's scoring, tie-break and end-of-game sentences."""
    results = run_examples(make_game(RESULTS_GAME))
    assert [(r.name, r.failures) for r in results if not r.passed] == []


@pytest.mark.parametrize(
    ("wrong", "right"),
    [
        ("scores == [0, 3]", "scores == [0, 2]"),
        ("tiebreaks == [0, 1]", "tiebreaks == [0, -1]"),
        ("winners == [players[0], players[1]]", "winners == [players[0]]"),
        ('not game_over\n\nexample "a tie', 'game_over\n\nexample "a tie'),
        ("    rounds == 3\n", "    rounds == 2\n"),
        ("game_over and not ended_early", "game_over and ended_early"),
        ("    scores == [2, 1]\n    not game_over", "    scores == [1, 1]\n    not game_over"),
    ],
)
def test_a_result_expectation_fails_when_it_is_wrong(make_game: MakeGame, wrong: str, right: str) -> None:
    assert right in RESULTS_GAME
    results = run_examples(make_game(RESULTS_GAME.replace(right, wrong, 1)))
    failed = [r for r in results if not r.passed]
    assert len(failed) == 1 and "expected" in failed[0].failures[0], [(r.name, r.failures) for r in failed]


def test_a_whole_game_example_fails_at_a_decision_its_choices_do_not_answer(make_game: MakeGame) -> None:
    results = run_examples(make_game(RESULTS_GAME.replace("choices: 1, first", "choices: 1")))
    (failed,) = [r for r in results if not r.passed]
    assert "'play' stopped at a decision" in failed.failures[0]


def test_a_conditional_expression_and_joined_lists(make_game: MakeGame) -> None:
    """`if C then A else B` chooses a value; `+` joins two lists."""
    game = make_game(
        """\
value bigger(a: int, b: int) = if a > b then a else b
play:
  let xs = [1, 2] + [3]
  log "{bigger(3, 5)} {bigger(7, 5)} {count(xs)} {xs}"
"""
    )
    assert game.new_game(2).log == ["5 7 3 [1, 2, 3]"]


OFFER_GAME = """\
zone bank
zone purse per player
piece coin: 5 per player in bank
var bought: int = 0 per player
rule buy(p: player):
  move 1 coin of p from bank to p.purse
  add 1 to p.bought
play:
  for each p in players:
    turn p:
      offer buy(p) to p where count(pieces(bank, coin, p)) > 0 as "buy a coin":
        may "End your turn?" by p:
          log "{p} ends"
        choose n from [1, 2] by p prompt "Pick a number":
          log "{p} picks {n}"
score p = p.bought
"""


def test_an_offered_action_stands_beside_every_decision_of_that_player(make_game: MakeGame) -> None:
    """`offer RULE(...) to P:` adds the action to each of P's decisions while the block runs;
    taking it runs the rule and asks the same decision again."""
    state = make_game(OFFER_GAME).new_game(2)
    decision = state.decision
    assert decision is not None and decision.options == ["yes", "no", "buy a coin"]
    state.apply(2)  # buy, then the same question again
    assert state.decision is not None and state.decision.prompt == "End your turn?"
    state.apply(2)
    state.apply(0)  # end: "yes"
    assert state.decision is not None and state.decision.options == ["1", "2", "buy a coin"]
    state.apply(1)
    assert state.rt.owned[("player", "bought")][state.rt.players[0]] == 2
    # Player 2's decisions offer the action to Player 2 only, and not after the block.
    assert state.decision is not None and str(state.decision.player) == "Player 2"


def test_an_offer_is_withdrawn_when_its_condition_fails(make_game: MakeGame) -> None:
    state = make_game(OFFER_GAME).new_game(2)
    for _ in range(5):
        state.apply(2)  # buy all five coins
    assert state.decision is not None and state.decision.options == ["yes", "no"]


def test_offered_actions_replay_exactly(make_game: MakeGame) -> None:
    game = make_game(OFFER_GAME)
    state = game.new_game(2, seed=3)
    for index in [2, 0, 2, 1, 2, 2, 1, 0]:
        state.apply(index)
    again = meeple.replay(game, 2, 3, state.choices)
    assert again.scores == state.scores and again.log == state.log


def test_a_comparison_with_a_known_value_answers_as_any_comparison(make_game: MakeGame) -> None:
    """A comparison with a value known before the game (a number, a constant, a row by its key)
    reads that value directly, and a bound name at once (compiler `known`, `names`): its answers
    are those of the same comparison between two computed values."""
    game = make_game(
        """
        table shade (name):
          pale
          dark

        constant three = 3

        value known(x: int) = [x == 3, x != 3, x < 3, x <= 3, x > 3, x >= 3, x == three]
        value computed(x: int) = [x == x - x + 3, x != x - x + 3, x < x - x + 3, x <= x - x + 3, \\
          x > x - x + 3, x >= x - x + 3, x == x - x + three]
        value shaded(s: shade) = [s == pale, s != pale, s == dark]

        play:
          end game
        """
    )
    state = game.new_game(2)
    program = game.program

    def value(name: str, arg: Any) -> Any:
        params, fn = program.values[name]
        return fn(state.rt, {params[0]: arg})

    for x in range(1, 6):
        expected = [x == 3, x != 3, x < 3, x <= 3, x > 3, x >= 3, x == 3]
        assert value("known", x) == value("computed", x) == expected
    pale, dark = program.rows["shade"]
    assert value("shaded", pale) == [True, False, False]
    assert value("shaded", dark) == [False, True, True]
