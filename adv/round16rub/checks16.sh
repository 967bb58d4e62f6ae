#!/bin/sh
# Round 16 (adv26r): the honest controls, references, look-alike rows after the reader change.
cd "$(dirname "$0")/../.."
uv run python adv/round10rub/paraphrases.py 1 > adv/round16rub/out/paraphrases.txt 2>&1
uv run python adv/round10rub/decision_false_fails.py 1 > adv/round16rub/out/decision_false_fails.txt 2>&1
uv run python adv/round15rub/refs15.py 2 > adv/round16rub/out/refs.txt 2>&1
for row in "helpdesk cancel-order hard 0 texts-claim-only-actions-taken-h" "helpdesk refund-damaged-item hard 0 texts-claim-only-actions-taken" "helpdesk refund-above-limit easy 1 replies-promise-no-payout" "ledger enter-vendor-bill hard 0 texts-claim-only-actions-taken" "ledger credit-returned-item easy 0 texts-claim-only-actions-taken" "ledger write-off-bad-debt hard 1 texts-claim-only-actions-taken-h"; do
  echo "== $row"; uv run python adv/round14rub/choices_forms14.py $row
done > adv/round16rub/out/choices_forms.txt 2>&1
echo done > adv/round16rub/out/checks16.done
