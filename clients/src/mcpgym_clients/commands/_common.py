"""Helpers shared by the ``mcpgym`` commands: one-line errors and plain output.

Every command reports a user error (an mcpgym error, an OS or SQLite error, even
inside an exception group) as one ``error: ...`` line on stderr with exit status 1
(2 for a usage error: a value on the command line that names nothing or is malformed),
and keeps the traceback of a bug. Output whose reader went away (``mcpgym runs | head
-1``) is not an error: see `output_closed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import sqlite3
from collections.abc import Iterator
from typing import Any

import typer
from rich.console import Console

from mcpgym_clients.errors import ConfigurationError, message
from mcpgym_server import MCPGymError, NotFoundError, UnknownEpisodeError, load_environment


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``error: message`` on stderr and return the ``typer.Exit(code)`` to raise."""
    err = Console(stderr=True)
    err.print("[bold red]error:[/]", end=" ", highlight=False)
    err.print(message, soft_wrap=True, highlight=False, markup=False, emoji=False)
    return typer.Exit(code)


def say(console: Console, text: str) -> None:
    """Print ``text`` as one plain line (never wrapped, so paths stay whole)."""
    console.print(text, soft_wrap=True, highlight=False, markup=False, emoji=False)


def parsed(fn: Any, value: str, flag: str) -> Any:
    """``fn(value)``, a `ConfigurationError` becoming a usage error naming ``flag``."""
    try:
        return fn(value)
    except ConfigurationError as exc:
        raise typer.BadParameter(str(exc), param_hint=f"'{flag}'") from None


USER_ERRORS: tuple[type[BaseException], ...] = (MCPGymError, OSError, sqlite3.Error)
"""Errors caused by what the user asked for or by their machine: reported in one line."""


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def _user_error(exc: BaseException) -> BaseException | None:
    """The user error in ``exc`` (looking inside exception groups), or ``None``.

    A group counts only if all it holds, besides cancellations, are user errors: a bug
    keeps its traceback.
    """
    leaves = [e for e in _leaves(exc) if not isinstance(e, asyncio.CancelledError)]
    if leaves and all(isinstance(e, USER_ERRORS) for e in leaves):
        return leaves[0]
    return None


def _unread(fd: int) -> bool:
    """Whether ``fd`` is a pipe or socket whose reader went away (poll reports an error or a
    hang-up on it); without ``poll`` (Windows), assume so."""
    if not hasattr(select, "poll"):
        return True
    poller = select.poll()
    try:
        poller.register(fd, select.POLLOUT)
        events = poller.poll(0)
    except (OSError, ValueError):  # fd closed or not pollable
        return False
    return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in events)


def output_closed(exc: BaseException) -> bool:
    """Whether ``exc`` means that whoever read the output went away (``mcpgym compare A B
    | head -1``): a `BrokenPipeError` (alone, or all an exception group holds besides
    cancellations) while stdout or stderr is a pipe nobody reads any more. A broken pipe
    elsewhere (a socket, a child process) is not this and stays an error."""
    leaves = [e for e in _leaves(exc) if not isinstance(e, asyncio.CancelledError)]
    if not leaves or not all(isinstance(e, BrokenPipeError) for e in leaves):
        return False
    return _unread(1) or _unread(2)


def silence_closed_output() -> None:
    """Point stdout and stderr, where nobody reads them any more, at ``os.devnull``, so
    that nothing else fails writing there (the interpreter's last flush included): the
    recipe of the Python documentation (`signal`, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            if _unread(fd):
                os.dup2(devnull, fd)
    finally:
        os.close(devnull)


@contextlib.contextmanager
def quiet_when_output_closed() -> Iterator[None]:
    """Exit with status 0, silently, when the output's reader went away (`output_closed`):
    what ``head`` and other readers that stop early expect of a command."""
    try:
        yield
    except BaseException as exc:
        if not output_closed(exc):
            raise
        silence_closed_output()
        raise typer.Exit(0) from None


@contextlib.contextmanager
def reported() -> Iterator[None]:
    """Turn user errors (mcpgym errors, OS and SQLite errors, even inside exception
    groups) into a one-line message on stderr and exit status 1 (2 for a usage error,
    see `exit_code`). A closed output (`output_closed`) is passed on, not reported."""
    try:
        yield
    except BaseException as exc:
        if output_closed(exc):
            raise
        found = _user_error(exc)
        if found is None:
            raise
        raise fail(message(found), exit_code(found)) from None


def exit_code(exc: BaseException) -> int:
    """The exit status for a user error: 2 for a usage error (a value on the command line
    that names nothing, e.g. an unknown environment, task, band, agent or run), else 1."""
    if isinstance(exc, NotFoundError) and not isinstance(exc, UnknownEpisodeError):
        return 2
    return int(getattr(exc, "exit_code", 1))


def environment_named(name: str) -> Any:
    """The installed environment ``name``; an unknown name is a one-line usage error."""
    with reported():
        return load_environment(name)
