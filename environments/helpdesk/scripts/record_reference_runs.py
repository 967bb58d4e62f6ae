"""Record helpdesk's shipped reference runs by piping each variant's reference solution into
``mcpgym record`` (one run per family and band, seed 100; validate's generator checks use
seeds 0..N-1).

    uv run python environments/helpdesk/scripts/record_reference_runs.py [BAND ...]

With bands named (``expert``), only the runs of those bands are recorded.

These runs are therefore the generator's reference solutions worked through the real
record path (server, MCP client, grading service), not independent expert sessions: they
pin the end state each reference reaches, so a later change that moves it fails
``mcpgym validate``.
"""

from __future__ import annotations

import json
import subprocess
import sys

from mcpgym_server import SUBMIT_TOOL, load_environment

SEED = 100
BY = "mcpgym maintainers <maintainers@mcpgym.dev>"


def main() -> None:
    """Record one run per family and band of helpdesk (only the bands named on the command
    line, when some are)."""
    only = set(sys.argv[1:])
    env = load_environment("helpdesk")
    for fam in env.families.values():
        for band in fam.bands:
            if only and band not in only:
                continue
            v = env.variant(fam.name, band, SEED)
            lines = [f"{c.name} {json.dumps(dict(c.arguments))}" for c in v.reference]
            if not any(c.name == SUBMIT_TOOL for c in v.reference):
                lines.append(f"submit {v.answer}" if v.answer else "submit")
            command = ["mcpgym", "record", "helpdesk", "--task", fam.name, "--band", band]
            command += ["--seed", str(SEED), "--by", BY, "--force"]
            done = subprocess.run(
                command, input="\n".join(lines) + "\n", text=True, capture_output=True
            )
            last = done.stdout.strip().splitlines()[-2:] if done.stdout.strip() else []
            print(f"{fam.name}@{band}#{SEED}: exit {done.returncode}; {' | '.join(last)}")
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                raise SystemExit(1)


if __name__ == "__main__":
    main()
