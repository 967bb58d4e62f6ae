"""mcpgym-server: the environment SDK and the runtime that serves it over MCP.

This package is the SDK face. Environment authors use `Environment`, `Sandbox`,
`ToolError`, `TaskFamily`, `VariantSpec`, `ToolCall`, `Snapshot`, `Resource`. Trainers and
tests use the in-process runtime: `EpisodeManager`, `EpisodeStore`, `replay`. The lock file
(``mcpgym.lock``) is read and checked with `read_lock` and `verify_lock`.

The other public faces, each with its own ``__all__``: `mcpgym_server.authoring` (the
author kit for generators: `Scenario`, `fetch_rows`, `fetch_one`, `max_id`, `pick`,
`pick_where`, `reference_call`, `format_cents`), `mcpgym_server.runtime` (serving over
HTTP and stdio, episodes, limits), `mcpgym_server.lock` (computing, reading, writing and
signing locks) and `mcpgym_server.bundles` (sealed bundles, as graders read them). Every
other module is private (``_x``); ``tests/test_import_structure.py`` fails on an import
of one from outside this package.
"""

from mcpgym_server._bundle import (
    CappedValue,
    EpisodeBundle,
    EpisodeMeta,
    EpisodeStore,
    LogEntry,
    MemoryEpisodeStore,
    StepStatus,
    TerminationReason,
)
from mcpgym_server._environment import SUBMIT_TOOL, Environment, Resource
from mcpgym_server._episode import Episode, EpisodeManager, new_episode_id, replay
from mcpgym_server._errors import (
    BundleError,
    BundleSignatureError,
    CapacityError,
    EnvironmentDefinitionError,
    EpisodeSealedError,
    InvalidArgumentsError,
    LockError,
    LockMissingError,
    MCPGymError,
    NotFoundError,
    ServerStartError,
    SnapshotError,
    StaleLockError,
    ToolError,
    UnknownBandError,
    UnknownEnvironmentError,
    UnknownEpisodeError,
    UnknownTaskError,
    did_you_mean,
)
from mcpgym_server._lock import compute_lock, lock_components
from mcpgym_server._lockfile import LockFile, read_lock, verify_lock
from mcpgym_server._registry import available_environments, load_environment
from mcpgym_server._sandbox import Sandbox, VirtualClock
from mcpgym_server._snapshot import Snapshot
from mcpgym_server._stop_signals import stop_signals
from mcpgym_server._tasks import (
    BANDS,
    Band,
    Generation,
    TaskFamily,
    TaskVariant,
    ToolCall,
    VariantSpec,
    generation_seed,
)
from mcpgym_server.authoring import (
    Scenario,
    fetch_one,
    fetch_rows,
    format_cents,
    max_id,
    pick,
    pick_where,
    reference_call,
)

__all__ = [
    "BANDS",
    "Band",
    "BundleError",
    "BundleSignatureError",
    "CapacityError",
    "CappedValue",
    "Environment",
    "EnvironmentDefinitionError",
    "Episode",
    "EpisodeBundle",
    "EpisodeManager",
    "EpisodeMeta",
    "EpisodeSealedError",
    "EpisodeStore",
    "Generation",
    "InvalidArgumentsError",
    "LockError",
    "LockFile",
    "LockMissingError",
    "LogEntry",
    "MCPGymError",
    "MemoryEpisodeStore",
    "NotFoundError",
    "Resource",
    "SUBMIT_TOOL",
    "Sandbox",
    "Scenario",
    "ServerStartError",
    "Snapshot",
    "SnapshotError",
    "StaleLockError",
    "StepStatus",
    "TaskFamily",
    "TaskVariant",
    "TerminationReason",
    "ToolCall",
    "ToolError",
    "UnknownBandError",
    "UnknownEnvironmentError",
    "UnknownEpisodeError",
    "UnknownTaskError",
    "did_you_mean",
    "generation_seed",
    "VariantSpec",
    "VirtualClock",
    "available_environments",
    "compute_lock",
    "fetch_one",
    "fetch_rows",
    "format_cents",
    "load_environment",
    "lock_components",
    "max_id",
    "new_episode_id",
    "pick",
    "pick_where",
    "read_lock",
    "reference_call",
    "replay",
    "stop_signals",
    "verify_lock",
]
