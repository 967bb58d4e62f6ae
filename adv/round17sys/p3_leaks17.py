"""§3 probe (round 17): do the secrets (control token, grading token, bundle key, a model
API key, URL credentials) leak into what is printed, logged or stored?

Usage: ``uv run python adv/round17sys/p3_leaks17.py``
Starts ``mcpgym serve helpdesk`` and ``mcpgym grading serve`` with known secrets
(adv/_sys.py), then runs ``mcpgym eval`` (reference, order-status@easy#0-1, no baseline):
- ``ok``: the right tokens on the command line;
- ``env``: the right tokens in the environment (MCPGYM_CONTROL_TOKEN, MCPGYM_GRADING_TOKEN);
- ``badctl``: a wrong control token (itself a secret: another server's);
- ``badgr``: a wrong grading token;
- ``userinfo``: ``--env-url http://u:URLPASS@127.0.0.1:P`` and ``--grading-url`` with
  ``?token=URLQ``;
- ``local``: no URLs (mcpgym eval starts its own servers with fresh tokens);

then ``runs --json``, ``show --json``, ``export``, ``report``, ``targets`` of each store.
Prints, per secret, every file or output that holds it (the servers' own logs included).
Expected: no secret anywhere but where the operator put it (its own command line).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r17/leaks")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
EP, GP = 19811, 19812
CTL, GR, BK = "CTLSECRET-abcdef0123", "GRSECRET-abcdef0123", "BKSECRET-" + "b" * 32
WRONG_CTL, WRONG_GR = "WRONGCTL-feedface99", "WRONGGR-feedface99"
URLPASS, URLQ, APIKEY = "URLPASS-1234abcd", "URLQ-5678efgh", "APIKEY-sk-0000111"
SECRETS = [CTL, GR, BK, WRONG_CTL, WRONG_GR, URLPASS, URLQ, APIKEY]
ENVV = S.probe_env(control=CTL, grading=GR, bundle_key=BK)
BASE = ["eval", "helpdesk", "--agent", "reference", "--tasks", "order-status", "--bands", "easy",
        "--seeds", "0-1", "--no-baseline", "--infra-retries", "0", "--yes"]  # fmt: skip


def ev(name: str, extra: list[str], env: dict[str, str]) -> None:
    store = W / f"{name}.db"
    p = subprocess.run(S.MCPGYM + BASE + ["--store", str(store), *extra], env=env, cwd=W,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    (W / f"{name}.out").write_text(p.stdout + p.stderr)
    print(f"{name}: rc {p.returncode}; last line: {(p.stdout + p.stderr).strip().splitlines()[-1:]}")
    if not store.exists():
        return
    for cmd in (["runs", "--json", str(W / f"{name}.runs.json")], ["show", "latest", "--json",
                str(W / f"{name}.show.json")], ["export", "latest", "--out",
                str(W / f"{name}.export.jsonl"), "--include-unscored"], ["report", "latest",
                "--out", str(W / f"{name}.report.html")], ["targets", "latest", "--out",
                str(W / f"{name}.targets.jsonl")]):  # fmt: skip
        q = subprocess.run(S.MCPGYM + [cmd[0], "--store", str(store), *cmd[1:]], env=env,
                           cwd=W, capture_output=True, text=True, timeout=120)  # fmt: skip
        (W / f"{name}.{cmd[0]}.out").write_text(q.stdout + q.stderr)


urls = ["--env-url", f"http://127.0.0.1:{EP}", "--grading-url", f"http://127.0.0.1:{GP}"]
with S.servers(EP, GP, W / "eps", ENVV, W, extra=("--bundle-key", BK)):
    plain = S.probe_env(control=None, grading=None)
    for k in ("MCPGYM_CONTROL_TOKEN", "MCPGYM_GRADING_TOKEN", "MCPGYM_BUNDLE_KEY"):
        plain.pop(k, None)
    ev("ok", [*urls, "--control-token", CTL, "--grading-token", GR], plain)
    ev("env", urls, ENVV)
    ev("badctl", [*urls, "--control-token", WRONG_CTL, "--grading-token", GR], plain)
    ev("badgr", [*urls, "--control-token", CTL, "--grading-token", WRONG_GR], plain)
    ev("userinfo", ["--env-url", f"http://u:{URLPASS}@127.0.0.1:{EP}", "--grading-url",
                    f"http://127.0.0.1:{GP}/?token={URLQ}", "--control-token", CTL,
                    "--grading-token", GR], plain)  # fmt: skip
    ev("local", [], plain)
    ev("model", ["--agent", "openai", "--model", "m", "--base-url",
                 f"http://127.0.0.1:1/v1?key={URLQ}", "--api-key", APIKEY, *urls,
                 "--control-token", CTL, "--grading-token", GR], plain)  # fmt: skip

print("\nwhere each secret appears (files under", W, "and the servers' logs):")
for secret in SECRETS:
    hits = []
    for f in sorted(W.rglob("*")):
        if f.is_file():
            try:
                if secret.encode() in f.read_bytes():
                    hits.append(str(f.relative_to(W)))
            except OSError:
                pass
    print(f"  {secret}: {hits or 'nowhere'}")
