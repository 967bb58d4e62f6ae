"""§8 probe (round 16): model-server oddities of the stream, over real ``mcpgym eval``
processes against fake16.py (scenarios in its docstring).

Usage: ``uv run python adv/round16sys/p8_model16.py [SCENARIO ...]`` (default: all).
Prints one JSON line per scenario (`adv/_sys.model_eval`: rc, wall, requests, rows).
Expected: each ends classified (a server fault ``infra_error``/``model_error`` with the
reason, never a score from an answer the model did not give), within the caps
(``--request-timeout 2``, ``--timeout 90``).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

WORK = Path("/tmp/r16/p8")
FAKE_LOGS = Path("/tmp/r16/fake")
PORT, ENV_PORT, GRADING_PORT = 19882, 19883, 19884
ALL = ["r_keepalive", "r_html200", "r_choices_empty", "r_split", "r_usage_only",
       "r_length_half", "r_no_done", "r_index5", "r_500_once", "r_big_answer"]  # fmt: skip


def main() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    env = S.probe_env(control="p8-ctl", grading="p8-gr")
    urls = [
        "--env-url",
        f"http://127.0.0.1:{ENV_PORT}",
        "--grading-url",
        f"http://127.0.0.1:{GRADING_PORT}",
    ]
    fake = S.start_fake(Path(__file__).parent / "fake16.py", PORT, FAKE_LOGS)
    try:
        eps = WORK / "eps"
        shutil.rmtree(eps, ignore_errors=True)
        eps.mkdir(parents=True)
        with S.servers(ENV_PORT, GRADING_PORT, eps, env, WORK):
            for sc in sys.argv[1:] or ALL:
                r = S.model_eval(
                    sc, port=PORT, store=WORK / f"{sc}.db", logdir=FAKE_LOGS, env=env, args=urls
                )
                print(json.dumps(r), flush=True)
    finally:
        S.stop_all([fake])


if __name__ == "__main__":
    main()
