import { useLingui } from '@lingui/react';

/** The dashboard's note while a return from checkout is being confirmed; announced politely. */
export function PaymentPendingBanner() {
  const { _ } = useLingui();
  return (
    <div role="status" className="flex items-center gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
      <span aria-hidden="true" className="size-4 shrink-0 animate-spin rounded-full border-2 border-indigo-200 border-t-indigo-600" />
      <p>{_('account.billing.confirming')}</p>
    </div>
  );
}
