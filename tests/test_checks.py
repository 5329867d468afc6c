"""`meeple check`: every check on a small rules file that breaks it, and the clean game that does not.

Each family of checks (interpreter/checks/) gets a file written to show one problem, and the test
asserts the code, the place and the words of what is reported. Dino Party is the clean game: it must
pass every check, statically and by play. A hypothesis property runs the whole pipeline (static
checks and `--play 2`) on mutated versions of every bundled game: it always answers with
diagnostics, never with a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import found, line_of, only, run
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import meeple
from meeple.codes import REGISTRY
from meeple.diagnostics import RulesError
from meeple.grammar.parser import parse
from meeple.interpreter.checks import CheckOptions, Report, run_checks, supply
from meeple.interpreter.checks.driving import Run, drive
from meeple.interpreter.checks.play import check_play
from meeple.interpreter.compiler import compile_program
from meeple.interpreter.engine import Game

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
DOCS = ROOT / "docs"
HEADER = 'game "Test":\n  players 2..4\n\n'
CLEAN = HEADER + "zone hand per player\nzone reserve\npiece coin: 5 per player in reserve\n\n"


def write(tmp_path: Path, source: str, name: str = "test.rules") -> Path:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return path


def checks(
    tmp_path: Path,
    source: str,
    play: int = 0,
    coverage: bool = False,
    assumptions: bool = False,
    rulebook: Path | None = None,
    budget: int = 50_000,
) -> Report:
    path = write(tmp_path, source)
    options = CheckOptions(
        rulebook=rulebook, coverage=coverage, assumptions=assumptions, play=play, budget=budget
    )
    return run_checks(meeple.check(path), str(path), options)


# ===================================================================== the clean games


@pytest.fixture(scope="module")
def dino_party() -> Report:
    checked = meeple.check("dino_party")
    return run_checks(checked, "dino_party", CheckOptions(play=2))


def test_dino_party_passes_every_check_statically_and_by_play(dino_party: Report) -> None:
    """Its citations too, where its rulebook is found (test_citations.py); without it they are a note."""
    assert dino_party.problems == [], [d.render(None) for d in dino_party.problems]
    summary = only(dino_party, "M069")
    assert summary.data["broke"] == 0
    assert summary.data["games"] == 2 * 5  # two games with each of 2 to 6 players
    assert summary.data["statements_run"] == summary.data["statements"]


@pytest.mark.soak  # every check, setup under every player count and option, of every bundled game
def test_the_checks_find_no_error_in_a_bundled_game_that_analyses_cleanly() -> None:
    for path in GAMES:
        checked = meeple.check(path)
        if not checked.ok:
            continue  # a game still being written: analysis has the word
        report = run_checks(checked, str(path), CheckOptions())
        assert [d for d in report.problems if d.severity == "error"] == [], path.name


# ===================================================================== usage (M040-M043)


@pytest.mark.parametrize(
    ("declaration", "what"),
    [
        ("table colour (name):\n  red\n", "table 'colour'"),
        ("zone attic\n", "zone 'attic'"),
        ("zone pocket per player\n", "zone 'pocket' (per player)"),
        ("piece ghost: 2 per player in reserve\n", "piece 'ghost'"),
        ("var unused: int = 0\n", "variable 'unused'"),
        ("var purse: int = 0 per player\n", "variable 'purse' (per player)"),
    ],
)
def test_a_declaration_the_game_never_uses_is_M040(tmp_path: Path, declaration: str, what: str) -> None:
    source = CLEAN + declaration + "\nplay:\n  move 1 coin of players[0] from reserve to players[0].hand\n"
    diag = only(checks(tmp_path, source), "M040")
    assert diag.message == f"{what} is never used"
    assert diag.line == line_of(source, declaration)
    assert diag.severity == "warning" and diag.hint


def test_a_map_nothing_uses_is_M040_and_so_are_the_tables_only_it_uses(tmp_path: Path) -> None:
    source = (
        CLEAN + "table spot (name):\n  a\n  b\ntable link (x: spot, y: spot):\n  a, b\n"
        "map board:\n  nodes spot\n  edges link (x, y)\n\n"
        "play:\n  move 1 coin of players[0] from reserve to players[0].hand\n"
    )
    unused = {d.line: d.message for d in found(checks(tmp_path, source), "M040")}
    assert unused[line_of(source, "map board")] == "map 'board' is never used"
    for table in ("spot", "link"):
        message = unused[line_of(source, f"table {table}")]
        assert message.startswith(f"table '{table}' is used only by ") and "map 'board'" in message


def test_a_map_whose_rows_receive_pieces_is_used_though_nothing_names_it(tmp_path: Path) -> None:
    """Moving a piece to a row of the map's node table needs the map (it makes the rows places):
    deleting the map, as an M040 would advise, breaks the game at run time."""
    source = (
        CLEAN + "table spot (name):\n  a\n  b\nmap board:\n  nodes spot\n\n"
        "play:\n  choose s from spot by players[0]:\n    move 1 coin of players[0] from reserve to s\n"
    )
    assert not [d for d in found(checks(tmp_path, source), "M040") if "map" in d.message]


def test_pieces_read_through_their_zone_are_used(tmp_path: Path) -> None:
    source = CLEAN + 'play:\n  log "{count(pieces(reserve))}"\n  move pieces(reserve)[0] to players[0].hand\n'
    assert found(checks(tmp_path, source), "M040") == []


def test_the_kind_a_move_names_is_a_kind_of_piece_not_a_player_variable_of_that_name(tmp_path: Path) -> None:
    """`move 1 gem` names the kind its facts say (`Facts.moves`), so a per-player variable also
    called `gem` that nothing reads is still unused."""
    source = (
        'game "Kinds":\n  players 2..2\n\nzone box\nzone lane\npiece gem: 4 in box\n'
        "var gem: int = 0 per player\n\nplay:\n  move 1 gem from box to lane\n"
    )
    assert "variable 'gem'" in only(checks(tmp_path, source), "M040").message


def test_a_declaration_only_examples_use_says_so(tmp_path: Path) -> None:
    source = (
        CLEAN
        + "zone attic\n\nplay:\n  move 1 coin of players[0] from reserve to players[0].hand\n\n"
        + 'example "attic":\n  do:\n    move 1 coin of players[0] from reserve to attic\n'
        + "  expect:\n    count(pieces(attic)) == 1\n"
    )
    assert "used only in examples" in only(checks(tmp_path, source), "M040").message


def test_a_rule_only_an_unreachable_rule_calls_is_M041_and_the_unused_one_stays_M021(tmp_path: Path) -> None:
    source = (
        CLEAN
        + "constant bonus = 2\n\nvalue doubled(n: int) = 2 * n + bonus\n\n"
        + 'rule orphan():\n  helper()\n\nrule helper():\n  log "{doubled(1)}"\n\n'
        + 'play:\n  log "hello"\n'
    )
    report = checks(tmp_path, source)
    assert [d.line for d in found(report, "M021")] == [line_of(source, "rule orphan")]
    unreached = {d.line: d for d in found(report, "M041")}
    assert set(unreached) == {line_of(source, s) for s in ("rule helper", "value doubled", "constant bonus")}
    helper = unreached[line_of(source, "rule helper")]
    assert helper.message.startswith("rule 'helper' never runs")
    assert "rule 'orphan'" in helper.hint


def test_a_rule_only_an_example_calls_is_reported_once(tmp_path: Path) -> None:
    source = (
        CLEAN + 'rule tidy():\n  log "tidy"\n\nplay:\n  log "go"\n\n'
        'example "tidy":\n  do:\n    tidy()\n  expect:\n    yes\n'
    )
    report = checks(tmp_path, source)
    assert [d.code for d in report.problems if d.line == line_of(source, "rule tidy")] == ["M021"]


def test_a_rule_called_from_a_trigger_is_reached(tmp_path: Path) -> None:
    source = (
        CLEAN
        + "var landed: int = 0\n\nrule count_it():\n  add 1 to landed\n\n"
        + "when coin c enters z where z == reserve:\n  count_it()\n\n"
        + "play:\n  move 1 coin of players[0] from players[0].hand to reserve\n\nscore p = landed\n"
    )
    assert checks(tmp_path, source).problems == []


def test_a_variable_changed_but_never_read_is_M042(tmp_path: Path) -> None:
    source = CLEAN + "var tally: int = 0 per player\n\nplay:\n  add 1 to players[0].tally\n"
    diag = only(checks(tmp_path, source), "M042")
    assert diag.message == "variable 'tally' (per player) is changed but never read"
    assert diag.line == line_of(source, "var tally")


def test_a_trigger_on_a_kind_nothing_moves_is_M043(tmp_path: Path) -> None:
    source = (
        CLEAN
        + 'piece ghost: 1 per player in reserve\n\nwhen ghost g enters z:\n  log "boo"\n\n'
        + "play:\n  move 1 coin of players[0] from reserve to players[0].hand\n"
    )
    diag = only(checks(tmp_path, source), "M043")
    assert "never fire" in diag.message and "ghost" in diag.message
    assert diag.line == line_of(source, "when ghost")


# ===================================================================== setup, every player count (M044, M045)


SHORT_SETUP = (
    HEADER
    + "table face (name):\n  a\n  b\n  c\n  d\n  e\n\nzone deck, hidden, ordered\nzone hand per player\n"
    + "zone box\npiece card: each face in deck\npiece coin: 3 per player in box\n\n"
    + "setup:\n  for each p in players:\n    draw 2 from deck to p.hand\n"
    + '    move 3 coin of p from box to p.hand\n\nplay:\n  log "{count(pieces(box))}"\n'
    + "\nscore p = count(pieces(p.hand))\n"
)


def test_setup_asking_for_more_cards_than_the_deck_holds_names_the_player_counts(tmp_path: Path) -> None:
    diag = only(checks(tmp_path, SHORT_SETUP), "M044")
    assert diag.severity == "error"
    assert diag.line == line_of(SHORT_SETUP, "draw 2")
    assert diag.message.startswith("with 3 and 4 players, setup draws more from deck than it holds")
    assert diag.data["missing"] == {"3": 1, "4": 3}


def test_setup_asking_for_more_pieces_than_there_are_is_M044(tmp_path: Path) -> None:
    source = SHORT_SETUP.replace("draw 2", "draw 1").replace("move 3 coin", "move 4 coin")
    diag = only(checks(tmp_path, source), "M044")
    assert diag.line == line_of(source, "move 4 coin")
    assert "with 2, 3 and 4 players, setup asks for more coin than there are" in diag.message
    assert "'coin'" in diag.hint


def test_a_setup_that_breaks_for_one_player_count_is_M045(tmp_path: Path) -> None:
    source = (
        CLEAN + 'setup:\n  move 1 coin of players[3] from reserve to players[3].hand\n\nplay:\n  log "go"\n'
    )
    diag = only(checks(tmp_path, source), "M045")
    assert diag.message.startswith("with 2 and 3 players, setup breaks: ")
    assert "meeple play" in diag.hint and "--players 2 --seed 0" in diag.hint
    assert diag.line == line_of(source, "move 1 coin of players[3]")


def test_a_setup_statement_no_player_count_reaches_is_reported(tmp_path: Path) -> None:
    source = CLEAN + 'setup:\n  if player_count > 4:\n    log "crowd"\n\nplay:\n  log "go"\n'
    diag = only(checks(tmp_path, source), "M060")
    assert diag.line == line_of(source, 'log "crowd"')
    assert "no player count from 2 to 4" in diag.message


def test_a_setup_statement_under_a_players_decision_is_not_reported_unrun(tmp_path: Path) -> None:
    """What runs under a `choose` is the player's to decide (its facts: `decided`): runs of setup
    alone prove nothing of it, so it is not called unrun even where none of them reached it."""
    source = (
        CLEAN + 'setup:\n  choose x from [1, 2] by players[0]:\n    if x == 9:\n      log "nine"\n\n'
        'play:\n  log "go"\n'
    )
    assert found(checks(tmp_path, source), "M060") == []


def test_a_setup_statement_that_chance_reaches_under_another_seed_is_not_reported(tmp_path: Path) -> None:
    """What setup serves may be drawn at random (a scenario card): a statement that seed 0 does
    not reach, but another seed does, is not called unrun."""
    setup = "setup:\n  pick x at random from [1, 2, 3, 4, 5, 6, 7, 8]:\n    set drawn to x\n"
    probe = meeple.load(write(tmp_path, CLEAN + "var drawn: int = 0\n" + setup + '\nplay:\n  log "go"\n'))
    drawn = [probe.new_game(2, seed=seed).rt.vars["drawn"] for seed in range(5)]
    later = next(d for d in drawn[1:] if d != drawn[0])
    source = (
        CLEAN
        + "var drawn: int = 0\n"
        + setup
        + f'  if drawn == {later}:\n    log "rare"\n\nplay:\n  log "go"\n'
    )
    assert found(checks(tmp_path, source), "M060") == []
    never = (
        CLEAN + "var drawn: int = 0\n" + setup + '  if drawn == 9:\n    log "never"\n\nplay:\n  log "go"\n'
    )
    assert "seeds 0 to 4" in only(checks(tmp_path, never), "M060").hint


def test_setup_is_run_under_other_seeds_only_until_every_statement_it_could_call_unrun_has_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A statement chance reaches under a later seed (a scenario card drawn) is looked for no
    further than the run that reaches it: once every setup statement has run, no other run can
    make one unrun, so the seed's other player counts are not run (docs/checking.md, M060)."""
    setup = "setup:\n  pick x at random from [1, 2, 3, 4, 5, 6, 7, 8]:\n    set drawn to x\n"
    probe = meeple.load(write(tmp_path, CLEAN + "var drawn: int = 0\n" + setup + '\nplay:\n  log "go"\n'))
    drawn = {
        players: [probe.new_game(players, seed=seed).rt.vars["drawn"] for seed in range(5)]
        for players in (2, 3, 4)
    }
    seed, later = next(
        (s, d) for s, d in enumerate(drawn[2]) if s and d not in {drawn[n][0] for n in (2, 3, 4)}
    )
    source = (
        CLEAN
        + "var drawn: int = 0\n"
        + setup
        + f'  if drawn == {later}:\n    log "rare"\n\nplay:\n  log "go"\n'
    )
    runs: list[tuple[int, int]] = []
    counted = supply.drive

    def drive_counted(game: Game, players: int, seed: int, budget: int, setup_only: bool = False) -> Run:
        runs.append((players, seed))
        return counted(game, players, seed, budget, setup_only)

    monkeypatch.setattr(supply, "drive", drive_counted)
    assert found(checks(tmp_path, source), "M060") == []
    assert runs[-1] == (2, seed)  # the run that reached "rare", player count 2 of its seed: the last
    assert [players for players, s in runs if s == seed] == [2]


# ===================================================================== flow (M046-M049, M017)


def test_a_while_whose_block_cannot_change_its_condition_is_M046(tmp_path: Path) -> None:
    source = CLEAN + 'var n: int = 0\n\nplay:\n  while n < 3:\n    log "spin"\n\nscore p = n\n'
    diag = only(checks(tmp_path, source), "M046")
    assert diag.severity == "warning"
    assert diag.line == line_of(source, "while n")
    assert "'n'" in diag.hint


@pytest.mark.parametrize(
    "body",
    [
        "    add 1 to n\n",  # the block changes it
        "    step_up()\n",  # a rule it calls changes it
        "    end game\n",  # it can end the game
    ],
)
def test_a_while_that_can_stop_is_not_reported(tmp_path: Path, body: str) -> None:
    source = (
        CLEAN + "var n: int = 0\n\nrule step_up():\n  add 1 to n\n\n"
        "play:\n  step_up()\n  while n < 3:\n" + body + "\nscore p = n\n"
    )
    assert found(checks(tmp_path, source), "M046") == []


def test_a_while_is_followed_through_rules_that_call_each_other(tmp_path: Path) -> None:
    source = (
        CLEAN + "var n: int = 0\n\nrule ping(k: int):\n  if k > 0:\n    pong(k - 1)\n\n"
        "rule pong(k: int):\n  ping(k)\n  add 1 to n\n\n"
        "play:\n  while n < 3:\n    ping(2)\n\nscore p = n\n"
    )
    assert found(checks(tmp_path, source), "M046") == []


def test_a_while_yes_without_end_game_is_an_error(tmp_path: Path) -> None:
    source = CLEAN + 'play:\n  while yes:\n    log "forever"\n'
    diag = only(checks(tmp_path, source), "M046")
    assert diag.severity == "error"


@pytest.mark.parametrize(
    ("statement", "words"),
    [
        ('  if no:\n    log "never"\n', "always no"),
        ('  if 1 > 2:\n    log "never"\n', "always no"),
        ('  if yes:\n    log "a"\n  else:\n    log "never"\n', "always yes"),
        ('  repeat none_at_all times:\n    log "never"\n', "repeats 0 times"),
        ('  for each x in 3..1:\n    log "never"\n', "never anything to go through"),
        ('  pick x at random from [each c in colour where no]:\n    log "never"\n', "never anything to pick"),
        ('  may choose x from [] by players[0]:\n    log "never"\n', "never has an option"),
        ('  end game\n  log "never"\n', "'end game' just above"),
        (
            '  random:\n    outcome a chance 0:\n      log "a"\n    outcome b otherwise:\n      log "b"\n',
            "chance is 0",
        ),
        (
            '  random:\n    outcome a chance 100:\n      log "a"\n    outcome b otherwise:\n      log "b"\n',
            "add up to 100",
        ),
    ],
)
def test_a_block_that_can_never_run_is_M047(tmp_path: Path, statement: str, words: str) -> None:
    source = CLEAN + "constant none_at_all = 0\ntable colour (name):\n  red\n\nplay:\n" + statement
    diag = only(checks(tmp_path, source), "M047")
    assert words in diag.message
    assert diag.severity == "warning"


def test_a_trigger_whose_condition_is_always_no_is_M047(tmp_path: Path) -> None:
    source = (
        CLEAN + 'when coin c enters z where no:\n  log "never"\n\n'
        "play:\n  move 1 coin of players[0] from reserve to players[0].hand\n"
    )
    assert "never fires" in only(checks(tmp_path, source), "M047").message


def test_a_choose_with_exactly_one_option_is_M048(tmp_path: Path) -> None:
    source = CLEAN + 'play:\n  choose x from [1] by players[0]:\n    log "{x}"\n'
    diag = only(checks(tmp_path, source), "M048")
    assert "exactly one option" in diag.message


def test_a_random_whose_every_chance_is_0_is_M049(tmp_path: Path) -> None:
    source = CLEAN + 'constant nil = 0\n\nplay:\n  random:\n    outcome a chance nil:\n      log "a"\n'
    report = checks(tmp_path, source)
    assert only(report, "M049").severity == "error"


def test_a_must_choose_from_an_empty_range_is_M017(tmp_path: Path) -> None:
    source = CLEAN + 'play:\n  choose x from 3..1 by players[0]:\n    log "{x}"\n'
    diag = only(checks(tmp_path, source), "M017")
    assert diag.severity == "error"


def test_the_clean_file_has_no_findings(tmp_path: Path) -> None:
    source = CLEAN + "play:\n  move 1 coin of players[0] from reserve to players[0].hand\n"
    assert checks(tmp_path, source, play=1).problems == []


# ===================================================================== assumptions


def test_assumptions_and_conflicts_are_listed_with_their_places(tmp_path: Path) -> None:
    source = (
        CLEAN + 'assume "Players sit clockwise."\n\nconstant hand_size = 3\n  assume "Three coins."\n\n'
        'play:\n  conflict "How many coins":\n    cites "three coins"\n    cites "four coins"\n'
        '    text "We follow three."\n  log "go"\n'
    )
    report = checks(tmp_path, source, assumptions=True)
    listed = [(d.code, d.line, d.data["about"]) for d in report.diagnostics if d.code in {"M080", "M081"}]
    assert listed == [
        ("M080", line_of(source, 'assume "Players'), "the whole game"),
        ("M080", line_of(source, 'assume "Three'), "constant 'hand_size'"),
        ("M081", line_of(source, "conflict"), "play"),
    ]
    assert all(d.severity == "info" for d in found(report, "M080"))


# ===================================================================== by play (M060-M065)


def test_rules_and_branches_that_never_ran_in_play_are_M060(tmp_path: Path) -> None:
    source = (
        CLEAN
        + 'rule rare():\n  log "rare"\n\nrule sometimes(p: player):\n  if count(pieces(p.hand)) > 50:\n'
        + '    log "rich"\n  else:\n    log "poor"\n\n'
        + "play:\n  for each p in players:\n    sometimes(p)\n"
        + "    if count(pieces(reserve)) > 99:\n      rare()\n"
    )
    report = checks(tmp_path, source, play=2)
    never = {d.line: d.message for d in found(report, "M060")}
    assert never[line_of(source, "rule rare")] == "rule 'rare' never ran in 6 game(s)"
    assert "the 'if' branch in rule 'sometimes' never ran" in never[line_of(source, 'log "rich"')]
    assert "in play never ran" in never[line_of(source, "rare()\n")]
    assert line_of(source, 'log "poor"') not in never


def test_play_tells_its_progress_once_per_game(tmp_path: Path) -> None:
    """What `meeple check --play` draws its progress bar from: (games played, games to play)."""
    heard: list[tuple[int, int]] = []
    path = write(tmp_path, CLEAN + 'play:\n  for each p in players:\n    log "{p}"\n')
    options = CheckOptions(play=2, progress=lambda done, total: heard.append((done, total)))
    run_checks(meeple.check(path), str(path), options)
    assert heard == [(done, 6) for done in range(1, 7)]  # 2 games with each of 2, 3 and 4 players


def test_a_supply_that_runs_short_in_play_is_M061_with_how_often(tmp_path: Path) -> None:
    take = "    move 4 coin of p from reserve to p.hand\n"
    source = CLEAN + "play:\n  for each p in players:\n" + take + take
    diag = only(checks(tmp_path, source, play=2), "M061")
    assert diag.line == source.count("\n")
    assert "in 6 of 6 game(s) (2, 3 and 4 players)" in diag.message
    assert diag.data["missing"] == 3 * 6 * 3  # 3 missing for each of 2+3+4 players, twice each


def test_a_game_that_runs_out_of_its_step_budget_is_M062_with_how_to_reproduce(tmp_path: Path) -> None:
    source = CLEAN + "var n: int = 0\n\nplay:\n  while n >= 0:\n    add 1 to n\n\nscore p = n\n"
    diag = only(checks(tmp_path, source, play=1, budget=2000), "M062")
    assert diag.severity == "error"
    assert diag.line == line_of(source, "while n")
    assert diag.data["reproduce"]["command"].endswith("--players 2 --seed 0")


def test_a_choice_with_no_option_in_play_is_M063(tmp_path: Path) -> None:
    source = CLEAN + 'play:\n  choose c from pieces(players[0].hand) by players[0]:\n    log "{c}"\n'
    diag = only(checks(tmp_path, source, play=1), "M063")
    assert "no option" in diag.message
    assert diag.line == line_of(source, "choose c")


def test_a_rule_that_breaks_in_play_is_M064_and_the_command_reproduces_it(tmp_path: Path) -> None:
    source = (
        CLEAN
        + "var n: int = 0\n\nrule roll(p: player):\n  random:\n"
        + "    outcome high chance 50:\n      set n to 1 // n\n"
        + "    outcome low otherwise:\n      add 1 to n\n\n"
        + "play:\n  for each p in players:\n    turn p:\n      roll(p)\n\nscore p = n\n"
    )
    diag = only(checks(tmp_path, source, play=3), "M064")
    assert "division by zero" in diag.message and "in roll" in diag.message
    reproduce = diag.data["reproduce"]
    assert reproduce["choices"] == []
    result = run(
        "play", reproduce["rules"], "--players", str(reproduce["players"]), "--seed", str(reproduce["seed"])
    )
    assert result.exit_code == 1 and "division by zero" in result.stderr


def test_an_error_inside_the_engine_is_M065_at_the_statement_that_was_running(tmp_path: Path) -> None:
    source = CLEAN + 'play:\n  log "before"\n  log "after"\n'
    checked = meeple.check(write(tmp_path, source))
    assert checked.symbols is not None
    game = Game(compile_program(checked.symbols, coverage=True), "engine-bug")
    play = game.program.play
    assert play is not None

    def broken(rt, env):  # type: ignore[no-untyped-def]
        yield from play(rt, env)
        raise RuntimeError("a bug")

    game.program.play = broken
    assert isinstance(drive(game, 2, 0, 1000).error, RuntimeError)
    diag = next(d for d in check_play(game, checked.symbols, "engine-bug", 1, 1000, []) if d.code == "M065")
    assert "RuntimeError: a bug" in diag.message
    assert diag.line == line_of(source, 'log "after"')


# ===================================================================== the command line


def test_check_prints_new_findings_in_the_diagnostic_format(tmp_path: Path) -> None:
    source = CLEAN + "zone attic\n\nplay:\n  move 1 coin of players[0] from reserve to players[0].hand\n"
    path = write(tmp_path, source)
    result = run("check", str(path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}:8:1: warning: zone 'attic' is never used [M040]"
    assert lines[1:3] == ["    zone attic", "    ^"]
    assert lines[-1] == f"{path}: 0 errors, 1 warning"
    assert run("check", "--strict", str(path)).exit_code == 1


def test_check_text_reports_assumptions(tmp_path: Path) -> None:
    result = run("check", "dino_party", "--assumptions")
    assert result.exit_code == 0
    out = result.stdout
    assert "Assumptions and conflicts:" in out and "assume (constant 'aim_hit')" in out
    assert out.splitlines()[-1].startswith("dino_party: no problems")


def test_check_with_a_rulebook_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    result = run("check", "--rulebook", str(tmp_path / "nowhere"), "dino_party")
    assert result.exit_code == 2 and "nowhere" in result.stderr


def test_every_code_of_the_checks_is_documented_in_checking_md() -> None:
    """The checks' codes (M040 to M081, and M092 and M094 on a variant); the language reference's table
    holds every code: tests/test_codes.py."""
    checking = (DOCS / "checking.md").read_text(encoding="utf-8")
    for code in REGISTRY:
        if "M040" <= code < "M090" or code in ("M092", "M094"):
            assert f"| {code} |" in checking, code


# ===================================================================== syntax errors in the designer's words


@pytest.mark.parametrize(
    ("lines", "message", "hint"),
    [
        (["if n = 3:", '  log "a"'], "'=' does not compare", "write '=='"),
        (["set n = 3"], "'=' does not compare", "set <name> to <value>"),
        (["n = 3"], "changed with 'set'", "set <name> to <value>"),
        (["n += 1"], "'add' and 'subtract'", "add <n> to <name>"),
        (["if n == 1:", '  log "a"', "else if n == 2:", '  log "b"'], "'elif'", "elif <condition>:"),
        (["for p in players:", '  log "a"'], "for each", "add 'each'"),
        (["repeat 3:", '  log "a"'], "'times'", "repeat <n> times:"),
        (["choose x in [1, 2] by players[0]:", '  log "a"'], "choose <name> from", "'from', not 'in'"),
        (["if 0 < n < 3:", '  log "a"'], "one comparison", "a < b and b < c"),
        (["let p = [[x, y] for each x in players for each y in players]"], "one 'for each'", "flat("),
        (["let x to 3"], "'let'", "let <name> = <value>"),
        (["if n == 3 then:", '  log "a"'], "followed by ':'", "if <condition>:"),
        (["mvoe 1 coin from reserve to reserve"], "not a statement", "did you mean 'move'?"),
        (["log 'hi'"], "double quotes", '"..."'),
        (["if n == 1 && n == 2:", '  log "a"'], "'&'", "'and'"),
        (['log "never closed'], "no closing quote", 'ends with "'),
    ],
)
def test_common_syntax_mistakes_are_named_in_the_designers_words(
    lines: list[str], message: str, hint: str
) -> None:
    # Inside a rule, inside a loop: the mistakes are recognised at any depth of indentation.
    body = "".join(f"    {line}\n" for line in lines)
    source = HEADER + "var n: int = 0\n\nrule r():\n  for each q in players:\n" + body
    with pytest.raises(RulesError) as info:
        parse(source, "test.rules")
    diag = info.value.diagnostics[0]
    assert message in diag.message, diag.message
    assert hint in diag.hint, diag.hint
    assert diag.line >= 6


def test_a_misspelled_declaration_gets_a_suggestion() -> None:
    with pytest.raises(RulesError) as info:
        parse(HEADER + 'rul r():\n  log "a"\n', "test.rules")
    diag = info.value.diagnostics[0]
    assert (diag.message, diag.hint) == ("this line does not start a declaration", "did you mean 'rule'?")


# ===================================================================== no traceback, whatever the file

_TOKEN = re.compile(r"\n[ ]*|[ \t]+|[A-Za-z_0-9]+|\"(?:[^\"\\\n]|\\.)*\"|\.\.|==|!=|<=|>=|//|.")
SOURCES = {path.name: path.read_text(encoding="utf-8") for path in GAMES}
_PLAYERS = re.compile(r"players (\d+)\.\.(\d+)")


def mutate(source: str, edits: list[tuple[int, int, int]]) -> str:
    """Delete (0), insert a copy of another token (1), swap two tokens (2), or put another word of
    the same sort (a number for a number, a name for a name) in a word's place (3): the last kind
    keeps the file parsing, so that the mutant reaches analysis, setup and play."""
    tokens = _TOKEN.findall(source)
    for kind, at, other in edits:
        if not tokens:
            break
        at, other = at % len(tokens), other % len(tokens)
        if kind == 0:
            del tokens[at]
        elif kind == 1:
            tokens.insert(at, tokens[other])
        elif kind == 2:
            tokens[at], tokens[other] = tokens[other], tokens[at]
        else:
            words = [
                i for i, t in enumerate(tokens) if t[0].isalnum() and t.isdigit() == tokens[at].isdigit()
            ]
            if tokens[at][0].isalnum() and words:
                tokens[at] = tokens[words[other % len(words)]]
    return "".join(tokens)


edits = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=3
)


def check_a_mutant(tmp_path: Path, game: str, changes: list) -> None:
    """Every check, `--play 2` included, of one mutant: diagnostics of known codes, at its lines."""
    source = mutate(SOURCES[game], changes)
    wanted = _PLAYERS.search(source)
    assume(wanted is not None and int(wanted[2]) - int(wanted[1]) <= 4)  # a few player counts: quick
    path = write(tmp_path, source, game)
    report = run_checks(meeple.check(path), str(path), CheckOptions(play=2, budget=20_000))
    lines = source.count("\n") + 1
    for d in report.diagnostics:
        assert d.severity in {"error", "warning", "note", "info"}
        assert d.code in REGISTRY
        if d.file == str(path):
            assert 1 <= d.line <= lines and d.column >= 1, d.render(source)


# Every check of a mutant of a variant of Dino Dynasty takes seconds: a few mutants in the default
# run, the sweep in the soak (CI runs it).
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(SOURCES)), changes=edits)
def test_a_mutated_game_gets_diagnostics_never_a_traceback(tmp_path: Path, game: str, changes: list) -> None:
    check_a_mutant(tmp_path, game, changes)


@pytest.mark.soak
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(SOURCES)), changes=edits)
def test_many_mutated_games_get_diagnostics_never_a_traceback(
    tmp_path: Path, game: str, changes: list
) -> None:
    check_a_mutant(tmp_path, game, changes)


def test_what_only_the_automated_seats_style_reads_is_needed(tmp_path: Path) -> None:
    """The style an automated seat plays is part of the rules (every game runs it), so a value and
    a variable its lines alone read are not reported unused (M041, M042); a style only agents may
    play stays outside the rules, and what it alone reads is still M041."""
    pacer = (Path(__file__).parent / "games" / "pacer_race.rules").read_text(encoding="utf-8")
    source = pacer.replace(
        "style pacing:\n",
        "value favourite() = 2\nvar mood: int = 0\n\nstyle pacing:\n"
        "  prefer advance.n where n == favourite() + mood weight 3\n",
    ).replace("        advance(p)\n", "        advance(p)\n        set mood to 0\n")
    report = checks(tmp_path, source)
    assert not [d for d in report.diagnostics if d.code in ("M041", "M042")], report.diagnostics
    unplayed = (
        source.replace("plays pacing", "plays calm") + "\nstyle calm:\n  prefer advance.n where n == 1\n"
    )
    report = checks(tmp_path, unplayed)
    assert {d.line for d in found(report, "M041")} == {line_of(unplayed, "value favourite")}
    assert {d.line for d in found(report, "M042")} == {line_of(unplayed, "var mood")}
