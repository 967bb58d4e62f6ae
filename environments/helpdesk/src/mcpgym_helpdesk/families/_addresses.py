"""Addresses for family `change-shipping-address`: the places and streets its generator draws
new addresses from, the text the customer writes them in, and the normalised row
`ADDRESS_SQL` compares (USPS Publication 28 abbreviations)."""

from __future__ import annotations

from typing import Any

from mcpgym_server import Generation

PLACES = (
    ("Boulder", "CO", ("80301", "80302", "80304")),
    ("Golden", "CO", ("80401", "80403")),
    ("Missoula", "MT", ("59801", "59802")),
    ("Spokane", "WA", ("99201", "99203", "99205")),
    ("Eugene", "OR", ("97401", "97403", "97405")),
    ("Ogden", "UT", ("84401", "84403")),
    ("Durango", "CO", ("81301", "81303")),
    ("Bellingham", "WA", ("98225", "98226")),
    ("Ithaca", "NY", ("14850",)),
    ("Knoxville", "TN", ("37902", "37916", "37919")),
    ("Burlington", "VT", ("05401", "05408")),
    ("Duluth", "MN", ("55802", "55805")),
    ("Tucson", "AZ", ("85701", "85705", "85719")),
    ("Lander", "WY", ("82520",)),
)
STREETS = (
    "Alpenglow",
    "Basalt",
    "Cottonwood",
    "Dogwood",
    "Fireweed",
    "Hemlock",
    "Ironwood",
    "Kestrel",
    "Lupine",
    "Marmot",
    "Osprey",
    "Ptarmigan",
    "Saddle",
    "Tamarack",
    "Yarrow",
)
SUFFIXES = ("Street", "Avenue", "Road", "Drive", "Lane", "Court", "Way")
UNITS = ("Apt 2B", "Apt 14", "Unit 3", "Unit 101", "#6")
SHIPPING_COLUMNS = (
    "shipping_line1",
    "shipping_line2",
    "shipping_city",
    "shipping_state",
    "shipping_zip",
    "shipping_country",
)
STREET_ABBREVIATIONS = {
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "boulevard": "blvd",
    "terrace": "ter",
    "circle": "cir",
    "parkway": "pkwy",
    "highway": "hwy",
    "apartment": "apt",
    "suite": "ste",
}
"""Street suffixes and unit words as the USPS standard abbreviations (Publication 28,
appendices C1 and C2) that `ADDRESS_SQL` compares: "3787 Dogwood Lane" and "3787 Dogwood
Ln." are the same deliverable address (adversarial round 9, F3)."""


def _abbreviated(expr: str) -> str:
    """SQL: the space-padded street text ``expr`` with each whole word of
    `STREET_ABBREVIATIONS` replaced by its abbreviation, trimmed."""
    padded = f"(' ' || {expr} || ' ')"
    for word, abbr in STREET_ABBREVIATIONS.items():
        padded = f"REPLACE({padded}, ' {word} ', ' {abbr} ')"
    return f"TRIM({padded})"


ADDRESS_SQL = (
    "SELECT "
    + _abbreviated(
        "TRIM(REPLACE(REPLACE(REPLACE(LOWER(TRIM(shipping_line1) || ' ' || "
        "COALESCE(TRIM(shipping_line2), '')), ',', ' '), '.', ''), '  ', ' '))"
    )
    + ", LOWER(TRIM(shipping_city)), UPPER(TRIM(shipping_state)), "
    "SUBSTR(TRIM(shipping_zip), 1, 5), UPPER(shipping_country) FROM orders WHERE id = :order_id"
)
"""The order's shipping address, normalised: street lines joined (so "Apt 2B" may be given as
line 2 or after a comma in line 1), lowercased, commas and periods dropped, street suffixes and
unit words abbreviated as USPS does (`STREET_ABBREVIATIONS`)."""


def new_address(g: Generation, order: dict[str, Any], billing_zip: str) -> dict[str, Any]:
    rng = g.rng
    while True:
        city, state, zips = PLACES[rng.randrange(len(PLACES))]
        zip_ = zips[rng.randrange(len(zips))]
        if zip_ != billing_zip and zip_ != order["shipping_zip"]:
            break
    return {
        "line1": f"{rng.randint(12, 4980)} {rng.choice(STREETS)} {rng.choice(SUFFIXES)}",
        "line2": rng.choice(UNITS) if rng.random() < 0.35 else None,
        "city": city,
        "state": state,
        "zip": zip_,
    }


def address_text(a: dict[str, Any]) -> str:
    unit = f", {a['line2']}" if a["line2"] else ""
    return f"{a['line1']}{unit}, {a['city']}, {a['state']} {a['zip']}"


def address_row(line1: str, line2: str | None, city: str, state: str, zip_: str) -> list[Any]:
    """The row `ADDRESS_SQL` returns for this address."""
    street = f"{line1.strip()} {(line2 or '').strip()}".lower()
    street = f" {street.replace(',', ' ').replace('.', '').replace('  ', ' ').strip()} "
    for word, abbr in STREET_ABBREVIATIONS.items():
        street = street.replace(f" {word} ", f" {abbr} ")
    street = street.strip()
    return [street, city.strip().lower(), state.strip().upper(), zip_.strip()[:5], "US"]
