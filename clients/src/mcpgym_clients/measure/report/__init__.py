"""The self-contained HTML report of a run (``mcpgym report RUN [--vs RUN_B]``).

`render_report` turns the metrics of a run (`mcpgym_clients.measure.metrics.run_metrics`),
optionally its comparison with a second run (`mcpgym_clients.measure.compare.compare_runs`),
and the episode rows of the run store into one HTML file: summary with the null baseline
beside, per-band and per-family bar charts with confidence-interval whiskers, the comparison
(deltas with intervals, pass flips, McNemar p, newly solved and regressed variants), a
check-failure heat map, and every episode's grade and transcript, linked from the tables.
`write_report` reads all of that from a `RunStore` and writes the file.
"""

from mcpgym_clients.measure.report._render import render_report
from mcpgym_clients.measure.report._write import default_report_path, write_report

__all__ = ["default_report_path", "render_report", "write_report"]
