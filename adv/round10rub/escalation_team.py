# ruff: noqa
"""Probe: refund-above-limit with the escalation sent to another team (the reason text and
the reply unchanged, the reply still says billing), or with a second escalation; and the
reply saying billing will answer in another time than policy 7.1's 2 business days.

Run: uv run python adv/round10rub/escalation_team.py [NSEEDS]
Expected: the wrong team fails; the wrong time fails.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run
from mcpgym_server import ToolCall

h = env("helpdesk")
B = ("easy", "medium", "hard", "expert")
for team in ("management", "returns", "fraud"):
    run(
        f"refund-above-limit: escalated to {team}",
        h,
        "refund-above-limit",
        B,
        lambda v, team=team: edit(v, "escalate_ticket", lambda a: {**a, "team": team}),
    )
run(
    "refund-above-limit: reply promises billing within 2 hours",
    h,
    "refund-above-limit",
    B,
    lambda v: reply(v, lambda v, b: b.replace("within 2 business days", "within 2 hours")),
)
run(
    "refund-above-limit: reply says billing will refund it tomorrow",
    h,
    "refund-above-limit",
    B,
    lambda v: reply(
        v,
        lambda v, b: b.replace(
            "Billing will follow up with you within 2 business days.",
            "Billing will refund it to your card tomorrow.",
        ),
    ),
)
for fam in ("duplicate-charge", "refund-damaged-item"):
    run(
        f"{fam}: reply says it shows within 24 hours (policy/reference 5-10 business days)",
        h,
        fam,
        B,
        lambda v: reply(v, lambda v, b: b.replace("within 5-10 business days", "within 24 hours")),
    )
