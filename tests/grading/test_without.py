"""``mcpgym_without`` with a value: only the value's mention bound to a return cue is
dropped; the rest of the sentence, and a reference back to the carrier, are read
(adversarial round 7, R1/R2)."""

from __future__ import annotations

import sqlite3

import pytest

from mcpgym_grading._values import register_sql_functions
from mcpgym_grading._without import sql_without, sql_without_bound

DROP = "return label,return shipping,send it back,ship it back,send back,returns"
KEEP = "ships,shipped,shipping with,is with,sent with,on its way,tracking,carrier"


def _dropped(text: str, value: str) -> bool:
    """Whether ``value``'s mention in ``text`` was dropped as a return label's."""
    out = sql_without_bound(text, DROP, KEEP, value)
    assert out is not None
    return value.split()[0] not in out.casefold()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("If you ever need to send it back, we email a prepaid USPS return label.", "usps"),
        ("If you need to return the order, we email a prepaid FedEx return label.", "fedex"),
        ("Returns go through the post office: we email a prepaid return label.", "post office"),
        ("We email a free DHL return label if you need to send it back.", "dhl"),
        ("For returns, we use FedEx.", "fedex"),
        ("FedEx handles returns.", "fedex"),
        ("Return label: FedEx (prepaid).", "fedex"),
        ("You may send it back with our prepaid F e d E x return label.", "fedex"),
        ("We also include a FedEx Ground return label.", "fedex"),
        ("If you want a refund or an exchange, use the prepaid DHL return label.", "dhl"),
        ("We email a prepaid USPS return label. They are free.", "usps"),
    ],
)
def test_a_return_labels_own_carrier_is_dropped(text: str, value: str) -> None:
    assert _dropped(text, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a reference back to the carrier: a claim about where the parcel is
        ("Return label is FedEx; the parcel could be with them as well.", "fedex"),
        ("Return label is FedEx. The parcel could be with them as well.", "fedex"),
        ("Return label: FedEx, and it may ship with them too.", "fedex"),
        ("We email a FedEx return label; it may ship with them.", "fedex"),
        ("Use a FedEx return label - the order may be with that carrier too.", "fedex"),
        ("Return label is FedEx, the parcel too.", "fedex"),
        ("We email a FedEx return label. They may have it too.", "fedex"),
        # an alternative beside the return label's carrier
        ("We email a prepaid USPS return label, or FedEx.", "fedex"),
        ("We email a USPS return label (or FedEx).", "fedex"),
        ("Return shipping is via FedEx or the post office.", "fedex"),
        ("Return shipping is via FedEx or the post office.", "post office"),
        # not the cue's own word
        ("The package could be with FedEx for returns.", "fedex"),
        ("We email a FedEx DHL UPS USPS return label.", "fedex"),
        ("We email a FedEx DHL UPS USPS return label.", "dhl"),
        ("We email a FedEx/USPS return label.", "fedex"),
        ("It ships with UPS, or FedEx for returns.", "fedex"),  # a keep cue
        # the value starts another claim
        ("Return label, DHL has the parcel.", "dhl"),
        ("Return label is DHL, who has the parcel too.", "dhl"),
        ("The parcel: FedEx, return label attached.", "fedex"),
        ("The parcel sits with FedEx, send it back with USPS.", "fedex"),
    ],
)
def test_another_claim_keeps_the_mention(text: str, value: str) -> None:
    assert not _dropped(text, value)


def test_only_the_bound_mention_goes() -> None:
    text = "We email a USPS return label; it ships with UPS. USPS tracking: 9400."
    out = sql_without_bound(text, DROP, KEEP, "usps")
    assert out is not None and out.casefold().count("usps") == 1
    # the rest of a return sentence is read
    out = sql_without_bound("We email a USPS return label, DHL has the parcel.", DROP, KEEP, "dhl")
    assert out is not None and "DHL" in out


def test_nulls_and_texts_without_cues() -> None:
    assert sql_without_bound(None, DROP, KEEP, "usps") is None
    assert sql_without_bound("It is with UPS.", DROP, KEEP, "ups") == "It is with UPS."
    assert sql_without_bound("a USPS return label", DROP, KEEP, None) == "a USPS return label"
    assert sql_without(None, DROP, KEEP) is None


def test_both_arities_are_sql_functions() -> None:
    db = sqlite3.connect(":memory:")
    register_sql_functions(db)
    text = "We email a USPS return label, or FedEx."
    three = db.execute("SELECT mcpgym_without(?, ?, ?)", (text, DROP, KEEP)).fetchone()[0]
    assert three == ""  # the whole sentence goes
    four = db.execute("SELECT mcpgym_without(?, ?, ?, 'fedex')", (text, DROP, KEEP)).fetchone()
    assert "FedEx" in four[0]
