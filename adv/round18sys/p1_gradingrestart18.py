"""Probe: the grading service restarted mid-campaign, changed.

Usage: ``uv run python adv/round18sys/p1_gradingrestart18.py SCENARIO``

Starts ``mcpgym serve helpdesk`` and ``mcpgym grading serve`` by hand (adv/_sys.py: control
token ``ctl-tok``, grading token ``gr-tok``, one bundle key), runs ``mcpgym eval helpdesk
--agent reference --tasks all --bands all --seeds 0-1 --concurrency 4 --no-baseline`` against
them (56 slots) and at 10 rows kills the grading service (``kill -9``) and starts it again on
the same port, with SCENARIO:

- ``token``: another grading token (``gr-tok-2``): every grade request now gets a 401/403;
- ``sigterm``: SIGTERM instead of kill -9, then the same service again (a graceful restart
  under grade requests in flight);
- ``flap``: kill -9 and restart five times, 2 s apart (a crash loop that comes back each time).

Then (``token``) the same command with ``--grading-token gr-tok-2``: does it resume the run?
Prints each command's rc, time, its last lines, the rows by (termination, scored), one row
per slot?, the run's finished state. Asserts nothing. Work files in ``/tmp/r18/grading-SC``.
"""

from __future__ import annotations

import collections
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

SC = sys.argv[1]
W = Path(f"/tmp/r18/grading-{SC}")
subprocess.run(["rm", "-rf", str(W)], check=False)
(W / "eps").mkdir(parents=True)
STORE = W / "runs.db"
EP, GP = 19861 + len(SC), 19881 + len(SC)
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok", bundle_key="k" * 32)


def eval_cmd(token: str) -> list[str]:
    """The eval command line (grading token ``token``)."""
    return S.MCPGYM + [
        "eval", "helpdesk", "--agent", "reference", "--tasks", "all", "--bands", "all",
        "--seeds", "0-1", "--concurrency", "4", "--no-baseline",
        "--env-url", f"http://127.0.0.1:{EP}", "--grading-url", f"http://127.0.0.1:{GP}",
        "--grading-token", token, "--control-token", "ctl-tok", "--store", str(STORE),
    ]  # fmt: skip


def grading(env: dict[str, str], n: int) -> subprocess.Popen[bytes]:
    """``mcpgym grading serve`` on GP, up."""
    args = ["grading", "serve", "--port", str(GP), "--store", str(W / "eps")]
    p = S.start(args, env, W / f"grading{n}.log")
    S.wait_up(GP)
    return p


def report(tag: str, p: subprocess.Popen[bytes], log: Path, t0: float) -> None:
    """Print what one eval did."""
    try:
        rc: object = p.wait(600)
    except subprocess.TimeoutExpired:
        S.killpg(p, signal.SIGKILL)
        rc = "TIMEOUT"
    rows = S.rows(STORE)
    lines = [x for x in log.read_text(errors="replace").splitlines() if x.strip()]
    print(f"{tag}: rc {rc} after {time.monotonic() - t0:.1f} s")
    for line in [x for x in lines if "score 1.000" not in x][-6:]:
        print("   |", line[:330])
    slots = collections.Counter((r[0], r[1], r[2], r[3]) for r in rows)
    print(f"   rows {len(rows)}, slots {len(slots)}, duplicates {sum(v > 1 for v in slots.values())}, "
          f"{dict(collections.Counter((r[5], r[4]) for r in rows))}, attempts "
          f"{dict(collections.Counter(r[6] for r in rows))}")


def main() -> None:
    """Run the scenario."""
    env_srv = S.start(
        ["serve", "helpdesk", "--port", str(EP), "--store", str(W / "eps")], ENVV, W / "env.log"
    )
    S.wait_up(EP)
    g = grading(ENVV, 0)
    procs = [env_srv, g]
    try:
        t0 = time.monotonic()
        ev = subprocess.Popen(eval_cmd("gr-tok"), env=ENVV, stdout=open(W / "eval0.log", "w"),  # noqa: SIM115
                              stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        while len(S.rows(STORE)) < 10 and ev.poll() is None:
            time.sleep(0.05)
        if SC == "token":
            S.killpg(g, signal.SIGKILL)
            g.wait()
            g = grading(S.probe_env(control="ctl-tok", grading="gr-tok-2", bundle_key="k" * 32), 1)
        elif SC == "sigterm":
            S.killpg(g, signal.SIGTERM)
            g.wait()
            g = grading(ENVV, 1)
        elif SC == "flap":
            for i in range(5):
                S.killpg(g, signal.SIGKILL)
                g.wait()
                g = grading(ENVV, i + 1)
                time.sleep(2)
        procs.append(g)
        report("eval 0", ev, W / "eval0.log", t0)
        if SC == "token":
            t0 = time.monotonic()
            ev = subprocess.Popen(eval_cmd("gr-tok-2"), env=ENVV, stdout=open(W / "eval1.log", "w"),  # noqa: SIM115
                                  stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
            report("eval 1 (--grading-token gr-tok-2)", ev, W / "eval1.log", t0)
        out = subprocess.run([*S.MCPGYM, "runs", "--store", str(STORE)], capture_output=True,
                             text=True, env=ENVV).stdout.splitlines()  # fmt: skip
        for line in out[3:6]:
            print("   runs |", line[:200])
    finally:
        S.stop_all(procs)


if __name__ == "__main__":
    main()
