"""Playing a simulation's seeds as tasks on a Ray cluster (`meeple simulate --backend ray`).

Imported only when a command asks for Ray, and Ray itself only when a cluster is wanted: without
Ray installed, everything but `connect` works, and `connect` says how to install it.

**What a task is sent.** On a real cluster the rules file is not on the other machines, so a
task does not name a file: it gets a `Bundle`, the text of every file the game's load read here
(the rules, a variant's base, the CSV tables of either) with how each name inside a file was
resolved, and a worker loads the game from those texts alone (`Replayed`, through the loader's
`Files` seam), under the same file names, so that its messages, and so its records, are the
ones a local run gives. Only our own frozen dataclasses of strings and numbers are sent (Ray
pickles them); nothing a user wrote is ever unpickled or run: a worker parses the texts with
the same parser as here, and sends back plain records (dicts of numbers, strings and lists of
them). The bundle is put into Ray's object store once per run and shared by every task; a
worker process loads the game once per bundle and keeps it for the tasks that follow.

The meeple *code* is sent only to workers that have none (`meeple.ray_shipping`: this machine's
meeple as a `py_module`, its dependencies through Ray's `pip`); a worker that runs another meeple
stops the run in one line (the records are the engine's), and the driver's working directory
never shadows the installed package. A Ray cluster runs whatever code its clients send it, so
connect only to a cluster you trust, with Ray's own settings for it (`RAY_AUTH_MODE`, its
token); they are Ray's business and pass through untouched (docs/ray.md).

**Batches.** A task costs about a millisecond and a half to send and collect on the 2-core
development machine, and a game from a third of a millisecond (the smallest test game) to a
tenth of a second (the longest bundled one), so no fixed number of games per task suits every
game: the first game is played here, timed, and a batch is as many games as take about
`TASK_SECONDS`, but never so many that there are fewer than `simulation.SPREAD` batches per CPU of the
cluster (for the work to spread evenly and the progress bar to move). The first game's record
is kept: each game depends on its seed only, wherever it is played.

**Start-up.** Starting a local instance takes about 6 s on the development machine and
stopping it about 1.5 s; joining a running cluster a fraction of a second; a worker loads the
game in its first task (about half a second for the longest bundled game). So Ray pays off
for runs of minutes on more CPUs than one machine has, not for a quick check.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import meeple
from meeple import ray_shipping
from meeple.diagnostics import RulesError
from meeple.interpreter.engine import Game
from meeple.loader import Files, OptionError, Recorded, Refused, asked
from meeple.simulation import Plan, batch_size, play_one

INSTALL = "pip install 'meeple[ray]'"
CONNECT_SECONDS = 30  # to reach and join a cluster named by --address, before giving up
PROBE_SECONDS = 5  # to open a connection to its host and port, before Ray is asked to
TASK_SECONDS = 0.5  # of games per task: the task's cost is then a fraction of a percent
PROBE_TASK_SECONDS = 600  # for a worker to say which meeple it runs (Ray's pip may install it first)
LOCAL_STORE = 128 * 2**20  # object store of a local instance: only records and texts go through it


class BackendError(Exception):
    """Ray cannot be used as asked: not installed, or the cluster cannot be reached. The
    command line's mistake (or its machine's), said in one line."""


class TaskError(Exception):
    """The run cannot go on: not a game that broke (its record says so) but a worker that could
    not load the game or died, or rules that changed since they were loaded."""


# ------------------------------------------------------------------ what a task is sent


@dataclass(frozen=True)
class Bundle:
    """A game's files as a load read them: enough for a worker with no file of its own to load
    it, and nothing else."""

    rules: str  # the rules file as the loader named it (its messages name it so)
    texts: tuple[tuple[str, str], ...]  # (path, text) of every file read
    found: tuple[tuple[str, str], ...]  # (what was asked, the path it gave): names resolved
    key: str  # a digest of the rest: what a worker keeps its game by

    def text(self, path: Path) -> str:
        for name, text in self.texts:
            if name == str(path):
                return text
        raise Refused(f"'{path}' was not sent with the game")

    def path(self, asked: str) -> Path:
        for question, answer in self.found:
            if question == asked:
                return Path(answer)
        raise Refused(f"'{asked}' was not sent with the game")


class Replayed(Files):
    """A bundle's files, answering exactly the questions the recorded load asked, and refusing
    any other: a worker reads nothing of its own disk."""

    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle

    def find(self, name_or_path: str | Path) -> Path:
        return self.bundle.path(asked("find", name_or_path))

    def rules(self, path: Path) -> str:
        return self.bundle.text(path)

    def base(self, name: str, folder: Path) -> Path:
        return self.bundle.path(asked("base", name, folder))

    def data(self, name: str, folder: Path) -> tuple[Path, str]:
        path = self.bundle.path(asked("data", name, folder))
        return path, self.bundle.text(path)


def bundle(plan: Plan) -> Bundle:
    """The files the plan's game reads, read again here as the load reads them. Raises what
    `meeple.load` raises: the game was loaded before, but its files may have changed since."""
    files = Recorded()
    meeple.load(plan.rules, dict(plan.options), files)
    texts = tuple(sorted(files.texts.items()))
    found = tuple(sorted(files.found.items()))
    digest = hashlib.sha256(repr((plan.rules, texts, found)).encode()).hexdigest()
    return Bundle(plan.rules, texts, found, digest)


# ------------------------------------------------------------------ on a worker

# A worker process loads a game once per bundle and option values, for the tasks that follow.
_GAMES: dict[tuple[str, tuple[tuple[str, str], ...]], Game] = {}


def play_bundled(bundle: Bundle, plan: Plan, seeds: Sequence[int]) -> list[dict[str, Any]]:
    """A task: the records of `seeds`, in their order, with the game loaded from the bundle."""
    key = (bundle.key, plan.options)
    if key not in _GAMES:
        _GAMES[key] = meeple.load(bundle.rules, dict(plan.options), Replayed(bundle))
    game = _GAMES[key]
    return [play_one(game, plan, seed) for seed in seeds]


# ------------------------------------------------------------------ on the driver


def _ray() -> Any:
    """The `ray` module, or a BackendError that says how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError(f"--backend ray needs Ray, which is not installed: {INSTALL}") from None
    return ray


@contextmanager
def _interrupt_kept() -> Iterator[list[int]]:
    """A Ctrl-C while a local instance starts is kept (in the list) until it has started, and
    the caller then stops it: a start cut short leaves Ray processes behind that nothing ends.
    Its processes block the interrupt themselves."""
    heard: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield heard
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: heard.append(signum))
    try:
        yield heard
    finally:
        signal.signal(signal.SIGINT, previous)


def _reachable(address: str) -> None:
    """A cluster named by host and port answers a connection within PROBE_SECONDS, or the run
    stops here: Ray itself would retry for many minutes before it gave up."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return  # "auto", or a form Ray reads itself (and refuses at once if it cannot)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as err:
        raise BackendError(f"cannot reach the Ray cluster at {address}: {err.strerror or err}") from None


class Cluster:
    """A connection to Ray for one run: `play` sends batches of seeds and yields their records.
    `notice`: what the run should tell its user about the workers (meeple sent to them), or ""."""

    def __init__(self, ray: Any, empty: Path, notice: str = "") -> None:
        self.ray = ray
        self.empty = empty  # the run's scratch folder: the job's working directory, meeple staged
        self.notice = notice
        self.task = ray.remote(play_bundled)
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def play(self, game: Game, plan: Plan, seeds: range) -> Iterator[list[dict[str, Any]]]:
        """The records of `seeds` a batch at a time, as the batches are done: in any order (the
        caller puts them in seed order), so that a progress bar moves with the work."""
        if not seeds:
            return
        began = time.perf_counter()
        yield [play_one(game, plan, seeds[0])]  # played here, to size the batches
        rest = seeds[1:]
        if not rest:
            return
        size = batch_size(time.perf_counter() - began, len(rest), self.cpus, TASK_SECONDS)
        try:
            shared = self.ray.put(bundle(plan))
        except (RulesError, OptionError, OSError, Refused) as err:  # changed since it was loaded
            raise TaskError(f"cannot read {plan.rules} again to send it: {err}") from None
        parts = [list(rest[i : i + size]) for i in range(0, len(rest), size)]
        pending = [self.task.remote(shared, plan, part) for part in parts]
        # On Ctrl-C, a failed task or a caller that stops reading, the tasks left are not
        # cancelled one by one (Ray 2.60 can crash when a task it cancels is finishing): the
        # caller closes the connection, and a job whose driver has gone loses its tasks.
        while pending:
            done, pending = self.ray.wait(pending, num_returns=1)
            yield self._result(done[0])

    def _result(self, ref: Any) -> list[dict[str, Any]]:
        try:
            return list(self.ray.get(ref))
        except self.ray.exceptions.RayError as err:
            raise TaskError(f"a Ray task failed: {_last_line(err)}") from None

    def close(self) -> None:
        """Leave the cluster; a local instance started for the run stops with it."""
        self.ray.shutdown()
        shutil.rmtree(self.empty, ignore_errors=True)


def _last_line(err: BaseException) -> str:
    """The last line of a Ray error: the worker's own exception, without Ray's traceback."""
    text = str(err).strip()
    return text.splitlines()[-1] if text else type(err).__name__


def connect(address: str | None, cpus: int) -> Cluster:
    """A connection to the cluster at `address` (anything `ray.init` takes: "HOST:PORT", "auto",
    "ray://HOST:PORT"), or to a local instance of `cpus` CPUs started for the run when there is
    none, its workers' meeple checked (`meeple.ray_shipping`). Raises BackendError
    when Ray is missing, the cluster cannot be reached in time, or its workers cannot play."""
    ray = _ray()
    # The job's own working directory, empty: Ray puts it on the workers' import path instead of
    # the driver's folder, which may hold a `meeple/` directory that is not the package.
    empty = Path(tempfile.mkdtemp(prefix="meeple-ray-"))
    (empty / "job").mkdir()
    env: dict[str, Any] = {"working_dir": str(empty / "job")}
    try:
        _join(ray, address, cpus, env)
        try:
            notice = _workers_meeple(ray, address, cpus, env, empty)
        except BaseException:
            ray.shutdown()
            raise
        return Cluster(ray, empty, notice)
    except BaseException:
        shutil.rmtree(empty, ignore_errors=True)
        raise


def _workers_meeple(ray: Any, address: str | None, cpus: int, env: dict[str, Any], scratch: Path) -> str:
    """Check the meeple a worker imports before any game is sent: the same as here, or none, in
    which case the job is started again with this one sent along (what to tell the user then;
    "" otherwise). Raises BackendError when a worker runs another meeple, or sending it failed."""
    driver = ray_shipping.here()
    worker = _probe_workers(ray)
    if worker.version:
        if not worker.same(driver):
            raise BackendError(ray_shipping.mismatch(driver, worker))
        return ""
    ray.shutdown()  # Ray sends a folder of modules only with a job, when it starts
    _join(ray, address, cpus, env | ray_shipping.shipment(ray_shipping.stage(scratch / "shipped")))
    shipped = _probe_workers(ray)
    if not shipped.same(driver):
        raise BackendError(f"the Ray workers have no meeple, and sending it failed: {shipped.where}")
    return (
        f"the Ray workers have no meeple ({worker.where}): this machine's meeple {driver.version} "
        "is sent with the job, and its dependencies installed by Ray's pip"
    )


def _probe_workers(ray: Any) -> ray_shipping.Installed:
    """The meeple a worker of the cluster imports (`ray_shipping.probe`, sent by value)."""
    ray.cloudpickle.register_pickle_by_value(ray_shipping)
    try:
        version, digest, where = ray.get(ray.remote(ray_shipping.probe).remote(), timeout=PROBE_TASK_SECONDS)
    except ray.exceptions.GetTimeoutError:
        raise BackendError(f"no Ray worker answered within {PROBE_TASK_SECONDS} s") from None
    except ray.exceptions.RayError as err:
        raise BackendError(f"a Ray worker cannot run meeple's check: {_last_line(err)}") from None
    finally:
        ray.cloudpickle.unregister_pickle_by_value(ray_shipping)
    return ray_shipping.Installed(version, digest, where)


def _join(ray: Any, address: str | None, cpus: int, env: dict[str, Any]) -> None:
    """Start a local instance (no `address`) or join the cluster at `address`, for a job with
    the runtime environment `env`."""
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False, "runtime_env": env}
    if address is None:
        try:
            with _interrupt_kept() as interrupted:
                ray.init(
                    address="local",  # a new instance, never another run's
                    num_cpus=cpus,
                    include_dashboard=False,
                    object_store_memory=LOCAL_STORE,
                    **quiet,
                )
        except Exception as err:  # Ray says why in its own words: they are passed on
            raise BackendError(f"cannot start a local Ray instance: {err}") from None
        if interrupted:
            ray.shutdown()
            raise KeyboardInterrupt
        return
    _reachable(address)
    failed: list[BaseException] = []

    def join() -> None:
        try:
            ray.init(address=address, **quiet)
        except Exception as err:  # Ray says why in its own words: they are passed on
            failed.append(err)

    joining = threading.Thread(target=join, daemon=True)  # left behind if Ray never answers
    joining.start()
    joining.join(CONNECT_SECONDS)
    if joining.is_alive():
        raise BackendError(f"the Ray cluster at {address} did not answer within {CONNECT_SECONDS} s")
    if failed:
        raise BackendError(f"cannot join the Ray cluster at {address}: {failed[0]}")
