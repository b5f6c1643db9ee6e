"""The Slurm recipe (examples/slurm) runs as written: each array task's script with the
variables Slurm sets, then the merge script, gives the single run's counts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _batch_runs import CH, JAX_CACHE, single, tables, use_jax_cache

import gpusim

SLURM = Path(__file__).resolve().parent.parent / "examples" / "slurm"


def test_array_tasks_then_merge_equal_the_single_run(tmp_path):
    use_jax_cache()
    env = {**os.environ, **JAX_CACHE, "CONFIG": CH["config"], "ROUNDS": str(CH["rounds"]),
           "SEED": str(CH["seed"]), "RUNS": str(tmp_path / "runs"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for i in range(3):
        subprocess.run(["bash", str(SLURM / "shard.sbatch")], check=True, timeout=600,
                       env={**env, "SLURM_ARRAY_TASK_ID": str(i), "SLURM_ARRAY_TASK_COUNT": "3"})
    res = subprocess.run(["bash", str(SLURM / "merge.sbatch")], env=env, timeout=600,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "sound" in res.stdout
    merged = gpusim.open_run(tmp_path / "runs" / "merged")
    assert [s["shard"]["index"] for s in merged.manifest["merged_from"]] == [0, 1, 2]
    assert tables(merged) == tables(single(**CH))
    subprocess.run(["bash", "-n", str(SLURM / "submit.sh")], check=True)


def test_a_task_stopped_by_sigterm_is_requeued(tmp_path):
    # stand-ins: gpusim stops as after Slurm's SIGTERM (exit 143), scontrol records its call
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    (bin_ / "gpusim").write_text("#!/usr/bin/env bash\necho \"$@\" > \"$LOG/gpusim\"\nexit 143\n")
    (bin_ / "scontrol").write_text("#!/usr/bin/env bash\necho \"$@\" > \"$LOG/scontrol\"\n")
    for f in bin_.iterdir():
        f.chmod(0o755)
    env = {**os.environ, "LOG": str(tmp_path), "RUNS": str(tmp_path / "runs"),
           "PATH": f"{bin_}{os.pathsep}{os.environ.get('PATH', '')}", "SLURM_JOB_ID": "4242",
           "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"}
    res = subprocess.run(["bash", str(SLURM / "shard.sbatch")], env=env, timeout=60)
    assert res.returncode == 143
    assert (tmp_path / "scontrol").read_text().split() == ["requeue", "4242"]
    args = (tmp_path / "gpusim").read_text().split()
    assert "--resume" in args and "--log-every" in args and "1/3" in args
