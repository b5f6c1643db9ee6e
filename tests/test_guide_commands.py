"""The guide's commands give the output the guide shows (docs/describe-a-game.md), so that the
guide cannot drift from the program.

The format, in the markdown:

- a ```console block holds commands and their output: a line ``$ COMMAND`` is a command (a
  trailing ``\\`` continues it on the next line), the lines after it, up to the next ``$`` line
  or the end of the block, are what it prints (stdout and stderr, in the order a terminal shows
  them);
- a file the commands read is a ```toml block right after a line ``<!-- file: NAME -->``: it is
  written as NAME before the first command runs.

The commands run in order, with bash, in an empty folder holding those files and a copy of
``configs/`` (as from the repository's root), with the ``gpusim`` of the running Python and a
terminal 80 columns wide. A command exits 0, or 2 where its output is a ``gpusim: error:`` line.
Only what must vary is normalised, in the guide's text and in the output alike: progress lines
(``... (100.0 %), ..., elapsed 0:00:01``) and the line naming the backend ``auto`` chose are
left out, a simulation's speed and backend are ``N`` and ``BACKEND``, the folder's path is
``...``, and whitespace is collapsed (a line wraps where the numbers' widths put it).

``python tests/test_guide_commands.py`` prints every command's output as it is now (the paths
shortened to ``...``); ``--write`` puts it into the guide's blocks in place of what they show.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = (ROOT / "docs" / "describe-a-game.md",)

_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
_FILE = re.compile(r"<!-- file: ([\w.-]+) -->\s*\Z")
_PROGRESS = re.compile(r"^gpusim: .*\(\d+(?:\.\d+)? %\).*elapsed \d+:\d\d:\d\d\s*$")
_SPEED = re.compile(r"speed [\d,.]+ (?:[kM] )?rounds/s on .+?, wall time")


@dataclass
class Command:
    line: int  # of the guide, for the failure message
    command: str
    expected: str


def parse(text: str) -> tuple[dict[str, str], list[Command]]:
    """The files (name -> text) and the commands of a guide, in order."""
    files: dict[str, str] = {}
    commands: list[Command] = []
    for m in _BLOCK.finditer(text):
        lang, body = m.group(1), m.group(2)
        start = text.count("\n", 0, m.start(2)) + 1
        named = _FILE.search(text[:m.start()])
        if lang == "toml" and named:
            files[named.group(1)] = body
        if lang != "console":
            continue
        current: Command | None = None
        lines = body.splitlines()
        i = 0
        while i < len(lines):
            ln = lines[i]
            if ln.startswith("$ "):
                cmd, at = ln[2:], start + i
                while cmd.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    cmd = cmd[:-1] + " " + lines[i].strip()
                current = Command(at, cmd, "")
                commands.append(current)
            elif current is None:
                raise ValueError(f"line {start + i}: output before any '$ ' command")
            else:
                current.expected += ln + "\n"
            i += 1
    return files, commands


def normalise(text: str, folder: Path | None = None) -> str:
    kept = [ln for ln in text.splitlines()
            if not _PROGRESS.match(ln) and not ln.startswith("auto: ")]
    flat = _SPEED.sub("speed N rounds/s on BACKEND, wall time", " ".join(" ".join(kept).split()))
    # compared without whitespace: the terminal wraps a long line (a run folder's path, whose
    # length is the machine's temporary folder's) wherever the 80 columns end
    flat = "".join(flat.split())
    if folder is not None:
        for p in sorted({str(folder.resolve()), str(folder)}, key=len, reverse=True):
            flat = flat.replace("".join(p.split()), "...")
    return flat


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(COLUMNS="80", LINES="50", PYTHONUNBUFFERED="1", NO_COLOR="1", TERM="dumb")
    return env


def prepare(folder: Path, files: dict[str, str]) -> None:
    shutil.copytree(ROOT / "configs", folder / "configs")
    for name, body in files.items():
        (folder / name).write_text(body, encoding="utf-8")


def run(cmd: Command, folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", cmd.command], cwd=folder, env=_env(), text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_guide_commands_print_what_the_guide_shows(guide, tmp_path):
    files, commands = parse(guide.read_text(encoding="utf-8"))
    assert commands, f"{guide.name}: no ```console block"
    prepare(tmp_path, files)
    for cmd in commands:
        res = run(cmd, tmp_path)
        want_rc = 2 if "gpusim: error:" in cmd.expected else 0
        assert res.returncode == want_rc, (f"{guide.name}:{cmd.line}: `{cmd.command}` exited "
                                           f"{res.returncode}:\n{res.stdout}")
        assert normalise(res.stdout, tmp_path) == normalise(cmd.expected), (
            f"{guide.name}:{cmd.line}: `{cmd.command}` printed\n{res.stdout}\n"
            f"the guide shows\n{cmd.expected}\n(python tests/test_guide_commands.py prints "
            "today's output)")


GUIDE_TEXT = """\
<!-- file: a.toml -->
```toml
x = 1
```

```console
$ cat a.toml
x = 1
$ echo one \\
  two
one two
$ false
```
"""


def test_parse_reads_files_commands_and_continuations():
    files, commands = parse(GUIDE_TEXT)
    assert files == {"a.toml": "x = 1\n"}
    assert [(c.command, c.expected) for c in commands] == [
        ("cat a.toml", "x = 1\n"), ("echo one  two", "one two\n"), ("false", "")]
    assert commands[0].line == 7


def test_the_check_sees_a_changed_figure_but_not_a_timing(tmp_path):
    shown = ("gpusim: simulate: 10 of 10 rounds (100.0 %), 1.15 M rounds/s, ETA 0:00:00, "
             "elapsed 0:00:01\nauto: no GPU backend usable (x); using jax-cpu\n"
             "RTP 97.7024 %\nspeed 1,475,564 rounds/s on jax-cpu (cpu (cpu)), wall time of the\n"
             "chunks\nrun folder: .../runs/tcp\n")
    printed = ("RTP 97.7024 %\nspeed 260,422 rounds/s on cupy (NVIDIA H100), wall time of "
               f"the chunks\nrun folder: {tmp_path}/runs/tcp\n")
    assert normalise(printed, tmp_path) == normalise(shown)
    assert normalise(printed.replace("97.7024", "97.7025"), tmp_path) != normalise(shown)
    # the terminal wraps the run folder's line where its 80 columns end, inside the path
    path = f"{tmp_path}/runs/tcp"
    wrapped = printed.replace(path, f"{path[:-2]}\n{path[-2:]}")
    assert normalise(wrapped, tmp_path) == normalise(shown)
    cut_in_folder = printed.replace(path, f"{path[:9]}\n{path[9:]}")
    assert normalise(cut_in_folder, tmp_path) == normalise(shown)


def _today(guide: Path) -> str:
    """The guide's text with every console block's output as the commands print it now."""
    import tempfile

    text = guide.read_text(encoding="utf-8")
    files, _ = parse(text)
    parts, pos = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        prepare(folder, files)
        for m in _BLOCK.finditer(text):
            if m.group(1) != "console":
                continue
            _, commands = parse(f"```console\n{m.group(2)}```\n")
            block = ""
            for cmd in commands:
                out = run(cmd, folder).stdout
                for p in (str(folder.resolve()), str(folder)):
                    out = out.replace(p, "...")
                out = "".join(ln.rstrip() + "\n" for ln in out.splitlines())
                block += f"$ {cmd.command}\n{out}"
            parts += [text[pos:m.start(2)], block]
            pos = m.end(2)
    return "".join(parts) + text[pos:]


def main(argv: list[str]) -> None:
    for guide in GUIDES:
        text = _today(guide)
        if "--write" in argv:
            guide.write_text(text, encoding="utf-8")
            print(f"wrote {guide.relative_to(ROOT)}")
        else:
            sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
