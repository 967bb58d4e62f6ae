# ruff: noqa  (a probe script, not product code)
"""Round 20 (adv30h) helpers on rounds 16-19's harness (`round19rub/_h19.py`, imported).
Asserts nothing."""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round19rub")
from _h19 import *  # noqa: F401,F403
from _h19 import B, CSA, HD, E, MONTHS, final_rows, onfile, rows16, rows2, summary, grade, mutate, ToolCall, N, head, prod, rdi  # noqa: F401
