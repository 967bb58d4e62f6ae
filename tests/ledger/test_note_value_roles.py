"""The dates, accounts and accrual amounts a ledger note states stand in their roles (round
10's gate: the `swap-i-N` mutants of accrue-expense, closed-period-posting and
enter-vendor-bill expert passed every check).

Before this fix a note with the accrual's and the reversal's dates exchanged, the expense
account and 2100 exchanged, a line's amount and the total exchanged, the date asked for and
the posting date (2026-05-01) exchanged, or a bill's date and its posting date exchanged,
passed at 1.0: every value was an allowed one. Now `note-values-in-role`
(`_notes.notes_values_in_role`, `mcpgym_grading._value_roles`) fails each, and the
references and honest rewordings keep passing it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import pytest

from mcpgym_grading import AmountRole, AnswerMatch, Param, ReferenceCache, grade_bundle
from mcpgym_grading._roles import resolve_roles, role_outcome
from mcpgym_grading._values import resolve
from mcpgym_ledger import environment
from mcpgym_ledger.families._common import money
from mcpgym_ledger.families._note_roles import note_roles, role_amounts_sql
from mcpgym_ledger.families.accrue_expense import RUBRIC
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
SEEDS = (0, 1, 2)
CHECK = "note-values-in-role"
Note = Callable[[TaskVariant, str], str | None]


def graded(v: TaskVariant, note: Note) -> dict[str, bool] | None:
    """The reference with the first note on the variant's own record rewritten by ``note``
    (None: no such form for this variant), graded: {check: passed} of the applicable ones."""
    calls, done = [], False
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "add_note" and not done:
            body = note(v, args["body"])
            if body is None:
                return None
            args["body"], done = body, True
        calls.append(ToolCall(c.name, args))
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


def swap(body: str, a: str, b: str) -> str | None:
    if a == b:
        return None
    assert a in body and b in body, (a, b, body)
    return body.replace(a, "\0").replace(b, a).replace("\0", b)


def results(family: str, bands: tuple[str, ...], note: Note) -> list[dict[str, bool]]:
    got = [graded(environment.variant(family, b, s), note) for b in bands for s in SEEDS]
    out = [r for r in got if r is not None]
    assert out, "no variant had the form"
    return out


ALL = ("easy", "medium", "hard", "expert")


# accrue-expense -------------------------------------------------------------------------------


def _accounts(v: TaskVariant) -> list[str]:
    return [code for code, cents in v.params["accrual"] if cents > 0]


def _lines(v: TaskVariant) -> list[int]:
    return [cents for _code, cents in v.params["accrual"] if cents > 0]


SWAPS: dict[str, Note] = {
    "dates": lambda v, b: swap(b, "2026-05-31", "2026-06-01"),
    "expense-account-and-2100": lambda v, b: swap(b, _accounts(v)[0], "2100"),
    "two-expense-accounts": lambda v, b: (
        swap(b, _accounts(v)[0], _accounts(v)[1]) if len(_accounts(v)) > 1 else None
    ),
    "line-and-total": lambda v, b: swap(b, money(_lines(v)[0]), money(v.params["accrued_cents"])),
}


@pytest.mark.parametrize("name", SWAPS)
def test_accrual_note_with_two_values_swapped_fails(name: str) -> None:
    got = results("accrue-expense", ALL, SWAPS[name])
    assert all(not r[CHECK] for r in got), got


def _honest_itemised(v: TaskVariant, b: str) -> str:
    items = ", ".join(f"{money(c)} to {a}" for a, c in v.params["accrual"] if c > 0)
    return (
        f"Accrued May expenses on 2026-05-31 and reversed them on 2026-06-01: {items}; total "
        f"{money(v.params['accrued_cents'])} credited to 2100 Accrued Expenses."
        + (b[b.find(" Not accrued") :] if "Not accrued" in b else "")
    )


def _honest_reversal_first(v: TaskVariant, b: str) -> str:
    lines = "; ".join(f"{money(c)} debited to {a}" for a, c in v.params["accrual"] if c > 0)
    return (
        f"Reversal of the 2026-05-31 accrual is dated 2026-06-01. {lines}. Credited 2100 "
        f"with {money(v.params['accrued_cents'])} in all."
    )


@pytest.mark.parametrize(
    "note",
    [lambda v, b: b, _honest_itemised, _honest_reversal_first],
    ids=["reference", "itemised", "reversal-first"],
)
def test_accrual_note_honest_forms_pass(note: Note) -> None:
    got = results("accrue-expense", ALL, note)
    assert all(r[CHECK] and all(r.values()) for r in got), got


def test_accrual_roles_keep_the_dr_cr_paraphrase() -> None:
    # the round-10 paraphrase ("Dr 6300 $1,893.50; ... Cr 2100 $4,698.50"): its roles
    # stand (its "6300 $" is read as an amount by the money reader, FF2, fixed elsewhere)
    check = next(c for c in RUBRIC.checks if c.name == CHECK)
    assert isinstance(check, AnswerMatch)
    assert isinstance(check.roles, tuple) and any(isinstance(r, Param) for r in check.roles)
    assert any(isinstance(r, AmountRole) for r in check.roles)
    for band in ALL:
        v = environment.variant("accrue-expense", band, 0)
        x = money(v.params["accrued_cents"])
        lines = "; ".join(f"Dr {a} {money(c)}" for a, c in v.params["accrual"] if c > 0)
        text = (
            f"May accrual of {x} for expenses not yet billed, dated 2026-05-31 ({lines}; "
            f"Cr 2100 {x}). Reversed on 2026-06-01."
        )
        roles = resolve_roles(check.roles, v.params, resolve)
        ok, misplaced, _ = role_outcome(text, -1, roles)
        assert ok, (band, misplaced, text)


# closed-period-posting ------------------------------------------------------------------------


def _asked(v: TaskVariant) -> str:
    return str(v.params["issue_date"])


def test_closed_period_note_with_the_dates_swapped_fails() -> None:
    got = results("closed-period-posting", ALL, lambda v, b: swap(b, _asked(v), "2026-05-01"))
    assert all(not r[CHECK] for r in got), got


@pytest.mark.parametrize(
    "form",
    [
        "Requested date {d} falls in April 2026, which is closed. Posted on 2026-05-01 "
        "instead, the first day of the earliest open period; the entry belongs to April.",
        "Posted on 2026-05-01 (the first open day); the request was for {d}, in closed "
        "April, and it belongs to April 2026.",
        "{d} is in a closed period (April 2026), so this was posted on 2026-05-01.",
    ],
)
def test_closed_period_note_honest_forms_pass(form: str) -> None:
    got = results("closed-period-posting", ALL, lambda v, b: form.format(d=_asked(v)))
    assert all(r[CHECK] and all(r.values()) for r in got), got


# enter-vendor-bill expert ---------------------------------------------------------------------


def _bill_note(v: TaskVariant, b: str) -> str | None:
    return b if v.params["bill_date"] in b else None


def test_bill_note_with_its_date_and_posting_date_swapped_fails() -> None:
    got = results(
        "enter-vendor-bill",
        ("expert",),
        lambda v, b: swap(b, str(v.params["bill_date"]), "2026-05-01"),
    )
    assert all(not r[CHECK] for r in got), got


def test_bill_note_honest_forms_pass() -> None:
    def reworded(v: TaskVariant, b: str) -> str:
        return b[: b.find("Dated")] + (
            f"The bill is dated {v.params['bill_date']}, in closed April, so it was posted on "
            "2026-05-01 (first day of the earliest open period, per policy 2.2)."
        )

    for note in (lambda v, b: b, reworded):
        got = results("enter-vendor-bill", ("expert",), note)
        assert all(r[CHECK] and all(r.values()) for r in got), got


# the roles param ------------------------------------------------------------------------------


def test_text_roles_are_no_allowed_amounts() -> None:
    param = note_roles((4500, ("total",)), ("6600", ("dr",)), ("", ("x",)), (None, ("y",)))
    assert json.loads(param) == [[4500, ["total"]], ["6600", ["dr"]]]
    rows = sqlite3.connect(":memory:").execute(role_amounts_sql("r"), {"r": param}).fetchall()
    assert rows == [(4500,)]
