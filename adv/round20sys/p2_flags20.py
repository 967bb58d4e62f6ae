"""Round 20 (system): `mcpgym eval` flags misused; prints exit status and the error's last lines.

Usage: uv run python adv/round20sys/p2_flags20.py [MCPGYM]  (MCPGYM: the command, default
.venv/bin/mcpgym). Each case runs in a fresh temporary folder (its own run store); nothing
reaches a network (no case gets as far as a model request).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

MCPGYM = sys.argv[1] if len(sys.argv) > 1 else ".venv/bin/mcpgym"
BASE = ["eval", "helpdesk", "--agent", "null", "--tasks", "order-status", "--bands", "easy"]

CASES: list[tuple[str, list[str]]] = [
    ("seeds reversed", ["--seeds", "5-2"]),
    ("seeds word", ["--seeds", "abc"]),
    ("seeds negative", ["--seeds", "-1"]),
    ("seeds empty", ["--seeds", ""]),
    ("seeds huge range", ["--seeds", "0-99999999999"]),
    ("seeds trailing comma", ["--seeds", "0,"]),
    ("tasks empty", ["--tasks", ""]),
    ("tasks comma only", ["--tasks", ","]),
    ("bands unknown", ["--bands", "impossible"]),
    ("epochs zero", ["--epochs", "0"]),
    ("concurrency zero", ["--concurrency", "0"]),
    ("concurrency huge", ["--concurrency", "100000000", "--seeds", "0"]),
    ("timeout negative", ["--timeout", "-5"]),
    ("timeout nan", ["--timeout", "nan"]),
    ("timeout inf", ["--timeout", "inf"]),
    ("request-timeout with null", ["--request-timeout", "5"]),
    ("infra-retries negative", ["--infra-retries", "-1"]),
    ("infra-retry-wait nan", ["--infra-retry-wait", "nan"]),
    ("store is a directory", ["--store", "{tmp}"]),
    ("store under a file", ["--store", "{tmp}/file/runs.db"]),
    ("episodes is a file", ["--episodes", "{tmp}/file"]),
    ("env-url without scheme", ["--env-url", "localhost:8000", "--grading-token", "x"]),
    ("grading-url alone", ["--grading-url", "http://127.0.0.1:1"]),
    ("ray-address without ray", ["--ray-address", "auto"]),
    ("ray-actors without ray", ["--ray-actors", "3"]),
    ("max-requests-per-second zero", ["--max-requests-per-second", "0"]),
    ("max-requests-per-second nan", ["--max-requests-per-second", "nan"]),
    ("request-burst zero", ["--request-burst", "0"]),
    ("seed-salt empty", ["--seed-salt", ""]),
    (
        "unknown env",
        ["--tasks", "all"],
    ),
]


def main() -> None:
    for name, extra in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "file").write_text("x")
            args = [a.replace("{tmp}", tmp) for a in extra]
            base = list(BASE)
            if name == "unknown env":
                base[1] = "helpdsk"
            if "--store" not in args:
                args += ["--store", f"{tmp}/runs.db"]
            cmd = [MCPGYM, *base, *args, "--no-baseline", "--yes"]
            try:
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
                code, text = out.returncode, (out.stdout + out.stderr).strip()
            except subprocess.TimeoutExpired:
                code, text = "timeout(240s)", ""
            tail = " | ".join(line.strip() for line in text.splitlines()[-4:])
            print(f"{name:32} rc={code}  {tail[:400]}", flush=True)


if __name__ == "__main__":
    main()
