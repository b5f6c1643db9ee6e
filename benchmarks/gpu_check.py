"""The steps of ``benchmarks/gpu_check.sh OUTDIR`` (see its header), and their verdicts.

Each step runs as a subprocess with its own time limit, inside an overall budget, and writes its
log under OUTDIR. ``summary.md`` and ``result.json`` list every step's status and the first
cause of failure; the exit status is 0 only when every step passed and no GPU test was skipped.
The device and trivial-kernel steps stop the check at once when they fail: nothing after them
could run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_S = int(os.environ.get("GPU_CHECK_BUDGET_S", "540"))
E2E_ROUNDS = 2**30
EXACT_CONFIG = "holdem_bonus"

DEVICE = """
import cupy
n = cupy.cuda.runtime.getDeviceCount()
print("devices:", n)
assert n > 0, "CuPy sees no CUDA device"
"""
TRIVIAL = """
import cupy
src = r'extern "C" __global__ void probe(int* x) { x[threadIdx.x] = 2 * threadIdx.x; }'
k = cupy.RawKernel(src, "probe")
x = cupy.zeros(64, cupy.int32)
k((1,), (64,), (x,))
got = cupy.asnumpy(x).tolist()
assert got == [2 * i for i in range(64)], got[:8]
print("trivial kernel: compiled and ran")
"""
DEVICES_USABLE = """
import json, sys
rep = json.load(open(sys.argv[1]))
cupy = rep["backends"][0]
assert cupy["usable"], "gpusim devices: cupy not usable: %s" % cupy["reason"]
print("gpusim devices: cupy usable on", [d["name"] for d in cupy["devices"]])
"""


@dataclass
class Step:
    name: str
    status: str = "not run"  # passed | failed | not run
    seconds: float = 0.0
    cause: str | None = None
    log: str | None = None
    data: dict = field(default_factory=dict)


def last_line(text: str) -> str:
    """The last non-empty line of a log (an exception's message), shortened to one line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    line = lines[-1] if lines else "(no output)"
    return line if len(line) <= 300 else line[:297] + "..."


def pytest_verdict(junit_xml: Path, exit_code: int) -> str | None:
    """None when the junit report lists at least one test and every test passed; else the cause:
    the first failure or error, or the skips (a skipped GPU test is a failure here)."""
    if not junit_xml.is_file():
        return f"pytest wrote no report (exit {exit_code})"
    root = ET.parse(junit_xml).getroot()
    cases = list(root.iter("testcase"))
    if not cases:
        return f"no GPU test ran (exit {exit_code})"
    skipped = []
    for case in cases:
        name = case.get("name", "?")
        for kind in ("failure", "error"):
            el = case.find(kind)
            if el is not None:
                return f"{name}: {kind}: {last_line(el.get('message') or el.text or '')}"
        el = case.find("skipped")
        if el is not None:
            skipped.append((name, el.get("message") or ""))
    if skipped:
        name, why = skipped[0]
        return f"{len(skipped)} of {len(cases)} GPU tests skipped, first {name}: {last_line(why)}"
    if exit_code != 0:
        return f"pytest exited {exit_code} though every test passed"
    return None


def compare_exact(got: dict, want: dict, rel: float = 1e-9) -> str | None:
    """None when the GPU exact report matches the shipped CPU one: deals counted, the main-game
    figures and every bet's RTP (relative tolerance ``rel``); else the first difference."""
    if got.get("deals_counted") != want.get("deals_counted"):
        return f"deals_counted {got.get('deals_counted')} != {want.get('deals_counted')}"
    pairs = [(f"main.{k}", got.get("main", {}).get(k), v) for k, v in want["main"].items()]
    pairs += [(f"bets.{b}.rtp", got.get("bets", {}).get(b, {}).get("rtp"), v["rtp"])
              for b, v in want["bets"].items()]  # fmt: skip
    for key, a, b in pairs:
        if not isinstance(a, int | float) or abs(a - b) > rel * max(1.0, abs(b)):
            return f"{key}: GPU {a} != CPU {b}"
    return None


class Check:
    def __init__(self, out: Path, python: str):
        self.out, self.py, self.t0 = out, python, time.monotonic()
        self.steps: list[Step] = []
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = str(ROOT) + (os.pathsep + self.env["PYTHONPATH"]
                                              if self.env.get("PYTHONPATH") else "")  # fmt: skip
        self.env["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"  # leave GPU memory to CuPy
        # JAX compiles of the CPU truth are shared by the preflight and the test suite.
        self.env.setdefault("JAX_COMPILATION_CACHE_DIR", tempfile.mkdtemp(prefix="gpusim-jax-"))
        # CuPy 13 finds the CUDA headers only through CUDA_PATH; gpusim points it at the
        # headers wheel the same way (cupy_rounds), so the trivial kernel sees what gpusim sees.
        if not (self.env.get("CUDA_PATH") or self.env.get("CUDA_HOME")):
            sys.path.insert(0, str(ROOT))
            try:
                from gpusim.cuda import cuda_headers

                headers = cuda_headers()
            except Exception:
                headers = None
            if headers:
                self.env["CUDA_PATH"] = str(Path(headers).parent)

    def left(self) -> float:
        return BUDGET_S - (time.monotonic() - self.t0)

    def run(self, name: str, argv: list[str], limit: float, env: dict | None = None) -> Step:
        step = Step(name, log=f"{name}.log")
        self.steps.append(step)
        limit = min(limit, self.left())
        if limit < 10:
            step.cause = "not run: the time budget is spent"
            return step
        t = time.monotonic()
        with open(self.out / step.log, "w") as log:
            log.write(f"$ {shlex.join(argv)}\n")
            log.flush()
            try:
                proc = subprocess.run(
                    argv, cwd=ROOT, env={**self.env, **(env or {})}, stdout=log,
                    stderr=subprocess.STDOUT, timeout=limit,
                )  # fmt: skip
                rc = proc.returncode
            except subprocess.TimeoutExpired:
                rc = None
        step.seconds = round(time.monotonic() - t, 2)
        text = (self.out / step.log).read_text(errors="replace")
        step.data["exit"] = rc
        if rc is None:
            step.status, step.cause = "failed", f"timed out after {limit:.0f} s"
        elif rc != 0:
            step.status, step.cause = "failed", f"exit {rc}: {last_line(text)}"
        else:
            step.status = "passed"
        return step

    def python(self, name: str, code: str, limit: float, *args: str) -> Step:
        return self.run(name, [self.py, "-c", code, *args], limit)


def environment(check: Check) -> None:
    keys = ("CUDA_PATH", "CUDA_HOME", "XLA_PYTHON_CLIENT_PREALLOCATE", "PYTHONPATH")
    cmds = [
        [check.py, "-c", f"import os; [print(k, '=', os.environ.get(k)) for k in {keys!r}]"],
        ["nvidia-smi"],
        [check.py, "-c", "import cupy; print('cupy', cupy.__version__); cupy.show_config()"],
        [check.py, "-c", "import jax; print('jax', jax.__version__, jax.devices())"],
        [check.py, "-m", "pip", "list"],
    ]
    with open(check.out / "env.txt", "w") as f:
        f.write(time.strftime("%Y-%m-%d %H:%M:%S UTC\n", time.gmtime()))
        for argv in cmds:
            f.write(f"\n$ {shlex.join(argv)}\n")
            f.flush()
            try:
                subprocess.run(argv, env=check.env, stdout=f, stderr=subprocess.STDOUT,
                               timeout=60)  # fmt: skip
            except (OSError, subprocess.TimeoutExpired) as exc:
                f.write(f"({type(exc).__name__}: {exc})\n")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: gpu_check.py OUTDIR", file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    check = Check(out, os.environ.get("PYTHON", sys.executable))
    environment(check)

    ok = check.python("device", DEVICE, 60).status == "passed"
    ok = ok and check.python("trivial_kernel", TRIVIAL, 120).status == "passed"
    if ok:
        step = check.run("devices", [check.py, "-m", "gpusim", "devices", "--json"], 120)
        (out / "devices.json").write_text(
            (out / "devices.log").read_text().split("\n", 1)[-1])
        if step.status == "passed":
            usable = check.python("devices_usable", DEVICES_USABLE, 30, str(out / "devices.json"))
            if usable.status != "passed":
                step.status, step.cause = "failed", usable.cause
            check.steps.remove(usable)
        check.run("preflight", [check.py, "benchmarks/gpu_preflight.py", "--json",
                                str(out / "preflight.json")], 240,
                  env={"JAX_PLATFORMS": "cpu"})  # fmt: skip
        tests = check.run(
            "gpu_tests",
            [check.py, "-m", "pytest", "-m", "gpu", "-p", "no:cacheprovider", "-q", "-rA",
             f"--junitxml={out / 'gpu_tests.xml'}", "tests/test_cupy_rounds.py"],
            300, env={"JAX_PLATFORMS": "cpu"},  # the truth is the JAX path on the CPU, as in CI
        )  # fmt: skip
        if tests.status != "not run" and tests.data.get("exit") is not None:
            cause = pytest_verdict(out / "gpu_tests.xml", tests.data["exit"])
            tests.status, tests.cause = ("failed", cause) if cause else ("passed", None)
        bench = check.run("benchmark", [check.py, "benchmarks/simulate_gpu.py", "--rounds",
                                        "2**29", "--json", str(out / "bench.json")], 200)
        end_to_end(check, bench)
        exact(check)
        described(check)
    return report(check)


def end_to_end(check: Check, bench: Step) -> None:
    """The whole ``gpusim simulate`` process on the GPU against the benchmark's steady state."""
    run_dir = Path(tempfile.mkdtemp(prefix="gpusim-e2e-")) / "run"
    step = check.run("end_to_end", [check.py, "-m", "gpusim", "simulate", "holdem_bonus",
                                    "--rounds", str(E2E_ROUNDS), "--strategy", "optimal",
                                    "--backend", "cupy", "--seed", "1", "--out", str(run_dir),
                                    "--quiet"], 120)  # fmt: skip
    if step.status != "passed":
        if "ModuleNotFoundError" in (step.cause or ""):
            step.cause += " (carry the missing wheels and set WHEELS=dir)"
        return
    rate = E2E_ROUNDS / step.seconds
    step.data.update(rounds=E2E_ROUNDS, whole_process_rounds_per_s=rate)
    try:
        rows = json.loads((check.out / "bench.json").read_text())["results"]
        steady = next(r["cupy_rounds_per_s"] for r in rows
                      if (r["config"], r["strategy"]) == ("holdem_bonus", "optimal"))  # fmt: skip
        step.data.update(steady_rounds_per_s=steady, ratio=rate / steady)
    except (OSError, KeyError, StopIteration, ValueError):
        step.data["steady_rounds_per_s"] = None


def exact(check: Check) -> None:
    """``gpusim exact --backend cupy``: timed, and compared with the shipped CPU report."""
    step = check.run("exact", [check.py, "-m", "gpusim", "exact", EXACT_CONFIG, "--backend",
                               "cupy", "--json", "--out", str(check.out / "exact.json")], 150)
    if step.status != "passed":
        text = (check.out / step.log).read_text(errors="replace")
        if re.search(r"No such option|no such option", text):
            step.cause = "gpusim exact has no --backend option in this build: " + step.cause
        return
    want = json.loads((ROOT / "gpusim/data/exact" / f"{EXACT_CONFIG}.optimal.json").read_text())
    try:
        got = json.loads((check.out / "exact.json").read_text())
    except (OSError, ValueError) as exc:
        step.status, step.cause = "failed", f"no exact.json report: {exc}"
        return
    diff = compare_exact(got, want)
    step.data["equal_to_cpu"] = diff is None
    if diff:
        step.status, step.cause = "failed", f"differs from the shipped CPU report: {diff}"


def described(check: Check) -> None:
    """The described games, which have no CUDA kernel, on the GPU through JAX: their steady
    state beside Casino Hold'em ``optimal`` (``benchmarks/described.py``), and their tables on
    ``jax-gpu`` equal to ``jax-cpu``'s (``benchmarks/described_gpu.py``)."""
    check.run("described_speed", [check.py, "benchmarks/described.py", "--rounds", str(1 << 22),
                                  "--json"], 150)
    gpu, cpu = check.out / "described_gpu.json", check.out / "described_cpu.json"
    step = check.run("described_gpu", [check.py, "benchmarks/described_gpu.py", "--backend",
                                       "jax-gpu", "--out", str(gpu)], 120)
    if step.status != "passed":
        return
    ref = check.run("described_cpu", [check.py, "benchmarks/described_gpu.py", "--backend",
                                      "jax-cpu", "--rounds", str(1 << 20), "--out", str(cpu)],
                    120, env={"JAX_PLATFORMS": "cpu"})
    if ref.status != "passed":
        return
    a, b = json.loads(gpu.read_text()), json.loads(cpu.read_text())
    differ = [g for g in a if a[g]["tables"] != b[g]["tables"]]
    step.data["equal_to_cpu"] = not differ
    if differ:
        step.status, step.cause = "failed", f"jax-gpu tables differ from jax-cpu: {differ}"


def report(check: Check) -> int:
    failed = [s for s in check.steps if s.status != "passed"]
    first = next((f"{s.name}: {s.cause}" for s in failed), None)
    result = {"ok": not failed, "first_cause": first, "budget_s": BUDGET_S,
              "steps": [asdict(s) for s in check.steps]}  # fmt: skip
    (check.out / "result.json").write_text(json.dumps(result, indent=2))
    lines = ["# gpu_check", "", f"**{'PASS' if not failed else 'FAIL'}**"
             + (f": {first}" if first else ""), "",
             "| step | status | seconds | cause |", "|---|---|---|---|"]  # fmt: skip
    for s in check.steps:
        lines.append(f"| {s.name} | {s.status} | {s.seconds:.1f} | {s.cause or ''} |")
    for s in check.steps:
        if s.name == "end_to_end" and "whole_process_rounds_per_s" in s.data:
            d = s.data
            lines += ["", f"End to end: {d['rounds']:,} rounds, "
                      f"{d['whole_process_rounds_per_s'] / 1e9:.3f} G rounds/s whole process"
                      + (f", {d['ratio']:.2f} of the steady state" if d.get("ratio") else "")]
    lines += ["", "Logs: env.txt and <step>.log; data: devices.json, preflight.json, "
              "gpu_tests.xml, bench.json, exact.json."]  # fmt: skip
    (check.out / "summary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
