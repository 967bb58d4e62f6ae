#!/bin/sh
# Round 17 (adv27l): the honest controls, references, look-alike rows and the gate of each
# ledger family whose rubric or reader behaviour changed, after the fixes.
cd "$(dirname "$0")/../.."
O=adv/round17rub/out
uv run python adv/round10rub/paraphrases.py 1 > $O/paraphrases.txt 2>&1
uv run python adv/round10rub/decision_false_fails.py 1 > $O/decision_false_fails.txt 2>&1
uv run python adv/round15rub/refs15.py 2 > $O/refs.txt 2>&1
for row in "ledger enter-vendor-bill hard 0 texts-claim-only-actions-taken" "ledger credit-returned-item easy 0 texts-claim-only-actions-taken" "ledger write-off-bad-debt hard 1 texts-claim-only-actions-taken-h" "ledger closed-period-posting easy 0 texts-state-posted-in-open-period" "ledger reconcile-bank-lines hard 0 texts-state-line-states" "helpdesk cancel-order hard 0 texts-claim-only-actions-taken-h" "helpdesk refund-above-limit easy 1 replies-promise-no-payout"; do
  echo "== $row"; uv run python adv/round14rub/choices_forms14.py $row
done > $O/choices_forms.txt 2>&1
for fam in closed-period-posting reconcile-bank-lines write-off-bad-debt correct-misposted-entry enter-vendor-bill; do
  /usr/bin/time -f "%e s" uv run python adv/round10gate/gate_family.py ledger $fam > $O/gate_$fam.txt 2>&1
done
echo done > $O/checks17l.done
