"""Print each episode of a run store: its outcome and, per model turn, how it was read.

    uv run python adv/round20sys/episodes20.py RUNS.db [--text]

One line per episode (agent, variant, termination, the environment's termination, score,
steps, seconds, error, answer), then one line per transcript message: the assistant turns'
stop, finish reason, parsed call forms, calls, the unparsed/overflow flags, and the harness's
own messages (told once). ``--text`` adds each assistant message's text. A probe: it prints,
asserts nothing.
"""

from __future__ import annotations

import json
import sqlite3
import sys


def main() -> None:
    path, text = sys.argv[1], "--text" in sys.argv
    db = sqlite3.connect(path)
    rows = db.execute(
        "select agent, task, band, seed, termination, episode_termination, score, steps, "
        "duration_s, error, answer, transcript from episodes order by id"
    ).fetchall()
    for agent, task, band, seed, term, env_term, score, steps, secs, err, answer, tr in rows:
        print(
            f"{agent} {task}@{band}#{seed}: {term} / {env_term} score={score} steps={steps} "
            f"{secs or 0:.0f}s error={err!r} answer={(answer or '')[:160]!r}"
        )
        for m in json.loads(tr or "[]"):
            role = m.get("role")
            if role == "assistant":
                calls = [
                    (c["function"]["name"], c["function"]["arguments"])
                    for c in m.get("tool_calls") or []
                ]
                flags = [
                    k for k in m if k in ("mcpgym_unparsed_tool_call", "mcpgym_context_overflow")
                ]
                print(
                    f"   A turn {m.get('mcpgym_turn')} stop={m.get('mcpgym_stop')} "
                    f"finish={m.get('mcpgym_finish_reason')} "
                    f"parsed={m.get('mcpgym_parsed_tool_calls')} calls={calls} {flags}"
                )
                if text:
                    raw = m.get("mcpgym_raw_content") or m.get("content") or ""
                    print("      " + str(raw)[:1500].replace("\n", "\n      "))
            elif role == "tool":
                print(f"   T {str(m.get('content'))[:200]!r}")
            elif role == "user" and m.get("mcpgym_harness"):
                print(f"   H {str(m.get('content'))[:120]!r}")


if __name__ == "__main__":
    main()
