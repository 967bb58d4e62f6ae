"""Bench-only start-up hook (on ``PYTHONPATH`` for bench/campaign.py's ``children-h11``
way): with ``MCPGYM_BENCH_HTTP=h11`` the server processes' uvicorn parses HTTP with h11,
as before httptools was a dependency. Nothing else changes."""

import os

if os.environ.get("MCPGYM_BENCH_HTTP"):
    import functools

    import uvicorn

    uvicorn.Config.__init__ = functools.partialmethod(  # type: ignore[method-assign]
        uvicorn.Config.__init__, http=os.environ["MCPGYM_BENCH_HTTP"]
    )
