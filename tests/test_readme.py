"""The README's Python examples run as written (docs that run)."""

import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has Python examples"
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for code in blocks:
            exec(compile(code, str(README), "exec"), {})
    finally:
        os.chdir(cwd)
    assert (tmp_path / "runs" / "ch" / "manifest.json").is_file()
