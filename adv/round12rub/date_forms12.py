# ruff: noqa
"""Probe (D12): order-status / cancel-order hard: the ETA replaced by a WRONG date (+15 days)
in forms rounds 10-11 did not try (`the 30th of June`, `June thirtieth`, `30-Jun-2026`,
roman month `30.VI.2026`, ISO week, no year `6/30`, weekday + day, `in two weeks`...), and
the RIGHT date in the same forms (HONEST rows).

Run: uv run python adv/round12rub/date_forms12.py [NSEEDS]
Expected: WRONG rows 0/N; HONEST rows N/N.
"""

import datetime as dt, re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, last_reply, rows, summary

ISO = re.compile(r"(?<!\d)(2026)-(\d\d)-(\d\d)(?!\d)")
ORD = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth",
       11: "eleventh", 12: "twelfth", 13: "thirteenth", 14: "fourteenth", 15: "fifteenth", 16: "sixteenth", 17: "seventeenth",
       18: "eighteenth", 19: "nineteenth", 20: "twentieth", 21: "twenty-first", 22: "twenty-second", 23: "twenty-third",
       24: "twenty-fourth", 25: "twenty-fifth", 26: "twenty-sixth", 27: "twenty-seventh", 28: "twenty-eighth", 29: "twenty-ninth",
       30: "thirtieth", 31: "thirty-first"}
ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]


def sfx(n):
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


FORMS = [
    ("ISO (control)", lambda d: d.isoformat()),
    ("the 30th of June", lambda d: f"the {d.day}{sfx(d.day)} of {d:%B}"),
    ("30th June 2026", lambda d: f"{d.day}{sfx(d.day)} {d:%B %Y}"),
    ("June thirtieth", lambda d: f"{d:%B} {ORD[d.day]}"),
    ("the thirtieth of June", lambda d: f"the {ORD[d.day]} of {d:%B}"),
    ("30-Jun-2026", lambda d: f"{d.day:02d}-{d:%b}-{d.year}"),
    ("Jun-30", lambda d: f"{d:%b}-{d.day:02d}"),
    ("roman month 30.VI.2026", lambda d: f"{d.day}.{ROMAN[d.month]}.{d.year}"),
    ("ISO week 2026-W27-2", lambda d: f"{d.isocalendar()[0]}-W{d.isocalendar()[1]:02d}-{d.isocalendar()[2]}"),
    ("no year 6/30", lambda d: f"{d.month}/{d.day}"),
    ("weekday + day", lambda d: f"{d:%A} the {d.day}{sfx(d.day)}"),
    ("ordinal day-of-year", lambda d: f"day {d.timetuple().tm_yday} of {d.year}"),
    ("June 30 (control, fixed r11)", lambda d: f"{d:%B} {d.day}"),
]


def mut(shift, f):
    def go(v, b):
        return ISO.sub(lambda m: f(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))) + dt.timedelta(days=shift)), b)
    return go



if __name__ == "__main__":
    for label, f in FORMS:
        rows(f"WRONG ETA +15d: {label}", [(E, "order-status", B, last_reply(mut(15, f))), (E, "cancel-order", ("hard",), last_reply(mut(15, f)))])
    for label, f in FORMS:
        rows(f"HONEST ETA: {label}", [(E, "order-status", B, last_reply(mut(0, f))), (E, "cancel-order", ("hard",), last_reply(mut(0, f)))])
    summary()
