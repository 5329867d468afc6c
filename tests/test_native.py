"""The native engine means what the Python engine means (docs/architecture.md, "The native
engine"): for every game the core runs, many seeds and every player count, random players make
the same decisions on both (the same seat, prompt and option labels in order), the same choices,
the same log, scores and winners; a whole game played inside the core by its own random players
matches the Python agents' game; a copied state plays on alone. A game the core cannot run yet
plays on the Python engine, which says which construct kept it there.

These tests skip when the core is not built (meeple installed without Rust); CI sets
$MEEPLE_REQUIRE_NATIVE, which makes that skip a failure."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, native_or_skip, run, write
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import Game
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.engine import IllegalChoice
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.interpreter.values import Player
from meeple.simulation import Plan, engine_of, play_one


@pytest.fixture(autouse=True)
def built() -> None:
    native_or_skip()


TEST_GAMES = sorted((ROOT / "tests" / "games").glob("*.rules"))
BUNDLED = sorted((ROOT / "games").glob("*.rules"))
# Games the core runs today; each other game is checked to fall back to the Python engine.
NATIVE = [
    "call_the_die",
    "connect_four",
    "dino_party",
    "drift",
    "errands",
    "guess_the_top_card",
    "hex",
    "long_haul",
    "seed_swap",
    "stash",
    "tic_tac_toe",
    "tic_tac_toe_draws_score",
    "tic_tac_toe_no_diagonals",
]
# Games the core runs that are checked by tests of their own below (or in test_native_variants.py).
NATIVE_TOO = [
    "dino_dynasty",
    "dino_dynasty_campaign",
    "dino_dynasty_campaign_teams",
    "dino_dynasty_dynasty",
    "dino_dynasty_stasis",
    "dino_dynasty_teams",
    "dino_garden",
    "dino_garden_2p",
    "dino_garden_solo",
    "errand_runner",
    "gods_love_dinosaurs",
    "hunt",
    "lookout",
    "pacer_race",
    "peek_the_top_card",
    "quads",
    "tigers_three",
    "tug_teams",
]


def load(path: Path, **options: str) -> Game:
    return meeple.load(str(path), options=options) if options else meeple.load(str(path))


def played(state: Any, agents: list[Any]) -> dict[str, Any]:
    """A whole game as a player and a reader see it: each decision (seat, prompt, options in
    words, the choice), then the log, scores, winners and turns; or the rules' error."""
    decisions = []
    try:
        while not state.is_over:
            decision = state.decision
            choice = agents[decision.player.seat].choose(state, decision)
            decisions.append((decision.player.seat, decision.prompt, list(decision.options), choice))
            state.apply(choice)
    except RuleRuntimeError as err:
        return {"decisions": decisions, "error": str(err), "log": state.log}
    return {
        "decisions": decisions,
        "log": state.log,
        "scores": state.scores,
        "winners": state.winners,
        "turns": state.turns,
        "ended_early": state.ended_early,
    }


def both(
    game: Game, players: int, seed: int, teams: list[list[int]] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    python = played(game.new_game(players, seed, teams=teams), make_agents(["random"], players, seed))
    core = played(native.new_game(game, players, seed, teams=teams), make_agents(["random"], players, seed))
    return python, core


def same_on_both_engines(
    game: Game, seeds: int, counts: Iterable[int] | None = None, what: str = ""
) -> dict[str, Any]:
    """The core runs the game, and random games of the first `seeds` seeds at each player count
    (every count the game allows, unless `counts` says) are the same game on both engines; the
    last of them, as the Python engine played it, for what a test reads of its log."""
    assert native.engine_for(game, "auto") == ("native", "")
    for players in counts or range(game.min_players, game.max_players + 1):
        for seed in range(seeds):
            python, core = both(game, players, seed)
            assert core == python, f"{what}{players} players, seed {seed}"
    return python


def the_same_error(game: Game, players: int, budget: int | None = None) -> str:
    """The rule's error a new game of `game` stops with, asserted word for word the same on both
    engines (never a crash of the core)."""
    more = {} if budget is None else {"budget": budget}
    with pytest.raises(RuleRuntimeError) as python:
        game.new_game(players, 0, **more)
    with pytest.raises(RuleRuntimeError) as core:
        native.new_game(game, players, 0, **more)
    assert str(core.value) == str(python.value)
    return str(core.value)


@pytest.mark.parametrize("name", NATIVE)
def test_random_games_are_the_same_game_on_both_engines(name: str) -> None:
    """Every seat, prompt, option label and choice, the log, the scores and the winners."""
    game = load(ROOT / "tests" / "games" / f"{name}.rules", **({"size": "5"} if name == "hex" else {}))
    same_on_both_engines(game, 12, what=f"{name}, ")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_dino_party_is_the_same_game_on_both_engines(players: int) -> None:
    """A bundled game: variables per zone and per board, a map of nodes and its regions, a
    trigger, random throws, cards drawn from a shuffled deck, zones per player and per border."""
    game = load(ROOT / "games" / "dino_party.rules")
    assert native.engine_for(game, "auto") == ("native", "")
    for seed in range(6):
        python, core = both(game, players, seed)
        assert core == python, f"{players} players, seed {seed}"


COLUMNS = """game "Columns":
  players 2..2
table post (name, seat: int, owner: int, q: int):
  north, 0, 5, 1
  south, 1, 7, 2
  east, 0, 3, 2
zone pool
zone kept per player
piece flag: each post in pool
play:
  for each p in players:
    turn p:
      choose f from pieces(pool) where f.seat == p.seat or f.q == 2 prompt "Flag":
        log "{p} takes {f} (owner {f.owner}, seat {f.seat}, q {f.q})"
        move f to p.kept
score p = sum([x.owner + x.q for each x in post where x.seat == p.seat])
"""


def test_a_column_named_like_an_attribute_is_read_alike_on_both_engines(tmp_path: Path) -> None:
    """A row's attribute is its column whatever it is called, `seat`, `owner` or `q` too, and so
    is a piece's made for a row (its own `owner`, `kind`, `location` and `row` aside), as
    compiler/expressions.py reads them."""
    game = load(write(tmp_path, "columns.rules", COLUMNS))
    assert native.engine_for(game, "auto") == ("native", "")
    for seed in range(4):
        python, core = both(game, 2, seed)
        assert "error" not in core and core == python


def test_a_full_size_hex_board_is_the_same_game_on_both_engines() -> None:
    game = load(ROOT / "tests" / "games" / "hex.rules")
    for seed in range(3):
        python, core = both(game, 2, seed)
        assert core == python


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_any_seed_plays_the_same_connect_four(seed: int) -> None:
    """Seeds of any size (a seed is a whole number from 0): the generator and the agents' seeds
    (seed * 1000 + seat) are CPython's on both engines."""
    python, core = both(connect_four(), 2, seed)
    assert core == python


@functools.cache
def connect_four() -> Game:
    """Connect Four: built on first use, not at import (each test process imports every file)."""
    return load(ROOT / "tests" / "games" / "connect_four.rules")


@pytest.mark.parametrize("name", ["connect_four", "tic_tac_toe", "errands"])
@pytest.mark.parametrize("agent", ["random", "first"])
def test_a_game_played_inside_the_core_is_the_python_agents_game(name: str, agent: str) -> None:
    """`play_out` answers every decision inside the core, as agents.py's agents of the same seeds
    would: the same choices, log, scores and winners."""
    game = load(ROOT / "tests" / "games" / f"{name}.rules")
    for seed in range(10):
        python, core = played_out_both(game, 2, seed, agent)
        assert core.is_over
        assert outcome(core) == outcome(python)


def played_out_both(
    game: Game, players: int, seed: int, agent: str, teams: list[list[int]] | None = None
) -> tuple[Any, Any]:
    """The same game played to its end twice: by the Python engine's agents, and inside the core
    (`play_out`), each seat by `agent`."""
    python = game.new_game(players, seed, teams=teams)
    played(python, make_agents([agent], players, seed))
    core = native.new_game(game, players, seed, teams=teams)
    core.play_out([agent])
    return python, core


def outcome(state: Any) -> tuple[Any, ...]:
    """What two engines must agree on about a game played to its end: every choice, the log, the
    scores and the winners."""
    return (state.choices, state.log, state.scores, state.winners)


def test_a_copied_state_plays_on_alone() -> None:
    """A copy is equal to its original (and hashes alike) until one of them moves on; what one
    does, the other does not see; the same choices from both end the same."""
    state = native.new_game(connect_four(), 2, 3)
    for choice in [0, 3, 1]:
        state.apply(choice)
    copy = state.clone()
    assert copy.core == state.core and hash(copy.core) == hash(state.core)
    copy.apply(2)
    assert copy.core != state.core
    assert len(state.choices) == 3 and len(copy.choices) == 4
    state.apply(2)
    assert copy.core == state.core
    copy.play_out(["first", "first"])
    state.play_out(["first", "first"])
    assert (copy.log, copy.winners) == (state.log, state.winners)


@functools.cache
def errands() -> Game:
    """Errands: built on first use, not at import (each test process imports every file)."""
    return load(ROOT / "tests" / "games" / "errands.rules")


def test_an_offered_action_is_asked_alike_on_both_engines_and_a_copy_carries_it() -> None:
    """docs/language.md, "Actions at any time": while an `offer` block runs, its action stands
    after the options of each decision of its player, but not inside itself; taking it runs the
    rule, then asks the same decision again with its options worked out afresh. A copy taken
    while the action runs finishes it alone."""
    python, core = errands().new_game(2, 1), native.new_game(errands(), 2, 1)
    copy = None
    for state in (python, core):
        assert state.decision.options == ["yes", "no", "run an errand"]
        state.apply(2)
        assert (state.decision.prompt, state.decision.options) == ("Tidy your purse too?", ["yes", "no"])
    copy = core.clone()
    for state in (python, core, copy):
        state.apply(1)
        assert state.decision.options == ["yes", "no", "run an errand"]  # the same question again
        state.apply(1)  # no rest: take points greater than the coins bought
        assert state.decision.options == ["2", "3", "4", "run an errand"]
        state.apply(3)
        state.apply(0)
        assert state.decision.options == ["3", "4", "run an errand"]  # afresh, after the action
    assert copy.core == core.core and copy.log == core.log == python.log


def test_an_answer_that_is_no_option_is_refused_alike_on_both_engines_and_changes_nothing() -> None:
    """The core checks the answer itself (NativeState.apply crosses into it once): what it
    refuses is worded as the Python engine words it, and the game is as it was."""
    for answer in [9, -1, 10**30, True, "1", 1.0]:
        said = []
        for state in (connect_four().new_game(2, 3), native.new_game(connect_four(), 2, 3)):
            state.apply(0)
            with pytest.raises(IllegalChoice) as refused:
                state.apply(answer)  # type: ignore[arg-type]
            assert state.choices == [0] and state.decision.player.seat == 1
            said.append(str(refused.value))
        assert said[0] == said[1] == f"{answer!r} is not an option: choose a number from 0 to 6"
    over = native.new_game(connect_four(), 2, 3)
    over.play_out(["first", "first"])
    with pytest.raises(IllegalChoice, match="the game is over: there is no decision to answer"):
        over.apply(0)


@pytest.mark.parametrize("path", [*BUNDLED, *TEST_GAMES], ids=lambda p: p.stem)
def test_a_game_the_core_cannot_run_plays_on_python_and_says_why(path: Path) -> None:
    game = load(path)
    engine, why = native.engine_for(game, "auto")
    if path.stem in NATIVE or path.stem in NATIVE_TOO:
        assert (engine, why) == ("native", "")
        return
    assert engine == "python"
    assert why.startswith("unsupported: ")
    assert f" at {path}:" in why or " at " in why


# A game the core does not run yet: `distance` on a grid that grows runs on the Python engine only.
SLIDING = (
    'game "Sliding":\n  players 1..1\ntable tile (q: int, r: int):\n  0, 0\n'
    "map yard:\n  grid square of tile\nvar far: int = 0\n"
    "play:\n  place tile on yard\n  set far to distance(cell(yard, 0, 0), cell(yard, 0, 0))\n"
)


def test_the_construct_that_keeps_a_game_on_python_is_named_with_its_place(tmp_path: Path) -> None:
    rules = write(tmp_path, "sliding.rules", SLIDING)
    game = meeple.load(str(rules))
    engine, why = native.engine_for(game, "auto")
    assert engine == "python"
    assert why == f"unsupported: distance(...) in a game with a grid that grows at {rules}:10:14"
    assert native.engine_for(game, "python") == ("python", "asked for")
    with pytest.raises(ValueError, match=r"cannot play this game: unsupported: distance\(\.\.\.\)"):
        native.engine_for(game, "native")


def test_an_error_in_the_rules_is_the_same_error_on_both_engines(tmp_path: Path) -> None:
    """A broken rule stops the game with a RuleRuntimeError naming the statement, never a
    crash: here an index past the end of a list."""
    rules = write(
        tmp_path,
        "broken.rules",
        'game "Broken":\n  players 2..2\nzone pool\nvar n: int = 0\nplay:\n  set n to [1, 2][n + 5]\n',
    )
    game = meeple.load(str(rules))
    the_same_error(game, 2)


BROKEN_HEAD = (
    'game "Broken":\n  players 2..2\nzone supply\nzone hand per player\n'
    "piece mark: 2 per player in supply\nvar n: int = 0\nvar last: player? = none\n"
)
# A statement that breaks at its first run (line 9 of the file), and the words both engines stop
# with; `n` is 0, so that no check before the game can find the error.
BROKEN = {
    "a remainder by zero": ("set n to 5 % (n - n)", "division by zero"),
    "an item past the end": ("set n to [1, 2][n + 5]", "index out of range: the list is shorter"),
    "an item before the start": (
        "set n to [1, 2][n - 5]",
        "there is no item -5 in a list: items are numbered from 0",
    ),
    "the smallest of no number": (
        "set n to min([each y in [1, 2] where y > n + 5])",
        "min of an empty list: there is no smallest number",
    ),
    "the largest of no number": (
        "set n to max([each y in [1, 2] where y > n + 5])",
        "max of an empty list: there is no largest number",
    ),
    "a list joined with a number": (
        "set n to count(flat([[1], 2 + n]))",
        "flat joins lists, and one of these is a number",
    ),
    "the zone of no player": ("set n to count(last.hand)", "none has no such zone or map"),
    "a sum past the largest number": (
        "set n to sum([922337203685477580 * 10 + 7, 1 + n, -5])",
        "a number grew beyond 9,223,372,036,854,775,807 (the largest a game may compute)",
    ),
    "a product past the largest number": (
        "set n to 3037000500 * (3037000500 + n)",
        "a number grew beyond 9,223,372,036,854,775,807 (the largest a game may compute)",
    ),
    "a range too long for a list": (
        "set n to count([1..200000 + n])",
        "a list of 200,000 items: more than the 100,000 a list may hold",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_rule_stops_the_game_with_the_same_words_on_both_engines(tmp_path: Path, case: str) -> None:
    """One meaning, two engines, for errors too: a rule that breaks stops the game at its
    statement with the same sentence, in the designer's words, on both engines (the Python
    engine once said 'min() arg is an empty sequence' and the core 'min() iterable argument is
    empty'; the Python engine summed past the largest number where the core stopped)."""
    statement, words = BROKEN[case]
    rules = write(tmp_path, "broken.rules", f"{BROKEN_HEAD}play:\n  {statement}\n")
    assert the_same_error(meeple.load(str(rules)), 2) == f"{rules}:9:3: {words} (in play)"


@pytest.mark.parametrize("func", ["min", "max"])
def test_the_extreme_of_one_number_is_refused_before_the_game(tmp_path: Path, func: str) -> None:
    """`min`/`max` of one argument takes a list; of one number (`max(n)`) it is a type error with
    its place, not a game that stops later (the engines disagreed on its words)."""
    rules = write(tmp_path, "one.rules", f"{BROKEN_HEAD}play:\n  set n to {func}(n)\n")
    with pytest.raises(meeple.RulesError, match=rf"one.rules:9:\d+: error: {func} of one argument"):
        meeple.load(str(rules))


def test_a_loop_that_asks_a_value_once_fails_at_its_first_item_as_the_python_engine_does(
    tmp_path: Path,
) -> None:
    """The core asks `far(p)`, the same for every item of the loop, once per loop (once.rs); the
    first item is still tested by the condition as written, so where both the item's own part
    (`[10, 20][5]`) and the value (a minimum of no number) would fail, the error is the item's,
    as on the Python engine, which asks the value only after the item's part."""
    rules = write(
        tmp_path,
        "broken_loop.rules",
        'game "Broken loop":\n  players 2..2\nzone pool\nvar n: int = 0\n'
        "value far(p: player) = min([each y in [1, 2] where y > n + 5])\n"
        "play:\n  for each p in players:\n    for each x in [5, 0] where [10, 20][x] > far(p):\n"
        "      set n to 1\n",
    )
    game = meeple.load(str(rules))
    assert "index out of range" in the_same_error(game, 2)


def test_the_step_budget_holds_in_the_core(tmp_path: Path) -> None:
    rules = write(
        tmp_path,
        "endless.rules",
        'game "Endless":\n  players 1..1\nzone pool\nvar n: int = 0\n'
        "play:\n  while n == 0:\n    set n to 0\n",
    )
    game = meeple.load(str(rules))
    assert "step budget (1000) ran out" in the_same_error(game, 1, budget=1000)


@pytest.mark.parametrize("agent", ["random", "first"])
def test_a_simulation_records_the_same_games_on_both_engines(agent: str) -> None:
    """`meeple simulate` plays inside the core when every seat is random or first: each game's
    record (scores, winners, turns, decisions) is the Python engine's."""
    for seed in range(10):
        python = play_one(connect_four(), Plan("connect_four", 2, (agent,), (), engine="python"), seed)
        core = play_one(connect_four(), Plan("connect_four", 2, (agent,), (), engine="native"), seed)
        assert core == python


def test_play_and_simulate_say_which_engine_played(tmp_path: Path) -> None:
    rules = str(ROOT / "tests" / "games" / "tic_tac_toe.rules")
    result = json.loads(run("play", rules, "--seed", "3", "--json", "--engine", "native").stdout)
    assert result["engine"] == "native" and "python_because" not in result
    chosen = json.loads(run("play", rules, "--seed", "3", "--json").stdout)  # auto: native where it can
    assert chosen["engine"] == "native" and "python_because" not in chosen
    on_python = json.loads(run("play", rules, "--seed", "3", "--json", "--engine", "python").stdout)
    assert (on_python["engine"], on_python["python_because"]) == ("python", "asked for")
    assert chosen["scores"] == on_python["scores"] and chosen["choices"] == on_python["choices"]
    stats = json.loads(run("simulate", rules, "--games", "5", "--json", "--engine", "python").stdout)
    assert (stats["engine"], stats["python_because"]) == ("python", "asked for")
    printed = run("play", rules, "--seed", "3", "--engine", "native")  # the log and the table
    assert printed.exit_code == 0 and "Tic-Tac-Toe: 2 players, seed 3" in printed.output
    sliding = str(write(tmp_path, "sliding.rules", SLIDING))
    other = json.loads(run("play", sliding, "--json").stdout)
    assert other["engine"] == "python"  # and says the first construct that kept it there, and where
    assert re.fullmatch(r"unsupported: .+ at .*sliding\.rules:\d+:\d+", other["python_because"])
    refused = run("play", sliding, "--engine", "native")
    assert refused.exit_code == 2
    assert "the native engine cannot play this game: unsupported:" in refused.output


def test_values_nested_beyond_the_cores_depth_stop_with_an_error_not_a_crash(tmp_path: Path) -> None:
    """The core evaluates values on its own stack: a value nested deeper than MAX_VALUE_DEPTH
    stops the game with a rule's error (docs/language.md#limits), where Python goes deeper."""
    rules = write(
        tmp_path,
        "deep.rules",
        'game "Deep":\n  players 1..1\nzone pool\nvar n: int = 0\n'
        "value down(k: int) = if k == 0 then 0 else down(k - 1)\n"
        "play:\n  set n to down(1500)\n",
    )
    game = meeple.load(str(rules))
    assert game.new_game(1, 0).is_over  # the Python engine counts 1,500 calls, under MAX_RECURSION
    with pytest.raises(RuleRuntimeError, match="more deeply than 1000 levels, the most the native engine"):
        native.new_game(game, 1, 0)


CHANCE = """game "Draws":
  players 2..4
table colour (name, points: int):
  red, 1
  blue, 2
  green, 3
zone deck, ordered
zone pool
zone hand per player
piece card: each colour in deck
piece token: 3 per player in pool
score p = count(pieces(p.hand)) + sum([x.points for each x in pieces(p.hand, card)])
play:
  shuffle deck
  for each p in players_from(players[1]):
    turn p:
      draw 1 from deck to p.hand
      random "coin":
        outcome heads chance 40:
          log "{p} gets heads"
        outcome tails otherwise:
          pick t at random from pieces(pool, token, p):
            move t to p.hand
      may choose c from pieces(p.hand) prompt "Piece to show":
        log "{p} shows {c}"
      may "Put a token back?":
        move 1 token of p from p.hand to pool
      else:
        log "{p} keeps everything"
  draw 5 from deck to pool
"""


def test_chance_draws_and_zones_of_each_player_are_the_same_on_both_engines(tmp_path: Path) -> None:
    """`shuffle`, `draw` (and what it wanted more of than there was), `random` outcomes, `pick ...
    at random`, a `may` question, a zone per player, pieces one per row, `players_from`: the same
    games, every outcome drawn from the same generator in the same order."""
    game = meeple.load(str(write(tmp_path, "draws.rules", CHANCE)))
    assert native.engine_for(game, "auto") == ("native", "")
    outcomes = set()
    for players in (2, 3, 4):
        for seed in range(15):
            python, core = both(game, players, seed)
            assert core == python, f"{players} players, seed {seed}"
            outcomes |= {line.split(":")[1].strip() for line in python["log"] if line.startswith("  (coin")}
        state = native.new_game(game, players, 0, logging=False)
        state.play_out(["first"])
        python_state = game.new_game(players, 0, logging=False)
        played(python_state, make_agents(["first"], players, 0))
        assert state.result() == python_state.result()  # the shortfall of the last draw too
        # each player draws one and the pool five, from three cards
        assert state.result()["shortfalls"]["draw from deck"] == players + 5 - 3
    assert outcomes == {"heads)", "tails)"}  # both outcomes came up


OWNED = """game "Owners":
  players 2..3
table spot (name, base: int, coins: int):
  near, 1, 7
  far, 4, 8
zone pool
var coins: int = 2 per player within 0..5
var heat: int = self.base per spot
var rounds: int = 0 within 0..2
piece token: 2 per player in pool
piece chip: self.base per spot in pool
value richest() = [each p in players where p.coins == max([q.coins for each q in players])]
score p = p.coins
play:
  repeat 4 times:
    add 1 to rounds
    for each p in players:
      turn p:
        choose s from spot prompt "Spot to warm":
          add s.heat to p.coins
          log "{s} warms, {s.coins} coins on it, {count(pieces(pool, s))} chips"
          subtract 1 from s.heat
          if s.heat < 0:
            set s.heat to s.base
        may choose q from richest() prompt "Player to tax":
          subtract 3 from q.coins
          log "{q} pays, and has {q.coins} left; {rounds} rounds"
"""


def test_variables_of_each_owner_kept_within_bounds_are_the_same_on_both_engines(
    tmp_path: Path,
) -> None:
    """`var ... per player`, `per TABLE` (its start from `self`), `within` on both, `set`, `add`
    and `subtract` of an owner's variable, and values that read them as they change; a row's
    column named as another owner's variable is; pieces made `per TABLE`, `self` their row."""
    game = meeple.load(str(write(tmp_path, "owners.rules", OWNED)))
    python = same_on_both_engines(game, 15, counts=(2, 3))
    assert any("0 left" in line for line in python["log"]) and any(
        "2 rounds" in line for line in python["log"]
    )


def test_without_the_core_games_play_on_python_and_the_commands_say_so_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A machine without Rust installs meeple without the core: `auto` plays on Python, `play`
    and `simulate` say why once (on stderr, not in the JSON's place), and `native` is refused."""
    monkeypatch.setattr(native, "_core", None)
    rules = str(ROOT / "tests" / "games" / "tic_tac_toe.rules")
    game = load(ROOT / "tests" / "games" / "tic_tac_toe.rules")
    assert native.engine_for(game, "auto") == ("python", native.NOT_BUILT)
    played_text = run("play", rules, "--seed", "1")
    assert played_text.exit_code == 0
    assert played_text.stderr.count(native.NOT_BUILT) == 1
    stats = json.loads(run("simulate", rules, "--games", "3", "--json").stdout)
    assert (stats["engine"], stats["python_because"]) == ("python", native.NOT_BUILT)
    refused = run("play", rules, "--engine", "native")
    assert refused.exit_code == 2 and native.NOT_BUILT in refused.output


@functools.cache
def tic_tac_toe() -> Game:
    """Tic-tac-toe: built on first use, not at import (each test process imports every file)."""
    return load(ROOT / "tests" / "games" / "tic_tac_toe.rules")


def test_a_searching_player_never_loses_tic_tac_toe_to_a_random_one() -> None:
    """MCTS (1,000 playouts a decision) from either seat: a win or a draw, never a loss."""
    for seed in range(8):
        for seat in (0, 1):
            agents = ["random", "random"]
            agents[seat] = "mcts"
            state = native.new_game(tic_tac_toe(), 2, seed, logging=False)
            state.play_out(agents)
            assert seat in state.winners, f"seed {seed}, searching seat {seat + 1}: {state.choices}"


def test_two_searching_players_draw_tic_tac_toe() -> None:
    for seed in range(3):
        state = native.new_game(tic_tac_toe(), 2, seed, logging=False)
        state.play_out(["mcts"])
        assert state.winners == [0, 1], state.choices


def test_a_search_is_the_same_from_python_and_inside_the_core() -> None:
    """The mcts agent of agents.py and the one play_out runs inside the core seed each search
    alike: the same answers, so a replay of either is exact."""
    for seed in range(3):
        outside = native.new_game(connect_four(), 2, seed)
        played(outside, make_agents(["mcts:50", "random"], 2, seed))
        inside = native.new_game(connect_four(), 2, seed)
        inside.play_out(["mcts:50", "random"])
        assert inside.choices == outside.choices


def test_a_search_needs_the_native_engine(tmp_path: Path) -> None:
    other = load(write(tmp_path, "sliding.rules", SLIDING))
    with pytest.raises(ValueError, match="plays on the native engine only"):
        engine_of(other, ["mcts"], "auto")
    with pytest.raises(ValueError, match="'mcts:2x' is not a search: say mcts, mcts:N"):
        native.new_game(tic_tac_toe(), 2, 0).play_out(["mcts:2x"])
    with pytest.raises(ValueError, match="unknown style 'x' for the search 'mcts:x'"):
        native.new_game(tic_tac_toe(), 2, 0).play_out(["mcts:x"])


# ---------------------------------------------------------------------- grids that grow


@functools.cache
def gods_love_dinosaurs() -> Game:
    """Gods Love Dinosaurs: built on first use, not at import (each test process imports every file)."""
    return load(ROOT / "games" / "gods_love_dinosaurs.rules")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_gods_love_dinosaurs_is_the_same_game_on_both_engines(players: int) -> None:
    """A bundled game on grids that grow: each player's ecosystem laid tile by tile (every way a
    tile fits, turned, in the Python engine's order), predators' and dinosaurs' routes (straight
    lines, backtracking, the occupied hexes passed), the order of the hunts chosen by the player,
    stacks shuffled and drawn, and the game's early end."""
    assert native.engine_for(gods_love_dinosaurs(), "auto") == ("native", "")
    for seed in range(6):
        python, core = both(gods_love_dinosaurs(), players, seed)
        assert core == python, f"{players} players, seed {seed}"


def test_a_variant_of_gods_love_dinosaurs_is_the_same_game_on_both_engines() -> None:
    """tests/variants/tigers_three.rules: tigers reach 3 hexes, a movement's steps from the table."""
    game = load(ROOT / "tests" / "variants" / "tigers_three.rules")
    same_on_both_engines(game, 3)


@functools.cache
def dino_garden(name: str) -> Game:
    """A Dino Garden file, loaded once, when a test first plays it."""
    return load(ROOT / "games" / f"{name}.rules")


# Each Dino Garden file at each of its player counts.
DINO_GARDEN_SEATS = [("dino_garden", 3), ("dino_garden", 4), ("dino_garden_2p", 2), ("dino_garden_solo", 1)]


@pytest.mark.parametrize(("name", "players"), DINO_GARDEN_SEATS)
def test_dino_garden_is_the_same_game_on_both_engines(name: str, players: int) -> None:
    """A bundled game and its two variants: free actions offered beside every decision of a turn
    and of a player's carnivores eating (`offer`), maps of nodes (the tracks, the parks' areas,
    the Wasteland), zones and variables per row of a table, pieces made per row, chips drawn
    from a shuffled bag, the order of the carnivores chosen by the player."""
    game = dino_garden(name)
    assert native.engine_for(game, "auto") == ("native", "")
    free_actions = 0
    for seed in range(6):
        python, core = both(game, players, seed)
        assert "error" not in python and core == python, f"{name}, {players} players, seed {seed}"
        free_actions += sum(line.endswith(": free action") for line in python["log"])
    assert free_actions > 0  # the offered action was taken


@pytest.mark.parametrize("agent", ["random", "first"])
def test_a_dino_garden_game_played_inside_the_core_is_the_python_agents_game(agent: str) -> None:
    for name, players in DINO_GARDEN_SEATS:
        for seed in range(2):
            python, core = played_out_both(dino_garden(name), players, seed, agent)
            assert core.is_over and outcome(core) == outcome(python), (
                f"{name}, {players} players, seed {seed}"
            )


def test_the_core_lays_out_the_zones_of_the_seats_a_game_can_have_only() -> None:
    """The Program makes each zone a player has for every seat a game could ever have
    (MAX_SEATS): the core lays out those of the game's most players alone, each an empty place
    in every game otherwise (Dino Garden's nine zones per player: 36 places, not 576)."""
    lowered, _ = native.lowered(dino_garden("dino_garden"))
    owners = {zone.owner.seat for zone in lowered.zones.values() if isinstance(zone.owner, Player)}
    assert owners == {0, 1, 2, 3}


def test_a_copied_dino_garden_state_plays_on_alone() -> None:
    """A copy taken at every decision of a game, inside offered actions too, ends as the
    original does when given the same answers."""
    game = dino_garden("dino_garden")
    whole = native.new_game(game, 3, 5)
    whole.play_out(["random"])
    state = native.new_game(game, 3, 5)
    for index, choice in enumerate(whole.choices):
        if index % 7 == 0:
            copy = state.clone()
            assert copy.core == state.core and hash(copy.core) == hash(state.core)
            for later in whole.choices[index:]:
                copy.apply(later)
            assert (copy.log, copy.scores) == (whole.log, whole.scores)
        state.apply(choice)


SQUARES = """game "Squares":
  players 2..3
table ground (name, wet: bool):
  stone, no
  moss, yes
table shape (name):
  seed
  pair
  bend
table square (shape: shape, q: int, r: int, ground: ground):
  seed, 0, 0, stone
  pair, 0, 0, moss
  pair, 1, 0, moss
  bend, 0, 0, moss
  bend, 1, 0, stone
  bend, 0, 1, moss
map garden per player:
  grid square of square
zone pool
piece snail: 4 per player in pool
movement crawl():
  steps 0 .. 3
  backtracks yes
  through c where c.ground.wet
  ends c where count(pieces(c)) == 0 or c == start
value part(s: shape) = [each h in square where h.shape == s]
rule lay(p: player, s: shape):
  choose spot from placements(p.garden, part(s)) by p prompt "Lay":
    place part(s) on p.garden at spot
    log "{p} lays at {spot.x},{spot.y} turned {spot.turns}, over {count(spot.cells)} squares"
play:
  for each p in players:
    place part(seed) on p.garden
    move 1 snail of p from pool to cell(p.garden, 0, 0)
  repeat 3 times:
    for each p in players:
      turn p:
        lay(p, pair)
        lay(p, bend)
        if count(pieces(pool, snail, p)) > 0:
          choose c from [each c in cells(p.garden) where count(pieces(c)) == 0] prompt "Drop":
            move 1 snail of p from pool to c
        for each c in cells(p.garden) where count(pieces(c)) > 0 chosen by p:
          may choose r from routes(c, crawl) prompt "Crawl":
            log "{p} crawls {r} in {r.steps} steps past {count(r.passed)}"
            move pieces(c) to r.end
value snug(c: any) = c.ground.wet and count(pieces(c)) > 0
score p = count(cells(p.garden)) + count([each c in cells(p.garden) where snug(c)])
"""


@pytest.mark.parametrize("rules", ["hunt", "squares"])
def test_grids_that_grow_placements_and_routes_are_the_same_on_both_engines(
    rules: str, tmp_path: Path
) -> None:
    """Neutral games: a hex grid per player that grows (tests/grids/hunt.rules: straight hunts
    that end on prey) and a square one (turns of a symmetric shape offered once, routes that may
    stay, backtrack and pass pieces, a loop whose order the player chooses, a placement's and a
    route's attributes in the log)."""
    path = ROOT / "tests" / "grids" / "hunt.rules" if rules == "hunt" else write(tmp_path, "s.rules", SQUARES)
    game = load(path)
    same_on_both_engines(game, 10)


def test_blocks_areas_borders_and_steps_between_areas_are_the_same_on_both_engines() -> None:
    """tests/grids/quads.rules: square tiles laid on a grid of 2 x 2 blocks (free blocks beside
    taken ones, turns about a block's centre that look different, matching `borders`), areas of
    like quarters across tiles (their cells, first cell, blocks and gaps, their pieces) and a
    movement whose `step` goes from area to area (`next_to`)."""
    game = load(ROOT / "tests" / "grids" / "quads.rules")
    same_on_both_engines(game, 10)


SLABS = """game "Slabs":
  players 2
table ground (name):
  stone
  moss
table shape (name):
  slab
  strip
table square (shape: shape, q: int, r: int, ground: ground):
  slab, 0, 0, stone
  slab, 1, 0, stone
  slab, 2, 0, stone
  slab, 0, 1, stone
  slab, 1, 1, moss
  slab, 2, 1, stone
  strip, 0, 0, stone
  strip, 1, 0, stone
  strip, 2, 0, moss
map yard per player:
  grid square of square
value part(s: shape) = [each h in square where h.shape == s]
play:
  for each p in players:
    place part(slab) on p.yard
    turn p:
      choose spot from placements(p.yard, part(strip)) by p prompt "Lay":
        place part(strip) on p.yard at spot
      for each a in areas(p.yard, ground):
        log "{p}: {a.ground} {[[c.q, c.r] for each c in a.cells]}"
"""


def test_an_areas_cells_are_in_reading_order_on_both_engines(tmp_path: Path) -> None:
    """An area's cells, north to south and then west to east, whatever way joining them found
    them (a ring of stone three squares wide round a square of moss, a strip laid beside it)."""
    same_on_both_engines(load(write(tmp_path, "slabs.rules", SLABS)), 6)


def test_a_gods_love_dinosaurs_game_played_inside_the_core_is_the_python_agents_game() -> None:
    for seed in range(3):
        python, core = played_out_both(gods_love_dinosaurs(), 3, seed, "random")
        assert outcome(core) == outcome(python)


def test_a_copied_state_with_grown_grids_plays_on_alone() -> None:
    """A copy taken mid-game (grids grown, routes to come) is equal to its original until one
    moves on; each lays its own cells, and the same choices end both the same."""
    state = native.new_game(gods_love_dinosaurs(), 3, 1)
    for _ in range(12):
        state.apply(0)
    copy = state.clone()
    assert copy.core == state.core and hash(copy.core) == hash(state.core)
    copy.apply(state.decision.size - 1)
    assert copy.core != state.core
    state.apply(state.decision.size - 1)
    assert copy.core == state.core
    copy.play_out(["first"])
    state.play_out(["first"])
    assert (copy.log, copy.winners) == (state.log, state.winners)


def test_a_shape_laid_over_cells_already_there_is_the_same_error_on_both_engines(tmp_path: Path) -> None:
    """Bad rules stop with the rule's error, word for word, never a crash of the core."""
    rules = write(
        tmp_path,
        "twice.rules",
        SQUARES.replace(
            "    place part(seed) on p.garden\n",
            "    place part(seed) on p.garden\n    place part(seed) on p.garden\n",
        ),
    )
    game = meeple.load(str(rules))
    assert "the shape would cover cells of garden of Player 1 already there" in the_same_error(game, 2)


def test_a_question_the_core_answers_of_boards_only_keeps_a_growing_game_on_python(tmp_path: Path) -> None:
    rules = write(
        tmp_path,
        "far.rules",
        SQUARES.replace("score p = ", "score p = distance(cell(p.garden, 0, 0), cell(p.garden, 0, 0)) + "),
    )
    engine, why = native.engine_for(meeple.load(str(rules)), "auto")
    assert engine == "python"
    assert why.startswith("unsupported: distance(...) in a game with a grid that grows at ")


# ---------------------------------------------------------------------- Dino Dynasty's constructs


TRACKS = """game "Tracks":
  players 2..3
table track (name, step: int):
  speed, 2
  power, 1
table post (name):
  north
  south
table badge (name, worth: int):
  star, 3
  moon, 1
var marker: int = 1 per player, track within 0..4
var pinned: badge? = none per player, track
var guard: int = 0 per post, track
value badges(p: player) = [p.pinned[t] for each t in track where p.pinned[t] != none]
score p = p.marker[speed] + 2 * p.marker[power] + sum([b.worth for each b in badges(p)])
play:
  repeat 3 times:
    for each p in players:
      turn p:
        choose t from track prompt "Track to climb":
          add t.step to p.marker[t]
          log "{p} climbs {t} to {p.marker[t]}"
        may choose t from [each t in track where p.pinned[t] == none] prompt "Track to pin":
          choose b from badge prompt "Badge to pin":
            set p.pinned[t] to b
        choose g from post prompt "Post to guard":
          subtract p.marker[speed] from g.guard[power]
          log "{g} guards power at {g.guard[power]}"
"""


def test_variables_with_a_value_for_each_row_are_the_same_on_both_engines(tmp_path: Path) -> None:
    """`var NAME: T = E per player, TABLE` (and per a table's rows, TABLE): each owner's value for
    each row, read `OWNER.NAME[ROW]`, set, added to and subtracted from by row, `within` holding
    each value (tests/test_per_row_vars.py says what they mean)."""
    game = meeple.load(str(write(tmp_path, "tracks.rules", TRACKS)))
    python = same_on_both_engines(game, 12, counts=(2, 3))
    assert any("to 4" in line for line in python["log"])  # the bound held


PILES = """game "Piles":
  players 2..3
table colour (name, worth: int, size: int):
  red, 2, 1
  blue, 3, 2
  green, 3, 3
  white, 1, 1
zone deck, ordered
zone tray, ordered
zone hand per player
piece card: 2 per colour in deck
piece stone: 2 per player in tray
value order() = [each c in colour ranked by c.worth, -c.size]
value heavy(p: player) = [each x in pieces(p.hand, card) where x.row.size > 1 ranked by x.row.worth]
value all_hands() = flat([pieces(p.hand) for each p in players])
score p = sum([x.row.worth for each x in pieces(p.hand, card)]) + count(heavy(p))
play:
  shuffle deck
  repeat 3 times:
    for each p in players:
      turn p:
        draw 2 from deck to p.hand
        choose x from pieces(p.hand, card) prompt "Card to tuck under the deck":
          move x to bottom(deck)
        choose c from order() prompt "Colour to bury":
          move 1 card c from deck to bottom(tray)
        may "Draw from the bottom of the tray?":
          move 1 stone of p from tray to bottom(p.hand)
          draw 1 from tray to bottom(p.hand)
        log "{p} holds {heavy(p)}; {count(all_hands())} in hands; the tray starts {pieces(tray)[0]}"
"""


def test_bottoms_ranked_lists_and_flat_lists_are_the_same_on_both_engines(tmp_path: Path) -> None:
    """`move` (of pieces named, and of a count) and `draw` to `bottom(PLACE)` (tests/test_bottom.py),
    a list `ranked by` two keys, one negated, ties in the list's order (tests/test_ranked.py), and
    `flat(LISTS)`."""
    game = meeple.load(str(write(tmp_path, "piles.rules", PILES)))
    same_on_both_engines(game, 12, counts=(2, 3))


FLOODS = """game "Floods":
  players 2..3
table ground (name, wet: bool):
  grass, no
  sea, yes
  ash, no
table kind (name):
  land
  flood
  burnt
table quarter (kind: kind, q: int, r: int, ground: ground):
  land, 0, 0, grass
  land, 1, 0, grass
  land, 1, 1, ash
  land, 0, 1, grass
  flood, 0, 0, sea
  flood, 1, 0, sea
  flood, 1, 1, sea
  flood, 0, 1, grass
  burnt, 0, 0, ash
  burnt, 1, 0, ash
  burnt, 1, 1, ash
  burnt, 0, 1, ash
map world:
  grid square blocks 2 of quarter
zone pool
piece stone: 2 per player in pool
value shape(k: kind) = [each c in quarter where c.kind == k]
value dry(a) = not a.ground.wet
value wet_after(s) = as_if_laid(s, count([each a in areas(world, ground) where a.ground.wet]))
value areas_after(s) = as_if_laid(s, count(areas(world, ground)))
value few(s) = areas_after(s) <= count(areas(world, ground)) + 1
value floodable() = [each b in tops() where b.under == none and b.shape[0].kind == land]
value liftable() = [each b in tops() where b.under != none and count(pieces(b.cells)) == 0]
value tops() = [block(world, b.x, b.y) for each b in flat([a.blocks for each a in areas(world, ground)])]
score p = count([each c in cells(world) where count(pieces(c, stone, p)) > 0 and dry(area(c, ground))])
setup:
  place shape(land) on world
play:
  repeat 4 times:
    for each p in players:
      turn p:
        choose s from placements(world, shape(land)) where few(s) prompt "Where does the land go?":
          log "{p} lays land: {areas_after(s)} areas, {wet_after(s)} wet"
          place shape(land) on world at s
        may choose b from floodable() prompt "Flood a tile?":
          choose k from [flood, burnt] prompt "With what?":
            place shape(k) on world at placement(world, shape(k), b.x, b.y, b.turns) over
            log "{p} covers {b}: {count(areas(world, ground))} areas, {cells(world)[0].placed} first"
        may choose b from liftable() prompt "Lift a cover?":
          lift b
          log "{p} lifts it: {block(world, b.x, b.y)} shows again"
        if count(pieces(pool, stone, p)) > 0:
          choose c from [each c in cells(world) where count(pieces(c)) == 0] prompt "Where does a stone go?":
            move 1 stone of p from pool to c
"""


def test_layers_laid_over_lifted_and_supposed_are_the_same_on_both_engines(tmp_path: Path) -> None:
    """`place ... over` (a layer over cells that are there), `lift` (the top layer off, what lay
    under showing again), a placement's `under`, a cell's `placed`, `block(GRID, X, Y)`, and
    `as_if_laid` (a question asked of the grid as if a tile were laid, then as it was):
    tests/test_square_grids.py says what they mean."""
    game = meeple.load(str(write(tmp_path, "floods.rules", FLOODS)))
    assert native.engine_for(game, "auto") == ("native", "")
    lifted = covered = 0
    for players in (2, 3):
        for seed in range(10):
            python, core = both(game, players, seed)
            assert core == python, f"{players} players, seed {seed}"
            lifted += sum(" lifts it" in line for line in python["log"])
            covered += sum(" covers " in line for line in python["log"])
    assert lifted and covered  # both happened


NEIGHBOURHOODS = (
    FLOODS.split("map world:")[0]
    + """map world:
  grid square blocks 2 of quarter
value shape(k: kind) = [each c in quarter where c.kind == k]
value shows(c) = c.ground
value around(c) = count(neighbours(c))
value first() = cells(world)[0]
value first_tile() = [block(world, c.x, c.y) for each c in [first().placed]]
setup:
  place shape(land) on world
play:
  repeat 5 times:
    for each p in players:
      turn p:
        choose s from placements(world, shape(land)) prompt "Where does the land go?":
          place shape(land) on world at s
        may choose b from first_tile() prompt "Cover the first tile?":
          choose k from [flood, burnt] prompt "With what?":
            place shape(k) on world at placement(world, shape(k), b.x, b.y, b.turns) over
        log "{p}: the first cell shows {shows(first())}, with {around(first())} cells beside it"
"""
)


def test_an_answer_about_a_few_places_of_a_grid_holds_until_a_shape_is_laid_there(tmp_path: Path) -> None:
    """What a cell shows and which cells lie beside it are asked of its block alone
    (`Part::Place`): an answer holds while land is laid elsewhere, and is found again when a
    tile is laid beside the cell or a layer over it. Played inside the core, whose memo keeps
    every answer between decisions."""
    game = meeple.load(str(write(tmp_path, "neighbourhoods.rules", NEIGHBOURHOODS)))
    assert native.engine_for(game, "auto") == ("native", "")
    seen: set[str] = set()
    for players in (2, 3):
        for seed in range(8):
            python, core = played_out_both(game, players, seed, "random")
            assert outcome(core) == outcome(python), f"{players} players, seed {seed}"
            seen.update(line.split(": ", 1)[1] for line in python.log if "the first cell shows" in line)
    # The first cell was seen covered one way and another, with more and fewer cells beside it.
    assert {line.split()[4].rstrip(",") for line in seen} == {"grass", "sea", "ash"}
    assert len({line.split("with ")[1] for line in seen}) > 1


@functools.cache
def dino_dynasty(scenario: str) -> Game:
    """Dino Dynasty at one Map size, loaded once (its tables take a few seconds to read)."""
    return load(ROOT / "games" / "dino_dynasty.rules", scenario=scenario)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dino_dynasty_is_the_same_game_on_both_engines(players: int) -> None:
    """A bundled game on a Map of square tiles of 4 quadrants (a grid laid in 2 x 2 blocks):
    Biomes as areas of one Biome type across tiles, Herds moving from area to area (a movement's
    `step`, Long Legs' 2 steps, diagonal and cross-Water steps), tiles matched by their borders and
    supposed laid (`as_if_laid`) to see whether a Herd could reach them, Event tiles laid over the
    Map and lifted off it, the Dino board's markers (a value per marker for each player), piles
    dealt to the bottom, and Challenge cards ranked. Scenario A (a 4 x 4 Map) keeps it quick;
    the standard size is below, in the soak."""
    game = dino_dynasty("A")
    assert native.engine_for(game, "auto") == ("native", "")
    python, core = both(game, players, players)
    assert core == python, f"{players} players, seed {players}"


@pytest.mark.soak  # whole games at every Map size: CI runs it, `-m soak` here
@pytest.mark.parametrize("scenario", ["A", "B", "C", "D", "E"])
def test_dino_dynasty_is_the_same_game_on_both_engines_at_every_map_size(scenario: str) -> None:
    game = dino_dynasty(scenario)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(4):
            python, core = both(game, players, seed)
            assert core == python, f"scenario {scenario}, {players} players, seed {seed}"
    for seed in range(3):
        python_state, core_state = played_out_both(game, 4, seed, "random")
        assert outcome(core_state) == outcome(python_state)


FLOOD_OVER = "    place shape(flood) on world at placement(world, shape(flood), 0, 0, 0) over\n"


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        (f"    let bottom = block(world, 0, 0)\n{FLOOD_OVER}    lift bottom\n", "not the top layer"),
        ("    move 1 stone from pool to cell(world, 1, 1)\n    lift block(world, 0, 0)\n", "move them first"),
        (FLOOD_OVER.replace("0, 0, 0", "1, 0, 0"), "some are not"),
        ("    place shape(land) on world at placement(world, shape(land), 0, 0, 0)\n", "already there"),
    ],
)
def test_a_layer_refused_is_the_same_error_on_both_engines(tmp_path: Path, setup: str, said: str) -> None:
    """Lifting a layer not on top, or from under pieces, laying one over cells not all there, or
    new cells over old ones: the rule's error, word for word, on both engines, never a crash."""
    rules = FLOODS[: FLOODS.index("score p")] + "setup:\n    place shape(land) on world\n" + setup
    rules += 'play:\n  log "nothing"\n'
    game = meeple.load(str(write(tmp_path, "refused.rules", rules)))
    assert said in the_same_error(game, 2)
