"""What the tool-call log caps cost per call (issue 9 §5): `log_form` against the whole call.

Runs helpdesk calls in process (the largest results of the environment: `list_tickets`
~27 KB, `get_policy` ~9 KB, `get_order` ~2 KB) and times, in the same run and on the same
entries, the whole `EpisodeManager.call` and the part the caps add (`log_form`: measuring
arguments and result and capping them). CPU time, so that load on the machine matters less.

    uv run python bench/log_caps.py [--rounds 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from mcpgym_server import EpisodeManager, MemoryEpisodeStore, load_environment
from mcpgym_server.runtime import LOG_VALUE_CAP, log_form

CALLS = [("get_order", {"order_id": 100234}), ("list_tickets", {}), ("get_policy", {})]


def main() -> None:
    """Print per-call CPU microseconds of the whole call and of the caps, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    env = load_environment("helpdesk")
    manager = EpisodeManager(env, MemoryEpisodeStore(), max_steps=10**9)
    ep = manager.open("order-status", "easy", 0)
    whole: list[float] = []
    caps: list[float] = []
    for _ in range(rounds):
        t0 = time.process_time()
        entries = [manager.call(ep.id, tool, args) for _ in range(100) for tool, args in CALLS]
        whole.append((time.process_time() - t0) / len(entries) * 1e6)
        argument_json = [json.dumps(e.arguments, separators=(",", ":")).encode() for e in entries]
        t0 = time.process_time()
        for entry, data in zip(entries, argument_json, strict=True):
            log_form(entry, data, LOG_VALUE_CAP)
        caps.append((time.process_time() - t0) / len(entries) * 1e6)
        ep.log.clear()
        ep.log_bytes = 0
    call_us, cap_us = statistics.median(whole), statistics.median(caps)
    print(f"whole call: {call_us:.1f} us CPU (median of {rounds} rounds of 300 calls)")
    print(f"log caps:   {cap_us:.1f} us CPU per call")
    print(f"ratio caps / whole call: {cap_us / call_us:.3f}")


if __name__ == "__main__":
    main()
