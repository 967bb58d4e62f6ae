"""Record a reference run: an expert works one episode by hand over MCP.

`record_episode` starts the environment server and the grading service on loopback
(`serve_locally`), opens an episode of ``task@band#seed``, reports its MCP URL (any MCP
client may connect to it and call tools too) and runs a line-oriented prompt over an
MCP client of its own. Lines (from a terminal or a pipe)::

    tools                       list the tools
    schema TOOL                 show a tool's input schema
    instruction                 show the task again
    TOOL {"arg": 1}             call a tool (arguments as one JSON object; none: ``{}``)
    submit [final answer]       call `submit` (ends the episode)
    end | quit | exit | EOF     end the episode without submitting
    # ...                       a comment (ignored, as are blank lines)

When the episode ends it is sealed, graded by the grading service, and its tool-call log,
final-state digest and grade become a `RecordedRun`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from mcpgym_clients.errors import ConfigurationError, ServerRequestError
from mcpgym_clients.instrument.runs import RecordedCall, RecordedRun, variant_digest
from mcpgym_clients.local import serve_locally
from mcpgym_server import SUBMIT_TOOL, Environment, EpisodeStore

LineSource = Callable[[], Awaitable[str | None]]
"""Returns the next input line, or ``None`` at end of input."""

RECORD_IDLE_TTL = 24 * 3600.0
"""Seconds an episode being recorded may sit idle before the server seals it: a day, so an
expert who reads the policy for a while never has the episode sealed under them."""

SEAL_POLL_INTERVAL = 0.5
"""Seconds between checks whether another MCP client ended the episode (``submit``)."""


def _until_sealed(
    lines: LineSource, sealed: Callable[[], Awaitable[bool]], out: Callable[[str], None]
) -> LineSource:
    """``lines`` that also ends (``None``) as soon as the episode is sealed by someone else,
    e.g. an MCP client on the printed URL calling ``submit``: the prompt then finishes
    without waiting for another input line. ``lines`` must tolerate cancellation."""

    async def next_line() -> str | None:
        got: list[str | None] = []
        async with anyio.create_task_group() as tg:

            async def read() -> None:
                got.append(await lines())
                tg.cancel_scope.cancel()

            async def watch() -> None:
                while not await sealed():  # noqa: ASYNC110 (state lives in another server)
                    await anyio.sleep(SEAL_POLL_INTERVAL)
                out("the episode was ended by another client")
                got.append(None)
                tg.cancel_scope.cancel()

            tg.start_soon(read)
            tg.start_soon(watch)
        return got[0]

    return next_line


Output = Callable[[str], None]
"""Prints one line of the prompt's output."""

HELP = __doc__.split("::", 1)[1].split("When the episode", 1)[0].rstrip() if __doc__ else ""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


async def _post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    resp = await http.post(path, json=body)
    data = resp.json()
    if resp.status_code >= 400:
        raise ServerRequestError(
            "env" if "/episodes" in path else "grading", resp.status_code, data
        )
    return data


def _parse_call(line: str, tools: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``TOOL {json}`` -> (tool, arguments). Raises ValueError with a message for the user."""
    name, _, rest = line.partition(" ")
    if name not in tools:
        raise ValueError(f"unknown command or tool `{name}`; type `tools` or `help`")
    rest = rest.strip()
    if not rest:
        return name, {}
    try:
        args = json.loads(rest)
    except json.JSONDecodeError as exc:
        raise ValueError(f"arguments are not valid JSON ({exc.msg}): {rest[:120]}") from None
    if not isinstance(args, dict):
        raise ValueError('arguments must be one JSON object, e.g. {"order_id": 100234}')
    return name, args


async def record_episode(
    env: Environment,
    task: str,
    band: str,
    seed: int,
    *,
    lines: LineSource,
    out: Output,
    store_dir: Path,
    recorded_by: str | None = None,
    unlocked: bool = False,
    on_url: Callable[[str], None] | None = None,
) -> RecordedRun:
    """Serve one episode, run the prompt until the episode ends, and return the run.

    Args:
        env: the environment. task, band, seed: the variant to work.
        lines: where prompt lines come from. out: where the prompt writes.
        store_dir: the episode store the servers share (the bundle stays there).
        recorded_by: ``Name <email>`` of the expert. unlocked: serve an unlocked
            environment (the run is marked so).
        on_url: called with the episode's MCP URL once it is open.

    Raises:
        ServerRequestError: the server refused the episode (unknown task or band).
        InfraError: a server could not start.
    """
    async with (
        serve_locally(env, store_dir, unlocked=unlocked, idle_ttl=RECORD_IDLE_TTL) as servers,
        httpx.AsyncClient(
            base_url=servers.env_url,
            trust_env=False,
            timeout=60,
            headers=servers.control_headers,
        ) as control,
        httpx.AsyncClient(
            base_url=servers.grading_url,
            trust_env=False,
            timeout=60,
            headers={"authorization": f"Bearer {servers.grading_token}"},
        ) as grading,
        httpx2.AsyncClient(trust_env=False, timeout=60) as mcp_http,
    ):
        meta = await _post(control, "/episodes", {"task": task, "band": band, "seed": seed})
        eid, url = meta["episode_id"], meta["mcp_url"]
        out(f"episode {eid}: {meta['variant_id']} (lock {meta['lock'][:12]})")
        out(f"MCP URL (any MCP client may connect and call tools): {url}")
        out(f"task: {meta['instruction']}")
        out("type `help` for commands; `submit [answer]` or `end` finishes the episode")
        if on_url is not None:
            on_url(url)

        async def sealed() -> bool:
            return (await control.get(f"/episodes/{eid}")).json().get("state") != "open"

        answer = await _prompt(
            url, mcp_http, _until_sealed(lines, sealed, out), out, meta["instruction"]
        )
        status = (await control.get(f"/episodes/{eid}")).json()
        if status.get("state") == "open":
            await _post(
                control, f"/episodes/{eid}/end", {} if answer is None else {"answer": answer}
            )
        grade = await _post(grading, "/grades", {"episode_id": eid})
    bundle = EpisodeStore(store_dir, create=False).read(eid)
    capped = [e.step for e in bundle.log if e.arguments_capped or e.result_capped]
    if capped or bundle.meta.answer_capped:
        where = f"steps {capped}" if capped else "the answer"
        raise ConfigurationError(
            f"episode {eid}: {where} went over the tool-call log's value cap, so the log "
            "keeps only their head; a reference run must be recorded whole (keep each "
            "call's arguments and result, and the answer, under 64 KiB of JSON)"
        )
    run = RecordedRun(
        env=bundle.meta.env,
        env_version=bundle.meta.env_version,
        lock=bundle.meta.lock,
        variant_id=bundle.meta.variant_id,
        task=bundle.meta.task,
        band=bundle.meta.band,
        seed=bundle.meta.seed,
        instruction=meta["instruction"],
        variant_digest=variant_digest(env.variant(task, band, seed)),
        recorded_by=recorded_by,
        recorded_at=_now(),
        unlocked=bundle.meta.unlocked,
        calls=[
            RecordedCall(
                step=e.step,
                tool=e.tool,
                arguments=e.arguments,
                status=e.status,
                result=e.result,
                error=e.error,
            )
            for e in bundle.log
        ],
        answer=bundle.meta.answer,
        termination=bundle.meta.termination,
        final_sha256=bundle.meta.final_sha256,
        grade=grade,
    )
    failing = [c["name"] for c in grade.get("checks", []) if c.get("passed") is False]
    out(
        f"sealed ({run.termination}, {len(run.calls)} calls); grade: score {grade.get('score')}, "
        f"passed {grade.get('passed')}"
        + (f"; failing checks: {', '.join(failing)}" if failing else "")
    )
    return run


async def _prompt(
    url: str, mcp_http: httpx2.AsyncClient, lines: LineSource, out: Output, instruction: str
) -> str | None:
    """Run the prompt over one MCP client until the episode ends; the answer given, if any."""
    async with Client(streamable_http_client(url, http_client=mcp_http), cache=None) as client:
        listed = await client.list_tools()
        tools = {t.name: t for t in listed.tools}
        while True:
            line = await lines()
            if line is None:
                return None
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            word = line.split(" ", 1)[0]
            if word in ("end", "quit", "exit"):
                return None
            if word in ("help", "?"):
                out(HELP)
            elif word == "tools":
                for t in tools.values():
                    first = (t.description or "").strip().splitlines()
                    out(f"  {t.name}: {first[0] if first else ''}")
            elif word == "schema":
                name = line[len(word) :].strip()
                if name not in tools:
                    out(f"error: unknown tool `{name}`; type `tools`")
                else:
                    out(json.dumps(tools[name].input_schema, indent=2))
            elif word == "instruction":
                out(instruction)
            elif word == SUBMIT_TOOL and not line[len(word) :].strip().startswith("{"):
                answer = line[len(word) :].strip()
                if len(answer) >= 2 and answer[0] == answer[-1] and answer[0] in "'\"":
                    answer = answer[1:-1]
                args = {"answer": answer} if answer else {}
                res = await _call(client, SUBMIT_TOOL, args, out)
                if res is None:
                    continue
                if not res.is_error:
                    out("submitted")
                    return answer or None
                out(f"error: {_text(res)}")
            else:
                try:
                    name, args = _parse_call(line, tools)
                except ValueError as exc:
                    out(f"error: {exc}")
                    continue
                res = await _call(client, name, args, out)
                if res is None:
                    continue
                if res.is_error:
                    out(f"error: {_text(res)}")
                else:
                    shown = res.structured_content if res.structured_content else _text(res)
                    out(json.dumps(shown, indent=2, ensure_ascii=False))
                if name == SUBMIT_TOOL and not res.is_error:
                    given = args.get("answer")
                    return given if isinstance(given, str) else None


async def _call(client: Client, name: str, args: dict[str, Any], out: Output) -> Any:
    """``client.call_tool``; a request the server refuses (too large, malformed) is reported
    as one ``error:`` line and gives ``None``: the session goes on."""
    try:
        return await client.call_tool(name, args)
    except MCPError as exc:
        why = exc.message[:200]
        out(f"error: the server refused the call to `{name}` (MCP error {exc.code}): {why}")
        return None


def _text(res: Any) -> str:
    return "\n".join(c.text for c in res.content if c.type == "text")


def check_signer(by: str | None) -> str | None:
    """``by`` stripped when it is ``Name <email>`` (or ``None``).

    Raises:
        ConfigurationError: it is not.
    """
    from mcpgym_server.lock import SIGNER

    if by is None:
        return None
    if not SIGNER.match(by.strip()):
        raise ConfigurationError(
            f'{by!r} must be a name and an email address: "Jane Doe <jane@example.org>"'
        )
    return by.strip()
