"""The check that a reply names the order's carrier and no other (moved out of `_replies`,
which re-exports its names).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcpgym_grading import SqlCheck
from mcpgym_helpdesk.families._reply_sql import AGENT_BODY

CARRIER_NAMES: dict[str, tuple[str, ...]] = {
    "UPS": (
        "ups",
        "united parcel service",
        "2nd day air",
        "second day air",
        "next day air",
        "3 day select",
    ),
    "FedEx": (
        "fedex",
        "fed ex",
        "federal express",
        "express saver",
        "2day",
        "priority overnight",
        "standard overnight",
        "first overnight",
    ),
    "USPS": (
        "usps",
        "postal service",
        "us mail",
        "priority mail",
        "first class mail",
        "ground advantage",
        "media mail",
        "post office",
    ),
    "DHL": ("dhl",),
}
"""How a reply may name each carrier (shipments.carrier), as whole words (`word_glob`): "U.S.
Postal Service" and "United States Postal Service" both contain "postal service", "U.S.P.S."
is "usps", "Fed-Ex" is "fed ex". A carrier's own service names ("Priority Mail", "2nd Day
Air", "Express Saver") and synonyms ("the post office") name it too."""

RETURN_CUES = "return label,return shipping,send it back,ship it back,send back,returns"
"""Phrases binding a carrier to a return, not to the order's shipment: the carrier next to
one ("we email a prepaid USPS return label") is no competing carrier; the rest of its
sentence is read ("..., or FedEx")."""
SHIPMENT_CUES = "ships,shipped,shipping with,is with,sent with,on its way,tracking,carrier"
"""Phrases that keep a sentence with a return cue in the reading: "it ships with UPS, or
USPS for returns" still names USPS for the shipment."""

AMBIGUOUS_CARRIER_NAMES = frozenset({"us mail"})
"""Names that also occur in plain speech ("let us mail you a label"): they count for the
right carrier, but do not make a reply name another carrier."""


def _words_sql(expr: str) -> str:
    """SQL turning a text into ``' word word ... '`` for `word_glob`: the canonical form of
    every answer check (``mcpgym_fold``: fullwidth letters, any space or dash, invisible
    characters folded; lower case), dots dropped (``U.S.`` is ``us``, ``U.S.P.S.`` is
    ``usps``), runs of up to 5 spaces collapsed, padded with spaces."""
    out = f"REPLACE(LOWER(mcpgym_fold({expr})), '.', '')"
    for _ in range(2):
        out = f"REPLACE({out}, '  ', ' ')"
    return f"(' ' || {out} || ' ')"


def word_glob(words: str) -> str:
    """A GLOB pattern finding ``words`` (lower case, space separated) as whole words in a text
    made by `_words_sql`: any one character that is not a letter or digit separates words
    (punctuation, any dash, any space such as NBSP), so "fed ex" matches "Fed-Ex"."""
    sep = "[^a-z0-9]"
    return f"*{sep}" + sep.join(words.split()) + f"{sep}*"


def _names_sql(names: Sequence[str]) -> str:
    return "(" + " OR ".join(f"m.t GLOB '{word_glob(w)}'" for w in names) + ")"


def _mentions_sql(names: Sequence[str], text: str = "m.b") -> str:
    """SQL: a reply (``m.b``) holds one of ``names`` as every answer check finds a value
    (``mcpgym_mentions``: ``D H L``, ``U/P/S``, ``F-e-d-E-x``, Cyrillic or small-capital
    look-alikes are the name)."""
    return "(" + " OR ".join(f"mcpgym_mentions({text}, '{w}') = 1" for w in names) + ")"


def reply_names_carrier(
    param: str = "carrier",
    *,
    order_param: str = "order_id",
    name: str = "reply-gives-carrier",
    weight: float = 1.0,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
    description: str = "",
) -> SqlCheck:
    """A reply to the customer names the carrier ``:param``, by its code or a common name
    (`CARRIER_NAMES`: "U.S. Postal Service", "Federal Express", "Fed Ex", ...), and no reply
    names a carrier that carries none of the order ``:order_param``'s shipments: a reply
    listing every carrier ("UPS, FedEx, USPS or DHL") names none of them. Both sides read the
    replies as every answer check does (``mcpgym_mentions``: spaced, split or look-alike
    letters are the name); the right carrier's name also counts as whole words of the
    folded text (`_words_sql`). A carrier's mention bound to a return cue (`RETURN_CUES`) in
    a sentence without a `SHIPMENT_CUES` phrase competes with none: it is the return label's
    carrier (``mcpgym_without`` with the name: "we email a prepaid USPS return label"). The
    rest of that sentence is read, and so is the mention where the reply refers back to a
    carrier: in "a USPS return label, or FedEx" and "Return label is FedEx; the parcel could
    be with them as well" FedEx competes."""
    cases = " ".join(
        f"WHEN '{carrier}' THEN ({_names_sql(words)} OR {_mentions_sql(words)})"
        for carrier, words in CARRIER_NAMES.items()
    )
    sep = "[^a-z0-9]"
    # competing carriers: each name outside the mentions bound to a return cue, a minus
    # glued in front read as a dash ("-2nd Day Air" names UPS all the same)
    others = " OR ".join(
        f"('{carrier}' NOT IN (SELECT carrier FROM own) AND ("
        + " OR ".join(
            f"mcpgym_mentions(REPLACE(mcpgym_without(m.b, '{RETURN_CUES}', "
            f"'{SHIPMENT_CUES}', '{w}'), '-', ' '), '{w}') = 1"
            for w in words
            if w not in AMBIGUOUS_CARRIER_NAMES
        )
        + "))"
        for carrier, words in CARRIER_NAMES.items()
    )
    sql = (
        f"WITH m AS (SELECT {AGENT_BODY} AS b, {_words_sql(AGENT_BODY)} AS t "
        "FROM ticket_messages "
        "WHERE ticket_id = :ticket_id AND author = 'agent'), "
        f"own AS (SELECT carrier FROM shipments WHERE order_id = :{order_param}) "
        f"SELECT EXISTS (SELECT 1 FROM m WHERE CASE :{param} {cases} "
        f"ELSE m.t GLOB '*{sep}' || LOWER(:{param}) || '{sep}*' END) "
        f"AND NOT EXISTS (SELECT 1 FROM m WHERE {others})"
    )
    return SqlCheck(
        name=name,
        description=description
        or "a reply names the carrier (policy 9.2: give the carrier and the tracking number); "
        'common names count: "U.S. Postal Service", "Federal Express", "Fed Ex"; a reply '
        "naming a carrier that carries none of the order's parcels (a list of every carrier) "
        "names none",
        sql=sql,
        expected=1,
        weight=weight,
        required=required,
        bands=bands,
    )
