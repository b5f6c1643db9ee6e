"""Size and build time of `gpusim report` on existing run folders.

    python benchmarks/report.py RUN [RUN ...] [--repeats 3] [--out DIR] [--screenshot PNG]

Per run: the HTML report's size, and the time to build it (load the run's tables, compute every
figure, draw the plots, write the file), median of --repeats in-process builds after one
warm-up, wall clock and this process's CPU time; then once the whole `gpusim report` command
in a fresh process (interpreter start and imports included). --screenshot saves the first
screen (1280 x 900) of the first run's report as rendered by headless Chromium.

Make the runs first, e.g. `gpusim simulate holdem_bonus --rounds 1e8 --seed 2026 --out R`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _build(run: str, out: Path) -> tuple[float, float]:
    from gpusim.report import build_report, write_report
    from gpusim.run_figures import load_run_data

    w0, c0 = time.perf_counter(), time.process_time()
    write_report(build_report(load_run_data(run)), out, "html")
    return time.perf_counter() - w0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=None, help="keep the reports here (default: a tmp dir)")
    ap.add_argument("--screenshot", default=None)
    a = ap.parse_args()
    out_dir = Path(a.out or tempfile.mkdtemp(prefix="gpusim-report-bench-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"{'run':<28}{'rounds':>14}{'HTML bytes':>12}{'build wall s':>14}{'build CPU s':>13}"
          f"{'CLI wall s':>12}")
    first = None
    for run in a.runs:
        import json

        rounds = json.loads((Path(run) / "manifest.json").read_text())["rounds"]
        out = out_dir / f"{Path(run).name}.html"
        _build(run, out)  # warm-up: imports, matplotlib's font cache, jit-free numpy paths
        times = [_build(run, out) for _ in range(a.repeats)]
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gpusim", "report", run, "--out", str(out)],
                       check=True, capture_output=True)
        cli = time.perf_counter() - t0
        print(f"{Path(run).name:<28}{rounds:>14,}{out.stat().st_size:>12,}"
              f"{statistics.median(t[0] for t in times):>14.2f}"
              f"{statistics.median(t[1] for t in times):>13.2f}{cli:>12.2f}")
        first = first or out
    if a.screenshot:
        from gpusim.report.browser import inspect_page

        Path(a.screenshot).write_bytes(inspect_page(first)["screenshot"])
        print(f"screenshot of {first.name}: {a.screenshot}")
    print(f"reports in {out_dir}")


if __name__ == "__main__":
    main()
