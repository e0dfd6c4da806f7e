import { useId, useState, type ReactNode } from 'react';
import { BILLING_MESSAGES, type Subscription } from '../../../../shared/billing.js';
import { billingApi } from '../../api/billing-endpoints';
import { Loading } from '../../components/Loading';
import { ConfirmDialog } from '../accounts/ConfirmDialog';
import { messageOrFallback } from '../accounts/error-message';
import { Modal } from '../accounts/Modal';
import { formatDate } from './billing-format';
import { SubscriptionsList } from './SubscriptionsList';
import { TransactionsTable } from './TransactionsTable';
import { useBillingHistory, type ListState } from './useBillingHistory';

const CANCEL_FAILED = 'Failed to cancel subscription';
const SUBSCRIPTIONS_FAILED = 'Failed to load subscriptions';

/** The spec's confirmation before a cancel: the account keeps working until the period ends. */
function cancelQuestion(subscription: Subscription): string {
  const end = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : 'the end of the current period';
  return `Cancel this subscription? Your account stays active until ${end}; it will not be renewed.`;
}

function FailedBox({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </p>
  );
}

/** A titled part of the dialog that shows a list once it has loaded. */
function ListSection<T>({ title, state, failedMessage, render }: {
  title: string;
  state: ListState<T>;
  failedMessage: string;
  render: (items: T[]) => ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} aria-busy={state.status === 'loading'}>
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-slate-900">
        {title}
      </h3>
      {state.status === 'loading' && <Loading className="py-6" />}
      {state.status === 'failed' && <FailedBox>{failedMessage}</FailedBox>}
      {state.status === 'loaded' && render(state.items)}
    </section>
  );
}

/** 'Transaction History': the customer's payments, then their subscriptions with a Cancel for active ones. */
export function TransactionHistoryDialog({ onClose }: { onClose: () => void }) {
  const titleId = useId();
  const { transactions, subscriptions, replaceSubscription } = useBillingHistory();
  const [confirming, setConfirming] = useState<Subscription | null>(null);
  const [cancelError, setCancelError] = useState<string | null>(null);

  async function cancel(subscription: Subscription) {
    setCancelError(null);
    try {
      replaceSubscription(await billingApi.cancelSubscription(subscription.id));
    } catch (caught) {
      setCancelError(messageOrFallback(caught, CANCEL_FAILED));
    }
  }

  return (
    <>
      <Modal title="Transaction History" titleId={titleId} onClose={onClose} size="large">
        <div className="space-y-8">
          <ListSection
            title="Transactions"
            state={transactions}
            failedMessage={BILLING_MESSAGES.transactionsFailed}
            render={(items) => <TransactionsTable transactions={items} />}
          />
          <ListSection
            title="Subscriptions"
            state={subscriptions}
            failedMessage={SUBSCRIPTIONS_FAILED}
            render={(items) => (
              <div className="space-y-3">
                {cancelError && <FailedBox>{cancelError}</FailedBox>}
                <SubscriptionsList subscriptions={items} onCancel={setConfirming} />
              </div>
            )}
          />
        </div>
      </Modal>
      {confirming && (
        <ConfirmDialog
          title="Cancel subscription?"
          message={cancelQuestion(confirming)}
          confirmLabel="Cancel subscription"
          busyLabel="Canceling..."
          cancelLabel="Keep subscription"
          onConfirm={() => cancel(confirming)}
          onClose={() => setConfirming(null)}
        />
      )}
    </>
  );
}
