"""Properties of Dino Garden (games/dino_garden.rules and its 2-player and solo variants) that hold in
every game, whatever the seed and whatever the players choose.

Random games are played with the dice seeded by hypothesis and the answers drawn from a random
generator whose seed hypothesis provides. Where a property comes from the rulebook
(/work/shared/rulebooks/dino-garden.txt) its docstring quotes the passage.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from helpers import Check, assert_same_game, play_random
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import Game, State
from meeple.codegen import render

BUDGET = 400_000  # steps; a whole game takes well under this
MAX_DECISIONS = 5_000  # a guard, so that a game that never ends fails instead of hanging

# (rules file, players, rounds the rulebook gives)
GAMES = [
    ("dino_garden", 3, 3),
    ("dino_garden", 4, 4),
    ("dino_garden_2p", 2, 3),
    ("dino_garden_solo", 1, 3),
]


@cache
def loaded(name: str) -> Game:
    """A game of GAMES: built on first use, not at import (each test process imports every file)."""
    return meeple.load(name)


seeds = st.integers(min_value=0, max_value=2**32 - 1)
# The players' answers come from a generator seeded by hypothesis (a game asks hundreds of
# questions: drawing each one from hypothesis would make its examples too large).
answers = st.integers(min_value=0, max_value=2**32 - 1).map(random.Random)
SETTINGS = settings(deadline=None, max_examples=4)


def play(name: str, players: int, seed: int, rnd: random.Random, check: Check | None = None) -> State:
    """A game answered at random; `check` runs at the start and after every decision."""
    return play_random(
        loaded(name), players, seed, rnd, budget=BUDGET, max_decisions=MAX_DECISIONS, check=check
    )


def funds(state: State) -> list[int]:
    store = state.rt.owned[("player", "funds")]
    return [store[player] for player in state.rt.players]


@pytest.mark.parametrize(("name", "players", "rounds"), GAMES)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_the_game_ends_after_the_right_number_of_rounds(
    name: str, players: int, rounds: int, seed: int, rnd: random.Random
) -> None:
    """Rulebook: "The game is played over 3 rounds with 3 players, and 4 rounds with 4 players";
    two players: "At the end of the Predator phase of the 3rd round, the game ends"; solo: "After
    the Predator phase of Round 3, perform final scoring"."""
    state = play(name, players, seed, rnd)
    assert state.is_over and state.decision is None
    assert not state.ended_early
    assert [line for line in state.log if line.startswith("Round ")] == [
        f"Round {n}" for n in range(1, rounds + 1)
    ]
    assert any(line == "the final round ends after the Predator phase" for line in state.log)


@pytest.mark.parametrize(("name", "players", "rounds"), GAMES)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_funds_stay_between_0_and_15(
    name: str, players: int, rounds: int, seed: int, rnd: random.Random
) -> None:
    """Rulebook: "The maximum funds you can hold is 15. Any excess over 15 is lost." and "If you
    don't have sufficient funds, you cannot take actions that require payment." """

    def bounded(state: State) -> None:
        assert all(0 <= amount <= 15 for amount in funds(state)), funds(state)

    play(name, players, seed, rnd, bounded)


def area_problems(state: State) -> list[str]:
    """What is wrong with the areas of the parks, checked from the pieces themselves (not with the
    rules' own `fits`): sizes within 4, +2 with a volcano, +2 with a lake (+ any Special Dinosaur
    area bonus from its card's data); at most one volcano; never a volcano and a lake together; an
    Elasmosaurus only with a lake; at most one Special Dinosaur."""
    program = state.game.program
    bonus = {
        a.values["dinosaur"]: a.values["amount"]
        for a in program.rows["special_ability"]
        if str(a.values["effect"]) == "area_size"
    }
    problems = []
    for plot in program.rows["plot"]:
        pieces = [kind for kind, _ in state.rt.locs[plot]]
        dinos = [kind.row for kind in pieces if kind.name == "dino"]
        volcanoes = sum(kind.name == "volcano" for kind in pieces)
        lake = not any(kind.name == "cover" for kind in pieces)
        size = sum(d.values["size"] for d in dinos)
        room = 4 + 2 * lake + 2 * volcanoes + sum(bonus.get(d, 0) for d in dinos)
        if size > room:
            problems.append(f"{plot}: size {size} in room for {room}")
        if volcanoes > 1 or (volcanoes and lake):
            problems.append(f"{plot}: {volcanoes} volcano(es), lake: {lake}")
        if not lake and any(d.values["needs_lake"] for d in dinos):
            problems.append(f"{plot}: an Elasmosaurus without a lake")
        if sum(not d.values["regular"] for d in dinos) > 1:
            problems.append(f"{plot}: more than one Special Dinosaur")
    return problems


@pytest.mark.parametrize(("name", "players", "rounds"), GAMES)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_no_area_ever_breaks_the_placement_rules(
    name: str, players: int, rounds: int, seed: int, rnd: random.Random
) -> None:
    """Rulebook: "The total size of the dinosaur tokens placed within a single area must not exceed
    the area's size"; "Only one volcano token can exist in each area."; "an area that has a volcano
    cannot have a lake"; "Elasmosaurus can only exist in an area with a lake."; "You cannot place
    more than 1 Special Dinosaur token in a single area". Checked at every decision but the one
    where a player picks what leaves an area that just shrank (the rulebook's "you must adjust
    accordingly"). The players here keep their dinosaurs (they almost never take the free-action
    menu, whose first entry sends a dinosaur to the Wasteland), so that parks fill up: random
    players empty them, and a rule off by one would go unseen."""

    def placed_legally(state: State) -> None:
        if state.decision is None or not state.decision.prompt.endswith("(the area shrank)"):
            assert not area_problems(state), area_problems(state)

    def keeper(state: State, rnd: random.Random) -> int:
        options = state.decision.options  # type: ignore[union-attr]
        keep = [i for i, option in enumerate(options) if option != "free action"]
        return rnd.choice(keep) if keep and rnd.random() < 0.95 else rnd.randrange(len(options))

    play_random(
        loaded(name),
        players,
        seed,
        rnd,
        budget=BUDGET,
        max_decisions=MAX_DECISIONS,
        check=placed_legally,
        answer=keeper,
    )


@pytest.mark.parametrize(("name", "players", "rounds"), GAMES)
def test_always_taking_the_first_option_ends_the_game(name: str, players: int, rounds: int) -> None:
    """No sequence of choices loops forever: Feeding cannot put back at one space the meat type
    it took there (an assumption of the rules file), which the first option would repeat."""

    def first(state: State, rnd: random.Random) -> int:
        return 0

    play_random(
        loaded(name), players, 0, random.Random(0), budget=BUDGET, max_decisions=MAX_DECISIONS, answer=first
    )


@pytest.mark.parametrize(("name", "players", "rounds"), GAMES)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_replaying_the_choices_reproduces_the_game(
    name: str, players: int, rounds: int, seed: int, rnd: random.Random
) -> None:
    """(rules, players, seed, choices) is the replay format: it gives the same game again."""
    original = play(name, players, seed, rnd)
    again = meeple.replay(loaded(name), players, seed, original.choices, budget=BUDGET)
    assert_same_game(again, original)


@pytest.mark.parametrize(("name", "players", "rounds"), GAMES)
def test_scores_are_the_logged_final_scores_and_ties_share_the_win(
    name: str, players: int, rounds: int
) -> None:
    """Rulebook: "The player with the most total victory points is the winner! In case of a tie,
    all players tied for the highest score are declared winners." """
    state = play(name, players, 7, random.Random(7))
    logged = [line for line in state.log if " victory points (dinosaurs " in line]
    assert len(logged) == players
    for seat, line in enumerate(logged):
        assert line.startswith(f"Player {seat + 1}: {state.scores[seat]} victory points")
    best = max(state.scores)
    assert state.winners == [seat for seat, score in enumerate(state.scores) if score == best]


def test_solo_prints_the_targets() -> None:
    """Solo: "We recommend setting your initial goal at 130 victory points or above. If you reach
    150 victory points or more, your Dinosaur Park undoubtedly has a long queue of visitors!" """
    state = play("dino_garden_solo", 1, 3, random.Random(3))
    score = f"{state.scores[0]} victory points"
    assert any("130" in line and "150" in line and line.startswith(score) for line in state.log)


@pytest.mark.parametrize(("name", "players", "rounds"), GAMES)
@SETTINGS
@given(seed=seeds, rnd=answers)
def test_the_free_action_option_opens_a_menu_with_something_to_do(
    name: str, players: int, rounds: int, seed: int, rnd: random.Random
) -> None:
    """Rulebook: "During your turn, you may perform the following free actions at any timing you
    like". The 'free action' option (an `offer`) is the last option, is offered only when some free
    action is possible, and opens the free-action menu: at least one action, each by its name,
    then 'pass'."""
    state = loaded(name).new_game(players, seed=seed, budget=BUDGET)
    for _ in range(MAX_DECISIONS):
        if state.is_over:
            return
        decision = state.decision
        assert decision is not None
        options = decision.options
        assert "free action" not in options[:-1]
        if options[-1] == "free action" and rnd.random() < 0.5:
            state.apply(len(options) - 1)
            menu = state.decision
            assert menu is not None and menu.prompt == "Free action (pass: no more)"
            assert menu.player == decision.player
            assert menu.options[-1] == "pass" and len(menu.options) >= 2
            acts = {row.name for row in loaded(name).program.rows["act"]}
            assert set(menu.options[:-1]) <= acts  # said by their names ("Upgrade the Feed Bag"), not keys
            assert "free action" not in menu.options
        else:
            state.apply(rnd.randrange(len(options)))
    pytest.fail(f"no end after {MAX_DECISIONS} decisions ({name}, {players} players, seed {seed})")


def test_the_upper_milestone_tiles_need_the_counts_of_the_appendix_in_the_component_order() -> None:
    """Rulebook, Appendix, Milestone Tiles: "Six tiles, one per Regular Dinosaur type, with required
    counts 3, 3, 4, 4, 2, 2." The list names no dinosaur; both orders the rulebook lists them in
    give the Velociraptor 3: the components ("Velociraptor x17, Tyrannosaurus x17,
    Pachycephalosaurus x13, Triceratops x13, Pteranodon x8, Elasmosaurus x8"), which the file
    follows, and Setup step 4 ("Pachycephalosaurus, Velociraptor, Triceratops, Tyrannosaurus, ...")."""
    rows = loaded("dino_garden").program.rows["milestone"]
    upper = {m.values["dinosaur"].key: m.values["at_least"] for m in rows if m.values["level"].key == "upper"}
    assert upper == {
        "velociraptor": 3,
        "tyrannosaurus": 3,
        "pachycephalosaurus": 4,
        "triceratops": 4,
        "pteranodon": 2,
        "elasmosaurus": 2,
    }


@pytest.mark.parametrize("stem", ["dino_garden", "dino_garden_2p"])
def test_the_aid_says_where_standby_puts_you_and_when_the_action_phase_ends(stem: str) -> None:
    """Rulebook, Step 1: "move your Owner token to the lowest available space on the Standby Track
    ... you will be skipped for the remainder of this Action phase"; Action Phase: it goes on until
    every Owner token has "moved to the Standby Track". A player holding only the aid asks all three
    the first time they go to Standby (the aids said "go to Standby instead" and nothing more)."""
    found = meeple.check(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    text = " ".join(render.aid_markdown(docs).split())
    assert "go to Standby instead: put your token on the lowest free space of the Standby track" in text
    assert "you take no more turns in this Action phase" in text
    assert "until every Owner token is on the Standby track, which ends the phase" in text


def test_setup_lets_the_special_dinosaur_cards_be_chosen_and_says_up_to_6() -> None:
    """Rulebook, Setup step 9: "Select 3 Special Dinosaur cards randomly (or of your own choice) ...
    Once familiar with the game, try using up to 6 Special Dinosaur cards." Both options are said in
    the setup step, where a player looks, in the rulebook and in the aid (they were only in the
    Reference numbers, and the choice nowhere)."""
    found = meeple.check("dino_garden")
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    for document in (render.aid_markdown(docs), render.rulebook_markdown(docs)):
        step = next(
            line for line in document.splitlines() if re.search(r"Special Dinosaur cards\W+Lay out", line)
        )
        assert "drawn at random or chosen as you like" in step
        assert "you may play with up to 6" in step


def test_the_rulebook_tells_the_funds_cap_in_the_rules_and_what_scores_under_scoring() -> None:
    """Rulebook, Funds: "The maximum funds you can hold is 15. Any excess over 15 is lost." It is a
    rule of play, printed before the Reference numbers (it was only there); and the Scoring heading
    names what scores, not only who wins (End of Game and Final Scoring)."""
    found = meeple.check("dino_garden")
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    book = " ".join(render.rulebook_markdown(docs).split())
    rules = book[: book.index("## Reference")]
    assert "You hold at most 15 funds: any you would gain beyond 15 are lost." in rules
    scoring = rules[rules.index("### Scoring") : rules.index("## Examples")]
    for what in ("dinosaurs in your park", "Predator marker", "Milestone cubes", "Standby space", "Feed Bag"):
        assert what in scoring, what


def book_of(stem: str) -> str:
    """The printed rulebook of a rules file, in Markdown."""
    found = meeple.check(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    return render.rulebook_markdown(docs)


EMPTY = "\N{EN DASH}"  # what the rulebook prints in a cell where nothing applies


def test_the_bonus_tables_print_every_amount_and_no_meaningless_zero() -> None:
    """Rulebook, Predator Track boards: "Immediate: Choose 1 Bonus Dinosaur token", "Gain 1 Small
    Meat token and 1 Medium Meat token" (no funds), "Gain 1 Large Meat token ... Also, gain 2
    funds"; Bonus cards: "Gain 5 funds. • Advance your Predator marker 4 spaces". A bonus that gives
    no points, funds or spaces prints an empty cell, not 0; the Bonus card table gives the 5 and 4."""
    rows = {
        tuple(cell.strip() for cell in line.strip("|").split("|"))
        for line in book_of("dino_garden").splitlines()
        if line.startswith("| ")
    }
    predator = {row[:4]: row[5] for row in rows if len(row) == 8 and row[0].startswith("Board ")}
    assert predator[("Board 4", "4", "Immediate", "free volcano and lake")] == EMPTY
    assert predator[("Board 4", "7", "Immediate", "Bonus Dinosaur token")] == EMPTY
    assert predator[("Board 5", "7", "Immediate", "meat in any area")] == EMPTY
    assert predator[("Board 6", "4", "Immediate", "free Feed Bag upgrade")] == EMPTY
    assert predator[("Board 6", "7", "Immediate", "meat in any area, and funds")] == "2"
    assert "0" not in {row[5] for row in rows if len(row) == 8 and row[0].startswith("Board ")}
    cards = {row[0]: row[2] for row in rows if len(row) == 3}
    assert cards["Funds"] == "5"
    assert cards["Predator marker"] == "4"
    assert cards["Volcano and lake"] == EMPTY


def test_the_two_player_book_says_what_lucy_is_before_a_rule_uses_her() -> None:
    """Rulebook, Two-Player Rules: "use one unused color Owner token as a neutral owner token named
    Lucy". A reader meets a thing's definition first: among the two-player changes, the first words
    about Lucy say what she is (the book printed "Turns" and "Lucy's space" before "Lucy")."""
    book = " ".join(book_of("dino_garden_2p").split())
    changes = book[book.index("## Changes from the base game") : book.index("## Rulings")]
    first = changes[changes.index("Lucy") :]
    assert first.startswith("Lucy, an Owner token of a colour no player uses,")


def test_the_round_and_the_variant_rulings_read_as_rules_for_every_round() -> None:
    """Rulebook, Action Phase: "All players begin on the Standby track", in round 1 as in every
    round: the start of a round does not say "again". The ruling on 2 players or solo says where
    their rules are, not "each changes this game, and says how"."""
    book = " ".join(book_of("dino_garden").split())
    assert "Every player takes part in the Action phase; the player whose Owner token is lowest" in book
    assert "Action phase again" not in book
    assert "says how" not in book
    assert "Each is told in a book of its own." in book
