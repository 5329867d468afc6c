"""Work shared among worker processes, that stops when the user says stop.

`meeple simulate` and `meeple docs` spread their work over processes. Ctrl-C must stop all of
them within a moment and print one word, not a traceback from every worker: the workers ignore
the interrupt (it reaches the whole process group) and the main process, which gets it, ends
them at once (`terminate`) rather than letting them finish their batches. The same happens when
the caller stops reading early or one piece of work fails.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored while the pool starts its processes: a process started afresh ("spawn")
    keeps an ignored signal ignored (Python sets its own handler only over the default), so a
    Ctrl-C while it is still importing cannot print its traceback. The main process gets its
    handler back as soon as the processes are started, a moment later."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def in_workers(
    fn: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    *,
    ordered: bool = True,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    start: str | None = None,
) -> Iterator[R]:
    """`fn` of each item in `workers` processes: the results in the items' order, or (not
    `ordered`) as they are done. `fn` and the items must pickle (a function of a module).
    `start`: how the processes start (multiprocessing's start method; the platform's default
    if None). "spawn" when the caller's process may have threads that a forked copy would
    lack (a library with a thread pool of its own waits on it for ever)."""
    with _interrupts_ignored():  # a spawned worker imports for a while before _start_worker runs
        pool = multiprocessing.get_context(start).Pool(workers, _start_worker, (initializer, initargs))
    try:
        yield from (pool.imap if ordered else pool.imap_unordered)(fn, items)
        pool.close()
    except BaseException:  # Ctrl-C, an error in a worker, or the caller stopped reading
        pool.terminate()
        raise
    finally:
        pool.join()
