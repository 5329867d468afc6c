"""`reveal PIECES to PLAYERS` on the native core (src/reveal.rs) means what it means on the Python
engine (tests/test_reveal.py has what it means; docs/language.md, "Showing pieces to some
players"): the same log lines, each with the seats that read it and what the others read in its
place; what each seat was shown and still knows (the Python engine's `Runtime.seen`, which the
view shows), forgotten as a piece like it leaves or reaches its place or the place is shuffled;
the log's characters counted alike. A searching player (src/mcts.rs) leaves a piece its seat was
shown where it lies when it guesses the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, native_or_skip
from test_native import load
from test_reveal import PEEKS

import meeple
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.runtime import Withheld
from meeple.interpreter.values import label, label_piece
from meeple.logs import for_seat

LOOKOUT = ROOT / "tests" / "games" / "lookout.rules"
PEEK = ROOT / "tests" / "games" / "peek_the_top_card.rules"


@pytest.fixture(autouse=True)
def built() -> None:
    native_or_skip()


def lines(log: list[str]) -> list[tuple[str, Any, str]]:
    """Each line with the seats that alone read it and what the others read (None, "": everyone
    reads it). An answer withheld from seats that could not see the piece (`Withheld`) is worded
    so by the Python engine alone (docs/architecture.md): its line is compared as the record's."""
    return [
        (str(line), None, "")
        if isinstance(line, Withheld)
        else (str(line), getattr(line, "readers", None), getattr(line, "others", ""))
        for line in log
    ]


def known(seen: dict[Any, dict[int, dict[Any, int]]]) -> list[tuple[str, int, list[tuple[str, int]]]]:
    """What each seat was shown and still knows, by place, in words and in its order: a copy
    that the game does not change as it goes on."""
    return [
        (label(place), seat, [(label_piece(piece), n) for piece, n in pieces.items()])
        for place, at in seen.items()
        for seat, pieces in at.items()
    ]


def walked(game: meeple.Game, players: int, seed: int) -> list[tuple[Any, ...]]:
    """A random game on both engines side by side, the same answers to both: at every decision
    and at the end, the decision, the log line by line with its readers, what each seat was
    shown and still knows, and the log's characters, from each engine."""
    python, core = game.new_game(players, seed), native.new_game(game, players, seed)
    agents = make_agents(["random"], players, seed)
    out = []
    while True:
        asked = [
            None
            if s.decision is None
            else (s.decision.player.seat, s.decision.prompt, list(s.decision.options))
            for s in (python, core)
        ]
        out.append((asked, lines(python.log), lines(core.log), known(python.rt.seen), known(core.seen)))
        assert core.core.log_chars == python.rt.log_chars
        if python.is_over or core.is_over:
            out.append(((python.scores, python.winners), (core.scores, core.winners)))
            return out
        choice = agents[python.decision.player.seat].choose(python, python.decision)
        python.apply(choice)
        core.apply(choice)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lookout_is_the_same_game_on_both_engines_secrets_and_what_each_seat_saw_included(
    players: int,
) -> None:
    game = load(LOOKOUT)
    assert native.engine_for(game, "auto") == ("native", "")
    revealed = 0
    for seed in range(10):
        for step in walked(game, players, seed):
            if len(step) == 2:
                assert step[0] == step[1], f"{players} players, seed {seed}: the end"
                continue
            asked, python_log, core_log, python_seen, core_seen = step
            assert asked[0] == asked[1] and core_log == python_log and core_seen == python_seen, (
                f"{players} players, seed {seed}"
            )
            revealed += bool(python_seen)
    assert revealed, "no game showed a seat anything: the comparison above would be empty"


def test_the_worked_example_reads_alike_for_every_seat_on_the_core(tmp_path: Path) -> None:
    """tests/test_reveal.py's Peeks: Player 1 looks at Player 2's hand, Players 1 and 3 at the
    deck's top card; each seat reads its own lines; after Player 2 discards the Drum, Player 1
    still knows the Coin is in that hand."""
    path = tmp_path / "peeks.rules"
    path.write_text(PEEKS)
    game = meeple.load(path)
    python, core = game.new_game(3), native.new_game(game, 3)
    assert lines(core.log) == lines(python.log)
    for seat in (0, 1, 2, None):
        assert for_seat(core.log, seat) == for_seat(python.log, seat)
    assert core.seen == python.rt.seen
    assert len(core.seen) == 2
    python.apply(0)
    core.apply(0)
    assert core.seen == python.rt.seen
    hand = next(place for place in core.seen if str(place) == "hand of Player 2")
    assert {seat: [kind.called for kind, _ in known] for seat, known in core.seen[hand].items()} == {
        0: ["Coin"]
    }


def test_a_game_with_reveal_played_inside_the_core_is_the_python_agents_game() -> None:
    game = load(LOOKOUT)
    for players in (2, 3, 4):
        for seed in range(6):
            python = game.new_game(players, seed)
            agents = make_agents(["random"], players, seed)
            while not python.is_over:
                python.apply(agents[python.decision.player.seat].choose(python, python.decision))
            core = native.new_game(game, players, seed)
            core.play_out(["random"])
            assert (core.choices, lines(core.log), core.scores, core.winners, core.seen) == (
                python.choices,
                lines(python.log),
                python.scores,
                python.winners,
                python.rt.seen,
            ), f"{players} players, seed {seed}"


def test_a_copy_remembers_what_its_seats_were_shown() -> None:
    game = load(PEEK)
    state = native.new_game(game, 2, 4)
    copy = state.clone()
    assert copy.seen == state.seen and len(state.seen) == 1
    assert copy.core == state.core


def test_a_search_keeps_what_its_seat_was_shown_where_it_lies() -> None:
    """Peek at the Top Card: the first player is shown the top card, then names a card. A search
    that guessed the deck afresh, forgetting the look, would name it about one time in three (as
    in Guess the Top Card, tests/test_search.py); one that keeps what it was shown names it every
    time."""
    game = load(PEEK)
    won = 0
    for seed in range(40):
        state = native.new_game(game, 2, seed, logging=False)
        state.play_out(["mcts:60", "random"])
        won += state.winners == [0]
    assert won == 40, f"the searching player named the card it was shown {won} times of 40"
