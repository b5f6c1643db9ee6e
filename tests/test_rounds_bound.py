"""Round counts are bounded and planned lazily: a huge --rounds is refused in one line, at once,
without allocating anything of its size."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gpusim.runs.runner import MAX_ROUNDS, SimulationError, parse_rounds, plan_chunks

# Runs the CLI in a child process and reports the child's exit code, stderr and peak RSS.
_PROBE = """
import json, resource, subprocess, sys
r = subprocess.run([sys.executable, "-m", "gpusim", *sys.argv[1:]], capture_output=True,
                   text=True)
print(json.dumps({"rc": r.returncode, "err": r.stderr,
                  "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def test_max_rounds_is_the_generator_space():
    from gpusim.dealing import MAX_ROUND

    assert MAX_ROUNDS == MAX_ROUND == 2**48
    assert parse_rounds(str(2**48)) == 2**48
    for bad in (str(2**48 + 1), "1e30", "1e15", "1e1000000000", 2**48 + 1):
        with pytest.raises(SimulationError, match=r"at most 2\^48"):
            parse_rounds(bad)


def test_chunk_plan_is_lazy():
    plan = plan_chunks(MAX_ROUNDS, 1)
    assert len(plan) == MAX_ROUNDS
    assert plan[0] == (0, 1) and plan[-1] == (MAX_ROUNDS - 1, 1)
    shard = plan_chunks(10, 4, first=20)
    assert list(shard) == [(20, 4), (24, 4), (28, 2)] and shard == [(20, 4), (24, 4), (28, 2)]


@pytest.mark.parametrize("rounds", ["1e30", "1e1000000000", str(2**48 + 1)])
def test_huge_rounds_exit_2_in_one_line_with_little_memory(tmp_path, rounds):
    out = tmp_path / "run"
    res = subprocess.run(
        [sys.executable, "-c", _PROBE, "simulate", "holdem_bonus", "--rounds", rounds,
         "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    r = json.loads(res.stdout)
    lines = r["err"].strip().splitlines()
    assert r["rc"] == 2 and len(lines) == 1, r["err"]
    assert lines[0].startswith("gpusim: error: --rounds:") and "2^48" in lines[0]
    assert r["maxrss_kib"] < 1024 * 1024, f"peak RSS {r['maxrss_kib']} KiB"
    assert not out.exists()
