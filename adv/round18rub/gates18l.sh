#!/usr/bin/env bash
# Round 18 (adv28l): the gate end to end on each ledger family whose rubric changed (read
# condition 7; condition 4 must not name texts-state-posting-months / texts-claim-no-edit-in-place).
# Run in a worktree root: bash adv/round18rub/gates18l.sh
for fam in ${@:-correct-misposted-entry accrue-expense apply-customer-payment credit-returned-item enter-vendor-bill reconcile-bank-lines write-off-bad-debt}; do
  nice uv run python adv/round10gate/gate_family.py ledger "$fam" > "adv/round18rub/out/gate_$fam.txt" 2>&1
done
