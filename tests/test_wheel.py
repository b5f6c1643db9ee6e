"""The wheel is complete: built from this checkout and installed into a fresh venv, `gpusim`
runs from a folder outside the checkout with its configs, kernels, decision tables and exact
reports all read from inside the installed package.

The heavy dependencies (JAX, polars, ...) are not downloaded again: the wheel is installed
with --no-deps and the test venv's site-packages is appended through a .pth file. A path line in
a .pth adds the folder without running that folder's own .pth files, so the checkout's editable
install is not picked up; the test checks that `gpusim` is imported from the fresh venv.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    base = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", str(ROOT),
                    "-w", str(base / "dist")], check=True, timeout=600)
    (wheel,) = (base / "dist").glob("gpusim-*.whl")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    (site / "_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps",
                    "--quiet", str(wheel)], check=True, timeout=600)
    work = base / "elsewhere"
    work.mkdir()
    return {"wheel": wheel, "bin": env_dir / "bin", "py": py, "work": work, "site": site}


def _run(installed, *args, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["GPUSIM_CACHE_DIR"] = str(installed["work"] / "cache")  # nothing cached beforehand
    res = subprocess.run(args, cwd=installed["work"], env=env, capture_output=True, text=True,
                         timeout=900, **kw)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def test_wheel_lists_every_config_kernel_and_table(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    assert "gpusim/py.typed" in names  # type checkers read the installed package's annotations
    for folder in ("configs", "kernels"):
        files = [p for p in (ROOT / folder).iterdir() if p.is_file()]
        assert files
        for p in files:
            assert f"gpusim/{folder}/{p.name}" in names, p
    for folder in ("data/tables", "data/exact"):
        for p in (ROOT / "gpusim" / folder).iterdir():
            assert f"gpusim/{folder}/{p.name}" in names, p


def test_installed_gpusim_is_the_wheel_and_finds_its_files(installed):
    out = _run(installed, installed["py"], "-c", (
        "import json, gpusim\n"
        "from gpusim.config import shipped_configs\n"
        "from gpusim.cuda import kernel_dir, kernel_source\n"
        "from gpusim.strategy.tables import TABLE_DIR\n"
        "from gpusim.exact.shipped import EXACT_DIR\n"
        "kernel_source('holdem_bonus')\n"
        "print(json.dumps({'module': gpusim.__file__, 'kernels': str(kernel_dir()),\n"
        "  'tables': str(TABLE_DIR), 'exact': str(EXACT_DIR),\n"
        "  'configs': [str(p) for p in shipped_configs().values()]}))\n"))
    where = json.loads(out)
    pkg = installed["site"] / "gpusim"
    assert Path(where["module"]) == pkg / "__init__.py"
    for key in ("kernels", "tables", "exact"):
        assert Path(where[key]).is_relative_to(pkg), (key, where[key])
    assert len(where["configs"]) == len(list((ROOT / "configs").glob("*.toml")))
    assert all(Path(p).is_relative_to(pkg / "configs") for p in where["configs"])


def test_installed_commands_run_outside_the_checkout(installed):
    gpusim = str(installed["bin"] / "gpusim")
    assert _run(installed, gpusim, "--version").strip().startswith("gpusim ")
    games = _run(installed, gpusim, "games")
    for p in (ROOT / "configs").glob("*.toml"):  # every shipped config, described games too
        assert p.stem in games, p.stem
    _run(installed, gpusim, "simulate", "holdem_bonus", "--rounds", "100000", "--seed", "3",
         "--out", "run", "--quiet", "--backend", "jax-cpu")
    m = json.loads((installed["work"] / "run" / "manifest.json").read_text())
    assert m["status"] == "complete" and m["rounds"] == 100_000
    assert _run(installed, gpusim, "verify", "run").strip().endswith(
        "sound (parts' sha256, round coverage, counts and config hash)")
    rep = json.loads(_run(installed, gpusim, "exact", "casino_holdem", "--json"))
    assert rep["config"] == "casino_holdem" and rep["deals_counted"] == 27_813_810_024_000
    assert abs(rep["main"]["total_bet_rtp"] - 0.991338) < 1e-6
