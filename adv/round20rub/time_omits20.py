# ruff: noqa  (a probe script, not product code)
"""Thread CPU of order-status's `reply-omits-other-orders` per grade (references, seeds 0-2 of
every band): a first grade (the variant's forbidden list built), then two more (lists kept,
text caches warm). Run with main's src first on PYTHONPATH for before. Prints ms a grade."""
import time

from mcpgym_grading import _checks, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import replay

spent = {}
for k, fn in list(_checks.EVALUATORS.items()):
    def run(check, ctx, fn=fn):
        t = time.thread_time()
        try:
            return fn(check, ctx)
        finally:
            spent[check.name] = spent.get(check.name, 0) + time.thread_time() - t
    _checks.EVALUATORS[k] = run
bs = []
for b in ("easy", "medium", "hard", "expert"):
    for s in range(3):
        v = environment.variant("order-status", b, s)
        bs.append(replay(environment, "order-status", b, s, list(v.reference)))
for label in ("first", "again", "again"):
    spent.clear()
    for bd in bs:
        grade_bundle(bd, environment)
    print(label, {k: round(spent[k] * 1000 / len(bs), 3) for k in ("reply-omits-other-orders", "texts-reveal-no-other-customer", "reply-gives-tracking")}, "all checks", round(sum(spent.values()) * 1000 / len(bs), 2))
