"""``mcpgym lock | sign | record | validate``: the commands that make an environment an instrument.

::

    mcpgym lock ENV                                  recompute and write ENV's mcpgym.lock
    mcpgym sign ENV FAMILY --by "Name <email>"       sign off FAMILY's rubric as it stands
                 [--force]                       (replace another's valid sign-off)
    mcpgym record ENV --task T --band B --seed N     work one episode by hand; save the run
                 [--force] [--allow-failing]     (replace a run; keep a run under 1.0)
    mcpgym validate ENV [--seeds 20] [--check]       the ship gate (conditions 0-6)

Exit status: 0 on success, 1 on an error or a failed validation, 2 on bad arguments.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import tempfile
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import anyio
import anyio.to_thread
import typer
from rich.console import Console

from mcpgym_clients.commands._common import fail, reported, say
from mcpgym_clients.errors import ConfigurationError, ServerRequestError
from mcpgym_clients.server_logs import server_logs
from mcpgym_server import Environment, LockError, LockMissingError, load_environment
from mcpgym_server.lock import lock_path, read_lock, relock, salvage_lock, sign, write_lock

if TYPE_CHECKING:
    import asyncio

    from mcpgym_clients.instrument.validate import ServerMode


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
        except LockError as exc:  # malformed or edited by hand: keep what can be kept
            previous = None
            new, notes = salvage_lock(environment, str(exc))
        else:
            new, notes = relock(environment, previous)
        # content, not text: a file whose tables (sign-offs) stand in another order than
        # `to_toml` writes them (`sign` appends) is the same lock, and is left as it is
        unchanged = previous is not None and previous.model_dump(mode="json") == new.model_dump(
            mode="json"
        )
        path = lock_path(environment) if unchanged else write_lock(environment, new)
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
    force: Annotated[
        bool, typer.Option(help="Replace a valid sign-off of the same rubric by someone else.")
    ] = False,
) -> None:
    """Sign off FAMILY's rubric (checks, weights, required flags, threshold) as it stands.

    Changing any of them later voids the sign-off until it is signed again. A rubric that
    already carries a valid sign-off keeps it: signing it again by the same signer changes
    nothing, and by another signer is refused (exit 1) unless --force.
    """
    environment = _environment(env)
    console = Console()
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
        new, old = signed.signoffs[family], current.signoffs.get(family)
        valid = old if current.signoff_status(family) == "valid" else None
        if valid is not None and valid.by == new.by:
            say(
                console,
                f"unchanged: `{family}` rubric {valid.rubric_digest[:12]} is already signed "
                f"off by {valid.by} at {valid.at}",
            )
            return
        if valid is not None and not force:
            raise fail(
                f"`{family}` rubric {valid.rubric_digest[:12]} is already signed off by "
                f"{valid.by} at {valid.at}, and it has not changed since; signing it would "
                f"replace that sign-off with yours (pass --force to replace it)"
            )
        path = write_lock(environment, signed)
    replaced = f", replacing {valid.by}'s of {valid.at}" if valid is not None else ""
    say(
        console,
        f"signed `{family}` rubric {new.rubric_digest[:12]} by {new.by} at {new.at}{replaced} "
        f"in {path}",
    )


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
    force: Annotated[bool, typer.Option(help="Replace an existing run file.")] = False,
    allow_failing: Annotated[
        bool,
        typer.Option(help="Save a run that does not score 1.0 into reference_runs/ anyway."),
    ] = False,
) -> None:
    """Work one episode by hand (a prompt on stdin, or any MCP client on the printed URL)
    and save it as a recorded reference run.

    An existing run file is kept unless --force. A run that does not score 1.0 is not saved
    into reference_runs/ (unless --allow-failing): it goes to runs/failed-runs/ and the
    exit status is 1. Ctrl-C ends the session at once (exit 130) and saves nothing.
    """
    from mcpgym_clients.instrument.record import check_signer, record_episode
    from mcpgym_clients.instrument.runs import run_path, runs_dir

    environment = _environment(env)
    try:
        signer = check_signer(by)
    except ConfigurationError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--by'") from None
    require_lock(environment, unlocked)
    with reported():
        path = out or run_path(environment, task, band, seed)
        shipped = runs_dir(environment).resolve()
    if path.exists() and not force:
        raise fail(f"{path} exists; pass --force to replace it (or --out another file)")
    console = Console()
    lines = _StdinLines(console)

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

    interrupted = threading.Event()

    def on_sigint(signum: int, frame: Any) -> None:
        # remembered: Ctrl-C while the MCP client is mid-request surfaces as that client's
        # task-group error (a broken stream), not as KeyboardInterrupt
        interrupted.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_sigint)
    with reported(), tempfile.TemporaryDirectory(prefix="mcpgym-record-") as tmp:
        try:
            run = anyio.run(main, store or Path(tmp), backend="asyncio")
        except ServerRequestError as exc:
            raise fail(str(exc.payload.get("error", exc))) from None
        except BaseException:
            if interrupted.is_set():
                raise fail("interrupted: nothing saved", 130) from None
            raise
        finally:
            signal.signal(signal.SIGINT, previous)
        if interrupted.is_set():  # the KeyboardInterrupt landed where Python swallows it
            raise fail("interrupted: nothing saved", 130)  # (a __del__): still nothing saved
        score = run.grade.get("score")
        into_shipped = path.resolve().is_relative_to(shipped)
        if score != 1.0 and into_shipped and not allow_failing:
            aside = Path("runs") / "failed-runs" / run.task / f"{run.band}-{run.seed}.json"
            aside.parent.mkdir(parents=True, exist_ok=True)
            aside.write_text(run.to_json(), encoding="utf-8")
            raise fail(
                f"the run scores {score}, not 1.0: not saved into {path} (`mcpgym validate` "
                f"would refuse it); saved to {aside} for inspection (--allow-failing saves it "
                "anyway)"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(run.to_json(), encoding="utf-8")
    say(console, f"saved {path}")
    if score != 1.0:
        say(console, "warning: the run does not score 1.0; `mcpgym validate` will refuse it")


def _installed(path: Path) -> bool:
    """Whether ``path`` lies in an installed (non-editable) distribution: under a
    ``site-packages`` or ``dist-packages`` folder."""
    return any(part in ("site-packages", "dist-packages") for part in path.resolve().parts)


class _StdinLines:
    """Prompt lines from stdin, read by one daemon thread into a queue, so Ctrl-C never waits
    for a line (a worker thread blocked in ``readline`` would hold the process until input
    came) and a caller may stop waiting (cancel) without losing the line being typed."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._queue: asyncio.Queue[str] | None = None

    def _start(self) -> asyncio.Queue[str]:
        import asyncio
        import threading

        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str] = asyncio.Queue()

        def read() -> None:
            while True:
                line = sys.stdin.readline()
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (Ctrl-C)
                    loop.call_soon_threadsafe(queue.put_nowait, line)
                if not line:
                    return

        threading.Thread(target=read, name="mcpgym-record-stdin", daemon=True).start()
        self._queue = queue
        return queue

    async def __call__(self) -> str | None:
        queue = self._queue if self._queue is not None else self._start()
        if sys.stdin.isatty():
            self.console.print("record> ", end="", markup=False, highlight=False)
        line = await queue.get()
        return line if line else None


def seed_count(text: str | int) -> int:
    """``validate --seeds``: a count of seeds, at least 1 (the seeds are 0..N-1).

    Raises:
        typer.BadParameter: ``text`` is not a whole number of at least 1; a range or a
            list (``0-2``, ``0,1``: `mcpgym eval`'s form) is named as such.
    """
    value = str(text).strip()
    if value.isdigit() and int(value) >= 1:
        return int(value)
    if any(sep in value.lstrip("-") for sep in "-,"):
        why = f"{text!r} is a range or a list, as `mcpgym eval --seeds` takes"
    else:
        why = f"{text!r} is not a count of at least 1"
    raise typer.BadParameter(f"{why}; validate --seeds is a count N (seeds 0..N-1), e.g. --seeds 3")


def validate(
    env: Annotated[str, typer.Argument(help="Environment name.")],
    seeds: Annotated[
        int,
        typer.Option(
            help="Seeds per family and band: a count N (seeds 0..N-1), not a range.",
            parser=seed_count,
            metavar="N",
        ),
    ] = 20,
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
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Stamp even over a stronger validation of the same lock (more seeds)."
        ),
    ] = False,
    servers: Annotated[
        str,
        typer.Option(
            help="auto (child processes for an installed environment on 2+ cores), "
            "processes, or in-process. Same report either way."
        ),
    ] = "auto",
) -> None:
    """The ship gate: run ENV through real servers over MCP before it ships.

    It checks that the lock matches the code, the recorded reference runs replay, the
    reference scores 1.0, the null and random controls fail, every check fails on some
    control, no adversarial mutant of the reference finds a shortcut to a pass, replays are
    deterministic and every rubric is signed. With --check it only checks; without, on
    success it stamps the validation into ENV's lock file, but never over a stronger stamp
    of the same lock (more seeds or mutant seeds) unless --force.
    """
    from importlib.metadata import version

    from mcpgym_clients.instrument.report import render_report
    from mcpgym_clients.instrument.validate import validate_environment, weaker_than_stamp
    from mcpgym_server.lock import ValidationStamp, read_lock, write_lock

    if servers not in ("auto", "processes", "in-process"):
        raise fail(f"--servers {servers}: give auto, processes or in-process", 2)
    environment = _environment(env)
    console = Console()
    err = Console(stderr=True)
    out = json_path or Path("runs") / f"validate-{env}.json"
    _check_writable(out)
    server_log = out.with_name(f"{out.stem}.servers.log")

    def progress(done: int, total: int | None) -> None:
        if total is None:  # mutants: as many as it takes to make every check fail once
            if done % 200 == 0:
                err.print(f"validate {env}: {done} episodes (mutant controls)", highlight=False)
        elif done == total or done % 200 == 0:
            err.print(f"validate {env}: {done}/{total} episodes", highlight=False)

    with (
        reported(),
        tempfile.TemporaryDirectory(prefix="mcpgym-validate-") as tmp,
        server_logs(server_log),
    ):
        report = anyio.run(
            lambda: validate_environment(
                environment,
                store_dir=Path(tmp) / "episodes",
                seeds=seeds,
                mutant_seeds=mutant_seeds,
                concurrency=concurrency,
                progress=progress,
                server_log=server_log,
                servers=cast("ServerMode", servers),
            ),
            backend="asyncio",
        )
        report.server_log = str(server_log)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")
    console.print(render_report(report))
    say(console, f"report: {out}")
    if report.infrastructure:
        raise fail(
            f"{env}: validation incomplete: {len(report.infrastructure)} episode(s) hit "
            f"infrastructure errors after retries (first: {report.infrastructure[0]}); "
            f"see the server log {server_log}"
        )
    if not report.passed:
        raise fail(
            f"{env} fails validation: condition(s) "
            + ", ".join(str(c.id) for c in report.conditions if not c.passed)
        )
    if check:
        say(console, "passed (--check: the lock file was not stamped)")
        return
    if _installed(lock_path(environment)):
        say(
            console,
            f"passed; not stamped: {lock_path(environment)} belongs to an installed wheel "
            "(stamping it would break the wheel's RECORD); validate the source tree, or an "
            "editable install, to stamp its lock",
        )
        return
    with reported():
        locked = read_lock(environment)
        old = locked.validation if locked.validated else None
        weaker = (
            None
            if old is None or force
            else weaker_than_stamp(old, seeds=seeds, mutant_seeds=mutant_seeds)
        )
        if weaker is not None:
            say(
                console,
                f"passed; not stamped: {weaker}; a weaker validation never replaces a stronger "
                f"stamp (rerun with at least as many seeds, or pass --force to replace it)",
            )
            return
        stamp = ValidationStamp(
            at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            digest=locked.digest,
            mcpgym_version=version("mcpgym-clients"),
            seeds=seeds,
            summary=report.summary(),
        )
        path = write_lock(environment, locked.model_copy(update={"validation": stamp}))
    say(console, f"passed; stamped {path}")


def _check_writable(path: Path) -> None:
    """Fail fast (usage error, exit 2) when the ``--json`` report cannot be written."""
    problem = None
    if path.is_dir():
        problem = "is a directory"
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            problem = f"cannot be written ({exc.strerror or exc})"
    if problem is not None:
        raise fail(f"--json {path} {problem}; give a writable file", 2)


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
