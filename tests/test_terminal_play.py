"""Playing at the terminal (`meeple play --agents human`, issues 16 and 26): an option is answered
by its number or its label (any case, or a prefix only one label starts with), numbers stay put
from one decision of a kind to the next, the position is shown before each decision, and the log
is printed once. Grid maps are drawn as boards, coloured by what their cells are where the
terminal has colours, and a tile's places are lettered on the board and said in words. On games
of neutral names (tests/grids/quads.rules: square tiles of quarters; tests/games/hex.rules)."""

from __future__ import annotations

import copy
import io
import json
import pickle
import re
from functools import cache
from pathlib import Path

import pytest
from helpers import ROOT, native_or_skip
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text
from typer.testing import CliRunner, Result

import meeple
from meeple import Game
from meeple.board import Looks, say_place, seat_colour
from meeple.cli import app
from meeple.cli_common import SafeConsole
from meeple.interpreter.agents import RandomAgent
from meeple.interpreter.runtime import Said
from meeple.logs import for_seat
from meeple.serve.present import Presenter
from meeple.terminal import CHOSEN, HumanAgent, Screen

HERE = Path(__file__).parent


@cache
def quads() -> Game:
    """Quads: built on first use, not at import (each test process imports every file)."""
    return meeple.load(HERE / "grids" / "quads.rules")


@cache
def small_hex() -> Game:
    """Hex on the smallest board: built on first use, not at import (each test process imports every file)."""
    return meeple.load(HERE / "games" / "hex.rules", {"size": "3"})


GAME = """\
game "Fruit":
  players 2..2

table fruit (name):
  apple
  apricot
  banana

zone basket
zone hand per player, private
piece stone: 2 in basket

var eaten: int = 0
var asked: int = 0 bookkeeping

score p = eaten

play:
  turn players[0]:
    may choose f from fruit by players[0] prompt "Eat":
      set eaten to eaten + 1
  turn players[0]:
    may choose f from fruit where f != apple by players[0] prompt "Eat":
      set eaten to eaten + 1
  turn players[1]:
    move 1 stone from basket to players[1].hand
    for each g in fruit chosen by players[1]:
      set eaten to eaten + 1
"""


def rules(tmp_path: Path) -> Path:
    path = tmp_path / "fruit.rules"
    path.write_text(GAME, encoding="utf-8")
    return path


class Terminal:
    """A HumanAgent's terminal in a test: the answers it will type, and every line it was shown."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.shown: list[str] = []

    def ask(self, prompt: str) -> str:
        return self.answers.pop(0)

    def human(self) -> HumanAgent:
        return HumanAgent(ask=self.ask, show=lambda line: self.shown.append(line.plain))


def first_answer(tmp_path: Path, *answers: str) -> tuple[int, Terminal]:
    state = meeple.load(rules(tmp_path)).new_game(2)
    terminal = Terminal(*answers)
    assert state.decision is not None
    return terminal.human().choose(state, state.decision), terminal


def test_a_label_is_typed_in_any_case(tmp_path: Path) -> None:
    assert first_answer(tmp_path, "BANANA")[0] == 2
    assert first_answer(tmp_path, "pass")[0] == 3  # the pass option by its label too


def test_a_unique_prefix_names_its_option(tmp_path: Path) -> None:
    assert first_answer(tmp_path, "apr")[0] == 1
    assert first_answer(tmp_path, "b")[0] == 2


def test_an_ambiguous_prefix_is_asked_again_with_what_it_fits(tmp_path: Path) -> None:
    index, terminal = first_answer(tmp_path, "ap", "appl")
    assert index == 0
    assert (
        "'ap' fits several options: 1. apple, 2. apricot; type more of the name, or its number"
        in terminal.shown
    )


def test_an_unknown_answer_is_asked_again_and_numbers_still_work(tmp_path: Path) -> None:
    index, terminal = first_answer(tmp_path, "cherry", "", "9", "3")
    assert index == 2
    assert "'cherry' is not an option" in terminal.shown
    assert "'9' is not one of the numbers listed" in terminal.shown


def test_an_option_keeps_its_number_in_the_next_decision_of_the_same_kind(tmp_path: Path) -> None:
    state = meeple.load(rules(tmp_path)).new_game(2)
    terminal = Terminal("apricot", "1", "2")
    human = terminal.human()
    for _ in range(2):
        assert state.decision is not None
        state.apply(human.choose(state, state.decision))
    listed = [line for line in terminal.shown if line.startswith("  ")]
    assert listed[4:] == ["  2. apricot", "  3. banana", "  4. pass"]  # apple gone, nobody renumbered
    assert "'1' is not one of the numbers listed" in terminal.shown
    assert state.choices == [1, 0]  # '2' is apricot, the first option left


def test_the_position_is_shown_as_the_deciding_seat_may_see_it(tmp_path: Path) -> None:
    state = meeple.load(rules(tmp_path)).new_game(2)
    terminal = Terminal("pass", "pass", "1", "2")  # apricot keeps its 2 once apple is taken
    human = terminal.human()
    while not state.is_over:
        assert state.decision is not None
        state.apply(human.choose(state, state.decision))
    assert terminal.shown[1:4] == [
        "Eaten: 0",
        "Basket: 2 stones",
        "Player 1: Eat",
    ]  # a plural for more than one
    assert "Hand of Player 2: stone" in terminal.shown  # its own private zone
    assert not any(line.startswith("{") for line in terminal.shown)  # words, not JSON


def run(*args: str, input: str) -> Result:
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def test_the_log_is_printed_once_when_a_human_plays(tmp_path: Path) -> None:
    # two people: Player 2 takes the keyboard (Enter) before their first decision
    result = run("play", str(rules(tmp_path)), "--agents", "human", input="apple\npass\n\nb\nap\napri\n")
    assert result.exit_code == 0
    assert "  Player 1 eat: apple" in result.stderr  # shown as it happened
    assert "Player 1 eat: apple" not in result.stdout  # and not again
    last = result.stdout.splitlines()[0]  # what happened after the human's last decision
    assert last == "  Player 2 which one next?: apricot"
    assert last not in result.stderr
    assert "Score" in result.stdout


@pytest.mark.parametrize("path", ["fruit", "quads"])
def test_a_person_plays_at_the_terminal_on_the_native_engine_as_on_the_python_one(
    tmp_path: Path, path: str
) -> None:
    """Issue 24: a person's seat plays on the native engine where it runs the game (auto picks
    it), shown the same positions, options and log, places of a grid that grows in words, as on
    the Python engine."""
    native_or_skip()
    rules_file = str(rules(tmp_path)) if path == "fruit" else str(ROOT / "tests" / "grids" / "quads.rules")
    agents = "human" if path == "fruit" else "human,random"
    typed = "apple\npass\n\nb\nap\napri\n" if path == "fruit" else "1\n" * 200
    on = {
        engine: run("play", rules_file, "--agents", agents, "--seed", "1", "--engine", engine, input=typed)
        for engine in ("python", "native")
    }
    assert on["native"].exit_code == on["python"].exit_code == 0
    assert on["native"].stderr == on["python"].stderr
    assert on["native"].stdout == on["python"].stdout
    played = run("play", rules_file, "--agents", agents, "--seed", "1", "--json", input=typed)
    assert json.loads(played.stdout)["engine"] == "native"


def test_the_keyboard_is_handed_over_before_the_next_person_s_turn_shows(tmp_path: Path) -> None:
    """Hot seat (issue 26): when the decision passes from one person to another, the next is
    asked to take the keyboard, and nothing of their seat (their private hand) shows before
    they press Enter; the same person deciding again is not asked."""
    result = run("play", str(rules(tmp_path)), "--agents", "human", input="apple\npass\n\nb\nap\napri\n")
    assert result.exit_code == 0
    err = result.stderr
    assert err.count("Pass the keyboard to Player 2.") == 1  # Player 1's two turns, then Player 2's
    assert "Pass the keyboard to Player 1." not in err
    handed = err.index("Pass the keyboard to Player 2.")
    asked = err.index("Player 2: press Enter when you are at the keyboard, to see your turn: ")
    assert handed < asked < err.index("Hand of Player 2: stone")  # their private hand, after Enter
    assert "Hand of Player 2: stone" not in err[:asked]
    assert err.index("Player 2: Which one next?") > asked


def test_no_hand_off_with_one_person_at_the_keyboard(tmp_path: Path) -> None:
    result = run("play", str(rules(tmp_path)), "--agents", "first,human", input="b\n1\n1\n")
    assert result.exit_code == 0
    assert "Pass the keyboard" not in result.stderr


def test_without_a_human_stdout_holds_the_whole_log(tmp_path: Path) -> None:
    result = run("play", str(rules(tmp_path)), "--agents", "first", input="")
    assert "  Player 1 eat: apple" in result.stdout
    assert "  Player 2 which one next?: apple" in result.stdout


def test_a_default_prompt_names_no_variable(tmp_path: Path) -> None:
    result = run("play", str(rules(tmp_path)), "--agents", "first,human", input="b\n1\n1\n")
    assert "Player 2: Which one next?" in result.stderr
    assert "which g" not in result.stderr.lower()


# ------------------------------------------------------------------ boards at the terminal


def plain(lines: list[Text]) -> list[str]:
    return [line.plain for line in lines]


def test_a_tile_s_places_are_lettered_on_the_board_and_said_by_what_they_touch() -> None:
    """Quads' first tile, beside the start tile (towns north, meadows south): the four places it
    fits (the rules' example "Only a turn whose touching quarters all match may be laid"), each
    said by its turn and the quarters it would touch, as a player checks that sides match."""
    state = quads().new_game(2, seed=1)  # its first tile: a half town
    screen = Screen(state, 0)
    board = plain(screen.lines)
    start = board.index("Land:")
    assert board[start:] == [
        "Land:",
        "        a a",
        "        a a",
        "",
        "   b b T T   c c",
        "   b b M M   c c",
        "",
        "        d d",
        "        d d",
        "  M meadow   T town",
        "  a, b, c, d: the places offered below",
    ]
    assert screen.options == [
        "a: turned half round, north of town (town against town, town against town)",
        "b: not turned, west of town and meadow (town against town, meadow against meadow)",
        "c: not turned, east of town and meadow (town against town, meadow against meadow)",
        "d: turned half round, south of meadow (meadow against meadow, meadow against meadow)",
    ]


def test_a_tile_laid_is_said_in_the_log_as_its_option_was() -> None:
    """Issue 26: the log a player reads (the terminal's narration, the page's log) says where a
    tile went as its option said it, by its turn and what it touched then; the game's record
    (`state.log`, `meeple play`'s stdout, both engines alike) keeps its block and degrees."""
    options = Screen(quads().new_game(2, seed=1), 0).options
    looks = Looks(quads().program.names)
    for index, option in enumerate(options):
        state = quads().new_game(2, seed=1)
        state.apply(index)
        record = next(line for line in state.log if "where does the tile go?" in line)
        assert re.fullmatch(r"  Player 1 where does the tile go\?: \(-?\d+,-?\d+\) turned \d+°", record)
        (said,) = for_seat([record], 0, lambda line: say_place(looks, line))
        assert said == f"  Player 1 where does the tile go?: {option.split(': ', 1)[1]}"
        assert said in Presenter(state).page(state, state.decision.player.seat)["log"]  # type: ignore[union-attr]
        for copied in (copy.deepcopy(record), pickle.loads(pickle.dumps(record))):
            assert say_place(looks, copied) == said  # a copy of the game (history, undo) says it alike


def test_the_page_lists_a_tile_s_places_in_the_terminal_s_words_with_a_stable_key() -> None:
    """Issue 26: the page's list of the places a tile may go says each as the terminal does (its
    turn and what it would touch), not "(0,-1) turned 180°"; the place's key (`grid:land:0:-1`)
    stays what tools and the page's script read."""
    state = quads().new_game(2, seed=1)
    words = [option.split(": ", 1)[1] for option in Screen(state, 0).options]
    listed = Presenter(state).page(state, 0)["options"]
    assert [option.text for option in listed] == words
    assert [option.place for option in listed] == [
        f"grid:land:{lay['q']}:{lay['r']}" for lay in state.view(0)["decision"]["places"]
    ]


def test_a_cell_of_a_grid_that_grows_is_said_by_what_it_shows_and_touches() -> None:
    state = quads().new_game(2, seed=1)
    cell = state.rt.grids[next(iter(state.rt.grids))][(0, 1)]  # the start tile's south-west quarter
    line = Said(f"  Player 1 pick: {cell}", cell, state.rt.around([(0, 1)], cell.map, own=True))
    assert str(line) == "  Player 1 pick: (0,1)"
    assert (
        say_place(Looks(quads().program.names), line)
        == "  Player 1 pick: meadow (south of town, west of meadow)"
    )


@pytest.mark.parametrize("seed", range(4))
def test_no_line_a_player_reads_says_a_place_by_its_coordinates(seed: int) -> None:
    """Issue 26: the cells, areas and routes of a grid that grows are said by what they show and
    touch in the log players read ("from meadow (north of town) to town (south of meadow)"),
    as on the board, which shows no coordinates; the game's record keeps them."""
    state, agent = quads().new_game(2, seed=seed), RandomAgent(seed)
    while not state.is_over and state.decision is not None:
        state.apply(agent.choose(state, state.decision))
    looks = Looks(quads().program.names)
    coordinates = re.compile(r"\(-?\d+,-?\d+\)")
    assert any(coordinates.search(line) for line in state.log)  # the record
    assert any(" where to?: from " in line for line in state.log)  # routes between areas were chosen
    read = for_seat(state.log, 0, lambda line: say_place(looks, line))
    assert [line for line in read if coordinates.search(line)] == []


def test_the_terminal_narrates_a_tile_laid_in_words() -> None:
    result = run(
        "play", str(HERE / "grids" / "quads.rules"), "--agents", "human", "--seed", "1", input="b\n\n1\n"
    )
    lines = [line.rpartition("choose by number or name: ")[2] for line in result.stderr.splitlines()]
    narrated = [line for line in lines if "Player 1 where does the tile go?:" in line]
    words = "not turned, west of town and meadow (town against town, meadow against meadow)"
    assert narrated == [f"  Player 1 where does the tile go?: {words}"]


def test_what_followed_a_person_s_last_decision_says_the_tiles_places_in_words() -> None:
    """The log printed on stdout after a person's last decision is read by people too: a tile's
    place in words there; without a person at the table it is the game's record, as both engines
    write it."""
    rules = str(HERE / "grids" / "quads.rules")
    result = run("play", rules, "--agents", "human,random", "--seed", "1", input="1\n" * 200)
    assert result.exit_code == 0
    laid = [line for line in result.stdout.splitlines() if "where does the tile go?:" in line]
    assert laid and all(re.search(r"go\?: (not turned|turned (a|half))", line) for line in laid)
    record = run("play", rules, "--agents", "random", "--seed", "1", "--engine", "python", input="")
    assert re.search(r"where does the tile go\?: \(-?\d+,-?\d+\) turned \d+°", record.stdout)


def tile_decisions(seed: int, decisions: int) -> list[Screen]:
    """What the terminal shows at each decision that lays a tile, in a random game of Quads."""
    state, agent, shown = quads().new_game(2, seed=seed), RandomAgent(seed), []
    for _ in range(decisions):
        if state.is_over or state.decision is None:
            break
        if state.decision.prompt == "Where does the tile go?":
            shown.append(Screen(state, state.decision.player.seat))
        state.apply(agent.choose(state, state.decision))
    return shown


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_offered_place_is_on_the_board_and_every_side_it_touches_matches(seed: int) -> None:
    """Quads offers only tiles whose touching quarters all match ("every touching side
    matching"), so every contact an option names pairs a quarter with one of its own ground;
    and each option's letter is drawn on the board, in the cells of a free block."""
    for screen in tile_decisions(seed, 40):
        board = "\n".join(plain(screen.lines))
        for option in screen.options:
            letter, _, words = option.partition(": ")
            assert re.search(rf"\b{letter}\b", board.split("Land:")[1])
            for new, old in re.findall(r"(\w+) against (\w+)", words):
                assert new == old, option
            assert "\u00b0" not in option and "(" not in words.split(",")[0]  # words, not (x,y) 90°
        assert len(set(screen.options)) == len(screen.options)  # no two said alike


def test_a_cell_is_coloured_as_the_rules_colour_what_it_is() -> None:
    """The ground's `colour` column fills each quarter (the rulebook's pictures and the page use
    the same one); a console with colours prints it, one without prints the letters alone."""
    lines = Screen(quads().new_game(2, seed=1), 0).lines
    rows = [line for line in lines if "T T" in line.plain or "M M" in line.plain]  # the board's, not its key
    styles = {str(span.style) for line in rows for span in line.spans}
    assert {"black on #d08a55", "black on #9ccf6a"} <= styles  # town, meadow
    coloured, bare = io.StringIO(), io.StringIO()
    SafeConsole(file=coloured, force_terminal=True, color_system="truecolor").print(*rows, sep="\n")
    SafeConsole(file=bare, force_terminal=False).print(*lines, sep="\n")
    assert "48;2;208;138;85" in coloured.getvalue()  # the town's colour, as the terminal's background
    assert "\x1b" not in bare.getvalue() and "T T" in bare.getvalue()


def test_no_color_leaves_the_board_in_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    """`NO_COLOR` (no-color.org) is kept even on a terminal: the board in letters, the key saying
    what each is."""
    monkeypatch.setenv("NO_COLOR", "1")
    out = io.StringIO()
    SafeConsole(file=out, force_terminal=True).print(*Screen(quads().new_game(2, seed=1), 0).lines, sep="\n")
    assert "48;2" not in out.getvalue() and "M meadow" in out.getvalue()


def test_a_hex_board_leans_half_a_cell_east_a_row() -> None:
    """Hex on a 3 by 3 board: each row half a cell east of the one above, as the cells lean."""
    state = small_hex().new_game(2, seed=0)
    state.apply(4)  # b2
    board = plain(Screen(state, 1).lines)
    start = board.index("Board:")
    assert board[start : start + 6] == [
        "Board:",
        "    a b c",
        "  1 . . .",
        "  2  . A .",
        "  3   . . .",
        "  A = stone of Player 1",
    ]


def test_a_variable_the_rules_keep_for_themselves_is_not_shown(tmp_path: Path) -> None:
    """`bookkeeping` (the page leaves it out too): the rules' progress is no game state."""
    state = meeple.load(rules(tmp_path)).new_game(2)
    lines = plain(Screen(state, 0).lines)
    assert lines[0] == "Eaten: 0"  # not "asked", which the rules mark bookkeeping


def test_a_border_is_named_by_its_two_zones() -> None:
    """Dino Party: "A Dino that comes to rest across the border of two zones lies there until
    every Dino has been thrown": the line it lies on is said by the two zones."""
    game = meeple.load(meeple.resolve("dino_party"))
    names = game.new_game(3, seed=0).view()["names"]
    lines = [name for key, name in names.items() if key.startswith("across of")]
    assert lines and all(re.fullmatch(r"line of the border of [\w -]+ and [\w -]+", n) for n in lines), lines[
        :3
    ]


def test_the_terminal_draws_the_board_in_plain_letters_when_it_is_piped() -> None:
    """`meeple play --agents human` with stderr not a terminal: no colour codes, the letters."""
    result = run("play", str(HERE / "grids" / "quads.rules"), "--agents", "human", "--seed", "1", input="b\n")
    assert "   b b T T   c c" in result.stderr
    assert "b: not turned, west of town and meadow" in result.stderr
    assert "\x1b" not in result.stderr and "\\x1b" not in result.stderr


def test_a_tile_offered_before_it_is_laid_is_said_by_what_its_hexes_are() -> None:
    """Gods Love Dinosaurs: "An ecosystem tile is 3 hexes in a triangle" (the rules' own words);
    "tile 35" says nothing, so an option that takes one says its 3 hexes' terrains (the page
    draws them on the button: the same rows, `board.shape_of`)."""
    game = meeple.load(meeple.resolve("gods_love_dinosaurs"))
    terrains = {row.name for row in game.program.rows["terrain"]}
    state, agent = game.new_game(2, seed=1), RandomAgent(3)
    while state.decision is not None and state.decision.prompt != "Take a tile":
        state.apply(agent.choose(state, state.decision))
    options = Screen(state, state.decision.player.seat).options
    tiles = [re.fullmatch(r"tile \d+ \((.*)\)", option) for option in options if option.startswith("tile ")]
    assert tiles and all(tiles)
    for found in tiles:
        assert found is not None
        said = found.group(1).split(", ")
        assert len(said) == 3 and set(said) <= terrains, found.group(0)


@pytest.mark.parametrize("name", ["dino_party", "gods_love_dinosaurs", "dino_garden", "dino_dynasty"])
def test_what_a_player_reads_at_the_terminal_holds_no_engine_values(name: str) -> None:
    """Issue 26: "`{slot_1: None}` dicts or `[0, 0]` lists are not game state a player reads":
    through the first decisions of each bundled game, no line and no option shows a dict, a list,
    or a turn in degrees."""
    game = meeple.load(meeple.resolve(name))
    state, agent = game.new_game(game.min_players, seed=5), RandomAgent(5)
    for _ in range(60):
        if state.is_over or state.decision is None:
            break
        screen = Screen(state, state.decision.player.seat)
        for line in [line.plain for line in screen.lines] + screen.options:
            assert not re.search(r"[{}\[\]\u00b0]", line), line
        state.apply(agent.choose(state, state.decision))


def test_a_seat_s_pieces_are_marked_in_its_colour_as_on_the_page() -> None:
    """Tic-Tac-Toe: Player 1's mark on b2 is drawn, and keyed, in the colour the page gives
    Player 1's pieces (`board.seat_colour`); the empty cells, Player 2's options, are underlined."""
    state = meeple.load(HERE / "games" / "tic_tac_toe.rules").new_game(2, seed=0)
    state.apply(4)  # b2
    lines = Screen(state, 1).lines
    row = next(line for line in lines if line.plain == "  2 . A .")
    key = next(line for line in lines if line.plain == "  A = mark of Player 1")
    red = f"bold white on {seat_colour(0)}"
    styles = [(span.start, span.end, str(span.style)) for span in row.spans]
    assert styles == [(4, 5, "bold underline"), (6, 7, red), (8, 9, "bold underline")]  # a2, c2: options
    assert [str(span.style) for span in key.spans] == [red]


YARD = """\
game "Yard":
  players 2..2

table spot (name, called, x: int, y: int):
  nw,  "north-west corner", 0, 0
  ne,  "north-east corner of the yard beyond the fence", 1, 0
  sw,  "south-west corner", 0, 1
  far, "far post", 3, 1

table path (a: spot, b: spot):
  nw, ne
  nw, sw

map yard:
  nodes spot at self.x, self.y
  edges path (a, b)

zone pool per player
piece stone: 3 per player in pool

score p = 0

setup:
  move 2 stone of players[0] from players[0].pool to nw
  move 1 stone of players[1] from players[1].pool to far

play:
  choose n from yard where n != far by players[0] prompt "Where":
    move 1 stone of players[0] from players[0].pool to n
"""


def test_a_table_map_the_rules_lay_out_is_drawn_as_a_board(tmp_path: Path) -> None:
    """Issue 26: a table map whose rules say where each node lies (`nodes ... at X, Y`, as Dino
    Garden's Park boards) is drawn at the terminal as the page draws it, not listed: each node
    its name over its pieces, where the rules put it, a gap where no node lies; the nodes that
    are options underlined."""
    path = tmp_path / "yard.rules"
    path.write_text(YARD)
    state = meeple.load(path).new_game(2, 1)
    lines = Screen(state, 0).lines
    board = plain(lines)
    start = board.index("Yard:")
    assert board[start:] == [
        "Yard:",
        "  north-west      north-east",
        "  corner          corner of the…",
        "  2A",
        "  south-west                        far post",
        "  corner",
        "                                    B",
        "  A = stone of Player 1",
        "  B = stone of Player 2",
    ]
    assert not any(line.startswith(("North-west corner", "Far post")) for line in board)  # not listed
    underlined = {
        line.plain[span.start : span.end] for line in lines for span in line.spans if span.style == CHOSEN
    }
    assert underlined == {
        "north-west",
        "corner",
        "north-east",
        "corner of the…",
        "south-west",
    }  # not the far post
    marks = {line.plain[span.start : span.end]: span.style for line in lines[start:] for span in line.spans}
    assert marks["2A"] == f"bold white on {seat_colour(0)}"
    assert marks["B"] == f"bold white on {seat_colour(1)}"


def test_a_rules_log_line_says_an_area_by_what_it_touches() -> None:
    """A line the rules write (`log "... moves a Herd of {n} to {area}"`, Dino Dynasty) names an
    area of the Map by what it shows and touches, as the board lets a player find it; the
    record keeps "Badlands at (5,6)"."""
    game = meeple.load("dino_dynasty")
    state, agent = game.new_game(2, seed=1), RandomAgent(1)
    for _ in range(40):
        assert state.decision is not None
        state.apply(agent.choose(state, state.decision))
    at = re.compile(r"\b[A-Z][a-z]+ at \(-?\d+,-?\d+\)")  # an area (a tile laid: the rules own words)
    moves = [line for line in state.log if " moves a Herd of " in line]
    assert moves and all(at.search(line) for line in moves)
    looks = Looks(game.program.names)
    read = for_seat(state.log, 0, lambda line: say_place(looks, line))
    assert [line for line in read if at.search(line)] == []


def test_a_rules_log_line_says_a_tile_laid_by_its_turn_and_what_it_touches() -> None:
    """A line the rules write about a shape laid (`log "A tile is placed: {spot}"`, Dino
    Dynasty) says it as the option to lay it did, by its turn and what it touched, as a player
    finds it on the board; the record keeps "(1,0) turned 90°"."""
    game = meeple.load("dino_dynasty")
    state, agent = game.new_game(2, seed=1), RandomAgent(1)
    while not state.is_over and state.decision is not None and len(state.choices) < 60:
        state.apply(agent.choose(state, state.decision))
    laid = re.compile(r"\(-?\d+,-?\d+\) turned \d+°")
    placed = [line for line in state.log if "A tile is placed: " in line]
    assert placed and all(laid.search(line) for line in placed)
    looks = Looks(game.program.names)
    lines = for_seat(state.log, 0, lambda line: say_place(looks, line))
    read = [said for said in lines if "A tile is placed: " in said]
    assert len(read) == len(placed) and not [line for line in read if laid.search(line)]
    assert all(" of " in line or "turned" in line for line in read)  # its turn or what it touched
