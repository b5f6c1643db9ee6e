"""The exact solver's per-board pass, numpy against compiled, side by side in one run.

Usage: python benchmarks/exact_stage.py [--boards N] [--repeats R] [--qualifier]

Why the exact solver has a compiled C++ pass (``kernels/exact_cpu_boards.cpp``) beside JAX and
CUDA: this measures both forms of :func:`gpusim.exact.boards.sorted_counts` on the same N
5-card board classes (spread over all 134,459), in batches of 64 as the solver runs them, one
process, alternating the forms R times, and checks that they give the same arrays. Printed: the
CPU microseconds per board of each stage (ranking and the sort are shared; the tie runs and the
inclusion-exclusion are what the compiled pass replaces), medians over the repeats, and the
ratio. A full solve does this for 134,459 boards, so 100 us a board is 13.4 CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ["GPUSIM_EXACT_PROFILE"] = "1"  # before gpusim.exact._profile is imported

import numpy as np  # noqa: E402

from gpusim.board_index import board_classes  # noqa: E402
from gpusim.exact import _native, _profile  # noqa: E402
from gpusim.exact.boards import sorted_counts  # noqa: E402

BATCH = 64  # as gpusim.exact.fives runs them


def _timed(boards: np.ndarray, qualifier: int | None, native: bool) -> tuple[dict, float, list]:
    before = _profile.totals()
    t0 = time.process_time()
    out = [sorted_counts(boards[i : i + BATCH], qualifier, native=native)
           for i in range(0, len(boards), BATCH)]  # fmt: skip
    total = time.process_time() - t0
    after = _profile.totals()
    stages = {k: after[k] - before.get(k, 0.0) for k in after if after[k] != before.get(k, 0.0)}
    return stages, total, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=4096, help="5-card board classes per form")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--qualifier", action="store_true",
                    help="count the dealer hands below a pair too (Casino Hold'em, UTH)")
    args = ap.parse_args()
    if _native.loaded_library() is None:
        raise SystemExit(f"the compiled pass is not available here: {_native.status()}")
    reps = board_classes(5).reps
    boards = reps[np.linspace(0, len(reps) - 1, args.boards).astype(int)]
    qualifier = (1 << 27) if args.qualifier else None
    _timed(boards[:BATCH], qualifier, False)  # JAX compiles the ranking once, outside the timing
    per = {False: [], True: []}
    stages = {False: {}, True: {}}
    for _ in range(args.repeats):
        outs = {}
        for native in (False, True):
            st, total, outs[native] = _timed(boards, qualifier, native)
            per[native].append(1e6 * total / len(boards))
            for k, v in st.items():
                stages[native].setdefault(k, []).append(1e6 * v / len(boards))
        for a, b in zip(outs[False], outs[True], strict=True):
            for f in ("order", "rank", "below", "equal", "not_qualified"):
                x, y = getattr(a, f), getattr(b, f)
                if (x is None) != (y is None) or (x is not None and not np.array_equal(x, y)):
                    raise SystemExit(f"the forms differ in {f}")
    print(f"{args.boards} board classes in batches of {BATCH}, {args.repeats} repeats, "
          f"qualifier {'a pair' if qualifier else 'none'}; compiled: {_native.status()}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("same arrays from both forms: yes")
    for native in (False, True):
        print(f"  {'compiled' if native else 'numpy':<8} {statistics.median(per[native]):7.1f} "
              f"CPU us/board (runs {', '.join(f'{x:.1f}' for x in per[native])})")
        for k, v in stages[native].items():
            print(f"      {k:<46} {statistics.median(v):7.1f}")
    ratios = [a / b for a, b in zip(per[False], per[True], strict=True)]
    print(f"numpy / compiled, whole pass: {statistics.median(ratios):.2f}x (median of the "
          f"repeats' ratios; runs {', '.join(f'{x:.2f}' for x in ratios)})")
    ex = [sum(v[i] for k, v in stages[False].items() if k.startswith(("tie", "incl")))
          / sum(v[i] for k, v in stages[True].items() if "compiled" in k)
          for i in range(args.repeats)]
    print(f"numpy / compiled, the replaced stages (tie runs, inclusion-exclusion): "
          f"{statistics.median(ex):.2f}x")


if __name__ == "__main__":
    main()
