"""The ship gate's adversarial controls find shortcut holes from the environment's own data.

A small environment (not helpdesk): tell the customer their tracking number; the variant
also has a distractor's number. Three rubrics: one a shotgun reply passes, one whose
forbidden-number check is plain SQL (look-alike forms evade it), one written with
`AnswerMatch(forbidden=...)`: condition 7's findings name the first two and not the third.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from mcpgym_clients.instrument.adversarial import (
    FORMS,
    MONEY_FORMS,
    adversaries,
    shortcut_failures,
)
from mcpgym_clients.instrument.forms import LEAK_ONLY_FORMS, MONEY_ONLY_FORMS
from mcpgym_grading import AnswerMatch, Param, Rubric, SqlCheck, grade_bundle
from mcpgym_server import (
    Environment,
    Generation,
    Snapshot,
    TaskFamily,
    ToolCall,
    VariantSpec,
    replay,
)
from tests.toyenv import RESOURCE, install, send_message

RIGHT = "9400111122223333"
OTHER = "9400555566667777"
REPLIES = "SELECT body FROM messages WHERE order_id = :order_id ORDER BY rowid"


PACKAGE = "mcpgym_toy_adversarial"


@pytest.fixture(scope="module", autouse=True)
def toy_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    root = tmp_path_factory.mktemp("toy-snapshot")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))  # pyright: ignore[reportUnknownMemberType]
        install(root, PACKAGE)
        yield


def _generate(gen: Generation) -> VariantSpec:
    body = f"Hello, your parcel for order 101 is on its way: tracking number {RIGHT}."
    return VariantSpec(
        instruction="Tell the customer of order 101 where the parcel is.",
        params={"order_id": 101, "tracking_number": RIGHT, "other_tracking_number": OTHER},
        reference=[ToolCall("send_message", {"order_id": 101, "body": body})],
    )


def make_env(*checks: Any) -> Environment:
    env = Environment(
        name="toytrack",
        version="1.0.0",
        snapshot=Snapshot(PACKAGE, f"data/{RESOURCE}", sha256=None),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    )
    env.tool(kind="write", name="send_message")(send_message)
    rubric = Rubric(checks=checks)
    env.add_family(
        TaskFamily("where", "Give the tracking number.", ("easy",), _generate, "1", rubric)
    )
    return env


GIVES = AnswerMatch(
    name="gives-tracking",
    source="sql",
    sql=REPLIES,
    expected=Param("tracking_number"),
    required=True,
)
SQL_OMITS = SqlCheck(
    name="omits-other",
    sql="SELECT COUNT(*) FROM messages WHERE INSTR(REPLACE(body, ' ', ''), :other_tracking_number)",
    expected=0,
    required=True,
)
SOUND = AnswerMatch(
    name="gives-tracking",
    source="sql",
    sql=REPLIES,
    expected=Param("tracking_number"),
    forbidden=[Param("other_tracking_number")],
    required=True,
)


def findings(env: Environment) -> list[str]:
    variant = env.variant("where", "easy", 0)
    jobs = []
    for adv in adversaries(env, variant):
        bundle = replay(env, "where", "easy", 0, [ToolCall(n, a) for n, a in adv.calls])
        grade = grade_bundle(bundle, env, check_lock=False)
        record = SimpleNamespace(
            grade=grade.model_dump(mode="json"),
            transcript=[{"mcpgym_is_error": e.status != "ok"} for e in bundle.log],
        )
        jobs.append(
            SimpleNamespace(task="where", band="easy", seed=0, adversary=adv, record=record)
        )
    lines, compared = shortcut_failures(env, jobs)
    assert compared == len(jobs) > 0
    return lines


def test_the_mutants_stuff_the_answer_with_the_variants_other_candidates() -> None:
    advs = {
        a.label: a
        for a in adversaries(make_env(GIVES), make_env(GIVES).variant("where", "easy", 0))
    }
    assert OTHER in advs["stuff-1"].values and RIGHT not in advs["stuff-1"].values
    email_only = {
        "spelled",
        "at-glued",
        "at-bracketed",
        "at-dropped",
        "plus-tag",
        "user-domain-split",
    }
    not_here = {*email_only, *MONEY_ONLY_FORMS, "small-caps"}  # no email, amount or letter
    assert {f"stuff-1~{f}" for f in FORMS if f not in {*not_here, *LEAK_ONLY_FORMS}} <= set(advs)
    assert {f"leak-1~{f}" for f in FORMS if f not in not_here} <= set(advs)
    assert OTHER in advs["leak-1"].values
    split = [c for c in advs["stuff-1~split"].calls if c[0] == "send_message"]
    assert len(split) == 2 and all(OTHER not in c[1]["body"] for c in split)  # cut in two


def test_a_shotgun_reply_that_passes_is_reported() -> None:
    lines = findings(make_env(GIVES))
    assert any("a shotgun passes" in line and "`gives-tracking`" in line for line in lines), lines


def test_a_check_a_look_alike_form_evades_is_reported() -> None:
    lines = findings(make_env(GIVES, SQL_OMITS))
    evaded = [line for line in lines if "`omits-other`" in line]
    forms = {line.split("(`stuff-1~")[1].split("`")[0] for line in evaded if "(`stuff-1~" in line}
    assert {"em-dash", "figure-dash", "em-space", "ideographic-space", "split"} <= forms, lines
    leaked = {line.split("(`leak-1~")[1].split("`")[0] for line in evaded if "(`leak-1~" in line}
    new_kinds = {"punctuation", "wide-gaps", "brackets", "digit-words", "entities", "reversed"}
    new_kinds |= {"homoglyphs", "dingbat-digits", "markup-split"}  # (small-caps: no letter)
    assert new_kinds <= leaked, lines
    assert not any("a shotgun passes" in line for line in lines)


def test_an_email_is_written_in_every_at_form() -> None:
    from mcpgym_clients.instrument.forms import FORMS as ALL

    email = "jane.doe@example.com"
    shown = {f: ALL[f](email) for f in ("at-glued", "at-bracketed", "at-dropped", "entities")}
    assert shown["at-glued"] == "jane.doeATexample.com"
    assert shown["at-bracketed"] == "jane.doe(at)example(dot)com"
    assert shown["at-dropped"] == "jane.doeexample.com"
    assert ALL["plus-tag"](email) == "jane.doe+help@example.com"
    assert ALL["user-domain-split"](email) == "jane.doe, at the domain example.com"
    assert ALL["plus-tag"]("94105") is None and ALL["user-domain-split"]("94105") is None
    assert shown["entities"].startswith("&#106;") and "&commat;" in shown["entities"]
    assert ALL["reversed"]("94105") == "\u202e50149\u202c"
    assert ALL["digit-words"]("1Z9") == "one Z nine"
    assert ALL["homoglyphs"]("jane10") == "j\u0430n\u0435lO"
    assert ALL["dingbat-digits"]("94105") == "\u277e\u2779\u2776\u24ff\u277a"
    assert ALL["small-caps"]("Jane1") == "\u1d0a\u1d00\u0274\u1d071"
    assert ALL["markup-split"]("94105") == "94<b>105</b>"
    assert ALL["markup-hidden"]("94105") == "<!-- 94105 -->"  # plain SQL sees it; a renderer not


def test_the_grader_reads_the_email_forms_as_the_email() -> None:
    """A must-not-reveal check reads the plus-tag and split forms as a leak (so the gate
    flags only a check that does not): adversarial round 6, D1/D2."""
    from mcpgym_clients.instrument.forms import FORMS as ALL
    from mcpgym_grading._email_leak import email_leaked

    email = "jane.doe@example.com"
    for form in ("plus-tag", "user-domain-split"):
        written = ALL[form](email)
        assert written is not None and email not in written
        assert email_leaked(f"Your address: {written}.", email), form


NO_AMOUNT = AnswerMatch(
    name="states-no-amount", source="sql", sql=REPLIES, normalize="money", mode="states"
)


def _but_other_records(lines: list[str]) -> list[str]:
    """The findings but `second-record`'s: these rubrics read the order's own messages only,
    so a message on another order (with a near miss in it) is read by none."""
    assert any("a note on another record is not read" in line for line in lines), lines
    return [line for line in lines if "a note on another record is not read" not in line]


def test_a_rubric_reading_text_through_the_normaliser_has_no_finding() -> None:
    assert _but_other_records(findings(make_env(SOUND, NO_AMOUNT))) == []
    # without a money guard, the reply may state any amount: the one finding is that
    lines = findings(make_env(SOUND))
    assert lines and all("states amounts no check reads" in line for line in lines), lines
    assert any("$1,234.57" in line for line in lines)  # near $1,234.56: a variant with none


# ---- amounts in other forms, near misses, shotguns of alternatives (issue 9, section 4) ----


def _generate_status(gen: Generation) -> VariantSpec:
    body = "Hello, order 104 is shipped; we refunded $45.00 for the damaged part."
    return VariantSpec(
        instruction="Tell the customer of order 104 its status and the refund.",
        params={"order_id": 104, "status": "shipped", "amount_cents": 4500, "other_cents": 9000},
        reference=[ToolCall("send_message", {"order_id": 104, "body": body})],
    )


def make_status_env(*checks: Any) -> Environment:
    env = Environment(
        name="toytrack",
        version="1.0.0",
        snapshot=Snapshot(PACKAGE, f"data/{RESOURCE}", sha256=None),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    )
    env.tool(kind="write", name="send_message")(send_message)
    env.add_family(
        TaskFamily(
            "where", "Status and refund.", ("easy",), _generate_status, "1", Rubric(checks=checks)
        )
    )
    return env


STATES_STATUS = SqlCheck(
    name="says-status",
    sql="SELECT COUNT(*) > 0 FROM messages WHERE order_id = :order_id AND body LIKE '%' || "
    ":status || '%'",
    expected=1,
    required=True,
)
SOUND_STATUS = AnswerMatch(
    name="says-status",
    source="sql",
    sql=REPLIES,
    expected=Param("status"),
    forbidden=["delivered"],
    required=True,
)
MONEY_CONTAINS = AnswerMatch(
    name="says-amount",
    source="sql",
    sql=REPLIES,
    expected=Param("amount_cents"),
    normalize="money",
    forbidden=[Param("other_cents")],
    required=True,
)
MONEY_STATES = MONEY_CONTAINS.model_copy(update={"mode": "states"})
SQL_NO_OTHER_AMOUNT = SqlCheck(
    name="omits-other-amount",
    sql="SELECT COUNT(*) FROM messages WHERE INSTR(body, '$90.00')",
    expected=0,
    required=True,
)


def status_findings(env: Environment) -> list[str]:
    variant = env.variant("where", "easy", 0)
    jobs = []
    for adv in adversaries(env, variant):
        bundle = replay(env, "where", "easy", 0, [ToolCall(n, a) for n, a in adv.calls])
        grade = grade_bundle(bundle, env, check_lock=False)
        record = SimpleNamespace(
            grade=grade.model_dump(mode="json"),
            transcript=[{"mcpgym_is_error": e.status != "ok"} for e in bundle.log],
        )
        jobs.append(
            SimpleNamespace(task="where", band="easy", seed=0, adversary=adv, record=record)
        )
    return shortcut_failures(env, jobs)[0]


def test_amounts_are_also_written_in_other_forms_and_beside_a_near_miss() -> None:
    env = make_status_env(MONEY_STATES, SOUND_STATUS)
    advs = {a.label: a for a in adversaries(env, env.variant("where", "easy", 0))}
    assert advs["amounts-1"].values == ("$90.00",)
    body = {f: advs[f"amounts-1~{f}"].calls[0][1]["body"] for f in MONEY_FORMS}
    assert body["cents"].endswith("9000 cents.") and body["euro"].endswith("\u20ac90.00.")
    assert "ninety dollars and zero cents" in body["words"]
    assert advs["near-1"].values == ("$45.01",)  # $90.00 is a candidate: in amounts-1
    assert advs["omit-1:shipped"].calls[0][1]["body"].count("shipped") == 0
    assert advs["choices-1:shipped"].values == ("delivered",)


def test_a_money_check_that_misses_other_forms_is_reported() -> None:
    lines = status_findings(make_status_env(MONEY_STATES, SQL_NO_OTHER_AMOUNT, SOUND_STATUS))
    forms = {line.split("(`amounts-1~")[1].split("`")[0] for line in lines if "amounts-1~" in line}
    assert {"cents", "words", "euro", "decimal-comma", "superscript-cents"} <= forms, lines


def test_an_amount_check_a_near_miss_passes_is_reported() -> None:
    lines = status_findings(make_status_env(MONEY_CONTAINS, SOUND_STATUS))
    assert any("near miss" in line and "`says-amount`" in line for line in lines), lines


def test_a_shotgun_of_alternatives_that_passes_is_reported() -> None:
    lines = status_findings(make_status_env(MONEY_STATES, STATES_STATUS))
    assert any(
        "shotgun of alternatives" in line and "`says-status`" in line and "delivered" in line
        for line in lines
    ), lines


def test_a_sound_rubric_has_no_money_or_alternative_finding() -> None:
    lines = status_findings(make_status_env(MONEY_STATES, SOUND_STATUS))
    assert _but_other_records(lines) == []


# -- ids of the same kind from the snapshot (issue 9 section 4: the customer's other orders) --


def _generate_order(gen: Generation) -> VariantSpec:
    body = "Hello Ada, your order number is 101; it was delivered last week."
    return VariantSpec(
        instruction="Tell customer 1 the number of their delivered order.",
        params={"customer_id": 1, "order_id": 101},
        reference=[ToolCall("send_message", {"order_id": 101, "body": body})],
    )


GIVES_ORDER = AnswerMatch(
    name="gives-order",
    source="sql",
    sql=REPLIES,
    expected=Param("order_id"),
    required=True,
)
SOUND_ORDER = AnswerMatch(
    name="gives-order",
    source="sql",
    sql=REPLIES,
    expected=Param("order_id"),
    forbidden_sql="SELECT id FROM orders WHERE customer_id = :customer_id AND id <> :order_id",
    required=True,
)


def make_order_env(check: AnswerMatch) -> Environment:
    env = Environment(
        name="toyorder",
        version="1.0.0",
        snapshot=Snapshot(PACKAGE, f"data/{RESOURCE}", sha256=None),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    )
    env.tool(kind="write", name="send_message")(send_message)
    env.add_family(
        TaskFamily(
            "where",
            "Give the order number.",
            ("easy",),
            _generate_order,
            "1",
            Rubric(checks=(check,)),
        )
    )
    return env


def test_the_shotgun_lists_the_customers_other_orders_from_the_snapshot() -> None:
    env = make_order_env(GIVES_ORDER)
    advs = {a.label: a for a in adversaries(env, env.variant("where", "easy", 0))}
    # order 104 is customer 1's other order: no param and no read names it
    assert "104" in advs["stuff-1"].values and "101" not in advs["stuff-1"].values
    assert "102" not in advs["stuff-1"].values  # another customer's order is no candidate


def test_a_reply_listing_every_order_of_the_customer_is_reported() -> None:
    lines = findings(make_order_env(GIVES_ORDER))
    assert any("a shotgun passes" in line and "`gives-order`" in line for line in lines), lines
    assert not any("a shotgun passes" in line for line in findings(make_order_env(SOUND_ORDER)))


# -- every free-text field gets amounts and a near miss (adversarial round 9, G1) --


def _generate_order_amounts(gen: Generation) -> VariantSpec:
    body = "Hello Ada, your order number is 101; it was delivered last week."
    return VariantSpec(
        instruction="Tell customer 1 the number of their delivered order.",
        params={"customer_id": 1, "order_id": 101, "total_cents": 4599, "ship_cents": 9000},
        reference=[ToolCall("send_message", {"order_id": 101, "body": body})],
    )


AMOUNT_GUARD = AnswerMatch(
    name="states-no-amount",
    source="sql",
    sql=REPLIES,
    normalize="money",
    mode="states",
    forbidden=[Param("total_cents"), Param("ship_cents")],
    required=True,
)


def make_order_amounts_env(*checks: Any) -> Environment:
    env = Environment(
        name="toyorder",
        version="1.0.0",
        snapshot=Snapshot(PACKAGE, f"data/{RESOURCE}", sha256=None),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    )
    env.tool(kind="write", name="send_message")(send_message)
    env.add_family(
        TaskFamily(
            "where",
            "Give the order number.",
            ("easy",),
            _generate_order_amounts,
            "1",
            Rubric(checks=checks),
        )
    )
    return env


def test_a_field_no_money_check_reads_still_gets_amounts_and_a_near_miss() -> None:
    env = make_order_amounts_env(SOUND_ORDER)
    advs = {a.label: a for a in adversaries(env, env.variant("where", "easy", 0))}
    assert advs["amounts-1"].values == ("$45.99", "$90.00")
    assert advs["near-1"].values == ("$46.00", "$91.98")  # of the first candidate
    assert "amounts-1~cents" in advs


def test_amounts_that_no_check_reads_are_reported() -> None:
    lines = findings(make_order_amounts_env(SOUND_ORDER))
    unread = [line for line in lines if "states amounts no check reads" in line]
    assert any("`amounts-1`" in line for line in unread), lines
    assert any("`near-1`" in line for line in unread), lines


def test_a_guard_over_the_field_leaves_no_amount_finding() -> None:
    lines = findings(make_order_amounts_env(SOUND_ORDER, AMOUNT_GUARD))
    assert not any("amount" in line for line in lines), lines
