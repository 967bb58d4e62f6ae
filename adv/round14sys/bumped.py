"""``mcpgym`` with helpdesk's version bumped to 1.0.1 (so its lock differs): stands for the
same environment upgraded and the server restarted. Probe only.
Run: ``uv run python adv/round14sys/bumped.py serve helpdesk ...`` (as ``mcpgym``)."""

import sys

import mcpgym_helpdesk

mcpgym_helpdesk.environment.version = "1.0.1"

from mcpgym_clients.cli import main  # noqa: E402

sys.argv[0] = "mcpgym"
main()
