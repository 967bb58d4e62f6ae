"""The lock file ``mcpgym.lock``: what an environment is pinned to, who signed its rubrics,
and when it last passed validation.

The file is TOML (read with `tomllib`, written with `tomli_w`) inside the environment's
Python package (`Environment.package`), so it ships in the wheel. Layout::

    env = "helpdesk"
    version = "1.0.0"
    digest = "<lock digest: sha256 over every field below except signoffs and validation>"
    snapshot_sha256 = "..."
    tools_sha256 = "..."          # canonical JSON of the MCP tool list as served
    surface_sha256 = "..."        # instructions, resources, virtual clock

    [tools]                       # one sha256 per served tool definition (names the changed one)
    [tool_parts.NAME]             # sha256 per field of it (description, inputSchema...): says
                                  # which part changed; not part of the digest
    [surface]                     # instructions, clock, [surface.resources] per URI
    [families.NAME]               # bands, generator_version, generator_fingerprint, rubric_digest
    [signoffs.NAME]               # by = "Name <email>", at = ISO 8601 UTC, rubric_digest
    [validation]                  # at, digest, mcpgym_version, seeds, summary figures

Sign-offs and the validation stamp are not part of the digest: signing a rubric or
validating the environment does not change the instrument. A sign-off is valid while
its ``rubric_digest`` is the family's current `Rubric.digest` (which covers every
check, weight, required flag and the threshold); the stamp is valid while its
``digest`` is the lock's.
"""

from __future__ import annotations

import re
import tomllib
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from mcpgym_server._environment import Environment
from mcpgym_server._errors import LockError, LockMissingError, StaleLockError, UnknownTaskError
from mcpgym_server._lock import lock_components, lock_digest, tool_parts

LOCK_FILE = "mcpgym.lock"
"""File name of the lock file inside the environment's package."""

_HEADER = (
    "# mcpgym lock file: written by `mcpgym lock`, `mcpgym sign` and `mcpgym validate`.\n"
    "# Do not edit by hand: `mcpgym serve` refuses the environment when its code no longer\n"
    "# matches this file.\n\n"
)

SIGNER = re.compile(r"^[^<>@\s][^<>@]*[^<>@\s] <[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>$")
"""A sign-off's ``by``: ``Name <email>`` (RFC 5322 name-addr shape, as in git author lines)."""

SignOffStatus = Literal["valid", "void", "missing"]
"""``valid``: signed for the rubric as it stands; ``void``: signed for another rubric digest."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class FamilyLock(BaseModel):
    """What the lock pins of one task family."""

    model_config = ConfigDict(extra="forbid")
    bands: list[str]
    generator_version: str
    generator_fingerprint: str
    rubric_digest: str


class Surface(BaseModel):
    """Digests of what the agent reads besides tools: instructions, clock, resources by URI."""

    model_config = ConfigDict(extra="forbid")
    instructions: str
    clock: str
    resources: dict[str, str] = {}


class SignOff(BaseModel):
    """An expert's approval of one family's rubric.

    Attributes:
        by: ``Name <email>``. at: ISO 8601 UTC time of signing.
        rubric_digest: `Rubric.digest` of the rubric that was approved.
    """

    model_config = ConfigDict(extra="forbid")
    by: str
    at: str
    rubric_digest: str

    @field_validator("by")
    @classmethod
    def _by(cls, value: str) -> str:
        if not SIGNER.match(value):
            raise ValueError(f'{value!r} is not "Name <email>"')
        return value

    @field_validator("at")
    @classmethod
    def _at(cls, value: str) -> str:
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{value!r} is not an ISO 8601 time") from None
        if when.utcoffset() is None or when.utcoffset() != timedelta(0):
            raise ValueError(f"{value!r} is not in UTC (end it with Z)")
        return value


class ValidationStamp(BaseModel):
    """The last successful ``mcpgym validate`` of this lock.

    Attributes:
        at: ISO 8601 UTC time. digest: the lock digest that was validated.
        mcpgym_version: version of mcpgym-clients that ran it. seeds: seeds per family
            and band. summary: headline figures (counts, pass rates, wall time in seconds).
    """

    model_config = ConfigDict(extra="forbid")
    at: str
    digest: str
    mcpgym_version: str
    seeds: int
    summary: dict[str, Any] = {}


class LockFile(BaseModel):
    """The content of ``mcpgym.lock`` (see the module docstring for the layout)."""

    model_config = ConfigDict(extra="forbid")
    env: str
    version: str
    digest: str
    snapshot_sha256: str
    tools_sha256: str
    surface_sha256: str
    tools: dict[str, str]
    surface: Surface
    families: dict[str, FamilyLock]
    tool_parts: dict[str, dict[str, str]] = {}
    signoffs: dict[str, SignOff] = {}
    validation: ValidationStamp | None = None

    def components(self) -> dict[str, Any]:
        """The digest-covered part, in the shape `mcpgym_server._lock.lock_components` returns."""
        return self.model_dump(
            mode="json", exclude={"digest", "tool_parts", "signoffs", "validation"}
        )

    def to_toml(self) -> str:
        """The file text: a comment header, then TOML (sign-offs and stamp last)."""
        return _HEADER + tomli_w.dumps(self.model_dump(mode="json", exclude_none=True))

    @classmethod
    def from_toml(cls, text: str, where: str = LOCK_FILE) -> LockFile:
        """Parse a lock file.

        Raises:
            LockError: not TOML, or not a lock file (naming the field), or its digest
                does not match its own fields (edited by hand).
        """
        try:
            data = tomllib.loads(text)
            lock = cls.model_validate(data)
        except tomllib.TOMLDecodeError as exc:
            raise LockError(f"{where} is not valid TOML: {exc}") from None
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            field = ".".join(str(p) for p in first["loc"])
            raise LockError(
                f"{where} is not an mcpgym lock file: `{field}`: {first['msg']}; "
                "rewrite it with `mcpgym lock`"
            ) from None
        if lock_digest(lock.components()) != lock.digest:
            raise LockError(
                f"{where}: its digest does not match its content (edited by hand?); "
                "rewrite it with `mcpgym lock`"
            )
        return lock

    def signoff_status(self, family: str) -> SignOffStatus:
        """Whether ``family``'s rubric, as pinned by this lock, carries a valid sign-off."""
        signoff = self.signoffs.get(family)
        if signoff is None:
            return "missing"
        fam = self.families.get(family)
        return "valid" if fam is not None and signoff.rubric_digest == fam.rubric_digest else "void"

    @property
    def validated(self) -> bool:
        """Whether the validation stamp is for this lock's digest."""
        return self.validation is not None and self.validation.digest == self.digest


def lock_path(env: Environment) -> Path:
    """Where ``env``'s lock file is: ``<package dir>/mcpgym.lock`` (it may not exist).

    Raises:
        LockError: the package is not importable or not a directory on disk (zipped).
    """
    try:
        root = resources.files(env.package)
    except ModuleNotFoundError:
        raise LockError(f"environment `{env.name}`: package `{env.package}` not found") from None
    path = Path(str(root))
    if not path.is_dir():
        raise LockError(f"environment `{env.name}`: package `{env.package}` is not a directory")
    return path / LOCK_FILE


def current_lock(env: Environment) -> LockFile:
    """A fresh `LockFile` for ``env`` as its code stands (no sign-offs, no stamp)."""
    components = lock_components(env)
    return LockFile.model_validate(
        {**components, "digest": lock_digest(components), "tool_parts": tool_parts(env)}
    )


def read_lock(env: Environment) -> LockFile:
    """Read ``env``'s lock file.

    Raises:
        LockMissingError: there is none. LockError: it is malformed.
    """
    path = lock_path(env)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LockMissingError(env.name, str(path)) from None
    return LockFile.from_toml(text, str(path))


def write_lock(env: Environment, lock: LockFile) -> Path:
    """Write ``lock`` to ``env``'s lock file (atomically); return its path.

    Raises:
        LockError: the lock is for another environment. OSError: the file cannot be written.
    """
    if lock.env != env.name:
        raise LockError(f"a lock of `{lock.env}` cannot be written for `{env.name}`")
    path = lock_path(env)
    tmp = path.with_name(f".{LOCK_FILE}.tmp")
    tmp.write_text(lock.to_toml(), encoding="utf-8")
    tmp.replace(path)
    return path


def _named(kind: str, old: dict[str, str], new: dict[str, str], what: str) -> list[str]:
    out = [f"{kind} `{n}` added" for n in sorted(new.keys() - old.keys())]
    out += [f"{kind} `{n}` removed" for n in sorted(old.keys() - new.keys())]
    out += [f"{kind} `{n}` {what}" for n in sorted(old.keys() & new.keys()) if old[n] != new[n]]
    return out


_PART_NAMES = {"inputSchema": "input schema", "outputSchema": "output schema"}


def _tool_change(locked: LockFile, now: LockFile, name: str) -> str:
    """``input schema changed`` or ``definition changed (description, annotations)``."""
    old, new = locked.tool_parts.get(name), now.tool_parts.get(name)
    if not old or not new:
        return "definition changed"
    parts = [p for p in sorted(old.keys() | new.keys()) if old.get(p) != new.get(p)]
    if parts == ["inputSchema"]:
        return "input schema changed"
    return f"definition changed ({', '.join(_PART_NAMES.get(p, p) for p in parts)})"


def lock_changes(locked: LockFile, now: LockFile) -> list[str]:
    """What differs between a lock file and the environment as it stands, one line each.

    Lines name the change: ``version 1.0.0 -> 1.0.1``, ``snapshot changed``,
    ``tool `X` input schema changed``, ``tool `X` definition changed (description)`` (its
    definition as served; the lock file's ``tool_parts`` name the part), ``tool `X` added``,
    ``server instructions changed``, ``resource `U` changed``, ``virtual clock changed``,
    ``rubric of family `Y` changed``, ``generator of family `Z` changed (version 1 -> 2)``,
    ``generator of family `Z` produces different variants without a generator_version
    bump``, ``bands of family `Z` changed``,
    ``family `F` added``. Empty when they match.
    """
    out: list[str] = []
    if locked.env != now.env:
        out.append(f"environment name `{locked.env}` -> `{now.env}`")
    if locked.version != now.version:
        out.append(f"version {locked.version} -> {now.version}")
    if locked.snapshot_sha256 != now.snapshot_sha256:
        out.append(
            f"snapshot changed (sha256 {locked.snapshot_sha256[:12]} -> {now.snapshot_sha256[:12]})"
        )
    for name in sorted(now.tools.keys() - locked.tools.keys()):
        out.append(f"tool `{name}` added")
    for name in sorted(locked.tools.keys() - now.tools.keys()):
        out.append(f"tool `{name}` removed")
    for name in sorted(locked.tools.keys() & now.tools.keys()):
        if locked.tools[name] != now.tools[name]:
            out.append(f"tool `{name}` {_tool_change(locked, now, name)}")
    if locked.tools_sha256 != now.tools_sha256 and locked.tools == now.tools:
        out.append("tool list order changed")
    if locked.surface.instructions != now.surface.instructions:
        out.append("server instructions changed")
    if locked.surface.clock != now.surface.clock:
        out.append("virtual clock (start or step) changed")
    out += _named("resource", locked.surface.resources, now.surface.resources, "changed")
    for name in sorted(now.families.keys() - locked.families.keys()):
        out.append(f"family `{name}` added")
    for name in sorted(locked.families.keys() - now.families.keys()):
        out.append(f"family `{name}` removed")
    for name in sorted(locked.families.keys() & now.families.keys()):
        old, new = locked.families[name], now.families[name]
        if old.rubric_digest != new.rubric_digest:
            out.append(f"rubric of family `{name}` changed")
        if old.bands != new.bands:
            out.append(f"bands of family `{name}` changed ({old.bands} -> {new.bands})")
        if old.generator_version != new.generator_version:
            out.append(
                f"generator of family `{name}` changed "
                f"(version {old.generator_version} -> {new.generator_version})"
            )
        elif old.generator_fingerprint != new.generator_fingerprint and old.bands == new.bands:
            out.append(
                f"generator of family `{name}` produces different variants without a "
                "generator_version bump"
            )
    if not out and locked.digest != now.digest:
        out.append("lock digest differs")
    return out


def verify_lock(env: Environment) -> LockFile:
    """Check that ``env`` matches its shipped lock file; return the lock file.

    Raises:
        LockMissingError: no lock file. LockError: malformed lock file.
        StaleLockError: the code no longer matches; ``.changes`` names each difference.
    """
    locked = read_lock(env)
    now = current_lock(env)
    changes = lock_changes(locked, now)
    if changes:
        raise StaleLockError(env.name, changes)
    return locked


def relock(env: Environment, previous: LockFile | None) -> tuple[LockFile, list[str]]:
    """Recompute ``env``'s lock, keeping what of ``previous`` is still valid.

    Sign-offs are kept when their rubric digest is still the family's; the validation
    stamp is kept only when the digest is unchanged.

    Returns:
        The new `LockFile` and notes (dropped sign-offs, dropped stamp, the changes).
    """
    now = current_lock(env)
    notes: list[str] = []
    if previous is None:
        return now, ["new lock file"]
    notes += lock_changes(previous, now)
    signoffs: dict[str, SignOff] = {}
    for name, signoff in sorted(previous.signoffs.items()):
        fam = now.families.get(name)
        if fam is not None and fam.rubric_digest == signoff.rubric_digest:
            signoffs[name] = signoff
        else:
            notes.append(
                f"sign-off of family `{name}` by {signoff.by} is void (the rubric changed): "
                f"dropped; sign it again with `mcpgym sign {env.name} {name} --by ...`"
            )
    validation = previous.validation if previous.digest == now.digest else None
    if previous.validation is not None and validation is None:
        notes.append("validation stamp dropped (the lock changed); run `mcpgym validate`")
    return now.model_copy(update={"signoffs": signoffs, "validation": validation}), notes


_SIGNOFF_HEADER = re.compile(r'^\s*\[\s*signoffs\.(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*\]\s*(#.*)?$')
_CONFLICT_MARKER = re.compile(r"^(<{7}|={7}|>{7}|\|{7})( .*)?$")


def _signoff_tables(text: str, notes: list[str]) -> list[tuple[str, Any]]:
    """The ``[signoffs.NAME]`` tables of a lock file that is not TOML as a whole (say, a
    merge left conflict markers or a table twice), each parsed on its own; ``(name,
    fields)`` in file order. Tables that do not parse alone are named in ``notes``."""
    tables: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if _CONFLICT_MARKER.match(line):
            continue
        if line.lstrip().startswith("["):
            header = _SIGNOFF_HEADER.match(line)
            current = None
            if header:
                current = []
                tables.append((header.group(1) or header.group(2), current))
            continue
        if current is not None:
            current.append(line)
    entries: list[tuple[str, Any]] = []
    for name, body in tables:
        try:
            entries.append((name, tomllib.loads("\n".join(body))))
        except tomllib.TOMLDecodeError:
            notes.append(f"sign-off of family `{name}` dropped: its table does not parse")
    if entries:
        notes.append("the file is not TOML: its sign-off tables were read one by one")
    return entries


def salvage_lock(env: Environment, problem: str) -> tuple[LockFile, list[str]]:
    """A fresh lock for ``env`` from a lock file `read_lock` refused (``problem`` says why):
    the sign-offs that still parse, are well formed and are for the rubric as it stands are
    kept (in a file that is not TOML, e.g. with merge conflict markers, each
    ``[signoffs.NAME]`` table is read on its own; of two valid ones the later stands);
    everything else (the validation stamp, bad sign-offs) is dropped.

    Returns:
        The new `LockFile` and notes naming what was dropped (for ``mcpgym lock``).
    """
    now = current_lock(env)
    notes = [f"the lock file was unreadable ({problem}): rewritten"]
    try:
        text = lock_path(env).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    try:
        data: Any = tomllib.loads(text)
        raw = data.get("signoffs") if isinstance(data, dict) else None
        entries = list(raw.items()) if isinstance(raw, dict) else []
    except tomllib.TOMLDecodeError:
        data = None
        entries = _signoff_tables(text, notes)
        if not entries:
            notes.append(
                "no sign-off could be read (not TOML): sign every family again with "
                f"`mcpgym sign {env.name} FAMILY --by ...`"
            )
            return now, notes
    kept: dict[str, SignOff] = {}
    for name, value in entries:
        try:
            signoff = SignOff.model_validate(value)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            field = ".".join(str(p) for p in first["loc"]) or "(entry)"
            notes.append(f"sign-off of family `{name}` dropped: `{field}`: {first['msg']}")
            continue
        fam = now.families.get(name)
        if fam is None or fam.rubric_digest != signoff.rubric_digest:
            notes.append(
                f"sign-off of family `{name}` by {signoff.by} dropped: it is not for the rubric "
                "as it stands"
            )
            continue
        if name in kept and kept[name].at >= signoff.at:
            continue  # two valid sign-offs (both sides of a merge): the later one stands
        kept[name] = signoff
    kept = dict(sorted(kept.items()))
    if kept:
        notes.append(f"kept the sign-offs of {', '.join(f'`{n}`' for n in kept)}")
    if (isinstance(data, dict) and data.get("validation") is not None) or (
        data is None and "[validation]" in text
    ):
        notes.append("validation stamp dropped; run `mcpgym validate`")
    return now.model_copy(update={"signoffs": kept}), notes


def sign(lock: LockFile, family: str, by: str, *, at: str | None = None) -> LockFile:
    """A copy of ``lock`` with ``family``'s rubric signed off by ``by`` (now, by default).

    Raises:
        ValueError: ``by`` is not ``Name <email>``. UnknownTaskError: no such family.
    """
    by = by.strip()
    if not SIGNER.match(by):
        raise ValueError(
            f'--by {by!r} must be a name and an email address: "Jane Doe <jane@example.org>"'
        )
    fam = lock.families.get(family)
    if fam is None:
        raise UnknownTaskError(family, list(lock.families))
    signoff = SignOff(by=by, at=at or _now(), rubric_digest=fam.rubric_digest)
    return lock.model_copy(update={"signoffs": {**lock.signoffs, family: signoff}})
