# ruff: noqa  (a probe script, not product code)
"""Thread CPU of order-status's `reply-omits-other-orders` in the first grade of each variant
(references, seeds 0-2 of every band, in order, one process): the first variant builds the
forbidden list's index, the others reuse it where `_find_many._layout` finds a close base
(omit30). Run with another src first on PYTHONPATH for before. Prints ms per variant."""
import time
from mcpgym_grading import _checks, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import replay
spent = {}
for k, fn in list(_checks.EVALUATORS.items()):
    def run(check, ctx, fn=fn):
        t = time.thread_time()
        try: return fn(check, ctx)
        finally: spent[check.name] = spent.get(check.name, 0) + time.thread_time() - t
    _checks.EVALUATORS[k] = run
bs = []
for b in ("easy", "medium", "hard", "expert"):
    for s in range(3):
        v = environment.variant("order-status", b, s)
        bs.append(replay(environment, "order-status", b, s, list(v.reference)))
out=[]
for bd in bs:
    spent.clear(); grade_bundle(bd, environment); out.append(round(spent["reply-omits-other-orders"]*1000,2))
print("first grade per variant (ms):", out, "median of 2nd..:", sorted(out[1:])[len(out[1:])//2])
