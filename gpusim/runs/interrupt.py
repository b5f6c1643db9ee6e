"""SIGTERM and SIGINT as an exception, so that a run stops cleanly between two steps.

Slurm sends SIGTERM at a time limit or on preemption (then SIGKILL after a grace period);
Ctrl-C sends SIGINT. Inside :func:`stop_on_signals` either signal raises :class:`Interrupted` in
the main thread; the drivers catch it, keep the chunks already finished (their parts written
and listed in the manifest), drop the chunk in flight, shut down a Ray cluster they started,
and raise it again. The command line turns it into one line and exit code 128 + signal (143
for SIGTERM, 130 for SIGINT), the codes Slurm's requeue logic reads as an interruption.
"""

from __future__ import annotations

import contextlib
import signal
import threading

__all__ = ["Interrupted", "interruption_in", "is_stop_handler", "kept_through",
           "stop_on_signals"]

_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Interrupted(BaseException):
    """The run was stopped by a signal (a BaseException, like KeyboardInterrupt: no ``except
    Exception`` on the way swallows it). ``exit_code`` is 128 + the signal number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name
        self.exit_code = 128 + signum


def _raise(signum, frame):
    raise Interrupted(signum)


_raise.gpusim_stop = True  # type: ignore[attr-defined]


def is_stop_handler(handler) -> bool:
    """Whether ``handler`` is the one :func:`stop_on_signals` installs."""
    return getattr(handler, "gpusim_stop", False)


@contextlib.contextmanager
def stop_on_signals():
    """Raise :class:`Interrupted` on SIGTERM or SIGINT while inside; the previous handlers are
    restored on leaving. Does nothing outside the main thread (Python's signal rule)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.signal(s, _raise) for s in _SIGNALS}
    try:
        yield
    finally:
        for s, h in before.items():
            signal.signal(s, h)


def interruption_in(exc: BaseException | None) -> Interrupted | None:
    """The :class:`Interrupted` an exception carries as its cause or context: Ray's C++ calls
    run the signal handler themselves and wrap what it raises in a SystemError."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, Interrupted):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


@contextlib.contextmanager
def kept_through():
    """Keep the stop handlers across a library call that replaces them: ``ray.init`` sets a
    Python SIGTERM handler, and Ray's C++ start-up and shut-down reset the C-level ones (then
    a SIGTERM would kill the process silently)."""
    before = {s: signal.getsignal(s) for s in _SIGNALS}
    try:
        yield
    finally:
        if threading.current_thread() is threading.main_thread():
            for s, h in before.items():
                if is_stop_handler(h):
                    signal.signal(s, h)
