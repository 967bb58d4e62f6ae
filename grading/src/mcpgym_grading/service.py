"""The grading service: an HTTP API that grades sealed episode bundles.

Routes (JSON in, JSON out)::

    GET  /healthz                 {"ok": true}                       no auth
    POST /grades                  {"episode_id": "ep_..."} -> Grade  bearer token
    GET  /grades/{episode_id}     the grade made earlier -> Grade    bearer token

Authentication: ``Authorization: Bearer <token>``. No (or a non-Bearer) header
gives 401 with ``WWW-Authenticate: Bearer``; a wrong token gives 403. Agents are
never given this token.

Errors are ``{"error": "<what went wrong and what to do>", ...}``:

===== ==========================================================================
400   the body is not JSON (``"field": null``)
401   no bearer token
403   wrong bearer token
404   no sealed bundle for the episode; no grade yet (GET); the bundle's
      environment is not installed here (``"installed"`` lists the installed ones)
409   the bundle was made on another lock than the installed environment's
      (``"bundle_lock"``, ``"installed_lock"``), or it does not fit the environment
422   the body is not an object, ``episode_id`` is missing or not a non-empty
      string, or an unknown field was sent (``"field"`` names it); or the bundle in
      the episode's folder was sealed for another episode (``"signature": "mismatch"``,
      with or without a bundle key); or the service has a bundle key and the bundle is
      unsigned or its signature does not verify for this episode id (``"signature"``:
      ``unsigned`` / ``invalid``); or the bundle is malformed: a file missing,
      cut short or not matching its metadata (``"bundle": "malformed"``, the error
      names the file)
500   the environment is broken, or a grader bug
===== ==========================================================================

With a bundle key (``bundle_key``, shared with the environment server) every bundle's
HMAC-SHA256 signature is checked before grading (`mcpgym_server._bundle`) against the
episode id asked for, so the signature binds the bundle to its episode, environment and
lock, and grades say ``"signature": "verified"``; without one grades say
``"signature": "unchecked"``.

Each bundle file is read once: the signature is verified over those bytes and the grade
made from the same bytes (`EpisodeStore.read_verified`), never from a second read.

At most `GRADING_THREADS` grades run at once (``grading_threads``); the others wait their
turn. A grade is Python under one interpreter lock: sixteen grades in sixteen threads made
no more progress than two, but each cost ~10-20% more CPU in lock hand-offs and caches
lost between threads (`bench/grade_threads.py`, issue 12 §2).

Bundles are immutable and grading is deterministic, so a grade is computed once per episode
and kept in memory (and in ``grades_dir`` as ``<episode_id>.json`` when given, which survives
restarts), served only while its lock is the installed environment's (an environment changed
under a running service: graded again, 409) and while the bundle in the store has the digest
of the bytes it graded: a bundle edited after its grade was made is graded again (and so
refused with 422 when a bundle key is set), never answered with the old grade marked
``verified``. A grade file is served only while it is bound to the bundle in the store and
its MAC verifies (`mcpgym_grading._grade_cache`); a planted or edited one is ignored and the
bundle graded again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mcpgym_grading._grade_cache import open_grade, seal_grade, stale
from mcpgym_grading._reference import ReferenceCache
from mcpgym_grading.engine import environment_lock, grade_bundle
from mcpgym_grading.errors import BundleMismatchError, LockMismatchError
from mcpgym_grading.grade import Grade
from mcpgym_server import (
    BundleError,
    BundleSignatureError,
    Environment,
    EnvironmentDefinitionError,
    UnknownBandError,
    UnknownEnvironmentError,
    UnknownEpisodeError,
    UnknownTaskError,
    load_environment,
)
from mcpgym_server.bundles import (
    EpisodeStore,
    MemoryEpisodeStore,
    sweep_debris,
    write_file_atomic,
)

logger = logging.getLogger("mcpgym.grading")

GRADING_THREADS = 2
"""Grades computed at once by default (see the module docstring); two, so that one long
grade does not hold up every other."""

EnvLoader = Callable[[str], Environment]
"""``name -> Environment``; raises `UnknownEnvironmentError` for names not installed."""


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers)


class _ApiError(Exception):
    def __init__(self, response: JSONResponse) -> None:
        self.response = response


class _GradingService:
    """State behind the routes: the store, the grade cache, the in-flight gradings."""

    def __init__(
        self,
        store: EpisodeStore,
        token: str,
        env_loader: EnvLoader,
        grades_dir: Path | None,
        reference_cache: ReferenceCache | None,
        bundle_key: str | None = None,
        grading_threads: int = GRADING_THREADS,
    ) -> None:
        self.store = store
        self.bundle_key = bundle_key or None
        self.token = token.encode()
        # cached grades are MAC'd with a secret no agent holds (see _grade_cache)
        self.cache_key = self.bundle_key.encode() if self.bundle_key else self.token
        self.env_loader = env_loader
        self.grades_dir = grades_dir
        self.reference_cache = reference_cache
        # each grade kept with the digest of the bundle bytes it graded (`bundle_digest`)
        self.grades: dict[str, tuple[Grade, str]] = {}
        self.inflight: dict[str, anyio.Event] = {}
        self.grading_threads = grading_threads
        self._limiter: anyio.CapacityLimiter | None = None  # made in the event loop

    def limiter(self) -> anyio.CapacityLimiter:
        """The limiter of the grades computed at once (`GRADING_THREADS`)."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.grading_threads)
        return self._limiter

    # -- auth ----------------------------------------------------------------------------

    def authorise(self, request: Request) -> JSONResponse | None:
        header = request.headers.get("authorization")
        if header is None:
            return _error(401, "missing `Authorization: Bearer <token>` header")
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            return _error(401, "the `Authorization` header must be `Bearer <token>`")
        if not secrets.compare_digest(value.strip().encode(), self.token):
            return _error(403, "the bearer token is not valid for this grading service")
        return None

    # -- grades ----------------------------------------------------------------------------

    def installed_lock(self, name: str) -> str:
        """The lock of the environment ``name`` as installed now (raises as `env_loader`)."""
        return environment_lock(self.env_loader(name))

    def bundle_digest(self, episode_id: str) -> str | None:
        """The digest of the bundle now in the store, as `compute` names what it graded
        (`BundleFiles.sha256`; for bundles in memory, `MemoryEpisodeStore.read_verified`'s);
        ``None`` when it cannot be read (then nothing cached is served: grading says why)."""
        try:
            if isinstance(self.store, MemoryEpisodeStore):
                return self.store.read_verified(episode_id, None)[1]
            return self.store.files(episode_id).sha256()
        except (OSError, BundleError, UnknownEpisodeError):
            return None

    def cached(self, episode_id: str) -> Grade | None:
        """The grade made earlier: in memory or in ``grades_dir``, served only while the
        bundle in the store has the digest of the bytes it graded and only under the
        installed lock (`mcpgym_grading._grade_cache.stale`); ``None`` otherwise.

        Reads and hashes the bundle's files: call it in a worker thread.
        """
        kept = self.grades.get(episode_id)
        path = None
        if self.grades_dir is not None and _safe_id(episode_id):
            path = self.grades_dir / f"{episode_id}.json"
        if kept is None and (path is None or not path.is_file()):
            return None  # nothing kept: no need to read the bundle
        digest = self.bundle_digest(episode_id)
        grade = None
        if kept is not None:
            grade, graded = kept
            why = stale(grade, self.installed_lock)
            if not why and graded != digest:
                # edited, cut or replaced since it was graded: grade it again, so a changed
                # bundle is refused (or graded anew), never answered `verified` from memory
                why = "the bundle in the store is not the one it graded"
            if why:
                logger.warning("not serving the grade of %s kept in memory: %s", episode_id, why)
                self.grades.pop(episode_id, None)
                grade = None
        if grade is None and digest is not None and path is not None and path.is_file():
            grade = self.from_disk(episode_id, path, digest)
            if grade is not None:
                self.grades[episode_id] = (grade, digest)
        return grade

    def from_disk(self, episode_id: str, path: Path, digest: str) -> Grade | None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            logger.warning("not serving the cached grade %s: %s", path, exc)
            return None
        grade, why = open_grade(
            text,
            episode_id=episode_id,
            bundle_sha256=digest,
            key=self.cache_key,
            installed_lock=self.installed_lock,
        )
        if grade is None:
            logger.warning("not serving the cached grade %s (%s): grading again", path, why)
        return grade

    def compute(self, episode_id: str) -> tuple[Grade, str]:
        """Read the bundle, load its environment and grade it (runs in a worker thread).

        Each bundle file is read once; the signature is verified over those bytes and
        the grade made from them (`EpisodeStore.read_verified`), so files swapped on disk
        meanwhile are never graded under a verified signature.
        """
        # With or without a key: a bundle copied over another episode's folder is refused.
        bundle, digest = self.store.read_verified(episode_id, self.bundle_key)
        env = self.env_loader(bundle.meta.env)
        grade = grade_bundle(bundle, env, reference_cache=self.reference_cache)
        if self.bundle_key is not None:
            grade = grade.model_copy(update={"signature": "verified"})
        if self.grades_dir is not None:
            text = seal_grade(grade, bundle_sha256=digest, key=self.cache_key)
            _write_atomic(self.grades_dir / f"{episode_id}.json", text)
        return grade, digest

    async def grade(self, episode_id: str) -> Grade:
        while True:
            pending = self.inflight.get(episode_id)
            if pending is not None:
                await pending.wait()
                continue
            kept = self.grades.get(episode_id)
            if kept is None and self.grades_dir is None:
                cached = None  # what `cached` answers, without a worker thread's round trip
            else:
                cached = await anyio.to_thread.run_sync(self.cached, episode_id)
            if cached is not None:
                return cached
            # checked in a thread: another request may have started (or finished) grading it
            if episode_id not in self.inflight and self.grades.get(episode_id) is kept:
                break
        done = anyio.Event()
        self.inflight[episode_id] = done
        try:
            grade, digest = await anyio.to_thread.run_sync(
                self.compute, episode_id, limiter=self.limiter()
            )
            self.grades[episode_id] = (grade, digest)
            return grade
        except (UnknownEpisodeError, UnknownEnvironmentError) as exc:
            raise _ApiError(self.not_found(episode_id, exc)) from exc
        except LockMismatchError as exc:
            raise _ApiError(
                _error(
                    409,
                    str(exc),
                    bundle_lock=exc.bundle_lock,
                    installed_lock=exc.installed_lock,
                )
            ) from exc
        except BundleSignatureError as exc:
            raise _ApiError(_error(422, str(exc), signature=exc.reason)) from exc
        except (BundleMismatchError, UnknownTaskError, UnknownBandError) as exc:
            raise _ApiError(
                _error(409, f"episode {episode_id} does not fit the installed environment: {exc}")
            ) from exc
        except BundleError as exc:  # the bundle's own fault: a file missing, cut or edited
            logger.error("cannot grade episode %s: %s", episode_id, exc)
            message = f"cannot grade episode {episode_id}: {exc}"
            raise _ApiError(_error(422, message, bundle="malformed")) from exc
        except EnvironmentDefinitionError as exc:
            logger.error("cannot grade episode %s: %s", episode_id, exc)
            raise _ApiError(_error(500, f"cannot grade episode {episode_id}: {exc}")) from exc
        finally:
            del self.inflight[episode_id]
            done.set()

    def not_found(self, episode_id: str, exc: Exception) -> JSONResponse:
        if isinstance(exc, UnknownEnvironmentError):
            installed = exc.choices
            return _error(
                404,
                f"episode {episode_id} ran in environment `{exc.name}`, which is not installed "
                f"in this grading service; installed environments: "
                f"{', '.join(installed) or '(none)'}",
                installed=installed,
            )
        return _error(
            404,
            f"no sealed bundle for episode {episode_id} in store {self.store.root}; end the "
            f"episode first (POST /episodes/{episode_id}/end)",
        )


_EPISODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def _safe_id(episode_id: str) -> bool:
    """Whether ``episode_id`` has the episode-id form (safe as a file name)."""
    return _EPISODE_ID.fullmatch(episode_id) is not None


def _no_such_episode(episode_id: str) -> JSONResponse:
    return _error(
        404,
        f"no episode has the id {ascii(episode_id[:80])}; episode ids look like ep_<32 hex>",
    )


def grade_response(grade: Grade) -> Response:
    """A grade's JSON response in one pass: the bytes `JSONResponse` made of
    ``grade.model_dump(mode="json")`` (tested), without the detour through Python objects."""
    return Response(grade.model_dump_json(), media_type="application/json")


def _write_atomic(path: Path, text: str) -> None:
    """Write a grade file whole or not at all, through a locked temporary file that
    `sweep_grades_debris` removes once its writer is gone (`write_file_atomic`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file_atomic(path, text.encode("utf-8"))


_LEGACY_TMP = re.compile(r"\.ep_[0-9a-f]{32}\.json\.[A-Za-z0-9_]{8}")
"""A grade file's temporary name before `write_file_atomic` (``tempfile.mkstemp``)."""

LEGACY_TMP_AGE_S = 60.0
"""Such a file older than this is debris (it names no writer; a write takes milliseconds)."""


def sweep_grades_debris(grades_dir: Path) -> list[str]:
    """Remove the temporary grade files that writers killed mid-write left in ``grades_dir``
    (`mcpgym_server.bundles.sweep_debris`: a live writer's, in this or another process, is
    kept), and those of the older writer's names (``.<episode_id>.json.XXXXXXXX``) older
    than `LEGACY_TMP_AGE_S`; run when the service starts.

    Returns:
        The names removed (none when ``grades_dir`` does not exist or cannot be listed).
    """
    removed = sweep_debris(grades_dir)
    try:
        entries = list(os.scandir(grades_dir))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        if not _LEGACY_TMP.fullmatch(entry.name):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False) and (
                now - entry.stat(follow_symlinks=False).st_mtime > LEGACY_TMP_AGE_S
            ):
                os.unlink(entry.path)
                removed.append(entry.name)
    return removed


async def _parse_episode_id(request: Request) -> str:
    body = await request.body()
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise _ApiError(
            _error(
                400,
                f'request body is not valid JSON ({exc}); send {{"episode_id": "<id>"}}',
                field=None,
            )
        ) from exc
    if not isinstance(data, dict):
        raise _ApiError(
            _error(422, 'request body must be a JSON object: {"episode_id": "<id>"}', field=None)
        )
    fields = cast("dict[str, Any]", data)
    unknown = sorted(k for k in fields if k != "episode_id")
    if unknown:
        raise _ApiError(
            _error(
                422,
                f"unknown field `{unknown[0]}`; the only field is `episode_id`",
                field=unknown[0],
            )
        )
    episode_id = fields.get("episode_id")
    if episode_id is None:
        raise _ApiError(_error(422, "field `episode_id` is required", field="episode_id"))
    if not isinstance(episode_id, str) or not episode_id.strip():
        raise _ApiError(
            _error(422, "field `episode_id` must be a non-empty string", field="episode_id")
        )
    return episode_id


def create_app(
    store_dir: str | os.PathLike[str],
    token: str,
    *,
    env_loader: EnvLoader = load_environment,
    grades_dir: str | os.PathLike[str] | None = None,
    reference_cache: ReferenceCache | None = None,
    bundle_key: str | None = None,
    grading_threads: int = GRADING_THREADS,
) -> Starlette:
    """The grading service as an ASGI app (serve it with uvicorn).

    Args:
        store_dir: the episode store directory holding sealed bundles (the
            environment server's store).
        token: the bearer token clients must send on ``/grades`` routes.
        env_loader: finds an installed environment by name (default: the
            ``mcpgym.environments`` entry points).
        grades_dir: optional directory where grades are also written as
            ``<episode_id>.json`` (and read back after a restart, if still bound to their
            bundle: see `mcpgym_grading._grade_cache`).
        reference_cache: cache of reference end states (default: process-wide).
        bundle_key: the environment server's bundle key: bundles must carry a signature
            that verifies with it (else 422); ``None`` grades unsigned bundles and says so.
        grading_threads: grades computed at once (`GRADING_THREADS`); the others wait.

    Returns:
        A `Starlette` app with the routes listed in this module's docstring.

    Raises:
        ValueError: ``token`` is empty (the service never runs unauthenticated), or
            ``grading_threads`` is below 1.
        BundleError: ``store_dir`` is not an existing directory (a mistyped path must
            not serve an empty store).
    """
    if not token:
        raise ValueError("the grading service needs a non-empty bearer token")
    if grading_threads < 1:
        raise ValueError(f"grading_threads must be at least 1, not {grading_threads}")
    if grades_dir is not None:
        swept = sweep_grades_debris(Path(grades_dir))
        if swept:
            logger.warning("removed %d temporary grade file(s) of killed writers", len(swept))
    service = _GradingService(
        EpisodeStore(store_dir, create=False),
        token,
        env_loader,
        Path(grades_dir) if grades_dir is not None else None,
        reference_cache,
        bundle_key,
        grading_threads,
    )

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    async def post_grade(request: Request) -> Response:
        if (denied := service.authorise(request)) is not None:
            return denied
        try:
            episode_id = await _parse_episode_id(request)
            if not _safe_id(episode_id):
                return _no_such_episode(episode_id)
            grade = await service.grade(episode_id)
        except _ApiError as exc:
            return exc.response
        return grade_response(grade)

    async def get_grade(request: Request) -> Response:
        if (denied := service.authorise(request)) is not None:
            return denied
        episode_id = request.path_params["episode_id"]
        if not _safe_id(episode_id):
            return _no_such_episode(episode_id)
        grade = await anyio.to_thread.run_sync(service.cached, episode_id)
        if grade is None:
            return _error(
                404,
                f"no grade for episode {episode_id} yet; create it with POST /grades "
                f'{{"episode_id": "{episode_id}"}}',
            )
        return grade_response(grade)

    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        logger.error("grading service failed on %s %s", request.method, request.url.path)
        return _error(500, f"internal error in the grading service: {type(exc).__name__}: {exc}")

    app = Starlette(
        exception_handlers={Exception: internal_error},
        routes=[
            Route("/healthz", healthz, methods=["GET"]),
            Route("/grades", post_grade, methods=["POST"]),
            Route("/grades/{episode_id}", get_grade, methods=["GET"]),
        ],
    )
    app.state.grading = service  # tests and benchmarks look at its limiter
    return app
