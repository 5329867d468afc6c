"""Counts that do not add up: setup run for every allowed player count (M044, M045, M060).

Pieces are never created, so a rulebook's component counts are facts the engine keeps; a setup
that deals more than there are moves what there is and records a shortfall. Running setup for
each player count the header allows (seed 0, random agents for any decision) finds the counts
for which the components do not suffice, and the player counts for which setup breaks. Coverage
of those runs also shows setup statements that run for no player count at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.checks.driving import Run, drive
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.checks.walk import Site, site_index
from meeple.interpreter.engine import Game
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.limits import MAX_SEATS

# Seeds tried before a setup statement is called unrun: chance may pick what it serves.
UNRUN_SEEDS = 5


def player_counts(game: Game) -> range:
    """The player counts the header allows, as far as the engine has seats."""
    return range(game.min_players, min(game.max_players, MAX_SEATS) + 1)


def counts_text(counts: list[int]) -> str:
    """`2`, `2 and 3`, `2, 3 and 5`."""
    words = [str(c) for c in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def wanted(what: str) -> str:
    """A shortfall as the runtime names it (a kind of piece, or `draw from ZONE`), in words."""
    if what.startswith("draw from "):
        return f"draws more from {what.removeprefix('draw from ')} than it holds"
    return f"asks for more {what} than there are"


def place(symbols: Symbols, index: dict[tuple[int, int], Site], key: tuple[int, int] | None) -> ast.Node:
    """The statement a key names, or the setup block when it is not known."""
    if key is not None and key in index:
        return index[key].stmt
    return symbols.setup or symbols.module


def check_setup(
    game: Game,
    symbols: Symbols,
    rules: str,
    budget: int,
    unrun: bool,
    others: Sequence[tuple[str, Game]] = (),
) -> list[Finding]:
    """Run setup alone for every allowed player count; `unrun` also reports setup statements
    that ran for no count (left to `--play` when it runs). Without a setup block the start of
    the game (variables, pieces laid out) still runs, and may break. `others` are the game under
    other values of its options (`scenario=A`): their setups break and run short like the
    default's, said with the option, and a statement one of them runs is not unrun."""
    index = site_index(symbols)
    runs = [drive(game, n, 0, budget, setup_only=True) for n in player_counts(game)]
    out = _shortfalls(symbols, index, runs) + _errors(symbols, index, runs, rules)
    covered = list(runs)
    for option, other in others:
        theirs = [drive(other, n, 0, budget, setup_only=True) for n in player_counts(other)]
        found = _shortfalls(symbols, index, theirs) + _errors(symbols, index, theirs, rules)
        out += [replace(f, message=f"{f.message} (with {option})") for f in found]
        covered += theirs
    if unrun and symbols.setup is not None and not any(r.error for r in covered):
        out += _unrun(index, _more_seeds(index, covered, [game, *(g for _, g in others)], budget), game)
    return out


def _more_seeds(
    index: dict[tuple[int, int], Site], covered: list[Run], games: list[Game], budget: int
) -> list[Run]:
    """`covered` and the setup runs of seeds 1 to UNRUN_SEEDS - 1, for coverage only: chance may
    choose what a setup statement serves (a scenario card drawn at random), so before calling a
    statement unrun other seeds are tried, while any statement is unrun after a whole seed.

    A run stops being worth its time once every setup statement `_unrun` could ever report has
    run (`_settled`): that cannot change with more runs, so `_unrun` says nothing whatever the
    runs left of the seed would cover, and they are not made. Before, each seed ran every game
    and player count to its end. The 11 bundled games, with all their option games: 330 setup
    runs of seeds 1 to 4 became 170, with the same findings."""
    covered = list(covered)
    ran = set().union(*(r.covered for r in covered))
    for seed in range(1, UNRUN_SEEDS):
        if not _unrun(index, covered, games[0]):
            break
        for g in games:
            for n in player_counts(g):
                if _settled(index, ran):
                    return covered
                run = drive(g, n, seed, budget, setup_only=True)
                covered.append(run)
                ran |= run.covered
    return covered


def _settled(index: dict[tuple[int, int], Site], ran: set[tuple[int, int]]) -> bool:
    """Whether `_unrun` reports nothing now and after any further runs: every setup statement has
    run, or stands where `_unrun` never reports it (under chance or a decision), whatever ran."""
    return all(
        key in ran or (site.parent is not None and (site.parent.facts.decided or _chancy_above(site, index)))
        for key, site in index.items()
        if site.owner.kind == "setup"
    )


def _shortfalls(symbols: Symbols, index: dict[tuple[int, int], Site], runs: list[Run]) -> list[Finding]:
    by_place: dict[tuple[tuple[int, int] | None, str], dict[int, int]] = {}
    for run in runs:
        for short in run.shorts:
            tally = by_place.setdefault((short.key, short.what), {})
            tally[run.players] = tally.get(run.players, 0) + short.missing
    out = []
    for (key, what), missing in by_place.items():
        counts = sorted(missing)
        per = ", ".join(f"{missing[n]} with {n}" for n in counts)
        hint = (
            f"the components declared for '{what}' do not cover {counts_text(counts)} players: "
            "change the count in the piece declaration, or what setup takes"
        )
        if what.startswith("draw from "):
            hint = f"there are not enough pieces in {what.removeprefix('draw from ')} for this player count"
        out.append(
            at(
                place(symbols, index, key),
                codes.SETUP_SHORT,
                f"with {counts_text(counts)} players, setup {wanted(what)} (missing: {per})",
                hint,
                data={"what": what, "missing": {str(n): missing[n] for n in counts}},
            )
        )
    return out


def _errors(
    symbols: Symbols, index: dict[tuple[int, int], Site], runs: list[Run], rules: str
) -> list[Finding]:
    grouped: dict[tuple[object, str], list[Run]] = {}
    for run in runs:
        err = run.error
        if err is None:
            continue
        if isinstance(err, RuleRuntimeError) and err.span is not None and err.span.line:
            where: object = err.span
            text = err.message
        else:
            where = place(symbols, index, run.last).span
            text = f"{type(err).__name__}: {err}"
        grouped.setdefault((where, text), []).append(run)
    out = []
    for (where, text), broken in grouped.items():
        counts = [r.players for r in broken]
        first = broken[0]
        command = f"meeple play {rules} --players {first.players} --seed 0"
        out.append(
            at(
                where,  # type: ignore[arg-type]
                codes.SETUP_BREAKS,
                f"with {counts_text(counts)} players, setup breaks: {text}",
                f"reproduce with: {command}",
                data={"players": counts, "seed": 0, "choices": first.choices, "command": command},
            )
        )
    return out


def _unrun(index: dict[tuple[int, int], Site], runs: list[Run], game: Game) -> list[Finding]:
    ran = set().union(*(r.covered for r in runs))
    out = []
    for key, site in index.items():
        if site.owner.kind != "setup" or key in ran:
            continue
        parent = site.parent
        if parent is not None and (parent.facts.decided or (parent.span.line, parent.span.column) not in ran):
            continue  # chance or a decision decides; or the statement around it is reported
        if parent is not None and _chancy_above(site, index):
            continue
        out.append(
            at(
                site.stmt,
                codes.NEVER_RAN,
                f"this statement in setup runs with no player count from {game.min_players} to "
                f"{game.max_players}",
                f"its condition is never true for an allowed player count (seeds 0 to {UNRUN_SEEDS - 1})",
            )
        )
    return out


def _chancy_above(site: Site, index: dict[tuple[int, int], Site]) -> bool:
    parent = site.parent
    while parent is not None:
        if parent.facts.decided:  # chance or a decision picks its block: one seed proves nothing
            return True
        above = index.get((parent.span.line, parent.span.column))
        parent = above.parent if above is not None else None
    return False
