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

from pathlib import Path
from typing import Any

from typer.core import TyperGroup

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


class HelpGroup(TyperGroup):
    """The ``mcpgym`` group: tidies every command's help (`tidy_help`) before it runs."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line (click's ``main``) after tidying the help placeholders."""
        tidy_help(self)
        return super().main(*args, **kwargs)
