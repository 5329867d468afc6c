"""Dynamic checks: play random games and report what the rules did (M060-M065, M069).

`meeple check --play N` plays N games for every player count the header allows (seeds 0 to N-1,
random agents: exactly what `meeple play FILE --players P --seed S` plays) on a program compiled
with coverage, and reports:

- rules that never ran, triggers that never fired, and statements and branches that never ran
  (only the outermost one of a part that never ran);
- supplies that ran short, where and how often;
- games that hit the step budget or never ended, decisions that had to be made with no option,
  rules that broke, and errors inside the engine, each with the command and the choices that
  reproduce it.

What the static checks already proved (a rule nothing reaches, a branch that can never run) is
not reported again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.checks.driving import MAX_DECISIONS, Key, Run, drive
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.checks.supply import counts_text, player_counts, wanted
from meeple.interpreter.checks.walk import Owner, Site, owners, site_index
from meeple.interpreter.engine import Game, IllegalChoice
from meeple.interpreter.runtime import RuleRuntimeError

SHOWN_CHOICES = 30  # choices printed in a hint; the JSON data holds them all
# Codes of static findings that already say a place never runs.
NEVER_RUNS = {
    codes.CHOICE_WITHOUT_OPTION,
    codes.UNUSED_RULE,
    codes.UNREACHABLE,
    codes.TRIGGER_NEVER_FIRES,
    codes.ENDLESS_WHILE,
    codes.NEVER_RUNS,
    codes.NO_CHANCE,
    codes.NEVER_RAN,
}


@dataclass
class Trouble:
    """Games that broke the same way at the same place."""

    code: str
    where: ast.Node | ast.Span
    text: str
    runs: list[Run] = field(default_factory=list)


def check_play(
    game: Game,
    symbols: Symbols,
    rules: str,
    games: int,
    budget: int,
    earlier: Iterable[Diagnostic],
    progress: Callable[[int, int], None] | None = None,
) -> list[Finding]:
    """Play `games` games for each allowed player count and report what they show. `progress`
    is told (games played, games to play) after each game."""
    earlier = list(earlier)
    began = time.perf_counter()
    plays = [(n, seed) for n in player_counts(game) for seed in range(games)]
    runs: list[Run] = []
    for n, seed in plays:
        runs.append(drive(game, n, seed, budget))
        if progress is not None:
            progress(len(runs), len(plays))
    seconds = time.perf_counter() - began
    index = site_index(symbols)
    compiled = {key for key, _, _ in game.program.statements}
    index = {key: site for key, site in index.items() if key in compiled}
    quiet = {d.line for d in earlier if d.code in NEVER_RUNS and d.file == symbols.module.file}
    setup_shorts = {
        (d.line, d.column, d.data.get("what"))
        for d in earlier
        if d.code == codes.SETUP_SHORT and isinstance(d, Finding)
    }
    out = _never_ran(symbols, index, runs, quiet)
    out += _shortfalls(index, runs, setup_shorts)
    troubles = _troubles(symbols, index, runs)
    out += [_report(t, rules, len(runs)) for t in troubles]
    counts = list(player_counts(game))
    broken = sum(1 for r in runs if r.error is not None or r.too_many_decisions)
    out.append(
        at(
            _header(symbols),
            codes.PLAY_SUMMARY,
            f"played {len(runs)} game(s): {games} with each of {counts_text(counts)} "
            f"player{'s' if counts != [1] else ''}; "
            f"{len(runs) - broken} ended, {broken} broke",
            data={
                "games": len(runs),
                "games_per_count": games,
                "player_counts": counts,
                "ended": len(runs) - broken,
                "broke": broken,
                "statements": len(index),
                "statements_run": len(set(index) & set().union(*(r.covered for r in runs))),
                "seconds": round(seconds, 3),
            },
        )
    )
    return out


def _header(symbols: Symbols) -> ast.Node:
    return symbols.header or symbols.module


# ------------------------------------------------------------------ what never ran


def _never_ran(symbols: Symbols, index: dict[Key, Site], runs: list[Run], quiet: set[int]) -> list[Finding]:
    ran = set().union(*(r.covered for r in runs))
    total = len(runs)
    out = []
    for owner in owners(symbols):
        mine = [site for site in index.values() if site.owner.decl is owner.decl]
        if not mine or owner.decl.span.line in quiet:
            continue
        if not any(site.key in ran for site in mine):
            verb = "fired" if owner.kind == "trigger" else "ran"
            out.append(
                at(
                    owner.decl,
                    codes.NEVER_RAN,
                    f"{owner.label} never {verb} in {total} game(s)",
                    _why(owner),
                    data={"games": total},
                )
            )
            continue
        for site in mine:
            parent = site.parent
            parent_ran = parent is None or (parent.span.line, parent.span.column) in ran
            said = {site.stmt.span.line, parent.span.line if parent is not None else 0} & quiet
            if site.key not in ran and parent_ran and not said:
                out.append(at(site.stmt, codes.NEVER_RAN, _unrun(site, total), data={"games": total}))
    return out


def _why(owner: Owner) -> str:
    if owner.kind == "trigger":
        return "no piece of its kind arrived where its condition holds: check the 'when' line"
    return "the conditions that lead to it never held: check the rules that call it"


def _unrun(site: Site, total: int) -> str:
    where = f"in {site.owner.label}"
    games = f"in {total} game(s)"
    slot = site.slot
    if slot in {"if", "elif"}:
        return f"the '{slot}' branch {where} never ran {games}: its condition was never true"
    if slot == "else" and isinstance(site.parent, ast.If):
        return f"the 'else' branch {where} never ran {games}: a condition above was always true"
    if slot == "else":
        return f"the 'else' block {where} never ran {games}"
    if slot.startswith("outcome "):
        return f"outcome '{slot.removeprefix('outcome ')}' {where} never happened {games}"
    if isinstance(site.parent, ast.ForEach | ast.Repeat | ast.While):
        return f"the block of this loop {where} never ran {games}: the loop never went round"
    return f"this statement {where} never ran {games}"


# ------------------------------------------------------------------ supplies


def _shortfalls(
    index: dict[Key, Site], runs: list[Run], setup_shorts: set[tuple[int, int, object]]
) -> list[Finding]:
    seen: dict[tuple[Key | None, str], list[tuple[Run, int]]] = {}
    for run in runs:
        per_place: dict[tuple[Key | None, str], int] = {}
        for short in run.shorts:
            per_place[(short.key, short.what)] = per_place.get((short.key, short.what), 0) + short.missing
        for place, missing in per_place.items():
            seen.setdefault(place, []).append((run, missing))
    out = []
    for (key, what), hits in seen.items():
        if key is None or key not in index or (*key, what) in setup_shorts:
            continue
        counts = sorted({run.players for run, _ in hits})
        missing = sum(m for _, m in hits)
        site = index[key]
        out.append(
            at(
                site.stmt,
                codes.SUPPLY_SHORT,
                f"the supply ran short: this statement in {site.owner.label} {wanted(what)} in {len(hits)} "
                f"of {len(runs)} game(s) ({counts_text(counts)} players), {missing} missing in all",
                'a move takes what there is: if the rulebook expects the supply to run out ("if there '
                'are any"), this is the rule at work; otherwise the component counts do not add up',
                data={
                    "what": what,
                    "games": len(hits),
                    "of": len(runs),
                    "missing": missing,
                    "players": counts,
                },
            )
        )
    return out


# ------------------------------------------------------------------ games that broke


def _troubles(symbols: Symbols, index: dict[Key, Site], runs: list[Run]) -> list[Trouble]:
    grouped: dict[tuple[str, object, str], Trouble] = {}
    for run in runs:
        if run.error is None and not run.too_many_decisions:
            continue
        err = run.error
        where: ast.Node | ast.Span = index[run.last].stmt if run.last in index else _header(symbols)
        if isinstance(err, RuleRuntimeError) and err.span is not None and err.span.line:
            where = err.span
        if run.out_of_budget:
            code = codes.ENDLESS_GAME
            text = (
                f"the game asked for {MAX_DECISIONS} decisions without ending"
                if run.too_many_decisions
                else str(getattr(err, "message", err))
            )
        elif isinstance(err, RuleRuntimeError) and _no_option(err, index):
            code, text = codes.NO_OPTION, err.message
        elif isinstance(err, RuleRuntimeError | IllegalChoice):
            code, text = codes.RULE_BROKE, getattr(err, "message", str(err))
        else:
            code, text = codes.ENGINE_BROKE, f"{type(err).__name__}: {err}"
        span = where if isinstance(where, ast.Span) else where.span
        trouble = grouped.setdefault((code, (span.line, span.column), text), Trouble(code, where, text))
        trouble.runs.append(run)
    return list(grouped.values())


def _no_option(err: RuleRuntimeError, index: dict[Key, Site]) -> bool:
    """A `choose` that had to be made had no option: the runtime's error at a choose statement."""
    if err.span is None:
        return False
    site = index.get((err.span.line, err.span.column))
    return site is not None and isinstance(site.stmt, ast.Choose) and err.message.startswith("no option")


def _report(t: Trouble, rules: str, total: int) -> Finding:
    first = t.runs[0]
    command = f"meeple play {rules} --players {first.players} --seed {first.seed}"
    shown = first.choices[:SHOWN_CHOICES]
    more = f" ... ({len(first.choices)} in all)" if len(first.choices) > SHOWN_CHOICES else ""
    counts = sorted({r.players for r in t.runs})
    what = {
        codes.ENDLESS_GAME: "a game never ended",
        codes.NO_OPTION: "a choice had to be made with no option",
        codes.RULE_BROKE: "a rule broke",
        codes.ENGINE_BROKE: "the engine failed (a bug in meeple: please report it)",
    }[t.code]
    rule = getattr(first.error, "rule", "") or first.last_rule
    in_rule = f" in {rule}" if rule else ""
    return at(
        t.where,
        t.code,
        f"{what}{in_rule}, in {len(t.runs)} of {total} game(s) ({counts_text(counts)} players): {t.text}",
        f"reproduce with: {command} (choices: {shown}{more})",
        data={
            "games": len(t.runs),
            "of": total,
            "rule": rule,
            "reproduce": {
                "rules": rules,
                "players": first.players,
                "seed": first.seed,
                "choices": first.choices,
                "command": command,
            },
        },
    )
