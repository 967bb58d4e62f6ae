# ruff: noqa  (a probe script, not product code)
"""Grade time of order-status's references (seeds 0-5, every band), N19a's larger forbidden
list against main's: `uv run python adv/round20rub/time_os20.py` (PYTHONPATH to main's src for
before). Prints ms per grade (the first grade of each variant, then a repeat)."""
import sys, time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h20 import E, grade, B

vs = [E.variant("order-status", b, s) for b in B for s in range(6)]
t0 = time.perf_counter()
for v in vs:
    grade(E, v, list(v.reference))
t1 = time.perf_counter()
for v in vs:
    grade(E, v, list(v.reference))
t2 = time.perf_counter()
print(f"first {1000 * (t1 - t0) / len(vs):.1f} ms/grade, again {1000 * (t2 - t1) / len(vs):.1f} ms/grade, n={len(vs)}")
