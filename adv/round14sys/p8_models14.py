"""§8 probe (round 14): the model loop over real `mcpgym eval` processes against fake14.py:
content as typed parts, legacy function_call, JSON for a stream, a
last chunk repeating the message, content_filter.

Usage: ``uv run python adv/round14sys/p8_models14.py [SCENARIO[@SEEDS] ...]`` (default: all
new ones, one seed each; e.g. ``n_parts_stream@0-2`` for a campaign of six slots).
One eval per scenario (helpdesk order-status easy) against shared env/grading servers,
all started with `adv/_sys.py` (`servers`, `start_fake`, `model_eval`). Writes
/tmp/r14/p8/results.jsonl; prints one JSON line per scenario.
Expected: a form is run (turn-1 request carries a tool result) or told once and flagged;
a garbage 200 is never taken as the answer (no `completed` row scored on garbage).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

WORK = Path("/tmp/r14/p8")
FAKE_LOGS = Path("/tmp/r14/fake")
PORT, ENV_PORT, GRADING_PORT = 18972, 18973, 18974
NEW = [
    "n_parts_stream",
    "n_magistral_stream",
    "n_parts_json",
    "n_legacy_fc_stream",
    "n_legacy_fc_json",
    "n_json_for_stream",
    "n_final_message_chunk",
    "n_content_filter",
    "n_fc_and_tools_none",
]


def main() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "eps").mkdir(exist_ok=True)
    env = S.probe_env(control="p8-ctl", grading="p8-gr")
    urls = ["--env-url", f"http://127.0.0.1:{ENV_PORT}"]
    urls += ["--grading-url", f"http://127.0.0.1:{GRADING_PORT}"]
    fake = S.start_fake(Path(__file__).parent / "fake14.py", PORT, FAKE_LOGS)
    try:
        with S.servers(ENV_PORT, GRADING_PORT, WORK / "eps", env, WORK):
            with open(WORK / "results.jsonl", "a") as f:
                for item in sys.argv[1:] or NEW:
                    sc, _, seeds = item.partition("@")
                    r = S.model_eval(
                        sc,
                        seeds=seeds or None,
                        port=PORT,
                        store=WORK / f"{sc}{seeds}.db",
                        logdir=FAKE_LOGS,
                        env=env,
                        args=urls,
                    )
                    f.write(json.dumps(r) + "\n")
                    f.flush()
                    print(json.dumps(r), flush=True)
    finally:
        S.stop_all([fake])


if __name__ == "__main__":
    main()
