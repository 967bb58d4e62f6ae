# ruff: noqa  (a probe script, not product code)
"""Round 19 (adv29h) helpers on rounds 16-18's harness (`round18rub/_h18.py`, imported).
Asserts nothing."""
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round18rub")
from _h18 import *  # noqa: F401,F403
from _h18 import B, CSA, HD, E, MONTHS, final_rows, onfile, rows16, rows2, summary, grade, mutate, ToolCall, N, head, prod, rdi  # noqa: F401
