"""Errors raised by the mcpgym environment SDK and runtime.

The tree (every class derives from `MCPGymError`)::

    MCPGymError
    ├── ToolError                 expected failure the agent should read (becomes `isError`)
    ├── EnvironmentDefinitionError an environment is declared wrongly (author's bug)
    ├── SnapshotError             snapshot file missing or its sha256 differs from the declared one
    ├── NotFoundError             a named thing does not exist; `.choices` lists valid names
    │   ├── UnknownEnvironmentError
    │   ├── UnknownTaskError
    │   ├── UnknownBandError
    │   └── UnknownEpisodeError
    ├── InvalidArgumentsError     tool arguments fail the tool's schema; `.errors` per field
    ├── EpisodeSealedError        a call reached an episode that has already been sealed
    ├── CapacityError             too many episodes are open at once
    ├── ServerStartError          a server could not start on its address
    ├── BundleError               an episode bundle is missing or malformed
    └── LockError                 the lock file is unreadable or does not pin the environment
        ├── LockMissingError      the environment ships no lock file
        └── StaleLockError        the code no longer matches the lock; `.changes` names what
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any, Literal


class MCPGymError(Exception):
    """Base class of every error raised by mcpgym."""


class ToolError(MCPGymError):
    """An expected failure inside a tool, shown to the agent with its message.

    Raise it from tool code for anything the agent should read and react to
    (entity not found, a rule the application enforces, a bad value). Any other
    exception raised by tool code is treated as an environment bug: it is logged
    with its traceback, recorded as an internal error on that step of the
    tool-call log, and the agent only sees a generic message.
    """


class EnvironmentDefinitionError(MCPGymError):
    """An environment, tool, task family or rubric is declared incorrectly."""


class SnapshotError(MCPGymError):
    """The snapshot file is missing, unreadable, or its sha256 is not the declared one."""


def did_you_mean(name: str, choices: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the choices closest to a mistyped ``name``, or ``""``.

    Closeness is `difflib.get_close_matches` (ratio >= 0.6, at most two), so a typo
    (``order-stat``, ``hrad``) finds its name and an unrelated word finds none.
    """
    close = difflib.get_close_matches(name, list(choices), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


class NotFoundError(MCPGymError):
    """A named thing (environment, task, band, episode) does not exist.

    Attributes:
        kind: what was looked up, e.g. ``"task"``.
        name: the name that was asked for.
        choices: the valid names, sorted (empty for episodes: ids are secret), or in
            the order given with ``ordered`` (bands: easy, medium, hard, expert).
    """

    def __init__(
        self, kind: str, name: str, choices: Sequence[str] = (), *, ordered: bool = False
    ) -> None:
        self.kind = kind
        self.name = name.encode("utf-8", "backslashreplace").decode("utf-8")[:200]
        self.choices = list(choices) if ordered else sorted(choices)
        msg = f"unknown {kind} {self.name!r}{did_you_mean(self.name, self.choices)}"
        if self.choices:
            msg += f"; valid {kind}s: {', '.join(self.choices)}"
        super().__init__(msg)


class UnknownEnvironmentError(NotFoundError):
    """No installed environment has this name."""

    def __init__(self, name: str, choices: Sequence[str] = ()) -> None:
        super().__init__("environment", name, choices)


class UnknownTaskError(NotFoundError):
    """The environment has no task family with this name."""

    def __init__(self, name: str, choices: Sequence[str] = ()) -> None:
        super().__init__("task", name, choices)


class UnknownBandError(NotFoundError):
    """The task family does not offer this difficulty band.

    The valid bands are listed in the order given (the family's declared order, easiest
    first), not alphabetically.
    """

    def __init__(self, name: str, choices: Sequence[str] = ()) -> None:
        super().__init__("band", name, choices, ordered=True)


class UnknownEpisodeError(NotFoundError):
    """No open or sealed episode has this id."""

    def __init__(self, name: str) -> None:
        super().__init__("episode", name)


MAX_LISTED_ERRORS = 10
"""Most argument problems an `InvalidArgumentsError` message lists (the rest are counted)."""


class InvalidArgumentsError(MCPGymError):
    """Tool arguments do not match the tool's input schema.

    The message lists at most `MAX_LISTED_ERRORS` problems and counts the rest, so that a
    call with thousands of unknown keys gets a short answer (and a short log entry).

    Attributes:
        tool: the tool name.
        errors: one ``{"field": "a.b", "message": "..."}`` dict per problem.
        more: problems found beyond ``errors`` (not listed).
    """

    def __init__(self, tool: str, errors: list[dict[str, Any]], more: int = 0) -> None:
        self.tool = tool
        self.errors = errors[:MAX_LISTED_ERRORS]
        self.more = more + len(errors) - len(self.errors)
        detail = "; ".join(f"`{e['field']}`: {e['message']}" for e in self.errors)
        if self.more:
            detail += f"; and {self.more:,} more problem{'s' if self.more > 1 else ''}"
        super().__init__(f"invalid arguments for tool `{tool}`: {detail}")


class EpisodeSealedError(MCPGymError):
    """The episode has been sealed; no further tool calls are accepted."""

    def __init__(self, episode_id: str, reason: str) -> None:
        self.episode_id = episode_id
        self.reason = reason
        super().__init__(
            f"episode {episode_id} has ended (termination reason: {reason}); "
            "no further tool calls are accepted. Start a new episode."
        )


class CapacityError(MCPGymError):
    """The server already holds its maximum number of open episodes.

    Attributes:
        limit: the maximum number of open episodes.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"{limit} episodes are already open, the server's limit; end some "
            "(POST /episodes/{id}/end) or wait for idle ones to time out"
        )


class ServerStartError(MCPGymError):
    """A server could not start (address in use, lifespan start-up failed)."""


class BundleError(MCPGymError):
    """An episode bundle is missing, incomplete or malformed."""


class BundleSignatureError(BundleError):
    """A bundle carries no signature, its signature does not verify with the bundle key
    (its metadata, log or final database was changed after the server sealed it), or it
    was sealed for another episode than the one whose folder holds it.

    Attributes:
        reason: ``"unsigned"`` (no signature file), ``"invalid"`` (it does not verify) or
            ``"mismatch"`` (meta.json names another episode: a copied or moved bundle).
    """

    def __init__(self, message: str, reason: Literal["unsigned", "invalid", "mismatch"]) -> None:
        self.reason = reason
        super().__init__(message)


class LockError(MCPGymError):
    """The environment's lock file (``mcpgym.lock``) is unreadable or does not match it."""


class LockMissingError(LockError):
    """The environment ships no lock file.

    Attributes:
        env: the environment name. path: where the lock file was looked for.
    """

    def __init__(self, env: str, path: str) -> None:
        self.env = env
        self.path = path
        super().__init__(
            f"environment `{env}` has no lock file ({path}); create it with "
            f"`mcpgym lock {env}`, or serve it anyway with --unlocked (development)"
        )


class StaleLockError(LockError):
    """The environment's code no longer matches its lock file.

    Attributes:
        env: the environment name. changes: one line per difference, e.g.
            ``"tool `get_order` input schema changed"``.
    """

    def __init__(self, env: str, changes: Sequence[str]) -> None:
        self.env = env
        self.changes = list(changes)
        super().__init__(
            f"environment `{env}` no longer matches its lock file: {'; '.join(self.changes)}. "
            f"If the change is intended, run `mcpgym lock {env}` (then re-sign changed "
            "rubrics and re-validate); serve it anyway with --unlocked (development)"
        )
