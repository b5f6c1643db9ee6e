"""The ``gpusim`` command line: thin Typer commands that parse, call the library and print what
:mod:`gpusim.report` renders.

One module per group of commands (:mod:`~gpusim.cli.info_commands`,
:mod:`~gpusim.cli.exact_commands`, :mod:`~gpusim.cli.design_commands`,
:mod:`~gpusim.cli.simulate_commands`, :mod:`~gpusim.cli.figures_commands`,
:mod:`~gpusim.cli.batch_commands`): each parses its commands' arguments, calls the library and
prints; each is a Typer app merged here without a group name, so every command stays at the top
level (``gpusim simulate``). Commands import the library inside their bodies,
after the cheap checks: ``gpusim --help``, ``--version`` and a bad option load neither JAX nor
polars.

Every user error ends the same way: one line on stderr that names the field, the value and what
is allowed, exit code 2, no traceback (see :func:`gpusim.cli.common.fail`).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from gpusim.cli import (
    batch_commands,
    certify_commands,
    design_commands,
    exact_commands,
    figures_commands,
    info_commands,
    randomness_commands,
    simulate_commands,
)

__all__ = ["app", "main"]

app = typer.Typer(
    add_completion=True,  # --install-completion, --show-completion: no measurable start-up cost
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="GPU-accelerated batch simulator and exact analyser for casino poker table games.",
)
# the order here is the order of `gpusim --help`
for _group in (
    info_commands.app,
    exact_commands.app,
    certify_commands.app,
    design_commands.app,
    simulate_commands.app,
    figures_commands.app,
    randomness_commands.app,
    batch_commands.app,
):
    app.add_typer(_group)
app.add_typer(info_commands.bench_app, name="bench", help="Measure speed against installed peers.")


def _print_version(value: bool) -> None:
    if value:
        from gpusim import __version__

        typer.echo(f"gpusim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """GPU-accelerated batch simulator and exact analyser for casino poker table games."""


def main() -> None:
    """Console-script entry point.

    Click's usage errors (unknown option, bad option type, missing argument) become the same
    one-line error as every other bad input, instead of click's multi-line box.
    """
    try:  # recent typer vendors click; older ones use the click package
        from typer._click.exceptions import (
            BadParameter,
            ClickException,
            NoArgsIsHelpError,
            UsageError,
        )
    except ImportError:
        from click.exceptions import BadParameter, ClickException, NoArgsIsHelpError, UsageError

    try:
        code = app(prog_name="gpusim", standalone_mode=False)
    except NoArgsIsHelpError as exc:
        typer.echo(exc.ctx.get_help() if exc.ctx is not None else str(exc), err=True)
        sys.exit(2)
    except UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "gpusim"
        msg = " ".join(exc.format_message().split())
        if isinstance(exc, BadParameter) and exc.param is not None:
            got = _given_value(sys.argv[1:], list(getattr(exc.param, "opts", [])))
            if got is not None:
                msg += f" (got {got!r})"
        typer.echo(f"gpusim: error: {where}: {msg}", err=True)
        sys.exit(2)
    except ClickException as exc:
        typer.echo(f"gpusim: error: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("gpusim: interrupted", err=True)
        sys.exit(130)
    code = code if isinstance(code, int) else 0
    if code == 0:
        _exit_without_teardown()
    sys.exit(code)


def _exit_without_teardown() -> None:
    """End a successful command without the interpreter's module teardown.

    With JAX and Polars loaded, freeing every module at exit takes about 0.25 s on a 2-core
    machine, about as long as 5 x 10^6 Casino Hold'em rounds compute (measured by
    ``benchmarks/startup.py --with-teardown``). Nothing is left to save by then: every file
    is closed and renamed into place. The exit handlers still run (a Ray session still shuts
    down) and the output is flushed; only a process that loaded neither library, or that
    still has a non-daemon thread, exits the ordinary way.
    """
    import atexit
    import os
    import threading

    if not any(m in sys.modules for m in ("jax", "polars")):
        return
    main_thread = threading.main_thread()
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not main_thread):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # e.g. a closed pipe: let Python report it as usual
    atexit._run_exitfuncs()  # noqa: SLF001 -- the handlers os._exit would otherwise skip
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _given_value(argv: list[str], opts: list[str]) -> str | None:
    """The last value given on the command line for an option (``--x v`` or ``--x=v``)."""
    found = None
    for i, tok in enumerate(argv):
        for opt in opts:
            if tok == opt and i + 1 < len(argv):
                found = argv[i + 1]
            elif tok.startswith(opt + "="):
                found = tok[len(opt) + 1 :]
    return found


if __name__ == "__main__":
    main()
