"""Sentences the decision reader cannot read: written in a language other than English.

The decision reader (`mcpgym_grading._decisions`) knows English forms (and a few Spanish
participles). A claim in French, German, Italian, Portuguese or Spanish (``J'ai annulé la
commande #7``, ``Ich habe die Bestellung #7 erstattet``) is read as nothing, so a check that
no text claims an action not taken passed it (round 11's R4). A closed reading: a sentence
with at least two function words of those languages, and two more of them than English
ones, is not English; `DecisionMatch` fails a text with such a sentence where it must know
that no claim stands (``not_claimed``). Names and addresses (``12 Rue de la Paix``) inside
an English sentence stay English: its English function words outnumber them. Round 14 added
Dutch, Scandinavian, Polish and Turkish words, and a sentence mostly in letters of another
script than Latin (Cyrillic, CJK, Arabic...; `_other_script`), which needs no word list.
"""

from __future__ import annotations

import re
import unicodedata

from mcpgym_grading._text import fold

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"(?<![^\W_])[^\W\d_]+(?:['\u2019][^\W\d_]+)?(?![^\W_])")
"""A word: letters only, a whole token (the letters of ``1ZR4E917…`` are no words)."""

_FOREIGN = frozenset(
    # French
    "le la les du des et est sont une avec pour pas votre vos nous vous je j'ai ai été "
    "commande remboursé remboursée annulé annulée adresse "
    # German
    "der das und ist sind ich habe wurde wurden ihre ihr wir nicht mit für eine ein "
    "bestellung storniert erstattet "
    # Spanish
    "el los las es su sus con para por una hemos ha sido pedido reembolsado "
    # Italian
    "il lo gli è sono ho abbiamo stato stata vostro vostra suo sua ordine rimborsato "
    "annullato "
    # Portuguese
    "um seu sua foi pedido reembolsado cancelei eu "
    # French and German short forms (round 14: ``INV-… wurde bereits abgeschrieben``)
    "déjà passé perte en bereits abgeschrieben gebucht "
    # Dutch
    "ik heb hebben het een uw wij bestelling geannuleerd terugbetaald "
    # Swedish, Danish, Norwegian
    "jag har och är ett beställning avbrutit avbokat återbetalat jeg og bestilling "
    "annulleret refunderet "
    # Polish
    "za się jest nie zamówienie zamówienia anulowałem anulowałam zwróciłem zwróciłam "
    "pieniądze "
    # Turkish
    "ve bir bu sipariş siparişi siparişin siparişiniz numaralı iptal ettim ettik iade".split()
)
"""Function words (and the action words) of the languages a claim was written in."""
_ACTION_WORDS = frozenset(
    # a write-off, a posting, a cancellation, a refund, a credit (round 17's G17)
    "abgeschrieben ausgebucht gebucht verbucht storniert erstattet gutgeschrieben "
    "afgeschreven geboekt geannuleerd terugbetaald gecrediteerd "
    "avskriven avskrivet afskrevet avskrevet bokförd bokført bogført avbokat återbetalat "
    "comptabilisée comptabilisé passée remboursé remboursée annulé annulée crédité créditée "
    "contabilizada contabilizado registrada registrado reembolsado reembolsada anulada anulado "
    "dada incobrable acreditada acreditado "
    "stralciata stralciato registrata registrato rimborsato rimborsata annullato annullata "
    "accreditata accreditato baixada baixado lançada lançado reembolsada creditada creditado "
    "cancelada cancelado".split()
)
"""Participles of the actions in those languages: a short sentence with one of them and no
English word (``INV-2026-0151 abgeschrieben.``, ``Factura X contabilizada.``) is not English
either, though it holds fewer than two function words (round 17's G17); written in lower
case only (a capitalised one is a name: ``Registrada Holdings``)."""
_ENGLISH = frozenset(
    "the and to of is are was were has have had your you i we it for on with this that "
    "will be been not order orders refund refunded cancelled canceled my our".split()
)
"""English function words (and the store's own words)."""


def foreign_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (cut after ``.``, ``!``, ``?`` before a space, and at line
    breaks) that read as another language than English: at least two words of `_FOREIGN`,
    two more than of `_ENGLISH`, or an action's participle (`_ACTION_WORDS`) with no English
    word (module docstring). Read folded (`fold`)."""
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        words = [w.replace("\u2019", "'") for w in _WORD.findall(fold(sentence))]
        foreign = sum(w in _FOREIGN and w not in _ENGLISH for w in words)
        english = sum(w in _ENGLISH for w in words)
        acted = english == 0 and any(
            w.islower() and fold(w) in _ACTION_WORDS for w in _WORD.findall(sentence)
        )
        if (foreign >= 2 and foreign >= english + 2) or acted or _other_script(sentence):
            out.append(sentence.strip())
    return out


def _other_script(sentence: str) -> bool:
    """Whether ``sentence`` is written mostly in letters of a script other than Latin (at
    least `_SCRIPT_LETTERS` of them, more than its Latin letters): ``Заказ #7 отменён.``,
    ``订单#7已取消。`` (round 14). A name in another script inside an English sentence
    (``Hi 李明,``) has too few of them."""
    if sentence.isascii():
        return False  # every letter a Latin one
    latin = other = 0
    for c in unicodedata.normalize("NFKC", sentence):
        if c.isalpha():
            if unicodedata.name(c, "").startswith("LATIN"):
                latin += 1
            else:
                other += 1
    return other >= _SCRIPT_LETTERS and other > latin


_SCRIPT_LETTERS = 3
"""Letters of another script that make a sentence read as not English (`_other_script`)."""
