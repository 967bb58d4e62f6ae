"""How much text each ledger field holds: every limit on a tool's text argument, in one place.

A text longer than its field is refused, never cut: a cut text is not what the agent wrote,
and a check that reads it judges words the agent did not write (or misses the ones it did:
round 11's gate lost a write-off reason's tax id past the old 300-character cut). Each
limit is in its tool's input schema (``maxLength``, through the `Annotated` types below), so
an agent can read it, and the server refuses a longer text before the tool runs (status
``invalid_arguments``, the message naming the field, the limit and the text's length;
nothing is written). `require_text` checks `MAX_TEXT` again for callers that skip the schema.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

MAX_TEXT = 2000
"""Longest free text (a reason, a note, an entry memo, a line's description) a tool accepts."""

DOCUMENT_MEMO = 500
"""Characters of an invoice's or a bill's memo."""

LINE_MEMO = 200
"""Characters of a journal line's memo."""

PAYMENT_REFERENCE = 200
"""Characters of a payment's reference (the payer's, e.g. ``RCPT 448120``)."""

REVERSAL_MEMO = 300
"""Characters of a reversal entry's memo."""

IGNORE_REASON = 500
"""Characters of the note an ignored bank line keeps (why it is ignored)."""

WRITE_OFF_MEMO = 300
"""Characters of a write-off entry's memo (``Write off <number>: <reason>``)."""

WRITE_OFF_REASON = WRITE_OFF_MEMO - len("Write off INV-2026-0000: ")
"""Characters of a write-off reason: what the entry's memo holds beside an invoice number
(every number of the books has this width; `write_off_invoice` checks the memo itself)."""

Text = Annotated[str, Field(max_length=MAX_TEXT)]
DocumentMemo = Annotated[str, Field(max_length=DOCUMENT_MEMO)]
LineMemo = Annotated[str, Field(max_length=LINE_MEMO)]
PaymentReference = Annotated[str, Field(max_length=PAYMENT_REFERENCE)]
ReversalMemo = Annotated[str, Field(max_length=REVERSAL_MEMO)]
IgnoreReason = Annotated[str, Field(max_length=IGNORE_REASON)]
WriteOffReason = Annotated[str, Field(max_length=WRITE_OFF_REASON)]
