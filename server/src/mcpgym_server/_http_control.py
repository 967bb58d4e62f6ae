"""The environment server's control routes (``/healthz``, ``/tasks``, ``/episodes``...;
the route table is in `mcpgym_server._http`): request bodies, their parsing and the
handlers."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mcpgym_server._control import control_denied
from mcpgym_server._environment import Environment
from mcpgym_server._episode import EpisodeManager
from mcpgym_server._errors import (
    CapacityError,
    EpisodeSealedError,
    MCPGymError,
    NotFoundError,
    UnknownEpisodeError,
)
from mcpgym_server._http_asgi import json_error
from mcpgym_server._mcp_bridge import episode_instructions

MAX_SEED = 2**63 - 1
"""Largest variant seed accepted."""


class EpisodeRequest(BaseModel):
    """Body of ``POST /episodes``.

    Attributes:
        task: task family name. band: difficulty band (default: the family's easiest).
        seed: non-negative variant seed (default 0).
    """

    model_config = ConfigDict(extra="forbid")
    task: str
    band: str | None = None
    seed: int = Field(0, ge=0, le=MAX_SEED)


class EndRequest(BaseModel):
    """Body of ``POST /episodes/{id}/end`` (optional): a final answer."""

    model_config = ConfigDict(extra="forbid")
    answer: str | None = None


def not_found(exc: NotFoundError) -> JSONResponse:
    """The 404 for an unknown task, band or episode, naming the valid choices."""
    return json_error(404, str(exc), kind=exc.kind, name=exc.name, choices=exc.choices)


async def _json_body(request: Request, model: type[BaseModel], *, optional: bool = False) -> Any:
    raw = await request.body()
    if not raw.strip():
        if optional:
            return model()
        return json_error(400, f"request body must be a JSON object for {model.__name__}")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        return json_error(400, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
    except ValueError as exc:  # invalid UTF-8, numbers past Python's digit limit
        return json_error(400, f"request body is not valid JSON: {exc}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = [
            {"field": ".".join(str(p) for p in e["loc"]) or "(body)", "message": e["msg"]}
            for e in exc.errors(include_url=False)
        ]
        detail = "; ".join(f"`{e['field']}`: {e['message']}" for e in errors)
        return json_error(422, f"invalid request: {detail}", errors=errors)


def control_routes(
    env: Environment,
    manager: EpisodeManager,
    token: bytes | None,
    generator_seed: Callable[[str, str, int], int],
    episode_settings: dict[str, Any],
) -> list[Route]:
    """The control routes, in the order the app matches them.

    Args:
        env: the environment served. manager: its episodes.
        token: the control token (``None``: an open server; see `control_denied`).
        generator_seed: ``(task, band, requested seed) -> generator seed`` (the salt).
        episode_settings: what ``GET /tasks`` shows the harness besides the lock.

    Returns:
        ``GET /healthz``, ``GET /tasks``, ``POST /episodes``, ``GET /episodes/{id}``,
        ``POST /episodes/{id}/end``, ``POST /episodes/{id}/keepalive`` (the idle TTL
        starts again; answers ``state`` ``open`` or ``sealed`` with its ``termination``).
    """

    async def healthz(request: Request) -> Response:
        return JSONResponse(
            {"ok": True, "env": env.name, "version": env.version, "lock": manager.lock}
        )

    async def list_tasks(request: Request) -> Response:
        tasks = [
            {"name": f.name, "description": f.description, "bands": list(f.bands)}
            for f in env.families.values()
        ]
        body: dict[str, Any] = {
            "env": env.name,
            "version": env.version,
            "lock": manager.lock,
            "tasks": tasks,
        }
        if control_denied(request.headers, token) is None:  # the harness's, never an agent's
            body["episode_settings"] = episode_settings
        return JSONResponse(body)

    async def create_episode(request: Request) -> Response:
        if (denied := control_denied(request.headers, token)) is not None:
            return denied
        body = await _json_body(request, EpisodeRequest)
        if isinstance(body, Response):
            return body
        try:
            fam = env.family(body.task)
            band = body.band or fam.bands[0]
            ep = manager.open(body.task, band, generator_seed(body.task, band, body.seed))
        except NotFoundError as exc:
            return not_found(exc)
        except CapacityError as exc:
            return json_error(503, str(exc), limit=exc.limit)
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                "episode_id": ep.id,
                "mcp_url": f"{base}/episodes/{ep.id}/mcp",
                "instruction": ep.variant.instruction,
                "variant_id": ep.variant.id,
                "task": ep.variant.family,
                "band": ep.variant.band,
                "seed": ep.variant.seed,
                "requested_seed": body.seed,
                "env": env.name,
                "env_version": env.version,
                "lock": manager.lock,
                # so that a harness sees a server that came back different mid-campaign
                # (another seed salt, TTL or cap: adversarial round 14, S1-8)
                "episode_settings": episode_settings,
                # what the episode URL answers `server/discover` (and `initialize`) with as
                # instructions: a harness that adopts the server's discover result for
                # later episodes needs no probe per episode (mcpgym_clients.discover_reuse)
                "server_instructions": episode_instructions(env, ep.variant),
            },
            status_code=201,
        )

    async def episode_status(request: Request) -> Response:
        # Without the control token: only open/sealed and the step count (an agent may poll
        # its own episode); the variant id and termination need the token.
        eid = request.path_params["episode_id"]
        control = control_denied(request.headers, token) is None
        await manager.wait_sealed(eid)  # "sealed" only once the bundle is in the store
        try:
            ep = manager.get(eid)
        except EpisodeSealedError as exc:
            try:
                steps = manager.store.read_meta(eid).steps
            except MCPGymError:  # the store moved under the server: the state still stands
                steps = None
            body: dict[str, Any] = {"episode_id": eid, "state": "sealed", "steps": steps}
            if control:
                body["termination"] = exc.reason
            return JSONResponse(body)
        except UnknownEpisodeError as exc:
            return not_found(exc)
        body = {"episode_id": eid, "state": "open", "steps": len(ep.log)}
        if control:
            body["variant_id"] = ep.variant.id
        return JSONResponse(body)

    async def keep_alive(request: Request) -> Response:
        # The harness's "still here": its agent waits on a model answer that may take
        # longer than the idle TTL (adversarial round 19, S19-R2: 802 s on a CPU model);
        # the answer says whether the episode is still open, and why not.
        if (denied := control_denied(request.headers, token)) is not None:
            return denied
        eid = request.path_params["episode_id"]
        await manager.wait_sealed(eid)
        try:
            manager.keep_alive(eid)
        except EpisodeSealedError as exc:
            return JSONResponse({"episode_id": eid, "state": "sealed", "termination": exc.reason})
        except UnknownEpisodeError as exc:
            return not_found(exc)
        return JSONResponse({"episode_id": eid, "state": "open", "idle_ttl": manager.idle_ttl})

    async def end_episode(request: Request) -> Response:
        if (denied := control_denied(request.headers, token)) is not None:
            return denied
        eid = request.path_params["episode_id"]
        body = await _json_body(request, EndRequest, optional=True)
        if isinstance(body, Response):
            return body
        try:
            with anyio.CancelScope(shield=True):  # a client that hangs up still ends it
                meta = await manager.seal_async(eid, "ended", answer=body.answer)
        except UnknownEpisodeError as exc:
            return not_found(exc)
        return JSONResponse(meta.model_dump(mode="json"))

    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/tasks", list_tasks, methods=["GET"]),
        Route("/episodes", create_episode, methods=["POST"]),
        Route("/episodes/{episode_id}", episode_status, methods=["GET"]),
        Route("/episodes/{episode_id}/end", end_episode, methods=["POST"]),
        Route("/episodes/{episode_id}/keepalive", keep_alive, methods=["POST"]),
    ]
