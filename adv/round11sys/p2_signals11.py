"""§2 probe (round 11): other signals, and signals during sealing, against a real
`mcpgym serve` holding 55 episodes in every transport (round 9's `p2_shutdown` setup: 20
2025-era sessions, 20 sessionless, 5 connect-to-start, 10 never connected, 8 calls in
flight at the signal).

Usage: ``uv run python adv/round11sys/p2_signals11.py CASE``
CASE:
  HUP / QUIT / USR1 / USR2 / ALRM / PIPE   that one signal (nohup'd jobs get HUP when the
      terminal closes; QUIT is Ctrl-\\). Expected: either the server keeps serving (then a
      TERM follows 3 s later) or every episode is sealed `shutdown` with no debris.
  TERM_TERM    two SIGTERMs 50 ms apart (a supervisor repeating its stop).
  TERM_INT     SIGTERM then SIGINT 300 ms later (during sealing).
  INT_TERM_KILL  SIGINT, SIGTERM at 100 ms, SIGKILL at 600 ms (mid-sealing), then a restart
      on the same store: debris swept, every bundle that exists verifies as complete.
Prints one JSON line: rc, secs, bundles by termination, missing, debris.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import threading
import time
from pathlib import Path

CASE = sys.argv[1] if len(sys.argv) > 1 else "HUP"
sys.argv = [sys.argv[0], f"r11_{CASE}"]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round9sys"))
import p2_shutdown as S  # noqa: E402

S.W = Path(f"/tmp/r11/p2/{CASE}")
S.subprocess.run(["rm", "-rf", str(S.W)])
S.W.mkdir(parents=True)
S.STORE = S.W / "eps"
S.CASE = "many_" + CASE  # round 9's setup for 55 episodes

_start = S.start
LATER: list[int] = []
PROCS: list = []
GAP = [0.0]


def _start_with_later(port: int):
    """Round 9's start, whose first send_signal also schedules the later signals from a
    thread (a sleep in the probe's event loop would be cancelled with its MCP clients)."""
    proc = _start(port)
    PROCS.append(proc)
    send = proc.send_signal

    def first(sig: int) -> None:
        send(sig)

        def rest() -> None:
            for s in LATER:
                time.sleep(GAP[0])
                if proc.poll() is None:
                    send(s)

        threading.Thread(target=rest, daemon=True).start()
        proc.send_signal = send  # type: ignore[method-assign]

    proc.send_signal = first  # type: ignore[method-assign]
    return proc


async def main() -> None:
    seq: list[int] = []
    gap = 0.0
    if CASE in ("HUP", "QUIT", "USR1", "USR2", "ALRM", "PIPE"):
        seq, gap = [getattr(signal, "SIG" + CASE), signal.SIGTERM], 3.0
    elif CASE == "TERM_TERM":
        seq, gap = [signal.SIGTERM, signal.SIGTERM], 0.05
    elif CASE == "TERM_INT":
        seq, gap = [signal.SIGTERM, signal.SIGINT], 0.3
    elif CASE == "INT_TERM_KILL":
        seq, gap = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], 0.25
    t0 = time.monotonic()
    LATER[:] = seq[1:]
    GAP[0] = gap
    S.start = _start_with_later
    try:
        r = await S.http_case(seq[:1], 0)
    except BaseException as exc:  # an abrupt death closes the probe's MCP clients under it
        proc = PROCS[-1]
        try:
            rc = await asyncio.to_thread(proc.wait, 60)
        except Exception:
            proc.kill()
            rc = "HUNG>60s"
        b = S.bundles()
        b.pop("names")
        r = {
            "rc": rc,
            "secs": round(time.monotonic() - t0, 2),
            "opened": 55,
            **b,
            "probe_note": f"the probe's clients failed: {type(exc).__name__}",
        }
    S.start = _start
    r["case"] = CASE
    r["signals"] = [signal.Signals(s).name for s in seq]
    if CASE == "INT_TERM_KILL":
        port = S.free_port()
        p = S.start(port)  # restart on the same store: the sweep runs at start
        after = S.bundles()
        after.pop("names")
        p.send_signal(signal.SIGTERM)
        p.wait(60)
        r["after_restart"] = after
    log = (S.W / "serve.log").read_text(errors="replace")
    r["tracebacks"] = log.count("Traceback")
    r["log_tail"] = log.strip().splitlines()[-3:]
    r["wall"] = round(time.monotonic() - t0, 1)
    print(json.dumps(r), flush=True)


try:
    asyncio.run(main())
except BaseException as exc:  # an abrupt death cancels the probe's own task: count on disk
    proc = PROCS[0]
    try:
        rc = proc.wait(60)
    except Exception:
        proc.kill()
        rc = "HUNG>60s"
    b = S.bundles()
    b.pop("names")
    log = (S.W / "serve.log").read_text(errors="replace")
    print(
        json.dumps(
            {
                "case": CASE,
                "rc": rc,
                "opened": 55,
                **b,
                "tracebacks": log.count("Traceback"),
                "probe_note": f"probe's clients failed: {type(exc).__name__}",
                "log_tail": [ln for ln in log.strip().splitlines() if "INFO:" not in ln][-3:],
            }
        ),
        flush=True,
    )
