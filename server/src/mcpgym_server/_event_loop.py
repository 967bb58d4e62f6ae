"""The event loop of the servers and of the campaign: asyncio, uvloop on request.

The servers, the child servers of ``mcpgym eval`` and the campaign itself start their
event loop through `run`. It is the standard asyncio loop unless ``MCPGYM_UVLOOP=1``
asks for ``uvloop`` (libuv; the loop uvicorn's ``standard`` extra installs) and uvloop is
installed. Measured on a reference campaign with both servers in child processes
(docs/benchmarks.md, ``bench/campaign.py --ways children-asyncio,children-uvloop``),
uvloop did not lower the CPU per episode of any of the three processes (the event loop
itself is ~1% of their samples; the rest is Python code above it), so it is not a
dependency and not the default. Child processes inherit the setting; anyio drives both
loops, and nothing here changes what a program does.
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
"""Environment variable: ``1`` runs on uvloop where it is installed (to compare); unset,
``0`` or anything else, the standard asyncio loop."""


def uses_uvloop() -> bool:
    """Whether `run` will use uvloop: `UVLOOP_ENV` is ``1`` and uvloop is importable."""
    if os.environ.get(UVLOOP_ENV, "").strip() != "1":
        return False
    return importlib.util.find_spec("uvloop") is not None


def run(func: Callable[[Unpack[Ts]], Awaitable[T]], *args: *Ts) -> T:
    """``anyio.run(func, *args)`` on asyncio, with uvloop when `uses_uvloop`.

    Returns what ``func`` returns; raises what it raises (and ``KeyboardInterrupt`` as
    ``anyio.run`` does).
    """
    return anyio.run(func, *args, backend="asyncio", backend_options={"use_uvloop": uses_uvloop()})
