import { useLingui } from '@lingui/react';
import { useId, useState, type ReactNode } from 'react';
import type { Subscription } from '../../../../shared/billing.js';
import { Loading } from '../../components/Loading';
import { Modal } from '../accounts/Modal';
import { SubscriptionsList } from './SubscriptionsList';
import { TransactionsTable } from './TransactionsTable';
import { useBillingHistory, type ListState } from './useBillingHistory';
import { useSubscriptionControls } from './useSubscriptionControls';

function FailedBox({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </p>
  );
}

/** A titled part of the dialog that shows a list once it has loaded. */
function ListSection<T>({
  title,
  state,
  failedMessage,
  render,
}: {
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

interface TransactionHistoryDialogProps {
  onClose: () => void;
  /** A subscription was cancelled or resumed here: the page behind shows the change too. */
  onSubscriptionChanged?: (updated: Subscription) => void;
}

/**
 * 'Transaction History': the customer's payments, then their subscriptions, with Cancel auto-renew
 * and Resume for recurring ones. A failure is said inside the dialog, which covers the toasts.
 */
export function TransactionHistoryDialog({ onClose, onSubscriptionChanged }: TransactionHistoryDialogProps) {
  const { _ } = useLingui();
  const titleId = useId();
  const { transactions, subscriptions, replaceSubscription } = useBillingHistory();
  const [changeError, setChangeError] = useState<string | null>(null);
  const controls = useSubscriptionControls({
    onChanged: (updated) => {
      setChangeError(null);
      replaceSubscription(updated);
      onSubscriptionChanged?.(updated);
    },
    onError: setChangeError,
  });

  return (
    <>
      <Modal title={_('account.history.title')} titleId={titleId} onClose={onClose} size="large">
        <div className="space-y-8">
          <ListSection
            title={_('account.history.transactions')}
            state={transactions}
            failedMessage={_('account.billing.transactionsFailed')}
            render={(items) => <TransactionsTable transactions={items} />}
          />
          <ListSection
            title={_('account.history.subscriptions')}
            state={subscriptions}
            failedMessage={_('account.history.subscriptionsFailed')}
            render={(items) => (
              <div className="space-y-3">
                {changeError && <FailedBox>{changeError}</FailedBox>}
                <SubscriptionsList
                  subscriptions={items}
                  busyId={controls.busyId}
                  onCancel={controls.requestCancel}
                  onResume={(subscription) => void controls.resume(subscription)}
                />
              </div>
            )}
          />
        </div>
      </Modal>
      {controls.dialogs}
    </>
  );
}
