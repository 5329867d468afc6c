"""`reveal PIECES to PLAYERS` (docs/language.md, "Showing pieces to some players"; issue 26 §1):
a rule shows pieces to one seat or to a team alone, as Love Letter's Priest looks at another
player's hand, or a player peeks at a deck's top card. The seats shown remember the pieces in
their view until a piece like it leaves or reaches its place, and read them in their log line;
every other seat's line says how many pieces were looked at and where, without naming them. The
game's record keeps everything, and a replay is exact.

The worked example below is the specification; `tests/games/lookout.rules` (a look at a hand, a
peek at the deck) is played at random to check that no seat's log or view ever names a card it
may not see. tests/test_native_reveal.py plays both on the native core."""

from __future__ import annotations

import copy
import json
import pickle
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, only
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import meeple
from meeple.cli import Terminal, app
from meeple.interpreter.agents import make_agents
from meeple.interpreter.engine import State, replay
from meeple.interpreter.runtime import Secret
from meeple.logs import for_seat
from meeple.serve.present import Presenter

PEEKS = """\
game "Peeks":
  players 3..3

table card_text (name, called):
  owl, "Owl"
  lamp, "Lamp"
  key, "Key"
  bell, "Bell"
  coin, "Coin"
  drum, "Drum"
  kite, "Kite"
  mask, "Mask"

zone deck, hidden, ordered
zone hand per player, private
zone pile
piece card: each card_text in deck

setup:
  for each p in players:
    draw 2 from deck to p.hand

play:
  reveal pieces(players[1].hand) to players[0]
  reveal pieces(deck)[count(pieces(deck)) - 1] to [players[0], players[2]]
  choose c from pieces(players[1].hand) by players[1] prompt "Discard":
    move c to pile
  may "Go on?" by players[0]:
    log "on"
"""

LOOKOUT = ROOT / "tests" / "games" / "lookout.rules"
CARDS = ["Owl", "Lamp", "Key", "Bell", "Coin", "Drum", "Kite", "Mask", "Ring", "Fern"]
NAMED = re.compile(r"\b(" + "|".join(CARDS) + r")\b")


def peeks(tmp_path: Path, source: str = PEEKS) -> State:
    path = tmp_path / "peeks.rules"
    path.write_text(source)
    return meeple.load(path).new_game(3)


# ------------------------------------------------------------------ the worked example


def test_the_one_who_looks_reads_the_cards_and_the_others_read_how_many(tmp_path: Path) -> None:
    """Player 1 looks at Player 2's hand (Drum and Coin: each player draws two from the top of a
    deck whose last row, Mask, lies on top); Players 1 and 3 look at the deck's top card."""
    state = peeks(tmp_path)
    looked = [
        "  Player 1 looks at Drum, Coin in hand of Player 2",
        "  Player 1 and Player 3 look at Lamp in deck",
    ]
    assert state.log == looked  # the game's record keeps everything
    assert for_seat(state.log, 0) == looked
    assert for_seat(state.log, 1) == [
        "  Player 1 looks at 2 cards in hand of Player 2",
        "  Player 1 and Player 3 look at one card in deck",
    ]
    assert for_seat(state.log, 2) == ["  Player 1 looks at 2 cards in hand of Player 2", looked[1]]
    assert for_seat(state.log, None) == looked  # once the game is over, everyone reads it all
    assert [(line.readers, type(line)) for line in state.log] == [
        (frozenset({0}), Secret),
        (frozenset({0, 2}), Secret),
    ]


def test_what_a_seat_was_shown_is_in_its_view_and_no_other_seats(tmp_path: Path) -> None:
    state = peeks(tmp_path)
    assert state.view(0)["zones"]["hand of Player 2"] == {"hidden": 2, "seen": ["Drum", "Coin"]}
    assert state.view(0)["zones"]["deck"] == {"hidden": 2, "seen": ["Lamp"]}
    assert state.view(2)["zones"]["hand of Player 2"] == {"hidden": 2}
    assert state.view(2)["zones"]["deck"] == {"hidden": 2, "seen": ["Lamp"]}
    assert state.view(1)["zones"]["deck"] == {"hidden": 2}
    assert state.view(1)["zones"]["hand of Player 2"] == {"Drum": 1, "Coin": 1}  # its own hand


def test_what_a_seat_saw_is_forgotten_once_the_piece_moves(tmp_path: Path) -> None:
    """Player 2 discards the Drum: Player 1 still knows the Coin is in that hand, and sees the
    Drum on the pile like everyone."""
    state = peeks(tmp_path)
    state.apply(0)
    assert state.view(0)["zones"]["hand of Player 2"] == {"hidden": 1, "seen": ["Coin"]}
    assert state.view(0)["zones"]["pile"] == {"Drum": 1}
    assert state.log[-1] == "  Player 2 discard: Drum"


def test_another_seat_sees_who_decides_but_not_the_options(tmp_path: Path) -> None:
    """The options of Player 2's discard are the cards of its private hand."""
    state = peeks(tmp_path)
    assert state.view(0)["decision"] == {"player": 1, "prompt": "Discard"}
    assert state.view(1)["decision"]["options"] == ["Drum", "Coin"]
    assert state.view()["decision"]["options"] == ["Drum", "Coin"]


def test_a_look_again_at_the_same_hand_adds_nothing(tmp_path: Path) -> None:
    twice = PEEKS.replace(
        "  reveal pieces(players[1].hand) to players[0]\n",
        "  reveal pieces(players[1].hand) to players[0]\n  reveal pieces(players[1].hand) to players[0]\n",
    )
    state = peeks(tmp_path, twice)
    assert state.view(0)["zones"]["hand of Player 2"] == {"hidden": 2, "seen": ["Drum", "Coin"]}
    assert len(state.log) == 3


def test_a_shuffle_forgets_what_was_seen_in_the_zone(tmp_path: Path) -> None:
    """A card seen on top of a deck is no longer known to be on top once the deck is shuffled."""
    shuffled = PEEKS.replace("  choose c from", "  shuffle deck\n  choose c from")
    state = peeks(tmp_path, shuffled)
    assert state.view(0)["zones"]["deck"] == {"hidden": 2}
    assert state.view(0)["zones"]["hand of Player 2"] == {"hidden": 2, "seen": ["Drum", "Coin"]}


def test_showing_nothing_or_to_nobody_writes_nothing(tmp_path: Path) -> None:
    nothing = PEEKS.replace(
        "  reveal pieces(players[1].hand) to players[0]\n",
        "  reveal pieces(pile) to players[0]\n  reveal pieces(players[1].hand) to []\n",
    )
    state = peeks(tmp_path, nothing)
    assert state.log == ["  Player 1 and Player 3 look at Lamp in deck"]
    assert "seen" not in state.view(0)["zones"]["hand of Player 2"]


# ------------------------------------------------------------------ the terminal and the page


def test_the_terminal_shows_each_person_their_lines_and_keeps_theirs_till_they_decide(tmp_path: Path) -> None:
    """Players 1 and 2 share a terminal: Player 2 decides first and is shown only how many cards
    Player 1 looked at; Player 1 is shown what they looked at before their own decision."""
    state = peeks(tmp_path)
    terminal = Terminal()
    terminal.humans = {0, 1}
    assert terminal.show(state, 1) == [
        "  Player 1 looks at 2 cards in hand of Player 2",
        "  Player 1 and Player 3 look at one card in deck",
    ]
    state.apply(1)
    assert terminal.show(state, 0) == [
        "  Player 1 looks at Drum, Coin in hand of Player 2",
        "  Player 1 and Player 3 look at Lamp in deck",
        "  Player 2 discard: Coin",
    ]
    assert terminal.show(state, 1) == []  # nothing new, nothing kept


def test_meeple_play_shows_a_person_their_lines_and_what_they_saw(tmp_path: Path) -> None:
    path = tmp_path / "peeks.rules"
    path.write_text(PEEKS)
    looker = CliRunner().invoke(app, ["play", str(path), "--agents", "human,first"], input="1\n")
    assert looker.exit_code == 0, looker.output
    assert "  Player 1 looks at Drum, Coin in hand of Player 2" in looker.stderr
    assert "Hand of Player 2: 1 face down, of which you saw Coin" in looker.stderr
    other = CliRunner().invoke(app, ["play", str(path), "--agents", "first,human,first"], input="1\n")
    assert other.exit_code == 0, other.output
    assert "  Player 1 looks at 2 cards in hand of Player 2" in other.stderr
    assert "Lamp" not in other.stderr and "you saw" not in other.stderr
    assert "Deck: 2 face down\n" in other.stderr


def test_a_line_kept_for_a_person_is_shown_when_the_game_ends_before_their_turn(tmp_path: Path) -> None:
    """Players 1 and 2 share the terminal. Player 1 looks, then only Player 2 decides: Player 1
    reads the lines meant for them as the game ends."""
    path = tmp_path / "peeks.rules"
    path.write_text(PEEKS.replace('  may "Go on?" by players[0]:\n    log "on"\n', ""))
    played = CliRunner().invoke(app, ["play", str(path), "--agents", "human,human,first"], input="1\n")
    assert played.exit_code == 0, played.output
    told, shown = played.stderr.split("choose by number or name: ")
    assert "looks at Drum" not in told and "  Player 1 looks at 2 cards in hand of Player 2" in told
    assert shown.startswith(
        "  Player 1 looks at Drum, Coin in hand of Player 2\n  Player 1 and Player 3 look at Lamp in deck\n"
    )


def test_the_page_shows_the_deciding_seat_its_lines_and_what_it_saw(tmp_path: Path) -> None:
    state = peeks(tmp_path)
    presenter = Presenter(state)
    deciding = presenter.page(state, 1)  # Player 2 discards
    assert deciding["log"] == [
        "  Player 1 looks at 2 cards in hand of Player 2",
        "  Player 1 and Player 3 look at one card in deck",
    ]
    state.apply(0)
    looking = presenter.page(state, 0)
    assert looking["log"][:2] == [
        "  Player 1 looks at Drum, Coin in hand of Player 2",
        "  Player 1 and Player 3 look at Lamp in deck",
    ]
    hand = next(zone for zone in looking["zones"] if zone.title == "Player 2's hand")
    assert [chip.name for chip in hand.chips] == ["Coin"] and hand.hidden == "1 face down, you saw these"


# ------------------------------------------------------------------ what analysis refuses


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("reveal 3 to players[0]", "'reveal' shows pieces, not a number"),
        ("reveal deck to players[0]", "'reveal' shows pieces, not a zone"),
        ("reveal pieces(deck) to deck", "pieces are revealed to a player or a list of players, not a zone"),
    ],
)
def test_only_pieces_are_revealed_and_only_to_players(tmp_path: Path, statement: str, message: str) -> None:
    path = tmp_path / "peeks.rules"
    path.write_text(PEEKS.replace("  reveal pieces(players[1].hand) to players[0]\n", f"  {statement}\n"))
    assert only(meeple.check(path), "M014").message == message


def test_a_reveal_without_whom_is_told_its_form(tmp_path: Path) -> None:
    path = tmp_path / "peeks.rules"
    without = PEEKS.replace("  reveal pieces(players[1].hand) to players[0]\n", "  reveal pieces(deck)\n")
    path.write_text(without)
    checked = meeple.check(path)
    assert not checked.ok
    assert any("the form is: reveal <pieces> to <players>" in d.hint for d in checked.diagnostics)


# ------------------------------------------------------------------ the properties, on random games


def _names(text: str) -> set[str]:
    return set(NAMED.findall(text))


def _walk(players: int, seed: int) -> State:
    """A random game of Lookout, checked at every decision and at its end: each seat's log and
    view name only cards it has held, seen face up, or been shown (a line of its own, written
    after its own choice of the card that looks); what a view says was seen is where it says."""
    game = meeple.load(LOOKOUT)
    state = game.new_game(players, seed)
    agents = make_agents(["random"], players, seed)
    known: list[set[str]] = [set() for _ in range(players)]
    read = 0
    while True:
        everything = state.view()
        for seat in range(players):
            known[seat] |= set(everything["zones"][f"hand of Player {seat + 1}"])
            known[seat] |= set(everything["zones"]["played"])
        for line in state.log[read:]:
            if isinstance(line, Secret):
                assert line.readers == {state.choosers[-1]}  # the seat that played the card
                for seat in line.readers:
                    known[seat] |= _names(line)
        read = len(state.log)
        for seat in range(players):
            view = state.view(seat)
            said = _names("\n".join(for_seat(state.log, seat))) | _names(json.dumps(view))
            assert said <= known[seat], (seat, said - known[seat])
            for place, contents in view["zones"].items():
                if isinstance(contents, dict) and "seen" in contents:
                    there = everything["zones"][place]
                    assert not Counter(contents["seen"]) - Counter(there), (place, contents, there)
        if state.is_over:
            return state
        assert state.decision is not None
        state.apply(agents[state.decision.player.seat].choose(state, state.decision))


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_no_seat_ever_reads_or_sees_a_card_it_may_not_see(players: int, seed: int) -> None:
    _walk(players, seed)


def test_random_games_look_at_hands_and_at_the_deck() -> None:
    """The property above is not empty: random games of Lookout reveal both ways."""
    lines = [line for seed in range(10) for line in _walk(3, seed).log if isinstance(line, Secret)]
    assert any(" in hand of Player " in line for line in lines)
    assert any(line.endswith(" in deck") for line in lines)


def _secrets(state: State) -> list[tuple[str, Any, str]]:
    return _secrets_of(state.log)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_a_replay_is_exact_secrets_and_views_included(players: int, seed: int) -> None:
    state = _walk(players, seed)
    again = replay(meeple.load(LOOKOUT), players, seed, state.choices)
    assert _secrets(again) == _secrets(state)
    assert [again.view(s) for s in range(players)] == [state.view(s) for s in range(players)]


def test_a_line_some_seats_alone_may_read_stays_so_when_copied(tmp_path: Path) -> None:
    log = peeks(tmp_path).log
    for copied in (copy.deepcopy(log), pickle.loads(pickle.dumps(log))):
        assert _secrets_of(copied) == _secrets_of(log)


def _secrets_of(lines: list[str]) -> list[tuple[str, Any, str]]:
    return [(str(line), getattr(line, "readers", None), getattr(line, "others", "")) for line in lines]
