"""What a simulation says about a game: the figures a designer asks for, read from game records.

Each figure is a `Measure`: one number per finished game (or one per seat), with its name in
players' words: the built-in ones below, then the counters the rules declare (`counter NAME`,
added to with `tally`), so that a designer can ask "do players trade more with my change?"
without writing Python. The summary of one run (`summary`) and the paired comparison of two
versions (`comparison`) are both made from the same list of measures, so that a figure added here is
summarised, compared, printed and plotted alike. The statistics themselves are in
`meeple.statistics`; the records come from `meeple.simulation`.

What counts as what, the same for every game:
- a **win** is an outright one: the seat alone has the best score (then the best tiebreak);
- a **shared win** is a best score shared by some seats but not all;
- a **draw** is a game every seat ends level (only with two or more seats);
- the **win rate** counts a shared win or a draw as a fraction, 1/k to each of the k seats level,
  so that the win rate of every seat added up makes 100% (the rate `simulate` always gave).

In a game played in teams (interpreter/teams.py) a side is a team, not a seat: every member of a
winning team wins, a win is shared when several teams are level, and each member of a winning
team is counted its team's share (so the win rate of every team, not of every seat, adds up to 100%).
Each team has its win rate too (`team_measures`). Seats the rules play (`automated`) are seats
like the others here: "how hard is it to beat?" is its win rate.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.interpreter.engine import Game
from meeple.interpreter.names import Name, called, humanise
from meeple.simulation import FINISHED, Plan
from meeple.statistics import Difference, holm, paired, spread, wilson

Record = dict[str, Any]


@dataclass(frozen=True)
class Measure:
    """One figure of a game: `value(record, seat)` (seat None for a figure of the whole game)."""

    key: str  # its name in the JSON output
    label: str  # its name for people
    per_seat: bool
    rate: bool  # a yes/no per game: summarised as a rate with Wilson's interval
    value: Callable[[Record, int | None], float]
    players: int = 1  # the fewest players it means anything for (a shared win needs three)
    unit: str = ""  # what one of it is counted in, for an axis ("points"); a rate's is always %
    note: str = ""  # how to read it, where its name does not say: printed under a table or figure
    count: bool = False  # counts something (never below zero): its mean gets a count's interval


def _won(r: Record) -> list[list[int]]:
    """The teams that won a game (a seat alone is a team of one)."""
    return [team for team in r["teams"] if team[0] in r["winners"]]


def _share(r: Record, seat: int | None) -> float:
    return 1 / len(_won(r)) if seat in r["winners"] else 0.0


def _draw(r: Record, seat: int | None) -> float:
    return float(len(r["teams"]) > 1 and len(_won(r)) == len(r["teams"]))


def _outright(r: Record, seat: int | None) -> float:
    won = _won(r)
    return float(len(won) == 1 and seat in won[0])


def _shared(r: Record, seat: int | None) -> float:
    return float(seat in r["winners"] and 1 < len(_won(r)) < len(r["teams"]))


SHARE_NOTE = "the win rate counts a win shared by k seats, or a draw, as 1/k to each of them"

MEASURES: tuple[Measure, ...] = (
    Measure("win_rate", "win rate", True, True, _share, players=2, note=SHARE_NOTE),
    Measure("outright_win_rate", "outright wins", True, True, _outright, players=2),
    Measure("shared_win_rate", "shared wins", True, True, _shared, players=3),
    Measure("draw_rate", "draws", False, True, _draw, players=2),
    Measure("score", "score", True, False, lambda r, seat: r["scores"][seat], unit="points"),
    Measure("turns", "turns", False, False, lambda r, seat: r["turns"], unit="turns", count=True),
    Measure(
        "decisions", "decisions", False, False, lambda r, seat: r["decisions"], unit="decisions", count=True
    ),
)


def team_measures(plan: Plan, names: Sequence[str]) -> list[Measure]:
    """A win rate for each team chosen (none without teams): its members' share of the wins."""
    return [
        Measure(
            f"team_{i + 1}_win_rate",
            f"win rate of the team {' + '.join(names[s] for s in team)}",
            False,
            True,
            functools.partial(_team_share, team[0]),
        )
        for i, team in enumerate(plan.teams or ())
    ]


def _team_share(member: int, r: Record, seat: int | None) -> float:
    return _share(r, member)


def counters(game: Game) -> list[Measure]:
    """A measure for each counter the rules declare (`counter NAME`), named as players would
    name it: the plural of its `called` line, or its name in words (a counter's name already
    says many of a thing: `hunts`)."""
    out = []
    for name, decl in game.program.symbols.counters.items():
        line = called(decl.meta)
        label = Name.of(line.value, line.plural).many if line is not None else humanise(name)
        out.append(Measure(f"counter_{name}", label, decl.per_player, False, _counted(name), count=True))
    return out


def _counted(name: str) -> Callable[[Record, int | None], float]:
    def value(r: Record, seat: int | None) -> float:
        counted = r["counters"][name]
        return counted if seat is None else counted[seat]

    return value


def measures(players: int, declared: Sequence[Measure] = ()) -> list[Measure]:
    """The measures that mean something for this many players, then the game's own counters."""
    return [m for m in (*MEASURES, *declared) if players >= m.players]


def _values(measure: Measure, records: Sequence[Record], seat: int | None) -> list[float]:
    return [measure.value(r, seat) for r in records]


def _seats(measure: Measure, players: int) -> list[int | None]:
    return list(range(players)) if measure.per_seat else [None]


def finished(records: Sequence[Record]) -> list[Record]:
    return [r for r in records if r["status"] == FINISHED]


def unfinished(records: Sequence[Record], plan: Plan) -> list[dict[str, Any]]:
    """The games that broke, each with the command that plays it again."""
    return [
        {**{k: r[k] for k in ("seed", "status", "error")}, "reproduce": plan.reproduce(r["seed"])}
        for r in records
        if r["status"] != FINISHED
    ]


def _figure(measure: Measure, values: list[float]) -> dict[str, Any]:
    if measure.rate:
        hits = sum(values)
        low, high = wilson(hits, len(values))
        return {"n": len(values), "count": hits, "rate": hits / len(values), "interval": [low, high]}
    return spread(values, count=measure.count).as_json()


def summary(
    records: Sequence[Record], plan: Plan, game: str, declared: Sequence[Measure] = ()
) -> dict[str, Any]:
    """Every measure over the finished games, with the plain keys `simulate` has always given
    (`win_rate`, `mean_score`, `min_score`, `max_score`, `mean_turns`) beside the full figures."""
    done = finished(records)
    out: dict[str, Any] = {
        "game": game,
        "rules": plan.rules,
        "options": dict(plan.options),
        "agents": list(plan.agents),
        "games": len(records),
        "finished": len(done),
        "players": plan.players,
        "seats": plan.seats,
        "teams": None if plan.teams is None else [list(team) for team in plan.teams],
        "seed": min((r["seed"] for r in records), default=0),
        "unfinished": unfinished(records, plan),
        "shortfalls": shortfalls(records),
    }
    if not done:
        return out
    figures: dict[str, Any] = {}
    for m in measures(len(plan.sides), declared):
        per = [_figure(m, _values(m, done, seat)) for seat in _seats(m, plan.seats)]
        figures[m.key] = per if m.per_seat else per[0]
    out["figures"] = figures
    seats = range(plan.seats)  # the win figures exist for one seat too, unlike their Measures
    out["win_rate"] = [sum(_share(r, seat) for r in done) / len(done) for seat in seats]
    out["wins"] = [sum(_outright(r, seat) for r in done) for seat in seats]
    out["shared_wins"] = [sum(_shared(r, seat) for r in done) for seat in seats]
    out["draws"] = sum(_draw(r, None) for r in done)
    out["mean_score"] = [f["mean"] for f in figures["score"]]
    out["min_score"] = [f["min"] for f in figures["score"]]
    out["max_score"] = [f["max"] for f in figures["score"]]
    out["mean_turns"] = figures["turns"]["mean"]
    win = MEASURES[0]
    out["team_win_rate"] = [_figure(win, _values(win, done, team[0])) for team in plan.teams or ()]
    return out


def shortfalls(records: Sequence[Record]) -> dict[str, dict[str, int]]:
    """How often a move wanted more pieces than there were, and how many were missing in all:
    the supplies that run out, which a designer wants to know about."""
    out: dict[str, dict[str, int]] = {}
    for r in records:
        for what, missing in r["shortfalls"].items():
            entry = out.setdefault(what, {"games": 0, "missing": 0})
            entry["games"] += 1
            entry["missing"] += missing
    return out


@dataclass(frozen=True)
class Row:
    """One compared figure: what it is, for whom, the paired difference, and whether it stands
    out from chance among all the figures compared (`holm`), which its own interval alone does
    not say: one figure in 20 leaves out zero by chance."""

    measure: Measure
    seat: int | None
    difference: Difference
    stands_out: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "measure": self.measure.key,
            "seat": self.seat,
            **self.difference.as_json(),
            "stands_out": self.stands_out,
        }


def comparison(
    a: Sequence[Record], b: Sequence[Record], players: int, among: Sequence[Measure] | None = None
) -> tuple[list[Row], int]:
    """Every measure (or those `among`: with the counters both versions declare, or as a plot
    draws them), B minus A, over the seeds both versions finished; and how many seeds were left
    out because a game broke on one side or the other."""
    by_seed = {r["seed"]: r for r in finished(b)}
    pairs = [(r, by_seed[r["seed"]]) for r in finished(a) if r["seed"] in by_seed]
    left_out = len(a) - len(pairs)
    if not pairs:
        return [], left_out
    left, right = [p[0] for p in pairs], [p[1] for p in pairs]
    found = [
        (m, seat, paired(_values(m, left, seat), _values(m, right, seat)))
        for m in (measures(players) if among is None else among)
        for seat in _seats(m, players)
    ]
    standing = holm([d for _, _, d in found])
    rows = [Row(m, seat, d, out) for (m, seat, d), out in zip(found, standing, strict=True)]
    return rows, left_out
