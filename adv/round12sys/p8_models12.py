"""§8 probe (round 12): the model loop over real `mcpgym eval` processes against fake12.py:
finish reasons abort/error, calls without index, cuts inside a call, 429s.

Usage: ``uv run python adv/round12sys/p8_models12.py [SCENARIO[@SEEDS] ...]`` (default: all
new ones, one seed each; e.g. ``m_429_ra_huge@0-5`` for a campaign of six slots).
One eval per scenario (helpdesk order-status easy) against shared env/grading servers,
all started with `adv/_sys.py` (`servers`, `start_fake`, `model_eval`). Writes
/tmp/r12/p8/results.jsonl; prints one JSON line per scenario.
Expected: a form is run (turn-1 request carries a tool result) or told once and flagged;
a garbage 200 is never taken as the answer (no `completed` row scored on garbage).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

WORK = Path("/tmp/r12/p8")
FAKE_LOGS = Path("/tmp/r12/fake")
PORT, ENV_PORT, GRADING_PORT = 18962, 18963, 18964
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


def main() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "eps").mkdir(exist_ok=True)
    env = S.probe_env(control="p8-ctl", grading="p8-gr")
    urls = ["--env-url", f"http://127.0.0.1:{ENV_PORT}"]
    urls += ["--grading-url", f"http://127.0.0.1:{GRADING_PORT}"]
    fake = S.start_fake(Path(__file__).parent / "fake12.py", PORT, FAKE_LOGS)
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
