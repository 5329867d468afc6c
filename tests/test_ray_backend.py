"""`meeple simulate --backend ray` and `meeple compare --backend ray`: the seeds played as tasks
on a Ray cluster give exactly the statistics a local run of the same seeds gives, a worker loads
the game from the texts it is sent and reads no file of its own, and what keeps Ray from being
used (not installed, a cluster that does not answer) is a usage error said in one line.

The tests that play on Ray start a local instance of two CPUs through the command line itself
(no --address); they are skipped when Ray is not installed (CI installs it: `.[test,ray]`)."""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT
from typer.testing import CliRunner, Result

import meeple
from meeple import ray_backend, ray_shipping
from meeple.cli import app
from meeple.loader import Refused
from meeple.simulation import batch_size, plan_for, play_one

GAMES = Path(__file__).parent / "games"
TIC_TAC_TOE = str(GAMES / "tic_tac_toe.rules")
NO_DIAGONALS = str(GAMES / "tic_tac_toe_no_diagonals.rules")

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason=f"Ray is not installed ({ray_backend.INSTALL})"
)

# A base game whose choices come from a CSV table below its folder, and a variant of it beside
# it: every kind of file a load reads. Some seeds divide by zero, so records carry messages that
# name a file and a line.
BASE = """game "Boom":
  players 2..3

table pick (name, value: int) from "data/picks.csv":
  says "What may be picked."

var n: int = 0

play:
  choose x from [r.value for each r in pick] by players[0] prompt "Pick":
    set n to 10 // (x - 1)
"""
PICKS = "name,value\none,1\ntwo,2\nthree,3\n"
VARIANT = """variant "Boom for two" of "boom.rules":
  players 2..2
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def boom(folder: Path) -> Path:
    """The variant, its base and the base's table, written into `folder`."""
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "picks.csv").write_text(PICKS, encoding="utf-8")
    (folder / "boom.rules").write_text(BASE, encoding="utf-8")
    path = folder / "boom_for_two.rules"
    path.write_text(VARIANT, encoding="utf-8")
    return path


# ------------------------------------------------------------------ what a task is sent


def test_a_bundle_holds_the_text_of_every_file_the_game_reads(tmp_path: Path) -> None:
    rules = str(boom(tmp_path))
    sent = ray_backend.bundle(plan_for(meeple.load(rules), rules, 2, ["random"]))
    folder = tmp_path.resolve()
    assert {name for name, _ in sent.texts} == {
        rules,
        str(folder / "boom.rules"),
        str(folder / "data" / "picks.csv"),
    }
    assert dict(sent.texts)[str(folder / "data" / "picks.csv")] == PICKS


def test_a_worker_plays_from_the_bundle_the_records_a_local_run_gives_without_the_files(
    tmp_path: Path,
) -> None:
    """The files are gone when the worker loads the game: it reads only what it was sent, and
    its messages name the files as the local run's do."""
    rules = str(boom(tmp_path / "here"))
    game = meeple.load(rules)
    plan = plan_for(game, rules, 2, ["random"])
    sent = ray_backend.bundle(plan)
    local = [play_one(game, plan, seed) for seed in range(20)]
    (tmp_path / "here").rename(tmp_path / "gone")
    assert ray_backend.play_bundled(sent, plan, range(20)) == local
    broken = [r for r in local if r["status"] == "failed"]
    assert broken and len(broken) < 20
    assert all(r["error"].startswith(f"{tmp_path.resolve() / 'here' / 'boom.rules'}:") for r in broken)


def test_a_bundle_answers_no_question_its_load_did_not_ask(tmp_path: Path) -> None:
    rules = str(boom(tmp_path))
    files = ray_backend.Replayed(ray_backend.bundle(plan_for(meeple.load(rules), rules, 2, ["random"])))
    with pytest.raises(Refused):
        files.rules(Path("/etc/passwd"))
    with pytest.raises(Refused):
        files.data("../secret.csv", tmp_path)
    with pytest.raises(Refused):
        files.base("dino_party", tmp_path)


def test_a_batch_is_sized_by_the_time_of_a_game_and_spread_over_the_cpus() -> None:
    task = ray_backend.TASK_SECONDS
    assert batch_size(0.1, 1000, 2, task) == 5  # half a second of games each
    assert batch_size(0.0001, 1000, 2, task) == 125  # fast games: 4 batches per CPU
    assert batch_size(10, 1000, 2, task) == 1
    assert batch_size(0.0001, 3, 64, task) == 1


# ------------------------------------------------------------------ what keeps Ray from being used


def test_without_ray_installed_the_ray_backend_is_a_usage_error_saying_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` does without Ray: ImportError
    result = run("simulate", TIC_TAC_TOE, "--games", "5", "--backend", "ray")
    assert result.exit_code == 2
    assert "pip install 'meeple[ray]'" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_an_address_is_refused_without_the_ray_backend() -> None:
    result = run("compare", TIC_TAC_TOE, NO_DIAGONALS, "--games", "5", "--address", "auto")
    assert result.exit_code == 2 and "--backend ray" in result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@needs_ray
def test_an_address_nothing_answers_at_is_a_usage_error_at_once() -> None:
    address = f"127.0.0.1:{_free_port()}"
    result = run("simulate", TIC_TAC_TOE, "--games", "5", "--backend", "ray", "--address", address)
    assert result.exit_code == 2
    assert f"cannot reach the Ray cluster at {address}" in result.stderr and "Traceback" not in result.stderr


@needs_ray
def test_a_cluster_that_never_answers_is_given_up_on_when_its_time_is_up() -> None:
    """Something listens at the address but no Ray answers: Ray would retry for many minutes;
    the command gives up after CONNECT_SECONDS (one, here: in a process of its own, since Ray is
    left trying in it)."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        address = f"127.0.0.1:{listening.getsockname()[1]}"
        script = (
            "import sys; from meeple import ray_backend; ray_backend.CONNECT_SECONDS = 1\n"
            "from meeple.console import main; sys.argv = ['meeple', *sys.argv[1:]]; main()"
        )
        args = ["simulate", TIC_TAC_TOE, "--games", "5", "--backend", "ray", "--address", address]
        done = subprocess.run(
            [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 2, done.stderr
    assert f"the Ray cluster at {address} did not answer within 1 s" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


# ------------------------------------------------------------------ the same statistics


def _both(*args: str) -> tuple[Result, Result]:
    """The same command run here (one process) and on a local Ray instance of two CPUs."""
    return run(*args, "--jobs", "1"), run(*args, "--backend", "ray", "--jobs", "2")


@needs_ray
def test_simulate_on_ray_gives_the_statistics_of_a_local_run_of_the_same_seeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run, as a user with a clone would, from a folder that holds a `meeple/` directory that is
    not the package: Ray puts the driver's folder on the workers' import path, and every task
    failed with "module 'meeple' has no attribute 'load'" before the job had a folder of its own."""
    (tmp_path / "meeple").mkdir()
    (tmp_path / "meeple" / "__init__.py").write_text("")
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "dino_party", "--games", "30", "--players", "3", "--seed", "7", "--json"]
    local, on_ray = _both(*args)
    assert local.exit_code == on_ray.exit_code == 0, on_ray.stderr
    assert on_ray.stdout == local.stdout


# The compare and the broken games below start a Ray instance each (about 20 s, mostly Ray's
# start): they run with the soaks; the default run keeps the simulate above, the same path.
@needs_ray
@pytest.mark.soak
def test_compare_on_ray_gives_the_comparison_of_a_local_run_of_the_same_seeds() -> None:
    local, on_ray = _both("compare", TIC_TAC_TOE, NO_DIAGONALS, "--games", "300", "--seed", "11", "--json")
    assert local.exit_code == on_ray.exit_code == 0, on_ray.stderr
    assert on_ray.stdout == local.stdout


@needs_ray
@pytest.mark.soak
def test_games_that_break_on_ray_are_reported_as_a_local_run_reports_them(tmp_path: Path) -> None:
    local, on_ray = _both("simulate", str(boom(tmp_path)), "--games", "40", "--json")
    assert local.exit_code == on_ray.exit_code == 1
    assert on_ray.stdout == local.stdout and on_ray.stderr == local.stderr


# ------------------------------------------------------------------ the workers' meeple


def _bare_python(code: str, folder: Path, *path: Path) -> subprocess.CompletedProcess[str]:
    """`code` in a Python that does not import this checkout's meeple: no site processing (the
    editable install's finder is a .pth), only the installed libraries' folder and `path`, run
    in `folder` (not the checkout, whose own `meeple/` a `-c` would import)."""
    import sysconfig

    where = [str(p) for p in path] + [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    setup = f"import sys; sys.path[:0] = {where!r}\n"
    return subprocess.run(
        [sys.executable, "-S", "-c", setup + code], capture_output=True, text=True, timeout=300
    )


def test_the_subpackages_shipped_are_those_pyproject_installs() -> None:
    import tomllib

    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert set(ray_shipping.SUBPACKAGES) == {p.split(".")[1] for p in packages if p.count(".") == 1}


def test_a_staged_meeple_is_one_package_folder_that_loads_and_plays_its_games(tmp_path: Path) -> None:
    """What is sent to workers without meeple: the package as installed here, laid out as a
    wheel lays it out, with the same digest, playing the same games; no Rust build or sources."""
    staged = ray_shipping.stage(tmp_path)
    assert not list(staged.rglob("target")) and not list(staged.rglob("*.rs"))
    code = (
        "import meeple, json\n"
        "from meeple import ray_shipping\n"
        "from meeple.simulation import plan_for, play_one\n"
        "game = meeple.load('dino_party')\n"
        "record = play_one(game, plan_for(game, 'dino_party', 3, ['random']), 5)\n"
        "print(json.dumps([meeple.__file__, ray_shipping.here().digest, record['scores']]))\n"
    )
    done = _bare_python(code, tmp_path, tmp_path)
    assert done.returncode == 0, done.stderr
    where, digest, scores = json.loads(done.stdout)
    assert Path(where).is_relative_to(staged)
    assert digest == ray_shipping.here().digest
    game = meeple.load("dino_party")
    assert scores == play_one(game, plan_for(game, "dino_party", 3, ["random"]), 5)["scores"]


@needs_ray
def test_the_probe_runs_where_meeple_is_missing_and_says_why(tmp_path: Path) -> None:
    """The probe is sent by value: a worker without meeple can run it, and it answers that it has
    none rather than failing to unpickle the task."""
    import ray.cloudpickle as cloudpickle

    cloudpickle.register_pickle_by_value(ray_shipping)
    try:
        sent = cloudpickle.dumps(ray_shipping.probe)
    finally:
        cloudpickle.unregister_pickle_by_value(ray_shipping)
    code = f"import ray.cloudpickle as c; print(c.loads({sent!r})())"
    done = _bare_python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("('', '', \"ModuleNotFoundError: No module named 'meeple")  # or 'meeple.X'


def test_a_worker_that_runs_another_meeple_is_said_in_one_line() -> None:
    here = ray_shipping.Installed("0.2.0", "abc", "/here/meeple")
    older = ray_shipping.Installed("0.1.0", "def", "/there/meeple")
    rebuilt = ray_shipping.Installed("0.2.0", "def", "/there/meeple")
    assert ray_shipping.mismatch(here, older) == (
        "the Ray workers run meeple 0.1.0 and this machine meeple 0.2.0: "
        "install the same version on every node"
    )
    assert "another build of meeple 0.2.0 (/there/meeple)" in ray_shipping.mismatch(here, rebuilt)
    assert not here.same(rebuilt) and here.same(ray_shipping.Installed("0.2.0", "abc", "/elsewhere"))
