"""The bundle face: sealed episode bundles and their store, as graders read them.

A bundle is what an episode leaves when it is sealed: its metadata, tool-call log, final
database (or page delta against the snapshot) and signature. The modules behind these
names (``mcpgym_server._bundle``, ``_delta``) are private.
"""

from mcpgym_server._bundle import (
    FINAL_DB,
    SIGNATURE,
    STATE_DELTA,
    CappedValue,
    EpisodeBundle,
    EpisodeMeta,
    EpisodeStore,
    LogEntry,
    MemoryEpisodeStore,
    StepStatus,
    TerminationReason,
    bundle_signature,
    canonical_json,
    check_bundle_episode,
    to_jsonable,
)
from mcpgym_server._bundle_files import BundleFiles
from mcpgym_server._bundle_state import delta_meta, forget_final_sha256
from mcpgym_server._debris import pid_alive, remove_unlocked, sweep_debris, write_file_atomic
from mcpgym_server._delta import PageDelta, PageDigests, page_size_of
from mcpgym_server._snapshot import counted_commits

__all__ = [
    "BundleFiles",
    "FINAL_DB",
    "SIGNATURE",
    "STATE_DELTA",
    "CappedValue",
    "EpisodeBundle",
    "EpisodeMeta",
    "EpisodeStore",
    "LogEntry",
    "MemoryEpisodeStore",
    "PageDelta",
    "PageDigests",
    "StepStatus",
    "TerminationReason",
    "bundle_signature",
    "canonical_json",
    "check_bundle_episode",
    "counted_commits",
    "delta_meta",
    "forget_final_sha256",
    "page_size_of",
    "pid_alive",
    "remove_unlocked",
    "sweep_debris",
    "to_jsonable",
    "write_file_atomic",
]
