"""mcpgym-server: the environment SDK and the runtime that serves it over MCP.

Environment authors use `Environment`, `Sandbox`, `ToolError`, `TaskFamily`,
`VariantSpec`, `ToolCall`, `Snapshot`, `Resource`. Trainers and tests use the
in-process runtime: `EpisodeManager`, `EpisodeStore`, `replay`. The lock file
(``mcpgym.lock``) is read and checked with `read_lock` and `verify_lock`. Generators
use the author kit (`mcpgym_server.authoring`): `Scenario`, `fetch_rows`, `fetch_one`,
`max_id`, `pick`, `pick_where`, `reference_call`, `format_cents`.
"""

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
from mcpgym_server.bundle import (
    CappedValue,
    EpisodeBundle,
    EpisodeMeta,
    EpisodeStore,
    LogEntry,
    MemoryEpisodeStore,
    StepStatus,
    TerminationReason,
)
from mcpgym_server.environment import SUBMIT_TOOL, Environment, Resource
from mcpgym_server.episode import Episode, EpisodeManager, new_episode_id, replay
from mcpgym_server.errors import (
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
from mcpgym_server.lock import compute_lock, lock_components
from mcpgym_server.lockfile import LockFile, read_lock, verify_lock
from mcpgym_server.registry import available_environments, load_environment
from mcpgym_server.sandbox import Sandbox, VirtualClock
from mcpgym_server.snapshot import Snapshot
from mcpgym_server.tasks import (
    BANDS,
    Band,
    Generation,
    TaskFamily,
    TaskVariant,
    ToolCall,
    VariantSpec,
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
    "verify_lock",
]
