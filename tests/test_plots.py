"""`--plot DIR`: `meeple simulate` and `meeple compare` write one PNG and one SVG per figure, the
same files for the same run; without matplotlib, or into a folder that cannot be written, a plain
error and no traceback."""

from __future__ import annotations

import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner, Result

from meeple.cli import app

if TYPE_CHECKING:  # matplotlib is imported only where it is there (importorskip below)
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure

    from meeple.balance import Measure
    from meeple.plots import Side

pytest.importorskip("matplotlib")

GAMES = Path(__file__).parent / "games"
TIC_TAC_TOE = str(GAMES / "tic_tac_toe.rules")
NO_DIAGONALS = str(GAMES / "tic_tac_toe_no_diagonals.rules")
THREE_SEATS = """game "Three seats":
  players 3..3

score p = if p == players[2] then 0 else 1

play:
  log "nothing happens"
"""
SIMULATION = ["how_often", "score", "turns", "decisions"]
PNG = b"\x89PNG\r\n\x1a\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def figures(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def assert_figures(folder: Path, names: list[str]) -> None:
    """Each figure as a PNG with a picture in it and as an SVG that parses, and nothing else."""
    expected = sorted(f"{n}.{e}" for n in names for e in ("png", "svg"))
    assert sorted(p.name for p in folder.iterdir()) == expected
    for name in names:
        png = (folder / f"{name}.png").read_bytes()
        assert png[:8] == PNG and png[12:16] == b"IHDR"
        width, height = struct.unpack(">II", png[16:24])
        assert 400 <= width <= 3000 and 300 <= height <= 3000, (name, width, height)
        svg = ET.parse(folder / f"{name}.svg").getroot()
        assert svg.tag == "{http://www.w3.org/2000/svg}svg"
        assert len(svg) > 0


def test_simulate_writes_every_figure_once_as_png_and_svg(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "figures"  # made, parents too
    result = run("simulate", TIC_TAC_TOE, "--games", "30", "--jobs", "1", "--plot", str(folder))
    assert result.exit_code == 0, result.stderr
    assert_figures(folder, SIMULATION)
    assert "4 figures (PNG and SVG)" in result.stderr


def test_figures_speak_players_words_and_json_stays_alone_on_stdout(tmp_path: Path) -> None:
    rules = tmp_path / "three.rules"
    rules.write_text(THREE_SEATS, encoding="utf-8")
    args = ("simulate", str(rules), "--games", "3", "--jobs", "1", "--json")
    result = run(*args, "--plot", str(tmp_path / "f"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("{")
    assert_figures(tmp_path / "f", SIMULATION)
    svg = (tmp_path / "f" / "how_often.svg").read_text(encoding="utf-8")
    for words in ("Three seats", "Shared wins", "Player 3", "% of games"):  # players' words
        assert words in svg
    assert "shared_win_rate" not in svg  # not the JSON's


def test_compare_writes_both_sides_and_the_differences_the_same_each_time(tmp_path: Path) -> None:
    written = []
    for name in ("one", "two"):
        args = ("compare", TIC_TAC_TOE, NO_DIAGONALS, "--games", "30", "--jobs", "1")
        result = run(*args, "--plot", str(tmp_path / name))
        assert result.exit_code == 0, result.stderr
        written.append(figures(tmp_path / name))
    assert_figures(tmp_path / "one", [*SIMULATION, "differences"])
    assert written[0] == written[1]  # no date, a fixed hash salt: the same run, the same files


def test_without_matplotlib_plot_is_a_usage_error_saying_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    result = run("simulate", TIC_TAC_TOE, "--games", "2", "--plot", str(tmp_path / "f"))
    assert result.exit_code == 2
    assert "pip install 'meeple[plot]'" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "f").exists()


def test_a_folder_that_cannot_be_written_is_an_error_before_any_game(tmp_path: Path) -> None:
    file = tmp_path / "a file"
    file.write_text("", encoding="utf-8")
    for args in (("simulate", TIC_TAC_TOE), ("compare", TIC_TAC_TOE, NO_DIAGONALS)):
        result = run(*args, "--games", "2", "--plot", str(file / "figures"))
        assert result.exit_code == 1
        assert "is not a folder" in result.stderr
        assert result.stdout == ""  # refused before playing
        assert "Traceback" not in result.output


def test_a_write_that_fails_later_is_an_error_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple import plots

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots.Figure, "savefig", full)
    result = run("simulate", TIC_TAC_TOE, "--games", "2", "--plot", str(tmp_path))
    assert result.exit_code == 1
    assert "cannot write the figures" in result.stderr and "No space left" in result.stderr


# ------------------------------------------------------------------ what a designer sees


def _drawn(figure: Figure) -> RendererBase:
    """A figure laid out as saved, for its artists' places on the page."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure).draw()
    return figure.canvas.get_renderer()


def _sides(values: list[list[int]]) -> list[Side]:
    from meeple import plots

    return [
        plots.Side(f"{k}: a rather long name of a version of the game", [{"v": v} for v in vs])
        for k, vs in zip("AB", values, strict=True)
    ]


def _seatless(name: str, note: str = "", rate: bool = False, per_seat: bool = False) -> Measure:
    from meeple.balance import Measure

    return Measure(
        name, name.replace("_", " "), per_seat, rate, lambda r, seat: r["v"], note=note, count=not rate
    )


def test_a_figures_note_and_its_legend_are_not_drawn_over_each_other() -> None:
    """Plots: "a legend over the footnote". The note of how to read a figure is the legend's title
    when there is a legend."""
    from meeple import plots

    sides = _sides([[1, 0, 1, 1], [0, 0, 1, 0]])
    figure = plots._how_often(
        sides, [_seatless("draws", note="a draw counts half")], ["P1"], ("G", "4 games")
    )
    renderer = _drawn(figure)
    legend = figure.legends[0]
    assert legend.get_title().get_text() == "A draw counts half."
    assert figure._supxlabel is None or not figure._supxlabel.get_text()
    assert figure.bbox.contains(*legend.get_window_extent(renderer).p0)


def test_a_long_legend_is_stacked_rather_than_cut_at_the_figures_edge() -> None:
    """Plots: "legends clipped (counter_*)"."""
    from meeple import plots

    measure = _seatless("counter_dinosaurs_that_went_hungry_on_the_plains", per_seat=True)
    figure = plots._per_seat(_sides([[1, 2, 2, 3], [0, 1, 2, 2]]), measure, ["P1"], ("G", "4 games"))
    renderer = _drawn(figure)
    box = figure.legends[0].get_window_extent(renderer)
    assert box.x0 >= 0 and box.x1 <= figure.bbox.width


def test_the_mean_is_drawn_beside_the_shares_it_would_hide() -> None:
    """Plots: "the mean marker over percentage labels"."""
    from meeple import plots

    measure = _seatless("eggs", per_seat=True)
    figure = plots._per_seat(
        _sides([[0, 0, 1, 1, 2], [0, 1, 1, 1, 2]]), measure, ["P1", "P2"], ("G", "5 games")
    )
    renderer = _drawn(figure)
    ax = figure.axes[0]
    shares = [t.get_window_extent(renderer) for t in ax.texts if t.get_text().endswith("%")]
    means = [line for line in ax.lines if line.get_marker() == "D"]
    assert shares and means
    for line in means:
        x, y = ax.transData.transform((line.get_xdata()[0], line.get_ydata()[0]))
        assert not any(box.x0 - 4 <= x <= box.x1 + 4 and box.y0 - 4 <= y <= box.y1 + 4 for box in shares)


def test_many_differences_are_laid_out_in_two_columns_not_one_long_strip() -> None:
    """Plots: "a 2,359 px tall differences plot": 4 seats and counters make 40 figures and more."""
    from meeple import plots
    from meeple.balance import Row
    from meeple.statistics import paired

    rows = [
        Row(_seatless(f"counter_{i}", per_seat=True), seat, paired([1, 2, 3], [2, 2, 4]))
        for i in range(10)
        for seat in range(4)
    ]
    figure = plots._forest(rows, ["P1", "P2", "P3", "P4"], ("G", "3 games"))
    assert len(figure.subfigs) == 2
    assert figure.get_figheight() * plots.DPI < 1600
