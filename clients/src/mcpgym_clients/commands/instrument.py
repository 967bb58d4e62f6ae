"""``mcpgym lock | sign | record | validate``: the commands that make an environment an instrument.

::

    mcpgym lock ENV                                  recompute and write ENV's mcpgym.lock
    mcpgym sign ENV FAMILY --by "Name <email>"       sign off FAMILY's rubric as it stands
    mcpgym record ENV --task T --band B --seed N     work one episode by hand; save the run
    mcpgym validate ENV [--seeds 20] [--check]       the ship gate (six conditions)

Exit status: 0 on success, 1 on an error or a failed validation, 2 on bad arguments.
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import anyio
import anyio.to_thread
import typer
from rich.console import Console

from mcpgym_clients.commands._common import fail, reported, say
from mcpgym_clients.errors import ConfigurationError, ServerRequestError
from mcpgym_server import Environment, LockMissingError, load_environment
from mcpgym_server.lockfile import read_lock, relock, sign, write_lock


def _environment(name: str) -> Environment:
    with reported():
        return load_environment(name)


def lock(env: Annotated[str, typer.Argument(help="Environment name, e.g. `helpdesk`.")]) -> None:
    """Recompute ENV's lock file (mcpgym.lock in its package), keeping valid sign-offs."""
    environment = _environment(env)
    console = Console()
    with reported():
        try:
            previous = read_lock(environment)
        except LockMissingError:
            previous = None
        new, notes = relock(environment, previous)
        path = write_lock(environment, new)
    unchanged = previous is not None and previous.digest == new.digest
    say(console, f"{'unchanged' if unchanged else 'wrote'} {path} (lock {new.digest[:12]})")
    for note in notes:
        say(console, f"  {note}")
    unsigned = [f for f in new.families if new.signoff_status(f) != "valid"]
    if unsigned:
        say(console, f"  not signed off: {', '.join(unsigned)} (mcpgym sign {env} FAMILY --by ...)")


def sign_(
    env: Annotated[str, typer.Argument(help="Environment name.")],
    family: Annotated[str, typer.Argument(help="Task family whose rubric you approve.")],
    by: Annotated[str, typer.Option(help='Who signs: "Name <email>".')],
) -> None:
    """Sign off FAMILY's rubric (checks, weights, required flags, threshold) as it stands.

    Changing any of them later voids the sign-off until it is signed again.
    """
    environment = _environment(env)
    with reported():
        current = read_lock(environment)
        fresh, changes = relock(environment, current)
        if changes and fresh.digest != current.digest:
            raise fail(
                f"the lock of `{env}` is out of date ({'; '.join(changes)}); run "
                f"`mcpgym lock {env}` first, so you sign what will ship"
            )
        try:
            signed = sign(current, family, by)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--by'") from None
        path = write_lock(environment, signed)
    s = signed.signoffs[family]
    say(Console(), f"signed `{family}` rubric {s.rubric_digest[:12]} by {s.by} at {s.at} in {path}")


def record(
    env: Annotated[str, typer.Argument(help="Environment name.")],
    task: Annotated[str, typer.Option(help="Task family.")],
    band: Annotated[str, typer.Option(help="Band, e.g. easy.")],
    seed: Annotated[int, typer.Option(help="Variant seed.", min=0, max=2**63 - 1)],
    by: Annotated[str | None, typer.Option(help='Who records: "Name <email>".')] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Run file (default: reference_runs/TASK/BAND-SEED.json in the package)."),
    ] = None,
    store: Annotated[
        Path | None, typer.Option(help="Episode store (default: a temporary folder).")
    ] = None,
    unlocked: Annotated[
        bool, typer.Option(help="Record on an environment that does not match its lock.")
    ] = False,
) -> None:
    """Work one episode by hand (a prompt on stdin, or any MCP client on the printed URL)
    and save it as a recorded reference run."""
    from mcpgym_clients.instrument.record import check_signer, record_episode
    from mcpgym_clients.instrument.runs import run_path

    environment = _environment(env)
    try:
        signer = check_signer(by)
    except ConfigurationError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--by'") from None
    require_lock(environment, unlocked)
    console = Console()

    async def lines() -> str | None:
        if sys.stdin.isatty():
            console.print("record> ", end="", markup=False, highlight=False)
        line = await anyio.to_thread.run_sync(sys.stdin.readline)
        return line if line else None

    async def main(store_dir: Path) -> Any:
        return await record_episode(
            environment,
            task,
            band,
            seed,
            lines=lines,
            out=lambda text: say(console, text),
            store_dir=store_dir,
            recorded_by=signer,
            unlocked=unlocked,
        )

    with reported(), tempfile.TemporaryDirectory(prefix="mcpgym-record-") as tmp:
        try:
            run = anyio.run(main, store or Path(tmp), backend="asyncio")
        except ServerRequestError as exc:
            raise fail(str(exc.payload.get("error", exc))) from None
        path = out or run_path(environment, run.task, run.band, run.seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(run.to_json(), encoding="utf-8")
    say(console, f"saved {path}")
    if run.grade.get("score") != 1.0:
        say(console, "warning: the run does not score 1.0; `mcpgym validate` will refuse it")


def validate(
    env: Annotated[str, typer.Argument(help="Environment name.")],
    seeds: Annotated[int, typer.Option(help="Seeds per family and band (N).", min=1)] = 20,
    check: Annotated[
        bool, typer.Option("--check", help="Only check: never write the validation stamp.")
    ] = False,
    json_path: Annotated[
        Path | None,
        typer.Option(
            "--json", help="Where to write the JSON report (default: runs/validate-ENV.json)."
        ),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Episodes in flight.", min=1)] = 8,
    mutant_seeds: Annotated[
        int, typer.Option(help="Seeds per family and band whose reference is mutated.", min=1)
    ] = 2,
) -> None:
    """The ship gate: run ENV through a real server over MCP and check the seven conditions.

    On success the validation is stamped into ENV's lock file (unless --check).
    """
    from importlib.metadata import version

    from mcpgym_clients.instrument.report import render_report
    from mcpgym_clients.instrument.validate import validate_environment
    from mcpgym_server.lockfile import ValidationStamp, read_lock, write_lock

    environment = _environment(env)
    console = Console()
    err = Console(stderr=True)
    out = json_path or Path("runs") / f"validate-{env}.json"

    def progress(done: int, total: int) -> None:
        if done == total or done % 200 == 0:
            err.print(f"validate {env}: {done}/{total} episodes", highlight=False)

    with reported(), tempfile.TemporaryDirectory(prefix="mcpgym-validate-") as tmp:
        report = anyio.run(
            lambda: validate_environment(
                environment,
                store_dir=Path(tmp) / "episodes",
                seeds=seeds,
                mutant_seeds=mutant_seeds,
                concurrency=concurrency,
                progress=progress,
            ),
            backend="asyncio",
        )
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")
    console.print(render_report(report))
    say(console, f"report: {out}")
    if not report.passed:
        raise fail(
            f"{env} fails validation: condition(s) "
            + ", ".join(str(c.id) for c in report.conditions if not c.passed)
        )
    if check:
        say(console, "passed (--check: the lock file was not stamped)")
        return
    with reported():
        locked = read_lock(environment)
        stamp = ValidationStamp(
            at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            digest=locked.digest,
            mcpgym_version=version("mcpgym-clients"),
            seeds=seeds,
            summary=report.summary(),
        )
        path = write_lock(environment, locked.model_copy(update={"validation": stamp}))
    say(console, f"passed; stamped {path}")


def register(app: typer.Typer) -> None:
    """Add ``lock``, ``sign``, ``record`` and ``validate`` to the ``mcpgym`` app."""
    app.command("lock")(lock)
    app.command("sign")(sign_)
    app.command("record")(record)
    app.command("validate")(validate)


def require_lock(environment: Environment, unlocked: bool) -> None:
    """Refuse (one-line error, exit 1) an environment whose code no longer matches its lock.

    Used by ``mcpgym serve``, ``eval``, ``demo`` and ``record``; ``unlocked`` skips the check
    (development: bundles are then marked ``unlocked``).
    """
    if unlocked:
        return
    from mcpgym_server import verify_lock

    with reported():
        verify_lock(environment)


def verify_lock(environment: Environment) -> None:
    """`mcpgym_server.verify_lock` for the eval/demo path (raises `LockError` subclasses)."""
    from mcpgym_server import verify_lock as verify

    verify(environment)
