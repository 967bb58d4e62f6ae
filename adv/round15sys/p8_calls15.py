"""§1/§8 probe (round 15): a model turn with very many tool calls, and calls to tools that
are not listed, over real `mcpgym eval` processes against fake15.py.

Usage: ``uv run python adv/round15sys/p8_calls15.py [SCENARIO ...]`` (default:
``q_many1000 q_odd_names``). ``q_manyN``: N ``get_order`` calls in the first turn, then the
answer. ``q_odd_names``: calls to unlisted / look-alike / 5,000-character tool names.
Prints one JSON line per scenario (`adv/_sys.model_eval`) plus, from the episode bundle,
the steps logged, the tool names logged and the meta's termination / rate_limited.
Expected: every call the model made is answered (run, or refused as the model's error)
and logged; the episode is scored as the model's, never `infra_error` for its own flood.
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

WORK = Path("/tmp/r15/p8")
FAKE_LOGS = Path("/tmp/r15/fake")
PORT, ENV_PORT, GRADING_PORT = 18982, 18983, 18984


def bundles(store: Path) -> list[dict]:
    out = []
    for meta_p in sorted(store.glob("ep_*/meta.json"), key=lambda p: p.stat().st_mtime):
        meta = json.loads(meta_p.read_text())
        log = [json.loads(x) for x in (meta_p.parent / "log.jsonl").read_text().splitlines() if x]
        names = collections.Counter(str(e.get("tool"))[:30] for e in log)
        errs = collections.Counter(str(e.get("error"))[:60] for e in log if e.get("error"))
        out.append({"ep": meta_p.parent.name[:11], "termination": meta.get("termination"),
                    "rate_limited": meta.get("rate_limited"), "logged": len(log),
                    "names": dict(names.most_common(9)), "errors": dict(errs.most_common(4))})  # fmt: skip
    return out


def main() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    env = S.probe_env(control="p8-ctl", grading="p8-gr")
    urls = ["--env-url", f"http://127.0.0.1:{ENV_PORT}"]
    urls += ["--grading-url", f"http://127.0.0.1:{GRADING_PORT}"]
    fake = S.start_fake(Path(__file__).parent / "fake15.py", PORT, FAKE_LOGS)
    try:
        for sc in sys.argv[1:] or ["q_many1000", "q_odd_names"]:
            eps = WORK / f"eps-{sc}"
            subprocess_rm(eps)
            eps.mkdir(parents=True)
            with S.servers(ENV_PORT, GRADING_PORT, eps, env, WORK):
                r = S.model_eval(sc, port=PORT, store=WORK / f"{sc}.db", logdir=FAKE_LOGS,
                                 env=env, args=urls)  # fmt: skip
            r["bundles"] = bundles(eps)
            print(json.dumps(r), flush=True)
    finally:
        S.stop_all([fake])


def subprocess_rm(p: Path) -> None:
    import shutil

    shutil.rmtree(p, ignore_errors=True)


if __name__ == "__main__":
    main()
