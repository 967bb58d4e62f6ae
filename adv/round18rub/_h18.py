# ruff: noqa  (a probe script, not product code)
"""Round 18 (adv28h) helpers on rounds 16-17's harness (`round17rub/_h17.py`, imported):
`prod(p, v)`: the declined item's and the damaged item's product names (rdi), and `head(name)`:
a product name's last word of letters (its head noun, `Sunglasses`). Asserts nothing."""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round17rub")
from _h17 import B, CSA, HD, E, MONTHS, final_rows, onfile, rows16, rows2, summary, grade, mutate, ToolCall, N  # noqa: F401

_NAME = ("SELECT p.name FROM order_items i JOIN product_variants v ON v.id = i.variant_id "
         "JOIN products p ON p.id = v.product_id WHERE i.id = {}")


def prod(v):
    """(declined product name, damaged product name) of an rdi variant (None where no decline)."""
    p = v.params
    if not p.get("declined_item_id"):
        return None, None
    d = final_rows(E, v, _NAME.format(":declined_item_id"))[0][0]
    o = final_rows(E, v, _NAME.format(":order_item_id"))[0][0]
    return d, o


def head(name):
    words = [w for w in name.split() if w.isalpha()]
    return words[-1].lower() if words else name.lower()


def rdi(fn):
    """text(p, v) for rows16: fn(p, declined, damaged) where the names differ, else None."""
    def text(p, v):
        d, o = prod(v)
        if d is None or d == o:
            return None
        return fn(p, d, o)
    return text


def rdi_all(fn):
    """As `rdi`, also where the names are the same (hard 3, expert 2 on this snapshot)."""
    def text(p, v):
        d, o = prod(v)
        return None if d is None else fn(p, d, o)
    return text
