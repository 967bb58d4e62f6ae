"""§8 probe (round 12): the model loop over real `mcpgym eval` processes against fake12.py:
finish reasons abort/error, calls without index, cuts inside a call, 429s.

Usage: ``uv run python adv/round12sys/p8_models12.py [SCENARIO ...]`` (default: all new ones).
Reuses round 9's p8_models.run (one eval per scenario, helpdesk order-status easy, shared
env/grading servers). Writes /tmp/r12/p8/results.jsonl; prints one JSON line per scenario.
Expected: a form is run (turn-1 request carries a tool result) or told once and flagged;
a garbage 200 is never taken as the answer (no `completed` row scored on garbage).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round9sys"))
import p8_models as M  # noqa: E402

M.WORK = Path("/tmp/r12/p8")
M.PORT = 18962
NEW = [
    "m_abort_text",
    "m_error_finish",
    "m_two_calls_no_index",
    "m_two_calls_same_index",
    "m_cut_in_call",
    "m_cut_in_call_done",
    "m_cut_text_nodone",
    "m_length_in_call",
    "m_dup_ids",
    "m_args_string",
    "m_429_ra_small",
    "m_429_ra_huge",
    "m_429_ra_date",
    "m_finish_calls_none",
    "m_name_split",
]

_Popen = subprocess.Popen


def _popen(cmd, *a, **kw):  # start fake12.py instead of round 9's fake, on our ports
    cmd = [str(c) for c in cmd]
    if cmd[1].endswith("fake_openai.py"):
        cmd = [cmd[0], str(Path(__file__).parent / "fake12.py"), str(M.PORT), "/tmp/r9/fake"]
    cmd = [c.replace("18933", "18963").replace("18934", "18964") for c in cmd]
    return _Popen(cmd, *a, **kw)


M.subprocess.Popen = _popen  # type: ignore[assignment]


class _Ports(list):
    def extend(self, items):  # round 9's main adds its own ports
        super().extend(str(i).replace("18933", "18963").replace("18934", "18964") for i in items)


M.SHARED_ARGS = _Ports()

if __name__ == "__main__":
    sys.argv = [sys.argv[0], *(sys.argv[1:] or NEW)]
    M.main()
