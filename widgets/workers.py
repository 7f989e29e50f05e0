"""Where a panel's work runs: a worker thread, or, where threads cannot start, the kernel's own loop.

In Pyodide (JupyterLite) starting a thread raises ``RuntimeError: can't start new thread``. A
:class:`Worker` is one queue of work (a panel's, the follow-up fights', the pins'): a one-thread
pool where threads start; else an :class:`InlineExecutor`, which runs each job as a callback of the
running asyncio loop (so the handler that asked returns first and the busy line and Cancel are on
screen while it runs), or, with no loop running, at once, synchronously. Either way the job runs
under the same progress listener as on a thread (``workbench.arguments.reporting``): the busy line
shows its progress, and a request superseded or cancelled before its job starts never runs.

Whether threads start is checked once (:func:`threads_available`): ``sys.platform ==
"emscripten"`` or a thread that fails to start means no; ``WB_NO_THREADS=1`` in the environment
forces the thread-less path (the widget tests run a set of panel tests so, see
tests/widgets/test_threadless.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["threads_available", "reset", "InlineExecutor", "Worker", "in_inline_job"]

_threads: bool | None = None
_depth = 0  # how many inline jobs are running now (nested: a panel built by a panel's result)


def _can_start_thread() -> bool:
    """Return True when a thread starts here (one that does nothing is started and joined)."""
    if sys.platform == "emscripten" or os.environ.get("WB_NO_THREADS", "") not in ("", "0"):
        return False
    try:
        probe = threading.Thread(target=lambda: None, name="workbench-probe", daemon=True)
        probe.start()
    except RuntimeError:  # "can't start new thread" (Pyodide), or a platform limit
        return False
    probe.join()
    return True


def threads_available() -> bool:
    """Return True when panels' work may run on worker threads (checked once per process; see
    :func:`reset`)."""
    global _threads
    if _threads is None:
        _threads = _can_start_thread()
    return _threads


def reset() -> None:
    """Forget the answer of :func:`threads_available` (tests that make thread start fail)."""
    global _threads
    _threads = None


def in_inline_job() -> bool:
    """Return True while an :class:`InlineExecutor` job runs (work asked for from inside a job then
    runs there, at once, as it would on the worker thread it was asked from)."""
    return _depth > 0


def _loop() -> asyncio.AbstractEventLoop | None:
    """Return the asyncio loop to schedule jobs on: the running one; in Pyodide the browser's loop
    (WebLoop, which runs callbacks from the browser's own event loop even when called from a
    synchronous comm handler); else None (no loop: jobs run at once)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if sys.platform == "emscripten":  # pragma: no cover - only in a browser
        try:
            return asyncio.get_event_loop()
        except RuntimeError:  # no loop set: the work runs at once
            return None
    return None


class InlineExecutor(concurrent.futures.Executor):
    """An executor without threads: :meth:`submit` schedules the job on the running asyncio loop
    (``loop.call_soon``), or runs it at once when no loop runs or when called from inside another
    inline job. Jobs run one at a time, in order; a future cancelled before its job starts skips it;
    :meth:`run_now` runs a scheduled job before its turn (a caller that needs the result now)."""

    threaded = False

    def __init__(self) -> None:
        self._pending: dict[concurrent.futures.Future, tuple[Callable[..., Any], tuple, dict]] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future:
        """Return the future of ``fn(*args, **kwargs)``: already done when the job ran at once."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        loop = None if in_inline_job() else _loop()
        if loop is None:
            self._run(future, fn, args, kwargs)
        else:
            self._pending[future] = (fn, args, kwargs)
            loop.call_soon(self._scheduled, future)
        return future

    def run_now(self, future: concurrent.futures.Future) -> None:
        """Run the job of ``future`` now if it is scheduled and has not started (else nothing)."""
        job = self._pending.pop(future, None)
        if job is not None:
            self._run(future, *job)

    def _scheduled(self, future: concurrent.futures.Future) -> None:
        self.run_now(future)

    @staticmethod
    def _run(future: concurrent.futures.Future, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
        global _depth
        if not future.set_running_or_notify_cancel():
            return  # cancelled before it started: a newer request or Cancel superseded it
        _depth += 1
        try:
            result = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - delivered through the future, as a thread's would be
            future.set_exception(exc)
        else:
            future.set_result(result)
        finally:
            _depth -= 1


class Worker(concurrent.futures.Executor):
    """One queue of panel work named ``name``: a one-thread pool whose thread names start with
    ``name`` where threads start, else an :class:`InlineExecutor` (asked at each submit, so that a
    test that turns threads off after import gets the thread-less path)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._inline = InlineExecutor()

    @property
    def threaded(self) -> bool:
        """Return True when this queue's jobs run on a thread (the caller may wait for them)."""
        return threads_available()

    @property
    def executor(self) -> concurrent.futures.Executor:
        """Return the executor the jobs go to now (the pool is made at its first use)."""
        if not threads_available():
            return self._inline
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
        return self._pool

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future:
        """Return the future of ``fn(*args, **kwargs)`` run on this queue."""
        return self.executor.submit(fn, *args, **kwargs)

    def run_now(self, future: concurrent.futures.Future) -> None:
        """Thread-less, run the job of ``future`` now if it has not started (see InlineExecutor)."""
        self._inline.run_now(future)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Shut the thread pool down, if one was made."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)
