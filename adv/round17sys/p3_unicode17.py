"""§1/§3 probe (round 17): unicode in the ids a harness or an agent sends.

Usage: ``uv run python adv/round17sys/p3_unicode17.py``
Starts ``mcpgym serve helpdesk`` and ``mcpgym grading serve`` (adv/_sys.py). With the control
token: ``POST /episodes`` with the task, band and seed in other forms (fullwidth letters, a
Unicode hyphen, a trailing NBSP, Arabic-Indic and fullwidth digits as the seed, a seed
``"3"`` as a string, a float ``3.0``, ``True``, a huge int); ``GET /episodes/{id}`` and
``POST /grades`` with the episode id in fullwidth, with a combining mark, with a NUL, with
an RTL override; then ``mcpgym eval`` with ``--tasks`` / ``--bands`` / ``--seeds`` in
those forms. Prints each status and the first 160 characters of the answer.
Expected: the canonical spelling only, or a clear 4xx/exit 2; never a variant served under a
seed the harness did not plan, a 500, or an id echoed raw into a terminal (RTL/ANSI).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r17/unicode")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
EP, GP = 19831, 19832
ENVV = S.probe_env(control="ctl-tok", grading="gr-tok")
CTL = {"authorization": "Bearer ctl-tok"}
GR = {"authorization": "Bearer gr-tok"}

BODIES = {
    "canonical": {"task": "order-status", "band": "easy", "seed": 3},
    "fullwidth task": {"task": "ｏｒｄｅｒ-ｓｔａｔｕｓ", "band": "easy", "seed": 3},
    "unicode hyphen": {"task": "order\u2010status", "band": "easy", "seed": 3},
    "nbsp band": {"task": "order-status", "band": "easy\u00a0", "seed": 3},
    "uppercase band": {"task": "order-status", "band": "EASY", "seed": 3},
    "arabic-indic seed": {"task": "order-status", "band": "easy", "seed": "٣"},
    "fullwidth seed": {"task": "order-status", "band": "easy", "seed": "３"},
    "string seed": {"task": "order-status", "band": "easy", "seed": "3"},
    "float seed": {"task": "order-status", "band": "easy", "seed": 3.0},
    "float seed 3.5": {"task": "order-status", "band": "easy", "seed": 3.5},
    "bool seed": {"task": "order-status", "band": "easy", "seed": True},
    "huge seed": {"task": "order-status", "band": "easy", "seed": 10**40},
    "negative seed": {"task": "order-status", "band": "easy", "seed": -1},
}


def show(label: str, r: httpx.Response) -> None:
    print(f"  {label}: {r.status_code} {ascii(r.text[:160])}")


with S.servers(EP, GP, W / "eps", ENVV, W), httpx.Client(timeout=30) as c:
    env, gr = f"http://127.0.0.1:{EP}", f"http://127.0.0.1:{GP}"
    print("POST /episodes:")
    good = None
    for label, body in BODIES.items():
        r = c.post(f"{env}/episodes", json=body, headers=CTL)
        show(label, r)
        if r.status_code in (200, 201):
            meta = r.json()
            print(f"      served variant_id={meta.get('variant_id')!r}")
            good = good or meta["episode_id"]
    assert good
    ids = {
        "fullwidth": good.translate({ord(ch): ord(ch) + 0xFEE0 for ch in "0123456789abcdef"}),
        "combining": good + "\u0301",
        "rtl": "\u202e" + good,
        "ansi": good + "\x1b[2J",
        "zero-width": good[:5] + "\u200b" + good[5:],
    }
    print("GET /episodes/{id} and POST /grades:")
    for label, eid in ids.items():
        show(f"GET {label}", c.get(f"{env}/episodes/{quote(eid)}", headers=CTL))
        show(f"grade {label}", c.post(f"{gr}/grades", json={"episode_id": eid}, headers=GR))
    print("mcpgym eval with the selection in other forms:")
    for label, sel in {
        "fullwidth task": ["--tasks", "ｏｒｄｅｒ-ｓｔａｔｕｓ", "--bands", "easy", "--seeds", "0"],
        "unicode hyphen": ["--tasks", "order\u2010status", "--bands", "easy", "--seeds", "0"],
        "fullwidth seeds": ["--tasks", "order-status", "--bands", "easy", "--seeds", "０-１"],
        "arabic seeds": ["--tasks", "order-status", "--bands", "easy", "--seeds", "٠-١"],
        "unicode dash range": ["--tasks", "order-status", "--bands", "easy", "--seeds", "0\u20131"],
        "ansi in task": ["--tasks", "order-status\x1b[31m", "--bands", "easy", "--seeds", "0"],
    }.items():
        store = W / f"{label.replace(' ', '_')}.db"
        p = subprocess.run(S.MCPGYM + ["eval", "helpdesk", "--agent", "reference", *sel,
                                       "--no-baseline", "--env-url", env, "--grading-url", gr,
                                       "--store", str(store), "--yes"], env=ENVV,
                           capture_output=True, text=True, timeout=300)  # fmt: skip
        out = (p.stdout + p.stderr).strip().splitlines()
        rows = S.rows(store, "variant_id, scored")
        print(f"  {label}: rc {p.returncode} rows {rows} last {ascii(out[-1][:200]) if out else ''}")
