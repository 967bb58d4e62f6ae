"""Condition 7's look-alike rows in process, for one variant: every `choices-*` mutant of
the variant (`mcpgym_clients.instrument.adversarial.adversaries`) graded plainly and in each
look-alike form; prints each form whose result on CHECK differs from its plain form's.

Usage: ``uv run python adv/round14rub/choices_forms14.py ENV FAMILY BAND SEED CHECK
[LABEL,...]`` (LABELs: print those mutants' texts). Stop 24's gates found 44 such rows
(`choices-N~invisible`); after 2b4d98f this prints none for them. Asserts nothing.
"""

from __future__ import annotations

import json
import sys

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_server import ToolCall, load_environment, replay


def main() -> None:
    """Grade the variant's choices mutants plainly and in each form; print mismatches."""
    env_name, fam, band, seed, check = sys.argv[1:6]
    show = set(sys.argv[6].split(",")) if len(sys.argv) > 6 else set()
    env, cache = load_environment(env_name), ReferenceCache()
    variant = env.variant(fam, band, int(seed))
    results: dict[str, list[bool | None]] = {}
    for adv in adversaries(env, variant):
        if not adv.label.startswith("choices-"):
            continue
        calls = [ToolCall(n, a) for n, a in adv.calls]
        grade = grade_bundle(replay(env, fam, band, int(seed), calls), env, reference_cache=cache)
        results[adv.label] = [c.passed for c in grade.checks if c.name == check]
        if adv.label in show:
            for name, args in adv.calls:
                if "body" in args:
                    print("   ", name, json.dumps(args, ensure_ascii=False)[:700])
    for label, passed in results.items():
        plain = results.get(label.split("~")[0])
        if passed != plain:
            print("MISMATCH", label, passed, "plain", plain)
    print("mutants graded:", len(results))


if __name__ == "__main__":
    main()
