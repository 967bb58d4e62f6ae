"""mcpgym-server: the environment SDK and the runtime that serves it over MCP.

Environment authors use `Environment`, `Sandbox`, `ToolError`, `TaskFamily`,
`VariantSpec`, `ToolCall`, `Snapshot`, `Resource`. Trainers and tests use the
in-process runtime: `EpisodeManager`, `EpisodeStore`, `replay`. The lock file
(``mcpgym.lock``) is read and checked with `read_lock` and `verify_lock`.
"""

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
    "SUBMIT_TOOL",
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
    "Sandbox",
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
    "load_environment",
    "lock_components",
    "new_episode_id",
    "read_lock",
    "replay",
    "verify_lock",
]
