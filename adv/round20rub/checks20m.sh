#!/bin/sh
# Round 20 (adv30m): the controls after the reader changes (honest paraphrases, the decision
# reader's false-fail rows, the references, condition 7's look-alike rows, one family's gate
# end to end per environment). Outputs in adv/round20rub/out/.
cd "$(dirname "$0")/../.."
O=adv/round20rub/out
nice uv run python adv/round10rub/paraphrases.py 1 > $O/paraphrases_1.txt 2>&1
nice uv run python adv/round10rub/decision_false_fails.py 1 > $O/decision_false_fails_1.txt 2>&1
nice uv run python adv/round15rub/refs15.py 1 > $O/refs_1.txt 2>&1
for row in "helpdesk refund-above-limit hard 0 reply-states-escalated-not-refunded" "helpdesk refund-above-limit easy 0 reply-states-not-refunded" "helpdesk cancel-order hard 0 texts-claim-only-actions-taken-h" "helpdesk duplicate-charge easy 0 texts-claim-only-actions-taken" "ledger credit-returned-item easy 0 texts-claim-only-actions-taken" "ledger write-off-bad-debt hard 1 texts-claim-only-actions-taken-h" "ledger write-off-bad-debt expert 0 note-states-escalated-amount"; do
  echo "== $row"; nice uv run python adv/round14rub/choices_forms14.py $row
done > $O/choices_forms_m.txt 2>&1
nice uv run python adv/round10gate/gate_family.py helpdesk refund-above-limit > $O/gate_helpdesk_ral.txt 2>&1
nice uv run python adv/round10gate/gate_family.py ledger write-off-bad-debt > $O/gate_ledger_wo.txt 2>&1
