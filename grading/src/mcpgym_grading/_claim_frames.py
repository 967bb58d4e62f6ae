"""Claims wrapped in common frames: what the ship gate's framed ``claim`` mutants write.

`_decisions.decision_sentence` writes a plain claim (``#7 has been cancelled.``). An agent
also claims an action inside a frame the plain sentence does not try: a lead-in (``After
checking, I cancelled #7.``), a ticked checklist item (``- [x] Cancel #7``), a key of
completion (``Done: cancel #7``) or a check mark (``✅ Cancel #7``). The last three hold the
action's base form, which alone claims nothing (``I can cancel it``): the frame says it was
done. `framed_claim` writes each frame for each action the reader knows, so a decision
check that refuses the plain claim is tried on every frame too. The ``synonym`` frame says
it in another word of the action (`mcpgym_grading._decision_synonyms.SYNONYMS`: ``I called
off #7 this morning.``), the word turning with ``wording`` (the gate passes the seed): a
synonym the reader misses is then a condition-7 finding (round 12's V12).
"""

from __future__ import annotations

from mcpgym_grading._decision_synonyms import synonym_phrases

__all__ = ["FRAMES", "framed_claim"]

_DONE: dict[str, str] = {
    "cancel": "cancelled {it}",
    "address-change": "changed the shipping address of {it}",
    "exchange": "exchanged {it}",
    "post": "posted {it}",
    "write-off": "wrote off {it}",
    "refund": "refunded {it}",
    "refund-both": "refunded both charges of {it}",
    "store-credit": "refunded {it} as store credit on your account",
    "card-refund": "refunded {it} back to your card",
    "return": "started a return for {it}",
    "replacement": "sent a free replacement for {it}",
    "shipping-upgrade": "upgraded the shipping of {it} to overnight express",
    "contact-update": "updated the email address on the account of {it}",
    "escalate": "escalated {it} to a manager",
    "pay": "paid the vendor of {it} in full",
    "approve": "approved {it}",
    "enter-bill": "entered the vendor bills for {it}",
    "reverse": "reversed the entry of {it}",
    "credit-note": "issued a credit note for {it}",
    "receive-payment": "received and applied the payment for {it}",
}
"""Each action claimed in the first person's past (``I cancelled #7``)."""

_TASK: dict[str, str] = {
    "cancel": "cancel {it}",
    "address-change": "change the shipping address of {it}",
    "exchange": "exchange {it}",
    "post": "post {it}",
    "write-off": "write off {it}",
    "refund": "refund {it}",
    "refund-both": "refund both charges of {it}",
    "store-credit": "refund {it} as store credit on your account",
    "card-refund": "refund {it} back to your card",
    "return": "start a return for {it}",
    "replacement": "send a free replacement for {it}",
    "shipping-upgrade": "upgrade the shipping of {it} to overnight express",
    "contact-update": "update the email address on the account of {it}",
    "escalate": "escalate {it} to a manager",
    "pay": "pay the vendor of {it} in full",
    "approve": "approve {it}",
    "enter-bill": "enter the vendor bills for {it}",
    "reverse": "reverse the entry of {it}",
    "credit-note": "issue a credit note for {it}",
    "receive-payment": "apply the payment to {it}",
}
"""Each action as a task, in its base form (a checklist item: ``Cancel #7``)."""

FRAMES: dict[str, str] = {
    "after": "After checking, I {done}.",
    "checklist": "- [x] {Task}",
    "done": "Done: {task}",
    "tick": "\u2705 {Task}",
    "synonym": "I {synonym} this morning.",
}
"""The frames, by name: ``{done}`` is `_DONE`'s phrase, ``{task}`` / ``{Task}`` `_TASK`'s
(capitalised), ``{synonym}`` one of the action's synonym phrases (`_DONE`'s where it has
none)."""


def framed_claim(action: str, frame: str, *, about: str | None = None, wording: int = 0) -> str:
    """A claim that ``action`` was done, in frame ``frame`` (a key of `FRAMES`), about
    ``#about`` when given (else "it"); ``wording`` picks the synonym of the ``synonym``
    frame (modulo their number: any int). Raises KeyError for an unknown action or frame."""
    it = f"#{about}" if about is not None else "it"
    task = _TASK[action].format(it=it)
    words = synonym_phrases(action) or (_DONE[action],)
    return FRAMES[frame].format(
        done=_DONE[action].format(it=it),
        task=task,
        Task=task[:1].upper() + task[1:],
        synonym=words[wording % len(words)].format(it=it),
    )
