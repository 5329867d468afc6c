"""Figures of a simulation and of a comparison, as PNG and SVG files: what `simulate` and
`compare` print, to be seen at a glance.

Every figure is drawn from the list of `meeple.balance` measures it is given, by the kind of
measure and never by its name, so that a measure added there (a counter an author declares) is
drawn with no change here:
- how often something happens (a win, a draw, ...) in one figure, a panel each, with Wilson's
  95% interval;
- a number per seat (the score, ...) as box plots per seat, the mean and its interval marked;
- a number for the whole game (turns, decisions, ...) as a histogram, the mean marked.
A comparison draws A and B side by side in the same figures (B hatched), and a forest plot of
the paired differences B - A, one panel per unit, those that stand out from chance marked.

Imported only for `--plot`: matplotlib takes longer to import than the rest of the command line
takes to start. Figures are made with the object API (`Figure`, no pyplot, no display, the Agg
renderer for PNG), and the SVGs carry a fixed hash salt and no date, so that the same run writes
the same files.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator, PercentFormatter

from meeple.balance import Measure, Record, Row, comparison, finished
from meeple.statistics import spread, wilson

STYLE: dict[str, Any] = {
    "svg.hashsalt": "meeple",  # the ids in an SVG are hashed with it: the same figure, the same file
    "svg.fonttype": "none",  # text stays text: small, searchable, read aloud by a screen reader
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "hatch.linewidth": 0.8,
    "legend.frameon": False,
}
FORMATS = ("png", "svg")
METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}
DPI = 120
HATCHES = ("", "////")  # A plain, B hatched: the same in every figure of a comparison
GAME_COLOUR = "#6b7b8c"  # a figure of the whole game belongs to no seat
MINUS = "\N{MINUS SIGN}"  # the one matplotlib's axes write, for text beside them
B_MINUS_A = f"B {MINUS} A"
DIFFERS, CHANCE = "#c0392b", "#7f8c8d"
MOST_BINS = 40  # a histogram of more values than this groups them
FEW_VALUES = 25  # a number per seat that takes fewer whole values is drawn value by value
LEAST_SPAN = 7  # a histogram spans at least this many units, so that one value is not a wall
LABELLED = 6  # and with each value's share written, when it takes this few
LEGEND_CHARACTERS = 15  # about as many legend characters fit in an inch of figure
ONE_COLUMN_ROWS = 16  # a comparison of more figures than this is drawn in two columns
ROW_INCHES, PANEL_INCHES = 0.3, 0.7  # a figure's row, and a panel's own axis and margins


Heading = tuple[str, str]  # the game's name (or A's and B's) and how many games the figures are of


@dataclass(frozen=True)
class Side:
    """One version's finished games, with what the legend calls it ("" when there is one)."""

    label: str
    records: list[Record]


def plot_simulation(
    records: Sequence[Record], chosen: Sequence[Measure], seats: Sequence[str], title: str, folder: Path
) -> list[Path]:
    """Draw the `chosen` measures of one simulation into `folder` (made if missing); the paths
    written. Nothing is drawn when no game finished. OSError when the folder cannot be written."""
    done = finished(records)
    if not done:
        return []
    with matplotlib.rc_context(STYLE):
        return _save_all(_figures([Side("", done)], chosen, seats, (title, _games(len(done)))), folder)


def plot_comparison(
    a: Sequence[Record],
    b: Sequence[Record],
    chosen: Sequence[Measure],
    seats: Sequence[str],
    titles: tuple[str, str],
    folder: Path,
) -> list[Path]:
    """Draw the `chosen` measures of A and B side by side, and their paired differences, into
    `folder` (made if missing); the paths written. OSError when the folder cannot be written."""
    sides = [Side(f"{k}: {t}", finished(r)) for k, t, r in zip("AB", titles, (a, b), strict=True)]
    heading = f"{titles[0]} (A) against {titles[1]} (B)"
    rows, left_out = comparison(a, b, len(seats), chosen)
    with matplotlib.rc_context(STYLE):
        figures: list[tuple[str, Figure]] = []
        if all(side.records for side in sides):
            na, nb = (len(side.records) for side in sides)  # a game that broke leaves one side short
            each = f"{_games(na)} each" if na == nb else f"{na} and {_games(nb)}"
            figures = _figures(sides, chosen, seats, (heading, each))
        if rows:
            figures.append(("differences", _forest(rows, seats, (heading, _games(len(a) - left_out)))))
        return _save_all(figures, folder)


def _games(n: int) -> str:
    return f"{n}\N{NO-BREAK SPACE}game{'' if n == 1 else 's'}"  # kept on one line of a title


def _figures(
    sides: list[Side], chosen: Sequence[Measure], seats: Sequence[str], heading: Heading
) -> list[tuple[str, Figure]]:
    """The figures of every chosen measure, each with the file name it is saved under."""
    often = [m for m in chosen if m.rate]
    out = [("how_often", _how_often(sides, often, seats, heading))] if often else []
    for m in chosen:
        if not m.rate:
            draw = _per_seat if m.per_seat else _per_game
            out.append((m.key, draw(sides, m, seats, heading)))
    return out


def _save_all(figures: list[tuple[str, Figure]], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, figure in figures:
        for fmt in FORMATS:
            path = folder / f"{name}.{fmt}"
            figure.savefig(path, format=fmt, dpi=DPI, metadata=METADATA[fmt])
            paths.append(path)
    return paths


# ------------------------------------------------------------------ what every figure shares


def _colour(seat: int | None) -> Any:
    """A seat's colour, the same in every figure; grey for the whole game."""
    return GAME_COLOUR if seat is None else matplotlib.colormaps["tab10"](seat % 10)


def _offsets(sides: int, width: float) -> list[float]:
    """Where each side's bar or box goes around its group's centre, side by side."""
    return [(k - (sides - 1) / 2) * width for k in range(sides)]


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _unit(m: Measure) -> str:
    return m.unit or m.label


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sides_legend(figure: Figure, sides: list[Side], extra: Sequence[Any] = (), note: str = "") -> None:
    """Below the figure: which side is which (when there are two), any marker explained, and a
    note on how to read the figure. The note is the legend's title when there is a legend (two
    things placed at the bottom of the same figure would be drawn over each other)."""
    handles = list(extra)
    if len(sides) > 1:
        handles = [
            Patch(facecolor="white", edgecolor="#444444", hatch=HATCHES[k], label=s.label)
            for k, s in enumerate(sides)
        ] + handles
    if not handles:
        if note:
            figure.supxlabel(note, fontsize=8, color="dimgray")
        return
    # two sides: A above B in the first column, the markers in the second; one column where a
    # row of them would be wider than the figure (a long name is cut at the figure's edge)
    columns = 2 if len(sides) > 1 and extra else len(handles)
    widest = max(len(str(h.get_label())) for h in handles)
    if (widest + 6) * columns > figure.get_figwidth() * LEGEND_CHARACTERS:
        columns = 1
    legend = figure.legend(handles=handles, loc="outside lower center", ncols=columns, title=note or None)
    if note:
        legend.get_title().set(fontsize=8, color="dimgray")


def _title(figure: Figure, heading: Heading, what: str) -> None:
    """The figure's title, bold, wrapped to its width: the game (or A and B), then what it shows
    over how many games."""
    characters = int(figure.get_figwidth() * 11)  # about as many bold characters fit in an inch
    names, games = heading
    lines = textwrap.wrap(names, characters) + textwrap.wrap(f"{what} ({games})", characters)
    figure.suptitle("\n".join(lines), fontweight="bold")


def _seat_ticks(ax: Axes, seats: Sequence[str]) -> None:
    many = len(seats) > 6
    ax.set_xticks(range(len(seats)), seats, rotation=45 if many else 0, ha="right" if many else "center")


# ------------------------------------------------------------------ the figures


def _how_often(sides: list[Side], often: list[Measure], seats: Sequence[str], heading: Heading) -> Figure:
    """Every rate, a panel each: a bar per seat (one for a rate of the whole game), per side,
    with its 95% interval and its value written above."""
    groups = [len(seats) if m.per_seat else 1 for m in often]
    bar = 0.8 / len(sides)
    inches = 1.2 + sum(g * (0.3 + 0.4 * len(sides)) for g in groups)
    figure = Figure(figsize=(max(6.4, inches), 4.2), layout="constrained")
    _title(figure, heading, f"{_capital(_listed([m.label for m in often]))}, with 95% intervals")
    grid = figure.subplots(1, len(often), sharey=True, squeeze=False, width_ratios=groups)
    panels: list[Axes] = list(grid[0])
    highest = 0.0
    for ax, m in zip(panels, often, strict=True):
        owners: list[int | None] = list(range(len(seats))) if m.per_seat else [None]
        for i, seat in enumerate(owners):
            for k, (side, dx) in enumerate(zip(sides, _offsets(len(sides), bar), strict=True)):
                values = [m.value(r, seat) for r in side.records]
                rate = sum(values) / len(values)
                low, high = wilson(sum(values), len(values))
                highest = max(highest, high)
                colour = _colour(seat)
                ax.bar(i + dx, rate, bar * 0.92, color=colour, edgecolor="white", hatch=HATCHES[k])
                interval = [[rate - low], [high - rate]]
                ax.errorbar(i + dx, rate, interval, fmt="none", ecolor="black", capsize=3)
                ax.annotate(
                    f"{rate:.0%}", (i + dx, high), xytext=(0, 2), textcoords="offset points",
                    ha="center", va="bottom", fontsize=7 if len(sides) > 1 else 8,
                )  # fmt: skip
        ax.set_title(_capital(m.label))
        if m.per_seat:
            _seat_ticks(ax, seats)
        else:
            ax.set_xticks([0], ["whole game"])
        ax.set_xlim(-0.6, len(owners) - 0.4)
    panels[0].set_ylabel("% of games")
    panels[0].yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    panels[0].set_ylim(0, min(1.1, highest * 1.1 + 0.04))  # room for the values above the bars
    notes = [_capital(m.note) + "." for m in often if m.note]  # as under the table
    _sides_legend(figure, sides, note=" ".join(notes))
    return figure


def _per_seat(sides: list[Side], m: Measure, seats: Sequence[str], heading: Heading) -> Figure:
    """A number per seat, a column per seat and side: when it takes few whole values (a score of
    0 or 1, of 0 to 20) a bar for each value, as wide as the share of games that gave it, since
    quartiles of so few values hide more than they show; otherwise a box plot. The mean and its
    95% interval are a diamond over either, or beside the bars where their shares are written,
    so as not to hide them."""
    width = 0.8 / len(sides)
    inches = 1.5 + len(seats) * (0.5 + 0.55 * len(sides))
    figure = Figure(figsize=(max(6.4, inches), 4.4), layout="constrained")
    _title(figure, heading, f"{_capital(m.label)} per seat")
    ax = figure.subplots()
    values = [[[m.value(r, seat) for r in side.records] for side in sides] for seat in range(len(seats))]
    pooled = [v for per_seat in values for vs in per_seat for v in vs]
    few = _whole(pooled) and max(pooled) - min(pooled) < FEW_VALUES
    widest = max(max(Counter(vs).values()) / len(vs) for per_seat in values for vs in per_seat)
    labelled = few and len(set(pooled)) <= LABELLED
    aside = width * 0.4 if labelled else 0.0  # where the mean goes, right of the column's centre
    for seat, per_seat in enumerate(values):
        for k, (vs, dx) in enumerate(zip(per_seat, _offsets(len(sides), width), strict=True)):
            look = {"facecolor": _colour(seat), "edgecolor": "black", "hatch": HATCHES[k], "alpha": 0.85}
            if few:
                shift, share = (width * 0.08, 0.7) if labelled else (0.0, 0.85)
                _value_bars(ax, vs, seat + dx - shift, width * share / widest, look, labelled)
            else:
                boxes = ax.boxplot(
                    [vs], positions=[seat + dx], widths=width * 0.85, patch_artist=True,
                    medianprops={"color": "black"}, flierprops={"marker": ".", "markersize": 3},
                )  # fmt: skip
                for box in boxes["boxes"]:
                    box.set(**look)
            s = spread(vs, count=m.count)
            ax.errorbar(
                seat + dx + aside, s.mean, [[s.mean - s.low], [s.high - s.mean]], fmt="D", color="black",
                markerfacecolor="white", markersize=5, capsize=3, zorder=3,
            )  # fmt: skip
    _seat_ticks(ax, seats)
    ax.set_xlim(-0.6, len(seats) - 0.4)
    ax.set_ylabel(_unit(m))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    shape = f"bar width: % of games with that {m.label}" if few else "box: middle half, line: median"
    mean = Line2D(
        [], [], marker="D", color="black", markerfacecolor="white", ls="", label="mean (95% interval)"
    )
    marks = [Patch(facecolor="#dddddd", edgecolor="black", label=shape), mean]
    _sides_legend(figure, sides, marks)
    return figure


def _value_bars(
    ax: Axes, values: list[float], x: float, scale: float, look: dict[str, Any], label: bool
) -> None:
    """One column of `_per_seat`: a horizontal bar per value centred on x, `scale` wide per unit
    of share, its share written on it when there are few values."""
    for value, count in sorted(Counter(values).items()):
        share = count / len(values)
        ax.barh(value, share * scale, 0.8, left=x - share * scale / 2, **look)
        if label:
            backing = {"facecolor": "white", "alpha": 0.8, "edgecolor": "none", "pad": 1}
            ax.text(x, value, f"{share:.0%}", ha="center", va="center", fontsize=7, bbox=backing)


def _whole(values: list[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def _bins(values: list[float]) -> numpy.ndarray:
    """The histogram's bin edges, at most `MOST_BINS` bins: for whole numbers (a count of turns)
    each bin holds the same number of whole values, one each when there are few, since uneven
    bins would draw spikes that are not there."""
    low, high = min(values), max(values)
    if _whole(values):
        width = math.ceil((high - low + 1) / MOST_BINS)
        return numpy.arange(low - 0.5, high + width, width)
    return numpy.histogram_bin_edges(values, bins=min(MOST_BINS, len(set(values))))


def _per_game(sides: list[Side], m: Measure, seats: Sequence[str], heading: Heading) -> Figure:
    """A number for the whole game: a histogram in % of games, the sides' bars side by side over
    the same bins, each side's mean a line with its 95% interval shaded. (`seats` is unused: it
    takes what `_per_seat` takes, so that `_figures` calls either alike.)"""
    figure = Figure(figsize=(6.4, 4.2), layout="constrained")
    _title(figure, heading, f"{_capital(m.label)} per game")
    ax = figure.subplots()
    values = [[m.value(r, None) for r in side.records] for side in sides]
    edges = _bins([v for vs in values for v in vs])
    step = edges[1] - edges[0]
    bar = 0.9 * step / len(sides)
    means = []
    for k, (side, vs, dx) in enumerate(zip(sides, values, _offsets(len(sides), bar), strict=True)):
        counts, _ = numpy.histogram(vs, edges)
        centres = (edges[:-1] + edges[1:]) / 2
        ax.bar(centres + dx, counts / len(vs), bar, color=GAME_COLOUR, edgecolor="white", hatch=HATCHES[k])
        s = spread(vs, count=m.count)
        style = ("--", ":")[k]
        ax.axvline(s.mean, color="black", ls=style, lw=1.2)
        ax.axvspan(s.low, s.high, color="black", alpha=0.12, lw=0, zorder=0)
        name = f"{side.label[:1]}: mean" if side.label else "mean"
        interval = f"95% interval {s.low:.2f} to {s.high:.2f}, shaded"
        means.append(Line2D([], [], color="black", ls=style, label=f"{name} {s.mean:.2f} ({interval})"))
    room = LEAST_SPAN - (edges[-1] - edges[0])
    if room > 0:  # a few values, or one, drawn as bars of a sensible width with room around them
        ax.set_xlim(edges[0] - room / 2, edges[-1] + room / 2)
    ax.set_xlabel(_unit(m))
    ax.set_ylabel("% of games")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    _sides_legend(figure, sides, means)
    return figure


def _forest(rows: list[Row], seats: Sequence[str], heading: Heading) -> Figure:
    """The paired differences B - A with their 95% intervals, a panel per unit (a rate's in
    percentage points), a line at zero; those that stand out from chance in colour, with their
    figures written on the right. Many figures (a game with counters, four seats: 40 and more)
    are laid out in two columns of panels, not one strip a screen cannot show whole."""
    units: dict[str, list[Row]] = {}
    for row in rows:
        units.setdefault("percentage points" if row.measure.rate else _unit(row.measure), []).append(row)
    columns = _columns(list(units.values()), 2 if len(rows) > ONE_COLUMN_ROWS else 1)
    tallest = max(sum(len(g) * ROW_INCHES + PANEL_INCHES for g in column) for column in columns)
    figure = Figure(figsize=(7.5 * len(columns), 1.3 + tallest), layout="constrained")
    _title(figure, heading, f"{B_MINUS_A}, paired seed by seed, with 95% intervals")
    parts = figure.subfigures(1, len(columns), squeeze=False)[0] if len(columns) > 1 else [figure]
    for part, column in zip(parts, columns, strict=True):
        heights = [len(g) * ROW_INCHES + PANEL_INCHES for g in column]
        room = tallest - sum(heights)
        ratios = heights + ([room] if room > 0 else [])
        grid = part.subplots(len(ratios), 1, squeeze=False, height_ratios=ratios)
        panels: list[Axes] = list(grid[:, 0])
        if room > 0:
            panels.pop().set_axis_off()  # the shorter column's panels keep the other's heights
        for ax, group in zip(panels, column, strict=True):
            _forest_panel(ax, group, seats, first=ax is panels[0])
    marks = [
        Line2D([], [], marker="o", color=DIFFERS, ls="", label="differs beyond chance (Holm's correction)"),
        Line2D([], [], marker="o", color=CHANCE, markerfacecolor="white", ls="", label="within chance"),
    ]
    figure.legend(handles=marks, loc="outside lower center", ncols=2)
    return figure


def _columns(groups: list[list[Row]], count: int) -> list[list[list[Row]]]:
    """The panels (groups of rows) in `count` columns, in their order, the columns as even in
    height as a cut between two panels makes them."""
    if count == 1:
        return [groups]
    heights = [len(g) * ROW_INCHES + PANEL_INCHES for g in groups]
    total, above, cut = sum(heights), 0.0, len(groups)
    for i, h in enumerate(heights):
        if above + h / 2 >= total / 2:
            cut = max(1, i)
            break
        above += h
    return [groups[:cut], groups[cut:]] if cut < len(groups) else [groups]


def _forest_panel(ax: Axes, group: list[Row], seats: Sequence[str], first: bool) -> None:
    """One unit's differences: a row each, its figures on the right."""
    scale = 100 if group[0].measure.rate else 1
    unit = "percentage points" if group[0].measure.rate else _unit(group[0].measure)
    ys = list(range(len(group)))[::-1]
    for y, row in zip(ys, group, strict=True):
        d = row.difference
        colour = DIFFERS if row.stands_out else CHANCE
        ax.errorbar(
            d.mean * scale, y, xerr=[[(d.mean - d.low) * scale], [(d.high - d.mean) * scale]],
            fmt="o", color=colour, markerfacecolor=colour if row.stands_out else "white",
            capsize=3, markersize=5,
        )  # fmt: skip
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(ys, [_what(row, seats) for row in group])
    right = ax.secondary_yaxis("right")
    right.set_yticks(ys, [_numbers(row, scale) for row in group])
    right.spines["right"].set_visible(False)
    right.tick_params(length=0)
    for labels in (ax.get_yticklabels(), right.get_yticklabels()):
        for label, row in zip(labels, group, strict=True):
            label.set_color(DIFFERS if row.stands_out else "black")
    ax.set_ylim(-0.6, len(group) - 0.4)
    if first:
        ax.annotate(
            f"{B_MINUS_A} (95% interval)", (1, 1), xycoords="axes fraction", xytext=(8, 4),
            textcoords="offset points", ha="left", va="bottom", fontweight="bold",
        )  # fmt: skip
    ax.set_xlabel(f"{B_MINUS_A} ({unit})")
    low = min(r.difference.low for r in group) * scale
    high = max(r.difference.high for r in group) * scale
    reach = max(abs(low), abs(high)) * 1.1 or 1.0
    ax.set_xlim(-reach, reach)  # zero in the middle: which way each one goes is seen at once


def _what(row: Row, seats: Sequence[str]) -> str:
    label = _capital(row.measure.label)
    return label if row.seat is None else f"{seats[row.seat]}: {row.measure.label}"


def _numbers(row: Row, scale: int) -> str:
    """A difference and its interval as `compare` prints them (a rate's to 0.1 point)."""
    d, digits = row.difference, 1 if row.measure.rate else 2
    text = f"{d.mean * scale:+.{digits}f}  ({d.low * scale:+.{digits}f} to {d.high * scale:+.{digits}f})"
    return text.replace("-", MINUS)  # the minus of the axes
