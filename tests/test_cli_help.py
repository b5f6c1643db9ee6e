"""`gpusim --help` lists every command with one line each."""

from typer.testing import CliRunner

from gpusim.cli import app

COMMANDS = ["eval", "games", "play", "exact", "certify", "design", "simulate", "summary", "risk",
            "report", "whatif", "randomness", "bench", "devices", "merge", "verify"]


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


def test_report_help_names_every_output_format():
    from gpusim.report.render import FORMATS

    res = CliRunner().invoke(app, ["report", "--help"], env={"COLUMNS": "200"},
                             terminal_width=200)
    assert res.exit_code == 0
    option = next(ln for ln in res.output.splitlines() if "--format" in ln)
    assert [f for f in FORMATS if f not in option.split()] == [], option
    summary = res.output.split("Write a run's risk report", 1)[1].splitlines()[0]
    names = {"html": "HTML", "md": "Markdown", "json": "JSON", "xlsx": "XLSX"}
    assert set(names) == set(FORMATS) and all(names[f] in summary for f in FORMATS), summary


def test_help_offers_shell_completion():
    res = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "120"}, terminal_width=120)
    assert res.exit_code == 0
    assert "--install-completion" in res.output and "--show-completion" in res.output
