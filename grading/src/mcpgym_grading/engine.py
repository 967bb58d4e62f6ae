"""The check engine: grade one sealed episode bundle against its locked environment.

Grading reads only the bundle (final database, tool-call log, metadata) and what
the locked environment regenerates from it (the task variant, the rubric and, when
a check compares with it, the reference end state). It never looks at a transcript.

Both the final database and the reference end state are page deltas against the locked
snapshot: the final one is rebuilt from the snapshot and checked against the bundle's
``final_sha256``, the reference one is cached as its delta, and state checks read only the
tables whose pages changed on either side (`_statepages`). The lock of an environment is
computed once per loaded environment (`environment_lock`), not per bundle.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import weakref
from collections.abc import Callable
from typing import Any

from mcpgym_grading._checks import EVALUATORS, CheckContext
from mcpgym_grading._cow import keep_cow, open_cow, reopen_cow
from mcpgym_grading._decision_check import eval_decision_match
from mcpgym_grading._log_checks import eval_tool_arguments_only
from mcpgym_grading._mention_check import eval_mention_match
from mcpgym_grading._reference import _ENV_CALLS, DEFAULT_REFERENCE_CACHE, ReferenceCache
from mcpgym_grading._statepages import (
    BaseIndex,
    StateConnection,
    adopt_state,
    base_index,
    open_state,
)
from mcpgym_grading._values import lookup_param, register_sql_functions, resolve
from mcpgym_grading.errors import BundleMismatchError, CheckEvaluationError, LockMismatchError
from mcpgym_grading.grade import CheckResult, Grade
from mcpgym_grading.rubric import Check, DecisionMatch, MentionMatch, Rubric, ToolArgumentsOnly
from mcpgym_server import (
    BundleError,
    Environment,
    EnvironmentDefinitionError,
    Snapshot,
    TaskVariant,
)
from mcpgym_server.bundles import STATE_DELTA, EpisodeBundle, PageDelta
from mcpgym_server.lock import compute_lock

SCORE_TOLERANCE = 1e-9
"""``score >= threshold - SCORE_TOLERANCE`` passes (weights are floats)."""


logger = logging.getLogger("mcpgym.grading")


_LOCKS: weakref.WeakKeyDictionary[Environment, tuple[tuple[Any, ...], str]] = (
    weakref.WeakKeyDictionary()
)
_LOCKS_GUARD = threading.Lock()


def _definition_token(env: Environment) -> tuple[Any, ...]:
    """Identity of everything the lock covers; changes when any part is replaced or added."""
    return (
        env.name,
        env.version,
        env.instructions,
        env.clock_start,
        env.clock_step,
        id(env.snapshot),
        tuple((name, id(spec)) for name, spec in env.tools.items()),
        tuple(
            (name, id(fam), id(fam.rubric), fam.generator_version)
            for name, fam in env.families.items()
        ),
        tuple((uri, id(res)) for uri, res in env.resources.items()),
    )


def environment_lock(env: Environment) -> str:
    """`compute_lock` of ``env``, computed once per environment object (~3 ms) and again only
    when a tool, family, rubric, resource or other locked part of it is replaced or added.
    Thread-safe."""
    token = _definition_token(env)
    with _LOCKS_GUARD:
        cached = _LOCKS.get(env)
    if cached is not None and cached[0] == token:
        return cached[1]
    lock = compute_lock(env)
    with _LOCKS_GUARD:
        _LOCKS[env] = (token, lock)
    return lock


def _base(check: Check) -> dict[str, Any]:
    return {
        "name": check.name,
        "kind": check.kind,
        "weight": check.weight,
        "required": check.required,
    }


EVALUATORS[MentionMatch] = eval_mention_match  # it reads its text with `_checks`' helpers
EVALUATORS[DecisionMatch] = eval_decision_match
EVALUATORS[ToolArgumentsOnly] = eval_tool_arguments_only  # refused calls too


def _expected_preview(check: Check, params: Any) -> Any:
    raw = getattr(check, "expected", None)
    try:
        return resolve(raw, params)
    except CheckEvaluationError:
        return check.model_dump(mode="json").get("expected")


def _skipped(check: Check, reason: str) -> CheckResult:
    return CheckResult(
        **_base(check),
        applicable=False,
        passed=None,
        detail={"expected": None, "found": None, "skipped": reason},
    )


def _errored(check: Check, ctx: CheckContext, message: str) -> CheckResult:
    return CheckResult(
        **_base(check),
        applicable=True,
        passed=None,
        detail={"expected": _expected_preview(check, ctx.params), "found": None},
        error=message,
    )


def _evaluate(check: Check, ctx: CheckContext) -> CheckResult:
    band = ctx.bundle.meta.band
    if check.bands is not None and band not in check.bands:
        return _skipped(check, f"band `{band}` is not one of {list(check.bands)}")
    try:
        if check.when is not None and not lookup_param(ctx.params, check.when):
            return _skipped(check, f"variant param `{check.when}` is false")
        outcome = EVALUATORS[type(check)](check, ctx)
    except CheckEvaluationError as exc:
        return _errored(check, ctx, str(exc))
    except sqlite3.Error as exc:
        return _errored(check, ctx, f"SQL error: {exc}")
    except Exception as exc:  # a grader bug must surface as an error grade, never a 500
        logger.exception("check %s of %s raised", check.name, ctx.bundle.meta.variant_id)
        return _errored(check, ctx, f"the check raised {type(exc).__name__}: {exc}")
    return CheckResult(
        **_base(check), applicable=True, passed=outcome.passed, detail=outcome.detail
    )


_DIGESTS: dict[int, tuple[Rubric, str]] = {}
_DIGESTS_GUARD = threading.Lock()


def rubric_digest(rubric: Rubric) -> str:
    """`Rubric.digest` of ``rubric``, computed once per rubric object (rubrics are frozen)."""
    with _DIGESTS_GUARD:
        cached = _DIGESTS.get(id(rubric))
    if cached is not None and cached[0] is rubric:
        return cached[1]
    digest = rubric.digest()
    with _DIGESTS_GUARD:
        if len(_DIGESTS) > 1024:
            _DIGESTS.clear()
        _DIGESTS[id(rubric)] = (rubric, digest)
    return digest


def _rubric_of(env: Environment, task: str) -> Rubric:
    rubric = env.family(task).rubric
    if not isinstance(rubric, Rubric):
        raise EnvironmentDefinitionError(
            f"task family `{task}` of `{env.name}` has a {type(rubric).__name__} rubric; "
            "the grader needs an mcpgym_grading.Rubric"
        )
    return rubric


def grade_bundle(
    bundle: EpisodeBundle,
    env: Environment,
    *,
    check_lock: bool = True,
    reference_cache: ReferenceCache | None = None,
    skip_unchanged_tables: bool = True,
    final_db: sqlite3.Connection | None = None,
) -> Grade:
    """Grade a sealed episode bundle with the rubric of its task family.

    Regenerates the variant from ``(task, band, seed)``, evaluates every rubric
    check (a check outside its ``bands`` or whose ``when`` param is false does not
    apply) and scores the applicable ones. The reference end state is built only
    when a check compares with it, and cached per ``(lock, variant)``.

    A check that cannot be evaluated (SQL error, missing param, unknown table or
    tool, failing reference solution) does not raise: the grade gets status
    ``"error"``, no score, ``passed=False`` and an ``error`` naming the check.
    The result is deterministic: the same bundle and environment give an equal grade.

    Args:
        bundle: the sealed episode.
        env: the installed environment the episode ran on.
        check_lock: refuse to grade when ``compute_lock(env)`` differs from the
            bundle's lock (default). With ``False`` the grade records the installed lock.
        reference_cache: where reference end states are cached (default: a process-wide LRU).
        skip_unchanged_tables: state checks skip the tables whose pages neither the episode
            nor the reference changed (default). ``False`` reads every table: the path
            before page deltas, kept for benchmarks and for tests that the grades agree.
        final_db: an open connection already holding the bundle's final database: the
            sealed sandbox of an in-process episode (`EpisodeManager.take_final_db`, made
            with ``connection_factory=StateConnection``), which saves rebuilding and
            opening it. The bundle must hold its final bytes (an in-memory bundle does).
            It is made query-only with tuple rows and left open (the caller closes it).

    Returns:
        The `Grade`.

    Raises:
        LockMismatchError: the environment's lock is not the bundle's (``check_lock``).
        BundleMismatchError: the bundle names another environment, or its variant id is
            not what the environment regenerates.
        UnknownTaskError, UnknownBandError: the environment lacks the bundle's task or band.
        EnvironmentDefinitionError: the family's rubric is not a `Rubric`.
        BundleError: the final database rebuilt from the snapshot and the bundle's page
            delta does not match its ``final_sha256`` (or the delta is against another
            snapshot): the bundle is not graded.
    """
    meta = bundle.meta
    if meta.env != env.name:
        raise BundleMismatchError(
            f"episode {meta.episode_id} ran in environment `{meta.env}`, not `{env.name}`"
        )
    lock = environment_lock(env)
    if check_lock and lock != meta.lock:
        raise LockMismatchError(meta.episode_id, meta.lock, lock)
    with _ENV_CALLS:
        variant = env.variant(meta.task, meta.band, meta.seed)
        rubric = _rubric_of(env, meta.task)
    if variant.id != meta.variant_id:
        raise BundleMismatchError(
            f"episode {meta.episode_id} records variant {meta.variant_id}, but "
            f"({meta.task}, {meta.band}, {meta.seed}) regenerates {variant.id}"
        )
    cache = DEFAULT_REFERENCE_CACHE if reference_cache is None else reference_cache
    snapshot = env.snapshot
    index = base_index(snapshot) if skip_unchanged_tables else None
    mapped = (
        None
        if final_db is not None or not skip_unchanged_tables
        else _open_mapped(bundle, snapshot, index)
    )
    final_data: bytes = b""
    final_delta: PageDelta | None = None
    if mapped is not None:
        pass  # opened in place: nothing rebuilt
    elif skip_unchanged_tables or bundle.has_delta:
        final_data, final_delta = bundle.final_state(snapshot)
        if MAP_HELD and index is not None:
            mapped = _map_held(final_delta, snapshot, index)
    else:
        final_data = bundle.final_db
    opened: list[StateConnection] = []

    def reference_db() -> sqlite3.Connection:
        if not opened:
            if index is None:  # the path before page deltas: a fresh copy, every table read
                delta = cache.get_delta(env, variant, lock)
                opened.append(open_state(delta.apply(snapshot.data), delta, snapshot, None))
            else:
                opened.append(cache.checkout(env, variant, lock, index))
        return opened[0]

    own_final = final_db is None or mapped is not None  # the caller's own is left open
    if mapped is not None:
        final_db = mapped
    elif final_db is None:
        final_db = open_state(final_data, final_delta, snapshot, index)
    elif isinstance(final_db, StateConnection):
        adopt_state(final_db, final_data, final_delta, snapshot, index)
    else:
        final_db.row_factory = None
        final_db.execute("PRAGMA query_only = ON")
    if not getattr(final_db, "sql_functions", False):  # a kept connection has them
        register_sql_functions(final_db)
        if isinstance(final_db, StateConnection):
            final_db.sql_functions = True
    try:
        ctx = CheckContext(
            bundle=bundle,
            env=env,
            variant=variant,
            rubric=rubric,
            final_db=final_db,
            reference_db=reference_db,
        )
        results = tuple(_evaluate(check, ctx) for check in rubric.checks)
    finally:
        if own_final and not (mapped is not None and keep_cow(mapped, snapshot)):
            final_db.close()
        for db in opened:
            if index is None:
                db.close()
            else:
                cache.checkin(db)
    return _score(bundle, variant, rubric, lock, results)


MAP_HELD = True
"""Grade a final database held in hand (a bundle holding its final bytes, or the sealed
sandbox the caller passes as ``final_db``) on a kept mapped connection (`_map_held`) too.
``False``: on the caller's connection or a fresh copy, as before (benchmarks)."""


def _map_held(
    delta: PageDelta,
    snapshot: Snapshot,
    index: BaseIndex | None,
    verify: Callable[[StateConnection], None] | None = None,
) -> StateConnection | None:
    """The final database made of ``delta`` (a page delta against ``snapshot``) opened in
    place on the snapshot, through a kept connection (`reopen_cow`) where one of its size is
    idle, so the rubric's statements compiled for an earlier bundle serve this one: a fresh
    connection (the sealed sandbox of an in-process episode, or a copy of its bytes)
    compiles every check's statements again, ~2-5 ms of a helpdesk grade. ``verify`` (the
    mapped connection) raises where its bytes are not the bundle's; without it ``delta``
    must be of bytes held in hand and checked (`EpisodeBundle.final_state`). ``None`` when
    it cannot be mapped.
    """
    db = reopen_cow(snapshot, delta) or open_cow(snapshot, delta)
    if db is None:
        return None
    if verify is not None:
        try:
            verify(db)
        except BaseException:
            db.close()
            raise
    adopt_state(db, db.data, delta, snapshot, index)
    if db.reopened and not db.schema_is_base:  # compiled against another schema
        db.close()
        db = open_cow(snapshot, delta)
        if db is None:
            return None
        adopt_state(db, db.data, delta, snapshot, index)
    return db


def _open_mapped(
    bundle: EpisodeBundle, snapshot: Snapshot, index: BaseIndex | None
) -> StateConnection | None:
    """The final database of a page-delta bundle opened in place on the snapshot
    (`_map_held`), checked against the bundle's ``final_pages_sha256`` by hashing the pages
    the delta wrote as SQLite will read them; ``None`` when the bundle holds its final bytes,
    has no page-wise digest (sealed before it: rebuilt and checked whole) or cannot be mapped.

    Raises:
        BundleError: the rebuilt database does not match ``final_pages_sha256``.
    """
    meta = bundle.meta
    expected = meta.final_pages_sha256
    if bundle.holds_final or not expected:
        return None
    delta = bundle.delta_against(snapshot)
    if delta is None:
        return None

    def verify(db: StateConnection) -> None:
        data, p = db.data, delta.page_size
        found = snapshot.page_digests.with_delta(delta, lambda n: data[(n - 1) * p : n * p])
        if found != expected:
            raise BundleError(
                f"bundle {meta.episode_id}: the final database rebuilt from snapshot "
                f"{snapshot.sha256[:12]} and {STATE_DELTA} does not match final_pages_sha256 "
                f"{expected[:12]} in meta; the bundle or the snapshot is damaged"
            )

    return _map_held(delta, snapshot, index, verify)


def _score(
    bundle: EpisodeBundle,
    variant: TaskVariant,
    rubric: Rubric,
    lock: str,
    results: tuple[CheckResult, ...],
) -> Grade:
    meta = bundle.meta
    errors = [f"check `{r.name}`: {r.error}" for r in results if r.error is not None]
    applicable = [r for r in results if r.applicable]
    score: float | None = None
    passed = False
    if not errors and not any(r.weight > 0 for r in applicable):
        errors.append(
            f"rubric: no weighted check applies to band `{meta.band}` of `{meta.task}`; "
            "a grade needs at least one"
        )
    if not errors:
        total = sum(r.weight for r in applicable)
        got = sum(r.weight for r in applicable if r.passed)
        score = min(1.0, max(0.0, got / total))
        required_ok = all(r.passed for r in applicable if r.required)
        passed = required_ok and score >= rubric.threshold - SCORE_TOLERANCE
    return Grade(
        episode_id=meta.episode_id,
        env=meta.env,
        env_version=meta.env_version,
        task=meta.task,
        band=meta.band,
        seed=meta.seed,
        variant_id=variant.id,
        lock=lock,
        rubric_digest=rubric_digest(rubric),
        status="error" if errors else "graded",
        error="; ".join(errors) if errors else None,
        score=score,
        passed=passed,
        threshold=rubric.threshold,
        checks=results,
        termination=meta.termination,
        steps=meta.steps,
        internal_errors=meta.internal_errors,
        unlocked=meta.unlocked,
    )
