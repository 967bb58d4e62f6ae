#!/bin/sh
# Round 20 (adv30h): look-alike rows (condition 7) of the families the changes reach: csa
# (FF18c, P19a), dc (C19a), ral (L19c), os (N19a).
cd "$(dirname "$0")/../.."
O=adv/round20rub/out
for row in "helpdesk change-shipping-address hard 0 reply-states-not-changed" "helpdesk change-shipping-address hard 1 texts-claim-only-actions-taken-h" "helpdesk duplicate-charge easy 0 reply-states-duplicate-refunded-to-card" "helpdesk refund-above-limit hard 0 reply-states-escalated-not-refunded" "helpdesk refund-above-limit easy 0 reply-states-not-refunded" "helpdesk order-status easy 0 reply-omits-other-orders" "helpdesk change-shipping-address expert 0 reply-reveals-no-details-on-file"; do
  echo "== $row"; nice uv run python adv/round14rub/choices_forms14.py $row
done > $O/choices_forms_h.txt 2>&1
