#!/bin/sh
# Round 19 (adv29m): look-alike rows (condition 7) after the reader changes, for families the
# new forms reach (ellipsis, lists, requests, `by now`): both environments.
cd "$(dirname "$0")/../.."
O=adv/round19rub/out
for row in "helpdesk refund-above-limit hard 0 reply-states-escalated-not-refunded" "helpdesk refund-above-limit easy 0 reply-states-not-refunded" "helpdesk cancel-order hard 0 texts-claim-only-actions-taken-h" "ledger credit-returned-item easy 0 texts-claim-only-actions-taken" "ledger write-off-bad-debt hard 1 texts-claim-only-actions-taken-h"; do
  echo "== $row"; nice uv run python adv/round14rub/choices_forms14.py $row
done > $O/choices_forms.txt 2>&1
