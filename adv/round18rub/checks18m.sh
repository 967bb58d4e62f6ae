#!/bin/sh
# Round 18 (adv28m): the honest controls, references, look-alike rows and gates after the
# reader changes (two ledger families, one helpdesk family they reach).
cd "$(dirname "$0")/../.."
O=adv/round18rub/out
nice uv run python adv/round10rub/paraphrases.py 1 > $O/paraphrases_final.txt 2>&1
nice uv run python adv/round10rub/decision_false_fails.py 1 > $O/decision_false_fails_final.txt 2>&1
nice uv run python adv/round15rub/refs15.py 2 > $O/refs_final.txt 2>&1
for row in "ledger enter-vendor-bill hard 0 texts-claim-only-actions-taken" "ledger enter-vendor-bill hard 1 note-states-not-posted" "ledger credit-returned-item easy 0 texts-claim-only-actions-taken" "ledger write-off-bad-debt hard 1 texts-claim-only-actions-taken-h" "ledger write-off-bad-debt expert 2 note-states-escalated-amount" "helpdesk cancel-order hard 0 texts-claim-only-actions-taken-h"; do
  echo "== $row"; nice uv run python adv/round14rub/choices_forms14.py $row
done > $O/choices_forms_final.txt 2>&1
for fam in write-off-bad-debt enter-vendor-bill; do
  /usr/bin/time -f "%e s" nice uv run python adv/round10gate/gate_family.py ledger $fam > $O/gate_${fam}_final.txt 2>&1
done
/usr/bin/time -f "%e s" nice uv run python adv/round10gate/gate_family.py helpdesk cancel-order > $O/gate_cancel-order_final.txt 2>&1

