"""`as_if_moved(PIECES, PLACE, x)`: a look-ahead, what x would be were some pieces moved (docs/
language.md, "Look-ahead"). Nothing moves: the position, its order and the values the game
remembers are the same afterwards. One small neutral game: coins in two purses and a pot; a
player who would have no coin left is broke."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ask

import meeple
from meeple import RuleRuntimeError

PURSES = """\
game "Purses":
  players 2..2

zone purse per player
zone pot
zone bank
piece coin: 3 per player in purse
piece bead: 1 in bank

value broke(q: player) = count(pieces(q.purse, coin)) == 0
value broke_now(q: player) = broke(q)
value all_in_would_break(q: player) = as_if_moved(pieces(q.purse), pot, broke(q))
value half_would_break(q: player) = as_if_moved(pieces(q.purse)[0], pot, broke(q))
value pot_would_hold(q: player) = as_if_moved(pieces(q.purse), pot, count(pieces(pot)))
value twice(q: player) = as_if_moved(pieces(q.purse) + pieces(q.purse), pot, 0)
value nowhere(q: player) = as_if_moved(pieces(q.purse), [pot, bank], 0)
value order_after(q: player) = as_if_moved(pieces(bank), q.purse, [c.kind for each c in pieces(q.purse)])

play:
  for each p in players:
    turn p:
      if not half_would_break(p):
        may "Put a coin in the pot?" by p:
          move pieces(p.purse)[0] to pot
      if not all_in_would_break(p):
        may "Go all in?" by p:
          move pieces(p.purse) to pot
"""


def started(tmp_path: Path) -> meeple.State:
    path = tmp_path / "purses.rules"
    path.write_text(PURSES, encoding="utf-8")
    return meeple.load(path).new_game(2, seed=1)


def test_the_answer_is_the_position_the_moves_would_make(tmp_path: Path) -> None:
    state = started(tmp_path)
    first = state.rt.players[0]
    assert ask(state, "all_in_would_break", first) is True
    assert ask(state, "half_would_break", first) is False
    assert ask(state, "pot_would_hold", first) == 3


def test_nothing_moves_and_the_order_of_every_place_is_kept(tmp_path: Path) -> None:
    state = started(tmp_path)
    first = state.rt.players[0]
    before = {loc: list(pieces) for loc, pieces in state.rt.locs.items()}
    assert [str(k) for k in ask(state, "order_after", first)] == ["coin", "coin", "coin", "bead"]
    ask(state, "pot_would_hold", first)
    assert {loc: list(pieces) for loc, pieces in state.rt.locs.items()} == before


def test_the_games_remembered_values_are_those_of_the_real_position(tmp_path: Path) -> None:
    """A value asked inside the supposition is not remembered for the real position: asking
    `broke` after a look-ahead that would break the player still says no."""
    state = started(tmp_path)
    first = state.rt.players[0]
    assert ask(state, "broke_now", first) is False  # `broke(q)` remembered, as a call in the rules
    assert ask(state, "all_in_would_break", first) is True
    assert ask(state, "broke_now", first) is False


def test_a_piece_named_twice_is_a_runtime_error_and_changes_nothing(tmp_path: Path) -> None:
    state = started(tmp_path)
    before = {loc: list(pieces) for loc, pieces in state.rt.locs.items()}
    with pytest.raises(RuleRuntimeError, match="named twice"):
        ask(state, "twice", state.rt.players[0])
    assert {loc: list(pieces) for loc, pieces in state.rt.locs.items()} == before


def test_the_place_must_be_one_place(tmp_path: Path) -> None:
    state = started(tmp_path)
    with pytest.raises(RuleRuntimeError, match="to one place"):
        ask(state, "nowhere", state.rt.players[0])


def test_the_rules_can_ask_it_before_a_decision(tmp_path: Path) -> None:
    """The rules offer a coin for the pot to a player it would not break, and going all in to
    nobody: it would break anyone."""
    state = started(tmp_path)
    assert state.decision is not None and state.decision.prompt == "Put a coin in the pot?"
    state.apply(state.decision.options.index("yes"))
    assert state.decision is not None and state.decision.prompt == "Put a coin in the pot?"
    state.apply(state.decision.options.index("no"))
    assert state.is_over
