"""§8 probe (round 11): the model loop over real `mcpgym eval` processes against fake11.py:
other templates' tool-call forms, and servers answering 200 with garbage.

Usage: ``uv run python adv/round11sys/p8_models11.py [SCENARIO ...]`` (default: all new ones).
Reuses round 9's p8_models.run (one eval per scenario, helpdesk order-status easy, shared
env/grading servers). Writes /tmp/r11/p8/results.jsonl; prints one JSON line per scenario.
Expected: a form is run (turn-1 request carries a tool result) or told once and flagged;
a garbage 200 is never taken as the answer (no `completed` row scored on garbage).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round9sys"))
import p8_models as M  # noqa: E402

M.WORK = Path("/tmp/r11/p8")
M.PORT = 18952
NEW = [
    "f_minimax_m2",
    "f_claude_xml_invoke",
    "f_internlm2",
    "f_xlam",
    "f_mistral_v13_callid",
    "f_llama3_python_tag_call",
    "f_openai_tool_calls_list",
    "f_gemini_function_call",
    "u_invoke_broken",
    "u_minimax_broken",
    "u_python_tag_broken",
    "g_html",
    "g_plain_ok",
    "g_empty",
    "g_json_nochoices",
    "g_json_error_200",
    "g_sse_notjson",
    "g_sse_choices_empty",
    "g_sse_only_done",
    "g_sse_binary",
    "g_sse_role_only",
    "g_sse_bad_toolcall_args",
]

_Popen = subprocess.Popen


def _popen(cmd, *a, **kw):  # start fake11.py instead of round 9's fake, on our ports
    cmd = [str(c) for c in cmd]
    if cmd[1].endswith("fake_openai.py"):
        cmd = [cmd[0], str(Path(__file__).parent / "fake11.py"), str(M.PORT), "/tmp/r9/fake"]
    cmd = [c.replace("18933", "18953").replace("18934", "18954") for c in cmd]
    return _Popen(cmd, *a, **kw)


M.subprocess.Popen = _popen  # type: ignore[assignment]


class _Ports(list):
    def extend(self, items):  # round 9's main adds its own ports
        super().extend(str(i).replace("18933", "18953").replace("18934", "18954") for i in items)


M.SHARED_ARGS = _Ports()

if __name__ == "__main__":
    sys.argv = [sys.argv[0], *(sys.argv[1:] or NEW)]
    M.main()
