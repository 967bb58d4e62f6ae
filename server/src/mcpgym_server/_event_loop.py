"""Running a coroutine function on the fastest event loop this machine has.

The servers and the campaign driver spend much of their CPU in the event loop itself
(scheduling callbacks, socket readiness, transports: issue 12 §2, docs/benchmarks.md).
``uvloop`` (libuv, the loop uvicorn's ``standard`` extra installs) does that work in C.
`run` uses it where it is installed and not turned off, and the standard asyncio loop
otherwise (Windows, where uvloop does not exist; ``MCPGYM_UVLOOP=0``), with the same
behaviour: anyio drives both, and nothing here changes what a program does.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Awaitable, Callable
from typing import TypeVar, TypeVarTuple, Unpack

import anyio

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

UVLOOP_ENV = "MCPGYM_UVLOOP"
"""Environment variable: ``0`` runs on the standard asyncio loop even where uvloop is
installed (to compare, or to rule it out when debugging)."""


def uses_uvloop() -> bool:
    """Whether `run` will use uvloop: it is importable and `UVLOOP_ENV` is not ``0``."""
    if os.environ.get(UVLOOP_ENV, "").strip() == "0":
        return False
    return importlib.util.find_spec("uvloop") is not None


def run(func: Callable[[Unpack[Ts]], Awaitable[T]], *args: *Ts) -> T:
    """``anyio.run(func, *args)`` on asyncio, with uvloop when `uses_uvloop`.

    Returns what ``func`` returns; raises what it raises (and ``KeyboardInterrupt`` as
    ``anyio.run`` does).
    """
    return anyio.run(func, *args, backend="asyncio", backend_options={"use_uvloop": uses_uvloop()})
