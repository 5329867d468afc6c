"""`meeple simulate` and `meeple compare`: is my game fair, and what did my change do?

`simulate` plays many games and prints every figure of `meeple.balance` with how far chance
alone could move it; `compare` plays the same seeds on two versions of a game (a variant and its
base, or two variants) and says, figure by figure, whether the difference stands out from the
noise. Both are thin shells over `meeple.simulation` (playing), `meeple.balance` (the figures)
and `meeple.statistics` (the intervals). Registered by `meeple/cli.py`.

Exit codes as everywhere: 0 when every game finished, 1 when a game broke (the figures of the
others are still printed, with the command that plays each broken game again), 2 for a wrong
command line.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Column, Table

from meeple.balance import SHARE_NOTE, Measure, Row, comparison, counters, measures, summary, team_measures
from meeple.cli_common import (
    ENGINE,
    FAILED,
    LOAD,
    OPTIONS,
    PLAYERS,
    RULES,
    TEAMS,
    USAGE,
    Fail,
    echo_json,
    load_game,
    note_engine,
    parse_options,
    parse_teams,
    plural,
    progress_bar,
    read_save_or_fail,
    stdout,
)
from meeple.cli_plots import PLOT, draw_comparison, draw_simulation
from meeple.interpreter.engine import Game
from meeple.limits import MAX_NUMBER
from meeple.saves import SaveError, save_text
from meeple.simulation import Plan, engine_of, plan_for, play_local
from meeple.statistics import Difference

GAMES = typer.Option(min=1, help="How many games to play.")
SEED = typer.Option(min=0, max=MAX_NUMBER - 2**32, help="Game i uses seed SEED+i.")
JOBS = typer.Option("--jobs", "-j", min=1, help="Games played at once (default: one per CPU).")
AGENTS = typer.Option(
    help="Comma-separated, one per seat, the last repeats: random, first, a style of the rules, or "
    "a search: mcts (1,000 playouts a decision), mcts:N (N playouts), "
    "mcts:Ts (T seconds, as 2s or 0.5s), each with :STYLE to finish its playouts as "
    "that style plays (mcts:500:STYLE); a search of so many seconds makes as many playouts as "
    "the machine can, so its games are reproducible only where it makes as many."
)


class Backend(StrEnum):
    local = "local"
    ray = "ray"


BACKEND = typer.Option(
    help="Where the games are played: local (processes on this machine) or ray (a Ray cluster; "
    "pip install 'meeple[ray]')."
)
ADDRESS = typer.Option(
    metavar="ADDR",
    help="With --backend ray: the cluster to join, as ray.init takes it (HOST:PORT, auto); "
    "default: a local instance of --jobs CPUs, started for the run.",
)
Batches = Iterator[list[dict[str, Any]]]
Player = Callable[[Game, Plan, range], Batches]  # how a backend plays a range of seeds


def _plan(
    game: Game,
    rules: str,
    players: int | None,
    agents: str,
    teams: str | None = None,
    engine: str | None = None,
) -> Plan:
    names = [n.strip() for n in agents.split(",") if n.strip()]
    if "human" in names:
        raise Fail("error: a simulation cannot wait for a human player: name other agents", USAGE)
    layout = parse_teams(teams)
    try:
        asked = engine or os.environ.get("MEEPLE_ENGINE") or "auto"
        return plan_for(game, rules, players, names, layout, asked)
    except ValueError as err:
        raise Fail(f"error: {err}", USAGE) from None


@contextmanager
def _backend(backend: Backend, address: str | None, jobs: int) -> Iterator[Player]:
    """How the seeds are played, for one run: `play(game, plan, seeds)` yields batches of records.
    Ray is imported only here, when asked for; what keeps it from being used is a usage error."""
    if backend is Backend.local:
        if address is not None:
            raise Fail("error: --address names a Ray cluster: give it with --backend ray", USAGE)
        yield functools.partial(play_local, jobs=jobs)
        return
    from meeple import ray_backend

    try:
        cluster = ray_backend.connect(address, jobs)
    except ray_backend.BackendError as err:
        raise Fail(f"error: {err}", USAGE) from None
    if cluster.notice:
        typer.echo(f"note: {cluster.notice}", err=True)
    try:
        yield cluster.play
    except ray_backend.TaskError as err:
        raise Fail(f"error: {err}") from None
    finally:
        cluster.close()


def _played(
    games: list[tuple[Game, Plan]],
    count: int,
    seed: int,
    jobs: int,
    backend: Backend = Backend.local,
    address: str | None = None,
) -> list[list[dict[str, Any]]]:
    """The records of `count` games from `seed` on, for each (game, plan), in seed order, under
    one progress bar that moves as batches are done (a cluster finishes them in any order)."""
    out: list[list[dict[str, Any]]] = []
    with _backend(backend, address, jobs) as play, progress_bar() as progress:
        for game, plan in games:
            task = progress.add_task(escape(game.name), total=count)
            records: list[dict[str, Any]] = []
            for batch in play(game, plan, range(seed, seed + count)):
                records.extend(batch)
                progress.update(task, advance=len(batch), refresh=True)
            out.append(sorted(records, key=lambda r: r["seed"]))
    return out


SHOWN_BROKEN = 5  # games that broke, said one by one; the rest are counted


def _broken(stats: dict[str, Any]) -> list[str]:
    """The games that broke, each with the command that plays it again (the first few)."""
    lines = []
    for entry in stats["unfinished"][:SHOWN_BROKEN]:
        what = "ran out of its step budget" if entry["status"] == "out of budget" else "broke"
        lines.append(f"seed {entry['seed']} {what}: {entry['error']}\n  reproduce with: {entry['reproduce']}")
    if len(stats["unfinished"]) > SHOWN_BROKEN:
        lines.append(
            f"and {plural(len(stats['unfinished']) - SHOWN_BROKEN, 'more game')} that did not finish"
        )
    return lines


def _rate(f: dict[str, Any]) -> str:
    return f"{f['rate']:.1%}"


def _interval(f: dict[str, Any]) -> str:
    low, high = f["interval"]
    return f"{low * 100:.1f} to {high * 100:.1f}"


def _mean(f: dict[str, Any]) -> str:
    """Three significant digits: as precise as a few hundred games make a mean, and narrow."""
    return f"{f['mean']:.3g} ± {f['sd']:.3g}"


def _quartiles(f: dict[str, Any]) -> str:
    return ", ".join(f"{round(f[k], 1):g}" for k in ("q1", "median", "q3"))


def _table(*headers: str) -> Table:
    """A table that fits 80 columns: no box, the figures right-aligned and never wrapped."""
    first, *rest = headers
    columns = [Column(h, justify="right", no_wrap=True) for h in rest]
    return Table(first, *columns, box=None, padding=(0, 1, 0, 0), pad_edge=False)


def simulate(
    rules: Annotated[str, RULES],
    games: Annotated[int, GAMES],
    players: Annotated[int | None, PLAYERS] = None,
    seed: Annotated[int, SEED] = 0,
    agents: Annotated[str, AGENTS] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print only the statistics, as JSON.")] = False,
    jobs: Annotated[int, JOBS] = os.cpu_count() or 1,
    option: Annotated[list[str] | None, OPTIONS] = None,
    plot: Annotated[Path | None, PLOT] = None,
    backend: Annotated[Backend, BACKEND] = Backend.local,
    address: Annotated[str | None, ADDRESS] = None,
    load: Annotated[Path | None, LOAD] = None,
    teams: Annotated[str | None, TEAMS] = None,
    engine: Annotated[str | None, ENGINE] = None,
) -> None:
    """Play many games and report, per seat (and per team), wins, shared wins and the win rate with its 95%
    interval, the spread of scores, draws, and how long games last.

    The games are shared among worker processes, one per CPU, or among the CPUs of a Ray cluster
    (--backend ray): each game depends on its seed only, so the statistics are the same whatever
    the number of workers and wherever they are."""
    game = load_game(rules, parse_options(option or []))
    plan = _plan(game, rules, players, agents, teams, engine)
    if load is not None:  # every game starts from the save: checked here, before any is played
        saved = read_save_or_fail(load)
        try:
            game.new_game(plan.players, run_setup=False, load=saved)
        except SaveError as err:
            raise Fail(f"error: the save does not fit the rules: {err}") from None
        plan = replace(plan, load=save_text(saved), load_file=str(load))
    played_by, why = engine_of(game, plan.agents, plan.engine)
    if not as_json:
        note_engine(played_by, why)
    began = time.perf_counter()
    (records,) = _played([(game, plan)], games, seed, jobs, backend, address)
    elapsed = time.perf_counter() - began
    declared = counters(game)
    stats = summary(records, plan, game.name, declared)
    stats["engine"] = played_by  # which engine played, and why not the native one
    if played_by == "python":
        stats["python_because"] = why
    broken = _broken(stats)
    if as_json:
        echo_json(stats)
    else:
        _print_summary(stats, game, seed, elapsed, declared)
    if plot is not None:
        drawn = measures(len(plan.sides), [*team_measures(plan, _seat_names(game, plan.players)), *declared])
        draw_simulation(plot, records, drawn, game.name, _seat_names(game, plan.players))
    if broken:
        raise Fail("\n".join(f"error: {line}" for line in broken), FAILED)


def _seat_names(game: Game, players: int) -> list[str]:
    """Every seat's name: the players', then the seats the rules play."""
    return [str(p) for p in game.program.seated(players)]


def _print_summary(
    stats: dict[str, Any], game: Game, seed: int, elapsed: float, declared: list[Measure]
) -> None:
    out = stdout()
    games, players, seats = stats["games"], stats["players"], stats["seats"]
    agents = ", ".join(stats["agents"])
    seeds = f"seeds {seed} to {seed + games - 1}"
    automata = "".join(f" and {name}" for name in _seat_names(game, players)[players:])
    who = f"{plural(players, 'player')} ({agents}){automata}"
    out.print(escape(f"{game.name}: {plural(games, 'game')}, {who}, {seeds}"))
    if "figures" not in stats:
        out.print("no game finished: there is nothing to summarise")
        return
    f = stats["figures"]
    wins = [*["Wins", "Shared"][: seats - 1], "Win rate", "95% (in %)"] if seats > 1 else []
    table = _table("Seat", *wins, "Score ± sd", "Quartiles", "Range")
    for s, name in enumerate(_seat_names(game, players)):
        score = f["score"][s]
        counts = [f"{stats['wins'][s]:g}", f"{stats['shared_wins'][s]:g}"][: seats - 1]
        shares = [*counts, _rate(f["win_rate"][s]), _interval(f["win_rate"][s])] if seats > 1 else []
        score_range = f"{score['min']:g} to {score['max']:g}"
        table.add_row(escape(name), *shares, _mean(score), _quartiles(score), score_range)
    out.print(table)
    if stats["teams"]:
        names = _seat_names(game, players)
        table = _table("Team", "Win rate", "95% (in %)")
        for team, figure in zip(stats["teams"], stats["team_win_rate"], strict=True):
            table.add_row(escape(" + ".join(names[s] for s in team)), _rate(figure), _interval(figure))
        out.print(table)
    if seats > 1:
        draws = f["draw_rate"]
        out.print(f"({SHARE_NOTE})")
        if stats["teams"]:
            out.print("(in teams a side is a team: each of its players counts the team's share of a win)")
        out.print(f"draws: {draws['count']:g}, {_rate(draws)} (95% interval {_interval(draws)}%)")
    out.print(
        f"length: {_mean(f['turns'])} turns (quartiles {_quartiles(f['turns'])}), "
        f"{_mean(f['decisions'])} decisions"
    )
    if declared:
        table = _table("Counted per game", "Seat", "Mean ± sd", "95% interval", "Quartiles", "Range")
        names = _seat_names(game, players)
        for m in declared:
            per = f[m.key] if m.per_seat else [f[m.key]]
            for seat, figure in enumerate(per):
                low, high = figure["interval"]
                table.add_row(
                    escape(m.label) if seat == 0 else "",
                    escape(names[seat]) if m.per_seat else "all",
                    _mean(figure),
                    f"{low:.2f} to {high:.2f}",
                    _quartiles(figure),
                    f"{figure['min']:g} to {figure['max']:g}",
                )
        out.print(table)
    if stats["finished"] < games:
        out.print(f"{plural(games - stats['finished'], 'game')} did not finish and are left out (see below)")
    for what, entry in stats["shortfalls"].items():
        missing = f"{entry['missing']} missing in all"
        out.print(escape(f"supply ran short: {what} in {plural(entry['games'], 'game')} ({missing})"))
    out.print(f"({plural(games, 'game')} in {elapsed:.2f} s)")


# ------------------------------------------------------------------ compare


def compare(
    first: Annotated[str, typer.Argument(metavar="A", help="A rules file or a bundled game name.")],
    second: Annotated[str, typer.Argument(metavar="B", help="Another version: a variant, or the same game.")],
    games: Annotated[int, GAMES],
    players: Annotated[int | None, PLAYERS] = None,
    seed: Annotated[int, SEED] = 0,
    agents: Annotated[str, AGENTS] = "random",
    b_agents: Annotated[
        str | None,
        typer.Option(
            "--b-agents",
            metavar="NAMES",
            help="B's players, when they are not A's: compare a playing style with random players.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print only the comparison, as JSON.")] = False,
    jobs: Annotated[int, JOBS] = os.cpu_count() or 1,
    option: Annotated[list[str] | None, OPTIONS] = None,
    plot: Annotated[Path | None, PLOT] = None,
    backend: Annotated[Backend, BACKEND] = Backend.local,
    address: Annotated[str | None, ADDRESS] = None,
    teams: Annotated[str | None, TEAMS] = None,
) -> None:
    """Play the same seeds on two versions of a game and say, figure by figure, how B differs
    from A, with a 95% interval, and whether the difference stands out from chance.

    Pairing the seeds makes the comparison sharp: both versions roll the same dice and, while
    their games agree, the random players answer alike, so what differs is mostly the change.
    B may be the same game played by other players (`--b-agents`): what a style changes."""
    options = parse_options(option or [])
    versions = [load_game(rules, options) for rules in (first, second)]
    if players is None:
        players = max(g.min_players for g in versions)
    sides_agents = (agents, agents if b_agents is None else b_agents)
    plans = [
        _plan(g, rules, players, names, teams)
        for g, rules, names in zip(versions, (first, second), sides_agents, strict=True)
    ]
    if plans[0].automated != plans[1].automated:
        raise Fail(
            "error: A and B do not seat the same number of seats the rules play (`automated`): "
            "their seats cannot be paired",
            USAGE,
        )
    a, b = _played(list(zip(versions, plans, strict=True)), games, seed, jobs, backend, address)
    in_b = {m.key for m in counters(versions[1])}
    shared = [m for m in counters(versions[0]) if m.key in in_b]  # what both versions count
    names = _seat_names(versions[0], players)
    compared = measures(len(plans[0].sides), [*team_measures(plans[0], names), *shared])
    rows, left_out = comparison(a, b, plans[0].seats, compared)
    sides = [
        summary(records, plan, g.name, counters(g))
        for records, plan, g in zip((a, b), plans, versions, strict=True)
    ]
    if as_json:
        echo_json(
            {
                "a": sides[0],
                "b": sides[1],
                "games": games,
                "paired": games - left_out,
                "players": players,
                "seed": seed,
                "differences": [row.as_json() for row in rows],
            }
        )
    else:
        _print_comparison(rows, versions, plans, games, left_out, seed)
    if plot is not None:
        titles = (versions[0].name, versions[1].name)
        draw_comparison(plot, a, b, compared, titles, names)
    broken = [f"{side}: {line}" for side, s in zip("AB", sides, strict=True) for line in _broken(s)]
    if broken:
        raise Fail("\n".join(f"error: {line}" for line in broken), FAILED)


def _what(row: Row, names: list[str]) -> str:
    label = row.measure.label
    return label if row.seat is None else f"{names[row.seat]}: {label}"


def _amount(m: Measure, x: float, signed: bool = False) -> str:
    if m.rate:
        return f"{x * 100:+.1f} pts" if signed else f"{x:.1%}"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _interval_of(m: Measure, d: Difference) -> str:
    """A difference's interval, in points for a rate (the unit is said once, in the difference)."""
    scale = 100 if m.rate else 1
    digits = 1 if m.rate else 2
    return f"{d.low * scale:+.{digits}f} to {d.high * scale:+.{digits}f}"


def _print_comparison(
    rows: list[Row],
    versions: list[Game],
    plans: list[Plan],
    games: int,
    left_out: int,
    seed: int,
) -> None:
    out = stdout()
    players = plans[0].players
    seeds = f"seeds {seed} to {seed + games - 1}"
    out.print(escape(f"{plural(games, 'game')} on each side, {plural(players, 'player')}, {seeds}"))
    for side, game, plan in zip("AB", versions, plans, strict=True):
        out.print(escape(f"  {side}: {game.name} ({plan.rules}), played by {', '.join(plan.agents)}"))
    if left_out:
        out.print(f"{plural(left_out, 'seed')} left out: a game broke on one side (see below)")
    if not rows:
        out.print("no seed finished on both sides: there is nothing to compare")
        return
    names = _seat_names(versions[0], players)
    table = _table("Figure", "A", "B", "B - A", "95% interval", "")
    for row in rows:
        d, m = row.difference, row.measure
        table.add_row(
            escape(_what(row, names)),
            _amount(m, d.a),
            _amount(m, d.b),
            _amount(m, d.mean, True),
            _interval_of(m, d),
            "differs" if row.stands_out else "chance",
        )
    out.print(table)
    for line in verdict(rows, names, games - left_out):
        out.print(escape(line))


def verdict(rows: list[Row], names: list[str], pairs: int) -> list[str]:
    """The comparison in plain sentences: what changed beyond chance, and what did not."""
    real = [r for r in rows if r.stands_out]
    if not real:
        return [f"No difference stands out from chance in {plural(pairs, 'paired game')}."]
    lines = []
    for r in real:
        d, m = r.difference, r.measure
        whose = m.label if r.seat is None else f"{names[r.seat]}'s {m.label}"
        lines.append(
            f"{whose[0].upper()}{whose[1:]}: {_amount(m, d.b)} in B against {_amount(m, d.a)} in A "
            f"({_amount(m, d.mean, True)}, 95% interval {_interval_of(m, d)}): more than chance explains."
        )
    rest = len(rows) - len(real)
    if rest:
        games = plural(pairs, "paired game")
        lines.append(f"The other {plural(rest, 'figure')} do not differ beyond chance in {games}.")
    if len(rows) > 1:
        lines.append(
            f"A figure stands out only if it does among all {len(rows)} compared (Holm's correction): "
            "chance alone makes any of them stand out in fewer than 1 comparison in 20."
        )
    return lines
