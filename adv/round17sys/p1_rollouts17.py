"""§1 probe (round 17): the training path (`Rollouts.over_http`) under a server kill mid-group.

Usage: ``uv run python adv/round17sys/p1_rollouts17.py SCENARIO``
Starts ``mcpgym serve helpdesk`` and ``mcpgym grading serve`` (adv/_sys.py), then
``Rollouts.over_http(...).rollout_groups(rows, ReferenceAgent(), n=8)`` over 4 training
rows (32 rollouts, concurrency 8), with SCENARIO:
- ``env``: the environment server kill -9'd after 1.5 s (mid-group), restarted 2 s later;
- ``grading``: the grading service kill -9'd after 1.5 s, restarted 2 s later;
- ``envdead``: the environment server kill -9'd after 1.5 s, never restarted.
Prints: whether the call returned or raised (and what), how long it took, per group the
rollouts returned, scored and dropped, the terminations and errors of the dropped.
Expected: every group returns n rollouts (scored, or dropped with the reason), no
exception that loses the group's other rollouts, no hang; nothing scored that was not
graded.
"""

from __future__ import annotations

import collections
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

from mcpgym_clients import ReferenceAgent  # noqa: E402
from mcpgym_clients.train import Rollouts, training_rows  # noqa: E402

SC = sys.argv[1]
W = Path(f"/tmp/r17/rollouts/{SC}")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
EP, GP = 19841 + 2 * len(SC), 19842 + 2 * len(SC)
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok")


def killer(procs: dict[str, subprocess.Popen[bytes]]) -> None:
    name = "grading" if SC == "grading" else "env"
    time.sleep(1.5)
    S.killpg(procs[name], signal.SIGKILL)
    procs[name].wait()
    print(f"  [{time.monotonic() - T0:.1f}s] killed {name}", flush=True)
    if SC == "envdead":
        return
    time.sleep(2)
    if name == "env":
        args = ["serve", "helpdesk", "--port", str(EP), "--store", str(W / "eps")]
    else:
        args = ["grading", "serve", "--port", str(GP), "--store", str(W / "eps")]
    procs[name] = S.start(args, ENVV, W / f"{name}2.log")
    print(f"  [{time.monotonic() - T0:.1f}s] restarted {name}", flush=True)


async def main() -> None:
    rows = training_rows("helpdesk", tasks=["order-status", "cancel-order"], bands=["easy", "medium"], seeds=range(40))[:4]
    async with Rollouts.over_http(f"http://127.0.0.1:{EP}", f"http://127.0.0.1:{GP}", "gr-tok", "ctl-tok", concurrency=8) as ro:
        groups = await ro.rollout_groups(rows, ReferenceAgent(), n=8)
    for g in groups:
        terms = collections.Counter(r.termination for r in g.rollouts)
        errs = collections.Counter((r.error or "")[:110] for r in g.rollouts if not r.scored)
        print(f"  group {g.row.variant_id}: {len(g.rollouts)} rollouts, {len(g.rewards)} scored "
              f"(rewards {sorted(set(g.rewards))}), dropped {g.dropped}, {dict(terms)}")  # fmt: skip
        for e, n in errs.items():
            print(f"      {n} x {e}")


with S.servers(EP, GP, W / "eps", ENVV, W) as procs:
    T0 = time.monotonic()
    threading.Thread(target=killer, args=(procs,), daemon=True).start()
    try:
        anyio.run(main)
        print(f"returned after {time.monotonic() - T0:.1f}s")
    except BaseException as exc:  # noqa: BLE001
        print(f"RAISED after {time.monotonic() - T0:.1f}s: {type(exc).__name__}: {str(exc)[:300]}")
    time.sleep(3)
    S.stop_all(list(procs.values()))
