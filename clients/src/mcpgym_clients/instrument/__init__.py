"""The instrument: recorded reference runs (`record_episode`, `RecordedRun`) and the ship
gate (`validate_environment`), behind ``mcpgym record`` and ``mcpgym validate``."""

from mcpgym_clients.instrument.record import record_episode
from mcpgym_clients.instrument.runs import (
    RecordedCall,
    RecordedRun,
    load_runs,
    read_run,
    run_path,
    runs_dir,
)

__all__ = [
    "RecordedCall",
    "RecordedRun",
    "load_runs",
    "read_run",
    "record_episode",
    "run_path",
    "runs_dir",
]
