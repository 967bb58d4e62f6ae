"""The teams of `escalate_ticket` as a text names them: a `Lexicon` for `MentionMatch`.

Each of the four teams (billing, returns, fraud, management; policy 9.4) with the words
that name it: a name anywhere (``billing``, ``fraud``, ``Trust & Safety``, ``manager``,
``supervisor``, ``leadership``), or a qualifier before a unit noun (``finance team``,
``Returns Dept.``, ``Returns & Exchanges team``, ``Risk team``, ``LP folks``, ``Accounts
Receivable team``), or a qualifier listed after a name (``billing and returns``). Short and
slang forms name a team too (``mgmt``, ``the higher-ups``, ``my boss``). Management's
words are ranks (``ranks=True``): governed by another team they name that team (``our
billing team lead``, ``billing's senior colleague``, ``a senior colleague in billing``,
``I've escalated it to billing; a senior colleague there``), governed by none they name
management: ``A senior team member will follow up`` names nobody's team but a senior one,
and management is one of the four (the conservative reading; write ``a senior member of
the billing team``), as ``billing and our senior team`` does. A team-like name that is
none of them (``escalations team``, ``shipping department``) names another team too: a
reply telling the customer their request went to it is not telling them it went to the
right one (`mcpgym_grading._terms`). ``returns`` alone is no team (a reply may speak of
returns), nor is ``fraudulent``; the agent's own team (``our support team``) is none.
"""

from __future__ import annotations

from mcpgym_grading import Lexicon, LexiconItem

TEAMS = Lexicon(
    items={
        "billing": LexiconItem(
            names=("billing", "finance"),
            qualifiers=(
                "accounts",
                "accounting",
                "payment",
                "refund",
                "dispute",
                "receivable",
                "receivables",
                "payable",
            ),
        ),
        "returns": LexiconItem(
            qualifiers=("returns", "return", "exchange", "exchanges", "warehouse", "rma"),
        ),
        "fraud": LexiconItem(
            names=("fraud", "trust and safety", "loss prevention"),
            qualifiers=("risk", "security", "trust", "safety", "lp"),
        ),
        "management": LexiconItem(
            names=(
                "management",
                "mgmt",
                "manager",
                "supervisor",
                "leadership",
                "team lead",
                "team leader",
                "higher ups",
                "boss",
            ),
            qualifiers=("senior", "executive"),
            ranks=True,
        ),
    }
)
"""The teams of `escalate_ticket` (``team``: billing, returns, fraud or management)."""
