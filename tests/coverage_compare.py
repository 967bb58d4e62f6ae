#!/usr/bin/env python3
"""Compare two coverage JSON reports line by line: every line covered BEFORE must be covered
AFTER. Lines are matched through the source text (difflib), so edited or moved files compare
too; a file split into several maps onto their concatenation (SPLITS).

Usage (the JSON reports from ``pytest --cov=... --cov-report=json:FILE``, each run in its tree):

    python tests/coverage_compare.py BEFORE.json AFTER.json BEFORE_TREE AFTER_TREE
"""

import difflib
import json
import sys
from pathlib import Path

before_json, after_json, before_root, after_root = sys.argv[1:5]
B = json.load(open(before_json))["files"]
A = json.load(open(after_json))["files"]
FAM = "environments/helpdesk/src/mcpgym_helpdesk/families/"
LEDGER = "environments/ledger/src/mcpgym_ledger/families/"
GRADING = "grading/src/mcpgym_grading/"
INSTRUMENT = "clients/src/mcpgym_clients/instrument/"
SPLITS = {
    FAM + "_common.py": [
        FAM + m
        for m in (
            "_store.py",
            "_queries.py",
            "_wording.py",
            "_scenario.py",
            "_replies.py",
            "_checks.py",
        )
    ],
    LEDGER + "_common.py": [
        LEDGER + m for m in ("_common.py", "_checks.py", "_notes.py", "_past_books.py")
    ],
    # stop 21
    GRADING + "_checks.py": [
        GRADING + m for m in ("_checks.py", "_check_context.py", "_answer_check.py")
    ],
    INSTRUMENT + "adversarial.py": [
        INSTRUMENT + m for m in ("adversarial.py", "_adversary.py", "_adv_findings.py")
    ],
    FAM + "_replies.py": [
        FAM + m
        for m in (
            "_replies.py",
            "_reply_sql.py",
            "_reply_amounts.py",
            "_reply_carrier.py",
            "_reply_decisions.py",
        )
    ],
    # stop 22
    GRADING + "_decisions.py": [
        GRADING + m
        for m in (
            "_decision_forms.py",
            "_decision_scopes.py",
            "_decision_stems.py",
            "_decisions.py",
        )
    ],
}
"""A file split into several (each a path in the tree): BEFORE's lines are looked for in the
concatenation of the parts. A part that is split again later is replaced by its own parts
when AFTER has them all (`parts`), so a comparison across both splits maps through both."""


def parts(rel):
    """The files of AFTER that hold what ``rel`` held: its split's parts, each resolved in
    turn; ``[rel]`` when it was not split, or when AFTER lacks a part but has ``rel`` (both
    trees before the split)."""
    if rel not in SPLITS:
        return [rel]
    out = [p for t in SPLITS[rel] for p in ([t] if t == rel else parts(t))]
    return [rel] if rel in A and not all(t in A for t in out) else out


def lines(root, rel):
    return (Path(root) / rel).read_text().splitlines()


lost_total = 0
checked = 0
for rel, info in sorted(B.items()):
    covered_before = set(info["executed_lines"])
    targets = parts(rel)
    if not all(t in A for t in targets):
        missing = [t for t in targets if t not in A]
        print(f"GONE {rel}: {len(covered_before)} covered lines; after has no {missing}")
        lost_total += len(covered_before)
        continue
    old = lines(before_root, rel)
    new, owner = [], []
    for t in targets:
        tl = lines(after_root, t)
        new += tl
        owner += [(t, i + 1) for i in range(len(tl))]
    covered_after = {(t, n) for t in targets for n in A[t]["executed_lines"]}
    statements_after = {
        (t, n) for t in targets for n in A[t]["executed_lines"] + A[t]["missing_lines"]
    }
    sm = difflib.SequenceMatcher(
        None, [x.strip() for x in old], [x.strip() for x in new], autojunk=False
    )
    lost = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        for i in range(i1, i2):
            if i + 1 not in covered_before:
                continue
            checked += 1
            if tag == "equal":
                o = owner[j1 + (i - i1)]
                if o in statements_after and o not in covered_after:
                    lost.append((i + 1, old[i].strip()))
                elif o not in statements_after:
                    # not a statement any more (a continuation line): fine
                    pass
            elif tag == "replace":
                block = [owner[j] for j in range(j1, j2) if owner[j] in statements_after]
                if block and not any(b in covered_after for b in block):
                    lost.append((i + 1, old[i].strip()))
                continue
            else:  # delete / insert-side mismatch: a line moved (split files) or removed
                text = old[i].strip()
                spots = [owner[j] for j, x in enumerate(new) if x.strip() == text]
                if spots and any(o in covered_after or o not in statements_after for o in spots):
                    continue  # moved, and covered where it went
                lost.append((i + 1, "(deleted) " + text))
    deleted = [x for x in lost if x[1].startswith("(deleted)")]
    real = [x for x in lost if not x[1].startswith("(deleted)")]
    if real or deleted:
        print(
            f"{rel}: {len(real)} covered lines now uncovered, "
            f"{len(deleted)} covered lines deleted from the source"
        )
        for n, t in (real + deleted)[:12]:
            print(f"    line {n}: {t[:100]}")
    lost_total += len(real)
new_files = sorted(set(A) - set(B) - {t for ts in SPLITS.values() for t in ts})
print(f"\nchecked {checked} lines covered before; {lost_total} of them uncovered after")
print("files only after:", new_files)
tb = json.load(open(before_json))["totals"]
ta = json.load(open(after_json))["totals"]
print(f"totals before: {tb['covered_lines']}/{tb['num_statements']} ({tb['percent_covered']:.2f}%)")
print(f"totals after:  {ta['covered_lines']}/{ta['num_statements']} ({ta['percent_covered']:.2f}%)")
