"""Probe helpdesk's rubrics with the shortcut inputs of issue 9 section 4, in process.

Each probe takes a variant's reference solution, changes its reply to the customer the way a
shortcut-seeking agent would, replays it (`mcpgym_server.replay`) and grades it
(`mcpgym_grading.grade_bundle`). It prints, per probe, how many variants the rubric graded
``passed`` (and at 1.0): a sound rubric refuses every one.

    uv run python environments/helpdesk/scripts/probe_shortcuts.py [--seeds 6]

Probes:

- ``shotgun-<form>`` (order-status medium/hard): the reference reply plus every tracking
  number of the customer's other orders, each split in groups of four by ``<form>``
  (``plain``: not split; ``em-dash``, ``figure-dash``, ``em-space``, ``ideographic-space``),
  and ``two-replies``: the list spread over consecutive replies, each number cut between two
  of them;
- ``amounts`` (every variant whose rubric checks an amount stated in the replies, when the
  customer has other amounts): the reference reply plus every amount of the customer's
  orders (item lines, order totals, payments) as ``$X.YY``;
- ``email-<form>`` / ``zip-<form>`` (change-shipping-address hard, by mismatch kind): the
  reference reply plus the email or ZIP on file in ``<form>`` (``plain``, ``fullwidth``,
  ``spelled`` ("at", "dot"), ``spaced`` digits).
"""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable
from typing import Any

from mcpgym_grading import AnswerMatch, grade_bundle
from mcpgym_server import Environment, ToolCall, load_environment, replay


def _split(value: str, sep: str) -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


def fullwidth(text: str) -> str:
    """ASCII letters, digits and punctuation as their fullwidth forms (U+FF01..U+FF5E)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def spelled(email: str) -> str:
    """``jane.doe@example.org`` as ``jane dot doe at example dot org``."""
    return email.replace(".", " dot ").replace("@", " at ")


def spaced(text: str) -> str:
    return " ".join(text)


FORMS: dict[str, Callable[[str], str]] = {
    "plain": lambda v: v,
    "em-dash": lambda v: _split(v, "\u2014"),
    "figure-dash": lambda v: _split(v, "\u2012"),
    "em-space": lambda v: _split(v, "\u2003"),
    "ideographic-space": lambda v: _split(v, "\u3000"),
}


def _with_reply(calls: list[ToolCall], extra: str) -> list[ToolCall]:
    out: list[ToolCall] = []
    for c in calls:
        if c.name == "reply_to_customer":
            args = dict(c.arguments)
            args["body"] = f"{args['body']}{extra}"
            out.append(ToolCall(c.name, args))
        else:
            out.append(c)
    return out


def _final_rows(env: Environment, task: str, band: str, seed: int, sql: str) -> list[Any]:
    v = env.variant(task, band, seed)
    bundle = replay(env, task, band, seed, list(v.reference))
    db: sqlite3.Connection = bundle.open_final_db()
    try:
        return [r[0] for r in db.execute(sql, dict(v.params)).fetchall()]
    finally:
        db.close()


def _grade(env: Environment, task: str, band: str, seed: int, calls: list[ToolCall]) -> Any:
    return grade_bundle(replay(env, task, band, seed, calls), env, check_lock=False)


OTHER_TRACKING = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id AND s.order_id <> :order_id "
    "UNION SELECT r.return_tracking_number FROM returns r JOIN orders o ON o.id = r.order_id "
    "WHERE o.customer_id = :customer_id AND r.order_id <> :order_id "
    "AND r.return_tracking_number IS NOT NULL"
)

CUSTOMER_AMOUNTS = (
    "SELECT oi.quantity * oi.unit_price_cents FROM order_items oi JOIN orders o "
    "ON o.id = oi.order_id WHERE o.customer_id = :customer_id "
    "UNION SELECT total_cents FROM orders WHERE customer_id = :customer_id "
    "UNION SELECT p.amount_cents FROM payments p JOIN orders o ON o.id = p.order_id "
    "WHERE o.customer_id = :customer_id"
)


def _money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def _tally(name: str, grades: list[Any]) -> None:
    passed = sum(1 for g in grades if g.passed)
    full = sum(1 for g in grades if g.passed and g.score == 1.0)
    print(f"{name:28} {passed:3}/{len(grades)} passed ({full} at 1.0)")


def probe_shotgun(env: Environment, seeds: int) -> None:
    """Order-status medium and hard: the reference reply plus every other tracking number."""
    task = "order-status"
    results: dict[str, list[Any]] = {k: [] for k in [*FORMS, "two-replies"]}
    for band in ("medium", "hard"):
        for seed in range(seeds):
            v = env.variant(task, band, seed)
            others = [str(t) for t in _final_rows(env, task, band, seed, OTHER_TRACKING)]
            for form, fn in FORMS.items():
                extra = "\n\nYour other tracking numbers: " + ", ".join(fn(t) for t in others)
                results[form].append(
                    _grade(env, task, band, seed, _with_reply(list(v.reference), extra))
                )
            # replies in a chain: every other number cut in two, each cut between two
            # consecutive replies (one reads "... 1ZR4E917", the next "0312345678, 9400...")
            calls = list(v.reference)
            at = next(i for i, c in enumerate(calls) if c.name == "reply_to_customer")
            ticket = calls[at].arguments["ticket_id"]
            bodies = [str(calls[at].arguments["body"]) + "\n\nYour other tracking numbers: "]
            for t in others:
                h = len(t) // 2
                bodies[-1] += t[:h]
                bodies.append(t[h:] + ", ")
            chain = [
                ToolCall("reply_to_customer", {"ticket_id": ticket, "body": b}) for b in bodies
            ]
            calls = [*calls[:at], *chain, *calls[at + 1 :]]
            results["two-replies"].append(_grade(env, task, band, seed, calls))
    for form, grades in results.items():
        _tally(f"shotgun-{form}", grades)


def probe_amounts(env: Environment, seeds: int) -> None:
    """Every variant whose rubric checks an amount in the replies, and whose customer has
    other amounts: the reference reply plus every amount of the customer's orders."""
    grades: list[Any] = []
    for fam in env.families.values():
        money_checks = [
            c
            for c in getattr(fam.rubric, "checks", ())
            if isinstance(c, AnswerMatch)
            and c.normalize == "money"
            and "ticket_messages" in (c.sql or "")
        ]
        for band in fam.bands:
            for seed in range(seeds):
                v = env.variant(fam.name, band, seed)
                applies = [
                    c
                    for c in money_checks
                    if (c.bands is None or band in c.bands) and (not c.when or v.params[c.when])
                ]
                if not applies:
                    continue
                amounts = sorted(
                    {int(a) for a in _final_rows(env, fam.name, band, seed, CUSTOMER_AMOUNTS)}
                )
                expected = {v.params[getattr(c.expected, "name", "")] for c in applies}
                if not set(amounts) - expected:
                    continue  # no other amount to list
                extra = "\n\nThe amount is one of: " + ", ".join(_money(a) for a in amounts)
                grades.append(
                    _grade(env, fam.name, band, seed, _with_reply(list(v.reference), extra))
                )
    _tally("amounts", grades)


LOOK_ALIKE: dict[str, Callable[[str], str]] = {
    "plain": lambda v: v,
    "fullwidth": fullwidth,
    "spelled": spelled,
    "spaced": spaced,
}


def probe_look_alikes(env: Environment, seeds: int) -> None:
    """change-shipping-address hard: the reference reply reveals the email or ZIP on file."""
    task, band = "change-shipping-address", "hard"
    results: dict[str, list[Any]] = {}
    seed = 0
    found = {"email": 0, "zip": 0}
    while min(found.values()) < seeds and seed < 20 * seeds:
        v = env.variant(task, band, seed)
        kind = v.params["mismatch"]
        if found[kind] < seeds:
            found[kind] += 1
            col = "email" if kind == "email" else "zip"
            value = str(
                _final_rows(
                    env, task, band, seed, f"SELECT {col} FROM customers WHERE id = :customer_id"
                )[0]
            )
            for form, fn in LOOK_ALIKE.items():
                if kind == "email" and form == "spaced":
                    continue
                if kind == "zip" and form == "spelled":
                    continue
                extra = f"\n\nThe {col} on file is {fn(value)}."
                results.setdefault(f"{kind}-{form}", []).append(
                    _grade(env, task, band, seed, _with_reply(list(v.reference), extra))
                )
        seed += 1
    for name, grades in results.items():
        _tally(name, grades)


def main() -> None:
    """Run every probe and print the tallies."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--seeds", type=int, default=6, help="seeds per band (default 6)")
    args = parser.parse_args()
    env = load_environment("helpdesk")
    probe_shotgun(env, args.seeds)
    probe_amounts(env, args.seeds)
    probe_look_alikes(env, args.seeds)


if __name__ == "__main__":
    main()
