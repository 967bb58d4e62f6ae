"""`serve`: loopback uvicorn inside the caller's event loop."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from mcpgym_server._serving import ServerStartError, serve

pytestmark = pytest.mark.anyio


def _app() -> Starlette:
    return Starlette(routes=[Route("/", lambda r: PlainTextResponse("hi"))])


async def test_serves_until_the_block_exits_and_errors_come_out_unwrapped() -> None:
    with pytest.raises(KeyError, match="from the body"):
        async with serve(_app()) as url:
            async with httpx.AsyncClient() as http:
                assert (await http.get(url)).text == "hi"
            raise KeyError("from the body")
    async with httpx.AsyncClient() as http:
        with pytest.raises(httpx.ConnectError):
            await http.get(url)


async def test_a_failing_lifespan_is_a_clear_start_error() -> None:
    @contextlib.asynccontextmanager
    async def broken(app: Starlette) -> AsyncIterator[None]:
        raise RuntimeError("database unreachable")
        yield  # pragma: no cover

    with pytest.raises(ServerStartError, match="grading service could not start"):
        async with serve(Starlette(lifespan=broken), name="grading service", log_level="critical"):
            pass  # pragma: no cover
