"""A claim read by its object: a past-tense verb of changing a record with a particle
(``I wrote down the invoice``, ``I knocked off the charge``, ``took back order #7``).

The decision reader (`mcpgym_grading._decisions`) knows each action by closed lists of
forms and synonyms (`mcpgym_grading._decision_synonyms`); a verb outside them is no claim
there. This rule reads the shape instead of the word: in a clause the check already reads
as about the record, a past form (``-ed`` or an irregular past) followed by ``down``,
``off``, ``back`` or ``out`` and the record (a record noun, ``it``/``them`` or an id), or
the record with such a participle after it (``the invoice was marked down``), says the
record was changed: read as an *unsure claim* of every action the check reads (refused
where no claim may stand, never a claim where one must). Verbs that read or tell about a
record without changing it (``noted down``, ``looked``, ``printed out``, ``worked out``,
``broke down``) and a record noun that names one of its attributes (``your order
number``) are no claim; a negation or a modal before the verb leaves it unread.
"""

from __future__ import annotations

import functools
import re

_PAST = (
    r"(?:[a-z]+ed|wrote|written|took|taken|cut|put|paid|sent|gave|given|struck|stricken|"
    r"threw|thrown|wound|drew|drawn|tore|torn|shut|let|sold|brought|held|kept|ran|shot|"
    r"knocked|wiped|swept|stuck|spun|blew|blown|bit|bitten|hit|rang|rung)"
)
_READING_VERBS = frozenset(
    "noted jotted looked checked printed pulled read found figured pointed called reached "
    "filled typed copied spelled spelt laid mapped singled picked worked counted tallied "
    "totalled totaled added summed broke broken paid reasoned thought sounded tested tried "
    "carried sent shipped dispatched mailed delivered".split()
)
"""Past forms that read, tell about or compute a record without changing it (``noted
down``, ``printed out``, ``worked out``, ``broke down`` the balance into lines), and ``paid``
(``paid out the vendor's bill`` is the bill's payment; ``paid back`` is the refund's own
form, read by its list) and the verbs of shipping (``your parcel was sent out``: the
order-status's honest news; a replacement sent is read by its own forms)."""
_RECORD = (
    r"(?:orders?|invoices?|bills?|balances?|entr(?:y|ies)|payments?|charges?|sales?|"
    r"receipts?|receivables?|debts?|amounts?|journals?|postings?|items?|parcels?|"
    r"packages?|shipments?|credits?|refunds?|transactions?)"
)
_ATTRIBUTE = (
    r"(?!\s+(?:number|no\b|id\b|details|date|reference|total|address|status|history|"
    r"line|lines|memo|description|copy|copies|pdf))"
)
_ID = r"#?\s*(?:[a-z]+-?)?\d[\w-]*"
_MARKED_ID = r"(?:#\s*\d[\w-]*|[a-z]{2,}-\d[\w-]*)"
"""An id that names a record without a record noun (``#7``, ``INV-2026-0151``): a bare
number (``ripped out 5227``, a figure on the next line of a reading that joined lines)
names none."""
_DET = r"(?:(?:the|your|this|that|its|their|our|my|full|whole|entire|open|remaining)\s+){0,3}"
_OBJECT = rf"(?:{_DET}{_RECORD}\s+{_ID}|{_DET}{_MARKED_ID}|{_DET}{_RECORD}\b{_ATTRIBUTE})"
_ACTIVE = re.compile(
    rf"\b(?P<v>{_PAST})\s+(?:(?:it|them)\s+(?:down|off|back|out)\b"
    rf"|(?:down|off|back|out)\s+(?:{_OBJECT}|(?:it|them)\b))"
)
_PASSIVE = re.compile(
    rf"\b{_RECORD}\b{_ATTRIBUTE}(?:\s+{_ID})?\s+(?:has|have|had|was|were|is|are|got|been|"
    rf"now|just|already|\s)+(?P<v>{_PAST})\s+(?:down|off|back|out)\b"
)
_NOT_BEFORE = re.compile(
    r"\b(?:not|never|no|nothing|cannot|if|unless|whether|will|would|can|could|may|might|"
    r"should|shall|must|to|once|when|until|before|after|asked|ask|want|wanted|please)\b"
    r"|n['\u2019]t\b|['\u2019](?:ll|d)\b"
)


@functools.lru_cache(maxsize=1024)
def changed_record(clause: str) -> str | None:
    """The words of ``clause`` (folded, lower case) that say its record was changed by a
    verb no action list reads (see the module docstring), or None. Remembered per clause
    (`_decisions.decisions` reads the clauses of one reply for each set of actions)."""
    for pattern in (_ACTIVE, _PASSIVE):
        for m in pattern.finditer(clause):
            verb = m.group("v")
            if verb in _READING_VERBS:
                continue
            if _NOT_BEFORE.search(clause[: m.start("v")]):
                continue
            return m.group(0)
    return None
