"""The background chunk writer: order, errors surfacing in the caller, abort on failure."""

from __future__ import annotations

import threading
import time

import pytest

from gpusim.runs.writer import BackgroundWriter


def test_items_written_in_order_on_another_thread():
    seen, threads = [], set()

    def write(item):
        time.sleep(0.001 * (item % 3))  # uneven work must not reorder
        seen.append(item)
        threads.add(threading.get_ident())

    with BackgroundWriter(write, max_pending=2) as w:
        for i in range(20):
            w.submit(i)
    assert seen == list(range(20))
    assert threads and threading.get_ident() not in threads


def test_writer_error_is_raised_in_the_caller_and_stops_writing():
    seen = []

    def write(item):
        if item == 3:
            raise OSError("disk full")
        seen.append(item)

    w = BackgroundWriter(write, max_pending=1)
    with pytest.raises(OSError, match="disk full"):
        for i in range(50):
            w.submit(i)
            time.sleep(0.002)
        w.close()
    w.abort()
    assert seen == [0, 1, 2]


def test_leaving_with_an_exception_drops_unstarted_items():
    started, release = threading.Event(), threading.Event()
    seen = []

    def write(item):
        started.set()
        release.wait(5)
        seen.append(item)

    with pytest.raises(KeyboardInterrupt):
        with BackgroundWriter(write, max_pending=2) as w:
            w.submit(0)
            started.wait(5)
            w.submit(1)
            w.submit(2)
            threading.Timer(0.05, release.set).start()
            raise KeyboardInterrupt
    # the item in progress finished (no half-written part); the queued ones were dropped
    assert seen == [0]


def test_max_pending_must_be_positive():
    with pytest.raises(ValueError, match="max_pending"):
        BackgroundWriter(lambda item: None, max_pending=0)
