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
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _hold_interrupts(False)  # a Ctrl-C held while this process started is dropped: it is ignored
    if initializer is not None:
        initializer(*initargs)


def _hold_interrupts(held: bool) -> None:
    """SIGINT held (blocked) in the main thread while the pool starts its processes, or let go.

    A process started afresh ("spawn") inherits the blocked signal, so a Ctrl-C while it is still
    importing waits, and is dropped when `_start_worker` ignores it, instead of printing the
    worker's traceback. The main process gets a Ctrl-C that came meanwhile as soon as it lets go:
    held, not lost (ignoring it there instead lost a Ctrl-C that came while a loaded machine was
    still starting the processes, and the command ran on)."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK if held else signal.SIG_UNBLOCK, {signal.SIGINT})


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
    _hold_interrupts(True)  # a spawned worker imports for a while before _start_worker runs
    try:
        pool = multiprocessing.get_context(start).Pool(workers, _start_worker, (initializer, initargs))
    except BaseException:
        _hold_interrupts(False)
        raise
    try:
        _hold_interrupts(False)  # a Ctrl-C held meanwhile arrives here, and ends the pool below
        yield from (pool.imap if ordered else pool.imap_unordered)(fn, items)
        pool.close()
    except BaseException:  # Ctrl-C, an error in a worker, or the caller stopped reading
        pool.terminate()
        raise
    finally:
        pool.join()
