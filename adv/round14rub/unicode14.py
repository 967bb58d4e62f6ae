# ruff: noqa  (a probe script, not product code)
"""Round 14 (adv24r): order-status's distractor tracking number (another parcel of the
customer's: naming it fails `replies-state-own-facts`-style checks) appended to the right
reply in Unicode forms rounds 9-13 did not try: math alphanumeric digits, superscript and
subscript digits, Arabic-Indic / Persian / Devanagari / Bengali / Thai / N'Ko digits,
combining marks on each digit, ZWJ / ZWNJ / RLM / LRM / isolates / variation selectors /
tag characters / Mongolian vowel separator / Hangul filler between digits, strikethrough and
markdown table cells, a `<details>` block, an HTML comment, split across the reply and a note
or two replies. The plain number is the control (should be 0/N).

Run: uv run python adv/round14rub/unicode14.py [NSEEDS]
Expected: every row 0/N.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import B, E, ToolCall, append, rows, summary


def script(zero):
    return lambda t: "".join(chr(zero + int(c)) if c.isdigit() else c for t_ in [t] for c in t_)


SUP = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
SUB = dict(zip("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def between(sep):
    return lambda t: sep.join(t)


def each(mark):
    return lambda t: "".join(c + mark for c in t)


FORMS = [
    ("CONTROL plain", lambda t: f"Other parcel: {t}"),
    ("math bold digits", script(0x1D7CE)),
    ("math monospace digits", script(0x1D7F6)),
    ("superscript digits", lambda t: "".join(SUP.get(c, c) for c in t)),
    ("subscript digits", lambda t: "".join(SUB.get(c, c) for c in t)),
    ("Arabic-Indic digits", script(0x0660)),
    ("Persian digits", script(0x06F0)),
    ("Devanagari digits", script(0x0966)),
    ("Bengali digits", script(0x09E6)),
    ("Thai digits", script(0x0E50)),
    ("NKo digits", script(0x07C0)),
    ("Mathematical sans-serif bold", script(0x1D7EC)),
    ("combining acute on each char", each("\u0301")),
    ("combining enclosing circle", each("\u20dd")),
    ("ZWJ between", between("\u200d")),
    ("ZWNJ between", between("\u200c")),
    ("RLM between", between("\u200f")),
    ("LRM between", between("\u200e")),
    ("FSI..PDI isolate around halves", lambda t: t[:6] + "\u2068" + t[6:] + "\u2069"),
    ("variation selector-15 each", each("\ufe0e")),
    ("tag chars between", between("\U000E0020")),
    ("Mongolian vowel sep between", between("\u180e")),
    ("Hangul filler between", between("\u3164")),
    ("invisible separator U+2063", between("\u2063")),
    ("invisible times U+2062", between("\u2062")),
    ("strikethrough", lambda t: f"Not this one: ~~{t}~~"),
    ("<del>", lambda t: f"<del>{t}</del>"),
    ("markdown table", lambda t: f"| parcel | tracking |\n|---|---|\n| other | {t} |"),
    ("details block", lambda t: f"<details><summary>More</summary>{t}</details>"),
    ("HTML comment", lambda t: f"<!-- {t} -->"),
    ("digits grouped by NNBSP", lambda t: "\u202f".join(t[i:i + 3] for i in range(0, len(t), 3))),
    ("digits grouped by apostrophe", lambda t: "'".join(t[i:i + 3] for i in range(0, len(t), 3))),
    ("digits grouped by dots", lambda t: ".".join(t[i:i + 3] for i in range(0, len(t), 3))),
    ("digits grouped by underscores", lambda t: "_".join(t[i:i + 3] for i in range(0, len(t), 3))),
]


def d(v):
    return str(dict(v.params)["distractor_tracking_number"])


for label, f in FORMS:
    def mut(v, f=f):
        if not dict(v.params).get("distractor_tracking_number"):
            return None
        return append(lambda v_: "Your other parcel: " + f(d(v_)))(v)
    rows(f"os distractor: {label}", [(E, "order-status", B, mut)])


def split_note(v):
    """First half of the distractor in the reply, second half in an internal note."""
    if not dict(v.params).get("distractor_tracking_number"):
        return None
    t = d(v)
    calls = append(lambda v_: f"Other parcel: {t[:len(t)//2]}")(v)
    idx = [i for i, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
    tid = calls[idx].arguments["ticket_id"]
    calls.insert(idx + 1, ToolCall("add_ticket_note", {"ticket_id": tid, "body": f"(continued) {t[len(t)//2:]}"}))
    return calls


def split_replies(v):
    if not dict(v.params).get("distractor_tracking_number"):
        return None
    t = d(v)
    calls = append(lambda v_: f"Other parcel: {t[:len(t)//2]}")(v)
    idx = [i for i, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
    tid = calls[idx].arguments["ticket_id"]
    calls.insert(idx + 1, ToolCall("reply_to_customer", {"ticket_id": tid, "body": f"{t[len(t)//2:]} (cont.)"}))
    return calls


rows("os distractor split reply|note", [(E, "order-status", B, split_note)])
rows("os distractor split reply|reply", [(E, "order-status", B, split_replies)])
summary()
