"""`gpusim --help` lists every command with one line each."""

from typer.testing import CliRunner

from gpusim.cli import app

COMMANDS = ["eval", "games", "play", "exact", "design", "simulate", "summary", "risk", "report",
            "whatif", "bench", "devices", "merge", "verify"]


def test_help_lists_every_command_on_one_line():
    res = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"}, terminal_width=80)
    assert res.exit_code == 0
    lines = res.output.splitlines()
    for cmd in COMMANDS:
        rows = [i for i, ln in enumerate(lines) if ln.strip("│ ").startswith(cmd + " ")]
        assert len(rows) == 1, cmd
        following = lines[rows[0] + 1].strip("│ ")
        # a wrapped description would continue on an indented line with no command name
        assert following == "" or following.split()[0] in COMMANDS or following.startswith("╰"), (
            cmd, following)
