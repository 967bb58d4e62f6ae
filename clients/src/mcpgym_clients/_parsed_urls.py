"""HTTP clients of the harness that parse each request URL once, not once per request.

The MCP SDK hands ``httpx2`` its endpoint as a string on every request
(``client.build_request("POST", url, ...)``), and ``httpx2`` parses it twice per request
(the URL merge and the request's own URL): ~80 us of the ~120 us that ``build_request``
costs (measured on this machine, load ~8), ~8 times per episode (issue 12 §2).
`ParsedUrlClient` is an ``httpx2.AsyncClient`` whose ``build_request`` (the library's
public method, which ``stream`` and ``send`` callers go through) turns a string URL into
an ``httpx2.URL`` remembered per string (`parsed_url`, a bounded LRU) before handing it
to the library. An ``httpx2.URL`` is immutable (its parts are a named tuple that every
request copies or shares read-only), so a remembered one is the same value the library
would parse: the request, its headers and bytes on the wire are unchanged
(`tests/clients/test_parsed_urls.py`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import httpx2

URLS_REMEMBERED = 1024
"""Distinct URL strings `parsed_url` keeps (each episode has its own MCP URL, used ~8
times while it runs: far more than the episodes in flight)."""


@lru_cache(maxsize=URLS_REMEMBERED)
def parsed_url(text: str) -> httpx2.URL:
    """``httpx2.URL(text)``, parsed once per distinct ``text`` (LRU of `URLS_REMEMBERED`).

    Raises:
        httpx2.InvalidURL: as ``httpx2.URL`` does (an invalid URL is not remembered).
    """
    return httpx2.URL(text)


class ParsedUrlClient(httpx2.AsyncClient):
    """An ``httpx2.AsyncClient`` whose string request URLs are parsed once (`parsed_url`)."""

    def build_request(
        self, method: str, url: httpx2.URL | str, *args: Any, **kwargs: Any
    ) -> httpx2.Request:
        """The library's ``build_request``, with a string ``url`` replaced by its parsed
        ``httpx2.URL`` (the same value); every other argument is passed on unchanged."""
        if isinstance(url, str):
            url = parsed_url(url)
        return super().build_request(method, url, *args, **kwargs)
