"""How ``--help`` reads: value placeholders a person understands, no ``<bool>`` on flags.

Typer shows every option's type in angle brackets (``<bool>`` on an on/off flag,
``<int range>``, ``<str>``). `tidy_help` walks the built command once, before it runs,
and gives each parameter a plain placeholder instead: nothing on a flag, ``N`` for an
integer, ``X`` for a float, ``PATH`` for a path, ``TEXT`` for other options and the
argument's name for an argument; placeholders set by hand (``SECONDS``, ``N``) are kept.
Typer ships its own copy of click, so parameters are read by their attributes, not by
their click classes.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import typer
from rich.console import Console
from typer.core import TyperGroup

from mcpgym_clients.commands._common import quiet_when_output_closed, silence_closed_output

if TYPE_CHECKING:
    from typer._click.exceptions import UsageError

_BY_TYPE: dict[type, str] = {int: "N", float: "X", Path: "PATH", str: "TEXT"}


def _placeholder(param: Any) -> str | None:
    if getattr(param, "metavar", None) is not None:
        return None
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    if getattr(param, "param_type_name", "") == "argument":
        return str(param.name or "arg").upper()
    descriptor = getattr(param, "type_descriptor", None)
    annotation = getattr(descriptor, "annotation", None)
    if getattr(descriptor, "is_choice", False):
        return None  # the choices are shown themselves
    return _BY_TYPE.get(annotation, "TEXT") if isinstance(annotation, type) else "TEXT"


def tidy_help(command: Any) -> Any:
    """Give every parameter of ``command`` and its subcommands a plain placeholder (in place).

    Args:
        command: the command built from the Typer app (``typer.main.get_command``).

    Returns:
        The same command, for chaining.
    """
    for param in getattr(command, "params", ()):
        text = _placeholder(param)
        if text is not None:
            param.metavar = text
        if getattr(param, "param_type_name", "") == "argument":
            # an argument's type column ignores metavar: its name already says what it is
            param.display_type_rich = lambda ctx: None
    if getattr(command, "_mcpgym_tidy", False):
        return command
    command._mcpgym_tidy = True
    make_help_option = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = make_help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = help_option
    for sub in (getattr(command, "commands", None) or {}).values():
        tidy_help(sub)
    return command


_UsageError = cast("type[UsageError]", typer.BadParameter.__mro__[1])
"""click's ``UsageError`` (Typer ships its own copy of click and exports only
``BadParameter``, its subclass)."""


def _console_broken_pipe(self: Console) -> None:
    """`rich.console.Console.on_broken_pipe` of the ``mcpgym`` process: the console goes
    quiet and the error is passed on to `quiet_when_output_closed`, which decides (Rich's
    default exits with status 1 on any broken pipe)."""
    self.quiet = True
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


class HelpGroup(TyperGroup):
    """The ``mcpgym`` group: tidied help (`tidy_help`), and usage errors in one style.

    Every usage error, whether click found it (a malformed option, an unknown agent) or a
    command did (an unknown environment, task or band), is printed the same way: one
    ``error: ...`` line on stderr (click's own name the flag and end ``(see `mcpgym CMD
    --help`)``), exit status 2.

    Output piped into a reader that stops early (``mcpgym compare A B | head -1``, ``mcpgym
    --help | head``) ends the command quietly with status 0, for every command
    (`quiet_when_output_closed`), instead of click's silent status 1.
    """

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        """Parse the top-level arguments (where ``mcpgym --help`` is printed)."""
        with quiet_when_output_closed():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        """Run the subcommand (its help, its output) under `quiet_when_output_closed`."""
        with quiet_when_output_closed():
            return super().invoke(ctx)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line (click's ``main``) with the behaviour described above."""
        tidy_help(self)
        if kwargs.get("standalone_mode", True) is False:
            return super().main(*args, **kwargs)
        Console.on_broken_pipe = _console_broken_pipe  # Rich's hook for this (see above)
        try:
            # not standalone, click returns the exit status of `typer.Exit` (or the
            # command's own value, None for every mcpgym command) instead of exiting
            status = super().main(*args, **{**kwargs, "standalone_mode": False})
        except _UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # help was shown
                sys.exit(0)
            ctx = getattr(exc, "ctx", None)
            where = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
            err = Console(stderr=True)
            err.print("[bold red]error:[/]", end=" ", highlight=False)
            err.print(
                exc.format_message() + where,
                soft_wrap=True,
                highlight=False,
                markup=False,
                emoji=False,  # what the user typed is shown as typed (`:m:` stays `:m:`)
            )
            sys.exit(2)
        except typer.Abort:
            Console(stderr=True).print("Aborted.", highlight=False)
            sys.exit(1)
        try:
            sys.stdout.flush()  # what is still buffered, while a closed pipe can be told
        except BrokenPipeError:
            silence_closed_output()
        sys.exit(status if isinstance(status, int) else 0)
