"""The lock face: computing an environment's lock and reading, writing, signing its file.

``mcpgym.lock`` pins an environment's served tools, generators and snapshot (see
docs/instrument.md). The modules behind these names (``mcpgym_server._lock``,
``_lockfile``) are private.
"""

from mcpgym_server._lock import (
    compute_lock,
    lock_components,
    lock_digest,
    served_tools,
    tool_parts,
)
from mcpgym_server._lockfile import (
    SIGNER,
    LockFile,
    ValidationStamp,
    current_lock,
    lock_changes,
    lock_path,
    read_lock,
    relock,
    salvage_lock,
    sign,
    verify_lock,
    write_lock,
)

__all__ = [
    "SIGNER",
    "LockFile",
    "ValidationStamp",
    "compute_lock",
    "current_lock",
    "lock_changes",
    "lock_components",
    "lock_digest",
    "lock_path",
    "read_lock",
    "relock",
    "salvage_lock",
    "served_tools",
    "sign",
    "tool_parts",
    "verify_lock",
    "write_lock",
]
