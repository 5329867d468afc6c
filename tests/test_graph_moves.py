"""Movement over any graph: `routes` walks a table map's edges, or whatever a movement's
`step NAME to PLACES` line computes, with the same search as on a grid (one route per end and set
of occupied places passed, shortest first). Each test uses one small neutral game: five spots
joined in a ring of two ways round, rocks that block, and spots that can be shut."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import ask, ring_map
from pygments.token import Keyword

import meeple
from meeple import Diagnostic
from meeple.codegen.english import English
from meeple.codegen.lexer import MeepleLexer
from meeple.codegen.markup import plain
from meeple.grammar import ast
from meeple.grammar.parser import parse
from meeple.interpreter.runtime import RuleRuntimeError

# a - b - c
# |       |
# e ----- d
PATHS = (
    """\
game "Paths":
  players 1..1

"""
    + ring_map()
    + """\

var shut: bool = no per spot

zone box
piece runner: 1 in box
piece rock: 3 in box

movement walk(n: int):
  steps 1 .. n
  through s where count(pieces(s)) == 0
  ends s where count(pieces(s, runner)) == 0

movement hop(n: int):
  steps 1 .. n
  step s to open_next(s)

movement count_up(n: int):
  steps 1 .. n
  step k to [each j in [k + 1, k + 2] where j <= 4]

value open_next(s: spot) = [each x in neighbours(s) where not x.shut and count(pieces(x, rock)) == 0]
value here() = [each s in spot where count(pieces(s, runner)) > 0][0]
value walks(origin: spot, n: int) = routes(origin, walk, n)
value hops(origin: spot, n: int) = routes(origin, hop, n)
value hop_routes() = hops(here(), 3)
value closest(origin: spot, to: spot) = min([r.steps for each r in routes(origin, hop, 5) where r.end == to])
value ups() = routes(0, count_up, 3)
value up_ends() = [r.end + 0 for each r in routes(0, count_up, 3)]

play:
  move 1 runner from box to a
  for each p in players:
    turn p:
      may choose r from hop_routes() by p prompt "Look":
        log "{r}"
      choose s from [each s in spot where s != a] by p prompt "Shut":
        set s.shut to yes
      may choose r from hop_routes() by p prompt "Look again":
        log "{r}"
      choose s from [each s in spot where s != a] by p prompt "Block":
        move 1 rock from box to s
      may choose r from hop_routes() by p prompt "Go":
        move pieces(r.start, runner) to r.end
      may choose r from hop_routes() by p prompt "Look from there":
        log "{r}"
"""
)

# From a, breadth first and in the order of the edges: b and e, then c past b and d past e; and
# the same without b: the long way round to c.
FROM_A = ["from a to b", "from a to e", "from a to c via b", "from a to d via e"]
FROM_A_WITHOUT_B = ["from a to e", "from a to d via e", "from a to c via e, d"]


def load(tmp_path: Path, source: str = PATHS) -> meeple.Game:
    path = tmp_path / "paths.rules"
    path.write_text(source, encoding="utf-8")
    return meeple.load(path)


def spot(state: meeple.State, name: str) -> Any:
    return state.game.program.row("spot", name)


def spoken(state: meeple.State, value: str, *args: Any) -> list[str]:
    """The routes a value gives, as players read them."""
    return [str(r) for r in ask(state, value, *args)]


def answer(state: meeple.State, option: str) -> None:
    decision = state.decision
    assert decision is not None
    state.apply(decision.options.index(option))


def started(tmp_path: Path, source: str = PATHS) -> meeple.State:
    return load(tmp_path, source).new_game(1, seed=1)


def diagnostics(tmp_path: Path, source: str) -> list[Diagnostic]:
    path = tmp_path / "paths.rules"
    path.write_text(source, encoding="utf-8")
    return meeple.check(path).diagnostics


def the_error(diags: list[Diagnostic], code: str, text: str) -> Diagnostic:
    found = [d for d in diags if d.code == code and d.severity == "error" and text in d.message]
    assert len(found) == 1, [(d.code, d.message) for d in diags]
    return found[0]


def at(source: str, needle: str) -> tuple[int, int]:
    """1-based (line, column) of `needle` in `source`."""
    index = source.index(needle)
    return source.count("\n", 0, index) + 1, index - (source.rfind("\n", 0, index) + 1) + 1


# ===================================================================== the line


def test_a_step_line_names_the_place_and_the_list_of_next_places() -> None:
    source = "movement go(n: int):\n  steps 1 .. n\n  step here to next_of(here)\n  ends x where yes\n"
    [go] = parse(source).decls
    assert isinstance(go, ast.MovementDecl)
    assert go.step_var == "here"
    assert isinstance(go.step, ast.Call) and go.step.func == "next_of"
    assert (go.step.span.line, go.step.span.column) == at(source, "next_of")


def test_the_step_line_is_highlighted_as_a_keyword() -> None:
    tokens = list(MeepleLexer().get_tokens("movement go():\n  step a to [a]\n"))
    assert (Keyword, "step") in tokens and (Keyword, "to") in tokens


# ===================================================================== a table map's own edges


def test_routes_on_a_table_map_follow_its_edges_without_a_step_line(tmp_path: Path) -> None:
    state = started(tmp_path)
    assert spoken(state, "walks", spot(state, "a"), 2) == FROM_A


def test_through_and_ends_hold_on_table_map_nodes(tmp_path: Path) -> None:
    """A rock on b: it may not be passed (walk's `through`), so c is reached only the other way
    round; the runner's own spot is never an end (walk's `ends`), not even coming back to it."""
    state = started(tmp_path)
    rt, b = state.rt, state.game.program.row("spot", "b")
    rt.locs[b].append((state.game.program.kinds["rock"][0], None))
    rt.forget()
    assert spoken(state, "walks", spot(state, "a"), 3) == [
        "from a to b",
        "from a to e",
        "from a to d via e",
        "from a to c via e, d",
    ]


def test_a_straight_line_needs_a_grid(tmp_path: Path) -> None:
    source = PATHS.replace("  through s where count(pieces(s)) == 0\n", "  straight yes\n", 1)
    diag = the_error(diagnostics(tmp_path, source), "M014", "the edges of a table map have none")
    assert (diag.line, diag.column) == at(source, "origin, walk")
    assert diag.message == "a straight line follows a grid's directions: the edges of a table map have none"


# ===================================================================== a `step` line


def test_a_step_line_says_where_one_step_goes(tmp_path: Path) -> None:
    """hop steps only to spots that are neither shut nor blocked: shut b and the way round by b
    is gone."""
    state = started(tmp_path)
    assert spoken(state, "hops", spot(state, "a"), 2) == FROM_A
    b = state.game.program.row("spot", "b")
    state.rt.owned[("spot", "shut")][b] = True
    state.rt.forget()
    assert spoken(state, "hops", spot(state, "a"), 3) == FROM_A_WITHOUT_B


def test_a_step_line_may_reach_any_value(tmp_path: Path) -> None:
    """The places need not be a map's: here numbers, one step adding 1 or 2, never past 4; the
    route is distinct by its end, and shortest."""
    state = started(tmp_path)
    assert spoken(state, "ups") == ["from 0 to 1", "from 0 to 2", "from 0 to 3 via 1", "from 0 to 4 via 2"]
    assert ask(state, "up_ends") == [1, 2, 3, 4]


def test_steps_of_a_route_are_the_distance_on_the_graph(tmp_path: Path) -> None:
    """`min([r.steps for each r in routes(...) where ...])`: the fewest steps to a place."""
    state = started(tmp_path)
    program = state.game.program
    spots = {name: program.row("spot", name) for name in "abcde"}
    assert {name: ask(state, "closest", spots["a"], row) for name, row in spots.items() if name != "a"} == {
        "b": 1,
        "c": 2,
        "d": 2,
        "e": 1,
    }
    state.rt.owned[("spot", "shut")][spots["b"]] = True
    state.rt.forget()
    assert ask(state, "closest", spots["a"], spots["c"]) == 3


def test_a_step_line_that_gives_no_list_is_a_located_runtime_error(tmp_path: Path) -> None:
    source = PATHS.replace("  step s to open_next(s)\n", "  step s to odd(s)\n").replace(
        "value here()", "value odd(s) = if s == a then 7 else []\nvalue here()"
    )
    game = load(tmp_path, source)
    with pytest.raises(RuleRuntimeError) as err:
        game.new_game(1, seed=1)  # the first decision lists hop's routes
    assert err.value.message == "a 'step' line lists the places one step reaches, not a number"
    assert err.value.span is not None
    assert (err.value.span.line, err.value.span.column) == at(source, "odd(s)\n")
    assert err.value.rule == "movement hop"


def test_a_step_line_that_lists_lists_is_a_located_runtime_error(tmp_path: Path) -> None:
    source = PATHS.replace("  step s to open_next(s)\n", "  step s to nested(s)\n").replace(
        "value here()", "value nested(s) = [[s]]\nvalue here()"
    )
    game = load(tmp_path, source)
    with pytest.raises(RuleRuntimeError) as err:
        game.new_game(1, seed=1)
    assert err.value.message == "a 'step' line lists places, not lists of them"
    assert err.value.span is not None
    assert (err.value.span.line, err.value.span.column) == at(source, "nested(s)\n")


def test_a_route_without_a_step_line_from_no_place_is_a_located_runtime_error(tmp_path: Path) -> None:
    """The checker cannot tell what a value gives; the route refuses it when the game runs."""
    source = PATHS.replace(
        "value here()", "value three() = 3\nvalue lost() = routes(three(), walk, 1)\nvalue here()"
    )
    state = started(tmp_path, source)
    with pytest.raises(RuleRuntimeError) as err:
        ask(state, "lost")
    refused = "routes start on a grid cell or a node of a table map, not on a number"
    assert err.value.message.startswith(refused)
    assert err.value.span is not None
    assert (err.value.span.line, err.value.span.column) == at(source, "routes(three()")


def test_the_step_line_is_asked_once_per_place_in_one_search(tmp_path: Path) -> None:
    """The graph does not change while routes are searched: each place's next places are
    computed once, however many paths reach it (here with backtracking: many)."""
    source = PATHS.replace("  step s to open_next(s)\n", "  backtracks yes\n  step s to neighbours(s)\n")
    game = load(tmp_path, source)
    state = game.new_game(1, seed=1)
    hop = game.program.movements["hop"]
    step, asked = hop.step, []
    assert step is not None

    def counting(rt: Any, env: dict[str, Any]) -> Any:
        asked.append(str(env["s"]))
        return step(rt, env)

    hop.step = counting
    assert len(ask(state, "hops", spot(state, "a"), 4)) == 5
    assert sorted(asked) == ["a", "b", "c", "d", "e"]


# ===================================================================== remembered answers


def test_a_value_calling_routes_follows_what_the_step_line_reads(tmp_path: Path) -> None:
    """hop_routes() is remembered between decisions; shutting a spot (a variable only the step
    line reads), putting a rock on one (pieces only the step line counts) and moving the runner
    each change what it gives."""
    state = started(tmp_path)
    assert state.decision is not None
    assert state.decision.options == [*FROM_A, "pass"]
    answer(state, "from a to b")
    answer(state, "b")  # shut b
    assert state.decision.options == [*FROM_A_WITHOUT_B, "pass"]
    answer(state, "from a to e")
    answer(state, "c")  # a rock on c
    assert state.decision.options == ["from a to e", "from a to d via e", "pass"]
    answer(state, "from a to d via e")  # the runner goes to d
    assert state.decision.options == ["from d to e", "from d to a via e", "pass"]


def test_no_remembered_route_is_stale_after_any_decision(tmp_path: Path) -> None:
    """After every decision of random games, each remembered answer is what the value gives when
    computed afresh."""
    game = load(tmp_path)
    for seed in range(8):
        state = game.new_game(1, seed=seed)
        rnd = random.Random(seed)
        while not state.is_over:
            decision = state.decision
            assert decision is not None
            state.apply(rnd.randrange(decision.size))
            for key, remembered in list(state.rt.memo.items()):
                name, *args = key
                params, fn = game.program.values[name]
                again = fn(state.rt, dict(zip(params, args, strict=True)))
                assert repr(again) == repr(remembered), key  # routes are new objects: compare words


# ===================================================================== check time


def test_a_straight_line_and_a_step_line_do_not_go_together(tmp_path: Path) -> None:
    source = PATHS.replace("  step s to open_next(s)\n", "  straight yes\n  step s to open_next(s)\n")
    diag = the_error(diagnostics(tmp_path, source), "M014", "straight line")
    assert (diag.line, diag.column) == at(source, "yes\n  step")
    assert (
        diag.message
        == "a straight line follows a grid's directions: the places a 'step' line lists have none"
    )


def test_a_route_without_a_step_line_starts_on_a_cell_or_a_node(tmp_path: Path) -> None:
    source = PATHS.replace("value here()", "value lost() = routes(3, walk, 1)\nvalue here()")
    diag = the_error(diagnostics(tmp_path, source), "M014", "a route starts on")
    assert (diag.line, diag.column) == at(source, "3, walk")
    assert diag.message == "a route starts on a cell of a grid map or a node of a table map"
    assert "step NAME to PLACES" in diag.hint


def test_a_route_with_a_step_line_may_start_anywhere(tmp_path: Path) -> None:
    source = PATHS.replace("value here()", "value numbered() = routes(3, count_up, 1)\nvalue here()")
    assert not [d for d in diagnostics(tmp_path, source) if d.code == "M014"]


def test_a_route_starts_on_one_place_not_a_list(tmp_path: Path) -> None:
    source = PATHS.replace("value here()", "value many() = routes(ring, hop, 1)\nvalue here()")
    diag = the_error(diagnostics(tmp_path, source), "M014", "one place")
    assert (diag.line, diag.column) == at(source, "ring, hop")
    assert diag.message == "a route starts on one place, not on a list"


def test_the_step_line_sees_its_place_as_what_routes_start_on(tmp_path: Path) -> None:
    """Every routes(...) of hop starts on a spot: in the step line `s` is a spot, whose
    attributes are known."""
    source = PATHS.replace("  step s to open_next(s)\n", "  step s to s.nxet\n")
    diags = diagnostics(tmp_path, source)
    [diag] = [d for d in diags if d.code == "M013"]
    assert (diag.line, diag.column) == at(source, "s.nxet")
    assert diag.message == "a row of 'spot' has no 'nxet'"


def test_the_step_line_lists_places(tmp_path: Path) -> None:
    source = PATHS.replace("  step s to open_next(s)\n", "  step s to count(neighbours(s))\n")
    diag = the_error(diagnostics(tmp_path, source), "M014", "'step' line")
    assert (diag.line, diag.column) == at(source, "count(neighbours(s))")
    assert diag.message == "a 'step' line (the places one step reaches) must be a list, not a number"


def test_the_step_line_lists_places_like_the_start(tmp_path: Path) -> None:
    source = PATHS.replace("  step s to open_next(s)\n", "  step s to [1, 2]\n")
    diag = the_error(diagnostics(tmp_path, source), "M014", "same kind")
    assert (diag.line, diag.column) == at(source, "[1, 2]")
    assert (
        diag.message == "a step from a row of 'spot' reaches places of the same kind, not a list of numbers"
    )


def test_the_paths_game_checks_clean(tmp_path: Path) -> None:
    assert [d for d in diagnostics(tmp_path, PATHS) if d.severity == "error"] == []


# ===================================================================== in words


def test_the_step_line_is_said_in_words(tmp_path: Path) -> None:
    """The designer's reference says each line of a movement; the step line too."""
    path = tmp_path / "paths.rules"
    path.write_text(PATHS, encoding="utf-8")
    checked = meeple.check(path)
    assert checked.module is not None
    [hop] = [d for d in checked.module.decls if isinstance(d, ast.MovementDecl) and d.name == "hop"]
    assert plain(English(checked.symbols).say(hop)) == (
        "hop for n (a number), up to 1 to n steps, each step going from a s to open next of s"
    )
