"""Playing at the terminal (`meeple play --agents human`, issue 16): an option is answered by its
number or its label (any case, or a prefix only one label starts with), numbers stay put from
one decision of a kind to the next, the position is shown before each decision, and the log is
printed once. On a game of neutral names."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

import meeple
from meeple.cli import app
from meeple.terminal import HumanAgent

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
    result = run("play", str(rules(tmp_path)), "--agents", "human", input="apple\npass\nb\nap\napri\n")
    assert result.exit_code == 0
    assert "  Player 1 eat: apple" in result.stderr  # shown as it happened
    assert "Player 1 eat: apple" not in result.stdout  # and not again
    last = result.stdout.splitlines()[0]  # what happened after the human's last decision
    assert last == "  Player 2 which one next?: apricot"
    assert last not in result.stderr
    assert "Score" in result.stdout


def test_without_a_human_stdout_holds_the_whole_log(tmp_path: Path) -> None:
    result = run("play", str(rules(tmp_path)), "--agents", "first", input="")
    assert "  Player 1 eat: apple" in result.stdout
    assert "  Player 2 which one next?: apple" in result.stdout


def test_a_default_prompt_names_no_variable(tmp_path: Path) -> None:
    result = run("play", str(rules(tmp_path)), "--agents", "first,human", input="b\n1\n1\n")
    assert "Player 2: Which one next?" in result.stderr
    assert "which g" not in result.stderr.lower()
