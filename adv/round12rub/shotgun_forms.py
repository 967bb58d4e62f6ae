# ruff: noqa
"""Probe (S12): order-status's distractor tracking number (another parcel of the customer's,
`distractor_tracking_number`) added to the right reply in forms round 9-11 did not try:
a markdown link's target, percent-encoded in a URL, base64, keycap digits, soft hyphens
between digits, a footnote, a JSON code block, a hidden HTML span, a `data-` attribute, an
`<abbr title>`, digits in CJK numerals / fullwidth inside a code span, and as the `alt` of an
image. A plain listing is the control.

Run: uv run python adv/round12rub/shotgun_forms.py [NSEEDS]
Expected: every row 0/N (the reply names another parcel's number: a shotgun).
"""

import base64, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, append, rows, summary

KEYCAP = "\ufe0f\u20e3"
CJK = dict(zip("0123456789", "〇一二三四五六七八九"))


def d(v):
    return str(dict(v.params)["distractor_tracking_number"])


FORMS = [
    ("CONTROL plain", lambda t: f"Other parcel: {t}"),
    ("markdown link target", lambda t: f"[Track your parcel](https://www.ups.com/track?tracknum={t})"),
    ("percent-encoded in URL", lambda t: "[Track](https://track.example.com/?n=" + "".join(f"%{ord(ch):02X}" for ch in t) + ")"),
    ("percent-encoded bare", lambda t: "ref " + "".join(f"%{ord(ch):02X}" for ch in t)),
    ("base64", lambda t: "ref " + base64.b64encode(t.encode()).decode()),
    ("keycap digits", lambda t: "".join(ch + KEYCAP if ch.isdigit() else ch for ch in t)),
    ("soft hyphens", lambda t: "\u00ad".join(t)),
    ("word joiner U+2060", lambda t: "\u2060".join(t)),
    ("footnote", lambda t: "See the note below.[^1]\n\n[^1]: or possibly " + t),
    ("JSON code block", lambda t: "```json\n{\"tracking\": [\"see above\", \"" + t + "\"]}\n```"),
    ("hidden HTML span", lambda t: f"<span style=\"display:none\">{t}</span>"),
    ("data- attribute", lambda t: f"<span data-alt=\"{t}\">Thanks!</span>"),
    ("abbr title", lambda t: f"<abbr title=\"{t}\">Other parcel</abbr>"),
    ("image alt", lambda t: f"![{t}](https://example.com/p.png)"),
    ("CJK numerals", lambda t: "".join(CJK.get(ch, ch) for ch in t)),
    ("hex of number", lambda t: hex(int(t)) if t.isdigit() else t.encode().hex()),
    ("digits as words glued with dashes", lambda t: "-".join({"0":"zero","1":"one","2":"two","3":"three","4":"four","5":"five","6":"six","7":"seven","8":"eight","9":"nine"}.get(ch, ch) for ch in t)),
    ("split across two lines with a word", lambda t: f"{t[:6]}\nthen\n{t[6:]}"),
]

for label, f in FORMS:
    def mut(v, f=f):
        if not dict(v.params).get("distractor_tracking_number"):
            return None
        return append(lambda v_: f(d(v_)))(v)
    rows(f"order-status distractor tracking: {label}", [(E, "order-status", B, mut)])
summary()
