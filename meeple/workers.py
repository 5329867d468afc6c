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
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


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
    pool = multiprocessing.get_context(start).Pool(workers, _start_worker, (initializer, initargs))
    try:
        yield from (pool.imap if ordered else pool.imap_unordered)(fn, items)
        pool.close()
    except BaseException:  # Ctrl-C, an error in a worker, or the caller stopped reading
        pool.terminate()
        raise
    finally:
        pool.join()
