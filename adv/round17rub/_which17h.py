# ruff: noqa  (a probe script, not product code)
"""Which seeds pass: `uv run python adv/round17rub/_which17h.py FAMILY BANDS NSEEDS 'TEXT'`
(TEXT appended to the last reply, or prepended where it starts with `^`, `{n}` the record not acted on, `{own}` the one acted on);
prints the band+seed of each episode passed at 1.000 and, with -v, each failing check's
detail. Asserts nothing."""
import json
import sys

ARGS = [a for a in sys.argv[1:] if a != "-v"]
VERBOSE = "-v" in sys.argv
WIDTH = int(__import__("os").environ.get("W17", "600"))
sys.argv[1:] = ["1"]
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round16rub")
from _p16 import E, grade, mutate

fam, bands, nseeds, text = ARGS[0], ARGS[1].split(","), int(ARGS[2]), ARGS[3]
passed, failed = [], []
for band in bands:
    for seed in range(nseeds):
        v = E.variant(fam, band, seed)
        if text.startswith("^"):  # prepended to the last reply's body instead
            calls = list(v.reference)
            i = max(k for k, c in enumerate(calls) if c.name == "reply_to_customer")
            c = calls[i]
            calls[i] = type(c)(c.name, {**c.arguments, "body": text[1:].format(**v.params) + "\n\n" + c.arguments["body"]})
        else:
            calls = mutate(v, fam, "reply", text)
        if calls is None:
            continue
        g, _ = grade(E, v, calls)
        ok = g.passed and g.score >= 0.9999
        (passed if ok else failed).append(f"{band[:2]}{seed}")
        if VERBOSE and not ok:
            for c in g.checks:
                if c.passed is False:
                    print(f"  {band}{seed} {c.name}: {json.dumps(c.detail, default=str)[:WIDTH]}")
print(f"PASS {passed}\nfail {failed}")
