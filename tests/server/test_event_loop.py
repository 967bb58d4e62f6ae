"""`mcpgym_server.runtime.run`: the standard asyncio loop, uvloop with ``MCPGYM_UVLOOP=1``.

The servers, the child servers of ``mcpgym eval`` and the campaign itself run through
`run`; the switch must really change the loop (issue 12 §2: the A/B in
``bench/campaign.py --ways children-asyncio,children-uvloop`` relies on it).
"""

from __future__ import annotations

import asyncio

import pytest

from mcpgym_server.runtime import run, uses_uvloop

pytest.importorskip("uvloop", reason="uvloop is not installed here (Windows, PyPy)")


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


@pytest.mark.parametrize(
    ("setting", "uvloop"), [(None, False), ("0", False), ("1", True), ("yes", False)]
)
def test_run_uses_uvloop_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, setting: str | None, uvloop: bool
) -> None:
    if setting is None:
        monkeypatch.delenv("MCPGYM_UVLOOP", raising=False)
    else:
        monkeypatch.setenv("MCPGYM_UVLOOP", setting)
    assert uses_uvloop() is uvloop
    assert run(_loop_module).startswith("uvloop") is uvloop


def test_run_returns_what_the_function_returns_and_raises_what_it_raises() -> None:
    async def add(a: int, b: int) -> int:
        return a + b

    async def fail() -> None:
        raise LookupError("the function's own error")

    assert run(add, 2, 3) == 5
    with pytest.raises(LookupError, match="own error"):
        run(fail)
